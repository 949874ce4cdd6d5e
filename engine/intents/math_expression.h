// SPDX-License-Identifier: MIT
// math.compute: spoken arithmetic to the canonical expression ("924 * 3", "sqrt(16)", "40 / 100 * 20") and a safe
// recursive-descent evaluator over that canonical form.
#pragma once

#include <cstddef>
#include <span>
#include <string_view>

#include "sotto/hal/result.h"

namespace sotto::intents {

// Canonical expression text: numbers in shortest decimal form, binary operators " + - * / ^ " with single
// spaces, sqrt(x). Fixed capacity so the matcher's hot path does not allocate.
struct CanonicalExpression {
  static constexpr std::size_t kCapacity = 128;
  char text[kCapacity] = {};  // NUL-terminated
  std::size_t length = 0;
  std::string_view view() const noexcept { return {text, length}; }
};

// True when all of tokens read as arithmetic with at least one operation: "nine hundred twenty four times
// three", "5,296 + 522", "forty percent of twenty" (-> "40 / 100 * 20"), "the square root of sixteen",
// "eighteen squared" (-> "18 ^ 2"), "two to the power of ten". out receives the canonical form. Any thread.
bool parseSpokenExpression(std::span<const std::string_view> tokens, CanonicalExpression& out) noexcept;

// Evaluates a canonical expression (also accepts parentheses, unary minus and a postfix '%' = / 100).
// Grammar: expr = term {(+|-) term}; term = power {(*|/) power}; power = unary [^ power];
// unary = - unary | primary [%]; primary = number | sqrt(expr) | (expr). Fails (invalid_argument) on syntax
// errors, division by zero, sqrt of a negative number, non-finite results and nesting deeper than 32.
// Any thread; no allocation on success.
Result<double> evaluateExpression(std::string_view canonical);

// The result as the intent output reports it: an integer when it is one (within 1e-9), otherwise rounded to
// 4 decimal places; shortest decimal text into buf (at least 32 bytes). Returns the length written.
std::size_t formatResult(double value, char* buf, std::size_t capacity) noexcept;

// A number in shortest round-trip decimal form ("2772", "30.5", "-20"). Returns the length written.
std::size_t formatNumber(double value, char* buf, std::size_t capacity) noexcept;

// The result rounded as formatResult prints it.
double roundResult(double value) noexcept;

}  // namespace sotto::intents
