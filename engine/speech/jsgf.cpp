// SPDX-License-Identifier: MIT
// pruneGrammar(): a small recursive-descent JSGF reader that rewrites rules without unknown words; reduceFsg():
// merging the FSG's alike states.
#include "engine/speech/jsgf.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>
#include <vector>

namespace sotto::speech {
namespace {

struct Token {
  enum Kind { word, rule, tag, weight, punct, end } kind;
  std::string text;
};

Result<std::vector<Token>> tokenize(std::string_view s) {
  std::vector<Token> out;
  size_t i = 0;
  auto until = [&](char close, Token::Kind kind) -> bool {
    const size_t end = s.find(close, i + 1);
    if (end == std::string_view::npos) return false;
    out.push_back({kind, std::string(s.substr(i, end + 1 - i))});
    i = end + 1;
    return true;
  };
  while (i < s.size()) {
    const char c = s[i];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      ++i;
    } else if (s.substr(i, 2) == "//") {
      const size_t end = s.find('\n', i);
      i = end == std::string_view::npos ? s.size() : end + 1;
    } else if (s.substr(i, 2) == "/*") {
      const size_t end = s.find("*/", i + 2);
      if (end == std::string_view::npos) return makeError(Errc::corrupt, "JSGF: unterminated comment");
      i = end + 2;
    } else if (c == '<') {
      if (!until('>', Token::rule)) return makeError(Errc::corrupt, "JSGF: unterminated rule name");
    } else if (c == '{') {
      if (!until('}', Token::tag)) return makeError(Errc::corrupt, "JSGF: unterminated tag");
    } else if (c == '/') {
      if (!until('/', Token::weight)) return makeError(Errc::corrupt, "JSGF: unterminated weight");
    } else if (c == '(' || c == ')' || c == '[' || c == ']' || c == '|' || c == '+' || c == '*' || c == ';' ||
               c == '=') {
      out.push_back({Token::punct, std::string(1, c)});
      ++i;
    } else {
      size_t j = i;
      while (j < s.size() && std::string_view(" \t\r\n<>{}()[]|+*;=/").find(s[j]) == std::string_view::npos) ++j;
      out.push_back({Token::word, std::string(s.substr(i, j - i))});
      i = j;
    }
  }
  out.push_back({Token::end, ""});
  return out;
}

// One rewritten piece of an expansion: its text (empty = says nothing) and whether it can be said at all.
struct Piece {
  std::string text;
  bool sayable = true;
};

class Pruner {
 public:
  Pruner(const std::vector<Token>& tokens, size_t pos, const std::function<bool(std::string_view)>& known,
         const std::set<std::string>& voidRules)
      : t_(tokens), pos_(pos), known_(known), void_(voidRules) {}

  // alternatives := sequence ('|' sequence)*, up to (not including) ')' ']' or ';'.
  Result<Piece> alternatives() {
    std::vector<std::string> kept;
    bool any = false;
    for (;;) {
      auto seq = sequence();
      if (!seq.ok()) return seq;
      if (seq.value().sayable) {
        any = true;
        kept.push_back(seq.value().text.empty() ? "<NULL>" : seq.value().text);
      }
      if (!isPunct("|")) break;
      ++pos_;
    }
    Piece p;
    p.sayable = any;
    for (size_t i = 0; i < kept.size(); ++i) p.text += (i ? " | " : "") + kept[i];
    return p;
  }
  size_t pos() const { return pos_; }

 private:
  bool isPunct(const char* p) const { return t_[pos_].kind == Token::punct && t_[pos_].text == p; }

  Result<Piece> sequence() {
    Piece seq;
    if (t_[pos_].kind == Token::weight) seq.text = t_[pos_++].text;  // a weight leads its alternative
    for (;;) {
      const Token& tok = t_[pos_];
      if (tok.kind == Token::end) return makeError(Errc::corrupt, "JSGF: rule without ';'");
      if (tok.kind == Token::punct && (tok.text == "|" || tok.text == ")" || tok.text == "]" || tok.text == ";")) {
        break;
      }
      auto item = this->item();
      if (!item.ok()) return item;
      if (!item.value().sayable) seq.sayable = false;
      if (!item.value().text.empty()) seq.text += (seq.text.empty() ? "" : " ") + item.value().text;
    }
    if (!seq.sayable) seq.text.clear();
    return seq;
  }

  Result<Piece> item() {
    const Token tok = t_[pos_++];
    Piece p;
    bool optional = false;
    if (tok.kind == Token::word) {
      p.text = tok.text;
      p.sayable = known_(tok.text);
    } else if (tok.kind == Token::rule) {
      p.text = tok.text;
      p.sayable = tok.text != "<VOID>" && !void_.count(tok.text);
    } else if (tok.kind == Token::punct && (tok.text == "(" || tok.text == "[")) {
      const char* close = tok.text == "(" ? ")" : "]";
      auto inner = alternatives();
      if (!inner.ok()) return inner;
      if (!isPunct(close)) return makeError(Errc::corrupt, std::string("JSGF: expected '") + close + "'");
      ++pos_;
      optional = tok.text == "[";
      p.sayable = inner.value().sayable;
      if (p.sayable) p.text = tok.text + " " + inner.value().text + " " + close;
    } else {
      return makeError(Errc::corrupt, "JSGF: unexpected '" + tok.text + "'");
    }
    // Repetition and tags bind to the item.
    while (t_[pos_].kind == Token::tag || isPunct("+") || isPunct("*")) {
      const Token& suffix = t_[pos_++];
      if (suffix.text == "*") optional = true;
      if (p.sayable) p.text += suffix.kind == Token::tag ? " " + suffix.text : suffix.text;
    }
    if (!p.sayable && optional) return Piece{};  // [nothing sayable] / (nothing sayable)*: says nothing
    return p;
  }

