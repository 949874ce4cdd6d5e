// SPDX-License-Identifier: MIT
// Spoken numbers, durations, clock times, day words, normalization, the maths evaluator and unit conversion.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "engine/intents/math_expression.h"
#include "engine/intents/normalize.h"
#include "engine/intents/spoken_numbers.h"
#include "engine/intents/time_expressions.h"
#include "engine/intents/units.h"

namespace si = sotto::intents;

namespace {

// Splits on spaces; the views point into the returned storage (kept alive by the caller).
struct Words {
  explicit Words(const std::string& s) {
    std::istringstream in(s);
    std::string w;
    while (in >> w) store.push_back(w);
    for (const auto& x : store) views.emplace_back(x);
  }
  std::vector<std::string> store;
  std::vector<std::string_view> views;
};

double number(const std::string& s, si::NumberOptions opt = {}) {
  Words w(s);
  double v = NAN;
  if (!si::parseNumber(w.views, v, opt)) return NAN;
  return v;
}

int duration(const std::string& s) {
  Words w(s);
  int sec = -1;
  return si::parseDuration(w.views, sec) ? sec : -1;
}

std::string clock(const std::string& s) {
  Words w(s);
  si::ClockTime t;
  if (!si::parseClockTime(w.views, t)) return "fail";
  char buf[8];
  std::snprintf(buf, sizeof buf, "%02d:%02d", t.hour, t.minute);
  return buf;
}

std::string normalized(const std::string& s) {
  si::Utterance u;
  si::normalizeUtterance(s, u);
  std::string out;
  for (size_t i = 0; i < u.count; ++i) out += (i ? " " : "") + std::string(u.tokens[i]);
  return out;
}

}  // namespace

TEST(SpokenNumbers, Cardinals) {
  EXPECT_EQ(number("twenty five"), 25);
  EXPECT_EQ(number("one hundred and five"), 105);
  EXPECT_EQ(number("nine hundred twenty four"), 924);
  EXPECT_EQ(number("one thousand nine hundred fifty"), 1950);
  EXPECT_EQ(number("six thousand two hundred ninety two"), 6292);
  EXPECT_EQ(number("a hundred"), 100);
  EXPECT_EQ(number("fifty five hundred"), 5500);
  EXPECT_EQ(number("two million three thousand"), 2003000);
  EXPECT_EQ(number("zero"), 0);
  EXPECT_EQ(number("6248"), 6248);
  EXPECT_EQ(number("5 thousand"), 5000);
}

TEST(SpokenNumbers, DecimalsAndFractions) {
  EXPECT_EQ(number("two point five"), 2.5);
  EXPECT_EQ(number("zero point seven five"), 0.75);  // exactly the double nearest 0.75, not 0.7500000000000001
  EXPECT_EQ(number("thirty six point two five"), 36.25);
  EXPECT_EQ(number("2.5"), 2.5);
  EXPECT_EQ(number("a half"), 0.5);
  EXPECT_EQ(number("quarter"), 0.25);
  EXPECT_EQ(number("three quarters"), 0.75);
  EXPECT_EQ(number("two and a half"), 2.5);
  EXPECT_EQ(number("point five"), 0.5);
}

TEST(SpokenNumbers, HomophonesOnlyWhereADigitMustFollow) {
  EXPECT_EQ(number("sixty for"), 64);
  EXPECT_EQ(number("six hundred to"), 602);
  EXPECT_EQ(number("seventy too"), 72);
  EXPECT_EQ(number("won hundred seven"), 107);
  EXPECT_TRUE(std::isnan(number("to")));   // a preposition on its own is not a number
  EXPECT_TRUE(std::isnan(number("for")));
  si::NumberOptions strict;
  strict.homophones = false;
  EXPECT_TRUE(std::isnan(number("sixty for", strict)));
}

