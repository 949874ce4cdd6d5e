// SPDX-License-Identifier: MIT
// Reading the audit log (`sotto audit`): every file oldest first, the chain across them, the end against the
// sealed head; format-1 files noted; writes racing the read tolerated.
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <string>

#include "engine/privacy/audit.h"
#include "engine/privacy/audit_format.h"

namespace sotto::privacy {
namespace {

using namespace audit_format;

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
