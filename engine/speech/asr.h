// SPDX-License-Identifier: MIT
// Streaming ASR after the wake word: pocketsphinx with the command grammar and the general LM side by side.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/speech/senone_share.h"
#include "engine/speech/sphinx.h"
#include "sotto/hal/result.h"

namespace sotto::nlu {
class Understander;
struct UnderstandWorkspace;
}  // namespace sotto::nlu

namespace sotto::speech {

struct AsrConfig {
  std::string acousticModel, dictionary;
  std::string languageModel;  // general en-us LM (open questions); empty = no LM search
  // JSGF text (intents::Catalogue::grammar()); empty = no grammar search. Words missing from the dictionary
  // become <VOID> (the alternatives holding them cannot be recognized).
  std::string grammar;
  std::string pronunciation;  // extra words "WORD PH PH ...; ..." (e.g. the wake phrase's custom words)
  // The catalogue's own trigram model (sotto nlu lm; bench/nlu/train.sh writes it beside the catalogue), searched
  // by a third decoder; empty = none. A missing or unreadable file is no error: the recognizer runs without that
  // search and says why (Recognizer::degradedReason()).
  std::string domainLanguageModel;
  // Borrowed, must outlive the recognizer; null = no understanding. With it, each final carries the intent and
  // confidence understood from its text, and (rescore) the winner is chosen by acoustics plus understanding.
  const nlu::Understander* understander = nullptr;
  bool rescore = true;
  // With rescoring: a command read from the domain search wins only when this share of the domain n-best, each
  // weighted by its acoustic probability relative to the best, reads the same intent (domainAgreement); else the
  // general LM's transcript stands. 0 = no check.
  float minDomainAgreement = 0.0f;
  // The n-gram searches' cap on HMMs evaluated per frame (pocketsphinx -maxhmmpf); 0 = pocketsphinx's own (30000;
  // the config's default is 4000).
  // In steady noise their beams stay wide and the search costs about a core; a cap bounds it.
  uint32_t maxHmmPerFrame = 0;
  // The searches evaluate each frame's Gaussians once between them (detail::SenoneShare) instead of each on its
  // own. Off only to compare (intent_bench, 360 clips: CPU per second listening 26.2 % off, 24.6 % on).
  bool shareScores = true;
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
  // "grammar", "domain" or "lm": which search's transcript won (see Recognizer::choose).
  std::string_view search;
  uint32_t frames = 0;       // 10 ms frames decoded
  // What the understander read in `text` (AsrConfig::understander); -1 and 0 without one.
  int intent = -1;         // catalogue intent index, -1 none
  float confidence = 0.0f;  // of that intent; for none, how sure no command was said
  uint32_t alternatives = 0;  // hypotheses compared (the searches' n-best lists together)
};

// One hypothesis of one search, as rescoring sees it.
struct Hypothesis {
  std::string text;
  // Path score / frames, pocketsphinx's log scale (ln x 1e4), relative to the search's best path (0): higher is
  // better.
  double scorePerFrame = 0;
  int search = 0;            // Recognizer::kGrammar, kDomain or kLm
  int rank = 0;              // 0: the search's best path; k: the k-th entry of its n-best walk
  bool eligible = true;      // false: a grammar hypothesis that disagrees with every open search (see choose)
  int intent = -1;           // what the understander read (nlu::Assessment)
  float confidence = 0.0f;
  float understanding = 0.0f;  // understandingTerm(): the reading's score when a confident command, else 0
  double combined = 0;       // filled by rescoreHypotheses
};

// Weight of the understanding score against the acoustic score normalized within the list (rescoreHypotheses),
// and the least intent confidence whose reading earns it. Chosen on generated speech: 64 gen_train.py lines (seed
// 7; 48 commands, 16 open requests) said by flite slt, awb, rms and kal, every hypothesis recorded once and the
// choice replayed for weights 0-2 and least confidences 0-0.95: weight 0 (acoustics alone) got 38 right, 1 with
// 0.9 got 52 with 5 wrong intents; weight 1 with any reading (0) 51 with 9 wrong intents (fluent nonsense from
// the domain search read as a middling command); 0.5 or 2 were no better.
inline constexpr double kUnderstandingWeight = 1.0;
inline constexpr float kMinCommandConfidence = 0.9f;

// The understanding term of one hypothesis: its reading's score when it reads as a confident command, else 0. A
// none reading earns nothing: its score says how sure the model is that no command was said, which would reward a
// command search for forcing an open question into fluent nonsense ("what do dishwasher" over the general LM's
// "purple on the dishwasher").
inline float understandingTerm(int intent, float confidence, float score) noexcept {
  return intent >= 0 && confidence >= kMinCommandConfidence ? score : 0.0f;
}
// Per-frame score differences below this spread (pocketsphinx log units, 1e-4 nat) count as acoustically equal:
// a list whose hypotheses all score within it is decided by understanding alone.
inline constexpr double kMinAcousticSpread = 200.0;

// Rescoring: combined = (scorePerFrame - best) / max(spread of the list, kMinAcousticSpread) + weight x
// understanding, i.e. acoustics in [-1, 0] relative to the list and understanding in [0, weight]. With weight 1 a
// hypothesis that reads as a confident command (understanding >= 0.9) beats one that reads as nothing (0) unless
// it is acoustically almost the whole list's spread worse; when nothing reads as a command, acoustics decide. Fills
// `combined` for the eligible ones and returns the index of the best eligible hypothesis, or list.size() when none
// is. Any thread; no allocation.
size_t rescoreHypotheses(std::span<Hypothesis> list, double weight) noexcept;

// The share of the domain search's hypotheses in `list` that read intent `intent`, each weighted by its acoustic
// probability relative to the search's best over the utterance (exp((scorePerFrame - best) x frames / 1e4): a
// path 100 per frame worse over 100 frames counts e^-1). Noise that a language model of commands turns into word
// soup reads as a different command on every entry; a spoken command reads the same on the likely ones. 1 when the
// list holds no domain hypothesis. Any thread; no allocation.
double domainAgreement(std::span<const Hypothesis> list, int intent, uint32_t frames) noexcept;

// One owner thread (the speech thread, or a test); create() on the control thread (loads models, blocks).
// 16 kHz mono input. Each search has its own decoder (pocketsphinx runs one search per decoder); all hear the same
// audio. pocketsphinx allocates inside its searches; our buffers are reserved in create(). Cost of the third
// search, its n-best and the understanding (sotto listen on 16 generated utterances, AMD EPYC): while listening
// after the wake, 59 % -> 76 % of one core (+0.34 s of CPU per 2.1 s request); the whole chain 43 % -> 48 %;
// loading about 1 s more. Neither recognizer meets the 25 % there.
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
  // Takes the searches' best paths over all audio so far now, whatever the interval (semantic endpointing asks at
  // a pause, not on the partials' clock). Returns true when partial() changed.
  bool refreshPartial() noexcept;
  std::string_view partial() const noexcept { return partial_; }
  // Ends the utterance and fills `out` with the chosen transcript (see choose in asr.cpp).
  Status finish(Transcript& out) noexcept;
  bool active() const noexcept { return active_; }
  bool hasGrammar() const noexcept { return decoders_[kGrammar] != nullptr; }
  bool hasDomainModel() const noexcept { return decoders_[kDomain] != nullptr; }
  bool hasLanguageModel() const noexcept { return decoders_[kLm] != nullptr; }
  // Why a configured search is not running (the domain LM's file missing or unreadable), or why the searches score
  // frames separately though asked to share (AsrConfig::shareScores), or empty.
  const std::string& degradedReason() const noexcept { return degraded_; }
  // The searches' shared frame evaluation, or null when each scores on its own (for tests and metrics).
  const detail::SenoneShare* senoneShare() const noexcept { return share_.get(); }
  // The hypotheses the last finish() compared: the general LM's best, the grammar's best, the domain's n-best.
  std::span<const Hypothesis> lastHypotheses() const noexcept { return {hyps_.data(), hypCount_}; }

