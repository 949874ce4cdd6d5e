// SPDX-License-Identifier: MIT
// Catalogue loading: tinyxml2 parse, validation with file:line problems, phrase expansion and vocabulary.
#include "engine/intents/catalogue.h"

#include <tinyxml2.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

#include "engine/intents/units.h"
#include "sotto/hal/atomic_file.h"

namespace sotto::intents {
namespace {

constexpr int kSchemaVersion = 1;
// Limits that keep matching bounded: the matcher's tables are sized for them.
constexpr size_t kMaxExpansionsPerPhrase = 512;
constexpr size_t kMaxElementsPerPattern = 24;
constexpr size_t kMaxSlotsPerIntent = 4;

struct SlotTypeName {
  SlotType type;
  std::string_view name;
};
constexpr SlotTypeName kSlotTypeNames[] = {
    {SlotType::duration, "duration"}, {SlotType::time, "time"},     {SlotType::day, "day"},
    {SlotType::forecastDay, "forecast-day"}, {SlotType::level, "level"}, {SlotType::number, "number"},
    {SlotType::unit, "unit"},         {SlotType::label, "label"},   {SlotType::place, "place"},
    {SlotType::expression, "expression"}, {SlotType::result, "result"},
};

bool slotTypeFromName(std::string_view name, SlotType& t) {
  for (const auto& e : kSlotTypeNames) {
    if (e.name == name) {
      t = e.type;
      return true;
    }
  }
  return false;
}

std::string slotTypeList() {
  std::string s;
  for (const auto& e : kSlotTypeNames) {
    if (!s.empty()) s += ", ";
    s += e.name;
  }
  return s;
}

struct Homophone {
  std::string_view word, canonical;
};
// Words recognizers confuse in commands; both sides compare as the canonical spelling.
constexpr Homophone kHomophones[] = {
    {"two", "to"},     {"too", "to"},      {"four", "for"},  {"fore", "for"},  {"whether", "weather"},
    {"uh", "a"},       {"an", "a"},        {"write", "right"}, {"won", "one"}, {"our", "hour"},
    {"said", "set"},   {"their", "there"}, {"they're", "there"}, {"buy", "by"}, {"bye", "by"},
    {"here", "hear"},  {"weak", "week"},   {"wear", "where"}, {"knew", "new"}, {"no", "know"},
    {"alarms", "alarm"}, {"ate", "eight"},
};

// Function words: cheap to drop or insert, since recognizers drop and mishear exactly these.
constexpr std::string_view kSmallWords[] = {"a",  "the", "to",   "for", "of",   "on",   "in",  "at",
                                            "is", "are", "it",   "my",  "me",   "that", "this", "be",
                                            "do", "you", "your", "i",   "and",  "some", "there", "with"};

struct Problem {
  int line;
  std::string message;
};

struct Node {
  enum Kind { word, slot, group, optional } kind = word;
  std::string text;  // word, or slot name / ":type"
  std::vector<std::vector<Node>> alternatives;
};

// Recursive-descent parser of a phrase's pattern syntax.
class PhraseParser {
 public:
  explicit PhraseParser(std::string_view s) : s_(s) {}
  bool parse(std::vector<Node>& out, std::string& error) {
    if (!sequence(out, '\0')) {
      error = error_;
      return false;
    }
    if (out.empty()) {
      error = "empty phrase";
      return false;
    }
    return true;
  }

