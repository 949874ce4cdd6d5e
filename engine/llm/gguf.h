// SPDX-License-Identifier: MIT
// GGUF (llama.cpp's model format, v2/v3) reader over mmap: validated metadata and tensor table.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "sotto/hal/dtype.h"
#include "sotto/hal/result.h"

namespace sotto::llm {

// GGUF metadata value types (the file's numeric ids).
enum class GgufValueType : uint32_t {
  u8 = 0, i8 = 1, u16 = 2, i16 = 3, u32 = 4, i32 = 5, f32 = 6, boolean = 7, string = 8, array = 9,
  u64 = 10, i64 = 11, f64 = 12,
};

// "u8", "string", "array", ...; "unknown" for ids outside the enum.
const char* ggufValueTypeName(GgufValueType t);

struct GgufTensor {
  std::string name;
  hal::DType type = hal::DType::F32;
  uint32_t nDims = 0;
  uint64_t ne[4] = {1, 1, 1, 1};  // ggml order: ne[0] is the row length (contiguous), ne[1] the number of rows
  uint64_t offset = 0;            // from the start of the data section
  uint64_t nbytes = 0;
  const uint8_t* data = nullptr;  // inside the mapping; valid while the GgufFile lives
  uint64_t elements() const { return ne[0] * ne[1] * ne[2] * ne[3]; }
};

struct GgufOpenOptions {
  bool lockInMemory = false;  // mlock the mapping (config model.mlock)
  bool populate = false;      // prefault pages (MAP_POPULATE) so the first request does not page in weights
};

// Immutable after open(): any thread may read concurrently.
class GgufFile {
 public:
  // Maps and validates the whole file: magic, version, counts, string/array lengths, every tensor's type,
  // dimensions, offset and size inside the file, alignment, no overlaps. One clear error naming the file and
  // what is wrong; never reads out of bounds, whatever the bytes. Control thread; blocks on I/O.
  // Errors: not_found / permission / io from the OS, invalid_argument (not a regular file), corrupt (validation),
  // unsupported (GGUF v1, big-endian, arrays of arrays). The file must not be truncated in place while mapped
  // (SIGBUS): replace models by rename, as GgufWriter::write() does.
  static Result<std::unique_ptr<GgufFile>> open(const std::string& path, const GgufOpenOptions& options = {});
  // Same checks over bytes in memory (not copied: `bytes` must outlive the result). Used by tests and the fuzzer.
  static Result<std::unique_ptr<GgufFile>> fromBytes(std::span<const uint8_t> bytes, std::string nameForMessages);
  ~GgufFile();
  GgufFile(const GgufFile&) = delete;
  GgufFile& operator=(const GgufFile&) = delete;

  const std::string& path() const { return path_; }
  uint32_t version() const { return version_; }
  uint64_t fileSize() const { return bytes_.size(); }
  uint32_t alignment() const { return alignment_; }
  std::span<const uint8_t> bytes() const { return bytes_; }
  // File offset of the tensor data section (tensor offsets count from here).
  uint64_t dataOffset() const { return dataOffset_; }
  // Whether GgufOpenOptions::lockInMemory took effect. A failed mlock (RLIMIT_MEMLOCK, no CAP_IPC_LOCK) is not
  // fatal: the model still works, pages may just be evicted under memory pressure; lockError() says why.
  bool locked() const { return locked_; }
  const std::string& lockError() const { return lockError_; }

  // Metadata. Getters return nullopt when the key is absent or has another type; integer getters accept any
  // integer type whose value fits.
  bool has(std::string_view key) const;
  std::optional<GgufValueType> typeOf(std::string_view key) const;
  std::optional<std::string_view> getString(std::string_view key) const;
  std::optional<uint64_t> getUint(std::string_view key) const;
  std::optional<int64_t> getInt(std::string_view key) const;
  std::optional<double> getFloat(std::string_view key) const;  // f32 or f64
  std::optional<bool> getBool(std::string_view key) const;
  // Arrays: element type and count, and typed copies (views into the mapping for strings). Keep the returned
  // optional in a variable before iterating: `for (x : *f.getIntArray(k))` dangles (the temporary dies first).
  std::optional<GgufValueType> arrayType(std::string_view key) const;
  std::optional<uint64_t> arrayLength(std::string_view key) const;
  std::optional<std::vector<std::string_view>> getStringArray(std::string_view key) const;
  std::optional<std::vector<float>> getFloatArray(std::string_view key) const;   // f32/f64 elements
  std::optional<std::vector<int64_t>> getIntArray(std::string_view key) const;   // any integer elements
  // The raw little-endian element bytes of an array of fixed-size elements (numbers, bools): lets tools such as
  // the quantizer copy metadata exactly. nullopt for absent keys, non-arrays and string arrays.
  std::optional<std::span<const uint8_t>> arrayBytes(std::string_view key) const;
  std::vector<std::string_view> keys() const;

  // Tensors in file order.
  std::span<const GgufTensor> tensors() const { return tensors_; }
  const GgufTensor* tensor(std::string_view name) const;

  // "general.architecture" (e.g. "llama", "qwen2"); empty when absent.
  std::string_view architecture() const;

 private:
  GgufFile() = default;
  // One metadata entry, located by offsets into bytes_ (validated at open, so accessors need no bounds checks).
  struct Kv {
    std::string_view key;                           // view into the mapping
    GgufValueType type = GgufValueType::u8;
    GgufValueType elemType = GgufValueType::u8;     // arrays only
    uint64_t count = 0;                             // arrays: element count
    uint64_t offset = 0;                            // scalars: the value; strings: the text; arrays: element 0
    uint64_t size = 0;                              // payload bytes from offset
  };
  const Kv* find(std::string_view key) const;

  std::string path_;
  uint32_t version_ = 0;
  uint32_t alignment_ = 32;
  uint64_t dataOffset_ = 0;
  std::span<const uint8_t> bytes_;
  void* map_ = nullptr;  // owned mapping (nullptr for fromBytes)
  size_t mapSize_ = 0;
  bool locked_ = false;
  std::string lockError_;
  std::vector<Kv> kvs_;                 // file order
  std::vector<uint32_t> kvByKey_;       // indices into kvs_ sorted by key (binary search)
  std::vector<GgufTensor> tensors_;     // file order
  std::vector<uint32_t> tensorByName_;  // indices into tensors_ sorted by name
  friend class GgufParser;
};

}  // namespace sotto::llm
