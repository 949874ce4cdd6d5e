// SPDX-License-Identifier: MIT
// BPE pre-tokenizers: each family's split stages over code point classes.
//
// A family is a chain of stages applied like llama.cpp's unicode_regex_split: every stage re-splits each segment
// of the previous one, and a segment's ends look like the end of the text to it.
#include "engine/llm/bpe_pretokenizer.h"

#include <algorithm>

#include "engine/llm/unicode.h"

namespace sotto::llm {
namespace {

using unicode::classify;
using unicode::CpClass;

constexpr uint32_t kNoCp = 0xFFFFFFFFu;  // "past the segment": no rule matches it

// A view of one segment [begin, end) of the code points, with llama.cpp's out-of-range conventions.
class Segment {
 public:
  Segment(std::span<const uint32_t> cps, size_t begin, size_t end, std::vector<uint32_t>& out)
      : cps_(cps), end_(end), prevEnd_(begin), out_(out) {}
  uint32_t cp(size_t pos) const { return pos < end_ ? cps_[pos] : kNoCp; }
  CpClass cls(size_t pos) const { return pos < end_ ? classify(cps_[pos]) : CpClass{}; }
  size_t end() const { return end_; }
  // Ends the current word at `wordEnd`; returns its length (0 adds nothing).
  size_t emit(size_t wordEnd) {
    const size_t len = wordEnd - prevEnd_;
    if (len > 0) out_.push_back(static_cast<uint32_t>(len));
    prevEnd_ = wordEnd;
    return len;
  }

