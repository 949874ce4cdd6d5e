// SPDX-License-Identifier: MIT
// Incremental server-sent events parser (WHATWG "event stream" rules) with bounded line and event sizes.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace sotto::cloud {

// Receives each complete event. `event` is the event type ("" when the stream named none), `data` the data lines
// joined with '\n'. Return false to stop parsing (the parser then refuses further input).
class SseHandler {
 public:
  virtual bool onEvent(std::string_view event, std::string_view data) = 0;

 protected:
  SseHandler() = default;
  SseHandler(const SseHandler&) = default;
  SseHandler& operator=(const SseHandler&) = default;
  ~SseHandler() = default;
};

struct SseLimits {
  size_t maxLineBytes = 64u << 10;    // one line, without its terminator
  size_t maxEventBytes = 256u << 10;  // the data of one event
};

enum class SseState : unsigned char { ok, lineTooLong, eventTooLarge, stopped };
const char* sseStateName(SseState s);

// One stream at a time, from one thread. Lines end in CRLF, LF or CR (also when a CRLF is split across feeds);
// ':' lines are comments; "data", "event", "id" and "retry" fields are understood (id/retry are ignored);
// unknown fields are skipped. Memory stays within the limits: a longer line or event is an error, never a
// larger buffer.
class SseParser {
 public:
  explicit SseParser(const SseLimits& limits = {});

  // Feeds the next bytes; calls `handler` for each event they complete. Returns the state after them: once not
  // ok, the parser stays in that state and ignores input until reset().
  SseState feed(std::string_view bytes, SseHandler& handler);
  SseState state() const { return state_; }
  // True when bytes of an unfinished line or event are buffered (the stream ended mid-event).
  bool pending() const { return !line_.empty() || haveData_ || !event_.empty(); }
  void reset();

 private:
  bool line(std::string_view text, SseHandler& handler);

  SseLimits limits_;
  SseState state_ = SseState::ok;
  std::string line_;   // the unfinished line
  std::string data_;   // the current event's data
  std::string event_;  // the current event's type
  bool haveData_ = false;
  bool afterCr_ = false;  // the last byte was CR: an LF right after it ends nothing
};

}  // namespace sotto::cloud
