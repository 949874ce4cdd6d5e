// SPDX-License-Identifier: MIT
// The audio thread's stage: capture periods into the capture ring, play periods from the playback ring.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "engine/pipeline/health.h"
#include "engine/pipeline/mailbox.h"
#include "engine/pipeline/spsc_ring.h"
#include "sotto/hal/audio.h"

namespace sotto::speech {

// Commands the control thread may send to the audio thread (Message::type).
enum class AudioCommand : uint32_t {
  stall = 1,  // fault injection for watchdog tests: stop beating and stop serving until asked to stop
};

struct AudioStageCounters {
  uint64_t capturedFrames = 0;
  uint64_t captureDropped = 0;     // frames lost because the capture ring was full (consumer too slow)
  uint64_t playedFrames = 0;
  uint64_t playbackUnderflows = 0; // periods padded with silence because the playback ring ran dry
  uint64_t deviceErrors = 0;       // failed reads/writes (each also ends the loop after too many in a row)
};

// Everything is reserved in create(); run() performs no allocation, lock or logging.
class AudioStage {
 public:
  // Control thread. Either device may be null (capture-only or playback-only speaker, or a device that failed to
  // open: the daemon keeps serving what it can); not both. Ring capacities are in frames (powers of two).
  static Result<std::unique_ptr<AudioStage>> create(std::unique_ptr<hal::AudioSource> source,
                                                    std::unique_ptr<hal::AudioSink> sink, size_t captureRingFrames,
                                                    size_t playbackRingFrames);

  // Control thread, before run(): starts the devices.
  Status start();
  // Audio thread body: loops until `stop` is set, beating `heartbeat` once per period. Returns false if it ended
  // because the devices kept failing (the control thread sees it through the heartbeat and counters).
  bool run(const std::atomic<bool>& stop, pipeline::Heartbeat& heartbeat) noexcept;
  // Control thread, after run() returned: stops the devices.
  void stopDevices();

  // Consumer: the speech thread. Frames in capture order, 16-bit mono at captureFormat().rateHz.
  pipeline::SpscRing<int16_t>& captureRing() { return captureRing_; }
  // Producer: the TTS thread.
  pipeline::SpscRing<int16_t>& playbackRing() { return playbackRing_; }
  // Producer: the control thread.
  pipeline::SpscMailbox<pipeline::Message>& commands() { return commands_; }

  bool hasCapture() const { return source_ != nullptr; }
  bool hasPlayback() const { return sink_ != nullptr; }
  const hal::AudioSource* source() const { return source_.get(); }
  const hal::AudioSink* sink() const { return sink_.get(); }
  AudioStageCounters counters() const;  // any thread, relaxed snapshot

 private:
  AudioStage() = default;
  void serveCommands(const std::atomic<bool>& stop) noexcept;

  std::unique_ptr<hal::AudioSource> source_;
  std::unique_ptr<hal::AudioSink> sink_;
  pipeline::SpscRing<int16_t> captureRing_;
  pipeline::SpscRing<int16_t> playbackRing_;
  pipeline::SpscMailbox<pipeline::Message> commands_;
  std::vector<int16_t> captureBuf_;   // one capture period
  std::vector<int16_t> playbackBuf_;  // one playback period
  std::atomic<uint64_t> captured_{0}, played_{0}, underflows_{0}, errors_{0};
};

}  // namespace sotto::speech
