// SPDX-License-Identifier: MIT
// The generated code point class table (unicode_data.cpp); read only through unicode.h.
#pragma once

#include <cstddef>
#include <cstdint>

namespace sotto::llm::unicode_detail {

extern const char* const kUnicodeVersion;
// Sorted by first code point: (first << 8) | class byte (bits 0-2 CpCategory, bit 3 White_Space).
extern const uint32_t kCpRanges[];
extern const size_t kCpRangeCount;

}  // namespace sotto::llm::unicode_detail
