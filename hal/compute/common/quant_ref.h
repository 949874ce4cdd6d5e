// SPDX-License-Identifier: MIT
// Reference (scalar) quantize, dequantize and dot products of ggml's block types: the arithmetic the SIMD kernels
// are tested against. Row functions take n elements, a multiple of the block size; any thread, no allocation.
#pragma once

#include <cstddef>
#include <cstdint>

#include "blocks.h"

namespace sotto::hal::compute::ref {

// Round to nearest, ties to even (ggml's nearest_int), for |v| < 2^22.
int nearestInt(float v);

void quantizeQ8_0(const float* x, BlockQ8_0* y, size_t n);
void quantizeQ4_0(const float* x, BlockQ4_0* y, size_t n);
void quantizeQ4_1(const float* x, BlockQ4_1* y, size_t n);
void quantizeQ5_0(const float* x, BlockQ5_0* y, size_t n);
void quantizeQ5_1(const float* x, BlockQ5_1* y, size_t n);
void quantizeQ8_1(const float* x, BlockQ8_1* y, size_t n);  // activations for Q4_1 / Q5_1
void quantizeQ4_K(const float* x, BlockQ4_K* y, size_t n);
void quantizeQ5_K(const float* x, BlockQ5_K* y, size_t n);
void quantizeQ6_K(const float* x, BlockQ6_K* y, size_t n);
void quantizeQ8_K(const float* x, BlockQ8_K* y, size_t n);  // activations: ggml's quantize_row_q8_K arithmetic

void dequantizeQ8_0(const BlockQ8_0* x, float* y, size_t n);
void dequantizeQ4_0(const BlockQ4_0* x, float* y, size_t n);
void dequantizeQ4_1(const BlockQ4_1* x, float* y, size_t n);
void dequantizeQ5_0(const BlockQ5_0* x, float* y, size_t n);
void dequantizeQ5_1(const BlockQ5_1* x, float* y, size_t n);
void dequantizeQ4_K(const BlockQ4_K* x, float* y, size_t n);
void dequantizeQ5_K(const BlockQ5_K* x, float* y, size_t n);
void dequantizeQ6_K(const BlockQ6_K* x, float* y, size_t n);
void dequantizeQ8_K(const BlockQ8_K* x, float* y, size_t n);  // for tests (ggml has none)

// Dot products of a weight row with an activation row in the weight type's vec_dot type. Integer sums per
// (sub-)block, scaled and summed in float in block order.
float dotQ8_0(const BlockQ8_0* w, const BlockQ8_0* y, size_t n);
float dotQ4_0(const BlockQ4_0* w, const BlockQ8_0* y, size_t n);
float dotQ4_1(const BlockQ4_1* w, const BlockQ8_1* y, size_t n);
float dotQ5_0(const BlockQ5_0* w, const BlockQ8_0* y, size_t n);
float dotQ5_1(const BlockQ5_1* w, const BlockQ8_1* y, size_t n);
float dotQ4_K(const BlockQ4_K* w, const BlockQ8_K* y, size_t n);
float dotQ5_K(const BlockQ5_K* w, const BlockQ8_K* y, size_t n);
float dotQ6_K(const BlockQ6_K* w, const BlockQ8_K* y, size_t n);
float dotF32(const float* w, const float* x, size_t n);
float dotF16(const uint16_t* w, const float* x, size_t n);
float dotBf16(const uint16_t* w, const float* x, size_t n);

// The 6-bit scale and min of sub-block j (0..7) of a Q4_K/Q5_K block.
void scaleMinK4(int j, const uint8_t* q, uint8_t* scale, uint8_t* min);

}  // namespace sotto::hal::compute::ref
