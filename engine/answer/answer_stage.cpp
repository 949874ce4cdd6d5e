// SPDX-License-Identifier: MIT
// Answer path: transcripts -> Brain::ask -> text mailbox -> TtsStage -> playback ring; cancel token handover.
#include "engine/answer/answer_stage.h"

#include <time.h>

#include <algorithm>
#include <cstring>
#include <chrono>

#include "engine/answer/brain.h"
#include "engine/privacy/log_mask.h"
#include "sotto/hal/log.h"

namespace sotto::answer {
namespace {

// Brain -> TTS thread messages (pipeline::Message::type). value = answer id.
// prepare: a piece of an answer computed from a partial transcript, whose first phrase the TTS thread synthesizes
// between answers (TtsStage::prepare) at prepareEnd.
enum class TtsMsg : uint32_t { begin = 1, text = 2, end = 3, prepare = 4, prepareEnd = 5 };
constexpr size_t kMaxPrepareBytes = 512;  // a first phrase is far shorter: the rest is not needed

constexpr size_t kTextSlots = 256;            // 256 x 47 bytes of answer text in flight
constexpr size_t kTypedSlots = 8;             // typed requests waiting for the brain thread
constexpr uint64_t kDrainWaitNs = 100'000'000;  // a cancelled answer leaves the playback ring within this

uint64_t nowNs() { return pipeline::monotonicNowNs(); }
double ms(uint64_t us) { return static_cast<double>(us) / 1000.0; }
unsigned long long ull(uint64_t v) { return static_cast<unsigned long long>(v); }

}  // namespace

// Set by the brain thread before it posts an answer's `begin`; read by the TTS thread after it took that message
// (the mailbox's release/acquire orders them). The brain writes it again only after the TTS thread reported the
// previous answer done.
struct AnswerStart {
  uint64_t id = 0;
  uint64_t request = 0;        // the transcript's sequence number (0: an announcement); logs join on it
  bool timed = false;          // a request from the microphone (else an announcement: no latency figures)
  uint64_t endpointMs = 0;     // audio time of the request's endpoint
  uint32_t endpointDelayMs = 0;
  uint64_t takenNs = 0;        // monotonic time the brain took the transcript
};

// The TTS thread's output: the audio thread's playback ring, with the thread's heartbeat on every chunk and the
// first-audio latency of each answer.
class AnswerStage::QueueOutput final : public speech::PcmOutput {
 public:
  QueueOutput(AnswerStage& path, pipeline::SpscRing<int16_t>& ring, uint32_t rateHz)
      : path_(path), ring_(ring), out_(ring, rateHz, 100, &path.audio_->playbackWakeup()) {}
  void arm(const AnswerStart& start) {
    start_ = start;
    first_ = true;
  }
  bool write(std::span<const int16_t> frames, const pipeline::CancelToken& cancel) override {
    if (path_.ttsBeat_ != nullptr && !path_.stallTts_.load(std::memory_order_relaxed)) path_.ttsBeat_->beat();
    if (first_ && start_.timed && !frames.empty()) {
      first_ = false;
      // Audio time now (capture position) plus what is still queued ahead of this sample for the speaker.
      const uint64_t capturedMs = path_.audio_->counters().capturedFrames * 1000 / captureRate();
      const uint64_t queuedUs = static_cast<uint64_t>(ring_.size()) * 1000000u / out_.rateHz();
      const uint64_t endpointUs = capturedMs > start_.endpointMs ? (capturedMs - start_.endpointMs) * 1000 : 0;
      path_.metrics_->endpointToAudioUs.record(endpointUs + queuedUs);
      path_.metrics_->speechEndToAudioUs.record(endpointUs + queuedUs + uint64_t{start_.endpointDelayMs} * 1000);
      path_.metrics_->transcriptToAudioUs.record((nowNs() - start_.takenNs) / 1000);
      SOTTO_LOG_INFO("answer", "first-audio",
                     "answer %llu (request %llu): first audio %.0f ms after the endpoint (%.0f ms after the end of "
                     "speech), %.1f ms after the transcript",
                     ull(start_.id), ull(start_.request), ms(endpointUs + queuedUs),
                     ms(endpointUs + queuedUs + uint64_t{start_.endpointDelayMs} * 1000),
                     ms((nowNs() - start_.takenNs) / 1000));
    }
    return out_.write(frames, cancel);
  }
  uint32_t rateHz() const override { return out_.rateHz(); }

