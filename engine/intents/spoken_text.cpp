// SPDX-License-Identifier: MIT
// Words for numbers, durations, clock times and dates in the handlers' spoken answers.
#include "engine/intents/spoken_text.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace sotto::intents {
namespace {

constexpr std::string_view kOnes[] = {"zero",    "one",     "two",       "three",    "four",
                                      "five",    "six",     "seven",     "eight",    "nine",
                                      "ten",     "eleven",  "twelve",    "thirteen", "fourteen",
                                      "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"};
constexpr std::string_view kTens[] = {"",      "",      "twenty",  "thirty", "forty",
                                      "fifty", "sixty", "seventy", "eighty", "ninety"};

// 0 < n < 1000.
void belowThousand(int n, std::string& out) {
  if (n >= 100) {
    out += kOnes[n / 100];
    out += " hundred";
    n %= 100;
    if (n == 0) return;
    out += ' ';
  }
  if (n < 20) {
    out += kOnes[n];
  } else {
    out += kTens[n / 10];
    if (n % 10 != 0) {
      out += '-';
      out += kOnes[n % 10];
    }
  }
}

}  // namespace

std::string numberWords(std::int64_t n) {
  if (n == 0) return "zero";
  std::string out;
  if (n < 0) {
    out = "minus ";
    n = -n;
  }
  static constexpr struct {
    std::int64_t value;
    std::string_view name;
  } kScales[] = {{1000000000000LL, "trillion"}, {1000000000LL, "billion"}, {1000000LL, "million"}, {1000LL, "thousand"}};
  bool first = true;
  for (const auto& s : kScales) {
    if (n >= s.value) {
      if (!first) out += ' ';
      belowThousand(static_cast<int>((n / s.value) % 1000), out);
      out += ' ';
      out += s.name;
      n %= s.value;
      first = false;
    }
  }
  if (n > 0) {
    if (!first) out += ' ';
    belowThousand(static_cast<int>(n), out);
  }
  return out;
}

std::string decimalWords(double value, int maxDecimals) {
  if (!std::isfinite(value)) return "not a number";
  if (std::fabs(value) >= 1e15) return "a very large number";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", maxDecimals < 0 ? 0 : maxDecimals, std::fabs(value));
  std::string digits(buf);
  if (digits.find('.') != std::string::npos) {
    while (digits.back() == '0') digits.pop_back();
    if (digits.back() == '.') digits.pop_back();
  }
  const auto dot = digits.find('.');
  const std::int64_t whole = std::strtoll(digits.substr(0, dot).c_str(), nullptr, 10);
  std::string out = (value < 0 && digits != "0") ? "minus " : "";
  out += numberWords(whole);
  if (dot != std::string::npos) {
    out += " point";
    for (std::size_t i = dot + 1; i < digits.size(); ++i) {
      out += ' ';
      out += kOnes[digits[i] - '0'];
    }
  }
  return out;
}

std::string ordinalWords(int n) {
  static constexpr std::string_view kIrregular[] = {"zeroth",  "first",   "second",     "third",     "fourth",
                                                    "fifth",   "sixth",   "seventh",    "eighth",    "ninth",
                                                    "tenth",   "eleventh", "twelfth",   "thirteenth", "fourteenth",
                                                    "fifteenth", "sixteenth", "seventeenth", "eighteenth", "nineteenth"};
  if (n >= 0 && n < 20) return std::string(kIrregular[n]);
  if (n < 100 && n % 10 == 0) {
    std::string t(kTens[n / 10]);
    t.pop_back();  // "twenty" -> "twent" + "ieth"
    return t + "ieth";
  }
  if (n < 100 && n > 0) return std::string(kTens[n / 10]) + "-" + std::string(kIrregular[n % 10]);
  return numberWords(n) + "th";
}

std::string countWords(std::int64_t n, std::string_view singular, std::string_view plural) {
  return numberWords(n) + " " + std::string(n == 1 ? singular : plural);
}

std::string durationWords(std::int64_t seconds) {
  if (seconds < 0) seconds = 0;
  std::int64_t h = seconds / 3600, m = seconds % 3600 / 60, s = seconds % 60;
  if (seconds >= 600) {  // from ten minutes up, seconds are noise: round to the nearest minute
    const std::int64_t minutes = (seconds + 30) / 60;
    h = minutes / 60;
    m = minutes % 60;
    s = 0;
  }
  std::string out;
  auto part = [&out](std::int64_t n, std::string_view one, std::string_view many) {
    if (n == 0) return;
    if (!out.empty()) out += " and ";
    out += countWords(n, one, many);
  };
  part(h, "hour", "hours");
  part(m, "minute", "minutes");
  part(s, "second", "seconds");
  if (out.empty()) out = "zero seconds";
  return out;
}

std::string clockWords(int hour, int minute) {
  if (minute == 0 && hour == 12) return "noon";
  if (minute == 0 && hour == 0) return "midnight";
  const int h12 = hour % 12 == 0 ? 12 : hour % 12;
  std::string out = numberWords(h12);
  if (minute != 0) {
    out += ' ';
    if (minute < 10) out += "oh ";
    out += numberWords(minute);
  }
  out += hour < 12 ? " AM" : " PM";
  return out;
}

std::string_view weekdayName(int weekday) noexcept {
  static constexpr std::string_view kDays[] = {"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"};
  return kDays[((weekday % 7) + 7) % 7];
}

std::string_view monthName(int month) noexcept {
  static constexpr std::string_view kMonths[] = {"January", "February", "March",     "April",   "May",      "June",
                                                 "July",    "August",   "September", "October", "November", "December"};
  return kMonths[((month - 1) % 12 + 12) % 12];
}

std::string capitalized(std::string s) {
  if (!s.empty() && s[0] >= 'a' && s[0] <= 'z') s[0] = static_cast<char>(s[0] - 'a' + 'A');
  return s;
}

}  // namespace sotto::intents
