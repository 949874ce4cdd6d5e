// SPDX-License-Identifier: MIT
// `bench_speech cpu`: CPU time per second of audio of each capture stage (thread CPU clock): the frontend (noise
// suppression, AGC, VAD), the wake word spotter while idle (non-wake speech; a quiet room), the ASR while decoding
// (both searches, and each alone as the breakdown), and the whole Listener.
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "bench/speech/modes.h"
#include "bench/speech/speech_bench.h"

namespace sotto::bench {
namespace {

constexpr double kWakeIdleTarget = 0.15;  // of one core

struct Stage {
  std::string name;
  double cpu = 0, audio = 0, wall = 0;
};

void printStage(const Stage& s, const char* note = "") {
  std::printf("  %-44s %8.4f CPU s per audio s (%5.1f %% of one core; %.1f s audio, %.2f s CPU, %.2f s wall)%s\n",
              s.name.c_str(), s.audio > 0 ? s.cpu / s.audio : 0, s.audio > 0 ? 100 * s.cpu / s.audio : 0, s.audio,
              s.cpu, s.wall, note);
  std::fflush(stdout);
}

// Loads clips from a manifest (column `pathCol`, rows where column `col` equals `value`) up to `seconds` of audio.
Result<std::vector<std::vector<int16_t>>> loadClips(const std::string& manifest, size_t columns, size_t col,
                                                    const std::string& value, double seconds) {
  auto rows = readManifest(manifest, columns);
  if (!rows.ok()) return std::move(rows).error();
  std::vector<std::vector<int16_t>> out;
  double have = 0;
  for (const auto& r : rows.value()) {
    if (have >= seconds) break;
    if (!value.empty() && r[col] != value) continue;
    auto s = readWav16kMono(r[0]);
    if (!s.ok()) return std::move(s).error();
    have += double(s->size()) / 16000.0;
    out.push_back(std::move(s).value());
  }
  return out;
}

// A quiet room: white noise at about -60 dBFS RMS (fixed generator: the same every run).
std::vector<int16_t> quietRoom(double seconds) {
  std::vector<int16_t> s(static_cast<size_t>(seconds * 16000));
  uint32_t x = 12345;
  for (auto& v : s) {
    x = x * 1664525u + 1013904223u;
    v = static_cast<int16_t>(static_cast<int32_t>(x >> 16) % 57 - 28);  // uniform in [-28, 28]: ~16 RMS
  }
  return s;
}

// Runs the frontend over `clips` (in place); returns its stage figures.
Result<Stage> frontendStage(const speech::FrontendConfig& fc, std::vector<std::vector<int16_t>>& clips,
                            const std::string& name) {
  auto fe = speech::Frontend::create(fc);
  if (!fe.ok()) return std::move(fe).error();
  Stage st{name};
  const double w0 = wallSeconds(), c0 = threadCpuSeconds();
  for (auto& clip : clips) {
    for (size_t at = 0; at + 160 <= clip.size(); at += 160)
      fe.value()->process(std::span<int16_t>(clip.data() + at, 160));
    st.audio += double(clip.size() / 160 * 160) / 16000.0;
  }
  st.cpu = threadCpuSeconds() - c0;
  st.wall = wallSeconds() - w0;
  return st;
}

Result<Stage> wakeStage(const speech::WakeConfig& wc, const std::vector<std::vector<int16_t>>& clips,
                        const std::string& name, size_t& detections) {
  auto w = speech::WakeSpotter::create(wc);
  if (!w.ok()) return std::move(w).error();
  Stage st{name};
  uint64_t pos = 0;
  const double w0 = wallSeconds(), c0 = threadCpuSeconds();
  for (const auto& clip : clips) {
    w.value()->start(pos);  // the Listener restarts the spotter in pauses; clips start with one
    for (size_t at = 0; at + 160 <= clip.size(); at += 160) {
      pos += 160;
      if (w.value()->process(std::span<const int16_t>(clip.data() + at, 160))) {
        ++detections;
        w.value()->start(pos);
      }
    }
    st.audio += double(clip.size() / 160 * 160) / 16000.0;
  }
  st.cpu = threadCpuSeconds() - c0;
  st.wall = wallSeconds() - w0;
  return st;
}

Result<Stage> asrStage(const speech::AsrConfig& ac, const std::vector<std::vector<int16_t>>& clips,
                       const std::string& name) {
  auto r = speech::Recognizer::create(ac);
  if (!r.ok()) return std::move(r).error();
  Stage st{name};
  speech::Transcript t;
  const double w0 = wallSeconds(), c0 = threadCpuSeconds();
  for (const auto& clip : clips) {
    if (!r.value()->begin().ok()) return makeError(Errc::internal, "ASR: begin failed");
    for (size_t at = 0; at + 160 <= clip.size(); at += 160)
      r.value()->process(std::span<const int16_t>(clip.data() + at, 160));
    if (!r.value()->finish(t).ok()) return makeError(Errc::internal, "ASR: finish failed");
    st.audio += double(clip.size() / 160 * 160) / 16000.0;
  }
  st.cpu = threadCpuSeconds() - c0;
  st.wall = wallSeconds() - w0;
  return st;
}

class Sink final : public speech::ListenerEvents {
 public:
  void onWake(uint64_t) override {}
  void onPartial(std::string_view, uint64_t) override {}
  void onFinal(const speech::Transcript&, uint64_t, uint64_t) override {}
};

int fail(const Error& e) {
  std::fprintf(stderr, "bench_speech cpu: %s\n", e.message.c_str());
  return 1;
}

}  // namespace

int benchCpu(int argc, char** argv) {
  std::string wakeManifest, asrManifest;
  double seconds = 60;
  SetupOptions so;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (so.parse(argc, argv, i)) continue;
    if (a == "--wake-manifest" && i + 1 < argc) {
      wakeManifest = argv[++i];
    } else if (a == "--asr-manifest" && i + 1 < argc) {
      asrManifest = argv[++i];
    } else if (a == "--seconds" && i + 1 < argc) {
      seconds = std::stod(argv[++i]);
    } else {
      std::fprintf(stderr,
                   "Usage: bench_speech cpu --wake-manifest WAKE.tsv --asr-manifest ASR.tsv [--seconds S]\n"
                   "                        [--config FILE] [--set S=V]... [--catalogue PATH]\n"
                   "  S: seconds of audio per stage (default 60)\n");
      return 2;
    }
  }
  if (wakeManifest.empty() || asrManifest.empty() || !(seconds > 0)) {
    std::fprintf(stderr, "bench_speech cpu: --wake-manifest and --asr-manifest are required\n");
    return 2;
  }
  auto setup = makeSetup(so);
  if (!setup.ok()) return fail(setup.error());
  const speech::ListenerConfig& lc = setup->listener;
  // Non-wake speech (clean): the idle spotter's worst case is a room where people talk or a TV plays.
  auto speechClips = loadClips(wakeManifest, 6, 1, "clean", 1e9);
  if (!speechClips.ok()) return fail(speechClips.error());
  {
    // Keep the non-wake clips only, up to `seconds`.
    auto rows = readManifest(wakeManifest, 6);
    if (!rows.ok()) return fail(rows.error());
    std::vector<std::vector<int16_t>> kept;
    double have = 0;
    size_t k = 0;
    for (const auto& r : rows.value()) {
      if (r[1] != "clean") continue;
      if (r[2] == "other" && have < seconds) {
        have += double(speechClips.value()[k].size()) / 16000.0;
        kept.push_back(std::move(speechClips.value()[k]));
      }
      ++k;
    }
    speechClips.value() = std::move(kept);
  }
  if (speechClips->empty()) return fail(makeError(Errc::corrupt, wakeManifest + ": no clean non-wake clips"));
  auto asrClips = loadClips(asrManifest, 4, 1, "", seconds);
  if (!asrClips.ok()) return fail(asrClips.error());

