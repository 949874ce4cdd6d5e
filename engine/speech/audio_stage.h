// SPDX-License-Identifier: MIT
// The audio thread's stage: capture periods into the capture ring, play periods from the playback ring.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "engine/pipeline/cancel_token.h"
#include "engine/pipeline/health.h"
#include "engine/pipeline/mailbox.h"
#include "engine/pipeline/spsc_ring.h"
#include "engine/speech/echo_canceller.h"
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
  uint64_t cycles = 0;             // periods served (capture and/or playback)
  bool captureEnded = false;       // a finite source (wav) reached its end: no more frames will come
  uint64_t playbackDropped = 0;    // frames of cancelled answers dropped from the playback ring (barge-in)
  // Captured frames (audio time) when the audio thread last saw the cancel token set while it was not before:
  // playback stopped at that period. 0 = never.
  uint64_t playbackStoppedAtFrame = 0;
  EchoCounters echo;               // zeros when echo cancellation is off
};

// Options of the audio stage beyond its devices and rings.
struct AudioStageOptions {
  // Acoustic echo cancellation of the capture against what the stage plays (needs both devices).
  bool echoCancel = false;
  uint32_t echoTailMs = 128;
  uint32_t echoDelayMs = 0;
  // Barge-in: while this token is cancelled the stage drops what is queued for playback and plays silence (the
  // answer being played was cancelled). Borrowed; must outlive the stage. Null = never.
  const pipeline::CancelToken* playbackCancel = nullptr;
};

// What one period of the stage did (cycle()).
enum class CycleResult {
  ok,
  failed,  // a device read or write failed
  ended,   // the capture stream has ended: nothing paces the loop but the playback device, if any
};

// Everything is reserved in create(); run() performs no allocation, lock or logging.
class AudioStage {
 public:
  // Control thread. Either device may be null (capture-only or playback-only speaker, or a device that failed to
  // open: the daemon keeps serving what it can); not both. Ring capacities are in frames (powers of two).
  static Result<std::unique_ptr<AudioStage>> create(std::unique_ptr<hal::AudioSource> source,
                                                    std::unique_ptr<hal::AudioSink> sink, size_t captureRingFrames,
                                                    size_t playbackRingFrames,
                                                    const AudioStageOptions& options = {});

  // Control thread, before run(): starts the devices.
  Status start();
  // Audio thread body: loops until `stop` is set, beating `heartbeat` once per period. Returns false if it ended
  // because the devices kept failing (the control thread sees it through the heartbeat and counters).
  // At the end of a finite capture stream (a 0-frame read) the stage stops reading the source and paces itself to
  // real time (so a `?fast` file does not make it spin), still serving playback.
  bool run(const std::atomic<bool>& stop, pipeline::Heartbeat& heartbeat) noexcept;
  // One period: capture (echo-cancelled), playback, reference. The body of run(); tests call it directly on one
  // thread, in lockstep with the consumer and producer of the rings, to make audio time deterministic. Never
  // blocks beyond device I/O; no allocation, lock or logging.
  CycleResult cycle() noexcept;
  // Control thread, after run() returned: stops the devices.
  void stopDevices();

  // Consumer: the speech thread. Frames in capture order, 16-bit mono at captureFormat().rateHz.
  pipeline::SpscRing<int16_t>& captureRing() { return captureRing_; }
  // Producer: the TTS thread.
  pipeline::SpscRing<int16_t>& playbackRing() { return playbackRing_; }
  // Producer: the control thread.
  pipeline::SpscMailbox<pipeline::Message>& commands() { return commands_; }
  // Notified by the audio thread after each period written to the capture ring and when a finite capture stream
  // ends: the speech thread sleeps on it instead of polling the ring. Whoever stops the pipeline or posts the
  // speech thread a command notifies it too. Any thread.
  pipeline::Wakeup& captureWakeup() const noexcept { return captureWake_; }
  // Notified by the audio thread whenever it took frames out of the playback ring (played or dropped on a
  // cancel): the TTS thread sleeps on it while the ring holds its lead. Any thread.
  pipeline::Wakeup& playbackWakeup() const noexcept { return playbackWake_; }

  // Any thread: whether the last period played queued audio (not filler silence): the device is speaking.
  bool playing() const noexcept { return playing_.load(std::memory_order_relaxed); }
  bool echoCancelling() const noexcept { return echo_ != nullptr; }

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
  mutable pipeline::Wakeup captureWake_, playbackWake_;
  std::vector<int16_t> captureBuf_;   // one capture period
  std::vector<int16_t> playbackBuf_;  // one playback period
  std::unique_ptr<EchoCanceller> echo_;      // null: no echo cancellation
  const pipeline::CancelToken* cancel_ = nullptr;
  bool wasCancelled_ = false;
  // Single writer (the audio thread); read from any thread.
  std::atomic<uint64_t> captured_{0}, played_{0}, underflows_{0}, errors_{0}, cycles_{0};
  std::atomic<uint64_t> playbackDropped_{0}, stoppedAt_{0};
  std::atomic<bool> captureEnded_{false}, playing_{false};
};

}  // namespace sotto::speech
