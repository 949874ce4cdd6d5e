// SPDX-License-Identifier: MIT
// Recognizer: three pocketsphinx decoders (FSG from the command grammar, the domain LM, the general LM), partials,
// the final chosen by acoustics plus understanding, with word confidences.
#include "engine/speech/asr.h"

#include <pocketsphinx.h>
#include <sphinxbase/ckd_alloc.h>
#include <sphinxbase/cmd_ln.h>
#include <sphinxbase/fsg_model.h>
#include <sphinxbase/jsgf.h>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cctype>
#include <array>
#include <limits>
#include <memory>
#include <string>

#include "engine/nlu/understand.h"
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
  // The search's bookkeeping walks every state each frame (15 % of listening CPU with the catalogue's 2,089
  // states): hand it the same grammar with its alike states merged.
  const FsgGraph r = reduceFsg(detail::readFsg(fsg.get()));
  std::unique_ptr<fsg_model_t, void (*)(fsg_model_t*)> small(
      fsg_model_init(fsg_model_name(fsg.get()), ps_get_logmath(dec), lw, r.states),
      [](fsg_model_t* f) { fsg_model_free(f); });
  if (!small) return false;
  for (int32 w = 0; w < fsg_model_n_word(fsg.get()); ++w) {
    if (fsg_model_word_add(small.get(), fsg_model_word_str(fsg.get(), w)) != w) return false;
  }
  small->start_state = r.start;
  small->final_state = r.final;
  for (const FsgArc& a : r.arcs) {
    if (a.word >= 0) {
      fsg_model_trans_add(small.get(), a.from, a.to, a.logp, a.word);
    } else {
      fsg_model_null_trans_add(small.get(), a.from, a.to, a.logp);
    }
  }
  // The quotient of a closed null relation is closed; recomputing costs little and keeps it so whatever came in.
  glist_free(fsg_model_null_trans_closure(small.get(), nullptr));
  return ps_set_fsg(dec, name, small.get()) >= 0;  // the search keeps its own reference
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

size_t rescoreHypotheses(std::span<Hypothesis> list, double weight) noexcept {
  double best = -std::numeric_limits<double>::infinity(), worst = std::numeric_limits<double>::infinity();
  for (const Hypothesis& h : list) {
    if (!h.eligible) continue;
    best = std::max(best, h.scorePerFrame);
    worst = std::min(worst, h.scorePerFrame);
  }
  size_t pick = list.size();
  if (pick == 0 || best == -std::numeric_limits<double>::infinity()) return pick;
  const double spread = std::max(best - worst, kMinAcousticSpread);
  for (size_t i = 0; i < list.size(); ++i) {
    Hypothesis& h = list[i];
    if (!h.eligible) continue;
    h.combined = (h.scorePerFrame - best) / spread + weight * h.understanding;
    // Ties keep the earlier in the list (Recognizer::finish lists the general LM's first).
    if (pick == list.size() || h.combined > list[pick].combined) pick = i;
  }
  return pick;
}

double domainAgreement(std::span<const Hypothesis> list, int intent, uint32_t frames) noexcept {
  double best = -std::numeric_limits<double>::infinity();
  for (const Hypothesis& h : list) {
    if (h.search == Recognizer::kDomain) best = std::max(best, h.scorePerFrame);
  }
  if (best == -std::numeric_limits<double>::infinity()) return 1.0;
  double same = 0, all = 0;
  for (const Hypothesis& h : list) {
    if (h.search != Recognizer::kDomain) continue;
    const double w = std::exp(std::max(-50.0, (h.scorePerFrame - best) * static_cast<double>(frames) / 1e4));
    all += w;
    if (h.intent == intent) same += w;
  }
  return all > 0 ? same / all : 1.0;
}

