// SPDX-License-Identifier: MIT
// A small bounded JSON reader (values into a tree, no exceptions) and a JSON string writer for the wire formats
// the engine speaks (the cloud's chat API, its own loopback server); reusable by any stage.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sotto/hal/result.h"

namespace sotto::json {

class Value {
 public:
  enum class Kind : uint8_t { null, boolean, number, string, array, object };

  Kind kind() const { return kind_; }
  bool isNull() const { return kind_ == Kind::null; }
  bool isBool() const { return kind_ == Kind::boolean; }
  bool isNumber() const { return kind_ == Kind::number; }
  bool isString() const { return kind_ == Kind::string; }
  bool isArray() const { return kind_ == Kind::array; }
  bool isObject() const { return kind_ == Kind::object; }

  bool asBool() const { return bool_; }
  double asNumber() const { return number_; }
  const std::string& asString() const { return string_; }  // decoded UTF-8
  const std::vector<Value>& items() const { return items_; }
  const std::vector<std::pair<std::string, Value>>& members() const { return members_; }

  // The member named `key` of an object (the last one if repeated), or null when absent or not an object.
  const Value* find(std::string_view key) const;
  // The i-th item of an array, or null.
  const Value* at(size_t i) const { return isArray() && i < items_.size() ? &items_[i] : nullptr; }
  // find(key) when it is a string, else null.
  const std::string* findString(std::string_view key) const;

 private:
  friend class Parser;
  Kind kind_ = Kind::null;
  bool bool_ = false;
  double number_ = 0.0;
  std::string string_;
  std::vector<Value> items_;
  std::vector<std::pair<std::string, Value>> members_;
};

struct Limits {
  size_t maxInputBytes = 1u << 20;  // longer input is refused before parsing
  uint32_t maxDepth = 32;           // nesting of arrays and objects
};

// Parses one complete JSON text (RFC 8259; whitespace around it allowed). Any thread; allocates in proportion to
// the input, which `limits` bounds. Errors (Errc::corrupt) name the byte offset and what was expected.
Result<Value> parse(std::string_view text, const Limits& limits = {});

// Appends `s` as a JSON string literal (with quotes). Control characters are escaped; bytes that are not valid
// UTF-8 become U+FFFD, so the output is always valid JSON.
void appendString(std::string& out, std::string_view s);
std::string quote(std::string_view s);

}  // namespace sotto::json
