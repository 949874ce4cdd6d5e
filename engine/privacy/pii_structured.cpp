// SPDX-License-Identifier: MIT
// Structural recognizers: checksum-validated cards and IBANs, SSNs, phone numbers, e-mail and IP addresses.
#include <algorithm>

#include "engine/privacy/pii_numbers.h"
#include "engine/privacy/pii_recognizers.h"

namespace sotto::privacy::detail {
namespace {

char upper(char ch) noexcept { return (ch >= 'a' && ch <= 'z') ? static_cast<char>(ch - 'a' + 'A') : ch; }
bool isDigit(char ch) noexcept { return ch >= '0' && ch <= '9'; }
bool isAlnum(char ch) noexcept { return isDigit(ch) || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z'); }

// Written digit groups joined over tokens: "+1 206 555 0111", "(206) 555-0111", "4052 9232 2582 4814".
// Each token holds only digits and separators; a comma or full stop after a token ends the group.
struct DigitGroup {
  std::size_t t0 = 0, t1 = 0;
  char digits[40] = {};
  std::size_t len = 0;
  bool plus = false;
  bool hasSlashOrColon = false;
};

bool groupToken(const Utterance& u, std::size_t i) noexcept {
  if (i >= u.n || !u.tok[i].hasDigit) return false;
  for (char ch : u.raw(i)) {
    if (!(isDigit(ch) || ch == '-' || ch == '.' || ch == '(' || ch == ')' || ch == '+')) return false;
  }
  return true;
}

bool readGroup(const Utterance& u, std::size_t i, std::size_t maxTokens, DigitGroup& g) noexcept {
  g = DigitGroup{};
  if (!groupToken(u, i)) return false;
  g.t0 = i;
  std::size_t p = i, groups = 0;
  while (p < u.n && groups < maxTokens && groupToken(u, p)) {
    ++groups;
    const std::string_view raw = u.raw(p);
    std::size_t before = g.len;
    for (char ch : raw) {
      if (isDigit(ch)) {
        if (g.len == sizeof g.digits) return false;
        g.digits[g.len++] = ch;
      }
      if (ch == '+') g.plus = g.plus || (p == i && raw[0] == '+');
    }
    (void)before;
    ++p;
    if (u.tok[p - 1].commaAfter || u.tok[p - 1].stopAfter || u.tok[p - 1].colonAfter) break;
    // A dash typed with spaces around it joins the groups: "412 - 88 - 1991".
    if (groups < maxTokens && u.raw(p) == "-" && groupToken(u, p + 1)) ++p;
  }
  g.t1 = p;
  return true;
}

bool cardCue(const Utterance& u, std::size_t i) noexcept {
  return cueBefore(u, i, 6, {"card", "visa", "mastercard", "amex", "discover", "debit", "credit", "charge", "cc"});
}
bool accountCue(const Utterance& u, std::size_t i) noexcept {
  return cueBefore(u, i, 3, {"account", "acct", "acc", "policy", "member", "customer", "routing", "sort"});
}
// Numbers that are not personal: media, flights, rooms, maths.
bool notPersonalNumberCue(const Utterance& u, std::size_t i) noexcept {
  return cueBefore(u, i, 3, {"track", "episode", "channel", "flight", "page", "chapter", "season", "room", "level",
                             "gate", "seat", "bus", "route", "error", "roman", "favorite", "favourite", "order",
                             "tracking", "model", "version", "plus", "minus", "times", "divided", "squared",
                             "root", "convert"});
}

// ---- IBAN ----
void findIbans(const Utterance& u, Candidates& c) noexcept {
  char buf[40];
  for (std::size_t i = 0; i < u.n; ++i) {
    // Spoken letter by letter: "g b eight two w e s t one two ...", or in the spelling alphabet ("india echo two
    // ... alpha india bravo kilo ...").
    const auto letterAt = [&u](std::size_t k) -> char {
      if (isLetterToken(u, k)) return upper(u.word(k)[0]);
      const char nato = natoLetter(u.word(k));
      return nato != 0 ? upper(nato) : 0;
    };
    if (letterAt(i) != 0 && letterAt(i + 1) != 0) {
      const char c0 = letterAt(i), c1 = letterAt(i + 1);
      const std::size_t want = ibanLength(c0, c1);
      if (want == 0) continue;
      std::size_t len = 0, p = i + 2;
      buf[len++] = c0;
      buf[len++] = c1;
      bool ok = true;
      while (ok && len < want && p < u.n) {
        if (letterAt(p) != 0 && len >= 4) {
          buf[len++] = letterAt(p);
          ++p;
          continue;
        }
        Chunk ch;
        if (!readChunk(u, p, ch) || ch.compound || len + ch.len > want) {
          ok = false;
          break;
        }
        for (std::size_t k = 0; k < ch.len; ++k) buf[len++] = ch.digits[k];
        p = ch.t1;
      }
      if (ok && len == want && ibanValid(std::string_view(buf, len))) {
        c.add(i, p, PiiType::iban, prio::iban);
        i = p - 1;
      }
      continue;
    }
    // Written, contiguous or in groups: "FR15 0572 8739 ...".
    const std::string_view raw = u.raw(i);
    if (raw.size() >= 4 && isAlnum(raw[0]) && !isDigit(raw[0]) && !isDigit(raw[1]) && isDigit(raw[2]) &&
        isDigit(raw[3])) {
      const std::size_t want = ibanLength(upper(raw[0]), upper(raw[1]));
      if (want == 0) continue;
      std::size_t len = 0, p = i;
      bool ok = true;
      while (p < u.n && len < want) {
        for (char ch : u.raw(p)) {
          if (!isAlnum(ch) || len == want) {
            ok = false;
            break;
          }
          buf[len++] = upper(ch);
        }
        ++p;
        if (!ok || u.tok[p - 1].commaAfter || u.tok[p - 1].stopAfter) break;
      }
      if (ok && len == want && ibanValid(std::string_view(buf, len))) {
        c.add(i, p, PiiType::iban, prio::iban);
        i = p - 1;
      }
    }
  }
}

// ---- payment cards ----
bool cardPrefix(char d) noexcept { return d >= '2' && d <= '6'; }

void findCards(const Utterance& u, Candidates& c) noexcept {
  NumberRun run;
  DigitGroup g;
  for (std::size_t i = 0; i < u.n; ++i) {
    if (!u.isNum(i) && !groupToken(u, i)) continue;
    if (u.tok[i].num == NumKind::written || groupToken(u, i)) {
      if (!readGroup(u, i, 6, g)) continue;
      if (g.len >= 13 && g.len <= 19 && cardPrefix(g.digits[0]) && luhnValid(std::string_view(g.digits, g.len)) &&
          (!accountCue(u, i) || cardCue(u, i))) {
        c.add(g.t0, g.t1, PiiType::creditCard, prio::card);
      }
      i = g.t1 - 1;
      continue;
    }
    readRun(u, i, u.n, run);
    if (run.t1 == i) continue;
    bool found = false;
    // The whole run, else its longest prefix on a chunk boundary (a card followed by "expiry oh nine ...").
    for (std::size_t len = (run.len < 19 ? run.len : 19); len >= 13 && !found; --len) {
      const std::size_t end = run.tokenEndAfterDigits(len);
      if (end == 0 || !cardPrefix(run.digits[0]) || !luhnValid(std::string_view(run.digits, len))) continue;
      if (accountCue(u, i) && !cardCue(u, i)) break;
      c.add(i, end, PiiType::creditCard, prio::card);
      found = true;
    }
    i = run.t1 - 1;
  }
}

// ---- SSN ----
bool ssnCueAt(const Utterance& u, std::size_t i) noexcept {
  // Not "my social worker's number", "the social club".
  if (u.is(i, "social") && i + 1 < u.n) {
    const std::string_view next = u.stem(i + 1);
    for (std::string_view w : {"worker", "workers", "media", "club", "services", "service", "network", "networks",
                               "life", "event", "events", "skills", "studies", "justice", "distancing", "circle",
                               "anxiety"}) {
      if (next == w) return false;
    }
  }
  if (u.anyOf(i, i + 1, {"ssn", "social", "ssn#", "s.s.n", "s.s.n.", "socials", "ssns"})) return true;
  if (i < u.n && u.tok[i].possessive && (u.stem(i) == "social" || u.stem(i) == "ssn")) return true;  // "my social's ..."
  // "ss number", "s s n", "s s number", "my ss card".
  if (u.is(i, "ss") && u.anyOf(i + 1, i + 2, {"number", "no", "#", "num", "card"})) return true;
  return u.is(i, "s") && u.is(i + 1, "s") && (u.is(i + 2, "n") || u.is(i + 2, "number"));
}
bool ssnCue(const Utterance& u, std::size_t i) noexcept {
  for (std::size_t k = (i > 6 ? i - 6 : 0); k < i; ++k) {
    if (ssnCueAt(u, k)) return true;
  }
  // "the social security number for my mother is ...": the full name of the number reaches further.
  for (std::size_t k = (i > 9 ? i - 9 : 0); k + 2 < i; ++k) {
    if (u.is(k, "social") && u.is(k + 1, "security") && u.anyOf(k + 2, k + 3, {"number", "no", "#", "num"})) {
      return true;
    }
  }
  return false;
}
// The cue after the number: "... that's my social", "... is my social security" (within the same sentence).
bool ssnCueAfter(const Utterance& u, std::size_t e) noexcept {
  if (e > 0 && u.tok[e - 1].stopAfter) return false;
  for (std::size_t k = e; k < u.n && k < e + 4; ++k) {
    if (ssnCueAt(u, k)) return true;
    if (u.tok[k].stopAfter) break;
  }
  return false;
}
bool ssnShape(std::string_view d) noexcept {
  if (d.size() != 9) return false;
  if (d.substr(0, 3) == "000" || d.substr(0, 3) == "666" || d[0] == '9') return false;
  return d.substr(3, 2) != "00" && d.substr(5, 4) != "0000";
}

// Nine digits typed in at most three groups from token i ("412 88 1991", "412-88-1991"): the token after them, or 0.
std::size_t nineDigitGroupEnd(const Utterance& u, std::size_t i) noexcept {
  if (u.tok[i].num != NumKind::written && !groupToken(u, i)) return 0;
  DigitGroup g;
  return readGroup(u, i, 3, g) && g.len == 9 ? g.t1 : 0;
}

void findSsns(const Utterance& u, Candidates& c) noexcept {
  NumberRun run;
  char buf[16];
  std::size_t ssnEnd = 0;  // token after the last SSN found
  const auto addSsn = [&](std::size_t t0, std::size_t t1) {
    c.add(t0, t1, PiiType::ssn, prio::ssn);
    ssnEnd = t1;
  };
  for (std::size_t i = 0; i < u.n; ++i) {
    if (!u.isNum(i) && !u.tok[i].hasDigit) continue;
    const std::string_view raw = u.raw(i);
    // 123-45-6789 is an SSN by shape alone.
    if (raw.size() == 11 && raw[3] == '-' && raw[6] == '-' && collectDigits(raw, "-", buf, sizeof buf) == 9 &&
        ssnShape(std::string_view(buf, 9))) {
      addSsn(i, i + 1);
      continue;
    }
    // "socials for the kids: 401 22 9090 and 401 22 9091": a second number in the same list.
    const bool listed = ssnEnd > 0 && (i == ssnEnd || (i == ssnEnd + 1 && u.anyOf(ssnEnd, i, {"and", "or", "then"})));
    if (!listed && !ssnCue(u, i)) {
      // Nine digits and only then the cue.
      if (i > 0 && (u.isNum(i - 1) || u.tok[i - 1].hasDigit)) continue;
      if (const std::size_t e = nineDigitGroupEnd(u, i); e != 0 && ssnCueAfter(u, e)) {
        addSsn(i, e);
        i = e - 1;
        continue;
      }
      readRun(u, i, u.n, run);
      if (run.t1 > i && run.len == 9 && ssnCueAfter(u, run.t1)) {
        addSsn(i, run.t1);
        i = run.t1 - 1;
      }
      continue;
    }
    if (const std::size_t e = nineDigitGroupEnd(u, i); e != 0) {
      addSsn(i, e);
      continue;
    }  // else digit by digit: "5 3 1 2 2 7 6 6 0"
    readRun(u, i, u.n, run);
    if (run.t1 > i && run.len >= 9) {
      const std::size_t end = run.tokenEndAfterDigits(9);
      if (end != 0) addSsn(i, end);
      i = run.t1 - 1;
    } else if (run.t1 > i && run.len == 3) {
      // Spoken with its dashes: "one two three dash four five dash six seven eight nine".
      std::size_t len = 0;
      for (std::size_t k = 0; k < run.len; ++k) buf[len++] = run.digits[k];
      std::size_t p = run.t1;
      for (std::size_t want : {std::size_t{2}, std::size_t{4}}) {
        if (len == 0 || !u.anyOf(p, p + 1, {"dash", "hyphen", "-"}) || !u.isNum(p + 1)) {
          len = 0;
          break;
        }
        NumberRun part;
        readRun(u, p + 1, u.n, part);
        if (part.len != want) {
          len = 0;
          break;
        }
        for (std::size_t k = 0; k < part.len; ++k) buf[len++] = part.digits[k];
        p = part.t1;
      }
      if (len == 9 && ssnShape(std::string_view(buf, 9))) {
        addSsn(i, p);
        i = p - 1;
      }
    }
  }
}

// ---- phone numbers ----
bool phoneLength(std::size_t len, bool plus) noexcept { return plus ? (len >= 8 && len <= 15) : (len >= 7 && len <= 13); }

void findPhones(const Utterance& u, Candidates& c) noexcept {
  NumberRun run;
  DigitGroup g;
  for (std::size_t i = 0; i < u.n; ++i) {
    if (!u.isNum(i) && !groupToken(u, i)) continue;
    if (u.tok[i].hasDigit) {
      if (!readGroup(u, i, 6, g)) continue;
      const std::string_view first = u.raw(i);
      const bool dottedQuad = first.find('.') != std::string_view::npos &&
                              std::count(first.begin(), first.end(), '.') == 3;
      const bool ssnLike = first.size() == 11 && first[3] == '-' && first[6] == '-';
      const bool dottedDate = std::count(first.begin(), first.end(), '.') == 2 && first.size() <= 10;
      const bool grouped = g.t1 - g.t0 > 1 || first.find_first_of("-.()+") != std::string_view::npos;
      // A bare run of digits is a phone number only with at least 10 digits or a phone cue (years, amounts).
      if (!dottedQuad && !ssnLike && !dottedDate && phoneLength(g.len, g.plus) && !notPersonalNumberCue(u, i) &&
          (grouped || g.len >= 10 || cueBefore(u, i, 4, {"phone", "number", "call", "text", "reach", "dial", "cell", "mobile"}))) {
        c.add(g.t0, g.t1, PiiType::phone, prio::phone);
      }
      i = g.t1 - 1;
      continue;
    }
    if (i > 0 && u.isNum(i - 1)) continue;  // only maximal runs
    readRun(u, i, u.n, run);
    if (run.t1 == i) continue;
    const bool plus = i > 0 && u.is(i - 1, "plus") && !(i > 1 && u.isNum(i - 2));
    bool compoundOk = true;
    for (std::size_t k = 0; k < run.chunkCount; ++k) {
      const Chunk& ch = run.chunks[k];
      // "fifty five hundred" reads as digits in a phone number; "two thousand ..." does not.
      if (ch.thousand || (ch.compound && ch.value() % 100 != 0)) compoundOk = false;
    }
    const bool nearDot = u.is(run.t1, "dot") || u.is(run.t1, "point") || (i > 0 && (u.is(i - 1, "dot") || u.is(i - 1, "point")));
    if (compoundOk && !nearDot && phoneLength(run.len, plus) && !notPersonalNumberCue(u, plus ? i - 1 : i)) {
      c.add(plus ? i - 1 : i, run.t1, PiiType::phone, prio::phone);
    }
    i = run.t1 - 1;
  }
}

// ---- e-mail ----
bool emailStop(const Utterance& u, std::size_t i) noexcept {
  return u.anyOf(i, i + 1, {"is", "to", "at", "email", "e-mail", "mail", "address", "me", "my", "it's", "send",
                            "forward", "update", "and", "or", "the", "his", "her", "their", "with", "reach",
                            "contact", "write", "cc", "message", "was", "new", "use", "try", "from", "as", "on",
                            "this", "that", "receipt", "invoice", "list", "please", "it", "did", "add", "reply",
                            "up", "actually", "no", "not", "but", "now", "just", "or", "boss", "via", "using", "invite",
                            "invited", "share", "shared"}) ||
         u.tok[i].possessive || u.tok[i].colonAfter || u.tok[i].commaAfter;
}
bool emailSeparator(const Utterance& u, std::size_t i) noexcept {
  return u.anyOf(i, i + 1, {"dot", "underscore", "dash", "hyphen", "period"});
}
// "(at)", "[at]", "{at}", "<at>" and the same for "dot": the ways an address is typed to keep it from harvesters.
std::size_t obfuscatedMark(std::string_view w, std::size_t at, std::string_view word) noexcept {
  if (at + word.size() + 2 > w.size()) return 0;
  const char open = w[at];
  const char close = open == '(' ? ')' : open == '[' ? ']' : open == '{' ? '}' : open == '<' ? '>' : 0;
  if (close == 0 || w.substr(at + 1, word.size()) != word || w[at + 1 + word.size()] != close) return 0;
  return word.size() + 2;
}
bool atWord(const Utterance& u, std::size_t i) noexcept {
  const std::string_view w = u.word(i);
  return w == "at" || (w.size() == 4 && obfuscatedMark(w, 0, "at") == 4);
}
bool dotWord(const Utterance& u, std::size_t i) noexcept {
  const std::string_view w = u.word(i);
  return w == "dot" || (w.size() == 5 && obfuscatedMark(w, 0, "dot") == 5);
}

bool domainWord(const Utterance& u, std::size_t i) noexcept {
  if (i >= u.n || emailSeparator(u, i) || u.is(i, "at") || u.word(i).front() == '(' || u.word(i).front() == '[') {
    return false;
  }
  const std::string_view w = u.word(i);
  // "at home [about] dinner"; but "at [me] dot com" is a domain.
  if (w.size() > 1 && u.has(i, lex::function) && !dotWord(u, i + 1)) return false;
  for (char ch : w) {
    if (!isAlnum(ch) && ch != '-') return false;
  }
  return true;
}

// One typed token "jane(at)example(dot)com" or "john[at]example[dot]org": a local part, an at mark, then domain
// labels joined by dot marks or dots, the last a known top-level domain.
bool obfuscatedEmail(const Utterance& u, std::string_view w) noexcept {
  std::size_t at = std::string_view::npos, atLen = 0;
  for (std::size_t k = 1; k < w.size(); ++k) {
    if (const std::size_t m = obfuscatedMark(w, k, "at"); m != 0) {
      at = k;
      atLen = m;
      break;
    }
  }
  if (at == std::string_view::npos) return false;
  for (std::size_t k = 0; k < at; ++k) {
    if (!isAlnum(w[k]) && w[k] != '.' && w[k] != '_' && w[k] != '-' && w[k] != '+') return false;
  }
  std::size_t labels = 0, start = at + atLen;
  std::string_view last;
  for (std::size_t k = start; k <= w.size(); ++k) {
    std::size_t sep = 0;
    if (k < w.size()) sep = w[k] == '.' ? 1 : obfuscatedMark(w, k, "dot");
    if (k == w.size() || sep != 0) {
      if (k == start) return false;  // an empty label
      last = w.substr(start, k - start);
      ++labels;
      k += sep == 0 ? 0 : sep - 1;
      start = k + 1;
      continue;
    }
    if (!isAlnum(w[k]) && w[k] != '-') return false;
  }
  return labels >= 2 && (u.lexicon->lookup(last) & lex::tld) != 0;
}

void findEmails(const Utterance& u, Candidates& c) noexcept {
  for (std::size_t i = 0; i < u.n; ++i) {
    if (!u.tok[i].hasAt && obfuscatedEmail(u, u.word(i))) {
      c.add(i, i + 1, PiiType::email, prio::email);
      continue;
    }
    if (u.tok[i].hasAt) {
      const std::string_view w = u.word(i);
      const std::size_t at = w.find('@');
      if (at > 0 && w.find('.', at) != std::string_view::npos && w.back() != '.' && w.find('@', at + 1) == std::string_view::npos) {
        c.add(i, i + 1, PiiType::email, prio::email);
      }
      continue;
    }
    if (!atWord(u, i) || i == 0) continue;
    // Domain: labels of one to three words ("i cloud", "b t internet") joined by "dot" (or "dash"), ending in a
    // known top-level domain, said as a word or letter by letter ("dot f r", "dot co dot u k").
    std::size_t p = i + 1, end = 0;
    for (;;) {
      std::size_t q = p;
      while (q < u.n && q - p < 3 && domainWord(u, q) && !dotWord(u, q)) ++q;
      if (q == p) break;
      if (q < u.n && (u.is(q, "dash") || u.is(q, "hyphen"))) {
        p = q + 1;
        continue;
      }
      if (q >= u.n || !dotWord(u, q)) break;
      const std::size_t t = q + 1;
      if (t < u.n && u.has(t, lex::tld) && !isLetterToken(u, t)) {
        end = t + 1;
      } else {
        char letters[4];
        std::size_t k = 0;
        while (k < 3 && isLetterToken(u, t + k)) letters[k] = u.word(t + k)[0], ++k;
        for (std::size_t len = k; len >= 2; --len) {
          if (u.lexicon->lookup(std::string_view(letters, len)) & lex::tld) {
            end = t + len;
            break;
          }
        }
      }
      p = t;
    }
    if (end == 0) continue;
    // Local part: back from "at" over words, numbers and spoken separators, up to a cue word.
    std::size_t s = i;
    while (s > 0 && i - s < 32 && !emailStop(u, s - 1)) --s;  // letters spelt one by one make long local parts
    while (s < i && emailSeparator(u, s)) ++s;
    // Nor over a wake word or a filler that opens the sentence: "[hey sotto] zielinski dot y ...", "[oh] m underscore
    // ..." ("oh" elsewhere may be a spoken letter o).
    while (s < i && ((u.has(s, lex::notName) && !u.has(s, lex::function) && !u.is(s, "oh")) || (s == 0 && u.is(s, "oh")))) {
      ++s;
    }
    if (s == i || emailSeparator(u, i - 1)) continue;
    c.add(s, end, PiiType::email, prio::email);
    i = end - 1;
  }
}

// ---- IP addresses ----
bool wellKnownIp(std::string_view ip) noexcept {
  constexpr std::string_view kKnown[] = {"8.8.8.8", "8.8.4.4", "1.1.1.1", "1.0.0.1", "127.0.0.1", "0.0.0.0",
                                         "255.255.255.255", "9.9.9.9", "208.67.222.222", "208.67.220.220",
                                         "149.112.112.112", "localhost"};
  for (auto k : kKnown) {
    if (k == ip) return true;
  }
  return false;
}

// A question about an address in general ("what is 192.168.0.1 used for", "who runs the dns server at ...").
bool ipKnowledgeFrame(const Utterance& u) noexcept {
  if (u.contains("my") || u.contains("our") || u.contains("mine")) return false;
  return generalQuestion(u) || u.contains("used") || u.contains("runs") || u.contains("means");
}

bool readOctet(const Utterance& u, std::size_t i, std::size_t limit, std::size_t& end, unsigned& value) noexcept {
  NumberRun run;
  readRun(u, i, limit, run);
  if (run.t1 == i || run.len == 0 || run.len > 3 || run.anyThousand) return false;
  unsigned v = 0;
  for (std::size_t k = 0; k < run.len; ++k) v = v * 10 + static_cast<unsigned>(run.digits[k] - '0');
  if (v > 255) return false;
  end = run.t1;
  value = v;
  return true;
}

void findIps(const Utterance& u, Candidates& c) noexcept {
  const bool knowledge = ipKnowledgeFrame(u);
  char text[20];
  for (std::size_t i = 0; i < u.n; ++i) {
    if (u.tok[i].hasDigit && !u.spoken) {
      const std::string_view w = u.word(i);
      int dots = 0, colons = 0, groupLen = 0;
      bool quad = true, v6 = true;
      for (char ch : w) {
        if (ch == '.') {
          ++dots;
          groupLen = 0;
        } else if (isDigit(ch)) {
          if (++groupLen > 3) quad = false;
        } else {
          quad = false;
        }
        if (ch == ':') {
          ++colons;
        } else if (!(isDigit(ch) || (ch >= 'a' && ch <= 'f'))) {
          v6 = false;
        }
      }
      quad = quad && dots == 3 && w.front() != '.' && w.back() != '.' && w.find("..") == std::string_view::npos;
      if (quad) {
        unsigned octet = 0;
        for (char ch : w) {
          if (ch == '.') {
            octet = 0;
          } else if ((octet = octet * 10 + static_cast<unsigned>(ch - '0')) > 255) {
            quad = false;
          }
        }
      }
      v6 = v6 && colons >= 2 && w.size() >= 6 && w != "::1";
      if ((quad || v6) && !wellKnownIp(w) && !knowledge) c.add(i, i + 1, PiiType::ipAddress, prio::ip);
      continue;
    }
    if (!u.isNum(i) || (i > 0 && u.isNum(i - 1))) continue;
    // Spoken: octet dot octet dot octet dot octet.
    std::size_t p = i, end = 0;
    unsigned octets[4];
    bool ok = true;
    for (int k = 0; k < 4 && ok; ++k) {
      std::size_t limit = p;
      while (limit < u.n && u.isNum(limit)) ++limit;
      ok = readOctet(u, p, limit, end, octets[k]) && (k == 3 || (end == limit && (u.is(end, "dot") || u.is(end, "point"))));
      p = end + 1;
    }
    if (!ok) continue;
    std::size_t len = 0;
    for (int k = 0; k < 4; ++k) {
      if (k > 0) text[len++] = '.';
      const unsigned v = octets[k];
      if (v >= 100) text[len++] = static_cast<char>('0' + v / 100);
      if (v >= 10) text[len++] = static_cast<char>('0' + v / 10 % 10);
      text[len++] = static_cast<char>('0' + v % 10);
    }
    if (!wellKnownIp(std::string_view(text, len)) && !knowledge) {
      c.add(i, end, PiiType::ipAddress, prio::ip);
    }
    i = end - 1;
  }
}

// ---- coordinates ----
// A signed decimal degree with at least three decimals (a position, not a temperature or a price), within limit,
// optionally followed by a hemisphere letter or a degree sign; its value in v.
bool decimalDegree(std::string_view w, double limit, double& v) noexcept {
  std::size_t k = 0;
  bool negative = false;
  if (k < w.size() && (w[k] == '-' || w[k] == '+')) negative = w[k++] == '-';
  std::size_t digits = 0, decimals = 0;
  double value = 0.0, scale = 1.0;
  for (; k < w.size() && isDigit(w[k]) && digits < 4; ++k, ++digits) value = value * 10 + (w[k] - '0');
  if (digits == 0 || digits > 3 || k >= w.size() || w[k] != '.') return false;
  for (++k; k < w.size() && isDigit(w[k]); ++k, ++decimals) value += (w[k] - '0') * (scale /= 10);
  if (decimals < 3) return false;
  std::string_view rest = w.substr(k);
  if (rest.substr(0, 2) == "\xc2\xb0") rest.remove_prefix(2);  // the degree sign
  if (rest == "n" || rest == "e") rest = {};
  if (rest == "s" || rest == "w") negative = true, rest = {};
  if (!rest.empty() || value > limit) return false;
  v = negative ? -value : value;
  return true;
}

// "51.5007, -0.1246", "40.7128 N 74.0060 W", "51.5007,-0.1246": where someone is, as precisely as an address.
void findCoordinates(const Utterance& u, Candidates& c) noexcept {
  double lat = 0, lon = 0;
  for (std::size_t i = 0; i < u.n; ++i) {
    const std::string_view w = u.word(i);
    if (!u.tok[i].hasDigit) continue;
    if (const std::size_t comma = w.find(','); comma != std::string_view::npos) {
      if (decimalDegree(w.substr(0, comma), 90, lat) && decimalDegree(w.substr(comma + 1), 180, lon)) {
        c.add(i, i + 1, PiiType::location, prio::location);
      }
      continue;
    }
    std::size_t j = i + 1;
    if (j < u.n && (u.is(j, "n") || u.is(j, "s"))) ++j;  // "40.7128 n 74.0060 w"
    if (!decimalDegree(w, 90, lat) || j >= u.n || !decimalDegree(u.word(j), 180, lon)) continue;
    std::size_t end = j + 1;
    if (end < u.n && (u.is(end, "e") || u.is(end, "w"))) ++end;
    c.add(i, end, PiiType::location, prio::location);
    i = end - 1;
  }
}

}  // namespace

bool isLetterToken(const Utterance& u, std::size_t i) noexcept {
  if (i >= u.n) return false;
  const std::string_view w = u.word(i);
  return w.size() == 1 && w[0] >= 'a' && w[0] <= 'z';
}

bool cueBefore(const Utterance& u, std::size_t i, std::size_t n, std::initializer_list<std::string_view> words) noexcept {
  return u.anyOf(i > n ? i - n : 0, i, words);
}

void findStructured(const Utterance& u, Candidates& c) noexcept {
  findIbans(u, c);
  findCards(u, c);
  findSsns(u, c);
  findEmails(u, c);
  findIps(u, c);
  findCoordinates(u, c);
  findPhones(u, c);
}

}  // namespace sotto::privacy::detail
