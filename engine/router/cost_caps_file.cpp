// SPDX-License-Identifier: MIT
// The cost caps file (see cost_caps_file.h): strict text format, conservative on damage.
#include "engine/router/cost_caps_file.h"

#include <algorithm>
#include <charconv>

#include "sotto/hal/atomic_file.h"

namespace sotto::router {
namespace {

constexpr std::string_view kHeader = "sotto-cost-caps 1\n";
constexpr std::uint64_t kMaxFileBytes = 4u << 20;  // 100000 times of 14 digits fit easily

// One "prefix<number>\n" line at text[at]; advances at. The number: decimal, optional '-' for int64.
template <typename T>
bool readLine(std::string_view text, std::size_t& at, std::string_view prefix, T& value) {
  if (text.compare(at, prefix.size(), prefix) != 0) return false;
  const std::size_t start = at + prefix.size();
  const std::size_t nl = text.find('\n', start);
  if (nl == std::string_view::npos || nl == start) return false;
  const auto r = std::from_chars(text.data() + start, text.data() + nl, value);
  if (r.ec != std::errc{} || r.ptr != text.data() + nl) return false;
  at = nl + 1;
  return true;
}

Error corrupt(const std::string& why) { return makeError(Errc::corrupt, why); }

}  // namespace

std::string encodeCostCaps(std::span<const std::int64_t> wallMs) {
  std::string s(kHeader);
  s += "count " + std::to_string(wallMs.size()) + "\n";
  std::uint64_t sum = 0;
  for (std::int64_t t : wallMs) {
    s += std::to_string(t) + "\n";
    sum += static_cast<std::uint64_t>(t);
  }
  s += "sum " + std::to_string(sum) + "\n";
  return s;
}

Result<std::vector<std::int64_t>> decodeCostCaps(std::string_view text) {
  if (text.substr(0, kHeader.size()) != kHeader) return corrupt("not a cost caps file (bad first line)");
  std::size_t at = kHeader.size();
  std::uint32_t count = 0;
  if (!readLine(text, at, "count ", count)) return corrupt("bad count line");
  if (count > CostCaps::kMaxPerDay) return corrupt("count " + std::to_string(count) + " above the largest cap");
  std::vector<std::int64_t> times;
  times.reserve(count);
  std::uint64_t sum = 0;
  for (std::uint32_t i = 0; i < count; ++i) {
    std::int64_t t = 0;
    if (!readLine(text, at, "", t)) return corrupt("bad time on line " + std::to_string(i + 3));
    if (!times.empty() && t < times.back()) return corrupt("times out of order on line " + std::to_string(i + 3));
    times.push_back(t);
    sum += static_cast<std::uint64_t>(t);
  }
  std::uint64_t stored = 0;
  if (!readLine(text, at, "sum ", stored)) return corrupt("bad or missing sum line (truncated?)");
  if (stored != sum) return corrupt("the sum does not match the times");
  if (at != text.size()) return corrupt("bytes after the sum line");
  return times;
}

CostCapsLoad loadCostCaps(const std::string& path, const CostCapOptions& caps, Millis now, std::int64_t wallNowMs) {
  CostCapsLoad out;
  const auto conservative = [&](const std::string& what) {
    out.capsReached = true;
    out.times.assign(caps.perDay, now);
    out.warning = what + "; the request count is unknown, so the cloud caps count as reached for the next 24 hours "
                         "(delete " + path + " to start counting from zero)";
  };
  auto bytes = hal::readFile(path, kMaxFileBytes);
  if (!bytes) {
    if (bytes.error().code == Errc::not_found) return out;  // first start: nothing sent yet
    if (bytes.error().code == Errc::corrupt) {  // too large or not a regular file
      auto aside = hal::setAside(path);
      conservative("cloud cost caps file " + path + " is unusable (" + bytes.error().message + ")" +
                   (aside ? "; set aside as " + *aside : ""));
      return out;
    }
    conservative("cloud cost caps file " + path + " cannot be read (" + bytes.error().message + ")");
    return out;
  }
  auto wall = decodeCostCaps(std::string_view(reinterpret_cast<const char*>(bytes->data()), bytes->size()));
  if (!wall) {
    auto aside = hal::setAside(path);
    conservative("cloud cost caps file " + path + " is corrupt (" + wall.error().message + ")" +
                 (aside ? "; set aside as " + *aside : ""));
    return out;
  }
  out.times.reserve(wall->size());
  const std::int64_t offset = wallNowMs - now.count();  // Unix ms = router ms + offset, at this moment
  std::size_t future = 0;
  for (std::int64_t w : *wall) {
    if (w <= wallNowMs - CostCaps::kDay.count()) continue;  // out of every window
    if (w > wallNowMs) ++future;
    out.times.push_back(Millis{std::min(w, wallNowMs) - offset});  // a time from the future counts as now
  }
  // More than a clock's tick ahead: the clock was set back, or the file was written by a wrong clock. Counted as
  // sent now, and rewritten so, so that they leave the windows within a day instead of being clamped anew forever.
  if (future > 0) {
    out.rewrite = true;
    out.warning = "cloud cost caps file " + path + ": " + std::to_string(future) +
                  " request times are in the future (was the clock set back?); counted as sent now, they expire "
                  "within a day";
  }
  return out;
}

Status saveCostCaps(const std::string& path, std::span<const Millis> times, Millis now, std::int64_t wallNowMs) {
  std::vector<std::int64_t> wall;
  wall.reserve(times.size());
  const std::int64_t offset = wallNowMs - now.count();
  for (Millis t : times) wall.push_back(t.count() + offset);
  const std::string text = encodeCostCaps(wall);
  return hal::writeFileAtomic(path, std::span(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()), 0600);
}

}  // namespace sotto::router
