// SPDX-License-Identifier: MIT
// Spoken and written number parsing over word tokens ("twenty five", "one hundred and five", "2.5", "a half").
#pragma once

#include <cstddef>
#include <span>
#include <string_view>

namespace sotto::intents {

// What a number may look like in the caller's context. The defaults suit ASR transcripts of commands.
struct NumberOptions {
  // Recognition homophones: "won" for one anywhere; "to"/"too" for two, "for" for four and "ate" for eight only
  // where a digit word must follow a tens or hundreds word ("sixty for", "six hundred to"), so the ordinary
  // prepositions are never read as numbers.
  bool homophones = true;
  // "a"/"an"/"uh" alone reads as 1 ("a minute", "an inch"); "a hundred" is always 100.
  bool articleIsOne = false;
  // A leading "minus"/"negative"/"-" makes the number negative.
  bool sign = false;
  // "a half", "quarter", "three quarters", "two and a half".
  bool fractions = true;
};

struct SpokenNumber {
  double value = 0.0;
  std::size_t tokens = 0;  // tokens consumed; 0 = no number at the start
  bool integer = true;     // no fractional part was spoken or written
};

// The longest prefix of tokens that reads as one number. Tokens are lowercase words or digit strings
// ("6248", "2.5"); no allocation, no exceptions. Any thread.
SpokenNumber parseNumberPrefix(std::span<const std::string_view> tokens, const NumberOptions& options = {}) noexcept;

// True when all of tokens (at least one) read as exactly one number; value receives it. Any thread.
bool parseNumber(std::span<const std::string_view> tokens, double& value,
                 const NumberOptions& options = {}) noexcept;

// The value of a single digit word (zero/oh/o .. nine, "0".."9"), or -1. Any thread.
int digitWordValue(std::string_view word) noexcept;

// Digit-by-digit readings, as people say phone, card and account numbers: "five five five oh one",
// "double five", "triple two", digit groups "555 0132". Consumes the longest prefix of digit words and
// digit-only tokens. Any thread.
struct DigitString {
  static constexpr std::size_t kCapacity = 64;
  char digits[kCapacity] = {};  // NUL-terminated
  std::size_t length = 0;       // digits written (a longer reading is cut at kCapacity - 1)
  std::size_t tokens = 0;       // tokens consumed; 0 = none
};
DigitString parseDigitSequencePrefix(std::span<const std::string_view> tokens) noexcept;

}  // namespace sotto::intents
