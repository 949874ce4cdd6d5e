// SPDX-License-Identifier: MIT
// AVX2 + FMA + F16C kernels: matmul, attention, activation quantizers and element-wise routines (compiled with
// -mavx2 -mfma -mf16c; used only when the CPU has them).
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

inline int32_t hsumI32(__m256i v) {
  __m128i s = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
  s = _mm_add_epi32(s, _mm_unpackhi_epi64(s, s));
  s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 1));
  return _mm_cvtsi128_si32(s);
}

inline float h2f(uint16_t h) { return _cvtsh_ss(h); }

inline __m256i load(const void* p) { return _mm256_loadu_si256(static_cast<const __m256i*>(p)); }

// 32 nibbles of a Q4_0 block as bytes: elements 0..15 (low nibbles) then 16..31 (high nibbles).
inline __m256i nibbles(const uint8_t* q) {
  const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(q));
  const __m256i both = _mm256_set_m128i(_mm_srli_epi16(b, 4), b);
  return _mm256_and_si256(both, _mm256_set1_epi8(0x0F));
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

// Decode streams every weight byte once; one core's hardware prefetcher keeps more lines in flight over several
// sequential streams than over one, so a decode tile's rows [n0, n1) are read as four streams, each a quarter of
// the range, one row of each per step; the leftover rows one at a time.
struct RowQuad {
  size_t r[4];
};
template <typename Four, typename One>
void decodeStreams(size_t n0, size_t n1, Four four, One one) {
  const size_t q = (n1 - n0) / 4;
  for (size_t j = 0; j < q; ++j) four(RowQuad{{n0 + j, n0 + q + j, n0 + 2 * q + j, n0 + 3 * q + j}});
  for (size_t r = n0 + 4 * q; r < n1; ++r) one(r);
}

constexpr size_t kDecodePrefetchBytes = 1024;  // each stream prefetched this far ahead

// ---- Q8_0 against Q8_0 activations ----
// Every (weight row, activation) pair, whichever path computes it (prefill tile, tile edge, decode streams, the
// leftover rows) and however rows are shared out between threads, gets the same float arithmetic, as the Q4_0
// lane tile below: one float chain per pair, acc = fma(float(S), dw·dy, acc) with S the exact block sum Σ w·y,
// blocks in order. A tile's pairs are the lanes of one vector: their 8-lane int32 sums are reduced by hadd, so
// each block costs one conversion and one FMA for up to eight pairs (one per pair with a horizontal sum at the
// end measured 2–12 % slower in decode).

// Lane p = the sum of the eight int32 lanes of q[p] for p < P ≤ 4 (three hadds and one add; exact).
template <int P>
inline __m128i blockSums4(const __m256i* q) {
  const __m256i z = _mm256_setzero_si256();
  const auto at = [&](int i) { return i < P ? q[i] : z; };
  const __m256i h = _mm256_hadd_epi32(_mm256_hadd_epi32(at(0), at(1)), _mm256_hadd_epi32(at(2), at(3)));
  return _mm_add_epi32(_mm256_castsi256_si128(h), _mm256_extracti128_si256(h, 1));
}

// The same for P ≤ 8 lanes: pairs 0..3 in the low half, 4..7 in the high half.
template <int P>
inline __m256i blockSums8(const __m256i* q) {
  const __m256i z = _mm256_setzero_si256();
  const auto at = [&](int i) { return i < P ? q[i] : z; };
  const __m256i e = _mm256_hadd_epi32(_mm256_hadd_epi32(at(0), at(1)), _mm256_hadd_epi32(at(2), at(3)));
  const __m256i f = _mm256_hadd_epi32(_mm256_hadd_epi32(at(4), at(5)), _mm256_hadd_epi32(at(6), at(7)));
  const __m256i lo = _mm256_inserti128_si256(e, _mm256_castsi256_si128(f), 1);    // e.lo | f.lo
  const __m256i hi = _mm256_inserti128_si256(f, _mm256_extracti128_si256(e, 1), 0);  // e.hi | f.hi
  return _mm256_add_epi32(lo, hi);
}

// R weight rows (any rows: decode passes one per stream) × C consecutive activations from i0, R·C ≤ 8 pairs, one
// float lane each. Each decoded weight block serves C activations and each activation block R rows.
template <int R, int C, bool kPrefetch>
inline void q8Tile(const MatTile& t, const size_t* rows, size_t i0) {
  constexpr int P = R * C;  // pair p = r·C + c
  static_assert(P <= 8);
  const size_t nb = t.k / kQk;
  const BlockQ8_0* w[R];
  for (int r = 0; r < R; ++r) w[r] = reinterpret_cast<const BlockQ8_0*>(t.w + rows[r] * t.wRowBytes);
  const BlockQ8_0* y[C];
  for (int c = 0; c < C; ++c) y[c] = reinterpret_cast<const BlockQ8_0*>(t.xq + (i0 + c) * t.xqStride);
  const __m256i ones = _mm256_set1_epi16(1);
  __m128 acc4 = _mm_setzero_ps();
  __m256 acc8 = _mm256_setzero_ps();
  for (size_t b = 0; b < nb; ++b) {
    if constexpr (kPrefetch) {
      if (b % 2 == 0) {
        for (int r = 0; r < R; ++r) {
          _mm_prefetch(reinterpret_cast<const char*>(w[r] + b) + kDecodePrefetchBytes, _MM_HINT_T0);
        }
      }
    }
    __m256i q[R], a[R];
    float dw[R], dy[C];
    for (int r = 0; r < R; ++r) {
      q[r] = load(w[r][b].qs);
      a[r] = _mm256_abs_epi8(q[r]);
      dw[r] = h2f(w[r][b].d);
    }
    __m256i s[P];
    for (int c = 0; c < C; ++c) {
      const __m256i yc = load(y[c][b].qs);
      dy[c] = h2f(y[c][b].d);
      // |w| as the unsigned side and y with w's sign: |w|·|y| ≤ 128·127, so the s16 pair sums cannot saturate.
      for (int r = 0; r < R; ++r) {
        s[r * C + c] = _mm256_madd_epi16(_mm256_maddubs_epi16(a[r], _mm256_sign_epi8(yc, q[r])), ones);
      }
    }
    float d[8] = {};
    for (int p = 0; p < P; ++p) d[p] = dw[p / C] * dy[p % C];
    if constexpr (R == 2 && C == 4) {  // the full prefill tile: the same eight products as vectors
      const __m128 dy4 = _mm_setr_ps(dy[0], dy[1], dy[2], dy[3]);
      const __m256 dwv = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_set1_ps(dw[0])), _mm_set1_ps(dw[1]), 1);
      const __m256 dv = _mm256_mul_ps(dwv, _mm256_insertf128_ps(_mm256_castps128_ps256(dy4), dy4, 1));
      acc8 = _mm256_fmadd_ps(_mm256_cvtepi32_ps(blockSums8<P>(s)), dv, acc8);
    } else if constexpr (P <= 4) {
      acc4 = _mm_fmadd_ps(_mm_cvtepi32_ps(blockSums4<P>(s)), _mm_setr_ps(d[0], d[1], d[2], d[3]), acc4);
    } else {
      acc8 = _mm256_fmadd_ps(_mm256_cvtepi32_ps(blockSums8<P>(s)),
                             _mm256_setr_ps(d[0], d[1], d[2], d[3], d[4], d[5], d[6], d[7]), acc8);
    }
  }
  alignas(32) float out[8];
  if constexpr (P <= 4) {
    _mm_store_ps(out, acc4);
  } else {
    _mm256_store_ps(out, acc8);
  }
  for (int p = 0; p < P; ++p) t.y[(i0 + p % C) * t.yStride + rows[p / C]] = out[p];
}

// Activations [0, m) of rows `rows` in tiles of kCols, then the 1–3 left over in one narrower tile.
template <int R>
void q8Rows(const MatTile& t, const size_t* rows) {
  constexpr int kCols = 4;
  size_t i = 0;
  for (; i + kCols <= t.m; i += kCols) q8Tile<R, kCols, false>(t, rows, i);
  switch (t.m - i) {
    case 1: q8Tile<R, 1, false>(t, rows, i); break;
    case 2: q8Tile<R, 2, false>(t, rows, i); break;
    case 3: q8Tile<R, 3, false>(t, rows, i); break;
    default: break;
  }
}

void q8LaneRows(const MatTile& t, size_t r0, size_t rows);  // below, with the other lane kernels

// Prefill (m ≥ kQ8LaneMinM) takes eight rows per vector (q8LaneRows): no horizontal sums. Fewer activations keep
// the 2 × 4 tiles, whose cost per block does not include a transposition.
constexpr size_t kQ8LaneMinM = 4;

