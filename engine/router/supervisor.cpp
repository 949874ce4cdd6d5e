// SPDX-License-Identifier: MIT
// RequestSupervisor: filler after the first-token budget, fallback after the hard timeout or an error.
#include "engine/router/supervisor.h"

#include "engine/router/router_metrics.h"

namespace sotto::router {

const char* supervisorActionName(SupervisorAction a) noexcept {
  switch (a) {
    case SupervisorAction::none: return "none";
    case SupervisorAction::speakFiller: return "speak-filler";
    case SupervisorAction::fallbackLocal: return "fallback-local";
    case SupervisorAction::sayCannotAnswer: return "say-cannot-answer";
    case SupervisorAction::endIncomplete: return "end-incomplete";
    case SupervisorAction::stop: return "stop";
  }
  return "unknown";
}

const char* supervisorPhaseName(SupervisorPhase p) noexcept {
  switch (p) {
    case SupervisorPhase::idle: return "idle";
    case SupervisorPhase::waiting: return "waiting";
    case SupervisorPhase::streaming: return "streaming";
    case SupervisorPhase::done: return "done";
    case SupervisorPhase::failed: return "failed";
    case SupervisorPhase::incomplete: return "incomplete";
    case SupervisorPhase::cancelled: return "cancelled";
  }
  return "unknown";
}

RequestSupervisor::RequestSupervisor(const SupervisorOptions& options, RouterMetrics* metrics) noexcept
    : options_(options), metrics_(metrics) {}

void RequestSupervisor::start(Route route, bool localAvailable, Millis now,
                              const pipeline::CancelToken* cancel) noexcept {
  cancel_ = cancel;
  phase_ = SupervisorPhase::waiting;
  route_ = route;
  localAvailable_ = localAvailable;
  localTried_ = route == Route::local;
  fillerSpoken_ = false;
  fellBack_ = false;
  requestStart_ = attemptStart_ = now;
  firstTokenLatency_ = Millis{-1};
}

bool RequestSupervisor::checkCancel() noexcept {
  if (phase_ == SupervisorPhase::cancelled) return true;
  if (cancel_ == nullptr || !cancel_->cancelled()) return false;
  if (phase_ != SupervisorPhase::waiting && phase_ != SupervisorPhase::streaming) return false;
  phase_ = SupervisorPhase::cancelled;
  if (metrics_ != nullptr) metrics_->countCancellation();
  return true;
}

SupervisorAction RequestSupervisor::fallBack(Millis now) noexcept {
  if (localAvailable_ && !localTried_) {
    localTried_ = true;
    fellBack_ = true;
    route_ = Route::local;
    phase_ = SupervisorPhase::waiting;
    attemptStart_ = now;
    if (metrics_ != nullptr) metrics_->countFallbackLocal();
    return SupervisorAction::fallbackLocal;
  }
  phase_ = SupervisorPhase::failed;
  if (metrics_ != nullptr) metrics_->countFallbackCannotAnswer();
  return SupervisorAction::sayCannotAnswer;
}

SupervisorAction RequestSupervisor::onFirstToken(Millis now) noexcept {
  const bool wasCancelled = phase_ == SupervisorPhase::cancelled;
  if (checkCancel()) return wasCancelled ? SupervisorAction::none : SupervisorAction::stop;
  if (phase_ != SupervisorPhase::waiting) return SupervisorAction::none;  // duplicate or late: ignore
  phase_ = SupervisorPhase::streaming;
  firstTokenLatency_ = now - requestStart_;
  return SupervisorAction::none;
}

SupervisorAction RequestSupervisor::onError(Millis now) noexcept {
  const bool wasCancelled = phase_ == SupervisorPhase::cancelled;
  if (checkCancel()) return wasCancelled ? SupervisorAction::none : SupervisorAction::stop;
  if (phase_ != SupervisorPhase::waiting && phase_ != SupervisorPhase::streaming) return SupervisorAction::none;
  if (metrics_ != nullptr) metrics_->countStreamError();
  if (phase_ == SupervisorPhase::streaming) return endIncomplete();  // spoken words are not taken back
  return fallBack(now);
}

SupervisorAction RequestSupervisor::endIncomplete() noexcept {
  phase_ = SupervisorPhase::incomplete;
  if (metrics_ != nullptr) metrics_->countIncomplete();
  return SupervisorAction::endIncomplete;
}

SupervisorAction RequestSupervisor::onFinished(Millis now) noexcept {
  const bool wasCancelled = phase_ == SupervisorPhase::cancelled;
  if (checkCancel()) return wasCancelled ? SupervisorAction::none : SupervisorAction::stop;
  if (phase_ == SupervisorPhase::streaming) {
    phase_ = SupervisorPhase::done;
    return SupervisorAction::none;
  }
  // A stream that ended without a single token gave no answer: the same as an error.
  if (phase_ == SupervisorPhase::waiting) return onError(now);
  return SupervisorAction::none;
}

SupervisorAction RequestSupervisor::onTick(Millis now) noexcept {
  const bool wasCancelled = phase_ == SupervisorPhase::cancelled;
  if (checkCancel()) return wasCancelled ? SupervisorAction::none : SupervisorAction::stop;
  if (phase_ != SupervisorPhase::waiting && phase_ != SupervisorPhase::streaming) return SupervisorAction::none;
  const Millis waited = now - attemptStart_;
  if (waited >= options_.hardTimeout) {
    if (metrics_ != nullptr) metrics_->countHardTimeout();
    return phase_ == SupervisorPhase::streaming ? endIncomplete() : fallBack(now);
  }
  if (phase_ == SupervisorPhase::streaming) return SupervisorAction::none;
  if (!fillerSpoken_ && waited >= options_.firstTokenBudget) {
    fillerSpoken_ = true;
    if (metrics_ != nullptr) metrics_->countFiller();
    return SupervisorAction::speakFiller;
  }
  return SupervisorAction::none;
}

Millis RequestSupervisor::nextDeadline() const noexcept {
  if (phase_ == SupervisorPhase::streaming) return attemptStart_ + options_.hardTimeout;
  if (phase_ != SupervisorPhase::waiting) return Millis::max();
  if (!fillerSpoken_ && options_.firstTokenBudget < options_.hardTimeout) {
    return attemptStart_ + options_.firstTokenBudget;
  }
  return attemptStart_ + options_.hardTimeout;
}

}  // namespace sotto::router
