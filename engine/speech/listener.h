// SPDX-License-Identifier: MIT
// The speech thread's recognition chain: wake word on the captured stream, frontend -> ASR with endpointing, events.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/speech/asr.h"
#include "engine/speech/frontend.h"
#include "engine/speech/turn.h"
#include "engine/speech/wake.h"
#include "sotto/hal/result.h"

namespace sotto::speech {

struct ListenerConfig {
  FrontendConfig frontend;  // rateHz must be 16000 and frameSamples 160 (what the acoustic model expects)
  WakeConfig wake;
  AsrConfig asr;
  uint32_t endpointSilenceMs = 300;
  // Semantic endpointing: at a pause of endpointCompleteMs the recognizer's best transcript so far is read by the
  // turn detector, and a whole command ends the turn there instead of after endpointSilenceMs. The detector is
  // `turn` when set (borrowed, must outlive the Listener), else one over asr.understander; with neither, or with
  // semanticEndpoint false, or endpointCompleteMs 0 or not below endpointSilenceMs, every turn waits for
  // endpointSilenceMs.
  bool semanticEndpoint = true;
  uint32_t endpointCompleteMs = 120;
  float completeMinConfidence = kMinCommandConfidence;  // least intent confidence of a whole command
  // A question said whole (wholeQuestion(): "what is the capital of france") ends its turn as early as a command.
  bool semanticQuestions = true;
  TurnDetector* turn = nullptr;
  // Speculative work (speech.speculate): at every pause of endpointCompleteMs that does not end the turn, the
  // transcript so far is reported as stable (ListenerEvents::onStablePartial), semantic endpointing or not, so the
  // brain can prepare the answer during the rest of the silence. endpointCompleteMs 0 or not below
  // endpointSilenceMs: no pause is short enough to gain anything, nothing is reported.
  bool stablePartials = false;
  // "Stop" while the device speaks, without the wake word: a keyphrase search for stopPhrase runs on the captured
  // (echo-cancelled) stream while setDeviceSpeaking(true) and no utterance is being recognized. Empty = off.
  std::string stopPhrase;
  int stopThresholdExponent = -20;  // its keyphrase threshold 1e<exponent> (as wake.threshold)
  // Not before the device has spoken this long in all since the stream began: until the echo canceller has
  // converged, the device's own "stop" leaks through (measured with a fresh canceller: every flite voice stopped
  // itself within its first 2.6 s of speech, tests/speech StopDuringPlayback). The canceller is never reset, so
  // this costs only the first answer after start-up.
  uint32_t stopAfterSpeakingMs = 3000;
  uint32_t maxUtteranceMs = 10000;
  uint32_t historyMs = 1000;  // audio kept to replay from the wake phrase's end to the ASR (detection lags)
  uint32_t wakeRestartMs = 60000;  // restart the keyphrase decoder's utterance after this long (in a pause)
};

// Receives the Listener's events, on the thread that calls Listener::process(). Times are audio time: ms of
// audio since the stream started. Implementations must not block for long (they stall recognition).
class ListenerEvents {
 public:
  virtual ~ListenerEvents() = default;
  virtual void onWake(uint64_t tMs) = 0;
  virtual void onPartial(std::string_view text, uint64_t tMs) = 0;
  // endpointDelayMs: from the end of the last voiced frame to the endpoint (0 when nobody spoke).
  virtual void onFinal(const Transcript& transcript, uint64_t tMs, uint64_t endpointDelayMs) = 0;
  // ListenerConfig::stablePartials: the user paused (endpointCompleteMs of silence) and the turn goes on waiting
  // for the long silence; `text` is the transcript over all audio so far (not empty). At most once per pause.
  virtual void onStablePartial(std::string_view text, uint64_t tMs) {
    (void)text;
    (void)tMs;
  }
  // The stop phrase was heard while the device was speaking (ListenerConfig::stopPhrase).
  virtual void onStop(uint64_t tMs) { (void)tMs; }
};

// One owner thread (the speech thread, or the CLI/test); create() on the control thread (loads the models).
// Our buffers are reserved in create() and nothing of ours allocates per frame; pocketsphinx does allocate inside
// its searches (measured: about 2 small allocations per 10 ms frame while spotting, e.g. ps_get_hyp's string), so
// the speech thread is not allocation-free in steady state while pocketsphinx is the recognizer.
class Listener {
 public:
  static Result<std::unique_ptr<Listener>> create(const ListenerConfig& config);

