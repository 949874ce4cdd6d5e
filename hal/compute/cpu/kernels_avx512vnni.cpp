// SPDX-License-Identifier: MIT
// AVX-512 VNNI matmul kernels (compiled with -mavx512f -mavx512bw -mavx512vl -mavx512vnni -mavx2 -mfma -mf16c;
// used only when the CPU has them). For the 32-element block types vpdpbusd multiplies unsigned by signed bytes
// and adds groups of four into int32 lanes in one instruction, where AVX2 needs maddubs + madd (and no 16-bit
// saturation can occur). The K-quants apply per-sub-block scales to 16-bit pair sums: maddubs makes them and
// vpdpwssd multiplies them by the scales and accumulates in one instruction, 64 elements per 512-bit vector.
#include <immintrin.h>

#include <type_traits>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "../common/blocks.h"
#include "kernels.h"

// GCC 12's 512-bit intrinsics pass a self-initialized "undefined" vector (`__m512 __Y = __Y;`) as the unused merge
// source of their masked builtins, which -W(maybe-)uninitialized reports at every inlined use (a known false
// positive; the value is never read). Only this file uses 512-bit intrinsics.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif

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

// Σ w·y over 32 signed bytes each, as eight int32 partial sums: |w| is the unsigned side, y takes w's sign.
inline __m256i dotI8(__m256i w, __m256i y) {
  return _mm256_dpbusd_epi32(_mm256_setzero_si256(), _mm256_abs_epi8(w), _mm256_sign_epi8(y, w));
}

// Σ u·y for unsigned levels u (≤ 31) and signed y.
inline __m256i dotU8(__m256i u, __m256i y) { return _mm256_dpbusd_epi32(_mm256_setzero_si256(), u, y); }

// 32 nibbles of a block as bytes: elements 0..15 (low nibbles) then 16..31 (high nibbles).
inline __m256i nibbles(const uint8_t* q) {
  const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(q));
  return _mm256_and_si256(_mm256_set_m128i(_mm_srli_epi16(b, 4), b), _mm256_set1_epi8(0x0F));
}

// The fifth bits of a Q5 block as 0x10 bytes (AVX-512BW mask to vector).
inline __m256i fifthBits(const uint8_t* qh) {
  uint32_t bits;
  std::memcpy(&bits, qh, sizeof bits);
  return _mm256_maskz_mov_epi8(static_cast<__mmask32>(bits), _mm256_set1_epi8(0x10));
}

// One accumulator in block order: exactly the arithmetic of gemm2x4 below, so a row gives the same bits whichever
// path computes it (results must not depend on how rows are shared out between threads).
template <typename Block, typename Levels>
float dotSym(const Block* w, const BlockQ8_0* y, size_t nb, Levels levels) {
  __m256 acc = _mm256_setzero_ps();
  for (size_t i = 0; i < nb; ++i) {
    const __m256 d = _mm256_set1_ps(h2f(w[i].d) * h2f(y[i].d));
    acc = _mm256_fmadd_ps(d, _mm256_cvtepi32_ps(dotI8(levels(w[i]), load(y[i].qs))), acc);
  }
  return hsum(acc);
}

// The signed levels of a block, as function objects so every kernel they are passed to inlines them (passed as
// function pointers, levelsQ8_0 was a call per block: 14 % of a SmolLM2-135M Q8_0 decode profile).
constexpr auto levelsQ8_0 = [](const BlockQ8_0& b) { return load(b.qs); };
constexpr auto levelsQ4_0 = [](const BlockQ4_0& b) { return _mm256_sub_epi8(nibbles(b.qs), _mm256_set1_epi8(8)); };
constexpr auto levelsQ5_0 = [](const BlockQ5_0& b) {
  return _mm256_sub_epi8(_mm256_or_si256(nibbles(b.qs), fifthBits(b.qh)), _mm256_set1_epi8(16));
};

float dotQ8_0(const BlockQ8_0* w, const BlockQ8_0* y, size_t nb) { return dotSym(w, y, nb, levelsQ8_0); }
float dotQ4_0(const BlockQ4_0* w, const BlockQ8_0* y, size_t nb) { return dotSym(w, y, nb, levelsQ4_0); }
float dotQ5_0(const BlockQ5_0* w, const BlockQ8_0* y, size_t nb) { return dotSym(w, y, nb, levelsQ5_0); }

// Q4_1 / Q5_1: Σ x·y = d·dy·Σ q·qy + m·s (s = dy·Σ qy from the Q8_1 block).
template <bool kFive, typename Block>
float dotMin(const Block* w, const BlockQ8_1* y, size_t nb) {
  __m256 acc = _mm256_setzero_ps();
  float mins = 0;
  for (size_t i = 0; i < nb; ++i) {
    __m256i q = nibbles(w[i].qs);
    if constexpr (kFive) q = _mm256_or_si256(q, fifthBits(w[i].qh));
    const __m256 d = _mm256_set1_ps(h2f(w[i].d) * h2f(y[i].d));
    acc = _mm256_fmadd_ps(d, _mm256_cvtepi32_ps(dotU8(q, load(y[i].qs))), acc);
    mins += h2f(w[i].m) * h2f(y[i].s);
  }
  return hsum(acc) + mins;
}

template <typename WBlock, typename YBlock, float (*kDot)(const WBlock*, const YBlock*, size_t)>
void tileLoop(const MatTile& t) {
  const size_t nb = t.k / kQk;
  for (size_t r = t.n0; r < t.n1; ++r) {
    const auto* wr = reinterpret_cast<const WBlock*>(t.w + r * t.wRowBytes);
    for (size_t i = 0; i < t.m; ++i) {
      t.y[i * t.yStride + r] = kDot(wr, reinterpret_cast<const YBlock*>(t.xq + i * t.xqStride), nb);
    }
  }
}

// Prefill: 2 weight rows × 4 activation rows per step, so each loaded weight block (and its |w|) serves four
// activations and each activation block two rows; the eight sums stay in registers until the end.
template <typename Block, typename Levels>
void gemm2x4(const MatTile& t, size_t r, size_t i, Levels levels) {
  const size_t nb = t.k / kQk;
  const auto* w0 = reinterpret_cast<const Block*>(t.w + r * t.wRowBytes);
  const auto* w1 = reinterpret_cast<const Block*>(t.w + (r + 1) * t.wRowBytes);
  const BlockQ8_0* y[4];
  for (int c = 0; c < 4; ++c) y[c] = reinterpret_cast<const BlockQ8_0*>(t.xq + (i + c) * t.xqStride);
  __m256 acc[2][4];
  for (auto& row : acc) {
    for (auto& a : row) a = _mm256_setzero_ps();
  }
  for (size_t b = 0; b < nb; ++b) {
    const __m256i q0 = levels(w0[b]), q1 = levels(w1[b]);
    const __m256i a0 = _mm256_abs_epi8(q0), a1 = _mm256_abs_epi8(q1);
    const float d0 = h2f(w0[b].d), d1 = h2f(w1[b].d);
#pragma GCC unroll 4
    for (int c = 0; c < 4; ++c) {
      const __m256i yc = load(y[c][b].qs);
      const float dy = h2f(y[c][b].d);
      const __m256i s0 = _mm256_dpbusd_epi32(_mm256_setzero_si256(), a0, _mm256_sign_epi8(yc, q0));
      const __m256i s1 = _mm256_dpbusd_epi32(_mm256_setzero_si256(), a1, _mm256_sign_epi8(yc, q1));
      acc[0][c] = _mm256_fmadd_ps(_mm256_set1_ps(d0 * dy), _mm256_cvtepi32_ps(s0), acc[0][c]);
      acc[1][c] = _mm256_fmadd_ps(_mm256_set1_ps(d1 * dy), _mm256_cvtepi32_ps(s1), acc[1][c]);
    }
  }
  for (int c = 0; c < 4; ++c) {
    t.y[(i + c) * t.yStride + r] = hsum(acc[0][c]);
    t.y[(i + c) * t.yStride + r + 1] = hsum(acc[1][c]);
  }
}

// Touches the bytes [p, p + n) into L1 ahead of use (hints: never fault, even past the end of a mapping).
inline void prefetchSpan(const std::byte* p, size_t n) {
  for (size_t o = 0; o < n; o += 64) _mm_prefetch(reinterpret_cast<const char*>(p + o), _MM_HINT_T0);
}

// Decode streams every weight byte once, and one core's hardware prefetcher keeps more lines in flight over
// several sequential streams than over one: two threads read a 145 MB buffer at 19–21 GB/s as one stream each
// and 24–27 GB/s as four (interleaved chunks of 36 KB to 1 MB alike). So a decode tile's rows [n0, n1) are read
// as four streams, each a quarter of the range, one row of each per step; the leftover rows one at a time.
struct RowQuad {
  size_t r[4];
};
template <typename Four, typename One>
void decodeStreams(size_t n0, size_t n1, Four four, One one) {
  const size_t q = (n1 - n0) / 4;
  for (size_t j = 0; j < q; ++j) four(RowQuad{{n0 + j, n0 + q + j, n0 + 2 * q + j, n0 + 3 * q + j}});
  for (size_t r = n0 + 4 * q; r < n1; ++r) one(r);
}

constexpr size_t kDecodePrefetchBytes = 1024;  // measured best of 512..2048 on a Q8_0 row stream

// Decode (one activation row): 4 weight rows (one per stream) per pass and one load of each activation block;
// per row the same arithmetic as dotSym. Each stream is prefetched a fixed distance ahead (rows are contiguous
// within a stream, so the distance runs on into the stream's next row).
template <typename Block, typename Levels>
void gemv4(const MatTile& t, const RowQuad& rows, size_t i, Levels levels) {
  const size_t nb = t.k / kQk;
  const Block* w[4];
  for (int k = 0; k < 4; ++k) w[k] = reinterpret_cast<const Block*>(t.w + rows.r[k] * t.wRowBytes);
  const auto* y = reinterpret_cast<const BlockQ8_0*>(t.xq + i * t.xqStride);
  __m256 acc[4] = {_mm256_setzero_ps(), _mm256_setzero_ps(), _mm256_setzero_ps(), _mm256_setzero_ps()};
  for (size_t b = 0; b < nb; ++b) {
    if (b % 2 == 0) {
#pragma GCC unroll 4
      for (int k = 0; k < 4; ++k) {
        _mm_prefetch(reinterpret_cast<const char*>(w[k] + b) + kDecodePrefetchBytes, _MM_HINT_T0);
      }
    }
    const __m256i yb = load(y[b].qs);
    const float dy = h2f(y[b].d);
#pragma GCC unroll 4
    for (int k = 0; k < 4; ++k) {
      const __m256i q = levels(w[k][b]);
      const __m256i s = _mm256_dpbusd_epi32(_mm256_setzero_si256(), _mm256_abs_epi8(q), _mm256_sign_epi8(yb, q));
      acc[k] = _mm256_fmadd_ps(_mm256_set1_ps(h2f(w[k][b].d) * dy), _mm256_cvtepi32_ps(s), acc[k]);
    }
  }
  for (int k = 0; k < 4; ++k) t.y[i * t.yStride + rows.r[k]] = hsum(acc[k]);
}

