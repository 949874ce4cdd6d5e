// SPDX-License-Identifier: MIT
// Echo cancellation bench: echo return loss enhancement (ERLE) on device speech and on device + user speech, the
// canceller's cost per period on the audio thread, and self-wakes: the device's own TTS saying the wake phrase
// through the speaker -> room -> microphone path, counted with echo cancellation on and off (the baseline, same
// run). Speech is generated at run time with flite and sox.
//
// Usage: aec_bench [repetitions per phrase, default 2]
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "bench/common/sysinfo.h"
#include "engine/intents/catalogue.h"
#include "engine/speech/echo_canceller.h"
#include "engine/speech/listener.h"
#include "hal/audio/wav/wav_format.h"

using namespace sotto;

namespace {

constexpr size_t kFrame = 160;  // 10 ms at 16 kHz
std::string gDir;

bool sh(const std::string& cmd) { return std::system((cmd + " >/dev/null 2>&1").c_str()) == 0; }

// flite voice `voice` saying `text` at `stretch` (duration: > 1 slower), as 16 kHz mono samples.
std::vector<int16_t> tts(const std::string& voice, const std::string& text, double stretch = 1.0) {
  const std::string raw = gDir + "/tts.wav", out = gDir + "/tts16.wav";
  char st[32];
  std::snprintf(st, sizeof st, "%.2f", stretch);
  if (!sh("flite -voice " + voice + " --setf duration_stretch=" + st + " -t \"" + text + "\" -o '" + raw + "'") ||
      !sh("sox '" + raw + "' -r 16000 -c 1 -b 16 '" + out + "'")) {
    return {};
  }
  std::ifstream in(out, std::ios::binary);
  const std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto info = hal::wav::parseWav(bytes);
  if (!info.ok()) return {};
  std::vector<int16_t> s(info.value().frames());
  const uint8_t* p = bytes.data() + info.value().dataOffset;
  for (size_t i = 0; i < s.size(); ++i) s[i] = static_cast<int16_t>(static_cast<uint16_t>(p[2 * i] | (p[2 * i + 1] << 8)));
  return s;
}

void append(std::vector<int16_t>& to, const std::vector<int16_t>& s, double seconds_silence_after) {
  to.insert(to.end(), s.begin(), s.end());
  to.insert(to.end(), static_cast<size_t>(seconds_silence_after * 16000), int16_t{0});
}

// The room: direct path `delay` samples late at `gain`, two reflections; plus a noise floor near -60 dBFS.
std::vector<int16_t> room(const std::vector<int16_t>& x, size_t delay, double gain) {
  std::vector<int16_t> y(x.size());
  uint32_t seed = 7;
  for (size_t n = 0; n < x.size(); ++n) {
    double v = 0;
    if (n >= delay) v += gain * x[n - delay];
    if (n >= delay + 53) v += 0.4 * gain * x[n - delay - 53];
    if (n >= delay + 310) v += -0.2 * gain * x[n - delay - 310];
    seed = seed * 1664525u + 1013904223u;
    v += static_cast<int32_t>(seed >> 16) % 64 - 32;
    y[n] = static_cast<int16_t>(std::clamp(v, -32768.0, 32767.0));
  }
  return y;
}

double energy(const std::vector<int16_t>& s, size_t from, size_t to) {
  double e = 0;
  for (size_t i = from; i < std::min(to, s.size()); ++i) e += double(s[i]) * s[i];
  return e;
}

struct Cancelled {
  std::vector<int16_t> out;
  double usPerPeriod = 0;
};

// Runs the canceller as the audio thread does (played period, then captured period).
Cancelled cancel(const std::vector<int16_t>& ref, const std::vector<int16_t>& mic, uint32_t tailMs) {
  speech::EchoConfig cfg;
  cfg.tailMs = tailMs;
  auto ec = speech::EchoCanceller::create(cfg);
  Cancelled c;
  if (!ec.ok()) return c;
  c.out = mic;
  const size_t periods = mic.size() / kFrame;
  std::vector<int16_t> played(kFrame);
  const auto t0 = std::chrono::steady_clock::now();
  for (size_t p = 0; p < periods; ++p) {
    for (size_t i = 0; i < kFrame; ++i) played[i] = p * kFrame + i < ref.size() ? ref[p * kFrame + i] : 0;
    (*ec)->played(played);
    (*ec)->process(std::span<int16_t>(c.out.data() + p * kFrame, kFrame));
  }
  const double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
  c.usPerPeriod = periods ? us / static_cast<double>(periods) : 0;
  return c;
}

// ERLE in dB over the stretches where the reference is loud (10 ms frames above -40 dBFS), after the first second.
double erle(const std::vector<int16_t>& ref, const std::vector<int16_t>& mic, const std::vector<int16_t>& out,
            size_t until) {
  double in = 0, left = 0;
  for (size_t f = 100; (f + 1) * kFrame <= std::min(until, ref.size()); ++f) {
    if (10 * std::log10(energy(ref, f * kFrame, (f + 1) * kFrame) / kFrame / (32768.0 * 32768.0) + 1e-12) < -40) {
      continue;
    }
    in += energy(mic, f * kFrame, (f + 1) * kFrame);
    left += energy(out, f * kFrame, (f + 1) * kFrame);
  }
  return left > 0 ? 10 * std::log10(in / left) : 0;
}

class WakeCounter final : public speech::ListenerEvents {
 public:
  void onWake(uint64_t) override { ++wakes; }
  void onPartial(std::string_view, uint64_t) override {}
  void onFinal(const speech::Transcript&, uint64_t, uint64_t) override {}
  int wakes = 0;
};

int countWakes(const speech::ListenerConfig& lc, const std::vector<int16_t>& audio) {
  auto l = speech::Listener::create(lc);
  if (!l.ok()) {
    std::fprintf(stderr, "aec_bench: %s\n", l.error().message.c_str());
    return -1;
  }
  WakeCounter w;
  for (size_t at = 0; at < audio.size(); at += kFrame) {
    (*l)->process(std::span<const int16_t>(audio.data() + at, std::min(kFrame, audio.size() - at)), w);
  }
  (*l)->flush(w);
  return w.wakes;
}

}  // namespace