void q8Loop(const MatTile& t) {
  if (t.m >= kQ8LaneMinM) {
    for (size_t r = t.n0; r < t.n1; r += 8) q8LaneRows(t, r, t.n1 - r < 8 ? t.n1 - r : 8);
    return;
  }
  if (t.m == 1) {
    decodeStreams(
        t.n0, t.n1, [&](const RowQuad& q) { q8Tile<4, 1, true>(t, q.r, 0); },
        [&](size_t r) { q8Tile<1, 1, false>(t, &r, 0); });
    return;
  }
  size_t r = t.n0;
  for (; r + 2 <= t.n1; r += 2) {
    const size_t rows[2] = {r, r + 1};
    q8Rows<2>(t, rows);
  }
  if (r < t.n1) q8Rows<1>(t, &r);
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

// Q4_K / Q5_K: the canonical per-pair arithmetic is two float chains per (row, activation) pair, for each
// super-block in order: accS = fma(float(S), dy·d, accS) and accM = fma(float(M), dy·dmin, accM), with S = Σ_s sc_s ·
// Σ q·y and M = Σ_s m_s · Σ y the exact integer sums of the super-block; the result is accS − accM. Decode, the
// tiles and the Q4_K lanes below all compute it so, so they give the same bits whatever path or split takes a pair.
// (|S| ≤ 8 · 63 · 32 · 31 · 128 < 2^31.)

// The two chains of one pair in lanes 0 (S) and 1 (M) of acc, from S's eight int32 partial sums and M's four.
inline __m128 kChains(__m256i sumi, __m128i mins4, float dd, float ddm, __m128 acc) {
  const __m128i s4 = _mm_add_epi32(_mm256_castsi256_si128(sumi), _mm256_extracti128_si256(sumi, 1));
  __m128i sm = _mm_hadd_epi32(s4, mins4);  // S01 S23 M01 M23
  sm = _mm_hadd_epi32(sm, sm);             // S M S M
  return _mm_fmadd_ps(_mm_cvtepi32_ps(sm), _mm_setr_ps(dd, ddm, 0.0f, 0.0f), acc);
}

inline float kResult(__m128 acc) { return _mm_cvtss_f32(acc) - _mm_cvtss_f32(_mm_movehdup_ps(acc)); }

template <bool kFive, typename Block>
float dotK45(const Block* w, const BlockQ8_K* y, size_t nb) {
  const __m256i low4 = _mm256_set1_epi8(0x0F);
  const __m256i bit4 = _mm256_set1_epi8(0x10);
  __m128 acc = _mm_setzero_ps();
  for (size_t i = 0; i < nb; ++i) {
    const __m128i sm = scalesMins(w[i].scales);
    const __m256i scales = _mm256_broadcastsi128_si256(_mm_cvtepu8_epi16(sm));
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
    acc = kChains(sumi, minsTerm(sm, y[i].bsums), y[i].d * h2f(w[i].d), y[i].d * h2f(w[i].dmin), acc);
  }
  return kResult(acc);
}

// The K-quant prefill tiles keep the single dot product's per-pair arithmetic (Q4_K / Q5_K: the two chains above;
// Q6_K: an 8-lane accumulator of the scaled sub-block sums, one horizontal sum at the end) and only share work: a row's levels and sub-block scales are unpacked once per super-block for C activations. So the
// tiles, their edges and decode's single dot products give the same bits. Decode keeps the single dot per row:
// four streamed rows per pass measured 9–13 % slower for Q4_K/Q6_K (with or without prefetch), and the 1 × 1
// tile 5 % slower than the dot's interleaved unpacking.
template <bool kFive, typename Block>
struct K45 {
  template <int R, int C>
  static void tile(const MatTile& t, const size_t* rows, size_t i0) {
    const size_t nb = t.k / kQkK;
    const __m256i low4 = _mm256_set1_epi8(0x0F);
    const __m256i bit4 = _mm256_set1_epi8(0x10);
    const Block* w[R];
    for (int r = 0; r < R; ++r) w[r] = reinterpret_cast<const Block*>(t.w + rows[r] * t.wRowBytes);
    const BlockQ8_K* y[C];
    for (int c = 0; c < C; ++c) y[c] = reinterpret_cast<const BlockQ8_K*>(t.xq + (i0 + c) * t.xqStride);
    __m128 acc[R][C];
    for (int r = 0; r < R; ++r) {
      for (int c = 0; c < C; ++c) acc[r][c] = _mm_setzero_ps();
    }
    for (size_t i = 0; i < nb; ++i) {
      for (int r = 0; r < R; ++r) {
        const Block& wb = w[r][i];
        const __m128i sm = scalesMins(wb.scales);
        const __m256i scales = _mm256_broadcastsi128_si256(_mm_cvtepu8_epi16(sm));
        const float dmin = h2f(wb.dmin), d = h2f(wb.d);
        __m256i hbits = _mm256_setzero_si256();
        if constexpr (kFive) hbits = load(wb.qh);
        __m256i lv[8], sc[8];
        for (int j = 0; j < 4; ++j) {
          const __m256i q4 = load(wb.qs + 32 * j);
          __m256i lo = _mm256_and_si256(q4, low4);
          __m256i hi = _mm256_and_si256(_mm256_srli_epi16(q4, 4), low4);
          if constexpr (kFive) {
            const __m256i m1 = _mm256_set1_epi8(static_cast<char>(1 << (2 * j)));
            const __m256i m2 = _mm256_set1_epi8(static_cast<char>(1 << (2 * j + 1)));
            lo = _mm256_or_si256(lo, _mm256_and_si256(_mm256_cmpeq_epi8(_mm256_and_si256(hbits, m1), m1), bit4));
            hi = _mm256_or_si256(hi, _mm256_and_si256(_mm256_cmpeq_epi8(_mm256_and_si256(hbits, m2), m2), bit4));
          }
          lv[2 * j] = lo;
          lv[2 * j + 1] = hi;
          sc[2 * j] = scaleOf(scales, 2 * j);
          sc[2 * j + 1] = scaleOf(scales, 2 * j + 1);
        }
        for (int c = 0; c < C; ++c) {
          const BlockQ8_K& yb = y[c][i];
          __m256i sumi = _mm256_setzero_si256();
          for (int j = 0; j < 8; ++j) {
            sumi = _mm256_add_epi32(sumi, _mm256_madd_epi16(_mm256_maddubs_epi16(lv[j], load(yb.qs + 32 * j)), sc[j]));
          }
          acc[r][c] = kChains(sumi, minsTerm(sm, yb.bsums), yb.d * d, yb.d * dmin, acc[r][c]);
        }
      }
    }
    for (int r = 0; r < R; ++r) {
      for (int c = 0; c < C; ++c) t.y[(i0 + c) * t.yStride + rows[r]] = kResult(acc[r][c]);
    }
  }
};

// Scales 2g (low 128-bit lane) and 2g+1 (high lane) of eight s16 scales held in both lanes: the two 16-element
// groups a 32-byte vector of Q6_K levels spans.
inline __m256i scalePair(__m256i scales, int g) {
  const short lo = static_cast<short>(((4 * g + 1) << 8) | (4 * g));
  const short hi = static_cast<short>(((4 * g + 3) << 8) | (4 * g + 2));
  return _mm256_shuffle_epi8(scales, _mm256_set_m128i(_mm_set1_epi16(hi), _mm_set1_epi16(lo)));
}

// Q6_K: the canonical per-pair arithmetic is one float chain, acc = fma(float(S), dy·d, acc) per super-block in
// order, with S = Σ_g sc_g · Σ (q − 32)·y the exact integer sum of the super-block (|S| ≤ 16 · 128 · 16 · 63 · 128
// < 2^31). Σ (q − 32)·y is taken as Σ q·y − 32·Σ y, Σ y from the activation's bsums: maddubs needs the unsigned
// side non-negative, and q·y pairs stay below the s16 limit (2 · 63 · 128).

// 32 · Σ_g sc_g · bsums_g as eight int32 lanes (the scales as 16 s16).
inline __m256i q6Offsets(__m256i scales16, const int16_t* bsums) {
  return _mm256_slli_epi32(_mm256_madd_epi16(scales16, load(bsums)), 5);
}

float dotQ6_K(const BlockQ6_K* w, const BlockQ8_K* y, size_t nb) {
  const __m256i low4 = _mm256_set1_epi8(0x0F);
  const __m256i two = _mm256_set1_epi8(3);
  __m128 acc = _mm_setzero_ps();
  for (size_t i = 0; i < nb; ++i) {
    const uint8_t* ql = w[i].ql;
    const uint8_t* qh = w[i].qh;
    const int8_t* sc = w[i].scales;
    const int8_t* q8 = y[i].qs;
    __m256i sumi = _mm256_sub_epi32(
        _mm256_setzero_si256(),
        q6Offsets(_mm256_cvtepi8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(sc))), y[i].bsums));
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
        const __m256i p = _mm256_maddubs_epi16(q[g], load(q8 + 32 * g));
        sumi = _mm256_add_epi32(sumi, _mm256_madd_epi16(p, scalePair(scales, g)));
      }
    }
    acc = _mm_fmadd_ss(_mm_cvtsi32_ss(acc, hsumI32(sumi)), _mm_set_ss(y[i].d * h2f(w[i].d)), acc);
  }
  return _mm_cvtss_f32(acc);
}

