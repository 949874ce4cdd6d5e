// SPDX-License-Identifier: MIT
// The `wav` audio backend: capture from a WAV file, playback into a WAV file, paced like a device or as fast as
// the caller goes.
//
// Device string: "<path>" or "<path>?paced" — real time, one period per period length, like a microphone or a
// speaker; "<path>?fast" — no waiting (tests, benchmarks, batch transcription). A '?' followed by anything else
// is an error; a path that itself contains '?' must carry an explicit suffix ("a?b.wav?paced").
//
// Source: the file is read, validated (see wav_format.h) and converted in create(): 16-bit integer PCM at exactly
// the configured rate (no resampling here: another rate is refused with a message naming both rates); several
// channels are downmixed to mono by averaging. At most kMaxWavFileBytes (readWavFile). Each read() returns one period;
// the last one may be shorter; after the end every read() returns 0 frames (paced sources still wait a period,
// so an audio thread at end of stream does not spin). start() rewinds to the beginning.
//
// Sink: writes "<path>.part" with a placeholder header from create()/start(); stop() fixes the header up, syncs
// and renames it to <path>, so <path> is only ever a complete file. A paced sink models a device buffer of
// `periods` periods drained at the rate (writes return at once while it has room), exactly like the null sink.
#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cerrno>
#include <cstring>
#include <vector>

#include "sotto/hal/audio.h"
#include "wav_format.h"

namespace sotto::hal::wav {
namespace {

constexpr uint64_t kMaxDataBytes = 0xFFFFFFFFull - 36;  // what a RIFF size field can describe

struct Device {
  std::string path;
  bool paced = true;
};

Result<Device> parseDevice(const std::string& device) {
  Device d{device, true};
  if (auto q = device.rfind('?'); q != std::string::npos) {
    const std::string mode = device.substr(q + 1);
    if (mode == "paced" || mode == "fast") {
      d.path = device.substr(0, q);
      d.paced = mode == "paced";
    } else {
      return makeError(Errc::invalid_argument,
                       "wav device '" + device + "': unknown mode '?" + mode + "' (use '?paced' or '?fast')");
    }
  }
  if (d.path.empty()) return makeError(Errc::invalid_argument, "wav device '" + device + "': no file path");
  return d;
}

Error sysError(const std::string& what, const std::string& path, int err) {
  Errc code = err == ENOENT ? Errc::not_found : (err == EACCES || err == EPERM) ? Errc::permission : Errc::io;
  return makeError(code, "wav file '" + path + "': " + what + ": " + std::strerror(err));
}

timespec addNs(timespec t, uint64_t ns) {
  t.tv_sec += static_cast<time_t>(ns / 1000000000ull);
  t.tv_nsec += static_cast<long>(ns % 1000000000ull);
  if (t.tv_nsec >= 1000000000L) {
    t.tv_nsec -= 1000000000L;
    ++t.tv_sec;
  }
  return t;
}

void sleepUntil(const timespec& t) {
  while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, nullptr) == EINTR) {
  }
}

class WavSource final : public AudioSource {
 public:
  static Result<std::unique_ptr<AudioSource>> create(const AudioSpec& spec) {
    auto dev = parseDevice(spec.device);
    if (!dev) return std::move(dev).error();
    const uint32_t period = periodFrames(spec.rateHz, spec.periodMs);
    if (period == 0) {
      return makeError(Errc::invalid_argument, "wav device '" + spec.device + "': period of 0 frames");
    }
    auto bytes = readWavFile(dev->path);
    if (!bytes) return std::move(bytes).error();
    auto info = parseWav(*bytes);
    if (!info) {
      Error e = std::move(info).error();
      e.message = "wav file '" + dev->path + "': " + e.message;
      return e;
    }
    if (info->rateHz != spec.rateHz) {
      return makeError(Errc::unsupported, "wav file '" + dev->path + "' is " + std::to_string(info->rateHz) +
                                              " Hz but capture is configured for " + std::to_string(spec.rateHz) +
                                              " Hz (the wav backend does not resample)");
    }
    // Convert to mono once: the audio thread then only copies.
    const size_t frames = info->frames();
    const size_t ch = info->channels;
    std::vector<int16_t> mono(frames);
    const uint8_t* p = bytes->data() + info->dataOffset;
    for (size_t f = 0; f < frames; ++f) {
      int32_t sum = 0;
      for (size_t c = 0; c < ch; ++c, p += 2) sum += static_cast<int16_t>(static_cast<uint16_t>(p[0] | (p[1] << 8)));
      mono[f] = static_cast<int16_t>(sum / static_cast<int32_t>(ch));
    }
    return std::unique_ptr<AudioSource>(new WavSource(spec, *dev, period, std::move(mono)));
  }