 private:
  uint64_t captureRate() const {
    const auto* src = path_.audio_->source();
    return src != nullptr && src->format().rateHz != 0 ? src->format().rateHz : 16000;
  }
  AnswerStage& path_;
  pipeline::SpscRing<int16_t>& ring_;
  speech::RingOutput out_;
  AnswerStart start_;
  bool first_ = false;
};

// The brain's answer events, forwarded to the TTS thread as text messages.
class AnswerStage::TtsFeed final : public AskSink {
 public:
  // observer: a typed request's caller, told everything the brain says (may be null).
  TtsFeed(AnswerStage& path, uint64_t id, bool speak, AskSink* observer)
      : path_(path), id_(id), speak_(speak), observer_(observer) {}
  void onDecision(const router::RouteDecision& decision, std::string_view logLine) override {
    if (observer_ != nullptr) observer_->onDecision(decision, logLine);
  }
  void onFiller(std::string_view text) override {
    if (observer_ != nullptr) observer_->onFiller(text);
    send(text);
    send(" ");
  }
  void onText(std::string_view piece) override {
    if (piece.empty()) return;
    if (!firstTextNs) firstTextNs = nowNs();
    if (observer_ != nullptr) observer_->onText(piece);
    send(piece);
  }
  void onWarning(std::string_view message) override {
    if (observer_ != nullptr) observer_->onWarning(message);
    SOTTO_LOG_WARN("brain", "warning", "%.*s", static_cast<int>(message.size()), message.data());
  }
  uint64_t firstTextNs = 0;

