// SPDX-License-Identifier: MIT
// The recognizer's settings from the config: one mapping for sottod, `sotto listen` and the speech benchmarks.
#pragma once

#include "app/config/config.h"
#include "engine/speech/listener.h"

namespace sotto::app {

// Frontend, endpointing, wake word and ASR model files. The command grammar is left empty: callers load the
// intent catalogue from where they find it and set asr.grammar when the config asks for it (asrGrammar).
// Any thread; pure.
speech::ListenerConfig listenerConfigFrom(const config::Config& c);

}  // namespace sotto::app
