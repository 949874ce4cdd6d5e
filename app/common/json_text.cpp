// SPDX-License-Identifier: MIT
// JSON string escaping and terminal-safe text (see json_text.h).
#include "app/common/json_text.h"

#include <cstdint>
#include <cstdio>

#include "engine/cloud/answer_guard.h"

namespace sotto::app {
namespace {

// One well-formed UTF-8 sequence at s[i] (no overlong forms, no surrogates, at most U+10FFFF): its code point and
// length, or 0 when the byte there does not start one.
std::size_t decodeUtf8(std::string_view s, std::size_t i, std::uint32_t& cp) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[i + k]); };
  const unsigned char c = b(0);
  std::size_t len = 0;
  std::uint32_t min = 0;
  if (c < 0x80) {
    cp = c;
    return 1;
  } else if ((c & 0xE0) == 0xC0) {
    len = 2, cp = c & 0x1F, min = 0x80;
  } else if ((c & 0xF0) == 0xE0) {
    len = 3, cp = c & 0x0F, min = 0x800;
  } else if ((c & 0xF8) == 0xF0) {
    len = 4, cp = c & 0x07, min = 0x10000;
  } else {
    return 0;
  }
  if (s.size() - i < len) return 0;
  for (std::size_t k = 1; k < len; ++k) {
    if ((b(k) & 0xC0) != 0x80) return 0;
    cp = cp << 6 | (b(k) & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return len;
}

void appendU16Escape(std::string& out, std::uint32_t unit) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(unit));
  out += buf;
}

}  // namespace

void appendJsonString(std::string& out, std::string_view s) {
  out += '"';
  for (std::size_t i = 0; i < s.size();) {
    std::uint32_t cp = 0;
    const std::size_t len = decodeUtf8(s, i, cp);
    if (len == 0) {
      out += "\\ufffd";  // a byte that is not UTF-8: the output stays valid JSON text
      ++i;
      continue;
    }
    switch (cp) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      default:
        if (cp < 0x20 || cp == 0x7F || (cp >= 0x80 && !cloud::isSafeCodePoint(cp))) {
          // Control and format characters (bidi overrides, zero-width) as escapes: a JSON reader gets them back,
          // a terminal showing the line never acts on them.
          if (cp > 0xFFFF) {
            appendU16Escape(out, 0xD800 + ((cp - 0x10000) >> 10));
            appendU16Escape(out, 0xDC00 + ((cp - 0x10000) & 0x3FF));
          } else {
            appendU16Escape(out, cp);
          }
        } else {
          out.append(s.substr(i, len));
        }
    }
    i += len;
  }
  out += '"';
}

std::string jsonString(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 2);
  appendJsonString(out, s);
  return out;
}

void appendTerminalText(std::string& out, std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    std::uint32_t cp = 0;
    const std::size_t len = decodeUtf8(s, i, cp);
    char buf[16];
    if (len == 0) {
      std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned>(static_cast<unsigned char>(s[i])));
      out += buf;
      ++i;
      continue;
    }
    if (cp == '\\') {
      out += "\\\\";
    } else if (cp == '\n') {
      out += "\\n";
    } else if (cp == '\r') {
      out += "\\r";
    } else if (cp == '\t') {
      out += "\\t";
    } else if (cp < 0x20 || cp == 0x7F) {
      std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned>(cp));
      out += buf;
    } else if (cp >= 0x80 && !cloud::isSafeCodePoint(cp)) {
      std::snprintf(buf, sizeof buf, "\\u{%04X}", static_cast<unsigned>(cp));  // shown, never acted on
      out += buf;
    } else {
      out.append(s.substr(i, len));
    }
    i += len;
  }
}

std::string terminalText(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  appendTerminalText(out, s);
  return out;
}

}  // namespace sotto::app
