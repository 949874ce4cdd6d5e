// SPDX-License-Identifier: MIT
// libFuzzer target: arbitrary bytes into sotto::intents::decodeReminderState; a decoded state must encode and
// decode again to the same state (aborts otherwise). ASan/UBSan catch everything else.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "engine/intents/state_file.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  auto decoded = sotto::intents::decodeReminderState(bytes);
  if (!decoded) return 0;
  auto again = sotto::intents::decodeReminderState(sotto::intents::encodeReminderState(*decoded));
  if (!again || !(*again == *decoded)) {
    std::fprintf(stderr, "reminders_fuzz: invariant broken: a decoded state does not survive encode + decode\n");
    std::abort();
  }
  return 0;
}
