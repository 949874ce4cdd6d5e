// SPDX-License-Identifier: MIT
// The loopback server under hostile clients: a slow-loris connection (and a flood of idle ones) does not hold up a
// real request and is dropped at its deadline; a server with an API key answers 401 without the bearer token;
// a non-loopback address needs a key; `sotto serve --allow-remote` needs --api-key-file and warns.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <thread>

#include "tests/cloud/cloud_test_util.h"

namespace sotto::cloud::test {
namespace {

// A raw TCP connection to the server, for clients that misbehave.
int srvConnect(uint16_t port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(port);
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (fd < 0 || ::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
    if (fd >= 0) ::close(fd);
    return -1;
  }
  return fd;
}

// Everything the server sends until it closes (or `ms` pass).
std::string srvReadAll(int fd, int ms) {
  std::string got;
  const auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
  while (std::chrono::steady_clock::now() < end) {
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, 50) <= 0) continue;
    char buf[1024];
    const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
    if (n <= 0) break;
    got.append(buf, static_cast<size_t>(n));
  }
  return got;
}

std::unique_ptr<LoopbackServer> srvStart(ServerOptions so) {
  Engine& e = Engine::get();
  if (!e.generator) return nullptr;
  auto s = LoopbackServer::start(*e.generator, *e.model, so);
  EXPECT_TRUE(s) << (s ? "" : s.error().message);
  return s ? std::move(*s) : nullptr;
}

