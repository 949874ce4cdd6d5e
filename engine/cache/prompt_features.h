// SPDX-License-Identifier: MIT
// Prompt analysis for the answer cache: canonical text and key hash, plus the guard features (negation, numbers,
// named entities, content tokens) that keep the semantic tier from answering the opposite question.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace sotto::cache {

// Everything the cache keeps about one prompt, in fixed storage (about 1.2 KiB): analysing never allocates.
struct PromptFeatures {
  static constexpr std::size_t kTextCapacity = 384;  // canonical text bytes; longer prompts are not cacheable
  static constexpr std::size_t kMaxTokens = 48;
  static constexpr std::size_t kMaxEntities = 8;

  // Canonical form: lowercase normalized words joined by one space; numbers as digits ("5", "2.5"); clock times
  // as 24-hour "HH:MM" ("five pm", "5 pm", "5:00 pm" and "17:00" all become "17:00").
  char canonical[kTextCapacity] = {};
  std::size_t canonicalLength = 0;
  std::uint64_t hash = 0;  // FNV-1a 64 of the canonical text: the exact tier's key

  std::uint8_t negations = 0;        // not, no, never, nothing, ... (contractions expanded first)
  std::uint8_t numberCount = 0;      // number and time tokens
  std::uint64_t numberHash = 0;      // of the number and time tokens in order
  std::uint8_t entityCount = 0;
  std::array<std::uint64_t, kMaxEntities> entities{};  // hashes of named-entity words (lowercase)
  std::uint8_t tokenCount = 0;
  std::array<std::uint64_t, kMaxTokens> tokens{};  // hashes of canonical tokens, to check entities across prompts
  bool cacheable = false;  // false: empty after normalization, or too long to key reliably

  std::string_view text() const noexcept { return {canonical, canonicalLength}; }
};

// Analyses a prompt (UTF-8, typed or transcribed). Entities: every canonical word outside the common-word list
// (transcripts show no capitals), plus in written text (any uppercase letter) capitalized words that do not start
// a sentence ("May", "Turkey") and sentence-initial capitalized words outside the common-word list. Any thread; no allocation, no locks.
void analyzePrompt(std::string_view prompt, PromptFeatures& out) noexcept;

// Why a semantic candidate above the similarity threshold was refused.
enum class Guard : std::uint8_t { none, negation, numbers, entities, slots };
const char* guardName(Guard g) noexcept;

// The guards between a query and a cached prompt (slot signatures from slotSignature(); 0 = no intent slots).
// Returns Guard::none when the cached answer may serve the query. Any thread; no allocation.
Guard checkGuards(const PromptFeatures& query, std::uint64_t querySlots, const PromptFeatures& cached,
                  std::uint64_t cachedSlots) noexcept;

// FNV-1a 64 (stable across builds and runs: it keys the persistent file's entries after reload too).
std::uint64_t fnv1a64(std::string_view bytes, std::uint64_t seed = 14695981039346656037ull) noexcept;

// True when word (lowercase ASCII) is in the built-in list of common English words. Any thread.
bool isCommonWord(std::string_view word) noexcept;

}  // namespace sotto::cache
