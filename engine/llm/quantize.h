// SPDX-License-Identifier: MIT
// Model quantizer: F32/F16/BF16 GGUF → Q8_0 / Q4_0 / Q4_K / Q5_K / Q6_K ("pure") or a Q4_K_M-style mix.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/llm/gguf.h"
#include "sotto/hal/dtype.h"
#include "sotto/hal/result.h"

namespace sotto::llm {

// What the output file should be. The pure schemes give every quantizable weight (2-D, name ending in "weight",
// token_embd included) the one type, as `llama-quantize --pure`; q4_k_m follows llama.cpp's Q4_K_M recipe
// (llama_tensor_get_type): Q6_K for the output (or the tied token_embd) and for attn_v / ffn_down of the
// "use_more_bits" layers, Q4_K elsewhere.
enum class QuantScheme : uint8_t { q8_0, q4_0, q4_1, q5_0, q5_1, q4_k, q5_k, q6_k, q4_k_m };

// "q8_0", "q4_0", "q4_1", "q5_0", "q5_1", "q4_k", "q5_k", "q6_k", "q4_k_m" (case-insensitive; "Q4_K_M" works
// too); nullopt otherwise.
std::optional<QuantScheme> parseQuantScheme(std::string_view name);
const char* quantSchemeName(QuantScheme s);  // upper case, as llama-quantize spells it: "Q4_K_M"
// llama_ftype stored as general.file_type (MOSTLY_Q8_0 = 7, Q4_0 = 2, Q4_1 = 3, Q5_0 = 8, Q5_1 = 9, Q4_K_M = 15,
// Q5_K_M = 17, Q6_K = 18):
// pure Q4_K / Q5_K are labelled Q4_K_M / Q5_K_M, as llama-quantize's "Q4_K" / "Q5_K" aliases are.
uint32_t quantSchemeFileType(QuantScheme s);

struct QuantizeOptions {
  QuantScheme scheme = QuantScheme::q8_0;
  unsigned threads = 1;  // rows of a tensor are split across this many threads
  // K-quants need rows that are multiples of 256 (SmolLM2-360M's 960, Qwen2.5-0.5B's 896 are not). Q5_0
  // (default) falls back as llama.cpp does: Q4_K → Q5_0, Q5_K → Q5_1, so our files match real Q4_K_M downloads.
  // Q8_0 (more precise, ~1.5× the size) or Q4_0 (smaller, less precise) replace both instead. Q6_K always falls
  // back to Q8_0, as in llama.cpp.
  hal::DType kquantFallback = hal::DType::Q5_0;
};

// One tensor's fate.
struct TensorPlan {
  std::string name;
  hal::DType from = hal::DType::F32;
  hal::DType to = hal::DType::F32;  // == from: copied unchanged (norms, biases, rope_freqs, 1-D tensors)
  bool fallback = false;            // `to` replaced a k-quant the row length does not allow
  uint64_t inBytes = 0, outBytes = 0;
};

struct QuantizeReport {
  std::vector<TensorPlan> tensors;  // file order
  uint64_t inBytes = 0, outBytes = 0;  // tensor data only
  uint64_t outFileBytes = 0;           // the whole written file
  size_t quantized = 0, fallbacks = 0;
  double seconds = 0.0;
};

// Chooses every tensor's output type without quantizing. Errors: unsupported input (a weight already quantized:
// requantizing compounds the error, so quantize from the f32/f16/bf16 file), a row length the chosen type cannot
// take and no fallback exists (not a multiple of 32), an unusable fallback option. Any thread.
Result<std::vector<TensorPlan>> planQuantization(const GgufFile& in, const QuantizeOptions& options);

// Progress: called after each tensor with (index, count, plan). Control thread; may print.
using QuantizeProgress = std::function<void(size_t index, size_t count, const TensorPlan& plan)>;

// Reads `inPath`, quantizes per planQuantization(), copies every metadata entry (general.file_type set to the
// scheme's, general.quantization_version 2) and tensor order, and writes `outPath` atomically (GgufWriter:
// temp file, fsync, rename), so a failure never leaves a partial model under that name. The output may not be
// the input. Control thread; blocks for the whole job (seconds to minutes) and holds the output in memory.
Result<QuantizeReport> quantizeModel(const std::string& inPath, const std::string& outPath,
                                     const QuantizeOptions& options, const QuantizeProgress& progress = {});

}  // namespace sotto::llm
