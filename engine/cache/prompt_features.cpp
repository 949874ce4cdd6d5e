// SPDX-License-Identifier: MIT
// Prompt analysis: canonical text over the intents normalizer (numbers and clock times unified) and guard features.
#include "engine/cache/prompt_features.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <span>

#include "engine/intents/normalize.h"
#include "engine/intents/spoken_numbers.h"
#include "engine/intents/time_expressions.h"

namespace sotto::cache {

namespace {

constexpr std::string_view kNegations[] = {"not", "no", "never", "nothing", "nobody", "none", "neither", "nor",
                                           "nowhere", "without", "cannot", "neednt", "nope"};
// Words that make a span a clock time rather than a bare number ("five" alone stays the number 5).
constexpr std::string_view kTimeCues[] = {"am", "pm", "oclock", "noon", "midnight", "morning", "afternoon",
                                          "evening", "night"};
constexpr std::size_t kMaxTimeSpan = 6;

template <std::size_t N>
bool inList(const std::string_view (&list)[N], std::string_view w) noexcept {
  for (const auto& x : list) {
    if (x == w) return true;
  }
  return false;
}

bool hasTimeCue(std::span<const std::string_view> span) noexcept {
  for (const auto t : span) {
    if (inList(kTimeCues, t) || t.find(':') != std::string_view::npos) return true;
  }
  return false;
}

bool isUpper(char c) noexcept { return c >= 'A' && c <= 'Z'; }
bool isAlnum(char c) noexcept {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}
char lower(char c) noexcept { return isUpper(c) ? static_cast<char>(c - 'A' + 'a') : c; }
bool hasDigit(std::string_view w) noexcept {
  for (const char c : w) {
    if (c >= '0' && c <= '9') return true;
  }
  return false;
}

// Hash of a word's stem: tokens and entities are compared by stem, so "spiders" still names "spider" and the
// entity guard agrees with the content guard about inflections.
std::uint64_t stemHash(std::string_view w) noexcept {
  char buf[64];
  return fnv1a64(contentWordStem(w, buf));
}

// Appends tokens to the canonical text and the token hashes; fails (uncacheable) when it does not fit.
class Writer {
 public:
  explicit Writer(PromptFeatures& f) noexcept : f_(f) {}
  bool token(std::string_view t) noexcept {
    const std::size_t need = t.size() + (f_.canonicalLength ? 1 : 0);
    if (t.empty() || f_.canonicalLength + need > PromptFeatures::kTextCapacity) return false;
    if (f_.tokenCount == PromptFeatures::kMaxTokens) return false;
    if (f_.canonicalLength) f_.canonical[f_.canonicalLength++] = ' ';
    std::memcpy(f_.canonical + f_.canonicalLength, t.data(), t.size());
    f_.canonicalLength += t.size();
    f_.tokens[f_.tokenCount++] = stemHash(t);
    return true;
  }
  bool number(std::string_view t) noexcept {
    if (!token(t)) return false;
    f_.numberHash = fnv1a64(t, f_.numberHash ^ 0x9e3779b97f4a7c15ull);
    ++f_.numberCount;
    return true;
  }

