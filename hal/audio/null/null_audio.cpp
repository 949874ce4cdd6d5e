// SPDX-License-Identifier: MIT
// The `null` audio backend: capture yields silence, playback discards; paced like a real device
// (device "default") or as fast as the caller goes (device "fast") for tests and benchmarks.
#include <time.h>

#include <algorithm>
#include <atomic>
#include <cerrno>

#include "sotto/hal/audio.h"

namespace sotto::hal {
namespace {

// Keeps a period clock on CLOCK_MONOTONIC so pacing never drifts; sleeping is the "device I/O" here.
class PeriodClock {
 public:
  explicit PeriodClock(uint64_t periodNs) : periodNs_(periodNs) {}
  void reset() { clock_gettime(CLOCK_MONOTONIC, &next_); }
  void waitNext() {
    next_.tv_nsec += static_cast<long>(periodNs_);
    while (next_.tv_nsec >= 1000000000L) {
      next_.tv_nsec -= 1000000000L;
      ++next_.tv_sec;
    }
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next_, nullptr) == EINTR) {
    }
  }

 private:
  uint64_t periodNs_;
  timespec next_{};
};

Result<bool> pacedFromDevice(const AudioSpec& spec) {
  if (spec.device.empty() || spec.device == "default") return true;
  if (spec.device == "fast") return false;
  return makeError(Errc::not_found, "null audio device '" + spec.device + "' does not exist (use 'default' or 'fast')");
}

AudioFormat formatFor(const AudioSpec& spec) {
  return AudioFormat{spec.rateHz, periodFrames(spec.rateHz, spec.periodMs), spec.periods};
}

class NullSource final : public AudioSource {
 public:
  NullSource(const AudioSpec& spec, bool paced)
      : AudioSource("null:" + (spec.device.empty() ? std::string("default") : spec.device), formatFor(spec)),
        paced_(paced),
        clock_(static_cast<uint64_t>(spec.periodMs) * 1000000u) {}

  static Result<std::unique_ptr<AudioSource>> create(const AudioSpec& spec) {
    auto paced = pacedFromDevice(spec);
    if (!paced) return std::move(paced).error();
    return std::unique_ptr<AudioSource>(new NullSource(spec, *paced));
  }

  AudioCounters counters() const override {
    return AudioCounters{frames_.load(std::memory_order_relaxed), 0, 0};
  }

 protected:
  Status doStart() override {
    clock_.reset();
    return {};
  }
  Status doStop() override { return {}; }
  Result<size_t> doRead(std::span<int16_t> frames) override {
    if (paced_) clock_.waitNext();
    std::fill(frames.begin(), frames.end(), int16_t{0});
    frames_.fetch_add(frames.size(), std::memory_order_relaxed);
    return frames.size();
  }

 private:
  bool paced_;
  PeriodClock clock_;
  std::atomic<uint64_t> frames_{0};
};

// Models a device buffer of `periods` periods drained at the sample rate: write() returns at once while the
// buffer has room and waits only when it is full, like a blocking ALSA write. So one thread can capture and play
// (full duplex) without the two paced calls adding up.
class NullSink final : public AudioSink {
 public:
  NullSink(const AudioSpec& spec, bool paced)
      : AudioSink("null:" + (spec.device.empty() ? std::string("default") : spec.device), formatFor(spec)),
        paced_(paced),
        rateHz_(spec.rateHz),
        bufferFrames_(static_cast<uint64_t>(periodFrames(spec.rateHz, spec.periodMs)) * std::max(spec.periods, 1u)) {}

  static Result<std::unique_ptr<AudioSink>> create(const AudioSpec& spec) {
    auto paced = pacedFromDevice(spec);
    if (!paced) return std::move(paced).error();
    return std::unique_ptr<AudioSink>(new NullSink(spec, *paced));
  }

  AudioCounters counters() const override {
    return AudioCounters{frames_.load(std::memory_order_relaxed), underruns_.load(std::memory_order_relaxed), 0};
  }

 protected:
  Status doStart() override {
    clock_gettime(CLOCK_MONOTONIC, &start_);
    queuedBase_ = 0;
    return {};
  }
  Status doStop() override { return {}; }
  Result<size_t> doWrite(std::span<const int16_t> frames) override {
    if (paced_) {
      uint64_t played = playedFrames();
      if (queuedBase_ < played) {  // the buffer ran dry since the last write: an underrun on a real device
        if (queuedBase_ != 0) underruns_.fetch_add(1, std::memory_order_relaxed);
        queuedBase_ = played;
      }
      // Wait until the new frames fit in the buffer.
      uint64_t needPlayed = queuedBase_ + frames.size() > bufferFrames_ ? queuedBase_ + frames.size() - bufferFrames_ : 0;
      if (needPlayed > played) {
        uint64_t ns = (needPlayed * 1000000000ull) / rateHz_;
        timespec until = start_;
        until.tv_sec += static_cast<time_t>(ns / 1000000000ull);
        until.tv_nsec += static_cast<long>(ns % 1000000000ull);
        if (until.tv_nsec >= 1000000000L) {
          until.tv_nsec -= 1000000000L;
          ++until.tv_sec;
        }
        while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, nullptr) == EINTR) {
        }
      }
      queuedBase_ += frames.size();
    }
    frames_.fetch_add(frames.size(), std::memory_order_relaxed);
    return frames.size();
  }

 private:
  // Frames the virtual device has played since start.
  uint64_t playedFrames() const {
    timespec now{};
    clock_gettime(CLOCK_MONOTONIC, &now);
    int64_t ns = (now.tv_sec - start_.tv_sec) * 1000000000LL + (now.tv_nsec - start_.tv_nsec);
    return ns <= 0 ? 0 : static_cast<uint64_t>(ns) * rateHz_ / 1000000000ull;
  }

  bool paced_;
  uint32_t rateHz_;
  uint64_t bufferFrames_;
  timespec start_{};
  uint64_t queuedBase_ = 0;  // frame index (since start) at which the queued audio ends
  std::atomic<uint64_t> frames_{0};
  std::atomic<uint64_t> underruns_{0};
};

}  // namespace

SOTTO_AUDIO_BACKEND("null", &NullSource::create, &NullSink::create)

}  // namespace sotto::hal
