// SPDX-License-Identifier: MIT
// AnswerGuard: makes an untrusted answer (the cloud's, or a model's) safe to speak and to print as it streams:
// no control or format characters (terminal escapes, bidi overrides, zero-width tricks), and a bounded length.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace sotto::cloud {

// Whether a code point may be spoken or printed: not a control, format, private-use, surrogate or unassigned code
// point (Unicode Cc, Cf, Co, Cs, Cn, from the generated table engine/llm/unicode_data.cpp), except '\n' and '\t'.
// Any thread.
bool isSafeCodePoint(std::uint32_t cp) noexcept;

// The safe form of a whole message (warnings, error texts from a server): unsafe code points and malformed UTF-8
// dropped. Any thread; allocates.
std::string safeText(std::string_view text);

// Streaming form: feed() the answer's pieces as they come (a UTF-8 sequence split across pieces is joined, a
// malformed one dropped). The answer stops at maxChars code points: the piece that would pass the bound is cut at
// its last space before the bound (a word it starts after an earlier piece's space is dropped whole; a word begun
// in an earlier piece is cut at the bound), and everything after is dropped.
// Threads: one stream per guard, one thread. Allocation only when out grows or a piece ends mid-sequence.
class AnswerGuard {
 public:
  explicit AnswerGuard(std::size_t maxChars = SIZE_MAX) noexcept : maxChars_(maxChars) {}

  // Appends the safe part of piece to out. Returns false once the bound was reached (then, and for every later
  // piece, the rest is dropped).
  bool feed(std::string_view piece, std::string& out);
  // The answer ended: an unfinished UTF-8 sequence is dropped.
  void finish() noexcept { tailLen_ = 0; }

  bool cut() const noexcept { return cut_; }          // the bound was reached and text was dropped
  std::size_t chars() const noexcept { return chars_; }  // code points let through
  std::size_t dropped() const noexcept { return dropped_; }  // unsafe code points and malformed bytes dropped

 private:
  void feedBytes(std::string_view bytes, std::string& out, std::size_t pieceStart);
  std::size_t maxChars_;
  std::size_t chars_ = 0;
  std::size_t dropped_ = 0;
  bool cut_ = false;
  bool afterSpace_ = false;       // the last code point let through was a space (a new word may start)
  bool startAfterSpace_ = false;  // afterSpace_ when the current piece began
  char tail_[4] = {};  // an unfinished UTF-8 sequence from the end of the last piece
  std::size_t tailLen_ = 0;
};

}  // namespace sotto::cloud
