// SPDX-License-Identifier: MIT
// sottod's control API: the command protocol on a fake target, and the socket end to end (bind, stale socket,
// one line per connection, silent and over-long clients).
#include <gtest/gtest.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "app/sottod/control.h"

namespace {

using sotto::app::ControlSocket;
using sotto::app::handleControlCommand;

class FakeTarget final : public sotto::app::ControlTarget {
 public:
  std::string status() override { return "listening\n(3 answers)"; }
  uint64_t currentAnswer() override { return current; }
  bool cancelAnswer(uint64_t id) override {
    asked = id;
    if (id == 0 || id != current) return false;
    current = 0;
    return true;
  }
  uint64_t current = 0, asked = 0;
};

TEST(Control, Commands) {
  FakeTarget t;
  EXPECT_EQ(handleControlCommand("status", t), "ok listening (3 answers)");  // one line, always
  EXPECT_EQ(handleControlCommand("  ANSWER \r", t), "ok answer none");
  EXPECT_EQ(handleControlCommand("cancel", t), "error: no answer in progress");
  t.current = 7;
  EXPECT_EQ(handleControlCommand("answer", t), "ok answer 7");
  EXPECT_EQ(handleControlCommand("cancel 6", t), "error: answer 6 is not in progress");
  EXPECT_EQ(t.asked, 6u);
  EXPECT_EQ(t.current, 7u) << "an id never cancels another answer";
  EXPECT_EQ(handleControlCommand("cancel 7", t), "ok cancelled 7");
  EXPECT_EQ(t.current, 0u);
  t.current = 9;
  EXPECT_EQ(handleControlCommand("cancel", t), "ok cancelled 9");
  EXPECT_EQ(handleControlCommand("cancel -1", t).rfind("error: cancel wants an answer id", 0), 0u);
  EXPECT_EQ(handleControlCommand("cancel 99999999999999999999", t).rfind("error:", 0), 0u);
  EXPECT_EQ(handleControlCommand("reboot", t), "error: unknown command 'reboot'; commands: status, answer, cancel [ID]");
  EXPECT_EQ(handleControlCommand("", t).rfind("error: empty command", 0), 0u);
  const std::string bad = handleControlCommand(std::string("x\x01\x7f") + std::string(60, 'y'), t);
  EXPECT_EQ(bad.find('\x01'), std::string::npos) << "the client's bytes are never echoed raw";
}

std::string tempDir() {
  char tmpl[] = "/tmp/sotto-control-XXXXXX";
  const char* d = mkdtemp(tmpl);
  return d ? d : "";
}

// A connected client that has sent `request` (as is) and not yet read its reply.
int connectAndSend(const std::string& path, const std::string& request) {
  const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
  sockaddr_un a{};
  a.sun_family = AF_UNIX;
  std::strncpy(a.sun_path, path.c_str(), sizeof a.sun_path - 1);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
    ::close(fd);
    return -1;
  }
  if (!request.empty()) (void)!::write(fd, request.data(), request.size());
  return fd;
}

std::string readReply(int fd) {
  std::string out;
  char buf[512];
  ssize_t n;
  while ((n = ::read(fd, buf, sizeof buf)) > 0) out.append(buf, static_cast<size_t>(n));
  ::close(fd);
  return out;
}

// Connects, sends `request` (as is), reads the reply until the daemon closes.
std::string ask(const std::string& path, const std::string& request, bool send = true) {
  const int fd = connectAndSend(path, send ? request : std::string());
  return fd < 0 ? "connect failed" : readReply(fd);
}

