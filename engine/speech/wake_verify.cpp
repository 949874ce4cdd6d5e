// SPDX-License-Identifier: MIT
// WakeVerifier: FSG searches on one pocketsphinx decoder (the phrase, and the phrase with each word as free phones).
#include "engine/speech/wake_verify.h"

#include <pocketsphinx.h>
#include <sphinxbase/cmd_ln.h>
#include <sphinxbase/fsg_model.h>
#include <sphinxbase/jsgf.h>

#include <algorithm>
#include <climits>
#include <memory>
#include <sstream>
#include <vector>

namespace sotto::speech {
namespace {

// The CMU phone set of pocketsphinx's en-us model; a model without some of them just loses those loop entries.
const char* const kPhones[] = {"AA", "AE", "AH", "AO", "AW", "AY", "B",  "CH", "D",  "DH", "EH", "ER", "EY",
                               "F",  "G",  "HH", "IH", "IY", "JH", "K",  "L",  "M",  "N",  "NG", "OW", "OY",
                               "P",  "R",  "S",  "SH", "T",  "TH", "UH", "UW", "V",  "W",  "Y",  "Z",  "ZH"};

// As asr.cpp's setGrammarSearch: ps_set_jsgf_string() of pocketsphinx 5prealpha leaks the parsed grammar.
bool setGrammar(ps_decoder_t* dec, const char* name, const std::string& text) {
  std::unique_ptr<jsgf_t, void (*)(jsgf_t*)> jsgf(jsgf_parse_string(text.c_str(), nullptr),
                                                   [](jsgf_t* g) { jsgf_grammar_free(g); });
  if (!jsgf) return false;
  jsgf_rule_t* rule = jsgf_get_public_rule(jsgf.get());
  if (rule == nullptr) return false;
  const float lw = static_cast<float>(cmd_ln_float32_r(ps_get_config(dec), "-lw"));
  std::unique_ptr<fsg_model_t, void (*)(fsg_model_t*)> fsg(jsgf_build_fsg(jsgf.get(), rule, ps_get_logmath(dec), lw),
                                                           [](fsg_model_t* f) { fsg_model_free(f); });
  return fsg && ps_set_fsg(dec, name, fsg.get()) >= 0;
}

}  // namespace

Result<std::unique_ptr<WakeVerifier>> WakeVerifier::create(const std::string& acousticModel,
                                                           const std::string& dictionary, const std::string& phrase,
                                                           const std::string& pronunciation) {
  // Every frame of the segment is scored by both searches: pocketsphinx's silence remover stays off here. Wide
  // beams: at the defaults the phrase's path was pruned by its own phone fillers on 11 of 12 espeak-ng en-us wake
  // clips (the verifier costs ~0.3 s of CPU per candidate with these, only on candidates).
  auto ps = detail::makeDecoder(acousticModel, dictionary,
                                {"-remove_silence", "no", "-beam", "1e-80", "-wbeam", "1e-60", "-pbeam", "1e-80"});
  if (!ps.ok()) return std::move(ps).error();
  std::unique_ptr<WakeVerifier> v(new WakeVerifier());
  v->ps_ = std::move(ps).value();
  if (auto s = detail::addPronunciations(v->ps_.get(), pronunciation); !s.ok()) return std::move(s).error();
  if (auto s = detail::checkWords(v->ps_.get(), phrase, "wake phrase"); !s.ok()) return std::move(s).error();
  // One dictionary word per phone ("sotto_ph_aa" = AA): the loop the phrase is measured against.
  std::string loop;
  for (const char* p : kPhones) {
    std::string word = "sotto_ph_";
    for (const char* c = p; *c != '\0'; ++c) word += static_cast<char>(*c - 'A' + 'a');
    if (ps_add_word(v->ps_.get(), word.c_str(), p, TRUE) < 0) continue;
    loop += (loop.empty() ? "" : " | ") + word;
  }
  if (loop.empty()) return makeError(Errc::invalid_argument, "wake verifier: the acoustic model has no CMU phones");
  const std::string head = "#JSGF V1.0;\ngrammar sotto_wake;\n<ph> = " + loop + ";\n";
  std::vector<std::string> words;
  for (std::istringstream in(phrase); in >> words.emplace_back();) {}
  words.pop_back();
  // "phrase": the phrase between optional phones. "alt<i>": the same with word i replaced by free phones, so the
  // score difference is how much better word i itself fits than anything else there ("my computer" vs "hey").
  auto grammar = [&](size_t replaced) {
    std::string body;
    for (size_t i = 0; i < words.size(); ++i) body += (i == replaced ? std::string("<ph>+") : words[i]) + " ";
    return head + "public <w> = [<ph>+] " + body + "[<ph>+];\n";
  };
  bool ok = setGrammar(v->ps_.get(), "phrase", grammar(words.size()));
  for (size_t i = 0; ok && i < words.size() && i < kMaxWords; ++i) {
    ok = setGrammar(v->ps_.get(), ("alt" + std::to_string(i)).c_str(), grammar(i));
  }
  if (!ok) {
    return makeError(Errc::invalid_argument, "wake verifier: pocketsphinx rejected the grammar for '" + phrase + "'");
  }
  v->words_ = std::min(words.size(), kMaxWords);
  return v;
}

std::optional<int32_t> WakeVerifier::decode(const char* search, std::span<const int16_t> samples,
                                            int* frames) noexcept {
  if (ps_set_search(ps_.get(), search) < 0 || ps_start_utt(ps_.get()) < 0) return std::nullopt;
  // One whole utterance: the cepstral mean comes from the segment itself.
  const int r = ps_process_raw(ps_.get(), samples.data(), samples.size(), FALSE, TRUE);
  ps_end_utt(ps_.get());
  if (r < 0) return std::nullopt;
  int32 score = 0;
  if (ps_get_hyp(ps_.get(), &score) == nullptr) return std::nullopt;
  *frames = ps_get_n_frames(ps_.get());
  return score;
}

std::optional<int32_t> WakeVerifier::score(std::span<const int16_t> samples) noexcept {
  int frames = 0;
  const auto phrase = decode("phrase", samples, &frames);
  if (!phrase || frames <= 0) return std::nullopt;
  // The weakest word decides.
  int64_t worst = INT32_MAX;
  static const char* const kAlt[kMaxWords] = {"alt0", "alt1", "alt2", "alt3", "alt4", "alt5", "alt6", "alt7"};
  for (size_t i = 0; i < words_; ++i) {
    int altFrames = 0;
    const auto alt = decode(kAlt[i], samples, &altFrames);
    if (!alt) continue;  // nothing else fits there: no evidence against the word
    worst = std::min(worst, (static_cast<int64_t>(*phrase) - *alt) * 100 / frames);
  }
  return static_cast<int32_t>(std::clamp<int64_t>(worst, INT32_MIN + 1, INT32_MAX));
}

}  // namespace sotto::speech