// Before: the server read one connection at a time, 5 s per read; a client trickling a byte every second held
// every other request (24 s in the probe). Now each connection is read without blocking under its own deadline.
TEST(LoopbackServerHostile, SlowLorisDoesNotHoldUpARealRequest) {
  auto server = srvStart({});
  ASSERT_NE(server, nullptr);
  const int loris = srvConnect(server->port());
  ASSERT_GE(loris, 0);
  std::atomic<bool> done{false};
  std::thread trickle([&] {
    const std::string slow = "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n";
    for (size_t i = 0; i < slow.size() && !done.load(); ++i) {
      if (::send(loris, &slow[i], 1, MSG_NOSIGNAL) != 1) break;
      for (int k = 0; k < 10 && !done.load(); ++k) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));  // the loris is accepted first
  auto client = CloudClient::create(clientFor(server->port()));
  ASSERT_TRUE(client);
  Collect sink;
  const ChatOutcome o = (*client)->chat(storyRequest(20), sink);
  done.store(true);
  trickle.join();
  ::close(loris);
  ASSERT_TRUE(o.ok()) << cloudErrcName(o.error) << ": " << o.message;
  EXPECT_EQ(sink.text, kStory20);
}

TEST(LoopbackServerHostile, ASlowRequestIsDroppedAtItsDeadline) {
  ServerOptions so;
  so.requestDeadlineMs = 300;
  auto server = srvStart(so);
  ASSERT_NE(server, nullptr);
  const int fd = srvConnect(server->port());
  ASSERT_GE(fd, 0);
  const std::string part = "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\n";
  ASSERT_EQ(::send(fd, part.data(), part.size(), MSG_NOSIGNAL), static_cast<ssize_t>(part.size()));
  const auto t0 = std::chrono::steady_clock::now();
  const std::string got = srvReadAll(fd, 300 + 1000 * sotto::test::slowFactor());
  const double ms = msSince(t0);
  ::close(fd);
  EXPECT_EQ(got.rfind("HTTP/1.1 408 ", 0), 0u) << got;
  EXPECT_LT(ms, 300 + 1000 * sotto::test::slowFactor());  // deadline + 1 s
}

TEST(LoopbackServerHostile, AFloodOfIdleConnectionsDoesNotHoldUpARealRequest) {
  ServerOptions so;
  so.maxPending = 4;
  auto server = srvStart(so);
  ASSERT_NE(server, nullptr);
  std::vector<int> idle;
  for (int i = 0; i < 12; ++i) {
    const int fd = srvConnect(server->port());
    ASSERT_GE(fd, 0);
    idle.push_back(fd);
    // Paced: twelve connects at once overflow the kernel's queue (backlog 8) before the server thread first runs,
    // and the kernel then retries a connect after 1 s; that is TCP, not what this test is about.
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  auto client = CloudClient::create(clientFor(server->port()));
  ASSERT_TRUE(client);
  Collect sink;
  const ChatOutcome o = (*client)->chat(storyRequest(20), sink);
  for (int fd : idle) ::close(fd);
  server->stop();  // within the test: the stop is part of what must not hang
  ASSERT_TRUE(o.ok()) << cloudErrcName(o.error) << ": " << o.message;
  EXPECT_EQ(sink.text, kStory20);
}

TEST(LoopbackServerHostile, AnApiKeyIsRequiredAsABearerToken) {
  const std::string dir = ::testing::TempDir() + "srv-key-" + std::to_string(::getpid());
  std::filesystem::create_directories(dir);
  ServerOptions so;
  so.apiKey = "test-key-0123456789abcdef";
  auto server = srvStart(so);
  ASSERT_NE(server, nullptr);
  // No key: 401, nothing kept.
  {
    auto client = CloudClient::create(clientFor(server->port()));
    ASSERT_TRUE(client);
    Collect sink;
    const ChatOutcome o = (*client)->chat(storyRequest(4), sink);
    EXPECT_FALSE(o.ok());
    EXPECT_EQ(o.httpStatus, 401) << o.message;
    EXPECT_TRUE(server->receivedBodies().empty());
  }
  // A wrong key, and the right key as a prefix of a longer one: 401.
  for (const std::string& wrong : {std::string("test-key-0123456789abcdeX"), so.apiKey + "0"}) {
    std::ofstream(dir + "/wrong") << wrong << "\n";
    ClientOptions co = clientFor(server->port());
    co.apiKeyFile = dir + "/wrong";
    auto client = CloudClient::create(co);
    ASSERT_TRUE(client) << client.error().message;
    Collect sink;
    EXPECT_EQ((*client)->chat(storyRequest(4), sink).httpStatus, 401) << wrong;
  }
  // The right key: the answer.
  std::ofstream(dir + "/key") << so.apiKey << "\n";
  ClientOptions co = clientFor(server->port());
  co.apiKeyFile = dir + "/key";
  auto client = CloudClient::create(co);
  ASSERT_TRUE(client) << client.error().message;
  Collect sink;
  const ChatOutcome o = (*client)->chat(storyRequest(20), sink);
  ASSERT_TRUE(o.ok()) << o.message;
  EXPECT_EQ(sink.text, kStory20);
  std::filesystem::remove_all(dir);
}

TEST(LoopbackServerHostile, ANonLoopbackAddressNeedsAKey) {
  Engine& e = Engine::get();
  ASSERT_NE(e.generator, nullptr);
  ServerOptions so;
  so.bind = "0.0.0.0";
  so.allowRemote = true;
  auto refused = LoopbackServer::start(*e.generator, *e.model, so);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code, Errc::permission);
  EXPECT_NE(refused.error().message.find("API key"), std::string::npos) << refused.error().message;
  so.apiKey = "test-key-0123456789abcdef";
  auto started = LoopbackServer::start(*e.generator, *e.model, so);
  ASSERT_TRUE(started) << started.error().message;
  (*started)->stop();
}

TEST(LoopbackServerHostile, ServeAllowRemoteNeedsAKeyFileAndWarns) {
  std::string out;
  EXPECT_EQ(sotto::test::runCapture(SOTTO_CLI_PATH, {"serve", "-m", kStories, "--bind", "0.0.0.0", "--allow-remote"},
                                    out),
            2);
  EXPECT_NE(out.find("--allow-remote needs --api-key-file"), std::string::npos) << out;
  const std::string key = ::testing::TempDir() + "srv-short-key-" + std::to_string(::getpid());
  std::ofstream(key) << "short\n";
  EXPECT_EQ(sotto::test::runCapture(SOTTO_CLI_PATH,
                                    {"serve", "-m", kStories, "--bind", "0.0.0.0", "--allow-remote", "--api-key-file",
                                     key},
                                    out),
            1);
  EXPECT_NE(out.find("at least"), std::string::npos) << out;
  // With a key it starts, and says what it exposes (stopped by timeout's SIGTERM; native builds only).
  if (std::string(SOTTO_TEST_EMULATOR).empty()) {
    std::ofstream(key) << "test-key-0123456789abcdef\n";
    sotto::test::runCapture("/usr/bin/timeout",
                            {"3", SOTTO_CLI_PATH, "serve", "-m", kStories, "--bind", "0.0.0.0", "--port", "0",
                             "--allow-remote", "--api-key-file", key},
                            out, false);
    EXPECT_NE(out.find("warning: listening on 0.0.0.0, reachable from other hosts"), std::string::npos) << out;
    EXPECT_NE(out.find("listening on http://0.0.0.0:"), std::string::npos) << out;
  }
  std::filesystem::remove(key);
}

}  // namespace
}  // namespace sotto::cloud::test
