// SPDX-License-Identifier: MIT
// AudioStage: the only code on the audio thread; device I/O plus ring copies, nothing else.
#include "engine/speech/audio_stage.h"

#include <time.h>

#include <algorithm>
#include <cerrno>

namespace sotto::speech {
namespace {

constexpr int kMaxConsecutiveErrors = 50;  // ~0.5 s of failed periods: the device is gone, stop and let health see it
constexpr size_t kCommandSlots = 16;

void sleepMs(long ms) noexcept {
  timespec ts{ms / 1000, (ms % 1000) * 1000000L};
  nanosleep(&ts, nullptr);
}

void bump(std::atomic<uint64_t>& c, uint64_t n) noexcept {
  c.store(c.load(std::memory_order_relaxed) + n, std::memory_order_relaxed);
}

timespec addNs(timespec t, uint64_t ns) noexcept {
  t.tv_sec += static_cast<time_t>(ns / 1000000000ull);
  t.tv_nsec += static_cast<long>(ns % 1000000000ull);
  if (t.tv_nsec >= 1000000000L) {
    t.tv_nsec -= 1000000000L;
    ++t.tv_sec;
  }
  return t;
}

}  // namespace

Result<std::unique_ptr<AudioStage>> AudioStage::create(std::unique_ptr<hal::AudioSource> source,
                                                       std::unique_ptr<hal::AudioSink> sink,
                                                       size_t captureRingFrames, size_t playbackRingFrames,
                                                       const AudioStageOptions& options) {
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
  if (options.echoCancel && source && sink) {
    EchoConfig ec;
    ec.captureRateHz = source->format().rateHz;
    ec.captureFrames = source->format().periodFrames;
    ec.playbackRateHz = sink->format().rateHz;
    ec.playbackFrames = sink->format().periodFrames;
    ec.tailMs = options.echoTailMs;
    ec.delayMs = options.echoDelayMs;
    auto echo = EchoCanceller::create(ec);
    if (!echo) return std::move(echo).error();
    s->echo_ = std::move(echo).value();
  }
  s->cancel_ = options.playbackCancel;
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

CycleResult AudioStage::cycle() noexcept {
  bool failed = false;
  size_t captured = 0;
  if (source_ && !captureEnded_.load(std::memory_order_relaxed)) {
    Result<size_t> n = source_->read(captureBuf_);
    if (!n.ok()) {
      failed = true;
    } else if (*n == 0) {
      captureEnded_.store(true, std::memory_order_relaxed);  // a finite source's end (wav): stop reading it
      captureWake_.notify();  // the speech thread finishes the utterance in progress
    } else {
      captured = *n;
    }
  }
  if (sink_) {
    size_t got = 0;
    const bool cancelled = cancel_ != nullptr && cancel_->cancelled();
    if (cancelled) {
      // Barge-in: the answer being played was cancelled. Drop everything queued (the producer stops at its next
      // chunk when it sees the token) and keep the device fed with silence.
      if (!wasCancelled_) stoppedAt_.store(captured_.load(std::memory_order_relaxed) + captured,
                                           std::memory_order_relaxed);
      size_t dropped = 0;
      for (size_t n; (n = playbackRing_.read(playbackBuf_)) > 0;) dropped += n;
      if (dropped != 0) {
        bump(playbackDropped_, dropped);
        playbackWake_.notify();
      }
    } else {
      got = playbackRing_.read(playbackBuf_);
      if (got != 0) playbackWake_.notify();  // room for the TTS thread
    }
    wasCancelled_ = cancelled;
    if (got < playbackBuf_.size()) {
      // Nothing (or not enough) to say: keep the device fed with silence so it never underruns.
      std::fill(playbackBuf_.begin() + static_cast<std::ptrdiff_t>(got), playbackBuf_.end(), int16_t{0});
      if (got != 0) underflows_.fetch_add(1, std::memory_order_relaxed);
    }
    playing_.store(got != 0, std::memory_order_relaxed);
    Result<size_t> n = sink_->write(playbackBuf_);
    if (n.ok()) {
      played_.fetch_add(*n, std::memory_order_relaxed);
      if (echo_) echo_->played(std::span<const int16_t>(playbackBuf_.data(), *n));
    } else {
      failed = true;
    }
  }
  if (captured != 0) {
    // The echo canceller sees the period played in this same cycle, so the reference never drifts.
    if (echo_) echo_->process(std::span<int16_t>(captureBuf_.data(), captured));
    captureRing_.writeOrDrop(std::span<const int16_t>(captureBuf_.data(), captured));
    captured_.fetch_add(captured, std::memory_order_relaxed);
    captureWake_.notify();
  }
  bump(cycles_, 1);
  if (failed) return CycleResult::failed;
  return captureEnded_.load(std::memory_order_relaxed) ? CycleResult::ended : CycleResult::ok;
}

bool AudioStage::run(const std::atomic<bool>& stop, pipeline::Heartbeat& heartbeat) noexcept {
  int consecutiveErrors = 0;
  const hal::AudioFormat& f = source_ ? source_->format() : sink_->format();
  const uint64_t periodNs = uint64_t{f.periodFrames} * 1000000000ull / f.rateHz;
  timespec next{};
  bool pacing = false;
  while (!stop.load(std::memory_order_acquire)) {
    serveCommands(stop);
    if (stop.load(std::memory_order_acquire)) break;
    const CycleResult r = cycle();
    if (r == CycleResult::failed) {
      errors_.fetch_add(1, std::memory_order_relaxed);
      if (++consecutiveErrors >= kMaxConsecutiveErrors) return false;
      sleepMs(10);  // do not spin on a failing device
      continue;
    }
    consecutiveErrors = 0;
    if (r == CycleResult::ended) {
      // The capture stream is over (a `?fast` file returns at once): keep serving playback, at most in real time.
      // Absolute deadlines: a sink that blocks for its period already paces us and the sleep returns at once.
      if (!pacing) {
        clock_gettime(CLOCK_MONOTONIC, &next);
        pacing = true;
      }
      next = addNs(next, periodNs);
      while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, nullptr) == EINTR) {
      }
    }
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
  c.cycles = cycles_.load(std::memory_order_relaxed);
  c.captureEnded = captureEnded_.load(std::memory_order_relaxed);
  c.playbackDropped = playbackDropped_.load(std::memory_order_relaxed);
  c.playbackStoppedAtFrame = stoppedAt_.load(std::memory_order_relaxed);
  if (echo_) c.echo = echo_->counters();
  return c;
}

}  // namespace sotto::speech
