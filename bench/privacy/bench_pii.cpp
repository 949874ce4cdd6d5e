// SPDX-License-Identifier: MIT
// PII classifier end-to-end bench: per-type precision/recall/F1 (exact and partial overlap) on the dev set, and
// per-utterance latency p50/p95/p99 after a warm-up pass, with system info.
#include <chrono>
#include <cstdio>
#include <map>
#include <set>
#include <string>

#include "bench/common/sysinfo.h"
#include "engine/pipeline/histogram.h"
#include "engine/privacy/pii.h"
#include "tests/privacy/pii_test_support.h"

using namespace sotto;
using privacy::test::LabelledSpan;

int main(int argc, char** argv) {
  const std::string path = argc > 1 ? argv[1] : std::string(SOTTO_SOURCE_DIR) + "/../shared/data/pii-dev.jsonl";
  const auto data = privacy::test::loadJsonl(path);
  if (data.empty()) {
    std::fprintf(stderr, "bench_pii: no data in %s\n", path.c_str());
    return 1;
  }
  const auto info = bench::collectSystemInfo();
  std::printf("cpu: %s (%u online, %u usable)\nkernel: %s\ncompiler: %s\nbuild: %s\nfeatures: %s\n",
              info.cpuModel.c_str(), info.onlineCpus, info.usableCpus, info.kernel.c_str(), info.compiler.c_str(),
              info.buildType.c_str(), info.cpuFeatures.c_str());
  auto created = privacy::PiiClassifier::create();
  if (!created) {
    std::fprintf(stderr, "bench_pii: %s\n", created.error().message.c_str());
    return 1;
  }
  const privacy::PiiClassifier& c = **created;
  privacy::SpanBuffer buf;

  // Accuracy: exact (start, end, type) and partial (same type, overlapping) matches.
  std::map<std::string, int> tp, fp, fn, ptp, pfp, pfn;
  for (const auto& ex : data) {
    (void)c.classify(ex.text, buf);
    const auto got = privacy::test::toLabelled(buf);
    const std::set<LabelledSpan> g(ex.spans.begin(), ex.spans.end()), q(got.begin(), got.end());
    auto overlaps = [](const LabelledSpan& a, const std::set<LabelledSpan>& s) {
      for (const auto& b : s) {
        if (a.type == b.type && a.start < b.end && b.start < a.end) return true;
      }
      return false;
    };
    for (const auto& s : q) {
      (g.count(s) ? tp : fp)[s.type]++;
      (overlaps(s, g) ? ptp : pfp)[s.type]++;
    }
    for (const auto& s : g) {
      if (!q.count(s)) fn[s.type]++;
      if (!overlaps(s, q)) pfn[s.type]++;
    }
  }
  std::set<std::string> types;
  for (auto* m : {&tp, &fp, &fn}) {
    for (auto& [k, v] : *m) types.insert(k);
  }
  auto f1 = [](double p, double r) { return p + r > 0 ? 2 * p * r / (p + r) : 0.0; };
  std::printf("\n%-16s %6s %6s %6s   %6s %6s %6s   (exact | partial overlap) on %zu utterances\n", "type", "P", "R",
              "F1", "P", "R", "F1", data.size());
  int T = 0, F = 0, N = 0, PT = 0, PF = 0, PN = 0;
  for (const auto& t : types) {
    const double p = tp[t] / std::max(1.0, double(tp[t] + fp[t])), r = tp[t] / std::max(1.0, double(tp[t] + fn[t]));
    const double pp = ptp[t] / std::max(1.0, double(ptp[t] + pfp[t]));
    const double pr = (tp[t] + fn[t] - pfn[t]) / std::max(1.0, double(tp[t] + fn[t]));
    std::printf("%-16s %6.3f %6.3f %6.3f   %6.3f %6.3f %6.3f\n", t.c_str(), p, r, f1(p, r), pp, pr, f1(pp, pr));
    T += tp[t];
    F += fp[t];
    N += fn[t];
    PT += ptp[t];
    PF += pfp[t];
    PN += tp[t] + fn[t] - pfn[t];
  }
  const double P = T / std::max(1.0, double(T + F)), R = T / std::max(1.0, double(T + N));
  const double PP = PT / std::max(1.0, double(PT + PF)), PR = PN / std::max(1.0, double(T + N));
  std::printf("%-16s %6.3f %6.3f %6.3f   %6.3f %6.3f %6.3f\n", "OVERALL", P, R, f1(P, R), PP, PR, f1(PP, PR));

  // Latency: warm up once over the file, then time each utterance over several passes.
  static pipeline::Histogram hist;  // ~27 KiB: not on the stack
  for (const auto& ex : data) (void)c.classify(ex.text, buf);
  constexpr int kPasses = 5;
  for (int pass = 0; pass < kPasses; ++pass) {
    for (const auto& ex : data) {
      const auto t0 = std::chrono::steady_clock::now();
      (void)c.classify(ex.text, buf);
      const auto t1 = std::chrono::steady_clock::now();
      hist.record(static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(t1 - t0).count()));
    }
  }
  const auto s = hist.snapshot().summary();
  std::printf("\nclassify latency over %llu calls: p50 %.1f us, p95 %.1f us, p99 %.1f us, max %.1f us, mean %.1f us\n",
              static_cast<unsigned long long>(s.count), s.p50 / 1e3, s.p95 / 1e3, s.p99 / 1e3, s.max / 1e3,
              s.mean / 1e3);
  return 0;
}
