// SPDX-License-Identifier: MIT
// Unicode helpers for the tokenizer: class lookup over the generated range table, UTF-8, GPT-2 byte map.
#include "engine/llm/unicode.h"

#include <algorithm>
#include <array>

#include "engine/llm/unicode_data.h"

namespace sotto::llm::unicode {
namespace {

using unicode_detail::kCpRangeCount;
using unicode_detail::kCpRanges;

uint8_t lookupBits(uint32_t cp) {
  // Last range whose first code point is <= cp. The key compares (cp << 8 | 0xFF) so equal starts match.
  const uint32_t key = (cp << 8) | 0xFFu;
  const uint32_t* end = kCpRanges + kCpRangeCount;
  const uint32_t* it = std::upper_bound(kCpRanges, end, key);
  return static_cast<uint8_t>(*(it - 1) & 0xFFu);
}

// Latin-1 answers straight from an array: almost all text the speaker sees stays there.
struct Latin1Table {
  std::array<CpClass, 256> cls{};
  Latin1Table() {
    for (uint32_t cp = 0; cp < 256; ++cp) cls[cp] = CpClass::fromTable(lookupBits(cp));
  }
};

const Latin1Table& latin1() {
  static const Latin1Table table;
  return table;
}

// GPT-2's bytes_to_unicode(): printable Latin-1 bytes map to themselves, the other 68 bytes to U+0100.. in order.
struct ByteMap {
  std::array<std::string, 256> toUtf8;
  std::array<int16_t, 324> fromCp{};  // code points < 0x144 cover the whole image
  ByteMap() {
    fromCp.fill(-1);
    uint32_t next = 256;
    for (uint32_t b = 0; b < 256; ++b) {
      const bool printable = (b >= 0x21 && b <= 0x7E) || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF);
      const uint32_t cp = printable ? b : next++;
      appendUtf8(cp, toUtf8[b]);
      fromCp[cp] = static_cast<int16_t>(b);
    }
  }
};

const ByteMap& byteMap() {
  static const ByteMap map;
  return map;
}

bool isCont(unsigned char b) { return (b & 0xC0) == 0x80; }

}  // namespace

CpClass classify(uint32_t cp) {
  if (cp < 256) return latin1().cls[cp];
  if (cp > 0x10FFFF) return CpClass::fromTable(static_cast<uint8_t>(CpCategory::undefined));
  return CpClass::fromTable(lookupBits(cp));
}

const char* tableVersion() { return unicode_detail::kUnicodeVersion; }

uint32_t decodeOne(std::string_view text, size_t& offset) {
  const size_t n = text.size();
  const auto b0 = static_cast<unsigned char>(text[offset]);
  if (b0 < 0x80) {
    offset += 1;
    return b0;
  }
  if ((b0 & 0x40) == 0) {  // stray continuation byte
    offset += 1;
    return kReplacementChar;
  }
  if ((b0 & 0x20) == 0) {
    if (offset + 1 < n && isCont(static_cast<unsigned char>(text[offset + 1]))) {
      const uint32_t cp = ((b0 & 0x1Fu) << 6) | (static_cast<unsigned char>(text[offset + 1]) & 0x3Fu);
      offset += 2;
      return cp;
    }
  } else if ((b0 & 0x10) == 0) {
    if (offset + 2 < n && isCont(static_cast<unsigned char>(text[offset + 1])) &&
        isCont(static_cast<unsigned char>(text[offset + 2]))) {
      const uint32_t cp = ((b0 & 0x0Fu) << 12) | ((static_cast<unsigned char>(text[offset + 1]) & 0x3Fu) << 6) |
                          (static_cast<unsigned char>(text[offset + 2]) & 0x3Fu);
      offset += 3;
      return cp;
    }
  } else if ((b0 & 0x08) == 0) {
    if (offset + 3 < n && isCont(static_cast<unsigned char>(text[offset + 1])) &&
        isCont(static_cast<unsigned char>(text[offset + 2])) && isCont(static_cast<unsigned char>(text[offset + 3]))) {
      const uint32_t cp = ((b0 & 0x07u) << 18) | ((static_cast<unsigned char>(text[offset + 1]) & 0x3Fu) << 12) |
                          ((static_cast<unsigned char>(text[offset + 2]) & 0x3Fu) << 6) |
                          (static_cast<unsigned char>(text[offset + 3]) & 0x3Fu);
      if (cp <= 0x10FFFF) {
        offset += 4;
        return cp;
      }
    }
  }
  offset += 1;
  return kReplacementChar;
}

void decode(std::string_view text, std::vector<uint32_t>& out) {
  size_t offset = 0;
  while (offset < text.size()) out.push_back(decodeOne(text, offset));
}

void appendUtf8(uint32_t cp, std::string& out) {
  if (cp <= 0x7F) {
    out.push_back(static_cast<char>(cp));
  } else if (cp <= 0x7FF) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp <= 0xFFFF) {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | ((cp >> 18) & 0x07)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

std::string_view byteToUnicode(uint8_t byte) { return byteMap().toUtf8[byte]; }

int unicodeToByte(uint32_t cp) {
  const auto& from = byteMap().fromCp;
  return cp < from.size() ? from[cp] : -1;
}

bool isValidUtf8(std::string_view text) {
  size_t i = 0;
  const size_t n = text.size();
  while (i < n) {
    const auto b0 = static_cast<unsigned char>(text[i]);
    if (b0 < 0x80) {
      ++i;
      continue;
    }
    size_t len = 0;
    unsigned char lo = 0x80, hi = 0xBF;  // allowed range of the second byte
    if (b0 >= 0xC2 && b0 <= 0xDF) {
      len = 2;
    } else if (b0 >= 0xE0 && b0 <= 0xEF) {
      len = 3;
      if (b0 == 0xE0) lo = 0xA0;
      if (b0 == 0xED) hi = 0x9F;
    } else if (b0 >= 0xF0 && b0 <= 0xF4) {
      len = 4;
      if (b0 == 0xF0) lo = 0x90;
      if (b0 == 0xF4) hi = 0x8F;
    } else {
      return false;
    }
    if (i + len > n) return false;
    const auto b1 = static_cast<unsigned char>(text[i + 1]);
    if (b1 < lo || b1 > hi) return false;
    for (size_t k = 2; k < len; ++k) {
      if (!isCont(static_cast<unsigned char>(text[i + k]))) return false;
    }
    i += len;
  }
  return true;
}

}  // namespace sotto::llm::unicode
