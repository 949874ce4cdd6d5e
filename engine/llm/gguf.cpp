// SPDX-License-Identifier: MIT
// GgufFile: maps a model file read-only and answers metadata and tensor queries from the validated tables.
#include "engine/llm/gguf.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <limits>

#include "engine/llm/gguf_parse.h"

namespace sotto::llm {
namespace {

template <typename T>
T load(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

bool isInteger(GgufValueType t) {
  switch (t) {
    case GgufValueType::u8: case GgufValueType::i8: case GgufValueType::u16: case GgufValueType::i16:
    case GgufValueType::u32: case GgufValueType::i32: case GgufValueType::u64: case GgufValueType::i64:
      return true;
    default:
      return false;
  }
}

uint64_t integerSize(GgufValueType t) {
  switch (t) {
    case GgufValueType::u8: case GgufValueType::i8: return 1;
    case GgufValueType::u16: case GgufValueType::i16: return 2;
    case GgufValueType::u32: case GgufValueType::i32: return 4;
    default: return 8;
  }
}

// Integer at p as a signed value, or its unsigned magnitude; `negative` tells which.
struct IntValue {
  bool negative = false;
  uint64_t u = 0;  // valid when !negative
  int64_t i = 0;   // valid when negative
};

IntValue loadInt(GgufValueType t, const uint8_t* p) {
  IntValue v;
  int64_t s = 0;
  switch (t) {
    case GgufValueType::u8: v.u = load<uint8_t>(p); return v;
    case GgufValueType::u16: v.u = load<uint16_t>(p); return v;
    case GgufValueType::u32: v.u = load<uint32_t>(p); return v;
    case GgufValueType::u64: v.u = load<uint64_t>(p); return v;
    case GgufValueType::i8: s = load<int8_t>(p); break;
    case GgufValueType::i16: s = load<int16_t>(p); break;
    case GgufValueType::i32: s = load<int32_t>(p); break;
    default: s = load<int64_t>(p); break;
  }
  if (s < 0) {
    v.negative = true;
    v.i = s;
  } else {
    v.u = static_cast<uint64_t>(s);
  }
  return v;
}

std::optional<int64_t> asInt64(const IntValue& v) {
  if (v.negative) return v.i;
  if (v.u > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) return std::nullopt;
  return static_cast<int64_t>(v.u);
}

Error openError(const std::string& path, const char* what, int err) {
  const Errc code = err == ENOENT || err == ENOTDIR ? Errc::not_found
                    : err == EACCES || err == EPERM ? Errc::permission
                                                    : Errc::io;
  return makeError(code, path + ": " + what + ": " + std::strerror(err));
}

}  // namespace

const char* ggufValueTypeName(GgufValueType t) {
  switch (t) {
    case GgufValueType::u8: return "u8";
    case GgufValueType::i8: return "i8";
    case GgufValueType::u16: return "u16";
    case GgufValueType::i16: return "i16";
    case GgufValueType::u32: return "u32";
    case GgufValueType::i32: return "i32";
    case GgufValueType::f32: return "f32";
    case GgufValueType::boolean: return "bool";
    case GgufValueType::string: return "string";
    case GgufValueType::array: return "array";
    case GgufValueType::u64: return "u64";
    case GgufValueType::i64: return "i64";
    case GgufValueType::f64: return "f64";
  }
  return "unknown";
}

Result<std::unique_ptr<GgufFile>> GgufFile::open(const std::string& path, const GgufOpenOptions& options) {
  // Non-blocking: a FIFO would wait for a writer for ever; it is refused as not a regular file below.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
  if (fd < 0) return openError(path, "cannot open", errno);
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    const int err = errno;
    ::close(fd);
    return openError(path, "cannot stat", err);
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    return makeError(Errc::invalid_argument, path + ": not a regular file");
  }
  if (st.st_size == 0) {
    ::close(fd);
    return makeError(Errc::corrupt, path + ": empty file, not a GGUF model");
  }
  if (static_cast<uint64_t>(st.st_size) > std::numeric_limits<size_t>::max()) {
    ::close(fd);
    return makeError(Errc::unsupported, path + ": file too large to map on this system");
  }
  const auto size = static_cast<size_t>(st.st_size);
  // MAP_PRIVATE + PROT_READ: the weights are shared with the page cache and never written. Only the pages the
  // validation touches (header, metadata, tensor table) are read now; the rest pages in on first use.
  const int flags = MAP_PRIVATE | (options.populate ? MAP_POPULATE : 0);
  void* map = ::mmap(nullptr, size, PROT_READ, flags, fd, 0);
  const int mapErr = errno;
  ::close(fd);  // the mapping keeps the file referenced
  if (map == MAP_FAILED) return openError(path, "cannot map", mapErr);

