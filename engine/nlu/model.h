// SPDX-License-Identifier: MIT
// The trained understanding model (a .nlu file): an intent classifier over hashed sentence features and a slot
// tagger over hashed word features, both linear with softmax outputs, int8 weights with one scale per row.
//
// File (little-endian): "SOTTONLU", u32 format version, then the training note, the intent names ("none"
// first), the slot names, the acceptance threshold, the two layers (rows as 2^bits, classes, biases, then the
// non-zero rows: u32 row, f32 scale, int8 weights), and a BLAKE2b-256 of everything before it (libsodium).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/nlu/features.h"
#include "sotto/hal/result.h"

namespace sotto::nlu {

inline constexpr std::uint32_t kModelFormatVersion = 1;
// Where an installed system keeps the model trained for its catalogue (config/intents.nlu in the source tree).
inline constexpr const char* kDefaultModelPath = "/etc/sotto/intents.nlu";
// A model is a few MiB; anything far larger is not one of ours.
inline constexpr std::size_t kMaxModelBytes = 64u << 20;

// One linear softmax layer over hashed features. Threads: read-only after load, any number of readers.
class LinearLayer {
 public:
  LinearLayer() = default;
  LinearLayer(unsigned bits, std::size_t classes);

  unsigned bits() const noexcept { return bits_; }
  std::size_t rows() const noexcept { return std::size_t{1} << bits_; }
  std::size_t classes() const noexcept { return classes_; }
  std::uint32_t rowMask() const noexcept { return static_cast<std::uint32_t>(rows() - 1); }

  // scores[c] = bias[c] + sum value * weight[row][c]; then softmax in place when probabilities is set.
  // scores must hold classes() floats. No allocation.
  void scores(std::span<const Feature> features, float* scores) const noexcept;

  // Trainer side: quantizes float weights (rows x classes, row-major) and biases into this layer.
  void setWeights(std::span<const float> weights, std::span<const float> bias);

 private:
  friend class NluModel;
  unsigned bits_ = 0;
  std::size_t classes_ = 0;
  std::vector<float> bias_;
  std::vector<float> scale_;       // per row; 0 = the row is all zero
  std::vector<std::int8_t> q_;     // rows x classes
};

void softmax(float* values, std::size_t n) noexcept;

// Scratch for one utterance (features and per-word tag scores): callers keep one per thread.
struct NluWorkspace {
  static constexpr std::size_t kMaxWords = 48;
  static constexpr std::size_t kMaxClasses = 64;
  FeatureList features;
  float intentProb[kMaxClasses] = {};
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
  static Result<std::unique_ptr<NluModel>> loadFile(const std::string& path);
  static Result<std::unique_ptr<NluModel>> parse(std::span<const std::uint8_t> bytes, std::string_view name);

  // A new model (the trainer). intents[0] must be "none".
  NluModel(std::vector<std::string> intents, std::vector<std::string> slots, LinearLayer intentLayer,
           LinearLayer tagLayer, float threshold, std::string note);

  std::vector<std::uint8_t> serialize() const;
  Status saveFile(const std::string& path) const;  // written to a temporary, then renamed

  const std::vector<std::string>& intents() const noexcept { return intents_; }
  const std::vector<std::string>& slots() const noexcept { return slots_; }
  float threshold() const noexcept { return threshold_; }
  const std::string& note() const noexcept { return note_; }
  const LinearLayer& intentLayer() const noexcept { return intentLayer_; }
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
  LinearLayer intentLayer_;
  LinearLayer tagLayer_;
  float threshold_ = 0.5f;
  std::string note_;
};

}  // namespace sotto::nlu