struct Q6K {
  template <int R, int C>
  static void tile(const MatTile& t, const size_t* rows, size_t i0) {
    const size_t nb = t.k / kQkK;
    const __m256i low4 = _mm256_set1_epi8(0x0F);
    const __m256i two = _mm256_set1_epi8(3);
    const BlockQ6_K* w[R];
    for (int r = 0; r < R; ++r) w[r] = reinterpret_cast<const BlockQ6_K*>(t.w + rows[r] * t.wRowBytes);
    const BlockQ8_K* y[C];
    for (int c = 0; c < C; ++c) y[c] = reinterpret_cast<const BlockQ8_K*>(t.xq + (i0 + c) * t.xqStride);
    __m128 acc[R][C];
    for (auto& row : acc) {
      for (auto& a : row) a = _mm_setzero_ps();
    }
    for (size_t i = 0; i < nb; ++i) {
      for (int r = 0; r < R; ++r) {
        const BlockQ6_K& wb = w[r][i];
        const __m256i scales16 = _mm256_cvtepi8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(wb.scales)));
        __m256i q[8], sc[8];
        for (int half = 0; half < 2; ++half) {
          const uint8_t* ql = wb.ql + 64 * half;
          const __m256i l0 = load(ql), l1 = load(ql + 32), h = load(wb.qh + 32 * half);
          __m256i* qq = q + 4 * half;
          qq[0] = _mm256_or_si256(_mm256_and_si256(l0, low4), _mm256_slli_epi16(_mm256_and_si256(h, two), 4));
          qq[1] = _mm256_or_si256(_mm256_and_si256(l1, low4),
                                  _mm256_slli_epi16(_mm256_and_si256(_mm256_srli_epi16(h, 2), two), 4));
          qq[2] = _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi16(l0, 4), low4),
                                  _mm256_slli_epi16(_mm256_and_si256(_mm256_srli_epi16(h, 4), two), 4));
          qq[3] = _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi16(l1, 4), low4),
                                  _mm256_slli_epi16(_mm256_and_si256(_mm256_srli_epi16(h, 6), two), 4));
          const __m256i scales = _mm256_broadcastsi128_si256(
              _mm_cvtepi8_epi16(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(wb.scales + 8 * half))));
          for (int g = 0; g < 4; ++g) sc[4 * half + g] = scalePair(scales, g);
        }
        const float d = h2f(wb.d);
        for (int c = 0; c < C; ++c) {
          const BlockQ8_K& yb = y[c][i];
          __m256i sumi = _mm256_sub_epi32(_mm256_setzero_si256(), q6Offsets(scales16, yb.bsums));
          for (int j = 0; j < 8; ++j) {
            sumi = _mm256_add_epi32(sumi, _mm256_madd_epi16(_mm256_maddubs_epi16(q[j], load(yb.qs + 32 * j)), sc[j]));
          }
          acc[r][c] = _mm_fmadd_ss(_mm_cvtsi32_ss(acc[r][c], hsumI32(sumi)), _mm_set_ss(yb.d * d), acc[r][c]);
        }
      }
    }
    for (int r = 0; r < R; ++r) {
      for (int c = 0; c < C; ++c) t.y[(i0 + c) * t.yStride + rows[r]] = _mm_cvtss_f32(acc[r][c]);
    }
  }
};

// Prefill: one row against four activations at a time, the 1–3 activations left over in one narrower tile.
template <typename K>
void kPrefill(const MatTile& t) {
  for (size_t r = t.n0; r < t.n1; ++r) {
    size_t i = 0;
    for (; i + 4 <= t.m; i += 4) K::template tile<1, 4>(t, &r, i);
    switch (t.m - i) {
      case 1: K::template tile<1, 1>(t, &r, i); break;
      case 2: K::template tile<1, 2>(t, &r, i); break;
      case 3: K::template tile<1, 3>(t, &r, i); break;
      default: break;
    }
  }
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

// ---- Element-wise routines (the reference's bytes, or within the conformance tolerance where the interface
// allows it) ----

// Lanes [0, n) of 8 set (n ≤ 8): the mask for maskload / maskstore on a tail.
inline __m256i tailMask(size_t n) {
  return _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(n)), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}

inline float hmax(__m256 v) {
  __m128 m = _mm_max_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
  m = _mm_max_ps(m, _mm_movehl_ps(m, m));
  m = _mm_max_ss(m, _mm_movehdup_ps(m));
  return _mm_cvtss_f32(m);
}

inline __m256 absPs(__m256 v) { return _mm256_andnot_ps(_mm256_set1_ps(-0.0f), v); }

// Four vectors of eight int32 (each in −128..127) as 32 bytes in order: the packs interleave 128-bit lanes, the
// permutation puts the four-element groups back.
inline __m256i packBytes(__m256i a, __m256i b, __m256i c, __m256i d) {
  const __m256i p = _mm256_packs_epi16(_mm256_packs_epi32(a, b), _mm256_packs_epi32(c, d));
  return _mm256_permutevar8x32_epi32(p, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
}

// round(v) with ties away from zero (std::round): truncate, then step away from zero where the exact remainder
// v − trunc(v) is at least one half.
inline __m256i roundAway(__m256 v) {
  const __m256 t = _mm256_round_ps(v, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
  const __m256 up = _mm256_cmp_ps(absPs(_mm256_sub_ps(v, t)), _mm256_set1_ps(0.5f), _CMP_GE_OQ);
  const __m256 one = _mm256_or_ps(_mm256_and_ps(v, _mm256_set1_ps(-0.0f)), _mm256_set1_ps(1.0f));  // ±1 as v
  return _mm256_cvttps_epi32(_mm256_add_ps(t, _mm256_and_ps(up, one)));
}

inline uint16_t toHalfBits(float f) {
  // _mm_cvtps_ph, not _cvtss_sh: clang's _cvtss_sh macro expands to a compound literal (-Wc99-extensions).
  return static_cast<uint16_t>(_mm_extract_epi16(_mm_cvtps_ph(_mm_set_ss(f), _MM_FROUND_TO_NEAREST_INT), 0));
}

void quantizeQ8_0Row(const float* x, size_t k, BlockQ8_0* y) {
  for (size_t i = 0; i < k / kQk; ++i, x += kQk) {
    __m256 v[4];
    for (int j = 0; j < 4; ++j) v[j] = _mm256_loadu_ps(x + 8 * j);
    const __m256 m01 = _mm256_max_ps(absPs(v[0]), absPs(v[1])), m23 = _mm256_max_ps(absPs(v[2]), absPs(v[3]));
    const float amax = hmax(_mm256_max_ps(m01, m23));
    const float d = amax / 127;
    const float id = d != 0.0f ? 1.0f / d : 0.0f;
    y[i].d = toHalfBits(d);
    const __m256 vid = _mm256_set1_ps(id);
    __m256i q[4];
    for (int j = 0; j < 4; ++j) q[j] = roundAway(_mm256_mul_ps(v[j], vid));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(y[i].qs), packBytes(q[0], q[1], q[2], q[3]));
  }
}

void quantizeQ8_KRow(const float* x, size_t k, BlockQ8_K* y) {
  for (size_t i = 0; i < k / kQkK; ++i, x += kQkK) {
    __m256 m = _mm256_setzero_ps();
    for (int j = 0; j < kQkK; j += 8) m = _mm256_max_ps(m, absPs(_mm256_loadu_ps(x + j)));
    const float amax = hmax(m);
    if (amax == 0.0f) {
      std::memset(&y[i], 0, sizeof y[i]);
      continue;
    }
    float max = 0;  // the first element of largest magnitude, with its sign (the reference's strict '>' scan)
    const __m256 va = _mm256_set1_ps(amax);
    for (int j = 0; j < kQkK; j += 8) {
      const int hit = _mm256_movemask_ps(_mm256_cmp_ps(absPs(_mm256_loadu_ps(x + j)), va, _CMP_EQ_OQ));
      if (hit != 0) {
        max = x[j + __builtin_ctz(static_cast<unsigned>(hit))];
        break;
      }
    }
    const float iscale = -127.f / max;
    const __m256 vs = _mm256_set1_ps(iscale);
    const __m256i top = _mm256_set1_epi32(127);
    for (int j = 0; j < kQkK; j += 32) {
      // Round to nearest even (the reference's 1.5·2^23 trick; MXCSR's default mode), then at most 127.
      __m256i q[4];
      for (int u = 0; u < 4; ++u) {
        q[u] = _mm256_min_epi32(_mm256_cvtps_epi32(_mm256_mul_ps(vs, _mm256_loadu_ps(x + j + 8 * u))), top);
      }
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(y[i].qs + j), packBytes(q[0], q[1], q[2], q[3]));
      y[i].bsums[j / 16] = static_cast<int16_t>(hsumI32(_mm256_add_epi32(q[0], q[1])));
      y[i].bsums[j / 16 + 1] = static_cast<int16_t>(hsumI32(_mm256_add_epi32(q[2], q[3])));
    }
    y[i].d = 1 / iscale;
  }
}

