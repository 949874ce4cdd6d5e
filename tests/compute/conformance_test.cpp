// SPDX-License-Identifier: MIT
// Every op × type of every registered compute backend against cpu-ref (ggml's test-backend-ops idea): random
// shapes including odd sizes, decode (m = 1) and prefill (m > 1), strided rows, 1-3 threads.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "sotto/hal/compute.h"
#include "sotto/hal/quant.h"

namespace sotto::test {
namespace {

using hal::ComputeBackend;
using hal::DType;

constexpr DType kWeightTypes[] = {DType::F32,  DType::F16,  DType::BF16, DType::Q8_0, DType::Q4_0, DType::Q4_1,
                                  DType::Q5_0, DType::Q5_1, DType::Q4_K, DType::Q5_K, DType::Q6_K};

std::vector<float> randomFloats(std::mt19937& rng, size_t n, float scale = 1.0f) {
  std::normal_distribution<float> d(0.0f, scale);
  std::vector<float> v(n);
  for (float& x : v) x = d(rng);
  return v;
}

std::unique_ptr<hal::ThreadPool> conformancePool(unsigned threads) {
  hal::ThreadPoolOptions o;
  o.threads = threads;
  auto p = hal::ThreadPool::create(o);
  EXPECT_TRUE(p.ok());
  return p.ok() ? std::move(*p) : nullptr;
}

std::unique_ptr<ComputeBackend> backend(const std::string& name) {
  auto b = hal::ComputeRegistry::instance().createBackend(name);
  EXPECT_TRUE(b.ok()) << name;
  return b.ok() ? std::move(*b) : nullptr;
}

// Param: backend name under test.
class Conformance : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    ref_ = backend("cpu-ref");
    dut_ = backend(GetParam());
    ASSERT_NE(ref_, nullptr);
    ASSERT_NE(dut_, nullptr);
    for (unsigned t : {1u, 2u, 3u}) pools_.push_back(conformancePool(t));
    refPool_ = conformancePool(1);
  }
  std::unique_ptr<ComputeBackend> ref_, dut_;
  std::vector<std::unique_ptr<hal::ThreadPool>> pools_;
  std::unique_ptr<hal::ThreadPool> refPool_;
  std::mt19937 rng_{1234};
};

struct Shape {
  size_t m, n, k;
  bool strided;
};

