// SPDX-License-Identifier: MIT
// sottod's control API: a Unix stream socket in the runtime directory (<paths.runtime-dir>/control), one command
// line per connection, one reply line. What a device's other software (a button handler, an app bridge) needs
// without the microphone: the status line, the answer in progress, and stopping an answer by its id.
#pragma once

#include <poll.h>

#include <cstdint>
#include <span>
#include <vector>
#include <string>
#include <string_view>

#include "sotto/hal/result.h"

namespace sotto::app {

// What the commands act on (the running pipeline; a fake in tests). Control thread.
class ControlTarget {
 public:
  virtual ~ControlTarget() = default;
  virtual std::string status() = 0;
  // The id of the answer being computed or spoken (as in the answer[...] log lines), 0 when none.
  virtual uint64_t currentAnswer() = 0;
  // Stops answer `id` if it is still in progress; false when it is over or never started.
  virtual bool cancelAnswer(uint64_t id) = 0;
};

// The protocol, apart from the socket (tests call it directly). Commands, case-insensitive, surrounding space
// ignored:
//   status       -> "ok <status line>"
//   answer       -> "ok answer <id>" or "ok answer none"
//   cancel       -> cancels the answer in progress: "ok cancelled <id>" or "error: no answer in progress"
//   cancel <id>  -> "ok cancelled <id>" or "error: answer <id> is not in progress"
// Anything else: "error: ..." naming the commands. No reply holds a newline.
std::string handleControlCommand(std::string_view line, ControlTarget& target);

// The listening socket and the connections waiting for their line. Every connection has its own 200 ms to send
// one; they are read side by side, so silent clients never hold the others up (ten silent connections once delayed
// `sotto control status` by two seconds, when connections were served one after another). Nothing here blocks.
// Threads: create(), pollFds(), msUntilNextDeadline(), serve() and the destructor from the control thread only.
class ControlSocket {
 public:
  static constexpr std::size_t kMaxWaiting = 16;  // connections waiting for their line; the oldest gives way
  static constexpr std::size_t kMaxPollFds = kMaxWaiting + 1;
  static constexpr int kLineWaitMs = 200;

  // Binds `path` (a stale socket file left by a killed daemon is replaced; any other file there is an error),
  // mode 0660. Errors: the path too long for a socket address, the directory missing or not writable.
  static Result<ControlSocket> create(const std::string& path);
  ControlSocket(ControlSocket&& other) noexcept;
  ControlSocket& operator=(ControlSocket&& other) noexcept;
  ControlSocket(const ControlSocket&) = delete;
  ControlSocket& operator=(const ControlSocket&) = delete;
  ~ControlSocket();  // closes every connection, closes and removes the socket file

  int fd() const noexcept { return fd_; }  // the listening socket
  const std::string& path() const noexcept { return path_; }
  // The descriptors to poll() for POLLIN: the listening socket, then every waiting connection. Writes at most
  // out.size() (kMaxPollFds is enough) and returns how many.
  std::size_t pollFds(std::span<pollfd> out) const noexcept;
  // The poll timeout that wakes the caller for the next waiting connection's deadline (-1: none waits).
  int msUntilNextDeadline() const noexcept;
  // Accepts every connection waiting (a full set drops its oldest with an error), reads what arrived on each,
  // answers every whole line, every command over 255 bytes and every connection whose 200 ms are up, and closes
  // those. Call it after each poll(), whatever woke it. Returns how many connections were answered.
  std::size_t serve(ControlTarget& target);

 private:
  struct Waiting {
    int fd = -1;
    uint64_t deadlineNs = 0;
    std::size_t len = 0;
    char buf[256];
  };
  ControlSocket(int fd, std::string path) : fd_(fd), path_(std::move(path)) {}
  void answer(Waiting& w, const std::string& reply);
  void closeAll() noexcept;
  int fd_ = -1;
  std::string path_;
  std::vector<Waiting> waiting_;  // at most kMaxWaiting, oldest first
};

}  // namespace sotto::app
