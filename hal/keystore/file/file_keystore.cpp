// SPDX-License-Identifier: MIT
// The `file` keystore backend: a 32-byte master key in <state-dir>/device.key (mode 0600), created with
// libsodium's randombytes on first use and written atomically; subkeys derived with crypto_kdf.
#include <fcntl.h>
#include <stdio.h>  // renameat2
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include <sodium.h>

#include "sotto/hal/keystore.h"

namespace sotto::hal {
namespace {

static_assert(crypto_kdf_KEYBYTES == kKeyBytes && crypto_kdf_CONTEXTBYTES == 8);

constexpr const char* kKeyFileName = "device.key";

std::string errnoText(int e) { return std::strerror(e); }

Error ioError(int e, const std::string& what) {
  return makeError(e == EACCES || e == EPERM || e == EROFS ? Errc::permission : Errc::io, what + ": " + errnoText(e));
}

// The master key in libsodium's guarded, locked memory: never swapped out, wiped and unmapped on destruction.
class GuardedKey {
 public:
  GuardedKey() : p_(static_cast<uint8_t*>(sodium_malloc(kKeyBytes))) {}
  ~GuardedKey() {
    if (p_ != nullptr) sodium_free(p_);
  }
  GuardedKey(const GuardedKey&) = delete;
  GuardedKey& operator=(const GuardedKey&) = delete;
  uint8_t* data() const { return p_; }

 private:
  uint8_t* p_;
};

bool readExactly(int fd, uint8_t* out, std::size_t n, int& err) {
  std::size_t got = 0;
  while (got < n) {
    const ssize_t r = ::read(fd, out + got, n - got);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) {
      err = r < 0 ? errno : 0;
      return false;
    }
    got += static_cast<std::size_t>(r);
  }
  return true;
}

bool writeAll(int fd, const uint8_t* data, std::size_t n) {
  while (n > 0) {
    const ssize_t w = ::write(fd, data, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    data += w;
    n -= static_cast<std::size_t>(w);
  }
  return true;
}

// Loads an existing key file; not_found when there is none. Refuses files others may read and files of the
// wrong size (a truncated or foreign file must never silently become a different key).
Status loadKey(const std::string& path, uint8_t* out) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) {
    if (errno == ENOENT) return makeError(Errc::not_found, "device key " + path + " does not exist");
    if (errno == ELOOP) return makeError(Errc::permission, "device key " + path + " is a symbolic link: refused");
    return ioError(errno, "cannot open device key " + path);
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    const int e = errno;
    ::close(fd);
    return ioError(e, "cannot stat device key " + path);
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    return makeError(Errc::corrupt, "device key " + path + " is not a regular file");
  }
  if ((st.st_mode & 077) != 0) {
    ::close(fd);
    char mode[8];
    std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(st.st_mode & 07777));
    return makeError(Errc::permission, "device key " + path + " has mode " + mode +
                                           ": group or others may access it; refused (chmod 600, or remove it to "
                                           "make a new key, losing the encrypted cache and audit log)");
  }
  if (st.st_size != static_cast<off_t>(kKeyBytes)) {
    ::close(fd);
    return makeError(Errc::corrupt, "device key " + path + " has " + std::to_string(st.st_size) + " bytes, not " +
                                        std::to_string(kKeyBytes) + ": truncated or not a key; refused");
  }
  int err = 0;
  const bool ok = readExactly(fd, out, kKeyBytes, err);
  ::close(fd);
  if (!ok) {
    if (err != 0) return ioError(err, "cannot read device key " + path);
    return makeError(Errc::corrupt, "device key " + path + " shrank while being read");
  }
  return {};
}

Status fsyncDir(const std::string& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return ioError(errno, "cannot open directory " + dir);
  const int r = ::fsync(fd);
  const int e = errno;
  ::close(fd);
  if (r != 0 && e != EINVAL) return ioError(e, "cannot sync directory " + dir);  // EINVAL: fs without dir sync
  return {};
}

