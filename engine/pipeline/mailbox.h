// SPDX-License-Identifier: MIT
// Fixed-size messages and the preallocated mailboxes that carry events and commands between stage threads.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string_view>
#include <type_traits>
#include <utility>

#include "engine/pipeline/mpmc_queue.h"
#include "engine/pipeline/spsc_ring.h"
#include "sotto/hal/result.h"

namespace sotto::pipeline {

// One event or command: one cache line, trivially copyable, no pointers to owned memory (payloads larger than
// `text` go through a ring or a preallocated arena, and the message carries the index or size in `value`).
struct Message {
  static constexpr std::size_t kTextSize = 48;

  std::uint32_t type = 0;   // what happened / what to do: the receiving stage's enum value
  std::uint32_t arg = 0;    // small operand: a stage id, flags, an index
  std::uint64_t value = 0;  // large operand: a timestamp in ns, a sequence number, a token id, a size
  char text[kTextSize] = {};  // short NUL-terminated payload (an intent name, a device name)

  // Any thread; no allocation. text is truncated to kTextSize - 1 bytes.
  static Message make(std::uint32_t type, std::uint32_t arg = 0, std::uint64_t value = 0,
                      std::string_view text = {}) noexcept {
    Message m;
    m.type = type;
    m.arg = arg;
    m.value = value;
    m.setText(text);
    return m;
  }
  void setText(std::string_view s) noexcept {
    const std::size_t n = std::min(s.size(), kTextSize - 1);
    if (n != 0) std::memcpy(text, s.data(), n);  // memcpy from a null data() is UB even for 0 bytes
    std::memset(text + n, 0, kTextSize - n);     // also clears stale bytes so copies compare equal
  }
  std::string_view textView() const noexcept {
    return {text, static_cast<std::size_t>(std::find(text, text + kTextSize, '\0') - text)};
  }
};
static_assert(sizeof(Message) == 64, "one cache line");
static_assert(std::is_trivially_copyable_v<Message>);

// One poster thread to one receiver thread, over SpscRing.
// Threads: post() from the one poster thread; tryReceive()/drain() from the one receiver thread (typically the
// real-time thread, which never waits: it drains whatever is there once per cycle); dropped(), size(),
// capacity() from any thread. Nothing blocks or allocates after create().
template <typename M>
class SpscMailbox {
 public:
  SpscMailbox() noexcept = default;  // capacity 0: every post is dropped

  // Control thread, configure time. capacity: a power of two.
  static Result<SpscMailbox> create(std::size_t capacity) {
    auto ring = SpscRing<M>::create(capacity);
    if (!ring) return std::move(ring).error();
    SpscMailbox box;
    box.ring_ = std::move(ring).value();
    return box;
  }

  // Poster thread. Never blocks; false when full, and the message is counted in dropped() (the pipeline's
  // drop-and-count policy).
  bool post(const M& message) noexcept { return ring_.pushOrDrop(message); }
  // Poster thread. As post() but not counted: for a poster that retries later or takes another path.
  bool tryPost(const M& message) noexcept { return ring_.tryPush(message); }

  // Receiver thread. false when empty.
  bool tryReceive(M& out) noexcept { return ring_.tryPop(out); }

  // Receiver thread. Calls handler(const M&) for up to maxMessages queued messages (a bound keeps one cycle's
  // work bounded); returns how many were handled. handler must not post to this same mailbox's receiver side.
  template <typename Handler>
  std::size_t drain(Handler&& handler, std::size_t maxMessages = std::numeric_limits<std::size_t>::max()) {
    std::size_t n = 0;
    M m;
    while (n < maxMessages && ring_.tryPop(m)) {
      handler(static_cast<const M&>(m));
      ++n;
    }
    return n;
  }

  std::uint64_t dropped() const noexcept { return ring_.dropped(); }  // any thread
  std::size_t size() const noexcept { return ring_.size(); }          // any thread, estimate
  std::size_t capacity() const noexcept { return ring_.capacity(); }  // any thread

 private:
  SpscRing<M> ring_;
};

// Any number of poster threads (control, D-Bus, input, timers) to one receiver thread, over MpmcQueue.
// Threads: post() from any thread, lock-free, never blocks; tryReceive()/drain() from the one receiver thread;
// dropped(), size(), capacity() from any thread. Messages from one poster arrive in the order it posted them;
// messages from different posters interleave in the order they claimed cells.
template <typename M>
class MpscMailbox {
 public:
  MpscMailbox() noexcept = default;  // capacity 0: every post is dropped

  // Control thread, configure time. capacity: a power of two >= 2.
  static Result<MpscMailbox> create(std::size_t capacity) {
    auto queue = MpmcQueue<M>::create(capacity);
    if (!queue) return std::move(queue).error();
    MpscMailbox box;
    box.queue_ = std::move(queue).value();
    return box;
  }

  MpscMailbox(const MpscMailbox&) = delete;
  MpscMailbox& operator=(const MpscMailbox&) = delete;
  MpscMailbox(MpscMailbox&& other) noexcept
      : queue_(std::move(other.queue_)), dropped_(other.dropped_.exchange(0, std::memory_order_relaxed)) {}
  MpscMailbox& operator=(MpscMailbox&& other) noexcept {
    queue_ = std::move(other.queue_);
    dropped_.store(other.dropped_.exchange(0, std::memory_order_relaxed), std::memory_order_relaxed);
    return *this;
  }
  ~MpscMailbox() = default;

  // Any thread. Never blocks; false when full, and the message is counted in dropped().
  bool post(const M& message) noexcept {
    if (queue_.tryPush(message)) return true;
    dropped_.fetch_add(1, std::memory_order_relaxed);  // several posters: needs the RMW, but only when full
    return false;
  }
  // Any thread. As post() but not counted: for a poster that retries later or takes another path.
  bool tryPost(const M& message) noexcept { return queue_.tryPush(message); }

  // Receiver thread. false when empty (or the oldest message is still being written by a preempted poster).
  bool tryReceive(M& out) noexcept { return queue_.tryPop(out); }

  // Receiver thread. As SpscMailbox::drain.
  template <typename Handler>
  std::size_t drain(Handler&& handler, std::size_t maxMessages = std::numeric_limits<std::size_t>::max()) {
    std::size_t n = 0;
    M m;
    while (n < maxMessages && queue_.tryPop(m)) {
      handler(static_cast<const M&>(m));
      ++n;
    }
    return n;
  }

  std::uint64_t dropped() const noexcept { return dropped_.load(std::memory_order_relaxed); }  // any thread
  std::size_t size() const noexcept { return queue_.sizeApprox(); }                          // any thread
  std::size_t capacity() const noexcept { return queue_.capacity(); }                        // any thread

 private:
  MpmcQueue<M> queue_;
  alignas(kCacheLine) std::atomic<std::uint64_t> dropped_{0};  // off the queue's index lines
};

}  // namespace sotto::pipeline
