// SPDX-License-Identifier: MIT
// Pseudonymous device id: keyed BLAKE2b of the rotation period, so requests cannot be linked across periods and
// the hardware identity never leaves the device.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include "sotto/hal/keystore.h"
#include "sotto/hal/result.h"

namespace sotto::privacy {

// Keystore purpose of the device-id subkey.
inline constexpr const char* kDeviceIdKeyPurpose = "devid";

// id(period) = hex(BLAKE2b-128(key = keystore "devid" subkey, message = "sotto-devid-v1" | rotation hours (u32
// LE) | period index (u64 LE))), period index = floor(unix time / rotation). Never derived from a hardware id,
// MAC or serial: only the random master key and the clock. The id changes at every period boundary (UTC-aligned
// multiples of the rotation since the epoch).
//
// Threads: create on a control thread; at() is const and safe from any non-real-time thread (no allocation
// beyond the returned string, no locks, no I/O).
class PseudonymousId {
 public:
  static constexpr std::size_t kHexChars = 32;

  // rotation: at least one hour (privacy.device-id-rotation-h).
  static Result<PseudonymousId> create(const hal::Keystore& keystore, std::chrono::hours rotation);
  // For tests and tools: from an explicit subkey.
  static Result<PseudonymousId> fromKey(hal::SecretKey key, std::chrono::hours rotation);

  // The id valid at `now`.
  std::string at(std::chrono::system_clock::time_point now) const;
  // The period index of `now` (for tests and logs).
  std::uint64_t periodOf(std::chrono::system_clock::time_point now) const noexcept;
  std::chrono::hours rotation() const noexcept { return rotation_; }

 private:
  PseudonymousId(hal::SecretKey key, std::chrono::hours rotation) : key_(std::move(key)), rotation_(rotation) {}
  hal::SecretKey key_;
  std::chrono::hours rotation_;
};

}  // namespace sotto::privacy
