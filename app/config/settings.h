// SPDX-License-Identifier: MIT
// The settings table: one entry per setting (path, type, default, unit, range, description, Config member).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "app/config/config.h"

namespace sotto::config {

// How a value is written in the file; the reference documents each one (reference.cpp).
enum class ValueType {
  text,         // printable UTF-8, no control characters, at most maxLength bytes
  name,         // identifier: lowercase letter or digit first, then [a-z0-9_-], at most 32 bytes
  path,         // absolute file system path
  url,          // https://host[:port][/path], or http:// to a loopback host only
  boolean,      // true | false | 1 | 0
  unsignedInt,  // decimal digits, within [min, max]
  signedInt,    // optional '-' then decimal digits, within [min, max]
  fraction,     // decimal number from 0 to 1 with at most 4 decimals ("0", "0.45", "1")
  choice,       // one of choices
  cpuList,      // "0,2-3": CPUs 0..1023, ranges a-b with a <= b, no CPU twice
};

// Where a setting lives in Config: a captureless lambda returning a reference to the member, so the table can
// reach nested members (capture.rateHz) and the compiler checks the member's type. One alternative per C++ type.
template <typename T>
using FieldRef = T& (*)(Config&);
using Field = std::variant<FieldRef<std::string>, FieldRef<uint32_t>, FieldRef<int>, FieldRef<bool>,
                           FieldRef<std::vector<int>>, FieldRef<privacy::PrivacyMode>, FieldRef<float>>;

struct Setting {
  std::string_view path;  // element.element.attribute below <sotto>, e.g. "audio.capture.rate"
  ValueType type;
  std::string_view defaultText;  // as written in the file: defaults() parses it with the same code as the file
  std::string_view unit;         // "Hz", "ms", ...; empty when the value has none
  int64_t min = 0, max = 0;      // unsignedInt, signedInt
  std::span<const std::string_view> choices;  // choice: spellings in the order of the enum's values
  bool mayBeEmpty = false;                    // text, path, url, cpuList: "" is allowed (and means "none"/"off")
  uint32_t maxLength = 0;                     // text, path, url: limit in bytes
  std::string_view description;               // one line, for the reference
  Field field;
};

// Cross-setting checks, run after every setting parsed on its own. Data, like the settings, so the reference can
// list them.
enum class RuleKind {
  notGreater,     // value(a) <= value(b), both unsignedInt
  requiresValue,  // a non-empty => b non-empty, both string-valued
};
struct Rule {
  RuleKind kind;
  std::string_view a, b;  // setting paths
  std::string_view why;   // one line, for the reference and the message
};

// The table, in file order (the order of toXml and of the reference).
std::span<const Setting> settings();
std::span<const Rule> rules();

// nullptr when path names no setting.
const Setting* findSetting(std::string_view path);

}  // namespace sotto::config
