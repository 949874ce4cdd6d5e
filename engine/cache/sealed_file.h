// SPDX-License-Identifier: MIT
// Sealed files: one blob encrypted with XChaCha20-Poly1305 under a caller's 32-byte key, written crash-safely.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "sotto/hal/result.h"

namespace sotto::cache {

// Layout: magic (8 bytes) | format version (u32 LE) | reserved (u32, 0) | nonce (24) | ciphertext + tag (16).
// The 16-byte header is the AEAD's associated data, so a changed magic or version fails authentication too.
inline constexpr char kSealedMagic[8] = {'S', 'O', 'T', 'T', 'O', 'C', 'C', 'H'};
inline constexpr std::uint32_t kSealedVersion = 1;
inline constexpr std::size_t kSealedHeaderBytes = 16;
inline constexpr std::size_t kMaxSealedFileBytes = 64u << 20;  // larger files are refused unread

// Encrypts plaintext with a fresh random nonce and replaces path atomically: path.tmp (0600) is written, fsynced,
// renamed over path, and the directory fsynced. On any error the previous file is intact and path.tmp removed.
// Threads: any non-real-time thread; blocks on I/O; sodium_init() must have succeeded.
Status writeSealedFile(const std::string& path, std::span<const std::uint8_t, 32> key,
                       std::span<const std::uint8_t> plaintext);

// Reads and decrypts path. Errors: not_found (no file), io (unreadable), corrupt (too short, too long, bad magic,
// unknown version, failed authentication: tampered, truncated or another key). Threads: as writeSealedFile.
Result<std::vector<std::uint8_t>> readSealedFile(const std::string& path, std::span<const std::uint8_t, 32> key);

}  // namespace sotto::cache
