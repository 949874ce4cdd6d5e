// SPDX-License-Identifier: MIT
// The personal-data text normalizer: strict UTF-8 decoding, NFKC (table decomposition, canonical ordering,
// canonical composition, Hangul by formula), format characters removed, decimal digits folded, spaces collapsed,
// each output code point remembering the original code points it came from.
#include "engine/privacy/pii_normalize.h"

#include <algorithm>

#include "engine/privacy/pii_unicode_data.h"

namespace sotto::privacy::detail {
namespace {

constexpr std::uint32_t kSBase = 0xAC00, kLBase = 0x1100, kVBase = 0x1161, kTBase = 0x11A7;
constexpr std::uint32_t kLCount = 19, kVCount = 21, kTCount = 28, kNCount = kVCount * kTCount,
                        kSCount = kLCount * kNCount;

bool inRanges(const CpRange* r, std::size_t n, std::uint32_t cp) noexcept {
  const CpRange* end = r + n;
  const CpRange* it = std::upper_bound(r, end, cp, [](std::uint32_t c, const CpRange& x) { return c < x.first; });
  return it != r && cp <= (it - 1)->last;
}

std::uint8_t combiningClass(std::uint32_t cp) noexcept {
  if (cp < 0x300) return 0;
  const std::uint32_t* end = kCccRuns + kCccRunsCount;
  const std::uint32_t* it =
      std::upper_bound(kCccRuns, end, cp, [](std::uint32_t c, std::uint32_t run) { return c < (run >> 8); });
  return it == kCccRuns ? 0 : static_cast<std::uint8_t>(*(it - 1) & 0xFF);
}

const DecompEntry* decomposition(std::uint32_t cp) noexcept {
  if (cp < 0xA0) return nullptr;
  const DecompEntry* end = kDecompIndex + kDecompIndexCount;
  const DecompEntry* it =
      std::lower_bound(kDecompIndex, end, cp, [](const DecompEntry& e, std::uint32_t c) { return e.cp < c; });
  return (it != end && it->cp == cp) ? it : nullptr;
}

// 0 when the pair does not compose.
std::uint32_t compose(std::uint32_t a, std::uint32_t b) noexcept {
  if (a >= kLBase && a < kLBase + kLCount && b >= kVBase && b < kVBase + kVCount) {
    return kSBase + ((a - kLBase) * kVCount + (b - kVBase)) * kTCount;
  }
  if (a >= kSBase && a < kSBase + kSCount && (a - kSBase) % kTCount == 0 && b > kTBase && b < kTBase + kTCount) {
    return a + (b - kTBase);
  }
  const ComposePair* end = kComposePairs + kComposePairsCount;
  const ComposePair* it = std::lower_bound(kComposePairs, end, a, [](const ComposePair& p, std::uint32_t x) {
    return p.first < x;
  });
  for (; it != end && it->first == a; ++it) {
    if (it->second == b) return it->composite;
  }
  return 0;
}

// ASCII digit for a decimal digit, else cp.
std::uint32_t foldDigit(std::uint32_t cp) noexcept {
  if (cp < 0x80) return cp;
  const std::uint32_t* end = kDigitZeros + kDigitZerosCount;
  const std::uint32_t* it = std::upper_bound(kDigitZeros, end, cp);
  if (it == kDigitZeros) return cp;
  const std::uint32_t zero = *(it - 1);
  return cp - zero < 10 ? '0' + (cp - zero) : cp;
}

// Strict UTF-8: returns the code point and advances i, or returns UINT32_MAX on a malformed sequence.
std::uint32_t decodeOne(const unsigned char* s, std::size_t n, std::size_t& i) noexcept {
  const unsigned char b = s[i];
  if (b < 0x80) {
    ++i;
    return b;
  }
  std::size_t len;
  std::uint32_t cp, min;
  if (b >= 0xC2 && b <= 0xDF) {
    len = 2, cp = b & 0x1F, min = 0x80;
  } else if (b >= 0xE0 && b <= 0xEF) {
    len = 3, cp = b & 0x0F, min = 0x800;
  } else if (b >= 0xF0 && b <= 0xF4) {
    len = 4, cp = b & 0x07, min = 0x10000;
  } else {
    return UINT32_MAX;
  }
  if (i + len > n) return UINT32_MAX;
  for (std::size_t k = 1; k < len; ++k) {
    if ((s[i + k] & 0xC0) != 0x80) return UINT32_MAX;
    cp = (cp << 6) | (s[i + k] & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return UINT32_MAX;
  i += len;
  return cp;
}

std::size_t encodeOne(std::uint32_t cp, char* out) noexcept {
  if (cp < 0x80) {
    out[0] = static_cast<char>(cp);
    return 1;
  }
  if (cp < 0x800) {
    out[0] = static_cast<char>(0xC0 | (cp >> 6));
    out[1] = static_cast<char>(0x80 | (cp & 0x3F));
    return 2;
  }
  if (cp < 0x10000) {
    out[0] = static_cast<char>(0xE0 | (cp >> 12));
    out[1] = static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out[2] = static_cast<char>(0x80 | (cp & 0x3F));
    return 3;
  }
  out[0] = static_cast<char>(0xF0 | (cp >> 18));
  out[1] = static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
  out[2] = static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
  out[3] = static_cast<char>(0x80 | (cp & 0x3F));
  return 4;
}

// The decomposed code points with their origins, before composition.
struct Work {
  static constexpr std::size_t kCapacity = NormalizedText::kCapacity;
  std::uint32_t cp[kCapacity];
  std::uint16_t from[kCapacity];
  std::uint16_t to[kCapacity];
  bool fromNonAsciiSpace[kCapacity];
  std::size_t n = 0;

  bool push(std::uint32_t c, std::uint16_t f, std::uint16_t t, bool nonAsciiSpace = false) noexcept {
    if (n == kCapacity) return false;
    cp[n] = c;
    from[n] = f;
    to[n] = t;
    fromNonAsciiSpace[n] = nonAsciiSpace;
    ++n;
    return true;
  }
};

bool isAsciiSpace(std::uint32_t c) noexcept { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; }

}  // namespace

void NormalizedText::original(std::uint32_t start, std::uint32_t end, std::uint32_t& oStart,
                              std::uint32_t& oEnd) const noexcept {
  if (identity) {
    oStart = start;
    oEnd = end;
    return;
  }
  if (end > codePoints) end = static_cast<std::uint32_t>(codePoints);
  if (start >= end) {
    oStart = oEnd = start < codePoints ? from[start] : (codePoints > 0 ? to[codePoints - 1] : 0);
    return;
  }
  // Composition can merge code points from apart; take the whole range they came from.
  oStart = from[start];
  oEnd = to[start];
  for (std::uint32_t k = start + 1; k < end; ++k) {
    oStart = std::min<std::uint32_t>(oStart, from[k]);
    oEnd = std::max<std::uint32_t>(oEnd, to[k]);
  }
}

NormalizeStatus normalizeForPii(std::string_view text, NormalizedText& out) noexcept {
  out.identity = true;
  out.length = 0;
  out.codePoints = 0;
  if (text.size() > NormalizedText::kCapacity) return NormalizeStatus::tooLong;
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  bool ascii = true;
  for (std::size_t i = 0; i < text.size() && ascii; ++i) ascii = s[i] < 0x80;
  if (ascii) return NormalizeStatus::ok;
  out.identity = false;

  // 1. Decode, drop format characters, decompose (NFKD per code point), fold digits, collapse spaces.
  Work w;
  std::uint16_t k = 0;  // original code point index (at most kCapacity code points: fits)
  for (std::size_t i = 0; i < text.size(); ++k) {
    const std::uint32_t c = decodeOne(s, text.size(), i);
    if (c == UINT32_MAX) return NormalizeStatus::invalidUtf8;
    const auto next = static_cast<std::uint16_t>(k + 1);
    if (isAsciiSpace(c)) {
      if (w.n > 0 && w.fromNonAsciiSpace[w.n - 1]) {
        w.to[w.n - 1] = next;  // joins the space a non-ASCII one made
      } else if (!w.push(c, k, next)) {
        return NormalizeStatus::tooLong;
      }
      continue;
    }
    if (c < 0x80) {
      if (!w.push(c, k, next)) return NormalizeStatus::tooLong;
      continue;
    }
    if (inRanges(kSpaceRanges, kSpaceRangesCount, c)) {
      if (w.n > 0 && (w.cp[w.n - 1] == ' ' || isAsciiSpace(w.cp[w.n - 1]))) {
        w.to[w.n - 1] = next;
        w.fromNonAsciiSpace[w.n - 1] = true;
      } else if (!w.push(' ', k, next, true)) {
        return NormalizeStatus::tooLong;
      }
      continue;
    }
    if (inRanges(kIgnorableRanges, kIgnorableRangesCount, c)) continue;
    // Dashes that join a number's groups are its hyphen: "123\u221245\u22126789" (minus signs) and
    // "443\u201332\u20134244" (en dashes) are the SSN "123-45-6789" writes (issue 36: the minus-sign SSN was only
    // suspected, and left as an empty message). Hyphens and minus signs always; an en dash only between digits (elsewhere it
    // is the sentence's punctuation, "is 14 \u2013 how old").
    if (c == 0x2010 || c == 0x2011 || c == 0x2012 || c == 0x2212 || c == 0xFE63 ||
        (c == 0x2013 && w.n > 0 && w.cp[w.n - 1] >= '0' && w.cp[w.n - 1] <= '9' && i < text.size() &&
         s[i] >= '0' && s[i] <= '9')) {
      if (!w.push('-', k, next)) return NormalizeStatus::tooLong;
      continue;
    }
    std::uint32_t seq[32];
    std::size_t len = 0;
    if (c >= kSBase && c < kSBase + kSCount) {
      const std::uint32_t si = c - kSBase;
      seq[len++] = kLBase + si / kNCount;
      seq[len++] = kVBase + (si % kNCount) / kTCount;
      if (si % kTCount != 0) seq[len++] = kTBase + si % kTCount;
    } else if (const DecompEntry* d = decomposition(c)) {
      for (std::size_t j = 0; j < d->length && len < 32; ++j) seq[len++] = kDecompPool[d->first + j];
    } else {
      seq[len++] = c;
    }
    for (std::size_t j = 0; j < len; ++j) {
      const std::uint32_t d = foldDigit(seq[j]);
      if (d >= 0x80 && inRanges(kIgnorableRanges, kIgnorableRangesCount, d)) continue;
      if (!w.push(d, k, next)) return NormalizeStatus::tooLong;
    }
  }

  // 2. Canonical ordering: a stable sort by combining class inside each run of non-starters.
  for (std::size_t i = 1; i < w.n; ++i) {
    const std::uint8_t cc = combiningClass(w.cp[i]);
    if (cc == 0) continue;
    std::size_t j = i;
    while (j > 0) {
      const std::uint8_t prev = combiningClass(w.cp[j - 1]);
      if (prev == 0 || prev <= cc) break;
      std::swap(w.cp[j], w.cp[j - 1]);
      std::swap(w.from[j], w.from[j - 1]);
      std::swap(w.to[j], w.to[j - 1]);
      --j;
    }
  }

  // 3. Canonical composition (UAX #15): a character composes with the last starter unless blocked.
  std::size_t outN = 0;
  std::size_t starter = SIZE_MAX;
  int lastClass = 256;
  for (std::size_t i = 0; i < w.n; ++i) {
    const std::uint32_t c = w.cp[i];
    const int cc = combiningClass(c);
    if (starter != SIZE_MAX && (lastClass < cc || lastClass == 0)) {
      if (const std::uint32_t comp = compose(w.cp[starter], c)) {
        w.cp[starter] = comp;
        w.from[starter] = std::min(w.from[starter], w.from[i]);
        w.to[starter] = std::max(w.to[starter], w.to[i]);
        continue;
      }
    }
    if (cc == 0) {
      starter = outN;
      lastClass = 0;
    } else {
      lastClass = cc;
    }
    w.cp[outN] = c;
    w.from[outN] = w.from[i];
    w.to[outN] = w.to[i];
    ++outN;
  }

  // 4. Encode.
  for (std::size_t i = 0; i < outN; ++i) {
    char buf[4];
    const std::size_t len = encodeOne(w.cp[i], buf);
    if (out.length + len > NormalizedText::kCapacity) return NormalizeStatus::tooLong;
    std::copy(buf, buf + len, out.bytes + out.length);
    out.length += len;
    out.from[out.codePoints] = w.from[i];
    out.to[out.codePoints] = w.to[i];
    ++out.codePoints;
  }
  return NormalizeStatus::ok;
}

}  // namespace sotto::privacy::detail
