// SPDX-License-Identifier: MIT
// The speech thread's capture frontend: speexdsp noise suppression, AGC and voice activity, and the endpointer.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

#include "sotto/hal/result.h"

struct SpeexPreprocessState_;

namespace sotto::speech {

struct FrontendConfig {
  uint32_t rateHz = 16000;
  uint32_t frameSamples = 160;    // one 10 ms frame at 16 kHz; process() takes exactly this many samples
  // High-pass cutoff before everything else; 0 = none. Rumble below the voice (traffic, fans, handling, the low
  // end of pink or brown noise) holds the speech probability up long after the voice stops. 60 Hz: the acoustic
  // model reads from 130 Hz, and at 100 Hz the 12 dB per octave already reached its lowest bands (a closed-loop
  // command heard otherwise); 50 Hz measured as good as 120 Hz for the endpoint in pink noise.
  uint32_t highPassHz = 60;
  int noiseSuppressDb = -30;      // 0 = no noise suppression
  bool agc = true;
  uint32_t vadStartPercent = 80;  // speech probability (speexdsp's estimate) that starts speech
  uint32_t vadContinuePercent = 50;  // ... and that continues it
  // Speech in progress also ends at a denoised frame this many dB below the speech's recent peak, whatever the
  // speech probability says, and stays ended until the level comes back: the probability is smoothed and stays up
  // ~150 ms after the voice stops, which every endpoint then waits. 0: the probability alone.
  uint32_t vadEnergyGateDb = 25;
  // Speech in progress also ends at a frame whose level (high-passed, before denoising and AGC; smoothed over
  // ~50 ms) lies less than this share of the way from the background's level up to the speech's recent peak. For
  // noise the denoiser cannot remove (other talkers, music, a TV), whose frames the probability calls speech: the
  // user is louder than it, or could not be heard at all. Only while the speech stands 6 dB or more above the
  // background. 0 = off (the default: measured, the shorter noisy transcripts it gives were executed as commands
  // more often; 50 is the setting measured in the README).
  uint32_t vadBackgroundGatePercent = 0;
  // Speech in progress also ends once the capture's level (as for the background gate) has stayed at the
  // background's for this long in a row: within a quarter of the way from the background up to the speech's recent
  // peak. speexdsp's probability can stay above the continue threshold for seconds after the voice in steady noise
  // (measured: 5.7 s in pink noise 10 dB under the voice), and the turn then waits for it. A pause this long is
  // past the endpoint silence in a quiet room anyway, so no turn a quiet room would keep going is cut. 0 = off.
  uint32_t vadBackgroundHoldMs = 700;
};

// A second-order Butterworth high-pass (one biquad), in place on 16-bit samples. Plain arithmetic: one owner.
class HighPass {
 public:
  // cutoffHz 0: passes everything unchanged. The caller checks 0 < cutoffHz < rateHz / 4.
  HighPass(uint32_t cutoffHz, uint32_t rateHz) noexcept;
  void process(std::span<int16_t> samples) noexcept;
  void reset() noexcept { x1_ = x2_ = y1_ = y2_ = 0.0f; }

 private:
  bool on_ = false;
  float b0_ = 1.0f, b1_ = 0.0f, b2_ = 0.0f, a1_ = 0.0f, a2_ = 0.0f;
  float x1_ = 0.0f, x2_ = 0.0f, y1_ = 0.0f, y2_ = 0.0f;
};

// Not thread-safe: one owner thread (the speech thread, or a test). Everything is allocated in create();
// process() does not allocate, lock or log.
class Frontend {
 public:
  static Result<std::unique_ptr<Frontend>> create(const FrontendConfig& config);
  ~Frontend();
  Frontend(const Frontend&) = delete;
  Frontend& operator=(const Frontend&) = delete;

  // High-passes, denoises and levels `frame` in place (frameSamples() samples) and returns whether it holds speech.
  bool process(std::span<int16_t> frame) noexcept;
  uint32_t frameSamples() const noexcept { return frameSamples_; }
  // The preprocessor's speech probability (percent) for the last frame.
  int speechProbability() const noexcept { return probability_; }

