// SPDX-License-Identifier: MIT
// Intent handler dispatch and the stateless handlers: time, date, stop, repeat, volume, privacy, units, maths,
// weather. Timers and alarms are in handlers_reminders.cpp.
#include "engine/intents/handlers.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iterator>

#include "engine/intents/handler_text.h"
#include "engine/intents/math_expression.h"
#include "engine/intents/spoken_text.h"
#include "engine/intents/units.h"

namespace sotto::intents {
namespace {

using detail::slotNumber;
using detail::slotText;

HandlerOutcome answered(std::string_view intent, std::string speech, Effect effect = {}, std::string reason = "") {
  HandlerOutcome o;
  o.status = HandlerOutcome::Status::answered;
  o.intent = std::string(intent);
  o.speech = std::move(speech);
  o.effect = effect;
  o.reason = reason.empty() ? std::string(intent) : std::move(reason);
  return o;
}

bool unitFromCode(std::string_view code, Unit& out) {
  for (int i = 0; i <= static_cast<int>(Unit::kmh); ++i) {
    if (unitCode(static_cast<Unit>(i)) == code) {
      out = static_cast<Unit>(i);
      return true;
    }
  }
  return false;
}

// Enough precision to be useful when spoken: one decimal from 100 up, two from 1, otherwise three
// significant digits.
int spokenDecimals(double v) {
  const double a = std::fabs(v);
  if (a >= 100) return 1;
  if (a >= 1 || a == 0) return 2;
  int d = 2;
  for (double x = a; x < 1 && d < 8; x *= 10) ++d;
  return d;
}

std::string dateKey(const LocalTime& t) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02d", t.year, t.month, t.day);
  return buf;
}

int weekdayIndex(std::string_view day) {
  static constexpr std::string_view kDays[] = {"sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"};
  for (int i = 0; i < 7; ++i) {
    if (kDays[i] == day) return i;
  }
  return -1;
}

}  // namespace

std::string_view effectName(EffectKind k) noexcept {
  switch (k) {
    case EffectKind::none: return "none";
    case EffectKind::stop: return "stop";
    case EffectKind::volumeSet: return "volume-set";
    case EffectKind::mute: return "mute";
    case EffectKind::privacyOffline: return "privacy-offline";
    case EffectKind::privacyOnline: return "privacy-online";
    case EffectKind::ring: return "ring";
  }
  return "none";
}

std::string_view statusName(HandlerOutcome::Status s) noexcept {
  switch (s) {
    case HandlerOutcome::Status::answered: return "answered";
    case HandlerOutcome::Status::escalate: return "escalate";
    case HandlerOutcome::Status::notHandled: return "not-handled";
  }
  return "not-handled";
}

std::string unitWords(std::string_view code, bool plural) {
  struct Name {
    std::string_view code, one, many;
  };
  static constexpr Name kNames[] = {
      {"km", "kilometer", "kilometers"},     {"mi", "mile", "miles"},
      {"m", "meter", "meters"},              {"ft", "foot", "feet"},
      {"in", "inch", "inches"},              {"cm", "centimeter", "centimeters"},
      {"kg", "kilogram", "kilograms"},       {"lb", "pound", "pounds"},
      {"g", "gram", "grams"},                {"oz", "ounce", "ounces"},
      {"l", "liter", "liters"},              {"ml", "milliliter", "milliliters"},
      {"gal", "gallon", "gallons"},          {"cup", "cup", "cups"},
      {"tbsp", "tablespoon", "tablespoons"}, {"tsp", "teaspoon", "teaspoons"},
      {"c", "degree Celsius", "degrees Celsius"}, {"f", "degree Fahrenheit", "degrees Fahrenheit"},
      {"mph", "mile per hour", "miles per hour"}, {"kmh", "kilometer per hour", "kilometers per hour"},
  };
  for (const Name& n : kNames) {
    if (n.code == code) return std::string(plural ? n.many : n.one);
  }
  return std::string(code);
}

