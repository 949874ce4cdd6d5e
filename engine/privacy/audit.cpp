// SPDX-License-Identifier: MIT
// Writing the audit log: per-record XChaCha20-Poly1305, a keyed-BLAKE2b MAC chain across records and files, a sealed
// head replaced atomically, rotation, torn-tail and lagging-head recovery, one flock'ed writer at a time.
#include "engine/privacy/audit.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>

#include <sodium.h>

#include "engine/privacy/audit_format.h"
#include "sotto/hal/atomic_file.h"
#include "sotto/hal/log.h"

namespace sotto::privacy {
namespace {

using namespace audit_format;

Status fsyncDir(const std::string& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return ioError(errno, "audit: cannot open directory " + dir);
  const int r = ::fsync(fd);
  const int e = errno;
  ::close(fd);
  if (r != 0 && e != EINVAL) return ioError(e, "audit: cannot sync directory " + dir);
  return {};
}

bool pwriteAll(int fd, const char* data, std::size_t n, off_t at) {
  while (n > 0) {
    const ssize_t w = ::pwrite(fd, data, n, at);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      if (w == 0) errno = EIO;
      return false;
    }
    data += w;
    n -= static_cast<std::size_t>(w);
    at += w;
  }
  return true;
}


// Holds the exclusive flock of the log's lock file for a scope (other processes' writers wait). Without a lock
// file, or on a file system without flock, it holds nothing: one writer, as before.
class WriterLock {
 public:
  explicit WriterLock(int fd) : fd_(fd) {
    while (fd_ >= 0 && ::flock(fd_, LOCK_EX) != 0 && errno == EINTR) {
    }
  }
  ~WriterLock() {
    if (fd_ >= 0) ::flock(fd_, LOCK_UN);
  }
  WriterLock(const WriterLock&) = delete;
  WriterLock& operator=(const WriterLock&) = delete;

 private:
  int fd_;
};

}  // namespace

AuditLog::AuditLog(AuditOptions options, const hal::SecretKey& key) : options_(std::move(options)) {
  AuditKeys keys = deriveKeys(key);
  encKey_ = std::move(keys.enc);
  macKey_ = std::move(keys.mac);
}

AuditLog::~AuditLog() {
  if (fd_ >= 0) ::close(fd_);
  if (lockFd_ >= 0) ::close(lockFd_);
}

