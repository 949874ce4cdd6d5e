// SPDX-License-Identifier: MIT
// The guard tests' fixed device keys: every byte the same.
#pragma once

#include <cstdint>

#include "sotto/hal/keystore.h"

namespace sotto::test {

inline hal::SecretKey keyOf(uint8_t fill) {
  hal::SecretKey k;
  for (auto& b : k.mutableBytes()) b = fill;
  return k;
}

}  // namespace sotto::test