// e^x for x in [-88.38, 88.38] (clamped): x = n·ln2 + r with |r| ≤ ln2/2, Cephes' degree-6 polynomial for e^r
// (about 1 ulp), then times 2^n built as 2^(n/2)·2^(n − n/2): n reaches ±128, whose exponent field overflows.
inline __m256 exp256(__m256 x) {
  x = _mm256_min_ps(_mm256_max_ps(x, _mm256_set1_ps(-88.3762626647949f)), _mm256_set1_ps(88.3762626647949f));
  const __m256 n = _mm256_round_ps(_mm256_mul_ps(x, _mm256_set1_ps(1.44269504088896341f)),
                                   _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  __m256 r = _mm256_fnmadd_ps(n, _mm256_set1_ps(0.693359375f), x);  // ln2 in two parts: the first is exact × n
  r = _mm256_fnmadd_ps(n, _mm256_set1_ps(-2.12194440e-4f), r);
  __m256 p = _mm256_set1_ps(1.9875691500e-4f);
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.3981999507e-3f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(8.3334519073e-3f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(4.1665795894e-2f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.6666665459e-1f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(5.0000001201e-1f));
  p = _mm256_fmadd_ps(p, _mm256_mul_ps(r, r), _mm256_add_ps(r, _mm256_set1_ps(1.0f)));
  const __m256i ni = _mm256_cvtps_epi32(n);
  const __m256i n1 = _mm256_srai_epi32(ni, 1), n2 = _mm256_sub_epi32(ni, n1);
  const auto pow2 = [](__m256i e) {
    return _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_add_epi32(e, _mm256_set1_epi32(127)), 23));
  };
  return _mm256_mul_ps(_mm256_mul_ps(p, pow2(n1)), pow2(n2));
}

