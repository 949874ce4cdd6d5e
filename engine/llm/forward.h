// SPDX-License-Identifier: MIT
// InferenceContext: the llama / qwen2 forward pass on the compute HAL, with its KV cache and every buffer reserved.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "engine/llm/kv_cache.h"
#include "engine/llm/model.h"
#include "engine/llm/tokenizer.h"
#include "sotto/hal/compute.h"
#include "sotto/hal/result.h"
#include "sotto/hal/thread_pool.h"

namespace sotto::llm {

struct ContextOptions {
  std::string backend = "cpu";       // compute registry name: "cpu" (SIMD) or "cpu-ref" (scalar oracle)
  hal::ThreadPool* pool = nullptr;   // borrowed, must outlive the context; null: the context makes its own
  unsigned threads = 1;              // size of the context's own pool (when pool is null)
  uint32_t nCtx = 2048;              // positions in the KV cache; 0 = the model's training context. Capped by it.
  uint32_t maxBatch = 512;           // tokens per forward pass (prompt prefill); scratch is sized for it
};

// Optional outputs of eval() beyond the last token's logits.
struct EvalOutputs {
  std::span<float> allLogits;  // tokens.size() × nVocab: the logits of every evaluated position
  std::span<float> hiddenSum;  // nEmbd: the final (output-normed) hidden state of every token is added here
};

// Owns a backend instance, the KV cache for nCtx positions and the activation and op scratch for maxBatch tokens,
// all allocated by create(): eval() never allocates, locks (beyond the pool's barrier) or logs.
//
// Threading: create() on the control thread; everything else from one thread at a time (the generation thread),
// which also drives the pool. The Model is borrowed and must outlive the context.
class InferenceContext {
 public:
  // Errors: unknown backend name, a weight type the backend cannot run (named), a bad option.
  static Result<std::unique_ptr<InferenceContext>> create(const Model& model, const ContextOptions& options);
  ~InferenceContext();
  InferenceContext(const InferenceContext&) = delete;
  InferenceContext& operator=(const InferenceContext&) = delete;

  // Runs `tokens` at positions position() .. position() + size - 1 (in batches of maxBatch), appends them to the
  // KV cache and leaves the last token's logits in logits(). Errors (nothing is appended): no tokens, an id
  // outside the vocabulary, the context would overflow, an output span of the wrong size.
  Status eval(std::span<const TokenId> tokens, const EvalOutputs& outputs = {});

  // Logits after the last eval() (nVocab floats).
  std::span<const float> logits() const { return logits_; }
  // Tokens in the KV cache (the next position).
  size_t position() const { return kv_->length(); }
  size_t capacity() const { return kv_->capacity(); }
  size_t maxBatch() const { return maxBatch_; }
  // Forgets positions ≥ n (n ≤ position()): a shared prompt prefix stays cached.
  void truncate(size_t n) { kv_->setLength(n < kv_->length() ? n : kv_->length()); }
  void reset() { kv_->clear(); }

  const Model& model() const { return model_; }
  // The keys and values (the prefix cache saves and restores them).
  KvCache& kv() { return *kv_; }
  const KvCache& kv() const { return *kv_; }
  hal::ComputeBackend& backend() { return *backend_; }
  hal::ThreadPool& pool() { return *pool_; }
  // Bytes reserved by create() (KV cache and scratch; the weights stay in the mapping).
  size_t reservedBytes() const;

 private:
  InferenceContext(const Model& model) : model_(model) {}
  // One forward pass over ≤ maxBatch tokens at position pos0. logitsOut: m × nVocab, or empty (last only).
  Status forward(std::span<const TokenId> tokens, size_t pos0, std::span<float> logitsOut, std::span<float> hiddenSum);
  Status matmul(const Weight& w, const float* x, size_t m, float* y, size_t yStride = 0);
  hal::MatmulArgs matmulArgs(const Weight& w, const float* x, size_t m, float* y, size_t yStride = 0);

  const Model& model_;
  std::unique_ptr<hal::ComputeBackend> backend_;
  std::unique_ptr<hal::ThreadPool> ownPool_;
  hal::ThreadPool* pool_ = nullptr;
  std::unique_ptr<KvCache> kv_;
  size_t maxBatch_ = 0;
  float attnScale_ = 1.0f;

  // Activations for maxBatch tokens, row-major [token][...].
  std::vector<float> x_;      // residual stream, nEmbd
  std::vector<float> xn_;     // normed input of a block / block output, nEmbd
  std::vector<float> q_;      // qDim
  std::vector<float> k_;      // kvDim
  std::vector<float> v_;      // kvDim
  std::vector<float> attn_;   // qDim
  std::vector<float> gate_;   // nFf
  std::vector<float> up_;     // nFf
  std::vector<float> logits_; // nVocab (last token)
  std::vector<int32_t> positions_;
  std::vector<std::byte> matmulScratch_;
  std::vector<float> attnScratch_;
};

}  // namespace sotto::llm