 private:
  void send(std::string_view text) {
    if (!speak_) return;
    while (!text.empty()) {
      if (path_.cancel_->cancelled()) return;  // the TTS thread drops it anyway; spare the mailbox
      const size_t n = std::min(text.size(), pipeline::Message::kTextSize - 1);  // the chunker rejoins UTF-8
      if (!path_.post(pipeline::Message::make(static_cast<uint32_t>(TtsMsg::text), 0, id_, text.substr(0, n)))) {
        path_.textDropped_.fetch_add(1, std::memory_order_relaxed);
        return;
      }
      text.remove_prefix(n);
    }
  }
  AnswerStage& path_;
  uint64_t id_;
  bool speak_;
  AskSink* observer_;
};

Result<std::unique_ptr<AnswerStage>> AnswerStage::create(const AnswerStageOptions& options, speech::SpeechStage* speech,
                                                       speech::AudioStage* audio, pipeline::CancelToken& cancel,
                                                       pipeline::Heartbeat* ttsBeat) {
  std::unique_ptr<AnswerStage> p(new AnswerStage());
  p->options_ = options;
  p->speech_ = speech;
  p->audio_ = audio != nullptr && audio->hasPlayback() ? audio : nullptr;
  p->cancel_ = &cancel;
  p->ttsBeat_ = ttsBeat;
  if (speech != nullptr) speech->setTranscriptWakeup(&p->brainWake_);
  if (speech != nullptr && options.speculate) speech->setSpeculation(&p->speculation_);
  // A barge-in wakes the TTS thread waiting for room in the playback ring.
  if (p->audio_ != nullptr && !cancel.wakeOnCancel(&p->audio_->playbackWakeup()))
    return makeError(Errc::invalid_argument, "answer stage: the cancel token wakes too many stages");
  auto box = pipeline::SpscMailbox<pipeline::Message>::create(kTextSlots);
  if (!box) return std::move(box).error();
  p->toTts_ = std::move(box).value();
  p->metrics_ = std::make_unique<AnswerMetrics>();
  p->start_ = std::make_unique<AnswerStart>();
  return p;
}

AnswerStage::~AnswerStage() { stop(); }

Status AnswerStage::start(const std::atomic<bool>& stop) {
  if (started_) return {};
  stop_ = &stop;
  if (audio_ != nullptr) {
    auto t = hal::RtThread::start(hal::ThreadOptions{"sotto-tts", {}, 0}, [this] { ttsMain(); });
    if (!t) return std::move(t).error();
    ttsThread_ = std::move(t).value();
  } else {
    ttsState_.store(-1, std::memory_order_release);
    SOTTO_LOG_WARN("answer", "not-speaking", "no speaker: answers are computed and logged, not spoken");
  }
  auto t = hal::RtThread::start(hal::ThreadOptions{"sotto-brain", {}, 0}, [this] { brainMain(); });
  if (!t) {
    cancel_->cancel();
    ttsThread_.join();
    return std::move(t).error();
  }
  brainThread_ = std::move(t).value();
  started_ = true;
  return {};
}

void AnswerStage::stop() {
  if (!started_) return;
  cancel_->cancel();  // the model, the cloud stream and the TTS return within a token / chunk
  speculation_.cancel();
  brainWake_.notify();  // the caller has set the stop flag: both threads look at it again
  ttsWake_.notify();
  brainThread_.join();
  ttsThread_.join();
  started_ = false;
}

AnswerCounters AnswerStage::counters() const noexcept {
  AnswerCounters c;
  c.requests = requests_.load(std::memory_order_relaxed);
  c.answered = answered_.load(std::memory_order_acquire);
  c.failed = failed_.load(std::memory_order_relaxed);
  c.announcements = announcements_.load(std::memory_order_relaxed);
  c.superseded = superseded_.load(std::memory_order_relaxed);
  c.spoken = spoken_.load(std::memory_order_relaxed);
  c.cancelled = cancelledAnswers_.load(std::memory_order_relaxed);
  c.textDropped = textDropped_.load(std::memory_order_relaxed);
  c.cancelledById = cancelledById_.load(std::memory_order_relaxed);
  c.speculations = speculations_.load(std::memory_order_relaxed);
  c.speculationsCancelled = speculationsCancelled_.load(std::memory_order_relaxed);
  c.speculatedTokens = speculatedTokens_.load(std::memory_order_relaxed);
  c.previews = previews_.load(std::memory_order_relaxed);
  c.preparedFirstPhrases = preparedFirstPhrases_.load(std::memory_order_relaxed);
  c.promptTokens = promptTokens_.load(std::memory_order_relaxed);
  c.promptReused = promptReused_.load(std::memory_order_relaxed);
  c.brainReady = brainReady_.load(std::memory_order_relaxed);
  c.speaking = ttsState_.load(std::memory_order_relaxed) == 1;
  return c;
}

void AnswerStage::logMetrics() const {
  const AnswerCounters c = counters();
  const auto e = metrics_->endpointToAudioUs.snapshot().summary();
  const auto s = metrics_->speechEndToAudioUs.snapshot().summary();
  const auto t = metrics_->transcriptToTextUs.snapshot().summary();
  SOTTO_LOG_INFO("answer", "metrics",
                 "%llu requests, %llu answered, %llu failed, %llu announcements, %llu spoken, %llu cancelled, %llu "
                 "superseded; endpoint to first audio p50 %.0f p95 %.0f ms (n=%llu); end of speech to first audio "
                 "p50 %.0f p95 %.0f ms; transcript to first text p50 %.1f p95 %.1f ms",
                 ull(c.requests), ull(c.answered), ull(c.failed), ull(c.announcements), ull(c.spoken),
                 ull(c.cancelled), ull(c.superseded), ms(e.p50), ms(e.p95), ull(e.count), ms(s.p50), ms(s.p95),
                 ms(t.p50), ms(t.p95));
}

bool AnswerStage::post(const pipeline::Message& m) {
  for (;;) {
    const uint32_t ticket = brainWake_.prepare();
    if (toTts_.tryPost(m)) break;
    if (stop_->load(std::memory_order_acquire)) return false;
    brainWake_.wait(ticket);  // the TTS thread is speaking: it frees a slot per phrase and notifies
  }
  ttsWake_.notify();
  return true;
}

bool AnswerStage::prepareAnswer(uint64_t id, bool spoken) {
  if (ttsDone_.load(std::memory_order_acquire) < lastPosted_) {
    // Still speaking the previous answer: a new request supersedes it (a barge-in has already cancelled it).
    if (!cancel_->cancelled()) superseded_.fetch_add(1, std::memory_order_relaxed);
    cancel_->cancel();
    for (;;) {
      const uint32_t ticket = brainWake_.prepare();
      if (ttsDone_.load(std::memory_order_acquire) >= lastPosted_) break;
      if (stop_->load(std::memory_order_acquire)) return false;
      brainWake_.wait(ticket);  // the TTS thread notifies when it is done with an answer
    }
  }
  if (cancel_->cancelled() && audio_ != nullptr) {
    // The audio thread drops a cancelled answer's queued audio once a period; it must see the token set until
    // the ring is empty, or the old answer's tail would play after the reset.
    const uint64_t until = nowNs() + kDrainWaitNs;
    pipeline::Wakeup& popped = audio_->playbackWakeup();  // notified as the audio thread drops queued frames
    for (;;) {
      const uint32_t ticket = popped.prepare();
      const uint64_t now = nowNs();
      if (audio_->playbackRing().size() == 0 || now >= until) break;
      popped.wait(ticket, static_cast<int64_t>(until - now));
    }
  }
  {
    std::lock_guard lock(activeMutex_);
    cancel_->reset();
    activeId_ = id;
    activeSpoken_ = spoken;
  }
  return !stop_->load(std::memory_order_acquire);
}

void AnswerStage::answer(Brain* brain, const speech::TranscriptMessage* request, std::string_view text,
                         bool timed) {
  const uint64_t takenNs = nowNs();
  const bool speak = ttsState_.load(std::memory_order_acquire) >= 0;
  const uint64_t id = ++answerSeq_;
  if (!prepareAnswer(id, speak)) return;
  if (speak) {
    *start_ = AnswerStart{id, request != nullptr ? request->sequence : 0, request != nullptr && timed,
                          request != nullptr ? request->tMs : 0,
                          request != nullptr ? request->endpointDelayMs : 0, takenNs};
    if (!post(pipeline::Message::make(static_cast<uint32_t>(TtsMsg::begin), 0, id))) return;
    lastPosted_ = id;
  }
  // A typed request's caller hears everything said for it (the microphone's requests have none).
  TypedAnswerObserver* observer = request != nullptr && !timed ? options_.typedObserver : nullptr;
  TtsFeed feed(*this, id, speak, observer);
  bool answeredOk = false;
  if (request == nullptr) {
    announcements_.fetch_add(1, std::memory_order_relaxed);
    feed.onText(text);
    SOTTO_LOG_INFO("answer", "announcement", "answer %llu: announcement (%zu bytes)", ull(id), text.size());
  } else if (brain == nullptr) {
    failed_.fetch_add(1, std::memory_order_relaxed);
    SOTTO_LOG_WARN("answer", "no-brain", "request %llu not answered: the brain is unavailable", ull(request->sequence));
    if (observer != nullptr) {
      observer->onDone(makeError(brainError_.code, brainError_.message));
    }
  } else {
    HeardAs heard;
    heard.unfinishedTurn = request->unfinishedTurn != 0;
    auto r = brain->ask(text, feed, cancel_, heard);
    if (observer != nullptr) observer->onDone(r);
    if (!r) {
      failed_.fetch_add(1, std::memory_order_relaxed);
      SOTTO_LOG_ERROR("answer", "failed", "request %llu: %s", ull(request->sequence), r.error().message.c_str());
    } else {
      answeredOk = true;
      // Asked the user to say it again: listen once more without the wake word, after the question is said. Once:
      // an answer to that which is unsure again is not followed by another round (nothing is executed either way).
      if (r->clarify && !askedAgain_ && speech_ != nullptr) speech_->listenAgain();
      askedAgain_ = r->clarify && !askedAgain_;
      const PromptReuse reuse = brain->lastPromptReuse();
      if (reuse.promptTokens > 0) {
        promptTokens_.fetch_add(reuse.promptTokens, std::memory_order_relaxed);
        promptReused_.fetch_add(reuse.reusedTokens, std::memory_order_relaxed);
        SOTTO_LOG_INFO("answer", "prompt", "request %llu: local prompt of %zu tokens, %zu reused from the KV cache, "
                       "%zu evaluated", ull(request->sequence), reuse.promptTokens, reuse.reusedTokens,
                       reuse.promptTokens - reuse.reusedTokens);
      }
      const double textMs = feed.firstTextNs != 0 ? static_cast<double>(feed.firstTextNs - takenNs) / 1e6 : -1.0;
      if (feed.firstTextNs != 0) metrics_->transcriptToTextUs.record((feed.firstTextNs - takenNs) / 1000);
      // The answer's words stay out of the log (they may repeat personal data): route, size and timing only.
      SOTTO_LOG_INFO("answer", "answered",
                     "request %llu: route=%s reason=%s, %zu bytes of answer, first text %.1f ms after the "
                     "transcript%s%s%s%s",
                     ull(request->sequence), router::routeName(r->route), router::reasonName(r->reason),
                     r->answer.size(), textMs, r->filler ? ", filler spoken" : "", r->fellBack ? ", fell back" : "",
                     r->complete ? "" : ", cut short", cancel_->cancelled() ? ", cancelled" : "");
      if (answerMask_) {
        std::string shown = privacy::maskedForLog(*answerMask_, r->answer);
        for (char& c : shown) c = (static_cast<unsigned char>(c) < 0x20) ? ' ' : c;  // one log line per answer
        SOTTO_LOG_DEBUG("answer", "text", "request %llu: \"%s\"", ull(request->sequence), shown.c_str());
      }
    }
  }
  if (speak && !post(pipeline::Message::make(static_cast<uint32_t>(TtsMsg::end), 0, id))) {
    textDropped_.fetch_add(1, std::memory_order_relaxed);
  }
  brainDone_.store(id, std::memory_order_release);
  // Counted once the brain's part is over, so a caller that sees the count also sees currentAnswer() move on
  // (counted before, a test polling the count read the finished answer as still in progress).
  if (answeredOk) answered_.fetch_add(1, std::memory_order_release);
}

void AnswerStage::speculate(Brain& brain, const speech::TranscriptMessage& partial) {
  speculation_.reset();
  // Pairs with the speech stage's barrier between publishing (a partial, a final) and cancelling: either its cancel
  // comes after this reset and stops the work, or what it published is seen here and wins.
  speculation_.order();
  if (speech_->transcripts().size() != 0 || speech_->stablePartials().pending()) return;
  if (stop_->load(std::memory_order_acquire)) return;  // stop() cancels after setting it
  const uint64_t t0 = nowNs();
  auto r = brain.speculate(partial.textView(), &speculation_, options_.brain.prefixCache);
  const double took = static_cast<double>(nowNs() - t0) / 1e6;
  speculations_.fetch_add(1, std::memory_order_relaxed);
  if (!r) {
    SOTTO_LOG_WARN("answer", "speculation", "request %llu: speculation on a partial failed: %s",
                   ull(partial.sequence), r.error().message.c_str());
    return;
  }
  if (r->cancelled) speculationsCancelled_.fetch_add(1, std::memory_order_relaxed);
  speculatedTokens_.fetch_add(r->evaluatedTokens, std::memory_order_relaxed);
  // A question's answer: its first phrase is synthesized now, on the TTS thread, which is idle between answers.
  bool prepared = false;
  if (!r->preview.empty() && audio_ != nullptr && ttsState_.load(std::memory_order_acquire) == 1) {
    std::string_view text = std::string_view(r->preview).substr(0, kMaxPrepareBytes);
    prepared = true;
    while (prepared && !text.empty()) {
      const size_t n = std::min(text.size(), pipeline::Message::kTextSize - 1);
      prepared = post(pipeline::Message::make(static_cast<uint32_t>(TtsMsg::prepare), 0, partial.sequence,
                                              text.substr(0, n)));
      text.remove_prefix(n);
    }
    prepared = prepared && post(pipeline::Message::make(static_cast<uint32_t>(TtsMsg::prepareEnd), 0, partial.sequence));
    if (prepared) previews_.fetch_add(1, std::memory_order_relaxed);
  }
  SOTTO_LOG_INFO("answer", "speculation",
                 "request %llu: partial at %llu ms of audio: %s, %zu prompt tokens (%zu kept, %zu evaluated) in %.1f "
                 "ms%s", ull(partial.sequence), ull(partial.tMs),
                 prepared   ? "a question, its answer's first phrase sent to be synthesized"
                 : r->intent ? "a command (nothing prepared)"
                 : r->prefilled ? "local model prefilled"
                                : "nothing to do",
                 r->promptTokens, r->keptTokens, r->evaluatedTokens, took, r->cancelled ? ", cancelled" : "");
}

bool AnswerStage::submit(std::string_view text) {
  if (text.empty() || text.size() > kMaxTypedBytes) return false;
  {
    std::lock_guard lock(typedMutex_);
    if (typed_.size() >= kTypedSlots) return false;
    typed_.emplace_back(text);
  }
  brainWake_.notify();
  return true;
}

bool AnswerStage::answerOverLocked() const {
  if (activeId_ == 0 || brainDone_.load(std::memory_order_acquire) < activeId_) return activeId_ == 0;
  return !activeSpoken_ || ttsDone_.load(std::memory_order_acquire) >= activeId_;
}

uint64_t AnswerStage::currentAnswer() const {
  std::lock_guard lock(activeMutex_);
  return answerOverLocked() ? 0 : activeId_;
}

bool AnswerStage::cancelAnswer(uint64_t id) {
  std::lock_guard lock(activeMutex_);
  if (id == 0 || id != activeId_ || answerOverLocked()) return false;
  cancel_->cancel();  // wakes whatever waits for this answer (cloud stream, playback room)
  cancelledById_.fetch_add(1, std::memory_order_relaxed);
  return true;
}

std::vector<std::string> AnswerStage::statusNotes() const {
  std::lock_guard lock(notesMutex_);
  return statusNotes_;
}

std::vector<std::string> AnswerStage::statusInfo() const {
  std::lock_guard lock(notesMutex_);
  return statusInfo_;
}

void AnswerStage::brainMain() {
  if (log::level() >= log::Level::debug) {
    if (auto pii = privacy::PiiClassifier::create()) answerMask_ = std::move(*pii);
  }
  std::unique_ptr<Brain> brain;
  if (auto b = Brain::create(options_.brain)) {
    brain = std::move(b).value();
    brainReady_.store(true, std::memory_order_relaxed);
    for (const std::string& w : brain->warnings()) SOTTO_LOG_WARN("brain", "degraded", "%s", w.c_str());
    if (!brain->deviceKeyProblem().empty()) {
      std::lock_guard lock(notesMutex_);
      statusNotes_.push_back(brain->deviceKeyProblem());
    }
    if (!brain->systemPromptReport().empty()) {
      SOTTO_LOG_INFO("brain", "system-prompt", "%s", brain->systemPromptReport().c_str());
    }
    if (!brain->modelLockProblem().empty()) {
      std::lock_guard lock(notesMutex_);
      statusInfo_.push_back(brain->modelLockProblem());
    }
    if (brain->semanticCacheOff()) {
      SOTTO_LOG_WARN("brain", "semantic-cache", "%s", brain->semanticCacheReport().c_str());
      std::lock_guard lock(notesMutex_);
      statusInfo_.push_back(brain->semanticCacheReport());
    } else if (!brain->semanticCacheReport().empty()) {
      SOTTO_LOG_INFO("brain", "semantic-cache", "%s", brain->semanticCacheReport().c_str());
    }
    SOTTO_LOG_INFO("brain", "ready", "answering requests%s",
                   brain->warnings().empty() ? "" : " with what loaded (see the warnings above)");
    if (options_.typedObserver != nullptr) options_.typedObserver->onBrainReady(*brain);
  } else {
    brainError_ = b.error();
    SOTTO_LOG_ERROR("brain", "unavailable", "cannot answer requests: %s", b.error().message.c_str());
  }
  for (;;) {
    // The ticket comes before every check: a transcript (the speech thread), the TTS thread finishing an answer or
    // the stop request after it wakes the wait below.
    const uint32_t ticket = brainWake_.prepare();
    if (stop_->load(std::memory_order_acquire)) break;
    speech::TranscriptMessage t;
    if (speech_ != nullptr && speech_->transcripts().tryReceive(t)) {
      requests_.fetch_add(1, std::memory_order_relaxed);
      lastFinal_ = t.sequence;
      answer(brain.get(), &t, t.textView());
      continue;
    }
    std::string typed;
    {
      std::lock_guard lock(typedMutex_);
      if (!typed_.empty()) {
        typed = std::move(typed_.front());
        typed_.pop_front();
      }
    }
    if (!typed.empty()) {
      requests_.fetch_add(1, std::memory_order_relaxed);
      speech::TranscriptMessage request;  // typed: never misheard, no audio time
      request.words = 1;
      request.confidence = 1.0f;
      answer(brain.get(), &request, typed, false);
      continue;
    }
    // Nothing to answer: prepare the next answer from what the user has said so far. (Without the prefix cache a
    // request keeps nothing a speculation prefilled, so then only a question's answer is prepared.)
    if (brain && options_.speculate && speech_ != nullptr &&
        speech_->stablePartials().take(t)) {
      // A partial of a turn already answered (published just before its final) would only take the CPU from the
      // answer being spoken.
      if (t.sequence > lastFinal_) speculate(*brain, t);
      continue;
    }
    // Timers and alarms wait until the current answer has been said; then they are said like an answer.
    int64_t waitNs = -1;  // no timer set: sleep until a hand-off
    if (brain) {
      const bool idle = ttsDone_.load(std::memory_order_acquire) >= lastPosted_;
      const std::optional<int64_t> dueMs = brain->msUntilDue();
      if (dueMs && *dueMs <= 0 && idle) {
        for (const std::string& a : brain->dueAnnouncements()) answer(brain.get(), nullptr, a);
        continue;
      }
      // Due but still speaking: the TTS thread's notify ends the wait. Otherwise until the deadline, looked at
      // again at least every second because the handlers' deadlines are wall-clock times (the clock may be set).
      if (dueMs && *dueMs > 0) waitNs = std::min<int64_t>(*dueMs, 1000) * 1'000'000;
    }
    brainWake_.wait(ticket, waitNs);
  }
}

namespace {
// The log's note on an answer whose first phrase did not wait for a clause or four words.
const char* cutEarly(const speech::TtsStage& stage) {
  if (stage.stats().firstPhrasePrepared) return " (the first phrase synthesized while the user paused)";
  return stage.stats().firstPhraseCutEarly ? " (the first phrase cut at its whole words after tts.first-phrase-wait-ms)"
                                           : "";
}
}  // namespace

void AnswerStage::ttsMain() {
  QueueOutput out(*this, audio_->playbackRing(), audio_->sink()->format().rateHz);
  std::unique_ptr<speech::TtsStage> stage;
  const speech::TtsOptions& opts = options_.tts;
  auto engine = speech::createTts(opts);
  if (engine) {
    auto s = speech::TtsStage::create(std::move(engine).value(), out);
    if (s) {
      stage = std::move(s).value();
      // The listener waits for the first sound, not the voice's opening pause (flite: about 200 ms).
      constexpr uint32_t kPrerollMs = 20;
      stage->trimLeadingSilence(kPrerollMs);
      stage->limitFirstPhraseWait(options_.firstPhraseWaitMs);
    } else {
      SOTTO_LOG_ERROR("tts", "unavailable", "answers will not be spoken: %s", s.error().message.c_str());
    }
  } else {
    SOTTO_LOG_ERROR("tts", "unavailable", "answers will not be spoken: %s", engine.error().message.c_str());
  }
  ttsState_.store(stage ? 1 : -1, std::memory_order_release);
  uint64_t current = 0;
  bool failedOnce = false;
  std::string whole;  // !streamingTts: the answer's text until its end (the TTS thread is not real time)
  std::string prepare;  // TtsMsg::prepare's pieces until prepareEnd
  prepare.reserve(kMaxPrepareBytes);
  if (!options_.streamingTts) {
    whole.reserve(4096);
    SOTTO_LOG_INFO("tts", "whole-answer", "tts.streaming is off: each answer is synthesized once all its text is known");
  }
  bool stallShown = false;
  auto beat = [this, &stallShown](bool idle) {
    if (ttsBeat_ == nullptr) return;
    if (stallTts_.load(std::memory_order_relaxed)) {
      // Injected hang: look busy once, then never beat again (an idle stage would not count as stalled).
      if (!stallShown) ttsBeat_->beat();
      stallShown = true;
      return;
    }
    idle ? ttsBeat_->markIdle() : ttsBeat_->beat();
  };
  for (;;) {
    const uint32_t ticket = ttsWake_.prepare();
    if (stop_->load(std::memory_order_acquire)) break;
    pipeline::Message m;
    if (!toTts_.tryReceive(m)) {
      // Waiting for the brain has no time bound (between answers, or a slow model or cloud inside one): idle.
      beat(true);
      ttsWake_.wait(ticket);  // the brain notifies after every post, stop() after setting the flag
      continue;
    }
    brainWake_.notify();  // a slot is free for a brain waiting to post
    beat(false);
    Status st;
    switch (static_cast<TtsMsg>(m.type)) {
      case TtsMsg::begin:
        current = m.value;
        failedOnce = false;
        whole.clear();
        out.arm(*start_);
        if (stage) stage->begin(*cancel_);
        break;
      case TtsMsg::text:
        if (stage && m.value == current && !failedOnce) {
          if (options_.streamingTts) {
            st = stage->feed(m.textView());
          } else {
            whole.append(m.textView());
          }
        }
        break;
      case TtsMsg::end:
        if (stage && m.value == current && !failedOnce && !whole.empty()) st = stage->feed(whole);
        whole.clear();
        if (stage && m.value == current && !failedOnce && st) st = stage->finish();
        if (stage && (stage->stats().cancelled || cancel_->cancelled())) {
          cancelledAnswers_.fetch_add(1, std::memory_order_relaxed);
          SOTTO_LOG_INFO("tts", "cancelled", "answer %llu stopped after %.2f s of audio%s", ull(m.value),
                         static_cast<double>(stage->stats().framesOut) / out.rateHz(), cutEarly(*stage));
        } else if (stage) {
          SOTTO_LOG_INFO("tts", "spoken", "answer %llu: %llu phrases, %.2f s of audio%s", ull(m.value),
                         ull(stage->stats().phrases), static_cast<double>(stage->stats().framesOut) / out.rateHz(),
                         cutEarly(*stage));
        }
        if (stage && stage->stats().firstPhrasePrepared) preparedFirstPhrases_.fetch_add(1, std::memory_order_relaxed);
        spoken_.fetch_add(1, std::memory_order_relaxed);
        ttsDone_.store(m.value, std::memory_order_release);
        brainWake_.notify();
        current = 0;
        break;
      case TtsMsg::prepare:
        if (prepare.size() < kMaxPrepareBytes) prepare.append(m.textView());
        break;
      case TtsMsg::prepareEnd:
        // Between answers only: an answer being spoken owns the engine (and a final has overtaken the partial).
        if (stage && current == 0 && !prepare.empty()) {
          const uint64_t t0 = nowNs();
          const bool kept = stage->prepare(prepare);
          SOTTO_LOG_DEBUG("tts", "prepared", "partial %llu: first phrase %s in %.1f ms", ull(m.value),
                          kept ? "synthesized" : "not synthesized", static_cast<double>(nowNs() - t0) / 1e6);
        }
        prepare.clear();
        break;
    }
    if (!st) {
      failedOnce = true;  // the rest of this answer is skipped; the next one starts afresh
      SOTTO_LOG_ERROR("tts", "failed", "answer %llu: %s", ull(current), st.error().message.c_str());
    }
  }
  // Shutdown: whatever was queued is dropped; tell a brain thread waiting for us that we are done.
  ttsDone_.store(UINT64_MAX, std::memory_order_release);
  brainWake_.notify();
}

}  // namespace sotto::answer
