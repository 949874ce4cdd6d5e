// SPDX-License-Identifier: MIT
// Semantic-tier calibration: the embedder's own cosine on built-in unrelated and paraphrased request pairs sets
// the effective similarity threshold, or disables the semantic tier when the embedder cannot tell them apart.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "engine/cache/embedder.h"

namespace sotto::cache {

// How far above the unrelated pairs' 95th percentile the effective threshold goes, and the highest threshold at
// which a semantic tier is still worth having (above it only near-verbatim repeats hit: the exact tier's job).
inline constexpr float kCalibrationMargin = 0.02f;
inline constexpr float kMaxUsableThreshold = 0.99f;

struct SemanticCalibration {
  bool ran = false;     // an embedder was measured (false: no semantic tier, or calibration not asked for)
  bool usable = true;   // false: the semantic tier is off; reason says why
  float configuredThreshold = 0.0f;
  float threshold = 0.0f;  // effective: max(configured, unrelatedP95 + kCalibrationMargin)
  float unrelatedP95 = 0.0f, unrelatedMax = 0.0f;  // cosine over the built-in unrelated pairs
  float relatedMedian = 0.0f, relatedMin = 0.0f;   // cosine over the built-in paraphrase pairs
  std::size_t unrelatedPairs = 0, relatedPairs = 0;
  double elapsedMs = 0.0;  // what calibration cost when it was measured (the embeddings)
  bool remembered = false;  // taken from a saved calibration of the same model (nothing embedded this time)
  std::string reason;  // why the tier is off ("" when usable)
  // One line for logs and status: the figures and the decision.
  std::string summary() const;
};

// Embeds the built-in prompts (their canonical text, as the cache does) and decides:
//  - threshold = max(configuredThreshold, 95th percentile of the unrelated pairs + kCalibrationMargin);
//  - off when that exceeds kMaxUsableThreshold (unrelated requests look alike to this embedder), when the
//    paraphrase pairs' median falls below it (it cannot see a paraphrase either), or when embedding fails.
// Threads: the cache's owning thread at start-up (allocates; about 20 embeddings).
SemanticCalibration calibrateSemantic(Embedder& embedder, float configuredThreshold);

// Calibration is a property of the model: the daemon keeps it in its state directory so that a restart with the
// same model does not embed again (about 20 forward passes). modelKey names the model file's identity (the caller
// chooses it: path, size, modification time). The text also records the built-in prompt sets and constants, so a
// build that changes them measures again. Only measured decisions are worth keeping: an embedder failure is not
// (serializeCalibration returns "" for it). Any thread.
std::string serializeCalibration(const SemanticCalibration& c, std::string_view modelKey);
// The calibration in text, when it was made for modelKey, the same configured threshold and these prompt sets;
// remembered is set. nullopt for anything else (another model, damaged text, an older build's sets).
std::optional<SemanticCalibration> parseCalibration(std::string_view text, std::string_view modelKey,
                                                    float configuredThreshold);

}  // namespace sotto::cache
