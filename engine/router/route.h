// SPDX-License-Identifier: MIT
// Router vocabulary: routes, reasons, PII verdicts, cache and cloud-health states, and their names.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>

#include "engine/privacy/mode.h"  // privacy::PrivacyMode, one of the router's inputs

namespace sotto::router {

// Time on the router's clock: milliseconds since an arbitrary epoch (steadyNow() in the daemon, any value in
// tests). Every time-driven part takes `now` as an argument, which is how the clock is injected.
using Millis = std::chrono::milliseconds;
Millis steadyNow() noexcept;  // std::chrono::steady_clock in milliseconds; any thread

// Where an answer comes from. cannotAnswer: nothing may or can answer; the caller says so plainly.
enum class Route : std::uint8_t { intent, cache, local, cloud, cannotAnswer };
inline constexpr std::size_t kRouteCount = 5;

// --route: automatic, or one route forced (still subject to the privacy mode and the PII policy).
enum class ForcedRoute : std::uint8_t { automatic, intent, cache, local, cloud };

// The privacy policy's escalation verdict for this utterance: no PII, only PII the policy lets leave anonymized
// (redact/allow types), or at least one local-only span (or a classifier that could not check the text, which
// the policy must report as localOnly). Local-only requests never escalate, in any mode.
enum class PiiVerdict : std::uint8_t { none, redactable, localOnly };

// What the cache lookup found. semantic: a similar prompt, with its similarity and whether the guards
// (negation, numbers, named entities, slots) agreed.
enum class CacheOutcome : std::uint8_t { miss, exact, semantic };

// Cloud health as the circuit breaker reports it for admission: halfOpen means a single probe may be sent now.
enum class BreakerState : std::uint8_t { closed, open, halfOpen };

// Why the decision was taken. Escalations say why the local model did not answer; localBestEffort and
// noAnswerSource come with the CloudBlock that kept the request off the cloud.
enum class Reason : std::uint8_t {
  intentConfident,      // a deterministic handler matched with enough confidence
  cacheExact,           // the exact cache tier had the answer
  localConfident,       // the local model's first tokens were confident enough
  cacheSemantic,        // a similar cached prompt, above the threshold, guards passed
  escalateLowConfidence,  // cloud: the local model was not confident
  escalateConfidenceUnknown,  // cloud: the local model's confidence was not measured
  escalateNoLocal,      // cloud: no local model
  localBestEffort,      // local although not confident: the cloud is not allowed or not usable (see CloudBlock)
  noAnswerSource,       // nothing can answer (no intent, no cache hit, no local model, no cloud)
  forced,               // --route: the forced route was available and allowed
  forcedUnavailable,    // --route: the forced route has nothing to answer with (no match, no hit, no model)
  forcedBlocked,        // --route cloud: refused by privacy mode, PII policy, configuration or cost cap
};
inline constexpr std::size_t kReasonCount = 12;

// Why the cloud was not usable (none when it was, or when it was not considered).
enum class CloudBlock : std::uint8_t {
  none,
  offline,       // privacy mode offline: no network at all
  piiLocalOnly,  // the utterance holds PII the policy keeps on the device
  notConfigured, // no cloud endpoint
  breakerOpen,   // the circuit breaker is open (or its half-open probe is in flight)
  costCap,       // the hourly or daily cloud request cap is reached
  overBudget,    // the predicted time to first audio exceeds the cloud budget
};
inline constexpr std::size_t kCloudBlockCount = 7;

// Stable lowercase names for logs, metrics and JSON ("cannot-answer", "low-confidence" ...). Any thread.
const char* routeName(Route r) noexcept;
const char* forcedRouteName(ForcedRoute r) noexcept;
const char* piiVerdictName(PiiVerdict v) noexcept;
const char* cacheOutcomeName(CacheOutcome c) noexcept;
const char* breakerStateName(BreakerState s) noexcept;
const char* reasonName(Reason r) noexcept;   // machine name: "intent-confident"
const char* reasonText(Reason r) noexcept;   // short human text: "intent matched confidently"
const char* cloudBlockName(CloudBlock b) noexcept;

// Parses --route (auto|intent|cache|local|cloud); false when unknown. (--privacy: privacy::parsePrivacyMode.)
bool parseForcedRoute(const char* text, ForcedRoute& out) noexcept;

}  // namespace sotto::router
