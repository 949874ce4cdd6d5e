// SPDX-License-Identifier: MIT
// Slot values: reading a token span as a slot of a catalogue type and writing the value the output reports.
#include "engine/intents/slot_values.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "engine/intents/math_expression.h"
#include "engine/intents/spoken_numbers.h"
#include "engine/intents/time_expressions.h"
#include "engine/intents/units.h"

namespace sotto::intents {
namespace {

using Tokens = std::span<const std::string_view>;

}  // namespace

bool alphabeticWord(std::string_view w) noexcept {
  if (w.empty()) return false;
  for (char c : w) {
    if (c < 'a' || c > 'z') return false;
  }
  return true;
}

namespace {

// Words that are never (part of) a timer name or a place: structure, numbers, time words.
constexpr std::string_view kNotAName[] = {
    "a",        "an",      "the",     "my",       "your",    "our",     "this",     "that",    "these",  "those",
    "it",       "all",     "every",   "each",     "any",     "some",    "timer",    "timers",  "alarm",  "alarms",
    "one",      "ones",    "for",     "to",       "of",      "on",      "in",       "at",      "and",    "is",
    "are",      "with",    "me",      "i",        "you",     "now",     "please",   "today",   "tomorrow",
    "tonight",  "weekend", "morning", "evening",  "afternoon", "night", "minute",   "minutes", "second",
    "seconds",  "hour",    "hours",   "like",     "outside", "out",     "there",    "here",    "right",  "up",
    "down",     "off",     "again",   "current",  "time",    "weather", "forecast", "next",    "last",   "timers",
    "other",    "running", "set",     "going",    "be",      "will",    "what",     "how",     "its",    "uh",
    "monday",   "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",  "not",    "do",     "left",
    // Verbs and adverbs of a statement about the weather are no place ("the weather [was nice yesterday]").
    "was",      "were",    "been",    "has",      "have",    "had",     "does",     "did",     "can",    "could",
    "would",    "should",  "so",      "very",     "really",  "just",    "yesterday", "too",
};

bool notAName(std::string_view w) {
  if (std::find(std::begin(kNotAName), std::end(kNotAName), w) != std::end(kNotAName)) return true;
  const std::string_view one[] = {w};
  return parseNumberPrefix(one).tokens > 0;
}

bool parseLabel(Tokens t) {
  if (t.empty() || t.size() > 2) return false;
  for (std::string_view w : t) {
    if (!alphabeticWord(w) || w.size() < 2 || notAName(w)) return false;
  }
  return true;
}

bool parsePlace(Tokens t) {
  if (t.empty() || t.size() > 3) return false;
  for (size_t i = 0; i < t.size(); ++i) {
    const std::string_view w = t[i];
    if (!alphabeticWord(w)) return false;
    // Inner particles are part of names ("rio de janeiro", "stratford upon avon"); ends must be names.
    const bool end = i == 0 || i + 1 == t.size();
    if (w.size() < 2 || (end && notAName(w))) return false;
    if (!end && (w == "today" || w == "tomorrow" || w == "in" || w == "on" || w == "this")) return false;
  }
  return true;
}

bool parseLevel(Tokens t, int& level) {
  if (t.size() == 1 && (t[0] == "max" || t[0] == "maximum" || t[0] == "full")) return level = 10, true;
  if (t.size() == 1 && (t[0] == "min" || t[0] == "minimum")) return level = 0, true;
  // A lone homophone after "volume to" is the digit ("change the volume to too").
  if (t.size() == 1 && (t[0] == "to" || t[0] == "too")) return level = 2, true;
  if (t.size() == 1 && t[0] == "for") return level = 4, true;
  double v = 0.0;
  NumberOptions opt;
  opt.fractions = false;
  // "fifty percent", "30 %": the level is the nearest tenth of the full volume.
  if (t.size() >= 2 && (t.back() == "percent" || t.back() == "%")) {
    if (!parseNumber(t.first(t.size() - 1), v, opt) || v < 0 || v > 100) return false;
    level = static_cast<int>(std::floor(v / 10.0 + 0.5));
    return true;
  }
  if (!parseNumber(t, v, opt)) return false;
  if (v != std::floor(v) || v < 0 || v > 10) return false;
  level = static_cast<int>(v);
  return true;
}


}  // namespace

void setSlotText(SlotValue& v, std::string_view s) noexcept {
  v.kind = SlotValue::Kind::text;
  v.length = std::min(s.size(), SlotValue::kTextCapacity - 1);
  std::memcpy(v.text, s.data(), v.length);
  v.text[v.length] = '\0';
}

void setSlotJoined(SlotValue& v, Tokens t) noexcept {
  v.kind = SlotValue::Kind::text;
  v.length = 0;
  for (size_t i = 0; i < t.size(); ++i) {
    const size_t need = t[i].size() + (i > 0 ? 1 : 0);
    if (v.length + need + 1 > SlotValue::kTextCapacity) break;
    if (i > 0) v.text[v.length++] = ' ';
    std::memcpy(v.text + v.length, t[i].data(), t[i].size());
    v.length += t[i].size();
  }
  v.text[v.length] = '\0';
}

void setSlotNumber(SlotValue& v, double x) noexcept {
  v.number = x;
  v.kind = (std::fabs(x - std::round(x)) < 1e-9 && std::fabs(x) < 1e15) ? SlotValue::Kind::integer
                                                                          : SlotValue::Kind::number;
  if (v.kind == SlotValue::Kind::integer) v.number = std::round(x);
}


bool parseSlotValue(SlotType type, Tokens t, SlotValue* out) noexcept {
  if (t.empty()) return false;
  switch (type) {
    case SlotType::duration: {
      int s = 0;
      if (!parseDuration(t, s)) return false;
      if (out != nullptr) setSlotNumber(*out, s);
      return true;
    }
    case SlotType::time: {
      ClockTime c;
      if (!parseClockTime(t, c)) return false;
      if (out != nullptr) {
        char buf[8];
        std::snprintf(buf, sizeof buf, "%02d:%02d", c.hour, c.minute);
        setSlotText(*out, buf);
      }
      return true;
    }
    case SlotType::day:
    case SlotType::forecastDay: {
      std::string_view d;
      if (!parseDay(t, type == SlotType::day ? DayWords::calendar : DayWords::forecast, d)) return false;
      if (out != nullptr) setSlotText(*out, d);
      return true;
    }
    case SlotType::level: {
      int l = 0;
      if (!parseLevel(t, l)) return false;
      if (out != nullptr) setSlotNumber(*out, l);
      return true;
    }
    case SlotType::number: {
      double x = 0.0;
      NumberOptions opt;
      opt.sign = true;
      opt.articleIsOne = true;
      if (!parseNumber(t, x, opt)) return false;
      if (out != nullptr) setSlotNumber(*out, x);
      return true;
    }
    case SlotType::unit: {
      Unit u = Unit::m;
      if (!parseUnit(t, u)) return false;
      if (out != nullptr) setSlotText(*out, unitCode(u));
      return true;
    }
    case SlotType::label:
      if (!parseLabel(t)) return false;
      if (out != nullptr) setSlotJoined(*out, t);
      return true;
    case SlotType::place:
      if (!parsePlace(t)) return false;
      if (out != nullptr) setSlotJoined(*out, t);
      return true;
    case SlotType::expression: {
      CanonicalExpression e;
      if (!parseSpokenExpression(t, e) || !evaluateExpression(e.view()).ok()) return false;
      if (out != nullptr) setSlotText(*out, e.view());
      return true;
    }
    case SlotType::result: return false;
  }
  return false;
}

}  // namespace sotto::intents