  printSystemHeader("speech benchmark: CPU per stage");
  std::printf(
      "setup: %s\nthread CPU time (CLOCK_THREAD_CPUTIME_ID) per second of audio, single thread, after a "
      "warm-up pass; wall time alongside\n\n",
      setup->describe.c_str());

  std::vector<std::vector<int16_t>> quiet = {quietRoom(seconds)};
  {
    // Warm-up: page in the models and code (not measured).
    std::vector<std::vector<int16_t>> warm = {std::vector<int16_t>(asrClips.value()[0])};
    size_t d = 0;
    (void)frontendStage(lc.frontend, warm, "warm-up");
    (void)wakeStage(lc.wake, warm, "warm-up", d);
  }
  auto fe1 = frontendStage(lc.frontend, speechClips.value(), "frontend (NS, AGC, VAD) on speech");
  if (!fe1.ok()) return fail(fe1.error());
  auto fe2 = frontendStage(lc.frontend, quiet, "frontend (NS, AGC, VAD) in a quiet room");
  if (!fe2.ok()) return fail(fe2.error());
  size_t speechWakes = 0, quietWakes = 0;
  auto wk1 = wakeStage(lc.wake, speechClips.value(), "wake spotter idle, non-wake speech", speechWakes);
  if (!wk1.ok()) return fail(wk1.error());
  auto wk2 = wakeStage(lc.wake, quiet, "wake spotter idle, quiet room", quietWakes);
  if (!wk2.ok()) return fail(wk2.error());
  std::vector<std::vector<int16_t>> asrProcessed = asrClips.value();
  auto fe3 = frontendStage(lc.frontend, asrProcessed, "frontend on the ASR clips");
  if (!fe3.ok()) return fail(fe3.error());
  auto asrBoth = asrStage(lc.asr, asrProcessed, "ASR decoding, grammar + LM (as configured)");
  if (!asrBoth.ok()) return fail(asrBoth.error());
  speech::AsrConfig lmOnly = lc.asr, grammarOnly = lc.asr;
  lmOnly.grammar.clear();
  grammarOnly.languageModel.clear();
  auto asrLm = asrStage(lmOnly, asrProcessed, "ASR decoding, general LM search alone");
  if (!asrLm.ok()) return fail(asrLm.error());
  Result<Stage> asrGrammar = Stage{};
  if (!grammarOnly.grammar.empty()) {
    asrGrammar = asrStage(grammarOnly, asrProcessed, "ASR decoding, command grammar search alone");
    if (!asrGrammar.ok()) return fail(asrGrammar.error());
  }
  // The whole chain on the ASR clips (wake phrase then request), as `sotto listen` runs it.
  auto l = speech::Listener::create(lc);
  if (!l.ok()) return fail(l.error());
  Stage whole{"Listener (frontend + spotter + ASR), ASR clips"};
  {
    Sink sink;
    const double w0 = wallSeconds(), c0 = threadCpuSeconds();
    for (const auto& clip : asrClips.value()) {
      l.value()->process(clip, sink);
      l.value()->flush(sink);
      whole.audio += double(clip.size()) / 16000.0;
    }
    whole.cpu = threadCpuSeconds() - c0;
    whole.wall = wallSeconds() - w0;
  }

