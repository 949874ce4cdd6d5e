// SPDX-License-Identifier: MIT
// Unicode helpers for the tokenizer: llama.cpp-compatible UTF-8 decoding, code point classes, GPT-2 byte map.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

// All functions are pure (or read immutable tables): any thread may call them concurrently.
namespace sotto::llm::unicode {

inline constexpr uint32_t kReplacementChar = 0xFFFD;

// General-category groups as the pre-tokenizer regexes see them (\p{L}, \p{N}, \p{P}, \p{S}, \p{M} ...).
enum class CpCategory : uint8_t {
  undefined = 0,  // unassigned (Cn) and anything past U+10FFFF
  number = 1,
  letter = 2,
  separator = 3,
  mark = 4,
  punctuation = 5,
  symbol = 6,
  control = 7,  // Cc, Cf, Co, Cs
};

// Class of one code point, or of "no code point" (outside the text being split), for which every predicate is
// false: the split rules look one or two code points ahead and must see the end of a segment as neither
// letter, number nor space.
class CpClass {
 public:
  constexpr CpClass() = default;
  static constexpr CpClass fromTable(uint8_t tableBits) { return CpClass(static_cast<uint8_t>(tableBits | kPresent)); }

  constexpr bool present() const { return (bits_ & kPresent) != 0; }
  constexpr CpCategory category() const { return static_cast<CpCategory>(bits_ & kCategoryMask); }
  constexpr bool isWhitespace() const { return (bits_ & kWhitespace) != 0; }
  constexpr bool isLetter() const { return is(CpCategory::letter); }
  constexpr bool isNumber() const { return is(CpCategory::number); }
  constexpr bool isPunctuation() const { return is(CpCategory::punctuation); }
  constexpr bool isSymbol() const { return is(CpCategory::symbol); }

 private:
  static constexpr uint8_t kCategoryMask = 0x07;
  static constexpr uint8_t kWhitespace = 0x08;
  static constexpr uint8_t kPresent = 0x10;
  constexpr explicit CpClass(uint8_t bits) : bits_(bits) {}
  constexpr bool is(CpCategory c) const {
    return (bits_ & (kPresent | kCategoryMask)) == (kPresent | static_cast<uint8_t>(c));
  }
  uint8_t bits_ = 0;
};

CpClass classify(uint32_t cp);
// Unicode version the class table was generated from.
const char* tableVersion();

// Lowercase for the contraction rules ('S, 'T, 'RE ...): ASCII only, which the table generator proves exact
// for the letters those rules use.
constexpr uint32_t asciiLower(uint32_t cp) { return (cp >= 'A' && cp <= 'Z') ? cp + ('a' - 'A') : cp; }

// Length of a UTF-8 sequence from its first byte, as llama.cpp's unicode_len_utf8: continuation and invalid
// bytes count as 1, 0xF0-0xFF as 4. Used where llama.cpp splits raw bytes into "characters" (SPM, BPE symbols).
constexpr size_t utf8LenFromLead(unsigned char b) {
  constexpr uint8_t kLookup[16] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 3, 4};
  return kLookup[b >> 4];
}

// Decodes one code point at text[offset], advancing offset. Follows llama.cpp (no overlong or surrogate checks,
// so the pre-tokenizer sees what llama.cpp sees); a malformed sequence yields U+FFFD and advances one byte.
// Unlike llama.cpp, a 4-byte form above U+10FFFF is malformed too (llama.cpp throws out of tokenize there).
uint32_t decodeOne(std::string_view text, size_t& offset);
// Appends the code points of `text` to `out`.
void decode(std::string_view text, std::vector<uint32_t>& out);
// Appends the UTF-8 form of cp (cp <= 0x10FFFF; surrogates are encoded as is, like llama.cpp).
void appendUtf8(uint32_t cp, std::string& out);

// GPT-2 byte-level alphabet: every byte maps to one printable code point (space -> U+0120 'Ġ', '\n' -> U+010A).
// byteToUnicode(b) is that code point's UTF-8 form; unicodeToByte returns -1 for code points outside the map.
std::string_view byteToUnicode(uint8_t byte);
int unicodeToByte(uint32_t cp);

// Strict UTF-8 (Unicode 15 table 3-7: no overlongs, no surrogates, <= U+10FFFF).
bool isValidUtf8(std::string_view text);

}  // namespace sotto::llm::unicode
