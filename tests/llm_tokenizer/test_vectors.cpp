// SPDX-License-Identifier: MIT
// llama.cpp reference vectors: tokenize / detokenize / streaming on SmolLM2 (BPE) and stories260K (SPM).
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <random>

#include "tests/llm_tokenizer/tokenizer_test_util.h"

namespace sotto::llm::test {
namespace {

using sotto::test::json::Value;

struct VectorSet {
  const char* name;
  const char* file;
};
// GoogleTest prints parameters with this instead of a byte dump.
[[maybe_unused]] void PrintTo(const VectorSet& v, std::ostream* os) { *os << v.name; }

const Tokenizer* tokenizerFor(const std::string& name, std::string& error) {
  if (name == "smollm2") {
    error = smolModel().error;
    return smolModel().tokenizer.get();
  }
  error = storiesModel().error;
  return storiesModel().tokenizer.get();
}

class TokenizerVectors : public ::testing::TestWithParam<VectorSet> {
 protected:
  void SetUp() override {
    std::string error;
    tok_ = tokenizerFor(GetParam().name, error);
    ASSERT_NE(tok_, nullptr) << error;
    vectors_ = &vectorFile(GetParam().file);
    ASSERT_GT((*vectors_)["cases"].size(), 0u);
  }
  const std::vector<Value>& cases() const { return (*vectors_)["cases"].items(); }
  const Value& header() const { return (*vectors_)["header"]; }
  // llama_tokenize(add_special=true) as the header says it was verified: [bos] + ids when add_bos.
  std::vector<TokenId> idsAddSpecial(const Value& c) const {
    const Value& v = header()["vocab"];
    std::vector<TokenId> ids;
    if (v["add_bos"].boolean()) ids.push_back(static_cast<TokenId>(v["bos_id"].integer()));
    for (const TokenId id : c["ids"].intArray()) ids.push_back(id);
    if (v["add_eos"].boolean()) ids.push_back(static_cast<TokenId>(v["eos_id"].integer()));
    return ids;
  }
  // detok_remove_special_with_bos is present only where it differs from detok.
  static const std::string& detokRemoveSpecial(const Value& c) {
    return (c.has("detok_remove_special_with_bos") ? c["detok_remove_special_with_bos"] : c["detok"]).str();
  }