int main(int argc, char** argv) {
  const int reps = argc > 1 ? std::max(1, std::atoi(argv[1])) : 2;
  if (!sh("command -v flite") || !sh("command -v sox")) {
    std::fprintf(stderr, "aec_bench: flite and sox are needed (toolchain/install-deps.sh)\n");
    return 1;
  }
  char tmpl[] = "/tmp/aec-bench-XXXXXX";
  if (mkdtemp(tmpl) == nullptr) return 1;
  gDir = tmpl;
  const auto info = bench::collectSystemInfo();
  std::printf("cpu: %s (%u online, %u usable)\nkernel: %s\ncompiler: %s\nbuild: %s\nfeatures: %s\n\n",
              info.cpuModel.c_str(), info.onlineCpus, info.usableCpus, info.kernel.c_str(), info.compiler.c_str(),
              info.buildType.c_str(), info.cpuFeatures.c_str());

  // 1. ERLE on device speech alone and with the user talking over it (double talk), per tail length.
  const auto device = tts("kal", "Here is the forecast for the rest of the week. Monday will be mostly sunny with a "
                                 "high of seventy two degrees, Tuesday brings clouds and light rain in the "
                                 "afternoon, and Wednesday should be dry and windy.");
  const auto user = tts("slt", "what time is it in tokyo right now");
  if (device.empty() || user.empty()) {
    std::fprintf(stderr, "aec_bench: speech generation failed\n");
    return 1;
  }
  const auto echo = room(device, 384, 0.6);
  std::vector<int16_t> mix = echo;
  const size_t userAt = 4 * 16000;
  for (size_t i = 0; i < user.size() && userAt + i < mix.size(); ++i) {
    mix[userAt + i] = static_cast<int16_t>(std::clamp(double(mix[userAt + i]) + user[i], -32768.0, 32767.0));
  }
  std::printf("ERLE (echo return loss enhancement), %.1f s of device speech (flite kal) through a simulated room; "
              "baseline = no echo cancellation (0 dB by definition), same run\n", device.size() / 16000.0);
  std::printf("%-10s %-22s %-28s %s\n", "tail", "ERLE device only", "ERLE before the user talks", "AEC cost per 10 ms");
  for (uint32_t tail : {64u, 128u, 256u}) {
    const auto a = cancel(device, echo, tail);
    const auto b = cancel(device, mix, tail);
    std::printf("%4u ms    %6.1f dB              %6.1f dB                    %6.1f us (%.2f %% of the period)\n", tail,
                erle(device, echo, a.out, echo.size()), erle(device, mix, b.out, userAt), a.usPerPeriod,
                a.usPerPeriod / 100.0);
  }
  const auto none = erle(device, echo, echo, echo.size());
  std::printf("baseline   %6.1f dB (no cancellation)\n\n", none);

  // 2. Self-wakes: the device's own TTS says the wake phrase (alone and in sentences, two voices that the spotter
  // does hear, two speaking rates); its echo reaches the microphone. One continuous stream, as a device that keeps
  // talking: the canceller is converged on what came before.
  const char* phrases[] = {"hey computer", "you can always say hey computer to wake me up",
                           "hey computer is the phrase that wakes me"};
  std::vector<int16_t> stream;
  int said = 0;
  const auto intro = tts("slt", "Sure. Here is something you might like to know before we start.");
  append(stream, intro, 0.3);
  for (int r = 0; r < reps; ++r) {
    for (const char* voice : {"slt", "rms"}) {
      for (const char* phrase : phrases) {
        auto s = tts(voice, phrase, r % 2 == 0 ? 1.0 : 1.15);
        if (s.empty()) return 1;
        append(stream, s, 0.6);
        ++said;
      }
    }
  }
  const auto streamEcho = room(stream, 384, 0.6);
  const auto streamOut = cancel(stream, streamEcho, 128);
  speech::ListenerConfig lc;
  const std::string model = "/usr/share/pocketsphinx/model/en-us/";
  lc.wake.acousticModel = lc.asr.acousticModel = model + "en-us";
  lc.wake.dictionary = lc.asr.dictionary = model + "cmudict-en-us.dict";
  auto cat = intents::Catalogue::loadFile(std::string(SOTTO_SOURCE_DIR) + "/config/intents.xml");
  if (!cat.ok()) {
    std::fprintf(stderr, "aec_bench: %s\n", cat.error().message.c_str());
    return 1;
  }
  lc.asr.grammar = cat.value().grammar();
  const int direct = countWakes(lc, stream);
  const int off = countWakes(lc, streamEcho);
  const int on = countWakes(lc, streamOut.out);
  std::printf("self-wakes: the device says the wake phrase %d times (%.1f s of speech, wake threshold 1e%d)\n", said,
              stream.size() / 16000.0, lc.wake.thresholdExponent);
  std::printf("  heard directly (no room, sanity check of the phrase) %3d of %d\n", direct, said);
  std::printf("  through the room, AEC off (baseline)                  %3d of %d\n", off, said);
  std::printf("  through the room, AEC on                              %3d of %d  (ERLE on this stream %.1f dB)\n", on,
              said, erle(stream, streamEcho, streamOut.out, stream.size()));
  if (off > 0) std::printf("  self-wakes with AEC / without: %.2f\n", static_cast<double>(on) / off);
  sh("rm -rf '" + gDir + "'");
  return 0;
}
