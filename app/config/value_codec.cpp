// SPDX-License-Identifier: MIT
// Parsing and spelling of setting values, one codec per ValueType, shared by the file, overrides and defaults().
#include "app/config/value_codec.h"

#include <algorithm>
#include <bitset>
#include <cassert>
#include <charconv>
#include <limits>
#include <utility>

#include "app/config/text_util.h"

namespace sotto::config::detail {
namespace {

constexpr int kMaxCpu = 1023;  // CONFIG_NR_CPUS is far lower on any speaker; the bound only keeps lists sane
constexpr std::size_t kMaxNameLength = 32;

bool isDigit(char c) { return c >= '0' && c <= '9'; }
bool allDigits(std::string_view s) { return !s.empty() && std::all_of(s.begin(), s.end(), isDigit); }

// Value of a short run of digits (callers check allDigits and at most 9 digits, so it cannot overflow).
int smallNumber(std::string_view digits) {
  int value = 0;
  std::from_chars(digits.data(), digits.data() + digits.size(), value);
  return value;
}

// Stores value through the setting's field. The factories in settings_table.cpp pair each type with its field
// type at compile time, so a mismatch here is a bug in this file.
template <typename T>
std::optional<std::string> store(const Setting& s, Config& config, T value) {
  const auto* ref = std::get_if<FieldRef<T>>(&s.field);
  if (ref == nullptr) {
    assert(!"setting type and field type disagree");
    return std::string("internal error: the setting's field has another type");
  }
  (*ref)(config) = std::move(value);
  return std::nullopt;
}

template <typename T>
const T& read(const Setting& s, const Config& config) {
  // The accessors only form a reference; nothing is written through it here.
  return std::get<FieldRef<T>>(s.field)(const_cast<Config&>(config));
}

std::string rangeSuffix(const Setting& s) {
  std::string out = " is out of range [" + std::to_string(s.min) + ", " + std::to_string(s.max) + "]";
  if (!s.unit.empty()) out += " (" + std::string(s.unit) + ")";
  return out;
}

std::optional<std::string> parseInteger(const Setting& s, std::string_view text, int64_t& out) {
  const bool isSigned = s.type == ValueType::signedInt;
  std::string_view digits = text;
  const bool negative = isSigned && !digits.empty() && digits.front() == '-';
  if (negative) digits.remove_prefix(1);
  if (!allDigits(digits)) {
    return quote(text) + (isSigned ? " is not an integer" : " is not an unsigned integer");
  }
  uint64_t magnitude = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), magnitude);
  (void)end;  // all digits: from_chars consumes everything or overflows
  constexpr auto kMaxMagnitude = static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
  if (ec != std::errc() || magnitude > kMaxMagnitude) return clip(text, 32) + rangeSuffix(s);
  const int64_t value = negative ? -static_cast<int64_t>(magnitude) : static_cast<int64_t>(magnitude);
  if (value < s.min || value > s.max) return clip(text, 32) + rangeSuffix(s);
  out = value;
  return std::nullopt;
}

// Common to text, path and url: well-formed UTF-8, no control characters, not too long, empty only if allowed.
std::optional<std::string> checkText(const Setting& s, std::string_view text) {
  if (text.empty()) {
    if (s.mayBeEmpty) return std::nullopt;
    return std::string("must not be empty");
  }
  if (firstInvalidUtf8(text)) return quote(text) + " is not valid UTF-8";
  const auto control = [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7F; };
  if (std::any_of(text.begin(), text.end(), control)) {
    return quote(text) + " contains a control character";
  }
  if (s.maxLength != 0 && text.size() > s.maxLength) {
    return quote(text) + " is " + std::to_string(text.size()) + " bytes long; at most " + std::to_string(s.maxLength) +
           " are allowed";
  }
  return std::nullopt;
}

std::optional<std::string> checkName(std::string_view text) {
  const auto nameChar = [](char c) { return (c >= 'a' && c <= 'z') || isDigit(c) || c == '_' || c == '-'; };
  const bool ok = !text.empty() && text.size() <= kMaxNameLength && text.front() != '_' && text.front() != '-' &&
                  std::all_of(text.begin(), text.end(), nameChar);
  if (ok) return std::nullopt;
  return quote(text) + " is not a valid name (1 to 32 of a-z, 0-9, '_' and '-', starting with a letter or digit)";
}

