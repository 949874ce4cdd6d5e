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

 private:
  Understander() = default;
  const intents::Matcher* matcher_ = nullptr;
  const NluModel* model_ = nullptr;
  std::vector<int> catalogueIntent_;                // model intent -> catalogue intent (-1 for none)
  std::vector<std::vector<int>> slotOfIntent_;      // [model intent][model slot] -> slot in the intent, or -1
  std::vector<std::uint64_t> allowedSlots_;         // [model intent]: bit per model slot
};

}  // namespace sotto::nlu
