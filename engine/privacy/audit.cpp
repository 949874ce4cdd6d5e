// SPDX-License-Identifier: MIT
// Audit log: per-record XChaCha20-Poly1305, a keyed-BLAKE2b MAC chain across records and files, a sealed head
// replaced atomically, rotation, torn-tail recovery; format-1 files (before the chain) still read.
#include "engine/privacy/audit.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <initializer_list>
#include <string_view>

#include <sodium.h>

#include "sotto/hal/atomic_file.h"
#include "sotto/hal/log.h"

namespace sotto::privacy {
namespace {

using Mac = std::array<unsigned char, AuditLog::kMacBytes>;
using LogId = std::array<unsigned char, AuditLog::kLogIdBytes>;

constexpr char kMagic[8] = {'S', 'O', 'T', 'T', 'O', 'A', 'U', 'D'};
constexpr char kHeadMagic[8] = {'S', 'O', 'T', 'T', 'O', 'A', 'H', 'D'};
constexpr std::uint32_t kLegacyVersion = 1;
constexpr std::uint32_t kVersion = 2;
constexpr std::size_t kMacBytes = AuditLog::kMacBytes;
constexpr std::size_t kIdBytes = AuditLog::kLogIdBytes;
constexpr std::size_t kLegacyHeaderBytes = 32;  // magic 8 | version u32 | reserved u32 | file id 16
// magic 8 | version u32 | reserved u32 | log id 16 | first record u64 | previous MAC 32 | header MAC 32
constexpr std::size_t kHeaderMacAt = 8 + 4 + 4 + kIdBytes + 8 + kMacBytes;
constexpr std::size_t kHeaderBytes = kHeaderMacAt + kMacBytes;
// magic 8 | version u32 | reserved u32 | log id 16 | first kept u64 | next u64 | last MAC 32 | head MAC 32
constexpr std::size_t kHeadMacAt = 8 + 4 + 4 + kIdBytes + 8 + 8 + kMacBytes;
constexpr std::size_t kHeadBytes = kHeadMacAt + kMacBytes;
constexpr std::size_t kNonceBytes = crypto_aead_xchacha20poly1305_ietf_NPUBBYTES;
constexpr std::size_t kTagBytes = crypto_aead_xchacha20poly1305_ietf_ABYTES;
constexpr std::size_t kLegacyFrameBytes = 4 + kNonceBytes;  // length + nonce before the ciphertext
constexpr std::size_t kFrameBytes = 4 + 8 + kNonceBytes;    // length + number + nonce before the ciphertext
constexpr std::size_t kMinPlainBytes = 1 + 8 + 2 + 2 + 2 + 4;   // version, time, three u16 lengths, u32 length
constexpr std::size_t kMaxCipherBytes = 64u * 1024 * 1024;      // no file is larger (privacy.audit.max-file-kib)
constexpr std::uint32_t kMaxFilesScanned = 64;                  // highest rotated index read or cleaned up
constexpr std::uint8_t kRecordVersion = 1;
constexpr int kReadAttempts = 3;

static_assert(crypto_aead_xchacha20poly1305_ietf_KEYBYTES == hal::kKeyBytes);
static_assert(crypto_kdf_KEYBYTES == hal::kKeyBytes && crypto_generichash_KEYBYTES_MAX >= hal::kKeyBytes);

std::string fileName(std::uint32_t k) { return k == 0 ? "audit.log" : "audit.log." + std::to_string(k); }
// Records are numbered from 1 for people.
std::string recordName(std::uint64_t index) { return "record " + std::to_string(index + 1); }

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
void putBytes(std::string& out, std::span<const unsigned char> b) {
  out.append(reinterpret_cast<const char*>(b.data()), b.size());
}
std::uint64_t getLe(const unsigned char* p, int bytes) {
  std::uint64_t v = 0;
  for (int i = bytes - 1; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}
std::span<const unsigned char> bytesOf(std::string_view s) {
  return {reinterpret_cast<const unsigned char*>(s.data()), s.size()};
}
bool sameMac(const unsigned char* a, const unsigned char* b) { return sodium_memcmp(a, b, kMacBytes) == 0; }

// Keyed BLAKE2b-256 over the parts, after a domain string that keeps headers, heads and records apart.
Mac keyedMac(const hal::SecretKey& key, std::string_view domain, std::initializer_list<std::span<const unsigned char>> parts) {
  crypto_generichash_state st;
  crypto_generichash_init(&st, key.bytes().data(), key.bytes().size(), kMacBytes);
  crypto_generichash_update(&st, bytesOf(domain).data(), domain.size() + 1);  // with the NUL: unambiguous
  for (auto p : parts) crypto_generichash_update(&st, p.data(), p.size());
  Mac out;
  crypto_generichash_final(&st, out.data(), out.size());
  return out;
}

// The subkeys of format 2; format 1 used the given key directly for its encryption.
struct AuditKeys {
  hal::SecretKey legacy, enc, mac;
};
AuditKeys deriveKeys(const hal::SecretKey& key) {
  AuditKeys k;
  std::memcpy(k.legacy.mutableBytes().data(), key.bytes().data(), hal::kKeyBytes);
  crypto_kdf_derive_from_key(k.enc.mutableBytes().data(), hal::kKeyBytes, 1, "auditenc", key.bytes().data());
  crypto_kdf_derive_from_key(k.mac.mutableBytes().data(), hal::kKeyBytes, 2, "auditmac", key.bytes().data());
  return k;
}

Mac genesisMac(const hal::SecretKey& macKey, const LogId& logId) {
  return keyedMac(macKey, "sotto-audit-genesis-v2", {logId});
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

// Decrypts one ciphertext; false when it does not authenticate or does not decode.
enum class Opened { ok, unauthenticated, malformed };
Opened openRecord(const hal::SecretKey& key, const unsigned char* nonce, const unsigned char* cipher,
                  std::size_t len, std::span<const unsigned char> ad, AuditRecord& out) {
  std::vector<unsigned char> plain(len - kTagBytes);
  unsigned long long plainLen = 0;
  Opened result = Opened::ok;
  if (crypto_aead_xchacha20poly1305_ietf_decrypt(plain.data(), &plainLen, nullptr, cipher, len, ad.data(),
                                                 ad.size(), nonce, key.bytes().data()) != 0) {
    result = Opened::unauthenticated;
  } else if (!decodePlain(plain.data(), plainLen, out)) {
    result = Opened::malformed;
  }
  sodium_memzero(plain.data(), plain.size());
  return result;
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

// The first bytes of a file (its header), for rotation: no need to read a whole file.
Result<std::string> readPrefix(const std::string& path, std::size_t bytes) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) return ioError(errno, "cannot open " + path);
  std::string data(bytes, '\0');
  std::size_t got = 0;
  while (got < bytes) {
    const ssize_t n = ::pread(fd, data.data() + got, bytes - got, static_cast<off_t>(got));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    got += static_cast<std::size_t>(n);
  }
  ::close(fd);
  data.resize(got);
  return data;
}

// The format a file's first bytes announce: 0 when they are no audit header at all.
std::uint32_t versionOf(std::string_view data) {
  if (data.size() < 12 || std::memcmp(data.data(), kMagic, sizeof kMagic) != 0) return 0;
  const auto v = static_cast<std::uint32_t>(getLe(reinterpret_cast<const unsigned char*>(data.data()) + 8, 4));
  return v == kLegacyVersion || v == kVersion ? v : 0;
}

// ---- format 1: per-file records, no chain (read only) ----

struct LegacyFile {
  std::vector<AuditRecord> records;
  std::uint32_t tampered = 0;
  bool torn = false;
  std::vector<std::string> problems;
};

std::array<unsigned char, kLegacyHeaderBytes + 12> legacyAd(const unsigned char* header, std::uint64_t seq,
                                                            std::uint32_t len) {
  std::array<unsigned char, kLegacyHeaderBytes + 12> ad{};
  std::memcpy(ad.data(), header, kLegacyHeaderBytes);
  for (int i = 0; i < 8; ++i) ad[kLegacyHeaderBytes + i] = static_cast<unsigned char>(seq >> (8 * i));
  for (int i = 0; i < 4; ++i) ad[kLegacyHeaderBytes + 8 + i] = static_cast<unsigned char>(len >> (8 * i));
  return ad;
}

LegacyFile parseLegacy(const std::string& name, std::string_view data, const hal::SecretKey& key) {
  LegacyFile f;
  const auto* d = reinterpret_cast<const unsigned char*>(data.data());
  if (data.size() < kLegacyHeaderBytes) {
    ++f.tampered;
    f.problems.push_back(name + ": truncated format-1 header (corrupt or cut)");
    return f;
  }
  std::size_t pos = kLegacyHeaderBytes;
  std::uint64_t count = 0;
  while (pos < data.size()) {
    const std::size_t left = data.size() - pos;
    if (left < kLegacyFrameBytes) {
      f.torn = true;
      break;
    }
    const auto len = static_cast<std::uint32_t>(getLe(d + pos, 4));
    if (len < kMinPlainBytes + kTagBytes || len > kMaxCipherBytes) {
      ++f.tampered;
      f.problems.push_back(name + ": format-1 record " + std::to_string(count + 1) + " at byte " +
                           std::to_string(pos) + " has an impossible length (corrupt or tampered)");
      return f;
    }
    if (left - kLegacyFrameBytes < len) {
      f.torn = true;
      break;
    }
    const auto ad = legacyAd(d, count, len);
    AuditRecord r;
    const Opened o = openRecord(key, d + pos + 4, d + pos + kLegacyFrameBytes, len, ad, r);
    if (o == Opened::ok) {
      f.records.push_back(std::move(r));
    } else {
      ++f.tampered;
      f.problems.push_back(name + ": format-1 record " + std::to_string(count + 1) + " at byte " +
                           std::to_string(pos) +
                           (o == Opened::malformed ? " authenticates but is malformed"
                                                   : " fails authentication (tampered, corrupt or another "
                                                     "device's key)"));
    }
    pos += kLegacyFrameBytes + len;
    ++count;
  }
  if (f.torn) f.problems.push_back(name + ": the final format-1 record is incomplete: skipped");
  return f;
}

// ---- format 2: the chain ----

std::string fileHeader(const hal::SecretKey& macKey, const LogId& logId, std::uint64_t first, const Mac& prev) {
  std::string h(kMagic, sizeof kMagic);
  putU32(h, kVersion);
  putU32(h, 0);
  putBytes(h, logId);
  putU64(h, first);
  putBytes(h, prev);
  const Mac mac = keyedMac(macKey, "sotto-audit-file-v2", {bytesOf(h)});
  putBytes(h, mac);
  return h;
}

std::array<unsigned char, kIdBytes + 12> recordAd(const LogId& logId, std::uint64_t index, std::uint32_t len) {
  std::array<unsigned char, kIdBytes + 12> ad{};
  std::memcpy(ad.data(), logId.data(), kIdBytes);
  for (int i = 0; i < 8; ++i) ad[kIdBytes + i] = static_cast<unsigned char>(index >> (8 * i));
  for (int i = 0; i < 4; ++i) ad[kIdBytes + 8 + i] = static_cast<unsigned char>(len >> (8 * i));
  return ad;
}

Mac chainMac(const hal::SecretKey& macKey, const LogId& logId, const Mac& prev,
             std::span<const unsigned char> frame) {
  return keyedMac(macKey, "sotto-audit-record-v2", {logId, prev, frame});
}

// One format-2 file, checked on its own: header MAC, every record's chain MAC from the header's previous MAC,
// numbers running on from the header's first number.
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

ChainFile parseChain(const std::string& name, std::string_view data, const AuditKeys& keys) {
  ChainFile f;
  const auto* d = reinterpret_cast<const unsigned char*>(data.data());
  auto bad = [&](const std::string& firstBad, const std::string& what) {
    ++f.tampered;
    f.problems.push_back(name + ": " + what);
    if (f.firstBad.empty()) f.firstBad = firstBad;
  };
  if (data.size() < kHeaderBytes) {
    bad("the header of " + name, "the header is cut short (" + std::to_string(data.size()) + " of " +
                                     std::to_string(kHeaderBytes) +
                                     " bytes; files are created whole, so this is a cut or corruption)");
    return f;
  }
  const Mac headerMac = keyedMac(keys.mac, "sotto-audit-file-v2", {std::span(d, kHeaderMacAt)});
  if (!sameMac(headerMac.data(), d + kHeaderMacAt) || getLe(d + 12, 4) != 0) {
    bad("the header of " + name, "the header fails authentication (tampered, corrupt or another device's key)");
    return f;
  }
  f.headerOk = true;
  std::memcpy(f.logId.data(), d + 16, kIdBytes);
  f.firstIndex = getLe(d + 32, 8);
  std::memcpy(f.prevMac.data(), d + 40, kMacBytes);
  f.endIndex = f.firstIndex;
  f.lastMac = f.prevMac;
  f.lastButOneMac = f.prevMac;
  std::size_t pos = kHeaderBytes;
  f.goodEnd = pos;
  while (pos < data.size()) {
    const std::size_t left = data.size() - pos;
    if (left < kFrameBytes) {
      f.torn = true;
      break;
    }
    const auto len = static_cast<std::uint32_t>(getLe(d + pos, 4));
    const std::uint64_t stored = getLe(d + pos + 4, 8);
    const std::string at = "byte " + std::to_string(pos);
    const std::string where = recordName(f.endIndex) + " (" + at + ")";
    const std::string firstBad = recordName(f.endIndex) + " (" + name + ", " + at + ")";
    if (len < kMinPlainBytes + kTagBytes || len > kMaxCipherBytes) {
      bad(firstBad, where + " has an impossible length (corrupt or tampered); the rest of the file is skipped");
      return f;
    }
    if (left < kFrameBytes + kMacBytes || left - kFrameBytes - kMacBytes < len) {
      f.torn = true;
      break;
    }
    const std::span<const unsigned char> frame(d + pos, kFrameBytes + len);
    const unsigned char* storedMac = d + pos + kFrameBytes + len;
    const Mac expect = chainMac(keys.mac, f.logId, f.lastMac, frame);
    const auto ad = recordAd(f.logId, stored, len);
    AuditRecord r;
    const Opened o = openRecord(keys.enc, d + pos + 12, d + pos + kFrameBytes, len, ad, r);
    if (o == Opened::unauthenticated) {
      bad(firstBad, where + " fails authentication (tampered, corrupt or another device's key)");
      f.endIndex += 1;
    } else if (o == Opened::malformed) {
      bad(firstBad, where + " authenticates but is malformed (newer version?)");
      f.endIndex += 1;
    } else {
      // The record itself is genuine (its number is authenticated with it): where does it stand in the chain?
      if (stored > f.endIndex) {
        bad(firstBad, "the record at " + at + " is " + recordName(stored) + " where " + recordName(f.endIndex) +
                          " belongs: " +
                          (stored - f.endIndex == 1 ? recordName(f.endIndex)
                                                    : "records " + std::to_string(f.endIndex + 1) + ".." +
                                                          std::to_string(stored)) +
                          " deleted or moved");
      } else if (stored < f.endIndex) {
        bad(firstBad, "the record at " + at + " is " + recordName(stored) + " where " + recordName(f.endIndex) +
                          " belongs: records reordered or duplicated");
      } else if (!sameMac(expect.data(), storedMac)) {
        bad(firstBad, where + " does not chain to the record before it (fails authentication: replaced, "
                              "reordered or spliced from another copy)");
      }
      f.records.push_back(std::move(r));
      f.endIndex = stored + 1;
    }
    f.lastButOneMac = f.lastMac;
    std::memcpy(f.lastMac.data(), storedMac, kMacBytes);  // resynchronize on what is there
    pos += kFrameBytes + len + kMacBytes;
    f.goodEnd = pos;
    ++f.framed;
  }
  return f;
}

// ---- the sealed head ----

struct Head {
  enum class State { missing, corrupt, ok } state = State::missing;
  std::string why;  // for corrupt
  LogId logId{};
  std::uint64_t firstIndex = 0;
  std::uint64_t nextIndex = 0;
  Mac lastMac{};
};

std::string headBytes(const hal::SecretKey& macKey, const LogId& logId, std::uint64_t first, std::uint64_t next,
                      const Mac& last) {
  std::string h(kHeadMagic, sizeof kHeadMagic);
  putU32(h, kVersion);
  putU32(h, 0);
  putBytes(h, logId);
  putU64(h, first);
  putU64(h, next);
  putBytes(h, last);
  const Mac mac = keyedMac(macKey, "sotto-audit-head-v2", {bytesOf(h)});
  putBytes(h, mac);
  return h;
}

Head readHead(const std::string& dir, const hal::SecretKey& macKey) {
  Head h;
  auto data = hal::readFile(dir + "/" + kAuditHeadName, 4096);
  if (!data) {
    if (data.error().code == Errc::not_found) return h;
    h.state = Head::State::corrupt;
    h.why = data.error().message;
    return h;
  }
  const unsigned char* d = data->data();
  if (data->size() != kHeadBytes || std::memcmp(d, kHeadMagic, sizeof kHeadMagic) != 0 ||
      getLe(d + 8, 4) != kVersion) {
    h.state = Head::State::corrupt;
    h.why = "not a sealed head of this version (" + std::to_string(data->size()) + " bytes)";
    return h;
  }
  const Mac mac = keyedMac(macKey, "sotto-audit-head-v2", {std::span(d, kHeadMacAt)});
  if (!sameMac(mac.data(), d + kHeadMacAt)) {
    h.state = Head::State::corrupt;
    h.why = "fails authentication (tampered, corrupt or another device's key)";
    return h;
  }
  h.state = Head::State::ok;
  std::memcpy(h.logId.data(), d + 16, kIdBytes);
  h.firstIndex = getLe(d + 32, 8);
  h.nextIndex = getLe(d + 40, 8);
  std::memcpy(h.lastMac.data(), d + 48, kMacBytes);
  if (h.nextIndex < h.firstIndex) {
    h.state = Head::State::corrupt;
    h.why = "authenticates but is inconsistent";
  }
  return h;
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

bool exists(const std::string& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0;
}

// Size, modification time and inode of the head and every file: equal before and after a read means that no
// write raced it.
std::string dirSignature(const std::string& dir) {
  std::string sig;
  for (std::uint32_t k = 0; k <= kMaxFilesScanned + 1; ++k) {
    const std::string path = dir + "/" + (k > kMaxFilesScanned ? std::string(kAuditHeadName) : fileName(k));
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0) continue;
    sig += std::to_string(k) + ":" + std::to_string(st.st_ino) + "," + std::to_string(st.st_size) + "," +
           std::to_string(st.st_mtim.tv_sec) + "." + std::to_string(st.st_mtim.tv_nsec) + ";";
  }
  return sig;
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

// The whole log read once: every file oldest first, checked against the head.
AuditReadout readOnce(const std::string& dir, const AuditKeys& keys) {
  AuditReadout out;
  auto bad = [&](const std::string& problem, const std::string& firstBad) {
    ++out.tampered;
    out.problems.push_back(problem);
    if (out.firstBad.empty()) out.firstBad = firstBad;
  };
  const Head head = readHead(dir, keys.mac);
  if (head.state == Head::State::corrupt) {
    bad(std::string(kAuditHeadName) + ": " + head.why + ": the end of the log cannot be checked",
        "the sealed head");
  }
  bool anyChained = false;     // a format-2 file was seen (a format-1 file after it is out of place)
  bool haveChain = false;      // a format-2 file of the head's log was seen
  std::uint64_t chainEnd = 0;  // of the head's log
  Mac chainLast{}, chainLastButOne{};
  for (std::uint32_t k = kMaxFilesScanned + 1; k-- > 0;) {  // oldest first
    const std::string name = fileName(k);
    const std::string path = dir + "/" + name;
    if (!exists(path)) continue;
    auto data = readWhole(path);
    if (!data) {
      bad(data.error().message, name);
      continue;
    }
    const std::uint32_t version = versionOf(*data);
    if (version == kLegacyVersion) {
      LegacyFile f = parseLegacy(name, *data, keys.legacy);
      ++out.legacy;
      out.notes.push_back(name + ": format 1, written before the chain existed: its " +
                          std::to_string(f.records.size()) + " records are shown, but a cut in it cannot be detected");
      if (anyChained) bad(name + ": a format-1 file newer than chained files (files renamed or put back)", name);
      for (AuditRecord& r : f.records) out.records.push_back(std::move(r));
      for (std::string& p : f.problems) (f.tampered > 0 ? out.problems : out.notes).push_back(std::move(p));
      if (f.tampered > 0) {
        out.tampered += f.tampered;
        if (out.firstBad.empty()) out.firstBad = "a format-1 record (" + name + ")";
      }
      out.torn += f.torn ? 1 : 0;
      continue;
    }
    if (version != kVersion && data->size() >= sizeof kMagic + 4) {
      bad(name + ": not an audit log file of a known version (corrupt header): skipped", name);
      continue;
    }
    anyChained = true;
    ChainFile f = parseChain(name, *data, keys);
    if (!f.headerOk) {
      out.tampered += f.tampered;
      for (std::string& p : f.problems) out.problems.push_back(std::move(p));
      if (out.firstBad.empty()) out.firstBad = f.firstBad;
      continue;
    }
    const bool ours = head.state == Head::State::ok && f.logId == head.logId;
    if (head.state == Head::State::ok && !ours) {
      bad(name + ": belongs to another chain than the sealed head (the head was replaced or lost, or the file "
                 "comes from another copy)",
          recordName(f.firstIndex) + " (" + name + ")");
    } else if (ours && !haveChain && f.firstIndex > head.firstIndex) {
      bad(name + ": starts at " + recordName(f.firstIndex) + " but the head keeps records from " +
              std::to_string(head.firstIndex + 1) + ": records " + std::to_string(head.firstIndex + 1) + ".." +
              std::to_string(f.firstIndex) + " deleted (an older file removed)",
          recordName(head.firstIndex) + " (before " + name + ")");
    } else if (ours && haveChain) {
      if (f.firstIndex > chainEnd) {
        bad(name + ": starts at " + recordName(f.firstIndex) + " but the file before it ends at record " +
                std::to_string(chainEnd) + ": records " + std::to_string(chainEnd + 1) + ".." +
                std::to_string(f.firstIndex) + " deleted (a file removed or cut)",
            recordName(chainEnd) + " (before " + name + ")");
      } else if (f.firstIndex < chainEnd) {
        bad(name + ": starts at " + recordName(f.firstIndex) + ", before the file older than it ends (record " +
                std::to_string(chainEnd) + "): files reordered or an old copy put back",
            recordName(f.firstIndex) + " (" + name + ")");
      } else if (!sameMac(f.prevMac.data(), chainLast.data())) {
        bad(name + ": does not continue the chain of the file before it (fails authentication: replaced or "
                   "spliced)",
            recordName(f.firstIndex) + " (" + name + ")");
      }
    }
    out.tampered += f.tampered;
    for (std::string& p : f.problems) out.problems.push_back(std::move(p));
    if (out.firstBad.empty()) out.firstBad = f.firstBad;
    if (f.torn) {
      ++out.torn;
      out.notes.push_back(name + ": the final record is incomplete (" + std::to_string(data->size() - f.goodEnd) +
                          " bytes; crash while appending): skipped");
    }
    for (AuditRecord& r : f.records) out.records.push_back(std::move(r));
    if (ours) {
      haveChain = true;
      chainEnd = f.endIndex;
      chainLast = f.lastMac;
      chainLastButOne = f.lastButOneMac;
    }
  }
  if (head.state == Head::State::missing) {
    if (anyChained) {
      bad(std::string(kAuditHeadName) + " is missing: a cut at the end of the log cannot be ruled out (deleted?)",
          "the sealed head");
    }
    return out;
  }
  if (head.state != Head::State::ok) return out;
  if (!haveChain) {
    if (head.nextIndex > head.firstIndex) {
      bad("the head seals records " + std::to_string(head.firstIndex + 1) + ".." + std::to_string(head.nextIndex) +
              " but no file holds them: deleted",
          recordName(head.firstIndex));
    }
    return out;
  }
  if (chainEnd == head.nextIndex && sameMac(chainLast.data(), head.lastMac.data())) return out;
  if (chainEnd == head.nextIndex + 1 && sameMac(chainLastButOne.data(), head.lastMac.data())) {
    out.notes.push_back("the head lags by the last record (" + recordName(head.nextIndex) +
                        ", a crash after appending or a write in progress); that record verifies against the chain");
    return out;
  }
  if (chainEnd < head.nextIndex) {
    bad("the log ends at record " + std::to_string(chainEnd) + " but the sealed head counts " +
            std::to_string(head.nextIndex) + ": " +
            (head.nextIndex - chainEnd == 1 ? recordName(chainEnd)
                                            : "records " + std::to_string(chainEnd + 1) + ".." +
                                                  std::to_string(head.nextIndex)) +
            " cut off (truncated)",
        recordName(chainEnd));
  } else {
    bad("the log's end (record " + std::to_string(chainEnd) + ") does not match the sealed head (record " +
            std::to_string(head.nextIndex) + "): replaced, extended or rolled back",
        recordName(std::min(chainEnd, head.nextIndex)));
  }
  return out;
}

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

Result<AuditReadout> readAuditLog(const std::string& dir, const hal::SecretKey& key) {
  if (sodium_init() < 0) return makeError(Errc::internal, "audit: libsodium failed to initialize");
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0) {
    if (errno == ENOENT) return AuditReadout{};
    return ioError(errno, "audit: cannot read directory " + dir);
  }
  if (!S_ISDIR(st.st_mode)) return makeError(Errc::invalid_argument, "audit: " + dir + " is not a directory");
  if (::access(dir.c_str(), R_OK | X_OK) != 0) return ioError(errno, "audit: cannot read directory " + dir);
  const AuditKeys keys = deriveKeys(key);
  // The daemon may append or rotate while we read: a verdict counts only when no file changed under the read
  // (what a writer leaves between two of its steps is clean by the crash rule; a real fault persists).
  AuditReadout out;
  for (int attempt = 0; attempt < kReadAttempts; ++attempt) {
    const std::string before = dirSignature(dir);
    out = readOnce(dir, keys);
    if (out.tampered == 0 || dirSignature(dir) == before) break;
  }
  return out;
}

}  // namespace sotto::privacy
