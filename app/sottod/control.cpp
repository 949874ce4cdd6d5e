// SPDX-License-Identifier: MIT
// sottod's control socket: one command line in, one reply line out, then the connection closes.
#include "app/sottod/control.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <ctime>
#include <cerrno>
#include <cstring>

namespace sotto::app {
namespace {

uint64_t nowNs() noexcept {
  timespec ts{};
  ::clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1'000'000'000u + static_cast<uint64_t>(ts.tv_nsec);
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

bool equalsNoCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  }
  return true;
}

// The reply never carries the client's bytes unfiltered: printable ASCII only, at most 40 characters.
std::string quoted(std::string_view s) {
  std::string out = "'";
  for (char c : s.substr(0, 40)) out += (c >= 0x20 && c < 0x7f) ? c : '?';
  return out + (s.size() > 40 ? "...'" : "'");
}

constexpr const char* kUsage = "commands: status, answer, cancel [ID]";

}  // namespace

std::string handleControlCommand(std::string_view line, ControlTarget& target) {
  line = trim(line);
  const size_t space = line.find_first_of(" \t");
  const std::string_view verb = line.substr(0, space);
  const std::string_view arg = space == std::string_view::npos ? std::string_view() : trim(line.substr(space));
  if (equalsNoCase(verb, "status") && arg.empty()) {
    std::string s = target.status();
    for (char& c : s) c = (c == '\n' || c == '\r') ? ' ' : c;
    return "ok " + s;
  }
  if (equalsNoCase(verb, "answer") && arg.empty()) {
    const uint64_t id = target.currentAnswer();
    return id == 0 ? "ok answer none" : "ok answer " + std::to_string(id);
  }
  if (equalsNoCase(verb, "cancel")) {
    uint64_t id = 0;
    if (arg.empty()) {
      id = target.currentAnswer();
      if (id == 0) return "error: no answer in progress";
    } else {
      if (arg.size() > 19 || arg.find_first_not_of("0123456789") != std::string_view::npos) {
        return "error: cancel wants an answer id (digits), not " + quoted(arg);
      }
      id = std::stoull(std::string(arg));
    }
    if (!target.cancelAnswer(id)) return "error: answer " + std::to_string(id) + " is not in progress";
    return "ok cancelled " + std::to_string(id);
  }
  if (line.empty()) return std::string("error: empty command; ") + kUsage;
  return "error: unknown command " + quoted(line) + "; " + kUsage;
}

Result<ControlSocket> ControlSocket::create(const std::string& path) {
  sockaddr_un addr{};
  if (path.empty() || path.size() >= sizeof addr.sun_path) {
    return makeError(Errc::invalid_argument, "control socket path '" + path + "' is empty or longer than " +
                                                 std::to_string(sizeof addr.sun_path - 1) + " bytes");
  }
  struct stat st {};
  if (lstat(path.c_str(), &st) == 0) {
    if (!S_ISSOCK(st.st_mode)) {
      return makeError(Errc::invalid_argument, path + " exists and is not a socket: not replaced");
    }
    ::unlink(path.c_str());  // a socket left behind by a daemon that was killed
  }
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (fd < 0) return makeError(Errc::io, std::string("control socket: ") + std::strerror(errno));
  addr.sun_family = AF_UNIX;
  std::memcpy(addr.sun_path, path.c_str(), path.size() + 1);
  if (::bind(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) != 0 || ::listen(fd, 64) != 0) {
    const int e = errno;
    ::close(fd);
    return makeError(e == EACCES ? Errc::permission : Errc::io,
                     "cannot listen on " + path + ": " + std::strerror(e));
  }
  ::chmod(path.c_str(), 0660);  // the daemon's group (the device's other services) may control it
  ControlSocket made(fd, path);
  made.waiting_.reserve(kMaxWaiting);
  return made;
}

