// SPDX-License-Identifier: MIT
// BpeMerges: the BPE merge table (pair of symbols -> rank and merged token), built once per vocabulary.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace sotto::llm {

// Immutable after build(): any thread may look up concurrently.
class BpeMerges {
 public:
  struct Merge {
    int32_t rank = -1;    // position in tokenizer.ggml.merges; -1: no such merge
    int32_t merged = -1;  // token id of left+right, -1 when the vocabulary lacks it
  };
  using FindToken = std::function<int32_t(std::string_view)>;

  // merges[i] is "left right" (split at the first space after the first byte, as llama.cpp does); the first
  // occurrence of a pair wins. Pairs whose halves are both tokens go to an id-keyed table (the fast path);
  // the rest stay keyed by text so that every merge llama.cpp would apply is still found.
  void build(std::span<const std::string> merges, const FindToken& find);

  // Pair of two tokens.
  Merge lookup(int32_t left, int32_t right) const;
  // Pair given by text (when a half is not a token). `key` is scratch.
  int32_t lookupText(std::string_view left, std::string_view right, std::string& key) const;
  bool hasTextMerges() const { return !byText_.empty(); }
  size_t size() const { return count_; }

 private:
  struct Slot {
    uint64_t key = kEmpty;
    Merge merge;
  };
  struct StringHash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>{}(s); }
  };
  static constexpr uint64_t kEmpty = ~uint64_t{0};
  static uint64_t pairKey(int32_t l, int32_t r) {
    return (static_cast<uint64_t>(static_cast<uint32_t>(l)) << 32) | static_cast<uint32_t>(r);
  }
  static size_t hashKey(uint64_t k) {
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    return static_cast<size_t>(k);
  }

  std::vector<Slot> slots_;  // open addressing, power-of-two size, linear probing
  std::unordered_map<std::string, int32_t, StringHash, std::equal_to<>> byText_;  // "left right" -> rank
  size_t count_ = 0;
};

}  // namespace sotto::llm
