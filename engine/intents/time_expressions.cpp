// SPDX-License-Identifier: MIT
// Durations, clock times and day words, built on the spoken-number parser.
#include "engine/intents/time_expressions.h"

#include <charconv>

#include "engine/intents/spoken_numbers.h"

namespace sotto::intents {
namespace {

using Tokens = std::span<const std::string_view>;

int unitSeconds(std::string_view w) noexcept {
  if (w == "second" || w == "seconds" || w == "sec" || w == "secs" || w == "s") return 1;
  if (w == "minute" || w == "minutes" || w == "min" || w == "mins" || w == "m") return 60;
  if (w == "hour" || w == "hours" || w == "hr" || w == "hrs" || w == "h") return 3600;
  return 0;
}

bool isPlural(std::string_view unit) noexcept { return unit.size() > 1 && unit.back() == 's'; }

bool isArticle(std::string_view w) noexcept { return w == "a" || w == "an" || w == "uh"; }

// "half an hour", "half a minute", "a half hour", "half hour", "a quarter of an hour", "quarter hour".
size_t fractionOfUnit(Tokens t, size_t i, double& seconds) noexcept {
  size_t j = i;
  if (j < t.size() && isArticle(t[j])) ++j;
  if (j >= t.size()) return 0;
  double frac = 0.0;
  if (t[j] == "half") {
    frac = 0.5;
  } else if (t[j] == "quarter") {
    frac = 0.25;
  } else if (j == i && j + 1 < t.size() && (t[j] == "three" || t[j] == "3") && t[j + 1] == "quarters") {
    frac = 0.75;  // "three quarters of an hour"
    ++j;
  } else {
    return 0;
  }
  ++j;
  if (j < t.size() && t[j] == "of") ++j;
  if (j < t.size() && isArticle(t[j])) ++j;
  if (j >= t.size()) return 0;
  const int unit = unitSeconds(t[j]);
  if (unit == 0) return 0;
  // A plural after a lone fraction ("a half minutes") is what is left of "[two] and a half minutes" when the
  // recognizer lost the number: not a duration of its own.
  if (isPlural(t[j])) return 0;
  seconds = frac * unit;
  return j + 1 - i;
}

}  // namespace

bool parseDuration(Tokens t, int& seconds) noexcept {
  if (t.empty()) return false;
  double total = 0.0;
  int seenUnits = 0;  // bit per unit: each of hours, minutes, seconds at most once
  size_t i = 0;
  bool any = false;
  while (i < t.size()) {
    if (any && (t[i] == "and" || t[i] == ",")) {
      if (++i >= t.size()) return false;
    }
    double part = 0.0;
    if (const size_t n = fractionOfUnit(t, i, part); n > 0) {
      total += part;
      i += n;
      any = true;
      continue;
    }
    NumberOptions opt;
    opt.articleIsOne = true;
    const SpokenNumber num = parseNumberPrefix(t.subspan(i), opt);
    if (num.tokens == 0 || num.value <= 0) return false;
    size_t j = i + num.tokens;
    if (j >= t.size()) return false;
    const int unit = unitSeconds(t[j]);
    if (unit == 0) return false;
    // The same when the number parser read the fraction: "a half minutes", unlike the written "0.5 minutes".
    if (num.value < 1.0 && isPlural(t[j]) && !(t[i][0] >= '0' && t[i][0] <= '9')) return false;
    const int bit = unit == 1 ? 1 : unit == 60 ? 2 : 4;
    if (seenUnits & bit) return false;
    seenUnits |= bit;
    double value = num.value;
    ++j;
    // "an hour and a half": the half belongs to the unit just spoken.
    if (j + 2 < t.size() && t[j] == "and" && isArticle(t[j + 1]) && t[j + 2] == "half") {
      value += 0.5;
      j += 3;
    } else if (j + 1 < t.size() && t[j] == "and" && t[j + 1] == "half") {
      value += 0.5;
      j += 2;
    } else if (j + 2 < t.size() && t[j] == "and" && isArticle(t[j + 1]) && t[j + 2] == "quarter") {
      value += 0.25;  // "an hour and a quarter"
      j += 3;
    }
    total += value * unit;
    i = j;
    any = true;
    // "one hour thirty", "two hours fifteen": minutes said without their unit, last, after the hours.
    if (unit == 3600 && j < t.size() && !(seenUnits & 2)) {
      NumberOptions mopt;
      mopt.fractions = false;
      const SpokenNumber mins = parseNumberPrefix(t.subspan(j), mopt);
      if (mins.tokens > 0 && j + mins.tokens == t.size() && mins.integer && mins.value >= 1 && mins.value <= 59) {
        total += mins.value * 60;
        i = t.size();
      }
    }
  }
  if (!any || total < 1.0 || total > 100.0 * 3600.0) return false;
  seconds = static_cast<int>(total + 0.5);
  return true;
}

namespace {

enum class Half { none, am, pm, night };

// Day-half qualifiers at the end of a time; returns tokens used from position i.
size_t qualifier(Tokens t, size_t i, Half& half) noexcept {
  if (i >= t.size()) return 0;
  const std::string_view w = t[i];
  if (w == "am" || w == "a.m.") return half = Half::am, 1;
  if (w == "pm" || w == "p.m.") return half = Half::pm, 1;
  if (i + 1 < t.size() && (w == "a" || w == "p") && t[i + 1] == "m") return half = (w == "a" ? Half::am : Half::pm), 2;
  size_t j = i;
  if (t[j] == "in" || t[j] == "at") {
    ++j;
    if (j < t.size() && t[j] == "the") ++j;
  } else if (t[j] == "this") {
    ++j;
  }
  if (j >= t.size()) return 0;
  if (t[j] == "morning") return half = Half::am, j + 1 - i;
  if (t[j] == "afternoon" || t[j] == "evening") return half = Half::pm, j + 1 - i;
  if (t[j] == "night" || t[j] == "tonight") return half = Half::night, j + 1 - i;
  return 0;
}

// An hour word or digits 0-23 (homophones allowed: "won", and digits "to"/"for" are not hours).
bool hourValue(std::string_view w, int& h) noexcept {
  double v = 0.0;
  const std::string_view one[] = {w};
  NumberOptions opt;
  opt.fractions = false;
  if (!parseNumber(one, v, opt)) return false;
  if (v != static_cast<int>(v) || v < 0 || v > 23) return false;
  h = static_cast<int>(v);
  return true;
}

// Minutes after an hour word: "fifteen", "forty five", "oh five", "o five", "05". Returns tokens used.
size_t minuteWords(Tokens t, size_t i, int& m) noexcept {
  if (i >= t.size()) return 0;
  if ((t[i] == "oh" || t[i] == "o" || t[i] == "zero") && i + 1 < t.size()) {
    const int d = digitWordValue(t[i + 1]);
    if (d >= 1) return m = d, 2;
    if (t[i + 1] == "won") return m = 1, 2;
    return 0;
  }
  if (t[i].size() == 2 && t[i][0] >= '0' && t[i][0] <= '5' && t[i][1] >= '0' && t[i][1] <= '9') {
    m = (t[i][0] - '0') * 10 + (t[i][1] - '0');
    return 1;
  }
  NumberOptions opt;
  opt.fractions = false;
  const SpokenNumber n = parseNumberPrefix(t.subspan(i), opt);
  if (n.tokens == 0 || !n.integer || n.value < 10 || n.value > 59) return 0;
  m = static_cast<int>(n.value);
  return n.tokens;
}

// "7:45", "17:30", "8:05am" (am/pm glued on is split by the normalizer, but accept it here too).
bool colonTime(std::string_view w, int& h, int& m, Half& half) noexcept {
  // "7:45", and "7.45" as it is written in Britain (two digits after the point: "7.5" is no time).
  size_t colon = w.find(':');
  if (colon == std::string_view::npos) colon = w.find('.');
  if (colon == std::string_view::npos || colon == 0 || colon > 2) return false;
  std::string_view rest = w.substr(colon + 1);
  if (rest.size() > 2 && (rest.substr(2) == "am" || rest.substr(2) == "pm")) {
    half = rest.substr(2) == "am" ? Half::am : Half::pm;
    rest = rest.substr(0, 2);
  }
  if (rest.size() != 2) return false;
  auto r1 = std::from_chars(w.data(), w.data() + colon, h);
  auto r2 = std::from_chars(rest.data(), rest.data() + 2, m);
  if (r1.ec != std::errc() || r1.ptr != w.data() + colon || r2.ec != std::errc() || r2.ptr != rest.data() + 2) {
    return false;
  }
  return h >= 0 && h <= 23 && m >= 0 && m <= 59;
}

int applyHalf(int h, Half half) noexcept {
  switch (half) {
    case Half::am: return h == 12 ? 0 : h;
    case Half::pm: return h < 12 ? h + 12 : h;
    case Half::night: return h == 12 ? 0 : (h < 12 ? h + 12 : h);  // "twelve at night" is midnight
    case Half::none: return h;  // a bare hour is read as morning
  }
  return h;
}

}  // namespace

bool parseClockTime(Tokens t, ClockTime& out) noexcept {
  if (t.empty()) return false;
  size_t i = 0;
  int h = -1, m = 0;
  Half half = Half::none;
  bool relative = false;  // "quarter to seven": the hour word is the one after

  // noon / midnight, optionally after "twelve"/"12".
  {
    size_t j = 0;
    if (t[0] == "twelve" || t[0] == "12") j = 1;
    if (j < t.size() && (t[j] == "noon" || t[j] == "midday" || t[j] == "midnight")) {
      if (j + 1 != t.size()) return false;
      out = {t[j] == "midnight" ? 0 : 12, 0};
      return true;
    }
  }

  // "quarter past seven", "half past seven", "ten to seven", "twenty minutes past six".
  {
    int mins = -1;
    size_t j = 0;
    if (isArticle(t[0]) && t.size() > 1 && t[1] == "quarter") j = 1;
    if (t[j] == "quarter") {
      mins = 15, ++j;
    } else if (t[j] == "half") {
      mins = 30, ++j;
    } else {
      NumberOptions opt;
      opt.fractions = false;
      opt.homophones = false;
      const SpokenNumber n = parseNumberPrefix(t, opt);
      if (n.tokens > 0 && n.integer && n.value >= 1 && n.value <= 59) {
        mins = static_cast<int>(n.value);
        j = n.tokens;
        if (j < t.size() && (t[j] == "minutes" || t[j] == "minute")) ++j;
      }
    }
    if (mins >= 0 && j + 1 < t.size()) {
      const std::string_view rel = t[j];
      const bool past = rel == "past" || rel == "after";
      const bool to = rel == "to" || rel == "till" || rel == "til" || rel == "before" || rel == "of";
      if ((past || (to && mins != 30)) && hourValue(t[j + 1], h) && h >= 1 && h <= 12) {
        m = past ? mins : 60 - mins;
        if (to) h = h == 1 ? 12 : h - 1;  // "quarter to one" is 12:45; its half comes from the qualifier
        i = j + 2;
        relative = true;
      } else {
        h = -1;
      }
    }
  }

  if (!relative) {
    if (colonTime(t[0], h, m, half)) {
      i = 1;
    } else {
      if (!hourValue(t[0], h)) return false;
      i = 1;
      // "twenty two thirty": a 24-hour hour of two words.
      if (h == 20 && t.size() > 1 && (t[1] == "one" || t[1] == "two" || t[1] == "three")) {
        h += t[1] == "one" ? 1 : t[1] == "two" ? 2 : 3;
        i = 2;
      }
      if (i < t.size() && (t[i] == "oclock" || (t[i] == "o" && i + 1 < t.size() && t[i + 1] == "clock"))) {
        i += t[i] == "oclock" ? 1 : 2;
      } else if (i < t.size() && (t[i] == "hundred")) {
        ++i;  // "nineteen hundred"
      } else if (const size_t n = minuteWords(t, i, m); n > 0) {
        i += n;
      }
    }
  }
  if (i < t.size()) {
    const size_t n = qualifier(t, i, half);
    if (n == 0) return false;
    i += n;
  }
  if (i != t.size()) return false;
  // A qualifier needs a 12-hour clock: "thirteen pm" and "0 am" are not times.
  if (half != Half::none && (h < 1 || h > 12)) return false;
  out = {applyHalf(h, half), m};
  return true;
}

bool parseDay(Tokens t, DayWords words, std::string_view& day) noexcept {
  static constexpr std::string_view kWeekdays[] = {"monday", "tuesday", "wednesday", "thursday",
                                                   "friday", "saturday", "sunday"};
  auto partOfDay = [](std::string_view w) {
    return w == "morning" || w == "afternoon" || w == "evening" || w == "night";
  };
  // "this evening", "tomorrow morning": the part of the day does not change the day.
  if (t.size() == 2 && (t[0] == "this" || t[0] == "tomorrow") && partOfDay(t[1])) {
    day = t[0] == "this" ? "today" : "tomorrow";
    return true;
  }
  size_t i = 0;
  while (i < t.size() && i < 2 &&
         (t[i] == "on" || t[i] == "this" || t[i] == "next" || t[i] == "for" || t[i] == "coming" ||
          t[i] == "the" || t[i] == "over" || t[i] == "later")) {
    ++i;
  }
  if (i + 1 != t.size()) return false;
  const std::string_view w = t[i];
  if (w == "today" || w == "tonight") return day = "today", true;
  if (w == "tomorrow") return day = "tomorrow", true;
  for (std::string_view d : kWeekdays) {
    if (w == d || (w.size() == d.size() + 1 && w.substr(0, d.size()) == d && w.back() == 's')) {
      return day = d, true;
    }
  }
  if (words == DayWords::forecast && (w == "weekend")) return day = "weekend", true;
  return false;
}

}  // namespace sotto::intents
