// SPDX-License-Identifier: MIT
// CancelToken: the barge-in signal every answer stage honours (LLM generation, cloud stream, TTS, playback).
#pragma once

#include <atomic>

namespace sotto::pipeline {

// Any thread may cancel() or read it; it never blocks or allocates. The owner of a request reset()s it before
// starting the next one. Stages poll it between units of work (a token, an SSE line, a TTS chunk).
class CancelToken {
 public:
  void cancel() noexcept { flag_.store(true, std::memory_order_release); }
  bool cancelled() const noexcept { return flag_.load(std::memory_order_acquire); }
  void reset() noexcept { flag_.store(false, std::memory_order_release); }

 private:
  std::atomic<bool> flag_{false};
};

}  // namespace sotto::pipeline
