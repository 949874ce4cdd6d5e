// SPDX-License-Identifier: MIT
// Counting replacements of the global allocation functions (operator new/delete, glibc malloc family).
#include "tests/support/alloc_counter.h"

#include <sys/prctl.h>

#include <atomic>
#include <cerrno>
#include <cstddef>
#include <cstdlib>
#include <new>

// Sanitizers intercept malloc and operator new themselves; replacing them would hide their checks (or clash).
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SOTTO_ALLOC_UNDER_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define SOTTO_ALLOC_UNDER_SANITIZER 1
#endif
#endif
#ifndef SOTTO_ALLOC_UNDER_SANITIZER
#define SOTTO_ALLOC_UNDER_SANITIZER 0
#endif

// Set by tests/support/CMakeLists.txt: 0 = count nothing, 1 = interpose malloc symbols, 2 = link-time --wrap.
#ifndef SOTTO_TEST_ALLOC_MODE
#define SOTTO_TEST_ALLOC_MODE 0
#endif

#if SOTTO_ALLOC_UNDER_SANITIZER
#define SOTTO_ALLOC_ACTIVE_MODE 0
#else
#define SOTTO_ALLOC_ACTIVE_MODE SOTTO_TEST_ALLOC_MODE
#endif

namespace {

std::atomic<std::uint64_t> gAllocations{0};
std::atomic<std::uint64_t> gDeallocations{0};
// initial-exec: a TLS access that never calls into the dynamic loader (which could allocate and recurse).
constinit thread_local std::uint64_t tAllocations [[gnu::tls_model("initial-exec")]] = 0;
constinit thread_local std::uint64_t tDeallocations [[gnu::tls_model("initial-exec")]] = 0;

// Allocations by threads of one name (watchThreadNamed): the name is compared only while a watch is armed.
std::atomic<bool> gWatching{false};
char gWatchName[16] = {};
std::atomic<std::uint64_t> gNamedAllocations{0};

inline void countNamed() noexcept {
  char name[16] = {};
  if (prctl(PR_GET_NAME, name, 0, 0, 0) != 0) return;  // a system call, never an allocation
  for (int i = 0; i < 16; ++i) {
    if (name[i] != gWatchName[i]) return;
    if (name[i] == '\0') break;
  }
  gNamedAllocations.fetch_add(1, std::memory_order_relaxed);
}

[[maybe_unused]] inline void countAllocation() noexcept {
  ++tAllocations;
  gAllocations.fetch_add(1, std::memory_order_relaxed);
  if (gWatching.load(std::memory_order_acquire)) countNamed();
}
[[maybe_unused]] inline void countDeallocation(const void* p) noexcept {
  if (p == nullptr) return;  // free(nullptr) / delete nullptr do nothing
  ++tDeallocations;
  gDeallocations.fetch_add(1, std::memory_order_relaxed);
}

}  // namespace

// ---- the malloc family: the one place that counts ----------------------------------------------------------

#if SOTTO_ALLOC_ACTIVE_MODE == 1
// Shared-library build: our definitions in the executable take precedence for every caller in the process
// (glibc supports replacing malloc this way); forward to glibc's allocator under its exported internal names.
extern "C" {
void* __libc_malloc(std::size_t size);
void __libc_free(void* p);
void* __libc_calloc(std::size_t n, std::size_t size);
void* __libc_realloc(void* p, std::size_t size);
void* __libc_memalign(std::size_t alignment, std::size_t size);
}
#define SOTTO_REAL(fn) __libc_##fn
#define SOTTO_FN(fn) fn
#define SOTTO_NOEXCEPT noexcept
#elif SOTTO_ALLOC_ACTIVE_MODE == 2
// Static build: libc.a's malloc.o cannot be replaced symbol by symbol (it defines them together), so the link
// redirects every reference to malloc to __wrap_malloc (see CMakeLists.txt), and __real_malloc is glibc's.
extern "C" {
void* __real_malloc(std::size_t size);
void __real_free(void* p);
void* __real_calloc(std::size_t n, std::size_t size);
void* __real_realloc(void* p, std::size_t size);
void* __real_memalign(std::size_t alignment, std::size_t size);
}
#define SOTTO_REAL(fn) __real_##fn
#define SOTTO_FN(fn) __wrap_##fn
#define SOTTO_NOEXCEPT
#endif

#if SOTTO_ALLOC_ACTIVE_MODE != 0
extern "C" {

void* SOTTO_FN(malloc)(std::size_t size) SOTTO_NOEXCEPT {
  countAllocation();
  return SOTTO_REAL(malloc)(size);
}

void SOTTO_FN(free)(void* p) SOTTO_NOEXCEPT {
  countDeallocation(p);
  SOTTO_REAL(free)(p);
}

void* SOTTO_FN(calloc)(std::size_t n, std::size_t size) SOTTO_NOEXCEPT {
  countAllocation();
  return SOTTO_REAL(calloc)(n, size);
}

void* SOTTO_FN(realloc)(void* p, std::size_t size) SOTTO_NOEXCEPT {
  countAllocation();  // may move the block: as much a hot-path hazard as a malloc
  return SOTTO_REAL(realloc)(p, size);
}

void* SOTTO_FN(memalign)(std::size_t alignment, std::size_t size) SOTTO_NOEXCEPT {
  countAllocation();
  return SOTTO_REAL(memalign)(alignment, size);
}

void* SOTTO_FN(aligned_alloc)(std::size_t alignment, std::size_t size) SOTTO_NOEXCEPT {
  countAllocation();
  return SOTTO_REAL(memalign)(alignment, size);
}

int SOTTO_FN(posix_memalign)(void** out, std::size_t alignment, std::size_t size) SOTTO_NOEXCEPT {
  if (alignment == 0 || (alignment & (alignment - 1)) != 0 || alignment % sizeof(void*) != 0) return EINVAL;
  countAllocation();
  void* p = SOTTO_REAL(memalign)(alignment, size);
  if (p == nullptr) return ENOMEM;
  *out = p;
  return 0;
}

}  // extern "C"

