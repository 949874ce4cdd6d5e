// SPDX-License-Identifier: MIT
// The public row conversions of quant.h, dispatching to the reference block code.
#include <cstring>

#include "quant_ref.h"
#include "sotto/hal/quant.h"

namespace sotto::hal {
namespace {

Status checkRow(DType type, size_t n, size_t bytes, const char* what) {
  const auto need = rowBytes(type, n);
  if (!need) {
    return makeError(Errc::invalid_argument, std::string(what) + ": " + std::to_string(n) +
                                                 " elements is not a whole number of " + dtypeName(type) + " blocks");
  }
  if (bytes < *need) {
    return makeError(Errc::invalid_argument, std::string(what) + ": buffer of " + std::to_string(bytes) +
                                                 " bytes is smaller than a " + dtypeName(type) + " row of " +
                                                 std::to_string(*need));
  }
  return {};
}

}  // namespace

Status quantizeRow(DType type, std::span<const float> x, std::span<std::byte> dst) {
  if (Status s = checkRow(type, x.size(), dst.size(), "quantizeRow"); !s) return s;
  const float* in = x.data();
  const size_t n = x.size();
  void* out = dst.data();
  namespace ref = compute::ref;
  switch (type) {
    case DType::F32: std::memcpy(out, in, n * sizeof(float)); return {};
    case DType::F16:
      for (size_t i = 0; i < n; ++i) {
        const uint16_t h = fp32ToFp16(in[i]);
        std::memcpy(static_cast<std::byte*>(out) + 2 * i, &h, 2);
      }
      return {};
    case DType::BF16:
      for (size_t i = 0; i < n; ++i) {
        const uint16_t h = fp32ToBf16(in[i]);
        std::memcpy(static_cast<std::byte*>(out) + 2 * i, &h, 2);
      }
      return {};
    case DType::Q8_0: ref::quantizeQ8_0(in, static_cast<compute::BlockQ8_0*>(out), n); return {};
    case DType::Q4_0: ref::quantizeQ4_0(in, static_cast<compute::BlockQ4_0*>(out), n); return {};
    case DType::Q4_1: ref::quantizeQ4_1(in, static_cast<compute::BlockQ4_1*>(out), n); return {};
    case DType::Q5_0: ref::quantizeQ5_0(in, static_cast<compute::BlockQ5_0*>(out), n); return {};
    case DType::Q5_1: ref::quantizeQ5_1(in, static_cast<compute::BlockQ5_1*>(out), n); return {};
    case DType::Q8_1: ref::quantizeQ8_1(in, static_cast<compute::BlockQ8_1*>(out), n); return {};
    case DType::Q4_K: ref::quantizeQ4_K(in, static_cast<compute::BlockQ4_K*>(out), n); return {};
    case DType::Q5_K: ref::quantizeQ5_K(in, static_cast<compute::BlockQ5_K*>(out), n); return {};
    case DType::Q6_K: ref::quantizeQ6_K(in, static_cast<compute::BlockQ6_K*>(out), n); return {};
    case DType::Q8_K: ref::quantizeQ8_K(in, static_cast<compute::BlockQ8_K*>(out), n); return {};
    default: break;
  }
  return makeError(Errc::unsupported, std::string("quantizeRow: no quantizer for ") + dtypeName(type));
}

Status dequantizeRow(DType type, std::span<const std::byte> src, std::span<float> y) {
  if (Status s = checkRow(type, y.size(), src.size(), "dequantizeRow"); !s) return s;
  const void* in = src.data();
  float* out = y.data();
  const size_t n = y.size();
  namespace ref = compute::ref;
  switch (type) {
    case DType::F32: std::memcpy(out, in, n * sizeof(float)); return {};
    case DType::F16:
    case DType::BF16:
      for (size_t i = 0; i < n; ++i) {
        uint16_t h;
        std::memcpy(&h, static_cast<const std::byte*>(in) + 2 * i, 2);
        out[i] = type == DType::F16 ? fp16ToFp32(h) : bf16ToFp32(h);
      }
      return {};
    case DType::Q8_0: ref::dequantizeQ8_0(static_cast<const compute::BlockQ8_0*>(in), out, n); return {};
    case DType::Q4_0: ref::dequantizeQ4_0(static_cast<const compute::BlockQ4_0*>(in), out, n); return {};
    case DType::Q4_1: ref::dequantizeQ4_1(static_cast<const compute::BlockQ4_1*>(in), out, n); return {};
    case DType::Q5_0: ref::dequantizeQ5_0(static_cast<const compute::BlockQ5_0*>(in), out, n); return {};
    case DType::Q5_1: ref::dequantizeQ5_1(static_cast<const compute::BlockQ5_1*>(in), out, n); return {};
    case DType::Q4_K: ref::dequantizeQ4_K(static_cast<const compute::BlockQ4_K*>(in), out, n); return {};
    case DType::Q5_K: ref::dequantizeQ5_K(static_cast<const compute::BlockQ5_K*>(in), out, n); return {};
    case DType::Q6_K: ref::dequantizeQ6_K(static_cast<const compute::BlockQ6_K*>(in), out, n); return {};
    default: break;
  }
  return makeError(Errc::unsupported, std::string("dequantizeRow: no dequantizer for ") + dtypeName(type));
}

}  // namespace sotto::hal
