// SPDX-License-Identifier: MIT
// The decision matrix: every privacy mode × PII × intent × cache × cloud health × local confidence combination
// against the rule, restated here independently of engine/router/decision.cpp; plus hand-checked rows.
#include <gtest/gtest.h>

#include <array>
#include <string>
#include <vector>

#include "engine/router/decision.h"

namespace sotto::router {
namespace {

enum class Intent { none, confident, weak };
enum class Cache { miss, exact, semanticPass, semanticGuardBlocked };
enum class Cloud { closed, open, halfOpen };
enum class Local { high, low, unavailable };

struct Case {
  privacy::PrivacyMode mode;
  PiiVerdict pii;
  Intent intent;
  Cache cache;
  Cloud cloud;
  Local local;
};

std::string describe(const Case& c) {
  static const char* intents[] = {"none", "confident", "weak"};
  static const char* caches[] = {"miss", "exact", "semantic-pass", "semantic-guard-blocked"};
  static const char* clouds[] = {"closed", "open", "half-open"};
  static const char* locals[] = {"high", "low", "unavailable"};
  return std::string("mode=") + privacy::privacyModeName(c.mode) + " pii=" + piiVerdictName(c.pii) +
         " intent=" + intents[static_cast<int>(c.intent)] + " cache=" + caches[static_cast<int>(c.cache)] +
         " cloud=" + clouds[static_cast<int>(c.cloud)] + " local=" + locals[static_cast<int>(c.local)];
}

RouteInputs inputsFor(const Case& c) {
  RouteInputs in;
  in.mode = c.mode;
  in.pii = c.pii;
  switch (c.intent) {
    case Intent::none: in.intent = {false, 0.95f}; break;  // "none" with a high confidence must not count
    case Intent::confident: in.intent = {true, 0.85f}; break;
    case Intent::weak: in.intent = {true, 0.40f}; break;
  }
  switch (c.cache) {
    case Cache::miss: in.cache = {CacheOutcome::miss, 0.0f, false}; break;
    case Cache::exact: in.cache = {CacheOutcome::exact, 1.0f, true}; break;
    case Cache::semanticPass: in.cache = {CacheOutcome::semantic, 0.93f, true}; break;
    case Cache::semanticGuardBlocked: in.cache = {CacheOutcome::semantic, 0.97f, false}; break;
  }
  in.cloud.configured = true;
  in.cloud.capReached = false;
  in.cloud.breaker = c.cloud == Cloud::closed ? BreakerState::closed
                     : c.cloud == Cloud::open ? BreakerState::open
                                              : BreakerState::halfOpen;
  switch (c.local) {
    case Local::high: in.local = {true, true, 0.92f}; break;
    case Local::low: in.local = {true, true, 0.41f}; break;
    case Local::unavailable: in.local = {false, false, 0.0f}; break;
  }
  in.latency.predictedMs = {120, 90, 600, 1500, 0};  // cloud well inside the default 8000 ms budget
  return in;
}

// The product rule, in the order the issue states it, written from the spec (not from decision.cpp).
Route expectedRoute(const Case& c) {
  if (c.intent == Intent::confident) return Route::intent;
  if (c.cache == Cache::exact) return Route::cache;
  if (c.local == Local::high) return Route::local;
  if (c.cache == Cache::semanticPass) return Route::cache;
  const bool privacyAllows = c.mode != privacy::PrivacyMode::offline && c.pii != PiiVerdict::localOnly;
  const bool healthy = c.cloud != Cloud::open;  // closed, or half-open with its probe free
  if (privacyAllows && healthy) return Route::cloud;
  if (c.local != Local::unavailable) return Route::local;  // low confidence: best effort
  return Route::cannotAnswer;
}

std::vector<Case> allCases() {
  std::vector<Case> cases;
  for (auto mode : {privacy::PrivacyMode::offline, privacy::PrivacyMode::private_, privacy::PrivacyMode::standard})
    for (auto pii : {PiiVerdict::none, PiiVerdict::redactable, PiiVerdict::localOnly})
      for (auto intent : {Intent::none, Intent::confident, Intent::weak})
        for (auto cache : {Cache::miss, Cache::exact, Cache::semanticPass, Cache::semanticGuardBlocked})
          for (auto cloud : {Cloud::closed, Cloud::open, Cloud::halfOpen})
            for (auto local : {Local::high, Local::low, Local::unavailable})
              cases.push_back({mode, pii, intent, cache, cloud, local});
  return cases;
}

TEST(RouterMatrix, EveryCombinationFollowsTheRule) {
  const auto cases = allCases();
  ASSERT_EQ(cases.size(), 3u * 3 * 3 * 4 * 3 * 3);
  std::array<int, kRouteCount> mix{};
  for (const Case& c : cases) {
    const RouteDecision d = decide(inputsFor(c), RouterThresholds{});
    EXPECT_EQ(routeName(d.route), std::string(routeName(expectedRoute(c)))) << describe(c);
    ++mix[static_cast<std::size_t>(d.route)];
  }
  // Every route occurs somewhere in the matrix (the table is not degenerate).
  for (std::size_t r = 0; r < kRouteCount; ++r) EXPECT_GT(mix[r], 0) << routeName(static_cast<Route>(r));
}

TEST(RouterMatrix, ReasonsAgreeWithTheRoute) {
  for (const Case& c : allCases()) {
    const RouteDecision d = decide(inputsFor(c), RouterThresholds{});
    switch (d.route) {
      case Route::intent: EXPECT_EQ(d.reason, Reason::intentConfident) << describe(c); break;
      case Route::cache:
        EXPECT_EQ(d.reason, c.cache == Cache::exact ? Reason::cacheExact : Reason::cacheSemantic) << describe(c);
        break;
      case Route::local:
        EXPECT_EQ(d.reason, c.local == Local::high ? Reason::localConfident : Reason::localBestEffort) << describe(c);
        if (d.reason == Reason::localBestEffort) {
          EXPECT_NE(d.cloudBlock, CloudBlock::none) << describe(c);
        }
        break;
      case Route::cloud:
        EXPECT_EQ(d.reason, c.local == Local::low ? Reason::escalateLowConfidence : Reason::escalateNoLocal)
            << describe(c);
        EXPECT_EQ(d.cloudBlock, CloudBlock::none);
        break;
      case Route::cannotAnswer:
        EXPECT_EQ(d.reason, Reason::noAnswerSource) << describe(c);
        EXPECT_NE(d.cloudBlock, CloudBlock::none) << describe(c);
        break;
    }
    // Privacy invariants, stated on their own.
    if (c.mode == privacy::PrivacyMode::offline || c.pii == PiiVerdict::localOnly) {
      EXPECT_NE(d.route, Route::cloud) << describe(c);
    }
    if (c.mode == privacy::PrivacyMode::offline && d.cloudBlock != CloudBlock::none) {
      EXPECT_EQ(d.cloudBlock, CloudBlock::offline) << describe(c);
    }
  }
}

// Hand-checked rows, spelled out.
struct Row {
  Case c;
  Route route;
  Reason reason;
  CloudBlock block;
};

TEST(RouterMatrix, HandCheckedRows) {
  const Row rows[] = {
      // Private mode, redactable PII, nothing local can answer: escalate anonymized.
      {{privacy::PrivacyMode::private_, PiiVerdict::redactable, Intent::none, Cache::miss, Cloud::closed, Local::low},
       Route::cloud, Reason::escalateLowConfidence, CloudBlock::none},
      // The same request with a local-only span: the local model answers as best it can.
      {{privacy::PrivacyMode::private_, PiiVerdict::localOnly, Intent::none, Cache::miss, Cloud::closed, Local::low},
       Route::local, Reason::localBestEffort, CloudBlock::piiLocalOnly},
      // Offline, no local model, a semantic candidate the guards blocked: nothing may answer.
      {{privacy::PrivacyMode::offline, PiiVerdict::none, Intent::weak, Cache::semanticGuardBlocked, Cloud::closed,
        Local::unavailable},
       Route::cannotAnswer, Reason::noAnswerSource, CloudBlock::offline},
      // A confident intent beats everything, even offline with local-only PII.
      {{privacy::PrivacyMode::offline, PiiVerdict::localOnly, Intent::confident, Cache::exact, Cloud::open, Local::high},
       Route::intent, Reason::intentConfident, CloudBlock::none},
      // Exact cache hit beats a confident local model.
      {{privacy::PrivacyMode::standard, PiiVerdict::none, Intent::weak, Cache::exact, Cloud::closed, Local::high},
       Route::cache, Reason::cacheExact, CloudBlock::none},
      // A confident local model beats a semantic hit.
      {{privacy::PrivacyMode::standard, PiiVerdict::none, Intent::none, Cache::semanticPass, Cloud::closed, Local::high},
       Route::local, Reason::localConfident, CloudBlock::none},
      // Semantic hit with guards passed beats the cloud when the local model is unsure.
      {{privacy::PrivacyMode::standard, PiiVerdict::none, Intent::none, Cache::semanticPass, Cloud::closed, Local::low},
       Route::cache, Reason::cacheSemantic, CloudBlock::none},
      // Breaker open, no local model: cannot answer now.
      {{privacy::PrivacyMode::standard, PiiVerdict::redactable, Intent::none, Cache::miss, Cloud::open, Local::unavailable},
       Route::cannotAnswer, Reason::noAnswerSource, CloudBlock::breakerOpen},
      // Half-open: the probe may go.
      {{privacy::PrivacyMode::private_, PiiVerdict::none, Intent::weak, Cache::semanticGuardBlocked, Cloud::halfOpen,
        Local::unavailable},
       Route::cloud, Reason::escalateNoLocal, CloudBlock::none},
      // Breaker open with a local model: local best effort, blamed on the breaker.
      {{privacy::PrivacyMode::private_, PiiVerdict::none, Intent::none, Cache::miss, Cloud::open, Local::low},
       Route::local, Reason::localBestEffort, CloudBlock::breakerOpen},
  };
  for (const Row& r : rows) {
    const RouteDecision d = decide(inputsFor(r.c), RouterThresholds{});
    EXPECT_EQ(d.route, r.route) << describe(r.c) << " got " << routeName(d.route);
    EXPECT_EQ(d.reason, r.reason) << describe(r.c) << " got " << reasonName(d.reason);
    EXPECT_EQ(d.cloudBlock, r.block) << describe(r.c) << " got " << cloudBlockName(d.cloudBlock);
    // The independent rule agrees with the hand-checked row too.
    EXPECT_EQ(expectedRoute(r.c), r.route) << describe(r.c);
  }
}

}  // namespace
}  // namespace sotto::router
