// SPDX-License-Identifier: MIT
// Cue-led recognizers: dates of birth, account/customer/policy numbers, PINs, codes and passwords.
#include <algorithm>

#include "engine/privacy/pii_numbers.h"
#include "engine/privacy/pii_recognizers.h"

namespace sotto::privacy::detail {
namespace {

bool isDigit(char ch) noexcept { return ch >= '0' && ch <= '9'; }

// ---- dates ----
// Written numeric date: 12/18/2019, 2/15/56, 26-02-1974, 1990-03-05.
bool writtenDate(std::string_view w) noexcept {
  int groups = 1, digits = 0;
  char sep = 0;
  for (char ch : w) {
    if (isDigit(ch)) {
      if (++digits > 4) return false;
    } else if (ch == '/' || ch == '-' || ch == '.') {
      if (sep != 0 && ch != sep) return false;
      if (digits == 0) return false;
      sep = ch;
      ++groups;
      digits = 0;
    } else {
      return false;
    }
  }
  return groups == 3 && digits > 0;
}

// Day of month at i: "fifth", "twenty first", "thirtieth", "5", "5th", "one". Returns end (0: none).
std::size_t dayAt(const Utterance& u, std::size_t i, bool allowCardinal) noexcept {
  if (i >= u.n) return 0;
  const Token& t = u.tok[i];
  if (t.num == NumKind::ordinal) return i + 1;
  if (t.num == NumKind::tens && (t.numVal == 20 || t.numVal == 30) && i + 1 < u.n &&
      u.tok[i + 1].num == NumKind::ordinal && u.tok[i + 1].numVal < 10) {
    return i + 2;
  }
  const std::string_view w = u.word(i);
  if (!w.empty() && isDigit(w[0]) && w.size() <= 4) {
    std::size_t k = 0;
    unsigned v = 0;
    while (k < w.size() && isDigit(w[k])) v = v * 10 + static_cast<unsigned>(w[k++] - '0');
    const std::string_view suffix = w.substr(k);
    if (v >= 1 && v <= 31 && k <= 2 && (suffix.empty() || suffix == "st" || suffix == "nd" || suffix == "rd" || suffix == "th")) {
      return i + 1;
    }
    return 0;
  }
  if (!allowCardinal) return 0;
  // A teen followed by tens/oh/hundred is a year ("nineteen eighty"), not a day.
  if (t.num == NumKind::teen && i + 1 < u.n &&
      (u.tok[i + 1].num == NumKind::tens || u.is(i + 1, "oh") || u.tok[i + 1].num == NumKind::hundred)) {
    return 0;
  }
  std::uint32_t v = 0;
  std::size_t end = 0;
  if (t.num != NumKind::written && readCardinal(u, i, v, end) && v >= 1 && v <= 31 && end - i <= 2) return end;
  return 0;
}

// Year at i: "1990", "'56", "nineteen seventy three", "nineteen oh five", "two thousand one", "thirty nine".
std::size_t yearAt(const Utterance& u, std::size_t i) noexcept {
  if (i >= u.n) return 0;
  const std::string_view w = u.word(i);
  if (u.tok[i].allDigits && (w.size() == 4 || w.size() == 2)) return i + 1;
  const Token& t = u.tok[i];
  if (t.num == NumKind::teen || (t.num == NumKind::tens && t.numVal == 20 && u.isNum(i + 1) &&
                                 u.tok[i + 1].num != NumKind::digit)) {
    const Token* n1 = i + 1 < u.n ? &u.tok[i + 1] : nullptr;
    if (n1 && n1->num == NumKind::hundred) return i + 2;
    if (n1 && u.is(i + 1, "oh") && i + 2 < u.n && u.tok[i + 2].num == NumKind::digit) return i + 3;
    if (n1 && n1->num == NumKind::teen) return i + 2;
    if (n1 && n1->num == NumKind::tens) {
      return (i + 2 < u.n && u.tok[i + 2].num == NumKind::digit && !u.is(i + 2, "oh") && u.tok[i + 2].numVal > 0)
                 ? i + 3
                 : i + 2;
    }
    return 0;
  }
  if (u.is(i, "two") && u.is(i + 1, "thousand")) {
    std::size_t p = i + 2;
    if (u.is(p, "and")) ++p;
    std::uint32_t v = 0;
    std::size_t end = 0;
    if (u.isNum(p) && readCardinal(u, p, v, end) && v < 100) return end;
    return i + 2;
  }
  if (t.num == NumKind::tens) {
    return (i + 1 < u.n && u.tok[i + 1].num == NumKind::digit && u.tok[i + 1].numVal > 0 && !u.is(i + 1, "oh"))
               ? i + 2
               : i + 1;
  }
  return 0;
}

// A date at i; returns its end (0: none).
std::size_t dateAt(const Utterance& u, std::size_t i) noexcept {
  if (i >= u.n) return 0;
  if (writtenDate(u.word(i))) return i + 1;
  std::size_t p = i;
  if (u.has(p, lex::month)) {
    // Month first: "april thirtieth nineteen seventy three", "March 5, 1990", "november one nineteen eighty".
    ++p;
    if (u.is(p, "the")) ++p;
    const std::size_t d = dayAt(u, p, true);
    if (d == 0) {
      const std::size_t y = yearAt(u, p);  // "born in march nineteen ninety"
      return y;
    }
    p = d;
    if (u.is(p, "of")) return p;
    if (std::size_t y = yearAt(u, p)) return y;
    return p;
  }
  // All numbers, month first: "six three seventy three", "three sixteen eleven" (only after a birth cue).
  if ((u.tok[p].num == NumKind::digit || (u.tok[p].num == NumKind::teen && u.tok[p].numVal <= 12)) &&
      !u.has(p + 1, lex::month)) {
    if (u.is(p, "oh") || u.tok[p].numVal == 0) return 0;
    std::size_t d = dayAt(u, p + 1, true);
    // "one fourteen thirty six": a teen day before a spoken year (dayAt alone reads "fourteen thirty" as a year).
    if (d == 0 && u.tok[p + 1].num == NumKind::teen && yearAt(u, p + 2) != 0) d = p + 2;
    if (d == 0) return 0;
    if (const std::size_t y = yearAt(u, d)) return y;
    // A two-digit year said as a teen, ending the date: "ten three eleven", "seven five thirteen".
    if (d < u.n && u.tok[d].num == NumKind::teen && !u.isNum(d + 1)) return d + 1;
    return 0;
  }
  // Day first: "the twenty third of november", "5 March 1990".
  if (u.is(p, "the")) ++p;
  std::size_t d = dayAt(u, p, false);
  // A cardinal day right before its month: "seven february two thousand", "two june twenty fourteen".
  if (d == 0) {
    d = dayAt(u, p, true);
    if (d == 0 || !u.has(d, lex::month)) return 0;
  }
  p = d;
  if (u.is(p, "of")) ++p;
  if (!u.has(p, lex::month)) return 0;
  ++p;
  if (std::size_t y = yearAt(u, p)) return y;
  return p;
}

bool birthCue(const Utterance& u, std::size_t i) noexcept {
  if (u.anyOf(i, i + 1, {"born", "birthday", "dob", "birthdate", "b-day", "bday"})) return true;
  // "i came into the world on ...", "arrived in the world".
  if (u.is(i, "world") && u.is(i - 1, "the") && u.anyOf(i - 2, i - 1, {"into", "in"}) &&
      u.anyOf(i - 3, i - 2, {"came", "come", "arrived", "entered"})) {
    return true;
  }
  if (u.is(i, "birth") && (u.is(i - 1, "of") || u.is(i + 1, "date"))) return true;
  if (u.is(i, "date") && u.is(i + 1, "of") && u.is(i + 2, "birth")) return false;  // the cue is "birth"
  return u.is(i, "d") && u.is(i + 1, "o") && u.is(i + 2, "b");
}

void findBirthDates(const Utterance& u, Candidates& c) noexcept {
  for (std::size_t i = 0; i < u.n; ++i) {
    if (!birthCue(u, i)) continue;
    std::size_t s = i + 1;
    if (u.is(i, "d")) s = i + 3;
    if (u.is(i, "birth") && u.is(s, "date")) ++s;
    // Skip fillers: "born on", "birthday is", "birthday it's the", "dob:".
    for (std::size_t k = 0; k < 4 && s < u.n; ++k) {
      if (u.anyOf(s, s + 1, {"on", "in", "is", "it's", "was", "its", "be", "falls", "date"})) {
        ++s;
      } else {
        break;
      }
    }
    const std::size_t e = dateAt(u, s);
    if (e > s) {
      c.add(s, e, PiiType::dateOfBirth, prio::dob);
      i = e - 1;
    }
  }
}

// ---- account numbers ----
bool accountValueToken(const Utterance& u, std::size_t i) noexcept {
  if (i >= u.n || !u.tok[i].hasDigit) return false;
  for (char ch : u.raw(i)) {
    if (!(isDigit(ch) || (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || ch == '-' || ch == '/')) return false;
  }
  return true;
}

// Value after an account cue at i (exclusive); end or 0.
std::size_t accountValue(const Utterance& u, std::size_t s, std::size_t& start) noexcept {
  start = s;
  if (s >= u.n) return 0;
  // "Member ID FF 9375 8960": a typed letter prefix of its own before the digit groups.
  if (!u.spoken && !u.tok[s].hasDigit && u.raw(s).size() <= 4 && s + 1 < u.n && u.tok[s + 1].allDigits &&
      std::all_of(u.raw(s).begin(), u.raw(s).end(), [](char ch) { return ch >= 'A' && ch <= 'Z'; })) {
    std::size_t p = s + 1, digits = 0;
    while (p < u.n && u.tok[p].allDigits && !u.tok[p - 1].commaAfter && !u.tok[p - 1].stopAfter) {
      digits += u.raw(p).size();
      ++p;
    }
    return digits >= 4 ? p : 0;
  }
  if (u.tok[s].hasDigit) {
    if (!accountValueToken(u, s)) return 0;
    std::size_t p = s + 1, digits = 0;
    for (char ch : u.raw(s)) digits += isDigit(ch) ? 1 : 0;
    // Grouped digits: "1839 1366 80".
    while (p < u.n && u.tok[p].allDigits && !u.tok[p - 1].commaAfter && !u.tok[p - 1].stopAfter) {
      digits += u.raw(p).size();
      ++p;
    }
    return digits >= 4 ? p : 0;
  }
  std::size_t p = s;
  // Letter prefixes: "g x nine nine ...", "c u dash three ...", "c u s t two three ...".
  while (p < s + 4 && isLetterToken(u, p) && (isLetterToken(u, p + 1) || u.isNum(p + 1) || u.is(p + 1, "dash"))) ++p;
  if (p > s && u.is(p, "dash")) ++p;
  NumberRun run;
  readRun(u, p, u.n, run);
  if (run.t1 == p || run.len < 4 || run.anyThousand) return 0;
  return run.t1;
}

bool secretCue(const Utterance& u, std::size_t i) noexcept;

void findAccounts(const Utterance& u, Candidates& c) noexcept {
  for (std::size_t i = 0; i < u.n; ++i) {
    // Identifiers that open an account or prove who one is: employee and staff ids, licences, passports.
    const bool cue = u.anyOf(i, i + 1, {"account", "acct", "acc", "iban", "passport"}) ||
                     (u.anyOf(i, i + 1, {"customer", "member", "membership", "policy", "reference", "routing",
                                         "client", "subscriber", "loyalty", "patient", "insurance", "contract",
                                         "flyer", "flier", "rewards", "mileage",
                                         "employee", "staff", "badge", "payroll", "personnel", "student", "licence",
                                         "license", "dl", "medicare", "medicaid", "nhs"}) &&
                      u.anyOf(i + 1, i + 2, {"number", "no", "id", "#", "num"})) ||
                     // The cue and then the value at once: "policy p double four two ...", "Member B2242773".
                     (u.anyOf(i, i + 1, {"customer", "member", "policy", "reference", "ref", "membership"}) &&
                      (u.tok[i + 1 < u.n ? i + 1 : i].hasDigit || isLetterToken(u, i + 1)) && [&] {
                        std::size_t st = 0;
                        return accountValue(u, i + 1, st) > st;
                      }()) ||
                     (u.anyOf(i, i + 1, {"licence", "license"}) &&
                      u.anyOf(i - 1, i, {"driver's", "drivers", "driving", "driver"})) ||
                     // A card that is no payment card: "my library card number is ...".
                     (u.is(i, "card") && u.anyOf(i + 1, i + 2, {"number", "no", "id", "num"}) &&
                      u.anyOf(i - 1, i, {"library", "loyalty", "membership", "member", "gym", "rewards", "club",
                                         "insurance", "health", "student", "staff", "id", "transit", "oyster"}));
    if (!cue || u.is(i, "iban")) continue;
    // The account a secret is for: "password for the guest account? welcome2024" is the password.
    bool forSecret = false;
    // ... or its secret named next: "the tax account pin is 2 0 1 9 3".
    for (std::size_t k = i > 4 ? i - 4 : 0; k < i + 3 && k < u.n && !forSecret; ++k) forSecret = k != i && secretCue(u, k);
    // ... or the secret's description names it: "my password for the email account i use for work is X".
    for (std::size_t k = i > 6 ? i - 6 : 0; k < i && !forSecret; ++k) {
      forSecret = secretCue(u, k) && u.anyOf(k + 1, k + 2, {"for", "to", "on", "of"});
    }
    if (forSecret) continue;
    std::size_t s = i + 1;
    for (std::size_t k = 0; k < 4 && s < u.n; ++k) {
      if (u.anyOf(s, s + 1, {"number", "no", "id", "#", "num", "is", "it's", "its", "was", "nr"})) {
        ++s;
      } else if (u.anyOf(s, s + 1, {"ending", "ends", "ended"}) && u.anyOf(s + 1, s + 2, {"in", "with"})) {
        s += 2;  // "the account ending in five five two one"
      } else {
        break;
      }
    }
    // "my customer id with the gas company is X": the value follows the next "is".
    if (s < u.n && !u.isNum(s) && !u.tok[s].hasDigit && !isLetterToken(u, s)) {
      for (std::size_t k = s; k < u.n && k < s + 7; ++k) {
        if (u.anyOf(k, k + 1, {"is", "it's", "was"}) || u.tok[k].colonAfter) {
          s = k + 1;
          break;
        }
      }
    }
    std::size_t start = 0;
    const std::size_t e = accountValue(u, s, start);
    if (e > start) {
      c.add(start, e, PiiType::accountNumber, prio::account);
      i = e - 1;
    }
  }
}

// A code said as digits from s: typed groups ("4471", "1 4 7 0") or a spoken run; the end, or s when none.
std::size_t codeDigitsFrom(const Utterance& u, std::size_t s) noexcept {
  std::size_t e = s;
  if (s >= u.n) return s;
  if (u.tok[s].hasDigit) {
    std::size_t digits = 0;
    while (e < u.n && u.tok[e].allDigits && (e == s || (!u.tok[e - 1].commaAfter && !u.tok[e - 1].stopAfter))) {
      digits += u.raw(e).size();
      ++e;
    }
    return digits < 3 ? s : e;  // "press 1 for the front desk"
  }
  if (u.isNum(s)) {
    NumberRun run;
    readRun(u, s, u.n, run);
    if (run.anyThousand || run.len < 3) return s;
    e = run.t1;
  }
  return e;
}

// The digits of a code codeDigitsFrom() found at words [s, e): a typed group's characters, a spoken word's one.
std::size_t codeDigitCount(const Utterance& u, std::size_t s, std::size_t e) noexcept {
  std::size_t digits = 0;
  for (std::size_t k = s; k < e; ++k) digits += u.tok[k].hasDigit ? u.raw(k).size() : 1;
  return digits;
}

// ---- PINs, codes, passwords ----
bool secretThing(const Utterance& u, std::size_t from, std::size_t to) noexcept {
  return u.anyOf(from, to, {"garage", "door", "alarm", "gate", "lock", "security", "access", "entry", "safe",
                            "locker", "keypad", "building", "unlock", "lockbox", "front", "back", "bike", "phone",
                            "verification", "login", "atm", "card", "doorbell", "mailbox", "shed", "storage",
                            "padlock", "lockbox", "vault", "intercom", "apartment", "flat", "house", "office",
                            "factor", "2fa", "authentication", "auth", "one-time", "otp", "lockers", "secret",
                            "master", "panel", "keysafe", "keybox", "tablet", "laptop", "router", "wallet",
                            "elevator", "lift", "buzzer", "disarm", "arming", "disarming"});
}

// The words a code's qualifier may be when the code names no secret, whatever it is for: "the zip code".
bool nonSecretCodeWord(const Utterance& u, std::size_t i) noexcept {
  return u.anyOf(i, i + 1, {"zip", "postal", "post", "postcode", "area", "country", "promo", "discount", "coupon",
                            "error", "sort", "dress", "source", "bar", "qr", "tracking", "voucher", "referral",
                            "gift", "product", "color", "colour", "status", "exit", "tax", "billing", "diagnostic",
                            "fault", "reason"});
}

// "four" or "two" heard for "for" or "to" after a cue: "the code four the garage is ...", "the pin two my card".
bool heardPreposition(const Utterance& u, std::size_t i) noexcept {
  return u.anyOf(i, i + 1, {"four", "two", "too"}) &&
         u.anyOf(i + 1, i + 2, {"the", "my", "our", "your", "his", "her", "their", "get", "a", "an"});
}

// Disfluencies between a secret's verb and its value: "the pin is um 4 4 1 2", "the code is, uh, you know,
// 7 7 3 1", "my password is is sunshine99", "the pin is um let me think 2 5 2 5". A hedge ("like", "basically",
// "well") only before a number: "the code is well hidden" says something about the code. Returns the first word
// after them (s when none).
std::size_t pastFillers(const Utterance& u, std::size_t s) noexcept {
  for (int skipped = 0; skipped < 6 && s + 1 < u.n; ++skipped) {
    const bool numberNext = u.tok[s + 1].hasDigit || (u.isNum(s + 1) && !u.is(s + 1, "oh"));
    if (u.anyOf(s, s + 1, {"um", "uh", "er", "erm", "ah", "hmm", "hm", "uhm", "umm", "uhh", "mm", "eh"}) ||
        (numberNext && u.anyOf(s, s + 1, {"like", "basically", "well", "actually", "literally", "probably"}))) {
      ++s;
    } else if ((u.is(s, "you") && u.is(s + 1, "know")) || (u.is(s, "i") && u.is(s + 1, "mean"))) {
      s += 2;
    } else if (u.is(s, "let") && u.is(s + 1, "me") && u.anyOf(s + 2, s + 3, {"think", "see", "remember", "check"})) {
      s += 3;
    } else if (u.anyOf(s, s + 1, {"is", "it's", "its", "was"})) {
      ++s;  // the verb said again
    } else {
      break;
    }
  }
  return s;
}

bool secretCue(const Utterance& u, std::size_t i) noexcept {
  // The stem: "my pin's 4412" ('s is "is" here, which findSecrets reads as the cue's verb); "PIN#8812" is "pin".
  std::string_view w = u.stem(i);
  if (w.size() > 1 && w.back() == '#') w.remove_suffix(1);
  for (std::string_view cue : {"password", "passcode", "passphrase", "pin", "pincode", "passwd", "pwd", "pw", "p/w",
                               "combination", "combo", "passkey", "otp", "cvv", "cvc", "cvv2", "csc", "puk",
                               "p.i.n", "p.i.n.", "credentials"}) {
    if (w == cue) return true;
  }
  // Other names of a secret: "the magic word", "the access phrase", "the unlock pattern", "my personal
  // identification number", "the code number", "the secret to get in".
  if (w == "word" && u.anyOf(i - 1, i, {"magic"})) return true;
  if (w == "phrase" && u.anyOf(i - 1, i, {"access", "magic", "secret", "security"})) return true;
  if (w == "pattern" && u.anyOf(i - 1, i, {"unlock", "lock", "screen"}) && u.anyOf(i + 1, i + 2, {"is", "was"})) {
    return true;
  }
  if (w == "number" && u.anyOf(i - 1, i, {"identification"}) && u.anyOf(i > 1 ? i - 2 : 0, i - 1, {"personal"})) {
    return true;
  }
  if (w == "number" && u.anyOf(i - 1, i, {"code", "pin"}) && u.anyOf(i + 1, i + 2, {"is", "was"})) return true;
  if ((w == "secret" || w == "number") && u.is(i + 1, "to") &&
      ((u.is(i + 2, "get") && u.anyOf(i + 3, i + 4, {"in", "into"})) ||
       (u.anyOf(i + 2, i + 3, {"open", "unlock", "disarm", "arm", "enter"}) && secretThing(u, i + 3, i + 6)))) {
    return true;
  }
  // "... and the new one is 6 6 7 7", "the guest one is greenfield": "one" for a secret named before it.
  if (w == "one" && i > 1 && u.anyOf(i - 1, i, {"new", "old", "guest", "other", "second", "current", "previous",
                                                 "personal", "backup", "work", "spare", "home"}) &&
      u.anyOf(i + 1, i + 2, {"is", "was", "it's"})) {
    for (std::size_t k = 0; k + 1 < i; ++k) {
      if (u.anyOf(k, k + 1, {"password", "passcode", "pin", "code", "combination", "passphrase", "passkey"})) {
        return true;
      }
    }
  }
  // "our door's code is 1 1 0 9": the thing in the possessive.
  if (w == "code" && i > 0 && u.tok[i - 1].possessive && u.anyOf(i + 1, i + 2, {"is", "was"}) && i + 2 < u.n &&
      (u.tok[i + 2].allDigits || u.isNum(i + 2))) {
    for (std::string_view thing : {"door", "gate", "garage", "alarm", "safe", "locker", "lockbox", "shed", "house",
                                   "building", "apartment", "flat", "office", "keypad", "padlock", "lock"}) {
      if (u.stem(i - 1) == thing) return true;
    }
  }
  // "pass: gr33nL1ght", "my secret word is ...", "my security answer is ...".
  if (w == "pass" && u.tok[i].colonAfter) return true;
  // "username bob pass hunter two": a login's pass.
  if (w == "pass" && u.anyOf(i > 5 ? i - 5 : 0, i, {"username", "user", "login", "email", "id"})) return true;
  // "my pass is letmein99": a person's pass given as a password (not "my bus pass is 30 days old").
  if (w == "pass" && u.anyOf(i - 1, i, {"my", "your", "his", "her", "our", "their"}) &&
      u.anyOf(i + 1, i + 2, {"is", "was"}) && i + 2 < u.n && u.tok[i + 2].hasDigit && !u.tok[i + 2].allDigits) {
    return true;
  }
  // "the digits for the safe are 9 4 1 7", "the gate digits are ...": a lock's digits are its code.
  if (w == "digits" && (secretThing(u, i > 2 ? i - 2 : 0, i) ||
                        (u.anyOf(i + 1, i + 2, {"for", "to", "of", "on"}) && secretThing(u, i + 2, i + 6)))) {
    return true;
  }
  if (w == "pass" && u.anyOf(i > 2 ? i - 2 : 0, i, {"wifi", "wi-fi", "fi", "network", "router", "hotspot"})) return true;
  if ((w == "word" || w == "phrase") && u.anyOf(i - 1, i, {"secret", "memorable", "safe", "code"})) return true;
  // Split as a recognizer hears them: "pass word", "pass code", "p i n".
  if ((w == "word" || w == "phrase" || w == "code") && i > 0 && u.is(i - 1, "pass")) return true;
  if (w == "n" && i > 1 && u.is(i - 1, "i") && u.is(i - 2, "p")) return true;
  if (w == "answer" && u.anyOf(i - 1, i, {"security", "secret"})) return true;
  // "pin" heard as "pen", given a number: "my pen is four four seven one", "my pen number is ...".
  if (w == "pen" && i > 0 && u.anyOf(i - 1, i, {"my", "the", "your", "our", "his", "her", "card", "bank", "debit"})) {
    std::size_t v = i + 1;
    if (u.anyOf(v, v + 1, {"number", "code"})) ++v;
    if (u.anyOf(v, v + 1, {"is", "was"})) ++v;
    if (v > i + 1 && v < u.n && (u.isNum(v) || u.tok[v].allDigits) && codeDigitsFrom(u, v) > v) return true;
  }
  // A form's fields: "alarm:1357", "gate: 4471" (not "phone:" or "card:", whose numbers are no codes).
  if (u.tok[i].colonAfter && i + 1 < u.n && u.tok[i + 1].allDigits && u.raw(i + 1).size() >= 3 &&
      secretThing(u, i, i + 1) &&
      !u.anyOf(i, i + 1, {"phone", "card"})) {
    return true;
  }
  // ... and with a dash: "Garage - 1 9 9 0", "Alarm – 4471" (a lock's code of 3 to 8 digits; not "Office - 2024").
  if (u.anyOf(i + 1, i + 2, {"-", "–"}) && i + 2 < u.n && (u.tok[i + 2].allDigits || u.isNum(i + 2)) &&
      u.anyOf(i, i + 1, {"garage", "door", "alarm", "gate", "lock", "padlock", "safe", "locker", "keypad", "lockbox",
                         "keysafe", "keybox", "shed", "storage", "vault", "mailbox", "intercom", "buzzer"})) {
    const std::size_t e = codeDigitsFrom(u, i + 2);
    const std::size_t digits = e > i + 2 ? codeDigitCount(u, i + 2, e) : 0;
    if (digits >= 3 && digits <= 8) return true;
  }
  // "Pass - kittycat1", "pass = hunter2".
  if (w == "pass" && u.anyOf(i + 1, i + 2, {"-", "–", "="})) return true;
  // "Wi-Fi: HomeNet5G  Key: blue-otter-77".
  if (w == "key" && u.tok[i].colonAfter && u.anyOf(i > 4 ? i - 4 : 0, i, {"wifi", "wi-fi", "fi", "network", "ssid"})) {
    return true;
  }
  // "the wifi is called starlight and the key is moonbeam twenty".
  if (w == "key" && u.anyOf(i + 1, i + 2, {"is", "was", "it's"}) &&
      u.anyOf(i > 8 ? i - 8 : 0, i, {"wifi", "wi-fi", "fi", "network", "router", "ssid", "hotspot"})) {
    return true;
  }
  // "fi": "wi fi" as a recognizer writes it.
  if (w == "key" && (u.anyOf(i - 1, i, {"wifi", "wi-fi", "fi", "network", "wpa", "security", "encryption"}) ||
                     (u.anyOf(i + 1, i + 2, {"for", "to", "of", "on"}) && u.anyOf(i + 2, i + 5, {"wifi", "wi-fi", "network", "router"})))) {
    return true;
  }
  // "my bike lock is 1175": a lock's value is its combination.
  if ((w == "lock" || w == "padlock") && u.anyOf(i + 1, i + 2, {"is", "was", "it's", "combination", "combo"})) return true;
  // "the safe is 32 15 8", "my locker's 1 9 2 9": a safe's or a locker's number is its combination.
  if ((w == "safe" || w == "locker") && (u.anyOf(i + 1, i + 2, {"is", "was"}) || u.tok[i].possessive)) {
    const std::size_t v = u.tok[i].possessive ? i + 1 : i + 2;
    return v < u.n && u.anyOf(i > 0 ? i - 1 : 0, i, {"the", "my", "our", "his", "her", "their", "gym", "your"}) &&
           (u.tok[v].allDigits || (u.isNum(v) && !u.is(v, "oh"))) && codeDigitsFrom(u, v) > v;
  }
  // "the child lock on the tv is 0 0 0 0": a lock described, then a number (not "the lock on the door is broken").
  if ((w == "lock" || w == "padlock") && u.anyOf(i + 1, i + 2, {"on", "for"})) {
    for (std::size_t k = i + 2; k < u.n && k < i + 6; ++k) {
      if (!u.anyOf(k, k + 1, {"is", "was", "it's"})) continue;
      return k + 1 < u.n && (u.isNum(k + 1) || u.tok[k + 1].hasDigit) && !u.is(k + 1, "oh");
    }
  }
  if (w == "code") {
    // A code that names no secret, whatever it is for: "the zip code for the office".
    if (i > 0 && nonSecretCodeWord(u, i - 1)) return false;
    // Door, gate, alarm codes are secrets; zip, area, error, promo codes are not. The thing may come before
    // ("the door code") or after ("the code for the front door").
    if (secretThing(u, i > 2 ? i - 2 : 0, i)) return true;
    if (i > 1 && u.is(i - 2, "log") && u.is(i - 1, "in")) return true;  // "the log in code"
    if (i > 0 && u.is(i - 1, "pin")) return true;                       // "pin code sunny days"
    if (u.is(i - 2, "one") && u.is(i - 1, "time")) return true;  // "the one time code is 384 221"
    // "my code's two double five nine", "the code is 4 4 2 1": a code given as a number is one to open
    // something, unless the sentence says it is another kind ("the confirmation code is 4471 for the hotel").
    // "the code should be 4471", "our code will be ...": a modal before "be".
    const bool modal = u.anyOf(i + 1, i + 2, {"should", "will", "would", "might", "must", "could", "may"}) &&
                       u.is(i + 2, "be");
    // "the old code was 4 4 5 5", "our new code is ...": a code's age or role between the owner and the noun.
    const bool owned = i == 0 || u.anyOf(i - 1, i, {"my", "the", "our", "your"}) ||
                       (i > 1 && u.anyOf(i - 1, i, {"old", "new", "current", "previous", "temporary", "temp",
                                                    "backup", "guest", "spare", "usual"}) &&
                        u.anyOf(i - 2, i - 1, {"my", "the", "our", "your"}));
    if (owned &&
        (u.tok[i].possessive || u.tok[i].colonAfter || u.anyOf(i + 1, i + 2, {"is", "was"}) || modal)) {
      const std::size_t v = pastFillers(u, u.tok[i].possessive || u.tok[i].colonAfter ? i + 1 : modal ? i + 3 : i + 2);
      if (v < u.n && (u.isNum(v) || u.tok[v].allDigits) &&
          !u.anyOf(0, u.n, {"zip", "postal", "postcode", "area", "country", "promo", "discount", "coupon", "error",
                            "sort", "tracking", "voucher", "referral", "gift", "product", "confirmation", "booking",
                            "reference", "order", "dialing", "dialling", "course", "class", "flight", "shipping",
                            "invoice", "ticket", "reservation", "room", "table", "seat", "cheat", "source", "bar",
                            "qr", "color", "colour", "dress", "zone"})) {
        return true;
      }
    }
    // "the code that opens the side door of the garage is ...", "the code to the lockbox where we keep ...".
    return ((u.anyOf(i + 1, i + 2, {"for", "to", "of", "on"}) || heardPreposition(u, i + 1)) &&
            secretThing(u, i + 2, i + 6)) ||
           (u.anyOf(i + 1, i + 2, {"that", "which", "we", "i", "you", "they"}) && secretThing(u, i + 2, i + 9) &&
            u.anyOf(i + 3, std::min(u.n, i + 14), {"is", "was"}));
  }
  return false;
}

bool secretStop(const Utterance& u, std::size_t i) noexcept {
  return u.anyOf(i, i + 1, {"don't", "dont", "please", "and", "so", "but", "thanks", "thank", "cheers", "ta", "okay", "ok", "tell",
                            "remember", "for", "if", "because", "it's", "now", "then", "right"});
}

void findSecrets(const Utterance& u, Candidates& c) noexcept {
  for (std::size_t i = 0; i < u.n; ++i) {
    if (!secretCue(u, i)) continue;
    // The secret's hint, reset or rules are not the secret: "password hint: dog's name".
    if (u.anyOf(i + 1, i + 2, {"hint", "hints", "reset", "manager", "requirements", "rules", "policy", "strength",
                               "pad", "pads", "screen", "prompt", "machine", "reader", "terminal", "entry"})) {
      continue;
    }
    std::size_t s = i + 1;
    bool sawIs = u.tok[i].colonAfter || u.tok[i].possessive;
    // An embedded question names no value: "what the password for the wifi in the kitchen is i don't know". One
    // the speaker asks and answers does: "what's my pin again? oh right 1357".
    if (u.anyOf(i > 2 ? i - 2 : 0, i, {"what", "what's", "whats", "whether", "where", "how", "which"})) {
      std::size_t q = i;
      while (q < u.n && q < i + 4 && !u.tok[q].stopAfter) ++q;
      if (q >= u.n || !u.tok[q].stopAfter) continue;
      std::size_t v = q + 1;
      while (v < u.n && v < q + 4 &&
             u.anyOf(v, v + 1, {"oh", "right", "yes", "yeah", "ah", "okay", "ok", "it's", "its", "um", "uh", "that's",
                                "yep"}) &&
             !(u.is(v, "oh") && u.isNum(v + 1))) {
        ++v;
      }
      if (v >= u.n || !(u.tok[v].hasDigit || (u.isNum(v) && codeDigitsFrom(u, v) > v))) continue;
      s = v;
      sawIs = true;
    }
    // "the password for the guest wifi is X", "change my pin to X", "the code for the safe in the bedroom is X".
    // The description may be long ("the password for the wifi in the upstairs guest bedroom is X", "the code
    // that opens the side door of the garage is X"), but it ends at a sentence's end or a new clause ("... and
    // the weather is nice").
    for (std::size_t k = 0; k < 14 && s < u.n && !sawIs; ++k) {
      if (k > 0 && (u.tok[s - 1].stopAfter ||
                    (u.anyOf(s, s + 1, {"and", "but", "so", "because", "or", "while", "although", "though"}) &&
                     !u.isNum(s + 1)))) {
        break;
      }
      // "to" gives the value after a change ("change my pin to X"), not a purpose ("the code to get in is X").
      const bool toValue = (u.is(s, "to") && (u.isNum(s + 1) || u.tok[s + 1 < u.n ? s + 1 : s].hasDigit ||
                                              u.anyOf(i > 5 ? i - 5 : 0, i, {"change", "changed", "set", "reset",
                                                                             "update", "updated", "switch"}))) ||
                           // "change my pin from 1234 to 9087": the old value, the new one read after it.
                           // The change may be said after the cue: "the alarm code changed from 1234 to 9876".
                           (u.is(s, "from") && u.anyOf(i > 3 ? i - 3 : 0, s, {"change", "changed", "changing",
                                                                              "switch", "update", "updated"}));
      // Another thing's clause is not the secret's: "my password for the bank website which is annoying".
      if (u.anyOf(s, s + 1, {"is", "was"}) && s > i + 1 && u.anyOf(s - 1, s, {"which", "who", "that"})) break;
      if (u.anyOf(s, s + 1, {"is", "it's", "its", "was", "as", "are", "be", "being", "-", "=", "–", "equals"}) ||
          toValue ||
          u.tok[s].colonAfter ||
          (u.tok[s].possessive &&  // "my pin number's 4 4 1 2", not "the pin for grandma's phone"
           (u.stem(s) == "number" || u.stem(s) == "code" || u.stem(s) == "word" || u.stem(s) == "phrase" ||
            u.stem(s) == "combination" || u.stem(s) == "combo" || u.stem(s) == "key"))) {
        sawIs = true;
        ++s;
        break;
      }
      // Asked and answered: "password for the guest account? welcome2024".
      if (u.tok[s].stopAfter && s + 1 < u.n && (u.tok[s + 1].hasDigit || u.isNum(s + 1))) {
        sawIs = true;
        ++s;
        break;
      }
      // "oh" before words is an interjection, not a zero ("the wifi password? oh it's ...").
      if (heardPreposition(u, s)) {
        ++s;
        continue;
      }
      if ((u.isNum(s) && !(u.is(s, "oh") && !u.isNum(s + 1))) || u.tok[s].hasDigit) {
        // A number inside the description, the verb after it: "the pin for the card that ends in seven is X".
        std::size_t r = s + 1;
        if (u.isNum(s)) {
          NumberRun run;
          readRun(u, s, u.n, run);
          r = run.t1 > s ? run.t1 : s + 1;
        }
        if (k == 0 || !u.anyOf(r, r + 1, {"is", "was"}) || r + 1 >= u.n) break;
        s = r;
        continue;
      }
      ++s;
    }
    // Asked and answered with words: "and the password? blueberry pancakes" (to the end, four words at most, none
    // a function word or a request about the secret: not "the password? i forgot", "wifi password? not working").
    const std::size_t asked = u.tok[i].stopAfter ? i : s > i + 1 && s <= u.n ? s - 1 : u.n;
    auto questionMark = [&u](std::size_t k) {
      for (std::size_t b = u.tok[k].b1; b < u.text.size() && u.text[b] != ' '; ++b) {
        if (u.text[b] == '?') return true;
      }
      return false;
    };
    // The speaker's own question is no such prompt: "is the wifi password case sensitive? yes", "what is the
    // password for the guest network? ask mom".
    if (!sawIs && asked < u.n && u.tok[asked].stopAfter && questionMark(asked) && u.n - (asked + 1) <= 4 &&
        asked + 1 < u.n &&
        !u.anyOf(0, i, {"what", "what's", "whats", "is", "are", "do", "does", "did", "can", "could", "how", "where",
                        "which", "who", "why", "when", "was", "will", "would", "should", "any", "isn't"})) {
      bool words = true;
      for (std::size_t k = asked + 1; k < u.n && words; ++k) {
        words = !u.has(k, lex::function) && !u.isNum(k) && !u.tok[k].hasDigit &&
                !u.anyOf(k, k + 1, {"yes", "yeah", "no", "nope", "sure", "okay", "ok", "please", "thanks", "not",
                                    "again", "forgot", "lost", "changed", "reset", "expired", "wrong", "help",
                                    "anyone", "anybody", "someone", "somebody", "maybe", "same", "dunno", "why",
                                    "seriously", "really", "hmm", "um", "uh", "oh", "right", "correct", "exactly",
                                    "what", "which", "ask", "check", "later", "soon", "tomorrow", "today", "tonight",
                                    "now", "never", "nothing", "none", "unknown", "whatever", "idk", "see"});
      }
      if (words) {
        sawIs = true;
        s = asked + 1;
      }
    }
    // What it is for, then the value without a verb: "password for the kids tablet dinosaur7", "wpa key for the
    // upstairs network k7x9m2p4q8", "the code for the side gate 2 6 0 4". Not another thing's number ("the pin
    // for card 4471 is ...") nor one a verb names later.
    bool described = false;
    if (!sawIs && s > i + 2 && s < u.n && u.anyOf(i + 1, i + 2, {"for", "on", "of"}) &&
        !u.anyOf(s - 1, s, {"card", "account", "acct", "room", "flight", "unit", "apartment", "number", "no",
                            "ending", "ends", "suite", "bus", "route", "channel", "version", "model", "floor",
                            "platform", "seat", "table", "order", "ticket"}) &&
        !u.anyOf(s + 1, s + 4, {"is", "was", "it's", "are"})) {
      const std::size_t e = codeDigitsFrom(u, s);
      bool shaped = false;
      if (u.tok[s].hasDigit && !u.tok[s].allDigits && u.raw(s).size() >= 5) {
        bool letter = false;
        for (char ch : u.raw(s)) letter |= (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z');
        shaped = letter;
      }
      described = (e > s && (e >= u.n || u.tok[e - 1].stopAfter || u.tok[e - 1].commaAfter || secretStop(u, e))) ||
                  (shaped && (s + 1 >= u.n || u.tok[s].stopAfter || u.tok[s].commaAfter || secretStop(u, s + 1)));
    }
    if (!sawIs && !described) s = i + 1;
    // "pin number 4471": the cue's noun is no value.
    if (!sawIs && !described && u.anyOf(s, s + 1, {"number", "no", "code"}) && s + 1 < u.n &&
        (u.isNum(s + 1) || u.tok[s + 1].hasDigit)) {
      ++s;
    }
    // A login's fields are said as label and value: "username bob pass hunter two".
    if (!sawIs && !described && u.stem(i) == "pass") sawIs = true;
    // A label that opens the utterance, its value to the end: "wifi password sunny days", "garage code blue
    // forty". Words only, four at most, none a request about the secret ("wifi password not working").
    if (!sawIs && !described && s + 1 <= u.n && u.n - s <= 4 && s < u.n) {
      bool label = !(i == 0 && u.stem(i) == "pin");  // "pin chat": the verb
      if (i == 0 && u.stem(i) == "pin" && u.tok[i].colonAfter) label = true;
      for (std::size_t k = 0; k < i && label; ++k) {
        label = secretThing(u, k, k + 1) || secretCue(u, k) ||
                u.anyOf(k, k + 1, {"my", "the", "our", "wifi", "wi-fi", "guest", "home", "network", "email", "new",
                                   "pass"});
      }
      for (std::size_t k = s; k < u.n && label; ++k) {
        label = (!u.has(k, lex::function) || u.isNum(k)) &&
                !u.anyOf(k, k + 1, {"change", "changed", "reset", "update", "help", "recovery", "forgot", "lost",
                                    "expired", "expiring", "broken", "wrong", "not", "keeps", "stopped", "needed",
                                    "required", "settings", "options", "menu", "screen", "page", "app", "please",
                                    "again", "required", "requirements", "manager", "hint", "length", "rules",
                                    "missing", "incorrect", "invalid", "locked", "blocked", "reminder", "entry",
                                    "generator", "checker", "ideas", "idea", "game", "protected", "protection",
                                    "strength", "lookup", "list", "examples", "example", "tips", "tip", "policy",
                                    "field", "box", "prompt", "sharing", "share", "qr"});
      }
      sawIs = label;
    }
    // Kept as said, the value straight after the cue: "remember my netflix password popcorn time", "save my pin
    // 4 4 7 1", "write down my passphrase purple monkey dishwasher".
    if (!sawIs && !described && s < u.n &&
        // ... or given, entered or sent: "sign in with password sunny days", "text sam the door code sunny days".
        u.anyOf(i > 4 ? i - 4 : 0, i, {"remember", "save", "store", "note", "write", "memorize", "memorise", "keep",
                                       "record", "add", "made", "picked", "chose", "chosen", "gave", "given", "give",
                                       "with", "using", "use", "try", "enter", "type", "input", "send", "text",
                                       "tell", "needs", "need", "authorize", "authorise"}) &&
        !u.anyOf(i > 4 ? i - 4 : 0, i, {"to", "change", "reset", "update", "forgot", "forget", "if"}) &&
        !u.has(s, lex::function) &&
        !u.anyOf(s, s + 1, {"please", "thanks", "okay", "ok", "now", "again", "tomorrow", "later", "today", "tonight",
                            "soon", "somewhere", "safely", "securely", "safe", "secure", "down", "too", "also",
                            "protection", "protected", "manager", "reset", "field", "prompt", "screen", "instead",
                            "option", "feature", "login", "sign", "recovery", "link", "email", "message", "button",
                            "everywhere", "anywhere", "sometimes", "often", "online", "twice", "once"})) {
      sawIs = true;
    }
    if (s >= u.n) continue;
    // The same as another secret, said after: "the pin is the same as my old one 3 3 0 9"; without one, no value.
    if (sawIs && (u.is(s, "same") || (u.is(s, "the") && u.is(s + 1, "same")))) {
      std::size_t v = 0;
      for (std::size_t k = s + 1; k < u.n && k < s + 9 && v == 0; ++k) {
        if (u.tok[k].hasDigit || (u.isNum(k) && codeDigitsFrom(u, k) > k)) v = k;
      }
      if (v == 0) continue;
      s = v;
    }
    if (sawIs) s = pastFillers(u, s);
    if (s >= u.n) continue;
    // "the door code is gonna be 4 4 9 9", "is going to be ...", "the pin is set to ...": the verb's rest.
    if (sawIs && u.anyOf(s, s + 1, {"gonna", "going", "set", "now", "changed"}) && s + 2 < u.n) {
      std::size_t v = s + 1;
      if (u.is(s, "going") && u.is(v, "to")) ++v;
      if ((u.anyOf(s, s + 1, {"gonna", "going"}) && u.is(v, "be")) ||
          (u.anyOf(s, s + 1, {"set", "changed", "now"}) && u.is(v, "to"))) {
        if (v + 1 < u.n && (u.tok[v + 1].hasDigit || u.isNum(v + 1) || u.is(s, "gonna") || u.is(s, "going"))) {
          s = v + 1;
        }
      }
    }
    // "it's still orange juice 44": the adverb is no part of the value.
    if (sawIs && s + 1 < u.n && u.anyOf(s, s + 1, {"still", "now", "currently", "just", "actually", "always",
                                                   "probably", "literally", "simply"})) {
      ++s;
    }
    // A description first, the value after a colon or a comma: "the same as my locker, 3 3 1 9", "in caps:
    // BLUEBIRD", "five digits: 4 8 8 2 1", "my birthday, 0 3 1 2".
    if (sawIs && (u.anyOf(s, s + 1, {"my", "our", "his", "her", "their", "your", "the", "in", "all", "a", "an"}) ||
                  (u.isNum(s) && u.anyOf(s + 1, s + 2, {"digits", "characters", "letters", "numbers"})))) {
      std::size_t v = 0;
      for (std::size_t k = s; k < u.n && k < s + 8 && v == 0; ++k) {
        if (!u.tok[k].colonAfter && !u.tok[k].commaAfter) continue;
        if (k + 1 < u.n && (u.tok[k + 1].hasDigit || (u.isNum(k + 1) && !u.is(k + 1, "oh")) ||
                            (u.tok[k].colonAfter && !u.has(k + 1, lex::function)))) {
          v = k + 1;
        }
      }
      if (v > 0) {
        s = v;
      } else if (u.anyOf(s, s + 1, {"my", "our", "his", "her", "their", "your"})) {
        continue;  // "the pin is my birthday": what it is made of names no value
      }
    }
    // Its length or tries are no value: "the code is 4 digits long", "the pin is 6 characters".
    if ((u.isNum(s) || u.tok[s].allDigits) &&
        u.anyOf(s + 1, s + 2, {"digits", "digit", "characters", "letters", "numbers", "chars", "long", "times",
                               "tries", "attempts"})) {
      continue;
    }
    // Where it is kept is no value: "the pin code for the printer is on the sticker".
    if (u.anyOf(s, s + 1, {"on", "in", "under", "inside", "behind", "at", "taped", "written", "stuck", "saved"}) &&
        u.anyOf(s + 1, s + 2, {"the", "a", "my", "your", "our", "his", "her", "their"})) {
      continue;
    }
    // What is said about the secret is no secret: "my password is too short", "the pin is wrong".
    if (u.anyOf(s, s + 1, {"too", "so", "very", "not", "wrong", "incorrect", "expired", "weak", "strong", "invalid",
                           "correct", "right", "case", "required", "locked", "changed", "reset", "the", "a", "an",
                           "still", "different", "same", "missing", "blank", "empty", "written", "saved", "stored",
                           "somewhere", "on", "in", "under", "i", "we", "like", "really", "pretty", "quite",
                           "kind", "sort", "kinda", "sorta"}) &&
        !u.isNum(s + 1) && !u.tok[s + 1 < u.n ? s + 1 : s].hasDigit) {
      // ... when the remark is short: "my password's correct horse battery staple" is a passphrase.
      std::size_t p = s;
      while (p < u.n && p - s < 3 && !secretStop(u, p) && !(p > s && u.tok[p - 1].stopAfter)) ++p;
      if (p - s < 3) continue;
    }
    // A judgement, however long: "the wifi password at the cafe is free to ask for".
    if (sawIs && u.anyOf(s, s + 1, {"free", "annoying", "easy", "hard", "simple", "complicated", "long", "short",
                                    "impossible", "ridiculous", "stupid", "unknown", "forgotten", "lost", "useless",
                                    "confusing", "secure", "insecure", "temporary", "fine", "ok",
                                    "okay", "terrible"}) &&
        !u.isNum(s + 1) && !u.tok[s + 1 < u.n ? s + 1 : s].hasDigit) {
      continue;
    }
    std::size_t e = 0;
    if (described) {
      e = u.tok[s].allDigits || u.isNum(s) ? codeDigitsFrom(u, s) : s + 1;
    } else if (!u.spoken || u.tok[s].hasDigit) {
      // Typed secrets are one token ("Dragon2018", "BLUE_maple2020", "09076"); a typed PIN may be grouped.
      if (!sawIs && !u.tok[s].hasDigit) continue;
      e = s + 1;
      // A typed PIN with spaces: "8 3 1 2".
      while (u.tok[s].allDigits && e < u.n && u.tok[e].allDigits && !u.tok[e - 1].commaAfter && !u.tok[e - 1].stopAfter) ++e;
    } else if (u.isNum(s)) {
      NumberRun run;
      readRun(u, s, u.n, run);
      if (run.t1 == s) continue;
      if (!sawIs && run.len < 3) continue;  // "the wifi password? oh it's ...": "oh" is no PIN
      e = run.t1;
    } else {
      if (!sawIs) continue;
      e = s;
      while (e < u.n && e - s < 10 && !secretStop(u, e)) {
        if (u.isNum(e)) {
          NumberRun run;
          readRun(u, e, u.n, run);
          e = run.t1 > e ? run.t1 : e + 1;
        } else {
          ++e;
        }
      }
    }
    if (e > s) {
      c.add(s, e, PiiType::pinOrPassword, prio::secret);
      i = e - 1;
      // "... used to be fluffy2 but now it's fluffy3": the new value of the same secret; "five five no sorry five
      // five one one": the value corrected.
      for (std::size_t k = e; k < u.n && k < e + 4; ++k) {
        // Another value named on the way is not this one: "... and her number is 5 5 5 1 2 1 2".
        if (u.anyOf(k, k + 1, {"number", "phone", "email", "address", "name", "account", "card", "her", "his",
                               "their", "birthday", "social", "ssn", "id", "zip", "age"})) {
          break;
        }
        if (!u.anyOf(k, k + 1, {"it's", "its", "is", "to", "sorry", "mean", "wait", "actually"}) || k + 1 >= u.n) {
          continue;
        }
        const std::size_t v = k + 1;
        std::size_t ve = 0;
        if (u.tok[v].allDigits) {
          ve = std::max(codeDigitsFrom(u, v), v + 1);  // "... to 9 8 7 6"
        } else if (u.tok[v].hasDigit) {
          ve = v + 1;
        } else if (u.isNum(v)) {
          NumberRun run;
          readRun(u, v, u.n, run);
          if (run.len >= 3) ve = run.t1;
        }
        if (ve > v) {
          c.add(v, ve, PiiType::pinOrPassword, prio::secret);
          i = ve - 1;
        }
        break;
      }
    }
  }
}

// "use 4471 for the keypad", "punch in 1 9 8 4 at the gate": a number entered on a lock is its code.
void findEnteredCodes(const Utterance& u, Candidates& c) noexcept {
  for (std::size_t i = 0; i + 3 < u.n; ++i) {
    if (!u.anyOf(i, i + 1, {"use", "enter", "punch", "key", "type", "dial", "press", "typed", "entered", "punched",
                            "keyed", "tried", "put", "need", "needs"})) {
      continue;
    }
    std::size_t s = i + 1;
    if (u.is(s, "in")) ++s;
    else if (u.is(i, "put")) continue;  // "put in 9 2 9 2", not "put 4 chairs"
    // The purpose said first: "to open the garage type 6 1 6 1", "if the alarm goes off put in 9 2 9 2", "to log
    // in use Pepper!88".
    const std::size_t from = i > 7 ? i - 7 : 0;
    const bool purposeFirst = u.anyOf(from, i, {"to", "if", "when"}) &&
                              (secretThing(u, from, i) || u.anyOf(from, i, {"log", "sign", "login", "signin"}));
    std::size_t e = codeDigitsFrom(u, s);
    if (e <= s && purposeFirst && s < u.n && u.raw(s).size() >= 6 && u.tok[s].hasDigit && !u.tok[s].allDigits) {
      e = s + 1;  // a typed password
    }
    if (e <= s) continue;
    // A code is 3 to 8 digits, and one dialled is no phone number: "if the door won't open dial 555 0100".
    if (purposeFirst && (u.tok[s].allDigits || u.isNum(s))) {
      const std::size_t digits = codeDigitCount(u, s, e);
      if (digits < 3 || digits > (u.is(i, "dial") ? 6u : 8u)) continue;
    }
    // "... for the keypad", "... into the keypad", or what it was entered on said after: "i typed 8 8 2 3 but the
    // pin pad beeped".
    bool named = purposeFirst ||
                 (u.anyOf(e, e + 1, {"for", "on", "at", "to", "into", "in"}) &&
                  (secretThing(u, e + 1, e + 4) ||
                   u.anyOf(e + 1, e + 3, {"pins", "pin", "passwords", "password", "passcodes", "passcode"})));
    // "use 4471 to get in", "enter 1 9 8 4 to open up", "press 1 2 1 2 then enter to open the safe".
    for (std::size_t k = e; k < e + 4 && k < u.n && !named; ++k) {
      // What is needed to open something is a code only when a lock is named: not "we need 1500 to open the account".
      named = u.is(k, "to") && u.anyOf(k + 1, k + 2, {"get", "open", "unlock", "disarm", "enter", "come"}) &&
              (!u.anyOf(i, i + 1, {"need", "needs"}) || secretThing(u, k + 2, k + 6));
      if (k > e && !u.anyOf(k, k + 1, {"then", "and", "enter", "hash", "pound", "star", "to"})) break;
    }
    // "i typed 2 4 1 1 but the door wouldn't open": a door entered on, said after, once the number is no count.
    for (std::size_t k = e; k < u.n && k < e + 5 && !named; ++k) {
      named = !u.anyOf(i, i + 1, {"use", "dial", "press", "key", "type", "enter"}) &&
              (secretCue(u, k) || u.anyOf(k, k + 1, {"keypad", "lock", "padlock", "lockbox", "safe", "keysafe", "door",
                                                     "gate", "garage", "alarm"}));
    }
    if (!named || u.has(e, lex::unit) || u.anyOf(e, e + 1, {"times", "tries", "attempts", "minutes", "seconds"})) {
      continue;
    }
    c.add(s, e, PiiType::pinOrPassword, prio::secret);
    i = e - 1;
  }
  // What a code opens, then the code: "for the safe it's thirty two, fifteen, eight".
  for (std::size_t i = 0; i + 3 < u.n; ++i) {
    if (!u.is(i, "for")) continue;
    std::size_t t = i + 1;
    if (u.anyOf(t, t + 1, {"the", "my", "our", "his", "her", "their"})) ++t;
    if (!u.anyOf(t, t + 1, {"garage", "alarm", "keypad", "lockbox", "padlock", "safe", "shed", "gate", "door",
                            "locker", "lock", "vault"}) ||
        !u.anyOf(t + 1, t + 2, {"it's", "its", "is"})) {
      continue;
    }
    std::size_t e = codeDigitsFrom(u, t + 2);
    // A combination said as numbers between commas: each run after the first may be short.
    if (e <= t + 2 && u.isNum(t + 2)) {
      NumberRun run;
      readRun(u, t + 2, u.n, run);
      std::size_t parts = 1;
      e = run.t1;
      while (e < u.n && e > t + 2 && u.tok[e - 1].commaAfter && u.isNum(e)) {
        NumberRun next;
        readRun(u, e, u.n, next);
        if (next.t1 <= e) break;
        e = next.t1;
        ++parts;
      }
      if (parts < 3) e = t + 2;
    }
    if (e <= t + 2) continue;
    c.add(t + 2, e, PiiType::pinOrPassword, prio::secret);
    i = e - 1;
  }
  // A note of what a code opens, the code straight after: "note to self: garage 4 8 1 5". Four digits at least
  // ("gate 12" is where a flight boards).
  for (std::size_t i = 0; i + 1 < u.n; ++i) {
    if (!u.anyOf(i, i + 1, {"garage", "alarm", "keypad", "lockbox", "padlock", "safe", "shed", "gate", "door"}) ||
        u.tok[i].commaAfter || u.tok[i].stopAfter) {
      continue;
    }
    const std::size_t e = codeDigitsFrom(u, i + 1);
    if (e <= i + 1) continue;
    const std::size_t digits = codeDigitCount(u, i + 1, e);
    if (digits < 4 || u.has(e, lex::unit) || u.anyOf(e, e + 1, {"am", "pm", "o'clock", "minutes", "times"})) continue;
    c.add(i + 1, e, PiiType::pinOrPassword, prio::secret);
    i = e - 1;
  }
  // What a lock opens with, or takes: "my phone unlocks with 1 4 7 0", "i open the lockbox with 3579", "the
  // keypad on the shed takes 2 5 8 0" (not "the alarm takes 30 seconds").
  for (std::size_t i = 1; i + 1 < u.n; ++i) {
    const bool takes = u.anyOf(i, i + 1, {"takes", "needs", "accepts", "wants", "requires", "uses"});
    if (!takes && !u.anyOf(i, i + 1, {"with", "using"})) continue;
    const std::size_t from = i > 5 ? i - 5 : 0;
    if ((!takes && !u.anyOf(from, i, {"unlock", "unlocks", "unlocked", "open", "opens", "opened", "disarm",
                                      "disarms", "disarmed"})) ||
        !secretThing(u, from, i)) {
      continue;
    }
    const std::size_t e = codeDigitsFrom(u, i + 1);
    if (e <= i + 1 || u.has(e, lex::unit) ||
        u.anyOf(e, e + 1, {"times", "tries", "attempts", "minutes", "seconds", "hours", "days", "batteries",
                           "volts", "digits", "characters"})) {
      continue;
    }
    c.add(i + 1, e, PiiType::pinOrPassword, prio::secret);
    i = e - 1;
  }
}

// A code, then what it is for: "oh yes 5 5 3 1 for the bike lock", "4471 for the garage". Four digits at least,
// not another thing's number ("room 1204 for the ...") nor one a phone or account cue names.
void findCodesFor(const Utterance& u, Candidates& c) noexcept {
  for (std::size_t s = 0; s + 2 < u.n; ++s) {
    if (s > 0 && (u.isNum(s - 1) || u.tok[s - 1].hasDigit)) continue;
    const std::size_t e = codeDigitsFrom(u, s);
    if (e <= s) continue;
    const std::size_t digits = codeDigitCount(u, s, e);
    std::size_t t = e + 1;
    if (u.anyOf(t, t + 1, {"the", "my", "our", "his", "her", "their", "mum's", "mom's", "dad's"})) ++t;
    if (t < u.n && u.anyOf(t, t + 1, {"bike", "front", "back", "side", "storage", "gym", "garden", "main"})) ++t;
    const bool forLock = digits >= 4 && u.is(e, "for") &&
                         u.anyOf(t, t + 1, {"lock", "padlock", "lockbox", "keysafe", "keybox", "safe", "keypad", "alarm",
                                            "garage", "gate", "door", "locker", "shed", "mailbox", "vault"});
    if (!forLock || (s > 0 && u.anyOf(s - 1, s, {"room", "flight", "unit", "apartment", "suite", "bus", "route",
                                                 "channel", "table", "order", "ticket", "at", "by", "until", "from",
                                                 "model", "item", "part", "number", "no", "extension"}))) {
      s = e - 1;
      continue;
    }
    const PiiType cue = numberCueType(u, s, e);
    if (cue != PiiType::person && cue != PiiType::pinOrPassword) {
      s = e - 1;
      continue;
    }
    c.add(s, e, PiiType::pinOrPassword, prio::secret);
    s = e - 1;
  }
}

// ---- a value named after it: "X is my santander account number", "X is my pin", "X opens the lockbox" ----
// The type a cue head at i names (account or secret), for a value said before it; false when i is no head.
bool headAfter(const Utterance& u, std::size_t i, PiiType& type) noexcept {
  // "... is my account password": the account's secret.
  if (u.anyOf(i, i + 1, {"account", "acct"}) && i + 1 < u.n && secretCue(u, i + 1)) {
    type = PiiType::pinOrPassword;
    return true;
  }
  if (u.anyOf(i, i + 1, {"account", "acct"}) ||
      (u.anyOf(i, i + 1, {"customer", "member", "membership", "policy", "reference", "client", "subscriber",
                          "loyalty", "flyer", "rewards", "patient", "employee", "staff", "student", "payroll"}) &&
       u.anyOf(i + 1, i + 2, {"number", "no", "id", "num"}))) {
    type = PiiType::accountNumber;
    return true;
  }
  // "... is my bike lock": a lock named last is its combination.
  if (secretCue(u, i) || (u.anyOf(i, i + 1, {"lock", "padlock", "lockbox", "combination", "combo"}) &&
                          (i + 1 >= u.n || u.tok[i].stopAfter || u.tok[i].commaAfter ||
                           u.anyOf(i + 1, i + 2, {"code", "combination", "combo", "please", "thanks", "cheers"})))) {
    type = PiiType::pinOrPassword;
    return true;
  }
  return false;
}

void findNamedAfter(const Utterance& u, Candidates& c) noexcept {
  for (std::size_t i = 0; i < u.n; ++i) {
    // The value: a spoken number run or typed digit groups, after at most three letters ("b five eight ...",
    // "BG 736776").
    std::size_t s = i, p = i;
    while (p < i + 3 && p < u.n && (isLetterToken(u, p) || (!u.spoken && u.raw(p).size() <= 3 && u.tok[p].capital &&
                                                              !u.tok[p].hasDigit && !u.tok[p].english))) {
      ++p;
    }
    if (p > i && u.is(p, "dash")) ++p;
    std::size_t e = 0, digits = 0;
    if (p < u.n && u.tok[p].hasDigit) {
      e = p;
      while (e < u.n && accountValueToken(u, e) && (e == p || (!u.tok[e - 1].commaAfter && !u.tok[e - 1].stopAfter))) {
        for (char ch : u.raw(e)) digits += isDigit(ch) ? 1 : 0;
        ++e;
      }
    } else if (p < u.n && u.isNum(p) && (p == 0 || !u.isNum(p - 1))) {
      NumberRun run;
      readRun(u, p, u.n, run);
      if (!run.anyThousand) {
        e = run.t1;
        digits = run.len;
      }
    }
    // A typed word with digits in it can be a password: "i use dragon77 as my password".
    const bool typedWord = e == p + 1 && p == i && !u.tok[p].allDigits && u.raw(p).size() >= 6;
    if (e <= p || (digits < 4 && !typedWord) || (p > i && p > 0 && u.isNum(i - 1))) continue;
    if (p == i) s = p;
    // The naming words: "is my (santander) account number", "that's the pin", "opens the lockbox".
    std::size_t k = e;
    const bool copula = u.anyOf(k, k + 1, {"is", "was", "that's", "thats", "it's", "are", "as"});
    // "5 5 9 1 gets you into the building", "4471 lets you in".
    const bool letsIn = digits >= 4 && u.anyOf(k, k + 1, {"gets", "lets", "got", "let"}) &&
                        u.anyOf(k + 1, k + 2, {"you", "me", "us", "them", "people"}) &&
                        ((u.anyOf(k + 2, k + 3, {"in", "inside", "through"}) &&
                          (k + 3 >= u.n || u.tok[k + 2].stopAfter || u.tok[k + 2].commaAfter ||
                           secretThing(u, k + 3, k + 6))) ||
                         (u.is(k + 2, "into") && secretThing(u, k + 3, k + 6)));
    if (letsIn) {
      c.add(s, e, PiiType::pinOrPassword, prio::secret);
      i = e - 1;
      continue;
    }
    const bool opens = u.anyOf(k, k + 1, {"opens", "unlocks", "disarms", "unlocked", "opened"});
    // The secret named in apposition: "make 0 9 1 1 the new alarm code", "change it to 8 1 8 1, the door code i
    // mean" (a secret only: "i paid 4000 the account fee" names no account).
    const bool apposition = !copula && !opens && u.anyOf(k, k + 1, {"the", "my", "our", "his", "her", "their", "your"});
    if (!copula && !opens && !apposition) continue;
    if (!apposition) ++k;
    if (u.is(k, "for")) continue;  // "1234 is for the ...": not naming the value
    if (u.anyOf(k, k + 1, {"my", "the", "our", "his", "her", "their", "your", "mum's", "mom's", "dad's"})) ++k;
    PiiType type = PiiType::person;
    bool named = false;
    for (std::size_t w = k; w < k + 3 && w < u.n && !named; ++w) {
      if (opens ? secretThing(u, w, w + 1) : headAfter(u, w, type)) {
        named = true;
      } else if (u.isNum(w) || u.tok[w].hasDigit || u.has(w, lex::function)) {
        break;
      }
    }
    if (!named || (apposition && type != PiiType::pinOrPassword)) continue;
    if (opens) type = PiiType::pinOrPassword;
    if (digits < 4 && type != PiiType::pinOrPassword) continue;
    c.add(s, e, type, type == PiiType::accountNumber ? prio::account : prio::secret);
    i = e - 1;
  }
}

// A password in words, named after it: "blue monkey is my password", "remember golden gate is the password for
// the router", "i set it to kitty cat as my password". The value runs back from the verb to the start or to an
// opener ("remember", "okay", "the word", "to"), four words at most; the secret is named last.
void findWordSecretsNamedAfter(const Utterance& u, Candidates& c) noexcept {
  for (std::size_t k = 1; k + 2 < u.n; ++k) {
    if (!u.anyOf(k, k + 1, {"is", "was", "that's", "thats", "as"})) continue;
    std::size_t w = k + 1;
    if (u.anyOf(w, w + 1, {"my", "the", "our", "his", "her", "their", "your", "mum's", "mom's", "dad's"})) ++w;
    std::size_t cue = 0;
    for (std::size_t x = w; x < w + 3 && x < u.n && cue == 0; ++x) {
      if (secretCue(u, x) && u.stem(x) != "code" && u.stem(x) != "key") cue = x;  // a word is no door's code
    }
    if (cue == 0) continue;
    const std::size_t after = cue + 1;
    if (!(after >= u.n || u.tok[cue].stopAfter || u.tok[cue].commaAfter ||
          u.anyOf(after, after + 1, {"for", "now", "too", "then", "please", "okay", "ok", "right", "on", "at"}))) {
      continue;
    }
    std::size_t v = k;
    while (v > 0 && k - v < 4 && !u.tok[v - 1].commaAfter && !u.tok[v - 1].stopAfter &&
           (!u.has(v - 1, lex::function) || u.isNum(v - 1)) &&
           !u.anyOf(v - 1, v, {"remember", "okay", "ok", "so", "note", "well", "um", "uh", "erm", "word", "called",
                               "named", "like", "what", "which", "this", "that", "it", "there", "here", "who", "how",
                               "mine", "yours", "one", "thing", "where", "when", "why", "whose", "nothing",
                               "something", "anything", "everything", "nobody", "somebody", "someone", "everyone",
                               "hey", "hi", "hello"})) {
      --v;
    }
    if (v == k) continue;
    // Where it starts: the utterance's start, a pause, or an opener; not inside a phrase ("the problem is ...").
    const bool opened = v == 0 || u.tok[v - 1].commaAfter || u.tok[v - 1].stopAfter ||
                        u.anyOf(v - 1, v, {"remember", "okay", "ok", "so", "note", "well", "um", "uh", "erm", "word",
                                           "called", "named", "to", "like"});
    bool plain = true;
    for (std::size_t x = v; x < k && plain; ++x) {
      plain = !secretCue(u, x) && !secretThing(u, x, x + 1) && !u.tok[x].possessive && u.word(x) != "i";
    }
    if (!opened || !plain) continue;
    c.add(v, k, PiiType::pinOrPassword, prio::secret);
  }
}

}  // namespace

bool namesASecret(const Utterance& u, std::size_t i) noexcept {
  return secretCue(u, i) || u.anyOf(i, i + 1, {"keypad", "lockbox", "padlock", "safe"});
}

PiiType numberCueType(const Utterance& u, std::size_t t0, std::size_t t1) noexcept {
  for (std::size_t k = t0, back = 0; k > 0 && back < 6; --k, ++back) {
    const std::size_t w = k - 1;
    if (u.isNum(w) || u.tok[w].hasDigit) break;
    if (namesASecret(u, w)) return PiiType::pinOrPassword;
    // "her number is ...": a person's number is their phone ("my account number" meets "account" first).
    if (u.anyOf(w, w + 1, {"phone", "mobile", "cell", "cellphone", "landline", "fax", "whatsapp", "telephone", "tel",
                           "call", "text", "ring", "reach", "dial", "extension"}) ||
        (u.is(w, "number") && w > 0 && u.anyOf(w - 1, w, {"my", "her", "his", "their", "your"}))) {
      return PiiType::phone;
    }
    if (u.anyOf(w, w + 1, {"account", "acct", "customer", "member", "membership", "policy", "loyalty", "client",
                           "subscriber", "billing"})) {
      return PiiType::accountNumber;
    }
  }
  // None before: a secret named just after ("8 8 2 3 is the pin", "i typed 8 8 2 3 but the pin pad beeped").
  for (std::size_t w = t1; w < u.n && w < t1 + 6; ++w) {
    if (u.isNum(w) || u.tok[w].hasDigit || u.tok[w - 1].stopAfter || u.tok[w - 1].commaAfter) break;
    if (namesASecret(u, w)) return PiiType::pinOrPassword;
    if (u.anyOf(w, w + 1, {"account", "acct", "phone", "mobile", "cell", "number"})) break;
  }
  return PiiType::person;  // no cue either way
}

bool codeNamesNoSecret(const Utterance& u, std::size_t i) noexcept {
  return i > 0 && u.stem(i) == "code" && nonSecretCodeWord(u, i - 1);
}

// A lock's number said as the lock's: "the garage is 5 6 7 8", "front door is 4 4 1 2", "the alarm's 5 5 8 0"
// (4 to 8 digits, no unit or time after: not "the garage is 2000 square feet", "the alarm is 6 30 am"). And a
// secret continued after one was named: "the pin for my visa is 1111 and for the mastercard 2222", "the gate is
// 2 2 4 1 and the shed 9 9 0 1".
bool lockNoun(const Utterance& u, std::size_t i) noexcept {
  return u.anyOf(i, i + 1, {"garage", "door", "alarm", "gate", "shed", "safe", "locker", "lockbox", "keypad",
                            "padlock", "vault", "mailbox", "keysafe", "keybox", "intercom", "buzzer"}) ||
         (u.tok[i].possessive && (u.stem(i) == "garage" || u.stem(i) == "door" || u.stem(i) == "alarm" ||
                                  u.stem(i) == "gate" || u.stem(i) == "shed" || u.stem(i) == "safe"));
}

std::size_t lockCodeAt(const Utterance& u, std::size_t v) noexcept {
  if (v >= u.n || !(u.tok[v].allDigits || (u.isNum(v) && !u.is(v, "oh")))) return v;
  const std::size_t e = codeDigitsFrom(u, v);
  if (e <= v) return v;
  const std::size_t digits = codeDigitCount(u, v, e);
  // A round figure or a price is no code: "the garage was 3000", "i paid 1200 and ...".
  const std::string_view w = u.raw(v);
  const bool round = e == v + 1 && w.size() >= 3 && w.substr(w.size() - 2) == "00";
  // ... nor a year after "was": "the alarm was 2019".
  const bool year = e == v + 1 && w.size() == 4 && v > 0 && u.is(v - 1, "was") && (w.starts_with("19") || w.starts_with("20"));
  if (round || year || u.anyOf(0, u.n, {"paid", "cost", "costs", "price", "spent", "worth", "sold", "bought", "pay", "owe"}) ||
      digits < 4 || digits > 8 || u.has(e, lex::unit) ||
      u.anyOf(e, e + 1, {"am", "pm", "o'clock", "oclock", "minutes", "minute", "hours", "hour", "seconds", "days",
                         "dollars", "pounds", "euros", "years", "feet", "foot", "meters", "metres", "miles", "square",
                         "percent", "times", "people", "cars", "degrees"})) {
    return v;
  }
  return e;
}

void findLockNumbers(const Utterance& u, Candidates& c) noexcept {
  for (std::size_t i = 0; i + 1 < u.n; ++i) {
    if (!lockNoun(u, i)) continue;
    std::size_t v = i + 1;
    if (!u.tok[i].possessive) {
      if (!u.anyOf(v, v + 1, {"is", "was", "it's"})) continue;
      ++v;
    }
    const std::size_t e = lockCodeAt(u, v);
    if (e > v && !c.covered(v, e)) c.add(v, e, PiiType::pinOrPassword, prio::secret);
  }
  // Continued: an "and" after a secret found, then a lock or card named and a code (no verb needed).
  bool named = false;
  for (std::size_t k = 0; k < c.n && !named; ++k) named = c.c[k].type == PiiType::pinOrPassword;
  if (!named) return;
  for (std::size_t i = 0; i + 2 < u.n; ++i) {
    if (!u.is(i, "and") || !c.covered(0, i)) continue;
    std::size_t k = i + 1;
    if (u.is(k, "for")) ++k;
    if (u.anyOf(k, k + 1, {"the", "my", "our", "his", "her", "their"})) ++k;
    bool thing = false;
    for (std::size_t w = k; w < k + 3 && w < u.n; ++w) {
      if (u.tok[w].allDigits || u.isNum(w)) {
        k = w;
        break;
      }
      thing |= lockNoun(u, w) || secretThing(u, w, w + 1) ||
               u.anyOf(w, w + 1, {"mastercard", "visa", "amex", "debit", "credit", "card"});
      k = w + 1;
    }
    if (!thing) continue;
    if (u.anyOf(k, k + 1, {"is", "was", "it's"})) ++k;
    const std::size_t e = lockCodeAt(u, k);
    if (e > k && !c.covered(k, e)) c.add(k, e, PiiType::pinOrPassword, prio::secret);
  }
}

// A login or a network given as name and secret: "Login: jsmith / Tr0ub4dor&3", "Wifi: HomeNet / bluefox88". The
// secret is one token with a digit or a symbol in it, after the slash.
void findLoginPairs(const Utterance& u, Candidates& c) noexcept {
  for (std::size_t i = 0; i + 3 < u.n; ++i) {
    if (!u.tok[i].colonAfter || !u.anyOf(i, i + 1, {"login", "wifi", "wi-fi", "network", "user", "username",
                                                     "account", "email", "ssid", "router"})) {
      continue;
    }
    if (!u.is(i + 2, "/")) continue;
    const std::size_t v = i + 3;
    bool other = false;
    for (char ch : u.raw(v)) other |= !((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z'));
    if (u.raw(v).size() < 4 || !other) continue;
    c.add(v, v + 1, PiiType::pinOrPassword, prio::secret);
  }
}

void findContextual(const Utterance& u, Candidates& c) noexcept {
  findBirthDates(u, c);
  findAccounts(u, c);
  findSecrets(u, c);
  findEnteredCodes(u, c);
  findCodesFor(u, c);
  findNamedAfter(u, c);
  findWordSecretsNamedAfter(u, c);
  findLoginPairs(u, c);
  findLockNumbers(u, c);
}

}  // namespace sotto::privacy::detail
