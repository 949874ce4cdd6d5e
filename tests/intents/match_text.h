// SPDX-License-Identifier: MIT
// Tests: one match as "intent slot=value ..." (slots in declaration order), the form assertions compare.
#pragma once

#include <cstdio>
#include <string>

#include "engine/intents/matcher.h"

namespace sotto::intents::test {

inline std::string matchText(const IntentMatch& m) {
  std::string s(m.name);
  for (size_t i = 0; i < m.slotCount; ++i) {
    const auto& v = m.slots[i].value;
    s += " " + std::string(m.slots[i].name) + "=";
    if (v.kind == SlotValue::Kind::text) {
      s += v.view();
    } else {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%g", v.number);
      s += buf;
    }
  }
  return s;
}

}  // namespace sotto::intents::test
