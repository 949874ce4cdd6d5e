// SPDX-License-Identifier: MIT
// Model quantizer: per-tensor type choice (pure or llama.cpp's Q4_K_M recipe), row-parallel quantization, GGUF out.
#include "engine/llm/quantize.h"

#include <sys/stat.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <new>
#include <span>

#include "engine/llm/gguf_writer.h"
#include "sotto/hal/quant.h"
#include "sotto/hal/thread_pool.h"

namespace sotto::llm {
namespace {

using hal::DType;

constexpr uint32_t kQuantizationVersion = 2;  // GGML_QNT_VERSION: the block layouts we write

struct SchemeInfo {
  QuantScheme scheme;
  const char* lower;
  const char* upper;
  DType base;         // the type of an ordinary weight
  uint32_t fileType;  // llama_ftype
};

constexpr SchemeInfo kSchemes[] = {
    {QuantScheme::q8_0, "q8_0", "Q8_0", DType::Q8_0, 7},
    {QuantScheme::q4_0, "q4_0", "Q4_0", DType::Q4_0, 2},
    {QuantScheme::q4_1, "q4_1", "Q4_1", DType::Q4_1, 3},
    {QuantScheme::q5_0, "q5_0", "Q5_0", DType::Q5_0, 8},
    {QuantScheme::q5_1, "q5_1", "Q5_1", DType::Q5_1, 9},
    {QuantScheme::q4_k, "q4_k", "Q4_K", DType::Q4_K, 15},
    {QuantScheme::q5_k, "q5_k", "Q5_K", DType::Q5_K, 17},
    {QuantScheme::q6_k, "q6_k", "Q6_K", DType::Q6_K, 18},
    {QuantScheme::q4_k_m, "q4_k_m", "Q4_K_M", DType::Q4_K, 15},
};

const SchemeInfo& info(QuantScheme s) {
  for (const SchemeInfo& i : kSchemes) {
    if (i.scheme == s) return i;
  }
  return kSchemes[0];
}

bool contains(std::string_view s, std::string_view part) { return s.find(part) != std::string_view::npos; }
bool endsWith(std::string_view s, std::string_view tail) {
  return s.size() >= tail.size() && s.substr(s.size() - tail.size()) == tail;
}

// llama.cpp's tensor_allows_quantization for the architectures we run (llama, qwen2): 2-D+ tensors named
// "*weight", except norms, MoE routers and BERT's position / token-type tables.
bool quantizable(const GgufTensor& t) {
  if (t.nDims < 2) return false;
  const std::string_view n = t.name;
  return endsWith(n, "weight") && !contains(n, "_norm.weight") && !contains(n, "ffn_gate_inp.weight") &&
         n != "position_embd.weight" && n != "token_types.weight";
}

bool isFloat(DType t) { return t == DType::F32 || t == DType::F16 || t == DType::BF16; }

uint32_t blockSize(DType t) { return hal::dtypeTraits(static_cast<uint32_t>(t))->blockSize; }

// llama.cpp's use_more_bits: the first and last eighth of the layers and every third one between them.
bool useMoreBits(int i, int n) { return i < n / 8 || i >= 7 * n / 8 || (i - n / 8) % 3 == 2; }

std::string typeName(DType t) { return hal::dtypeName(t); }

}  // namespace

std::optional<QuantScheme> parseQuantScheme(std::string_view name) {
  std::string lower(name);
  for (char& c : lower) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  for (const SchemeInfo& i : kSchemes) {
    if (lower == i.lower) return i.scheme;
  }
  return std::nullopt;
}

const char* quantSchemeName(QuantScheme s) { return info(s).upper; }
uint32_t quantSchemeFileType(QuantScheme s) { return info(s).fileType; }

Result<std::vector<TensorPlan>> planQuantization(const GgufFile& in, const QuantizeOptions& o) {
  if (o.kquantFallback != DType::Q5_0 && o.kquantFallback != DType::Q8_0 && o.kquantFallback != DType::Q4_0 &&
      o.kquantFallback != DType::F16) {
    return makeError(Errc::invalid_argument,
                     std::string("quantize: the k-quant fallback must be q5_0, q8_0, q4_0 or f16, not ") +
                                                 typeName(o.kquantFallback));
  }
  const SchemeInfo& scheme = info(o.scheme);
  const bool mix = o.scheme == QuantScheme::q4_k_m;
  bool tied = true;  // no output.weight: token_embd doubles as the output matrix
  int nAttnV = 0, nFfnDown = 0;
  for (const GgufTensor& t : in.tensors()) {
    if (!quantizable(t)) continue;
    if (t.name == "output.weight") tied = false;
    if (contains(t.name, "attn_v.weight")) ++nAttnV;
    if (contains(t.name, "ffn_down")) ++nFfnDown;
    if (!isFloat(t.type)) {
      return makeError(Errc::unsupported, in.path() + ": tensor '" + t.name + "' is already " + typeName(t.type) +
                                              "; quantizing it again compounds the error: quantize the f32, f16 or "
                                              "bf16 file instead");
    }
  }

  std::vector<TensorPlan> plan;
  plan.reserve(in.tensors().size());
  int iAttnV = 0, iFfnDown = 0;
  for (const GgufTensor& t : in.tensors()) {
    TensorPlan p;
    p.name = t.name;
    p.from = p.to = t.type;
    p.inBytes = t.nbytes;
    if (quantizable(t)) {
      DType to = scheme.base;
      if (mix) {
        // llama_tensor_get_type_impl for LLAMA_FTYPE_MOSTLY_Q4_K_M on a dense, non-Falcon model.
        const std::string_view n = t.name;
        if (n == "output.weight" || (tied && n == "token_embd.weight")) {
          to = t.ne[0] % blockSize(to) != 0 ? DType::Q8_0 : DType::Q6_K;
        } else if (contains(n, "attn_v.weight")) {
          if (useMoreBits(iAttnV, nAttnV)) to = DType::Q6_K;
          ++iAttnV;
        } else if (contains(n, "ffn_down")) {
          if (useMoreBits(iFfnDown, nFfnDown)) to = DType::Q6_K;
          ++iFfnDown;
        } else if (contains(n, "attn_qkv.weight")) {
          to = DType::Q5_K;
        }
      }
      if (t.ne[0] % blockSize(to) != 0) {
        // tensor_type_fallback: rows that do not fill whole blocks of the chosen type.
        if (to == DType::Q6_K) {
          to = DType::Q8_0;
        } else if (to == DType::Q4_K || to == DType::Q5_K) {
          if (o.kquantFallback == DType::Q5_0) {
            to = to == DType::Q4_K ? DType::Q5_0 : DType::Q5_1;  // llama.cpp's tensor_type_fallback
          } else {
            to = o.kquantFallback;
          }
        } else if (mix) {
          to = DType::F16;  // the recipe's own Q8_0 (output rule) on rows that are not even multiples of 32
        } else {
          return makeError(Errc::unsupported, in.path() + ": tensor '" + t.name + "' has rows of " +
                                                  std::to_string(t.ne[0]) + " elements, not a multiple of " +
                                                  std::to_string(blockSize(to)) + " as " + typeName(to) + " needs");
        }
        if (t.ne[0] % blockSize(to) != 0) to = DType::F16;  // rows not even a multiple of 32 (llama.cpp does too)
        p.fallback = true;
      }
      p.to = to;
    }
    const auto bytes = hal::rowBytes(p.to, t.ne[0]);
    if (!bytes) return makeError(Errc::internal, "quantize: row size of '" + t.name + "' overflows");
    p.outBytes = *bytes * (t.elements() / t.ne[0]);
    plan.push_back(std::move(p));
  }
  return plan;
}

namespace {

// Copies one metadata entry with its exact type (scalars through the typed getters, arrays bit for bit).
Status copyKv(const GgufFile& in, std::string_view key, GgufWriter& w) {
  const auto type = in.typeOf(key);
  if (!type) return makeError(Errc::internal, "quantize: metadata key vanished");
  switch (*type) {
    case GgufValueType::u8: return w.addU8(key, static_cast<uint8_t>(*in.getUint(key)));
    case GgufValueType::u16: return w.addU16(key, static_cast<uint16_t>(*in.getUint(key)));
    case GgufValueType::u32: return w.addU32(key, static_cast<uint32_t>(*in.getUint(key)));
    case GgufValueType::u64: return w.addU64(key, *in.getUint(key));
    case GgufValueType::i8: return w.addI8(key, static_cast<int8_t>(*in.getInt(key)));
    case GgufValueType::i16: return w.addI16(key, static_cast<int16_t>(*in.getInt(key)));
    case GgufValueType::i32: return w.addI32(key, static_cast<int32_t>(*in.getInt(key)));
    case GgufValueType::i64: return w.addI64(key, *in.getInt(key));
    case GgufValueType::f32: return w.addF32(key, static_cast<float>(*in.getFloat(key)));
    case GgufValueType::f64: return w.addF64(key, *in.getFloat(key));
    case GgufValueType::boolean: return w.addBool(key, *in.getBool(key));
    case GgufValueType::string: return w.addString(key, *in.getString(key));
    case GgufValueType::array: break;
  }
  const GgufValueType elem = *in.arrayType(key);
  if (elem == GgufValueType::string) {
    const auto strings = in.getStringArray(key);
    return w.addStringArray(key, std::span<const std::string_view>(*strings));
  }
  const std::span<const uint8_t> raw = *in.arrayBytes(key);
  // Typed copies: the mapping gives no alignment guarantee for the elements.
  auto typed = [&](auto tag) -> Status {
    using T = decltype(tag);
    std::vector<T> v(raw.size() / sizeof(T));
    if (!v.empty()) std::memcpy(v.data(), raw.data(), v.size() * sizeof(T));
    return w.addArray(key, std::span<const T>(v));
  };
  switch (elem) {
    case GgufValueType::u8: return typed(uint8_t{});
    case GgufValueType::i8: return typed(int8_t{});
    case GgufValueType::u16: return typed(uint16_t{});
    case GgufValueType::i16: return typed(int16_t{});
    case GgufValueType::u32: return typed(uint32_t{});
    case GgufValueType::i32: return typed(int32_t{});
    case GgufValueType::u64: return typed(uint64_t{});
    case GgufValueType::i64: return typed(int64_t{});
    case GgufValueType::f32: return typed(float{});
    case GgufValueType::f64: return typed(double{});
    case GgufValueType::boolean: {
      std::vector<uint8_t> bytes(raw.begin(), raw.end());
      std::unique_ptr<bool[]> b(new bool[bytes.size() + 1]);
      for (size_t i = 0; i < bytes.size(); ++i) b[i] = bytes[i] != 0;
      return w.addBoolArray(key, std::span<const bool>(b.get(), bytes.size()));
    }
    default: break;
  }
  return makeError(Errc::unsupported, std::string("quantize: cannot copy metadata '") + std::string(key) + "'");
}

// Quantizes rows of one tensor across the pool. Parts only read the source and write their own rows.
class RowQuantizer {
 public:
  RowQuantizer(hal::ThreadPool& pool, size_t cols) : pool_(pool), cols_(cols), rowBuf_(pool.threads() * cols) {}

