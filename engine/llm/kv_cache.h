// SPDX-License-Identifier: MIT
// KvCache: every layer's F16 keys and values for one sequence, reserved for the whole context at creation.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "sotto/hal/compute.h"
#include "sotto/hal/result.h"

namespace sotto::llm {

// Layout per layer is hal::KvCacheView's ([kvHeads][capacity][headDim], K and V alike), so the compute backend
// streams a head's history contiguously. The cache only tracks how many positions are valid; positions at or
// beyond length() hold stale values that attention never reads.
//
// Threading: one thread at a time (the thread that runs the context owning it); nothing allocates after create().
class KvCache {
 public:
  // Control thread; allocates layers × 2 × kvHeads × capacity × headDim × 2 bytes.
  static Result<std::unique_ptr<KvCache>> create(size_t layers, size_t kvHeads, size_t headDim, size_t capacity);

  size_t layers() const { return layers_; }
  size_t capacity() const { return capacity_; }
  size_t length() const { return length_; }
  size_t bytes() const { return storage_.size() * sizeof(uint16_t); }

  hal::KvCacheView view(size_t layer) {
    uint16_t* base = storage_.data() + layer * 2 * layerElems_;
    return hal::KvCacheView{base, base + layerElems_, kvHeads_, headDim_, capacity_};
  }
  // Marks positions [0, n) valid (after a forward pass stored them) or drops everything from n on (n ≤ length).
  void setLength(size_t n) { length_ = n < capacity_ ? n : capacity_; }
  void clear() { length_ = 0; }

 private:
  KvCache() = default;
  size_t layers_ = 0, kvHeads_ = 0, headDim_ = 0, capacity_ = 0, layerElems_ = 0, length_ = 0;
  std::vector<uint16_t> storage_;
};

}  // namespace sotto::llm
