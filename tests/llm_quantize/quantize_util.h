// SPDX-License-Identifier: MIT
// Helpers for test_llm_quantize: a small llama model with k-quant-sized rows, tensor-by-tensor comparisons.
#pragma once

#include <random>
#include <string>
#include <vector>

#include "engine/llm/gguf_writer.h"
#include "engine/llm/quantize.h"
#include "sotto/hal/quant.h"
#include "tests/llm_model/llm_model_util.h"

namespace sotto::llm::test {

// ../shared/tools/mkgguf.py's tiny-llama in Q8_0, the model both the quantizer and sotto-bench tests check against.
inline const std::string kTinyQ8Sha = "fdc14e626c52ec8fe4b966ead97947317ee56da15e99cf307f1f9a6aa42f46f8";

struct TinyKShape {
  uint32_t nEmbd = 256;  // rows of 256: every k-quant applies
  uint32_t nFf = 512;
  uint32_t nLayer = 2;
  uint32_t nHead = 4, nHeadKv = 2;
  uint32_t nVocab = 320;
  bool tied = true;
  float std = 0.05f;
};

// A llama-architecture F32 GGUF with random N(0, std²) matrices and 1 + N(0, 0.02²) norms (no tokenizer: tests
// feed token ids). Written with GgufWriter, so it needs no Python.
inline Status writeTinyKModel(const std::string& path, const TinyKShape& s, uint32_t seed = 7) {
  GgufWriter w;
  std::mt19937 rng(seed);
  std::normal_distribution<float> n01(0.0f, 1.0f);
  auto check = [](const Status& st) { EXPECT_TRUE(st.ok()) << (st.ok() ? "" : st.error().message); };
  check(w.addString("general.architecture", "llama"));
  check(w.addString("general.name", "tiny k-quant test model"));
  check(w.addU32("general.file_type", 0));
  check(w.addU32("llama.context_length", 256));
  check(w.addU32("llama.embedding_length", s.nEmbd));
  check(w.addU32("llama.block_count", s.nLayer));
  check(w.addU32("llama.feed_forward_length", s.nFf));
  check(w.addU32("llama.attention.head_count", s.nHead));
  check(w.addU32("llama.attention.head_count_kv", s.nHeadKv));
  check(w.addF32("llama.attention.layer_norm_rms_epsilon", 1e-5f));
  check(w.addU32("llama.vocab_size", s.nVocab));
  const std::vector<float> marker = {1.0f, 2.5f};
  check(w.addArray("test.float_array", std::span<const float>(marker)));
  const bool flags[] = {true, false, true};
  check(w.addBoolArray("test.bool_array", std::span<const bool>(flags)));

  auto tensor = [&](const std::string& name, std::vector<uint64_t> dims, bool norm) {
    uint64_t n = 1;
    for (uint64_t d : dims) n *= d;
    std::vector<float> v(n);
    for (float& x : v) x = norm ? 1.0f + 0.02f * n01(rng) : s.std * n01(rng);
    const auto* b = reinterpret_cast<const uint8_t*>(v.data());
    check(w.addTensor(name, hal::DType::F32, dims, std::span<const uint8_t>(b, v.size() * sizeof(float))));
  };
  const uint32_t headDim = s.nEmbd / s.nHead, kv = headDim * s.nHeadKv;
  tensor("token_embd.weight", {s.nEmbd, s.nVocab}, false);
  for (uint32_t l = 0; l < s.nLayer; ++l) {
    const std::string b = "blk." + std::to_string(l) + ".";
    tensor(b + "attn_norm.weight", {s.nEmbd}, true);
    tensor(b + "attn_q.weight", {s.nEmbd, s.nEmbd}, false);
    tensor(b + "attn_k.weight", {s.nEmbd, kv}, false);
    tensor(b + "attn_v.weight", {s.nEmbd, kv}, false);
    tensor(b + "attn_output.weight", {s.nEmbd, s.nEmbd}, false);
    tensor(b + "ffn_norm.weight", {s.nEmbd}, true);
    tensor(b + "ffn_gate.weight", {s.nEmbd, s.nFf}, false);
    tensor(b + "ffn_up.weight", {s.nEmbd, s.nFf}, false);
    tensor(b + "ffn_down.weight", {s.nFf, s.nEmbd}, false);
  }
  tensor("output_norm.weight", {s.nEmbd}, true);
  if (!s.tied) tensor("output.weight", {s.nEmbd, s.nVocab}, false);
  return w.write(path);
}

inline std::unique_ptr<GgufFile> openGguf(const std::string& path) {
  auto f = GgufFile::open(path);
  EXPECT_TRUE(f.ok()) << (f.ok() ? "" : f.error().message);
  return f.ok() ? std::move(*f) : nullptr;
}

inline QuantizeReport quantizeOk(const std::string& in, const std::string& out, QuantScheme scheme,
                                 unsigned threads = 2, hal::DType fallback = hal::DType::Q8_0) {
  QuantizeOptions o;
  o.scheme = scheme;
  o.threads = threads;
  o.kquantFallback = fallback;
  auto r = quantizeModel(in, out, o);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
  return r.ok() ? std::move(*r) : QuantizeReport{};
}

// Every tensor of `out` holds, row by row, exactly what quantizeRow (ggml's reference quantizers) makes of the
// matching row of `in`; tensors of unchanged type are byte-identical. *quantized: how many tensors changed type.
inline void expectRowsMatchReference(const GgufFile& in, const GgufFile& out, size_t* quantized) {
  *quantized = 0;
  EXPECT_EQ(in.tensors().size(), out.tensors().size());
  for (size_t i = 0; i < std::min(in.tensors().size(), out.tensors().size()); ++i) {
    const GgufTensor& a = in.tensors()[i];
    const GgufTensor& b = out.tensors()[i];
    ASSERT_EQ(a.name, b.name) << "tensor order changed";
    EXPECT_EQ(a.nDims, b.nDims) << a.name;
    for (int d = 0; d < 4; ++d) EXPECT_EQ(a.ne[d], b.ne[d]) << a.name;
    if (a.type == b.type) {
      ASSERT_EQ(a.nbytes, b.nbytes);
      EXPECT_EQ(0, std::memcmp(a.data, b.data, a.nbytes)) << a.name << " copied with different bytes";
      continue;
    }
    ++*quantized;
    const size_t cols = a.ne[0], rows = a.elements() / cols;
    const size_t inRow = *hal::rowBytes(a.type, cols), outRow = *hal::rowBytes(b.type, cols);
    ASSERT_EQ(b.nbytes, rows * outRow) << a.name;
    std::vector<float> x(cols);
    std::vector<std::byte> want(outRow);
    for (size_t r = 0; r < rows; ++r) {
      ASSERT_TRUE(hal::dequantizeRow(a.type, {reinterpret_cast<const std::byte*>(a.data) + r * inRow, inRow}, x));
      ASSERT_TRUE(hal::quantizeRow(b.type, x, want));
      ASSERT_EQ(0, std::memcmp(want.data(), b.data + r * outRow, outRow))
          << a.name << " row " << r << " (" << hal::dtypeName(b.type) << ") differs from the reference quantizer";
    }
  }
}

inline std::string typeOf(const GgufFile& f, const std::string& tensor) {
  const GgufTensor* t = f.tensor(tensor);
  return t != nullptr ? hal::dtypeName(t->type) : "missing";
}

}  // namespace sotto::llm::test
