// SPDX-License-Identifier: MIT
// Cache-line size and power-of-two helpers shared by the pipeline's lock-free types.
#pragma once

#include <cstddef>

namespace sotto::pipeline {

// Cache line size of the targets we ship (x86-64, Cortex-A). Not std::hardware_destructive_interference_size:
// GCC warns that its value may differ between compilations, and these types sit in headers shared across targets.
inline constexpr std::size_t kCacheLine = 64;

constexpr bool isPowerOfTwo(std::size_t n) noexcept { return n != 0 && (n & (n - 1)) == 0; }

}  // namespace sotto::pipeline
