// SPDX-License-Identifier: MIT
// Timers and alarms in memory, saved atomically after every change, loaded (and expired ones reported) at start.
#include "engine/intents/reminders.h"

#include <algorithm>
#include <chrono>

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
std::size_t takeUntilCopy(const std::vector<T>& v, std::int64_t nowMs) {
  return static_cast<std::size_t>(std::count_if(v.begin(), v.end(), [nowMs](const T& x) { return x.deadlineMs <= nowMs; }));
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
  auto lock = lockReminderState(options_.stateDir);
  if (!lock) report.warnings.push_back("timers and alarms are not locked against other processes: " + lock.error().message);
  StateLoad loaded = readReminderStateLocked(options_.stateDir, nowMs, lock.ok());
  state_ = std::move(loaded.state);
  report.warnings.insert(report.warnings.end(), std::make_move_iterator(loaded.warnings.begin()),
                         std::make_move_iterator(loaded.warnings.end()));
  report.corrupt = loaded.corrupt;
  report.setAsidePath = std::move(loaded.setAsidePath);
  report.missedTimers = takeUntil(state_.timers, nowMs);
  report.missedAlarms = takeUntil(state_.alarms, nowMs);
  // A file from a build with larger limits keeps what fits (the soonest).
  if (state_.timers.size() > options_.maxTimers) state_.timers.resize(options_.maxTimers);
  if (state_.alarms.size() > options_.maxAlarms) state_.alarms.resize(options_.maxAlarms);
  if (!report.missedTimers.empty() || !report.missedAlarms.empty() || report.corrupt) {
    if (Status s = write(); !s) report.warnings.push_back(s.error().message);
  }
  return report;
}

Status Reminders::refresh() {
  if (options_.stateDir.empty()) return {};
  auto lock = lockReminderState(options_.stateDir);
  if (!lock) return makeError(lock.error().code, "timers and alarms not re-read: " + lock.error().message);
  return adoptFile();
}

Status Reminders::adoptFile() {
  // Missing: nobody saved any (or all were done). Corrupt: the loader set it aside; what this process holds is the
  // best state left, and the next write replaces it.
  const std::int64_t wallMs =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
  StateLoad fresh = readReminderStateLocked(options_.stateDir, wallMs, true);
  if (!fresh.corrupt) {  // read (leftovers of a dead writer removed): the state on disk
    state_ = std::move(fresh.state);
    return {};
  }
  return makeError(Errc::corrupt, fresh.warnings.empty() ? "timers and alarms file unreadable" : fresh.warnings.front());
}

Status Reminders::change(const std::function<Status(ReminderState&)>& apply) {
  if (options_.stateDir.empty()) return apply(state_);
  // Read-modify-write under the file's lock: another process's saves since this one's last look are kept.
  auto lock = lockReminderState(options_.stateDir);
  if (lock) (void)adoptFile();
  if (Status applied = apply(state_); !applied) return applied;
  Status saved = write();
  if (!lock && saved) {
    return makeError(lock.error().code, "timers and alarms saved without the lock (another process's change may be "
                                        "lost): " + lock.error().message);
  }
  return saved;
}

Status Reminders::addTimer(std::string name, std::int64_t durationMs, std::int64_t deadlineMs, Timer* added,
                           std::span<const std::uint32_t> replacing) {
  return change([&](ReminderState& st) -> Status {
    removeIds(st.timers, replacing);
    if (st.timers.size() >= options_.maxTimers) {
      return makeError(Errc::busy, "timer limit: " + std::to_string(st.timers.size()) + " timers already");
    }
    Timer t;
    t.id = st.nextId++;
    t.name = std::move(name);
    t.durationMs = durationMs;
    t.deadlineMs = deadlineMs;
    if (added) *added = t;
    st.timers.push_back(std::move(t));
    sortByDeadline(st.timers);
    return {};
  });
}

Status Reminders::addAlarm(int hour, int minute, std::int64_t deadlineMs, Alarm* added) {
  return change([&](ReminderState& st) -> Status {
    if (st.alarms.size() >= options_.maxAlarms) {
      return makeError(Errc::busy, "alarm limit: " + std::to_string(st.alarms.size()) + " alarms already");
    }
    Alarm a;
    a.id = st.nextId++;
    a.hour = hour;
    a.minute = minute;
    a.deadlineMs = deadlineMs;
    if (added) *added = a;
    st.alarms.push_back(a);
    sortByDeadline(st.alarms);
    return {};
  });
}

Status Reminders::removeTimers(std::span<const std::uint32_t> ids) {
  return change([&](ReminderState& st) -> Status {
    removeIds(st.timers, ids);
    return {};
  });
}

Status Reminders::removeAlarms(std::span<const std::uint32_t> ids) {
  return change([&](ReminderState& st) -> Status {
    removeIds(st.alarms, ids);
    return {};
  });
}

std::optional<std::int64_t> Reminders::nextDeadlineMs() const noexcept {
  std::optional<std::int64_t> next;
  if (!state_.timers.empty()) next = state_.timers.front().deadlineMs;
  if (!state_.alarms.empty() && (!next || state_.alarms.front().deadlineMs < *next)) next = state_.alarms.front().deadlineMs;
  return next;
}

Reminders::Due Reminders::takeDue(std::int64_t nowMs) {
  Due due;
  // Only what is due in this process's view is taken (and rung here); the file's state decides the rest.
  if (takeUntilCopy(state_.timers, nowMs) == 0 && takeUntilCopy(state_.alarms, nowMs) == 0) return due;
  due.saved = change([&](ReminderState& st) -> Status {
    due.timers = takeUntil(st.timers, nowMs);
    due.alarms = takeUntil(st.alarms, nowMs);
    return {};
  });
  return due;
}

Status Reminders::persist() {
  return change([](ReminderState&) -> Status { return {}; });
}

Status Reminders::write() {
  if (options_.stateDir.empty()) return {};
  Status s = writeFileAtomic(options_.stateDir, kReminderStateFile, encodeReminderState(state_));
  if (!s) {
    return makeError(s.error().code, "timers and alarms not saved (kept in memory; they will not survive a restart): " +
                                         s.error().message);
  }
  return s;
}

}  // namespace sotto::intents