// Any head size (the fallback when headDim is not a multiple of 8).
void attentionAnyDim(const AttnTile& a, size_t i0, size_t i1, float* scores) {
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

// Eight query·key dot products (accumulators a[k], lanes = 8 dims each) reduced to one vector: lane k = key k.
inline __m256 hsum8(const __m256 a[8]) {
  const __m256 h0 = _mm256_hadd_ps(_mm256_hadd_ps(a[0], a[1]), _mm256_hadd_ps(a[2], a[3]));  // keys 0..3, by half
  const __m256 h1 = _mm256_hadd_ps(_mm256_hadd_ps(a[4], a[5]), _mm256_hadd_ps(a[6], a[7]));  // keys 4..7
  return _mm256_add_ps(_mm256_permute2f128_ps(h0, h1, 0x20), _mm256_permute2f128_ps(h0, h1, 0x31));
}

// out[0, 8·NC) = Σ_j p_j · v_j over len rows of V (stride D), the NC output vectors held in registers.
template <int NC>
inline void weightedRows(const float* p, const uint16_t* v, size_t D, size_t len, float* out) {
  __m256 o[NC];
  for (int c = 0; c < NC; ++c) o[c] = _mm256_setzero_ps();
  for (size_t j = 0; j < len; ++j) {
    const __m256 pj = _mm256_broadcast_ss(p + j);
    for (int c = 0; c < NC; ++c) o[c] = _mm256_fmadd_ps(pj, loadF16(v + j * D + 8 * c), o[c]);
  }
  for (int c = 0; c < NC; ++c) _mm256_storeu_ps(out + 8 * c, o[c]);
}

// Causal attention for query (token, head) pairs [i0, i1), headDim a multiple of 8. Scores are taken eight keys
// at a time (one horizontal reduction per eight, not one per key), exponentiated eight at a time, and the
// weighted sum of V keeps up to 64 output floats in registers across all keys. Each pair's arithmetic depends
// only on the pair, so any split of [i0, i1) between threads gives the same bits.
void attentionAvx2(const AttnTile& a, size_t i0, size_t i1, float* scores) {
  const size_t D = a.headDim;
  if (D % 8 != 0) {
    attentionAnyDim(a, i0, i1, scores);
    return;
  }
  const size_t group = a.heads / a.kvHeads;
  const size_t nc = D / 8;
  for (size_t i = i0; i < i1; ++i) {
    const size_t t = i / a.heads, h = i % a.heads, kvh = h / group;
    const float* q = a.q + t * a.qStride + h * D;
    const uint16_t* kHead = a.k + kvh * a.capacity * D;
    const uint16_t* vHead = a.v + kvh * a.capacity * D;
    const size_t len = a.pos0 + t + 1;  // causal
    const __m256 scale = _mm256_set1_ps(a.scale);
    __m256 maxv = _mm256_set1_ps(-__builtin_inff());
    size_t j = 0;
    for (; j + 8 <= len; j += 8) {
      __m256 acc[8];
      for (int k = 0; k < 8; ++k) acc[k] = _mm256_setzero_ps();
      for (size_t c = 0; c < nc; ++c) {
        const __m256 qc = _mm256_loadu_ps(q + 8 * c);
        for (int k = 0; k < 8; ++k) acc[k] = _mm256_fmadd_ps(qc, loadF16(kHead + (j + k) * D + 8 * c), acc[k]);
      }
      const __m256 s = _mm256_mul_ps(hsum8(acc), scale);
      _mm256_storeu_ps(scores + j, s);
      maxv = _mm256_max_ps(maxv, s);
    }
    float max = hmax(maxv);
    for (; j < len; ++j) {
      scores[j] = dotF32F16(q, kHead + j * D, D) * a.scale;
      max = scores[j] > max ? scores[j] : max;
    }
    const __m256 mv = _mm256_set1_ps(max);
    __m256 sumv = _mm256_setzero_ps();
    for (j = 0; j + 8 <= len; j += 8) {
      const __m256 e = exp256(_mm256_sub_ps(_mm256_loadu_ps(scores + j), mv));
      _mm256_storeu_ps(scores + j, e);
      sumv = _mm256_add_ps(sumv, e);
    }
    float sum = hsum(sumv);
    for (; j < len; ++j) {
      scores[j] = __builtin_expf(scores[j] - max);
      sum += scores[j];
    }
    float* out = a.out + t * a.outStride + h * D;
    for (size_t c0 = 0; c0 < nc; c0 += 8) {  // 64 output floats per pass over V
      const float* p = scores;
      const uint16_t* v = vHead + 8 * c0;
      float* o = out + 8 * c0;
      switch (nc - c0 < 8 ? nc - c0 : 8) {
        case 1: weightedRows<1>(p, v, D, len, o); break;
        case 2: weightedRows<2>(p, v, D, len, o); break;
        case 3: weightedRows<3>(p, v, D, len, o); break;
        case 4: weightedRows<4>(p, v, D, len, o); break;
        case 5: weightedRows<5>(p, v, D, len, o); break;
        case 6: weightedRows<6>(p, v, D, len, o); break;
        case 7: weightedRows<7>(p, v, D, len, o); break;
        default: weightedRows<8>(p, v, D, len, o); break;
      }
    }
    const __m256 inv = _mm256_set1_ps(1.0f / sum);
    for (size_t d = 0; d < D; d += 8) _mm256_storeu_ps(out + d, _mm256_mul_ps(_mm256_loadu_ps(out + d), inv));
  }
}

inline __m256 silu256(__m256 g, __m256 u) {
  const __m256 e = exp256(_mm256_sub_ps(_mm256_setzero_ps(), g));
  return _mm256_mul_ps(_mm256_div_ps(g, _mm256_add_ps(_mm256_set1_ps(1.0f), e)), u);
}

void siluMul256(const float* gate, const float* up, float* out, size_t n) {
  size_t i = 0;
  for (; i + 8 <= n; i += 8) _mm256_storeu_ps(out + i, silu256(_mm256_loadu_ps(gate + i), _mm256_loadu_ps(up + i)));
  if (i < n) {  // the tail under a mask (out may alias gate: both read before the write)
    const __m256i m = tailMask(n - i);
    _mm256_maskstore_ps(out + i, m, silu256(_mm256_maskload_ps(gate + i, m), _mm256_maskload_ps(up + i, m)));
  }
}

void add256(const float* a, const float* b, float* out, size_t n) {
  size_t i = 0;
  for (; i + 8 <= n; i += 8) _mm256_storeu_ps(out + i, _mm256_add_ps(_mm256_loadu_ps(a + i), _mm256_loadu_ps(b + i)));
  if (i < n) {
    const __m256i m = tailMask(n - i);
    _mm256_maskstore_ps(out + i, m, _mm256_add_ps(_mm256_maskload_ps(a + i, m), _mm256_maskload_ps(b + i, m)));
  }
}

// The reference's rms_norm: float squares summed in double (masked-off tail lanes load as zero), the same float
// scale, then (x · scale) · w element by element.
void rmsNorm256(const float* x, const float* w, float* y, size_t n, float eps) {
  __m256d s0 = _mm256_setzero_pd(), s1 = _mm256_setzero_pd();
  for (size_t i = 0; i < n; i += 8) {
    const __m256 v = n - i >= 8 ? _mm256_loadu_ps(x + i) : _mm256_maskload_ps(x + i, tailMask(n - i));
    const __m256 sq = _mm256_mul_ps(v, v);
    s0 = _mm256_add_pd(s0, _mm256_cvtps_pd(_mm256_castps256_ps128(sq)));
    s1 = _mm256_add_pd(s1, _mm256_cvtps_pd(_mm256_extractf128_ps(sq, 1)));
  }
  const __m256d s = _mm256_add_pd(s0, s1);
  __m128d h = _mm_add_pd(_mm256_castpd256_pd128(s), _mm256_extractf128_pd(s, 1));
  h = _mm_add_sd(h, _mm_unpackhi_pd(h, h));
  const float mean = static_cast<float>(_mm_cvtsd_f64(h) / static_cast<double>(n));
  const float root = _mm_cvtss_f32(_mm_sqrt_ss(_mm_set_ss(mean + eps)));  // IEEE sqrt, as std::sqrt
  const __m256 scale = _mm256_set1_ps(1.0f / root);
  for (size_t i = 0; i < n; i += 8) {
    const __m256i m = tailMask(n - i < 8 ? n - i : 8);
    __m256 v = _mm256_mul_ps(_mm256_maskload_ps(x + i, m), scale);
    if (w != nullptr) v = _mm256_mul_ps(v, _mm256_maskload_ps(w + i, m));
    _mm256_maskstore_ps(y + i, m, v);
  }
}

// x0' = x0·c − x1·s and x1' = x0·s + x1·c with separate products and one add, as the reference (the compiler must
// not contract them: this file is built with -ffp-contract=off, see hal/CMakeLists.txt).
void rope256(float* x, size_t heads, size_t headDim, size_t nDims, bool neox, const float* cs) {
  const size_t half = nDims / 2;
  const float* cosv = cs;
  const float* sinv = cs + half;
  // Adjacent pairs, 4 per vector: cosines and sines duplicated into both lanes of their pair, the sine negated in
  // the even lane, and the pair swapped for the second product: even x0·c + x1·(−s), odd x1·c + x0·s (the same
  // bytes: negation is exact and addition commutes).
  const __m256i dup = _mm256_setr_epi32(0, 0, 1, 1, 2, 2, 3, 3);
  const __m256 sign = _mm256_setr_ps(-0.0f, 0.0f, -0.0f, 0.0f, -0.0f, 0.0f, -0.0f, 0.0f);
  for (size_t h = 0; h < heads; ++h) {
    float* v = x + h * headDim;
    if (neox) {
      for (size_t i = 0; i < half; i += 8) {
        const __m256i m = tailMask(half - i < 8 ? half - i : 8);
        const __m256 c = _mm256_maskload_ps(cosv + i, m), s = _mm256_maskload_ps(sinv + i, m);
        const __m256 x0 = _mm256_maskload_ps(v + i, m), x1 = _mm256_maskload_ps(v + half + i, m);
        _mm256_maskstore_ps(v + i, m, _mm256_sub_ps(_mm256_mul_ps(x0, c), _mm256_mul_ps(x1, s)));
        _mm256_maskstore_ps(v + half + i, m, _mm256_add_ps(_mm256_mul_ps(x0, s), _mm256_mul_ps(x1, c)));
      }
      continue;
    }
    for (size_t i = 0; i < half; i += 4) {
      const size_t pairs = half - i < 4 ? half - i : 4;
      const __m256i mh = tailMask(pairs), m = tailMask(2 * pairs);
      const __m256 c = _mm256_permutevar8x32_ps(_mm256_maskload_ps(cosv + i, mh), dup);
      const __m256 s = _mm256_xor_ps(_mm256_permutevar8x32_ps(_mm256_maskload_ps(sinv + i, mh), dup), sign);
      const __m256 xv = _mm256_maskload_ps(v + 2 * i, m);
      const __m256 sw = _mm256_permute_ps(xv, 0xB1);  // (x1, x0) in each pair
      _mm256_maskstore_ps(v + 2 * i, m, _mm256_add_ps(_mm256_mul_ps(xv, c), _mm256_mul_ps(sw, s)));
    }
  }
}

// vcvtps2ph rounds to nearest even with overflow to infinity and subnormal halves, as fp32ToFp16; only NaNs
// differ (the hardware keeps the payload), so they are rewritten to the reference's sign | 0x7e00.
inline __m128i toHalf8(__m256 v) {
  __m128i h = _mm256_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  const __m256 nan = _mm256_cmp_ps(v, v, _CMP_UNORD_Q);
  if (_mm256_movemask_ps(nan) != 0) {
    const __m256i canon = _mm256_or_si256(
        _mm256_and_si256(_mm256_srli_epi32(_mm256_castps_si256(v), 16), _mm256_set1_epi32(0x8000)),
        _mm256_set1_epi32(0x7e00));
    const __m256i nanI = _mm256_castps_si256(nan);
    const __m128i canon16 = _mm_packus_epi32(_mm256_castsi256_si128(canon), _mm256_extracti128_si256(canon, 1));
    const __m128i nan16 = _mm_packs_epi32(_mm256_castsi256_si128(nanI), _mm256_extracti128_si256(nanI, 1));
    h = _mm_blendv_epi8(h, canon16, nan16);
  }
  return h;
}

void toHalf256(const float* x, uint16_t* out, size_t n) {
  size_t i = 0;
  for (; i + 8 <= n; i += 8) _mm_storeu_si128(reinterpret_cast<__m128i*>(out + i), toHalf8(_mm256_loadu_ps(x + i)));
  if (i < n) {  // no 16-bit masked store in AVX2: convert a zero-padded copy, store the tail's halves
    alignas(16) uint16_t tmp[8];
    _mm_store_si128(reinterpret_cast<__m128i*>(tmp), toHalf8(_mm256_maskload_ps(x + i, tailMask(n - i))));
    std::memcpy(out + i, tmp, (n - i) * sizeof(uint16_t));
  }
}

// ---- Q4_0 / Q5_0: eight weight rows per vector ----
// For these types the canonical per-pair arithmetic is one float chain per (row, activation) pair: for each block
// in order acc = fma(float(S), dw·dy, acc), S the exact block sum Σ w·y, no horizontal sum. Every path computes
// it in one lane of a vector whose lanes are eight weight rows, so neither the other rows in the vector (a short
// group repeats its last row and stores only its own lanes), nor m, nor the split between threads changes a bit.
// The levels are taken unsigned as stored (w + o), transposed once per block so that lane j of vector g holds
// elements 4g..4g+3 of row j; each activation block then costs eight maddubs against its broadcast 4-byte
// groups, summed in s16 (Q4_0: 8 · 2·15·127 ≤ 32767; Q5_0 levels reach 31, so a madd after every four), one madd
// to int32, minus o·Σy (from the packed activations, or summed here: the same integer), one conversion and one
// FMA for eight pairs.
template <typename Block>
struct LaneTraits;
template <>
struct LaneTraits<BlockQ4_0> {
  static constexpr int kShift = 3;  // o = 8
  static constexpr int kS16Sums = 8;
  static __m256i levels(const BlockQ4_0& b) { return nibbles(b.qs); }
};
template <>
struct LaneTraits<BlockQ5_0> {
  static constexpr int kShift = 4;  // o = 16
  static constexpr int kS16Sums = 4;
  static __m256i levels(const BlockQ5_0& b) { return fiveBit(b.qs, b.qh); }
};

// w[g], lane j = dword g of v[j] (an 8 × 8 transpose of 32-bit elements).
inline void transpose8x8(const __m256i v[8], __m256i w[8]) {
  __m256i u[8];
  for (int h = 0; h < 2; ++h) {
    const __m256i* x = v + 4 * h;
    const __m256i t0 = _mm256_unpacklo_epi32(x[0], x[1]), t1 = _mm256_unpackhi_epi32(x[0], x[1]);
    const __m256i t2 = _mm256_unpacklo_epi32(x[2], x[3]), t3 = _mm256_unpackhi_epi32(x[2], x[3]);
    u[4 * h + 0] = _mm256_unpacklo_epi64(t0, t2);  // dwords 0 | 4 of rows 4h..4h+3
    u[4 * h + 1] = _mm256_unpackhi_epi64(t0, t2);  // 1 | 5
    u[4 * h + 2] = _mm256_unpacklo_epi64(t1, t3);  // 2 | 6
    u[4 * h + 3] = _mm256_unpackhi_epi64(t1, t3);  // 3 | 7
  }
  for (int g = 0; g < 4; ++g) {
    w[g] = _mm256_inserti128_si256(u[g], _mm256_castsi256_si128(u[g + 4]), 1);
    w[g + 4] = _mm256_inserti128_si256(u[g + 4], _mm256_extracti128_si256(u[g], 1), 0);
  }
}

inline int32_t blockSumY(const BlockQ8_0& y) {
  return hsumI32(_mm256_madd_epi16(_mm256_maddubs_epi16(_mm256_set1_epi8(1), load(y.qs)), _mm256_set1_epi16(1)));
}

// Per activation row, Σy of every block as int32 (k bytes per row at xp + row·k; a quarter of them used).
void packBlockSums(const std::byte* q8Row, size_t k, size_t row, std::byte* xp) {
  const auto* y = reinterpret_cast<const BlockQ8_0*>(q8Row);
  auto* out = reinterpret_cast<int32_t*>(xp + row * k);
  for (size_t b = 0; b < k / kQk; ++b) out[b] = blockSumY(y[b]);
}

// The eight weight rows of a lane group from r0: a short group (rows < 8) repeats its last row, whose lanes are
// computed but not stored.
template <typename Block>
inline void laneRowPointers(const MatTile& t, size_t r0, size_t rows, const Block* rp[8]) {
  for (size_t j = 0; j < 8; ++j) {
    rp[j] = reinterpret_cast<const Block*>(t.w + (r0 + (j < rows ? j : rows - 1)) * t.wRowBytes);
  }
}

// One f16 field (d, dmin) of super-block i of the eight rows, as eight floats.
template <typename Block, typename Field>
inline __m256 laneHalves(const Block* const rp[8], size_t i, Field field) {
  alignas(16) uint16_t h[8];
  for (int j = 0; j < 8; ++j) h[j] = rp[j][i].*field;
  return _mm256_cvtph_ps(_mm_load_si128(reinterpret_cast<const __m128i*>(h)));
}

constexpr size_t kLaneChunk = 64;  // activations per pass over a row group's weights (2 KiB of sums)

// Rows [r0, r0 + rows) (1..8) against all m activations.
template <typename Block>
void laneRows(const MatTile& t, size_t r0, size_t rows) {
  using T = LaneTraits<Block>;
  const size_t nb = t.k / kQk;
  const Block* rp[8];
  laneRowPointers(t, r0, rows, rp);
  const __m256i storeMask = tailMask(rows);
  const __m256i ones = _mm256_set1_epi16(1);
  alignas(32) float acc[kLaneChunk][8];
  for (size_t c0 = 0; c0 < t.m; c0 += kLaneChunk) {
    const size_t n = t.m - c0 < kLaneChunk ? t.m - c0 : kLaneChunk;
    for (size_t b = 0; b < nb; ++b) {
      __m256i v[8], w[8];
      for (int j = 0; j < 8; ++j) v[j] = T::levels(rp[j][b]);
      transpose8x8(v, w);
      const __m256 dw = _mm256_cvtph_ps(_mm_setr_epi16(
          static_cast<short>(rp[0][b].d), static_cast<short>(rp[1][b].d), static_cast<short>(rp[2][b].d),
          static_cast<short>(rp[3][b].d), static_cast<short>(rp[4][b].d), static_cast<short>(rp[5][b].d),
          static_cast<short>(rp[6][b].d), static_cast<short>(rp[7][b].d)));
      for (size_t c = 0; c < n; ++c) {
        const BlockQ8_0& yb = reinterpret_cast<const BlockQ8_0*>(t.xq + (c0 + c) * t.xqStride)[b];
        const int32_t sy =
            t.xp != nullptr ? reinterpret_cast<const int32_t*>(t.xp + (c0 + c) * t.k)[b] : blockSumY(yb);
        __m256i s32 = _mm256_setzero_si256(), s16 = _mm256_setzero_si256();
        for (int g = 0; g < 8; ++g) {
          int32_t q;
          std::memcpy(&q, yb.qs + 4 * g, sizeof q);
          const __m256i p = _mm256_maddubs_epi16(w[g], _mm256_set1_epi32(q));
          s16 = g % T::kS16Sums == 0 ? p : _mm256_add_epi16(s16, p);
          if (g % T::kS16Sums == T::kS16Sums - 1) s32 = _mm256_add_epi32(s32, _mm256_madd_epi16(s16, ones));
        }
        const __m256i s = _mm256_sub_epi32(s32, _mm256_set1_epi32(sy * (1 << T::kShift)));
        const __m256 d = _mm256_mul_ps(dw, _mm256_set1_ps(h2f(yb.d)));
        const __m256 prev = b == 0 ? _mm256_setzero_ps() : _mm256_load_ps(acc[c]);
        _mm256_store_ps(acc[c], _mm256_fmadd_ps(_mm256_cvtepi32_ps(s), d, prev));
      }
    }
    for (size_t c = 0; c < n; ++c) {
      _mm256_maskstore_ps(t.y + (c0 + c) * t.yStride + r0, storeMask, _mm256_load_ps(acc[c]));
    }
  }
}

// Q8_0 prefill in the lanes of eight weight rows, with the per-pair chain of q8Tile (so decode, the 2 × 4 tiles
// and these give the same bits): acc = fma(float(S), dw·dy, acc), S the exact block sum. The signed levels are
// transposed once per block (lane j of w[g] = elements 4g..4g+3 of row j) and kept with their magnitudes; each
// activation's broadcast 4-byte group then takes w's signs, so maddubs multiplies |w| ≤ 128 by |y| ≤ 127 with the
// product's sign (a pair sum stays within s16) and one madd per group widens it to int32. On Zen 1 this costs
// 16 multiplies per activation block and no horizontal sum; the 2 × 4 tile spent as much again in its hadds.
void q8LaneRows(const MatTile& t, size_t r0, size_t rows) {
  const size_t nb = t.k / kQk;
  const BlockQ8_0* rp[8];
  laneRowPointers(t, r0, rows, rp);
  const __m256i storeMask = tailMask(rows);
  const __m256i ones = _mm256_set1_epi16(1);
  alignas(32) float acc[kLaneChunk][8];
  for (size_t c0 = 0; c0 < t.m; c0 += kLaneChunk) {
    const size_t n = t.m - c0 < kLaneChunk ? t.m - c0 : kLaneChunk;
    for (size_t b = 0; b < nb; ++b) {
      __m256i v[8], w[8], a[8];
      for (int j = 0; j < 8; ++j) v[j] = load(rp[j][b].qs);
      transpose8x8(v, w);
      for (int g = 0; g < 8; ++g) a[g] = _mm256_abs_epi8(w[g]);
      const __m256 dw = _mm256_cvtph_ps(_mm_setr_epi16(
          static_cast<short>(rp[0][b].d), static_cast<short>(rp[1][b].d), static_cast<short>(rp[2][b].d),
          static_cast<short>(rp[3][b].d), static_cast<short>(rp[4][b].d), static_cast<short>(rp[5][b].d),
          static_cast<short>(rp[6][b].d), static_cast<short>(rp[7][b].d)));
      for (size_t c = 0; c < n; ++c) {
        const BlockQ8_0& yb = reinterpret_cast<const BlockQ8_0*>(t.xq + (c0 + c) * t.xqStride)[b];
        __m256i s32 = _mm256_setzero_si256();
        for (int g = 0; g < 8; ++g) {
          int32_t q;
          std::memcpy(&q, yb.qs + 4 * g, sizeof q);
          const __m256i p = _mm256_maddubs_epi16(a[g], _mm256_sign_epi8(_mm256_set1_epi32(q), w[g]));
          s32 = _mm256_add_epi32(s32, _mm256_madd_epi16(p, ones));
        }
        const __m256 d = _mm256_mul_ps(dw, _mm256_set1_ps(h2f(yb.d)));
        const __m256 prev = b == 0 ? _mm256_setzero_ps() : _mm256_load_ps(acc[c]);
        _mm256_store_ps(acc[c], _mm256_fmadd_ps(_mm256_cvtepi32_ps(s32), d, prev));
      }
    }
    for (size_t c = 0; c < n; ++c) {
      _mm256_maskstore_ps(t.y + (c0 + c) * t.yStride + r0, storeMask, _mm256_load_ps(acc[c]));
    }
  }
}

// Q4_K prefill in the lanes of eight weight rows, with the two chains of dotK45 per pair (so the same bits). Per
// row group and super-block the levels are transposed once (lane j of wv[s][g] holds elements 4g..4g+3 of sub-block
// s of row j), and so are the scales (as s16 pairs) and the mins. Each activation then costs, per sub-block, eight
// maddubs against its broadcast 4-byte groups summed in s16 (8 · 2·15·128 ≤ 32767) and one madd by the rows'
// scales: about half the multiplies of the tile, which needs a madd per maddubs to apply a scale.
constexpr size_t kQ4KLaneMinM = 4;

void q4kLaneRows(const MatTile& t, size_t r0, size_t rows) {
  const size_t nb = t.k / kQkK;
  const BlockQ4_K* rp[8];
  laneRowPointers(t, r0, rows, rp);
  const __m256i storeMask = tailMask(rows);
  const __m256i low4 = _mm256_set1_epi8(0x0F);
  alignas(32) float accS[kLaneChunk][8], accM[kLaneChunk][8];
  for (size_t c0 = 0; c0 < t.m; c0 += kLaneChunk) {
    const size_t n = t.m - c0 < kLaneChunk ? t.m - c0 : kLaneChunk;
    for (size_t i = 0; i < nb; ++i) {
      __m256i wv[8][8], sc[8], mn[8];
      {
        __m256i v[8][8];  // [sub-block][row]: the 32 levels
        __m256i scl[8], mns[8];
        for (int j = 0; j < 8; ++j) {
          const BlockQ4_K& b = rp[j][i];
          for (int h = 0; h < 4; ++h) {
            const __m256i q4 = load(b.qs + 32 * h);
            v[2 * h][j] = _mm256_and_si256(q4, low4);
            v[2 * h + 1][j] = _mm256_and_si256(_mm256_srli_epi16(q4, 4), low4);
          }
          const __m128i sm = scalesMins(b.scales);
          const __m256i s32 = _mm256_cvtepu8_epi32(sm);  // dword s = scale s
          scl[j] = _mm256_or_si256(s32, _mm256_slli_epi32(s32, 16));
          mns[j] = _mm256_castsi128_si256(_mm_cvtepu8_epi16(_mm_srli_si128(sm, 8)));  // dword p = mins 2p, 2p+1
        }
        for (int sb = 0; sb < 8; ++sb) transpose8x8(v[sb], wv[sb]);
        transpose8x8(scl, sc);  // lane j of sc[s]: row j's scale s, twice (s16)
        transpose8x8(mns, mn);  // lane j of mn[p]: row j's mins 2p, 2p+1 (p < 4)
      }
      const __m256 dv = laneHalves(rp, i, &BlockQ4_K::d), dminv = laneHalves(rp, i, &BlockQ4_K::dmin);
      for (size_t c = 0; c < n; ++c) {
        const BlockQ8_K& yb = reinterpret_cast<const BlockQ8_K*>(t.xq + (c0 + c) * t.xqStride)[i];
        __m256i sumi = _mm256_setzero_si256();
        for (int sb = 0; sb < 8; ++sb) {
          __m256i p = _mm256_setzero_si256();
          for (int g = 0; g < 8; ++g) {
            int32_t q;
            std::memcpy(&q, yb.qs + 32 * sb + 4 * g, sizeof q);
            p = _mm256_add_epi16(p, _mm256_maddubs_epi16(wv[sb][g], _mm256_set1_epi32(q)));
          }
          sumi = _mm256_add_epi32(sumi, _mm256_madd_epi16(p, sc[sb]));
        }
        // Σ y per sub-block, in pairs: dword p = (sub-block 2p, 2p + 1).
        const __m128i ys = _mm_hadd_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(yb.bsums)),
                                          _mm_loadu_si128(reinterpret_cast<const __m128i*>(yb.bsums + 8)));
        __m256i mi = _mm256_madd_epi16(mn[0], _mm256_set1_epi32(_mm_cvtsi128_si32(ys)));
        mi = _mm256_add_epi32(mi, _mm256_madd_epi16(mn[1], _mm256_set1_epi32(_mm_extract_epi32(ys, 1))));
        mi = _mm256_add_epi32(mi, _mm256_madd_epi16(mn[2], _mm256_set1_epi32(_mm_extract_epi32(ys, 2))));
        mi = _mm256_add_epi32(mi, _mm256_madd_epi16(mn[3], _mm256_set1_epi32(_mm_extract_epi32(ys, 3))));
        const __m256 dy = _mm256_set1_ps(yb.d);
        const __m256 prevS = i == 0 ? _mm256_setzero_ps() : _mm256_load_ps(accS[c]);
        const __m256 prevM = i == 0 ? _mm256_setzero_ps() : _mm256_load_ps(accM[c]);
        _mm256_store_ps(accS[c], _mm256_fmadd_ps(_mm256_cvtepi32_ps(sumi), _mm256_mul_ps(dy, dv), prevS));
        _mm256_store_ps(accM[c], _mm256_fmadd_ps(_mm256_cvtepi32_ps(mi), _mm256_mul_ps(dy, dminv), prevM));
      }
    }
    for (size_t c = 0; c < n; ++c) {
      const __m256 r = _mm256_sub_ps(_mm256_load_ps(accS[c]), _mm256_load_ps(accM[c]));
      _mm256_maskstore_ps(t.y + (c0 + c) * t.yStride + r0, storeMask, r);
    }
  }
}

