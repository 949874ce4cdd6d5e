// SPDX-License-Identifier: MIT
// The counting allocator itself: what it must count (vector growth, new, malloc, other threads) and not count.
#include "tests/support/alloc_counter.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <memory>
#include <thread>
#include <vector>

#include "engine/pipeline/spsc_ring.h"

namespace sotto::test {
namespace {

// Makes p escape so the compiler cannot elide the allocation that produced it.
void escape(const void* p) { asm volatile("" : : "g"(p) : "memory"); }

#define SOTTO_SKIP_WITHOUT_COUNTER()                                                       \
  do {                                                                                     \
    if (!AllocCounter::supported()) GTEST_SKIP() << "allocation counting unavailable here" \
                                                 << " (mode " << AllocCounter::mode() << ")"; \
  } while (0)

TEST(AllocCounter, ModeMatchesTheBuild) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  EXPECT_FALSE(AllocCounter::supported());
  EXPECT_STREQ(AllocCounter::mode(), "unsupported");
#else
  EXPECT_TRUE(AllocCounter::supported()) << AllocCounter::mode();
  EXPECT_TRUE(AllocCounter::countsMalloc()) << AllocCounter::mode();
#endif
}

TEST(AllocCounter, VectorPushBackIsCounted) {
  SOTTO_SKIP_WITHOUT_COUNTER();
  AllocCounts counts;
  {
    NoAllocScope scope;
    std::vector<int> v;
    v.push_back(1);
    escape(v.data());
    v.push_back(2);  // grows: allocates again and frees the old block
    escape(v.data());
    counts = scope.counts();
  }
  EXPECT_EQ(counts.allocations, 2u);
  EXPECT_EQ(counts.deallocations, 1u);
}

TEST(AllocCounter, EveryOperatorNewFormIsCounted) {
  SOTTO_SKIP_WITHOUT_COUNTER();
  struct alignas(128) Big {
    char c[128];
  };
  NoAllocScope scope;
  auto* a = new int(1);
  escape(a);
  delete a;
  auto* b = new int[3];
  escape(b);
  delete[] b;
  auto* c = new (std::nothrow) int(2);
  escape(c);
  delete c;
  auto* d = new Big;  // aligned new
  escape(d);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(d) % 128, 0u);
  delete d;
  auto* e = new Big[2];
  escape(e);
  delete[] e;
  const AllocCounts counts = scope.counts();
  EXPECT_EQ(counts.allocations, 5u);
  EXPECT_EQ(counts.deallocations, 5u);
}

TEST(AllocCounter, MallocFamilyIsCounted) {
  SOTTO_SKIP_WITHOUT_COUNTER();
  if (!AllocCounter::countsMalloc()) GTEST_SKIP() << "malloc not counted in this build";
  // Through volatile pointers: a direct malloc/free pair may be optimized away.
  void* (*volatile m)(std::size_t) = &std::malloc;
  void* (*volatile c)(std::size_t, std::size_t) = &std::calloc;
  void* (*volatile r)(void*, std::size_t) = &std::realloc;
  void (*volatile f)(void*) = &std::free;
  NoAllocScope scope;
  void* p = m(10);
  void* q = c(4, 4);
  p = r(p, 4000);
  void* aligned = nullptr;
  ASSERT_EQ(::posix_memalign(&aligned, 64, 100), 0);
  f(p);
  f(q);
  f(aligned);
  f(nullptr);  // not a deallocation
  const AllocCounts counts = scope.counts();
  EXPECT_EQ(counts.allocations, 4u);
  EXPECT_EQ(counts.deallocations, 3u);
}

TEST(AllocCounter, ThisThreadScopeIgnoresOtherThreadsAllThreadsDoesNot) {
  SOTTO_SKIP_WITHOUT_COUNTER();
  std::atomic<int> phase{0};
  std::thread other([&] {
    while (phase.load(std::memory_order_acquire) != 1) std::this_thread::yield();
    auto p = std::make_unique<long>(5);
    escape(p.get());
    p.reset();
    phase.store(2, std::memory_order_release);
    while (phase.load(std::memory_order_acquire) != 3) std::this_thread::yield();
  });
  // The thread exists before the scopes start (creating it allocates on this thread).
  NoAllocScope mine(AllocScope::thisThread);
  NoAllocScope all(AllocScope::allThreads);
  phase.store(1, std::memory_order_release);
  while (phase.load(std::memory_order_acquire) != 2) std::this_thread::yield();
  const AllocCounts mineCounts = mine.counts();
  const AllocCounts allCounts = all.counts();
  phase.store(3, std::memory_order_release);
  other.join();
  EXPECT_EQ(mineCounts.allocations, 0u);
  EXPECT_EQ(mineCounts.deallocations, 0u);
  EXPECT_EQ(allCounts.allocations, 1u);
  EXPECT_EQ(allCounts.deallocations, 1u);
}

TEST(AllocCounter, RingPushAndPopAreNotCounted) {
  SOTTO_SKIP_WITHOUT_COUNTER();
  auto r = pipeline::SpscRing<std::uint64_t>::create(64);  // allocates: before the scope
  ASSERT_TRUE(r.ok());
  auto ring = std::move(r).value();
  NoAllocScope scope;
  std::uint64_t out = 0;
  std::uint64_t sum = 0;
  for (std::uint64_t i = 0; i < 10'000; ++i) {
    ring.pushOrDrop(i);
    if (ring.tryPop(out)) sum += out;
  }
  const AllocCounts counts = scope.counts();
  EXPECT_EQ(sum, 10'000ull * 9'999 / 2);
  EXPECT_EQ(counts.allocations, 0u);
  EXPECT_EQ(counts.deallocations, 0u);
}

}  // namespace
}  // namespace sotto::test
