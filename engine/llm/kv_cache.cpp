// SPDX-License-Identifier: MIT
// KvCache creation: one allocation for every layer's keys and values.
#include "engine/llm/kv_cache.h"

#include <limits>
#include <new>
#include <string>

namespace sotto::llm {

Result<std::unique_ptr<KvCache>> KvCache::create(size_t layers, size_t kvHeads, size_t headDim, size_t capacity) {
  if (layers == 0 || kvHeads == 0 || headDim == 0 || capacity == 0) {
    return makeError(Errc::invalid_argument, "kv cache: empty dimension");
  }
  const size_t limit = std::numeric_limits<size_t>::max() / 4;
  const size_t layerElems = kvHeads * capacity * headDim;
  if (kvHeads > limit / headDim || kvHeads * headDim > limit / capacity || layerElems > limit / (2 * layers)) {
    return makeError(Errc::invalid_argument, "kv cache: size overflows");
  }
  std::unique_ptr<KvCache> c(new KvCache());
  c->layers_ = layers;
  c->kvHeads_ = kvHeads;
  c->headDim_ = headDim;
  c->capacity_ = capacity;
  c->layerElems_ = layerElems;
  try {
    c->storage_.resize(2 * layers * layerElems);
  } catch (const std::bad_alloc&) {
    return makeError(Errc::busy, "kv cache: cannot allocate " + std::to_string(2 * layers * layerElems * 2) + " bytes");
  }
  return c;
}

}  // namespace sotto::llm
