// SPDX-License-Identifier: MIT
// decide(): the routing rule, the cloud gate and the decision's log line.
#include "engine/router/decision.h"

#include <cstdio>

namespace sotto::router {
namespace {

bool intentConfident(const RouteInputs& in, const RouterThresholds& th) noexcept {
  return in.intent.matched && in.intent.confidence >= th.intentConfidence;
}
bool localConfident(const RouteInputs& in, const RouterThresholds& th) noexcept {
  return in.local.available && in.local.confidenceKnown && in.local.confidence > th.localConfidence;
}
bool semanticHit(const RouteInputs& in, const RouterThresholds& th) noexcept {
  return in.cache.outcome == CacheOutcome::semantic && in.cache.guardsPassed &&
         in.cache.similarity >= th.semanticSimilarity;
}

// The gates every cloud request passes, forced or not: privacy first, so the reason names privacy when it applies.
CloudBlock hardBlock(const RouteInputs& in) noexcept {
  if (in.mode == privacy::PrivacyMode::offline) return CloudBlock::offline;
  if (in.pii == PiiVerdict::localOnly) return CloudBlock::piiLocalOnly;
  if (!in.cloud.configured) return CloudBlock::notConfigured;
  if (in.cloud.capReached) return CloudBlock::costCap;
  return CloudBlock::none;
}

RouteDecision make(const RouteInputs& in, Route route, Reason reason, CloudBlock block = CloudBlock::none) noexcept {
  RouteDecision d;
  d.route = route;
  d.reason = reason;
  d.cloudBlock = block;
  d.scores.intentConfidence = in.intent.matched ? in.intent.confidence : 0.0f;
  d.scores.localConfidence = in.local.available && in.local.confidenceKnown ? in.local.confidence : -1.0f;
  d.scores.similarity = in.cache.outcome == CacheOutcome::semantic ? in.cache.similarity
                        : in.cache.outcome == CacheOutcome::exact  ? 1.0f
                                                                   : 0.0f;
  const auto routeIndex = static_cast<std::size_t>(route);
  d.scores.predictedMs = route == Route::cannotAnswer ? 0 : in.latency.predictedMs[routeIndex];
  d.scores.cloudPredictedMs = in.latency.predictedMs[static_cast<std::size_t>(Route::cloud)];
  return d;
}

RouteDecision decideForced(const RouteInputs& in) noexcept {
  switch (in.forced) {
    case ForcedRoute::intent:
      return in.intent.matched ? make(in, Route::intent, Reason::forced)
                               : make(in, Route::cannotAnswer, Reason::forcedUnavailable);
    case ForcedRoute::cache:
      // Forced: any exact hit or any semantic candidate the guards accept, whatever its similarity.
      return in.cache.outcome == CacheOutcome::exact ||
                     (in.cache.outcome == CacheOutcome::semantic && in.cache.guardsPassed)
                 ? make(in, Route::cache, Reason::forced)
                 : make(in, Route::cannotAnswer, Reason::forcedUnavailable);
    case ForcedRoute::local:
      return in.local.available ? make(in, Route::local, Reason::forced)
                                : make(in, Route::cannotAnswer, Reason::forcedUnavailable);
    case ForcedRoute::cloud: {
      const CloudBlock block = hardBlock(in);
      return block == CloudBlock::none ? make(in, Route::cloud, Reason::forced)
                                       : make(in, Route::cannotAnswer, Reason::forcedBlocked, block);
    }
    case ForcedRoute::automatic: break;
  }
  return make(in, Route::cannotAnswer, Reason::forcedUnavailable);
}

}  // namespace

CloudBlock cloudBlockFor(const RouteInputs& in, const RouterThresholds& th) noexcept {
  const CloudBlock block = hardBlock(in);
  if (block != CloudBlock::none) return block;
  if (in.cloud.breaker == BreakerState::open) return CloudBlock::breakerOpen;
  const std::uint32_t predicted = in.latency.predictedMs[static_cast<std::size_t>(Route::cloud)];
  if (predicted != 0 && predicted > th.cloudBudgetMs) return CloudBlock::overBudget;
  return CloudBlock::none;
}

RouteDecision decide(const RouteInputs& in, const RouterThresholds& th) noexcept {
  if (in.forced != ForcedRoute::automatic) return decideForced(in);
  if (intentConfident(in, th)) return make(in, Route::intent, Reason::intentConfident);
  if (in.cache.outcome == CacheOutcome::exact) return make(in, Route::cache, Reason::cacheExact);
  if (localConfident(in, th)) return make(in, Route::local, Reason::localConfident);
  if (semanticHit(in, th)) return make(in, Route::cache, Reason::cacheSemantic);
  const CloudBlock block = cloudBlockFor(in, th);
  if (block == CloudBlock::none) {
    const Reason why = !in.local.available         ? Reason::escalateNoLocal
                       : !in.local.confidenceKnown ? Reason::escalateConfidenceUnknown
                                                   : Reason::escalateLowConfidence;
    return make(in, Route::cloud, why);
  }
  if (in.local.available) return make(in, Route::local, Reason::localBestEffort, block);
  return make(in, Route::cannotAnswer, Reason::noAnswerSource, block);
}

bool needsLocalConfidence(const RouteInputs& in, const RouterThresholds& th) noexcept {
  if (in.forced != ForcedRoute::automatic || !in.local.available || in.local.confidenceKnown) return false;
  if (intentConfident(in, th) || in.cache.outcome == CacheOutcome::exact) return false;
  // Without a usable cloud the local model answers whatever its confidence (or the semantic cache does).
  return cloudBlockFor(in, th) == CloudBlock::none;
}

std::size_t formatDecision(const RouteDecision& d, const RouteInputs& in, std::span<char> out) noexcept {
  char local[16];
  if (!in.local.available) {
    std::snprintf(local, sizeof local, "none");
  } else if (!in.local.confidenceKnown) {
    std::snprintf(local, sizeof local, "unknown");
  } else {
    std::snprintf(local, sizeof local, "%.2f", static_cast<double>(in.local.confidence));
  }
  const char* guards = in.cache.outcome != CacheOutcome::semantic ? "na" : in.cache.guardsPassed ? "pass" : "block";
  const int n = std::snprintf(
      out.data(), out.size(),
      "route=%s reason=%s block=%s mode=%s pii=%s forced=%s intent=%.2f local=%s cache=%s sim=%.2f guards=%s "
      "breaker=%s cap=%s pred_ms=%u cloud_ms=%u",
      routeName(d.route), reasonName(d.reason), cloudBlockName(d.cloudBlock), privacy::privacyModeName(in.mode),
      piiVerdictName(in.pii), forcedRouteName(in.forced), static_cast<double>(d.scores.intentConfidence), local,
      cacheOutcomeName(in.cache.outcome), static_cast<double>(d.scores.similarity), guards,
      in.cloud.configured ? breakerStateName(in.cloud.breaker) : "none", in.cloud.capReached ? "reached" : "ok",
      static_cast<unsigned>(d.scores.predictedMs), static_cast<unsigned>(d.scores.cloudPredictedMs));
  return n < 0 ? 0 : static_cast<std::size_t>(n);
}

}  // namespace sotto::router
