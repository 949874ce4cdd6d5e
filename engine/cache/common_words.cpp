// SPDX-License-Identifier: MIT
// The common-word list: words that are never named entities on their own (sorted for binary search).
#include <algorithm>
#include <array>
#include <string_view>

#include "engine/cache/prompt_features.h"

namespace sotto::cache {
namespace {

constexpr std::array<std::string_view, 945> kCommonWords = {
    "a", "able", "about", "above", "according", "across", "act", "actually", "add", "after", "afternoon", "again",
    "against", "age", "ago", "agree", "ahead", "air", "alarm", "all", "allow", "almost", "alone", "along", "already",
    "also", "although", "always", "am", "amazing", "among", "amount", "an", "and", "animal", "animals", "another",
    "answer", "answers", "any", "anyone", "anything", "anyway", "anywhere", "appear", "apple", "apples", "april",
    "are", "area", "arm", "around", "art", "as", "ask", "at", "august", "average", "away", "baby", "back", "bad",
    "bag", "bake", "baking", "ball", "bank", "bar", "base", "be", "bear", "beat", "beautiful", "became", "because",
    "become", "bed", "been", "before", "began", "begin", "behind", "being", "believe", "below", "best", "better",
    "between", "big", "bigger", "biggest", "bill", "billion", "bird", "birthday", "bit", "black", "blood", "blue",
    "board", "boat", "body", "boil", "boiling", "book", "born", "both", "bottom", "box", "boy", "bread", "break",
    "breakfast", "bring", "brother", "brought", "brown", "build", "building", "built", "business", "busy", "but",
    "buy", "by", "calendar", "call", "called", "calories", "came", "can", "capital", "car", "card", "care", "carry",
    "case", "cat", "catch", "cause", "causes", "cell", "center", "centre", "certain", "chair", "chance", "change",
    "character", "charge", "cheap", "cheaper", "check", "child", "children", "choose", "church", "city", "class",
    "clean", "cleaning", "clear", "close", "coffee", "cold", "color", "colors", "colour", "come", "common", "company",
    "compare", "complete", "computer", "consider", "contain", "continue", "control", "cook", "cooking", "cool",
    "cost", "could", "count", "country", "couple", "course", "cover", "create", "cross", "cup", "current", "cut",
    "dad", "daily", "dark", "data", "date", "daughter", "day", "days", "dead", "deal", "dear", "december", "decide",
    "deep", "define", "definition", "degree", "describe", "design", "did", "difference", "different", "dinner",
    "direction", "distance", "do", "doctor", "does", "doesnt", "dog", "doing", "done", "door", "down", "draw",
    "dream", "dress", "drink", "drive", "drop", "dry", "during", "each", "ear", "early", "earth", "easiest", "east",
    "easy", "eat", "economy", "edge", "effect", "egg", "eggs", "eight", "eighteen", "eighty", "either", "eleven",
    "else", "end", "energy", "enough", "enter", "even", "evening", "event", "ever", "every", "everyone", "everything",
    "exactly", "example", "explain", "eye", "face", "fact", "facts", "fall", "family", "famous", "far", "farm",
    "fast", "fastest", "father", "favorite", "fear", "february", "feel", "feet", "fever", "few", "field", "fifteen",
    "fifty", "fight", "figure", "fill", "film", "final", "find", "fine", "finger", "finish", "fire", "first", "fish",
    "five", "fix", "floor", "flu", "fly", "follow", "food", "foot", "for", "force", "forget", "form", "forty",
    "forward", "four", "fourteen", "free", "fresh", "friday", "friend", "from", "front", "fruit", "full", "fun",
    "funny", "game", "garden", "gave", "get", "girl", "give", "given", "glass", "go", "god", "goes", "going", "gold",
    "gone", "good", "got", "government", "great", "green", "ground", "group", "grow", "guess", "gun", "habits", "had",
    "hair", "half", "hand", "happen", "happened", "happy", "hard", "has", "have", "he", "head", "health", "healthy",
    "hear", "heard", "heart", "heat", "heavier", "heavy", "height", "held", "hello", "help", "her", "here", "high",
    "highest", "him", "his", "history", "hit", "hobby", "hold", "hole", "holiday", "home", "homework", "hope",
    "horse", "hot", "hour", "hours", "house", "how", "however", "huge", "human", "hundred", "hungry", "husband", "i",
    "ice", "idea", "ideas", "if", "important", "in", "include", "information", "inside", "instead", "interest",
    "into", "is", "island", "it", "its", "january", "job", "join", "joke", "jokes", "july", "june", "just", "keep",
    "kept", "key", "kid", "kill", "kind", "king", "kitchen", "knew", "know", "known", "lady", "lamp", "land",
    "language", "large", "largest", "last", "late", "later", "laugh", "law", "lay", "lead", "learn", "least", "leave",
    "left", "leg", "less", "let", "letter", "level", "lie", "life", "light", "lights", "like", "line", "list",
    "listen", "little", "live", "long", "longer", "longest", "look", "lose", "lost", "lot", "loud", "louder", "love",
    "low", "made", "main", "make", "making", "man", "many", "map", "march", "mark", "market", "matter", "may",
    "maybe", "me", "mean", "meaning", "means", "measure", "meat", "meet", "meeting", "member", "men", "middle",
    "midnight", "might", "mile", "milk", "million", "mind", "minute", "minutes", "miss", "model", "mom", "moment",
    "monday", "money", "month", "moon", "more", "morning", "most", "mother", "mountain", "mouth", "move", "movie",
    "movies", "much", "music", "must", "my", "name", "nation", "natural", "near", "nearest", "need", "never", "new",
    "news", "next", "nice", "night", "nine", "nineteen", "ninety", "no", "none", "noon", "nor", "north", "nose",
    "not", "note", "nothing", "november", "now", "number", "occur", "oclock", "october", "of", "off", "offer",
    "office", "often", "oil", "old", "oldest", "on", "once", "one", "only", "open", "opposite", "or", "order",
    "origin", "other", "our", "out", "outside", "over", "own", "page", "paint", "paper", "part", "party", "pass",
    "past", "pasta", "pause", "pay", "people", "per", "perhaps", "period", "person", "pick", "picture", "piece",
    "pizza", "place", "plan", "planet", "planets", "plant", "plants", "play", "playing", "please", "pm", "podcast",
    "point", "police", "poor", "popular", "population", "possible", "power", "present", "president", "pretty",
    "price", "problem", "process", "produce", "program", "pull", "push", "put", "quarter", "question", "quick",
    "quickest", "quickly", "quiet", "quieter", "quite", "radio", "rain", "rainbow", "raise", "ran", "rather", "reach",
    "read", "ready", "real", "really", "reason", "receive", "recent", "recipe", "recommend", "record", "red",
    "remember", "remind", "reminder", "repeat", "rest", "result", "resume", "return", "rice", "rich", "ride", "right",
    "ring", "rise", "river", "road", "rock", "room", "round", "rule", "rules", "run", "safe", "said", "salad", "salt",
    "same", "sandwich", "saturday", "saw", "say", "school", "science", "sea", "season", "second", "see", "seem",
    "seen", "sell", "send", "sense", "sent", "september", "serve", "set", "seven", "seventeen", "seventy", "several",
    "shape", "share", "she", "ship", "shop", "short", "shortest", "should", "show", "side", "sign", "simple", "since",
    "sing", "single", "sister", "sit", "six", "sixteen", "sixty", "size", "skin", "sky", "sleep", "slow", "small",
    "smaller", "smallest", "smell", "snack", "snow", "so", "soft", "some", "someone", "something", "sometimes", "son",
    "song", "songs", "soon", "sort", "sound", "soup", "south", "space", "speak", "special", "speed", "spell",
    "spelled", "spelling", "spend", "spring", "stand", "star", "start", "state", "station", "stay", "step", "steps",
    "still", "stone", "stop", "store", "story", "street", "strong", "student", "study", "such", "sugar", "suggest",
    "summer", "sun", "sunday", "sure", "surface", "sweet", "swim", "synonym", "table", "take", "talk", "tall",
    "tallest", "taste", "tea", "teach", "teacher", "team", "tell", "temperature", "ten", "term", "test", "than",
    "thank", "that", "the", "their", "them", "then", "there", "these", "they", "thing", "things", "think", "third",
    "thirteen", "thirty", "this", "those", "though", "thought", "thousand", "three", "through", "throw", "thursday",
    "time", "timer", "tiny", "tips", "to", "today", "together", "told", "tomorrow", "tonight", "too", "took", "top",
    "total", "touch", "toward", "town", "translate", "tree", "trip", "trivia", "true", "try", "tuesday", "turn",
    "twelve", "twenty", "two", "type", "under", "understand", "until", "up", "upon", "us", "use", "used", "usually",
    "value", "vegetables", "very", "voice", "volume", "wait", "walk", "wall", "want", "war", "warm", "was", "wash",
    "watch", "water", "way", "we", "wear", "weather", "wednesday", "week", "weekend", "weight", "well", "went",
    "were", "west", "what", "when", "where", "whether", "which", "while", "white", "who", "whole", "whom", "whose",
    "why", "wide", "wife", "will", "win", "wind", "window", "winter", "wish", "with", "within", "without", "woman",
    "women", "wonder", "word", "words", "work", "works", "world", "worst", "would", "write", "wrong", "year", "years",
    "yellow", "yes", "yesterday", "yet", "you", "young", "your", "zero",
};

static_assert(std::is_sorted(kCommonWords.begin(), kCommonWords.end()));

}  // namespace

bool isCommonWord(std::string_view word) noexcept {
  return std::binary_search(kCommonWords.begin(), kCommonWords.end(), word);
}

}  // namespace sotto::cache
