// SPDX-License-Identifier: MIT
// The privacy settings in the config (per-type policy order, defaults) and `sotto audit` as a process.
#include <unistd.h>

#include <cctype>
#include <cstdio>
#include <fstream>

#include <gtest/gtest.h>

#include "app/config/config.h"
#include "engine/privacy/audit.h"
#include "engine/privacy/policy.h"
#include "tests/app/child.h"
#include "tests/keystore/temp_dir.h"

namespace sotto::privacy {
namespace {

std::string settingOf(PiiType type) {
  std::string name = piiTypeName(type);
  for (char& c : name) c = c == '_' ? '-' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return "privacy.policy." + name;
}

TEST(PrivacySettings, DefaultsMatchThePolicyTable) {
  const config::Config c = config::defaults();
  auto t = PolicyTable::fromNames(c.piiPolicy);
  ASSERT_TRUE(t.ok()) << t.error().message;
  for (std::size_t i = 0; i < kPiiTypeCount; ++i) {
    const auto type = static_cast<PiiType>(i);
    EXPECT_EQ(t->get(type), PolicyTable::defaults().get(type)) << piiTypeName(type);
  }
  EXPECT_EQ(c.deviceIdRotationH, 24u);
  EXPECT_EQ(parsePrivacyMode(privacyModeName(c.privacy)), PrivacyMode::private_);
}

TEST(PrivacySettings, EachTypeHasItsOwnCheckedSetting) {
  for (std::size_t i = 0; i < kPiiTypeCount; ++i) {
    const auto type = static_cast<PiiType>(i);
    const std::vector<std::string> set{settingOf(type) + "=allow"};
    auto r = config::applyOverrides(config::defaults(), set);
    ASSERT_TRUE(r.config) << settingOf(type);
    for (std::size_t j = 0; j < kPiiTypeCount; ++j) {
      EXPECT_EQ(r.config->piiPolicy[j] == "allow", i == j) << settingOf(type) << " moved index " << j;
    }
    const std::vector<std::string> bad{settingOf(type) + "=sometimes"};
    EXPECT_FALSE(config::applyOverrides(config::defaults(), bad).config) << settingOf(type);
  }
}

class AuditCli : public ::testing::Test {
 protected:
  void SetUp() override {
    config_ = tmp_.path() + "/sotto.xml";
    std::ofstream(config_) << "<sotto version=\"1\"><paths state-dir=\"" << tmp_.path() << "\"/></sotto>\n";
  }
  int run(std::vector<std::string> args, std::string& out) {
    args.insert(args.begin(), "audit");
    args.push_back("--config");
    args.push_back(config_);
    return test::runCapture(SOTTO_CLI_PATH, args, out);
  }
  // The state directory's audit log, with its key (made on first use).
  std::unique_ptr<AuditLog> openLog() {
    auto ks = hal::KeystoreRegistry::instance().open({"file", tmp_.path(), true});
    EXPECT_TRUE(ks.ok());
    if (!ks) return nullptr;
    auto key = (*ks)->deriveKey(kAuditKeyPurpose);
    EXPECT_TRUE(key.ok());
    if (!key) return nullptr;
    auto log = AuditLog::open(AuditOptions{tmp_.path() + "/" + kAuditDirName, 64 * 1024, 4}, *key);
    EXPECT_TRUE(log.ok());
    return log.ok() ? std::move(*log) : nullptr;
  }
  void appendTwo() {
    auto log = openLog();
    ASSERT_TRUE(log);
    ASSERT_TRUE(log->append({1767225600000, "cloud", "low-confidence", "api.example.com:443",
                             "{\"content\":\"what is \\\"[PERSON_1]\\\"\\n\"}"}).ok());
    ASSERT_TRUE(log->append({1767225601500, "cloud", "forced", "127.0.0.1:8080", "second"}).ok());
  }
  test::TempDir tmp_;
  std::string config_;
};

TEST_F(AuditCli, EmptyLog) {
  std::string out;
  EXPECT_EQ(run({}, out), 0) << out;
  EXPECT_NE(out.find("no escalated requests recorded"), std::string::npos) << out;
  EXPECT_FALSE(std::filesystem::exists(tmp_.path() + "/device.key"));  // the reader never creates a key
}

TEST_F(AuditCli, PrintsRecordsAsTextAndJson) {
  appendTwo();
  std::string out;
  ASSERT_EQ(run({"--json"}, out), 0) << out;
  EXPECT_EQ(out,
            "{\"time\":\"2026-01-01T00:00:00.000Z\",\"time_ms\":1767225600000,\"route\":\"cloud\","
            "\"reason\":\"low-confidence\",\"host\":\"api.example.com:443\",\"bytes\":38,"
            "\"sent\":\"{\\\"content\\\":\\\"what is \\\\\\\"[PERSON_1]\\\\\\\"\\\\n\\\"}\"}\n"
            "{\"time\":\"2026-01-01T00:00:01.500Z\",\"time_ms\":1767225601500,\"route\":\"cloud\","
            "\"reason\":\"forced\",\"host\":\"127.0.0.1:8080\",\"bytes\":6,\"sent\":\"second\"}\n");
  ASSERT_EQ(run({}, out), 0) << out;
  EXPECT_NE(out.find("2026-01-01T00:00:01.500Z  route=cloud  reason=forced  host=127.0.0.1:8080  6 bytes\n  second"),
            std::string::npos)
      << out;
}

TEST_F(AuditCli, TamperingFailsAndMissingKeyIsClear) {
  appendTwo();
  const std::string file = tmp_.path() + "/audit/audit.log";
  {
    std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(-3, std::ios::end);
    f.put('\x55');
  }
  std::string out;
  EXPECT_EQ(run({"--json"}, out), 1) << out;
  EXPECT_NE(out.find("fails authentication"), std::string::npos) << out;
  EXPECT_NE(out.find("\"sent\":\"{"), std::string::npos) << out;  // the good record still shows
  std::filesystem::remove(tmp_.path() + "/device.key");
  EXPECT_EQ(run({}, out), 1) << out;
  EXPECT_NE(out.find("device.key does not exist"), std::string::npos) << out;
  EXPECT_EQ(run({"--bogus"}, out), 2);
}

// Runs `sotto pii --json --rules-only < input` (through the emulator in cross builds); the file carries the process
// id because ctest runs this file's tests in parallel processes.
int piiCli(const std::string& input, std::string& out) {
  const std::string in = ::testing::TempDir() + "/pii_cli_" + std::to_string(::getpid()) + ".txt";
  std::ofstream(in, std::ios::binary) << input;
  std::string cmd;
  for (const auto& w : test::commandFor(SOTTO_CLI_PATH, {})) cmd += "'" + w + "' ";
  const int rc = test::runCapture("/bin/sh", {"-c", cmd + "pii --json --rules-only 2>/dev/null < '" + in + "'"}, out,
                                  false);
  std::remove(in.c_str());
  return rc;
}

TEST(PiiCli, NormalizedFormsKeepOriginalOffsets) {
  std::string out;
  ASSERT_EQ(piiCli("my ssn is \uFF11\uFF12\uFF13-\uFF14\uFF15-\uFF16\uFF17\uFF18\uFF19\n", out), 0) << out;
  EXPECT_NE(out.find("\"spans\":[{\"start\":10,\"end\":21,\"type\":\"SSN\"}]}"), std::string::npos) << out;
  EXPECT_EQ(out.find("private"), std::string::npos) << out;
}

// Fail closed: a line the classifier refuses is reported as private as a whole, never as a line without spans.
TEST(PiiCli, RefusedLinesArePrivateNotEmpty) {
  std::string longLine = "my ssn is 078-05-1120 ";
  while (longLine.size() <= PiiClassifier::kMaxTextBytes) longLine += "and some more words ";
  std::string out;
  EXPECT_EQ(piiCli(longLine + "\n", out), 1) << out;
  EXPECT_NE(out.find("\"spans\":[],\"private\":true,\"reason\":\"over 4096 bytes\"}"), std::string::npos) << out;
  EXPECT_EQ(piiCli("my ssn is 078\xFF-05-1120\n", out), 1) << out;
  EXPECT_NE(out.find("\"private\":true,\"reason\":\"not valid UTF-8\"}"), std::string::npos) << out;
  std::string manyWords;
  for (int i = 0; i < 600; ++i) manyWords += "a ";
  EXPECT_EQ(piiCli(manyWords + "\n", out), 1) << out;
  EXPECT_NE(out.find("\"private\":true,\"reason\":\"over 512 words\"}"), std::string::npos) << out;
  // A good line after a refused one is classified as usual.
  EXPECT_EQ(piiCli(longLine + "\ncall 555 123 4567\n", out), 1) << out;
  EXPECT_NE(out.find("\"type\":\"PHONE\"}]}\n"), std::string::npos) << out;
}

// Issue 36: output hygiene. `sotto pii --json` copied invalid UTF-8 raw into "text" (not valid JSON text); `sotto
// audit` printed request bytes U+202E (right-to-left override) and U+200B (zero width space) raw to the terminal.
TEST(PiiCli, InvalidUtf8IsNeverCopiedIntoTheJson) {
  std::string out;
  EXPECT_EQ(piiCli("my ssn is 078\xFF-05-1120 \xC0\xAF \xED\xA0\x80\n", out), 1) << out;
  EXPECT_NE(out.find("{\"text\":\"my ssn is 078\\ufffd-05-1120 \\ufffd\\ufffd \\ufffd\\ufffd\\ufffd\","),
            std::string::npos)
      << out;
  for (const unsigned char c : out) EXPECT_LT(c, 0x80u) << "only ASCII: every byte outside it was escaped";
  // Format characters are escaped too (a JSON reader gets them back; a terminal does not act on them).
  EXPECT_EQ(piiCli("hello \u202Eevil\u200B\n", out), 0) << out;
  EXPECT_NE(out.find("\"text\":\"hello \\u202eevil\\u200b\""), std::string::npos) << out;
}

TEST_F(AuditCli, RequestBytesNeverReachTheTerminalRaw) {
  auto log = openLog();
  ASSERT_TRUE(log);
  ASSERT_TRUE(log->append({1767225600000, "cloud", "forced", "127.0.0.1:8080",
                           "pay \u202Eevil\u200B \x1b[31mred \xFF"}).ok());
  std::string out;
  ASSERT_EQ(run({}, out), 0) << out;
  EXPECT_NE(out.find("pay \\u{202E}evil\\u{200B} \\x1b[31mred \\xff"), std::string::npos) << out;
  EXPECT_EQ(out.find("\u202E"), std::string::npos) << out;
  EXPECT_EQ(out.find("\u200B"), std::string::npos) << out;
  EXPECT_EQ(out.find('\x1b'), std::string::npos) << out;
  ASSERT_EQ(run({"--json"}, out), 0) << out;
  EXPECT_NE(out.find("\"sent\":\"pay \\u202eevil\\u200b \\u001b[31mred \\ufffd\""), std::string::npos) << out;
}

// Before the chain, a cut exactly at a record boundary went unnoticed (exit 0): now it fails and names the record.
TEST_F(AuditCli, ACutAtARecordBoundaryFailsAndNamesTheRecord) {
  appendTwo();
  const std::string file = tmp_.path() + "/audit/audit.log";
  std::string whole;
  {
    std::ifstream in(file, std::ios::binary);
    whole.assign(std::istreambuf_iterator<char>(in), {});
  }
  // The second record: length, number, nonce | ciphertext of version, time, "cloud", "forced", the host, "second"
  // plus the tag | chain MAC.
  const std::size_t plain = 1 + 8 + (2 + 5) + (2 + 6) + (2 + 14) + (4 + 6);
  const std::size_t second = (4 + 8 + 24) + (plain + 16) + 32;
  ASSERT_EQ(whole.size(), 104 + (4 + 8 + 24) + 32 + 16 + (1 + 8 + 7 + 16 + 21 + 4 + 38) + second);
  std::ofstream(file, std::ios::binary | std::ios::trunc) << whole.substr(0, whole.size() - second);
  std::string out;
  EXPECT_EQ(run({}, out), 1) << out;
  EXPECT_NE(out.find("record 2 cut off (truncated)"), std::string::npos) << out;
  EXPECT_NE(out.find("first bad: record 2"), std::string::npos) << out;
  // Only the sealed head left: not an empty log.
  std::filesystem::remove(file);
  EXPECT_EQ(run({}, out), 1) << out;
  EXPECT_NE(out.find("no file holds them"), std::string::npos) << out;
}

}  // namespace
}  // namespace sotto::privacy
