// SPDX-License-Identifier: MIT
// AudioStage: the only code on the audio thread; device I/O plus ring copies, nothing else.
#include "engine/speech/audio_stage.h"

#include <time.h>

#include <algorithm>

namespace sotto::speech {
namespace {

constexpr int kMaxConsecutiveErrors = 50;  // ~0.5 s of failed periods: the device is gone, stop and let health see it
constexpr size_t kCommandSlots = 16;

void sleepMs(long ms) noexcept {
  timespec ts{ms / 1000, (ms % 1000) * 1000000L};
  nanosleep(&ts, nullptr);
}

}  // namespace

Result<std::unique_ptr<AudioStage>> AudioStage::create(std::unique_ptr<hal::AudioSource> source,
                                                       std::unique_ptr<hal::AudioSink> sink,
                                                       size_t captureRingFrames, size_t playbackRingFrames) {
  if (!source && !sink) return makeError(Errc::invalid_argument, "audio stage needs a capture or a playback device");
  std::unique_ptr<AudioStage> s(new AudioStage());
  auto cap = pipeline::SpscRing<int16_t>::create(captureRingFrames);
  if (!cap) return std::move(cap).error();
  auto play = pipeline::SpscRing<int16_t>::create(playbackRingFrames);
  if (!play) return std::move(play).error();
  auto box = pipeline::SpscMailbox<pipeline::Message>::create(kCommandSlots);
  if (!box) return std::move(box).error();
  s->captureRing_ = std::move(cap).value();
  s->playbackRing_ = std::move(play).value();
  s->commands_ = std::move(box).value();
  if (source) s->captureBuf_.assign(source->format().periodFrames, 0);
  if (sink) s->playbackBuf_.assign(sink->format().periodFrames, 0);
  s->source_ = std::move(source);
  s->sink_ = std::move(sink);
  return s;
}

Status AudioStage::start() {
  if (source_) {
    if (Status st = source_->start(); !st) return st;
  }
  if (sink_) {
    if (Status st = sink_->start(); !st) {
      if (source_) (void)source_->stop();
      return st;
    }
  }
  return {};
}

void AudioStage::stopDevices() {
  if (source_) (void)source_->stop();
  if (sink_) (void)sink_->stop();
}

void AudioStage::serveCommands(const std::atomic<bool>& stop) noexcept {
  pipeline::Message m;
  while (commands_.tryReceive(m)) {
    if (m.type == static_cast<uint32_t>(AudioCommand::stall)) {
      // Simulated hang: no beats, no I/O, until shutdown.
      while (!stop.load(std::memory_order_acquire)) sleepMs(10);
    }
  }
}

bool AudioStage::run(const std::atomic<bool>& stop, pipeline::Heartbeat& heartbeat) noexcept {
  int consecutiveErrors = 0;
  while (!stop.load(std::memory_order_acquire)) {
    serveCommands(stop);
    if (stop.load(std::memory_order_acquire)) break;
    bool failed = false;
    if (source_) {
      Result<size_t> n = source_->read(captureBuf_);
      if (n.ok()) {
        captureRing_.writeOrDrop(std::span<const int16_t>(captureBuf_.data(), *n));
        captured_.fetch_add(*n, std::memory_order_relaxed);
      } else {
        failed = true;
      }
    }
    if (sink_) {
      size_t got = playbackRing_.read(playbackBuf_);
      if (got < playbackBuf_.size()) {
        // Nothing (or not enough) to say: keep the device fed with silence so it never underruns.
        std::fill(playbackBuf_.begin() + static_cast<std::ptrdiff_t>(got), playbackBuf_.end(), int16_t{0});
        if (got != 0) underflows_.fetch_add(1, std::memory_order_relaxed);
      }
      Result<size_t> n = sink_->write(playbackBuf_);
      if (n.ok()) {
        played_.fetch_add(*n, std::memory_order_relaxed);
      } else {
        failed = true;
      }
    }
    if (failed) {
      errors_.fetch_add(1, std::memory_order_relaxed);
      if (++consecutiveErrors >= kMaxConsecutiveErrors) return false;
      sleepMs(10);  // do not spin on a failing device
      continue;
    }
    consecutiveErrors = 0;
    heartbeat.beat();
  }
  return true;
}

AudioStageCounters AudioStage::counters() const {
  AudioStageCounters c;
  c.capturedFrames = captured_.load(std::memory_order_relaxed);
  c.captureDropped = captureRing_.dropped();
  c.playedFrames = played_.load(std::memory_order_relaxed);
  c.playbackUnderflows = underflows_.load(std::memory_order_relaxed);
  c.deviceErrors = errors_.load(std::memory_order_relaxed);
  return c;
}

}  // namespace sotto::speech
