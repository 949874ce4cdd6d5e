// SPDX-License-Identifier: MIT
// Tokenizer: text <-> token ids exactly as llama.cpp (byte-level BPE and SentencePiece vocabularies from GGUF).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/llm/bpe.h"
#include "engine/llm/bpe_pretokenizer.h"
#include "sotto/hal/result.h"

namespace sotto::llm {

class GgufFile;

using TokenId = int32_t;
inline constexpr TokenId kNoToken = -1;

// GGUF `tokenizer.ggml.token_type` values.
enum class TokenType : int32_t {
  undefined = 0,
  normal = 1,
  unknown = 2,
  control = 3,
  userDefined = 4,
  unused = 5,
  byte = 6,
};

// Per-token attribute bits (llama.cpp's llama_token_attr), derived from TokenType and the name heuristics.
namespace token_attr {
inline constexpr uint32_t kUnknown = 1u << 0;
inline constexpr uint32_t kUnused = 1u << 1;
inline constexpr uint32_t kNormal = 1u << 2;
inline constexpr uint32_t kControl = 1u << 3;
inline constexpr uint32_t kUserDefined = 1u << 4;
inline constexpr uint32_t kByte = 1u << 5;
}  // namespace token_attr

enum class TokenizerModel : uint8_t {
  bpe,  // "gpt2": byte-level BPE with merges
  spm,  // "llama": SentencePiece (score-driven merges, byte fallback)
};

// Everything a vocabulary is made of, as the GGUF `tokenizer.*` keys hold it. Unset optionals take llama.cpp's
// defaults for the model (for example BOS is added by default for SentencePiece and for llama3 BPE).
struct TokenizerVocab {
  std::string model;                     // tokenizer.ggml.model: "gpt2" or "llama"
  std::string pre;                       // tokenizer.ggml.pre (BPE only); empty means "default"
  std::vector<std::string> tokens;       // tokenizer.ggml.tokens
  std::vector<float> scores;             // tokenizer.ggml.scores; empty: all 0
  std::vector<int32_t> tokenTypes;       // tokenizer.ggml.token_type; empty: all normal
  std::vector<std::string> merges;       // tokenizer.ggml.merges (BPE): "left right", by rank
  std::optional<int64_t> bosId, eosId, eotId, eomId, unkId, sepId, padId;
  std::optional<bool> addBos, addEos, addSpacePrefix;
};

// Immutable after creation: every method is const and any thread may call them concurrently. Nothing blocks.
class Tokenizer {
 public:
  // Reads the vocabulary from a model file's metadata. Errors name the key or value at fault, including an
  // unsupported tokenizer.ggml.model or tokenizer.ggml.pre. Control thread (builds tables: tens of ms).
  static Result<std::unique_ptr<Tokenizer>> fromGguf(const GgufFile& file);
  // Same from plain vectors (tests, tools).
  static Result<std::unique_ptr<Tokenizer>> fromVocab(TokenizerVocab vocab);

  ~Tokenizer();
  Tokenizer(const Tokenizer&) = delete;
  Tokenizer& operator=(const Tokenizer&) = delete;

  // llama_tokenize: addSpecial adds BOS/EOS as the vocabulary asks; parseSpecial turns the text of control
  // tokens ("<|im_start|>") into those tokens (user-defined tokens always are). Appends to `out`.
  void tokenize(std::string_view text, bool addSpecial, bool parseSpecial, std::vector<TokenId>& out) const;
  std::vector<TokenId> tokenize(std::string_view text, bool addSpecial, bool parseSpecial) const;

  // llama_detokenize: removeSpecial drops a leading BOS / trailing EOS the vocabulary adds; unparseSpecial
  // renders control tokens as their text (otherwise they render as nothing). Ids outside the vocabulary render
  // as nothing (llama.cpp would throw). Appends to `out`.
  void detokenize(std::span<const TokenId> ids, bool removeSpecial, bool unparseSpecial, std::string& out) const;
  std::string detokenize(std::span<const TokenId> ids, bool removeSpecial, bool unparseSpecial) const;

  // llama_token_to_piece: the bytes one token stands for (may be part of a UTF-8 character). With
  // special=false, control and unknown tokens are empty. lstrip removes up to that many leading spaces.
  std::string_view tokenToPiece(TokenId id, bool special = true, int lstrip = 0) const;