// Rows in pairs and activations in fours where they fill a whole tile; single dot products for the edges.
template <typename Block, float (*kDot)(const Block*, const BlockQ8_0*, size_t), typename Levels>
void tileLoopSym(const MatTile& t, Levels levels) {
  const size_t nb = t.k / kQk;
  const size_t m4 = t.m >= 4 ? t.m - t.m % 4 : 0;
  size_t r = t.n0;
  for (; m4 > 0 && r + 2 <= t.n1; r += 2) {
    for (size_t i = 0; i < m4; i += 4) gemm2x4<Block>(t, r, i, levels);
    for (size_t i = m4; i < t.m; ++i) {
      for (size_t rr = r; rr < r + 2; ++rr) {
        t.y[i * t.yStride + rr] = kDot(reinterpret_cast<const Block*>(t.w + rr * t.wRowBytes),
                                       reinterpret_cast<const BlockQ8_0*>(t.xq + i * t.xqStride), nb);
      }
    }
  }
  decodeStreams(
      r, t.n1,
      [&](const RowQuad& q) {
        for (size_t i = 0; i < t.m; ++i) gemv4<Block>(t, q, i, levels);
      },
      [&](size_t rr) {
        const auto* wr = reinterpret_cast<const Block*>(t.w + rr * t.wRowBytes);
        for (size_t i = 0; i < t.m; ++i) {
          t.y[i * t.yStride + rr] = kDot(wr, reinterpret_cast<const BlockQ8_0*>(t.xq + i * t.xqStride), nb);
        }
      });
}

// ---- Activation quantization, byte for byte the reference's (quant_ref.cpp) ----

inline __m512i castI(__m512 v) { return _mm512_castps_si512(v); }

// round(v) with ties away from zero (std::round): truncate, then step away from zero where the exact remainder
// is at least one half.
inline __m512i roundAway(__m512 v) {
  const __m512 t = _mm512_roundscale_ps(v, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
  const __mmask16 up = _mm512_cmp_ps_mask(_mm512_abs_ps(_mm512_sub_ps(v, t)), _mm512_set1_ps(0.5f), _CMP_GE_OQ);
  const __m512 one = _mm512_castsi512_ps(_mm512_or_si512(_mm512_and_si512(castI(v), _mm512_set1_epi32(INT32_MIN)),
                                                          castI(_mm512_set1_ps(1.0f))));
  return _mm512_cvttps_epi32(_mm512_mask_add_ps(t, up, t, one));
}

void quantizeQ8_0Row(const float* x, size_t k, BlockQ8_0* y) {
  for (size_t i = 0; i < k / kQk; ++i, x += kQk) {
    const __m512 a = _mm512_loadu_ps(x), b = _mm512_loadu_ps(x + 16);
    const float amax = _mm512_reduce_max_ps(_mm512_max_ps(_mm512_abs_ps(a), _mm512_abs_ps(b)));
    const float d = amax / 127;
    const float id = d != 0.0f ? 1.0f / d : 0.0f;
    // _mm_cvtps_ph, not _cvtss_sh: clang's _cvtss_sh macro expands to a compound literal (-Wc99-extensions).
    y[i].d = static_cast<uint16_t>(_mm_extract_epi16(_mm_cvtps_ph(_mm_set_ss(d), _MM_FROUND_TO_NEAREST_INT), 0));
    const __m512 vid = _mm512_set1_ps(id);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(y[i].qs), _mm512_cvtepi32_epi8(roundAway(_mm512_mul_ps(a, vid))));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(y[i].qs + 16), _mm512_cvtepi32_epi8(roundAway(_mm512_mul_ps(b, vid))));
  }
}

void quantizeQ8_KRow(const float* x, size_t k, BlockQ8_K* y) {
  for (size_t i = 0; i < k / kQkK; ++i, x += kQkK) {
    __m512 m = _mm512_setzero_ps();
    for (int j = 0; j < kQkK; j += 16) m = _mm512_max_ps(m, _mm512_abs_ps(_mm512_loadu_ps(x + j)));
    const float amax = _mm512_reduce_max_ps(m);
    if (amax == 0.0f) {
      std::memset(&y[i], 0, sizeof y[i]);
      continue;
    }
    float max = 0;  // the first element of largest magnitude, with its sign (the reference's strict '>' scan)
    for (int j = 0; j < kQkK; j += 16) {
      const __mmask16 hit = _mm512_cmp_ps_mask(_mm512_abs_ps(_mm512_loadu_ps(x + j)), _mm512_set1_ps(amax), _CMP_EQ_OQ);
      if (hit != 0) {
        max = x[j + __builtin_ctz(hit)];
        break;
      }
    }
    const float iscale = -127.f / max;
    const __m512 vs = _mm512_set1_ps(iscale);
    for (int j = 0; j < kQkK; j += 16) {
      // Round to nearest even (the reference's 1.5·2^23 trick), then at most 127.
      const __m512i q = _mm512_min_epi32(_mm512_cvtps_epi32(_mm512_mul_ps(vs, _mm512_loadu_ps(x + j))), _mm512_set1_epi32(127));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(y[i].qs + j), _mm512_cvtepi32_epi8(q));
      y[i].bsums[j / 16] = static_cast<int16_t>(_mm512_reduce_add_epi32(q));
    }
    y[i].d = 1 / iscale;
  }
}

// ---- SwiGLU ----

// e^x for x in [-88.38, 88.38] (clamped): x = n·ln2 + r with |r| ≤ ln2/2, Cephes' degree-6 polynomial for e^r
// (about 1 ulp), then scaled by 2^n with vscalefps.
inline __m512 exp512(__m512 x) {
  x = _mm512_min_ps(_mm512_max_ps(x, _mm512_set1_ps(-88.3762626647949f)), _mm512_set1_ps(88.3762626647949f));
  const __m512 n = _mm512_roundscale_ps(_mm512_mul_ps(x, _mm512_set1_ps(1.44269504088896341f)),
                                        _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  __m512 r = _mm512_fnmadd_ps(n, _mm512_set1_ps(0.693359375f), x);  // ln2 in two parts: the first is exact × n
  r = _mm512_fnmadd_ps(n, _mm512_set1_ps(-2.12194440e-4f), r);
  __m512 p = _mm512_set1_ps(1.9875691500e-4f);
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.3981999507e-3f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(8.3334519073e-3f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(4.1665795894e-2f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.6666665459e-1f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(5.0000001201e-1f));
  p = _mm512_fmadd_ps(p, _mm512_mul_ps(r, r), _mm512_add_ps(r, _mm512_set1_ps(1.0f)));
  return _mm512_scalef_ps(p, n);
}

void siluMul512(const float* gate, const float* up, float* out, size_t n) {
  size_t i = 0;
  const __m512 one = _mm512_set1_ps(1.0f);
  for (; i + 16 <= n; i += 16) {
    const __m512 g = _mm512_loadu_ps(gate + i);
    const __m512 e = exp512(_mm512_sub_ps(_mm512_setzero_ps(), g));
    _mm512_storeu_ps(out + i, _mm512_mul_ps(_mm512_div_ps(g, _mm512_add_ps(one, e)), _mm512_loadu_ps(up + i)));
  }
  if (i < n) {  // the tail under a mask (out may alias gate: read before write)
    const __mmask16 m = static_cast<__mmask16>((1u << (n - i)) - 1);
    const __m512 g = _mm512_maskz_loadu_ps(m, gate + i);
    const __m512 e = exp512(_mm512_sub_ps(_mm512_setzero_ps(), g));
    _mm512_mask_storeu_ps(out + i, m, _mm512_mul_ps(_mm512_div_ps(g, _mm512_add_ps(one, e)), _mm512_maskz_loadu_ps(m, up + i)));
  }
}

void add512(const float* a, const float* b, float* out, size_t n) {
  size_t i = 0;
  for (; i + 16 <= n; i += 16) _mm512_storeu_ps(out + i, _mm512_add_ps(_mm512_loadu_ps(a + i), _mm512_loadu_ps(b + i)));
  if (i < n) {
    const __mmask16 m = static_cast<__mmask16>((1u << (n - i)) - 1);
    _mm512_mask_storeu_ps(out + i, m, _mm512_add_ps(_mm512_maskz_loadu_ps(m, a + i), _mm512_maskz_loadu_ps(m, b + i)));
  }
}

// x0' = x0·c − x1·s and x1' = x0·s + x1·c with separate products and one add, as the reference (the compiler must
// not contract them: this file is built with -ffp-contract=off, see hal/CMakeLists.txt).
void rope512(float* x, size_t heads, size_t headDim, size_t nDims, bool neox, const float* cs) {
  const size_t half = nDims / 2;
  const float* cosv = cs;
  const float* sinv = cs + half;
  for (size_t h = 0; h < heads; ++h) {
    float* v = x + h * headDim;
    if (neox) {
      for (size_t i = 0; i < half; i += 16) {
        const __mmask16 m = half - i >= 16 ? static_cast<__mmask16>(0xFFFF) : static_cast<__mmask16>((1u << (half - i)) - 1);
        const __m512 c = _mm512_maskz_loadu_ps(m, cosv + i), s = _mm512_maskz_loadu_ps(m, sinv + i);
        const __m512 x0 = _mm512_maskz_loadu_ps(m, v + i), x1 = _mm512_maskz_loadu_ps(m, v + half + i);
        _mm512_mask_storeu_ps(v + i, m, _mm512_sub_ps(_mm512_mul_ps(x0, c), _mm512_mul_ps(x1, s)));
        _mm512_mask_storeu_ps(v + half + i, m, _mm512_add_ps(_mm512_mul_ps(x0, s), _mm512_mul_ps(x1, c)));
      }
      continue;
    }
    // Adjacent pairs: 8 pairs per vector; cosines and sines duplicated into both lanes of their pair, the sine
    // negated in the even lane, and the pair swapped for the second product: even x0·c + x1·(−s), odd x1·c + x0·s.
    const __m512i dup = _mm512_set_epi32(7, 7, 6, 6, 5, 5, 4, 4, 3, 3, 2, 2, 1, 1, 0, 0);
    const __m512i sign = _mm512_set_epi32(0, INT32_MIN, 0, INT32_MIN, 0, INT32_MIN, 0, INT32_MIN, 0, INT32_MIN, 0,
                                          INT32_MIN, 0, INT32_MIN, 0, INT32_MIN);  // no AVX512DQ: integer xor
    for (size_t i = 0; i < half; i += 8) {
      const size_t pairs = half - i >= 8 ? 8 : half - i;
      const __mmask16 m = pairs == 8 ? static_cast<__mmask16>(0xFFFF) : static_cast<__mmask16>((1u << (2 * pairs)) - 1);
      const __mmask16 mh = static_cast<__mmask16>((1u << pairs) - 1);
      const __m512 c = _mm512_permutexvar_ps(dup, _mm512_maskz_loadu_ps(mh, cosv + i));
      const __m512 s = _mm512_castsi512_ps(
          _mm512_xor_si512(_mm512_castps_si512(_mm512_permutexvar_ps(dup, _mm512_maskz_loadu_ps(mh, sinv + i))), sign));
      const __m512 xv = _mm512_maskz_loadu_ps(m, v + 2 * i);
      const __m512 sw = _mm512_permute_ps(xv, 0xB1);  // (x1, x0) in each pair
      _mm512_mask_storeu_ps(v + 2 * i, m, _mm512_add_ps(_mm512_mul_ps(xv, c), _mm512_mul_ps(sw, s)));
    }
  }
}

// The reference's rms_norm: float squares summed in double (8 lanes of double per half vector), the same
// float scale, then (x · scale) · w element by element.
void rmsNorm512(const float* x, const float* w, float* y, size_t n, float eps) {
  __m512d s0 = _mm512_setzero_pd(), s1 = _mm512_setzero_pd();
  size_t i = 0;
  for (; i < n; i += 16) {
    const __mmask16 m = n - i >= 16 ? static_cast<__mmask16>(0xFFFF) : static_cast<__mmask16>((1u << (n - i)) - 1);
    const __m512 v = _mm512_maskz_loadu_ps(m, x + i);
    const __m512 sq = _mm512_mul_ps(v, v);
    s0 = _mm512_add_pd(s0, _mm512_cvtps_pd(_mm512_castps512_ps256(sq)));
    s1 = _mm512_add_pd(s1, _mm512_cvtps_pd(_mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(sq), 1))));
  }
  const double sum = _mm512_reduce_add_pd(_mm512_add_pd(s0, s1));
  const float mean = static_cast<float>(sum / static_cast<double>(n));
  const float root = _mm_cvtss_f32(_mm_sqrt_ss(_mm_set_ss(mean + eps)));  // IEEE sqrt, as std::sqrt
  const __m512 scale = _mm512_set1_ps(1.0f / root);
  for (i = 0; i < n; i += 16) {
    const __mmask16 m = n - i >= 16 ? static_cast<__mmask16>(0xFFFF) : static_cast<__mmask16>((1u << (n - i)) - 1);
    __m512 v = _mm512_mul_ps(_mm512_maskz_loadu_ps(m, x + i), scale);
    if (w != nullptr) v = _mm512_mul_ps(v, _mm512_maskz_loadu_ps(m, w + i));
    _mm512_mask_storeu_ps(y + i, m, v);
  }
}

