// SPDX-License-Identifier: MIT
// Wakeup: a hand-off between threads that sleeps instead of polling (a futex word, as hal/compute/pool does).
// Header-only: every user of CancelToken (which notifies Wakeups) gets it without another library.
#pragma once

#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <climits>
#include <cstdint>

namespace sotto::pipeline {

// The producer makes its change visible (a ring write, a mailbox post, a flag), then calls notify(). The consumer
// takes a ticket with prepare(), checks for work, and only if there is none calls wait(ticket): a notify() after
// prepare() is never lost, because wait() returns at once when the ticket is stale. Spurious returns happen; the
// consumer re-checks in a loop.
// Threads: notify() from any thread, the real-time audio thread included: lock-free, no allocation, and a system
// call (FUTEX_WAKE) only while a thread is waiting. prepare()/wait() from any thread (typically one consumer).
class Wakeup {
 public:
  void notify() noexcept {
    seq_.fetch_add(1, std::memory_order_seq_cst);
    if (waiters_.load(std::memory_order_seq_cst) != 0) wakeAll();
  }
  std::uint32_t prepare() const noexcept { return seq_.load(std::memory_order_seq_cst); }
  // Blocks until a notify() after the prepare() that returned `ticket`, or for at most timeoutNs (< 0: no time
  // bound). True when notified (or spuriously woken), false when the time ran out. Never allocates.
  bool wait(std::uint32_t ticket, std::int64_t timeoutNs = -1) noexcept {
    // Counted before the last look at seq_: either notify() sees a waiter and wakes us, or we see its new seq_
    // (both sides seq_cst), and the kernel re-checks seq_ == ticket atomically before it sleeps.
    waiters_.fetch_add(1, std::memory_order_seq_cst);
    bool notified = true;
    if (seq_.load(std::memory_order_seq_cst) == ticket) {
      timespec ts{};
      if (timeoutNs >= 0) {
        ts.tv_sec = static_cast<time_t>(timeoutNs / 1'000'000'000);
        ts.tv_nsec = static_cast<long>(timeoutNs % 1'000'000'000);
      }
      const long r = syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&seq_), FUTEX_WAIT_PRIVATE, ticket,
                             timeoutNs >= 0 ? &ts : nullptr, nullptr, 0);
      notified = !(r != 0 && errno == ETIMEDOUT);
    }
    waiters_.fetch_sub(1, std::memory_order_seq_cst);
    return notified;
  }
  // Notifications so far (tests).
  std::uint32_t notifications() const noexcept { return seq_.load(std::memory_order_relaxed); }

 private:
  void wakeAll() noexcept {
    syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&seq_), FUTEX_WAKE_PRIVATE, INT_MAX, nullptr, nullptr, 0);
  }
  std::atomic<std::uint32_t> seq_{0};
  std::atomic<std::uint32_t> waiters_{0};
};

}  // namespace sotto::pipeline
