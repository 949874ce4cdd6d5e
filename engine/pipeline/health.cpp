// SPDX-License-Identifier: MIT
// HealthMonitor: stage registration and the watchdog's stall check.
#include "engine/pipeline/health.h"

#include <time.h>

#include <algorithm>
#include <cstring>
#include <new>
#include <string>
#include <utility>

namespace sotto::pipeline {

std::uint64_t monotonicNowNs() noexcept {
  timespec ts{};
  ::clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<std::uint64_t>(ts.tv_sec) * 1'000'000'000u + static_cast<std::uint64_t>(ts.tv_nsec);
}

// The heartbeat leads (its own cache line, written by the stage); the watchdog's bookkeeping follows on lines the
// stage never writes.
struct HealthMonitor::Stage {
  Heartbeat heartbeat;
  char name[kMaxNameLength + 1] = {};
  std::size_t nameLength = 0;
  std::uint64_t lastWord = 0;        // heartbeat word at the last check
  std::uint64_t lastProgressNs = 0;  // when the monitor last saw the word change (or the stage idle)
  bool seen = false;                 // false until the first check establishes a baseline
};

Result<HealthMonitor> HealthMonitor::create(std::size_t maxStages) {
  if (maxStages == 0 || maxStages > 1024) {
    return makeError(Errc::invalid_argument, "HealthMonitor: maxStages " + std::to_string(maxStages) +
                                                 " out of range [1, 1024]");
  }
  std::unique_ptr<Stage[]> stages(new (std::nothrow) Stage[maxStages]);
  if (!stages) return makeError(Errc::busy, "HealthMonitor: out of memory");
  HealthMonitor m;
  m.stages_ = std::move(stages);
  m.max_ = maxStages;
  return m;
}

HealthMonitor::HealthMonitor() noexcept = default;

HealthMonitor::HealthMonitor(HealthMonitor&& other) noexcept
    : stages_(std::move(other.stages_)), count_(std::exchange(other.count_, 0)), max_(std::exchange(other.max_, 0)) {}

HealthMonitor& HealthMonitor::operator=(HealthMonitor&& other) noexcept {
  if (this != &other) {
    stages_ = std::move(other.stages_);
    count_ = std::exchange(other.count_, 0);
    max_ = std::exchange(other.max_, 0);
  }
  return *this;
}

HealthMonitor::~HealthMonitor() = default;

Result<Heartbeat*> HealthMonitor::addStage(std::string_view name) {
  if (name.empty() || name.size() > kMaxNameLength) {
    return makeError(Errc::invalid_argument, "HealthMonitor: stage name '" + std::string(name) + "' must be 1.." +
                                                 std::to_string(kMaxNameLength) + " bytes");
  }
  for (std::size_t i = 0; i < count_; ++i) {
    if (stageName(i) == name) {
      return makeError(Errc::invalid_argument, "HealthMonitor: stage '" + std::string(name) + "' already added");
    }
  }
  if (count_ == max_) {
    return makeError(Errc::busy, "HealthMonitor: no room for stage '" + std::string(name) + "' (max " +
                                     std::to_string(max_) + ")");
  }
  Stage& s = stages_[count_++];
  std::memcpy(s.name, name.data(), name.size());
  s.nameLength = name.size();
  return &s.heartbeat;
}

std::string_view HealthMonitor::stageName(std::size_t index) const noexcept {
  if (index >= count_) return {};
  return {stages_[index].name, stages_[index].nameLength};
}

HealthStatus HealthMonitor::check(std::uint64_t nowNs, std::uint64_t stallLimitNs) noexcept {
  HealthStatus status;
  for (std::size_t i = 0; i < count_; ++i) {
    Stage& s = stages_[i];
    const std::uint64_t word = s.heartbeat.word_.load(std::memory_order_relaxed);
    // Progress, a first sighting, or an idle stage (waiting for work is healthy): restart the window.
    if (!s.seen || word != s.lastWord || (word & 1) != 0) {
      s.seen = true;
      s.lastWord = word;
      s.lastProgressNs = nowNs;
      continue;
    }
    const std::uint64_t silentNs = nowNs > s.lastProgressNs ? nowNs - s.lastProgressNs : 0;
    if (silentNs > stallLimitNs) {
      if (status.healthy) {
        status.healthy = false;
        status.stalledStage = stageName(i);
        status.stalledForNs = silentNs;
      }
      ++status.stalledCount;
    }
  }
  return status;
}

}  // namespace sotto::pipeline
