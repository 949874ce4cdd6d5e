// SPDX-License-Identifier: MIT
// The local model's answer confidence as the router's single score: the geometric mean probability of its first tokens.
#pragma once

#include <cmath>

#include "engine/llm/generator.h"
#include "engine/router/decision.h"

namespace sotto::router {

// exp(mean ln p) over the first GenerateOptions::confidenceTokens tokens, in [0, 1]; unknown when no token was
// generated. Any thread; pure.
inline LocalInput localInputFrom(const llm::AnswerConfidence& c, bool modelAvailable = true) noexcept {
  LocalInput in;
  in.available = modelAvailable;
  in.confidenceKnown = modelAvailable && c.tokens > 0;
  if (in.confidenceKnown) {
    const float p = std::exp(c.meanLogProb);
    in.confidence = std::isfinite(p) ? std::fmin(std::fmax(p, 0.0f), 1.0f) : 0.0f;
  }
  return in;
}

}  // namespace sotto::router
