// SPDX-License-Identifier: MIT
// The privacy mode (offline, private, standard): the one enum the config, the router and the policy share.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

// Header only, so that the config and the router name the mode without linking the PII classifier. Everything
// here is constexpr over immutable tables: any thread.
namespace sotto::privacy {

enum class PrivacyMode : std::uint8_t { offline, private_, standard };

// The spellings of the config file, the CLI (--privacy), logs and JSON, in enum order.
inline constexpr std::array<std::string_view, 3> kPrivacyModeNames{"offline", "private", "standard"};
static_assert(kPrivacyModeNames.size() == static_cast<std::size_t>(PrivacyMode::standard) + 1);

constexpr const char* privacyModeName(PrivacyMode mode) noexcept {
  const auto index = static_cast<std::size_t>(mode);
  return index < kPrivacyModeNames.size() ? kPrivacyModeNames[index].data() : "unknown";  // literals: NUL-terminated
}

constexpr std::optional<PrivacyMode> parsePrivacyMode(std::string_view name) noexcept {
  for (std::size_t i = 0; i < kPrivacyModeNames.size(); ++i) {
    if (name == kPrivacyModeNames[i]) return static_cast<PrivacyMode>(i);
  }
  return std::nullopt;
}

}  // namespace sotto::privacy
