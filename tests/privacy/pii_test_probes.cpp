// SPDX-License-Identifier: MIT
// Issue 19's probe forms, one test each: what leaked to a loopback server in private mode before.
#include <gtest/gtest.h>

#include <string>

#include "engine/privacy/pii_lexicon.h"
#include "engine/privacy/pii_recognizers.h"
#include "engine/privacy/pii_tagger.h"
#include "engine/privacy/pii_secrets.h"
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

TEST(PiiProbe, NamesSpeltLetterByLetter) {
  EXPECT_EQ(found("j o h n s m i t h"), (Spans{"PERSON=j o h n s m i t h"}));
  EXPECT_EQ(found("my name is j o h n s m i t h"), (Spans{"PERSON=j o h n s m i t h"}));
  EXPECT_EQ(found("it's spelled k o f i"), (Spans{"PERSON=k o f i"}));
  EXPECT_EQ(found("book it for j-o-h-n s-m-i-t-h please"), (Spans{"PERSON=j-o-h-n s-m-i-t-h"}));
  EXPECT_EQ(found("book it for J.O.H.N."), (Spans{"PERSON=J.O.H.N"}));
  EXPECT_TRUE(found("we flew to the u.s.a. last year").empty());
  EXPECT_EQ(sentInPrivateMode("my name is j o h n s m i t h"), "my name is [PERSON_1]");
  // Not every letter run is a name: short ones, the alphabet, the SSN cue.
  EXPECT_TRUE(found("is n a s a open today").empty());
  EXPECT_TRUE(found("sing a b c d e f g").empty());
}

TEST(PiiProbe, SecretsByShape) {
  EXPECT_EQ(found("my api key is sk-proj-4f9aK2LmQx7Zt1VbN8cR3eWy6HuJ0pDs"),
            (Spans{"PIN_OR_PASSWORD=sk-proj-4f9aK2LmQx7Zt1VbN8cR3eWy6HuJ0pDs"}));
  EXPECT_EQ(found("use token ghp_16C7e42F292c6912E7710c838347Ae178B4a"),
            (Spans{"PIN_OR_PASSWORD=ghp_16C7e42F292c6912E7710c838347Ae178B4a"}));
  EXPECT_EQ(found("AKIAIOSFODNN7EXAMPLE is my access key"), (Spans{"PIN_OR_PASSWORD=AKIAIOSFODNN7EXAMPLE"}));
  EXPECT_EQ(found("Authorization: Bearer abcd1234efgh5678ijkl"), (Spans{"PIN_OR_PASSWORD=abcd1234efgh5678ijkl"}));
  EXPECT_EQ(found("the jwt is eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"),
            (Spans{"PIN_OR_PASSWORD=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0."
                   "dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"}));
  EXPECT_EQ(found("store this 9fK2mQ7xZt1VbN8cR3eWy6HuJ0pDsL"), (Spans{"PIN_OR_PASSWORD=9fK2mQ7xZt1VbN8cR3eWy6HuJ0pDsL"}));
  EXPECT_EQ(sentInPrivateMode("my api key is sk-proj-4f9aK2LmQx7Zt1VbN8cR3eWy6HuJ0pDs"), "");
  // Long ordinary words, numbers and links are not secrets.
  EXPECT_FALSE(detail::secretShaped("internationalization"));
  EXPECT_FALSE(detail::secretShaped("12345678901234567890"));
  EXPECT_FALSE(detail::secretShaped("https://example.com/a/b/c/d/e/f"));
  EXPECT_FALSE(detail::secretShaped("sk-short"));
  EXPECT_TRUE(detail::secretShaped("3f786850e387550fdab836ed7e6dc881de23001b"));  // 40 hex digits
}

TEST(PiiProbe, SeedPhrasesOfTwelveOrMoreBip39Words) {
  EXPECT_TRUE(detail::isBip39Word("abandon"));
  EXPECT_TRUE(detail::isBip39Word("zoo"));
  EXPECT_FALSE(detail::isBip39Word("the"));
  const std::string seed = "legal winner thank year wave sausage worth useful legal winner thank yellow";
  EXPECT_EQ(found("my wallet words are " + seed), (Spans{"PIN_OR_PASSWORD=" + seed}));
  EXPECT_EQ(sentInPrivateMode(seed), "");
  // Eleven are not a phrase.
  EXPECT_TRUE(found("legal winner thank year wave sausage worth useful legal winner thank").empty());
}

