// SPDX-License-Identifier: MIT
// A Listener as the daemon builds one for the speech stage's lockstep tests: the en-us models and the catalogue's
// command grammar (the barge-in and listen-again tests share it).
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "engine/intents/catalogue.h"
#include "engine/speech/listener.h"

namespace sotto::test {

// stopPhrase: spotted during playback without the wake word (ListenerConfig::stopPhrase); empty = none.
// stablePartials: ListenerConfig::stablePartials (speculation on the pause before the endpoint).
inline std::unique_ptr<speech::Listener> commandListener(const std::string& stopPhrase = "",
                                                        int stopThresholdExponent = -20,
                                                        bool stablePartials = false) {
  speech::ListenerConfig lc;
  lc.stablePartials = stablePartials;
  lc.stopPhrase = stopPhrase;
  lc.stopThresholdExponent = stopThresholdExponent;
  const std::string model = "/usr/share/pocketsphinx/model/en-us/";
  lc.wake.acousticModel = lc.asr.acousticModel = model + "en-us";
  lc.wake.dictionary = lc.asr.dictionary = model + "cmudict-en-us.dict";
  auto catalogue = intents::Catalogue::loadFile(std::string(SOTTO_SOURCE_DIR) + "/config/intents.xml");
  EXPECT_TRUE(catalogue.ok());
  if (!catalogue.ok()) return nullptr;
  lc.asr.grammar = catalogue.value().grammar();
  auto l = speech::Listener::create(lc);
  EXPECT_TRUE(l.ok()) << l.error().message;
  return l.ok() ? std::move(l).value() : nullptr;
}

}  // namespace sotto::test
