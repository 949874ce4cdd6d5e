// SPDX-License-Identifier: MIT
// Router: wiring of decide() to the breaker, cost caps, latency predictor, log line and metrics.
#include "engine/router/router.h"

#include <array>
#include <chrono>
#include <vector>

#include "engine/router/cost_caps_file.h"

#include "sotto/hal/atomic_file.h"
#include "sotto/hal/log.h"

namespace sotto::router {
namespace {
bool unitInterval(float v) { return v >= 0.0f && v <= 1.0f; }
}  // namespace

Result<std::unique_ptr<Router>> Router::create(const RouterOptions& options) {
  const RouterThresholds& th = options.thresholds;
  if (!unitInterval(th.intentConfidence) || !unitInterval(th.localConfidence) || !unitInterval(th.semanticSimilarity)) {
    return makeError(Errc::invalid_argument, "router: confidence and similarity thresholds must be within [0, 1]");
  }
  if (Status s = CircuitBreaker::validate(options.breaker); !s) return Error(s.error());
  if (Status s = CostCaps::validate(options.caps); !s) return Error(s.error());
  const SupervisorOptions& sup = options.supervisor;
  if (sup.firstTokenBudget.count() <= 0 || sup.firstTokenBudget > sup.hardTimeout) {
    return makeError(Errc::invalid_argument, "router: the first-token budget must be > 0 and not above the hard timeout");
  }
  return std::unique_ptr<Router>(new Router(options));
}

Router::Router(const RouterOptions& options)
    : options_(options), breaker_(options.breaker), caps_(options.caps), latency_(options.latency) {}

RouteInputs Router::complete(RouteInputs in, Millis now) const noexcept {
  in.cloud.configured = options_.cloudConfigured;
  in.cloud.breaker = breaker_.admission(now);
  in.cloud.capReached = caps_.exhausted(now);
  in.latency.predictedMs = latency_.predictAll();
  return in;
}

bool Router::needsLocalConfidence(const RouteInputs& in, Millis now) const noexcept {
  return router::needsLocalConfidence(complete(in, now), options_.thresholds);
}

RouteDecision Router::route(const RouteInputs& raw, Millis now) {
  const RouteInputs in = complete(raw, now);
  RouteDecision d = decide(in, options_.thresholds);
  if (d.route == Route::cloud) {
    // decide() saw the same admission and cap state a moment ago on this thread, so both succeed; if either ever
    // does not, the request stays off the cloud.
    if (!breaker_.tryAcquire(now)) {
      d = decide(complete(raw, now), options_.thresholds);
    } else if (!admitAgainstCaps(now)) {
      breaker_.onAbandoned();
      d = decide(complete(raw, now), options_.thresholds);
    }
  }
  metrics_.countDecision(d);
  if (options_.logDecisions) {
    std::array<char, kDecisionLineMax> line{};
    formatDecision(d, in, line);
    SOTTO_LOG_INFO("router", "decision", "%s", line.data());
  }
  return d;
}

std::int64_t Router::wallNowMs() const noexcept {
  if (options_.wallClockMs != nullptr) return options_.wallClockMs();
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

bool Router::admitAgainstCaps(Millis now) {
  if (options_.capsFile.empty()) return caps_.record(now);
  // Every process sharing the state directory counts into one file (sottod, `sotto ask`): read it, count this
  // request, write it, all under its lock, so that concurrent requests neither pass the caps nor forget each
  // other (20 concurrent `sotto ask` with a cap of 10 once all reached the cloud).
  auto lock = hal::FileLock::exclusive(options_.capsFile);
  if (!lock) {
    if (!capsLockFailing_) {
      SOTTO_LOG_WARN("router", "caps-not-locked", "cloud request counts not locked against other processes: %s",
                     lock.error().message.c_str());
    }
    capsLockFailing_ = true;
  } else {
    capsLockFailing_ = false;
    const CostCapsLoad load = loadCostCaps(options_.capsFile, options_.caps, now, wallNowMs());
    if (!load.warning.empty()) SOTTO_LOG_WARN("router", "caps-file", "%s", load.warning.c_str());
    caps_.restore(load.times, now);
    if (caps_.exhausted(now)) {
      // Nothing is counted, but a conservative count (the file was set aside) or times counted as now (they were
      // in the future) must be on disk for the next reader.
      if (load.capsReached || load.rewrite) saveCaps(now);
      return false;
    }
  }
  if (!caps_.record(now)) return false;
  saveCaps(now);  // counted before it is sent: a crash right after cannot forget it
  return true;
}

std::string Router::restoreCaps(Millis now) {
  if (options_.capsFile.empty()) return {};
  auto lock = hal::FileLock::exclusive(options_.capsFile);
  const CostCapsLoad load = loadCostCaps(options_.capsFile, options_.caps, now, wallNowMs());
  caps_.restore(load.times, now);
  // The conservative count after damage, and times from the future counted as now, are written back: both must
  // survive the next restart, and both must age out (a time a year ahead, clamped anew at every start and never
  // rewritten, held the caps closed for good).
  if (load.capsReached || load.rewrite) saveCaps(now);
  std::string warning = load.warning;
  if (!lock) warning += std::string(warning.empty() ? "" : "; ") + "not locked against other processes: " + lock.error().message;
  return warning;
}

void Router::saveCaps(Millis now) {
  const std::vector<Millis> times = caps_.times(now);
  if (Status st = saveCostCaps(options_.capsFile, times, now, wallNowMs()); !st) {
    if (!capsSaveFailing_) {
      SOTTO_LOG_WARN("router", "caps-not-saved", "cloud request counts not saved (a restart would forget them): %s",
                     st.error().message.c_str());
    }
    capsSaveFailing_ = true;
  } else {
    capsSaveFailing_ = false;
  }
}

void Router::onCloudSuccess(Millis now) noexcept { breaker_.onSuccess(now); }

void Router::onCloudFailure(Millis now) {
  const std::uint32_t before = breaker_.timesOpened();
  breaker_.onFailure(now);
  if (breaker_.timesOpened() != before) {
    metrics_.countBreakerOpened();
    SOTTO_LOG_WARN("router", "breaker-open", "cloud circuit breaker open for %lld ms (opened %u times)",
                   static_cast<long long>(breaker_.currentBackoff().count()), breaker_.timesOpened());
  }
}

void Router::onCloudAbandoned() noexcept { breaker_.onAbandoned(); }

}  // namespace sotto::router