// Q6_K prefill in the lanes of eight weight rows, with the chain of dotQ6_K per pair (so the same bits). As for
// Q4_K, the levels (lane j of wv[s][g]: elements 4g..4g+3 of 32-element chunk s of row j) and the scales are
// transposed once per row group and super-block; each 16-element group then costs four maddubs summed in s16 two
// at a time (2 · 2·63·128 ≤ 32767) and two madds by the rows' scale, and the offsets one madd per two groups.
constexpr size_t kQ6KLaneMinM = 4;

void q6kLaneRows(const MatTile& t, size_t r0, size_t rows) {
  const size_t nb = t.k / kQkK;
  const BlockQ6_K* rp[8];
  laneRowPointers(t, r0, rows, rp);
  const __m256i storeMask = tailMask(rows);
  const __m256i low4 = _mm256_set1_epi8(0x0F);
  const __m256i two = _mm256_set1_epi8(3);
  alignas(32) float acc[kLaneChunk][8];
  for (size_t c0 = 0; c0 < t.m; c0 += kLaneChunk) {
    const size_t n = t.m - c0 < kLaneChunk ? t.m - c0 : kLaneChunk;
    for (size_t i = 0; i < nb; ++i) {
      __m256i wv[8][8], sc[16], sp[8];
      {
        __m256i v[8][8];  // [chunk][row]: the 32 levels
        __m256i lo[8], hi[8], pr[8];
        for (int j = 0; j < 8; ++j) {
          const BlockQ6_K& b = rp[j][i];
          for (int h = 0; h < 2; ++h) {
            const __m256i l0 = load(b.ql + 64 * h), l1 = load(b.ql + 64 * h + 32), qh = load(b.qh + 32 * h);
            v[4 * h][j] = _mm256_or_si256(_mm256_and_si256(l0, low4), _mm256_slli_epi16(_mm256_and_si256(qh, two), 4));
            v[4 * h + 1][j] = _mm256_or_si256(_mm256_and_si256(l1, low4),
                                              _mm256_slli_epi16(_mm256_and_si256(_mm256_srli_epi16(qh, 2), two), 4));
            v[4 * h + 2][j] = _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi16(l0, 4), low4),
                                              _mm256_slli_epi16(_mm256_and_si256(_mm256_srli_epi16(qh, 4), two), 4));
            v[4 * h + 3][j] = _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi16(l1, 4), low4),
                                              _mm256_slli_epi16(_mm256_and_si256(_mm256_srli_epi16(qh, 6), two), 4));
          }
          const __m128i s8 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(b.scales));
          const __m256i s0 = _mm256_cvtepi8_epi32(s8), s1 = _mm256_cvtepi8_epi32(_mm_srli_si128(s8, 8));
          const __m256i m16 = _mm256_set1_epi32(0xFFFF);
          lo[j] = _mm256_or_si256(_mm256_and_si256(s0, m16), _mm256_slli_epi32(s0, 16));  // dword s = scale s, twice
          hi[j] = _mm256_or_si256(_mm256_and_si256(s1, m16), _mm256_slli_epi32(s1, 16));  // scale 8 + s
          pr[j] = _mm256_cvtepi8_epi16(s8);  // dword p = scales 2p, 2p + 1
        }
        for (int ch = 0; ch < 8; ++ch) transpose8x8(v[ch], wv[ch]);
        transpose8x8(lo, sc);
        transpose8x8(hi, sc + 8);
        transpose8x8(pr, sp);
      }
      const __m256 dv = laneHalves(rp, i, &BlockQ6_K::d);
      for (size_t c = 0; c < n; ++c) {
        const BlockQ8_K& yb = reinterpret_cast<const BlockQ8_K*>(t.xq + (c0 + c) * t.xqStride)[i];
        __m256i sumi = _mm256_setzero_si256();
        for (int ch = 0; ch < 8; ++ch) {
          for (int half = 0; half < 2; ++half) {  // the chunk's two 16-element groups, scales 2ch and 2ch + 1
            const int8_t* q8 = yb.qs + 32 * ch + 16 * half;
            const __m256i* w4 = wv[ch] + 4 * half;
            int32_t q[4];
            std::memcpy(q, q8, sizeof q);
            const __m256i p0 = _mm256_add_epi16(_mm256_maddubs_epi16(w4[0], _mm256_set1_epi32(q[0])),
                                                _mm256_maddubs_epi16(w4[1], _mm256_set1_epi32(q[1])));
            const __m256i p1 = _mm256_add_epi16(_mm256_maddubs_epi16(w4[2], _mm256_set1_epi32(q[2])),
                                                _mm256_maddubs_epi16(w4[3], _mm256_set1_epi32(q[3])));
            const __m256i s16 = sc[2 * ch + half];
            sumi = _mm256_add_epi32(sumi, _mm256_add_epi32(_mm256_madd_epi16(p0, s16), _mm256_madd_epi16(p1, s16)));
          }
        }
        int32_t bs[8];
        std::memcpy(bs, yb.bsums, sizeof bs);
        __m256i off = _mm256_setzero_si256();
        for (int p = 0; p < 8; ++p) off = _mm256_add_epi32(off, _mm256_madd_epi16(sp[p], _mm256_set1_epi32(bs[p])));
        sumi = _mm256_sub_epi32(sumi, _mm256_slli_epi32(off, 5));
        const __m256 prev = i == 0 ? _mm256_setzero_ps() : _mm256_load_ps(acc[c]);
        _mm256_store_ps(acc[c],
                        _mm256_fmadd_ps(_mm256_cvtepi32_ps(sumi), _mm256_mul_ps(_mm256_set1_ps(yb.d), dv), prev));
      }
    }
    for (size_t c = 0; c < n; ++c) {
      _mm256_maskstore_ps(t.y + (c0 + c) * t.yStride + r0, storeMask, _mm256_load_ps(acc[c]));
    }
  }
}

