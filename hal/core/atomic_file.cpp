// SPDX-License-Identifier: MIT
// writeFileAtomic, readFile, setAside: the one implementation of crash-safe persistence.
#include "sotto/hal/atomic_file.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <mutex>

namespace sotto::hal {
namespace {

Error osError(const std::string& what, int err) {
  Errc code = Errc::io;
  if (err == EACCES || err == EPERM || err == EROFS) code = Errc::permission;
  if (err == ENOENT) code = Errc::not_found;
  return makeError(code, what + ": " + std::strerror(err));
}

// write(2) until done: it may write less than asked (signals) without failing.
bool writeAll(int fd, const uint8_t* p, size_t n) {
  while (n > 0) {
    const ssize_t w = ::write(fd, p, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    p += w;
    n -= static_cast<size_t>(w);
  }
  return true;
}

std::atomic<int> injectedError{0};
std::mutex diskFullMutex;
std::optional<DiskFull> lastDiskFull;  // guarded by diskFullMutex

}  // namespace

void noteWriteResult(const std::string& path, int error) {
  const bool full = error == ENOSPC || error == EDQUOT;
  std::lock_guard lock(diskFullMutex);
  if (full) {
    lastDiskFull = DiskFull{path, error};
  } else if (error == 0 && lastDiskFull) {
    // A write that succeeded on the same file system: it takes writes again.
    const std::string before = directoryOf(lastDiskFull->path), now = directoryOf(path);
    struct stat a {}, b {};
    if (before == now ||
        (::stat(before.c_str(), &a) == 0 && ::stat(now.c_str(), &b) == 0 && a.st_dev == b.st_dev)) {
      lastDiskFull.reset();
    }
  }
}

std::optional<DiskFull> diskFull() {
  std::lock_guard lock(diskFullMutex);
  return lastDiskFull;
}

void injectWriteFailure(int error) { injectedError.store(error, std::memory_order_relaxed); }

std::string directoryOf(const std::string& path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

namespace {

// The write itself; `err` is the errno of a failure (0 when it is no system error).
Status writeAtomically(const std::string& path, std::span<const std::span<const uint8_t>> parts, mode_t mode,
                       int& err) {
  if (const int injected = injectedError.load(std::memory_order_relaxed); injected != 0) {
    err = injected;
    return osError("cannot write " + path + " (injected fault)", injected);
  }
  std::string tmp = path + ".tmp-XXXXXX";
  const int fd = ::mkostemp(tmp.data(), O_CLOEXEC);
  if (fd < 0) {
    err = errno;
    return osError("cannot create a temporary file in '" + directoryOf(path) + "'", err);
  }
  auto failWith = [&](const std::string& what, int e) -> Status {
    ::close(fd);
    ::unlink(tmp.c_str());
    err = e;
    return osError(what, e);
  };
  for (const auto& part : parts) {
    if (!writeAll(fd, part.data(), part.size())) return failWith("cannot write " + path, errno);
  }
  if (::fchmod(fd, mode) != 0) return failWith("cannot chmod " + tmp, errno);
  // Durable before the rename, or a crash could leave an empty file under the final name.
  if (::fsync(fd) != 0) return failWith("cannot fsync " + tmp, errno);
  if (::close(fd) != 0) {
    err = errno;
    ::unlink(tmp.c_str());
    return osError("cannot close " + tmp, err);
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    err = errno;
    ::unlink(tmp.c_str());
    return osError("cannot rename " + tmp + " to " + path, err);
  }
  // The rename itself is only durable once the directory is synced.
  const std::string dir = directoryOf(path);
  const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd < 0) {
    err = errno;
    return osError("cannot open directory " + dir + " to fsync it", err);
  }
  const int rc = ::fsync(dfd);
  const int syncErr = errno;
  ::close(dfd);
  if (rc != 0) {
    err = syncErr;
    return osError("cannot fsync directory " + dir, err);
  }
  return {};
}

}  // namespace

Status writeFileAtomic(const std::string& path, std::span<const std::span<const uint8_t>> parts, mode_t mode) {
  if (path.empty()) return makeError(Errc::invalid_argument, "cannot write a file with an empty path");
  int err = 0;
  Status s = writeAtomically(path, parts, mode, err);
  if (s || err != 0) noteWriteResult(path, s ? 0 : err);
  return s;
}

Status writeFileAtomic(const std::string& path, std::span<const uint8_t> bytes, mode_t mode) {
  const std::span<const uint8_t> parts[] = {bytes};
  return writeFileAtomic(path, parts, mode);
}

Result<int> openRegularFile(const std::string& path, uint64_t maxBytes, uint64_t* size) {
  // Non-blocking: opening a FIFO for reading would wait for a writer for ever; it is refused below instead.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
  if (fd < 0) return osError("cannot open " + path, errno);
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    const int err = errno;
    ::close(fd);
    return osError("cannot stat " + path, err);
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    const char* what = S_ISDIR(st.st_mode)    ? "a directory"
                       : S_ISFIFO(st.st_mode) ? "a FIFO"
                       : S_ISCHR(st.st_mode)  ? "a character device"
                       : S_ISBLK(st.st_mode)  ? "a block device"
                       : S_ISSOCK(st.st_mode) ? "a socket"
                                              : "not a regular file";
    return makeError(Errc::corrupt, path + " is " + what + ", not a regular file");
  }
  if (static_cast<uint64_t>(st.st_size) > maxBytes) {
    ::close(fd);
    return makeError(Errc::corrupt, path + " is " + std::to_string(st.st_size) + " bytes, more than the " +
                                        std::to_string(maxBytes) + " it may hold");
  }
  const int flags = ::fcntl(fd, F_GETFL);
  if (flags >= 0) (void)::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
  if (size != nullptr) *size = static_cast<uint64_t>(st.st_size);
  return fd;
}

Result<std::vector<uint8_t>> readFile(const std::string& path, uint64_t maxBytes) {
  auto opened = openRegularFile(path, maxBytes, nullptr);
  if (!opened) return std::move(opened).error();
  const int fd = *opened;
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    const int err = errno;
    ::close(fd);
    return osError("cannot stat " + path, err);
  }
  std::vector<uint8_t> out(static_cast<size_t>(st.st_size));
  size_t got = 0;
  while (got < out.size()) {
    const ssize_t r = ::read(fd, out.data() + got, out.size() - got);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) {
      const int err = errno;
      ::close(fd);
      return osError("cannot read " + path, err);
    }
    if (r == 0) break;  // shrank while reading: what we have is what is there
    got += static_cast<size_t>(r);
  }
  ::close(fd);
  out.resize(got);
  return out;
}

