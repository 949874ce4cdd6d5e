// SPDX-License-Identifier: MIT
// AVX2 + FMA + F16C matmul kernels (compiled with -mavx2 -mfma -mf16c; used only when the CPU has them).
// Integer products use maddubs (u8 × s8 → s16 pairs): the sign trick makes one side unsigned, and every level
// range here keeps pair sums below the s16 limit (|q8| ≤ 127 in Q8_0/Q8_K activations).
#include <immintrin.h>

#include <cstdint>
#include <cstring>

#include "../common/blocks.h"
#include "kernels.h"

namespace sotto::hal::compute::cpu {
namespace {

inline float hsum(__m256 v) {
  __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
  s = _mm_add_ps(s, _mm_movehl_ps(s, s));
  s = _mm_add_ss(s, _mm_movehdup_ps(s));
  return _mm_cvtss_f32(s);
}

inline float h2f(uint16_t h) { return _cvtsh_ss(h); }

inline __m256i load(const void* p) { return _mm256_loadu_si256(static_cast<const __m256i*>(p)); }

// Eight int32 sums of four products of signed bytes each.
inline __m256i dotI8(__m256i x, __m256i y) {
  const __m256i p = _mm256_maddubs_epi16(_mm256_sign_epi8(x, x), _mm256_sign_epi8(y, x));
  return _mm256_madd_epi16(p, _mm256_set1_epi16(1));
}

// 32 nibbles of a Q4_0 block as bytes: elements 0..15 (low nibbles) then 16..31 (high nibbles).
inline __m256i nibbles(const uint8_t* q) {
  const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(q));
  const __m256i both = _mm256_set_m128i(_mm_srli_epi16(b, 4), b);
  return _mm256_and_si256(both, _mm256_set1_epi8(0x0F));
}

float dotQ8_0(const BlockQ8_0* w, const BlockQ8_0* y, size_t nb) {
  __m256 acc0 = _mm256_setzero_ps(), acc1 = _mm256_setzero_ps();
  size_t i = 0;
  for (; i + 1 < nb; i += 2) {
    const __m256 d0 = _mm256_set1_ps(h2f(w[i].d) * h2f(y[i].d));
    const __m256 d1 = _mm256_set1_ps(h2f(w[i + 1].d) * h2f(y[i + 1].d));
    acc0 = _mm256_fmadd_ps(d0, _mm256_cvtepi32_ps(dotI8(load(w[i].qs), load(y[i].qs))), acc0);
    acc1 = _mm256_fmadd_ps(d1, _mm256_cvtepi32_ps(dotI8(load(w[i + 1].qs), load(y[i + 1].qs))), acc1);
  }
  if (i < nb) {
    const __m256 d0 = _mm256_set1_ps(h2f(w[i].d) * h2f(y[i].d));
    acc0 = _mm256_fmadd_ps(d0, _mm256_cvtepi32_ps(dotI8(load(w[i].qs), load(y[i].qs))), acc0);
  }
  return hsum(_mm256_add_ps(acc0, acc1));
}

float dotQ4_0(const BlockQ4_0* w, const BlockQ8_0* y, size_t nb) {
  const __m256i eight = _mm256_set1_epi8(8);
  __m256 acc0 = _mm256_setzero_ps(), acc1 = _mm256_setzero_ps();
  size_t i = 0;
  for (; i + 1 < nb; i += 2) {
    const __m256 d0 = _mm256_set1_ps(h2f(w[i].d) * h2f(y[i].d));
    const __m256 d1 = _mm256_set1_ps(h2f(w[i + 1].d) * h2f(y[i + 1].d));
    const __m256i q0 = _mm256_sub_epi8(nibbles(w[i].qs), eight);
    const __m256i q1 = _mm256_sub_epi8(nibbles(w[i + 1].qs), eight);
    acc0 = _mm256_fmadd_ps(d0, _mm256_cvtepi32_ps(dotI8(q0, load(y[i].qs))), acc0);
    acc1 = _mm256_fmadd_ps(d1, _mm256_cvtepi32_ps(dotI8(q1, load(y[i + 1].qs))), acc1);
  }
  if (i < nb) {
    const __m256 d0 = _mm256_set1_ps(h2f(w[i].d) * h2f(y[i].d));
    const __m256i q0 = _mm256_sub_epi8(nibbles(w[i].qs), eight);
    acc0 = _mm256_fmadd_ps(d0, _mm256_cvtepi32_ps(dotI8(q0, load(y[i].qs))), acc0);
  }
  return hsum(_mm256_add_ps(acc0, acc1));
}

// 0xFF in byte j where bit j of the 32-bit mask is set, else 0.
inline __m256i bitsToBytes(const uint8_t* qh) {
  uint32_t bits;
  std::memcpy(&bits, qh, sizeof bits);
  // Byte j takes the mask's byte j/8; OR-ing every bit but bit j%8 makes it all ones exactly when bit j is set.
  const __m256i spread = _mm256_shuffle_epi8(
      _mm256_set1_epi32(static_cast<int>(bits)),
      _mm256_set_epi64x(0x0303030303030303, 0x0202020202020202, 0x0101010101010101, 0x0000000000000000));
  const __m256i ones = _mm256_or_si256(spread, _mm256_set1_epi64x(0x7fbfdfeff7fbfdfe));
  return _mm256_cmpeq_epi8(ones, _mm256_set1_epi64x(-1));
}

// The 32 five-bit levels (0..31) of a Q5_0 / Q5_1 block.
inline __m256i fiveBit(const uint8_t* qs, const uint8_t* qh) {
  return _mm256_or_si256(nibbles(qs), _mm256_and_si256(bitsToBytes(qh), _mm256_set1_epi8(0x10)));
}

// Eight int32 sums of unsigned levels (≤ 31) times signed activations.
inline __m256i dotU8I8(__m256i u, __m256i y) {
  return _mm256_madd_epi16(_mm256_maddubs_epi16(u, y), _mm256_set1_epi16(1));
}

float dotQ5_0(const BlockQ5_0* w, const BlockQ8_0* y, size_t nb) {
  const __m256i sixteen = _mm256_set1_epi8(16);
  __m256 acc0 = _mm256_setzero_ps(), acc1 = _mm256_setzero_ps();
  size_t i = 0;
  for (; i + 1 < nb; i += 2) {
    const __m256 d0 = _mm256_set1_ps(h2f(w[i].d) * h2f(y[i].d));
    const __m256 d1 = _mm256_set1_ps(h2f(w[i + 1].d) * h2f(y[i + 1].d));
    const __m256i q0 = _mm256_sub_epi8(fiveBit(w[i].qs, w[i].qh), sixteen);
    const __m256i q1 = _mm256_sub_epi8(fiveBit(w[i + 1].qs, w[i + 1].qh), sixteen);
    acc0 = _mm256_fmadd_ps(d0, _mm256_cvtepi32_ps(dotI8(q0, load(y[i].qs))), acc0);
    acc1 = _mm256_fmadd_ps(d1, _mm256_cvtepi32_ps(dotI8(q1, load(y[i + 1].qs))), acc1);
  }
  if (i < nb) {
    const __m256 d0 = _mm256_set1_ps(h2f(w[i].d) * h2f(y[i].d));
    const __m256i q0 = _mm256_sub_epi8(fiveBit(w[i].qs, w[i].qh), sixteen);
    acc0 = _mm256_fmadd_ps(d0, _mm256_cvtepi32_ps(dotI8(q0, load(y[i].qs))), acc0);
  }
  return hsum(_mm256_add_ps(acc0, acc1));
}

// Q4_1 / Q5_1: x = d·q + m with q ≥ 0, so Σ x·y = d·dy·Σ q·qy + m·s (s = dy·Σ qy, carried by the Q8_1 block).
template <bool kFive, typename Block>
float dotMin(const Block* w, const BlockQ8_1* y, size_t nb) {
  __m256 acc = _mm256_setzero_ps();
  float mins = 0;
  for (size_t i = 0; i < nb; ++i) {
    __m256i q;
    if constexpr (kFive) {
      q = fiveBit(w[i].qs, w[i].qh);
    } else {
      q = nibbles(w[i].qs);
    }
    const __m256 d = _mm256_set1_ps(h2f(w[i].d) * h2f(y[i].d));
    acc = _mm256_fmadd_ps(d, _mm256_cvtepi32_ps(dotU8I8(q, load(y[i].qs))), acc);
    mins += h2f(w[i].m) * h2f(y[i].s);
  }
  return hsum(acc) + mins;
}

// The eight 6-bit scales (bytes 0..7) and mins (bytes 8..15) of a Q4_K/Q5_K block, unpacked with word-wide masks.
inline __m128i scalesMins(const uint8_t* packed) {
  uint32_t u[4];
  std::memcpy(u, packed, 12);
  const uint32_t mins03 = u[1] & 0x3f3f3f3fu;
  u[3] = ((u[2] >> 4) & 0x0f0f0f0fu) | (((u[1] >> 6) & 0x03030303u) << 4);  // mins 4..7
  u[1] = (u[2] & 0x0f0f0f0fu) | (((u[0] >> 6) & 0x03030303u) << 4);         // scales 4..7
  u[2] = mins03;
  u[0] &= 0x3f3f3f3fu;  // scales 0..3
  return _mm_loadu_si128(reinterpret_cast<const __m128i*>(u));
}

// Σ mins[j] · (bsums[2j] + bsums[2j+1]) as four int32 lanes.
inline __m128i minsTerm(__m128i sm, const int16_t* bsums) {
  const __m128i b0 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(bsums));
  const __m128i b1 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(bsums + 8));
  return _mm_madd_epi16(_mm_cvtepu8_epi16(_mm_srli_si128(sm, 8)), _mm_hadd_epi16(b0, b1));
}

