// SPDX-License-Identifier: MIT
// sotto-bench llm measurements: warm-up then timed repetitions of prefill, decode and cached-prefix TTFT.
#include "app/sotto_bench/llm_bench.h"

#include <sys/resource.h>
#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <new>
#include <random>

#include "app/sotto_bench/stream_read.h"
#include "engine/llm/forward.h"
#include "engine/llm/generator.h"
#include "engine/llm/model.h"
#include "engine/llm/tokenizer.h"
#include "sotto/hal/dtype.h"
#include "sotto/hal/thread_pool.h"

namespace sotto::bench {
namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

Stat stat(const std::vector<double>& v) {
  Stat s;
  s.n = v.size();
  if (v.empty()) return s;
  double sum = 0.0;
  for (double x : v) sum += x;
  s.mean = sum / static_cast<double>(v.size());
  if (v.size() > 1) {
    double sq = 0.0;
    for (double x : v) sq += (x - s.mean) * (x - s.mean);
    s.stddev = std::sqrt(sq / static_cast<double>(v.size() - 1));
  }
  return s;
}

// llama_ftype names for general.file_type.
const char* fileTypeName(uint64_t t) {
  switch (t) {
    case 0: return "F32";
    case 1: return "F16";
    case 2: return "Q4_0";
    case 3: return "Q4_1";
    case 7: return "Q8_0";
    case 8: return "Q5_0";
    case 9: return "Q5_1";
    case 10: return "Q2_K";
    case 11: return "Q3_K_S";
    case 12: return "Q3_K_M";
    case 13: return "Q3_K_L";
    case 14: return "Q4_K_S";
    case 15: return "Q4_K_M";
    case 16: return "Q5_K_S";
    case 17: return "Q5_K_M";
    case 18: return "Q6_K";
    case 32: return "BF16";
    default: return nullptr;
  }
}

std::string modelTypeOf(const llm::GgufFile& f) {
  if (const auto t = f.getUint("general.file_type"); t && fileTypeName(*t) != nullptr) return fileTypeName(*t);
  // No label: the type holding most of the weight bytes.
  uint64_t best = 0;
  hal::DType type = hal::DType::F32;
  for (const llm::GgufTensor& a : f.tensors()) {
    uint64_t bytes = 0;
    for (const llm::GgufTensor& b : f.tensors()) bytes += b.type == a.type ? b.nbytes : 0;
    if (bytes > best) {
      best = bytes;
      type = a.type;
    }
  }
  return hal::dtypeName(type);
}

uint64_t peakRss() {
  // VmHWM is the resident high-water mark, file-backed (mmapped weights) pages included.
  if (FILE* f = std::fopen("/proc/self/status", "r")) {
    char line[256];
    unsigned long long kb = 0;
    bool found = false;
    while (std::fgets(line, sizeof line, f) != nullptr) {
      if (std::sscanf(line, "VmHWM: %llu kB", &kb) == 1) {
        found = true;
        break;
      }
    }
    std::fclose(f);
    if (found) return kb * 1024;
  }
  rusage ru{};
  return ::getrusage(RUSAGE_SELF, &ru) == 0 ? static_cast<uint64_t>(ru.ru_maxrss) * 1024 : 0;
}

std::vector<llm::TokenId> randomTokens(std::mt19937& rng, size_t n, uint32_t vocab) {
  std::uniform_int_distribution<llm::TokenId> d(0, static_cast<llm::TokenId>(vocab - 1));
  std::vector<llm::TokenId> ids(n);
  for (auto& id : ids) id = d(rng);
  return ids;
}

// Streaming read of `bytes` bytes on the pool's threads (four streams per chunk, as decode reads its weights): the
// memory-bandwidth ceiling for decode, which streams every weight once per token. Best of three passes after a
// warm-up, in GB/s (1e9).
double streamingReadGBps(hal::ThreadPool& pool, uint64_t bytes) {
  const size_t n = std::max<size_t>(bytes, size_t{64} << 20);  // beyond any cache
  std::unique_ptr<std::byte[]> buf(new (std::nothrow) std::byte[n]);
  if (!buf) return 0.0;
  for (size_t i = 0; i < n; ++i) buf[i] = static_cast<std::byte>(i * 131 + 7);  // touch every page, non-zero data
  std::vector<uint64_t> sums(pool.threads() * 8, 0);  // a cache line apart
  constexpr size_t kChunk = size_t{1} << 20;
  const size_t chunks = (n + kChunk - 1) / kChunk;
  double best = 0.0;
  for (int pass = 0; pass < 4; ++pass) {
    const auto t0 = Clock::now();
    pool.parallelFor(chunks, 1, [&](size_t begin, size_t end, unsigned thread) {
      const size_t lo = begin * kChunk, hi = std::min(n, end * kChunk);
      sums[thread * 8] += streamReadSum(buf.get() + lo, hi - lo);
    });
    const double s = std::chrono::duration<double>(Clock::now() - t0).count();
    if (pass > 0 && s > 0.0) best = std::max(best, static_cast<double>(n) / s / 1e9);
  }
  // Keep the sums observable so the reads are not optimized away.
  uint64_t sink = 0;
  for (uint64_t v : sums) sink += v;
  __asm__ __volatile__("" : : "r"(sink) : "memory");
  return best;
}

// Time to the first sampled token, stamped in the sink.
class FirstTokenSink final : public llm::GenerationSink {
 public:
  void onToken(const llm::GeneratedToken& t) override {
    if (t.index == 0) at_ = Clock::now();
  }
  Clock::time_point at() const { return at_; }

