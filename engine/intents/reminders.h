// SPDX-License-Identifier: MIT
// Timers and alarms: the in-memory set, its persistence in the state directory, and what is due when.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "engine/intents/state_file.h"
#include "sotto/hal/result.h"

namespace sotto::intents {

// Threads: one owner thread (the brain thread); not thread safe. Blocks on file I/O (and the state file's lock, held
// by another process for one read-modify-write) in load(), refresh(), persist() and every mutation.
class Reminders {
 public:
  struct Options {
    std::string stateDir;  // "" = memory only (nothing survives a restart)
    std::size_t maxTimers = 16;
    std::size_t maxAlarms = 16;
  };

  struct LoadReport {
    std::vector<Timer> missedTimers;    // expired while the device was off: reported once, then forgotten
    std::vector<Alarm> missedAlarms;
    std::vector<std::string> warnings;  // for the log
    bool corrupt = false;               // the state file was unreadable and set aside
    std::string setAsidePath;
  };

  explicit Reminders(Options options);

  // Reads the state file; timers and alarms whose deadline is at or before nowMs move to the report and the
  // trimmed state is saved at once, so a second restart does not report them again. Never fails.
  LoadReport load(std::int64_t nowMs);

  const ReminderState& state() const noexcept { return state_; }
  const Options& options() const noexcept { return options_; }

  // Re-reads the state file under its lock and adopts it: timers and alarms other processes sharing the state
  // directory (sottod and `sotto intent --answer`) set or cancelled since. Errors: the lock or the file (the
  // in-memory state is kept).
  Status refresh();

  // Mutations are read-modify-writes under the state file's lock (hal::FileLock): the file is re-read, the change
  // applied to what it holds, and the result saved and adopted, so concurrent processes never lose each other's
  // changes. The returned Status is the save's: on failure the in-memory state still holds the change (the device
  // keeps working; it will not survive a restart). Errc::busy: the limit (maxTimers / maxAlarms) is reached in the
  // state as re-read; nothing changed. replacing: timers removed in the same save (restarting a named timer costs
  // one write, not two).
  Status addTimer(std::string name, std::int64_t durationMs, std::int64_t deadlineMs, Timer* added = nullptr,
                  std::span<const std::uint32_t> replacing = {});
  Status addAlarm(int hour, int minute, std::int64_t deadlineMs, Alarm* added = nullptr);
  Status removeTimers(std::span<const std::uint32_t> ids);
  Status removeAlarms(std::span<const std::uint32_t> ids);

  // The earliest deadline of any timer or alarm, for the event loop's wait.
  std::optional<std::int64_t> nextDeadlineMs() const noexcept;

  struct Due {
    std::vector<Timer> timers;
    std::vector<Alarm> alarms;
    Status saved;
  };
  // Removes and returns everything due at nowMs (deadline <= nowMs), saving when anything was due (under the lock,
  // from the re-read state: a timer another process cancelled meanwhile does not ring).
  Due takeDue(std::int64_t nowMs);

  // Re-reads and saves the state (atomic write, under the lock). Memory-only stores succeed without I/O.
  Status persist();

 private:
  Status change(const std::function<Status(ReminderState&)>& apply);
  Status adoptFile();  // with the lock held
  Status write();      // with the lock held (or without one, said by change())

  Options options_;
  ReminderState state_;
};

}  // namespace sotto::intents
