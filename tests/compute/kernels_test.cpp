// SPDX-License-Identifier: MIT
// The cpu backend's per-ISA activation quantizers give the reference's bytes exactly (matmul results are compared
// with tolerances elsewhere; these bytes also feed the prefix cache and must not depend on the CPU's ISA).
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "common/blocks.h"
#include "common/quant_ref.h"
#include "common/ref_ops.h"
#include "cpu/kernels.h"
#include "sotto/hal/cpu.h"
#include "sotto/hal/quant.h"

namespace sotto::test {
namespace {

using hal::DType;
namespace cpu = hal::compute::cpu;
namespace ref = hal::compute::ref;

std::vector<const cpu::MatKernels*> usableSets() {
  std::vector<const cpu::MatKernels*> sets;
  [[maybe_unused]] const hal::CpuFeatures& f = hal::cpuFeatures();
#if defined(__x86_64__)
  if (f.avx2 && f.fma && f.f16c && f.avx512f && f.avx512bw && f.avx512vl && f.avx512vnni) {
    sets.push_back(cpu::avx512VnniKernels());
  }
  if (f.avx2 && f.fma && f.f16c) sets.push_back(cpu::avx2Kernels());
#elif defined(__aarch64__)
  if (f.dotprod) sets.push_back(cpu::neonDotKernels());
  sets.push_back(cpu::neonKernels());
#endif
  return sets;
}

// Rows that hit the rounding edges: exact halves after scaling (ties), zero blocks, one-hot blocks, repeated
// magnitudes of both signs, tiny and huge values.
std::vector<std::vector<float>> edgeRows(size_t k, std::mt19937& rng) {
  std::vector<std::vector<float>> rows;
  std::normal_distribution<float> nd(0.0f, 1.0f);
  std::vector<float> r(k);
  for (float& x : r) x = nd(rng);
  rows.push_back(r);
  // 127 in each block makes the scale exactly 1: the others land on exact halves (ties) after scaling.
  for (size_t j = 0; j < k; ++j) r[j] = j % 32 == 0 ? 127.0f : static_cast<float>(static_cast<int>(j % 127) - 63) + 0.5f;
  rows.push_back(r);
  std::fill(r.begin(), r.end(), 0.0f);
  rows.push_back(r);
  r[k / 3] = -3.0f;
  rows.push_back(r);
  for (size_t j = 0; j < k; ++j) r[j] = (j % 2 ? 1.0f : -1.0f) * 2.5f;  // equal magnitudes, both signs
  rows.push_back(r);
  for (size_t j = 0; j < k; ++j) r[j] = nd(rng) * (j % 7 == 0 ? 1e-30f : 1e4f);
  rows.push_back(r);
  for (size_t j = 0; j < k; ++j) r[j] = std::ldexp(static_cast<float>(static_cast<int>(j % 64) - 32) + 0.5f, -6);
  rows.push_back(r);
  return rows;
}

TEST(CpuKernels, ActivationQuantizersGiveTheReferenceBytes) {
  std::mt19937 rng(77);
  const size_t k = 1024;
  size_t checked = 0;
  for (const cpu::MatKernels* set : usableSets()) {
    for (int trial = 0; trial < 20; ++trial) {
      for (const std::vector<float>& row : edgeRows(k, rng)) {
        std::vector<hal::compute::BlockQ8_0> e0(k / 32), g0(k / 32);
        ref::quantizeQ8_0(row.data(), e0.data(), k);
        if (set->quantizeRow(DType::Q8_0, row.data(), k, reinterpret_cast<std::byte*>(g0.data()))) {
          ASSERT_EQ(std::memcmp(e0.data(), g0.data(), sizeof(e0[0]) * e0.size()), 0) << set->isa() << " Q8_0";
          ++checked;
        }
        std::vector<hal::compute::BlockQ8_K> eK(k / 256), gK(k / 256);
        ref::quantizeQ8_K(row.data(), eK.data(), k);
        if (set->quantizeRow(DType::Q8_K, row.data(), k, reinterpret_cast<std::byte*>(gK.data()))) {
          ASSERT_EQ(std::memcmp(eK.data(), gK.data(), sizeof(eK[0]) * eK.size()), 0) << set->isa() << " Q8_K";
          ++checked;
        }
      }
    }
  }
  if (checked == 0) GTEST_SKIP() << "no kernel set on this CPU quantizes activations itself";
}

TEST(CpuKernels, SiluMulIsWithinTheConformanceToleranceOverTheWholeRange) {
  // Every float from -100 to 100 in steps that hit each binade, odd lengths for the masked tail, and out aliasing
  // gate as the forward pass does.
  std::vector<float> g, u;
  for (float x = -100.0f; x <= 100.0f; x += 0.0137f) {
    g.push_back(x);
    u.push_back(0.5f + std::fabs(std::sin(x)));
  }
  for (float x : {0.0f, -0.0f, 1e-30f, -1e-30f, 88.0f, -88.0f, 89.0f, -89.0f, 1e6f, -1e6f}) {
    g.push_back(x);
    u.push_back(1.0f);
  }
  g.push_back(3.0f);  // an odd count
  u.push_back(2.0f);
  std::vector<float> expect(g.size());
  ref::siluMul(g.data(), u.data(), expect.data(), g.size());
  size_t checked = 0;
  for (const cpu::MatKernels* set : usableSets()) {
    std::vector<float> got = g;
    if (!set->siluMul(got.data(), u.data(), got.data(), got.size())) continue;
    ++checked;
    for (size_t i = 0; i < got.size(); ++i) {
      ASSERT_NEAR(got[i], expect[i], 1e-6 * std::fabs(expect[i]) + 1e-7) << set->isa() << " silu at " << g[i];
    }
  }
  if (checked == 0) GTEST_SKIP() << "no kernel set on this CPU has its own siluMul";
}

TEST(CpuKernels, ToHalfGivesTheReferenceBytesForEveryKindOfFloat) {
  // Random normals, the f16 overflow and subnormal edges (ties included), infinities, and NaNs with payloads; odd
  // length for the masked tail.
  std::mt19937 rng(7);
  std::vector<float> x;
  std::uniform_int_distribution<uint32_t> bits;
  for (int i = 0; i < 20000; ++i) x.push_back(std::bit_cast<float>(bits(rng)));
  for (uint32_t u = 0x33000000u - 4; u < 0x33000000u + 4; ++u) x.push_back(std::bit_cast<float>(u));  // 2^-25
  for (uint32_t u = 0x477fe000u; u < 0x47800100u; u += 0x100u) x.push_back(std::bit_cast<float>(u));  // 65504..
  for (float f : {0.0f, -0.0f, 65504.0f, 65519.99f, 65520.0f, -65520.0f, 6.1035156e-05f, 5.9604645e-08f,
                  2.9802322e-08f, 8.940697e-08f, INFINITY, -INFINITY, NAN, -NAN, 1.0f / 3.0f}) {
    x.push_back(f);
  }
  x.push_back(std::bit_cast<float>(0x7f800001u));  // signalling NaN, smallest payload
  x.push_back(std::bit_cast<float>(0xffc12345u));  // negative quiet NaN with a payload
  std::vector<uint16_t> expect(x.size());
  for (size_t i = 0; i < x.size(); ++i) expect[i] = hal::fp32ToFp16(x[i]);
  size_t checked = 0;
  for (const cpu::MatKernels* set : usableSets()) {
    std::vector<uint16_t> got(x.size() + 1, 0xBEEF);
    if (!set->toHalf(x.data(), got.data(), 0)) continue;
    ASSERT_TRUE(set->toHalf(x.data(), got.data(), x.size()));
    ++checked;
    EXPECT_EQ(got.back(), 0xBEEF) << set->isa() << " wrote past n";
    for (size_t i = 0; i < x.size(); ++i) {
      ASSERT_EQ(got[i], expect[i]) << set->isa() << " at " << i << " bits 0x" << std::hex << std::bit_cast<uint32_t>(x[i]);
    }
  }
  if (checked == 0) GTEST_SKIP() << "no kernel set on this CPU has its own f16 conversion";
}

TEST(CpuKernels, RmsNormIsWithinTheConformanceTolerance) {
  std::mt19937 rng(11);
  std::normal_distribution<float> nd(0.0f, 3.0f);
  size_t checked = 0;
  for (size_t n : {size_t{1}, size_t{15}, size_t{16}, size_t{17}, size_t{576}, size_t{1001}}) {
    std::vector<float> x(n), w(n);
    for (float& v : x) v = nd(rng);
    for (float& v : w) v = nd(rng);
    for (const float* wp : {static_cast<const float*>(w.data()), static_cast<const float*>(nullptr)}) {
      hal::RmsNormArgs a;
      std::vector<float> expect(n), got(n + 1, -7.0f);
      a.x = x.data();
      a.w = wp;
      a.y = expect.data();
      a.rows = 1;
      a.cols = n;
      a.xStride = a.yStride = n;
      a.eps = 1e-6f;
      ref::rmsNormRows(a, 0, 1);
      for (const cpu::MatKernels* set : usableSets()) {
        std::fill(got.begin(), got.end(), -7.0f);
        if (!set->rmsNorm(x.data(), wp, got.data(), n, a.eps)) continue;
        ++checked;
        EXPECT_EQ(got[n], -7.0f) << set->isa() << " wrote past n";
        for (size_t i = 0; i < n; ++i) {
          ASSERT_NEAR(got[i], expect[i], 1e-6 * std::fabs(expect[i]) + 1e-7) << set->isa() << " n=" << n << " at " << i;
        }
      }
    }
  }
  if (checked == 0) GTEST_SKIP() << "no kernel set on this CPU has its own rms_norm";
}

}  // namespace
}  // namespace sotto::test
