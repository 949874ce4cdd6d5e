// SPDX-License-Identifier: MIT
// Numbers, durations, clock times and dates as words for TTS.
#include <gtest/gtest.h>

#include "engine/intents/clock.h"
#include "engine/intents/handlers.h"
#include "engine/intents/spoken_text.h"

namespace si = sotto::intents;

TEST(SpokenText, Numbers) {
  EXPECT_EQ(si::numberWords(0), "zero");
  EXPECT_EQ(si::numberWords(7), "seven");
  EXPECT_EQ(si::numberWords(42), "forty-two");
  EXPECT_EQ(si::numberWords(100), "one hundred");
  EXPECT_EQ(si::numberWords(2772), "two thousand seven hundred seventy-two");
  EXPECT_EQ(si::numberWords(1000001), "one million one");
  EXPECT_EQ(si::numberWords(-15), "minus fifteen");
  EXPECT_EQ(si::decimalWords(3.14159, 2), "three point one four");
  EXPECT_EQ(si::decimalWords(2.5), "two point five");
  EXPECT_EQ(si::decimalWords(12.0), "twelve");
  EXPECT_EQ(si::decimalWords(-0.25, 2), "minus zero point two five");
  EXPECT_EQ(si::decimalWords(0.0001, 2), "zero");
  EXPECT_EQ(si::ordinalWords(1), "first");
  EXPECT_EQ(si::ordinalWords(21), "twenty-first");
  EXPECT_EQ(si::ordinalWords(30), "thirtieth");
  EXPECT_EQ(si::ordinalWords(12), "twelfth");
}

TEST(SpokenText, DurationsAndClock) {
  EXPECT_EQ(si::durationWords(300), "five minutes");
  EXPECT_EQ(si::durationWords(1), "one second");
  EXPECT_EQ(si::durationWords(250), "four minutes and ten seconds");
  EXPECT_EQ(si::durationWords(5400), "one hour and thirty minutes");
  EXPECT_EQ(si::durationWords(3629), "one hour");  // seconds rounded away from ten minutes up
  EXPECT_EQ(si::durationWords(3690), "one hour and two minutes");
  EXPECT_EQ(si::durationWords(7200), "two hours");
  EXPECT_EQ(si::clockWords(15, 42), "three forty-two PM");
  EXPECT_EQ(si::clockWords(7, 0), "seven AM");
  EXPECT_EQ(si::clockWords(7, 5), "seven oh five AM");
  EXPECT_EQ(si::clockWords(0, 15), "twelve fifteen AM");
  EXPECT_EQ(si::clockWords(12, 0), "noon");
  EXPECT_EQ(si::clockWords(0, 0), "midnight");
  EXPECT_EQ(si::weekdayName(6), "Saturday");
  EXPECT_EQ(si::monthName(11), "November");
}

TEST(SpokenText, UnitsAndExpressions) {
  EXPECT_EQ(si::unitWords("km", true), "kilometers");
  EXPECT_EQ(si::unitWords("ft", false), "foot");
  EXPECT_EQ(si::unitWords("c", true), "degrees Celsius");
  EXPECT_EQ(si::expressionWords("924 * 3"), "nine hundred twenty-four times three");
  EXPECT_EQ(si::expressionWords("sqrt(16)"), "the square root of sixteen");
  EXPECT_EQ(si::expressionWords("2.5 / 100 * 20"), "two point five percent of twenty");
  EXPECT_EQ(si::expressionWords("300 / 100"), "three hundred divided by one hundred");
  EXPECT_EQ(si::expressionWords("2 ^ 10"), "two to the power of ten");
}

TEST(Calendar, CivilRoundTrip) {
  EXPECT_EQ(si::daysFromCivil(1970, 1, 1), 0);
  EXPECT_EQ(si::daysFromCivil(2000, 3, 1), 11017);
  for (std::int64_t d = -1000; d < 60000; d += 37) {
    const si::LocalTime t = si::civilFromSeconds(d * 86400 + 3661);
    EXPECT_EQ(si::daysFromCivil(t.year, t.month, t.day), d);
    EXPECT_EQ(t.hour, 1);
    EXPECT_EQ(t.minute, 1);
  }
  const si::LocalTime t = si::civilFromSeconds(si::daysFromCivil(2026, 11, 21) * 86400);
  EXPECT_EQ(t.weekday, 6);  // Saturday
  const si::LocalTime n = si::addDays(t, 41);
  EXPECT_EQ(n.year, 2027);
  EXPECT_EQ(n.month, 1);
  EXPECT_EQ(n.day, 1);
  EXPECT_EQ(n.weekday, 5);  // Friday
}
