// SPDX-License-Identifier: MIT
// Names for error classes, used in messages and logs.
#include "sotto/hal/result.h"

namespace sotto {

const char* errcName(Errc c) noexcept {
  switch (c) {
    case Errc::invalid_argument: return "invalid argument";
    case Errc::not_found: return "not found";
    case Errc::io: return "I/O error";
    case Errc::corrupt: return "corrupt data";
    case Errc::unsupported: return "unsupported";
    case Errc::busy: return "busy";
    case Errc::permission: return "permission denied";
    case Errc::internal: return "internal error";
  }
  return "unknown";
}

}  // namespace sotto
