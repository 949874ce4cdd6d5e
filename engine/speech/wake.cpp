// SPDX-License-Identifier: MIT
// WakeSpotter: pocketsphinx keyphrase search ("-keyphrase", "-kws_threshold", "-kws_plp").
#include "engine/speech/wake.h"

#include <pocketsphinx.h>

#include <algorithm>
#include <cctype>
#include <climits>
#include <cstdint>
#include <cstdio>

namespace sotto::speech {

Result<std::unique_ptr<WakeSpotter>> WakeSpotter::create(const WakeConfig& config) {
  std::string phrase;
  for (char c : config.phrase) phrase += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (phrase.find_first_not_of(" ") == std::string::npos) {
    return makeError(Errc::invalid_argument, "wake phrase is empty");
  }
  if (config.thresholdExponent > 0 || config.thresholdExponent < -100) {
    return makeError(Errc::invalid_argument, "wake threshold exponent out of range");
  }
  if (config.phoneLoopExponent > 0 || config.phoneLoopExponent < -100) {
    return makeError(Errc::invalid_argument, "wake phone-loop exponent out of range");
  }
  std::string fallback;
  if (!config.model.empty()) {
    auto model = WakeModel::load(config.model);
    if (model.ok() && model->phrase == phrase) {
      auto det = WakeDetector::create(std::move(model).value());
      if (det.ok()) {
        std::unique_ptr<WakeSpotter> w(new WakeSpotter());
        w->net_ = std::make_unique<WakeDetector>(std::move(det).value());
        return w;
      }
      fallback = det.error().message;
    } else {
      fallback = model.ok() ? "wake model " + config.model + " was trained for '" + model->phrase + "', not '" +
                                  phrase + "'"
                            : model.error().message;
    }
    fallback += "; spotting the phrase with pocketsphinx instead";
  }
  char threshold[16], plp[16];
  std::snprintf(threshold, sizeof threshold, "1e%d", config.thresholdExponent);
  std::snprintf(plp, sizeof plp, "1e%d", config.phoneLoopExponent);
  // The keyphrase search is configured after the custom words are in the dictionary (ps_set_keyphrase).
  // pocketsphinx's own voice activity detector stays on ("-remove_silence"): with it off, frames of digital
  // silence reach the cepstral mean and the false-reject rate rose (bench_speech wake, clean: 45 % instead of 22 %).
  auto ps = detail::makeDecoder(config.acousticModel, config.dictionary,
                                {"-kws_threshold", threshold, "-kws_plp", plp});
  if (!ps.ok()) return std::move(ps).error();
  std::unique_ptr<WakeSpotter> w(new WakeSpotter());
  w->ps_ = std::move(ps).value();
  if (auto s = detail::addPronunciations(w->ps_.get(), config.pronunciation); !s.ok()) return std::move(s).error();
  if (auto s = detail::checkWords(w->ps_.get(), phrase, "wake phrase"); !s.ok()) return std::move(s).error();
  if (ps_set_keyphrase(w->ps_.get(), "wake", phrase.c_str()) < 0 || ps_set_search(w->ps_.get(), "wake") < 0) {
    return makeError(Errc::invalid_argument, "pocketsphinx rejected the wake phrase '" + phrase + "'");
  }
  if (config.verify) {
    auto v = WakeVerifier::create(config.acousticModel, config.dictionary, phrase, config.pronunciation);
    if (!v.ok()) return std::move(v).error();
    w->verifier_ = std::move(v).value();
    w->verifyThreshold_ = config.verifyThreshold;
    w->ring_.assign(kRingSamples, 0);
    w->segment_.assign(kRingSamples, 0);
  }
  w->fallback_ = std::move(fallback);
  return w;
}

void WakeSpotter::start(uint64_t startSample) noexcept {
  if (net_) {
    net_->reset();
    start_ = startSample;
    fed_ = 0;
    active_ = true;
    return;
  }
  if (active_) ps_end_utt(ps_.get());
  start_ = startSample;
  fed_ = 0;
  startTotal_ = total_;
  active_ = ps_start_utt(ps_.get()) >= 0;
}

bool WakeSpotter::process(std::span<const int16_t> samples) noexcept {
  if (!active_ || samples.empty()) return false;
  if (net_) return processNetwork(samples);
  if (ps_process_raw(ps_.get(), samples.data(), samples.size(), FALSE, FALSE) < 0) return false;
  fed_ += samples.size();
  if (verifier_) {
    for (const int16_t x : samples) ring_[total_++ % kRingSamples] = x;
  } else {
    total_ += samples.size();
  }
  if (ps_get_hyp(ps_.get(), nullptr) == nullptr) return false;
  // Where the phrase ended, as a stream position: how many frames the search had seen past the phrase's last
  // frame, counted back from now. The search's frame numbers are not stream positions (its voice activity
  // detector drops silent frames), but the frames after the phrase are its tail and the detection delay, which
  // that detector keeps. Without a usable segment: pocketsphinx's detection delay (-kws_delay, 10 frames) and its
  // feature window.
  const uint64_t samplesPerFrame = 16000 / 1000 * detail::kFrameMs;
  uint64_t lagFrames = kDefaultLagFrames, phraseFrames = kDefaultPhraseFrames;
  const int searched = ps_get_n_frames(ps_.get());
  for (ps_seg_t* seg = ps_seg_iter(ps_.get()); seg != nullptr; seg = ps_seg_next(seg)) {
    int sf = 0, ef = 0;
    ps_seg_frames(seg, &sf, &ef);
    if (ef >= 0 && ef < searched && static_cast<uint64_t>(searched - 1 - ef) <= kMaxLagFrames) {
      lagFrames = static_cast<uint64_t>(searched - 1 - ef);
      if (sf >= 0 && sf <= ef) phraseFrames = static_cast<uint64_t>(ef - sf + 1);
    }
  }
  if (verifier_ && !verified(lagFrames, phraseFrames)) {
    // Not the phrase: keep spotting (a new utterance of the search, as after a detection).
    ++rejected_;
    ps_end_utt(ps_.get());
    active_ = ps_start_utt(ps_.get()) >= 0;
    return false;
  }
  const uint64_t now = start_ + fed_;
  phraseEnd_ = now - std::min(now - start_, lagFrames * samplesPerFrame);
  stop();
  return true;
}

// The network takes whole 10 ms frames (the Listener gives exactly those); the phrase ended about the model's
// measured detection lag before the frame that detected it.
bool WakeSpotter::processNetwork(std::span<const int16_t> samples) noexcept {
  bool heard = false;
  while (samples.size() >= LogMel::kFrame && !heard) {
    heard = net_->process(samples.first(LogMel::kFrame));
    samples = samples.subspan(LogMel::kFrame);
    fed_ += LogMel::kFrame;
  }
  if (!heard) return false;
  const uint64_t now = start_ + fed_;
  phraseEnd_ = now - std::min(now - start_, uint64_t{net_->model().endLagFrames} * LogMel::kFrame);
  active_ = false;
  return true;
}

bool WakeSpotter::verified(uint64_t lagFrames, uint64_t phraseFrames) noexcept {
  const uint64_t samplesPerFrame = 16000 / 1000 * detail::kFrameMs;
  const uint64_t end = total_ - std::min(total_, lagFrames * samplesPerFrame);
  const uint64_t from = end - std::min(end, (phraseFrames + kVerifyBeforeFrames) * samplesPerFrame);
  const uint64_t to = std::min(total_, end + kVerifyAfterFrames * samplesPerFrame);
  // Only audio heard since start() (older ring contents may predate a gap in the stream) and still in the ring.
  const uint64_t first = std::max({from, startTotal_, total_ - std::min(total_, uint64_t{kRingSamples})});
  if (to <= first) {
    lastScore_ = INT32_MIN;
    return false;
  }
  const size_t n = static_cast<size_t>(to - first);
  for (size_t i = 0; i < n; ++i) segment_[i] = ring_[(first + i) % kRingSamples];
  const auto score = verifier_->score(std::span<const int16_t>(segment_.data(), n));
  lastScore_ = score ? *score : INT32_MIN;
  return score && *score >= verifyThreshold_;
}

void WakeSpotter::stop() noexcept {
  if (!active_) return;
  if (net_) {
    active_ = false;
    return;
  }
  ps_end_utt(ps_.get());
  active_ = false;
}

}  // namespace sotto::speech
