// SPDX-License-Identifier: MIT
// The anonymizer (placeholders, conversation consistency, bounds) and the streaming de-anonymizer (every split).
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "engine/privacy/anonymizer.h"

namespace sotto::privacy {
namespace {

// Spans by substring: the code point offsets of `value` (ASCII tests: bytes = code points).
SpanBuffer spansOf(std::string_view text, std::initializer_list<std::pair<std::string_view, PiiType>> values) {
  SpanBuffer b;
  std::size_t from = 0;
  for (const auto& [value, type] : values) {
    const std::size_t at = text.find(value, from);
    EXPECT_NE(at, std::string_view::npos) << value;
    b.push(PiiSpan{static_cast<std::uint32_t>(at), static_cast<std::uint32_t>(at + value.size()), type});
    from = at + value.size();
  }
  return b;
}

std::string restore(const Anonymizer& a, const std::vector<std::string_view>& chunks, std::string_view sent = {},
                    PiiTypeMask neverRestore = 0) {
  Deanonymizer d(a, sent, neverRestore);
  std::string out;
  for (std::string_view c : chunks) d.feed(c, out);
  d.finish(out);
  return out;
}

// Issue 19: look-alike writings of one value share its placeholder (the key is the classifier's normalized form).
TEST(Anonymizer, LookAlikeWritingsShareAPlaceholder) {
  Anonymizer a;
  const std::string plain = "call 555 0123";
  const std::string wide = "call \uFF15\uFF15\uFF15\u00A0\uFF10\uFF11\uFF12\uFF13";  // value: code points 5..13
  SpanBuffer wideSpan;
  wideSpan.push(PiiSpan{5, 13, PiiType::phone});
  auto r1 = a.anonymize(plain, spansOf(plain, {{"555 0123", PiiType::phone}}));
  auto r2 = a.anonymize(wide, wideSpan);
  ASSERT_TRUE(r1.ok() && r2.ok());
  EXPECT_EQ(*r1, "call [PHONE_1]");
  EXPECT_EQ(*r2, "call [PHONE_1]");
  EXPECT_EQ(a.size(), 1u);
}

TEST(Anonymizer, ReplacesSpansWithTypedNumberedPlaceholders) {
  Anonymizer a;
  const std::string text = "call john smith at 555 0123 or mail jane@example.com";
  auto r = a.anonymize(text, spansOf(text, {{"john smith", PiiType::person},
                                            {"555 0123", PiiType::phone},
                                            {"jane@example.com", PiiType::email}}));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(*r, "call [PERSON_1] at [PHONE_1] or mail [EMAIL_1]");
  EXPECT_EQ(a.size(), 3u);
  ASSERT_NE(a.lookup("[PHONE_1]"), nullptr);
  EXPECT_EQ(*a.lookup("[PHONE_1]"), "555 0123");
  EXPECT_EQ(a.lookup("[PHONE_2]"), nullptr);
  EXPECT_EQ(a.lookup("PHONE_1"), nullptr);
}

TEST(Anonymizer, SameValueSamePlaceholderAcrossTurns) {
  Anonymizer a;
  const std::string t1 = "remind John Smith that Mary called";
  auto r1 = a.anonymize(t1, spansOf(t1, {{"John Smith", PiiType::person}, {"Mary", PiiType::person}}));
  ASSERT_TRUE(r1.ok());
  EXPECT_EQ(*r1, "remind [PERSON_1] that [PERSON_2] called");
  const std::string t2 = "what does john  smith like and does mary know bob";
  auto r2 = a.anonymize(t2, spansOf(t2, {{"john  smith", PiiType::person},
                                         {"mary", PiiType::person},
                                         {"bob", PiiType::person}}));
  ASSERT_TRUE(r2.ok());
  EXPECT_EQ(*r2, "what does [PERSON_1] like and does [PERSON_2] know [PERSON_3]");
  // The same characters as another type are another value.
  const std::string t3 = "my pin is 1234 and my age is 1234";
  auto r3 = a.anonymize(t3, spansOf(t3, {{"1234", PiiType::pinOrPassword}, {"1234", PiiType::age}}));
  ASSERT_TRUE(r3.ok());
  EXPECT_EQ(*r3, "my pin is [PIN_OR_PASSWORD_1] and my age is [AGE_1]");
  a.reset();
  EXPECT_EQ(a.size(), 0u);
  EXPECT_EQ(a.lookup("[PERSON_1]"), nullptr);
  auto r4 = a.anonymize(t2, spansOf(t2, {{"bob", PiiType::person}}));
  ASSERT_TRUE(r4.ok());
  EXPECT_EQ(*r4, "what does john  smith like and does mary know [PERSON_1]");
}

TEST(Anonymizer, MaskSelectsTheTypesReplaced) {
  Anonymizer a;
  const std::string text = "email ann at ann@x.org";
  auto r = a.anonymize(text, spansOf(text, {{"ann", PiiType::person}, {"ann@x.org", PiiType::email}}),
                       piiTypeBit(PiiType::email));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r, "email ann at [EMAIL_1]");
}

TEST(Anonymizer, CodePointOffsetsOnUtf8Text) {
  Anonymizer a;
  const std::string text = "appelle Zoë Müller au 06 12";  // ë, ü: two bytes, one code point each
  SpanBuffer b;
  b.push(PiiSpan{8, 18, PiiType::person});   // "Zoë Müller"
  b.push(PiiSpan{22, 27, PiiType::phone});   // "06 12"
  auto r = a.anonymize(text, b);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(*r, "appelle [PERSON_1] au [PHONE_1]");
  EXPECT_EQ(*a.lookup("[PERSON_1]"), "Zoë Müller");
}

TEST(Anonymizer, RefusesBadSpansAndStaysBounded) {
  Anonymizer a;
  SpanBuffer outside;
  outside.push(PiiSpan{2, 50, PiiType::person});
  EXPECT_EQ(a.anonymize("short", outside).error().code, Errc::invalid_argument);
  SpanBuffer unsorted;
  unsorted.push(PiiSpan{4, 6, PiiType::person});
  unsorted.push(PiiSpan{0, 2, PiiType::person});
  EXPECT_EQ(a.anonymize("ab cd ef", unsorted).error().code, Errc::invalid_argument);
  EXPECT_EQ(a.size(), 0u);

  // Fill the conversation to the limit; one more distinct value is refused and changes nothing.
  for (std::size_t i = 0; i < Anonymizer::kMaxEntries; ++i) {
    const std::string text = "n" + std::to_string(i);
    SpanBuffer b;
    b.push(PiiSpan{0, static_cast<std::uint32_t>(text.size()), PiiType::person});
    ASSERT_TRUE(a.anonymize(text, b).ok()) << i;
  }
  EXPECT_EQ(a.size(), Anonymizer::kMaxEntries);
  SpanBuffer b;
  b.push(PiiSpan{0, 5, PiiType::person});
  auto full = a.anonymize("fresh", b);
  ASSERT_FALSE(full.ok());
  EXPECT_EQ(full.error().code, Errc::busy);
  EXPECT_EQ(a.size(), Anonymizer::kMaxEntries);
  // A value already known still works.
  SpanBuffer known;
  known.push(PiiSpan{0, 2, PiiType::person});
  auto again = a.anonymize("n7", known);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(*again, "[PERSON_8]");
  // The longest placeholder we make fits the de-anonymizer's window.
  EXPECT_LE(std::string("[PIN_OR_PASSWORD_256]").size(), Anonymizer::kMaxPlaceholderBytes);
}

TEST(Deanonymizer, RestoresPlaceholdersSplitAtEveryByte) {
  Anonymizer a;
  const std::string q = "text john at 555 0199 about [x]";
  auto r = a.anonymize(q, spansOf(q, {{"john", PiiType::person}, {"555 0199", PiiType::phone}}));
  ASSERT_TRUE(r.ok());
  const std::string answer = "Sure, I will text [PERSON_1] at [PHONE_1]. [PERSON_9] and [see] [[PHONE_1]] [PHONE_1";
  const std::string expected = "Sure, I will text john at 555 0199. someone and [see] [555 0199] [PHONE_1";
  EXPECT_EQ(restore(a, {answer}, *r), expected);
  for (std::size_t i = 0; i <= answer.size(); ++i) {
    for (std::size_t j = i; j <= answer.size(); j += 3) {
      const std::string_view s(answer);
      EXPECT_EQ(restore(a, {s.substr(0, i), s.substr(i, j - i), s.substr(j)}, *r), expected) << i << "," << j;
    }
  }
  // One byte at a time.
  std::vector<std::string_view> bytes;
  for (std::size_t i = 0; i < answer.size(); ++i) bytes.push_back(std::string_view(answer).substr(i, 1));
  EXPECT_EQ(restore(a, bytes, *r), expected);
}

TEST(Deanonymizer, PassesUnknownBracketTextThrough) {
  Anonymizer a;
  EXPECT_EQ(restore(a, {"[1] see [NOTE_1] and [a", "b] [", "", "]"}), "[1] see [NOTE_1] and [ab] []");
  const std::string longBracket = "[" + std::string(40, 'A') + "]";
  EXPECT_EQ(restore(a, {longBracket.substr(0, 10), longBracket.substr(10)}), longBracket);
  EXPECT_EQ(restore(a, {"unterminated [PHO"}), "unterminated [PHO");
  EXPECT_EQ(restore(a, {"ünïcode [ok] ✓"}), "ünïcode [ok] ✓");
}

// Whole-text reference: a '[' followed by placeholder characters and ']' within kMaxPlaceholderBytes is restored
// when it was sent, spoken as its type's unknown phrase when placeholder-shaped; everything else is copied.
std::string restoreReference(const Anonymizer& a, std::string_view sent, std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size();) {
    if (s[i] == '[') {
      std::size_t j = i + 1;
      while (j < s.size() && j - i + 1 < Anonymizer::kMaxPlaceholderBytes &&
             ((s[j] >= 'A' && s[j] <= 'Z') || (s[j] >= '0' && s[j] <= '9') || s[j] == '_')) {
        ++j;
      }
      if (j < s.size() && s[j] == ']') {
        const std::string_view token = s.substr(i, j - i + 1);
        PiiType type{};
        const std::string* v = a.lookup(token);
        if (v != nullptr && sent.find(token) != std::string_view::npos) {
          out += *v;
          i = j + 1;
          continue;
        }
        if (placeholderType(token, type)) {
          out += spokenUnknownPlaceholder(type);
          i = j + 1;
          continue;
        }
      }
    }
    out += s[i++];
  }
  return out;
}

