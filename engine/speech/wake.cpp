// SPDX-License-Identifier: MIT
// WakeSpotter: pocketsphinx keyphrase search ("-keyphrase", "-kws_threshold").
#include "engine/speech/wake.h"

#include <pocketsphinx.h>

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
  char threshold[16];
  std::snprintf(threshold, sizeof threshold, "1e%d", config.thresholdExponent);
  // The keyphrase search is configured after the custom words are in the dictionary (ps_set_keyphrase).
  auto ps = detail::makeDecoder(config.acousticModel, config.dictionary, {"-kws_threshold", threshold});
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
  active_ = ps_start_utt(ps_.get()) >= 0;
}

bool WakeSpotter::process(std::span<const int16_t> samples) noexcept {
  if (!active_ || samples.empty()) return false;
  if (ps_process_raw(ps_.get(), samples.data(), samples.size(), FALSE, FALSE) < 0) return false;
  if (ps_get_hyp(ps_.get(), nullptr) == nullptr) return false;
  // The detection's segment says where the phrase ended; without one, assume "now".
  const uint64_t samplesPerFrame = 16000 / 1000 * detail::kFrameMs;
  phraseEnd_ = start_ + static_cast<uint64_t>(ps_get_n_frames(ps_.get())) * samplesPerFrame;
  for (ps_seg_t* seg = ps_seg_iter(ps_.get()); seg != nullptr; seg = ps_seg_next(seg)) {
    int sf = 0, ef = 0;
    ps_seg_frames(seg, &sf, &ef);
    phraseEnd_ = start_ + static_cast<uint64_t>(ef + 1) * samplesPerFrame;
  }
  stop();
  return true;
}

void WakeSpotter::stop() noexcept {
  if (!active_) return;
  ps_end_utt(ps_.get());
  active_ = false;
}

}  // namespace sotto::speech
