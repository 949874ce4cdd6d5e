// SPDX-License-Identifier: MIT
// Internal: the tokenized utterance (word tokens with byte and code point offsets) and the candidate list.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "engine/privacy/pii.h"
#include "engine/privacy/pii_lexicon.h"

namespace sotto::privacy::detail {

// Spoken-number class of a word (set by the number lexer).
enum class NumKind : std::uint8_t {
  none,
  digit,     // zero..nine, oh: value 0..9
  teen,      // ten..nineteen: 10..19
  tens,      // twenty..ninety: 20..90
  hundred,
  thousand,
  repeat,    // double, triple: 2, 3
  ordinal,   // first..thirty-first as one word: 1..31 (twentieth = 20, thirtieth = 30)
  written,   // a token of ASCII digits only
};

struct Token {
  std::uint32_t b0 = 0, b1 = 0;  // bytes of the (punctuation-trimmed) word in the text
  std::uint32_t c0 = 0, c1 = 0;  // code points, end exclusive
  std::uint32_t stemC1 = 0;      // c1 without a possessive 's
  std::uint16_t n0 = 0, n1 = 0;  // normalized form (lowercase, accents folded) in Utterance::norm
  std::uint16_t s1 = 0;          // normalized stem end (without 's when possessive)
  std::uint32_t lex = 0;         // lexicon flags of the stem
  std::uint32_t lexFull = 0;     // lexicon flags of the whole normalized word
  NumKind num = NumKind::none;
  std::int8_t numVal = 0;
  bool english = false;     // the stem is an ordinary English word (PiiLexicon::englishWord)
  bool possessive = false;  // ends in 's / ’s and is not a contraction like it's
  bool capital = false;     // starts with an uppercase letter in the text
  bool sentenceStart = false;
  bool commaAfter = false;  // , ; right after the word
  bool colonAfter = false;  // : right after the word
  bool stopAfter = false;   // . ! ? right after the word
  bool hasDigit = false;
  bool allDigits = false;
  bool hasAt = false;
};

// Tokens and the normalized text of one utterance. Lives on classify()'s stack: fixed arrays, no allocation.
struct Utterance {
  std::string_view text;
  bool spoken = false;  // no digits, no uppercase: an ASR transcript (a feature of the trained model: keep as is)
  // No uppercase letter anywhere: casing says nothing about names, whether or not digits stand in the text. The
  // rules judge name-likeness by this, not by `spoken`: a digit elsewhere in the sentence (a phone number) must not
  // make a lowercase name look like a common word (issue 19: "john smith" redacted alone, sent raw beside
  // "555 123 4567").
  bool caseless = false;
  std::size_t n = 0;
  Token tok[PiiClassifier::kMaxTokens];
  char norm[PiiClassifier::kMaxTextBytes + PiiClassifier::kMaxTokens];
  std::size_t normLen = 0;
  const PiiLexicon* lexicon = nullptr;

  std::string_view word(std::size_t i) const noexcept {
    return i < n ? std::string_view(norm + tok[i].n0, tok[i].n1 - tok[i].n0) : std::string_view();
  }
  std::string_view stem(std::size_t i) const noexcept {
    return i < n ? std::string_view(norm + tok[i].n0, tok[i].s1 - tok[i].n0) : std::string_view();
  }
  std::string_view raw(std::size_t i) const noexcept {
    return i < n ? text.substr(tok[i].b0, tok[i].b1 - tok[i].b0) : std::string_view();
  }
  // Normalized words i..j-1 joined by single spaces (norm keeps one space between tokens).
  std::string_view phrase(std::size_t i, std::size_t j) const noexcept {
    return (i < j && j <= n) ? std::string_view(norm + tok[i].n0, tok[j - 1].n1 - tok[i].n0) : std::string_view();
  }
  // The same without the last word's possessive 's: "pablo picasso's" -> "pablo picasso".
  std::string_view stemPhrase(std::size_t i, std::size_t j) const noexcept {
    return (i < j && j <= n) ? std::string_view(norm + tok[i].n0, tok[j - 1].s1 - tok[i].n0) : std::string_view();
  }
  bool is(std::size_t i, std::string_view w) const noexcept { return i < n && word(i) == w; }
  bool has(std::size_t i, std::uint32_t flags) const noexcept { return i < n && (tok[i].lex & flags) != 0; }
  bool isNum(std::size_t i) const noexcept { return i < n && tok[i].num != NumKind::none; }
  // Whole-word search in [from, to).
  bool anyOf(std::size_t from, std::size_t to, std::initializer_list<std::string_view> words) const noexcept;
  bool contains(std::string_view w) const noexcept { return anyOf(0, n, {w}); }
};

// Fills u from text. Returns false when text exceeds the fixed capacities.
bool tokenize(std::string_view text, const PiiLexicon& lexicon, Utterance& u) noexcept;

// A candidate span over tokens [t0, t1), before overlap resolution.
struct Candidate {
  std::uint16_t t0 = 0, t1 = 0;
  PiiType type = PiiType::person;
  std::uint8_t priority = 0;  // higher wins an overlap
  bool stemEnd = false;       // end before a possessive 's on the last token
};

struct Candidates {
  static constexpr std::size_t kCapacity = 256;
  Candidate c[kCapacity];
  std::size_t n = 0;
  void add(std::size_t t0, std::size_t t1, PiiType type, int priority, bool stemEnd = false) noexcept {
    if (n < kCapacity && t0 < t1) {
      c[n++] = Candidate{static_cast<std::uint16_t>(t0), static_cast<std::uint16_t>(t1), type,
                         static_cast<std::uint8_t>(priority), stemEnd};
    }
  }
  // True when [t0, t1) overlaps a candidate of at least minPriority (so a weaker recognizer can step aside).
  bool covered(std::size_t t0, std::size_t t1, int minPriority = 0) const noexcept {
    for (std::size_t k = 0; k < n; ++k) {
      if (c[k].priority >= minPriority && c[k].t0 < t1 && t0 < c[k].t1) return true;
    }
    return false;
  }
  bool coveredBy(std::size_t t, PiiType type) const noexcept {
    for (std::size_t k = 0; k < n; ++k) {
      if (c[k].type == type && c[k].t0 <= t && t < c[k].t1) return true;
    }
    return false;
  }
};

// Priorities: checksum-validated and pattern-exact types beat cue-based ones, which beat names.
namespace prio {
inline constexpr int iban = 95, card = 90, email = 88, ip = 88, ssn = 85, account = 80, secret = 80, phone = 75,
                     dob = 78, address = 70, age = 65, health = 62, location = 60, person = 50;
}

}  // namespace sotto::privacy::detail
