// SPDX-License-Identifier: MIT
// Every stateless handler's answer and effect, end to end from the utterance through the shipped catalogue.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>

#include "tests/intent_handlers/handler_fixture.h"

namespace si = sotto::intents;
using sotto::test::HandlerTest;
using sotto::test::utcMs;
using Status = si::HandlerOutcome::Status;


TEST_F(HandlerTest, TimeAndDate) {
  EXPECT_EQ(speak("what time is it"), "It's three forty-two PM.");
  EXPECT_EQ(speak("what's the date today"), "Today is Saturday, November twenty-first.");
  clock_.set(utcMs(2026, 12, 31, 23, 59, 59));
  EXPECT_EQ(speak("what time is it"), "It's eleven fifty-nine PM.");
  EXPECT_EQ(speak("what day is it"), "Today is Thursday, December thirty-first.");
  clock_.advance(1000);
  EXPECT_EQ(speak("what time is it"), "It's midnight.");
  EXPECT_EQ(speak("what day is it"), "Today is Friday, January first.");
}

TEST_F(HandlerTest, FixedOffsetZoneShiftsTheLocalDay) {
  si::FixedOffsetTimeZone newYork(-5 * 60);
  zone_ = &newYork;
  restart();
  clock_.set(utcMs(2026, 11, 22, 2, 5));  // Sunday 02:05 UTC = Saturday 21:05 in UTC-5
  EXPECT_EQ(speak("what time is it"), "It's nine oh five PM.");
  EXPECT_EQ(speak("what's the date"), "Today is Saturday, November twenty-first.");
  handlers_.reset();  // the handlers borrow the zone
}

TEST_F(HandlerTest, SystemZoneFollowsTzIncludingDaylightSaving) {
  const char* old = std::getenv("TZ");
  const std::string saved = old ? old : "";
  // A POSIX rule: libc needs no zoneinfo files for it (the test runs the same under qemu).
  ::setenv("TZ", "EST5EDT,M3.2.0,M11.1.0", 1);
  ::tzset();
  si::SystemTimeZone local;
  zone_ = &local;
  restart();
  clock_.set(utcMs(2026, 7, 1, 16, 0));
  EXPECT_EQ(speak("what time is it"), "It's noon.");  // EDT, UTC-4
  clock_.set(sotto::test::kSaturday1542);
  EXPECT_EQ(speak("what time is it"), "It's ten forty-two AM.");  // EST, UTC-5
  // An alarm set the day before daylight saving ends rings at 7 local, i.e. 12:00 UTC, not 11:00.
  clock_.set(utcMs(2026, 10, 31, 16, 0));  // Saturday 12:00 EDT
  EXPECT_EQ(speak("wake me up at seven am tomorrow"), "Alarm set for seven AM tomorrow.");
  ASSERT_EQ(handlers_->reminders().alarms.size(), 1u);
  EXPECT_EQ(handlers_->reminders().alarms[0].deadlineMs, utcMs(2026, 11, 1, 12, 0));
  handlers_.reset();
  if (old) {
    ::setenv("TZ", saved.c_str(), 1);
  } else {
    ::unsetenv("TZ");
  }
  ::tzset();
}

TEST_F(HandlerTest, StopAndRepeat) {
  EXPECT_EQ(speak("say that again"), "I haven't said anything yet.");
  si::HandlerOutcome o = say("stop");
  EXPECT_EQ(o.status, Status::answered);
  EXPECT_EQ(o.speech, "");
  EXPECT_EQ(o.effect.kind, si::EffectKind::stop);
  EXPECT_EQ(speak("what time is it"), "It's three forty-two PM.");
  clock_.advance(60000);
  EXPECT_EQ(speak("repeat that"), "It's three forty-two PM.");  // what was said, not a new answer
  EXPECT_EQ(speak("pardon"), "It's three forty-two PM.");
  handlers_->noteSpoken("Paris is the capital of France.");  // an answer from the model
  EXPECT_EQ(speak("what did you say"), "Paris is the capital of France.");
}

TEST_F(HandlerTest, Volume) {
  device_.volume = 5;
  si::HandlerOutcome o = say("turn it up");
  EXPECT_EQ(o.speech, "Volume six.");
  EXPECT_EQ(o.effect.kind, si::EffectKind::volumeSet);
  EXPECT_EQ(o.effect.value, 6);
  o = say("volume down");
  EXPECT_EQ(o.effect.value, 4);
  o = say("set the volume to seven");
  EXPECT_EQ(o.speech, "Volume seven.");
  EXPECT_EQ(o.effect.value, 7);
  device_.volume = 10;
  o = say("louder");
  EXPECT_EQ(o.speech, "The volume is already at maximum.");
  EXPECT_EQ(o.effect.kind, si::EffectKind::none);
  device_.volume = 0;
  EXPECT_EQ(say("quieter").speech, "The volume is already at minimum.");
  device_.volume = 3;
  device_.muted = true;
  o = say("volume up");  // unmutes at the level it had
  EXPECT_EQ(o.effect.kind, si::EffectKind::volumeSet);
  EXPECT_EQ(o.effect.value, 3);
  o = say("mute");
  EXPECT_EQ(o.effect.kind, si::EffectKind::mute);
  EXPECT_EQ(o.speech, "");
  // Out of range levels cannot come from the matcher; a hand-made match is refused politely.
  si::IntentMatch m;
  m.name = "volume.set";
  m.slotCount = 1;
  m.slots[0].name = "level";
  m.slots[0].value.kind = si::SlotValue::Kind::integer;
  m.slots[0].value.number = 14;
  o = handlers_->handle(m, "volume fourteen", device_);
  EXPECT_EQ(o.effect.kind, si::EffectKind::none);
  EXPECT_EQ(o.speech, "The volume goes from zero to ten.");
}

