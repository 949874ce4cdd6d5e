// SPDX-License-Identifier: MIT
// The cpu backend's per-ISA kernel sets, each against the reference: activation quantizers, add, rope and f16
// conversion byte for byte (these bytes also feed the prefix cache and must not depend on the CPU's ISA), the
// rest within the conformance tolerance; mulTile's results must not depend on how rows are split.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <random>
#include <vector>

#include "common/blocks.h"
#include "common/quant_ref.h"
#include "common/ref_ops.h"
#include "cpu/kernels.h"
#include "sotto/hal/compute.h"
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

// Every kernel set this architecture's build has, with the CPU features it needs and which of them this CPU lacks.
struct SetOnThisCpu {
  std::string isa;
  std::string missing;  // empty: the CPU runs it
};
std::vector<SetOnThisCpu> allSetsOfThisBuild() {
  [[maybe_unused]] const hal::CpuFeatures& f = hal::cpuFeatures();
  std::vector<SetOnThisCpu> all;
  [[maybe_unused]] const auto need = [](std::initializer_list<std::pair<const char*, bool>> features) {
    std::string missing;
    for (const auto& [name, present] : features) {
      if (!present) missing += std::string(missing.empty() ? "" : " ") + name;
    }
    return missing;
  };
#if defined(__x86_64__)
  all.push_back({"avx512vnni", need({{"avx2", f.avx2}, {"fma", f.fma}, {"f16c", f.f16c}, {"avx512f", f.avx512f},
                                     {"avx512bw", f.avx512bw}, {"avx512vl", f.avx512vl},
                                     {"avx512vnni", f.avx512vnni}})});
  all.push_back({"avx2", need({{"avx2", f.avx2}, {"fma", f.fma}, {"f16c", f.f16c}})});
#elif defined(__aarch64__)
  all.push_back({"neon-dotprod", need({{"dotprod", f.dotprod}})});
  all.push_back({"neon", ""});
#endif
  return all;
}

