// SPDX-License-Identifier: MIT
// Arena and ObjectPool: alignment, exhaustion without growth, reset/rewind, high-water marks, O(1) reuse.
#include "engine/pipeline/arena.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <set>
#include <vector>

namespace sotto::pipeline {
namespace {

bool alignedTo(const void* p, std::size_t a) { return reinterpret_cast<std::uintptr_t>(p) % a == 0; }

Arena makeArena(std::size_t bytes) {
  auto r = Arena::create(bytes);
  EXPECT_TRUE(r.ok());
  return std::move(r).value();
}

TEST(Arena, CreateRefusesZero) {
  auto r = Arena::create(0);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, Errc::invalid_argument);
}

TEST(Arena, AllocationsAreAlignedAndDisjoint) {
  Arena arena = makeArena(4096);
  auto* a = static_cast<std::byte*>(arena.allocate(1, 1));
  auto* b = static_cast<std::byte*>(arena.allocate(8, 8));
  auto* c = static_cast<std::byte*>(arena.allocate(3, 64));
  auto* d = static_cast<std::byte*>(arena.allocate(100));
  ASSERT_TRUE(a && b && c && d);
  EXPECT_TRUE(alignedTo(b, 8));
  EXPECT_TRUE(alignedTo(c, 64));
  EXPECT_TRUE(alignedTo(d, alignof(std::max_align_t)));
  EXPECT_GE(b, a + 1);
  EXPECT_GE(c, b + 8);
  EXPECT_GE(d, c + 3);
  EXPECT_LE(d + 100, static_cast<std::byte*>(arena.allocate(0, 1)));  // next position is past d
  // Alignment above the base alignment works (address-based, not offset-based).
  void* page = arena.allocate(16, 1024);
  ASSERT_NE(page, nullptr);
  EXPECT_TRUE(alignedTo(page, 1024));
}

TEST(Arena, ExhaustionFailsWithoutGrowing) {
  Arena arena = makeArena(256);
  EXPECT_NE(arena.allocate(200, 1), nullptr);
  EXPECT_EQ(arena.allocate(57, 1), nullptr);  // 200 + 57 > 256
  EXPECT_EQ(arena.failedAllocations(), 1u);
  EXPECT_NE(arena.allocate(56, 1), nullptr);  // exactly fills it
  EXPECT_EQ(arena.used(), 256u);
  EXPECT_EQ(arena.allocate(1, 1), nullptr);
  EXPECT_EQ(arena.capacity(), 256u);  // never grows
  // Sizes near SIZE_MAX must fail, not wrap around.
  arena.reset();
  EXPECT_EQ(arena.allocate(std::numeric_limits<std::size_t>::max(), 1), nullptr);
  EXPECT_EQ(arena.allocate(std::numeric_limits<std::size_t>::max() - 8, 16), nullptr);
  EXPECT_EQ(arena.allocateArray<std::uint64_t>(std::numeric_limits<std::size_t>::max() / 4), nullptr);
  EXPECT_EQ(arena.used(), 0u);
}

TEST(Arena, InvalidAlignmentFails) {
  Arena arena = makeArena(256);
  EXPECT_EQ(arena.allocate(8, 0), nullptr);
  EXPECT_EQ(arena.allocate(8, 3), nullptr);
  EXPECT_EQ(arena.allocate(8, 48), nullptr);
  EXPECT_EQ(arena.failedAllocations(), 3u);
  EXPECT_EQ(arena.used(), 0u);
}

TEST(Arena, ResetKeepsHighWaterAndRewindReturnsToMark) {
  Arena arena = makeArena(1024);
  ASSERT_NE(arena.allocate(100, 1), nullptr);
  const Arena::Marker m = arena.mark();
  void* first = arena.allocate(300, 1);
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(arena.used(), 400u);
  arena.rewind(m);
  EXPECT_EQ(arena.used(), 100u);
  EXPECT_EQ(arena.allocate(300, 1), first);  // the same memory comes back
  EXPECT_EQ(arena.highWater(), 400u);
  arena.reset();
  EXPECT_EQ(arena.used(), 0u);
  EXPECT_EQ(arena.highWater(), 400u);
  ASSERT_NE(arena.allocate(50, 1), nullptr);
  EXPECT_EQ(arena.highWater(), 400u);
  ASSERT_NE(arena.allocate(500, 1), nullptr);
  EXPECT_EQ(arena.highWater(), 550u);
}

struct Point {
  float x;
  float y;
  Point(float a, float b) noexcept : x(a), y(b) {}
};

TEST(Arena, TypedHelpers) {
  Arena arena = makeArena(1024);
  Point* p = arena.make<Point>(1.5f, 2.5f);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->x, 1.5f);
  EXPECT_EQ(p->y, 2.5f);
  double* xs = arena.allocateArray<double>(16);
  ASSERT_NE(xs, nullptr);
  EXPECT_TRUE(alignedTo(xs, alignof(double)));
  for (int i = 0; i < 16; ++i) xs[i] = i;
  EXPECT_EQ(xs[15], 15.0);
  EXPECT_EQ(arena.allocateArray<double>(1000), nullptr);
}

