// SPDX-License-Identifier: MIT
// The cpu backend's per-ISA matmul kernel sets. Each set lives in its own file compiled with that ISA's flags;
// the backend asks for a set only after cpuFeatures() says the CPU has the ISA. Kernel files include only this
// header, blocks.h and intrinsics, and keep their helpers file-local, so no inline function compiled with wider
// ISA flags can be merged into code that runs on every CPU.
#pragma once

#include <cstddef>
#include <cstdint>

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
  const std::byte* xp = nullptr;  // the activations packed by packActivations, or null: use xq
  size_t xpStride = 0;            // packedActivationRowStride (the layout is the kernel set's)
};

// Query (token, head) pairs [i0, i1) of causal attention over an F16 KV cache (the fields of hal::AttentionArgs,
// copied into a plain struct so no hal header is compiled with an ISA's flags).
struct AttnTile {
  const float* q = nullptr;
  size_t qStride = 0;
  const uint16_t* k = nullptr;
  const uint16_t* v = nullptr;
  size_t heads = 0, kvHeads = 0, headDim = 0, capacity = 0, pos0 = 0;
  float scale = 1.0f;
  float* out = nullptr;
  size_t outStride = 0;
};

class MatKernels {
 public:
  virtual const char* isa() const = 0;
  virtual bool has(DType weight) const = 0;
  virtual void mulTile(DType weight, const MatTile& tile) const = 0;  // only for types has() accepts
  // Whether mulTile can use activations that packActivations rewrote from their quantized rows (vecDotType(weight):
  // Q8_0 with k % 64 == 0, or Q8_K) into m × packedActivationRowStride(weight, k) bytes at xp, one row (of m) per
  // call, in a layout of the kernel set's choosing: it may depend on m, and is the same for every weight type
  // packs() accepts with that activation type.
  virtual bool packs(DType weight) const { return (void)weight, false; }
  virtual void packActivations(DType weight, const std::byte* actRow, size_t k, size_t m, size_t row,
                               std::byte* xp) const {
    (void)weight, (void)actRow, (void)k, (void)m, (void)row, (void)xp;
  }
  // Quantizes one activation row of k floats to `act` (Q8_0 or Q8_K) with exactly the reference's bytes; false
  // when this set has no such routine (the caller then uses the reference).
  virtual bool quantizeRow(DType act, const float* x, size_t k, std::byte* out) const {
    return (void)act, (void)x, (void)k, (void)out, false;
  }
  // out = silu(gate) · up over n floats, within the conformance tolerance of the reference; false when this set
  // has none (the caller then uses the reference).
  virtual bool siluMul(const float* gate, const float* up, float* out, size_t n) const {
    return (void)gate, (void)up, (void)out, (void)n, false;
  }
  // y = x / sqrt(mean(x²) + eps) · w (w may be null) over n floats, with the reference's element-wise arithmetic
  // (its sum of squares may round differently); false when this set has none.
  virtual bool rmsNorm(const float* x, const float* w, float* y, size_t n, float eps) const {
    return (void)x, (void)w, (void)y, (void)n, (void)eps, false;
  }
  // out = a + b over n floats (out may alias a or b), exactly as the reference; false when this set has none.
  virtual bool add(const float* a, const float* b, float* out, size_t n) const {
    return (void)a, (void)b, (void)out, (void)n, false;
  }
  // Rotates the first nDims dimensions of each of `heads` heads (headDim floats apart) of one token, with the
  // angle's cosines in cs[0, nDims/2) and sines in cs[nDims/2, nDims): pairs (2i, 2i+1), or (i, i + nDims/2) when
  // `neox`. The reference's arithmetic (a product each, then one add or subtract: no fused multiply-add), so
  // the bytes are the reference's; false when this set has none.
  virtual bool rope(float* x, size_t heads, size_t headDim, size_t nDims, bool neox, const float* cs) const {
    return (void)x, (void)heads, (void)headDim, (void)nDims, (void)neox, (void)cs, false;
  }
  // n floats to f16 with exactly fp32ToFp16's bytes (round to nearest even, NaN as sign | 0x7e00); false when this
  // set has none (n = 0 just asks).
  virtual bool toHalf(const float* x, uint16_t* out, size_t n) const { return (void)x, (void)out, (void)n, false; }
  // Attention in this ISA: float sums instead of the reference's doubles. `scores` holds the longest row.
  virtual bool hasAttention() const { return false; }
  virtual void attention(const AttnTile& t, size_t i0, size_t i1, float* scores) const {
    (void)t, (void)i0, (void)i1, (void)scores;
  }

 protected:
  MatKernels() = default;
  MatKernels(const MatKernels&) = default;
  MatKernels& operator=(const MatKernels&) = default;
  ~MatKernels() = default;  // static instances, never deleted through this interface
};

// Each returns the file's static kernel set, or nullptr when this build has no such file (other architecture).
// Call only when the CPU has the ISA.
const MatKernels* avx2Kernels();      // AVX2 + FMA + F16C
const MatKernels* avx512VnniKernels();  // AVX-512 F/BW/VL + VNNI (+ AVX2, FMA, F16C): the integer block types
const MatKernels* neonKernels();      // aarch64 baseline
const MatKernels* neonDotKernels();   // aarch64 + dotprod

}  // namespace sotto::hal::compute::cpu
