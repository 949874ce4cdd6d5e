// SPDX-License-Identifier: MIT
// The answer stage's options from the config: one mapping for sottod and `sotto ask` (and the tests that drive
// the Brain), as listener_config.h is for the recognizer.
#pragma once

#include <optional>
#include <string>

#include "app/common/catalogue_path.h"
#include "app/config/config.h"
#include "engine/answer/answer_stage.h"
#include "engine/answer/brain.h"

namespace sotto::app {

// Command-line overrides of the config (sotto ask).
struct BrainOverrides {
  std::optional<privacy::PrivacyMode> privacy;
  router::ForcedRoute forced = router::ForcedRoute::automatic;
  std::optional<std::string> cloudUrl;   // --cloud URL (http:// only for loopback)
  std::optional<std::string> modelPath;  // --model FILE ("" = no local model)
  std::optional<std::string> stateDir;   // timers, cache, keys, audit log
  std::string cataloguePath;             // intent catalogue; empty = defaultCataloguePath()
  unsigned maxAnswerTokens = 96;         // local model answers
  bool logDecisions = true;              // one info log line per routing decision (sotto ask shows it itself)
  // Requests are transcripts of speech (the daemon): a reading of no command below asr.clarify-below is asked
  // again too (typed text is never misheard).
  bool spokenRequests = false;
};


// The Brain's options: the config with the overrides applied. Any thread; pure but for defaultCataloguePath().
answer::BrainOptions brainOptionsFrom(const config::Config& c, const BrainOverrides& overrides = {});

// sottod's answer stage: spoken requests, decisions logged, the config's voice, the catalogue at cataloguePath
// ("" = defaultCataloguePath()) and, when the recognizer already built it from that catalogue, its understander
// (borrowed: it must outlive the stage), so the catalogue and its model are loaded once.
answer::AnswerStageOptions answerStageOptionsFrom(const config::Config& c, const std::string& cataloguePath = {},
                                                  const nlu::Understander* understander = nullptr);

}  // namespace sotto::app
