// SPDX-License-Identifier: MIT
// GGUF validation: every length, count, type, offset and size is checked against the file before it is used.
#include "engine/llm/gguf_parse.h"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <cstring>
#include <string>

namespace sotto::llm {
namespace {

static_assert(std::endian::native == std::endian::little, "GGUF fields are read as host integers");

constexpr uint32_t kMagic = 0x46554747;  // "GGUF" read as a little-endian u32
constexpr uint64_t kMaxKeyLength = 65535;     // spec: keys are at most 65535 bytes
constexpr uint64_t kMaxTensorNameLength = 64;  // spec: tensor names are at most 64 bytes
constexpr uint32_t kMaxDims = 4;               // ggml's GGML_MAX_DIMS
// Hard caps well above any real model (tens of keys, a few thousand tensors), so that a hostile file cannot make
// the daemon allocate tables hundreds of MB large.
constexpr uint64_t kMaxKvs = 1u << 16;
constexpr uint64_t kMaxTensors = 1u << 16;
// Smallest encodings, used to refuse impossible counts before looping over them.
constexpr uint64_t kMinKvBytes = 8 + 1 + 4 + 1;                // key length, 1-byte key, type, u8 value
constexpr uint64_t kMinTensorInfoBytes = 8 + 1 + 4 + 8 + 4 + 8;  // name length, name, nDims, one dim, type, offset
constexpr uint32_t kLastValueType = static_cast<uint32_t>(GgufValueType::f64);

bool addOverflows(uint64_t a, uint64_t b, uint64_t& out) { return __builtin_add_overflow(a, b, &out); }
bool mulOverflows(uint64_t a, uint64_t b, uint64_t& out) { return __builtin_mul_overflow(a, b, &out); }

// Names from the file, made safe for a one-line message: non-printable bytes escaped, long names cut.
std::string printable(std::string_view s) {
  constexpr size_t kMaxShown = 96;
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (out.size() >= kMaxShown) {
      out += "...";
      break;
    }
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c < 0x7f && c != '\\') {
      out += static_cast<char>(c);
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    }
  }
  return out;
}

// Size of a fixed-size value type; 0 for string and array.
uint64_t scalarSize(GgufValueType t) {
  switch (t) {
    case GgufValueType::u8: case GgufValueType::i8: case GgufValueType::boolean: return 1;
    case GgufValueType::u16: case GgufValueType::i16: return 2;
    case GgufValueType::u32: case GgufValueType::i32: case GgufValueType::f32: return 4;
    case GgufValueType::u64: case GgufValueType::i64: case GgufValueType::f64: return 8;
    case GgufValueType::string: case GgufValueType::array: return 0;
  }
  return 0;
}

// Bounds-checked little-endian reads; a failed read leaves the position unchanged.
class Cursor {
 public:
  explicit Cursor(std::span<const uint8_t> bytes) : bytes_(bytes) {}
  uint64_t pos() const { return pos_; }
  uint64_t remaining() const { return bytes_.size() - pos_; }
  template <typename T>
  bool read(T& out) {
    if (remaining() < sizeof(T)) return false;
    std::memcpy(&out, bytes_.data() + pos_, sizeof(T));
    pos_ += sizeof(T);
    return true;
  }
  bool skip(uint64_t n) {
    if (n > remaining()) return false;
    pos_ += n;
    return true;
  }
  // Caller checked n <= remaining().
  std::string_view view(uint64_t n) const {
    return {reinterpret_cast<const char*>(bytes_.data() + pos_), static_cast<size_t>(n)};
  }
  const uint8_t* here() const { return bytes_.data() + pos_; }

 private:
  std::span<const uint8_t> bytes_;
  uint64_t pos_ = 0;
};

class Validator {
 public:
  explicit Validator(GgufFile& f, std::span<const uint8_t> bytes, const std::string& name)
      : file_(f), c_(bytes), name_(name), size_(bytes.size()) {}

  Status run();

