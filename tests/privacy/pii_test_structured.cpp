// SPDX-License-Identifier: MIT
// Structural recognizers and validators: Luhn, mod 97, cards, IBANs, SSNs, phones, e-mail and IP addresses.
#include <gtest/gtest.h>

#include "engine/privacy/pii_numbers.h"
#include "tests/privacy/pii_test_common.h"

namespace sotto::privacy::test {
namespace {

using detail::ibanValid;
using detail::luhnValid;

TEST(PiiChecksum, Luhn) {
  EXPECT_TRUE(luhnValid("4532015112830366"));
  EXPECT_TRUE(luhnValid("378282246310005"));
  EXPECT_FALSE(luhnValid("4532015112830367"));
  EXPECT_FALSE(luhnValid("4532a15112830366"));
  EXPECT_FALSE(luhnValid("4"));
}

TEST(PiiChecksum, Mod97) {
  EXPECT_TRUE(ibanValid("GB29NWBK60161331926819"));
  EXPECT_TRUE(ibanValid("DE89370400440532013000"));
  EXPECT_TRUE(ibanValid("FR1420041010050500013M02606"));
  EXPECT_FALSE(ibanValid("GB28NWBK60161331926819"));
  EXPECT_FALSE(ibanValid("GB29NWBK6016133192681"));  // one digit short: check fails
  EXPECT_FALSE(ibanValid("29GBNWBK60161331926819"));
  EXPECT_EQ(detail::ibanLength('G', 'B'), 22u);
  EXPECT_EQ(detail::ibanLength('Q', 'Q'), 0u);
}

TEST(PiiCard, WrittenAndSpoken) {
  EXPECT_EQ(found("my visa is 4532 0151 1283 0366"), (Spans{"CREDIT_CARD=4532 0151 1283 0366"}));
  EXPECT_EQ(found("use card 2221-0000-0000-0009 please"), (Spans{"CREDIT_CARD=2221-0000-0000-0009"}));
  EXPECT_EQ(found("my amex is three seven eight two eight two two four six three one oh oh oh five"),
            (Spans{"CREDIT_CARD=three seven eight two eight two two four six three one oh oh oh five"}));
}

TEST(PiiCard, LuhnInvalidIsNotACard) {
  for (const auto& s : found("my visa is 4532 0151 1283 0367")) EXPECT_EQ(s.rfind("CREDIT_CARD", 0), std::string::npos);
}

TEST(PiiIban, WrittenGroupedContiguousAndSpoken) {
  EXPECT_EQ(found("pay via IBAN GB29 NWBK 6016 1331 9268 19"), (Spans{"IBAN=GB29 NWBK 6016 1331 9268 19"}));
  EXPECT_EQ(found("Send it to FR1420041010050500013M02606."), (Spans{"IBAN=FR1420041010050500013M02606"}));
  EXPECT_EQ(found("my iban is d e eight nine three seven oh four oh oh four four oh five three two oh one three oh oh oh"),
            (Spans{"IBAN=d e eight nine three seven oh four oh oh four four oh five three two oh one three oh oh oh"}));
  EXPECT_TRUE(found("my iban is GB28NWBK60161331926819").empty() ||
              found("my iban is GB28NWBK60161331926819")[0].rfind("IBAN", 0) == std::string::npos);
}

TEST(PiiSsn, ShapesAndCues) {
  EXPECT_EQ(found("SSN: 078-05-1120"), (Spans{"SSN=078-05-1120"}));
  EXPECT_EQ(found("my social is two one nine oh nine nine nine nine nine"),
            (Spans{"SSN=two one nine oh nine nine nine nine nine"}));
  EXPECT_EQ(found("my s s n is double three five one seven double five double six"),
            (Spans{"SSN=double three five one seven double five double six"}));
  EXPECT_TRUE(found("what is a social security number used for").empty());
  // Cues and separators written other ways.
  EXPECT_EQ(found("my s.s.n. is 412 88 1991"), (Spans{"SSN=412 88 1991"}));
  EXPECT_EQ(found("the number on my ss card is four one two eight eight one nine nine one"),
            (Spans{"SSN=four one two eight eight one nine nine one"}));
  EXPECT_EQ(found("my social's four one two eight eight one niner niner one"),
            (Spans{"SSN=four one two eight eight one niner niner one"}));
  EXPECT_EQ(found("my social security number is 412 - 88 - 1991"), (Spans{"SSN=412 - 88 - 1991"}));
  // The cue after the nine digits, digit by digit, a list, a label glued to the value, a hesitation inside.
  EXPECT_EQ(found("read back four one two eight eight one nine nine one that's my social"),
            (Spans{"SSN=four one two eight eight one nine nine one"}));
  EXPECT_EQ(found("5 3 1 2 2 7 6 6 0 is my social security"), (Spans{"SSN=5 3 1 2 2 7 6 6 0"}));
  EXPECT_EQ(found("my social is 5 3 1 2 2 7 6 6 0"), (Spans{"SSN=5 3 1 2 2 7 6 6 0"}));
  EXPECT_EQ(found("socials for the kids: 401 22 9090 and 401 22 9091"), (Spans{"SSN=401 22 9090", "SSN=401 22 9091"}));
  EXPECT_EQ(found("ssn is 4 1 2 - 8 8 - 1 9 9 1"), (Spans{"SSN=4 1 2 - 8 8 - 1 9 9 1"}));
  EXPECT_EQ(found("ssn:321-54-9876"), (Spans{"SSN=321-54-9876"}));
  EXPECT_EQ(found("SSN#412-88-1991"), (Spans{"SSN=412-88-1991"}));
  EXPECT_EQ(found("my social is four one two uh eight eight one nine nine one"),
            (Spans{"SSN=four one two uh eight eight one nine nine one"}));
  // Ten digits before "social" are no SSN; a time keeps its colon.
  EXPECT_TRUE(found("call four one two eight eight one nine nine one two about my social security").empty() ||
              found("call four one two eight eight one nine nine one two about my social security")[0].rfind("SSN", 0) ==
                  std::string::npos);
  EXPECT_TRUE(found("the meeting is at 10:30").empty());
  EXPECT_EQ(found("the social security number for my mother is three four five six seven eight nine zero one"),
            (Spans{"SSN=three four five six seven eight nine zero one"}));
  for (const auto& s : found("my social worker's number is five five five one two three four five six seven")) {
    EXPECT_EQ(s.rfind("SSN", 0), std::string::npos) << s;
  }
}

TEST(PiiPhone, Formats) {
  EXPECT_EQ(found("call me at five five five oh one two three"), (Spans{"PHONE=five five five oh one two three"}));
  EXPECT_EQ(found("my cell is (617) 555-0148"), (Spans{"PHONE=(617) 555-0148"}));
  EXPECT_EQ(found("Reach me at +44 7911 123456 after six."), (Spans{"PHONE=+44 7911 123456"}));
  EXPECT_EQ(found("my number is plus four four seven seven double oh nine eight two two one four"),
            (Spans{"PHONE=plus four four seven seven double oh nine eight two two one four"}));
  EXPECT_EQ(found("my phone number is seven one three triple five oh one oh eight"),
            (Spans{"PHONE=seven one three triple five oh one oh eight"}));
}

TEST(PiiPhone, NumbersThatAreNotPhones) {
  EXPECT_TRUE(found("play track four five six").empty());
  EXPECT_TRUE(found("what's nine hundred fifty four plus eight thousand two hundred nineteen").empty());
  EXPECT_TRUE(found("what happened in nineteen eighty nine").empty());
  EXPECT_TRUE(found("Remind me at 12:30 am to water the plants.").empty());
  EXPECT_TRUE(found("Convert 7,685 dollars to euros.").empty());
  EXPECT_TRUE(found("what's the status of flight two one four five six seven eight").empty());
}

TEST(PiiEmail, WrittenAndSpoken) {
  EXPECT_EQ(found("my email address is h.vogelsang@posteo.de."), (Spans{"EMAIL=h.vogelsang@posteo.de"}));
  EXPECT_EQ(found("send it to quentin underscore roy at fastmail dot fm"),
            (Spans{"EMAIL=quentin underscore roy at fastmail dot fm"}));
  EXPECT_EQ(found("my work email is ops dash team at acme dash widgets dot co dot uk"),
            (Spans{"EMAIL=ops dash team at acme dash widgets dot co dot uk"}));
  EXPECT_TRUE(found("meet me at the station").empty());
  // A wake word or a filler that opens the sentence is no part of a spoken address.
  EXPECT_EQ(found("hey sotto zielinsky dot y thirty at proton dot me is my work email"),
            (Spans{"EMAIL=zielinsky dot y thirty at proton dot me"}));
  EXPECT_EQ(found("oh m underscore fitzroy at web dot de is my work email"),
            (Spans{"EMAIL=m underscore fitzroy at web dot de"}));
}

TEST(PiiIp, DeviceAddressesButNotWellKnownOnes) {
  EXPECT_EQ(found("My router is at 192.168.3.30."), (Spans{"IP_ADDRESS=192.168.3.30"}));
  EXPECT_EQ(found("my server's ip is two oh three dot zero dot one one three dot seven"),
            (Spans{"IP_ADDRESS=two oh three dot zero dot one one three dot seven"}));
  EXPECT_EQ(found("the nas is at one seventy two point sixteen point four point two"),
            (Spans{"IP_ADDRESS=one seventy two point sixteen point four point two"}));
  EXPECT_EQ(found("whitelist fe80::1c2a:3bff:fe4d:12 on my firewall"), (Spans{"IP_ADDRESS=fe80::1c2a:3bff:fe4d:12"}));
  EXPECT_TRUE(found("What is 8.8.8.8 used for?").empty());
  EXPECT_TRUE(found("what is one two seven dot zero dot zero dot one used for").empty());
  EXPECT_TRUE(found("What is 192.168.0.1 used for?").empty());
  EXPECT_TRUE(found("ping eight dot eight dot eight dot eight").empty());
}

TEST(PiiAddress, SpokenAndWritten) {
  EXPECT_EQ(found("I live at 2217 Larkspur Boulevard, Tucson, AZ 85719."),
            (Spans{"ADDRESS=2217 Larkspur Boulevard, Tucson, AZ 85719"}));
  EXPECT_EQ(found("my address is seven hundred twelve quarry lane springfield illinois six two seven oh four"),
            (Spans{"ADDRESS=seven hundred twelve quarry lane springfield illinois six two seven oh four"}));
  EXPECT_EQ(found("ship my order to 88 Hawthorn Terrace, Cardiff CF10 3AT"),
            (Spans{"ADDRESS=88 Hawthorn Terrace, Cardiff CF10 3AT"}));
  EXPECT_EQ(found("deliver it to fourteen juniper crescent apartment two b"),
            (Spans{"ADDRESS=fourteen juniper crescent apartment two b"}));
  EXPECT_TRUE(found("how far is it from the louvre to notre dame").empty());
}

}  // namespace
}  // namespace sotto::privacy::test
