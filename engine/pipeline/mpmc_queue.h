// SPDX-License-Identifier: MIT
// MpmcQueue<T>: bounded lock-free multi-producer queue (Vyukov's sequence-numbered ring) under MpscMailbox.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <string>
#include <type_traits>
#include <utility>

#include "engine/pipeline/cache_line.h"
#include "sotto/hal/result.h"

namespace sotto::pipeline {

// Each cell carries a sequence number that tells producers and consumers whose turn the cell is, so a push is
// one CAS on the enqueue index plus two stores and a pop one CAS on the dequeue index plus two stores; no locks,
// no allocation, no system calls. Safe for any number of producer and consumer threads; MpscMailbox uses it with
// one consumer.
//
// Threads: tryPush and tryPop from any thread, never blocking (lock-free, not wait-free: a CAS may retry under
// contention). create(), moves and destruction at configure time with no other thread using the queue.
// Known property of the algorithm: a producer preempted between claiming a cell and publishing it makes tryPop
// report "empty" for that cell until it resumes; items behind it wait too (they are never lost or reordered).
template <typename T>
class MpmcQueue {
  static_assert(std::is_trivially_copyable_v<T>, "items are copied into and out of cells");
  static_assert(std::is_default_constructible_v<T>, "cells are value-initialized once at create()");

 public:
  static constexpr std::size_t kMaxCapacity = (std::size_t{1} << (sizeof(std::size_t) * 8 - 2)) / (sizeof(T) + 8);

  MpmcQueue() noexcept = default;  // capacity 0: every push and pop fails

  // Control thread, configure time. capacity: a power of two >= 2 (with one cell, a full and an empty cell
  // would carry the same sequence number).
  static Result<MpmcQueue> create(std::size_t capacity) {
    if (capacity < 2 || !isPowerOfTwo(capacity) || capacity > kMaxCapacity) {
      return makeError(Errc::invalid_argument,
                       "MpmcQueue capacity " + std::to_string(capacity) + " is not a power of two in [2, " +
                           std::to_string(kMaxCapacity) + "]");
    }
    std::unique_ptr<Cell[]> cells(new (std::nothrow) Cell[capacity]());
    if (!cells) return makeError(Errc::busy, "MpmcQueue: out of memory for " + std::to_string(capacity) + " items");
    for (std::size_t i = 0; i < capacity; ++i) cells[i].seq.store(i, std::memory_order_relaxed);
    MpmcQueue q;
    q.cells_ = std::move(cells);
    q.capacity_ = capacity;
    q.mask_ = capacity - 1;
    return q;
  }

  MpmcQueue(const MpmcQueue&) = delete;
  MpmcQueue& operator=(const MpmcQueue&) = delete;
  MpmcQueue(MpmcQueue&& other) noexcept { moveFrom(other); }  // configure time only
  MpmcQueue& operator=(MpmcQueue&& other) noexcept {
    if (this != &other) moveFrom(other);
    return *this;
  }
  ~MpmcQueue() = default;

  // Any thread. Never blocks; false when full.
  bool tryPush(const T& item) noexcept {
    if (capacity_ == 0) return false;
    std::size_t pos = enqueuePos_.load(std::memory_order_relaxed);
    Cell* cell;
    for (;;) {
      cell = &cells_[pos & mask_];
      const std::size_t seq = cell->seq.load(std::memory_order_acquire);
      // Modular difference read as signed: 0 = free for this lap, < 0 = still holds last lap's item (full).
      const auto dif = static_cast<std::ptrdiff_t>(seq - pos);
      if (dif == 0) {
        if (enqueuePos_.compare_exchange_weak(pos, pos + 1, std::memory_order_relaxed)) break;
      } else if (dif < 0) {
        return false;
      } else {
        pos = enqueuePos_.load(std::memory_order_relaxed);  // another producer took it; catch up
      }
    }
    cell->value = item;
    cell->seq.store(pos + 1, std::memory_order_release);  // publishes value to the consumer
    return true;
  }

  // Any thread. Never blocks; false when empty (or the oldest item is not yet published, see above).
  bool tryPop(T& out) noexcept {
    if (capacity_ == 0) return false;
    std::size_t pos = dequeuePos_.load(std::memory_order_relaxed);
    Cell* cell;
    for (;;) {
      cell = &cells_[pos & mask_];
      const std::size_t seq = cell->seq.load(std::memory_order_acquire);
      const auto dif = static_cast<std::ptrdiff_t>(seq - (pos + 1));
      if (dif == 0) {
        if (dequeuePos_.compare_exchange_weak(pos, pos + 1, std::memory_order_relaxed)) break;
      } else if (dif < 0) {
        return false;
      } else {
        pos = dequeuePos_.load(std::memory_order_relaxed);
      }
    }
    out = cell->value;
    cell->seq.store(pos + capacity_, std::memory_order_release);  // free for the producers' next lap
    return true;
  }

  std::size_t capacity() const noexcept { return capacity_; }  // any thread

  // Any thread. Instantaneous estimate (claimed, not necessarily published, items).
  std::size_t sizeApprox() const noexcept {
    const std::size_t deq = dequeuePos_.load(std::memory_order_acquire);
    const std::size_t enq = enqueuePos_.load(std::memory_order_acquire);
    const auto n = static_cast<std::ptrdiff_t>(enq - deq);
    if (n <= 0) return 0;
    return static_cast<std::size_t>(n) > capacity_ ? capacity_ : static_cast<std::size_t>(n);
  }

 private:
  struct Cell {
    std::atomic<std::size_t> seq{0};
    T value{};
  };

  void moveFrom(MpmcQueue& other) noexcept {
    cells_ = std::move(other.cells_);
    capacity_ = std::exchange(other.capacity_, 0);
    mask_ = std::exchange(other.mask_, 0);
    enqueuePos_.store(other.enqueuePos_.exchange(0, std::memory_order_relaxed), std::memory_order_relaxed);
    dequeuePos_.store(other.dequeuePos_.exchange(0, std::memory_order_relaxed), std::memory_order_relaxed);
  }

  alignas(kCacheLine) std::unique_ptr<Cell[]> cells_;  // read-only after create()
  std::size_t capacity_ = 0;
  std::size_t mask_ = 0;
  alignas(kCacheLine) std::atomic<std::size_t> enqueuePos_{0};  // contended by producers only
  alignas(kCacheLine) std::atomic<std::size_t> dequeuePos_{0};  // the consumer's
};

}  // namespace sotto::pipeline
