// SPDX-License-Identifier: MIT
// `sotto listen --wav FILE [--json]`: the recognition chain (frontend, wake word, ASR) on a WAV file, fast.
#include <speex/speex_resampler.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "app/common/listener_config.h"
#include "app/common/recognition_setup.h"
#include "app/config/config.h"
#include "app/common/catalogue_path.h"
#include "app/sotto/commands.h"
#include "engine/intents/catalogue.h"
#include "engine/speech/listener.h"
#include "app/common/json_text.h"
#include "hal/audio/wav/wav_format.h"

#ifndef SOTTO_INTENTS_SOURCE_CATALOGUE
#define SOTTO_INTENTS_SOURCE_CATALOGUE ""
#endif

namespace sotto::cli {
namespace {

void listenUsage(FILE* out) {
  std::fprintf(out,
               "Usage: sotto listen --wav FILE [--json] [--config FILE] [--set SETTING=VALUE]... [--catalogue PATH]\n"
               "Runs the capture side of the speech pipeline (noise suppression, voice activity, wake word,\n"
               "ASR with endpointing) on a WAV file as fast as possible and prints its events.\n"
               "\n"
               "  --wav FILE        16-bit PCM WAV; several channels are mixed down, other rates resampled to 16 kHz\n"
               "  --json            one JSON object per line, times in ms of audio:\n"
               "                      {\"event\":\"wake\",\"t_ms\":N}\n"
               "                      {\"event\":\"partial\",\"text\":\"...\",\"t_ms\":N}\n"
               "                      {\"event\":\"final\",\"text\":\"...\",\"t_ms\":N,\"endpoint_delay_ms\":N,\n"
               "                       \"endpoint_by\":\"complete|silence|max-length|end-of-stream\"}\n"
               "                    (complete: a whole command ended its turn early, speech.semantic-endpoint)\n"
               "                    (without --json: the same as text, finals with word confidences)\n"
               "  --config FILE     settings (speech.*, wake.*, asr.*) from FILE. Default: %s when it exists,\n"
               "                    else the built-in defaults\n"
               "  --set S=V         override one setting, e.g. --set wake.threshold=-30 (repeatable)\n"
               "  --catalogue PATH  intent catalogue whose command grammar the ASR uses. Default: %s, or the\n"
               "                    source tree's %s in a developer build\n",
               config::kDefaultPath, intents::kDefaultCataloguePath,
               *SOTTO_INTENTS_SOURCE_CATALOGUE ? SOTTO_INTENTS_SOURCE_CATALOGUE : "(none compiled in)");
}


// The file as 16 kHz mono: channels averaged, other rates through speexdsp's resampler (quality 8).
Result<std::vector<int16_t>> readWav16k(const std::string& path) {
  // The daemon's reader: a regular file of bounded size only, its header checked before its data is read.
  auto read = hal::wav::readWavFile(path);
  if (!read) return std::move(read).error();
  const std::vector<uint8_t>& bytes = *read;
  auto info = hal::wav::parseWav(bytes);
  if (!info.ok()) return makeError(info.error().code, path + ": " + info.error().message);
  const hal::wav::WavInfo w = info.value();
  const size_t frames = w.frames();
  std::vector<int16_t> mono(frames);
  const uint8_t* p = bytes.data() + w.dataOffset;
  for (size_t f = 0; f < frames; ++f) {
    int32_t sum = 0;
    for (size_t c = 0; c < w.channels; ++c) {
      const size_t at = (f * w.channels + c) * 2;
      sum += static_cast<int16_t>(static_cast<uint16_t>(p[at] | (p[at + 1] << 8)));  // little-endian
    }
    mono[f] = static_cast<int16_t>(sum / static_cast<int32_t>(w.channels));
  }
  if (w.rateHz == 16000) return mono;
  int err = 0;
  SpeexResamplerState* rs = speex_resampler_init(1, w.rateHz, 16000, 8, &err);
  if (rs == nullptr) return makeError(Errc::unsupported, path + ": cannot resample from " + std::to_string(w.rateHz));
  std::vector<int16_t> out(frames * 16000 / w.rateHz + 64);
  spx_uint32_t inLen = static_cast<spx_uint32_t>(frames), outLen = static_cast<spx_uint32_t>(out.size());
  speex_resampler_process_int(rs, 0, mono.data(), &inLen, out.data(), &outLen);
  speex_resampler_destroy(rs);
  out.resize(outLen);
  return out;
}

class Printer final : public speech::ListenerEvents {
 public:
  const speech::Listener* listener = nullptr;  // for the hypotheses behind each final (text output)
  // intentNames: catalogue intent index -> name; intents: the catalogue's (whether each changes the device's state,
  // its own clarify-below), empty without a catalogue; clarifyBelow: asr.clarify-below (0 = never ask again).
  Printer(bool json, std::vector<std::string> intentNames, std::vector<intents::IntentSpec> intents,
          float clarifyBelow)
      : json_(json), intentNames_(std::move(intentNames)), intents_(std::move(intents)), clarifyBelow_(clarifyBelow) {}
  void onWake(uint64_t tMs) override {
    if (json_) {
      std::printf("{\"event\":\"wake\",\"t_ms\":%llu}\n", static_cast<unsigned long long>(tMs));
    } else {
      std::printf("%8.2f s  wake\n", tMs / 1000.0);
    }
  }
  void onPartial(std::string_view text, uint64_t tMs) override {
    if (json_) {
      line_ = "{\"event\":\"partial\",\"text\":";
      app::appendJsonString(line_, text);
      std::printf("%s,\"t_ms\":%llu}\n", line_.c_str(), static_cast<unsigned long long>(tMs));
    } else {
      std::printf("%8.2f s  partial  %.*s\n", tMs / 1000.0, static_cast<int>(text.size()), text.data());
    }
  }
  void onFinal(const speech::Transcript& t, uint64_t tMs, uint64_t delayMs) override {
    if (json_) {
      line_ = "{\"event\":\"final\",\"text\":";
      app::appendJsonString(line_, t.text);
      std::printf("%s,\"t_ms\":%llu,\"endpoint_delay_ms\":%llu,\"endpoint_by\":\"%s\"", line_.c_str(),
                  static_cast<unsigned long long>(tMs), static_cast<unsigned long long>(delayMs), endpointBy());
      if (understood()) {
        line_ = ",\"intent\":";
        app::appendJsonString(line_, intentName(t.intent));
        std::printf("%s,\"confidence\":%.3f", line_.c_str(), static_cast<double>(t.confidence));
      }
      std::printf("}\n");
      if (clarify(t)) std::printf("{\"event\":\"clarify\",\"t_ms\":%llu}\n", static_cast<unsigned long long>(tMs));
    } else {
      std::printf("%8.2f s  final    %s  (%.*s search, %.0f per frame, endpoint %llu ms after speech, by %s)\n",
                  tMs / 1000.0, t.text.c_str(), static_cast<int>(t.search.size()), t.search.data(),
                  t.scorePerFrame, static_cast<unsigned long long>(delayMs), endpointBy());
      if (understood()) {
        std::printf("             intent %s, confidence %.2f, of %u hypotheses\n", intentName(t.intent).c_str(),
                    static_cast<double>(t.confidence), t.alternatives);
        for (const speech::Hypothesis& h : listener->lastHypotheses()) {
          std::printf("               %-7s %8.1f/frame %-16s %.2f understood %.2f combined %+.2f%s  %s\n",
                      speech::Recognizer::kSearchNames[h.search], h.scorePerFrame, intentName(h.intent).c_str(),
                      static_cast<double>(h.confidence), static_cast<double>(h.understanding), h.combined,
                      h.eligible ? "" : " (not a command)", h.text.c_str());
        }
      }
      if (clarify(t)) std::printf("%8.2f s  clarify  (would ask: Sorry, could you say that again?)\n", tMs / 1000.0);
      for (const auto& w : t.words) {
        std::printf("             %6.2f-%6.2f s  %-16s %.2f\n", w.startMs / 1000.0, w.endMs / 1000.0, w.text.c_str(),
                    w.confidence);
      }
    }
    std::fflush(stdout);
  }

