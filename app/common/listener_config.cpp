// SPDX-License-Identifier: MIT
// listenerConfigFrom (see listener_config.h).
#include "app/common/listener_config.h"

namespace sotto::app {

speech::ListenerConfig listenerConfigFrom(const config::Config& c) {
  speech::ListenerConfig lc;
  lc.frontend.noiseSuppressDb = c.noiseSuppressDb;
  lc.frontend.agc = c.agc;
  lc.frontend.vadStartPercent = c.vadStartPercent;
  lc.frontend.vadContinuePercent = c.vadContinuePercent;
  lc.endpointSilenceMs = c.endpointSilenceMs;
  lc.maxUtteranceMs = c.maxUtteranceMs;
  lc.wake = {c.asrAcousticModel, c.asrDictionary, c.wakePhrase, c.wakePronunciation, c.wakeThresholdExponent};
  lc.wake.phoneLoopExponent = c.wakePhoneLoopExponent;
  lc.wake.verify = c.wakeVerify;
  lc.wake.verifyThreshold = c.wakeVerifyThreshold;
  lc.asr.acousticModel = c.asrAcousticModel;
  lc.asr.dictionary = c.asrDictionary;
  lc.asr.languageModel = c.asrLanguageModel;
  return lc;
}

}  // namespace sotto::app
