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

template <typename Block, typename Levels>
float dotSym(const Block* w, const BlockQ8_0* y, size_t nb, Levels levels) {
  __m256 acc0 = _mm256_setzero_ps(), acc1 = _mm256_setzero_ps();
  size_t i = 0;
  for (; i + 1 < nb; i += 2) {
    const __m256 d0 = _mm256_set1_ps(h2f(w[i].d) * h2f(y[i].d));
    const __m256 d1 = _mm256_set1_ps(h2f(w[i + 1].d) * h2f(y[i + 1].d));
    acc0 = _mm256_fmadd_ps(d0, _mm256_cvtepi32_ps(dotI8(levels(w[i]), load(y[i].qs))), acc0);
    acc1 = _mm256_fmadd_ps(d1, _mm256_cvtepi32_ps(dotI8(levels(w[i + 1]), load(y[i + 1].qs))), acc1);
  }
  if (i < nb) {
    const __m256 d0 = _mm256_set1_ps(h2f(w[i].d) * h2f(y[i].d));
    acc0 = _mm256_fmadd_ps(d0, _mm256_cvtepi32_ps(dotI8(levels(w[i]), load(y[i].qs))), acc0);
  }
  return hsum(_mm256_add_ps(acc0, acc1));
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
      case DType::Q8_0: tileLoop<BlockQ8_0, BlockQ8_0, dotQ8_0>(tile); break;
      case DType::Q4_0: tileLoop<BlockQ4_0, BlockQ8_0, dotQ4_0>(tile); break;
      case DType::Q5_0: tileLoop<BlockQ5_0, BlockQ8_0, dotQ5_0>(tile); break;
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
