// SPDX-License-Identifier: MIT
// Byte-level BPE for one raw-text fragment: pre-tokenize, map bytes to the GPT-2 alphabet, merge by rank.
#include <algorithm>

#include "engine/llm/tokenizer.h"
#include "engine/llm/unicode.h"

namespace sotto::llm {
namespace {

struct Symbol {
  uint32_t start;  // byte offset in the byte-level word
  uint32_t len;    // 0 once merged into its left neighbour
  int32_t id;      // token of the symbol's text, kNoToken if the vocabulary lacks it
  int32_t prev;
  int32_t next;
};

struct Bigram {
  int32_t rank;
  int32_t left;
  int32_t right;
  uint32_t size;  // bytes of left+right when queued: a mismatch later means the pair is stale
};

// Min-heap order: lowest rank first, then leftmost (llama.cpp's llm_bigram_bpe comparator).
bool heapAfter(const Bigram& a, const Bigram& b) { return a.rank > b.rank || (a.rank == b.rank && a.left > b.left); }

}  // namespace

void Tokenizer::tokenizeBpeFragment(std::string_view text, std::vector<TokenId>& out) const {
  std::vector<uint32_t> cps;
  unicode::decode(text, cps);
  std::vector<uint32_t> words;
  PreTokenizeScratch preScratch;
  preTokenize(*pre_, cps, words, preScratch);

  std::string utf8;   // one word, UTF-8 (re-encoded from code points as llama.cpp does)
  std::string word;   // the same word in the byte-level alphabet
  std::string key;    // scratch for text-keyed merges
  std::vector<Symbol> symbols;
  std::vector<Bigram> heap;

  auto symText = [&](const Symbol& s) { return std::string_view(word).substr(s.start, s.len); };
  auto tryAdd = [&](int32_t left, int32_t right) {
    if (left < 0 || right < 0) return;
    const Symbol& l = symbols[static_cast<size_t>(left)];
    const Symbol& r = symbols[static_cast<size_t>(right)];
    int32_t rank;
    if (l.id >= 0 && r.id >= 0) {
      rank = merges_.lookup(l.id, r.id).rank;
    } else {
      rank = merges_.lookupText(symText(l), symText(r), key);
    }
    if (rank < 0) return;
    heap.push_back(Bigram{rank, left, right, l.len + r.len});
    std::push_heap(heap.begin(), heap.end(), heapAfter);
  };

  size_t cpStart = 0;
  for (const uint32_t wordLen : words) {
    utf8.clear();
    for (size_t i = cpStart; i < cpStart + wordLen; ++i) unicode::appendUtf8(cps[i], utf8);
    cpStart += wordLen;

    word.clear();
    symbols.clear();
    for (const char c : utf8) {
      const auto b = static_cast<uint8_t>(c);
      const std::string_view ch = unicode::byteToUnicode(b);
      const auto idx = static_cast<int32_t>(symbols.size());
      symbols.push_back(Symbol{static_cast<uint32_t>(word.size()), static_cast<uint32_t>(ch.size()),
                               byteTokens_[b], idx - 1, idx + 1});
      word.append(ch);
    }
    if (symbols.empty()) continue;
    symbols.back().next = -1;

    // llama3: a word that is a token is taken whole, merges or not.
    if (ignoreMerges_) {
      if (const TokenId whole = find(word); whole != kNoToken) {
        out.push_back(whole);
        continue;
      }
    }

    heap.clear();
    for (int32_t i = 1; i < static_cast<int32_t>(symbols.size()); ++i) tryAdd(i - 1, i);
    while (!heap.empty()) {
      std::pop_heap(heap.begin(), heap.end(), heapAfter);
      const Bigram bg = heap.back();
      heap.pop_back();
      Symbol& l = symbols[static_cast<size_t>(bg.left)];
      Symbol& r = symbols[static_cast<size_t>(bg.right)];
      // Symbols only grow by absorbing their right neighbour, so a live pair with the queued size is current.
      if (l.len == 0 || r.len == 0 || l.len + r.len != bg.size) continue;
      if (l.id >= 0 && r.id >= 0) {
        l.id = merges_.lookup(l.id, r.id).merged;
      } else {
        l.id = find(std::string_view(word).substr(l.start, l.len + r.len));
      }
      l.len += r.len;
      r.len = 0;
      l.next = r.next;
      if (r.next >= 0) symbols[static_cast<size_t>(r.next)].prev = bg.left;
      tryAdd(l.prev, bg.left);
      tryAdd(bg.left, l.next);
    }

    for (int32_t i = 0; i != -1; i = symbols[static_cast<size_t>(i)].next) {
      const Symbol& s = symbols[static_cast<size_t>(i)];
      if (s.id >= 0) {
        out.push_back(s.id);
        continue;
      }
      // Not in the vocabulary: llama.cpp falls back to single bytes of the byte-level text that are tokens.
      for (const char c : symText(s)) {
        const TokenId id = find(std::string_view(&c, 1));
        if (id != kNoToken) out.push_back(id);
      }
    }
  }
}

}  // namespace sotto::llm