TEST(SpokenNumbers, PrefixStopsAtTheFirstWordThatCannotContinue) {
  Words w("twenty five minutes");
  const auto n = si::parseNumberPrefix(w.views);
  EXPECT_EQ(n.tokens, 2u);
  EXPECT_EQ(n.value, 25);
  Words w2("two five");  // digit after digit is not one cardinal
  EXPECT_EQ(si::parseNumberPrefix(w2.views).tokens, 1u);
  Words w3("one hundred and");  // a dangling "and" is not consumed
  EXPECT_EQ(si::parseNumberPrefix(w3.views).tokens, 2u);
  EXPECT_TRUE(std::isnan(number("a")));
  si::NumberOptions article;
  article.articleIsOne = true;
  EXPECT_EQ(number("a", article), 1);
  article.sign = true;
  EXPECT_EQ(number("minus twenty", article), -20);
}

TEST(SpokenNumbers, DigitSequences) {
  Words w("five five five oh one double three triple two");
  const auto d = si::parseDigitSequencePrefix(w.views);
  EXPECT_STREQ(d.digits, "5550133222");
  EXPECT_EQ(d.tokens, 9u);
  Words g("555 0132 please");
  const auto e = si::parseDigitSequencePrefix(g.views);
  EXPECT_STREQ(e.digits, "5550132");
  EXPECT_EQ(e.tokens, 2u);
}

TEST(Durations, Forms) {
  EXPECT_EQ(duration("an hour and a half"), 5400);
  EXPECT_EQ(duration("ninety seconds"), 90);
  EXPECT_EQ(duration("5 min"), 300);
  EXPECT_EQ(duration("2.5 minutes"), 150);
  EXPECT_EQ(duration("two hours forty minutes"), 9600);
  EXPECT_EQ(duration("3 hours 40 minutes"), 13200);
  EXPECT_EQ(duration("a minute and a half"), 90);
  EXPECT_EQ(duration("half an hour"), 1800);
  EXPECT_EQ(duration("half hour"), 1800);
  EXPECT_EQ(duration("1 hr"), 3600);
  EXPECT_EQ(duration("one hour and thirty minutes"), 5400);
  EXPECT_EQ(duration("an hour and a quarter"), 4500);
  EXPECT_EQ(duration("a quarter of an hour"), 900);
  EXPECT_EQ(duration("two and a half hours"), 9000);
  EXPECT_EQ(duration("three quarters of an hour"), 2700);
  EXPECT_EQ(duration("one hour thirty"), 5400);  // minutes without their unit, after the hours
  EXPECT_EQ(duration("two hours fifteen"), 8100);
}

TEST(Durations, Rejects) {
  EXPECT_EQ(duration("five"), -1);                    // no unit
  EXPECT_EQ(duration("five minutes five minutes"), -1);  // unit twice
  EXPECT_EQ(duration("minutes"), -1);
  EXPECT_EQ(duration("zero seconds"), -1);
  EXPECT_EQ(duration("five hundred hours"), -1);      // beyond 100 hours
  EXPECT_EQ(duration("five minutes pasta"), -1);      // whole span only
  EXPECT_EQ(duration("five minutes thirty"), -1);     // a bare number only after hours
  EXPECT_EQ(duration("one hour seventy"), -1);
  EXPECT_EQ(duration("three quarters"), -1);
  // What is left when a recognizer lost the number of "[two] and a half minutes": not thirty seconds.
  EXPECT_EQ(duration("a half minutes"), -1);
  EXPECT_EQ(duration("half hours"), -1);
  EXPECT_EQ(duration("a quarter of hours"), -1);
  EXPECT_EQ(duration("0.5 minutes"), 30);  // written, the fraction is meant
}

