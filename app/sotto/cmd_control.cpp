// SPDX-License-Identifier: MIT
// `sotto control [--config FILE | --socket PATH] COMMAND...`: one command to the running sottod's control socket.
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

#include "app/config/config.h"
#include "app/sotto/commands.h"

namespace sotto::cli {
namespace {

void controlUsage(FILE* out) {
  std::fprintf(out,
               "Usage: sotto control [--config FILE | --socket PATH] COMMAND\n"
               "Sends one command to the running sottod and prints its reply.\n"
               "  status       the daemon's status line\n"
               "  answer       the id of the answer being computed or spoken (as in its log lines), or none\n"
               "  cancel [ID]  stops that answer (default: the one in progress), as a barge-in would\n"
               "  --config FILE  the daemon's configuration, for paths.runtime-dir (default %s when it exists)\n"
               "  --socket PATH  the control socket itself (default <paths.runtime-dir>/control)\n"
               "Exit status: 0 the daemon said ok, 1 it answered an error or cannot be reached, 2 usage.\n",
               config::kDefaultPath);
}

}  // namespace

int cmdControl(int argc, char** argv) {
  std::string configPath, socketPath, command;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "-h" || a == "--help") {
      controlUsage(stdout);
      return 0;
    }
    if (a == "--config" && i + 1 < argc) {
      configPath = argv[++i];
    } else if (a == "--socket" && i + 1 < argc) {
      socketPath = argv[++i];
    } else if (!a.empty() && a[0] == '-') {
      std::fprintf(stderr, "sotto control: unknown option '%s' (see sotto control --help)\n", a.c_str());
      return 2;
    } else {
      command += (command.empty() ? "" : " ") + a;
    }
  }
  if (command.empty()) {
    std::fprintf(stderr, "sotto control: no command (status, answer, cancel [ID])\n");
    return 2;
  }
  if (socketPath.empty()) {
    const config::LoadResult loaded = config::loadOrDefaults(configPath);
    if (!loaded.config) {
      for (const auto& p : loaded.problems) std::fprintf(stderr, "sotto control: %s\n", p.format().c_str());
      return 2;
    }
    socketPath = loaded.config->runtimeDir + "/control";
  }
  sockaddr_un addr{};
  if (socketPath.size() >= sizeof addr.sun_path) {
    std::fprintf(stderr, "sotto control: socket path too long: %s\n", socketPath.c_str());
    return 2;
  }
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  addr.sun_family = AF_UNIX;
  std::memcpy(addr.sun_path, socketPath.c_str(), socketPath.size() + 1);
  if (fd < 0 || ::connect(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) != 0) {
    std::fprintf(stderr, "sotto control: cannot reach sottod at %s: %s (is it running?)\n", socketPath.c_str(),
                 std::strerror(errno));
    if (fd >= 0) ::close(fd);
    return 1;
  }
  const std::string line = command + "\n";
  if (::send(fd, line.data(), line.size(), MSG_NOSIGNAL) != static_cast<ssize_t>(line.size())) {
    std::fprintf(stderr, "sotto control: sending to %s failed: %s\n", socketPath.c_str(), std::strerror(errno));
    ::close(fd);
    return 1;
  }
  std::string reply;
  char buf[512];
  ssize_t n;
  while ((n = ::read(fd, buf, sizeof buf)) > 0 && reply.size() < 65536) reply.append(buf, static_cast<size_t>(n));
  ::close(fd);
  if (reply.empty()) {
    std::fprintf(stderr, "sotto control: sottod closed the connection without a reply\n");
    return 1;
  }
  if (reply.rfind("ok", 0) == 0) {
    std::fputs(reply.c_str() + (reply.size() > 2 && reply[2] == ' ' ? 3 : 2), stdout);
    return 0;
  }
  std::fputs(reply.c_str(), stderr);
  return 1;
}

}  // namespace sotto::cli
