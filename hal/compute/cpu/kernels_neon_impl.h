// SPDX-License-Identifier: MIT
// NEON matmul kernels, included by kernels_neon.cpp (armv8-a baseline: widening multiplies) and
// kernels_neon_dotprod.cpp (SDOT), which set SOTTO_NEON_DOTPROD and the name of the set before including it.
// Everything here has internal linkage: the two copies are compiled with different ISA flags.
#pragma once

#include <arm_neon.h>

#include <cstdint>
#include <cstring>

#include "../common/blocks.h"
#include "kernels.h"

namespace sotto::hal::compute::cpu {
namespace {

inline float h2f(uint16_t h) {
  __fp16 v;
  std::memcpy(&v, &h, 2);
  return static_cast<float>(v);
}

// acc + four int32 sums of four products of signed bytes each.
inline int32x4_t dot16(int32x4_t acc, int8x16_t a, int8x16_t b) {
#if SOTTO_NEON_DOTPROD
  return vdotq_s32(acc, a, b);
#else
  // |a·b| ≤ 128·128 fits an int16 lane; pairwise accumulation widens to int32.
  acc = vpadalq_s16(acc, vmull_s8(vget_low_s8(a), vget_low_s8(b)));
  return vpadalq_s16(acc, vmull_high_s8(a, b));
#endif
}

float dotQ8_0(const BlockQ8_0* w, const BlockQ8_0* y, size_t nb) {
  float32x4_t acc0 = vdupq_n_f32(0), acc1 = vdupq_n_f32(0);
  size_t i = 0;
  for (; i + 1 < nb; i += 2) {
    int32x4_t s0 = dot16(vdupq_n_s32(0), vld1q_s8(w[i].qs), vld1q_s8(y[i].qs));
    s0 = dot16(s0, vld1q_s8(w[i].qs + 16), vld1q_s8(y[i].qs + 16));
    int32x4_t s1 = dot16(vdupq_n_s32(0), vld1q_s8(w[i + 1].qs), vld1q_s8(y[i + 1].qs));
    s1 = dot16(s1, vld1q_s8(w[i + 1].qs + 16), vld1q_s8(y[i + 1].qs + 16));
    acc0 = vmlaq_n_f32(acc0, vcvtq_f32_s32(s0), h2f(w[i].d) * h2f(y[i].d));
    acc1 = vmlaq_n_f32(acc1, vcvtq_f32_s32(s1), h2f(w[i + 1].d) * h2f(y[i + 1].d));
  }
  if (i < nb) {
    int32x4_t s0 = dot16(vdupq_n_s32(0), vld1q_s8(w[i].qs), vld1q_s8(y[i].qs));
    s0 = dot16(s0, vld1q_s8(w[i].qs + 16), vld1q_s8(y[i].qs + 16));
    acc0 = vmlaq_n_f32(acc0, vcvtq_f32_s32(s0), h2f(w[i].d) * h2f(y[i].d));
  }
  return vaddvq_f32(vaddq_f32(acc0, acc1));
}

float dotQ4_0(const BlockQ4_0* w, const BlockQ8_0* y, size_t nb) {
  const uint8x16_t low4 = vdupq_n_u8(0x0F);
  const int8x16_t eight = vdupq_n_s8(8);
  float32x4_t acc = vdupq_n_f32(0);
  for (size_t i = 0; i < nb; ++i) {
    const uint8x16_t b = vld1q_u8(w[i].qs);
    const int8x16_t lo = vsubq_s8(vreinterpretq_s8_u8(vandq_u8(b, low4)), eight);
    const int8x16_t hi = vsubq_s8(vreinterpretq_s8_u8(vshrq_n_u8(b, 4)), eight);
    int32x4_t s = dot16(vdupq_n_s32(0), lo, vld1q_s8(y[i].qs));
    s = dot16(s, hi, vld1q_s8(y[i].qs + 16));
    acc = vmlaq_n_f32(acc, vcvtq_f32_s32(s), h2f(w[i].d) * h2f(y[i].d));
  }
  return vaddvq_f32(acc);
}

// Fifth bits of a Q5_0 / Q5_1 block as 0x10 bytes: elements 0..15 in *lo, 16..31 in *hi.
inline void fifthBits(const uint8_t* qh, uint8x16_t* lo, uint8x16_t* hi) {
  uint8_t b[16] = {qh[0], qh[1], qh[2], qh[3]};
  const uint8x16_t bytes = vld1q_u8(b);
  static const uint8_t kIdxLo[16] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1};
  static const uint8_t kIdxHi[16] = {2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3};
  static const uint8_t kBit[16] = {1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128};
  const uint8x16_t bit = vld1q_u8(kBit);
  const uint8x16_t bit4 = vdupq_n_u8(0x10);
  *lo = vandq_u8(vtstq_u8(vqtbl1q_u8(bytes, vld1q_u8(kIdxLo)), bit), bit4);
  *hi = vandq_u8(vtstq_u8(vqtbl1q_u8(bytes, vld1q_u8(kIdxHi)), bit), bit4);
}

float dotQ5_0(const BlockQ5_0* w, const BlockQ8_0* y, size_t nb) {
  const uint8x16_t low4 = vdupq_n_u8(0x0F);
  const int8x16_t sixteen = vdupq_n_s8(16);
  float32x4_t acc = vdupq_n_f32(0);
  for (size_t i = 0; i < nb; ++i) {
    uint8x16_t h0, h1;
    fifthBits(w[i].qh, &h0, &h1);
    const uint8x16_t b = vld1q_u8(w[i].qs);
    const int8x16_t lo = vsubq_s8(vreinterpretq_s8_u8(vorrq_u8(vandq_u8(b, low4), h0)), sixteen);
    const int8x16_t hi = vsubq_s8(vreinterpretq_s8_u8(vorrq_u8(vshrq_n_u8(b, 4), h1)), sixteen);
    int32x4_t s = dot16(vdupq_n_s32(0), lo, vld1q_s8(y[i].qs));
    s = dot16(s, hi, vld1q_s8(y[i].qs + 16));
    acc = vmlaq_n_f32(acc, vcvtq_f32_s32(s), h2f(w[i].d) * h2f(y[i].d));
  }
  return vaddvq_f32(acc);
}

// Q4_1 / Q5_1: x = d·q + m, so Σ x·y = d·dy·Σ q·qy + m·s (s = dy·Σ qy, carried by the Q8_1 block). Levels ≤ 31
// are valid signed bytes, so the signed dot product applies.
template <bool kFive, typename Block>
float dotMin(const Block* w, const BlockQ8_1* y, size_t nb) {
  const uint8x16_t low4 = vdupq_n_u8(0x0F);
  float32x4_t acc = vdupq_n_f32(0);
  float mins = 0;
  for (size_t i = 0; i < nb; ++i) {
    const uint8x16_t b = vld1q_u8(w[i].qs);
    uint8x16_t lo = vandq_u8(b, low4), hi = vshrq_n_u8(b, 4);
    if constexpr (kFive) {
      uint8x16_t h0, h1;
      fifthBits(w[i].qh, &h0, &h1);
      lo = vorrq_u8(lo, h0);
      hi = vorrq_u8(hi, h1);
    }
    int32x4_t s = dot16(vdupq_n_s32(0), vreinterpretq_s8_u8(lo), vld1q_s8(y[i].qs));
    s = dot16(s, vreinterpretq_s8_u8(hi), vld1q_s8(y[i].qs + 16));
    acc = vmlaq_n_f32(acc, vcvtq_f32_s32(s), h2f(w[i].d) * h2f(y[i].d));
    mins += h2f(w[i].m) * h2f(y[i].s);
  }
  return vaddvq_f32(acc) + mins;
}

inline float32x4_t loadF16x4(const uint16_t* p) { return vcvt_f32_f16(vreinterpret_f16_u16(vld1_u16(p))); }

inline float dotF32F16(const float* q, const uint16_t* k, size_t n) {
  float32x4_t a0 = vdupq_n_f32(0), a1 = vdupq_n_f32(0);
  size_t d = 0;
  for (; d + 8 <= n; d += 8) {
    a0 = vfmaq_f32(a0, vld1q_f32(q + d), loadF16x4(k + d));
    a1 = vfmaq_f32(a1, vld1q_f32(q + d + 4), loadF16x4(k + d + 4));
  }
  for (; d + 4 <= n; d += 4) a0 = vfmaq_f32(a0, vld1q_f32(q + d), loadF16x4(k + d));
  float sum = vaddvq_f32(vaddq_f32(a0, a1));
  for (; d < n; ++d) sum += q[d] * h2f(k[d]);
  return sum;
}

void attentionNeon(const AttnTile& a, size_t i0, size_t i1, float* scores) {
  const size_t group = a.heads / a.kvHeads;
  const size_t D = a.headDim;
  for (size_t i = i0; i < i1; ++i) {
    const size_t t = i / a.heads, h = i % a.heads, kvh = h / group;
    const float* q = a.q + t * a.qStride + h * D;
    const uint16_t* kHead = a.k + kvh * a.capacity * D;
    const uint16_t* vHead = a.v + kvh * a.capacity * D;
    const size_t len = a.pos0 + t + 1;  // causal
    float max = -__builtin_inff();
    for (size_t j = 0; j < len; ++j) {
      scores[j] = dotF32F16(q, kHead + j * D, D) * a.scale;
      max = scores[j] > max ? scores[j] : max;
    }
    float sum = 0;
    for (size_t j = 0; j < len; ++j) {
      scores[j] = __builtin_expf(scores[j] - max);
      sum += scores[j];
    }
    float* out = a.out + t * a.outStride + h * D;
    for (size_t d = 0; d < D; ++d) out[d] = 0;
    for (size_t j = 0; j < len; ++j) {
      const uint16_t* vr = vHead + j * D;
      size_t d = 0;
      for (; d + 4 <= D; d += 4) vst1q_f32(out + d, vfmaq_n_f32(vld1q_f32(out + d), loadF16x4(vr + d), scores[j]));
      for (; d < D; ++d) out[d] += scores[j] * h2f(vr[d]);
    }
    const float inv = 1.0f / sum;
    for (size_t d = 0; d < D; ++d) out[d] *= inv;
  }
}

inline void scalesMins(const uint8_t* s, uint8_t* sc, uint8_t* mn) {
  for (int j = 0; j < 4; ++j) {
    sc[j] = s[j] & 63;
    mn[j] = s[j + 4] & 63;
  }
  for (int j = 4; j < 8; ++j) {
    sc[j] = static_cast<uint8_t>((s[j + 4] & 0xF) | ((s[j - 4] >> 6) << 4));
    mn[j] = static_cast<uint8_t>((s[j + 4] >> 4) | ((s[j] >> 6) << 4));
  }
}

inline int minsTerm(const uint8_t* mn, const int16_t* bsums) {
  int s = 0;
  for (int j = 0; j < 8; ++j) s += mn[j] * (bsums[2 * j] + bsums[2 * j + 1]);
  return s;
}

// Q4_K and Q5_K: the fifth bit (Q5_K) comes from qh when kFive.
template <bool kFive, typename Block>
float dotK45(const Block* w, const BlockQ8_K* y, size_t nb) {
  const uint8x16_t low4 = vdupq_n_u8(0x0F);
  const uint8x16_t bit4 = vdupq_n_u8(0x10);
  float sum = 0;
  for (size_t i = 0; i < nb; ++i) {
    uint8_t sc[8], mn[8];
    scalesMins(w[i].scales, sc, mn);
    uint8x16_t h0 = vdupq_n_u8(0), h1 = vdupq_n_u8(0);
    if constexpr (kFive) {
      h0 = vld1q_u8(w[i].qh);
      h1 = vld1q_u8(w[i].qh + 16);
    }
    int sumi = 0;
    for (int j = 0; j < 4; ++j) {
      const uint8x16_t b0 = vld1q_u8(w[i].qs + 32 * j), b1 = vld1q_u8(w[i].qs + 32 * j + 16);
      uint8x16_t l0 = vandq_u8(b0, low4), l1 = vandq_u8(b1, low4);
      uint8x16_t u0 = vshrq_n_u8(b0, 4), u1 = vshrq_n_u8(b1, 4);
      if constexpr (kFive) {
        const uint8x16_t m1 = vdupq_n_u8(static_cast<uint8_t>(1 << (2 * j)));
        const uint8x16_t m2 = vdupq_n_u8(static_cast<uint8_t>(1 << (2 * j + 1)));
        l0 = vorrq_u8(l0, vandq_u8(vtstq_u8(h0, m1), bit4));
        l1 = vorrq_u8(l1, vandq_u8(vtstq_u8(h1, m1), bit4));
        u0 = vorrq_u8(u0, vandq_u8(vtstq_u8(h0, m2), bit4));
        u1 = vorrq_u8(u1, vandq_u8(vtstq_u8(h1, m2), bit4));
      }
      const int8_t* q8 = y[i].qs + 64 * j;
      int32x4_t s0 = dot16(vdupq_n_s32(0), vreinterpretq_s8_u8(l0), vld1q_s8(q8));
      s0 = dot16(s0, vreinterpretq_s8_u8(l1), vld1q_s8(q8 + 16));
      int32x4_t s1 = dot16(vdupq_n_s32(0), vreinterpretq_s8_u8(u0), vld1q_s8(q8 + 32));
      s1 = dot16(s1, vreinterpretq_s8_u8(u1), vld1q_s8(q8 + 48));
      sumi += sc[2 * j] * vaddvq_s32(s0) + sc[2 * j + 1] * vaddvq_s32(s1);
    }
    sum += y[i].d * h2f(w[i].d) * static_cast<float>(sumi) -
           y[i].d * h2f(w[i].dmin) * static_cast<float>(minsTerm(mn, y[i].bsums));
  }
  return sum;
}

float dotQ6_K(const BlockQ6_K* w, const BlockQ8_K* y, size_t nb) {
  const uint8x16_t low4 = vdupq_n_u8(0x0F);
  const uint8x16_t three = vdupq_n_u8(3);
  const int8x16_t m32 = vdupq_n_s8(32);
  float sum = 0;
  for (size_t i = 0; i < nb; ++i) {
    const uint8_t* ql = w[i].ql;
    const uint8_t* qh = w[i].qh;
    const int8_t* sc = w[i].scales;
    const int8_t* q8 = y[i].qs;
    int sumi = 0;
    for (int half = 0; half < 2; ++half, ql += 64, qh += 32, sc += 8, q8 += 128) {
      for (int part = 0; part < 2; ++part) {  // elements l = 16·part .. 16·part+15 of each quarter
        const uint8x16_t a = vld1q_u8(ql + 16 * part), b = vld1q_u8(ql + 32 + 16 * part);
        const uint8x16_t h = vld1q_u8(qh + 16 * part);
        const uint8x16_t q[4] = {
            vorrq_u8(vandq_u8(a, low4), vshlq_n_u8(vandq_u8(h, three), 4)),
            vorrq_u8(vandq_u8(b, low4), vshlq_n_u8(vandq_u8(vshrq_n_u8(h, 2), three), 4)),
            vorrq_u8(vshrq_n_u8(a, 4), vshlq_n_u8(vandq_u8(vshrq_n_u8(h, 4), three), 4)),
            vorrq_u8(vshrq_n_u8(b, 4), vshlq_n_u8(vshrq_n_u8(h, 6), 4)),
        };
        for (int g = 0; g < 4; ++g) {
          const int8x16_t v = vsubq_s8(vreinterpretq_s8_u8(q[g]), m32);
          const int32x4_t s = dot16(vdupq_n_s32(0), v, vld1q_s8(q8 + 32 * g + 16 * part));
          sumi += sc[2 * g + part] * vaddvq_s32(s);
        }
      }
    }
    sum += y[i].d * h2f(w[i].d) * static_cast<float>(sumi);
  }
  return sum;
}

float dotF32(const float* w, const float* x, size_t n) {
  float32x4_t a0 = vdupq_n_f32(0), a1 = vdupq_n_f32(0), a2 = vdupq_n_f32(0), a3 = vdupq_n_f32(0);
  size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    a0 = vfmaq_f32(a0, vld1q_f32(w + i), vld1q_f32(x + i));
    a1 = vfmaq_f32(a1, vld1q_f32(w + i + 4), vld1q_f32(x + i + 4));
    a2 = vfmaq_f32(a2, vld1q_f32(w + i + 8), vld1q_f32(x + i + 8));
    a3 = vfmaq_f32(a3, vld1q_f32(w + i + 12), vld1q_f32(x + i + 12));
  }
  for (; i + 4 <= n; i += 4) a0 = vfmaq_f32(a0, vld1q_f32(w + i), vld1q_f32(x + i));
  float sum = vaddvq_f32(vaddq_f32(vaddq_f32(a0, a1), vaddq_f32(a2, a3)));
  for (; i < n; ++i) sum += w[i] * x[i];
  return sum;
}

