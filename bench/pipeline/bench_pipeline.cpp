// SPDX-License-Identifier: MIT
// Micro benchmarks of the pipeline building blocks, each against a mutex-based baseline measured in the same run.
#include <benchmark/benchmark.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <random>
#include <thread>
#include <vector>

#include "bench/common/sysinfo.h"
#include "engine/pipeline/health.h"
#include "engine/pipeline/histogram.h"
#include "engine/pipeline/mailbox.h"
#include "engine/pipeline/spsc_ring.h"

namespace {

using sotto::pipeline::Heartbeat;
using sotto::pipeline::Histogram;
using sotto::pipeline::Message;
using sotto::pipeline::MpscMailbox;
using sotto::pipeline::SpscMailbox;
using sotto::pipeline::SpscRing;

constexpr std::size_t kCapacity = 1024;  // every queue in this file, ring or baseline
constexpr std::size_t kBatch = 64;       // items moved per benchmark iteration in the transfer benchmarks
constexpr double kWarmUpSeconds = 0.1;   // caches, page faults and CPU frequency settle before measuring

// Busy-wait hint: lets the sibling hyperthread run and saves power while spinning; yields now and then so a
// descheduled peer (2 shared cores) can make progress instead of us burning the slice.
class Spin {
 public:
  void pause() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    asm volatile("yield" ::: "memory");
#endif
    if (++n_ % 1024 == 0) std::this_thread::yield();
  }

 private:
  unsigned n_ = 0;
};

template <typename T>
SpscRing<T> makeRing(std::size_t capacity) {
  auto r = SpscRing<T>::create(capacity);
  if (!r) std::abort();
  return std::move(r).value();
}

// The baseline: what a queue between threads usually looks like without this library, bounded like the ring.
template <typename T>
class MutexQueue {
 public:
  bool tryPush(const T& v) {
    std::lock_guard lock(mutex_);
    if (items_.size() == kCapacity) return false;
    items_.push_back(v);
    return true;
  }
  bool tryPop(T& out) {
    std::lock_guard lock(mutex_);
    if (items_.empty()) return false;
    out = items_.front();
    items_.pop_front();
    return true;
  }
  std::size_t write(const T* data, std::size_t n) {
    std::lock_guard lock(mutex_);
    const std::size_t k = std::min(n, kCapacity - items_.size());
    items_.insert(items_.end(), data, data + k);
    return k;
  }
  std::size_t read(T* out, std::size_t n) {
    std::lock_guard lock(mutex_);
    const std::size_t k = std::min(n, items_.size());
    std::copy_n(items_.begin(), k, out);
    items_.erase(items_.begin(), items_.begin() + static_cast<std::ptrdiff_t>(k));
    return k;
  }

 private:
  std::mutex mutex_;
  std::deque<T> items_;
};

// ---- single thread: the cost of one operation, no contention -------------------------------------------------

