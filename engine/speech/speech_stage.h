// SPDX-License-Identifier: MIT
// The speech thread (not real time): drains the capture ring, meters the level, spots the wake word, streams the
// ASR, reports events to the log and metrics, posts transcripts to the brain, and barges in on playback.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "engine/privacy/pii.h"
#include "engine/pipeline/cancel_token.h"
#include "engine/pipeline/health.h"
#include "engine/pipeline/histogram.h"
#include "engine/pipeline/latest_slot.h"
#include "engine/pipeline/mailbox.h"
#include "engine/pipeline/spsc_ring.h"
#include "engine/speech/audio_stage.h"
#include "engine/speech/input_meter.h"
#include "engine/speech/listener.h"
#include "sotto/hal/result.h"

namespace sotto::speech {

// One final transcript for the brain thread: fixed size, trivially copyable (it travels through a preallocated
// mailbox). A longer transcript is cut at a word boundary and marked truncated.
struct TranscriptMessage {
  static constexpr size_t kTextSize = 224;
  uint64_t sequence = 0;        // 1, 2, ... per final
  uint64_t tMs = 0;             // audio time of the endpoint
  uint32_t endpointDelayMs = 0; // end of speech to endpoint
  uint32_t words = 0;
  float confidence = 0;         // mean word confidence, 0..1
  uint8_t fromGrammar = 0;      // 1: the command grammar's transcript won (else the general LM's)
  uint8_t truncated = 0;
  uint8_t withoutWake = 0;      // 1: heard without the wake word (asked again, or a follow-up after an answer)
  uint8_t unfinishedTurn = 0;   // 1: the turn did not end in silence (length limit, or the audio ended)
  uint16_t length = 0;          // bytes of text
  char text[kTextSize] = {};    // NUL-terminated
  std::string_view textView() const noexcept { return {text, length}; }
};
static_assert(std::is_trivially_copyable_v<TranscriptMessage>);

enum class SpeechState : uint32_t { spotting = 0, listening = 1 };

struct SpeechCounters {
  uint64_t samples = 0;           // processed by the recognizer (audio time = samples / 16 ms)
  uint64_t wakes = 0, partials = 0, finals = 0;
  uint64_t bargeIns = 0;          // wakes while the device was speaking: playback stopped, answer cancelled
  uint64_t wholeCommandEndpoints = 0;  // finals whose turn a whole command ended early (semantic endpointing)
  uint64_t stops = 0;             // the stop phrase heard during playback: playback stopped, answer cancelled
  uint64_t followUpWindows = 0;   // windows opened after an answer to listen without the wake word
  uint64_t withoutWakeFinals = 0;  // finals heard without the wake word (asked again or follow-ups)
  uint64_t transcriptsDropped = 0;  // the brain's mailbox was full
  uint64_t stablePartials = 0;    // pauses that did not end the turn, published for speculation (setSpeculation)
  uint64_t lastWakeMs = 0, lastBargeInMs = 0, lastStopMs = 0;  // audio time; 0 = none yet
  bool recognizing = false;       // a recognizer is configured (else the stage only meters the level)
};

// Latency histograms in microseconds. "Lag" is how far the recognizer was behind the microphone when it emitted
// the event (samples captured by the audio thread but not yet recognized), i.e. how late the event is.
struct SpeechMetrics {
  pipeline::Histogram partialLagUs;
  pipeline::Histogram finalLagUs;
  pipeline::Histogram endpointDelayUs;  // end of the user's speech to the endpoint (audio time)
  pipeline::Histogram wakeLagUs;
};

// Threads: create() on the control thread (takes the loaded Listener); run()/step()/finish() on the speech
// thread only (or a test driving it in lockstep with AudioStage::cycle()); counters(), metrics(), state() from
// any thread; transcripts(): the brain thread consumes, the speech thread posts; commands(): the control thread
// posts. pocketsphinx allocates inside its searches (about twice per 10 ms frame), which is why this is not the
// audio thread; nothing of ours allocates per frame, except log lines for events.
class SpeechStage final : private ListenerEvents {
 public:
  // listener may be null: recognition unavailable (no models), the stage then only meters the level.
  // audio (borrowed, may be null): whether the device is speaking (barge-in) and how far capture is ahead (lag).
  // cancel (borrowed, may be null): the answer's token, cancelled on barge-in. transcriptSlots: a power of two.
  static Result<std::unique_ptr<SpeechStage>> create(InputMeter meter, std::unique_ptr<Listener> listener,
                                                     const AudioStage* audio, pipeline::CancelToken* cancel,
                                                     uint32_t rateHz, size_t transcriptSlots = 8);

  // Speech thread body until `stop`: step(), sleeping on the audio stage's captureWakeup() while the ring is empty
  // (marked idle once a finite capture stream has ended); serves commands(). Whoever sets `stop` or posts a
  // command notifies captureWakeup(). Without an audio stage it sleeps 2 ms between empty reads.
  void run(pipeline::SpscRing<int16_t>& ring, const std::atomic<bool>& stop, pipeline::Heartbeat& heartbeat) noexcept;
  // Drains what the ring holds now through the meter and the recognizer; returns the samples taken. When the
  // audio stage reports the end of a finite capture stream and the ring is empty, finishes an utterance in
  // progress (once).
  // `maxChunks` bounds the work of one call: run() takes one chunk at a time, so a thread behind real time (a
  // backlog that never drains) still beats and serves its commands between chunks.
  size_t step(pipeline::SpscRing<int16_t>& ring, size_t maxChunks = SIZE_MAX) noexcept;