std::string expressionWords(std::string_view canonical) {
  std::string out;
  auto add = [&out](std::string_view w) {
    if (!out.empty() && out.back() != ' ') out += ' ';
    out += w;
  };
  std::size_t i = 0;
  while (i < canonical.size()) {
    const char c = canonical[i];
    if (c == ' ') {
      ++i;
    } else if ((c >= '0' && c <= '9') || c == '.') {
      std::size_t j = i;
      while (j < canonical.size() && ((canonical[j] >= '0' && canonical[j] <= '9') || canonical[j] == '.')) ++j;
      const std::string num(canonical.substr(i, j - i));
      add(decimalWords(std::strtod(num.c_str(), nullptr), 4));
      i = j;
      // "p / 100 * x" is how the matcher writes "p percent of x": say it the way it was asked.
      if (canonical.substr(i, 9) == " / 100 * ") {
        add("percent of");
        i += 9;
      }
    } else if (canonical.substr(i, 5) == "sqrt(") {
      add("the square root of");
      i += 5;
    } else {
      switch (c) {
        case '+': add("plus"); break;
        case '-': add("minus"); break;
        case '*': add("times"); break;
        case '/': add("divided by"); break;
        case '^': add("to the power of"); break;
        case '%': add("percent"); break;
        default: break;  // parentheses are not spoken
      }
      ++i;
    }
  }
  return out;
}

IntentHandlers::IntentHandlers(Options options, const Clock& clock, const TimeZone& zone, WeatherSource* weather)
    : options_(options),
      clock_(clock),
      zone_(zone),
      weather_(weather),
      reminders_(Reminders::Options{options.stateDir, options.maxTimers, options.maxAlarms}) {}

LocalTime IntentHandlers::localNow() const noexcept {
  const std::int64_t ms = nowMs();
  return zone_.toLocal(ms >= 0 ? ms / 1000 : -((-ms + 999) / 1000));
}

void IntentHandlers::noteSpoken(std::string_view speech) {
  if (!speech.empty()) lastSpoken_ = std::string(speech);
}

HandlerOutcome IntentHandlers::preview(const IntentMatch& m, std::string_view text, const DeviceStatus& device) {
  constexpr std::string_view kStateless[] = {"time.query",  "date.query",   "timer.query",   "alarm.query",
                                             "repeat",      "convert.units", "math.compute", "weather.query"};
  if (std::find(std::begin(kStateless), std::end(kStateless), std::string_view(m.name)) == std::end(kStateless)) {
    HandlerOutcome o;
    o.intent = std::string(m.name);
    o.reason = "not previewed: " + std::string(m.name) + " may change state";
    return o;
  }
  std::string spoken = lastSpoken_;
  HandlerOutcome o = handle(m, text, device);
  lastSpoken_ = std::move(spoken);
  return o;
}

