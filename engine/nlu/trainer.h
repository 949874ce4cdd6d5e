// SPDX-License-Identifier: MIT
// Training the understanding model from labelled utterances (bench/nlu/gen_train.py writes them): the intent
// classifier and the slot tagger by AdaGrad on the softmax loss, then the acceptance threshold chosen on a held-out
// tenth so that the model's false intents on "none" stay under a bound. Threads: any thread, one call at a time per
// model; not real-time (allocates freely, seconds to minutes).
#pragma once

#include <cstdint>
#include <istream>
#include <memory>
#include <string>
#include <vector>

#include "engine/intents/catalogue.h"
#include "engine/nlu/model.h"
#include "sotto/hal/result.h"

namespace sotto::nlu {

struct TrainOptions {
  unsigned intentBits = 15;      // 2^bits hashed rows per layer
  unsigned tagBits = 16;
  int epochs = 6;
  float rate = 0.3f;             // AdaGrad's base rate
  std::uint32_t seed = 1;
  double holdout = 0.1;          // share of lines kept out of training, for the threshold and the report
  double maxFalseIntent = 0.005; // on held-out "none" lines, at the chosen threshold
  std::string note;              // written into the model (what it was trained on)
};

struct TrainReport {
  std::size_t lines = 0, trained = 0, heldOut = 0;
  std::size_t spansUnaligned = 0;  // slot spans whose words were not found among the normalized words
  double intentAccuracy = 0.0;     // held out, argmax
  double acceptedAccuracy = 0.0;   // held out, at the threshold (below it: none)
  double falseIntentRate = 0.0;    // held-out none lines given an intent at the threshold
  double tagAccuracy = 0.0;        // held-out words, gold intent
  float threshold = 0.0f;
  std::vector<std::string> perIntent;  // "name accuracy (n)"
  std::string text() const;            // the report as printed by sotto nlu train
};

struct CalibrationReport {
  std::size_t lines = 0, none = 0;
  float threshold = 0.0f;
  double falseIntentRate = 0.0;  // the model alone, on the file's none lines, at the threshold
  double recall = 0.0;           // the model alone, on the file's commands, right intent at the threshold
  std::string text() const;
};

// Chooses the model's acceptance threshold on labelled lines of another author (the dev file: data the trainer
// never saw): the lowest that keeps the model's own false intents on the file's "none" lines within the bound,
// judged without the rules so that the model's sense of "none" is what is measured. Errors as trainModel's.
Status calibrateThreshold(NluModel& model, const intents::Catalogue& catalogue, std::istream& jsonl,
                          double maxFalseIntent, CalibrationReport& report);

// One JSON object per line: "text", "intent" (a catalogue intent or "none"), optional "slot_spans"
// [{"start","end","slot"}] in code points. Errors: corrupt (line number and problem) for a malformed line or an
// intent or slot the catalogue lacks; invalid_argument when there is nothing to train on.
Result<std::unique_ptr<NluModel>> trainModel(const intents::Catalogue& catalogue, std::istream& jsonl,
                                             const TrainOptions& options, TrainReport& report);

}  // namespace sotto::nlu