 private:
  // What ended the utterance: "complete" (a whole command, semantic endpointing), "silence", "max-length", or
  // "end-of-stream" (the file ended first).
  const char* endpointBy() const {
    switch (listener->lastEndpoint()) {
      case speech::Endpointer::Reason::complete: return "complete";
      case speech::Endpointer::Reason::silence: return "silence";
      case speech::Endpointer::Reason::maxLength: return "max-length";
      case speech::Endpointer::Reason::noSpeech:  // no final is reported for it (listenNow windows only)
      case speech::Endpointer::Reason::none: break;
    }
    return "end-of-stream";
  }
  bool understood() const { return !intentNames_.empty(); }
  std::string intentName(int intent) const {
    return intent >= 0 && static_cast<size_t>(intent) < intentNames_.size() ? intentNames_[static_cast<size_t>(intent)]
                                                                             : std::string("none");
  }
  // The speaker would ask again instead of guessing, as the daemon's brain decides it (intents::asksAgain): an
  // unsure reading of a state-changing command or of no command, or a state-changing command whose turn did not
  // end in silence; an unsure query is answered (its answer speaks the assumption).
  bool clarify(const speech::Transcript& t) const {
    if (!understood() || t.text.empty()) return false;
    const intents::IntentSpec* spec =
        t.intent >= 0 && static_cast<size_t>(t.intent) < intents_.size() ? &intents_[t.intent] : nullptr;
    const auto by = listener->lastEndpoint();
    const bool unfinished = by != speech::Endpointer::Reason::complete && by != speech::Endpointer::Reason::silence;
    return intents::asksAgain(spec, t.confidence, clarifyBelow_, true, unfinished);
  }
  bool json_;
  std::vector<std::string> intentNames_;
  std::vector<intents::IntentSpec> intents_;
  float clarifyBelow_;
  std::string line_;
};

}  // namespace

int cmdListen(int argc, char** argv) {
  std::string wav, configPath, catalogue;
  std::vector<std::string> overrides;
  bool json = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const bool hasValue = i + 1 < argc;
    if (a == "-h" || a == "--help") {
      listenUsage(stdout);
      return 0;
    }
    if (a == "--json") {
      json = true;
    } else if (a == "--wav" && hasValue) {
      wav = argv[++i];
    } else if (a == "--config" && hasValue) {
      configPath = argv[++i];
    } else if (a == "--set" && hasValue) {
      overrides.emplace_back(argv[++i]);
    } else if (a == "--catalogue" && hasValue) {
      catalogue = argv[++i];
    } else {
      std::fprintf(stderr, "sotto listen: unexpected argument '%s' (see sotto listen --help)\n", a.c_str());
      return 2;
    }
  }
  if (wav.empty()) {
    std::fprintf(stderr, "sotto listen: --wav FILE is required\n");
    return 2;
  }
  config::LoadResult loaded = config::loadOrDefaults(configPath);
  if (loaded.config && !overrides.empty()) loaded = config::applyOverrides(*loaded.config, overrides);
  if (!loaded.config) {
    for (const auto& p : loaded.problems) std::fprintf(stderr, "sotto listen: %s\n", p.format().c_str());
    return 2;
  }
  const config::Config& c = *loaded.config;

