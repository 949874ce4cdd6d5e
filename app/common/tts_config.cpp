// SPDX-License-Identifier: MIT
// The synthesizer's settings from the config.
#include "app/common/tts_config.h"

namespace sotto::app {

speech::TtsOptions ttsOptionsFrom(const config::Config& c) {
  speech::TtsOptions o;
  o.engine = c.ttsEngine;
  o.voice = c.ttsVoice;
  o.ratePercent = c.ttsRatePercent;
  o.volumePercent = c.ttsVolumePercent;
  o.espeakDataDir = c.ttsEspeakData;
  return o;
}

}  // namespace sotto::app
