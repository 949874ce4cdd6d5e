// SPDX-License-Identifier: MIT
// Secrets by shape (API keys, bearer tokens, long random strings), wallet seed phrases (runs of BIP-39 words) and
// words spelt letter by letter. Secrets take PIN_OR_PASSWORD (local-only by default); a spelt word is a PERSON.
#include <algorithm>
#include <cmath>

#include "engine/privacy/pii_recognizers.h"
#include "engine/privacy/pii_secrets.h"

namespace sotto::privacy::detail {
namespace {

bool isDigitChar(char ch) noexcept { return ch >= '0' && ch <= '9'; }
bool isLowerChar(char ch) noexcept { return ch >= 'a' && ch <= 'z'; }
bool isUpperChar(char ch) noexcept { return ch >= 'A' && ch <= 'Z'; }
bool isHexChar(char ch) noexcept { return isDigitChar(ch) || (ch >= 'a' && ch <= 'f') || (ch >= 'A' && ch <= 'F'); }
bool keyChar(char ch) noexcept {
  return isDigitChar(ch) || isLowerChar(ch) || isUpperChar(ch) || ch == '_' || ch == '-' || ch == '+' || ch == '/' ||
         ch == '=';
}

bool allKeyChars(std::string_view s) noexcept {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char ch) { return keyChar(ch); });
}

bool startsWith(std::string_view s, std::string_view prefix) noexcept { return s.substr(0, prefix.size()) == prefix; }

// Shannon entropy in bits per character.
double entropy(std::string_view s) noexcept {
  int counts[128] = {};
  for (char ch : s) ++counts[static_cast<unsigned char>(ch) & 0x7F];
  double h = 0.0;
  for (int n : counts) {
    if (n == 0) continue;
    const double p = static_cast<double>(n) / static_cast<double>(s.size());
    h -= p * std::log2(p);
  }
  return h;
}

bool jwtShaped(std::string_view s) noexcept {
  if (!startsWith(s, "eyJ") || s.size() < 30) return false;
  std::size_t dots = 0;
  for (char ch : s) {
    if (ch == '.') {
      ++dots;
    } else if (!keyChar(ch)) {
      return false;
    }
  }
  return dots == 2;
}

// Token after "bearer" / "token:" / "api key is": long enough and made of key characters.
bool tokenValue(std::string_view s) noexcept {
  if (s.size() < 16 || !allKeyChars(s)) return false;
  bool digit = false, letter = false;
  for (char ch : s) {
    digit = digit || isDigitChar(ch);
    letter = letter || isLowerChar(ch) || isUpperChar(ch);
  }
  return digit && letter;
}

bool secretCueBefore(const Utterance& u, std::size_t i) noexcept {
  if (i == 0) return false;
  if (u.is(i - 1, "bearer")) return true;
  // "api key: X", "token is X", "secret X".
  for (std::size_t k = (i > 4 ? i - 4 : 0); k < i; ++k) {
    if (u.anyOf(k, k + 1, {"token", "secret", "apikey", "api-key", "credential", "credentials"}) ||
        (u.is(k, "key") && u.anyOf(k - 1, k, {"api", "access", "secret", "private", "license", "licence", "product"}))) {
      return true;
    }
  }
  return false;
}

void findSecretTokens(const Utterance& u, Candidates& c) noexcept {
  for (std::size_t i = 0; i < u.n; ++i) {
    const std::string_view raw = u.raw(i);
    if (raw.size() >= 16 && (secretShaped(raw) || (tokenValue(raw) && secretCueBefore(u, i)))) {
      c.add(i, i + 1, PiiType::pinOrPassword, prio::secret);
    }
  }
}

// ---- seed phrases ----
constexpr std::size_t kSeedMinWords = 12;

void findSeedPhrases(const Utterance& u, Candidates& c) noexcept {
  for (std::size_t i = 0; i < u.n;) {
    std::size_t j = i;
    while (j < u.n && isBip39Word(u.word(j))) ++j;
    if (j - i >= kSeedMinWords) c.add(i, j, PiiType::pinOrPassword, prio::secret);
    i = j > i ? j : i + 1;
  }
}

// ---- words spelt letter by letter ----
bool alphabetRun(const Utterance& u, std::size_t i, std::size_t j) noexcept {
  for (std::size_t k = i + 1; k < j; ++k) {
    if (u.word(k)[0] != u.word(k - 1)[0] + 1) return false;
  }
  return true;
}

// "j-o-h-n", "s.m.i.t.h": letters joined by hyphens or dots in one token; the letter count, 0 when not that shape.
std::size_t joinedLetters(std::string_view raw) noexcept {
  std::size_t letters = 0;
  for (std::size_t k = 0; k < raw.size(); ++k) {
    const bool letter = isLowerChar(raw[k]) || isUpperChar(raw[k]);
    if ((k % 2 == 0) != letter) return 0;
    if (!letter && raw[k] != '-' && raw[k] != '.') return 0;
    letters += letter ? 1 : 0;
  }
  return letters;
}

