// SPDX-License-Identifier: MIT
// Compute HAL: registry → device → backend. The ops of a llama/qwen2 forward pass on f32 activations and
// ggml-typed weights, with a scalar oracle backend (cpu-ref) and a SIMD one (cpu) chosen at run time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "sotto/hal/dtype.h"
#include "sotto/hal/result.h"
#include "sotto/hal/thread_pool.h"

namespace sotto::hal {

// The ops a backend may implement. supports(op, type) answers per op × tensor type (see each op for its type).
enum class ComputeOp : uint8_t {
  matmul,     // type = weight type
  getRows,    // type = table type
  rmsNorm,    // F32
  rope,       // F32
  softmax,    // F32
  siluMul,    // F32
  add,        // F32
  addBias,    // F32
  scale,      // F32
  attention,  // F16 (the KV cache type)
  storeKv,    // F16
};
inline constexpr size_t kComputeOpCount = 11;
const char* computeOpName(ComputeOp op);

// Weight types matmul and getRows accept on every backend (the others are refused with Errc::unsupported).
bool isWeightType(DType t);
// The type X rows are quantized to for a dot product with a weight row (ggml's vec_dot_type):
// Q8_0 for Q8_0/Q4_0/Q5_0, Q8_1 for Q4_1/Q5_1, Q8_K for the K-quants, F32 for F32/F16/BF16 (X stays f32;
// F16/BF16 W is widened exactly).
DType vecDotType(DType weight);

// Y[m×n] = X[m×k] · W[n×k]ᵀ. m = 1 is the decode matvec; m > 1 prefill. k must be a multiple of the weight
// type's block size. X is quantized to vecDotType(wType) into `scratch` (size: matmulScratchBytes), never
// allocated. Rows may be strided; Y must not overlap X, W or scratch.
struct MatmulArgs {
  DType wType = DType::F32;
  const void* w = nullptr;   // n rows; row r starts at (const std::byte*)w + r * wRowBytes
  size_t wRowBytes = 0;      // 0 = packed (rowBytes(wType, k)); w and wRowBytes 4-byte aligned for F32, else 2
  const float* x = nullptr;  // m rows of k floats
  size_t xStride = 0;        // floats between X rows; 0 = k
  float* y = nullptr;        // m rows of n floats
  size_t yStride = 0;        // floats between Y rows; 0 = n
  size_t m = 1, n = 0, k = 0;
  std::span<std::byte> scratch;  // at least matmulScratchBytes(wType, m, k) bytes
};

// out[i][0..cols) = dequantized table row ids[i] (embedding lookup). Every id must be < tableRows.
struct GetRowsArgs {
  DType type = DType::F32;
  const void* table = nullptr;
  size_t tableRows = 0;
  size_t cols = 0;
  size_t rowBytes = 0;  // bytes between table rows; 0 = packed (alignment as MatmulArgs::w)
  std::span<const int32_t> ids;
  float* out = nullptr;
  size_t outStride = 0;  // floats; 0 = cols
};

// y = x / sqrt(mean(x²) + eps) * w, per row (w may be null: no weight). y may equal x. Sums in double.
struct RmsNormArgs {
  const float* x = nullptr;
  const float* w = nullptr;  // cols floats, or null
  float* y = nullptr;
  size_t rows = 0, cols = 0;
  size_t xStride = 0, yStride = 0;  // 0 = cols
  float eps = 1e-5f;
};

enum class RopeMode : uint8_t {
  normal,  // rotates pairs (2i, 2i+1): llama
  neox,    // rotates pairs (i, i + nDims/2): qwen2, gpt-neox
};

// In-place rotary embedding of x[token][head][headDim] (Q or K). Dimension pair i of a token at position p is
// rotated by θ = freqScale · p · freqBase^(-2i/nDims) / freqFactors[i] (θ is built by repeated multiplication as
// ggml does). Dimensions ≥ nDims are left as they are.
struct RopeArgs {
  float* x = nullptr;
  size_t tokens = 0, heads = 0, headDim = 0;
  size_t tokenStride = 0;  // floats between tokens; 0 = heads * headDim (heads are packed within a token)
  size_t nDims = 0;        // rotated dimensions (even, ≤ headDim); 0 = headDim
  const int32_t* positions = nullptr;  // tokens entries
  float freqBase = 10000.0f;
  float freqScale = 1.0f;               // linear position scaling (1 = none)
  const float* freqFactors = nullptr;  // nDims/2 divisors (llama3 rope_freqs) or null
  RopeMode mode = RopeMode::normal;
};

// y = softmax(x · scale + mask) per row. y may equal x. A row whose inputs are all -inf becomes all zeros.
struct SoftmaxArgs {
  const float* x = nullptr;
  float* y = nullptr;
  size_t rows = 0, cols = 0;
  size_t xStride = 0, yStride = 0;  // 0 = cols
  float scale = 1.0f;
  const float* mask = nullptr;  // rows × maskStride floats added after scaling (e.g. 0 / -inf), or null
  size_t maskStride = 0;        // 0 = cols
};

// A layer's F16 KV cache, values stored as IEEE binary16 bits. Layout: [kvHeads][capacity][headDim] for both K
// and V (a head's history is contiguous: attention streams it; V is not transposed).
struct KvCacheView {
  uint16_t* k = nullptr;
  uint16_t* v = nullptr;
  size_t kvHeads = 0, headDim = 0, capacity = 0;
};

// Writes K and V of `tokens` new tokens (f32 [token][kvHead][headDim]) at cache positions pos0 .. pos0+tokens-1,
// rounding to f16 (nearest even).
struct StoreKvArgs {
  const float* k = nullptr;
  const float* v = nullptr;
  size_t tokens = 0;
  size_t srcStride = 0;  // floats between tokens in k and v; 0 = kvHeads * headDim
  size_t pos0 = 0;
  KvCacheView cache;
};

// Attention of `tokens` query rows (f32 [token][head][headDim]) over cache positions [0, kvLen): query token t sits
// at position pos0 + t and sees positions ≤ pos0 + t (causal; pos0 + tokens ≤ kvLen). Query head h reads KV head
// h / (heads / kvHeads) (GQA). out[t][h] = Σ softmax(scale · q·k)_j v_j. scratch holds per-thread scores.
struct AttentionArgs {
  const float* q = nullptr;
  size_t tokens = 0, heads = 0;
  size_t qStride = 0;  // floats between query tokens; 0 = heads * headDim
  const uint16_t* k = nullptr;  // the cache, layout as KvCacheView
  const uint16_t* v = nullptr;
  size_t kvHeads = 0, headDim = 0, capacity = 0;
  size_t kvLen = 0, pos0 = 0;
  float scale = 1.0f;  // usually 1/sqrt(headDim)
  float* out = nullptr;
  size_t outStride = 0;      // floats between output tokens; 0 = heads * headDim
  std::span<float> scratch;  // at least attentionScratchFloats(kvLen, pool.threads())
};

// A backend instance: runs ops. Ops are called from one compute thread at a time (the pool's owner), which takes
// part in the work; they block until done, and never allocate, lock (beyond the pool's barrier), log or make
// system calls. Arguments are checked before anything runs: a bad shape or an unsupported type is an error and
// no output is written. Buffers are borrowed for the call.
class ComputeBackend {
 public:
  virtual ~ComputeBackend() = default;
  ComputeBackend(const ComputeBackend&) = delete;
  ComputeBackend& operator=(const ComputeBackend&) = delete;