void BM_SpscRing_PushPop(benchmark::State& state) {
  auto ring = makeRing<std::uint64_t>(kCapacity);
  std::uint64_t v = 0;
  for (auto _ : state) {
    ring.tryPush(v);
    ring.tryPop(v);
    benchmark::DoNotOptimize(v);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_SpscRing_PushPop)->MinWarmUpTime(kWarmUpSeconds);

void BM_MutexDeque_PushPop(benchmark::State& state) {
  MutexQueue<std::uint64_t> q;
  std::uint64_t v = 0;
  for (auto _ : state) {
    q.tryPush(v);
    q.tryPop(v);
    benchmark::DoNotOptimize(v);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_MutexDeque_PushPop)->MinWarmUpTime(kWarmUpSeconds);

// ---- two threads: thread 0 produces, thread 1 consumes; items/s is the transfer rate -------------------------

void BM_SpscRing_Transfer(benchmark::State& state) {
  static auto ring = makeRing<std::uint64_t>(kCapacity);
  Spin spin;
  std::uint64_t v = 0;
  if (state.thread_index() == 0) {
    for (auto _ : state) {
      for (std::size_t i = 0; i < kBatch; ++i) {
        while (!ring.tryPush(v)) spin.pause();
        ++v;
      }
    }
  } else {
    for (auto _ : state) {
      for (std::size_t i = 0; i < kBatch; ++i) {
        while (!ring.tryPop(v)) spin.pause();
      }
      benchmark::DoNotOptimize(v);
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kBatch));
  }
}
BENCHMARK(BM_SpscRing_Transfer)->MinWarmUpTime(kWarmUpSeconds)->Threads(2)->UseRealTime();

void BM_MutexDeque_Transfer(benchmark::State& state) {
  static MutexQueue<std::uint64_t> q;
  Spin spin;
  std::uint64_t v = 0;
  if (state.thread_index() == 0) {
    for (auto _ : state) {
      for (std::size_t i = 0; i < kBatch; ++i) {
        while (!q.tryPush(v)) spin.pause();
        ++v;
      }
    }
  } else {
    for (auto _ : state) {
      for (std::size_t i = 0; i < kBatch; ++i) {
        while (!q.tryPop(v)) spin.pause();
      }
      benchmark::DoNotOptimize(v);
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kBatch));
  }
}
BENCHMARK(BM_MutexDeque_Transfer)->MinWarmUpTime(kWarmUpSeconds)->Threads(2)->UseRealTime();

// Bulk: chunks of state.range(0) items (an audio period of samples, a batch of tokens).
void BM_SpscRing_TransferBulk(benchmark::State& state) {
  static auto ring = makeRing<std::int16_t>(kCapacity * 4);
  const auto chunk = static_cast<std::size_t>(state.range(0));
  std::vector<std::int16_t> buf(chunk, 1);
  Spin spin;
  for (auto _ : state) {
    std::size_t done = 0;
    if (state.thread_index() == 0) {
      while (done < chunk) {
        const std::size_t n = ring.write(std::span<const std::int16_t>(buf).subspan(done));
        if (n == 0) spin.pause();
        done += n;
      }
    } else {
      while (done < chunk) {
        const std::size_t n = ring.read(std::span(buf).subspan(done));
        if (n == 0) spin.pause();
        done += n;
      }
      benchmark::DoNotOptimize(buf.data());
    }
  }
  if (state.thread_index() == 1) state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * chunk));
}
BENCHMARK(BM_SpscRing_TransferBulk)
    ->MinWarmUpTime(kWarmUpSeconds)
    ->Arg(16)
    ->Arg(160)
    ->Arg(1024)
    ->Threads(2)
    ->UseRealTime();

void BM_MutexDeque_TransferBulk(benchmark::State& state) {
  static MutexQueue<std::int16_t> q;  // bounded at kCapacity: chunks above it move in parts
  const auto chunk = static_cast<std::size_t>(state.range(0));
  std::vector<std::int16_t> buf(chunk, 1);
  Spin spin;
  for (auto _ : state) {
    std::size_t done = 0;
    if (state.thread_index() == 0) {
      while (done < chunk) {
        const std::size_t n = q.write(buf.data() + done, chunk - done);
        if (n == 0) spin.pause();
        done += n;
      }
    } else {
      while (done < chunk) {
        const std::size_t n = q.read(buf.data() + done, chunk - done);
        if (n == 0) spin.pause();
        done += n;
      }
      benchmark::DoNotOptimize(buf.data());
    }
  }
  if (state.thread_index() == 1) state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * chunk));
}
BENCHMARK(BM_MutexDeque_TransferBulk)
    ->MinWarmUpTime(kWarmUpSeconds)
    ->Arg(16)
    ->Arg(160)
    ->Arg(1024)
    ->Threads(2)
    ->UseRealTime();

// ---- cross-thread ping: one item there and back; time per iteration is the round trip ------------------------

