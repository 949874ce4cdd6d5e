// SPDX-License-Identifier: MIT
// Resampler over speexdsp's resampler (already linked for the capture frontend).
#include "engine/speech/resampler.h"

#include <speex/speex_resampler.h>

#include <algorithm>
#include <cstring>
#include <string>

namespace sotto::speech {

Result<std::unique_ptr<Resampler>> Resampler::create(uint32_t inRateHz, uint32_t outRateHz, int quality) {
  if (inRateHz == 0 || outRateHz == 0) return makeError(Errc::invalid_argument, "resampler: a rate of 0 Hz");
  if (quality < 0 || quality > 10) {
    return makeError(Errc::invalid_argument, "resampler: quality " + std::to_string(quality) + " outside 0..10");
  }
  SpeexResamplerState* st = nullptr;
  if (inRateHz != outRateHz) {
    int err = 0;
    st = speex_resampler_init(1, inRateHz, outRateHz, quality, &err);
    if (st == nullptr) {
      return makeError(Errc::unsupported, "resampler: cannot convert " + std::to_string(inRateHz) + " Hz to " +
                                              std::to_string(outRateHz) + " Hz: " + speex_resampler_strerror(err));
    }
    speex_resampler_skip_zeros(st);  // no leading filter delay: the first sample out is the first sample in
  }
  return std::unique_ptr<Resampler>(new Resampler(inRateHz, outRateHz, st));
}

Resampler::~Resampler() {
  if (st_ != nullptr) speex_resampler_destroy(st_);
}

size_t Resampler::maxOutput(size_t inFrames) const {
  // Ceiling of the exact ratio plus a frame for the fractional phase carried between calls.
  return (static_cast<uint64_t>(inFrames) * out_ + in_ - 1) / in_ + 1;
}

size_t Resampler::inputLatency() const {
  return st_ == nullptr ? 0 : static_cast<size_t>(speex_resampler_get_input_latency(st_));
}

size_t Resampler::process(std::span<const int16_t> in, std::span<int16_t> out) {
  if (st_ == nullptr) {
    const size_t n = std::min(in.size(), out.size());
    std::memcpy(out.data(), in.data(), n * sizeof(int16_t));
    return n;
  }
  size_t written = 0;
  // speexdsp may consume less than offered when `out` is the limit; loop until the input is used up.
  while (!in.empty() && written < out.size()) {
    spx_uint32_t inLen = static_cast<spx_uint32_t>(in.size());
    spx_uint32_t outLen = static_cast<spx_uint32_t>(out.size() - written);
    speex_resampler_process_int(st_, 0, in.data(), &inLen, out.data() + written, &outLen);
    in = in.subspan(inLen);
    written += outLen;
    if (inLen == 0 && outLen == 0) break;
  }
  return written;
}

size_t Resampler::flush(std::span<int16_t> out) {
  if (st_ == nullptr) return 0;
  size_t pending = inputLatency();
  size_t written = 0;
  while (pending > 0 && written < out.size()) {
    const size_t n = std::min(pending, std::size(zeros_));
    written += process(std::span<const int16_t>(zeros_, n), out.subspan(written));
    pending -= n;
  }
  speex_resampler_reset_mem(st_);
  speex_resampler_skip_zeros(st_);
  return written;
}

void Resampler::reset() {
  if (st_ == nullptr) return;
  speex_resampler_reset_mem(st_);
  speex_resampler_skip_zeros(st_);
}

}  // namespace sotto::speech
