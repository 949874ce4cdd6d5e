// SPDX-License-Identifier: MIT
// The answer stage: the brain thread (transcript -> Brain: route execution) and the TTS thread (answer text ->
// chunker -> TTS -> playback ring), with the first-audio metrics. sottod wires it to the microphone; `sotto ask`
// gives it one typed request (TypedAnswerObserver) and prints what the brain thread says.
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "engine/answer/brain.h"
#include "engine/pipeline/cancel_token.h"
#include "engine/pipeline/health.h"
#include "engine/pipeline/histogram.h"
#include "engine/pipeline/mailbox.h"
#include "engine/privacy/pii.h"
#include "engine/speech/audio_stage.h"
#include "engine/speech/speech_stage.h"
#include "engine/speech/tts.h"
#include "engine/speech/tts_stage.h"
#include "sotto/hal/rt.h"

namespace sotto::answer {

struct AnswerStart;

// Who typed a request and waits for its answer (`sotto ask`): sees, on the brain thread, what the brain says for
// the requests given to AnswerStage::submit (never for the microphone's). It must not block for long: the brain
// thread waits for it.
class TypedAnswerObserver : public AskSink {
 public:
  // The brain was built (maybe degraded: its warnings() say what is missing), before any request's events.
  virtual void onBrainReady(const Brain& brain) { (void)brain; }
  // A typed request is over: what was answered, or why nothing could be (the brain is unavailable, an error).
  virtual void onDone(const Result<AskResult>& result) = 0;

 protected:
  TypedAnswerObserver() = default;
  ~TypedAnswerObserver() = default;
};

// What the stage is built from (app/common/answer_config.h translates the config).
struct AnswerStageOptions {
  BrainOptions brain;      // built on the brain thread at start()
  speech::TtsOptions tts;  // the voice, loaded on the TTS thread at start()
  // speech.speculate: the brain thread works on the speech stage's stable partials while the user may still be
  // speaking (Brain::speculate: the local model's KV prefilled with the partial's prompt). Takes effect with a
  // speech stage whose Listener reports stable partials (ListenerConfig::stablePartials).
  bool speculate = false;
  // tts.streaming: each phrase is spoken as soon as its text is complete; false: the TTS thread keeps the answer's
  // text until its end and only then synthesizes it (whole-answer TTS, for comparisons).
  bool streamingTts = true;
  // tts.first-phrase-wait-ms: an answer's first phrase still incomplete this long after its first text is spoken
  // from the whole words there (speech::TtsStage::limitFirstPhraseWait); 0 = wait for a clause or four words.
  uint32_t firstPhraseWaitMs = 0;
  // Borrowed, may be null (sottod): told of the brain and of each typed request's answer.
  TypedAnswerObserver* typedObserver = nullptr;
};

struct AnswerCounters {
  uint64_t requests = 0;      // transcripts taken from the speech stage
  uint64_t answered = 0;      // requests the brain answered (any route, cancelled ones included)
  uint64_t failed = 0;        // requests the brain returned an error for
  uint64_t announcements = 0; // timers/alarms said without a request
  uint64_t superseded = 0;    // answers cancelled because a new request came before they were spoken
  uint64_t spoken = 0;        // answers the TTS thread finished (or stopped on a cancel)
  uint64_t cancelled = 0;     // of those, stopped by the cancel token (barge-in, superseded, shutdown)
  uint64_t textDropped = 0;   // answer text that could not reach the TTS thread (shutdown)
  uint64_t cancelledById = 0; // answers stopped by cancelAnswer(id)
  // Speculation on stable partials (AnswerStageOptions::speculate).
  uint64_t speculations = 0;         // partials worked on (a command among them prepares nothing)
  uint64_t speculationsCancelled = 0; // of those, superseded by a newer partial or overtaken by the final
  uint64_t speculatedTokens = 0;     // prompt tokens the local model evaluated while the user spoke
  uint64_t promptTokens = 0;         // prompt tokens of the local model's answers (requests and typed)
  uint64_t promptReused = 0;         // of those, taken from the KV cache (system prompt, speculation, last turn)
  uint64_t previews = 0;             // questions answered from a partial, sent to the TTS thread to prepare
  uint64_t preparedFirstPhrases = 0; // answers whose first phrase was spoken from such a preparation
  bool brainReady = false;    // the Brain was built (maybe degraded); false: no answers at all
  bool speaking = false;      // a TTS engine and a speaker exist
};

// Latencies in microseconds. "Endpoint to audio" is in audio time: from the endpoint of the request (the
// recognizer's clock) to the capture position when the first answer sample entered the playback ring, plus what
// was queued ahead of it; "end of speech to audio" adds the endpointer's trailing-silence delay.
struct AnswerMetrics {
  pipeline::Histogram endpointToAudioUs;
  pipeline::Histogram speechEndToAudioUs;
  pipeline::Histogram transcriptToAudioUs;  // wall clock: the brain took the transcript -> first sample queued
  pipeline::Histogram transcriptToTextUs;   // wall clock: the brain took the transcript -> first answer text
};

// Threads: create(), start(), stop(), counters(), logMetrics(), stallTts() on the control thread; the two
// threads it starts are its own. Neither thread is real time: the brain blocks in Brain::ask (model, cloud), the
// TTS thread in synthesis and while the playback ring is full. The audio thread is never waited for.
class AnswerStage {
 public:
  // speech (may be null: nothing to answer but announcements), audio (may be null or without a speaker: answers
  // are computed and logged, not spoken), cancel: the pipeline's answer token (barge-in cancels it; this class
  // resets it before each answer). ttsBeat: the TTS thread's watchdog heartbeat (may be null). All borrowed.
  // Reserves the text mailbox; the Brain and the TTS engine are built on their threads at start (model loading
  // does not delay READY), and what fails there degrades with one log line each.
  static Result<std::unique_ptr<AnswerStage>> create(const AnswerStageOptions& options, speech::SpeechStage* speech,
                                                    speech::AudioStage* audio, pipeline::CancelToken& cancel,
                                                    pipeline::Heartbeat* ttsBeat);
  ~AnswerStage();

