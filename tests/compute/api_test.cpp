// SPDX-License-Identifier: MIT
// The compute interface: registry, support reporting, argument errors (nothing written), and the reference
// semantics of the ops checked against closed forms and straightforward double-precision math.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "sotto/hal/compute.h"
#include "sotto/hal/cpu.h"
#include "sotto/hal/quant.h"

namespace sotto::test {
namespace {

using hal::ComputeOp;
using hal::DType;

std::unique_ptr<hal::ThreadPool> pool1() {
  auto p = hal::ThreadPool::create(hal::ThreadPoolOptions{});
  EXPECT_TRUE(p.ok());
  return std::move(*p);
}

std::unique_ptr<hal::ComputeBackend> refBackend() {
  auto b = hal::ComputeRegistry::instance().createBackend("cpu-ref");
  EXPECT_TRUE(b.ok());
  return std::move(*b);
}

TEST(ComputeRegistry, HasCpuAndCpuRefAndNamesThemOnMiss) {
  auto& reg = hal::ComputeRegistry::instance();
  ASSERT_TRUE(reg.find("cpu").ok());
  ASSERT_TRUE(reg.find("cpu-ref").ok());
  EXPECT_FALSE((*reg.find("cpu"))->description().empty());
  auto miss = reg.find("gpu");
  ASSERT_FALSE(miss.ok());
  EXPECT_EQ(miss.error().code, Errc::not_found);
  EXPECT_NE(miss.error().message.find("cpu-ref"), std::string::npos);
  auto be = reg.createBackend("cpu");
  ASSERT_TRUE(be.ok());
  EXPECT_EQ((*be)->name(), "cpu");
}

// The cpu backend picks the widest kernel set the CPU has for each type, so that set is what the conformance and
// vector tests exercise on this machine.
TEST(ComputeRegistry, CpuPicksTheBestKernelSetPerType) {
  const std::string d = (*hal::ComputeRegistry::instance().find("cpu"))->description();
  const hal::CpuFeatures& f = hal::cpuFeatures();
#if defined(__x86_64__)
  const bool avx2 = f.avx2 && f.fma && f.f16c;
  if (avx2 && f.avx512f && f.avx512bw && f.avx512vl && f.avx512vnni) {
    EXPECT_NE(d.find("q8_0=avx512vnni"), std::string::npos) << d;
    EXPECT_NE(d.find("q5_0=avx512vnni"), std::string::npos) << d;
    // The K types come from the AVX2 set until the AVX-512 ones are verified (kernels_avx512vnni.cpp, has()).
    EXPECT_NE(d.find("q4_K=avx2"), std::string::npos) << d;
    EXPECT_NE(d.find("q6_K=avx2"), std::string::npos) << d;
  } else if (avx2) {
    EXPECT_NE(d.find("q8_0=avx2"), std::string::npos) << d;
  } else {
    EXPECT_NE(d.find("q8_0=scalar"), std::string::npos) << d;
  }
#elif defined(__aarch64__)
  EXPECT_NE(d.find(f.dotprod ? "q8_0=neon-dotprod" : "q8_0=neon"), std::string::npos) << d;
#endif
}

TEST(ComputeRegistry, SupportMatrix) {
  for (const hal::ComputeDevice* d : hal::ComputeRegistry::instance().devices()) {
    for (DType t : {DType::F32, DType::F16, DType::BF16, DType::Q8_0, DType::Q4_0, DType::Q4_1, DType::Q5_0,
                    DType::Q5_1, DType::Q4_K, DType::Q5_K, DType::Q6_K}) {
      EXPECT_TRUE(d->supports(ComputeOp::matmul, t)) << d->name() << " " << hal::dtypeName(t);
      EXPECT_TRUE(d->supports(ComputeOp::getRows, t));
    }
    EXPECT_FALSE(d->supports(ComputeOp::matmul, DType::Q2_K));
    EXPECT_FALSE(d->supports(ComputeOp::matmul, DType::Q8_1));  // an activation type, not a weight type
    EXPECT_FALSE(d->supports(ComputeOp::matmul, DType::Q8_K));  // an activation type, not a weight type
    EXPECT_TRUE(d->supports(ComputeOp::attention, DType::F16));
    EXPECT_FALSE(d->supports(ComputeOp::attention, DType::F32));
    EXPECT_TRUE(d->supports(ComputeOp::rmsNorm, DType::F32));
  }
  EXPECT_EQ(hal::vecDotType(DType::Q4_0), DType::Q8_0);
  EXPECT_EQ(hal::vecDotType(DType::Q5_0), DType::Q8_0);
  EXPECT_EQ(hal::vecDotType(DType::Q4_1), DType::Q8_1);
  EXPECT_EQ(hal::vecDotType(DType::Q5_1), DType::Q8_1);
  EXPECT_EQ(hal::vecDotType(DType::Q6_K), DType::Q8_K);
  EXPECT_EQ(hal::vecDotType(DType::F16), DType::F32);
  EXPECT_STREQ(hal::computeOpName(ComputeOp::storeKv), "store_kv");
}

TEST(ComputeErrors, BadMatmulArgumentsAreRefusedWithoutWriting) {
  auto pool = pool1();
  for (const hal::ComputeDevice* d : hal::ComputeRegistry::instance().devices()) {
    auto be = d->createBackend().value();
    std::vector<std::byte> w(34 * 4 * 2);
    std::vector<float> x(64, 1.0f), y(4, -1.0f);
    std::vector<std::byte> scratch(be->matmulScratchBytes(DType::Q8_0, 1, 64));
    ASSERT_GT(scratch.size(), 0u);
    hal::MatmulArgs a;
    a.wType = DType::Q8_0;
    a.w = w.data();
    a.x = x.data();
    a.y = y.data();
    a.n = 4;
    a.k = 48;  // not a multiple of 32
    a.scratch = scratch;
    auto s = be->matmul(*pool, a);
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.error().code, Errc::invalid_argument);
    a.k = 64;
    a.scratch = std::span(scratch).first(scratch.size() - 1);
    EXPECT_FALSE(be->matmul(*pool, a).ok());
    a.scratch = scratch;
    a.wType = DType::IQ4_NL;
    auto u = be->matmul(*pool, a);
    ASSERT_FALSE(u.ok());
    EXPECT_EQ(u.error().code, Errc::unsupported);
    a.wType = DType::Q8_0;
    a.wRowBytes = 10;  // shorter than a row
    EXPECT_FALSE(be->matmul(*pool, a).ok());
    for (float v : y) EXPECT_EQ(v, -1.0f);
    a.wRowBytes = 35;  // odd: the fp16 block scales would be misaligned
    EXPECT_FALSE(be->matmul(*pool, a).ok());
    a.wRowBytes = 0;
    a.w = w.data() + 1;
    EXPECT_FALSE(be->matmul(*pool, a).ok());
    a.w = w.data();
    for (float v : y) EXPECT_EQ(v, -1.0f);
    EXPECT_TRUE(be->matmul(*pool, a).ok());
    EXPECT_EQ(y[0], 0.0f);  // zero weights
  }
}

TEST(ComputeErrors, OutOfRangeIdsPositionsAndShapes) {
  auto pool = pool1();
  auto be = refBackend();
  std::vector<float> table(4 * 8, 1.0f), out(8, -1.0f);
  const std::vector<int32_t> ids = {4};
  hal::GetRowsArgs g;
  g.table = table.data();
  g.tableRows = 4;
  g.cols = 8;
  g.ids = ids;
  g.out = out.data();
  EXPECT_FALSE(be->getRows(*pool, g).ok());
  EXPECT_EQ(out[0], -1.0f);

  std::vector<uint16_t> k(2 * 4 * 8), v(k.size());
  std::vector<float> src(2 * 8);
  hal::StoreKvArgs st;
  st.k = src.data();
  st.v = src.data();
  st.tokens = 1;
  st.pos0 = 4;  // capacity 4: position 4 does not exist
  st.cache = {k.data(), v.data(), 2, 8, 4};
  EXPECT_FALSE(be->storeKv(*pool, st).ok());

  std::vector<float> q(3 * 8), o(3 * 8), scratch(64);
  hal::AttentionArgs a;
  a.q = q.data();
  a.tokens = 1;
  a.heads = 3;  // not a multiple of kvHeads = 2
  a.k = k.data();
  a.v = v.data();
  a.kvHeads = 2;
  a.headDim = 8;
  a.capacity = 4;
  a.kvLen = 1;
  a.out = o.data();
  a.scratch = scratch;
  EXPECT_FALSE(be->attention(*pool, a).ok());
  a.heads = 2;
  a.pos0 = 1;  // query at position 1 needs kvLen ≥ 2
  EXPECT_FALSE(be->attention(*pool, a).ok());

  std::vector<float> x(8);
  std::vector<int32_t> pos = {0};
  hal::RopeArgs r;
  r.x = x.data();
  r.tokens = 1;
  r.heads = 1;
  r.headDim = 8;
  r.nDims = 5;  // odd
  r.positions = pos.data();
  EXPECT_FALSE(be->rope(*pool, r).ok());
  std::vector<float> a3(3), b4(4);
  EXPECT_FALSE(be->add(*pool, a3, b4, a3).ok());
}

TEST(ReferenceSemantics, MatmulF32IsTheExactProduct) {
  auto pool = pool1();
  auto be = refBackend();
  std::mt19937 rng(3);
  std::normal_distribution<float> d;
  const size_t m = 3, n = 5, k = 19;
  std::vector<float> w(n * k), x(m * k), y(m * n);
  for (float& v : w) v = d(rng);
  for (float& v : x) v = d(rng);
  hal::MatmulArgs a;
  a.w = w.data();
  a.x = x.data();
  a.y = y.data();
  a.m = m;
  a.n = n;
  a.k = k;
  ASSERT_TRUE(be->matmul(*pool, a).ok());
  for (size_t i = 0; i < m; ++i) {
    for (size_t r = 0; r < n; ++r) {
      double s = 0;
      for (size_t j = 0; j < k; ++j) s += static_cast<double>(x[i * k + j]) * w[r * k + j];
      EXPECT_FLOAT_EQ(y[i * n + r], static_cast<float>(s));
    }
  }
}

TEST(ReferenceSemantics, RmsNormRopeSoftmaxSiluClosedForms) {
  auto pool = pool1();
  auto be = refBackend();
  std::vector<float> x = {3.0f, -4.0f}, w = {2.0f, 0.5f}, y(2);
  hal::RmsNormArgs rn;
  rn.x = x.data();
  rn.w = w.data();
  rn.y = y.data();
  rn.rows = 1;
  rn.cols = 2;
  rn.eps = 0.0f;
  ASSERT_TRUE(be->rmsNorm(*pool, rn).ok());
  const float inv = 1.0f / std::sqrt(12.5f);
  EXPECT_FLOAT_EQ(y[0], 3.0f * inv * 2.0f);
  EXPECT_FLOAT_EQ(y[1], -4.0f * inv * 0.5f);

  // Position p rotates pair i by p · base^(-2i/d): pair 0 by p radians; normal pairs (0,1), neox pairs (0,2).
  for (hal::RopeMode mode : {hal::RopeMode::normal, hal::RopeMode::neox}) {
    std::vector<float> v = {1.0f, 0.0f, 0.0f, 0.0f};
    if (mode == hal::RopeMode::neox) v = {1.0f, 0.0f, 0.0f, 0.0f};
    std::vector<int32_t> pos = {2};
    hal::RopeArgs r;
    r.x = v.data();
    r.tokens = 1;
    r.heads = 1;
    r.headDim = 4;
    r.positions = pos.data();
    r.mode = mode;
    ASSERT_TRUE(be->rope(*pool, r).ok());
    const size_t partner = mode == hal::RopeMode::normal ? 1 : 2;
    EXPECT_NEAR(v[0], std::cos(2.0), 1e-6);
    EXPECT_NEAR(v[partner], std::sin(2.0), 1e-6);
  }

  std::vector<float> s = {1.0f, 2.0f, 3.0f, -INFINITY, -INFINITY}, sy(5);
  std::vector<float> mask = {0, 0, -INFINITY, 0, 0};
  hal::SoftmaxArgs sm;
  sm.x = s.data();
  sm.y = sy.data();
  sm.rows = 1;
  sm.cols = 5;
  sm.mask = mask.data();
  ASSERT_TRUE(be->softmax(*pool, sm).ok());
  EXPECT_NEAR(sy[0], 1.0 / (1.0 + std::exp(1.0)), 1e-7);
  EXPECT_NEAR(sy[1], std::exp(1.0) / (1.0 + std::exp(1.0)), 1e-7);
  EXPECT_EQ(sy[2], 0.0f);
  EXPECT_EQ(sy[4], 0.0f);
  std::vector<float> allMasked = {-INFINITY, -INFINITY};
  sm.x = allMasked.data();
  sm.mask = nullptr;
  sm.cols = 2;
  ASSERT_TRUE(be->softmax(*pool, sm).ok());
  EXPECT_EQ(sy[0], 0.0f);

  std::vector<float> g = {0.0f, 2.0f}, u = {5.0f, 3.0f}, o(2);
  ASSERT_TRUE(be->siluMul(*pool, g, u, o).ok());
  EXPECT_EQ(o[0], 0.0f);
  EXPECT_NEAR(o[1], 2.0 / (1.0 + std::exp(-2.0)) * 3.0, 1e-6);
}

TEST(ReferenceSemantics, AttentionIsCausalSoftmaxWeightedValues) {
  // Two query tokens at positions 1 and 2 over three cached positions, one KV head shared by two query heads.
  auto pool = pool1();
  auto be = refBackend();
  const size_t headDim = 2, capacity = 4;
  const float kf[3][2] = {{1, 0}, {0, 1}, {1, 1}}, vf[3][2] = {{1, 2}, {3, 4}, {5, 6}};
  std::vector<uint16_t> k(capacity * headDim), v(capacity * headDim);
  for (size_t j = 0; j < 3; ++j) {
    for (size_t d = 0; d < headDim; ++d) {
      k[j * headDim + d] = hal::fp32ToFp16(kf[j][d]);
      v[j * headDim + d] = hal::fp32ToFp16(vf[j][d]);
    }
  }
  const std::vector<float> q = {0.5f, 1.0f, -1.0f, 0.25f, /* token 2 */ 2.0f, 0.0f, 0.0f, 0.0f};
  std::vector<float> out(q.size()), scratch(64);
  hal::AttentionArgs a;
  a.q = q.data();
  a.tokens = 2;
  a.heads = 2;
  a.k = k.data();
  a.v = v.data();
  a.kvHeads = 1;
  a.headDim = headDim;
  a.capacity = capacity;
  a.kvLen = 3;
  a.pos0 = 1;
  a.scale = 0.5f;
  a.out = out.data();
  a.scratch = scratch;
  ASSERT_TRUE(be->attention(*pool, a).ok());
  for (size_t t = 0; t < 2; ++t) {
    for (size_t h = 0; h < 2; ++h) {
      const float* qv = q.data() + (t * 2 + h) * headDim;
      const size_t len = 1 + t + 1;
      double w[3], sum = 0;
      for (size_t j = 0; j < len; ++j) sum += w[j] = std::exp(0.5 * (qv[0] * kf[j][0] + qv[1] * kf[j][1]));
      for (size_t d = 0; d < headDim; ++d) {
        double o = 0;
        for (size_t j = 0; j < len; ++j) o += w[j] / sum * vf[j][d];
        EXPECT_NEAR(out[(t * 2 + h) * headDim + d], o, 1e-6) << t << " " << h << " " << d;
      }
    }
  }
}

}  // namespace
}  // namespace sotto::test
