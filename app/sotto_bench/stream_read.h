// SPDX-License-Identifier: MIT
// The memory-bandwidth ceiling the benchmarks compare decode with: a plain read of every byte once. One core's
// hardware prefetcher keeps more lines in flight over several sequential streams than over one (2 threads on the
// 2-core bench machine: 19–21 GB/s as one stream each, 24–27 GB/s as four), and the decode kernels read four, so
// the ceiling is measured the same way. Any thread; no allocation. It lives with the shipped sotto-bench (app/ may
// not include bench/); bench/compute's micro benchmark includes it from here.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace sotto::bench {

// Reads [p, p + bytes) as four streams, one per quarter, 256 bytes of each per step (the tail alone), and
// returns a sum of what it read so the compiler keeps the loads.
inline uint64_t streamReadSum(const std::byte* p, size_t bytes) {
  using V = uint64_t __attribute__((vector_size(16)));  // SSE2 / NEON width: enough to saturate DRAM
  constexpr size_t kStep = 256;
  const size_t quarter = bytes / 4 / kStep * kStep;
  const auto at = [](const std::byte* q) {
    V v;
    std::memcpy(&v, q, sizeof v);
    return v;
  };
  V a{0, 0}, b{0, 0}, c{0, 0}, d{0, 0};
  for (size_t o = 0; o < quarter; o += kStep) {
    for (size_t s = 0; s < 4; ++s) {
      const std::byte* q = p + s * quarter + o;
      for (size_t part = 0; part < kStep; part += 64) {
        a += at(q + part);
        b += at(q + part + 16);
        c += at(q + part + 32);
        d += at(q + part + 48);
      }
    }
  }
  uint64_t sum = 0;
  for (size_t o = 4 * quarter; o < bytes; ++o) sum += static_cast<uint8_t>(p[o]);
  const V all = a + b + c + d;
  return sum + (all[0] ^ all[1]);
}

}  // namespace sotto::bench
