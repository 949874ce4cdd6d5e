// SPDX-License-Identifier: MIT
// Timer and alarm handlers: set, cancel (by name, all), query, and the announcements when they go off or went
// off while the device was off.
#include <algorithm>
#include <cmath>

#include "engine/intents/handler_text.h"
#include "engine/intents/handlers.h"
#include "engine/intents/spoken_text.h"
#include "sotto/hal/log.h"

namespace sotto::intents {
namespace {

using detail::containsPhrase;
using detail::lowerWords;
using detail::namesMatch;
using detail::slotNumber;
using detail::slotText;

constexpr std::string_view kNotSaved = " I couldn't save it, so it won't survive a restart.";
constexpr std::string_view kRemovalNotSaved = " I couldn't save that change, so it may come back after a restart.";

HandlerOutcome reply(std::string_view intent, std::string speech, std::string reason = "") {
  HandlerOutcome o;
  o.status = HandlerOutcome::Status::answered;
  o.intent = std::string(intent);
  o.speech = std::move(speech);
  o.reason = reason.empty() ? std::string(intent) : std::move(reason);
  return o;
}

// Appends the save failure to the answer and records it for the log.
// Another process sharing the state directory may have set or cancelled timers since this one last looked: every
// handler answers from the file as it is now (a read under its lock; the in-memory state when that fails).
void refreshFrom(Reminders& reminders) {
  if (Status s = reminders.refresh(); !s) SOTTO_LOG_WARN("intents", "state-not-read", "%s", s.error().message.c_str());
}

void noteSave(HandlerOutcome& o, const Status& saved, std::string_view spoken = kNotSaved) {
  if (saved) return;
  o.speech += spoken;
  o.warning = saved.error().message;
  SOTTO_LOG_WARN("intents", "state-not-saved", "%s", saved.error().message.c_str());
}

// "five minute" when the duration is a whole number of one unit, else "".
std::string durationAdjective(std::int64_t seconds) {
  if (seconds > 0 && seconds % 3600 == 0) return numberWords(seconds / 3600) + " hour";
  if (seconds > 0 && seconds % 60 == 0 && seconds < 3600) return numberWords(seconds / 60) + " minute";
  if (seconds > 0 && seconds < 60) return numberWords(seconds) + " second";
  return "";
}

std::int64_t remainingSeconds(std::int64_t deadlineMs, std::int64_t nowMs) {
  const std::int64_t ms = deadlineMs - nowMs;
  return ms <= 0 ? 0 : (ms + 999) / 1000;
}

// "pasta and tea", "a, b and c".
std::string joinAnd(const std::vector<std::string>& items) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += i + 1 == items.size() ? " and " : ", ";
    out += items[i];
  }
  return out;
}

bool saysAll(const std::vector<std::string>& words, std::string_view pluralNoun) {
  for (const std::string& w : words) {
    if (w == "all" || w == "every" || w == "both" || w == "everything" || w == pluralNoun) return true;
  }
  return false;
}

int weekdayIndex(std::string_view day) {
  static constexpr std::string_view kDays[] = {"sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"};
  for (int i = 0; i < 7; ++i) {
    if (kDays[i] == day) return i;
  }
  return -1;
}

bool parseHhMm(std::string_view s, int& h, int& m) {
  if (s.size() != 5 || s[2] != ':') return false;
  auto digit = [](char c) { return c >= '0' && c <= '9'; };
  if (!digit(s[0]) || !digit(s[1]) || !digit(s[3]) || !digit(s[4])) return false;
  h = (s[0] - '0') * 10 + (s[1] - '0');
  m = (s[3] - '0') * 10 + (s[4] - '0');
  return h < 24 && m < 60;
}

}  // namespace

std::string timerLabel(const Timer& t) {
  if (!t.name.empty()) return t.name + " timer";
  const std::int64_t s = t.durationMs / 1000;
  const std::string adj = durationAdjective(s);
  return adj.empty() ? "timer for " + durationWords(s) : adj + " timer";
}

