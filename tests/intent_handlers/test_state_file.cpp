// SPDX-License-Identifier: MIT
// The reminders state file: round trip, atomic write, and every way a power cut or bad disk can leave it.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdio>

#include "engine/intents/state_file.h"
#include "tests/intent_handlers/temp_dir.h"

namespace si = sotto::intents;
using sotto::test::TempDir;

namespace {

constexpr std::int64_t kNow = 1763739730000;  // 2025-11-21T15:42:10Z

si::ReminderState sample() {
  si::ReminderState s;
  s.nextId = 9;
  s.timers.push_back({3, "pasta", 300000, kNow + 240000});
  s.timers.push_back({4, "", 60000, kNow + 30000});
  s.timers.push_back({7, "sweet potato", 1800000, kNow + 1700000});
  s.alarms.push_back({5, 7, 30, kNow + 50000000});
  s.alarms.push_back({8, 23, 59, kNow + 30000000});
  return s;
}

si::ReminderState sorted(si::ReminderState s) {
  std::sort(s.timers.begin(), s.timers.end(), [](auto& a, auto& b) { return a.deadlineMs < b.deadlineMs; });
  std::sort(s.alarms.begin(), s.alarms.end(), [](auto& a, auto& b) { return a.deadlineMs < b.deadlineMs; });
  return s;
}

}  // namespace

TEST(StateFile, Crc32KnownValue) { EXPECT_EQ(si::crc32("123456789"), 0xCBF43926u); }

TEST(StateFile, EncodeDecodeRoundTrip) {
  const si::ReminderState s = sample();
  const std::string bytes = si::encodeReminderState(s);
  EXPECT_EQ(bytes.rfind("sotto-reminders 1\nnext-id 9\n", 0), 0u) << bytes;
  EXPECT_NE(bytes.find(" sweet%20potato\n"), std::string::npos) << bytes;
  auto d = si::decodeReminderState(bytes);
  ASSERT_TRUE(d.ok()) << d.error().message;
  EXPECT_EQ(*d, sorted(s));
  // Empty state too.
  auto e = si::decodeReminderState(si::encodeReminderState({}));
  ASSERT_TRUE(e.ok()) << e.error().message;
  EXPECT_TRUE(e->timers.empty());
}

TEST(StateFile, FuzzSeedsWrittenByAnotherEncoderDecode) {
  // tests/fuzz/corpus/reminders was written by a Python script (zlib's CRC-32): the format is what the comment says.
  const std::string dir = std::string(SOTTO_SOURCE_DIR) + "/tests/fuzz/corpus/reminders/";
  auto both = si::decodeReminderState(sotto::test::readFile(dir + "both"));
  ASSERT_TRUE(both.ok()) << both.error().message;
  EXPECT_EQ(both->nextId, 12u);
  ASSERT_EQ(both->timers.size(), 1u);
  EXPECT_EQ(both->timers[0], (si::Timer{10, "tea", 90000, 1763739820000}));
  ASSERT_EQ(both->alarms.size(), 1u);
  EXPECT_EQ(both->alarms[0], (si::Alarm{11, 6, 45, 1763880300000}));
  auto timers = si::decodeReminderState(sotto::test::readFile(dir + "timers"));
  ASSERT_TRUE(timers.ok()) << timers.error().message;
  EXPECT_EQ(timers->timers.size(), 3u);
  EXPECT_EQ(timers->timers[2].name, "sweet potato");
  EXPECT_FALSE(si::decodeReminderState(sotto::test::readFile(dir + "truncated")).ok());
  EXPECT_FALSE(si::decodeReminderState(sotto::test::readFile(dir + "bitflip")).ok());
}

TEST(StateFile, EveryTruncationIsDetected) {
  const std::string bytes = si::encodeReminderState(sample());
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    auto d = si::decodeReminderState(std::string_view(bytes).substr(0, n));
    ASSERT_FALSE(d.ok()) << "truncated to " << n;
    EXPECT_EQ(d.error().code, sotto::Errc::corrupt);
  }
}

TEST(StateFile, EveryBitFlipIsDetected) {
  const std::string bytes = si::encodeReminderState(sample());
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    for (int bit = 0; bit < 8; ++bit) {
      std::string b = bytes;
      b[i] = static_cast<char>(b[i] ^ (1 << bit));
      auto d = si::decodeReminderState(b);
      ASSERT_FALSE(d.ok()) << "byte " << i << " bit " << bit;
    }
  }
}

TEST(StateFile, GarbageAndNewerVersions) {
  EXPECT_FALSE(si::decodeReminderState("").ok());
  EXPECT_FALSE(si::decodeReminderState(std::string(5000, '\0')).ok());
  EXPECT_FALSE(si::decodeReminderState("hello world\n").ok());
  EXPECT_FALSE(si::decodeReminderState(std::string(si::kMaxReminderStateBytes + 10, '\n')).ok());
  // A well-formed file from a future version is refused as unsupported, not misread.
  std::string body = "sotto-reminders 2\nnext-id 1\n";
  char end[40];
  std::snprintf(end, sizeof end, "end 0 %08x\n", si::crc32(body));
  auto d = si::decodeReminderState(body + end);
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.error().code, sotto::Errc::unsupported);
  // A valid checksum over invalid records (hand-edited file) is still refused.
  body = "sotto-reminders 1\nnext-id 3\ntimer 5 1000 " + std::to_string(kNow) + " tea\n";
  std::snprintf(end, sizeof end, "end 1 %08x\n", si::crc32(body));
  EXPECT_FALSE(si::decodeReminderState(body + end).ok());  // id beyond next-id
}

