// SPDX-License-Identifier: MIT
// Keystore HAL: the device master key (never handed out) and purpose-specific subkeys derived from it, backends
// chosen by name from the config through the KeystoreRegistry (file today; hardware-backed stores later).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "sotto/hal/result.h"

namespace sotto::hal {

inline constexpr std::size_t kKeyBytes = 32;
// A purpose is a libsodium crypto_kdf context: 1..8 characters of [a-z0-9_-] ("cache", "audit", "devid").
inline constexpr std::size_t kMaxPurposeChars = 8;

// 32 secret bytes that wipe themselves when destroyed (explicit_bzero: the compiler may not drop the wipe).
// Move-only so that a key is not copied around by accident. Plain value; one thread at a time.
class SecretKey {
 public:
  SecretKey() = default;
  ~SecretKey();
  SecretKey(SecretKey&& other) noexcept;
  SecretKey& operator=(SecretKey&& other) noexcept;
  SecretKey(const SecretKey&) = delete;
  SecretKey& operator=(const SecretKey&) = delete;

  std::span<const uint8_t, kKeyBytes> bytes() const noexcept { return bytes_; }
  std::span<uint8_t, kKeyBytes> mutableBytes() noexcept { return bytes_; }

 private:
  std::array<uint8_t, kKeyBytes> bytes_{};
};

// What the config asks for.
struct KeystoreSpec {
  std::string backend = "file";  // registry name
  std::string stateDir;          // file: the directory that holds device.key (paths.state-dir)
  // Create the master key on first use. Readers of existing data (sotto audit) pass false: a new key could not
  // decrypt anything, and a tool run as root must not leave a root-owned key in the daemon's state directory.
  bool createIfMissing = true;
};

// The device key store. Template methods (libcamera style): deriveKey() checks the purpose, the backend derives.
// Threads: open on a control thread (it may block on file I/O); deriveKey() from any thread, it does not block on
// I/O (file backend: the master key is in locked memory) but it is not for real-time threads.
class Keystore {
 public:
  virtual ~Keystore() = default;
  Keystore(const Keystore&) = delete;
  Keystore& operator=(const Keystore&) = delete;

  // The subkey for one purpose: crypto_kdf(master, purpose padded to 8 bytes with '_', subkeyId). The same
  // master key, purpose and id always give the same subkey; different purposes give independent keys.
  // Errors: invalid_argument for a purpose that is empty, longer than 8 or outside [a-z0-9_-].
  Result<SecretKey> deriveKey(std::string_view purpose, uint64_t subkeyId = 1) const;

  // "file:/var/lib/sotto/device.key", for messages.
  const std::string& name() const { return name_; }
  // True when open() created a new master key (first start, or the key was set aside).
  bool created() const { return created_; }

 protected:
  Keystore(std::string name, bool created) : name_(std::move(name)), created_(created) {}
  // context: exactly 8 bytes (the padded purpose).
  virtual Status doDeriveKey(std::span<const char, 8> context, uint64_t subkeyId, SecretKey& out) const = 0;

 private:
  std::string name_;
  bool created_;
};

using KeystoreFactory = std::function<Result<std::unique_ptr<Keystore>>(const KeystoreSpec&)>;

// Backends register themselves at static-initialization time (SOTTO_KEYSTORE_BACKEND in their .cpp).
// Lookups: control threads, after main() started.
class KeystoreRegistry {
 public:
  static KeystoreRegistry& instance();
  bool add(const std::string& backend, KeystoreFactory factory);
  // Opens a key store; an unknown backend is an error naming it and the known ones.
  Result<std::unique_ptr<Keystore>> open(const KeystoreSpec& spec) const;
  std::vector<std::string> backends() const;

 private:
  struct Entry {
    std::string name;
    KeystoreFactory factory;
  };
  std::vector<Entry> entries_;
};

}  // namespace sotto::hal

#define SOTTO_KEYSTORE_CONCAT2(a, b) a##b
#define SOTTO_KEYSTORE_CONCAT(a, b) SOTTO_KEYSTORE_CONCAT2(a, b)
// One line in a backend's .cpp: SOTTO_KEYSTORE_BACKEND("file", &FileKeystore::create);
#define SOTTO_KEYSTORE_BACKEND(name, factory)                                                   \
  namespace {                                                                                   \
  [[maybe_unused]] const bool SOTTO_KEYSTORE_CONCAT(sottoKeystoreRegistered_, __LINE__) =       \
      ::sotto::hal::KeystoreRegistry::instance().add(name, factory);                            \
  }
