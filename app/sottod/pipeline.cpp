// SPDX-License-Identifier: MIT
// Pipeline wiring: config -> audio devices -> audio thread (SCHED_FIFO) -> capture ring -> speech thread.
#include "app/sottod/pipeline.h"

#include "app/common/answer_config.h"
#include "app/common/listener_config.h"
#include "app/common/recognition_setup.h"

#include <sys/stat.h>
#include <sys/statvfs.h>

#include <cstdio>
#include <cstring>

#include "engine/intents/catalogue.h"
#include "sotto/hal/atomic_file.h"
#include "sotto/hal/log.h"


namespace sotto::app {
namespace {

hal::AudioSpec specFrom(const config::AudioEndpoint& e) {
  return hal::AudioSpec{e.backend, e.device, e.rateHz, e.periodMs, e.periods};
}

constexpr uint32_t kCaptureRingMs = 2000;   // speech thread may lag this much before frames drop
constexpr uint32_t kPlaybackRingMs = 1000;  // TTS may run this far ahead of the speaker
constexpr uint32_t kMeterWindowMs = 100;
constexpr uint64_t kLowDiskBytes = 64 * 1024;  // less free than this in the state directory: reported as full

// The recognizer per the config: frontend, wake word, ASR with the catalogue's command grammar, domain LM and
// understanding (app/common/recognition_setup.h: the same as `sotto listen`). Loads the models (blocks for a
// moment). An error means the daemon runs without recognition. `setup` must outlive the listener.
Result<std::unique_ptr<speech::Listener>> makeListener(const config::Config& c, const std::string& cataloguePath,
                                                       RecognitionSetup& setup,
                                                       std::vector<std::string>& degradations) {
  speech::ListenerConfig lc = app::listenerConfigFrom(c);
  prepareRecognition(c, cataloguePath, lc, setup);
  for (const auto& w : setup.warnings) {
    degradations.push_back(w);
    SOTTO_LOG_WARN("speech", "recognition-degraded", "%s", w.c_str());
  }
  auto l = speech::Listener::create(lc);
  if (l && !l.value()->asrDegradedReason().empty()) {
    degradations.push_back(l.value()->asrDegradedReason());
    // The domain LM search missing, or the searches scoring frames separately: the reason names which.
    SOTTO_LOG_WARN("speech", "recognition-degraded", "%s", l.value()->asrDegradedReason().c_str());
  }
  if (l && !l.value()->stopDegradedReason().empty()) {
    degradations.push_back(l.value()->stopDegradedReason());
    SOTTO_LOG_WARN("speech", "no-stop-phrase", "%s", l.value()->stopDegradedReason().c_str());
  }
  return l;
}

}  // namespace

size_t roundUpPow2(size_t n) {
  size_t p = 1;
  while (p < n) p <<= 1;
  return p;
}

Result<std::unique_ptr<Pipeline>> Pipeline::create(const config::Config& cfg) {
  std::unique_ptr<Pipeline> p(new Pipeline());
  p->cfg_ = cfg;
  const std::string catalogue = defaultCataloguePath();  // the recognizer's grammar and the brain's intents
  auto health = pipeline::HealthMonitor::create(8);
  if (!health) return std::move(health).error();
  p->health_ = std::move(health).value();

  auto& registry = hal::AudioRegistry::instance();
  std::unique_ptr<hal::AudioSource> source;
  std::unique_ptr<hal::AudioSink> sink;
  if (auto s = registry.openSource(specFrom(cfg.capture)); s) {
    source = std::move(s).value();
  } else {
    p->degradations_.push_back("no microphone: " + s.error().message);
    SOTTO_LOG_ERROR("audio", "capture-unavailable", "capture device unavailable, running without listening: %s",
                    s.error().message.c_str());
  }
  if (auto s = registry.openSink(specFrom(cfg.playback)); s) {
    sink = std::move(s).value();
  } else {
    p->degradations_.push_back("no speaker: " + s.error().message);
    SOTTO_LOG_ERROR("audio", "playback-unavailable", "playback device unavailable, running without speaking: %s",
                    s.error().message.c_str());
  }
  if (!source && !sink) return p;  // nothing to run; the daemon reports itself degraded

  size_t capFrames = roundUpPow2(static_cast<size_t>(cfg.capture.rateHz) * kCaptureRingMs / 1000);
  size_t playFrames = roundUpPow2(static_cast<size_t>(cfg.playback.rateHz) * kPlaybackRingMs / 1000);
  uint32_t capturePeriod = source ? source->format().periodFrames : 0;
  uint32_t captureRate = source ? source->format().rateHz : 0;
  bool haveSource = source != nullptr;
  speech::AudioStageOptions options;
  options.echoCancel = cfg.aec;
  options.echoTailMs = cfg.aecTailMs;
  options.echoDelayMs = cfg.aecDelayMs;
  options.playbackCancel = &p->answerCancel_;
  auto stage = speech::AudioStage::create(std::move(source), std::move(sink), capFrames, playFrames, options);
  if (!stage) return std::move(stage).error();
  p->audio_ = std::move(stage).value();
  auto beat = p->health_.addStage("audio");
  if (!beat) return std::move(beat).error();
  p->audioBeat_ = *beat;

  if (haveSource) {
    auto meter = speech::InputMeter::create(captureRate * kMeterWindowMs / 1000, capturePeriod);
    if (!meter) return std::move(meter).error();
    std::unique_ptr<speech::Listener> listener;
    if (captureRate != 16000) {
      p->degradations_.push_back("no speech recognition: it needs 16000 Hz capture");
      SOTTO_LOG_ERROR("speech", "recognition-unavailable", "speech recognition needs 16000 Hz capture, not %u Hz",
                      captureRate);
    } else if (auto l = makeListener(cfg, catalogue, *p->recognition_, p->degradations_); l) {
      listener = std::move(l).value();
      if (!listener->wakeFallbackReason().empty()) {
        // Still listening, with the weaker spotter: say so in STATUS and the journal.
        p->degradations_.push_back("wake word by keyphrase spotting: " + listener->wakeFallbackReason());
        SOTTO_LOG_WARN("speech", "wake-fallback", "%s", listener->wakeFallbackReason().c_str());
      }
    } else {
      p->degradations_.push_back("no speech recognition: " + l.error().message);
      SOTTO_LOG_ERROR("speech", "recognition-unavailable", "speech recognition unavailable, only metering input: %s",
                      l.error().message.c_str());
    }
    auto speech = speech::SpeechStage::create(std::move(meter).value(), std::move(listener), p->audio_.get(),
                                              &p->answerCancel_, captureRate);
    if (!speech) return std::move(speech).error();
    p->speech_ = std::move(speech).value();
    p->speech_->setFollowUpWindow(cfg.followUpMs);
    auto sbeat = p->health_.addStage("speech");
    if (!sbeat) return std::move(sbeat).error();
    p->speechBeat_ = *sbeat;
  }
  // The answer path: brain thread (not watched: Brain::ask is bounded by the router's own timeouts and token
  // limits, and a slow cloud must not look like a hang) and TTS thread (beats per chunk written).
  pipeline::Heartbeat* ttsBeat = nullptr;
  if (p->audio_->hasPlayback()) {
    auto tbeat = p->health_.addStage("tts");
    if (!tbeat) return std::move(tbeat).error();
    ttsBeat = *tbeat;
    // Idle until the TTS thread has its voice loaded and work to do: loading is not a hang (under a loaded
    // sanitizer build it outlasts a short stall limit).
    ttsBeat->markIdle();
  }
  // The brain understands requests with the recognizer's understander: the catalogue and its model load once.
  const nlu::Understander* understander =
      p->recognition_->understander ? &*p->recognition_->understander : nullptr;
  auto answers = answer::AnswerStage::create(answerStageOptionsFrom(cfg, catalogue, understander), p->speech_.get(), p->audio_.get(), p->answerCancel_, ttsBeat);
  if (!answers) return std::move(answers).error();
  p->answers_ = std::move(answers).value();
  return p;
}

Pipeline::~Pipeline() { stop(); }

Status Pipeline::start() {
  if (started_ || !audio_) return {};
  if (Status s = audio_->start(); !s) {
    degradations_.push_back("audio devices failed to start: " + s.error().message);
    SOTTO_LOG_ERROR("audio", "start-failed", "audio devices failed to start: %s", s.error().message.c_str());
    return {};
  }
  stop_.store(false, std::memory_order_release);
  if (speech_) {
    hal::ThreadOptions so{"sotto-speech", cfg_.speechCpus, 0};
    auto t = hal::RtThread::start(so, [this] { speech_->run(audio_->captureRing(), stop_, *speechBeat_); });
    if (!t) return std::move(t).error();
    speechThread_ = std::move(t).value();
  }
  hal::ThreadOptions ao{"sotto-audio", cfg_.audioCpus, cfg_.audioPriority};
  auto t = hal::RtThread::start(ao, [this] {
    if (!audio_->run(stop_, *audioBeat_)) {
      // Reported from the control thread through the stalled heartbeat; nothing logged on this thread.
    }
  });
  if (!t) {
    stop_.store(true, std::memory_order_release);
    audio_->captureWakeup().notify();
    speechThread_.join();
    return std::move(t).error();
  }
  audioThread_ = std::move(t).value();
  started_ = true;
  if (answers_) {
    if (Status st = answers_->start(stop_); !st) {
      degradations_.push_back("no answers: " + st.error().message);
      SOTTO_LOG_ERROR("answer", "start-failed", "cannot start the brain and TTS threads: %s", st.error().message.c_str());
    }
  }
  return {};
}

void Pipeline::stop() {
  if (!started_) return;
  stop_.store(true, std::memory_order_release);
  audio_->captureWakeup().notify();  // the speech thread may sleep on an ended capture stream
  if (answers_) answers_->stop();  // cancels the answer in progress; nothing waits for the audio thread
  audioThread_.join();
  speechThread_.join();
  audio_->stopDevices();
  started_ = false;
}

std::vector<std::string> Pipeline::stageNames() const {
  std::vector<std::string> names;
  for (size_t i = 0; i < health_.stageCount(); ++i) names.emplace_back(health_.stageName(i));
  return names;
}

bool Pipeline::injectStall(std::string_view stage) {
  auto msg = pipeline::Message::make(static_cast<uint32_t>(speech::AudioCommand::stall));
  if (stage == "audio" && audio_) return audio_->commands().post(msg);
  if (stage == "speech" && speech_) {
    const bool posted = speech_->commands().post(msg);
    audio_->captureWakeup().notify();  // served at once, even after the capture stream ended
    return posted;
  }
  if (stage == "tts" && answers_ && answers_->counters().speaking) {
    answers_->stallTts();
    return true;
  }
  return false;
}

std::string Pipeline::statusLine() const {
  std::string s;
  char buf[160];
  if (audio_ && audio_->hasCapture()) {
    const auto& f = audio_->source()->format();
    std::snprintf(buf, sizeof buf, "listening on %s %u Hz, level %.1f dBFS", audio_->source()->name().c_str(),
                  f.rateHz, speech_ ? speech_->meter().levelDbfs() : -120.0);
    s += buf;
  } else {
    s += "not listening (no microphone)";
  }
  if (audio_ && audio_->hasPlayback()) {
    std::snprintf(buf, sizeof buf, "; speaker %s %u Hz", audio_->sink()->name().c_str(), audio_->sink()->format().rateHz);
    s += buf;
  } else {
    s += "; no speaker";
  }
  s += std::string("; privacy ") + privacy::privacyModeName(cfg_.privacy);
  if (audio_) {
    auto c = audio_->counters();
    std::snprintf(buf, sizeof buf, "; %llu frames, %llu dropped, %llu device errors",
                  static_cast<unsigned long long>(c.capturedFrames), static_cast<unsigned long long>(c.captureDropped),
                  static_cast<unsigned long long>(c.deviceErrors));
    s += buf;
  }
  if (audio_ && audio_->echoCancelling()) s += "; echo cancelling";
  if (speech_) {
    const auto sc = speech_->counters();
    if (sc.recognizing) {
      std::snprintf(buf, sizeof buf, "; %llu wakes, %llu transcripts, %llu barge-ins",
                    static_cast<unsigned long long>(sc.wakes), static_cast<unsigned long long>(sc.finals),
                    static_cast<unsigned long long>(sc.bargeIns));
      s += buf;
    }
  }
  if (answers_) {
    const answer::AnswerCounters ac = answers_->counters();
    std::snprintf(buf, sizeof buf, "; %llu answers, %llu spoken", static_cast<unsigned long long>(ac.answered),
                  static_cast<unsigned long long>(ac.spoken));
    s += buf;
  }
  if (audio_ && audio_->counters().captureEnded) s += "; capture stream ended";
  // What needs a person, said on every STATUS until it is fixed: an unusable device key, a full disk.
  // What changed how requests are answered without needing a person (the semantic cache turned off).
  if (answers_) {
    for (const std::string& i : answers_->statusInfo()) s += "; " + i;
  }
  std::vector<std::string> notes;
  if (answers_) notes = answers_->statusNotes();
  if (const auto full = hal::diskFull()) {
    notes.push_back("DISK FULL: cannot write " + full->path + " (" + std::strerror(full->error) +
                    "): free space on that file system; answers go on, but nothing new is saved");
  } else if (struct statvfs fs {}; !cfg_.stateDir.empty() && ::statvfs(cfg_.stateDir.c_str(), &fs) == 0 &&
                                   static_cast<uint64_t>(fs.f_bavail) * fs.f_frsize < kLowDiskBytes) {
    notes.push_back("DISK FULL: " + cfg_.stateDir + " has " +
                    std::to_string(static_cast<uint64_t>(fs.f_bavail) * fs.f_frsize / 1024) +
                    " KiB free: free space on that file system, or state (timers, cache, audit log) cannot be saved");
  }
  for (const std::string& n : notes) s += "; " + n;
  if (!degradations_.empty() || !notes.empty()) s += "; DEGRADED";
  return s;
}

void Pipeline::logSpeechMetrics() const {
  if (!speech_ || !speech_->counters().recognizing) return;
  const auto c = speech_->counters();
  const auto& m = speech_->metrics();
  const auto partial = m.partialLagUs.snapshot().summary();
  const auto final = m.finalLagUs.snapshot().summary();
  const auto endpoint = m.endpointDelayUs.snapshot().summary();
  auto ms = [](uint64_t us) { return static_cast<double>(us) / 1000.0; };
  SOTTO_LOG_INFO("speech", "metrics",
                 "%llu wakes, %llu partials, %llu finals, %llu barge-ins, %llu transcripts dropped; partial lag "
                 "p50 %.1f p95 %.1f ms; final lag p50 %.1f p95 %.1f ms; endpoint delay p50 %.0f p95 %.0f ms",
                 static_cast<unsigned long long>(c.wakes), static_cast<unsigned long long>(c.partials),
                 static_cast<unsigned long long>(c.finals), static_cast<unsigned long long>(c.bargeIns),
                 static_cast<unsigned long long>(c.transcriptsDropped), ms(partial.p50), ms(partial.p95),
                 ms(final.p50), ms(final.p95), ms(endpoint.p50), ms(endpoint.p95));
}

}  // namespace sotto::app

namespace sotto::app {

void Pipeline::logAnswerMetrics() const {
  if (answers_) answers_->logMetrics();
}

}  // namespace sotto::app
