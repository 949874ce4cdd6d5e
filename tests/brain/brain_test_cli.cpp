// SPDX-License-Identifier: MIT
// `sotto ask` as a user runs it (a child process, through qemu in cross builds): the stable --json interface,
// the plain output, plain http to a non-loopback host refused, usage errors.
#include "tests/app/child.h"
#include "tests/brain/brain_test_util.h"

namespace sotto::answer::test {
namespace {

std::string lastLine(const std::string& out) {
  std::string s = out;
  while (!s.empty() && s.back() == '\n') s.pop_back();
  const size_t nl = s.rfind('\n');
  return nl == std::string::npos ? s : s.substr(nl + 1);
}

TEST(CliAsk, JsonEndsWithTheDoneEvent) {
  ScratchDir dir;
  std::string out;
  const int rc = sotto::test::runCapture(SOTTO_CLI_PATH,
                                         {"ask", "--json", "--state-dir", dir.path(), "--catalogue",
                                          sourcePath("config/intents.xml"), "--model", "", "set a timer for five minutes"},
                                         out);
  ASSERT_EQ(rc, 0) << out;
  EXPECT_NE(out.find("{\"event\":\"decision\",\"route\":\"intent\""), std::string::npos) << out;
  EXPECT_EQ(lastLine(out),
            "{\"event\":\"done\",\"route\":\"intent\",\"reason\":\"intent-confident\",\"escalated\":false,"
            "\"sent\":null,\"answer\":\"Timer set for five minutes.\",\"complete\":true}")
      << out;
}

TEST(CliAsk, OfflineNeverEscalatesAndSaysSoPlainly) {
  ScratchDir dir;
  std::string out;
  const int rc = sotto::test::runCapture(SOTTO_CLI_PATH,
                                         {"ask", "--privacy", "offline", "--cloud", "http://127.0.0.1:9", "--state-dir",
                                          dir.path(), "--catalogue", sourcePath("config/intents.xml"), "--model", "",
                                          "why is the sky blue"},
                                         out);
  ASSERT_EQ(rc, 0) << out;
  EXPECT_NE(out.find("route: cannot-answer"), std::string::npos) << out;
  EXPECT_NE(out.find(router::kCannotAnswerText), std::string::npos) << out;
  EXPECT_EQ(out.find("sent"), std::string::npos) << out;
}

TEST(CliAsk, PlainHttpToARemoteHostIsRefused) {
  ScratchDir dir;
  std::string out;
  const int rc = sotto::test::runCapture(SOTTO_CLI_PATH,
                                         {"ask", "--json", "--cloud", "http://example.com", "--state-dir", dir.path(),
                                          "--catalogue", sourcePath("config/intents.xml"), "--model", "",
                                          "why is the sky blue"},
                                         out);
  ASSERT_EQ(rc, 0) << out;
  EXPECT_NE(out.find("cloud escalation disabled"), std::string::npos) << out;
  EXPECT_NE(lastLine(out).find("\"escalated\":false"), std::string::npos) << out;
}

TEST(CliAsk, UsageErrors) {
  std::string out;
  EXPECT_EQ(sotto::test::runCapture(SOTTO_CLI_PATH, {"ask"}, out), 2);
  EXPECT_EQ(sotto::test::runCapture(SOTTO_CLI_PATH, {"ask", "--privacy", "paranoid", "hi"}, out), 2);
  EXPECT_NE(out.find("offline, private or standard"), std::string::npos) << out;
  EXPECT_EQ(sotto::test::runCapture(SOTTO_CLI_PATH, {"ask", "--route", "moon", "hi"}, out), 2);
  EXPECT_EQ(sotto::test::runCapture(SOTTO_CLI_PATH, {"ask", "--help"}, out), 0);
  EXPECT_NE(out.find("\"event\":\"done\""), std::string::npos);
}

}  // namespace
}  // namespace sotto::answer::test
