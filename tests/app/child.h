// SPDX-License-Identifier: MIT
// Test helper: run one of our binaries as a child (through qemu in cross builds) and talk to it over
// a private NOTIFY_SOCKET, as systemd would.
#pragma once

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

namespace sotto::test {

// Under qemu everything is slower, and sanitizers slow our binaries several-fold on a loaded CI
// machine; timeouts that bound a property scale with it.
#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
inline constexpr int kSanitizerFactor = 3;
#else
inline constexpr int kSanitizerFactor = 1;
#endif
inline bool underEmulator() { return !std::string(SOTTO_TEST_EMULATOR).empty(); }
inline int slowFactor() { return (underEmulator() ? 10 : 1) * kSanitizerFactor; }
inline std::chrono::milliseconds scaled(std::chrono::milliseconds ms) { return ms * slowFactor(); }

// Start-up (model and acoustic-model loading) is not what these tests measure: wait generously,
// it costs nothing when READY comes early.
inline std::chrono::milliseconds readyTimeout() { return std::chrono::milliseconds(60000) * slowFactor(); }

// Our binaries run through the emulator in cross builds; host tools (file, systemd-analyze) never do.
inline std::vector<std::string> commandFor(const std::string& binary, const std::vector<std::string>& args,
                                           bool ours = true) {
  std::vector<std::string> argv;
  std::istringstream emu(ours ? SOTTO_TEST_EMULATOR : "");
  for (std::string w; emu >> w;) argv.push_back(w);
  argv.push_back(binary);
  argv.insert(argv.end(), args.begin(), args.end());
  return argv;
}

// Runs to completion, capturing stdout+stderr.
inline int runCapture(const std::string& binary, const std::vector<std::string>& args, std::string& output,
                      bool ours = true) {
  auto argv = commandFor(binary, args, ours);
  int pipefd[2];
  if (pipe(pipefd) != 0) return -1;
  pid_t pid = fork();
  if (pid == 0) {
    dup2(pipefd[1], 1);
    dup2(pipefd[1], 2);
    close(pipefd[0]);
    std::vector<char*> cargv;
    for (auto& a : argv) cargv.push_back(a.data());
    cargv.push_back(nullptr);
    execv(cargv[0], cargv.data());
    _exit(127);
  }
  close(pipefd[1]);
  output.clear();
  char buf[4096];
  ssize_t n;
  while ((n = read(pipefd[0], buf, sizeof buf)) > 0) output.append(buf, static_cast<size_t>(n));
  close(pipefd[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// A daemon child with its own notify socket; stderr goes to a file the test can read.
class DaemonChild {
 public:
  DaemonChild() {
    char tmpl[] = "/tmp/sotto-test-XXXXXX";
    dir_ = mkdtemp(tmpl);
    sockPath_ = dir_ + "/notify";
    sock_ = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::strncpy(addr.sun_path, sockPath_.c_str(), sizeof addr.sun_path - 1);
    bind(sock_, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
  }
  ~DaemonChild() {
    if (pid_ > 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
    close(sock_);
    std::string cmd = "rm -rf '" + dir_ + "'";
    [[maybe_unused]] int rc = std::system(cmd.c_str());
  }
  const std::string& dir() const { return dir_; }

  // watchdogUsec 0: no watchdog.
  void start(const std::vector<std::string>& args, uint64_t watchdogUsec = 0) {
    auto argv = commandFor(SOTTOD_PATH, args);
    std::string logPath = dir_ + "/stderr.log";
    pid_ = fork();
    if (pid_ == 0) {
      int fd = open(logPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
      dup2(fd, 2);
      setenv("NOTIFY_SOCKET", sockPath_.c_str(), 1);
      unsetenv("JOURNAL_STREAM");
      if (watchdogUsec > 0) {
        setenv("WATCHDOG_USEC", std::to_string(watchdogUsec).c_str(), 1);
        setenv("WATCHDOG_PID", std::to_string(getpid()).c_str(), 1);
      }
      std::vector<char*> cargv;
      for (auto& a : argv) cargv.push_back(a.data());
      cargv.push_back(nullptr);
      execv(cargv[0], cargv.data());
      _exit(127);
    }
  }

  // Next datagram within timeout, "" on timeout.
  std::string receive(std::chrono::milliseconds timeout) {
    pollfd p{sock_, POLLIN, 0};
    if (poll(&p, 1, static_cast<int>(timeout.count())) <= 0) return "";
    char buf[4096];
    ssize_t n = recv(sock_, buf, sizeof buf, 0);
    return n > 0 ? std::string(buf, static_cast<size_t>(n)) : "";
  }
  // Reads datagrams until one contains `needle` (returns it) or the timeout passes ("").
  std::string waitFor(const std::string& needle, std::chrono::milliseconds timeout) {
    auto end = std::chrono::steady_clock::now() + timeout;
    while (std::chrono::steady_clock::now() < end) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(end - std::chrono::steady_clock::now());
      std::string m = receive(left);
      seen_.push_back(m);
      if (m.find(needle) != std::string::npos) return m;
    }
    return "";
  }
  // Counts datagrams containing `needle` over a period.
  int count(const std::string& needle, std::chrono::milliseconds period) {
    int n = 0;
    auto end = std::chrono::steady_clock::now() + period;
    while (std::chrono::steady_clock::now() < end) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(end - std::chrono::steady_clock::now());
      std::string m = receive(left);
      if (m.find(needle) != std::string::npos) ++n;
    }
    return n;
  }
  void signal(int sig) { kill(pid_, sig); }
  // Exit status, or -1 if still running after timeout (then killed).
  int wait(std::chrono::milliseconds timeout) {
    auto end = std::chrono::steady_clock::now() + timeout;
    int status = 0;
    while (std::chrono::steady_clock::now() < end) {
      pid_t r = waitpid(pid_, &status, WNOHANG);
      if (r == pid_) {
        pid_ = -1;
        return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      }
      usleep(10000);
    }
    return -1;
  }
  std::string stderrText() const {
    std::string out;
    FILE* f = std::fopen((dir_ + "/stderr.log").c_str(), "r");
    if (!f) return out;
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
    std::fclose(f);
    return out;
  }
  // Arguments that keep the daemon's files inside the test directory.
  std::vector<std::string> baseArgs() const {
    return {"--config", std::string(SOTTO_SOURCE_DIR) + "/config/sotto.xml",
            "--set", "paths.state-dir=" + dir_ + "/state",
            "--set", "paths.runtime-dir=" + dir_ + "/run",
            "--set", "paths.log-dir=" + dir_ + "/log",
            "--set", "threads.mlockall=false"};
  }

 private:
  std::string dir_, sockPath_;
  int sock_ = -1;
  pid_t pid_ = -1;
  std::vector<std::string> seen_;
};

}  // namespace sotto::test
