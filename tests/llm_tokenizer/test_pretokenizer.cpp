// SPDX-License-Identifier: MIT
// BPE pre-tokenizer rules per tokenizer.ggml.pre, on tricky strings. There are no llama.cpp vectors for llama3,
// qwen2 or the default rules, so each expectation is derived by hand from the family's regex (quoted in
// bpe_pretokenizer.h/.cpp) and llama.cpp's way of applying it; the comments say why.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/llm/bpe_pretokenizer.h"
#include "engine/llm/unicode.h"

namespace sotto::llm {
namespace {

using Words = std::vector<std::string>;

Words split(BpePreTokenizer pre, std::string_view text) { return preTokenizeText(pre, text); }

TEST(PreTokenizerNames, KnownAndUnknown) {
  EXPECT_EQ(bpePreTokenizerFromName("smollm"), BpePreTokenizer::smollm);
  EXPECT_EQ(bpePreTokenizerFromName("llama-bpe"), BpePreTokenizer::llama3);
  EXPECT_EQ(bpePreTokenizerFromName("llama3"), BpePreTokenizer::llama3);
  EXPECT_EQ(bpePreTokenizerFromName("qwen2"), BpePreTokenizer::qwen2);
  EXPECT_EQ(bpePreTokenizerFromName("gpt-2"), BpePreTokenizer::gpt2);
  EXPECT_EQ(bpePreTokenizerFromName(""), BpePreTokenizer::defaultRules);
  EXPECT_EQ(bpePreTokenizerFromName("default"), BpePreTokenizer::defaultRules);
  EXPECT_FALSE(bpePreTokenizerFromName("falcon").has_value());
  EXPECT_FALSE(bpePreTokenizerFromName("SMOLLM").has_value());  // names are exact, as in llama.cpp
}

// --- llama3 -------------------------------------------------------------------------------------------------

TEST(PreTokenizerLlama3, DigitsGroupInThrees) {
  // \p{N}{1,3}: greedy groups of three from the left, the remainder last.
  EXPECT_EQ(split(BpePreTokenizer::llama3, "1234567"), (Words{"123", "456", "7"}));
  // A letter ends the number; letters and digits never share a word.
  EXPECT_EQ(split(BpePreTokenizer::llama3, "a12345b"), (Words{"a", "123", "45", "b"}));
  // A space before a number is not taken by it (only letters take a leading character): it is a word of its own.
  EXPECT_EQ(split(BpePreTokenizer::llama3, "in 2024"), (Words{"in", " ", "202", "4"}));
  // Non-ASCII numbers (Arabic-Indic digits, superscripts) are \p{N} too.
  EXPECT_EQ(split(BpePreTokenizer::llama3, "\xD9\xA1\xD9\xA2\xD9\xA3\xD9\xA4"),
            (Words{"\xD9\xA1\xD9\xA2\xD9\xA3", "\xD9\xA4"}));
  EXPECT_EQ(split(BpePreTokenizer::llama3, "x\xC2\xB2\xC2\xB3"), (Words{"x", "\xC2\xB2\xC2\xB3"}));
}

TEST(PreTokenizerLlama3, ContractionsIgnoreCase) {
  // (?i:'s|'t|'re|'ve|'m|'ll|'d): any case, split off the word before.
  EXPECT_EQ(split(BpePreTokenizer::llama3, "I'm DON'T you'LL We'Re"),
            (Words{"I", "'m", " DON", "'T", " you", "'LL", " We", "'Re"}));
  // Not a contraction: the apostrophe is a leading non-letter and joins the letters after it.
  EXPECT_EQ(split(BpePreTokenizer::llama3, "rock'n'roll"), (Words{"rock", "'n", "'roll"}));
  // The typographic apostrophe is punctuation, never a contraction.
  EXPECT_EQ(split(BpePreTokenizer::llama3, "don\xE2\x80\x99t"), (Words{"don", "\xE2\x80\x99t"}));
}

TEST(PreTokenizerLlama3, PunctuationAndNewlines) {
  // ' ?[^\s\p{L}\p{N}]+[\r\n]*' keeps trailing newlines with the punctuation.
  EXPECT_EQ(split(BpePreTokenizer::llama3, "Hi!!\n\nOk"), (Words{"Hi", "!!\n\n", "Ok"}));
  // A single leading non-letter (here ',') joins the following letters: [^\r\n\p{L}\p{N}]?\p{L}+.
  EXPECT_EQ(split(BpePreTokenizer::llama3, "a,b"), (Words{"a", ",b"}));
  // '\n' cannot lead a word: \s*[\r\n]+ takes the spaces up to the last newline.
  EXPECT_EQ(split(BpePreTokenizer::llama3, "a  \n  b"), (Words{"a", "  \n", " ", " b"}));
  EXPECT_EQ(split(BpePreTokenizer::llama3, "x\r\ny"), (Words{"x", "\r\n", "y"}));
  // Trailing spaces at the end of the text: \s+(?!\S) takes them all.
  EXPECT_EQ(split(BpePreTokenizer::llama3, "end   "), (Words{"end", "   "}));
}

TEST(PreTokenizerLlama3, UnicodeClasses) {
  // Accented and CJK letters are \p{L}; a no-break space (White_Space, not \r\n) may lead a word.
  EXPECT_EQ(split(BpePreTokenizer::llama3, "na\xC3\xAFve caf\xC3\xA9"), (Words{"na\xC3\xAFve", " caf\xC3\xA9"}));
  EXPECT_EQ(split(BpePreTokenizer::llama3, "a\xC2\xA0" "b"), (Words{"a", "\xC2\xA0" "b"}));
  EXPECT_EQ(split(BpePreTokenizer::llama3, "\xE4\xBD\xA0\xE5\xA5\xBD!"), (Words{"\xE4\xBD\xA0\xE5\xA5\xBD", "!"}));
  // A combining mark (\p{M}) is not a letter: it ends the word and starts a punctuation-like one.
  EXPECT_EQ(split(BpePreTokenizer::llama3, "cafe\xCC\x81 ok"), (Words{"cafe", "\xCC\x81", " ok"}));
  // Emoji are symbols: one run.
  EXPECT_EQ(split(BpePreTokenizer::llama3, "ok \xF0\x9F\x91\x8D\xF0\x9F\x91\x8D"),
            (Words{"ok", " \xF0\x9F\x91\x8D\xF0\x9F\x91\x8D"}));
}

// --- qwen2: the llama3 expression with single digits --------------------------------------------------------

TEST(PreTokenizerQwen2, DigitsOneByOne) {
  EXPECT_EQ(split(BpePreTokenizer::qwen2, "1234"), (Words{"1", "2", "3", "4"}));
  EXPECT_EQ(split(BpePreTokenizer::qwen2, "2024\xE5\xB9\xB4"), (Words{"2", "0", "2", "4", "\xE5\xB9\xB4"}));
  EXPECT_EQ(split(BpePreTokenizer::qwen2, "v1.25"), (Words{"v", "1", ".", "2", "5"}));
}

TEST(PreTokenizerQwen2, SharesTheLlama3Rules) {
  EXPECT_EQ(split(BpePreTokenizer::qwen2, "You'RE here.\n\n"), (Words{"You", "'RE", " here", ".\n\n"}));
  EXPECT_EQ(split(BpePreTokenizer::qwen2, "a  \n  b"), (Words{"a", "  \n", " ", " b"}));
}

// --- GPT-2 and SmolLM ---------------------------------------------------------------------------------------

TEST(PreTokenizerGpt2, CaseSensitiveContractions) {
  // 's|'t|... are lower case only: "'T" splits into punctuation and a letter word.
  EXPECT_EQ(split(BpePreTokenizer::gpt2, "don't DON'T"), (Words{"don", "'t", " DON", "'", "T"}));
  // A space joins only the next word (letters, numbers or other symbols), never the contraction.
  EXPECT_EQ(split(BpePreTokenizer::gpt2, "it 's"), (Words{"it", " '", "s"}));
}

TEST(PreTokenizerGpt2, Spaces) {
  // \s+(?!\S): a run of spaces leaves its last space to the next word.
  EXPECT_EQ(split(BpePreTokenizer::gpt2, "a   ten"), (Words{"a", "  ", " ten"}));
  EXPECT_EQ(split(BpePreTokenizer::gpt2, "a   \n   b"), (Words{"a", "   \n  ", " b"}));
  EXPECT_EQ(split(BpePreTokenizer::gpt2, "x  "), (Words{"x", "  "}));
  // Numbers keep their leading space here (the SmolLM digit split is what separates it).
  EXPECT_EQ(split(BpePreTokenizer::gpt2, "at 1234"), (Words{"at", " 1234"}));
}

TEST(PreTokenizerSmolLm, EveryDigitAlone) {
  // \p{N} first, then the GPT-2 rules inside each piece: the space before a digit ends its piece and stands
  // alone (the vectors' "at 09" -> at, Ġ, 0, 9).
  EXPECT_EQ(split(BpePreTokenizer::smollm, "at 09"), (Words{"at", " ", "0", "9"}));
  EXPECT_EQ(split(BpePreTokenizer::smollm, "x\xC2\xB2+1"), (Words{"x", "\xC2\xB2", "+", "1"}));
  EXPECT_EQ(split(BpePreTokenizer::smollm, "DON'T"), (Words{"DON", "'", "T"}));
}

// --- default (missing tokenizer.ggml.pre) -------------------------------------------------------------------

TEST(PreTokenizerDefault, FourStages) {
  // Punctuation runs, then GPT-2 words, then number runs, then ASCII digit triples.
  EXPECT_EQ(split(BpePreTokenizer::defaultRules, "Hello, world! 1234567"),
            (Words{"Hello", ",", " world", "!", " ", "123", "456", "7"}));
  // $ + < = > ^ ~ | count as punctuation here; the backquote does not.
  EXPECT_EQ(split(BpePreTokenizer::defaultRules, "a+b=c`d"), (Words{"a", "+", "b", "=", "c", "`", "d"}));
}

// --- invariants over arbitrary bytes ------------------------------------------------------------------------

TEST(PreTokenizerAllFamilies, WordsCoverTheTextExactly) {
  // Words are a partition of the decoded text, for every family, on mixed and malformed input.
  const std::string samples[] = {
      std::string("Mixed 12ab'S  \t\n\r\n x\xF0\x9F\x98\x80y\xE2\x80\x99s"),
      std::string("bad \xC3 utf \xFF\xFE 8 \xED\xA0\x80 end"),
      std::string("\0zero\0", 6),
      std::string("   "),
  };
  for (const BpePreTokenizer pre : {BpePreTokenizer::defaultRules, BpePreTokenizer::gpt2, BpePreTokenizer::llama3,
                                    BpePreTokenizer::qwen2, BpePreTokenizer::smollm}) {
    for (const std::string& s : samples) {
      std::vector<uint32_t> cps;
      unicode::decode(s, cps);
      std::string decoded;
      for (const uint32_t cp : cps) unicode::appendUtf8(cp, decoded);
      std::string joined;
      for (const std::string& w : split(pre, s)) {
        EXPECT_FALSE(w.empty());
        joined += w;
      }
      EXPECT_EQ(joined, decoded) << bpePreTokenizerName(pre);
    }
  }
}

TEST(TokenizerUnicode, ClassesFromTheTable) {
  using unicode::classify;
  EXPECT_TRUE(classify('a').isLetter());
  EXPECT_TRUE(classify(0x4E2D).isLetter());   // 中
  EXPECT_TRUE(classify(0x0661).isNumber());   // ARABIC-INDIC DIGIT ONE
  EXPECT_TRUE(classify(0x00B2).isNumber());   // SUPERSCRIPT TWO (No)
  EXPECT_TRUE(classify(0x2019).isPunctuation());
  EXPECT_TRUE(classify(0x1F44D).isSymbol());  // 👍
  EXPECT_TRUE(classify(0x3000).isWhitespace());
  EXPECT_TRUE(classify(0x0085).isWhitespace());
  EXPECT_FALSE(classify(0x200B).isWhitespace());  // ZERO WIDTH SPACE is a format character
  EXPECT_FALSE(classify(0x001C).isWhitespace());  // not White_Space in the UCD
  EXPECT_EQ(classify(0x0378).category(), unicode::CpCategory::undefined);
  EXPECT_EQ(classify(0x10FFFF + 1).category(), unicode::CpCategory::undefined);
  EXPECT_FALSE(unicode::CpClass{}.present());
}

TEST(TokenizerUnicode, DecodeLikeLlamaCpp) {
  std::vector<uint32_t> cps;
  // Stray continuation, truncated sequence, overlong (accepted, as llama.cpp), too-large 4-byte form.
  unicode::decode(std::string("\x80" "a\xE2\x82" "b\xC0\x80\xF7\xBF\xBF\xBF", 11), cps);
  EXPECT_EQ(cps, (std::vector<uint32_t>{0xFFFD, 'a', 0xFFFD, 0xFFFD, 'b', 0, 0xFFFD, 0xFFFD, 0xFFFD, 0xFFFD}));
}

TEST(TokenizerUnicode, Gpt2ByteMap) {
  EXPECT_EQ(unicode::byteToUnicode(' '), "\xC4\xA0");   // Ġ
  EXPECT_EQ(unicode::byteToUnicode('\n'), "\xC4\x8A");  // Ċ
  EXPECT_EQ(unicode::byteToUnicode('a'), "a");
  for (int b = 0; b < 256; ++b) {
    std::vector<uint32_t> cps;
    unicode::decode(unicode::byteToUnicode(static_cast<uint8_t>(b)), cps);
    ASSERT_EQ(cps.size(), 1u);
    EXPECT_EQ(unicode::unicodeToByte(cps[0]), b);
  }
  EXPECT_EQ(unicode::unicodeToByte(0x20), -1);  // space itself is not in the image
}

}  // namespace
}  // namespace sotto::llm
