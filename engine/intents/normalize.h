// SPDX-License-Identifier: MIT
// Utterance normalization: lowercase word tokens with punctuation, contractions, fillers and politeness removed.
#pragma once

#include <array>
#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace sotto::intents {

// A sorted set of known words (the catalogue's vocabulary). Built at start-up; lookups do not allocate.
// Threads: build on one thread, then read from any.
class WordSet {
 public:
  void add(std::string_view word);
  void finish();  // sorts and deduplicates; call once after the last add()
  bool contains(std::string_view word) const noexcept;
  // Index of word in the sorted set, or -1.
  int indexOf(std::string_view word) const noexcept;
  std::size_t size() const noexcept { return words_.size(); }
  const std::string& at(std::size_t i) const { return words_[i]; }

 private:
  std::vector<std::string> words_;
};

// The normalized tokens of one utterance, in fixed storage (about 1 KiB): normalizing never allocates.
// Tokens view either text[] or static strings (contraction expansions).
struct Utterance {
  static constexpr std::size_t kMaxTokens = 48;
  static constexpr std::size_t kTextCapacity = 640;

  std::array<std::string_view, kMaxTokens> tokens{};
  std::size_t count = 0;
  bool truncated = false;  // the input had more tokens or text than fits (never a command)
  char text[kTextCapacity] = {};
  std::size_t used = 0;

  std::span<const std::string_view> view() const noexcept { return {tokens.data(), count}; }
};

// Normalizes input (UTF-8; only ASCII letters and digits survive):
//  - lowercase; punctuation separates words; "6,248" -> "6248", "2.5" and "7:45" stay whole; "8:05am" and
//    "5min" are split at the digit/letter boundary; "+ * / ^ %" become their own tokens, "x" stays a word;
//    a '-' before a number at a word start becomes the token "-"; "km/h" -> "kmh"; "a.m." -> "am";
//    "o'clock"/"o clock" -> "oclock"
//  - contractions expanded ("what's" -> "what is", "don't" -> "do not", "whats" -> "what is"); other
//    apostrophes dropped ("today's" -> "todays")
//  - fillers dropped: leading um/uh/oh/hey/okay/ok/so/well/hi/alright, "um"/"erm"/"hmm"/"please" anywhere,
//    trailing "thanks"/"thank you"; request frames at the start ("can you", "could you please", "i want you to")
//  - a leading "was" is "what is" (how recognizers hear "what's")
//  - split words re-joined when vocabulary knows the joined form and not the fragment ("time er" -> "timer"), and
//    compounds recognizers split into two words ("on line" -> "online", "off line", "wi fi", "to morrow")
// Any thread; no allocation.
void normalizeUtterance(std::string_view input, Utterance& out, const WordSet* vocabulary = nullptr) noexcept;

}  // namespace sotto::intents
