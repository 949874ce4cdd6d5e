// SPDX-License-Identifier: MIT
// espeak-ng backend: synchronous synthesis through its callback; voices and phoneme data from espeak-ng-data.
#include <espeak-ng/espeak_ng.h>
#include <espeak-ng/speak_lib.h>
#include <sys/stat.h>

#include <algorithm>
#include <mutex>
#include <set>

#include "engine/speech/tts_backends.h"

namespace sotto::speech::detail {
namespace {

// espeak-ng is one process-wide synthesizer (global voice, parameters and callback): initialized once, every use
// serialized, each synthesis sets its own voice and rate first.
std::mutex& espeakMutex() {
  static std::mutex m;
  return m;
}

struct EspeakState {
  bool ready = false;
  std::string error;
  std::string dataDir;
  uint32_t rateHz = 0;
};

bool isFile(const std::string& path) {
  struct stat st{};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

std::string statusMessage(espeak_ng_STATUS s) {
  char buf[256];
  espeak_ng_GetStatusCodeMessage(s, buf, sizeof buf);
  return buf;
}

int onSynth(short* wav, int numSamples, espeak_EVENT* events);

// Call with espeakMutex held. The data directory of the first successful initialization stays for the process.
const EspeakState& initialize(const std::string& dataDir) {
  static EspeakState state;
  if (state.ready) return state;
  // espeak-ng silently falls back to its compiled-in directory when the one given has no data: check it here.
  if (!dataDir.empty() && !isFile(dataDir + "/phontab")) {
    state.error = "tts: espeak-ng cannot run: tts.espeak-data " + dataDir +
                  " holds no espeak-ng data (no phontab); install espeak-ng-data or fix the setting";
    return state;
  }
  espeak_ng_InitializePath(dataDir.empty() ? nullptr : dataDir.c_str());
  const char* path = nullptr;
  espeak_Info(&path);
  state.dataDir = path != nullptr ? path : "(unknown)";
  // Checked before espeak_ng_Initialize, whose own message for missing data is only "No such file or directory".
  if (!isFile(state.dataDir + "/phontab")) {
    state.error = "tts: espeak-ng cannot run: its data is missing (no " + state.dataDir +
                  "/phontab); install espeak-ng-data for this architecture or set tts.espeak-data";
    return state;
  }
  espeak_ng_ERROR_CONTEXT ctx = nullptr;
  espeak_ng_STATUS s = espeak_ng_Initialize(&ctx);
  espeak_ng_ClearErrorContext(&ctx);
  if (s == ENS_OK) s = espeak_ng_InitializeOutput(ENOUTPUT_MODE_SYNCHRONOUS, 20, nullptr);  // 20 ms callbacks
  if (s != ENS_OK) {
    state.error = "tts: espeak-ng failed to start with data " + state.dataDir + ": " + statusMessage(s);
    return state;
  }
  espeak_SetSynthCallback(&onSynth);
  state.rateHz = static_cast<uint32_t>(espeak_ng_GetSampleRate());
  state.error.clear();
  state.ready = true;
  return state;
}

// Language names of the installed voices ("en-us", "de", ...): what tts.voice accepts. espeakMutex held.
std::vector<std::string> voiceNames() {
  std::set<std::string> names;
  const espeak_VOICE** voices = espeak_ListVoices(nullptr);
  for (size_t i = 0; voices != nullptr && voices[i] != nullptr; ++i) {
    // languages: pairs of one priority byte and a NUL-terminated name, ended by an empty name.
    for (const char* p = voices[i]->languages; p != nullptr && *p != '\0';) {
      ++p;
      names.emplace(p);
      p += std::char_traits<char>::length(p) + 1;
    }
  }
  return {names.begin(), names.end()};
}

class EspeakTts final : public TtsEngine {
 public:
  EspeakTts(std::string voice, uint32_t rateHz, const TtsOptions& o)
      : TtsEngine("espeak-ng", std::move(voice), rateHz, o.volumePercent),
        wpm_(static_cast<int>(espeakRATE_NORMAL * o.ratePercent / 100)) {}

  bool forward(const short* wav, int n) {
    const bool more = deliver(std::span<const int16_t>(wav, static_cast<size_t>(n)));
    aborted_ = aborted_ || !more;
    return more;
  }

 protected:
  Status doSynthesize(const std::string& text) override {
    std::lock_guard<std::mutex> lock(espeakMutex());
    aborted_ = false;
    espeak_ng_STATUS s = espeak_ng_SetVoiceByName(voice().c_str());
    if (s == ENS_OK) s = espeak_ng_SetParameter(espeakRATE, std::clamp(wpm_, 80, 450), 0);
    if (s == ENS_OK) {
      s = espeak_ng_Synthesize(text.c_str(), text.size() + 1, 0, POS_CHARACTER, 0, espeakCHARS_UTF8, nullptr, this);
    }
    // Stopping it from the callback (cancel) makes espeak-ng report an error status: that is not a failure.
    if (s != ENS_OK && !aborted_) {
      return makeError(Errc::internal, "tts: espeak-ng could not synthesize: " + statusMessage(s));
    }
    return {};
  }

 private:
  int wpm_;
  bool aborted_ = false;
};

int onSynth(short* wav, int numSamples, espeak_EVENT* events) {
  if (wav == nullptr || numSamples <= 0 || events == nullptr) return 0;
  auto* self = static_cast<EspeakTts*>(events->user_data);
  if (self == nullptr) return 0;
  return self->forward(wav, numSamples) ? 0 : 1;  // 1 aborts the synthesis
}

}  // namespace

std::vector<std::string> espeakVoices() {
  std::lock_guard<std::mutex> lock(espeakMutex());
  if (!initialize("").ready) return {};
  return voiceNames();
}

Result<std::unique_ptr<TtsEngine>> createEspeak(const TtsOptions& options) {
  std::lock_guard<std::mutex> lock(espeakMutex());
  const EspeakState& st = initialize(options.espeakDataDir);
  if (!st.ready) return makeError(Errc::unsupported, st.error);
  if (!options.espeakDataDir.empty() && options.espeakDataDir != st.dataDir) {
    return makeError(Errc::busy, "tts: espeak-ng already runs with data " + st.dataDir + ", not " +
                                     options.espeakDataDir + " (one data directory per process)");
  }
  const std::string voice = options.voice.empty() ? "en-us" : options.voice;
  // espeak-ng accepts unknown names (it keeps its previous voice): check against the installed languages.
  const auto names = voiceNames();
  if (std::find(names.begin(), names.end(), voice) == names.end() ||
      espeak_ng_SetVoiceByName(voice.c_str()) != ENS_OK) {
    return makeError(Errc::not_found,
                     "tts: espeak-ng has no voice '" + voice + "'; available: " + joinNames(names));
  }
  return std::unique_ptr<TtsEngine>(new EspeakTts(voice, st.rateHz, options));
}

}  // namespace sotto::speech::detail