// Issue 36: ten silent connections delayed `sotto control status` by two seconds (each was given its 200 ms in
// turn). Connections are now read side by side: a whole line is answered in the same pass that accepts it, while
// the silent ones still wait; past sixteen waiting, the oldest gives way.
TEST(Control, SilentConnectionsNeverHoldUpTheOthers) {
  const std::string dir = tempDir();
  ASSERT_FALSE(dir.empty());
  const std::string path = dir + "/control";
  FakeTarget t;
  auto s = ControlSocket::create(path);
  ASSERT_TRUE(s.ok()) << s.error().message;
  std::vector<int> silent;
  for (int i = 0; i < 10; ++i) silent.push_back(connectAndSend(path, ""));
  const int status = connectAndSend(path, "status\n");
  ASSERT_GE(status, 0);
  EXPECT_EQ(s->serve(t), 1u) << "the status request is answered at once";
  EXPECT_EQ(readReply(status), "ok listening (3 answers)\n");
  pollfd fds[ControlSocket::kMaxPollFds];
  EXPECT_EQ(s->pollFds(fds), 11u) << "the listening socket and the ten silent connections";
  EXPECT_GE(s->msUntilNextDeadline(), 0);
  EXPECT_LE(s->msUntilNextDeadline(), ControlSocket::kLineWaitMs);
  // Seven more: the set holds sixteen, so the oldest silent one is answered and let go.
  for (int i = 0; i < 7; ++i) silent.push_back(connectAndSend(path, ""));
  EXPECT_EQ(s->serve(t), 1u);
  EXPECT_EQ(readReply(silent.front()), "error: too many connections waiting; try again\n");
  silent.erase(silent.begin());
  // The rest get their error once their 200 ms are up.
  size_t answered = 0;
  while (answered < silent.size()) {
    answered += s->serve(t);
    ::usleep(5000);
  }
  for (int fd : silent) EXPECT_EQ(readReply(fd), "error: no command within 200 ms\n");
  EXPECT_EQ(s->msUntilNextDeadline(), -1);
  (void)!std::system(("rm -rf " + dir).c_str());
}

TEST(Control, SocketAnswersOneLinePerConnection) {
  const std::string dir = tempDir();
  ASSERT_FALSE(dir.empty());
  const std::string path = dir + "/control";
  FakeTarget t;
  t.current = 4;
  {
    auto s = ControlSocket::create(path);
    ASSERT_TRUE(s.ok()) << s.error().message;
    struct stat st {};
    ASSERT_EQ(::stat(path.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0660u);
    EXPECT_EQ(s->serve(t), 0u) << "nobody waiting: returns at once";
    std::string reply;
    std::thread client([&] { reply = ask(path, "cancel 4\n"); });
    while (s->serve(t) == 0) ::usleep(1000);
    client.join();
    EXPECT_EQ(reply, "ok cancelled 4\n");
    // A client that says nothing is dropped with an error; one without a newline that closes its side is read.
    std::thread silent([&] { reply = ask(path, "", false); });
    while (s->serve(t) == 0) ::usleep(1000);
    silent.join();
    EXPECT_EQ(reply, "error: no command within 200 ms\n");
    std::thread longer([&] { reply = ask(path, std::string(300, 'a')); });
    while (s->serve(t) == 0) ::usleep(1000);
    longer.join();
    EXPECT_EQ(reply, "error: command longer than 255 bytes\n");
  }
  struct stat gone {};
  EXPECT_NE(::stat(path.c_str(), &gone), 0) << "the socket file goes with the daemon";
  // A socket left by a killed daemon is replaced; a regular file in the way is not.
  {
    auto first = ControlSocket::create(path);
    ASSERT_TRUE(first.ok());
    const int leaked = ::dup(first->fd());  // as if the process died without its destructor
    std::string kept = path + ".kept";
    ASSERT_EQ(::link(path.c_str(), kept.c_str()), 0);
    first = ControlSocket::create(dir + "/other");  // destroys the first (unlinks path)
    ASSERT_EQ(::rename(kept.c_str(), path.c_str()), 0);
    auto again = ControlSocket::create(path);
    EXPECT_TRUE(again.ok()) << (again.ok() ? "" : again.error().message);
    ::close(leaked);
  }
  {
    FILE* f = std::fopen((dir + "/file").c_str(), "w");
    ASSERT_NE(f, nullptr);
    std::fclose(f);
    auto blocked = ControlSocket::create(dir + "/file");
    ASSERT_FALSE(blocked.ok());
    EXPECT_NE(blocked.error().message.find("not a socket"), std::string::npos);
    auto tooLong = ControlSocket::create(dir + "/" + std::string(200, 'x'));
    ASSERT_FALSE(tooLong.ok());
    auto noDir = ControlSocket::create(dir + "/missing/control");
    ASSERT_FALSE(noDir.ok());
    EXPECT_NE(noDir.error().message.find("cannot listen"), std::string::npos);
  }
  (void)!std::system(("rm -rf " + dir).c_str());
}

}  // namespace
