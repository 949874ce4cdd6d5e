// SPDX-License-Identifier: MIT
// Prompt analysis for the answer cache: canonical text and key hash, plus the guard features (negation, numbers,
// named entities, content words) that keep the semantic tier from answering the opposite (or another) question.
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
  static constexpr std::size_t kMaxContent = kMaxTokens;

  // Canonical form: lowercase normalized words joined by one space; numbers as digits ("5", "2.5"); clock times
  // as 24-hour "HH:MM" ("five pm", "5 pm", "5:00 pm" and "17:00" all become "17:00").
  char canonical[kTextCapacity] = {};
  std::size_t canonicalLength = 0;
  std::uint64_t hash = 0;  // FNV-1a 64 of the canonical text: the exact tier's key

  std::uint8_t negations = 0;        // not, no, never, nothing, ... (contractions expanded first)
  std::uint8_t numberCount = 0;      // number and time tokens
  std::uint64_t numberHash = 0;      // of the number and time tokens in order
  std::uint8_t entityCount = 0;
  std::array<std::uint64_t, kMaxEntities> entities{};  // hashes of named-entity words' stems (lowercase)
  std::uint8_t tokenCount = 0;
  std::array<std::uint64_t, kMaxTokens> tokens{};  // hashes of canonical tokens' stems, to check entities across
                                                   // prompts
  std::uint8_t contentCount = 0;
  // Hashes (32-bit: a collision can only let one pair of words pass as equal) of the distinct stemmed content
  // words (contentWordStem), for the content guard.
  std::array<std::uint32_t, kMaxContent> content{};
  bool cacheable = false;  // false: empty after normalization, or too long to key reliably

  std::string_view text() const noexcept { return {canonical, canonicalLength}; }
};

// Analyses a prompt (UTF-8, typed or transcribed). Entities: every canonical word outside the common-word list
// (transcripts show no capitals), plus in written text (any uppercase letter) capitalized words that do not start
// a sentence ("May", "Turkey") and sentence-initial capitalized words outside the common-word list. Any thread; no allocation, no locks.
void analyzePrompt(std::string_view prompt, PromptFeatures& out) noexcept;

// Why a semantic candidate above the similarity threshold was refused. New values go at the end (metrics index
// by value); kGuardCount sizes every per-guard array.
enum class Guard : std::uint8_t { none, negation, numbers, entities, slots, content };
inline constexpr std::size_t kGuardCount = 6;
const char* guardName(Guard g) noexcept;

// The guards between a query and a cached prompt (slot signatures from slotSignature(); 0 = no intent slots).
// Returns Guard::none when the cached answer may serve the query. contentGuard false skips the content-word guard
// (only to measure what it prevents). Any thread; no allocation.
Guard checkGuards(const PromptFeatures& query, std::uint64_t querySlots, const PromptFeatures& cached,
                  std::uint64_t cachedSlots, bool contentGuard = true) noexcept;

// The content guard's rule: the two prompts' content words (canonical words that are not stop words, fillers,
// politeness or request frames, nor numbers; stemmed) must overlap in at least 3/4 of the larger set, so prompts
// with up to three content words must have the same ones, and longer ones may differ in one word in four. Both
// empty passes (nothing to compare: the other guards and the embedding decide); one empty fails. Any thread.
bool contentWordsAgree(const PromptFeatures& a, const PromptFeatures& b) noexcept;

// The stem the content guard compares (lowercase ASCII word in, view of buf out): plural and verb endings
// folded ("cities" -> "city", "timers" -> "timer", "baking"/"baked"/"bake" -> "bak", "running" -> "run"),
// nothing else. Any thread.
std::string_view contentWordStem(std::string_view word, char (&buf)[64]) noexcept;

// True when word (lowercase, canonical) never names what a question is about: function words, question words,
// auxiliaries, pronouns, fillers, politeness and request verbs ("tell", "know", "wondering"). Any thread.
bool isStopWord(std::string_view word) noexcept;

// FNV-1a 64 (stable across builds and runs: it keys the persistent file's entries after reload too).
std::uint64_t fnv1a64(std::string_view bytes, std::uint64_t seed = 14695981039346656037ull) noexcept;

// True when word (lowercase ASCII) is in the built-in list of common English words. Any thread.
bool isCommonWord(std::string_view word) noexcept;

}  // namespace sotto::cache
