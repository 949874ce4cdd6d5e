// SPDX-License-Identifier: MIT
// The speech thread's first stage: drains the capture ring and keeps the input level (dBFS) per window.
// Wake word, VAD and ASR (speech issue) consume the same frames after it.
#pragma once

#include <atomic>
#include <cstdint>
#include <vector>

#include "engine/pipeline/health.h"
#include "engine/pipeline/mailbox.h"
#include "engine/pipeline/spsc_ring.h"
#include "sotto/hal/result.h"

namespace sotto::speech {

class InputMeter {
 public:
  // Control thread. windowFrames: frames per level window (e.g. 100 ms = 1600 at 16 kHz); chunkFrames: frames
  // taken from the ring per step (one capture period).
  static Result<InputMeter> create(uint32_t windowFrames, uint32_t chunkFrames);

  InputMeter(InputMeter&& other) noexcept;
  InputMeter& operator=(InputMeter&&) = delete;

  // Speech thread body: drains `ring` until `stop` is set; beats once per loop, sleeps a few ms on an empty ring
  // (this thread is not real time). Serves `commands()` (AudioCommand::stall for fault injection). No allocation.
  void run(pipeline::SpscRing<int16_t>& ring, const std::atomic<bool>& stop, pipeline::Heartbeat& heartbeat) noexcept;

  // Processes one chunk (the speech thread, or a test). Returns true when a window completed.
  bool process(const int16_t* frames, size_t count) noexcept;

  // Any thread: level of the last complete window in dBFS (-120 for digital silence), frames consumed.
  double levelDbfs() const noexcept;
  uint64_t frames() const noexcept { return frames_.load(std::memory_order_relaxed); }
  // Producer: the control thread.
  pipeline::SpscMailbox<pipeline::Message>& commands() { return commands_; }

 private:
  InputMeter(uint32_t windowFrames, uint32_t chunkFrames);
  uint32_t windowFrames_;
  std::vector<int16_t> chunk_;
  pipeline::SpscMailbox<pipeline::Message> commands_;
  uint64_t sumSquares_ = 0;   // of the window in progress
  uint32_t inWindow_ = 0;
  std::atomic<int32_t> levelCentiDb_{-12000};
  std::atomic<uint64_t> frames_{0};
};

}  // namespace sotto::speech