inline float32x4_t loadHalf4(const uint16_t* p, bool bf16) {
  const uint16x4_t v = vld1_u16(p);
  if (bf16) return vreinterpretq_f32_u32(vshll_n_u16(v, 16));
  return vcvt_f32_f16(vreinterpret_f16_u16(v));
}

template <bool kBf16>
float dotHalf(const uint16_t* w, const float* x, size_t n) {
  float32x4_t a0 = vdupq_n_f32(0), a1 = vdupq_n_f32(0), a2 = vdupq_n_f32(0), a3 = vdupq_n_f32(0);
  size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    a0 = vfmaq_f32(a0, loadHalf4(w + i, kBf16), vld1q_f32(x + i));
    a1 = vfmaq_f32(a1, loadHalf4(w + i + 4, kBf16), vld1q_f32(x + i + 4));
    a2 = vfmaq_f32(a2, loadHalf4(w + i + 8, kBf16), vld1q_f32(x + i + 8));
    a3 = vfmaq_f32(a3, loadHalf4(w + i + 12, kBf16), vld1q_f32(x + i + 12));
  }
  for (; i + 4 <= n; i += 4) a0 = vfmaq_f32(a0, loadHalf4(w + i, kBf16), vld1q_f32(x + i));
  float sum = vaddvq_f32(vaddq_f32(vaddq_f32(a0, a1), vaddq_f32(a2, a3)));
  for (; i < n; ++i) {
    uint32_t u = static_cast<uint32_t>(w[i]) << 16;
    float b;
    std::memcpy(&b, &u, 4);
    sum += (kBf16 ? b : h2f(w[i])) * x[i];
  }
  return sum;
}

