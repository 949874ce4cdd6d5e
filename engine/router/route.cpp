// SPDX-License-Identifier: MIT
// Names of the router's enums (logs, metrics, JSON) and the CLI spellings it parses.
#include "engine/router/route.h"

#include <array>
#include <cstring>

namespace sotto::router {
namespace {

template <std::size_t N, typename E>
const char* pick(const std::array<const char*, N>& names, E value) noexcept {
  const auto i = static_cast<std::size_t>(value);
  return i < N ? names[i] : "unknown";
}

constexpr std::array<const char*, kRouteCount> kRouteNames{"intent", "cache", "local", "cloud", "cannot-answer"};
constexpr std::array<const char*, 5> kForcedNames{"auto", "intent", "cache", "local", "cloud"};
constexpr std::array<const char*, 3> kPiiNames{"none", "redactable", "local-only"};
constexpr std::array<const char*, 3> kCacheNames{"miss", "exact", "semantic"};
constexpr std::array<const char*, 3> kBreakerNames{"closed", "open", "half-open"};
constexpr std::array<const char*, kReasonCount> kReasonNames{
    "intent-confident",  "cache-exact",        "local-confident",    "cache-semantic",
    "low-confidence",    "confidence-unknown", "no-local-model",     "local-best-effort",
    "no-answer-source",  "forced",             "forced-unavailable", "forced-blocked"};
constexpr std::array<const char*, kReasonCount> kReasonTexts{
    "intent matched confidently",
    "exact cache hit",
    "local model confident",
    "similar cached question, guards passed",
    "local model not confident: escalated",
    "local confidence not measured: escalated",
    "no local model: escalated",
    "cloud not usable: local best effort",
    "nothing can answer",
    "route forced",
    "forced route has no answer",
    "forced cloud route not allowed"};
constexpr std::array<const char*, kCloudBlockCount> kBlockNames{
    "none", "offline", "pii-local-only", "not-configured", "breaker-open", "cost-cap", "over-budget"};

}  // namespace

Millis steadyNow() noexcept {
  return std::chrono::duration_cast<Millis>(std::chrono::steady_clock::now().time_since_epoch());
}

const char* routeName(Route r) noexcept { return pick(kRouteNames, r); }
const char* forcedRouteName(ForcedRoute r) noexcept { return pick(kForcedNames, r); }
const char* piiVerdictName(PiiVerdict v) noexcept { return pick(kPiiNames, v); }
const char* cacheOutcomeName(CacheOutcome c) noexcept { return pick(kCacheNames, c); }
const char* breakerStateName(BreakerState s) noexcept { return pick(kBreakerNames, s); }
const char* reasonName(Reason r) noexcept { return pick(kReasonNames, r); }
const char* reasonText(Reason r) noexcept { return pick(kReasonTexts, r); }
const char* cloudBlockName(CloudBlock b) noexcept { return pick(kBlockNames, b); }

bool parseForcedRoute(const char* text, ForcedRoute& out) noexcept {
  if (text == nullptr) return false;
  for (std::size_t i = 0; i < kForcedNames.size(); ++i) {
    if (std::strcmp(text, kForcedNames[i]) == 0) {
      out = static_cast<ForcedRoute>(i);
      return true;
    }
  }
  return false;
}

}  // namespace sotto::router
