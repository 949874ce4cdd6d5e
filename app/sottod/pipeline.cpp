// SPDX-License-Identifier: MIT
// Pipeline wiring: config -> audio devices -> audio thread (SCHED_FIFO) -> capture ring -> speech thread.
#include "app/sottod/pipeline.h"

#include <cstdio>

#include "sotto/hal/log.h"

namespace sotto::app {
namespace {

hal::AudioSpec specFrom(const config::AudioEndpoint& e) {
  return hal::AudioSpec{e.backend, e.device, e.rateHz, e.periodMs, e.periods};
}

constexpr uint32_t kCaptureRingMs = 2000;   // speech thread may lag this much before frames drop
constexpr uint32_t kPlaybackRingMs = 1000;  // TTS may run this far ahead of the speaker
constexpr uint32_t kMeterWindowMs = 100;

}  // namespace

size_t roundUpPow2(size_t n) {
  size_t p = 1;
  while (p < n) p <<= 1;
  return p;
}

Result<std::unique_ptr<Pipeline>> Pipeline::create(const config::Config& cfg) {
  std::unique_ptr<Pipeline> p(new Pipeline());
  p->cfg_ = cfg;
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
  auto stage = speech::AudioStage::create(std::move(source), std::move(sink), capFrames, playFrames);
  if (!stage) return std::move(stage).error();
  p->audio_ = std::move(stage).value();
  auto beat = p->health_.addStage("audio");
  if (!beat) return std::move(beat).error();
  p->audioBeat_ = *beat;

  if (haveSource) {
    auto meter = speech::InputMeter::create(captureRate * kMeterWindowMs / 1000, capturePeriod);
    if (!meter) return std::move(meter).error();
    p->meter_.emplace(std::move(meter).value());
    auto sbeat = p->health_.addStage("speech");
    if (!sbeat) return std::move(sbeat).error();
    p->speechBeat_ = *sbeat;
  }
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
  if (meter_) {
    hal::ThreadOptions so{"sotto-speech", cfg_.speechCpus, 0};
    auto t = hal::RtThread::start(so, [this] { meter_->run(audio_->captureRing(), stop_, *speechBeat_); });
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
    speechThread_.join();
    return std::move(t).error();
  }
  audioThread_ = std::move(t).value();
  started_ = true;
  return {};
}

void Pipeline::stop() {
  if (!started_) return;
  stop_.store(true, std::memory_order_release);
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
  if (stage == "speech" && meter_) return meter_->commands().post(msg);
  return false;
}

std::string Pipeline::statusLine() const {
  std::string s;
  char buf[160];
  if (audio_ && audio_->hasCapture()) {
    const auto& f = audio_->source()->format();
    std::snprintf(buf, sizeof buf, "listening on %s %u Hz, level %.1f dBFS", audio_->source()->name().c_str(),
                  f.rateHz, meter_ ? meter_->levelDbfs() : -120.0);
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
  s += std::string("; privacy ") + config::privacyModeName(cfg_.privacy);
  if (audio_) {
    auto c = audio_->counters();
    std::snprintf(buf, sizeof buf, "; %llu frames, %llu dropped, %llu device errors",
                  static_cast<unsigned long long>(c.capturedFrames), static_cast<unsigned long long>(c.captureDropped),
                  static_cast<unsigned long long>(c.deviceErrors));
    s += buf;
  }
  if (!degradations_.empty()) s += "; DEGRADED";
  return s;
}

}  // namespace sotto::app
