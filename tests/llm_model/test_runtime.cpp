// SPDX-License-Identifier: MIT
// Runtime invariants: batching, backends and threads agree; zero allocations per token; cancellation, stops,
// probabilities and confidence; prefix reuse; embeddings.
#include <thread>

#include "sotto/hal/compute.h"
#include "tests/llm_model/gguf_copy.h"
#include "tests/llm_model/llm_model_util.h"
#include "tests/support/alloc_counter.h"

namespace sotto::llm::test {
namespace {

const std::vector<TokenId> kPrompt = {1, 403, 407, 261, 378, 432, 383, 286, 261, 376, 298, 315, 421};  // 13 tokens

float maxAbsDiff(std::span<const float> a, std::span<const float> b) {
  float m = 0;
  for (size_t i = 0; i < a.size(); ++i) m = std::max(m, std::fabs(a[i] - b[i]));
  return m;
}

class Stories : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    f32_ = new LoadedModel(loadModel(sharedPath("models/stories260K-f32.gguf")));
    q8_ = new LoadedModel(loadModel(sharedPath("models/stories260K-q8_0.gguf")));
  }
  static void TearDownTestSuite() {
    delete f32_;
    delete q8_;
  }
  static std::unique_ptr<Generator> generator(const LoadedModel& m, unsigned threads = 1) {
    GeneratorOptions o;
    o.context.threads = threads;
    o.context.nCtx = 512;
    auto g = Generator::create(*m.model, *m.tokenizer, o);
    EXPECT_TRUE(g.ok()) << (g.ok() ? "" : g.error().message);
    return g.ok() ? std::move(*g) : nullptr;
  }
  static LoadedModel* f32_;
  static LoadedModel* q8_;
};
LoadedModel* Stories::f32_ = nullptr;
LoadedModel* Stories::q8_ = nullptr;

TEST_F(Stories, BatchPrefillMatchesTokenByToken) {
  for (const LoadedModel* m : {f32_, q8_}) {
    auto batch = makeContext(*m->model);
    auto single = makeContext(*m->model, "cpu", 1, 512, 1);  // maxBatch 1: every token its own pass
    auto chunked = makeContext(*m->model, "cpu", 1, 512, 4);  // batches of 4, 4, 4, 1
    ASSERT_TRUE(batch && single && chunked);
    const auto all = allLogits(*batch, kPrompt);
    const size_t V = m->model->params().nVocab;
    std::vector<float> perToken(kPrompt.size() * V);
    for (size_t i = 0; i < kPrompt.size(); ++i) {
      ASSERT_TRUE(single->eval(std::span<const TokenId>(&kPrompt[i], 1)).ok());
      std::copy(single->logits().begin(), single->logits().end(), perToken.begin() + static_cast<ptrdiff_t>(i * V));
    }
    const auto chunks = allLogits(*chunked, kPrompt);
    EXPECT_EQ(single->position(), kPrompt.size());
    EXPECT_LE(maxAbsDiff(all, perToken), 1e-3f);
    EXPECT_LE(maxAbsDiff(all, chunks), 1e-3f);
  }
}

TEST_F(Stories, CpuMatchesCpuRef) {
  for (const LoadedModel* m : {f32_, q8_}) {
    auto cpu = makeContext(*m->model, "cpu");
    auto ref = makeContext(*m->model, "cpu-ref");
    ASSERT_TRUE(cpu && ref);
    const auto a = allLogits(*cpu, kPrompt);
    const auto b = allLogits(*ref, kPrompt);
    EXPECT_LE(maxAbsDiff(a, b), 5e-3f) << m->model->describe();
    const size_t V = m->model->params().nVocab;
    for (size_t p = 0; p < kPrompt.size(); ++p) {
      EXPECT_EQ(argmax(std::span<const float>(a.data() + p * V, V)), argmax(std::span<const float>(b.data() + p * V, V)));
    }
  }
}

