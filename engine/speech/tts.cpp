// SPDX-License-Identifier: MIT
// TtsEngine's shared part (volume, chunking, cancellation between chunks) and the factory over the backends.
#include "engine/speech/tts.h"

#include <algorithm>

#include "engine/speech/tts_backends.h"

namespace sotto::speech {

TtsEngine::TtsEngine(std::string engine, std::string voice, uint32_t rateHz, uint32_t volumePercent)
    : engine_(std::move(engine)),
      voice_(std::move(voice)),
      rateHz_(rateHz),
      gainQ8_(static_cast<int32_t>(volumePercent * 256 / 100)),
      scratch_(kMaxChunkFrames) {
  text_.reserve(1024);
}

Status TtsEngine::synthesize(std::string_view text, TtsAudioSink& out, const pipeline::CancelToken& cancel) {
  if (cancel.cancelled()) return {};
  if (text.find('\0') != std::string_view::npos) {
    return makeError(Errc::invalid_argument, "tts: text contains a NUL character");
  }
  text_.assign(text);
  out_ = &out;
  cancel_ = &cancel;
  stopped_ = false;
  Status st = doSynthesize(text_);
  out_ = nullptr;
  cancel_ = nullptr;
  return st;
}

bool TtsEngine::deliver(std::span<const int16_t> samples) {
  if (stopped_ || out_ == nullptr) return false;
  while (!samples.empty()) {
    if (cancel_->cancelled()) {
      stopped_ = true;
      return false;
    }
    const size_t n = std::min(samples.size(), scratch_.size());
    for (size_t i = 0; i < n; ++i) {
      const int32_t v = (static_cast<int32_t>(samples[i]) * gainQ8_) >> 8;
      scratch_[i] = static_cast<int16_t>(std::clamp<int32_t>(v, -32768, 32767));
    }
    if (!out_->onAudio(std::span<const int16_t>(scratch_.data(), n))) {
      stopped_ = true;
      return false;
    }
    samples = samples.subspan(n);
  }
  return !cancel_->cancelled();
}

namespace detail {

std::string joinNames(const std::vector<std::string>& names) {
  std::string s;
  for (const auto& n : names) {
    if (!s.empty()) s += ", ";
    s += n;
  }
  return s;
}

}  // namespace detail

std::vector<std::string> ttsEngines() {
#ifdef SOTTO_HAVE_ESPEAK
  return {"flite", "espeak-ng"};
#else
  return {"flite"};
#endif
}

std::vector<std::string> ttsVoices(std::string_view engine) {
  if (engine == "flite") return detail::fliteVoices();
#ifdef SOTTO_HAVE_ESPEAK
  if (engine == "espeak-ng") return detail::espeakVoices();
#endif
  return {};
}

Result<std::unique_ptr<TtsEngine>> createTts(const TtsOptions& options) {
  if (options.ratePercent < 50 || options.ratePercent > 300) {
    return makeError(Errc::invalid_argument,
                     "tts: rate " + std::to_string(options.ratePercent) + "% is outside 50..300%");
  }
  if (options.volumePercent > 400) {
    return makeError(Errc::invalid_argument,
                     "tts: volume " + std::to_string(options.volumePercent) + "% is above 400%");
  }
  if (options.engine == "flite") return detail::createFlite(options);
  if (options.engine == "espeak-ng") {
#ifdef SOTTO_HAVE_ESPEAK
    return detail::createEspeak(options);
#else
    return makeError(Errc::unsupported,
                     "tts: this build has no espeak-ng engine (built without libespeak-ng's static archive); "
                     "available: " + detail::joinNames(ttsEngines()));
#endif
  }
  return makeError(Errc::not_found,
                   "tts: unknown engine '" + options.engine + "'; available: " + detail::joinNames(ttsEngines()));
}

}  // namespace sotto::speech
