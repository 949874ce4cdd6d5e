// SPDX-License-Identifier: MIT
// Utterance normalization: a lexer into fixed storage, then token-level rewrites (contractions, fillers, joins).
#include "engine/intents/normalize.h"

#include <algorithm>
#include <cstring>

namespace sotto::intents {

void WordSet::add(std::string_view word) { words_.emplace_back(word); }

void WordSet::finish() {
  std::sort(words_.begin(), words_.end());
  words_.erase(std::unique(words_.begin(), words_.end()), words_.end());
}

int WordSet::indexOf(std::string_view word) const noexcept {
  auto it = std::lower_bound(words_.begin(), words_.end(), word,
                             [](const std::string& a, std::string_view b) { return std::string_view(a) < b; });
  if (it == words_.end() || std::string_view(*it) != word) return -1;
  return static_cast<int>(it - words_.begin());
}

bool WordSet::contains(std::string_view word) const noexcept { return indexOf(word) >= 0; }

namespace {

struct Contraction {
  std::string_view from;
  std::string_view to[3];
};

// Expansions the patterns are written against. Apostrophe-less spellings are common in typed input and ASR.
constexpr Contraction kContractions[] = {
    {"what's", {"what", "is"}},    {"whats", {"what", "is"}},      {"what're", {"what", "are"}},
    {"how's", {"how", "is"}},      {"hows", {"how", "is"}},        {"where's", {"where", "is"}},
    {"who's", {"who", "is"}},      {"when's", {"when", "is"}},     {"it's", {"it", "is"}},
    {"that's", {"that", "is"}},    {"thats", {"that", "is"}},      {"there's", {"there", "is"}},
    {"here's", {"here", "is"}},    {"let's", {"let", "us"}},       {"i'm", {"i", "am"}},
    {"i'd", {"i", "would"}},       {"i'll", {"i", "will"}},        {"i've", {"i", "have"}},
    {"you're", {"you", "are"}},    {"you'll", {"you", "will"}},    {"it'll", {"it", "will"}},
    {"don't", {"do", "not"}},      {"dont", {"do", "not"}},        {"doesn't", {"does", "not"}},
    {"didn't", {"did", "not"}},    {"can't", {"can", "not"}},      {"cant", {"can", "not"}},
    {"cannot", {"can", "not"}},    {"won't", {"will", "not"}},     {"isn't", {"is", "not"}},
    {"aren't", {"are", "not"}},    {"wasn't", {"was", "not"}},     {"couldn't", {"could", "not"}},
    {"wouldn't", {"would", "not"}}, {"shouldn't", {"should", "not"}}, {"gonna", {"going", "to"}},
    {"wanna", {"want", "to"}},     {"gotta", {"got", "to"}},       {"whatre", {"what", "are"}},
};

constexpr std::string_view kLeadingFillers[] = {"um",   "uh",   "uhm",   "umm",     "er",    "erm",  "ah",
                                                "oh",   "hey",  "hi",    "hello",   "okay",  "ok",   "so",
                                                "well", "alright", "right", "yo",   "hmm",   "sotto", "please",
                                                "and",  "now",  "just",  "quickly", "actually"};
constexpr std::string_view kAnywhereFillers[] = {"um", "uhm", "umm", "erm", "hmm", "please", "kindly"};
constexpr std::string_view kTrailingFillers[] = {"thanks", "thank", "you", "please", "ok", "okay",
                                                 "cheers", "buddy", "sotto"};

// Request frames that carry no intent ("can you", "i want you to"); removed at the start, longest first.
constexpr std::string_view kFrames[][5] = {
    {"would", "you", "mind"}, {"i", "want", "you", "to"}, {"i", "need", "you", "to"},
    {"i", "would", "like", "you", "to"}, {"can", "you"}, {"could", "you"}, {"would", "you"}, {"will", "you"},
    {"can", "u"}, {"go", "ahead", "and"}, {"be", "a", "dear", "and"},
};

template <size_t N>
bool inList(const std::string_view (&list)[N], std::string_view w) {
  return std::find(std::begin(list), std::end(list), w) != std::end(list);
}

bool isDigit(char c) { return c >= '0' && c <= '9'; }
bool isLetter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
char lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

class Builder {
 public:
  explicit Builder(Utterance& u) : u_(u) {
    u_.count = 0;
    u_.used = 0;
    u_.truncated = false;
  }
  void begin() { start_ = u_.used; }
  void put(char c) {
    if (u_.used + 1 >= Utterance::kTextCapacity) {
      u_.truncated = true;
      return;
    }
    u_.text[u_.used++] = c;
  }
  void end() {
    if (u_.used > start_) push({u_.text + start_, u_.used - start_});
  }
  void push(std::string_view t) {
    if (u_.count >= Utterance::kMaxTokens) {
      u_.truncated = true;
      return;
    }
    u_.tokens[u_.count++] = t;
  }
  // A joined copy of two strings, in the text buffer (for rejoined fragments).
  std::string_view join(std::string_view a, std::string_view b) {
    if (u_.used + a.size() + b.size() + 1 >= Utterance::kTextCapacity) return {};
    char* p = u_.text + u_.used;
    std::memcpy(p, a.data(), a.size());
    std::memcpy(p + a.size(), b.data(), b.size());
    u_.used += a.size() + b.size();
    return {p, a.size() + b.size()};
  }

