// SPDX-License-Identifier: MIT
// Anonymizer (conversation mapping of PII values to typed placeholders) and the streaming de-anonymizer.
#include "engine/privacy/anonymizer.h"

#include <string.h>  // explicit_bzero

#include <algorithm>

#include "engine/privacy/pii_normalize.h"

namespace sotto::privacy {
namespace {

bool isCont(unsigned char ch) noexcept { return (ch & 0xC0) == 0x80; }

// Byte offset of code point index cp (the classifier's counting: a code point starts at every non-continuation
// byte), or text.size() past the end.
std::size_t byteOfCodePoint(std::string_view text, std::uint32_t cp) noexcept {
  std::uint32_t seen = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (isCont(static_cast<unsigned char>(text[i]))) continue;
    if (seen == cp) return i;
    ++seen;
  }
  return text.size();
}

// Whether span lies within text (its end at most the code point count).
bool spanFits(std::string_view text, const PiiSpan& span) noexcept {
  std::uint32_t count = 0;
  for (char c : text) count += isCont(static_cast<unsigned char>(c)) ? 0 : 1;
  return span.start < span.end && span.end <= count;
}

// Matching key: the classifier's normalized form (NFKC, format characters removed, digits as ASCII, spaces
// collapsed: "５５５\u00A0０１２３" = "555 0123"), then ASCII lowercase, whitespace runs → one space, trimmed.
std::string normalizedKey(std::string_view raw) {
  detail::NormalizedText normalized;
  const bool ok = detail::normalizeForPii(raw, normalized) == detail::NormalizeStatus::ok;
  const std::string_view value =
      (ok && !normalized.identity) ? std::string_view(normalized.bytes, normalized.length) : raw;
  std::string key;
  key.reserve(value.size());
  bool space = false;
  for (char c : value) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f') {
      space = !key.empty();
      continue;
    }
    if (space) key += ' ';
    space = false;
    key += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  }
  return key;
}

void wipe(std::string& s) noexcept {
  if (!s.empty()) explicit_bzero(s.data(), s.size());
  s.clear();
}

bool placeholderChar(char c) noexcept { return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'; }

}  // namespace

ByteRange byteRangeOf(std::string_view text, const PiiSpan& span) noexcept {
  const std::size_t b = byteOfCodePoint(text, span.start);
  const std::size_t e = span.end <= span.start ? b : byteOfCodePoint(text, span.end);
  return ByteRange{b, std::max(b, e)};
}

Anonymizer::Anonymizer() { entries_.reserve(kMaxEntries); }

Anonymizer::~Anonymizer() { reset(); }

void Anonymizer::reset() noexcept {
  for (Entry& e : entries_) {
    wipe(e.key);
    wipe(e.value);
  }
  entries_.clear();
  next_.fill(0);
}

const Anonymizer::Entry* Anonymizer::find(PiiType type, std::string_view key) const noexcept {
  for (const Entry& e : entries_) {
    if (e.type == type && e.key == key) return &e;
  }
  return nullptr;
}

const std::string* Anonymizer::lookup(std::string_view placeholder) const noexcept {
  for (const Entry& e : entries_) {
    if (e.placeholder == placeholder) return &e.value;
  }
  return nullptr;
}

Result<std::string> Anonymizer::anonymize(std::string_view text, const SpanBuffer& spans, PiiTypeMask mask) {
  // First pass: check every span and count the new values, so that a refusal leaves the mapping unchanged.
  std::size_t prevEnd = 0;
  std::vector<std::string> newKeys;  // (type-tagged) keys not yet mapped, to count each once
  for (const PiiSpan& s : spans) {
    const ByteRange r = byteRangeOf(text, s);
    if (!spanFits(text, s) || r.begin < prevEnd || r.begin == r.end) {
      return makeError(Errc::invalid_argument, "anonymizer: span outside the text, empty or out of order");
    }
    prevEnd = r.end;
    if ((mask & piiTypeBit(s.type)) == 0) continue;
    if (r.end - r.begin > kMaxValueBytes) {
      return makeError(Errc::invalid_argument, "anonymizer: a " + std::string(piiTypeName(s.type)) +
                                                   " span is longer than " + std::to_string(kMaxValueBytes) +
                                                   " bytes");
    }
    std::string key = normalizedKey(text.substr(r.begin, r.end - r.begin));
    if (find(s.type, key) != nullptr) continue;
    key.insert(key.begin(), static_cast<char>('A' + static_cast<int>(s.type)));
    if (std::find(newKeys.begin(), newKeys.end(), key) == newKeys.end()) newKeys.push_back(std::move(key));
  }
  const std::size_t fresh = newKeys.size();
  for (std::string& k : newKeys) wipe(k);
  if (entries_.size() + fresh > kMaxEntries) {
    return makeError(Errc::busy, "anonymizer: the conversation already holds " + std::to_string(entries_.size()) +
                                     " personal values (limit " + std::to_string(kMaxEntries) + ")");
  }

  std::string out;
  out.reserve(text.size() + 16 * spans.size());
  std::size_t at = 0;
  for (const PiiSpan& s : spans) {
    if ((mask & piiTypeBit(s.type)) == 0) continue;
    const ByteRange r = byteRangeOf(text, s);
    const std::string_view value = text.substr(r.begin, r.end - r.begin);
    std::string key = normalizedKey(value);
    const Entry* e = find(s.type, key);
    if (e == nullptr) {
      const auto t = static_cast<std::size_t>(s.type);
      std::string placeholder = "[" + std::string(piiTypeName(s.type)) + "_" + std::to_string(++next_[t]) + "]";
      entries_.push_back(Entry{s.type, std::move(key), std::string(value), std::move(placeholder)});
      e = &entries_.back();
    } else {
      wipe(key);
    }
    out.append(text.substr(at, r.begin - at));
    out += e->placeholder;
    at = r.end;
  }
  out.append(text.substr(at));
  return out;
}

