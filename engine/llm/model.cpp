// SPDX-License-Identifier: MIT
// Model loading: hyper-parameters from GGUF metadata, weight binding with shape and type checks.
#include "engine/llm/model.h"

#include <cmath>
#include <set>
#include <string>
#include <string_view>

namespace sotto::llm {
namespace {

// Upper bounds far above any model we could run, so products of them cannot overflow size_t.
constexpr uint64_t kMaxDim = 1u << 20;
constexpr uint64_t kMaxLayers = 4096;
constexpr uint64_t kMaxVocab = 1u << 22;

[[gnu::cold]] Error corrupt(const GgufFile& f, const std::string& what) {
  return makeError(Errc::corrupt, f.path() + ": " + what);
}
[[gnu::cold]] Error unsupported(const GgufFile& f, const std::string& what) {
  return makeError(Errc::unsupported, f.path() + ": " + what);
}

// A required or optional unsigned hyper-parameter `{arch}.{name}`; 0 when absent and not required.
Result<uint32_t> readDim(const GgufFile& f, const std::string& arch, const char* name, bool required,
                         uint64_t max = kMaxDim) {
  const std::string key = arch + "." + name;
  if (!f.has(key)) {
    if (required) return corrupt(f, key + " missing");
    return uint32_t{0};
  }
  const auto v = f.getUint(key);
  if (!v) return corrupt(f, key + " is not a single non-negative integer (per-layer values are not supported)");
  if (*v == 0 || *v > max) return corrupt(f, key + " = " + std::to_string(*v) + " is out of range");
  return static_cast<uint32_t>(*v);
}

Result<float> readFloat(const GgufFile& f, const std::string& key, float fallback, bool required) {
  if (!f.has(key)) {
    if (required) return corrupt(f, key + " missing");
    return fallback;
  }
  const auto v = f.getFloat(key);
  if (!v || !std::isfinite(*v)) return corrupt(f, key + " is not a finite float");
  return static_cast<float>(*v);
}

std::string shapeText(const GgufTensor& t) {
  std::string s = "[";
  for (uint32_t i = 0; i < t.nDims; ++i) s += (i ? ", " : "") + std::to_string(t.ne[i]);
  return s + "]";
}

// Binds tensors by name, remembering which were used so leftovers can be refused.
class Binder {
 public:
  Binder(const GgufFile& f, uint64_t& weightBytes) : f_(f), weightBytes_(weightBytes) {}

  const GgufTensor* find(const std::string& name) const { return f_.tensor(name); }

  // A matrix of `rows` rows of `cols` (ggml ne = {cols, rows}) of a type the compute HAL accepts.
  Result<Weight> matrix(const std::string& name, size_t cols, size_t rows) {
    const GgufTensor* t = f_.tensor(name);
    if (t == nullptr) return corrupt(f_, "tensor " + name + " missing");
    if (t->nDims != 2 || t->ne[0] != cols || t->ne[1] != rows) {
      return corrupt(f_, "tensor " + name + " has shape " + shapeText(*t) + ", expected [" + std::to_string(cols) +
                             ", " + std::to_string(rows) + "]");
    }
    if (!hal::isWeightType(t->type)) {
      return unsupported(f_, "tensor " + name + " has type " + hal::dtypeName(t->type) +
                                 ", which this engine does not support for weights");
    }
    const auto rb = hal::rowBytes(t->type, cols);
    if (!rb || *rb * rows != t->nbytes) return corrupt(f_, "tensor " + name + " size does not match its shape");
    used_.insert(name);
    weightBytes_ += t->nbytes;
    return Weight{t, t->type, t->data, rows, cols, static_cast<size_t>(*rb)};
  }

  // A vector of `n` F32 values (norm weights, biases, rope factors).
  Result<const float*> vector(const std::string& name, size_t n) {
    const GgufTensor* t = f_.tensor(name);
    if (t == nullptr) return corrupt(f_, "tensor " + name + " missing");
    if (t->nDims != 1 || t->ne[0] != n) {
      return corrupt(f_, "tensor " + name + " has shape " + shapeText(*t) + ", expected [" + std::to_string(n) + "]");
    }
    if (t->type != hal::DType::F32) {
      return unsupported(f_, "tensor " + name + " has type " + hal::dtypeName(t->type) + ", expected f32");
    }
    if (reinterpret_cast<uintptr_t>(t->data) % alignof(float) != 0) {
      return corrupt(f_, "tensor " + name + " is not aligned for f32");
    }
    used_.insert(name);
    weightBytes_ += t->nbytes;
    return reinterpret_cast<const float*>(t->data);
  }

