// SPDX-License-Identifier: MIT
// A linear softmax layer over hashed features (int8 weights, one scale per row), and its AdaGrad trainer: the
// building block of the trained understanding models (intents and slots here, personal data in engine/privacy).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "engine/nlu/features.h"

namespace sotto::nlu {

// One linear softmax layer over hashed features. Threads: read-only after load, any number of readers.
class LinearLayer {
 public:
  LinearLayer() = default;
  LinearLayer(unsigned bits, std::size_t classes);

  unsigned bits() const noexcept { return bits_; }
  std::size_t rows() const noexcept { return std::size_t{1} << bits_; }
  std::size_t classes() const noexcept { return classes_; }
  std::uint32_t rowMask() const noexcept { return static_cast<std::uint32_t>(rows() - 1); }

  // scores[c] = bias[c] + sum value * weight[row][c]; then softmax in place when probabilities is set.
  // scores must hold classes() floats. No allocation.
  void scores(std::span<const Feature> features, float* scores) const noexcept;

  // Trainer side: quantizes float weights (rows x classes, row-major) and biases into this layer.
  void setWeights(std::span<const float> weights, std::span<const float> bias);

 private:
  friend class ModelWriter;
  friend class ModelReader;
  unsigned bits_ = 0;
  std::size_t classes_ = 0;
  std::vector<float> bias_;
  std::vector<float> scale_;       // per row; 0 = the row is all zero
  std::vector<std::int8_t> q_;     // rows x classes
};

void softmax(float* values, std::size_t n) noexcept;

// Trains a layer's float weights by AdaGrad on the softmax cross-entropy, one example at a time. Not real-time.
// Threads: one thread at a time.
class SoftmaxTrainer {
 public:
  SoftmaxTrainer(std::size_t rows, std::size_t classes, float rate);
  // Probabilities for x into probabilities() (classes values).
  void forward(std::span<const Feature> x);
  // One step towards `gold`.
  void step(std::span<const Feature> x, int gold);
  const std::vector<float>& probabilities() const noexcept { return p_; }
  // The quantized layer of the weights so far.
  LinearLayer layer(unsigned bits) const;

 private:
  std::size_t classes_;
  std::vector<float> w_, g_, b_, gb_, p_;
  float rate_;
};

}  // namespace sotto::nlu
