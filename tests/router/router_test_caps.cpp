// SPDX-License-Identifier: MIT
// CostCaps: sliding hour and day windows on an injected clock, exact boundaries, zero caps, no allocation in use.
#include <gtest/gtest.h>

#include "engine/router/cost_caps.h"
#include "tests/support/alloc_counter.h"

namespace sotto::router {
namespace {

using namespace std::chrono_literals;

TEST(RouterCaps, HourlyCapSlides) {
  CostCaps caps({3, 10});
  Millis t{1000000};
  for (int i = 0; i < 3; ++i) {
    EXPECT_FALSE(caps.exhausted(t));
    EXPECT_TRUE(caps.record(t));
    t += 10min;
  }
  // Requests at 0, 10, 20 min; now 30 min.
  EXPECT_TRUE(caps.exhausted(t));
  EXPECT_FALSE(caps.record(t));
  EXPECT_EQ(caps.state(t).lastHour, 3u);
  // The first one leaves the hour window exactly one hour after it was sent.
  const Millis first{1000000};
  EXPECT_TRUE(caps.exhausted(first + CostCaps::kHour - 1ms));
  EXPECT_FALSE(caps.exhausted(first + CostCaps::kHour));
  EXPECT_EQ(caps.state(first + CostCaps::kHour).lastHour, 2u);
  EXPECT_EQ(caps.state(first + CostCaps::kHour).lastDay, 3u);
}

TEST(RouterCaps, DailyCapSlides) {
  CostCaps caps({2, 5});
  Millis t{0};
  for (int i = 0; i < 5; ++i) {
    ASSERT_TRUE(caps.record(t)) << i;
    t += 2h;  // never two in one hour
  }
  EXPECT_TRUE(caps.exhausted(t));
  const CostCapState s = caps.state(t);
  EXPECT_EQ(s.lastDay, 5u);
  EXPECT_EQ(s.lastHour, 0u);
  EXPECT_TRUE(s.exhausted);
  // The first request (t = 0) leaves the day window at 24 h.
  EXPECT_TRUE(caps.exhausted(Millis{0} + CostCaps::kDay - 1ms));
  EXPECT_FALSE(caps.exhausted(Millis{0} + CostCaps::kDay));
  EXPECT_TRUE(caps.record(Millis{0} + CostCaps::kDay));
  EXPECT_TRUE(caps.exhausted(Millis{0} + CostCaps::kDay));
  // Long after, everything expired; the ring reuses its slots.
  t = Millis{0} + 10 * CostCaps::kDay;
  for (int day = 0; day < 3; ++day) {
    for (int i = 0; i < 5; ++i) ASSERT_TRUE(caps.record(t + i * 2h));
    EXPECT_TRUE(caps.exhausted(t + 9h));
    t += CostCaps::kDay;
  }
}

TEST(RouterCaps, ZeroCapMeansNoCloud) {
  CostCaps caps({0, 0});
  EXPECT_TRUE(caps.exhausted(Millis{0}));
  EXPECT_FALSE(caps.record(Millis{0}));
}

TEST(RouterCaps, ClockGoingBackwardsIsClamped) {
  CostCaps caps({2, 10});
  EXPECT_TRUE(caps.record(Millis{5000000}));
  EXPECT_TRUE(caps.record(Millis{1000}));  // counted at the latest time seen
  EXPECT_TRUE(caps.exhausted(Millis{5000000}));
  EXPECT_EQ(caps.state(Millis{5000000} + CostCaps::kHour).lastHour, 0u);
}

TEST(RouterCaps, NoAllocationAfterConstruction) {
  CostCaps caps({50, 200});
  Millis t{0};
  if (!sotto::test::AllocCounter::supported()) GTEST_SKIP() << "allocation counting unsupported in this build";
  sotto::test::NoAllocScope scope;
  for (int i = 0; i < 1000; ++i) {
    if (!caps.exhausted(t)) caps.record(t);
    t += 7min;
  }
  EXPECT_EQ(scope.allocations(), 0u);
}

TEST(RouterCaps, Validation) {
  EXPECT_TRUE(CostCaps::validate({60, 500}).ok());
  EXPECT_FALSE(CostCaps::validate({600, 500}).ok());
  EXPECT_FALSE(CostCaps::validate({1, CostCaps::kMaxPerDay + 1}).ok());
}

}  // namespace
}  // namespace sotto::router