// vcvtps2ph rounds to nearest even with overflow to infinity and subnormal halves, as fp32ToFp16; only NaNs
// differ (the hardware keeps the payload), so they are rewritten to the reference's sign | 0x7e00.
void toHalf512(const float* x, uint16_t* out, size_t n) {
  for (size_t i = 0; i < n; i += 16) {
    const __mmask16 m = n - i >= 16 ? static_cast<__mmask16>(0xFFFF) : static_cast<__mmask16>((1u << (n - i)) - 1);
    const __m512 v = _mm512_maskz_loadu_ps(m, x + i);
    __m256i h = _mm512_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    const __mmask16 nan = _mm512_cmp_ps_mask(v, v, _CMP_UNORD_Q);
    if (nan != 0) {
      const __m256i sign = _mm512_cvtepi32_epi16(_mm512_srli_epi32(_mm512_castps_si512(v), 16));
      const __m256i canonical = _mm256_or_si256(_mm256_and_si256(sign, _mm256_set1_epi16(static_cast<short>(0x8000))),
                                                _mm256_set1_epi16(0x7e00));
      h = _mm256_mask_mov_epi16(h, nan, canonical);
    }
    _mm256_mask_storeu_epi16(out + i, m, h);
  }
}

// ---- Attention over the F16 KV cache ----

inline __m512 loadF16x16(const uint16_t* p) {
  return _mm512_cvtph_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)));
}

// Lane u = the sum of the 16 lanes of x[u]: a reduction tree that halves the vector count at every level (45
// shuffles and adds for 16 sums, where one horizontal sum each took about 8), then one permutation into key order.
inline __m512 hsum16(const __m512 x[16]) {
  __m512 t[8], u[4], w[2];
  for (int i = 0; i < 8; ++i) {  // 256-bit halves: lanes 0..7 partials of x[i], 8..15 of x[i + 8]
    t[i] = _mm512_add_ps(_mm512_shuffle_f32x4(x[i], x[i + 8], 0x44), _mm512_shuffle_f32x4(x[i], x[i + 8], 0xEE));
  }
  for (int i = 0; i < 4; ++i) {  // 128-bit quarters: x[i], x[i + 8], x[i + 4], x[i + 12]
    u[i] = _mm512_add_ps(_mm512_shuffle_f32x4(t[i], t[i + 4], 0x88), _mm512_shuffle_f32x4(t[i], t[i + 4], 0xDD));
  }
  for (int i = 0; i < 2; ++i) {  // pairs of floats within each quarter: u[i] then u[i + 2]
    const __m512d a = _mm512_castps_pd(u[i]), b = _mm512_castps_pd(u[i + 2]);
    w[i] = _mm512_add_ps(_mm512_castpd_ps(_mm512_unpacklo_pd(a, b)), _mm512_castpd_ps(_mm512_unpackhi_pd(a, b)));
  }
  const __m512 r = _mm512_add_ps(_mm512_shuffle_ps(w[0], w[1], _MM_SHUFFLE(2, 0, 2, 0)),
                                 _mm512_shuffle_ps(w[0], w[1], _MM_SHUFFLE(3, 1, 3, 1)));
  // r holds keys 0 2 1 3 | 8 10 9 11 | 4 6 5 7 | 12 14 13 15.
  const __m512i order = _mm512_set_epi32(15, 13, 14, 12, 7, 5, 6, 4, 11, 9, 10, 8, 3, 1, 2, 0);
  return _mm512_permutexvar_ps(order, r);
}

// One (token, head) pair at a time, as the AVX2 kernel, with the query and the output row in NV registers of 16
// and the softmax's exponentials 16 at a time.
template <int NV>
void attention512(const AttnTile& a, size_t i0, size_t i1, float* scores) {
  constexpr size_t D = 16 * NV;
  const size_t group = a.heads / a.kvHeads;
  for (size_t i = i0; i < i1; ++i) {
    const size_t t = i / a.heads, h = i % a.heads, kvh = h / group;
    const float* qp = a.q + t * a.qStride + h * D;
    const uint16_t* kHead = a.k + kvh * a.capacity * D;
    const uint16_t* vHead = a.v + kvh * a.capacity * D;
    const size_t len = a.pos0 + t + 1;  // causal
    __m512 q[NV];
    for (int v = 0; v < NV; ++v) q[v] = _mm512_mul_ps(_mm512_loadu_ps(qp + 16 * v), _mm512_set1_ps(a.scale));
    // Scores 16 keys at a time, their 16 partial-sum vectors reduced together (hsum16); the rest one by one.
    __m512 vmax16 = _mm512_set1_ps(-__builtin_inff());
    size_t j = 0;
    for (; j + 16 <= len; j += 16) {
      __m512 acc[16];
      for (int u = 0; u < 16; ++u) {
        const uint16_t* kr = kHead + (j + static_cast<size_t>(u)) * D;
        acc[u] = _mm512_mul_ps(q[0], loadF16x16(kr));
        for (int v = 1; v < NV; ++v) acc[u] = _mm512_fmadd_ps(q[v], loadF16x16(kr + 16 * v), acc[u]);
      }
      const __m512 sc = hsum16(acc);
      _mm512_storeu_ps(scores + j, sc);
      vmax16 = _mm512_max_ps(vmax16, sc);
    }
    float max = _mm512_reduce_max_ps(vmax16);
    for (; j < len; ++j) {
      const uint16_t* kr = kHead + j * D;
      __m512 acc = _mm512_mul_ps(q[0], loadF16x16(kr));
      for (int v = 1; v < NV; ++v) acc = _mm512_fmadd_ps(q[v], loadF16x16(kr + 16 * v), acc);
      const float sc = _mm512_reduce_add_ps(acc);
      scores[j] = sc;
      max = sc > max ? sc : max;
    }
    const __m512 vmax = _mm512_set1_ps(max);
    __m512 vsum = _mm512_setzero_ps();
    j = 0;
    for (; j + 16 <= len; j += 16) {
      const __m512 e = exp512(_mm512_sub_ps(_mm512_loadu_ps(scores + j), vmax));
      _mm512_storeu_ps(scores + j, e);
      vsum = _mm512_add_ps(vsum, e);
    }
    if (j < len) {
      const __mmask16 m = static_cast<__mmask16>((1u << (len - j)) - 1);
      const __m512 e = exp512(_mm512_sub_ps(_mm512_maskz_loadu_ps(m, scores + j), vmax));
      _mm512_mask_storeu_ps(scores + j, m, e);
      vsum = _mm512_add_ps(vsum, _mm512_maskz_mov_ps(m, e));
    }
    // Σ p_j v_j (rows of V are contiguous: stream them once).
    __m512 o[NV];
    for (int v = 0; v < NV; ++v) o[v] = _mm512_setzero_ps();
    for (j = 0; j < len; ++j) {
      const __m512 pj = _mm512_set1_ps(scores[j]);
      const uint16_t* vr = vHead + j * D;
      for (int v = 0; v < NV; ++v) o[v] = _mm512_fmadd_ps(pj, loadF16x16(vr + 16 * v), o[v]);
    }
    const __m512 inv = _mm512_set1_ps(1.0f / _mm512_reduce_add_ps(vsum));
    float* out = a.out + t * a.outStride + h * D;
    for (int v = 0; v < NV; ++v) _mm512_storeu_ps(out + 16 * v, _mm512_mul_ps(o[v], inv));
  }
}

// ---- Decode of the 32-element types: packed activations, two blocks per 512-bit vector ----
// For decode (one activation row) a Q8_0 activation row is rewritten once per matmul as, per 64 elements, the
// 64 levels y (signed), the sum of each 4-element group (one int32 lane each) and 16 floats: the first block's
// scale ×8, the second's ×8. Weight levels are taken unsigned as stored (nibbles; Q8_0 + 128), so vpdpbusd gives
// Σ (w + o)·y, and starting it from 2^23·1.5 − o·Σy (computed once per activation pair and shared by every row)
// leaves 2^23·1.5 + Σ w·y exactly. Per weight pair that is one vpdpbusd and three float operations; taking the
// levels signed and y + 128 unsigned needed a second vpdpbusd per weight pair for the −128·Σw start.

inline __m512i join(__m256i lo, __m256i hi) { return _mm512_inserti64x4(_mm512_castsi256_si512(lo), hi, 1); }

struct PackedPair {
  int8_t ys[64];
  int32_t sum4[16];  // Σ of ys[4l .. 4l + 3] in lane l
  float d[16];
};
static_assert(sizeof(PackedPair) == 192);

void packQ8_0Row(const std::byte* q8Row, size_t k, std::byte* out) {
  const auto* y = reinterpret_cast<const BlockQ8_0*>(q8Row);
  auto* p = reinterpret_cast<PackedPair*>(out);
  for (size_t j = 0; j < k / 64; ++j) {
    const BlockQ8_0& a = y[2 * j];
    const BlockQ8_0& b = y[2 * j + 1];
    const __m512i ys = join(load(a.qs), load(b.qs));
    _mm512_storeu_si512(p[j].ys, ys);
    _mm512_storeu_si512(p[j].sum4, _mm512_dpbusd_epi32(_mm512_setzero_si512(), _mm512_set1_epi8(1), ys));
    const __m256 da = _mm256_set1_ps(h2f(a.d)), db = _mm256_set1_ps(h2f(b.d));
    _mm512_storeu_ps(p[j].d, _mm512_castpd_ps(_mm512_insertf64x4(_mm512_castpd256_pd512(_mm256_castps_pd(da)),
                                                                  _mm256_castps_pd(db), 1)));
  }
}

// The nibbles of two 4-bit blocks unpacked together: the 128-bit lanes [a.qs, a.qs, b.qs, b.qs], the odd lanes
// shifted down by 4, then masked: low nibbles are elements 0..15 and high nibbles 16..31 of each block.
inline __m512i pairNibbles(const uint8_t* qa, const uint8_t* qb) {
  const __m512i v = _mm512_castsi256_si512(_mm256_loadu2_m128i(reinterpret_cast<const __m128i*>(qb),
                                                               reinterpret_cast<const __m128i*>(qa)));
  const __m512i lanes = _mm512_shuffle_i64x2(v, v, _MM_SHUFFLE(1, 1, 0, 0));
  constexpr int k4 = 0x00040004;  // two 16-bit shift counts of 4
  const __m512i shift = _mm512_set_epi32(k4, k4, k4, k4, 0, 0, 0, 0, k4, k4, k4, k4, 0, 0, 0, 0);  // lanes 1 and 3
  return _mm512_and_si512(_mm512_srlv_epi16(lanes, shift), _mm512_set1_epi8(0x0F));
}

