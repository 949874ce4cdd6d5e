// SPDX-License-Identifier: MIT
// A small JSON reader for test vectors (objects, arrays, strings with simple escapes, numbers, literals),
// plus base64 and hex decoding. Test-only: throws std::runtime_error on malformed input.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace sotto::test {

struct Json {
  enum class Kind { null, boolean, number, string, array, object } kind = Kind::null;
  bool b = false;
  double num = 0;
  std::string str;
  std::vector<Json> arr;
  std::map<std::string, Json> obj;

  const Json& operator[](const std::string& key) const {
    auto it = obj.find(key);
    if (kind != Kind::object || it == obj.end()) throw std::runtime_error("json: no key '" + key + "'");
    return it->second;
  }
  const Json& operator[](size_t i) const {
    if (kind != Kind::array || i >= arr.size()) throw std::runtime_error("json: index out of range");
    return arr[i];
  }
  bool has(const std::string& key) const { return kind == Kind::object && obj.count(key) != 0; }
  size_t size() const { return kind == Kind::array ? arr.size() : obj.size(); }
};

class JsonParser {
 public:
  static Json parse(const std::string& text) {
    JsonParser p(text);
    Json v = p.value();
    p.ws();
    if (p.i_ != text.size()) throw std::runtime_error("json: trailing data");
    return v;
  }

 private:
  explicit JsonParser(const std::string& t) : t_(t) {}
  void ws() {
    while (i_ < t_.size() && std::strchr(" \t\r\n", t_[i_]) != nullptr) ++i_;
  }
  char peek() {
    ws();
    if (i_ >= t_.size()) throw std::runtime_error("json: unexpected end");
    return t_[i_];
  }
  void expect(char c) {
    if (peek() != c) throw std::runtime_error(std::string("json: expected ") + c + " at " + std::to_string(i_));
    ++i_;
  }
  Json value() {
    Json v;
    const char c = peek();
    if (c == '{') {
      v.kind = Json::Kind::object;
      ++i_;
      if (peek() == '}') { ++i_; return v; }
      for (;;) {
        std::string key = string();
        expect(':');
        v.obj.emplace(std::move(key), value());
        if (peek() == ',') { ++i_; continue; }
        expect('}');
        return v;
      }
    }
    if (c == '[') {
      v.kind = Json::Kind::array;
      ++i_;
      if (peek() == ']') { ++i_; return v; }
      for (;;) {
        v.arr.push_back(value());
        if (peek() == ',') { ++i_; continue; }
        expect(']');
        return v;
      }
    }
    if (c == '"') {
      v.kind = Json::Kind::string;
      v.str = string();
      return v;
    }
    if (t_.compare(i_, 4, "true") == 0) { i_ += 4; v.kind = Json::Kind::boolean; v.b = true; return v; }
    if (t_.compare(i_, 5, "false") == 0) { i_ += 5; v.kind = Json::Kind::boolean; return v; }
    if (t_.compare(i_, 4, "null") == 0) { i_ += 4; return v; }
    char* end = nullptr;
    v.num = std::strtod(t_.c_str() + i_, &end);
    if (end == t_.c_str() + i_) throw std::runtime_error("json: bad value at " + std::to_string(i_));
    i_ = static_cast<size_t>(end - t_.c_str());
    v.kind = Json::Kind::number;
    return v;
  }
  std::string string() {
    expect('"');
    std::string s;
    while (i_ < t_.size() && t_[i_] != '"') {
      char c = t_[i_++];
      if (c == '\\') {
        const char e = t_.at(i_++);
        switch (e) {
          case 'n': c = '\n'; break;
          case 't': c = '\t'; break;
          case 'r': c = '\r'; break;
          case 'b': c = '\b'; break;
          case 'f': c = '\f'; break;
          case 'u': throw std::runtime_error("json: \\u escapes are not needed by these vectors");
          default: c = e; break;
        }
      }
      s += c;
    }
    expect('"');
    return s;
  }
  const std::string& t_;
  size_t i_ = 0;
};

inline std::vector<uint8_t> decodeBase64(const std::string& s) {
  auto val = [](char c) -> int {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
  };
  std::vector<uint8_t> out;
  uint32_t acc = 0;
  int bits = 0;
  for (char c : s) {
    if (c == '=') break;
    const int v = val(c);
    if (v < 0) throw std::runtime_error("base64: bad character");
    acc = (acc << 6) | static_cast<uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<uint8_t>(acc >> bits));
    }
  }
  return out;
}

inline std::vector<float> decodeF32Base64(const std::string& s) {
  const std::vector<uint8_t> b = decodeBase64(s);
  if (b.size() % 4 != 0) throw std::runtime_error("base64 f32: length not a multiple of 4");
  std::vector<float> f(b.size() / 4);
  std::memcpy(f.data(), b.data(), b.size());  // little-endian on both our targets
  return f;
}

inline std::vector<uint8_t> decodeHex(const std::string& s) {
  if (s.size() % 2 != 0) throw std::runtime_error("hex: odd length");
  std::vector<uint8_t> out(s.size() / 2);
  for (size_t i = 0; i < out.size(); ++i) out[i] = static_cast<uint8_t>(std::stoul(s.substr(2 * i, 2), nullptr, 16));
  return out;
}

}  // namespace sotto::test
