// SPDX-License-Identifier: MIT
// Internal: the personal-data model's word features and its spans, over one tokenized utterance and the rule
// recognizers' candidates (shared by classify() and the trainer, so both see the same features).
#pragma once

#include <cstddef>
#include <cstdint>

#include "engine/nlu/features.h"
#include "engine/privacy/pii_model.h"
#include "engine/privacy/pii_text.h"

namespace sotto::privacy::detail {

// Per word, a bit per type: a rule candidate begins there / covers it.
struct CandidateMarks {
  std::uint32_t begin[PiiClassifier::kMaxTokens];
  std::uint32_t inside[PiiClassifier::kMaxTokens];
};
void markCandidates(const Candidates& c, std::size_t words, CandidateMarks& marks) noexcept;

// Hashed features of word i (reset `out` to the layer's row mask first). No allocation.
void piiWordFeatures(const Utterance& u, const CandidateMarks& marks, std::size_t i, nlu::FeatureList& out) noexcept;

// Adds the model's spans as candidates of priority prio::model (below every rule: a rule's span keeps its
// boundaries where both found something). A word joins a span of the type whose begin + inside probability is
// highest when that reaches the type's span threshold. Writes per word the types whose probability reached their
// suspect threshold (bit per type) into suspects[0, u.n), and those that reached their span threshold and 0.5
// into sure[0, u.n). A cue-based rule's candidate takes another type where the model is sure of it. No allocation;
// about 24 KiB of stack.
void addModelCandidates(const PiiModel& model, const Utterance& u, const CandidateMarks& marks, Candidates& c,
                        std::uint16_t* suspects, std::uint16_t* sure) noexcept;

// One spoken number is one value: touching spans [s0, s1) of different types (st) inside a run of number words
// ("[two] PIN [four two four five] ACCOUNT is my pin") become one span of the type whose per-word probabilities
// q (for the first qWords words) sum highest over it. Returns the new span count. No allocation.
std::size_t joinNumberRuns(const Utterance& u, const float (*q)[kPiiTypeCount], std::size_t qWords, std::uint16_t* s0,
                           std::uint16_t* s1, std::int8_t* st, std::size_t spans) noexcept;
// True when words [t0, t1) name a value a rule found (among the first `rules` candidates of c) instead of being
// one: "my [sin] is 673-833-117", "my [westpac] savings account is ...", "my driving [licence] number is ...".
bool namesARuleValue(const Utterance& u, const Candidates& c, std::size_t rules, std::size_t t0,
                     std::size_t t1) noexcept;
// True when the value starting at word t0 numbers a thing, not a person's account: "my order [4471-2290]", "the
// ticket number is [55018832]", "the meeting id is [884 2291 4471]". Account and phone spans there, the rules' or
// the model's, are dropped (an exact format, such as a card's checksum, still stands).
bool numbersAThing(const Utterance& u, std::size_t t0) noexcept;
// Settles the number types among all candidates (rules' and model's) before overlaps are resolved: drops account
// and phone values that number a thing, and the model's number-type spans without a digit or number word; retypes
// phone <-> account by the nearest cue. Checksummed formats (priority exact and above) are left alone.
void settleNumberTypes(const Utterance& u, Candidates& c) noexcept;
// Shapes the model's spans in place: each grows into neighbouring words of its type (never across field
// punctuation), takes all of a spoken number it starts or ends inside, sheds punctuation at its ends, and a name
// sheds numbers and ends at its possessive. A span may end up empty (s0 == s1): the caller skips it.
void shapeModelSpans(const Utterance& u, const float (*q)[kPiiTypeCount], std::size_t qWords, std::uint16_t* s0,
                     std::uint16_t* s1, const std::int8_t* st, std::size_t spans) noexcept;

namespace prio {
inline constexpr int model = 10;
inline constexpr int exact = 85;  // SSN and above (checksums, e-mail, IP): never retyped
}

}  // namespace sotto::privacy::detail
