// SPDX-License-Identifier: MIT
// Injectable wall clock and time zone for the intent handlers (timers, alarms, time and date answers).
#pragma once

#include <atomic>
#include <cstdint>
#include <string>

namespace sotto::intents {

// Wall-clock time in milliseconds since the Unix epoch (UTC). Timer and alarm deadlines are wall-clock values
// because they must survive a reboot (a monotonic clock restarts at zero).
class Clock {
 public:
  virtual ~Clock() = default;
  // Any thread; never blocks.
  virtual std::int64_t nowMs() const noexcept = 0;
};

// CLOCK_REALTIME.
class SystemClock final : public Clock {
 public:
  std::int64_t nowMs() const noexcept override;
};

// A clock the caller sets (tests, replays). Any thread.
class ManualClock final : public Clock {
 public:
  explicit ManualClock(std::int64_t nowMs = 0) noexcept : now_(nowMs) {}
  std::int64_t nowMs() const noexcept override { return now_.load(std::memory_order_relaxed); }
  void set(std::int64_t nowMs) noexcept { now_.store(nowMs, std::memory_order_relaxed); }
  void advance(std::int64_t ms) noexcept { now_.fetch_add(ms, std::memory_order_relaxed); }

 private:
  std::atomic<std::int64_t> now_;
};

// A broken-down local date and time.
struct LocalTime {
  int year = 1970;
  int month = 1;    // 1-12
  int day = 1;      // 1-31
  int hour = 0;     // 0-23
  int minute = 0;
  int second = 0;
  int weekday = 4;  // 0 = Sunday .. 6 = Saturday
};

class TimeZone {
 public:
  virtual ~TimeZone() = default;
  // UTC seconds -> local wall time. Any thread; no blocking beyond libc's zone lookup.
  virtual LocalTime toLocal(std::int64_t utcSeconds) const noexcept = 0;
  // Local wall time (weekday ignored; out-of-range fields normalized, e.g. day 32) -> UTC seconds. A local time
  // that does not exist (daylight-saving gap) resolves to the instant the clocks skip to. Any thread.
  virtual std::int64_t toUtc(const LocalTime& local) const noexcept = 0;
};

// The process's local zone as libc knows it: the TZ environment variable (a zoneinfo name such as
// "Europe/Berlin" or a POSIX rule such as "CET-1CEST,M3.5.0,M10.5.0/3"), else /etc/localtime.
class SystemTimeZone final : public TimeZone {
 public:
  LocalTime toLocal(std::int64_t utcSeconds) const noexcept override;
  std::int64_t toUtc(const LocalTime& local) const noexcept override;
};

// A fixed offset from UTC without daylight saving (tests, devices configured with an offset).
class FixedOffsetTimeZone final : public TimeZone {
 public:
  explicit FixedOffsetTimeZone(int offsetMinutes) noexcept : offsetMinutes_(offsetMinutes) {}
  LocalTime toLocal(std::int64_t utcSeconds) const noexcept override;
  std::int64_t toUtc(const LocalTime& local) const noexcept override;

 private:
  int offsetMinutes_;
};

// Proleptic Gregorian calendar helpers (any thread, pure).
std::int64_t daysFromCivil(int year, int month, int day) noexcept;  // days since 1970-01-01
LocalTime civilFromSeconds(std::int64_t seconds) noexcept;           // UTC breakdown of epoch seconds
// Adds days to a local date (normalizing month/year); time of day unchanged, weekday recomputed.
LocalTime addDays(const LocalTime& t, int days) noexcept;

}  // namespace sotto::intents
