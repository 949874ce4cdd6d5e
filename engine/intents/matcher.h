// SPDX-License-Identifier: MIT
// The deterministic intent matcher: aligns a normalized utterance with the catalogue's phrasings (token edit
// distance with typed slot spans) and returns the best intent, its slots and a confidence in [0, 1].
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/intents/catalogue.h"
#include "engine/intents/normalize.h"

namespace sotto::intents {

struct SlotValue {
  enum class Kind : std::uint8_t { integer, number, text };
  static constexpr std::size_t kTextCapacity = 128;
  Kind kind = Kind::text;
  double number = 0.0;             // integer and number kinds
  char text[kTextCapacity] = {};   // text kind, NUL-terminated
  std::size_t length = 0;
  std::string_view view() const noexcept { return {text, length}; }
};

struct FilledSlot {
  std::string_view name;  // views the catalogue
  SlotValue value;
};

// One match result, in fixed storage: the caller keeps one and reuses it (no allocation per utterance).
struct IntentMatch {
  static constexpr std::size_t kMaxSlots = 4;
  int intent = -1;                // index into Catalogue::intents(), -1 = none
  std::string_view name = "none";  // views the catalogue (or a static "none")
  double confidence = 0.0;        // of the intent; for "none", how sure no phrasing applies
  std::array<FilledSlot, kMaxSlots> slots{};
  std::size_t slotCount = 0;
  // What decided: "rules" (a catalogue phrasing aligned) or "model" (the trained classifier and tagger, when no
  // phrasing did). Static strings.
  std::string_view source = "rules";
  bool openRequest = false;       // a <reject> opening matched: an open request, whatever a model thinks
  int pattern = -1;               // index of the winning pattern (diagnostics)
  double cost = 0.0;              // its alignment cost (diagnostics)

  const FilledSlot* slot(std::string_view slotName) const noexcept;
};

// Scratch memory for one match at a time (about 20 KiB): normalized tokens, alignment tables, slot cache.
// Threads: owned by one thread; each matching thread has its own.
class MatchWorkspace {
 public:
  static constexpr std::size_t kMaxElements = 24;
  static constexpr std::size_t kMaxTokens = Utterance::kMaxTokens;
  static constexpr std::size_t kMaxSpan = 16;

 private:
  friend class Matcher;
  struct Step {
    std::uint8_t i = 0, j = 0;
    std::uint8_t kind = 0;  // 0 start, 1 insert, 2 delete, 3 literal, 4 slot
  };
  Utterance utterance_;
  std::array<int, kMaxTokens> classes_{};
  std::array<std::uint16_t, kMaxTokens> slotMask_{};  // slot types that could cover each token (bit per SlotType)
  std::array<std::array<float, kMaxTokens + 1>, kMaxElements + 1> cost_{};
  std::array<std::array<Step, kMaxTokens + 1>, kMaxElements + 1> back_{};
  // Slot parse cache per (type, start, length - 1): 0 unknown, 1 parses, 2 does not.
  std::array<std::array<std::array<std::uint8_t, kMaxSpan>, kMaxTokens>, kSlotTypeCount> slotCache_{};
};

// Threads: match() from any number of threads at once, each with its own workspace and result; the
// catalogue is read-only after construction. match() does not allocate, lock or block.
class Matcher {
 public:
  explicit Matcher(Catalogue catalogue);

  const Catalogue& catalogue() const noexcept { return catalogue_; }

  // Normalizes text into ws and writes the best intent (or "none") into out.
  void match(std::string_view text, MatchWorkspace& ws, IntentMatch& out) const noexcept;

  // The normalized tokens of the last match() with ws (diagnostics, tests).
  static const Utterance& lastUtterance(const MatchWorkspace& ws) noexcept { return ws.utterance_; }

 private:
  float align(const Pattern& p, MatchWorkspace& ws, std::size_t n, float bound) const noexcept;
  bool slotParses(SlotType type, MatchWorkspace& ws, std::size_t start, std::size_t len) const noexcept;
  float literalCost(const PatternElement& e, const MatchWorkspace& ws, std::size_t j) const noexcept;
  bool isDeterminer(int cls) const noexcept;
  bool fill(const Pattern& p, MatchWorkspace& ws, std::size_t n, IntentMatch& out) const noexcept;

  // Per pattern, for the prefilter: the literal classes as a bitset, and what its slots can cover.
  struct PatternInfo {
    std::size_t slotRoom = 0;        // tokens the slots can cover at most
    std::uint16_t slotTypes = 0;     // bit per SlotType
  };
  Catalogue catalogue_;
  std::vector<PatternInfo> info_;
  std::vector<std::uint64_t> literalBits_;  // patterns x bitWords_
  std::size_t bitWords_ = 0;
  std::array<int, 8> determiners_{};  // classes of a, the, my, this, that, your, some, its
};

// After the slots a phrasing or a tagger read: adds the derived slots (an expression's result) and puts the slots in
// declaration order. False when a derived value cannot be computed (the match must then be dropped). No allocation.
bool completeSlots(const IntentSpec& spec, IntentMatch& out) noexcept;

// Writes one match as the CLI's JSON line (without newline): {"text":...,"intent":...,"slots":{...},
// "confidence":...,"source":...}. Allocates (std::string); for the CLI and tools, not the hot path.
std::string toJson(std::string_view text, const IntentMatch& m);

}  // namespace sotto::intents