TEST_P(Conformance, MatmulEveryWeightTypeMatchesReference) {
  for (DType t : kWeightTypes) {
    const size_t block = hal::dtypeTraits(static_cast<uint32_t>(t))->blockSize;
    const bool kquant = block == 256;
    const size_t b = std::max<size_t>(block, 32);  // the float types still take k in Q8-free steps; odd k below
    std::vector<Shape> shapes = {{1, 1, b, false},  {1, 37, 3 * b, false}, {1, 64, 2 * b, true},
                                 // decode on packed activations: 37 rows leave a row outside the four streams
                                 {1, 37, 2 * b, true},
                                 {3, 17, b, false}, {7, 33, 2 * b, true}, {16, 9, kquant ? size_t{256} : size_t{160}, false},
                                 // prefill tiles of 8 and 4 activations with row and activation tails
                                 {21, 13, 4 * b, true}, {12, 6, 2 * b, false},
                                 // more activations than one prefill chunk, rows in groups of 16 and a tail
                                 {130, 35, 2 * b, true}};
    if (block == 1) shapes.push_back({5, 11, 37, true});  // odd k: tails in the float kernels
    if (block == 1) shapes.push_back({1, 13, 1029, false});
    for (const Shape& s : shapes) {
      const size_t rowBytes = *hal::rowBytes(t, s.k);
      // Strided rows keep quant blocks and halves only 2-byte aligned (as rows of 34-byte Q8_0 blocks in a GGUF).
      const size_t wStride = rowBytes + (s.strided ? (t == DType::F32 ? 8 : 6) : 0);
      const size_t xStride = s.k + (s.strided ? 3 : 0), yStride = s.n + (s.strided ? 5 : 0);
      std::vector<std::byte> w(s.n * wStride + 8);
      for (size_t r = 0; r < s.n; ++r) {
        const std::vector<float> row = randomFloats(rng_, s.k);
        ASSERT_TRUE(hal::quantizeRow(t, row, std::span(w).subspan(r * wStride, rowBytes)).ok());
      }
      const std::vector<float> x = randomFloats(rng_, s.m * xStride);
      // |W|·|X| bounds the rounding of any summation order; the tolerance is relative to it.
      std::vector<double> mag(s.m * s.n, 0.0);
      std::vector<float> wrow(s.k);
      for (size_t r = 0; r < s.n; ++r) {
        ASSERT_TRUE(hal::dequantizeRow(t, std::span(w).subspan(r * wStride, rowBytes), wrow).ok());
        for (size_t i = 0; i < s.m; ++i) {
          for (size_t j = 0; j < s.k; ++j) mag[i * s.n + r] += std::fabs(static_cast<double>(wrow[j]) * x[i * xStride + j]);
        }
      }
      hal::MatmulArgs a;
      a.wType = t;
      a.w = w.data();
      a.wRowBytes = s.strided ? wStride : 0;
      a.x = x.data();
      a.xStride = s.strided ? xStride : 0;
      a.m = s.m;
      a.n = s.n;
      a.k = s.k;
      a.yStride = s.strided ? yStride : 0;
      const size_t ys = s.strided ? yStride : s.n;
      std::vector<float> expect(s.m * ys, -7.0f);
      std::vector<std::byte> scratch(ref_->matmulScratchBytes(t, s.m, s.k));
      a.y = expect.data();
      a.scratch = scratch;
      ASSERT_TRUE(ref_->matmul(*refPool_, a).ok());
      for (auto& pool : pools_) {
        std::vector<float> got(s.m * ys, -7.0f);
        std::vector<std::byte> scratch2(dut_->matmulScratchBytes(t, s.m, s.k) + 1);
        a.y = got.data();
        a.scratch = std::span(scratch2).subspan(1);  // unaligned scratch start must be handled
        ASSERT_TRUE(dut_->matmul(*pool, a).ok());
        for (size_t i = 0; i < s.m; ++i) {
          for (size_t r = 0; r < ys; ++r) {
            const float e = expect[i * ys + r], g = got[i * ys + r];
            if (r >= s.n) {
              ASSERT_EQ(g, -7.0f) << "wrote outside Y";
              continue;
            }
            const double tol = 2e-6 * mag[i * s.n + r] + 1e-7;
            ASSERT_NEAR(g, e, tol) << GetParam() << " " << hal::dtypeName(t) << " m=" << s.m << " n=" << s.n
                                   << " k=" << s.k << " threads=" << pool->threads() << " at " << i << "," << r;
          }
        }
      }
    }
  }
}

// A group (Q, K, V-like members sharing X) gives exactly what its members give one by one on the same backend,
// whether their activation types agree (one quantization, one pool run) or not (member by member).
TEST_P(Conformance, MatmulGroupEqualsSeparateMatmuls) {
  struct Member {
    DType type;
    size_t n;
  };
  const std::vector<std::vector<Member>> groups = {
      {{DType::Q4_K, 40}, {DType::Q4_K, 8}, {DType::Q6_K, 8}},  // Q4_K_M's attention: all Q8_K activations
      {{DType::Q5_0, 33}, {DType::Q8_0, 7}},                    // fallback rows: Q8_0 activations
      {{DType::Q8_0, 16}, {DType::Q4_1, 16}, {DType::F16, 5}},  // mixed activation types: member by member
      {{DType::F32, 3}},
  };
  const size_t k = 512;
  for (const auto& g : groups) {
    for (size_t m : {size_t{1}, size_t{5}}) {
      const std::vector<float> x = randomFloats(rng_, m * k);
      std::vector<std::vector<std::byte>> w(g.size());
      std::vector<std::vector<float>> separate(g.size()), grouped(g.size());
      size_t scratchBytes = 0;
      for (const Member& mb : g) scratchBytes = std::max(scratchBytes, dut_->matmulScratchBytes(mb.type, m, k));
      std::vector<std::byte> scratch(scratchBytes);
      std::vector<hal::MatmulArgs> args(g.size());
      for (size_t i = 0; i < g.size(); ++i) {
        const size_t rb = *hal::rowBytes(g[i].type, k);
        w[i].resize(g[i].n * rb);
        for (size_t r = 0; r < g[i].n; ++r) {
          ASSERT_TRUE(hal::quantizeRow(g[i].type, randomFloats(rng_, k), std::span(w[i]).subspan(r * rb, rb)).ok());
        }
        separate[i].assign(m * g[i].n, -7.0f);
        grouped[i].assign(m * g[i].n, -7.0f);
        args[i].wType = g[i].type;
        args[i].w = w[i].data();
        args[i].x = x.data();
        args[i].m = m;
        args[i].n = g[i].n;
        args[i].k = k;
        args[i].scratch = scratch;
      }
      for (auto& pool : pools_) {
        for (size_t i = 0; i < g.size(); ++i) {
          hal::MatmulArgs a = args[i];
          a.y = separate[i].data();
          ASSERT_TRUE(dut_->matmul(*pool, a).ok());
          args[i].y = grouped[i].data();
        }
        ASSERT_TRUE(dut_->matmulGroup(*pool, args).ok());
        for (size_t i = 0; i < g.size(); ++i) {
          EXPECT_EQ(grouped[i], separate[i]) << GetParam() << " member " << i << " " << hal::dtypeName(g[i].type)
                                             << " m=" << m << " threads=" << pool->threads();
        }
      }
    }
  }
}

