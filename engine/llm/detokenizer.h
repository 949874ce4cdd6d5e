// SPDX-License-Identifier: MIT
// Streaming detokenizer: token ids in, complete UTF-8 text out, equal to llama_detokenize of the whole sequence.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "engine/llm/tokenizer.h"

namespace sotto::llm {

// llama.cpp's detokenize clean-up (vocabularies with cleanSpaces()): drops the space in " ?", " !", " .", " ,",
// " 's", " 'm", " 're", " 've", and both spaces around a lone " ' ". Rewrites text[from..] in place.
void cleanSpacesInPlace(std::string& text, size_t from);

// Options for a stream; the same meaning as Tokenizer::detokenize's arguments.
struct DetokenizeOptions {
  bool removeSpecial = false;   // drop the vocabulary's leading BOS (and a final EOS, when it adds one)
  bool unparseSpecial = false;  // render control tokens as their text instead of nothing
};

// Turns generated ids into text as they arrive. The concatenation of everything push() and flush() return is
// byte-identical to Tokenizer::detokenize(all ids, options) whenever that is valid UTF-8: a token that ends
// inside a character (byte-level pieces, <0xNN> bytes) is held until the character is complete, the clean-up
// above holds a few trailing bytes until the next token decides them, and a SentencePiece stream strips the
// leading space of its first piece like llama.cpp. Malformed UTF-8 (from a broken model) becomes U+FFFD, so no
// chunk is ever invalid UTF-8.
//
// Threading: one thread at a time (the generation thread); not thread-safe. All buffers are reserved in the
// constructor: push() and flush() do not allocate.
class StreamingDetokenizer {
 public:
  // `tokenizer` must outlive the stream.
  explicit StreamingDetokenizer(const Tokenizer& tokenizer, DetokenizeOptions options = {});

  // Feeds one id; returns the text that became final (possibly empty). The view is valid until the next call.
  std::string_view push(TokenId id);
  // Ends the stream: returns what was held back (an incomplete character becomes U+FFFD). The stream is then
  // reset for a new sequence.
  std::string_view flush();
  // Forgets everything fed so far (barge-in, new request).
  void reset();

 private:
  // llama.cpp's three clean-up passes as streaming stages: each holds back only a space (the one byte a later
  // input may delete) and, after a space, an apostrophe until the one or two bytes that decide it arrive.
  class CleanPass {
   public:
    explicit CleanPass(int kind) : kind_(kind) {}
    void reset();
    template <typename Sink>
    void feed(char c, Sink&& sink);
    template <typename Sink>
    void finish(Sink&& sink);

   private:
    template <typename Sink>
    void step(char x, int lookahead, char next1, char next2, Sink&& sink);
    template <typename Sink>
    void hold(char x, Sink&& sink);
    int kind_;
    char queue_[3] = {};
    int queued_ = 0;
    bool started_ = false;
    bool skipNext_ = false;
    char prevIn_ = 0;   // the input byte before the one being decided ('\0' after a skipped byte)
    bool hasOut_ = false;
    char out_ = 0;      // last output byte, not yet passed on: the next step may delete it
  };

  void emitPiece(TokenId id);
  void cleanBytes(std::string_view bytes);
  void intoPass2(char c);
  void intoPass3(char c);
  void toUtf8(char c);
  void drainUtf8(bool final);

  const Tokenizer& tok_;
  DetokenizeOptions options_;
  bool first_ = true;        // no piece emitted yet: the SentencePiece leading space is still to strip
  bool stripSpace_ = false;  // strip one leading space from the next piece
  bool holdingEos_ = false;  // a trailing EOS that removeSpecial drops unless more tokens follow
  CleanPass pass1_{1}, pass2_{2}, pass3_{3};
  std::string pending_;  // bytes of an incomplete UTF-8 character (at most 3)
  std::string out_;      // text returned by the current call
};

}  // namespace sotto::llm