  // Access to GgufFile's private members goes through GgufParser (the friend); these are set by parse().
  std::vector<GgufParser::Kv>* kvs = nullptr;
  std::vector<uint32_t>* kvByKey = nullptr;
  std::vector<GgufTensor>* tensors = nullptr;
  std::vector<uint32_t>* tensorByName = nullptr;
  uint32_t* version = nullptr;
  uint32_t* alignment = nullptr;
  uint64_t* dataOffset = nullptr;

 private:
  Error fail(Errc code, const std::string& what) const { return makeError(code, name_ + ": " + what); }
  Error corrupt(const std::string& what) const { return fail(Errc::corrupt, what); }
  std::string pastEnd() const { return "past end of file (" + std::to_string(size_) + " bytes)"; }
  static std::string keyName(std::string_view key) { return "key '" + printable(key) + "'"; }

  Status header(uint64_t& tensorCount, uint64_t& kvCount);
  Status keyValue(uint64_t index);
  Status value(GgufParser::Kv& kv);
  Status checkBool(const std::string& where, const uint8_t* p, uint64_t n) const;
  Status checkAlignment();
  Status tensorInfo(uint64_t index);
  Status tensorData();

  GgufFile& file_;
  Cursor c_;
  const std::string& name_;
  uint64_t size_;
};

Status Validator::header(uint64_t& tensorCount, uint64_t& kvCount) {
  uint32_t magic = 0;
  if (!c_.read(magic)) {
    return corrupt("not a GGUF file: only " + std::to_string(size_) + " bytes");
  }
  // ggml's pre-GGUF formats (unversioned, ggmf, ggjt), still found on the internet.
  if (magic == 0x67676d6c || magic == 0x67676d66 || magic == 0x67676a74) {
    return corrupt("not a GGUF file: an old GGML model (pre-GGUF format); convert it to GGUF with llama.cpp");
  }
  if (magic != kMagic) {
    char shown[64];
    const uint8_t* b = reinterpret_cast<const uint8_t*>(&magic);
    std::snprintf(shown, sizeof shown, "%02x %02x %02x %02x", b[0], b[1], b[2], b[3]);
    return corrupt(std::string("not a GGUF file: magic is ") + shown + ", expected 47 47 55 46 (\"GGUF\")");
  }
  uint32_t v = 0;
  if (!c_.read(v)) return corrupt("header: version " + pastEnd());
  if (v == 1) {
    return fail(Errc::unsupported,
                "GGUF version 1 is not supported (only 2 and 3): convert the model again with a current llama.cpp");
  }
  if (v == 0x02000000u || v == 0x03000000u) {
    return fail(Errc::unsupported, "big-endian GGUF files are not supported");
  }
  if (v != 2 && v != 3) {
    return fail(Errc::unsupported, "unsupported GGUF version " + std::to_string(v) + " (expected 2 or 3)");
  }
  *version = v;
  if (!c_.read(tensorCount) || !c_.read(kvCount)) return corrupt("header: counts extend " + pastEnd());
  if (kvCount > kMaxKvs) {
    return corrupt("metadata count " + std::to_string(kvCount) + " exceeds the limit of " + std::to_string(kMaxKvs));
  }
  if (kvCount > c_.remaining() / kMinKvBytes) {
    return corrupt("metadata count " + std::to_string(kvCount) + " cannot fit: its entries would extend " + pastEnd());
  }
  if (tensorCount > kMaxTensors) {
    return corrupt("tensor count " + std::to_string(tensorCount) + " exceeds the limit of " +
                   std::to_string(kMaxTensors));
  }
  // Checked again, more tightly, after the metadata.
  if (tensorCount > c_.remaining() / kMinTensorInfoBytes) {
    return corrupt("tensor count " + std::to_string(tensorCount) + " cannot fit: its entries would extend " +
                   pastEnd());
  }
  return {};
}

Status Validator::checkBool(const std::string& where, const uint8_t* p, uint64_t n) const {
  for (uint64_t i = 0; i < n; ++i) {
    if (p[i] > 1) return corrupt(where + ": boolean value " + std::to_string(p[i]) + " is neither 0 nor 1");
  }
  return {};
}

