// SPDX-License-Identifier: MIT
// The recognizer's settings from the config: one mapping for sottod, `sotto listen` and the speech benchmarks.
#pragma once

#include "app/config/config.h"
#include "engine/speech/listener.h"

namespace sotto::app {

// Where the firmware image installs the default wake model (CMakeLists.txt: config/hey-computer.wake).
inline constexpr const char* kDefaultWakeModelPath = "/usr/share/sotto/hey-computer.wake";

// Frontend, endpointing, wake word and ASR model files. The command grammar is left empty: callers load the
// intent catalogue from where they find it and set asr.grammar when the config asks for it (asrGrammar).
// Any thread; reads nothing but whether the default wake model is installed.
speech::ListenerConfig listenerConfigFrom(const config::Config& c);

}  // namespace sotto::app