// Unsigned levels of two rows' blocks in one vector: row a's 32 elements, then row b's.
inline __m512i unsignedPair(const BlockQ8_0& a, const BlockQ8_0& b) {
  return _mm512_xor_si512(join(load(a.qs), load(b.qs)), _mm512_set1_epi8(static_cast<char>(0x80)));
}
inline __m512i unsignedPair(const BlockQ4_0& a, const BlockQ4_0& b) { return pairNibbles(a.qs, b.qs); }
inline __m512i unsignedPair(const BlockQ5_0& a, const BlockQ5_0& b) {
  uint32_t ha, hb;
  std::memcpy(&ha, a.qh, sizeof ha);
  std::memcpy(&hb, b.qh, sizeof hb);
  const __mmask64 fifth = static_cast<__mmask64>(ha) | (static_cast<__mmask64>(hb) << 32);
  return _mm512_or_si512(pairNibbles(a.qs, b.qs), _mm512_maskz_mov_epi8(fifth, _mm512_set1_epi8(0x10)));
}
// log2 of the offset o of each type's unsigned levels (w + o): Q4_0 8, Q5_0 16, Q8_0 128.
template <typename Block> constexpr int kOffsetShift = 7;
template <> constexpr int kOffsetShift<BlockQ4_0> = 3;
template <> constexpr int kOffsetShift<BlockQ5_0> = 4;

constexpr int32_t kMagicBits = 0x4B400000;  // the float 2^23·1.5
constexpr float kMagic = 12582912.0f;

// Weight blocks 2j and 2j+1 of one row. Each lane ends as 2^23·1.5 + Σ w·y; |Σ w·y| ≤ 4·128·127 < 2^22, so
// those bits read as a float are exactly 2^23·1.5 + Σ w·y, and fma(bits, d, −2^23·1.5·d) (exact: d has 11
// significant bits) gives round(d·Σ w·y) with no int→float conversion.
struct WeightPair {
  __m512i lu;     // unsigned levels w + o
  __m512 d;       // the two blocks' scales, ×8 each
  __m512 magicD;  // −2^23·1.5·d

  template <typename Block>
  WeightPair(const Block& a, const Block& b) : lu(unsignedPair(a, b)) {
    const __m256i h = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_set1_epi16(static_cast<short>(a.d))),
                                              _mm_set1_epi16(static_cast<short>(b.d)), 1);
    d = _mm512_cvtph_ps(h);
    magicD = _mm512_mul_ps(d, _mm512_set1_ps(-kMagic));
  }
  void dot(const PackedPair& y, __m512i start, __m512 yd, __m512& acc) const {
    const __m512i s = _mm512_dpbusd_epi32(start, lu, _mm512_loadu_si512(y.ys));
    acc = _mm512_fmadd_ps(_mm512_fmadd_ps(_mm512_castsi512_ps(s), d, magicD), yd, acc);
  }
};

// R weight rows (any R rows: decode passes one per stream) against the packed activation row. Every row gets the
// same arithmetic whatever R is, so a result does not depend on how rows are shared out between threads.
template <typename Block, int R>
void pairTile(const MatTile& t, const size_t* rows) {
  const size_t pairs = t.k / 64;
  const Block* w[R];
  for (int k = 0; k < R; ++k) w[k] = reinterpret_cast<const Block*>(t.w + rows[k] * t.wRowBytes);
  const auto* y = reinterpret_cast<const PackedPair*>(t.xp);
  __m512 acc[R];
  for (auto& a : acc) a = _mm512_setzero_ps();
  const __m512i magic = _mm512_set1_epi32(kMagicBits);
  for (size_t j = 0; j < pairs; ++j) {
    // Decode streams each weight byte once: prefetch every stream a fixed distance ahead.
#pragma GCC unroll 4
    for (int k = 0; k < R; ++k) {
      _mm_prefetch(reinterpret_cast<const char*>(w[k] + 2 * j) + kDecodePrefetchBytes, _MM_HINT_T0);
    }
    const __m512i start =
        _mm512_sub_epi32(magic, _mm512_slli_epi32(_mm512_loadu_si512(y[j].sum4), kOffsetShift<Block>));
    const __m512 yd = _mm512_loadu_ps(y[j].d);
#pragma GCC unroll 4
    for (int k = 0; k < R; ++k) WeightPair(w[k][2 * j], w[k][2 * j + 1]).dot(y[j], start, yd, acc[k]);
  }
  for (int k = 0; k < R; ++k) t.y[rows[k]] = _mm512_reduce_add_ps(acc[k]);
}

// ---- Prefill: 16 weight rows per vector, activations broadcast ----
// The pair tile above spends a copy and two FMAs on every vpdpbusd, and port 0 runs both vpdpbusd and half the
// FMAs. Here each int32 lane is a different weight row: per 16 rows and 32 elements, the rows' levels are
// transposed once into eight vectors of 4 bytes × 16 rows (unsigned: + 128, or the nibbles as stored), and every
// activation block then costs eight vpdpbusd with its 4-byte groups broadcast from memory, one start load and two
// FMAs, so vpdpbusd is most of what port 0 runs. The transposition is paid once per 16 rows, block and chunk of
// activations. Packed activation block (64 bytes): its Q8_0 levels, scale, and the vpdpbusd start values for
// each weight type's level offset, so a lane ends as 2^23·1.5 + Σ y·w (see WeightPair for why that is exact).
struct PrefillBlock {
  int8_t qs[32];
  float d;
  float negMagicD;   // −2^23·1.5·d
  int32_t start[3];  // 2^23·1.5 − o·Σqs for o = 8 (Q4_0), 16 (Q5_0), 128 (Q8_0)
  int32_t pad[3];
};
static_assert(sizeof(PrefillBlock) == 64);

// Row `row` of m, stored block-major (block b of every activation, then block b + 1): the tile reads one block
// of consecutive activations after another. Row-major, activations 2k bytes apart all fell in the same L1 sets.
void packPrefillRow(const std::byte* q8Row, size_t k, size_t m, size_t row, std::byte* xp) {
  const auto* y = reinterpret_cast<const BlockQ8_0*>(q8Row);
  auto* p = reinterpret_cast<PrefillBlock*>(xp) + row;
  for (size_t b = 0; b < k / 32; ++b, p += m) {
    const __m256i q = load(y[b].qs);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(p->qs), q);
    // Σqs: the levels against ones, as vpdpbusd would see them.
    const __m256i s8 = _mm256_dpbusd_epi32(_mm256_setzero_si256(), _mm256_set1_epi8(1), q);
    const __m128i s4 = _mm_add_epi32(_mm256_castsi256_si128(s8), _mm256_extracti128_si256(s8, 1));
    const __m128i s2 = _mm_add_epi32(s4, _mm_unpackhi_epi64(s4, s4));
    const int32_t sum = _mm_cvtsi128_si32(_mm_add_epi32(s2, _mm_shuffle_epi32(s2, 1)));
    p->d = h2f(y[b].d);
    p->negMagicD = -kMagic * p->d;
    p->start[0] = kMagicBits - 8 * sum;
    p->start[1] = kMagicBits - 16 * sum;
    p->start[2] = kMagicBits - 128 * sum;
    p->pad[0] = p->pad[1] = p->pad[2] = 0;
  }
}

template <typename Block> constexpr int kStartIndex = 2;  // Q8_0: + 128
template <> constexpr int kStartIndex<BlockQ4_0> = 0;
template <> constexpr int kStartIndex<BlockQ5_0> = 1;

// w[g], lane r: elements 4g..4g+3 of row r (16 rows × 8 four-byte groups transposed: 24 shuffles), from vectors
// that each hold two rows' 32 levels: rows (0,4) (1,5) (2,6) (3,7) (8,12) ... so that the lanes come out in row
// order.
inline void transposePairs(const __m512i z[8], __m512i w[8]) {
  __m512i x[4], y[4];
  for (int h = 0; h < 2; ++h) {
    const __m512i* zz = z + 4 * h;
    const __m512i a = _mm512_unpacklo_epi32(zz[0], zz[1]), bb = _mm512_unpackhi_epi32(zz[0], zz[1]);
    const __m512i c = _mm512_unpacklo_epi32(zz[2], zz[3]), d = _mm512_unpackhi_epi32(zz[2], zz[3]);
    __m512i* o = h == 0 ? x : y;
    o[0] = _mm512_unpacklo_epi64(a, c);   // groups 0 and 4
    o[1] = _mm512_unpackhi_epi64(a, c);   // 1 and 5
    o[2] = _mm512_unpacklo_epi64(bb, d);  // 2 and 6
    o[3] = _mm512_unpackhi_epi64(bb, d);  // 3 and 7
  }
  for (int g = 0; g < 4; ++g) {
    w[g] = _mm512_shuffle_i64x2(x[g], y[g], _MM_SHUFFLE(2, 0, 2, 0));
    w[g + 4] = _mm512_shuffle_i64x2(x[g], y[g], _MM_SHUFFLE(3, 1, 3, 1));
  }
}

// The unsigned levels of block b of 16 rows, transposed.
template <typename Block>
inline void transposeRows(const Block* const* rows, size_t b, __m512i w[8]) {
  __m512i z[8];
  for (int p = 0; p < 8; ++p) {
    const int a = p < 4 ? p : p + 4;
    z[p] = unsignedPair(rows[a][b], rows[a + 4][b]);
  }
  transposePairs(z, w);
}

// Activations whose vpdpbusd chains are interleaved (1 → 4: 135M pp128 alternated medians Q4_0 1079 → 1207,
// Q8_0 1397 → 1498, 360M Q8_0 463 → 515 tok/s).
constexpr int kPrefillJam = 4;
constexpr size_t kPrefillChunk = 128;  // activations per pass over a row group's weights (8–16 KiB of sums on the stack)

