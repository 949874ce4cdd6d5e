// SPDX-License-Identifier: MIT
// The synthesizer's settings from the config: one mapping for sottod's answers and `sotto say`.
#pragma once

#include "app/config/config.h"
#include "engine/speech/tts.h"

namespace sotto::app {

// Engine, voice, rate, volume and espeak-ng data directory (tts.*). Any thread; pure.
speech::TtsOptions ttsOptionsFrom(const config::Config& c);

}  // namespace sotto::app
