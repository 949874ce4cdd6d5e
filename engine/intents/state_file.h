// SPDX-License-Identifier: MIT
// The timers-and-alarms state file: a versioned, checksummed text format, crash-safe atomic writes and a loader
// that sets a corrupt file aside instead of failing.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sotto/hal/atomic_file.h"
#include "sotto/hal/result.h"

namespace sotto::intents {

struct Timer {
  std::uint32_t id = 0;
  std::string name;             // "" = unnamed; lowercase words as the matcher reports them
  std::int64_t durationMs = 0;  // as set, for "your five minute timer"
  std::int64_t deadlineMs = 0;  // wall clock (Clock::nowMs)
  bool operator==(const Timer&) const = default;
};

struct Alarm {
  std::uint32_t id = 0;
  int hour = 0;  // local time of day it was set for
  int minute = 0;
  std::int64_t deadlineMs = 0;  // the resolved instant, wall clock
  bool operator==(const Alarm&) const = default;
};

struct ReminderState {
  std::uint32_t nextId = 1;
  std::vector<Timer> timers;  // kept sorted by deadline
  std::vector<Alarm> alarms;  // kept sorted by deadline
  bool operator==(const ReminderState&) const = default;
};

// File name inside the state directory.
inline constexpr const char* kReminderStateFile = "reminders.state";
inline constexpr int kReminderStateVersion = 1;
// Far above 64 timers + 64 alarms; a bigger file is not ours.
inline constexpr std::size_t kMaxReminderStateBytes = 256 * 1024;

// Format (version 1), one record per line, every field space-separated:
//   sotto-reminders 1
//   next-id <n>
//   timer <id> <duration ms> <deadline ms> <name, percent-encoded, "-" when unnamed>
//   alarm <id> <HH:MM> <deadline ms>
//   end <record count> <CRC-32 of every byte before this line, 8 hex digits>
// Any thread; pure.
std::string encodeReminderState(const ReminderState& state);
// Errc::corrupt with the reason (truncated, checksum mismatch, bad record on line N); Errc::unsupported for a
// newer version.
Result<ReminderState> decodeReminderState(std::string_view bytes);

// CRC-32 (IEEE 802.3, the zlib polynomial): detects torn writes and bit flips, not tampering.
std::uint32_t crc32(std::string_view bytes) noexcept;

// Writes dir/name so that after a crash at any point the file is either the old or the new content: temp file in
// the same directory, write, fsync, rename over the old file, fsync the directory. Creates dir (mode 0700) when
// it is missing. On failure the temp file is removed and the old file is untouched; the message names the path and
// the OS error ("No space left on device"). Blocks on file I/O (fsync: milliseconds on flash).
Status writeFileAtomic(const std::string& dir, const std::string& name, std::string_view bytes);

struct StateLoad {
  ReminderState state;                // empty when the file was missing or unreadable
  std::vector<std::string> warnings;  // one line each, for the log (corrupt file set aside, leftovers removed)
  std::string setAsidePath;           // where a corrupt file went ("" when none)
  bool corrupt = false;
};

// Reads dir/kReminderStateFile. Missing file: empty state, no warning. Leftover temp files of an interrupted
// write (a writer that died) are removed (warning). A corrupt, truncated or unreadable file is renamed to
// "<file>.corrupt-<UTC timestamp>" and reported; it never fails. Blocks on file I/O.
// Takes the file's lock (hal::FileLock, dir/reminders.state.lock; creates dir) for the read, so that the leftovers
// it removes can only be a dead writer's.
StateLoad loadReminderStateFile(const std::string& dir, std::int64_t nowMs);

// Several processes share a state directory (sottod and `sotto intent --answer`): every change is a
// read-modify-write under this lock (Reminders does it). Creates dir (0700) when missing. Blocks until granted.
Result<hal::FileLock> lockReminderState(const std::string& dir);
// loadReminderStateFile's read, for a caller that holds lockReminderState(dir); leftovers are removed only when
// removeLeftovers (only under the lock).
StateLoad readReminderStateLocked(const std::string& dir, std::int64_t nowMs, bool removeLeftovers);

}  // namespace sotto::intents