TEST_P(Conformance, MatmulGroupRefusesMismatchedMembers) {
  const size_t k = 64;
  std::vector<float> x(2 * k, 1.0f), x2(2 * k, 1.0f), y(16, -7.0f);
  std::vector<std::byte> w(8 * *hal::rowBytes(DType::Q8_0, k));
  std::vector<std::byte> scratch(dut_->matmulScratchBytes(DType::Q8_0, 2, k));
  hal::MatmulArgs a;
  a.wType = DType::Q8_0;
  a.w = w.data();
  a.x = x.data();
  a.y = y.data();
  a.m = 2;
  a.n = 4;
  a.k = k;
  a.scratch = scratch;
  hal::MatmulArgs b = a;
  b.x = x2.data();  // another X
  const hal::MatmulArgs mismatched[] = {a, b};
  EXPECT_FALSE(dut_->matmulGroup(*pools_[0], mismatched).ok());
  const hal::MatmulArgs tooMany[] = {a, a, a, a, a};
  EXPECT_FALSE(dut_->matmulGroup(*pools_[0], tooMany).ok());
  hal::MatmulArgs c = a;
  c.scratch = {};  // the first member's scratch is the one used
  const hal::MatmulArgs noScratch[] = {c, a};
  EXPECT_FALSE(dut_->matmulGroup(*pools_[0], noScratch).ok());
  for (float v : y) EXPECT_EQ(v, -7.0f);
}

TEST_P(Conformance, GetRowsEveryTypeIsExact) {
  for (DType t : kWeightTypes) {
    const size_t cols = hal::dtypeTraits(static_cast<uint32_t>(t))->blockSize == 256 ? 512 : 96;
    const size_t rows = 9, rb = *hal::rowBytes(t, cols);
    std::vector<std::byte> table(rows * rb);
    for (size_t r = 0; r < rows; ++r) {
      ASSERT_TRUE(hal::quantizeRow(t, randomFloats(rng_, cols), std::span(table).subspan(r * rb, rb)).ok());
    }
    const std::vector<int32_t> ids = {3, 0, 8, 3, 5};
    hal::GetRowsArgs a;
    a.type = t;
    a.table = table.data();
    a.tableRows = rows;
    a.cols = cols;
    a.ids = ids;
    std::vector<float> expect(ids.size() * cols), got(ids.size() * cols);
    a.out = expect.data();
    ASSERT_TRUE(ref_->getRows(*refPool_, a).ok());
    for (auto& pool : pools_) {
      a.out = got.data();
      ASSERT_TRUE(dut_->getRows(*pool, a).ok());
      ASSERT_EQ(std::memcmp(got.data(), expect.data(), got.size() * 4), 0) << hal::dtypeName(t);
    }
  }
}

void expectClose(const std::vector<float>& got, const std::vector<float>& expect, double rel, double abs,
                 const std::string& what) {
  ASSERT_EQ(got.size(), expect.size());
  for (size_t i = 0; i < got.size(); ++i) {
    ASSERT_NEAR(got[i], expect[i], abs + rel * std::fabs(expect[i])) << what << " [" << i << "]";
  }
}