const char* spokenOwnPlaceholder(PiiType type) noexcept {
  switch (type) {
    case PiiType::person: return "that person";
    case PiiType::phone: return "your phone number";
    case PiiType::email: return "your email address";
    case PiiType::address: return "your address";
    case PiiType::creditCard: return "your card number";
    case PiiType::iban: return "your bank account number";
    case PiiType::ssn: return "your social security number";
    case PiiType::dateOfBirth: return "your date of birth";
    case PiiType::age: return "your age";
    case PiiType::ipAddress: return "your IP address";
    case PiiType::accountNumber: return "your account number";
    case PiiType::pinOrPassword: return "your PIN";
    case PiiType::health: return "your health details";
    case PiiType::location: return "that place";
    default: return "that private detail";  // a type added later
  }
}

const char* spokenUnknownPlaceholder(PiiType type) noexcept {
  switch (type) {
    case PiiType::person: return "someone";
    case PiiType::phone: return "a phone number";
    case PiiType::email: return "an email address";
    case PiiType::address: return "an address";
    case PiiType::creditCard: return "a card number";
    case PiiType::iban: return "a bank account number";
    case PiiType::ssn: return "a social security number";
    case PiiType::dateOfBirth: return "a date of birth";
    case PiiType::age: return "an age";
    case PiiType::ipAddress: return "an IP address";
    case PiiType::accountNumber: return "an account number";
    case PiiType::pinOrPassword: return "a PIN";
    case PiiType::health: return "a health detail";
    case PiiType::location: return "a place";
    default: return "something";
  }
}

bool placeholderType(std::string_view token, PiiType& type) noexcept {
  if (token.size() < 4 || token.front() != '[' || token.back() != ']') return false;
  const std::string_view inner = token.substr(1, token.size() - 2);
  const std::size_t us = inner.rfind('_');
  if (us == std::string_view::npos || us + 1 == inner.size()) return false;
  for (char c : inner.substr(us + 1))
    if (c < '0' || c > '9') return false;
  const std::string_view name = inner.substr(0, us);
  for (std::size_t t = 0; t < kPiiTypeCount; ++t) {
    if (name == piiTypeName(static_cast<PiiType>(t))) {
      type = static_cast<PiiType>(t);
      return true;
    }
  }
  return false;
}

Deanonymizer::Deanonymizer(const Anonymizer& mapping, std::string_view sent, PiiTypeMask neverRestore)
    : mapping_(mapping), neverRestore_(neverRestore) {
  // The placeholders this request carried: bracketed tokens of `sent` that the mapping knows.
  for (std::size_t open = sent.find('['); open != std::string_view::npos; open = sent.find('[', open + 1)) {
    const std::size_t close = sent.find(']', open);
    if (close == std::string_view::npos) break;
    const std::string_view token = sent.substr(open, close - open + 1);
    if (token.size() > Anonymizer::kMaxPlaceholderBytes || mapping_.lookup(token) == nullptr) continue;
    if (std::find(sent_.begin(), sent_.end(), token) == sent_.end()) sent_.emplace_back(token);
  }
}

void Deanonymizer::resolve(std::string_view token, std::string& out) const {
  PiiType type{};
  const bool shaped = placeholderType(token, type);
  if (std::find(sent_.begin(), sent_.end(), token) != sent_.end()) {
    const std::string* value = mapping_.lookup(token);
    if (value != nullptr && shaped && (neverRestore_ & piiTypeBit(type)) == 0) {
      out += *value;
    } else {
      out += shaped ? spokenOwnPlaceholder(type) : "that private detail";
    }
    return;
  }
  if (shaped) {
    out += spokenUnknownPlaceholder(type);  // not ours in this request: never filled in, never read as brackets
  } else {
    out.append(token);  // ordinary bracket text
  }
}

void Deanonymizer::flushPending(std::string& out) {
  out.append(pending_.data(), pendingLen_);
  pendingLen_ = 0;
}

void Deanonymizer::feed(std::string_view chunk, std::string& out) {
  std::size_t i = 0;
  while (i < chunk.size()) {
    if (pendingLen_ == 0) {
      // Fast path: copy everything up to the next '[' at once.
      const std::size_t open = chunk.find('[', i);
      const std::size_t stop = open == std::string_view::npos ? chunk.size() : open;
      out.append(chunk.substr(i, stop - i));
      if (open == std::string_view::npos) return;
      pending_[pendingLen_++] = '[';
      i = open + 1;
      continue;
    }
    const char c = chunk[i];
    if (c == ']') {
      if (pendingLen_ + 1 <= pending_.size()) {
        pending_[pendingLen_++] = ']';
        resolve(std::string_view(pending_.data(), pendingLen_), out);
        pendingLen_ = 0;
      } else {
        flushPending(out);
        out += c;
      }
      ++i;
    } else if (c == '[') {
      flushPending(out);  // the earlier '[' was not a placeholder; this one may be
      pending_[pendingLen_++] = '[';
      ++i;
    } else if (placeholderChar(c) && pendingLen_ + 2 <= pending_.size()) {  // room for c and the closing ']'
      pending_[pendingLen_++] = c;
      ++i;
    } else {
      flushPending(out);  // cannot be one of ours: pass through as it came, c included (next loop round)
    }
  }
}

void Deanonymizer::finish(std::string& out) { flushPending(out); }

}  // namespace sotto::privacy
