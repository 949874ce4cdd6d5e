// SPDX-License-Identifier: MIT
// The routing decision: a pure function from plain inputs (privacy, PII verdict, intent, cache, local model,
// cloud health, cost cap, latency prediction, forced route) to a route, a reason and the scores it used.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "engine/router/route.h"

namespace sotto::router {

// Thresholds (settings router.*). Comparisons: intent >= intentConfidence, local > localConfidence (the brief's
// "> 0.8"), similarity >= semanticSimilarity (the cache's "≥ threshold").
struct RouterThresholds {
  float intentConfidence = 0.6f;
  float localConfidence = 0.8f;
  float semanticSimilarity = 0.9f;
  // A cloud answer predicted to start later than this is not worth waiting for (latency.hard-timeout-ms: the
  // supervisor gives up at that point anyway).
  std::uint32_t cloudBudgetMs = 8000;
};

struct IntentInput {
  bool matched = false;     // the matcher returned an intent other than "none"
  float confidence = 0.0f;  // IntentMatch::confidence
};

struct CacheInput {
  CacheOutcome outcome = CacheOutcome::miss;
  float similarity = 0.0f;    // semantic: cosine similarity of the best candidate
  bool guardsPassed = false;  // semantic: negation/number/entity/slot guards agreed
};

struct LocalInput {
  bool available = false;        // a local model is loaded and usable
  bool confidenceKnown = false;  // its first tokens were scored (see local_confidence.h)
  float confidence = 0.0f;       // in [0, 1] when known
};

struct CloudInput {
  bool configured = false;                     // cloud.endpoint is set
  BreakerState breaker = BreakerState::closed;  // CircuitBreaker::admission(now)
  bool capReached = false;                     // CostCaps::exhausted(now)
};

// Predicted time from the decision to the first audio, per route (LatencyPredictor::predictAll); 0 = no data.
struct LatencyInput {
  std::array<std::uint32_t, kRouteCount> predictedMs{};
};

// Everything decide() looks at. Deliberately holds no text: nothing from the utterance can reach the log line.
struct RouteInputs {
  privacy::PrivacyMode mode = privacy::PrivacyMode::private_;
  PiiVerdict pii = PiiVerdict::none;
  IntentInput intent;
  CacheInput cache;
  LocalInput local;
  CloudInput cloud;
  LatencyInput latency;
  ForcedRoute forced = ForcedRoute::automatic;
};

struct RouteScores {
  float intentConfidence = 0.0f;
  float localConfidence = -1.0f;  // -1: not measured or no local model
  float similarity = 0.0f;
  std::uint32_t predictedMs = 0;       // of the chosen route; 0 = no data
  std::uint32_t cloudPredictedMs = 0;  // 0 = no data
};

struct RouteDecision {
  Route route = Route::cannotAnswer;
  Reason reason = Reason::noAnswerSource;
  CloudBlock cloudBlock = CloudBlock::none;  // set when the cloud was wanted but not usable
  RouteScores scores;
  bool escalated() const noexcept { return route == Route::cloud; }
  const char* text() const noexcept { return reasonText(reason); }
};

// Default rule (issue 5): confident intent → intent; exact cache hit → cache; confident local model → local;
// similar cached prompt with guards passed → cache; otherwise cloud if allowed (privacy mode, PII verdict,
// configured, cost cap, breaker closed or half-open, within budget); else local best effort; else cannot answer.
// Offline never routes to the cloud. A forced route is taken when it has an answer; a forced cloud route is still
// refused by the privacy mode, the PII verdict, a missing endpoint and the cost cap (not by the breaker or budget).
// Any thread; pure, no allocation.
RouteDecision decide(const RouteInputs& in, const RouterThresholds& th) noexcept;

// Why the cloud may not take this request in automatic routing (none: it may). Any thread; pure.
CloudBlock cloudBlockFor(const RouteInputs& in, const RouterThresholds& th) noexcept;

// True when the automatic decision hinges on the local model's confidence, which is not measured yet: the caller
// should generate the first tokens (GenerateOptions::confidenceTokens), fill LocalInput and decide again.
bool needsLocalConfidence(const RouteInputs& in, const RouterThresholds& th) noexcept;

// The decision's one structured log line (no newline), e.g.
// "route=cloud reason=low-confidence block=none mode=private pii=redactable forced=auto intent=0.00 local=0.41
//  cache=miss sim=0.00 guards=no breaker=closed cap=ok pred_ms=650 cloud_ms=650"
// Writes at most out.size() - 1 characters plus NUL; returns the untruncated length. Any thread; no allocation.
std::size_t formatDecision(const RouteDecision& d, const RouteInputs& in, std::span<char> out) noexcept;
inline constexpr std::size_t kDecisionLineMax = 320;

}  // namespace sotto::router
