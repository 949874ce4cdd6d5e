// SPDX-License-Identifier: MIT
// Semantic endpointing: the unfinished-tail rules and the understanding layer's turn detector.
#include "engine/speech/turn.h"

#include <algorithm>
#include <iterator>
#include <cctype>

namespace sotto::speech {
namespace {

bool sameWord(std::string_view a, std::string_view b) noexcept {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) != b[i]) return false;
  }
  return true;
}

template <size_t N>
bool oneOf(std::string_view w, const std::string_view (&list)[N]) noexcept {
  return std::any_of(std::begin(list), std::end(list), [w](std::string_view x) { return sameWord(w, x); });
}

// Words after which a command always goes on: connectives, prepositions, articles and possessives, operators,
// the verb of a question not yet asked ("what time is"), hesitations. Not "that", "this", "it", "up", "down",
// "please": "cancel that", "turn it up" and "stop please" are whole.
constexpr std::string_view kConnectives[] = {
    "and",  "or",    "but",     "to",     "for",   "at",    "in",     "on",      "of",      "with",  "from",
    "by",   "about", "into",    "until",  "till",  "than",  "then",   "the",     "a",       "an",    "my",
    "your", "our",   "plus",    "minus",  "times", "divided", "multiplied", "over", "is",   "are",   "named",
    "called", "if",  "when",    "so",     "um",    "uh",    "er",     "per",     "every"};
// A number word after which a longer number goes on: "twenty" -> "twenty five", "two hundred" -> "two hundred and
// five", "two point" -> "two point five", "seven oh" -> "seven oh five".
constexpr std::string_view kNumberGoesOn[] = {
    "twenty", "thirty", "forty",  "fifty",   "sixty", "seventy", "eighty", "ninety",
    "hundred", "thousand", "million", "billion", "point", "dot", "oh", "and"};
// An hour, said after "at" or "for" ("at seven", "alarm for seven"), goes on as "seven thirty" or "seven fifteen".
constexpr std::string_view kHours[] = {"one", "two",   "three",  "four",   "five",   "six",
                                                     "seven", "eight", "nine", "ten", "eleven", "twelve"};
constexpr std::string_view kMinutes[] = {"ten", "twenty", "thirty", "forty", "fifty"};
constexpr std::string_view kBeforeHour[] = {"at", "for", "until", "till"};

// The last two words of `text` (either may be empty).
void lastWords(std::string_view text, std::string_view& last, std::string_view& before) noexcept {
  last = before = {};
  size_t end = text.size();
  for (std::string_view* w : {&last, &before}) {
    while (end > 0 && text[end - 1] == ' ') --end;
    size_t start = end;
    while (start > 0 && text[start - 1] != ' ') --start;
    *w = text.substr(start, end - start);
    end = start;
  }
}

// A question or a request for an answer opens with one of these ("what is ...", "does it ...", "tell me ...").
constexpr std::string_view kQuestionOpeners[] = {
    "what", "what's", "whats", "who", "who's", "whos", "where", "where's", "when", "why", "how", "how's", "which",
    "whose", "is", "are", "was", "were", "do", "does", "did", "can", "could", "will", "would", "should", "has",
    "have", "tell", "explain", "describe", "define",
    // "did" and "would" contracted, as people say them and the recognizer writes them ("how'd you volcanoes
    // form", heard for "how do volcanoes form", waited the long silence in sotto-bench e2e).
    "how'd", "what'd", "where'd", "why'd", "who'd", "when'd"};
// ... and does not end on a word that leaves its object or complement unsaid: a pronoun or an auxiliary ("why
// do you", "what does it"), a wh-word's complement ("how much", "how far"), a determiner or an intensifier ("is
// it very"), "me" ("tell me"), "something" ("tell me something").
constexpr std::string_view kQuestionDangles[] = {
    "what", "who", "where", "when", "why", "how", "which", "whose", "do", "does", "did", "can", "could", "will",
    "would", "should", "was", "were", "be", "been", "being", "has", "have", "had", "i", "you", "we", "they", "he",
    "she", "it", "me", "us", "him", "them", "this", "that", "these", "those", "some", "any", "all", "each",
    "no", "not", "very", "really", "so", "more", "most", "less", "much", "many", "long", "far", "old", "big",
    "like", "as", "something", "anything", "everything", "someone", "anyone", "there", "here", "just", "also",
    "even", "kind", "sort", "type", "bit", "lot", "whole", "other", "another", "its", "their", "his", "her"};

// A request put as a question ("can you work out", "could you look up") ending on a verb's particle has yet to say
// what to work out or look up.
constexpr std::string_view kRequestOpeners[] = {"can", "could", "will", "would"};
constexpr std::string_view kParticles[] = {"out", "up", "off", "down", "over"};

