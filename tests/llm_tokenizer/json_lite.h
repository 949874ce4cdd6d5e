// SPDX-License-Identifier: MIT
// A small JSON reader for the test vectors (objects, arrays, strings with \u escapes, numbers, literals).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace sotto::test::json {

// Test-only: throws std::runtime_error on malformed input or on a wrong-type access (GoogleTest reports it).
class Value {
 public:
  enum class Type { null, boolean, number, string, array, object };

  Type type() const { return type_; }
  bool isNull() const { return type_ == Type::null; }
  bool has(const std::string& key) const { return type_ == Type::object && object_.count(key) != 0; }
  const Value& operator[](const std::string& key) const {
    expect(Type::object, "object");
    const auto it = object_.find(key);
    if (it == object_.end()) throw std::runtime_error("json: no key '" + key + "'");
    return it->second;
  }
  const Value& operator[](size_t i) const {
    expect(Type::array, "array");
    return array_.at(i);
  }
  size_t size() const { return type_ == Type::array ? array_.size() : object_.size(); }
  const std::vector<Value>& items() const {
    expect(Type::array, "array");
    return array_;
  }
  const std::string& str() const {
    expect(Type::string, "string");
    return string_;
  }
  bool boolean() const {
    expect(Type::boolean, "boolean");
    return bool_;
  }
  double number() const {
    expect(Type::number, "number");
    return number_;
  }
  int64_t integer() const { return static_cast<int64_t>(number()); }
  std::vector<int32_t> intArray() const {
    std::vector<int32_t> out;
    for (const Value& v : items()) out.push_back(static_cast<int32_t>(v.integer()));
    return out;
  }

  static Value parse(std::string_view text) {
    size_t pos = 0;
    Value v = parseValue(text, pos);
    skipSpace(text, pos);
    if (pos != text.size()) fail("trailing characters", pos);
    return v;
  }

 private:
  void expect(Type t, const char* what) const {
    if (type_ != t) throw std::runtime_error(std::string("json: value is not a ") + what);
  }
  [[noreturn]] static void fail(const char* what, size_t pos) {
    throw std::runtime_error(std::string("json: ") + what + " at offset " + std::to_string(pos));
  }
  static void skipSpace(std::string_view t, size_t& p) {
    while (p < t.size() && (t[p] == ' ' || t[p] == '\n' || t[p] == '\r' || t[p] == '\t')) ++p;
  }
  static void appendUtf8(uint32_t cp, std::string& out) {
    if (cp < 0x80) {
      out.push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
      out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
      out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
      out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
      out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else {
      out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
      out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    }
  }
  static uint32_t hex4(std::string_view t, size_t& p) {
    if (p + 4 > t.size()) fail("short \\u escape", p);
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) {
      const char c = t[p++];
      v <<= 4;
      if (c >= '0' && c <= '9') v |= static_cast<uint32_t>(c - '0');
      else if (c >= 'a' && c <= 'f') v |= static_cast<uint32_t>(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F') v |= static_cast<uint32_t>(c - 'A' + 10);
      else fail("bad \\u escape", p);
    }
    return v;
  }
  static std::string parseString(std::string_view t, size_t& p) {
    if (t[p] != '"') fail("expected string", p);
    ++p;
    std::string out;
    while (true) {
      if (p >= t.size()) fail("unterminated string", p);
      const char c = t[p++];
      if (c == '"') return out;
      if (c != '\\') {
        out.push_back(c);
        continue;
      }
      if (p >= t.size()) fail("unterminated escape", p);
      const char e = t[p++];
      switch (e) {
        case '"': out.push_back('"'); break;
        case '\\': out.push_back('\\'); break;
        case '/': out.push_back('/'); break;
        case 'b': out.push_back('\b'); break;
        case 'f': out.push_back('\f'); break;
        case 'n': out.push_back('\n'); break;
        case 'r': out.push_back('\r'); break;
        case 't': out.push_back('\t'); break;
        case 'u': {
          uint32_t cp = hex4(t, p);
          if (cp >= 0xD800 && cp <= 0xDBFF && p + 6 <= t.size() && t[p] == '\\' && t[p + 1] == 'u') {
            size_t q = p + 2;
            const uint32_t lo = hex4(t, q);
            if (lo >= 0xDC00 && lo <= 0xDFFF) {
              cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
              p = q;
            }
          }
          appendUtf8(cp, out);
          break;
        }
        default: fail("bad escape", p);
      }
    }
  }
  static Value parseValue(std::string_view t, size_t& p) {
    skipSpace(t, p);
    if (p >= t.size()) fail("unexpected end", p);
    Value v;
    const char c = t[p];
    if (c == '{') {
      v.type_ = Type::object;
      ++p;
      skipSpace(t, p);
      if (p < t.size() && t[p] == '}') {
        ++p;
        return v;
      }
      while (true) {
        skipSpace(t, p);
        std::string key = parseString(t, p);
        skipSpace(t, p);
        if (p >= t.size() || t[p] != ':') fail("expected ':'", p);
        ++p;
        v.object_.emplace(std::move(key), parseValue(t, p));
        skipSpace(t, p);
        if (p < t.size() && t[p] == ',') {
          ++p;
          continue;
        }
        if (p < t.size() && t[p] == '}') {
          ++p;
          return v;
        }
        fail("expected ',' or '}'", p);
      }
    }
    if (c == '[') {
      v.type_ = Type::array;
      ++p;
      skipSpace(t, p);
      if (p < t.size() && t[p] == ']') {
        ++p;
        return v;
      }
      while (true) {
        v.array_.push_back(parseValue(t, p));
        skipSpace(t, p);
        if (p < t.size() && t[p] == ',') {
          ++p;
          continue;
        }
        if (p < t.size() && t[p] == ']') {
          ++p;
          return v;
        }
        fail("expected ',' or ']'", p);
      }
    }
    if (c == '"') {
      v.type_ = Type::string;
      v.string_ = parseString(t, p);
      return v;
    }
    if (t.substr(p, 4) == "true" || t.substr(p, 5) == "false") {
      v.type_ = Type::boolean;
      v.bool_ = t[p] == 't';
      p += v.bool_ ? 4 : 5;
      return v;
    }
    if (t.substr(p, 4) == "null") {
      p += 4;
      return v;
    }
    const size_t start = p;
    while (p < t.size() && (std::string_view("+-0123456789.eE").find(t[p]) != std::string_view::npos)) ++p;
    if (p == start) fail("unexpected character", p);
    v.type_ = Type::number;
    v.number_ = std::stod(std::string(t.substr(start, p - start)));
    return v;
  }

  Type type_ = Type::null;
  bool bool_ = false;
  double number_ = 0;
  std::string string_;
  std::vector<Value> array_;
  std::map<std::string, Value> object_;
};

}  // namespace sotto::test::json
