// SPDX-License-Identifier: MIT
// Internal: the text the personal-data recognizers read, and the way back to the caller's offsets.
//
// Before classifying, text is brought to one form so that look-alike writings of the same value are caught:
// Unicode NFKC (fullwidth "１２３" -> "123", ligatures, compatibility spaces), format and default-ignorable
// characters removed (zero-width spaces and joiners, soft hyphens, bidi controls), every decimal digit (Nd) folded
// to ASCII ("٥٥٥" -> "555"), hyphens and minus signs (and en dashes between digits) made "-", and every non-ASCII space (no-break, thin, ideographic ...) made one ASCII space,
// a run of them collapsed. Plain ASCII text is returned unchanged (the trained model was trained on it), and so
// are ASCII spaces and tabs (the tokenizer already treats them alike).
//
// Threads: a plain value on the calling thread's stack; normalizeForPii() is reentrant and allocation-free.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "engine/privacy/pii.h"

namespace sotto::privacy::detail {

struct NormalizedText {
  static constexpr std::size_t kCapacity = PiiClassifier::kMaxTextBytes;
  bool identity = true;  // text was plain ASCII and is used as it is; the arrays below are unused
  char bytes[kCapacity];
  std::size_t length = 0;
  // Per code point of the normalized text: the original code points [from, to) it came from.
  std::uint16_t from[kCapacity];
  std::uint16_t to[kCapacity];
  std::size_t codePoints = 0;

  // The original code point range of normalized code points [start, end) (end > start).
  void original(std::uint32_t start, std::uint32_t end, std::uint32_t& oStart, std::uint32_t& oEnd) const noexcept;
};

enum class NormalizeStatus : std::uint8_t {
  ok,
  tooLong,      // the text or its normalized form is over PiiClassifier::kMaxTextBytes
  invalidUtf8,  // not well-formed UTF-8 (overlong forms, surrogates and stray bytes included)
};

NormalizeStatus normalizeForPii(std::string_view text, NormalizedText& out) noexcept;

}  // namespace sotto::privacy::detail
