// SPDX-License-Identifier: MIT
// The audit log's on-disk format, shared by its writer (audit.cpp) and its reader (audit_read.cpp): constants,
// subkeys, keyed MACs, record encoding, file headers, the chained-file parser, the sealed head, the format-1
// parser. Internal to engine/privacy. Every function: any thread, no shared state.
#pragma once

#include <sodium.h>

#include <array>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/privacy/audit.h"

namespace sotto::privacy::audit_format {

using Mac = std::array<unsigned char, AuditLog::kMacBytes>;
using LogId = std::array<unsigned char, AuditLog::kLogIdBytes>;

inline constexpr char kMagic[8] = {'S', 'O', 'T', 'T', 'O', 'A', 'U', 'D'};
inline constexpr char kHeadMagic[8] = {'S', 'O', 'T', 'T', 'O', 'A', 'H', 'D'};
inline constexpr std::uint32_t kLegacyVersion = 1;
inline constexpr std::uint32_t kVersion = 2;
inline constexpr std::size_t kMacBytes = AuditLog::kMacBytes;
inline constexpr std::size_t kIdBytes = AuditLog::kLogIdBytes;
inline constexpr std::size_t kLegacyHeaderBytes = 32;  // magic 8 | version u32 | reserved u32 | file id 16
// magic 8 | version u32 | reserved u32 | log id 16 | first record u64 | previous MAC 32 | header MAC 32
inline constexpr std::size_t kHeaderMacAt = 8 + 4 + 4 + kIdBytes + 8 + kMacBytes;
inline constexpr std::size_t kHeaderBytes = kHeaderMacAt + kMacBytes;
// magic 8 | version u32 | reserved u32 | log id 16 | first kept u64 | next u64 | last MAC 32 | head MAC 32
inline constexpr std::size_t kHeadMacAt = 8 + 4 + 4 + kIdBytes + 8 + 8 + kMacBytes;
inline constexpr std::size_t kHeadBytes = kHeadMacAt + kMacBytes;
inline constexpr std::size_t kNonceBytes = crypto_aead_xchacha20poly1305_ietf_NPUBBYTES;
inline constexpr std::size_t kTagBytes = crypto_aead_xchacha20poly1305_ietf_ABYTES;
inline constexpr std::size_t kLegacyFrameBytes = 4 + kNonceBytes;  // length + nonce before the ciphertext
inline constexpr std::size_t kFrameBytes = 4 + 8 + kNonceBytes;    // length + number + nonce before the ciphertext
inline constexpr std::size_t kMinPlainBytes = 1 + 8 + 2 + 2 + 2 + 4;   // version, time, three u16 lengths, u32 length
inline constexpr std::size_t kMaxCipherBytes = 64u * 1024 * 1024;      // no file is larger (privacy.audit.max-file-kib)
inline constexpr std::uint32_t kMaxFilesScanned = 64;                  // highest rotated index read or cleaned up
inline constexpr std::uint8_t kRecordVersion = 1;
inline constexpr int kReadAttempts = 3;

static_assert(crypto_aead_xchacha20poly1305_ietf_KEYBYTES == hal::kKeyBytes);
static_assert(crypto_kdf_KEYBYTES == hal::kKeyBytes && crypto_generichash_KEYBYTES_MAX >= hal::kKeyBytes);

struct AuditKeys {
  hal::SecretKey legacy, enc, mac;
};

// How a ciphertext opened.
enum class Opened { ok, unauthenticated, malformed };

struct LegacyFile {
  std::vector<AuditRecord> records;
  std::uint32_t tampered = 0;
  bool torn = false;
  std::vector<std::string> problems;
};

struct ChainFile {
  bool headerOk = false;
  LogId logId{};
  std::uint64_t firstIndex = 0;
  Mac prevMac{};
  std::uint64_t endIndex = 0;  // the number the next record would carry
  Mac lastMac{};               // the MAC the next record chains on
  Mac lastButOneMac{};         // what the last record chained on (the head may lag by that record)
  std::uint64_t framed = 0;    // records framed (verified or not)
  std::uint64_t goodEnd = 0;   // end of the last record that framed correctly
  bool torn = false;
  std::vector<AuditRecord> records;
  std::uint32_t tampered = 0;
  std::vector<std::string> problems;
  std::string firstBad;
};

struct Head {
  enum class State { missing, corrupt, ok } state = State::missing;
  std::string why;  // for corrupt
  LogId logId{};
  std::uint64_t firstIndex = 0;
  std::uint64_t nextIndex = 0;
  Mac lastMac{};
};


// Names and small helpers.
std::string fileName(std::uint32_t k);         // audit.log, audit.log.1, ...
std::string recordName(std::uint64_t index);  // "record N", numbered from 1 for people
Error ioError(int e, const std::string& what);
bool exists(const std::string& path);
void putU16(std::string& out, std::uint16_t v);
void putU32(std::string& out, std::uint32_t v);
void putU64(std::string& out, std::uint64_t v);
void putBytes(std::string& out, std::span<const unsigned char> b);
std::uint64_t getLe(const unsigned char* p, int bytes);
std::span<const unsigned char> bytesOf(std::string_view s);
bool sameMac(const unsigned char* a, const unsigned char* b);  // constant time (sodium_memcmp)

// Keys and MACs.
Mac keyedMac(const hal::SecretKey& key, std::string_view domain,
             std::initializer_list<std::span<const unsigned char>> parts);
AuditKeys deriveKeys(const hal::SecretKey& key);
Mac genesisMac(const hal::SecretKey& macKey, const LogId& logId);

// Records.
Result<std::string> encodePlain(const AuditRecord& r);
bool decodePlain(const unsigned char* p, std::size_t n, AuditRecord& r);
Opened openRecord(const hal::SecretKey& key, const unsigned char* nonce, const unsigned char* cipher,
                  std::size_t len, std::span<const unsigned char> ad, AuditRecord& out);

// Files.
Result<std::string> readWhole(const std::string& path);
Result<std::string> readPrefix(const std::string& path, std::size_t bytes);  // the header, for rotation
std::uint32_t versionOf(std::string_view data);  // 1, 2, or 0 for no audit header at all

// Format 1 (read only).
std::array<unsigned char, kLegacyHeaderBytes + 12> legacyAd(const unsigned char* header, std::uint64_t seq,
                                                            std::uint32_t len);
LegacyFile parseLegacy(const std::string& name, std::string_view data, const hal::SecretKey& key);

// Format 2: the chain.
std::string fileHeader(const hal::SecretKey& macKey, const LogId& logId, std::uint64_t first, const Mac& prev);
std::array<unsigned char, kIdBytes + 12> recordAd(const LogId& logId, std::uint64_t index, std::uint32_t len);
Mac chainMac(const hal::SecretKey& macKey, const LogId& logId, const Mac& prev, std::span<const unsigned char> frame);
ChainFile parseChain(const std::string& name, std::string_view data, const AuditKeys& keys);

// The sealed head.
std::string headBytes(const hal::SecretKey& macKey, const LogId& logId, std::uint64_t first, std::uint64_t next,
                      const Mac& last);
Head readHead(const std::string& dir, const hal::SecretKey& macKey);

}  // namespace sotto::privacy::audit_format
