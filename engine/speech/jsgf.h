// SPDX-License-Identifier: MIT
// Prunes a JSGF grammar to what the recognizer's dictionary can say, for pocketsphinx's FSG search, and reduces the
// FSG built from it.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "sotto/hal/result.h"

namespace sotto::speech {

// pocketsphinx refuses a grammar with a word missing from its dictionary, and a <VOID> alternative voids its whole
// rule (not just the alternative). This rewrites `jsgf` (JSGF V1.0: header, "grammar NAME;", imports,
// [public] <rule> = expansion;) so that every word satisfies `known`: a sequence holding an unknown word is dropped
// from its alternatives, an optional [ ] or a repetition * around nothing sayable disappears, a rule with nothing
// sayable left is removed together with the alternatives that reference it. Tags and weights are kept. Errors:
// malformed grammar, or no public rule left. Any thread; allocates.
Result<std::string> pruneGrammar(std::string_view jsgf, const std::function<bool(std::string_view)>& known);

// A finite-state grammar as pocketsphinx's FSG search reads it: each arc carries a word (or none: -1, a null
// transition) and its log-probability (pocketsphinx's scale, language weight applied).
struct FsgArc {
  int32_t from = 0, to = 0, word = -1, logp = 0;
  bool operator==(const FsgArc&) const = default;
};
struct FsgGraph {
  int32_t states = 0, start = 0, final = 0;
  std::vector<FsgArc> arcs;
};

// The same grammar with fewer states. States with the same future (the same words, with the same weights, to
// states that are themselves alike) are merged, then states reached the same way (from alike states, by the same
// words with the same weights); both again until nothing merges. Every word sequence keeps its paths' weights, so
// the FSG search's best path is unchanged, while its per-frame bookkeeping, which walks every state, shrinks: the
// catalogue's grammar goes from 2,089 states to about 600. Any thread; allocates.
FsgGraph reduceFsg(const FsgGraph& g);

}  // namespace sotto::speech