  Status start(const std::atomic<bool>& stop);
  // Cancels the answer in progress and joins both threads. The caller has set the stop flag. Idempotent.
  void stop();

  AnswerCounters counters() const noexcept;
  // Any thread: a typed request (not from the microphone: no audio-time figures), answered by the brain thread
  // like a transcript, after those already waiting. False when it is empty, when 8 are waiting already or when it
  // is longer than kMaxTypedBytes. The brain thread wakes at once. Takes a mutex (never a real-time thread's call).
  static constexpr std::size_t kMaxTypedBytes = 16384;
  bool submit(std::string_view text);
  // Any thread: the id of the answer being computed or spoken (the id in its answer[...] and tts[...] log lines),
  // 0 when none.
  uint64_t currentAnswer() const;
  // Any thread: stops answer `id` (model, cloud stream, TTS and playback, as a barge-in does) if it is still being
  // computed or spoken; false when it is over or was never started. An id never cancels a later answer.
  bool cancelAnswer(uint64_t id);
  // What a person must fix that the brain found when it was built (an unusable device key, with how to fix it),
  // for the STATUS line; empty while the brain is loading or when all is well. Control thread (takes a mutex).
  std::vector<std::string> statusNotes() const;
  // What the STATUS line also says about the brain without calling it degraded (the semantic cache tier turned
  // off by calibration: answers stay right, paraphrases go to the model). Control thread (takes a mutex).
  std::vector<std::string> statusInfo() const;
  const AnswerMetrics& metrics() const noexcept { return *metrics_; }
  void logMetrics() const;
  // Fault injection (tests): the TTS thread stops beating until shutdown.
  void stallTts() noexcept {
    stallTts_.store(true, std::memory_order_relaxed);
    ttsWake_.notify();  // a TTS thread asleep between answers must run once to show the hang
  }

 private:
  AnswerStage() = default;
  void brainMain();
  void ttsMain();
  class TtsFeed;
  class QueueOutput;

