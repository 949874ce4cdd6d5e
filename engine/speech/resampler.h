// SPDX-License-Identifier: MIT
// Resampler: S16 mono sample-rate conversion (speexdsp) from the TTS voice's rate to the sink's.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

#include "sotto/hal/result.h"

struct SpeexResamplerState_;

namespace sotto::speech {

// One stream. Not thread-safe: one thread owns it. process() and flush() neither allocate nor block.
class Resampler {
 public:
  // quality: speexdsp's 0 (fastest) .. 10 (best); 5 is its default for audio. Equal rates pass samples through.
  static Result<std::unique_ptr<Resampler>> create(uint32_t inRateHz, uint32_t outRateHz, int quality = 5);
  ~Resampler();
  Resampler(const Resampler&) = delete;
  Resampler& operator=(const Resampler&) = delete;

  // Output frames that `inFrames` input frames can produce at most (size `out` with it).
  size_t maxOutput(size_t inFrames) const;
  // Converts all of `in` into `out` (at least maxOutput(in.size()) long); returns the frames written.
  size_t process(std::span<const int16_t> in, std::span<int16_t> out);
  // End of stream: pushes the filter's delay line out (silence in) so the last input samples are heard. `out`
  // needs maxOutput(inputLatency()) frames. The stream may continue afterwards (a new utterance).
  size_t flush(std::span<int16_t> out);
  // Forgets the stream's history (after a cancel): the next process() starts clean.
  void reset();
  size_t inputLatency() const;  // frames of input held back by the filter

  uint32_t inRateHz() const { return in_; }
  uint32_t outRateHz() const { return out_; }

 private:
  Resampler(uint32_t in, uint32_t out, SpeexResamplerState_* st) : in_(in), out_(out), st_(st) {}
  uint32_t in_, out_;
  SpeexResamplerState_* st_;  // null when the rates are equal
  int16_t zeros_[256] = {};
};

}  // namespace sotto::speech
