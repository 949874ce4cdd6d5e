// SPDX-License-Identifier: MIT
// PhraseChunker: cuts the answer's token text stream into phrases the TTS can start speaking early.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>

#include "sotto/hal/result.h"

namespace sotto::speech {

struct ChunkerConfig {
  size_t capacityBytes = 2048;    // text held at once; a longer run without any cut is cut at a word
  uint32_t firstPhraseWords = 4;  // before any clause boundary, the first phrase is cut after this many words
  uint32_t phraseWords = 12;      // later phrases without punctuation are cut after this many words
  uint32_t minClauseWords = 2;    // a comma, semicolon or colon cuts only a phrase of at least this many words
};

// Phrases end at a sentence end (. ! ? …), at a clause boundary (, ; :) or a line break, or after a number of
// words. A cut is only made once the whitespace after the punctuation has arrived (the lookahead), so "3.14",
// "1,000" and "5:30" are never cut, and abbreviations ("Dr.", "e.g.", "U.S.", initials) are not sentence ends.
// Cuts happen only at ASCII whitespace, so a UTF-8 sequence is never split (except inside a single word longer
// than the capacity, which is cut at a character boundary).
//
// Threads: one thread (the TTS thread) owns it. Only create() allocates; push/next/finish/reset never allocate,
// lock or block.
class PhraseChunker {
 public:
  static Result<std::unique_ptr<PhraseChunker>> create(const ChunkerConfig& config = {});

  // Appends as much of `piece` (any size, may end inside a UTF-8 sequence) as fits; returns the bytes taken.
  // Fewer than piece.size() only when the buffer is full: call next() until it returns false, then push the rest.
  size_t push(std::string_view piece) noexcept;
  // The next complete phrase (trimmed, never empty), if one is ready. The view points into the chunker's buffer
  // and stays valid until the next push() or reset().
  bool next(std::string_view& phrase) noexcept;
  // End of the stream: next() then also returns the remaining text (an incomplete trailing UTF-8 sequence is
  // dropped).
  void finish() noexcept { ended_ = true; }
  // Makes the whole words held (each followed by whitespace) a phrase now, without waiting for the word count or a
  // punctuation mark, when there are at least `minWords` of them; the word in progress stays. A last word that is
  // an abbreviation ("Dr.") stays with what follows. Returns whether such a cut was made; next() then returns it.
  // For a slow stream's first phrase (TtsStage::limitFirstPhraseWait).
  bool cutWholeWords(uint32_t minWords) noexcept;
  // A new stream (next answer, or after a cancel): forgets everything held.
  void reset() noexcept;

  size_t buffered() const noexcept { return len_ - start_; }  // bytes not yet returned as a phrase
  uint64_t phrases() const noexcept { return phrases_; }       // phrases returned since reset()

 private:
  explicit PhraseChunker(const ChunkerConfig& c) : cfg_(c) {}
  size_t findCut() const noexcept;

  ChunkerConfig cfg_;
  std::unique_ptr<char[]> buf_;
  size_t len_ = 0;    // bytes held
  size_t start_ = 0;  // first byte not yet returned
  size_t forced_ = static_cast<size_t>(-1);  // a cut cutWholeWords() made, not yet returned
  bool ended_ = false;
  uint64_t phrases_ = 0;
};

}  // namespace sotto::speech
