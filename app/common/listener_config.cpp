// SPDX-License-Identifier: MIT
// listenerConfigFrom (see listener_config.h).
#include "app/common/listener_config.h"

#include <unistd.h>

#ifndef SOTTO_WAKE_SOURCE_MODEL
#define SOTTO_WAKE_SOURCE_MODEL ""
#endif

namespace sotto::app {

speech::ListenerConfig listenerConfigFrom(const config::Config& c) {
  speech::ListenerConfig lc;
  lc.frontend.noiseSuppressDb = c.noiseSuppressDb;
  lc.frontend.highPassHz = c.highPassHz;
  lc.frontend.agc = c.agc;
  lc.frontend.vadStartPercent = c.vadStartPercent;
  lc.frontend.vadContinuePercent = c.vadContinuePercent;
  lc.frontend.vadEnergyGateDb = c.vadEnergyGateDb;
  lc.frontend.vadBackgroundGatePercent = c.vadBackgroundGatePercent;
  lc.frontend.vadBackgroundHoldMs = c.vadBackgroundHoldMs;
  lc.endpointSilenceMs = c.endpointSilenceMs;
  lc.semanticEndpoint = c.semanticEndpoint;
  lc.semanticQuestions = c.semanticEndpointQuestions;
  lc.endpointCompleteMs = c.endpointCompleteMs;
  lc.stablePartials = c.speculate;  // the brain speculates on them (answerStageOptionsFrom)
  // Without the echo canceller the device would hear itself say the stop phrase.
  lc.stopPhrase = c.aec ? c.stopPhrase : std::string();
  lc.stopThresholdExponent = c.stopThresholdExponent;
  lc.maxUtteranceMs = c.maxUtteranceMs;
  lc.wake.acousticModel = c.asrAcousticModel;
  lc.wake.dictionary = c.asrDictionary;
  lc.wake.phrase = c.wakePhrase;
  lc.wake.pronunciation = c.wakePronunciation;
  lc.wake.thresholdExponent = c.wakeThresholdExponent;
  lc.wake.phoneLoopExponent = c.wakePhoneLoopExponent;
  lc.wake.verify = c.wakeVerify;
  lc.wake.verifyThreshold = c.wakeVerifyThreshold;
  lc.wake.model = c.wakeModel;
  // Developer builds: the default model path is not installed; the source tree's copy is the same file.
  if (c.wakeModel == kDefaultWakeModelPath && ::access(kDefaultWakeModelPath, R_OK) != 0 &&
      ::access(SOTTO_WAKE_SOURCE_MODEL, R_OK) == 0) {
    lc.wake.model = SOTTO_WAKE_SOURCE_MODEL;
  }
  lc.asr.acousticModel = c.asrAcousticModel;
  lc.asr.dictionary = c.asrDictionary;
  lc.asr.languageModel = c.asrLanguageModel;
  return lc;
}

}  // namespace sotto::app