  // Brain thread: cancel what is still being spoken, wait until the TTS thread let go of it and the audio thread
  // dropped it, then reset the token. False on shutdown.
  bool prepareAnswer(uint64_t id, bool spoken);
  // Brain thread: one answer (request text or announcement) through the brain (or said as is) to the TTS thread.
  // brain null: unavailable; request null: an announcement, said as it is.
  // timed: a request from the microphone (audio-time figures).
  void answer(Brain* brain, const speech::TranscriptMessage* request, std::string_view text, bool timed = true);
  bool answerOverLocked() const;  // activeMutex_ held
  // Brain thread, between requests: speculative work on a stable partial (nothing takes effect).
  void speculate(Brain& brain, const speech::TranscriptMessage& partial);
  bool post(const pipeline::Message& m);  // brain thread; waits while the mailbox is full; false on shutdown

  AnswerStageOptions options_;
  speech::SpeechStage* speech_ = nullptr;
  speech::AudioStage* audio_ = nullptr;
  pipeline::CancelToken* cancel_ = nullptr;
  pipeline::Heartbeat* ttsBeat_ = nullptr;
  const std::atomic<bool>* stop_ = nullptr;
  pipeline::SpscMailbox<pipeline::Message> toTts_;
  // Hand-offs: the brain thread sleeps on brainWake_ (transcripts from the speech thread, the TTS thread finishing
  // an answer or freeing a mailbox slot, stop()), the TTS thread on ttsWake_ (the brain's posts, stop()).
  pipeline::Wakeup brainWake_, ttsWake_;
  // submit() -> brain thread: typed text has no length a transcript has, so it waits under a mutex (neither side
  // is real time).
  std::mutex typedMutex_;
  std::deque<std::string> typed_;  // guarded by typedMutex_
  Error brainError_;               // brain thread: why Brain::create failed, for typed requests' callers
  // The answer in progress, for cancelAnswer(): set with the token's reset under the mutex, so an id checked under
  // it can never cancel the next answer.
  mutable std::mutex activeMutex_;
  uint64_t activeId_ = 0;       // guarded by activeMutex_
  bool activeSpoken_ = false;   // guarded: it goes to the TTS thread (over when ttsDone_ reaches it)
  std::atomic<uint64_t> brainDone_{0};  // brain thread: id of the last answer it finished computing
  uint64_t answerSeq_ = 0;      // brain thread: ids, one per answer (spoken or not)
  std::atomic<uint64_t> cancelledById_{0};
  // Speculation: the speech stage cancels it when a newer stable partial or the final comes; the brain thread
  // resets it before each speculation (the first two checks in speculate() close the race).
  pipeline::CancelToken speculation_;
  std::atomic<uint64_t> speculations_{0}, speculationsCancelled_{0}, speculatedTokens_{0}, promptTokens_{0},
      promptReused_{0}, previews_{0}, preparedFirstPhrases_{0};
  std::unique_ptr<AnswerMetrics> metrics_;
  std::unique_ptr<AnswerStart> start_;  // handed from the brain thread to the TTS thread with each `begin`
  hal::RtThread brainThread_, ttsThread_;
  bool started_ = false;
  std::atomic<bool> stallTts_{false};
  std::atomic<int> ttsState_{0};      // 0 starting, 1 running, -1 unavailable
  uint64_t lastPosted_ = 0;           // brain thread: id of the last answer sent to the TTS thread
  uint64_t lastFinal_ = 0;            // brain thread: sequence of the last transcript taken from the speech stage
  bool askedAgain_ = false;           // brain thread: the last answer asked the user to say it again
  std::atomic<uint64_t> ttsDone_{0};  // TTS thread: id of the last answer it finished with
  std::atomic<uint64_t> requests_{0}, answered_{0}, failed_{0}, announcements_{0}, superseded_{0}, spoken_{0},
      cancelledAnswers_{0}, textDropped_{0};
  std::atomic<bool> brainReady_{false};
  mutable std::mutex notesMutex_;
  std::vector<std::string> statusNotes_;  // guarded by notesMutex_; written once by the brain thread
  std::vector<std::string> statusInfo_;   // likewise
  // Brain thread, debug level only: masks personal data in the answer's debug line (as the speech stage does for
  // the transcript's); null at other levels, where the answer's words stay out of the log.
  std::unique_ptr<privacy::PiiClassifier> answerMask_;
};

}  // namespace sotto::answer
