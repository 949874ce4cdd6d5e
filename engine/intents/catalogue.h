// SPDX-License-Identifier: MIT
// The intent catalogue (config/intents.xml): intents, their slots and phrasings, compiled for the matcher and
// exportable as a JSGF command grammar for the recognizer.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/intents/normalize.h"
#include "sotto/hal/result.h"

namespace sotto::intents {

// Where an installed system keeps the catalogue (cmake --install puts config/intents.xml there).
inline constexpr const char* kDefaultCataloguePath = "/etc/sotto/intents.xml";
// A catalogue is a few tens of KiB; anything much larger is a mistake.
inline constexpr std::size_t kMaxCatalogueBytes = 1024 * 1024;

// How a slot's words are read, and how its value is printed.
enum class SlotType : std::uint8_t {
  duration,     // "an hour and a half" -> integer seconds
  time,         // "quarter to seven pm" -> "HH:MM"
  day,          // today / tomorrow / monday..sunday
  forecastDay,  // day, plus "weekend"                 (XML: forecast-day)
  level,        // integer 0-10 ("max" = 10)
  number,       // any number, signed, "a" = 1
  unit,         // a unit code (units.h)
  label,        // one or two free words naming a thing (a timer's name)
  place,        // one to three free words naming a place
  expression,   // spoken arithmetic -> canonical expression
  result,       // derived: the value of the expression slot named by source=
};
inline constexpr int kSlotTypeCount = 11;
std::string_view slotTypeName(SlotType t) noexcept;

struct SlotSpec {
  std::string name;
  SlotType type = SlotType::label;
  bool required = false;
  int source = -1;  // result slots: index of the expression slot in the same intent
};

// Whether an intent changes the device's state when no changes-state attribute says: a name ending in ".query"
// only reads; anything else (timers, alarms, volume, privacy mode, stopping what plays or rings, a team's new
// intent) changes state, the safe default for asking again. Any thread.
inline bool changesStateByDefault(std::string_view intentName) noexcept { return !intentName.ends_with(".query"); }

struct IntentSpec {
  std::string name;
  std::vector<SlotSpec> slots;
  std::vector<std::string> phrases;  // as written in the catalogue
  int line = 0;
  // Its handler changes the device's state rather than only answering (<intent changes-state=...>, default
  // changesStateByDefault): such a command is never executed on an unsure reading (asr.clarify-below).
  bool changesState = true;
  // <intent clarify-below=...>: a reading of this intent below this confidence is asked again even where
  // asr.clarify-below is lower (a command that is worse to mishear, e.g. leaving private mode); 0 = the global one.
  double clarifyBelow = 0.0;
};

// Whether a spoken request is asked again ("Sorry, could you say that again?") instead of acted on (issue 20), as
// the brain and `sotto listen` both decide it. `spec` is the intent read (null: no command), `confidence` the
// reading's, `clarifyBelow` asr.clarify-below (0: never ask again). Asked again:
// - a state-changing command read with less than clarifyBelow (or its own, higher, clarify-below);
// - a state-changing command whose turn did not end in silence (`unfinishedTurn`: it ran to the length limit or
//   the audio's end, so the words include whatever the endpointer took for speech after it: in noise, junk that
//   reads as "stop" or "volume up");
// - with `spokenRequests`, an unsure reading of no command.
// Queries go on: their answer speaks what was assumed. Any thread.
inline bool asksAgain(const IntentSpec* spec, double confidence, double clarifyBelow, bool spokenRequests,
                      bool unfinishedTurn) noexcept {
  if (clarifyBelow <= 0.0) return false;
  if (spec != nullptr && spec->changesState && unfinishedTurn) return true;
  const double below = spec != nullptr && spec->clarifyBelow > clarifyBelow ? spec->clarifyBelow : clarifyBelow;
  if (confidence >= below) return false;
  return spec != nullptr ? spec->changesState : spokenRequests;
}

// One flattened phrasing (alternatives and optional parts expanded), ready for alignment.
struct PatternElement {
  bool isSlot = false;
  int word = -1;        // literal: vocabulary class id
  bool small = false;   // literal: a function word that recognizers drop or mishear
  SlotType type = SlotType::label;
  int slot = -1;        // slot: index in the intent's slots, -1 for an anonymous placeholder {:type}
};

struct Pattern {
  int intent = 0;
  int line = 0;  // the <phrase> it came from
  std::vector<PatternElement> elements;
  std::vector<int> contentWords;  // non-small literal classes (prefilter)
};

// Threads: build on any thread at start-up; afterwards read-only, shared by any number of readers.
class Catalogue {
 public:
  // Reads and validates a file. On failure the error message holds one "file:line: problem" line per problem.
  // Blocks on file I/O.
  static Result<Catalogue> loadFile(const std::string& path);
  // Same for XML text; nameForMessages is the "file" of each problem line.
  static Result<Catalogue> parse(std::string_view xml, std::string_view nameForMessages);

  const std::vector<IntentSpec>& intents() const noexcept { return intents_; }
  const std::vector<Pattern>& patterns() const noexcept { return patterns_; }
  int intentIndex(std::string_view name) const noexcept;  // -1 when absent

  // Vocabulary: every literal word (classes are indices into it) plus number and unit words, for the
  // normalizer's re-joining of split words.
  const WordSet& vocabulary() const noexcept { return vocabulary_; }
  // The class id of a token as the patterns compare it: homophones share a class ("two", "too" -> "to"); -1 for
  // words no pattern uses. No allocation.
  int wordClass(std::string_view token) const noexcept;
  bool isSmallClass(int cls) const noexcept;

  // Utterance openings that always mean an open request (knowledge questions, advice): "how do i".
  const std::vector<std::vector<std::string>>& rejectPrefixes() const noexcept { return rejects_; }
  double minConfidence() const noexcept { return minConfidence_; }

  // JSGF V1.0 grammar of every phrasing ("grammar sotto.intents;", one public rule <command>, one rule per
  // intent, one per slot type). Open slot types list the catalogue's <lexicon> words.
  std::string grammar() const;

 private:
  friend class CatalogueBuilder;
  std::vector<IntentSpec> intents_;
  std::vector<Pattern> patterns_;
  WordSet vocabulary_;
  std::vector<std::uint8_t> smallClass_;  // per vocabulary index
  std::vector<std::vector<std::string>> rejects_;
  std::vector<std::vector<std::string>> lexicons_;  // per SlotType, words for the grammar
  double minConfidence_ = 0.5;
};

// The homophone-canonical spelling of a token ("two" -> "to", "whether" -> "weather"); the token itself when it
// has none. Any thread.
std::string_view canonicalHomophone(std::string_view token) noexcept;

}  // namespace sotto::intents
