// SPDX-License-Identifier: MIT
// Incremental server-sent events parser (see sse.h).
#include "engine/cloud/sse.h"

namespace sotto::cloud {

const char* sseStateName(SseState s) {
  switch (s) {
    case SseState::ok: return "ok";
    case SseState::lineTooLong: return "line too long";
    case SseState::eventTooLarge: return "event too large";
    case SseState::stopped: return "stopped";
  }
  return "?";
}

SseParser::SseParser(const SseLimits& limits) : limits_(limits) {
  line_.reserve(256);
}

void SseParser::reset() {
  state_ = SseState::ok;
  line_.clear();
  data_.clear();
  event_.clear();
  haveData_ = false;
  afterCr_ = false;
}

SseState SseParser::feed(std::string_view bytes, SseHandler& handler) {
  size_t i = 0;
  while (state_ == SseState::ok && i < bytes.size()) {
    if (afterCr_ && bytes[i] == '\n') {
      afterCr_ = false;
      ++i;
      continue;
    }
    afterCr_ = false;
    // The rest of a line: up to the next CR or LF.
    size_t end = i;
    while (end < bytes.size() && bytes[end] != '\n' && bytes[end] != '\r') ++end;
    const size_t n = end - i;
    if (line_.size() + n > limits_.maxLineBytes) {
      state_ = SseState::lineTooLong;
      break;
    }
    if (end == bytes.size()) {  // no terminator yet: keep the piece
      line_.append(bytes.substr(i, n));
      break;
    }
    afterCr_ = bytes[end] == '\r';
    bool more = true;
    if (line_.empty()) {
      more = line(bytes.substr(i, n), handler);
    } else {
      line_.append(bytes.substr(i, n));
      more = line(line_, handler);
      line_.clear();
    }
    if (!more && state_ == SseState::ok) state_ = SseState::stopped;
    i = end + 1;
  }
  return state_;
}

bool SseParser::line(std::string_view text, SseHandler& handler) {
  if (text.empty()) {  // blank line: dispatch
    bool more = true;
    if (haveData_) more = handler.onEvent(event_, data_);
    data_.clear();
    event_.clear();
    haveData_ = false;
    return more;
  }
  if (text.front() == ':') return true;  // comment (keep-alive)
  std::string_view field = text, value;
  if (const size_t colon = text.find(':'); colon != std::string_view::npos) {
    field = text.substr(0, colon);
    value = text.substr(colon + 1);
    if (!value.empty() && value.front() == ' ') value.remove_prefix(1);
  }
  if (field == "data") {
    const size_t add = value.size() + (haveData_ ? 1 : 0);
    if (data_.size() + add > limits_.maxEventBytes) {
      state_ = SseState::eventTooLarge;
      return false;
    }
    if (haveData_) data_ += '\n';
    data_.append(value);
    haveData_ = true;
  } else if (field == "event") {
    if (value.size() > limits_.maxEventBytes) {
      state_ = SseState::eventTooLarge;
      return false;
    }
    event_.assign(value);
  }
  return true;
}

}  // namespace sotto::cloud
