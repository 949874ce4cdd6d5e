// SPDX-License-Identifier: MIT
// PhraseChunker: where phrases are cut, that numbers/abbreviations/UTF-8 never are, flushing, and no allocation.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/speech/chunker.h"
#include "tests/support/alloc_counter.h"

namespace sotto::speech {
namespace {

std::unique_ptr<PhraseChunker> make(const ChunkerConfig& c = {}) {
  auto r = PhraseChunker::create(c);
  EXPECT_TRUE(r.ok());
  return std::move(r).value();
}

// Feeds `pieces` in order, collecting phrases as they become ready, then finishes.
std::vector<std::string> chunk(PhraseChunker& c, const std::vector<std::string>& pieces) {
  std::vector<std::string> out;
  std::string_view p;
  for (std::string_view piece : pieces) {
    while (!piece.empty()) {
      piece.remove_prefix(c.push(piece));
      while (c.next(p)) out.emplace_back(p);
    }
  }
  c.finish();
  while (c.next(p)) out.emplace_back(p);
  return out;
}

std::vector<std::string> chunk(const std::string& text, const ChunkerConfig& cfg = {}) {
  auto c = make(cfg);
  return chunk(*c, {text});
}

std::vector<std::string> bytes(const std::string& text) {
  std::vector<std::string> v;
  for (char ch : text) v.emplace_back(1, ch);
  return v;
}

bool validUtf8(std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    const size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    if (n == 0 || i + n > s.size()) return false;
    for (size_t k = 1; k < n; ++k) {
      if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return false;
    }
    i += n;
  }
  return true;
}

using Phrases = std::vector<std::string>;

TEST(Chunker, CutsAtClausesAndSentences) {
  EXPECT_EQ(chunk("Hello there, Dr. Smith. It is 5:30 and pi is 3.14. Ready? Yes!"),
            (Phrases{"Hello there,", "Dr. Smith.", "It is 5:30 and pi is 3.14.", "Ready?", "Yes!"}));
}

TEST(Chunker, NeverCutsNumbers) {
  const std::string text = "It costs 1,000 dollars, or 3.14 each, at 5:30 today.";
  const Phrases expected{"It costs 1,000 dollars,", "or 3.14 each,", "at 5:30 today."};
  EXPECT_EQ(chunk(text), expected);
  // Token boundaries right after the separator: the chunker must wait for the next character.
  auto c = make();
  EXPECT_EQ(chunk(*c, {"It costs 1,", "000 dollars, or 3.", "14 each, at 5:", "30 today."}), expected);
}

TEST(Chunker, WaitsForTheCharacterAfterPunctuation) {
  auto c = make();
  std::string_view p;
  c->push("Pi is 3.");
  EXPECT_FALSE(c->next(p)) << "cut before knowing whether a digit follows";
  c->push("14159 ok");
  EXPECT_FALSE(c->next(p));
  c->push(".");
  EXPECT_FALSE(c->next(p));
  c->push(" Next");
  ASSERT_TRUE(c->next(p));
  EXPECT_EQ(p, "Pi is 3.14159 ok.");
}

TEST(Chunker, AbbreviationsAreNotSentenceEnds) {
  ChunkerConfig longFirst;  // no word-count cuts in the way
  longFirst.firstPhraseWords = 12;
  EXPECT_EQ(chunk("Fruit, e.g. apples and i.e. pears. The U.S. team and Mr. J. Smith won. Then Dr. Who left.",
                  longFirst),
            (Phrases{"Fruit, e.g. apples and i.e. pears.", "The U.S. team and Mr. J. Smith won.",
                     "Then Dr. Who left."}));
  // Fed one byte at a time: the same phrases.
  auto c = make(longFirst);
  EXPECT_EQ(chunk(*c, bytes("We met Dr. Smith at 5 p.m. today. Bye.")),
            (Phrases{"We met Dr. Smith at 5 p.m. today.", "Bye."}));
}

TEST(Chunker, QuotesEllipsesAndLineBreaks) {
  EXPECT_EQ(chunk("He said \"stop.\" Then (quietly) left... Done\nNext line"),
            (Phrases{"He said \"stop.\"", "Then (quietly) left...", "Done", "Next line"}));
}

TEST(Chunker, FirstPhraseAfterAFewWordsWithoutPunctuation) {
  auto c = make();
  std::string_view p;
  c->push("one two three four");
  EXPECT_FALSE(c->next(p)) << "the fourth word may still be growing";
  c->push(" five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen ");
  ASSERT_TRUE(c->next(p));
  EXPECT_EQ(p, "one two three four");
  ASSERT_TRUE(c->next(p));  // later phrases: 12 words
  EXPECT_EQ(p, "five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen");
  EXPECT_FALSE(c->next(p));
  // Never right after an abbreviation, even at the word limit.
  EXPECT_EQ(chunk("so we met Mr. Smith and friends"), (Phrases{"so we met Mr. Smith", "and friends"}));
}

TEST(Chunker, CutsTheWholeWordsHeldWhenAsked) {
  auto c = make();
  std::string_view p;
  c->push("The capital of Fr");
  EXPECT_FALSE(c->next(p)) << "three whole words: the first phrase waits for four";
  ASSERT_TRUE(c->cutWholeWords(2));
  ASSERT_TRUE(c->next(p));
  EXPECT_EQ(p, "The capital of") << "the word in progress stays";
  c->push("ance is Paris. ");
  ASSERT_TRUE(c->next(p));
  EXPECT_EQ(p, "France is Paris.");
  EXPECT_FALSE(c->next(p));

  auto one = make();
  one->push("Well the");
  EXPECT_FALSE(one->cutWholeWords(2)) << "one whole word";
  EXPECT_FALSE(one->next(p));
  one->push(" ");
  EXPECT_TRUE(one->cutWholeWords(2));

  // An abbreviation stays with the name after it.
  auto dr = make();
  dr->push("Please ask Dr. Wat");
  ASSERT_TRUE(dr->cutWholeWords(2));
  ASSERT_TRUE(dr->next(p));
  EXPECT_EQ(p, "Please ask");
  dr->push("son now.");
  dr->finish();
  ASSERT_TRUE(dr->next(p));
  EXPECT_EQ(p, "Dr. Watson now.");

  // A cut made after a phrase was returned survives the buffer moving its text to the front on the next push.
  auto later = make();
  later->push("Sure. Your timer is");
  ASSERT_TRUE(later->next(p));
  EXPECT_EQ(p, "Sure.");
  ASSERT_TRUE(later->cutWholeWords(2));
  later->push(" set");
  ASSERT_TRUE(later->next(p));
  EXPECT_EQ(p, "Your timer");
  later->finish();
  ASSERT_TRUE(later->next(p));
  EXPECT_EQ(p, "is set");
  EXPECT_FALSE(later->next(p));

  // reset() forgets a cut not taken.
  auto reset = make();
  reset->push("one two three");
  ASSERT_TRUE(reset->cutWholeWords(2));
  reset->reset();
  reset->push("alpha beta gamma");
  EXPECT_FALSE(reset->next(p));
}

TEST(Chunker, ShortClausesWaitForMoreWords) {
  // "Yes," alone is shorter than minClauseWords (2): it stays with what follows.
  EXPECT_EQ(chunk("Yes, I can do that, sure."), (Phrases{"Yes, I can do", "that, sure."}));
}

TEST(Chunker, FlushesTheRestAtTheEnd) {
  auto c = make();
  std::string_view p;
  c->push("  hello world");
  EXPECT_FALSE(c->next(p));
  c->finish();
  ASSERT_TRUE(c->next(p));
  EXPECT_EQ(p, "hello world");
  EXPECT_FALSE(c->next(p));
  EXPECT_EQ(c->phrases(), 1u);
  EXPECT_EQ(chunk("   \n  "), Phrases{});  // nothing but whitespace: nothing to say
  c->reset();
  EXPECT_EQ(c->buffered(), 0u);
  EXPECT_EQ(chunk(*c, {"Again."}), Phrases{"Again."});
}

const std::string kUtf8Text =
    "Caf\xC3\xA9 au lait, na\xC3\xAFve fa\xC3\xA7" "ade \xE2\x80\x94 \xC3\xA7" "a va? \xE6\x97\xA5\xE6\x9C\xAC "
    "text \xF0\x9F\x98\x80 done, \xE2\x80\x9CQuoted.\xE2\x80\x9D End\xE2\x80\xA6 ok.";

TEST(Chunker, Utf8SplitAtEveryByteGivesTheSamePhrases) {
  const Phrases whole = chunk(kUtf8Text);
  ASSERT_GE(whole.size(), 4u);
  for (const auto& p : whole) EXPECT_TRUE(validUtf8(p)) << p;
  auto c = make();
  for (size_t cut = 0; cut <= kUtf8Text.size(); ++cut) {
    c->reset();
    EXPECT_EQ(chunk(*c, {kUtf8Text.substr(0, cut), kUtf8Text.substr(cut)}), whole) << "cut at byte " << cut;
  }
  c->reset();
  EXPECT_EQ(chunk(*c, bytes(kUtf8Text)), whole);
}

TEST(Chunker, StreamEndingInsideACharacterDropsOnlyThatCharacter) {
  for (size_t keep = 1; keep <= 3; ++keep) {  // 1..3 bytes of the 4-byte emoji arrived
    const std::string text = "smile \xF0\x9F\x98\x80" + std::string("\xF0\x9F\x98\x80").substr(0, keep);
    const Phrases got = chunk(text);
    ASSERT_EQ(got.size(), 1u);
    EXPECT_EQ(got[0], "smile \xF0\x9F\x98\x80");
  }
}

TEST(Chunker, WordsLongerThanTheBufferAreCutAtCharacterBoundaries) {
  ChunkerConfig cfg;
  cfg.capacityBytes = 64;
  std::string giant;
  for (int i = 0; i < 40; ++i) giant += "\xE6\x97\xA5";  // 120 bytes without a space
  auto c = make(cfg);
  const Phrases got = chunk(*c, bytes("go " + giant + " end."));
  std::string joined;
  for (const auto& p : got) {
    EXPECT_TRUE(validUtf8(p)) << p.size();
    EXPECT_LE(p.size(), 64u);
    for (char ch : p) {
      if (ch != ' ') joined += ch;
    }
  }
  EXPECT_EQ(joined, "go" + giant + "end.");  // nothing lost but whitespace
}

TEST(Chunker, RejectsUnusableConfig) {
  ChunkerConfig cfg;
  cfg.capacityBytes = 8;
  EXPECT_FALSE(PhraseChunker::create(cfg).ok());
  cfg = {};
  cfg.phraseWords = 0;
  EXPECT_FALSE(PhraseChunker::create(cfg).ok());
}

TEST(Chunker, NoAllocationPerToken) {
  if (!test::AllocCounter::supported()) GTEST_SKIP() << "allocation counting unsupported in this build";
  auto c = make();
  std::string text;
  for (int i = 0; i < 20; ++i) text += kUtf8Text + " It costs 1,000 dollars at 5:30, e.g. today. ";
  std::string_view p;
  size_t phrases = 0, bytesOut = 0;
  test::NoAllocScope scope;
  for (size_t at = 0; at < text.size(); at += 3) {  // 3-byte tokens: splits UTF-8 sequences too
    std::string_view piece = std::string_view(text).substr(at, 3);
    while (!piece.empty()) {
      piece.remove_prefix(c->push(piece));
      while (c->next(p)) {
        ++phrases;
        bytesOut += p.size();
      }
    }
  }
  c->finish();
  while (c->next(p)) ++phrases;
  c->reset();
  EXPECT_EQ(scope.allocations(), 0u);
  EXPECT_GT(phrases, 80u);
  EXPECT_GT(bytesOut, text.size() / 2);
}

}  // namespace
}  // namespace sotto::speech
