// SPDX-License-Identifier: MIT
// Linear softmax layers: int8 inference, float AdaGrad training, quantization.
#include "engine/nlu/linear.h"

#include <algorithm>
#include <cmath>

namespace sotto::nlu {

LinearLayer::LinearLayer(unsigned bits, std::size_t classes)
    : bits_(bits), classes_(classes), bias_(classes, 0.0f), scale_(std::size_t{1} << bits, 0.0f),
      q_((std::size_t{1} << bits) * classes, 0) {}

void LinearLayer::scores(std::span<const Feature> features, float* out) const noexcept {
  for (std::size_t c = 0; c < classes_; ++c) out[c] = bias_[c];
  for (const Feature& f : features) {
    const float s = scale_[f.index];
    if (s == 0.0f) continue;
    const float k = s * f.value;
    const std::int8_t* row = q_.data() + static_cast<std::size_t>(f.index) * classes_;
    for (std::size_t c = 0; c < classes_; ++c) out[c] += k * static_cast<float>(row[c]);
  }
}

void LinearLayer::setWeights(std::span<const float> weights, std::span<const float> bias) {
  std::copy(bias.begin(), bias.end(), bias_.begin());
  for (std::size_t r = 0; r < rows(); ++r) {
    const float* row = weights.data() + r * classes_;
    float m = 0.0f;
    for (std::size_t c = 0; c < classes_; ++c) m = std::max(m, std::fabs(row[c]));
    // Rows whose weights all round to nothing are dropped from the file.
    if (m < 1e-6f) {
      scale_[r] = 0.0f;
      std::fill_n(q_.data() + r * classes_, classes_, std::int8_t{0});
      continue;
    }
    scale_[r] = m / 127.0f;
    for (std::size_t c = 0; c < classes_; ++c) {
      q_[r * classes_ + c] = static_cast<std::int8_t>(std::lround(row[c] / scale_[r]));
    }
  }
}

void softmax(float* v, std::size_t n) noexcept {
  if (n == 0) return;
  const float m = *std::max_element(v, v + n);
  float sum = 0.0f;
  for (std::size_t i = 0; i < n; ++i) sum += (v[i] = std::exp(v[i] - m));
  for (std::size_t i = 0; i < n; ++i) v[i] /= sum;
}

SoftmaxTrainer::SoftmaxTrainer(std::size_t rows, std::size_t classes, float rate)
    : classes_(classes), w_(rows * classes, 0.0f), g_(rows * classes, 0.0f), b_(classes, 0.0f), gb_(classes, 0.0f),
      p_(classes), rate_(rate) {}

void SoftmaxTrainer::forward(std::span<const Feature> x) {
  for (std::size_t c = 0; c < classes_; ++c) p_[c] = b_[c];
  for (const Feature& f : x) {
    const float* row = &w_[f.index * classes_];
    for (std::size_t c = 0; c < classes_; ++c) p_[c] += f.value * row[c];
  }
  softmax(p_.data(), classes_);
}

void SoftmaxTrainer::step(std::span<const Feature> x, int gold) {
  forward(x);
  for (std::size_t c = 0; c < classes_; ++c) {
    const float d = p_[c] - (static_cast<int>(c) == gold ? 1.0f : 0.0f);
    if (d == 0.0f) continue;
    gb_[c] += d * d;
    b_[c] -= rate_ * d / std::sqrt(gb_[c] + 1e-6f);
    for (const Feature& f : x) {
      const std::size_t k = f.index * classes_ + c;
      const float gr = d * f.value;
      g_[k] += gr * gr;
      w_[k] -= rate_ * gr / std::sqrt(g_[k] + 1e-6f);
    }
  }
}

LinearLayer SoftmaxTrainer::layer(unsigned bits) const {
  LinearLayer l(bits, classes_);
  l.setWeights(w_, b_);
  return l;
}

}  // namespace sotto::nlu
