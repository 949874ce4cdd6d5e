// SPDX-License-Identifier: MIT
// National identity numbers of the common English-speaking countries beside the US SSN (UK National Insurance
// number, Canadian SIN, Australian TFN and Medicare number), each with its check where it has one; they take the
// SSN type (local-only by default). UK and Canadian postcodes standing alone take ADDRESS.
#include "engine/privacy/pii_numbers.h"
#include "engine/privacy/pii_recognizers.h"

namespace sotto::privacy::detail {
namespace {

bool isDigitChar(char ch) noexcept { return ch >= '0' && ch <= '9'; }
bool isAlphaChar(char ch) noexcept { return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z'); }
char upperChar(char ch) noexcept { return (ch >= 'a' && ch <= 'z') ? static_cast<char>(ch - 'a' + 'A') : ch; }

// Letters and digits read from consecutive tokens: written groups ("QQ", "123456", "C", "046-454-286"), single
// spoken letters and spoken numbers; end[k] is the token after character k when a token ends there, else 0.
struct Compact {
  static constexpr std::size_t kMax = 24;
  char ch[kMax] = {};
  std::size_t end[kMax] = {};
  std::size_t len = 0;
  std::size_t tokenEndAfter(std::size_t k) const noexcept { return (k > 0 && k <= len) ? end[k - 1] : 0; }
};

bool writtenIdToken(std::string_view raw) noexcept {
  if (raw.empty()) return false;
  for (char ch : raw) {
    if (!(isDigitChar(ch) || isAlphaChar(ch) || ch == '-' || ch == '.')) return false;
  }
  return true;
}

void readCompact(const Utterance& u, std::size_t s, std::size_t maxChars, Compact& out) noexcept {
  out = Compact{};
  std::size_t p = s;
  while (p < u.n && out.len < maxChars && p - s < 14) {
    const std::string_view raw = u.raw(p);
    std::size_t next = p + 1;
    if (u.tok[p].hasDigit || (raw.size() == 2 && isAlphaChar(raw[0]) && isAlphaChar(raw[1]))) {
      if (!writtenIdToken(raw)) break;
      for (char ch : raw) {
        if (ch == '-' || ch == '.') continue;
        if (out.len == maxChars) return;
        out.ch[out.len++] = upperChar(ch);
      }
    } else if (isLetterToken(u, p)) {
      out.ch[out.len++] = upperChar(u.word(p)[0]);
    } else if (u.isNum(p)) {
      Chunk chunk;
      if (!readChunk(u, p, chunk) || chunk.compound) break;
      for (std::size_t k = 0; k < chunk.len; ++k) {
        if (out.len == maxChars) return;
        out.ch[out.len++] = chunk.digits[k];
      }
      next = chunk.t1;
    } else if (u.anyOf(p, p + 1, {"dash", "hyphen"}) && out.len > 0) {
      ++p;
      continue;
    } else {
      break;
    }
    if (out.len > 0) out.end[out.len - 1] = next;
    p = next;
    if (u.tok[p - 1].commaAfter || u.tok[p - 1].stopAfter) break;
  }
}

bool allDigits(const char* s, std::size_t n) noexcept {
  for (std::size_t k = 0; k < n; ++k) {
    if (!isDigitChar(s[k])) return false;
  }
  return true;
}

// ---- UK National Insurance number: two prefix letters, six digits, a suffix A-D ----
// The shape; the prefix letters HMRC never allocates are checked apart (ninoPrefixAllocated), because a cue like
// "national insurance" makes any prefix enough ("QQ 12 34 56 C" is the form's own example).
bool ninoShape(const char* s) noexcept {
  return isAlphaChar(s[0]) && isAlphaChar(s[1]) && allDigits(s + 2, 6) && s[8] >= 'A' && s[8] <= 'D';
}
bool ninoPrefixAllocated(const char* s) noexcept {
  constexpr std::string_view kNotFirst = "DFIQUV", kNotSecond = "DFIOQUV";
  if (kNotFirst.find(s[0]) != std::string_view::npos || kNotSecond.find(s[1]) != std::string_view::npos) return false;
  const std::string_view prefix(s, 2);
  for (std::string_view bad : {"BG", "GB", "NK", "KN", "TN", "NT", "ZZ"}) {
    if (prefix == bad) return false;
  }
  return true;
}

// ---- Australian tax file number: weighted sum divisible by 11 ----
bool tfnValid(const char* s, std::size_t n) noexcept {
  static constexpr int kW9[] = {1, 4, 3, 7, 5, 8, 6, 9, 10};
  static constexpr int kW8[] = {10, 7, 8, 4, 6, 3, 5, 1};
  if ((n != 8 && n != 9) || !allDigits(s, n)) return false;
  int sum = 0;
  for (std::size_t k = 0; k < n; ++k) sum += (s[k] - '0') * (n == 9 ? kW9[k] : kW8[k]);
  return sum % 11 == 0;
}

// ---- Australian Medicare number: 10 digits (the 10th is the issue number), check digit at 9 ----
bool medicareValid(const char* s) noexcept {
  static constexpr int kW[] = {1, 3, 7, 9, 1, 3, 7, 9};
  if (!allDigits(s, 10) || s[0] < '2' || s[0] > '6') return false;
  int sum = 0;
  for (std::size_t k = 0; k < 8; ++k) sum += (s[k] - '0') * kW[k];
  return sum % 10 == s[8] - '0';
}

bool numberish(const Utterance& u, std::size_t i) noexcept { return i < u.n && (u.tok[i].hasDigit || u.isNum(i)); }

// Where an id may start: a number, or one or two letters right before one ("QQ 12 ...", "q q one two ..."). Cheap
// enough to test at every word: the readers below run only where it holds.
bool valueStart(const Utterance& u, std::size_t i) noexcept {
  if (i > 0 && numberish(u, i - 1) && !u.tok[i - 1].commaAfter) return false;
  if (numberish(u, i)) return true;
  const std::string_view raw = u.raw(i);
  if (raw.size() == 2 && isAlphaChar(raw[0]) && isAlphaChar(raw[1])) return numberish(u, i + 1);
  return isLetterToken(u, i) && (numberish(u, i + 1) || (isLetterToken(u, i + 1) && numberish(u, i + 2)));
}

void findNationalIds(const Utterance& u, Candidates& c) noexcept {
  Compact v;
  for (std::size_t i = 0; i < u.n; ++i) {
    if (!valueStart(u, i)) continue;
    readCompact(u, i, 11, v);
    if (v.len < 8) continue;  // every id here has at least eight characters
    const bool ninoCue = cueBefore(u, i, 6, {"insurance", "nino", "ni"});
    const bool sinCue = cueBefore(u, i, 6, {"sin"}) || (cueBefore(u, i, 6, {"insurance"}) && cueBefore(u, i, 7, {"social"}));
    const bool tfnCue = cueBefore(u, i, 6, {"tfn"}) || (cueBefore(u, i, 6, {"file"}) && cueBefore(u, i, 7, {"tax"}));
    const bool medicareCue = cueBefore(u, i, 6, {"medicare"});
    // NINO: with an allocated prefix the shape stands on its own; any prefix after a cue.
    if (v.len >= 9 && ninoShape(v.ch) && v.tokenEndAfter(9) != 0 &&
        (ninoCue || ninoPrefixAllocated(v.ch))) {
      c.add(i, v.tokenEndAfter(9), PiiType::ssn, prio::ssn);
      i = v.tokenEndAfter(9) - 1;
      continue;
    }
    if (v.len >= 10 && medicareCue && medicareValid(v.ch)) {
      // The individual reference number may follow as an 11th digit.
      const std::size_t n = (v.len >= 11 && isDigitChar(v.ch[10]) && v.tokenEndAfter(11)) ? 11 : 10;
      if (v.tokenEndAfter(n) != 0) {
        c.add(i, v.tokenEndAfter(n), PiiType::ssn, prio::ssn);
        i = v.tokenEndAfter(n) - 1;
        continue;
      }
    }
    if (v.len >= 9 && sinCue && allDigits(v.ch, 9) && luhnValid(std::string_view(v.ch, 9)) && v.tokenEndAfter(9)) {
      c.add(i, v.tokenEndAfter(9), PiiType::ssn, prio::ssn);
      i = v.tokenEndAfter(9) - 1;
      continue;
    }
    if (tfnCue) {
      for (std::size_t n : {std::size_t{9}, std::size_t{8}}) {
        if (v.len >= n && v.tokenEndAfter(n) != 0 && tfnValid(v.ch, n) && (v.len == n || !isDigitChar(v.ch[n]))) {
          c.add(i, v.tokenEndAfter(n), PiiType::ssn, prio::ssn);
          i = v.tokenEndAfter(n) - 1;
          break;
        }
      }
    }
  }
}

// ---- postcodes ----
// One case throughout: "SW1A", "sw1a" (typed in lowercase), not "Sw1A".
bool oneCase(std::string_view w) noexcept {
  bool upper = false, lower = false;
  for (char ch : w) {
    upper = upper || (ch >= 'A' && ch <= 'Z');
    lower = lower || (ch >= 'a' && ch <= 'z');
  }
  return !(upper && lower);
}

bool ukOutward(std::string_view w) noexcept {
  // A9, A99, AA9, AA99, A9A, AA9A.
  if (w.size() < 2 || w.size() > 4 || !isAlphaChar(w[0])) return false;
  std::size_t k = 1;
  if (isAlphaChar(w[k])) ++k;
  if (k >= w.size() || !isDigitChar(w[k])) return false;
  ++k;
  return k == w.size() || (k + 1 == w.size() && (isDigitChar(w[k]) || isAlphaChar(w[k])));
}
bool ukInward(std::string_view w) noexcept {
  return w.size() == 3 && isDigitChar(w[0]) && isAlphaChar(w[1]) && isAlphaChar(w[2]);
}
bool caFirst(std::string_view w) noexcept {
  constexpr std::string_view kFirst = "ABCEGHJKLMNPRSTVXY";
  return w.size() == 3 && kFirst.find(upperChar(w[0])) != std::string_view::npos && isDigitChar(w[1]) &&
         isAlphaChar(w[2]);
}
bool caSecond(std::string_view w) noexcept {
  return w.size() == 3 && isDigitChar(w[0]) && isAlphaChar(w[1]) && isDigitChar(w[2]);
}

void findPostcodes(const Utterance& u, Candidates& c) noexcept {
  for (std::size_t i = 0; i < u.n; ++i) {
    if (!u.tok[i].hasDigit) continue;
    const std::string_view a = u.raw(i);
    const std::string_view b = (i + 1 < u.n && !u.tok[i].commaAfter) ? u.raw(i + 1) : std::string_view();
    std::size_t end = 0;
    if (oneCase(a) && oneCase(b) && ((ukOutward(a) && ukInward(b)) || (caFirst(a) && caSecond(b)))) {
      end = i + 2;
    } else if (oneCase(a) && a.size() >= 5 && a.size() <= 7 &&
               ((ukOutward(a.substr(0, a.size() - 3)) && ukInward(a.substr(a.size() - 3))) ||
                (a.size() == 6 && caFirst(a.substr(0, 3)) && caSecond(a.substr(3))))) {
      end = i + 1;
    }
    if (end != 0) {
      c.add(i, end, PiiType::address, prio::address - 1);
      i = end - 1;
    }
  }
}

}  // namespace

void findIdentityNumbers(const Utterance& u, Candidates& c) noexcept {
  findNationalIds(u, c);
  findPostcodes(u, c);
}

}  // namespace sotto::privacy::detail