// Decode: the lane tile's transposition is paid for one activation only, so here four rows (one per stream) take
// their blocks as stored, two s16 hadds and one madd leave each row's 8 partial sums per 128-bit lane, and the
// two lanes added give the four block sums S in one 128-bit vector: the same chain per row as the lane tile (the
// same S, the same dw·dy, one FMA from zero), so the same bits.
template <typename Block>
void decodeQuad(const MatTile& t, const RowQuad& rows) {
  using T = LaneTraits<Block>;
  const size_t nb = t.k / kQk;
  const Block* w[4];
  for (int k = 0; k < 4; ++k) w[k] = reinterpret_cast<const Block*>(t.w + rows.r[k] * t.wRowBytes);
  const auto* y = reinterpret_cast<const BlockQ8_0*>(t.xq);
  const auto* sums = reinterpret_cast<const int32_t*>(t.xp);
  const __m256i ones = _mm256_set1_epi16(1);
  __m128 acc = _mm_setzero_ps();
  for (size_t b = 0; b < nb; ++b) {
    if (b % 2 == 0) {
      for (int k = 0; k < 4; ++k) {
        _mm_prefetch(reinterpret_cast<const char*>(w[k] + b) + kDecodePrefetchBytes, _MM_HINT_T0);
      }
    }
    const __m256i yb = load(y[b].qs);
    const int32_t sy = sums != nullptr ? sums[b] : blockSumY(y[b]);
    // Two hadds in s16 before one madd (the pair sums of four rows, four at a time: Q4_0 4·2·15·127, Q5_0
    // 4·2·31·127 ≤ 32767), instead of four madds and three hadds in int32: the same exact S, less multiplier time.
    static_assert(T::kS16Sums >= 4);
    __m256i p[4];
    for (int k = 0; k < 4; ++k) p[k] = _mm256_maddubs_epi16(T::levels(w[k][b]), yb);
    const __m256i h = _mm256_madd_epi16(
        _mm256_hadd_epi16(_mm256_hadd_epi16(p[0], p[1]), _mm256_hadd_epi16(p[2], p[3])), ones);
    const __m128i s = _mm_sub_epi32(_mm_add_epi32(_mm256_castsi256_si128(h), _mm256_extracti128_si256(h, 1)),
                                    _mm_set1_epi32(sy * (1 << T::kShift)));
    const __m128 dw = _mm_cvtph_ps(_mm_setr_epi16(static_cast<short>(w[0][b].d), static_cast<short>(w[1][b].d),
                                                  static_cast<short>(w[2][b].d), static_cast<short>(w[3][b].d), 0, 0,
                                                  0, 0));
    acc = _mm_fmadd_ps(_mm_cvtepi32_ps(s), _mm_mul_ps(dw, _mm_set1_ps(h2f(y[b].d))), acc);
  }
  alignas(16) float out[4];
  _mm_store_ps(out, acc);
  for (int k = 0; k < 4; ++k) t.y[rows.r[k]] = out[k];
}