// G × 16 rows [r0, r0 + rows) against every activation. With G = 2 each broadcast activation group feeds two
// vpdpbusd and the start, scale and loop costs are shared: the activation loop measured 1.7 → 2.2–2.5 G vpdpbusd/s
// (L1-resident microbenchmark). Every (row, activation) pair gets the same arithmetic whatever G is.
template <typename Block, int G>
void prefillRows(const MatTile& t, size_t r0, size_t rows) {
  constexpr int R = 16 * G;
  const size_t nb = t.k / 32, m = t.m;
  const auto* xp = reinterpret_cast<const PrefillBlock*>(t.xp);
  alignas(64) float acc[kPrefillChunk][R];  // the chunk's sums, written to Y once per row group
  // A short group repeats its last row (reads stay inside the matrix) and stores only its own lanes: the other
  // rows belong to another thread.
  const Block* rp[R];
  alignas(64) int32_t off[R];
  __mmask16 mask[G];
  for (int i = 0; i < R; ++i) {
    const size_t r = static_cast<size_t>(i) < rows ? static_cast<size_t>(i) : rows - 1;
    rp[i] = reinterpret_cast<const Block*>(t.w + (r0 + r) * t.wRowBytes);
    off[i] = static_cast<int32_t>(r * t.wRowBytes);
  }
  __m512i rowOff[G];
  for (int k = 0; k < G; ++k) {
    const size_t lo = 16 * static_cast<size_t>(k), here = rows > lo ? rows - lo : 0;
    mask[k] = here >= 16 ? static_cast<__mmask16>(0xFFFF) : static_cast<__mmask16>((1u << here) - 1);
    rowOff[k] = _mm512_load_si512(off + 16 * k);
  }
  const std::byte* base = t.w + r0 * t.wRowBytes;
  for (size_t c0 = 0; c0 < m; c0 += kPrefillChunk) {
    const size_t n = m - c0 < kPrefillChunk ? m - c0 : kPrefillChunk;  // no <algorithm>: see kernels.h
    for (size_t b = 0; b < nb; ++b) {
      __m512i w[G][8];
      __m512 dw[G];
      for (int k = 0; k < G; ++k) {
        transposeRows(rp + 16 * k, b, w[k]);
        // The rows' scales: the f16 at the start of each block (the gather reads 4 bytes, inside the block).
        const __m512i dh = _mm512_i32gather_epi32(rowOff[k], base + b * sizeof(Block), 1);
        dw[k] = _mm512_cvtph_ps(_mm512_cvtepi32_epi16(dh));
      }
      const PrefillBlock* yb = xp + b * m + c0;
      const bool first = b == 0;
      // U activations at a time, their chains interleaved: each vpdpbusd depends on one issued 2·U earlier, so
      // its latency is hidden in program order instead of by the out-of-order window.
      const auto step = [&](size_t c, auto u) {
        constexpr int U = decltype(u)::value;
        __m512i s[U][G];
        for (int a = 0; a < U; ++a) {
          const __m512i start = _mm512_set1_epi32(yb[c + a].start[kStartIndex<Block>]);
          for (int k = 0; k < G; ++k) s[a][k] = start;
        }
        for (int g = 0; g < 8; ++g) {
          for (int a = 0; a < U; ++a) {
            int32_t q;
            std::memcpy(&q, yb[c + a].qs + 4 * g, sizeof q);
            const __m512i yq = _mm512_set1_epi32(q);
            for (int k = 0; k < G; ++k) s[a][k] = _mm512_dpbusd_epi32(s[a][k], w[k][g], yq);
          }
        }
        for (int a = 0; a < U; ++a) {
          const __m512 d = _mm512_set1_ps(yb[c + a].d), negMagicD = _mm512_set1_ps(yb[c + a].negMagicD);
          for (int k = 0; k < G; ++k) {
            const __m512 v = _mm512_fmadd_ps(_mm512_castsi512_ps(s[a][k]), d, negMagicD);
            const __m512 prev = first ? _mm512_setzero_ps() : _mm512_load_ps(acc[c + a] + 16 * k);
            _mm512_store_ps(acc[c + a] + 16 * k, _mm512_fmadd_ps(v, dw[k], prev));
          }
        }
      };
      size_t c = 0;
      for (; c + kPrefillJam <= n; c += kPrefillJam) step(c, std::integral_constant<int, kPrefillJam>{});
      for (; c < n; ++c) step(c, std::integral_constant<int, 1>{});
    }
    for (size_t c = 0; c < n; ++c) {
      for (int k = 0; k < G; ++k) {
        _mm512_mask_storeu_ps(t.y + (c0 + c) * t.yStride + r0 + 16 * k, mask[k], _mm512_load_ps(acc[c] + 16 * k));
      }
    }
  }
}

template <typename Block>
void prefillTile(const MatTile& t) {
  size_t r0 = t.n0;
  for (; r0 + 32 <= t.n1; r0 += 32) prefillRows<Block, 2>(t, r0, 32);
  for (; r0 < t.n1; r0 += 16) prefillRows<Block, 1>(t, r0, t.n1 - r0 < 16 ? t.n1 - r0 : 16);
}

// Decode: 4 rows (one per stream) at a time on the pair tile; prefill on the broadcast tile. Q8_0 decode had kept
// gemv4 (256-bit, no packing) while decode was bound by one stream per thread; with four streams the pair tile
// measured 126.8 -> 144.3 tok/s (135M Q8_0 tg64, alternated medians).
template <typename Block>
void tileLoopPacked(const MatTile& t) {
  if (t.m > 1) {
    prefillTile<Block>(t);
    return;
  }
  decodeStreams(
      t.n0, t.n1, [&](const RowQuad& q) { pairTile<Block, 4>(t, q.r); }, [&](size_t r) { pairTile<Block, 1>(t, &r); });
}

// ---- K-quants (256-element super-blocks, Q8_K activations) ----

inline __m512i load512(const void* p) { return _mm512_loadu_si512(p); }


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

// One Q4_K / Q5_K super-block of a weight row, unpacked once for every activation block of a tile.
template <bool kFive>
struct UnpackedK45 {
  __m512i q[4];   // levels (0..31) of elements 64j..64j+63: sub-block 2j in the low half, 2j+1 in the high
  __m512i sc[4];  // s16 scale pairs: sub-block 2j's scale in the low 256 bits, 2j+1's in the high
  __m256i mins;   // the eight mins as s16, each twice (the two 16-element bsums of its sub-block)
  float d, dmin;

  template <typename Block>
  explicit UnpackedK45(const Block& b) {
    const __m128i sm = scalesMins(b.scales);
    const __m512i s32 = _mm512_cvtepu8_epi32(sm);
    const __m512i pairs = _mm512_or_si512(s32, _mm512_slli_epi32(s32, 16));  // scale in both s16 halves
    const __m512i low4 = _mm512_set1_epi8(0x0F);
    [[maybe_unused]] __m512i hbits;
    if constexpr (kFive) {
      const __m256i h = load(b.qh);
      hbits = join(h, h);
    }
    for (int j = 0; j < 4; ++j) {
      sc[j] = _mm512_permutexvar_epi32(join(_mm256_set1_epi32(2 * j), _mm256_set1_epi32(2 * j + 1)), pairs);
      const __m256i q4 = load(b.qs + 32 * j);
      q[j] = _mm512_and_si512(join(q4, _mm256_srli_epi16(q4, 4)), low4);
      if constexpr (kFive) {  // bit 2j of qh[l]: fifth bit of element l; bit 2j+1: of element l+32
        const __m512i bit = join(_mm256_set1_epi8(static_cast<char>(1 << (2 * j))),
                                 _mm256_set1_epi8(static_cast<char>(1 << (2 * j + 1))));
        q[j] = _mm512_or_si512(q[j], _mm512_maskz_mov_epi8(_mm512_test_epi8_mask(hbits, bit), _mm512_set1_epi8(0x10)));
      }
    }
    mins = _mm256_cvtepu8_epi16(_mm_unpackhi_epi8(sm, sm));
    d = h2f(b.d);
    dmin = h2f(b.dmin);
  }

  // acc += y.d·d · Σ scale·q·y − y.d·dmin · Σ min·bsum, lane-wise (the min term in lanes 0..7). The integer sums
  // are exact (|pair| ≤ 2·31·127 fits s16), so only the float accumulation order differs from the reference.
  void dot(const BlockQ8_K& y, __m512& acc) const {
    __m512i sumi = _mm512_setzero_si512();
    for (int j = 0; j < 4; ++j) {
      sumi = _mm512_dpwssd_epi32(sumi, _mm512_maddubs_epi16(q[j], load512(y.qs + 64 * j)), sc[j]);
    }
    const __m256i m = _mm256_madd_epi16(mins, load(y.bsums));
    acc = _mm512_fmadd_ps(_mm512_set1_ps(y.d * d), _mm512_cvtepi32_ps(sumi), acc);
    acc = _mm512_fnmadd_ps(_mm512_set1_ps(y.d * dmin), _mm512_cvtepi32_ps(_mm512_zextsi256_si512(m)), acc);
  }
};

// ---- Q4_K decode: the nibbles straight into vpdpbusd ----
// Per 64 elements (sub-blocks 2j and 2j + 1) one vpdpbusd of the 64 unsigned levels against the activation's 64:
// lane l holds the exact sum of 4 products, lanes 0..7 from sub-block 2j and 8..15 from 2j + 1, so one
// conversion and one FMA with each lane's d·sc·y.d finish it; the min term is the mins against the activation's
// 16-element sums (madd) times dmin·y.d. The maddubs + dpwssd dot of UnpackedK45, with its scalar scale unpacking,
// ran about 110 instructions per row and super-block and held decode to 70 % of the streaming-read rate.

// scalesMins with vector operations: the 8 scales, then the 8 mins, as bytes. Reads 16 bytes (the 12 scale bytes
// and 4 of qs, inside the block).
inline __m128i scalesMinsVec(const uint8_t* packed) {
  const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(packed));  // u0 u1 u2 .
  const __m128i low6 = _mm_and_si128(v, _mm_set1_epi32(0x3f3f3f3f));           // scales 0..3, mins 0..3
  const __m128i top2 = _mm_slli_epi32(_mm_and_si128(_mm_srli_epi32(v, 6), _mm_set1_epi32(0x03030303)), 4);
  const __m128i u2 = _mm_srlv_epi32(_mm_shuffle_epi32(v, _MM_SHUFFLE(2, 2, 2, 2)), _mm_set_epi32(0, 0, 4, 0));
  const __m128i high = _mm_or_si128(_mm_and_si128(u2, _mm_set1_epi32(0x0f0f0f0f)), top2);  // scales 4..7, mins 4..7
  return _mm_unpacklo_epi32(low6, high);
}

// R rows (decode passes one per stream) against the Q8_K activation row.
template <int R>
void decodeQ4K(const MatTile& t, const size_t* rows) {
  const size_t nb = t.k / kQkK;
  const BlockQ4_K* w[R];
  for (int k = 0; k < R; ++k) w[k] = reinterpret_cast<const BlockQ4_K*>(t.w + rows[k] * t.wRowBytes);
  const auto* y = reinterpret_cast<const BlockQ8_K*>(t.xq);
  __m512 acc[R];
  for (auto& a : acc) a = _mm512_setzero_ps();
  const __m512i shift = _mm512_inserti64x4(_mm512_setzero_si512(), _mm256_set1_epi16(4), 1);  // high nibbles above
  const __m512i low4 = _mm512_set1_epi8(0x0F);
  __m512i lanesOf[4];  // sub-block 2j's scale into lanes 0..7, 2j + 1's into 8..15
  for (int j = 0; j < 4; ++j) lanesOf[j] = join(_mm256_set1_epi32(2 * j), _mm256_set1_epi32(2 * j + 1));
  for (size_t b = 0; b < nb; ++b) {
#pragma GCC unroll 4
    for (int k = 0; k < R; ++k) prefetchSpan(reinterpret_cast<const std::byte*>(w[k] + b) + kDecodePrefetchBytes, sizeof(BlockQ4_K));
    const BlockQ8_K& yb = y[b];
    const __m256i bsums = load(yb.bsums);
#pragma GCC unroll 4
    for (int k = 0; k < R; ++k) {
      const BlockQ4_K& blk = w[k][b];
      const __m128i sm = scalesMinsVec(blk.scales);
      uint32_t dd;
      std::memcpy(&dd, &blk.d, sizeof dd);  // d, dmin
      const __m128 dy = _mm_mul_ps(_mm_cvtph_ps(_mm_cvtsi32_si128(static_cast<int>(dd))), _mm_set1_ps(yb.d));
      const __m512 dsc = _mm512_mul_ps(_mm512_cvtepi32_ps(_mm512_cvtepu8_epi32(sm)), _mm512_broadcastss_ps(dy));
      const __m256i mins = _mm256_cvtepu8_epi16(_mm_unpackhi_epi8(sm, sm));  // each min twice: its two bsums
      const __m512 minSum = _mm512_cvtepi32_ps(_mm512_zextsi256_si512(_mm256_madd_epi16(mins, bsums)));
      acc[k] = _mm512_fnmadd_ps(_mm512_broadcastss_ps(_mm_movehdup_ps(dy)), minSum, acc[k]);
      for (int j = 0; j < 4; ++j) {
        const __m512i q = _mm512_and_si512(_mm512_srlv_epi16(_mm512_broadcast_i64x4(load(blk.qs + 32 * j)), shift), low4);
        const __m512i s = _mm512_dpbusd_epi32(_mm512_setzero_si512(), q, load512(yb.qs + 64 * j));
        acc[k] = _mm512_fmadd_ps(_mm512_cvtepi32_ps(s), _mm512_permutexvar_ps(lanesOf[j], dsc), acc[k]);
      }
    }
  }
  for (int k = 0; k < R; ++k) t.y[rows[k]] = _mm512_reduce_add_ps(acc[k]);
}

