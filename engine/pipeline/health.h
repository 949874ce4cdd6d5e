// SPDX-License-Identifier: MIT
// Stage heartbeats and the watchdog's HealthMonitor that tells a stalled stage from a busy or idle one.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>

#include "engine/pipeline/cache_line.h"
#include "sotto/hal/result.h"

namespace sotto::pipeline {

// CLOCK_MONOTONIC in nanoseconds. Any thread; through the vDSO on x86-64 and aarch64 (no system call).
std::uint64_t monotonicNowNs() noexcept;

// One stage's liveness signal. The stage's own thread calls beat() once per loop iteration (after each return
// from its blocking I/O, e.g. every 10 ms audio period) and markIdle() just before a wait that has no time bound
// by design (waiting for a wake word, for a request, playback paused). A stage that blocks forever anywhere else
// (a wedged driver, a deadlock, an endless loop that skips beat()) stops advancing and is reported stalled.
//
// It is a progress counter, not a timestamp: the stage does one relaxed load and one relaxed store on its own
// cache line, reads no clock and makes no system call; the monitor notes the time it saw the counter move.
class alignas(kCacheLine) Heartbeat {
 public:
  Heartbeat() noexcept = default;
  Heartbeat(const Heartbeat&) = delete;
  Heartbeat& operator=(const Heartbeat&) = delete;

  // The stage's thread only (single writer: no read-modify-write needed). Progress made; the stage is active.
  void beat() noexcept {
    word_.store(((word_.load(std::memory_order_relaxed) >> 1) + 1) << 1, std::memory_order_relaxed);
  }
  // The stage's thread only. Progress made; the stage now waits for work and is not expected to beat until its
  // next beat() (which makes it active again).
  void markIdle() noexcept {
    word_.store((((word_.load(std::memory_order_relaxed) >> 1) + 1) << 1) | 1, std::memory_order_relaxed);
  }

  std::uint64_t beats() const noexcept { return word_.load(std::memory_order_relaxed) >> 1; }  // any thread
  bool idle() const noexcept { return (word_.load(std::memory_order_relaxed) & 1) != 0; }     // any thread

 private:
  friend class HealthMonitor;
  std::atomic<std::uint64_t> word_{0};  // (beat count << 1) | idle
};

// Result of one HealthMonitor::check().
struct HealthStatus {
  bool healthy = true;
  std::string_view stalledStage;  // the first stalled stage in registration order; empty when healthy
  std::uint64_t stalledForNs = 0;  // how long that stage has shown no progress (as seen by the monitor)
  std::size_t stalledCount = 0;    // how many stages are stalled
};

// The watchdog's view of all stages. Stages are registered at configure time up to a fixed maximum; their
// Heartbeat objects live in storage reserved by create() and keep their addresses for the monitor's lifetime
// (also across moves of the monitor).
//
// Threads: create() and addStage() from the control thread at configure time (they allocate); check() from one
// watchdog thread, never allocating or blocking; the Heartbeats from their stages' threads.
class HealthMonitor {
 public:
  static constexpr std::size_t kMaxNameLength = 31;

  HealthMonitor() noexcept;  // room for no stage (defined where Stage is complete)

  static Result<HealthMonitor> create(std::size_t maxStages);

  HealthMonitor(HealthMonitor&&) noexcept;
  HealthMonitor& operator=(HealthMonitor&&) noexcept;
  ~HealthMonitor();

  // Control thread, configure time. name: 1..kMaxNameLength bytes, unique. Fails when full or on a bad name.
  // The returned Heartbeat is borrowed: owned by the monitor, handed to the stage's thread.
  Result<Heartbeat*> addStage(std::string_view name);

  // Watchdog thread. A stage is stalled when it is active (not idle) and the monitor has seen no beat from it for
  // more than stallLimitNs up to nowNs (from monotonicNowNs(), or a test's clock). The first check after a
  // stage is added, and every check that sees progress or an idle stage, restarts that stage's window; so
  // detection takes between stallLimitNs and stallLimitNs plus one check period.
  HealthStatus check(std::uint64_t nowNs, std::uint64_t stallLimitNs) noexcept;

  std::size_t stageCount() const noexcept { return count_; }
  std::size_t maxStages() const noexcept { return max_; }
  std::string_view stageName(std::size_t index) const noexcept;  // "" when out of range

 private:
  struct Stage;
  std::unique_ptr<Stage[]> stages_;
  std::size_t count_ = 0;
  std::size_t max_ = 0;
};

}  // namespace sotto::pipeline