// Sub-block s's scale broadcast to all 16 s16 lanes of a vector holding the eight scales in each 128-bit lane.
inline __m256i scaleOf(__m256i scales, int s) {
  return _mm256_shuffle_epi8(scales, _mm256_set1_epi16(static_cast<short>(((2 * s + 1) << 8) | (2 * s))));
}

template <bool kFive, typename Block>
float dotK45(const Block* w, const BlockQ8_K* y, size_t nb) {
  const __m256i low4 = _mm256_set1_epi8(0x0F);
  const __m256i bit4 = _mm256_set1_epi8(0x10);
  __m256 acc = _mm256_setzero_ps();
  __m128 accMins = _mm_setzero_ps();
  for (size_t i = 0; i < nb; ++i) {
    const __m128i sm = scalesMins(w[i].scales);
    const __m256i scales = _mm256_broadcastsi128_si256(_mm_cvtepu8_epi16(sm));
    accMins = _mm_fmadd_ps(_mm_set1_ps(y[i].d * h2f(w[i].dmin)), _mm_cvtepi32_ps(minsTerm(sm, y[i].bsums)), accMins);
    __m256i hbits = _mm256_setzero_si256();
    if constexpr (kFive) hbits = load(w[i].qh);
    __m256i sumi = _mm256_setzero_si256();
    for (int j = 0; j < 4; ++j) {
      const __m256i q4 = load(w[i].qs + 32 * j);
      __m256i lo = _mm256_and_si256(q4, low4);
      __m256i hi = _mm256_and_si256(_mm256_srli_epi16(q4, 4), low4);
      if constexpr (kFive) {
        const __m256i m1 = _mm256_set1_epi8(static_cast<char>(1 << (2 * j)));
        const __m256i m2 = _mm256_set1_epi8(static_cast<char>(1 << (2 * j + 1)));
        lo = _mm256_or_si256(lo, _mm256_and_si256(_mm256_cmpeq_epi8(_mm256_and_si256(hbits, m1), m1), bit4));
        hi = _mm256_or_si256(hi, _mm256_and_si256(_mm256_cmpeq_epi8(_mm256_and_si256(hbits, m2), m2), bit4));
      }
      const __m256i p0 = _mm256_maddubs_epi16(lo, load(y[i].qs + 64 * j));
      const __m256i p1 = _mm256_maddubs_epi16(hi, load(y[i].qs + 64 * j + 32));
      sumi = _mm256_add_epi32(sumi, _mm256_madd_epi16(p0, scaleOf(scales, 2 * j)));
      sumi = _mm256_add_epi32(sumi, _mm256_madd_epi16(p1, scaleOf(scales, 2 * j + 1)));
    }
    acc = _mm256_fmadd_ps(_mm256_set1_ps(y[i].d * h2f(w[i].d)), _mm256_cvtepi32_ps(sumi), acc);
  }
  __m128 m = _mm_add_ps(accMins, _mm_movehl_ps(accMins, accMins));
  m = _mm_add_ss(m, _mm_movehdup_ps(m));
  return hsum(acc) - _mm_cvtss_f32(m);
}

