// SPDX-License-Identifier: MIT
// Tokenizer: vocabulary build, special-token partition, tokenize dispatch, token pieces and detokenize.
#include "engine/llm/tokenizer.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>

#include "engine/llm/detokenizer.h"
#include "engine/llm/unicode.h"

namespace sotto::llm {
namespace {

// Texts llama.cpp treats as end-of-turn / end-of-generation whatever their declared type (llama-vocab.cpp).
constexpr std::array<std::string_view, 8> kEotTexts = {
    "<|eot_id|>", "<|im_end|>", "<|end|>", "<end_of_turn>", "<|endoftext|>", "<EOT>", "_<EOT>",
    "<\xEF\xBD\x9C" "end\xE2\x96\x81of\xE2\x96\x81sentence\xEF\xBD\x9C>",  // DeepSeek's <｜end▁of▁sentence｜>
};
constexpr std::array<std::string_view, 8> kEogTexts = {
    "<|eot_id|>", "<|im_end|>", "<|end|>", "<end_of_turn>", "<|endoftext|>", "<|eom_id|>", "<EOT>", "_<EOT>",
};
// Fill-in-the-middle markers (Qwen, CodeLlama, StarCoder/SmolLM, Granite, DeepSeek spellings).
constexpr std::array<std::string_view, 6> kFimPreTexts = {
    "<|fim_prefix|>", "<fim-prefix>", "<fim_prefix>", "<\xEF\xBD\x9C" "fim\xE2\x96\x81" "begin\xEF\xBD\x9C>",
    "<PRE>", "\xE2\x96\x81<PRE>"};
constexpr std::array<std::string_view, 6> kFimSufTexts = {
    "<|fim_suffix|>", "<fim-suffix>", "<fim_suffix>", "<\xEF\xBD\x9C" "fim\xE2\x96\x81" "hole\xEF\xBD\x9C>",
    "<SUF>", "\xE2\x96\x81<SUF>"};
constexpr std::array<std::string_view, 6> kFimMidTexts = {
    "<|fim_middle|>", "<fim-middle>", "<fim_middle>", "<\xEF\xBD\x9C" "fim\xE2\x96\x81" "end\xEF\xBD\x9C>",
    "<MID>", "\xE2\x96\x81<MID>"};
constexpr std::array<std::string_view, 4> kFimPadTexts = {"<|fim_pad|>", "<fim-pad>", "<fim_pad>", "<PAD>"};
constexpr std::array<std::string_view, 5> kFimRepTexts = {"<|fim_repo|>", "<|repo_name|>", "<fim-repo>", "<REPO>",
                                                          "<reponame>"};
constexpr std::array<std::string_view, 1> kFimSepTexts = {"<|file_sep|>"};

template <size_t N>
bool oneOf(std::string_view s, const std::array<std::string_view, N>& set) {
  return std::find(set.begin(), set.end(), s) != set.end();
}

uint32_t attrFromType(int32_t type) {
  switch (static_cast<TokenType>(type)) {
    case TokenType::normal: return token_attr::kNormal;
    case TokenType::unknown: return token_attr::kUnknown;
    case TokenType::control: return token_attr::kControl;
    case TokenType::userDefined: return token_attr::kUserDefined;
    case TokenType::unused: return token_attr::kUnused;
    case TokenType::byte: return token_attr::kByte;
    case TokenType::undefined: return 0;
  }
  return 0;  // unknown type values: llama.cpp's LLAMA_TOKEN_ATTR_UNDEFINED
}

// "<0xNN>" -> byte, as llama.cpp's token_to_byte (strtol over the two characters after "<0x").
uint8_t byteOfByteToken(std::string_view text) {
  unsigned v = 0;
  for (size_t i = 3; i < 5 && i < text.size(); ++i) {
    const char c = text[i];
    unsigned d;
    if (c >= '0' && c <= '9') d = static_cast<unsigned>(c - '0');
    else if (c >= 'a' && c <= 'f') d = static_cast<unsigned>(c - 'a' + 10);
    else if (c >= 'A' && c <= 'F') d = static_cast<unsigned>(c - 'A' + 10);
    else break;
    v = v * 16 + d;
  }
  return static_cast<uint8_t>(v);
}

void replaceAll(std::string& s, std::string_view from, std::string_view to) {
  std::string out;
  out.reserve(s.size());
  size_t pos = 0;
  for (size_t hit; (hit = s.find(from, pos)) != std::string::npos; pos = hit + from.size()) {
    out.append(s, pos, hit - pos);
    out.append(to);
  }
  out.append(s, pos);
  s.swap(out);
}

}  // namespace

Tokenizer::~Tokenizer() = default;

Result<std::unique_ptr<Tokenizer>> Tokenizer::fromVocab(TokenizerVocab vocab) {
  std::unique_ptr<Tokenizer> t(new Tokenizer());
  if (Status s = t->build(vocab); !s) return std::move(s).error();
  return t;
}

Status Tokenizer::build(TokenizerVocab& v) {
  // Model and the llama.cpp defaults that come with it.
  TokenId bos, eos, unk;
  if (v.model == "gpt2") {
    model_ = TokenizerModel::bpe;
    pre_ = bpePreTokenizerFromName(v.pre);
    if (!pre_) {
      return makeError(Errc::unsupported,
                       "tokenizer.ggml.pre '" + v.pre +
                           "' is not supported (supported: default, gpt-2, llama3, llama-v3, llama-bpe, qwen2, "
                           "deepseek-r1-qwen, smollm)");
    }
    bos = 11, eos = 11, unk = kNoToken;
    addSpacePrefix_ = false;
    cleanSpaces_ = true;
    addBos_ = false;
    addEos_ = false;
    if (*pre_ == BpePreTokenizer::llama3) {
      ignoreMerges_ = true;  // a whole pre-token word found in the vocabulary is taken as is
      addBos_ = true;
    } else if (*pre_ == BpePreTokenizer::qwen2 || *pre_ == BpePreTokenizer::smollm) {
      cleanSpaces_ = false;
    }
  } else if (v.model == "llama") {
    model_ = TokenizerModel::spm;
    bos = 1, eos = 2, unk = 0;
    addSpacePrefix_ = true;
    cleanSpaces_ = false;
    addBos_ = true;
    addEos_ = false;
  } else {
    return makeError(Errc::unsupported, "tokenizer.ggml.model '" + v.model +
                                            "' is not supported (supported: gpt2 byte-level BPE, llama SentencePiece)");
  }
  if (v.addSpacePrefix) addSpacePrefix_ = *v.addSpacePrefix;

  // Tokens, scores and types.
  const size_t n = v.tokens.size();
  if (n == 0) return makeError(Errc::corrupt, "tokenizer.ggml.tokens is empty");
  if (n >= static_cast<size_t>(INT32_MAX)) return makeError(Errc::corrupt, "tokenizer.ggml.tokens is too long");
  if (!v.scores.empty() && v.scores.size() < n) {
    return makeError(Errc::corrupt, "tokenizer.ggml.scores has " + std::to_string(v.scores.size()) +
                                        " entries for " + std::to_string(n) + " tokens");
  }
  if (!v.tokenTypes.empty() && v.tokenTypes.size() < n) {
    return makeError(Errc::corrupt, "tokenizer.ggml.token_type has " + std::to_string(v.tokenTypes.size()) +
                                        " entries for " + std::to_string(n) + " tokens");
  }
  tokens_.resize(n);
  size_t textBytes = 0;
  for (size_t i = 0; i < n; ++i) {
    if (v.tokens[i].empty()) v.tokens[i] = "[EMPTY_" + std::to_string(i) + "]";  // as llama.cpp: ids stay unique
    textBytes += v.tokens[i].size();
  }
  if (textBytes >= UINT32_MAX) return makeError(Errc::corrupt, "tokenizer.ggml.tokens is too large");
  texts_.reserve(textBytes);
  size_t slots = 16;
  while (slots < 2 * n) slots <<= 1;  // load factor <= 0.5
  index_.assign(slots, kNoToken);
  for (size_t i = 0; i < n; ++i) {
    Token& t = tokens_[i];
    t.textOffset = static_cast<uint32_t>(texts_.size());
    t.textLength = static_cast<uint32_t>(v.tokens[i].size());
    texts_.append(v.tokens[i]);
    t.score = v.scores.empty() ? 0.0f : v.scores[i];
    t.attr = v.tokenTypes.empty() ? token_attr::kNormal : attrFromType(v.tokenTypes[i]);
    const size_t slot = slotOf(textOf(i));
    if (index_[slot] != kNoToken) {
      return makeError(Errc::corrupt, "duplicate token in tokenizer.ggml.tokens: '" + v.tokens[i] + "' has ids " +
                                          std::to_string(index_[slot]) + " and " + std::to_string(i));
    }
    index_[slot] = static_cast<TokenId>(i);
  }
  v.tokens = {};

  // Special ids: the file's value when it is inside the vocabulary, else the model default (llama.cpp warns and
  // keeps the default); a default outside the vocabulary means "none".
  auto pick = [n](TokenId def, const std::optional<int64_t>& given) -> TokenId {
    if (def >= 0 && static_cast<size_t>(def) >= n) def = kNoToken;
    if (!given) return def;
    if (*given < 0) return kNoToken;  // explicit "none" (fromVocab callers)
    return static_cast<size_t>(*given) < n ? static_cast<TokenId>(*given) : def;
  };
  bos_ = pick(bos, v.bosId);
  eos_ = pick(eos, v.eosId);
  unk_ = pick(unk, v.unkId);
  eot_ = pick(kNoToken, v.eotId);
  eom_ = pick(kNoToken, v.eomId);
  sep_ = pick(kNoToken, v.sepId);
  pad_ = pick(kNoToken, v.padId);
  if (v.addBos) addBos_ = *v.addBos;
  if (v.addEos) addEos_ = *v.addEos;
  if (addBos_ && bos_ == kNoToken) {
    return makeError(Errc::corrupt, "tokenizer.ggml.add_bos_token is true, but tokenizer.ggml.bos_token_id is not set");
  }
  if (addEos_ && eos_ == kNoToken) {
    return makeError(Errc::corrupt, "tokenizer.ggml.add_eos_token is true, but tokenizer.ggml.eos_token_id is not set");
  }

  // Name heuristics (llama.cpp load()): end-of-turn and fill-in-the-middle tokens are control tokens whatever
  // the file says, and the end-of-turn ones end generation. Lowest id wins where llama.cpp takes the first
  // one its hash map yields.
  TokenId fimPre = kNoToken, fimSuf = kNoToken, fimMid = kNoToken;
  TokenId fimPad = kNoToken, fimRep = kNoToken, fimSep = kNoToken;
  for (size_t i = 0; i < n; ++i) {
    const auto id = static_cast<TokenId>(i);
    Token& t = tokens_[i];
    const std::string_view tt = textOf(i);
    auto claim = [&](TokenId& slot) {
      if (slot != kNoToken) return;
      slot = id;
      t.attr |= token_attr::kControl;
    };
    if (oneOf(tt, kEotTexts)) claim(eot_);
    if (tt == "<|eom_id|>") claim(eom_);
    if (oneOf(tt, kFimPreTexts)) claim(fimPre);
    if (oneOf(tt, kFimSufTexts)) claim(fimSuf);
    if (oneOf(tt, kFimMidTexts)) claim(fimMid);
    if (oneOf(tt, kFimPadTexts)) claim(fimPad);
    if (oneOf(tt, kFimRepTexts)) claim(fimRep);
    if (oneOf(tt, kFimSepTexts)) claim(fimSep);
    if (oneOf(tt, kEogTexts)) {
      t.attr |= token_attr::kControl;
      eogIds_.push_back(id);
    }
  }
  for (const TokenId id : {fimPad, fimRep, fimSep, eos_, eot_, eom_}) {
    if (id != kNoToken) eogIds_.push_back(id);
  }
  std::sort(eogIds_.begin(), eogIds_.end());
  eogIds_.erase(std::unique(eogIds_.begin(), eogIds_.end()), eogIds_.end());

  // Tokens the partition step looks for, longest text first.
  for (size_t i = 0; i < n; ++i) {
    if (tokens_[i].attr & (token_attr::kControl | token_attr::kUserDefined | token_attr::kUnknown)) {
      specialTokens_.push_back(static_cast<TokenId>(i));
    }
  }
  std::stable_sort(specialTokens_.begin(), specialTokens_.end(), [this](TokenId a, TokenId b) {
    return tokens_[static_cast<size_t>(a)].textLength > tokens_[static_cast<size_t>(b)].textLength;
  });

  // Byte tables and merges.
  for (unsigned b = 0; b < 256; ++b) {
    if (model_ == TokenizerModel::bpe) {
      byteTokens_[b] = find(unicode::byteToUnicode(static_cast<uint8_t>(b)));
    } else {
      char hex[8];
      std::snprintf(hex, sizeof hex, "<0x%02X>", b);
      byteTokens_[b] = find(hex);
      if (byteTokens_[b] == kNoToken) byteTokens_[b] = find(std::string_view(reinterpret_cast<const char*>(&b), 1));
    }
  }
  if (model_ == TokenizerModel::bpe) {
    merges_.build(v.merges, [this](std::string_view s) { return find(s); });
  }

  for (size_t i = 0; i < n; ++i) {
    const std::string piece = buildPiece(static_cast<TokenId>(i));
    if (pieces_.size() + piece.size() >= UINT32_MAX) return makeError(Errc::corrupt, "token pieces are too large");
    tokens_[i].pieceOffset = static_cast<uint32_t>(pieces_.size());
    tokens_[i].pieceLength = static_cast<uint32_t>(piece.size());
    pieces_.append(piece);
    maxPieceLen_ = std::max(maxPieceLen_, piece.size());
  }
  pieces_.shrink_to_fit();
  return {};
}

std::string Tokenizer::buildPiece(TokenId id) const {
  const Token& t = tokens_[static_cast<size_t>(id)];
  const std::string_view tt = textOf(static_cast<size_t>(id));
  if (t.attr & (token_attr::kUnknown | token_attr::kControl | token_attr::kUserDefined)) return std::string(tt);
  if (t.attr & token_attr::kNormal) {
    if (model_ == TokenizerModel::spm) {
      std::string s(tt);
      replaceAll(s, "\xE2\x96\x81", " ");  // '▁' is a space
      return s;
    }
    // Byte-level BPE: each code point of the token text stands for one byte.
    std::string s;
    size_t off = 0;
    while (off < tt.size()) {
      const uint32_t cp = unicode::decodeOne(tt, off);
      const int b = unicode::unicodeToByte(cp);
      if (b >= 0) {
        s.push_back(static_cast<char>(b));
        continue;
      }
      // llama.cpp's llama_decode_text marks code points outside the byte map like this.
      s += "[UNK_BYTE_0x";
      std::string utf8;
      unicode::appendUtf8(cp, utf8);
      for (const char c : utf8) {
        char hex[4];
        std::snprintf(hex, sizeof hex, "%02x", static_cast<unsigned char>(c));
        s += hex;
      }
      s += tt;
      s += "]";
    }
    return s;
  }
  if (t.attr & token_attr::kByte) return std::string(1, static_cast<char>(byteOfByteToken(tt)));
  return {};  // unused / undefined tokens render as nothing
}

size_t Tokenizer::slotOf(std::string_view s) const {
  const size_t mask = index_.size() - 1;
  for (size_t at = std::hash<std::string_view>{}(s) & mask;; at = (at + 1) & mask) {
    const TokenId id = index_[at];
    if (id == kNoToken || textOf(static_cast<size_t>(id)) == s) return at;
  }
}

TokenId Tokenizer::find(std::string_view s) const { return index_.empty() ? kNoToken : index_[slotOf(s)]; }

std::string_view Tokenizer::tokenText(TokenId id) const {
  return valid(id) ? textOf(static_cast<size_t>(id)) : std::string_view();
}

float Tokenizer::tokenScore(TokenId id) const { return valid(id) ? tokens_[static_cast<size_t>(id)].score : 0.0f; }

uint32_t Tokenizer::tokenAttr(TokenId id) const { return valid(id) ? tokens_[static_cast<size_t>(id)].attr : 0; }

bool Tokenizer::isEog(TokenId id) const {
  return id != kNoToken && std::binary_search(eogIds_.begin(), eogIds_.end(), id);
}

void Tokenizer::partitionSpecial(std::string_view text, bool parseSpecial, std::vector<Fragment>& fragments) const {
  fragments.clear();
  if (text.empty()) return;
  fragments.push_back(Fragment{kNoToken, 0, text.size()});
  std::vector<Fragment> next;
  // One pass per special token, longest first, over the raw fragments left by the earlier passes.
  for (const TokenId id : specialTokens_) {
    const Token& t = tokens_[static_cast<size_t>(id)];
    if (!parseSpecial && (t.attr & (token_attr::kControl | token_attr::kUnknown))) continue;  // user-defined stay
    const std::string_view needle = textOf(static_cast<size_t>(id));
    bool found = false;
    for (const Fragment& f : fragments) {
      if (f.token == kNoToken && text.substr(f.offset, f.length).find(needle) != std::string_view::npos) {
        found = true;
        break;
      }
    }
    if (!found) continue;
    next.clear();
    for (const Fragment& f : fragments) {
      if (f.token != kNoToken) {
        next.push_back(f);
        continue;
      }
      const std::string_view raw = text.substr(f.offset, f.length);
      size_t pos = 0;
      for (size_t hit; (hit = raw.find(needle, pos)) != std::string_view::npos; pos = hit + needle.size()) {
        if (hit > pos) next.push_back(Fragment{kNoToken, f.offset + pos, hit - pos});
        next.push_back(Fragment{id, 0, 0});
      }
      if (pos < raw.size()) next.push_back(Fragment{kNoToken, f.offset + pos, raw.size() - pos});
    }
    fragments.swap(next);
  }
}

void Tokenizer::tokenize(std::string_view text, bool addSpecial, bool parseSpecial,
                         std::vector<TokenId>& out) const {
  std::vector<Fragment> fragments;
  partitionSpecial(text, parseSpecial, fragments);
  if (addSpecial && addBos_) out.push_back(bos_);
  if (model_ == TokenizerModel::spm) {
    // SentencePiece prefixes a space to the text and, in llama.cpp, again to text that follows a special token.
    bool prevSpecial = true;
    for (const Fragment& f : fragments) {
      if (f.token != kNoToken) {
        out.push_back(f.token);
        prevSpecial = true;
      } else {
        tokenizeSpmFragment(text.substr(f.offset, f.length), addSpacePrefix_ && prevSpecial, out);
        prevSpecial = false;
      }
    }
  } else {
    for (const Fragment& f : fragments) {
      if (f.token != kNoToken) {
        out.push_back(f.token);
      } else {
        tokenizeBpeFragment(text.substr(f.offset, f.length), out);
      }
    }
  }
  if (addSpecial && addEos_) out.push_back(eos_);
}

std::vector<TokenId> Tokenizer::tokenize(std::string_view text, bool addSpecial, bool parseSpecial) const {
  std::vector<TokenId> out;
  tokenize(text, addSpecial, parseSpecial, out);
  return out;
}

std::string_view Tokenizer::tokenToPiece(TokenId id, bool special, int lstrip) const {
  if (!valid(id)) return {};
  if (!special && (tokens_[static_cast<size_t>(id)].attr & (token_attr::kUnknown | token_attr::kControl))) return {};
  const Token& t = tokens_[static_cast<size_t>(id)];
  std::string_view piece(pieces_.data() + t.pieceOffset, t.pieceLength);
  for (int i = 0; i < lstrip && !piece.empty() && piece.front() == ' '; ++i) piece.remove_prefix(1);
  return piece;
}

void Tokenizer::detokenize(std::span<const TokenId> ids, bool removeSpecial, bool unparseSpecial,
                           std::string& out) const {
  bool removeSpace = addSpacePrefix_;  // the space SentencePiece prefixed to the text
  if (removeSpecial && addBos_ && !ids.empty() && ids.front() == bos_) {
    removeSpace = false;
    ids = ids.subspan(1);
  }
  if (removeSpecial && addEos_ && !ids.empty() && ids.back() == eos_) ids = ids.first(ids.size() - 1);
  const size_t start = out.size();
  for (const TokenId id : ids) {
    out.append(tokenToPiece(id, unparseSpecial, removeSpace ? 1 : 0));
    removeSpace = false;
  }
  if (cleanSpaces_) cleanSpacesInPlace(out, start);
}

std::string Tokenizer::detokenize(std::span<const TokenId> ids, bool removeSpecial, bool unparseSpecial) const {
  std::string out;
  detokenize(ids, removeSpecial, unparseSpecial, out);
  return out;
}

}  // namespace sotto::llm
