// SPDX-License-Identifier: MIT
// `bench_speech asr`: word error rate per category (commands, open questions) and partial/final latency after the
// end of speech, through the Listener that `sotto listen` runs; the same set without the command grammar (general
// LM only) is the baseline measured in the same run.
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "bench/speech/modes.h"
#include "bench/speech/speech_bench.h"
#include "bench/speech/wer.h"

namespace sotto::bench {
namespace {

struct Item {
  std::string path, category, voice, reference;
  std::vector<int16_t> samples;
  uint64_t speechEndMs = 0;
};

// Ground truth end of speech: the end of the last 10 ms frame louder than -40 dBFS in the clean clip (the rule of
// tests/speech/speech_fixtures.h).
uint64_t speechEndMs(const std::vector<int16_t>& s) {
  for (size_t f = s.size() / 160; f-- > 0;) {
    double sum = 0;
    for (size_t i = 0; i < 160; ++i) sum += double(s[f * 160 + i]) * s[f * 160 + i];
    if (10 * std::log10(sum / 160 / (32768.0 * 32768.0) + 1e-12) > -40) return (f + 1) * 10;
  }
  return 0;
}

class Collector final : public speech::ListenerEvents {
 public:
  void onWake(uint64_t) override { ++wakes; }
  void onPartial(std::string_view p, uint64_t tMs) override { partials.push_back({std::string(p), tMs}); }
  void onFinal(const speech::Transcript& t, uint64_t tMs, uint64_t delayMs) override {
    ++finals;
    if (finals > 1) return;  // only the first utterance of the clip is the request
    text = t.text;
    search = std::string(t.search);
    finalMs = tMs;
    endpointDelayMs = delayMs;
    finalizeCpuMs = (threadCpuSeconds() - callCpuStart) * 1000;
  }
  struct Partial {
    std::string text;
    uint64_t tMs;
  };
  size_t wakes = 0, finals = 0;
  std::vector<Partial> partials;
  std::string text, search;
  uint64_t finalMs = 0, endpointDelayMs = 0;
  double callCpuStart = 0, finalizeCpuMs = 0;
};

struct CategoryResult {
  WordErrors errors;  // every utterance (a missed wake word deletes every word)
  WordErrors woken;   // utterances whose wake word was heard: the ASR's own errors
  size_t utterances = 0, exact = 0, noWake = 0, noFinal = 0, grammarWon = 0;
  std::vector<double> endpointDelay, finalLatency, partialLatency, finalizeCpu;
  size_t partialMatched = 0;
};

struct RunResult {
  std::map<std::string, CategoryResult> byCategory;
  double cpu = 0, audio = 0;
  std::vector<std::string> samplesOfErrors;
  std::map<std::string, CategoryResult> byVoice;
};

Result<RunResult> run(const Setup& setup, const std::vector<Item>& items) {
  auto l = speech::Listener::create(setup.listener);
  if (!l.ok()) return std::move(l).error();
  auto& listener = *l.value();
  RunResult r;
  for (const Item& item : items) {
    Collector c;
    // Event times are audio time of the whole stream; the clip's own times start here.
    const double base = double(listener.audioMs());
    const double c0 = threadCpuSeconds();
    for (size_t at = 0; at < item.samples.size(); at += 160) {
      const size_t n = std::min<size_t>(160, item.samples.size() - at);
      c.callCpuStart = threadCpuSeconds();
      listener.process(std::span<const int16_t>(item.samples.data() + at, n), c);
    }
    c.callCpuStart = threadCpuSeconds();
    listener.flush(c);
    r.cpu += threadCpuSeconds() - c0;
    r.audio += double(item.samples.size()) / 16000.0;
    CategoryResult& cr = r.byCategory[item.category];
    CategoryResult& vr = r.byVoice[item.voice];
    ++cr.utterances;
    ++vr.utterances;
    // A missed wake word or a missing final counts as deleting every reference word.
    const WordErrors e = wordErrors(item.reference, c.finals ? c.text : std::string());
    cr.errors += e;
    vr.errors += e;
    vr.noWake += c.wakes == 0 ? 1 : 0;
    if (c.wakes > 0) {
      cr.woken += e;
      vr.woken += e;
    }
    cr.exact += e.errors() == 0 ? 1 : 0;
    cr.noWake += c.wakes == 0 ? 1 : 0;
    cr.noFinal += c.finals == 0 ? 1 : 0;
    if (e.errors() != 0 && r.samplesOfErrors.size() < 8) {
      r.samplesOfErrors.push_back(item.category + " [" + item.voice + "] ref: \"" + item.reference + "\"  hyp: \"" +
                                  (c.finals ? c.text : std::string(c.wakes ? "(no final)" : "(no wake)")) + "\"");
    }
    if (c.finals == 0) continue;
    cr.grammarWon += c.search == "grammar" ? 1 : 0;
    cr.endpointDelay.push_back(double(c.endpointDelayMs));
    // After the end of speech (ground truth): the final's audio time plus the CPU time its finalization took (on a
    // device running in real time, that computation starts when the endpoint's frame arrives).
    cr.finalLatency.push_back(double(c.finalMs) - base - double(item.speechEndMs) + c.finalizeCpuMs);
    cr.finalizeCpu.push_back(c.finalizeCpuMs);
    // Partial latency: the first partial that already says what the final says, after the end of speech (negative:
    // before the audio's energy fell below -40 dBFS).
    for (const auto& p : c.partials) {
      if (p.tMs > c.finalMs) break;
      if (normalizeWords(p.text) == normalizeWords(c.text)) {
        cr.partialLatency.push_back(double(p.tMs) - base - double(item.speechEndMs));
        ++cr.partialMatched;
        break;
      }
    }
  }
  return r;
}

void print(const char* title, const RunResult& r) {
  std::printf("%s (%.1f min of audio, %.1f s CPU = %.3f CPU s per audio s):\n", title, r.audio / 60, r.cpu,
              r.audio > 0 ? r.cpu / r.audio : 0);
  std::printf("  %-9s %5s %8s %5s %5s %5s %5s | %8s %7s %7s %8s\n", "category", "utts", "WER", "sub", "del", "ins",
              "words", "WER all", "exact", "grammar", "no wake");
  std::printf("  %-9s %5s %8s %23s | %8s\n", "", "", "(woken)", "", "(+missed)");
  WordErrors total, totalWoken;
  for (const auto& [cat, c] : r.byCategory) {
    total += c.errors;
    totalWoken += c.woken;
    std::printf("  %-9s %5zu %7.1f%% %5zu %5zu %5zu %5zu | %7.1f%% %6.1f%% %7zu %8zu\n", cat.c_str(), c.utterances,
                100 * c.woken.rate(), c.woken.substitutions, c.woken.deletions, c.woken.insertions,
                c.woken.referenceWords, 100 * c.errors.rate(), 100.0 * double(c.exact) / double(c.utterances),
                c.grammarWon, c.noWake);
  }
  std::printf("  %-9s %5s %7.1f%% %23s | %7.1f%%\n", "all", "", 100 * totalWoken.rate(), "", 100 * total.rate());
  std::printf("  per voice (WER of woken utterances; wake misses):");
  size_t k = 0;
  for (const auto& [v, c] : r.byVoice) {
    std::printf("%s %s %.1f%% (%zu/%zu missed)", k++ % 3 ? "," : "\n   ", v.c_str(), 100 * c.woken.rate(), c.noWake,
                c.utterances);
  }
  std::printf("\n");
  std::printf("  latency after the end of speech, ms (p50 / p95):\n");
  for (const auto& [cat, c] : r.byCategory) {
    std::printf(
        "    %-9s endpoint delay %4.0f / %4.0f   final %4.0f / %4.0f (finalize CPU %.1f / %.1f)   "
        "partial = final text %4.0f / %4.0f (%zu of %zu)\n",
        cat.c_str(), percentile(c.endpointDelay, 50), percentile(c.endpointDelay, 95), percentile(c.finalLatency, 50),
        percentile(c.finalLatency, 95), percentile(c.finalizeCpu, 50), percentile(c.finalizeCpu, 95),
        percentile(c.partialLatency, 50), percentile(c.partialLatency, 95), c.partialMatched, c.utterances);
  }
}

}  // namespace

int benchAsr(int argc, char** argv) {
  std::string manifest;
  bool baseline = true;
  SetupOptions so;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (so.parse(argc, argv, i)) continue;
    if (a == "--manifest" && i + 1 < argc) {
      manifest = argv[++i];
    } else if (a == "--no-baseline") {
      baseline = false;
    } else {
      std::fprintf(stderr,
                   "Usage: bench_speech asr --manifest ASR.tsv [--no-baseline] [--config FILE] [--set S=V]... "
                   "[--catalogue PATH]\n");
      return 2;
    }
  }
  if (manifest.empty()) {
    std::fprintf(stderr, "bench_speech asr: --manifest is required\n");
    return 2;
  }
  auto rows = readManifest(manifest, 4);
  if (!rows.ok()) {
    std::fprintf(stderr, "bench_speech asr: %s\n", rows.error().message.c_str());
    return 1;
  }
  std::vector<Item> items;
  for (const auto& row : rows.value()) {
    auto s = readWav16kMono(row[0]);
    if (!s.ok()) {
      std::fprintf(stderr, "bench_speech asr: %s\n", s.error().message.c_str());
      return 1;
    }
    Item it{row[0], row[1], row[2], row[3], std::move(s).value(), 0};
    it.speechEndMs = speechEndMs(it.samples);
    items.push_back(std::move(it));
  }
  auto setup = makeSetup(so);
  if (!setup.ok()) {
    std::fprintf(stderr, "bench_speech asr: %s\n", setup.error().message.c_str());
    return 1;
  }
  printSystemHeader("speech benchmark: ASR word error rate and latency");
  std::printf("setup: %s\nmanifest: %s (%zu utterances, each: wake phrase, 0.5 s, request; clean)\n\n",
              setup->describe.c_str(), manifest.c_str(), items.size());
  auto product = run(setup.value(), items);
  if (!product.ok()) {
    std::fprintf(stderr, "bench_speech asr: %s\n", product.error().message.c_str());
    return 1;
  }
  print("Listener as configured", product.value());
  std::printf("  first errors:\n");
  for (const auto& s : product->samplesOfErrors) std::printf("    %s\n", s.c_str());
  std::fflush(stdout);
  if (!baseline || setup->listener.asr.grammar.empty()) return 0;

  Setup lmOnly = setup.value();
  lmOnly.listener.asr.grammar.clear();
  auto base = run(lmOnly, items);
  if (!base.ok()) {
    std::fprintf(stderr, "bench_speech asr: %s\n", base.error().message.c_str());
    return 1;
  }
  std::printf("\n");
  print("Baseline, same run: general LM only (no command grammar)", base.value());
  std::printf("\nBaseline comparison (WER of woken utterances: configured ASR / LM-only baseline):\n");
  for (const auto& [cat, c] : product->byCategory) {
    const double b = base->byCategory[cat].woken.rate();
    std::printf("  %-9s %6.1f%% vs %6.1f%%  = %.2fx\n", cat.c_str(), 100 * c.woken.rate(), 100 * b,
                b > 0 ? c.woken.rate() / b : 0.0);
  }
  return 0;
}

}  // namespace sotto::bench