TEST(ClockTimes, ReadmeRules) {
  EXPECT_EQ(clock("five pm"), "17:00");
  EXPECT_EQ(clock("7:45 am"), "07:45");
  EXPECT_EQ(clock("7:35 pm"), "19:35");
  EXPECT_EQ(clock("six fifty five in the evening"), "18:55");
  EXPECT_EQ(clock("five in the morning"), "05:00");
  EXPECT_EQ(clock("five fifty five in morning"), "05:55");
  EXPECT_EQ(clock("ten ten at night"), "22:10");
  EXPECT_EQ(clock("four in the afternoon"), "16:00");
  EXPECT_EQ(clock("noon"), "12:00");
  EXPECT_EQ(clock("12 noon"), "12:00");
  EXPECT_EQ(clock("midnight"), "00:00");
  EXPECT_EQ(clock("quarter to seven"), "06:45");
  EXPECT_EQ(clock("quarter to two am"), "01:45");
  EXPECT_EQ(clock("quarter to six pm"), "17:45");
  EXPECT_EQ(clock("quarter past twelve am"), "00:15");
  EXPECT_EQ(clock("half past eight at night"), "20:30");
  EXPECT_EQ(clock("ten to eight"), "07:50");
  EXPECT_EQ(clock("twenty past six in the evening"), "18:20");
  EXPECT_EQ(clock("seven oclock"), "07:00");  // bare hour: morning
  EXPECT_EQ(clock("6.40 am"), "06:40");       // British written form
  EXPECT_EQ(clock("8.35"), "08:35");
  EXPECT_EQ(clock("twenty two thirty"), "22:30");
  EXPECT_EQ(clock("7.5"), "fail");            // a decimal, not a time
  EXPECT_EQ(clock("seven"), "07:00");
  EXPECT_EQ(clock("two oh five am"), "02:05");
  EXPECT_EQ(clock("won fifty five am"), "01:55");
  EXPECT_EQ(clock("twelve forty five pm"), "12:45");
  EXPECT_EQ(clock("twelve am"), "00:00");
  EXPECT_EQ(clock("17:30"), "17:30");
  EXPECT_EQ(clock("11:25am"), "11:25");
  EXPECT_EQ(clock("eleven at night"), "23:00");
}

TEST(ClockTimes, Rejects) {
  EXPECT_EQ(clock("twenty five"), "fail");  // not an hour
  EXPECT_EQ(clock("7:75"), "fail");
  EXPECT_EQ(clock("five pm tomorrow"), "fail");  // the day is a separate slot
  EXPECT_EQ(clock("half to seven"), "fail");
  EXPECT_EQ(clock("thirteen pm"), "fail");
}

TEST(Days, CalendarAndForecast) {
  auto day = [](const std::string& s, si::DayWords words) {
    Words w(s);
    std::string_view d;
    return si::parseDay(w.views, words, d) ? std::string(d) : "fail";
  };
  EXPECT_EQ(day("tomorrow", si::DayWords::calendar), "tomorrow");
  EXPECT_EQ(day("tonight", si::DayWords::calendar), "today");
  EXPECT_EQ(day("this monday", si::DayWords::calendar), "monday");
  EXPECT_EQ(day("on friday", si::DayWords::calendar), "friday");
  EXPECT_EQ(day("tomorrow morning", si::DayWords::calendar), "tomorrow");
  EXPECT_EQ(day("this weekend", si::DayWords::calendar), "fail");
  EXPECT_EQ(day("this weekend", si::DayWords::forecast), "weekend");
  EXPECT_EQ(day("mars", si::DayWords::forecast), "fail");
}

TEST(Normalize, PunctuationCaseDigits) {
  EXPECT_EQ(normalized("OK, 5,296+522="), "5296 + 522");
  EXPECT_EQ(normalized("Set a 40-minute timer."), "set a 40 minute timer");
  EXPECT_EQ(normalized("Convert 3 km/h to mph."), "convert 3 kmh to mph");
  EXPECT_EQ(normalized("set an alarm for 6:45 a.m. tomorrow"), "set an alarm for 6:45 am tomorrow");
  EXPECT_EQ(normalized("8:05am"), "8:05 am");
  EXPECT_EQ(normalized("what is 30.5 plus 17.25"), "what is 30.5 plus 17.25");
  EXPECT_EQ(normalized("convert -20 C to F"), "convert - 20 c to f");
}

TEST(Normalize, ContractionsFillersFrames) {
  EXPECT_EQ(normalized("Hey, what's the time right now, please?"), "what is the time right now");
  EXPECT_EQ(normalized("um okay can you please set a timer thanks"), "set a timer");
  EXPECT_EQ(normalized("wake me at eight o'clock"), "wake me at eight oclock");
  EXPECT_EQ(normalized("What\xE2\x80\x99s today\xE2\x80\x99s date"), "what is todays date");
  EXPECT_EQ(normalized("don't send anything"), "do not send anything");
  EXPECT_EQ(normalized("was the date today"), "what is the date today");
  EXPECT_EQ(normalized("thanks"), "thanks");  // a lone word is kept, even a filler
  EXPECT_EQ(normalized(""), "");
}

