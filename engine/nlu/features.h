// SPDX-License-Identifier: MIT
// Hashed features of normalized words for the trained understanding models: the sentence's words, word pairs
// and character n-grams (the intent classifier), and a word's neighbourhood, shape and the intent (the tagger).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace sotto::nlu {

struct Feature {
  std::uint32_t index = 0;  // already reduced to the layer's rows
  float value = 0.0f;
};

// A fixed-capacity feature vector: extraction never allocates. Features past the capacity are dropped (and
// counted), which only costs accuracy on absurdly long input.
class FeatureList {
 public:
  static constexpr std::size_t kCapacity = 2048;

  explicit FeatureList(std::uint32_t rowMask = 0) noexcept : mask_(rowMask) {}
  void reset(std::uint32_t rowMask) noexcept {
    mask_ = rowMask;
    n_ = 0;
    dropped_ = 0;
  }
  void add(std::uint32_t hash, float value) noexcept {
    if (n_ == kCapacity) {
      ++dropped_;
      return;
    }
    items_[n_++] = Feature{hash & mask_, value};
  }
  // Scales every value so that the vector has unit length (the classifier's input).
  void normalize() noexcept;

  std::span<const Feature> view() const noexcept { return {items_, n_}; }
  std::size_t size() const noexcept { return n_; }
  std::size_t dropped() const noexcept { return dropped_; }

 private:
  Feature items_[kCapacity];
  std::size_t n_ = 0;
  std::size_t dropped_ = 0;
  std::uint32_t mask_ = 0;
};

// FNV-1a over a kind byte and up to three strings (separated), so "w:ab" and "b:a|b" never share a hash by
// construction of the input. Any thread.
std::uint32_t featureHash(std::uint8_t kind, std::string_view a, std::string_view b = {},
                          std::string_view c = {}) noexcept;

// The intent classifier's input for normalized tokens: a bias, each word, each pair of neighbours (with the
// sentence's start and end), character 3- and 4-grams of each word (misspellings, inflections, split words),
// and the sentence's length. Unit length. Any thread; no allocation.
void sentenceFeatures(std::span<const std::string_view> words, FeatureList& out) noexcept;

// The tagger's input for word i: the word, its neighbours to two either side, the pairs around it, prefix and
// suffix, shape, and the same conjoined with the intent (intentTag: the intent's name, so a slot reads
// differently in a timer and a forecast). Any thread; no allocation.
void tokenFeatures(std::span<const std::string_view> words, std::size_t i, std::string_view intentTag,
                   FeatureList& out) noexcept;

}  // namespace sotto::nlu
