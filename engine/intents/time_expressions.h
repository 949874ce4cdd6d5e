// SPDX-License-Identifier: MIT
// Durations ("an hour and a half", "5 min"), clock times ("quarter to seven pm", "7:45") and day words.
#pragma once

#include <span>
#include <string_view>

namespace sotto::intents {

// True when all of tokens read as one duration; seconds receives it (> 0, at most 100 hours).
// "ninety seconds", "an hour and a half", "two hours forty minutes", "5 min", "half an hour", "2.5 minutes".
// Any thread; no allocation.
bool parseDuration(std::span<const std::string_view> tokens, int& seconds) noexcept;

struct ClockTime {
  int hour = 0;  // 0-23
  int minute = 0;
};

// True when all of tokens read as one clock time. Rules: am/pm, "in the morning", "in the afternoon",
// "in the evening", "at night" set the half of the day; "noon" = 12:00, "midnight" = 00:00; "quarter to seven"
// = 06:45, "ten past six" = 06:10; a bare hour ("seven o'clock", "seven") is read as morning; "12 am" = 00:xx;
// written 24-hour times ("17:30") are taken as they are. Any thread; no allocation.
bool parseClockTime(std::span<const std::string_view> tokens, ClockTime& time) noexcept;

enum class DayWords {
  calendar,  // today (incl. tonight / this morning ...), tomorrow, monday..sunday
  forecast,  // calendar plus "weekend"
};

// True when all of tokens name a day, with an optional lead word ("on", "this", "next", "for", "coming",
// "the"). day receives the canonical name: "today", "tomorrow", "monday".."sunday", "weekend". The returned
// view points to static storage. Any thread.
bool parseDay(std::span<const std::string_view> tokens, DayWords words, std::string_view& day) noexcept;

}  // namespace sotto::intents
