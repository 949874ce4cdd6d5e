// SPDX-License-Identifier: MIT
// Text to speech: one interface (TtsEngine) over the flite and espeak-ng backends, chosen by name from the config.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/pipeline/cancel_token.h"
#include "sotto/hal/result.h"

namespace sotto::speech {

// What the config asks for (tts.* settings).
struct TtsOptions {
  std::string engine = "flite";  // "flite" or "espeak-ng"
  std::string voice;             // empty = the engine's default voice
  uint32_t ratePercent = 100;    // speaking rate: 100 = the voice's own, 200 = twice as fast (50..300)
  uint32_t volumePercent = 100;  // gain on the samples: 100 = unchanged (0..400, saturating)
  std::string espeakDataDir;     // espeak-ng-data directory; empty = the library's compiled-in default
};

// Receives audio as the engine produces it. Called on the thread that called TtsEngine::synthesize.
class TtsAudioSink {
 public:
  virtual ~TtsAudioSink() = default;
  // S16 mono at the engine's rateHz(), at most TtsEngine::kMaxChunkFrames frames. Return false to stop synthesis
  // (e.g. the output went away); synthesize() then returns without error.
  virtual bool onAudio(std::span<const int16_t> samples) = 0;
};

// A synthesizer with one voice loaded. Not thread-safe: one thread (the TTS thread) owns it. synthesize() blocks
// while it synthesizes; it allocates inside the engine's library (not a real-time path).
class TtsEngine {
 public:
  // Largest chunk handed to TtsAudioSink::onAudio: 20 ms at 16 kHz. Small chunks bound how much audio is produced
  // after a cancel (the token is checked between chunks) and let playback start early.
  static constexpr size_t kMaxChunkFrames = 320;

  virtual ~TtsEngine() = default;

  // Synthesizes `text` (UTF-8; one phrase or several sentences), handing audio to `out` chunk by chunk as it is
  // produced, with the volume applied. Between chunks it checks `cancel`: once cancelled, no further audio is
  // delivered and it returns success as soon as the engine lets go. An error says what failed.
  Status synthesize(std::string_view text, TtsAudioSink& out, const pipeline::CancelToken& cancel);

  const std::string& engine() const { return engine_; }
  const std::string& voice() const { return voice_; }
  uint32_t rateHz() const { return rateHz_; }  // native sample rate of the loaded voice

 protected:
  TtsEngine(std::string engine, std::string voice, uint32_t rateHz, uint32_t volumePercent);
  // Backend hook: synthesize `text` (NUL-terminated copy), calling deliver() with each piece of audio, and stop
  // early when deliver() returns false.
  virtual Status doSynthesize(const std::string& text) = 0;
  // For the backend's callback: applies volume, splits into kMaxChunkFrames pieces, checks the cancel token.
  // Returns false when synthesis should stop.
  bool deliver(std::span<const int16_t> samples);

 private:
  std::string engine_, voice_;
  uint32_t rateHz_;
  int32_t gainQ8_;  // volume as a Q8 fixed-point factor (256 = unity)
  std::vector<int16_t> scratch_;
  std::string text_;  // NUL-terminated copy for the C libraries; capacity kept between calls
  TtsAudioSink* out_ = nullptr;
  const pipeline::CancelToken* cancel_ = nullptr;
  bool stopped_ = false;
};

// Opens the engine and voice the options name. An unknown engine or voice is an error listing what is available;
// an engine this build cannot run (espeak-ng without its data) is an error naming the missing piece.
// Any thread; blocks while the voice loads.
Result<std::unique_ptr<TtsEngine>> createTts(const TtsOptions& options);

// Engines compiled into this build, and the voices one of them offers (empty for an unknown engine).
std::vector<std::string> ttsEngines();
std::vector<std::string> ttsVoices(std::string_view engine);

}  // namespace sotto::speech
