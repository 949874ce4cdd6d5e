// SPDX-License-Identifier: MIT
// The personal-data model's features and span decoding.
#include "engine/privacy/pii_tagger.h"

#include <algorithm>

#include "engine/privacy/pii_lexicon.h"
#include "engine/privacy/pii_recognizers.h"

namespace sotto::privacy::detail {
namespace {

enum Kind : std::uint8_t {
  kBias = 1,
  kWord,
  kStem,
  kPrev,
  kNext,
  kPrev2,
  kNext2,
  kPairL,
  kPairR,
  kShape,
  kNum,
  kRun,
  kLex,
  kLexPrev,
  kLexNext,
  kRuleBegin,
  kRuleInside,
  kRulePrev,
  kRuleNext,
  kLeftBag,
  kRightBag,
  kSuffix,
  kFlags,
  kChars,
  kEnglish,
};

constexpr std::string_view kStart = "<s>";
// Retyping a rule's span: the model's mean probability of the rule's type below the first, of another above the
// second.
constexpr float kRetypeOwn = 0.2f;
constexpr float kRetypeOther = 0.7f;
constexpr float kSure = 0.5f;
constexpr float kExtend = 0.05f;
constexpr std::string_view kEnd = "</s>";

// Digit strings as their shape and length ("4417" -> "dddd"): the value is never a feature, its form is.
std::string_view form(std::string_view w, char (&buf)[24]) noexcept {
  bool digit = false;
  for (char ch : w) digit |= ch >= '0' && ch <= '9';
  if (!digit) return w;
  std::size_t n = 0;
  for (char ch : w) {
    if (n == sizeof buf) break;
    buf[n++] = (ch >= '0' && ch <= '9') ? 'd' : (ch >= 'a' && ch <= 'z') ? 'a' : (ch >= 'A' && ch <= 'Z') ? 'A' : ch;
  }
  return {buf, n};
}

// Types whose every value has a checkable form (checksum or exact pattern): the rules find them where they are
// written or spoken as such, and a span the model proposes alone is a false one (on gen_valid.py's and the dev
// lines the model added no true e-mail, IP, card or IBAN to the rules', only wrong ones). The model's suspicion
// still keeps a possible card or IBAN on the device.
bool exactFormat(PiiType t) noexcept {
  return t == PiiType::email || t == PiiType::ipAddress || t == PiiType::creditCard || t == PiiType::iban;
}

std::string_view typeKey(int t) noexcept { return piiTypeName(static_cast<PiiType>(t)); }

}  // namespace

void markCandidates(const Candidates& c, std::size_t words, CandidateMarks& marks) noexcept {
  std::fill_n(marks.begin, words, 0u);
  std::fill_n(marks.inside, words, 0u);
  for (std::size_t k = 0; k < c.n; ++k) {
    const Candidate& cand = c.c[k];
    const std::uint32_t bit = 1u << static_cast<unsigned>(cand.type);
    if (cand.t0 < words) marks.begin[cand.t0] |= bit;
    for (std::size_t t = cand.t0; t < cand.t1 && t < words; ++t) marks.inside[t] |= bit;
  }
}

void piiWordFeatures(const Utterance& u, const CandidateMarks& marks, std::size_t i, nlu::FeatureList& out) noexcept {
  using nlu::featureHash;
  const auto n = static_cast<std::ptrdiff_t>(u.n);
  const auto si = static_cast<std::ptrdiff_t>(i);
  char b0[24], b1[24], b2[24], b3[24], b4[24];
  auto at = [&](std::ptrdiff_t k, char (&buf)[24]) -> std::string_view {
    if (k < 0) return kStart;
    if (k >= n) return kEnd;
    return form(u.word(static_cast<std::size_t>(k)), buf);
  };
  const std::string_view w = at(si, b0);
  const Token& t = u.tok[i];
  out.add(featureHash(kBias, u.spoken ? "s" : "w"), 1.0f);
  out.add(featureHash(kWord, w), 1.0f);
  out.add(featureHash(kStem, form(u.stem(i), b1)), 0.5f);
  const std::string_view prev = at(si - 1, b2), next = at(si + 1, b3);
  out.add(featureHash(kPrev, prev), 1.0f);
  out.add(featureHash(kNext, next), 1.0f);
  out.add(featureHash(kPrev2, at(si - 2, b4)), 0.5f);
  out.add(featureHash(kNext2, at(si + 2, b1)), 0.5f);
  out.add(featureHash(kPairL, prev, w), 0.7f);
  out.add(featureHash(kPairR, w, next), 0.7f);
  if (w.size() > 3) out.add(featureHash(kSuffix, w.substr(w.size() - 3)), 0.5f);
  // Character 4-grams of longer words: a drug or a surname no list has still looks like the ones that were
  // ("-statin", "-mab", "-ski").
  if (w.size() >= 5 && t.num == NumKind::none && !t.hasDigit) {
    char padded[48];
    const std::size_t len = std::min<std::size_t>(w.size(), sizeof padded - 2);
    padded[0] = '^';
    std::copy_n(w.data(), len, padded + 1);
    padded[len + 1] = '$';
    const std::string_view p(padded, len + 2);
    for (std::size_t k = 0; k + 4 <= p.size(); ++k) out.add(featureHash(kChars, p.substr(k, 4)), 0.3f);
  }
  const char flags[] = {t.capital ? 'C' : 'c', t.possessive ? 'P' : 'p', t.sentenceStart ? 'S' : 's',
                        t.commaAfter ? ',' : '_', t.colonAfter ? ':' : '_', t.stopAfter ? '.' : '_',
                        t.hasAt ? '@' : '_', t.allDigits ? 'D' : (t.hasDigit ? 'd' : '_')};
  for (std::size_t k = 0; k < sizeof flags; ++k) {
    out.add(featureHash(kFlags, std::string_view(&flags[k], 1), std::string_view(&"01234567"[k], 1)), 0.5f);
  }
  // An ordinary English word is rarely a name or a drug: "my usual barber", "grandmother's recipe for stew".
  if (t.english) out.add(featureHash(kEnglish, "w"), 1.0f);
  if (i > 0 && u.tok[i - 1].english) out.add(featureHash(kEnglish, "p"), 0.5f);
  if (i + 1 < u.n && u.tok[i + 1].english) out.add(featureHash(kEnglish, "n"), 0.5f);
  const char num[2] = {static_cast<char>('a' + static_cast<int>(t.num)), 0};
  out.add(featureHash(kNum, std::string_view(num, 1)), 1.0f);
  // The run of number words or digit strings around the word: its length separates PINs, SSNs, phones, cards.
  if (t.num != NumKind::none || t.hasDigit) {
    std::size_t a = i, b = i + 1;
    auto numeric = [&u](std::size_t k) { return u.tok[k].num != NumKind::none || u.tok[k].hasDigit; };
    while (a > 0 && numeric(a - 1)) --a;
    while (b < u.n && numeric(b)) ++b;
    char run[8];
    const int len = static_cast<int>(std::min<std::size_t>(b - a, 30));
    const int pos = static_cast<int>(std::min<std::size_t>(i - a, 30));
    run[0] = static_cast<char>('A' + len);
    run[1] = static_cast<char>('A' + pos);
    out.add(featureHash(kRun, std::string_view(run, 1)), 1.0f);
    out.add(featureHash(kRun, std::string_view(run, 2)), 0.5f);
    out.add(featureHash(kRun, std::string_view(run, 1), at(static_cast<std::ptrdiff_t>(a) - 1, b4)), 0.7f);
    out.add(featureHash(kRun, std::string_view(run, 1), at(static_cast<std::ptrdiff_t>(b), b4)), 0.7f);
  }
  for (unsigned bit = 0; bit < 16; ++bit) {
    const char key[2] = {static_cast<char>('a' + bit), 0};
    if (t.lex >> bit & 1u) out.add(featureHash(kLex, std::string_view(key, 1)), 1.0f);
    if (i > 0 && (u.tok[i - 1].lex >> bit & 1u)) out.add(featureHash(kLexPrev, std::string_view(key, 1)), 0.5f);
    if (i + 1 < u.n && (u.tok[i + 1].lex >> bit & 1u)) out.add(featureHash(kLexNext, std::string_view(key, 1)), 0.5f);
  }
  for (int type = 0; type < static_cast<int>(kPiiTypeCount); ++type) {
    const std::uint32_t bit = 1u << type;
    if (marks.begin[i] & bit) out.add(featureHash(kRuleBegin, typeKey(type)), 1.0f);
    if (marks.inside[i] & bit) out.add(featureHash(kRuleInside, typeKey(type)), 1.0f);
    if (i > 0 && (marks.inside[i - 1] & bit)) out.add(featureHash(kRulePrev, typeKey(type)), 0.5f);
    if (i + 1 < u.n && (marks.inside[i + 1] & bit)) out.add(featureHash(kRuleNext, typeKey(type)), 0.5f);
  }
  // The cue words around it ("my social is ...", "... that's my pin"), as two bags of up to five words.
  for (std::ptrdiff_t k = std::max<std::ptrdiff_t>(0, si - 5); k < si - 1; ++k) {
    if (u.tok[k].num == NumKind::none && !u.tok[k].hasDigit) out.add(featureHash(kLeftBag, u.word(static_cast<std::size_t>(k))), 0.4f);
  }
  for (std::ptrdiff_t k = si + 2; k < std::min(n, si + 6); ++k) {
    if (u.tok[k].num == NumKind::none && !u.tok[k].hasDigit) out.add(featureHash(kRightBag, u.word(static_cast<std::size_t>(k))), 0.4f);
  }
}

std::size_t joinNumberRuns(const Utterance& u, const float (*q)[kPiiTypeCount], std::size_t qWords, std::uint16_t* s0,
                           std::uint16_t* s1, std::int8_t* st, std::size_t spans) noexcept {
  // A spoken separator inside a number run belongs to it: "four four [dash] one two dash nine nine eight".
  auto numeric = [&u](std::size_t w) {
    return u.tok[w].num != NumKind::none || u.tok[w].hasDigit ||
           (u.anyOf(w, w + 1, {"dash", "hyphen"}) && w + 1 < u.n && w > 0 && u.isNum(w + 1) && u.isNum(w - 1));
  };
  std::size_t w = 0;
  for (std::size_t k = 0; k < spans; ++k) {
    // Touching names are one name as well: the model often begins a surname anew ("[teodor] [juarez]").
    const bool names = st[k] == static_cast<std::int8_t>(PiiType::person) && w > 0 &&
                       st[w - 1] == st[k] && !u.tok[s0[k] - 1u].commaAfter && !u.tok[s0[k] - 1u].colonAfter &&
                       !u.tok[s0[k] - 1u].stopAfter && !u.tok[s0[k] - 1u].possessive;
    if (w > 0 && s1[w - 1] == s0[k] && s1[k] <= qWords && ((numeric(s0[k] - 1u) && numeric(s0[k])) || names)) {
      s1[w - 1] = s1[k];
      float sum[kPiiTypeCount] = {};
      for (std::size_t x = s0[w - 1]; x < s1[w - 1]; ++x) {
        for (std::size_t t = 0; t < kPiiTypeCount; ++t) sum[t] += q[x][t];
      }
      st[w - 1] = static_cast<std::int8_t>(std::max_element(sum, sum + kPiiTypeCount) - sum);
    } else {
      s0[w] = s0[k];
      s1[w] = s1[k];
      st[w] = st[k];
      ++w;
    }
  }
  return w;
}

// "my [sin] is 673-833-117", "my [westpac] savings account is ...": words between "my" and the "is" before a
// value a rule found are that value's name, not a value of their own.
bool namesARuleValue(const Utterance& u, const Candidates& c, std::size_t rules, std::size_t t0,
                     std::size_t t1) noexcept {
  // The owner right before, or one word before ("my driving [licence] number is ...").
  if (t0 == 0 || !u.anyOf(t0 > 1 ? t0 - 2 : 0, t0, {"my", "our", "your", "his", "her", "their"})) return false;
  for (std::size_t w = t1; w < t1 + 4 && w < u.n; ++w) {
    if (!u.anyOf(w, w + 1, {"is", "was", "it's", "are"}) && !u.tok[w - 1].colonAfter) continue;
    const std::size_t v = u.anyOf(w, w + 1, {"is", "was", "it's", "are"}) ? w + 1 : w;
    for (std::size_t r = 0; r < rules; ++r) {
      if (c.c[r].t0 == v && c.c[r].priority >= prio::account) return true;
    }
    return false;
  }
  return false;
}

bool numbersAThing(const Utterance& u, std::size_t t0) noexcept {
  // The nouns up to five words before the value (stopping at another number): a thing's noun and no personal
  // one ("my account reference is ..." stays an account).
  bool thing = false;
  for (std::size_t k = t0, back = 0; k > 0 && back < 5; --k, ++back) {
    const std::size_t w = k - 1;
    if (u.anyOf(w, w + 1, {"account", "acct", "member", "membership", "customer", "policy", "card", "iban", "sort",
                           "routing", "social", "ssn", "passport", "licence", "license", "pin", "password",
                           "passcode", "patient", "insurance", "benefits", "pension", "tax", "phone", "mobile",
                           "cell", "call", "text", "reach", "ring", "number's"})) {
      return false;
    }
    if (u.anyOf(w, w + 1, {"order", "orders", "reference", "ref", "ticket", "booking", "confirmation", "tracking",
                           "invoice", "receipt", "transaction", "serial", "model", "flight", "meeting", "extension",
                           "room", "seat", "table", "parcel", "package", "shipment", "delivery", "item", "product",
                           "part", "sku", "version", "build", "error", "episode", "chapter", "page", "channel",
                           "route", "bus", "train", "platform", "gate", "score", "lottery", "raffle", "jersey"})) {
      thing = true;
    }
    if (u.isNum(w) || u.tok[w].hasDigit) break;
  }
  return thing;
}

void settleNumberTypes(const Utterance& u, Candidates& c) noexcept {
  // An account or phone shape that numbers a thing ("the ticket number is 55018832", "the meeting id is 884 2291
  // 4471") is no personal value, whether a rule or the model found it; checksummed formats are never dropped.
  // Between the two number types that share shapes, the nearest cue decides ("the account i use for rent is 55 66
  // 77 88" is no phone). A number type's span without a digit or a number word is no value ("my utility account
  // [reads] ...").
  std::size_t live = 0;
  for (std::size_t k = 0; k < c.n; ++k) {
    Candidate x = c.c[k];
    const bool numberType = x.type == PiiType::accountNumber || x.type == PiiType::phone;
    if (numberType && x.priority < prio::exact && numbersAThing(u, x.t0)) continue;
    // The model's code after a code that is no secret: "my zip code is nine oh two one oh", "error code 404".
    if (x.type == PiiType::pinOrPassword && x.priority == prio::model) {
      bool noSecret = false;
      for (std::size_t w = x.t0 > 3 ? x.t0 - 3 : 0; w < x.t0 && !noSecret; ++w) noSecret = codeNamesNoSecret(u, w);
      // Nor is a secret's length: "set a [four digit] pin", "it must be [eight] characters".
      for (std::size_t w = x.t0; w <= x.t1 && w < u.n && !noSecret; ++w) {
        noSecret = u.anyOf(w, w + 1, {"digit", "digits", "characters", "character", "letters", "chars"});
      }
      if (noSecret) continue;
      // The model's code where the nearest cue names a phone or an account: "... and her number is 5 5 5 1 2 1 2".
      const PiiType cue = numberCueType(u, x.t0, x.t1);
      if (cue == PiiType::phone || cue == PiiType::accountNumber) x.type = cue;
    }
    if ((numberType || x.type == PiiType::ssn || x.type == PiiType::creditCard) && x.priority == prio::model) {
      bool digits = false;
      for (std::size_t w = x.t0; w < x.t1 && !digits; ++w) digits = u.isNum(w) || u.tok[w].hasDigit;
      if (!digits) continue;
    }
    if (numberType && x.priority < prio::exact) {
      const PiiType cue = numberCueType(u, x.t0, x.t1);
      // A secret's cue nearest: a short number there is its code, whichever shape the model or a rule saw.
      std::size_t digits = 0;
      for (std::size_t w = x.t0; w < x.t1; ++w) digits += u.tok[w].hasDigit ? u.raw(w).size() : (u.isNum(w) ? 1 : 0);
      if (cue == PiiType::phone || cue == PiiType::accountNumber || (cue == PiiType::pinOrPassword && digits <= 8)) {
        x.type = cue;
      }
    }
    c.c[live++] = x;
  }
  c.n = live;
}

void shapeModelSpans(const Utterance& u, const float (*q)[kPiiTypeCount], std::size_t qWords, std::uint16_t* s0,
                     std::uint16_t* s1, const std::int8_t* st, std::size_t spans) noexcept {
  // WordNet's public figures count only where the request is about public figures ("call john smith").
  const std::uint32_t famous = publicFigureContext(u) ? (lex::famous | lex::publicFigure) : lex::famous;
  // A model span grows into the neighbouring words the model gives its type at least kExtend: the words of one
  // value share it, but the model is surest in the middle ("ten november [nineteen seventy four]"). Measured on
  // gen_valid.py's lines (not the evaluation set): F1 0.818 -> 0.844, best at 0.02-0.05.
  // Never across punctuation that ends a field ("DOB: 4/1/1991; Meds: ...", "Kofi Okafor / Acct: ...").
  auto wordlike = [&u](std::size_t w) {
    for (const char ch : u.word(w)) {
      if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9')) return true;
    }
    return false;
  };
  auto joinsNext = [&u, &wordlike](std::size_t w) {
    const Token& t = u.tok[w];
    return !t.commaAfter && !t.colonAfter && !t.stopAfter && wordlike(w) && w + 1 < u.n && wordlike(w + 1);
  };
  for (std::size_t k = 0; k < spans; ++k) {
    const auto t = static_cast<std::size_t>(st[k]);
    const std::size_t lo = k > 0 ? s1[k - 1] : 0, hi = k + 1 < spans ? s0[k + 1] : u.n;
    while (s0[k] > lo && s0[k] - 1u < qWords && q[s0[k] - 1][t] >= kExtend && joinsNext(s0[k] - 1u)) --s0[k];
    while (s1[k] < hi && s1[k] < qWords && q[s1[k]][t] >= kExtend && joinsNext(s1[k] - 1u) &&
           wordlike(s1[k])) {
      ++s1[k];
    }
    const bool person = st[k] == static_cast<std::int8_t>(PiiType::person);
    // A spoken number is one value: a span that ends or starts inside one takes all of it ("four hundred eighty
    // [three]").
    if (!person) {
      while (s1[k] < hi && u.isNum(s1[k] - 1u) && u.isNum(s1[k]) && joinsNext(s1[k] - 1u)) ++s1[k];
      while (s0[k] > lo && u.isNum(s0[k]) && u.isNum(s0[k] - 1u) && joinsNext(s0[k] - 1u)) --s0[k];
    }
    // A span never starts or ends on punctuation alone ("Yusuf Okonkwo |"). A name holds no number and ends at
    // its possessive: "wren ortega [eight] lives at", "[fenella's] locker code".
    auto outside = [&](std::size_t w) {
      return !wordlike(w) || (person && (u.tok[w].num != NumKind::none || u.tok[w].hasDigit));
    };
    if (person) {
      for (std::size_t w = s0[k]; w + 1 < s1[k]; ++w) {
        if (u.tok[w].possessive) {
          s1[k] = static_cast<std::uint16_t>(w + 1);
          break;
        }
      }
    }
    while (s0[k] < s1[k] && outside(s0[k])) ++s0[k];
    while (s1[k] > s0[k] && outside(s1[k] - 1u)) --s1[k];
    if (!person) {
      // Nor does any other value start on a wake word, a filler or a form label ("condition [anxiety disorder]",
      // "[yo] hawthorn hill logistics"), or end on a sign-off; a password may be any word, an address may end in a
      // street type or a state ("oak dr", "columbus oh"), and a date starts with "the".
      if (st[k] == static_cast<std::int8_t>(PiiType::pinOrPassword)) continue;
      auto filler = [&u](std::size_t w) {
        const std::uint32_t f = u.tok[w].lex;
        return (f & lex::notName) && !(f & (lex::streetType | lex::unitWord | lex::region | lex::tld | lex::function)) &&
               !u.isNum(w);
      };
      while (s0[k] < s1[k] && filler(s0[k])) ++s0[k];
      while (s1[k] > s0[k] && filler(s1[k] - 1u)) --s1[k];
      // A condition or a medicine starts after its article or dose: "[a] migraine", "[50 mg of] sertraline".
      if (st[k] == static_cast<std::int8_t>(PiiType::health)) {
        while (s0[k] + 1 < s1[k] && (u.anyOf(s0[k], s0[k] + 1u, {"a", "an", "some", "mg", "milligrams", "mcg",
                                                                  "ml", "units", "of", "dose", "doses"}) ||
                                     u.isNum(s0[k]) || u.tok[s0[k]].hasDigit)) {
          ++s0[k];
        }
      }
      continue;
    }
    // A name neither starts nor ends on a word no name is: a title, a wake word, a filler or a form label ("hey
    // nurse [teodor juarez]", "[joy ortega] cheers", "patient [saoirse haddad] age"), nor on an ordinary word no
    // name list holds, unless typed capitalized inside a sentence. A famous person's name is no private value.
    auto notName = [&u](std::size_t w) {
      const std::uint32_t f = u.tok[w].lex;
      if (f & lex::notName) return !(f & (lex::firstName | lex::surname)) || !u.tok[w].capital || u.tok[w].sentenceStart;
      if (!(f & (lex::common | lex::function | lex::relation)) || (f & (lex::firstName | lex::surname))) return false;
      return u.caseless || !u.tok[w].capital || u.tok[w].sentenceStart;
    };
    while (s0[k] < s1[k] && notName(s0[k])) ++s0[k];
    while (s1[k] > s0[k] && notName(s1[k] - 1u)) --s1[k];
    if (s1[k] > s0[k] && s1[k] - s0[k] <= 3 && (u.lexicon->lookup(u.stemPhrase(s0[k], s1[k])) & famous)) {
      s1[k] = s0[k];
    }
  }
}

void addModelCandidates(const PiiModel& model, const Utterance& u, const CandidateMarks& marks, Candidates& c,
                        std::uint16_t* suspects, std::uint16_t* sure) noexcept {
  const std::vector<nlu::LinearLayer>& layers = model.layers();
  nlu::FeatureList features(layers.front().rowMask());
  float p[kPiiTagCount], member[kPiiTagCount];
  const float share = 1.0f / static_cast<float>(layers.size());
  // Each type's probability per word, for the first kRetypeWords words (longer text keeps the rules' types).
  constexpr std::size_t kRetypeWords = 128;
  float q[kRetypeWords][kPiiTypeCount];
  int openType = -1;
  std::size_t openStart = 0;
  constexpr std::size_t kMaxSpans = 64;
  std::uint16_t s0[kMaxSpans], s1[kMaxSpans];
  std::int8_t st[kMaxSpans];
  std::size_t spans = 0;
  auto close = [&](std::size_t end) {
    if (openType >= 0 && spans < kMaxSpans) {
      s0[spans] = static_cast<std::uint16_t>(openStart);
      s1[spans] = static_cast<std::uint16_t>(end);
      st[spans++] = static_cast<std::int8_t>(openType);
    } else if (openType >= 0) {
      c.add(openStart, end, static_cast<PiiType>(openType), prio::model);  // past kMaxSpans: not extended
    }
    openType = -1;
  };
  for (std::size_t i = 0; i < u.n; ++i) {
    std::fill(p, p + kPiiTagCount, 0.0f);
    std::uint32_t mask = 0;
    for (const nlu::LinearLayer& layer : layers) {
      // Features again only for a member that hashes into a table of another size.
      if (mask != layer.rowMask() || &layer == &layers.front()) {
        mask = layer.rowMask();
        features.reset(mask);
        piiWordFeatures(u, marks, i, features);
      }
      layer.scores(features.view(), member);
      nlu::softmax(member, kPiiTagCount);
      for (std::size_t k = 0; k < kPiiTagCount; ++k) p[k] += member[k] * share;
    }
    int best = -1;
    float bestQ = 0.0f;
    suspects[i] = 0;
    sure[i] = 0;
    for (int t = 0; t < static_cast<int>(kPiiTypeCount); ++t) {
      const float qt = p[1 + 2 * t] + p[2 + 2 * t];
      if (i < kRetypeWords) q[i][t] = qt;
      if (qt >= model.suspectThreshold(static_cast<PiiType>(t))) suspects[i] |= static_cast<std::uint16_t>(1u << t);
      // Sure: past the span threshold and more likely than not (a span threshold calibrated low, where the
      // rules decide anyway, does not make a doubt about another type's span).
      if (qt >= std::max(kSure, model.spanThreshold(static_cast<PiiType>(t)))) {
        sure[i] |= static_cast<std::uint16_t>(1u << t);
      }
      if (qt >= model.spanThreshold(static_cast<PiiType>(t)) && qt > bestQ) {
        best = t;
        bestQ = qt;
      }
    }
    // A mark standing alone ("—", "&") is in no value and ends the one before it: "[fibromyalgia] — any tips".
    bool word = false;
    for (const char ch : u.word(i)) word = word || (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') ||
                                           static_cast<unsigned char>(ch) >= 0xC0;
    if (best < 0 || !word) {
      close(i);
      continue;
    }
    // A new span where the type changes or the model says "begins" more than "inside".
    if (best != openType || p[1 + 2 * best] > p[2 + 2 * best]) {
      close(i);
      openType = best;
      openStart = i;
    }
  }
  close(u.n);
  spans = joinNumberRuns(u, q, std::min(u.n, kRetypeWords), s0, s1, st, spans);
  shapeModelSpans(u, q, std::min(u.n, kRetypeWords), s0, s1, st, spans);
  // Shaping grows number spans to whole runs, so spans split by a doubtful word inside one run now touch: one value
  // ("child lock ... is [zero zero] [zero zero]").
  spans = joinNumberRuns(u, q, std::min(u.n, kRetypeWords), s0, s1, st, spans);
  // Where a model span touches a cue-based rule's span of its type, the rule's span takes in the model's words:
  // the rules found "Rasmussen's", the model "Hollis" as well; one person, one span.
  const std::size_t rules = c.n;
  for (std::size_t k = 0; k < spans; ++k) {
    if (s0[k] >= s1[k]) continue;  // trimmed away
    bool merged = false;
    for (std::size_t r = 0; r < rules; ++r) {
      Candidate& cand = c.c[r];
      if (cand.priority <= prio::model || cand.priority >= prio::exact || cand.type != static_cast<PiiType>(st[k]) ||
          s0[k] > cand.t1 || cand.t0 > s1[k]) {
        continue;
      }
      merged = true;
      // A date the rules parsed keeps its words: on gen_valid.py's lines the rules' birth dates were never wrong
      // (0 false of 76), and the model's wider spans only moved their ends.
      // The same for a condition or a medicine the rules named: on the second author's tuning lines
      // (bench/nlu/dev_c) the model's wider health spans took in doses and the next words ("[gout] means").
      if (cand.type == PiiType::dateOfBirth || cand.type == PiiType::health) continue;
      if (s1[k] > cand.t1) cand.stemEnd = false;
      cand.t0 = std::min<std::uint16_t>(cand.t0, s0[k]);
      cand.t1 = std::max<std::uint16_t>(cand.t1, s1[k]);
    }
    if (!merged && !exactFormat(static_cast<PiiType>(st[k])) && !namesARuleValue(u, c, rules, s0[k], s1[k])) {
      // A name's span ends before its possessive 's, as the rules' do: "[Rukhsana]'s locker code".
      c.add(s0[k], s1[k], static_cast<PiiType>(st[k]), prio::model,
            st[k] == static_cast<std::int8_t>(PiiType::person) && u.tok[s1[k] - 1u].possessive);
    }
  }
  // A cue-based rule's span keeps its boundaries, but takes the model's type when the model is sure the words are
  // another type and not the rule's ("... that's my social" after nine digits a phone pattern took).
  const std::size_t ruleCount = c.n;
  for (std::size_t k = 0; k < ruleCount; ++k) {
    Candidate& cand = c.c[k];
    if (cand.priority <= prio::model || cand.priority >= prio::exact || cand.t1 > kRetypeWords ||
        cand.type == PiiType::dateOfBirth) {
      continue;
    }
    float own = 0.0f, other[kPiiTypeCount] = {};
    for (std::size_t w = cand.t0; w < cand.t1; ++w) {
      own += q[w][static_cast<std::size_t>(cand.type)];
      for (std::size_t t = 0; t < kPiiTypeCount; ++t) other[t] += q[w][t];
    }
    const float words = static_cast<float>(cand.t1 - cand.t0);
    std::size_t bestOther = 0;
    for (std::size_t t = 1; t < kPiiTypeCount; ++t) {
      if (other[t] > other[bestOther]) bestOther = t;
    }
    if (own / words < kRetypeOwn && other[bestOther] / words >= kRetypeOther &&
        bestOther != static_cast<std::size_t>(cand.type)) {
      cand.type = static_cast<PiiType>(bestOther);
    }
  }
  // Recall first for a drug or illness the lexicon lacks: a word no dictionary or list has, that nothing else
  // claims and the model suspects of being health, is reported as health where health may be said. Not a name
  // before the institution it names ("my lloyds savings account").
  const std::size_t health = static_cast<std::size_t>(PiiType::health);
  const bool mayBeHealth = healthContext(u, c);
  for (std::size_t w = 0; mayBeHealth && w < std::min(u.n, kRetypeWords); ++w) {
    if (q[w][health] < model.suspectThreshold(PiiType::health) || u.tok[w].lex != 0 || u.tok[w].english ||
        u.tok[w].hasDigit || u.isNum(w) || u.stem(w).size() < 5 || c.covered(w, w + 1) ||
        u.anyOf(w + 1, w + 2, {"savings", "checking", "current", "bank", "account", "credit", "card", "insurance",
                               "mortgage", "loan", "pension", "isa", "app", "website", "store", "shop", "password", "wallet",
                               "passcode", "pin", "login", "username", "subscription", "premium", "playlist"}) ||
        (w > 0 && u.anyOf(w - 1, w, {"called", "named"}))) {  // a brand or a network: "my spotify password"
      continue;
    }
    // A word in a secret's description is no drug: "my pin that i use for the [atm] is ...".
    bool secret = false;
    for (std::size_t k = w > 6 ? w - 6 : 0; k < w && !secret; ++k) secret = namesASecret(u, k);
    if (secret) continue;
    bool letters = true;
    for (char ch : u.stem(w)) letters = letters && ((ch >= 'a' && ch <= 'z') || ch == '-');
    if (letters) c.add(w, w + 1, PiiType::health, prio::model);
  }
}

}  // namespace sotto::privacy::detail
