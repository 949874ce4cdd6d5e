// SPDX-License-Identifier: MIT
// The text normalizer in front of the recognizers: look-alike writings (fullwidth, zero-width characters, no-break
// spaces, other scripts' digits, decomposed accents) are caught, and spans stay exact on the original text.
#include <gtest/gtest.h>

#include <string>

#include "engine/privacy/anonymizer.h"
#include "engine/privacy/pii_normalize.h"
#include "tests/privacy/pii_test_common.h"

namespace sotto::privacy::test {
namespace {

using detail::NormalizedText;
using detail::NormalizeStatus;
using detail::normalizeForPii;

std::string normalizedOf(const std::string& text) {
  NormalizedText n;
  EXPECT_EQ(normalizeForPii(text, n), NormalizeStatus::ok) << text;
  return n.identity ? text : std::string(n.bytes, n.length);
}

// The one span of text, as "TYPE start end" in code points of the original.
std::string onlySpan(const std::string& text) {
  SpanBuffer buf;
  EXPECT_TRUE(classifier().classify(text, buf).ok()) << text;
  if (buf.size() != 1) return "spans: " + std::to_string(buf.size());
  return std::string(piiTypeName(buf[0].type)) + " " + std::to_string(buf[0].start) + " " +
         std::to_string(buf[0].end);
}

TEST(PiiNormalize, PlainAsciiIsUnchanged) {
  NormalizedText n;
  const std::string ascii = "my  ssn\tis 078-05-1120, call (206) 555-0100!";
  ASSERT_EQ(normalizeForPii(ascii, n), NormalizeStatus::ok);
  EXPECT_TRUE(n.identity);  // the trained model sees exactly the text it was trained on
}

TEST(PiiNormalize, NfkcDigitsFormatAndSpaces) {
  EXPECT_EQ(normalizedOf("１２３-４５-６７８９"), "123-45-6789");                       // fullwidth (NFKC)
  EXPECT_EQ(normalizedOf("123\u200B45\u200D67\uFEFF89\u00AD"), "123456789");          // Cf removed
  EXPECT_EQ(normalizedOf("٥٥٥ ۱۲۳ ४५६७ ๘"), "555 123 4567 8");                        // every Nd folded
  EXPECT_EQ(normalizedOf("4111\u00A01111\u2009\u3000 1111\u202F1111"), "4111 1111 1111 1111");  // spaces collapsed
  EXPECT_EQ(normalizedOf("Jose\u0301 \uFB01le \u2460 \u00BD"), "José file 1 1⁄2");     // composition, compatibility
  EXPECT_EQ(normalizedOf("\u1100\u1161\u11A8 \uAC01"), "\uAC01 \uAC01");               // Hangul by formula
  EXPECT_EQ(normalizedOf("a\u0328\u0301"), "\u0105\u0301");                             // ccc order, then compose
}

TEST(PiiNormalize, MapsBackToOriginalCodePoints) {
  NormalizedText n;
  const std::string text = "x \u200B１\u00A0\u00A0e\u0301";  // x, space, ZWSP, 1, NBSP NBSP, e + acute
  ASSERT_EQ(normalizeForPii(text, n), NormalizeStatus::ok);
  ASSERT_EQ(std::string(n.bytes, n.length), "x 1 é");
  std::uint32_t a = 0, b = 0;
  n.original(2, 3, a, b);  // "1" came from the fullwidth one at 3
  EXPECT_EQ(a, 3u);
  EXPECT_EQ(b, 4u);
  n.original(3, 4, a, b);  // one space from the two no-break spaces
  EXPECT_EQ(a, 4u);
  EXPECT_EQ(b, 6u);
  n.original(4, 5, a, b);  // "é" from e and the combining accent
  EXPECT_EQ(a, 6u);
  EXPECT_EQ(b, 8u);
}

TEST(PiiNormalize, MalformedUtf8IsRefused) {
  NormalizedText n;
  for (const char* bad : {"ssn 078\xFF-05-1120", "\xC0\xAF", "\xED\xA0\x80", "\xE2\x82", "\xF5\x80\x80\x80"}) {
    EXPECT_EQ(normalizeForPii(bad, n), NormalizeStatus::invalidUtf8) << bad;
  }
  // A fullwidth text over the byte limit shrinks to fit, but the limit is on what the caller gave.
  std::string big;
  for (int i = 0; i < 1400; ++i) big += "\uFF11";
  EXPECT_EQ(normalizeForPii(big, n), NormalizeStatus::tooLong);
}

// The probe forms of issue 19: caught, and the span covers exactly the original characters.
TEST(PiiNormalize, ProbeFormsAreCaughtWithExactOffsets) {
  EXPECT_EQ(found("my ssn is １２３-４５-６７８９"), (Spans{"SSN=１２３-４５-６７８９"}));
  EXPECT_EQ(onlySpan("my ssn is １２３-４５-６７８９"), "SSN 10 21");
  EXPECT_EQ(found("my ssn is 1\u200B2\u200B3-4\u200B5-6\u200B7\u200B8\u200B9"),
            (Spans{"SSN=1\u200B2\u200B3-4\u200B5-6\u200B7\u200B8\u200B9"}));
  EXPECT_EQ(found("my ssn is 123\u200B45\u200B6789"), (Spans{"SSN=123\u200B45\u200B6789"}));
  EXPECT_EQ(found("my card is 4111\u00A01111\u00A01111\u00A01111 thanks"),
            (Spans{"CREDIT_CARD=4111\u00A01111\u00A01111\u00A01111"}));
  EXPECT_EQ(onlySpan("my card is 4111\u00A01111\u00A01111\u00A01111 thanks"), "CREDIT_CARD 11 30");
  EXPECT_EQ(found("call me on ٥٥٥ ١٢٣ ٤٥٦٧ tonight"), (Spans{"PHONE=٥٥٥ ١٢٣ ٤٥٦٧"}));
  EXPECT_EQ(found("call me on ۵۵۵-۱۲۳-۴۵۶۷"), (Spans{"PHONE=۵۵۵-۱۲۳-۴۵۶۷"}));
}

// Issue 36: an SSN written with minus signs (U+2212) was only suspected (and went to the cloud as an empty
// message); en dashes join number groups too. An en dash between words stays the sentence's punctuation.
TEST(PiiNormalize, HyphensMinusSignsAndEnDashesInNumbersAreHyphens) {
  EXPECT_EQ(normalizedOf("123\u221245\u22126789"), "123-45-6789");
  EXPECT_EQ(normalizedOf("443\u201332\u20134244"), "443-32-4244");
  EXPECT_EQ(normalizedOf("555\u2010123\u20114567"), "555-123-4567");
  EXPECT_EQ(normalizedOf("it is 14 \u2013 how old"), "it is 14 \u2013 how old");
  EXPECT_EQ(onlySpan("my ssn is 123\u221245\u22126789"), "SSN 10 21");
  EXPECT_EQ(found("SSN 443\u201332\u20134244 please"), (Spans{"SSN=443\u201332\u20134244"}));
}

TEST(PiiNormalize, AnonymizedTextKeepsEveryOtherOriginalByte) {
  const std::string text = "tell\u00A0José\u0301? call ５５５\u00A0１２３\u00A0４５６７ now";
  SpanBuffer buf;
  ASSERT_TRUE(classifier().classify(text, buf).ok());
  Anonymizer a;
  auto out = a.anonymize(text, buf, piiTypeBit(PiiType::phone));
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(*out, "tell\u00A0José\u0301? call [PHONE_1] now");
}

}  // namespace
}  // namespace sotto::privacy::test
