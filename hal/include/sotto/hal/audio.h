// SPDX-License-Identifier: MIT
// Audio HAL: capture (AudioSource) and playback (AudioSink) of S16_LE mono frames with a fixed period,
// backends chosen by name from the config (alsa, wav, null) through the AudioRegistry.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "sotto/hal/result.h"

namespace sotto::hal {

// What the config asks for.
struct AudioSpec {
  std::string backend;       // registry name: "alsa", "wav", "null", ...
  // Backend-specific: alsa: a PCM name ("default", "hw:0,0", "plughw:0,0", one from asound.conf); wav: a file path,
  // paced in real time ("x.wav" or "x.wav?paced") or as fast as the caller goes ("x.wav?fast"); null: "default"
  // (paced) or "fast".
  std::string device;
  uint32_t rateHz = 16000;
  uint32_t periodMs = 10;
  uint32_t periods = 4;      // device buffer = periods × period
};

// What the backend delivers (it may differ from the request: e.g. a sink at the device's native rate).
struct AudioFormat {
  uint32_t rateHz = 0;
  uint32_t periodFrames = 0;  // frames per read()/write() call
  uint32_t periods = 0;
};

// Counters a backend keeps; read by the control thread (relaxed, may be slightly stale).
struct AudioCounters {
  uint64_t frames = 0;
  uint64_t xruns = 0;        // overruns (capture) or underruns (playback) recovered
  uint64_t recoveries = 0;   // suspend/resume and other recoveries
};

// Capture. start/stop/format: control thread, may block. read: the audio thread only.
// Template methods (libcamera style): the public methods check state, the backend implements the hooks.
class AudioSource {
 public:
  virtual ~AudioSource() = default;
  Status start();
  Status stop();
  // Blocks until exactly one period (format().periodFrames) is captured into `frames` (which must hold at least
  // that many); returns the frames read. No allocation on success. A finite source (wav) may return fewer frames
  // on its last period; at its end read() succeeds with 0 frames (end of stream).
  Result<size_t> read(std::span<int16_t> frames);
  const AudioFormat& format() const { return format_; }
  virtual AudioCounters counters() const = 0;
  const std::string& name() const { return name_; }
  bool running() const { return running_; }

 protected:
  AudioSource(std::string name, AudioFormat format) : name_(std::move(name)), format_(format) {}
  virtual Status doStart() = 0;
  virtual Status doStop() = 0;
  virtual Result<size_t> doRead(std::span<int16_t> frames) = 0;

 private:
  std::string name_;
  AudioFormat format_;
  bool running_ = false;
};

// Playback. Same threading rules as AudioSource; write: the audio thread only, blocks until the device accepts
// the period.
class AudioSink {
 public:
  virtual ~AudioSink() = default;
  Status start();
  Status stop();
  Result<size_t> write(std::span<const int16_t> frames);
  const AudioFormat& format() const { return format_; }
  virtual AudioCounters counters() const = 0;
  const std::string& name() const { return name_; }
  bool running() const { return running_; }

 protected:
  AudioSink(std::string name, AudioFormat format) : name_(std::move(name)), format_(format) {}
  virtual Status doStart() = 0;
  virtual Status doStop() = 0;
  virtual Result<size_t> doWrite(std::span<const int16_t> frames) = 0;

 private:
  std::string name_;
  AudioFormat format_;
  bool running_ = false;
};

using SourceFactory = std::function<Result<std::unique_ptr<AudioSource>>(const AudioSpec&)>;
using SinkFactory = std::function<Result<std::unique_ptr<AudioSink>>(const AudioSpec&)>;

// Backends register themselves at static-initialization time (one line in their .cpp, see SOTTO_AUDIO_BACKEND).
// Lookups: control threads, after main() started.
class AudioRegistry {
 public:
  static AudioRegistry& instance();
  bool addSource(const std::string& backend, SourceFactory factory);
  bool addSink(const std::string& backend, SinkFactory factory);
  // Opens a device; an unknown backend or a missing device is an error naming both.
  Result<std::unique_ptr<AudioSource>> openSource(const AudioSpec& spec) const;
  Result<std::unique_ptr<AudioSink>> openSink(const AudioSpec& spec) const;
  std::vector<std::string> backends() const;

 private:
  struct Entry {
    std::string name;
    SourceFactory source;
    SinkFactory sink;
  };
  Entry* find(const std::string& name);
  const Entry* find(const std::string& name) const;
  std::vector<Entry> entries_;
};

// Frames in one period at a rate; 10 ms at 16 kHz = 160.
constexpr uint32_t periodFrames(uint32_t rateHz, uint32_t periodMs) {
  return static_cast<uint32_t>(static_cast<uint64_t>(rateHz) * periodMs / 1000u);
}

}  // namespace sotto::hal

#define SOTTO_AUDIO_CONCAT2(a, b) a##b
#define SOTTO_AUDIO_CONCAT(a, b) SOTTO_AUDIO_CONCAT2(a, b)
// One line in a backend's .cpp: SOTTO_AUDIO_BACKEND("null", &NullSource::create, &NullSink::create);
// Either factory may be nullptr (capture-only or playback-only backends).
#define SOTTO_AUDIO_BACKEND(name, sourceFactory, sinkFactory)                                        \
  namespace {                                                                                        \
  [[maybe_unused]] const bool SOTTO_AUDIO_CONCAT(sottoAudioRegistered_, __LINE__) = [] {             \
    auto& r = ::sotto::hal::AudioRegistry::instance();                                               \
    bool ok = true;                                                                                  \
    if (sourceFactory) ok = r.addSource(name, sourceFactory) && ok;                                  \
    if (sinkFactory) ok = r.addSink(name, sinkFactory) && ok;                                        \
    return ok;                                                                                       \
  }();                                                                                               \
  }
