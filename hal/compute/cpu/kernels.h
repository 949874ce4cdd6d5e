// SPDX-License-Identifier: MIT
// The cpu backend's per-ISA matmul kernel sets. Each set lives in its own file compiled with that ISA's flags;
// the backend asks for a set only after cpuFeatures() says the CPU has the ISA. Kernel files include only this
// header, blocks.h and intrinsics, and keep their helpers file-local, so no inline function compiled with wider
// ISA flags can be merged into code that runs on every CPU.
#pragma once

#include <cstddef>

#include "sotto/hal/dtype.h"

namespace sotto::hal::compute::cpu {

// Weight rows [n0, n1) against all m activation rows: y[i * yStride + r] = W_r · X_i.
struct MatTile {
  const std::byte* w = nullptr;
  size_t wRowBytes = 0;
  size_t n0 = 0, n1 = 0;
  const std::byte* xq = nullptr;  // activation rows in vecDotType(weight type): quantized blocks, or f32
  size_t xqStride = 0;            // bytes between activation rows
  size_t m = 0, k = 0;
  float* y = nullptr;
  size_t yStride = 0;  // floats
};

class MatKernels {
 public:
  virtual const char* isa() const = 0;
  virtual bool has(DType weight) const = 0;
  virtual void mulTile(DType weight, const MatTile& tile) const = 0;  // only for types has() accepts

 protected:
  MatKernels() = default;
  MatKernels(const MatKernels&) = default;
  MatKernels& operator=(const MatKernels&) = default;
  ~MatKernels() = default;  // static instances, never deleted through this interface
};

// Each returns the file's static kernel set, or nullptr when this build has no such file (other architecture).
// Call only when the CPU has the ISA.
const MatKernels* avx2Kernels();      // AVX2 + FMA + F16C
const MatKernels* avx512VnniKernels();  // AVX-512 F/BW/VL + VNNI (+ AVX2, FMA, F16C): the 32-element block types
const MatKernels* neonKernels();      // aarch64 baseline
const MatKernels* neonDotKernels();   // aarch64 + dotprod

}  // namespace sotto::hal::compute::cpu