Result<std::unique_ptr<AuditLog>> AuditLog::open(const AuditOptions& options, const hal::SecretKey& key) {
  if (sodium_init() < 0) return makeError(Errc::internal, "audit: libsodium failed to initialize");
  if (options.dir.empty()) return makeError(Errc::invalid_argument, "audit: no directory");
  if (options.maxFiles < 1 || options.maxFiles > kMaxFilesScanned || options.maxFileBytes < 4096 ||
      options.maxFileBytes > kMaxCipherBytes) {
    return makeError(Errc::invalid_argument, "audit: file count 1..64 and file size 4 KiB..64 MiB");
  }
  if (::mkdir(options.dir.c_str(), 0700) != 0 && errno != EEXIST) {
    return ioError(errno, "audit: cannot create directory " + options.dir);
  }
  std::unique_ptr<AuditLog> log(new AuditLog(options, key));
  log->lockFd_ = ::open((options.dir + "/audit.lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
  WriterLock lock(log->lockFd_);
  if (Status s = log->recover(); !s) return std::move(s).error();
  // Files beyond the cap (the setting was lowered): the cap wins; the head moves on first.
  if (Status s = log->dropFilesFrom(options.maxFiles); !s) return std::move(s).error();
  for (const std::string& w : log->warnings_) SOTTO_LOG_WARN("audit", "recovered", "%s", w.c_str());
  return log;
}

void AuditLog::newChain() {
  randombytes_buf(logId_.data(), logId_.size());
  firstIndex_ = 0;
  nextIndex_ = 0;
  lastMac_ = genesisMac(macKey_, logId_);
}

Status AuditLog::writeHead() {
  const std::string bytes = headBytes(macKey_, logId_, firstIndex_, nextIndex_, lastMac_);
  Status s = hal::writeFileAtomic(options_.dir + "/" + kAuditHeadName, bytesOf(bytes), 0600);
  if (!s) return makeError(s.error().code, "audit: cannot seal the head: " + s.error().message);
  headStale_ = false;
  return {};
}

Status AuditLog::recover() {
  AuditKeys keys;
  std::memcpy(keys.enc.mutableBytes().data(), encKey_.bytes().data(), hal::kKeyBytes);
  std::memcpy(keys.mac.mutableBytes().data(), macKey_.bytes().data(), hal::kKeyBytes);
  const std::string dir = options_.dir;
  const std::string path = dir + "/" + fileName(0);
  const Head head = readHead(dir, macKey_);
  if (head.state != Head::State::ok) {
    bool chained = false;
    for (std::uint32_t k = 0; k <= kMaxFilesScanned && !chained; ++k) {
      if (!exists(dir + "/" + fileName(k))) continue;
      auto d = readPrefix(dir + "/" + fileName(k), 12);
      chained = d && versionOf(*d) == kVersion;
    }
    if (head.state == Head::State::corrupt) {
      auto aside = hal::setAside(dir + "/" + kAuditHeadName);
      warnings_.push_back(std::string(kAuditHeadName) + ": " + head.why + ": set aside" +
                          (aside ? " as " + *aside : "") + "; a new chain starts");
    } else if (chained) {
      warnings_.push_back(std::string(kAuditHeadName) + " is missing beside chained files: a new chain starts");
    }
    newChain();
    if (Status s = writeHead(); !s) return s;
    if (exists(path)) {
      auto d = readPrefix(path, 12);
      warnings_.push_back(fileName(0) + (d && versionOf(*d) == kLegacyVersion
                                             ? ": format 1 (before the chain): kept as audit.log.1"
                                             : ": kept as audit.log.1 as evidence"));
      return rotate();
    }
    return startFresh();
  }
  logId_ = head.logId;
  firstIndex_ = head.firstIndex;
  nextIndex_ = head.nextIndex;
  lastMac_ = head.lastMac;
  if (!exists(path)) return startFresh();  // first start, or a crash inside a rotation
  auto data = readWhole(path);
  if (!data) {
    warnings_.push_back(data.error().message + ": set aside");
    return rotate();
  }
  if (versionOf(*data) != kVersion) {
    warnings_.push_back(fileName(0) + ": not a chained audit file: kept as audit.log.1 as evidence");
    return rotate();
  }
  ChainFile f = parseChain(fileName(0), *data, keys);
  bool clean = f.headerOk && f.tampered == 0 && f.logId == logId_;
  bool lagged = false;
  if (clean && !(f.endIndex == nextIndex_ && f.lastMac == lastMac_)) {
    lagged = f.endIndex == nextIndex_ + 1 && f.lastButOneMac == lastMac_;
    if (!lagged) {
      clean = false;
      f.problems.push_back(fileName(0) + ": ends at record " + std::to_string(f.endIndex) +
                           " but the sealed head counts " + std::to_string(nextIndex_));
    }
  }
  if (!clean) {
    for (const std::string& p : f.problems) warnings_.push_back(p);
    if (f.headerOk && f.logId != logId_) warnings_.push_back(fileName(0) + ": belongs to another chain");
    warnings_.push_back(fileName(0) + ": kept as evidence (audit.log.1), a new file continues the chain");
    return rotate();
  }
  const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) return ioError(errno, "audit: cannot open " + path);
  if (f.torn) {
    warnings_.push_back(fileName(0) + ": the final record is incomplete (" +
                        std::to_string(data->size() - f.goodEnd) + " bytes; crash while appending): cut off");
    if (::ftruncate(fd, static_cast<off_t>(f.goodEnd)) != 0 || ::fdatasync(fd) != 0) {
      const int e = errno;
      ::close(fd);
      return ioError(e, "audit: cannot cut the incomplete record off " + path);
    }
  }
  fd_ = fd;
  size_ = f.goodEnd;
  if (lagged) {
    warnings_.push_back("the sealed head lagged by the last record (crash after appending); it verifies: resealed");
    nextIndex_ = f.endIndex;
    lastMac_ = f.lastMac;
    if (Status s = writeHead(); !s) return s;
  }
  return {};
}

// Another process may have appended or rotated since our last write (the lock is held): continue from the head
// it sealed. A missing or unreadable head changes nothing: our state is the truth and the next write restores it.
Status AuditLog::syncWithOthers() {
  const Head head = readHead(options_.dir, macKey_);
  if (head.state != Head::State::ok || (head.logId == logId_ && head.firstIndex == firstIndex_ &&
                                        head.nextIndex == nextIndex_ && head.lastMac == lastMac_)) {
    return {};
  }
  logId_ = head.logId;
  firstIndex_ = head.firstIndex;
  nextIndex_ = head.nextIndex;
  lastMac_ = head.lastMac;
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  const std::string path = options_.dir + "/" + fileName(0);
  const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) return errno == ENOENT ? startFresh() : ioError(errno, "audit: cannot open " + path);
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    const int e = errno;
    ::close(fd);
    return ioError(e, "audit: cannot stat " + path);
  }
  fd_ = fd;
  size_ = static_cast<std::uint64_t>(st.st_size);
  return {};
}

