// SPDX-License-Identifier: MIT
// Keystore purpose checks, self-wiping keys and the backend registry (backends: hal/keystore/<name>).
#include "sotto/hal/keystore.h"

#include <string.h>  // explicit_bzero

#include <algorithm>

namespace sotto::hal {

SecretKey::~SecretKey() { explicit_bzero(bytes_.data(), bytes_.size()); }

SecretKey::SecretKey(SecretKey&& other) noexcept : bytes_(other.bytes_) {
  explicit_bzero(other.bytes_.data(), other.bytes_.size());
}

SecretKey& SecretKey::operator=(SecretKey&& other) noexcept {
  if (this != &other) {
    bytes_ = other.bytes_;
    explicit_bzero(other.bytes_.data(), other.bytes_.size());
  }
  return *this;
}

Result<SecretKey> Keystore::deriveKey(std::string_view purpose, uint64_t subkeyId) const {
  if (purpose.empty() || purpose.size() > kMaxPurposeChars) {
    return makeError(Errc::invalid_argument, "keystore: key purpose '" + std::string(purpose) +
                                                 "' must have 1 to 8 characters");
  }
  // Padded with '_' (not NUL) so that the context stays printable; fixed forever: it decides every subkey.
  std::array<char, 8> context;
  context.fill('_');
  for (std::size_t i = 0; i < purpose.size(); ++i) {
    const char c = purpose[i];
    const bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
    if (!ok) {
      return makeError(Errc::invalid_argument,
                       "keystore: key purpose '" + std::string(purpose) + "' may only use a-z, 0-9, '_' and '-'");
    }
    context[i] = c;
  }
  SecretKey key;
  if (Status s = doDeriveKey(context, subkeyId, key); !s) return std::move(s).error();
  return key;
}

KeystoreRegistry& KeystoreRegistry::instance() {
  static KeystoreRegistry registry;  // function-local: safe during other translation units' static init
  return registry;
}

bool KeystoreRegistry::add(const std::string& backend, KeystoreFactory factory) {
  const bool taken = std::any_of(entries_.begin(), entries_.end(), [&](const Entry& e) { return e.name == backend; });
  if (taken || !factory) return false;  // a second backend with the same name is a build mistake
  entries_.push_back(Entry{backend, std::move(factory)});
  return true;
}

Result<std::unique_ptr<Keystore>> KeystoreRegistry::open(const KeystoreSpec& spec) const {
  for (const Entry& e : entries_) {
    if (e.name == spec.backend) return e.factory(spec);
  }
  std::string known;
  for (const Entry& e : entries_) known += (known.empty() ? "" : ", ") + e.name;
  return makeError(Errc::not_found, "keystore backend '" + spec.backend + "' does not exist (built in: " +
                                        (known.empty() ? std::string("none") : known) + ")");
}

std::vector<std::string> KeystoreRegistry::backends() const {
  std::vector<std::string> names;
  for (const Entry& e : entries_) names.push_back(e.name);
  return names;
}

}  // namespace sotto::hal