void findSpeltWords(const Utterance& u, Candidates& c) noexcept {
  // Three or more words of the spelling alphabet in a row spell something out ("kilo alpha tango india"): a name, as
  // letters said one by one are (a password or a code so spelt is caught by its cue, at a higher priority).
  for (std::size_t i = 0; i < u.n; ++i) {
    std::size_t j = i;
    while (j < u.n && natoLetter(u.word(j)) != 0) ++j;
    if (j - i >= 3 && !c.covered(i, j, prio::person + 1)) c.add(i, j, PiiType::person, prio::person + 1);
    if (j > i) i = j - 1;
  }
  for (std::size_t i = 0; i < u.n; ++i) {
    if (joinedLetters(u.raw(i)) >= 4) {
      std::size_t j = i + 1;
      while (j < u.n && joinedLetters(u.raw(j)) >= 2 && !u.tok[j - 1].commaAfter) ++j;
      if (!c.covered(i, j, prio::person + 1)) c.add(i, j, PiiType::person, prio::person + 1);
      i = j - 1;
      continue;
    }
    if (!isLetterToken(u, i)) continue;
    std::size_t j = i;
    char joined[64];
    std::size_t len = 0;
    while (j < u.n && isLetterToken(u, j) && len < sizeof joined) {
      joined[len++] = u.word(j)[0];
      const bool end = u.tok[j].commaAfter || u.tok[j].stopAfter;
      ++j;
      if (end) break;
    }
    if (j - i >= 4 && !c.covered(i, j, prio::person + 1) && !alphabetRun(u, i, j)) {
      // A name when the letters make one (a known first name or surname, or one followed by more letters), when a
      // cue says so, or when the run is long: nobody spells six letters out loud for nothing.
      const std::string_view w(joined, len);
      const auto flags = [&](std::string_view s) { return u.lexicon->lookup(s) & (lex::firstName | lex::surname); };
      bool name = flags(w) != 0;
      for (std::size_t k = 2; k + 2 <= len && !name; ++k) name = (u.lexicon->lookup(w.substr(0, k)) & lex::firstName) != 0;
      const bool cue = cueBefore(u, i, 4, {"name", "name's", "spelled", "spelt", "spell", "surname", "called", "named"}) ||
                       u.anyOf(j, j + 2, {"spelled", "spelt"});
      if (name || cue || j - i >= 6) c.add(i, j, PiiType::person, prio::person + 1);
    }
    i = j - 1;
  }
}

}  // namespace

// The NATO spelling alphabet ("kilo alpha tango"): the letter a word stands for, 0 for any other word.
char natoLetter(std::string_view w) noexcept {
  static constexpr std::string_view kNato[] = {"alpha",  "bravo",   "charlie", "delta",  "echo",   "foxtrot", "golf",
                                               "hotel",  "india",   "juliet",  "kilo",   "lima",   "mike",    "november",
                                               "oscar",  "papa",    "quebec",  "romeo",  "sierra", "tango",   "uniform",
                                               "victor", "whiskey", "xray",    "yankee", "zulu"};
  for (std::size_t k = 0; k < std::size(kNato); ++k) {
    if (w == kNato[k]) return static_cast<char>('a' + k);
  }
  if (w == "alfa") return 'a';
  if (w == "juliett") return 'j';
  if (w == "whisky") return 'w';
  if (w == "x-ray") return 'x';
  return 0;
}

bool isBip39Word(std::string_view word) noexcept {
  if (word.size() < 3 || word.size() > 8 || word[0] < 'a' || word[0] > 'z') return false;
  // Where each first letter's words begin (the list is sorted): a search over about 80 words, not 2048.
  struct Index {
    std::size_t first[27] = {};
    Index() noexcept {
      std::size_t k = 0;
      for (int letter = 0; letter < 26; ++letter) {
        first[letter] = k;
        while (k < kBip39WordCount && kBip39English[k][0] == 'a' + letter) ++k;
      }
      first[26] = kBip39WordCount;
    }
  };
  static const Index index;  // built once, without allocating
  const auto* begin = kBip39English + index.first[word[0] - 'a'];
  const auto* end = kBip39English + index.first[word[0] - 'a' + 1];
  return std::binary_search(begin, end, word);
}

bool secretShaped(std::string_view s) noexcept {
  if (s.size() < 16) return false;
  if (jwtShaped(s)) return true;
  if (!allKeyChars(s)) return false;
  // Known key and token formats (OpenAI/Stripe sk-, GitHub, AWS access key ids, Slack, Google, GitLab, npm).
  for (std::string_view p : {"sk-", "sk_live_", "sk_test_", "rk_live_", "pk_live_", "ghp_", "gho_", "ghu_", "ghs_",
                             "ghr_", "github_pat_", "xoxb-", "xoxp-", "xoxa-", "xoxr-", "xoxs-", "AIza", "glpat-",
                             "npm_", "hf_"}) {
    if (startsWith(s, p) && s.size() >= p.size() + 16) return true;
  }
  if ((startsWith(s, "AKIA") || startsWith(s, "ASIA")) && s.size() == 20 &&
      std::all_of(s.begin() + 4, s.end(), [](char ch) { return isUpperChar(ch) || isDigitChar(ch); })) {
    return true;
  }
  // Long random strings: letters and digits mixed with high entropy; or long hex.
  std::size_t digits = 0, lower = 0, upper = 0;
  for (char ch : s) {
    digits += isDigitChar(ch) ? 1 : 0;
    lower += isLowerChar(ch) ? 1 : 0;
    upper += isUpperChar(ch) ? 1 : 0;
  }
  if (s.size() >= 32 && std::all_of(s.begin(), s.end(), [](char ch) { return isHexChar(ch) || ch == '-'; }) &&
      digits >= 4 && digits < s.size()) {
    return entropy(s) >= 3.0;
  }
  return s.size() >= 20 && digits >= 2 && lower + upper >= 4 && entropy(s) >= 3.5;
}

void findSecretShapes(const Utterance& u, Candidates& c) noexcept {
  findSecretTokens(u, c);
  findSeedPhrases(u, c);
  findSpeltWords(u, c);
}

}  // namespace sotto::privacy::detail