 private:
  PromptFeatures& f_;
};

std::string_view formatNumber(double v, char (&buf)[32]) noexcept {
  if (std::fabs(v) < 1e15 && v == std::floor(v)) {
    auto r = std::to_chars(buf, buf + sizeof buf, static_cast<long long>(v));
    return {buf, static_cast<std::size_t>(r.ptr - buf)};
  }
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  if (r.ec != std::errc()) return {};
  return {buf, static_cast<std::size_t>(r.ptr - buf)};
}

void addEntity(PromptFeatures& f, std::string_view lowerWord) noexcept {
  const std::uint64_t h = stemHash(lowerWord);
  for (std::size_t i = 0; i < f.entityCount; ++i) {
    if (f.entities[i] == h) return;
  }
  if (f.entityCount < PromptFeatures::kMaxEntities) f.entities[f.entityCount++] = h;
}

bool containsToken(const PromptFeatures& f, std::uint64_t h) noexcept;

// Whether the canonical text holds w as a whole word (as written: "whats" is not "what").
bool containsWord(std::string_view canon, std::string_view w) noexcept {
  for (std::size_t start = 0; start < canon.size();) {
    std::size_t end = canon.find(' ', start);
    if (end == std::string_view::npos) end = canon.size();
    if (canon.substr(start, end - start) == w) return true;
    start = end + 1;
  }
  return false;
}

// Named entities: canonical words outside the common-word list (all a transcript can show), plus, in written text
// (any uppercase letter), capitalized words of the original that do not start a sentence ("Turkey", "May"), or
// start one and are not common words. A written candidate counts only when it is also a canonical token, so
// words the normalizer rewrote ("What's" -> "what is") or dropped (fillers) never become entities.
void findEntities(std::string_view text, PromptFeatures& f) noexcept {
  const std::string_view canon = f.text();
  for (std::size_t start = 0; start < canon.size();) {
    std::size_t end = canon.find(' ', start);
    if (end == std::string_view::npos) end = canon.size();
    const std::string_view w = canon.substr(start, end - start);
    if (!hasDigit(w) && !isCommonWord(w) && !inList(kNegations, w)) addEntity(f, w);
    start = end + 1;
  }
  bool written = false;
  for (const char c : text) written = written || isUpper(c);
  if (!written) return;
  bool sentenceStart = true;
  std::size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (!isAlnum(c)) {
      if (c == '.' || c == '?' || c == '!' || c == ':' || c == ';' || c == '"') sentenceStart = true;
      ++i;
      continue;
    }
    char word[64];
    std::size_t n = 0;
    const bool capital = isUpper(c);
    while (i < text.size() && (isAlnum(text[i]) || text[i] == '\'')) {
      if (text[i] != '\'' && n < sizeof word) word[n++] = lower(text[i]);
      ++i;
    }
    const std::string_view w(word, n);
    const bool wasStart = sentenceStart;
    sentenceStart = false;
    if (n == 0 || n == sizeof word || hasDigit(w) || w == "i") continue;  // numbers have their own guard
    if (capital && (!wasStart || !isCommonWord(w)) && containsWord(canon, w)) addEntity(f, w);
  }
}

bool containsToken(const PromptFeatures& f, std::uint64_t h) noexcept {
  for (std::size_t i = 0; i < f.tokenCount; ++i) {
    if (f.tokens[i] == h) return true;
  }
  return false;
}

bool containsContent(const PromptFeatures& f, std::uint32_t h) noexcept {
  for (std::size_t i = 0; i < f.contentCount; ++i) {
    if (f.content[i] == h) return true;
  }
  return false;
}

bool endsWith(std::string_view w, std::string_view tail) noexcept {
  return w.size() >= tail.size() && w.substr(w.size() - tail.size()) == tail;
}

// The content words of the canonical text: neither stop words nor numbers and clock times (the number guard's),
// stemmed, each once. "quick question, ..." is a frame, not a question about speed.
void findContentWords(PromptFeatures& f) noexcept {
  const std::string_view canon = f.text();
  for (std::size_t start = 0; start < canon.size();) {
    std::size_t end = canon.find(' ', start);
    if (end == std::string_view::npos) end = canon.size();
    const std::string_view w = canon.substr(start, end - start);
    const std::string_view next = end < canon.size() ? canon.substr(end + 1, canon.find(' ', end + 1) - end - 1)
                                                     : std::string_view();
    start = end + 1;
    const bool frame = w == "quick" && next == "question";
    if (w.empty() || hasDigit(w) || isStopWord(w) || frame) continue;
    char buf[64];
    const std::string_view stem = contentWordStem(w, buf);
    const auto h = static_cast<std::uint32_t>(fnv1a64(stem));
    if (containsContent(f, h)) continue;
    if (f.contentCount < PromptFeatures::kMaxContent) f.content[f.contentCount++] = h;
  }
}

}  // namespace

std::string_view contentWordStem(std::string_view word, char (&buf)[64]) noexcept {
  std::size_t n = std::min(word.size(), sizeof buf);
  if (n) std::memcpy(buf, word.data(), n);
  std::string_view w(buf, n);
  const auto cut = [&](std::size_t k) {
    n -= k;
    w = std::string_view(buf, n);
  };
  // Plurals and third persons: "cities" -> "city", "glasses" -> "glass", "timers" -> "timer"; "ss", "us", "is"
  // endings are not plurals ("glass", "virus", "basis").
  if (n > 4 && endsWith(w, "ies")) {
    cut(2);
    buf[n - 1] = 'y';
  } else if (endsWith(w, "sses")) {
    cut(2);
  } else if (n > 3 && endsWith(w, "s") && !endsWith(w, "ss") && !endsWith(w, "us") && !endsWith(w, "is")) {
    cut(1);
  }
  // Verb endings, keeping a stem of three letters or more: "baking", "baked" -> "bak"; a doubled final consonant
  // goes too ("running" -> "run"), except l, s, z ("falling" -> "fall").
  bool verb = false;
  if (n >= 6 && endsWith(w, "ing")) {
    cut(3);
    verb = true;
  } else if (n >= 5 && endsWith(w, "ed")) {
    cut(2);
    verb = true;
  }
  if (verb && n >= 3 && buf[n - 1] == buf[n - 2] && buf[n - 1] != 'l' && buf[n - 1] != 's' && buf[n - 1] != 'z' &&
      std::strchr("aeiou", buf[n - 1]) == nullptr)
    cut(1);
  // A final silent e, so "bake" meets "baked" and "baking".
  if (n > 3 && buf[n - 1] == 'e') cut(1);
  return w;
}

