// SPDX-License-Identifier: MIT
// Sampler: picks the next token from logits (greedy, temperature, top-k, top-p, min-p, repetition penalty) with a
// seeded PRNG of our own, so a seed gives the same tokens on every build and C++ library.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "engine/llm/tokenizer.h"
#include "sotto/hal/result.h"

namespace sotto::llm {

// xoshiro256** seeded through splitmix64: small, fast, and its stream is fixed by its definition.
class Rng {
 public:
  explicit Rng(uint64_t seed = 0) { seed_(seed); }
  void reseed(uint64_t seed) { seed_(seed); }
  uint64_t next();
  // Uniform in [0, 1) with 53 random bits.
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

 private:
  void seed_(uint64_t seed);
  uint64_t s_[4] = {};
};

struct SamplerOptions {
  float temperature = 0.8f;    // ≤ 0: greedy (argmax, ties to the lowest id); the filters below are then unused
  int32_t topK = 40;           // keep the k most likely tokens; ≤ 0: off
  float topP = 0.95f;          // keep the smallest set whose probability reaches p; ≥ 1: off
  float minP = 0.05f;          // drop tokens below minP × the top probability; ≤ 0: off
  float repeatPenalty = 1.0f;  // llama.cpp's: logit / p when positive, logit × p otherwise; 1: off
  uint32_t repeatLastN = 64;   // how many recent tokens the penalty looks at
  uint64_t seed = 0;
};

// The choice and the model's own confidence in it: prob/logProb/margin come from softmax(logits) at temperature 1
// (after the repetition penalty), whatever filters and temperature chose the token, so the router sees the same
// scale for greedy and sampled answers.
struct SampledToken {
  TokenId id = kNoToken;
  float prob = 0.0f;     // p(id)
  float logProb = 0.0f;  // ln p(id)
  float margin = 0.0f;   // p(top-1) − p(top-2)
};

// Filter order as llama.cpp's default chain: penalty → top-k → top-p → min-p → temperature → draw (top-p and
// min-p see the temperature-1 distribution).
//
// Threading: one thread at a time (the generation thread). Buffers for the whole vocabulary are reserved in
// create(): configure(), sample() and accept() never allocate.
class Sampler {
 public:
  // Control thread.
  static Result<std::unique_ptr<Sampler>> create(size_t nVocab, const SamplerOptions& options = {});

  // New options and seed; forgets the penalty history. Errors: repeatLastN above 4096, non-finite values.
  Status configure(const SamplerOptions& options);
  const SamplerOptions& options() const { return opt_; }

  // Picks a token from nVocab logits. Does not record it (see accept()).
  SampledToken sample(std::span<const float> logits);
  // Records a token for the repetition penalty (generated ones, and the prompt's).
  void accept(TokenId id);

  size_t vocabSize() const { return nVocab_; }

 private:
  struct Candidate {
    float logit;
    TokenId id;
  };
  Sampler() = default;
  SampledToken draw(std::span<const float> logits);

  size_t nVocab_ = 0;
  SamplerOptions opt_;
  Rng rng_;
  std::vector<float> work_;           // penalized logits
  std::vector<Candidate> cand_;       // filter working set
  std::vector<uint32_t> seenStamp_;   // per token: the stamp of the last penalty pass that touched it
  uint32_t stamp_ = 0;
  std::vector<TokenId> history_;      // ring of the last repeatLastN tokens
  size_t historyHead_ = 0, historyCount_ = 0;
};

}  // namespace sotto::llm