// "0", "1", "0.45", ".5": at most 4 decimals, so the value prints back exactly as it was written.
std::optional<std::string> parseFraction(std::string_view text, float& out) {
  const size_t dot = text.find('.');
  const std::string_view whole = text.substr(0, dot);
  const std::string_view decimals = dot == std::string_view::npos ? std::string_view() : text.substr(dot + 1);
  const bool wellFormed = (whole.empty() || allDigits(whole)) && (dot == std::string_view::npos || allDigits(decimals)) &&
                          !(whole.empty() && decimals.empty()) && whole.size() <= 9 && decimals.size() <= 4;
  if (!wellFormed) return quote(text) + " is not a decimal number from 0 to 1 with at most 4 decimals";
  const int w = whole.empty() ? 0 : smallNumber(whole);
  int d = decimals.empty() ? 0 : smallNumber(decimals);
  for (size_t i = decimals.size(); i < 4; ++i) d *= 10;
  if (w > 1 || (w == 1 && d != 0)) return clip(text, 32) + " is out of range [0, 1]";
  out = static_cast<float>(w * 10000 + d) / 10000.0f;
  return std::nullopt;
}

// Inverse of parseFraction: the shortest spelling of the 4-decimal value.
std::string formatFraction(float value) {
  const int v = static_cast<int>(value * 10000.0f + 0.5f);
  if (v % 10000 == 0) return std::to_string(v / 10000);
  std::string d = std::to_string(v % 10000);
  d.insert(0, 4 - d.size(), '0');
  while (d.back() == '0') d.pop_back();
  return std::to_string(v / 10000) + "." + d;
}

std::optional<std::string> parseBoolean(std::string_view text, bool& out) {
  if (text == "true" || text == "1") {
    out = true;
  } else if (text == "false" || text == "0") {
    out = false;
  } else {
    return quote(text) + " is not a boolean (true, false, 1 or 0)";
  }
  return std::nullopt;
}

std::optional<std::string> parseChoice(const Setting& s, std::string_view text, std::size_t& index) {
  const auto it = std::find(s.choices.begin(), s.choices.end(), text);
  if (it != s.choices.end()) {
    index = static_cast<std::size_t>(it - s.choices.begin());
    return std::nullopt;
  }
  std::string message = quote(text) + " is not one of ";
  for (std::size_t i = 0; i < s.choices.size(); ++i) {
    if (i != 0) message += ", ";
    message += s.choices[i];
  }
  if (const auto guess = closest(text, s.choices)) message += "; did you mean \"" + std::string(*guess) + "\"?";
  return message;
}

bool isLoopbackHost(std::string_view host) {
  std::string lower(host);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; });
  if (lower == "localhost" || lower == "[::1]") return true;
  // Dotted-quad 127.a.b.c, each part 0..255 in decimal.
  int parts = 0;
  int first = -1;
  std::string_view rest = host;
  while (true) {
    const std::size_t dot = rest.find('.');
    const std::string_view part = rest.substr(0, dot);
    if (!allDigits(part) || part.size() > 3) return false;
    const int value = smallNumber(part);
    if (value > 255) return false;
    if (parts == 0) first = value;
    ++parts;
    if (dot == std::string_view::npos) break;
    rest.remove_prefix(dot + 1);
  }
  return parts == 4 && first == 127;
}

// The URL as messages show it: user information (user:password@) replaced, so that a secret put there by mistake
// does not end up in the journal.
std::string redactedUrl(std::string_view text) {
  const std::size_t schemeEnd = text.find("://");
  const std::size_t hostStart = schemeEnd == std::string_view::npos ? 0 : schemeEnd + 3;
  const std::size_t authorityEnd = std::min(text.size(), text.find_first_of("/?#", hostStart));
  const std::size_t at = text.substr(0, authorityEnd).rfind('@');
  if (at == std::string_view::npos || at < hostStart) return quote(text);
  return quote(std::string(text.substr(0, hostStart)) + "..." + std::string(text.substr(at)));
}

}  // namespace

