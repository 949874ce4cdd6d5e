// SPDX-License-Identifier: MIT
// sottod's control API: a Unix stream socket in the runtime directory (<paths.runtime-dir>/control), one command
// line per connection, one reply line. What a device's other software (a button handler, an app bridge) needs
// without the microphone: the status line, the answer in progress, and stopping an answer by its id.
#pragma once

#include <cstdint>
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

// The listening socket. Threads: create(), serveOne() and the destructor from the control thread only.
class ControlSocket {
 public:
  // Binds `path` (a stale socket file left by a killed daemon is replaced; any other file there is an error),
  // mode 0660. Errors: the path too long for a socket address, the directory missing or not writable.
  static Result<ControlSocket> create(const std::string& path);
  ControlSocket(ControlSocket&& other) noexcept;
  ControlSocket& operator=(ControlSocket&& other) noexcept;
  ControlSocket(const ControlSocket&) = delete;
  ControlSocket& operator=(const ControlSocket&) = delete;
  ~ControlSocket();  // closes and removes the socket file

  int fd() const noexcept { return fd_; }  // poll() it for POLLIN
  const std::string& path() const noexcept { return path_; }
  // Accepts one waiting connection (non-blocking: false when none), reads its line for at most 200 ms (a client
  // that sends nothing is dropped), answers and closes. The control thread is never held longer than that.
  bool serveOne(ControlTarget& target);

 private:
  ControlSocket(int fd, std::string path) : fd_(fd), path_(std::move(path)) {}
  int fd_ = -1;
  std::string path_;
};

}  // namespace sotto::app
