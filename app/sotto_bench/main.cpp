// SPDX-License-Identifier: MIT
// sotto-bench: on-device performance figures of the shipped runtime (`sotto-bench llm`: llama-bench's table;
// `sotto-bench e2e`: the assistant's latency end to end through sottod).
#include <sched.h>

#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "app/common/json_text.h"
#include "app/common/version.h"
#include "app/sotto_bench/e2e_launch.h"
#include "app/sotto_bench/llm_bench.h"
#include "sotto/hal/cpu.h"

namespace {

using sotto::bench::LlmBenchOptions;
using sotto::bench::LlmBenchReport;
using sotto::bench::LlmTestResult;

void usage(FILE* out) {
  std::fputs(
      "Usage: sotto-bench llm -m FILE [OPTIONS]\n"
      "       sotto-bench e2e [--json] [--profile NAME] [--quick] [OPTIONS]  (sotto-bench e2e --help)\n"
      "\n"
      "e2e: spoken requests (flite, espeak-ng; clean and in noise) replayed in real time through sottod: p50/p95/p99\n"
      "of end of speech -> first audio, endpoint delay, ASR final lag, time to first token and TTS first chunk per\n"
      "profile (intents, cache, local, cloud50, cloud150, barge-in, follow-up), route mix, cache hit ratio, SVG\n"
      "plots, and configurations compared in the same run (bench/e2e/comparisons.json).\n"
      "\n"
      "llm:\n"
      "Measures the local model like llama-bench: prompt processing (ppN: N tokens in one batch) and text\n"
      "generation (tgN: N tokens one at a time) in tokens/s, mean ± standard deviation over repetitions after\n"
      "one warm-up; the time to first token of a user turn after a cached system prompt (ttft); peak RSS; and\n"
      "the share of the memory-bandwidth limit generation reaches (weights streamed per token × tokens/s over a\n"
      "streaming read of a model-sized buffer measured in the same run).\n"
      "\n"
      "  -m, --model FILE     GGUF model\n"
      "  -t, --threads LIST   thread counts, comma-separated (default 2)\n"
      "  -p, --n-prompt LIST  prompt sizes (default 32,128,512; 0 = none)\n"
      "  -n, --n-gen LIST     generation lengths (default 64; 0 = none)\n"
      "  -r, --repetitions N  timed repetitions per test (default 5)\n"
      "  --ttft S,U           cached system-prompt and user-turn tokens for the ttft test (default 200,20)\n"
      "  --no-ttft            skip the ttft test\n"
      "  --backend NAME       compute backend: cpu or cpu-ref (default cpu)\n"
      "  --json               one JSON object per test on stdout instead of the table\n"
      "  --version            version, build and CPU features\n"
      "\n"
      "Exit status: 0 done, 1 model or runtime error (one line on stderr), 2 usage error.\n",
      out);
}

int usageError(const std::string& message) {
  std::fprintf(stderr, "sotto-bench: %s (see sotto-bench --help)\n", message.c_str());
  return 2;
}

// "32,128,512" → {32, 128, 512}; false on anything else.
bool parseList(const char* s, unsigned long long max, std::vector<size_t>& out) {
  out.clear();
  if (s == nullptr || *s == '\0') return false;
  const char* p = s;
  for (;;) {
    if (*p < '0' || *p > '9') return false;
    char* end = nullptr;
    errno = 0;
    const unsigned long long v = std::strtoull(p, &end, 10);
    if (errno != 0 || v > max) return false;
    out.push_back(static_cast<size_t>(v));
    if (*end == '\0') return true;
    if (*end != ',') return false;
    p = end + 1;
  }
}

std::string loadAverage() {
  std::string s = "unknown";
  if (FILE* f = std::fopen("/proc/loadavg", "r")) {
    double a = 0, b = 0, c = 0;
    if (std::fscanf(f, "%lf %lf %lf", &a, &b, &c) == 3) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.2f %.2f %.2f", a, b, c);
      s = buf;
    }
    std::fclose(f);
  }
  return s;
}

unsigned usableCpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  return ::sched_getaffinity(0, sizeof set, &set) == 0 ? static_cast<unsigned>(CPU_COUNT(&set)) : 0;
}

