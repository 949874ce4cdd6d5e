// SPDX-License-Identifier: MIT
// Hashed feature extraction for the trained understanding models.
#include "engine/nlu/features.h"

#include <algorithm>
#include <cmath>

namespace sotto::nlu {
namespace {

enum Kind : std::uint8_t {
  kBias = 1,
  kWord,
  kPair,
  kChar3,
  kChar4,
  kLength,
  kFirst,
  kLast,
  kShape,
  kTokWord,
  kTokPrev,
  kTokNext,
  kTokPrev2,
  kTokNext2,
  kTokPairL,
  kTokPairR,
  kTokPrefix,
  kTokSuffix,
  kTokShape,
  kTokIntent,
  kTokIntentWord,
  kTokIntentPrev,
  kTokIntentNext,
  kTokPosition,
  kTokIntentShape,
};

constexpr std::string_view kStart = "<s>";
constexpr std::string_view kEnd = "</s>";

// Digits collapse to one shape ("7:45" -> "d:d", "2026" -> "d"): the value is the parser's business.
std::string_view shapeOf(std::string_view w, char (&buf)[16]) noexcept {
  std::size_t n = 0;
  char last = 0;
  for (char ch : w) {
    char s = (ch >= '0' && ch <= '9') ? 'd' : (ch >= 'a' && ch <= 'z') ? 'a' : ch;
    if (s == last && (s == 'd' || s == 'a')) continue;
    if (n == sizeof buf) break;
    buf[n++] = s;
    last = s;
  }
  return {buf, n};
}

bool hasDigit(std::string_view w) noexcept {
  return std::any_of(w.begin(), w.end(), [](char c) { return c >= '0' && c <= '9'; });
}

}  // namespace

void FeatureList::normalize() noexcept {
  double sum = 0.0;
  for (std::size_t i = 0; i < n_; ++i) sum += static_cast<double>(items_[i].value) * items_[i].value;
  if (sum <= 0.0) return;
  const float k = static_cast<float>(1.0 / std::sqrt(sum));
  for (std::size_t i = 0; i < n_; ++i) items_[i].value *= k;
}

std::uint32_t featureHash(std::uint8_t kind, std::string_view a, std::string_view b, std::string_view c) noexcept {
  std::uint32_t h = 2166136261u;
  auto mix = [&h](unsigned char x) {
    h ^= x;
    h *= 16777619u;
  };
  mix(kind);
  for (char ch : a) mix(static_cast<unsigned char>(ch));
  mix(0x1f);
  for (char ch : b) mix(static_cast<unsigned char>(ch));
  mix(0x1e);
  for (char ch : c) mix(static_cast<unsigned char>(ch));
  // Final avalanche: the low bits index the rows.
  h ^= h >> 16;
  h *= 0x7feb352du;
  h ^= h >> 15;
  return h;
}

void sentenceFeatures(std::span<const std::string_view> words, FeatureList& out) noexcept {
  out.add(featureHash(kBias, {}), 1.0f);
  const std::size_t n = words.size();
  char shape[16];
  for (std::size_t i = 0; i < n; ++i) {
    const std::string_view w = words[i];
    const bool digits = hasDigit(w);
    out.add(featureHash(kWord, digits ? shapeOf(w, shape) : w), 1.0f);
    const std::string_view prev = i == 0 ? kStart : (hasDigit(words[i - 1]) ? std::string_view("#") : words[i - 1]);
    out.add(featureHash(kPair, prev, digits ? std::string_view("#") : w), 0.8f);
    if (digits) continue;
    // Character n-grams of "^word$": a word the training never saw still shares pieces with one it did.
    char padded[40];
    const std::size_t len = std::min<std::size_t>(w.size(), sizeof padded - 2);
    padded[0] = '^';
    for (std::size_t k = 0; k < len; ++k) padded[k + 1] = w[k];
    padded[len + 1] = '$';
    const std::string_view p(padded, len + 2);
    if (p.size() > 4) {
      for (std::size_t k = 0; k + 3 <= p.size(); ++k) out.add(featureHash(kChar3, p.substr(k, 3)), 0.25f);
      for (std::size_t k = 0; k + 4 <= p.size(); ++k) out.add(featureHash(kChar4, p.substr(k, 4)), 0.25f);
    }
  }
  if (n > 0) {
    const std::string_view last = hasDigit(words[n - 1]) ? std::string_view("#") : words[n - 1];
    out.add(featureHash(kPair, last, kEnd), 0.8f);
    out.add(featureHash(kFirst, hasDigit(words[0]) ? std::string_view("#") : words[0]), 0.8f);
    out.add(featureHash(kLast, last), 0.5f);
  }
  const char lengthBucket[2] = {static_cast<char>('0' + std::min<std::size_t>(n, 12) / 2), 0};
  out.add(featureHash(kLength, std::string_view(lengthBucket, 1)), 0.5f);
  out.normalize();
}

void tokenFeatures(std::span<const std::string_view> words, std::size_t i, std::string_view intentTag,
                   FeatureList& out) noexcept {
  const std::size_t n = words.size();
  auto at = [&](std::ptrdiff_t k) -> std::string_view {
    if (k < 0) return kStart;
    if (k >= static_cast<std::ptrdiff_t>(n)) return kEnd;
    return words[static_cast<std::size_t>(k)];
  };
  const auto si = static_cast<std::ptrdiff_t>(i);
  const std::string_view w = words[i];
  char shape[16];
  const std::string_view sh = shapeOf(w, shape);
  out.add(featureHash(kBias, {}), 1.0f);
  out.add(featureHash(kTokWord, w), 1.0f);
  out.add(featureHash(kTokShape, sh), 1.0f);
  out.add(featureHash(kTokPrev, at(si - 1)), 1.0f);
  out.add(featureHash(kTokNext, at(si + 1)), 1.0f);
  out.add(featureHash(kTokPrev2, at(si - 2)), 0.5f);
  out.add(featureHash(kTokNext2, at(si + 2)), 0.5f);
  out.add(featureHash(kTokPairL, at(si - 1), w), 1.0f);
  out.add(featureHash(kTokPairR, w, at(si + 1)), 1.0f);
  out.add(featureHash(kTokPrefix, w.substr(0, 3)), 0.5f);
  out.add(featureHash(kTokSuffix, w.size() > 3 ? w.substr(w.size() - 3) : w), 0.5f);
  const char pos[2] = {i == 0 ? 'f' : (i + 1 == n ? 'l' : 'm'), 0};
  out.add(featureHash(kTokPosition, std::string_view(pos, 1)), 0.5f);
  out.add(featureHash(kTokIntent, intentTag), 1.0f);
  out.add(featureHash(kTokIntentWord, intentTag, w), 1.0f);
  out.add(featureHash(kTokIntentPrev, intentTag, at(si - 1)), 1.0f);
  out.add(featureHash(kTokIntentNext, intentTag, at(si + 1)), 1.0f);
  out.add(featureHash(kTokIntentShape, intentTag, sh), 0.5f);
}

}  // namespace sotto::nlu
