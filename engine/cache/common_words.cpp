// SPDX-License-Identifier: MIT
// The word lists of the cache's guards (sorted for binary search): common words (function words and general verbs,
// adjectives and nouns that never name the subject of a question on their own; concrete things such as foods,
// animals, places are left out on purpose) and stop words (what never says what a question is about).
#include <algorithm>
#include <array>
#include <string_view>

#include "engine/cache/prompt_features.h"

namespace sotto::cache {
namespace {

constexpr std::array<std::string_view, 783> kCommonWords = {
    "a", "able", "about", "above", "according", "across", "act", "actually", "add", "after", "afternoon", "again",
    "against", "age", "ago", "agree", "ahead", "air", "alarm", "all", "allow", "almost", "alone", "along", "already",
    "also", "although", "always", "am", "amazing", "among", "amount", "an", "and", "another", "answer", "answers",
    "any", "anyone", "anything", "anyway", "anywhere", "appear", "april", "are", "area", "arm", "around", "art", "as",
    "ask", "at", "august", "average", "away", "back", "bad", "base", "be", "beat", "beautiful", "became", "because",
    "become", "been", "before", "began", "begin", "behind", "being", "believe", "below", "best", "better", "between",
    "big", "bigger", "biggest", "billion", "bit", "black", "blue", "board", "body", "born", "both", "bottom", "box",
    "boy", "break", "bring", "brought", "brown", "build", "building", "built", "busy", "but", "buy", "by", "call",
    "called", "came", "can", "capital", "care", "carry", "case", "catch", "cause", "causes", "center", "centre",
    "certain", "chance", "change", "character", "charge", "check", "child", "children", "choose", "city", "class",
    "clean", "clear", "close", "cold", "color", "colors", "colour", "come", "common", "compare", "complete",
    "consider", "contain", "continue", "control", "cool", "cost", "could", "count", "country", "couple", "course",
    "cover", "create", "cross", "current", "cut", "daily", "dark", "date", "day", "days", "dead", "deal", "dear",
    "december", "decide", "deep", "define", "definition", "degree", "describe", "design", "did", "difference",
    "different", "direction", "distance", "do", "does", "doesnt", "doing", "done", "door", "down", "draw", "dream",
    "dress", "drink", "drive", "drop", "dry", "during", "each", "ear", "early", "earth", "easiest", "east", "easy",
    "eat", "edge", "effect", "eight", "eighteen", "eighty", "either", "eleven", "else", "end", "enough", "enter",
    "even", "evening", "event", "ever", "every", "everyone", "everything", "exactly", "example", "explain", "eye",
    "face", "fact", "facts", "fall", "family", "famous", "far", "fast", "fastest", "favorite", "fear", "february",
    "feel", "feet", "few", "field", "fifteen", "fifty", "fight", "figure", "fill", "film", "final", "find", "fine",
    "finger", "finish", "fire", "first", "five", "fix", "floor", "fly", "follow", "foot", "for", "force", "forget",
    "form", "forty", "forward", "four", "fourteen", "free", "fresh", "friday", "friend", "from", "front", "full",
    "fun", "funny", "game", "gave", "get", "girl", "give", "given", "go", "goes", "going", "gone", "good", "got",
    "great", "green", "ground", "group", "grow", "guess", "had", "half", "hand", "happen", "happened", "happy",
    "hard", "has", "have", "he", "head", "hear", "heard", "heart", "heat", "heavier", "heavy", "height", "held",
    "hello", "help", "her", "here", "high", "highest", "him", "his", "hit", "hold", "hole", "home", "hope", "hot",
    "hour", "hours", "house", "how", "however", "huge", "human", "hundred", "hungry", "i", "idea", "ideas", "if",
    "important", "in", "include", "information", "inside", "instead", "interest", "into", "is", "it", "its",
    "january", "job", "join", "july", "june", "just", "keep", "kept", "key", "kid", "kill", "kind", "knew", "know",
    "known", "land", "large", "largest", "last", "late", "later", "laugh", "law", "lay", "lead", "learn", "least",
    "leave", "left", "leg", "less", "let", "letter", "level", "lie", "life", "like", "line", "list", "listen",
    "little", "live", "long", "longer", "longest", "look", "lose", "lost", "lot", "loud", "louder", "love", "low",
    "made", "main", "make", "making", "man", "many", "map", "march", "mark", "matter", "may", "maybe", "me", "mean",
    "meaning", "means", "measure", "meet", "meeting", "member", "men", "middle", "midnight", "might", "mile",
    "million", "mind", "minute", "minutes", "miss", "model", "moment", "monday", "month", "more", "morning", "most",
    "mouth", "move", "much", "must", "my", "name", "natural", "near", "nearest", "need", "never", "new", "news",
    "next", "nice", "night", "nine", "nineteen", "ninety", "no", "none", "noon", "nor", "north", "nose", "not",
    "note", "nothing", "november", "now", "number", "occur", "oclock", "october", "of", "off", "offer", "often",
    "old", "oldest", "on", "once", "one", "only", "open", "opposite", "or", "order", "origin", "other", "our", "out",
    "outside", "over", "own", "page", "part", "party", "pass", "past", "pause", "pay", "people", "per", "perhaps",
    "period", "person", "pick", "picture", "piece", "place", "plan", "play", "playing", "please", "pm", "point",
    "poor", "popular", "population", "possible", "power", "present", "pretty", "problem", "process", "produce",
    "program", "pull", "push", "put", "quarter", "question", "quick", "quickest", "quickly", "quiet", "quieter",
    "quite", "raise", "ran", "rather", "reach", "read", "ready", "real", "really", "reason", "receive", "recent",
    "recommend", "record", "red", "remember", "remind", "reminder", "repeat", "rest", "result", "resume", "return",
    "rich", "ride", "right", "ring", "rise", "road", "room", "round", "rule", "rules", "run", "safe", "said", "same",
    "saturday", "saw", "say", "second", "see", "seem", "seen", "sell", "send", "sense", "sent", "september", "serve",
    "set", "seven", "seventeen", "seventy", "several", "shape", "share", "she", "short", "shortest", "should", "show",
    "side", "sign", "simple", "since", "sing", "single", "sit", "six", "sixteen", "sixty", "size", "sleep", "slow",
    "small", "smaller", "smallest", "smell", "so", "soft", "some", "someone", "something", "sometimes", "soon",
    "sort", "sound", "south", "space", "speak", "special", "speed", "spell", "spelled", "spelling", "spend", "stand",
    "start", "state", "station", "stay", "step", "steps", "still", "stop", "story", "strong", "study", "such",
    "suggest", "sunday", "sure", "surface", "sweet", "swim", "table", "take", "talk", "tall", "tallest", "taste",
    "teach", "team", "tell", "ten", "term", "test", "than", "thank", "that", "the", "their", "them", "then", "there",
    "these", "they", "thing", "things", "think", "third", "thirteen", "thirty", "this", "those", "though", "thought",
    "thousand", "three", "through", "throw", "thursday", "time", "timer", "tiny", "tips", "to", "today", "together",
    "told", "tomorrow", "tonight", "too", "took", "top", "total", "touch", "toward", "town", "true", "try", "tuesday",
    "turn", "twelve", "twenty", "two", "type", "under", "understand", "until", "up", "upon", "us", "use", "used",
    "usually", "value", "very", "voice", "volume", "wait", "walk", "want", "warm", "was", "wash", "watch", "way",
    "we", "wear", "wednesday", "week", "weekend", "weight", "well", "went", "were", "west", "what", "when", "where",
    "whether", "which", "while", "white", "who", "whole", "whom", "whose", "why", "wide", "will", "win", "wind",
    "wish", "with", "within", "without", "woman", "women", "wonder", "word", "words", "work", "works", "world",
    "worst", "would", "write", "wrong", "year", "years", "yellow", "yes", "yesterday", "yet", "you", "young", "your",
    "zero",
};

static_assert(std::is_sorted(kCommonWords.begin(), kCommonWords.end()));

// Stop words for the content guard: function and question words, auxiliaries, pronouns, fillers, politeness and
// request verbs. Narrower than the common words on purpose: "time", "timer", "alarm", "set" are common but say
// what is asked; so do particles that flip a meaning ("on"/"off", "up", "out") and who/when/where/why ("when was
// he born" is not "where was he born"), while what/which/how are interchangeable frames ("tell me ...").
constexpr std::array<std::string_view, 174> kStopWords = {
    "a", "about", "actually", "ah", "all", "alright", "also", "am", "an", "and", "another", "any", "anyone",
    "anything", "are", "as", "ask", "asking", "at", "be", "because", "been", "being", "bit", "both", "but", "by",
    "can", "cannot", "could", "describe", "did", "do", "does", "doing", "done", "each", "either", "er", "erm",
    "every", "explain", "for", "from", "get", "give", "got", "had", "has", "have", "having", "he", "hello", "her",
    "here", "hers", "hey", "hi", "him", "his", "hmm", "how", "i", "if", "in", "into", "is", "it", "its", "itself",
    "just", "kind", "knew", "know", "let", "like", "lot", "many", "may", "maybe", "me", "might", "mine", "much",
    "must", "my", "myself", "need", "neither", "never", "no", "nobody", "none", "nor", "not", "nothing", "now",
    "of", "oh", "ok", "okay", "or", "other", "our", "ours", "per", "perhaps", "please", "pretty", "question",
    "quite", "really", "said", "say", "shall", "she", "should", "show", "so", "some", "someone", "something",
    "sort", "sotto", "such", "tell", "than", "thank", "thanks", "that", "the", "their", "theirs", "them", "then",
    "there", "these", "they", "thing", "things", "this", "those", "through", "to", "too", "u", "uh", "um", "upon",
    "us", "very", "via", "want", "wanted", "was", "we", "well", "were", "what", "whatever", "which", "while",
    "whom", "whose", "will", "with", "wonder", "wondered", "wondering", "would", "you", "your", "yours", "yourself",
};

static_assert(std::is_sorted(kStopWords.begin(), kStopWords.end()));

}  // namespace

bool isStopWord(std::string_view word) noexcept {
  return std::binary_search(kStopWords.begin(), kStopWords.end(), word);
}

bool isCommonWord(std::string_view word) noexcept {
  return std::binary_search(kCommonWords.begin(), kCommonWords.end(), word);
}

}  // namespace sotto::cache