TEST_P(Conformance, RmsNormSoftmaxAndElementwiseOps) {
  for (auto& pool : pools_) {
    for (size_t cols : {size_t{1}, size_t{7}, size_t{576}, size_t{1000}}) {
      const size_t rows = 5;
      const std::vector<float> x = randomFloats(rng_, rows * cols), w = randomFloats(rng_, cols);
      std::vector<float> e(rows * cols), g(rows * cols);
      hal::RmsNormArgs rn;
      rn.x = x.data();
      rn.w = w.data();
      rn.rows = rows;
      rn.cols = cols;
      rn.eps = 1e-6f;
      rn.y = e.data();
      ASSERT_TRUE(ref_->rmsNorm(*refPool_, rn).ok());
      rn.y = g.data();
      ASSERT_TRUE(dut_->rmsNorm(*pool, rn).ok());
      expectClose(g, e, 1e-6, 1e-7, "rms_norm");

      std::vector<float> mask(rows * cols, 0.0f);
      for (size_t r = 0; r < rows; ++r) {
        for (size_t c = 0; c < cols; ++c) mask[r * cols + c] = c > r + 1 ? -INFINITY : 0.0f;
      }
      hal::SoftmaxArgs sm;
      sm.x = x.data();
      sm.rows = rows;
      sm.cols = cols;
      sm.scale = 0.7f;
      sm.mask = mask.data();
      sm.y = e.data();
      ASSERT_TRUE(ref_->softmax(*refPool_, sm).ok());
      sm.y = g.data();
      ASSERT_TRUE(dut_->softmax(*pool, sm).ok());
      expectClose(g, e, 1e-5, 1e-7, "softmax");

      const std::vector<float> up = randomFloats(rng_, rows * cols);
      ASSERT_TRUE(ref_->siluMul(*refPool_, x, up, e).ok());
      ASSERT_TRUE(dut_->siluMul(*pool, x, up, g).ok());
      expectClose(g, e, 1e-6, 1e-7, "silu_mul");
      ASSERT_TRUE(ref_->add(*refPool_, x, up, e).ok());
      ASSERT_TRUE(dut_->add(*pool, x, up, g).ok());
      expectClose(g, e, 0, 0, "add");
      e = x;
      g = x;
      ASSERT_TRUE(ref_->addBias(*refPool_, e, w, rows).ok());
      ASSERT_TRUE(dut_->addBias(*pool, g, w, rows).ok());
      expectClose(g, e, 0, 0, "add_bias");
      ASSERT_TRUE(ref_->scale(*refPool_, e, 0.125f).ok());
      ASSERT_TRUE(dut_->scale(*pool, g, 0.125f).ok());
      expectClose(g, e, 0, 0, "scale");
    }
  }
}

TEST_P(Conformance, RopeNormalNeoxPartialAndFreqFactors) {
  const size_t tokens = 6, heads = 3;
  std::vector<int32_t> pos(tokens);
  for (size_t t = 0; t < tokens; ++t) pos[t] = static_cast<int32_t>(t * 37 + 5);
  // headDim 40 leaves pairs past a whole vector (20 and 10 pairs) for kernels that rotate 8 or 16 at a time.
  for (size_t headDim : {size_t{64}, size_t{40}}) {
    const std::vector<float> factors = [&] {
      std::vector<float> f(headDim / 2);
      for (size_t i = 0; i < f.size(); ++i) f[i] = 1.0f + static_cast<float>(i % 5);
      return f;
    }();
    for (auto& pool : pools_) {
      for (hal::RopeMode mode : {hal::RopeMode::normal, hal::RopeMode::neox}) {
        for (size_t nDims : {size_t{0}, headDim / 2}) {
          for (bool ff : {false, true}) {
            const std::vector<float> x = randomFloats(rng_, tokens * heads * headDim);
            std::vector<float> e = x, g = x;
            hal::RopeArgs a;
            a.tokens = tokens;
            a.heads = heads;
            a.headDim = headDim;
            a.nDims = nDims;
            a.positions = pos.data();
            a.freqBase = 500000.0f;
            a.freqFactors = ff && nDims == 0 ? factors.data() : nullptr;
            a.mode = mode;
            a.x = e.data();
            ASSERT_TRUE(ref_->rope(*refPool_, a).ok());
            a.x = g.data();
            ASSERT_TRUE(dut_->rope(*pool, a).ok());
            expectClose(g, e, 1e-5, 1e-6, "rope");
          }
        }
      }
    }
  }
}

