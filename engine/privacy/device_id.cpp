// SPDX-License-Identifier: MIT
// Pseudonymous device id (keyed BLAKE2b over the rotation period index).
#include "engine/privacy/device_id.h"

#include <array>
#include <cstring>

#include <sodium.h>

namespace sotto::privacy {

Result<PseudonymousId> PseudonymousId::create(const hal::Keystore& keystore, std::chrono::hours rotation) {
  auto key = keystore.deriveKey(kDeviceIdKeyPurpose);
  if (!key) return std::move(key).error();
  return fromKey(std::move(key).value(), rotation);
}

Result<PseudonymousId> PseudonymousId::fromKey(hal::SecretKey key, std::chrono::hours rotation) {
  if (sodium_init() < 0) return makeError(Errc::internal, "device id: libsodium failed to initialize");
  if (rotation.count() < 1 || rotation.count() > 0xFFFFFFFFll) {
    return makeError(Errc::invalid_argument, "device id: rotation must be at least one hour");
  }
  return PseudonymousId(std::move(key), rotation);
}

std::uint64_t PseudonymousId::periodOf(std::chrono::system_clock::time_point now) const noexcept {
  const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(now.time_since_epoch()).count();
  const auto period = std::chrono::duration_cast<std::chrono::seconds>(rotation_).count();
  // Before the epoch (a clock not yet set) all times share period 0 rather than wrapping.
  return seconds <= 0 ? 0 : static_cast<std::uint64_t>(seconds / period);
}

std::string PseudonymousId::at(std::chrono::system_clock::time_point now) const {
  static constexpr char kLabel[] = "sotto-devid-v1";
  std::array<unsigned char, sizeof kLabel - 1 + 4 + 8> msg{};
  std::memcpy(msg.data(), kLabel, sizeof kLabel - 1);
  const auto hours = static_cast<std::uint32_t>(rotation_.count());
  const std::uint64_t period = periodOf(now);
  for (int i = 0; i < 4; ++i) msg[sizeof kLabel - 1 + i] = static_cast<unsigned char>(hours >> (8 * i));
  for (int i = 0; i < 8; ++i) msg[sizeof kLabel - 1 + 4 + i] = static_cast<unsigned char>(period >> (8 * i));
  std::array<unsigned char, kHexChars / 2> digest{};
  crypto_generichash(digest.data(), digest.size(), msg.data(), msg.size(), key_.bytes().data(), key_.bytes().size());
  std::array<char, kHexChars + 1> hex{};
  sodium_bin2hex(hex.data(), hex.size(), digest.data(), digest.size());
  return std::string(hex.data(), kHexChars);
}

}  // namespace sotto::privacy