template <typename Block>
void laneLoop(const MatTile& t) {
  if (t.m == 1) {
    const size_t q = (t.n1 - t.n0) / 4;
    decodeStreams(t.n0, t.n0 + 4 * q, [&](const RowQuad& rows) { decodeQuad<Block>(t, rows); }, [](size_t) {});
    if (t.n0 + 4 * q < t.n1) laneRows<Block>(t, t.n0 + 4 * q, t.n1 - t.n0 - 4 * q);
    return;
  }
  for (size_t r = t.n0; r < t.n1; r += 8) laneRows<Block>(t, r, t.n1 - r < 8 ? t.n1 - r : 8);
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
  // Q8_0 accepts the packing (so a group mixing it with Q4_0 / Q5_0 keeps it) and reads the plain rows.
  bool packs(DType t) const override { return t == DType::Q8_0 || t == DType::Q4_0 || t == DType::Q5_0; }
  void packActivations(DType weight, const std::byte* actRow, size_t k, size_t m, size_t row,
                       std::byte* xp) const override {
    (void)weight, (void)m;
    packBlockSums(actRow, k, row, xp);
  }
  bool hasAttention() const override { return true; }
  void attention(const AttnTile& t, size_t i0, size_t i1, float* scores) const override {
    attentionAvx2(t, i0, i1, scores);
  }
  bool siluMul(const float* gate, const float* up, float* out, size_t n) const override {
    siluMul256(gate, up, out, n);
    return true;
  }
  bool rmsNorm(const float* x, const float* w, float* y, size_t n, float eps) const override {
    rmsNorm256(x, w, y, n, eps);
    return true;
  }
  bool add(const float* a, const float* b, float* out, size_t n) const override {
    add256(a, b, out, n);
    return true;
  }
  bool rope(float* x, size_t heads, size_t headDim, size_t nDims, bool neox, const float* cs) const override {
    rope256(x, heads, headDim, nDims, neox, cs);
    return true;
  }
  bool toHalf(const float* x, uint16_t* out, size_t n) const override {
    toHalf256(x, out, n);
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
      case DType::F32: tileLoop<float, float, dotF32>(tile, 1); break;
      case DType::F16: tileLoop<uint16_t, float, dotHalf<false>>(tile, 1); break;
      case DType::BF16: tileLoop<uint16_t, float, dotHalf<true>>(tile, 1); break;
      case DType::Q8_0: q8Loop(tile); break;
      case DType::Q4_0: laneLoop<BlockQ4_0>(tile); break;
      case DType::Q4_1: tileLoop<BlockQ4_1, BlockQ8_1, dotMin<false, BlockQ4_1>>(tile, kQk); break;
      case DType::Q5_0: laneLoop<BlockQ5_0>(tile); break;
      case DType::Q5_1: tileLoop<BlockQ5_1, BlockQ8_1, dotMin<true, BlockQ5_1>>(tile, kQk); break;
      case DType::Q4_K:
        if (tile.m == 1) {
          tileLoop<BlockQ4_K, BlockQ8_K, dotK45<false, BlockQ4_K>>(tile, kQkK);
        } else if (tile.m >= kQ4KLaneMinM) {
          for (size_t r = tile.n0; r < tile.n1; r += 8) q4kLaneRows(tile, r, tile.n1 - r < 8 ? tile.n1 - r : 8);
        } else {
          kPrefill<K45<false, BlockQ4_K>>(tile);
        }
        break;
      case DType::Q5_K:
        if (tile.m == 1) {
          tileLoop<BlockQ5_K, BlockQ8_K, dotK45<true, BlockQ5_K>>(tile, kQkK);
        } else {
          kPrefill<K45<true, BlockQ5_K>>(tile);
        }
        break;
      case DType::Q6_K:
        if (tile.m == 1) {
          tileLoop<BlockQ6_K, BlockQ8_K, dotQ6_K>(tile, kQkK);
        } else if (tile.m >= kQ6KLaneMinM) {
          for (size_t r = tile.n0; r < tile.n1; r += 8) q6kLaneRows(tile, r, tile.n1 - r < 8 ? tile.n1 - r : 8);
        } else {
          kPrefill<Q6K>(tile);
        }
        break;
      default: break;
    }
  }
};

const Avx2Kernels kAvx2;

}  // namespace

const MatKernels* avx2Kernels() { return &kAvx2; }

}  // namespace sotto::hal::compute::cpu
