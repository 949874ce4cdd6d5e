// SPDX-License-Identifier: MIT
// PhraseChunker: boundary rules (clause ends, abbreviations, numbers) over a fixed buffer.
#include "engine/speech/chunker.h"

#include <array>
#include <cstring>
#include <new>

namespace sotto::speech {
namespace {

constexpr size_t kNone = static_cast<size_t>(-1);

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }
bool isContinuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }
char lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

// Words whose period is not a sentence end (lower case, without the period). Ambiguous ones that often end a
// sentence ("etc", "no") are left out: a missed cut only makes a phrase longer, a wrong one breaks a name.
constexpr std::array<std::string_view, 24> kAbbreviations{
    "mr", "mrs", "ms", "dr", "prof", "st", "jr", "sr", "vs", "mt", "ft", "approx", "dept", "fig",
    "gen", "gov", "sen", "rep", "lt", "col", "capt", "sgt", "rev", "hon"};

// Strips closing quotes and brackets after the punctuation: `end.")` still ends a sentence.
std::string_view stripClosers(std::string_view w) {
  for (;;) {
    if (w.empty()) return w;
    const char c = w.back();
    if (c == '"' || c == '\'' || c == ')' || c == ']' || c == '}') {
      w.remove_suffix(1);
    } else if (w.size() >= 3 && (w.ends_with("\xE2\x80\x9D") || w.ends_with("\xE2\x80\x99"))) {  // ” ’
      w.remove_suffix(3);
    } else if (w.size() >= 2 && w.ends_with("\xC2\xBB")) {  // »
      w.remove_suffix(2);
    } else {
      return w;
    }
  }
}

bool isAbbreviation(std::string_view core) {
  // Strip opening quotes/brackets: ("Dr.
  while (!core.empty() && (core.front() == '"' || core.front() == '(' || core.front() == '\'')) core.remove_prefix(1);
  if (core.empty()) return false;
  // Dotted forms: e.g, i.e, U.S, a.m: a period inside the word (but not a number like 3.5 followed by '.').
  bool hasLetter = false;
  for (char c : core) hasLetter = hasLetter || (lower(c) >= 'a' && lower(c) <= 'z');
  if (core.find('.') != std::string_view::npos && hasLetter) return true;
  // Initials: "J."
  if (core.size() == 1 && lower(core[0]) >= 'a' && lower(core[0]) <= 'z') return true;
  if (core.size() > 8) return false;
  char buf[8];
  for (size_t i = 0; i < core.size(); ++i) buf[i] = lower(core[i]);
  const std::string_view w(buf, core.size());
  for (auto a : kAbbreviations) {
    if (a == w) return true;
  }
  return false;
}

bool endsWithAbbreviation(std::string_view word) {
  const std::string_view w = stripClosers(word);
  return w.ends_with('.') && isAbbreviation(w.substr(0, w.size() - 1));
}

// Bytes a UTF-8 sequence starting with `c` needs (1 for ASCII and for stray bytes).
size_t sequenceLength(char c) {
  const auto u = static_cast<unsigned char>(c);
  return u >= 0xF0 ? 4 : u >= 0xE0 ? 3 : u >= 0xC0 ? 2 : 1;
}

// Start of the last character in [from, to): back over at most three continuation bytes.
size_t lastCharStart(const char* b, size_t from, size_t to) {
  size_t p = to - 1;
  while (p > from && to - p < 4 && isContinuation(b[p])) --p;
  return p;
}

bool charComplete(const char* b, size_t lead, size_t to) {
  return isContinuation(b[lead]) || lead + sequenceLength(b[lead]) <= to;
}

enum class WordEnd { none, clause, sentence };

// What the punctuation at the end of a complete word (whitespace seen after it) means.
WordEnd wordEnd(std::string_view word) {
  const std::string_view w = stripClosers(word);
  if (w.empty()) return WordEnd::none;
  if (w.ends_with("\xE2\x80\xA6")) return WordEnd::sentence;  // …
  switch (w.back()) {
    case '!':
    case '?':
      return WordEnd::sentence;
    case ',':
    case ';':
    case ':':
      return WordEnd::clause;
    case '.': {
      const std::string_view core = w.substr(0, w.size() - 1);
      if (core.ends_with('.')) return WordEnd::sentence;  // an ellipsis "..."
      return isAbbreviation(core) ? WordEnd::none : WordEnd::sentence;
    }
    default:
      return WordEnd::none;
  }
}

}  // namespace

