// SPDX-License-Identifier: MIT
// Audit log of escalated requests: exactly the bytes that left the device, when, why and to which host; encrypted
// at rest (XChaCha20-Poly1305 per record), chained with keyed BLAKE2b MACs under a sealed head so that a cut,
// a reordering or a deletion is detected, size-capped and rotated, crash-safe; read back by `sotto audit`.
#pragma once

#include <array>
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
// The sealed head beside the log files.
inline constexpr const char* kAuditHeadName = "audit.head";

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

// On disk (format 2): <dir>/audit.log (current), audit.log.1 … audit.log.<maxFiles-1> (older; the oldest is
// deleted on rotation) and <dir>/audit.head. Two subkeys are derived from the given key with crypto_kdf: one
// encrypts, one MACs (keyed BLAKE2b-256).
//  - A file: a 104-byte header ("SOTTOAUD", version 2, the log's random 16-byte id, the number of its first
//    record, the MAC of the record before it, a MAC over all of that), then records
//    [u32 ciphertext length][u64 record number][24-byte nonce][ciphertext][32-byte chain MAC]. The ciphertext's
//    associated data is the log id, number and length; the chain MAC covers the previous record's MAC (the
//    header's for a file's first record), the log id and the whole frame. Numbers run on across files, so
//    rotation keeps the chain: a rotated file's header carries the number and MAC its predecessor ended with.
//  - The head: the log id, the first record still kept (moves on when rotation deletes the oldest file), the
//    number of records ever written and the last record's MAC, itself MACed; replaced atomically
//    (hal::writeFileAtomic) after every append and before a rotation deletes a file.
// Crash rule: a record is appended and synced first, the head second. So after a crash the head may lag by at
// most the last record, and only when that record verifies against the chain (its predecessor's MAC is the
// head's): then it counts and open() reseals the head. A torn record after the sealed end is a crash and is
// cut off. Everything else is reported: fewer records than the head (a cut, even at a record boundary), a gap
// in the numbers (deletion, a file removed), numbers going back (reordering), a MAC that does not verify.
// Not detectable: the whole directory removed, or the files and the head replaced together by an older copy of
// both (no trusted monotonic counter); the last record while the head lags (only between a crash and the next
// open()). Format-1 files (before the chain) are still read, and reported as unchained.
//
// Threads: open() on a control thread; append() from any non-real-time thread (serialized internally), it blocks
// on write + fdatasync + the head's atomic replacement. The caller must write the record BEFORE sending and must
// not send when append() fails. Processes: several may append to one log (the daemon and `sotto ask`): open() and
// each append() hold an exclusive flock on <dir>/audit.lock, and an append first continues from what another
// writer sealed.
class AuditLog {
 public:
  // Opens or creates the log. A torn final record (crash while appending) is cut off with a warning; a head that
  // lags by one verified record is resealed; a current file that does not end where the sealed head says
  // (tampered, cut, format 1) is kept as audit.log.1 and a new file continues the chain from the head, so that
  // `sotto audit` keeps reporting the damage until rotation drops it. A head that is missing or fails its MAC
  // while chained files exist starts a new chain (new log id); the old files stay and are reported. Warnings are
  // logged (stage "audit") and kept in warnings().
  static Result<std::unique_ptr<AuditLog>> open(const AuditOptions& options, const hal::SecretKey& key);
  ~AuditLog();
  AuditLog(const AuditLog&) = delete;
  AuditLog& operator=(const AuditLog&) = delete;

  // Appends one record (rotating first when it would not fit) and seals the head. Errors: invalid_argument for a
  // record that cannot fit in one file; io/permission when writing the record or the head fails (the record is
  // cut back off, so the log does not claim a request that was not sent; ENOSPC says "No space left on device").
  Status append(const AuditRecord& record);

  const std::vector<std::string>& warnings() const { return warnings_; }

  static constexpr std::size_t kMacBytes = 32;
  static constexpr std::size_t kLogIdBytes = 16;

 private:
  AuditLog(AuditOptions options, const hal::SecretKey& key);
  Status startFresh();
  Status rotate();
  Status recover();
  Status writeHead();
  Status dropFilesFrom(std::uint32_t first);
  Status syncWithOthers();
  void newChain();

  AuditOptions options_;
  hal::SecretKey encKey_;
  hal::SecretKey macKey_;
  std::mutex mutex_;
  int fd_ = -1;
  int lockFd_ = -1;         // <dir>/audit.lock, flock'ed around recovery and every append
  std::uint64_t size_ = 0;  // bytes in the current file
  std::array<unsigned char, kLogIdBytes> logId_{};
  std::uint64_t firstIndex_ = 0;  // number of the oldest record kept (0-based)
  std::uint64_t nextIndex_ = 0;   // records ever written: the next record's number
  std::array<unsigned char, kMacBytes> lastMac_{};
  bool headStale_ = false;  // a record is on disk that the head does not seal yet (head write failed)
  std::vector<std::string> warnings_;
};

// What `sotto audit` shows: every record that authenticates, oldest first, and one line per problem.
struct AuditReadout {
  std::vector<AuditRecord> records;
  std::vector<std::string> problems;  // "audit.log.1: record 3 (byte 812) fails authentication (tampered ...)"
  std::vector<std::string> notes;     // harmless: a crash's torn record, a head that lagged, format-1 files
  std::string firstBad;               // the first bad record in log order ("record 3 (audit.log.1, byte 812)")
  std::uint32_t tampered = 0;         // integrity failures: MACs, cuts, gaps, reordering, a missing head
  std::uint32_t torn = 0;             // truncated final records (crash while appending): skipped
  std::uint32_t legacy = 0;           // format-1 files (no chain: a cut in them cannot be detected)
};

// Reads every file of the log under dir and checks the chain against the sealed head. A missing directory is an
// empty log. Errors only for an unreadable directory; everything about the contents goes to problems. A write
// racing the read is tolerated (re-read up to three times before anything is reported). Any thread; blocks on
// file I/O.
Result<AuditReadout> readAuditLog(const std::string& dir, const hal::SecretKey& key);

}  // namespace sotto::privacy
