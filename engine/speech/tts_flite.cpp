// SPDX-License-Identifier: MIT
// flite backend: the four US English voices compiled in statically, audio streamed out of flite's synthesis.
#include <flite.h>

#include <algorithm>
#include <mutex>

#include "engine/speech/tts_backends.h"

extern "C" {
cst_voice* register_cmu_us_slt(const char* voxdir);
cst_voice* register_cmu_us_kal(const char* voxdir);
cst_voice* register_cmu_us_awb(const char* voxdir);
cst_voice* register_cmu_us_rms(const char* voxdir);
}

namespace sotto::speech::detail {
namespace {

struct VoiceEntry {
  const char* name;
  cst_voice* (*reg)(const char*);
};
// slt first: the default voice.
constexpr VoiceEntry kVoices[] = {
    {"slt", &register_cmu_us_slt},
    {"kal", &register_cmu_us_kal},
    {"awb", &register_cmu_us_awb},
    {"rms", &register_cmu_us_rms},
};

// flite keeps process-wide state (the registered voices, lexicon caches): voices are registered once and every
// synthesis is serialized. Two TTS threads would take turns; the daemon has one.
std::mutex& fliteMutex() {
  static std::mutex m;
  return m;
}

cst_voice* voiceNamed(std::string_view name) {
  static std::once_flag init;
  std::call_once(init, [] { flite_init(); });
  static cst_voice* loaded[std::size(kVoices)] = {};
  for (size_t i = 0; i < std::size(kVoices); ++i) {
    if (name != kVoices[i].name) continue;
    if (loaded[i] == nullptr) loaded[i] = kVoices[i].reg(nullptr);
    return loaded[i];
  }
  return nullptr;
}

class FliteTts final : public TtsEngine {
 public:
  FliteTts(std::string voiceName, cst_voice* voice, uint32_t rateHz, const TtsOptions& o)
      : TtsEngine("flite", std::move(voiceName), rateHz, o.volumePercent),
        voice_(voice),
        durationStretch_(100.0f / static_cast<float>(o.ratePercent)) {}

  // Synthesizes a short word once: learns the voice's sample rate and warms flite's caches, so the first real
  // phrase does not pay for them.
  static Result<uint32_t> probeRate(cst_voice* voice) {
    cst_wave* w = flite_text_to_wave("ok", voice);
    if (w == nullptr || w->sample_rate <= 0) {
      if (w != nullptr) delete_wave(w);
      return makeError(Errc::internal, "tts: flite produced no audio while loading the voice");
    }
    const auto rate = static_cast<uint32_t>(w->sample_rate);
    delete_wave(w);
    return rate;
  }

 protected:
  Status doSynthesize(const std::string& text) override {
    std::lock_guard<std::mutex> lock(fliteMutex());
    cst_utterance* u = new_utterance();
    utt_set_input_text(u, text.c_str());
    utt_init(u, voice_);
    // Per utterance (not on the shared voice): the rate and our streaming callback, which flite calls with each
    // piece of waveform as the resynthesis produces it. The utterance owns (and frees) the streaming info.
    feat_set_float(u->features, "duration_stretch", durationStretch_);
    cst_audio_streaming_info* asi = new_audio_streaming_info();
    asi->min_buffsize = static_cast<int>(kMaxChunkFrames);
    asi->asc = &FliteTts::onChunk;
    asi->userdata = this;
    feat_set(u->features, "streaming_info", audio_streaming_info_val(asi));
    streamed_ = 0;
    const bool ok = utt_synth(u) != nullptr;
    // Voices whose waveform step does not stream hand over the whole wave at the end.
    if (ok && streamed_ == 0) {
      if (const cst_wave* w = utt_wave(u); w != nullptr && w->num_samples > 0) {
        deliver(std::span<const int16_t>(w->samples, static_cast<size_t>(w->num_samples)));
      }
    }
    delete_utterance(u);
    if (!ok) return makeError(Errc::internal, "tts: flite could not synthesize the text");
    return {};
  }

 private:
  static int onChunk(const cst_wave* w, int start, int size, int /*last*/, cst_audio_streaming_info* asi) {
    auto* self = static_cast<FliteTts*>(asi->userdata);
    if (size <= 0) return CST_AUDIO_STREAM_CONT;
    self->streamed_ += static_cast<size_t>(size);
    const bool more = self->deliver(std::span<const int16_t>(w->samples + start, static_cast<size_t>(size)));
    return more ? CST_AUDIO_STREAM_CONT : CST_AUDIO_STREAM_STOP;
  }

  cst_voice* voice_;
  float durationStretch_;
  size_t streamed_ = 0;
};

}  // namespace

std::vector<std::string> fliteVoices() {
  std::vector<std::string> v;
  for (const auto& e : kVoices) v.emplace_back(e.name);
  return v;
}

Result<std::unique_ptr<TtsEngine>> createFlite(const TtsOptions& options) {
  std::string name = options.voice.empty() ? kVoices[0].name : options.voice;
  // Accept flite's full names too (cmu_us_slt).
  if (name.rfind("cmu_us_", 0) == 0) name = name.substr(7);
  std::lock_guard<std::mutex> lock(fliteMutex());
  cst_voice* voice = voiceNamed(name);
  if (voice == nullptr) {
    return makeError(Errc::not_found,
                     "tts: flite has no voice '" + options.voice + "'; available: " + joinNames(fliteVoices()));
  }
  auto rate = FliteTts::probeRate(voice);
  if (!rate) return std::move(rate).error();
  return std::unique_ptr<TtsEngine>(new FliteTts(name, voice, *rate, options));
}

}  // namespace sotto::speech::detail
