// SPDX-License-Identifier: MIT
// Audit log: per-record XChaCha20-Poly1305 under the keystore's "audit" subkey, rotation, torn-tail recovery.
#include "engine/privacy/audit.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <cstring>

#include <sodium.h>

#include "sotto/hal/log.h"

namespace sotto::privacy {
namespace {

constexpr char kMagic[8] = {'S', 'O', 'T', 'T', 'O', 'A', 'U', 'D'};
constexpr std::uint32_t kVersion = 1;
constexpr std::size_t kHeaderBytes = 32;  // magic 8 | version u32 | reserved u32 | file id 16
constexpr std::size_t kNonceBytes = crypto_aead_xchacha20poly1305_ietf_NPUBBYTES;
constexpr std::size_t kTagBytes = crypto_aead_xchacha20poly1305_ietf_ABYTES;
constexpr std::size_t kFrameBytes = 4 + kNonceBytes;            // length + nonce before the ciphertext
constexpr std::size_t kMinPlainBytes = 1 + 8 + 2 + 2 + 2 + 4;   // version, time, three u16 lengths, u32 length
constexpr std::size_t kMaxCipherBytes = 64u * 1024 * 1024;      // no file is larger (privacy.audit.max-file-kib)
constexpr std::uint32_t kMaxFilesScanned = 64;                  // highest rotated index read or cleaned up
constexpr std::uint8_t kRecordVersion = 1;

static_assert(crypto_aead_xchacha20poly1305_ietf_KEYBYTES == hal::kKeyBytes);

std::string fileName(std::uint32_t k) { return k == 0 ? "audit.log" : "audit.log." + std::to_string(k); }

Error ioError(int e, const std::string& what) {
  return makeError(e == EACCES || e == EPERM || e == EROFS ? Errc::permission : Errc::io,
                   what + ": " + std::strerror(e));
}

void putU16(std::string& out, std::uint16_t v) {
  for (int i = 0; i < 2; ++i) out += static_cast<char>(v >> (8 * i));
}
void putU32(std::string& out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out += static_cast<char>(v >> (8 * i));
}
void putU64(std::string& out, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) out += static_cast<char>(v >> (8 * i));
}
std::uint64_t getLe(const unsigned char* p, int bytes) {
  std::uint64_t v = 0;
  for (int i = bytes - 1; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

// Associated data: binds a record to its file (the whole header, with its random id), its position and length.
std::array<unsigned char, kHeaderBytes + 12> associatedData(const unsigned char* header, std::uint64_t seq,
                                                            std::uint32_t len) {
  std::array<unsigned char, kHeaderBytes + 12> ad{};
  std::memcpy(ad.data(), header, kHeaderBytes);
  for (int i = 0; i < 8; ++i) ad[kHeaderBytes + i] = static_cast<unsigned char>(seq >> (8 * i));
  for (int i = 0; i < 4; ++i) ad[kHeaderBytes + 8 + i] = static_cast<unsigned char>(len >> (8 * i));
  return ad;
}

Result<std::string> encodePlain(const AuditRecord& r) {
  if (r.route.size() > 0xFFFF || r.reason.size() > 0xFFFF || r.host.size() > 0xFFFF ||
      r.sent.size() > kMaxCipherBytes) {
    return makeError(Errc::invalid_argument, "audit: record field too long");
  }
  std::string p;
  p.reserve(kMinPlainBytes + r.route.size() + r.reason.size() + r.host.size() + r.sent.size());
  p += static_cast<char>(kRecordVersion);
  putU64(p, static_cast<std::uint64_t>(r.timeMs));
  for (const std::string* s : {&r.route, &r.reason, &r.host}) {
    putU16(p, static_cast<std::uint16_t>(s->size()));
    p += *s;
  }
  putU32(p, static_cast<std::uint32_t>(r.sent.size()));
  p += r.sent;
  return p;
}

bool decodePlain(const unsigned char* p, std::size_t n, AuditRecord& r) {
  if (n < kMinPlainBytes || p[0] != kRecordVersion) return false;
  std::size_t at = 1;
  r.timeMs = static_cast<std::int64_t>(getLe(p + at, 8));
  at += 8;
  for (std::string* s : {&r.route, &r.reason, &r.host}) {
    if (n - at < 2) return false;
    const std::size_t len = getLe(p + at, 2);
    at += 2;
    if (n - at < len) return false;
    s->assign(reinterpret_cast<const char*>(p + at), len);
    at += len;
  }
  if (n - at < 4) return false;
  const std::size_t len = getLe(p + at, 4);
  at += 4;
  if (n - at != len) return false;
  r.sent.assign(reinterpret_cast<const char*>(p + at), len);
  return true;
}

Result<std::string> readWhole(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) return ioError(errno, "cannot open " + path);
  std::string data;
  char buf[65536];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int e = errno;
      ::close(fd);
      return ioError(e, "cannot read " + path);
    }
    if (n == 0) break;
    data.append(buf, static_cast<std::size_t>(n));
    if (data.size() > kMaxCipherBytes + kHeaderBytes) {
      ::close(fd);
      return makeError(Errc::corrupt, path + " is larger than any audit file can be");
    }
  }
  ::close(fd);
  return data;
}

