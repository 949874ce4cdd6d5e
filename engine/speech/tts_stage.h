// SPDX-License-Identifier: MIT
// TtsStage: the TTS thread's work: answer text -> phrase chunker -> TTS -> resampler -> playback (ring or file).
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/pipeline/cancel_token.h"
#include "engine/pipeline/spsc_ring.h"
#include "engine/speech/chunker.h"
#include "engine/speech/resampler.h"
#include "engine/speech/tts.h"

namespace sotto::speech {

// Where the stage's audio goes: S16 mono at rateHz().
class PcmOutput {
 public:
  virtual ~PcmOutput() = default;
  // TTS thread. Blocks until all of `frames` is accepted, or returns false early when `cancel` is set or the
  // output failed.
  virtual bool write(std::span<const int16_t> frames, const pipeline::CancelToken& cancel) = 0;
  virtual uint32_t rateHz() const = 0;
};

// The audio thread's playback ring (AudioStage::playbackRing; this is its only producer). write() keeps at most
// maxLeadMs of audio queued ahead of the speaker, so a cancel is heard within that time: the audio thread only pops
// and never waits for us. While the ring holds the lead, write() sleeps on `roomFreed` (AudioStage::
// playbackWakeup(), which the audio thread notifies as it pops; register it with the CancelToken's wakeOnCancel()
// so a cancel wakes the writer too), or, without one, 1 ms at a time.
class RingOutput final : public PcmOutput {
 public:
  RingOutput(pipeline::SpscRing<int16_t>& ring, uint32_t rateHz, uint32_t maxLeadMs = 100,
             pipeline::Wakeup* roomFreed = nullptr);
  bool write(std::span<const int16_t> frames, const pipeline::CancelToken& cancel) override;
  uint32_t rateHz() const override { return rateHz_; }
  size_t maxLeadFrames() const { return maxLead_; }

 private:
  pipeline::SpscRing<int16_t>& ring_;
  uint32_t rateHz_;
  size_t maxLead_;
  pipeline::Wakeup* roomFreed_;
};

struct TtsStageStats {
  uint64_t phrases = 0;        // phrases synthesized (or started) since begin()
  uint64_t framesOut = 0;      // frames written to the output at its rate
  int64_t firstAudioNs = -1;   // from begin() to the first audio written; -1 = none yet
  int64_t firstTextNs = -1;    // from begin() to the first feed() with text
  uint64_t trimmedFrames = 0;  // leading silence skipped at the engine's rate (trimLeadingSilence)
  bool firstPhraseCutEarly = false;  // the first phrase was cut when its wait ran out (limitFirstPhraseWait)
  bool firstPhrasePrepared = false;  // the first phrase was spoken from prepare()'s audio
  bool cancelled = false;
};

// Threads: one TTS thread (non-real-time) calls everything. feed() and finish() block while they synthesize and
// while the output is full; they allocate inside the TTS library, never in the chunker or resampler.
class TtsStage final : private TtsAudioSink {
 public:
  // The engine and the output's rate fix the resampler; the stage borrows `out` for its lifetime.
  static Result<std::unique_ptr<TtsStage>> create(std::unique_ptr<TtsEngine> engine, PcmOutput& out,
                                                  const ChunkerConfig& chunker = {}, int resampleQuality = 5);

  // Starts an answer; `cancel` (borrowed until the next begin()) is checked between chunks.
  void begin(const pipeline::CancelToken& cancel);
  // A piece of the answer's text (a token: any size, may split UTF-8): speaks every phrase it completes.
  Status feed(std::string_view text);
  // End of the answer's text: speaks the rest and the resampler's tail.
  Status finish();
  // begin + feed + finish.
  Status speak(std::string_view text, const pipeline::CancelToken& cancel);

  // Skips the silence a voice puts before an answer's first sound (flite: about 200 ms), keeping `prerollMs`
  // before it, so the listener hears the answer that much sooner. Pauses inside the answer are kept.
  // 0 turns it off (the default: files written by `sotto say` keep the voice's timing). TTS thread, before begin().
  void trimLeadingSilence(uint32_t prerollMs) { trimPrerollMs_ = prerollMs; }
  // When the answer's first phrase is still incomplete `ms` after its first text arrived (a model slower than the
  // listener's patience), the whole words held, two at least, are spoken as the first phrase; the rest follows as
  // usual. Checked as text arrives. 0 turns it off (the default). TTS thread, before begin().
  void limitFirstPhraseWait(uint32_t ms) { firstPhraseWaitNs_ = int64_t{ms} * 1'000'000; }
  // Synthesizes the first phrase of `text` (an answer that may come: a question answered from a partial
  // transcript while the user may still be speaking) and keeps its audio. The next answer's first phrase, if it is
  // the same text, is spoken from it without waiting for the engine; whether it is or not, the audio is dropped
  // then. A later prepare() replaces it. Returns whether a phrase is kept. TTS thread, between answers.
  bool prepare(std::string_view text);

  const TtsStageStats& stats() const { return stats_; }
  const TtsEngine& engine() const { return *engine_; }

 private:
  TtsStage() = default;
  bool onAudio(std::span<const int16_t> samples) override;
  Status speakReady();
  int64_t sinceBegin() const;
  void stopForCancel();

  std::unique_ptr<TtsEngine> engine_;
  std::unique_ptr<PhraseChunker> chunker_, prepareChunker_;
  std::unique_ptr<Resampler> resampler_;
  PcmOutput* out_ = nullptr;
  const pipeline::CancelToken* cancel_ = nullptr;
  std::vector<int16_t> outBuf_;  // one resampled chunk
  std::chrono::steady_clock::time_point begin_{};
  TtsStageStats stats_;
  uint32_t trimPrerollMs_ = 0;
  int64_t firstPhraseWaitNs_ = 0;
  bool heard_ = false;  // a sample above the silence level was written in this answer
  std::string preparedPhrase_;     // prepare()'s phrase, empty when none is kept
  std::vector<int16_t> prepared_;  // its audio at the engine's rate, as synthesized (before trimming)
  pipeline::CancelToken neverCancelled_;  // prepare() runs between answers: nothing cancels it
};

}  // namespace sotto::speech
