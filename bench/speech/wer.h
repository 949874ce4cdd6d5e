// SPDX-License-Identifier: MIT
// Word error rate for the ASR benchmark: text normalization and word-level Levenshtein alignment counts.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace sotto::bench {

// Lowercase words of `text`: letters, digits and apostrophes kept (so "what's" stays one word), everything else
// separates words. Any thread; allocates.
std::vector<std::string> normalizeWords(std::string_view text);

// Edit counts of a minimum-cost alignment of `hyp` against `ref` (each edit costs 1). Among alignments of equal
// cost the one with the most substitutions is reported (the usual sclite convention). Any thread; allocates
// O(|ref| * |hyp|).
struct WordErrors {
  size_t substitutions = 0, deletions = 0, insertions = 0;
  size_t referenceWords = 0;
  size_t errors() const { return substitutions + deletions + insertions; }
  WordErrors& operator+=(const WordErrors& o);
  // errors / reference words; with an empty reference: 0 when hyp is empty too, else 1 per inserted word.
  double rate() const;
};
WordErrors wordErrors(const std::vector<std::string>& ref, const std::vector<std::string>& hyp);
inline WordErrors wordErrors(std::string_view ref, std::string_view hyp) {
  return wordErrors(normalizeWords(ref), normalizeWords(hyp));
}

}  // namespace sotto::bench