  const std::vector<Token>& t_;
  size_t pos_;
  const std::function<bool(std::string_view)>& known_;
  const std::set<std::string>& void_;
};

}  // namespace

Result<std::string> pruneGrammar(std::string_view jsgf, const std::function<bool(std::string_view)>& known) {
  // The header ("#JSGF V1.0;", "grammar NAME;", imports) is kept verbatim: rules start after the last of them.
  size_t body = 0;
  for (const char* keyword : {"grammar ", "import "}) {
    for (size_t at = jsgf.find(keyword); at != std::string_view::npos; at = jsgf.find(keyword, at + 1)) {
      const size_t semi = jsgf.find(';', at);
      if (semi != std::string_view::npos && semi + 1 > body) body = semi + 1;
    }
  }
  if (body == 0) return makeError(Errc::corrupt, "JSGF: no grammar declaration");
  auto tokens = tokenize(jsgf.substr(body));
  if (!tokens.ok()) return std::move(tokens).error();
  const std::vector<Token>& t = tokens.value();

  // Rules whose expansion cannot be said make references to them unsayable: repeat until nothing changes.
  std::set<std::string> voidRules;
  for (;;) {
    std::string out(jsgf.substr(0, body));
    out += '\n';
    bool changed = false, publicLeft = false;
    size_t pos = 0;
    while (t[pos].kind != Token::end) {
      bool isPublic = false;
      if (t[pos].kind == Token::word && t[pos].text == "public") {
        isPublic = true;
        ++pos;
      }
      if (t[pos].kind != Token::rule || t[pos + 1].kind != Token::punct || t[pos + 1].text != "=") {
        return makeError(Errc::corrupt, "JSGF: expected '<rule> =' at '" + t[pos].text + "'");
      }
      const std::string name = t[pos].text;
      Pruner pruner(t, pos + 2, known, voidRules);
      auto rhs = pruner.alternatives();
      if (!rhs.ok()) return std::move(rhs).error();
      pos = pruner.pos();
      if (t[pos].kind != Token::punct || t[pos].text != ";") return makeError(Errc::corrupt, "JSGF: expected ';'");
      ++pos;
      if (!rhs.value().sayable) {
        changed |= voidRules.insert(name).second;
        continue;
      }
      publicLeft |= isPublic;
      out += (isPublic ? "public " : "") + name + " = " + rhs.value().text + ";\n";
    }
    if (!changed) {
      if (!publicLeft) return makeError(Errc::corrupt, "JSGF: no public rule can be said with this dictionary");
      return out;
    }
  }
}

namespace {

// The coarsest partition of g's states in which two states of a class have the same flags (start, final) and the
// same set of (word, logp, class of the other end) over their outgoing (forward) or incoming arcs: partition
// refinement from one class, each round splitting by that signature, until no class splits.
std::vector<int32_t> alikeStates(const FsgGraph& g, bool outgoing) {
  const size_t n = static_cast<size_t>(g.states);
  std::vector<int32_t> cls(n, 0);
  size_t classes = 0;
  using Edge = std::tuple<int32_t, int32_t, int32_t>;  // word, logp, class of the other end
  std::vector<std::vector<Edge>> edges(n);
  for (;;) {
    for (auto& e : edges) e.clear();
    for (const FsgArc& a : g.arcs) {
      const size_t self = static_cast<size_t>(outgoing ? a.from : a.to);
      edges[self].emplace_back(a.word, a.logp, cls[static_cast<size_t>(outgoing ? a.to : a.from)]);
    }
    std::map<std::tuple<int32_t, bool, bool, std::vector<Edge>>, int32_t> ids;
    std::vector<int32_t> next(n);
    for (size_t s = 0; s < n; ++s) {
      auto& e = edges[s];
      std::sort(e.begin(), e.end());
      e.erase(std::unique(e.begin(), e.end()), e.end());
      const auto key = std::make_tuple(cls[s], static_cast<int32_t>(s) == g.start, static_cast<int32_t>(s) == g.final,
                                       std::move(e));
      next[s] = ids.emplace(key, static_cast<int32_t>(ids.size())).first->second;
    }
    cls = std::move(next);
    if (ids.size() == classes) return cls;
    classes = ids.size();
  }
}

FsgGraph quotient(const FsgGraph& g, const std::vector<int32_t>& cls) {
  FsgGraph q;
  q.states = 1 + *std::max_element(cls.begin(), cls.end());
  q.start = cls[static_cast<size_t>(g.start)];
  q.final = cls[static_cast<size_t>(g.final)];
  std::set<std::tuple<int32_t, int32_t, int32_t, int32_t>> seen;
  for (const FsgArc& a : g.arcs) {
    const FsgArc m{cls[static_cast<size_t>(a.from)], cls[static_cast<size_t>(a.to)], a.word, a.logp};
    if (m.word < 0 && m.from == m.to) continue;  // a null self-loop changes no path's weight for the better
    if (seen.emplace(m.from, m.to, m.word, m.logp).second) q.arcs.push_back(m);
  }
  return q;
}

}  // namespace

FsgGraph reduceFsg(const FsgGraph& g) {
  if (g.states <= 0) return g;
  FsgGraph cur = g;
  for (;;) {
    const int32_t before = cur.states;
    cur = quotient(cur, alikeStates(cur, true));
    cur = quotient(cur, alikeStates(cur, false));
    if (cur.states == before) return cur;
  }
}

}  // namespace sotto::speech
