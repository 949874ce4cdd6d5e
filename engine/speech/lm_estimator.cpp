// SPDX-License-Identifier: MIT
// Interpolated Witten-Bell trigram estimation and its ARPA text (lm_estimator.h has the formulas).
#include "engine/speech/lm_estimator.h"

#include <cmath>
#include <cstdio>

namespace sotto::speech {
namespace {

// "a b c" -> {"a", "b", "c"}: a context key's words.
std::vector<std::string> splitWords(const std::string& h) {
  std::vector<std::string> words;
  for (std::size_t at = 0;;) {
    const std::size_t sp = h.find(' ', at);
    words.push_back(h.substr(at, sp == std::string::npos ? std::string::npos : sp - at));
    if (sp == std::string::npos) break;
    at = sp + 1;
  }
  return words;
}

constexpr const char* kBos = "<s>";
constexpr const char* kEos = "</s>";

std::string join(const std::vector<std::string>& words, std::size_t from, std::size_t to) {
  std::string out;
  for (std::size_t i = from; i < to; ++i) {
    if (!out.empty()) out += ' ';
    out += words[i];
  }
  return out;
}

void line(std::string& out, double prob, const std::string& ngram, const double* backoff) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6f\t", prob > 0 ? std::log10(prob) : -99.0);
  out += buf;
  out += ngram;
  if (backoff != nullptr) {
    std::snprintf(buf, sizeof buf, "\t%.6f", std::log10(*backoff));
    out += buf;
  }
  out += '\n';
}

}  // namespace

Status TrigramEstimator::addSentence(const std::vector<std::string>& words) {
  for (const auto& w : words) {
    if (w.empty() || w.find_first_of(" \t\r\n") != std::string::npos || w == kBos || w == kEos) {
      return makeError(Errc::invalid_argument, "language model: bad word '" + w + "'");
    }
  }
  std::vector<std::string> s;
  s.reserve(words.size() + 2);
  s.emplace_back(kBos);
  s.insert(s.end(), words.begin(), words.end());
  s.emplace_back(kEos);
  for (std::size_t i = 1; i < s.size(); ++i) {
    // Every word after <s> is predicted under the empty, the one-word and (from the second on) two-word history.
    for (std::size_t order = 0; order <= 2 && order <= i; ++order) {
      Context& c = contexts_[join(s, i - order, i)];
      c.total += 1;
      c.next[s[i]] += 1;
    }
  }
  ++sentences_;
  return {};
}

std::size_t TrigramEstimator::vocabularySize() const noexcept {
  const auto it = contexts_.find("");
  return it == contexts_.end() ? 0 : it->second.next.size();
}

const TrigramEstimator::Context* TrigramEstimator::context(const Key& h) const {
  const auto it = contexts_.find(h);
  return it == contexts_.end() ? nullptr : &it->second;
}

double TrigramEstimator::backoffWeight(const Key& h) const {
  const Context* c = context(h);
  if (c == nullptr) return 1.0;
  const double t = static_cast<double>(c->next.size());
  return t / (c->total + t);
}

double TrigramEstimator::probability(std::string_view w, const std::vector<std::string>& history) const {
  const std::string word(w);
  const Context* uni = context("");
  if (uni == nullptr || word == kBos) return 0.0;
  // (c(w) + T * 1/|V|) / (N + T) with |V| = T: the vocabulary is the words seen, each at least once.
  const auto seen0 = uni->next.find(word);
  if (seen0 == uni->next.end()) return 0.0;  // not in the vocabulary: the recognizer cannot say it
  double p = (seen0->second + 1.0) / (uni->total + static_cast<double>(uni->next.size()));
  const std::size_t from = history.size() > 2 ? history.size() - 2 : 0;
  for (std::size_t order = 1; order <= history.size() - from; ++order) {
    const std::string h = join(history, history.size() - order, history.size());
    const Context* c = context(h);
    if (c == nullptr) continue;  // never a context: the file backs off with weight 1
    const double t = static_cast<double>(c->next.size());
    const auto seen = c->next.find(word);
    p = ((seen == c->next.end() ? 0.0 : seen->second) + t * p) / (c->total + t);
  }
  return p;
}

Result<std::string> TrigramEstimator::arpa(unsigned minCount) const {
  const Context* uni = context("");
  if (uni == nullptr || sentences_ == 0) return makeError(Errc::invalid_argument, "language model: no sentences");
  // Pruning applies to bigrams and trigrams alike: a kept trigram's bigram prefix was seen at least as often.
  auto kept = [minCount](double n) { return n >= minCount; };
  std::size_t counts[3] = {uni->next.size() + 1, 0, 0};  // + <s>
  for (const auto& [h, c] : contexts_) {
    if (h.empty()) continue;
    const bool trigram = h.find(' ') != std::string::npos;
    for (const auto& [w, n] : c.next) counts[trigram ? 2 : 1] += kept(n) ? 1 : 0;
  }
  // A context whose rarer successors are left out backs off for them: its weight is what the kept n-grams leave of
  // the mass, over what the kept words take of the shorter context's distribution, so every P(. | h) still sums
  // to one.
  auto backoff = [&](const std::string& h) {
    const Context* c = context(h);
    if (c == nullptr || minCount <= 1) return backoffWeight(h);
    const std::vector<std::string> hist = splitWords(h);
    const std::vector<std::string> shorter(hist.begin() + 1, hist.end());
    double keptHigh = 0, keptLow = 0;
    for (const auto& [w, n] : c->next) {
      if (!kept(n)) continue;
      keptHigh += probability(w, hist);
      keptLow += probability(w, shorter);
    }
    return keptLow < 1.0 ? (1.0 - keptHigh) / (1.0 - keptLow) : backoffWeight(h);
  };
  std::string out = "\\data\\\n";
  for (int n = 0; n < 3; ++n) out += "ngram " + std::to_string(n + 1) + "=" + std::to_string(counts[n]) + "\n";
  out += "\n\\1-grams:\n";
  {
    const double bo = backoff(kBos);
    line(out, 0.0, kBos, &bo);  // never predicted: log10 0 is written as -99
  }
  for (const auto& [w, n] : uni->next) {
    const double bo = backoff(w);
    line(out, probability(w, {}), w, context(w) != nullptr ? &bo : nullptr);
  }
  for (int order = 1; order <= 2; ++order) {
    out += "\n\\" + std::to_string(order + 1) + "-grams:\n";
    for (const auto& [h, c] : contexts_) {
      if (h.empty() || (h.find(' ') == std::string::npos) != (order == 1)) continue;
      const std::vector<std::string> hist = splitWords(h);
      for (const auto& [w, n] : c.next) {
        if (!kept(n)) continue;
        const std::string ngram = h + " " + w;
        const double bo = backoff(ngram);
        line(out, probability(w, hist), ngram, order == 1 && context(ngram) != nullptr ? &bo : nullptr);
      }
    }
  }
  out += "\n\\end\\\n";
  return out;
}

}  // namespace sotto::speech
