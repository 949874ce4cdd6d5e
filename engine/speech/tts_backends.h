// SPDX-License-Identifier: MIT
// Private to engine/speech: the TTS backends' factories, called by createTts (tts.cpp).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "engine/speech/tts.h"

namespace sotto::speech::detail {

Result<std::unique_ptr<TtsEngine>> createFlite(const TtsOptions& options);
std::vector<std::string> fliteVoices();

#ifdef SOTTO_HAVE_ESPEAK
Result<std::unique_ptr<TtsEngine>> createEspeak(const TtsOptions& options);
std::vector<std::string> espeakVoices();
#endif

// "a, b, c" for error messages.
std::string joinNames(const std::vector<std::string>& names);

}  // namespace sotto::speech::detail
