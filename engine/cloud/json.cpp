// SPDX-License-Identifier: MIT
// The bounded JSON reader and string writer (see json.h).
#include "engine/cloud/json.h"

#include <charconv>
#include <cmath>

namespace sotto::json {

const Value* Value::find(std::string_view key) const {
  if (kind_ != Kind::object) return nullptr;
  for (auto it = members_.rbegin(); it != members_.rend(); ++it)
    if (it->first == key) return &it->second;
  return nullptr;
}

const std::string* Value::findString(std::string_view key) const {
  const Value* v = find(key);
  return v != nullptr && v->isString() ? &v->string_ : nullptr;
}

namespace {

void appendUtf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

// Length of the valid UTF-8 sequence at s[i], or 0 when the bytes there are not one.
size_t utf8Length(std::string_view s, size_t i) {
  const auto b = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = b(i);
  if (c < 0x80) return 1;
  size_t n = 0;
  uint32_t cp = 0;
  if (c >= 0xC2 && c <= 0xDF) {
    n = 2;
    cp = c & 0x1F;
  } else if (c >= 0xE0 && c <= 0xEF) {
    n = 3;
    cp = c & 0x0F;
  } else if (c >= 0xF0 && c <= 0xF4) {
    n = 4;
    cp = c & 0x07;
  } else {
    return 0;
  }
  if (i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k) {
    if ((b(i + k) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (b(i + k) & 0x3F);
  }
  // Overlong forms, surrogates and values past U+10FFFF are not UTF-8.
  if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10FFFF)) || (cp >= 0xD800 && cp <= 0xDFFF))
    return 0;
  return n;
}

}  // namespace

class Parser {
 public:
  Parser(std::string_view t, const Limits& l) : t_(t), limits_(l) {}

  Result<Value> run() {
    Value v;
    if (!value(v, 0)) return fail();
    ws();
    if (i_ != t_.size()) {
      what_ = "trailing data after the value";
      return fail();
    }
    return v;
  }

 private:
  Error fail() const {
    return makeError(Errc::corrupt, "invalid JSON at byte " + std::to_string(i_) + ": " + what_);
  }
  void ws() {
    while (i_ < t_.size() && (t_[i_] == ' ' || t_[i_] == '\t' || t_[i_] == '\r' || t_[i_] == '\n')) ++i_;
  }
  bool expected(const char* what) {
    what_ = what;
    return false;
  }
  bool literal(std::string_view word) {
    if (t_.substr(i_, word.size()) != word) return expected("an unknown literal");
    i_ += word.size();
    return true;
  }

  bool value(Value& v, uint32_t depth) {
    ws();
    if (i_ >= t_.size()) return expected("a value, found the end");
    const char c = t_[i_];
    if (c == '{' || c == '[') {
      if (depth >= limits_.maxDepth) return expected("less nesting (depth limit)");
      return c == '{' ? object(v, depth + 1) : array(v, depth + 1);
    }
    if (c == '"') {
      v.kind_ = Value::Kind::string;
      return string(v.string_);
    }
    if (c == 't') {
      v.kind_ = Value::Kind::boolean;
      v.bool_ = true;
      return literal("true");
    }
    if (c == 'f') {
      v.kind_ = Value::Kind::boolean;
      return literal("false");
    }
    if (c == 'n') return literal("null");
    if (c == '-' || (c >= '0' && c <= '9')) return number(v);
    return expected("a value");
  }

  bool object(Value& v, uint32_t depth) {
    v.kind_ = Value::Kind::object;
    ++i_;
    ws();
    if (i_ < t_.size() && t_[i_] == '}') {
      ++i_;
      return true;
    }
    for (;;) {
      ws();
      if (i_ >= t_.size() || t_[i_] != '"') return expected("a member name");
      std::pair<std::string, Value> m;
      if (!string(m.first)) return false;
      ws();
      if (i_ >= t_.size() || t_[i_] != ':') return expected("':'");
      ++i_;
      if (!value(m.second, depth)) return false;
      v.members_.push_back(std::move(m));
      ws();
      if (i_ >= t_.size()) return expected("',' or '}'");
      if (t_[i_] == '}') {
        ++i_;
        return true;
      }
      if (t_[i_] != ',') return expected("',' or '}'");
      ++i_;
    }
  }

  bool array(Value& v, uint32_t depth) {
    v.kind_ = Value::Kind::array;
    ++i_;
    ws();
    if (i_ < t_.size() && t_[i_] == ']') {
      ++i_;
      return true;
    }
    for (;;) {
      Value item;
      if (!value(item, depth)) return false;
      v.items_.push_back(std::move(item));
      ws();
      if (i_ >= t_.size()) return expected("',' or ']'");
      if (t_[i_] == ']') {
        ++i_;
        return true;
      }
      if (t_[i_] != ',') return expected("',' or ']'");
      ++i_;
    }
  }

