// SPDX-License-Identifier: MIT
// Slot values: reading a token span as a slot of a catalogue type (the matcher's alignment and the trained
// tagger's spans both end here, so a value reads the same whichever found it).
#pragma once

#include <span>
#include <string_view>

#include "engine/intents/catalogue.h"
#include "engine/intents/matcher.h"

namespace sotto::intents {

// Reads normalized tokens as a slot of `type`; writes the reported value into *out when out is not null. False
// when the words are not such a value (a label of number words, a time of 25:00, an expression that divides by
// zero; `result` slots are derived, never read). Any thread; no allocation.
bool parseSlotValue(SlotType type, std::span<const std::string_view> tokens, SlotValue* out) noexcept;

// Lowercase ASCII letters only, at least one.
bool alphabeticWord(std::string_view w) noexcept;

void setSlotText(SlotValue& v, std::string_view s) noexcept;
void setSlotJoined(SlotValue& v, std::span<const std::string_view> words) noexcept;
void setSlotNumber(SlotValue& v, double x) noexcept;

}  // namespace sotto::intents