  const Tokenizer* tok_ = nullptr;
  const Value* vectors_ = nullptr;
};

TEST_P(TokenizerVectors, VocabularyMatchesHeader) {
  const Value& v = header()["vocab"];
  EXPECT_EQ(tok_->size(), static_cast<size_t>(v["n_tokens"].integer()));
  EXPECT_EQ(tok_->bos(), v["bos_id"].integer());
  EXPECT_EQ(tok_->eos(), v["eos_id"].integer());
  EXPECT_EQ(tok_->addBos(), v["add_bos"].boolean());
  EXPECT_EQ(tok_->addEos(), v["add_eos"].boolean());
  EXPECT_EQ(tok_->model(), v["type"].str() == "BPE" ? TokenizerModel::bpe : TokenizerModel::spm);
  EXPECT_EQ(cases().size(), static_cast<size_t>(header()["n_cases"].integer()));
}

TEST_P(TokenizerVectors, TokenizeParseSpecial) {
  for (const Value& c : cases()) {
    const std::vector<TokenId> got = tok_->tokenize(c["text"].str(), false, true);
    EXPECT_EQ(got, c["ids"].intArray()) << c["id"].str() << " text '" << c["text"].str() << "' got "
                                        << idsToString(got);
  }
}

TEST_P(TokenizerVectors, TokenizeWithoutParseSpecial) {
  size_t differing = 0;
  for (const Value& c : cases()) {
    const bool differs = c.has("ids_parse_special_false");
    differing += differs;
    const std::vector<TokenId> want = (differs ? c["ids_parse_special_false"] : c["ids"]).intArray();
    const std::vector<TokenId> got = tok_->tokenize(c["text"].str(), false, false);
    EXPECT_EQ(got, want) << c["id"].str() << " text '" << c["text"].str() << "' got " << idsToString(got);
  }
  RecordProperty("cases_with_special_text", static_cast<int>(differing));
}

TEST_P(TokenizerVectors, TokenizeAddSpecial) {
  for (const Value& c : cases()) {
    const std::vector<TokenId> got = tok_->tokenize(c["text"].str(), true, true);
    EXPECT_EQ(got, idsAddSpecial(c)) << c["id"].str() << " got " << idsToString(got);
  }
}

TEST_P(TokenizerVectors, TokenTexts) {
  for (const Value& c : cases()) {
    const std::vector<TokenId> ids = c["ids"].intArray();
    const auto& tokens = c["tokens"].items();
    ASSERT_EQ(ids.size(), tokens.size()) << c["id"].str();
    for (size_t i = 0; i < ids.size(); ++i) {
      EXPECT_EQ(tok_->tokenText(ids[i]), tokens[i].str()) << c["id"].str() << " token " << i;
    }
  }
}

TEST_P(TokenizerVectors, Detokenize) {
  for (const Value& c : cases()) {
    const std::string got = tok_->detokenize(c["ids"].intArray(), false, true);
    EXPECT_EQ(got, c["detok"].str()) << c["id"].str();
    EXPECT_EQ(got == c["text"].str(), c["detok_equals_text"].boolean()) << c["id"].str();
  }
}

TEST_P(TokenizerVectors, DetokenizeRemoveSpecialWithBos) {
  for (const Value& c : cases()) {
    const std::string& want = detokRemoveSpecial(c);
    EXPECT_EQ(tok_->detokenize(idsAddSpecial(c), true, false), want) << c["id"].str();
  }
}

// Fed one id at a time, the stream yields exactly llama_detokenize's text, and never a broken UTF-8 chunk.
TEST_P(TokenizerVectors, StreamingEqualsDetokenize) {
  for (const Value& c : cases()) {
    const StreamResult r = streamDetokenize(*tok_, c["ids"].intArray(), {false, true});
    EXPECT_EQ(r.text, c["detok"].str()) << c["id"].str();
    for (const std::string& chunk : r.chunks) EXPECT_TRUE(validUtf8(chunk)) << c["id"].str();
  }
}

TEST_P(TokenizerVectors, StreamingRemoveSpecialWithBos) {
  for (const Value& c : cases()) {
    const std::string& want = detokRemoveSpecial(c);
    const StreamResult r = streamDetokenize(*tok_, idsAddSpecial(c), {true, false});
    EXPECT_EQ(r.text, want) << c["id"].str();
    for (const std::string& chunk : r.chunks) EXPECT_TRUE(validUtf8(chunk)) << c["id"].str();
  }
}

INSTANTIATE_TEST_SUITE_P(Llama, TokenizerVectors,
                         ::testing::Values(VectorSet{"smollm2", "tokenizer-smollm2.json"},
                                           VectorSet{"stories260k", "tokenizer-stories260k.json"}),
                         [](const ::testing::TestParamInfo<VectorSet>& p) { return std::string(p.param.name); });

// Random text from a mix of scripts, digits, spaces and punctuation: byte-level BPE (no clean-up) and
// SentencePiece (byte fallback) both reproduce any valid UTF-8 exactly, and the stream agrees with the batch.
std::string randomText(std::mt19937& rng, bool allowMalformed) {
  static const char* const kUnits[] = {"a", "Z", "e", " ", "  ", "\n", "\t", "\r\n", "0", "7", "'s", "'T", ".", "!?",
                                       "\xC3\xA9", "\xC3\xBC", "\xE2\x80\x99", "\xE2\x82\xAC", "\xE4\xBD\xA0",
                                       "\xF0\x9F\x91\x8D", "\xC2\xA0", "\xD9\xA3", "<|im", "_start|>", "the", " the"};
  std::string s;
  const int n = static_cast<int>(rng() % 40);
  for (int i = 0; i < n; ++i) {
    if (allowMalformed && rng() % 10 == 0) {
      s.push_back(static_cast<char>(0x80 + rng() % 0x40));  // a stray continuation byte
    } else {
      s += kUnits[rng() % (sizeof kUnits / sizeof kUnits[0])];
    }
  }
  return s;
}

TEST(TokenizerRoundTrip, SmolLm2RandomValidText) {
  const Tokenizer* tok = smolModel().tokenizer.get();
  ASSERT_NE(tok, nullptr) << smolModel().error;
  std::mt19937 rng(11);
  for (int i = 0; i < 500; ++i) {
    const std::string text = randomText(rng, false);
    const std::vector<TokenId> ids = tok->tokenize(text, false, false);
    ASSERT_EQ(tok->detokenize(ids, false, false), text) << idsToString(ids);
    const StreamResult r = streamDetokenize(*tok, ids, {});
    ASSERT_EQ(r.text, text);
    for (const std::string& c : r.chunks) ASSERT_TRUE(validUtf8(c));
  }
}

TEST(TokenizerRoundTrip, Stories260kAnyBytes) {
  const Tokenizer* tok = storiesModel().tokenizer.get();
  ASSERT_NE(tok, nullptr) << storiesModel().error;
  std::mt19937 rng(12);
  for (int i = 0; i < 500; ++i) {
    const std::string text = randomText(rng, true);
    const std::vector<TokenId> ids = tok->tokenize(text, true, false);
    // Byte fallback keeps even malformed UTF-8; a removed BOS leaves the prefix space in place.
    ASSERT_EQ(tok->detokenize(ids, true, false), text.empty() ? "" : " " + text) << idsToString(ids);
    ASSERT_EQ(tok->detokenize(std::vector<TokenId>(ids.begin() + 1, ids.end()), false, false), text);
  }
  // llama.cpp splits SentencePiece input into "characters" by lead byte, so a broken lead byte swallows the
  // next bytes, here the first two bytes of the '▁' that stands for the space: the space comes back as '▁'.
  const std::vector<TokenId> ids = tok->tokenize("a\xEF the", false, false);
  EXPECT_EQ(tok->detokenize(ids, false, false), "a\xEF\xE2\x96\x81the");
}

// Speed on a long text (all vector texts, repeated): printed for the report; the round trip keeps it honest.
TEST(TokenizerSpeed, LongTextRoundTrip) {
  const Tokenizer* tok = smolModel().tokenizer.get();
  ASSERT_NE(tok, nullptr) << smolModel().error;
  std::string text;
  for (const Value& c : vectorFile("tokenizer-smollm2.json")["cases"].items()) {
    text += c["text"].str();
    text += '\n';
  }
  const std::string unit = text;
  while (text.size() < 256 * 1024) text += unit;

  std::vector<TokenId> ids;
  tok->tokenize(unit, false, false, ids);  // warm up
  ids.clear();
  const auto t0 = std::chrono::steady_clock::now();
  tok->tokenize(text, false, false, ids);
  const auto t1 = std::chrono::steady_clock::now();
  const std::string back = tok->detokenize(ids, false, true);
  const auto t2 = std::chrono::steady_clock::now();
  EXPECT_EQ(back, text);
  const double tokS = std::chrono::duration<double>(t1 - t0).count();
  const double detokS = std::chrono::duration<double>(t2 - t1).count();
  std::printf("[ speed    ] tokenize %zu bytes -> %zu tokens in %.3f s: %.0f tokens/s, %.1f MB/s; "
              "detokenize %.0f tokens/s\n",
              text.size(), ids.size(), tokS, static_cast<double>(ids.size()) / tokS, text.size() / tokS / 1e6,
              static_cast<double>(ids.size()) / detokS);
  RecordProperty("tokens_per_second", static_cast<int>(static_cast<double>(ids.size()) / tokS));
}

}  // namespace
}  // namespace sotto::llm::test