Result<std::unique_ptr<Recognizer>> Recognizer::create(const AsrConfig& config) {
  if (config.languageModel.empty() && config.grammar.empty() && config.domainLanguageModel.empty()) {
    return makeError(Errc::invalid_argument, "ASR: neither a language model nor a command grammar");
  }
  if (config.partialIntervalMs == 0) return makeError(Errc::invalid_argument, "ASR: partial interval of 0 ms");
  std::unique_ptr<Recognizer> r(new Recognizer());
  r->partialIntervalSamples_ = config.partialIntervalMs * 16;
  if (!config.grammar.empty()) {
    auto ps = detail::makeDecoder(config.acousticModel, config.dictionary, {});
    if (!ps.ok()) return std::move(ps).error();
    r->decoders_[kGrammar] = std::move(ps).value();
    if (auto s = detail::addPronunciations(r->decoders_[kGrammar].get(), config.pronunciation); !s.ok()) {
      return std::move(s).error();
    }
    // The FSG search refuses a grammar with a word missing from its dictionary (the catalogue holds abbreviations
    // like "kg" and British spellings the CMU dictionary lacks): those alternatives are pruned.
    ps_decoder_s* dec = r->decoders_[kGrammar].get();
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
  // No flat-lexicon second pass for the n-gram searches: it re-decodes the whole utterance at the endpoint (final
  // 100-170 ms after the endpoint instead of 20-45 ms on the host) and changed none of the closed-loop transcripts.
  std::vector<std::string> ngramArgs = {"-fwdflat", "no"};
  if (config.maxHmmPerFrame > 0) ngramArgs.insert(ngramArgs.end(), {"-maxhmmpf", std::to_string(config.maxHmmPerFrame)});
  const auto withLm = [&ngramArgs](const std::string& lm) {
    std::vector<std::string> a = {"-lm", lm};
    a.insert(a.end(), ngramArgs.begin(), ngramArgs.end());
    return a;
  };
  if (!config.domainLanguageModel.empty()) {
    // pocketsphinx reports an unreadable model only as a failed ps_init(): check the file first to say which.
    if (::access(config.domainLanguageModel.c_str(), R_OK) != 0) {
      r->degraded_ = "no domain language model search: cannot read " + config.domainLanguageModel;
    } else if (auto ps = detail::makeDecoder(config.acousticModel, config.dictionary, withLm(config.domainLanguageModel));
               ps.ok()) {
      r->decoders_[kDomain] = std::move(ps).value();
      if (auto s = detail::addPronunciations(r->decoders_[kDomain].get(), config.pronunciation); !s.ok()) {
        return std::move(s).error();
      }
    } else {
      r->degraded_ = "no domain language model search: " + config.domainLanguageModel +
                     " is not a language model pocketsphinx reads (" + ps.error().message + ")";
    }
  }
  if (!config.languageModel.empty()) {
    auto ps = detail::makeDecoder(config.acousticModel, config.dictionary, withLm(config.languageModel));
    if (!ps.ok()) return std::move(ps).error();
    r->decoders_[kLm] = std::move(ps).value();
    if (auto s = detail::addPronunciations(r->decoders_[kLm].get(), config.pronunciation); !s.ok()) {
      return std::move(s).error();
    }
  }
  if (!r->decoders_[kGrammar] && !r->decoders_[kLm] && !r->decoders_[kDomain]) {
    return makeError(Errc::not_found, "ASR: " + r->degraded_);
  }
  if (config.shareScores) {
    ps_decoder_s* all[kSearches] = {r->decoders_[0].get(), r->decoders_[1].get(), r->decoders_[2].get()};
    const int running = (all[0] != nullptr) + (all[1] != nullptr) + (all[2] != nullptr);
    if (running > 1) {
      if (auto share = detail::SenoneShare::share(all); share.ok()) {
        r->share_ = std::move(share).value();
      } else {
        r->degraded_ += (r->degraded_.empty() ? "" : "; ") + share.error().message;
      }
    }
  }
  r->understander_ = config.understander;
  r->rescore_ = config.rescore;
  r->minDomainAgreement_ = config.minDomainAgreement;
  if (r->understander_ != nullptr) r->ws_ = std::make_unique<nlu::UnderstandWorkspace>();
  r->hyps_.resize(kSearches * kNbest);
  for (Hypothesis& h : r->hyps_) h.text.reserve(256);
  for (std::string* s : {&r->partial_, &r->scratch_}) s->reserve(1024);
  return r;
}

Recognizer::~Recognizer() {
  if (!active_) return;
  for (auto& ps : decoders_) {
    if (ps != nullptr) ps_end_utt(ps.get());
  }
}

Status Recognizer::begin() noexcept {
  if (share_ != nullptr) share_->reset();
  for (auto& ps : decoders_) {
    if (ps != nullptr && ps_start_utt(ps.get()) < 0) return makeError(Errc::internal, "ASR: ps_start_utt failed");
  }
  samples_ = lastPartialCheck_ = 0;
  partial_.clear();
  hypCount_ = 0;
  active_ = true;
  return {};
}

void Recognizer::collect(int s, size_t n) noexcept {
  ps_decoder_s* ps = decoders_[s].get();
  if (ps == nullptr) return;
  const int frames = ps_get_n_frames(ps);
  if (frames <= 0) return;
  const size_t first = hypCount_;
  auto add = [&](const char* hyp, int32 score, int rank) {
    if (hyp == nullptr || hypCount_ == hyps_.size()) return;
    cleanHypothesis(hyp, scratch_);
    if (scratch_.empty()) return;
    // The n-best differs often only in fillers or pronunciation variants: keep the first (best) of each text.
    for (size_t i = first; i < hypCount_; ++i) {
      if (hyps_[i].text == scratch_) return;
    }
    Hypothesis& h = hyps_[hypCount_++];
    h.text = scratch_;
    h.scorePerFrame = static_cast<double>(score) / frames;
    h.search = s;
    h.rank = rank;
    h.eligible = true;
    h.intent = -1;
    h.confidence = h.understanding = 0.0f;
    h.combined = 0;
  };
  int32 score = 0;
  add(ps_get_hyp(ps, &score), score, 0);
  if (n <= 1 || hypCount_ == first) return;
  ps_nbest_t* nb = ps_nbest(ps);
  for (int rank = 1; nb != nullptr && hypCount_ - first < n && rank <= 4 * static_cast<int>(n); ++rank) {
    nb = ps_nbest_next(nb);
    if (nb == nullptr) break;
    add(ps_nbest_hyp(nb, &score), score, rank);
  }
  if (nb != nullptr) ps_nbest_free(nb);
}

// The choice among the searches' hypotheses:
// - The grammar's path carries no language-model cost, so per frame it outscores any open-vocabulary transcript,
//   even when an open question was forced into a command. Its hypotheses compete only when its best one agrees
//   with the best of an n-gram search (domain or general) on at least two thirds of the words: it then corrects
//   that search towards a command; otherwise the utterance was not a command the grammar holds.
// - Without understanding (no understander, or asr.rescore off): the grammar's best when it competes and scores
//   best per frame, else the better per frame of the domain LM's and the general LM's best (today's rule, with
//   the domain search beside the general one).
// - With understanding: every competing hypothesis is read by the understander and rescoreHypotheses picks by
//   acoustics normalized within the list plus kUnderstandingWeight x understanding. pocketsphinx 5prealpha reports
//   scores relative to each search's own best path (its best is 0), so acoustics rank the domain search's n-best
//   and the searches' best transcripts tie acoustically: understanding decides between them.
size_t Recognizer::choose(bool final) noexcept {
  const size_t none = hypCount_;
  size_t bestOf[kSearches] = {none, none, none};
  for (size_t i = 0; i < hypCount_; ++i) {
    if (bestOf[hyps_[i].search] == none) bestOf[hyps_[i].search] = i;
  }
  if (bestOf[kGrammar] != none) {
    const std::string& g = hyps_[bestOf[kGrammar]].text;
    bool agrees = bestOf[kDomain] == none && bestOf[kLm] == none;
    for (int s : {kDomain, kLm}) {
      if (bestOf[s] != none && wordDisagreement(g, hyps_[bestOf[s]].text) <= kMaxGrammarDisagreement) agrees = true;
    }
    for (size_t i = 0; i < hypCount_; ++i) {
      if (hyps_[i].search == kGrammar) hyps_[i].eligible = agrees;
    }
  }
  if (final && understander_ != nullptr && rescore_) {
    const std::span<Hypothesis> list(hyps_.data(), hypCount_);
    const size_t pick = rescoreHypotheses(list, kUnderstandingWeight);
    // A command only the domain search heard, on which its own n-best does not agree, is noise made into words:
    // the open-vocabulary transcript stands (read as no command, the brain asks again).
    if (pick < hypCount_ && minDomainAgreement_ > 0.0f && hyps_[pick].search == kDomain && hyps_[pick].intent >= 0 &&
        bestOf[kLm] != none && decoders_[kDomain] != nullptr) {
      const auto frames = static_cast<uint32_t>(std::max(0, ps_get_n_frames(decoders_[kDomain].get())));
      if (domainAgreement(list, hyps_[pick].intent, frames) < minDomainAgreement_) return bestOf[kLm];
    }
    return pick;
  }
  if (bestOf[kGrammar] != none && hyps_[bestOf[kGrammar]].eligible) {
    bool best = true;
    for (int s : {kDomain, kLm}) {
      if (bestOf[s] != none && hyps_[bestOf[s]].scorePerFrame > hyps_[bestOf[kGrammar]].scorePerFrame) best = false;
    }
    if (best) return bestOf[kGrammar];
  }
  size_t pick = none;
  for (int s : {kDomain, kLm}) {
    if (bestOf[s] != none && (pick == none || hyps_[bestOf[s]].scorePerFrame > hyps_[pick].scorePerFrame)) {
      pick = bestOf[s];
    }
  }
  return pick;
}

bool Recognizer::process(std::span<const int16_t> samples) noexcept {
  if (!active_ || samples.empty()) return false;
  for (auto& ps : decoders_) {
    if (ps != nullptr) ps_process_raw(ps.get(), samples.data(), samples.size(), FALSE, FALSE);
  }
  samples_ += samples.size();
  if (samples_ - lastPartialCheck_ < partialIntervalSamples_) return false;
  return refreshPartial();
}

bool Recognizer::refreshPartial() noexcept {
  if (!active_) return false;
  lastPartialCheck_ = samples_;
  // Partials: each search's best path, chosen by acoustics (understanding runs once, on the final).
  hypCount_ = 0;
  for (int s = 0; s < kSearches; ++s) collect(s, 1);
  const size_t pick = choose(false);
  if (pick == hypCount_ || hyps_[pick].text == partial_) return false;
  partial_ = hyps_[pick].text;
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
  for (auto& ps : decoders_) {
    if (ps != nullptr) ps_end_utt(ps.get());
  }
  hypCount_ = 0;
  // The general LM's first: on a tie (the same reading) the open-vocabulary transcript stands, the safer one when
  // a command search forced an open question into a command. Only the domain search gives its n-best: the
  // grammar's lattice A* ran for 20 s of CPU on one five-word command (measured), the general LM's would too.
  const bool nbest = understander_ != nullptr && rescore_;
  collect(kLm, 1);
  collect(kGrammar, 1);
  collect(kDomain, nbest ? kNbest : 1);
  if (understander_ != nullptr) {
    for (size_t i = 0; i < hypCount_; ++i) {
      nlu::Assessment a;
      understander_->assess(hyps_[i].text, *ws_, a);
      hyps_[i].intent = a.intent;
      hyps_[i].confidence = a.confidence;
      hyps_[i].understanding = understandingTerm(a.intent, a.confidence, a.score);
    }
  }
  const size_t pick = choose(true);
  out.text.clear();
  out.words.clear();
  out.scorePerFrame = -std::numeric_limits<double>::infinity();
  out.search = {};
  out.frames = 0;
  out.intent = -1;
  out.confidence = 0.0f;
  out.alternatives = static_cast<uint32_t>(hypCount_);
  if (pick == hypCount_) return {};
  const Hypothesis& h = hyps_[pick];
  out.text = h.text;
  out.scorePerFrame = h.scorePerFrame;
  out.search = kSearchNames[h.search];
  out.intent = h.intent;
  out.confidence = h.confidence;
  ps_decoder_s* ps = decoders_[h.search].get();
  fill(ps, out);
  // An n-best winner other than the best path: its words and their timings are not the best path's.
  if (h.rank != 0) {
    out.words.clear();
    ps_nbest_t* nb = ps_nbest(ps);
    for (int k = 0; nb != nullptr && k < h.rank; ++k) nb = ps_nbest_next(nb);
    if (nb != nullptr) {
      for (ps_seg_t* seg = ps_nbest_seg(nb); seg != nullptr; seg = ps_seg_next(seg)) {
        const char* w = ps_seg_word(seg);
        if (w == nullptr || isFiller(w)) continue;
        int sf = 0, ef = 0;
        ps_seg_frames(seg, &sf, &ef);
        Word word;
        word.text.assign(baseWord(w));
        word.confidence = 0.0f;  // not the best path: no posterior of its own from pocketsphinx here
        word.startMs = static_cast<uint32_t>(std::max(0, sf)) * detail::kFrameMs;
        word.endMs = static_cast<uint32_t>(std::max(0, ef + 1)) * detail::kFrameMs;
        out.words.push_back(std::move(word));
      }
      ps_nbest_free(nb);
    }
  }
  return {};
}

}  // namespace sotto::speech
