// SPDX-License-Identifier: MIT
// sotto-bench e2e: finds the harness script and the interpreter, and execs it (see e2e_launch.h).
#include "app/sotto_bench/e2e_launch.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace sotto::bench {
namespace {

bool readable(const std::string& path) { return !path.empty() && ::access(path.c_str(), R_OK) == 0; }

std::string scriptPath() {
  if (const char* env = std::getenv("SOTTO_E2E_SCRIPT"); env != nullptr && *env != '\0') return env;
#ifdef SOTTO_E2E_SCRIPT
  if (readable(SOTTO_E2E_SCRIPT)) return SOTTO_E2E_SCRIPT;
#endif
  return {};
}

std::string selfDirectory() {
  char buf[4096];
  const ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return ".";
  std::string p(buf, static_cast<size_t>(n));
  const size_t slash = p.rfind('/');
  return slash == std::string::npos ? std::string(".") : (slash == 0 ? std::string("/") : p.substr(0, slash));
}

}  // namespace

std::vector<std::string> e2eCommand(const std::string& selfDir, const std::vector<std::string>& args) {
  const std::string script = scriptPath();
  if (script.empty()) return {};
  // Debian's interpreter first: the one the project's scripts are written for.
  std::vector<std::string> cmd{::access("/usr/bin/python3", X_OK) == 0 ? "/usr/bin/python3" : "python3", script,
                               "--bin", selfDir};
  cmd.insert(cmd.end(), args.begin(), args.end());
  return cmd;
}

int runE2e(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  std::vector<std::string> cmd = e2eCommand(selfDirectory(), args);
  if (cmd.empty()) {
    std::fprintf(stderr,
                 "sotto-bench: e2e needs the harness bench/e2e/e2e_bench.py of a source tree (it generates speech "
                 "with flite and sox); set SOTTO_E2E_SCRIPT=PATH\n");
    return 1;
  }
  if (!readable(cmd[1])) {
    std::fprintf(stderr, "sotto-bench: e2e: cannot read %s\n", cmd[1].c_str());
    return 1;
  }
  std::vector<char*> av;
  for (std::string& s : cmd) av.push_back(s.data());
  av.push_back(nullptr);
  std::fflush(stdout);
  if (cmd[0].front() == '/') {
    ::execv(av[0], av.data());
  } else {
    ::execvp(av[0], av.data());
  }
  std::fprintf(stderr, "sotto-bench: e2e: cannot run %s: %s\n", cmd[0].c_str(), std::strerror(errno));
  return 1;
}

}  // namespace sotto::bench
