// SPDX-License-Identifier: MIT
// The file keystore: first-use creation (0600, 32 bytes, atomic), reload, refusals with clear errors, subkeys.
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "sotto/hal/keystore.h"
#include "tests/keystore/temp_dir.h"

namespace sotto::hal {
namespace {

using test::TempDir;

Result<std::unique_ptr<Keystore>> openAt(const std::string& dir, bool create = true) {
  return KeystoreRegistry::instance().open(KeystoreSpec{"file", dir, create});
}

std::array<uint8_t, kKeyBytes> subkey(const Keystore& ks, std::string_view purpose, uint64_t id = 1) {
  auto k = ks.deriveKey(purpose, id);
  EXPECT_TRUE(k.ok()) << (k.ok() ? "" : k.error().message);
  std::array<uint8_t, kKeyBytes> out{};
  if (k.ok()) std::copy(k->bytes().begin(), k->bytes().end(), out.begin());
  return out;
}

void writeFile(const std::string& path, std::string_view bytes, mode_t mode) {
  std::ofstream(path, std::ios::binary | std::ios::trunc)
      .write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  ASSERT_EQ(::chmod(path.c_str(), mode), 0);
}

TEST(FileKeystore, CreatesOnFirstUseAndReloadsTheSameKey) {
  TempDir dir;
  auto a = openAt(dir.path());
  ASSERT_TRUE(a.ok()) << a.error().message;
  EXPECT_TRUE((*a)->created());
  const std::string keyPath = dir.path() + "/device.key";
  struct stat st {};
  ASSERT_EQ(::stat(keyPath.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0600u);
  EXPECT_EQ(st.st_size, 32);
  EXPECT_EQ((*a)->name(), "file:" + keyPath);
  // Only the key is left: the temporary file was renamed, not copied.
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir.path()), std::filesystem::directory_iterator()), 1);

  auto b = openAt(dir.path());
  ASSERT_TRUE(b.ok()) << b.error().message;
  EXPECT_FALSE((*b)->created());
  EXPECT_EQ(subkey(**a, "cache"), subkey(**b, "cache"));
  EXPECT_EQ(subkey(**a, "audit"), subkey(**b, "audit"));
}

TEST(FileKeystore, SubkeysDependOnPurposeIdAndDevice) {
  TempDir d1, d2;
  auto a = openAt(d1.path());
  auto b = openAt(d2.path());
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_NE(subkey(**a, "cache"), subkey(**a, "audit"));
  EXPECT_NE(subkey(**a, "cache"), subkey(**a, "devid"));
  EXPECT_NE(subkey(**a, "cache", 1), subkey(**a, "cache", 2));
  EXPECT_NE(subkey(**a, "cache"), subkey(**b, "cache"));  // two devices, two random master keys
  // The subkey is not the master key itself.
  std::ifstream f(d1.path() + "/device.key", std::ios::binary);
  std::array<uint8_t, kKeyBytes> master{};
  f.read(reinterpret_cast<char*>(master.data()), master.size());
  EXPECT_NE(subkey(**a, "cache"), master);
}

TEST(FileKeystore, RejectsBadPurposes) {
  TempDir dir;
  auto ks = openAt(dir.path());
  ASSERT_TRUE(ks.ok());
  for (std::string_view bad : {"", "toolongname", "Cache", "ca che", "c/x"}) {
    auto k = (*ks)->deriveKey(bad);
    ASSERT_FALSE(k.ok()) << bad;
    EXPECT_EQ(k.error().code, Errc::invalid_argument);
  }
  EXPECT_TRUE((*ks)->deriveKey("12345678").ok());
}

TEST(FileKeystore, RefusesAKeyOthersMayRead) {
  TempDir dir;
  writeFile(dir.path() + "/device.key", std::string(32, 'k'), 0640);
  auto ks = openAt(dir.path());
  ASSERT_FALSE(ks.ok());
  EXPECT_EQ(ks.error().code, Errc::permission);
  EXPECT_NE(ks.error().message.find("mode 0640"), std::string::npos) << ks.error().message;
  EXPECT_NE(ks.error().message.find("device.key"), std::string::npos);
  // Refused, not replaced: the file is untouched.
  EXPECT_EQ(std::filesystem::file_size(dir.path() + "/device.key"), 32u);
  ::chmod((dir.path() + "/device.key").c_str(), 0604);
  EXPECT_FALSE(openAt(dir.path()).ok());
  ::chmod((dir.path() + "/device.key").c_str(), 0400);  // read-only for the owner is fine
  EXPECT_TRUE(openAt(dir.path()).ok());
}

