// SPDX-License-Identifier: MIT
// Internal to the intent handlers: reading slots and scanning the utterance for words the catalogue does not report.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/intents/matcher.h"

namespace sotto::intents::detail {

// Lowercase ASCII words of text (letters, digits and apostrophes; apostrophes dropped).
std::vector<std::string> lowerWords(std::string_view text);
// True when the words of phrase ("pasta", "sweet potato") occur consecutively in words.
bool containsPhrase(const std::vector<std::string>& words, std::string_view phrase);
// One word is the other plus "s" or "es".
bool pluralOf(std::string_view a, std::string_view b);
// Names match exactly, as singular/plural ("egg"/"eggs") or within one edit for names of four letters or more.
bool namesMatch(std::string_view a, std::string_view b);

std::optional<std::string> slotText(const IntentMatch& m, std::string_view name);
std::optional<double> slotNumber(const IntentMatch& m, std::string_view name);

}  // namespace sotto::intents::detail
