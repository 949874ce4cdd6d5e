// SPDX-License-Identifier: MIT
// Deterministic intent handlers: turn a matched intent into a spoken answer plus a side effect (as data) that the
// daemon applies; timers and alarms persist in the state directory.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/intents/clock.h"
#include "engine/intents/matcher.h"
#include "engine/intents/reminders.h"

namespace sotto::intents {

// What the daemon must do besides speaking. The handler never touches audio or the network itself.
enum class EffectKind : std::uint8_t {
  none,
  stop,            // stop playback, ringing timers/alarms, generation and any cloud stream (barge-in cancel)
  volumeSet,       // set the output level to value (0-10) and unmute
  mute,            // mute the output (level kept)
  privacyOffline,  // switch the privacy mode to offline (no network socket from now on)
  privacyOnline,   // leave offline mode: back to the configured privacy mode (private or standard)
  ring,            // play the timer/alarm chime (announcements from fireDue)
};
std::string_view effectName(EffectKind k) noexcept;  // "none", "stop", "volume-set", ...

struct Effect {
  EffectKind kind = EffectKind::none;
  int value = 0;  // volumeSet: the new level
};

// The device state some answers depend on; the daemon passes a snapshot with every request.
struct DeviceStatus {
  int volume = 5;  // 0-10
  bool muted = false;
  bool offline = false;  // privacy mode is offline
  bool ringing = false;  // a timer or alarm chime is playing: "cancel the timer" / "stop" silence it
};

// A weather question resolved against the local calendar.
struct WeatherRequest {
  std::string day;    // as asked: "today", "tomorrow", "monday".."sunday", "weekend"
  std::string date;   // the local date it means, "YYYY-MM-DD" (weekend: its Saturday)
  std::string place;  // lowercase, "" = the device's home location
  std::string key;    // "weather|<date>|<place>": a stable key for caches
};

// Where weather answers come from without escalating (e.g. the on-device cache). Called on the handler's
// thread; may block briefly (a cache lookup), must not do network I/O.
class WeatherSource {
 public:
  virtual ~WeatherSource() = default;
  virtual std::optional<std::string> cachedForecast(const WeatherRequest& request) = 0;
};

struct HandlerOutcome {
  enum class Status : std::uint8_t {
    answered,    // speak `speech` (may be empty: stop, mute) and apply `effect`
    escalate,    // the router should answer it (e.g. weather with no cached forecast); speak `fallback` if it can't
    notHandled,  // no deterministic handler for this intent ("none" or unknown): route as an open request
  };
  Status status = Status::notHandled;
  std::string intent;    // the intent name handled
  std::string speech;    // the answer, numbers as words
  Effect effect;
  std::string reason;    // one short line for the router's decision log
  std::string fallback;  // escalate: what to say when escalation is impossible (offline, cloud down)
  std::string warning;   // non-fatal problem to log (state not saved: full disk, read-only directory)
};
std::string_view statusName(HandlerOutcome::Status s) noexcept;  // "answered", "escalate", "not-handled"

// Something to say without a request: a timer or alarm going off, or what happened while the device was off.
struct Announcement {
  enum class Kind : std::uint8_t { timerDone, alarmDue, missedWhileOff, stateProblem };
  Kind kind = Kind::timerDone;
  std::string speech;
  Effect effect;  // ring for timerDone / alarmDue
};

struct StartReport {
  std::vector<Announcement> announcements;  // speak these once, after start-up
  std::vector<std::string> warnings;        // log these (corrupt state file set aside, leftovers removed)
};

// Threads: one owner thread (the brain thread); not thread safe. handle(), start(), fireDue() may block on the
// state file's fsync (a few ms on flash) when timers or alarms change; the other handlers do no I/O.
class IntentHandlers {
 public:
  struct Options {
    std::string stateDir;  // paths.state-dir; "" keeps timers and alarms in memory only
    std::size_t maxTimers = 16;
    std::size_t maxAlarms = 16;
  };

  // clock and zone are borrowed and must outlive the handlers; weather may be null (always escalate).
  IntentHandlers(Options options, const Clock& clock, const TimeZone& zone, WeatherSource* weather = nullptr);

  // Loads the saved timers and alarms. Call once before handle(); never fails (a bad file is set aside).
  StartReport start();

  // Answers one matched utterance. text is what the user said (the matcher's input): some handlers look for
  // words the catalogue does not report as slots ("all", a timer's name in a query).
  HandlerOutcome handle(const IntentMatch& match, std::string_view text, const DeviceStatus& device);
  // What handle() would answer now, with nothing changed: only for the handlers that change no state (time, date,
  // timer and alarm queries, repeat, conversions, arithmetic, weather from the cache); any other intent is
  // notHandled. What "repeat" says afterwards is what it said before (speculation on a partial: the answer may
  // never be spoken).
  HandlerOutcome preview(const IntentMatch& match, std::string_view text, const DeviceStatus& device);

  // The daemon reports every answer it speaks from another route (model, cache, cloud), so "repeat" works.
  void noteSpoken(std::string_view speech);

  // For the event loop: the wall-clock time (Clock::nowMs scale) of the next timer or alarm, if any.
  std::optional<std::int64_t> nextDeadlineMs() const noexcept;
  // Removes everything due now and returns what to announce (with a ring effect), in deadline order.
  std::vector<Announcement> fireDue();

  const ReminderState& reminders() const noexcept { return reminders_.state(); }

 private:
  HandlerOutcome timerSet(const IntentMatch& m);
  HandlerOutcome timerCancel(const IntentMatch& m, std::string_view text);
  HandlerOutcome timerQuery(std::string_view text);
  HandlerOutcome alarmSet(const IntentMatch& m);
  HandlerOutcome alarmCancel(const IntentMatch& m, std::string_view text);
  HandlerOutcome alarmQuery();
  HandlerOutcome weather(const IntentMatch& m, const DeviceStatus& device);
  std::int64_t nowMs() const noexcept { return clock_.nowMs(); }
  LocalTime localNow() const noexcept;
  std::string alarmWhen(const Alarm& a) const;  // "seven AM tomorrow"

  Options options_;
  const Clock& clock_;
  const TimeZone& zone_;
  WeatherSource* weather_;
  Reminders reminders_;
  std::string lastSpoken_;
};

// Spoken descriptions shared by the handlers and tests (any thread).
std::string timerLabel(const Timer& t);  // "pasta timer", "five minute timer", "timer for one hour and ten minutes"
std::string unitWords(std::string_view code, bool plural);  // "km" -> "kilometers"; "c" -> "degrees Celsius"
std::string expressionWords(std::string_view canonical);    // "924 * 3" -> "nine hundred twenty-four times three"

}  // namespace sotto::intents