Result<std::unique_ptr<PhraseChunker>> PhraseChunker::create(const ChunkerConfig& config) {
  if (config.capacityBytes < 64) return makeError(Errc::invalid_argument, "chunker: capacity below 64 bytes");
  if (config.firstPhraseWords == 0 || config.phraseWords == 0) {
    return makeError(Errc::invalid_argument, "chunker: a phrase needs at least one word");
  }
  std::unique_ptr<PhraseChunker> c(new PhraseChunker(config));
  c->buf_.reset(new (std::nothrow) char[config.capacityBytes]);
  if (!c->buf_) return makeError(Errc::busy, "chunker: out of memory");
  return c;
}

void PhraseChunker::reset() noexcept {
  len_ = start_ = 0;
  forced_ = kNone;
  ended_ = false;
  phrases_ = 0;
}

size_t PhraseChunker::push(std::string_view piece) noexcept {
  if (start_ > 0) {  // move the unreturned text to the front (invalidates earlier phrase views)
    std::memmove(buf_.get(), buf_.get() + start_, len_ - start_);
    len_ -= start_;
    if (forced_ != kNone) forced_ -= start_;
    start_ = 0;
  }
  const size_t n = std::min(piece.size(), cfg_.capacityBytes - len_);
  std::memcpy(buf_.get() + len_, piece.data(), n);
  len_ += n;
  return n;
}

bool PhraseChunker::cutWholeWords(uint32_t minWords) noexcept {
  const char* b = buf_.get();
  uint32_t words = 0;
  size_t wordStart = kNone, cut = kNone;
  for (size_t i = start_; i < len_; ++i) {
    if (!isSpace(b[i])) {
      if (wordStart == kNone) wordStart = i;
      continue;
    }
    if (wordStart == kNone) continue;
    ++words;
    if (words >= minWords && !endsWithAbbreviation(std::string_view(b + wordStart, i - wordStart))) cut = i;
    wordStart = kNone;
  }
  if (cut == kNone) return false;
  forced_ = cut;
  return true;
}

size_t PhraseChunker::findCut() const noexcept {
  const char* b = buf_.get();
  if (forced_ != kNone && forced_ > start_) return forced_;
  const uint32_t limit = phrases_ == 0 ? cfg_.firstPhraseWords : cfg_.phraseWords;
  uint32_t words = 0;
  size_t wordStart = kNone, lastSpace = kNone;
  for (size_t i = start_; i < len_; ++i) {
    const char c = b[i];
    if (!isSpace(c)) {
      if (wordStart == kNone) wordStart = i;
      continue;
    }
    lastSpace = i;
    if (wordStart != kNone) {  // a word just ended, and the whitespace after it is the lookahead
      ++words;
      const std::string_view word(b + wordStart, i - wordStart);
      wordStart = kNone;
      const WordEnd e = wordEnd(word);
      if (e == WordEnd::sentence) return i;
      if (e == WordEnd::clause && words >= cfg_.minClauseWords) return i;
      // Counting words: never right after an abbreviation ("Dr." belongs with the name after it).
      if (words >= limit && !endsWithAbbreviation(word)) return i;
    }
    if (c == '\n' && words > 0) return i;
  }
  if (ended_) return len_;
  if (len_ - start_ < cfg_.capacityBytes) return kNone;
  // Full without a cut: cut at the last whitespace, or inside one giant word before its last character if that
  // character has not fully arrived.
  if (lastSpace != kNone && lastSpace > start_) return lastSpace;
  const size_t lead = lastCharStart(b, start_, len_);
  return charComplete(b, lead, len_) || lead == start_ ? len_ : lead;
}

bool PhraseChunker::next(std::string_view& phrase) noexcept {
  for (;;) {
    if (start_ >= len_) return false;
    const size_t cut = findCut();
    if (cut == kNone) return false;
    size_t s = start_, e = cut;
    start_ = cut;
    if (forced_ != kNone && forced_ <= cut) forced_ = kNone;
    while (s < e && isSpace(buf_[s])) ++s;
    while (e > s && isSpace(buf_[e - 1])) --e;
    if (cut == len_ && ended_) {
      // Drop an incomplete trailing UTF-8 sequence (the stream stopped inside a character).
      if (e > s) {
        const size_t lead = lastCharStart(buf_.get(), s, e);
        if (!charComplete(buf_.get(), lead, e)) e = lead;
      }
      while (e > s && isSpace(buf_[e - 1])) --e;
    }
    if (s == e) continue;  // only whitespace: nothing to say
    phrase = std::string_view(buf_.get() + s, e - s);
    ++phrases_;
    return true;
  }
}

}  // namespace sotto::speech
