// SPDX-License-Identifier: MIT
// Timers and alarms end to end: several named timers, cancel by name / all, alarms across midnight and weekdays,
// firing, restart persistence, expired-while-off reports, corrupt state at start-up, unwritable state directory.
#include <gtest/gtest.h>

#include <algorithm>

#include "tests/intent_handlers/handler_fixture.h"

namespace si = sotto::intents;
using sotto::test::HandlerTest;
using sotto::test::kSaturday1542;
using sotto::test::utcMs;

using TimerTest = HandlerTest;

TEST_F(TimerTest, EndToEndFromTheUtterance) {
  si::HandlerOutcome o = say("set a timer for five minutes");
  EXPECT_EQ(lastIntent(), "timer.set");
  EXPECT_EQ(o.status, si::HandlerOutcome::Status::answered);
  EXPECT_EQ(o.speech, "Timer set for five minutes.");
  EXPECT_TRUE(o.warning.empty());
  ASSERT_EQ(handlers_->reminders().timers.size(), 1u);
  EXPECT_EQ(handlers_->reminders().timers[0].deadlineMs, kSaturday1542 + 300000);
  EXPECT_EQ(handlers_->nextDeadlineMs(), kSaturday1542 + 300000);
}

TEST_F(TimerTest, SeveralNamedTimers) {
  EXPECT_EQ(speak("set a pasta timer for four minutes"), "Pasta timer set for four minutes.");
  EXPECT_EQ(speak("set a timer for thirty seconds for the tea"), "Tea timer set for thirty seconds.");
  EXPECT_EQ(speak("set a timer for an hour and a half"), "Timer set for one hour and thirty minutes.");
  EXPECT_EQ(speak("how much time is left"),
            "You have three timers: tea, thirty seconds left; pasta, four minutes left; "
            "a timer for one hour and thirty minutes, one hour and thirty minutes left.");
  clock_.advance(10000);
  EXPECT_EQ(speak("how much time is left on the pasta timer"), "Your pasta timer has three minutes and fifty seconds left.");
  EXPECT_EQ(speak("how long is left on the tea timer"), "Your tea timer has twenty seconds left.");
  // The same name again restarts that timer instead of adding a second one.
  EXPECT_EQ(speak("set a pasta timer for ten minutes"), "I've restarted your pasta timer for ten minutes.");
  EXPECT_EQ(handlers_->reminders().timers.size(), 3u);
  // A name one letter from "timer" is not found in every query that says "timer".
  EXPECT_EQ(speak("set a tiger timer for two minutes"), "Tiger timer set for two minutes.");
  EXPECT_EQ(speak("how long is left on the pasta timer"), "Your pasta timer has ten minutes left.");
}

TEST_F(TimerTest, CancelByNameAndAll) {
  say("set a pasta timer for four minutes");
  say("set a tea timer for two minutes");
  say("set a timer for five minutes");
  EXPECT_EQ(speak("cancel the egg timer"), "You don't have an egg timer.");
  EXPECT_EQ(speak("cancel the pasta timer"), "Pasta timer cancelled.");
  // Two left and no name: ask instead of guessing.
  si::HandlerOutcome o = say("cancel the timer");
  EXPECT_EQ(o.speech, "You have two timers: tea and the five minute timer. Which one should I cancel?");
  EXPECT_EQ(handlers_->reminders().timers.size(), 2u);
  EXPECT_EQ(speak("cancel all timers"), "Both timers cancelled.");
  EXPECT_TRUE(handlers_->reminders().timers.empty());
  EXPECT_EQ(speak("cancel the timer"), "You don't have any timers.");
  EXPECT_EQ(speak("how much time is left"), "You don't have any timers.");
  say("set a timer for five minutes");
  EXPECT_EQ(speak("stop the timer"), "Five minute timer cancelled.");
  EXPECT_FALSE(handlers_->nextDeadlineMs().has_value());
}

TEST_F(TimerTest, RingingTimerIsSilencedByCancel) {
  device_.ringing = true;
  si::HandlerOutcome o = say("cancel the timer");
  EXPECT_EQ(o.effect.kind, si::EffectKind::stop);
  EXPECT_EQ(o.speech, "");
}