Status Validator::value(GgufParser::Kv& kv) {
  const std::string where = keyName(kv.key);
  if (kv.type == GgufValueType::string) {
    uint64_t len = 0;
    if (!c_.read(len)) return corrupt(where + ": string length " + pastEnd());
    if (len > c_.remaining()) {
      return corrupt(where + ": string of " + std::to_string(len) + " bytes at offset " + std::to_string(c_.pos()) +
                     " extends " + pastEnd());
    }
    kv.offset = c_.pos();
    kv.size = len;
    c_.skip(len);
    return {};
  }
  if (kv.type != GgufValueType::array) {
    const uint64_t n = scalarSize(kv.type);
    if (n > c_.remaining()) return corrupt(where + ": " + ggufValueTypeName(kv.type) + " value extends " + pastEnd());
    if (kv.type == GgufValueType::boolean) {
      if (Status s = checkBool(where, c_.here(), 1); !s) return s;
    }
    kv.offset = c_.pos();
    kv.size = n;
    c_.skip(n);
    return {};
  }

  uint32_t elemId = 0;
  uint64_t count = 0;
  if (!c_.read(elemId)) return corrupt(where + ": array element type " + pastEnd());
  if (elemId > kLastValueType) {
    return corrupt(where + ": array of unknown value type " + std::to_string(elemId));
  }
  const auto elem = static_cast<GgufValueType>(elemId);
  if (elem == GgufValueType::array) {
    // llama.cpp refuses them too, and no model uses them: refusing keeps accessors and recursion depth trivial.
    return fail(Errc::unsupported, where + ": arrays of arrays are not supported");
  }
  if (!c_.read(count)) return corrupt(where + ": array length " + pastEnd());
  kv.elemType = elem;
  kv.count = count;
  kv.offset = c_.pos();
  if (elem == GgufValueType::string) {
    // Each element has at least its 8-byte length: refuse impossible counts before looping.
    if (count > c_.remaining() / 8) {
      return corrupt(where + ": array of " + std::to_string(count) + " strings extends " + pastEnd());
    }
    for (uint64_t i = 0; i < count; ++i) {
      uint64_t len = 0;
      if (!c_.read(len) || len > c_.remaining()) {
        return corrupt(where + ": string #" + std::to_string(i) + " of " + std::to_string(count) + " extends " +
                       pastEnd());
      }
      c_.skip(len);
    }
    kv.size = c_.pos() - kv.offset;
    return {};
  }
  const uint64_t elemSize = scalarSize(elem);
  uint64_t total = 0;
  if (mulOverflows(count, elemSize, total) || total > c_.remaining()) {
    return corrupt(where + ": array of " + std::to_string(count) + " " + ggufValueTypeName(elem) +
                   " elements extends " + pastEnd());
  }
  if (elem == GgufValueType::boolean) {
    if (Status s = checkBool(where, c_.here(), count); !s) return s;
  }
  kv.size = total;
  c_.skip(total);
  return {};
}

Status Validator::keyValue(uint64_t index) {
  const std::string where = "metadata entry #" + std::to_string(index);
  uint64_t len = 0;
  if (!c_.read(len)) return corrupt(where + ": key length " + pastEnd());
  if (len == 0) return corrupt(where + ": empty key");
  if (len > kMaxKeyLength) {
    return corrupt(where + ": key of " + std::to_string(len) + " bytes is longer than " +
                   std::to_string(kMaxKeyLength));
  }
  if (len > c_.remaining()) return corrupt(where + ": key of " + std::to_string(len) + " bytes extends " + pastEnd());
  GgufParser::Kv kv;
  kv.key = c_.view(len);
  c_.skip(len);
  uint32_t typeId = 0;
  if (!c_.read(typeId)) return corrupt(keyName(kv.key) + ": value type " + pastEnd());
  if (typeId > kLastValueType) return corrupt(keyName(kv.key) + ": unknown value type " + std::to_string(typeId));
  kv.type = static_cast<GgufValueType>(typeId);
  if (Status s = value(kv); !s) return s;
  kvs->push_back(kv);
  return {};
}

