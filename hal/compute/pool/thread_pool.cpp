// SPDX-License-Identifier: MIT
// The compute worker pool: workers spin briefly for the next op (decode runs hundreds of ops per token), then
// sleep on a futex; the caller takes part and waits for the rest the same way. No allocation or lock per run.
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <chrono>
#include <climits>

#include "sotto/hal/rt.h"
#include "sotto/hal/thread_pool.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace sotto::hal {
namespace {

void futexWait(std::atomic<uint32_t>* word, uint32_t expected) {
  // Returns on a wake, a spurious wake-up or when *word != expected: callers re-check in a loop.
  syscall(SYS_futex, reinterpret_cast<uint32_t*>(word), FUTEX_WAIT_PRIVATE, expected, nullptr, nullptr, 0);
}

void futexWakeAll(std::atomic<uint32_t>* word) {
  syscall(SYS_futex, reinterpret_cast<uint32_t*>(word), FUTEX_WAKE_PRIVATE, INT_MAX, nullptr, nullptr, 0);
}

inline void cpuRelax() {
#if defined(__x86_64__)
  _mm_pause();
#elif defined(__aarch64__)
  __asm__ __volatile__("yield");
#endif
}

// Spins until pred() or the deadline; true when pred() became true. Reads the clock every 64 spins only.
template <typename Pred>
bool spinUntil(Pred pred, std::chrono::microseconds budget) {
  const auto deadline = std::chrono::steady_clock::now() + budget;
  for (unsigned i = 1;; ++i) {
    if (pred()) return true;
    cpuRelax();
    if ((i & 63u) == 0 && std::chrono::steady_clock::now() >= deadline) return pred();
  }
}

}  // namespace

// Words the threads wait on live on their own cache lines so spinning readers do not slow the writers.
struct ThreadPool::Shared {
  alignas(64) std::atomic<uint32_t> epoch{0};      // bumped once per run (and at stop): workers wait on it
  alignas(64) std::atomic<uint32_t> remaining{0};  // workers still running the current task: the caller waits
  alignas(64) std::atomic<uint32_t> sleepers{0};   // workers inside futexWait(epoch)
  std::atomic<uint32_t> callerSleeping{0};
  std::atomic<bool> stop{false};
  ParallelTask* task = nullptr;  // written before epoch is bumped (release), read after (acquire)
  std::chrono::microseconds spin{0};
  std::vector<RtThread> workers;
};

ThreadPool::ThreadPool(unsigned threads) : threads_(threads), shared_(std::make_unique<Shared>()) {}

Result<std::unique_ptr<ThreadPool>> ThreadPool::create(const ThreadPoolOptions& options) {
  if (options.threads == 0 || options.threads > 1024) {
    return makeError(Errc::invalid_argument, "thread pool: " + std::to_string(options.threads) + " threads");
  }
  std::unique_ptr<ThreadPool> pool(new ThreadPool(options.threads));
  Shared* s = pool->shared_.get();
  s->spin = std::chrono::microseconds(options.spinMicros);
  s->workers.reserve(options.threads - 1);
  for (unsigned i = 1; i < options.threads; ++i) {
    ThreadOptions to;
    to.name = options.name + "-" + std::to_string(i);
    if (to.name.size() > 15) to.name.resize(15);
    if (!options.cpus.empty()) to.cpus = {options.cpus[(i - 1) % options.cpus.size()]};
    const unsigned threads = options.threads;
    auto worker = RtThread::start(to, [s, i, threads] {
      uint32_t seen = 0;
      for (;;) {
        const auto changed = [&] { return s->epoch.load(std::memory_order_acquire) != seen; };
        if (!spinUntil(changed, s->spin)) {
          s->sleepers.fetch_add(1, std::memory_order_seq_cst);
          while (!changed()) futexWait(&s->epoch, seen);
          s->sleepers.fetch_sub(1, std::memory_order_relaxed);
        }
        seen = s->epoch.load(std::memory_order_acquire);
        if (s->stop.load(std::memory_order_acquire)) return;
        s->task->runPart(i, threads);
        if (s->remaining.fetch_sub(1, std::memory_order_seq_cst) == 1 &&
            s->callerSleeping.load(std::memory_order_seq_cst) != 0) {
          futexWakeAll(&s->remaining);
        }
      }
    });
    if (!worker) return std::move(worker).error();  // the destructor stops the workers already started
    s->workers.push_back(std::move(*worker));
  }
  return pool;
}

ThreadPool::~ThreadPool() {
  Shared* s = shared_.get();
  if (s->workers.empty()) return;
  s->stop.store(true, std::memory_order_release);
  s->epoch.fetch_add(1, std::memory_order_seq_cst);
  futexWakeAll(&s->epoch);
  for (RtThread& t : s->workers) t.join();
}

void ThreadPool::run(ParallelTask& task) {
  Shared* s = shared_.get();
  const auto workers = static_cast<uint32_t>(s->workers.size());
  if (workers == 0) {
    task.runPart(0, 1);
    return;
  }
  s->task = &task;
  s->remaining.store(workers, std::memory_order_relaxed);
  // seq_cst pairs with the worker's sleepers increment: either we see it and wake, or it sees the new epoch.
  s->epoch.fetch_add(1, std::memory_order_seq_cst);
  if (s->sleepers.load(std::memory_order_seq_cst) != 0) futexWakeAll(&s->epoch);
  task.runPart(0, threads_);
  const auto done = [s] { return s->remaining.load(std::memory_order_acquire) == 0; };
  if (!spinUntil(done, s->spin)) {
    s->callerSleeping.store(1, std::memory_order_seq_cst);
    for (uint32_t r; (r = s->remaining.load(std::memory_order_seq_cst)) != 0;) futexWait(&s->remaining, r);
    s->callerSleeping.store(0, std::memory_order_relaxed);
  }
}

}  // namespace sotto::hal