  // 16 kHz mono samples, any count: processed in 10 ms frames (a partial frame waits for the next call).
  void process(std::span<const int16_t> samples, ListenerEvents& events) noexcept;
  // End of stream: finishes an utterance in progress (its final's endpoint is the end of the stream).
  void flush(ListenerEvents& events) noexcept;
  // Listens for one utterance from now on without the wake word (the speaker has just asked the user to say it
  // again, or answered and waits for a follow-up). Ends like any utterance: at the endpoint, or after
  // maxUtteranceMs when nobody speaks; with startWithinMs > 0, when speech has not started within that window it
  // ends without a final (lastEndpoint() noSpeech) and spotting resumes. The wake word said in it is a wake: the
  // utterance so far is dropped and the request after the wake word is heard (onWake, then its final). Returns
  // false while an utterance is in progress or when the decoder fails to start (then it keeps spotting).
  bool listenNow(uint32_t startWithinMs = 0) noexcept;
  // Whether the device is speaking now (its playback): the stop phrase is spotted only then. Owner thread.
  void setDeviceSpeaking(bool speaking) noexcept;
  bool spotsStop() const noexcept { return stop_ != nullptr; }
  // Why a configured stop phrase is not spotted (its words are not in the dictionary), or empty.
  const std::string& stopDegradedReason() const noexcept { return stopDegraded_; }

  uint64_t audioMs() const noexcept { return samples_ / 16; }
  uint64_t frames() const noexcept { return samples_ / kFrameSamples; }
  uint64_t voicedFrames() const noexcept { return voicedFrames_; }
  bool recognizing() const noexcept { return recognizing_; }
  // The wake spotter's engine ("network" or "keyphrase") and why a configured wake model is not used (or empty).
  const char* wakeEngine() const noexcept { return wake_->engine(); }
  const std::string& wakeFallbackReason() const noexcept { return wake_->fallbackReason(); }
  // Why a configured recognizer search does not run (the domain language model), or empty.
  const std::string& asrDegradedReason() const noexcept { return asr_->degradedReason(); }
  // The hypotheses behind the last final (Recognizer::lastHypotheses), valid until the next utterance.
  std::span<const Hypothesis> lastHypotheses() const noexcept { return asr_->lastHypotheses(); }
  // Why the last (or current, inside onFinal) utterance ended: silence (the long one), complete (semantic
  // endpointing), maxLength, noSpeech (a listenNow window nobody spoke in: no final), or none (the stream ended,
  // flush()).
  Endpointer::Reason lastEndpoint() const noexcept { return lastReason_; }
  // The turn detector's reading at the last pause it was asked about (diagnostics, tests).
  const TurnReading& lastTurn() const noexcept { return lastTurn_; }
  bool semanticEndpointing() const noexcept { return turn_ != nullptr; }

  static constexpr uint32_t kFrameSamples = 160;

 private:
  Listener(const ListenerConfig& config)
      : endpointer_(config.endpointSilenceMs, config.maxUtteranceMs,
                    config.semanticEndpoint || config.stablePartials ? config.endpointCompleteMs : 0),
        oneWordCompleteMs_((config.endpointCompleteMs + config.endpointSilenceMs) / 2),
        stablePartials_(config.stablePartials) {}
  void frame(ListenerEvents& events) noexcept;
  void wake(ListenerEvents& events) noexcept;
  // One frame of the utterance: ASR, partials, endpoint. Returns true when the utterance ended.
  bool utteranceFrame(std::span<const int16_t> frame, bool voiced, uint64_t endMs, ListenerEvents& events) noexcept;
  void finishUtterance(uint64_t tMs, ListenerEvents& events) noexcept;

  std::unique_ptr<Frontend> frontend_;
  std::unique_ptr<WakeSpotter> wake_;
  std::unique_ptr<WakeSpotter> stop_;  // null: no stop phrase
  bool deviceSpeaking_ = false;
  uint64_t speakingSamples_ = 0, stopAfterSamples_ = 0;  // the device's speech so far; when the stop spotter may run
  std::string stopDegraded_;
  std::unique_ptr<Recognizer> asr_;
  Endpointer endpointer_;
  // A one-word whole command's silence (TurnReading::mayGoOn): halfway between the short and the long one.
  uint32_t oneWordCompleteMs_ = 0;
  std::unique_ptr<TurnDetector> ownTurn_;
  TurnDetector* turn_ = nullptr;  // null: no semantic endpointing
  bool stablePartials_ = false;
  TurnReading lastTurn_;
  Endpointer::Reason lastReason_ = Endpointer::Reason::none;
  Transcript transcript_;
  std::vector<int16_t> pending_;  // one frame being assembled
  std::vector<int16_t> raw_;      // the last frame before the frontend: what the wake spotter hears
  size_t pendingCount_ = 0;
  std::vector<int16_t> history_;  // ring of frontend output, a whole number of frames
  std::vector<uint8_t> historyVoiced_;  // per frame of history_
  uint64_t samples_ = 0, voicedFrames_ = 0, wakeStart_ = 0;
  uint64_t wakeRestartSamples_ = 0;
  bool recognizing_ = false;
  bool withoutWake_ = false;  // the utterance in progress began by listenNow(): the wake spotter still runs
};

}  // namespace sotto::speech
