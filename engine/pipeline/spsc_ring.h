// SPDX-License-Identifier: MIT
// SpscRing<T>: bounded lock-free single-producer/single-consumer ring for audio frames and tokens between stages.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <span>
#include <string>
#include <type_traits>
#include <utility>

#include "engine/pipeline/cache_line.h"
#include "sotto/hal/result.h"

namespace sotto::pipeline {

// Threads: exactly one producer thread calls the push/write functions and exactly one consumer thread calls the
// pop/read functions; size(), capacity() and dropped() may be called from any thread. Nothing blocks, allocates
// or makes a system call after create(). create(), moves and destruction are configure-time operations: no
// producer or consumer may be running.
//
// A full ring never blocks the producer: tryPush/write report how much went in; pushOrDrop/writeOrDrop implement
// the pipeline's "drop and count" policy (ARCHITECTURE.md) with a counter readable from any thread.
template <typename T>
class SpscRing {
  static_assert(std::is_trivially_copyable_v<T>, "SpscRing copies items with memcpy semantics");
  static_assert(std::is_default_constructible_v<T>, "storage is value-initialized once at create()");

 public:
  // Largest capacity create() accepts: keeps index arithmetic and the allocation size far from overflow.
  static constexpr std::size_t kMaxCapacity = (std::size_t{1} << (sizeof(std::size_t) * 8 - 2)) / sizeof(T);

  // An empty ring of capacity 0 (every push and pop fails): a placeholder to move a created ring into.
  SpscRing() noexcept = default;

  // Control thread, configure time. capacity must be a power of two (index wrap is a mask) and <= kMaxCapacity.
  // Allocates and zero-fills the storage once, so the pages are resident before the real-time threads start.
  static Result<SpscRing> create(std::size_t capacity) {
    if (!isPowerOfTwo(capacity) || capacity > kMaxCapacity) {
      return makeError(Errc::invalid_argument,
                       "SpscRing capacity " + std::to_string(capacity) + " is not a power of two in [1, " +
                           std::to_string(kMaxCapacity) + "]");
    }
    std::unique_ptr<T[]> slots(new (std::nothrow) T[capacity]());
    if (!slots) {
      return makeError(Errc::busy, "SpscRing: out of memory for " + std::to_string(capacity) + " items");
    }
    SpscRing ring;
    ring.slots_ = std::move(slots);
    ring.capacity_ = capacity;
    ring.mask_ = capacity - 1;
    return ring;
  }

  SpscRing(const SpscRing&) = delete;
  SpscRing& operator=(const SpscRing&) = delete;
  // Configure time only (no producer or consumer running). The moved-from ring has capacity 0.
  SpscRing(SpscRing&& other) noexcept { moveFrom(other); }
  SpscRing& operator=(SpscRing&& other) noexcept {
    if (this != &other) moveFrom(other);
    return *this;
  }
  ~SpscRing() = default;

  // Producer thread. Never blocks. Returns false when the ring is full (item not stored).
  bool tryPush(const T& item) noexcept {
    const std::size_t head = prod_.head.load(std::memory_order_relaxed);
    if (head - prod_.cachedTail == capacity_) {
      // Only re-read the consumer's index (a cache miss) when the cached view says full.
      prod_.cachedTail = cons_.tail.load(std::memory_order_acquire);
      if (head - prod_.cachedTail == capacity_) return false;
    }
    slots_[head & mask_] = item;
    prod_.head.store(head + 1, std::memory_order_release);
    return true;
  }

  // Producer thread. tryPush that counts the item in dropped() when the ring is full.
  bool pushOrDrop(const T& item) noexcept {
    if (tryPush(item)) return true;
    addDropped(1);
    return false;
  }

  // Producer thread. Copies as many leading items as fit (possibly 0) and publishes them at once; returns the count.
  std::size_t write(std::span<const T> items) noexcept {
    const std::size_t head = prod_.head.load(std::memory_order_relaxed);
    std::size_t space = capacity_ - (head - prod_.cachedTail);
    if (space < items.size()) {
      prod_.cachedTail = cons_.tail.load(std::memory_order_acquire);
      space = capacity_ - (head - prod_.cachedTail);
    }
    const std::size_t n = std::min(space, items.size());
    if (n == 0) return 0;
    const std::size_t at = head & mask_;
    const std::size_t first = std::min(n, capacity_ - at);  // up to the end of storage, the rest wraps to 0
    std::copy_n(items.data(), first, slots_.get() + at);
    std::copy_n(items.data() + first, n - first, slots_.get());
    prod_.head.store(head + n, std::memory_order_release);
    return n;
  }

