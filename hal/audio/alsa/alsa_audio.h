// SPDX-License-Identifier: MIT
// The `alsa` audio backend (libasound): blocking S16_LE mono capture and playback on a named ALSA PCM.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <span>

#include "sotto/hal/audio.h"

// libasound's opaque handle, so users of this header need not include <alsa/asoundlib.h>.
typedef struct _snd_pcm snd_pcm_t;  // NOLINT(modernize-use-using): must match alsa/pcm.h exactly

namespace sotto::hal::alsa {

// Closes the PCM; owned by one source or sink.
struct PcmCloser {
  void operator()(snd_pcm_t* pcm) const noexcept;
};
using PcmHandle = std::unique_ptr<snd_pcm_t, PcmCloser>;

// Device names: any ALSA PCM name — "default", "hw:X,Y" (exact hardware formats only), "plughw:X,Y" (converts),
// or a PCM defined in asound.conf. Format: S16_LE, 1 channel, interleaved.
// Capture runs at exactly spec.rateHz (a device that cannot is refused: use a plug device to resample).
// Playback asks for spec.rateHz and takes the nearest rate the device offers; format().rateHz says which.
// Period and buffer: spec.periodMs and spec.periods, rounded by the device; format() reports what it gave.
//
// xruns (-EPIPE) and suspends (-ESTRPIPE) are recovered inside read()/write() with snd_pcm_recover and counted
// (counters().xruns, counters().recoveries); the call then carries on with the rest of the period.
//
// Threads: create/start/stop/format/armFault: the control thread (they may block in ALSA). read/write: the audio
// thread; they block on PCM I/O only and never allocate or log on success or on a recovered xrun (libasound takes
// its own per-PCM mutex inside each call; it is uncontended, as only the audio thread uses a running PCM).
class AlsaSource final : public AudioSource {
 public:
  static Result<std::unique_ptr<AlsaSource>> create(const AudioSpec& spec);
  AudioCounters counters() const override;
  // Test seam: the next PCM read call returns `negativeErrno` (e.g. -EPIPE) instead of reading, as the kernel
  // does after an overrun; the real recovery path (snd_pcm_recover on the real PCM) then runs. Control thread.
  void armFault(int negativeErrno) { fault_.store(negativeErrno, std::memory_order_release); }

 protected:
  Status doStart() override;
  Status doStop() override;
  Result<size_t> doRead(std::span<int16_t> frames) override;

 private:
  AlsaSource(std::string name, AudioFormat format, PcmHandle pcm) : AudioSource(std::move(name), format),
                                                                    pcm_(std::move(pcm)) {}
  PcmHandle pcm_;
  std::atomic<int> fault_{0};
  std::atomic<uint64_t> frames_{0}, xruns_{0}, recoveries_{0};
};

class AlsaSink final : public AudioSink {
 public:
  static Result<std::unique_ptr<AlsaSink>> create(const AudioSpec& spec);
  AudioCounters counters() const override;
  // Test seam, as AlsaSource::armFault, for the next PCM write call (-EPIPE: an underrun).
  void armFault(int negativeErrno) { fault_.store(negativeErrno, std::memory_order_release); }

 protected:
  Status doStart() override;
  // Drains what is queued (blocking for at most the buffer length), then stops the PCM.
  Status doStop() override;
  Result<size_t> doWrite(std::span<const int16_t> frames) override;

 private:
  AlsaSink(std::string name, AudioFormat format, PcmHandle pcm) : AudioSink(std::move(name), format),
                                                                  pcm_(std::move(pcm)) {}
  PcmHandle pcm_;
  std::atomic<int> fault_{0};
  std::atomic<uint64_t> frames_{0}, xruns_{0}, recoveries_{0};
};

}  // namespace sotto::hal::alsa
