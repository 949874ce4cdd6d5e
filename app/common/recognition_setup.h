// SPDX-License-Identifier: MIT
// What the recognizer borrows from the intent catalogue: its command grammar, the domain language model beside it
// and the understander that rescores hypotheses. One place for sottod and `sotto listen`, so both hear the same.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/config/config.h"
#include "engine/intents/matcher.h"
#include "engine/nlu/model.h"
#include "engine/nlu/understand.h"
#include "engine/speech/listener.h"

namespace sotto::app {

// The domain LM trained for a catalogue lives beside it: /etc/sotto/intents.xml -> /etc/sotto/intents.lm (and
// config/intents.lm in the source tree), as nlu::modelPathFor places the understanding model. Any thread.
std::string domainLmPathFor(const std::string& cataloguePath);

// Owns what AsrConfig borrows: keep it alive as long as the Listener made from the config.
struct RecognitionSetup {
  std::unique_ptr<intents::Matcher> matcher;
  std::unique_ptr<nlu::NluModel> model;
  std::optional<nlu::Understander> understander;
  std::string catalogueName;               // the catalogue's file, for messages
  std::vector<std::string> intentNames;    // catalogue intent index -> name
  std::vector<std::string> warnings;       // what runs degraded, and why (the caller reports them)
};

// Fills lc.asr from the catalogue at cataloguePath: the grammar when c.asrGrammar, the domain LM (c.asrDomainLm;
// the default path falls back to the one beside the catalogue when it is not installed), the understander
// (catalogue phrasings + the trained model beside the catalogue) and c.asrRescore. Problems degrade, listed in
// setup.warnings: no catalogue = no grammar and no understanding; no model = phrasings alone. Control thread.
void prepareRecognition(const config::Config& c, const std::string& cataloguePath, speech::ListenerConfig& lc,
                        RecognitionSetup& setup);

}  // namespace sotto::app
