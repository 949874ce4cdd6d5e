// SPDX-License-Identifier: MIT
// `sotto audit [--json] [--config FILE]`: decrypts and prints the audit log of escalated requests.
#include <sys/stat.h>

#include <cstdio>
#include <ctime>
#include <string>
#include <string_view>
#include <vector>

#include "app/config/config.h"
#include "app/common/json_text.h"
#include "app/sotto/commands.h"
#include "engine/privacy/audit.h"
#include "sotto/hal/keystore.h"

namespace sotto::cli {
namespace {

void auditUsage(FILE* out) {
  std::fprintf(out,
               "Usage: sotto audit [--json] [--config FILE]\n"
               "Prints every request that left the device (the audit log under paths.state-dir, decrypted with the\n"
               "device key), oldest first: when, the route and reason, the destination host and exactly the bytes\n"
               "that were sent.\n"
               "  --json         one JSON object per record:\n"
               "                 {\"time\":\"2026-01-31T12:00:00.000Z\",\"time_ms\":N,\"route\":...,\"reason\":...,\n"
               "                  \"host\":...,\"bytes\":N,\"sent\":...}\n"
               "  --config FILE  the daemon's configuration (default %s when it exists, else the defaults)\n"
               "Records are chained (each one's MAC covers the one before it, across rotated files) under a sealed\n"
               "head that counts them: a cut, even at a record boundary, a deletion or a reordering is reported.\n"
               "Exit status: 0 ok (an incomplete final record from a crash, or a head one record behind it after a\n"
               "crash, is noted), 1 when the integrity check fails (the first bad record is named) or the log\n"
               "cannot be read, 2 usage.\n",
               config::kDefaultPath);
}

std::string isoTime(std::int64_t ms) {
  if (ms < 0) ms = 0;  // a clock that was not set yet
  const std::time_t seconds = static_cast<std::time_t>(ms / 1000);
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  char date[32];
  std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%S", &tm);
  char millis[8];
  std::snprintf(millis, sizeof millis, ".%03dZ", static_cast<int>(ms % 1000));
  return std::string(date) + millis;
}

bool exists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

}  // namespace

int cmdAudit(int argc, char** argv) {
  bool json = false;
  std::string configPath;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "-h" || a == "--help") {
      auditUsage(stdout);
      return 0;
    }
    if (a == "--json") {
      json = true;
    } else if (a == "--config" && i + 1 < argc) {
      configPath = argv[++i];
    } else {
      std::fprintf(stderr, "sotto audit: unexpected argument '%s' (see sotto audit --help)\n", a.c_str());
      return 2;
    }
  }
  const config::LoadResult loaded = config::loadOrDefaults(configPath);
  if (!loaded.config) {
    for (const auto& p : loaded.problems) std::fprintf(stderr, "sotto audit: %s\n", p.format().c_str());
    return 2;
  }
  const std::string dir = loaded.config->stateDir + "/" + privacy::kAuditDirName;
  // The sealed head alone (every file deleted) is not an empty log: the reader must check it.
  bool anyFile = exists(dir + "/" + privacy::kAuditHeadName);
  for (int k = 0; k <= 64 && !anyFile; ++k) {
    anyFile = exists(dir + "/audit.log" + (k == 0 ? std::string() : "." + std::to_string(k)));
  }
  if (!anyFile) {
    if (!json) std::printf("no escalated requests recorded (%s is empty)\n", dir.c_str());
    return 0;
  }
  // Never create a key here: a new key decrypts nothing, and a root-owned key would lock the daemon out.
  auto keystore = hal::KeystoreRegistry::instance().open(hal::KeystoreSpec{"file", loaded.config->stateDir, false});
  if (!keystore) {
    std::fprintf(stderr, "sotto audit: %s\n", keystore.error().message.c_str());
    return 1;
  }
  auto key = (*keystore)->deriveKey(privacy::kAuditKeyPurpose);
  if (!key) {
    std::fprintf(stderr, "sotto audit: %s\n", key.error().message.c_str());
    return 1;
  }
  auto readout = privacy::readAuditLog(dir, *key);
  if (!readout) {
    std::fprintf(stderr, "sotto audit: %s\n", readout.error().message.c_str());
    return 1;
  }
  std::string out;
  for (const privacy::AuditRecord& r : readout->records) {
    out.clear();
    if (json) {
      out += "{\"time\":" + app::jsonString(isoTime(r.timeMs)) + ",\"time_ms\":" + std::to_string(r.timeMs) +
             ",\"route\":" + app::jsonString(r.route) + ",\"reason\":" + app::jsonString(r.reason) +
             ",\"host\":" + app::jsonString(r.host) + ",\"bytes\":" + std::to_string(r.sent.size()) +
             ",\"sent\":" + app::jsonString(r.sent) + "}\n";
    } else {
      out += isoTime(r.timeMs) + "  route=" + app::terminalText(r.route) + "  reason=" + app::terminalText(r.reason) +
             "  host=" + app::terminalText(r.host) + "  " + std::to_string(r.sent.size()) + " bytes\n  ";
      app::appendTerminalText(out, r.sent);  // request bytes: shown, never acted on by the terminal
      out += "\n";
    }
    std::fwrite(out.data(), 1, out.size(), stdout);
  }
  if (!json && readout->records.empty() && readout->tampered == 0) {
    std::printf("no escalated requests recorded (%s)\n", dir.c_str());
  }
  for (const std::string& n : readout->notes) std::fprintf(stderr, "sotto audit: note: %s\n", n.c_str());
  for (const std::string& p : readout->problems) std::fprintf(stderr, "sotto audit: warning: %s\n", p.c_str());
  if (readout->tampered > 0) {
    std::fprintf(stderr,
                 "sotto audit: the log fails its integrity check (%u problems: tampered, truncated, reordered, "
                 "deleted or corrupt); first bad: %s\n",
                 readout->tampered, readout->firstBad.c_str());
    return 1;
  }
  return 0;
}

}  // namespace sotto::cli
