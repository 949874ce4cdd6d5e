// SPDX-License-Identifier: MIT
// Router: decide() plus the state it needs (circuit breaker, cost caps, latency predictor), its log line and metrics.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "engine/router/circuit_breaker.h"
#include "engine/router/cost_caps.h"
#include "engine/router/decision.h"
#include "engine/router/latency_predictor.h"
#include "engine/router/router_metrics.h"
#include "engine/router/supervisor.h"
#include "sotto/hal/result.h"

namespace sotto::router {

struct RouterOptions {
  RouterThresholds thresholds;
  BreakerOptions breaker;
  CostCapOptions caps;
  LatencyOptions latency;
  SupervisorOptions supervisor;
  bool cloudConfigured = false;  // cloud.endpoint is set (and the cloud client was created)
  bool logDecisions = true;      // one info line per decision (stage "router", event "decision")
  // The cost caps' counts across restarts (cost_caps_file.h): loaded by restoreCaps(), rewritten after every
  // admitted cloud request. "" = counted in memory only.
  std::string capsFile;
  std::int64_t (*wallClockMs)() noexcept = nullptr;  // Unix time in ms for that file; null = the system clock
};

// Threads: create() on the control thread (allocates the cost-cap ring). route(), needsLocalConfidence(),
// complete(), onCloud*() and makeSupervisor() on the brain thread only (not thread-safe; route() logs, so not on a
// real-time thread). recordFirstAudio() and metrics() from any thread.
class Router {
 public:
  // Errors: thresholds outside [0, 1], invalid breaker or cost-cap options, first-token budget of 0 or above the
  // hard timeout.
  static Result<std::unique_ptr<Router>> create(const RouterOptions& options);

  // Overwrites in.cloud (configured, breaker admission, cost cap) and in.latency from the router's own state.
  RouteInputs complete(RouteInputs in, Millis now) const noexcept;
  // needsLocalConfidence() on the completed inputs: generate the first tokens before route() when true.
  bool needsLocalConfidence(const RouteInputs& in, Millis now) const noexcept;
  // The cost caps' counts from options().capsFile, at `now` (a corrupt or unreadable file: the caps count as
  // reached, see loadCostCaps). Returns what to warn about ("" = nothing). Brain thread, before the first route();
  // blocks on disk I/O.
  std::string restoreCaps(Millis now);

  // complete(), decide(), one log line, metrics. When the route is cloud the request is admitted here: the breaker's
  // half-open probe is taken and the request counts against the caps (and is written to options().capsFile, a
  // blocking write), so the caller must send it (or report onCloudAbandoned()).
  RouteDecision route(const RouteInputs& in, Millis now);

  // Outcome of an admitted cloud request: success = its first token arrived; failure = error, malformed stream or
  // hard timeout; abandoned = cancelled (barge-in) before a verdict.
  void onCloudSuccess(Millis now) noexcept;
  void onCloudFailure(Millis now);
  void onCloudAbandoned() noexcept;

  // Measured time from decision to first audio on the route that answered. Any thread.
  void recordFirstAudio(Route route, std::uint32_t ms) noexcept { latency_.record(route, ms); }

  // A supervisor for one request, counting into this router's metrics.
  RequestSupervisor makeSupervisor() noexcept { return RequestSupervisor(options_.supervisor, &metrics_); }

  const RouterOptions& options() const noexcept { return options_; }
  RouterMetrics& metrics() noexcept { return metrics_; }
  const RouterMetrics& metrics() const noexcept { return metrics_; }
  const CircuitBreaker& breaker() const noexcept { return breaker_; }
  const CostCaps& caps() const noexcept { return caps_; }
  LatencyPredictor& latency() noexcept { return latency_; }

 private:
  explicit Router(const RouterOptions& options);
  void saveCaps(Millis now);
  bool admitAgainstCaps(Millis now);  // counts a cloud request (false: a cap is reached); the file's RMW
  std::int64_t wallNowMs() const noexcept;

  RouterOptions options_;
  CircuitBreaker breaker_;
  CostCaps caps_;
  LatencyPredictor latency_;
  RouterMetrics metrics_;
  bool capsSaveFailing_ = false;  // warn once per streak of failed writes
  bool capsLockFailing_ = false;  // the same for the file's lock
};

}  // namespace sotto::router
