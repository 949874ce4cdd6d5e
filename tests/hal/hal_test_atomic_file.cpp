// SPDX-License-Identifier: MIT
// writeFileAtomic / readFile / setAside: replacement is all-or-nothing, errors are typed and name the file. FileLock:
// one holder across processes, released when the holder dies; removeLeftoverTemps takes only writeFileAtomic's.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>

#include <filesystem>
#include <string>
#include <vector>

#include "sotto/hal/atomic_file.h"

namespace sotto::hal {
namespace {

class AtomicFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("sotto-atomic-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string path(const char* name) const { return (dir_ / name).string(); }
  std::filesystem::path dir_;
};

TEST_F(AtomicFile, WritesPartsBackToBackWithTheMode) {
  const std::vector<uint8_t> a{1, 2, 3}, b{}, c{4, 5};
  const std::span<const uint8_t> parts[] = {a, b, c};
  ASSERT_TRUE(writeFileAtomic(path("f"), parts, 0640).ok());
  auto got = readFile(path("f"), 100);
  ASSERT_TRUE(got.ok());
  EXPECT_EQ(*got, (std::vector<uint8_t>{1, 2, 3, 4, 5}));
  struct stat st {};
  ASSERT_EQ(::stat(path("f").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0640u);
  // Replacing leaves no temporary files behind.
  ASSERT_TRUE(writeFileAtomic(path("f"), std::vector<uint8_t>{9}, 0600).ok());
  EXPECT_EQ(*readFile(path("f"), 100), std::vector<uint8_t>{9});
  size_t files = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir_)) ++files;
  EXPECT_EQ(files, 1u);
}

TEST_F(AtomicFile, FailedWriteLeavesTheOldFileAndNoTemporary) {
  ASSERT_TRUE(writeFileAtomic(path("f"), std::vector<uint8_t>{7}, 0600).ok());
  // A directory in the way of the rename: the write fails after the temporary file was written.
  std::filesystem::create_directories(dir_ / "d" / "x");
  auto st = writeFileAtomic(path("d"), std::vector<uint8_t>{1}, 0600);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.error().message.find("cannot rename"), std::string::npos) << st.error().message;
  size_t files = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir_)) ++files;
  EXPECT_EQ(files, 2u);  // f and d only
  EXPECT_EQ(*readFile(path("f"), 100), std::vector<uint8_t>{7});
  // A parent that is not a directory.
  auto st2 = writeFileAtomic(path("f") + "/g", std::vector<uint8_t>{1}, 0600);
  ASSERT_FALSE(st2.ok());
  EXPECT_NE(st2.error().message.find("cannot create a temporary file"), std::string::npos);
}

TEST_F(AtomicFile, ReadErrorsAreTyped) {
  auto missing = readFile(path("nope"), 10);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().code, Errc::not_found);
  EXPECT_NE(missing.error().message.find("nope"), std::string::npos);
  ASSERT_TRUE(writeFileAtomic(path("big"), std::vector<uint8_t>(11, 0), 0600).ok());
  auto big = readFile(path("big"), 10);
  ASSERT_FALSE(big.ok());
  EXPECT_EQ(big.error().code, Errc::corrupt);
  auto dir = readFile(dir_.string(), 10);
  ASSERT_FALSE(dir.ok());
  EXPECT_EQ(dir.error().code, Errc::corrupt);
}

TEST_F(AtomicFile, SetAsideMovesTheFileOutOfTheWay) {
  ASSERT_TRUE(writeFileAtomic(path("state"), std::vector<uint8_t>{1}, 0600).ok());
  auto moved = setAside(path("state"));
  ASSERT_TRUE(moved.ok());
  EXPECT_FALSE(std::filesystem::exists(path("state")));
  EXPECT_TRUE(std::filesystem::exists(*moved));
  EXPECT_EQ(moved->rfind(path("state") + ".bad-", 0), 0u);
  EXPECT_FALSE(setAside(path("state")).ok());
  EXPECT_EQ(directoryOf("/a/b"), "/a");
  EXPECT_EQ(directoryOf("b"), ".");
  EXPECT_EQ(directoryOf("/b"), "/");
}