// The one JSON string rule of the CLI (app/common/json_text.h), without the quotes this file writes itself.
std::string jsonEscape(const std::string& s) {
  const std::string quoted = sotto::app::jsonString(s);
  return quoted.substr(1, quoted.size() - 2);
}

double mib(uint64_t b) { return static_cast<double>(b) / (1024.0 * 1024.0); }

void printJson(const LlmBenchReport& r, const std::string& load) {
  const std::string cpu = jsonEscape(sotto::hal::cpuModelName()), features = jsonEscape(sotto::hal::cpuFeatureString());
  for (const LlmTestResult& t : r.tests) {
    std::printf("{\"test\":\"%s\",\"threads\":%u,\"tokens_per_s\":%.3f,\"tokens_per_s_std\":%.3f,\"reps\":%zu,"
                "\"n_prompt\":%zu,\"n_gen\":%zu,\"ms\":%.3f,\"ms_std\":%.3f,",
                t.test.c_str(), t.threads, t.tokensPerSecond.mean, t.tokensPerSecond.stddev, t.tokensPerSecond.n,
                t.nPrompt, t.nGen, t.ms.mean, t.ms.stddev);
    if (t.test == "ttft") {
      std::printf("\"ttft_ms\":%.3f,\"ttft_ms_std\":%.3f,\"ttft_cold_ms\":%.3f,\"ttft_cold_ms_std\":%.3f,"
                  "\"reused_tokens\":%zu,",
                  t.ms.mean, t.ms.stddev, t.coldMs.mean, t.coldMs.stddev, t.reusedTokens);
    }
    if (t.bytesPerToken != 0) {
      std::printf("\"bytes_per_token\":%" PRIu64 ",\"bandwidth_fraction\":%.4f,", t.bytesPerToken,
                  t.bandwidthFraction);
    }
    std::printf("\"model\":\"%s\",\"model_type\":\"%s\",\"arch\":\"%s\",\"model_bytes\":%" PRIu64
                ",\"params\":%" PRIu64 ",\"backend\":\"%s\",\"baseline_gbps\":%.3f,\"peak_rss_bytes\":%" PRIu64
                ",\"cpu\":\"%s\",\"features\":\"%s\",\"load_average\":\"%s\"}\n",
                jsonEscape(r.modelName).c_str(), r.modelType.c_str(), r.arch.c_str(), r.modelBytes, r.params,
                r.backend.c_str(), r.baselineGBps, r.peakRssBytes, cpu.c_str(), features.c_str(), load.c_str());
  }
}

void printTable(const LlmBenchReport& r, const std::string& loadBefore, const std::string& loadAfter) {
  std::printf("system: %s | %s | %u CPUs usable | load average %s (start) %s (end)\n",
              sotto::hal::cpuModelName().c_str(), sotto::hal::cpuFeatureString().c_str(), usableCpus(),
              loadBefore.c_str(), loadAfter.c_str());
  std::printf("\n| %-30s | %10s | %8s | %-6s | %-7s | %7s | %6s | %20s |\n", "model", "size", "params", "type",
              "backend", "threads", "test", "t/s");
  std::printf("| %-30s | %10s | %8s | %-6s | %-7s | %7s | %6s | %20s |\n", "------------------------------",
              "---------:", "-------:", "------", "-------", "------:", "-----:", "-------------------:");
  char size[32], params[32];
  std::snprintf(size, sizeof size, "%.2f MiB", mib(r.modelBytes));
  std::snprintf(params, sizeof params, "%.2f M", static_cast<double>(r.params) / 1e6);
  for (const LlmTestResult& t : r.tests) {
    if (t.test == "ttft") continue;
    char tps[48];
    std::snprintf(tps, sizeof tps, "%.2f ± %.2f", t.tokensPerSecond.mean, t.tokensPerSecond.stddev);
    std::printf("| %-30.30s | %10s | %8s | %-6s | %-7s | %7u | %6s | %20s |\n", r.modelName.c_str(), size, params,
                r.modelType.c_str(), r.backend.c_str(), t.threads, t.test.c_str(), tps);
  }
  std::printf("\n");
  for (const LlmTestResult& t : r.tests) {
    if (t.test == "ttft") {
      std::printf("ttft (%u threads): %zu-token user turn after a cached %zu-token prefix: %.2f ± %.2f ms; "
                  "nothing cached: %.2f ± %.2f ms\n",
                  t.threads, t.nPrompt, t.reusedTokens, t.ms.mean, t.ms.stddev, t.coldMs.mean, t.coldMs.stddev);
    } else if (t.bytesPerToken != 0) {
      std::printf("%s (%u threads): %.2f MiB of weights per token x %.2f tok/s = %.2f GB/s = %.0f%% of the "
                  "%.2f GB/s streaming-read baseline\n",
                  t.test.c_str(), t.threads, mib(t.bytesPerToken), t.tokensPerSecond.mean,
                  t.tokensPerSecond.mean * static_cast<double>(t.bytesPerToken) / 1e9, 100.0 * t.bandwidthFraction,
                  r.baselineGBps);
    }
  }
  std::printf("load %.0f ms, peak RSS %.1f MiB (VmHWM, mapped weights included)\n", r.loadMs, mib(r.peakRssBytes));
}