template <typename Queue>
void pingPong(benchmark::State& state, Queue& ping, Queue& pong) {
  std::atomic<bool> stop{false};
  std::thread echo([&] {
    Spin spin;
    std::uint64_t v = 0;
    while (!stop.load(std::memory_order_relaxed)) {
      if (ping.tryPop(v)) {
        while (!pong.tryPush(v)) spin.pause();
      } else {
        spin.pause();
      }
    }
  });
  Spin spin;
  std::uint64_t v = 0;
  for (auto _ : state) {
    ping.tryPush(v);  // never full: one item in flight
    std::uint64_t back = 0;
    while (!pong.tryPop(back)) spin.pause();
    ++v;
  }
  stop.store(true);
  echo.join();
  state.SetItemsProcessed(state.iterations());  // round trips per second
}

void BM_SpscRing_PingPong(benchmark::State& state) {
  auto ping = makeRing<std::uint64_t>(kCapacity);
  auto pong = makeRing<std::uint64_t>(kCapacity);
  pingPong(state, ping, pong);
}
BENCHMARK(BM_SpscRing_PingPong)->MinWarmUpTime(kWarmUpSeconds)->UseRealTime();

void BM_MutexDeque_PingPong(benchmark::State& state) {
  MutexQueue<std::uint64_t> ping;
  MutexQueue<std::uint64_t> pong;
  pingPong(state, ping, pong);
}
BENCHMARK(BM_MutexDeque_PingPong)->MinWarmUpTime(kWarmUpSeconds)->UseRealTime();

// ---- mailboxes ------------------------------------------------------------------------------------------------

// One control cycle on one thread: post kBatch messages, then drain them (the receiver's per-cycle pattern).
template <typename Box>
void postDrain(benchmark::State& state, Box& box) {
  const Message m = Message::make(1, 2, 3, "volume");
  std::uint64_t sum = 0;
  for (auto _ : state) {
    for (std::size_t i = 0; i < kBatch; ++i) box.post(m);
    box.drain([&](const Message& x) { sum += x.value; });
  }
  benchmark::DoNotOptimize(sum);
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kBatch));
}

void BM_SpscMailbox_PostDrain(benchmark::State& state) {
  auto box = std::move(SpscMailbox<Message>::create(kCapacity)).value();
  postDrain(state, box);
}
BENCHMARK(BM_SpscMailbox_PostDrain)->MinWarmUpTime(kWarmUpSeconds);

void BM_MpscMailbox_PostDrain(benchmark::State& state) {
  auto box = std::move(MpscMailbox<Message>::create(kCapacity)).value();
  postDrain(state, box);
}
BENCHMARK(BM_MpscMailbox_PostDrain)->MinWarmUpTime(kWarmUpSeconds);

// Poster threads (all but the last) to one receiver (the last thread).
void BM_MpscMailbox_Transfer(benchmark::State& state) {
  static auto box = std::move(MpscMailbox<Message>::create(kCapacity)).value();
  const bool receiver = state.thread_index() == state.threads() - 1;
  const std::size_t posters = static_cast<std::size_t>(state.threads() - 1);
  Spin spin;
  Message m = Message::make(1, static_cast<std::uint32_t>(state.thread_index()));
  for (auto _ : state) {
    if (!receiver) {
      for (std::size_t i = 0; i < kBatch; ++i) {
        m.value = i;
        while (!box.tryPost(m)) spin.pause();
      }
    } else {
      for (std::size_t got = 0; got < kBatch * posters;) {
        Message in;
        if (box.tryReceive(in)) {
          ++got;
        } else {
          spin.pause();
        }
      }
    }
  }
  if (receiver) state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kBatch * posters));
}
BENCHMARK(BM_MpscMailbox_Transfer)->MinWarmUpTime(kWarmUpSeconds)->Threads(2)->Threads(3)->UseRealTime();

