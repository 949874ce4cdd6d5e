// SPDX-License-Identifier: MIT
// The `cpu` compute backend: SIMD matmul kernels picked per weight type from what the CPU has (AVX-512 VNNI,
// AVX2, NEON dotprod, NEON), the scalar reference code for everything else.
#include <algorithm>
#include <array>
#include <string>

#include "../common/ref_ops.h"
#include "kernels.h"
#include "sotto/hal/compute.h"
#include "sotto/hal/cpu.h"

namespace sotto::hal {
namespace {

using compute::cpu::MatKernels;
using compute::cpu::MatTile;

constexpr std::array<DType, 11> kWeightTypes{DType::F32,  DType::F16,  DType::BF16, DType::Q8_0,
                                             DType::Q4_0, DType::Q4_1, DType::Q5_0, DType::Q5_1,
                                             DType::Q4_K, DType::Q5_K, DType::Q6_K};

// The kernel sets this CPU can run, best first.
std::vector<const MatKernels*> usableKernelSets() {
  std::vector<const MatKernels*> sets;
  [[maybe_unused]] const CpuFeatures& f = cpuFeatures();
#if defined(__x86_64__)
  const bool avx2 = f.avx2 && f.fma && f.f16c;
  if (avx2 && f.avx512f && f.avx512bw && f.avx512vl && f.avx512vnni) {
    sets.push_back(compute::cpu::avx512VnniKernels());
  }
  if (avx2) sets.push_back(compute::cpu::avx2Kernels());
#elif defined(__aarch64__)
  if (f.dotprod) sets.push_back(compute::cpu::neonDotKernels());
  sets.push_back(compute::cpu::neonKernels());  // Advanced SIMD is part of the aarch64 baseline
#endif
  return sets;
}

// Per weight type, the best kernel set that has it, or null (the scalar reference dot products).
struct KernelChoice {
  std::array<const MatKernels*, kWeightTypes.size()> byType{};
  const MatKernels* attention = nullptr;  // the first set with an attention kernel, or null (scalar reference)
  const MatKernels* elementwise = nullptr;  // the best set (its vector routines, e.g. siluMul, or the reference)

  KernelChoice() {
    const auto sets = usableKernelSets();
    if (!sets.empty()) elementwise = sets.front();
    for (const MatKernels* k : sets) {
      if (k->hasAttention()) {
        attention = k;
        break;
      }
    }
    for (size_t i = 0; i < kWeightTypes.size(); ++i) {
      for (const MatKernels* k : sets) {
        if (k->has(kWeightTypes[i])) {
          byType[i] = k;
          break;
        }
      }
    }
  }
  const MatKernels* forType(DType t) const {
    for (size_t i = 0; i < kWeightTypes.size(); ++i) {
      if (kWeightTypes[i] == t) return byType[i];
    }
    return nullptr;
  }
  std::string describe() const {
    std::string s;
    for (size_t i = 0; i < kWeightTypes.size(); ++i) {
      s += s.empty() ? "" : " ";
      s += std::string(dtypeName(kWeightTypes[i])) + "=" + (byType[i] != nullptr ? byType[i]->isa() : "scalar");
    }
    return s;
  }
};

const KernelChoice& kernelChoice() {
  static const KernelChoice choice;  // CPU features do not change while we run
  return choice;
}

bool cpuSupports(ComputeOp op, DType type) {
  switch (op) {
    case ComputeOp::matmul:
    case ComputeOp::getRows: return isWeightType(type);
    case ComputeOp::attention:
    case ComputeOp::storeKv: return type == DType::F16;
    default: return type == DType::F32;
  }
}

// Rows per work chunk: enough chunks for dynamic balancing, big enough that the pool's atomic is not contended.
// Prefill chunks are whole multiples of 32 rows: the AVX-512 prefill tile computes 32 rows at a time (16 when
// fewer are left, at the cost of 16), so a chunk of 36 rows cost as much as 48 (a 20-token prefill of
// SmolLM2-135M spent 43 % of its samples waiting in the pool).
// Decode chunks also hold at least kMinDecodeChunkBytes of weights (at most a thread's share of the rows): the kernel
// reads a chunk as four streams, and a small model's 0.2–1 MB matrices cut into 16 chunks gave streams of 3–16 KB.
// 135M Q4_0 tg64 alternated medians: 16 chunks 172, at least 32 KiB 184, 64 KiB 179, 128 KiB 210, 256 KiB 198
// tok/s; 135M Q8_0 136 → 141, 360M Q8_0 56 → 57, 360M Q4_K_M 59 → 61 with 128 KiB.
constexpr size_t kMinDecodeChunkBytes = size_t{128} << 10;
size_t rowGrain(size_t n, size_t m, unsigned threads, size_t rowBytes) {
  const size_t target = threads == 1 ? n : n / (static_cast<size_t>(threads) * 8);
  if (m > 1) return std::max<size_t>(32, (target + 16) / 32 * 32);
  const size_t perThread = (n + threads - 1) / threads;
  const size_t byBytes = std::min(perThread, (kMinDecodeChunkBytes + rowBytes - 1) / std::max<size_t>(rowBytes, 1));
  return std::max({size_t{16}, target, byBytes});
}

// Items per chunk for a light element-wise op over `items` of `perItem` floats: chunks of at least `minItems`,
// and no split at all below about 32K floats (a few µs of work), where a pool run costs more than it saves.
size_t lightGrain(size_t perItem, size_t minItems) {
  constexpr size_t kMinParallelFloats = 32768;
  return std::max(minItems, (kMinParallelFloats + perItem - 1) / std::max<size_t>(perItem, 1));
}

class CpuBackend final : public ComputeBackend {
 public:
  CpuBackend() : ComputeBackend("cpu"), kernels_(kernelChoice()) {}
  bool supports(ComputeOp op, DType type) const override { return cpuSupports(op, type); }

