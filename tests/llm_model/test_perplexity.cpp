// SPDX-License-Identifier: MIT
// Quantization quality: perplexity of a fixed text under stories260K F32, Q8_0 and our own Q4_0 requantization.
#include "sotto/hal/quant.h"
#include "tests/llm_model/gguf_copy.h"
#include "tests/llm_model/llm_model_util.h"

namespace sotto::llm::test {
namespace {

// exp(mean −ln p(token i+1 | tokens ≤ i)) over the text, all positions in one batch.
double perplexity(const Model& model, const std::vector<TokenId>& ids) {
  auto ctx = makeContext(model);
  if (!ctx) return NAN;
  const auto logits = allLogits(*ctx, ids);
  const size_t V = model.params().nVocab;
  double nll = 0;
  for (size_t i = 0; i + 1 < ids.size(); ++i) {
    const float* row = logits.data() + i * V;
    const float top = *std::max_element(row, row + V);
    double z = 0;
    for (size_t j = 0; j < V; ++j) z += std::exp(static_cast<double>(row[j] - top));
    nll -= static_cast<double>(row[static_cast<size_t>(ids[i + 1])] - top) - std::log(z);
  }
  return std::exp(nll / static_cast<double>(ids.size() - 1));
}

// The f32 greedy story (prompt and its 64-token continuation) from the vectors.
std::vector<TokenId> storyText() {
  const Json& c = vectorModel("forward-stories260k.json", "stories260K-f32")["cases"][0];
  auto ids = idsOf(c["prompt_ids"]);
  const auto more = idsOf(c["greedy"]["ids"]);
  ids.insert(ids.end(), more.begin(), more.end());
  return ids;
}

TEST(Perplexity, QuantizedWeightsStayCloseToF32) {
  const auto ids = storyText();
  ASSERT_EQ(ids.size(), 69u);
  auto f32 = Model::load(sharedPath("models/stories260K-f32.gguf"));
  auto q8 = Model::load(sharedPath("models/stories260K-q8_0.gguf"));
  ASSERT_TRUE(f32.ok() && q8.ok());

  // Q4_0 made here with the HAL's reference quantizer: every matrix whose rows are whole blocks.
  TempDir dir;
  GgufEdits e;
  e.u32s["general.file_type"] = 2;  // MOSTLY_Q4_0
  e.tensor = [](TensorOut& t) {
    if (t.dims.size() != 2 || t.type != hal::DType::F32 || t.dims[0] % 32 != 0) return true;
    const size_t cols = t.dims[0], rows = t.dims[1];
    const size_t rb = *hal::rowBytes(hal::DType::Q4_0, cols);
    std::vector<uint8_t> q(rows * rb);
    const auto* src = reinterpret_cast<const float*>(t.data.data());
    for (size_t r = 0; r < rows; ++r) {
      const Status st = hal::quantizeRow(hal::DType::Q4_0, std::span<const float>(src + r * cols, cols),
                                         std::as_writable_bytes(std::span<uint8_t>(q.data() + r * rb, rb)));
      EXPECT_TRUE(st.ok());
    }
    t.type = hal::DType::Q4_0;
    t.data = std::move(q);
    return true;
  };
  ASSERT_EQ(copyGguf((*f32)->file(), dir.file("q4_0.gguf"), e), "");
  auto q4 = Model::load(dir.file("q4_0.gguf"));
  ASSERT_TRUE(q4.ok()) << q4.error().message;
  EXPECT_EQ((*q4)->layers()[0].wq.type, hal::DType::Q4_0);

  const double p32 = perplexity(**f32, ids), p8 = perplexity(**q8, ids), p4 = perplexity(**q4, ids);
  std::printf("[perplexity] stories260K greedy story (%zu tokens): f32 %.4f  q8_0 %.4f (%+.2f%%)  q4_0 %.4f (%+.2f%%)\n",
              ids.size(), p32, p8, 100 * (p8 / p32 - 1), p4, 100 * (p4 / p32 - 1));
  // The model's own greedy text is what it finds most likely: a low perplexity.
  EXPECT_LT(p32, 2.0);
  EXPECT_NEAR(p8 / p32, 1.0, 0.03);
  // Four bits on a 260K-parameter model cost more; the bound still catches a broken Q4_0 path (≫ 2×).
  EXPECT_NEAR(p4 / p32, 1.0, 0.25);
}

}  // namespace
}  // namespace sotto::llm::test
