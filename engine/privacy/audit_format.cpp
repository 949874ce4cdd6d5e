// SPDX-License-Identifier: MIT
// The audit log's on-disk format (see audit_format.h): subkeys, keyed BLAKE2b MACs, records, headers, the chained
// and format-1 parsers, the sealed head.
#include "engine/privacy/audit_format.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "sotto/hal/atomic_file.h"

namespace sotto::privacy::audit_format {

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
Mac keyedMac(const hal::SecretKey& key, std::string_view domain,
             std::initializer_list<std::span<const unsigned char>> parts) {
  crypto_generichash_state st;
  crypto_generichash_init(&st, key.bytes().data(), key.bytes().size(), kMacBytes);
  crypto_generichash_update(&st, bytesOf(domain).data(), domain.size() + 1);  // with the NUL: unambiguous
  for (auto p : parts) crypto_generichash_update(&st, p.data(), p.size());
  Mac out;
  crypto_generichash_final(&st, out.data(), out.size());
  return out;
}

// The subkeys of format 2; format 1 used the given key directly for its encryption.
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

bool exists(const std::string& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0;
}

}  // namespace sotto::privacy::audit_format
