// SPDX-License-Identifier: MIT
// Broken and hostile GGUF files, generated here: each is refused with a one-line message naming what is wrong.
#include <algorithm>
#include <cstring>

#include "gguf_test_util.h"

namespace sotto::llm::test {
namespace {

constexpr uint32_t kF32 = 0;
constexpr uint32_t kQ8_0 = 8;
constexpr uint32_t kU32 = static_cast<uint32_t>(GgufValueType::u32);
constexpr uint32_t kString = static_cast<uint32_t>(GgufValueType::string);
constexpr uint32_t kArray = static_cast<uint32_t>(GgufValueType::array);
constexpr uint32_t kU64 = static_cast<uint32_t>(GgufValueType::u64);
constexpr uint32_t kBool = static_cast<uint32_t>(GgufValueType::boolean);

// One key, then `tensors` as given, then a data section of `dataBytes` zeros.
struct Layout {
  struct T {
    std::string name;
    std::vector<uint64_t> dims;
    uint32_t type = kF32;
    uint64_t offset = 0;
  };
  std::vector<T> tensors;
  uint64_t dataBytes = 0;
};

std::vector<uint8_t> build(const Layout& l, uint32_t alignment = 32) {
  RawGguf g;
  g.header(l.tensors.size(), 1).kvString("general.architecture", "llama");
  for (const Layout::T& t : l.tensors) g.tensor(t.name, t.dims, t.type, t.offset);
  g.padTo(alignment).zeros(l.dataBytes);
  return g.bytes();
}

TEST(GgufBroken, ValidBaselinesAreAccepted) {
  // The raw builder's own baseline parses, so every failure below is due to the one field each test breaks.
  const std::vector<uint8_t> ok = build({{{"a", {8}, kF32, 0}, {"b", {32, 2}, kQ8_0, 32}}, 32 + 68});
  auto f = GgufFile::fromBytes(ok, "ok.gguf");
  ASSERT_TRUE(f.ok()) << f.error().message;
  EXPECT_EQ((*f)->tensor("b")->nbytes, 68u);
  // No tensors: the file may end right after the metadata, without a padded data section.
  RawGguf vocabOnly;
  vocabOnly.header(0, 1).kvU32("x", 1);
  auto v = GgufFile::fromBytes(vocabOnly.bytes(), "vocab.gguf");
  ASSERT_TRUE(v.ok()) << v.error().message;
  EXPECT_TRUE((*v)->tensors().empty());
  // Version 2 has the same layout as 3.
  RawGguf v2;
  v2.header(0, 1, 2).kvU32("x", 1);
  auto f2 = GgufFile::fromBytes(v2.bytes(), "v2.gguf");
  ASSERT_TRUE(f2.ok()) << f2.error().message;
  EXPECT_EQ((*f2)->version(), 2u);
}

// Every prefix of a small file up to the end of its last tensor is refused; longer ones (only padding missing)
// are fine. This walks through every field of the format.
TEST(GgufBroken, TruncatedAtEveryByte) {
  const std::vector<uint8_t> full = smallModelWriter().toBytes();
  auto f = GgufFile::fromBytes(full, "small.gguf");
  ASSERT_TRUE(f.ok()) << f.error().message;
  uint64_t end = 0;
  for (const GgufTensor& t : (*f)->tensors()) end = std::max(end, (*f)->dataOffset() + t.offset + t.nbytes);
  ASSERT_GT(full.size(), 300u);
  for (size_t cut = 0; cut < full.size(); ++cut) {
    // A copy of exactly `cut` bytes, so ASan sees any read past it.
    std::vector<uint8_t> part(full.begin(), full.begin() + static_cast<std::ptrdiff_t>(cut));
    auto r = GgufFile::fromBytes(part, "hostile.gguf");
    if (cut >= end) {
      EXPECT_TRUE(r.ok()) << "cut " << cut << ": " << r.error().message;
      continue;
    }
    SCOPED_TRACE("cut at " + std::to_string(cut));
    expectRefused(part, cut < 4 ? "not a GGUF file" : "past end of file");
  }
}

// The same over every byte of a real model's header and metadata and at spaced points through its weights.
TEST(GgufBroken, TruncatedRealModel) {
  const std::vector<uint8_t> full = readBytes(sharedPath("models/stories260K-q8_0.gguf"));
  ASSERT_EQ(full.size(), 489472u);
  auto f = GgufFile::fromBytes(full, "stories.gguf");
  ASSERT_TRUE(f.ok());
  const uint64_t dataOffset = (*f)->dataOffset();
  for (size_t cut = 0; cut < full.size(); cut += (cut < dataOffset + 64 ? 1 : 4093)) {
    auto r = GgufFile::fromBytes(std::span<const uint8_t>(full.data(), cut), "stories.gguf");
    ASSERT_FALSE(r.ok()) << "cut " << cut;
    const std::string& m = r.error().message;
    ASSERT_TRUE(m.find("past end of file") != std::string::npos || m.find("not a GGUF file") != std::string::npos)
        << m;
  }
}

TEST(GgufBroken, BadMagic) {
  std::vector<uint8_t> b = smallModelWriter().toBytes();
  b[3] = 'G';
  const std::string m = expectRefused(b, "not a GGUF file");
  EXPECT_NE(m.find("47 47 55 47"), std::string::npos) << m;
  expectRefused(std::vector<uint8_t>{'G', 'G'}, "not a GGUF file: only 2 bytes");
  expectRefused(std::span<const uint8_t>(), "not a GGUF file: only 0 bytes");
  // Models from before GGUF (2023) are common on the internet: say what they are.
  for (const char* old : {"tjgg", "lmgg", "fmgg"}) {
    RawGguf g;
    g.raw(old, 4).u32(3).zeros(64);
    expectRefused(g.bytes(), "an old GGML model (pre-GGUF format)");
  }
}

TEST(GgufBroken, Versions) {
  RawGguf v1;
  v1.header(0, 0, 1);
  expectRefused(v1.bytes(), "GGUF version 1 is not supported", Errc::unsupported);
  RawGguf v99;
  v99.header(0, 0, 99);
  expectRefused(v99.bytes(), "unsupported GGUF version 99", Errc::unsupported);
  RawGguf v0;
  v0.header(0, 0, 0);
  expectRefused(v0.bytes(), "unsupported GGUF version 0", Errc::unsupported);
  RawGguf big;
  big.header(0, 0, 0x03000000);
  expectRefused(big.bytes(), "big-endian", Errc::unsupported);
  RawGguf shortHeader;
  shortHeader.raw("GGUF", 4).u32(3).u64(0);
  expectRefused(shortHeader.bytes(), "header: counts extend past end of file (16 bytes)");
}

TEST(GgufBroken, HugeCounts) {
  RawGguf kvs;
  kvs.header(0, 1ull << 62).kvU32("x", 1);
  expectRefused(kvs.bytes(), "metadata count 4611686018427387904 exceeds the limit");
  RawGguf kvsFit;
  kvsFit.header(0, 1000).kvU32("x", 1);
  expectRefused(kvsFit.bytes(), "metadata count 1000 cannot fit");
  RawGguf tensors;
  tensors.header(UINT64_MAX, 1).kvU32("x", 1);
  expectRefused(tensors.bytes(), "tensor count 18446744073709551615 exceeds the limit");
  // Fits the header check but not what remains after the metadata.
  RawGguf tensorsFit;
  tensorsFit.header(3, 1).kvString("k", std::string(90, 'x'));
  expectRefused(tensorsFit.bytes(), "tensor count 3 cannot fit");
  // Claims two entries, holds one.
  RawGguf more;
  more.header(0, 2).kvU32("x", 1).zeros(20);
  expectRefused(more.bytes(), "metadata entry #1");
}

TEST(GgufBroken, Keys) {
  RawGguf empty;
  empty.header(0, 1).str("").u32(kU32).u32(1);
  expectRefused(empty.bytes(), "metadata entry #0: empty key");
  RawGguf longKey;
  longKey.header(0, 1).u64(70000).zeros(70020);
  expectRefused(longKey.bytes(), "key of 70000 bytes is longer than 65535");
  RawGguf pastEnd;
  pastEnd.header(0, 1).u64(5000).zeros(20);
  expectRefused(pastEnd.bytes(), "metadata entry #0: key of 5000 bytes extends past end of file");
  RawGguf dup;
  dup.header(0, 3).kvU32("llama.block_count", 1).kvU32("a", 2).kvString("llama.block_count", "x");
  expectRefused(dup.bytes(), "duplicate key 'llama.block_count'");
  // A hostile key cannot break the message into lines.
  RawGguf weird;
  weird.header(0, 2).kvU32("a\nb\x01", 1).kvU32("a\nb\x01", 2);
  expectRefused(weird.bytes(), "duplicate key 'a\\x0ab\\x01'");
}

TEST(GgufBroken, Strings) {
  RawGguf s;
  s.header(0, 1).str("general.name").u32(kString).u64(1ull << 40).raw("abc", 3);
  expectRefused(s.bytes(), "key 'general.name': string of 1099511627776 bytes at offset 56 extends past end of file");
  RawGguf maxLen;
  maxLen.header(0, 1).str("general.name").u32(kString).u64(UINT64_MAX);
  expectRefused(maxLen.bytes(), "string of 18446744073709551615 bytes");
  RawGguf noLen;
  noLen.header(0, 1).str("general.name").u32(kString).u32(0);
  expectRefused(noLen.bytes(), "key 'general.name': string length past end of file");
}

TEST(GgufBroken, ScalarsAndTypes) {
  RawGguf unknown;
  unknown.header(0, 1).str("x").u32(13).u32(0);
  expectRefused(unknown.bytes(), "key 'x': unknown value type 13");
  RawGguf huge;
  huge.header(0, 1).str("x").u32(0xffffffff).u32(0);
  expectRefused(huge.bytes(), "key 'x': unknown value type 4294967295");
  RawGguf shortValue;
  shortValue.header(0, 1).str("x").u32(kU64).u32(7);
  expectRefused(shortValue.bytes(), "key 'x': u64 value extends past end of file");
  RawGguf boolean;
  boolean.header(0, 1).str("x").u32(kBool).u8(2);
  expectRefused(boolean.bytes(), "key 'x': boolean value 2 is neither 0 nor 1");
}

TEST(GgufBroken, Arrays) {
  // 2^62 u64 elements: 2^65 bytes, the multiplication overflows 64 bits.
  RawGguf overflow;
  overflow.header(0, 1).str("a").u32(kArray).u32(kU64).u64(1ull << 62).u64(1);
  expectRefused(overflow.bytes(), "key 'a': array of 4611686018427387904 u64 elements extends past end of file");
  // 2^61 elements of 8 bytes: exactly 2^64, wraps to 0.
  RawGguf wraps;
  wraps.header(0, 1).str("a").u32(kArray).u32(kU64).u64(1ull << 61);
  expectRefused(wraps.bytes(), "array of 2305843009213693952 u64 elements");
  RawGguf tooLong;
  tooLong.header(0, 1).str("a").u32(kArray).u32(kU32).u64(3).u32(1).u32(2);
  expectRefused(tooLong.bytes(), "array of 3 u32 elements extends past end of file");
  RawGguf strings;
  strings.header(0, 1).str("t").u32(kArray).u32(kString).u64(1ull << 60).str("a");
  expectRefused(strings.bytes(), "key 't': array of 1152921504606846976 strings extends past end of file");
  RawGguf element;
  element.header(0, 1).str("t").u32(kArray).u32(kString).u64(3).str("a").u64(1ull << 50).str("c");
  expectRefused(element.bytes(), "key 't': string #1 of 3 extends past end of file");
  RawGguf nested;
  nested.header(0, 1).str("n").u32(kArray).u32(kArray).u64(1).u32(kU32).u64(1).u32(5);
  expectRefused(nested.bytes(), "key 'n': arrays of arrays are not supported", Errc::unsupported);
  RawGguf unknown;
  unknown.header(0, 1).str("u").u32(kArray).u32(99).u64(0);
  expectRefused(unknown.bytes(), "key 'u': array of unknown value type 99");
  RawGguf bools;
  bools.header(0, 1).str("b").u32(kArray).u32(kBool).u64(3).u8(0).u8(1).u8(7);
  expectRefused(bools.bytes(), "key 'b': boolean value 7");
  RawGguf noCount;
  noCount.header(0, 1).str("a").u32(kArray).u32(kU32).u32(0);
  expectRefused(noCount.bytes(), "key 'a': array length past end of file");
  // An empty array is fine.
  RawGguf empty;
  empty.header(0, 1).str("e").u32(kArray).u32(kU32).u64(0);
  auto f = GgufFile::fromBytes(empty.bytes(), "empty-array.gguf");
  ASSERT_TRUE(f.ok()) << f.error().message;
  EXPECT_EQ((*f)->arrayLength("e"), 0u);
  EXPECT_EQ((*f)->getIntArray("e")->size(), 0u);
}

TEST(GgufBroken, Alignment) {
  for (uint32_t bad : {0u, 3u, 48u, 0xffffffffu}) {
    RawGguf g;
    g.header(0, 1).kvU32("general.alignment", bad);
    expectRefused(g.bytes(), "key 'general.alignment': " + std::to_string(bad) + " is not a power of two");
  }
  RawGguf wrongType;
  wrongType.header(0, 1).str("general.alignment").u32(kU64).u64(32);
  expectRefused(wrongType.bytes(), "key 'general.alignment': type u64, expected u32");
  // A valid non-default alignment moves the data section and governs the offsets.
  RawGguf ok;
  ok.header(1, 1).kvU32("general.alignment", 64).tensor("t", {8}, kF32, 0).padTo(64).zeros(32);
  auto f = GgufFile::fromBytes(ok.bytes(), "a64.gguf");
  ASSERT_TRUE(f.ok()) << f.error().message;
  EXPECT_EQ((*f)->alignment(), 64u);
  EXPECT_EQ((*f)->dataOffset() % 64, 0u);
  RawGguf misaligned64;
  misaligned64.header(1, 1).kvU32("general.alignment", 64).tensor("t", {8}, kF32, 32).padTo(64).zeros(64);
  expectRefused(misaligned64.bytes(), "tensor 't': offset 32 is not a multiple of the alignment 64");
}

TEST(GgufBroken, TensorNamesAndDims) {
  expectRefused(build({{{"", {8}, kF32, 0}}, 32}), "tensor #0: empty name");
  expectRefused(build({{{std::string(65, 'n'), {8}, kF32, 0}}, 32}), "tensor #0: name of 65 bytes is longer than 64");
  EXPECT_TRUE(GgufFile::fromBytes(build({{{std::string(64, 'n'), {8}, kF32, 0}}, 32}), "n64").ok());
  expectRefused(build({{{"w", {}, kF32, 0}}, 32}), "tensor 'w': 0 dimensions (allowed 1 to 4)");
  expectRefused(build({{{"w", {1, 1, 1, 1, 1}, kF32, 0}}, 32}), "tensor 'w': 5 dimensions (allowed 1 to 4)");
  expectRefused(build({{{"w", {8, 0}, kF32, 0}}, 32}), "tensor 'w': dimension 1 is 0 (shape [8, 0])");
  expectRefused(build({{{"w", {1ull << 32, 1ull << 32}, kF32, 0}}, 32}),
                "tensor 'w': element count of shape [4294967296, 4294967296] overflows");
  expectRefused(build({{{"w", {1ull << 40, 1ull << 23}, kF32, 0}}, 32}), "element count of shape");  // > INT64_MAX
  // 2^62 elements fit int64, but their 2^64 bytes do not fit 64 bits.
  expectRefused(build({{{"w", {1ull << 31, 1ull << 31}, kF32, 0}}, 32}), "tensor 'w': byte size of shape");
  RawGguf nDimsPastEnd;
  nDimsPastEnd.header(1, 1).kvU32("x", 1).str("w").u32(4).u64(8).zeros(20);
  expectRefused(nDimsPastEnd.bytes(), "tensor 'w': dimensions extend past end of file");
  expectRefused(build({{{"w", {8}, kF32, 0}, {"v", {8}, kF32, 32}, {"w", {8}, kF32, 64}}, 96}),
                "duplicate tensor name 'w'");
}

TEST(GgufBroken, TensorTypes) {
  expectRefused(build({{{"w", {8}, 99, 0}}, 32}), "tensor 'w': unknown type id 99");
  expectRefused(build({{{"w", {32}, 4, 0}}, 32}), "tensor 'w': unknown type id 4");  // Q4_2, removed from ggml
  expectRefused(build({{{"w", {48, 2}, kQ8_0, 0}}, 128}),
                "tensor 'w': row length 48 is not a multiple of the q8_0 block size 32");
  // Known but unsupported by our kernels: accepted here, exposed, and refused by name by the model loader.
  const std::vector<uint8_t> iq4 = build({{{"w", {32, 2}, 20, 0}}, 64});
  auto f = GgufFile::fromBytes(iq4, "iq4_nl.gguf");
  ASSERT_TRUE(f.ok()) << f.error().message;
  EXPECT_EQ((*f)->tensor("w")->type, hal::DType::IQ4_NL);
  EXPECT_EQ((*f)->tensor("w")->nbytes, 36u);
  EXPECT_FALSE(hal::dtypeTraits(static_cast<uint32_t>((*f)->tensor("w")->type))->supported);
}

TEST(GgufBroken, TensorOffsets) {
  expectRefused(build({{{"blk.3.attn_q.weight", {8}, kF32, 64}}, 32}),
                "tensor 'blk.3.attn_q.weight': data [192, 224) extends past end of file (160 bytes)");
  expectRefused(build({{{"w", {8}, kF32, 16}}, 64}), "tensor 'w': offset 16 is not a multiple of the alignment 32");
  // offset + size wraps around 2^64.
  expectRefused(build({{{"w", {8}, kF32, UINT64_MAX - 31}}, 32}),
                "tensor 'w': offset 18446744073709551584 + 32 bytes extends past end of file");
  expectRefused(build({{{"a", {16}, kF32, 0}, {"b", {8}, kF32, 32}}, 96}),
                "tensors 'a' [160, 224) and 'b' [192, 224) overlap");
  // Overlap is found whatever the table order.
  expectRefused(build({{{"late", {8}, kF32, 64}, {"early", {32}, kF32, 0}}, 128}), "overlap");
  // Two tensors at the same place.
  expectRefused(build({{{"a", {8}, kF32, 0}, {"b", {8}, kF32, 0}}, 32}), "overlap");
  // Tensors present but the file ends inside the padding before the data section.
  RawGguf g;
  g.header(1, 1).kvU32("x", 1).tensor("w", {8}, kF32, 0);
  ASSERT_NE(g.size() % 32, 0u);
  expectRefused(g.bytes(), "data section at offset");
}

}  // namespace
}  // namespace sotto::llm::test
