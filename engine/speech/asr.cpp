// SPDX-License-Identifier: MIT
// Recognizer: two pocketsphinx decoders (FSG from the command grammar, n-gram LM), partials, final with confidences.
#include "engine/speech/asr.h"

#include <pocketsphinx.h>
#include <sphinxbase/ckd_alloc.h>
#include <sphinxbase/cmd_ln.h>
#include <sphinxbase/fsg_model.h>
#include <sphinxbase/jsgf.h>

#include <algorithm>
#include <cctype>
#include <array>
#include <limits>
#include <memory>
#include <string>

#include "engine/speech/jsgf.h"

namespace sotto::speech {
namespace {

// ps_set_jsgf_string() of pocketsphinx 5prealpha frees the FSG it builds but leaks the parsed grammar (about
// 0.5 MB per load, seen by LeakSanitizer): the same steps here, freeing both.
bool setGrammarSearch(ps_decoder_s* dec, const char* name, const std::string& jsgfText) {
  std::unique_ptr<jsgf_t, void (*)(jsgf_t*)> jsgf(jsgf_parse_string(jsgfText.c_str(), nullptr),
                                                   [](jsgf_t* g) { jsgf_grammar_free(g); });
  if (!jsgf) return false;
  jsgf_rule_t* rule = jsgf_get_public_rule(jsgf.get());
  if (rule == nullptr) return false;
  const float lw = static_cast<float>(cmd_ln_float32_r(ps_get_config(dec), "-lw"));
  std::unique_ptr<fsg_model_t, void (*)(fsg_model_t*)> fsg(jsgf_build_fsg(jsgf.get(), rule, ps_get_logmath(dec), lw),
                                                           [](fsg_model_t* f) { fsg_model_free(f); });
  if (!fsg) return false;
  return ps_set_fsg(dec, name, fsg.get()) >= 0;  // the search keeps its own reference
}

bool isFiller(const char* w) {
  return w[0] == '<' || w[0] == '[' || w[0] == '(' || w[0] == '\0';  // <s> </s> <sil> [NOISE] (NULL)
}

// The word without pocketsphinx's alternate-pronunciation suffix: "the(2)" -> "the".
std::string_view baseWord(const char* w) {
  std::string_view s(w);
  if (const size_t p = s.find('('); p != std::string_view::npos && p > 0) s = s.substr(0, p);
  return s;
}

// Copies a hypothesis without fillers and pronunciation suffixes; no allocation while `out` has the capacity.
void cleanHypothesis(const char* hyp, std::string& out) {
  out.clear();
  std::string_view s(hyp == nullptr ? "" : hyp);
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && s[i] == ' ') ++i;
    size_t j = i;
    while (j < s.size() && s[j] != ' ') ++j;
    if (j > i) {
      std::string_view w = s.substr(i, j - i);
      if (w[0] != '<' && w[0] != '[') {
        if (const size_t p = w.find('('); p != std::string_view::npos && p > 0) w = w.substr(0, p);
        if (!out.empty()) out += ' ';
        out += w;
      }
    }
    i = j;
  }
}

// Word-level edit distance between two space-separated transcripts, divided by the words of `ref`; no allocation
// (transcripts longer than 64 words count as disagreeing).
double wordDisagreement(std::string_view hyp, std::string_view ref) {
  constexpr size_t kMax = 64;
  std::array<std::string_view, kMax> h{}, r{};
  auto split = [](std::string_view s, std::array<std::string_view, kMax>& out) -> size_t {
    size_t n = 0, i = 0;
    while (i < s.size()) {
      const size_t j = std::min(s.find(' ', i), s.size());
      if (j > i) {
        if (n == kMax) return kMax + 1;
        out[n++] = s.substr(i, j - i);
      }
      i = j + 1;
    }
    return n;
  };
  const size_t nh = split(hyp, h), nr = split(ref, r);
  if (nh > kMax || nr > kMax) return 1.0;
  if (nr == 0) return nh == 0 ? 0.0 : 1.0;
  std::array<size_t, kMax + 1> prev{}, cur{};
  for (size_t j = 0; j <= nr; ++j) prev[j] = j;
  for (size_t i = 1; i <= nh; ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= nr; ++j) {
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (h[i - 1] == r[j - 1] ? 0 : 1)});
    }
    prev = cur;
  }
  return static_cast<double>(prev[nr]) / static_cast<double>(nr);
}

}  // namespace