// Scales 2g (low 128-bit lane) and 2g+1 (high lane) of eight s16 scales held in both lanes: the two 16-element
// groups a 32-byte vector of Q6_K levels spans.
inline __m256i scalePair(__m256i scales, int g) {
  const short lo = static_cast<short>(((4 * g + 1) << 8) | (4 * g));
  const short hi = static_cast<short>(((4 * g + 3) << 8) | (4 * g + 2));
  return _mm256_shuffle_epi8(scales, _mm256_set_m128i(_mm_set1_epi16(hi), _mm_set1_epi16(lo)));
}

float dotQ6_K(const BlockQ6_K* w, const BlockQ8_K* y, size_t nb) {
  const __m256i low4 = _mm256_set1_epi8(0x0F);
  const __m256i two = _mm256_set1_epi8(3);
  const __m256i m32 = _mm256_set1_epi8(32);
  __m256 acc = _mm256_setzero_ps();
  for (size_t i = 0; i < nb; ++i) {
    const uint8_t* ql = w[i].ql;
    const uint8_t* qh = w[i].qh;
    const int8_t* sc = w[i].scales;
    const int8_t* q8 = y[i].qs;
    __m256i sumi = _mm256_setzero_si256();
    for (int half = 0; half < 2; ++half, ql += 64, qh += 32, sc += 8, q8 += 128) {
      const __m256i l0 = load(ql), l1 = load(ql + 32), h = load(qh);
      const __m256i q[4] = {
          _mm256_or_si256(_mm256_and_si256(l0, low4), _mm256_slli_epi16(_mm256_and_si256(h, two), 4)),
          _mm256_or_si256(_mm256_and_si256(l1, low4),
                          _mm256_slli_epi16(_mm256_and_si256(_mm256_srli_epi16(h, 2), two), 4)),
          _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi16(l0, 4), low4),
                          _mm256_slli_epi16(_mm256_and_si256(_mm256_srli_epi16(h, 4), two), 4)),
          _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi16(l1, 4), low4),
                          _mm256_slli_epi16(_mm256_and_si256(_mm256_srli_epi16(h, 6), two), 4)),
      };
      const __m256i scales =
          _mm256_broadcastsi128_si256(_mm_cvtepi8_epi16(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(sc))));
      for (int g = 0; g < 4; ++g) {
        const __m256i y8 = load(q8 + 32 * g);
        // (q - 32)·y as q·y - 32·y: maddubs needs the unsigned side non-negative.
        const __m256i p = _mm256_sub_epi16(_mm256_maddubs_epi16(q[g], y8), _mm256_maddubs_epi16(m32, y8));
        sumi = _mm256_add_epi32(sumi, _mm256_madd_epi16(p, scalePair(scales, g)));
      }
    }
    acc = _mm256_fmadd_ps(_mm256_set1_ps(y[i].d * h2f(w[i].d)), _mm256_cvtepi32_ps(sumi), acc);
  }
  return hsum(acc);
}