TEST(StateFile, AtomicWriteAndLoad) {
  TempDir dir;
  const std::string sub = dir.file("state");  // created on first save
  ASSERT_TRUE(si::writeFileAtomic(sub, si::kReminderStateFile, si::encodeReminderState(sample())).ok());
  EXPECT_EQ(sotto::test::listDir(sub), "reminders.state");  // no temp file left behind
  struct stat st{};
  ASSERT_EQ(::stat(sub.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0700u);
  si::StateLoad l = si::loadReminderStateFile(sub, kNow);
  EXPECT_FALSE(l.corrupt);
  EXPECT_TRUE(l.warnings.empty());
  EXPECT_EQ(l.state, sorted(sample()));
}

TEST(StateFile, MissingFileIsEmptyWithoutWarning) {
  TempDir dir;
  si::StateLoad l = si::loadReminderStateFile(dir.path(), kNow);
  EXPECT_FALSE(l.corrupt);
  EXPECT_TRUE(l.warnings.empty());
  EXPECT_TRUE(l.state.timers.empty());
}

TEST(StateFile, PowerCutLeavesTempFileBehind) {
  TempDir dir;
  ASSERT_TRUE(si::writeFileAtomic(dir.path(), si::kReminderStateFile, si::encodeReminderState(sample())).ok());
  // A save interrupted before its rename: half a new file under a temp name.
  const std::string next = si::encodeReminderState({});
  sotto::test::writeFile(dir.file("reminders.state.tmp-AbC123"), next.substr(0, next.size() / 2));
  si::StateLoad l = si::loadReminderStateFile(dir.path(), kNow);
  EXPECT_FALSE(l.corrupt);
  EXPECT_EQ(l.state, sorted(sample()));  // the last complete state
  ASSERT_EQ(l.warnings.size(), 1u);
  EXPECT_NE(l.warnings[0].find("interrupted save"), std::string::npos) << l.warnings[0];
  EXPECT_EQ(sotto::test::listDir(dir.path()), "reminders.state reminders.state.lock");
}

TEST(StateFile, CorruptFilesAreSetAsideAndReported) {
  const std::string good = si::encodeReminderState(sample());
  std::string flipped = good;
  flipped[good.size() / 2] = static_cast<char>(flipped[good.size() / 2] ^ 0x04);
  const std::string cases[] = {good.substr(0, good.size() - 7), "\x7f" "ELF garbage\x01\x02", flipped, std::string()};
  for (const std::string& bytes : cases) {
    TempDir dir;
    sotto::test::writeFile(dir.file(si::kReminderStateFile), bytes);
    si::StateLoad l = si::loadReminderStateFile(dir.path(), kNow);
    EXPECT_TRUE(l.corrupt);
    EXPECT_TRUE(l.state.timers.empty());
    ASSERT_EQ(l.warnings.size(), 1u);
    EXPECT_NE(l.warnings[0].find("set aside as"), std::string::npos) << l.warnings[0];
    EXPECT_EQ(l.setAsidePath, dir.file("reminders.state.corrupt-20251121T154210Z"));
    EXPECT_EQ(sotto::test::readFile(l.setAsidePath), bytes);  // kept for inspection, unchanged
    EXPECT_FALSE(sotto::test::fileExists(dir.file(si::kReminderStateFile)));
    // A second corrupt file in the same second gets its own name.
    sotto::test::writeFile(dir.file(si::kReminderStateFile), "junk\n");
    si::StateLoad l2 = si::loadReminderStateFile(dir.path(), kNow);
    EXPECT_EQ(l2.setAsidePath, dir.file("reminders.state.corrupt-20251121T154210Z-1"));
  }
}

TEST(StateFile, UnwritableDirectoryIsAClearError) {
  TempDir dir;
  // A regular file where the directory should be: fails for root too (permission bits would not).
  sotto::test::writeFile(dir.file("notadir"), "x");
  sotto::Status s = si::writeFileAtomic(dir.file("notadir"), si::kReminderStateFile, "data\n");
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().message.find("not a directory"), std::string::npos) << s.error().message;
  sotto::Status s2 = si::writeFileAtomic(dir.file("notadir/sub"), si::kReminderStateFile, "data\n");
  ASSERT_FALSE(s2.ok());
  EXPECT_NE(s2.error().message.find("cannot create state directory"), std::string::npos) << s2.error().message;
  if (::geteuid() != 0) {  // permission bits only bind non-root users
    const std::string ro = dir.file("ro");
    ASSERT_EQ(::mkdir(ro.c_str(), 0500), 0);
    sotto::Status s3 = si::writeFileAtomic(ro, si::kReminderStateFile, "data\n");
    ASSERT_FALSE(s3.ok());
    EXPECT_NE(s3.error().message.find("Permission denied"), std::string::npos) << s3.error().message;
  }
}

TEST(StateFile, FullDiskKeepsTheOldFile) {
  TempDir dir;
  const std::string old = si::encodeReminderState(sample());
  ASSERT_TRUE(si::writeFileAtomic(dir.path(), si::kReminderStateFile, old).ok());
  // The file-size limit makes write() fail part-way like a full disk would (EFBIG instead of ENOSPC).
  rlimit saved{};
  ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &saved), 0);
  auto* previous = std::signal(SIGXFSZ, SIG_IGN);
  rlimit tiny = saved;
  tiny.rlim_cur = 64;
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &tiny), 0);
  sotto::Status s = si::writeFileAtomic(dir.path(), si::kReminderStateFile, std::string(4096, 'x'));
  ::setrlimit(RLIMIT_FSIZE, &saved);
  std::signal(SIGXFSZ, previous);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().message.find("cannot write"), std::string::npos) << s.error().message;
  EXPECT_EQ(sotto::test::readFile(dir.file(si::kReminderStateFile)), old);  // untouched
  EXPECT_EQ(sotto::test::listDir(dir.path()), "reminders.state");           // temp file removed
}
