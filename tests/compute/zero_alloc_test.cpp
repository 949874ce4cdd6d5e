// SPDX-License-Identifier: MIT
// Steady-state decode and prefill ops allocate nothing, on any thread (the counting allocator).
#include <gtest/gtest.h>

#include <vector>

#include "sotto/hal/compute.h"
#include "sotto/hal/quant.h"
#include "tests/support/alloc_counter.h"

namespace sotto::test {
namespace {

TEST(ComputeZeroAlloc, MatmulAttentionAndFriendsDoNotAllocate) {
  if (!AllocCounter::supported()) GTEST_SKIP() << "allocation counting unavailable (" << AllocCounter::mode() << ")";
  hal::ThreadPoolOptions po;
  po.threads = 2;
  auto pool = hal::ThreadPool::create(po).value();
  for (const hal::ComputeDevice* dev : hal::ComputeRegistry::instance().devices()) {
    auto be = dev->createBackend().value();
    const size_t n = 96, k = 512, m = 4;
    std::vector<float> wf(k, 0.25f), x(m * k, 0.5f), y(m * n);
    for (size_t i = 0; i < k; ++i) wf[i] = static_cast<float>(i % 13) * 0.01f;
    std::vector<std::vector<std::byte>> weights;
    const hal::DType types[] = {hal::DType::Q8_0, hal::DType::Q4_0, hal::DType::Q4_K, hal::DType::Q6_K,
                                hal::DType::F16};
    for (hal::DType t : types) {
      const size_t rb = *hal::rowBytes(t, k);
      std::vector<std::byte> w(n * rb);
      for (size_t r = 0; r < n; ++r) ASSERT_TRUE(hal::quantizeRow(t, wf, std::span(w).subspan(r * rb, rb)).ok());
      weights.push_back(std::move(w));
    }
    std::vector<std::byte> scratch(be->matmulScratchBytes(hal::DType::Q4_K, m, k) +
                                   be->matmulScratchBytes(hal::DType::Q8_0, m, k));
    const size_t heads = 4, kvHeads = 2, headDim = 32, cap = 16;
    std::vector<uint16_t> kc(kvHeads * cap * headDim), vc(kc.size());
    std::vector<float> q(heads * headDim, 0.1f), kv(kvHeads * headDim, 0.2f), att(q.size());
    std::vector<float> attScratch(be->attentionScratchFloats(cap, pool->threads()));

    auto step = [&](size_t rows, size_t pos) {
      for (size_t i = 0; i < std::size(types); ++i) {
        hal::MatmulArgs a;
        a.wType = types[i];
        a.w = weights[i].data();
        a.x = x.data();
        a.y = y.data();
        a.m = rows;
        a.n = n;
        a.k = k;
        a.scratch = scratch;
        ASSERT_TRUE(be->matmul(*pool, a).ok());
      }
      hal::StoreKvArgs st;
      st.k = kv.data();
      st.v = kv.data();
      st.tokens = 1;
      st.pos0 = pos;
      st.cache = {kc.data(), vc.data(), kvHeads, headDim, cap};
      ASSERT_TRUE(be->storeKv(*pool, st).ok());
      hal::AttentionArgs at;
      at.q = q.data();
      at.tokens = 1;
      at.heads = heads;
      at.k = kc.data();
      at.v = vc.data();
      at.kvHeads = kvHeads;
      at.headDim = headDim;
      at.capacity = cap;
      at.kvLen = pos + 1;
      at.pos0 = pos;
      at.scale = 0.17f;
      at.out = att.data();
      at.scratch = attScratch;
      ASSERT_TRUE(be->attention(*pool, at).ok());
      hal::RmsNormArgs rn;
      rn.x = x.data();
      rn.y = x.data();
      rn.rows = rows;
      rn.cols = k;
      ASSERT_TRUE(be->rmsNorm(*pool, rn).ok());
      ASSERT_TRUE(be->siluMul(*pool, std::span(y).first(n), std::span(y).first(n), std::span(y).first(n)).ok());
    };
    step(1, 0);  // warm-up
    step(m, 1);
    NoAllocScope scope(AllocScope::allThreads);
    for (size_t pos = 2; pos < 10; ++pos) step(pos % 2 == 0 ? 1 : m, pos);
    EXPECT_EQ(scope.allocations(), 0u) << dev->name();
  }
}

}  // namespace
}  // namespace sotto::test
