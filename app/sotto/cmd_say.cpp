// SPDX-License-Identifier: MIT
// `sotto say [--voice V] [-o OUT.wav] TEXT`: the streaming TTS (chunker, synthesizer, resampler) to the sink or a file.
#include <signal.h>
#include <sys/stat.h>
#include <time.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#include "app/common/tts_config.h"
#include "app/config/config.h"
#include "app/sotto/commands.h"
#include "engine/pipeline/health.h"
#include "engine/speech/audio_stage.h"
#include "engine/speech/tts_stage.h"
#include "sotto/hal/audio.h"

namespace sotto::cli {
namespace {

void sayUsage(FILE* out) {
  std::fprintf(out,
               "Usage: sotto say [--voice V] [--engine E] [-o OUT.wav [--rate HZ]] [--config FILE] [--set S=V]...\n"
               "                 TEXT... | -\n"
               "Speaks TEXT (or stdin with -) through the streaming TTS: phrase chunker, synthesizer, resampler, to\n"
               "the configured speaker (audio.playback.*) or to a WAV file.\n"
               "\n"
               "  --voice V       voice (tts.voice); flite: slt, kal, awb, rms\n"
               "  --engine E      synthesizer (tts.engine): flite or espeak-ng\n"
               "  -o OUT.wav      write 16-bit mono WAV instead of playing; at the voice's own rate unless --rate\n"
               "  --rate HZ       sample rate of OUT.wav (resampled)\n"
               "  --config FILE   settings (tts.*, audio.playback.*) from FILE. Default: %s when it exists\n"
               "  --set S=V       override one setting, e.g. --set tts.rate=120 (repeatable)\n"
               "  --list-voices   print the voices of the engine and exit\n",
               config::kDefaultPath);
}

pipeline::CancelToken gCancel;
void onSignal(int) { gCancel.cancel(); }  // atomic store: async-signal-safe

// -o: the wav backend's sink, written directly from this thread (no audio thread: a file never underruns).
class SinkOutput final : public speech::PcmOutput {
 public:
  explicit SinkOutput(hal::AudioSink& sink) : sink_(sink) {}
  bool write(std::span<const int16_t> frames, const pipeline::CancelToken& cancel) override {
    if (cancel.cancelled()) return false;
    auto n = sink_.write(frames);
    if (!n.ok()) {
      error_ = n.error().message;
      return false;
    }
    return true;
  }
  uint32_t rateHz() const override { return sink_.format().rateHz; }
  const std::string& error() const { return error_; }

 private:
  hal::AudioSink& sink_;
  std::string error_;
};

int report(const speech::TtsStage& stage, uint32_t rateHz) {
  const auto& s = stage.stats();
  if (s.cancelled) {
    std::fprintf(stderr, "sotto say: interrupted\n");
    return 1;
  }
  std::printf("sotto say: %llu phrase(s), %.2f s of audio at %u Hz (%s %s), first audio %.1f ms after the text\n",
              static_cast<unsigned long long>(s.phrases), static_cast<double>(s.framesOut) / rateHz, rateHz,
              stage.engine().engine().c_str(), stage.engine().voice().c_str(),
              s.firstAudioNs < 0 ? -1.0 : (s.firstAudioNs - s.firstTextNs) / 1e6);
  return 0;
}

}  // namespace

int cmdSay(int argc, char** argv) {
  std::string configPath, outPath, voice, engine, text;
  std::vector<std::string> overrides;
  uint32_t outRate = 0;
  bool listVoices = false, haveText = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const bool hasValue = i + 1 < argc;
    if (a == "-h" || a == "--help") {
      sayUsage(stdout);
      return 0;
    }
    if (a == "--list-voices") {
      listVoices = true;
    } else if (a == "--voice" && hasValue) {
      voice = argv[++i];
    } else if (a == "--engine" && hasValue) {
      engine = argv[++i];
    } else if (a == "-o" && hasValue) {
      outPath = argv[++i];
    } else if (a == "--rate" && hasValue) {
      char* end = nullptr;
      const unsigned long r = std::strtoul(argv[++i], &end, 10);
      if (end == argv[i] || *end != '\0' || r < 8000 || r > 192000) {
        std::fprintf(stderr, "sotto say: --rate wants a rate in Hz between 8000 and 192000, not '%s'\n", argv[i]);
        return 2;
      }
      outRate = static_cast<uint32_t>(r);
    } else if (a == "--config" && hasValue) {
      configPath = argv[++i];
    } else if (a == "--set" && hasValue) {
      overrides.emplace_back(argv[++i]);
    } else if (a == "-") {
      text.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
      haveText = true;
    } else if (!a.empty() && a[0] == '-' && !haveText) {
      std::fprintf(stderr, "sotto say: unexpected argument '%s' (see sotto say --help)\n", a.c_str());
      return 2;
    } else {
      if (!text.empty()) text += ' ';
      text += a;
      haveText = true;
    }
  }
  config::LoadResult loaded = config::loadOrDefaults(configPath);
  if (loaded.config && !overrides.empty()) loaded = config::applyOverrides(*loaded.config, overrides);
  if (!loaded.config) {
    for (const auto& p : loaded.problems) std::fprintf(stderr, "sotto say: %s\n", p.format().c_str());
    return 2;
  }
  const config::Config& c = *loaded.config;
  speech::TtsOptions opts = app::ttsOptionsFrom(c);
  if (!engine.empty()) opts.engine = engine;
  if (!voice.empty()) opts.voice = voice;
  if (listVoices) {
    const auto voices = speech::ttsVoices(opts.engine);
    if (voices.empty()) {
      std::fprintf(stderr, "sotto say: no voices for engine '%s' in this build\n", opts.engine.c_str());
      return 1;
    }
    for (const auto& v : voices) std::printf("%s\n", v.c_str());
    return 0;
  }
  if (!haveText || text.find_first_not_of(" \t\r\n") == std::string::npos) {
    std::fprintf(stderr, "sotto say: nothing to say (give TEXT, or - for stdin)\n");
    return 2;
  }
  if (outRate != 0 && outPath.empty()) {
    std::fprintf(stderr, "sotto say: --rate applies to -o OUT.wav (the speaker's rate is audio.playback.rate)\n");
    return 2;
  }
  auto tts = speech::createTts(opts);
  if (!tts) {
    std::fprintf(stderr, "sotto say: %s\n", tts.error().message.c_str());
    return 1;
  }
  signal(SIGINT, onSignal);
  signal(SIGTERM, onSignal);