  // Empty message on success.
  std::string run(const GgufTensor& t, DType to, std::vector<uint8_t>& out) {
    const size_t inRow = *hal::rowBytes(t.type, cols_);
    const size_t outRow = *hal::rowBytes(to, cols_);
    const size_t rows = t.elements() / cols_;
    std::atomic<bool> nonFinite{false}, failed{false};
    std::atomic<size_t> badRow{rows};
    const auto* src = reinterpret_cast<const std::byte*>(t.data);
    auto* dst = reinterpret_cast<std::byte*>(out.data());
    // ~64 KiB of source per chunk: enough work per hand-out, fine enough to balance two busy cores.
    const size_t grain = std::max<size_t>(1, (64u << 10) / std::max<size_t>(1, inRow));
    pool_.parallelFor(rows, grain, [&](size_t begin, size_t end, unsigned thread) {
      const std::span<float> x(rowBuf_.data() + static_cast<size_t>(thread) * cols_, cols_);
      for (size_t r = begin; r < end; ++r) {
        if (!hal::dequantizeRow(t.type, std::span<const std::byte>(src + r * inRow, inRow), x)) {
          failed.store(true, std::memory_order_relaxed);
          badRow.store(r, std::memory_order_relaxed);
          return;
        }
        for (const float v : x) {
          if (!std::isfinite(v)) {
            nonFinite.store(true, std::memory_order_relaxed);
            badRow.store(r, std::memory_order_relaxed);
            return;
          }
        }
        if (!hal::quantizeRow(to, x, std::span<std::byte>(dst + r * outRow, outRow))) {
          failed.store(true, std::memory_order_relaxed);
          badRow.store(r, std::memory_order_relaxed);
          return;
        }
      }
    });
    if (nonFinite.load()) {
      return "tensor '" + t.name + "' row " + std::to_string(badRow.load()) + " holds NaN or infinity";
    }
    if (failed.load()) return "tensor '" + t.name + "': cannot convert " + typeName(t.type) + " to " + typeName(to);
    return {};
  }

