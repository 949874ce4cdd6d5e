// SPDX-License-Identifier: MIT
// WakeSpotter: pocketsphinx keyphrase search ("-keyphrase", "-kws_threshold", "-kws_plp").
#include "engine/speech/wake.h"

#include <pocketsphinx.h>

#include <algorithm>
#include <cctype>
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
  return w;
}

void WakeSpotter::start(uint64_t startSample) noexcept {
  if (active_) ps_end_utt(ps_.get());
  start_ = startSample;
  fed_ = 0;
  active_ = ps_start_utt(ps_.get()) >= 0;
}

bool WakeSpotter::process(std::span<const int16_t> samples) noexcept {
  if (!active_ || samples.empty()) return false;
  if (ps_process_raw(ps_.get(), samples.data(), samples.size(), FALSE, FALSE) < 0) return false;
  fed_ += samples.size();
  if (ps_get_hyp(ps_.get(), nullptr) == nullptr) return false;
  // Where the phrase ended, as a stream position: how many frames the search had seen past the phrase's last
  // frame, counted back from now. The search's frame numbers are not stream positions (its voice activity
  // detector drops silent frames), but the frames after the phrase are its tail and the detection delay, which
  // that detector keeps. Without a usable segment: pocketsphinx's detection delay (-kws_delay, 10 frames) and its
  // feature window.
  const uint64_t samplesPerFrame = 16000 / 1000 * detail::kFrameMs;
  uint64_t lagFrames = kDefaultLagFrames;
  const int searched = ps_get_n_frames(ps_.get());
  for (ps_seg_t* seg = ps_seg_iter(ps_.get()); seg != nullptr; seg = ps_seg_next(seg)) {
    int sf = 0, ef = 0;
    ps_seg_frames(seg, &sf, &ef);
    if (ef >= 0 && ef < searched && static_cast<uint64_t>(searched - 1 - ef) <= kMaxLagFrames) {
      lagFrames = static_cast<uint64_t>(searched - 1 - ef);
    }
  }
  const uint64_t now = start_ + fed_;
  phraseEnd_ = now - std::min(now - start_, lagFrames * samplesPerFrame);
  stop();
  return true;
}

void WakeSpotter::stop() noexcept {
  if (!active_) return;
  ps_end_utt(ps_.get());
  active_ = false;
}

}  // namespace sotto::speech