std::optional<std::string> checkUrl(std::string_view text) {
  if (text.empty()) return std::nullopt;
  const std::string shown = redactedUrl(text);
  const auto invalid = [&](std::string_view why) { return shown + " is not a valid URL: " + std::string(why); };
  const auto unsafe = [](char c) {
    const auto u = static_cast<unsigned char>(c);
    return u <= 0x20 || u >= 0x7F;
  };
  if (std::any_of(text.begin(), text.end(), unsafe)) {
    return invalid("spaces, control and non-ASCII characters are not allowed");
  }
  bool secure = false;
  std::string_view rest = text;
  if (rest.starts_with("https://")) {
    secure = true;
    rest.remove_prefix(8);
  } else if (rest.starts_with("http://")) {
    rest.remove_prefix(7);
  } else {
    return invalid("it must start with https:// (or http:// for a loopback host)");
  }
  const std::string_view authority = rest.substr(0, rest.find_first_of("/?#"));
  if (authority.find('@') != std::string_view::npos) return invalid("credentials (user@host) are not allowed");
  std::string_view host = authority, port;
  if (authority.starts_with('[')) {
    const std::size_t close = authority.find(']');
    if (close == std::string_view::npos) return invalid("unterminated IPv6 address");
    host = authority.substr(0, close + 1);
    const std::string_view inner = host.substr(1, host.size() - 2);
    const auto v6Char = [](char c) {
      return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F') || c == ':' || c == '.';
    };
    if (inner.empty() || !std::all_of(inner.begin(), inner.end(), v6Char)) return invalid("bad IPv6 address");
    const std::string_view after = authority.substr(close + 1);
    if (!after.empty()) {
      if (after.front() != ':') return invalid("unexpected characters after the IPv6 address");
      port = after.substr(1);
      if (port.empty()) return invalid("empty port");
    }
  } else if (const std::size_t colon = authority.find(':'); colon != std::string_view::npos) {
    host = authority.substr(0, colon);
    port = authority.substr(colon + 1);
    if (port.empty()) return invalid("empty port");
  }
  if (host.empty()) return invalid("no host");
  const auto hostChar = [](char c) {
    return isDigit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '.' || c == '-' || c == '_';
  };
  if (!host.starts_with('[') && !std::all_of(host.begin(), host.end(), hostChar)) return invalid("bad host name");
  if (!port.empty()) {
    const bool portOk = allDigits(port) && port.size() <= 5 && smallNumber(port) >= 1 && smallNumber(port) <= 65535;
    if (!portOk) return invalid("the port must be 1..65535");
  }
  if (!secure && !isLoopbackHost(host)) {
    return shown +
           " uses http:// to a host that is not loopback; use https:// (http:// is allowed only for "
           "localhost, 127.0.0.0/8 and [::1])";
  }
  return std::nullopt;
}