TEST(Arena, DefaultAndMovedFromArenasRefuse) {
  Arena none;
  EXPECT_EQ(none.allocate(0, 1), nullptr);
  Arena a = makeArena(128);
  ASSERT_NE(a.allocate(64, 1), nullptr);
  Arena b = std::move(a);
  EXPECT_EQ(b.used(), 64u);
  EXPECT_EQ(b.capacity(), 128u);
  EXPECT_EQ(a.allocate(1, 1), nullptr);  // NOLINT(bugprone-use-after-move): moved-from is empty by design
  EXPECT_NE(b.allocate(64, 1), nullptr);
}

struct Tracked {
  static inline int live = 0;
  int id;
  explicit Tracked(int i) noexcept : id(i) { ++live; }
  ~Tracked() { --live; }
};

TEST(ObjectPool, AcquireUntilExhaustedThenReuse) {
  EXPECT_FALSE(ObjectPool<Tracked>::create(0).ok());
  auto r = ObjectPool<Tracked>::create(4);
  ASSERT_TRUE(r.ok());
  auto pool = std::move(r).value();
  std::vector<Tracked*> objs;
  for (int i = 0; i < 4; ++i) {
    Tracked* t = pool.acquire(i);
    ASSERT_NE(t, nullptr);
    EXPECT_EQ(t->id, i);
    EXPECT_TRUE(pool.owns(t));
    objs.push_back(t);
  }
  EXPECT_EQ(Tracked::live, 4);
  EXPECT_EQ(std::set<Tracked*>(objs.begin(), objs.end()).size(), 4u);
  EXPECT_EQ(pool.acquire(9), nullptr);
  EXPECT_EQ(pool.available(), 0u);
  pool.release(objs[2]);
  EXPECT_EQ(Tracked::live, 3);  // destructor ran
  EXPECT_EQ(pool.inUse(), 3u);
  Tracked* again = pool.acquire(7);
  EXPECT_EQ(again, objs[2]);  // the freed slot, O(1)
  EXPECT_EQ(again->id, 7);
  pool.release(nullptr);  // ignored
  for (Tracked* t : {objs[0], objs[1], again, objs[3]}) pool.release(t);
  EXPECT_EQ(Tracked::live, 0);
  EXPECT_EQ(pool.available(), 4u);
  EXPECT_EQ(pool.highWater(), 4u);
  int outside = 0;
  EXPECT_FALSE(pool.owns(reinterpret_cast<Tracked*>(&outside)));
}

TEST(ObjectPool, ManyCyclesStayWithinTheSlots) {
  auto r = ObjectPool<std::uint64_t>::create(8);
  ASSERT_TRUE(r.ok());
  auto pool = std::move(r).value();
  std::vector<std::uint64_t*> held;
  for (std::uint64_t round = 0; round < 1000; ++round) {
    const std::size_t n = 1 + round % 8;
    for (std::size_t i = 0; i < n; ++i) {
      std::uint64_t* p = pool.acquire(round * 16 + i);
      ASSERT_NE(p, nullptr);
      ASSERT_TRUE(pool.owns(p));
      held.push_back(p);
    }
    for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(*held[i], round * 16 + i);  // no two live objects share a slot
    for (std::uint64_t* p : held) pool.release(p);
    held.clear();
  }
  EXPECT_EQ(pool.inUse(), 0u);
  EXPECT_EQ(pool.highWater(), 8u);
}

struct alignas(64) Wide {
  std::uint8_t bytes[3];
};

TEST(ObjectPool, OverAlignedTypesAreAligned) {
  auto r = ObjectPool<Wide>::create(5);
  ASSERT_TRUE(r.ok());
  auto pool = std::move(r).value();
  std::vector<Wide*> objs;
  for (int i = 0; i < 5; ++i) {
    Wide* w = pool.acquire();
    ASSERT_NE(w, nullptr);
    EXPECT_TRUE(alignedTo(w, 64));
    objs.push_back(w);
  }
  for (Wide* w : objs) pool.release(w);
}

}  // namespace
}  // namespace sotto::pipeline