TEST(PiiProbe, NationalIdsOfEnglishSpeakingCountries) {
  EXPECT_EQ(found("my national insurance number is QQ 12 34 56 C"), (Spans{"SSN=QQ 12 34 56 C"}));
  EXPECT_EQ(found("my ni number is AB123456C"), (Spans{"SSN=AB123456C"}));
  EXPECT_EQ(found("ni number: q q one two three four five six c"), (Spans{"SSN=q q one two three four five six c"}));
  EXPECT_EQ(found("my sin is 046 454 286"), (Spans{"SSN=046 454 286"}));          // Luhn
  EXPECT_EQ(found("my tfn is 123 456 782"), (Spans{"SSN=123 456 782"}));          // weighted mod 11
  EXPECT_EQ(found("my medicare number is 2123 45670 1"), (Spans{"SSN=2123 45670 1"}));  // check digit
  EXPECT_EQ(found("my driving licence number is MORGA753116SM9IJ"), (Spans{"ACCOUNT_NUMBER=MORGA753116SM9IJ"}));
  EXPECT_EQ(found("my driver's license is D1234567"), (Spans{"ACCOUNT_NUMBER=D1234567"}));
  EXPECT_EQ(found("my employee id is E-48213"), (Spans{"ACCOUNT_NUMBER=E-48213"}));
  EXPECT_EQ(found("staff number 448213 please"), (Spans{"ACCOUNT_NUMBER=448213"}));
  for (const char* text : {"my national insurance number is QQ 12 34 56 C", "my medicare number is 2123 45670 1",
                           "my driving licence number is MORGA753116SM9IJ", "my employee id is E-48213"}) {
    EXPECT_EQ(sentInPrivateMode(text), "") << text;  // national ids and identifiers are local-only
  }
  // Check digits matter where there is no stronger reason: a wrong TFN or SIN is not an SSN.
  for (const auto& s : found("my tfn is 123 456 783")) EXPECT_EQ(s.rfind("SSN", 0), std::string::npos) << s;
  for (const auto& s : found("my sin is 046 454 287")) EXPECT_EQ(s.rfind("SSN", 0), std::string::npos) << s;
}

TEST(PiiProbe, PostcodesAndFlatAddresses) {
  EXPECT_EQ(found("my postcode is SW1A 1AA"), (Spans{"ADDRESS=SW1A 1AA"}));
  EXPECT_EQ(found("my postcode is sw1a 1aa"), (Spans{"ADDRESS=sw1a 1aa"}));
  EXPECT_EQ(found("my postal code is K1A 0B1"), (Spans{"ADDRESS=K1A 0B1"}));
  EXPECT_EQ(found("please send it to flat 4, 12 high street, london SW1A 1AA"),
            (Spans{"ADDRESS=flat 4, 12 high street", "ADDRESS=SW1A 1AA"}));
  EXPECT_EQ(sentInPrivateMode("send it to flat 4, 12 high street, london SW1A 1AA"),
            "send it to [ADDRESS_1], london [ADDRESS_2]");
  EXPECT_TRUE(found("the m25 was closed").empty());
}

}  // namespace
}  // namespace sotto::privacy::test

// The English-word filter behind the tagger's "ordinary word" feature (gen_pii_english.py's Bloom filter): words
// of the language and their regular inflections in, names and drugs out (a Bloom filter may err the other way on
// about 0.3 % of words; these are not among them).
TEST(PiiLexicon, EnglishWordsAndTheirInflectionsButNotNames) {
  const sotto::privacy::PiiLexicon lex;
  for (const char* w : {"barber", "stew", "judge", "usual", "barking", "upped", "babies", "children", "went", "baked"}) {
    EXPECT_TRUE(lex.englishWord(w)) << w;
  }
  for (const char* w : {"kaczmarek", "oduya", "lamotrigine", "okonkwo", "rasmussen", "", "Barber", "stew's"}) {
    EXPECT_FALSE(lex.englishWord(w)) << w;
  }
}