float dotF32(const float* w, const float* x, size_t n) {
  __m256 a0 = _mm256_setzero_ps(), a1 = _mm256_setzero_ps(), a2 = _mm256_setzero_ps(), a3 = _mm256_setzero_ps();
  size_t i = 0;
  for (; i + 32 <= n; i += 32) {
    a0 = _mm256_fmadd_ps(_mm256_loadu_ps(w + i), _mm256_loadu_ps(x + i), a0);
    a1 = _mm256_fmadd_ps(_mm256_loadu_ps(w + i + 8), _mm256_loadu_ps(x + i + 8), a1);
    a2 = _mm256_fmadd_ps(_mm256_loadu_ps(w + i + 16), _mm256_loadu_ps(x + i + 16), a2);
    a3 = _mm256_fmadd_ps(_mm256_loadu_ps(w + i + 24), _mm256_loadu_ps(x + i + 24), a3);
  }
  for (; i + 8 <= n; i += 8) a0 = _mm256_fmadd_ps(_mm256_loadu_ps(w + i), _mm256_loadu_ps(x + i), a0);
  float sum = hsum(_mm256_add_ps(_mm256_add_ps(a0, a1), _mm256_add_ps(a2, a3)));
  for (; i < n; ++i) sum += w[i] * x[i];
  return sum;
}

