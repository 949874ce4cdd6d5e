// SPDX-License-Identifier: MIT
// Tokenizer on hand-made vocabularies: BPE ranks, llama3's whole-word rule, special-token partition, SPM scores
// and byte fallback, detokenize clean-up, and every load error (from plain vectors and from GGUF metadata).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/llm/gguf.h"
#include "engine/llm/gguf_writer.h"
#include "engine/llm/tokenizer.h"
#include "engine/llm/unicode.h"

namespace sotto::llm {
namespace {

using Ids = std::vector<TokenId>;

// Raw text in the GPT-2 byte-level alphabet ("a b" -> "aĠb").
std::string bl(std::string_view raw) {
  std::string s;
  for (const char c : raw) s.append(unicode::byteToUnicode(static_cast<uint8_t>(c)));
  return s;
}

// A byte-level BPE vocabulary: the 256 byte characters (id = byte value), then `extra` (raw text, converted).
TokenizerVocab byteLevelVocab(std::string pre, const std::vector<std::string>& extra,
                              const std::vector<std::string>& mergesRaw) {
  TokenizerVocab v;
  v.model = "gpt2";
  v.pre = std::move(pre);
  for (int b = 0; b < 256; ++b) v.tokens.emplace_back(unicode::byteToUnicode(static_cast<uint8_t>(b)));
  for (const std::string& e : extra) v.tokens.push_back(bl(e));
  for (const std::string& m : mergesRaw) {
    const size_t sp = m.find('|');  // "left|right" in raw text, so that merges may involve spaces
    v.merges.push_back(bl(m.substr(0, sp)) + " " + bl(m.substr(sp + 1)));
  }
  return v;
}

std::unique_ptr<Tokenizer> make(TokenizerVocab v) {
  auto t = Tokenizer::fromVocab(std::move(v));
  EXPECT_TRUE(t.ok()) << (t.ok() ? "" : t.error().message);
  return t.ok() ? std::move(t).value() : nullptr;
}

TokenId idOf(const Tokenizer& t, std::string_view raw) { return t.find(bl(raw)); }

// --- BPE ----------------------------------------------------------------------------------------------------

TEST(TokenizerBpe, MergesApplyByRankNotByPosition) {
  // "b c" outranks "a b": abc -> a + bc -> abc.
  auto t = make(byteLevelVocab("gpt-2", {"ab", "bc", "abc"}, {"b|c", "a|b", "a|bc"}));
  ASSERT_TRUE(t);
  EXPECT_EQ(t->tokenize("abc", false, false), (Ids{idOf(*t, "abc")}));
  // Without "a bc", the rank-0 merge wins and "a" stays alone.
  auto u = make(byteLevelVocab("gpt-2", {"ab", "bc", "abc"}, {"b|c", "a|b"}));
  ASSERT_TRUE(u);
  EXPECT_EQ(u->tokenize("abc", false, false), (Ids{'a', idOf(*u, "bc")}));
  // Equal ranks resolve leftmost first: aaa -> aa + a.
  auto w = make(byteLevelVocab("gpt-2", {"aa"}, {"a|a"}));
  ASSERT_TRUE(w);
  EXPECT_EQ(w->tokenize("aaa", false, false), (Ids{idOf(*w, "aa"), 'a'}));
}

TEST(TokenizerBpe, MergeOutsideVocabularyFallsBackToBytes) {
  // The merge exists but "xy" is no token: llama.cpp emits the bytes of the merged symbol that are tokens.
  auto t = make(byteLevelVocab("gpt-2", {}, {"x|y"}));
  ASSERT_TRUE(t);
  EXPECT_EQ(t->tokenize("xy", false, false), (Ids{'x', 'y'}));
}

TEST(TokenizerBpe, SpacesBecomeByteLevelCharacters) {
  auto t = make(byteLevelVocab("gpt-2", {" the", "\n\n"}, {" |t", "t|h", " t|h", " th|e", "\n|\n"}));
  ASSERT_TRUE(t);
  const Ids ids = t->tokenize("the the\n\n", false, false);
  EXPECT_EQ(ids, (Ids{'t', 'h', 'e', idOf(*t, " the"), idOf(*t, "\n\n")}));
  EXPECT_EQ(t->tokenText(idOf(*t, " the")), "\xC4\xA0the");
  EXPECT_EQ(t->detokenize(ids, false, false), "the the\n\n");
}

TEST(TokenizerBpe, Llama3TakesWholeWordsFromTheVocabulary) {
  // llama3 (ignore_merges): a pre-token that is itself a token is used even though no merge builds it.
  auto llama3 = make(byteLevelVocab("llama3", {"hello"}, {}));
  ASSERT_TRUE(llama3);
  EXPECT_EQ(llama3->tokenize("hello", false, false), (Ids{idOf(*llama3, "hello")}));
  EXPECT_TRUE(llama3->addBos());  // llama3 vocabularies add BOS unless the file says otherwise
  // The GPT-2 rules have no such shortcut.
  auto gpt2 = make(byteLevelVocab("gpt-2", {"hello"}, {}));
  ASSERT_TRUE(gpt2);
  EXPECT_EQ(gpt2->tokenize("hello", false, false), (Ids{'h', 'e', 'l', 'l', 'o'}));
  EXPECT_FALSE(gpt2->addBos());
}

TEST(TokenizerBpe, Qwen2AndLlama3DigitGroupsReachTheTokens) {
  auto llama3 = make(byteLevelVocab("llama-bpe", {"123", "45"}, {}));
  ASSERT_TRUE(llama3);
  EXPECT_EQ(llama3->tokenize("12345", false, false), (Ids{idOf(*llama3, "123"), idOf(*llama3, "45")}));
  auto qwen = make(byteLevelVocab("qwen2", {"123", "45"}, {}));
  ASSERT_TRUE(qwen);
  EXPECT_EQ(qwen->tokenize("12345", false, false), (Ids{'1', '2', '3', '4', '5'}));
}

TEST(TokenizerBpe, SpecialTokensLongestFirst) {
  TokenizerVocab v = byteLevelVocab("gpt-2", {}, {});
  v.tokens.push_back("<|im_start|>");  // 256: control
  v.tokens.push_back("<|im");          // 257: user-defined, a prefix of the control token
  v.tokenTypes.assign(v.tokens.size(), static_cast<int32_t>(TokenType::normal));
  v.tokenTypes[256] = static_cast<int32_t>(TokenType::control);
  v.tokenTypes[257] = static_cast<int32_t>(TokenType::userDefined);
  auto t = make(std::move(v));
  ASSERT_TRUE(t);
  // The longer token is matched first, so "<|im" only takes what is left.
  EXPECT_EQ(t->tokenize("<|im_start|>x<|im", false, true), (Ids{256, 'x', 257}));
  // Without parse_special, control text is plain text, but user-defined tokens are still matched.
  EXPECT_EQ(t->tokenize("<|im_start|>", false, false),
            (Ids{257, '_', 's', 't', 'a', 'r', 't', '|', '>'}));
  // Control tokens render only when asked to.
  EXPECT_EQ(t->detokenize(Ids{256, 'x'}, false, true), "<|im_start|>x");
  EXPECT_EQ(t->detokenize(Ids{256, 'x'}, false, false), "x");
  EXPECT_EQ(t->tokenToPiece(257, false), "<|im");  // user-defined always renders
}

TEST(TokenizerBpe, EndOfTurnTokensAreControlAndEog) {
  TokenizerVocab v = byteLevelVocab("qwen2", {}, {});
  v.tokens.push_back("<|endoftext|>");  // 256
  v.tokens.push_back("<|im_end|>");     // 257, declared normal: llama.cpp forces control
  v.eosId = 256;
  auto t = make(std::move(v));
  ASSERT_TRUE(t);
  EXPECT_TRUE(t->isControl(257));
  EXPECT_TRUE(t->isEog(256));
  EXPECT_TRUE(t->isEog(257));
  EXPECT_FALSE(t->isEog('a'));
  EXPECT_EQ(t->eot(), 256);  // the first end-of-turn text by id
  EXPECT_EQ(t->tokenize("a<|im_end|>", false, true), (Ids{'a', 257}));
}

TEST(TokenizerBpe, DetokenizeCleanSpacesForGpt2StyleVocabularies) {
  const std::vector<std::string> words = {" ,", " .", " world", " '", " 's", " 't", " 're", " 'll", "Hello"};
  auto clean = make(byteLevelVocab("gpt-2", words, {}));
  auto raw = make(byteLevelVocab("smollm", words, {}));
  ASSERT_TRUE(clean && raw);
  EXPECT_TRUE(clean->cleanSpaces());
  EXPECT_FALSE(raw->cleanSpaces());
  auto ids = [&](const Tokenizer& t, std::initializer_list<const char*> ws) {
    Ids out;
    for (const char* w : ws) out.push_back(idOf(t, w));
    return out;
  };
  const auto hello = {"Hello", " ,", " world", " ."};
  EXPECT_EQ(clean->detokenize(ids(*clean, hello), false, false), "Hello, world.");
  EXPECT_EQ(raw->detokenize(ids(*raw, hello), false, false), "Hello , world .");
  // " 's" / " 're" lose the space, " 't" / " 'll" keep it (llama.cpp's table).
  EXPECT_EQ(clean->detokenize(ids(*clean, {"Hello", " 's", " 're", " 't", " 'll"}), false, false),
            "Hello's're 't 'll");
  // A lone apostrophe between spaces loses both spaces.
  EXPECT_EQ(clean->detokenize(ids(*clean, {"Hello", " '", " world"}), false, false), "Hello'world");
}

TEST(TokenizerBpe, UnknownIdsRenderAsNothing) {
  auto t = make(byteLevelVocab("gpt-2", {}, {}));
  ASSERT_TRUE(t);
  EXPECT_EQ(t->detokenize(Ids{'a', -5, 100000, 'b'}, false, true), "ab");
  EXPECT_EQ(t->tokenToPiece(100000), "");
  EXPECT_EQ(t->tokenText(-1), "");
}

// --- SentencePiece ------------------------------------------------------------------------------------------

// <unk> <s> </s>, the 256 <0xNN> byte tokens, then pieces with scores.
TokenizerVocab spmVocab(const std::vector<std::pair<std::string, float>>& pieces) {
  TokenizerVocab v;
  v.model = "llama";
  v.tokens = {"<unk>", "<s>", "</s>"};
  v.tokenTypes = {static_cast<int32_t>(TokenType::unknown), static_cast<int32_t>(TokenType::control),
                  static_cast<int32_t>(TokenType::control)};
  v.scores = {0, 0, 0};
  for (int b = 0; b < 256; ++b) {
    char hex[8];
    std::snprintf(hex, sizeof hex, "<0x%02X>", b);
    v.tokens.emplace_back(hex);
    v.tokenTypes.push_back(static_cast<int32_t>(TokenType::byte));
    v.scores.push_back(0);
  }
  for (const auto& [text, score] : pieces) {
    v.tokens.push_back(text);
    v.tokenTypes.push_back(static_cast<int32_t>(TokenType::normal));
    v.scores.push_back(score);
  }
  return v;
}

constexpr TokenId kFirstPiece = 3 + 256;

TEST(TokenizerSpm, HigherScoreMergesFirst) {
  // Pieces: ▁ a b ▁a ab. "ab" scores higher than "▁a", so " ab" -> ▁ + ab (▁ab is not a piece).
  auto t = make(spmVocab({{"\xE2\x96\x81", -1}, {"a", -1}, {"b", -1}, {"\xE2\x96\x81" "a", -3}, {"ab", -2}}));
  ASSERT_TRUE(t);
  EXPECT_EQ(t->tokenize("ab", false, false), (Ids{kFirstPiece + 0, kFirstPiece + 4}));
  // The other way round when "▁a" scores higher.
  auto u = make(spmVocab({{"\xE2\x96\x81", -1}, {"a", -1}, {"b", -1}, {"\xE2\x96\x81" "a", -2}, {"ab", -3}}));
  ASSERT_TRUE(u);
  EXPECT_EQ(u->tokenize("ab", false, false), (Ids{kFirstPiece + 3, kFirstPiece + 2}));
}

TEST(TokenizerSpm, ByteFallbackAndSpacePrefix) {
  auto t = make(spmVocab({{"\xE2\x96\x81", -1}, {"a", -1}}));
  ASSERT_TRUE(t);
  // "é" is no piece: its two UTF-8 bytes become <0xC3> <0xA9> (id 3 + byte).
  EXPECT_EQ(t->tokenize("a\xC3\xA9", false, false), (Ids{kFirstPiece, kFirstPiece + 1, 3 + 0xC3, 3 + 0xA9}));
  // BOS when adding special tokens; "" stays empty without it.
  EXPECT_EQ(t->tokenize("", true, false), (Ids{1}));
  EXPECT_EQ(t->tokenize("", false, false), (Ids{}));
  // Text after a special token gets its own prefix space (llama.cpp quirk): a<s>a -> ▁ a <s> ▁ a.
  EXPECT_EQ(t->tokenize("a<s>a", false, true), (Ids{kFirstPiece, kFirstPiece + 1, 1, kFirstPiece, kFirstPiece + 1}));
  // Detokenize removes the first piece's leading space, unless a removed BOS came first.
  const Ids withBos = t->tokenize("a", true, false);
  EXPECT_EQ(t->detokenize(withBos, false, true), "<s> a");
  EXPECT_EQ(t->detokenize(withBos, true, false), " a");
  EXPECT_EQ(t->detokenize(Ids{kFirstPiece, kFirstPiece + 1}, false, false), "a");
  // Byte tokens render as their byte.
  EXPECT_EQ(t->detokenize(Ids{3 + 0xC3, 3 + 0xA9}, false, false), "\xC3\xA9");
}

TEST(TokenizerSpm, AddSpacePrefixCanBeTurnedOff) {
  TokenizerVocab v = spmVocab({{"\xE2\x96\x81", -1}, {"a", -1}});
  v.addSpacePrefix = false;
  auto t = make(std::move(v));
  ASSERT_TRUE(t);
  EXPECT_EQ(t->tokenize("a a", false, false), (Ids{kFirstPiece + 1, kFirstPiece, kFirstPiece + 1}));
}

// --- load errors --------------------------------------------------------------------------------------------

std::string loadError(TokenizerVocab v) {
  auto t = Tokenizer::fromVocab(std::move(v));
  return t.ok() ? std::string("(loaded)") : t.error().message;
}

TEST(TokenizerLoad, ErrorsNameTheProblem) {
  TokenizerVocab bert = byteLevelVocab("gpt-2", {}, {});
  bert.model = "bert";
  EXPECT_NE(loadError(bert).find("'bert'"), std::string::npos) << loadError(bert);
  EXPECT_NE(loadError(byteLevelVocab("falcon", {}, {})).find("'falcon'"), std::string::npos);

  TokenizerVocab dup = byteLevelVocab("gpt-2", {"a"}, {});  // "a" already is byte token 97
  EXPECT_NE(loadError(dup).find("duplicate"), std::string::npos) << loadError(dup);

  TokenizerVocab noBos = byteLevelVocab("gpt-2", {}, {});
  noBos.addBos = true;
  noBos.bosId = -1;
  EXPECT_NE(loadError(noBos).find("bos_token_id"), std::string::npos) << loadError(noBos);

  TokenizerVocab shortScores = spmVocab({});
  shortScores.scores.resize(10);
  EXPECT_NE(loadError(shortScores).find("scores"), std::string::npos);

  TokenizerVocab empty;
  empty.model = "llama";
  EXPECT_NE(loadError(empty).find("empty"), std::string::npos);
}

TEST(TokenizerLoad, SpecialIdsOutsideTheVocabularyKeepDefaults) {
  TokenizerVocab v = spmVocab({});
  v.bosId = 100000;  // llama.cpp warns and keeps the default (1)
  auto t = make(std::move(v));
  ASSERT_TRUE(t);
  EXPECT_EQ(t->bos(), 1);
  EXPECT_EQ(t->unk(), 0);
  // Empty token texts get a placeholder so ids stay unique.
  TokenizerVocab e = spmVocab({{"", -1}});
  auto u = make(std::move(e));
  ASSERT_TRUE(u);
  EXPECT_EQ(u->tokenText(kFirstPiece), "[EMPTY_" + std::to_string(kFirstPiece) + "]");
}

// GGUF metadata: a writer-built file per case. The file and its bytes go away before the tokenizer is used:
// it must have copied everything it needs.
Result<std::unique_ptr<Tokenizer>> fromMetadata(const GgufWriter& w) {
  const std::vector<uint8_t> bytes = w.toBytes();
  auto f = GgufFile::fromBytes(bytes, "test.gguf");
  if (!f) return std::move(f).error();
  return Tokenizer::fromGguf(**f);
}

void addByteLevelVocab(GgufWriter& w, std::string_view pre) {
  std::vector<std::string> tokens;
  for (int b = 0; b < 256; ++b) tokens.emplace_back(unicode::byteToUnicode(static_cast<uint8_t>(b)));
  tokens.push_back("ab");
  tokens.push_back("<|eot_id|>");
  std::vector<int32_t> types(tokens.size(), 1);
  types.back() = 3;
  const std::vector<std::string> merges = {"a b"};
  ASSERT_TRUE(w.addString("tokenizer.ggml.model", "gpt2").ok());
  ASSERT_TRUE(w.addString("tokenizer.ggml.pre", pre).ok());
  ASSERT_TRUE(w.addStringArray("tokenizer.ggml.tokens", std::span<const std::string>(tokens)).ok());
  ASSERT_TRUE(w.addArray("tokenizer.ggml.token_type", std::span<const int32_t>(types)).ok());
  ASSERT_TRUE(w.addStringArray("tokenizer.ggml.merges", std::span<const std::string>(merges)).ok());
}

TEST(TokenizerGguf, ReadsLlama3Metadata) {
  GgufWriter w;
  addByteLevelVocab(w, "llama-bpe");
  ASSERT_TRUE(w.addU32("tokenizer.ggml.bos_token_id", 257).ok());
  ASSERT_TRUE(w.addU32("tokenizer.ggml.eos_token_id", 257).ok());
  ASSERT_TRUE(w.addBool("tokenizer.ggml.add_bos_token", true).ok());
  auto t = fromMetadata(w);
  ASSERT_TRUE(t.ok()) << t.error().message;
  EXPECT_EQ((*t)->preTokenizer(), BpePreTokenizer::llama3);
  EXPECT_EQ((*t)->tokenize("ab<|eot_id|>", true, true), (Ids{257, 256, 257}));
  EXPECT_TRUE((*t)->isEog(257));
}

TEST(TokenizerGguf, ErrorsNameTheKey) {
  {
    GgufWriter w;
    ASSERT_TRUE(w.addString("general.architecture", "llama").ok());
    auto t = fromMetadata(w);
    ASSERT_FALSE(t.ok());
    EXPECT_NE(t.error().message.find("tokenizer.ggml.model"), std::string::npos) << t.error().message;
  }
  {
    GgufWriter w;
    addByteLevelVocab(w, "tekken");
    auto t = fromMetadata(w);
    ASSERT_FALSE(t.ok());
    EXPECT_EQ(t.error().code, Errc::unsupported);
    EXPECT_NE(t.error().message.find("'tekken'"), std::string::npos) << t.error().message;
    EXPECT_NE(t.error().message.find("test.gguf"), std::string::npos) << t.error().message;
  }
  {
    GgufWriter w;
    ASSERT_TRUE(w.addString("tokenizer.ggml.model", "gpt2").ok());
    const std::vector<std::string> tokens = {"a", "b"};
    ASSERT_TRUE(w.addStringArray("tokenizer.ggml.tokens", std::span<const std::string>(tokens)).ok());
    auto t = fromMetadata(w);
    ASSERT_FALSE(t.ok());
    EXPECT_NE(t.error().message.find("tokenizer.ggml.merges"), std::string::npos) << t.error().message;
  }
  {
    GgufWriter w;
    ASSERT_TRUE(w.addString("tokenizer.ggml.model", "llama").ok());
    const std::vector<int32_t> notStrings = {1, 2};
    ASSERT_TRUE(w.addArray("tokenizer.ggml.tokens", std::span<const int32_t>(notStrings)).ok());
    auto t = fromMetadata(w);
    ASSERT_FALSE(t.ok());
    EXPECT_NE(t.error().message.find("tokenizer.ggml.tokens"), std::string::npos) << t.error().message;
  }
}

}  // namespace
}  // namespace sotto::llm