  const std::string& name() const { return name_; }
  // Any thread.
  virtual bool supports(ComputeOp op, DType type) const = 0;

  // Scratch sizes for the worst case a caller configures (any thread; reserve once, reuse for every call).
  size_t matmulScratchBytes(DType wType, size_t m, size_t k) const;
  size_t attentionScratchFloats(size_t kvLen, unsigned threads) const;

  Status matmul(ThreadPool& pool, const MatmulArgs& a);
  // Up to kMaxMatmulGroup matmuls of the same X (same x, m, k and xStride; e.g. Q, K and V, or gate and up) in one
  // go: X is quantized once and all weights' rows are shared out in one pool run (one barrier instead of one per
  // matmul). Each member is checked as matmul() checks it; the first member's scratch is used. Weight types may
  // differ; a backend may still run members one by one when their activation types differ.
  static constexpr size_t kMaxMatmulGroup = 4;
  Status matmulGroup(ThreadPool& pool, std::span<const MatmulArgs> group);
  Status getRows(ThreadPool& pool, const GetRowsArgs& a);
  Status rmsNorm(ThreadPool& pool, const RmsNormArgs& a);
  Status rope(ThreadPool& pool, const RopeArgs& a);
  Status softmax(ThreadPool& pool, const SoftmaxArgs& a);
  // out = silu(gate) · up, element-wise (SwiGLU). out may equal gate or up.
  Status siluMul(ThreadPool& pool, std::span<const float> gate, std::span<const float> up, std::span<float> out);
  // out = a + b, element-wise (residual). out may equal a or b.
  Status add(ThreadPool& pool, std::span<const float> a, std::span<const float> b, std::span<float> out);
  // x[r][c] += bias[c] for rows of bias.size() floats, `stride` floats apart (0 = packed); x.size() covers them.
  Status addBias(ThreadPool& pool, std::span<float> x, std::span<const float> bias, size_t rows, size_t stride = 0);
  // x *= s.
  Status scale(ThreadPool& pool, std::span<float> x, float s);
  Status storeKv(ThreadPool& pool, const StoreKvArgs& a);
  Status attention(ThreadPool& pool, const AttentionArgs& a);

