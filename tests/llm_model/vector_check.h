// SPDX-License-Identifier: MIT
// Compares our forward pass and greedy decode with a llama.cpp forward-vector model entry (logits, top-10, greedy).
#pragma once

#include "tests/llm_model/llm_model_util.h"

namespace sotto::llm::test {

struct Tolerance {
  float lastLogitAbs = 1e-3f;   // max |ours − llama.cpp| over the last position's logits
  double minCosine = 0.0;       // cosine of the last logits (0 = not checked)
  float top10Abs = 1e-3f;       // max |ours − llama.cpp| at the vector's top-10 ids, every position
  double top1Fraction = 1.0;    // positions whose argmax agrees, at least
  float greedyMargin = 1e-3f;   // greedy ids must agree up to the first step with a smaller margin
};

struct VectorSummary {
  float lastMaxAbs = 0, top10MaxAbs = 0;
  double minCos = 1.0;
  size_t top1Agree = 0, positions = 0, greedyMatched = 0, greedyRequired = 0, greedyTotal = 0;
  size_t promptIdsChecked = 0;
};

inline VectorSummary checkAgainstVectors(const Json& vm, const LoadedModel& lm, const Tolerance& tol,
                                         const std::string& backend = "cpu") {
  VectorSummary s;
  const std::string name = vm["name"].str;
  if (!lm.model || !lm.tokenizer) {
    ADD_FAILURE() << name << ": model not loaded";
    return s;
  }
  const size_t V = lm.model->params().nVocab;
  EXPECT_EQ(V, static_cast<size_t>(vm["n_vocab"].num));
  auto ctx = makeContext(*lm.model, backend);
  GeneratorOptions go;
  go.context.backend = backend;
  go.context.threads = 1;
  go.context.nCtx = 512;
  auto gen = Generator::create(*lm.model, *lm.tokenizer, go);
  if (!ctx || !gen) {
    ADD_FAILURE() << name << ": no context or generator";
    return s;
  }
  for (const Json& c : vm["cases"].arr) {
    SCOPED_TRACE(c["id"].str);
    const auto ids = idsOf(c["prompt_ids"]);
    EXPECT_EQ(lm.tokenizer->tokenize(c["prompt"].str, true, true), ids) << "tokenizer disagrees on the prompt";
    ++s.promptIdsChecked;

    const auto logits = allLogits(*ctx, ids);
    const std::span<const float> last(logits.data() + (ids.size() - 1) * V, V);
    std::vector<float> want;
    if (c.has("last_logits")) {
      for (const Json& v : c["last_logits"].arr) want.push_back(static_cast<float>(v.num));
    } else {
      want = sotto::test::decodeF32Base64(c["last_logits_f32_b64"].str);
    }
    EXPECT_EQ(want.size(), V);
    if (want.size() != V) continue;
    float maxAbs = 0;
    for (size_t i = 0; i < V; ++i) maxAbs = std::max(maxAbs, std::fabs(last[i] - want[i]));
    const double cos = cosine(last, want);
    EXPECT_LE(maxAbs, tol.lastLogitAbs) << "last-position logits";
    if (tol.minCosine > 0) {
      EXPECT_GE(cos, tol.minCosine);
    }
    s.lastMaxAbs = std::max(s.lastMaxAbs, maxAbs);
    s.minCos = std::min(s.minCos, cos);
    // The context's own last logits must be the batch's last row.
    EXPECT_TRUE(std::equal(last.begin(), last.end(), ctx->logits().begin()));

    const auto& top10 = c["top10_per_position"].arr;
    EXPECT_EQ(top10.size(), ids.size());
    for (size_t p = 0; p < top10.size() && p < ids.size(); ++p) {
      const float* row = logits.data() + p * V;
      for (const Json& e : top10[p].arr) {
        const size_t id = static_cast<size_t>(e[0].num);
        const float d = std::fabs(row[id] - static_cast<float>(e[1].num));
        s.top10MaxAbs = std::max(s.top10MaxAbs, d);
      }
      s.top1Agree += argmax(std::span<const float>(row, V)) == static_cast<size_t>(top10[p][0][0].num) ? 1 : 0;
      ++s.positions;
    }

    const Json& greedy = c["greedy"];
    const auto ours = greedyIds(**gen, ids, static_cast<size_t>(greedy["n"].num));
    const auto wantIds = idsOf(greedy["ids"]);
    size_t required = 0;
    while (required < wantIds.size() && greedy["margin_to_second"][required].num >= tol.greedyMargin) ++required;
    size_t matched = 0;
    while (matched < std::min(wantIds.size(), ours.size()) && wantIds[matched] == ours[matched]) ++matched;
    EXPECT_GE(matched, required) << "greedy ids diverge at step " << matched << " before the first low-margin step";
    s.greedyMatched += matched;
    s.greedyRequired += required;
    s.greedyTotal += wantIds.size();
  }
  EXPECT_LE(s.top10MaxAbs, tol.top10Abs) << "top-10 logits";
  EXPECT_GE(static_cast<double>(s.top1Agree), tol.top1Fraction * static_cast<double>(s.positions)) << "top-1 agreement";
  std::printf("[vectors] %-26s %-7s max|dlast| %.3g  min cos %.7f  max|dtop10| %.3g  top-1 %zu/%zu  greedy %zu/%zu "
              "(required %zu)\n",
              name.c_str(), backend.c_str(), static_cast<double>(s.lastMaxAbs), s.minCos,
              static_cast<double>(s.top10MaxAbs), s.top1Agree, s.positions, s.greedyMatched, s.greedyTotal,
              s.greedyRequired);
  return s;
}

}  // namespace sotto::llm::test