// Creates a new key: temp file (0600, O_EXCL), write, fsync, rename without replacing, fsync the directory.
// Returns busy when another process created the key first (the caller then loads that one).
Status createKey(const std::string& dir, const std::string& path, uint8_t* key) {
  randombytes_buf(key, kKeyBytes);
  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0) return ioError(errno, "cannot create device key in " + dir);
  bool ok = ::fchmod(fd, 0600) == 0 && writeAll(fd, key, kKeyBytes) && ::fsync(fd) == 0;
  int e = errno;
  if (::close(fd) != 0 && ok) {
    ok = false;
    e = errno;
  }
  if (!ok) {
    ::unlink(tmp.c_str());
    return ioError(e, "cannot write device key " + tmp);
  }
  // No replacing: two processes starting at once must not each use a key the other overwrote.
  int r = ::renameat2(AT_FDCWD, tmp.c_str(), AT_FDCWD, path.c_str(), RENAME_NOREPLACE);
  if (r != 0 && (errno == EINVAL || errno == ENOSYS)) {
    // File systems without RENAME_NOREPLACE: link() also refuses to replace.
    r = ::link(tmp.c_str(), path.c_str());
    e = errno;
    ::unlink(tmp.c_str());
    errno = e;
  }
  if (r != 0) {
    e = errno;
    ::unlink(tmp.c_str());
    if (e == EEXIST) return makeError(Errc::busy, "device key " + path + " appeared meanwhile");
    return ioError(e, "cannot install device key " + path);
  }
  return fsyncDir(dir);
}

class FileKeystore final : public Keystore {
 public:
  static Result<std::unique_ptr<Keystore>> create(const KeystoreSpec& spec) {
    if (sodium_init() < 0) return makeError(Errc::internal, "keystore: libsodium failed to initialize");
    if (spec.stateDir.empty() || spec.stateDir[0] != '/') {
      return makeError(Errc::invalid_argument, "file keystore: state directory '" + spec.stateDir +
                                                   "' is not an absolute path");
    }
    const std::string path = spec.stateDir + "/" + kKeyFileName;
    auto key = std::make_unique<GuardedKey>();
    if (key->data() == nullptr) return makeError(Errc::internal, "keystore: cannot allocate locked key memory");
    bool created = false;
    Status s = loadKey(path, key->data());
    if (!s && s.error().code == Errc::not_found) {
      if (!spec.createIfMissing) {
        return makeError(Errc::not_found, "device key " + path +
                                              " does not exist (the daemon creates it on first start)");
      }
      struct stat st {};
      if (::stat(spec.stateDir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
        return makeError(Errc::not_found, "file keystore: state directory " + spec.stateDir + " does not exist");
      }
      s = createKey(spec.stateDir, path, key->data());
      created = s.ok();
      if (!s && s.error().code == Errc::busy) s = loadKey(path, key->data());
    }
    if (!s) return std::move(s).error();
    return std::unique_ptr<Keystore>(new FileKeystore("file:" + path, created, std::move(key)));
  }

 protected:
  Status doDeriveKey(std::span<const char, 8> context, uint64_t subkeyId, SecretKey& out) const override {
    if (crypto_kdf_derive_from_key(out.mutableBytes().data(), kKeyBytes, subkeyId, context.data(),
                                   master_->data()) != 0) {
      return makeError(Errc::internal, "keystore: crypto_kdf_derive_from_key failed");
    }
    return {};
  }

 private:
  FileKeystore(std::string name, bool created, std::unique_ptr<GuardedKey> key)
      : Keystore(std::move(name), created), master_(std::move(key)) {}
  std::unique_ptr<GuardedKey> master_;
};

}  // namespace
}  // namespace sotto::hal

SOTTO_KEYSTORE_BACKEND("file", &::sotto::hal::FileKeystore::create)