TEST(Deanonymizer, RandomTextAndChunksMatchTheWholeTextReference) {
  Anonymizer a;
  const std::string q = "ann and bob at 12 main st";
  auto sent = a.anonymize(q, spansOf(q, {{"ann", PiiType::person},
                                         {"bob", PiiType::person},
                                         {"12 main st", PiiType::address}}));
  ASSERT_TRUE(sent.ok());
  const std::vector<std::string> pieces{"[PERSON_1]", "[PERSON_2]", "[ADDRESS_1]", "[PERSON_3]", "[", "]", "[[",
                                        "PERSON_1",   "_",          "x",           " ",          "ü", "[ADDRESS_",
                                        std::string(30, 'A')};
  std::mt19937 rng(1234);
  for (int round = 0; round < 2000; ++round) {
    std::string text;
    const int n = static_cast<int>(rng() % 12);
    for (int i = 0; i < n; ++i) text += pieces[rng() % pieces.size()];
    std::vector<std::string_view> chunks;
    for (std::size_t at = 0; at < text.size();) {
      const std::size_t len = std::min<std::size_t>(text.size() - at, rng() % 6);
      chunks.push_back(std::string_view(text).substr(at, len));
      at += len;
    }
    ASSERT_EQ(restore(a, chunks, *sent), restoreReference(a, *sent, text)) << text;
  }
}

