// SPDX-License-Identifier: MIT
// SentencePiece (llama.cpp's SPM) for one raw-text fragment: spaces become '▁', best-scoring pairs merge first,
// leftovers fall back to <0xNN> byte tokens.
#include <algorithm>

#include "engine/llm/tokenizer.h"
#include "engine/llm/unicode.h"

namespace sotto::llm {
namespace {

struct Symbol {
  uint32_t start;
  uint32_t len;  // 0 once merged into its left neighbour
  int32_t prev;
  int32_t next;
};

struct Bigram {
  float score;
  int32_t left;
  int32_t right;
  uint32_t size;
};

// Max-heap order: highest score first, then leftmost (llama.cpp's llm_bigram_spm comparator).
bool heapBefore(const Bigram& a, const Bigram& b) {
  return a.score < b.score || (a.score == b.score && a.left > b.left);
}

}  // namespace

void Tokenizer::tokenizeSpmFragment(std::string_view text, bool prefixSpace, std::vector<TokenId>& out) const {
  static constexpr std::string_view kSpace = "\xE2\x96\x81";  // '▁'
  std::string s;
  s.reserve(text.size() * 3 + kSpace.size());
  if (prefixSpace) s.append(kSpace);
  for (const char c : text) {
    if (c == ' ') {
      s.append(kSpace);
    } else {
      s.push_back(c);
    }
  }

  // One symbol per UTF-8 character (by lead byte, as llama.cpp: malformed bytes stand alone).
  std::vector<Symbol> symbols;
  for (size_t off = 0; off < s.size();) {
    const size_t len = std::min(unicode::utf8LenFromLead(static_cast<unsigned char>(s[off])), s.size() - off);
    const auto idx = static_cast<int32_t>(symbols.size());
    symbols.push_back(Symbol{static_cast<uint32_t>(off), static_cast<uint32_t>(len), idx - 1, idx + 1});
    off += len;
  }
  if (symbols.empty()) return;
  symbols.back().next = -1;

  std::vector<Bigram> heap;
  // Symbols stay contiguous, so a pair's text is one slice of `s`.
  auto tryAdd = [&](int32_t left, int32_t right) {
    if (left < 0 || right < 0) return;
    const Symbol& l = symbols[static_cast<size_t>(left)];
    const Symbol& r = symbols[static_cast<size_t>(right)];
    const TokenId id = find(std::string_view(s).substr(l.start, l.len + r.len));
    if (id == kNoToken) return;
    heap.push_back(Bigram{tokens_[static_cast<size_t>(id)].score, left, right, l.len + r.len});
    std::push_heap(heap.begin(), heap.end(), heapBefore);
  };
  for (int32_t i = 1; i < static_cast<int32_t>(symbols.size()); ++i) tryAdd(i - 1, i);
  while (!heap.empty()) {
    std::pop_heap(heap.begin(), heap.end(), heapBefore);
    const Bigram bg = heap.back();
    heap.pop_back();
    Symbol& l = symbols[static_cast<size_t>(bg.left)];
    Symbol& r = symbols[static_cast<size_t>(bg.right)];
    if (l.len == 0 || r.len == 0 || l.len + r.len != bg.size) continue;
    l.len += r.len;
    r.len = 0;
    l.next = r.next;
    if (r.next >= 0) symbols[static_cast<size_t>(r.next)].prev = bg.left;
    tryAdd(l.prev, bg.left);
    tryAdd(bg.left, l.next);
  }

  for (int32_t i = 0; i != -1; i = symbols[static_cast<size_t>(i)].next) {
    const Symbol& sym = symbols[static_cast<size_t>(i)];
    const std::string_view piece = std::string_view(s).substr(sym.start, sym.len);
    if (const TokenId id = find(piece); id != kNoToken) {
      out.push_back(id);
      continue;
    }
    // Every merged symbol is a token, so only single characters get here: spell them as bytes. llama.cpp
    // throws when a byte has no token; we use <unk> then (and drop the byte if there is none).
    for (const char c : piece) {
      const TokenId b = byteTokens_[static_cast<uint8_t>(c)];
      if (b != kNoToken) {
        out.push_back(b);
      } else if (unk_ != kNoToken) {
        out.push_back(unk_);
      }
    }
  }
}

}  // namespace sotto::llm
