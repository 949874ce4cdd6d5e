// SPDX-License-Identifier: MIT
// pocketsphinx decoder creation, dictionary additions and checks (engine/speech internal).
#include "engine/speech/sphinx.h"

#include <pocketsphinx.h>
#include <sphinxbase/ckd_alloc.h>
#include <sphinxbase/err.h>
#include <sphinxbase/fsg_model.h>
#include <sys/stat.h>

#include <cctype>
#include <mutex>
#include <sstream>

namespace sotto::speech::detail {
namespace {

bool exists(const std::string& path) {
  struct stat st{};
  return ::stat(path.c_str(), &st) == 0;
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

void DecoderDeleter::operator()(ps_decoder_s* ps) const noexcept { ps_free(ps); }

Result<DecoderPtr> makeDecoder(const std::string& acousticModel, const std::string& dictionary,
                               const std::vector<std::string>& extra) {
  static std::once_flag quiet;
  std::call_once(quiet, [] { err_set_logfp(nullptr); });
  if (!exists(acousticModel + "/mdef")) {
    return makeError(Errc::not_found, "pocketsphinx acoustic model not found: " + acousticModel);
  }
  if (!exists(dictionary)) return makeError(Errc::not_found, "pocketsphinx dictionary not found: " + dictionary);
  std::vector<std::string> args = {"-hmm", acousticModel, "-dict", dictionary};
  args.insert(args.end(), extra.begin(), extra.end());
  std::vector<char*> argv;
  argv.reserve(args.size());
  for (auto& a : args) argv.push_back(a.data());
  cmd_ln_t* config = cmd_ln_parse_r(nullptr, ps_args(), static_cast<int32>(argv.size()), argv.data(), FALSE);
  if (config == nullptr) return makeError(Errc::invalid_argument, "pocketsphinx rejected its configuration");
  ps_decoder_t* ps = ps_init(config);
  cmd_ln_free_r(config);  // the decoder holds its own reference
  if (ps == nullptr) {
    return makeError(Errc::corrupt, "pocketsphinx could not load the model " + acousticModel + " with " + dictionary);
  }
  return DecoderPtr(ps);
}

Status addPronunciations(ps_decoder_s* ps, const std::string& pronunciations) {
  std::istringstream entries(pronunciations);
  for (std::string entry; std::getline(entries, entry, ';');) {
    std::istringstream fields(entry);
    std::string word, phone, phones;
    if (!(fields >> word)) continue;  // empty entry (trailing ';')
    while (fields >> phone) phones += (phones.empty() ? "" : " ") + phone;
    if (phones.empty()) return makeError(Errc::invalid_argument, "pronunciation of '" + word + "' has no phones");
    // ps_add_word rejects unknown phones (returns -1).
    if (ps_add_word(ps, lower(word).c_str(), phones.c_str(), TRUE) < 0) {
      return makeError(Errc::invalid_argument, "pronunciation of '" + word + "' is not valid: " + phones);
    }
  }
  return {};
}

Status checkWords(ps_decoder_s* ps, const std::string& phrase, const char* what) {
  std::istringstream words(phrase);
  for (std::string w; words >> w;) {
    char* phones = ps_lookup_word(ps, lower(w).c_str());
    if (phones == nullptr) {
      return makeError(Errc::invalid_argument, std::string(what) + ": '" + w +
                                                   "' is not in the dictionary (give its pronunciation)");
    }
    ckd_free(phones);
  }
  return {};
}

FsgGraph readFsg(fsg_model_s* fsg) {
  FsgGraph g;
  g.states = fsg_model_n_state(fsg);
  g.start = fsg_model_start_state(fsg);
  g.final = fsg_model_final_state(fsg);
  for (int32 st = 0; st < g.states; ++st) {
    for (fsg_arciter_t* it = fsg_model_arcs(fsg, st); it != nullptr; it = fsg_arciter_next(it)) {
      if (const fsg_link_t* l = fsg_arciter_get(it)) {
        g.arcs.push_back({l->from_state, l->to_state, l->wid < 0 ? -1 : l->wid, l->logs2prob});
      }
    }
  }
  return g;
}

}  // namespace sotto::speech::detail
