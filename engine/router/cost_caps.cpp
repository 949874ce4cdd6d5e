// SPDX-License-Identifier: MIT
// CostCaps: a time-ordered ring of send times; window counts by binary search.
#include "engine/router/cost_caps.h"

#include <algorithm>
#include <string>

namespace sotto::router {

Status CostCaps::validate(const CostCapOptions& o) {
  if (o.perDay > kMaxPerDay) {
    return makeError(Errc::invalid_argument, "cost caps: at most " + std::to_string(kMaxPerDay) + " requests a day");
  }
  if (o.perHour > o.perDay) return makeError(Errc::invalid_argument, "cost caps: the hourly cap exceeds the daily one");
  return {};
}

CostCaps::CostCaps(const CostCapOptions& options)
    : options_(options), times_(std::max<std::uint32_t>(1, std::min(options.perDay, kMaxPerDay))) {}

std::uint32_t CostCaps::countSince(Millis from) const noexcept {
  // The ring is ordered oldest first: find the first entry newer than `from`.
  std::uint32_t lo = 0, hi = size_;
  while (lo < hi) {
    const std::uint32_t mid = lo + (hi - lo) / 2;
    if (at(mid) > from) {
      hi = mid;
    } else {
      lo = mid + 1;
    }
  }
  return size_ - lo;
}

CostCapState CostCaps::state(Millis now) const noexcept {
  CostCapState s;
  now = std::max(now, latest_);
  s.lastHour = countSince(now - kHour);
  s.lastDay = countSince(now - kDay);
  s.exhausted = s.lastHour >= options_.perHour || s.lastDay >= options_.perDay;
  return s;
}

bool CostCaps::exhausted(Millis now) const noexcept { return state(now).exhausted; }

bool CostCaps::record(Millis now) noexcept {
  now = std::max(now, latest_);
  if (exhausted(now)) return false;
  // Drop entries older than a day so the ring never fills with stale times.
  while (size_ > 0 && at(0) <= now - kDay) {
    head_ = (head_ + 1) % static_cast<std::uint32_t>(times_.size());
    --size_;
  }
  // Not exhausted => fewer than perDay entries in the last day => after pruning there is room.
  times_[(head_ + size_) % times_.size()] = now;
  ++size_;
  latest_ = now;
  return true;
}

}  // namespace sotto::router
