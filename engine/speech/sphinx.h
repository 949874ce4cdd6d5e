// SPDX-License-Identifier: MIT
// Internal to engine/speech: pocketsphinx decoder ownership and creation shared by the wake spotter and the ASR.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "engine/speech/jsgf.h"
#include "sotto/hal/result.h"

struct ps_decoder_s;
struct fsg_model_s;

namespace sotto::speech::detail {

struct DecoderDeleter {
  void operator()(ps_decoder_s* ps) const noexcept;
};
using DecoderPtr = std::unique_ptr<ps_decoder_s, DecoderDeleter>;

// Control thread (blocks on loading the model files). `extra` are further "-name value" pairs for cmd_ln.
// pocketsphinx's own logging is switched off (it would write to stderr from the speech thread).
Result<DecoderPtr> makeDecoder(const std::string& acousticModel, const std::string& dictionary,
                               const std::vector<std::string>& extra);

// Adds "WORD PH PH ...; WORD PH ..." pronunciations to the decoder's dictionary (words lowercased).
Status addPronunciations(ps_decoder_s* ps, const std::string& pronunciations);

// Checks that every word of `phrase` has a pronunciation.
Status checkWords(ps_decoder_s* ps, const std::string& phrase, const char* what);

// The states and arcs (word and null) of a pocketsphinx FSG, for reduceFsg(). Any thread; allocates.
FsgGraph readFsg(fsg_model_s* fsg);

// pocketsphinx's feature frame: 10 ms.
inline constexpr unsigned kFrameMs = 10;

}  // namespace sotto::speech::detail