TEST_F(HandlerTest, PrivacyModes) {
  si::HandlerOutcome o = say("go offline");
  EXPECT_EQ(o.effect.kind, si::EffectKind::privacyOffline);
  EXPECT_EQ(o.speech, "Offline mode is on. Nothing will leave this device.");
  device_.offline = true;
  EXPECT_EQ(say("turn on privacy mode").speech, "Offline mode is already on.");
  o = say("go back online");
  EXPECT_EQ(o.effect.kind, si::EffectKind::privacyOnline);
  EXPECT_EQ(o.speech, "I'm back online.");
  device_.offline = false;
  EXPECT_EQ(say("go back online").speech, "I'm already online.");
}

TEST_F(HandlerTest, UnitConversion) {
  EXPECT_EQ(speak("convert five kilometers to miles"), "Five kilometers is about three point one one miles.");
  EXPECT_EQ(speak("what is 100 degrees celsius in fahrenheit"), "One hundred degrees Celsius is two hundred twelve degrees Fahrenheit.");
  EXPECT_EQ(speak("how many feet are in one mile"), "One mile is five thousand two hundred eighty feet.");
  EXPECT_EQ(lastIntent(), "convert.units");
  // Different dimensions: a clear sentence, not a number.
  si::IntentMatch m;
  m.name = "convert.units";
  m.slotCount = 3;
  m.slots[0].name = "value";
  m.slots[0].value.kind = si::SlotValue::Kind::integer;
  m.slots[0].value.number = 3;
  for (int i = 1; i < 3; ++i) {
    m.slots[i].name = i == 1 ? "from" : "to";
    m.slots[i].value.kind = si::SlotValue::Kind::text;
    const char* code = i == 1 ? "km" : "kg";
    std::snprintf(m.slots[i].value.text, sizeof m.slots[i].value.text, "%s", code);
    m.slots[i].value.length = std::strlen(code);
  }
  EXPECT_EQ(handlers_->handle(m, "", device_).speech, "I can't convert kilometers to kilograms.");
}

TEST_F(HandlerTest, Arithmetic) {
  EXPECT_EQ(speak("what is nine hundred twenty four times three"),
            "Nine hundred twenty-four times three is two thousand seven hundred seventy-two.");
  EXPECT_EQ(speak("what's the square root of sixteen"), "The square root of sixteen is four.");
  EXPECT_EQ(speak("what is 10 divided by 4"), "Ten divided by four is two point five.");
  EXPECT_EQ(speak("what is fifteen percent of eighty"), "Fifteen percent of eighty is twelve.");
  si::IntentMatch m;
  m.name = "math.compute";
  m.slotCount = 1;
  m.slots[0].name = "expression";
  std::snprintf(m.slots[0].value.text, sizeof m.slots[0].value.text, "5 / 0");
  m.slots[0].value.length = 5;
  EXPECT_EQ(handlers_->handle(m, "", device_).speech, "I can't divide by zero.");
}

namespace {
class FakeWeather final : public si::WeatherSource {
 public:
  std::optional<std::string> cachedForecast(const si::WeatherRequest& r) override {
    last = r;
    if (r.key == "weather|2026-11-22|paris") return std::string("Tomorrow in Paris: light rain, nine degrees.");
    return std::nullopt;
  }
  si::WeatherRequest last;
};
}  // namespace

TEST_F(HandlerTest, WeatherFromCacheOrEscalate) {
  si::HandlerOutcome o = say("what's the weather in paris tomorrow");
  EXPECT_EQ(o.status, Status::escalate);  // no source injected
  EXPECT_EQ(o.reason, "weather.query: no cached forecast for weather|2026-11-22|paris");
  EXPECT_FALSE(o.fallback.empty());
  FakeWeather fake;
  weather_ = &fake;
  restart();
  o = say("what's the weather in paris tomorrow");
  EXPECT_EQ(o.status, Status::answered);
  EXPECT_EQ(o.speech, "Tomorrow in Paris: light rain, nine degrees.");
  o = say("will it rain on tuesday");
  EXPECT_EQ(o.status, Status::escalate);
  EXPECT_EQ(fake.last.date, "2026-11-24");
  EXPECT_EQ(fake.last.place, "");
  say("what's the weather like this weekend");
  EXPECT_EQ(fake.last.day, "weekend");
  EXPECT_EQ(fake.last.date, "2026-11-21");  // Saturday: the weekend is today
  device_.offline = true;
  o = say("what is the weather");
  EXPECT_EQ(o.status, Status::answered);
  EXPECT_EQ(o.speech, "I can't check the weather while offline mode is on.");
  handlers_.reset();
}

TEST_F(HandlerTest, OpenRequestsAreNotHandled) {
  si::HandlerOutcome o = say("tell me a story about a dragon");
  EXPECT_EQ(o.status, Status::notHandled);
  EXPECT_EQ(o.reason, "no intent");
  EXPECT_EQ(say("what time does the sun set").status, Status::notHandled);
}