TEST_F(Stories, ThreadCountDoesNotChangeResults) {
  auto one = makeContext(*f32_->model, "cpu", 1);
  auto two = makeContext(*f32_->model, "cpu", 2);
  ASSERT_TRUE(one && two);
  EXPECT_LE(maxAbsDiff(allLogits(*one, kPrompt), allLogits(*two, kPrompt)), 1e-5f);
}

TEST_F(Stories, ZeroAllocationsWhileGenerating) {
  if (!sotto::test::AllocCounter::supported()) GTEST_SKIP() << "allocation counting unavailable in this build";
  auto g = generator(*q8_, 2);  // two threads: the pool's workers are counted too
  ASSERT_TRUE(g);
  struct Sink final : GenerationSink {
    size_t tokens = 0, bytes = 0;
    void onToken(const GeneratedToken& t) override {
      ++tokens;
      bytes += t.text.size();
    }
  } sink;
  GenerateOptions o;
  o.maxTokens = 48;
  o.sampling.temperature = 0.9f;
  o.sampling.repeatPenalty = 1.1f;
  o.stopAtEog = false;
  o.reusePrefix = false;
  ASSERT_TRUE(g->generate(std::span<const TokenId>(kPrompt), o, &sink).ok());  // warm-up
  sink.tokens = 0;
  const sotto::test::NoAllocScope scope(sotto::test::AllocScope::allThreads);
  auto r = g->generate(std::span<const TokenId>(kPrompt), o, &sink);
  const uint64_t allocations = scope.allocations();
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(sink.tokens, 48u);
  EXPECT_GT(sink.bytes, 0u);
  EXPECT_EQ(allocations, 0u) << "prefill + 48 tokens allocated (" << sotto::test::AllocCounter::mode() << ")";
}

TEST_F(Stories, CancelStopsWithinOneToken) {
  auto g = generator(*f32_);
  ASSERT_TRUE(g);
  CancelToken cancel;
  struct Sink final : GenerationSink {
    CancelToken* cancel = nullptr;
    size_t tokens = 0;
    void onToken(const GeneratedToken&) override {
      if (++tokens == 3) cancel->cancel();  // barge-in while the third token is being spoken
    }
  } sink;
  sink.cancel = &cancel;
  GenerateOptions o;
  o.maxTokens = 50;
  o.sampling.temperature = 0.0f;
  auto r = g->generate(std::span<const TokenId>(kPrompt), o, &sink, &cancel);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->stop, StopReason::cancelled);
  EXPECT_EQ(r->generated, 3u);
  EXPECT_EQ(sink.tokens, 3u);

  // Already cancelled: not even the prompt is evaluated.
  sink.tokens = 0;
  r = g->generate(std::span<const TokenId>(kPrompt), o, &sink, &cancel);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->stop, StopReason::cancelled);
  EXPECT_EQ(r->generated, 0u);

  // From another thread, mid-generation.
  cancel.reset();
  sink.cancel = nullptr;
  struct Slow final : GenerationSink {
    std::atomic<size_t> tokens{0};
    void onToken(const GeneratedToken&) override {
      tokens.fetch_add(1);
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
  } slow;
  std::thread barge([&] {
    while (slow.tokens.load() < 5) std::this_thread::yield();
    cancel.cancel();
  });
  o.maxTokens = 400;
  o.stopAtEog = false;
  r = g->generate(std::span<const TokenId>(kPrompt), o, &slow, &cancel);
  barge.join();
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->stop, StopReason::cancelled);
  EXPECT_GE(r->generated, 5u);
  EXPECT_LE(r->generated, 7u);  // the token being sampled when cancel() landed, at most one more
}

