// SPDX-License-Identifier: MIT
// Tokenizer::fromGguf: reads the tokenizer.* metadata of a model file into a TokenizerVocab.
#include <cstdint>

#include "engine/llm/gguf.h"
#include "engine/llm/tokenizer.h"

namespace sotto::llm {
namespace {

Error badType(const GgufFile& f, std::string_view key, std::string_view want) {
  return makeError(Errc::corrupt, f.path() + ": " + std::string(key) + " is not " + std::string(want));
}

std::vector<std::string> copyStrings(const std::vector<std::string_view>& views) {
  std::vector<std::string> out;
  out.reserve(views.size());
  for (const std::string_view v : views) out.emplace_back(v);
  return out;
}

}  // namespace

Result<std::unique_ptr<Tokenizer>> Tokenizer::fromGguf(const GgufFile& f) {
  TokenizerVocab v;
  constexpr std::string_view kModel = "tokenizer.ggml.model";
  if (!f.has(kModel)) {
    return makeError(Errc::corrupt, f.path() + ": no tokenizer (" + std::string(kModel) + " missing)");
  }
  const auto model = f.getString(kModel);
  if (!model) return badType(f, kModel, "a string");
  v.model = *model;

  constexpr std::string_view kPre = "tokenizer.ggml.pre";
  if (f.has(kPre)) {
    const auto pre = f.getString(kPre);
    if (!pre) return badType(f, kPre, "a string");
    v.pre = *pre;
  }

  constexpr std::string_view kTokens = "tokenizer.ggml.tokens";
  auto tokens = f.getStringArray(kTokens);
  if (!tokens) {
    if (!f.has(kTokens)) return makeError(Errc::corrupt, f.path() + ": " + std::string(kTokens) + " missing");
    return badType(f, kTokens, "an array of strings");
  }
  v.tokens = copyStrings(*tokens);

  constexpr std::string_view kScores = "tokenizer.ggml.scores";
  if (f.has(kScores)) {
    const auto type = f.arrayType(kScores);
    if (type == GgufValueType::f32 || type == GgufValueType::f64) {
      auto scores = f.getFloatArray(kScores);
      if (!scores) return badType(f, kScores, "an array of f32 or i32");
      v.scores = std::move(*scores);
    } else if (type == GgufValueType::i32) {
      const auto scores = f.getIntArray(kScores);  // a named local: the loop must not outlive a temporary
      if (!scores) return badType(f, kScores, "an array of f32 or i32");
      for (const int64_t s : *scores) v.scores.push_back(static_cast<float>(s));
    } else {
      return badType(f, kScores, "an array of f32 or i32");
    }
  }

  constexpr std::string_view kTypes = "tokenizer.ggml.token_type";
  if (f.has(kTypes)) {
    const auto types = f.getIntArray(kTypes);
    if (!types) return badType(f, kTypes, "an array of integers");
    v.tokenTypes.reserve(types->size());
    for (const int64_t t : *types) {
      v.tokenTypes.push_back(t < INT32_MIN || t > INT32_MAX ? 0 : static_cast<int32_t>(t));
    }
  }

  constexpr std::string_view kMerges = "tokenizer.ggml.merges";
  if (f.has(kMerges)) {
    const auto merges = f.getStringArray(kMerges);
    if (!merges) return badType(f, kMerges, "an array of strings");
    v.merges = copyStrings(*merges);
  } else if (v.model == "gpt2") {
    return makeError(Errc::corrupt, f.path() + ": " + std::string(kMerges) + " missing (needed by a gpt2 tokenizer)");
  }

  struct IdKey {
    std::string_view key;
    std::optional<int64_t>* slot;
  };
  const IdKey ids[] = {
      {"tokenizer.ggml.bos_token_id", &v.bosId},      {"tokenizer.ggml.eos_token_id", &v.eosId},
      {"tokenizer.ggml.eot_token_id", &v.eotId},      {"tokenizer.ggml.eom_token_id", &v.eomId},
      {"tokenizer.ggml.unknown_token_id", &v.unkId},  {"tokenizer.ggml.seperator_token_id", &v.sepId},
      {"tokenizer.ggml.padding_token_id", &v.padId},
  };
  for (const IdKey& k : ids) {
    if (!f.has(k.key)) continue;
    const auto id = f.getUint(k.key);
    if (!id) return badType(f, k.key, "an unsigned integer");
    // Out-of-range values fall back to the model default in build(), as llama.cpp does.
    *k.slot = *id > static_cast<uint64_t>(INT32_MAX) ? int64_t{INT32_MAX} : static_cast<int64_t>(*id);
  }

  struct FlagKey {
    std::string_view key;
    std::optional<bool>* slot;
  };
  const FlagKey flags[] = {
      {"tokenizer.ggml.add_bos_token", &v.addBos},
      {"tokenizer.ggml.add_eos_token", &v.addEos},
      {"tokenizer.ggml.add_space_prefix", &v.addSpacePrefix},
  };
  for (const FlagKey& k : flags) {
    if (!f.has(k.key)) continue;
    const auto b = f.getBool(k.key);
    if (!b) return badType(f, k.key, "a boolean");
    *k.slot = *b;
  }

  auto tok = fromVocab(std::move(v));
  if (!tok) {
    Error e = std::move(tok).error();
    e.message = f.path() + ": " + e.message;
    return e;
  }
  return tok;
}

}  // namespace sotto::llm
