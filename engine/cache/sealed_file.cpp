// SPDX-License-Identifier: MIT
// Sealed files: libsodium XChaCha20-Poly1305 (IETF) encryption and the crash-safe write (hal::writeFileAtomic).
#include "engine/cache/sealed_file.h"

#include <fcntl.h>
#include <sodium.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "sotto/hal/atomic_file.h"

namespace sotto::cache {

namespace {

Error ioError(const std::string& what, int err) { return makeError(Errc::io, what + ": " + std::strerror(err)); }

void header(std::uint8_t (&h)[kSealedHeaderBytes]) {
  std::memcpy(h, kSealedMagic, 8);
  for (int i = 0; i < 4; ++i) h[8 + i] = static_cast<std::uint8_t>(kSealedVersion >> (8 * i));
  std::memset(h + 12, 0, 4);
}

}  // namespace

Status writeSealedFile(const std::string& path, std::span<const std::uint8_t, 32> key,
                       std::span<const std::uint8_t> plaintext) {
  constexpr std::size_t nonceBytes = crypto_aead_xchacha20poly1305_ietf_NPUBBYTES;
  constexpr std::size_t tagBytes = crypto_aead_xchacha20poly1305_ietf_ABYTES;
  static_assert(crypto_aead_xchacha20poly1305_ietf_KEYBYTES == 32);
  if (kSealedHeaderBytes + nonceBytes + plaintext.size() + tagBytes > kMaxSealedFileBytes)
    return makeError(Errc::invalid_argument, "sealed file " + path + ": content too large");
  std::vector<std::uint8_t> out(kSealedHeaderBytes + nonceBytes + plaintext.size() + tagBytes);
  std::uint8_t h[kSealedHeaderBytes];
  header(h);
  std::memcpy(out.data(), h, sizeof h);
  std::uint8_t* nonce = out.data() + kSealedHeaderBytes;
  randombytes_buf(nonce, nonceBytes);
  unsigned long long clen = 0;
  crypto_aead_xchacha20poly1305_ietf_encrypt(nonce + nonceBytes, &clen, plaintext.data(), plaintext.size(), h,
                                             sizeof h, nullptr, nonce, key.data());
  out.resize(kSealedHeaderBytes + nonceBytes + clen);

  // Crash-safe: temp file, fsync, rename, fsync of the directory (0600: it holds the device's answers).
  return hal::writeFileAtomic(path, out, 0600);
}

Result<std::vector<std::uint8_t>> readSealedFile(const std::string& path, std::span<const std::uint8_t, 32> key) {
  constexpr std::size_t nonceBytes = crypto_aead_xchacha20poly1305_ietf_NPUBBYTES;
  constexpr std::size_t tagBytes = crypto_aead_xchacha20poly1305_ietf_ABYTES;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) return makeError(Errc::not_found, "no file " + path);
    return ioError("cannot open " + path, errno);
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    const int err = errno;
    ::close(fd);
    return ioError("cannot stat " + path, err);
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    return makeError(Errc::corrupt, path + " is not a regular file");
  }
  const auto size = static_cast<std::size_t>(st.st_size);
  if (size > kMaxSealedFileBytes) {
    ::close(fd);
    return makeError(Errc::corrupt, path + " is too large (" + std::to_string(size) + " bytes)");
  }
  std::vector<std::uint8_t> in(size);
  std::size_t got = 0;
  while (got < size) {
    const ssize_t r = ::read(fd, in.data() + got, size - got);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) {
      const int err = errno;
      ::close(fd);
      return ioError("cannot read " + path, err);
    }
    if (r == 0) break;
    got += static_cast<std::size_t>(r);
  }
  ::close(fd);
  in.resize(got);
  if (in.size() < kSealedHeaderBytes + nonceBytes + tagBytes)
    return makeError(Errc::corrupt, path + " is truncated (" + std::to_string(in.size()) + " bytes)");
  std::uint8_t h[kSealedHeaderBytes];
  header(h);
  if (std::memcmp(in.data(), h, 8) != 0) return makeError(Errc::corrupt, path + " is not a Sotto cache file");
  if (std::memcmp(in.data() + 8, h + 8, 8) != 0)
    return makeError(Errc::corrupt, path + " has an unknown format version");
  const std::uint8_t* nonce = in.data() + kSealedHeaderBytes;
  const std::uint8_t* cipher = nonce + nonceBytes;
  const std::size_t clen = in.size() - kSealedHeaderBytes - nonceBytes;
  std::vector<std::uint8_t> plain(clen - tagBytes);
  unsigned long long plen = 0;
  if (crypto_aead_xchacha20poly1305_ietf_decrypt(plain.data(), &plen, nullptr, cipher, clen, in.data(),
                                                 kSealedHeaderBytes, nonce, key.data()) != 0) {
    sodium_memzero(plain.data(), plain.size());
    return makeError(Errc::corrupt, path + " failed authentication (tampered, truncated or another key)");
  }
  plain.resize(plen);
  return plain;
}

}  // namespace sotto::cache
