// SPDX-License-Identifier: MIT
// Wake word model: log-mel features of the captured stream and a small convolutional network over its last 1.5 s
// that says whether the wake phrase has just been said (trained on generated speech: bench/speech/wake_train).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "sotto/hal/result.h"

namespace sotto::speech {

// 40 log-mel energies per 10 ms frame of 16 kHz audio: 25 ms Hann window, 512-point FFT, 60-7600 Hz (HTK mel).
// One owner thread; the constructor builds the tables (allocates), push() does not allocate.
class LogMel {
 public:
  static constexpr size_t kFrame = 160, kWindow = 400, kFft = 512, kBands = 40;
  LogMel();
  // One 10 ms frame in (kFrame samples), kBands values out: the features of the 25 ms ending with this frame.
  void push(std::span<const int16_t> frame, float* out) noexcept;
  void reset() noexcept;
  static float silence() noexcept;  // every band's value for digital silence

 private:
  void fft() noexcept;
  std::vector<float> hann_, history_, re_, im_, cos_, sin_, melWeight_;
  std::vector<uint16_t> bitReverse_, melFirst_, melCount_;
  std::vector<uint32_t> melOffset_;
};

// One convolution over time: `out` channels, each a kernel of `kernel` frames × `in` channels, every `stride`
// frames, then ReLU.
struct WakeLayer {
  uint32_t in = 0, out = 0, kernel = 0, stride = 0;
};

// The network and how the detector uses it. Parameters are one flat vector: per layer W[out][kernel][in] then
// b[out]; then the output unit's weights (one per last-layer channel, after the max over time) and its bias.
// Any thread may read a loaded model; it is not changed after load.
struct WakeModel {
  static constexpr uint32_t kMaxLayers = 8, kMaxChannels = 256, kMaxWindowFrames = 400;
  std::string phrase;
  uint32_t windowFrames = 150;  // frames the network sees (1.5 s)
  uint32_t hopFrames = 2;       // the detector runs the network every hopFrames frames
  float threshold = 0.5f;       // probability at which the phrase counts as heard ...
  uint32_t consecutive = 2;     // ... in this many consecutive runs
  uint32_t endLagFrames = 20;   // typical frames between the phrase's end and the detection (for the ASR hand-off)
  std::vector<WakeLayer> layers;
  std::vector<float> mean, invStd;  // per band: features are (logmel - mean) * invStd
  std::vector<float> params;

  // Frames out of layer l (l = layers.size(): the time steps the max runs over), given windowFrames.
  size_t framesOut(size_t l) const noexcept;
  size_t paramCount() const noexcept;
  // Floats of scratch forward() needs: every layer's output (the trainer keeps them for the backward pass).
  size_t activationFloats() const noexcept;
  // Checks shapes, counts and values (finite); the error names the problem.
  Status validate() const;

  // Logit of "the phrase was just said" for windowFrames normalized feature frames (time-major, kBands each);
  // `acts` holds activationFloats() floats (the layers' outputs, for a backward pass). No allocation.
  float forward(const float* x, float* acts) const noexcept;

  // File format "SOTTOWK1": header, shapes, normalization, parameters, CRC-32 of all before it.
  std::vector<std::byte> serialize() const;
  static Result<WakeModel> parse(std::span<const std::byte> bytes, const std::string& what);
  static Result<WakeModel> load(const std::string& path);  // control thread (reads the file)
};

// Streaming detector on the captured stream: features per 10 ms frame into a ring, the network every hopFrames
// frames. One owner thread (the speech thread); create() allocates, process() does not.
class WakeDetector {
 public:
  static Result<WakeDetector> create(WakeModel model);
  // One 10 ms frame (LogMel::kFrame samples). True when the phrase was heard in this frame.
  bool process(std::span<const int16_t> frame) noexcept;
  // Clears the history (after a detection, or a gap in the stream): the next detection needs a fresh window.
  void reset() noexcept;
  float lastProbability() const noexcept { return lastP_; }
  float maxProbability() const noexcept { return maxP_; }  // since reset()
  const WakeModel& model() const noexcept { return model_; }
  uint64_t runs() const noexcept { return runs_; }

 private:
  WakeModel model_;
  LogMel mel_;
  std::vector<float> ring_, window_, acts_, frame_;
  uint64_t frames_ = 0, runs_ = 0;
  uint32_t above_ = 0;
  float lastP_ = 0, maxP_ = 0;
};

}  // namespace sotto::speech
