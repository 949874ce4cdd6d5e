// SPDX-License-Identifier: MIT
// The big synthetic shapes (smollm2-135m q8_0, qwen2.5-0.5b q8_0: the only qwen2 vector) against llama.cpp.
// Generating them takes 5–15 s and 150–530 MB, so they run only with SOTTO_LARGE_TESTS=1.
#include <chrono>
#include <cstdlib>

#include "tests/llm_model/vector_check.h"

namespace sotto::llm::test {
namespace {

bool largeTests() {
  const char* v = std::getenv("SOTTO_LARGE_TESTS");
  return v != nullptr && std::string(v) == "1";
}

void runLarge(const std::string& shape, const std::string& vectorName) {
  if (!largeTests()) GTEST_SKIP() << "set SOTTO_LARGE_TESTS=1 to run";
  const Json& vm = vectorModel("forward-synthetic.json", vectorName);
  TempDir dir;
  std::string why, path;
  // SOTTO_LARGE_MODEL_DIR may hold the files already generated (<shape>-q8_0.gguf); they are checked all the same.
  const char* pre = std::getenv("SOTTO_LARGE_MODEL_DIR");
  if (pre != nullptr && std::filesystem::exists(std::string(pre) + "/" + shape + "-q8_0.gguf")) {
    path = std::string(pre) + "/" + shape + "-q8_0.gguf";
    ASSERT_EQ(sha256File(path), vm["model"]["sha256"].str) << path << " is not the file the vectors were made from";
  } else {
    path = makeSyntheticModel(dir, shape, "q8_0", vm["model"]["sha256"].str, &why);
  }
  ASSERT_FALSE(path.empty()) << why;
  const LoadedModel lm = loadModel(path);
  ASSERT_TRUE(lm.model);
  std::printf("[large] %s: %s\n", vectorName.c_str(), lm.model->describe().c_str());
  const double stdev = vm["cases"][0]["last_logits_stats"]["std"].num;
  Tolerance tol;
  tol.lastLogitAbs = static_cast<float>(0.2 * stdev);
  tol.minCosine = 0.99;
  tol.top10Abs = static_cast<float>(0.25 * stdev);
  tol.top1Fraction = 0.9;
  tol.greedyMargin = static_cast<float>(0.2 * stdev);
  checkAgainstVectors(vm, lm, tol);

  // Decode speed at batch 1 with two threads (figures for the report; the benchmark tool comes later).
  GeneratorOptions go;
  go.context.threads = 2;
  go.context.nCtx = 512;
  auto g = Generator::create(*lm.model, *lm.tokenizer, go);
  ASSERT_TRUE(g.ok());
  GenerateOptions o;
  o.maxTokens = 64;
  o.sampling.temperature = 0.0f;
  o.stopAtEog = false;
  const std::vector<TokenId> prompt = lm.tokenizer->tokenize("The quick brown fox jumps over the lazy dog.", true, true);
  auto r = (*g)->generate(std::span<const TokenId>(prompt), o, nullptr);
  ASSERT_TRUE(r.ok());
  std::printf("[large] %s decode: %zu tokens, %.1f tokens/s (2 threads); prefill %zu tokens in %.1f ms\n",
              vectorName.c_str(), r->generated, r->decodeTokensPerSecond(), r->promptTokens, r->prefillMs);
}

TEST(LargeVectors, SmolLM2_135M_Q8_0) { runLarge("smollm2-135m", "smollm2-135m-q8_0-seed1"); }
TEST(LargeVectors, Qwen25_05B_Q8_0) { runLarge("qwen2.5-0.5b", "qwen2.5-0.5b-q8_0-seed1"); }

}  // namespace
}  // namespace sotto::llm::test
