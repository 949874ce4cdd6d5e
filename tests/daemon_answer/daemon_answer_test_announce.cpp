// SPDX-License-Identifier: MIT
// The brain's announcements: a timer set by a request is announced once when it runs out, never before.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>

#include "app/common/answer_config.h"
#include "tests/speech/speech_fixtures.h"

using namespace std::chrono_literals;

namespace sotto::test {
namespace {

struct Collect final : answer::AskSink {
  void onText(std::string_view piece) override { text.append(piece); }
  std::string text;
};

TEST(BrainAnnouncements, TimerIsAnnouncedOnceWhenItRunsOut) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  app::BrainOverrides ov;
  ov.modelPath = "";
  ov.stateDir = dir.file("state");
  ov.cataloguePath = SOTTO_INTENTS_SOURCE_CATALOGUE;
  ov.logDecisions = false;
  ov.privacy = privacy::PrivacyMode::offline;
  auto b = answer::Brain::create(app::brainOptionsFrom(config::defaults(), ov));
  ASSERT_TRUE(b.ok()) << b.error().message;
  EXPECT_TRUE((*b)->dueAnnouncements().empty());  // nothing happened while off
  Collect sink;
  auto r = (*b)->ask("set a timer for one second", sink);
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->route, router::Route::intent) << sink.text;
  EXPECT_TRUE((*b)->dueAnnouncements().empty()) << "announced before it ran out";
  std::vector<std::string> said;
  const auto end = std::chrono::steady_clock::now() + 3s;
  while (said.empty() && std::chrono::steady_clock::now() < end) {
    std::this_thread::sleep_for(50ms);
    said = (*b)->dueAnnouncements();
  }
  ASSERT_EQ(said.size(), 1u);
  EXPECT_NE(said[0].find("timer"), std::string::npos) << said[0];
  EXPECT_NE(said[0].find("done"), std::string::npos) << said[0];
  EXPECT_TRUE((*b)->dueAnnouncements().empty()) << "announced twice";
}

}  // namespace
}  // namespace sotto::test