StartReport IntentHandlers::start() {
  StartReport out;
  Reminders::LoadReport r = reminders_.load(nowMs());
  out.warnings = std::move(r.warnings);
  for (const std::string& w : out.warnings) SOTTO_LOG_WARN("intents", "state-file", "%s", w.c_str());
  if (r.corrupt) {
    out.announcements.push_back({Announcement::Kind::stateProblem,
                                 "I couldn't read my saved timers and alarms, so I've started fresh.", {}});
  }
  std::vector<std::string> missed;
  for (const Timer& t : r.missedTimers) missed.push_back("your " + timerLabel(t));
  for (const Alarm& a : r.missedAlarms) missed.push_back("your " + clockWords(a.hour, a.minute) + " alarm");
  if (!missed.empty()) {
    std::string speech = capitalized(joinAnd(missed)) + (missed.size() == 1 ? " went off" : " all went off") +
                         " while I was off.";
    out.announcements.push_back({Announcement::Kind::missedWhileOff, std::move(speech), {}});
  }
  for (const Announcement& a : out.announcements) noteSpoken(a.speech);
  return out;
}

std::optional<std::int64_t> IntentHandlers::nextDeadlineMs() const noexcept { return reminders_.nextDeadlineMs(); }

std::vector<Announcement> IntentHandlers::fireDue() {
  std::vector<Announcement> out;
  Reminders::Due due = reminders_.takeDue(nowMs());
  if (!due.saved) SOTTO_LOG_WARN("intents", "state-not-saved", "%s", due.saved.error().message.c_str());
  // Timers and alarms interleaved in deadline order.
  std::size_t ti = 0, ai = 0;
  while (ti < due.timers.size() || ai < due.alarms.size()) {
    const bool timerNext = ai >= due.alarms.size() ||
                           (ti < due.timers.size() && due.timers[ti].deadlineMs <= due.alarms[ai].deadlineMs);
    if (timerNext) {
      out.push_back({Announcement::Kind::timerDone, capitalized("your " + timerLabel(due.timers[ti++]) + " is done."),
                     Effect{EffectKind::ring, 0}});
    } else {
      const Alarm& a = due.alarms[ai++];
      out.push_back({Announcement::Kind::alarmDue, "It's " + clockWords(a.hour, a.minute) + ". This is your alarm.",
                     Effect{EffectKind::ring, 0}});
    }
  }
  if (!out.empty()) noteSpoken(out.back().speech);
  return out;
}

HandlerOutcome IntentHandlers::timerSet(const IntentMatch& m) {
  const auto seconds = slotNumber(m, "duration_seconds");
  if (!seconds || *seconds < 1) return reply("timer.set", "How long should the timer be?", "timer.set: no duration");
  const auto s = static_cast<std::int64_t>(std::llround(*seconds));
  const std::string name = slotText(m, "name").value_or("");
  const std::int64_t now = nowMs();
  refreshFrom(reminders_);
  // A second timer with the same name replaces the first: the user is restarting it.
  std::vector<std::uint32_t> replaced;
  if (!name.empty()) {
    for (const Timer& t : reminders_.state().timers) {
      if (namesMatch(t.name, name)) replaced.push_back(t.id);
    }
  }
  if (replaced.empty() && reminders_.state().timers.size() >= options_.maxTimers) {
    return reply("timer.set",
                 "You already have " + countWords(static_cast<std::int64_t>(reminders_.state().timers.size()), "timer", "timers") +
                     ". Cancel one first.",
                 "timer.set: limit reached");
  }
  const Status saved = reminders_.addTimer(name, s * 1000, now + s * 1000, nullptr, replaced);
  if (!saved && saved.error().code == Errc::busy) {  // another process filled the last place meanwhile
    return reply("timer.set",
                 "You already have " + countWords(static_cast<std::int64_t>(reminders_.state().timers.size()), "timer", "timers") +
                     ". Cancel one first.",
                 "timer.set: limit reached");
  }
  HandlerOutcome o;
  if (!replaced.empty()) {
    o = reply("timer.set", "I've restarted your " + name + " timer for " + durationWords(s) + ".");
  } else {
    o = reply("timer.set", capitalized(name.empty() ? "timer" : name + " timer") + " set for " + durationWords(s) + ".");
  }
  noteSave(o, saved);
  return o;
}