  pipeline::SpscMailbox<TranscriptMessage>& transcripts() { return transcripts_; }
  // Control thread, before the speech thread starts: notified after every transcript posted (the brain thread
  // sleeps on it). Borrowed; may be null.
  void setTranscriptWakeup(pipeline::Wakeup* w) noexcept { transcriptWake_ = w; }
  // Any thread (the brain's, after it asked the user to say it again): the speech thread listens for one utterance
  // without the wake word once the device has finished speaking (or, when nothing plays within 3 s, from then).
  void listenAgain() noexcept { listenAgain_.store(true, std::memory_order_release); }
  // Control thread, before run() (or a test before step()): after each final, once the device has answered (its
  // playback started and ended; when nothing plays within 3 s, from then), listen for a follow-up without the wake
  // word: speech starting within windowMs is heard as a request, else spotting resumes. 0 (the default) = off.
  void setFollowUpWindow(uint32_t windowMs) noexcept { followUpMs_ = windowMs; }
  // Control thread, before run(): speculative work on stable partials (speech.speculate; the Listener must report
  // them, ListenerConfig::stablePartials). Each stable partial is published to stablePartials() (the newest
  // replaces one not taken yet) and cancels `cancel`: the speculation in progress is superseded. Each final cancels
  // it too, after the transcript is posted: the final wins. Borrowed (the brain thread resets it); null = off.
  void setSpeculation(pipeline::CancelToken* cancel) noexcept { speculationCancel_ = cancel; }
  // The speech thread publishes, the brain thread takes. Same message as a final (sequence: the final it will
  // belong to, tMs: audio time of the pause).
  pipeline::LatestSlot<TranscriptMessage>& stablePartials() noexcept { return stable_; }
  // Speech thread (the Listener's stable-partial event, or a test driving the stage): publishes `text` (audio time
  // tMs) as the stable partial of the utterance in progress, cancels the speculation in progress and wakes the
  // brain. No-op without setSpeculation(). Never blocks or allocates.
  void publishStablePartial(std::string_view text, uint64_t tMs) noexcept;
  pipeline::SpscMailbox<pipeline::Message>& commands() { return meter_.commands(); }
  const InputMeter& meter() const { return meter_; }
  SpeechState state() const noexcept { return static_cast<SpeechState>(state_.load(std::memory_order_relaxed)); }
  SpeechCounters counters() const noexcept;
  const SpeechMetrics& metrics() const noexcept { return *metrics_; }

 private:
  SpeechStage(InputMeter meter) : meter_(std::move(meter)) {}
  void onWake(uint64_t tMs) override;
  void onPartial(std::string_view text, uint64_t tMs) override;
  void onFinal(const Transcript& transcript, uint64_t tMs, uint64_t endpointDelayMs) override;
  void onStop(uint64_t tMs) override;
  void onStablePartial(std::string_view text, uint64_t tMs) override;
  std::string maskedText(std::string_view text) const;  // for debug log lines: PII spans become [TYPE]
  uint64_t lagUs() const noexcept;

  InputMeter meter_;
  std::unique_ptr<Listener> listener_;
  // Debug logging of what was said masks personal data first (created only when the log level is debug).
  std::unique_ptr<privacy::PiiClassifier> pii_;
  const AudioStage* audio_ = nullptr;
  pipeline::CancelToken* cancel_ = nullptr;
  uint32_t rateHz_ = 16000;
  std::vector<int16_t> chunk_;
  pipeline::SpscMailbox<TranscriptMessage> transcripts_;
  pipeline::Wakeup* transcriptWake_ = nullptr;
  pipeline::LatestSlot<TranscriptMessage> stable_;
  pipeline::CancelToken* speculationCancel_ = nullptr;
  std::atomic<uint64_t> stableCount_{0};
  std::unique_ptr<SpeechMetrics> metrics_;  // large (histograms): on the heap, reserved in create()
  bool flushed_ = false;
  // Single writer (the speech thread).
  std::atomic<uint64_t> wakes_{0}, partials_{0}, finals_{0}, bargeIns_{0}, dropped_{0}, lastWake_{0}, lastBargeIn_{0};
  std::atomic<uint64_t> wholeCommandEndpoints_{0}, followUpWindows_{0}, withoutWakeFinals_{0}, stops_{0}, lastStop_{0};
  std::atomic<uint64_t> samples_{0};
  std::atomic<uint32_t> state_{0};
  std::atomic<bool> listenAgain_{false};
  // Speech thread: a wait to listen without the wake word (listenAgain() or a follow-up): audio time it began,
  // whether the device has spoken since, and the window for speech to start (0: a whole utterance's length).
  uint64_t listenAgainSinceMs_ = 0;
  bool listenAgainPending_ = false, listenAgainHeardPlayback_ = false;
  uint32_t pendingStartWithinMs_ = 0;
  uint32_t followUpMs_ = 0;
  bool withoutWake_ = false;  // the utterance in progress began without the wake word
  void serveListenAgain() noexcept;
  uint64_t sequence_ = 0;
};

}  // namespace sotto::speech