TEST(Normalize, RejoinsSplitWordsTheVocabularyKnows) {
  si::WordSet vocab;
  vocab.add("timer");
  vocab.finish();
  si::Utterance u;
  si::normalizeUtterance("cancel egg time er", u, &vocab);
  ASSERT_EQ(u.count, 3u);
  EXPECT_EQ(u.tokens[2], "timer");
}

TEST(Normalize, LongInputIsTruncatedNotOverrun) {
  std::string s;
  for (int i = 0; i < 200; ++i) s += "word ";
  si::Utterance u;
  si::normalizeUtterance(s, u);
  EXPECT_TRUE(u.truncated);
  EXPECT_LE(u.count, si::Utterance::kMaxTokens);
}

TEST(MathExpression, SpokenToCanonical) {
  auto canon = [](const std::string& s) {
    Words w(s);
    si::CanonicalExpression e;
    return si::parseSpokenExpression(w.views, e) ? std::string(e.view()) : "fail";
  };
  EXPECT_EQ(canon("nine hundred twenty four times three"), "924 * 3");
  EXPECT_EQ(canon("forty percent of twenty"), "40 / 100 * 20");
  EXPECT_EQ(canon("twenty percent eighty five"), "20 / 100 * 85");
  EXPECT_EQ(canon("the square root of one hundred ninety six"), "sqrt(196)");
  EXPECT_EQ(canon("eighteen squared"), "18 ^ 2");
  EXPECT_EQ(canon("two to the power of ten"), "2 ^ 10");
  EXPECT_EQ(canon("thirty nine point five plus thirty six point two five"), "39.5 + 36.25");
  EXPECT_EQ(canon("5296 + 522"), "5296 + 522");
  EXPECT_EQ(canon("696 x 4"), "696 * 4");
  EXPECT_EQ(canon("552 divided by 12"), "552 / 12");
  EXPECT_EQ(canon("five"), "fail");  // a number alone is not arithmetic
  EXPECT_EQ(canon("the square root of a negative number"), "fail");
}

// The operation named first, or after its operands, as people also say it.
TEST(MathExpression, OperationNamedBeforeOrAfterItsOperands) {
  auto canon = [](const std::string& s) {
    Words w(s);
    si::CanonicalExpression e;
    return si::parseSpokenExpression(w.views, e) ? std::string(e.view()) : "fail";
  };
  EXPECT_EQ(canon("the sum of ninety four and five hundred and eight"), "94 + 508");
  EXPECT_EQ(canon("the product of 280 and 12"), "280 * 12");
  EXPECT_EQ(canon("the difference between ten and three"), "10 - 3");
  EXPECT_EQ(canon("the quotient of 510 and 93"), "510 / 93");
  EXPECT_EQ(canon("subtract 639 from 555"), "555 - 639");  // the order people say it in
  EXPECT_EQ(canon("take three hundred forty nine away from three hundred sixty"), "360 - 349");
  EXPECT_EQ(canon("add six hundred thirty to two hundred and thirteen"), "630 + 213");
  EXPECT_EQ(canon("multiply two hundred and thirty and twenty three"), "230 * 23");
  EXPECT_EQ(canon("divide five hundred by three"), "500 / 3");
  EXPECT_EQ(canon("two hundred sixteen and six hundred seventy five added together"), "216 + 675");
  EXPECT_EQ(canon("seven hundred forty four subtract two hundred fifty seven"), "744 - 257");
  EXPECT_EQ(canon("nine hundred and ten shared between eight"), "910 / 8");
  EXPECT_EQ(canon("root thirty six"), "sqrt(36)");
  EXPECT_EQ(canon("square root fifty"), "sqrt(50)");
  EXPECT_EQ(canon("three to the fourth"), "3 ^ 4");
  EXPECT_EQ(canon("two to the tenth power"), "2 ^ 10");
  // Not arithmetic: words where an operand should be, or something left over.
  EXPECT_EQ(canon("the sum of my fears"), "fail");
  EXPECT_EQ(canon("add milk to the list"), "fail");
  EXPECT_EQ(canon("subtract 5 from 9 apples"), "fail");
  EXPECT_EQ(canon("the sum of 5"), "fail");
}