template <typename WBlock, typename YBlock, float (*kDot)(const WBlock*, const YBlock*, size_t)>
void tileLoop(const MatTile& t, size_t blockElems) {
  const size_t nb = t.k / blockElems;
  for (size_t r = t.n0; r < t.n1; ++r) {
    const auto* wr = reinterpret_cast<const WBlock*>(t.w + r * t.wRowBytes);
    for (size_t i = 0; i < t.m; ++i) {
      t.y[i * t.yStride + r] = kDot(wr, reinterpret_cast<const YBlock*>(t.xq + i * t.xqStride), nb);
    }
  }
}

class SOTTO_NEON_SET final : public MatKernels {
 public:
  const char* isa() const override { return SOTTO_NEON_DOTPROD ? "neon-dotprod" : "neon"; }
  bool hasAttention() const override { return true; }
  void attention(const AttnTile& t, size_t i0, size_t i1, float* scores) const override {
    attentionNeon(t, i0, i1, scores);
  }
  bool has(DType t) const override {
    switch (t) {
      case DType::F32: case DType::F16: case DType::BF16: case DType::Q8_0: case DType::Q4_0: case DType::Q4_1:
      case DType::Q5_0: case DType::Q5_1: case DType::Q4_K: case DType::Q5_K: case DType::Q6_K:
        return true;
      default:
        return false;
    }
  }
  void mulTile(DType t, const MatTile& tile) const override {
    switch (t) {
      case DType::F32: tileLoop<float, float, dotF32>(tile, 1); break;
      case DType::F16: tileLoop<uint16_t, float, dotHalf<false>>(tile, 1); break;
      case DType::BF16: tileLoop<uint16_t, float, dotHalf<true>>(tile, 1); break;
      case DType::Q8_0: tileLoop<BlockQ8_0, BlockQ8_0, dotQ8_0>(tile, kQk); break;
      case DType::Q4_0: tileLoop<BlockQ4_0, BlockQ8_0, dotQ4_0>(tile, kQk); break;
      case DType::Q4_1: tileLoop<BlockQ4_1, BlockQ8_1, dotMin<false, BlockQ4_1>>(tile, kQk); break;
      case DType::Q5_0: tileLoop<BlockQ5_0, BlockQ8_0, dotQ5_0>(tile, kQk); break;
      case DType::Q5_1: tileLoop<BlockQ5_1, BlockQ8_1, dotMin<true, BlockQ5_1>>(tile, kQk); break;
      case DType::Q4_K: tileLoop<BlockQ4_K, BlockQ8_K, dotK45<false, BlockQ4_K>>(tile, kQkK); break;
      case DType::Q5_K: tileLoop<BlockQ5_K, BlockQ8_K, dotK45<true, BlockQ5_K>>(tile, kQkK); break;
      case DType::Q6_K: tileLoop<BlockQ6_K, BlockQ8_K, dotQ6_K>(tile, kQkK); break;
      default: break;
    }
  }
};

const SOTTO_NEON_SET kNeonSet;

}  // namespace
}  // namespace sotto::hal::compute::cpu
