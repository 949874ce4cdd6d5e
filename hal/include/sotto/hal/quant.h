// SPDX-License-Identifier: MIT
// Scalar conversions between f32 and ggml's storage types: fp16/bf16 and the reference block quantizers
// (byte-identical to ggml's *_ref quantizers without imatrix, and to its dequantizers).
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>

#include "sotto/hal/dtype.h"
#include "sotto/hal/result.h"

namespace sotto::hal {

// IEEE binary16 bits from f32, round to nearest even; overflow gives ±inf, NaN gives a quiet NaN (0x7e00 | sign).
constexpr uint16_t fp32ToFp16(float f) {
  const uint32_t u = std::bit_cast<uint32_t>(f);
  const uint16_t sign = static_cast<uint16_t>((u >> 16) & 0x8000u);
  const uint32_t a = u & 0x7fffffffu;
  if (a > 0x7f800000u) return static_cast<uint16_t>(sign | 0x7e00u);
  if (a >= 0x477ff000u) return static_cast<uint16_t>(sign | 0x7c00u);  // ≥ 65520 rounds to inf
  if (a < 0x38800000u) {  // below 2^-14: a subnormal half (or zero); count units of 2^-24
    if (a <= 0x33000000u) return sign;  // ≤ 2^-25 rounds (ties to even) to zero
    const uint32_t e = a >> 23;
    const uint32_t m = (a & 0x7fffffu) | 0x800000u;
    const uint32_t shift = 126u - e;  // 14 .. 24
    uint32_t r = m >> shift;
    const uint32_t rem = m & ((1u << shift) - 1u);
    const uint32_t half = 1u << (shift - 1u);
    if (rem > half || (rem == half && (r & 1u))) ++r;
    return static_cast<uint16_t>(sign | r);
  }
  uint32_t h = ((((a >> 23) - 112u) << 10) | ((a >> 13) & 0x3ffu));
  const uint32_t rem = a & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (h & 1u))) ++h;  // a carry into the exponent is still correct
  return static_cast<uint16_t>(sign | h);
}

// Exact.
constexpr float fp16ToFp32(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  const uint32_t e = (h >> 10) & 0x1fu;
  uint32_t m = h & 0x3ffu;
  if (e == 0x1fu) return std::bit_cast<float>(sign | 0x7f800000u | (m << 13));
  if (e == 0) {
    if (m == 0) return std::bit_cast<float>(sign);
    uint32_t exp = 113;  // normalize the subnormal: value = m · 2^-24
    while ((m & 0x400u) == 0) {
      m <<= 1;
      --exp;
    }
    return std::bit_cast<float>(sign | (exp << 23) | ((m & 0x3ffu) << 13));
  }
  return std::bit_cast<float>(sign | ((e + 112u) << 23) | (m << 13));
}

// bfloat16 bits from f32, round to nearest even; NaN stays a (quiet) NaN.
constexpr uint16_t fp32ToBf16(float f) {
  const uint32_t u = std::bit_cast<uint32_t>(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((u >> 16) | 0x40u);
  return static_cast<uint16_t>((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}

constexpr float bf16ToFp32(uint16_t b) { return std::bit_cast<float>(static_cast<uint32_t>(b) << 16); }

// Quantizes a row of n = x.size() floats (a multiple of the block size) to `type`: F32, F16, BF16, Q8_0, Q4_0,
// Q4_K, Q5_K, Q6_K (ggml's reference arithmetic) or Q8_K (the activation type). dst must hold rowBytes(type, n).
// Any thread; no allocation.
Status quantizeRow(DType type, std::span<const float> x, std::span<std::byte> dst);
// The inverse for the same types except Q8_K; y.size() elements are produced (bit-exact to ggml's to_float).
Status dequantizeRow(DType type, std::span<const std::byte> src, std::span<float> y);

}  // namespace sotto::hal