  // Vocabulary facts.
  size_t size() const { return tokens_.size(); }
  bool valid(TokenId id) const { return id >= 0 && static_cast<size_t>(id) < tokens_.size(); }
  std::string_view tokenText(TokenId id) const;  // raw vocabulary string ("Ġthe", "▁the", "<0x0A>")
  float tokenScore(TokenId id) const;
  uint32_t tokenAttr(TokenId id) const;
  // The id of a vocabulary string, or kNoToken.
  TokenId find(std::string_view text) const;
  bool isControl(TokenId id) const { return (tokenAttr(id) & token_attr::kControl) != 0; }
  // End of generation: EOS, EOT, EOM and the end-of-turn tokens llama.cpp recognizes by name.
  bool isEog(TokenId id) const;
  std::span<const TokenId> eogIds() const { return eogIds_; }

  TokenizerModel model() const { return model_; }
  std::optional<BpePreTokenizer> preTokenizer() const { return pre_; }
  TokenId bos() const { return bos_; }
  TokenId eos() const { return eos_; }
  TokenId eot() const { return eot_; }
  TokenId eom() const { return eom_; }
  TokenId unk() const { return unk_; }
  TokenId sep() const { return sep_; }
  TokenId pad() const { return pad_; }
  bool addBos() const { return addBos_; }
  bool addEos() const { return addEos_; }
  bool addSpacePrefix() const { return addSpacePrefix_; }
  // Whether detokenize applies llama.cpp's clean-up of " ." / " 's" and the like (BPE gpt2/default/llama3).
  bool cleanSpaces() const { return cleanSpaces_; }
  size_t maxPieceLength() const { return maxPieceLen_; }

 private:
  // Texts and pieces live back to back in two strings: a 150k-token vocabulary costs a few MB, not tens.
  struct Token {
    uint32_t textOffset = 0;  // in texts_
    uint32_t textLength = 0;
    uint32_t pieceOffset = 0;  // in pieces_
    uint32_t pieceLength = 0;
    float score = 0.0f;
    uint32_t attr = token_attr::kNormal;
  };
  struct Fragment {
    TokenId token = kNoToken;  // kNoToken: raw text [offset, offset + length)
    size_t offset = 0;
    size_t length = 0;
  };

  Tokenizer() = default;
  Status build(TokenizerVocab& vocab);
  void partitionSpecial(std::string_view text, bool parseSpecial, std::vector<Fragment>& fragments) const;
  void tokenizeBpeFragment(std::string_view text, std::vector<TokenId>& out) const;
  void tokenizeSpmFragment(std::string_view text, bool prefixSpace, std::vector<TokenId>& out) const;
  std::string buildPiece(TokenId id) const;
  size_t slotOf(std::string_view text) const;  // index_ slot holding text, or the free slot where it goes

  std::string_view textOf(size_t id) const { return {texts_.data() + tokens_[id].textOffset, tokens_[id].textLength}; }

  TokenizerModel model_ = TokenizerModel::bpe;
  std::optional<BpePreTokenizer> pre_;
  std::vector<Token> tokens_;
  std::string texts_;            // vocabulary strings
  std::string pieces_;           // token_to_piece(id, special=true), precomputed
  std::vector<TokenId> index_;   // text -> id: open addressing over texts_, kNoToken marks a free slot
  std::vector<TokenId> specialTokens_;  // control/user-defined/unknown, longest text first
  std::vector<TokenId> eogIds_;         // sorted
  BpeMerges merges_;
  TokenId byteTokens_[256] = {};  // SPM: byte fallback token per byte; BPE: token of each byte-level character
  TokenId bos_ = kNoToken, eos_ = kNoToken, eot_ = kNoToken, eom_ = kNoToken, unk_ = kNoToken;
  TokenId sep_ = kNoToken, pad_ = kNoToken;
  bool addBos_ = false, addEos_ = false, addSpacePrefix_ = false;
  bool cleanSpaces_ = false, ignoreMerges_ = false;
  size_t maxPieceLen_ = 0;
};

}  // namespace sotto::llm
