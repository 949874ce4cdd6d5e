// SPDX-License-Identifier: MIT
// EchoCanceller: speexdsp's MDF echo canceller fed from a delay line of the (resampled) playback signal.
#include "engine/speech/echo_canceller.h"

#include <speex/speex_echo.h>
#include <speex/speex_preprocess.h>
#include <speex/speex_resampler.h>

#include <algorithm>
#include <string>

namespace sotto::speech {
namespace {

constexpr int kResamplerQuality = 3;  // the reference only has to model the echo, not sound good: cheap is right
constexpr uint32_t kSlackSamples = 32;  // resampled periods vary by a sample or two around the average

void bump(std::atomic<uint64_t>& c, uint64_t n) noexcept {
  c.store(c.load(std::memory_order_relaxed) + n, std::memory_order_relaxed);
}

size_t roundUpPow2(size_t n) {
  size_t p = 1;
  while (p < n) p <<= 1;
  return p;
}

}  // namespace

Result<std::unique_ptr<EchoCanceller>> EchoCanceller::create(const EchoConfig& c) {
  auto bad = [](const std::string& what) { return makeError(Errc::invalid_argument, "echo canceller: " + what); };
  if (c.captureRateHz < 8000 || c.captureRateHz > 48000 || c.playbackRateHz < 8000 || c.playbackRateHz > 192000) {
    return bad("rates " + std::to_string(c.captureRateHz) + "/" + std::to_string(c.playbackRateHz) + " Hz");
  }
  if (c.captureFrames == 0 || c.captureFrames > c.captureRateHz / 10 || c.playbackFrames == 0 ||
      c.playbackFrames > c.playbackRateHz / 10) {
    return bad("periods must be 1..100 ms");
  }
  if (c.tailMs < 10 || c.tailMs > 1000 || c.delayMs > 1000) return bad("tail must be 10..1000 ms, delay <= 1000 ms");
  if (c.residualSuppressDb > 0 || c.residualSuppressActiveDb > 0) return bad("suppression must be <= 0 dB");
  std::unique_ptr<EchoCanceller> e(new EchoCanceller());
  e->frameSamples_ = c.captureFrames;
  e->delaySamples_ = static_cast<uint32_t>(uint64_t{c.delayMs} * c.captureRateHz / 1000);
  const int tail = static_cast<int>(uint64_t{c.tailMs} * c.captureRateHz / 1000);
  e->echo_ = speex_echo_state_init(static_cast<int>(c.captureFrames), tail);
  if (e->echo_ == nullptr) return makeError(Errc::internal, "echo canceller: speex_echo_state_init failed");
  spx_int32_t rate = static_cast<spx_int32_t>(c.captureRateHz);
  speex_echo_ctl(e->echo_, SPEEX_ECHO_SET_SAMPLING_RATE, &rate);
  if (c.residualSuppressDb < 0) {
    e->residual_ = speex_preprocess_state_init(static_cast<int>(c.captureFrames), static_cast<int>(c.captureRateHz));
    if (e->residual_ == nullptr) return makeError(Errc::internal, "echo canceller: speex_preprocess_state_init failed");
    spx_int32_t off = 0, on = 1, noNoiseSuppression = 0;
    spx_int32_t suppress = c.residualSuppressDb, active = c.residualSuppressActiveDb;
    // The preprocessor only applies its gains with "denoise" on; a 0 dB noise floor keeps the noise untouched
    // (the frontend suppresses noise later), so only the residual echo is suppressed here.
    speex_preprocess_ctl(e->residual_, SPEEX_PREPROCESS_SET_DENOISE, &on);
    speex_preprocess_ctl(e->residual_, SPEEX_PREPROCESS_SET_NOISE_SUPPRESS, &noNoiseSuppression);
    speex_preprocess_ctl(e->residual_, SPEEX_PREPROCESS_SET_AGC, &off);
    speex_preprocess_ctl(e->residual_, SPEEX_PREPROCESS_SET_DEREVERB, &off);
    speex_preprocess_ctl(e->residual_, SPEEX_PREPROCESS_SET_ECHO_STATE, e->echo_);
    speex_preprocess_ctl(e->residual_, SPEEX_PREPROCESS_SET_ECHO_SUPPRESS, &suppress);
    speex_preprocess_ctl(e->residual_, SPEEX_PREPROCESS_SET_ECHO_SUPPRESS_ACTIVE, &active);
  }
  // Resampled period: the playback period's share of capture samples, plus room for the resampler's jitter.
  size_t resampledMax = static_cast<size_t>(uint64_t{c.playbackFrames} * c.captureRateHz / c.playbackRateHz) + 16;
  if (c.playbackRateHz != c.captureRateHz) {
    int err = 0;
    e->resampler_ = speex_resampler_init(1, c.playbackRateHz, c.captureRateHz, kResamplerQuality, &err);
    if (e->resampler_ == nullptr) {
      return makeError(Errc::unsupported, "echo canceller: cannot resample " + std::to_string(c.playbackRateHz) +
                                              " Hz to " + std::to_string(c.captureRateHz) + " Hz");
    }
    speex_resampler_skip_zeros(e->resampler_);  // no extra latency from the filter's start-up
  } else {
    resampledMax = c.playbackFrames;
  }
  // The delay line holds the delay, the slack and a few periods of either side's rhythm (the two devices'
  // periods may differ: e.g. 10 ms playback against 20 ms capture).
  auto ring = pipeline::SpscRing<int16_t>::create(
      roundUpPow2(e->delaySamples_ + kSlackSamples + 4 * std::max<size_t>(resampledMax, c.captureFrames)));
  if (!ring) return std::move(ring).error();
  e->reference_ = std::move(ring).value();
  e->resampled_.assign(resampledMax, 0);
  e->ref_.assign(c.captureFrames, 0);
  e->out_.assign(c.captureFrames, 0);
  e->prefill();
  return e;
}

EchoCanceller::~EchoCanceller() {
  if (residual_ != nullptr) speex_preprocess_state_destroy(residual_);
  if (echo_ != nullptr) speex_echo_state_destroy(echo_);
  if (resampler_ != nullptr) speex_resampler_destroy(resampler_);
}

void EchoCanceller::prefill() noexcept {
  // Zeros for the configured delay (and the resampler's slack): the reference then lags what was played by it.
  std::fill(ref_.begin(), ref_.end(), int16_t{0});
  uint32_t left = delaySamples_ + (resampler_ != nullptr ? kSlackSamples : 0);
  while (left > 0) {
    const uint32_t n = std::min<uint32_t>(left, static_cast<uint32_t>(ref_.size()));
    reference_.write(std::span<const int16_t>(ref_.data(), n));
    left -= n;
  }
}

void EchoCanceller::played(std::span<const int16_t> samples) noexcept {
  std::span<const int16_t> ref = samples;
  if (resampler_ != nullptr) {
    spx_uint32_t inLen = static_cast<spx_uint32_t>(samples.size());
    spx_uint32_t outLen = static_cast<spx_uint32_t>(resampled_.size());
    speex_resampler_process_int(resampler_, 0, samples.data(), &inLen, resampled_.data(), &outLen);
    ref = std::span<const int16_t>(resampled_.data(), outLen);
  }
  const size_t n = reference_.write(ref);
  if (n < ref.size()) bump(dropped_, ref.size() - n);
}

void EchoCanceller::process(std::span<int16_t> mic) noexcept {
  if (mic.size() != frameSamples_) return;
  const size_t got = reference_.read(ref_);
  if (got < ref_.size()) {
    // The speaker fell behind the microphone (or is not playing): what was not played is silence.
    std::fill(ref_.begin() + static_cast<std::ptrdiff_t>(got), ref_.end(), int16_t{0});
    bump(underflows_, 1);
  }
  speex_echo_cancellation(echo_, mic.data(), ref_.data(), out_.data());
  // The residual the linear filter left, estimated by the echo state, is suppressed spectrally.
  if (residual_ != nullptr) speex_preprocess_run(residual_, out_.data());
  std::copy(out_.begin(), out_.end(), mic.begin());
  bump(frames_, 1);
}

void EchoCanceller::reset() noexcept {
  speex_echo_state_reset(echo_);
  if (resampler_ != nullptr) speex_resampler_reset_mem(resampler_);
  while (reference_.read(ref_) > 0) {
  }
  prefill();
}

EchoCounters EchoCanceller::counters() const noexcept {
  return EchoCounters{frames_.load(std::memory_order_relaxed), underflows_.load(std::memory_order_relaxed),
                      dropped_.load(std::memory_order_relaxed)};
}

}  // namespace sotto::speech
