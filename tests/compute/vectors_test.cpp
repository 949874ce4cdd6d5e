// SPDX-License-Identifier: MIT
// ggml compatibility: quantized bytes, dequantized floats and dot products against llama.cpp's quant-ggml.json.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>

#include "common/quant_ref.h"
#include "json_lite.h"
#include "sotto/hal/compute.h"
#include "sotto/hal/quant.h"

namespace sotto::test {
namespace {

using hal::DType;

const Json& vectors() {
  static const Json doc = [] {
    const std::string path = std::string(SOTTO_VECTORS_DIR) + "/quant-ggml.json";
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot open " + path);
    std::stringstream ss;
    ss << in.rdbuf();
    return JsonParser::parse(ss.str());
  }();
  return doc;
}

const Json& typeCase(const std::string& name) {
  for (const Json& t : vectors()["types"].arr) {
    if (t["type"].str == name) return t;
  }
  throw std::runtime_error("no vectors for " + name);
}

std::vector<float> inputRow(size_t row) {
  const Json& x = vectors()["inputs"]["x_f32_b64"];
  if (x.kind == Json::Kind::array) return decodeF32Base64(x[row].str);
  const std::vector<float> all = decodeF32Base64(x.str);
  const size_t n = static_cast<size_t>(vectors()["inputs"]["n_per_row"].num);
  return std::vector<float>(all.begin() + static_cast<std::ptrdiff_t>(row * n),
                            all.begin() + static_cast<std::ptrdiff_t>((row + 1) * n));
}

std::vector<float> inputY() { return decodeF32Base64(vectors()["inputs"]["y_f32_b64"].str); }

std::string hex(const std::vector<uint8_t>& b) {
  static const char* d = "0123456789abcdef";
  std::string s;
  for (uint8_t v : b) {
    s += d[v >> 4];
    s += d[v & 15];
  }
  return s;
}

struct TypeParam {
  const char* name;
  DType type;
};

class QuantVectors : public ::testing::TestWithParam<TypeParam> {};

TEST_P(QuantVectors, InputsMatchTheirFormulas) {
  // Guards the decoding: the stored inputs are the documented formulas rounded to f32.
  const std::vector<float> x1 = inputRow(1);
  ASSERT_EQ(x1.size(), 512u);
  for (size_t i = 0; i < x1.size(); ++i) {
    EXPECT_EQ(x1[i], static_cast<float>(std::sin(0.37 * static_cast<double>(i) + 1.3) * (1 + i % 7) * 0.1)) << i;
  }
}

TEST_P(QuantVectors, QuantizedBytesAreIdenticalToGgml) {
  const Json& tc = typeCase(GetParam().name);
  ASSERT_EQ(static_cast<uint32_t>(tc["ggml_type_id"].num), static_cast<uint32_t>(GetParam().type));
  for (const Json& row : tc["rows"].arr) {
    const auto r = static_cast<size_t>(row["row"].num);
    const std::vector<float> x = inputRow(r);
    const std::vector<uint8_t> expect = decodeHex(row["quant_hex"].str);
    std::vector<uint8_t> got(*hal::rowBytes(GetParam().type, x.size()));
    ASSERT_EQ(got.size(), expect.size());
    ASSERT_TRUE(hal::quantizeRow(GetParam().type, x, std::as_writable_bytes(std::span(got))).ok());
    EXPECT_EQ(hex(got), hex(expect)) << GetParam().name << " row " << r;
  }
}

TEST_P(QuantVectors, DequantizedFloatsAreBitExact) {
  const Json& tc = typeCase(GetParam().name);
  for (const Json& row : tc["rows"].arr) {
    const std::vector<uint8_t> q = decodeHex(row["quant_hex"].str);
    const std::vector<float> expect = decodeF32Base64(row["dequant_f32_b64"].str);
    std::vector<float> got(expect.size());
    ASSERT_TRUE(hal::dequantizeRow(GetParam().type, std::as_bytes(std::span(q)), got).ok());
    size_t mismatches = 0;
    for (size_t i = 0; i < got.size(); ++i) {
      if (std::memcmp(&got[i], &expect[i], 4) != 0 && ++mismatches <= 3) {
        ADD_FAILURE() << GetParam().name << " row " << row["row"].num << " [" << i << "]: " << got[i]
                      << " != " << expect[i];
      }
    }
    EXPECT_EQ(mismatches, 0u);
  }
}

TEST_P(QuantVectors, ActivationQuantizationMatchesGgmlFromFloat) {
  // ggml's CPU from_float for the vec_dot type: Q8_0 equals the reference quantizer; Q8_K has no reference
  // quantizer in ggml, and ours (its quantize_row_q8_K arithmetic) must give the same bytes.
  const Json& vd = typeCase(GetParam().name)["vec_dot"];
  const DType vdt = hal::vecDotType(GetParam().type);
  ASSERT_EQ(static_cast<uint32_t>(vd["vec_dot_type_id"].num), static_cast<uint32_t>(vdt));
  const std::vector<float> y = inputY();
  std::vector<uint8_t> got(*hal::rowBytes(vdt, y.size()));
  ASSERT_TRUE(hal::quantizeRow(vdt, y, std::as_writable_bytes(std::span(got))).ok());
  EXPECT_EQ(hex(got), vd["y_quant_hex"].str);
}

// What a dot product must equal, and how closely. Most types: the exact dot of the dequantized rows within 1e-6
// relative (only the summation order differs). Q4_1 / Q5_1: their Q8_1 activations carry s = d·Σq rounded to
// fp16 for the min term, so they equal ggml's own float vec_dot result instead (the vectors' README).
std::pair<double, double> expectedDot(DType t, const Json& res) {
  if (t == DType::Q4_1 || t == DType::Q5_1) {
    const double v = res["vec_dot"].num;
    return {v, 2e-6 * std::fabs(v) + 1e-8};
  }
  const double exact = res["dot_dequantized_f64"].num;
  return {exact, 1e-6 * std::fabs(exact) + 1e-9};
}

TEST_P(QuantVectors, ReferenceDotWithGgmlActivationsMatchesExactDot) {
  const Json& tc = typeCase(GetParam().name);
  const Json& vd = tc["vec_dot"];
  const std::vector<uint8_t> yq = decodeHex(vd["y_quant_hex"].str);
  for (const Json& res : vd["results"].arr) {
    const auto r = static_cast<size_t>(res["row"].num);
    const std::vector<uint8_t> w = decodeHex(tc["rows"][r]["quant_hex"].str);
    namespace ref = hal::compute::ref;
    float got = 0;
    switch (GetParam().type) {
      case DType::Q8_0: got = ref::dotQ8_0(reinterpret_cast<const hal::compute::BlockQ8_0*>(w.data()),
                                           reinterpret_cast<const hal::compute::BlockQ8_0*>(yq.data()), 512); break;
      case DType::Q4_0: got = ref::dotQ4_0(reinterpret_cast<const hal::compute::BlockQ4_0*>(w.data()),
                                           reinterpret_cast<const hal::compute::BlockQ8_0*>(yq.data()), 512); break;
      case DType::Q4_1: got = ref::dotQ4_1(reinterpret_cast<const hal::compute::BlockQ4_1*>(w.data()),
                                           reinterpret_cast<const hal::compute::BlockQ8_1*>(yq.data()), 512); break;
      case DType::Q5_0: got = ref::dotQ5_0(reinterpret_cast<const hal::compute::BlockQ5_0*>(w.data()),
                                           reinterpret_cast<const hal::compute::BlockQ8_0*>(yq.data()), 512); break;
      case DType::Q5_1: got = ref::dotQ5_1(reinterpret_cast<const hal::compute::BlockQ5_1*>(w.data()),
                                           reinterpret_cast<const hal::compute::BlockQ8_1*>(yq.data()), 512); break;
      case DType::Q4_K: got = ref::dotQ4_K(reinterpret_cast<const hal::compute::BlockQ4_K*>(w.data()),
                                           reinterpret_cast<const hal::compute::BlockQ8_K*>(yq.data()), 512); break;
      case DType::Q5_K: got = ref::dotQ5_K(reinterpret_cast<const hal::compute::BlockQ5_K*>(w.data()),
                                           reinterpret_cast<const hal::compute::BlockQ8_K*>(yq.data()), 512); break;
      case DType::Q6_K: got = ref::dotQ6_K(reinterpret_cast<const hal::compute::BlockQ6_K*>(w.data()),
                                           reinterpret_cast<const hal::compute::BlockQ8_K*>(yq.data()), 512); break;
      default: FAIL();
    }
    const auto [want, tol] = expectedDot(GetParam().type, res);
    EXPECT_NEAR(got, want, tol) << GetParam().name << " row " << r;
  }
}

TEST_P(QuantVectors, EveryBackendMatmulMatchesExactDot) {
  // The full path: matmul quantizes y itself (same bytes as ggml, see above) and runs the backend's kernel.
  const Json& tc = typeCase(GetParam().name);
  std::vector<uint8_t> w;
  for (const Json& row : tc["rows"].arr) {
    const std::vector<uint8_t> r = decodeHex(row["quant_hex"].str);
    w.insert(w.end(), r.begin(), r.end());
  }
  const std::vector<float> y = inputY();
  hal::ThreadPoolOptions po;
  po.threads = 2;
  auto pool = hal::ThreadPool::create(po);
  ASSERT_TRUE(pool.ok());
  for (const hal::ComputeDevice* dev : hal::ComputeRegistry::instance().devices()) {
    auto be = dev->createBackend();
    ASSERT_TRUE(be.ok());
    std::vector<std::byte> scratch((*be)->matmulScratchBytes(GetParam().type, 1, 512));
    std::vector<float> out(4);
    hal::MatmulArgs a;
    a.wType = GetParam().type;
    a.w = w.data();
    a.x = y.data();
    a.y = out.data();
    a.m = 1;
    a.n = 4;
    a.k = 512;
    a.scratch = scratch;
    ASSERT_TRUE((*be)->matmul(**pool, a).ok());
    for (const Json& res : tc["vec_dot"]["results"].arr) {
      const auto r = static_cast<size_t>(res["row"].num);
      const auto [want, tol] = expectedDot(GetParam().type, res);
      EXPECT_NEAR(out[r], want, tol) << dev->name() << " " << GetParam().name << " row " << r;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Ggml, QuantVectors,
                         ::testing::Values(TypeParam{"q8_0", DType::Q8_0}, TypeParam{"q4_0", DType::Q4_0},
                                           TypeParam{"q4_1", DType::Q4_1}, TypeParam{"q5_0", DType::Q5_0},
                                           TypeParam{"q5_1", DType::Q5_1},
                                           TypeParam{"q4_K", DType::Q4_K}, TypeParam{"q5_K", DType::Q5_K},
                                           TypeParam{"q6_K", DType::Q6_K}),
                         [](const ::testing::TestParamInfo<TypeParam>& p) { return std::string(p.param.name); });

}  // namespace
}  // namespace sotto::test