 private:
  hal::ThreadPool& pool_;
  size_t cols_;
  std::vector<float> rowBuf_;  // one row per thread
};

}  // namespace

Result<QuantizeReport> quantizeModel(const std::string& inPath, const std::string& outPath, const QuantizeOptions& o,
                                     const QuantizeProgress& progress) {
  const auto t0 = std::chrono::steady_clock::now();
  std::error_code ec;
  if (std::filesystem::exists(outPath, ec) && std::filesystem::equivalent(inPath, outPath, ec)) {
    return makeError(Errc::invalid_argument, "quantize: the output " + outPath + " is the input file");
  }
  auto file = GgufFile::open(inPath);
  if (!file) return std::move(file).error();
  const GgufFile& in = **file;
  auto plan = planQuantization(in, o);
  if (!plan) return std::move(plan).error();

  GgufWriter w;
  if (in.has("general.alignment")) {
    if (auto st = w.setAlignment(in.alignment()); !st) return std::move(st).error();
  }
  bool haveFileType = false, haveQv = false;
  for (const std::string_view key : in.keys()) {
    Status st;
    if (key == "general.alignment") {
      continue;
    } else if (key == "general.file_type") {
      // Same position as in the input (llama.cpp's gguf_set_val_u32 replaces in place).
      st = w.addU32(key, quantSchemeFileType(o.scheme));
      haveFileType = true;
    } else if (key == "general.quantization_version") {
      st = w.addU32(key, kQuantizationVersion);
      haveQv = true;
    } else {
      st = copyKv(in, key, w);
    }
    if (!st) return std::move(st).error();
  }
  if (!haveQv) {
    if (auto st = w.addU32("general.quantization_version", kQuantizationVersion); !st) return std::move(st).error();
  }
  if (!haveFileType) {
    if (auto st = w.addU32("general.file_type", quantSchemeFileType(o.scheme)); !st) return std::move(st).error();
  }

  hal::ThreadPoolOptions po;
  po.threads = std::max(1u, o.threads);
  po.name = "sotto-quant";
  auto pool = hal::ThreadPool::create(po);
  if (!pool) return std::move(pool).error();

  QuantizeReport report;
  const auto tensors = in.tensors();
  for (size_t i = 0; i < tensors.size(); ++i) {
    const GgufTensor& t = tensors[i];
    const TensorPlan& p = (*plan)[i];
    const std::vector<uint64_t> dims(t.ne, t.ne + t.nDims);
    Status st;
    if (p.to == p.from) {
      st = w.addTensor(t.name, t.type, dims, std::span<const uint8_t>(t.data, t.nbytes));
    } else {
      std::vector<uint8_t> out;
      try {
        out.resize(p.outBytes);
      } catch (const std::bad_alloc&) {
        return makeError(Errc::busy, "quantize: cannot allocate " + std::to_string(p.outBytes) + " bytes for '" +
                                         t.name + "'");
      }
      RowQuantizer q(**pool, t.ne[0]);
      if (std::string why = q.run(t, p.to, out); !why.empty()) {
        return makeError(Errc::corrupt, inPath + ": " + why);
      }
      st = w.addTensor(t.name, p.to, dims, std::move(out));
      ++report.quantized;
      if (p.fallback) ++report.fallbacks;
    }
    if (!st) return std::move(st).error();
    report.inBytes += p.inBytes;
    report.outBytes += p.outBytes;
    if (progress) progress(i, tensors.size(), p);
  }
  if (auto st = w.write(outPath); !st) return std::move(st).error();
  struct stat sb {};
  if (::stat(outPath.c_str(), &sb) == 0) report.outFileBytes = static_cast<uint64_t>(sb.st_size);
  report.tensors = std::move(*plan);
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return report;
}

}  // namespace sotto::llm
