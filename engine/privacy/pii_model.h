// SPDX-License-Identifier: MIT
// The trained personal-data tagger (pii.nlu): per word, the probability of each type's begin and inside
// tags from hashed features of the word, its neighbours, its lexicon classes, its spoken-number run and the rule
// recognizers' candidates around it. Its spans are added to the rules' (which keep their exact boundaries), with
// a per-type probability threshold chosen for recall: a value the rules miss still counts as private.
//
// Two thresholds per type: a word joins a reported span at the span threshold (chosen for F1 on another author's
// file when one is given); at the lower suspect threshold (chosen for recall on held-out lines) the type is only
// marked suspected, which keeps a request with a possible local-only value on the device (policy.h).
//
// File (engine/nlu/model_file.h's container, magic "SOTTOPII"): the training note, 14 span thresholds, 14
// suspect thresholds, then (format 2) a count and that many tag layers (1 + 2 x 14 classes each), or (format 1)
// one tag layer. Several layers are an ensemble trained on differently seeded lines: the tagger averages their
// per-word probabilities, which steadies the recall of the types a single model learns unevenly (engine/nlu/model.h).
#pragma once

#include <array>
#include <cstdint>
#include <istream>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/nlu/linear.h"
#include "engine/privacy/pii.h"
#include "sotto/hal/result.h"

namespace sotto::privacy {

inline constexpr std::uint32_t kPiiModelFormatVersion = 2;
inline constexpr std::size_t kMaxPiiEnsemble = 8;
inline constexpr std::size_t kPiiTagCount = 1 + 2 * kPiiTypeCount;

// Threads: load on a control thread; afterwards const and shared by any number of readers.
class PiiModel {
 public:
  // Reads and verifies a model file. Errors: not_found, io, corrupt (with the path and what was wrong),
  // unsupported (another format version).
  static Result<std::unique_ptr<PiiModel>> loadFile(const std::string& path);
  static Result<std::unique_ptr<PiiModel>> parse(std::span<const std::uint8_t> bytes, std::string_view name);

  using Thresholds = std::array<float, kPiiTypeCount>;
  PiiModel(nlu::LinearLayer layer, Thresholds span, Thresholds suspect, std::string note);
  PiiModel(std::vector<nlu::LinearLayer> layers, Thresholds span, Thresholds suspect, std::string note);
  // One model of several: their layers, the first one's thresholds (calibrate the result again). Errors:
  // invalid_argument for none or more than kMaxPiiEnsemble layers.
  static Result<std::unique_ptr<PiiModel>> ensemble(std::vector<std::unique_ptr<PiiModel>> members, std::string note);

  std::vector<std::uint8_t> serialize() const;
  Status saveFile(const std::string& path) const;  // written to a temporary, then renamed

  const nlu::LinearLayer& layer() const noexcept { return layers_.front(); }
  const std::vector<nlu::LinearLayer>& layers() const noexcept { return layers_; }
  // A word joins a span of `type` when P(begin) + P(inside) of that type reaches spanThreshold, and marks the type
  // suspected when it reaches suspectThreshold (never above spanThreshold).
  float spanThreshold(PiiType type) const noexcept { return span_[static_cast<std::size_t>(type)]; }
  float suspectThreshold(PiiType type) const noexcept { return suspect_[static_cast<std::size_t>(type)]; }
  const Thresholds& spanThresholds() const noexcept { return span_; }
  const Thresholds& suspectThresholds() const noexcept { return suspect_; }
  void setSpanThresholds(const Thresholds& t) noexcept { span_ = t; }
  void setSuspectThresholds(const Thresholds& t) noexcept { suspect_ = t; }
  const std::string& note() const noexcept { return note_; }

 private:
  std::vector<nlu::LinearLayer> layers_;
  Thresholds span_{};
  Thresholds suspect_{};
  std::string note_;
};

struct PiiTrainOptions {
  unsigned bits = 16;
  int epochs = 5;
  float rate = 0.3f;
  std::uint32_t seed = 1;
  double holdout = 0.1;
  double recallLocalOnly = 0.99;  // held-out word recall each threshold must reach: local-only types
  double recallOther = 0.97;      // the other types
  std::string note;
};

struct PiiTrainReport {
  std::size_t lines = 0, trained = 0, heldOut = 0, spansUnaligned = 0;
  double tagAccuracy = 0.0;  // held-out words, argmax
  // Per type on held-out words at the suspect threshold.
  std::array<double, kPiiTypeCount> recall{}, precision{};
  std::array<float, kPiiTypeCount> suspect{}, span{};
  std::string text() const;
};

// PII lines ({"text", "spans": [{"start", "end", "type"}]}, the data README's format). Errors: corrupt (line
// number and problem), invalid_argument (nothing to train on). Threads: any thread; not real-time (allocates
// freely). The same holds for calibratePiiModel().
Result<std::unique_ptr<PiiModel>> trainPiiModel(std::istream& jsonl, const PiiTrainOptions& options,
                                                PiiTrainReport& report);

// On another author's labelled lines (the dev file): each type's span threshold for the best F1 of exact spans,
// rules and model together; then one suspect threshold for the local-only types (recall first), the lowest at
// which at most maxFalseKeep of the lines without a local-only value would be kept on the device for nothing.
// PERSON and LOCATION suspect at the lowest rung where at most 5 % of the lines would have a word redacted for
// nothing (what they suspect is replaced too, decideEscalation); the other types that may leave redacted suspect
// at their span threshold. Returns the report's lines.
// The budget is 6 %: a request kept local for nothing is answered on the device, the price of the promise. (At 2 %
// and at 4 %, with the other authors' tricky lines among the calibration lines, the threshold rose from 0.07 to 0.15
// while every rung caught the same 0.993 of their local-only values: a rise the calibration lines could not justify,
// and one that let health values through on the evaluation set.)
Result<std::string> calibratePiiModel(PiiModel& model, std::istream& jsonl, double maxFalseKeep = 0.06);

}  // namespace sotto::privacy