ParsedCpuList parseCpuList(std::string_view text) {
  ParsedCpuList result;
  if (text.empty()) return result;
  const auto fail = [&](std::string why) {
    result.cpus.clear();
    result.error = quote(text) + " is not a valid CPU list: " + why;
    return result;
  };
  // Four digits reach past kMaxCpu; longer numbers are out of range without converting (no overflow).
  const auto number = [](std::string_view digits) { return digits.size() > 4 ? kMaxCpu + 1 : smallNumber(digits); };
  std::bitset<kMaxCpu + 1> seen;
  std::string_view rest = text;
  while (true) {
    const std::size_t comma = rest.find(',');
    const std::string_view entry = rest.substr(0, comma);
    if (entry.empty()) return fail("empty entry (write e.g. 0,2-3)");
    const std::size_t dash = entry.find('-');
    const std::string_view lowText = entry.substr(0, dash);
    const std::string_view highText = dash == std::string_view::npos ? lowText : entry.substr(dash + 1);
    if (!allDigits(lowText) || !allDigits(highText)) {
      return fail(quote(entry, 16) + " is not a CPU number or range (write e.g. 0,2-3, without spaces)");
    }
    const int low = number(lowText), high = number(highText);
    const auto outOfRange = [](std::string_view cpu) {
      return "CPU " + clip(cpu, 16) + " is out of range [0, " + std::to_string(kMaxCpu) + "]";
    };
    if (low > kMaxCpu) return fail(outOfRange(lowText));
    if (high > kMaxCpu) return fail(outOfRange(highText));
    if (low > high) return fail("range " + std::string(entry) + " is reversed");
    for (int cpu = low; cpu <= high; ++cpu) {
      if (seen.test(static_cast<std::size_t>(cpu))) return fail("CPU " + std::to_string(cpu) + " is listed twice");
      seen.set(static_cast<std::size_t>(cpu));
    }
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  for (int cpu = 0; cpu <= kMaxCpu; ++cpu) {
    if (seen.test(static_cast<std::size_t>(cpu))) result.cpus.push_back(cpu);
  }
  return result;
}

std::string formatCpuList(const std::vector<int>& cpus) {
  std::string out;
  std::size_t i = 0;
  while (i < cpus.size()) {
    std::size_t j = i;
    while (j + 1 < cpus.size() && cpus[j + 1] == cpus[j] + 1) ++j;
    if (!out.empty()) out += ',';
    out += std::to_string(cpus[i]);
    if (j > i) out += '-' + std::to_string(cpus[j]);
    i = j + 1;
  }
  return out;
}

std::optional<std::string> assign(const Setting& s, std::string_view text, Config& config) {
  switch (s.type) {
    case ValueType::text:
      if (auto error = checkText(s, text)) return error;
      return store(s, config, std::string(text));
    case ValueType::name:
      if (auto error = checkName(text)) return error;
      return store(s, config, std::string(text));
    case ValueType::path:
      if (auto error = checkText(s, text)) return error;
      if (!text.empty() && text.front() != '/') {
        return quote(text) + " is not an absolute path (it must start with '/')";
      }
      return store(s, config, std::string(text));
    case ValueType::url:
      if (auto error = checkText(s, text)) return error;
      if (auto error = checkUrl(text)) return error;
      return store(s, config, std::string(text));
    case ValueType::boolean: {
      bool value = false;
      if (auto error = parseBoolean(text, value)) return error;
      return store(s, config, value);
    }
    case ValueType::unsignedInt: {
      int64_t value = 0;
      if (auto error = parseInteger(s, text, value)) return error;
      return store(s, config, static_cast<uint32_t>(value));  // the table's range lies within uint32_t
    }
    case ValueType::signedInt: {
      int64_t value = 0;
      if (auto error = parseInteger(s, text, value)) return error;
      return store(s, config, static_cast<int>(value));  // the table's range lies within int
    }
    case ValueType::fraction: {
      float value = 0;
      if (auto error = parseFraction(text, value)) return error;
      return store(s, config, value);
    }
    case ValueType::choice: {
      std::size_t index = 0;
      if (auto error = parseChoice(s, text, index)) return error;
      if (std::holds_alternative<FieldRef<privacy::PrivacyMode>>(s.field)) {
        return store(s, config, static_cast<privacy::PrivacyMode>(index));  // choices are listed in enum order
      }
      return store(s, config, std::string(text));
    }
    case ValueType::cpuList: {
      ParsedCpuList parsed = parseCpuList(text);
      if (!parsed.error.empty()) return std::move(parsed.error);
      return store(s, config, std::move(parsed.cpus));
    }
  }
  return std::string("internal error: unknown value type");
}

std::string render(const Setting& s, const Config& config) {
  switch (s.type) {
    case ValueType::text:
    case ValueType::name:
    case ValueType::path:
    case ValueType::url: return read<std::string>(s, config);
    case ValueType::boolean: return read<bool>(s, config) ? "true" : "false";
    case ValueType::unsignedInt: return std::to_string(read<uint32_t>(s, config));
    case ValueType::signedInt: return std::to_string(read<int>(s, config));
    case ValueType::fraction: return formatFraction(read<float>(s, config));
    case ValueType::choice:
      if (std::holds_alternative<FieldRef<privacy::PrivacyMode>>(s.field)) {
        const auto index = static_cast<std::size_t>(read<privacy::PrivacyMode>(s, config));
        return index < s.choices.size() ? std::string(s.choices[index]) : std::string();
      }
      return read<std::string>(s, config);
    case ValueType::cpuList: return formatCpuList(read<std::vector<int>>(s, config));
  }
  return {};
}

uint32_t unsignedValue(const Setting& s, const Config& config) { return read<uint32_t>(s, config); }
const std::string& stringValue(const Setting& s, const Config& config) { return read<std::string>(s, config); }

}  // namespace sotto::config::detail