bool contentWordsAgree(const PromptFeatures& a, const PromptFeatures& b) noexcept {
  if (a.contentCount == 0 && b.contentCount == 0) return true;
  std::size_t shared = 0;
  for (std::size_t i = 0; i < a.contentCount; ++i) shared += containsContent(b, a.content[i]) ? 1 : 0;
  const std::size_t larger = std::max(a.contentCount, b.contentCount);
  return shared * 4 >= larger * 3;
}

std::uint64_t fnv1a64(std::string_view bytes, std::uint64_t seed) noexcept {
  std::uint64_t h = seed;
  for (const char c : bytes) {
    h ^= static_cast<unsigned char>(c);
    h *= 1099511628211ull;
  }
  return h;
}

void analyzePrompt(std::string_view prompt, PromptFeatures& out) noexcept {
  out.canonicalLength = 0;
  out.hash = 0;
  out.negations = 0;
  out.numberCount = 0;
  out.numberHash = 0;
  out.entityCount = 0;
  out.tokenCount = 0;
  out.contentCount = 0;
  out.cacheable = false;

  intents::Utterance u;
  intents::normalizeUtterance(prompt, u);
  if (u.truncated || u.count == 0) return;
  const auto tokens = u.view();

  intents::NumberOptions numbers;
  numbers.homophones = false;  // "who won" must stay a question about winning
  numbers.articleIsOne = false;

  Writer w(out);
  std::size_t i = 0;
  while (i < tokens.size()) {
    // Clock times first, longest span first, only when a time word or "h:mm" says it is a time.
    bool done = false;
    const std::size_t maxEnd = std::min(tokens.size(), i + kMaxTimeSpan);
    for (std::size_t end = maxEnd; end > i && !done; --end) {
      const auto span = tokens.subspan(i, end - i);
      intents::ClockTime t;
      if (!hasTimeCue(span) || !intents::parseClockTime(span, t)) continue;
      char buf[6] = {static_cast<char>('0' + t.hour / 10), static_cast<char>('0' + t.hour % 10), ':',
                     static_cast<char>('0' + t.minute / 10), static_cast<char>('0' + t.minute % 10), 0};
      if (!w.number(std::string_view(buf, 5))) return;
      i = end;
      done = true;
    }
    if (done) continue;
    const auto num = intents::parseNumberPrefix(tokens.subspan(i), numbers);
    if (num.tokens > 0) {
      char buf[32];
      const auto text = formatNumber(num.value, buf);
      if (text.empty() || !w.number(text)) return;
      i += num.tokens;
      continue;
    }
    if (inList(kNegations, tokens[i])) ++out.negations;
    if (!w.token(tokens[i])) return;
    ++i;
  }
  out.hash = fnv1a64(out.text());
  findEntities(prompt, out);
  findContentWords(out);
  out.cacheable = true;
}

const char* guardName(Guard g) noexcept {
  switch (g) {
    case Guard::none: return "none";
    case Guard::negation: return "negation";
    case Guard::numbers: return "numbers";
    case Guard::entities: return "entities";
    case Guard::slots: return "slots";
    case Guard::content: return "content";
  }
  return "?";
}

Guard checkGuards(const PromptFeatures& query, std::uint64_t querySlots, const PromptFeatures& cached,
                  std::uint64_t cachedSlots, bool contentGuard) noexcept {
  // Parity, not count: "is it not unsafe" is rare; "is it safe" vs "is it not safe" is the failure to stop.
  if ((query.negations & 1u) != (cached.negations & 1u)) return Guard::negation;
  if (query.numberCount != cached.numberCount || query.numberHash != cached.numberHash) return Guard::numbers;
  // Every entity of either prompt must appear in the other (written and spoken forms find different entities).
  for (std::size_t i = 0; i < query.entityCount; ++i) {
    if (!containsToken(cached, query.entities[i])) return Guard::entities;
  }
  for (std::size_t i = 0; i < cached.entityCount; ++i) {
    if (!containsToken(query, cached.entities[i])) return Guard::entities;
  }
  if (querySlots != cachedSlots) return Guard::slots;
  // Last, as the broadest: an embedding can put two different requests side by side (an untrained model puts
  // every request there; a misheard "cancel the timer" met an unrelated cached question at 0.96). Sharing the
  // direction is not enough: the words that say what is asked must be the same ones.
  if (contentGuard && !contentWordsAgree(query, cached)) return Guard::content;
  return Guard::none;
}

}  // namespace sotto::cache