Result<std::unique_ptr<Recognizer>> Recognizer::create(const AsrConfig& config) {
  if (config.languageModel.empty() && config.grammar.empty()) {
    return makeError(Errc::invalid_argument, "ASR: neither a language model nor a command grammar");
  }
  if (config.partialIntervalMs == 0) return makeError(Errc::invalid_argument, "ASR: partial interval of 0 ms");
  std::unique_ptr<Recognizer> r(new Recognizer());
  r->partialIntervalSamples_ = config.partialIntervalMs * 16;
  if (!config.grammar.empty()) {
    auto ps = detail::makeDecoder(config.acousticModel, config.dictionary, {});
    if (!ps.ok()) return std::move(ps).error();
    r->grammar_ = std::move(ps).value();
    if (auto s = detail::addPronunciations(r->grammar_.get(), config.pronunciation); !s.ok()) {
      return std::move(s).error();
    }
    // The FSG search refuses a grammar with a word missing from its dictionary (the catalogue holds abbreviations
    // like "kg" and British spellings the CMU dictionary lacks): those alternatives are pruned.
    ps_decoder_s* dec = r->grammar_.get();
    std::string lowered;
    auto jsgf = pruneGrammar(config.grammar, [dec, &lowered](std::string_view w) {
      lowered.assign(w);
      for (char& c : lowered) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      char* phones = ps_lookup_word(dec, lowered.c_str());
      ckd_free(phones);
      return phones != nullptr;
    });
    if (!jsgf.ok()) return makeError(Errc::corrupt, "ASR: command grammar: " + jsgf.error().message);
    if (!setGrammarSearch(dec, "commands", jsgf.value()) || ps_set_search(dec, "commands") < 0) {
      return makeError(Errc::corrupt, "ASR: pocketsphinx rejected the command grammar");
    }
  }
  if (!config.languageModel.empty()) {
    // No flat-lexicon second pass: it re-decodes the whole utterance at the endpoint (final 100-170 ms after the
    // endpoint instead of 20-45 ms on the host) and changed none of the closed-loop transcripts.
    auto ps = detail::makeDecoder(config.acousticModel, config.dictionary,
                                  {"-lm", config.languageModel, "-fwdflat", "no"});
    if (!ps.ok()) return std::move(ps).error();
    r->lm_ = std::move(ps).value();
    if (auto s = detail::addPronunciations(r->lm_.get(), config.pronunciation); !s.ok()) return std::move(s).error();
  }
  for (std::string* s : {&r->partial_, &r->scratchA_, &r->scratchB_}) s->reserve(1024);
  return r;
}

Recognizer::~Recognizer() {
  if (!active_) return;
  for (ps_decoder_s* ps : {grammar_.get(), lm_.get()}) {
    if (ps != nullptr) ps_end_utt(ps);
  }
}

Status Recognizer::begin() noexcept {
  for (ps_decoder_s* ps : {grammar_.get(), lm_.get()}) {
    if (ps != nullptr && ps_start_utt(ps) < 0) return makeError(Errc::internal, "ASR: ps_start_utt failed");
  }
  samples_ = lastPartialCheck_ = 0;
  partial_.clear();
  active_ = true;
  return {};
}

// Score per frame alone always favours the grammar: its path carries no language-model cost, so even an open
// question forced into a command outscores the LM's transcript. The grammar's transcript wins when it also agrees
// with the open-vocabulary one (at most a third of the words differ): it then corrects the LM towards a command;
// otherwise the utterance was not a command and the LM's transcript stands.
bool Recognizer::grammarWins(const Candidate& g, const Candidate& l) const noexcept {
  if (!g.ok) return false;
  if (!l.ok) return true;
  return g.scorePerFrame >= l.scorePerFrame && wordDisagreement(scratchA_, scratchB_) <= kMaxGrammarDisagreement;
}

