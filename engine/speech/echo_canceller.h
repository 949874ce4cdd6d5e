// SPDX-License-Identifier: MIT
// Acoustic echo cancellation (speexdsp MDF) with the playback signal as the reference, for the audio thread.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "engine/pipeline/spsc_ring.h"
#include "sotto/hal/result.h"

struct SpeexEchoState_;
struct SpeexPreprocessState_;
struct SpeexResamplerState_;

namespace sotto::speech {

struct EchoConfig {
  uint32_t captureRateHz = 16000;
  uint32_t captureFrames = 160;    // samples per process() call: one capture period
  uint32_t playbackRateHz = 16000;
  uint32_t playbackFrames = 160;   // most samples per played() call: one playback period
  uint32_t tailMs = 128;           // echo path length the adaptive filter covers (room reverberation)
  // Latency of the echo path the filter need not model: what is sent to the speaker reaches the microphone's
  // period this much later (device buffers). The reference is delayed by it so the tail covers only the room.
  uint32_t delayMs = 0;
  // Residual echo suppression after the linear filter (speexdsp's preprocessor, its noise suppression and AGC
  // off: those run later in the frontend): the most the residual is attenuated, and while the user talks over
  // the device (less, to keep the user's speech). 0 = no residual suppression.
  int residualSuppressDb = -40;
  int residualSuppressActiveDb = -15;
};

struct EchoCounters {
  uint64_t frames = 0;              // capture periods cancelled
  uint64_t referenceUnderflows = 0; // periods whose reference was short (padded with silence)
  uint64_t referenceDropped = 0;    // reference samples dropped because the delay line was full
};

// Threads: create() on the control thread (allocates everything); played(), process() and reset() on one thread,
// the audio thread, in the order audio flows (each period: what was played, then the captured period). No
// allocation, lock, logging or system call after create(). counters(): the same thread, or any thread as an
// approximate snapshot.
//
// Why on the audio thread: it is the only place where the played and the captured periods are known to be
// simultaneous, so the reference never drifts against the microphone (a ring to another thread could drop one
// and not the other).
class EchoCanceller {
 public:
  static Result<std::unique_ptr<EchoCanceller>> create(const EchoConfig& config);
  ~EchoCanceller();
  EchoCanceller(const EchoCanceller&) = delete;
  EchoCanceller& operator=(const EchoCanceller&) = delete;

  // What was just sent to the speaker (playback rate, at most playbackFrames samples): resampled to the capture
  // rate into the reference ring (the delay line).
  void played(std::span<const int16_t> samples) noexcept;
  // Removes the echo of the reference from `mic` in place. A span of another size than captureFrames (the short
  // last period of a file) passes through unchanged.
  void process(std::span<int16_t> mic) noexcept;
  // Forgets the adaptive filter and the reference (e.g. after the echo path changed).
  void reset() noexcept;

  EchoCounters counters() const noexcept;
  uint32_t frameSamples() const noexcept { return frameSamples_; }

 private:
  EchoCanceller() = default;
  void prefill() noexcept;

  SpeexEchoState_* echo_ = nullptr;
  SpeexPreprocessState_* residual_ = nullptr;  // null when residual suppression is off
  SpeexResamplerState_* resampler_ = nullptr;  // null when both rates are equal
  pipeline::SpscRing<int16_t> reference_;      // producer and consumer: the audio thread (a delay line)
  std::vector<int16_t> resampled_, ref_, out_;
  uint32_t frameSamples_ = 0, delaySamples_ = 0;
  // Single writer (the audio thread): plain load+store, readable from any thread.
  std::atomic<uint64_t> frames_{0}, underflows_{0}, dropped_{0};
};

}  // namespace sotto::speech