 private:
  Clock::time_point at_{};
};

Status runThroughput(const llm::Model& model, unsigned threads, const LlmBenchOptions& o, std::mt19937& rng,
                     LlmBenchReport& report) {
  const llm::ModelParams& p = model.params();
  size_t maxP = 0, maxG = 0;
  for (size_t n : o.prompt) maxP = std::max(maxP, n);
  for (size_t n : o.gen) maxG = std::max(maxG, n);
  llm::ContextOptions co;
  co.backend = o.backend;
  co.threads = threads;
  co.nCtx = static_cast<uint32_t>(std::max(maxP, maxG) + 8);
  co.maxBatch = static_cast<uint32_t>(std::clamp<size_t>(maxP, 1, 512));
  auto ctx = llm::InferenceContext::create(model, co);
  if (!ctx) return std::move(ctx).error();
  llm::InferenceContext& c = **ctx;

  for (size_t n : o.prompt) {
    if (n == 0) continue;
    const auto ids = randomTokens(rng, n, p.nVocab);
    std::vector<double> ms, tps;
    for (size_t r = 0; r <= o.reps; ++r) {  // r == 0: warm-up
      c.reset();
      const auto t0 = Clock::now();
      if (auto st = c.eval(ids); !st) return st;
      const double t = msSince(t0);
      if (r == 0) continue;
      ms.push_back(t);
      tps.push_back(static_cast<double>(n) * 1000.0 / t);
    }
    LlmTestResult res;
    res.test = "pp" + std::to_string(n);
    res.threads = threads;
    res.nPrompt = n;
    res.ms = stat(ms);
    res.tokensPerSecond = stat(tps);
    report.tests.push_back(res);
  }

  // Decode streams every weight once per token; the token embedding only once per row, unless it is the output.
  const llm::Weight& embd = model.tokenEmbd();
  const uint64_t perToken =
      report.weightBytes - embd.tensor->nbytes + (model.tiedOutput() ? embd.tensor->nbytes : 0);
  for (size_t n : o.gen) {
    if (n == 0) continue;
    const auto ids = randomTokens(rng, n, p.nVocab);
    std::vector<double> ms, tps;
    for (size_t r = 0; r <= o.reps; ++r) {
      c.reset();
      const auto t0 = Clock::now();
      for (size_t i = 0; i < n; ++i) {
        if (auto st = c.eval(std::span<const llm::TokenId>(&ids[i], 1)); !st) return st;
      }
      const double t = msSince(t0);
      if (r == 0) continue;
      ms.push_back(t);
      tps.push_back(static_cast<double>(n) * 1000.0 / t);
    }
    LlmTestResult res;
    res.test = "tg" + std::to_string(n);
    res.threads = threads;
    res.nGen = n;
    res.ms = stat(ms);
    res.tokensPerSecond = stat(tps);
    res.bytesPerToken = perToken;
    report.tests.push_back(res);
  }
  return {};
}

Status runTtft(const llm::Model& model, const llm::Tokenizer& tok, unsigned threads, const LlmBenchOptions& o,
               std::mt19937& rng, LlmBenchReport& report) {
  const llm::ModelParams& p = model.params();
  llm::GeneratorOptions go;
  go.context.backend = o.backend;
  go.context.threads = threads;
  go.context.nCtx = static_cast<uint32_t>(o.ttftSystem + o.ttftUser + 16);
  auto gen = llm::Generator::create(model, tok, go);
  if (!gen) return std::move(gen).error();
  llm::Generator& g = **gen;
  llm::GenerateOptions opt;
  opt.maxTokens = 1;
  opt.stopAtEog = false;
  opt.sampling.temperature = 0.0f;
  const auto system = randomTokens(rng, o.ttftSystem, p.nVocab);
  std::vector<llm::TokenId> prompt;
  FirstTokenSink sink;
  auto once = [&](bool reuse, double& ms, size_t& reused) -> Status {
    prompt = system;
    const auto user = randomTokens(rng, o.ttftUser, p.nVocab);
    prompt.insert(prompt.end(), user.begin(), user.end());
    opt.reusePrefix = reuse;
    const auto t0 = Clock::now();
    auto r = g.generate(std::span<const llm::TokenId>(prompt), opt, &sink);
    if (!r) return std::move(r).error();
    ms = std::chrono::duration<double, std::milli>(sink.at() - t0).count();
    reused = r->reusedTokens;
    return {};
  };
  std::vector<double> warm, cold, tps;
  size_t reused = 0;
  double ms = 0.0;
  // The system prompt is evaluated once (the cached preamble), then each request brings a new user turn.
  opt.reusePrefix = false;
  if (auto r = g.generate(std::span<const llm::TokenId>(system), opt, &sink); !r) return std::move(r).error();
  for (size_t r = 0; r <= o.reps; ++r) {
    if (auto st = once(true, ms, reused); !st) return st;
    if (r == 0) continue;
    warm.push_back(ms);
    tps.push_back(static_cast<double>(o.ttftUser) * 1000.0 / ms);
  }
  LlmTestResult res;
  res.reusedTokens = reused;
  for (size_t r = 0; r <= o.reps; ++r) {
    size_t unused = 0;
    if (auto st = once(false, ms, unused); !st) return st;
    if (r > 0) cold.push_back(ms);
  }
  res.test = "ttft";
  res.threads = threads;
  res.nPrompt = o.ttftUser;
  res.ms = stat(warm);
  res.coldMs = stat(cold);
  res.tokensPerSecond = stat(tps);
  report.tests.push_back(res);
  return {};
}

}  // namespace

