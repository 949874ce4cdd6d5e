// SPDX-License-Identifier: MIT
// Small text helpers for the config loader: quoting values in messages, UTF-8 checks, "did you mean" suggestions.
#include "app/config/text_util.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace sotto::config::detail {
namespace {

// Length of the well-formed UTF-8 sequence starting at text[i], or 0 when it is malformed (Unicode table 3-7).
std::size_t utf8SequenceLength(std::string_view text, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<uint8_t>(text[k]); };
  const uint8_t b0 = byte(i);
  if (b0 < 0x80) return 1;
  std::size_t n = 0;
  uint8_t lo = 0x80, hi = 0xBF;  // allowed range of the second byte
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    n = 2;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    n = 3;
    if (b0 == 0xE0) lo = 0xA0;  // overlong
    if (b0 == 0xED) hi = 0x9F;  // surrogates
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    n = 4;
    if (b0 == 0xF0) lo = 0x90;  // overlong
    if (b0 == 0xF4) hi = 0x8F;  // above U+10FFFF
  } else {
    return 0;
  }
  if (i + n > text.size()) return 0;
  if (byte(i + 1) < lo || byte(i + 1) > hi) return 0;
  for (std::size_t k = 2; k < n; ++k) {
    if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return 0;
  }
  return n;
}

void appendEscaped(std::string& out, std::string_view value, std::size_t maxBytes, bool escapeQuote) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::size_t i = 0;
  while (i < value.size()) {
    if (i >= maxBytes) {
      out += "...";
      return;
    }
    const auto c = static_cast<unsigned char>(value[i]);
    const std::size_t n = utf8SequenceLength(value, i);
    if (n > 1) {
      out.append(value.substr(i, n));
      i += n;
      continue;
    }
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\r') {
      out += "\\r";
    } else if ((c == '"' && escapeQuote) || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20 || c == 0x7F || n == 0) {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 0xF];
    } else {
      out += static_cast<char>(c);
    }
    ++i;
  }
}

// Optimal string alignment distance, or bound + 1 as soon as it must exceed bound (every cell of a row does).
std::size_t boundedDistance(std::string_view a, std::string_view b, std::size_t bound) {
  // Three rolling rows: the transposition case looks two rows back.
  std::vector<std::size_t> prev2(b.size() + 1), prev(b.size() + 1), cur(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    std::size_t rowMin = cur[0];
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      std::size_t d = std::min(std::min(prev[j] + 1, cur[j - 1] + 1), prev[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) d = std::min(d, prev2[j - 2] + 1);
      cur[j] = d;
      rowMin = std::min(rowMin, d);
    }
    if (rowMin > bound) return bound + 1;
    std::swap(prev2, prev);
    std::swap(prev, cur);
  }
  return std::min(prev[b.size()], bound + 1);
}

}  // namespace

std::string quote(std::string_view value, std::size_t maxBytes) {
  std::string out = "\"";
  appendEscaped(out, value, maxBytes, true);
  out += '"';
  return out;
}

std::string clip(std::string_view name, std::size_t maxBytes) {
  std::string out;
  appendEscaped(out, name, maxBytes, false);
  return out;
}

std::optional<std::size_t> firstInvalidUtf8(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size()) {
    const std::size_t n = utf8SequenceLength(text, i);
    if (n == 0) return i;
    i += n;
  }
  return std::nullopt;
}

int lineAt(std::string_view text, std::size_t offset) {
  offset = std::min(offset, text.size());
  return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(offset), '\n'));
}

std::size_t editDistance(std::string_view a, std::string_view b) {
  return boundedDistance(a, b, std::max(a.size(), b.size()));
}

std::optional<std::string_view> closest(std::string_view word, std::span<const std::string_view> candidates) {
  // Names in the file are short; a long word cannot be a typo of one, and comparing it would cost O(n*m).
  constexpr std::size_t kMaxWord = 64;
  if (word.empty() || word.size() > kMaxWord) return std::nullopt;
  std::optional<std::string_view> best;
  std::size_t bestDistance = 0;
  for (std::string_view candidate : candidates) {
    const std::size_t limit = std::min<std::size_t>(2, std::max<std::size_t>(1, candidate.size() / 3));
    const bool abbreviation = word.size() >= 3 && candidate.starts_with(word);  // "warn" for "warning"
    const std::size_t lengthGap =
        word.size() > candidate.size() ? word.size() - candidate.size() : candidate.size() - word.size();
    if (!abbreviation && lengthGap > limit) continue;  // the distance is at least the gap: skip the O(n*m) work
    const std::size_t d = abbreviation ? lengthGap : boundedDistance(word, candidate, limit);
    if (d == 0 || (d > limit && !abbreviation)) continue;
    if (!best || d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

}  // namespace sotto::config::detail
