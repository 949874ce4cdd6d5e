// SPDX-License-Identifier: MIT
// Pseudonymous device id: stable within a rotation period, new in the next, different per device key.
#include <set>

#include <gtest/gtest.h>

#include "engine/privacy/device_id.h"
#include "sotto/hal/keystore.h"
#include "tests/keystore/temp_dir.h"
#include "tests/privacy/guard_test_key.h"

namespace sotto::privacy {
namespace {

using std::chrono::hours;
using Clock = std::chrono::system_clock;

using sotto::test::keyOf;

Clock::time_point at(std::int64_t unixSeconds) { return Clock::time_point(std::chrono::seconds(unixSeconds)); }

TEST(PseudonymousId, StableWithinADayAndNewTheNext) {
  auto id = PseudonymousId::fromKey(keyOf(1), hours(24));
  ASSERT_TRUE(id.ok());
  const std::int64_t day = 86400, d0 = 20000 * day;  // a UTC midnight
  const std::string a = id->at(at(d0));
  EXPECT_EQ(a.size(), PseudonymousId::kHexChars);
  EXPECT_EQ(a.find_first_not_of("0123456789abcdef"), std::string::npos);
  EXPECT_EQ(id->at(at(d0 + 3600)), a);
  EXPECT_EQ(id->at(at(d0 + day - 1)), a);
  EXPECT_NE(id->at(at(d0 + day)), a);
  EXPECT_NE(id->at(at(d0 - 1)), a);
  std::set<std::string> seen;
  for (int i = 0; i < 30; ++i) seen.insert(id->at(at(d0 + i * day)));
  EXPECT_EQ(seen.size(), 30u);
  EXPECT_EQ(id->periodOf(at(d0 + 5)), 20000u);
}

TEST(PseudonymousId, RotationSettingAndKeysMatter) {
  auto daily = PseudonymousId::fromKey(keyOf(1), hours(24));
  auto hourly = PseudonymousId::fromKey(keyOf(1), hours(1));
  auto other = PseudonymousId::fromKey(keyOf(2), hours(24));
  ASSERT_TRUE(daily.ok() && hourly.ok() && other.ok());
  const auto t = at(20000LL * 86400 + 7200);
  EXPECT_NE(hourly->at(t), hourly->at(t + hours(1)));
  EXPECT_EQ(daily->at(t), daily->at(t + hours(1)));
  EXPECT_NE(daily->at(t), hourly->at(t));
  EXPECT_NE(daily->at(t), other->at(t));
  EXPECT_FALSE(PseudonymousId::fromKey(keyOf(1), hours(0)).ok());
}

TEST(PseudonymousId, FromTheKeystoreDevidSubkey) {
  test::TempDir d1, d2;
  auto k1 = hal::KeystoreRegistry::instance().open({"file", d1.path(), true});
  auto k1again = hal::KeystoreRegistry::instance().open({"file", d1.path(), true});
  auto k2 = hal::KeystoreRegistry::instance().open({"file", d2.path(), true});
  ASSERT_TRUE(k1.ok() && k1again.ok() && k2.ok());
  auto a = PseudonymousId::create(**k1, hours(24));
  auto b = PseudonymousId::create(**k1again, hours(24));
  auto c = PseudonymousId::create(**k2, hours(24));
  ASSERT_TRUE(a.ok() && b.ok() && c.ok());
  const auto now = Clock::now();
  EXPECT_EQ(a->at(now), b->at(now));  // survives a restart
  EXPECT_NE(a->at(now), c->at(now));  // two devices
}

}  // namespace
}  // namespace sotto::privacy
