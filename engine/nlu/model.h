// SPDX-License-Identifier: MIT
// The trained understanding model (a .nlu file): an intent classifier over hashed sentence features and a slot
// tagger over hashed word features, both linear with softmax outputs, int8 weights with one scale per row.
//
// File (model_file.h's container, magic "SOTTONLU"): the training note, the intent names ("none" first), the slot
// names, the acceptance threshold, the intent layers (format 2: a count, then one layer per ensemble member; format
// 1: exactly one), the tag layer.
//
// Why an ensemble: members trained on differently seeded generated data disagree most on lines unlike any they
// were trained on, and their average is less sure there than any one of them (measured on the independent set:
// one model's false intents on "none" varied 0.016-0.025 with the generator's seed alone).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/nlu/features.h"
#include "engine/nlu/linear.h"
#include "sotto/hal/result.h"

namespace sotto::nlu {

inline constexpr std::uint32_t kModelFormatVersion = 2;
inline constexpr std::size_t kMaxEnsemble = 8;
// The model trained for a catalogue lives beside it: /etc/sotto/intents.xml -> /etc/sotto/intents.nlu (and
// config/intents.nlu in the source tree), so a firmware image that replaces one replaces both. Any thread.
std::string modelPathFor(const std::string& cataloguePath);

// Scratch for one utterance (features and per-word tag scores): callers keep one per thread.
struct NluWorkspace {
  static constexpr std::size_t kMaxWords = 48;
  static constexpr std::size_t kMaxClasses = 64;
  FeatureList features;
  float intentProb[kMaxClasses] = {};
  float memberProb[kMaxClasses] = {};
  float tagProb[kMaxWords][kMaxClasses] = {};
  int tags[kMaxWords] = {};
  float score[kMaxWords][kMaxClasses] = {};
  int back[kMaxWords][kMaxClasses] = {};
};

// Threads: load on a control thread; afterwards const and shared by any number of readers.
class NluModel {
 public:
  // Reads and verifies a model file: magic, version, checksum, sizes. Errors: not_found, io, corrupt (with the
  // path and what was wrong), unsupported (another format version).
  // catalogueIntents (when not empty): the catalogue's intent names; a model that knows an intent outside them is
  // refused as soon as its names are read, before its layers are allocated.
  static Result<std::unique_ptr<NluModel>> loadFile(const std::string& path,
                                                    std::span<const std::string> catalogueIntents = {});
  static Result<std::unique_ptr<NluModel>> parse(std::span<const std::uint8_t> bytes, std::string_view name,
                                                 std::span<const std::string> catalogueIntents = {});

  // A new model (the trainer). intents[0] must be "none".
  NluModel(std::vector<std::string> intents, std::vector<std::string> slots, LinearLayer intentLayer,
           LinearLayer tagLayer, float threshold, std::string note);
  // An ensemble: classify() averages the members' intent probabilities (1..kMaxEnsemble layers).
  NluModel(std::vector<std::string> intents, std::vector<std::string> slots, std::vector<LinearLayer> intentLayers,
           LinearLayer tagLayer, float threshold, std::string note);
  // One model of several trained for the same catalogue: their intent layers, the first one's tagger and threshold
  // (calibrate the result again). Errors: invalid_argument when they differ in intents or slots, or are too many.
  static Result<std::unique_ptr<NluModel>> ensemble(std::vector<std::unique_ptr<NluModel>> members, std::string note);

  std::vector<std::uint8_t> serialize() const;
  Status saveFile(const std::string& path) const;  // written to a temporary, then renamed

  const std::vector<std::string>& intents() const noexcept { return intents_; }
  const std::vector<std::string>& slots() const noexcept { return slots_; }
  float threshold() const noexcept { return threshold_; }
  void setThreshold(float t) noexcept { threshold_ = t; }
  const std::string& note() const noexcept { return note_; }
  const LinearLayer& intentLayer() const noexcept { return intentLayers_.front(); }
  const std::vector<LinearLayer>& intentLayers() const noexcept { return intentLayers_; }
  const LinearLayer& tagLayer() const noexcept { return tagLayer_; }
  // Tags: 0 = outside, 1 + 2s = begins slot s, 2 + 2s = inside slot s.
  std::size_t tagCount() const noexcept { return 1 + 2 * slots_.size(); }

  // Intent probabilities of normalized words into ws.intentProb (intents().size() values). No allocation.
  void classify(std::span<const std::string_view> words, NluWorkspace& ws) const noexcept;
  // The best tag sequence for words under intent (an index into intents()), into ws.tags: per-word
  // probabilities, then the most probable sequence in which an inside tag follows its own slot.
  // allowedSlots: bit s set when slot s may appear (the intent's slots). No allocation.
  void tag(std::span<const std::string_view> words, std::size_t intent, std::uint64_t allowedSlots,
           NluWorkspace& ws) const noexcept;

 private:
  std::vector<std::string> intents_;
  std::vector<std::string> slots_;
  std::vector<LinearLayer> intentLayers_;
  LinearLayer tagLayer_;
  float threshold_ = 0.5f;
  std::string note_;
};

}  // namespace sotto::nlu