  static constexpr int kGrammar = 0, kDomain = 1, kLm = 2, kSearches = 3;
  static constexpr size_t kNbest = 6;  // distinct hypotheses taken from the domain search's n-best
  static constexpr const char* kSearchNames[kSearches] = {"grammar", "domain", "lm"};

 private:
  Recognizer() = default;
  // Adds up to `n` distinct hypotheses of search `s` to hyps_ (the 1-best alone when n is 1).
  void collect(int s, size_t n) noexcept;
  // The index in hyps_ of the transcript to report (see the comment in asr.cpp), or hypCount_ when none.
  size_t choose(bool final) noexcept;
  static constexpr double kMaxGrammarDisagreement = 0.34;
  void fill(ps_decoder_s* ps, Transcript& out) noexcept;

  detail::DecoderPtr decoders_[kSearches];
  std::unique_ptr<detail::SenoneShare> share_;  // after decoders_: released first, it restores their scorers
  const nlu::Understander* understander_ = nullptr;
  std::unique_ptr<nlu::UnderstandWorkspace> ws_;
  bool rescore_ = true;
  float minDomainAgreement_ = 0.0f;
  std::vector<Hypothesis> hyps_;  // reserved for kSearches x kNbest
  size_t hypCount_ = 0;
  uint32_t partialIntervalSamples_ = 1600;
  uint64_t samples_ = 0, lastPartialCheck_ = 0;
  std::string partial_, scratch_, degraded_;
  bool active_ = false;
};

}  // namespace sotto::speech
