// SPDX-License-Identifier: MIT
// The ggml type table: names and block sizes (from ggml's published block layouts).
#include "sotto/hal/dtype.h"

#include <array>

namespace sotto::hal {
namespace {

struct Entry {
  uint32_t id;
  DTypeTraits traits;
};

// Supported: the types the issue names (F32, F16, BF16, Q8_0, Q4_0, Q4_K, Q5_K, Q6_K), the 32-element types
// llama.cpp's K-quant mixes fall back to on rows that are not multiples of 256 (Q5_0, Q5_1; and Q4_1), and the
// activation types Q8_1 and Q8_K of their dot products. Others are listed so a model using them is refused by name.
constexpr std::array<Entry, 31> kTable{{
    {0, {"f32", 1, 4, false, true}},        {1, {"f16", 1, 2, false, true}},
    {2, {"q4_0", 32, 18, true, true}},      {3, {"q4_1", 32, 20, true, true}},
    {6, {"q5_0", 32, 22, true, true}},     {7, {"q5_1", 32, 24, true, true}},
    {8, {"q8_0", 32, 34, true, true}},      {9, {"q8_1", 32, 36, true, true}},
    {10, {"q2_K", 256, 84, true, false}},   {11, {"q3_K", 256, 110, true, false}},
    {12, {"q4_K", 256, 144, true, true}},   {13, {"q5_K", 256, 176, true, true}},
    {14, {"q6_K", 256, 210, true, true}},   {15, {"q8_K", 256, 292, true, true}},
    {16, {"iq2_xxs", 256, 66, true, false}}, {17, {"iq2_xs", 256, 74, true, false}},
    {18, {"iq3_xxs", 256, 98, true, false}}, {19, {"iq1_s", 256, 50, true, false}},
    {20, {"iq4_nl", 32, 18, true, false}},  {21, {"iq3_s", 256, 110, true, false}},
    {22, {"iq2_s", 256, 82, true, false}},  {23, {"iq4_xs", 256, 136, true, false}},
    {24, {"i8", 1, 1, false, false}},       {25, {"i16", 1, 2, false, false}},
    {26, {"i32", 1, 4, false, false}},      {27, {"i64", 1, 8, false, false}},
    {28, {"f64", 1, 8, false, false}},      {29, {"iq1_m", 256, 56, true, false}},
    {30, {"bf16", 1, 2, false, true}},      {34, {"tq1_0", 256, 54, true, false}},
    {35, {"tq2_0", 256, 66, true, false}},
}};

}  // namespace

std::optional<DTypeTraits> dtypeTraits(uint32_t id) {
  for (const Entry& e : kTable) {
    if (e.id == id) return e.traits;
  }
  return std::nullopt;
}

const char* dtypeName(DType t) {
  auto tr = dtypeTraits(static_cast<uint32_t>(t));
  return tr ? tr->name : "unknown";
}

std::optional<uint64_t> rowBytes(DType t, uint64_t n) {
  auto tr = dtypeTraits(static_cast<uint32_t>(t));
  if (!tr || n % tr->blockSize != 0) return std::nullopt;
  uint64_t blocks = n / tr->blockSize;
  if (blocks > UINT64_MAX / tr->typeSize) return std::nullopt;
  return blocks * tr->typeSize;
}

}  // namespace sotto::hal
