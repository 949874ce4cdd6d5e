// SPDX-License-Identifier: MIT
// Internal: one cache tier's preallocated records, LRU list and (exact tier) open-addressing hash index.
#pragma once

#include <atomic>
#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>
#include <vector>

#include "engine/cache/answer_cache.h"

namespace sotto::cache {

inline constexpr std::uint32_t kNone = 0xffffffffu;

struct Record {
  PromptFeatures features;
  std::uint64_t slots = 0;
  std::int64_t createdMs = 0;
  std::int64_t expiresMs = 0;
  std::uint32_t hits = 0;
  std::uint32_t answerLength = 0;
  std::uint32_t promptLength = 0;
  std::uint32_t prev = kNone, next = kNone;  // LRU list (head = most recently used); free list uses next
  AnswerClass answerClass = AnswerClass::staticKnowledge;
  bool used = false;
};

// Everything is sized in the constructor; no member function below allocates.
struct AnswerCache::Store {
  Store(std::size_t capacity, std::size_t dim, std::size_t maxPrompt, std::size_t maxAnswer, bool indexed);

  std::size_t capacity, dim, maxPrompt, maxAnswer;
  std::vector<Record> records;
  std::vector<char> prompts, answers;
  std::vector<float> embeddings;
  std::vector<std::int64_t> liveUntil;  // expiry per record, 0 = free: the semantic scan reads only this and
                                        // the embeddings, both contiguous
  std::vector<std::uint32_t> index;  // exact tier: record ids by hash, kNone = empty; size a power of two
  std::size_t mask = 0;
  std::uint32_t head = kNone, tail = kNone, freeHead = kNone;
  std::size_t size = 0;

  std::string_view prompt(std::uint32_t i) const noexcept {
    return {prompts.data() + i * maxPrompt, records[i].promptLength};
  }
  std::string_view answer(std::uint32_t i) const noexcept {
    return {answers.data() + i * maxAnswer, records[i].answerLength};
  }
  std::span<float> embedding(std::uint32_t i) noexcept { return {embeddings.data() + i * dim, dim}; }
  std::span<const float> embedding(std::uint32_t i) const noexcept { return {embeddings.data() + i * dim, dim}; }

  void unlink(std::uint32_t i) noexcept;
  void pushFront(std::uint32_t i) noexcept;
  void touch(std::uint32_t i) noexcept {
    unlink(i);
    pushFront(i);
  }
  // A free record (from the free list, or the least recently used one evicted: evicted set true).
  std::uint32_t acquire(bool& evicted) noexcept;
  void release(std::uint32_t i) noexcept;  // unlinks, unindexes and frees
  std::uint32_t find(const PromptFeatures& f) const noexcept;  // by hash and canonical text; kNone
  std::uint32_t findLinear(const PromptFeatures& f) const noexcept;
  void indexInsert(std::uint32_t i) noexcept;
  void indexErase(std::uint32_t i) noexcept;
  void clear() noexcept;
};

struct AnswerCache::Counters {
  std::atomic<std::uint64_t> lookups{0}, exactHits{0}, semanticLookups{0}, semanticHits{0};
  std::atomic<std::uint64_t> guardBlocks[kGuardCount] = {};
  std::atomic<std::uint64_t> inserts{0}, rejectedPii{0}, rejectedOther{0};
  std::atomic<std::uint64_t> evictionsExact{0}, evictionsSemantic{0}, expirations{0}, embedFailures{0};
};

inline void bump(std::atomic<std::uint64_t>& c) noexcept { c.fetch_add(1, std::memory_order_relaxed); }

}  // namespace sotto::cache
