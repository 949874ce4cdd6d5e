// SPDX-License-Identifier: MIT
// Compute HAL micro benchmarks: decode matvec (m = 1) and a prefill matmul per weight type at real model shapes,
// on the cpu and cpu-ref backends, 1 and 2 threads. Reports GB/s of weight bytes read and compares it with a
// plain streaming read of the same footprint measured in the same run (the memory-bandwidth ceiling).
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "app/sotto_bench/stream_read.h"
#include "bench/common/sysinfo.h"
#include "sotto/hal/compute.h"
#include "sotto/hal/quant.h"

namespace {

using sotto::hal::DType;

constexpr double kWarmUpSeconds = 0.2;
// Weights rotate through copies totalling at least this much, so every read comes from DRAM as in a real decode
// (a model is hundreds of MB; one matrix alone could sit in the last-level cache).
constexpr size_t kFootprintBytes = size_t{96} << 20;

struct Shape {
  size_t k, n;  // W is n rows of k (input k, output n)
};
constexpr Shape kShapes[] = {{576, 1536}, {1536, 576}, {576, 49152}, {2048, 8192}};
constexpr DType kTypes[] = {DType::Q4_0, DType::Q5_0, DType::Q8_0, DType::Q4_K, DType::Q5_K, DType::Q6_K, DType::F16,
                            DType::BF16, DType::F32};

// Copies of one quantized weight matrix, made once per (type, shape) and shared by the benchmarks.
struct Weights {
  std::vector<std::vector<std::byte>> copies;
  size_t bytes = 0;
};

const Weights& weights(DType t, Shape s) {
  static std::vector<std::pair<std::string, std::unique_ptr<Weights>>> cache;
  const std::string key = std::string(sotto::hal::dtypeName(t)) + std::to_string(s.k) + "x" + std::to_string(s.n);
  for (auto& [k, w] : cache) {
    if (k == key) return *w;
  }
  auto w = std::make_unique<Weights>();
  const size_t rb = *sotto::hal::rowBytes(t, s.k);
  w->bytes = rb * s.n;
  std::mt19937 rng(5);
  std::normal_distribution<float> d(0.0f, 0.02f);
  std::vector<float> row(s.k);
  std::vector<std::byte> first(w->bytes);
  for (size_t r = 0; r < s.n; ++r) {
    for (float& v : row) v = d(rng);
    if (!sotto::hal::quantizeRow(t, row, std::span(first).subspan(r * rb, rb))) std::abort();
  }
  const size_t copies = std::max<size_t>(1, (kFootprintBytes + w->bytes - 1) / w->bytes);
  for (size_t c = 0; c < copies; ++c) w->copies.push_back(first);
  cache.emplace_back(key, std::move(w));
  return *cache.back().second;
}

std::unique_ptr<sotto::hal::ThreadPool> pool(unsigned threads) {
  sotto::hal::ThreadPoolOptions o;
  o.threads = threads;
  return sotto::hal::ThreadPool::create(o).value();
}

void setBandwidthCounters(benchmark::State& state, size_t bytes) {
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));  // for the cpu/cpu-ref and stream ratios
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * bytes));
  state.counters["GB/s"] = benchmark::Counter(static_cast<double>(bytes) / 1e9, benchmark::Counter::kIsIterationInvariantRate);
}

// Y[m×n] = X[m×k]·Wᵀ on `backend`, args: threads, m.
void matmulBench(benchmark::State& state, const char* backend, DType t, Shape s) {
  const auto threads = static_cast<unsigned>(state.range(0));
  const auto m = static_cast<size_t>(state.range(1));
  auto be = sotto::hal::ComputeRegistry::instance().createBackend(backend).value();
  auto p = pool(threads);
  const Weights& w = weights(t, s);
  std::vector<float> x(m * s.k, 0.01f), y(m * s.n);
  std::vector<std::byte> scratch(be->matmulScratchBytes(t, m, s.k));
  sotto::hal::MatmulArgs a;
  a.wType = t;
  a.x = x.data();
  a.y = y.data();
  a.m = m;
  a.n = s.n;
  a.k = s.k;
  a.scratch = scratch;
  size_t copy = 0;
  for (auto _ : state) {
    a.w = w.copies[copy].data();
    copy = (copy + 1) % w.copies.size();
    if (!be->matmul(*p, a)) state.SkipWithError("matmul failed");
    benchmark::DoNotOptimize(y.data());
    benchmark::ClobberMemory();
  }
  setBandwidthCounters(state, w.bytes);
}

