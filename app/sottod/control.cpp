// SPDX-License-Identifier: MIT
// sottod's control socket: one command line in, one reply line out, then the connection closes.
#include "app/sottod/control.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstring>

namespace sotto::app {
namespace {

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
  if (::bind(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) != 0 || ::listen(fd, 8) != 0) {
    const int e = errno;
    ::close(fd);
    return makeError(e == EACCES ? Errc::permission : Errc::io,
                     "cannot listen on " + path + ": " + std::strerror(e));
  }
  ::chmod(path.c_str(), 0660);  // the daemon's group (the device's other services) may control it
  return ControlSocket(fd, path);
}

ControlSocket::ControlSocket(ControlSocket&& other) noexcept : fd_(other.fd_), path_(std::move(other.path_)) {
  other.fd_ = -1;
}

ControlSocket& ControlSocket::operator=(ControlSocket&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) {
      ::close(fd_);
      ::unlink(path_.c_str());
    }
    fd_ = other.fd_;
    path_ = std::move(other.path_);
    other.fd_ = -1;
  }
  return *this;
}

ControlSocket::~ControlSocket() {
  if (fd_ < 0) return;
  ::close(fd_);
  ::unlink(path_.c_str());
}

bool ControlSocket::serveOne(ControlTarget& target) {
  const int c = ::accept4(fd_, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
  if (c < 0) return false;
  char buf[256];
  size_t len = 0;
  bool line = false;
  // One line within 200 ms; a longer command or a silent client gets an error and is closed.
  for (int waited = 0; !line && len < sizeof buf && waited < 200;) {
    pollfd p{c, POLLIN, 0};
    if (::poll(&p, 1, 20) == 0) {
      waited += 20;
      continue;
    }
    const ssize_t n = ::recv(c, buf + len, sizeof buf - len, 0);
    if (n < 0 && (errno == EAGAIN || errno == EINTR)) continue;
    if (n <= 0) {
      line = len > 0;  // the client shut its side down after the command, without a newline
      break;
    }
    len += static_cast<size_t>(n);
    line = std::memchr(buf, '\n', len) != nullptr;
  }
  std::string reply;
  if (!line) {
    reply = len >= sizeof buf ? "error: command longer than 255 bytes" : "error: no command within 200 ms";
  } else {
    const char* nl = static_cast<const char*>(std::memchr(buf, '\n', len));
    reply = handleControlCommand(std::string_view(buf, nl ? static_cast<size_t>(nl - buf) : len), target);
  }
  reply += '\n';
  (void)!::send(c, reply.data(), reply.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
  ::close(c);
  return true;
}

}  // namespace sotto::app
