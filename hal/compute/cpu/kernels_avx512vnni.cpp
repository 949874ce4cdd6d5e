// SPDX-License-Identifier: MIT
// AVX-512 VNNI matmul kernels for the 32-element block types (compiled with -mavx512f -mavx512bw -mavx512vl
// -mavx512vnni -mavx2 -mfma -mf16c; used only when the CPU has them). vpdpbusd multiplies unsigned by signed
// bytes and adds groups of four into int32 lanes in one instruction, where AVX2 needs maddubs + madd (and no
// 16-bit saturation can occur). The K-quants stay on the AVX2 kernels: their per-sub-block scales are applied
// to 16-bit pair sums, which VNNI does not produce.
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

float dotQ8_0(const BlockQ8_0* w, const BlockQ8_0* y, size_t nb) {
  return dotSym(w, y, nb, [](const BlockQ8_0& b) { return load(b.qs); });
}

float dotQ4_0(const BlockQ4_0* w, const BlockQ8_0* y, size_t nb) {
  return dotSym(w, y, nb, [](const BlockQ4_0& b) { return _mm256_sub_epi8(nibbles(b.qs), _mm256_set1_epi8(8)); });
}

float dotQ5_0(const BlockQ5_0* w, const BlockQ8_0* y, size_t nb) {
  return dotSym(w, y, nb, [](const BlockQ5_0& b) {
    return _mm256_sub_epi8(_mm256_or_si256(nibbles(b.qs), fifthBits(b.qh)), _mm256_set1_epi8(16));
  });
}

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

// Decode (one activation row): 4 weight rows per pass, four independent streams from memory and one load of each
// activation block; per row the same arithmetic as dotSym.
template <typename Block, typename Levels>
void gemv4(const MatTile& t, size_t r, size_t i, Levels levels) {
  const size_t nb = t.k / kQk;
  const Block* w[4];
  for (int k = 0; k < 4; ++k) w[k] = reinterpret_cast<const Block*>(t.w + (r + k) * t.wRowBytes);
  const auto* y = reinterpret_cast<const BlockQ8_0*>(t.xq + i * t.xqStride);
  __m256 acc[4] = {_mm256_setzero_ps(), _mm256_setzero_ps(), _mm256_setzero_ps(), _mm256_setzero_ps()};
  for (size_t b = 0; b < nb; ++b) {
    const __m256i yb = load(y[b].qs);
    const float dy = h2f(y[b].d);
    for (int k = 0; k < 4; ++k) {
      const __m256i q = levels(w[k][b]);
      const __m256i s = _mm256_dpbusd_epi32(_mm256_setzero_si256(), _mm256_abs_epi8(q), _mm256_sign_epi8(yb, q));
      acc[k] = _mm256_fmadd_ps(_mm256_set1_ps(h2f(w[k][b].d) * dy), _mm256_cvtepi32_ps(s), acc[k]);
    }
  }
  for (int k = 0; k < 4; ++k) t.y[i * t.yStride + r + k] = hsum(acc[k]);
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
  for (; r + 4 <= t.n1; r += 4) {
    for (size_t i = 0; i < t.m; ++i) gemv4<Block>(t, r, i, levels);
  }
  for (; r < t.n1; ++r) {
    const auto* wr = reinterpret_cast<const Block*>(t.w + r * t.wRowBytes);
    for (size_t i = 0; i < t.m; ++i) {
      t.y[i * t.yStride + r] = kDot(wr, reinterpret_cast<const BlockQ8_0*>(t.xq + i * t.xqStride), nb);
    }
  }
}

inline __m256i levelsQ8_0(const BlockQ8_0& b) { return load(b.qs); }
inline __m256i levelsQ4_0(const BlockQ4_0& b) { return _mm256_sub_epi8(nibbles(b.qs), _mm256_set1_epi8(8)); }
inline __m256i levelsQ5_0(const BlockQ5_0& b) {
  return _mm256_sub_epi8(_mm256_or_si256(nibbles(b.qs), fifthBits(b.qh)), _mm256_set1_epi8(16));
}

class Avx512VnniKernels final : public MatKernels {
 public:
  const char* isa() const override { return "avx512vnni"; }
  bool has(DType t) const override {
    switch (t) {
      case DType::Q8_0: case DType::Q4_0: case DType::Q5_0: case DType::Q4_1: case DType::Q5_1:
        return true;
      default:
        return false;
    }
  }
  void mulTile(DType t, const MatTile& tile) const override {
    switch (t) {
      case DType::Q8_0: tileLoopSym<BlockQ8_0, dotQ8_0>(tile, levelsQ8_0); break;
      case DType::Q4_0: tileLoopSym<BlockQ4_0, dotQ4_0>(tile, levelsQ4_0); break;
      case DType::Q5_0: tileLoopSym<BlockQ5_0, dotQ5_0>(tile, levelsQ5_0); break;
      case DType::Q4_1: tileLoop<BlockQ4_1, BlockQ8_1, dotMin<false, BlockQ4_1>>(tile); break;
      case DType::Q5_1: tileLoop<BlockQ5_1, BlockQ8_1, dotMin<true, BlockQ5_1>>(tile); break;
      default: break;
    }
  }
};

const Avx512VnniKernels kAvx512Vnni;

}  // namespace

const MatKernels* avx512VnniKernels() { return &kAvx512Vnni; }

}  // namespace sotto::hal::compute::cpu
