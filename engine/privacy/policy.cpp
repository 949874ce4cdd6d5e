// SPDX-License-Identifier: MIT
// Per-type policy table and the escalation decision (see policy.h for the rules).
#include "engine/privacy/policy.h"

#include <algorithm>
#include <array>

namespace sotto::privacy {

const char* piiPolicyName(PiiPolicy policy) noexcept {
  switch (policy) {
    case PiiPolicy::localOnly: return "local-only";
    case PiiPolicy::redact: return "redact";
    case PiiPolicy::allow: return "allow";
  }
  return "unknown";
}

std::optional<PiiPolicy> parsePiiPolicy(std::string_view name) noexcept {
  if (name == "local-only") return PiiPolicy::localOnly;
  if (name == "redact") return PiiPolicy::redact;
  if (name == "allow") return PiiPolicy::allow;
  return std::nullopt;
}

PolicyTable PolicyTable::defaults() noexcept {
  PolicyTable t;
  t.policy_.fill(PiiPolicy::redact);
  for (PiiType type : {PiiType::pinOrPassword, PiiType::health, PiiType::creditCard, PiiType::iban, PiiType::ssn,
                       PiiType::accountNumber}) {
    t.set(type, PiiPolicy::localOnly);
  }
  return t;
}

Result<PolicyTable> PolicyTable::fromNames(std::span<const std::string> names) {
  if (names.size() != kPiiTypeCount) {
    return makeError(Errc::invalid_argument, "privacy policy: expected " + std::to_string(kPiiTypeCount) +
                                                 " per-type policies, got " + std::to_string(names.size()));
  }
  PolicyTable t = defaults();
  for (std::size_t i = 0; i < names.size(); ++i) {
    const auto type = static_cast<PiiType>(i);
    const auto p = parsePiiPolicy(names[i]);
    if (!p) {
      return makeError(Errc::invalid_argument, std::string("privacy policy for ") + piiTypeName(type) + ": '" +
                                                   names[i] + "' is not local-only, redact or allow");
    }
    t.set(type, *p);
  }
  return t;
}

const char* escalationReasonName(EscalationReason reason) noexcept {
  switch (reason) {
    case EscalationReason::noPii: return "no-pii";
    case EscalationReason::anonymized: return "anonymized";
    case EscalationReason::allowedPii: return "allowed-pii";
    case EscalationReason::offline: return "offline";
    case EscalationReason::localOnlyPii: return "local-only-pii";
    case EscalationReason::unclassified: return "unclassified";
    case EscalationReason::anonymizerFull: return "anonymizer-full";
  }
  return "unknown";
}

EscalationDecision decideEscalation(PrivacyMode mode, std::string_view text, bool classified, const SpanBuffer& spans,
                                    const PolicyTable& policy, Anonymizer& anonymizer) {
  EscalationDecision d;
  if (mode == PrivacyMode::offline) {
    d.reason = EscalationReason::offline;
    return d;
  }
  if (!classified || spans.overflowed()) {
    d.reason = EscalationReason::unclassified;
    return d;
  }
  // Fail closed: a local-only type the model finds possible in words no span covers would leave unredacted; it
  // keeps the request on the device in private and standard mode alike.
  for (std::size_t t = 0; t < kPiiTypeCount; ++t) {
    const auto type = static_cast<PiiType>(t);
    if ((spans.suspected() & piiTypeBit(type)) != 0 && policy.get(type) == PiiPolicy::localOnly) {
      d.reason = EscalationReason::localOnlyPii;
      d.blockingType = type;
      return d;
    }
  }
  // Words the model suspects of a type that may leave redacted, where no span lies ("did [marguerite] call"): they
  // leave as placeholders too, so a name the spans missed is not sent as it is (issue 36: names in ordinary
  // sentences reached the cloud in private mode).
  SpanBuffer withSuspects;
  const SpanBuffer* redact = &spans;
  if (spans.suspectCount() > 0) {
    // The suspected runs by where they start (they are recorded as each type's run ends).
    std::array<PiiSpan, SpanBuffer::kSuspectCapacity> suspects{};
    for (std::size_t i = 0; i < spans.suspectCount(); ++i) suspects[i] = spans.suspect(i);
    std::sort(suspects.begin(), suspects.begin() + static_cast<std::ptrdiff_t>(spans.suspectCount()),
              [](const PiiSpan& a, const PiiSpan& b) { return a.start < b.start; });
    std::size_t k = 0;
    auto pushSuspectsBefore = [&](std::uint32_t limit) {
      for (; k < spans.suspectCount() && suspects[k].start < limit; ++k) {
        const PiiSpan& x = suspects[k];
        bool overlaps = false;
        for (const PiiSpan& s : spans) overlaps |= x.start < s.end && s.start < x.end;
        if (!overlaps && policy.get(x.type) == PiiPolicy::redact && x.end > x.start &&
            (withSuspects.empty() || withSuspects[withSuspects.size() - 1].end <= x.start)) {
          withSuspects.push(x);
        }
      }
    };
    for (const PiiSpan& s : spans) {
      pushSuspectsBefore(s.start);
      if (withSuspects.empty() || withSuspects[withSuspects.size() - 1].end <= s.start) withSuspects.push(s);
    }
    pushSuspectsBefore(UINT32_MAX);
    if (withSuspects.overflowed()) {
      d.reason = EscalationReason::unclassified;
      return d;
    }
    redact = &withSuspects;
  }
  PiiTypeMask replace = 0;
  for (const PiiSpan& s : *redact) {
    switch (policy.get(s.type)) {
      case PiiPolicy::localOnly:
        if (mode == PrivacyMode::private_) {
          d.reason = EscalationReason::localOnlyPii;
          d.blockingType = s.type;
          return d;
        }
        replace |= piiTypeBit(s.type);
        ++d.replaced;
        break;
      case PiiPolicy::redact:
        replace |= piiTypeBit(s.type);
        ++d.replaced;
        break;
      case PiiPolicy::allow:
        ++d.allowed;
        break;
    }
  }
  auto anonymized = anonymizer.anonymize(text, *redact, replace);
  if (!anonymized) {
    d.replaced = d.allowed = 0;
    const bool full = anonymized.error().code == Errc::busy;
    d.reason = full ? EscalationReason::anonymizerFull : EscalationReason::unclassified;
    return d;
  }
  d.mayEscalate = true;
  d.reason = d.replaced > 0   ? EscalationReason::anonymized
             : d.allowed > 0 ? EscalationReason::allowedPii
                             : EscalationReason::noPii;
  d.text = std::move(anonymized).value();
  return d;
}

}  // namespace sotto::privacy