TEST_P(Conformance, StoreKvAndAttentionWithGqaAndCausalPrefill) {
  struct Case {
    size_t heads, kvHeads, headDim, capacity, pos0, tokens;
  };
  for (const Case c : {Case{4, 4, 32, 16, 0, 1}, Case{8, 2, 64, 40, 0, 7}, Case{6, 3, 16, 64, 21, 5},
                       Case{9, 3, 64, 50, 33, 1}, Case{4, 2, 128, 48, 19, 3},
                       Case{4, 2, 64, 700, 600, 3}}) {  // last: a long history
    const size_t kvDim = c.kvHeads * c.headDim;
    std::vector<uint16_t> ke(c.kvHeads * c.capacity * c.headDim, 0), ve = ke;
    // History before pos0, then the new tokens: both stored through storeKv.
    const std::vector<float> kAll = randomFloats(rng_, (c.pos0 + c.tokens) * kvDim);
    const std::vector<float> vAll = randomFloats(rng_, (c.pos0 + c.tokens) * kvDim);
    hal::StoreKvArgs st;
    st.k = kAll.data();
    st.v = vAll.data();
    st.tokens = c.pos0 + c.tokens;
    st.cache = {ke.data(), ve.data(), c.kvHeads, c.headDim, c.capacity};
    ASSERT_TRUE(ref_->storeKv(*refPool_, st).ok());
    for (auto& pool : pools_) {
      std::vector<uint16_t> kg(ke.size(), 0), vg(ke.size(), 0);
      st.cache = {kg.data(), vg.data(), c.kvHeads, c.headDim, c.capacity};
      st.tokens = c.pos0;
      ASSERT_TRUE(dut_->storeKv(*pool, st).ok());
      hal::StoreKvArgs tail = st;
      tail.k = kAll.data() + c.pos0 * kvDim;
      tail.v = vAll.data() + c.pos0 * kvDim;
      tail.pos0 = c.pos0;
      tail.tokens = c.tokens;
      ASSERT_TRUE(dut_->storeKv(*pool, tail).ok());
      ASSERT_EQ(kg, ke);
      ASSERT_EQ(vg, ve);
    }
    const std::vector<float> q = randomFloats(rng_, c.tokens * c.heads * c.headDim);
    hal::AttentionArgs a;
    a.q = q.data();
    a.tokens = c.tokens;
    a.heads = c.heads;
    a.k = ke.data();
    a.v = ve.data();
    a.kvHeads = c.kvHeads;
    a.headDim = c.headDim;
    a.capacity = c.capacity;
    a.kvLen = c.pos0 + c.tokens;
    a.pos0 = c.pos0;
    a.scale = 1.0f / std::sqrt(static_cast<float>(c.headDim));
    std::vector<float> e(c.tokens * c.heads * c.headDim), scratch(ref_->attentionScratchFloats(a.kvLen, 3));
    a.out = e.data();
    a.scratch = scratch;
    ASSERT_TRUE(ref_->attention(*refPool_, a).ok());
    for (auto& pool : pools_) {
      std::vector<float> g(e.size());
      a.out = g.data();
      ASSERT_TRUE(dut_->attention(*pool, a).ok());
      expectClose(g, e, 1e-5, 1e-6, "attention");
    }
  }
}

std::vector<std::string> backendNames() {
  std::vector<std::string> names;
  for (const hal::ComputeDevice* d : hal::ComputeRegistry::instance().devices()) names.push_back(d->name());
  return names;
}

INSTANTIATE_TEST_SUITE_P(Backends, Conformance, ::testing::ValuesIn(backendNames()),
                         [](const ::testing::TestParamInfo<std::string>& p) {
                           std::string s = p.param;
                           std::replace(s.begin(), s.end(), '-', '_');
                           return s;
                         });

}  // namespace
}  // namespace sotto::test