Result<FileLock> FileLock::exclusive(const std::string& path) {
  if (path.empty()) return makeError(Errc::invalid_argument, "cannot lock a file with an empty path");
  const std::string lockPath = path + ".lock";
  const int fd = ::open(lockPath.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0) return osError("cannot open the lock file " + lockPath, errno);
  for (;;) {
    if (::flock(fd, LOCK_EX) == 0) break;
    if (errno == EINTR) continue;
    const int err = errno;
    ::close(fd);
    return osError("cannot lock " + lockPath, err);
  }
  return FileLock(fd);
}

FileLock& FileLock::operator=(FileLock&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = other.fd_;
    other.fd_ = -1;
  }
  return *this;
}

FileLock::~FileLock() {
  if (fd_ >= 0) ::close(fd_);  // closing the only descriptor releases the flock
}

TempCleanup removeLeftoverTemps(const std::string& path) {
  TempCleanup out;
  const std::string dir = directoryOf(path);
  const size_t slash = path.rfind('/');
  const std::string prefix = (slash == std::string::npos ? path : path.substr(slash + 1)) + ".tmp-";
  DIR* d = ::opendir(dir.c_str());
  if (d == nullptr) return out;
  std::vector<std::string> names;
  while (const dirent* e = ::readdir(d)) {
    // writeFileAtomic's names: the prefix and exactly mkostemp's six characters.
    if (std::strncmp(e->d_name, prefix.c_str(), prefix.size()) == 0 && std::strlen(e->d_name) == prefix.size() + 6) {
      names.emplace_back(e->d_name);
    }
  }
  ::closedir(d);
  for (const std::string& n : names) {
    const std::string p = dir + "/" + n;
    if (::unlink(p.c_str()) == 0) {
      out.removed.push_back(p);
    } else if (errno != ENOENT) {
      out.problems.push_back("cannot remove " + p + ": " + std::strerror(errno));
    }
  }
  return out;
}

Result<std::string> setAside(const std::string& path) {
  const std::string bad = path + ".bad-" + std::to_string(static_cast<long long>(std::time(nullptr)));
  if (::rename(path.c_str(), bad.c_str()) != 0) return osError("cannot move " + path + " aside", errno);
  return bad;
}

}  // namespace sotto::hal
