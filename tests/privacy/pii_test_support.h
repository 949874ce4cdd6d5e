// SPDX-License-Identifier: MIT
// Test helpers for the PII classifier: classify-to-strings, a JSONL reader for the span files, and scoring.
#pragma once

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "engine/privacy/pii.h"

namespace sotto::privacy::test {

struct LabelledSpan {
  std::uint32_t start = 0, end = 0;
  std::string type;
  bool operator<(const LabelledSpan& o) const { return std::tie(start, end, type) < std::tie(o.start, o.end, o.type); }
};

struct Example {
  std::string text;
  std::vector<LabelledSpan> spans;
};

// Minimal reader for the data README's format (string escapes incl. \uXXXX surrogate pairs, integers).
inline std::string parseJsonString(const std::string& s, std::size_t& i) {
  std::string out;
  ++i;  // opening quote
  auto put = [&](std::uint32_t cp) {
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
  };
  while (i < s.size() && s[i] != '"') {
    if (s[i] != '\\') {
      out += s[i++];
      continue;
    }
    const char e = s[i + 1];
    i += 2;
    switch (e) {
      case 'n': out += '\n'; break;
      case 't': out += '\t'; break;
      case 'r': out += '\r'; break;
      case 'b': out += '\b'; break;
      case 'f': out += '\f'; break;
      case 'u': {
        std::uint32_t cp = static_cast<std::uint32_t>(std::stoul(s.substr(i, 4), nullptr, 16));
        i += 4;
        if (cp >= 0xD800 && cp < 0xDC00 && s.compare(i, 2, "\\u") == 0) {
          const auto lo = static_cast<std::uint32_t>(std::stoul(s.substr(i + 2, 4), nullptr, 16));
          cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
          i += 6;
        }
        put(cp);
        break;
      }
      default: out += e;
    }
  }
  ++i;  // closing quote
  return out;
}

inline std::uint32_t fieldInt(const std::string& s, std::size_t from, const char* key) {
  const std::size_t k = s.find(key, from);
  std::size_t i = k + std::string(key).size();
  while (s[i] == ' ' || s[i] == ':') ++i;
  return static_cast<std::uint32_t>(std::stoul(s.substr(i)));
}

inline std::vector<Example> loadJsonl(const std::string& path) {
  std::vector<Example> out;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    Example ex;
    std::size_t t = line.find("\"text\"");
    t = line.find('"', t + 6);
    ex.text = parseJsonString(line, t);
    std::size_t p = line.find("\"spans\"");
    const std::size_t close = line.find(']', p);
    while ((p = line.find('{', p)) != std::string::npos && p < close) {
      LabelledSpan sp;
      sp.start = fieldInt(line, p, "\"start\"");
      sp.end = fieldInt(line, p, "\"end\"");
      std::size_t ty = line.find("\"type\"", p);
      ty = line.find('"', ty + 6);
      sp.type = parseJsonString(line, ty);
      ex.spans.push_back(sp);
      p = line.find('}', p);
    }
    out.push_back(std::move(ex));
  }
  return out;
}

struct Score {
  std::map<std::string, int> tp, fp, fn;
  int totalTp() const { int n = 0; for (auto& [k, v] : tp) n += v; return n; }
  int totalFp() const { int n = 0; for (auto& [k, v] : fp) n += v; return n; }
  int totalFn() const { int n = 0; for (auto& [k, v] : fn) n += v; return n; }
  double precision() const { return totalTp() / std::max(1.0, double(totalTp() + totalFp())); }
  double recall() const { return totalTp() / std::max(1.0, double(totalTp() + totalFn())); }
  double f1() const { const double p = precision(), r = recall(); return p + r > 0 ? 2 * p * r / (p + r) : 0; }
  double recallOf(const std::string& t) const {
    const int a = tp.count(t) ? tp.at(t) : 0, b = fn.count(t) ? fn.at(t) : 0;
    return a + b == 0 ? 1.0 : double(a) / (a + b);
  }
};

inline std::vector<LabelledSpan> toLabelled(const SpanBuffer& buf) {
  std::vector<LabelledSpan> v;
  for (const auto& s : buf) v.push_back({s.start, s.end, piiTypeName(s.type)});
  return v;
}

inline Score scoreAll(const PiiClassifier& c, const std::vector<Example>& data) {
  Score sc;
  SpanBuffer buf;
  for (const auto& ex : data) {
    (void)c.classify(ex.text, buf);
    const auto got = toLabelled(buf);
    std::set<LabelledSpan> g(ex.spans.begin(), ex.spans.end()), q(got.begin(), got.end());
    for (const auto& s : q) (g.count(s) ? sc.tp : sc.fp)[s.type]++;
    for (const auto& s : g) if (!q.count(s)) sc.fn[s.type]++;
  }
  return sc;
}

}  // namespace sotto::privacy::test
