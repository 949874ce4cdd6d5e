// SPDX-License-Identifier: MIT
// PII classifier: finds typed personal-data spans in transcripts and typed text, allocation-free per call.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>

#include "sotto/hal/result.h"

namespace sotto::privacy {

// The types are the trained model's tag set (its file format): new shapes map onto them. SSN covers the national
// identity numbers of the common English-speaking countries (US SSN, UK NINO, Canadian SIN, Australian TFN and
// Medicare); ACCOUNT_NUMBER also driving licence, employee and passport numbers; PIN_OR_PASSWORD every secret
// (PINs, passwords, API keys and tokens, long random strings, seed phrases); ADDRESS postcodes standing alone.
enum class PiiType : std::uint8_t {
  person,
  phone,
  email,
  address,
  creditCard,
  iban,
  ssn,
  dateOfBirth,
  age,
  ipAddress,
  accountNumber,
  pinOrPassword,
  health,
  location,
};
inline constexpr std::size_t kPiiTypeCount = 14;

// "PERSON", "CREDIT_CARD", ... (the data README's labels). Any thread.
const char* piiTypeName(PiiType type) noexcept;

// One span: Unicode code point offsets into the classified text (Python str offsets), end exclusive.
struct PiiSpan {
  std::uint32_t start = 0;
  std::uint32_t end = 0;
  PiiType type = PiiType::person;
};

// Caller-owned, fixed-capacity result buffer: classify() writes into it without allocating. Spans come out
// sorted and non-overlapping. Threads: a plain value owned by one thread at a time.
class SpanBuffer {
 public:
  static constexpr std::size_t kCapacity = 64;

  std::size_t size() const noexcept { return size_; }
  bool empty() const noexcept { return size_ == 0; }
  const PiiSpan& operator[](std::size_t i) const noexcept { return spans_[i]; }
  const PiiSpan* begin() const noexcept { return spans_.data(); }
  const PiiSpan* end() const noexcept { return spans_.data() + size_; }
  // More spans were found than fit: the caller must treat the utterance as wholly sensitive.
  bool overflowed() const noexcept { return overflowed_; }
  // Types the trained model finds possible (at its low, recall-first threshold) in words no reported span covers,
  // which would leave unredacted, or sure of (at its span threshold) under a span of another type: bit
  // 1 << PiiType. Privacy fails closed on these (policy.h).
  std::uint32_t suspected() const noexcept { return suspected_; }
  void addSuspected(std::uint32_t types) noexcept { suspected_ |= types; }
  // Where those suspicions lie: each run of words suspected of one type, as a span (the first kSuspectCapacity;
  // suspected() holds every type all the same). The value private mode keeps on the device at the recall-first
  // threshold, for reports and tests; no reported span is made of them.
  static constexpr std::size_t kSuspectCapacity = 16;
  std::size_t suspectCount() const noexcept { return suspectCount_; }
  const PiiSpan& suspect(std::size_t i) const noexcept { return suspects_[i]; }
  void pushSuspect(const PiiSpan& span) noexcept {
    if (suspectCount_ < kSuspectCapacity) suspects_[suspectCount_++] = span;
  }

  void clear() noexcept {
    size_ = 0;
    overflowed_ = false;
    suspected_ = 0;
    suspectCount_ = 0;
  }
  // Returns false (and marks overflowed) when full.
  bool push(const PiiSpan& span) noexcept {
    if (size_ == kCapacity) {
      overflowed_ = true;
      return false;
    }
    spans_[size_++] = span;
    return true;
  }

 private:
  std::array<PiiSpan, kCapacity> spans_{};
  std::size_t size_ = 0;
  bool overflowed_ = false;
  std::uint32_t suspected_ = 0;
  std::array<PiiSpan, kSuspectCapacity> suspects_{};
  std::size_t suspectCount_ = 0;
};

class PiiLexicon;
class PiiModel;

// Rule- and lexicon-based recognizer set (structural: checksums and digit patterns; context-cued: age, birth date,
// account, secrets, health, places; people's names with a public-figure guard), optionally with the trained
// tagger behind it for what the rules miss.
//
// Threads: create() on a control thread (it builds every table, allocating). classify() is const, touches only
// the caller's buffer and its own stack (about 70 KiB with the model), never allocates, locks or blocks: any
// number of threads may call it at once, including the brain thread.
class PiiClassifier {
 public:
  // Longest input classify() accepts; longer text is refused rather than half-checked (the router then keeps the
  // utterance on the device).
  static constexpr std::size_t kMaxTextBytes = 4096;
  static constexpr std::size_t kMaxTokens = 512;

  static Result<std::unique_ptr<PiiClassifier>> create();
  // With the trained tagger (pii_model.h) behind the rules: its spans are added where no rule found one.
  static Result<std::unique_ptr<PiiClassifier>> create(std::unique_ptr<PiiModel> model);
  const PiiModel* model() const noexcept { return model_.get(); }
  ~PiiClassifier();
  PiiClassifier(const PiiClassifier&) = delete;
  PiiClassifier& operator=(const PiiClassifier&) = delete;

  // text: UTF-8. The recognizers read it normalized (NFKC, format characters removed, decimal digits folded to
  // ASCII, spaces collapsed: pii_normalize.h); the spans are code point offsets into text as given. Clears out,
  // then fills it. Errors: invalid_argument when text exceeds kMaxTextBytes or kMaxTokens words, or is not
  // well-formed UTF-8. A refused text was not checked: callers treat all of it as private (fail closed).
  Status classify(std::string_view text, SpanBuffer& out) const noexcept;

  // Why classify() refused text ("over 4096 bytes", "not valid UTF-8", "over 512 words"), for messages (sotto pii
  // says the refused line is private); nullptr when none of these applies. Any thread; about 40 KiB of stack, no
  // allocation.
  static const char* refusal(std::string_view text) noexcept;

 private:
  PiiClassifier(std::unique_ptr<PiiLexicon> lexicon, std::unique_ptr<PiiModel> model) noexcept;
  std::unique_ptr<PiiLexicon> lexicon_;
  std::unique_ptr<PiiModel> model_;
};

}  // namespace sotto::privacy