void BM_MutexDeque_MessageTransfer(benchmark::State& state) {
  static MutexQueue<Message> q;
  const bool receiver = state.thread_index() == state.threads() - 1;
  const std::size_t posters = static_cast<std::size_t>(state.threads() - 1);
  Spin spin;
  Message m = Message::make(1, static_cast<std::uint32_t>(state.thread_index()));
  for (auto _ : state) {
    if (!receiver) {
      for (std::size_t i = 0; i < kBatch; ++i) {
        m.value = i;
        while (!q.tryPush(m)) spin.pause();
      }
    } else {
      for (std::size_t got = 0; got < kBatch * posters;) {
        Message in;
        if (q.tryPop(in)) {
          ++got;
        } else {
          spin.pause();
        }
      }
    }
  }
  if (receiver) state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kBatch * posters));
}
BENCHMARK(BM_MutexDeque_MessageTransfer)->MinWarmUpTime(kWarmUpSeconds)->Threads(2)->Threads(3)->UseRealTime();

// ---- histogram: record cost alone and with every thread recording into one histogram -------------------------

std::vector<std::uint64_t> latencySamples() {
  std::mt19937_64 rng(1);
  std::vector<std::uint64_t> v(4096);
  for (auto& x : v) x = 100 + rng() % 400'000;  // 100 us .. 400 ms
  return v;
}

void BM_Histogram_Record(benchmark::State& state) {
  static Histogram histogram;  // shared by all threads of a multi-threaded run
  const std::vector<std::uint64_t> samples = latencySamples();
  std::size_t i = static_cast<std::size_t>(state.thread_index()) * 977;
  for (auto _ : state) {
    histogram.record(samples[i++ & 4095]);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Histogram_Record)->MinWarmUpTime(kWarmUpSeconds)->ThreadRange(1, 2)->UseRealTime();

// Baseline: the same buckets as plain counters under one mutex.
void BM_MutexHistogram_Record(benchmark::State& state) {
  struct Locked {
    std::mutex mutex;
    std::array<std::uint64_t, sotto::pipeline::HistogramBuckets::kCount> counts{};
    std::uint64_t sum = 0;
    std::uint64_t min = UINT64_MAX;
    std::uint64_t max = 0;
  };
  static Locked h;
  const std::vector<std::uint64_t> samples = latencySamples();
  std::size_t i = static_cast<std::size_t>(state.thread_index()) * 977;
  for (auto _ : state) {
    const std::uint64_t v = samples[i++ & 4095];
    std::lock_guard lock(h.mutex);
    ++h.counts[sotto::pipeline::HistogramBuckets::indexOf(v)];
    h.sum += v;
    h.min = std::min(h.min, v);
    h.max = std::max(h.max, v);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_MutexHistogram_Record)->MinWarmUpTime(kWarmUpSeconds)->ThreadRange(1, 2)->UseRealTime();

void BM_Histogram_Snapshot(benchmark::State& state) {
  static Histogram histogram;
  for (std::uint64_t v : latencySamples()) histogram.record(v);
  for (auto _ : state) {
    const auto s = histogram.snapshot().summary();
    benchmark::DoNotOptimize(s);
  }
}
BENCHMARK(BM_Histogram_Snapshot)->MinWarmUpTime(kWarmUpSeconds);

void BM_Heartbeat_Beat(benchmark::State& state) {
  static Heartbeat hb;
  for (auto _ : state) hb.beat();
  benchmark::DoNotOptimize(hb.beats());
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Heartbeat_Beat)->MinWarmUpTime(kWarmUpSeconds);

}  // namespace

int main(int argc, char** argv) {
  return sotto::bench::runBenchmarksMain(
      argc, argv,
      {
          {"ring push+pop, one thread", "BM_SpscRing_PushPop", "BM_MutexDeque_PushPop"},
          {"ring transfer, single items, 2 threads", "BM_SpscRing_Transfer", "BM_MutexDeque_Transfer"},
          {"ring transfer, bulk chunks, 2 threads", "BM_SpscRing_TransferBulk", "BM_MutexDeque_TransferBulk"},
          {"ring ping-pong round trips", "BM_SpscRing_PingPong", "BM_MutexDeque_PingPong"},
          {"mpsc mailbox transfer", "BM_MpscMailbox_Transfer", "BM_MutexDeque_MessageTransfer"},
          {"histogram record", "BM_Histogram_Record", "BM_MutexHistogram_Record"},
      });
}
