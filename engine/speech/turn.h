// SPDX-License-Identifier: MIT
// Semantic endpointing: whether the words heard so far are a whole command, so the turn may end after a short
// silence instead of the long one kept for open questions and utterances still being said.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>

#include "engine/nlu/understand.h"
#include "sotto/hal/result.h"

namespace sotto::speech {

enum class TurnState : uint8_t {
  open,        // not a command the understanding is sure of (an open question, noise): the long silence
  complete,    // a confident command with every required slot and nothing visibly left to say: the short silence
  unfinished,  // a command still being said ("set a timer for", "... and", "twenty"): the long silence
};

struct TurnReading {
  TurnState state = TurnState::open;
  int intent = -1;           // catalogue intent understood, -1 none
  float confidence = 0.0f;   // of that intent
  std::string_view why = "";  // static text: what decided (tests, diagnostics)
  // complete, but one word that longer commands begin with ("stop" of "stop the timer", "pause" of "pause the
  // music"): the turn ends after a somewhat longer silence, so a stop consonant's closure does not cut it.
  bool mayGoOn = false;
};

// The transcript's own signs that more is coming, whatever it means: a trailing connective or preposition ("and",
// "to", "for", "the", "plus", ...), or a number that a longer number continues ("twenty" -> "twenty five",
// "hundred", "point", "seven" after "at" -> "seven thirty"). Returns why (static text), or "" when none.
// Any thread; no allocation.
std::string_view unfinishedTail(std::string_view text) noexcept;

// A question or a request for an answer said whole: at least four words, opened by a question word, an auxiliary
// or "tell"/"explain"/"describe"/"define", ending neither in a word that leaves its complement unsaid ("how much",
// "why do you", "tell me something") nor in an unfinished tail. Any thread; no allocation.
bool wholeQuestion(std::string_view text) noexcept;

// What the speech thread asks at a pause: is this turn over? One owner thread (the speech thread, or a test);
// read() must not allocate, lock, log or block: it runs between two 10 ms frames of the recognizer.
class TurnDetector {
 public:
  virtual ~TurnDetector() = default;
  virtual TurnReading read(std::string_view transcript) noexcept = 0;
};

// The understanding layer's reading (nlu::Understander::assess: the catalogue's phrasings, then the trained model)
// plus unfinishedTail(): complete for a command whose intent confidence is at least minConfidence, with no
// required slot missing and no unfinished tail, and (questions true) for what is no command but a wholeQuestion().
// create() on the control thread (allocates the workspace, ~80 KiB).
class UnderstandingTurnDetector final : public TurnDetector {
 public:
  // Borrows `understander`, which must outlive the detector.
  static Result<std::unique_ptr<UnderstandingTurnDetector>> create(const nlu::Understander& understander,
                                                                   float minConfidence, bool questions = true);
  TurnReading read(std::string_view transcript) noexcept override;

 private:
  UnderstandingTurnDetector() = default;
  const nlu::Understander* understander_ = nullptr;
  std::unique_ptr<nlu::UnderstandWorkspace> ws_;
  float minConfidence_ = 0.9f;
  bool questions_ = true;
};

}  // namespace sotto::speech