TEST_F(Stories, StopsAtEndOfGenerationAndMaxTokens) {
  // stories260K never emits its EOS in a short story, so make a variant whose EOS is the 6th greedy token (298).
  TempDir dir;
  GgufEdits e;
  e.u32s["tokenizer.ggml.eos_token_id"] = 298;
  ASSERT_EQ(copyGguf(f32_->model->file(), dir.file("eos.gguf"), e), "");
  const LoadedModel m = loadModel(dir.file("eos.gguf"));
  ASSERT_TRUE(m.model && m.tokenizer);
  ASSERT_TRUE(m.tokenizer->isEog(298));
  auto g = generator(m);
  ASSERT_TRUE(g);
  struct Sink final : GenerationSink {
    std::vector<TokenId> ids;
    void onToken(const GeneratedToken& t) override { ids.push_back(t.id); }
  } sink;
  GenerateOptions o;
  o.sampling.temperature = 0.0f;
  o.maxTokens = 64;
  const std::vector<TokenId> prompt = {1, 403, 407, 261, 378};
  auto r = g->generate(std::span<const TokenId>(prompt), o, &sink);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->stop, StopReason::eog);
  EXPECT_EQ(sink.ids, (std::vector<TokenId>{432, 383, 286, 261, 376}));  // ", there was a little" then EOS

  sink.ids.clear();
  o.maxTokens = 3;
  r = g->generate(std::span<const TokenId>(prompt), o, &sink);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->stop, StopReason::maxTokens);
  EXPECT_EQ(r->generated, 3u);
  EXPECT_EQ(sink.ids.size(), 3u);
}

TEST_F(Stories, ProbabilitiesAndConfidence) {
  auto g = generator(*f32_);
  auto ctx = makeContext(*f32_->model);
  ASSERT_TRUE(g && ctx);
  struct Sink final : GenerationSink {
    std::vector<GeneratedToken> tokens;
    std::string text;
    void onToken(const GeneratedToken& t) override {
      tokens.push_back(t);
      text += t.text;
      tokens.back().text = {};
    }
    void onTextEnd(std::string_view t) override { text += t; }
  } sink;
  GenerateOptions o;
  o.sampling.temperature = 0.0f;
  o.maxTokens = 12;
  o.confidenceTokens = 4;
  const std::vector<TokenId> prompt = {1, 403, 407, 261, 378};
  auto r = g->generate(std::span<const TokenId>(prompt), o, &sink);
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(sink.tokens.size(), 12u);
  // The first token's probability is softmax of the prompt's last logits.
  const auto logits = allLogits(*ctx, prompt);
  const std::span<const float> last(logits.data() + (prompt.size() - 1) * 512, 512);
  double z = 0;
  const float top = *std::max_element(last.begin(), last.end());
  for (const float v : last) z += std::exp(static_cast<double>(v - top));
  const double p0 = std::exp(static_cast<double>(last[static_cast<size_t>(sink.tokens[0].id)] - top)) / z;
  EXPECT_NEAR(sink.tokens[0].prob, p0, 1e-4);
  EXPECT_NEAR(sink.tokens[0].logProb, std::log(p0), 1e-4);
  double sumLog = 0, sumMargin = 0;
  for (size_t i = 0; i < sink.tokens.size(); ++i) {
    const GeneratedToken& t = sink.tokens[i];
    EXPECT_EQ(t.index, i);
    EXPECT_GT(t.prob, 0.0f);
    EXPECT_LE(t.prob, 1.0f);
    EXPECT_GE(t.margin, 0.0f);  // greedy picks the top token
    if (i < 4) {
      sumLog += t.logProb;
      sumMargin += t.margin;
    }
  }
  EXPECT_EQ(r->confidence.tokens, 4u);
  EXPECT_NEAR(r->confidence.meanLogProb, sumLog / 4, 1e-5);
  EXPECT_NEAR(r->confidence.meanMargin, sumMargin / 4, 1e-5);
  std::vector<TokenId> ids;
  for (const auto& t : sink.tokens) ids.push_back(t.id);
  EXPECT_EQ(sink.text, f32_->tokenizer->detokenize(ids, false, false));
  EXPECT_EQ(sink.text, ", there was a little girl named Lily. She");
}