Status Validator::checkAlignment() {
  std::vector<uint32_t>& order = *kvByKey;
  order.resize(kvs->size());
  for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [this](uint32_t a, uint32_t b) { return (*kvs)[a].key < (*kvs)[b].key; });
  for (size_t i = 1; i < order.size(); ++i) {
    if ((*kvs)[order[i - 1]].key == (*kvs)[order[i]].key) {
      return corrupt("duplicate " + keyName((*kvs)[order[i]].key));
    }
  }
  for (const GgufParser::Kv& kv : *kvs) {
    if (kv.key != "general.alignment") continue;
    if (kv.type != GgufValueType::u32) {
      return corrupt(keyName(kv.key) + ": type " + ggufValueTypeName(kv.type) + ", expected u32");
    }
    uint32_t a = 0;
    std::memcpy(&a, file_.bytes().data() + kv.offset, sizeof a);
    if (!std::has_single_bit(a)) {
      return corrupt(keyName(kv.key) + ": " + std::to_string(a) + " is not a power of two");
    }
    *alignment = a;
  }
  return {};
}

Status Validator::tensorInfo(uint64_t index) {
  std::string where = "tensor #" + std::to_string(index);
  uint64_t len = 0;
  if (!c_.read(len)) return corrupt(where + ": name length " + pastEnd());
  if (len == 0) return corrupt(where + ": empty name");
  if (len > kMaxTensorNameLength) {
    return corrupt(where + ": name of " + std::to_string(len) + " bytes is longer than " +
                   std::to_string(kMaxTensorNameLength));
  }
  if (len > c_.remaining()) return corrupt(where + ": name extends " + pastEnd());
  GgufTensor t;
  t.name.assign(c_.view(len));
  c_.skip(len);
  where = "tensor '" + printable(t.name) + "'";

  if (!c_.read(t.nDims)) return corrupt(where + ": dimension count " + pastEnd());
  if (t.nDims < 1 || t.nDims > kMaxDims) {
    return corrupt(where + ": " + std::to_string(t.nDims) + " dimensions (allowed 1 to " + std::to_string(kMaxDims) +
                   ")");
  }
  uint64_t elements = 1;
  std::string shape;
  for (uint32_t d = 0; d < t.nDims; ++d) {
    if (!c_.read(t.ne[d])) return corrupt(where + ": dimensions extend " + pastEnd());
    shape += (d ? ", " : "") + std::to_string(t.ne[d]);
  }
  for (uint32_t d = 0; d < t.nDims; ++d) {
    if (t.ne[d] == 0) return corrupt(where + ": dimension " + std::to_string(d) + " is 0 (shape [" + shape + "])");
    // ggml counts elements in int64_t.
    if (mulOverflows(elements, t.ne[d], elements) || elements > static_cast<uint64_t>(INT64_MAX)) {
      return corrupt(where + ": element count of shape [" + shape + "] overflows");
    }
  }

  uint32_t typeId = 0;
  if (!c_.read(typeId)) return corrupt(where + ": type " + pastEnd());
  const std::optional<hal::DTypeTraits> traits = hal::dtypeTraits(typeId);
  // Known but unsupported types pass: the model loader refuses them by name, with the whole model's context.
  if (!traits) return corrupt(where + ": unknown type id " + std::to_string(typeId));
  t.type = static_cast<hal::DType>(typeId);
  if (t.ne[0] % traits->blockSize != 0) {
    return corrupt(where + ": row length " + std::to_string(t.ne[0]) + " is not a multiple of the " + traits->name +
                   " block size " + std::to_string(traits->blockSize));
  }
  const std::optional<uint64_t> row = hal::rowBytes(t.type, t.ne[0]);
  if (!row || mulOverflows(*row, elements / t.ne[0], t.nbytes)) {
    return corrupt(where + ": byte size of shape [" + shape + "] overflows");
  }

  if (!c_.read(t.offset)) return corrupt(where + ": offset " + pastEnd());
  if (t.offset % *alignment != 0) {
    return corrupt(where + ": offset " + std::to_string(t.offset) + " is not a multiple of the alignment " +
                   std::to_string(*alignment));
  }
  tensors->push_back(std::move(t));
  return {};
}

