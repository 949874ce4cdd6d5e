// SPDX-License-Identifier: MIT
// Privacy mode (runtime-switchable), per-PII-type policy and the escalation decision: what may leave the device.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "engine/privacy/anonymizer.h"
#include "engine/privacy/mode.h"
#include "engine/privacy/pii.h"
#include "sotto/hal/result.h"

namespace sotto::privacy {

// The current privacy mode. get(): any thread, including real-time ones (one lock-free atomic load). set(): the
// control or brain thread (privacy intents, control API, mute switch); never blocks. A request already decided
// under the previous mode is not recalled by set(): the caller cancels in-flight cloud streams when it switches
// to offline.
class PrivacyModeHolder {
 public:
  explicit PrivacyModeHolder(PrivacyMode initial = PrivacyMode::private_) noexcept : mode_(initial) {}
  PrivacyMode get() const noexcept { return mode_.load(std::memory_order_acquire); }
  // Returns the previous mode.
  PrivacyMode set(PrivacyMode mode) noexcept { return mode_.exchange(mode, std::memory_order_acq_rel); }

 private:
  std::atomic<PrivacyMode> mode_;
  static_assert(std::atomic<PrivacyMode>::is_always_lock_free);
};

// What may happen to a span of one PII type when a request escalates.
enum class PiiPolicy : std::uint8_t {
  localOnly,  // "local-only": private mode never escalates an utterance containing it; standard mode sends it
              // only as a placeholder. The value itself never leaves the device in any mode.
  redact,     // "redact": escalates as a placeholder ([PHONE_1]).
  allow,      // "allow": escalates verbatim (and is still written to the audit log like every sent byte).
};
const char* piiPolicyName(PiiPolicy policy) noexcept;  // "local-only", "redact", "allow"
std::optional<PiiPolicy> parsePiiPolicy(std::string_view name) noexcept;

// One policy per PiiType. Defaults (documented in the settings reference, privacy.policy.*):
//   local-only: PIN_OR_PASSWORD, HEALTH, CREDIT_CARD, IBAN, SSN, ACCOUNT_NUMBER (secrets, health, and identifiers
//               that alone give access to money or identity: even a placeholder reveals that one was said, and
//               there is no good reason to ask a cloud model about them);
//   redact:     every other type (PERSON, PHONE, EMAIL, ADDRESS, DATE_OF_BIRTH, AGE, IP_ADDRESS, LOCATION);
//   allow:      none.
// Plain value; read-only while shared between threads.
class PolicyTable {
 public:
  static PolicyTable defaults() noexcept;
  // names: kPiiTypeCount spellings ("local-only" | "redact" | "allow") in PiiType order (the Config's
  // piiPolicy array). Errors: invalid_argument naming the type and the bad value.
  static Result<PolicyTable> fromNames(std::span<const std::string> names);

  PiiPolicy get(PiiType type) const noexcept { return policy_[static_cast<std::size_t>(type)]; }
  void set(PiiType type, PiiPolicy policy) noexcept { policy_[static_cast<std::size_t>(type)] = policy; }

 private:
  std::array<PiiPolicy, kPiiTypeCount> policy_{};
};

enum class EscalationReason : std::uint8_t {
  noPii,           // may escalate: nothing personal was found, text unchanged
  anonymized,      // may escalate: every span that is not `allow` was replaced by its placeholder
  allowedPii,      // may escalate: PII was found, but only of types whose policy is `allow` (sent verbatim)
  offline,         // refused: offline mode never opens a connection
  localOnlyPii,    // refused (private mode): a local-only type was found (EscalationDecision::blockingType)
  unclassified,    // refused: the classifier failed or overflowed, so the text cannot be anonymized safely
  anonymizerFull,  // refused: the conversation holds too many distinct PII values (Anonymizer::kMaxEntries)
};
// "no-pii", "anonymized", "allowed-pii", "offline", "local-only-pii", "unclassified", "anonymizer-full": for the
// router's log line and the audit record.
const char* escalationReasonName(EscalationReason reason) noexcept;

struct EscalationDecision {
  bool mayEscalate = false;
  EscalationReason reason = EscalationReason::offline;
  std::string text;              // the only text that may be sent (anonymized); empty when !mayEscalate
  std::uint32_t replaced = 0;    // spans replaced by placeholders
  std::uint32_t allowed = 0;     // spans sent verbatim under `allow`
  PiiType blockingType = PiiType::person;  // meaningful when reason == localOnlyPii
};

// Whether a request may leave the device, and as what.
//   offline:  never.
//   private:  never when any span's type is local-only; otherwise anonymized (redact → placeholder, allow → as is).
//   standard: anonymized whenever the router decides; local-only spans are replaced by placeholders like redact
//             (the architecture's "anonymized requests" — a local-only value never leaves in any mode).
//   every mode: refused when classification failed (classified == false) or the span buffer overflowed.
//   private and standard: words the model suspects of a redact type where no span lies (SpanBuffer::suspect) are
//   replaced too ("did [PERSON_1] call"): a name the spans missed is not sent as it is.
// spans: the classifier's output for exactly this text (code point offsets). anonymizer: the conversation's; it
// learns new values only when the decision is to escalate. Brain thread (the anonymizer is not thread-safe);
// allocates, never blocks.
EscalationDecision decideEscalation(PrivacyMode mode, std::string_view text, bool classified, const SpanBuffer& spans,
                                    const PolicyTable& policy, Anonymizer& anonymizer);

}  // namespace sotto::privacy