// ---- Q4_K prefill: 16 weight rows per vector, activations broadcast (as prefillRows) ----
// Per row, super-block and sub-block s: Σ w·y = d·sc_s·Σ q·y − dmin·m_s·Σ y, with q unsigned (0..15), so the
// nibbles go into vpdpbusd as they are. Each 64-element chunk's two sub-blocks are transposed once per 16 rows
// (lanes = rows); every activation then costs 16 vpdpbusd, started from 2^23·1.5 so that one FMA with d·sc
// (17 significant bits) gives round(d·sc·Σ q·y) without a conversion (see WeightPair), and FMAs with the
// activation's scale and its sub-block sums for the min term. The tile it replaces (maddubs + dpwssd per row and
// activation) ran at a quarter of this rate.
struct PrefillSuper {  // one Q8_K activation super-block rewritten for the tiles (384 bytes)
  int8_t qs[256];
  float d;
  float sums[8];        // Q4_K: d · Σ qs of each 32-element sub-block (the bsums pairs)
  int32_t start16[16];  // Q6_K: 2^23·1.5 − 32·Σ qs of each 16-element group
  int32_t pad[7];
};
static_assert(sizeof(PrefillSuper) == 384);

// Row `row` of m, block-major like packPrefillRow.
void packPrefillKRow(const std::byte* q8kRow, size_t k, size_t m, size_t row, std::byte* xp) {
  const auto* y = reinterpret_cast<const BlockQ8_K*>(q8kRow);
  auto* p = reinterpret_cast<PrefillSuper*>(xp) + row;
  for (size_t b = 0; b < k / kQkK; ++b, p += m) {
    std::memcpy(p->qs, y[b].qs, sizeof p->qs);
    p->d = y[b].d;
    for (int s = 0; s < 8; ++s) {
      p->sums[s] = static_cast<float>(y[b].bsums[2 * s] + y[b].bsums[2 * s + 1]) * y[b].d;
    }
    for (int g = 0; g < 16; ++g) p->start16[g] = kMagicBits - 32 * y[b].bsums[g];
    for (int32_t& v : p->pad) v = 0;
  }
}

// Two rows' 64-element chunk j: their nibbles as unsigned levels, low (sub-block 2j) and high (2j + 1).
inline void chunkPair(const BlockQ4_K& a, const BlockQ4_K& b, int j, __m512i& lo, __m512i& hi) {
  const __m512i v = join(load(a.qs + 32 * j), load(b.qs + 32 * j));
  const __m512i low4 = _mm512_set1_epi8(0x0F);
  lo = _mm512_and_si512(v, low4);
  hi = _mm512_and_si512(_mm512_srli_epi16(v, 4), low4);
}

// Bytes [off, off + 4) of super-block b of 16 rows, one row per lane (rowOff: each row's offset from base).
inline __m512i gatherRows(__m512i rowOff, const std::byte* base, size_t b, size_t blockBytes, int off) {
  return _mm512_i32gather_epi32(rowOff, base + b * blockBytes + off, 1);
}

// Byte t of every lane, as float.
inline __m512 byteLanes(__m512i v, int t) {
  return _mm512_cvtepi32_ps(_mm512_and_si512(_mm512_srli_epi32(v, 8 * t), _mm512_set1_epi32(0xFF)));
}

// Row offsets of a 16-row group from its first row; a short group repeats its last row (reads stay inside the
// matrix).
inline __m512i groupRowOffsets(const MatTile& t, size_t rows) {
  alignas(64) int32_t off[16];
  for (size_t i = 0; i < 16; ++i) off[i] = static_cast<int32_t>((i < rows ? i : rows - 1) * t.wRowBytes);
  return _mm512_load_si512(off);
}

// G × 16 rows [r0, r0 + rows): each broadcast activation group feeds G vpdpbusd (as prefillRows). A 64-element
// chunk's low and high sub-blocks go in two passes over the activations, so a pass holds 8·G weight vectors.
template <int G>
void prefillRowsQ4K(const MatTile& t, size_t r0, size_t rows) {
  constexpr int R = 16 * G;
  const size_t nb = t.k / kQkK, m = t.m;
  const auto* xp = reinterpret_cast<const PrefillSuper*>(t.xp);
  alignas(64) float acc[kPrefillChunk][R];
  alignas(64) float dsc[8][R], nmag[8][R], dm[8][R];  // per sub-block and row: d·sc, −2^23·1.5·d·sc, dmin·m
  const BlockQ4_K* rp[R];
  for (size_t i = 0; i < R; ++i) {
    rp[i] = reinterpret_cast<const BlockQ4_K*>(t.w + (r0 + (i < rows ? i : rows - 1)) * t.wRowBytes);
  }
  __m512i rowOff[G];
  __mmask16 mask[G];
  for (int k = 0; k < G; ++k) {
    const size_t lo = 16 * static_cast<size_t>(k), here = rows > lo ? rows - lo : 0;
    mask[k] = here >= 16 ? static_cast<__mmask16>(0xFFFF) : static_cast<__mmask16>((1u << here) - 1);
    // A group past the last row repeats it (its lanes are never stored).
    rowOff[k] = here == 0 ? _mm512_set1_epi32(static_cast<int32_t>((rows - 1) * t.wRowBytes))
                          : _mm512_add_epi32(groupRowOffsets(t, here), _mm512_set1_epi32(static_cast<int32_t>(lo * t.wRowBytes)));
  }
  const std::byte* base = t.w + r0 * t.wRowBytes;
  const __m512i magic = _mm512_set1_epi32(kMagicBits);
  for (size_t c0 = 0; c0 < m; c0 += kPrefillChunk) {
    const size_t n = m - c0 < kPrefillChunk ? m - c0 : kPrefillChunk;  // no <algorithm>: see kernels.h
    for (size_t c = 0; c < n; ++c) {
      for (int k = 0; k < G; ++k) _mm512_store_ps(acc[c] + 16 * k, _mm512_setzero_ps());
    }
    for (size_t b = 0; b < nb; ++b) {
      // The rows' scales and mins, one row per lane: scalesMins' bit unpacking on gathered words (the per-row
      // scalar version was a third of this tile's time at m = 64).
      for (int k = 0; k < G; ++k) {
        const __m512i dd = gatherRows(rowOff[k], base, b, sizeof(BlockQ4_K), 0);  // d | dmin << 16
        const __m512 d = _mm512_cvtph_ps(_mm512_cvtepi32_epi16(dd));
        const __m512 dmin = _mm512_cvtph_ps(_mm512_cvtepi32_epi16(_mm512_srli_epi32(dd, 16)));
        const __m512i u0 = gatherRows(rowOff[k], base, b, sizeof(BlockQ4_K), 4);
        const __m512i u1 = gatherRows(rowOff[k], base, b, sizeof(BlockQ4_K), 8);
        const __m512i u2 = gatherRows(rowOff[k], base, b, sizeof(BlockQ4_K), 12);
        const __m512i low6 = _mm512_set1_epi32(0x3f3f3f3f), low4 = _mm512_set1_epi32(0x0f0f0f0f);
        const __m512i top2 = _mm512_set1_epi32(0x03030303);
        const __m512i words[4] = {
            _mm512_and_si512(u0, low6),  // scales 0..3
            _mm512_or_si512(_mm512_and_si512(u2, low4),
                            _mm512_slli_epi32(_mm512_and_si512(_mm512_srli_epi32(u0, 6), top2), 4)),  // scales 4..7
            _mm512_and_si512(u1, low6),  // mins 0..3
            _mm512_or_si512(_mm512_and_si512(_mm512_srli_epi32(u2, 4), low4),
                            _mm512_slli_epi32(_mm512_and_si512(_mm512_srli_epi32(u1, 6), top2), 4)),  // mins 4..7
        };
        for (int sb = 0; sb < 8; ++sb) {
          const __m512 sc = _mm512_mul_ps(d, byteLanes(words[sb / 4], sb % 4));  // exact: 11 × 6 significant bits
          _mm512_store_ps(dsc[sb] + 16 * k, sc);
          _mm512_store_ps(nmag[sb] + 16 * k, _mm512_mul_ps(_mm512_set1_ps(-kMagic), sc));  // exact: 2 more
          _mm512_store_ps(dm[sb] + 16 * k, _mm512_mul_ps(dmin, byteLanes(words[2 + sb / 4], sb % 4)));
        }
      }
      const PrefillSuper* yb = xp + b * m + c0;
      for (int j = 0; j < 4; ++j) {  // 64-element chunks: sub-blocks 2j and 2j + 1
        alignas(64) __m512i wv[2][G][8];  // [low/high sub-block][group]: transposed once, read by both passes
        for (int k = 0; k < G; ++k) {
          __m512i zl[8], zh[8];
          const BlockQ4_K* const* g = rp + 16 * k;
          for (int p = 0; p < 4; ++p) {
            chunkPair(*(g[p] + b), *(g[p + 4] + b), j, zl[p], zh[p]);
            chunkPair(*(g[8 + p] + b), *(g[12 + p] + b), j, zl[4 + p], zh[4 + p]);
          }
          transposePairs(zl, wv[0][k]);
          transposePairs(zh, wv[1][k]);
        }
        for (int half = 0; half < 2; ++half) {
          const int sb = 2 * j + half;
          __m512i w[G][8];
          __m512 ds[G], nm[G], mn[G];
          for (int k = 0; k < G; ++k) {
            for (int g = 0; g < 8; ++g) w[k][g] = wv[half][k][g];
            ds[k] = _mm512_load_ps(dsc[sb] + 16 * k);
            nm[k] = _mm512_load_ps(nmag[sb] + 16 * k);
            mn[k] = _mm512_load_ps(dm[sb] + 16 * k);
          }
          for (size_t c = 0; c < n; ++c) {
            const PrefillSuper& y = yb[c];
            const int8_t* q = y.qs + 32 * sb;
            __m512i sum[G];
            for (int k = 0; k < G; ++k) sum[k] = magic;
            for (int g = 0; g < 8; ++g) {
              int32_t a;
              std::memcpy(&a, q + 4 * g, sizeof a);
              const __m512i yq = _mm512_set1_epi32(a);
              for (int k = 0; k < G; ++k) sum[k] = _mm512_dpbusd_epi32(sum[k], w[k][g], yq);
            }
            const __m512 yd = _mm512_set1_ps(y.d), ys = _mm512_set1_ps(y.sums[sb]);
            for (int k = 0; k < G; ++k) {
              __m512 r = _mm512_load_ps(acc[c] + 16 * k);
              r = _mm512_fmadd_ps(_mm512_fmadd_ps(_mm512_castsi512_ps(sum[k]), ds[k], nm[k]), yd, r);
              _mm512_store_ps(acc[c] + 16 * k, _mm512_fnmadd_ps(mn[k], ys, r));
            }
          }
        }
      }
    }
    for (size_t c = 0; c < n; ++c) {
      for (int k = 0; k < G; ++k) {
        _mm512_mask_storeu_ps(t.y + (c0 + c) * t.yStride + r0 + 16 * k, mask[k], _mm512_load_ps(acc[c] + 16 * k));
      }
    }
  }
}