 private:
  void skip() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == '\n' || s_[pos_] == '\r')) ++pos_;
  }
  bool fail(std::string msg) {
    if (error_.empty()) error_ = std::move(msg);
    return false;
  }
  // Reads items until close (')' or ']' or '|' or end).
  bool sequence(std::vector<Node>& out, char close) {
    for (;;) {
      skip();
      if (pos_ >= s_.size()) {
        if (close != '\0') return fail(std::string("missing '") + close + "'");
        return true;
      }
      const char c = s_[pos_];
      if (c == '|' || c == ')' || c == ']') {
        if (close == '\0') return fail(std::string("unexpected '") + c + "'");
        return true;
      }
      if (c == '(' || c == '[') {
        // The parser recurses once per bracket: a limit keeps a hostile catalogue from exhausting the stack (a
        // phrase nested 50,000 deep crashed sotto intent). Real phrases nest two or three deep.
        if (depth_ >= kMaxPhraseDepth) {
          return fail("brackets nested more than " + std::to_string(kMaxPhraseDepth) + " deep");
        }
        ++pos_;
        ++depth_;
        Node n;
        n.kind = c == '(' ? Node::group : Node::optional;
        const char want = c == '(' ? ')' : ']';
        for (;;) {
          std::vector<Node> alt;
          if (!sequence(alt, want)) return false;
          if (alt.empty()) return fail(std::string("empty alternative in '") + c + "...'");
          n.alternatives.push_back(std::move(alt));
          skip();
          if (pos_ < s_.size() && s_[pos_] == '|') {
            ++pos_;
            continue;
          }
          if (pos_ < s_.size() && s_[pos_] == want) {
            ++pos_;
            --depth_;
            break;
          }
          return fail(std::string("missing '") + want + "'");
        }
        out.push_back(std::move(n));
        continue;
      }
      if (c == '{') {
        const size_t end = s_.find('}', pos_);
        if (end == std::string_view::npos) return fail("missing '}'");
        Node n;
        n.kind = Node::slot;
        n.text = std::string(s_.substr(pos_ + 1, end - pos_ - 1));
        if (n.text.empty() || n.text == ":") return fail("empty slot placeholder '{}'");
        pos_ = end + 1;
        out.push_back(std::move(n));
        continue;
      }
      const size_t start = pos_;
      while (pos_ < s_.size() && s_[pos_] >= 'a' && s_[pos_] <= 'z') ++pos_;
      if (pos_ == start) {
        return fail(std::string("unexpected character '") + c +
                    "' (phrases are lowercase words, ( | ) [ ] and {slot}; write contractions out: 'what is')");
      }
      if (pos_ < s_.size() && !(s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == '\n' || s_[pos_] == '\r' ||
                                s_[pos_] == '|' || s_[pos_] == ')' || s_[pos_] == ']' || s_[pos_] == '(' ||
                                s_[pos_] == '[' || s_[pos_] == '{')) {
        return fail(std::string("unexpected character '") + s_[pos_] + "' in word '" +
                    std::string(s_.substr(start, pos_ - start + 1)) +
                    "' (phrases are lowercase words; write contractions out: 'what is')");
      }
      Node n;
      n.kind = Node::word;
      n.text = std::string(s_.substr(start, pos_ - start));
      out.push_back(std::move(n));
    }
  }

  static constexpr int kMaxPhraseDepth = 16;
  std::string_view s_;
  size_t pos_ = 0;
  int depth_ = 0;
  std::string error_;
};

// A flat sequence before compilation: words and slot references.
struct FlatItem {
  bool isSlot;
  std::string text;
};
using Flat = std::vector<FlatItem>;

bool expand(const std::vector<Node>& seq, std::vector<Flat>& out) {
  out.assign(1, Flat{});
  for (const Node& n : seq) {
    if (n.kind == Node::word || n.kind == Node::slot) {
      for (Flat& f : out) f.push_back({n.kind == Node::slot, n.text});
      continue;
    }
    std::vector<Flat> options;
    if (n.kind == Node::optional) options.emplace_back();
    for (const auto& alt : n.alternatives) {
      std::vector<Flat> sub;
      if (!expand(alt, sub)) return false;
      for (auto& f : sub) options.push_back(std::move(f));
    }
    if (out.size() * options.size() > kMaxExpansionsPerPhrase) return false;
    std::vector<Flat> next;
    next.reserve(out.size() * options.size());
    for (const Flat& a : out) {
      for (const Flat& b : options) {
        Flat c = a;
        c.insert(c.end(), b.begin(), b.end());
        next.push_back(std::move(c));
      }
    }
    out = std::move(next);
  }
  return true;
}

std::vector<std::string> splitWords(std::string_view s) {
  std::vector<std::string> out;
  std::istringstream in{std::string(s)};
  std::string w;
  while (in >> w) out.push_back(w);
  return out;
}

bool lowercaseWords(std::string_view s) {
  for (char c : s) {
    if (!((c >= 'a' && c <= 'z') || c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',')) return false;
  }
  return true;
}

}  // namespace

std::string_view slotTypeName(SlotType t) noexcept {
  for (const auto& e : kSlotTypeNames) {
    if (e.type == t) return e.name;
  }
  return "?";
}

std::string_view canonicalHomophone(std::string_view token) noexcept {
  for (const auto& h : kHomophones) {
    if (h.word == token) return h.canonical;
  }
  return token;
}

