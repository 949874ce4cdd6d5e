// SPDX-License-Identifier: MIT
// Scalar implementations of every compute op over index ranges: the cpu-ref backend's whole body, and the cpu
// backend's fallback for ops and types it has no SIMD kernel for. Arguments are already checked and resolved
// (no zero strides). Any thread; no allocation.
#pragma once

#include <cstddef>
#include <cstdint>

#include "sotto/hal/compute.h"

namespace sotto::hal::compute {

inline constexpr size_t kScratchAlign = 64;
constexpr size_t alignUp(size_t v, size_t a) { return (v + a - 1) / a * a; }

// Bytes between quantized X rows in the matmul scratch (0 for the float weight types: X is used as it is).
size_t activationRowStride(DType wType, size_t k);
// Bytes per X row of the packed copy a SIMD backend may build after the quantized rows (the Q8_0 activation types
// with an even number of blocks: 128 bytes per 64 elements), or 0 when there is none.
size_t packedActivationRowStride(DType wType, size_t k);
// The matmul scratch start, aligned for the kernels.
std::byte* alignedScratch(std::span<std::byte> scratch);

namespace ref {

// Quantizes X rows [r0, r1) to vecDotType(wType) into dst (activationRowStride apart).
void quantizeActivations(DType wType, const float* x, size_t xStride, size_t k, std::byte* dst, size_t r0, size_t r1);
// One dot product of weight row `w` with activation row `xq` (quantized, or f32 for the float types).
float dotRow(DType wType, const std::byte* w, const void* xq, size_t k);
// Y columns [n0, n1) of every X row, one dot product at a time.
void matmulRows(const MatmulArgs& a, const std::byte* xq, size_t xqStride, size_t n0, size_t n1);
void dequantizeRowTo(DType type, const std::byte* src, float* dst, size_t cols);

void rmsNormRows(const RmsNormArgs& a, size_t r0, size_t r1);
void ropeTokens(const RopeArgs& a, size_t t0, size_t t1);
// The cosines and sines of one position's nDims/2 angles, computed exactly as ropeTokens does (for kernels that
// rotate with vectors and must give the same bytes).
void ropeAngles(const RopeArgs& a, int32_t position, float* cosOut, float* sinOut);
void softmaxRows(const SoftmaxArgs& a, size_t r0, size_t r1);
void siluMul(const float* gate, const float* up, float* out, size_t n);
void add(const float* a, const float* b, float* out, size_t n);
void storeKvTokens(const StoreKvArgs& a, size_t t0, size_t t1);
// Query (token, head) pairs [i0, i1), i = token * heads + head; `scores` holds kvLen floats.
void attentionHeads(const AttentionArgs& a, size_t i0, size_t i1, float* scores);

}  // namespace ref
}  // namespace sotto::hal::compute
