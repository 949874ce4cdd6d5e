// SPDX-License-Identifier: MIT
// Arena (preallocated bump allocator) and ObjectPool<T> (fixed free list): memory reserved at configure time.
#pragma once

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <string>
#include <type_traits>
#include <utility>

#include "sotto/hal/result.h"

namespace sotto::pipeline {

// A bump allocator over one block reserved at create(). It never grows and never frees individual blocks:
// everything goes at once with reset() or back to a mark() with rewind(), e.g. per utterance or per cycle.
// Destructors of objects placed in it are never run, so make<T>() only accepts trivially destructible types.
//
// Threads: one owner thread at a time (not thread safe; hand over through a mailbox or at configure time).
// Nothing blocks, allocates or makes a system call after create().
class Arena {
 public:
  // Position to return to with rewind().
  struct Marker {
    std::size_t offset = 0;
  };

  Arena() noexcept = default;  // capacity 0: every allocation fails

  // Control thread, configure time. Reserves capacityBytes (cache-line aligned) and touches every page so the
  // real-time thread does not take page faults on first use.
  static Result<Arena> create(std::size_t capacityBytes);

  Arena(const Arena&) = delete;
  Arena& operator=(const Arena&) = delete;
  Arena(Arena&& other) noexcept;
  Arena& operator=(Arena&& other) noexcept;
  ~Arena();

  // Owner thread. bytes of storage aligned to alignment (a power of two), or nullptr when the arena cannot fit
  // it or alignment is invalid (counted in failedAllocations()). bytes == 0 returns a valid aligned pointer.
  void* allocate(std::size_t bytes, std::size_t alignment = alignof(std::max_align_t)) noexcept;

  // Owner thread. count default-initialized T (indeterminate values for trivial types), or nullptr.
  template <typename T>
  T* allocateArray(std::size_t count) noexcept {
    static_assert(std::is_trivially_destructible_v<T>, "the arena never runs destructors");
    static_assert(std::is_nothrow_default_constructible_v<T>);
    if (count > static_cast<std::size_t>(-1) / sizeof(T)) {
      ++failures_;
      return nullptr;
    }
    void* p = allocate(count * sizeof(T), alignof(T));
    if (p == nullptr) return nullptr;
    T* first = static_cast<T*>(p);
    std::uninitialized_default_construct_n(first, count);
    return first;
  }

  // Owner thread. One T constructed from args, or nullptr.
  template <typename T, typename... Args>
  T* make(Args&&... args) noexcept {
    static_assert(std::is_trivially_destructible_v<T>, "the arena never runs destructors");
    static_assert(std::is_nothrow_constructible_v<T, Args...>, "no exceptions on the real-time path");
    void* p = allocate(sizeof(T), alignof(T));
    return p == nullptr ? nullptr : ::new (p) T(std::forward<Args>(args)...);
  }

  Marker mark() const noexcept { return Marker{used_}; }  // owner thread
  // Owner thread. Frees everything allocated after m (m must come from this arena and not lie beyond used()).
  void rewind(Marker m) noexcept;
  void reset() noexcept { used_ = 0; }  // owner thread: frees everything; highWater() is kept

  std::size_t capacity() const noexcept { return capacity_; }
  std::size_t used() const noexcept { return used_; }            // bytes including alignment padding
  std::size_t highWater() const noexcept { return highWater_; }  // largest used() since create(): for sizing
  std::uint64_t failedAllocations() const noexcept { return failures_; }

 private:
  struct AlignedFree {
    void operator()(std::byte* p) const noexcept;
  };

  std::unique_ptr<std::byte, AlignedFree> base_;
  std::size_t capacity_ = 0;
  std::size_t used_ = 0;
  std::size_t highWater_ = 0;
  std::uint64_t failures_ = 0;
};

// A fixed number of T slots with an intrusive free list: acquire() and release() are O(1), never allocate, never
// block. The pool does not track which slots are live: release each object exactly once, and release all of them
// before the pool is destroyed (their destructors are not run by the pool's destructor).
//
// Threads: one owner thread at a time (not thread safe); counters readable by the owner only.
template <typename T>
class ObjectPool {
  static_assert(std::is_nothrow_destructible_v<T>);

