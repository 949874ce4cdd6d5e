// SPDX-License-Identifier: MIT
// Helpers for test_llm_tokenizer: the two reference vocabularies (loaded once), vector files, UTF-8 checks.
#pragma once

#include <gtest/gtest.h>
#include <sodium.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "engine/llm/detokenizer.h"
#include "engine/llm/gguf.h"
#include "engine/llm/tokenizer.h"
#include "tests/llm_tokenizer/json_lite.h"

namespace sotto::llm::test {

// ../shared beside the checkout holds the models, the vectors and mkgguf.py.
inline std::string sharedPath(const std::string& relative) {
  return std::string(SOTTO_SOURCE_DIR) + "/../shared/" + relative;
}

inline std::string readText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

inline const sotto::test::json::Value& vectorFile(const std::string& name) {
  // Parsed once per process: the SmolLM2 file is large and every suite reads it.
  static std::map<std::string, std::unique_ptr<sotto::test::json::Value>> cache;
  auto& slot = cache[name];
  if (!slot) {
    const std::string text = readText(sharedPath("vectors/" + name));
    if (text.empty()) throw std::runtime_error("cannot read vectors/" + name);
    slot = std::make_unique<sotto::test::json::Value>(sotto::test::json::Value::parse(text));
  }
  return *slot;
}

// Independent of the engine's validator on purpose: strict UTF-8 per Unicode table 3-7.
inline bool validUtf8(std::string_view s) {
  size_t i = 0;
  while (i < s.size()) {
    const auto b = static_cast<unsigned char>(s[i]);
    int n;
    unsigned lo = 0x80, hi = 0xBF;
    if (b < 0x80) n = 1;
    else if (b >= 0xC2 && b <= 0xDF) n = 2;
    else if (b == 0xE0) n = 3, lo = 0xA0;
    else if (b >= 0xE1 && b <= 0xEC) n = 3;
    else if (b == 0xED) n = 3, hi = 0x9F;
    else if (b >= 0xEE && b <= 0xEF) n = 3;
    else if (b == 0xF0) n = 4, lo = 0x90;
    else if (b >= 0xF1 && b <= 0xF3) n = 4;
    else if (b == 0xF4) n = 4, hi = 0x8F;
    else return false;
    if (i + static_cast<size_t>(n) > s.size()) return false;
    for (int k = 1; k < n; ++k) {
      const auto c = static_cast<unsigned char>(s[i + static_cast<size_t>(k)]);
      if (k == 1 ? (c < lo || c > hi) : (c & 0xC0) != 0x80) return false;
    }
    i += static_cast<size_t>(n);
  }
  return true;
}

// Feeds ids one at a time; returns the concatenated text and records every chunk.
struct StreamResult {
  std::string text;
  std::vector<std::string> chunks;
};
inline StreamResult streamDetokenize(const Tokenizer& tok, const std::vector<TokenId>& ids, DetokenizeOptions opt) {
  StreamingDetokenizer stream(tok, opt);
  StreamResult r;
  for (const TokenId id : ids) {
    const std::string_view chunk = stream.push(id);
    r.chunks.emplace_back(chunk);
    r.text += chunk;
  }
  const std::string_view tail = stream.flush();
  r.chunks.emplace_back(tail);
  r.text += tail;
  return r;
}

// sha256 of a file ("" when it cannot be read).
inline std::string sha256File(const std::string& path) {
  const std::string bytes = readText(path);
  if (bytes.empty()) return {};
  if (sodium_init() < 0) return "sodium_init failed";
  unsigned char digest[crypto_hash_sha256_BYTES];
  crypto_hash_sha256(digest, reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size());
  char hex[2 * crypto_hash_sha256_BYTES + 1];
  sodium_bin2hex(hex, sizeof hex, digest, sizeof digest);
  return hex;
}

// The synthetic tiny-llama q8_0 (real SmolLM2 vocabulary), generated once per process. The sha256 pins the
// generator output the vectors were made with (tools/README-mkgguf.md).
inline constexpr const char* kTinyLlamaQ8Sha = "fdc14e626c52ec8fe4b966ead97947317ee56da15e99cf307f1f9a6aa42f46f8";

struct SmolModel {
  std::unique_ptr<GgufFile> file;
  std::unique_ptr<Tokenizer> tokenizer;
  std::string error;
};

// Generated once into the build tree and reused by later test processes (ctest runs every test in its own
// process); written under a unique name and renamed, so concurrent first runs cannot see a partial file.
inline std::string tinyLlamaPath(std::string& error) {
  const std::string dir = SOTTO_TOKENIZER_TEST_CACHE;
  const std::string path = dir + "/tiny-llama-q8_0.gguf";
  if (sha256File(path) == kTinyLlamaQ8Sha) return path;
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  const std::string tmp = path + ".tmp" + std::to_string(::getpid());
  const std::string cmd = "/usr/bin/python3 " + sharedPath("tools/mkgguf.py") +
                          " --shape tiny-llama --type q8_0 --seed 1 -q -o " + tmp + " > /dev/null";
  if (std::system(cmd.c_str()) != 0) {
    error = "mkgguf.py failed: " + cmd;
    return {};
  }
  if (const std::string sha = sha256File(tmp); sha != kTinyLlamaQ8Sha) {
    std::filesystem::remove(tmp, ec);
    error = "mkgguf.py output changed (sha256 " + sha + "): the tokenizer vectors may be stale";
    return {};
  }
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    error = "cannot rename " + tmp + ": " + ec.message();
    return {};
  }
  return path;
}

inline const SmolModel& smolModel() {
  static const std::unique_ptr<SmolModel> model = [] {
    auto s = std::make_unique<SmolModel>();
    const std::string path = tinyLlamaPath(s->error);
    if (path.empty()) return s;
    auto file = GgufFile::open(path);
    if (!file) {
      s->error = file.error().message;
      return s;
    }
    s->file = std::move(file).value();
    auto tok = Tokenizer::fromGguf(*s->file);
    if (!tok) {
      s->error = tok.error().message;
      return s;
    }
    s->tokenizer = std::move(tok).value();
    return s;
  }();
  return *model;
}

struct StoriesModel {
  std::unique_ptr<GgufFile> file;
  std::unique_ptr<Tokenizer> tokenizer;
  std::string error;
};

inline const StoriesModel& storiesModel() {
  static const std::unique_ptr<StoriesModel> model = [] {
    auto s = std::make_unique<StoriesModel>();
    auto file = GgufFile::open(sharedPath("models/stories260K-f32.gguf"));
    if (!file) {
      s->error = file.error().message;
      return s;
    }
    s->file = std::move(file).value();
    auto tok = Tokenizer::fromGguf(*s->file);
    if (!tok) {
      s->error = tok.error().message;
      return s;
    }
    s->tokenizer = std::move(tok).value();
    return s;
  }();
  return *model;
}

inline std::string idsToString(const std::vector<TokenId>& ids) {
  std::ostringstream os;
  os << "[";
  for (size_t i = 0; i < ids.size(); ++i) os << (i ? ", " : "") << ids[i];
  os << "]";
  return os.str();
}

}  // namespace sotto::llm::test
