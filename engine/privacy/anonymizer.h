// SPDX-License-Identifier: MIT
// Anonymizer: PII spans → typed placeholders ([PERSON_1], [PHONE_2]) consistent within a conversation, and the
// streaming de-anonymizer that restores them in the cloud's answer, placeholders split across chunks included.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/privacy/pii.h"
#include "sotto/hal/result.h"

namespace sotto::privacy {

// Which types to replace: bit (1 << PiiType). kAllPiiTypes replaces every span.
using PiiTypeMask = std::uint32_t;
inline constexpr PiiTypeMask kAllPiiTypes = (1u << kPiiTypeCount) - 1;
constexpr PiiTypeMask piiTypeBit(PiiType type) { return 1u << static_cast<unsigned>(type); }

// UTF-8 byte range of the code point range [start, end) of text, counting code points like the classifier
// (every byte that is not a continuation byte starts one). Offsets past the end clamp to text.size().
struct ByteRange {
  std::size_t begin = 0, end = 0;
};
ByteRange byteRangeOf(std::string_view text, const PiiSpan& span) noexcept;

// The mapping of one conversation: each distinct (type, value) gets the next number of its type. Values compare
// in the classifier's normalized form (pii_normalize.h), ASCII-case-insensitively with runs of spaces collapsed
// ("John Smith" = "john  smith", "５５５\u00A0０１２３" = "555 0123"), so a value typed and spoken, or written in
// look-alike characters, maps to one placeholder. The mapping lives only in this object's memory (never logged, persisted or
// sent); reset() forgets it, and the destructor wipes the values.
//
// Threads: one conversation = one thread (the brain thread). A Deanonymizer reads the mapping: do not call
// anonymize() while a Deanonymizer of the same Anonymizer runs on another thread.
class Anonymizer {
 public:
  static constexpr std::size_t kMaxEntries = 256;       // distinct values per conversation (bounded memory)
  static constexpr std::size_t kMaxValueBytes = 512;    // longer spans are refused (classifier spans are short)
  static constexpr std::size_t kMaxPlaceholderBytes = 24;  // "[DATE_OF_BIRTH_256]" and any [X_n] we make fit

  Anonymizer();
  ~Anonymizer();
  Anonymizer(const Anonymizer&) = delete;
  Anonymizer& operator=(const Anonymizer&) = delete;

  // text with every span whose type is in mask replaced by its placeholder; other text unchanged. spans: sorted,
  // non-overlapping, code point offsets (the classifier's SpanBuffer). Errors (and the mapping unchanged):
  // busy when new values would exceed kMaxEntries; invalid_argument for a span beyond the text, unsorted spans or
  // a value longer than kMaxValueBytes. Allocates; never blocks.
  Result<std::string> anonymize(std::string_view text, const SpanBuffer& spans, PiiTypeMask mask = kAllPiiTypes);

  // The original value of a placeholder ("[PHONE_1]" with brackets), or nullptr when this conversation has none.
  const std::string* lookup(std::string_view placeholder) const noexcept;

  std::size_t size() const noexcept { return entries_.size(); }
  // New conversation: forgets (and wipes) every value; numbering starts again at 1.
  void reset() noexcept;

 private:
  struct Entry {
    PiiType type;
    std::string key;          // normalized value (matching)
    std::string value;        // as first seen (restoring)
    std::string placeholder;  // "[PERSON_1]"
  };
  const Entry* find(PiiType type, std::string_view key) const noexcept;
  std::vector<Entry> entries_;
  std::array<std::uint32_t, kPiiTypeCount> next_{};
};

// How a placeholder is spoken when it is not restored (Deanonymizer): one of this request's placeholders of a type
// that is never re-inserted ("your PIN", "your card number") and a placeholder this request did not send
// ("someone", "a phone number"). Any thread.
const char* spokenOwnPlaceholder(PiiType type) noexcept;
const char* spokenUnknownPlaceholder(PiiType type) noexcept;
// The type of a placeholder-shaped token "[PERSON_9]" (a type name, '_', digits, brackets), or false. Any thread.
bool placeholderType(std::string_view token, PiiType& type) noexcept;

// Restores placeholders in a streamed answer, trusting the answer with nothing:
//  - only the placeholders that occur in `sent` (exactly what this request sent) are restored to their values;
//  - of those, types in `neverRestore` (the local-only ones) are spoken as spokenOwnPlaceholder(): the answer says
//    "your PIN", never the digits, in every privacy mode;
//  - any other placeholder-shaped token ("[PERSON_9]", or one from an earlier turn) is spoken as
//    spokenUnknownPlaceholder() ("someone"), never read out as brackets nor filled from the conversation;
//  - other bracket text passes through unchanged ("[see above]").
// Text outside brackets passes through at once; a '[' holds output back until the bracket closes or can no
// longer be a placeholder (a character outside [A-Z0-9_], or longer than kMaxPlaceholderBytes): so "[PHO" + "NE_1]"
// becomes the phone number.
//
// Threads: the thread that reads the answer stream; see Anonymizer for the rule on the mapping. Allocation only
// when out grows (and at construction).
class Deanonymizer {
 public:
  Deanonymizer(const Anonymizer& mapping, std::string_view sent, PiiTypeMask neverRestore = 0);
  // Appends the restored text of chunk to out.
  void feed(std::string_view chunk, std::string& out);
  // End of the stream: appends anything held back, unchanged.
  void finish(std::string& out);

 private:
  void flushPending(std::string& out);
  void resolve(std::string_view token, std::string& out) const;  // a whole "[...]" token
  const Anonymizer& mapping_;
  std::vector<std::string> sent_;  // this request's placeholders (known to the mapping)
  PiiTypeMask neverRestore_;
  std::array<char, Anonymizer::kMaxPlaceholderBytes> pending_{};
  std::size_t pendingLen_ = 0;
};

}  // namespace sotto::privacy