// De-anonymization fills in only what this request sent: a value from an earlier turn is not put back into an
// answer to a request that did not carry it, and a placeholder nobody sent is "someone", not brackets.
TEST(Deanonymizer, RestoresOnlyThisRequestsPlaceholders) {
  Anonymizer a;
  const std::string t1 = "remind john about lunch";
  auto s1 = a.anonymize(t1, spansOf(t1, {{"john", PiiType::person}}));
  ASSERT_TRUE(s1.ok());
  const std::string t2 = "what does mary like";
  auto s2 = a.anonymize(t2, spansOf(t2, {{"mary", PiiType::person}}));
  ASSERT_TRUE(s2.ok());
  EXPECT_EQ(*s2, "what does [PERSON_2] like");
  EXPECT_EQ(restore(a, {"[PERSON_2] likes [PERSON_1] and [PERSON_9]."}, *s2), "mary likes someone and someone.");
  EXPECT_EQ(restore(a, {"Call [PHONE_3] or [IBAN_1] [NOTE_1]"}, *s2),
            "Call a phone number or a bank account number [NOTE_1]");
  EXPECT_EQ(restore(a, {"[PERSON_1] is back"}, *s1), "john is back");
}

// Local-only values (PIN, SSN, health ...) are never re-inserted into a spoken answer, in any mode: standard mode
// sends them as placeholders, and the answer says "your PIN" however the placeholder arrives.
TEST(Deanonymizer, LocalOnlyTypesAreSpokenByKindNeverByValue) {
  Anonymizer a;
  const std::string q = "my pin is 4412 and my ssn is 123-45-6789, tell ann";
  auto sent = a.anonymize(q, spansOf(q, {{"4412", PiiType::pinOrPassword},
                                         {"123-45-6789", PiiType::ssn},
                                         {"ann", PiiType::person}}));
  ASSERT_TRUE(sent.ok());
  const PiiTypeMask localOnly = piiTypeBit(PiiType::pinOrPassword) | piiTypeBit(PiiType::ssn);
  const std::string answer = "I noted [PIN_OR_PASSWORD_1] and [SSN_1] for [PERSON_1].";
  const std::string expected = "I noted your PIN and your social security number for ann.";
  for (std::size_t i = 0; i <= answer.size(); ++i) {
    const std::string_view v(answer);
    const std::string out = restore(a, {v.substr(0, i), v.substr(i)}, *sent, localOnly);
    EXPECT_EQ(out, expected) << i;
    EXPECT_EQ(out.find("4412"), std::string::npos);
  }
  // Without the mask the same request restores them (the policy decides, not the de-anonymizer).
  EXPECT_NE(restore(a, {answer}, *sent).find("4412"), std::string::npos);
}

TEST(Deanonymizer, PlaceholderShapes) {
  PiiType t{};
  EXPECT_TRUE(placeholderType("[PERSON_9]", t));
  EXPECT_EQ(t, PiiType::person);
  EXPECT_TRUE(placeholderType("[PIN_OR_PASSWORD_12]", t));
  EXPECT_EQ(t, PiiType::pinOrPassword);
  for (const char* no : {"[PERSON_]", "[PERSON]", "[NOTE_1]", "PERSON_1", "[PERSON_1x]", "[_1]", "[]"})
    EXPECT_FALSE(placeholderType(no, t)) << no;
}

}  // namespace
}  // namespace sotto::privacy
