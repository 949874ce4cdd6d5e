// SPDX-License-Identifier: MIT
// GgufWriter: GGUF v3 serialization and the atomic temp-file + fsync + rename write.
#include "engine/llm/gguf_writer.h"

#include <bit>
#include <cstring>
#include <limits>

#include "sotto/hal/atomic_file.h"

namespace sotto::llm {
namespace {

static_assert(std::endian::native == std::endian::little, "GGUF fields are written as host integers");

constexpr uint32_t kVersion = 3;
constexpr size_t kMaxKeyLength = 65535;
constexpr size_t kMaxTensorNameLength = 64;
constexpr uint32_t kMaxDims = 4;

template <typename T>
void put(std::vector<uint8_t>& out, T v) {
  const auto* p = reinterpret_cast<const uint8_t*>(&v);
  out.insert(out.end(), p, p + sizeof v);
}

void putString(std::vector<uint8_t>& out, std::string_view s) {
  put<uint64_t>(out, s.size());
  out.insert(out.end(), s.begin(), s.end());
}

}  // namespace

Status GgufWriter::setAlignment(uint32_t alignment) {
  if (!std::has_single_bit(alignment)) {
    return makeError(Errc::invalid_argument, "GGUF alignment " + std::to_string(alignment) + " is not a power of two");
  }
  if (!tensors_.empty()) {
    return makeError(Errc::invalid_argument, "GGUF alignment must be set before the first tensor is added");
  }
  alignment_ = alignment;
  alignmentSet_ = true;
  return {};
}

Status GgufWriter::checkKey(std::string_view key) const {
  if (key.empty()) return makeError(Errc::invalid_argument, "GGUF key is empty");
  if (key.size() > kMaxKeyLength) {
    return makeError(Errc::invalid_argument, "GGUF key of " + std::to_string(key.size()) + " bytes is too long");
  }
  if (key == "general.alignment") {
    return makeError(Errc::invalid_argument, "GGUF key 'general.alignment': use setAlignment()");
  }
  if (keys_.count(std::string(key)) != 0) {
    return makeError(Errc::invalid_argument, "duplicate GGUF key '" + std::string(key) + "'");
  }
  return {};
}

Status GgufWriter::addEncoded(std::string_view key, std::vector<uint8_t> encoded) {
  if (Status s = checkKey(key); !s) return s;
  keys_.emplace(key);
  kvs_.push_back(Kv{std::string(key), std::move(encoded)});
  return {};
}

template <typename T>
Status GgufWriter::addScalar(std::string_view key, GgufValueType type, T value) {
  std::vector<uint8_t> e;
  put<uint32_t>(e, static_cast<uint32_t>(type));
  put<T>(e, value);
  return addEncoded(key, std::move(e));
}

template <typename T>
Status GgufWriter::addNumericArray(std::string_view key, GgufValueType elemType, std::span<const T> values) {
  std::vector<uint8_t> e;
  e.reserve(16 + values.size_bytes());
  put<uint32_t>(e, static_cast<uint32_t>(GgufValueType::array));
  put<uint32_t>(e, static_cast<uint32_t>(elemType));
  put<uint64_t>(e, values.size());
  const auto* p = reinterpret_cast<const uint8_t*>(values.data());
  e.insert(e.end(), p, p + values.size_bytes());
  return addEncoded(key, std::move(e));
}

template <typename S>
Status GgufWriter::addStrings(std::string_view key, std::span<const S> values) {
  std::vector<uint8_t> e;
  put<uint32_t>(e, static_cast<uint32_t>(GgufValueType::array));
  put<uint32_t>(e, static_cast<uint32_t>(GgufValueType::string));
  put<uint64_t>(e, values.size());
  for (const S& s : values) putString(e, s);
  return addEncoded(key, std::move(e));
}

Status GgufWriter::addU8(std::string_view k, uint8_t v) { return addScalar(k, GgufValueType::u8, v); }
Status GgufWriter::addI8(std::string_view k, int8_t v) { return addScalar(k, GgufValueType::i8, v); }
Status GgufWriter::addU16(std::string_view k, uint16_t v) { return addScalar(k, GgufValueType::u16, v); }
Status GgufWriter::addI16(std::string_view k, int16_t v) { return addScalar(k, GgufValueType::i16, v); }
Status GgufWriter::addU32(std::string_view k, uint32_t v) { return addScalar(k, GgufValueType::u32, v); }
Status GgufWriter::addI32(std::string_view k, int32_t v) { return addScalar(k, GgufValueType::i32, v); }
Status GgufWriter::addU64(std::string_view k, uint64_t v) { return addScalar(k, GgufValueType::u64, v); }
Status GgufWriter::addI64(std::string_view k, int64_t v) { return addScalar(k, GgufValueType::i64, v); }
Status GgufWriter::addF32(std::string_view k, float v) { return addScalar(k, GgufValueType::f32, v); }
Status GgufWriter::addF64(std::string_view k, double v) { return addScalar(k, GgufValueType::f64, v); }
Status GgufWriter::addBool(std::string_view k, bool v) {
  return addScalar<uint8_t>(k, GgufValueType::boolean, v ? 1 : 0);
}
Status GgufWriter::addString(std::string_view key, std::string_view value) {
  std::vector<uint8_t> e;
  put<uint32_t>(e, static_cast<uint32_t>(GgufValueType::string));
  putString(e, value);
  return addEncoded(key, std::move(e));
}

Status GgufWriter::addArray(std::string_view k, std::span<const uint8_t> v) {
  return addNumericArray(k, GgufValueType::u8, v);
}
Status GgufWriter::addArray(std::string_view k, std::span<const int8_t> v) {
  return addNumericArray(k, GgufValueType::i8, v);
}
Status GgufWriter::addArray(std::string_view k, std::span<const uint16_t> v) {
  return addNumericArray(k, GgufValueType::u16, v);
}
Status GgufWriter::addArray(std::string_view k, std::span<const int16_t> v) {
  return addNumericArray(k, GgufValueType::i16, v);
}
Status GgufWriter::addArray(std::string_view k, std::span<const uint32_t> v) {
  return addNumericArray(k, GgufValueType::u32, v);
}
Status GgufWriter::addArray(std::string_view k, std::span<const int32_t> v) {
  return addNumericArray(k, GgufValueType::i32, v);
}
Status GgufWriter::addArray(std::string_view k, std::span<const uint64_t> v) {
  return addNumericArray(k, GgufValueType::u64, v);
}
Status GgufWriter::addArray(std::string_view k, std::span<const int64_t> v) {
  return addNumericArray(k, GgufValueType::i64, v);
}
Status GgufWriter::addArray(std::string_view k, std::span<const float> v) {
  return addNumericArray(k, GgufValueType::f32, v);
}
Status GgufWriter::addArray(std::string_view k, std::span<const double> v) {
  return addNumericArray(k, GgufValueType::f64, v);
}
Status GgufWriter::addBoolArray(std::string_view key, std::span<const bool> values) {
  // bool's object representation is not fixed by the standard: write each as the byte GGUF defines.
  std::vector<uint8_t> bytes(values.size());
  for (size_t i = 0; i < values.size(); ++i) bytes[i] = values[i] ? 1 : 0;
  return addNumericArray(key, GgufValueType::boolean, std::span<const uint8_t>(bytes));
}
Status GgufWriter::addStringArray(std::string_view k, std::span<const std::string_view> v) { return addStrings(k, v); }
Status GgufWriter::addStringArray(std::string_view k, std::span<const std::string> v) { return addStrings(k, v); }

Status GgufWriter::checkTensor(std::string_view name, hal::DType type, const std::vector<uint64_t>& dims,
                               uint64_t dataBytes) const {
  const std::string where = "GGUF tensor '" + std::string(name) + "'";
  if (name.empty()) return makeError(Errc::invalid_argument, "GGUF tensor name is empty");
  if (name.size() > kMaxTensorNameLength) {
    return makeError(Errc::invalid_argument, where + ": name is longer than 64 bytes");
  }
  if (names_.count(std::string(name)) != 0) {
    return makeError(Errc::invalid_argument, "duplicate GGUF tensor name '" + std::string(name) + "'");
  }
  if (dims.empty() || dims.size() > kMaxDims) {
    return makeError(Errc::invalid_argument,
                     where + ": " + std::to_string(dims.size()) + " dimensions (allowed 1 to 4)");
  }
  uint64_t elements = 1;
  for (size_t d = 0; d < dims.size(); ++d) {
    if (dims[d] == 0) return makeError(Errc::invalid_argument, where + ": dimension " + std::to_string(d) + " is 0");
    // The reader (like ggml) counts elements in int64_t.
    if (__builtin_mul_overflow(elements, dims[d], &elements) ||
        elements > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
      return makeError(Errc::invalid_argument, where + ": element count overflows");
    }
  }
  const std::optional<hal::DTypeTraits> traits = hal::dtypeTraits(static_cast<uint32_t>(type));
  if (!traits) {
    return makeError(Errc::invalid_argument,
                     where + ": unknown type id " + std::to_string(static_cast<uint32_t>(type)));
  }
  if (dims[0] % traits->blockSize != 0) {
    return makeError(Errc::invalid_argument, where + ": row length " + std::to_string(dims[0]) +
                                                 " is not a multiple of the " + traits->name + " block size " +
                                                 std::to_string(traits->blockSize));
  }
  uint64_t expected = 0;
  if (__builtin_mul_overflow(*hal::rowBytes(type, dims[0]), elements / dims[0], &expected)) {
    return makeError(Errc::invalid_argument, where + ": byte size overflows");
  }
  if (dataBytes != expected) {
    return makeError(Errc::invalid_argument,
                     where + ": " + std::to_string(dataBytes) + " data bytes, the shape needs " +
                         std::to_string(expected));
  }
  return {};
}

Status GgufWriter::addTensor(std::string_view name, hal::DType type, const std::vector<uint64_t>& dims,
                             std::span<const uint8_t> data) {
  return addTensor(name, type, dims, std::vector<uint8_t>(data.begin(), data.end()));
}

Status GgufWriter::addTensor(std::string_view name, hal::DType type, const std::vector<uint64_t>& dims,
                             std::vector<uint8_t>&& data) {
  if (Status s = checkTensor(name, type, dims, data.size()); !s) return s;
  names_.emplace(name);
  tensors_.push_back(Tensor{std::string(name), type, dims, std::move(data)});
  return {};
}

std::vector<uint8_t> GgufWriter::headerBytes() const {
  std::vector<uint8_t> out;
  out.insert(out.end(), {'G', 'G', 'U', 'F'});
  put<uint32_t>(out, kVersion);
  put<uint64_t>(out, tensors_.size());
  put<uint64_t>(out, kvs_.size() + (alignmentSet_ ? 1 : 0));
  if (alignmentSet_) {
    putString(out, "general.alignment");
    put<uint32_t>(out, static_cast<uint32_t>(GgufValueType::u32));
    put<uint32_t>(out, alignment_);
  }
  for (const Kv& kv : kvs_) {
    putString(out, kv.key);
    out.insert(out.end(), kv.encoded.begin(), kv.encoded.end());
  }
  uint64_t offset = 0;
  for (const Tensor& t : tensors_) {
    putString(out, t.name);
    put<uint32_t>(out, static_cast<uint32_t>(t.dims.size()));
    for (uint64_t d : t.dims) put<uint64_t>(out, d);
    put<uint32_t>(out, static_cast<uint32_t>(t.type));
    put<uint64_t>(out, offset);
    offset += paddedSize(t.data.size());
  }
  out.resize(paddedSize(out.size()), 0);
  return out;
}

std::vector<uint8_t> GgufWriter::toBytes() const {
  std::vector<uint8_t> out = headerBytes();
  for (const Tensor& t : tensors_) {
    out.insert(out.end(), t.data.begin(), t.data.end());
    out.resize(paddedSize(out.size()), 0);  // the header is padded, so this pads the tensor
  }
  return out;
}

Status GgufWriter::write(const std::string& path) const {
  if (path.empty()) return makeError(Errc::invalid_argument, "GGUF output path is empty");
  const std::vector<uint8_t> header = headerBytes();
  const std::vector<uint8_t> zeros(alignment_, 0);  // every tensor's padding is shorter than the alignment
  std::vector<std::span<const uint8_t>> parts;
  parts.reserve(1 + 2 * tensors_.size());
  parts.emplace_back(header);
  for (const Tensor& t : tensors_) {
    parts.emplace_back(t.data);
    const uint64_t pad = paddedSize(t.data.size()) - t.data.size();
    if (pad > 0) parts.emplace_back(zeros.data(), static_cast<size_t>(pad));
  }
  // A model is not secret and other service users may need to read it.
  return hal::writeFileAtomic(path, parts, 0644);
}

}  // namespace sotto::llm