int Catalogue::intentIndex(std::string_view name) const noexcept {
  for (size_t i = 0; i < intents_.size(); ++i) {
    if (intents_[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

int Catalogue::wordClass(std::string_view token) const noexcept {
  return vocabulary_.indexOf(canonicalHomophone(token));
}

bool Catalogue::isSmallClass(int cls) const noexcept {
  return cls >= 0 && static_cast<size_t>(cls) < smallClass_.size() && smallClass_[static_cast<size_t>(cls)] != 0;
}

class CatalogueBuilder {
 public:
  explicit CatalogueBuilder(std::string name) : file_(std::move(name)) {
    cat_.lexicons_.resize(kSlotTypeCount);
  }

  Result<Catalogue> build(std::string_view xml) {
    tinyxml2::XMLDocument doc;
    if (doc.Parse(xml.data(), xml.size()) != tinyxml2::XML_SUCCESS) {
      const char* detail = doc.ErrorStr();
      add(doc.ErrorLineNum(), std::string("malformed XML: ") + (detail ? detail : "parse error"));
      return finish();
    }
    const tinyxml2::XMLElement* root = doc.RootElement();
    if (root == nullptr || std::strcmp(root->Name(), "catalogue") != 0) {
      add(root ? root->GetLineNum() : 1, "the root element must be <catalogue version=\"1\">");
      return finish();
    }
    rootAttributes(*root);
    for (const tinyxml2::XMLElement* e = root->FirstChildElement(); e; e = e->NextSiblingElement()) {
      const std::string_view name = e->Name();
      if (name == "intent") {
        intent(*e);
      } else if (name == "reject") {
        reject(*e);
      } else if (name == "lexicon") {
        lexicon(*e);
      } else {
        add(e->GetLineNum(), "unknown element <" + std::string(name) + "> (expected intent, reject or lexicon)");
      }
    }
    for (const tinyxml2::XMLNode* n = root->FirstChild(); n; n = n->NextSibling()) {
      if (const auto* t = n->ToText(); t && !splitWords(t->Value()).empty()) {
        add(t->GetLineNum(), "unexpected text inside <catalogue>");
      }
    }
    if (cat_.intents_.empty() && problems_.empty()) add(root->GetLineNum(), "the catalogue declares no intent");
    if (!problems_.empty()) return finish();
    compile();
    return finish();
  }

 private:
  void add(int line, std::string message) { problems_.push_back({line, std::move(message)}); }

  Result<Catalogue> finish() {
    if (problems_.empty()) return std::move(cat_);
    std::stable_sort(problems_.begin(), problems_.end(),
                     [](const Problem& a, const Problem& b) { return a.line < b.line; });
    std::string msg;
    for (const auto& p : problems_) {
      if (!msg.empty()) msg += '\n';
      msg += file_ + ":" + std::to_string(p.line) + ": " + p.message;
    }
    return makeError(Errc::corrupt, std::move(msg));
  }

  void checkAttributes(const tinyxml2::XMLElement& e, std::initializer_list<std::string_view> allowed) {
    for (const tinyxml2::XMLAttribute* a = e.FirstAttribute(); a; a = a->Next()) {
      if (std::find(allowed.begin(), allowed.end(), std::string_view(a->Name())) == allowed.end()) {
        add(a->GetLineNum(), "unknown attribute '" + std::string(a->Name()) + "' on <" + e.Name() + ">");
      }
    }
  }

  // An attribute that is a fraction in [0, 1]: its value in `out`; a bad one is reported and leaves `out` as it was.
  void fractionAttribute(const tinyxml2::XMLElement& e, const char* name, double& out) {
    const char* text = e.Attribute(name);
    if (text == nullptr) return;
    char* end = nullptr;
    errno = 0;
    const double d = std::strtod(text, &end);
    if (end == text || *end != '\0' || errno != 0 || !(d >= 0.0 && d <= 1.0)) {
      add(e.GetLineNum(), std::string(name) + " \"" + text + "\" is not a number in [0, 1]");
    } else {
      out = d;
    }
  }

  void rootAttributes(const tinyxml2::XMLElement& root) {
    checkAttributes(root, {"version", "min-confidence"});
    const char* v = root.Attribute("version");
    if (v == nullptr) {
      add(root.GetLineNum(), "missing version; write <catalogue version=\"1\">");
    } else if (std::string_view(v) != std::to_string(kSchemaVersion)) {
      add(root.GetLineNum(), std::string("unsupported version \"") + v + "\" (this build reads version 1)");
    }
    fractionAttribute(root, "min-confidence", cat_.minConfidence_);
  }

  void intent(const tinyxml2::XMLElement& e) {
    checkAttributes(e, {"name", "changes-state", "clarify-below"});
    IntentSpec spec;
    spec.line = e.GetLineNum();
    const char* name = e.Attribute("name");
    if (name == nullptr || *name == '\0') {
      add(e.GetLineNum(), "<intent> needs a name");
      return;
    }
    spec.name = name;
    spec.changesState = changesStateByDefault(spec.name);
    if (const char* cs = e.Attribute("changes-state")) {
      const std::string_view v = cs;
      if (v != "true" && v != "false") {
        add(e.GetLineNum(), std::string("changes-state=\"") + cs + "\" must be true or false");
      }
      spec.changesState = v != "false";  // a bad value is an error above; fail towards asking again
    }
    fractionAttribute(e, "clarify-below", spec.clarifyBelow);
    if (spec.name == "none") add(e.GetLineNum(), "intent name \"none\" is reserved (it means: no intent matched)");
    for (char c : spec.name) {
      if (!((c >= 'a' && c <= 'z') || c == '.' || c == '_' || (c >= '0' && c <= '9'))) {
        add(e.GetLineNum(), "intent name \"" + spec.name + "\" may use only a-z 0-9 . _");
        break;
      }
    }
    if (cat_.intentIndex(spec.name) >= 0) add(e.GetLineNum(), "intent \"" + spec.name + "\" is declared twice");
    std::vector<int> phraseLines;
    for (const tinyxml2::XMLElement* c = e.FirstChildElement(); c; c = c->NextSiblingElement()) {
      const std::string_view cn = c->Name();
      if (cn == "slot") {
        slot(*c, spec);
      } else if (cn == "phrase") {
        checkAttributes(*c, {});
        const char* text = c->GetText();
        if (text == nullptr || splitWords(text).empty()) {
          add(c->GetLineNum(), "empty <phrase>");
          continue;
        }
        spec.phrases.emplace_back(text);
        phraseLines.push_back(c->GetLineNum());
      } else {
        add(c->GetLineNum(), "unknown element <" + std::string(cn) + "> in <intent> (expected slot or phrase)");
      }
    }
    // result slots name their expression slot; resolved once all slots are known.
    for (size_t i = 0; i < spec.slots.size(); ++i) {
      SlotSpec& s = spec.slots[i];
      if (s.type != SlotType::result) continue;
      const int src = sourceOf_[i];
      if (src == -1) add(e.GetLineNum(), "slot \"" + s.name + "\" of type result needs source=\"<expression slot>\"");
      s.source = src >= 0 ? src : -1;
    }
    if (spec.phrases.empty()) add(e.GetLineNum(), "intent \"" + spec.name + "\" has no <phrase>");
    const int index = static_cast<int>(cat_.intents_.size());
    for (size_t p = 0; p < spec.phrases.size(); ++p) phrase(spec, index, spec.phrases[p], phraseLines[p]);
    sourceOf_.clear();
    cat_.intents_.push_back(std::move(spec));
  }

  void slot(const tinyxml2::XMLElement& e, IntentSpec& spec) {
    checkAttributes(e, {"name", "type", "required", "source"});
    const char* name = e.Attribute("name");
    const char* type = e.Attribute("type");
    if (name == nullptr || *name == '\0' || type == nullptr) {
      add(e.GetLineNum(), "<slot> needs name and type");
      return;
    }
    SlotSpec s;
    s.name = name;
    if (!slotTypeFromName(type, s.type)) {
      add(e.GetLineNum(), std::string("unknown slot type \"") + type + "\" (types: " + slotTypeList() + ")");
      return;
    }
    for (const auto& other : spec.slots) {
      if (other.name == s.name) {
        add(e.GetLineNum(), "slot \"" + s.name + "\" is declared twice");
        return;
      }
    }
    if (spec.slots.size() >= kMaxSlotsPerIntent) {
      add(e.GetLineNum(), "an intent has at most " + std::to_string(kMaxSlotsPerIntent) + " slots");
      return;
    }
    if (const char* r = e.Attribute("required")) {
      const std::string_view rv = r;
      if (rv != "true" && rv != "false") {
        add(e.GetLineNum(), std::string("required=\"") + r + "\" must be true or false");
      }
      s.required = rv == "true";
    }
    int src = -1;  // -1: no source attribute; -2: a bad one, reported here
    if (const char* source = e.Attribute("source")) {
      src = -2;
      if (s.type != SlotType::result) {
        add(e.GetLineNum(), "source= is only for slots of type result");
      } else {
        for (size_t i = 0; i < spec.slots.size(); ++i) {
          if (spec.slots[i].name == source && spec.slots[i].type == SlotType::expression) src = static_cast<int>(i);
        }
        if (src < 0) add(e.GetLineNum(), std::string("source \"") + source + "\" is not an expression slot declared before it");
      }
    }
    sourceOf_.push_back(src);
    spec.slots.push_back(std::move(s));
  }

  void phrase(const IntentSpec& spec, int intent, const std::string& text, int line) {
    std::vector<Node> nodes;
    std::string error;
    PhraseParser parser(text);
    if (!parser.parse(nodes, error)) {
      add(line, "phrase \"" + trimmed(text) + "\": " + error);
      return;
    }
    std::vector<Flat> flats;
    if (!expand(nodes, flats)) {
      add(line, "phrase \"" + trimmed(text) + "\" expands to more than " + std::to_string(kMaxExpansionsPerPhrase) +
                    " word sequences; split it into several <phrase>s");
      return;
    }
    bool reported = false;
    for (const Flat& f : flats) {
      if (f.size() > kMaxElementsPerPattern && !reported) {
        add(line, "phrase \"" + trimmed(text) + "\" is longer than " + std::to_string(kMaxElementsPerPattern) +
                      " words and slots");
        reported = true;
      }
      std::vector<std::string> used;
      for (const FlatItem& item : f) {
        if (!item.isSlot) continue;
        if (item.text[0] == ':') {
          SlotType t;
          if (!slotTypeFromName(std::string_view(item.text).substr(1), t) || t == SlotType::result) {
            if (!reported) add(line, "unknown placeholder type {" + item.text + "} (types: " + slotTypeList() + ")");
            reported = true;
          }
          continue;
        }
        const SlotSpec* s = nullptr;
        for (const auto& cand : spec.slots) {
          if (cand.name == item.text) s = &cand;
        }
        if (s == nullptr) {
          if (!reported) add(line, "phrase uses {" + item.text + "}, which intent \"" + spec.name + "\" does not declare");
          reported = true;
        } else if (s->type == SlotType::result) {
          if (!reported) add(line, "slot \"" + s->name + "\" is derived (type result) and cannot appear in a phrase");
          reported = true;
        } else if (std::find(used.begin(), used.end(), item.text) != used.end()) {
          if (!reported) add(line, "phrase uses {" + item.text + "} twice");
          reported = true;
        }
        used.push_back(item.text);
      }
      for (const auto& s : spec.slots) {
        if (s.required && std::find(used.begin(), used.end(), s.name) == used.end() && !reported) {
          add(line, "phrase \"" + trimmed(text) + "\" can match without required slot {" + s.name + "}");
          reported = true;
        }
      }
      if (std::all_of(f.begin(), f.end(), [](const FlatItem& i) { return i.isSlot; }) && !reported &&
          f.size() == 1 && spec.slots.empty()) {
        add(line, "phrase \"" + trimmed(text) + "\" has no words");
        reported = true;
      }
      pendingFlats_.push_back({intent, line, f});
    }
  }

  void reject(const tinyxml2::XMLElement& e) {
    checkAttributes(e, {});
    const char* text = e.GetText();
    if (text == nullptr || splitWords(text).empty() || !lowercaseWords(text)) {
      add(e.GetLineNum(), "<reject> holds the lowercase words an open request starts with, e.g. \"how do i\"");
      return;
    }
    cat_.rejects_.push_back(splitWords(text));
  }

  void lexicon(const tinyxml2::XMLElement& e) {
    checkAttributes(e, {"type"});
    SlotType t;
    const char* type = e.Attribute("type");
    if (type == nullptr || !slotTypeFromName(type, t) || (t != SlotType::label && t != SlotType::place)) {
      add(e.GetLineNum(), "<lexicon> needs type=\"label\" or type=\"place\"");
      return;
    }
    const char* text = e.GetText();
    if (text == nullptr || !lowercaseWords(text)) {
      add(e.GetLineNum(), "<lexicon> holds comma-separated lowercase entries");
      return;
    }
    auto& list = cat_.lexicons_[static_cast<size_t>(t)];
    std::string_view rest = text;
    while (!rest.empty()) {
      const size_t comma = rest.find(',');
      const auto words = splitWords(rest.substr(0, comma));
      std::string entry;
      for (const auto& w : words) entry += (entry.empty() ? "" : " ") + w;
      if (!entry.empty()) list.push_back(entry);
      if (comma == std::string_view::npos) break;
      rest.remove_prefix(comma + 1);
    }
  }

  static std::string trimmed(const std::string& s) {
    std::string out;
    for (const auto& w : splitWords(s)) out += (out.empty() ? "" : " ") + w;
    return out.size() > 60 ? out.substr(0, 57) + "..." : out;
  }

  void compile() {
    static constexpr std::string_view kNumberWords[] = {
        "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
        "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty",
        "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety", "hundred", "thousand", "million",
        "half", "quarter", "point", "minute", "minutes", "second", "seconds", "hour", "hours", "oclock", "noon",
        "midnight", "morning", "evening", "afternoon", "night", "today", "tomorrow", "tonight", "weekend",
        "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"};
    WordSet& v = cat_.vocabulary_;
    for (const auto& p : pendingFlats_) {
      for (const auto& item : p.items) {
        if (!item.isSlot) v.add(canonicalHomophone(item.text));
      }
    }
    for (std::string_view w : kNumberWords) v.add(w);
    for (std::string_view s : unitSpellings()) {
      for (const auto& w : splitWords(s)) v.add(w);
    }
    for (std::string_view w : kSmallWords) v.add(w);
    v.finish();
    cat_.smallClass_.assign(v.size(), 0);
    for (std::string_view w : kSmallWords) cat_.smallClass_[static_cast<size_t>(v.indexOf(w))] = 1;

    for (const auto& p : pendingFlats_) {
      Pattern pat;
      pat.intent = p.intent;
      pat.line = p.line;
      const IntentSpec& spec = cat_.intents_[static_cast<size_t>(p.intent)];
      for (const auto& item : p.items) {
        PatternElement el;
        if (item.isSlot) {
          el.isSlot = true;
          if (item.text[0] == ':') {
            slotTypeFromName(std::string_view(item.text).substr(1), el.type);
          } else {
            for (size_t s = 0; s < spec.slots.size(); ++s) {
              if (spec.slots[s].name == item.text) {
                el.slot = static_cast<int>(s);
                el.type = spec.slots[s].type;
              }
            }
          }
        } else {
          el.word = v.indexOf(canonicalHomophone(item.text));
          el.small = cat_.isSmallClass(el.word);
          if (!el.small && std::find(pat.contentWords.begin(), pat.contentWords.end(), el.word) == pat.contentWords.end()) {
            pat.contentWords.push_back(el.word);
          }
        }
        pat.elements.push_back(el);
      }
      // The same sequence from two phrasings would only cost time.
      const bool duplicate = std::any_of(cat_.patterns_.begin(), cat_.patterns_.end(), [&](const Pattern& q) {
        if (q.intent != pat.intent || q.elements.size() != pat.elements.size()) return false;
        for (size_t k = 0; k < q.elements.size(); ++k) {
          const auto& a = q.elements[k];
          const auto& b = pat.elements[k];
          if (a.isSlot != b.isSlot || a.word != b.word || a.slot != b.slot || a.type != b.type) return false;
        }
        return true;
      });
      if (!duplicate) cat_.patterns_.push_back(std::move(pat));
    }
  }

  struct PendingFlat {
    int intent;
    int line;
    Flat items;
  };

  std::string file_;
  Catalogue cat_;
  std::vector<Problem> problems_;
  std::vector<int> sourceOf_;
  std::vector<PendingFlat> pendingFlats_;
};

Result<Catalogue> Catalogue::parse(std::string_view xml, std::string_view nameForMessages) {
  CatalogueBuilder b{std::string(nameForMessages)};
  return b.build(xml);
}

Result<Catalogue> Catalogue::loadFile(const std::string& path) {
  // A regular file only: a FIFO or a device is refused at once instead of being waited on or read without end.
  auto bytes = hal::readFile(path, kMaxCatalogueBytes);
  if (!bytes) {
    const Error& e = bytes.error();
    if (e.code == Errc::not_found) return makeError(Errc::not_found, path + ": cannot open the intent catalogue");
    if (e.code == Errc::corrupt) return makeError(Errc::corrupt, e.message + "; not an intent catalogue");
    return makeError(e.code, e.message);
  }
  return parse(std::string_view(reinterpret_cast<const char*>(bytes->data()), bytes->size()), path);
}

}  // namespace sotto::intents