 protected:
  void doMatmul(ThreadPool& pool, const MatmulArgs& a) override {
    doMatmulGroup(pool, std::span<const MatmulArgs>(&a, 1));
  }
  // X is quantized once (the members share it and, when their weight types allow, its activation type), then
  // the rows of every member are shared out in one pool run: fewer barriers per token.
  void doMatmulGroup(ThreadPool& pool, std::span<const MatmulArgs> group) override {
    const MatmulArgs& first = group[0];
    const DType xType = vecDotType(first.wType);
    for (const MatmulArgs& a : group) {
      if (vecDotType(a.wType) != xType) {  // rare (mixed activation types): one member at a time
        for (const MatmulArgs& b : group) doMatmulGroup(pool, std::span<const MatmulArgs>(&b, 1));
        return;
      }
    }
    std::byte* xq = compute::alignedScratch(first.scratch);
    const size_t xqStride = compute::activationRowStride(first.wType, first.k);
    // The packed copy (after the quantized rows) when one kernel set takes it for every member; the kernels decide
    // per type and row count whether they use it.
    const MatKernels* packer = kernels_.forType(first.wType);
    size_t xpStride = compute::packedActivationRowStride(first.wType, first.k);
    for (const MatmulArgs& a : group) {
      if (packer == nullptr || kernels_.forType(a.wType) != packer || !packer->packs(a.wType)) xpStride = 0;
    }
    std::byte* xp = xpStride != 0 ? xq + first.m * xqStride : nullptr;
    if (xqStride != 0) {
      pool.parallelFor(first.m, lightGrain(first.k, 4), [&](size_t r0, size_t r1, unsigned) {
        for (size_t r = r0; r < r1; ++r) {
          if (packer == nullptr || !packer->quantizeRow(xType, first.x + r * first.xStride, first.k, xq + r * xqStride)) {
            compute::ref::quantizeActivations(first.wType, first.x, first.xStride, first.k, xq, r, r + 1);
          }
          if (xp != nullptr) packer->packActivations(first.wType, xq + r * xqStride, first.k, first.m, r, xp);
        }
      });
    }
    std::array<size_t, ComputeBackend::kMaxMatmulGroup + 1> start{};  // first global row of each member
    for (size_t g = 0; g < group.size(); ++g) start[g + 1] = start[g] + group[g].n;
    const size_t rows = start[group.size()];
    pool.parallelFor(rows, rowGrain(rows, first.m, pool.threads(), first.wRowBytes), [&](size_t r0, size_t r1, unsigned) {
      for (size_t g = 0; g < group.size(); ++g) {
        const size_t lo = std::max(r0, start[g]), hi = std::min(r1, start[g + 1]);
        if (lo < hi) mulRows(group[g], xq, xqStride, xp, xpStride, lo - start[g], hi - start[g]);
      }
    });
  }
  // Rows [n0, n1) of one matmul against the already quantized X.
  void mulRows(const MatmulArgs& a, const std::byte* xq, size_t xqStride, const std::byte* xp, size_t xpStride,
               size_t n0, size_t n1) const {
    const MatKernels* kernels = kernels_.forType(a.wType);
    if (kernels == nullptr) {
      compute::ref::matmulRows(a, xq, xqStride, n0, n1);
      return;
    }
    MatTile tile;
    tile.w = static_cast<const std::byte*>(a.w);
    tile.wRowBytes = a.wRowBytes;
    tile.xq = xqStride != 0 ? xq : reinterpret_cast<const std::byte*>(a.x);
    tile.xqStride = xqStride != 0 ? xqStride : a.xStride * sizeof(float);
    tile.m = a.m;
    tile.k = a.k;
    tile.y = a.y;
    tile.yStride = a.yStride;
    tile.n0 = n0;
    tile.n1 = n1;
    tile.xp = xp;
    tile.xpStride = xpStride;
    kernels->mulTile(a.wType, tile);
  }
  void doGetRows(ThreadPool& pool, const GetRowsArgs& a) override {
    pool.parallelFor(a.ids.size(), 4, [&](size_t i0, size_t i1, unsigned) {
      for (size_t i = i0; i < i1; ++i) {
        const auto* row = static_cast<const std::byte*>(a.table) + static_cast<size_t>(a.ids[i]) * a.rowBytes;
        compute::ref::dequantizeRowTo(a.type, row, a.out + i * a.outStride, a.cols);
      }
    });
  }
  void doRmsNorm(ThreadPool& pool, const RmsNormArgs& a) override {
    pool.parallelFor(a.rows, lightGrain(a.cols, 8), [&](size_t r0, size_t r1, unsigned) {
      const MatKernels* k = kernels_.elementwise;
      for (size_t r = r0; r < r1; ++r) {
        if (k == nullptr || !k->rmsNorm(a.x + r * a.xStride, a.w, a.y + r * a.yStride, a.cols, a.eps)) {
          compute::ref::rmsNormRows(a, r, r + 1);
        }
      }
    });
  }
  // The angles as the reference computes them (same code, same flags: the same bytes), once per token for all
  // its heads; the rotation in the kernel set's vectors.
  void doRope(ThreadPool& pool, const RopeArgs& a) override {
    const MatKernels* k = kernels_.elementwise;
    constexpr size_t kMaxHalf = 256;
    const size_t half = a.nDims / 2;
    pool.parallelFor(a.tokens, lightGrain(a.heads * a.headDim, 8), [&](size_t t0, size_t t1, unsigned) {
      if (k == nullptr || half > kMaxHalf || !k->rope(nullptr, 0, a.headDim, a.nDims, false, nullptr)) {
        compute::ref::ropeTokens(a, t0, t1);
        return;
      }
      float cs[2 * kMaxHalf];
      for (size_t t = t0; t < t1; ++t) {
        compute::ref::ropeAngles(a, a.positions[t], cs, cs + half);
        k->rope(a.x + t * a.tokenStride, a.heads, a.headDim, a.nDims, a.mode == RopeMode::neox, cs);
      }
    });
  }
  void doSoftmax(ThreadPool& pool, const SoftmaxArgs& a) override {
    pool.parallelFor(a.rows, 8, [&](size_t r0, size_t r1, unsigned) { compute::ref::softmaxRows(a, r0, r1); });
  }
  void doSiluMul(ThreadPool& pool, std::span<const float> gate, std::span<const float> up,
                 std::span<float> out) override {
    const MatKernels* k = kernels_.elementwise;
    pool.parallelFor(out.size(), lightGrain(1, 4096), [&](size_t i0, size_t i1, unsigned) {
      if (k == nullptr || !k->siluMul(gate.data() + i0, up.data() + i0, out.data() + i0, i1 - i0)) {
        compute::ref::siluMul(gate.data() + i0, up.data() + i0, out.data() + i0, i1 - i0);
      }
    });
  }
  void doAdd(ThreadPool& pool, std::span<const float> a, std::span<const float> b, std::span<float> out) override {
    const MatKernels* k = kernels_.elementwise;
    pool.parallelFor(out.size(), lightGrain(1, 16384), [&](size_t i0, size_t i1, unsigned) {
      if (k == nullptr || !k->add(a.data() + i0, b.data() + i0, out.data() + i0, i1 - i0)) {
        compute::ref::add(a.data() + i0, b.data() + i0, out.data() + i0, i1 - i0);
      }
    });
  }
  void doAddBias(ThreadPool&, std::span<float> x, std::span<const float> bias, size_t rows, size_t stride) override {
    for (size_t r = 0; r < rows; ++r) {
      float* row = x.data() + r * stride;
      for (size_t i = 0; i < bias.size(); ++i) row[i] += bias[i];
    }
  }
  void doScale(ThreadPool&, std::span<float> x, float s) override {
    for (float& v : x) v *= s;
  }
  void doStoreKv(ThreadPool& pool, const StoreKvArgs& a) override {
    pool.parallelFor(a.tokens, lightGrain(2 * a.cache.kvHeads * a.cache.headDim, 4), [&](size_t t0, size_t t1, unsigned) {
      const MatKernels* k = kernels_.elementwise;
      const KvCacheView& c = a.cache;
      if (k == nullptr || !k->toHalf(a.k, c.k, 0)) {  // n = 0 only asks whether the set has the routine
        compute::ref::storeKvTokens(a, t0, t1);
        return;
      }
      for (size_t t = t0; t < t1; ++t) {
        for (size_t h = 0; h < c.kvHeads; ++h) {
          const size_t src = t * a.srcStride + h * c.headDim, dst = (h * c.capacity + a.pos0 + t) * c.headDim;
          k->toHalf(a.k + src, c.k + dst, c.headDim);
          k->toHalf(a.v + src, c.v + dst, c.headDim);
        }
      }
    });
  }
  void doAttention(ThreadPool& pool, const AttentionArgs& a) override {
    const size_t per = compute::alignUp(a.kvLen, 16);
    const MatKernels* k = kernels_.attention;
    if (k == nullptr) {
      pool.parallelFor(a.tokens * a.heads, 1, [&](size_t i0, size_t i1, unsigned thread) {
        compute::ref::attentionHeads(a, i0, i1, a.scratch.data() + thread * per);
      });
      return;
    }
    compute::cpu::AttnTile t;
    t.q = a.q;
    t.qStride = a.qStride;
    t.k = a.k;
    t.v = a.v;
    t.heads = a.heads;
    t.kvHeads = a.kvHeads;
    t.headDim = a.headDim;
    t.capacity = a.capacity;
    t.pos0 = a.pos0;
    t.scale = a.scale;
    t.out = a.out;
    t.outStride = a.outStride;
    pool.parallelFor(a.tokens * a.heads, 1, [&](size_t i0, size_t i1, unsigned thread) {
      k->attention(t, i0, i1, a.scratch.data() + thread * per);
    });
  }

 private:
  const KernelChoice& kernels_;
};

class CpuDevice final : public ComputeDevice {
 public:
  const std::string& name() const override { return name_; }
  std::string description() const override { return "cpu: " + kernelChoice().describe(); }
  bool supports(ComputeOp op, DType type) const override { return cpuSupports(op, type); }
  Result<std::unique_ptr<ComputeBackend>> createBackend() const override {
    return std::unique_ptr<ComputeBackend>(new CpuBackend());
  }

 private:
  std::string name_ = "cpu";
};

std::unique_ptr<ComputeDevice> makeCpuDevice() { return std::make_unique<CpuDevice>(); }

}  // namespace
}  // namespace sotto::hal

SOTTO_COMPUTE_BACKEND(&sotto::hal::makeCpuDevice)
