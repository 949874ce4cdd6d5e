// SPDX-License-Identifier: MIT
// CPU feature detection, Result<T>, and the log sink selection.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

#include "sotto/hal/cpu.h"
#include "sotto/hal/log.h"
#include "sotto/hal/result.h"

TEST(Cpu, ReportsBuildArchitectureAndFeatures) {
  std::string arch = sotto::hal::targetArch();
#if defined(__x86_64__)
  EXPECT_EQ(arch, "x86_64");
  EXPECT_TRUE(sotto::hal::cpuFeatures().sse42);  // x86-64-v2 is our floor; every machine here has it
#elif defined(__aarch64__)
  EXPECT_EQ(arch, "aarch64");
  EXPECT_TRUE(sotto::hal::cpuFeatures().neon);  // mandatory in ARMv8-A
#endif
  EXPECT_FALSE(sotto::hal::cpuFeatureString().empty());
  EXPECT_FALSE(sotto::hal::cpuModelName().empty());
}

TEST(Result, CarriesValueOrError) {
  sotto::Result<int> ok = 42;
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(*ok, 42);
  sotto::Result<int> bad = sotto::makeError(sotto::Errc::corrupt, "bad block");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().code, sotto::Errc::corrupt);
  EXPECT_EQ(bad.error().message, "bad block");
  EXPECT_STREQ(sotto::errcName(sotto::Errc::corrupt), "corrupt data");
  sotto::Status s;
  EXPECT_TRUE(s.ok());
  sotto::Status f = sotto::makeError(sotto::Errc::io, "disk full");
  EXPECT_FALSE(f.ok());
}

TEST(Log, LevelsParseAndFilter) {
  sotto::log::Level l{};
  EXPECT_TRUE(sotto::log::parseLevel("debug", l));
  EXPECT_EQ(l, sotto::log::Level::debug);
  EXPECT_FALSE(sotto::log::parseLevel("verbose", l));
  ::unsetenv("JOURNAL_STREAM");
  sotto::log::init(sotto::log::Level::warning);
  EXPECT_FALSE(sotto::log::toJournal());
  testing::internal::CaptureStderr();
  SOTTO_LOG_INFO("test", "hidden", "not shown %d", 1);
  SOTTO_LOG_WARN("test", "shown", "shown %d", 2);
  std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(err, "warning test[shown]: shown 2\n");
}

TEST(Log, JournalStreamMustMatchStderr) {
  // A stale JOURNAL_STREAM (inherited from a parent whose stderr was the journal) must not divert our logs.
  ::setenv("JOURNAL_STREAM", "1:1", 1);
  sotto::log::init(sotto::log::Level::info);
  EXPECT_FALSE(sotto::log::toJournal());
  ::unsetenv("JOURNAL_STREAM");
}

TEST(Log, JournalUnreachableFallsBackToStderr) {
  // Make JOURNAL_STREAM describe our real stderr, as systemd would: the journal sink is chosen. Where no journald
  // listens (this test machine, early boot), the record must still come out on stderr, not vanish.
  struct stat st {};
  ASSERT_EQ(fstat(2, &st), 0);
  std::string stream = std::to_string(st.st_dev) + ":" + std::to_string(st.st_ino);
  ::setenv("JOURNAL_STREAM", stream.c_str(), 1);
  sotto::log::init(sotto::log::Level::info);
  bool journal = sotto::log::toJournal();
  ::unsetenv("JOURNAL_STREAM");
  EXPECT_TRUE(journal);
  if (access("/run/systemd/journal/socket", W_OK) == 0) GTEST_SKIP() << "a journald is listening here";
  testing::internal::CaptureStderr();
  SOTTO_LOG_ERROR("test", "fallback", "kept %s", "anyway");
  std::string err = testing::internal::GetCapturedStderr();
  sotto::log::init(sotto::log::Level::info, sotto::log::Sink::stderr_);
  EXPECT_EQ(err, "error test[fallback]: kept anyway\n");
}
