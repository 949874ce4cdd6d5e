// SPDX-License-Identifier: MIT
// sotto-bench llm: llama-bench-style prompt (ppN) and generation (tgN) throughput, time to first token with a
// cached system prompt, peak RSS and the fraction of the memory-bandwidth limit generation reaches.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "sotto/hal/result.h"

namespace sotto::bench {

struct LlmBenchOptions {
  std::string model;
  std::string backend = "cpu";
  std::vector<unsigned> threads = {2};
  std::vector<size_t> prompt = {32, 128, 512};  // ppN tests; empty: none
  std::vector<size_t> gen = {64};               // tgN tests; empty: none
  size_t reps = 5;
  bool ttft = true;
  size_t ttftSystem = 200;  // cached system-prompt tokens
  size_t ttftUser = 20;     // the new user turn
};

// Mean and sample standard deviation over repetitions.
struct Stat {
  double mean = 0.0, stddev = 0.0;
  size_t n = 0;
};

struct LlmTestResult {
  std::string test;    // "pp128", "tg64", "ttft"
  unsigned threads = 0;
  size_t nPrompt = 0, nGen = 0;
  Stat tokensPerSecond;
  Stat ms;             // wall time of one repetition (ttft: time to the first token with the cached prefix)
  // tg only: weights streamed per generated token and the share of the measured bandwidth limit reached.
  uint64_t bytesPerToken = 0;
  double bandwidthFraction = 0.0;
  // ttft only: the same request with nothing cached, and how many prompt tokens were reused.
  Stat coldMs;
  size_t reusedTokens = 0;
};

struct LlmBenchReport {
  std::string modelName;   // general.name, else the file name
  std::string modelType;   // "Q4_K_M", "Q8_0", ... from general.file_type, else the dominant weight type
  std::string arch;
  uint64_t modelBytes = 0;   // file size
  uint64_t weightBytes = 0;  // tensor data
  uint64_t params = 0;
  std::string backend;
  double loadMs = 0.0;
  double baselineGBps = 0.0;  // streaming read of a model-sized buffer, best of 3, with the largest thread count
  uint64_t peakRssBytes = 0;  // VmHWM before the bandwidth baseline allocated its buffer
  std::vector<LlmTestResult> tests;
};

// Runs every test for every thread count (one untimed warm-up pass each, then `reps` timed ones). Main thread;
// blocks for the whole run; prints nothing. Errors: the model does not load, a context cannot be made.
Result<LlmBenchReport> runLlmBench(const LlmBenchOptions& options);

}  // namespace sotto::bench
