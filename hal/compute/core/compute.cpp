// SPDX-License-Identifier: MIT
// Argument checks shared by every compute backend (the public op methods) and the compute device registry.
#include <algorithm>
#include <array>
#include <string>

#include "../common/ref_ops.h"
#include "sotto/hal/compute.h"

namespace sotto::hal {
namespace {

// Cold path: only reached when a caller passes bad arguments (the message may allocate).
[[gnu::cold]] Error bad(const char* op, const std::string& what) {
  return makeError(Errc::invalid_argument, std::string(op) + ": " + what);
}

[[gnu::cold]] Error unsupportedType(const std::string& backend, ComputeOp op, DType t) {
  return makeError(Errc::unsupported,
                   backend + ": " + computeOpName(op) + " does not support " + dtypeName(t) + " tensors");
}

bool blockMultiple(DType t, size_t k) {
  const auto tr = dtypeTraits(static_cast<uint32_t>(t));
  return tr && k % tr->blockSize == 0;
}

}  // namespace

const char* computeOpName(ComputeOp op) {
  static constexpr std::array<const char*, kComputeOpCount> kNames{
      "matmul", "get_rows", "rms_norm", "rope", "softmax", "silu_mul", "add", "add_bias", "scale", "attention",
      "store_kv"};
  const auto i = static_cast<size_t>(op);
  return i < kNames.size() ? kNames[i] : "unknown";
}

bool isWeightType(DType t) {
  switch (t) {
    case DType::F32: case DType::F16: case DType::BF16: case DType::Q8_0: case DType::Q4_0:
    case DType::Q4_1: case DType::Q5_0: case DType::Q5_1: case DType::Q4_K: case DType::Q5_K: case DType::Q6_K:
      return true;
    default:
      return false;
  }
}

DType vecDotType(DType weight) {
  switch (weight) {
    case DType::Q8_0: case DType::Q4_0: case DType::Q5_0: return DType::Q8_0;
    case DType::Q4_1: case DType::Q5_1: return DType::Q8_1;
    case DType::Q4_K: case DType::Q5_K: case DType::Q6_K: return DType::Q8_K;
    default: return DType::F32;
  }
}

size_t ComputeBackend::matmulScratchBytes(DType wType, size_t m, size_t k) const {
  if (!isWeightType(wType) || !blockMultiple(vecDotType(wType), k)) return 0;
  const size_t stride = compute::activationRowStride(wType, k);
  return stride == 0 ? 0 : m * (stride + compute::packedActivationRowStride(wType, k)) + compute::kScratchAlign;
}

size_t ComputeBackend::attentionScratchFloats(size_t kvLen, unsigned threads) const {
  return compute::alignUp(kvLen, 16) * std::max(1u, threads);
}

namespace {

// matmul()'s argument checks, shared with matmulGroup(); resolves zero strides into `a`.
Status checkMatmul(const ComputeBackend& be, const std::string& name, MatmulArgs& a) {
  if (!be.supports(ComputeOp::matmul, a.wType)) return unsupportedType(name, ComputeOp::matmul, a.wType);
  if (a.w == nullptr || a.x == nullptr || a.y == nullptr) return bad("matmul", "null tensor");
  if (!blockMultiple(a.wType, a.k) || !blockMultiple(vecDotType(a.wType), a.k) || a.k == 0) {
    return bad("matmul", "k=" + std::to_string(a.k) + " is not a whole number of " + dtypeName(a.wType) + " blocks");
  }
  const size_t packed = *rowBytes(a.wType, a.k);
  if (a.wRowBytes == 0) a.wRowBytes = packed;
  if (a.xStride == 0) a.xStride = a.k;
  if (a.yStride == 0) a.yStride = a.n;
  if (a.wRowBytes < packed || a.xStride < a.k || a.yStride < a.n) return bad("matmul", "stride smaller than a row");
  // Rows are read through typed pointers: f32 at 4 bytes, halves and quant blocks (fp16 scales) at 2.
  const size_t align = a.wType == DType::F32 ? 4 : 2;
  if (reinterpret_cast<uintptr_t>(a.w) % align != 0 || a.wRowBytes % align != 0) {
    return bad("matmul", std::string(dtypeName(a.wType)) + " weights must be " + std::to_string(align) + "-byte aligned");
  }
  if (a.scratch.size() < be.matmulScratchBytes(a.wType, a.m, a.k)) {
    return bad("matmul", "scratch of " + std::to_string(a.scratch.size()) + " bytes, need " +
                             std::to_string(be.matmulScratchBytes(a.wType, a.m, a.k)));
  }
  return {};
}

}  // namespace

Status ComputeBackend::matmul(ThreadPool& pool, const MatmulArgs& in) {
  if (in.m == 0 || in.n == 0) {
    if (!supports(ComputeOp::matmul, in.wType)) return unsupportedType(name_, ComputeOp::matmul, in.wType);
    return {};
  }
  MatmulArgs a = in;
  if (Status st = checkMatmul(*this, name_, a); !st) return st;
  doMatmul(pool, a);
  return {};
}

Status ComputeBackend::matmulGroup(ThreadPool& pool, std::span<const MatmulArgs> group) {
  if (group.size() > kMaxMatmulGroup) {
    return bad("matmul_group", std::to_string(group.size()) + " members, at most " + std::to_string(kMaxMatmulGroup));
  }
  std::array<MatmulArgs, kMaxMatmulGroup> args;
  size_t n = 0;
  for (const MatmulArgs& in : group) {
    if (in.x != group[0].x || in.m != group[0].m || in.k != group[0].k || in.xStride != group[0].xStride) {
      return bad("matmul_group", "members must share x, m, k and xStride");
    }
    if (in.m == 0 || in.n == 0) {
      if (!supports(ComputeOp::matmul, in.wType)) return unsupportedType(name_, ComputeOp::matmul, in.wType);
      continue;
    }
    args[n] = in;
    if (Status st = checkMatmul(*this, name_, args[n]); !st) return st;
    // Members quantize X into the first member's scratch: it must be big enough for every activation type.
    if (group[0].scratch.size() < matmulScratchBytes(in.wType, in.m, in.k)) {
      return bad("matmul_group", "the first member's scratch is too small for " + std::string(dtypeName(in.wType)));
    }
    ++n;
  }
  if (n > 0) doMatmulGroup(pool, std::span<const MatmulArgs>(args.data(), n));
  return {};
}

Status ComputeBackend::getRows(ThreadPool& pool, const GetRowsArgs& in) {
  if (!supports(ComputeOp::getRows, in.type)) return unsupportedType(name_, ComputeOp::getRows, in.type);
  GetRowsArgs a = in;
  if (a.ids.empty()) return {};
  if (a.table == nullptr || a.out == nullptr) return bad("get_rows", "null tensor");
  if (!blockMultiple(a.type, a.cols) || a.cols == 0) return bad("get_rows", "cols is not a whole number of blocks");
  const size_t packed = *rowBytes(a.type, a.cols);
  if (a.rowBytes == 0) a.rowBytes = packed;
  if (a.outStride == 0) a.outStride = a.cols;
  if (a.rowBytes < packed || a.outStride < a.cols) return bad("get_rows", "stride smaller than a row");
  const size_t align = a.type == DType::F32 ? 4 : 2;
  if (reinterpret_cast<uintptr_t>(a.table) % align != 0 || a.rowBytes % align != 0) {
    return bad("get_rows", std::string(dtypeName(a.type)) + " table must be " + std::to_string(align) + "-byte aligned");
  }
  for (const int32_t id : a.ids) {
    if (id < 0 || static_cast<size_t>(id) >= a.tableRows) {
      return bad("get_rows", "row id " + std::to_string(id) + " outside the table of " + std::to_string(a.tableRows));
    }
  }
  doGetRows(pool, a);
  return {};
}

Status ComputeBackend::rmsNorm(ThreadPool& pool, const RmsNormArgs& in) {
  if (!supports(ComputeOp::rmsNorm, DType::F32)) return unsupportedType(name_, ComputeOp::rmsNorm, DType::F32);
  RmsNormArgs a = in;
  if (a.rows == 0) return {};
  if (a.x == nullptr || a.y == nullptr || a.cols == 0) return bad("rms_norm", "null tensor or empty rows");
  if (a.xStride == 0) a.xStride = a.cols;
  if (a.yStride == 0) a.yStride = a.cols;
  if (a.xStride < a.cols || a.yStride < a.cols) return bad("rms_norm", "stride smaller than a row");
  if (!(a.eps >= 0.0f)) return bad("rms_norm", "eps must be ≥ 0");
  doRmsNorm(pool, a);
  return {};
}

Status ComputeBackend::rope(ThreadPool& pool, const RopeArgs& in) {
  if (!supports(ComputeOp::rope, DType::F32)) return unsupportedType(name_, ComputeOp::rope, DType::F32);
  RopeArgs a = in;
  if (a.tokens == 0 || a.heads == 0) return {};
  if (a.x == nullptr || a.positions == nullptr) return bad("rope", "null tensor");
  if (a.nDims == 0) a.nDims = a.headDim;
  if (a.tokenStride == 0) a.tokenStride = a.heads * a.headDim;
  if (a.headDim == 0 || a.nDims % 2 != 0 || a.nDims > a.headDim) return bad("rope", "nDims must be even and ≤ headDim");
  if (a.tokenStride < a.heads * a.headDim) return bad("rope", "token stride smaller than heads × headDim");
  if (!(a.freqBase > 0.0f) || !(a.freqScale > 0.0f)) return bad("rope", "freqBase and freqScale must be > 0");
  doRope(pool, a);
  return {};
}

Status ComputeBackend::softmax(ThreadPool& pool, const SoftmaxArgs& in) {
  if (!supports(ComputeOp::softmax, DType::F32)) return unsupportedType(name_, ComputeOp::softmax, DType::F32);
  SoftmaxArgs a = in;
  if (a.rows == 0) return {};
  if (a.x == nullptr || a.y == nullptr || a.cols == 0) return bad("softmax", "null tensor or empty rows");
  if (a.xStride == 0) a.xStride = a.cols;
  if (a.yStride == 0) a.yStride = a.cols;
  if (a.maskStride == 0) a.maskStride = a.cols;
  if (a.xStride < a.cols || a.yStride < a.cols || a.maskStride < a.cols) return bad("softmax", "stride smaller than a row");
  doSoftmax(pool, a);
  return {};
}

Status ComputeBackend::siluMul(ThreadPool& pool, std::span<const float> gate, std::span<const float> up,
                               std::span<float> out) {
  if (!supports(ComputeOp::siluMul, DType::F32)) return unsupportedType(name_, ComputeOp::siluMul, DType::F32);
  if (gate.size() != out.size() || up.size() != out.size()) return bad("silu_mul", "sizes differ");
  if (!out.empty()) doSiluMul(pool, gate, up, out);
  return {};
}

Status ComputeBackend::add(ThreadPool& pool, std::span<const float> a, std::span<const float> b, std::span<float> out) {
  if (!supports(ComputeOp::add, DType::F32)) return unsupportedType(name_, ComputeOp::add, DType::F32);
  if (a.size() != out.size() || b.size() != out.size()) return bad("add", "sizes differ");
  if (!out.empty()) doAdd(pool, a, b, out);
  return {};
}

Status ComputeBackend::addBias(ThreadPool& pool, std::span<float> x, std::span<const float> bias, size_t rows,
                               size_t stride) {
  if (!supports(ComputeOp::addBias, DType::F32)) return unsupportedType(name_, ComputeOp::addBias, DType::F32);
  if (rows == 0 || bias.empty()) return {};
  if (stride == 0) stride = bias.size();
  if (stride < bias.size() || x.size() < (rows - 1) * stride + bias.size()) return bad("add_bias", "x too small");
  doAddBias(pool, x, bias, rows, stride);
  return {};
}

Status ComputeBackend::scale(ThreadPool& pool, std::span<float> x, float s) {
  if (!supports(ComputeOp::scale, DType::F32)) return unsupportedType(name_, ComputeOp::scale, DType::F32);
  if (!x.empty()) doScale(pool, x, s);
  return {};
}

Status ComputeBackend::storeKv(ThreadPool& pool, const StoreKvArgs& in) {
  if (!supports(ComputeOp::storeKv, DType::F16)) return unsupportedType(name_, ComputeOp::storeKv, DType::F16);
  StoreKvArgs a = in;
  if (a.tokens == 0) return {};
  const KvCacheView& c = a.cache;
  if (a.k == nullptr || a.v == nullptr || c.k == nullptr || c.v == nullptr) return bad("store_kv", "null tensor");
  if (c.kvHeads == 0 || c.headDim == 0) return bad("store_kv", "empty cache shape");
  if (a.srcStride == 0) a.srcStride = c.kvHeads * c.headDim;
  if (a.srcStride < c.kvHeads * c.headDim) return bad("store_kv", "source stride smaller than kvHeads × headDim");
  if (a.pos0 > c.capacity || a.tokens > c.capacity - a.pos0) {
    return bad("store_kv", "positions " + std::to_string(a.pos0) + "+" + std::to_string(a.tokens) +
                               " exceed the cache capacity " + std::to_string(c.capacity));
  }
  doStoreKv(pool, a);
  return {};
}

Status ComputeBackend::attention(ThreadPool& pool, const AttentionArgs& in) {
  if (!supports(ComputeOp::attention, DType::F16)) return unsupportedType(name_, ComputeOp::attention, DType::F16);
  AttentionArgs a = in;
  if (a.tokens == 0 || a.heads == 0) return {};
  if (a.q == nullptr || a.k == nullptr || a.v == nullptr || a.out == nullptr) return bad("attention", "null tensor");
  if (a.kvHeads == 0 || a.headDim == 0 || a.heads % a.kvHeads != 0) {
    return bad("attention", "heads must be a multiple of kvHeads (GQA)");
  }
  if (a.qStride == 0) a.qStride = a.heads * a.headDim;
  if (a.outStride == 0) a.outStride = a.heads * a.headDim;
  if (a.qStride < a.heads * a.headDim || a.outStride < a.heads * a.headDim) return bad("attention", "stride too small");
  if (a.kvLen > a.capacity || a.pos0 > a.kvLen || a.tokens > a.kvLen - a.pos0) {
    return bad("attention", "query positions " + std::to_string(a.pos0) + "+" + std::to_string(a.tokens) +
                                " outside kvLen " + std::to_string(a.kvLen) + " (capacity " +
                                std::to_string(a.capacity) + ")");
  }
  if (a.scratch.size() < attentionScratchFloats(a.kvLen, pool.threads())) return bad("attention", "scratch too small");
  doAttention(pool, a);
  return {};
}

ComputeRegistry& ComputeRegistry::instance() {
  static ComputeRegistry registry;  // function-local: safe during other translation units' static init
  return registry;
}

bool ComputeRegistry::add(std::unique_ptr<ComputeDevice> device) {
  if (!device) return false;
  for (const auto& d : devices_) {
    if (d->name() == device->name()) return false;
  }
  devices_.push_back(std::move(device));
  return true;
}

std::vector<const ComputeDevice*> ComputeRegistry::devices() const {
  std::vector<const ComputeDevice*> out;
  for (const auto& d : devices_) out.push_back(d.get());
  return out;
}

Result<const ComputeDevice*> ComputeRegistry::find(const std::string& name) const {
  for (const auto& d : devices_) {
    if (d->name() == name) return d.get();
  }
  std::string known;
  for (const auto& d : devices_) known += (known.empty() ? "" : ", ") + d->name();
  return makeError(Errc::not_found,
                   "no compute backend '" + name + "' (this build has: " + (known.empty() ? "none" : known) + ")");
}

Result<std::unique_ptr<ComputeBackend>> ComputeRegistry::createBackend(const std::string& name) const {
  auto device = find(name);
  if (!device) return std::move(device).error();
  return (*device)->createBackend();
}

}  // namespace sotto::hal