HandlerOutcome IntentHandlers::timerCancel(const IntentMatch& m, std::string_view text) {
  refreshFrom(reminders_);
  const auto& timers = reminders_.state().timers;
  if (timers.empty()) return reply("timer.cancel", "You don't have any timers.");
  const auto name = slotText(m, "name");
  const auto words = lowerWords(text);
  std::vector<std::uint32_t> ids;
  std::string speech;
  if (name && !name->empty()) {
    for (const Timer& t : timers) {
      if (namesMatch(t.name, *name)) ids.push_back(t.id);
    }
    if (ids.empty()) {
      const bool vowel = std::string_view("aeiou").find((*name)[0]) != std::string_view::npos;
      return reply("timer.cancel", std::string("You don't have ") + (vowel ? "an " : "a ") + *name + " timer.",
                   "timer.cancel: no such timer");
    }
    speech = capitalized(*name) + " timer cancelled.";
  } else if (timers.size() == 1) {
    ids.push_back(timers[0].id);
    speech = capitalized(timerLabel(timers[0])) + " cancelled.";
  } else if (saysAll(words, "timers")) {
    for (const Timer& t : timers) ids.push_back(t.id);
    speech = timers.size() == 2 ? "Both timers cancelled."
                                : "All " + numberWords(static_cast<std::int64_t>(timers.size())) + " timers cancelled.";
  } else {
    // Several timers, no name slot: a timer named in the words the matcher did not report ("the pasta one").
    for (const Timer& t : timers) {
      if (!t.name.empty() && containsPhrase(words, t.name)) ids.push_back(t.id);
    }
    if (ids.empty()) {
      std::vector<std::string> labels;
      for (const Timer& t : timers) labels.push_back(t.name.empty() ? "the " + timerLabel(t) : t.name);
      return reply("timer.cancel",
                   "You have " + countWords(static_cast<std::int64_t>(timers.size()), "timer", "timers") + ": " +
                       joinAnd(labels) + ". Which one should I cancel?",
                   "timer.cancel: ambiguous");
    }
    for (const Timer& t : timers) {
      if (t.id == ids.front()) speech = capitalized(timerLabel(t)) + " cancelled.";
    }
  }
  const Status saved = reminders_.removeTimers(ids);
  HandlerOutcome o = reply("timer.cancel", std::move(speech));
  noteSave(o, saved, kRemovalNotSaved);
  return o;
}

HandlerOutcome IntentHandlers::timerQuery(std::string_view text) {
  refreshFrom(reminders_);
  const auto& timers = reminders_.state().timers;
  if (timers.empty()) return reply("timer.query", "You don't have any timers.");
  const std::int64_t now = nowMs();
  const auto words = lowerWords(text);
  // The catalogue does not report a name in queries; a running timer's name in the words picks that timer.
  for (const Timer& t : timers) {
    if (!t.name.empty() && containsPhrase(words, t.name)) {
      return reply("timer.query", "Your " + timerLabel(t) + " has " + durationWords(remainingSeconds(t.deadlineMs, now)) + " left.");
    }
  }
  if (timers.size() == 1) {
    const Timer& t = timers[0];
    return reply("timer.query", "Your " + (t.name.empty() ? std::string("timer") : timerLabel(t)) + " has " +
                                    durationWords(remainingSeconds(t.deadlineMs, now)) + " left.");
  }
  std::string speech = "You have " + countWords(static_cast<std::int64_t>(timers.size()), "timer", "timers") + ": ";
  for (std::size_t i = 0; i < timers.size(); ++i) {
    const Timer& t = timers[i];
    if (i > 0) speech += "; ";
    speech += (t.name.empty() ? "a " + timerLabel(t) : t.name) + ", " + durationWords(remainingSeconds(t.deadlineMs, now)) + " left";
  }
  speech += ".";
  return reply("timer.query", std::move(speech));
}

std::string IntentHandlers::alarmWhen(const Alarm& a) const {
  const LocalTime today = localNow();
  const LocalTime at = zone_.toLocal(a.deadlineMs / 1000);
  const std::int64_t days = daysFromCivil(at.year, at.month, at.day) - daysFromCivil(today.year, today.month, today.day);
  std::string when = clockWords(a.hour, a.minute);
  if (days <= 0) return when + " today";
  if (days == 1) return when + " tomorrow";
  // A week ahead is the same weekday as today: "next Saturday" says which one.
  return when + (days >= 7 ? " next " : " on ") + std::string(weekdayName(at.weekday));
}

