// SPDX-License-Identifier: MIT
// Log sinks: the systemd journal (structured fields) when stderr is the journal, plain stderr lines otherwise.
#include "sotto/hal/log.h"

#include <sys/stat.h>
#include <syslog.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include <systemd/sd-journal.h>

namespace sotto::log {
namespace {

std::atomic<int> g_level{static_cast<int>(Level::info)};
std::atomic<bool> g_journal{false};
std::mutex g_stderrMutex;  // keeps lines whole when several control threads log
constexpr const char* kJournalSocket = "/run/systemd/journal/socket";

// systemd sets JOURNAL_STREAM=<dev>:<inode> for the stream it connected; only trust it if fd 2 is that stream.
bool stderrIsJournal() {
  const char* env = std::getenv("JOURNAL_STREAM");
  if (env == nullptr) return false;
  unsigned long long dev = 0, ino = 0;
  if (std::sscanf(env, "%llu:%llu", &dev, &ino) != 2) return false;
  struct stat st {};
  if (fstat(STDERR_FILENO, &st) != 0) return false;
  return static_cast<unsigned long long>(st.st_dev) == dev && static_cast<unsigned long long>(st.st_ino) == ino;
}

}  // namespace

void init(Level threshold, Sink sink) {
  g_level.store(static_cast<int>(threshold), std::memory_order_relaxed);
  bool journal = sink == Sink::journal || (sink == Sink::automatic && stderrIsJournal());
  g_journal.store(journal, std::memory_order_relaxed);
}

void setLevel(Level threshold) { g_level.store(static_cast<int>(threshold), std::memory_order_relaxed); }
Level level() { return static_cast<Level>(g_level.load(std::memory_order_relaxed)); }
bool toJournal() { return g_journal.load(std::memory_order_relaxed); }

const char* levelName(Level l) {
  switch (l) {
    case Level::off: return "off";
    case Level::error: return "error";
    case Level::warning: return "warning";
    case Level::notice: return "notice";
    case Level::info: return "info";
    case Level::debug: return "debug";
  }
  return "info";
}

bool parseLevel(std::string_view text, Level& out) {
  for (Level l : {Level::error, Level::warning, Level::notice, Level::info, Level::debug}) {
    if (text == levelName(l)) {
      out = l;
      return true;
    }
  }
  return false;
}

void vwrite(Level lvl, const char* stage, const char* code, const char* fmt, va_list ap) {
  if (static_cast<int>(lvl) > g_level.load(std::memory_order_relaxed)) return;
  char msg[1024];
  std::vsnprintf(msg, sizeof msg, fmt, ap);
  // libsystemd drops records silently (returns 0) when no journald listens: check the socket ourselves so
  // a record is never lost, e.g. while journald restarts.
  if (g_journal.load(std::memory_order_relaxed) && access(kJournalSocket, W_OK) == 0) {
    int rc = sd_journal_send("MESSAGE=%s", msg, "PRIORITY=%d", static_cast<int>(lvl), "SOTTO_STAGE=%s", stage,
                             "SOTTO_EVENT=%s", code, "SYSLOG_IDENTIFIER=sottod", nullptr);
    if (rc >= 0) return;
    // Journal socket gone (e.g. journald restarting): fall through so the record is not lost.
  }
  std::lock_guard<std::mutex> lock(g_stderrMutex);
  std::fprintf(stderr, "%s %s[%s]: %s\n", levelName(lvl), stage, code, msg);
}

void write(Level lvl, const char* stage, const char* code, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vwrite(lvl, stage, code, fmt, ap);
  va_end(ap);
}

}  // namespace sotto::log