bool isDigits(std::string_view w) noexcept {
  return !w.empty() && std::all_of(w.begin(), w.end(), [](char c) { return c >= '0' && c <= '9'; });
}

}  // namespace

std::string_view unfinishedTail(std::string_view text) noexcept {
  std::string_view last, before;
  lastWords(text, last, before);
  if (last.empty()) return "";
  if (oneOf(last, kConnectives)) return "ends in a connective or preposition";
  // Minutes after an hour ("seven thirty") are how a time is said whole; "seven thirty five" is rarer.
  const bool minutes = oneOf(last, kMinutes) && oneOf(before, kHours);
  if (oneOf(last, kNumberGoesOn) && !minutes) return "a number still being spoken";
  // "20", "300": a written round number goes on like its words.
  if (isDigits(last) && last.size() >= 2 && last.back() == '0') return "a number still being spoken";
  if (oneOf(last, kHours) && oneOf(before, kBeforeHour)) return "an hour whose minutes may follow";
  return "";
}

bool wholeQuestion(std::string_view text) noexcept {
  size_t words = 0, at = 0;
  std::string_view first, second;
  while (at < text.size()) {
    while (at < text.size() && text[at] == ' ') ++at;
    if (at >= text.size()) break;
    size_t end = at;
    while (end < text.size() && text[end] != ' ') ++end;
    if (words == 0) first = text.substr(at, end - at);
    if (words == 1) second = text.substr(at, end - at);
    ++words;
    at = end;
  }
  // Four words at least: a noisy partial reads as a short question too often ("what could capital", heard in pink
  // noise for "what is the capital of france", ended the turn at its first pause).
  if (words < 4 || !oneOf(first, kQuestionOpeners)) return false;
  std::string_view last, before;
  lastWords(text, last, before);
  if (oneOf(first, kRequestOpeners) && sameWord(second, "you") && oneOf(last, kParticles)) return false;
  return last.size() >= 2 && !oneOf(last, kQuestionDangles) && unfinishedTail(text).empty();
}

Result<std::unique_ptr<UnderstandingTurnDetector>> UnderstandingTurnDetector::create(
    const nlu::Understander& understander, float minConfidence, bool questions) {
  if (!(minConfidence >= 0.0f && minConfidence <= 1.0f)) {
    return makeError(Errc::invalid_argument, "turn detector: least confidence outside 0..1");
  }
  std::unique_ptr<UnderstandingTurnDetector> d(new UnderstandingTurnDetector());
  d->understander_ = &understander;
  d->ws_ = std::make_unique<nlu::UnderstandWorkspace>();
  d->minConfidence_ = minConfidence;
  d->questions_ = questions;
  return d;
}

TurnReading UnderstandingTurnDetector::read(std::string_view transcript) noexcept {
  TurnReading r;
  if (transcript.find_first_not_of(' ') == std::string_view::npos) {
    r.why = "nothing heard yet";
    return r;
  }
  nlu::Assessment a;
  understander_->assess(transcript, *ws_, a);
  r.intent = a.intent;
  r.confidence = a.intent >= 0 ? a.confidence : 0.0f;
  if (a.expectsMore) {
    r.state = TurnState::unfinished;
    r.why = "a required slot has not been said";
    return r;
  }
  if (a.intent < 0 || !a.complete) {
    // No command: an answer wanted from the cache, the local model or the cloud. A question said whole ends its
    // turn as early as a command does ("what is the capital of france"); one still going waits the long silence.
    if (questions_ && wholeQuestion(transcript)) {
      r.state = TurnState::complete;
      r.why = "a whole question";
      return r;
    }
    r.why = "no command";
    return r;
  }
  // The tail first: "turn the volume up and" reads as volume.up, less surely; it is unfinished either way.
  if (const std::string_view tail = unfinishedTail(transcript); !tail.empty()) {
    r.state = TurnState::unfinished;
    r.why = tail;
    return r;
  }
  if (a.confidence < minConfidence_) {
    r.why = "a command, but not a confident one";
    return r;
  }
  r.state = TurnState::complete;
  r.why = "a confident command with every required slot";
  // One word: the start of many longer commands ("stop the timer", "cancel my alarm", "pause the music").
  const size_t first = transcript.find_first_not_of(' ');
  const size_t gap = transcript.find(' ', first);
  r.mayGoOn = gap == std::string_view::npos || transcript.find_first_not_of(' ', gap) == std::string_view::npos;
  return r;
}

}  // namespace sotto::speech
