// SPDX-License-Identifier: MIT
// The cost caps' counts across restarts: the send times of the last day's cloud requests, as wall-clock times,
// in a small text file in the state directory, replaced atomically after every request.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/router/cost_caps.h"
#include "sotto/hal/result.h"

namespace sotto::router {

inline constexpr const char* kCostCapsFileName = "cloud-requests";

// The file: "sotto-cost-caps 1\n", "count N\n", N ascending lines of Unix time in ms, "sum S\n" (S: the times added
// modulo 2^64, so a damaged digit shows). Any thread.
std::string encodeCostCaps(std::span<const std::int64_t> wallMs);
// Errors: Errc::corrupt naming what is wrong (header, count, a line, order, sum, trailing bytes).
Result<std::vector<std::int64_t>> decodeCostCaps(std::string_view text);

struct CostCapsLoad {
  std::vector<Millis> times;  // on the router clock, ascending: CostCaps::restore() takes them
  std::string warning;        // what went wrong and what is assumed instead; empty when all is well
  bool capsReached = false;   // the file was corrupt or unreadable: the caps count as reached for a day
  bool rewrite = false;       // times from the future were counted as now: write them back so they age out
};

// Reads the file (callers that may race other processes hold hal::FileLock::exclusive(path)). Missing: no request
// yet. Corrupt: set aside (renamed to PATH.bad-<time>, for inspection) and,
// because the real count is unknown, the conservative choice: perDay requests counted at `now` (no cloud request
// for 24 hours unless a person deletes the file); the same when it cannot be read. Times from the future count as
// sent now (rewrite: the caller writes them back as now, so they expire within a day and say so once); those a day
// old or more are dropped. now / wallNowMs: the same moment on the router clock and in
// Unix ms. Any non-real-time thread; blocks on disk I/O.
CostCapsLoad loadCostCaps(const std::string& path, const CostCapOptions& caps, Millis now, std::int64_t wallNowMs);
// Writes the counted times (router clock, ascending) atomically, mode 0600. Errors as hal::writeFileAtomic.
Status saveCostCaps(const std::string& path, std::span<const Millis> times, Millis now, std::int64_t wallNowMs);

}  // namespace sotto::router
