// SPDX-License-Identifier: MIT
// The running pipeline of sottod: devices opened per config, stage threads, rings, and their health.
#pragma once

#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "app/common/recognition_setup.h"
#include "app/config/config.h"
#include "engine/answer/answer_stage.h"
#include "engine/pipeline/cancel_token.h"
#include "engine/pipeline/health.h"
#include "engine/speech/audio_stage.h"
#include "engine/speech/input_meter.h"
#include "engine/speech/speech_stage.h"
#include "sotto/hal/rt.h"

namespace sotto::app {

// Control thread only (create, start, stop, status, inject). Stage threads are owned here.
class Pipeline {
 public:
  // Opens the configured devices and reserves every ring and buffer. A device that cannot be opened is not
  // fatal: it is recorded in degradations() and the pipeline runs without it. Errors: invalid configuration
  // values only.
  static Result<std::unique_ptr<Pipeline>> create(const config::Config& cfg);
  ~Pipeline();

  // Starts devices and stage threads. A device that fails to start is recorded as a degradation.
  Status start();
  // Stops stage threads (each ends within one period), joins them, stops devices. Idempotent.
  void stop();

  // Watchdog health of all stages (no allocation).
  pipeline::HealthStatus checkHealth(uint64_t nowNs, uint64_t stallLimitNs) { return health_.check(nowNs, stallLimitNs); }
  // One line for systemd's STATUS= and the log.
  std::string statusLine() const;
  const std::vector<std::string>& degradations() const { return degradations_; }
  // Names of the stages that run threads under the watchdog ("audio", "speech", "tts").
  std::vector<std::string> stageNames() const;
  // Fault injection (tests): the named stage stops beating until shutdown. False for an unknown stage.
  bool injectStall(std::string_view stage);

  const speech::AudioStage* audio() const { return audio_.get(); }
  const speech::InputMeter* meter() const { return speech_ ? &speech_->meter() : nullptr; }
  // The speech thread's stage (wake word, ASR, barge-in); null without a microphone.
  speech::SpeechStage* speech() { return speech_.get(); }
  const speech::SpeechStage* speech() const { return speech_.get(); }
  // The token every answer stage honours (LLM, cloud, TTS, playback); barge-in cancels it, the brain resets it
  // before each answer. Any thread.
  pipeline::CancelToken& answerCancel() { return answerCancel_; }
  // Control thread: logs the speech metrics (event counts, lag and endpoint histograms) as one line.
  void logSpeechMetrics() const;
  // The brain and TTS threads (answers to transcripts, announcements); null when no audio device opened.
  const answer::AnswerStage* answers() const { return answers_.get(); }
  answer::AnswerStage* answers() { return answers_.get(); }
  // Control thread: logs the answer metrics (counts, endpoint to first audio) as one line.
  void logAnswerMetrics() const;

 private:
  Pipeline() = default;
  config::Config cfg_;
  pipeline::HealthMonitor health_;
  pipeline::CancelToken answerCancel_;  // before the stages that borrow it
  std::unique_ptr<speech::AudioStage> audio_;
  // What the recognizer borrows (catalogue, understander): declared before speech_ so it outlives the listener.
  std::unique_ptr<RecognitionSetup> recognition_ = std::make_unique<RecognitionSetup>();
  std::unique_ptr<speech::SpeechStage> speech_;
  std::unique_ptr<answer::AnswerStage> answers_;  // after the stages it borrows
  pipeline::Heartbeat* audioBeat_ = nullptr;
  pipeline::Heartbeat* speechBeat_ = nullptr;
  std::atomic<bool> stop_{false};
  hal::RtThread audioThread_;
  hal::RtThread speechThread_;
  std::vector<std::string> degradations_;
  bool started_ = false;
};

// Smallest power of two >= n (ring capacities).
size_t roundUpPow2(size_t n);

}  // namespace sotto::app
