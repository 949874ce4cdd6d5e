// SPDX-License-Identifier: MIT
// ThreadPool: preallocated compute workers that split one op across threads (spin briefly, then futex sleep).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "sotto/hal/result.h"

namespace sotto::hal {

struct ThreadPoolOptions {
  unsigned threads = 1;        // total, including the thread that calls run(); 1 = everything runs inline
  std::vector<int> cpus;       // worker i (1 .. threads-1) is pinned to cpus[(i - 1) % size]; empty = not pinned
  std::string name = "sotto-compute";  // workers are named name + "-" + index (Linux keeps 15 bytes)
  // An idle worker spins this long for the next op before sleeping. Ops of a forward pass come tens of µs apart,
  // but one thread's part can end hundreds of µs before the others': at 100 µs a 20-token prefill made 15,000 futex
  // calls per 20 runs (a wake-up each, ~50 µs in a VM); at 1,000 µs, 84.
  unsigned spinMicros = 1000;
};

// One piece of parallel work: runPart is called once on each of the pool's threads with that thread's index
// (0 = the caller of run()) and the thread count. Parts run concurrently; they must not allocate, lock or log.
class ParallelTask {
 public:
  virtual void runPart(unsigned thread, unsigned threads) = 0;

 protected:
  ParallelTask() = default;
  ParallelTask(const ParallelTask&) = default;
  ParallelTask& operator=(const ParallelTask&) = default;
  ~ParallelTask() = default;  // not owned through this interface
};

class ThreadPool {
 public:
  // Starts threads-1 workers with names and affinity applied. Control thread; blocks while starting.
  // Invalid options (0 threads, a CPU that does not exist) are an error and no worker is left running.
  static Result<std::unique_ptr<ThreadPool>> create(const ThreadPoolOptions& options);
  ~ThreadPool();  // wakes, stops and joins the workers (control thread)
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  unsigned threads() const noexcept { return threads_; }

  // Runs task.runPart(i, threads()) on every thread, the caller being thread 0, and returns when all parts are
  // done. One owner thread at a time (the compute thread); never allocates or locks; blocks until the parts finish
  // (spin, then futex wait). Not reentrant: a part must not call run() on the same pool.
  void run(ParallelTask& task);

  // Splits [0, n) into chunks of at most `grain` items that the threads take in turn (dynamic, so a descheduled
  // thread does not hold the others back); calls f(begin, end, thread) for each chunk. Same rules as run();
  // runs on the caller alone when n <= grain or the pool has one thread. f is borrowed (no copy, no allocation).
  template <typename F>
  void parallelFor(size_t n, size_t grain, F&& f);

 private:
  struct Shared;
  explicit ThreadPool(unsigned threads);
  unsigned threads_;
  std::unique_ptr<Shared> shared_;
};

namespace detail {
template <typename F>
class ChunkedFor final : public ParallelTask {
 public:
  ChunkedFor(size_t n, size_t grain, F& f) : n_(n), grain_(grain), f_(f) {}
  void runPart(unsigned thread, unsigned /*threads*/) override {
    for (;;) {
      const size_t begin = next_.fetch_add(grain_, std::memory_order_relaxed);
      if (begin >= n_) return;
      const size_t end = n_ - begin < grain_ ? n_ : begin + grain_;
      f_(begin, end, thread);
    }
  }

 private:
  size_t n_;
  size_t grain_;
  F& f_;
  alignas(64) std::atomic<size_t> next_{0};
};
}  // namespace detail

template <typename F>
void ThreadPool::parallelFor(size_t n, size_t grain, F&& f) {
  if (n == 0) return;
  if (grain == 0) grain = 1;
  if (threads_ == 1 || n <= grain) {
    for (size_t begin = 0; begin < n; begin += grain) f(begin, n - begin < grain ? n : begin + grain, 0u);
    return;
  }
  detail::ChunkedFor<std::remove_reference_t<F>> task(n, grain, f);
  run(task);
}

}  // namespace sotto::hal
