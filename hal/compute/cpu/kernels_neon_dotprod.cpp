// SPDX-License-Identifier: MIT
// NEON kernels with the dot-product extension (SDOT; built with -march=armv8.2-a+dotprod, used only when the
// kernel reports asimddp).
#define SOTTO_NEON_DOTPROD 1
#define SOTTO_NEON_SET NeonDotKernels
#include "kernels_neon_impl.h"

namespace sotto::hal::compute::cpu {
const MatKernels* neonDotKernels() { return &kNeonSet; }
}  // namespace sotto::hal::compute::cpu
