// SPDX-License-Identifier: MIT
// Internal to engine/llm: the GGUF validator shared by GgufFile::open() and GgufFile::fromBytes().
#pragma once

#include "engine/llm/gguf.h"

namespace sotto::llm {

class GgufParser {
 public:
  using Kv = GgufFile::Kv;  // named here (a friend) so the validator's helpers can use it
  // Validates file.bytes_ (already set, as is file.path_ for messages) and fills every other member. On error
  // the GgufFile must be discarded. Any thread; does not block beyond page faults on the mapping.
  static Status parse(GgufFile& file);
};

}  // namespace sotto::llm
