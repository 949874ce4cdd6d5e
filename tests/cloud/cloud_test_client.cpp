// SPDX-License-Identifier: MIT
// The cloud client against the real loopback server (in-process, ephemeral port): a normal streamed answer, every
// injected fault ending in its typed error within the timeout, cancellation, and the URL rules.
#include <fcntl.h>
#include <sys/stat.h>

#include <fstream>
#include <thread>

#include "engine/cloud/json.h"
#include "tests/cloud/cloud_test_util.h"

namespace sotto::cloud::test {
namespace {

ChatOutcome askWith(ServerFault fault, ClientOptions tweak(ClientOptions), Collect& sink,
                    const pipeline::CancelToken* cancel = nullptr) {
  auto server = startServer(fault);
  EXPECT_NE(server, nullptr);
  if (!server) return {};
  auto client = CloudClient::create(tweak(clientFor(server->port())));
  EXPECT_TRUE(client);
  if (!client) return {};
  return (*client)->chat(storyRequest(), sink, cancel);
}

ClientOptions asIs(ClientOptions o) { return o; }

TEST(CloudClient, StreamsTheLocalModelsGreedyAnswer) {
  auto server = startServer();
  ASSERT_NE(server, nullptr) << "cannot load " << kStories;
  auto client = CloudClient::create(clientFor(server->port()));
  ASSERT_TRUE(client) << client.error().message;
  EXPECT_EQ((*client)->url(), "http://127.0.0.1:" + std::to_string(server->port()) + "/v1/chat/completions");
  Collect sink;
  const ChatOutcome o = (*client)->chat(storyRequest(20), sink);
  ASSERT_TRUE(o.ok()) << cloudErrcName(o.error) << ": " << o.message;
  EXPECT_EQ(sink.text, kStory20);  // what `sotto generate ... -n 20 --temp 0` prints
  EXPECT_GT(sink.calls, 5u);       // streamed piece by piece, not in one block
  EXPECT_EQ(o.deltas, sink.calls);
  EXPECT_EQ(o.finishReason, "length");
  EXPECT_EQ(o.httpStatus, 200);
  EXPECT_TRUE(o.requestSent);
  EXPECT_GE(o.firstDeltaMs, o.firstByteMs);
  // The server received exactly the bytes the client reports (what the audit log records).
  const auto bodies = server->receivedBodies();
  ASSERT_EQ(bodies.size(), 1u);
  EXPECT_EQ(bodies[0], o.requestBody);
  EXPECT_EQ(o.requestBody, buildChatRequestBody(storyRequest(20)));
  // The same client again (its curl handle is reused): the same greedy answer.
  Collect repeat;
  const ChatOutcome again0 = (*client)->chat(storyRequest(20), repeat);
  ASSERT_TRUE(again0.ok()) << again0.message;
  EXPECT_EQ(repeat.text, kStory20);

  // A second request on the same client and server; an endpoint ending in /v1 gives the same URL.
  ClientOptions v1 = clientFor(server->port());
  v1.endpoint += "/v1/";
  auto client2 = CloudClient::create(v1);
  ASSERT_TRUE(client2);
  EXPECT_EQ((*client2)->url(), (*client)->url());
  Collect again;
  ChatRequest shortReq = storyRequest(4);
  shortReq.messages.insert(shortReq.messages.begin(), ChatMessage{"system", ""});
  const ChatOutcome o2 = (*client2)->chat(shortReq, again);
  ASSERT_TRUE(o2.ok()) << o2.message;
  EXPECT_FALSE(again.text.empty());
}

TEST(CloudClient, DelayBeyondFirstByteTimeout) {
  Collect sink;
  const auto t0 = std::chrono::steady_clock::now();
  const ChatOutcome o = askWith({ServerFault::Kind::delay, 5000}, [](ClientOptions c) {
    c.firstByteTimeoutMs = 300;
    return c;
  }, sink);
  EXPECT_EQ(o.error, CloudErrc::firstByteTimeout) << o.message;
  EXPECT_LT(msSince(t0), 300.0 + 1500.0 * sotto::test::slowFactor());
  EXPECT_TRUE(o.requestSent);
  EXPECT_EQ(sink.text, "");
}

TEST(CloudClient, DelayWithinFirstByteTimeoutIsFine) {
  Collect sink;
  const ChatOutcome o = askWith({ServerFault::Kind::delay, 200}, asIs, sink);
  EXPECT_TRUE(o.ok()) << o.message;
  EXPECT_EQ(sink.text, kStory20);
  EXPECT_GE(o.firstByteMs, 190.0);
}

TEST(CloudClient, HttpErrorStatus) {
  for (uint32_t code : {500u, 429u}) {
    Collect sink;
    const ChatOutcome o = askWith({ServerFault::Kind::error, code}, asIs, sink);
    EXPECT_EQ(o.error, CloudErrc::httpStatus);
    EXPECT_EQ(o.httpStatus, static_cast<long>(code));
    EXPECT_EQ(o.message, "HTTP " + std::to_string(code) + ": injected fault");
    EXPECT_EQ(sink.text, "");
    EXPECT_EQ(o.toError().code, Errc::io);
  }
}

TEST(CloudClient, GarbageIsInvalidJson) {
  Collect sink;
  const ChatOutcome o = askWith({ServerFault::Kind::garbage, 0}, asIs, sink);
  EXPECT_EQ(o.error, CloudErrc::invalidJson) << o.message;
  EXPECT_EQ(sink.text, "Once");  // what came before the garbage was delivered, nothing after
}

TEST(CloudClient, MidStreamDisconnect) {
  Collect sink;
  const ChatOutcome o = askWith({ServerFault::Kind::disconnect, 3}, asIs, sink);
  EXPECT_EQ(o.error, CloudErrc::disconnected) << o.message;
  EXPECT_EQ(o.deltas, 3u);
  EXPECT_EQ(sink.calls, 3u);
  EXPECT_EQ(kStory20.rfind(sink.text, 0), 0u) << sink.text;  // a prefix of the answer
}

TEST(CloudClient, StallEndsInIdleTimeout) {
  Collect sink;
  const auto t0 = std::chrono::steady_clock::now();
  const ChatOutcome o = askWith({ServerFault::Kind::stall, 0}, [](ClientOptions c) {
    c.idleTimeoutMs = 300;
    return c;
  }, sink);
  const double ms = msSince(t0);
  EXPECT_EQ(o.error, CloudErrc::idleTimeout) << o.message;
  EXPECT_GE(ms, 300.0);
  EXPECT_LT(ms, 300.0 + 1500.0 * sotto::test::slowFactor());
  EXPECT_EQ(o.httpStatus, 200);
}

TEST(CloudClient, EndlessLineIsBounded) {
  Collect sink;
  const ChatOutcome o = askWith({ServerFault::Kind::endlessLine, 0}, [](ClientOptions c) {
    c.limits.sse.maxLineBytes = 64 << 10;
    return c;
  }, sink);
  EXPECT_EQ(o.error, CloudErrc::lineTooLong) << o.message;
  // It stopped reading soon after the limit (curl hands over at most a buffer or two more).
  EXPECT_LT(o.bytesReceived, size_t{1} << 20);
}

TEST(CloudClient, CancelWithinFiftyMilliseconds) {
  auto server = startServer({ServerFault::Kind::stall, 0});
  ASSERT_NE(server, nullptr);
  auto client = CloudClient::create(clientFor(server->port()));
  ASSERT_TRUE(client);
  pipeline::CancelToken cancel;
  std::chrono::steady_clock::time_point cancelledAt;
  std::thread barge([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(150));
    cancelledAt = std::chrono::steady_clock::now();
    cancel.cancel();
  });
  Collect sink;
  const ChatOutcome o = (*client)->chat(storyRequest(), sink, &cancel);
  const double after = msSince(cancelledAt);
  barge.join();
  EXPECT_EQ(o.error, CloudErrc::cancelled) << o.message;
  EXPECT_LT(after, 50.0 * sotto::test::slowFactor());
  // Already cancelled: nothing is sent at all.
  const ChatOutcome o2 = (*client)->chat(storyRequest(), sink, &cancel);
  EXPECT_EQ(o2.error, CloudErrc::cancelled);
  EXPECT_FALSE(o2.requestSent);
}

TEST(CloudClient, ConnectionRefused) {
  uint16_t port = 0;
  {
    auto server = startServer();
    ASSERT_NE(server, nullptr);
    port = server->port();
  }  // stopped and closed: nothing listens there now
  auto client = CloudClient::create(clientFor(port));
  ASSERT_TRUE(client);
  Collect sink;
  const ChatOutcome o = (*client)->chat(storyRequest(), sink);
  EXPECT_EQ(o.error, CloudErrc::connect) << o.message;
  EXPECT_FALSE(o.requestSent);
}

TEST(CloudClient, PlainHttpOnlyToLoopback) {
  for (const char* url : {"http://example.com", "http://10.0.0.1:8080", "http://127.0.0.1.evil.example/v1",
                          "http://[2001:db8::1]:80", "http://localhost.example.com"}) {
    ClientOptions o;
    o.endpoint = url;
    auto c = CloudClient::create(o);
    ASSERT_FALSE(c) << url;
    EXPECT_EQ(c.error().code, Errc::permission) << url;
  }
  for (const char* url : {"http://127.0.0.1:1", "http://localhost:1/v1", "http://[::1]:1", "http://127.1.2.3:1"}) {
    ClientOptions o;
    o.endpoint = url;
    EXPECT_TRUE(CloudClient::create(o)) << url;
  }
  for (const char* url : {"ftp://example.com", "file:///etc/passwd", "not a url", "https://example.com/v1?x=1", ""}) {
    ClientOptions o;
    o.endpoint = url;
    auto c = CloudClient::create(o);
    ASSERT_FALSE(c) << url;
    EXPECT_EQ(c.error().code, Errc::invalid_argument) << url;
  }
  EXPECT_TRUE(isLoopbackHost("[::1]"));
  EXPECT_TRUE(isLoopbackHost("::ffff:127.0.0.1"));
  EXPECT_FALSE(isLoopbackHost("::ffff:10.0.0.1"));
  EXPECT_FALSE(isLoopbackHost("128.0.0.1"));
}

TEST(CloudClient, SettingsFilesAreChecked) {
  char dirTmpl[] = "/tmp/sotto-cloud-XXXXXX";
  const std::string dir = mkdtemp(dirTmpl);
  const auto write = [&](const std::string& name, const std::string& text) {
    std::ofstream(dir + "/" + name) << text;
    return dir + "/" + name;
  };
  ClientOptions o;
  o.endpoint = "https://api.example.com";
  o.apiKeyFile = dir + "/missing";
  EXPECT_EQ(CloudClient::create(o).error().code, Errc::not_found);
  o.apiKeyFile = write("empty", "\n");
  EXPECT_EQ(CloudClient::create(o).error().code, Errc::invalid_argument);
  o.apiKeyFile = write("two", "sk-one\r\nX-Evil: 1\n");  // header injection
  EXPECT_EQ(CloudClient::create(o).error().code, Errc::invalid_argument);
  o.apiKeyFile = write("good", "sk-test-123\n");
  EXPECT_TRUE(CloudClient::create(o));
  o.caFile = dir + "/no-ca.pem";
  EXPECT_EQ(CloudClient::create(o).error().code, Errc::not_found);
  o.caFile.clear();
  o.clientCertFile = o.apiKeyFile;  // a cert without its key
  EXPECT_EQ(CloudClient::create(o).error().code, Errc::invalid_argument);
  [[maybe_unused]] const int rc = std::system(("rm -rf '" + dir + "'").c_str());
}

TEST(LoopbackServer, ParsesFaultsAndRefusesRemoteBind) {
  EXPECT_EQ(parseServerFault("delay:250")->value, 250u);
  EXPECT_EQ(parseServerFault("error:429")->kind, ServerFault::Kind::error);
  EXPECT_EQ(parseServerFault("disconnect:0")->kind, ServerFault::Kind::disconnect);
  EXPECT_EQ(parseServerFault("stall")->kind, ServerFault::Kind::stall);
  EXPECT_EQ(parseServerFault("endless-line")->kind, ServerFault::Kind::endlessLine);
  EXPECT_EQ(parseServerFault("")->kind, ServerFault::Kind::none);
  for (const char* bad : {"delay", "delay:x", "error:200", "error:600", "garbage:1", "explode"})
    EXPECT_FALSE(parseServerFault(bad)) << bad;
  Engine& e = Engine::get();
  ASSERT_NE(e.generator, nullptr);
  ServerOptions so;
  so.bind = "0.0.0.0";
  auto s = LoopbackServer::start(*e.generator, *e.model, so);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code, Errc::permission);
}

}  // namespace
}  // namespace sotto::cloud::test
