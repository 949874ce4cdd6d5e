// SPDX-License-Identifier: MIT
// Model loading: hyper-parameters of the real and synthetic shapes, and refusals that name what is wrong.
#include "tests/llm_model/gguf_copy.h"
#include "tests/llm_model/llm_model_util.h"

namespace sotto::llm::test {
namespace {

std::unique_ptr<GgufFile> openStories() {
  auto f = GgufFile::open(sharedPath("models/stories260K-f32.gguf"));
  EXPECT_TRUE(f.ok());
  return f.ok() ? std::move(*f) : nullptr;
}

// Loads a variant of stories260K-f32 and returns the load error ("" when it loaded).
std::string loadVariant(const GgufEdits& edits) {
  TempDir dir;
  auto src = openStories();
  if (!src) return "no source";
  const std::string path = dir.file("variant.gguf");
  const std::string err = copyGguf(*src, path, edits);
  EXPECT_EQ(err, "");
  auto m = Model::load(path);
  return m.ok() ? std::string() : m.error().message;
}

TEST(ModelLoad, Stories260kHyperParameters) {
  auto m = Model::load(sharedPath("models/stories260K-q8_0.gguf"));
  ASSERT_TRUE(m.ok()) << m.error().message;
  const ModelParams& p = (*m)->params();
  EXPECT_EQ(p.arch, Architecture::llama);
  EXPECT_EQ(p.nEmbd, 64u);
  EXPECT_EQ(p.nLayer, 5u);
  EXPECT_EQ(p.nHead, 8u);
  EXPECT_EQ(p.nHeadKv, 4u);
  EXPECT_EQ(p.headDim, 8u);
  EXPECT_EQ(p.ropeDims, 8u);
  EXPECT_EQ(p.nFf, 172u);
  EXPECT_EQ(p.nVocab, 512u);
  EXPECT_EQ(p.nCtxTrain, 512u);
  EXPECT_FLOAT_EQ(p.rmsEps, 1e-5f);
  EXPECT_FLOAT_EQ(p.ropeFreqBase, 10000.0f);
  EXPECT_EQ(p.ropeMode, hal::RopeMode::normal);
  EXPECT_FALSE(p.tiedOutput);
  EXPECT_FALSE(p.qkvBias);
  // Mixed types: q8_0 matrices, but ffn_down (k = 172, not a multiple of 32) stays f32.
  EXPECT_EQ((*m)->layers()[0].wq.type, hal::DType::Q8_0);
  EXPECT_EQ((*m)->layers()[0].down.type, hal::DType::F32);
  EXPECT_EQ(&(*m)->output(), &(*m)->output());
  EXPECT_NE((*m)->output().data, (*m)->tokenEmbd().data);
}

TEST(ModelLoad, RefusesOtherArchitecturesByName) {
  GgufEdits e;
  e.strings["general.architecture"] = "gpt2";
  const std::string err = loadVariant(e);
  EXPECT_NE(err.find("architecture 'gpt2' is not supported"), std::string::npos) << err;
}

TEST(ModelLoad, RefusesUnsupportedTensorTypeByName) {
  GgufEdits e;
  e.tensor = [](TensorOut& t) {
    if (t.name == "blk.2.attn_v.weight") {  // 64 × 32 → iq4_nl blocks (18 bytes / 32 elements)
      t.type = hal::DType::IQ4_NL;
      t.data.resize(32 * 2 * 18);
    }
    return true;
  };
  const std::string err = loadVariant(e);
  EXPECT_NE(err.find("blk.2.attn_v.weight"), std::string::npos) << err;
  EXPECT_NE(err.find("iq4_nl"), std::string::npos) << err;
}

TEST(ModelLoad, RefusesWrongShapeByName) {
  GgufEdits e;
  e.tensor = [](TensorOut& t) {
    if (t.name == "blk.1.attn_k.weight") t.dims = {32, 64};  // transposed: same bytes, wrong shape
    return true;
  };
  const std::string err = loadVariant(e);
  EXPECT_NE(err.find("blk.1.attn_k.weight has shape [32, 64], expected [64, 32]"), std::string::npos) << err;
}

TEST(ModelLoad, RefusesMissingAndUnknownTensorsByName) {
  GgufEdits missing;
  missing.tensor = [](TensorOut& t) { return t.name != "blk.4.ffn_up.weight"; };
  std::string err = loadVariant(missing);
  EXPECT_NE(err.find("tensor blk.4.ffn_up.weight missing"), std::string::npos) << err;

  GgufEdits extra;
  extra.extraTensors.push_back({"blk.0.attn_output.bias", hal::DType::F32, {64}, std::vector<uint8_t>(256)});
  err = loadVariant(extra);
  EXPECT_NE(err.find("blk.0.attn_output.bias"), std::string::npos) << err;
}

TEST(ModelLoad, RefusesQwen2WithoutBiases) {
  GgufEdits e;
  e.strings["general.architecture"] = "qwen2";
  // Rename the llama.* hyper-parameters: the stories file has only llama.* keys.
  auto src = openStories();
  ASSERT_TRUE(src);
  for (const auto key : src->keys()) {
    if (key.rfind("llama.", 0) == 0 && src->typeOf(key) == GgufValueType::u32) {
      e.u32s["qwen2." + std::string(key.substr(6))] = static_cast<uint32_t>(*src->getUint(key));
    }
  }
  TempDir dir;
  ASSERT_EQ(copyGguf(*src, dir.file("q.gguf"), e), "");
  // llama.* floats stay behind, so qwen2.attention.layer_norm_rms_epsilon is missing: also a named refusal.
  auto m = Model::load(dir.file("q.gguf"));
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.error().message.find("qwen2."), std::string::npos) << m.error().message;
}

TEST(ModelLoad, TiedOutputUsesTokenEmbedding) {
  GgufEdits e;
  e.tensor = [](TensorOut& t) { return t.name != "output.weight"; };
  TempDir dir;
  auto src = openStories();
  ASSERT_TRUE(src);
  ASSERT_EQ(copyGguf(*src, dir.file("tied.gguf"), e), "");
  auto m = Model::load(dir.file("tied.gguf"));
  ASSERT_TRUE(m.ok()) << m.error().message;
  EXPECT_TRUE((*m)->params().tiedOutput);
  EXPECT_EQ((*m)->output().data, (*m)->tokenEmbd().data);
  auto ctx = makeContext(**m);
  ASSERT_TRUE(ctx);
  const TokenId ids[] = {1, 403};
  ASSERT_TRUE(ctx->eval(ids).ok());
  for (const float v : ctx->logits()) ASSERT_TRUE(std::isfinite(v));
}

TEST(ModelLoad, MissingFileIsAnError) {
  auto m = Model::load("/nonexistent/model.gguf");
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.error().message.find("/nonexistent/model.gguf"), std::string::npos);
}

TEST(ModelLoad, UnknownBackendIsAnError) {
  auto m = Model::load(sharedPath("models/stories260K-f32.gguf"));
  ASSERT_TRUE(m.ok());
  ContextOptions o;
  o.backend = "no-such-backend";
  auto c = InferenceContext::create(**m, o);
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.error().code, Errc::not_found);
}

}  // namespace
}  // namespace sotto::llm::test