 private:
  Frontend() = default;
  SpeexPreprocessState_* state_ = nullptr;
  HighPass highPass_{0, 16000};
  uint32_t frameSamples_ = 0;
  int startPercent_ = 0, continuePercent_ = 0, probability_ = 0;
  bool voiced_ = false, gated_ = false;  // gated_: the energy gate ended the run, and the level is still down
  float gateDb_ = 0.0f, peakDb_ = -200.0f;
  // The background gate: smoothed power of the high-passed capture; the background's level (the higher of a low
  // percentile tracked slowly and the lowest level of the last ~3 s: the minima of 15 blocks of ~200 ms and of the
  // block under way); the speech's recent peak; in dB.
  static constexpr size_t kBackgroundBlocks = 15;
  float backgroundShare_ = 0.0f, smoothing_ = 0.0f, peakDecay_ = 0.0f, rise_ = 0.0f, fall_ = 0.0f;
  uint32_t holdFrames_ = 0, holdRun_ = 0;  // the background hold: its length and the frames at background so far
  bool held_ = false;         // the hold ended the speech, the level has not come back, the peak not yet decayed
  float heldAboveDb_ = 0.0f;  // how far the speech's peak stood above the background when the hold began
  float levelPower_ = -1.0f, levelPeakDb_ = 0.0f, blockMinDb_ = 1e9f, percentileDb_ = 0.0f;
  std::array<float, kBackgroundBlocks> blockMinsDb_{};
  uint32_t blockFrames_ = 0, framesPerBlock_ = 1, block_ = 0;
};

// Decides where an utterance ends, from per-frame voice activity. Plain arithmetic: any thread that owns it.
// An utterance is armed (after the wake word), starts with 150 ms of voiced frames in a row (400 ms for a run that
// was already going on when it was armed: the wake phrase's tail), and ends after `endpointSilenceMs` of trailing
// silence, or when it has lasted `maxUtteranceMs` since it was armed (which also ends an utterance in which nobody
// spoke). Semantic endpointing: once per pause, when the trailing silence reaches `completeSilenceMs` (shorter),
// pauseToJudge() says so; the owner asks whether the words so far are a whole command and, when they are, ends
// the utterance there with endComplete().
class Endpointer {
 public:
  enum class State { idle, waiting, speaking, ended };
  enum class Reason { none, silence, maxLength, complete, noSpeech };

  // completeSilenceMs 0 (or not below endpointSilenceMs): no semantic endpointing.
  Endpointer(uint32_t endpointSilenceMs, uint32_t maxUtteranceMs, uint32_t completeSilenceMs = 0) noexcept
      : silenceMs_(endpointSilenceMs), maxMs_(maxUtteranceMs), completeMs_(completeSilenceMs) {}

  // Starts listening for an utterance at audio time nowMs. voicedNow: the frame before was voiced (the tail of the
  // wake phrase, or the command following it without a pause): that run must last longer to count as speech.
  // startWithinMs > 0: when speech has not started that long after nowMs, the utterance ends with reason noSpeech
  // (a follow-up window nobody used); 0: only maxUtteranceMs bounds the wait.
  void arm(uint64_t nowMs, bool voicedNow, uint32_t startWithinMs = 0) noexcept;
  // One frame that ends at audio time nowMs; returns true exactly once, on the frame that ends the utterance.
  bool frame(bool voiced, uint64_t nowMs) noexcept;
  void reset() noexcept { state_ = State::idle; }
  // True after the frame() on which the trailing silence reached completeSilenceMs: once per pause (voice starts
  // a new one), never after the utterance ended.
  bool pauseToJudge() const noexcept { return judge_; }
  // Ends the utterance now (the words so far are a whole command): reason() becomes complete.
  void endComplete() noexcept {
    state_ = State::ended;
    reason_ = Reason::complete;
    judge_ = false;
  }
  // Ends it, with reason complete, once the trailing silence reaches silenceMs, unless voice comes back first (a
  // whole command that may yet go on: "stop" of "stop the timer").
  void endCompleteAt(uint32_t silenceMs) noexcept { pendingCompleteMs_ = silenceMs; }

  State state() const noexcept { return state_; }
  Reason reason() const noexcept { return reason_; }
  bool heardSpeech() const noexcept { return speechEndMs_ != 0; }
  uint64_t speechEndMs() const noexcept { return speechEndMs_; }  // end of the last voiced frame; 0 = none yet

 private:
  uint32_t silenceMs_, maxMs_, completeMs_;
  State state_ = State::idle;
  bool judge_ = false, judged_ = false;  // pauseToJudge() now; this pause was already offered
  Reason reason_ = Reason::none;
  uint64_t armedMs_ = 0, speechEndMs_ = 0;
  uint32_t startWithinMs_ = 0;
  uint32_t pendingCompleteMs_ = 0;  // endCompleteAt()'s silence; 0 none
  uint32_t voicedRun_ = 0;
  bool inheritedRun_ = false;
};

}  // namespace sotto::speech