 protected:
  explicit ComputeBackend(std::string name) : name_(std::move(name)) {}
  // Hooks get checked arguments with strides and row sizes already resolved (never 0).
  virtual void doMatmul(ThreadPool& pool, const MatmulArgs& a) = 0;
  // Default: the members one after the other.
  virtual void doMatmulGroup(ThreadPool& pool, std::span<const MatmulArgs> group) {
    for (const MatmulArgs& a : group) doMatmul(pool, a);
  }
  virtual void doGetRows(ThreadPool& pool, const GetRowsArgs& a) = 0;
  virtual void doRmsNorm(ThreadPool& pool, const RmsNormArgs& a) = 0;
  virtual void doRope(ThreadPool& pool, const RopeArgs& a) = 0;
  virtual void doSoftmax(ThreadPool& pool, const SoftmaxArgs& a) = 0;
  virtual void doSiluMul(ThreadPool& pool, std::span<const float> gate, std::span<const float> up,
                         std::span<float> out) = 0;
  virtual void doAdd(ThreadPool& pool, std::span<const float> a, std::span<const float> b, std::span<float> out) = 0;
  virtual void doAddBias(ThreadPool& pool, std::span<float> x, std::span<const float> bias, size_t rows,
                         size_t stride) = 0;
  virtual void doScale(ThreadPool& pool, std::span<float> x, float s) = 0;
  virtual void doStoreKv(ThreadPool& pool, const StoreKvArgs& a) = 0;
  virtual void doAttention(ThreadPool& pool, const AttentionArgs& a) = 0;

 private:
  std::string name_;
};

// A compute device: what it supports and a factory for backend instances. Devices live in the registry for the
// whole process; every method may be called from any thread.
class ComputeDevice {
 public:
  virtual ~ComputeDevice() = default;
  virtual const std::string& name() const = 0;
  // One line for logs and --version: e.g. "cpu: avx2+fma+f16c kernels (q8_0 q4_0 q4_K q5_K q6_K f16 bf16 f32)".
  virtual std::string description() const = 0;
  virtual bool supports(ComputeOp op, DType type) const = 0;
  // Control thread; allocates.
  virtual Result<std::unique_ptr<ComputeBackend>> createBackend() const = 0;
};

using ComputeDeviceFactory = std::unique_ptr<ComputeDevice> (*)();

// Backends register themselves at static-initialization time (SOTTO_COMPUTE_BACKEND); lookups after main().
class ComputeRegistry {
 public:
  static ComputeRegistry& instance();
  bool add(std::unique_ptr<ComputeDevice> device);  // false for a duplicate name (a build mistake)
  std::vector<const ComputeDevice*> devices() const;
  // An unknown name is Errc::not_found naming what this build has.
  Result<const ComputeDevice*> find(const std::string& name) const;
  Result<std::unique_ptr<ComputeBackend>> createBackend(const std::string& name) const;

 private:
  std::vector<std::unique_ptr<ComputeDevice>> devices_;
};

}  // namespace sotto::hal

#define SOTTO_COMPUTE_CONCAT2(a, b) a##b
#define SOTTO_COMPUTE_CONCAT(a, b) SOTTO_COMPUTE_CONCAT2(a, b)
// One line in a backend's .cpp: SOTTO_COMPUTE_BACKEND(&makeCpuDevice); the factory returns the device.
#define SOTTO_COMPUTE_BACKEND(factory)                                                               \
  namespace {                                                                                        \
  [[maybe_unused]] const bool SOTTO_COMPUTE_CONCAT(sottoComputeRegistered_, __LINE__) =              \
      ::sotto::hal::ComputeRegistry::instance().add((factory)());                                    \
  }