Status Validator::tensorData() {
  std::vector<GgufTensor>& ts = *tensors;
  std::vector<uint32_t>& byName = *tensorByName;
  byName.resize(ts.size());
  for (uint32_t i = 0; i < byName.size(); ++i) byName[i] = i;
  std::sort(byName.begin(), byName.end(), [&ts](uint32_t a, uint32_t b) { return ts[a].name < ts[b].name; });
  for (size_t i = 1; i < byName.size(); ++i) {
    if (ts[byName[i - 1]].name == ts[byName[i]].name) {
      return corrupt("duplicate tensor name '" + printable(ts[byName[i]].name) + "'");
    }
  }

  // The data section starts at the next multiple of the alignment after the tensor table.
  uint64_t start = 0;
  if (addOverflows(c_.pos(), *alignment - 1, start)) return corrupt("data section offset overflows");
  start -= start % *alignment;
  *dataOffset = start;
  if (ts.empty()) return {};  // a vocabulary-only file may end right after its table
  if (start > size_) {
    return corrupt("data section at offset " + std::to_string(start) + " starts " + pastEnd());
  }
  for (GgufTensor& t : ts) {
    uint64_t begin = 0;
    uint64_t end = 0;
    if (addOverflows(start, t.offset, begin) || addOverflows(begin, t.nbytes, end)) {
      return corrupt("tensor '" + printable(t.name) + "': offset " + std::to_string(t.offset) + " + " +
                     std::to_string(t.nbytes) + " bytes extends " + pastEnd());
    }
    if (end > size_) {
      return corrupt("tensor '" + printable(t.name) + "': data [" + std::to_string(begin) + ", " +
                     std::to_string(end) + ") extends " + pastEnd());
    }
    t.data = file_.bytes().data() + begin;
  }

  std::vector<uint32_t> byOffset(ts.size());
  for (uint32_t i = 0; i < byOffset.size(); ++i) byOffset[i] = i;
  std::sort(byOffset.begin(), byOffset.end(), [&ts](uint32_t a, uint32_t b) { return ts[a].offset < ts[b].offset; });
  for (size_t i = 1; i < byOffset.size(); ++i) {
    const GgufTensor& a = ts[byOffset[i - 1]];
    const GgufTensor& b = ts[byOffset[i]];
    if (a.offset + a.nbytes > b.offset) {  // no overflow: both ends were checked against the file size
      auto range = [start](const GgufTensor& t) {
        return "[" + std::to_string(start + t.offset) + ", " + std::to_string(start + t.offset + t.nbytes) + ")";
      };
      return corrupt("tensors '" + printable(a.name) + "' " + range(a) + " and '" + printable(b.name) + "' " +
                     range(b) + " overlap");
    }
  }
  return {};
}

Status Validator::run() {
  uint64_t tensorCount = 0;
  uint64_t kvCount = 0;
  if (Status s = header(tensorCount, kvCount); !s) return s;
  // Bounded by the checks above; reserving up front costs at most a few MB.
  kvs->reserve(kvCount);
  for (uint64_t i = 0; i < kvCount; ++i) {
    if (Status s = keyValue(i); !s) return s;
  }
  if (Status s = checkAlignment(); !s) return s;
  if (tensorCount > c_.remaining() / kMinTensorInfoBytes) {
    return corrupt("tensor count " + std::to_string(tensorCount) + " cannot fit: its entries would extend " +
                   pastEnd());
  }
  tensors->reserve(tensorCount);
  for (uint64_t i = 0; i < tensorCount; ++i) {
    if (Status s = tensorInfo(i); !s) return s;
  }
  return tensorData();
}

}  // namespace

Status GgufParser::parse(GgufFile& file) {
  Validator v(file, file.bytes_, file.path_);
  v.kvs = &file.kvs_;
  v.kvByKey = &file.kvByKey_;
  v.tensors = &file.tensors_;
  v.tensorByName = &file.tensorByName_;
  v.version = &file.version_;
  v.alignment = &file.alignment_;
  v.dataOffset = &file.dataOffset_;
  return v.run();
}

}  // namespace sotto::llm
