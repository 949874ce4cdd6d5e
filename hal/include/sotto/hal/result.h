// SPDX-License-Identifier: MIT
// Result<T>: the expected-style return type used across hal/ and engine/ boundaries (no exceptions cross them).
#pragma once

#include <cassert>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>

namespace sotto {

// Broad classes of failure a caller may act on differently (retry, degrade, report).
enum class Errc {
  invalid_argument,  // caller passed something unusable
  not_found,         // a named device, file or setting does not exist
  io,                // the OS refused (errno-style failures)
  corrupt,           // data failed validation (config, model, cache file)
  unsupported,       // valid but not implemented on this build or device
  busy,              // resource temporarily unavailable
  permission,        // not allowed (privacy mode, file mode, capability)
  internal,          // invariant broken: a bug
};

const char* errcName(Errc c) noexcept;

struct Error {
  Errc code = Errc::internal;
  std::string message;  // one line, says what failed and on what (file, device, setting)
};

inline Error makeError(Errc code, std::string message) { return Error{code, std::move(message)}; }

// Holds either a value or an Error. Construct from T (success) or from Error (failure).
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::in_place_index<0>, std::move(value)) {}  // NOLINT: implicit by design
  Result(Error error) : v_(std::in_place_index<1>, std::move(error)) {}  // NOLINT

  bool ok() const noexcept { return v_.index() == 0; }
  explicit operator bool() const noexcept { return ok(); }

  T& value() & { assert(ok()); return std::get<0>(v_); }
  const T& value() const& { assert(ok()); return std::get<0>(v_); }
  T&& value() && { assert(ok()); return std::get<0>(std::move(v_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

  const Error& error() const& { assert(!ok()); return std::get<1>(v_); }
  Error&& error() && { assert(!ok()); return std::get<1>(std::move(v_)); }

 private:
  std::variant<T, Error> v_;
};

// Result<void>: success carries nothing.
template <>
class [[nodiscard]] Result<void> {
 public:
  Result() = default;
  Result(Error error) : error_(std::move(error)), ok_(false) {}  // NOLINT
  bool ok() const noexcept { return ok_; }
  explicit operator bool() const noexcept { return ok_; }
  const Error& error() const& { assert(!ok_); return error_; }
  Error&& error() && { assert(!ok_); return std::move(error_); }

 private:
  Error error_;
  bool ok_ = true;
};

using Status = Result<void>;

}  // namespace sotto