  // Every tensor of the file must have been bound: an unknown one means a graph we do not implement.
  Status checkAllUsed(const char* arch) const {
    for (const GgufTensor& t : f_.tensors()) {
      if (used_.count(t.name) == 0) {
        return unsupported(f_, "tensor " + t.name + " is not part of the " + arch + " graph this engine implements");
      }
    }
    return {};
  }

 private:
  const GgufFile& f_;
  uint64_t& weightBytes_;
  std::set<std::string, std::less<>> used_;
};

#define SOTTO_TRY_ASSIGN(lhs, expr)          \
  do {                                       \
    auto sottoTmp = (expr);                  \
    if (!sottoTmp) return sottoTmp.error();  \
    lhs = std::move(*sottoTmp);              \
  } while (0)

}  // namespace

const char* architectureName(Architecture a) {
  switch (a) {
    case Architecture::llama: return "llama";
    case Architecture::qwen2: return "qwen2";
  }
  return "unknown";
}

Result<ModelParams> readModelParams(const GgufFile& f) {
  ModelParams p;
  const std::string arch(f.architecture());
  if (arch == "llama") {
    p.arch = Architecture::llama;
    p.ropeMode = hal::RopeMode::normal;
  } else if (arch == "qwen2") {
    p.arch = Architecture::qwen2;
    p.ropeMode = hal::RopeMode::neox;
  } else if (arch.empty()) {
    return corrupt(f, "general.architecture missing");
  } else {
    return unsupported(f, "architecture '" + arch + "' is not supported (supported: llama, qwen2)");
  }

  SOTTO_TRY_ASSIGN(p.nEmbd, readDim(f, arch, "embedding_length", true));
  SOTTO_TRY_ASSIGN(p.nLayer, readDim(f, arch, "block_count", true, kMaxLayers));
  SOTTO_TRY_ASSIGN(p.nFf, readDim(f, arch, "feed_forward_length", true));
  SOTTO_TRY_ASSIGN(p.nHead, readDim(f, arch, "attention.head_count", true));
  SOTTO_TRY_ASSIGN(p.nHeadKv, readDim(f, arch, "attention.head_count_kv", false));
  SOTTO_TRY_ASSIGN(p.nCtxTrain, readDim(f, arch, "context_length", true, 1u << 24));
  if (p.nHeadKv == 0) p.nHeadKv = p.nHead;
  if (p.nHead % p.nHeadKv != 0) {
    return corrupt(f, "head_count " + std::to_string(p.nHead) + " is not a multiple of head_count_kv " +
                          std::to_string(p.nHeadKv));
  }
  uint32_t keyLen = 0, valueLen = 0;
  SOTTO_TRY_ASSIGN(keyLen, readDim(f, arch, "attention.key_length", false));
  SOTTO_TRY_ASSIGN(valueLen, readDim(f, arch, "attention.value_length", false));
  if (keyLen != 0 || valueLen != 0) {
    if (keyLen != valueLen) return unsupported(f, "attention key_length != value_length is not supported");
    p.headDim = keyLen;
  } else {
    if (p.nEmbd % p.nHead != 0) return corrupt(f, "embedding_length is not a multiple of head_count");
    p.headDim = p.nEmbd / p.nHead;
  }
  if (p.headDim % 2 != 0) return corrupt(f, "head dimension " + std::to_string(p.headDim) + " is odd");
  SOTTO_TRY_ASSIGN(p.ropeDims, readDim(f, arch, "rope.dimension_count", false));
  if (p.ropeDims == 0) p.ropeDims = p.headDim;
  if (p.ropeDims % 2 != 0 || p.ropeDims > p.headDim) {
    return corrupt(f, arch + ".rope.dimension_count " + std::to_string(p.ropeDims) + " is odd or above the head size");
  }
  SOTTO_TRY_ASSIGN(p.ropeFreqBase, readFloat(f, arch + ".rope.freq_base", 10000.0f, false));
  SOTTO_TRY_ASSIGN(p.rmsEps, readFloat(f, arch + ".attention.layer_norm_rms_epsilon", 0.0f, true));
  if (!(p.ropeFreqBase > 0.0f) || !(p.rmsEps >= 0.0f)) return corrupt(f, "rope.freq_base or rms epsilon out of range");

  // RoPE scaling: linear is a position scale; llama3 comes as the rope_freqs tensor; others change the math.
  const std::string scalingKey = arch + ".rope.scaling.type";
  std::string scaling = "none";
  if (f.has(scalingKey)) {
    const auto s = f.getString(scalingKey);
    if (!s) return corrupt(f, scalingKey + " is not a string");
    scaling = std::string(*s);
  }
  float factor = 0.0f;
  SOTTO_TRY_ASSIGN(factor, readFloat(f, arch + ".rope.scaling.factor", 0.0f, false));
  if (factor == 0.0f) SOTTO_TRY_ASSIGN(factor, readFloat(f, arch + ".rope.scale_linear", 0.0f, false));
  if (scaling == "linear" || (scaling == "none" && f.has(arch + ".rope.scale_linear"))) {
    if (!(factor > 0.0f)) return corrupt(f, "linear RoPE scaling without a positive factor");
    p.ropeFreqScale = 1.0f / factor;
  } else if (scaling != "none" && scaling != "llama3") {
    return unsupported(f, "RoPE scaling type '" + scaling + "' is not supported (supported: none, linear, llama3)");
  }

  const std::string vocabKey = arch + ".vocab_size";
  if (f.has(vocabKey)) {
    SOTTO_TRY_ASSIGN(p.nVocab, readDim(f, arch, "vocab_size", true, kMaxVocab));
  } else if (const auto n = f.arrayLength("tokenizer.ggml.tokens"); n && *n > 0 && *n <= kMaxVocab) {
    p.nVocab = static_cast<uint32_t>(*n);
  } else if (const GgufTensor* t = f.tensor("token_embd.weight"); t != nullptr && t->nDims == 2 &&
                                                                    t->ne[1] > 0 && t->ne[1] <= kMaxVocab) {
    p.nVocab = static_cast<uint32_t>(t->ne[1]);
  } else {
    return corrupt(f, "vocabulary size unknown (no " + vocabKey + ", tokenizer.ggml.tokens or token_embd.weight)");
  }

  p.tiedOutput = f.tensor("output.weight") == nullptr;
  p.qkvBias = f.tensor("blk.0.attn_q.bias") != nullptr;
  p.ropeFreqFactors = f.tensor("rope_freqs.weight") != nullptr;
  return p;
}

Model::~Model() = default;

Result<std::unique_ptr<Model>> Model::load(const std::string& path, const ModelLoadOptions& options) {
  auto file = GgufFile::open(path, options.gguf);
  if (!file) return std::move(file).error();
  return fromFile(std::move(*file));
}

Result<std::unique_ptr<Model>> Model::fromFile(std::unique_ptr<GgufFile> file) {
  if (!file) return makeError(Errc::invalid_argument, "Model::fromFile: no file");
  auto params = readModelParams(*file);
  if (!params) return std::move(params).error();
  std::unique_ptr<Model> m(new Model());
  m->file_ = std::move(file);
  m->params_ = *params;
  if (auto st = m->bind(); !st) return std::move(st).error();
  return m;
}

Status Model::bind() {
  const ModelParams& p = params_;
  const GgufFile& f = *file_;
  Binder b(f, weightBytes_);
  const size_t E = p.nEmbd, Q = p.qDim(), KV = p.kvDim(), F = p.nFf, V = p.nVocab;

  SOTTO_TRY_ASSIGN(tokenEmbd_, b.matrix("token_embd.weight", E, V));
  if (!p.tiedOutput) SOTTO_TRY_ASSIGN(output_, b.matrix("output.weight", E, V));
  SOTTO_TRY_ASSIGN(outputNorm_, b.vector("output_norm.weight", E));
  if (p.ropeFreqFactors) SOTTO_TRY_ASSIGN(ropeFreqs_, b.vector("rope_freqs.weight", p.ropeDims / 2));

  layers_.resize(p.nLayer);
  for (uint32_t i = 0; i < p.nLayer; ++i) {
    const std::string pre = "blk." + std::to_string(i) + ".";
    LayerWeights& l = layers_[i];
    SOTTO_TRY_ASSIGN(l.attnNorm, b.vector(pre + "attn_norm.weight", E));
    SOTTO_TRY_ASSIGN(l.wq, b.matrix(pre + "attn_q.weight", E, Q));
    SOTTO_TRY_ASSIGN(l.wk, b.matrix(pre + "attn_k.weight", E, KV));
    SOTTO_TRY_ASSIGN(l.wv, b.matrix(pre + "attn_v.weight", E, KV));
    SOTTO_TRY_ASSIGN(l.wo, b.matrix(pre + "attn_output.weight", Q, E));
    const bool hasBias = b.find(pre + "attn_q.bias") != nullptr || b.find(pre + "attn_k.bias") != nullptr ||
                         b.find(pre + "attn_v.bias") != nullptr;
    if (hasBias != p.qkvBias) return corrupt(f, "layer " + std::to_string(i) + " differs from layer 0 in q/k/v biases");
    if (p.arch == Architecture::qwen2 && !hasBias) return corrupt(f, "tensor " + pre + "attn_q.bias missing (qwen2)");
    if (hasBias) {
      SOTTO_TRY_ASSIGN(l.bq, b.vector(pre + "attn_q.bias", Q));
      SOTTO_TRY_ASSIGN(l.bk, b.vector(pre + "attn_k.bias", KV));
      SOTTO_TRY_ASSIGN(l.bv, b.vector(pre + "attn_v.bias", KV));
    }
    SOTTO_TRY_ASSIGN(l.ffnNorm, b.vector(pre + "ffn_norm.weight", E));
    SOTTO_TRY_ASSIGN(l.gate, b.matrix(pre + "ffn_gate.weight", E, F));
    SOTTO_TRY_ASSIGN(l.up, b.matrix(pre + "ffn_up.weight", E, F));
    SOTTO_TRY_ASSIGN(l.down, b.matrix(pre + "ffn_down.weight", F, E));
  }
  return b.checkAllUsed(architectureName(p.arch));
}

Status Model::checkBackend(const hal::ComputeBackend& backend) const {
  auto check = [&](const Weight& w, hal::ComputeOp op) -> Status {
    if (!backend.supports(op, w.type)) {
      return makeError(Errc::unsupported, file_->path() + ": backend " + backend.name() + " cannot run " +
                                              hal::computeOpName(op) + " on tensor " + w.tensor->name + " (" +
                                              hal::dtypeName(w.type) + ")");
    }
    return {};
  };
  if (auto st = check(tokenEmbd_, hal::ComputeOp::getRows); !st) return st;
  if (auto st = check(output(), hal::ComputeOp::matmul); !st) return st;
  for (const LayerWeights& l : layers_) {
    for (const Weight* w : {&l.wq, &l.wk, &l.wv, &l.wo, &l.gate, &l.up, &l.down}) {
      if (auto st = check(*w, hal::ComputeOp::matmul); !st) return st;
    }
  }
  using hal::ComputeOp;
  for (const ComputeOp op : {ComputeOp::rmsNorm, ComputeOp::rope, ComputeOp::siluMul, ComputeOp::add,
                             ComputeOp::addBias}) {
    if (!backend.supports(op, hal::DType::F32)) {
      return makeError(Errc::unsupported, "backend " + backend.name() + " lacks " + hal::computeOpName(op));
    }
  }
  for (const ComputeOp op : {ComputeOp::storeKv, ComputeOp::attention}) {
    if (!backend.supports(op, hal::DType::F16)) {
      return makeError(Errc::unsupported, "backend " + backend.name() + " lacks " + hal::computeOpName(op) + " (f16)");
    }
  }
  return {};
}

std::string Model::describe() const {
  const ModelParams& p = params_;
  std::string s = std::string(architectureName(p.arch)) + ", " + std::to_string(p.nLayer) + " layers, n_embd " +
                  std::to_string(p.nEmbd) + ", " + std::to_string(p.nHead) + "/" + std::to_string(p.nHeadKv) +
                  " heads x " + std::to_string(p.headDim) + ", ffn " + std::to_string(p.nFf) + ", vocab " +
                  std::to_string(p.nVocab) + ", ctx " + std::to_string(p.nCtxTrain) + ", " +
                  hal::dtypeName(layers_.empty() ? tokenEmbd_.type : layers_[0].wq.type);
  if (p.tiedOutput) s += ", tied output";
  if (p.qkvBias) s += ", qkv bias";
  if (p.ropeFreqFactors) s += ", rope_freqs";
  return s;
}

}  // namespace sotto::llm
