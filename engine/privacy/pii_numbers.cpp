// SPDX-License-Identifier: MIT
// Spoken-number lexer and the Luhn / ISO 13616 (mod 97) check-digit validators.
#include "engine/privacy/pii_numbers.h"

namespace sotto::privacy::detail {
namespace {

struct WordEntry {
  std::string_view word;
  NumKind kind;
  std::int8_t value;
};

constexpr WordEntry kNumberWords[] = {
    {"zero", NumKind::digit, 0},      {"oh", NumKind::digit, 0},         {"one", NumKind::digit, 1},
    {"two", NumKind::digit, 2},       {"three", NumKind::digit, 3},      {"four", NumKind::digit, 4},
    {"five", NumKind::digit, 5},      {"six", NumKind::digit, 6},        {"seven", NumKind::digit, 7},
    {"eight", NumKind::digit, 8},     {"nine", NumKind::digit, 9},       {"niner", NumKind::digit, 9},
    {"ten", NumKind::teen, 10},
    {"eleven", NumKind::teen, 11},    {"twelve", NumKind::teen, 12},     {"thirteen", NumKind::teen, 13},
    {"fourteen", NumKind::teen, 14},  {"fifteen", NumKind::teen, 15},    {"sixteen", NumKind::teen, 16},
    {"seventeen", NumKind::teen, 17}, {"eighteen", NumKind::teen, 18},   {"nineteen", NumKind::teen, 19},
    {"twenty", NumKind::tens, 20},    {"thirty", NumKind::tens, 30},     {"forty", NumKind::tens, 40},
    {"fifty", NumKind::tens, 50},     {"sixty", NumKind::tens, 60},      {"seventy", NumKind::tens, 70},
    {"eighty", NumKind::tens, 80},    {"ninety", NumKind::tens, 90},     {"hundred", NumKind::hundred, 0},
    {"thousand", NumKind::thousand, 0}, {"double", NumKind::repeat, 2},  {"triple", NumKind::repeat, 3},
    {"first", NumKind::ordinal, 1},   {"second", NumKind::ordinal, 2},   {"third", NumKind::ordinal, 3},
    {"fourth", NumKind::ordinal, 4},  {"fifth", NumKind::ordinal, 5},    {"sixth", NumKind::ordinal, 6},
    {"seventh", NumKind::ordinal, 7}, {"eighth", NumKind::ordinal, 8},   {"ninth", NumKind::ordinal, 9},
    {"tenth", NumKind::ordinal, 10},  {"eleventh", NumKind::ordinal, 11}, {"twelfth", NumKind::ordinal, 12},
    {"thirteenth", NumKind::ordinal, 13}, {"fourteenth", NumKind::ordinal, 14},
    {"fifteenth", NumKind::ordinal, 15}, {"sixteenth", NumKind::ordinal, 16},
    {"seventeenth", NumKind::ordinal, 17}, {"eighteenth", NumKind::ordinal, 18},
    {"nineteenth", NumKind::ordinal, 19}, {"twentieth", NumKind::ordinal, 20},
    {"thirtieth", NumKind::ordinal, 30},
};

// Head of a chunk: tens+digit ("thirty five"), tens, teen or digit. Returns tokens used (0: none).
std::size_t readHead(const Utterance& u, std::size_t i, std::uint32_t& value, bool& twoDigit) noexcept {
  if (i >= u.n) return 0;
  const Token& t = u.tok[i];
  if (t.num == NumKind::tens) {
    // "ninety-five" written as one word is already whole.
    if (t.numVal % 10 == 0 && i + 1 < u.n && u.tok[i + 1].num == NumKind::digit && u.tok[i + 1].numVal > 0 &&
        !u.is(i + 1, "oh")) {
      value = static_cast<std::uint32_t>(t.numVal + u.tok[i + 1].numVal);
      twoDigit = true;
      return 2;
    }
    value = static_cast<std::uint32_t>(t.numVal);
    twoDigit = true;
    return 1;
  }
  if (t.num == NumKind::teen || t.num == NumKind::digit) {
    value = static_cast<std::uint32_t>(t.numVal);
    twoDigit = t.num == NumKind::teen;
    return 1;
  }
  return 0;
}

void putValue(std::uint64_t v, std::size_t minWidth, Chunk& c) noexcept {
  char tmp[24];
  std::size_t n = 0;
  do {
    tmp[n++] = static_cast<char>('0' + v % 10);
    v /= 10;
  } while (v != 0 && n < sizeof tmp);
  while (n < minWidth && n < sizeof tmp) tmp[n++] = '0';
  c.len = static_cast<std::uint8_t>(n);
  for (std::size_t k = 0; k < n; ++k) c.digits[k] = tmp[n - 1 - k];
}

}  // namespace

NumberWord numberWord(std::string_view word) noexcept {
  for (const auto& e : kNumberWords) {
    if (e.word == word) return {e.kind, e.value};
  }
  // "ninety-five", "forty-two": a tens word and a digit word joined by a hyphen, one number.
  if (const std::size_t dash = word.find('-'); dash != std::string_view::npos && dash > 0) {
    const NumberWord tens = numberWord(word.substr(0, dash));
    const NumberWord unit = numberWord(word.substr(dash + 1));
    if (tens.kind == NumKind::tens && unit.kind == NumKind::digit && unit.value > 0 &&
        word.substr(dash + 1) != "oh") {
      return {NumKind::tens, static_cast<std::int8_t>(tens.value + unit.value)};
    }
  }
  return {};
}

std::uint64_t Chunk::value() const noexcept {
  std::uint64_t v = 0;
  for (std::size_t k = 0; k < len && k < 19; ++k) v = v * 10 + static_cast<std::uint64_t>(digits[k] - '0');
  return v;
}

bool readChunk(const Utterance& u, std::size_t i, Chunk& c) noexcept {
  c = Chunk{};
  if (i >= u.n) return false;
  const Token& t = u.tok[i];
  c.t0 = static_cast<std::uint16_t>(i);
  if (t.num == NumKind::written) {
    const std::string_view w = u.word(i);
    if (w.size() > Chunk::kMaxDigits) return false;
    for (std::size_t k = 0; k < w.size(); ++k) c.digits[k] = w[k];
    c.len = static_cast<std::uint8_t>(w.size());
    c.t1 = static_cast<std::uint16_t>(i + 1);
    return true;
  }
  if (t.num == NumKind::repeat) {
    if (i + 1 >= u.n || u.tok[i + 1].num != NumKind::digit) return false;
    for (int k = 0; k < t.numVal; ++k) c.digits[k] = static_cast<char>('0' + u.tok[i + 1].numVal);
    c.len = static_cast<std::uint8_t>(t.numVal);
    c.t1 = static_cast<std::uint16_t>(i + 2);
    return true;
  }
  std::uint32_t x = 0;
  bool twoDigit = false;
  std::size_t used = readHead(u, i, x, twoDigit);
  if (used == 0) return false;
  std::size_t p = i + used;
  // "oh" never leads a quantity that is multiplied ("oh hundred" is not a number).
  const bool canMultiply = !u.is(i, "oh") && !u.is(i, "zero") && x > 0;
  if (canMultiply && p < u.n && u.tok[p].num == NumKind::thousand && x < 100) {
    std::uint64_t v = std::uint64_t{x} * 1000;
    ++p;
    std::uint32_t h = 0;
    bool hTwo = false;
    std::size_t hu = readHead(u, p, h, hTwo);
    if (hu == 1 && h > 0 && h < 10 && p + 1 < u.n && u.tok[p + 1].num == NumKind::hundred) {
      v += std::uint64_t{h} * 100;
      p += 2;
    }
    if (u.is(p, "and")) ++p;
    std::uint32_t r = 0;
    bool rTwo = false;
    std::size_t ru = readHead(u, p, r, rTwo);
    if (ru > 0 && !u.is(p, "oh")) {
      v += r;
      p += ru;
    } else if (p > 0 && u.is(p - 1, "and")) {
      --p;
    }
    putValue(v, 1, c);
    c.compound = c.thousand = true;
    c.t1 = static_cast<std::uint16_t>(p);
    return true;
  }
  if (canMultiply && p < u.n && u.tok[p].num == NumKind::hundred) {
    std::uint64_t v = std::uint64_t{x} * 100;
    ++p;
    if (u.is(p, "and")) ++p;
    std::uint32_t r = 0;
    bool rTwo = false;
    std::size_t ru = readHead(u, p, r, rTwo);
    if (ru > 0 && !u.is(p, "oh") && !u.is(p, "zero")) {
      v += r;
      p += ru;
    } else if (u.is(p - 1, "and")) {
      --p;
    }
    putValue(v, 1, c);
    c.compound = true;
    c.t1 = static_cast<std::uint16_t>(p);
    return true;
  }
  putValue(x, twoDigit ? 2 : 1, c);
  c.t1 = static_cast<std::uint16_t>(p);
  return true;
}

void readRun(const Utterance& u, std::size_t i, std::size_t limit, NumberRun& r) noexcept {
  r.t0 = r.t1 = i;
  r.chunkCount = 0;
  r.len = 0;
  r.anyCompound = r.anyThousand = r.anyWritten = false;
  std::size_t p = i;
  while (p < limit && r.chunkCount < NumberRun::kMaxChunks) {
    Chunk& c = r.chunks[r.chunkCount];
    if (!readChunk(u, p, c) || c.t1 > limit) break;
    if (r.len + c.len > NumberRun::kMaxDigits) break;
    // Written digit tokens join a run only with other written tokens: "call 555 0123" yes, "5 five" no.
    const bool written = u.tok[p].num == NumKind::written;
    if (r.chunkCount > 0 && written != r.anyWritten) break;
    for (std::size_t k = 0; k < c.len; ++k) r.digits[r.len + k] = c.digits[k];
    r.len += c.len;
    r.anyCompound = r.anyCompound || c.compound;
    r.anyThousand = r.anyThousand || c.thousand;
    r.anyWritten = written;
    ++r.chunkCount;
    p = c.t1;
    // A hesitation inside a spoken number stays inside it: "four one two uh eight eight ...".
    if (!written && p + 1 < limit && u.anyOf(p, p + 1, {"uh", "um", "er", "erm", "umm", "uhh"}) && u.isNum(p + 1) &&
        u.tok[p + 1].num != NumKind::written && !u.tok[p - 1].stopAfter) {
      ++p;
    }
  }
  r.t1 = p;
}

std::size_t NumberRun::tokenEndAfterDigits(std::size_t k) const noexcept {
  std::size_t acc = 0;
  for (std::size_t c = 0; c < chunkCount; ++c) {
    acc += chunks[c].len;
    if (acc == k) return chunks[c].t1;
    if (acc > k) return 0;
  }
  return 0;
}

bool readCardinal(const Utterance& u, std::size_t i, std::uint32_t& value, std::size_t& end) noexcept {
  if (i >= u.n) return false;
  if (u.tok[i].num == NumKind::written) {
    const std::string_view w = u.word(i);
    if (w.size() > 4) return false;
    std::uint32_t v = 0;
    for (char ch : w) v = v * 10 + static_cast<std::uint32_t>(ch - '0');
    value = v;
    end = i + 1;
    return true;
  }
  if (u.is(i, "oh")) return false;
  Chunk c;
  if (u.tok[i].num == NumKind::repeat || !readChunk(u, i, c)) return false;
  if (c.len > 6) return false;
  value = static_cast<std::uint32_t>(c.value());
  end = c.t1;
  return true;
}

std::size_t collectDigits(std::string_view s, std::string_view separators, char* buf, std::size_t cap) noexcept {
  std::size_t n = 0;
  for (char ch : s) {
    if (ch >= '0' && ch <= '9') {
      if (n == cap) return 0;
      buf[n++] = ch;
    } else if (separators.find(ch) == std::string_view::npos) {
      return 0;
    }
  }
  return n;
}

bool luhnValid(std::string_view digits) noexcept {
  if (digits.size() < 2) return false;
  unsigned sum = 0;
  bool dbl = false;
  for (std::size_t k = digits.size(); k-- > 0;) {
    const char ch = digits[k];
    if (ch < '0' || ch > '9') return false;
    unsigned d = static_cast<unsigned>(ch - '0');
    if (dbl) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    dbl = !dbl;
  }
  return sum % 10 == 0;
}

bool ibanValid(std::string_view s) noexcept {
  if (s.size() < 15 || s.size() > 34) return false;
  if (s[0] < 'A' || s[0] > 'Z' || s[1] < 'A' || s[1] > 'Z' || s[2] < '0' || s[2] > '9' || s[3] < '0' ||
      s[3] > '9') {
    return false;
  }
  // Move the first four characters to the end, letters become 10..35, the number mod 97 must be 1.
  unsigned rem = 0;
  for (std::size_t k = 0; k < s.size(); ++k) {
    const char ch = s[(k + 4) % s.size()];
    if (ch >= '0' && ch <= '9') {
      rem = (rem * 10 + static_cast<unsigned>(ch - '0')) % 97;
    } else if (ch >= 'A' && ch <= 'Z') {
      rem = (rem * 100 + static_cast<unsigned>(ch - 'A' + 10)) % 97;
    } else {
      return false;
    }
  }
  return rem == 1;
}

std::size_t ibanLength(char c0, char c1) noexcept {
  struct Country {
    char code[3];
    std::uint8_t length;
  };
  static constexpr Country kCountries[] = {
      {"AD", 24}, {"AE", 23}, {"AL", 28}, {"AT", 20}, {"AZ", 28}, {"BA", 20}, {"BE", 16}, {"BG", 22},
      {"BH", 22}, {"BR", 29}, {"BY", 28}, {"CH", 21}, {"CR", 22}, {"CY", 28}, {"CZ", 24}, {"DE", 22},
      {"DK", 18}, {"DO", 28}, {"EE", 20}, {"EG", 29}, {"ES", 24}, {"FI", 18}, {"FO", 18}, {"FR", 27},
      {"GB", 22}, {"GE", 22}, {"GI", 23}, {"GL", 18}, {"GR", 27}, {"GT", 28}, {"HR", 21}, {"HU", 28},
      {"IE", 22}, {"IL", 23}, {"IQ", 23}, {"IS", 26}, {"IT", 27}, {"JO", 30}, {"KW", 30}, {"KZ", 20},
      {"LB", 28}, {"LC", 32}, {"LI", 21}, {"LT", 20}, {"LU", 20}, {"LV", 21}, {"MC", 27}, {"MD", 24},
      {"ME", 22}, {"MK", 19}, {"MR", 27}, {"MT", 31}, {"MU", 30}, {"NL", 18}, {"NO", 15}, {"PK", 24},
      {"PL", 28}, {"PS", 29}, {"PT", 25}, {"QA", 29}, {"RO", 24}, {"RS", 22}, {"SA", 24}, {"SC", 31},
      {"SE", 24}, {"SI", 19}, {"SK", 24}, {"SM", 27}, {"ST", 25}, {"SV", 28}, {"TL", 23}, {"TN", 24},
      {"TR", 26}, {"UA", 29}, {"VA", 22}, {"VG", 24}, {"XK", 20},
  };
  for (const auto& c : kCountries) {
    if (c.code[0] == c0 && c.code[1] == c1) return c.length;
  }
  return 0;
}

}  // namespace sotto::privacy::detail