// Files first..64 go; before that the head's first kept record moves to the oldest file that stays.
Status AuditLog::dropFilesFrom(std::uint32_t first) {
  bool any = false;
  for (std::uint32_t k = first; k <= kMaxFilesScanned && !any; ++k) any = exists(options_.dir + "/" + fileName(k));
  if (!any) return {};
  std::uint64_t oldest = nextIndex_;
  for (std::uint32_t k = first; k-- > 0;) {
    const std::string path = options_.dir + "/" + fileName(k);
    if (!exists(path)) continue;
    auto data = readPrefix(path, kHeaderBytes);
    if (!data || versionOf(*data) != kVersion || data->size() < kHeaderBytes) continue;
    const auto* d = reinterpret_cast<const unsigned char*>(data->data());
    const Mac mac = keyedMac(macKey_, "sotto-audit-file-v2", {std::span(d, kHeaderMacAt)});
    if (!sameMac(mac.data(), d + kHeaderMacAt) || std::memcmp(d + 16, logId_.data(), kIdBytes) != 0) continue;
    oldest = getLe(d + 32, 8);
    break;
  }
  if (oldest != firstIndex_ && oldest <= nextIndex_) {
    firstIndex_ = oldest;
    if (Status s = writeHead(); !s) return s;
  }
  for (std::uint32_t k = first; k <= kMaxFilesScanned; ++k) {
    const std::string path = options_.dir + "/" + fileName(k);
    if (::unlink(path.c_str()) != 0 && errno != ENOENT) return ioError(errno, "audit: cannot remove " + path);
  }
  return {};
}

// A new current file continuing the chain: header into a temporary, synced, renamed over audit.log, directory
// synced.
Status AuditLog::startFresh() {
  if (fd_ >= 0) {
    ::close(fd_);
    fd_ = -1;
  }
  const std::string tmp = options_.dir + "/audit.log.new";
  const std::string path = options_.dir + "/" + fileName(0);
  ::unlink(tmp.c_str());
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0) return ioError(errno, "audit: cannot create " + tmp);
  const std::string header = fileHeader(macKey_, logId_, nextIndex_, lastMac_);
  if (!pwriteAll(fd, header.data(), header.size(), 0) || ::fsync(fd) != 0 ||
      ::rename(tmp.c_str(), path.c_str()) != 0) {
    const int e = errno;
    ::close(fd);
    ::unlink(tmp.c_str());
    return ioError(e, "audit: cannot create " + path);
  }
  fd_ = fd;
  size_ = header.size();
  return fsyncDir(options_.dir);
}

Status AuditLog::rotate() {
  if (fd_ >= 0) {
    ::close(fd_);
    fd_ = -1;
  }
  if (Status s = dropFilesFrom(options_.maxFiles - 1); !s) return s;
  const std::string base = options_.dir + "/";
  for (std::uint32_t k = options_.maxFiles - 1; k-- > 0;) {
    if (::rename((base + fileName(k)).c_str(), (base + fileName(k + 1)).c_str()) != 0 && errno != ENOENT) {
      return ioError(errno, "audit: cannot rotate " + base + fileName(k));
    }
  }
  return startFresh();
}

