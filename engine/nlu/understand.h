// SPDX-License-Identifier: MIT
// Understanding one utterance: the catalogue's phrasings first (exact, and never a false intent on what they
// cover), then the trained model for what no phrasing covers: its intent when confident, its tagged spans read
// by the same slot parsers, and the exact rules' guards (open-request openings, required slots, derived values).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engine/intents/matcher.h"
#include "engine/nlu/model.h"
#include "sotto/hal/result.h"

namespace sotto::nlu {

// Scratch for one utterance: callers keep one per thread (about 80 KiB; allocate it once).
struct UnderstandWorkspace {
  intents::MatchWorkspace match;
  NluWorkspace nlu;
  intents::IntentMatch scratchMatch;  // assess()'s
};

// What the rest of the pipeline asks of a partial or alternative transcript (assess()).
struct Assessment {
  int intent = -1;           // catalogue intent understood, -1 none
  float confidence = 0.0f;   // of that intent; for none, how sure no command was said
  bool complete = false;     // a command with every required slot: acting on it now would be right (turn-taking)
  bool expectsMore = false;  // the model hears a command whose required slot has not been said yet ("set a timer
                             // for"): keep listening
  float score = 0.0f;        // plausibility in [0, 1] for rescoring a recognizer's n-best list: higher reads better
};

// Threads: build on a control thread; understand() from any number of threads at once, each with its own
// workspace and result. understand() does not allocate, lock or block.
class Understander {
 public:
  // Borrows matcher and model (model may be null: rules only); both must outlive this. Fails (corrupt) when
  // the model was trained for another catalogue: an intent or slot it names is not in the catalogue.
  static Result<Understander> create(const intents::Matcher& matcher, const NluModel* model);

  const intents::Matcher& matcher() const noexcept { return *matcher_; }
  const NluModel* model() const noexcept { return model_; }

  void understand(std::string_view text, UnderstandWorkspace& ws, intents::IntentMatch& out) const noexcept;

  // The same reading, summarized for turn-taking and n-best rescoring; cheap enough for every partial (one
  // match and at most one classification and tagging). Same threads and guarantees as understand().
  void assess(std::string_view text, UnderstandWorkspace& ws, Assessment& out) const noexcept;

 private:
  struct Reading {
    float probability = 0.0f;  // the model's most probable class, when it was asked
    bool missingSlot = false;  // the model's command lacked a required slot
  };
  Understander() = default;
  void read(std::string_view text, UnderstandWorkspace& ws, intents::IntentMatch& out, Reading& r) const noexcept;
  const intents::Matcher* matcher_ = nullptr;
  const NluModel* model_ = nullptr;
  std::vector<int> catalogueIntent_;                // model intent -> catalogue intent (-1 for none)
  std::vector<std::vector<int>> slotOfIntent_;      // [model intent][model slot] -> slot in the intent, or -1
  std::vector<std::uint64_t> allowedSlots_;         // [model intent]: bit per model slot
};

}  // namespace sotto::nlu
