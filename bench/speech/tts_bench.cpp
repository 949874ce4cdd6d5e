// SPDX-License-Identifier: MIT
// Streaming TTS figures per voice: first audio chunk latency from the first token through chunker + TTS +
// resampler (tokens arriving at once, and paced like a model at 25 tokens/s), against the baseline of waiting for
// the whole answer and synthesizing it in one piece; and the real-time factor of synthesis alone and of the stage.
// Usage: tts_bench [RUNS]   (default 15 runs per figure, after one warm-up run)
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "bench/common/sysinfo.h"
#include "engine/speech/tts_stage.h"

namespace sp = sotto::speech;
using Clock = std::chrono::steady_clock;

namespace {

constexpr const char* kAnswer =
    "Sure. Tomorrow will be mostly sunny in Lyon, with a high of 24 degrees and a light breeze from the south, "
    "so it is a good day for a walk by the river. In the evening, clouds may build up, and there is a small "
    "chance of a shower after 9 p.m., e.g. around the old town.";
constexpr uint32_t kSinkRate = 48000;

double ms(Clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); }

// An output that accepts everything at once (a device with room), noting when the first audio came.
class FirstAudio final : public sp::PcmOutput {
 public:
  bool write(std::span<const int16_t> f, const sotto::pipeline::CancelToken&) override {
    if (frames == 0 && !f.empty()) first = Clock::now();
    frames += f.size();
    return true;
  }
  uint32_t rateHz() const override { return kSinkRate; }
  Clock::time_point first{};
  size_t frames = 0;
};

class Discard final : public sp::TtsAudioSink {
 public:
  bool onAudio(std::span<const int16_t> s) override {
    if (frames == 0 && !s.empty()) first = Clock::now();
    frames += s.size();
    return true;
  }
  Clock::time_point first{};
  size_t frames = 0;
};

// LLM-like tokens: a word with its leading space, long words split in pieces of at most 5 bytes.
std::vector<std::string> tokens(const std::string& text) {
  std::vector<std::string> out;
  size_t at = 0;
  while (at < text.size()) {
    size_t end = text.find(' ', at + 1);
    if (end == std::string::npos) end = text.size();
    for (size_t p = at; p < end; p += 5) out.push_back(text.substr(p, std::min<size_t>(5, end - p)));
    at = end;
  }
  return out;
}

struct Stats {
  double p50, p95, mean;
};
Stats stats(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  double sum = 0;
  for (double x : v) sum += x;
  auto at = [&](double p) { return v[std::min(v.size() - 1, static_cast<size_t>(p / 100.0 * v.size()))]; };
  return {at(50), at(95), sum / v.size()};
}

void sleepNs(long ns) {
  timespec ts{0, ns};
  nanosleep(&ts, nullptr);
}

struct Voice {
  const char* engine;
  const char* voice;
};

std::unique_ptr<sp::TtsEngine> engine(const Voice& v) {
  sp::TtsOptions o;
  o.engine = v.engine;
  o.voice = v.voice;
  auto e = sp::createTts(o);
  if (!e) {
    std::fprintf(stderr, "tts_bench: %s\n", e.error().message.c_str());
    std::exit(1);
  }
  return std::move(e).value();
}

}  // namespace