// The same bytes read by the same threads with nothing but 64-bit adds: what the memory system delivers.
void streamBench(benchmark::State& state, DType t, Shape s) {
  const auto threads = static_cast<unsigned>(state.range(0));
  auto p = pool(threads);
  const Weights& w = weights(t, s);
  constexpr size_t kChunk = size_t{32} << 10;  // the granularity decode's row chunks have at these shapes
  const size_t chunks = (w.bytes + kChunk - 1) / kChunk;
  std::vector<uint64_t> partial(threads * 8);
  size_t copy = 0;
  for (auto _ : state) {
    const std::byte* base = w.copies[copy].data();
    copy = (copy + 1) % w.copies.size();
    p->parallelFor(chunks, std::max<size_t>(1, chunks / (threads * 8)), [&](size_t b, size_t e, unsigned th) {
      const size_t lo = b * kChunk, hi = std::min(w.bytes, e * kChunk);
      partial[th * 8] += sotto::bench::streamReadSum(base + lo, hi - lo);
    });
    benchmark::DoNotOptimize(partial.data());
  }
  setBandwidthCounters(state, w.bytes);
}

std::string shapeName(Shape s) { return std::to_string(s.k) + "x" + std::to_string(s.n); }

std::vector<sotto::bench::Comparison> registerAll() {
  std::vector<sotto::bench::Comparison> cmp;
  for (DType t : kTypes) {
    const std::string tn = sotto::hal::dtypeName(t);
    for (Shape s : kShapes) {
      if (!sotto::hal::rowBytes(t, s.k)) continue;  // k not a whole number of blocks (K types at k = 576)
      const std::string base = tn + "/" + shapeName(s);
      const std::string cpu = "BM_Matvec_cpu/" + base, ref = "BM_Matvec_cpuref/" + base;
      const std::string stream = "BM_StreamRead/" + base;
      benchmark::RegisterBenchmark(cpu.c_str(), [t, s](benchmark::State& st) { matmulBench(st, "cpu", t, s); })
          ->ArgsProduct({{1, 2}, {1}})->ArgNames({"threads", "m"})->MinWarmUpTime(kWarmUpSeconds)->UseRealTime();
      benchmark::RegisterBenchmark(ref.c_str(), [t, s](benchmark::State& st) { matmulBench(st, "cpu-ref", t, s); })
          ->ArgsProduct({{1, 2}, {1}})->ArgNames({"threads", "m"})->MinWarmUpTime(kWarmUpSeconds)->UseRealTime();
      benchmark::RegisterBenchmark(stream.c_str(), [t, s](benchmark::State& st) { streamBench(st, t, s); })
          ->ArgsProduct({{1, 2}, {1}})->ArgNames({"threads", "m"})->MinWarmUpTime(kWarmUpSeconds)->UseRealTime();
      cmp.push_back({"matvec " + base + " cpu / stream read", cpu, stream});
      cmp.push_back({"matvec " + base + " cpu / cpu-ref", cpu, ref});
    }
    // Prefill: 64 tokens against an FFN-up shape of Llama-3.2-1B and of SmolLM2-135M; weights are reused across
    // rows, so this is compute-bound. 20 tokens on the small shape: a user turn (the time-to-first-token case).
    for (const Shape pre : {Shape{2048, 8192}, Shape{576, 1536}}) {
      if (!sotto::hal::rowBytes(t, pre.k)) continue;
      const std::string pcpu = "BM_Prefill_cpu/" + tn + "/" + shapeName(pre);
      benchmark::RegisterBenchmark(pcpu.c_str(), [t, pre](benchmark::State& st) { matmulBench(st, "cpu", t, pre); })
          ->ArgsProduct({{1, 2}, {64}})->ArgNames({"threads", "m"})->MinWarmUpTime(kWarmUpSeconds)->UseRealTime();
      if (pre.k == 576) {
        benchmark::RegisterBenchmark(pcpu.c_str(), [t, pre](benchmark::State& st) { matmulBench(st, "cpu", t, pre); })
            ->ArgsProduct({{1, 2}, {20}})->ArgNames({"threads", "m"})->MinWarmUpTime(kWarmUpSeconds)->UseRealTime();
      }
    }
  }
  return cmp;
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<sotto::bench::Comparison> cmp = registerAll();
  return sotto::bench::runBenchmarksMain(argc, argv, cmp);
}
