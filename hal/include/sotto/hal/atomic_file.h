// SPDX-License-Identifier: MIT
// Crash-safe file replacement (temp file, fsync, rename, fsync directory) and whole-file reads, shared by every
// piece of persistent state (models written by the quantizer, prefix caches, timers, answer cache, keys, audit).
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "sotto/hal/result.h"

namespace sotto::hal {

// Writes `parts` back to back into a temporary file beside `path`, syncs it, sets `mode`, renames it over `path`
// and syncs the directory: after a power cut the file is either the old one or the complete new one, never a
// torn mix. On any error the temporary file is removed and `path` is untouched. Errors: Errc::permission
// (EACCES, EPERM, EROFS), Errc::io otherwise (ENOSPC: "No space left on device" in the message).
// Any non-real-time thread; blocks on disk I/O.
Status writeFileAtomic(const std::string& path, std::span<const std::span<const uint8_t>> parts, mode_t mode);
Status writeFileAtomic(const std::string& path, std::span<const uint8_t> bytes, mode_t mode);

// Opens `path` for reading only when it is a regular file of at most `maxBytes` (never waiting: a FIFO, a device
// or a directory is refused at once, with what it is); returns the descriptor (the caller closes it) and the size.
// Errors as readFile. Any non-real-time thread.
Result<int> openRegularFile(const std::string& path, uint64_t maxBytes, uint64_t* size);

// Reads a whole regular file of at most `maxBytes` (openRegularFile: a FIFO never blocks it). Errors: Errc::not_found (ENOENT), Errc::corrupt (larger than
// maxBytes or not a regular file), Errc::permission, Errc::io. Any non-real-time thread; blocks on disk I/O.
Result<std::vector<uint8_t>> readFile(const std::string& path, uint64_t maxBytes);

// Moves a bad state file out of the way (to `path` + ".bad-<unix seconds>") so that it can be inspected later and
// is never loaded again; returns the new name. Any non-real-time thread.
Result<std::string> setAside(const std::string& path);

// A full disk, for health reports (the daemon's STATUS line): the latest persistent-state write that failed with
// ENOSPC or EDQUOT and was not followed by a successful write on the same file system.
struct DiskFull {
  std::string path;  // the file that could not be written
  int error = 0;     // ENOSPC or EDQUOT
};
// Every writeFileAtomic reports its outcome here; writers that write on their own (the audit log's appends) call
// noteWriteResult(path, errno) on failure and (path, 0) on success. Any non-real-time thread (takes a mutex).
void noteWriteResult(const std::string& path, int error);
std::optional<DiskFull> diskFull();
// Fault injection for tests (sottod --fault enospc:MS): while `error` is not 0 every writeFileAtomic fails with
// it before touching the disk, and is reported like a real failure. Any thread.
void injectWriteFailure(int error);

// One discipline for every state file that several processes may write (sottod, `sotto ask`, `sotto intent
// --answer` on the same state directory): take the file's lock, read the file, change it, replace it atomically,
// let go. An advisory lock (flock(2)) on `path` + ".lock", a file beside the state that is never replaced (a lock
// on the state file itself would be lost with the inode the rename replaces). Held until destroyed; released by the
// kernel when the holder dies, so a crashed writer never leaves it held. Movable, not copyable. Any non-real-time
// thread; exclusive() blocks until the lock is granted (other holders keep it for one read-modify-write:
// milliseconds).
class FileLock {
 public:
  // Errors: Errc::permission or Errc::io (the lock file cannot be created or opened), naming the path.
  static Result<FileLock> exclusive(const std::string& path);
  FileLock(FileLock&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }
  FileLock& operator=(FileLock&& other) noexcept;
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;
  ~FileLock();

 private:
  explicit FileLock(int fd) noexcept : fd_(fd) {}
  int fd_ = -1;
};

// The temporary files writeFileAtomic(path) leaves when its writer dies between creating and renaming one
// (path + ".tmp-XXXXXX"). Call it only while holding FileLock::exclusive(path), and only for a file whose every
// writer writes under that lock: then no live writer owns one, and each is removed. Returns the removed names and,
// for each that could not be removed, a line saying why. Any non-real-time thread.
struct TempCleanup {
  std::vector<std::string> removed;
  std::vector<std::string> problems;
};
TempCleanup removeLeftoverTemps(const std::string& path);

// The directory part of `path` ("." when there is none).
std::string directoryOf(const std::string& path);

}  // namespace sotto::hal
