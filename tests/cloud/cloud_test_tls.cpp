// SPDX-License-Identifier: MIT
// TLS certificate verification and mTLS against a real TLS server (openssl s_server on loopback, certificates
// made at test time): an untrusted or mismatched certificate is refused before any request byte leaves.
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <vector>

#include "tests/cloud/cloud_test_util.h"

namespace sotto::cloud::test {
namespace {

uint16_t freePort() {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
  getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
  close(fd);
  return ntohs(a.sin_port);
}

// A directory of certificates and one `openssl s_server` on it, killed at the end.
class TlsServer {
 public:
  TlsServer() {
    char tmpl[] = "/tmp/sotto-tls-XXXXXX";
    dir_ = mkdtemp(tmpl);
  }
  ~TlsServer() {
    stop();
    [[maybe_unused]] const int rc = std::system(("rm -rf '" + dir_ + "'").c_str());
  }
  std::string path(const std::string& name) const { return dir_ + "/" + name; }
  // A self-signed certificate + key NAME.pem / NAME.key for subject alternative name `san`.
  bool makeCert(const std::string& name, const std::string& san) {
    const std::string cmd = "openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout '" +
                            path(name + ".key") + "' -out '" + path(name + ".pem") +
                            "' -days 2 -subj /CN=sotto-test -addext subjectAltName=" + san + " >/dev/null 2>&1";
    return std::system(cmd.c_str()) == 0;
  }
  // Starts s_server with cert NAME; `extra` adds options (client verification). True once it accepts.
  bool start(const std::string& name, const std::vector<std::string>& extra = {}) {
    port_ = freePort();
    std::vector<std::string> args = {"/usr/bin/openssl", "s_server", "-accept", "127.0.0.1:" + std::to_string(port_),
                                     "-cert", path(name + ".pem"), "-key", path(name + ".key"), "-www"};
    args.insert(args.end(), extra.begin(), extra.end());
    int out[2];
    if (pipe(out) != 0) return false;
    pid_ = fork();
    if (pid_ == 0) {
      dup2(out[1], 1);
      dup2(out[1], 2);
      close(out[0]);
      std::vector<char*> argv;
      for (auto& a : args) argv.push_back(a.data());
      argv.push_back(nullptr);
      execv(argv[0], argv.data());
      _exit(127);
    }
    close(out[1]);
    std::string seen;
    const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (seen.find("ACCEPT") == std::string::npos && std::chrono::steady_clock::now() < end) {
      pollfd p{out[0], POLLIN, 0};
      if (poll(&p, 1, 200) <= 0) continue;
      char buf[256];
      const ssize_t n = read(out[0], buf, sizeof buf);
      if (n <= 0) break;
      seen.append(buf, static_cast<size_t>(n));
    }
    outFd_ = out[0];
    return seen.find("ACCEPT") != std::string::npos;
  }
  void stop() {
    if (pid_ > 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
      pid_ = -1;
    }
    if (outFd_ >= 0) close(outFd_);
    outFd_ = -1;
  }
  ClientOptions client() const {
    ClientOptions o;
    o.endpoint = "https://127.0.0.1:" + std::to_string(port_);
    o.connectTimeoutMs = 3000u * static_cast<uint32_t>(sotto::test::slowFactor());
    o.firstByteTimeoutMs = o.idleTimeoutMs = o.connectTimeoutMs;
    return o;
  }

 private:
  std::string dir_;
  uint16_t port_ = 0;
  pid_t pid_ = -1;
  int outFd_ = -1;
};

ChatOutcome ask(const ClientOptions& o) {
  auto c = CloudClient::create(o);
  EXPECT_TRUE(c) << c.error().message;
  if (!c) return {};
  Collect sink;
  return (*c)->chat(storyRequest(), sink);
}

TEST(CloudTls, VerifiesTheServerCertificate) {
  TlsServer tls;
  ASSERT_TRUE(tls.makeCert("server", "IP:127.0.0.1")) << "openssl req failed";
  ASSERT_TRUE(tls.makeCert("other", "IP:127.0.0.1"));
  ASSERT_TRUE(tls.makeCert("wrongname", "DNS:elsewhere.example"));
  ASSERT_TRUE(tls.start("server")) << "openssl s_server did not start";

  // The system bundle does not trust a self-signed server: refused in the handshake, no request byte sent.
  ChatOutcome o = ask(tls.client());
  EXPECT_EQ(o.error, CloudErrc::tls) << o.message;
  EXPECT_FALSE(o.requestSent);
  EXPECT_EQ(o.toError().code, Errc::permission);

  // A configured CA that did not sign it: refused too.
  ClientOptions other = tls.client();
  other.caFile = tls.path("other.pem");
  o = ask(other);
  EXPECT_EQ(o.error, CloudErrc::tls) << o.message;
  EXPECT_FALSE(o.requestSent);

  // A CA file that is not a certificate at all.
  ClientOptions junk = tls.client();
  junk.caFile = tls.path("server.key");
  o = ask(junk);
  EXPECT_EQ(o.error, CloudErrc::tls) << o.message;
  EXPECT_FALSE(o.requestSent);

  // Trusting exactly the server's certificate: the handshake succeeds and the request goes out (s_server -www
  // never answers a POST, so it then ends in the first-byte timeout, not a TLS failure).
  ClientOptions good = tls.client();
  good.caFile = tls.path("server.pem");
  good.firstByteTimeoutMs = 300u * static_cast<uint32_t>(sotto::test::slowFactor());
  o = ask(good);
  EXPECT_EQ(o.error, CloudErrc::firstByteTimeout) << o.message;
  EXPECT_TRUE(o.requestSent) << o.message;
  EXPECT_FALSE(o.ok());
  tls.stop();

  // The right CA but a certificate for another host name: refused.
  ASSERT_TRUE(tls.start("wrongname"));
  ClientOptions mismatch = tls.client();
  mismatch.caFile = tls.path("wrongname.pem");
  o = ask(mismatch);
  EXPECT_EQ(o.error, CloudErrc::tls) << o.message;
  EXPECT_FALSE(o.requestSent);
}

TEST(CloudTls, MutualTls) {
  TlsServer tls;
  ASSERT_TRUE(tls.makeCert("server", "IP:127.0.0.1"));
  ASSERT_TRUE(tls.makeCert("device", "DNS:device.sotto"));
  // The server demands a client certificate signed by device.pem (self-signed: itself).
  ASSERT_TRUE(tls.start("server", {"-Verify", "1", "-CAfile", tls.path("device.pem"), "-verify_return_error"}));
  ClientOptions o = tls.client();
  o.caFile = tls.path("server.pem");
  const ChatOutcome without = ask(o);
  EXPECT_FALSE(without.ok());
  EXPECT_EQ(without.error, CloudErrc::tls) << without.message;
  EXPECT_EQ(without.httpStatus, 0);

  o.clientCertFile = tls.path("device.pem");
  o.clientKeyFile = tls.path("device.key");
  o.firstByteTimeoutMs = 300u * static_cast<uint32_t>(sotto::test::slowFactor());
  const ChatOutcome with = ask(o);
  EXPECT_EQ(with.error, CloudErrc::firstByteTimeout) << with.message;
  EXPECT_TRUE(with.requestSent) << with.message;
}

}  // namespace
}  // namespace sotto::cloud::test