 public:
  ObjectPool() noexcept = default;  // capacity 0: every acquire fails

  // Control thread, configure time. count > 0 slots.
  static Result<ObjectPool> create(std::size_t count) {
    if (count == 0 || count > static_cast<std::size_t>(-1) / (2 * sizeof(Slot))) {
      return makeError(Errc::invalid_argument, "ObjectPool size " + std::to_string(count) + " is out of range");
    }
    std::unique_ptr<Slot[]> slots(new (std::nothrow) Slot[count]);
    if (!slots) return makeError(Errc::busy, "ObjectPool: out of memory for " + std::to_string(count) + " objects");
    for (std::size_t i = 0; i < count; ++i) slots[i].next = i + 1 < count ? &slots[i + 1] : nullptr;
    ObjectPool pool;
    pool.slots_ = std::move(slots);
    pool.free_ = &pool.slots_[0];
    pool.capacity_ = count;
    return pool;
  }

  ObjectPool(const ObjectPool&) = delete;
  ObjectPool& operator=(const ObjectPool&) = delete;
  ObjectPool(ObjectPool&& other) noexcept { moveFrom(other); }  // configure time only
  ObjectPool& operator=(ObjectPool&& other) noexcept {
    if (this != &other) moveFrom(other);
    return *this;
  }
  ~ObjectPool() = default;

  // Owner thread. A T constructed from args in a free slot, or nullptr when all slots are in use.
  template <typename... Args>
  T* acquire(Args&&... args) noexcept {
    static_assert(std::is_nothrow_constructible_v<T, Args...>, "no exceptions on the real-time path");
    Slot* slot = free_;
    if (slot == nullptr) return nullptr;
    free_ = slot->next;
    ++inUse_;
    if (inUse_ > highWater_) highWater_ = inUse_;
    return ::new (static_cast<void*>(slot->storage)) T(std::forward<Args>(args)...);
  }

  // Owner thread. Destroys object and returns its slot. nullptr is ignored; a pointer from elsewhere is an
  // invariant violation (asserted in debug builds, ignored in release so the daemon keeps running).
  void release(T* object) noexcept {
    if (object == nullptr) return;
    Slot* slot = slotOf(object);
    assert(slot != nullptr && "ObjectPool::release of a pointer this pool did not hand out");
    if (slot == nullptr) return;
    object->~T();
    slot->next = free_;
    free_ = slot;
    --inUse_;
  }

  // Owner thread. Whether p points at a slot of this pool (live or not).
  bool owns(const T* p) const noexcept { return slotOf(p) != nullptr; }

  std::size_t capacity() const noexcept { return capacity_; }
  std::size_t inUse() const noexcept { return inUse_; }
  std::size_t available() const noexcept { return capacity_ - inUse_; }
  std::size_t highWater() const noexcept { return highWater_; }  // largest inUse() since create()

 private:
  // A free slot holds the free-list link; a live one holds the T.
  union Slot {
    Slot* next;
    alignas(T) std::byte storage[sizeof(T)];
  };

  // Index arithmetic on byte addresses (no pointer casts) both finds the slot and validates ownership.
  Slot* slotOf(const T* p) const noexcept {
    if (capacity_ == 0) return nullptr;
    const auto addr = reinterpret_cast<std::uintptr_t>(p);
    const auto base = reinterpret_cast<std::uintptr_t>(slots_.get());
    if (addr < base) return nullptr;
    const std::uintptr_t off = addr - base;
    if (off % sizeof(Slot) != 0 || off / sizeof(Slot) >= capacity_) return nullptr;
    return &slots_[off / sizeof(Slot)];
  }

  void moveFrom(ObjectPool& other) noexcept {
    slots_ = std::move(other.slots_);
    free_ = std::exchange(other.free_, nullptr);
    capacity_ = std::exchange(other.capacity_, 0);
    inUse_ = std::exchange(other.inUse_, 0);
    highWater_ = std::exchange(other.highWater_, 0);
  }

  std::unique_ptr<Slot[]> slots_;
  Slot* free_ = nullptr;
  std::size_t capacity_ = 0;
  std::size_t inUse_ = 0;
  std::size_t highWater_ = 0;
};

}  // namespace sotto::pipeline
