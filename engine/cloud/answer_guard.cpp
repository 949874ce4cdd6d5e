// SPDX-License-Identifier: MIT
// AnswerGuard (see answer_guard.h): strict UTF-8 decoding, a code point filter from the generated Unicode table,
// and the length bound.
#include "engine/cloud/answer_guard.h"

#include "engine/llm/unicode.h"

namespace sotto::cloud {
namespace {

bool isCont(unsigned char b) noexcept { return (b & 0xC0) == 0x80; }

// Length of the sequence a lead byte starts (0: not a lead byte).
std::size_t seqLen(unsigned char b) noexcept {
  if (b < 0x80) return 1;
  if (b >= 0xC2 && b <= 0xDF) return 2;
  if (b >= 0xE0 && b <= 0xEF) return 3;
  if (b >= 0xF0 && b <= 0xF4) return 4;
  return 0;  // continuation byte, C0/C1 (overlong) or F5..FF
}

// Decodes the strict UTF-8 sequence of `len` bytes at p (no overlongs, no surrogates, <= U+10FFFF); false when
// malformed.
bool decode(const unsigned char* p, std::size_t len, std::uint32_t& cp) noexcept {
  for (std::size_t i = 1; i < len; ++i)
    if (!isCont(p[i])) return false;
  switch (len) {
    case 1: cp = p[0]; return true;
    case 2: cp = ((p[0] & 0x1Fu) << 6) | (p[1] & 0x3Fu); return true;
    case 3:
      cp = ((p[0] & 0x0Fu) << 12) | ((p[1] & 0x3Fu) << 6) | (p[2] & 0x3Fu);
      return cp >= 0x800 && (cp < 0xD800 || cp > 0xDFFF);
    case 4:
      cp = ((p[0] & 0x07u) << 18) | ((p[1] & 0x3Fu) << 12) | ((p[2] & 0x3Fu) << 6) | (p[3] & 0x3Fu);
      return cp >= 0x10000 && cp <= 0x10FFFF;
    default: return false;
  }
}

bool isSpace(char c) noexcept { return c == ' ' || c == '\n' || c == '\t'; }

}  // namespace

bool isSafeCodePoint(std::uint32_t cp) noexcept {
  if (cp == '\n' || cp == '\t') return true;
  const auto cat = llm::unicode::classify(cp).category();
  return cat != llm::unicode::CpCategory::control && cat != llm::unicode::CpCategory::undefined;
}

std::string safeText(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  AnswerGuard g;
  g.feed(text, out);
  g.finish();
  return out;
}

bool AnswerGuard::feed(std::string_view piece, std::string& out) {
  if (cut_) return false;
  const std::size_t pieceStart = out.size();
  startAfterSpace_ = afterSpace_;
  if (tailLen_ == 0) {
    feedBytes(piece, out, pieceStart);
  } else {
    std::string joined(tail_, tailLen_);  // a sequence split across pieces (model tokens do that)
    joined.append(piece);
    tailLen_ = 0;
    feedBytes(joined, out, pieceStart);
  }
  return !cut_;
}

void AnswerGuard::feedBytes(std::string_view bytes, std::string& out, std::size_t pieceStart) {
  const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
  const std::size_t n = bytes.size();
  std::size_t i = 0;
  while (i < n) {
    const std::size_t len = seqLen(p[i]);
    if (len == 0) {  // a stray byte: dropped
      ++dropped_;
      ++i;
      continue;
    }
    if (i + len > n) {
      // Possibly the start of a sequence the next piece completes: keep it if what is here is consistent.
      bool consistent = true;
      for (std::size_t k = i + 1; k < n; ++k) consistent = consistent && isCont(p[k]);
      if (consistent) {
        tailLen_ = n - i;
        for (std::size_t k = 0; k < tailLen_; ++k) tail_[k] = static_cast<char>(p[i + k]);
        return;
      }
      ++dropped_;
      ++i;
      continue;
    }
    std::uint32_t cp = 0;
    if (!decode(p + i, len, cp)) {
      ++dropped_;
      ++i;  // resynchronize on the next byte
      continue;
    }
    if (!isSafeCodePoint(cp)) {
      ++dropped_;
      i += len;
      continue;
    }
    if (chars_ >= maxChars_) {
      // The bound: end this piece's part at its last space, so the answer does not stop mid-word when it can
      // (what earlier pieces let through is said already; a word begun there is cut at the bound).
      cut_ = true;
      std::size_t end = out.size();
      while (end > pieceStart && !isSpace(out[end - 1])) --end;
      if (end > pieceStart || startAfterSpace_) {
        for (std::size_t k = end; k < out.size(); ++k)
          if (!isCont(static_cast<unsigned char>(out[k]))) --chars_;
        out.resize(end);
      }
      while (!out.empty() && out.size() > pieceStart && isSpace(out.back())) {
        out.pop_back();
        --chars_;
      }
      return;
    }
    out.append(bytes.substr(i, len));
    ++chars_;
    afterSpace_ = cp == ' ' || cp == '\n' || cp == '\t';
    i += len;
  }
}

}  // namespace sotto::cloud
