// SPDX-License-Identifier: MIT
// A handler set on a manual clock, fed through the shipped catalogue's matcher (end to end: text -> answer).
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "engine/intents/catalogue.h"
#include "engine/intents/clock.h"
#include "engine/intents/handlers.h"
#include "engine/intents/matcher.h"
#include "tests/intent_handlers/temp_dir.h"

namespace sotto::test {

// Saturday 2026-11-21 15:42:10 UTC.
inline std::int64_t utcMs(int y, int mo, int d, int h, int mi, int s = 0) {
  return (intents::daysFromCivil(y, mo, d) * 86400 + h * 3600 + mi * 60 + s) * 1000;
}
inline const std::int64_t kSaturday1542 = utcMs(2026, 11, 21, 15, 42, 10);

class HandlerTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    auto cat = intents::Catalogue::loadFile(std::string(SOTTO_SOURCE_DIR) + "/config/intents.xml");
    ASSERT_TRUE(cat.ok()) << cat.error().message;
    matcher_ = new intents::Matcher(std::move(*cat));
  }
  static void TearDownTestSuite() {
    delete matcher_;
    matcher_ = nullptr;
  }
  void SetUp() override { restart(); }

  // A new handler set on the same state directory, as after a reboot.
  void restart() {
    handlers_.reset();
    handlers_ = std::make_unique<intents::IntentHandlers>(intents::IntentHandlers::Options{stateDir_}, clock_, *zone_,
                                                          weather_);
    report_ = handlers_->start();
  }

  intents::HandlerOutcome say(const std::string& text) {
    matcher_->match(text, ws_, m_);
    return handlers_->handle(m_, text, device_);
  }
  std::string speak(const std::string& text) { return say(text).speech; }
  std::string lastIntent() const { return std::string(m_.name); }

  static inline intents::Matcher* matcher_ = nullptr;
  TempDir dir_;
  std::string stateDir_ = dir_.path();
  intents::ManualClock clock_{kSaturday1542};
  intents::FixedOffsetTimeZone utc_{0};
  const intents::TimeZone* zone_ = &utc_;
  intents::WeatherSource* weather_ = nullptr;
  intents::DeviceStatus device_;
  std::unique_ptr<intents::IntentHandlers> handlers_;
  intents::StartReport report_;
  intents::MatchWorkspace ws_;
  intents::IntentMatch m_;
};

}  // namespace sotto::test
