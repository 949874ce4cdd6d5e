// SPDX-License-Identifier: MIT
// Generator: prompt prefill in batches, then token-by-token decode with streaming text, cancellation and the
// answer confidence the router uses; plus pooled sentence embeddings for the semantic cache.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "engine/llm/detokenizer.h"
#include "engine/llm/forward.h"
#include "engine/llm/model.h"
#include "engine/llm/sampler.h"
#include "engine/llm/tokenizer.h"
#include "engine/pipeline/cancel_token.h"
#include "sotto/hal/result.h"

namespace sotto::llm {

// Barge-in: the generation thread checks the shared token between tokens (and between prefill batches), so a
// generation stops within one token.
using CancelToken = pipeline::CancelToken;

struct GeneratedToken {
  TokenId id = kNoToken;
  size_t index = 0;       // 0 for the first generated token
  float prob = 0.0f;      // the model's probability of it (see SampledToken)
  float logProb = 0.0f;
  float margin = 0.0f;    // p(top-1) − p(top-2) at this step
  std::string_view text;  // text that became final with this token (complete UTF-8; may be empty)
};

// Receives tokens as they are sampled, before the next forward pass. Called on the generation thread; it must
// return quickly (push into a ring) and must not call back into the generator.
class GenerationSink {
 public:
  virtual void onToken(const GeneratedToken& token) = 0;
  // Text the streaming detokenizer held back until the end (an incomplete character becomes U+FFFD).
  virtual void onTextEnd(std::string_view text) { (void)text; }

 protected:
  GenerationSink() = default;
  GenerationSink(const GenerationSink&) = default;
  GenerationSink& operator=(const GenerationSink&) = default;
  ~GenerationSink() = default;
};

struct GenerateOptions {
  size_t maxTokens = 64;           // generated tokens at most (an EOG token ends earlier and is not emitted)
  SamplerOptions sampling;
  size_t confidenceTokens = 8;     // the answer confidence averages the first N generated tokens
  bool stopAtEog = true;           // stop on EOS/EOT/EOM; false: EOG tokens are emitted like any other
  bool reusePrefix = true;         // keep the KV cache of the longest prefix shared with the previous request
};

enum class StopReason : uint8_t { eog, maxTokens, cancelled, contextFull };
const char* stopReasonName(StopReason r);

struct AnswerConfidence {
  size_t tokens = 0;          // how many tokens the means cover (≤ confidenceTokens)
  float meanLogProb = 0.0f;   // mean ln p of the chosen tokens (0 = certain)
  float meanMargin = 0.0f;    // mean p(top-1) − p(top-2)
};

struct GenerationResult {
  StopReason stop = StopReason::maxTokens;
  size_t promptTokens = 0;
  size_t reusedTokens = 0;    // prompt tokens whose KV came from the previous request
  size_t generated = 0;       // tokens passed to the sink
  double prefillMs = 0.0;     // prompt evaluation up to the first token's logits
  double decodeMs = 0.0;      // from the first sampled token to the end
  AnswerConfidence confidence;
  double decodeTokensPerSecond() const {
    return generated > 1 && decodeMs > 0.0 ? static_cast<double>(generated - 1) * 1000.0 / decodeMs : 0.0;
  }
};

struct GeneratorOptions {
  ContextOptions context;
  SamplerOptions sampling;  // initial sampler settings (each generate() passes its own)
};

// Threading: create() on the control thread; generate() and embed() from one thread at a time (the generation
// thread). Model and tokenizer are borrowed and must outlive the generator. Decoding never allocates: the
// context, sampler, detokenizer and token history are reserved in create() (prompt tokenization in the text
// overloads allocates once per request).
class Generator {
 public:
  static Result<std::unique_ptr<Generator>> create(const Model& model, const Tokenizer& tokenizer,
                                                   const GeneratorOptions& options = {});
  ~Generator();
  Generator(const Generator&) = delete;
  Generator& operator=(const Generator&) = delete;

  // Evaluates `prompt` (token ids, BOS included if wanted) and generates. `sink` and `cancel` may be null.
  // Errors: an empty prompt, a prompt that leaves no room in the context, an id outside the vocabulary, bad
  // sampler options, a compute failure.
  Result<GenerationResult> generate(std::span<const TokenId> prompt, const GenerateOptions& options,
                                    GenerationSink* sink, const CancelToken* cancel = nullptr);
  // Tokenizes `text` as llama_tokenize(add_special=true, parse_special=true), then generates.
  Result<GenerationResult> generate(std::string_view text, const GenerateOptions& options, GenerationSink* sink,
                                    const CancelToken* cancel = nullptr);

  // Sentence embedding: mean of the final (output-normed) hidden states over the tokens of `text` (tokenized
  // with the vocabulary's BOS rule, special-token text kept literal), L2-normalized, into `out` (nEmbd floats).
  // Text beyond the context is cut. Clobbers the cached prefix.
  Status embed(std::string_view text, std::span<float> out);
  size_t embeddingSize() const { return context_->model().params().nEmbd; }

  // Prefix cache. warmPrefix evaluates `prefix` (keeping whatever of it is already cached) so that every later
  // request that starts with it skips it; nothing is sampled. Errors as generate(); false when cancelled.
  Result<bool> warmPrefix(std::span<const TokenId> prefix, const CancelToken* cancel = nullptr);
  // The tokens whose keys and values the context holds, in order (what a later request may reuse).
  std::span<const TokenId> cachedTokens() const { return cached_; }
  // After a caller wrote the keys and values of `tokens` (positions 0..n-1) into context().kv() — a prefix
  // restored from disk — makes them the cached prefix. Errors: more tokens than the context holds, an id outside
  // the vocabulary (the cache is then left empty).
  Status adoptRestoredPrefix(std::span<const TokenId> tokens);

  InferenceContext& context() { return *context_; }
  Sampler& sampler() { return *sampler_; }
  const Tokenizer& tokenizer() const { return tokenizer_; }

 private:
  Generator(const Tokenizer& tokenizer) : tokenizer_(tokenizer) {}
  // Evaluates prompt[from..] in maxBatch pieces, checking `cancel` between them; false when cancelled.
  Result<bool> prefill(std::span<const TokenId> tokens, const CancelToken* cancel);

  const Tokenizer& tokenizer_;
  std::unique_ptr<InferenceContext> context_;
  std::unique_ptr<Sampler> sampler_;
  std::unique_ptr<StreamingDetokenizer> detok_;
  std::vector<TokenId> cached_;  // tokens whose keys and values are in the context, in order
  std::vector<TokenId> scratchIds_;
};

}  // namespace sotto::llm
