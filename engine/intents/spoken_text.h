// SPDX-License-Identifier: MIT
// Numbers, durations, clock times and dates written as words, so any TTS voice reads the answers correctly.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace sotto::intents {

// All functions: any thread; they allocate (answers are built on the brain thread, not a real-time path).

// "zero", "forty-two", "two thousand seven hundred seventy-two", "minus five"; |n| < 10^15.
std::string numberWords(std::int64_t n);
// An integer when value is one (within 1e-9), else at most maxDecimals decimals, trailing zeros dropped:
// "three point one four". Non-finite values read "not a number".
std::string decimalWords(double value, int maxDecimals = 2);
// "first", "twenty-first", "thirty-first".
std::string ordinalWords(int n);
// A duration as people say it: "five minutes", "one hour and thirty minutes", "four minutes and ten seconds",
// "thirty seconds". Seconds are dropped from 10 minutes up and minutes are rounded to the nearest.
std::string durationWords(std::int64_t seconds);
// "three forty-two PM", "seven AM", "seven oh five AM", "noon", "midnight".
std::string clockWords(int hour, int minute);
std::string_view weekdayName(int weekday) noexcept;  // 0 = Sunday ("Sunday")
std::string_view monthName(int month) noexcept;      // 1 = January
// "timer" / "timers" style agreement: count words plus noun, "one timer", "two timers".
std::string countWords(std::int64_t n, std::string_view singular, std::string_view plural);
// Upper-cases the first letter.
std::string capitalized(std::string s);

}  // namespace sotto::intents