TEST_F(TimerTest, FireDueInDeadlineOrder) {
  say("set a pasta timer for four minutes");
  say("set a tea timer for thirty seconds");
  say("set an alarm for three forty five pm");  // 15:45, three minutes away
  EXPECT_TRUE(handlers_->fireDue().empty());
  EXPECT_EQ(handlers_->nextDeadlineMs(), kSaturday1542 + 30000);
  clock_.advance(29999);
  EXPECT_TRUE(handlers_->fireDue().empty());
  clock_.advance(1);
  auto fired = handlers_->fireDue();
  ASSERT_EQ(fired.size(), 1u);
  EXPECT_EQ(fired[0].speech, "Your tea timer is done.");
  EXPECT_EQ(fired[0].effect.kind, si::EffectKind::ring);
  EXPECT_EQ(speak("repeat"), "Your tea timer is done.");
  clock_.advance(10 * 60000);  // both the alarm and the pasta timer are due
  fired = handlers_->fireDue();
  ASSERT_EQ(fired.size(), 2u);
  EXPECT_EQ(fired[0].kind, si::Announcement::Kind::alarmDue);
  EXPECT_EQ(fired[0].speech, "It's three forty-five PM. This is your alarm.");
  EXPECT_EQ(fired[1].speech, "Your pasta timer is done.");
  EXPECT_FALSE(handlers_->nextDeadlineMs().has_value());
  restart();  // fired ones were removed from the saved state too
  EXPECT_TRUE(report_.announcements.empty());
  EXPECT_TRUE(handlers_->reminders().timers.empty());
}

using AlarmTest = HandlerTest;

TEST_F(AlarmTest, TimeOfDayTodayOrTomorrow) {
  EXPECT_EQ(speak("set an alarm for seven am"), "Alarm set for seven AM tomorrow.");  // 07:00 has passed today
  EXPECT_EQ(speak("wake me up at eleven pm"), "Alarm set for eleven PM today.");
  EXPECT_EQ(speak("set an alarm for seven am"), "You already have an alarm for seven AM tomorrow.");
  const auto& alarms = handlers_->reminders().alarms;
  ASSERT_EQ(alarms.size(), 2u);
  EXPECT_EQ(alarms[0].deadlineMs, utcMs(2026, 11, 21, 23, 0));
  EXPECT_EQ(alarms[1].deadlineMs, utcMs(2026, 11, 22, 7, 0));
  EXPECT_EQ(speak("what alarms do i have"), "You have two alarms: eleven PM today and seven AM tomorrow.");
}

TEST_F(AlarmTest, AcrossMidnight) {
  clock_.set(utcMs(2026, 11, 21, 23, 30));
  EXPECT_EQ(speak("set an alarm for twelve fifteen am"), "Alarm set for twelve fifteen AM tomorrow.");
  EXPECT_EQ(handlers_->nextDeadlineMs(), utcMs(2026, 11, 22, 0, 15));
  clock_.set(utcMs(2026, 11, 22, 0, 5));  // after midnight the same alarm is "today"
  EXPECT_EQ(speak("when is my alarm"), "You have one alarm, for twelve fifteen AM today.");
  clock_.set(utcMs(2026, 11, 22, 0, 15));
  auto fired = handlers_->fireDue();
  ASSERT_EQ(fired.size(), 1u);
  EXPECT_EQ(fired[0].speech, "It's twelve fifteen AM. This is your alarm.");
}

TEST_F(AlarmTest, Weekdays) {
  // Today is Saturday 15:42.
  EXPECT_EQ(speak("set an alarm for monday at six forty five am"), "Alarm set for six forty-five AM on Monday.");
  EXPECT_EQ(handlers_->reminders().alarms.back().deadlineMs, utcMs(2026, 11, 23, 6, 45));
  EXPECT_EQ(speak("set an alarm for saturday at nine am"), "Alarm set for nine AM next Saturday.");  // a week ahead
  EXPECT_EQ(handlers_->reminders().alarms.back().deadlineMs, utcMs(2026, 11, 28, 9, 0));
  EXPECT_EQ(speak("set an alarm for saturday at five pm"), "Alarm set for five PM today.");
  EXPECT_EQ(speak("wake me up tomorrow at eight"), "Alarm set for eight AM tomorrow.");
  EXPECT_EQ(speak("cancel the alarm"),
            "You have four alarms: five PM today, eight AM tomorrow, six forty-five AM on Monday and nine AM next "
            "Saturday. Which one should I cancel?");
  EXPECT_EQ(lastIntent(), "alarm.cancel");
  EXPECT_EQ(speak("cancel my six forty five am alarm"), "Your six forty-five AM alarm is cancelled.");
  EXPECT_EQ(speak("cancel the alarm for seven am"), "You don't have an alarm for seven AM.");
  EXPECT_EQ(speak("delete all my alarms"), "All three alarms cancelled.");
  EXPECT_EQ(speak("list my alarms"), "You don't have any alarms.");
}

using PersistenceTest = HandlerTest;

TEST_F(PersistenceTest, RestartKeepsTheSameState) {
  say("set a pasta timer for four minutes");
  say("set a timer for twenty minutes");
  say("set an alarm for monday at six forty five am");
  const si::ReminderState before = handlers_->reminders();
  restart();
  EXPECT_TRUE(report_.announcements.empty());
  EXPECT_TRUE(report_.warnings.empty());
  EXPECT_EQ(handlers_->reminders(), before);
  clock_.advance(60000);
  EXPECT_EQ(speak("how long is left on the pasta timer"), "Your pasta timer has three minutes left.");
  // New ids continue after the saved ones.
  say("set a tea timer for one minute");
  std::uint32_t maxId = 0;
  for (const auto& t : handlers_->reminders().timers) maxId = std::max(maxId, t.id);
  EXPECT_EQ(maxId, before.nextId);
}

