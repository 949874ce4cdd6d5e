// SPDX-License-Identifier: MIT
// Frontend (speexdsp preprocessor: denoise, AGC, VAD) and the Endpointer.
#include "engine/speech/frontend.h"

#include <speex/speex_preprocess.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>

namespace sotto::speech {

namespace {
// The background gate acts only while the speech stands this far above the background: in quiet rooms the
// energy gate and the probability decide, as before.
constexpr float kBackgroundMinDb = 6.0f;
// The background hold's share of the way from the background up to the speech's peak: low, so that only the
// background itself counts (a quiet syllable stands well above it at any SNR the recognizer can use).
constexpr float kHoldShare = 0.25f;
}  // namespace

Result<std::unique_ptr<Frontend>> Frontend::create(const FrontendConfig& config) {
  if (config.rateHz < 8000 || config.rateHz > 48000 || config.frameSamples == 0 ||
      config.frameSamples > config.rateHz / 10) {
    return makeError(Errc::invalid_argument, "speech frontend: frames of " + std::to_string(config.frameSamples) +
                                                 " samples at " + std::to_string(config.rateHz) + " Hz");
  }
  if (config.highPassHz != 0 && (config.highPassHz < 20 || config.highPassHz >= config.rateHz / 4)) {
    return makeError(Errc::invalid_argument, "speech frontend: high-pass at " + std::to_string(config.highPassHz) +
                                                 " Hz (20 Hz to a quarter of the rate, or 0)");
  }
  if (config.vadBackgroundGatePercent > 90) {
    return makeError(Errc::invalid_argument, "speech frontend: background gate above 90 %");
  }
  if (config.vadBackgroundHoldMs > 60000) {
    return makeError(Errc::invalid_argument, "speech frontend: background hold above 60 s");
  }
  if (config.noiseSuppressDb > 0 || config.vadStartPercent < 1 || config.vadStartPercent > 100 ||
      config.vadContinuePercent < 1 || config.vadContinuePercent > config.vadStartPercent) {
    return makeError(Errc::invalid_argument, "speech frontend: bad noise suppression or VAD thresholds");
  }
  std::unique_ptr<Frontend> f(new Frontend());
  f->frameSamples_ = config.frameSamples;
  // Per-frame constants from per-second ones (the frame length is configurable): the level is smoothed with a
  // ~45 ms time constant and the peak decays 5 dB a second. The background's level is the higher of two
  // estimates. One rises 1 dB a second and falls 5 a second: it settles on about the 17th percentile of the
  // levels (rises x share above = falls x share below), under the bursts of babble or music, above the short
  // gaps between notes, and the user's few seconds of speech barely move it. The other is the quietest level of
  // the last ~3 s: it follows a background that grew louder (a TV switched on) within 3 s.
  const float frameS = static_cast<float>(config.frameSamples) / static_cast<float>(config.rateHz);
  f->backgroundShare_ = static_cast<float>(config.vadBackgroundGatePercent) / 100.0f;
  if (config.vadBackgroundHoldMs > 0) {
    f->holdFrames_ = std::max(1u, static_cast<uint32_t>(static_cast<float>(config.vadBackgroundHoldMs) / 1000.0f /
                                                            frameS + 0.5f));
  }
  f->smoothing_ = std::exp(-frameS / 0.045f);
  f->peakDecay_ = 5.0f * frameS;
  f->rise_ = 1.0f * frameS;
  f->fall_ = 5.0f * frameS;
  f->framesPerBlock_ = std::max(1u, static_cast<uint32_t>(0.2f / frameS + 0.5f));
  f->blockMinsDb_.fill(1e9f);
  f->highPass_ = HighPass(config.highPassHz, config.rateHz);
  f->state_ = speex_preprocess_state_init(static_cast<int>(config.frameSamples), static_cast<int>(config.rateHz));
  if (f->state_ == nullptr) return makeError(Errc::internal, "speech frontend: speex_preprocess_state_init failed");
  spx_int32_t off = 0;
  spx_int32_t denoise = config.noiseSuppressDb < 0 ? 1 : 0;
  spx_int32_t suppress = config.noiseSuppressDb;
  spx_int32_t agc = config.agc ? 1 : 0;
  f->startPercent_ = static_cast<int>(config.vadStartPercent);
  f->continuePercent_ = static_cast<int>(config.vadContinuePercent);
  f->gateDb_ = static_cast<float>(config.vadEnergyGateDb);
  speex_preprocess_ctl(f->state_, SPEEX_PREPROCESS_SET_DENOISE, &denoise);
  if (denoise) speex_preprocess_ctl(f->state_, SPEEX_PREPROCESS_SET_NOISE_SUPPRESS, &suppress);
  speex_preprocess_ctl(f->state_, SPEEX_PREPROCESS_SET_AGC, &agc);
  if (agc) {
    spx_int32_t level = 8000;  // target RMS of speech, about -12 dBFS: what the acoustic model was trained near
    spx_int32_t maxGainDb = 20;
    speex_preprocess_ctl(f->state_, SPEEX_PREPROCESS_SET_AGC_TARGET, &level);
    speex_preprocess_ctl(f->state_, SPEEX_PREPROCESS_SET_AGC_MAX_GAIN, &maxGainDb);
  }
  speex_preprocess_ctl(f->state_, SPEEX_PREPROCESS_SET_DEREVERB, &off);
  return f;
}

Frontend::~Frontend() {
  if (state_ != nullptr) speex_preprocess_state_destroy(state_);
}

HighPass::HighPass(uint32_t cutoffHz, uint32_t rateHz) noexcept {
  if (cutoffHz == 0 || rateHz == 0) return;
  // The bilinear-transform high-pass with Q = 1/sqrt(2) (Butterworth): -3 dB at the cutoff, 12 dB per octave below.
  const double w = 2.0 * std::numbers::pi * cutoffHz / rateHz;
  const double c = std::cos(w), alpha = std::sin(w) / std::numbers::sqrt2;
  const double a0 = 1.0 + alpha;
  b0_ = static_cast<float>((1.0 + c) / 2.0 / a0);
  b1_ = static_cast<float>(-(1.0 + c) / a0);
  b2_ = b0_;
  a1_ = static_cast<float>(-2.0 * c / a0);
  a2_ = static_cast<float>((1.0 - alpha) / a0);
  on_ = true;
}

void HighPass::process(std::span<int16_t> samples) noexcept {
  if (!on_) return;
  for (int16_t& s : samples) {
    const float x = s;
    float y = b0_ * x + b1_ * x1_ + b2_ * x2_ - a1_ * y1_ - a2_ * y2_;
    if (std::fabs(y) < 1e-6f) y = 0.0f;  // silence decays into denormals, which are slow on some cores
    x2_ = x1_;
    x1_ = x;
    y2_ = y1_;
    y1_ = y;
    s = static_cast<int16_t>(std::lrint(std::clamp(y, -32768.0f, 32767.0f)));
  }
}

bool Frontend::process(std::span<int16_t> frame) noexcept {
  if (frame.size() != frameSamples_) return false;
  highPass_.process(frame);
  bool backgroundQuiet = false, held = false;
  if (backgroundShare_ > 0.0f || holdFrames_ > 0) {
    double e = 0.0;
    for (int16_t x : frame) e += static_cast<double>(x) * x;
    const auto power = static_cast<float>(e / static_cast<double>(frame.size()));
    const bool first = levelPower_ < 0.0f;
    levelPower_ = first ? power : smoothing_ * levelPower_ + (1.0f - smoothing_) * power;
    const float db = 10.0f * std::log10(levelPower_ + 1.0f);
    if (first) levelPeakDb_ = percentileDb_ = db;
    levelPeakDb_ = std::max(db, levelPeakDb_ - peakDecay_);
    percentileDb_ += db > percentileDb_ ? rise_ : -fall_;
    blockMinDb_ = std::min(blockMinDb_, db);
    float windowMinDb = blockMinDb_;
    for (float m : blockMinsDb_) windowMinDb = std::min(windowMinDb, m);
    const float backgroundDb = std::max(percentileDb_, windowMinDb);
    if (++blockFrames_ == framesPerBlock_) {
      blockMinsDb_[block_] = blockMinDb_;
      block_ = (block_ + 1) % kBackgroundBlocks;
      blockMinDb_ = 1e9f;
      blockFrames_ = 0;
    }
    const float above = levelPeakDb_ - backgroundDb;
    const bool clear = above >= kBackgroundMinDb;
    backgroundQuiet = backgroundShare_ > 0.0f && clear && db < backgroundDb + backgroundShare_ * above;
    holdRun_ = clear && db < backgroundDb + kHoldShare * above ? holdRun_ + 1 : 0;
    // Once held, only a level halfway up to the peak the speech had then is voice again: the noise's own swings
    // are not. Once the peak has decayed into the background (seconds later) the hold lets go, so a quieter next
    // talker is not held to the last one's level; the probability alone then needs the start threshold again.
    if (held_ && (!clear || db >= backgroundDb + 0.5f * heldAboveDb_)) {
      held_ = false;
      holdRun_ = 0;
    } else if (!held_ && holdFrames_ > 0 && holdRun_ >= holdFrames_) {
      held_ = true;
      heldAboveDb_ = above;
    }
    held = held_;
  }
  speex_preprocess_run(state_, frame.data());
  // The preprocessor estimates the probability of speech for every frame (from its noise estimate). Its own VAD
  // flag is "a hack pending a rewrite" that also prints a warning when enabled; the hysteresis is ours instead:
  // speech starts above the start threshold and continues above the (lower) continue threshold.
  spx_int32_t prob = 0;
  speex_preprocess_ctl(state_, SPEEX_PREPROCESS_GET_PROB, &prob);
  probability_ = static_cast<int>(prob);
  const bool wasVoiced = voiced_;
  voiced_ = probability_ >= (voiced_ ? continuePercent_ : startPercent_);
  if (gateDb_ > 0.0f || backgroundShare_ > 0.0f || holdFrames_ > 0) {
    bool quiet = backgroundQuiet || held;
    if (gateDb_ > 0.0f) {
      double e = 1.0;
      for (int16_t x : frame) e += static_cast<double>(x) * x;
      const float db = 10.0f * static_cast<float>(std::log10(e / static_cast<double>(frame.size())));
      // The speech's own level: the loudest recent frame, decaying 0.05 dB per frame (5 dB a second), so that a
      // quieter talker or a falling AGC gain still gates within a second.
      peakDb_ = std::max(db, peakDb_ - 0.05f);
      quiet = quiet || db < peakDb_ - gateDb_;
    }
    // A run a gate ended stays ended while the level stays down: else the next frame, still above the start
    // probability, would begin a new run, and every other frame would push the endpoint back (~100 ms per turn).
    if (voiced_ && quiet && (wasVoiced || gated_)) voiced_ = false;
    gated_ = quiet && (gated_ || wasVoiced);
  }
  return voiced_;
}

void Endpointer::arm(uint64_t nowMs, bool voicedNow, uint32_t startWithinMs) noexcept {
  state_ = State::waiting;
  startWithinMs_ = startWithinMs;
  reason_ = Reason::none;
  armedMs_ = nowMs;
  speechEndMs_ = 0;
  voicedRun_ = 0;
  inheritedRun_ = voicedNow;
  judge_ = judged_ = false;
  pendingCompleteMs_ = 0;
}

bool Endpointer::frame(bool voiced, uint64_t nowMs) noexcept {
  judge_ = false;
  if (state_ != State::waiting && state_ != State::speaking) return false;
  // Speech starts after 150 ms of voiced frames in a row (a click is not speech). A run that was going on when the
  // utterance was armed is the end of the wake phrase (the keyphrase search reports the phrase's end a little
  // early, more so in noise) unless it lasts 400 ms: then the command followed without a pause. Speech then
  // continues frame by frame.
  constexpr uint32_t kStartFrames = 15, kInheritedStartFrames = 40;
  if (!voiced) inheritedRun_ = false;
  voicedRun_ = voiced ? voicedRun_ + 1 : 0;
  if (state_ == State::waiting && voicedRun_ >= (inheritedRun_ ? kInheritedStartFrames : kStartFrames)) {
    state_ = State::speaking;
  }
  if (state_ == State::waiting && startWithinMs_ > 0 && nowMs - armedMs_ >= startWithinMs_) {
    state_ = State::ended;
    reason_ = Reason::noSpeech;
    return true;
  }
  if (state_ == State::speaking && voiced) {
    speechEndMs_ = nowMs;
    judged_ = false;
    pendingCompleteMs_ = 0;
  }
  if (state_ == State::speaking && pendingCompleteMs_ > 0 && nowMs - speechEndMs_ >= pendingCompleteMs_) {
    state_ = State::ended;
    reason_ = Reason::complete;
    return true;
  }
  if (state_ == State::speaking && nowMs - speechEndMs_ >= silenceMs_) {
    state_ = State::ended;
    reason_ = Reason::silence;
    return true;
  }
  if (nowMs - armedMs_ >= maxMs_) {
    state_ = State::ended;
    reason_ = Reason::maxLength;
    return true;
  }
  if (state_ == State::speaking && !judged_ && completeMs_ > 0 && completeMs_ < silenceMs_ &&
      nowMs - speechEndMs_ >= completeMs_) {
    judge_ = judged_ = true;
  }
  return false;
}

}  // namespace sotto::speech
