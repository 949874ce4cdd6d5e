// SPDX-License-Identifier: MIT
// ggml's quantized block layouts (byte-compatible with GGUF tensors). Plain structs only: the SIMD kernel files
// include this too, so it must not define functions (they would be compiled with those files' ISA flags).
#pragma once

#include <cstddef>
#include <cstdint>

namespace sotto::hal::compute {

inline constexpr int kQk = 32;    // elements per Q8_0 / Q4_0 / Q4_1 / Q5_0 / Q5_1 / Q8_1 block
inline constexpr int kQkK = 256;  // elements per K-quant super-block
inline constexpr int kKScaleBytes = 12;  // Q4_K/Q5_K: eight 6-bit scales and eight 6-bit mins

// Half-precision values are stored as their IEEE binary16 bits.
struct BlockQ8_0 {
  uint16_t d;       // scale
  int8_t qs[kQk];   // x = d · q
};
static_assert(sizeof(BlockQ8_0) == 34);

struct BlockQ4_0 {
  uint16_t d;
  uint8_t qs[kQk / 2];  // element j in the low nibble of byte j, element j+16 in its high nibble; x = d · (q - 8)
};
static_assert(sizeof(BlockQ4_0) == 18);

struct BlockQ4_1 {
  uint16_t d;
  uint16_t m;           // x = d · q + m, q in 0..15
  uint8_t qs[kQk / 2];  // as Q4_0
};
static_assert(sizeof(BlockQ4_1) == 20);

struct BlockQ5_0 {
  uint16_t d;
  uint8_t qh[4];        // bit j (little-endian u32): fifth bit of element j; x = d · (q - 16)
  uint8_t qs[kQk / 2];  // low four bits, as Q4_0
};
static_assert(sizeof(BlockQ5_0) == 22);

struct BlockQ5_1 {
  uint16_t d;
  uint16_t m;           // x = d · q + m, q in 0..31
  uint8_t qh[4];
  uint8_t qs[kQk / 2];
};
static_assert(sizeof(BlockQ5_1) == 24);

// The activation type of Q4_1 / Q5_1 dot products: Q8_0 plus s = d · Σq for the weights' min term.
struct BlockQ8_1 {
  uint16_t d;
  uint16_t s;
  int8_t qs[kQk];
};
static_assert(sizeof(BlockQ8_1) == 36);

struct BlockQ4_K {
  uint16_t d;     // super-block scale of the 6-bit sub-block scales
  uint16_t dmin;  // super-block scale of the 6-bit sub-block mins
  uint8_t scales[kKScaleBytes];
  uint8_t qs[kQkK / 2];  // per 64 elements: 32 bytes, low nibbles = first 32, high nibbles = next 32
};
static_assert(sizeof(BlockQ4_K) == 144);

struct BlockQ5_K {
  uint16_t d;
  uint16_t dmin;
  uint8_t scales[kKScaleBytes];
  uint8_t qh[kQkK / 8];  // bit 2i / 2i+1 of qh[l]: fifth bit of element l / l+32 of 64-element chunk i
  uint8_t qs[kQkK / 2];
};
static_assert(sizeof(BlockQ5_K) == 176);

struct BlockQ6_K {
  uint8_t ql[kQkK / 2];   // low 4 bits
  uint8_t qh[kQkK / 4];   // high 2 bits
  int8_t scales[kQkK / 16];  // one 8-bit scale per 16 elements
  uint16_t d;
};
static_assert(sizeof(BlockQ6_K) == 210);

struct BlockQ8_K {
  float d;
  int8_t qs[kQkK];
  int16_t bsums[kQkK / 16];  // sums of each 16 qs, for the K-quants' min terms
};
static_assert(sizeof(BlockQ8_K) == 292);

// ggml reads blocks from unaligned offsets of a mapped file; so do we (all members are 1/2/4-byte aligned).
static_assert(alignof(BlockQ8_0) == 2 && alignof(BlockQ4_K) == 2 && alignof(BlockQ6_K) == 2);

}  // namespace sotto::hal::compute