  AudioCounters counters() const override { return AudioCounters{frames_.load(std::memory_order_relaxed), 0, 0}; }

 protected:
  Status doStart() override {
    pos_ = 0;
    clock_gettime(CLOCK_MONOTONIC, &next_);
    return {};
  }
  Status doStop() override { return {}; }
  Result<size_t> doRead(std::span<int16_t> frames) override {
    if (paced_) {
      next_ = addNs(next_, periodNs_);
      sleepUntil(next_);
    }
    const size_t n = std::min(frames.size(), samples_.size() - pos_);
    std::copy_n(samples_.begin() + static_cast<std::ptrdiff_t>(pos_), n, frames.begin());
    pos_ += n;
    frames_.fetch_add(n, std::memory_order_relaxed);
    return n;
  }

 private:
  WavSource(const AudioSpec& spec, const Device& dev, uint32_t period, std::vector<int16_t> samples)
      : AudioSource("wav:" + spec.device, AudioFormat{spec.rateHz, period, spec.periods}),
        paced_(dev.paced),
        periodNs_(static_cast<uint64_t>(period) * 1000000000ull / spec.rateHz),
        samples_(std::move(samples)) {}

  bool paced_;
  uint64_t periodNs_;
  std::vector<int16_t> samples_;
  size_t pos_ = 0;
  timespec next_{};
  std::atomic<uint64_t> frames_{0};
};

class WavSink final : public AudioSink {
 public:
  static Result<std::unique_ptr<AudioSink>> create(const AudioSpec& spec) {
    auto dev = parseDevice(spec.device);
    if (!dev) return std::move(dev).error();
    const uint32_t period = periodFrames(spec.rateHz, spec.periodMs);
    if (period == 0) {
      return makeError(Errc::invalid_argument, "wav device '" + spec.device + "': period of 0 frames");
    }
    std::unique_ptr<WavSink> sink(new WavSink(spec, *dev, period));
    if (Status s = sink->openPart(); !s) return std::move(s).error();
    return std::unique_ptr<AudioSink>(std::move(sink));
  }
  ~WavSink() override {
    if (fd_ >= 0) {  // never stopped: leave no half-written file behind
      ::close(fd_);
      ::unlink(partPath_.c_str());
    }
  }

  AudioCounters counters() const override {
    return AudioCounters{frames_.load(std::memory_order_relaxed), underruns_.load(std::memory_order_relaxed), 0};
  }

 protected:
  Status doStart() override {
    if (fd_ < 0) {
      if (Status s = openPart(); !s) return s;
    }
    clock_gettime(CLOCK_MONOTONIC, &start_);
    queuedEnd_ = 0;
    return {};
  }

  Status doStop() override {
    if (fd_ < 0) return {};
    Status result = failed_ ? Status(makeError(Errc::io, "wav file '" + path_ + "': a write failed, file discarded"))
                            : finish();
    ::close(fd_);
    fd_ = -1;
    if (!result) ::unlink(partPath_.c_str());
    return result;
  }