// The tagger's decoding: a number the model split between two types is one value, of the type the run's words
// hold most probable; spans that only touch at words of no number stay apart.
TEST(PiiDecoding, OneSpokenNumberIsOneValue) {
  namespace sd = sotto::privacy::detail;
  const sotto::privacy::PiiLexicon lex;
  sd::Utterance u;
  ASSERT_TRUE(sd::tokenize("two four two four five is my pin", lex, u));
  float q[8][sotto::privacy::kPiiTypeCount] = {};
  const auto pin = static_cast<std::size_t>(sotto::privacy::PiiType::pinOrPassword);
  const auto account = static_cast<std::size_t>(sotto::privacy::PiiType::accountNumber);
  q[0][pin] = 0.9f;  // "two": PIN; "four two four five": ACCOUNT, but less surely than the PIN over the run
  for (std::size_t w = 1; w < 5; ++w) {
    q[w][account] = 0.5f;
    q[w][pin] = 0.45f;
  }
  std::uint16_t s0[4] = {0, 1}, s1[4] = {1, 5};
  std::int8_t st[4] = {static_cast<std::int8_t>(pin), static_cast<std::int8_t>(account)};
  ASSERT_EQ(sd::joinNumberRuns(u, q, 8, s0, s1, st, 2), 1u);
  EXPECT_EQ(s0[0], 0u);
  EXPECT_EQ(s1[0], 5u);
  EXPECT_EQ(static_cast<std::size_t>(st[0]), pin);  // 0.9 + 4 x 0.45 > 4 x 0.5

  sd::Utterance names;
  ASSERT_TRUE(sd::tokenize("call anna maria now", lex, names));
  std::uint16_t n0[2] = {1, 2}, n1[2] = {2, 3};
  std::int8_t nt[2] = {0, 0};
  EXPECT_EQ(sd::joinNumberRuns(names, q, 8, n0, n1, nt, 2), 1u);  // touching names: one name
  EXPECT_EQ(n1[0], 3u);
  sd::Utterance listed;
  ASSERT_TRUE(sd::tokenize("call anna, maria now", lex, listed));
  std::uint16_t m0[2] = {1, 2}, m1[2] = {2, 3};
  std::int8_t mt[2] = {0, 0};
  EXPECT_EQ(sd::joinNumberRuns(listed, q, 8, m0, m1, mt, 2), 2u);  // a comma between: two people
  sd::Utterance places;
  ASSERT_TRUE(sd::tokenize("from oslo to bergen", lex, places));
  std::uint16_t p0[2] = {1, 3}, p1[2] = {2, 4};
  const auto location = static_cast<std::int8_t>(sotto::privacy::PiiType::location);
  std::int8_t pt[2] = {location, location};
  EXPECT_EQ(sd::joinNumberRuns(places, q, 8, p0, p1, pt, 2), 2u);  // not touching: two spans stay two
  sd::Utterance dashed;  // a spoken dash inside the number: one value
  ASSERT_TRUE(sd::tokenize("my account is four four dash one two", lex, dashed));
  std::uint16_t d0[2] = {3, 5}, d1[2] = {5, 8};
  const auto acct = static_cast<std::int8_t>(sotto::privacy::PiiType::accountNumber);
  std::int8_t dt[2] = {acct, acct};
  EXPECT_EQ(sd::joinNumberRuns(dashed, q, 8, d0, d1, dt, 2), 1u);
  EXPECT_EQ(d1[0], 8u);
}