int cmdLlm(int argc, char** argv) {
  LlmBenchOptions o;
  bool json = false;
  std::vector<size_t> list;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const char* v = i + 1 < argc ? argv[i + 1] : nullptr;
    if (a == "-h" || a == "--help") {
      usage(stdout);
      return 0;
    } else if (a == "--json") {
      json = true;
      continue;
    } else if (a == "--no-ttft") {
      o.ttft = false;
      continue;
    } else if (v == nullptr) {
      return usageError("option '" + a + "' needs a value, or is unknown");
    } else if (a == "-m" || a == "--model") {
      o.model = v;
    } else if (a == "--backend") {
      o.backend = v;
    } else if (a == "-t" || a == "--threads") {
      if (!parseList(v, 256, list) || list.empty()) return usageError("bad --threads '" + std::string(v) + "'");
      o.threads.clear();
      for (size_t t : list) {
        if (t == 0) return usageError("--threads must be ≥ 1");
        o.threads.push_back(static_cast<unsigned>(t));
      }
    } else if (a == "-p" || a == "--n-prompt") {
      if (!parseList(v, 1u << 16, o.prompt)) return usageError("bad --n-prompt '" + std::string(v) + "'");
    } else if (a == "-n" || a == "--n-gen") {
      if (!parseList(v, 1u << 16, o.gen)) return usageError("bad --n-gen '" + std::string(v) + "'");
    } else if (a == "-r" || a == "--repetitions") {
      if (!parseList(v, 1000, list) || list.size() != 1 || list[0] == 0) {
        return usageError("bad --repetitions '" + std::string(v) + "'");
      }
      o.reps = list[0];
    } else if (a == "--ttft") {
      if (!parseList(v, 1u << 15, list) || list.size() != 2 || list[0] == 0 || list[1] == 0) {
        return usageError("--ttft needs SYSTEM,USER token counts ≥ 1");
      }
      o.ttftSystem = list[0];
      o.ttftUser = list[1];
    } else {
      return usageError("unknown option '" + a + "'");
    }
    ++i;
  }
  if (o.model.empty()) return usageError("-m FILE is required");
  const std::string loadBefore = loadAverage();
  auto r = sotto::bench::runLlmBench(o);
  if (!r) {
    std::fprintf(stderr, "sotto-bench: %s\n", r.error().message.c_str());
    return 1;
  }
  if (json) {
    printJson(*r, loadBefore);
  } else {
    printTable(*r, loadBefore, loadAverage());
  }
  return std::fflush(stdout) == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    usage(stderr);
    return 2;
  }
  const std::string cmd = argv[1];
  if (cmd == "-h" || cmd == "--help" || cmd == "help") {
    usage(stdout);
    return 0;
  }
  if (cmd == "--version" || cmd == "version") {
    std::fputs(sotto::app::versionText("sotto-bench").c_str(), stdout);
    return 0;
  }
  if (cmd == "llm") return cmdLlm(argc - 1, argv + 1);
  if (cmd == "e2e") return sotto::bench::runE2e(argc - 1, argv + 1);
  return usageError("unknown command '" + cmd + "'");
}
