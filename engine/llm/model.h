// SPDX-License-Identifier: MIT
// Model: a llama / qwen2 GGUF file's hyper-parameters and its weights bound (mmapped, shape-checked) by layer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "engine/llm/gguf.h"
#include "sotto/hal/compute.h"
#include "sotto/hal/dtype.h"
#include "sotto/hal/result.h"

namespace sotto::llm {

enum class Architecture : uint8_t {
  llama,  // Llama 1/2/3, SmolLM2, TinyLlama, stories: RoPE on adjacent pairs, optional q/k/v biases
  qwen2,  // Qwen2 / Qwen2.5: NeoX RoPE (pairs i, i + d/2), q/k/v biases
};
const char* architectureName(Architecture a);

// What the forward pass needs to know, from `{arch}.*` metadata (llama.cpp's keys and defaults).
struct ModelParams {
  Architecture arch = Architecture::llama;
  uint32_t nEmbd = 0;
  uint32_t nLayer = 0;
  uint32_t nHead = 0;
  uint32_t nHeadKv = 0;
  uint32_t headDim = 0;     // attention.key_length, else nEmbd / nHead
  uint32_t nFf = 0;         // feed_forward_length
  uint32_t nVocab = 0;
  uint32_t nCtxTrain = 0;   // context_length: the longest context the model was trained for
  uint32_t ropeDims = 0;    // rope.dimension_count (≤ headDim), else headDim
  float ropeFreqBase = 10000.0f;
  float ropeFreqScale = 1.0f;  // 1 / rope.scaling.factor for linear scaling
  hal::RopeMode ropeMode = hal::RopeMode::normal;
  float rmsEps = 1e-5f;
  bool tiedOutput = false;       // no output.weight: the logits reuse token_embd
  bool qkvBias = false;          // attn_{q,k,v}.bias present
  bool ropeFreqFactors = false;  // rope_freqs.weight present (llama3 rope scaling)

  size_t qDim() const { return static_cast<size_t>(nHead) * headDim; }
  size_t kvDim() const { return static_cast<size_t>(nHeadKv) * headDim; }
};

// A 2-D weight in the mapping: `rows` rows of `cols` elements (ggml ne[1] × ne[0]), rows rowBytes apart.
struct Weight {
  const GgufTensor* tensor = nullptr;  // name and type for messages
  hal::DType type = hal::DType::F32;
  const void* data = nullptr;
  size_t rows = 0, cols = 0;
  size_t rowBytes = 0;
};

struct LayerWeights {
  const float* attnNorm = nullptr;  // nEmbd
  Weight wq, wk, wv, wo;            // [qDim × nEmbd], [kvDim × nEmbd] ×2, [nEmbd × qDim]
  const float* bq = nullptr;        // qDim, or null
  const float* bk = nullptr;        // kvDim, or null
  const float* bv = nullptr;        // kvDim, or null
  const float* ffnNorm = nullptr;   // nEmbd
  Weight gate, up, down;            // [nFf × nEmbd] ×2, [nEmbd × nFf]
};

struct ModelLoadOptions {
  GgufOpenOptions gguf;  // mlock / populate the mapping
};

// Immutable after load(): any thread may read it; it must outlive every context made from it.
class Model {
 public:
  // Opens, validates and binds a model file. Errors name the file and what is wrong: an architecture other than
  // llama/qwen2, a missing or ill-typed hyper-parameter, a tensor that is missing, of the wrong shape, of an
  // unsupported type, or not used by the architecture's graph (refused rather than silently ignored).
  // Control thread; blocks on I/O.
  static Result<std::unique_ptr<Model>> load(const std::string& path, const ModelLoadOptions& options = {});
  // Same over an already opened file (taken over).
  static Result<std::unique_ptr<Model>> fromFile(std::unique_ptr<GgufFile> file);

  ~Model();
  Model(const Model&) = delete;
  Model& operator=(const Model&) = delete;

  const ModelParams& params() const { return params_; }
  const GgufFile& file() const { return *file_; }
  const Weight& tokenEmbd() const { return tokenEmbd_; }
  const Weight& output() const { return tiedOutput() ? tokenEmbd_ : output_; }
  bool tiedOutput() const { return params_.tiedOutput; }
  const float* outputNorm() const { return outputNorm_; }
  const float* ropeFreqs() const { return ropeFreqs_; }  // ropeDims / 2 divisors, or null
  std::span<const LayerWeights> layers() const { return layers_; }
  // Bytes of all weights in the file.
  uint64_t weightBytes() const { return weightBytes_; }
  // One line: "llama, 5 layers, n_embd 64, 8/4 heads × 8, ffn 172, vocab 512, ctx 512, f32".
  std::string describe() const;

  // Whether `backend` can run every weight of this model; the error names the first tensor it cannot.
  Status checkBackend(const hal::ComputeBackend& backend) const;

 private:
  Model() = default;
  Status bind();

  std::unique_ptr<GgufFile> file_;
  ModelParams params_;
  Weight tokenEmbd_, output_;
  const float* outputNorm_ = nullptr;
  const float* ropeFreqs_ = nullptr;
  std::vector<LayerWeights> layers_;
  uint64_t weightBytes_ = 0;
};

// Reads the hyper-parameters alone (no tensor checks); used by load() and by tools that only describe a file.
Result<ModelParams> readModelParams(const GgufFile& file);

}  // namespace sotto::llm