  speech::ListenerConfig lc = app::listenerConfigFrom(c);
  if (catalogue.empty()) {
    catalogue = app::defaultCataloguePath();
  }
  if (!catalogue.empty()) {
    // An explicit catalogue that does not load is an error, as before; the recognizer degrades on the rest.
    if (auto cat = intents::Catalogue::loadFile(catalogue); !cat.ok()) {
      std::fprintf(stderr, "sotto listen: %s\n", cat.error().message.c_str());
      return 1;
    }
  }
  app::RecognitionSetup setup;
  app::prepareRecognition(c, catalogue, lc, setup);
  for (const auto& w : setup.warnings) std::fprintf(stderr, "sotto listen: warning: %s\n", w.c_str());
  auto audio = readWav16k(wav);
  if (!audio.ok()) {
    std::fprintf(stderr, "sotto listen: %s\n", audio.error().message.c_str());
    return 1;
  }
  auto listener = speech::Listener::create(lc);
  if (!listener.ok()) {
    std::fprintf(stderr, "sotto listen: %s\n", listener.error().message.c_str());
    return 1;
  }
  if (!listener.value()->wakeFallbackReason().empty()) {
    std::fprintf(stderr, "sotto listen: warning: %s\n", listener.value()->wakeFallbackReason().c_str());
  }
  if (!listener.value()->asrDegradedReason().empty()) {
    std::fprintf(stderr, "sotto listen: warning: %s\n", listener.value()->asrDegradedReason().c_str());
  }
  if (!listener.value()->stopDegradedReason().empty()) {
    std::fprintf(stderr, "sotto listen: warning: %s\n", listener.value()->stopDegradedReason().c_str());
  }
  Printer printer(json, lc.asr.understander != nullptr ? setup.intentNames : std::vector<std::string>{},
                  setup.matcher ? setup.matcher->catalogue().intents() : std::vector<intents::IntentSpec>{},
                  c.asrClarifyBelow);
  printer.listener = listener.value().get();
  const std::vector<int16_t>& samples = audio.value();
  // Capture-period chunks, as the audio thread hands them over.
  constexpr size_t kChunk = 160;
  for (size_t at = 0; at < samples.size(); at += kChunk) {
    const size_t n = std::min(kChunk, samples.size() - at);
    listener.value()->process(std::span<const int16_t>(samples.data() + at, n), printer);
  }
  listener.value()->flush(printer);
  std::fflush(stdout);
  return 0;
}

}  // namespace sotto::cli
