// SPDX-License-Identifier: MIT
// BpeMerges: builds and queries the merge table.
#include "engine/llm/bpe.h"

namespace sotto::llm {

void BpeMerges::build(std::span<const std::string> merges, const FindToken& find) {
  slots_.clear();
  byText_.clear();
  count_ = 0;
  size_t cap = 16;
  while (cap * 3 < merges.size() * 4) cap <<= 1;  // load factor <= 0.75: short probe chains, 4 MB for Qwen's 151k
  slots_.assign(cap, Slot{});
  const size_t mask = cap - 1;
  std::string joined;
  for (size_t i = 0; i < merges.size(); ++i) {
    const std::string& m = merges[i];
    const size_t sp = m.find(' ', 1);
    if (sp == std::string::npos) continue;  // llama.cpp stores ("", ""), which can never match a symbol
    const std::string_view left(m.data(), sp);
    const std::string_view right(m.data() + sp + 1, m.size() - sp - 1);
    const int32_t l = find(left);
    const int32_t r = find(right);
    const auto rank = static_cast<int32_t>(i);
    if (l < 0 || r < 0) {
      if (byText_.try_emplace(m, rank).second) ++count_;
      continue;
    }
    const uint64_t key = pairKey(l, r);
    size_t at = hashKey(key) & mask;
    while (slots_[at].key != kEmpty && slots_[at].key != key) at = (at + 1) & mask;
    if (slots_[at].key == key) continue;  // duplicate pair: the first rank stays
    joined.assign(left);
    joined.append(right);
    slots_[at].key = key;
    slots_[at].merge = Merge{rank, find(joined)};
    ++count_;
  }
}

BpeMerges::Merge BpeMerges::lookup(int32_t left, int32_t right) const {
  if (slots_.empty()) return {};
  const uint64_t key = pairKey(left, right);
  const size_t mask = slots_.size() - 1;
  for (size_t at = hashKey(key) & mask;; at = (at + 1) & mask) {
    const Slot& s = slots_[at];
    if (s.key == key) return s.merge;
    if (s.key == kEmpty) return {};
  }
}

int32_t BpeMerges::lookupText(std::string_view left, std::string_view right, std::string& key) const {
  if (byText_.empty()) return -1;
  key.assign(left);
  key.push_back(' ');
  key.append(right);
  const auto it = byText_.find(std::string_view(key));
  return it == byText_.end() ? -1 : it->second;
}

}  // namespace sotto::llm