// Q6_K: unsigned levels q (0..63) of 16 rows transposed per 32-element sub-block; each 16-element group (its own
// 8-bit scale) is a chain of four vpdpbusd started from 2^23·1.5 − 32·Σy, so the lane ends as 2^23·1.5 + Σ(q − 32)·y
// (|Σ| ≤ 16·32·128 < 2^22) and one FMA with d·sc (19 significant bits) gives round(d·sc·Σ(q − 32)·y).

// Unsigned levels of elements 64v..64v+63 of a Q6_K block (as UnpackedQ6K, before centring).
inline __m512i q6Levels(const BlockQ6_K& b, int v) {
  const int h = v / 2;
  const __m512i l = load512(b.ql + 64 * h);
  const __m256i hb = load(b.qh + 32 * h);
  const __m512i low4 = _mm512_set1_epi8(0x0F), two = _mm512_set1_epi8(3);
  if (v % 2 == 0) {
    const __m512i h01 = join(hb, _mm256_srli_epi16(hb, 2));
    return _mm512_or_si512(_mm512_and_si512(l, low4), _mm512_slli_epi16(_mm512_and_si512(h01, two), 4));
  }
  const __m512i h23 = join(_mm256_srli_epi16(hb, 4), _mm256_srli_epi16(hb, 6));
  return _mm512_or_si512(_mm512_and_si512(_mm512_srli_epi16(l, 4), low4), _mm512_slli_epi16(_mm512_and_si512(h23, two), 4));
}

void prefillRowsQ6K(const MatTile& t, size_t r0, size_t rows) {
  const size_t nb = t.k / kQkK, m = t.m;
  const auto* xp = reinterpret_cast<const PrefillSuper*>(t.xp);
  alignas(64) float acc[kPrefillChunk][16];
  alignas(64) float dsc[16][16], nmag[16][16];  // per 16-element group and row: d·sc, −2^23·1.5·d·sc
  const BlockQ6_K* rp[16];
  for (size_t i = 0; i < 16; ++i) {
    rp[i] = reinterpret_cast<const BlockQ6_K*>(t.w + (r0 + (i < rows ? i : rows - 1)) * t.wRowBytes);
  }
  const __m512i rowOff = groupRowOffsets(t, rows);
  const std::byte* base = t.w + r0 * t.wRowBytes;
  const __mmask16 mask = rows >= 16 ? static_cast<__mmask16>(0xFFFF) : static_cast<__mmask16>((1u << rows) - 1);
  constexpr int kScalesAt = static_cast<int>(offsetof(BlockQ6_K, scales));
  static_assert(offsetof(BlockQ6_K, d) == kScalesAt + 16, "d follows the scales");
  for (size_t c0 = 0; c0 < m; c0 += kPrefillChunk) {
    const size_t n = m - c0 < kPrefillChunk ? m - c0 : kPrefillChunk;  // no <algorithm>: see kernels.h
    for (size_t c = 0; c < n; ++c) _mm512_store_ps(acc[c], _mm512_setzero_ps());
    for (size_t b = 0; b < nb; ++b) {
      // The 16 rows' scales, one row per lane, from gathered words (d is read with the last two scales: a word
      // starting at d would pass the end of the block).
      {
        const __m512 d = _mm512_cvtph_ps(
            _mm512_cvtepi32_epi16(_mm512_srli_epi32(gatherRows(rowOff, base, b, sizeof(BlockQ6_K), kScalesAt + 14), 16)));
        for (int w = 0; w < 4; ++w) {
          const __m512i v = gatherRows(rowOff, base, b, sizeof(BlockQ6_K), kScalesAt + 4 * w);
          for (int q = 0; q < 4; ++q) {  // signed bytes: shift each to the top, then arithmetically down
            const __m512 sc = _mm512_cvtepi32_ps(_mm512_srai_epi32(_mm512_slli_epi32(v, 24 - 8 * q), 24));
            const __m512 ds = _mm512_mul_ps(d, sc);  // exact: 11 × 8 significant bits
            _mm512_store_ps(dsc[4 * w + q], ds);
            _mm512_store_ps(nmag[4 * w + q], _mm512_mul_ps(_mm512_set1_ps(-kMagic), ds));  // exact: 2 more
          }
        }
      }
      const PrefillSuper* yb = xp + b * m + c0;
      for (int v = 0; v < 4; ++v) {  // 64-element chunks: sub-blocks 2v (low half) and 2v + 1 (high half)
        __m512i zl[8], zh[8], w[2][8];
        for (int p = 0; p < 8; ++p) {
          const int a = p < 4 ? p : p + 4;  // pairs (0,4) (1,5) (2,6) (3,7) (8,12) ..
          const __m512i la = q6Levels(rp[a][b], v), lb = q6Levels(rp[a + 4][b], v);
          zl[p] = _mm512_shuffle_i64x2(la, lb, _MM_SHUFFLE(1, 0, 1, 0));
          zh[p] = _mm512_shuffle_i64x2(la, lb, _MM_SHUFFLE(3, 2, 3, 2));
        }
        transposePairs(zl, w[0]);
        transposePairs(zh, w[1]);
        for (int half = 0; half < 2; ++half) {
          const int sb = 2 * v + half, g0 = 2 * sb;  // sub-block and its first 16-element group
          const __m512 d0 = _mm512_load_ps(dsc[g0]), d1 = _mm512_load_ps(dsc[g0 + 1]);
          const __m512 n0 = _mm512_load_ps(nmag[g0]), n1 = _mm512_load_ps(nmag[g0 + 1]);
          const __m512i* ww = w[half];
          for (size_t c = 0; c < n; ++c) {
            const PrefillSuper& y = yb[c];
            const int8_t* q = y.qs + 32 * sb;
            __m512i s0 = _mm512_set1_epi32(y.start16[g0]), s1 = _mm512_set1_epi32(y.start16[g0 + 1]);
            for (int g = 0; g < 4; ++g) {
              int32_t a, bq;
              std::memcpy(&a, q + 4 * g, sizeof a);
              std::memcpy(&bq, q + 16 + 4 * g, sizeof bq);
              s0 = _mm512_dpbusd_epi32(s0, ww[g], _mm512_set1_epi32(a));
              s1 = _mm512_dpbusd_epi32(s1, ww[4 + g], _mm512_set1_epi32(bq));
            }
            const __m512 yd = _mm512_set1_ps(y.d);
            __m512 r = _mm512_load_ps(acc[c]);
            r = _mm512_fmadd_ps(_mm512_fmadd_ps(_mm512_castsi512_ps(s0), d0, n0), yd, r);
            r = _mm512_fmadd_ps(_mm512_fmadd_ps(_mm512_castsi512_ps(s1), d1, n1), yd, r);
            _mm512_store_ps(acc[c], r);
          }
        }
      }
    }
    for (size_t c = 0; c < n; ++c) _mm512_mask_storeu_ps(t.y + (c0 + c) * t.yStride + r0, mask, _mm512_load_ps(acc[c]));
  }
}

// Q6_K decode, as decodeQ4K: per 64 elements one vpdpbusd of the unsigned levels q (0..63) against the
// activation's, started from −32·Σ of the lane's 4 activations (computed once per super-block for every row), so
// lane l ends as the exact Σ (q − 32)·y of 4 elements of 16-element group 4v + l/4; one conversion and one FMA
// with that group's d·sc·y.d finish it. (Subtracting 32·Σy after scaling instead cancels large sums: it missed
// the exact dot of ggml's vectors by 1.4e-6 relative.)
template <int R>
void decodeQ6K(const MatTile& t, const size_t* rows) {
  const size_t nb = t.k / kQkK;
  const BlockQ6_K* w[R];
  for (int k = 0; k < R; ++k) w[k] = reinterpret_cast<const BlockQ6_K*>(t.w + rows[k] * t.wRowBytes);
  const auto* y = reinterpret_cast<const BlockQ8_K*>(t.xq);
  __m512 acc[R];
  for (auto& a : acc) a = _mm512_setzero_ps();
  __m512i groupOf[4];  // lane l of vector v: group 4v + l/4
  for (int v = 0; v < 4; ++v) {
    groupOf[v] = _mm512_add_epi32(_mm512_set1_epi32(4 * v), _mm512_srli_epi32(_mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0), 2));
  }
  for (size_t b = 0; b < nb; ++b) {
#pragma GCC unroll 4
    for (int k = 0; k < R; ++k) prefetchSpan(reinterpret_cast<const std::byte*>(w[k] + b) + kDecodePrefetchBytes, sizeof(BlockQ6_K));
    const BlockQ8_K& yb = y[b];
    __m512i start[4];  // −32·Σ of each lane's 4 activations
    for (int v = 0; v < 4; ++v) {
      start[v] = _mm512_sub_epi32(_mm512_setzero_si512(),
                                  _mm512_dpbusd_epi32(_mm512_setzero_si512(), _mm512_set1_epi8(32), load512(yb.qs + 64 * v)));
    }
#pragma GCC unroll 4
    for (int k = 0; k < R; ++k) {
      const BlockQ6_K& blk = w[k][b];
      const float dy = h2f(blk.d) * yb.d;
      const __m512 dsc = _mm512_mul_ps(
          _mm512_cvtepi32_ps(_mm512_cvtepi8_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(blk.scales)))),
          _mm512_set1_ps(dy));
      for (int v = 0; v < 4; ++v) {
        const __m512i s = _mm512_dpbusd_epi32(start[v], q6Levels(blk, v), load512(yb.qs + 64 * v));
        acc[k] = _mm512_fmadd_ps(_mm512_cvtepi32_ps(s), _mm512_permutexvar_ps(groupOf[v], dsc), acc[k]);
      }
    }
  }
  for (int k = 0; k < R; ++k) t.y[rows[k]] = _mm512_reduce_add_ps(acc[k]);
}

void prefillTileQ6K(const MatTile& t) {
  for (size_t r0 = t.n0; r0 < t.n1; r0 += 16) prefillRowsQ6K(t, r0, t.n1 - r0 < 16 ? t.n1 - r0 : 16);
}

void prefillTileQ4K(const MatTile& t) {
  size_t r0 = t.n0;
  for (; r0 + 32 <= t.n1; r0 += 32) prefillRowsQ4K<2>(t, r0, 32);
  for (; r0 < t.n1; r0 += 16) prefillRowsQ4K<1>(t, r0, t.n1 - r0 < 16 ? t.n1 - r0 : 16);
}

// One Q6_K super-block of a weight row, unpacked once for every activation block of a tile. The levels are
// centred (q − 32) before the products, as |q − 32| with the sign moved onto y: summing uncentred q·y and then
// subtracting 32·Σy would leave large lane sums that cancel, and lose float precision after the scale.
struct UnpackedQ6K {
  __m512i q[4];     // |q − 32| (≤ 32) of elements 64v..64v+63
  __mmask64 neg[4];  // where q − 32 < 0
  __m512i sc[4];    // s16 scale pairs: each 128-bit lane holds the scale of its 16-element group
  float d;

