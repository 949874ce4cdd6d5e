// SPDX-License-Identifier: MIT
// Reference block quantizers and dequantizers following ggml's published *_ref arithmetic operation by operation
// (the bytes must match GGUF files quantized by llama.cpp), and scalar dot products for the oracle backend.
// Built with -ffp-contract=off: a fused multiply-add would change the rounding and so the bytes.
#include "quant_ref.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "sotto/hal/quant.h"

namespace sotto::hal::compute::ref {
namespace {

constexpr float kGroupMaxEps = 1e-15f;

float h2f(uint16_t h) { return fp16ToFp32(h); }

// Scale and levels 0..nmax for n values with weights, allowing a (non-positive) minimum: a weighted least-squares
// search over nstep+1 candidate scales around nmax/(max-min). Returns the scale; *negMin = -min.
float fitScaleMin(int n, int nmax, const float* x, const float* weights, uint8_t* levels, float* negMin,
                  uint8_t* trial, float rmin, float rdelta, int nstep) {
  float min = x[0];
  float max = x[0];
  float sumW = weights[0];
  float sumX = sumW * x[0];
  for (int i = 1; i < n; ++i) {
    if (x[i] < min) min = x[i];
    if (x[i] > max) max = x[i];
    const float w = weights[i];
    sumW += w;
    sumX += w * x[i];
  }
  if (min > 0) min = 0;
  if (max == min) {
    std::fill(levels, levels + n, uint8_t{0});
    *negMin = -min;
    return 0.0f;
  }
  float iscale = static_cast<float>(nmax) / (max - min);
  float scale = 1 / iscale;
  float bestError = 0;
  for (int i = 0; i < n; ++i) {
    const int l = nearestInt(iscale * (x[i] - min));
    levels[i] = static_cast<uint8_t>(std::max(0, std::min(nmax, l)));
    float diff = scale * levels[i] + min - x[i];
    diff = diff * diff;
    bestError += weights[i] * diff;
  }
  for (int is = 0; is <= nstep; ++is) {
    iscale = (rmin + rdelta * static_cast<float>(is) + static_cast<float>(nmax)) / (max - min);
    float sumL = 0, sumL2 = 0, sumXL = 0;
    for (int i = 0; i < n; ++i) {
      int l = nearestInt(iscale * (x[i] - min));
      l = std::max(0, std::min(nmax, l));
      trial[i] = static_cast<uint8_t>(l);
      const float w = weights[i];
      const float fl = static_cast<float>(l);
      sumL += w * fl;
      sumL2 += w * fl * fl;
      sumXL += w * fl * x[i];
    }
    const float det = sumW * sumL2 - sumL * sumL;
    if (det > 0) {
      float thisScale = (sumW * sumXL - sumX * sumL) / det;
      float thisMin = (sumL2 * sumX - sumL * sumXL) / det;
      if (thisMin > 0) {
        thisMin = 0;
        thisScale = sumXL / sumL2;
      }
      float error = 0;
      for (int i = 0; i < n; ++i) {
        float diff = thisScale * trial[i] + thisMin - x[i];
        diff = diff * diff;
        error += weights[i] * diff;
      }
      if (error < bestError) {
        std::memcpy(levels, trial, static_cast<size_t>(n));
        bestError = error;
        scale = thisScale;
        min = thisMin;
      }
    }
  }
  *negMin = -min;
  return scale;
}

// Symmetric signed scale for n values, levels stored as l + nmax in [0, 2·nmax): x²-weighted least squares over
// 19 candidate scales (ggml's make_qx_quants with rmse_type 1, no importance matrix).
float fitScaleSymmetric(int n, int nmax, const float* x, int8_t* levels) {
  float max = 0, amax = 0;
  for (int i = 0; i < n; ++i) {
    const float ax = std::fabs(x[i]);
    if (ax > amax) {
      amax = ax;
      max = x[i];
    }
  }
  if (amax < kGroupMaxEps) {
    std::fill(levels, levels + n, int8_t{0});
    return 0.0f;
  }
  float iscale = static_cast<float>(-nmax) / max;
  float sumLX = 0, sumL2 = 0;
  for (int i = 0; i < n; ++i) {
    int l = nearestInt(iscale * x[i]);
    l = std::max(-nmax, std::min(nmax - 1, l));
    levels[i] = static_cast<int8_t>(l + nmax);
    const float w = x[i] * x[i];
    const float fl = static_cast<float>(l);
    sumLX += w * x[i] * fl;
    sumL2 += w * fl * fl;
  }
  float scale = sumL2 != 0 ? sumLX / sumL2 : 0.0f;
  float best = scale * sumLX;
  for (int is = -9; is <= 9; ++is) {
    if (is == 0) continue;
    iscale = -(static_cast<float>(nmax) + 0.1f * static_cast<float>(is)) / max;
    sumLX = sumL2 = 0;
    for (int i = 0; i < n; ++i) {
      int l = nearestInt(iscale * x[i]);
      l = std::max(-nmax, std::min(nmax - 1, l));
      const float w = x[i] * x[i];
      const float fl = static_cast<float>(l);
      sumLX += w * x[i] * fl;
      sumL2 += w * fl * fl;
    }
    if (sumL2 > 0 && sumLX * sumLX > best * sumL2) {
      for (int i = 0; i < n; ++i) {
        const int l = nearestInt(iscale * x[i]);
        levels[i] = static_cast<int8_t>(nmax + std::max(-nmax, std::min(nmax - 1, l)));
      }
      scale = sumLX / sumL2;
      best = scale * sumLX;
    }
  }
  return scale;
}

// Q4_K and Q5_K share the super-block structure: eight sub-blocks of 32 with 6-bit scales and mins.
void quantizeKBlock(const float* x, int nmax, float rmin, int nstep, uint16_t* dOut, uint16_t* dminOut,
                    uint8_t* scalesOut, uint8_t* levels) {
  uint8_t trial[32];
  float weights[32];
  float mins[kQkK / 32];
  float scales[kQkK / 32];
  float maxScale = 0, maxMin = 0;
  for (int j = 0; j < kQkK / 32; ++j) {
    float sumX2 = 0;
    for (int l = 0; l < 32; ++l) sumX2 += x[32 * j + l] * x[32 * j + l];
    const float avX = std::sqrt(sumX2 / 32);
    for (int l = 0; l < 32; ++l) weights[l] = avX + std::fabs(x[32 * j + l]);
    scales[j] = fitScaleMin(32, nmax, x + 32 * j, weights, levels + 32 * j, &mins[j], trial, rmin, 0.1f, nstep);
    if (scales[j] > maxScale) maxScale = scales[j];
    if (mins[j] > maxMin) maxMin = mins[j];
  }
  const float invScale = maxScale > 0 ? 63.f / maxScale : 0.f;
  const float invMin = maxMin > 0 ? 63.f / maxMin : 0.f;
  std::memset(scalesOut, 0, kKScaleBytes);
  for (int j = 0; j < kQkK / 32; ++j) {
    const uint8_t ls = static_cast<uint8_t>(std::min(63, nearestInt(invScale * scales[j])));
    const uint8_t lm = static_cast<uint8_t>(std::min(63, nearestInt(invMin * mins[j])));
    if (j < 4) {
      scalesOut[j] = ls;
      scalesOut[j + 4] = lm;
    } else {
      scalesOut[j + 4] = static_cast<uint8_t>((ls & 0xF) | ((lm & 0xF) << 4));
      scalesOut[j - 4] = static_cast<uint8_t>(scalesOut[j - 4] | ((ls >> 4) << 6));
      scalesOut[j] = static_cast<uint8_t>(scalesOut[j] | ((lm >> 4) << 6));
    }
  }
  *dOut = fp32ToFp16(maxScale / 63.f);
  *dminOut = fp32ToFp16(maxMin / 63.f);
  for (int j = 0; j < kQkK / 32; ++j) {
    uint8_t sc = 0, m = 0;
    scaleMinK4(j, scalesOut, &sc, &m);
    const float d = h2f(*dOut) * sc;
    if (d == 0.0f) continue;  // keep the fitted levels, as ggml does
    const float dm = h2f(*dminOut) * m;
    for (int ii = 0; ii < 32; ++ii) {
      const int l = nearestInt((x[32 * j + ii] + dm) / d);
      levels[32 * j + ii] = static_cast<uint8_t>(std::max(0, std::min(nmax, l)));
    }
  }
}

// min/max of one 32-element block (Q4_1, Q5_1).
void blockMinMax(const float* x, float* min, float* max) {
  *min = std::numeric_limits<float>::max();
  *max = -std::numeric_limits<float>::max();
  for (int j = 0; j < kQk; ++j) {
    if (x[j] < *min) *min = x[j];
    if (x[j] > *max) *max = x[j];
  }
}

uint32_t loadQh(const uint8_t* qh) {
  uint32_t v;
  std::memcpy(&v, qh, sizeof v);
  return v;
}

}  // namespace

void quantizeQ4_1(const float* x, BlockQ4_1* y, size_t n) {
  for (size_t i = 0; i < n / kQk; ++i, x += kQk) {
    float min = 0, max = 0;
    blockMinMax(x, &min, &max);
    const float d = (max - min) / 15;
    const float id = d != 0.0f ? 1.0f / d : 0.0f;
    y[i].d = fp32ToFp16(d);
    y[i].m = fp32ToFp16(min);
    for (int j = 0; j < kQk / 2; ++j) {
      // ggml truncates through int8_t: (x - min)·id lies in [0, 15], so +0.5 rounds to 0..15 (clamped).
      const int q0 = std::min(15, static_cast<int>(static_cast<int8_t>((x[j] - min) * id + 0.5f)));
      const int q1 = std::min(15, static_cast<int>(static_cast<int8_t>((x[j + kQk / 2] - min) * id + 0.5f)));
      y[i].qs[j] = static_cast<uint8_t>(q0 | (q1 << 4));
    }
  }
}

void quantizeQ5_0(const float* x, BlockQ5_0* y, size_t n) {
  for (size_t i = 0; i < n / kQk; ++i, x += kQk) {
    float amax = 0, max = 0;
    for (int j = 0; j < kQk; ++j) {
      if (amax < std::fabs(x[j])) {
        amax = std::fabs(x[j]);
        max = x[j];
      }
    }
    const float d = max / -16;
    const float id = d != 0.0f ? 1.0f / d : 0.0f;
    y[i].d = fp32ToFp16(d);
    uint32_t qh = 0;
    for (int j = 0; j < kQk / 2; ++j) {
      const int q0 = std::min(31, static_cast<int>(static_cast<int8_t>(x[j] * id + 16.5f)));
      const int q1 = std::min(31, static_cast<int>(static_cast<int8_t>(x[j + kQk / 2] * id + 16.5f)));
      y[i].qs[j] = static_cast<uint8_t>((q0 & 0xF) | ((q1 & 0xF) << 4));
      qh |= static_cast<uint32_t>((q0 & 0x10) >> 4) << j;
      qh |= static_cast<uint32_t>((q1 & 0x10) >> 4) << (j + kQk / 2);
    }
    std::memcpy(y[i].qh, &qh, sizeof qh);
  }
}

void quantizeQ5_1(const float* x, BlockQ5_1* y, size_t n) {
  for (size_t i = 0; i < n / kQk; ++i, x += kQk) {
    float min = 0, max = 0;
    blockMinMax(x, &min, &max);
    const float d = (max - min) / 31;
    const float id = d != 0.0f ? 1.0f / d : 0.0f;
    y[i].d = fp32ToFp16(d);
    y[i].m = fp32ToFp16(min);
    uint32_t qh = 0;
    for (int j = 0; j < kQk / 2; ++j) {
      const int q0 = static_cast<uint8_t>((x[j] - min) * id + 0.5f);
      const int q1 = static_cast<uint8_t>((x[j + kQk / 2] - min) * id + 0.5f);
      y[i].qs[j] = static_cast<uint8_t>((q0 & 0xF) | ((q1 & 0xF) << 4));
      qh |= static_cast<uint32_t>((q0 & 0x10) >> 4) << j;
      qh |= static_cast<uint32_t>((q1 & 0x10) >> 4) << (j + kQk / 2);
    }
    std::memcpy(y[i].qh, &qh, sizeof qh);
  }
}

void quantizeQ8_1(const float* x, BlockQ8_1* y, size_t n) {
  for (size_t i = 0; i < n / kQk; ++i, x += kQk) {
    float amax = 0;
    for (int j = 0; j < kQk; ++j) amax = std::max(amax, std::fabs(x[j]));
    const float d = amax / 127;
    const float id = d != 0.0f ? 1.0f / d : 0.0f;
    y[i].d = fp32ToFp16(d);
    int sum = 0;
    for (int j = 0; j < kQk; ++j) {
      y[i].qs[j] = static_cast<int8_t>(std::round(x[j] * id));  // ties away from zero, as ggml's roundf
      sum += y[i].qs[j];
    }
    y[i].s = fp32ToFp16(static_cast<float>(sum) * d);
  }
}

int nearestInt(float v) {
  // Adding 1.5·2^23 leaves the rounded integer in the low mantissa bits (round-to-nearest-even of the FPU).
  const float shifted = v + 12582912.f;
  uint32_t bits;
  std::memcpy(&bits, &shifted, sizeof bits);
  return static_cast<int>(bits & 0x007fffffu) - 0x00400000;
}

void scaleMinK4(int j, const uint8_t* q, uint8_t* scale, uint8_t* min) {
  if (j < 4) {
    *scale = q[j] & 63;
    *min = q[j + 4] & 63;
  } else {
    *scale = static_cast<uint8_t>((q[j + 4] & 0xF) | ((q[j - 4] >> 6) << 4));
    *min = static_cast<uint8_t>((q[j + 4] >> 4) | ((q[j] >> 6) << 4));
  }
}

void quantizeQ8_0(const float* x, BlockQ8_0* y, size_t n) {
  for (size_t i = 0; i < n / kQk; ++i, x += kQk) {
    float amax = 0;
    for (int j = 0; j < kQk; ++j) amax = std::max(amax, std::fabs(x[j]));
    const float d = amax / 127;
    const float id = d != 0.0f ? 1.0f / d : 0.0f;
    y[i].d = fp32ToFp16(d);
    for (int j = 0; j < kQk; ++j) y[i].qs[j] = static_cast<int8_t>(std::round(x[j] * id));  // ties away from zero
  }
}

void quantizeQ4_0(const float* x, BlockQ4_0* y, size_t n) {
  for (size_t i = 0; i < n / kQk; ++i, x += kQk) {
    float amax = 0, max = 0;
    for (int j = 0; j < kQk; ++j) {
      if (amax < std::fabs(x[j])) {
        amax = std::fabs(x[j]);
        max = x[j];
      }
    }
    const float d = max / -8;
    const float id = d != 0.0f ? 1.0f / d : 0.0f;
    y[i].d = fp32ToFp16(d);
    for (int j = 0; j < kQk / 2; ++j) {
      // x·id lies in [-8, 8]; +8.5 and truncation round to 0..16, clamped to 15.
      const int q0 = std::min(15, static_cast<int>(x[j] * id + 8.5f));
      const int q1 = std::min(15, static_cast<int>(x[j + kQk / 2] * id + 8.5f));
      y[i].qs[j] = static_cast<uint8_t>(q0 | (q1 << 4));
    }
  }
}

void quantizeQ4_K(const float* x, BlockQ4_K* y, size_t n) {
  uint8_t levels[kQkK];
  for (size_t i = 0; i < n / kQkK; ++i, x += kQkK) {
    quantizeKBlock(x, 15, -1.f, 20, &y[i].d, &y[i].dmin, y[i].scales, levels);
    uint8_t* q = y[i].qs;
    for (int j = 0; j < kQkK; j += 64, q += 32) {
      for (int l = 0; l < 32; ++l) q[l] = static_cast<uint8_t>(levels[j + l] | (levels[j + l + 32] << 4));
    }
  }
}

void quantizeQ5_K(const float* x, BlockQ5_K* y, size_t n) {
  uint8_t levels[kQkK];
  for (size_t i = 0; i < n / kQkK; ++i, x += kQkK) {
    quantizeKBlock(x, 31, -0.5f, 15, &y[i].d, &y[i].dmin, y[i].scales, levels);
    uint8_t* qh = y[i].qh;
    uint8_t* ql = y[i].qs;
    std::memset(qh, 0, sizeof y[i].qh);
    uint8_t m1 = 1, m2 = 2;
    for (int j = 0; j < kQkK; j += 64, ql += 32) {
      for (int l = 0; l < 32; ++l) {
        int l1 = levels[j + l];
        if (l1 > 15) {
          l1 -= 16;
          qh[l] = static_cast<uint8_t>(qh[l] | m1);
        }
        int l2 = levels[j + l + 32];
        if (l2 > 15) {
          l2 -= 16;
          qh[l] = static_cast<uint8_t>(qh[l] | m2);
        }
        ql[l] = static_cast<uint8_t>(l1 | (l2 << 4));
      }
      m1 = static_cast<uint8_t>(m1 << 2);
      m2 = static_cast<uint8_t>(m2 << 2);
    }
  }
}

void quantizeQ6_K(const float* x, BlockQ6_K* y, size_t n) {
  int8_t levels[kQkK];
  float scales[kQkK / 16];
  for (size_t i = 0; i < n / kQkK; ++i, x += kQkK) {
    float maxScale = 0, maxAbsScale = 0;
    for (int ib = 0; ib < kQkK / 16; ++ib) {
      const float scale = fitScaleSymmetric(16, 32, x + 16 * ib, levels + 16 * ib);
      scales[ib] = scale;
      const float absScale = std::fabs(scale);
      if (absScale > maxAbsScale) {
        maxAbsScale = absScale;
        maxScale = scale;
      }
    }
    if (maxAbsScale < kGroupMaxEps) {
      std::memset(&y[i], 0, sizeof y[i]);
      y[i].d = fp32ToFp16(0.f);
      continue;
    }
    const float iscale = -128.f / maxScale;
    y[i].d = fp32ToFp16(1 / iscale);
    for (int ib = 0; ib < kQkK / 16; ++ib) {
      y[i].scales[ib] = static_cast<int8_t>(std::min(127, nearestInt(iscale * scales[ib])));
    }
    for (int j = 0; j < kQkK / 16; ++j) {
      const float d = h2f(y[i].d) * y[i].scales[j];
      if (d == 0.0f) continue;
      for (int ii = 0; ii < 16; ++ii) {
        const int l = nearestInt(x[16 * j + ii] / d);
        levels[16 * j + ii] = static_cast<int8_t>(std::max(-32, std::min(31, l)) + 32);
      }
    }
    uint8_t* ql = y[i].ql;
    uint8_t* qh = y[i].qh;
    for (int j = 0; j < kQkK; j += 128, ql += 64, qh += 32) {
      for (int l = 0; l < 32; ++l) {
        const int q1 = levels[j + l] & 0xF;
        const int q2 = levels[j + l + 32] & 0xF;
        const int q3 = levels[j + l + 64] & 0xF;
        const int q4 = levels[j + l + 96] & 0xF;
        ql[l] = static_cast<uint8_t>(q1 | (q3 << 4));
        ql[l + 32] = static_cast<uint8_t>(q2 | (q4 << 4));
        qh[l] = static_cast<uint8_t>((levels[j + l] >> 4) | ((levels[j + l + 32] >> 4) << 2) |
                                     ((levels[j + l + 64] >> 4) << 4) | ((levels[j + l + 96] >> 4) << 6));
      }
    }
  }
}

void quantizeQ8_K(const float* x, BlockQ8_K* y, size_t n) {
  for (size_t i = 0; i < n / kQkK; ++i, x += kQkK) {
    float max = 0, amax = 0;
    for (int j = 0; j < kQkK; ++j) {
      const float ax = std::fabs(x[j]);
      if (ax > amax) {
        amax = ax;
        max = x[j];
      }
    }
    if (amax == 0.0f) {
      std::memset(&y[i], 0, sizeof y[i]);
      continue;
    }
    // -127 (not -128): |q| ≤ 127 keeps the SIMD kernels' u8·s8 pair sums from saturating.
    const float iscale = -127.f / max;
    for (int j = 0; j < kQkK; ++j) y[i].qs[j] = static_cast<int8_t>(std::min(127, nearestInt(iscale * x[j])));
    for (int j = 0; j < kQkK / 16; ++j) {
      int sum = 0;
      for (int ii = 0; ii < 16; ++ii) sum += y[i].qs[j * 16 + ii];
      y[i].bsums[j] = static_cast<int16_t>(sum);
    }
    y[i].d = 1 / iscale;
  }
}

void dequantizeQ8_0(const BlockQ8_0* x, float* y, size_t n) {
  for (size_t i = 0; i < n / kQk; ++i, y += kQk) {
    const float d = h2f(x[i].d);
    for (int j = 0; j < kQk; ++j) y[j] = static_cast<float>(x[i].qs[j]) * d;
  }
}

void dequantizeQ4_0(const BlockQ4_0* x, float* y, size_t n) {
  for (size_t i = 0; i < n / kQk; ++i, y += kQk) {
    const float d = h2f(x[i].d);
    for (int j = 0; j < kQk / 2; ++j) {
      y[j] = static_cast<float>((x[i].qs[j] & 0xF) - 8) * d;
      y[j + kQk / 2] = static_cast<float>((x[i].qs[j] >> 4) - 8) * d;
    }
  }
}

void dequantizeQ4_1(const BlockQ4_1* x, float* y, size_t n) {
  for (size_t i = 0; i < n / kQk; ++i, y += kQk) {
    const float d = h2f(x[i].d);
    const float m = h2f(x[i].m);
    for (int j = 0; j < kQk / 2; ++j) {
      y[j] = static_cast<float>(x[i].qs[j] & 0xF) * d + m;
      y[j + kQk / 2] = static_cast<float>(x[i].qs[j] >> 4) * d + m;
    }
  }
}

void dequantizeQ5_0(const BlockQ5_0* x, float* y, size_t n) {
  for (size_t i = 0; i < n / kQk; ++i, y += kQk) {
    const float d = h2f(x[i].d);
    const uint32_t qh = loadQh(x[i].qh);
    for (int j = 0; j < kQk / 2; ++j) {
      const int h0 = static_cast<int>(((qh >> j) << 4) & 0x10);
      const int h1 = static_cast<int>((qh >> (j + 12)) & 0x10);
      y[j] = static_cast<float>(((x[i].qs[j] & 0xF) | h0) - 16) * d;
      y[j + kQk / 2] = static_cast<float>(((x[i].qs[j] >> 4) | h1) - 16) * d;
    }
  }
}

void dequantizeQ5_1(const BlockQ5_1* x, float* y, size_t n) {
  for (size_t i = 0; i < n / kQk; ++i, y += kQk) {
    const float d = h2f(x[i].d);
    const float m = h2f(x[i].m);
    const uint32_t qh = loadQh(x[i].qh);
    for (int j = 0; j < kQk / 2; ++j) {
      const int h0 = static_cast<int>(((qh >> j) << 4) & 0x10);
      const int h1 = static_cast<int>((qh >> (j + 12)) & 0x10);
      y[j] = static_cast<float>((x[i].qs[j] & 0xF) | h0) * d + m;
      y[j + kQk / 2] = static_cast<float>((x[i].qs[j] >> 4) | h1) * d + m;
    }
  }
}

void dequantizeQ4_K(const BlockQ4_K* x, float* y, size_t n) {
  for (size_t i = 0; i < n / kQkK; ++i) {
    const float d = h2f(x[i].d);
    const float dmin = h2f(x[i].dmin);
    const uint8_t* q = x[i].qs;
    for (int j = 0, is = 0; j < kQkK; j += 64, q += 32, is += 2) {
      uint8_t sc = 0, m = 0;
      scaleMinK4(is, x[i].scales, &sc, &m);
      const float d1 = d * sc, m1 = dmin * m;
      scaleMinK4(is + 1, x[i].scales, &sc, &m);
      const float d2 = d * sc, m2 = dmin * m;
      for (int l = 0; l < 32; ++l) *y++ = d1 * static_cast<float>(q[l] & 0xF) - m1;
      for (int l = 0; l < 32; ++l) *y++ = d2 * static_cast<float>(q[l] >> 4) - m2;
    }
  }
}

void dequantizeQ5_K(const BlockQ5_K* x, float* y, size_t n) {
  for (size_t i = 0; i < n / kQkK; ++i) {
    const float d = h2f(x[i].d);
    const float dmin = h2f(x[i].dmin);
    const uint8_t* ql = x[i].qs;
    const uint8_t* qh = x[i].qh;
    uint8_t u1 = 1, u2 = 2;
    for (int j = 0, is = 0; j < kQkK; j += 64, ql += 32, is += 2) {
      uint8_t sc = 0, m = 0;
      scaleMinK4(is, x[i].scales, &sc, &m);
      const float d1 = d * sc, m1 = dmin * m;
      scaleMinK4(is + 1, x[i].scales, &sc, &m);
      const float d2 = d * sc, m2 = dmin * m;
      for (int l = 0; l < 32; ++l) *y++ = d1 * static_cast<float>((ql[l] & 0xF) + (qh[l] & u1 ? 16 : 0)) - m1;
      for (int l = 0; l < 32; ++l) *y++ = d2 * static_cast<float>((ql[l] >> 4) + (qh[l] & u2 ? 16 : 0)) - m2;
      u1 = static_cast<uint8_t>(u1 << 2);
      u2 = static_cast<uint8_t>(u2 << 2);
    }
  }
}

void dequantizeQ6_K(const BlockQ6_K* x, float* y, size_t n) {
  for (size_t i = 0; i < n / kQkK; ++i) {
    const float d = h2f(x[i].d);
    const uint8_t* ql = x[i].ql;
    const uint8_t* qh = x[i].qh;
    const int8_t* sc = x[i].scales;
    for (int j = 0; j < kQkK; j += 128, y += 128, ql += 64, qh += 32, sc += 8) {
      for (int l = 0; l < 32; ++l) {
        const int is = l / 16;
        const int q1 = ((ql[l] & 0xF) | (((qh[l] >> 0) & 3) << 4)) - 32;
        const int q2 = ((ql[l + 32] & 0xF) | (((qh[l] >> 2) & 3) << 4)) - 32;
        const int q3 = ((ql[l] >> 4) | (((qh[l] >> 4) & 3) << 4)) - 32;
        const int q4 = ((ql[l + 32] >> 4) | (((qh[l] >> 6) & 3) << 4)) - 32;
        y[l] = d * sc[is] * static_cast<float>(q1);
        y[l + 32] = d * sc[is + 2] * static_cast<float>(q2);
        y[l + 64] = d * sc[is + 4] * static_cast<float>(q3);
        y[l + 96] = d * sc[is + 6] * static_cast<float>(q4);
      }
    }
  }
}

void dequantizeQ8_K(const BlockQ8_K* x, float* y, size_t n) {
  for (size_t i = 0; i < n / kQkK; ++i, y += kQkK) {
    for (int j = 0; j < kQkK; ++j) y[j] = x[i].d * static_cast<float>(x[i].qs[j]);
  }
}

float dotQ8_0(const BlockQ8_0* w, const BlockQ8_0* y, size_t n) {
  float sum = 0;
  for (size_t i = 0; i < n / kQk; ++i) {
    int sumi = 0;
    for (int j = 0; j < kQk; ++j) sumi += w[i].qs[j] * y[i].qs[j];
    sum += static_cast<float>(sumi) * (h2f(w[i].d) * h2f(y[i].d));
  }
  return sum;
}

float dotQ4_0(const BlockQ4_0* w, const BlockQ8_0* y, size_t n) {
  float sum = 0;
  for (size_t i = 0; i < n / kQk; ++i) {
    int sumi = 0;
    for (int j = 0; j < kQk / 2; ++j) {
      sumi += ((w[i].qs[j] & 0xF) - 8) * y[i].qs[j];
      sumi += ((w[i].qs[j] >> 4) - 8) * y[i].qs[j + kQk / 2];
    }
    sum += static_cast<float>(sumi) * (h2f(w[i].d) * h2f(y[i].d));
  }
  return sum;
}

float dotQ4_1(const BlockQ4_1* w, const BlockQ8_1* y, size_t n) {
  float sum = 0;
  for (size_t i = 0; i < n / kQk; ++i) {
    int sumi = 0;
    for (int j = 0; j < kQk / 2; ++j) {
      sumi += (w[i].qs[j] & 0xF) * y[i].qs[j];
      sumi += (w[i].qs[j] >> 4) * y[i].qs[j + kQk / 2];
    }
    sum += (h2f(w[i].d) * h2f(y[i].d)) * static_cast<float>(sumi) + h2f(w[i].m) * h2f(y[i].s);
  }
  return sum;
}

float dotQ5_0(const BlockQ5_0* w, const BlockQ8_0* y, size_t n) {
  float sum = 0;
  for (size_t i = 0; i < n / kQk; ++i) {
    const uint32_t qh = loadQh(w[i].qh);
    int sumi = 0;
    for (int j = 0; j < kQk / 2; ++j) {
      const int h0 = static_cast<int>(((qh >> j) << 4) & 0x10);
      const int h1 = static_cast<int>((qh >> (j + 12)) & 0x10);
      sumi += (((w[i].qs[j] & 0xF) | h0) - 16) * y[i].qs[j];
      sumi += (((w[i].qs[j] >> 4) | h1) - 16) * y[i].qs[j + kQk / 2];
    }
    sum += (h2f(w[i].d) * h2f(y[i].d)) * static_cast<float>(sumi);
  }
  return sum;
}

float dotQ5_1(const BlockQ5_1* w, const BlockQ8_1* y, size_t n) {
  float sum = 0;
  for (size_t i = 0; i < n / kQk; ++i) {
    const uint32_t qh = loadQh(w[i].qh);
    int sumi = 0;
    for (int j = 0; j < kQk / 2; ++j) {
      const int h0 = static_cast<int>(((qh >> j) << 4) & 0x10);
      const int h1 = static_cast<int>((qh >> (j + 12)) & 0x10);
      sumi += ((w[i].qs[j] & 0xF) | h0) * y[i].qs[j];
      sumi += ((w[i].qs[j] >> 4) | h1) * y[i].qs[j + kQk / 2];
    }
    sum += (h2f(w[i].d) * h2f(y[i].d)) * static_cast<float>(sumi) + h2f(w[i].m) * h2f(y[i].s);
  }
  return sum;
}

float dotQ4_K(const BlockQ4_K* w, const BlockQ8_K* y, size_t n) {
  float sum = 0;
  for (size_t i = 0; i < n / kQkK; ++i) {
    int sumi = 0, sumMins = 0;
    const uint8_t* q = w[i].qs;
    const int8_t* q8 = y[i].qs;
    for (int j = 0; j < kQkK / 64; ++j, q += 32, q8 += 64) {
      uint8_t sc1 = 0, m1 = 0, sc2 = 0, m2 = 0;
      scaleMinK4(2 * j, w[i].scales, &sc1, &m1);
      scaleMinK4(2 * j + 1, w[i].scales, &sc2, &m2);
      int s1 = 0, s2 = 0;
      for (int l = 0; l < 32; ++l) {
        s1 += (q[l] & 0xF) * q8[l];
        s2 += (q[l] >> 4) * q8[l + 32];
      }
      sumi += sc1 * s1 + sc2 * s2;
      sumMins += m1 * (y[i].bsums[4 * j] + y[i].bsums[4 * j + 1]) + m2 * (y[i].bsums[4 * j + 2] + y[i].bsums[4 * j + 3]);
    }
    const float d = y[i].d * h2f(w[i].d);
    const float dmin = y[i].d * h2f(w[i].dmin);
    sum += d * static_cast<float>(sumi) - dmin * static_cast<float>(sumMins);
  }
  return sum;
}

float dotQ5_K(const BlockQ5_K* w, const BlockQ8_K* y, size_t n) {
  float sum = 0;
  for (size_t i = 0; i < n / kQkK; ++i) {
    int sumi = 0, sumMins = 0;
    const uint8_t* q = w[i].qs;
    const int8_t* q8 = y[i].qs;
    for (int j = 0; j < kQkK / 64; ++j, q += 32, q8 += 64) {
      uint8_t sc1 = 0, m1 = 0, sc2 = 0, m2 = 0;
      scaleMinK4(2 * j, w[i].scales, &sc1, &m1);
      scaleMinK4(2 * j + 1, w[i].scales, &sc2, &m2);
      const int b1 = 1 << (2 * j), b2 = 1 << (2 * j + 1);
      int s1 = 0, s2 = 0;
      for (int l = 0; l < 32; ++l) {
        s1 += ((q[l] & 0xF) + (w[i].qh[l] & b1 ? 16 : 0)) * q8[l];
        s2 += ((q[l] >> 4) + (w[i].qh[l] & b2 ? 16 : 0)) * q8[l + 32];
      }
      sumi += sc1 * s1 + sc2 * s2;
      sumMins += m1 * (y[i].bsums[4 * j] + y[i].bsums[4 * j + 1]) + m2 * (y[i].bsums[4 * j + 2] + y[i].bsums[4 * j + 3]);
    }
    const float d = y[i].d * h2f(w[i].d);
    const float dmin = y[i].d * h2f(w[i].dmin);
    sum += d * static_cast<float>(sumi) - dmin * static_cast<float>(sumMins);
  }
  return sum;
}

float dotQ6_K(const BlockQ6_K* w, const BlockQ8_K* y, size_t n) {
  float sum = 0;
  for (size_t i = 0; i < n / kQkK; ++i) {
    int sumi = 0;
    const uint8_t* ql = w[i].ql;
    const uint8_t* qh = w[i].qh;
    const int8_t* sc = w[i].scales;
    const int8_t* q8 = y[i].qs;
    for (int j = 0; j < kQkK; j += 128, ql += 64, qh += 32, sc += 8, q8 += 128) {
      int s[8] = {};
      for (int l = 0; l < 32; ++l) {
        const int is = l / 16;
        s[is + 0] += (((ql[l] & 0xF) | (((qh[l] >> 0) & 3) << 4)) - 32) * q8[l];
        s[is + 2] += (((ql[l + 32] & 0xF) | (((qh[l] >> 2) & 3) << 4)) - 32) * q8[l + 32];
        s[is + 4] += (((ql[l] >> 4) | (((qh[l] >> 4) & 3) << 4)) - 32) * q8[l + 64];
        s[is + 6] += (((ql[l + 32] >> 4) | (((qh[l] >> 6) & 3) << 4)) - 32) * q8[l + 96];
      }
      for (int g = 0; g < 8; ++g) sumi += sc[g] * s[g];
    }
    sum += y[i].d * h2f(w[i].d) * static_cast<float>(sumi);
  }
  return sum;
}

// The float types accumulate in double: the oracle should be more accurate than the kernels it judges.
float dotF32(const float* w, const float* x, size_t n) {
  double sum = 0;
  for (size_t i = 0; i < n; ++i) sum += static_cast<double>(w[i]) * x[i];
  return static_cast<float>(sum);
}

float dotF16(const uint16_t* w, const float* x, size_t n) {
  double sum = 0;
  for (size_t i = 0; i < n; ++i) sum += static_cast<double>(h2f(w[i])) * x[i];
  return static_cast<float>(sum);
}

float dotBf16(const uint16_t* w, const float* x, size_t n) {
  double sum = 0;
  for (size_t i = 0; i < n; ++i) sum += static_cast<double>(bf16ToFp32(w[i])) * x[i];
  return static_cast<float>(sum);
}

}  // namespace sotto::hal::compute::ref
