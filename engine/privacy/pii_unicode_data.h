// SPDX-License-Identifier: MIT
// Internal: the generated Unicode tables of the personal-data text normalizer (pii_unicode_data.cpp, made by
// gen_pii_unicode.py from Debian's unicode-data). Constant data: any thread.
#pragma once

#include <cstddef>
#include <cstdint>

namespace sotto::privacy::detail {

struct DecompEntry {
  std::uint32_t cp;
  std::uint16_t first;  // index into kDecompPool
  std::uint8_t length;
};
struct ComposePair {
  std::uint32_t first, second, composite;
};
struct CpRange {
  std::uint32_t first, last;  // inclusive
};

extern const char* const kPiiUnicodeVersion;
extern const std::size_t kMaxDecompositionLength;
extern const DecompEntry kDecompIndex[];
extern const std::size_t kDecompIndexCount;
extern const std::uint32_t kDecompPool[];
extern const std::size_t kDecompPoolCount;
extern const std::uint32_t kCccRuns[];
extern const std::size_t kCccRunsCount;
extern const ComposePair kComposePairs[];
extern const std::size_t kComposePairsCount;
extern const CpRange kIgnorableRanges[];
extern const std::size_t kIgnorableRangesCount;
extern const CpRange kSpaceRanges[];
extern const std::size_t kSpaceRangesCount;
extern const std::uint32_t kDigitZeros[];
extern const std::size_t kDigitZerosCount;

}  // namespace sotto::privacy::detail
