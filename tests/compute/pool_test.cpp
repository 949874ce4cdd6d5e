// SPDX-License-Identifier: MIT
// The compute worker pool: every part and index runs exactly once, back-to-back runs (spinning and sleeping
// waits), option errors, and no allocation per run.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

#include "sotto/hal/thread_pool.h"
#include "tests/support/alloc_counter.h"

namespace sotto::test {
namespace {

std::unique_ptr<hal::ThreadPool> makePool(unsigned threads, unsigned spinMicros = 100) {
  hal::ThreadPoolOptions o;
  o.threads = threads;
  o.spinMicros = spinMicros;
  auto p = hal::ThreadPool::create(o);
  EXPECT_TRUE(p.ok()) << (p.ok() ? "" : p.error().message);
  return p.ok() ? std::move(*p) : nullptr;
}

class CountParts final : public hal::ParallelTask {
 public:
  void runPart(unsigned thread, unsigned threads) override {
    seen[thread].fetch_add(1);
    total.store(threads);
  }
  std::atomic<int> seen[8] = {};
  std::atomic<unsigned> total{0};
};

TEST(ThreadPool, RunCallsEachPartOnceWithItsIndex) {
  for (unsigned n = 1; n <= 4; ++n) {
    auto pool = makePool(n);
    ASSERT_NE(pool, nullptr);
    EXPECT_EQ(pool->threads(), n);
    CountParts task;
    pool->run(task);
    EXPECT_EQ(task.total.load(), n);
    for (unsigned i = 0; i < 8; ++i) EXPECT_EQ(task.seen[i].load(), i < n ? 1 : 0) << "threads " << n << " part " << i;
  }
}

TEST(ThreadPool, CallerRunsPartZeroOnItsOwnThread) {
  auto pool = makePool(3);
  ASSERT_NE(pool, nullptr);
  class RecordThreads final : public hal::ParallelTask {
   public:
    void runPart(unsigned thread, unsigned) override { ids[thread] = std::this_thread::get_id(); }
    std::thread::id ids[3];
  } task;
  pool->run(task);
  EXPECT_EQ(task.ids[0], std::this_thread::get_id());
  EXPECT_NE(task.ids[1], std::this_thread::get_id());
  EXPECT_NE(task.ids[2], std::this_thread::get_id());
  EXPECT_NE(task.ids[1], task.ids[2]);
}

TEST(ThreadPool, ParallelForCoversEveryIndexExactlyOnce) {
  for (unsigned threads : {1u, 2u, 3u, 4u}) {
    auto pool = makePool(threads);
    ASSERT_NE(pool, nullptr);
    for (size_t n : {size_t{1}, size_t{7}, size_t{64}, size_t{1000}, size_t{4099}}) {
      for (size_t grain : {size_t{0}, size_t{1}, size_t{3}, size_t{64}, size_t{5000}}) {
        std::vector<std::atomic<int>> hits(n);
        pool->parallelFor(n, grain, [&](size_t b, size_t e, unsigned thread) {
          EXPECT_LT(thread, threads);
          EXPECT_LT(b, e);
          EXPECT_LE(e - b, grain == 0 ? 1 : grain);
          for (size_t i = b; i < e; ++i) hits[i].fetch_add(1);
        });
        for (size_t i = 0; i < n; ++i) ASSERT_EQ(hits[i].load(), 1) << threads << " " << n << " " << grain << " " << i;
      }
    }
  }
}

TEST(ThreadPool, ManyBackToBackRunsBothSpinningAndSleeping) {
  // spinMicros 0 sends every wait through the futex: a lost wake-up would hang here.
  for (unsigned spin : {0u, 200u}) {
    auto pool = makePool(3, spin);
    ASSERT_NE(pool, nullptr);
    std::atomic<uint64_t> sum{0};
    for (int r = 0; r < 3000; ++r) {
      pool->parallelFor(6, 1, [&](size_t b, size_t e, unsigned) {
        for (size_t i = b; i < e; ++i) sum.fetch_add(i + 1);
      });
      if (r % 500 == 0) std::this_thread::sleep_for(std::chrono::microseconds(300));  // let workers fall asleep
    }
    EXPECT_EQ(sum.load(), 3000u * 21u) << "spin " << spin;
  }
}

TEST(ThreadPool, RejectsInvalidOptions) {
  hal::ThreadPoolOptions zero;
  zero.threads = 0;
  auto a = hal::ThreadPool::create(zero);
  ASSERT_FALSE(a.ok());
  EXPECT_EQ(a.error().code, Errc::invalid_argument);
  hal::ThreadPoolOptions badCpu;
  badCpu.threads = 2;
  badCpu.cpus = {100000};
  EXPECT_FALSE(hal::ThreadPool::create(badCpu).ok());
}

TEST(ThreadPool, PinsWorkersWhenAsked) {
  hal::ThreadPoolOptions o;
  o.threads = 2;
  o.cpus = {0};
  auto p = hal::ThreadPool::create(o);
  ASSERT_TRUE(p.ok()) << p.error().message;
  class RecordCpu final : public hal::ParallelTask {
   public:
    void runPart(unsigned thread, unsigned) override {
      if (thread == 1) cpu.store(sched_getcpu());
    }
    std::atomic<int> cpu{-1};
  } task;
  (*p)->run(task);  // part 1 always runs on worker 1
  EXPECT_EQ(task.cpu.load(), 0);
}

TEST(ThreadPool, RunDoesNotAllocate) {
  if (!AllocCounter::supported()) GTEST_SKIP() << "allocation counting unavailable (" << AllocCounter::mode() << ")";
  auto pool = makePool(3);
  ASSERT_NE(pool, nullptr);
  std::atomic<size_t> sum{0};
  auto body = [&](size_t b, size_t e, unsigned) { sum.fetch_add(e - b); };
  pool->parallelFor(100, 1, body);  // warm-up
  NoAllocScope scope(AllocScope::allThreads);
  for (int i = 0; i < 200; ++i) pool->parallelFor(100, 1, body);
  EXPECT_EQ(scope.allocations(), 0u);
  EXPECT_EQ(sum.load(), 201u * 100u);
}

}  // namespace
}  // namespace sotto::test