  // Producer thread. write() that counts the items that did not fit in dropped().
  std::size_t writeOrDrop(std::span<const T> items) noexcept {
    const std::size_t n = write(items);
    if (n < items.size()) addDropped(items.size() - n);
    return n;
  }

  // Consumer thread. Never blocks. Returns false when the ring is empty (out untouched).
  bool tryPop(T& out) noexcept {
    const std::size_t tail = cons_.tail.load(std::memory_order_relaxed);
    if (tail == cons_.cachedHead) {
      cons_.cachedHead = prod_.head.load(std::memory_order_acquire);
      if (tail == cons_.cachedHead) return false;
    }
    out = slots_[tail & mask_];
    cons_.tail.store(tail + 1, std::memory_order_release);
    return true;
  }

  // Consumer thread. Copies up to out.size() of the oldest items into out; returns the count (possibly 0).
  std::size_t read(std::span<T> out) noexcept {
    const std::size_t tail = cons_.tail.load(std::memory_order_relaxed);
    std::size_t avail = cons_.cachedHead - tail;
    if (avail < out.size()) {
      cons_.cachedHead = prod_.head.load(std::memory_order_acquire);
      avail = cons_.cachedHead - tail;
    }
    const std::size_t n = std::min(avail, out.size());
    if (n == 0) return 0;
    const std::size_t at = tail & mask_;
    const std::size_t first = std::min(n, capacity_ - at);
    std::copy_n(slots_.get() + at, first, out.data());
    std::copy_n(slots_.get(), n - first, out.data() + first);
    cons_.tail.store(tail + n, std::memory_order_release);
    return n;
  }

  // Any thread. Items currently stored: exact from the consumer's point of view (a lower bound while the producer
  // runs), an instantaneous estimate from other threads.
  std::size_t size() const noexcept {
    // Tail first: the head read afterwards can only be larger, so the difference never underflows.
    const std::size_t tail = cons_.tail.load(std::memory_order_acquire);
    const std::size_t head = prod_.head.load(std::memory_order_acquire);
    return std::min(head - tail, capacity_);
  }

  std::size_t capacity() const noexcept { return capacity_; }  // any thread

  // Any thread. Items refused by pushOrDrop/writeOrDrop since create().
  std::uint64_t dropped() const noexcept { return prod_.dropped.load(std::memory_order_relaxed); }

 private:
  // Single writer (the producer): a plain load+store, no locked read-modify-write on the hot path.
  void addDropped(std::size_t n) noexcept {
    prod_.dropped.store(prod_.dropped.load(std::memory_order_relaxed) + n, std::memory_order_relaxed);
  }

  void moveFrom(SpscRing& other) noexcept {
    slots_ = std::move(other.slots_);
    capacity_ = std::exchange(other.capacity_, 0);
    mask_ = std::exchange(other.mask_, 0);
    prod_.head.store(other.prod_.head.exchange(0, std::memory_order_relaxed), std::memory_order_relaxed);
    prod_.cachedTail = std::exchange(other.prod_.cachedTail, 0);
    prod_.dropped.store(other.prod_.dropped.exchange(0, std::memory_order_relaxed), std::memory_order_relaxed);
    cons_.tail.store(other.cons_.tail.exchange(0, std::memory_order_relaxed), std::memory_order_relaxed);
    cons_.cachedHead = std::exchange(other.cons_.cachedHead, 0);
  }

  // Written by the producer; the consumer reads head only when its cached copy runs out.
  struct alignas(kCacheLine) ProducerSide {
    std::atomic<std::size_t> head{0};  // next index to write (monotonic; slot = head & mask_)
    std::size_t cachedTail = 0;        // producer's last view of cons_.tail
    std::atomic<std::uint64_t> dropped{0};
  };
  // Written by the consumer; the producer reads tail only when its cached copy says full.
  struct alignas(kCacheLine) ConsumerSide {
    std::atomic<std::size_t> tail{0};  // next index to read (monotonic)
    std::size_t cachedHead = 0;        // consumer's last view of prod_.head
  };

  // Read-only after create(): shares a line that neither side writes.
  alignas(kCacheLine) std::unique_ptr<T[]> slots_;
  std::size_t capacity_ = 0;
  std::size_t mask_ = 0;
  ProducerSide prod_;
  ConsumerSide cons_;
};

}  // namespace sotto::pipeline
