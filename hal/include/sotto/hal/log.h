// SPDX-License-Identifier: MIT
// Logging for control threads: structured records to the journal under systemd, plain lines to stderr otherwise.
// Never call from a real-time thread (it formats, may allocate and blocks on I/O).
#pragma once

#include <cstdarg>
#include <string_view>

namespace sotto::log {

// syslog priorities; off: nothing is written (a CLI command that reports what it runs for itself).
enum class Level { off = 0, error = 3, warning = 4, notice = 5, info = 6, debug = 7 };

enum class Sink { automatic, journal, stderr_ };

// Chooses the sink and threshold. automatic = journal when stderr is connected to the journal
// ($JOURNAL_STREAM matches fd 2, as systemd sets it), stderr otherwise. Call once at start-up, before other threads.
void init(Level threshold, Sink sink = Sink::automatic);
void setLevel(Level threshold);  // any thread
Level level();                   // any thread
bool toJournal();                // which sink init() chose
bool parseLevel(std::string_view text, Level& out);
const char* levelName(Level level);

// stage: which component (e.g. "config", "pipeline"); code: a stable event code (e.g. "ready", "xrun").
// Both become journal fields SOTTO_STAGE / SOTTO_EVENT; on stderr the line reads "level stage[code]: message".
// Any non-real-time thread; thread safe; blocks on I/O.
void write(Level level, const char* stage, const char* code, const char* fmt, ...) __attribute__((format(printf, 4, 5)));
void vwrite(Level level, const char* stage, const char* code, const char* fmt, va_list ap)
    __attribute__((format(printf, 4, 0)));

}  // namespace sotto::log

#define SOTTO_LOG_ERROR(stage, code, ...) ::sotto::log::write(::sotto::log::Level::error, stage, code, __VA_ARGS__)
#define SOTTO_LOG_WARN(stage, code, ...) ::sotto::log::write(::sotto::log::Level::warning, stage, code, __VA_ARGS__)
#define SOTTO_LOG_NOTICE(stage, code, ...) ::sotto::log::write(::sotto::log::Level::notice, stage, code, __VA_ARGS__)
#define SOTTO_LOG_INFO(stage, code, ...) ::sotto::log::write(::sotto::log::Level::info, stage, code, __VA_ARGS__)
#define SOTTO_LOG_DEBUG(stage, code, ...)                                                  \
  do {                                                                                     \
    if (::sotto::log::level() >= ::sotto::log::Level::debug)                               \
      ::sotto::log::write(::sotto::log::Level::debug, stage, code, __VA_ARGS__);           \
  } while (0)