// One file, checked record by record.
struct ParsedFile {
  bool headerOk = false;
  unsigned char header[kHeaderBytes] = {};
  std::vector<AuditRecord> records;
  std::uint64_t goodEnd = 0;  // end of the last record that framed correctly
  std::uint64_t count = 0;    // records framed (authenticated or not)
  std::uint32_t tampered = 0;
  bool torn = false;
  std::vector<std::string> problems;
};

ParsedFile parseFile(const std::string& name, std::string_view data, const hal::SecretKey& key) {
  ParsedFile f;
  const auto* d = reinterpret_cast<const unsigned char*>(data.data());
  if (data.size() < kHeaderBytes || std::memcmp(d, kMagic, sizeof kMagic) != 0 || getLe(d + 8, 4) != kVersion) {
    if (data.size() < kHeaderBytes && std::string_view(data).substr(0, std::min(data.size(), sizeof kMagic)) ==
                                          std::string_view(kMagic, std::min(data.size(), sizeof kMagic))) {
      f.torn = true;
      f.problems.push_back(name + ": truncated header (crash while creating it): skipped");
    } else {
      ++f.tampered;
      f.problems.push_back(name + ": not an audit log file of this version (corrupt header): skipped");
    }
    return f;
  }
  f.headerOk = true;
  std::memcpy(f.header, d, kHeaderBytes);
  std::size_t pos = kHeaderBytes;
  f.goodEnd = pos;
  std::vector<unsigned char> plain;
  while (pos < data.size()) {
    const std::size_t left = data.size() - pos;
    if (left < kFrameBytes) {
      f.torn = true;
      break;
    }
    const auto len = static_cast<std::uint32_t>(getLe(d + pos, 4));
    if (len < kMinPlainBytes + kTagBytes || len > kMaxCipherBytes) {
      ++f.tampered;
      f.problems.push_back(name + ": record " + std::to_string(f.count + 1) + " at byte " + std::to_string(pos) +
                           " has an impossible length (corrupt or tampered); the rest of the file is skipped");
      return f;
    }
    if (left - kFrameBytes < len) {
      f.torn = true;
      break;
    }
    const auto ad = associatedData(f.header, f.count, len);
    plain.resize(len - kTagBytes);
    unsigned long long plainLen = 0;
    const unsigned char* nonce = d + pos + 4;
    const unsigned char* cipher = nonce + kNonceBytes;
    AuditRecord r;
    if (crypto_aead_xchacha20poly1305_ietf_decrypt(plain.data(), &plainLen, nullptr, cipher, len, ad.data(),
                                                   ad.size(), nonce, key.bytes().data()) != 0) {
      ++f.tampered;
      f.problems.push_back(name + ": record " + std::to_string(f.count + 1) + " at byte " + std::to_string(pos) +
                           " fails authentication (tampered, corrupt or another device's key)");
    } else if (!decodePlain(plain.data(), plainLen, r)) {
      ++f.tampered;
      f.problems.push_back(name + ": record " + std::to_string(f.count + 1) + " at byte " + std::to_string(pos) +
                           " authenticates but is malformed (newer version?)");
    } else {
      f.records.push_back(std::move(r));
    }
    sodium_memzero(plain.data(), plain.size());
    pos += kFrameBytes + len;
    f.goodEnd = pos;
    ++f.count;
  }
  if (f.torn) {
    f.problems.push_back(name + ": the final record is incomplete (" + std::to_string(data.size() - f.goodEnd) +
                         " bytes; crash while appending): skipped");
  }
  return f;
}

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

}  // namespace

AuditLog::AuditLog(AuditOptions options, const hal::SecretKey& key) : options_(std::move(options)) {
  std::memcpy(key_.mutableBytes().data(), key.bytes().data(), hal::kKeyBytes);
}

AuditLog::~AuditLog() {
  if (fd_ >= 0) ::close(fd_);
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
  // Files beyond the cap (the setting was lowered): the cap wins.
  for (std::uint32_t k = options.maxFiles; k <= kMaxFilesScanned; ++k) {
    ::unlink((options.dir + "/" + fileName(k)).c_str());
  }
  if (Status s = log->recover(); !s) return std::move(s).error();
  for (const std::string& w : log->warnings_) SOTTO_LOG_WARN("audit", "recovered", "%s", w.c_str());
  return log;
}

Status AuditLog::recover() {
  const std::string path = options_.dir + "/" + fileName(0);
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) return startFresh();
    return ioError(errno, "audit: cannot stat " + path);
  }
  auto data = readWhole(path);
  if (!data) {
    warnings_.push_back(data.error().message + ": set aside");
    return rotate();
  }
  ParsedFile f = parseFile(fileName(0), *data, key_);
  for (const std::string& p : f.problems) warnings_.push_back(p);
  if (!f.headerOk || f.tampered > 0) {
    warnings_.push_back(fileName(0) + ": kept as evidence, a new file is started");
    return rotate();
  }
  const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) return ioError(errno, "audit: cannot open " + path);
  if (f.torn) {
    if (::ftruncate(fd, static_cast<off_t>(f.goodEnd)) != 0 || ::fdatasync(fd) != 0) {
      const int e = errno;
      ::close(fd);
      return ioError(e, "audit: cannot cut the incomplete record off " + path);
    }
  }
  fd_ = fd;
  size_ = f.goodEnd;
  records_ = f.count;
  std::memcpy(header_, f.header, sizeof header_);
  return {};
}

