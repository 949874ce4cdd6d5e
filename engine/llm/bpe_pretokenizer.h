// SPDX-License-Identifier: MIT
// BPE pre-tokenizers: llama.cpp's per-model split regexes as hand-written matchers over code point classes.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

// Pure functions over immutable tables: any thread may call them concurrently.
namespace sotto::llm {

// The split rules of one `tokenizer.ggml.pre` family (llama.cpp's LLAMA_VOCAB_PRE_TYPE_*).
enum class BpePreTokenizer : uint8_t {
  defaultRules,  // missing or "default": punctuation runs, GPT-2 rules, number runs, 3-digit groups
  gpt2,          // "gpt-2": 's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)
  llama3,        // "llama3", "llama-v3", "llama-bpe": case-insensitive contractions, digits in groups of 1-3
  qwen2,         // "qwen2", "deepseek-r1-qwen": the llama3 rules with single digits
  smollm,        // "smollm": every digit alone, then the GPT-2 rules
};

// Maps a `tokenizer.ggml.pre` value to its rules; nullopt for names we do not implement. An empty name is
// llama.cpp's fallback ("default").
std::optional<BpePreTokenizer> bpePreTokenizerFromName(std::string_view name);
std::string_view bpePreTokenizerName(BpePreTokenizer pre);

// Intermediate segment lists of the multi-stage families; reuse one per thread to avoid allocations.
struct PreTokenizeScratch {
  std::vector<uint32_t> a, b;
};

// Splits `cps` (code points of one text fragment) into words. Appends each word's length in code points to
// `wordLengths`; the lengths add up to cps.size().
void preTokenize(BpePreTokenizer pre, std::span<const uint32_t> cps, std::vector<uint32_t>& wordLengths,
                 PreTokenizeScratch& scratch);

// Convenience for tests and tools: UTF-8 in (decoded as llama.cpp does), UTF-8 words out.
std::vector<std::string> preTokenizeText(BpePreTokenizer pre, std::string_view text);

}  // namespace sotto::llm
