// SPDX-License-Identifier: MIT
// `sotto serve` as a child process (through qemu in cross builds): the streamed answer equals `sotto generate`'s
// greedy output for the same prompt, faults from the command line, usage errors, clean stop on SIGTERM.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

#include "tests/cloud/cloud_test_util.h"

namespace sotto::cloud::test {
namespace {

// `sotto serve ARGS` with stdout on a pipe; port() parses its "listening on" line.
class ServeChild {
 public:
  explicit ServeChild(const std::vector<std::string>& args) {
    auto argv = sotto::test::commandFor(SOTTO_CLI_PATH, args);
    int out[2];
    if (pipe(out) != 0) return;
    pid_ = fork();
    if (pid_ == 0) {
      dup2(out[1], 1);
      close(out[0]);
      std::vector<char*> cargv;
      for (auto& a : argv) cargv.push_back(a.data());
      cargv.push_back(nullptr);
      execv(cargv[0], cargv.data());
      _exit(127);
    }
    close(out[1]);
    fd_ = out[0];
  }
  ~ServeChild() {
    if (pid_ > 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
    if (fd_ >= 0) close(fd_);
  }
  // Waits for "listening on http://127.0.0.1:PORT"; 0 on failure.
  uint16_t port() {
    std::string seen;
    const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(10 * sotto::test::slowFactor());
    while (seen.find('\n') == std::string::npos && std::chrono::steady_clock::now() < end) {
      pollfd p{fd_, POLLIN, 0};
      if (poll(&p, 1, 100) <= 0) continue;
      char buf[256];
      const ssize_t n = read(fd_, buf, sizeof buf);
      if (n <= 0) break;
      seen.append(buf, static_cast<size_t>(n));
    }
    const std::string key = "listening on http://127.0.0.1:";
    const size_t at = seen.find(key);
    return at == std::string::npos ? 0 : static_cast<uint16_t>(std::stoi(seen.substr(at + key.size())));
  }
  // SIGTERM, then the exit status (-1 if it did not exit within the timeout).
  int terminate() {
    kill(pid_, SIGTERM);
    const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(5 * sotto::test::slowFactor());
    int status = 0;
    while (std::chrono::steady_clock::now() < end) {
      if (waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      }
      usleep(10000);
    }
    return -1;
  }

 private:
  pid_t pid_ = -1;
  int fd_ = -1;
};

TEST(CloudCli, ServeMatchesGenerate) {
  std::string generated;
  ASSERT_EQ(sotto::test::runCapture(SOTTO_CLI_PATH, {"generate", "-m", kStories, "-p", kStoryPrompt, "-n", "24",
                                                     "--temp", "0", "-t", "1"},
                                    generated),
            0)
      << generated;
  char tmpl[] = "/tmp/sotto-serve-XXXXXX";
  const std::string dir = mkdtemp(tmpl);
  const std::string record = dir + "/requests.jsonl";
  ServeChild serve({"serve", "-m", kStories, "--port", "0", "-t", "1", "--record", record});
  const uint16_t port = serve.port();
  ASSERT_NE(port, 0) << "sotto serve did not start";
  auto client = CloudClient::create(clientFor(port));
  ASSERT_TRUE(client);
  Collect sink;
  const ChatOutcome o = (*client)->chat(storyRequest(24), sink);
  ASSERT_TRUE(o.ok()) << cloudErrcName(o.error) << ": " << o.message;
  EXPECT_EQ(sink.text, generated);
  EXPECT_EQ(serve.terminate(), 0);
  std::ifstream in(record);
  std::stringstream ss;
  ss << in.rdbuf();
  EXPECT_EQ(ss.str(), o.requestBody + "\n");  // the exact bytes the client reported, as received
  [[maybe_unused]] const int rc = std::system(("rm -rf '" + dir + "'").c_str());
}

TEST(CloudCli, ServeFaultFromTheCommandLine) {
  ServeChild serve({"serve", "-m", kStories, "--port", "0", "-t", "1", "--fault", "error:503"});
  const uint16_t port = serve.port();
  ASSERT_NE(port, 0);
  auto client = CloudClient::create(clientFor(port));
  ASSERT_TRUE(client);
  Collect sink;
  const ChatOutcome o = (*client)->chat(storyRequest(), sink);
  EXPECT_EQ(o.error, CloudErrc::httpStatus);
  EXPECT_EQ(o.httpStatus, 503);
  EXPECT_EQ(serve.terminate(), 0);
}

TEST(CloudCli, ServeUsageErrors) {
  std::string out;
  EXPECT_EQ(sotto::test::runCapture(SOTTO_CLI_PATH, {"serve"}, out), 2);
  EXPECT_NE(out.find("need -m FILE"), std::string::npos) << out;
  EXPECT_EQ(sotto::test::runCapture(SOTTO_CLI_PATH, {"serve", "-m", kStories, "--fault", "explode"}, out), 2);
  EXPECT_NE(out.find("bad fault"), std::string::npos) << out;
  EXPECT_EQ(sotto::test::runCapture(SOTTO_CLI_PATH, {"serve", "-m", kStories, "--bind", "0.0.0.0", "--port", "0"}, out),
            1);
  EXPECT_NE(out.find("not a loopback address"), std::string::npos) << out;
  EXPECT_EQ(sotto::test::runCapture(SOTTO_CLI_PATH, {"serve", "-m", "/nonexistent.gguf"}, out), 1);
  EXPECT_EQ(sotto::test::runCapture(SOTTO_CLI_PATH, {"serve", "--help"}, out), 0);
  EXPECT_NE(out.find("--fault SPEC"), std::string::npos);
}

}  // namespace
}  // namespace sotto::cloud::test
