// SPDX-License-Identifier: MIT
// RouterMetrics: counting and snapshots.
#include "engine/router/router_metrics.h"

#include "engine/router/decision.h"

namespace sotto::router {
namespace {
std::uint64_t load(const std::atomic<std::uint64_t>& c) noexcept { return c.load(std::memory_order_relaxed); }
}  // namespace

void RouterMetrics::countDecision(const RouteDecision& d) noexcept {
  add(decisions_);
  const auto r = static_cast<std::size_t>(d.route);
  const auto why = static_cast<std::size_t>(d.reason);
  const auto block = static_cast<std::size_t>(d.cloudBlock);
  if (r < kRouteCount) add(routes_[r]);
  if (why < kReasonCount) add(reasons_[why]);
  if (block < kCloudBlockCount && d.cloudBlock != CloudBlock::none) add(cloudBlocks_[block]);
}

RouterCounts RouterMetrics::snapshot() const noexcept {
  RouterCounts c;
  for (std::size_t i = 0; i < kRouteCount; ++i) c.routes[i] = load(routes_[i]);
  for (std::size_t i = 0; i < kReasonCount; ++i) c.reasons[i] = load(reasons_[i]);
  for (std::size_t i = 0; i < kCloudBlockCount; ++i) c.cloudBlocks[i] = load(cloudBlocks_[i]);
  c.decisions = load(decisions_);
  c.fillers = load(fillers_);
  c.fallbacksLocal = load(fallbacksLocal_);
  c.fallbacksCannotAnswer = load(fallbacksCannotAnswer_);
  c.hardTimeouts = load(hardTimeouts_);
  c.incomplete = load(incomplete_);
  c.streamErrors = load(streamErrors_);
  c.cancellations = load(cancellations_);
  c.breakerOpened = load(breakerOpened_);
  return c;
}

std::string RouterCounts::format() const {
  std::string s = "decisions=" + std::to_string(decisions);
  for (std::size_t i = 0; i < kRouteCount; ++i) {
    s += std::string(" route.") + routeName(static_cast<Route>(i)) + "=" + std::to_string(routes[i]);
  }
  for (std::size_t i = 0; i < kReasonCount; ++i) {
    if (reasons[i] != 0) s += std::string(" reason.") + reasonName(static_cast<Reason>(i)) + "=" + std::to_string(reasons[i]);
  }
  for (std::size_t i = 1; i < kCloudBlockCount; ++i) {
    if (cloudBlocks[i] != 0) {
      s += std::string(" block.") + cloudBlockName(static_cast<CloudBlock>(i)) + "=" + std::to_string(cloudBlocks[i]);
    }
  }
  s += " fillers=" + std::to_string(fillers) + " fallbacks.local=" + std::to_string(fallbacksLocal) +
       " fallbacks.cannot-answer=" + std::to_string(fallbacksCannotAnswer) + " hard-timeouts=" +
       std::to_string(hardTimeouts) + " incomplete=" + std::to_string(incomplete) + " stream-errors=" + std::to_string(streamErrors) +
       " cancellations=" + std::to_string(cancellations) + " breaker-opened=" + std::to_string(breakerOpened);
  return s;
}

}  // namespace sotto::router
