// SPDX-License-Identifier: MIT
// Word error rate: normalization and the dynamic-programming alignment.
#include "bench/speech/wer.h"

#include <cctype>

namespace sotto::bench {

std::vector<std::string> normalizeWords(std::string_view text) {
  std::vector<std::string> words;
  std::string cur;
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (std::isalnum(c) || c == '\'') {
      cur += static_cast<char>(std::tolower(c));
    } else if (!cur.empty()) {
      words.push_back(std::move(cur));
      cur.clear();
    }
  }
  if (!cur.empty()) words.push_back(std::move(cur));
  // A quote around a word ('hello') is not part of it; an apostrophe inside ("what's") is.
  std::vector<std::string> out;
  for (auto& w : words) {
    size_t b = 0, e = w.size();
    while (b < e && w[b] == '\'') ++b;
    while (e > b && w[e - 1] == '\'') --e;
    if (e > b) out.push_back(w.substr(b, e - b));
  }
  return out;
}

WordErrors& WordErrors::operator+=(const WordErrors& o) {
  substitutions += o.substitutions;
  deletions += o.deletions;
  insertions += o.insertions;
  referenceWords += o.referenceWords;
  return *this;
}

double WordErrors::rate() const {
  if (referenceWords == 0) return static_cast<double>(errors());
  return static_cast<double>(errors()) / static_cast<double>(referenceWords);
}

WordErrors wordErrors(const std::vector<std::string>& ref, const std::vector<std::string>& hyp) {
  // cost[i][j]: edits aligning ref[0..i) with hyp[0..j); ties broken towards more substitutions (fewer
  // insertion+deletion pairs), then the counts are read back along the chosen path.
  struct Cell {
    size_t cost = 0, subs = 0, dels = 0, ins = 0;
  };
  const size_t n = ref.size(), m = hyp.size();
  std::vector<Cell> prev(m + 1), cur(m + 1);
  for (size_t j = 0; j <= m; ++j) prev[j] = {j, 0, 0, j};
  for (size_t i = 1; i <= n; ++i) {
    cur[0] = {i, 0, i, 0};
    for (size_t j = 1; j <= m; ++j) {
      const bool same = ref[i - 1] == hyp[j - 1];
      Cell diag = prev[j - 1];
      diag.cost += same ? 0 : 1;
      diag.subs += same ? 0 : 1;
      Cell del = prev[j];
      del.cost += 1;
      del.dels += 1;
      Cell ins = cur[j - 1];
      ins.cost += 1;
      ins.ins += 1;
      Cell best = diag;
      // Prefer the diagonal on ties (a substitution over a deletion plus an insertion).
      if (del.cost < best.cost) best = del;
      if (ins.cost < best.cost) best = ins;
      cur[j] = best;
    }
    std::swap(prev, cur);
  }
  const Cell& end = prev[m];
  WordErrors e;
  e.substitutions = end.subs;
  e.deletions = end.dels;
  e.insertions = end.ins;
  e.referenceWords = n;
  return e;
}

}  // namespace sotto::bench
