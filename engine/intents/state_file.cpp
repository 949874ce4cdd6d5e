// SPDX-License-Identifier: MIT
// Reminder state file: encoding, checksum, atomic write (temp + fsync + rename + directory fsync) and a loader
// that never fails: a bad file is set aside and reported.
#include "engine/intents/state_file.h"

#include "sotto/hal/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>

namespace sotto::intents {
namespace {

constexpr std::string_view kMagic = "sotto-reminders";

constexpr std::array<std::uint32_t, 256> makeCrcTable() {
  std::array<std::uint32_t, 256> t{};
  for (std::uint32_t i = 0; i < 256; ++i) {
    std::uint32_t c = i;
    for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
    t[i] = c;
  }
  return t;
}
constexpr auto kCrcTable = makeCrcTable();

bool nameByteIsPlain(unsigned char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '\''; }

void encodeName(std::string_view name, std::string& out) {
  if (name.empty()) {
    out += '-';
    return;
  }
  static constexpr char kHex[] = "0123456789ABCDEF";
  for (unsigned char c : name) {
    if (nameByteIsPlain(c)) {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
}

int hexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

bool decodeName(std::string_view field, std::string& out) {
  out.clear();
  if (field == "-") return true;
  for (std::size_t i = 0; i < field.size(); ++i) {
    const char c = field[i];
    if (c == '%') {
      if (i + 2 >= field.size()) return false;
      const int hi = hexValue(field[i + 1]), lo = hexValue(field[i + 2]);
      if (hi < 0 || lo < 0) return false;
      out += static_cast<char>(hi * 16 + lo);
      i += 2;
    } else if (nameByteIsPlain(static_cast<unsigned char>(c))) {
      out += c;
    } else {
      return false;
    }
  }
  return !out.empty() && out.size() <= 64;
}

std::vector<std::string_view> splitFields(std::string_view line) {
  std::vector<std::string_view> f;
  std::size_t i = 0;
  while (i < line.size()) {
    const std::size_t j = line.find(' ', i);
    const std::size_t end = j == std::string_view::npos ? line.size() : j;
    f.push_back(line.substr(i, end - i));
    if (j == std::string_view::npos) break;
    i = j + 1;
  }
  return f;
}

template <typename T>
bool parseInt(std::string_view s, T& v) {
  if (s.empty()) return false;
  const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

// A deadline must be a wall-clock instant before 2200, so a flipped high bit is caught even if the checksum were to
// collide. Early instants are fine: a device without a real-time clock runs in 1970 until NTP sets the time.
bool plausibleDeadline(std::int64_t ms) { return ms > 0 && ms < 7258118400000LL; }

Error corrupt(std::string what) { return makeError(Errc::corrupt, std::move(what)); }

std::string osError(const std::string& what, int err) { return what + ": " + std::strerror(err); }

void sortByDeadline(ReminderState& s) {
  std::stable_sort(s.timers.begin(), s.timers.end(), [](const Timer& a, const Timer& b) { return a.deadlineMs < b.deadlineMs; });
  std::stable_sort(s.alarms.begin(), s.alarms.end(), [](const Alarm& a, const Alarm& b) { return a.deadlineMs < b.deadlineMs; });
}

std::string utcStamp(std::int64_t nowMs) {
  const std::int64_t s = nowMs / 1000;
  const std::int64_t days = s / 86400;
  // Civil date without the time-zone machinery: the set-aside name only needs to be unique and sortable.
  const std::int64_t z = days + 719468, era = z / 146097, doe = z - era * 146097;
  const std::int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const std::int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100), mp = (5 * doy + 2) / 153;
  const std::int64_t d = doy - (153 * mp + 2) / 5 + 1, m = mp < 10 ? mp + 3 : mp - 9, y = yoe + era * 400 + (m <= 2);
  char buf[96];
  std::snprintf(buf, sizeof buf, "%04lld%02lld%02lldT%02lld%02lld%02lldZ", static_cast<long long>(y),
                static_cast<long long>(m), static_cast<long long>(d), static_cast<long long>(s % 86400 / 3600),
                static_cast<long long>(s % 3600 / 60), static_cast<long long>(s % 60));
  return buf;
}

}  // namespace

std::uint32_t crc32(std::string_view bytes) noexcept {
  std::uint32_t c = 0xFFFFFFFFu;
  for (unsigned char b : bytes) c = kCrcTable[(c ^ b) & 0xFF] ^ (c >> 8);
  return c ^ 0xFFFFFFFFu;
}

std::string encodeReminderState(const ReminderState& state) {
  std::string out;
  out += kMagic;
  out += ' ';
  out += std::to_string(kReminderStateVersion);
  out += "\nnext-id " + std::to_string(state.nextId) + "\n";
  std::size_t records = 0;
  for (const Timer& t : state.timers) {
    out += "timer " + std::to_string(t.id) + " " + std::to_string(t.durationMs) + " " + std::to_string(t.deadlineMs) + " ";
    encodeName(t.name, out);
    out += '\n';
    ++records;
  }
  for (const Alarm& a : state.alarms) {
    char hhmm[8];
    std::snprintf(hhmm, sizeof hhmm, "%02d:%02d", a.hour % 100, a.minute % 100);
    out += "alarm " + std::to_string(a.id) + " " + hhmm + " " + std::to_string(a.deadlineMs) + "\n";
    ++records;
  }
  char end[48];
  std::snprintf(end, sizeof end, "end %zu %08x\n", records, crc32(out));
  out += end;
  return out;
}

Result<ReminderState> decodeReminderState(std::string_view bytes) {
  if (bytes.empty()) return corrupt("empty file");
  if (bytes.size() > kMaxReminderStateBytes) return corrupt("larger than " + std::to_string(kMaxReminderStateBytes) + " bytes");
  if (bytes.back() != '\n') return corrupt("truncated (no final newline)");
  // The last line is the trailer; everything before it is covered by the checksum.
  const std::size_t lastStart = bytes.rfind('\n', bytes.size() - 2);
  const std::size_t trailerAt = lastStart == std::string_view::npos ? 0 : lastStart + 1;
  const auto trailer = splitFields(bytes.substr(trailerAt, bytes.size() - 1 - trailerAt));
  const std::string_view body = bytes.substr(0, trailerAt);
  if (trailer.size() != 3 || trailer[0] != "end") return corrupt("truncated (no end record)");
  std::size_t records = 0;
  std::uint32_t crc = 0;
  const bool lowerHex = std::all_of(trailer[2].begin(), trailer[2].end(),
                                    [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
  if (!parseInt(trailer[1], records) || trailer[2].size() != 8 || !lowerHex ||
      std::from_chars(trailer[2].data(), trailer[2].data() + 8, crc, 16).ptr != trailer[2].data() + 8) {
    return corrupt("malformed end record");
  }
  if (crc32(body) != crc) return corrupt("checksum mismatch (damaged or partly written)");

  ReminderState s;
  std::size_t lineNo = 0, pos = 0, seen = 0;
  bool haveNextId = false;
  while (pos < body.size()) {
    const std::size_t nl = body.find('\n', pos);
    const std::string_view line = body.substr(pos, nl - pos);
    pos = nl + 1;
    ++lineNo;
    const auto f = splitFields(line);
    const std::string bad = "bad record on line " + std::to_string(lineNo);
    if (lineNo == 1) {
      int version = 0;
      if (f.size() != 2 || f[0] != kMagic || !parseInt(f[1], version)) return corrupt("not a reminders state file");
      if (version != kReminderStateVersion) {
        return makeError(Errc::unsupported, "format version " + std::to_string(version) + " (this build reads " +
                                                std::to_string(kReminderStateVersion) + ")");
      }
      continue;
    }
    if (f.empty()) return corrupt(bad);
    if (f[0] == "next-id" && f.size() == 2 && !haveNextId) {
      if (!parseInt(f[1], s.nextId) || s.nextId == 0) return corrupt(bad);
      haveNextId = true;
    } else if (f[0] == "timer" && f.size() == 5) {
      Timer t;
      if (!parseInt(f[1], t.id) || !parseInt(f[2], t.durationMs) || !parseInt(f[3], t.deadlineMs) ||
          !decodeName(f[4], t.name) || t.id == 0 || t.durationMs <= 0 || !plausibleDeadline(t.deadlineMs)) {
        return corrupt(bad);
      }
      s.timers.push_back(std::move(t));
      ++seen;
    } else if (f[0] == "alarm" && f.size() == 4) {
      Alarm a;
      const std::string_view hm = f[2];
      if (!parseInt(f[1], a.id) || hm.size() != 5 || hm[2] != ':' || !parseInt(hm.substr(0, 2), a.hour) ||
          !parseInt(hm.substr(3, 2), a.minute) || a.hour > 23 || a.minute > 59 || !parseInt(f[3], a.deadlineMs) ||
          a.id == 0 || !plausibleDeadline(a.deadlineMs)) {
        return corrupt(bad);
      }
      s.alarms.push_back(a);
      ++seen;
    } else {
      return corrupt(bad);
    }
  }
  if (lineNo == 0) return corrupt("not a reminders state file");
  if (!haveNextId) return corrupt("no next-id record");
  if (seen != records) return corrupt("record count mismatch");
  for (const Timer& t : s.timers) {
    if (t.id >= s.nextId) return corrupt("timer id beyond next-id");
  }
  for (const Alarm& a : s.alarms) {
    if (a.id >= s.nextId) return corrupt("alarm id beyond next-id");
  }
  sortByDeadline(s);
  return s;
}

Status ensureStateDir(const std::string& dir) {
  struct stat st{};
  if (::stat(dir.c_str(), &st) != 0) {
    if (errno != ENOENT || ::mkdir(dir.c_str(), 0700) != 0) {
      if (errno == EEXIST) return {};  // another process made it in between
      return makeError(Errc::io, osError("cannot create state directory " + dir, errno));
    }
  } else if (!S_ISDIR(st.st_mode)) {
    return makeError(Errc::io, dir + " is not a directory");
  }
  return {};
}

Status writeFileAtomic(const std::string& dir, const std::string& name, std::string_view bytes) {
  const std::string path = dir + "/" + name;
  if (Status d = ensureStateDir(dir); !d) return makeError(d.error().code, "cannot save " + path + ": " + d.error().message);
  // The one crash-safe write (temp file, fsync, rename, fsync of the directory).
  const auto* p = reinterpret_cast<const std::uint8_t*>(bytes.data());
  return hal::writeFileAtomic(path, std::span<const std::uint8_t>(p, bytes.size()), 0600);
}

Result<hal::FileLock> lockReminderState(const std::string& dir) {
  if (Status d = ensureStateDir(dir); !d) return d.error();
  return hal::FileLock::exclusive(dir + "/" + kReminderStateFile);
}

StateLoad loadReminderStateFile(const std::string& dir, std::int64_t nowMs) {
  auto lock = lockReminderState(dir);
  if (!lock) {
    StateLoad out;
    // Unlocked, the leftovers could be a live writer's: read what is there and leave them.
    out.warnings.push_back("cannot lock the timers and alarms (" + lock.error().message + "); reading them unlocked");
    StateLoad rest = readReminderStateLocked(dir, nowMs, false);
    rest.warnings.insert(rest.warnings.begin(), out.warnings.begin(), out.warnings.end());
    return rest;
  }
  return readReminderStateLocked(dir, nowMs, true);
}

StateLoad readReminderStateLocked(const std::string& dir, std::int64_t nowMs, bool removeLeftovers) {
  StateLoad out;
  const std::string path = dir + "/" + kReminderStateFile;
  // A temp file seen under the lock was left by a writer that died (every writer writes under it): the main file
  // is the last complete state. Another process's live save is never one of them.
  if (removeLeftovers) {
    hal::TempCleanup c = hal::removeLeftoverTemps(path);
    for (const std::string& r : c.removed) {
      out.warnings.push_back("removed " + r + ", left by an interrupted save; using the last complete state");
    }
    for (std::string& p : c.problems) out.warnings.push_back(std::move(p) + ", left by an interrupted save");
  }
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno != ENOENT) out.warnings.push_back(osError("cannot read " + path + "; starting without timers or alarms", errno));
    return out;
  }
  std::string bytes;
  bool tooBig = false;
  char buf[8192];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      out.warnings.push_back(osError("cannot read " + path + "; starting without timers or alarms", errno));
      ::close(fd);
      return out;
    }
    if (n == 0) break;
    bytes.append(buf, static_cast<std::size_t>(n));
    if (bytes.size() > kMaxReminderStateBytes) {
      tooBig = true;
      break;
    }
  }
  ::close(fd);
  Result<ReminderState> decoded = tooBig ? Result<ReminderState>(corrupt("larger than " + std::to_string(kMaxReminderStateBytes) + " bytes"))
                                         : decodeReminderState(bytes);
  if (decoded) {
    out.state = std::move(*decoded);
    return out;
  }
  out.corrupt = true;
  std::string aside = path + ".corrupt-" + utcStamp(nowMs);
  for (int n = 1; ::access(aside.c_str(), F_OK) == 0 && n < 100; ++n) {
    aside = path + ".corrupt-" + utcStamp(nowMs) + "-" + std::to_string(n);
  }
  if (::rename(path.c_str(), aside.c_str()) == 0) {
    out.setAsidePath = aside;
    out.warnings.push_back(path + " is unreadable (" + decoded.error().message + "); set aside as " + aside +
                           "; starting without timers or alarms");
  } else {
    out.warnings.push_back(path + " is unreadable (" + decoded.error().message + ") and cannot be set aside (" +
                           std::strerror(errno) + "); starting without timers or alarms");
  }
  return out;
}

}  // namespace sotto::intents