TEST(MathExpression, Evaluator) {
  auto eval = [](const char* s) {
    auto r = si::evaluateExpression(s);
    return r.ok() ? *r : NAN;
  };
  EXPECT_EQ(eval("924 * 3"), 2772);
  EXPECT_EQ(eval("2 + 3 * 4"), 14);
  EXPECT_EQ(eval("(2 + 3) * 4"), 20);
  EXPECT_EQ(eval("2 ^ 3 ^ 2"), 512);  // right-associative
  EXPECT_EQ(eval("-2 ^ 2"), 4);       // unary minus binds to the number first
  EXPECT_EQ(eval("sqrt(196)"), 14);
  EXPECT_EQ(eval("40 / 100 * 20"), 8);
  EXPECT_EQ(eval("50%"), 0.5);
  EXPECT_EQ(eval("505 - 838"), -333);
  EXPECT_TRUE(std::isnan(eval("1 / 0")));
  EXPECT_TRUE(std::isnan(eval("sqrt(-4)")));
  EXPECT_TRUE(std::isnan(eval("2 +")));
  EXPECT_TRUE(std::isnan(eval("2 2")));
  EXPECT_TRUE(std::isnan(eval("abc")));
  EXPECT_TRUE(std::isnan(eval("10 ^ 400")));
  EXPECT_TRUE(std::isnan(eval(std::string(100, '(').c_str())));  // depth limit, no stack overflow
}

TEST(MathExpression, ResultFormatting) {
  char buf[32];
  si::formatResult(372.0 / 21.0, buf, sizeof buf);
  EXPECT_STREQ(buf, "17.7143");
  si::formatResult(2772.0000000001, buf, sizeof buf);
  EXPECT_STREQ(buf, "2772");
  si::formatResult(0.1 + 0.2, buf, sizeof buf);
  EXPECT_STREQ(buf, "0.3");
  si::formatResult(-0.00001, buf, sizeof buf);
  EXPECT_STREQ(buf, "0");
}

TEST(Units, ParseAndConvert) {
  auto unit = [](const std::string& s) {
    Words w(s);
    si::Unit u;
    return si::parseUnit(w.views, u) ? std::string(si::unitCode(u)) : "fail";
  };
  EXPECT_EQ(unit("kilometers"), "km");
  EXPECT_EQ(unit("miles per hour"), "mph");
  EXPECT_EQ(unit("miles per our"), "mph");
  EXPECT_EQ(unit("kmh"), "kmh");
  EXPECT_EQ(unit("degrees celsius"), "c");
  EXPECT_EQ(unit("tablespoons"), "tbsp");
  EXPECT_EQ(unit("L"), "fail");  // the normalizer lowercases; parseUnit sees "l"
  EXPECT_EQ(unit("parsecs"), "fail");

  auto conv = [](double v, si::Unit a, si::Unit b) {
    auto r = si::convertUnits(v, a, b);
    return r.ok() ? *r : NAN;
  };
  EXPECT_NEAR(conv(1, si::Unit::mi, si::Unit::km), 1.609344, 1e-12);
  EXPECT_NEAR(conv(100, si::Unit::c, si::Unit::f), 212, 1e-9);
  EXPECT_NEAR(conv(-40, si::Unit::f, si::Unit::c), -40, 1e-9);
  EXPECT_NEAR(conv(1, si::Unit::cup, si::Unit::tbsp), 16, 1e-9);
  EXPECT_NEAR(conv(1, si::Unit::tbsp, si::Unit::tsp), 3, 1e-9);
  EXPECT_NEAR(conv(1, si::Unit::kg, si::Unit::lb), 2.20462262, 1e-8);
  EXPECT_NEAR(conv(60, si::Unit::mph, si::Unit::kmh), 96.56064, 1e-9);
  EXPECT_TRUE(std::isnan(conv(1, si::Unit::kg, si::Unit::km)));
}