// The model's spans take whole values: a name sheds the age said after it and ends at its possessive, a spoken
// number is taken whole, and field punctuation stays outside.
TEST(PiiDecoding, ModelSpansTakeWholeValuesAndNamesNoNumbers) {
  namespace sd = sotto::privacy::detail;
  const sotto::privacy::PiiLexicon lex;
  const auto person = static_cast<std::int8_t>(sotto::privacy::PiiType::person);
  const auto pin = static_cast<std::int8_t>(sotto::privacy::PiiType::pinOrPassword);
  float q[16][sotto::privacy::kPiiTypeCount] = {};

  sd::Utterance age;  // the model read "wren ortega eight" as one name
  ASSERT_TRUE(sd::tokenize("wren ortega eight lives at nine elm road", lex, age));
  std::uint16_t a0[1] = {0}, a1[1] = {3};
  std::int8_t at[1] = {person};
  sd::shapeModelSpans(age, q, 16, a0, a1, at, 1);
  EXPECT_EQ(a0[0], 0u);
  EXPECT_EQ(a1[0], 2u);

  sd::Utterance locker;  // "fenella's locker": the name ends at its possessive
  ASSERT_TRUE(sd::tokenize("remind me that fenella's locker code is four one", lex, locker));
  std::uint16_t l0[1] = {3}, l1[1] = {5};
  std::int8_t lt[1] = {person};
  sd::shapeModelSpans(locker, q, 16, l0, l1, lt, 1);
  EXPECT_EQ(l0[0], 3u);
  EXPECT_EQ(l1[0], 4u);

  sd::Utterance key;  // the model stopped inside "four hundred eighty three"
  ASSERT_TRUE(sd::tokenize("the wifi key is meadow four hundred eighty three", lex, key));
  std::uint16_t k0[1] = {4}, k1[1] = {8};
  std::int8_t kt[1] = {pin};
  sd::shapeModelSpans(key, q, 16, k0, k1, kt, 1);
  EXPECT_EQ(k0[0], 4u);
  EXPECT_EQ(k1[0], 9u);

  sd::Utterance form;  // "Patient: Yusuf Okonkwo | DOB": the bar is no part of the name
  ASSERT_TRUE(sd::tokenize("Patient: Yusuf Okonkwo | DOB: 07/19/2015", lex, form));
  std::uint16_t f0[1] = {1}, f1[1] = {4};
  std::int8_t ft[1] = {person};
  sd::shapeModelSpans(form, q, 16, f0, f1, ft, 1);
  EXPECT_EQ(f0[0], 1u);
  EXPECT_EQ(f1[0], 3u);
}

// A name sheds the titles, wake words, fillers and form labels the model took in, and a famous name is dropped;
// other values shed wake words and labels but keep "the" of a date.
TEST(PiiDecoding, NamesShedTitlesFillersAndFamousPeople) {
  namespace sd = sotto::privacy::detail;
  const sotto::privacy::PiiLexicon lex;
  using sotto::privacy::PiiType;
  float q[16][sotto::privacy::kPiiTypeCount] = {};
  struct Case {
    const char* text;
    PiiType type;
    std::uint16_t s0, s1, want0, want1;
  };
  const Case cases[] = {
      {"hey nurse teodor juarez from accounts called", PiiType::person, 0, 4, 2, 4},
      {"hello my name is joy ortega cheers", PiiType::person, 4, 7, 4, 6},
      {"patient saoirse haddad age three", PiiType::person, 0, 4, 1, 3},
      {"what's pablo picasso's net worth", PiiType::person, 1, 3, 1, 1},  // empty: dropped
      {"Account holder Linnea Forsythe account Y 205902", PiiType::person, 1, 4, 2, 4},
      {"patient age three condition anxiety disorder", PiiType::health, 3, 6, 4, 6},
      {"yo hawthorn hill logistics is where i work", PiiType::location, 0, 4, 1, 4},
      {"the sixth of july is my birthday", PiiType::dateOfBirth, 0, 4, 0, 4},
      {"i live at 12 oak dr", PiiType::address, 3, 6, 3, 6},
      {"i take 50 mg of sertraline daily", PiiType::health, 2, 6, 5, 6},
      {"i've got a migraine again", PiiType::health, 2, 4, 3, 4},
  };
  for (const Case& c : cases) {
    sd::Utterance u;
    ASSERT_TRUE(sd::tokenize(c.text, lex, u));
    std::uint16_t s0[1] = {c.s0}, s1[1] = {c.s1};
    std::int8_t st[1] = {static_cast<std::int8_t>(c.type)};
    sd::shapeModelSpans(u, q, 16, s0, s1, st, 1);
    if (c.want0 == c.want1) {
      EXPECT_EQ(s0[0], s1[0]) << c.text;
    } else {
      EXPECT_EQ(s0[0], c.want0) << c.text;
      EXPECT_EQ(s1[0], c.want1) << c.text;
    }
  }
}