// The one line toolchain/test.sh copies into every CI log ("kernel sets ran: ...; skipped: ..."), so a set this
// machine could not check is visible; and the sets the tests below run are exactly the ones the CPU has.
TEST(CpuKernels, ReportsWhichSetsThisCpuRunsAndWhichItSkips) {
  std::string ran, skipped;
  std::vector<std::string> usable;
  for (const cpu::MatKernels* set : usableSets()) usable.emplace_back(set->isa());
  const std::vector<SetOnThisCpu> all = allSetsOfThisBuild();
  for (const SetOnThisCpu& s : all) {
    const bool runs = std::find(usable.begin(), usable.end(), s.isa) != usable.end();
    EXPECT_EQ(runs, s.missing.empty()) << s.isa << " lacks: " << s.missing;
    if (runs) {
      ran += (ran.empty() ? "" : " ") + s.isa;
    } else {
      skipped += (skipped.empty() ? "" : ", ") + s.isa + " (CPU lacks " + s.missing + ")";
    }
  }
  for (const std::string& u : usable) {
    EXPECT_TRUE(std::any_of(all.begin(), all.end(), [&](const SetOnThisCpu& s) { return s.isa == u; }))
        << u << " runs but is missing from this report";
  }
  // The backend takes every weight type from a set that ran here, or from the scalar reference.
  const std::string d = (*hal::ComputeRegistry::instance().find("cpu"))->description();
  for (size_t at = d.find('='); at != std::string::npos; at = d.find('=', at + 1)) {
    const std::string isa = d.substr(at + 1, d.find(' ', at) == std::string::npos ? std::string::npos
                                                                                   : d.find(' ', at) - at - 1);
    EXPECT_TRUE(isa == "scalar" || std::find(usable.begin(), usable.end(), isa) != usable.end()) << d;
  }
  std::printf("kernel sets ran: %s; skipped: %s\n", ran.empty() ? "none (scalar reference only)" : ran.c_str(),
              skipped.empty() ? "none" : skipped.c_str());
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

TEST(CpuKernels, AddAndRopeGiveTheReferenceBytes) {
  std::mt19937 rng(21);
  std::normal_distribution<float> nd(0.0f, 2.0f);
  size_t checked = 0;
  for (const cpu::MatKernels* set : usableSets()) {
    for (size_t n : {size_t{1}, size_t{7}, size_t{8}, size_t{9}, size_t{1001}}) {
      std::vector<float> a(n), b(n), expect(n), got(n + 1, -7.0f);
      for (float& v : a) v = nd(rng);
      for (float& v : b) v = nd(rng);
      ref::add(a.data(), b.data(), expect.data(), n);
      if (!set->add(a.data(), b.data(), got.data(), n)) break;
      ++checked;
      EXPECT_EQ(got[n], -7.0f) << set->isa() << " add wrote past n";
      ASSERT_EQ(std::memcmp(got.data(), expect.data(), n * sizeof(float)), 0) << set->isa() << " add n=" << n;
    }
    // Whole and partial rotations, pair counts that leave vector tails, both pair layouts.
    const size_t tokens = 3, heads = 3;
    for (size_t headDim : {size_t{64}, size_t{40}, size_t{20}, size_t{6}}) {
      for (size_t nDims : {headDim, headDim / 2 - headDim / 2 % 2}) {
        if (nDims == 0) continue;
        for (hal::RopeMode mode : {hal::RopeMode::normal, hal::RopeMode::neox}) {
          if (!set->rope(nullptr, 0, headDim, nDims, false, nullptr)) continue;
          std::vector<int32_t> pos = {3, 77, 1021};
          std::vector<float> x(tokens * heads * headDim + 1);
          for (float& v : x) v = nd(rng);
          hal::RopeArgs a;
          a.tokens = tokens;
          a.heads = heads;
          a.headDim = headDim;
          a.nDims = nDims;
          a.tokenStride = heads * headDim;
          a.positions = pos.data();
          a.freqBase = 10000.0f;
          a.mode = mode;
          std::vector<float> expect = x, got = x;
          a.x = expect.data();
          ref::ropeTokens(a, 0, tokens);
          std::vector<float> cs(nDims);
          for (size_t t = 0; t < tokens; ++t) {
            ref::ropeAngles(a, pos[t], cs.data(), cs.data() + nDims / 2);
            ASSERT_TRUE(set->rope(got.data() + t * a.tokenStride, heads, headDim, nDims, mode == hal::RopeMode::neox,
                                  cs.data()));
          }
          ++checked;
          ASSERT_EQ(std::memcmp(got.data(), expect.data(), x.size() * sizeof(float)), 0)
              << set->isa() << " rope headDim=" << headDim << " nDims=" << nDims
              << " neox=" << (mode == hal::RopeMode::neox);
        }
      }
    }
  }
  if (checked == 0) GTEST_SKIP() << "no kernel set on this CPU has its own add or rope";
}

// Every kernel set's mulTile for every weight type it has, decode and prefill row counts that leave tile edges,
// row counts that leave tails: against the reference dot within the conformance tolerance, and the same bits
// however the rows are split into tiles (threads share rows out in chunks) and whatever m the activation is in.
TEST(CpuKernels, MulTileMatchesTheReferenceAndDoesNotDependOnTheSplit) {
  constexpr DType kTypes[] = {DType::F32,  DType::F16,  DType::BF16, DType::Q8_0, DType::Q4_0, DType::Q4_1,
                              DType::Q5_0, DType::Q5_1, DType::Q4_K, DType::Q5_K, DType::Q6_K};
  std::mt19937 rng(99);
  std::normal_distribution<float> nd(0.0f, 1.0f);
  size_t checked = 0;
  for (const cpu::MatKernels* set : usableSets()) {
    for (DType t : kTypes) {
      if (!set->has(t)) continue;
      const bool kquant = hal::dtypeTraits(static_cast<uint32_t>(t))->blockSize == 256;
      // 7 blocks of 32 (an odd count); 10 (k % 64 == 0: activations the set may pack); two K super-blocks.
      for (size_t k : kquant ? std::vector<size_t>{512} : std::vector<size_t>{224, 320}) {
        const size_t n = 23;  // 4·5 + 3 rows: decode streams and prefill row pairs leave tails
        const size_t rb = *hal::rowBytes(t, k);
        std::vector<std::byte> w(n * rb);
        std::vector<float> wf(n * k);
        for (size_t r = 0; r < n; ++r) {
          std::vector<float> row(k);
          for (float& v : row) v = nd(rng);
          ASSERT_TRUE(hal::quantizeRow(t, row, std::span(w).subspan(r * rb, rb)).ok());
          ASSERT_TRUE(hal::dequantizeRow(t, std::span(w).subspan(r * rb, rb), std::span(wf).subspan(r * k, k)).ok());
        }
        const DType act = hal::vecDotType(t);
        for (size_t m : {size_t{1}, size_t{2}, size_t{3}, size_t{5}, size_t{8}, size_t{21}, size_t{64}}) {
          std::vector<float> x(m * k);
          for (float& v : x) v = nd(rng);
          const size_t xqStride = act == DType::F32 ? k * sizeof(float) : hal::compute::activationRowStride(t, k);
          std::vector<std::byte> xq(m * xqStride);
          if (act == DType::F32) {
            std::memcpy(xq.data(), x.data(), x.size() * sizeof(float));
          } else {
            ref::quantizeActivations(t, x.data(), k, k, xq.data(), 0, m);
          }
          // The packed copy, when the set takes one for this type and k (as the backend passes it).
          const size_t xpStride = set->packs(t) ? hal::compute::packedActivationRowStride(t, k) : 0;
          std::vector<std::byte> xp(m * xpStride);
          for (size_t i = 0; i < m && xpStride != 0; ++i) {
            set->packActivations(t, xq.data() + i * xqStride, k, m, i, xp.data());
          }
          const size_t yStride = n + 3;  // the padding must stay untouched
          const auto run = [&](size_t mm, const std::byte* xrows, const std::byte* packed,
                               const std::vector<std::pair<size_t, size_t>>& splits) {
            std::vector<float> y(mm * yStride, -7.0f);
            cpu::MatTile tile;
            tile.w = w.data();
            tile.wRowBytes = rb;
            tile.xq = xrows;
            tile.xqStride = xqStride;
            tile.m = mm;
            tile.k = k;
            tile.y = y.data();
            tile.yStride = yStride;
            tile.xp = packed;
            tile.xpStride = packed != nullptr ? xpStride : 0;
            for (const auto& [n0, n1] : splits) {
              tile.n0 = n0;
              tile.n1 = n1;
              set->mulTile(t, tile);
            }
            return y;
          };
          const std::byte* none = nullptr;
          for (const std::byte* packed : {none, static_cast<const std::byte*>(xp.data())}) {
            if (packed != nullptr && xpStride == 0) continue;
            const std::vector<float> whole = run(m, xq.data(), packed, {{0, n}});
            const std::string what = std::string(set->isa()) + " " + hal::dtypeName(t) + " k=" + std::to_string(k) +
                                     " m=" + std::to_string(m) + (packed != nullptr ? " packed" : "");
            for (size_t i = 0; i < m; ++i) {
              for (size_t r = 0; r < yStride; ++r) {
                const float g = whole[i * yStride + r];
                if (r >= n) {
                  ASSERT_EQ(g, -7.0f) << what << " wrote outside its rows";
                  continue;
                }
                const float e = ref::dotRow(t, w.data() + r * rb, xq.data() + i * xqStride, k);
                double mag = 0;
                for (size_t j = 0; j < k; ++j) mag += std::fabs(static_cast<double>(wf[r * k + j]) * x[i * k + j]);
                ASSERT_NEAR(g, e, 2e-6 * mag + 1e-7) << what << " at " << i << "," << r;
              }
            }
            // Other splits of the same rows: single rows, odd starts, pieces shorter and longer than a tile.
            const std::vector<std::vector<std::pair<size_t, size_t>>> splits = {
                {{0, 1}, {1, n}}, {{0, 3}, {3, 10}, {10, n}}, {{0, 5}, {5, 6}, {6, 17}, {17, n}}, {{0, 12}, {12, n}}};
            for (const auto& sp : splits) {
              ASSERT_EQ(run(m, xq.data(), packed, sp), whole) << what << " split at " << sp[0].second;
            }
            std::vector<std::pair<size_t, size_t>> singles;
            for (size_t r = 0; r < n; ++r) singles.emplace_back(r, r + 1);
            ASSERT_EQ(run(m, xq.data(), packed, singles), whole) << what << " row by row";
            // Each activation alone (the decode path) gives the bits it gets inside the prefill tiles (a packed
            // layout may depend on m: only the plain rows are compared this way).
            for (size_t i = 0; i < m && packed == nullptr; ++i) {
              const std::vector<float> one = run(1, xq.data() + i * xqStride, nullptr, {{0, n}});
              ASSERT_EQ(std::memcmp(one.data(), whole.data() + i * yStride, n * sizeof(float)), 0)
                  << what << " activation " << i << " alone";
            }
          }
          ++checked;
        }
      }
    }
  }
  if (checked == 0) GTEST_SKIP() << "no SIMD kernel set on this CPU";
}

}  // namespace
}  // namespace sotto::test
