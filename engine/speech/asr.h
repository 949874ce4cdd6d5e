// SPDX-License-Identifier: MIT
// Streaming ASR after the wake word: pocketsphinx with the command grammar and the general LM side by side.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/speech/sphinx.h"
#include "sotto/hal/result.h"

namespace sotto::speech {

struct AsrConfig {
  std::string acousticModel, dictionary;
  std::string languageModel;  // general en-us LM (open questions); empty = no LM search
  // JSGF text (intents::Catalogue::grammar()); empty = no grammar search. Words missing from the dictionary
  // become <VOID> (the alternatives holding them cannot be recognized).
  std::string grammar;
  std::string pronunciation;  // extra words "WORD PH PH ...; ..." (e.g. the wake phrase's custom words)
  uint32_t partialIntervalMs = 100;
};

struct Word {
  std::string text;
  float confidence = 0;  // posterior probability of the word in the lattice, 0..1
  uint32_t startMs = 0, endMs = 0;  // relative to the utterance start
};

struct Transcript {
  std::string text;  // words separated by single spaces, no fillers
  std::vector<Word> words;
  double scorePerFrame = 0;  // best path score / frames (pocketsphinx log scale): higher is better
  // "grammar" or "lm": which search's transcript won. The grammar's when it scores better per frame and agrees
  // with the LM's on at least two thirds of the words (see Recognizer::grammarWins), else the LM's.
  std::string_view search;
  uint32_t frames = 0;       // 10 ms frames decoded
};

// One owner thread (the speech thread, or a test); create() on the control thread (loads models, blocks).
// 16 kHz mono input. Each search has its own decoder (pocketsphinx runs one search per decoder); both hear the same
// audio. pocketsphinx allocates inside its searches; our buffers are reserved in create().
class Recognizer {
 public:
  static Result<std::unique_ptr<Recognizer>> create(const AsrConfig& config);
  // Ends an utterance still in progress first: pocketsphinx leaks an active utterance's search state otherwise
  // (found by LeakSanitizer when the daemon stops while someone speaks).
  ~Recognizer();
  Recognizer(const Recognizer&) = delete;
  Recognizer& operator=(const Recognizer&) = delete;

  // Starts an utterance.
  Status begin() noexcept;
  // Decodes `samples`. Returns true when a new partial transcript is available in partial(): checked at most once
  // per partialIntervalMs of audio, and only reported when its text changed.
  bool process(std::span<const int16_t> samples) noexcept;
  std::string_view partial() const noexcept { return partial_; }
  // Ends the utterance and fills `out` with the better of the searches' transcripts (by score per frame).
  Status finish(Transcript& out) noexcept;
  bool active() const noexcept { return active_; }
  bool hasGrammar() const noexcept { return grammar_ != nullptr; }
  bool hasLanguageModel() const noexcept { return lm_ != nullptr; }

 private:
  Recognizer() = default;
  struct Candidate {
    bool ok = false;
    double scorePerFrame = 0;
  };
  Candidate best(ps_decoder_s* ps, std::string& text) noexcept;
  // g's transcript in scratchA_, l's in scratchB_.
  bool grammarWins(const Candidate& g, const Candidate& l) const noexcept;
  static constexpr double kMaxGrammarDisagreement = 0.34;
  void fill(ps_decoder_s* ps, Transcript& out) noexcept;

  detail::DecoderPtr grammar_, lm_;
  uint32_t partialIntervalSamples_ = 1600;
  uint64_t samples_ = 0, lastPartialCheck_ = 0;
  std::string partial_, scratchA_, scratchB_;
  bool active_ = false;
};

}  // namespace sotto::speech
