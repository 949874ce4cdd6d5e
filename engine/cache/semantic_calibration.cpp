// SPDX-License-Identifier: MIT
// Semantic-tier calibration against the embedder's own similarity of unrelated and paraphrased requests.
#include "engine/cache/semantic_calibration.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <vector>

#include "engine/cache/prompt_features.h"

namespace sotto::cache {

namespace {

// Requests about clearly different things, as a speaker hears them: every pair of them is an unrelated pair.
constexpr const char* kUnrelated[] = {
    "what is the capital of france",     "how do i boil an egg",
    "cancel the timer",                  "why is the sky blue",
    "who wrote romeo and juliet",        "what is the weather like tomorrow",
    "how far away is the moon",          "play some jazz music",
    "how many legs does a spider have",  "when did the second world war end",
    "turn off the kitchen lights",       "what should i cook for dinner tonight",
};

// Paraphrases of some of them with the same content words (what the semantic tier is for): index, paraphrase.
struct Paraphrase {
  std::size_t of;
  const char* text;
};
constexpr Paraphrase kRelated[] = {
    {0, "tell me the capital of france"},
    {1, "how should i boil eggs"},
    {3, "tell me why the sky is blue"},
    {4, "do you know who wrote romeo and juliet"},
    {5, "what will the weather be like tomorrow"},
    {6, "tell me how far away the moon is"},
    {8, "how many legs do spiders have"},
    {9, "i was wondering when the second world war ended"},
};

float dot(const std::vector<float>& a, const std::vector<float>& b) {
  double d = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) d += static_cast<double>(a[i]) * b[i];
  return static_cast<float>(d);
}

// The canonical text's unit embedding; false (with why) when the embedder fails or returns a zero vector.
bool embedUnit(Embedder& e, const char* prompt, PromptFeatures& scratch, std::vector<float>& out, std::string& why) {
  analyzePrompt(prompt, scratch);
  out.assign(e.dimension(), 0.0f);
  if (const Status s = e.embed(scratch.text(), out); !s.ok()) {
    why = "the embedder failed: " + s.error().message;
    return false;
  }
  double n = 0.0;
  for (const float v : out) n += static_cast<double>(v) * v;
  if (!(n > 0.0) || !std::isfinite(n)) {
    why = "the embedder returned a zero or non-finite vector";
    return false;
  }
  const float inv = static_cast<float>(1.0 / std::sqrt(n));
  for (float& v : out) v *= inv;
  return true;
}

}  // namespace

std::string SemanticCalibration::summary() const {
  char buf[320];
  std::snprintf(buf, sizeof buf,
                "unrelated pairs p95 %.3f (max %.3f, %zu pairs), paraphrases median %.3f (min %.3f, %zu pairs); "
                "threshold %.3f (configured %.3f); %s in %.0f ms",
                unrelatedP95, unrelatedMax, unrelatedPairs, relatedMedian, relatedMin, relatedPairs, threshold,
                configuredThreshold, remembered ? "remembered from the state directory, measured" : "measured",
                elapsedMs);
  return usable ? std::string(buf) : reason + "; " + buf;
}

namespace {

SemanticCalibration measure(Embedder& embedder, float configuredThreshold) {
  SemanticCalibration c;
  c.ran = true;
  c.configuredThreshold = configuredThreshold;
  c.threshold = configuredThreshold;
  auto scratch = std::make_unique<PromptFeatures>();
  constexpr std::size_t kCount = std::size(kUnrelated);
  std::vector<std::vector<float>> base(kCount);
  std::string why;
  for (std::size_t i = 0; i < kCount; ++i) {
    if (!embedUnit(embedder, kUnrelated[i], *scratch, base[i], why)) {
      c.usable = false;
      c.reason = why;
      return c;
    }
  }
  std::vector<float> unrelated;
  for (std::size_t i = 0; i < kCount; ++i) {
    for (std::size_t j = i + 1; j < kCount; ++j) unrelated.push_back(dot(base[i], base[j]));
  }
  std::vector<float> related;
  std::vector<float> e;
  for (const Paraphrase& p : kRelated) {
    if (!embedUnit(embedder, p.text, *scratch, e, why)) {
      c.usable = false;
      c.reason = why;
      return c;
    }
    related.push_back(dot(base[p.of], e));
  }
  std::sort(unrelated.begin(), unrelated.end());
  std::sort(related.begin(), related.end());
  c.unrelatedPairs = unrelated.size();
  c.relatedPairs = related.size();
  // Nearest-rank percentile: the smallest value at or above 95 % of the pairs.
  const std::size_t rank = (unrelated.size() * 95 + 99) / 100;
  c.unrelatedP95 = unrelated[rank - 1];
  c.unrelatedMax = unrelated.back();
  c.relatedMin = related.front();
  const std::size_t mid = related.size() / 2;
  c.relatedMedian = related.size() % 2 ? related[mid] : 0.5f * (related[mid - 1] + related[mid]);
  const float wanted = c.unrelatedP95 + kCalibrationMargin;
  c.threshold = std::max(configuredThreshold, wanted);
  char buf[200];
  if (wanted > kMaxUsableThreshold) {
    c.usable = false;
    std::snprintf(buf, sizeof buf,
                  "the model cannot tell unrelated requests apart: they score %.3f alike (95th percentile), above "
                  "the highest usable threshold %.2f",
                  c.unrelatedP95, kMaxUsableThreshold);
    c.reason = buf;
  } else if (c.relatedMedian < c.threshold) {
    c.usable = false;
    std::snprintf(buf, sizeof buf,
                  "the model does not recognise paraphrases: they score %.3f (median), below the threshold %.3f "
                  "that unrelated requests need",
                  c.relatedMedian, c.threshold);
    c.reason = buf;
  }
  return c;
}

}  // namespace