inline __m256 loadF16(const uint16_t* p) { return _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p))); }
inline __m256 loadBf16(const uint16_t* p) {
  const __m256i v = _mm256_cvtepu16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
  return _mm256_castsi256_ps(_mm256_slli_epi32(v, 16));
}
inline float bf2f(uint16_t b) {
  const uint32_t u = static_cast<uint32_t>(b) << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

template <bool kBf16>
float dotHalf(const uint16_t* w, const float* x, size_t n) {
  const auto ld = [](const uint16_t* p) { return kBf16 ? loadBf16(p) : loadF16(p); };
  __m256 a0 = _mm256_setzero_ps(), a1 = _mm256_setzero_ps(), a2 = _mm256_setzero_ps(), a3 = _mm256_setzero_ps();
  size_t i = 0;
  for (; i + 32 <= n; i += 32) {
    a0 = _mm256_fmadd_ps(ld(w + i), _mm256_loadu_ps(x + i), a0);
    a1 = _mm256_fmadd_ps(ld(w + i + 8), _mm256_loadu_ps(x + i + 8), a1);
    a2 = _mm256_fmadd_ps(ld(w + i + 16), _mm256_loadu_ps(x + i + 16), a2);
    a3 = _mm256_fmadd_ps(ld(w + i + 24), _mm256_loadu_ps(x + i + 24), a3);
  }
  for (; i + 8 <= n; i += 8) a0 = _mm256_fmadd_ps(ld(w + i), _mm256_loadu_ps(x + i), a0);
  float sum = hsum(_mm256_add_ps(_mm256_add_ps(a0, a1), _mm256_add_ps(a2, a3)));
  for (; i < n; ++i) sum += (kBf16 ? bf2f(w[i]) : h2f(w[i])) * x[i];
  return sum;
}

// q · k for one key row: f32 query, F16 key widened by F16C.
inline float dotF32F16(const float* q, const uint16_t* k, size_t n) {
  __m256 a0 = _mm256_setzero_ps(), a1 = _mm256_setzero_ps();
  size_t d = 0;
  for (; d + 16 <= n; d += 16) {
    a0 = _mm256_fmadd_ps(_mm256_loadu_ps(q + d), loadF16(k + d), a0);
    a1 = _mm256_fmadd_ps(_mm256_loadu_ps(q + d + 8), loadF16(k + d + 8), a1);
  }
  for (; d + 8 <= n; d += 8) a0 = _mm256_fmadd_ps(_mm256_loadu_ps(q + d), loadF16(k + d), a0);
  float sum = hsum(_mm256_add_ps(a0, a1));
  for (; d < n; ++d) sum += q[d] * h2f(k[d]);
  return sum;
}

void attentionAvx2(const AttnTile& a, size_t i0, size_t i1, float* scores) {
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
    // Σ p_j v_j into the output row (rows of V are contiguous: stream them once).
    float* out = a.out + t * a.outStride + h * D;
    size_t d = 0;
    for (; d + 8 <= D; d += 8) _mm256_storeu_ps(out + d, _mm256_setzero_ps());
    for (; d < D; ++d) out[d] = 0;
    for (size_t j = 0; j < len; ++j) {
      const __m256 p = _mm256_set1_ps(scores[j]);
      const uint16_t* vr = vHead + j * D;
      for (d = 0; d + 8 <= D; d += 8) {
        _mm256_storeu_ps(out + d, _mm256_fmadd_ps(p, loadF16(vr + d), _mm256_loadu_ps(out + d)));
      }
      for (; d < D; ++d) out[d] += scores[j] * h2f(vr[d]);
    }
    const __m256 inv = _mm256_set1_ps(1.0f / sum);
    for (d = 0; d + 8 <= D; d += 8) _mm256_storeu_ps(out + d, _mm256_mul_ps(_mm256_loadu_ps(out + d), inv));
    for (; d < D; ++d) out[d] /= sum;
  }
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

class Avx2Kernels final : public MatKernels {
 public:
  const char* isa() const override { return "avx2"; }
  bool has(DType t) const override {
    switch (t) {
      case DType::F32: case DType::F16: case DType::BF16: case DType::Q8_0: case DType::Q4_0: case DType::Q4_1:
      case DType::Q5_0: case DType::Q5_1: case DType::Q4_K: case DType::Q5_K: case DType::Q6_K:
        return true;
      default:
        return false;
    }
  }
  bool hasAttention() const override { return true; }
  void attention(const AttnTile& t, size_t i0, size_t i1, float* scores) const override {
    attentionAvx2(t, i0, i1, scores);
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

const Avx2Kernels kAvx2;

}  // namespace

const MatKernels* avx2Kernels() { return &kAvx2; }

}  // namespace sotto::hal::compute::cpu
