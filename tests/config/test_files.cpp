// SPDX-License-Identifier: MIT
// loadFile: files that cannot be used (missing, directory, FIFO, unreadable, too large, empty) and a good one.
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "test_util.h"

namespace sotto::config {
namespace {

using test::formatted;

class Files : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = std::filesystem::temp_directory_path() / "sotto-config-test-XXXXXX";
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
  }
  void TearDown() override {
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
  }
  std::string write(const std::string& name, const std::string& content) {
    const std::string path = dir_ + "/" + name;
    std::ofstream(path, std::ios::binary) << content;
    return path;
  }
  std::string dir_;
};

TEST_F(Files, GoodFileLoads) {
  const LoadResult r = loadFile(write("sotto.xml", "<sotto version=\"1\"><log level=\"debug\"/></sotto>\n"));
  ASSERT_TRUE(r.config) << ::testing::PrintToString(formatted(r));
  EXPECT_EQ(r.config->logLevel, "debug");
}

TEST_F(Files, MessagesNameThePathAsGiven) {
  const std::string path = write("bad.xml", "<sotto version=\"1\">\n<log level=\"loud\"/>\n</sotto>\n");
  EXPECT_EQ(
      formatted(loadFile(path)),
      std::vector<std::string>{path + ":2: log.level: \"loud\" is not one of error, warning, notice, info, debug"});
}

TEST_F(Files, MissingFile) {
  const std::string path = dir_ + "/absent.xml";
  EXPECT_EQ(formatted(loadFile(path)), std::vector<std::string>{path + ": cannot open: No such file or directory"});
}

TEST_F(Files, Directory) {
  EXPECT_EQ(formatted(loadFile(dir_)), std::vector<std::string>{dir_ + ": is a directory, not a file"});
}

TEST_F(Files, FifoIsRefusedWithoutBlocking) {
  const std::string path = dir_ + "/fifo";
  ASSERT_EQ(::mkfifo(path.c_str(), 0600), 0);
  EXPECT_EQ(formatted(loadFile(path)), std::vector<std::string>{path + ": is not a regular file"});
}

TEST_F(Files, Unreadable) {
  if (::geteuid() == 0) GTEST_SKIP() << "root reads files whatever their mode";
  const std::string path = write("secret.xml", "<sotto version=\"1\"/>");
  ASSERT_EQ(::chmod(path.c_str(), 0), 0);
  EXPECT_EQ(formatted(loadFile(path)), std::vector<std::string>{path + ": cannot open: Permission denied"});
}

TEST_F(Files, TooLarge) {
  // Valid XML padded with a comment: only the size is wrong.
  std::string xml = "<sotto version=\"1\"/><!--";
  xml.append(kMaxFileBytes - xml.size() - 3, 'x').append("-->");
  ASSERT_EQ(xml.size(), kMaxFileBytes);
  EXPECT_TRUE(loadFile(write("limit.xml", xml)).config);
  const std::string path = write("large.xml", xml + "\n");
  EXPECT_EQ(formatted(loadFile(path)),
            std::vector<std::string>{path + ": the file is too large (1048577 bytes; the limit is 1048576)"});
  EXPECT_EQ(formatted(loadString(xml + "\n", "large.xml")),
            std::vector<std::string>{"large.xml: the file is too large (1048577 bytes; the limit is 1048576)"});
}

TEST_F(Files, Empty) {
  const std::string path = write("empty.xml", "");
  EXPECT_EQ(formatted(loadFile(path)), std::vector<std::string>{path + ": the file is empty"});
}

TEST_F(Files, DevNullIsNotARegularFile) {
  EXPECT_EQ(formatted(loadFile("/dev/null")), std::vector<std::string>{"/dev/null: is not a regular file"});
}

}  // namespace
}  // namespace sotto::config
