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
  for (std::size_t k = 0; k < nKept; ++k) {
    const Token& a = u.tok[kept[k].t0];
    const Token& b = u.tok[kept[k].t1 - 1];
    std::uint32_t start = 0, end = 0;
    normalized.original(a.c0, kept[k].stemEnd ? b.stemC1 : b.c1, start, end);
    out.push(PiiSpan{start, end, kept[k].type});
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
