// SPDX-License-Identifier: MIT
// fp16 and bf16 conversions against an independent oracle: exhaustive over every half, nearest-even rounding
// checked at random points, every tie between neighbours, and the overflow and subnormal edges.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <random>
#include <vector>

#include "sotto/hal/quant.h"

namespace sotto::test {
namespace {

using hal::bf16ToFp32;
using hal::fp16ToFp32;
using hal::fp32ToBf16;
using hal::fp32ToFp16;

double halfValue(uint16_t h) {  // the oracle's own decoding, from the binary16 definition
  const int e = (h >> 10) & 31, m = h & 1023;
  const double mag = e == 0 ? std::ldexp(m, -24) : e == 31 ? INFINITY : std::ldexp(1024 + m, e - 25);
  return (h & 0x8000) ? -mag : mag;
}

// Nearest half to f (ties to the even encoding); |f| ≥ 65520 → inf (the rounding of an unbounded exponent).
uint16_t oracleHalf(float f) {
  const double v = std::fabs(static_cast<double>(f));
  const uint16_t sign = std::signbit(f) ? 0x8000 : 0;
  if (v >= 65520.0) return sign | 0x7c00;
  uint16_t lo = 0, hi = 0x7bff;  // largest finite half ≤ v, by bisection over the monotonic encodings
  while (lo < hi) {
    const auto mid = static_cast<uint16_t>((lo + hi + 1) / 2);
    if (halfValue(mid) <= v) lo = mid; else hi = static_cast<uint16_t>(mid - 1);
  }
  if (halfValue(lo) == v) return sign | lo;
  const uint16_t up = static_cast<uint16_t>(lo + 1);
  const double dl = v - halfValue(lo), du = halfValue(up) - v;
  if (dl < du) return sign | lo;
  if (du < dl) return sign | up;
  return sign | ((lo & 1) ? up : lo);
}

TEST(Fp16, EveryHalfDecodesExactlyAndRoundTrips) {
  for (uint32_t h = 0; h < 65536; ++h) {
    const auto bits = static_cast<uint16_t>(h);
    const float f = fp16ToFp32(bits);
    const double expect = halfValue(bits);
    if (((h >> 10) & 31) == 31 && (h & 1023) != 0) {
      EXPECT_TRUE(std::isnan(f)) << h;
      EXPECT_TRUE(std::isnan(fp16ToFp32(fp32ToFp16(f))));
      continue;
    }
    ASSERT_EQ(static_cast<double>(f), expect) << h;
    ASSERT_EQ(std::signbit(f), (h & 0x8000) != 0) << h;
    ASSERT_EQ(fp32ToFp16(f), bits) << h;
  }
}

TEST(Fp16, RoundsToNearestEvenAtRandomPoints) {
  std::mt19937 rng(7);
  std::uniform_int_distribution<uint32_t> bits(0, 0xffffffffu);
  for (int i = 0; i < 200000; ++i) {
    uint32_t u = bits(rng);
    // Concentrate on the half range (exponents 2^-26 .. 2^17) where rounding happens.
    u = (u & 0x807fffffu) | ((101u + (u >> 23) % 30u) << 23);
    const float f = std::bit_cast<float>(u);
    ASSERT_EQ(fp32ToFp16(f), oracleHalf(f)) << std::hexfloat << f;
  }
}

TEST(Fp16, TiesBetweenNeighboursGoToEven) {
  for (uint16_t h = 0; h < 0x7bff; ++h) {
    const double mid = (halfValue(h) + halfValue(static_cast<uint16_t>(h + 1))) / 2;
    const auto f = static_cast<float>(mid);
    ASSERT_EQ(static_cast<double>(f), mid);  // midpoints of halves are exact floats
    const uint16_t expect = (h & 1) ? static_cast<uint16_t>(h + 1) : h;
    ASSERT_EQ(fp32ToFp16(f), expect) << h;
    ASSERT_EQ(fp32ToFp16(-f), expect | 0x8000) << h;
  }
}

TEST(Fp16, OverflowSubnormalAndSpecialEdges) {
  EXPECT_EQ(fp32ToFp16(65504.0f), 0x7bff);
  EXPECT_EQ(fp32ToFp16(std::nextafter(65520.0f, 0.0f)), 0x7bff);
  EXPECT_EQ(fp32ToFp16(65520.0f), 0x7c00);
  EXPECT_EQ(fp32ToFp16(1e10f), 0x7c00);
  EXPECT_EQ(fp32ToFp16(-INFINITY), 0xfc00);
  EXPECT_EQ(fp32ToFp16(std::ldexp(1.0f, -24)), 0x0001);
  EXPECT_EQ(fp32ToFp16(std::ldexp(1.0f, -25)), 0x0000);  // tie with zero: even
  EXPECT_EQ(fp32ToFp16(std::nextafter(std::ldexp(1.0f, -25), 1.0f)), 0x0001);
  EXPECT_EQ(fp32ToFp16(std::ldexp(1.0f, -14)), 0x0400);
  EXPECT_EQ(fp32ToFp16(std::ldexp(1023.5f, -24)), 0x0400);  // rounds up into the normals
  EXPECT_EQ(fp32ToFp16(-0.0f), 0x8000);
  EXPECT_EQ(fp32ToFp16(1e-30f), 0x0000);
  EXPECT_EQ(fp32ToFp16(NAN) & 0x7fff, 0x7e00);
  static_assert(fp32ToFp16(1.0f) == 0x3c00 && fp16ToFp32(0xc000) == -2.0f);  // usable at compile time
}

TEST(Bf16, RoundsToNearestEvenAndKeepsNan) {
  std::mt19937 rng(11);
  std::uniform_int_distribution<uint32_t> bits(0, 0xffffffffu);
  for (int i = 0; i < 200000; ++i) {
    const uint32_t u = bits(rng);
    const float f = std::bit_cast<float>(u);
    const uint16_t got = fp32ToBf16(f);
    if (std::isnan(f)) {
      ASSERT_TRUE(std::isnan(bf16ToFp32(got)));
      continue;
    }
    const auto lo = static_cast<uint16_t>(u >> 16);
    const double v = std::fabs(static_cast<double>(f));
    const double a = std::fabs(static_cast<double>(bf16ToFp32(lo)));
    // The next encoding up; past the largest finite value it is inf, which RNE treats as 2^128.
    const auto up = static_cast<uint16_t>(lo + 1);
    const double b = (up & 0x7fff) == 0x7f80 ? std::ldexp(1.0, 128) : std::fabs(static_cast<double>(bf16ToFp32(up)));
    uint16_t expect = lo;
    if (v - a > b - v || (v - a == b - v && (lo & 1))) expect = static_cast<uint16_t>(lo + 1);
    ASSERT_EQ(got, expect) << std::hex << u;
  }
  EXPECT_EQ(fp32ToBf16(1.0f), 0x3f80);
  EXPECT_EQ(bf16ToFp32(0x3f80), 1.0f);
  EXPECT_EQ(fp32ToBf16(std::bit_cast<float>(0x3f808000u)), 0x3f80);  // tie, even stays
  EXPECT_EQ(fp32ToBf16(std::bit_cast<float>(0x3f818000u)), 0x3f82);  // tie, odd goes up
}

}  // namespace
}  // namespace sotto::test
