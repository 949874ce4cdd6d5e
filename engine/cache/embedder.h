// SPDX-License-Identifier: MIT
// Embedder: turns a prompt's canonical text into a sentence embedding for the semantic cache tier.
#pragma once

#include <cstddef>
#include <span>
#include <string_view>

#include "sotto/hal/result.h"

namespace sotto::cache {

// Threads: called by the cache's owning thread only (lookup/insert), one call at a time. Implementations may
// allocate (tokenization); the cache's own hot path does not.
class Embedder {
 public:
  virtual ~Embedder() = default;
  virtual std::size_t dimension() const noexcept = 0;
  // Writes dimension() floats into out (out.size() == dimension()). Need not be normalized.
  virtual Status embed(std::string_view text, std::span<float> out) = 0;

 protected:
  Embedder() = default;
  Embedder(const Embedder&) = default;
  Embedder& operator=(const Embedder&) = default;
};

}  // namespace sotto::cache
