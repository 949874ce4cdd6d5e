// SPDX-License-Identifier: MIT
// One cache tier's storage: preallocated records, intrusive LRU list and a linear-probing hash index.
#include "engine/cache/answer_cache_store.h"

namespace sotto::cache {

namespace {
std::size_t powerOfTwoAtLeast(std::size_t n) {
  std::size_t p = 1;
  while (p < n) p <<= 1;
  return p;
}
}  // namespace

AnswerCache::Store::Store(std::size_t capacity_, std::size_t dim_, std::size_t maxPrompt_, std::size_t maxAnswer_,
                          bool indexed)
    : capacity(capacity_), dim(dim_), maxPrompt(maxPrompt_), maxAnswer(maxAnswer_) {
  records.resize(capacity);
  prompts.resize(capacity * maxPrompt);
  answers.resize(capacity * maxAnswer);
  embeddings.resize(capacity * dim);
  liveUntil.assign(capacity, 0);
  if (indexed && capacity > 0) {
    index.assign(powerOfTwoAtLeast(capacity * 2), kNone);
    mask = index.size() - 1;
  }
  clear();
}

void AnswerCache::Store::clear() noexcept {
  head = tail = kNone;
  size = 0;
  freeHead = kNone;
  for (std::size_t i = capacity; i-- > 0;) {
    records[i].used = false;
    liveUntil[i] = 0;
    records[i].prev = kNone;
    records[i].next = freeHead;
    freeHead = static_cast<std::uint32_t>(i);
  }
  for (auto& slot : index) slot = kNone;
}

void AnswerCache::Store::unlink(std::uint32_t i) noexcept {
  Record& r = records[i];
  if (r.prev != kNone) records[r.prev].next = r.next; else head = r.next;
  if (r.next != kNone) records[r.next].prev = r.prev; else tail = r.prev;
  r.prev = r.next = kNone;
}

void AnswerCache::Store::pushFront(std::uint32_t i) noexcept {
  Record& r = records[i];
  r.prev = kNone;
  r.next = head;
  if (head != kNone) records[head].prev = i;
  head = i;
  if (tail == kNone) tail = i;
}

std::uint32_t AnswerCache::Store::acquire(bool& evicted) noexcept {
  evicted = false;
  if (capacity == 0) return kNone;
  if (freeHead != kNone) {
    const std::uint32_t i = freeHead;
    freeHead = records[i].next;
    records[i].next = kNone;
    return i;
  }
  const std::uint32_t victim = tail;
  release(victim);
  evicted = true;
  const std::uint32_t i = freeHead;
  freeHead = records[i].next;
  records[i].next = kNone;
  return i;
}

void AnswerCache::Store::release(std::uint32_t i) noexcept {
  if (!records[i].used) return;
  unlink(i);
  if (!index.empty()) indexErase(i);
  records[i].used = false;
  liveUntil[i] = 0;
  records[i].next = freeHead;
  freeHead = i;
  --size;
}

std::uint32_t AnswerCache::Store::find(const PromptFeatures& f) const noexcept {
  if (index.empty()) return findLinear(f);
  for (std::size_t pos = f.hash & mask;; pos = (pos + 1) & mask) {
    const std::uint32_t i = index[pos];
    if (i == kNone) return kNone;
    const Record& r = records[i];
    if (r.features.hash == f.hash && r.features.text() == f.text()) return i;
  }
}

std::uint32_t AnswerCache::Store::findLinear(const PromptFeatures& f) const noexcept {
  for (std::uint32_t i = head; i != kNone; i = records[i].next) {
    if (records[i].features.hash == f.hash && records[i].features.text() == f.text()) return i;
  }
  return kNone;
}

void AnswerCache::Store::indexInsert(std::uint32_t i) noexcept {
  std::size_t pos = records[i].features.hash & mask;
  while (index[pos] != kNone) pos = (pos + 1) & mask;
  index[pos] = i;
}

// Backward-shift deletion keeps every probe chain unbroken without tombstones.
void AnswerCache::Store::indexErase(std::uint32_t i) noexcept {
  std::size_t pos = records[i].features.hash & mask;
  while (index[pos] != i) {
    if (index[pos] == kNone) return;
    pos = (pos + 1) & mask;
  }
  std::size_t hole = pos;
  for (std::size_t j = (hole + 1) & mask; index[j] != kNone; j = (j + 1) & mask) {
    const std::size_t home = records[index[j]].features.hash & mask;
    // Move j into the hole unless its home lies cyclically in (hole, j].
    const bool homeBetween = hole <= j ? (home > hole && home <= j) : (home > hole || home <= j);
    if (!homeBetween) {
      index[hole] = index[j];
      hole = j;
    }
  }
  index[hole] = kNone;
}

}  // namespace sotto::cache
