// SPDX-License-Identifier: MIT
// Scalar op implementations (see ref_ops.h). Written for clarity and ggml's order of operations, not speed.
#include "ref_ops.h"

#include <cmath>
#include <cstring>
#include <limits>

#include "quant_ref.h"
#include "sotto/hal/quant.h"

namespace sotto::hal::compute {

size_t activationRowStride(DType wType, size_t k) {
  const DType t = vecDotType(wType);
  if (t == DType::F32) return 0;
  return alignUp(*rowBytes(t, k), kScratchAlign);
}

size_t packedActivationRowStride(DType wType, size_t k) {
  const DType act = vecDotType(wType);
  if (act == DType::Q8_K && k % 256 == 0) return k / 256 * 384;  // the kernels' packed Q8_K super-blocks
  if (act != DType::Q8_0 || k % 64 != 0) return 0;
  return k / 64 * 192;  // decode: 192 bytes per 64 elements; prefill: 64 per 32
}

std::byte* alignedScratch(std::span<std::byte> scratch) {
  const auto p = reinterpret_cast<uintptr_t>(scratch.data());
  return scratch.data() + (alignUp(p, kScratchAlign) - p);
}

namespace ref {

void quantizeActivations(DType wType, const float* x, size_t xStride, size_t k, std::byte* dst, size_t r0,
                         size_t r1) {
  const DType t = vecDotType(wType);
  const size_t stride = activationRowStride(wType, k);
  for (size_t r = r0; r < r1; ++r) {
    const float* row = x + r * xStride;
    std::byte* out = dst + r * stride;
    if (t == DType::Q8_0) {
      quantizeQ8_0(row, reinterpret_cast<BlockQ8_0*>(out), k);
    } else if (t == DType::Q8_1) {
      quantizeQ8_1(row, reinterpret_cast<BlockQ8_1*>(out), k);
    } else if (t == DType::Q8_K) {
      quantizeQ8_K(row, reinterpret_cast<BlockQ8_K*>(out), k);
    }
  }
}

float dotRow(DType wType, const std::byte* w, const void* xq, size_t k) {
  switch (wType) {
    case DType::F32: return dotF32(reinterpret_cast<const float*>(w), static_cast<const float*>(xq), k);
    case DType::F16: return dotF16(reinterpret_cast<const uint16_t*>(w), static_cast<const float*>(xq), k);
    case DType::BF16: return dotBf16(reinterpret_cast<const uint16_t*>(w), static_cast<const float*>(xq), k);
    case DType::Q8_0:
      return dotQ8_0(reinterpret_cast<const BlockQ8_0*>(w), static_cast<const BlockQ8_0*>(xq), k);
    case DType::Q4_0:
      return dotQ4_0(reinterpret_cast<const BlockQ4_0*>(w), static_cast<const BlockQ8_0*>(xq), k);
    case DType::Q4_1:
      return dotQ4_1(reinterpret_cast<const BlockQ4_1*>(w), static_cast<const BlockQ8_1*>(xq), k);
    case DType::Q5_0:
      return dotQ5_0(reinterpret_cast<const BlockQ5_0*>(w), static_cast<const BlockQ8_0*>(xq), k);
    case DType::Q5_1:
      return dotQ5_1(reinterpret_cast<const BlockQ5_1*>(w), static_cast<const BlockQ8_1*>(xq), k);
    case DType::Q4_K:
      return dotQ4_K(reinterpret_cast<const BlockQ4_K*>(w), static_cast<const BlockQ8_K*>(xq), k);
    case DType::Q5_K:
      return dotQ5_K(reinterpret_cast<const BlockQ5_K*>(w), static_cast<const BlockQ8_K*>(xq), k);
    case DType::Q6_K:
      return dotQ6_K(reinterpret_cast<const BlockQ6_K*>(w), static_cast<const BlockQ8_K*>(xq), k);
    default: return std::numeric_limits<float>::quiet_NaN();  // unreachable: types are checked before
  }
}

void matmulRows(const MatmulArgs& a, const std::byte* xq, size_t xqStride, size_t n0, size_t n1) {
  const auto* w = static_cast<const std::byte*>(a.w);
  for (size_t r = n0; r < n1; ++r) {
    const std::byte* wr = w + r * a.wRowBytes;
    for (size_t i = 0; i < a.m; ++i) {
      const void* xr = xqStride == 0 ? static_cast<const void*>(a.x + i * a.xStride)
                                     : static_cast<const void*>(xq + i * xqStride);
      a.y[i * a.yStride + r] = dotRow(a.wType, wr, xr, a.k);
    }
  }
}

void dequantizeRowTo(DType type, const std::byte* src, float* dst, size_t cols) {
  switch (type) {
    case DType::F32: std::memcpy(dst, src, cols * sizeof(float)); return;
    case DType::F16:
    case DType::BF16:
      for (size_t i = 0; i < cols; ++i) {
        uint16_t h;
        std::memcpy(&h, src + 2 * i, 2);
        dst[i] = type == DType::F16 ? fp16ToFp32(h) : bf16ToFp32(h);
      }
      return;
    case DType::Q8_0: dequantizeQ8_0(reinterpret_cast<const BlockQ8_0*>(src), dst, cols); return;
    case DType::Q4_0: dequantizeQ4_0(reinterpret_cast<const BlockQ4_0*>(src), dst, cols); return;
    case DType::Q4_1: dequantizeQ4_1(reinterpret_cast<const BlockQ4_1*>(src), dst, cols); return;
    case DType::Q5_0: dequantizeQ5_0(reinterpret_cast<const BlockQ5_0*>(src), dst, cols); return;
    case DType::Q5_1: dequantizeQ5_1(reinterpret_cast<const BlockQ5_1*>(src), dst, cols); return;
    case DType::Q4_K: dequantizeQ4_K(reinterpret_cast<const BlockQ4_K*>(src), dst, cols); return;
    case DType::Q5_K: dequantizeQ5_K(reinterpret_cast<const BlockQ5_K*>(src), dst, cols); return;
    case DType::Q6_K: dequantizeQ6_K(reinterpret_cast<const BlockQ6_K*>(src), dst, cols); return;
    default: return;  // unreachable: types are checked before
  }
}

void rmsNormRows(const RmsNormArgs& a, size_t r0, size_t r1) {
  for (size_t r = r0; r < r1; ++r) {
    const float* x = a.x + r * a.xStride;
    float* y = a.y + r * a.yStride;
    double sum = 0;
    for (size_t i = 0; i < a.cols; ++i) sum += static_cast<double>(x[i] * x[i]);
    const float mean = static_cast<float>(sum / static_cast<double>(a.cols));
    const float scale = 1.0f / std::sqrt(mean + a.eps);
    for (size_t i = 0; i < a.cols; ++i) y[i] = a.w != nullptr ? (x[i] * scale) * a.w[i] : x[i] * scale;
  }
}

namespace {
// Pair i's angle at theta = position · thetaScale^i (theta advances by repeated multiplication, as ggml's).
float ropeAngle(const RopeArgs& a, float theta, size_t i) {
  const float ff = a.freqFactors != nullptr ? a.freqFactors[i] : 1.0f;
  return a.freqScale * (theta / ff);
}
float ropeThetaScale(const RopeArgs& a) { return std::pow(a.freqBase, -2.0f / static_cast<float>(a.nDims)); }
}  // namespace

void ropeAngles(const RopeArgs& a, int32_t position, float* cosOut, float* sinOut) {
  const float thetaScale = ropeThetaScale(a);
  float theta = static_cast<float>(position);
  for (size_t i = 0; i < a.nDims / 2; ++i, theta *= thetaScale) {
    const float angle = ropeAngle(a, theta, i);
    cosOut[i] = std::cos(angle);
    sinOut[i] = std::sin(angle);
  }
}

void ropeTokens(const RopeArgs& a, size_t t0, size_t t1) {
  const float thetaScale = ropeThetaScale(a);
  const size_t half = a.nDims / 2;
  for (size_t t = t0; t < t1; ++t) {
    float* tok = a.x + t * a.tokenStride;
    float theta = static_cast<float>(a.positions[t]);
    for (size_t i = 0; i < half; ++i, theta *= thetaScale) {
      const float angle = ropeAngle(a, theta, i);
      const float c = std::cos(angle), s = std::sin(angle);
      const size_t i0 = a.mode == RopeMode::normal ? 2 * i : i;
      const size_t i1 = a.mode == RopeMode::normal ? 2 * i + 1 : i + half;
      for (size_t h = 0; h < a.heads; ++h) {
        float* v = tok + h * a.headDim;
        const float x0 = v[i0], x1 = v[i1];
        v[i0] = x0 * c - x1 * s;
        v[i1] = x0 * s + x1 * c;
      }
    }
  }
}

void softmaxRows(const SoftmaxArgs& a, size_t r0, size_t r1) {
  for (size_t r = r0; r < r1; ++r) {
    const float* x = a.x + r * a.xStride;
    float* y = a.y + r * a.yStride;
    const float* mask = a.mask != nullptr ? a.mask + r * a.maskStride : nullptr;
    float max = -std::numeric_limits<float>::infinity();
    for (size_t i = 0; i < a.cols; ++i) {
      const float v = x[i] * a.scale + (mask != nullptr ? mask[i] : 0.0f);
      y[i] = v;
      if (v > max) max = v;
    }
    if (max == -std::numeric_limits<float>::infinity()) {  // fully masked: no attention rather than NaN
      for (size_t i = 0; i < a.cols; ++i) y[i] = 0.0f;
      continue;
    }
    double sum = 0;
    for (size_t i = 0; i < a.cols; ++i) {
      y[i] = std::exp(y[i] - max);
      sum += y[i];
    }
    const float inv = static_cast<float>(1.0 / sum);
    for (size_t i = 0; i < a.cols; ++i) y[i] *= inv;
  }
}

void siluMul(const float* gate, const float* up, float* out, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    const float g = gate[i];
    out[i] = g / (1.0f + std::exp(-g)) * up[i];
  }
}

void add(const float* a, const float* b, float* out, size_t n) {
  for (size_t i = 0; i < n; ++i) out[i] = a[i] + b[i];
}

void storeKvTokens(const StoreKvArgs& a, size_t t0, size_t t1) {
  const KvCacheView& c = a.cache;
  for (size_t t = t0; t < t1; ++t) {
    for (size_t h = 0; h < c.kvHeads; ++h) {
      const float* ks = a.k + t * a.srcStride + h * c.headDim;
      const float* vs = a.v + t * a.srcStride + h * c.headDim;
      uint16_t* kd = c.k + (h * c.capacity + a.pos0 + t) * c.headDim;
      uint16_t* vd = c.v + (h * c.capacity + a.pos0 + t) * c.headDim;
      for (size_t d = 0; d < c.headDim; ++d) {
        kd[d] = fp32ToFp16(ks[d]);
        vd[d] = fp32ToFp16(vs[d]);
      }
    }
  }
}

void attentionHeads(const AttentionArgs& a, size_t i0, size_t i1, float* scores) {
  const size_t group = a.heads / a.kvHeads;
  for (size_t i = i0; i < i1; ++i) {
    const size_t t = i / a.heads, h = i % a.heads, kvh = h / group;
    const float* q = a.q + t * a.qStride + h * a.headDim;
    const uint16_t* kHead = a.k + kvh * a.capacity * a.headDim;
    const uint16_t* vHead = a.v + kvh * a.capacity * a.headDim;
    const size_t len = a.pos0 + t + 1;  // causal: positions 0 .. pos0 + t
    float max = -std::numeric_limits<float>::infinity();
    for (size_t j = 0; j < len; ++j) {
      const uint16_t* kr = kHead + j * a.headDim;
      double dot = 0;
      for (size_t d = 0; d < a.headDim; ++d) dot += static_cast<double>(q[d]) * fp16ToFp32(kr[d]);
      scores[j] = static_cast<float>(dot) * a.scale;
      if (scores[j] > max) max = scores[j];
    }
    double sum = 0;
    for (size_t j = 0; j < len; ++j) {
      scores[j] = std::exp(scores[j] - max);
      sum += scores[j];
    }
    float* out = a.out + t * a.outStride + h * a.headDim;
    for (size_t d = 0; d < a.headDim; ++d) {
      double acc = 0;
      for (size_t j = 0; j < len; ++j) acc += static_cast<double>(scores[j]) * fp16ToFp32(vHead[j * a.headDim + d]);
      out[d] = static_cast<float>(acc / sum);
    }
  }
}

}  // namespace ref
}  // namespace sotto::hal::compute
