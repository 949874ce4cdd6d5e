// SPDX-License-Identifier: MIT
// NEON kernels for every aarch64 CPU (armv8-a baseline): int8 products by widening multiplies.
#define SOTTO_NEON_DOTPROD 0
#define SOTTO_NEON_SET NeonKernels
#include "kernels_neon_impl.h"

namespace sotto::hal::compute::cpu {
const MatKernels* neonKernels() { return &kNeonSet; }
}  // namespace sotto::hal::compute::cpu
