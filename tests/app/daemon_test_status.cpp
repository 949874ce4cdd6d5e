// SPDX-License-Identifier: MIT
// sottod's STATUS line names what a person must fix: a device key truncated to 16 bytes (cloud and cache are off
// until someone acts; before, only the journal said so) and a full disk (ENOSPC on the state directory's writes).
// It also says when calibration turned the semantic cache off for the local model, and why.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include "child.h"

using namespace std::chrono_literals;
using sotto::test::DaemonChild;
using sotto::test::scaled;

TEST(DaemonStatus, ATruncatedDeviceKeyIsNamedWithTheFix) {
  DaemonChild d;
  const std::string state = d.dir() + "/state";
  std::filesystem::create_directories(state);
  std::filesystem::permissions(state, std::filesystem::perms::owner_all);
  {
    const int fd = ::open((state + "/device.key").c_str(), O_WRONLY | O_CREAT | O_EXCL, 0600);
    ASSERT_GE(fd, 0);
    const unsigned char half[16] = {7, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
    ASSERT_EQ(::write(fd, half, sizeof half), 16);
    ::close(fd);
  }
  d.start(d.baseArgs());
  ASSERT_FALSE(d.waitFor("READY=1", sotto::test::readyTimeout()).empty()) << d.stderrText();
  // The brain is built after READY; the next STATUS lines carry what it found.
  const std::string status = d.waitFor("device key unusable", sotto::test::readyTimeout());
  ASSERT_FALSE(status.empty()) << d.stderrText();
  EXPECT_NE(status.find("has 16 bytes, not 32"), std::string::npos) << status;
  EXPECT_NE(status.find("cloud and answer cache are off"), std::string::npos) << status;
  EXPECT_NE(status.find("delete it to make a new key"), std::string::npos) << status;
  EXPECT_NE(status.find("DEGRADED"), std::string::npos) << status;
  // The key is left alone: a person decides.
  EXPECT_EQ(std::filesystem::file_size(state + "/device.key"), 16u);
  d.signal(SIGTERM);
  EXPECT_EQ(d.wait(scaled(5000ms)), 0) << d.stderrText();
}

TEST(DaemonStatus, AFullDiskIsNamed) {
  DaemonChild d;
  auto args = d.baseArgs();
  args.insert(args.end(), {"--fault", "enospc:0"});  // every state write fails with ENOSPC from the start
  d.start(args);
  ASSERT_FALSE(d.waitFor("READY=1", sotto::test::readyTimeout()).empty()) << d.stderrText();
  // The brain's first state write (the audit log's sealed head) fails: the STATUS line says so.
  const std::string status = d.waitFor("DISK FULL", sotto::test::readyTimeout());
  ASSERT_FALSE(status.empty()) << d.stderrText();
  EXPECT_NE(status.find("No space left on device"), std::string::npos) << status;
  EXPECT_NE(status.find(d.dir() + "/state/"), std::string::npos) << status;
  EXPECT_NE(status.find("free space"), std::string::npos) << status;
  EXPECT_NE(status.find("DEGRADED"), std::string::npos) << status;
  d.signal(SIGTERM);
  EXPECT_EQ(d.wait(scaled(5000ms)), 0) << d.stderrText();
}

TEST(DaemonStatus, AHealthyStateDirectoryIsNotReported) {
  DaemonChild d;
  d.start(d.baseArgs());
  ASSERT_FALSE(d.waitFor("READY=1", sotto::test::readyTimeout()).empty()) << d.stderrText();
  // Wait until the brain has been built (it creates the key), then a few STATUS lines: nothing to fix.
  const auto end = std::chrono::steady_clock::now() + sotto::test::readyTimeout();
  while (!std::filesystem::exists(d.dir() + "/state/device.key") && std::chrono::steady_clock::now() < end) {
    std::this_thread::sleep_for(20ms);
  }
  ASSERT_TRUE(std::filesystem::exists(d.dir() + "/state/device.key"));
  for (int i = 0; i < 3; ++i) {
    const std::string status = d.waitFor("STATUS=", scaled(3000ms));
    EXPECT_EQ(status.find("device key unusable"), std::string::npos) << status;
    EXPECT_EQ(status.find("DISK FULL"), std::string::npos) << status;
  }
  d.signal(SIGTERM);
  EXPECT_EQ(d.wait(scaled(5000ms)), 0) << d.stderrText();
}

// Issue 21: the story model's embeddings do not tell paraphrases from unrelated requests; calibration at start-up
// turns the semantic cache off, the log says so once and every STATUS line carries the reason.
TEST(DaemonStatus, ASemanticCacheTurnedOffByCalibrationIsNamed) {
  DaemonChild d;
  auto args = d.baseArgs();
  args.insert(args.end(),
              {"--set", "model.path=" + std::string(SOTTO_SOURCE_DIR) + "/../shared/models/stories260K-f32.gguf"});
  d.start(args);
  ASSERT_FALSE(d.waitFor("READY=1", sotto::test::readyTimeout()).empty()) << d.stderrText();
  const std::string status = d.waitFor("semantic cache off", sotto::test::readyTimeout());
  ASSERT_FALSE(status.empty()) << d.stderrText();
  EXPECT_NE(status.find("does not recognise paraphrases"), std::string::npos) << status;
  EXPECT_NE(status.find("configured 0.900"), std::string::npos) << status;
  EXPECT_NE(d.waitFor("semantic cache off", sotto::test::readyTimeout()).find("STATUS="), std::string::npos);
  d.signal(SIGTERM);
  EXPECT_EQ(d.wait(scaled(5000ms)), 0) << d.stderrText();
  EXPECT_NE(d.stderrText().find("brain[semantic-cache]"), std::string::npos) << d.stderrText();
}
