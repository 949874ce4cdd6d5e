// SPDX-License-Identifier: MIT
// Audit log of escalated requests: exactly the bytes that left the device, when, why and to which host; encrypted
// at rest (XChaCha20-Poly1305 per record), size-capped and rotated, crash-safe; read back by `sotto audit`.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "sotto/hal/keystore.h"
#include "sotto/hal/result.h"

namespace sotto::privacy {

// Keystore purpose of the audit key, and the log's directory below paths.state-dir.
inline constexpr const char* kAuditKeyPurpose = "audit";
inline constexpr const char* kAuditDirName = "audit";

struct AuditRecord {
  std::int64_t timeMs = 0;  // Unix time in ms; append() stamps the current time when 0
  std::string route;        // the router's route ("cloud")
  std::string reason;       // why it escalated (router reason, escalation reason)
  std::string host;         // destination host (and port), never credentials
  std::string sent;         // exactly the bytes that left the device (the HTTP request body)
  bool operator==(const AuditRecord&) const = default;
};

struct AuditOptions {
  std::string dir;                        // e.g. <state-dir>/audit; created (0700) when missing
  std::uint64_t maxFileBytes = 256 * 1024;  // privacy.audit.max-file-kib; one file never grows beyond it
  std::uint32_t maxFiles = 4;             // privacy.audit.files: current + rotated; total ≤ maxFiles × maxFileBytes
};

// On disk: <dir>/audit.log (current), audit.log.1 … audit.log.<maxFiles-1> (older; the oldest is deleted on
// rotation). A file: 32-byte header ("SOTTOAUD", version, 16 random file-id bytes), then records
// [u32 ciphertext length][24-byte random nonce][XChaCha20-Poly1305 ciphertext], associated data = the file's header,
// the record's number in the file and its length: a record edited, moved to another position or another file, or
// a header edited, fails to decrypt.
//
// Threads: open() on a control thread; append() from any non-real-time thread (serialized internally), it blocks
// on write + fdatasync. The caller must write the record BEFORE sending and must not send when append() fails.
class AuditLog {
 public:
  // Opens or creates the log. An existing current file is checked: a torn final record (crash while appending)
  // is cut off with a warning; a file whose header or records fail to authenticate is kept as audit.log.1 and a
  // fresh file started. Warnings are logged (stage "audit") and kept in warnings().
  static Result<std::unique_ptr<AuditLog>> open(const AuditOptions& options, const hal::SecretKey& key);
  ~AuditLog();
  AuditLog(const AuditLog&) = delete;
  AuditLog& operator=(const AuditLog&) = delete;

  // Appends one record (rotating first when it would not fit). Errors: invalid_argument for a record that cannot
  // fit in one file; io/permission when writing fails (nothing half-written stays behind).
  Status append(const AuditRecord& record);

  const std::vector<std::string>& warnings() const { return warnings_; }

 private:
  AuditLog(AuditOptions options, const hal::SecretKey& key);
  Status startFresh();
  Status rotate();
  Status recover();

  AuditOptions options_;
  hal::SecretKey key_;
  std::mutex mutex_;
  int fd_ = -1;
  std::uint64_t size_ = 0;     // bytes in the current file
  std::uint64_t records_ = 0;  // records in the current file (the next record's number)
  unsigned char header_[32] = {};  // the current file's header: part of every record's associated data
  std::vector<std::string> warnings_;
};

// What `sotto audit` shows: every record that authenticates, oldest first, and one line per problem.
struct AuditReadout {
  std::vector<AuditRecord> records;
  std::vector<std::string> problems;  // "audit.log.1: record 3 at byte 812 fails authentication (tampered)"
  std::uint32_t tampered = 0;         // records or headers that failed authentication or framing
  std::uint32_t torn = 0;             // truncated final records (crash while appending): skipped
};

// Reads every file of the log under dir. A missing directory is an empty log. Errors only for an unreadable
// directory; everything about the files' contents goes to problems. Any thread; blocks on file I/O.
Result<AuditReadout> readAuditLog(const std::string& dir, const hal::SecretKey& key);

}  // namespace sotto::privacy
