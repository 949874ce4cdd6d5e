// SPDX-License-Identifier: MIT
// The cost caps survive a restart: counts written to the state directory after every admitted request and read back
// (on another steady clock) by the next router; a damaged file is reported and taken as the caps reached, never as
// zero; the file format is strict.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>

#include "engine/router/cost_caps_file.h"
#include "engine/router/router.h"

namespace sotto::router {
namespace {

using namespace std::chrono_literals;

std::int64_t gWallMs = 1'700'000'000'000;  // the injected Unix clock of these tests
std::int64_t fakeWall() noexcept { return gWallMs; }

struct CapsDir {
  CapsDir() {
    std::string t = (std::filesystem::temp_directory_path() / "sotto-caps-XXXXXX").string();
    if (::mkdtemp(t.data()) != nullptr) path = t;
  }
  ~CapsDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  std::string file() const { return path + "/" + kCostCapsFileName; }
  std::string path;
};

std::unique_ptr<Router> capsRouter(const std::string& file) {
  RouterOptions o;
  o.cloudConfigured = true;
  o.logDecisions = false;
  o.caps = {3, 5};
  o.capsFile = file;
  o.wallClockMs = &fakeWall;
  auto r = Router::create(o);
  EXPECT_TRUE(r.ok());
  return r.ok() ? std::move(*r) : nullptr;
}

RouteInputs capsQuestion() {
  RouteInputs in;
  in.mode = privacy::PrivacyMode::standard;
  in.local = {true, true, 0.3f};
  return in;
}

// Before: every restart started the hour and the day at zero.
TEST(RouterCapsFile, CountsSurviveARestart) {
  gWallMs = 1'700'000'000'000;
  CapsDir dir;
  ASSERT_FALSE(dir.path.empty());
  {
    auto r = capsRouter(dir.file());
    ASSERT_TRUE(r);
    EXPECT_EQ(r->restoreCaps(Millis{5'000'000}), "");  // no file yet: nothing sent
    for (int i = 0; i < 3; ++i) {
      ASSERT_EQ(r->route(capsQuestion(), Millis{5'000'000} + i * 1min).route, Route::cloud) << i;
      gWallMs += 60'000;
    }
    EXPECT_EQ(r->route(capsQuestion(), Millis{5'000'000} + 3min).cloudBlock, CloudBlock::costCap);
  }
  EXPECT_EQ(std::filesystem::status(dir.file()).permissions() & std::filesystem::perms::all,
            std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
  // A restart (the steady clock starts again near zero) ten minutes later: the hour still holds three requests.
  gWallMs += 7 * 60'000;
  auto again = capsRouter(dir.file());
  ASSERT_TRUE(again);
  const Millis boot{20'000};
  EXPECT_EQ(again->restoreCaps(boot), "");
  EXPECT_EQ(again->caps().state(boot).lastHour, 3u);
  EXPECT_EQ(again->route(capsQuestion(), boot).cloudBlock, CloudBlock::costCap);
  // The first of them leaves the hour one hour after it was sent (wall clock 0 min, now 10 min).
  EXPECT_EQ(again->caps().state(boot + 50min).lastHour, 2u);
  gWallMs += 50 * 60'000;  // both clocks move on (the admission re-reads the file by the wall clock)
  EXPECT_EQ(again->route(capsQuestion(), boot + 50min).route, Route::cloud);
  // ... and the day cap of 5 counts all of them across both runs.
  EXPECT_EQ(again->caps().state(boot + 50min).lastDay, 4u);
}

// A damaged file is never read as zero: it is set aside, reported, and the caps count as reached for a day.
TEST(RouterCapsFile, CorruptFileIsReportedAndTakenAsCapsReached) {
  gWallMs = 1'700'000'000'000;
  const std::vector<std::int64_t> good{gWallMs - 1000, gWallMs - 500};
  const std::string valid = encodeCostCaps(good);
  std::string digit = valid;  // one digit of the first time changed: the sum shows it
  const std::size_t at = digit.find("1699999999000");
  ASSERT_NE(at, std::string::npos) << valid;
  digit[at + 4] = '8';
  for (const std::string& bad : {std::string("garbage"), valid.substr(0, valid.size() - 3),
                                 valid.substr(0, valid.find("sum")), digit, valid + "1\n", std::string()}) {
    SCOPED_TRACE(bad);
    CapsDir dir;
    std::ofstream(dir.file(), std::ios::binary) << bad;
    auto r = capsRouter(dir.file());
    ASSERT_TRUE(r);
    const std::string warning = r->restoreCaps(Millis{1'000'000});
    EXPECT_NE(warning.find("corrupt"), std::string::npos) << warning;
    EXPECT_NE(warning.find("count as reached"), std::string::npos) << warning;
    EXPECT_TRUE(r->caps().exhausted(Millis{1'000'000} + 23h));
    EXPECT_FALSE(r->caps().exhausted(Millis{1'000'000} + 24h));
    EXPECT_EQ(r->route(capsQuestion(), Millis{1'000'000}).cloudBlock, CloudBlock::costCap);
    // The damaged file is kept aside for inspection, and the conservative count is on disk for the next start.
    bool setAside = false;
    for (const auto& e : std::filesystem::directory_iterator(dir.path))
      setAside = setAside || e.path().filename().string().find(".bad-") != std::string::npos;
    EXPECT_TRUE(setAside);
    auto next = capsRouter(dir.file());
    ASSERT_TRUE(next);
    EXPECT_EQ(next->restoreCaps(Millis{1'000'000}), "");
    EXPECT_TRUE(next->caps().exhausted(Millis{1'000'000}));
  }
}

TEST(RouterCapsFile, FormatRoundTripsAndIsStrict) {
  const std::vector<std::int64_t> t{1, 2, 2, 1'700'000'000'000};
  auto back = decodeCostCaps(encodeCostCaps(t));
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(*back, t);
  EXPECT_EQ(encodeCostCaps({}), "sotto-cost-caps 1\ncount 0\nsum 0\n");
  EXPECT_FALSE(decodeCostCaps("sotto-cost-caps 1\ncount 2\n5\n4\nsum 9\n").ok());  // out of order
  EXPECT_FALSE(decodeCostCaps("sotto-cost-caps 1\ncount 1\n5\nsum 6\n").ok());     // sum
  EXPECT_FALSE(decodeCostCaps("sotto-cost-caps 1\ncount 1\n 5\nsum 5\n").ok());    // stray space
  EXPECT_FALSE(decodeCostCaps("sotto-cost-caps 1\ncount 999999\n").ok());          // above every cap
  // Times from the future count as now (and are to be written back so, to age out); those a day old are gone.
  CapsDir dir;
  const std::int64_t wall = 1'800'000'000'000;
  const std::vector<std::int64_t> mixed{wall - 25 * 3600'000LL, wall - 1000, wall + 3600'000};
  std::ofstream(dir.file(), std::ios::binary) << encodeCostCaps(mixed);
  const CostCapsLoad l = loadCostCaps(dir.file(), {3, 5}, Millis{100'000}, wall);
  EXPECT_NE(l.warning.find("1 request times are in the future"), std::string::npos) << l.warning;
  EXPECT_TRUE(l.rewrite);
  EXPECT_FALSE(l.capsReached);
  ASSERT_EQ(l.times.size(), 2u);
  EXPECT_EQ(l.times[0], Millis{99'000});
  EXPECT_EQ(l.times[1], Millis{100'000});
}

}  // namespace
}  // namespace sotto::router

namespace sotto::router {
namespace {

// Issue 36: times a year ahead (a clock set back, or a file from a wrong clock) were clamped to now at every start
// and never rewritten, so the caps stayed reached for good. Now they are written back as now and age out in a day.
TEST(RouterCapsFile, FutureTimesAreWrittenBackAsNowAndAgeOut) {
  gWallMs = 1'700'000'000'000;
  CapsDir dir;
  const std::int64_t yearAhead = gWallMs + 365LL * 24 * 3600'000;
  const std::vector<std::int64_t> future(5, yearAhead);  // the day cap (5)
  std::ofstream(dir.file(), std::ios::binary) << encodeCostCaps(future);
  {
    auto r = capsRouter(dir.file());
    ASSERT_TRUE(r);
    const std::string warning = r->restoreCaps(Millis{1'000'000});
    EXPECT_NE(warning.find("in the future"), std::string::npos) << warning;
    EXPECT_EQ(r->route(capsQuestion(), Millis{1'000'000}).cloudBlock, CloudBlock::costCap);
  }
  // On disk now: five times at the moment of that start, none in the future.
  std::ifstream in(dir.file(), std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto times = decodeCostCaps(text);
  ASSERT_TRUE(times.ok()) << times.error().message;
  ASSERT_EQ(times->size(), 5u);
  for (std::int64_t t : *times) EXPECT_EQ(t, gWallMs);
  // A day later (a fresh start each time, as a CLI would) the caps are open again.
  gWallMs += 24LL * 3600'000 + 1000;
  auto later = capsRouter(dir.file());
  ASSERT_TRUE(later);
  EXPECT_EQ(later->restoreCaps(Millis{2'000'000}), "");
  EXPECT_EQ(later->route(capsQuestion(), Millis{2'000'000}).route, Route::cloud);
}

}  // namespace
}  // namespace sotto::router