TEST_F(Stories, PrefixReuseGivesTheSameTokens) {
  auto g = generator(*f32_);
  ASSERT_TRUE(g);
  GenerateOptions o;
  o.sampling.temperature = 0.0f;
  o.maxTokens = 20;
  o.stopAtEog = false;
  struct Sink final : GenerationSink {
    std::vector<TokenId> ids;
    void onToken(const GeneratedToken& t) override { ids.push_back(t.id); }
  } a, b, c;
  o.reusePrefix = false;
  auto r1 = g->generate(std::span<const TokenId>(kPrompt), o, &a);
  o.reusePrefix = true;
  auto r2 = g->generate(std::span<const TokenId>(kPrompt), o, &b);
  ASSERT_TRUE(r1.ok() && r2.ok());
  EXPECT_EQ(r1->reusedTokens, 0u);
  EXPECT_EQ(r2->reusedTokens, kPrompt.size() - 1);  // all but the last, which is re-evaluated for its logits
  EXPECT_EQ(a.ids, b.ids);
  // A prompt that continues the previous conversation reuses the prompt and the generated tokens.
  std::vector<TokenId> longer = kPrompt;
  longer.insert(longer.end(), b.ids.begin(), b.ids.begin() + 10);
  auto r3 = g->generate(std::span<const TokenId>(longer), o, &c);
  ASSERT_TRUE(r3.ok());
  EXPECT_EQ(r3->reusedTokens, longer.size() - 1);
  EXPECT_EQ(std::vector<TokenId>(c.ids.begin(), c.ids.begin() + 10), std::vector<TokenId>(b.ids.begin() + 10, b.ids.end()));
}

// Speculative prefill (speech.speculate): the KV warmed for a partial's prompt is rolled back to the prefix the
// final's prompt shares with it; the final evaluates only from the first differing token and generates exactly
// what a cold generator does.
TEST_F(Stories, WarmedPrefixRollsBackToTheCommonPrefix) {
  auto cold = generator(*f32_);
  auto warm = generator(*f32_);
  ASSERT_TRUE(cold && warm);
  GenerateOptions o;
  o.sampling.temperature = 0.0f;
  o.maxTokens = 16;
  o.stopAtEog = false;
  struct Sink final : GenerationSink {
    std::vector<TokenId> ids;
    void onToken(const GeneratedToken& t) override { ids.push_back(t.id); }
  } a, b;
  // The partial: the final's first 9 tokens, then two others (a word the recognizer later corrected).
  std::vector<TokenId> partial(kPrompt.begin(), kPrompt.begin() + 9);
  partial.push_back(298);
  partial.push_back(261);
  ASSERT_NE(partial[9], kPrompt[9]);
  auto w = warm->warmPrefix(std::span<const TokenId>(partial));
  ASSERT_TRUE(w.ok() && *w);
  EXPECT_EQ(std::vector<TokenId>(warm->cachedTokens().begin(), warm->cachedTokens().end()), partial);
  auto rc = cold->generate(std::span<const TokenId>(kPrompt), o, &a);
  auto rw = warm->generate(std::span<const TokenId>(kPrompt), o, &b);
  ASSERT_TRUE(rc.ok() && rw.ok());
  EXPECT_EQ(rc->reusedTokens, 0u);
  EXPECT_EQ(rw->reusedTokens, 9u) << "the common prefix is kept, the rest re-evaluated";
  EXPECT_EQ(a.ids, b.ids);
  // A partial that becomes longer: all of it is kept (the warm prefix is the final's prefix).
  auto warm2 = generator(*f32_);
  ASSERT_TRUE(warm2);
  ASSERT_TRUE(warm2->warmPrefix(std::span<const TokenId>(kPrompt).first(7)).ok());
  Sink c;
  auto r2 = warm2->generate(std::span<const TokenId>(kPrompt), o, &c);
  ASSERT_TRUE(r2.ok());
  EXPECT_EQ(r2->reusedTokens, 7u);
  EXPECT_EQ(a.ids, c.ids);
}

