// SPDX-License-Identifier: MIT
// Helpers shared by the test_cache sources: a settable clock, a deterministic bag-of-words embedder, temp dirs.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <set>
#include <string>

#include "engine/cache/answer_cache.h"
#include "engine/privacy/pii.h"

namespace sotto::cache::test {

class FakeClock final : public Clock {
 public:
  std::int64_t nowMs() const noexcept override { return now; }
  void advanceSeconds(std::int64_t s) { now += s * 1000; }
  std::int64_t now = 1'700'000'000'000;  // a fixed wall-clock instant
};

// Hashes each word into one of 64 dimensions with a sign. Words in `blind` (and digits, if blindToNumbers) do not
// contribute, so two prompts that differ only in those words embed identically (cosine 1): then only the guards
// can tell them apart.
class BagEmbedder final : public Embedder {
 public:
  static constexpr std::size_t kDim = 64;
  std::set<std::string> blind;
  bool blindToNumbers = true;
  int calls = 0;

  std::size_t dimension() const noexcept override { return kDim; }
  Status embed(std::string_view text, std::span<float> out) override {
    ++calls;
    if (out.size() != kDim) return makeError(Errc::invalid_argument, "size");
    std::fill(out.begin(), out.end(), 0.0f);
    std::size_t start = 0;
    bool any = false;
    while (start < text.size()) {
      std::size_t end = text.find(' ', start);
      if (end == std::string_view::npos) end = text.size();
      const std::string_view w = text.substr(start, end - start);
      start = end + 1;
      const bool digit = !w.empty() && (w[0] >= '0' && w[0] <= '9');
      if (w.empty() || (blindToNumbers && digit) || blind.count(std::string(w))) continue;
      const std::uint64_t h = fnv1a64(w);
      out[h % kDim] += (h >> 32) & 1 ? 1.0f : -1.0f;
      any = true;
    }
    if (!any) out[0] = 1.0f;
    return {};
  }
};

// Every text lands within a hair of one direction (cosine above 0.99 for any two prompts), as an untrained model's
// embeddings do: only the guards (or calibration) can tell requests apart.
class SameDirectionEmbedder final : public Embedder {
 public:
  static constexpr std::size_t kDim = 32;
  int calls = 0;

  std::size_t dimension() const noexcept override { return kDim; }
  Status embed(std::string_view text, std::span<float> out) override {
    ++calls;
    if (out.size() != kDim) return makeError(Errc::invalid_argument, "size");
    std::fill(out.begin(), out.end(), 1.0f);
    std::size_t start = 0;
    while (start < text.size()) {
      std::size_t end = text.find(' ', start);
      if (end == std::string_view::npos) end = text.size();
      const std::uint64_t h = fnv1a64(text.substr(start, end - start));
      out[h % kDim] += (h >> 32) & 1 ? 0.02f : -0.02f;
      start = end + 1;
    }
    return {};
  }
};

inline const privacy::PiiClassifier& classifier() {
  static std::unique_ptr<privacy::PiiClassifier> c = [] {
    auto r = privacy::PiiClassifier::create();
    EXPECT_TRUE(r.ok());
    return std::move(*r);
  }();
  return *c;
}

inline std::array<std::uint8_t, 32> testKey(std::uint8_t seed) {
  std::array<std::uint8_t, 32> k{};
  for (std::size_t i = 0; i < k.size(); ++i) k[i] = static_cast<std::uint8_t>(seed * 31 + i);
  return k;
}

// A fresh directory under the build's temp space, removed at the end of the test.
class TempDir {
 public:
  TempDir() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "sotto-cache-XXXXXX").string();
    path = mkdtemp(tmpl.data()) ? tmpl : std::string();
  }
  ~TempDir() {
    std::error_code ec;
    if (!path.empty()) std::filesystem::remove_all(path, ec);
  }
  std::string path;
};

inline std::unique_ptr<AnswerCache> makeCache(CacheOptions o, Embedder* e, const Clock* clock) {
  auto r = AnswerCache::create(o, classifier(), e, clock);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
  return r.ok() ? std::move(*r) : nullptr;
}

}  // namespace sotto::cache::test
