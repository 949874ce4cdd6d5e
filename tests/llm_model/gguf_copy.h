// SPDX-License-Identifier: MIT
// Test helper: rewrites a GGUF file through GgufWriter with edits (metadata overrides, tensor changes), to make
// variants of a real model (other architecture, bad shapes, other types, requantized weights).
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "engine/llm/gguf.h"
#include "engine/llm/gguf_writer.h"

namespace sotto::llm::test {

struct TensorOut {
  std::string name;
  hal::DType type;
  std::vector<uint64_t> dims;
  std::vector<uint8_t> data;
};

struct GgufEdits {
  std::map<std::string, std::string> strings;  // string metadata to set (added when absent)
  std::map<std::string, uint32_t> u32s;        // u32 metadata to set (replaces any integer type)
  // Called for every tensor; may change it, or return false to drop it.
  std::function<bool(TensorOut&)> tensor;
  std::vector<TensorOut> extraTensors;
};

// Copies `src` with `edits` into `path`; returns an error message, empty on success.
inline std::string copyGguf(const GgufFile& src, const std::string& path, const GgufEdits& edits) {
  GgufWriter w;
  auto fail = [](const Status& st) { return st.ok() ? std::string() : st.error().message; };
  std::string err;
  for (const std::string_view key : src.keys()) {
    if (key == "general.alignment") continue;
    const std::string k(key);
    Status st;
    if (auto it = edits.strings.find(k); it != edits.strings.end()) {
      st = w.addString(k, it->second);
    } else if (auto jt = edits.u32s.find(k); jt != edits.u32s.end()) {
      st = w.addU32(k, jt->second);
    } else {
      switch (*src.typeOf(key)) {
        case GgufValueType::string: st = w.addString(k, *src.getString(key)); break;
        case GgufValueType::boolean: st = w.addBool(k, *src.getBool(key)); break;
        case GgufValueType::f32: st = w.addF32(k, static_cast<float>(*src.getFloat(key))); break;
        case GgufValueType::f64: st = w.addF64(k, *src.getFloat(key)); break;
        case GgufValueType::i8: case GgufValueType::i16: case GgufValueType::i32: case GgufValueType::i64:
          st = w.addI64(k, *src.getInt(key));
          break;
        case GgufValueType::array: {
          const auto et = *src.arrayType(key);
          if (et == GgufValueType::string) {
            const auto v = *src.getStringArray(key);
            st = w.addStringArray(k, std::span<const std::string_view>(v));
          } else if (et == GgufValueType::f32 || et == GgufValueType::f64) {
            const auto v = *src.getFloatArray(key);
            st = w.addArray(k, std::span<const float>(v));
          } else {
            const auto v64 = *src.getIntArray(key);
            std::vector<int32_t> v(v64.begin(), v64.end());
            st = w.addArray(k, std::span<const int32_t>(v));
          }
          break;
        }
        default: st = w.addU64(k, *src.getUint(key)); break;
      }
    }
    if (!st) return fail(st);
  }
  for (const auto& [k, v] : edits.strings) {
    if (!src.has(k)) {
      if (auto st = w.addString(k, v); !st) return fail(st);
    }
  }
  for (const auto& [k, v] : edits.u32s) {
    if (!src.has(k)) {
      if (auto st = w.addU32(k, v); !st) return fail(st);
    }
  }
  auto add = [&](TensorOut& t) { return w.addTensor(t.name, t.type, t.dims, std::move(t.data)); };
  for (const GgufTensor& t : src.tensors()) {
    TensorOut o{t.name, t.type, {}, std::vector<uint8_t>(t.data, t.data + t.nbytes)};
    for (uint32_t i = 0; i < t.nDims; ++i) o.dims.push_back(t.ne[i]);
    if (edits.tensor && !edits.tensor(o)) continue;
    if (auto st = add(o); !st) return fail(st);
  }
  for (TensorOut t : edits.extraTensors) {
    if (auto st = add(t); !st) return fail(st);
  }
  return fail(w.write(path));
}

}  // namespace sotto::llm::test
