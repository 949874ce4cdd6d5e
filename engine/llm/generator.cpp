// SPDX-License-Identifier: MIT
// Generator: prefix reuse, batched prefill, the decode loop with streaming text, and pooled embeddings.
#include "engine/llm/generator.h"

#include <algorithm>
#include <chrono>
#include <cmath>

namespace sotto::llm {
namespace {

double msSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

const char* stopReasonName(StopReason r) {
  switch (r) {
    case StopReason::eog: return "eog";
    case StopReason::maxTokens: return "max-tokens";
    case StopReason::cancelled: return "cancelled";
    case StopReason::contextFull: return "context-full";
  }
  return "unknown";
}

Generator::~Generator() = default;

Result<std::unique_ptr<Generator>> Generator::create(const Model& model, const Tokenizer& tokenizer,
                                                     const GeneratorOptions& options) {
  if (tokenizer.size() > model.params().nVocab) {
    return makeError(Errc::invalid_argument, "generator: the tokenizer has more tokens than the model's vocabulary");
  }
  std::unique_ptr<Generator> g(new Generator(tokenizer));
  auto ctx = InferenceContext::create(model, options.context);
  if (!ctx) return std::move(ctx).error();
  g->context_ = std::move(*ctx);
  auto sampler = Sampler::create(model.params().nVocab, options.sampling);
  if (!sampler) return std::move(sampler).error();
  g->sampler_ = std::move(*sampler);
  g->detok_ = std::make_unique<StreamingDetokenizer>(tokenizer);
  g->cached_.reserve(g->context_->capacity());
  return g;
}

Result<bool> Generator::prefill(std::span<const TokenId> tokens, const CancelToken* cancel) {
  const size_t batch = context_->maxBatch();
  for (size_t done = 0; done < tokens.size();) {
    if (cancel != nullptr && cancel->cancelled()) return false;
    const size_t m = std::min(batch, tokens.size() - done);
    if (auto st = context_->eval(tokens.subspan(done, m)); !st) return std::move(st).error();
    cached_.insert(cached_.end(), tokens.begin() + static_cast<ptrdiff_t>(done),
                   tokens.begin() + static_cast<ptrdiff_t>(done + m));
    done += m;
  }
  return true;
}

Result<GenerationResult> Generator::generate(std::string_view text, const GenerateOptions& options,
                                             GenerationSink* sink, const CancelToken* cancel) {
  scratchIds_.clear();
  tokenizer_.tokenize(text, true, true, scratchIds_);
  return generate(std::span<const TokenId>(scratchIds_), options, sink, cancel);
}

Result<GenerationResult> Generator::generate(std::span<const TokenId> prompt, const GenerateOptions& options,
                                             GenerationSink* sink, const CancelToken* cancel) {
  using Clock = std::chrono::steady_clock;
  const auto t0 = Clock::now();
  GenerationResult r;
  r.promptTokens = prompt.size();
  if (prompt.empty()) return makeError(Errc::invalid_argument, "generate: empty prompt");
  if (prompt.size() >= context_->capacity()) {
    return makeError(Errc::invalid_argument, "generate: prompt of " + std::to_string(prompt.size()) +
                                                 " tokens leaves no room in a context of " +
                                                 std::to_string(context_->capacity()));
  }
  if (auto st = sampler_->configure(options.sampling); !st) return std::move(st).error();

  // Keep the longest cached prefix, but always evaluate at least the last prompt token for fresh logits.
  size_t keep = 0;
  if (options.reusePrefix) {
    const size_t limit = std::min(cached_.size(), prompt.size() - 1);
    while (keep < limit && cached_[keep] == prompt[keep]) ++keep;
  }
  context_->truncate(keep);
  cached_.resize(keep);
  r.reusedTokens = keep;
  auto done = prefill(prompt.subspan(keep), cancel);
  if (!done) {
    context_->reset();
    cached_.clear();
    return std::move(done).error();
  }
  if (!*done) {
    r.stop = StopReason::cancelled;
    r.prefillMs = msSince(t0);
    return r;
  }
  // The penalty window starts with the prompt's tail, as llama.cpp's samplers see it.
  const size_t window = std::min<size_t>(prompt.size(), options.sampling.repeatLastN);
  for (size_t i = prompt.size() - window; i < prompt.size(); ++i) sampler_->accept(prompt[i]);
  detok_->reset();
  r.prefillMs = msSince(t0);

  const auto t1 = Clock::now();
  double sumLogProb = 0.0, sumMargin = 0.0;
  r.stop = StopReason::maxTokens;
  for (size_t i = 0; i < options.maxTokens; ++i) {
    if (cancel != nullptr && cancel->cancelled()) {
      r.stop = StopReason::cancelled;
      break;
    }
    const SampledToken s = sampler_->sample(context_->logits());
    if (options.stopAtEog && tokenizer_.isEog(s.id)) {
      r.stop = StopReason::eog;
      break;
    }
    if (r.confidence.tokens < options.confidenceTokens) {
      ++r.confidence.tokens;
      sumLogProb += s.logProb;
      sumMargin += s.margin;
    }
    sampler_->accept(s.id);
    GeneratedToken t;
    t.id = s.id;
    t.index = i;
    t.prob = s.prob;
    t.logProb = s.logProb;
    t.margin = s.margin;
    t.text = detok_->push(s.id);
    ++r.generated;
    if (sink != nullptr) sink->onToken(t);
    if (i + 1 == options.maxTokens) break;  // the last token needs no forward pass
    if (context_->position() >= context_->capacity()) {
      r.stop = StopReason::contextFull;
      break;
    }
    if (cancel != nullptr && cancel->cancelled()) {
      r.stop = StopReason::cancelled;
      break;
    }
    const TokenId id = s.id;
    if (auto st = context_->eval(std::span<const TokenId>(&id, 1)); !st) {
      context_->reset();
      cached_.clear();
      return std::move(st).error();
    }
    cached_.push_back(id);
  }
  const std::string_view tail = detok_->flush();
  if (sink != nullptr && !tail.empty()) sink->onTextEnd(tail);
  if (r.confidence.tokens > 0) {
    r.confidence.meanLogProb = static_cast<float>(sumLogProb / static_cast<double>(r.confidence.tokens));
    r.confidence.meanMargin = static_cast<float>(sumMargin / static_cast<double>(r.confidence.tokens));
  }
  r.decodeMs = msSince(t1);
  return r;
}

Result<bool> Generator::warmPrefix(std::span<const TokenId> prefix, const CancelToken* cancel) {
  if (prefix.empty()) return makeError(Errc::invalid_argument, "prefix: empty");
  if (prefix.size() >= context_->capacity()) {
    return makeError(Errc::invalid_argument, "prefix: " + std::to_string(prefix.size()) +
                                                 " tokens leave no room in a context of " +
                                                 std::to_string(context_->capacity()));
  }
  size_t keep = 0;
  const size_t limit = std::min(cached_.size(), prefix.size());
  while (keep < limit && cached_[keep] == prefix[keep]) ++keep;
  context_->truncate(keep);
  cached_.resize(keep);
  auto done = prefill(prefix.subspan(keep), cancel);
  if (!done) {
    context_->reset();
    cached_.clear();
  }
  return done;
}

Status Generator::adoptRestoredPrefix(std::span<const TokenId> tokens) {
  context_->reset();
  cached_.clear();
  if (tokens.size() >= context_->capacity()) {
    return makeError(Errc::invalid_argument, "prefix: " + std::to_string(tokens.size()) +
                                                 " restored tokens do not fit a context of " +
                                                 std::to_string(context_->capacity()));
  }
  const size_t vocab = context_->model().params().nVocab;
  for (const TokenId id : tokens) {
    if (id < 0 || static_cast<size_t>(id) >= vocab) {
      return makeError(Errc::corrupt, "prefix: restored token id " + std::to_string(id) + " is outside the vocabulary");
    }
  }
  cached_.assign(tokens.begin(), tokens.end());
  context_->kv().setLength(tokens.size());
  return {};
}

Status Generator::embed(std::string_view text, std::span<float> out) {
  const size_t dim = embeddingSize();
  if (out.size() != dim) return makeError(Errc::invalid_argument, "embed: output must hold n_embd floats");
  scratchIds_.clear();
  tokenizer_.tokenize(text, true, false, scratchIds_);
  if (scratchIds_.empty()) return makeError(Errc::invalid_argument, "embed: empty text");
  if (scratchIds_.size() > context_->capacity()) scratchIds_.resize(context_->capacity());
  context_->reset();
  cached_.clear();
  std::fill(out.begin(), out.end(), 0.0f);
  const size_t batch = context_->maxBatch();
  EvalOutputs eo;
  eo.hiddenSum = out;
  const std::span<const TokenId> ids(scratchIds_);
  for (size_t done = 0; done < ids.size(); done += batch) {
    if (auto st = context_->eval(ids.subspan(done, std::min(batch, ids.size() - done)), eo); !st) {
      context_->reset();
      return st;
    }
  }
  // The cache now holds the text; it is not a prompt prefix anyone asked for.
  context_->reset();
  double norm = 0.0;
  for (const float v : out) norm += static_cast<double>(v) * v;
  // The mean's 1/n cancels in the normalization.
  const float inv = norm > 0.0 ? static_cast<float>(1.0 / std::sqrt(norm)) : 0.0f;
  for (float& v : out) v *= inv;
  return {};
}

}  // namespace sotto::llm
