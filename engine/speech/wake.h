// SPDX-License-Identifier: MIT
// Wake word: pocketsphinx keyphrase spotting on the continuous capture stream (before noise suppression).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "engine/speech/sphinx.h"
#include "sotto/hal/result.h"

namespace sotto::speech {

struct WakeConfig {
  std::string acousticModel;   // pocketsphinx acoustic model directory
  std::string dictionary;      // pronunciation dictionary
  std::string phrase = "hey computer";
  std::string pronunciation;   // "WORD PH PH ...; ..." for words missing from the dictionary; may be empty
  int thresholdExponent = -20; // keyphrase threshold 1e<exponent>
  // Phone-loop probability 1e<exponent> ("-kws_plp"): the price the competing phone loop pays per phone. The
  // search compares the phrase's path against the loop; at pocketsphinx's default (1e-1) the loop out-scores the
  // phrase on every espeak-ng voice at any threshold. Lower wakes more voices and more false wakes: "my computer"
  // wakes it at 1e-3 and 1e-5 (tests/speech ClosedLoop.NoWakeOnUnrelatedSpeech), so the default stays 1e-1 until a
  // second pass verifies detections.
  int phoneLoopExponent = -1;
};

// One owner thread (the speech thread, or a test); create() on the control thread (loads the model, blocks).
// 16 kHz mono input. pocketsphinx allocates inside its search; nothing else allocates after create().
class WakeSpotter {
 public:
  static Result<std::unique_ptr<WakeSpotter>> create(const WakeConfig& config);

  // Starts spotting; `startSample` is the stream position (in samples) of the next sample given to process().
  void start(uint64_t startSample) noexcept;
  // Spots in `samples`; returns true when the phrase was heard (spotting then stops until start()).
  bool process(std::span<const int16_t> samples) noexcept;
  // After process() returned true: stream position just after the phrase's last frame.
  uint64_t phraseEndSample() const noexcept { return phraseEnd_; }
  bool active() const noexcept { return active_; }
  // Stops spotting (before the ASR takes over, or to restart the decoder's utterance).
  void stop() noexcept;

 private:
  WakeSpotter() = default;
  detail::DecoderPtr ps_;
  static constexpr uint64_t kDefaultLagFrames = 15, kMaxLagFrames = 100;
  uint64_t start_ = 0, fed_ = 0, phraseEnd_ = 0;
  bool active_ = false;
};

}  // namespace sotto::speech
