// SPDX-License-Identifier: MIT
// Internal: the spoken-number lexer (digit words, oh, double/triple, tens/hundreds/thousands) and checksums.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "engine/privacy/pii_text.h"

namespace sotto::privacy::detail {

struct NumberWord {
  NumKind kind = NumKind::none;
  std::int8_t value = 0;
};
// Class of one normalized word ("oh" -> digit 0, "double" -> repeat 2, "fourth" -> ordinal 4).
NumberWord numberWord(std::string_view word) noexcept;

// One number as spoken: a digit ("five"), a pair ("thirty five", "nineteen"), a repeat ("double oh") or a
// compound ("six thousand eight hundred fourteen", "fifty five hundred"), or a written digit token.
struct Chunk {
  static constexpr std::size_t kMaxDigits = 24;
  std::uint16_t t0 = 0, t1 = 0;  // tokens
  std::uint8_t len = 0;
  bool compound = false;  // used hundred/thousand
  bool thousand = false;
  char digits[kMaxDigits] = {};
  std::uint64_t value() const noexcept;
};

// Reads one chunk starting at token i; false when no number starts there.
bool readChunk(const Utterance& u, std::size_t i, Chunk& out) noexcept;

// A run of adjacent chunks ("five five five oh one two three"): concatenated digits.
struct NumberRun {
  static constexpr std::size_t kMaxChunks = 40;
  static constexpr std::size_t kMaxDigits = 64;
  std::size_t t0 = 0, t1 = 0;
  std::size_t chunkCount = 0;
  Chunk chunks[kMaxChunks];
  char digits[kMaxDigits] = {};
  std::size_t len = 0;
  bool anyCompound = false;
  bool anyThousand = false;
  bool anyWritten = false;
  std::string_view view() const noexcept { return {digits, len}; }
  // Token end after the first k digits, when a chunk boundary falls exactly there; 0 otherwise.
  std::size_t tokenEndAfterDigits(std::size_t k) const noexcept;
};

// Reads chunks from token i while they stay adjacent, up to token limit (exclusive).
void readRun(const Utterance& u, std::size_t i, std::size_t limit, NumberRun& out) noexcept;

// A small cardinal read as one quantity ("thirty four", "one hundred and two", "34"), for ages and days.
// Returns false if no such number starts at i; end is the token after it.
bool readCardinal(const Utterance& u, std::size_t i, std::uint32_t& value, std::size_t& end) noexcept;

// Digits of an ASCII string (separators ignored) into buf; returns the count, or 0 when a non-digit
// non-separator character appears or buf is too small.
std::size_t collectDigits(std::string_view s, std::string_view separators, char* buf, std::size_t cap) noexcept;

bool luhnValid(std::string_view digits) noexcept;
// compact: uppercase letters and digits, no spaces (e.g. "GB82WEST12345698765432").
bool ibanValid(std::string_view compact) noexcept;
// Registered IBAN length for a two-letter country code; 0 if unknown.
std::size_t ibanLength(char c0, char c1) noexcept;

}  // namespace sotto::privacy::detail
