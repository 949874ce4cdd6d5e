// SPDX-License-Identifier: MIT
// AllocCounter: test-only global allocation counting, to assert that real-time paths never allocate.
#pragma once

#include <cstdint>

namespace sotto::test {

// Linking the sotto_test_alloc object library into a test executable replaces the global operator new/delete
// (all forms) and, with glibc, malloc/calloc/realloc/free and the aligned variants, all forwarding to glibc's
// allocator and counting each call per thread and process-wide. Shared-library builds interpose the malloc
// symbols (every caller in the process is counted); static builds (SOTTO_STATIC) wrap them at link time
// (--wrap, every statically linked caller is counted). Sanitizer builds own new and malloc themselves: there
// nothing is replaced and supported() is false, so tests GTEST_SKIP.
//
// Threads: every function may be called from any thread; none allocates or blocks.

enum class AllocScope { thisThread, allThreads };

struct AllocCounts {
  std::uint64_t allocations = 0;    // operator new (any form), malloc, calloc, realloc, aligned allocations
  std::uint64_t deallocations = 0;  // operator delete (any form), free (of non-null pointers)
};

class AllocCounter {
 public:
  static bool supported() noexcept;     // counting works in this build (checked once by allocating)
  static bool countsMalloc() noexcept;  // malloc and friends are counted too, not just operator new
  static const char* mode() noexcept;   // "interpose", "wrap" or "unsupported"

  static AllocCounts current(AllocScope scope) noexcept;  // totals since the thread / process started
  // Counts since mark (a value of current(scope) taken earlier with the same scope, on the same thread for
  // thisThread).
  static AllocCounts since(const AllocCounts& mark, AllocScope scope) noexcept;
  // Per-thread counting of threads a test does not run itself (e.g. a pipeline's "sotto-audio" thread): from
  // this call on, allocations by any thread whose name (prctl PR_GET_NAME, first 15 bytes) equals `name` are
  // counted in namedThreadAllocations(), which starts at 0. One name at a time; call before the thread allocates
  // what should be counted. Costs a system call per allocation while armed.
  static void watchThreadNamed(const char* name) noexcept;
  static std::uint64_t namedThreadAllocations() noexcept;

  static std::uint64_t allocationsSince(const AllocCounts& mark, AllocScope scope) noexcept {
    return since(mark, scope).allocations;
  }
};

// Records the counts on construction; allocations()/deallocations() report what happened since. For
// thisThread, query it on the constructing thread.
class NoAllocScope {
 public:
  explicit NoAllocScope(AllocScope scope = AllocScope::thisThread) noexcept
      : scope_(scope), mark_(AllocCounter::current(scope)) {}
  std::uint64_t allocations() const noexcept { return AllocCounter::since(mark_, scope_).allocations; }
  std::uint64_t deallocations() const noexcept { return AllocCounter::since(mark_, scope_).deallocations; }
  AllocCounts counts() const noexcept { return AllocCounter::since(mark_, scope_); }

 private:
  AllocScope scope_;
  AllocCounts mark_;
};

}  // namespace sotto::test
