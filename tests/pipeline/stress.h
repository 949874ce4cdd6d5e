// SPDX-License-Identifier: MIT
// Shared knobs for the pipeline stress tests: message counts and a polite spin-wait.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <thread>

namespace sotto::pipeline::stress {

// The stress tests move at least this many messages. SOTTO_STRESS_SCALE=N (integer >= 1) multiplies it for soak
// runs; smaller or malformed values are ignored so a run can never be made weaker than the baseline.
#if defined(__SANITIZE_THREAD__)
// TSan checks the ordering of every access (a missing acquire or release shows within the first hand-offs) at
// about twenty times the cost: a tenth of the messages still wraps the smallest ring a thousand times.
inline constexpr std::uint64_t kMessages = 1'000'000;
#else
inline constexpr std::uint64_t kMessages = 10'000'000;
#endif

inline std::uint64_t scale() {
  const char* env = std::getenv("SOTTO_STRESS_SCALE");
  if (env == nullptr) return 1;
  char* end = nullptr;
  const unsigned long long v = std::strtoull(env, &end, 10);
  if (end == env || *end != '\0' || v < 1 || v > 1000) return 1;
  return v;
}

inline std::uint64_t messages() { return kMessages * scale(); }

// Spins briefly, then yields: on a 2-core machine, under TSan or under qemu the other side may not be running,
// and burning our whole time slice would only delay it. Test code only (sched_yield is a system call).
class Backoff {
 public:
  void pause() {
    if (++spins_ < 64) return;
    spins_ = 0;
    std::this_thread::yield();
  }
  void reset() { spins_ = 0; }

 private:
  unsigned spins_ = 0;
};

}  // namespace sotto::pipeline::stress