  Result<size_t> doWrite(std::span<const int16_t> frames) override {
    if (paced_) pace(frames.size());
    const size_t bytes = frames.size() * sizeof(int16_t);
    if (dataBytes_ + bytes > kMaxDataBytes) {
      failed_ = true;
      return makeError(Errc::io, "wav file '" + path_ + "': full (4 GiB RIFF limit)");
    }
    // WAV is little-endian; so are both our targets (x86-64, aarch64 Linux).
    static_assert(std::endian::native == std::endian::little);
    const auto* p = reinterpret_cast<const uint8_t*>(frames.data());
    size_t done = 0;
    while (done < bytes) {
      ssize_t n = ::write(fd_, p + done, bytes - done);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) {
        failed_ = true;
        return sysError("cannot write", partPath_, errno);
      }
      done += static_cast<size_t>(n);
    }
    dataBytes_ += bytes;
    frames_.fetch_add(frames.size(), std::memory_order_relaxed);
    return frames.size();
  }

 private:
  WavSink(const AudioSpec& spec, const Device& dev, uint32_t period)
      : AudioSink("wav:" + spec.device, AudioFormat{spec.rateHz, period, spec.periods}),
        path_(dev.path),
        partPath_(dev.path + ".part"),
        paced_(dev.paced),
        rateHz_(spec.rateHz),
        bufferFrames_(static_cast<uint64_t>(period) * std::max(spec.periods, 1u)) {}

  Status openPart() {
    fd_ = ::open(partPath_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd_ < 0) return sysError("cannot create", partPath_, errno);
    dataBytes_ = 0;
    failed_ = false;
    auto header = makeWavHeader(rateHz_, 1, 0);
    if (::write(fd_, header.data(), header.size()) != static_cast<ssize_t>(header.size())) {
      Error e = sysError("cannot write header", partPath_, errno);
      ::close(fd_);
      fd_ = -1;
      ::unlink(partPath_.c_str());
      return e;
    }
    return {};
  }

  Status finish() {
    auto header = makeWavHeader(rateHz_, 1, static_cast<uint32_t>(dataBytes_));
    if (::pwrite(fd_, header.data(), header.size(), 0) != static_cast<ssize_t>(header.size())) {
      return sysError("cannot write header", partPath_, errno);
    }
    if (::fsync(fd_) != 0) return sysError("cannot sync", partPath_, errno);
    if (::rename(partPath_.c_str(), path_.c_str()) != 0) return sysError("cannot rename into place", path_, errno);
    return {};
  }

  // The null sink's device model: a buffer of bufferFrames_ drained at rateHz_ since start_.
  void pace(size_t frames) {
    timespec now{};
    clock_gettime(CLOCK_MONOTONIC, &now);
    const int64_t ns = (now.tv_sec - start_.tv_sec) * 1000000000LL + (now.tv_nsec - start_.tv_nsec);
    const uint64_t played = ns <= 0 ? 0 : static_cast<uint64_t>(ns) * rateHz_ / 1000000000ull;
    if (queuedEnd_ < played) {  // ran dry since the last write: an underrun on a real device
      if (queuedEnd_ != 0) underruns_.fetch_add(1, std::memory_order_relaxed);
      queuedEnd_ = played;
    }
    if (queuedEnd_ + frames > bufferFrames_ && queuedEnd_ + frames - bufferFrames_ > played) {
      sleepUntil(addNs(start_, (queuedEnd_ + frames - bufferFrames_) * 1000000000ull / rateHz_));
    }
    queuedEnd_ += frames;
  }

  std::string path_, partPath_;
  bool paced_;
  uint32_t rateHz_;
  uint64_t bufferFrames_;
  int fd_ = -1;
  uint64_t dataBytes_ = 0;
  bool failed_ = false;
  timespec start_{};
  uint64_t queuedEnd_ = 0;
  std::atomic<uint64_t> frames_{0}, underruns_{0};
};

}  // namespace

SOTTO_AUDIO_BACKEND("wav", &WavSource::create, &WavSink::create)

}  // namespace sotto::hal::wav
