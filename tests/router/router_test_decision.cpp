// SPDX-License-Identifier: MIT
// decide() beyond the matrix: thresholds at their edges, cloud gates (endpoint, cap, budget), unknown local
// confidence, forced routes under privacy, needsLocalConfidence, the local confidence score and the log line.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>

#include "engine/router/decision.h"
#include "engine/router/local_confidence.h"

namespace sotto::router {
namespace {

// An open question nothing local answers confidently; the cloud usable.
RouteInputs openQuestion() {
  RouteInputs in;
  in.mode = privacy::PrivacyMode::private_;
  in.pii = PiiVerdict::none;
  in.local = {true, true, 0.5f};
  in.cloud = {true, BreakerState::closed, false};
  in.latency.predictedMs = {100, 80, 700, 1800, 0};
  return in;
}

TEST(RouterDecision, ThresholdEdges) {
  const RouterThresholds th;  // 0.6 intent (>=), 0.8 local (>), 0.9 similarity (>=)
  RouteInputs in = openQuestion();
  in.intent = {true, 0.6f};
  EXPECT_EQ(decide(in, th).route, Route::intent);
  in.intent = {true, 0.59f};
  EXPECT_EQ(decide(in, th).route, Route::cloud);

  in = openQuestion();
  in.local.confidence = 0.8f;  // not above 0.8
  EXPECT_EQ(decide(in, th).route, Route::cloud);
  in.local.confidence = 0.81f;
  EXPECT_EQ(decide(in, th).route, Route::local);

  in = openQuestion();
  in.cache = {CacheOutcome::semantic, 0.9f, true};
  EXPECT_EQ(decide(in, th).route, Route::cache);
  in.cache.similarity = 0.89f;
  EXPECT_EQ(decide(in, th).route, Route::cloud);

  // Thresholds come from the options, not constants.
  RouterThresholds strict;
  strict.localConfidence = 0.95f;
  in = openQuestion();
  in.local.confidence = 0.9f;
  EXPECT_EQ(decide(in, th).route, Route::local);
  EXPECT_EQ(decide(in, strict).route, Route::cloud);
}

TEST(RouterDecision, CloudGatesBeyondPrivacy) {
  const RouterThresholds th;
  RouteInputs in = openQuestion();
  in.cloud.configured = false;
  RouteDecision d = decide(in, th);
  EXPECT_EQ(d.route, Route::local);
  EXPECT_EQ(d.cloudBlock, CloudBlock::notConfigured);

  in = openQuestion();
  in.cloud.capReached = true;
  d = decide(in, th);
  EXPECT_EQ(d.route, Route::local);
  EXPECT_EQ(d.cloudBlock, CloudBlock::costCap);

  in = openQuestion();
  in.latency.predictedMs[static_cast<std::size_t>(Route::cloud)] = 9000;  // above the 8000 ms budget
  d = decide(in, th);
  EXPECT_EQ(d.route, Route::local);
  EXPECT_EQ(d.cloudBlock, CloudBlock::overBudget);
  in.latency.predictedMs[static_cast<std::size_t>(Route::cloud)] = 8000;
  EXPECT_EQ(decide(in, th).route, Route::cloud);
  in.latency.predictedMs[static_cast<std::size_t>(Route::cloud)] = 0;  // no data: not a reason to refuse
  EXPECT_EQ(decide(in, th).route, Route::cloud);

  // Privacy outranks every other gate in the explanation.
  in = openQuestion();
  in.mode = privacy::PrivacyMode::offline;
  in.cloud = {false, BreakerState::open, true};
  EXPECT_EQ(decide(in, th).cloudBlock, CloudBlock::offline);
  in.mode = privacy::PrivacyMode::standard;
  in.pii = PiiVerdict::localOnly;
  EXPECT_EQ(decide(in, th).cloudBlock, CloudBlock::piiLocalOnly);
}

TEST(RouterDecision, UnknownLocalConfidence) {
  const RouterThresholds th;
  RouteInputs in = openQuestion();
  in.local = {true, false, 0.99f};  // a confidence that is not known does not count, whatever the number
  RouteDecision d = decide(in, th);
  EXPECT_EQ(d.route, Route::cloud);
  EXPECT_EQ(d.reason, Reason::escalateConfidenceUnknown);
  EXPECT_LT(d.scores.localConfidence, 0.0f);
  EXPECT_TRUE(needsLocalConfidence(in, th));

  in.mode = privacy::PrivacyMode::offline;  // no cloud: the local model answers anyway, no need to measure first
  EXPECT_FALSE(needsLocalConfidence(in, th));
  d = decide(in, th);
  EXPECT_EQ(d.route, Route::local);
  EXPECT_EQ(d.reason, Reason::localBestEffort);

  in = openQuestion();
  in.local = {true, false, 0.0f};
  in.intent = {true, 0.9f};  // answered by an intent: confidence irrelevant
  EXPECT_FALSE(needsLocalConfidence(in, th));
  in.intent = {};
  in.cache = {CacheOutcome::exact, 1.0f, true};
  EXPECT_FALSE(needsLocalConfidence(in, th));
  in.cache = {};
  in.forced = ForcedRoute::cloud;
  EXPECT_FALSE(needsLocalConfidence(in, th));
  in.forced = ForcedRoute::automatic;
  in.local.confidenceKnown = true;
  EXPECT_FALSE(needsLocalConfidence(in, th));
}

TEST(RouterDecision, ForcedRoutes) {
  const RouterThresholds th;
  RouteInputs in = openQuestion();

  in.forced = ForcedRoute::intent;
  EXPECT_EQ(decide(in, th).reason, Reason::forcedUnavailable);
  EXPECT_EQ(decide(in, th).route, Route::cannotAnswer);
  in.intent = {true, 0.3f};  // weak, but forced
  EXPECT_EQ(decide(in, th).route, Route::intent);
  EXPECT_EQ(decide(in, th).reason, Reason::forced);

  in = openQuestion();
  in.forced = ForcedRoute::cache;
  EXPECT_EQ(decide(in, th).route, Route::cannotAnswer);
  in.cache = {CacheOutcome::semantic, 0.95f, false};  // guards blocked: never, even forced
  EXPECT_EQ(decide(in, th).route, Route::cannotAnswer);
  in.cache = {CacheOutcome::semantic, 0.7f, true};
  EXPECT_EQ(decide(in, th).route, Route::cache);
  in.cache = {CacheOutcome::exact, 1.0f, true};
  EXPECT_EQ(decide(in, th).route, Route::cache);

  in = openQuestion();
  in.forced = ForcedRoute::local;
  in.local.confidence = 0.1f;
  EXPECT_EQ(decide(in, th).route, Route::local);
  in.local = {false, false, 0.0f};
  EXPECT_EQ(decide(in, th).reason, Reason::forcedUnavailable);

  in = openQuestion();
  in.forced = ForcedRoute::cloud;
  in.intent = {true, 1.0f};
  in.local.confidence = 0.99f;
  EXPECT_EQ(decide(in, th).route, Route::cloud);  // forced past a confident intent and local model
  in.cloud.breaker = BreakerState::open;          // the user asked explicitly: the breaker does not refuse it
  in.latency.predictedMs[static_cast<std::size_t>(Route::cloud)] = 60000;
  EXPECT_EQ(decide(in, th).route, Route::cloud);
  for (auto [mode, pii, configured, cap, block] :
       {std::tuple{privacy::PrivacyMode::offline, PiiVerdict::none, true, false, CloudBlock::offline},
        std::tuple{privacy::PrivacyMode::private_, PiiVerdict::localOnly, true, false, CloudBlock::piiLocalOnly},
        std::tuple{privacy::PrivacyMode::standard, PiiVerdict::localOnly, true, false, CloudBlock::piiLocalOnly},
        std::tuple{privacy::PrivacyMode::standard, PiiVerdict::none, false, false, CloudBlock::notConfigured},
        std::tuple{privacy::PrivacyMode::standard, PiiVerdict::redactable, true, true, CloudBlock::costCap}}) {
    in.mode = mode;
    in.pii = pii;
    in.cloud.configured = configured;
    in.cloud.capReached = cap;
    const RouteDecision d = decide(in, th);
    EXPECT_EQ(d.route, Route::cannotAnswer) << cloudBlockName(block);
    EXPECT_EQ(d.reason, Reason::forcedBlocked);
    EXPECT_EQ(d.cloudBlock, block);
  }
}

TEST(RouterDecision, ScoresCarryTheInputs) {
  RouteInputs in = openQuestion();
  in.intent = {true, 0.42f};
  in.cache = {CacheOutcome::semantic, 0.77f, true};
  const RouteDecision d = decide(in, RouterThresholds{});
  EXPECT_EQ(d.route, Route::cloud);
  EXPECT_FLOAT_EQ(d.scores.intentConfidence, 0.42f);
  EXPECT_FLOAT_EQ(d.scores.localConfidence, 0.5f);
  EXPECT_FLOAT_EQ(d.scores.similarity, 0.77f);
  EXPECT_EQ(d.scores.predictedMs, 1800u);
  EXPECT_EQ(d.scores.cloudPredictedMs, 1800u);
  EXPECT_TRUE(d.escalated());
  EXPECT_STREQ(d.text(), "local model not confident: escalated");
}

TEST(RouterDecision, LocalConfidenceFromFirstTokens) {
  llm::AnswerConfidence c;
  LocalInput li = localInputFrom(c);
  EXPECT_TRUE(li.available);
  EXPECT_FALSE(li.confidenceKnown);  // no token yet
  c.tokens = 8;
  c.meanLogProb = std::log(0.9f);
  li = localInputFrom(c);
  EXPECT_TRUE(li.confidenceKnown);
  EXPECT_NEAR(li.confidence, 0.9f, 1e-5);
  c.meanLogProb = -50.0f;
  EXPECT_NEAR(localInputFrom(c).confidence, 0.0f, 1e-6);
  c.meanLogProb = 0.0f;
  EXPECT_FLOAT_EQ(localInputFrom(c).confidence, 1.0f);
  li = localInputFrom(c, false);
  EXPECT_FALSE(li.available);
  EXPECT_FALSE(li.confidenceKnown);
}

TEST(RouterDecision, LogLineFormat) {
  RouteInputs in = openQuestion();
  in.pii = PiiVerdict::redactable;
  in.local = {true, true, 0.41f};
  char line[kDecisionLineMax];
  const RouteDecision d = decide(in, RouterThresholds{});
  const std::size_t n = formatDecision(d, in, line);
  EXPECT_STREQ(line,
               "route=cloud reason=low-confidence block=none mode=private pii=redactable forced=auto intent=0.00 "
               "local=0.41 cache=miss sim=0.00 guards=na breaker=closed cap=ok pred_ms=1800 cloud_ms=1800");
  EXPECT_EQ(n, std::strlen(line));

  in.mode = privacy::PrivacyMode::offline;
  in.local = {false, false, 0.0f};
  in.cache = {CacheOutcome::semantic, 0.97f, false};
  in.cloud = {false, BreakerState::open, true};
  in.forced = ForcedRoute::local;
  formatDecision(decide(in, RouterThresholds{}), in, line);
  EXPECT_STREQ(line,
               "route=cannot-answer reason=forced-unavailable block=none mode=offline pii=redactable forced=local "
               "intent=0.00 local=none cache=semantic sim=0.97 guards=block breaker=none cap=reached pred_ms=0 "
               "cloud_ms=1800");

  // Truncation is safe and reported.
  char small[16];
  const std::size_t full = formatDecision(d, in, small);
  EXPECT_GT(full, sizeof small);
  EXPECT_EQ(std::strlen(small), sizeof small - 1);
}

TEST(RouterDecision, NamesAndParsing) {
  ForcedRoute f{};
  EXPECT_TRUE(parseForcedRoute("cloud", f));
  EXPECT_EQ(f, ForcedRoute::cloud);
  EXPECT_TRUE(parseForcedRoute("auto", f));
  EXPECT_EQ(f, ForcedRoute::automatic);
  EXPECT_FALSE(parseForcedRoute("Cloud", f));
  EXPECT_FALSE(parseForcedRoute(nullptr, f));
  // Every enumerator has a distinct name (metrics keys).
  for (std::size_t i = 0; i < kReasonCount; ++i) {
    for (std::size_t j = i + 1; j < kReasonCount; ++j) {
      EXPECT_STRNE(reasonName(static_cast<Reason>(i)), reasonName(static_cast<Reason>(j)));
    }
    EXPECT_STRNE(reasonText(static_cast<Reason>(i)), "unknown");
  }
  EXPECT_STREQ(routeName(static_cast<Route>(200)), "unknown");
}

}  // namespace
}  // namespace sotto::router