// A full disk is remembered for the daemon's STATUS line until a write in that directory succeeds again; the
// injected fault (sottod --fault enospc:MS) fails like the real one, before touching the disk.
TEST_F(AtomicFile, AFullDiskIsRememberedUntilAWriteThereSucceeds) {
  ASSERT_TRUE(writeFileAtomic(path("state"), std::vector<uint8_t>{1}, 0600).ok());
  EXPECT_FALSE(diskFull());
  injectWriteFailure(ENOSPC);
  Status failed = writeFileAtomic(path("state"), std::vector<uint8_t>{2}, 0600);
  injectWriteFailure(0);
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.error().code, Errc::io);
  EXPECT_NE(failed.error().message.find("No space left on device"), std::string::npos) << failed.error().message;
  EXPECT_EQ(*readFile(path("state"), 10), std::vector<uint8_t>{1});  // untouched
  auto full = diskFull();
  ASSERT_TRUE(full);
  EXPECT_EQ(full->path, path("state"));
  EXPECT_EQ(full->error, ENOSPC);
  // Other failures and successes on other file systems do not clear it; a success on that file system does.
  noteWriteResult("/proc/self/file", 0);
  noteWriteResult(path("other"), EACCES);
  EXPECT_TRUE(diskFull());
  noteWriteResult("/elsewhere/file", EDQUOT);
  EXPECT_EQ(diskFull()->path, "/elsewhere/file");
  noteWriteResult("/elsewhere/other", 0);  // the same (missing) directory
  EXPECT_FALSE(diskFull());
  injectWriteFailure(ENOSPC);
  EXPECT_FALSE(writeFileAtomic(path("state"), std::vector<uint8_t>{3}, 0600).ok());
  injectWriteFailure(0);
  EXPECT_TRUE(diskFull());
  ASSERT_TRUE(writeFileAtomic(path("state"), std::vector<uint8_t>{4}, 0600).ok());
  EXPECT_FALSE(diskFull());
}

// Whether another process can take the lock now (a child that tries without waiting).
bool anotherProcessCanLock(const std::string& lockFile) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    const int fd = ::open(lockFile.c_str(), O_RDWR | O_CLOEXEC);
    _exit(fd >= 0 && ::flock(fd, LOCK_EX | LOCK_NB) == 0 ? 0 : 1);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

TEST_F(AtomicFile, FileLockIsHeldAgainstOtherProcessesUntilReleasedOrItsHolderDies) {
  const std::string state = path("state");
  {
    auto lock = FileLock::exclusive(state);
    ASSERT_TRUE(lock.ok()) << lock.error().message;
    EXPECT_TRUE(std::filesystem::exists(state + ".lock"));
    EXPECT_FALSE(std::filesystem::exists(state)) << "the state file itself is not touched";
    EXPECT_FALSE(anotherProcessCanLock(state + ".lock"));
    FileLock moved = std::move(*lock);
    EXPECT_FALSE(anotherProcessCanLock(state + ".lock"));
  }
  EXPECT_TRUE(anotherProcessCanLock(state + ".lock"));
  // A holder that dies without letting go (killed mid-write) does not keep it.
  const pid_t holder = ::fork();
  if (holder == 0) {
    auto l = FileLock::exclusive(state);
    _exit(l.ok() ? 0 : 1);  // exits holding it
  }
  int status = 0;
  ::waitpid(holder, &status, 0);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  auto again = FileLock::exclusive(state);
  EXPECT_TRUE(again.ok());
  // A directory that does not exist: a clear error naming the lock file.
  auto missing = FileLock::exclusive(path("no-such-dir/state"));
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find("no-such-dir/state.lock"), std::string::npos) << missing.error().message;
}

TEST_F(AtomicFile, LeftoverTempsAreOnlyWriteFileAtomicsOwn) {
  const std::string state = path("reminders.state");
  for (const char* name : {"reminders.state.tmp-AbC123", "reminders.state.tmp-xyz", "reminders.state.lock",
                           "reminders.state.tmp-AbC1234", "other.tmp-AbC123", "reminders.state"}) {
    std::ofstream(path(name)) << "x";
  }
  const TempCleanup c = removeLeftoverTemps(state);
  ASSERT_EQ(c.removed.size(), 1u);
  EXPECT_EQ(c.removed[0], path("reminders.state.tmp-AbC123"));
  EXPECT_TRUE(c.problems.empty());
  EXPECT_FALSE(std::filesystem::exists(path("reminders.state.tmp-AbC123")));
  for (const char* kept : {"reminders.state.tmp-xyz", "reminders.state.lock", "reminders.state.tmp-AbC1234",
                           "other.tmp-AbC123", "reminders.state"}) {
    EXPECT_TRUE(std::filesystem::exists(path(kept))) << kept;
  }
}

}  // namespace
}  // namespace sotto::hal