  std::unique_ptr<GgufFile> file(new GgufFile());
  file->path_ = path;
  file->map_ = map;
  file->mapSize_ = size;
  file->bytes_ = {static_cast<const uint8_t*>(map), size};
  if (Status s = GgufParser::parse(*file); !s) return std::move(s).error();

  // Locked only once valid, so a bad file never pins memory.
  if (options.lockInMemory) {
    if (::mlock(map, size) == 0) {
      file->locked_ = true;
    } else {
      file->lockError_ = std::string("mlock of ") + std::to_string(size) + " bytes failed: " + std::strerror(errno);
    }
  }
  return file;
}

Result<std::unique_ptr<GgufFile>> GgufFile::fromBytes(std::span<const uint8_t> bytes, std::string nameForMessages) {
  std::unique_ptr<GgufFile> file(new GgufFile());
  file->path_ = std::move(nameForMessages);
  file->bytes_ = bytes;
  if (Status s = GgufParser::parse(*file); !s) return std::move(s).error();
  return file;
}

GgufFile::~GgufFile() {
  if (map_ != nullptr) ::munmap(map_, mapSize_);  // also drops an mlock
}

const GgufFile::Kv* GgufFile::find(std::string_view key) const {
  auto it = std::lower_bound(kvByKey_.begin(), kvByKey_.end(), key,
                             [this](uint32_t i, std::string_view k) { return kvs_[i].key < k; });
  if (it == kvByKey_.end() || kvs_[*it].key != key) return nullptr;
  return &kvs_[*it];
}

bool GgufFile::has(std::string_view key) const { return find(key) != nullptr; }

std::optional<GgufValueType> GgufFile::typeOf(std::string_view key) const {
  const Kv* kv = find(key);
  if (kv == nullptr) return std::nullopt;
  return kv->type;
}

std::optional<std::string_view> GgufFile::getString(std::string_view key) const {
  const Kv* kv = find(key);
  if (kv == nullptr || kv->type != GgufValueType::string) return std::nullopt;
  return std::string_view(reinterpret_cast<const char*>(bytes_.data() + kv->offset), kv->size);
}

std::optional<uint64_t> GgufFile::getUint(std::string_view key) const {
  const Kv* kv = find(key);
  if (kv == nullptr || !isInteger(kv->type)) return std::nullopt;
  const IntValue v = loadInt(kv->type, bytes_.data() + kv->offset);
  if (v.negative) return std::nullopt;
  return v.u;
}

std::optional<int64_t> GgufFile::getInt(std::string_view key) const {
  const Kv* kv = find(key);
  if (kv == nullptr || !isInteger(kv->type)) return std::nullopt;
  return asInt64(loadInt(kv->type, bytes_.data() + kv->offset));
}

std::optional<double> GgufFile::getFloat(std::string_view key) const {
  const Kv* kv = find(key);
  if (kv == nullptr) return std::nullopt;
  if (kv->type == GgufValueType::f32) return load<float>(bytes_.data() + kv->offset);
  if (kv->type == GgufValueType::f64) return load<double>(bytes_.data() + kv->offset);
  return std::nullopt;
}

std::optional<bool> GgufFile::getBool(std::string_view key) const {
  const Kv* kv = find(key);
  if (kv == nullptr || kv->type != GgufValueType::boolean) return std::nullopt;
  return bytes_[kv->offset] != 0;
}

std::optional<GgufValueType> GgufFile::arrayType(std::string_view key) const {
  const Kv* kv = find(key);
  if (kv == nullptr || kv->type != GgufValueType::array) return std::nullopt;
  return kv->elemType;
}

std::optional<uint64_t> GgufFile::arrayLength(std::string_view key) const {
  const Kv* kv = find(key);
  if (kv == nullptr || kv->type != GgufValueType::array) return std::nullopt;
  return kv->count;
}

std::optional<std::vector<std::string_view>> GgufFile::getStringArray(std::string_view key) const {
  const Kv* kv = find(key);
  if (kv == nullptr || kv->type != GgufValueType::array || kv->elemType != GgufValueType::string) {
    return std::nullopt;
  }
  std::vector<std::string_view> out;
  out.reserve(kv->count);
  const uint8_t* p = bytes_.data() + kv->offset;
  for (uint64_t i = 0; i < kv->count; ++i) {
    const auto len = load<uint64_t>(p);  // every length was checked against the file at open
    out.emplace_back(reinterpret_cast<const char*>(p + 8), len);
    p += 8 + len;
  }
  return out;
}

std::optional<std::vector<float>> GgufFile::getFloatArray(std::string_view key) const {
  const Kv* kv = find(key);
  if (kv == nullptr || kv->type != GgufValueType::array) return std::nullopt;
  if (kv->elemType != GgufValueType::f32 && kv->elemType != GgufValueType::f64) return std::nullopt;
  std::vector<float> out(kv->count);
  const uint8_t* p = bytes_.data() + kv->offset;
  if (kv->count == 0) return out;  // memcpy from/to a null data() is undefined even for 0 bytes
  if (kv->elemType == GgufValueType::f32) {
    std::memcpy(out.data(), p, kv->count * sizeof(float));
  } else {
    for (uint64_t i = 0; i < kv->count; ++i) out[i] = static_cast<float>(load<double>(p + i * sizeof(double)));
  }
  return out;
}

std::optional<std::vector<int64_t>> GgufFile::getIntArray(std::string_view key) const {
  const Kv* kv = find(key);
  if (kv == nullptr || kv->type != GgufValueType::array || !isInteger(kv->elemType)) return std::nullopt;
  std::vector<int64_t> out(kv->count);
  const uint64_t step = integerSize(kv->elemType);
  const uint8_t* p = bytes_.data() + kv->offset;
  for (uint64_t i = 0; i < kv->count; ++i) {
    const std::optional<int64_t> v = asInt64(loadInt(kv->elemType, p + i * step));
    if (!v) return std::nullopt;  // a u64 element above INT64_MAX does not fit
    out[i] = *v;
  }
  return out;
}

std::optional<std::span<const uint8_t>> GgufFile::arrayBytes(std::string_view key) const {
  const Kv* kv = find(key);
  if (kv == nullptr || kv->type != GgufValueType::array || kv->elemType == GgufValueType::string) return std::nullopt;
  return bytes_.subspan(kv->offset, kv->size);
}

std::vector<std::string_view> GgufFile::keys() const {
  std::vector<std::string_view> out;
  out.reserve(kvs_.size());
  for (const Kv& kv : kvs_) out.push_back(kv.key);
  return out;
}

const GgufTensor* GgufFile::tensor(std::string_view name) const {
  auto it = std::lower_bound(tensorByName_.begin(), tensorByName_.end(), name,
                             [this](uint32_t i, std::string_view n) { return tensors_[i].name < n; });
  if (it == tensorByName_.end() || tensors_[*it].name != name) return nullptr;
  return &tensors_[*it];
}

std::string_view GgufFile::architecture() const { return getString("general.architecture").value_or(""); }

}  // namespace sotto::llm
