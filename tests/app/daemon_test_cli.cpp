// SPDX-License-Identifier: MIT
// Command lines of sottod and sotto: --version/--help, --check-config exit codes, static linkage, the unit file.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "app/sottod/daemon.h"
#include "child.h"

using sotto::test::runCapture;

namespace {
std::string readFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}
}  // namespace

TEST(Cli, VersionNamesBuildTargetAndCpuFeatures) {
  for (const char* bin : {SOTTOD_PATH, SOTTO_CLI_PATH}) {
    std::string out;
    ASSERT_EQ(runCapture(bin, {"--version"}, out), 0) << out;
    EXPECT_NE(out.find("0.1.0"), std::string::npos) << out;
#if defined(__x86_64__)
    EXPECT_NE(out.find("target: x86_64"), std::string::npos) << out;
#else
    EXPECT_NE(out.find("target: aarch64"), std::string::npos) << out;
#endif
    EXPECT_NE(out.find("cpu features: "), std::string::npos) << out;
    EXPECT_NE(out.find(SOTTO_STATIC_BUILD ? "static" : "dynamic"), std::string::npos) << out;
  }
}

TEST(Cli, HelpAndUnknownOptions) {
  std::string out;
  EXPECT_EQ(runCapture(SOTTOD_PATH, {"--help"}, out), 0);
  EXPECT_NE(out.find("--check-config"), std::string::npos);
  EXPECT_EQ(runCapture(SOTTOD_PATH, {"--frobnicate"}, out), 2);
  EXPECT_NE(out.find("unknown option '--frobnicate'"), std::string::npos);
  EXPECT_EQ(runCapture(SOTTO_CLI_PATH, {"--help"}, out), 0);
  EXPECT_EQ(runCapture(SOTTO_CLI_PATH, {"nonsense"}, out), 2);
}

TEST(Cli, CheckConfigExitCodes) {
  std::string out;
  EXPECT_EQ(runCapture(SOTTOD_PATH, {"--check-config", std::string(SOTTO_SOURCE_DIR) + "/config/sotto.xml"}, out), 0)
      << out;
  char path[] = "/tmp/sotto-cfg-XXXXXX";
  int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  std::string bad = "<sotto version=\"1\">\n<audio>\n<capture rate=\"99\"/>\n</audio>\n<privacy mode=\"public\"/>\n</sotto>\n";
  ASSERT_EQ(write(fd, bad.data(), bad.size()), static_cast<ssize_t>(bad.size()));
  close(fd);
  EXPECT_EQ(runCapture(SOTTOD_PATH, {"--check-config", path}, out), 2);
  EXPECT_NE(out.find(std::string(path) + ":3: audio.capture.rate:"), std::string::npos) << out;
  EXPECT_NE(out.find(std::string(path) + ":5: privacy.mode:"), std::string::npos) << out;
  EXPECT_EQ(runCapture(SOTTO_CLI_PATH, {"check-config", path}, out), 2);
  EXPECT_NE(out.find(std::string(path) + ": 2 problems, configuration not valid"), std::string::npos) << out;
  // Issue 36: past the listed hundred, the count is of every problem ("99900 more problems not shown" was
  // followed by "101 problems").
  std::string many = "<sotto version=\"1\">\n";
  for (int i = 0; i < 250; ++i) many += "<unknown" + std::to_string(i) + "/>\n";
  many += "</sotto>\n";
  {
    std::FILE* f = std::fopen(path, "w");
    ASSERT_NE(f, nullptr);
    std::fputs(many.c_str(), f);
    std::fclose(f);
  }
  for (const bool daemon : {true, false}) {
    EXPECT_EQ(daemon ? runCapture(SOTTOD_PATH, {"--check-config", path}, out)
                     : runCapture(SOTTO_CLI_PATH, {"check-config", path}, out),
              2);
    EXPECT_NE(out.find("150 more problems not shown"), std::string::npos) << out;
    EXPECT_NE(out.find(std::string(path) + ": 250 problems, configuration not valid"), std::string::npos) << out;
  }
  unlink(path);
  EXPECT_EQ(runCapture(SOTTOD_PATH, {"--check-config", "/nonexistent/sotto.xml"}, out), 2);
  EXPECT_NE(out.find("/nonexistent/sotto.xml"), std::string::npos);
}

TEST(Cli, FaultSpecificationIsChecked) {
  EXPECT_TRUE(sotto::app::parseFault("stall:audio:100").ok());
  EXPECT_EQ(sotto::app::parseFault("stall:speech:0")->stage, "speech");
  for (const char* bad : {"stall", "stall::1", "stall:audio:", "hang:audio:1", "stall:audio:1x"}) {
    EXPECT_FALSE(sotto::app::parseFault(bad).ok()) << bad;
  }
}

TEST(Cli, ReleaseBinariesAreStaticallyLinked) {
  if (!SOTTO_STATIC_BUILD) GTEST_SKIP() << "only release presets link statically";
  for (const char* bin : {SOTTOD_PATH, SOTTO_CLI_PATH}) {
    std::string out;
    ASSERT_EQ(runCapture("/usr/bin/file", {"-L", bin}, out, false), 0);
    EXPECT_NE(out.find("statically linked"), std::string::npos) << out;
    EXPECT_EQ(out.find("dynamically linked"), std::string::npos) << out;
  }
}

TEST(SystemdUnit, VerifiesWithSystemdAnalyze) {
  if (access("/usr/bin/systemd-analyze", X_OK) != 0) GTEST_SKIP() << "systemd-analyze not installed";
  const std::string unit = std::string(SOTTO_SOURCE_DIR) + "/rootfs-overlay/usr/lib/systemd/system/sottod.service";
  std::string text = readFile(unit);
  // The image's binary path does not exist on the build machine: point ExecStart at the built binary, change
  // nothing else.
  const std::string exec = "ExecStart=/usr/bin/sottod ";
  auto at = text.find(exec);
  ASSERT_NE(at, std::string::npos);
  text.replace(at, exec.size() - 1, std::string("ExecStart=") + SOTTOD_PATH);
  char dir[] = "/tmp/sotto-unit-XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  std::string copy = std::string(dir) + "/sottod.service";
  std::ofstream(copy) << text;
  std::string out;
  int rc = runCapture("/usr/bin/systemd-analyze", {"verify", copy}, out, false);
  EXPECT_EQ(rc, 0) << out;
  EXPECT_EQ(out, "") << out;  // verify prints only problems
  unlink(copy.c_str());
  rmdir(dir);
}

TEST(SystemdUnit, IsHardenedAsTheImageRequires) {
  std::string text = readFile(std::string(SOTTO_SOURCE_DIR) + "/rootfs-overlay/usr/lib/systemd/system/sottod.service");
  for (const char* line : {"Type=notify", "WatchdogSec=", "Restart=on-failure", "ProtectSystem=strict",
                           "ProtectHome=yes", "PrivateTmp=yes", "NoNewPrivileges=yes", "CapabilityBoundingSet=",
                           "LimitRTPRIO=", "LimitMEMLOCK=", "StateDirectory=sotto", "RuntimeDirectory=sotto",
                           "User=sotto"}) {
    EXPECT_NE(text.find(line), std::string::npos) << line;
  }
  // The user exists in the image through sysusers.d.
  std::string users = readFile(std::string(SOTTO_SOURCE_DIR) + "/rootfs-overlay/usr/lib/sysusers.d/sotto.conf");
  EXPECT_NE(users.find("u sotto "), std::string::npos);
}