TEST(FileKeystore, RefusesATruncatedOrOversizedKey) {
  TempDir dir;
  const std::string path = dir.path() + "/device.key";
  for (std::size_t size : {0u, 16u, 31u, 33u, 64u}) {
    writeFile(path, std::string(size, 'k'), 0600);
    auto ks = openAt(dir.path());
    ASSERT_FALSE(ks.ok()) << size;
    EXPECT_EQ(ks.error().code, Errc::corrupt);
    EXPECT_NE(ks.error().message.find(std::to_string(size) + " bytes, not 32"), std::string::npos)
        << ks.error().message;
    EXPECT_EQ(std::filesystem::file_size(path), size);  // never "repaired" into a new key
  }
}

TEST(FileKeystore, RefusesASymlinkAndADirectory) {
  TempDir dir;
  writeFile(dir.path() + "/real.key", std::string(32, 'k'), 0600);
  ASSERT_EQ(::symlink("real.key", (dir.path() + "/device.key").c_str()), 0);
  auto ks = openAt(dir.path());
  ASSERT_FALSE(ks.ok());
  EXPECT_NE(ks.error().message.find("symbolic link"), std::string::npos) << ks.error().message;
  TempDir dir2;
  ASSERT_EQ(::mkdir((dir2.path() + "/device.key").c_str(), 0700), 0);
  ks = openAt(dir2.path());
  ASSERT_FALSE(ks.ok());
  EXPECT_NE(ks.error().message.find("not a regular file"), std::string::npos) << ks.error().message;
}

TEST(FileKeystore, UnwritableOrMissingDirectoryIsAClearError) {
  // /proc/self accepts no new files, even from root.
  auto ks = openAt("/proc/self");
  ASSERT_FALSE(ks.ok());
  EXPECT_NE(ks.error().message.find("cannot create device key in /proc/self"), std::string::npos)
      << ks.error().message;

  TempDir dir;
  ks = openAt(dir.path() + "/missing");
  ASSERT_FALSE(ks.ok());
  EXPECT_EQ(ks.error().code, Errc::not_found);
  EXPECT_NE(ks.error().message.find("does not exist"), std::string::npos) << ks.error().message;

  ks = openAt("relative/dir");
  ASSERT_FALSE(ks.ok());
  EXPECT_EQ(ks.error().code, Errc::invalid_argument);

  if (::geteuid() != 0) {  // root ignores directory permissions
    ASSERT_EQ(::chmod(dir.path().c_str(), 0500), 0);
    ks = openAt(dir.path());
    ASSERT_FALSE(ks.ok());
    EXPECT_EQ(ks.error().code, Errc::permission);
    EXPECT_NE(ks.error().message.find(dir.path()), std::string::npos) << ks.error().message;
  }
}

TEST(FileKeystore, ReadersDoNotCreateAKey) {
  TempDir dir;
  auto ks = openAt(dir.path(), /*create=*/false);
  ASSERT_FALSE(ks.ok());
  EXPECT_EQ(ks.error().code, Errc::not_found);
  EXPECT_FALSE(std::filesystem::exists(dir.path() + "/device.key"));
}

TEST(KeystoreRegistry, UnknownBackendNamesTheKnownOnes) {
  auto ks = KeystoreRegistry::instance().open(KeystoreSpec{"tpm", "/tmp", true});
  ASSERT_FALSE(ks.ok());
  EXPECT_EQ(ks.error().code, Errc::not_found);
  EXPECT_NE(ks.error().message.find("'tpm'"), std::string::npos);
  EXPECT_NE(ks.error().message.find("file"), std::string::npos);
}

TEST(SecretKey, MoveWipesTheSource) {
  SecretKey a;
  a.mutableBytes()[0] = 7;
  SecretKey b(std::move(a));
  EXPECT_EQ(b.bytes()[0], 7);
  EXPECT_EQ(a.bytes()[0], 0);  // NOLINT(bugprone-use-after-move): the point of the test
}

}  // namespace
}  // namespace sotto::hal
