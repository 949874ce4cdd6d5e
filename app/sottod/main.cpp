// SPDX-License-Identifier: MIT
// sottod: command line of the daemon (run, --check-config, --print-config-reference, --version).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "app/common/version.h"
#include "app/config/config.h"
#include "app/sottod/daemon.h"
#include "sotto/hal/log.h"

namespace {

constexpr const char* kDefaultConfig = "/etc/sotto/sotto.xml";

void usage(FILE* out) {
  std::fprintf(out,
               "Usage: sottod [OPTIONS]\n"
               "Sotto on-device voice assistant runtime. Runs until SIGTERM; under systemd (Type=notify) it reports\n"
               "READY, STATUS and feeds the watchdog while every pipeline stage is healthy.\n"
               "\n"
               "Options:\n"
               "  --config PATH               configuration file (default %s)\n"
               "  --set SETTING=VALUE         override one setting after loading, e.g. --set log.level=debug\n"
               "  --check-config [PATH]       validate a configuration file and exit: 0 valid, 2 invalid\n"
               "  --print-config-reference    print the settings reference (Markdown) and exit\n"
               "  --fault stall:STAGE:MS      testing: make STAGE stop responding MS ms after READY\n"
               "  --fault enospc:MS           testing: every state write fails with ENOSPC (disk full) from MS ms\n"
               "                              after READY (0: from the start)\n"
               "  --version                   version, build, target and CPU features, then exit\n"
               "  --help                      this text\n"
               "\n"
               "Exit status: 0 clean stop, 1 start-up failure, 2 invalid configuration or usage.\n"
               "Settings reference: config/settings-reference.md (or --print-config-reference).\n",
               kDefaultConfig);
}

int checkConfig(const std::string& path) {
  sotto::config::LoadResult r = sotto::config::loadFile(path);
  if (!r.config) {
    for (const auto& p : r.problems) std::fprintf(stderr, "%s\n", p.format().c_str());
    const std::size_t n = sotto::config::problemCount(r.problems);  // the ones not shown too
    std::fprintf(stderr, "%s: %zu problem%s, configuration not valid\n", path.c_str(), n, n == 1 ? "" : "s");
    return 2;
  }
  std::printf("%s: valid\n", path.c_str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::string configPath = kDefaultConfig;
  std::vector<std::string> overrides;
  std::vector<std::string> faults;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto needValue = [&](const char* opt) -> const char* {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "sottod: %s needs a value (see --help)\n", opt);
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--help" || a == "-h") {
      usage(stdout);
      return 0;
    } else if (a == "--version") {
      std::fputs(sotto::app::versionText("sottod").c_str(), stdout);
      return 0;
    } else if (a == "--print-config-reference") {
      std::fputs(sotto::config::referenceMarkdown().c_str(), stdout);
      return 0;
    } else if (a == "--check-config") {
      std::string path = (i + 1 < argc && argv[i + 1][0] != '-') ? argv[++i] : configPath;
      return checkConfig(path);
    } else if (a == "--config") {
      configPath = needValue("--config");
    } else if (a == "--set") {
      overrides.emplace_back(needValue("--set"));
    } else if (a == "--fault") {
      faults.emplace_back(needValue("--fault"));
    } else {
      std::fprintf(stderr, "sottod: unknown option '%s' (see --help)\n", a.c_str());
      return 2;
    }
  }

  sotto::config::LoadResult loaded = sotto::config::loadFile(configPath);
  if (!loaded.config) {
    for (const auto& p : loaded.problems) std::fprintf(stderr, "%s\n", p.format().c_str());
    std::fprintf(stderr, "sottod: not starting: %s is not a valid configuration\n", configPath.c_str());
    return 2;
  }
  sotto::config::LoadResult applied = sotto::config::applyOverrides(*loaded.config, overrides);
  if (!applied.config) {
    for (const auto& p : applied.problems) std::fprintf(stderr, "%s\n", p.format().c_str());
    std::fprintf(stderr, "sottod: not starting: invalid --set\n");
    return 2;
  }
  const sotto::config::Config& cfg = *applied.config;
  return sotto::app::runDaemon(cfg, configPath, faults);
}
