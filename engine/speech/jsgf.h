// SPDX-License-Identifier: MIT
// Prunes a JSGF grammar to what the recognizer's dictionary can say, for pocketsphinx's FSG search.
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "sotto/hal/result.h"

namespace sotto::speech {

// pocketsphinx refuses a grammar with a word missing from its dictionary, and a <VOID> alternative voids its whole
// rule (not just the alternative). This rewrites `jsgf` (JSGF V1.0: header, "grammar NAME;", imports,
// [public] <rule> = expansion;) so that every word satisfies `known`: a sequence holding an unknown word is dropped
// from its alternatives, an optional [ ] or a repetition * around nothing sayable disappears, a rule with nothing
// sayable left is removed together with the alternatives that reference it. Tags and weights are kept. Errors:
// malformed grammar, or no public rule left. Any thread; allocates.
Result<std::string> pruneGrammar(std::string_view jsgf, const std::function<bool(std::string_view)>& known);

}  // namespace sotto::speech