// ---- operator new/delete: adapt to the (counted) malloc family ---------------------------------------------
// Replaced in both modes so that C++ allocations are counted even where the malloc family is only wrapped for
// statically linked callers (a shared libstdc++'s own operator new would call an unwrapped malloc).

namespace {

void* allocateOrThrow(std::size_t size) {
  if (size == 0) size = 1;
  for (;;) {
    if (void* p = std::malloc(size)) return p;
    std::new_handler handler = std::get_new_handler();
    if (handler == nullptr) throw std::bad_alloc();
    handler();
  }
}

void* allocateAlignedOrThrow(std::size_t size, std::align_val_t alignment) {
  const auto align = static_cast<std::size_t>(alignment);
  // aligned_alloc wants a multiple of the alignment.
  size = size == 0 ? align : (size + align - 1) / align * align;
  for (;;) {
    if (void* p = std::aligned_alloc(align, size)) return p;
    std::new_handler handler = std::get_new_handler();
    if (handler == nullptr) throw std::bad_alloc();
    handler();
  }
}

}  // namespace

void* operator new(std::size_t size) { return allocateOrThrow(size); }
void* operator new[](std::size_t size) { return allocateOrThrow(size); }
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  try {
    return allocateOrThrow(size);
  } catch (...) {
    return nullptr;
  }
}
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept {
  try {
    return allocateOrThrow(size);
  } catch (...) {
    return nullptr;
  }
}
void* operator new(std::size_t size, std::align_val_t al) { return allocateAlignedOrThrow(size, al); }
void* operator new[](std::size_t size, std::align_val_t al) { return allocateAlignedOrThrow(size, al); }
void* operator new(std::size_t size, std::align_val_t al, const std::nothrow_t&) noexcept {
  try {
    return allocateAlignedOrThrow(size, al);
  } catch (...) {
    return nullptr;
  }
}
void* operator new[](std::size_t size, std::align_val_t al, const std::nothrow_t&) noexcept {
  try {
    return allocateAlignedOrThrow(size, al);
  } catch (...) {
    return nullptr;
  }
}

void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept { std::free(p); }

#endif  // SOTTO_ALLOC_ACTIVE_MODE != 0

// ---- the counter API ---------------------------------------------------------------------------------------

namespace sotto::test {

namespace {

// Through volatile function pointers so the compiler cannot pair up and delete the probe allocations.
bool probeOperatorNew() noexcept {
  void* (*volatile allocate)(std::size_t) = static_cast<void* (*)(std::size_t)>(&::operator new);
  void (*volatile release)(void*) noexcept = static_cast<void (*)(void*) noexcept>(&::operator delete);
  const AllocCounts before = AllocCounter::current(AllocScope::thisThread);
  void* p = allocate(24);
  release(p);
  const AllocCounts d = AllocCounter::since(before, AllocScope::thisThread);
  return d.allocations == 1 && d.deallocations == 1;
}

bool probeMalloc() noexcept {
  void* (*volatile allocate)(std::size_t) = &std::malloc;
  void (*volatile release)(void*) = &std::free;
  const AllocCounts before = AllocCounter::current(AllocScope::thisThread);
  void* p = allocate(24);
  release(p);
  const AllocCounts d = AllocCounter::since(before, AllocScope::thisThread);
  return d.allocations == 1 && d.deallocations == 1;
}

}  // namespace

bool AllocCounter::supported() noexcept {
  static const bool ok = SOTTO_ALLOC_ACTIVE_MODE != 0 && probeOperatorNew();
  return ok;
}

bool AllocCounter::countsMalloc() noexcept {
  static const bool ok = SOTTO_ALLOC_ACTIVE_MODE != 0 && probeMalloc();
  return ok;
}

const char* AllocCounter::mode() noexcept {
  switch (SOTTO_ALLOC_ACTIVE_MODE) {
    case 1:
      return "interpose";
    case 2:
      return "wrap";
    default:
      return "unsupported";
  }
}

AllocCounts AllocCounter::current(AllocScope scope) noexcept {
  if (scope == AllocScope::thisThread) return {tAllocations, tDeallocations};
  return {gAllocations.load(std::memory_order_relaxed), gDeallocations.load(std::memory_order_relaxed)};
}

void AllocCounter::watchThreadNamed(const char* name) noexcept {
  gWatching.store(false, std::memory_order_release);
  int i = 0;
  for (; i < 15 && name[i] != '\0'; ++i) gWatchName[i] = name[i];
  for (; i < 16; ++i) gWatchName[i] = '\0';
  gNamedAllocations.store(0, std::memory_order_relaxed);
  gWatching.store(true, std::memory_order_release);
}

std::uint64_t AllocCounter::namedThreadAllocations() noexcept {
  return gNamedAllocations.load(std::memory_order_relaxed);
}

AllocCounts AllocCounter::since(const AllocCounts& mark, AllocScope scope) noexcept {
  const AllocCounts now = current(scope);
  return {now.allocations - mark.allocations, now.deallocations - mark.deallocations};
}

}  // namespace sotto::test
