// SPDX-License-Identifier: MIT
// GgufFile::open() on things that are not models (missing, directory, empty, truncated) and a refused mlock.
#include <linux/capability.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gguf_test_util.h"

namespace sotto::llm::test {
namespace {

std::string openError(const std::string& path, Errc expectedCode) {
  Result<std::unique_ptr<GgufFile>> r = GgufFile::open(path);
  if (r.ok()) {
    ADD_FAILURE() << "opened " << path;
    return {};
  }
  EXPECT_EQ(r.error().code, expectedCode) << r.error().message;
  EXPECT_EQ(r.error().message.rfind(path + ": ", 0), 0u) << r.error().message;
  return r.error().message;
}

TEST(GgufOpen, MissingFile) {
  TempDir dir;
  const std::string m = openError(dir.file("absent.gguf"), Errc::not_found);
  EXPECT_NE(m.find("No such file"), std::string::npos) << m;
  openError(dir.file("absent-dir/model.gguf"), Errc::not_found);
}

TEST(GgufOpen, Directory) {
  TempDir dir;
  const std::string m = openError(dir.path(), Errc::invalid_argument);
  EXPECT_NE(m.find("not a regular file"), std::string::npos) << m;
}

TEST(GgufOpen, EmptyFile) {
  TempDir dir;
  writeBytes(dir.file("empty.gguf"), {});
  const std::string m = openError(dir.file("empty.gguf"), Errc::corrupt);
  EXPECT_NE(m.find("empty file"), std::string::npos) << m;
}

TEST(GgufOpen, TruncatedFileOnDisk) {
  TempDir dir;
  std::vector<uint8_t> bytes = readBytes(sharedPath("models/stories260K-q8_0.gguf"));
  ASSERT_GT(bytes.size(), 100000u);
  bytes.resize(100000);
  writeBytes(dir.file("cut.gguf"), bytes);
  const std::string m = openError(dir.file("cut.gguf"), Errc::corrupt);
  EXPECT_NE(m.find("extends past end of file (100000 bytes)"), std::string::npos) << m;
  EXPECT_NE(m.find("tensor '"), std::string::npos) << m;
}

TEST(GgufOpen, NotGguf) {
  TempDir dir;
  const std::string text = "# just a text file that happens to be named like a model\n";
  writeBytes(dir.file("text.gguf"), {reinterpret_cast<const uint8_t*>(text.data()), text.size()});
  const std::string m = openError(dir.file("text.gguf"), Errc::corrupt);
  EXPECT_NE(m.find("not a GGUF file"), std::string::npos) << m;
}

TEST(GgufOpen, WriterOutputOpens) {
  TempDir dir;
  GgufWriter w = smallModelWriter();
  ASSERT_TRUE(w.write(dir.file("small.gguf")).ok());
  Result<std::unique_ptr<GgufFile>> r = GgufFile::open(dir.file("small.gguf"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ((*r)->path(), dir.file("small.gguf"));
  EXPECT_EQ((*r)->tensors().size(), 3u);
  const std::vector<uint8_t> bytes = w.toBytes();
  ASSERT_EQ((*r)->bytes().size(), bytes.size());
  EXPECT_TRUE(std::equal(bytes.begin(), bytes.end(), (*r)->bytes().begin()));
}

// Without CAP_IPC_LOCK and with RLIMIT_MEMLOCK 0 mlock must fail; the model still opens and says why it is not
// locked. Run in a child: dropping a capability cannot be undone.
TEST(GgufOpen, FailedLockIsNotFatal) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  GTEST_SKIP() << "the sanitizer runtime replaces mlock with a no-op that always succeeds";
#endif
  const std::string path = sharedPath("models/stories260K-q8_0.gguf");
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    __user_cap_header_struct hdr{_LINUX_CAPABILITY_VERSION_3, 0};
    __user_cap_data_struct caps[2]{};
    if (::syscall(SYS_capget, &hdr, caps) != 0) ::_exit(10);
    caps[CAP_IPC_LOCK / 32].effective &= ~(1u << (CAP_IPC_LOCK % 32));
    if (::syscall(SYS_capset, &hdr, caps) != 0) ::_exit(11);
    const rlimit none{0, 0};
    if (::setrlimit(RLIMIT_MEMLOCK, &none) != 0) ::_exit(12);
    GgufOpenOptions options;
    options.lockInMemory = true;
    Result<std::unique_ptr<GgufFile>> r = GgufFile::open(path, options);
    if (!r.ok()) ::_exit(13);
    if ((*r)->locked()) ::_exit(14);
    if ((*r)->lockError().find("mlock") == std::string::npos) ::_exit(15);
    if ((*r)->tensors().size() != 48) ::_exit(16);
    ::_exit(0);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "child step failed: 10-12 setup, 13 open failed, 14 locked anyway, "
                                       "15 no reason, 16 wrong tensors";
}

}  // namespace
}  // namespace sotto::llm::test