// A number that names a thing (an order, a ticket, a meeting) is no account or phone; an account's stays one.
TEST(PiiDecoding, ThingsNumbersAreNoAccounts) {
  namespace sd = sotto::privacy::detail;
  const sotto::privacy::PiiLexicon lex;
  struct Case {
    const char* text;
    std::size_t t0;
    bool thing;
  };
  const Case cases[] = {
      {"the ticket number is 55018832", 4, true},
      {"my order 4471-2290 hasn't arrived", 2, true},
      {"the meeting id is 884 2291 4471", 4, true},
      {"my account reference is 44812290", 4, false},
      {"my customer number with the electric company is 300 448 1290", 8, false},
      {"call me on 884 2291 4471", 3, false},
  };
  for (const Case& c : cases) {
    sd::Utterance u;
    ASSERT_TRUE(sd::tokenize(c.text, lex, u));
    EXPECT_EQ(sd::numbersAThing(u, c.t0), c.thing) << c.text;
  }
  // Between phone and account, the nearest cue decides.
  struct Cue {
    const char* text;
    std::size_t t0, t1;
    sotto::privacy::PiiType type;
  };
  const Cue cues[] = {
      {"the account i use for rent is 55 66 77 88", 7, 11, sotto::privacy::PiiType::accountNumber},
      {"my account phone number is 206 555 0199", 5, 8, sotto::privacy::PiiType::phone},
      {"my customer reference is 0121 496 0000", 4, 7, sotto::privacy::PiiType::accountNumber},
      {"it is 0121 496 0000", 2, 5, sotto::privacy::PiiType::person},  // no cue either way
      // A secret named nearest, before or (with none before) just after.
      {"for the keypad it is 4 8 8 2 1", 5, 10, sotto::privacy::PiiType::pinOrPassword},
      {"i typed 8 8 2 3 but the pin pad beeped", 2, 6, sotto::privacy::PiiType::pinOrPassword},
      {"call 0121 496 0000, my pin is later", 1, 4, sotto::privacy::PiiType::phone},
  };
  for (const Cue& c : cues) {
    sd::Utterance u;
    ASSERT_TRUE(sd::tokenize(c.text, lex, u));
    EXPECT_EQ(sd::numberCueType(u, c.t0, c.t1), c.type) << c.text;
  }
  // All candidates at once: the thing's number goes, the model's digitless "account" goes, the cue retypes.
  sd::Utterance utility;
  ASSERT_TRUE(sd::tokenize("my utility account reads 2065550199 and the ticket is 55018832", lex, utility));
  sd::Candidates c;
  c.add(3, 4, sotto::privacy::PiiType::accountNumber, sd::prio::model);  // "reads"
  c.add(4, 5, sotto::privacy::PiiType::phone, sd::prio::phone);           // the digits, by shape
  c.add(9, 10, sotto::privacy::PiiType::accountNumber, sd::prio::account);
  sd::settleNumberTypes(utility, c);
  ASSERT_EQ(c.n, 1u);
  EXPECT_EQ(c.c[0].t0, 4u);
  EXPECT_EQ(c.c[0].type, sotto::privacy::PiiType::accountNumber);
  using sotto::privacy::test::found;
  EXPECT_EQ(found("my account phone number is 206 555 0199"), (std::vector<std::string>{"PHONE=206 555 0199"}));
  EXPECT_TRUE(found("the ticket number is 55018832").empty());
  EXPECT_TRUE(found("the meeting id is 884 2291 4471").empty());
  EXPECT_EQ(found("acct #44712290 please"), (std::vector<std::string>{"ACCOUNT_NUMBER=44712290"}));
}

// Words between "my" and the value a rule found are the value's name: the tagger adds no span for them.
TEST(PiiDecoding, TheNameOfAValueIsNoValue) {
  namespace sd = sotto::privacy::detail;
  const sotto::privacy::PiiLexicon lex;
  sd::Utterance u;
  ASSERT_TRUE(sd::tokenize("my sin is 673-833-117 please", lex, u));
  sd::Candidates c;
  c.add(3, 4, sotto::privacy::PiiType::ssn, sd::prio::ssn);
  EXPECT_TRUE(sd::namesARuleValue(u, c, c.n, 1, 2));
  sd::Utterance licence;
  ASSERT_TRUE(sd::tokenize("my driving licence number is 06972314201", lex, licence));
  sd::Candidates lc;
  lc.add(5, 6, sotto::privacy::PiiType::accountNumber, sd::prio::account);
  EXPECT_TRUE(sd::namesARuleValue(licence, lc, lc.n, 2, 3));
  sd::Utterance health;  // no value after "is": the condition is one
  ASSERT_TRUE(sd::tokenize("my diabetes is getting worse", lex, health));
  const sd::Candidates none;
  EXPECT_FALSE(sd::namesARuleValue(health, none, 0, 1, 2));
  EXPECT_FALSE(sd::namesARuleValue(u, c, c.n, 3, 4));  // the value itself
}