ControlSocket::ControlSocket(ControlSocket&& other) noexcept
    : fd_(other.fd_), path_(std::move(other.path_)), waiting_(std::move(other.waiting_)) {
  other.fd_ = -1;
  other.waiting_.clear();
}

ControlSocket& ControlSocket::operator=(ControlSocket&& other) noexcept {
  if (this != &other) {
    closeAll();
    fd_ = other.fd_;
    path_ = std::move(other.path_);
    waiting_ = std::move(other.waiting_);
    other.fd_ = -1;
    other.waiting_.clear();
  }
  return *this;
}

ControlSocket::~ControlSocket() { closeAll(); }

void ControlSocket::closeAll() noexcept {
  for (Waiting& w : waiting_) ::close(w.fd);
  waiting_.clear();
  if (fd_ < 0) return;
  ::close(fd_);
  ::unlink(path_.c_str());
  fd_ = -1;
}

std::size_t ControlSocket::pollFds(std::span<pollfd> out) const noexcept {
  std::size_t n = 0;
  if (fd_ >= 0 && n < out.size()) out[n++] = pollfd{fd_, POLLIN, 0};
  for (const Waiting& w : waiting_) {
    if (n == out.size()) break;
    out[n++] = pollfd{w.fd, POLLIN, 0};
  }
  return n;
}

int ControlSocket::msUntilNextDeadline() const noexcept {
  if (waiting_.empty()) return -1;
  const uint64_t now = nowNs();
  uint64_t next = waiting_.front().deadlineNs;
  for (const Waiting& w : waiting_) next = std::min(next, w.deadlineNs);
  return next <= now ? 0 : static_cast<int>((next - now + 999'999) / 1'000'000);
}

void ControlSocket::answer(Waiting& w, const std::string& reply) {
  const std::string line = reply + '\n';
  (void)!::send(w.fd, line.data(), line.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
  ::close(w.fd);
  w.fd = -1;
}

std::size_t ControlSocket::serve(ControlTarget& target) {
  std::size_t answered = 0;
  // New connections, each with its own deadline. A full set lets its oldest go: a flood of silent connections can
  // only ever delay the one it pushes out, never queue the rest.
  for (;;) {
    const int c = fd_ >= 0 ? ::accept4(fd_, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK) : -1;
    if (c < 0) break;
    if (waiting_.size() == kMaxWaiting) {
      answer(waiting_.front(), "error: too many connections waiting; try again");
      waiting_.erase(waiting_.begin());
      ++answered;
    }
    Waiting w;
    w.fd = c;
    w.deadlineNs = nowNs() + static_cast<uint64_t>(kLineWaitMs) * 1'000'000;
    waiting_.push_back(w);
  }
  const uint64_t now = nowNs();
  for (Waiting& w : waiting_) {
    bool closed = false;
    while (w.len < sizeof w.buf) {
      const ssize_t n = ::recv(w.fd, w.buf + w.len, sizeof w.buf - w.len, 0);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        closed = n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK);
        break;
      }
      w.len += static_cast<std::size_t>(n);
      if (std::memchr(w.buf, '\n', w.len) != nullptr) break;
    }
    const char* nl = static_cast<const char*>(std::memchr(w.buf, '\n', w.len));
    if (nl != nullptr || (closed && w.len > 0)) {
      // A whole line, or a command without its newline from a client that shut its side down after it.
      const std::size_t n = nl != nullptr ? static_cast<std::size_t>(nl - w.buf) : w.len;
      answer(w, handleControlCommand(std::string_view(w.buf, n), target));
    } else if (w.len >= sizeof w.buf) {
      answer(w, "error: command longer than 255 bytes");
    } else if (closed) {
      ::close(w.fd);  // gone without a word: nobody to answer
      w.fd = -1;
      continue;
    } else if (now >= w.deadlineNs) {
      answer(w, "error: no command within 200 ms");
    } else {
      continue;
    }
    ++answered;
  }
  std::erase_if(waiting_, [](const Waiting& w) { return w.fd < 0; });
  return answered;
}

}  // namespace sotto::app
