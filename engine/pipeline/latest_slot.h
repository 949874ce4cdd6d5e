// SPDX-License-Identifier: MIT
// LatestSlot: a single-producer single-consumer hand-off where only the newest value matters (a triple buffer).
#pragma once

#include <atomic>
#include <cstdint>
#include <type_traits>

namespace sotto::pipeline {

// The producer publishes values; the consumer takes the newest one published since its last take, and values it
// never took are simply replaced (a stale partial transcript is worth nothing once a newer one exists). Three
// buffers: the producer's back buffer, the consumer's front buffer and the one in the middle, swapped by index
// with one atomic exchange, so neither side ever waits for the other or touches a buffer the other is using.
// Threads: publish() from one producer thread, take() from one consumer thread, pending() from any thread.
// Nothing blocks, locks or allocates; T is copied (trivially copyable, fixed size).
template <typename T>
class LatestSlot {
  static_assert(std::is_trivially_copyable_v<T>);

 public:
  // Producer thread: the newest value; replaces one the consumer has not taken yet.
  void publish(const T& value) noexcept {
    buffers_[back_] = value;
    const uint32_t old = middle_.exchange(back_ | kFresh, std::memory_order_acq_rel);
    back_ = old & kIndex;
  }
  // Consumer thread: true and the newest value when one was published since the last take().
  bool take(T& out) noexcept {
    if ((middle_.load(std::memory_order_acquire) & kFresh) == 0) return false;
    const uint32_t old = middle_.exchange(front_, std::memory_order_acq_rel);
    front_ = old & kIndex;
    out = buffers_[front_];
    return true;
  }
  // Any thread: whether a value waits to be taken (an estimate while the producer publishes).
  bool pending() const noexcept { return (middle_.load(std::memory_order_acquire) & kFresh) != 0; }

 private:
  static constexpr uint32_t kFresh = 4, kIndex = 3;
  T buffers_[3] = {};
  uint32_t back_ = 0;                // producer's
  uint32_t front_ = 1;               // consumer's
  std::atomic<uint32_t> middle_{2};  // index of the buffer in the middle, | kFresh when it holds an untaken value
};

}  // namespace sotto::pipeline