  bool hex4(uint32_t& out) {
    if (i_ + 4 > t_.size()) return expected("four hex digits");
    out = 0;
    for (int k = 0; k < 4; ++k) {
      const char c = t_[i_++];
      uint32_t d = 0;
      if (c >= '0' && c <= '9') d = static_cast<uint32_t>(c - '0');
      else if (c >= 'a' && c <= 'f') d = static_cast<uint32_t>(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F') d = static_cast<uint32_t>(c - 'A' + 10);
      else return expected("a hex digit");
      out = out * 16 + d;
    }
    return true;
  }

  bool string(std::string& out) {
    ++i_;  // opening quote
    for (;;) {
      if (i_ >= t_.size()) return expected("the closing quote");
      const unsigned char c = static_cast<unsigned char>(t_[i_]);
      if (c == '"') {
        ++i_;
        return true;
      }
      if (c < 0x20) return expected("no raw control character in a string");
      if (c != '\\') {
        const size_t n = utf8Length(t_, i_);
        if (n == 0) return expected("valid UTF-8 in a string");
        out.append(t_.substr(i_, n));
        i_ += n;
        continue;
      }
      if (++i_ >= t_.size()) return expected("an escape");
      const char e = t_[i_++];
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          uint32_t cp = 0;
          if (!hex4(cp)) return false;
          if (cp >= 0xD800 && cp <= 0xDBFF && t_.substr(i_, 2) == "\\u") {
            const size_t save = i_;
            i_ += 2;
            uint32_t lo = 0;
            if (!hex4(lo)) return false;
            if (lo >= 0xDC00 && lo <= 0xDFFF) {
              cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
            } else {
              i_ = save;  // a lone high surrogate; the next escape stands on its own
            }
          }
          if (cp >= 0xD800 && cp <= 0xDFFF) cp = 0xFFFD;  // lone surrogates cannot be UTF-8
          appendUtf8(out, cp);
          break;
        }
        default: return expected("a valid escape");
      }
    }
  }

  bool number(Value& v) {
    const size_t start = i_;
    if (t_[i_] == '-') ++i_;
    const auto digits = [&] {
      const size_t s = i_;
      while (i_ < t_.size() && t_[i_] >= '0' && t_[i_] <= '9') ++i_;
      return i_ - s;
    };
    if (i_ < t_.size() && t_[i_] == '0') {
      ++i_;
    } else if (digits() == 0) {
      return expected("digits");
    }
    if (i_ < t_.size() && t_[i_] == '.') {
      ++i_;
      if (digits() == 0) return expected("digits after '.'");
    }
    if (i_ < t_.size() && (t_[i_] == 'e' || t_[i_] == 'E')) {
      ++i_;
      if (i_ < t_.size() && (t_[i_] == '+' || t_[i_] == '-')) ++i_;
      if (digits() == 0) return expected("exponent digits");
    }
    double d = 0.0;
    const auto r = std::from_chars(t_.data() + start, t_.data() + i_, d);
    // Out of range: from_chars leaves d alone; keep the sign's infinity out of the tree (JSON has none).
    if (r.ec == std::errc::result_out_of_range) d = 0.0;
    else if (r.ec != std::errc{}) return expected("a number");
    if (!std::isfinite(d)) d = 0.0;
    v.kind_ = Value::Kind::number;
    v.number_ = d;
    return true;
  }

  std::string_view t_;
  Limits limits_;
  size_t i_ = 0;
  const char* what_ = "";
};

Result<Value> parse(std::string_view text, const Limits& limits) {
  if (text.size() > limits.maxInputBytes)
    return makeError(Errc::corrupt, "JSON text of " + std::to_string(text.size()) + " bytes exceeds the limit of " +
                                        std::to_string(limits.maxInputBytes));
  return Parser(text, limits).run();
}

void appendString(std::string& out, std::string_view s) {
  static const char kHex[] = "0123456789abcdef";
  out += '"';
  for (size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
      ++i;
    } else if (c == '\n') {
      out += "\\n";
      ++i;
    } else if (c == '\r') {
      out += "\\r";
      ++i;
    } else if (c == '\t') {
      out += "\\t";
      ++i;
    } else if (c < 0x20 || c == 0x7F) {
      out += "\\u00";
      out += kHex[c >> 4];
      out += kHex[c & 0xF];
      ++i;
    } else if (c < 0x80) {
      out += static_cast<char>(c);
      ++i;
    } else {
      const size_t n = utf8Length(s, i);
      if (n == 0) {
        out += "\xEF\xBF\xBD";
        ++i;
      } else {
        out.append(s.substr(i, n));
        i += n;
      }
    }
  }
  out += '"';
}

std::string quote(std::string_view s) {
  std::string out;
  appendString(out, s);
  return out;
}

}  // namespace sotto::json
