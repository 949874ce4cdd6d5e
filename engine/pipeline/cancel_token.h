// SPDX-License-Identifier: MIT
// CancelToken: the barge-in signal every answer stage honours (LLM generation, cloud stream, TTS, playback).
#pragma once

#include <array>
#include <atomic>
#include <cstdint>

#include "engine/pipeline/wakeup.h"

namespace sotto::pipeline {

// Any thread may cancel() or read it; it never blocks or allocates. The owner of a request reset()s it before
// starting the next one. Stages check it between units of work (a token, an SSE line, a TTS chunk); a stage that
// sleeps until a hand-off registers its Wakeup with wakeOnCancel(), so a cancel wakes it instead of waiting for
// the next hand-off.
class CancelToken {
 public:
  static constexpr std::size_t kMaxWakeups = 4;

  void cancel() noexcept {
    flag_.store(true, std::memory_order_release);
    for (auto& w : wakeups_) {
      if (Wakeup* p = w.load(std::memory_order_acquire)) p->notify();
    }
  }
  bool cancelled() const noexcept { return flag_.load(std::memory_order_acquire); }
  void reset() noexcept { flag_.store(false, std::memory_order_release); }
  // Any thread: a full barrier between this thread's earlier writes and its later reads and writes, ordered
  // against every other caller's on this token: a seq_cst read-modify-write of one word (what
  // std::atomic_thread_fence would do, in a form ThreadSanitizer understands). Publish-then-cancel on one side and
  // reset-then-check on the other, each with order() between, cannot both miss.
  void order() const noexcept { order_.fetch_add(1, std::memory_order_seq_cst); }

  // Any thread, typically when a stage is set up: cancel() also notifies `w` from now on. Registering the same
  // Wakeup twice is a no-op. False when kMaxWakeups are registered already. `w` must stay alive until
  // stopWaking(w) or until nothing can cancel the token any more.
  bool wakeOnCancel(Wakeup* w) const noexcept {
    for (auto& s : wakeups_) {
      if (s.load(std::memory_order_acquire) == w) return true;
    }
    for (auto& s : wakeups_) {
      Wakeup* expected = nullptr;
      if (s.compare_exchange_strong(expected, w, std::memory_order_acq_rel)) return true;
    }
    return false;
  }
  // Any thread: undoes wakeOnCancel(w) (before `w` goes away while the token lives on).
  void stopWaking(Wakeup* w) const noexcept {
    for (auto& s : wakeups_) {
      Wakeup* expected = w;
      s.compare_exchange_strong(expected, nullptr, std::memory_order_acq_rel);
    }
  }

 private:
  std::atomic<bool> flag_{false};
  mutable std::atomic<std::uint32_t> order_{0};  // order() only
  mutable std::array<std::atomic<Wakeup*>, kMaxWakeups> wakeups_{};  // who to wake, not the token's state
};

}  // namespace sotto::pipeline