Result<LlmBenchReport> runLlmBench(const LlmBenchOptions& o) {
  if (o.threads.empty() || o.reps == 0) return makeError(Errc::invalid_argument, "llm bench: no threads or reps");
  LlmBenchReport report;
  llm::ModelLoadOptions lo;
  lo.gguf.populate = true;  // page the weights in before timing, as llama-bench's mmap + warm-up does
  const auto t0 = Clock::now();
  auto loaded = llm::Model::load(o.model, lo);
  if (!loaded) return std::move(loaded).error();
  report.loadMs = msSince(t0);
  const llm::Model& model = **loaded;
  const llm::GgufFile& f = model.file();
  report.modelBytes = f.fileSize();
  for (const llm::GgufTensor& t : f.tensors()) {
    report.params += t.elements();
    report.weightBytes += t.nbytes;
  }
  const std::string base = o.model.substr(o.model.find_last_of('/') + 1);
  report.modelName = std::string(f.getString("general.name").value_or(base));
  report.modelType = modelTypeOf(f);
  report.arch = llm::architectureName(model.params().arch);
  report.backend = o.backend;

  std::mt19937 rng(1234);
  std::unique_ptr<llm::Tokenizer> tok;
  if (o.ttft) {
    auto t = llm::Tokenizer::fromGguf(f);
    if (!t) return makeError(t.error().code, "llm bench: ttft needs the model's tokenizer: " + t.error().message);
    tok = std::move(*t);
  }
  unsigned maxThreads = 1;
  for (unsigned t : o.threads) {
    maxThreads = std::max(maxThreads, t);
    if (auto st = runThroughput(model, t, o, rng, report); !st) return std::move(st).error();
    if (o.ttft) {
      if (auto st = runTtft(model, *tok, t, o, rng, report); !st) return std::move(st).error();
    }
  }
  report.peakRssBytes = peakRss();

  hal::ThreadPoolOptions po;
  po.threads = maxThreads;
  po.name = "sotto-bw";
  auto pool = hal::ThreadPool::create(po);
  if (!pool) return std::move(pool).error();
  report.baselineGBps = streamingReadGBps(**pool, report.weightBytes);
  for (LlmTestResult& r : report.tests) {
    if (r.bytesPerToken != 0 && report.baselineGBps > 0.0) {
      r.bandwidthFraction =
          r.tokensPerSecond.mean * static_cast<double>(r.bytesPerToken) / (report.baselineGBps * 1e9);
    }
  }
  return report;
}

}  // namespace sotto::bench