 private:
  std::span<const uint32_t> cps_;
  size_t end_;
  size_t prevEnd_;
  std::vector<uint32_t>& out_;
};

bool isLetterNumberOrSpace(CpClass c) { return c.isLetter() || c.isNumber() || c.isWhitespace(); }

// 's|'t|'re|'ve|'m|'ll|'d (case-insensitive when `foldCase`); returns the match length or 0.
size_t contraction(const Segment& s, size_t pos, bool foldCase) {
  if (s.cp(pos) != '\'' || pos + 1 >= s.end()) return 0;
  auto fold = [foldCase](uint32_t c) { return foldCase ? unicode::asciiLower(c) : c; };
  const uint32_t c1 = fold(s.cp(pos + 1));
  if (c1 == 's' || c1 == 't' || c1 == 'm' || c1 == 'd') return 2;
  if (pos + 2 >= s.end()) return 0;
  const uint32_t c2 = fold(s.cp(pos + 2));
  if ((c1 == 'r' && c2 == 'e') || (c1 == 'v' && c2 == 'e') || (c1 == 'l' && c2 == 'l')) return 3;
  return 0;
}

// GPT-2: 's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+
void splitGpt2(std::span<const uint32_t> cps, size_t begin, size_t end, std::vector<uint32_t>& out) {
  Segment s(cps, begin, end, out);
  for (size_t pos = begin; pos < end;) {
    if (const size_t n = contraction(s, pos, false)) {
      pos += s.emit(pos + n);
      continue;
    }
    const uint32_t cp = s.cp(pos);
    // The optional leading space belongs to the word that follows it.
    CpClass next = cp == ' ' ? s.cls(pos + 1) : s.cls(pos);
    if (next.isLetter()) {
      pos += cp == ' ';
      while (next.isLetter()) next = s.cls(++pos);
      s.emit(pos);
      continue;
    }
    if (next.isNumber()) {
      pos += cp == ' ';
      while (next.isNumber()) next = s.cls(++pos);
      s.emit(pos);
      continue;
    }
    if (!isLetterNumberOrSpace(next) && next.present()) {
      pos += cp == ' ';
      while (!isLetterNumberOrSpace(next) && next.present()) next = s.cls(++pos);
      s.emit(pos);
      continue;
    }
    size_t spaces = 0;
    while (s.cls(pos + spaces).isWhitespace()) ++spaces;
    if (spaces > 1 && pos + spaces < end) {  // \s+(?!\S): leave the last space to the next word
      pos += spaces - 1;
      s.emit(pos);
      continue;
    }
    if (spaces > 0) {
      pos += spaces;
      s.emit(pos);
      continue;
    }
    s.emit(++pos);
  }
}

// Llama 3: (?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|
//          \s*[\r\n]+|\s+(?!\S)|\s+
// Qwen2 is the same expression with \p{N} instead of \p{N}{1,3} (maxDigits 1). llama.cpp runs Qwen2's through
// std::regex over a category-collapsed string; that leftmost-alternative match equals this scan rule for rule.
void splitLlama3(std::span<const uint32_t> cps, size_t begin, size_t end, size_t maxDigits,
                 std::vector<uint32_t>& out) {
  Segment s(cps, begin, end, out);
  for (size_t pos = begin; pos < end;) {
    if (const size_t n = contraction(s, pos, true)) {
      pos += s.emit(pos + n);
      continue;
    }
    const uint32_t cp = s.cp(pos);
    const CpClass cls = s.cls(pos);
    // [^\r\n\p{L}\p{N}]?\p{L}+: one leading non-letter (space, punctuation ...) joins the letters after it.
    if (!(cp == '\r' || cp == '\n' || cls.isNumber()) && (cls.isLetter() || s.cls(pos + 1).isLetter())) {
      ++pos;
      while (s.cls(pos).isLetter()) ++pos;
      s.emit(pos);
      continue;
    }
    if (cls.isNumber()) {
      size_t groupStart = pos;
      while (s.cls(pos).isNumber()) {
        if (++pos - groupStart >= maxDigits) {
          s.emit(pos);
          groupStart = pos;
        }
      }
      s.emit(pos);
      continue;
    }
    // ' ?[^\s\p{L}\p{N}]+[\r\n]*'. The first test reads the current code point's presence (as llama.cpp does),
    // so a lone trailing space lands here and becomes its own word, the same as \s+ would make it.
    CpClass next = cp == ' ' ? s.cls(pos + 1) : cls;
    if (!isLetterNumberOrSpace(next) && cls.present()) {
      pos += cp == ' ';
      while (!isLetterNumberOrSpace(next) && next.present()) next = s.cls(++pos);
      for (uint32_t c = s.cp(pos); c == '\r' || c == '\n'; c = s.cp(++pos)) {
      }
      s.emit(pos);
      continue;
    }
    size_t spaces = 0;
    size_t afterLastNewline = 0;
    while (s.cls(pos + spaces).isWhitespace()) {
      const uint32_t c = s.cp(pos + spaces);
      if (c == '\r' || c == '\n') afterLastNewline = pos + spaces + 1;
      ++spaces;
    }
    if (afterLastNewline > 0) {  // \s*[\r\n]+
      pos = afterLastNewline;
      s.emit(pos);
      continue;
    }
    if (spaces > 1 && pos + spaces < end) {  // \s+(?!\S)
      pos += spaces - 1;
      s.emit(pos);
      continue;
    }
    if (spaces > 0) {
      pos += spaces;
      s.emit(pos);
      continue;
    }
    s.emit(++pos);
  }
}

// A std::regex-style split of [begin, end) by a pattern whose match length at a position is matchAt(pos, end)
// (0: no match there): the matches and the text between them both become segments (llama.cpp's
// unicode_regex_split_stl, leftmost match first).
template <typename MatchAt>
void splitByMatches(size_t begin, size_t end, std::vector<uint32_t>& out, MatchAt matchAt) {
  size_t gapStart = begin;
  for (size_t pos = begin; pos < end;) {
    const size_t n = matchAt(pos, end);
    if (n == 0) {
      ++pos;
      continue;
    }
    if (pos > gapStart) out.push_back(static_cast<uint32_t>(pos - gapStart));
    out.push_back(static_cast<uint32_t>(n));
    pos += n;
    gapStart = pos;
  }
  if (end > gapStart) out.push_back(static_cast<uint32_t>(end - gapStart));
}

bool isAsciiDigit(uint32_t cp) { return cp >= '0' && cp <= '9'; }

// \p{N} as llama.cpp's collapsed std::regex sees it: ASCII digits, or a non-ASCII number.
bool isRegexNumber(uint32_t cp) { return cp < 0x80 ? isAsciiDigit(cp) : classify(cp).isNumber(); }

// [\p{P}\$\+<=>\^~\|] in the collapsed form: ASCII punctuation plus those symbols, or non-ASCII punctuation.
bool isDefaultPunct(uint32_t cp) {
  if (cp >= 0x80) return classify(cp).isPunctuation();
  switch (cp) {
    case '!': case '"': case '#': case '%': case '&': case '\'': case '(': case ')': case '*': case ',':
    case '-': case '.': case '/': case ':': case ';': case '?': case '@': case '[': case '\\': case ']':
    case '_': case '{': case '}':
    case '$': case '+': case '<': case '=': case '>': case '^': case '~': case '|':
      return true;
    default:
      return false;
  }
}

// Calls split(begin, end) for every segment listed (as lengths) in `segments`.
template <typename Split>
void forEachSegment(const std::vector<uint32_t>& segments, Split split) {
  size_t start = 0;
  for (const uint32_t len : segments) {
    split(start, start + len);
    start += len;
  }
}

// Longest run from pos of code points that satisfy pred.
template <typename Pred>
size_t runLength(std::span<const uint32_t> cps, size_t pos, size_t end, Pred pred) {
  size_t n = 0;
  while (pos + n < end && pred(cps[pos + n])) ++n;
  return n;
}

}  // namespace

std::optional<BpePreTokenizer> bpePreTokenizerFromName(std::string_view name) {
  if (name.empty() || name == "default") return BpePreTokenizer::defaultRules;
  if (name == "gpt-2") return BpePreTokenizer::gpt2;
  if (name == "llama3" || name == "llama-v3" || name == "llama-bpe") return BpePreTokenizer::llama3;
  if (name == "qwen2" || name == "deepseek-r1-qwen") return BpePreTokenizer::qwen2;
  if (name == "smollm") return BpePreTokenizer::smollm;
  return std::nullopt;
}

std::string_view bpePreTokenizerName(BpePreTokenizer pre) {
  switch (pre) {
    case BpePreTokenizer::defaultRules: return "default";
    case BpePreTokenizer::gpt2: return "gpt-2";
    case BpePreTokenizer::llama3: return "llama3";
    case BpePreTokenizer::qwen2: return "qwen2";
    case BpePreTokenizer::smollm: return "smollm";
  }
  return "?";
}

void preTokenize(BpePreTokenizer pre, std::span<const uint32_t> cps, std::vector<uint32_t>& wordLengths,
                 PreTokenizeScratch& scratch) {
  if (cps.empty()) return;
  auto& a = scratch.a;
  auto& b = scratch.b;
  switch (pre) {
    case BpePreTokenizer::gpt2:
      splitGpt2(cps, 0, cps.size(), wordLengths);
      return;
    case BpePreTokenizer::llama3:
      splitLlama3(cps, 0, cps.size(), 3, wordLengths);
      return;
    case BpePreTokenizer::qwen2:
      splitLlama3(cps, 0, cps.size(), 1, wordLengths);
      return;
    case BpePreTokenizer::smollm:
      // \p{N} (every number alone), then the GPT-2 rules inside each piece.
      a.clear();
      splitByMatches(0, cps.size(), a, [&cps](size_t pos, size_t) { return isRegexNumber(cps[pos]) ? 1 : 0; });
      forEachSegment(a, [&](size_t bg, size_t e) { splitGpt2(cps, bg, e, wordLengths); });
      return;
    case BpePreTokenizer::defaultRules:
      // [\p{P}\$\+<=>\^~\|]+ , the GPT-2 rules, \p{N}+ , [0-9][0-9][0-9]
      a.clear();
      splitByMatches(0, cps.size(), a,
                     [&cps](size_t pos, size_t end) { return runLength(cps, pos, end, isDefaultPunct); });
      b.clear();
      forEachSegment(a, [&](size_t bg, size_t e) { splitGpt2(cps, bg, e, b); });
      a.clear();
      forEachSegment(b, [&](size_t bg, size_t e) {
        splitByMatches(bg, e, a, [&cps](size_t pos, size_t end) { return runLength(cps, pos, end, isRegexNumber); });
      });
      forEachSegment(a, [&](size_t bg, size_t e) {
        splitByMatches(bg, e, wordLengths, [&cps](size_t pos, size_t end) {
          return runLength(cps, pos, std::min(end, pos + 3), isAsciiDigit) == 3 ? 3 : 0;
        });
      });
      return;
  }
}

std::vector<std::string> preTokenizeText(BpePreTokenizer pre, std::string_view text) {
  std::vector<uint32_t> cps;
  unicode::decode(text, cps);
  std::vector<uint32_t> lengths;
  PreTokenizeScratch scratch;
  preTokenize(pre, cps, lengths, scratch);
  std::vector<std::string> words;
  size_t start = 0;
  for (const uint32_t len : lengths) {
    std::string& w = words.emplace_back();
    for (size_t i = start; i < start + len; ++i) unicode::appendUtf8(cps[i], w);
    start += len;
  }
  return words;
}

}  // namespace sotto::llm
