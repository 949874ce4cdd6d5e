// SPDX-License-Identifier: MIT
// GgufWriter: builds a GGUF v3 file (metadata of every type, tensors) and writes it atomically.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "engine/llm/gguf.h"
#include "sotto/hal/dtype.h"
#include "sotto/hal/result.h"

namespace sotto::llm {

// Collects metadata and tensors in memory, then serializes them in the order added (the quantizer, tools and
// tests use it). Not thread-safe: one thread builds and writes; write() blocks on I/O.
class GgufWriter {
 public:
  GgufWriter() = default;

  // Tensor data alignment, a power of two (default 32). When set, it is written as general.alignment (u32) first.
  Status setAlignment(uint32_t alignment);
  uint32_t alignment() const { return alignment_; }

  // Metadata. An empty key, a key over 65535 bytes, a duplicate key, or "general.alignment" (use setAlignment)
  // is refused.
  Status addU8(std::string_view key, uint8_t value);
  Status addI8(std::string_view key, int8_t value);
  Status addU16(std::string_view key, uint16_t value);
  Status addI16(std::string_view key, int16_t value);
  Status addU32(std::string_view key, uint32_t value);
  Status addI32(std::string_view key, int32_t value);
  Status addU64(std::string_view key, uint64_t value);
  Status addI64(std::string_view key, int64_t value);
  Status addF32(std::string_view key, float value);
  Status addF64(std::string_view key, double value);
  Status addBool(std::string_view key, bool value);
  Status addString(std::string_view key, std::string_view value);
  // Arrays; the element type follows the span's type.
  Status addArray(std::string_view key, std::span<const uint8_t> values);
  Status addArray(std::string_view key, std::span<const int8_t> values);
  Status addArray(std::string_view key, std::span<const uint16_t> values);
  Status addArray(std::string_view key, std::span<const int16_t> values);
  Status addArray(std::string_view key, std::span<const uint32_t> values);
  Status addArray(std::string_view key, std::span<const int32_t> values);
  Status addArray(std::string_view key, std::span<const uint64_t> values);
  Status addArray(std::string_view key, std::span<const int64_t> values);
  Status addArray(std::string_view key, std::span<const float> values);
  Status addArray(std::string_view key, std::span<const double> values);
  Status addBoolArray(std::string_view key, std::span<const bool> values);
  Status addStringArray(std::string_view key, std::span<const std::string_view> values);
  Status addStringArray(std::string_view key, std::span<const std::string> values);

  // A tensor in ggml order (dims[0] is the row length) with its raw bytes in the type's block layout; the byte
  // count must match the shape. The bytes are copied, or moved in with the second overload.
  Status addTensor(std::string_view name, hal::DType type, const std::vector<uint64_t>& dims,
                   std::span<const uint8_t> data);
  Status addTensor(std::string_view name, hal::DType type, const std::vector<uint64_t>& dims,
                   std::vector<uint8_t>&& data);

  size_t kvCount() const { return kvs_.size(); }
  size_t tensorCount() const { return tensors_.size(); }

  // The whole file in memory.
  std::vector<uint8_t> toBytes() const;
  // Writes a temporary file beside `path`, fsyncs it and renames it over `path`, so readers see either the old
  // file or the complete new one. On failure (unwritable directory, full disk) nothing is left behind and the
  // error names the file and the OS reason.
  Status write(const std::string& path) const;

 private:
  struct Kv {
    std::string key;
    std::vector<uint8_t> encoded;  // value type id followed by the value, as in the file
  };
  struct Tensor {
    std::string name;
    hal::DType type = hal::DType::F32;
    std::vector<uint64_t> dims;
    std::vector<uint8_t> data;
  };

  Status checkKey(std::string_view key) const;
  Status addEncoded(std::string_view key, std::vector<uint8_t> encoded);
  template <typename T>
  Status addScalar(std::string_view key, GgufValueType type, T value);
  template <typename T>
  Status addNumericArray(std::string_view key, GgufValueType elemType, std::span<const T> values);
  template <typename S>
  Status addStrings(std::string_view key, std::span<const S> values);
  Status checkTensor(std::string_view name, hal::DType type, const std::vector<uint64_t>& dims,
                     uint64_t dataBytes) const;
  // Header, metadata, tensor table and the padding up to the data section.
  std::vector<uint8_t> headerBytes() const;
  uint64_t paddedSize(uint64_t n) const { return (n + alignment_ - 1) / alignment_ * alignment_; }

  uint32_t alignment_ = 32;
  bool alignmentSet_ = false;
  std::vector<Kv> kvs_;
  std::vector<Tensor> tensors_;
  std::unordered_set<std::string> keys_;
  std::unordered_set<std::string> names_;
};

}  // namespace sotto::llm
