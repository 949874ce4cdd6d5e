// SPDX-License-Identifier: MIT
// Helpers shared by the test_llm_gguf sources: shared-model paths, temp dirs, sha256, a raw GGUF byte builder.
#pragma once

#include <gtest/gtest.h>
#include <sodium.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include "engine/llm/gguf.h"
#include "engine/llm/gguf_writer.h"

namespace sotto::llm::test {

// ../shared beside the checkout holds the models, the vectors and mkgguf.py.
inline std::string sharedPath(const std::string& relative) {
  return std::string(SOTTO_SOURCE_DIR) + "/../shared/" + relative;
}

inline std::vector<uint8_t> readBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

inline void writeBytes(const std::string& path, std::span<const uint8_t> bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

inline std::string sha256Hex(std::span<const uint8_t> bytes) {
  EXPECT_GE(sodium_init(), 0);
  unsigned char digest[crypto_hash_sha256_BYTES];
  crypto_hash_sha256(digest, bytes.data(), bytes.size());
  char hex[2 * crypto_hash_sha256_BYTES + 1];
  sodium_bin2hex(hex, sizeof hex, digest, sizeof digest);
  return hex;
}

// A fresh directory under TMPDIR, removed with everything in it when the object goes.
class TempDir {
 public:
  TempDir() {
    const char* base = std::getenv("TMPDIR");
    std::string pattern = std::string(base != nullptr && *base != '\0' ? base : "/tmp") + "/sotto-gguf-XXXXXX";
    if (::mkdtemp(pattern.data()) != nullptr) path_ = pattern;
    EXPECT_FALSE(path_.empty()) << "mkdtemp failed";
  }
  ~TempDir() {
    std::error_code ec;
    if (!path_.empty()) std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  std::string file(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

// Runs mkgguf.py for tiny-llama; returns the file path ("" and a test failure when the generator fails).
inline std::string generateTinyLlama(const TempDir& dir, const std::string& type) {
  const std::string out = dir.file("tiny-llama-" + type + ".gguf");
  const std::string cmd = "/usr/bin/python3 " + sharedPath("tools/mkgguf.py") + " --shape tiny-llama --type " + type +
                          " --seed 1 -q -o " + out + " > /dev/null";
  const int rc = std::system(cmd.c_str());
  EXPECT_EQ(rc, 0) << "mkgguf.py failed: " << cmd;
  return rc == 0 ? out : std::string();
}

// Little-endian GGUF pieces written field by field, so tests can put any value (valid or hostile) anywhere.
class RawGguf {
 public:
  RawGguf& u8(uint8_t v) { return raw(&v, 1); }
  RawGguf& u32(uint32_t v) { return raw(&v, sizeof v); }
  RawGguf& u64(uint64_t v) { return raw(&v, sizeof v); }
  RawGguf& str(std::string_view s) {
    u64(s.size());
    return raw(s.data(), s.size());
  }
  RawGguf& raw(const void* p, size_t n) {
    const auto* b = static_cast<const uint8_t*>(p);
    bytes_.insert(bytes_.end(), b, b + n);
    return *this;
  }
  RawGguf& header(uint64_t tensors, uint64_t kvs, uint32_t version = 3) {
    raw("GGUF", 4);
    u32(version);
    u64(tensors);
    return u64(kvs);
  }
  RawGguf& kvU32(std::string_view key, uint32_t v) {
    str(key);
    u32(static_cast<uint32_t>(GgufValueType::u32));
    return u32(v);
  }
  RawGguf& kvString(std::string_view key, std::string_view v) {
    str(key);
    u32(static_cast<uint32_t>(GgufValueType::string));
    return str(v);
  }
  // Tensor info: name, dims (their count is nDims unless overridden), type id, offset.
  RawGguf& tensor(std::string_view name, const std::vector<uint64_t>& dims, uint32_t type, uint64_t offset) {
    str(name);
    u32(static_cast<uint32_t>(dims.size()));
    for (uint64_t d : dims) u64(d);
    u32(type);
    return u64(offset);
  }
  RawGguf& padTo(uint64_t alignment) {
    while (bytes_.size() % alignment != 0) bytes_.push_back(0);
    return *this;
  }
  RawGguf& zeros(uint64_t n) {
    bytes_.insert(bytes_.end(), n, 0);
    return *this;
  }
  size_t size() const { return bytes_.size(); }
  const std::vector<uint8_t>& bytes() const { return bytes_; }

 private:
  std::vector<uint8_t> bytes_;
};

// Expects fromBytes to refuse `bytes` with one line naming the file and containing `needle`; returns the message.
inline std::string expectRefused(std::span<const uint8_t> bytes, std::string_view needle, Errc code = Errc::corrupt) {
  const std::string name = "hostile.gguf";
  Result<std::unique_ptr<GgufFile>> r = GgufFile::fromBytes(bytes, name);
  if (r.ok()) {
    ADD_FAILURE() << "accepted a file that should fail with '" << needle << "'";
    return {};
  }
  const std::string& m = r.error().message;
  EXPECT_EQ(r.error().code, code) << m;
  EXPECT_NE(m.find(needle), std::string::npos) << "message: " << m << "\nexpected to contain: " << needle;
  EXPECT_EQ(m.rfind(name + ": ", 0), 0u) << "message does not start with the file name: " << m;
  EXPECT_EQ(m.find_first_of("\r\n"), std::string::npos) << "message spans lines: " << m;
  return m;
}

// A small valid model built with the writer: metadata of several kinds and three tensors of different types.
inline GgufWriter smallModelWriter() {
  GgufWriter w;
  EXPECT_TRUE(w.addString("general.architecture", "llama").ok());
  EXPECT_TRUE(w.addU32("llama.block_count", 1).ok());
  EXPECT_TRUE(w.addF32("llama.rope.freq_base", 10000.0f).ok());
  const std::vector<std::string_view> tokens{"<unk>", "a", "b"};
  EXPECT_TRUE(w.addStringArray("tokenizer.ggml.tokens", tokens).ok());
  const std::vector<int32_t> types{2, 1, 1};
  EXPECT_TRUE(w.addArray("tokenizer.ggml.token_type", std::span<const int32_t>(types)).ok());
  EXPECT_TRUE(w.addBool("tokenizer.ggml.add_bos_token", true).ok());
  std::vector<uint8_t> f32(4 * 8);
  for (size_t i = 0; i < f32.size(); ++i) f32[i] = static_cast<uint8_t>(i);
  EXPECT_TRUE(w.addTensor("norm.weight", hal::DType::F32, {8}, f32).ok());
  std::vector<uint8_t> q8(34 * 2, 0x11);
  EXPECT_TRUE(w.addTensor("w.weight", hal::DType::Q8_0, {32, 2}, q8).ok());
  std::vector<uint8_t> f16(2 * 3 * 2, 0x22);
  EXPECT_TRUE(w.addTensor("b.weight", hal::DType::F16, {3, 2}, f16).ok());
  return w;
}

}  // namespace sotto::llm::test