SemanticCalibration calibrateSemantic(Embedder& embedder, float configuredThreshold) {
  const auto t0 = std::chrono::steady_clock::now();
  SemanticCalibration c = measure(embedder, configuredThreshold);
  c.elapsedMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return c;
}

namespace {

constexpr std::string_view kMagic = "sotto-semantic-calibration-1";

// The prompt sets and the constants the decision depends on.
std::uint64_t setsFingerprint() noexcept {
  std::uint64_t h = fnv1a64("sets");
  for (const char* p : kUnrelated) h = fnv1a64(p, h ^ 1);
  for (const Paraphrase& p : kRelated) h = fnv1a64(p.text, h ^ (p.of + 2));
  char buf[64];
  const int n = std::snprintf(buf, sizeof buf, "%.6f %.6f", static_cast<double>(kCalibrationMargin),
                              static_cast<double>(kMaxUsableThreshold));
  return fnv1a64(std::string_view(buf, static_cast<std::size_t>(n)), h);
}

// Reads the next space-separated field of a line into v; false when absent or malformed.
template <typename T>
bool field(std::string_view& line, T& v) {
  while (!line.empty() && line.front() == ' ') line.remove_prefix(1);
  const std::size_t end = std::min(line.find(' '), line.size());
  const auto r = std::from_chars(line.data(), line.data() + end, v);
  if (r.ec != std::errc() || r.ptr != line.data() + end) return false;
  line.remove_prefix(end);
  return true;
}

}  // namespace

std::string serializeCalibration(const SemanticCalibration& c, std::string_view modelKey) {
  if (!c.ran || c.unrelatedPairs == 0) return {};  // not measured (the embedder failed): measure again next time
  char buf[400];
  std::snprintf(buf, sizeof buf, "%.*s %llx %llx %.9g %d %.9g %.9g %.9g %.9g %.9g %zu %zu %.3f\n",
                static_cast<int>(kMagic.size()), kMagic.data(), static_cast<unsigned long long>(setsFingerprint()),
                static_cast<unsigned long long>(fnv1a64(modelKey)), static_cast<double>(c.configuredThreshold),
                c.usable ? 1 : 0, static_cast<double>(c.threshold), static_cast<double>(c.unrelatedP95),
                static_cast<double>(c.unrelatedMax), static_cast<double>(c.relatedMedian),
                static_cast<double>(c.relatedMin), c.unrelatedPairs, c.relatedPairs, c.elapsedMs);
  // The reason on its own line (it has spaces); no newline inside it by construction.
  return std::string(buf) + c.reason + "\n";
}

std::optional<SemanticCalibration> parseCalibration(std::string_view text, std::string_view modelKey,
                                                    float configuredThreshold) {
  const std::size_t nl = text.find('\n');
  if (nl == std::string_view::npos) return std::nullopt;
  std::string_view line = text.substr(0, nl);
  std::string_view reason = text.substr(nl + 1);
  if (!reason.empty() && reason.back() == '\n') reason.remove_suffix(1);
  if (line.substr(0, kMagic.size()) != kMagic || reason.find('\n') != std::string_view::npos)
    return std::nullopt;
  line.remove_prefix(kMagic.size());
  std::uint64_t sets = 0, model = 0;
  int usable = -1;
  SemanticCalibration c;
  // from_chars parses hex only with the base argument: read the two hashes by hand.
  auto hex = [&line](std::uint64_t& v) {
    while (!line.empty() && line.front() == ' ') line.remove_prefix(1);
    const std::size_t end = std::min(line.find(' '), line.size());
    const auto r = std::from_chars(line.data(), line.data() + end, v, 16);
    if (r.ec != std::errc() || r.ptr != line.data() + end) return false;
    line.remove_prefix(end);
    return true;
  };
  if (!hex(sets) || !hex(model) || !field(line, c.configuredThreshold) || !field(line, usable) ||
      !field(line, c.threshold) || !field(line, c.unrelatedP95) || !field(line, c.unrelatedMax) ||
      !field(line, c.relatedMedian) || !field(line, c.relatedMin) || !field(line, c.unrelatedPairs) ||
      !field(line, c.relatedPairs) || !field(line, c.elapsedMs) || !line.empty())
    return std::nullopt;
  if (sets != setsFingerprint() || model != fnv1a64(modelKey) || (usable != 0 && usable != 1)) return std::nullopt;
  if (c.configuredThreshold != configuredThreshold || c.unrelatedPairs == 0 || c.relatedPairs == 0 ||
      !(c.threshold >= configuredThreshold && c.threshold <= 1.5f))
    return std::nullopt;
  c.usable = usable == 1;
  if (c.usable != reason.empty()) return std::nullopt;  // off always says why
  c.reason = std::string(reason);
  c.ran = true;
  c.remembered = true;
  return c;
}

}  // namespace sotto::cache
