// SPDX-License-Identifier: MIT
// Wake word on the continuous capture stream (before noise suppression): the phrase's trained network
// (wake_net.h) when a model for the configured phrase is given, else pocketsphinx keyphrase spotting.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "engine/speech/sphinx.h"
#include "engine/speech/wake_net.h"
#include "engine/speech/wake_verify.h"
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
  // wakes it at 1e-3 and 1e-5 (tests/speech ClosedLoop.NoWakeOnUnrelatedSpeech): a loose first pass needs the
  // second pass below (bench_speech wake: 1e-10 with 1e-30 heard ~95 % of the wake clips, with ~78 false wakes/h).
  int phoneLoopExponent = -1;
  // Second pass (WakeVerifier): each detection of the keyphrase search is re-scored on its last ~1.4 s of audio and
  // accepted only when no word of the phrase is beaten by free phones by more than -`verifyThreshold` score units
  // per second. Lets a loose first pass (dear phone loop, low threshold) hear more voices without its false wakes.
  // Off by default: on the daemon's speech thread its ~1 s of CPU per candidate (debug build, loaded machine) stalled
  // the stage (tests/daemon_answer WakeWordDuringTheAnswer...); turn it on together with phone-loop -10 and
  // threshold -30 (bench figures in the commit message).
  bool verify = false;
  int verifyThreshold = -200;
  // A wake model file (wake_train) for this phrase: its network spots the phrase and the keyphrase settings above
  // are not used. Empty: keyphrase spotting. A model that cannot be loaded, or was trained for another phrase,
  // falls back to keyphrase spotting and says why (WakeSpotter::fallbackReason).
  std::string model;
};

// One owner thread (the speech thread, or a test); create() on the control thread (loads the model, blocks).
// 16 kHz mono input. pocketsphinx allocates inside its searches; nothing else allocates after create(). With
// verification on, process() blocks for the second pass (~0.3 s of CPU) on a candidate detection.
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
  // Candidate detections the second pass rejected, and its last score (per second; INT32_MIN: phrase not aligned).
  uint64_t rejected() const noexcept { return rejected_; }
  int32_t lastVerifyScore() const noexcept { return lastScore_; }
  // Stops spotting (before the ASR takes over, or to restart the decoder's utterance).
  void stop() noexcept;
  // Which spotter runs: "network" (the wake model) or "keyphrase" (pocketsphinx).
  const char* engine() const noexcept { return net_ ? "network" : "keyphrase"; }
  // Why a configured wake model is not used (empty when it is, or none was configured).
  const std::string& fallbackReason() const noexcept { return fallback_; }
  // The network's probability at its last run (0 for keyphrase spotting).
  float lastProbability() const noexcept { return net_ ? net_->lastProbability() : 0.0f; }

 private:
  WakeSpotter() = default;
  bool processNetwork(std::span<const int16_t> samples) noexcept;
  bool verified(uint64_t lagFrames, uint64_t phraseFrames) noexcept;
  std::unique_ptr<WakeDetector> net_;
  std::string fallback_;
  detail::DecoderPtr ps_;
  std::unique_ptr<WakeVerifier> verifier_;
  int verifyThreshold_ = 0;
  static constexpr uint64_t kDefaultLagFrames = 15, kMaxLagFrames = 100, kDefaultPhraseFrames = 80;
  // Verified segment: the phrase plus 0.5 s before it (measured on the bench set) and 0.1 s after it.
  static constexpr uint64_t kVerifyBeforeFrames = 50, kVerifyAfterFrames = 10, kRingSamples = 2 * 16000;
  std::vector<int16_t> ring_, segment_;  // the last kRingSamples fed; the segment, unwrapped
  uint64_t total_ = 0, startTotal_ = 0;  // samples ever fed; total_ at the last start()
  uint64_t start_ = 0, fed_ = 0, phraseEnd_ = 0, rejected_ = 0;
  int32_t lastScore_ = 0;
  bool active_ = false;
};

}  // namespace sotto::speech