  explicit UnpackedQ6K(const BlockQ6_K& b) {
    const __m512i s32 = _mm512_cvtepi8_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(b.scales)));
    const __m512i pairs = _mm512_or_si512(_mm512_and_si512(s32, _mm512_set1_epi32(0xFFFF)), _mm512_slli_epi32(s32, 16));
    const __m512i lane = _mm512_set_epi32(3, 3, 3, 3, 2, 2, 2, 2, 1, 1, 1, 1, 0, 0, 0, 0);
    for (int v = 0; v < 4; ++v) sc[v] = _mm512_permutexvar_epi32(_mm512_add_epi32(lane, _mm512_set1_epi32(4 * v)), pairs);
    const __m512i low4 = _mm512_set1_epi8(0x0F), two = _mm512_set1_epi8(3), m32 = _mm512_set1_epi8(32);
    __m512i lv[4];
    for (int h = 0; h < 2; ++h) {  // 128 elements per half: ql[64], qh[32]
      const __m512i l = load512(b.ql + 64 * h);
      const __m256i hb = load(b.qh + 32 * h);
      const __m512i h01 = join(hb, _mm256_srli_epi16(hb, 2));
      const __m512i h23 = join(_mm256_srli_epi16(hb, 4), _mm256_srli_epi16(hb, 6));
      lv[2 * h] = _mm512_or_si512(_mm512_and_si512(l, low4), _mm512_slli_epi16(_mm512_and_si512(h01, two), 4));
      lv[2 * h + 1] = _mm512_or_si512(_mm512_and_si512(_mm512_srli_epi16(l, 4), low4),
                                      _mm512_slli_epi16(_mm512_and_si512(h23, two), 4));
    }
    for (int v = 0; v < 4; ++v) {
      const __m512i c = _mm512_sub_epi8(lv[v], m32);
      neg[v] = _mm512_movepi8_mask(c);
      q[v] = _mm512_abs_epi8(c);
    }
    d = h2f(b.d);
  }

  // acc += y.d·d · Σ scale·(q − 32)·y (exact integers: |pair| ≤ 2·32·127, and |y| ≤ 127 negates safely).
  void dot(const BlockQ8_K& y, __m512& acc) const {
    __m512i sumi = _mm512_setzero_si512();
    for (int v = 0; v < 4; ++v) {
      const __m512i yv = load512(y.qs + 64 * v);
      const __m512i ys = _mm512_mask_sub_epi8(yv, neg[v], _mm512_setzero_si512(), yv);
      sumi = _mm512_dpwssd_epi32(sumi, _mm512_maddubs_epi16(q[v], ys), sc[v]);
    }
    acc = _mm512_fmadd_ps(_mm512_set1_ps(y.d * d), _mm512_cvtepi32_ps(sumi), acc);
  }
};

// R weight rows × C activation rows: each super-block is unpacked once per row and dotted with C activation
// blocks. Every (row, activation) pair gets the same arithmetic whatever R and C are, so a result does not depend
// on how rows are shared out between threads or which tile computed it.
template <typename Unpacked, typename Block, int R, int C>
void kTile(const MatTile& t, size_t r, size_t i) {
  const size_t nb = t.k / kQkK;
  const Block* w[R];
  for (int k = 0; k < R; ++k) w[k] = reinterpret_cast<const Block*>(t.w + (r + k) * t.wRowBytes);
  const BlockQ8_K* y[C];
  for (int c = 0; c < C; ++c) y[c] = reinterpret_cast<const BlockQ8_K*>(t.xq + (i + c) * t.xqStride);
  __m512 acc[R][C];
  for (auto& row : acc) {
    for (auto& a : row) a = _mm512_setzero_ps();
  }
  for (size_t b = 0; b < nb; ++b) {
    // Decode reads each weight byte once: prefetch a fixed distance ahead along the (contiguous) rows.
    if constexpr (C == 1) prefetchSpan(reinterpret_cast<const std::byte*>(w[0] + b) + kDecodePrefetchBytes, sizeof(Block));
    for (int k = 0; k < R; ++k) {
      const Unpacked u(w[k][b]);
      for (int c = 0; c < C; ++c) u.dot(y[c][b], acc[k][c]);
    }
  }
  for (int k = 0; k < R; ++k) {
    for (int c = 0; c < C; ++c) t.y[(i + c) * t.yStride + r + k] = _mm512_reduce_add_ps(acc[k][c]);
  }
}

// Prefill: one row × 8 activations per tile (then 4, then single activations), so each super-block is unpacked
// once per 8 activation blocks; rows share nothing, so more rows per tile would only add registers. Decode: one
// row at a time; unlike the 32-element types, four interleaved rows measured slower here (an unpacked
// super-block holds eight zmm registers per row).
template <typename Unpacked, typename Block>
void tileLoopK(const MatTile& t) {
  if (t.m == 1) {
    const auto one = [&](size_t r) { kTile<Unpacked, Block, 1, 1>(t, r, 0); };
    decodeStreams(
        t.n0, t.n1, [&](const RowQuad& q) { for (size_t r : q.r) one(r); }, one);
    return;
  }
  for (size_t r = t.n0; r < t.n1; ++r) {
    size_t i = 0;
    for (; i + 8 <= t.m; i += 8) kTile<Unpacked, Block, 1, 8>(t, r, i);
    for (; i + 4 <= t.m; i += 4) kTile<Unpacked, Block, 1, 4>(t, r, i);
    for (; i < t.m; ++i) kTile<Unpacked, Block, 1, 1>(t, r, i);
  }
}

class Avx512VnniKernels final : public MatKernels {
 public:
  const char* isa() const override { return "avx512vnni"; }
  // The K types are not offered: their decode, tile and lane paths predate the canonical per-pair arithmetic of
  // the AVX2 set (exact super-block sums, one fma chain per pair), and on a Zen 5 prefill and decode gave different
  // bits for one activation (kernels_test, q4_K k=512 m=2). Until an AVX-512 machine verifies these paths against
  // that test, the backend takes Q4_K/Q5_K/Q6_K from the AVX2 set, which is tested on every x86 CI machine.
  // mulTile keeps them so the verification is a change to this switch.
  bool has(DType t) const override {
    switch (t) {
      case DType::Q8_0: case DType::Q4_0: case DType::Q5_0: case DType::Q4_1: case DType::Q5_1:
        return true;
      default:
        return false;
    }
  }
  // The K types share Q8_K activations: Q5_K accepts the packing (so a group mixing it with the others keeps it)
  // and reads the plain rows.
  bool packs(DType t) const override {
    switch (t) {
      case DType::Q8_0: case DType::Q4_0: case DType::Q5_0: case DType::Q4_K: case DType::Q5_K: case DType::Q6_K:
        return true;
      default:
        return false;
    }
  }
  void packActivations(DType weight, const std::byte* actRow, size_t k, size_t m, size_t row,
                       std::byte* xp) const override {
    if (weight == DType::Q4_K || weight == DType::Q5_K || weight == DType::Q6_K) {  // Q8_K activations
      if (m > 1) packPrefillKRow(actRow, k, m, row, xp);  // decode reads the Q8_K rows as they are
    } else if (m == 1) {
      packQ8_0Row(actRow, k, xp);
    } else {
      packPrefillRow(actRow, k, m, row, xp);
    }
  }
  bool hasAttention() const override { return true; }
  void attention(const AttnTile& t, size_t i0, size_t i1, float* scores) const override {
    switch (t.headDim) {  // the head sizes of the supported models; anything else takes the AVX2 kernel
      case 16: attention512<1>(t, i0, i1, scores); break;
      case 32: attention512<2>(t, i0, i1, scores); break;
      case 64: attention512<4>(t, i0, i1, scores); break;
      case 128: attention512<8>(t, i0, i1, scores); break;
      default: avx2Kernels()->attention(t, i0, i1, scores); break;
    }
  }
  bool siluMul(const float* gate, const float* up, float* out, size_t n) const override {
    siluMul512(gate, up, out, n);
    return true;
  }
  bool rmsNorm(const float* x, const float* w, float* y, size_t n, float eps) const override {
    rmsNorm512(x, w, y, n, eps);
    return true;
  }
  bool add(const float* a, const float* b, float* out, size_t n) const override {
    add512(a, b, out, n);
    return true;
  }
  bool rope(float* x, size_t heads, size_t headDim, size_t nDims, bool neox, const float* cs) const override {
    rope512(x, heads, headDim, nDims, neox, cs);
    return true;
  }
  bool toHalf(const float* x, uint16_t* out, size_t n) const override {
    toHalf512(x, out, n);
    return true;
  }
  bool quantizeRow(DType act, const float* x, size_t k, std::byte* out) const override {
    if (act == DType::Q8_0) {
      quantizeQ8_0Row(x, k, reinterpret_cast<BlockQ8_0*>(out));
      return true;
    }
    if (act == DType::Q8_K) {
      quantizeQ8_KRow(x, k, reinterpret_cast<BlockQ8_K*>(out));
      return true;
    }
    return false;
  }
  void mulTile(DType t, const MatTile& tile) const override {
    switch (t) {
      case DType::Q8_0:
        if (tile.xp != nullptr) tileLoopPacked<BlockQ8_0>(tile); else tileLoopSym<BlockQ8_0, dotQ8_0>(tile, levelsQ8_0);
        break;
      case DType::Q4_0:
        if (tile.xp != nullptr) tileLoopPacked<BlockQ4_0>(tile); else tileLoopSym<BlockQ4_0, dotQ4_0>(tile, levelsQ4_0);
        break;
      case DType::Q5_0:
        if (tile.xp != nullptr) tileLoopPacked<BlockQ5_0>(tile); else tileLoopSym<BlockQ5_0, dotQ5_0>(tile, levelsQ5_0);
        break;
      case DType::Q4_1: tileLoop<BlockQ4_1, BlockQ8_1, dotMin<false, BlockQ4_1>>(tile); break;
      case DType::Q5_1: tileLoop<BlockQ5_1, BlockQ8_1, dotMin<true, BlockQ5_1>>(tile); break;
      case DType::Q4_K:
        if (tile.m == 1) {
          decodeStreams(
              tile.n0, tile.n1, [&](const RowQuad& q) { decodeQ4K<4>(tile, q.r); },
              [&](size_t r) { decodeQ4K<1>(tile, &r); });
        } else if (tile.xp != nullptr) {
          prefillTileQ4K(tile);
        } else {
          tileLoopK<UnpackedK45<false>, BlockQ4_K>(tile);
        }
        break;
      case DType::Q5_K: tileLoopK<UnpackedK45<true>, BlockQ5_K>(tile); break;
      case DType::Q6_K:
        if (tile.m == 1) {
          decodeStreams(
              tile.n0, tile.n1, [&](const RowQuad& q) { decodeQ6K<4>(tile, q.r); },
              [&](size_t r) { decodeQ6K<1>(tile, &r); });
        } else if (tile.xp != nullptr) {
          prefillTileQ6K(tile);
        } else {
          tileLoopK<UnpackedQ6K, BlockQ6_K>(tile);
        }
        break;
      default: break;
    }
  }
};

const Avx512VnniKernels kAvx512Vnni;

}  // namespace

const MatKernels* avx512VnniKernels() { return &kAvx512Vnni; }

}  // namespace sotto::hal::compute::cpu
