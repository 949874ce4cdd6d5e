// SPDX-License-Identifier: MIT
// Timers and alarms in memory, saved atomically after every change, loaded (and expired ones reported) at start.
#include "engine/intents/reminders.h"

#include <algorithm>

namespace sotto::intents {
namespace {

template <typename T>
void sortByDeadline(std::vector<T>& v) {
  std::stable_sort(v.begin(), v.end(), [](const T& a, const T& b) { return a.deadlineMs < b.deadlineMs; });
}

template <typename T>
std::vector<T> takeUntil(std::vector<T>& v, std::int64_t nowMs) {
  std::vector<T> due;
  auto keep = std::stable_partition(v.begin(), v.end(), [nowMs](const T& x) { return x.deadlineMs > nowMs; });
  due.assign(std::make_move_iterator(keep), std::make_move_iterator(v.end()));
  v.erase(keep, v.end());
  sortByDeadline(due);
  return due;
}

template <typename T>
std::size_t removeIds(std::vector<T>& v, std::span<const std::uint32_t> ids) {
  const auto before = v.size();
  std::erase_if(v, [ids](const T& x) { return std::find(ids.begin(), ids.end(), x.id) != ids.end(); });
  return before - v.size();
}

}  // namespace

Reminders::Reminders(Options options) : options_(std::move(options)) {}

Reminders::LoadReport Reminders::load(std::int64_t nowMs) {
  LoadReport report;
  if (options_.stateDir.empty()) return report;
  StateLoad loaded = loadReminderStateFile(options_.stateDir, nowMs);
  state_ = std::move(loaded.state);
  report.warnings = std::move(loaded.warnings);
  report.corrupt = loaded.corrupt;
  report.setAsidePath = std::move(loaded.setAsidePath);
  report.missedTimers = takeUntil(state_.timers, nowMs);
  report.missedAlarms = takeUntil(state_.alarms, nowMs);
  // A file from a build with larger limits keeps what fits (the soonest).
  if (state_.timers.size() > options_.maxTimers) state_.timers.resize(options_.maxTimers);
  if (state_.alarms.size() > options_.maxAlarms) state_.alarms.resize(options_.maxAlarms);
  if (!report.missedTimers.empty() || !report.missedAlarms.empty() || report.corrupt) {
    if (Status s = persist(); !s) report.warnings.push_back(s.error().message);
  }
  return report;
}

Status Reminders::addTimer(std::string name, std::int64_t durationMs, std::int64_t deadlineMs, Timer* added,
                           std::span<const std::uint32_t> replacing) {
  removeIds(state_.timers, replacing);
  Timer t;
  t.id = state_.nextId++;
  t.name = std::move(name);
  t.durationMs = durationMs;
  t.deadlineMs = deadlineMs;
  if (added) *added = t;
  state_.timers.push_back(std::move(t));
  sortByDeadline(state_.timers);
  return persist();
}

Status Reminders::addAlarm(int hour, int minute, std::int64_t deadlineMs, Alarm* added) {
  Alarm a;
  a.id = state_.nextId++;
  a.hour = hour;
  a.minute = minute;
  a.deadlineMs = deadlineMs;
  if (added) *added = a;
  state_.alarms.push_back(a);
  sortByDeadline(state_.alarms);
  return persist();
}

Status Reminders::removeTimers(std::span<const std::uint32_t> ids) {
  if (removeIds(state_.timers, ids) == 0) return {};
  return persist();
}

Status Reminders::removeAlarms(std::span<const std::uint32_t> ids) {
  if (removeIds(state_.alarms, ids) == 0) return {};
  return persist();
}

std::optional<std::int64_t> Reminders::nextDeadlineMs() const noexcept {
  std::optional<std::int64_t> next;
  if (!state_.timers.empty()) next = state_.timers.front().deadlineMs;
  if (!state_.alarms.empty() && (!next || state_.alarms.front().deadlineMs < *next)) next = state_.alarms.front().deadlineMs;
  return next;
}

Reminders::Due Reminders::takeDue(std::int64_t nowMs) {
  Due due;
  due.timers = takeUntil(state_.timers, nowMs);
  due.alarms = takeUntil(state_.alarms, nowMs);
  if (!due.timers.empty() || !due.alarms.empty()) due.saved = persist();
  return due;
}

Status Reminders::persist() {
  if (options_.stateDir.empty()) return {};
  Status s = writeFileAtomic(options_.stateDir, kReminderStateFile, encodeReminderState(state_));
  if (!s) {
    return makeError(s.error().code, "timers and alarms not saved (kept in memory; they will not survive a restart): " +
                                         s.error().message);
  }
  return s;
}

}  // namespace sotto::intents