int main(int argc, char** argv) {
  const int runs = argc > 1 ? std::max(1, std::atoi(argv[1])) : 15;
  const auto info = sotto::bench::collectSystemInfo();
  std::printf("cpu: %s (%u online, %u usable)\nkernel: %s\ncompiler: %s\nbuild: %s\nfeatures: %s\n\n",
              info.cpuModel.c_str(), info.onlineCpus, info.usableCpus, info.kernel.c_str(), info.compiler.c_str(),
              info.buildType.c_str(), info.cpuFeatures.c_str());
  const auto toks = tokens(kAnswer);
  std::printf("answer: %zu bytes in %zu tokens; sink %u Hz; %d runs per figure after a warm-up (wall clock)\n\n",
              std::string(kAnswer).size(), toks.size(), kSinkRate, runs);
  std::printf("%-6s %-38s %9s %9s %9s\n", "voice", "figure", "p50", "p95", "mean");

  std::vector<Voice> voices = {{"flite", "slt"}, {"flite", "kal"}, {"flite", "awb"}, {"flite", "rms"}};
#ifdef SOTTO_HAVE_ESPEAK
  voices.push_back({"espeak-ng", "en-us"});
#endif
  for (const Voice& v : voices) {
    const char* voice = v.voice;
    sotto::pipeline::CancelToken cancel;
    std::vector<double> streamFirst, pacedFirst, wholeFirst, synthRtf, stageRtf;
    for (int r = 0; r <= runs; ++r) {
      // Streaming, tokens at once: first token fed -> first resampled audio written.
      FirstAudio out;
      auto stage = sp::TtsStage::create(engine(v), out);
      if (!stage) return 1;
      const auto t0 = Clock::now();
      (*stage)->begin(cancel);
      for (const auto& t : toks) (void)(*stage)->feed(t);
      (void)(*stage)->finish();
      const auto t1 = Clock::now();
      const double audioS = double(out.frames) / kSinkRate;
      // Streaming, tokens paced at 25 tokens/s (40 ms apart) as a local model would produce them.
      FirstAudio paced;
      auto stage2 = sp::TtsStage::create(engine(v), paced);
      if (!stage2) return 1;
      const auto p0 = Clock::now();
      (*stage2)->begin(cancel);
      for (const auto& t : toks) {
        (void)(*stage2)->feed(t);
        if (paced.frames > 0) break;  // first audio is out: the rest does not change the figure
        sleepNs(40'000'000);
      }
      // Baseline: wait for the whole answer, synthesize it in one call, first sample when synthesis ends
      // (the classic non-streaming path: text complete -> wave complete -> play).
      auto whole = engine(v);
      Discard d;
      const auto w0 = Clock::now();
      (void)whole->synthesize(kAnswer, d, cancel);
      const auto w1 = Clock::now();
      const double wholeAudioS = double(d.frames) / whole->rateHz();
      if (r == 0) continue;  // warm-up
      streamFirst.push_back(ms(out.first - t0));
      pacedFirst.push_back(ms(paced.first - p0));
      wholeFirst.push_back(ms(w1 - w0));
      synthRtf.push_back(ms(w1 - w0) / 1000.0 / wholeAudioS);
      stageRtf.push_back(ms(t1 - t0) / 1000.0 / audioS);
    }
    const auto sf = stats(streamFirst), pf = stats(pacedFirst), wf = stats(wholeFirst), sr = stats(synthRtf),
               gr = stats(stageRtf);
    std::printf("%-6s %-38s %7.1fms %7.1fms %7.1fms\n", voice, "first audio, streaming (tokens at once)", sf.p50,
                sf.p95, sf.mean);
    std::printf("%-6s %-38s %7.1fms %7.1fms %7.1fms\n", voice, "first audio, streaming (25 tokens/s)", pf.p50,
                pf.p95, pf.mean);
    std::printf("%-6s %-38s %7.1fms %7.1fms %7.1fms\n", voice, "baseline: whole answer synthesized", wf.p50, wf.p95,
                wf.mean);
    std::printf("%-6s %-38s %9.4f %9.4f %9.4f\n", voice, "RTF synthesis (native rate)", sr.p50, sr.p95, sr.mean);
    std::printf("%-6s %-38s %9.4f %9.4f %9.4f\n", voice, "RTF stage (chunker+TTS+resampler)", gr.p50, gr.p95,
                gr.mean);
    std::printf("%-6s %-38s %8.1fx\n\n", voice, "baseline / streaming first audio", wf.p50 / sf.p50);
  }
  std::printf("target: first audio chunk <= 60 ms after the first token\n");
  return 0;
}
