// SPDX-License-Identifier: MIT
// slotSignature: a stable hash of an intent match's intent and slot values for the semantic tier's slot guard.
#include <charconv>

#include "engine/cache/answer_cache.h"
#include "engine/intents/matcher.h"

namespace sotto::cache {

std::uint64_t slotSignature(const intents::IntentMatch& match) noexcept {
  if (match.intent < 0 || match.name == "none") return 0;
  std::uint64_t h = fnv1a64(match.name);
  for (std::size_t i = 0; i < match.slotCount && i < match.slots.size(); ++i) {
    const auto& s = match.slots[i];
    h = fnv1a64(s.name, h ^ 0x51u);
    if (s.value.kind == intents::SlotValue::Kind::text) {
      h = fnv1a64(s.value.view(), h ^ 0x7u);
    } else {
      char buf[40];
      const auto r = std::to_chars(buf, buf + sizeof buf, s.value.number);
      h = fnv1a64(std::string_view(buf, r.ec == std::errc() ? static_cast<std::size_t>(r.ptr - buf) : 0), h ^ 0xbu);
    }
  }
  return h == 0 ? 1 : h;  // 0 is reserved for "no slots"
}

}  // namespace sotto::cache
