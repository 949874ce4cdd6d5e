// SPDX-License-Identifier: MIT
// Tokenizer: words with byte and code point offsets, a lowercase accent-folded form, and per-word features.
#include "engine/privacy/pii_text.h"

#include <algorithm>

#include "engine/privacy/pii_numbers.h"

namespace sotto::privacy::detail {
namespace {

bool isSpace(unsigned char ch) noexcept { return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\f'; }
bool isCont(unsigned char ch) noexcept { return (ch & 0xC0) == 0x80; }

bool leadingTrim(unsigned char ch) noexcept {
  return ch == '"' || ch == '\'' || ch == '[' || ch == '{' || ch == '<' || ch == '*' || ch == '`';
}
bool lettersOnly(const unsigned char* p, std::size_t n) noexcept {
  if (n < 2) return false;
  for (std::size_t k = 0; k < n; ++k) {
    if (!((p[k] >= 'a' && p[k] <= 'z') || (p[k] >= 'A' && p[k] <= 'Z'))) return false;
  }
  return true;
}
// A secret's label, any case: "Pwd=hunter2" and "PIN:hunter2" are a label and its value.
bool secretLabel(const unsigned char* p, std::size_t n) noexcept {
  if (!lettersOnly(p, n) || n > 8) return false;
  char w[9];
  for (std::size_t k = 0; k < n; ++k) w[k] = static_cast<char>(p[k] | 0x20);
  const std::string_view word(w, n);
  for (std::string_view label : {"pin", "pwd", "pw", "password", "passcode", "pass", "passwd", "code", "key"}) {
    if (word == label) return true;
  }
  return false;
}
bool trailingTrim(unsigned char ch) noexcept {
  return ch == '.' || ch == ',' || ch == ';' || ch == ':' || ch == '!' || ch == '?' || ch == '"' || ch == '\'' ||
         ch == ']' || ch == '}' || ch == '>' || ch == '*' || ch == '`';
}

// Latin-1 supplement letters (second byte after 0xC3) folded to ASCII, lowercase; 0 = keep the bytes.
char foldC3(unsigned char b) noexcept {
  static constexpr char kMap[64] = {
      'a', 'a', 'a', 'a', 'a', 'a', 'a', 'c', 'e', 'e', 'e', 'e', 'i', 'i', 'i', 'i',  // 80-8F
      'd', 'n', 'o', 'o', 'o', 'o', 'o', 0,   'o', 'u', 'u', 'u', 'u', 'y', 0,   's',  // 90-9F
      'a', 'a', 'a', 'a', 'a', 'a', 'a', 'c', 'e', 'e', 'e', 'e', 'i', 'i', 'i', 'i',  // A0-AF
      'd', 'n', 'o', 'o', 'o', 'o', 'o', 0,   'o', 'u', 'u', 'u', 'u', 'y', 0,   'y',  // B0-BF
  };
  return (b >= 0x80 && b <= 0xBF) ? kMap[b - 0x80] : 0;
}

// Contractions whose 's is "is"/"us", not a possessive.
bool isContraction(std::string_view stem) noexcept {
  constexpr std::string_view kWords[] = {"it", "that", "what", "he", "she", "there", "who", "let", "name",
                                         "here", "where", "how", "this", "everyone", "today", "mine", "one"};
  for (auto w : kWords) {
    if (w == stem) return true;
  }
  return false;
}

}  // namespace

bool Utterance::anyOf(std::size_t from, std::size_t to, std::initializer_list<std::string_view> words) const noexcept {
  if (to > n) to = n;
  for (std::size_t i = from; i < to; ++i) {
    const std::string_view w = word(i);
    for (auto x : words) {
      if (w == x) return true;
    }
  }
  return false;
}

bool tokenize(std::string_view text, const PiiLexicon& lexicon, Utterance& u) noexcept {
  u.text = text;
  u.n = 0;
  u.normLen = 0;
  u.lexicon = &lexicon;
  if (text.size() > PiiClassifier::kMaxTextBytes) return false;
  bool sawUpper = false, sawDigit = false;
  std::uint32_t cp = 0;  // code point index of byte i
  std::size_t i = 0;
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  while (i < text.size()) {
    if (isSpace(s[i])) {
      ++cp;
      ++i;
      continue;
    }
    std::size_t b0 = i;
    std::uint32_t c0 = cp;
    std::size_t j = i;
    std::uint32_t cj = cp;
    bool hasOpen = false, hasClose = false, gluedEquals = false, ageGlued = false;
    while (j < text.size() && !isSpace(s[j])) {
      // "a 34-year-old", "my 6-yr-old": the age is its own word (the number, as a person's age is labelled).
      if (s[j] == '-' && j > i && j - i <= 3 && std::all_of(s + i, s + j, [](unsigned char d) { return d >= '0' && d <= '9'; })) {
        const std::string_view rest = text.substr(j + 1, 10);
        if (rest.substr(0, 8) == "year-old" || rest.substr(0, 9) == "years-old" || rest.substr(0, 6) == "yr-old" ||
            rest.substr(0, 7) == "yrs-old" || rest.substr(0, 9) == "month-old") {
          ageGlued = true;
          break;
        }
      }
      if (s[j] == '(') hasOpen = true;
      if (s[j] == ')') hasClose = true;
      if (!isCont(s[j])) ++cj;
      ++j;
      // A label glued to its number is two words: "ssn:321-54-9876", "SSN#412-88-1991" (not "10:30" or
      // "fe80::1c2a:3bff").
      if ((s[j - 1] == ':' || s[j - 1] == '#') && j < text.size() && s[j] >= '0' && s[j] <= '9' &&
          lettersOnly(s + i, j - 1 - i)) {
        break;
      }
      if ((s[j - 1] == ':' || s[j - 1] == '=') && j < text.size() && !isSpace(s[j]) && secretLabel(s + i, j - 1 - i)) {
        gluedEquals = s[j - 1] == '=';
        break;
      }
    }
    const std::size_t rawEnd = j;
    const std::uint32_t rawEndCp = cj;
    // Trim punctuation around the word (ASCII only: each trimmed byte is one code point). Parentheses stay
    // when balanced inside the token: "(206)" is part of a phone number.
    std::size_t b1 = j;
    std::uint32_t c1 = cj;
    // "#" before digits is a number sign ("acct #44712290"), not part of the value.
    while (b0 < b1 && (leadingTrim(s[b0]) || ((s[b0] == '(' || s[b0] == ')') && !(hasOpen && hasClose)) ||
                       (s[b0] == '#' && b0 + 1 < b1 && s[b0 + 1] >= '0' && s[b0 + 1] <= '9'))) {
      ++b0;
      ++c0;
    }
    bool comma = false, colon = false, stop = false;
    while (b1 > b0 && (trailingTrim(s[b1 - 1]) || ((s[b1 - 1] == ')' || s[b1 - 1] == '(') && !(hasOpen && hasClose)))) {
      const unsigned char ch = s[b1 - 1];
      comma = comma || ch == ',' || ch == ';';
      colon = colon || ch == ':';
      stop = stop || ch == '.' || ch == '!' || ch == '?';
      --b1;
      --c1;
    }
    // A word wrapped in parentheses is the word: "(dmitri@example.com)", "Fatima Bianchi (41)", "(dad)". Not a
    // three-digit area code, "(206)", which belongs to its phone number.
    if (b1 - b0 >= 3 && s[b0] == '(' && s[b1 - 1] == ')') {
      bool digits = true, letters = true, at = false, inner = false;
      for (std::size_t k = b0 + 1; k + 1 < b1; ++k) {
        digits = digits && s[k] >= '0' && s[k] <= '9';
        letters = letters && ((s[k] >= 'a' && s[k] <= 'z') || (s[k] >= 'A' && s[k] <= 'Z'));
        at = at || s[k] == '@';
        inner = inner || s[k] == '(' || s[k] == ')';
      }
      if (!inner && (at || letters || (digits && b1 - b0 - 2 <= 2))) {
        ++b0;
        ++c0;
        --b1;
        --c1;
      }
    }
    if (gluedEquals) {  // "Pwd=": the sign is the label's colon
      --b1;
      --c1;
      colon = true;
    }
    i = rawEnd;
    cp = rawEndCp;
    if (ageGlued) {  // the hyphen joins the age to "year-old": no word of either
      ++i;
      ++cp;
    }
    if (b0 == b1) {
      if (u.n > 0) {
        u.tok[u.n - 1].commaAfter = u.tok[u.n - 1].commaAfter || comma;
        u.tok[u.n - 1].stopAfter = u.tok[u.n - 1].stopAfter || stop;
      }
      continue;
    }
    if (u.n == PiiClassifier::kMaxTokens) return false;
    Token& t = u.tok[u.n];
    t = Token{};
    t.b0 = static_cast<std::uint32_t>(b0);
    t.b1 = static_cast<std::uint32_t>(b1);
    t.c0 = c0;
    t.c1 = c1;
    t.commaAfter = comma;
    t.colonAfter = colon;
    t.stopAfter = stop;
    t.sentenceStart = u.n == 0 || u.tok[u.n - 1].stopAfter;
    if (u.normLen > 0) u.norm[u.normLen++] = ' ';
    t.n0 = static_cast<std::uint16_t>(u.normLen);
    t.allDigits = true;
    for (std::size_t k = b0; k < b1; ++k) {
      const unsigned char ch = s[k];
      if (ch >= 'A' && ch <= 'Z') {
        sawUpper = true;
        if (k == b0) t.capital = true;
        u.norm[u.normLen++] = static_cast<char>(ch - 'A' + 'a');
      } else if (ch == 0xC3 && k + 1 < b1 && foldC3(s[k + 1]) != 0) {
        if (k == b0 && s[k + 1] <= 0x9E) t.capital = true;
        if (s[k + 1] == 0x9F) u.norm[u.normLen++] = 's';  // sharp s
        u.norm[u.normLen++] = foldC3(s[k + 1]);
        ++k;
      } else if (ch == 0xE2 && k + 2 < b1 && s[k + 1] == 0x80 && s[k + 2] == 0x99) {
        u.norm[u.normLen++] = '\'';  // right single quote as apostrophe
        k += 2;
      } else {
        u.norm[u.normLen++] = static_cast<char>(ch);
      }
      if (ch >= '0' && ch <= '9') {
        t.hasDigit = true;
        sawDigit = true;
      } else {
        t.allDigits = false;
      }
      if (ch == '@') t.hasAt = true;
    }
    t.n1 = static_cast<std::uint16_t>(u.normLen);
    t.s1 = t.n1;
    t.stemC1 = t.c1;
    const std::string_view w(u.norm + t.n0, t.n1 - t.n0);
    if (w.size() > 2 && w.substr(w.size() - 2) == "'s" && !isContraction(w.substr(0, w.size() - 2))) {
      t.possessive = true;
      t.s1 = static_cast<std::uint16_t>(t.n1 - 2);
      t.stemC1 = t.c1 - 2;
    }
    t.lex = lexicon.lookup(std::string_view(u.norm + t.n0, t.s1 - t.n0));
    t.lexFull = t.possessive ? lexicon.lookup(w) : t.lex;
    t.english = lexicon.englishWord(std::string_view(u.norm + t.n0, t.s1 - t.n0));
    if (t.allDigits) {
      t.num = NumKind::written;
    } else {
      const NumberWord nw = numberWord(w);
      t.num = nw.kind;
      t.numVal = nw.value;
    }
    ++u.n;
  }
  u.spoken = !sawUpper && !sawDigit;
  u.caseless = !sawUpper;
  return true;
}

}  // namespace sotto::privacy::detail
