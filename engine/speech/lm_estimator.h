// SPDX-License-Identifier: MIT
// A trigram language model estimated from sentences, written in ARPA format for the recognizer (pocketsphinx reads
// it as a search of its own). Interpolated Witten-Bell smoothing: it needs no discount estimation, so it stays
// well defined on the small, repetitive corpora a command domain gives, and each probability is a short sum that
// can be checked by hand (tests/speech does).
//
//   P(w | h) = (c(h w) + T(h) P(w | h')) / (c(h) + T(h))      T(h): distinct words seen after h, h': h shortened
//   P(w)     = (c(w) + T P_uniform) / (N + T)                 over the vocabulary and </s>; never <s>
//
// In the file each seen n-gram carries its interpolated probability and each context its back-off weight
// T(h) / (c(h) + T(h)), so a reader that backs off computes exactly P(w | h) above.
//
// Threads: one thread at a time per estimator; not real-time (allocates freely). Trainer side only: the product
// reads the file through pocketsphinx.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "sotto/hal/result.h"

namespace sotto::speech {

class TrigramEstimator {
 public:
  // One sentence of words (lower case; <s> and </s> are added). Words with spaces or empty words are refused
  // (invalid_argument): the file format separates by white space.
  Status addSentence(const std::vector<std::string>& words);
  std::size_t sentences() const noexcept { return sentences_; }
  std::size_t vocabularySize() const noexcept;  // distinct words, </s> included, <s> not

  // P(w | h) for h of 0 to 2 words (most recent last), as the file encodes it.
  double probability(std::string_view w, const std::vector<std::string>& history) const;

  // The model as ARPA text: \data\ counts, then \1-grams: .. \3-grams: with log10 probabilities and back-off
  // weights, \end\. Errors: invalid_argument when no sentence was added.
  // minCount > 1 prunes: bigrams and trigrams seen fewer times are left out (most of a generated corpus's are
  // seen once) and their context's back-off weight is recomputed over the kept ones, so each conditional
  // distribution still sums to one; what is left out is predicted by the shorter context through the back-off.
  Result<std::string> arpa(unsigned minCount = 1) const;

 private:
  using Key = std::string;  // words joined by ' '
  struct Context {
    double total = 0;                 // c(h)
    std::map<std::string, double> next;  // c(h w)
  };
  const Context* context(const Key& h) const;
  double backoffWeight(const Key& h) const;  // T(h) / (c(h) + T(h)); 1 when h was never a context

  std::map<Key, Context> contexts_;  // "" (unigrams), "a" (bigrams after a), "a b" (trigrams after a b)
  std::size_t sentences_ = 0;
};

}  // namespace sotto::speech
