// SPDX-License-Identifier: MIT
// Postal addresses: house number + street name + street type, then optional unit, city, region, postal code.
#include <algorithm>

#include "engine/privacy/pii_numbers.h"
#include "engine/privacy/pii_recognizers.h"

namespace sotto::privacy::detail {
namespace {

bool isDigit(char ch) noexcept { return ch >= '0' && ch <= '9'; }
bool isUpperAscii(char ch) noexcept { return ch >= 'A' && ch <= 'Z'; }

// "57", "12a", "25B": a written house or unit number.
bool writtenHouseNumber(std::string_view w) noexcept {
  if (w.empty() || w.size() > 8 || !isDigit(w[0])) return false;
  std::size_t k = 0;
  while (k < w.size() && isDigit(w[k])) ++k;
  // "3/33 King Street": a unit and its building's number (Australia, New Zealand).
  if (k < w.size() && w[k] == '/' && k + 1 < w.size()) {
    std::size_t m = k + 1;
    while (m < w.size() && isDigit(w[m])) ++m;
    if (m > k + 1 && m == w.size()) return true;
  }
  return k == w.size() || (k + 1 == w.size() && ((w[k] >= 'a' && w[k] <= 'z') || (w[k] >= 'A' && w[k] <= 'Z')));
}

// House number at i: written token or a spoken run of up to five digits. Returns the token after it (0: none).
std::size_t houseNumber(const Utterance& u, std::size_t i) noexcept {
  if (i >= u.n) return 0;
  if (u.tok[i].hasDigit) return writtenHouseNumber(u.raw(i)) ? i + 1 : 0;
  if (!u.isNum(i) || u.is(i, "oh")) return 0;
  NumberRun run;
  readRun(u, i, u.n, run);
  if (run.t1 == i || run.len > 5 || run.anyWritten) return 0;
  return run.t1;
}

bool streetNameWord(const Utterance& u, std::size_t i) noexcept {
  if (i >= u.n || u.isNum(i) || u.tok[i].hasDigit) return false;
  if (u.has(i, lex::function | lex::unitWord | lex::relation)) return false;
  for (char ch : u.word(i)) {
    if (!((ch >= 'a' && ch <= 'z') || ch == '\'' || ch == '-' || ch == '.' || static_cast<unsigned char>(ch) >= 0x80)) {
      return false;
    }
  }
  return true;
}

// Unit after the street: "apartment twenty six", "Apt 25B", "unit forty", "flat 3". Returns the end (0: none).
std::size_t unitPart(const Utterance& u, std::size_t i) noexcept {
  if (!u.has(i, lex::unitWord)) return 0;
  std::size_t p = i + 1;
  if (u.is(p, "number") || u.is(p, "no") || u.raw(p) == "#") ++p;
  if (p >= u.n) return 0;
  if (u.tok[p].hasDigit || (u.raw(p).size() <= 3 && u.raw(p).size() >= 1 && isUpperAscii(u.raw(p)[0]))) {
    return writtenHouseNumber(u.raw(p)) || isUpperAscii(u.raw(p)[0]) ? p + 1 : 0;
  }
  NumberRun run;
  readRun(u, p, u.n, run);
  if (run.t1 == p || run.len > 4) return 0;
  p = run.t1;
  if (isLetterToken(u, p) && !u.is(p, "a") && !u.is(p, "i")) ++p;
  return p;
}

// US ZIP (written 5 or 5-4 digits, spoken five single digits) or UK postcode (written "LS11 2BF", spoken
// letter by letter). Returns the end (0: none).
std::size_t postalCode(const Utterance& u, std::size_t i) noexcept {
  if (i >= u.n) return 0;
  const std::string_view raw = u.raw(i);
  if (u.tok[i].hasDigit) {
    if ((raw.size() == 5 && u.tok[i].allDigits) ||
        (raw.size() == 10 && raw[5] == '-' && u.tok[i].hasDigit)) {
      return i + 1;
    }
    // UK outward code + inward code: "M5 3SQ", "LS11 2BF", "W1A 1AA".
    auto outward = [](std::string_view w) {
      if (w.size() < 2 || w.size() > 4 || !isUpperAscii(w[0])) return false;
      std::size_t k = 1;
      if (isUpperAscii(w[k])) ++k;
      if (k >= w.size() || !isDigit(w[k])) return false;
      ++k;
      return k == w.size() || (k + 1 == w.size() && (isDigit(w[k]) || isUpperAscii(w[k])));
    };
    const std::string_view next = u.raw(i + 1);
    if (raw.size() == 3 && isUpperAscii(raw[0]) && isDigit(raw[1]) && isUpperAscii(raw[2]) && next.size() == 3 &&
        isDigit(next[0]) && isUpperAscii(next[1]) && isDigit(next[2])) {
      return i + 2;  // Canadian "M5X 1H9"
    }
    if (outward(raw) && next.size() == 3 && isDigit(next[0]) && isUpperAscii(next[1]) && isUpperAscii(next[2])) {
      return i + 2;
    }
    return 0;
  }
  // Spoken ZIP: exactly five single digits.
  std::size_t p = i, digits = 0;
  while (p < u.n && u.tok[p].num == NumKind::digit && digits < 6) {
    ++digits;
    ++p;
  }
  if (digits == 5 && !(p < u.n && u.isNum(p))) return p;
  // Spoken UK postcode: L{1,2} (D{2,3} | D L D) L L, letters and digits one word each.
  p = i;
  std::size_t letters = 0;
  while (letters < 2 && isLetterToken(u, p)) {
    ++letters;
    ++p;
  }
  if (letters == 0) return 0;
  auto digitAt = [&](std::size_t q) { return q < u.n && u.tok[q].num == NumKind::digit; };
  // Canadian: L D L D L D ("m five x one h nine").
  if (letters == 1 && digitAt(p) && isLetterToken(u, p + 1) && digitAt(p + 2) && isLetterToken(u, p + 3) &&
      digitAt(p + 4)) {
    return p + 5;
  }
  if (digitAt(p) && isLetterToken(u, p + 1) && digitAt(p + 2)) {
    p += 3;
  } else {
    // The district's digits one by one, or as a number ("m fourteen eight t p"); then the sector's digit.
    std::size_t d = 0;
    while (d < 3 && (digitAt(p) || (p < u.n && (u.tok[p].num == NumKind::teen || u.tok[p].num == NumKind::tens)))) {
      d += digitAt(p) ? 1 : 2;
      ++p;
    }
    if (d < 2) return 0;
  }
  if (isLetterToken(u, p) && isLetterToken(u, p + 1)) return p + 2;
  return 0;
}

// An Irish Eircode: a routing key (a letter and two digits, or "D6W") and four letters or digits, written ("D09
// X2Y3") or said one by one ("d zero nine x two y three"). Returns the end (0: none).
std::size_t eircode(const Utterance& u, std::size_t i) noexcept {
  if (i >= u.n) return 0;
  const std::string_view raw = u.raw(i);
  const auto alnum = [](char ch) { return isDigit(ch) || isUpperAscii(ch) || (ch >= 'a' && ch <= 'z'); };
  if (raw.size() == 3 && alnum(raw[0]) && !isDigit(raw[0]) && isDigit(raw[1]) && alnum(raw[2])) {
    const std::string_view next = u.raw(i + 1);
    if (next.size() == 4 && std::all_of(next.begin(), next.end(), alnum)) return i + 2;
    return 0;
  }
  if (!isLetterToken(u, i)) return 0;
  auto digitAt = [&](std::size_t q) { return q < u.n && u.tok[q].num == NumKind::digit; };
  if (!digitAt(i + 1) || !(digitAt(i + 2) || isLetterToken(u, i + 2))) return 0;
  std::size_t p = i + 3, k = 0;
  while (k < 4 && (digitAt(p) || isLetterToken(u, p))) ++p, ++k;
  return k == 4 ? p : 0;
}

// A postcode of digits after its place: four (Australia, New Zealand, much of Europe) or six (India), written
// ("3065", "560038", "- 560038") or said ("two one five zero", "six oh oh oh two oh", "double one double oh two
// four"). Returns the end (0: none).
std::size_t digitCode(const Utterance& u, std::size_t i) noexcept {
  if (i >= u.n) return 0;
  std::size_t p = i;
  if (u.raw(p) == "-" || u.raw(p) == "\u2013") ++p;  // "Bengaluru - 560038"
  if (p >= u.n) return 0;
  if (u.tok[p].allDigits) {
    const std::size_t n = u.raw(p).size();
    return (n == 4 || n == 6) && !u.isNum(p + 1) ? p + 1 : 0;
  }
  NumberRun run;
  readRun(u, p, u.n, run);
  if (run.t1 == p || run.anyWritten || run.anyThousand) return 0;
  return run.len == 4 || run.len == 6 ? run.t1 : 0;
}

// A region spelt letter by letter: "n s w", "t a s".
std::size_t speltRegion(const Utterance& u, std::size_t i) noexcept {
  char letters[3];
  std::size_t k = 0;
  while (k < 3 && isLetterToken(u, i + k)) letters[k] = u.word(i + k)[0], ++k;
  for (std::size_t len = k; len >= 2; --len) {
    if (u.lexicon->lookup(std::string_view(letters, len)) & (lex::region | lex::regionAlt)) return i + len;
  }
  return 0;
}

// A region after the city: state names ("north carolina") or written codes ("NC").
std::size_t regionPart(const Utterance& u, std::size_t i) noexcept {
  if (i >= u.n) return 0;
  // An Irish county: "Co. Waterford", "county cork".
  constexpr std::uint32_t kRegion = lex::region | lex::regionAlt;
  if ((u.is(i, "co") || u.is(i, "county")) && i + 1 < u.n && u.has(i + 1, kRegion)) return i + 2;
  if (i + 2 < u.n && (u.lexicon->lookup(u.phrase(i, i + 3)) & kRegion)) return i + 3;  // "new south wales"
  if (i + 1 < u.n && (u.lexicon->lookup(u.phrase(i, i + 2)) & kRegion)) return i + 2;
  if (!u.has(i, kRegion)) return 0;
  const std::string_view raw = u.raw(i);
  if (raw.size() == 2) return (isUpperAscii(raw[0]) && isUpperAscii(raw[1])) ? i + 1 : 0;
  return i + 1;
}

bool cityWord(const Utterance& u, std::size_t i) noexcept {
  if (!streetNameWord(u, i) || u.has(i, lex::common | lex::streetType | lex::streetTypeAlt | lex::month)) return false;
  return u.caseless || u.tok[i].capital;
}

// City: 1-3 words that end the address (end of text, a comma, a region or a postal code).
std::size_t cityPart(const Utterance& u, std::size_t i) noexcept {
  std::size_t best = 0;
  for (std::size_t k = 0; k < 3 && cityWord(u, i + k); ++k) {
    const std::size_t e = i + k + 1;
    if (e == u.n || u.tok[e - 1].commaAfter || u.tok[e - 1].stopAfter || regionPart(u, e) != 0 ||
        postalCode(u, e) != 0 || eircode(u, e) != 0 ||
        u.anyOf(e, e + 1, {"to", "and", "please", "tomorrow", "today", "by", "for"})) {
      best = e;
    }
    if (u.tok[e - 1].commaAfter || u.tok[e - 1].stopAfter) break;
  }
  return best;
}

// The street part of an address everyone knows: the Prime Minister's, the President's, Sherlock Holmes's, the
// Simpsons'. Knowledge, not a person's address.
bool famousAddress(const Utterance& u, std::size_t i, std::size_t street) noexcept {
  const std::string_view s = u.phrase(i, street);
  for (const std::string_view f : {"10 downing street", "ten downing street", "1600 pennsylvania avenue",
                                   "sixteen hundred pennsylvania avenue", "221b baker street", "742 evergreen terrace",
                                   "seven four two evergreen terrace", "seven forty two evergreen terrace",
                                   "one infinite loop", "1 infinite loop", "350 fifth avenue", "4 privet drive",
                                   "four privet drive", "12 grimmauld place", "124 conch street", "31 spooner street"}) {
    if (s == f) return true;
  }
  return false;
}

}  // namespace

void findAddresses(const Utterance& u, Candidates& c) noexcept {
  for (std::size_t i = 0; i < u.n; ++i) {
    if (i > 0 && u.isNum(i - 1) && !u.tok[i - 1].commaAfter) continue;  // start of a number only
    const std::size_t h = houseNumber(u, i);
    if (h == 0 || u.tok[h - 1].commaAfter) continue;
    // Street: up to three name words, then a street type ("mill lane", "martin luther king boulevard").
    std::size_t street = 0;
    for (std::size_t k = 0; k <= 3 && h + k < u.n; ++k) {
      if (k > 0 && u.has(h + k, lex::streetType | lex::streetTypeAlt) && !u.has(h + k, lex::function)) {
        street = h + k + 1;
        // "park lane road": take the last street type of the run.
        while (street < u.n && street < h + 5 && u.has(street, lex::streetType | lex::streetTypeAlt) &&
               !u.tok[street - 1].commaAfter) {
          ++street;
        }
        break;
      }
      if (!streetNameWord(u, h + k) || u.tok[h + k].commaAfter) break;
    }
    if (street == 0 && u.is(h, "broadway")) street = h + 1;
    if (street == 0) continue;
    std::size_t end = street;
    if (std::size_t e = unitPart(u, end)) end = e;
    if (std::size_t e = cityPart(u, end)) {
      end = e;
      // More place words before the region: "sandy bay tasmania", "douglas, cork".
      for (int more = 0; more < 2 && regionPart(u, end) == 0 && !u.tok[end - 1].stopAfter; ++more) {
        const std::size_t next = cityPart(u, end);
        if (next == 0 || regionPart(u, next) == 0) break;
        end = next;
      }
      // Then, in the order they are written: a region, Dublin's postal district ("dublin nine"), a postal code
      // (the longest reading: "h nine one zero w x zero" is an Eircode, not a UK code that stops before its end).
      bool region = false;
      for (int part = 0; part < 3; ++part) {
        if (std::size_t r = std::max(regionPart(u, end), speltRegion(u, end)); r != 0 && !region) {
          end = r;
          region = true;
          continue;
        }
        std::uint32_t district = 0;
        std::size_t d = 0;
        if (u.is(end - 1, "dublin") && u.isNum(end) && readCardinal(u, end, district, d) && district >= 1 &&
            district <= 24 && !u.isNum(d)) {
          end = d;
          continue;
        }
        const std::size_t code = std::max({postalCode(u, end), eircode(u, end), digitCode(u, end)});
        if (code != 0) end = code;
        break;
      }
    } else if (std::size_t z = std::max(postalCode(u, end), eircode(u, end)); z != 0) {
      end = z;
    }
    // Addresses everyone knows, asked about as such: "what's the postcode for 10 downing street".
    if (famousAddress(u, i, street)) {
      i = end - 1;
      continue;
    }
    // Unit written first: "Flat 9, 57 Mill Ln".
    std::size_t start = i;
    if (i >= 1 && u.has(i - 1, lex::unitWord) && !u.tok[i - 1].commaAfter) start = i - 1;
    if (i >= 2 && u.has(i - 2, lex::unitWord) && u.tok[i - 1].commaAfter && writtenHouseNumber(u.raw(i - 1))) {
      start = i - 2;
    }
    c.add(start, end, PiiType::address, prio::address);
    i = end - 1;
  }
}

}  // namespace sotto::privacy::detail
