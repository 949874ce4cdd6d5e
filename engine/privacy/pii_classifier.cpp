// SPDX-License-Identifier: MIT
// PiiClassifier: tokenizes, runs the recognizer families, resolves overlaps by priority, emits code point spans.
#include <algorithm>


#include "engine/privacy/pii.h"
#include "engine/privacy/pii_lexicon.h"
#include "engine/privacy/pii_model.h"
#include "engine/privacy/pii_normalize.h"
#include "engine/privacy/pii_recognizers.h"
#include "engine/privacy/pii_tagger.h"
#include "engine/privacy/pii_text.h"

namespace sotto::privacy {

const char* piiTypeName(PiiType type) noexcept {
  switch (type) {
    case PiiType::person: return "PERSON";
    case PiiType::phone: return "PHONE";
    case PiiType::email: return "EMAIL";
    case PiiType::address: return "ADDRESS";
    case PiiType::creditCard: return "CREDIT_CARD";
    case PiiType::iban: return "IBAN";
    case PiiType::ssn: return "SSN";
    case PiiType::dateOfBirth: return "DATE_OF_BIRTH";
    case PiiType::age: return "AGE";
    case PiiType::ipAddress: return "IP_ADDRESS";
    case PiiType::accountNumber: return "ACCOUNT_NUMBER";
    case PiiType::pinOrPassword: return "PIN_OR_PASSWORD";
    case PiiType::health: return "HEALTH";
    case PiiType::location: return "LOCATION";
  }
  return "UNKNOWN";
}

PiiClassifier::PiiClassifier(std::unique_ptr<PiiLexicon> lexicon, std::unique_ptr<PiiModel> model) noexcept
    : lexicon_(std::move(lexicon)), model_(std::move(model)) {}
PiiClassifier::~PiiClassifier() = default;

Result<std::unique_ptr<PiiClassifier>> PiiClassifier::create() { return create(nullptr); }

Result<std::unique_ptr<PiiClassifier>> PiiClassifier::create(std::unique_ptr<PiiModel> model) {
  auto lexicon = std::make_unique<PiiLexicon>();
  if (lexicon->size() == 0) return makeError(Errc::internal, "pii: empty lexicon");
  return std::unique_ptr<PiiClassifier>(new PiiClassifier(std::move(lexicon), std::move(model)));
}

namespace detail {
void findAll(const Utterance& u, Candidates& c) noexcept {
  findStructured(u, c);
  findAddresses(u, c);
  findContextual(u, c);
  findIdentityNumbers(u, c);
  findSecretShapes(u, c);
  findPeople(u, c);
  findPersonal(u, c);
}
}  // namespace detail

const char* PiiClassifier::refusal(std::string_view text) noexcept {
  using namespace detail;
  static_assert(kMaxTextBytes == 4096 && kMaxTokens == 512, "the messages below name the limits");
  if (text.size() > kMaxTextBytes) return "over 4096 bytes";
  NormalizedText normalized;
  switch (normalizeForPii(text, normalized)) {
    case NormalizeStatus::ok: break;
    case NormalizeStatus::tooLong: return "over 4096 bytes once normalized";
    case NormalizeStatus::invalidUtf8: return "not valid UTF-8";
  }
  const std::string_view view = normalized.identity ? text : std::string_view(normalized.bytes, normalized.length);
  std::size_t words = 0;
  bool inWord = false;
  for (const char ch : view) {
    const bool space = ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\f';
    words += (!space && !inWord) ? 1 : 0;
    inWord = !space;
  }
  return words > kMaxTokens ? "over 512 words" : nullptr;
}

namespace {

bool singleLetters(const detail::Utterance& u, std::size_t i) noexcept {
  if (detail::isLetterToken(u, i)) return true;
  // "W-A-N-G", "s.m.i.t.h": one token of letters joined by hyphens or dots.
  const std::string_view w = u.word(i);
  if (w.size() < 3) return false;
  for (std::size_t k = 0; k < w.size(); ++k) {
    const bool letter = w[k] >= 'a' && w[k] <= 'z';
    if ((k % 2 == 0) != letter || (!letter && w[k] != '-' && w[k] != '.')) return false;
  }
  return true;
}

}  // namespace

namespace detail {

// A person's span [t0, t1) that ends with its own spelling ("rossi r o s s i", "etienne spelled e t i e n n e",
// "Wang (W-A-N-G)"): where the name ends and the spelling starts.
bool spelledTail(const Utterance& u, std::size_t t0, std::size_t t1, std::size_t& nameEnd,
                 std::size_t& spellingStart) noexcept {
  if (t1 - t0 < 2 || singleLetters(u, t0)) return false;
  std::size_t k = t1;
  while (k > t0 && singleLetters(u, k - 1)) --k;
  if (k == t1 || k == t0) return false;
  // Three letters at least, or one joined token: "[jo] j o" is not enough to tell.
  if (t1 - k < 3 && !(t1 - k == 1 && u.word(k).size() >= 3)) return false;
  spellingStart = k;
  nameEnd = u.anyOf(k - 1, k, {"spelled", "spelt", "spelling", "that's", "thats", "as", "like"}) ? k - 1 : k;
  return nameEnd > t0;
}

// The trained model's one-word names that read as something else (its own spans only; the rules' stand): an
// ordinary English word no list has as a name ("send [flowers] there", "[printer] is on ..."); a function word
// before a pronoun ("[can] you update it"); a word that is also a name, first in a sentence, before what it acts on
// ("[mark] this as done", "[jack] up a car"); a word that is also a name in a general question about things ("what
// is [amber] made of"). Returns the count kept.
std::size_t dropUnlikelyModelNames(const Utterance& u, Candidate* kept, std::size_t n) noexcept {
  std::size_t w = 0;
  for (std::size_t k = 0; k < n; ++k) {
    const Candidate& c = kept[k];
    bool drop = false;
    if (c.type == PiiType::person && c.priority == prio::model && c.t1 - c.t0 == 1) {
      const std::size_t i = c.t0;
      const Token& t = u.tok[i];
      const bool listed = (t.lex & (lex::firstName | lex::surname)) != 0;
      const bool typedAsName = !u.caseless && t.capital && !t.sentenceStart;
      if (t.english && !listed && !typedAsName) drop = true;
      if ((t.lex & lex::function) && u.anyOf(i + 1, i + 2, {"you", "i", "we", "they", "he", "she", "it", "not"})) {
        drop = true;
      }
      const bool opening = i == 0 || u.tok[i - 1].stopAfter ||
                           (i >= 2 && u.is(i - 2, "can") && u.is(i - 1, "you")) || u.anyOf(i - 1, i, {"please"});
      if (opening && (t.lex & lex::common) && !t.possessive && !t.commaAfter &&
          u.anyOf(i + 1, i + 2, {"this", "that", "it", "all", "my", "the", "a", "an", "up", "as", "these", "those",
                                 "them", "everything", "off", "down", "me", "out", "in"})) {
        drop = true;
      }
      if ((t.lex & lex::common) && generalQuestion(u) && !u.anyOf(0, u.n, {"my", "me", "i", "i'm", "our"}) &&
          !t.possessive && !typedAsName) {
        drop = true;
      }
    }
    if (!drop) kept[w++] = c;
  }
  return w;
}

}  // namespace detail

Status PiiClassifier::classify(std::string_view text, SpanBuffer& out) const noexcept {
  using namespace detail;
  out.clear();
  // Scratch on this thread's stack: classify() stays reentrant and allocation-free.
  // The recognizers read the normalized text (pii_normalize.h); spans are mapped back to the caller's text.
  NormalizedText normalized;
  if (normalizeForPii(text, normalized) != NormalizeStatus::ok) {
    return Error{Errc::invalid_argument, {}};  // empty message: building a string would allocate
  }
  const std::string_view view =
      normalized.identity ? text : std::string_view(normalized.bytes, normalized.length);
  Utterance u;
  if (!tokenize(view, *lexicon_, u)) {
    return Error{Errc::invalid_argument, {}};
  }
  Candidates cands;
  findAll(u, cands);
  std::uint16_t suspects[PiiClassifier::kMaxTokens];
  std::uint16_t sure[PiiClassifier::kMaxTokens];
  if (model_) {
    CandidateMarks marks;
    markCandidates(cands, u.n, marks);
    addModelCandidates(*model_, u, marks, cands, suspects, sure);
  }

  settleNumberTypes(u, cands);
  // Highest priority first, then the longer span; accepted spans never overlap.
  Candidate* first = cands.c;
  Candidate* last = cands.c + cands.n;
  std::sort(first, last, [](const Candidate& a, const Candidate& b) {
    if (a.priority != b.priority) return a.priority > b.priority;
    if (a.t1 - a.t0 != b.t1 - b.t0) return a.t1 - a.t0 > b.t1 - b.t0;
    return a.t0 < b.t0;
  });
  Candidate kept[Candidates::kCapacity];
  std::size_t nKept = 0;
  for (Candidate* p = first; p != last; ++p) {
    bool clash = false;
    for (std::size_t k = 0; k < nKept && !clash; ++k) clash = p->t0 < kept[k].t1 && kept[k].t0 < p->t1;
    if (!clash) kept[nKept++] = *p;
  }
  std::sort(kept, kept + nKept, [](const Candidate& a, const Candidate& b) { return a.t0 < b.t0; });
  nKept = dropUnlikelyModelNames(u, kept, nKept);
  const auto emit = [&](std::size_t t0, std::size_t t1, bool stemEnd, PiiType type) {
    const Token& a = u.tok[t0];
    const Token& b = u.tok[t1 - 1];
    std::uint32_t start = 0, end = 0;
    normalized.original(a.c0, stemEnd ? b.stemC1 : b.c1, start, end);
    out.push(PiiSpan{start, end, type});
  };
  for (std::size_t k = 0; k < nKept; ++k) {
    // A name and its spelling are two values: "[rossi] [r o s s i]", "[etienne] spelled [e t i e n n e]".
    if (kept[k].type == PiiType::person) {
      std::size_t nameEnd = 0, spellingStart = 0;
      if (spelledTail(u, kept[k].t0, kept[k].t1, nameEnd, spellingStart)) {
        emit(kept[k].t0, nameEnd, false, PiiType::person);
        emit(spellingStart, kept[k].t1, kept[k].stemEnd, PiiType::person);
        continue;
      }
    }
    // A name ends before its possessive 's, however its span was put together ("[Niamh Church]'s number").
    const bool stemEnd = kept[k].stemEnd || (kept[k].type == PiiType::person && u.tok[kept[k].t1 - 1].possessive);
    emit(kept[k].t0, kept[k].t1, stemEnd, kept[k].type);
  }
  // Suspicion: at the low threshold where no reported span covers the word (it would leave as it is); under a
  // span of another type only where the model would report its own type there (the type, not the value, is in
  // doubt: a phone pattern over nine digits "that is my social").
  if (model_) {
    std::uint32_t suspected = 0;
    std::uint32_t open = 0;  // types whose suspected run is still open at word w
    std::size_t runStart[kPiiTypeCount] = {};
    std::size_t k = 0;
    auto close = [&](std::uint32_t types, std::size_t end) {
      for (std::size_t t = 0; t < kPiiTypeCount; ++t) {
        if ((types & (1u << t)) == 0) continue;
        std::uint32_t start = 0, stop = 0;
        normalized.original(u.tok[runStart[t]].c0, u.tok[end - 1].c1, start, stop);
        out.pushSuspect(PiiSpan{start, stop, static_cast<PiiType>(t)});
      }
    };
    for (std::size_t w = 0; w < u.n; ++w) {
      while (k < nKept && kept[k].t1 <= w) ++k;
      const bool covered = k < nKept && kept[k].t0 <= w;
      const std::uint32_t here = covered ? (sure[w] & ~(1u << static_cast<unsigned>(kept[k].type))) : suspects[w];
      suspected |= here;
      close(open & ~here, w);
      for (std::size_t t = 0; t < kPiiTypeCount; ++t) {
        if ((here & ~open & (1u << t)) != 0) runStart[t] = w;
      }
      open = here;
    }
    close(open, u.n);
    out.addSuspected(suspected);
  }
  return {};
}

}  // namespace sotto::privacy