HandlerOutcome IntentHandlers::handle(const IntentMatch& m, std::string_view text, const DeviceStatus& device) {
  const std::string_view name = m.name;
  HandlerOutcome o;
  // While a chime rings, "cancel the timer" / "turn off the alarm" mean silence it (it has already left the list).
  const bool silences = (name == "timer.cancel" && m.slot("name") == nullptr) ||
                        (name == "alarm.cancel" && m.slot("time") == nullptr);
  if (device.ringing && silences) return answered(name, "", Effect{EffectKind::stop, 0}, std::string(name) + ": silence ringing");
  if (name == "time.query") {
    const LocalTime t = localNow();
    o = answered(name, "It's " + clockWords(t.hour, t.minute) + ".");
  } else if (name == "date.query") {
    const LocalTime t = localNow();
    o = answered(name, "Today is " + std::string(weekdayName(t.weekday)) + ", " + std::string(monthName(t.month)) +
                           " " + ordinalWords(t.day) + ".");
  } else if (name == "timer.set") {
    o = timerSet(m);
  } else if (name == "timer.cancel") {
    o = timerCancel(m, text);
  } else if (name == "timer.query") {
    o = timerQuery(text);
  } else if (name == "alarm.set") {
    o = alarmSet(m);
  } else if (name == "alarm.cancel") {
    o = alarmCancel(m, text);
  } else if (name == "alarm.query") {
    o = alarmQuery();
  } else if (name == "stop") {
    o = answered(name, "", Effect{EffectKind::stop, 0});
  } else if (name == "repeat") {
    o = answered(name, lastSpoken_.empty() ? "I haven't said anything yet." : lastSpoken_);
    return o;  // repeating does not replace what is repeated
  } else if (name == "volume.up" || name == "volume.down") {
    const bool up = name == "volume.up";
    const int current = device.volume < 0 ? 0 : device.volume > 10 ? 10 : device.volume;
    const int level = up ? (device.muted ? current : std::min(10, current + 1)) : std::max(0, current - 1);
    if (!device.muted && level == current) {
      o = answered(name, up ? "The volume is already at maximum." : "The volume is already at minimum.");
    } else {
      o = answered(name, "Volume " + numberWords(level) + ".", Effect{EffectKind::volumeSet, level});
    }
  } else if (name == "volume.set") {
    const auto level = slotNumber(m, "level");
    if (!level || *level < 0 || *level > 10) {
      o = answered(name, "The volume goes from zero to ten.", {}, "volume.set: level out of range");
    } else {
      const int l = static_cast<int>(std::lround(*level));
      o = answered(name, "Volume " + numberWords(l) + ".", Effect{EffectKind::volumeSet, l});
    }
  } else if (name == "volume.mute") {
    o = answered(name, "", Effect{EffectKind::mute, 0});
  } else if (name == "privacy.offline") {
    o = answered(name, device.offline ? "Offline mode is already on." : "Offline mode is on. Nothing will leave this device.",
                 Effect{EffectKind::privacyOffline, 0});
  } else if (name == "privacy.online") {
    o = answered(name, device.offline ? "I'm back online." : "I'm already online.", Effect{EffectKind::privacyOnline, 0});
  } else if (name == "convert.units") {
    const auto value = slotNumber(m, "value");
    const auto from = slotText(m, "from"), to = slotText(m, "to");
    Unit uf{}, ut{};
    if (!value || !from || !to || !unitFromCode(*from, uf) || !unitFromCode(*to, ut)) {
      o = answered(name, "I didn't catch what to convert.", {}, "convert.units: missing slot");
    } else if (auto r = convertUnits(*value, uf, ut); !r) {
      o = answered(name, "I can't convert " + unitWords(*from, true) + " to " + unitWords(*to, true) + ".", {},
                   "convert.units: " + r.error().message);
    } else {
      const int decimals = spokenDecimals(*r);
      const double shown = std::round(*r * std::pow(10, decimals)) / std::pow(10, decimals);
      const bool exact = std::fabs(shown - *r) < 1e-9 * std::max(1.0, std::fabs(*r));
      o = answered(name, capitalized(decimalWords(*value, 4) + " " + unitWords(*from, std::fabs(*value) != 1) + " is " +
                                     (exact ? "" : "about ") + decimalWords(*r, decimals) + " " +
                                     unitWords(*to, std::fabs(shown) != 1) + "."));
    }
  } else if (name == "math.compute") {
    const auto expr = slotText(m, "expression");
    if (!expr) {
      o = answered(name, "I didn't catch the numbers.", {}, "math.compute: missing expression");
    } else if (auto r = evaluateExpression(*expr); !r) {
      const bool byZero = r.error().message.find("zero") != std::string::npos;
      o = answered(name, byZero ? "I can't divide by zero." : "I couldn't work that out.", {},
                   "math.compute: " + r.error().message);
    } else {
      const double v = roundResult(*r);
      o = answered(name, capitalized(expressionWords(*expr) + " is " + decimalWords(v, 4) + "."));
    }
  } else if (name == "weather.query") {
    o = weather(m, device);
  } else {
    o.status = HandlerOutcome::Status::notHandled;
    o.intent = std::string(name);
    o.reason = name == "none" ? "no intent" : "no handler for intent " + std::string(name);
    return o;
  }
  if (o.status == HandlerOutcome::Status::answered) noteSpoken(o.speech);
  return o;
}

HandlerOutcome IntentHandlers::weather(const IntentMatch& m, const DeviceStatus& device) {
  WeatherRequest req;
  req.day = slotText(m, "day").value_or("today");
  req.place = slotText(m, "place").value_or("");
  const LocalTime today = localNow();
  int offset = 0;
  if (req.day == "tomorrow") {
    offset = 1;
  } else if (req.day == "weekend") {
    offset = today.weekday == 0 ? 0 : (6 - today.weekday);  // Sunday: this weekend is today
  } else if (const int wd = weekdayIndex(req.day); wd >= 0) {
    offset = (wd - today.weekday + 7) % 7;
  }
  req.date = dateKey(addDays(today, offset));
  req.key = "weather|" + req.date + "|" + req.place;
  if (weather_ != nullptr) {
    if (auto cached = weather_->cachedForecast(req)) {
      return answered("weather.query", *cached, {}, "weather.query: cached forecast " + req.key);
    }
  }
  if (device.offline) {
    return answered("weather.query", "I can't check the weather while offline mode is on.", {},
                    "weather.query: offline and no cached forecast for " + req.key);
  }
  HandlerOutcome o;
  o.status = HandlerOutcome::Status::escalate;
  o.intent = "weather.query";
  o.reason = "weather.query: no cached forecast for " + req.key;
  o.fallback = "I can't check the weather right now.";
  return o;
}

}  // namespace sotto::intents