// A new current file: header into a temporary, synced, renamed over audit.log, directory synced.
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
  unsigned char fileId[16];
  randombytes_buf(fileId, sizeof fileId);
  std::string header(kMagic, sizeof kMagic);
  putU32(header, kVersion);
  putU32(header, 0);
  header.append(reinterpret_cast<const char*>(fileId), sizeof fileId);
  static_assert(sizeof header_ == kHeaderBytes);
  std::memcpy(header_, header.data(), kHeaderBytes);
  if (!pwriteAll(fd, header.data(), header.size(), 0) || ::fsync(fd) != 0 ||
      ::rename(tmp.c_str(), path.c_str()) != 0) {
    const int e = errno;
    ::close(fd);
    ::unlink(tmp.c_str());
    return ioError(e, "audit: cannot create " + path);
  }
  fd_ = fd;
  size_ = kHeaderBytes;
  records_ = 0;
  return fsyncDir(options_.dir);
}

Status AuditLog::rotate() {
  if (fd_ >= 0) {
    ::close(fd_);
    fd_ = -1;
  }
  const std::string base = options_.dir + "/";
  if (::unlink((base + fileName(options_.maxFiles - 1)).c_str()) != 0 && errno != ENOENT) {
    return ioError(errno, "audit: cannot remove the oldest file " + base + fileName(options_.maxFiles - 1));
  }
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
  const std::uint64_t recordBytes = kFrameBytes + cipherLen;
  if (kHeaderBytes + recordBytes > options_.maxFileBytes) {
    sodium_memzero(plain->data(), plain->size());
    return makeError(Errc::invalid_argument, "audit: a record of " + std::to_string(recordBytes) +
                                                 " bytes does not fit in one audit file (privacy.audit.max-file-kib)");
  }
  std::lock_guard lock(mutex_);
  if (fd_ < 0 || size_ + recordBytes > options_.maxFileBytes) {
    if (Status s = fd_ < 0 ? startFresh() : rotate(); !s) {
      sodium_memzero(plain->data(), plain->size());
      return s;
    }
  }
  std::string out(recordBytes, '\0');
  auto* o = reinterpret_cast<unsigned char*>(out.data());
  for (int i = 0; i < 4; ++i) o[i] = static_cast<unsigned char>(cipherLen >> (8 * i));
  randombytes_buf(o + 4, kNonceBytes);
  const auto ad = associatedData(header_, records_, static_cast<std::uint32_t>(cipherLen));
  unsigned long long written = 0;
  crypto_aead_xchacha20poly1305_ietf_encrypt(o + kFrameBytes, &written,
                                             reinterpret_cast<const unsigned char*>(plain->data()), plain->size(),
                                             ad.data(), ad.size(), nullptr, o + 4, key_.bytes().data());
  sodium_memzero(plain->data(), plain->size());
  if (!pwriteAll(fd_, out.data(), out.size(), static_cast<off_t>(size_)) || ::fdatasync(fd_) != 0) {
    const int e = errno;
    // Nothing half-written stays: cut back to the last whole record (best effort; recover() also handles it).
    [[maybe_unused]] const int ignored = ::ftruncate(fd_, static_cast<off_t>(size_));
    return ioError(e, "audit: cannot write " + options_.dir + "/" + fileName(0));
  }
  size_ += recordBytes;
  ++records_;
  return {};
}

Result<AuditReadout> readAuditLog(const std::string& dir, const hal::SecretKey& key) {
  if (sodium_init() < 0) return makeError(Errc::internal, "audit: libsodium failed to initialize");
  AuditReadout out;
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0) {
    if (errno == ENOENT) return out;
    return ioError(errno, "audit: cannot read directory " + dir);
  }
  if (!S_ISDIR(st.st_mode)) return makeError(Errc::invalid_argument, "audit: " + dir + " is not a directory");
  if (::access(dir.c_str(), R_OK | X_OK) != 0) return ioError(errno, "audit: cannot read directory " + dir);
  for (std::uint32_t k = kMaxFilesScanned + 1; k-- > 0;) {  // oldest first
    const std::string path = dir + "/" + fileName(k);
    if (::lstat(path.c_str(), &st) != 0) continue;
    auto data = readWhole(path);
    if (!data) {
      out.problems.push_back(data.error().message);
      ++out.tampered;
      continue;
    }
    ParsedFile f = parseFile(fileName(k), *data, key);
    for (AuditRecord& r : f.records) out.records.push_back(std::move(r));
    for (std::string& p : f.problems) out.problems.push_back(std::move(p));
    out.tampered += f.tampered;
    out.torn += f.torn ? 1 : 0;
  }
  return out;
}

}  // namespace sotto::privacy
