// SPDX-License-Identifier: MIT
// Tensor element types with ggml's numeric ids and block layouts (GGUF files store these ids).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

namespace sotto::hal {

// Values are ggml's `enum ggml_type`, so a GGUF tensor's type field maps directly.
enum class DType : uint32_t {
  F32 = 0, F16 = 1, Q4_0 = 2, Q4_1 = 3, Q5_0 = 6, Q5_1 = 7, Q8_0 = 8, Q8_1 = 9,
  Q2_K = 10, Q3_K = 11, Q4_K = 12, Q5_K = 13, Q6_K = 14, Q8_K = 15,
  IQ2_XXS = 16, IQ2_XS = 17, IQ3_XXS = 18, IQ1_S = 19, IQ4_NL = 20, IQ3_S = 21, IQ2_S = 22, IQ4_XS = 23,
  I8 = 24, I16 = 25, I32 = 26, I64 = 27, F64 = 28, IQ1_M = 29, BF16 = 30, TQ1_0 = 34, TQ2_0 = 35,
};

struct DTypeTraits {
  const char* name;     // ggml's spelling: "q4_K", "f16", ...
  uint32_t blockSize;   // elements per block (1 for plain types)
  uint32_t typeSize;    // bytes per block
  bool quantized;
  bool supported;       // this engine can compute with it (others are refused by name when a model uses them)
};

// Traits of a known id; nullopt for ids ggml never defined (corrupt or future files).
std::optional<DTypeTraits> dtypeTraits(uint32_t id);
const char* dtypeName(DType t);  // "unknown" for undefined ids
// Bytes of a row of n elements; nullopt when n is not a multiple of the block size or on overflow.
std::optional<uint64_t> rowBytes(DType t, uint64_t n);

}  // namespace sotto::hal
