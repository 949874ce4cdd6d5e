// SPDX-License-Identifier: MIT
// Issue 19's probe forms, one test each: what leaked to a loopback server in private mode before.
#include <gtest/gtest.h>

#include <string>

#include "engine/privacy/policy.h"
#include "tests/privacy/pii_test_common.h"

namespace sotto::privacy::test {
namespace {

// What private mode would send for text in a fresh conversation ("" when it stays on the device).
std::string sentInPrivateMode(const std::string& text) {
  SpanBuffer buf;
  const bool ok = classifier().classify(text, buf).ok();
  Anonymizer a;
  const EscalationDecision d =
      decideEscalation(PrivacyMode::private_, text, ok, buf, PolicyTable::defaults(), a);
  return d.mayEscalate ? d.text : std::string();
}

// The name is redacted whether or not a number stands beside it: digits elsewhere used to make the rules read the
// text as typed, where a lowercase word is not a name.
TEST(PiiProbe, NameRedactedTheSameBesideAPhoneNumber) {
  EXPECT_EQ(sentInPrivateMode("john smith"), "[PERSON_1]");
  EXPECT_EQ(sentInPrivateMode("john smith 555 123 4567"), "[PERSON_1] [PHONE_1]");
  EXPECT_EQ(sentInPrivateMode("ask olu what he wants"), "ask [PERSON_1] what he wants");
  EXPECT_EQ(sentInPrivateMode("ask olu what he wants at 555-123-4567"), "ask [PERSON_1] what he wants at [PHONE_1]");
  EXPECT_EQ(sentInPrivateMode("i met zanele yesterday, 555 123 4567"), "i met [PERSON_1] yesterday, [PHONE_1]");
  EXPECT_EQ(sentInPrivateMode("call John Smith at 555 123 4567"), "call [PERSON_1] at [PHONE_1]");
  // Reading lowercase text with digits like a transcript does not make things into people.
  EXPECT_EQ(found("my printer's address is 192.168.50.12"), (Spans{"IP_ADDRESS=192.168.50.12"}));
}

TEST(PiiProbe, PinsAfterAContractionOrACueAfterTheCode) {
  EXPECT_EQ(found("my pin's 4412"), (Spans{"PIN_OR_PASSWORD=4412"}));
  EXPECT_EQ(found("my pin's four four one two"), (Spans{"PIN_OR_PASSWORD=four four one two"}));
  EXPECT_EQ(found("code for the front door: 4 4 1 2"), (Spans{"PIN_OR_PASSWORD=4 4 1 2"}));
  EXPECT_EQ(found("the code for the garage is four four one two"), (Spans{"PIN_OR_PASSWORD=four four one two"}));
  EXPECT_EQ(sentInPrivateMode("my pin's 4412"), "");
  EXPECT_EQ(sentInPrivateMode("code for the front door: 4 4 1 2"), "");
  // Codes that are not secrets stay out.
  EXPECT_TRUE(found("the zip code for the office is 94110").empty());
  EXPECT_TRUE(found("what is the code for the error 404").empty());
}

TEST(PiiProbe, SsnSpelledOutWithItsDashes) {
  EXPECT_EQ(found("s s n one two three dash four five dash six seven eight nine"),
            (Spans{"SSN=one two three dash four five dash six seven eight nine"}));
  EXPECT_EQ(found("my ssn is one two three dash four five dash six seven eight nine thanks"),
            (Spans{"SSN=one two three dash four five dash six seven eight nine"}));
  EXPECT_EQ(sentInPrivateMode("s s n one two three dash four five dash six seven eight nine"), "");
}

}  // namespace
}  // namespace sotto::privacy::test