HandlerOutcome IntentHandlers::alarmSet(const IntentMatch& m) {
  int hour = 0, minute = 0;
  const auto time = slotText(m, "time");
  if (!time || !parseHhMm(*time, hour, minute)) return reply("alarm.set", "What time should the alarm be for?", "alarm.set: no time");
  const std::string day = slotText(m, "day").value_or("");
  const LocalTime today = localNow();
  const std::int64_t now = nowMs();
  // The first day (from the one asked for) on which that time of day is still ahead.
  int offset = 0;
  if (day == "tomorrow") {
    offset = 1;
  } else if (const int wd = weekdayIndex(day); wd >= 0) {
    offset = (wd - today.weekday + 7) % 7;
  }
  std::int64_t deadlineMs = 0;
  for (int tries = 0; tries < 3; ++tries) {
    LocalTime at = addDays(today, offset);
    at.hour = hour;
    at.minute = minute;
    at.second = 0;
    deadlineMs = zone_.toUtc(at) * 1000;
    if (deadlineMs > now) break;
    offset += weekdayIndex(day) >= 0 ? 7 : 1;  // passed: "monday" means next Monday, otherwise tomorrow
  }
  refreshFrom(reminders_);
  for (const Alarm& a : reminders_.state().alarms) {
    if (a.deadlineMs == deadlineMs) return reply("alarm.set", "You already have an alarm for " + alarmWhen(a) + ".");
  }
  if (reminders_.state().alarms.size() >= options_.maxAlarms) {
    return reply("alarm.set",
                 "You already have " + countWords(static_cast<std::int64_t>(reminders_.state().alarms.size()), "alarm", "alarms") +
                     ". Cancel one first.",
                 "alarm.set: limit reached");
  }
  Alarm added;
  const Status saved = reminders_.addAlarm(hour, minute, deadlineMs, &added);
  if (!saved && saved.error().code == Errc::busy) {  // another process filled the last place meanwhile
    return reply("alarm.set",
                 "You already have " + countWords(static_cast<std::int64_t>(reminders_.state().alarms.size()), "alarm", "alarms") +
                     ". Cancel one first.",
                 "alarm.set: limit reached");
  }
  HandlerOutcome o = reply("alarm.set", "Alarm set for " + alarmWhen(added) + ".");
  noteSave(o, saved);
  return o;
}

HandlerOutcome IntentHandlers::alarmCancel(const IntentMatch& m, std::string_view text) {
  refreshFrom(reminders_);
  const auto& alarms = reminders_.state().alarms;
  if (alarms.empty()) return reply("alarm.cancel", "You don't have any alarms.");
  std::vector<std::uint32_t> ids;
  std::string speech;
  int hour = 0, minute = 0;
  const auto time = slotText(m, "time");
  const auto words = lowerWords(text);
  if (time && parseHhMm(*time, hour, minute)) {
    for (const Alarm& a : alarms) {
      if (a.hour == hour && a.minute == minute) ids.push_back(a.id);
    }
    if (ids.empty()) return reply("alarm.cancel", "You don't have an alarm for " + clockWords(hour, minute) + ".", "alarm.cancel: no such alarm");
    speech = "Your " + clockWords(hour, minute) + " alarm is cancelled.";
  } else if (alarms.size() == 1) {
    ids.push_back(alarms[0].id);
    speech = "Your alarm for " + alarmWhen(alarms[0]) + " is cancelled.";
  } else if (saysAll(words, "alarms")) {
    for (const Alarm& a : alarms) ids.push_back(a.id);
    speech = alarms.size() == 2 ? "Both alarms cancelled."
                                : "All " + numberWords(static_cast<std::int64_t>(alarms.size())) + " alarms cancelled.";
  } else {
    std::vector<std::string> whens;
    for (const Alarm& a : alarms) whens.push_back(alarmWhen(a));
    return reply("alarm.cancel",
                 "You have " + countWords(static_cast<std::int64_t>(alarms.size()), "alarm", "alarms") + ": " + joinAnd(whens) +
                     ". Which one should I cancel?",
                 "alarm.cancel: ambiguous");
  }
  const Status saved = reminders_.removeAlarms(ids);
  HandlerOutcome o = reply("alarm.cancel", std::move(speech));
  noteSave(o, saved, kRemovalNotSaved);
  return o;
}

HandlerOutcome IntentHandlers::alarmQuery() {
  refreshFrom(reminders_);
  const auto& alarms = reminders_.state().alarms;
  if (alarms.empty()) return reply("alarm.query", "You don't have any alarms.");
  if (alarms.size() == 1) return reply("alarm.query", "You have one alarm, for " + alarmWhen(alarms[0]) + ".");
  std::vector<std::string> whens;
  for (const Alarm& a : alarms) whens.push_back(alarmWhen(a));
  return reply("alarm.query", "You have " + countWords(static_cast<std::int64_t>(alarms.size()), "alarm", "alarms") + ": " +
                                  joinAnd(whens) + ".");
}

}  // namespace sotto::intents
