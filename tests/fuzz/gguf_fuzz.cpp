// SPDX-License-Identifier: MIT
// libFuzzer target: arbitrary bytes into sotto::llm::GgufFile::fromBytes; on success every accessor runs on every
// key and every tensor byte is read (ASan catches any view past the input); aborts when answers are inconsistent.
#include <bit>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "engine/llm/gguf.h"

namespace {

using sotto::llm::GgufFile;
using sotto::llm::GgufTensor;
using sotto::llm::GgufValueType;

[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "gguf_fuzz: invariant broken: %s\n", what.c_str());
  std::abort();
}

// Reads every byte of a view; the sum goes to a volatile so the reads are not optimized away.
volatile uint64_t gSink = 0;
void touch(const void* p, uint64_t n) {
  const auto* b = static_cast<const uint8_t*>(p);
  uint64_t sum = 0;
  for (uint64_t i = 0; i < n; ++i) sum += b[i];
  gSink = gSink + sum;
}

bool inside(const GgufFile& f, const void* p, uint64_t n) {
  const auto* b = static_cast<const uint8_t*>(p);
  const uint8_t* begin = f.bytes().data();
  return b >= begin && n <= f.bytes().size() && static_cast<uint64_t>(b - begin) <= f.bytes().size() - n;
}

void checkKey(const GgufFile& f, std::string_view key) {
  if (!f.has(key)) fail("listed key not found");
  touch(key.data(), key.size());
  const std::optional<GgufValueType> type = f.typeOf(key);
  if (!type) fail("typeOf() empty for a present key");
  const auto s = f.getString(key);
  if (s.has_value() != (*type == GgufValueType::string)) fail("getString() disagrees with typeOf()");
  if (s) {
    if (!inside(f, s->data(), s->size())) fail("string view outside the input");
    touch(s->data(), s->size());
  }
  const auto u = f.getUint(key);
  const auto i = f.getInt(key);
  if (u && i && static_cast<uint64_t>(*i) != *u) fail("getUint() and getInt() disagree");
  if (const auto d = f.getFloat(key); d && *type != GgufValueType::f32 && *type != GgufValueType::f64) {
    fail("getFloat() on a non-float");
  }
  if (f.getBool(key).has_value() != (*type == GgufValueType::boolean)) fail("getBool() disagrees with typeOf()");

  const auto elem = f.arrayType(key);
  const auto len = f.arrayLength(key);
  if (elem.has_value() != (*type == GgufValueType::array) || len.has_value() != elem.has_value()) {
    fail("array accessors disagree with typeOf()");
  }
  if (!elem) return;
  if (*elem == GgufValueType::array) fail("nested array accepted");
  if (const auto strings = f.getStringArray(key)) {
    if (strings->size() != *len) fail("string array length");
    for (std::string_view e : *strings) {
      if (!inside(f, e.data(), e.size())) fail("string element outside the input");
      touch(e.data(), e.size());
    }
  } else if (*elem == GgufValueType::string) {
    fail("getStringArray() empty for a string array");
  }
  if (const auto floats = f.getFloatArray(key); floats && floats->size() != *len) fail("float array length");
  if (const auto ints = f.getIntArray(key); ints && ints->size() != *len) fail("int array length");
}

void checkTensor(const GgufFile& f, const GgufTensor& t) {
  if (f.tensor(t.name) != &t) fail("tensor lookup by name");
  if (t.nDims < 1 || t.nDims > 4) fail("dimension count");
  const auto traits = sotto::hal::dtypeTraits(static_cast<uint32_t>(t.type));
  if (!traits) fail("unknown type accepted");
  const auto row = sotto::hal::rowBytes(t.type, t.ne[0]);
  if (!row || *row * (t.elements() / t.ne[0]) != t.nbytes) fail("byte size");
  if (t.offset % f.alignment() != 0) fail("misaligned offset accepted");
  if (t.data != f.bytes().data() + f.dataOffset() + t.offset) fail("data pointer");
  if (!inside(f, t.data, t.nbytes)) fail("tensor data outside the input");
  touch(t.data, t.nbytes);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string name = "fuzz.gguf";
  auto r = GgufFile::fromBytes({data, size}, name);
  if (!r.ok()) {
    const std::string& m = r.error().message;
    if (m.rfind(name + ": ", 0) != 0) fail("message does not name the file: " + m);
    if (m.find_first_of("\r\n") != std::string::npos) fail("message spans lines: " + m);
    return 0;
  }
  const GgufFile& f = **r;
  if (f.version() != 2 && f.version() != 3) fail("version");
  if (!std::has_single_bit(f.alignment())) fail("alignment");
  if (f.fileSize() != size) fail("file size");
  for (std::string_view key : f.keys()) checkKey(f, key);
  touch(f.architecture().data(), f.architecture().size());
  uint64_t total = 0;
  for (const GgufTensor& t : f.tensors()) {
    checkTensor(f, t);
    total += t.nbytes;
  }
  if (!f.tensors().empty() && total > size - f.dataOffset()) fail("tensors overlap");  // disjoint ranges must fit
  return 0;
}
