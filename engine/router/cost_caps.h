// SPDX-License-Identifier: MIT
// CostCaps: sliding one-hour and one-day counters of cloud requests against their caps, in preallocated memory.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "engine/router/route.h"
#include "sotto/hal/result.h"

namespace sotto::router {

struct CostCapOptions {
  std::uint32_t perHour = 60;  // router.cloud-max-per-hour; 0 = no cloud request at all
  std::uint32_t perDay = 500;  // router.cloud-max-per-day
};

struct CostCapState {
  std::uint32_t lastHour = 0;
  std::uint32_t lastDay = 0;
  bool exhausted = false;
};

// Keeps the send times of the last perDay requests (a ring sized at construction: the only allocation). Counts are
// exact over sliding windows (now - 1 h, now] and (now - 24 h, now].
// Threads: one thread (the brain thread); not thread-safe. No allocation after construction (times() aside), no
// blocking.
class CostCaps {
 public:
  static constexpr std::uint32_t kMaxPerDay = 100000;
  static constexpr Millis kHour{3600 * 1000};
  static constexpr Millis kDay{24 * 3600 * 1000};

  // Errors: perDay above kMaxPerDay, perHour above perDay.
  static Status validate(const CostCapOptions& options);
  explicit CostCaps(const CostCapOptions& options);

  bool exhausted(Millis now) const noexcept;  // another request would exceed a cap
  CostCapState state(Millis now) const noexcept;
  // Counts one request sent at now (times that go backwards are taken as the latest time seen). Returns false,
  // counting nothing, when a cap is already reached: callers check exhausted() first.
  bool record(Millis now) noexcept;

  const CostCapOptions& options() const noexcept { return options_; }

  // Persistence (CostCapsFile): the send times counted in the last day, oldest first. Allocates (the save path).
  std::vector<Millis> times(Millis now) const;
  // Replaces the counted requests with `times` (ascending; on this clock): those a day old or more are dropped,
  // those after `now` count as sent at `now`, and only the newest perDay are kept. No allocation.
  void restore(std::span<const Millis> times, Millis now) noexcept;

 private:
  std::uint32_t countSince(Millis from) const noexcept;  // entries with time > from
  Millis at(std::uint32_t i) const noexcept { return times_[(head_ + i) % times_.size()]; }  // i-th oldest

  CostCapOptions options_;
  std::vector<Millis> times_;  // ring, oldest at head_
  std::uint32_t head_ = 0;
  std::uint32_t size_ = 0;
  Millis latest_{0};
};

}  // namespace sotto::router