Recognizer::Candidate Recognizer::best(ps_decoder_s* ps, std::string& text) noexcept {
  text.clear();
  if (ps == nullptr) return {};
  int32 score = 0;
  const char* hyp = ps_get_hyp(ps, &score);
  const int frames = ps_get_n_frames(ps);
  if (hyp == nullptr || frames <= 0) return {};
  cleanHypothesis(hyp, text);
  if (text.empty()) return {};
  return {true, static_cast<double>(score) / frames};
}

bool Recognizer::process(std::span<const int16_t> samples) noexcept {
  if (!active_ || samples.empty()) return false;
  for (ps_decoder_s* ps : {grammar_.get(), lm_.get()}) {
    if (ps != nullptr) ps_process_raw(ps, samples.data(), samples.size(), FALSE, FALSE);
  }
  samples_ += samples.size();
  if (samples_ - lastPartialCheck_ < partialIntervalSamples_) return false;
  lastPartialCheck_ = samples_;
  const Candidate g = best(grammar_.get(), scratchA_);
  const Candidate l = best(lm_.get(), scratchB_);
  const std::string* pick = nullptr;
  if (grammarWins(g, l)) pick = &scratchA_;
  if (pick == nullptr && l.ok) pick = &scratchB_;
  if (pick == nullptr || *pick == partial_) return false;
  partial_ = *pick;
  return true;
}

void Recognizer::fill(ps_decoder_s* ps, Transcript& out) noexcept {
  out.words.clear();
  out.frames = static_cast<uint32_t>(std::max(0, ps_get_n_frames(ps)));
  // Posterior probabilities need the lattice's forward-backward pass: ps_get_prob() runs it.
  ps_get_prob(ps);
  logmath_t* lmath = ps_get_logmath(ps);
  for (ps_seg_t* seg = ps_seg_iter(ps); seg != nullptr; seg = ps_seg_next(seg)) {
    const char* w = ps_seg_word(seg);
    if (w == nullptr || isFiller(w)) continue;
    int sf = 0, ef = 0;
    ps_seg_frames(seg, &sf, &ef);
    int32 ascr = 0, lscr = 0, lback = 0;
    const int32 post = ps_seg_prob(seg, &ascr, &lscr, &lback);
    Word word;
    word.text.assign(baseWord(w));
    const double p = post >= 0 ? 1.0 : logmath_exp(lmath, post);
    word.confidence = static_cast<float>(std::clamp(p, 0.0, 1.0));
    word.startMs = static_cast<uint32_t>(std::max(0, sf)) * detail::kFrameMs;
    word.endMs = static_cast<uint32_t>(std::max(0, ef + 1)) * detail::kFrameMs;
    out.words.push_back(std::move(word));
  }
}

Status Recognizer::finish(Transcript& out) noexcept {
  if (!active_) return makeError(Errc::invalid_argument, "ASR: finish() without begin()");
  active_ = false;
  for (ps_decoder_s* ps : {grammar_.get(), lm_.get()}) {
    if (ps != nullptr) ps_end_utt(ps);
  }
  const Candidate g = best(grammar_.get(), scratchA_);
  const Candidate l = best(lm_.get(), scratchB_);
  out.text.clear();
  out.words.clear();
  out.scorePerFrame = -std::numeric_limits<double>::infinity();
  out.search = {};
  out.frames = 0;
  ps_decoder_s* winner = nullptr;
  if (grammarWins(g, l)) {
    winner = grammar_.get();
    out.text = scratchA_;
    out.scorePerFrame = g.scorePerFrame;
    out.search = "grammar";
  } else if (l.ok) {
    winner = lm_.get();
    out.text = scratchB_;
    out.scorePerFrame = l.scorePerFrame;
    out.search = "lm";
  }
  if (winner != nullptr) fill(winner, out);
  return {};
}

}  // namespace sotto::speech