TEST_F(PersistenceTest, ExpiredWhileOffIsReportedOnce) {
  say("set a pasta timer for four minutes");
  say("set a timer for five minutes");
  say("set a tea timer for an hour");
  say("set an alarm for four pm");
  handlers_.reset();                // power off
  clock_.advance(20 * 60000);       // 16:02: pasta, the five minute timer and the 4 pm alarm passed
  restart();
  ASSERT_EQ(report_.announcements.size(), 1u);
  EXPECT_EQ(report_.announcements[0].kind, si::Announcement::Kind::missedWhileOff);
  EXPECT_EQ(report_.announcements[0].speech,
            "Your pasta timer, your five minute timer and your four PM alarm all went off while I was off.");
  EXPECT_EQ(handlers_->reminders().timers.size(), 1u);
  EXPECT_EQ(speak("how much time is left"), "Your tea timer has forty minutes left.");
  restart();
  EXPECT_TRUE(report_.announcements.empty());  // reported once
  say("set a rice timer for two minutes");
  handlers_.reset();
  clock_.advance(3 * 60000);
  restart();
  ASSERT_EQ(report_.announcements.size(), 1u);
  EXPECT_EQ(report_.announcements[0].speech, "Your rice timer went off while I was off.");
}

TEST_F(PersistenceTest, CorruptStateAtStartIsSetAsideAndReported) {
  say("set a pasta timer for four minutes");
  handlers_.reset();
  const std::string path = dir_.file(si::kReminderStateFile);
  std::string bytes = sotto::test::readFile(path);
  bytes[bytes.size() / 3] ^= 0x10;  // a flipped bit on the flash
  sotto::test::writeFile(path, bytes);
  restart();
  ASSERT_EQ(report_.announcements.size(), 1u);
  EXPECT_EQ(report_.announcements[0].kind, si::Announcement::Kind::stateProblem);
  EXPECT_EQ(report_.announcements[0].speech, "I couldn't read my saved timers and alarms, so I've started fresh.");
  ASSERT_FALSE(report_.warnings.empty());
  EXPECT_NE(report_.warnings[0].find("checksum mismatch"), std::string::npos) << report_.warnings[0];
  EXPECT_TRUE(handlers_->reminders().timers.empty());
  // The lock file beside the state is the one file every writer locks (it is never replaced).
  EXPECT_EQ(sotto::test::listDir(dir_.path()),
            "reminders.state reminders.state.corrupt-20261121T154210Z reminders.state.lock");
  // The device works on, and saves a fresh, valid state.
  EXPECT_EQ(speak("set a tea timer for two minutes"), "Tea timer set for two minutes.");
  restart();
  EXPECT_TRUE(report_.announcements.empty());
  EXPECT_EQ(handlers_->reminders().timers.size(), 1u);
}

TEST_F(PersistenceTest, GarbageAndTruncatedFilesNeverCrash) {
  const std::string cases[] = {std::string("\0\0\0\0garbage", 11), "sotto-reminders 1\nnext-id 4\ntimer 1 300",
                               std::string(300000, 'z')};
  for (const std::string& bytes : cases) {
    handlers_.reset();
    sotto::test::writeFile(dir_.file(si::kReminderStateFile), bytes);
    restart();
    ASSERT_EQ(report_.announcements.size(), 1u);
    EXPECT_EQ(report_.announcements[0].kind, si::Announcement::Kind::stateProblem);
    EXPECT_TRUE(handlers_->reminders().timers.empty());
  }
}

TEST_F(PersistenceTest, UnwritableStateDirKeepsTimersInMemory) {
  sotto::test::writeFile(dir_.file("file"), "x");
  stateDir_ = dir_.file("file/state");  // under a regular file: fails for root as well
  restart();
  si::HandlerOutcome o = say("set a timer for five minutes");
  EXPECT_EQ(o.speech, "Timer set for five minutes. I couldn't save it, so it won't survive a restart.");
  EXPECT_NE(o.warning.find("not saved"), std::string::npos) << o.warning;
  EXPECT_EQ(speak("how much time is left"), "Your timer has five minutes left.");
  EXPECT_EQ(speak("cancel the timer"), "Five minute timer cancelled. I couldn't save that change, so it may come back after a restart.");
}

TEST_F(PersistenceTest, MemoryOnlyWithoutStateDir) {
  stateDir_.clear();
  restart();
  EXPECT_EQ(speak("set a timer for five minutes"), "Timer set for five minutes.");
  restart();
  EXPECT_TRUE(handlers_->reminders().timers.empty());
  // Nothing but the lock file the first start (with the state directory, in SetUp) made.
  EXPECT_EQ(sotto::test::listDir(dir_.path()), "reminders.state.lock");
}