TEST_F(Stories, SamplingIsDeterministicPerSeed) {
  auto g = generator(*f32_);
  ASSERT_TRUE(g);
  auto run = [&](uint64_t seed) {
    struct Sink final : GenerationSink {
      std::vector<TokenId> ids;
      void onToken(const GeneratedToken& t) override { ids.push_back(t.id); }
    } s;
    GenerateOptions o;
    o.maxTokens = 40;
    o.sampling.temperature = 1.0f;
    o.sampling.seed = seed;
    o.stopAtEog = false;
    EXPECT_TRUE(g->generate(std::span<const TokenId>(kPrompt), o, &s).ok());
    return s.ids;
  };
  const auto a = run(7), b = run(7), c = run(8);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
}

TEST_F(Stories, ErrorsLeaveTheContextUsable) {
  auto ctx = makeContext(*f32_->model, "cpu", 1, 16);
  ASSERT_TRUE(ctx);
  const TokenId bad[] = {1, 600};
  EXPECT_EQ(ctx->eval(bad).error().code, Errc::invalid_argument);
  EXPECT_EQ(ctx->position(), 0u);
  const std::vector<TokenId> tooLong(17, 403);
  EXPECT_FALSE(ctx->eval(tooLong).ok());
  EXPECT_EQ(ctx->position(), 0u);
  ASSERT_TRUE(ctx->eval(std::span<const TokenId>(tooLong.data(), 16)).ok());
  EXPECT_EQ(ctx->position(), 16u);
  EXPECT_FALSE(ctx->eval(std::span<const TokenId>(tooLong.data(), 1)).ok());

  auto g = generator(*f32_);
  ASSERT_TRUE(g);
  GenerateOptions o;
  EXPECT_FALSE(g->generate(std::span<const TokenId>(), o, nullptr).ok());
  o.sampling.repeatLastN = 100000;
  EXPECT_FALSE(g->generate(std::span<const TokenId>(kPrompt), o, nullptr).ok());
}

TEST_F(Stories, ContextFullStopsGeneration) {
  GeneratorOptions go;
  go.context.nCtx = 20;
  auto g = Generator::create(*f32_->model, *f32_->tokenizer, go);
  ASSERT_TRUE(g.ok());
  GenerateOptions o;
  o.sampling.temperature = 0.0f;
  o.maxTokens = 100;
  o.stopAtEog = false;
  auto r = (*g)->generate(std::span<const TokenId>(kPrompt), o, nullptr);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->stop, StopReason::contextFull);
  EXPECT_EQ(r->generated, 20 - kPrompt.size() + 1);  // the last token is sampled from the full cache's logits
}

TEST_F(Stories, EmbeddingsAreNormalizedPooledHiddenStates) {
  auto g = generator(*f32_);
  ASSERT_TRUE(g);
  ASSERT_EQ(g->embeddingSize(), 64u);
  std::vector<float> a(64), b(64), c(64);
  ASSERT_TRUE(g->embed("Lily saw a big dog in the park.", a).ok());
  ASSERT_TRUE(g->embed("Lily saw a big dog in the park.", b).ok());
  ASSERT_TRUE(g->embed("The sun was hot and the fish swam away.", c).ok());
  double n = 0;
  for (const float v : a) n += static_cast<double>(v) * v;
  EXPECT_NEAR(n, 1.0, 1e-5);
  EXPECT_EQ(a, b);
  EXPECT_LT(cosine(a, c), 0.9999);

  // The same as the mean of the output-normed hidden states, computed through the context directly.
  auto ctx = makeContext(*f32_->model);
  ASSERT_TRUE(ctx);
  std::vector<float> sum(64, 0.0f);
  EvalOutputs eo;
  eo.hiddenSum = sum;
  const auto ids = f32_->tokenizer->tokenize("Lily saw a big dog in the park.", true, false);
  ASSERT_TRUE(ctx->eval(ids, eo).ok());
  EXPECT_GT(cosine(sum, a), 0.999999);
  std::vector<float> wrong(3);
  EXPECT_FALSE(g->embed("hi", wrong).ok());
}

}  // namespace
}  // namespace sotto::llm::test
