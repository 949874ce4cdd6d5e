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

std::vector<Millis> CostCaps::times(Millis now) const {
  now = std::max(now, latest_);
  std::vector<Millis> out;
  out.reserve(size_);
  for (std::uint32_t i = 0; i < size_; ++i)
    if (at(i) > now - kDay) out.push_back(at(i));
  return out;
}

void CostCaps::restore(std::span<const Millis> times, Millis now) noexcept {
  head_ = 0;
  size_ = 0;
  latest_ = Millis{0};
  const std::size_t cap = times_.size();
  // The newest `cap` entries within the day, oldest first (the input is ascending).
  const std::size_t first = times.size() > cap ? times.size() - cap : 0;
  for (std::size_t i = first; i < times.size(); ++i) {
    if (times[i] <= now - kDay) continue;
    const Millis t = std::min(times[i], now);
    const Millis previous = size_ > 0 ? times_[size_ - 1] : t;
    times_[size_] = std::max(t, previous);  // the ring stays ordered whatever the input
    ++size_;
    latest_ = std::max(latest_, t);
  }
}

}  // namespace sotto::router
