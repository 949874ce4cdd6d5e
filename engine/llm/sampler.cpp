// SPDX-License-Identifier: MIT
// Sampler implementation: one pass for the model's confidence, then the filter chain on a reserved working set.
#include "engine/llm/sampler.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace sotto::llm {
namespace {

constexpr size_t kMaxRepeatLastN = 4096;

uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

// Descending logit, then ascending id: a total order, so every library's sort gives the same sequence.
struct ByLogit {
  template <typename C>
  bool operator()(const C& a, const C& b) const {
    return a.logit != b.logit ? a.logit > b.logit : a.id < b.id;
  }
};

}  // namespace

void Rng::seed_(uint64_t seed) {
  uint64_t x = seed;
  for (uint64_t& s : s_) {  // splitmix64
    x += 0x9e3779b97f4a7c15ull;
    uint64_t z = x;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    s = z ^ (z >> 31);
  }
}

uint64_t Rng::next() {
  const uint64_t result = rotl(s_[1] * 5, 7) * 9;
  const uint64_t t = s_[1] << 17;
  s_[2] ^= s_[0];
  s_[3] ^= s_[1];
  s_[1] ^= s_[2];
  s_[0] ^= s_[3];
  s_[2] ^= t;
  s_[3] = rotl(s_[3], 45);
  return result;
}

Result<std::unique_ptr<Sampler>> Sampler::create(size_t nVocab, const SamplerOptions& options) {
  if (nVocab == 0 || nVocab > static_cast<size_t>(std::numeric_limits<TokenId>::max())) {
    return makeError(Errc::invalid_argument, "sampler: bad vocabulary size");
  }
  std::unique_ptr<Sampler> s(new Sampler());
  s->nVocab_ = nVocab;
  s->work_.resize(nVocab);
  s->cand_.resize(nVocab);
  s->seenStamp_.assign(nVocab, 0);
  s->history_.resize(kMaxRepeatLastN);
  if (auto st = s->configure(options); !st) return std::move(st).error();
  return s;
}

Status Sampler::configure(const SamplerOptions& o) {
  if (o.repeatLastN > kMaxRepeatLastN) return makeError(Errc::invalid_argument, "sampler: repeatLastN above 4096");
  if (!std::isfinite(o.temperature) || !std::isfinite(o.topP) || !std::isfinite(o.minP) ||
      !std::isfinite(o.repeatPenalty) || o.repeatPenalty <= 0.0f) {
    return makeError(Errc::invalid_argument, "sampler: temperature, top-p, min-p and penalty must be finite (penalty > 0)");
  }
  opt_ = o;
  rng_.reseed(o.seed);
  historyHead_ = historyCount_ = 0;
  return {};
}

void Sampler::accept(TokenId id) {
  if (opt_.repeatLastN == 0) return;
  history_[historyHead_] = id;
  historyHead_ = (historyHead_ + 1) % opt_.repeatLastN;
  historyCount_ = std::min<size_t>(historyCount_ + 1, opt_.repeatLastN);
}

SampledToken Sampler::sample(std::span<const float> logits) {
  if (logits.size() != nVocab_) return {};
  if (opt_.repeatPenalty == 1.0f || historyCount_ == 0) return draw(logits);
  std::copy(logits.begin(), logits.end(), work_.begin());
  if (++stamp_ == 0) {  // wrapped: clear so an old stamp cannot look current
    std::fill(seenStamp_.begin(), seenStamp_.end(), 0u);
    stamp_ = 1;
  }
  for (size_t i = 0; i < historyCount_; ++i) {
    const TokenId id = history_[i];
    if (id < 0 || static_cast<size_t>(id) >= nVocab_ || seenStamp_[id] == stamp_) continue;
    seenStamp_[id] = stamp_;  // each distinct token is penalized once, however often it occurred
    float& l = work_[id];
    l = l > 0.0f ? l / opt_.repeatPenalty : l * opt_.repeatPenalty;
  }
  return draw(work_);
}

SampledToken Sampler::draw(std::span<const float> logits) {
  const size_t n = logits.size();
  // The model's confidence: top-2 and log-sum-exp at temperature 1 (NaN logits never win).
  size_t best = 0, second = n > 1 ? 1 : 0;
  float bestL = -std::numeric_limits<float>::infinity(), secondL = bestL;
  for (size_t i = 0; i < n; ++i) {
    const float l = logits[i];
    if (l > bestL) {
      second = best;
      secondL = bestL;
      best = i;
      bestL = l;
    } else if (l > secondL) {
      second = i;
      secondL = l;
    }
  }
  (void)second;
  double sum = 0.0;
  for (size_t i = 0; i < n; ++i) sum += std::exp(static_cast<double>(logits[i] - bestL));
  const double lse = static_cast<double>(bestL) + std::log(sum);
  auto logProbOf = [&](size_t id) { return static_cast<double>(logits[id]) - lse; };
  SampledToken r;
  r.margin = static_cast<float>(std::exp(logProbOf(best)) - (n > 1 ? std::exp(static_cast<double>(secondL) - lse) : 0.0));

  size_t chosen = best;
  if (opt_.temperature > 0.0f && n > 1) {
    size_t count = n;
    for (size_t i = 0; i < n; ++i) cand_[i] = Candidate{logits[i], static_cast<TokenId>(i)};
    if (opt_.topK > 0 && static_cast<size_t>(opt_.topK) < n) {
      count = static_cast<size_t>(opt_.topK);
      std::nth_element(cand_.begin(), cand_.begin() + static_cast<ptrdiff_t>(count - 1), cand_.begin() + static_cast<ptrdiff_t>(n), ByLogit{});
    }
    std::sort(cand_.begin(), cand_.begin() + static_cast<ptrdiff_t>(count), ByLogit{});
    // Probabilities of the kept set at temperature 1 (llama.cpp renormalizes after top-k).
    const float top = cand_[0].logit;
    double z = 0.0;
    for (size_t i = 0; i < count; ++i) z += std::exp(static_cast<double>(cand_[i].logit - top));
    if (opt_.topP < 1.0f) {
      double cum = 0.0;
      size_t keep = count;
      for (size_t i = 0; i < count; ++i) {
        cum += std::exp(static_cast<double>(cand_[i].logit - top)) / z;
        if (cum >= opt_.topP) {
          keep = i + 1;
          break;
        }
      }
      count = keep;
    }
    if (opt_.minP > 0.0f) {
      // p_i ≥ minP · p_max  ⇔  logit_i ≥ top + ln(minP); the first candidate always stays.
      const float floor = top + std::log(opt_.minP);
      size_t keep = 1;
      while (keep < count && cand_[keep].logit >= floor) ++keep;
      count = keep;
    }
    double total = 0.0;
    const double invT = 1.0 / static_cast<double>(opt_.temperature);
    for (size_t i = 0; i < count; ++i) total += std::exp(static_cast<double>(cand_[i].logit - top) * invT);
    const double u = rng_.uniform() * total;
    double acc = 0.0;
    chosen = static_cast<size_t>(cand_[count - 1].id);
    for (size_t i = 0; i < count; ++i) {
      acc += std::exp(static_cast<double>(cand_[i].logit - top) * invT);
      if (u < acc) {
        chosen = static_cast<size_t>(cand_[i].id);
        break;
      }
    }
  }
  r.id = static_cast<TokenId>(chosen);
  r.logProb = static_cast<float>(logProbOf(chosen));
  r.prob = static_cast<float>(std::exp(logProbOf(chosen)));
  return r;
}

}  // namespace sotto::llm
