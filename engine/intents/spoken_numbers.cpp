// SPDX-License-Identifier: MIT
// Spoken and written number parsing: a small state machine over cardinal words, decimals and fractions.
#include "engine/intents/spoken_numbers.h"

#include <charconv>
#include <cstdint>

namespace sotto::intents {
namespace {

struct WordValue {
  std::string_view word;
  int value;
};

constexpr WordValue kUnits[] = {{"zero", 0}, {"one", 1}, {"two", 2},   {"three", 3}, {"four", 4},
                                {"five", 5}, {"six", 6}, {"seven", 7}, {"eight", 8}, {"nine", 9}};
constexpr WordValue kTeens[] = {{"ten", 10},      {"eleven", 11},    {"twelve", 12},   {"thirteen", 13},
                                {"fourteen", 14}, {"fifteen", 15},   {"sixteen", 16},  {"seventeen", 17},
                                {"eighteen", 18}, {"nineteen", 19}};
constexpr WordValue kTens[] = {{"twenty", 20}, {"thirty", 30},  {"forty", 40},  {"fourty", 40}, {"fifty", 50},
                               {"sixty", 60},  {"seventy", 70}, {"eighty", 80}, {"ninety", 90}};

int lookup(std::span<const WordValue> table, std::string_view w) noexcept {
  for (const auto& e : table) {
    if (e.word == w) return e.value;
  }
  return -1;
}

// Homophones that stand for a digit only where a digit must follow ("sixty for", "six hundred to").
int continuationHomophone(std::string_view w) noexcept {
  if (w == "to" || w == "too") return 2;
  if (w == "for" || w == "fore") return 4;
  if (w == "ate") return 8;
  return -1;
}

double scaleOf(std::string_view w) noexcept {
  if (w == "thousand") return 1e3;
  if (w == "million") return 1e6;
  if (w == "billion") return 1e9;
  return 0.0;
}

bool isArticle(std::string_view w) noexcept { return w == "a" || w == "an" || w == "uh"; }

// A token made only of digits with at most one '.' inside ("6248", "2.5"); value receives it.
bool digitToken(std::string_view w, double& value, bool& integer) noexcept {
  if (w.empty()) return false;
  int dots = 0;
  for (size_t i = 0; i < w.size(); ++i) {
    const char c = w[i];
    if (c == '.') {
      if (++dots > 1 || i == 0 || i + 1 == w.size()) return false;
    } else if (c < '0' || c > '9') {
      return false;
    }
  }
  auto r = std::from_chars(w.data(), w.data() + w.size(), value);
  if (r.ec != std::errc() || r.ptr != w.data() + w.size()) return false;
  integer = dots == 0;
  return true;
}

enum class Last { none, unit, zero, teen, tens, hundred, scale, conj };

int wordDigit(std::string_view w, bool homophones) noexcept {
  const int d = digitWordValue(w);
  if (d >= 0) return d;
  if (homophones && w == "won") return 1;
  return -1;
}

// "point five", "point two five", "point 5": the fractional part after an integer, as digits and their count
// (the caller divides once, so 0.75 comes out as the double nearest 0.75). Returns tokens used.
size_t decimals(std::span<const std::string_view> t, size_t i, bool homophones, double& digits,
                double& scale) noexcept {
  if (i >= t.size() || t[i] != "point") return 0;
  size_t j = i + 1;
  digits = 0.0;
  scale = 1.0;
  if (j < t.size()) {
    double v = 0.0;
    bool integer = false;
    if (digitToken(t[j], v, integer) && integer && t[j].size() <= 15) {
      for (char c : t[j]) digits = digits * 10 + (c - '0'), scale *= 10;
      return 2;
    }
  }
  while (j < t.size() && j - i <= 15) {
    int d = wordDigit(t[j], homophones);
    if (d < 0 && homophones && j > i + 1) d = continuationHomophone(t[j]);
    if (d < 0) break;
    digits = digits * 10 + d;
    scale *= 10;
    ++j;
  }
  return j > i + 1 ? j - i : 0;
}

// "and a half", "and a quarter", "and three quarters" after an integer. Returns tokens used.
size_t andFraction(std::span<const std::string_view> t, size_t i, double& frac) noexcept {
  if (i + 1 >= t.size() || t[i] != "and") return 0;
  size_t j = i + 1;
  if (isArticle(t[j])) {
    if (j + 1 < t.size() && t[j + 1] == "half") return frac = 0.5, 3;
    if (j + 1 < t.size() && t[j + 1] == "quarter") return frac = 0.25, 3;
    return 0;
  }
  if (t[j] == "half") return frac = 0.5, 2;
  if (t[j] == "three" && j + 1 < t.size() && t[j + 1] == "quarters") return frac = 0.75, 3;
  return 0;
}

// A fraction on its own: "a half", "half", "a quarter", "quarter", "three quarters". Returns tokens used.
size_t bareFraction(std::span<const std::string_view> t, size_t i, double& value) noexcept {
  if (i >= t.size()) return 0;
  size_t j = i;
  if (isArticle(t[j]) || t[j] == "one") ++j;
  if (j < t.size() && t[j] == "half") return value = 0.5, j - i + 1;
  if (j < t.size() && t[j] == "quarter") return value = 0.25, j - i + 1;
  if (t[i] == "three" && i + 1 < t.size() && t[i + 1] == "quarters") return value = 0.75, 2;
  return 0;
}

}  // namespace

int digitWordValue(std::string_view w) noexcept {
  if (w == "oh" || w == "o") return 0;
  if (w.size() == 1 && w[0] >= '0' && w[0] <= '9') return w[0] - '0';
  return lookup(kUnits, w);
}

SpokenNumber parseNumberPrefix(std::span<const std::string_view> t, const NumberOptions& opt) noexcept {
  SpokenNumber out;
  size_t i = 0;
  double sign = 1.0;
  if (opt.sign && !t.empty() && (t[0] == "minus" || t[0] == "negative" || t[0] == "-")) {
    sign = -1.0;
    i = 1;
  }
  const size_t start = i;

  // Written digits, optionally followed by a scale word or a spoken fraction ("5 thousand", "2 and a half").
  double v = 0.0;
  bool integer = true;
  if (i < t.size() && digitToken(t[i], v, integer)) {
    size_t used = 1;
    if (i + 1 < t.size() && integer) {
      if (t[i + 1] == "hundred") {
        v *= 100, ++used;
      } else if (const double s = scaleOf(t[i + 1]); s > 0) {
        v *= s, ++used;
      }
    }
    double frac = 0.0;
    if (opt.fractions && integer) {
      if (const size_t n = andFraction(t, i + used, frac); n > 0) {
        v += frac, used += n, integer = false;
      }
    }
    out.value = sign * v;
    out.tokens = i + used;
    out.integer = integer;
    return out;
  }

  double total = 0.0;  // completed thousand/million groups
  long cur = 0;        // the group being spoken (below a thousand)
  double lastScale = 1e18;
  Last last = Last::none;
  size_t committed = start;  // tokens that form a complete number so far
  while (i < t.size()) {
    const std::string_view w = t[i];
    int d = lookup(kUnits, w);
    if (d < 0 && opt.homophones && w == "won") d = 1;
    if (d < 0 && opt.homophones && (last == Last::tens || last == Last::hundred || last == Last::conj)) {
      d = continuationHomophone(w);
    }
    if (d == 0) {
      if (last != Last::none) break;
      last = Last::zero;
      committed = ++i;
      break;  // only "point ..." may follow zero
    }
    if (d > 0) {
      if (last != Last::none && last != Last::tens && last != Last::hundred && last != Last::scale &&
          last != Last::conj) {
        break;
      }
      cur += d;
      last = Last::unit;
      committed = ++i;
      continue;
    }
    if (const int teen = lookup(kTeens, w); teen > 0) {
      if (last != Last::none && last != Last::hundred && last != Last::scale && last != Last::conj) break;
      cur += teen;
      last = Last::teen;
      committed = ++i;
      continue;
    }
    if (const int tens = lookup(kTens, w); tens > 0) {
      if (last != Last::none && last != Last::hundred && last != Last::scale && last != Last::conj) break;
      cur += tens;
      last = Last::tens;
      committed = ++i;
      continue;
    }
    if (w == "hundred") {
      // "fifty five hundred" is 5500; "one hundred twenty hundred" is not a number.
      if ((last != Last::unit && last != Last::teen && last != Last::tens) || cur >= 100) break;
      cur *= 100;
      last = Last::hundred;
      committed = ++i;
      continue;
    }
    if (const double s = scaleOf(w); s > 0) {
      if (cur == 0 || s >= lastScale || last == Last::conj) break;
      total += static_cast<double>(cur) * s;
      cur = 0;
      lastScale = s;
      last = Last::scale;
      committed = ++i;
      continue;
    }
    if (last == Last::none && isArticle(w) && i + 1 < t.size() &&
        (t[i + 1] == "hundred" || scaleOf(t[i + 1]) > 0)) {
      cur = 1;
      last = Last::unit;
      ++i;  // not committed: "a" alone is not a number here
      continue;
    }
    if (w == "and" && (last == Last::hundred || last == Last::scale)) {
      last = Last::conj;
      ++i;  // committed only when a number word follows
      continue;
    }
    break;
  }

  if (committed > start) {
    double value = total + static_cast<double>(cur);
    bool isInt = true;
    double frac = 0.0, digits = 0.0, scale = 1.0;
    if (const size_t n = decimals(t, committed, opt.homophones, digits, scale); n > 0) {
      value = (value * scale + digits) / scale, committed += n, isInt = false;
    } else if (opt.fractions && last != Last::zero) {
      if (const size_t m = andFraction(t, committed, frac); m > 0) {
        value += frac, committed += m, isInt = false;
      } else if (committed < t.size() && t[committed] == "quarters" && total == 0 && cur >= 1 && cur <= 3) {
        value = static_cast<double>(cur) / 4.0, committed += 1, isInt = false;  // "three quarters"
      }
    }
    out.value = sign * value;
    out.tokens = committed;
    out.integer = isInt;
    return out;
  }

  // No cardinal: a bare fraction, "point five", or an article standing for one.
  if (opt.fractions) {
    double f = 0.0;
    if (const size_t n = bareFraction(t, start, f); n > 0) {
      out.value = sign * f;
      out.tokens = start + n;
      out.integer = false;
      return out;
    }
  }
  double digits = 0.0, scale = 1.0;
  if (const size_t n = decimals(t, start, opt.homophones, digits, scale); n > 0) {
    out.value = sign * digits / scale;
    out.tokens = start + n;
    out.integer = false;
    return out;
  }
  if (opt.articleIsOne && start < t.size() && isArticle(t[start])) {
    out.value = sign;
    out.tokens = start + 1;
    out.integer = true;
  }
  return out;
}

bool parseNumber(std::span<const std::string_view> tokens, double& value, const NumberOptions& options) noexcept {
  if (tokens.empty()) return false;
  const SpokenNumber n = parseNumberPrefix(tokens, options);
  if (n.tokens != tokens.size()) return false;
  value = n.value;
  return true;
}

DigitString parseDigitSequencePrefix(std::span<const std::string_view> t) noexcept {
  DigitString out;
  auto put = [&out](char c) {
    if (out.length + 1 < DigitString::kCapacity) out.digits[out.length++] = c;
  };
  size_t i = 0;
  while (i < t.size()) {
    const std::string_view w = t[i];
    int repeat = 0;
    if (w == "double") repeat = 2;
    if (w == "triple") repeat = 3;
    if (repeat > 0) {
      if (i + 1 >= t.size()) break;
      const int d = digitWordValue(t[i + 1]);
      if (d < 0) break;
      for (int k = 0; k < repeat; ++k) put(static_cast<char>('0' + d));
      i += 2;
      continue;
    }
    if (const int d = digitWordValue(w); d >= 0) {
      put(static_cast<char>('0' + d));
      ++i;
      continue;
    }
    bool allDigits = !w.empty();
    for (char c : w) allDigits = allDigits && c >= '0' && c <= '9';
    if (!allDigits) break;
    for (char c : w) put(c);
    ++i;
  }
  out.digits[out.length] = '\0';
  out.tokens = i;
  return out;
}

}  // namespace sotto::intents