  std::printf("Per stage:\n");
  printStage(fe1.value());
  printStage(fe2.value());
  char note[128];
  std::snprintf(note, sizeof note, "  target < 15 %%: %s; %zu false wakes",
                wk1->audio > 0 && wk1->cpu / wk1->audio < kWakeIdleTarget ? "met" : "MISSED", speechWakes);
  printStage(wk1.value(), note);
  std::snprintf(note, sizeof note, "  target < 15 %%: %s; %zu false wakes",
                wk2->audio > 0 && wk2->cpu / wk2->audio < kWakeIdleTarget ? "met" : "MISSED", quietWakes);
  printStage(wk2.value(), note);
  printStage(asrBoth.value());
  printStage(asrLm.value());
  if (!grammarOnly.grammar.empty()) printStage(asrGrammar.value());
  printStage(whole);
  std::printf(
      "\nBaseline comparison (same run): ASR as configured / general LM search alone = %.2fx CPU; idle "
      "listening (frontend + spotter on speech) = %.1f %% of one core\n",
      asrLm->cpu > 0 ? asrBoth->cpu / asrLm->cpu : 0, 100 * (fe1->cpu / fe1->audio + wk1->cpu / wk1->audio));
  std::printf("load average at end: %s\n", loadAverage().c_str());
  return 0;
}

}  // namespace sotto::bench
