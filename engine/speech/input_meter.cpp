// SPDX-License-Identifier: MIT
// InputMeter: RMS level per window in fixed-point-friendly steps; no allocation after create().
#include "engine/speech/input_meter.h"

#include "engine/speech/audio_stage.h"

#include <time.h>

#include <cmath>

namespace sotto::speech {

InputMeter::InputMeter(uint32_t windowFrames, uint32_t chunkFrames)
    : windowFrames_(windowFrames), chunk_(chunkFrames, 0) {}

InputMeter::InputMeter(InputMeter&& other) noexcept
    : windowFrames_(other.windowFrames_),
      chunk_(std::move(other.chunk_)),
      commands_(std::move(other.commands_)),
      sumSquares_(other.sumSquares_),
      inWindow_(other.inWindow_),
      levelCentiDb_(other.levelCentiDb_.load(std::memory_order_relaxed)),
      frames_(other.frames_.load(std::memory_order_relaxed)) {}

Result<InputMeter> InputMeter::create(uint32_t windowFrames, uint32_t chunkFrames) {
  if (windowFrames == 0 || chunkFrames == 0) {
    return makeError(Errc::invalid_argument, "input meter: window and chunk must be at least one frame");
  }
  auto box = pipeline::SpscMailbox<pipeline::Message>::create(16);
  if (!box) return std::move(box).error();
  InputMeter meter(windowFrames, chunkFrames);
  meter.commands_ = std::move(box).value();
  return meter;
}

bool InputMeter::process(const int16_t* frames, size_t count) noexcept {
  bool completed = false;
  for (size_t i = 0; i < count; ++i) {
    int64_t s = frames[i];
    sumSquares_ += static_cast<uint64_t>(s * s);
    if (++inWindow_ == windowFrames_) {
      double meanSquare = static_cast<double>(sumSquares_) / windowFrames_;
      double db = meanSquare > 0 ? 10.0 * std::log10(meanSquare / (32768.0 * 32768.0)) : -120.0;
      if (db < -120.0) db = -120.0;
      levelCentiDb_.store(static_cast<int32_t>(std::lround(db * 100.0)), std::memory_order_relaxed);
      sumSquares_ = 0;
      inWindow_ = 0;
      completed = true;
    }
  }
  frames_.fetch_add(count, std::memory_order_relaxed);
  return completed;
}

double InputMeter::levelDbfs() const noexcept {
  return levelCentiDb_.load(std::memory_order_relaxed) / 100.0;
}

void InputMeter::run(pipeline::SpscRing<int16_t>& ring, const std::atomic<bool>& stop,
                     pipeline::Heartbeat& heartbeat) noexcept {
  while (!stop.load(std::memory_order_acquire)) {
    pipeline::Message m;
    while (commands_.tryReceive(m)) {
      if (m.type == static_cast<uint32_t>(AudioCommand::stall)) {
        while (!stop.load(std::memory_order_acquire)) {  // simulated hang: no beats until shutdown
          timespec ts{0, 10 * 1000000L};
          nanosleep(&ts, nullptr);
        }
      }
    }
    size_t n = ring.read(chunk_);
    if (n == 0) {
      // Waiting for the audio thread is bounded (a period), so this is progress, not idleness.
      heartbeat.beat();
      timespec ts{0, 2 * 1000000L};
      nanosleep(&ts, nullptr);
      continue;
    }
    process(chunk_.data(), n);
    heartbeat.beat();
  }
}

}  // namespace sotto::speech
