// SPDX-License-Identifier: MIT
// Detokenize clean-up (batch and streaming) and the streaming detokenizer's UTF-8 gate.
#include "engine/llm/detokenizer.h"

#include <algorithm>

namespace sotto::llm {

void cleanSpacesInPlace(std::string& s, size_t from) {
  // A direct port of llama.cpp's three passes (llama-vocab.cpp detokenize): each compacts the buffer in place
  // and reads the byte before the current one from the pass's input.
  char* text = s.data() + from;
  const auto n = static_cast<int64_t>(s.size() - from);

  // Pass 1: " ?", " !", " .", " ," lose the space.
  int64_t total = n ? 1 : 0;
  for (int64_t i = 1; i < n; ++i) {
    const char x = text[i];
    if (text[i - 1] == ' ' && (x == '?' || x == '!' || x == '.' || x == ',')) --total;
    text[total++] = x;
  }

  // Pass 2: a lone apostrophe between spaces loses both spaces.
  const int64_t total2 = total;
  total = total ? 1 : 0;
  for (int64_t i = 1; i < total2; ++i) {
    const char x = text[i];
    if (x == '\'' && i + 1 < total2 && text[i - 1] == ' ' && text[i + 1] == ' ') {
      --total;
      text[++i] = '\0';  // skip the next space; llama.cpp's marker also stops it from matching as "previous"
    }
    text[total++] = x;
  }

  // Pass 3: " 's", " 'm", " 're", " 've" lose the space (" 't", " 'd", " 'll" keep it).
  const int64_t total3 = total;
  total = total ? 1 : 0;
  for (int64_t i = 1; i < total3; ++i) {
    const char x = text[i];
    if (text[i - 1] == ' ' && x == '\'' && i + 1 < total3) {
      const char x1 = text[i + 1];
      if (x1 == 't' || x1 == 'd') {
        // kept
      } else if (x1 == 's' || x1 == 'm') {
        --total;
      } else if (i + 2 < total3) {
        const char x2 = text[i + 2];
        if ((x1 == 'r' && x2 == 'e') || (x1 == 'v' && x2 == 'e')) --total;
      }
    }
    text[total++] = x;
  }
  s.resize(from + static_cast<size_t>(total));
}

// --- streaming clean-up -------------------------------------------------------------------------------------

void StreamingDetokenizer::CleanPass::reset() {
  queued_ = 0;
  started_ = false;
  skipNext_ = false;
  prevIn_ = 0;
  hasOut_ = false;
  out_ = 0;
}

// Decides input byte x with `lookahead` following bytes known (next1, next2), exactly as the batch pass does
// at that index.
template <typename Sink>
void StreamingDetokenizer::CleanPass::step(char x, int lookahead, char next1, char next2, Sink&& sink) {
  if (!started_) {  // index 0 is always kept (unless the next step deletes it)
    started_ = true;
    hold(x, sink);
    return;
  }
  if (skipNext_) {  // pass 2 consumed this space together with the apostrophe before it
    skipNext_ = false;
    prevIn_ = '\0';
    return;
  }
  bool dropPrev = false;
  if (kind_ == 1) {
    dropPrev = prevIn_ == ' ' && (x == '?' || x == '!' || x == '.' || x == ',');
  } else if (kind_ == 2) {
    dropPrev = x == '\'' && lookahead >= 1 && prevIn_ == ' ' && next1 == ' ';
    skipNext_ = dropPrev;
  } else if (prevIn_ == ' ' && x == '\'' && lookahead >= 1) {
    if (next1 == 's' || next1 == 'm') {
      dropPrev = true;
    } else if (next1 != 't' && next1 != 'd' && lookahead >= 2) {
      dropPrev = (next1 == 'r' && next2 == 'e') || (next1 == 'v' && next2 == 'e');
    }
  }
  if (dropPrev) {
    hasOut_ = false;
  } else if (hasOut_) {
    sink(out_);
    hasOut_ = false;
  }
  hold(x, sink);
}

// Every rule deletes only a space (the byte before the current one must be ' '), so anything else is final
// at once; a space waits for the step after it.
template <typename Sink>
void StreamingDetokenizer::CleanPass::hold(char x, Sink&& sink) {
  prevIn_ = x;
  if (x == ' ') {
    out_ = x;
    hasOut_ = true;
  } else {
    sink(x);
  }
}

template <typename Sink>
void StreamingDetokenizer::CleanPass::feed(char c, Sink&& sink) {
  const int need = kind_ - 1;  // look-ahead bytes: pass 1 none, pass 2 one, pass 3 two
  queue_[queued_++] = c;
  while (queued_ > 0) {
    // Only an apostrophe after a space looks ahead (passes 2 and 3), and pass 3 needs its second byte only
    // after 'r' or 'v' (" 're", " 've"); everything else is decided now.
    int needed = 0;
    if (need > 0 && started_ && !skipNext_ && queue_[0] == '\'' && prevIn_ == ' ') {
      needed = (kind_ == 2 || (queued_ >= 2 && queue_[1] != 'r' && queue_[1] != 'v')) ? 1 : 2;
    }
    if (queued_ - 1 < needed) return;
    step(queue_[0], std::min(queued_ - 1, need), queue_[1], queue_[2], sink);
    for (int i = 1; i < queued_; ++i) queue_[i - 1] = queue_[i];
    --queued_;
  }
}

template <typename Sink>
void StreamingDetokenizer::CleanPass::finish(Sink&& sink) {
  while (queued_ > 0) {
    step(queue_[0], queued_ - 1, queued_ > 1 ? queue_[1] : '\0', queued_ > 2 ? queue_[2] : '\0', sink);
    for (int i = 1; i < queued_; ++i) queue_[i - 1] = queue_[i];
    --queued_;
  }
  if (hasOut_) sink(out_);
  reset();
}

// --- stream -------------------------------------------------------------------------------------------------

StreamingDetokenizer::StreamingDetokenizer(const Tokenizer& tokenizer, DetokenizeOptions options)
    : tok_(tokenizer), options_(options) {
  pending_.reserve(8);
  // Worst case per call: a held EOS piece plus the new piece plus held bytes, every byte turned into U+FFFD.
  out_.reserve((2 * tok_.maxPieceLength() + 16) * 3);
}

void StreamingDetokenizer::reset() {
  first_ = true;
  stripSpace_ = false;
  holdingEos_ = false;
  pass1_.reset();
  pass2_.reset();
  pass3_.reset();
  pending_.clear();
  out_.clear();
}

std::string_view StreamingDetokenizer::push(TokenId id) {
  out_.clear();
  if (first_) {
    first_ = false;
    stripSpace_ = tok_.addSpacePrefix();
    if (options_.removeSpecial && tok_.addBos() && id == tok_.bos()) {
      stripSpace_ = false;  // llama.cpp keeps the space after a removed BOS
      return out_;
    }
  }
  if (holdingEos_) {  // the EOS was not the last token after all
    holdingEos_ = false;
    emitPiece(tok_.eos());
  }
  if (options_.removeSpecial && tok_.addEos() && id == tok_.eos()) {
    holdingEos_ = true;
    return out_;
  }
  emitPiece(id);
  return out_;
}

std::string_view StreamingDetokenizer::flush() {
  out_.clear();
  holdingEos_ = false;  // a trailing EOS is dropped
  if (tok_.cleanSpaces()) {
    pass1_.finish([this](char c) { intoPass2(c); });
    pass2_.finish([this](char c) { intoPass3(c); });
    pass3_.finish([this](char c) { toUtf8(c); });
  }
  drainUtf8(true);
  first_ = true;
  stripSpace_ = false;
  return out_;
}

void StreamingDetokenizer::emitPiece(TokenId id) {
  const std::string_view piece = tok_.tokenToPiece(id, options_.unparseSpecial, stripSpace_ ? 1 : 0);
  stripSpace_ = false;
  if (tok_.cleanSpaces()) {
    for (const char c : piece) pass1_.feed(c, [this](char d) { intoPass2(d); });
  } else {
    for (const char c : piece) toUtf8(c);
  }
}

void StreamingDetokenizer::intoPass2(char c) {
  pass2_.feed(c, [this](char d) { intoPass3(d); });
}

void StreamingDetokenizer::intoPass3(char c) {
  pass3_.feed(c, [this](char d) { toUtf8(d); });
}

void StreamingDetokenizer::toUtf8(char c) {
  pending_.push_back(c);
  drainUtf8(false);
}

// Moves every complete character from pending_ to out_. Malformed bytes become U+FFFD, one per maximal
// ill-formed subpart (the Unicode recommendation); an incomplete tail waits unless `final`.
void StreamingDetokenizer::drainUtf8(bool final) {
  static constexpr std::string_view kReplacement = "\xEF\xBF\xBD";
  size_t i = 0;
  const size_t n = pending_.size();
  while (i < n) {
    const auto b0 = static_cast<unsigned char>(pending_[i]);
    if (b0 < 0x80) {
      out_.push_back(static_cast<char>(b0));
      ++i;
      continue;
    }
    size_t len = 0;
    unsigned char lo = 0x80, hi = 0xBF;
    if (b0 >= 0xC2 && b0 <= 0xDF) {
      len = 2;
    } else if (b0 >= 0xE0 && b0 <= 0xEF) {
      len = 3;
      if (b0 == 0xE0) lo = 0xA0;
      if (b0 == 0xED) hi = 0x9F;
    } else if (b0 >= 0xF0 && b0 <= 0xF4) {
      len = 4;
      if (b0 == 0xF0) lo = 0x90;
      if (b0 == 0xF4) hi = 0x8F;
    } else {
      out_.append(kReplacement);
      ++i;
      continue;
    }
    size_t ok = 1;  // bytes of this sequence that are well formed so far
    while (ok < len && i + ok < n) {
      const auto b = static_cast<unsigned char>(pending_[i + ok]);
      const bool good = ok == 1 ? (b >= lo && b <= hi) : (b & 0xC0) == 0x80;
      if (!good) break;
      ++ok;
    }
    if (ok == len) {
      out_.append(pending_, i, len);
      i += len;
    } else if (i + ok < n || final) {  // broken by a bad byte, or cut off at the end of the stream
      out_.append(kReplacement);
      i += ok;
    } else {
      break;  // incomplete: wait for the next bytes
    }
  }
  pending_.erase(0, i);
}

}  // namespace sotto::llm
