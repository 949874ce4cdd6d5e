// SPDX-License-Identifier: MIT
// StreamingDetokenizer: characters split across tokens, malformed bytes, SentencePiece's leading space, held
// EOS, the clean-up passes (randomized against the batch port), reset, and no allocations while streaming.
#include <gtest/gtest.h>

#include <random>

#include "engine/llm/unicode.h"
#include "tests/llm_tokenizer/tokenizer_test_util.h"
#include "tests/support/alloc_counter.h"

namespace sotto::llm::test {
namespace {

using Ids = std::vector<TokenId>;

TEST(TokenizerStreaming, EmojiSplitOverThreeByteLevelTokens) {
  const Tokenizer* tok = smolModel().tokenizer.get();
  ASSERT_NE(tok, nullptr) << smolModel().error;
  const Ids ids = tok->tokenize("ok \xF0\x9F\x91\x8D!", false, false);
  // "ok", "Ġ", then 👍 as three pieces (README: emoji fall apart into byte-level pieces), then "!".
  ASSERT_GE(ids.size(), 5u);
  StreamingDetokenizer s(*tok, {});
  std::vector<std::string> chunks;
  for (const TokenId id : ids) chunks.emplace_back(s.push(id));
  chunks.emplace_back(s.flush());
  std::string all;
  for (const std::string& c : chunks) {
    EXPECT_TRUE(validUtf8(c)) << c;
    all += c;
  }
  EXPECT_EQ(all, "ok \xF0\x9F\x91\x8D!");
  // The emoji appears whole in exactly one chunk, when its last piece arrives.
  size_t withEmoji = 0;
  for (const std::string& c : chunks) withEmoji += c.find("\xF0\x9F\x91\x8D") != std::string::npos;
  EXPECT_EQ(withEmoji, 1u);
}

TEST(TokenizerStreaming, SentencePieceLeadingSpace) {
  const Tokenizer* tok = storiesModel().tokenizer.get();
  ASSERT_NE(tok, nullptr) << storiesModel().error;
  const Ids plain = tok->tokenize("Once upon a time", false, false);
  EXPECT_EQ(streamDetokenize(*tok, plain, {}).text, "Once upon a time");  // first piece's space stripped
  const Ids withBos = tok->tokenize("Once upon a time", true, false);
  EXPECT_EQ(streamDetokenize(*tok, withBos, {true, false}).text, " Once upon a time");  // kept after removed BOS
  EXPECT_EQ(streamDetokenize(*tok, withBos, {false, true}).text, "<s> Once upon a time");
  EXPECT_EQ(streamDetokenize(*tok, withBos, {false, false}).text, " Once upon a time");  // BOS took the strip
  // Byte-fallback pieces (ï is no piece in this vocabulary) are held until the character is complete.
  const Ids bytes = tok->tokenize("na\xC3\xAFve", false, false);
  const StreamResult r = streamDetokenize(*tok, bytes, {});
  EXPECT_EQ(r.text, "na\xC3\xAFve");
  for (const std::string& c : r.chunks) EXPECT_TRUE(validUtf8(c));
}

// A byte-level vocabulary: ids 0-255 are the single bytes, so any byte sequence can be streamed.
std::unique_ptr<Tokenizer> byteVocab(std::string pre, const std::vector<std::string>& extraRaw = {}) {
  TokenizerVocab v;
  v.model = "gpt2";
  v.pre = std::move(pre);
  for (int b = 0; b < 256; ++b) v.tokens.emplace_back(unicode::byteToUnicode(static_cast<uint8_t>(b)));
  for (const std::string& e : extraRaw) {
    std::string t;
    for (const char c : e) t.append(unicode::byteToUnicode(static_cast<uint8_t>(c)));
    v.tokens.push_back(t);
  }
  v.tokens.push_back("<|end|>");  // control
  v.tokenTypes.assign(v.tokens.size(), static_cast<int32_t>(TokenType::normal));
  v.tokenTypes.back() = static_cast<int32_t>(TokenType::control);
  v.eosId = static_cast<int64_t>(v.tokens.size() - 1);
  v.addEos = true;
  auto t = Tokenizer::fromVocab(std::move(v));
  EXPECT_TRUE(t.ok()) << (t.ok() ? "" : t.error().message);
  return t.ok() ? std::move(t).value() : nullptr;
}

TEST(TokenizerStreaming, MalformedBytesBecomeReplacementCharacters) {
  auto tok = byteVocab("smollm");
  ASSERT_TRUE(tok);
  StreamingDetokenizer s(*tok, {});
  EXPECT_EQ(s.push(0xE2), "");                      // could start a 3-byte character: held
  EXPECT_EQ(s.push('a'), "\xEF\xBF\xBD" "a");       // it did not
  EXPECT_EQ(s.push(0xFF), "\xEF\xBF\xBD");          // never valid
  EXPECT_EQ(s.push(0xC3), "");
  EXPECT_EQ(s.push(0xA9), "\xC3\xA9");              // é completed
  EXPECT_EQ(s.push(0xF0), "");
  EXPECT_EQ(s.push(0x9F), "");
  EXPECT_EQ(s.flush(), "\xEF\xBF\xBD");             // cut off at the end: one replacement for the prefix
  EXPECT_EQ(s.push(0xED), "");
  EXPECT_EQ(s.push(0xA0), "\xEF\xBF\xBD\xEF\xBF\xBD");  // a surrogate: ED, then A0 alone
}

TEST(TokenizerStreaming, HeldEosIsDroppedOnlyAtTheEnd) {
  auto tok = byteVocab("smollm");
  ASSERT_TRUE(tok);
  const TokenId eos = tok->eos();
  // removeSpecial drops a final EOS when the vocabulary adds one; with unparseSpecial an EOS elsewhere shows.
  for (const Ids& ids : {Ids{'a', eos}, Ids{eos, 'a'}, Ids{'a', eos, 'b', eos}, Ids{eos}, Ids{eos, eos}}) {
    for (const bool unparse : {false, true}) {
      const std::string want = tok->detokenize(ids, true, unparse);
      EXPECT_EQ(streamDetokenize(*tok, ids, {true, unparse}).text, want) << idsToString(ids);
    }
  }
  EXPECT_EQ(tok->detokenize(Ids{eos, 'a', eos}, true, true), "<|end|>a");
}

// Random streams over a vocabulary with llama.cpp's clean-up (gpt-2) must equal the batch port byte for byte,
// whatever the token boundaries. Units keep the text valid UTF-8 so that the comparison is exact.
TEST(TokenizerStreaming, CleanSpacesStreamEqualsBatch) {
  const std::vector<std::string> extra = {" '", "' ", " 's", " 're", "ve", " .", "ll ", "'t", "  ", " ?"};
  auto clean = byteVocab("gpt-2", extra);
  ASSERT_TRUE(clean);
  ASSERT_TRUE(clean->cleanSpaces());
  const std::vector<std::string> units = {" ", "'", "s", "m", "r", "e", "v", "l", "t", "d", ".", ",", "?",
                                          "!", "a", "\xC3\xA9", "\xF0\x9F\x91\x8D"};
  std::mt19937 rng(7);
  size_t checked = 0;
  for (int iter = 0; iter < 3000; ++iter) {
    Ids ids;
    const int len = static_cast<int>(rng() % 24);
    for (int i = 0; i < len; ++i) {
      if (rng() % 4 == 0) {  // a multi-byte token
        ids.push_back(static_cast<TokenId>(256 + rng() % extra.size()));
        continue;
      }
      const std::string& u = units[rng() % units.size()];
      for (const char c : u) ids.push_back(static_cast<uint8_t>(c));  // characters split into byte tokens
    }
    if (rng() % 5 == 0) ids.push_back(clean->eos());
    for (const bool removeSpecial : {false, true}) {
      for (const bool unparse : {false, true}) {
        const std::string want = clean->detokenize(ids, removeSpecial, unparse);
        ASSERT_TRUE(validUtf8(want));
        const StreamResult r = streamDetokenize(*clean, ids, {removeSpecial, unparse});
        ASSERT_EQ(r.text, want) << idsToString(ids) << " remove=" << removeSpecial << " unparse=" << unparse;
        for (const std::string& c : r.chunks) ASSERT_TRUE(validUtf8(c));
        ++checked;
      }
    }
  }
  EXPECT_EQ(checked, 12000u);
}

TEST(TokenizerStreaming, CleanSpacesHoldsOnlyWhatTheNextTokenDecides) {
  auto clean = byteVocab("gpt-2", {" .", " '"});
  ASSERT_TRUE(clean);
  StreamingDetokenizer s(*clean, {});
  EXPECT_EQ(s.push('H'), "H");     // the clean-up only ever deletes spaces: other bytes go out at once
  EXPECT_EQ(s.push('i'), "i");
  EXPECT_EQ(s.push(256), ".");     // " ." : the space is dropped
  EXPECT_EQ(s.push(' '), "");      // a space waits for the next byte
  EXPECT_EQ(s.push('a'), " a");
  EXPECT_EQ(s.push(257), "");      // " '" : the apostrophe after a space waits for its neighbours
  EXPECT_EQ(s.push('s'), "'s");    // " 's" loses the space
  EXPECT_EQ(s.push(' '), "");
  EXPECT_EQ(s.flush(), " ");
}

TEST(TokenizerStreaming, ResetForgetsPartialState) {
  auto tok = byteVocab("smollm");
  ASSERT_TRUE(tok);
  StreamingDetokenizer s(*tok, {});
  EXPECT_EQ(s.push(0xE2), "");
  s.reset();
  EXPECT_EQ(s.push('a'), "a");
  EXPECT_EQ(s.flush(), "");
  // After flush the stream starts over: a SentencePiece stream strips the first space again.
  const Tokenizer* spm = storiesModel().tokenizer.get();
  ASSERT_NE(spm, nullptr) << storiesModel().error;
  StreamingDetokenizer t(*spm, {});
  const Ids ids = spm->tokenize("Lily", false, false);
  std::string first, second;
  for (const TokenId id : ids) first += t.push(id);
  first += t.flush();
  for (const TokenId id : ids) second += t.push(id);
  second += t.flush();
  EXPECT_EQ(first, "Lily");
  EXPECT_EQ(second, "Lily");
}

TEST(TokenizerStreaming, NoAllocationsWhileStreaming) {
  if (!sotto::test::AllocCounter::supported()) GTEST_SKIP() << "allocation counting unavailable in this build";
  const Tokenizer* tok = smolModel().tokenizer.get();
  ASSERT_NE(tok, nullptr) << smolModel().error;
  const std::string text = "Gr\xC3\xBC\xC3\x9F" "e \xF0\x9F\x91\x8D \xE4\xBD\xA0\xE5\xA5\xBD, it's 42 o'clock.\n";
  const Ids ids = tok->tokenize(text, false, true);
  StreamingDetokenizer s(*tok, {false, true});
  size_t bytes = 0;
  const sotto::test::NoAllocScope scope;
  for (int round = 0; round < 50; ++round) {
    for (const TokenId id : ids) bytes += s.push(id).size();
    bytes += s.flush().size();
  }
  EXPECT_EQ(scope.allocations(), 0u);
  EXPECT_GT(bytes, 0u);
}

}  // namespace
}  // namespace sotto::llm::test