 private:
  Utterance& u_;
  size_t start_ = 0;
};

// Pass 1: characters to raw tokens.
void lex(std::string_view in, Builder& b) {
  const size_t n = in.size();
  size_t i = 0;
  while (i < n) {
    const char c = in[i];
    if (isLetter(c)) {
      b.begin();
      while (i < n) {
        const char d = in[i];
        if (isLetter(d)) {
          b.put(lower(d));
          ++i;
        } else if ((d == '\'' || d == '`') && i + 1 < n && isLetter(in[i + 1])) {
          b.put('\'');
          ++i;
        } else if (static_cast<unsigned char>(d) == 0xE2 && i + 3 < n && static_cast<unsigned char>(in[i + 1]) == 0x80 &&
                   static_cast<unsigned char>(in[i + 2]) == 0x99 && isLetter(in[i + 3])) {
          b.put('\'');  // U+2019 right single quotation mark, as phones type it
          i += 3;
        } else {
          break;
        }
      }
      b.end();
      continue;
    }
    if (isDigit(c)) {
      b.begin();
      while (i < n) {
        const char d = in[i];
        if (isDigit(d)) {
          b.put(d);
          ++i;
        } else if ((d == '.' || d == ':') && i + 1 < n && isDigit(in[i + 1])) {
          b.put(d);
          ++i;
        } else if (d == ',' && i + 3 < n && isDigit(in[i + 1]) && isDigit(in[i + 2]) && isDigit(in[i + 3]) &&
                   (i + 4 >= n || !isDigit(in[i + 4]))) {
          ++i;  // thousands separator
        } else {
          break;
        }
      }
      b.end();
      continue;
    }
    const unsigned char u = static_cast<unsigned char>(c);
    if (c == '-' && i + 1 < n && (isDigit(in[i + 1]) || in[i + 1] == '.') &&
        (i == 0 || in[i - 1] == ' ' || in[i - 1] == '(' || in[i - 1] == '=')) {
      b.push("-");
    } else if (c == '+') {
      b.push("+");
    } else if (c == '*') {
      b.push("*");
    } else if (c == '/') {
      b.push("/");
    } else if (c == '^') {
      b.push("^");
    } else if (c == '%') {
      b.push("%");
    } else if (c == '-' && i > 0 && i + 1 < n && isDigit(in[i - 1]) && in[i + 1] == ' ') {
      b.push("-");  // "5 -3" is handled above; "5- 3" here
    } else if (c == '-' && i > 0 && i + 2 < n && in[i - 1] == ' ' && in[i + 1] == ' ') {
      b.push("-");  // "7 - 3"
    } else if (u == 0xC3 && i + 1 < n && static_cast<unsigned char>(in[i + 1]) == 0x97) {
      b.push("*");  // U+00D7 multiplication sign
      ++i;
    } else if (u == 0xC3 && i + 1 < n && static_cast<unsigned char>(in[i + 1]) == 0xB7) {
      b.push("/");  // U+00F7 division sign
      ++i;
    }
    ++i;
  }
}

}  // namespace

void normalizeUtterance(std::string_view input, Utterance& out, const WordSet* vocabulary) noexcept {
  Builder b(out);
  lex(input, b);

  // Pass 2: in place rewrites over the token array (expansions grow it, so work from a copy of the views).
  std::array<std::string_view, Utterance::kMaxTokens> raw{};
  const size_t rawCount = out.count;
  std::copy_n(out.tokens.begin(), rawCount, raw.begin());
  out.count = 0;
  for (size_t i = 0; i < rawCount; ++i) {
    std::string_view t = raw[i];
    // Joins across the lexer's splits.
    if (t == "km" && i + 2 < rawCount && raw[i + 1] == "/" && raw[i + 2] == "h") {
      b.push("kmh");
      i += 2;
      continue;
    }
    if ((t == "a" || t == "p") && i + 1 < rawCount && raw[i + 1] == "m" && i > 0) {
      b.push(t == "a" ? "am" : "pm");
      ++i;
      continue;
    }
    if (t == "o" && i + 1 < rawCount && raw[i + 1] == "clock") {
      b.push("oclock");
      ++i;
      continue;
    }
    if (t == "o'clock") {
      b.push("oclock");
      continue;
    }
    bool expanded = false;
    for (const auto& c : kContractions) {
      if (c.from == t) {
        for (std::string_view w : c.to) {
          if (!w.empty()) b.push(w);
        }
        expanded = true;
        break;
      }
    }
    if (expanded) continue;
    if (const size_t q = t.find('\''); q != std::string_view::npos) {
      // Possessives and unknown contractions lose the apostrophe ("today's" -> "todays", "n't" kept as "nt").
      std::string_view joined = b.join(t.substr(0, q), t.substr(q + 1));
      if (!joined.empty()) t = joined;
    }
    b.push(t);
  }

  // Pass 3: fillers, frames, fragments. Works on a compacted copy.
  auto& tok = out.tokens;
  size_t n = out.count;
  auto eraseAt = [&](size_t at, size_t len) {
    std::move(tok.begin() + static_cast<std::ptrdiff_t>(at + len), tok.begin() + static_cast<std::ptrdiff_t>(n),
              tok.begin() + static_cast<std::ptrdiff_t>(at));
    n -= len;
  };
  // Anywhere fillers.
  for (size_t i = 0; i < n;) {
    if (inList(kAnywhereFillers, tok[i])) {
      eraseAt(i, 1);
    } else {
      ++i;
    }
  }
  // Leading fillers and request frames, repeatedly ("okay um can you please ...").
  for (bool changed = true; changed && n > 0;) {
    changed = false;
    if (inList(kLeadingFillers, tok[0]) && n > 1) {
      eraseAt(0, 1);
      changed = true;
      continue;
    }
    for (const auto& frame : kFrames) {
      size_t len = 0;
      while (len < 5 && !frame[len].empty()) ++len;
      if (len >= n) continue;
      bool match = true;
      for (size_t k = 0; k < len && match; ++k) match = tok[k] == frame[k];
      if (match) {
        eraseAt(0, len);
        changed = true;
        break;
      }
    }
  }
  // Trailing politeness ("thank you", "thanks", "please").
  while (n > 1 && inList(kTrailingFillers, tok[n - 1])) {
    if (tok[n - 1] == "you" && !(n >= 2 && tok[n - 2] == "thank")) break;
    --n;
  }
  // "was the date today": recognizers hear "what's" as "was" at the start.
  if (n > 1 && tok[0] == "was") {
    if (n < Utterance::kMaxTokens) {
      std::move_backward(tok.begin() + 1, tok.begin() + static_cast<std::ptrdiff_t>(n),
                         tok.begin() + static_cast<std::ptrdiff_t>(n + 1));
      ++n;
      tok[0] = "what";
      tok[1] = "is";
    }
  }
  // Compounds recognizers write as two words, both of them words of their own: "go on line" is "go online", not
  // an unknown word pair the understanding may read as its opposite ("offline": measured, a flite voice's "go
  // online" heard as "go on line" turned offline mode on).
  struct Split {
    std::string_view first, second, joined;
  };
  static constexpr Split kSplit[] = {{"on", "line", "online"}, {"off", "line", "offline"}, {"wi", "fi", "wifi"},
                                     {"to", "morrow", "tomorrow"}};
  // Only where the compound ends the request or a word that qualifies it follows ("go on line", "on line mode"):
  // "wait on line two" keeps its words.
  auto ends = [&](size_t at) {
    return at >= n || tok[at] == "mode" || tok[at] == "now" || tok[at] == "again" || tok[at] == "please" ||
           tok[at] == "password" || tok[at] == "network";
  };
  for (size_t i = 0; i + 1 < n; ++i) {
    for (const Split& sp : kSplit) {
      if (tok[i] == sp.first && tok[i + 1] == sp.second && ends(i + 2)) {
        tok[i] = sp.joined;
        eraseAt(i + 1, 1);
        break;
      }
    }
  }
  // Split words: "time er" -> "timer" when only the joined form is a known word.
  if (vocabulary != nullptr) {
    for (size_t i = 0; i + 1 < n; ++i) {
      if (vocabulary->contains(tok[i + 1]) || tok[i + 1].size() > 3) continue;
      char buf[64];
      if (tok[i].size() + tok[i + 1].size() >= sizeof buf) continue;
      std::memcpy(buf, tok[i].data(), tok[i].size());
      std::memcpy(buf + tok[i].size(), tok[i + 1].data(), tok[i + 1].size());
      std::string_view joined(buf, tok[i].size() + tok[i + 1].size());
      int idx = vocabulary->indexOf(joined);
      if (idx < 0 && tok[i].back() == tok[i + 1].front()) {
        // "time er": the recognizer spelled the shared letter twice.
        std::memcpy(buf + tok[i].size(), tok[i + 1].data() + 1, tok[i + 1].size() - 1);
        joined = std::string_view(buf, tok[i].size() + tok[i + 1].size() - 1);
        idx = vocabulary->indexOf(joined);
      }
      if (idx >= 0) {
        tok[i] = vocabulary->at(static_cast<size_t>(idx));  // stable storage in the vocabulary
        eraseAt(i + 1, 1);
      }
    }
  }
  // A stray "er" left mid-sentence is a hesitation.
  for (size_t i = 0; i < n;) {
    if (tok[i] == "er" && n > 1) {
      eraseAt(i, 1);
    } else {
      ++i;
    }
  }
  out.count = n;
}

}  // namespace sotto::intents
