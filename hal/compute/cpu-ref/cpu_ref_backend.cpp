// SPDX-License-Identifier: MIT
// The `cpu-ref` compute backend: the scalar correctness oracle for every op × type. Work is split across the pool
// by output rows only, so results do not depend on the thread count.
#include "../common/ref_ops.h"
#include "sotto/hal/compute.h"

namespace sotto::hal {
namespace {

bool refSupports(ComputeOp op, DType type) {
  switch (op) {
    case ComputeOp::matmul:
    case ComputeOp::getRows: return isWeightType(type);
    case ComputeOp::attention:
    case ComputeOp::storeKv: return type == DType::F16;
    default: return type == DType::F32;
  }
}

class CpuRefBackend final : public ComputeBackend {
 public:
  CpuRefBackend() : ComputeBackend("cpu-ref") {}
  bool supports(ComputeOp op, DType type) const override { return refSupports(op, type); }

 protected:
  void doMatmul(ThreadPool& pool, const MatmulArgs& a) override {
    std::byte* xq = compute::alignedScratch(a.scratch);
    const size_t xqStride = compute::activationRowStride(a.wType, a.k);
    if (xqStride != 0) {
      pool.parallelFor(a.m, 1, [&](size_t r0, size_t r1, unsigned) {
        compute::ref::quantizeActivations(a.wType, a.x, a.xStride, a.k, xq, r0, r1);
      });
    }
    pool.parallelFor(a.n, 16, [&](size_t n0, size_t n1, unsigned) { compute::ref::matmulRows(a, xq, xqStride, n0, n1); });
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
    pool.parallelFor(a.rows, 8, [&](size_t r0, size_t r1, unsigned) { compute::ref::rmsNormRows(a, r0, r1); });
  }
  void doRope(ThreadPool& pool, const RopeArgs& a) override {
    pool.parallelFor(a.tokens, 8, [&](size_t t0, size_t t1, unsigned) { compute::ref::ropeTokens(a, t0, t1); });
  }
  void doSoftmax(ThreadPool& pool, const SoftmaxArgs& a) override {
    pool.parallelFor(a.rows, 8, [&](size_t r0, size_t r1, unsigned) { compute::ref::softmaxRows(a, r0, r1); });
  }
  void doSiluMul(ThreadPool&, std::span<const float> gate, std::span<const float> up, std::span<float> out) override {
    compute::ref::siluMul(gate.data(), up.data(), out.data(), out.size());
  }
  void doAdd(ThreadPool&, std::span<const float> a, std::span<const float> b, std::span<float> out) override {
    compute::ref::add(a.data(), b.data(), out.data(), out.size());
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
  void doStoreKv(ThreadPool&, const StoreKvArgs& a) override { compute::ref::storeKvTokens(a, 0, a.tokens); }
  void doAttention(ThreadPool& pool, const AttentionArgs& a) override {
    const size_t per = compute::alignUp(a.kvLen, 16);
    pool.parallelFor(a.tokens * a.heads, 1, [&](size_t i0, size_t i1, unsigned thread) {
      compute::ref::attentionHeads(a, i0, i1, a.scratch.data() + thread * per);
    });
  }
};

class CpuRefDevice final : public ComputeDevice {
 public:
  const std::string& name() const override { return name_; }
  std::string description() const override { return "cpu-ref: scalar reference kernels (the correctness oracle)"; }
  bool supports(ComputeOp op, DType type) const override { return refSupports(op, type); }
  Result<std::unique_ptr<ComputeBackend>> createBackend() const override {
    return std::unique_ptr<ComputeBackend>(new CpuRefBackend());
  }

 private:
  std::string name_ = "cpu-ref";
};

std::unique_ptr<ComputeDevice> makeCpuRefDevice() { return std::make_unique<CpuRefDevice>(); }

}  // namespace
}  // namespace sotto::hal

SOTTO_COMPUTE_BACKEND(&sotto::hal::makeCpuRefDevice)
