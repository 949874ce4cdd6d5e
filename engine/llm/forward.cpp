// SPDX-License-Identifier: MIT
// The forward pass (llama.cpp's llm_build_llama / qwen2 graph, op by op on reserved buffers).
#include "engine/llm/forward.h"

#include <algorithm>
#include <cmath>
#include <new>
#include <string>

namespace sotto::llm {
namespace {

#define SOTTO_TRY(expr)                    \
  do {                                     \
    auto sottoSt = (expr);                 \
    if (!sottoSt) return sottoSt;          \
  } while (0)

}  // namespace

InferenceContext::~InferenceContext() = default;

Result<std::unique_ptr<InferenceContext>> InferenceContext::create(const Model& model, const ContextOptions& o) {
  const ModelParams& p = model.params();
  if (o.maxBatch == 0) return makeError(Errc::invalid_argument, "context: maxBatch must be ≥ 1");
  std::unique_ptr<InferenceContext> c(new InferenceContext(model));

  auto backend = hal::ComputeRegistry::instance().createBackend(o.backend);
  if (!backend) return std::move(backend).error();
  c->backend_ = std::move(*backend);
  if (auto st = model.checkBackend(*c->backend_); !st) return std::move(st).error();

  if (o.pool != nullptr) {
    c->pool_ = o.pool;
  } else {
    hal::ThreadPoolOptions po;
    po.threads = std::max(1u, o.threads);
    auto pool = hal::ThreadPool::create(po);
    if (!pool) return std::move(pool).error();
    c->ownPool_ = std::move(*pool);
    c->pool_ = c->ownPool_.get();
  }

  const size_t nCtx = o.nCtx == 0 ? p.nCtxTrain : std::min<size_t>(o.nCtx, p.nCtxTrain);
  auto kv = KvCache::create(p.nLayer, p.nHeadKv, p.headDim, nCtx);
  if (!kv) return std::move(kv).error();
  c->kv_ = std::move(*kv);
  c->maxBatch_ = std::min<size_t>(o.maxBatch, nCtx);
  c->attnScale_ = 1.0f / std::sqrt(static_cast<float>(p.headDim));

  const size_t B = c->maxBatch_;
  // The worst-case matmul scratch over every weight and both row counts the context uses.
  size_t mmScratch = 0;
  auto need = [&](const Weight& w) {
    mmScratch = std::max(mmScratch, c->backend_->matmulScratchBytes(w.type, B, w.cols));
  };
  need(model.output());
  for (const LayerWeights& l : model.layers()) {
    for (const Weight* w : {&l.wq, &l.wk, &l.wv, &l.wo, &l.gate, &l.up, &l.down}) need(*w);
  }
  try {
    c->x_.resize(B * p.nEmbd);
    c->xn_.resize(B * p.nEmbd);
    c->q_.resize(B * p.qDim());
    c->k_.resize(B * p.kvDim());
    c->v_.resize(B * p.kvDim());
    c->attn_.resize(B * p.qDim());
    c->gate_.resize(B * p.nFf);
    c->up_.resize(B * p.nFf);
    c->logits_.resize(p.nVocab);
    c->positions_.resize(B);
    c->matmulScratch_.resize(mmScratch);
    c->attnScratch_.resize(c->backend_->attentionScratchFloats(nCtx, c->pool_->threads()));
  } catch (const std::bad_alloc&) {
    return makeError(Errc::busy, "context: cannot allocate activation buffers for batch " + std::to_string(B));
  }
  return c;
}

size_t InferenceContext::reservedBytes() const {
  return kv_->bytes() +
         sizeof(float) * (x_.size() + xn_.size() + q_.size() + k_.size() + v_.size() + attn_.size() + gate_.size() +
                          up_.size() + logits_.size() + attnScratch_.size()) +
         positions_.size() * sizeof(int32_t) + matmulScratch_.size();
}

Status InferenceContext::eval(std::span<const TokenId> tokens, const EvalOutputs& out) {
  const ModelParams& p = model_.params();
  if (tokens.empty()) return makeError(Errc::invalid_argument, "eval: no tokens");
  if (tokens.size() > kv_->capacity() - kv_->length()) {
    return makeError(Errc::invalid_argument, "eval: " + std::to_string(tokens.size()) + " tokens at position " +
                                                 std::to_string(kv_->length()) + " overflow the context of " +
                                                 std::to_string(kv_->capacity()));
  }
  if (!out.allLogits.empty() && out.allLogits.size() != tokens.size() * p.nVocab) {
    return makeError(Errc::invalid_argument, "eval: allLogits must hold tokens × vocabulary floats");
  }
  if (!out.hiddenSum.empty() && out.hiddenSum.size() != p.nEmbd) {
    return makeError(Errc::invalid_argument, "eval: hiddenSum must hold n_embd floats");
  }
  for (const TokenId id : tokens) {
    if (id < 0 || static_cast<uint32_t>(id) >= p.nVocab) {
      return makeError(Errc::invalid_argument, "eval: token id " + std::to_string(id) + " outside the vocabulary");
    }
  }
  const size_t start = kv_->length();
  for (size_t done = 0; done < tokens.size();) {
    const size_t m = std::min(maxBatch_, tokens.size() - done);
    std::span<float> logitsOut;
    if (!out.allLogits.empty()) logitsOut = out.allLogits.subspan(done * p.nVocab, m * p.nVocab);
    if (auto st = forward(tokens.subspan(done, m), start + done, logitsOut, out.hiddenSum); !st) {
      kv_->setLength(start);  // a failed pass leaves nothing half-stored behind
      return st;
    }
    done += m;
    kv_->setLength(start + done);
  }
  return {};
}

Status InferenceContext::matmul(const Weight& w, const float* x, size_t m, float* y, size_t yStride) {
  return backend_->matmul(*pool_, matmulArgs(w, x, m, y, yStride));
}

hal::MatmulArgs InferenceContext::matmulArgs(const Weight& w, const float* x, size_t m, float* y, size_t yStride) {
  hal::MatmulArgs a;
  a.wType = w.type;
  a.w = w.data;
  a.wRowBytes = w.rowBytes;
  a.x = x;
  a.y = y;
  a.yStride = yStride;
  a.m = m;
  a.n = w.rows;
  a.k = w.cols;
  a.scratch = matmulScratch_;
  return a;
}

Status InferenceContext::forward(std::span<const TokenId> tokens, size_t pos0, std::span<float> logitsOut,
                                 std::span<float> hiddenSum) {
  const ModelParams& p = model_.params();
  hal::ComputeBackend& be = *backend_;
  hal::ThreadPool& pool = *pool_;
  const size_t m = tokens.size();
  const size_t E = p.nEmbd, Q = p.qDim(), KV = p.kvDim(), F = p.nFf;
  for (size_t i = 0; i < m; ++i) positions_[i] = static_cast<int32_t>(pos0 + i);

  const Weight& emb = model_.tokenEmbd();
  hal::GetRowsArgs gr;
  gr.type = emb.type;
  gr.table = emb.data;
  gr.tableRows = emb.rows;
  gr.cols = emb.cols;
  gr.rowBytes = emb.rowBytes;
  gr.ids = tokens;
  gr.out = x_.data();
  SOTTO_TRY(be.getRows(pool, gr));

  hal::RmsNormArgs norm;
  norm.rows = m;
  norm.cols = E;
  norm.eps = p.rmsEps;

  hal::RopeArgs rope;
  rope.tokens = m;
  rope.headDim = p.headDim;
  rope.nDims = p.ropeDims;
  rope.positions = positions_.data();
  rope.freqBase = p.ropeFreqBase;
  rope.freqScale = p.ropeFreqScale;
  rope.freqFactors = model_.ropeFreqs();
  rope.mode = p.ropeMode;

  const std::span<float> xs(x_.data(), m * E), xns(xn_.data(), m * E);
  const auto layers = model_.layers();
  for (size_t li = 0; li < layers.size(); ++li) {
    const LayerWeights& l = layers[li];
    // Attention block: x += Wo · attn(rope(Wq·n(x)), rope(Wk·n(x)), Wv·n(x)).
    norm.x = x_.data();
    norm.y = xn_.data();
    norm.w = l.attnNorm;
    SOTTO_TRY(be.rmsNorm(pool, norm));
    {
      const hal::MatmulArgs qkv[] = {matmulArgs(l.wq, xn_.data(), m, q_.data()),
                                     matmulArgs(l.wk, xn_.data(), m, k_.data()),
                                     matmulArgs(l.wv, xn_.data(), m, v_.data())};
      SOTTO_TRY(backend_->matmulGroup(*pool_, qkv));
    }
    if (l.bq != nullptr) {
      SOTTO_TRY(be.addBias(pool, std::span<float>(q_.data(), m * Q), std::span<const float>(l.bq, Q), m));
      SOTTO_TRY(be.addBias(pool, std::span<float>(k_.data(), m * KV), std::span<const float>(l.bk, KV), m));
      SOTTO_TRY(be.addBias(pool, std::span<float>(v_.data(), m * KV), std::span<const float>(l.bv, KV), m));
    }
    rope.x = q_.data();
    rope.heads = p.nHead;
    SOTTO_TRY(be.rope(pool, rope));
    rope.x = k_.data();
    rope.heads = p.nHeadKv;
    SOTTO_TRY(be.rope(pool, rope));

    const hal::KvCacheView cache = kv_->view(li);
    hal::StoreKvArgs st;
    st.k = k_.data();
    st.v = v_.data();
    st.tokens = m;
    st.pos0 = pos0;
    st.cache = cache;
    SOTTO_TRY(be.storeKv(pool, st));

    hal::AttentionArgs at;
    at.q = q_.data();
    at.tokens = m;
    at.heads = p.nHead;
    at.k = cache.k;
    at.v = cache.v;
    at.kvHeads = cache.kvHeads;
    at.headDim = cache.headDim;
    at.capacity = cache.capacity;
    at.kvLen = pos0 + m;
    at.pos0 = pos0;
    at.scale = attnScale_;
    at.out = attn_.data();
    at.scratch = attnScratch_;
    SOTTO_TRY(be.attention(pool, at));
    SOTTO_TRY(matmul(l.wo, attn_.data(), m, xn_.data()));
    SOTTO_TRY(be.add(pool, xs, xns, xs));

    // Feed-forward block: x += Wdown · (silu(Wgate·n(x)) ⊙ Wup·n(x)).
    norm.w = l.ffnNorm;
    SOTTO_TRY(be.rmsNorm(pool, norm));
    {
      const hal::MatmulArgs gateUp[] = {matmulArgs(l.gate, xn_.data(), m, gate_.data()),
                                        matmulArgs(l.up, xn_.data(), m, up_.data())};
      SOTTO_TRY(backend_->matmulGroup(*pool_, gateUp));
    }
    const std::span<float> g(gate_.data(), m * F);
    SOTTO_TRY(be.siluMul(pool, g, std::span<const float>(up_.data(), m * F), g));
    SOTTO_TRY(matmul(l.down, gate_.data(), m, xn_.data()));
    SOTTO_TRY(be.add(pool, xs, xns, xs));
  }

  // Output: only the rows someone asked for go through the norm and the (vocabulary-sized) output matmul.
  norm.w = model_.outputNorm();
  const bool everyRow = !logitsOut.empty() || !hiddenSum.empty();
  const size_t first = everyRow ? 0 : m - 1;
  norm.rows = m - first;
  norm.x = x_.data() + first * E;
  norm.y = xn_.data();
  SOTTO_TRY(be.rmsNorm(pool, norm));
  if (!hiddenSum.empty()) {
    for (size_t t = 0; t < m; ++t) {
      const float* h = xn_.data() + t * E;
      for (size_t i = 0; i < E; ++i) hiddenSum[i] += h[i];
    }
  }
  const Weight& out = model_.output();
  if (!logitsOut.empty()) {
    SOTTO_TRY(matmul(out, xn_.data(), m, logitsOut.data()));
    std::copy_n(logitsOut.data() + (m - 1) * p.nVocab, p.nVocab, logits_.data());
  } else {
    SOTTO_TRY(matmul(out, xn_.data() + (m - 1 - first) * E, 1, logits_.data()));
  }
  return {};
}

}  // namespace sotto::llm
