// SPDX-License-Identifier: MIT
// Wall clock and time zones: libc's local zone, fixed offsets and the civil-calendar arithmetic they share.
#include "engine/intents/clock.h"

#include <ctime>

namespace sotto::intents {

std::int64_t SystemClock::nowMs() const noexcept {
  timespec ts{};
  ::clock_gettime(CLOCK_REALTIME, &ts);
  return static_cast<std::int64_t>(ts.tv_sec) * 1000 + ts.tv_nsec / 1000000;
}

// Howard Hinnant's days_from_civil / civil_from_days algorithms (public domain formulas).
std::int64_t daysFromCivil(int year, int month, int day) noexcept {
  const std::int64_t y = static_cast<std::int64_t>(year) - (month <= 2 ? 1 : 0);
  const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
  const std::int64_t yoe = y - era * 400;
  const std::int64_t mp = (month + 9) % 12;
  const std::int64_t doy = (153 * mp + 2) / 5 + day - 1;
  const std::int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

LocalTime civilFromSeconds(std::int64_t seconds) noexcept {
  std::int64_t days = seconds >= 0 ? seconds / 86400 : -((-seconds + 86399) / 86400);
  std::int64_t rem = seconds - days * 86400;
  LocalTime t;
  t.hour = static_cast<int>(rem / 3600);
  t.minute = static_cast<int>(rem % 3600 / 60);
  t.second = static_cast<int>(rem % 60);
  t.weekday = static_cast<int>(((days % 7) + 11) % 7);  // 1970-01-01 was a Thursday (4)
  const std::int64_t z = days + 719468;
  const std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const std::int64_t doe = z - era * 146097;
  const std::int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const std::int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const std::int64_t mp = (5 * doy + 2) / 153;
  t.day = static_cast<int>(doy - (153 * mp + 2) / 5 + 1);
  t.month = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
  t.year = static_cast<int>(yoe + era * 400 + (t.month <= 2 ? 1 : 0));
  return t;
}

LocalTime addDays(const LocalTime& t, int days) noexcept {
  const std::int64_t d = daysFromCivil(t.year, t.month, t.day) + days;
  LocalTime r = civilFromSeconds(d * 86400);
  r.hour = t.hour;
  r.minute = t.minute;
  r.second = t.second;
  return r;
}

LocalTime SystemTimeZone::toLocal(std::int64_t utcSeconds) const noexcept {
  const std::time_t tt = static_cast<std::time_t>(utcSeconds);
  std::tm tm{};
  if (::localtime_r(&tt, &tm) == nullptr) return civilFromSeconds(utcSeconds);
  LocalTime t;
  t.year = tm.tm_year + 1900;
  t.month = tm.tm_mon + 1;
  t.day = tm.tm_mday;
  t.hour = tm.tm_hour;
  t.minute = tm.tm_min;
  t.second = tm.tm_sec;
  t.weekday = tm.tm_wday;
  return t;
}

std::int64_t SystemTimeZone::toUtc(const LocalTime& local) const noexcept {
  std::tm tm{};
  tm.tm_year = local.year - 1900;
  tm.tm_mon = local.month - 1;
  tm.tm_mday = local.day;
  tm.tm_hour = local.hour;
  tm.tm_min = local.minute;
  tm.tm_sec = local.second;
  tm.tm_isdst = -1;  // let libc decide whether daylight saving applies at that instant
  return static_cast<std::int64_t>(::mktime(&tm));
}

LocalTime FixedOffsetTimeZone::toLocal(std::int64_t utcSeconds) const noexcept {
  return civilFromSeconds(utcSeconds + static_cast<std::int64_t>(offsetMinutes_) * 60);
}

std::int64_t FixedOffsetTimeZone::toUtc(const LocalTime& local) const noexcept {
  const std::int64_t days = daysFromCivil(local.year, local.month, 1) + (local.day - 1);
  return days * 86400 + local.hour * 3600 + local.minute * 60 + local.second -
         static_cast<std::int64_t>(offsetMinutes_) * 60;
}

}  // namespace sotto::intents