  if (!outPath.empty()) {
    const uint32_t rate = outRate != 0 ? outRate : (*tts)->rateHz();
    auto sink = hal::AudioRegistry::instance().openSink(hal::AudioSpec{"wav", outPath + "?fast", rate, 10, 4});
    if (!sink) {
      std::fprintf(stderr, "sotto say: %s\n", sink.error().message.c_str());
      return 1;
    }
    if (Status s = (*sink)->start(); !s) {
      std::fprintf(stderr, "sotto say: %s\n", s.error().message.c_str());
      return 1;
    }
    SinkOutput out(**sink);
    auto stage = speech::TtsStage::create(std::move(tts).value(), out);
    if (!stage) {
      std::fprintf(stderr, "sotto say: %s\n", stage.error().message.c_str());
      return 1;
    }
    Status said = (*stage)->speak(text, gCancel);
    if (!out.error().empty()) {
      std::fprintf(stderr, "sotto say: %s\n", out.error().c_str());
      return 1;  // the sink discards its partial file on stop
    }
    if (!said) {
      std::fprintf(stderr, "sotto say: %s\n", said.error().message.c_str());
      return 1;
    }
    if (gCancel.cancelled()) {
      std::fprintf(stderr, "sotto say: interrupted, %s not written\n", outPath.c_str());
      return 1;  // destroying the unstopped sink removes the partial file
    }
    if (Status s = (*sink)->stop(); !s) {
      std::fprintf(stderr, "sotto say: %s\n", s.error().message.c_str());
      return 1;
    }
    return report(**stage, rate);
  }

  // The speaker: the audio thread pops periods from the playback ring, the TTS (this thread) fills it.
  const auto& p = c.playback;
  auto sink = hal::AudioRegistry::instance().openSink(hal::AudioSpec{p.backend, p.device, p.rateHz, p.periodMs,
                                                                     p.periods});
  if (!sink) {
    std::fprintf(stderr, "sotto say: %s\n", sink.error().message.c_str());
    return 1;
  }
  const uint32_t rate = (*sink)->format().rateHz;
  size_t ringFrames = 1;
  while (ringFrames < rate / 2) ringFrames <<= 1;  // 0.5 s or more; RingOutput keeps only ~100 ms queued
  auto audio = speech::AudioStage::create(nullptr, std::move(sink).value(), 1, ringFrames);
  if (!audio) {
    std::fprintf(stderr, "sotto say: %s\n", audio.error().message.c_str());
    return 1;
  }
  speech::AudioStage& stageAudio = **audio;
  // The writer and the drain below sleep on the audio thread's pops; a Ctrl-C wakes them (wakeOnCancel).
  pipeline::Wakeup& popped = stageAudio.playbackWakeup();
  gCancel.wakeOnCancel(&popped);
  speech::RingOutput out(stageAudio.playbackRing(), rate, 100, &popped);
  auto stage = speech::TtsStage::create(std::move(tts).value(), out);
  if (!stage) {
    std::fprintf(stderr, "sotto say: %s\n", stage.error().message.c_str());
    return 1;
  }
  if (Status s = stageAudio.start(); !s) {
    std::fprintf(stderr, "sotto say: %s\n", s.error().message.c_str());
    return 1;
  }
  std::atomic<bool> stop{false}, failed{false};
  pipeline::Heartbeat beat;
  std::thread audioThread([&] { failed = !stageAudio.run(stop, beat); });
  Status said = (*stage)->speak(text, gCancel);
  // Let the speaker play what is queued (ring, then the device buffer) unless interrupted. The waits are bounded:
  // an audio thread that failed notifies no more.
  while (!gCancel.cancelled() && !failed) {
    const uint32_t ticket = popped.prepare();
    if (stageAudio.playbackRing().size() == 0) break;
    popped.wait(ticket, 100 * 1000000LL);
  }
  const auto drained = std::chrono::steady_clock::now() +
                       std::chrono::milliseconds(static_cast<long>(p.periodMs) * p.periods + 20);
  while (!gCancel.cancelled() && !failed && std::chrono::steady_clock::now() < drained) {
    const uint32_t ticket = popped.prepare();
    const auto left = std::chrono::duration_cast<std::chrono::nanoseconds>(drained - std::chrono::steady_clock::now());
    if (gCancel.cancelled() || left.count() <= 0) break;
    popped.wait(ticket, left.count());  // a cancel cuts the device's last periods short
  }
  stop = true;
  audioThread.join();
  stageAudio.stopDevices();
  if (!said) {
    std::fprintf(stderr, "sotto say: %s\n", said.error().message.c_str());
    return 1;
  }
  if (failed) {
    std::fprintf(stderr, "sotto say: the playback device %s kept failing\n", stageAudio.sink()->name().c_str());
    return 1;
  }
  return report(**stage, rate);
}

}  // namespace sotto::cli