Status AuditLog::append(const AuditRecord& record) {
  AuditRecord stamped = record;
  if (stamped.timeMs == 0) {
    stamped.timeMs = std::chrono::duration_cast<std::chrono::milliseconds>(
                         std::chrono::system_clock::now().time_since_epoch())
                         .count();
  }
  auto plain = encodePlain(stamped);
  sodium_memzero(stamped.sent.data(), stamped.sent.size());
  if (!plain) return std::move(plain).error();
  const std::size_t cipherLen = plain->size() + kTagBytes;
  const std::uint64_t recordBytes = kFrameBytes + cipherLen + kMacBytes;
  if (kHeaderBytes + recordBytes > options_.maxFileBytes) {
    sodium_memzero(plain->data(), plain->size());
    return makeError(Errc::invalid_argument, "audit: a record of " + std::to_string(recordBytes) +
                                                 " bytes does not fit in one audit file (privacy.audit.max-file-kib)");
  }
  std::lock_guard lock(mutex_);
  WriterLock others(lockFd_);
  // A record the head does not seal yet: seal it first, never let the head lag by more than one record.
  Status ready = headStale_ ? writeHead() : syncWithOthers();
  if (ready && (fd_ < 0 || size_ + recordBytes > options_.maxFileBytes)) ready = fd_ < 0 ? startFresh() : rotate();
  if (!ready) {
    sodium_memzero(plain->data(), plain->size());
    return ready;
  }
  std::string out(recordBytes, '\0');
  auto* o = reinterpret_cast<unsigned char*>(out.data());
  for (int i = 0; i < 4; ++i) o[i] = static_cast<unsigned char>(cipherLen >> (8 * i));
  for (int i = 0; i < 8; ++i) o[4 + i] = static_cast<unsigned char>(nextIndex_ >> (8 * i));
  randombytes_buf(o + 12, kNonceBytes);
  const auto ad = recordAd(logId_, nextIndex_, static_cast<std::uint32_t>(cipherLen));
  unsigned long long written = 0;
  crypto_aead_xchacha20poly1305_ietf_encrypt(o + kFrameBytes, &written,
                                             reinterpret_cast<const unsigned char*>(plain->data()), plain->size(),
                                             ad.data(), ad.size(), nullptr, o + 12, encKey_.bytes().data());
  sodium_memzero(plain->data(), plain->size());
  const Mac mac = chainMac(macKey_, logId_, lastMac_, std::span<const unsigned char>(o, kFrameBytes + cipherLen));
  std::memcpy(o + kFrameBytes + cipherLen, mac.data(), kMacBytes);
  if (!pwriteAll(fd_, out.data(), out.size(), static_cast<off_t>(size_)) || ::fdatasync(fd_) != 0) {
    const int e = errno;
    // Nothing half-written stays: cut back to the last whole record (best effort; recover() also handles it).
    [[maybe_unused]] const int ignored = ::ftruncate(fd_, static_cast<off_t>(size_));
    hal::noteWriteResult(options_.dir + "/" + fileName(0), e);  // a full disk shows in the daemon's STATUS
    return ioError(e, "audit: cannot write " + options_.dir + "/" + fileName(0));
  }
  const Mac previous = lastMac_;
  ++nextIndex_;
  lastMac_ = mac;
  if (Status s = writeHead(); !s) {
    // Unsealed: take the record back, so that the log does not claim a request that is not sent. When even that
    // fails, the record stays (it verifies against the chain) and the next append seals it first.
    if (::ftruncate(fd_, static_cast<off_t>(size_)) == 0 && ::fdatasync(fd_) == 0) {
      --nextIndex_;
      lastMac_ = previous;
    } else {
      size_ += recordBytes;
      headStale_ = true;
    }
    return s;
  }
  size_ += recordBytes;
  return {};
}

}  // namespace sotto::privacy
