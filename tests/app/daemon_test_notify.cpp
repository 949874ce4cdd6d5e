// SPDX-License-Identifier: MIT
// sottod under a test NOTIFY_SOCKET: READY/STATUS/STOPPING, health-gated watchdog pings, degradation.
#include <gtest/gtest.h>

#include <chrono>

#include "child.h"

using namespace std::chrono_literals;
using sotto::test::DaemonChild;
using sotto::test::scaled;
using sotto::test::slowFactor;

TEST(DaemonNotify, ReadyStatusThenCleanStopOnSigterm) {
  DaemonChild d;
  d.start(d.baseArgs());
  std::string ready = d.waitFor("READY=1", sotto::test::readyTimeout());
  ASSERT_FALSE(ready.empty()) << d.stderrText();
  EXPECT_NE(ready.find("STATUS=listening on null:default 16000 Hz"), std::string::npos) << ready;
  EXPECT_NE(ready.find("privacy private"), std::string::npos) << ready;
  EXPECT_EQ(ready.find("DEGRADED"), std::string::npos) << ready;
  // Live status: the frame counter moves.
  std::string status = d.waitFor("frames", scaled(3000ms));
  EXPECT_FALSE(status.empty());
  d.signal(SIGTERM);
  EXPECT_FALSE(d.waitFor("STOPPING=1", scaled(3000ms)).empty());
  EXPECT_EQ(d.wait(scaled(5000ms)), 0) << d.stderrText();
  EXPECT_NE(d.stderrText().find("stopped cleanly"), std::string::npos);
}

TEST(DaemonNotify, SigintAlsoStopsCleanly) {
  DaemonChild d;
  d.start(d.baseArgs());
  ASSERT_FALSE(d.waitFor("READY=1", sotto::test::readyTimeout()).empty()) << d.stderrText();
  d.signal(SIGINT);
  EXPECT_EQ(d.wait(scaled(5000ms)), 0) << d.stderrText();
}

TEST(DaemonNotify, WatchdogPingsWhileHealthy) {
  DaemonChild d;
  d.start(d.baseArgs(), 200000 * static_cast<uint64_t>(slowFactor()));  // WatchdogSec=0.2 s
  ASSERT_FALSE(d.waitFor("READY=1", sotto::test::readyTimeout()).empty()) << d.stderrText();
  // systemd needs one ping per 200 ms; the daemon pings at twice that rate.
  int pings = d.count("WATCHDOG=1", scaled(1000ms));
  EXPECT_GE(pings, 5) << d.stderrText();
  d.signal(SIGTERM);
  EXPECT_EQ(d.wait(scaled(5000ms)), 0);
}

class DaemonHungStage : public testing::TestWithParam<const char*> {};

TEST_P(DaemonHungStage, StopsWatchdogPings) {
  const std::string stage = GetParam();
  DaemonChild d;
  auto args = d.baseArgs();
  const int f = slowFactor();
  args.insert(args.end(), {"--set", "watchdog.stall-ms=" + std::to_string(300 * f), "--fault",
                           "stall:" + stage + ":" + std::to_string(600 * f)});
  d.start(args, 200000 * static_cast<uint64_t>(f));
  ASSERT_FALSE(d.waitFor("READY=1", sotto::test::readyTimeout()).empty()) << d.stderrText();
  EXPECT_GE(d.count("WATCHDOG=1", scaled(400ms)), 2);  // healthy before the fault
  std::string stalled = d.waitFor("STALLED", scaled(3000ms));
  ASSERT_FALSE(stalled.empty()) << d.stderrText();
  EXPECT_NE(stalled.find("stage " + stage), std::string::npos) << stalled;
  // systemd would now kill and restart us: no more pings at all (five ping intervals without one).
  EXPECT_EQ(d.count("WATCHDOG=1", scaled(500ms)), 0);
  EXPECT_NE(d.stderrText().find("stage '" + stage + "' made no progress"), std::string::npos) << d.stderrText();
  // Even with a hung stage, SIGTERM stops the daemon cleanly.
  d.signal(SIGTERM);
  EXPECT_EQ(d.wait(scaled(5000ms)), 0) << d.stderrText();
}

INSTANTIATE_TEST_SUITE_P(Stages, DaemonHungStage, testing::Values("audio", "speech", "tts"));

TEST(DaemonNotify, MissingDeviceDegradesInsteadOfFailing) {
  DaemonChild d;
  auto args = d.baseArgs();
  args.insert(args.end(), {"--set", "audio.capture.device=hw:7,0"});
  d.start(args);
  std::string ready = d.waitFor("READY=1", sotto::test::readyTimeout());
  ASSERT_FALSE(ready.empty()) << d.stderrText();
  EXPECT_NE(ready.find("not listening (no microphone)"), std::string::npos) << ready;
  EXPECT_NE(ready.find("DEGRADED"), std::string::npos) << ready;
  EXPECT_NE(ready.find("'hw:7,0'"), std::string::npos) << ready;  // names the device
  EXPECT_NE(d.stderrText().find("capture device unavailable"), std::string::npos);
  d.signal(SIGTERM);
  EXPECT_EQ(d.wait(scaled(5000ms)), 0);
}

TEST(DaemonNotify, UnwritableStateDirectoryDegrades) {
  DaemonChild d;
  auto args = d.baseArgs();
  for (auto& a : args) {
    if (a.rfind("paths.state-dir=", 0) == 0) a = "paths.state-dir=/proc/sotto-cannot-exist";
  }
  d.start(args);
  std::string ready = d.waitFor("READY=1", sotto::test::readyTimeout());
  ASSERT_FALSE(ready.empty()) << d.stderrText();
  EXPECT_NE(ready.find("state directory unavailable"), std::string::npos) << ready;
  d.signal(SIGTERM);
  EXPECT_EQ(d.wait(scaled(5000ms)), 0);
}

TEST(DaemonNotify, InvalidConfigurationRefusesToStart) {
  DaemonChild d;
  std::string bad = d.dir() + "/bad.xml";
  FILE* f = std::fopen(bad.c_str(), "w");
  std::fputs("<sotto version=\"1\">\n  <log level=\"loud\"/>\n</sotto>\n", f);
  std::fclose(f);
  d.start({"--config", bad});
  EXPECT_EQ(d.wait(scaled(5000ms)), 2);
  EXPECT_NE(d.stderrText().find(bad + ":2: log.level:"), std::string::npos) << d.stderrText();
  EXPECT_TRUE(d.receive(100ms).empty());  // never said READY
}
