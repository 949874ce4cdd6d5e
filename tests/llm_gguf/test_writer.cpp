// SPDX-License-Identifier: MIT
// GgufWriter: every value type and tensor round-trips through GgufFile; bad input is refused; writes are atomic.
#include <sys/resource.h>

#include <array>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <limits>

#include "gguf_test_util.h"

namespace sotto::llm::test {
namespace {

// GgufFile views the bytes without copying: callers keep them alive, temporaries are refused.
std::unique_ptr<GgufFile> parse(std::vector<uint8_t>&& bytes) = delete;
std::unique_ptr<GgufFile> parse(const std::vector<uint8_t>& bytes) {
  auto r = GgufFile::fromBytes(bytes, "written.gguf");
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
  return r.ok() ? std::move(r).value() : nullptr;
}

std::vector<std::string> dirEntries(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(dir)) names.push_back(e.path().filename().string());
  return names;
}

TEST(GgufWriter, ScalarsRoundTrip) {
  GgufWriter w;
  ASSERT_TRUE(w.addU8("u8", 250).ok());
  ASSERT_TRUE(w.addI8("i8", -120).ok());
  ASSERT_TRUE(w.addU16("u16", 65000).ok());
  ASSERT_TRUE(w.addI16("i16", -32000).ok());
  ASSERT_TRUE(w.addU32("u32", 4000000000u).ok());
  ASSERT_TRUE(w.addI32("i32", -2000000000).ok());
  ASSERT_TRUE(w.addU64("u64", std::numeric_limits<uint64_t>::max()).ok());
  ASSERT_TRUE(w.addI64("i64", std::numeric_limits<int64_t>::min()).ok());
  ASSERT_TRUE(w.addF32("f32", 1.5e-5f).ok());
  ASSERT_TRUE(w.addF64("f64", -2.25e300).ok());
  ASSERT_TRUE(w.addBool("yes", true).ok());
  ASSERT_TRUE(w.addBool("no", false).ok());
  ASSERT_TRUE(w.addString("s", "héllo").ok());
  ASSERT_TRUE(w.addString("empty", "").ok());
  ASSERT_TRUE(w.addString("binary", std::string_view("a\0b\n", 4)).ok());
  ASSERT_TRUE(w.addI32("small_positive", 7).ok());
  const std::vector<uint8_t> bytes = w.toBytes();
  auto f = parse(bytes);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->version(), 3u);
  EXPECT_EQ(f->keys().size(), 16u);
  EXPECT_EQ(f->keys()[0], "u8");
  EXPECT_EQ(f->keys()[15], "small_positive");

  EXPECT_EQ(f->typeOf("u8"), GgufValueType::u8);
  EXPECT_EQ(f->getUint("u8"), 250u);
  EXPECT_EQ(f->getInt("u8"), 250);
  EXPECT_EQ(f->typeOf("i8"), GgufValueType::i8);
  EXPECT_EQ(f->getInt("i8"), -120);
  EXPECT_FALSE(f->getUint("i8").has_value());  // negative does not fit unsigned
  EXPECT_EQ(f->getUint("u16"), 65000u);
  EXPECT_EQ(f->getInt("i16"), -32000);
  EXPECT_EQ(f->getUint("u32"), 4000000000u);
  EXPECT_EQ(f->getInt("u32"), 4000000000);
  EXPECT_EQ(f->getInt("i32"), -2000000000);
  EXPECT_EQ(f->getUint("u64"), std::numeric_limits<uint64_t>::max());
  EXPECT_FALSE(f->getInt("u64").has_value());  // above INT64_MAX
  EXPECT_EQ(f->getInt("i64"), std::numeric_limits<int64_t>::min());
  EXPECT_EQ(f->getUint("small_positive"), 7u);  // a positive signed value fits
  EXPECT_EQ(f->getFloat("f32"), static_cast<double>(1.5e-5f));
  EXPECT_EQ(f->getFloat("f64"), -2.25e300);
  EXPECT_FALSE(f->getFloat("u32").has_value());
  EXPECT_FALSE(f->getUint("f32").has_value());
  EXPECT_EQ(f->getBool("yes"), true);
  EXPECT_EQ(f->getBool("no"), false);
  EXPECT_FALSE(f->getBool("u8").has_value());
  EXPECT_FALSE(f->getUint("yes").has_value());
  EXPECT_EQ(f->getString("s"), "héllo");
  EXPECT_EQ(f->getString("empty"), "");
  EXPECT_EQ(f->getString("binary"), std::string_view("a\0b\n", 4));
  EXPECT_FALSE(f->arrayType("s").has_value());
  EXPECT_FALSE(f->arrayLength("u8").has_value());
  EXPECT_FALSE(f->getStringArray("s").has_value());
  // Views point into the file's bytes, not into copies.
  const std::string_view s = *f->getString("s");
  EXPECT_GE(reinterpret_cast<const uint8_t*>(s.data()), f->bytes().data());
  EXPECT_LE(reinterpret_cast<const uint8_t*>(s.data() + s.size()), f->bytes().data() + f->bytes().size());
}

TEST(GgufWriter, ArraysRoundTrip) {
  GgufWriter w;
  const std::vector<uint8_t> u8{0, 1, 255};
  const std::vector<int8_t> i8{-128, 0, 127};
  const std::vector<uint16_t> u16{0, 65535};
  const std::vector<int16_t> i16{-32768, 32767};
  const std::vector<uint32_t> u32{1, 4000000000u};
  const std::vector<int32_t> i32{-5, 5};
  const std::vector<uint64_t> u64{1, 1ull << 62};
  const std::vector<uint64_t> u64big{1, std::numeric_limits<uint64_t>::max()};
  const std::vector<int64_t> i64{std::numeric_limits<int64_t>::min(), 3};
  const std::vector<float> f32{0.5f, -1.25f, 3e38f};
  const std::vector<double> f64{0.1, -1e-300};
  const std::array<bool, 3> b{true, false, true};
  const std::vector<std::string_view> sv{"a", "", "Ġthe", std::string_view("\0x", 2)};
  const std::vector<std::string> ss{"left right", "x y"};
  const std::vector<float> none;
  ASSERT_TRUE(w.addArray("u8", std::span<const uint8_t>(u8)).ok());
  ASSERT_TRUE(w.addArray("i8", std::span<const int8_t>(i8)).ok());
  ASSERT_TRUE(w.addArray("u16", std::span<const uint16_t>(u16)).ok());
  ASSERT_TRUE(w.addArray("i16", std::span<const int16_t>(i16)).ok());
  ASSERT_TRUE(w.addArray("u32", std::span<const uint32_t>(u32)).ok());
  ASSERT_TRUE(w.addArray("i32", std::span<const int32_t>(i32)).ok());
  ASSERT_TRUE(w.addArray("u64", std::span<const uint64_t>(u64)).ok());
  ASSERT_TRUE(w.addArray("u64big", std::span<const uint64_t>(u64big)).ok());
  ASSERT_TRUE(w.addArray("i64", std::span<const int64_t>(i64)).ok());
  ASSERT_TRUE(w.addArray("f32", std::span<const float>(f32)).ok());
  ASSERT_TRUE(w.addArray("f64", std::span<const double>(f64)).ok());
  ASSERT_TRUE(w.addBoolArray("bool", b).ok());
  ASSERT_TRUE(w.addStringArray("sv", sv).ok());
  ASSERT_TRUE(w.addStringArray("ss", ss).ok());
  ASSERT_TRUE(w.addArray("none", std::span<const float>(none)).ok());
  const std::vector<uint8_t> bytes = w.toBytes();
  auto f = parse(bytes);
  ASSERT_NE(f, nullptr);

  const std::pair<const char*, GgufValueType> types[] = {
      {"u8", GgufValueType::u8},     {"i8", GgufValueType::i8},   {"u16", GgufValueType::u16},
      {"i16", GgufValueType::i16},   {"u32", GgufValueType::u32}, {"i32", GgufValueType::i32},
      {"u64", GgufValueType::u64},   {"i64", GgufValueType::i64}, {"f32", GgufValueType::f32},
      {"f64", GgufValueType::f64},   {"bool", GgufValueType::boolean}, {"sv", GgufValueType::string},
  };
  for (const auto& [key, type] : types) {
    EXPECT_EQ(f->typeOf(key), GgufValueType::array) << key;
    EXPECT_EQ(f->arrayType(key), type) << key;
  }
  EXPECT_EQ(f->getIntArray("u8"), (std::vector<int64_t>{0, 1, 255}));
  EXPECT_EQ(f->getIntArray("i8"), (std::vector<int64_t>{-128, 0, 127}));
  EXPECT_EQ(f->getIntArray("u16"), (std::vector<int64_t>{0, 65535}));
  EXPECT_EQ(f->getIntArray("i16"), (std::vector<int64_t>{-32768, 32767}));
  EXPECT_EQ(f->getIntArray("u32"), (std::vector<int64_t>{1, 4000000000}));
  EXPECT_EQ(f->getIntArray("i32"), (std::vector<int64_t>{-5, 5}));
  EXPECT_EQ(f->getIntArray("u64"), (std::vector<int64_t>{1, int64_t{1} << 62}));
  EXPECT_FALSE(f->getIntArray("u64big").has_value());  // an element above INT64_MAX
  EXPECT_EQ(f->getIntArray("i64"), (std::vector<int64_t>{std::numeric_limits<int64_t>::min(), 3}));
  EXPECT_EQ(f->getFloatArray("f32"), f32);
  EXPECT_EQ(f->getFloatArray("f64"), (std::vector<float>{0.1f, static_cast<float>(-1e-300)}));
  EXPECT_FALSE(f->getIntArray("f32").has_value());
  EXPECT_FALSE(f->getFloatArray("i32").has_value());
  EXPECT_FALSE(f->getIntArray("bool").has_value());
  EXPECT_EQ(f->arrayLength("bool"), 3u);
  EXPECT_EQ(f->getStringArray("sv"), sv);
  const auto back = f->getStringArray("ss");
  ASSERT_TRUE(back.has_value());
  ASSERT_EQ(back->size(), 2u);
  EXPECT_EQ((*back)[0], "left right");
  EXPECT_EQ((*back)[1], "x y");
  EXPECT_EQ(f->arrayLength("none"), 0u);
  EXPECT_EQ(f->getFloatArray("none"), std::vector<float>{});
  EXPECT_FALSE(f->getString("sv").has_value());
  EXPECT_FALSE(f->getUint("u8").has_value());
}

TEST(GgufWriter, TensorsRoundTrip) {
  GgufWriter w;
  std::vector<uint8_t> f32(4 * 5 * 3);
  for (size_t i = 0; i < f32.size(); ++i) f32[i] = static_cast<uint8_t>(i * 7);
  std::vector<uint8_t> q4k(144 * 2, 0x5a);
  std::vector<uint8_t> f16(2 * 6 * 2 * 2 * 2, 0x3c);
  std::vector<uint8_t> q8(34);
  q8[0] = 1;
  ASSERT_TRUE(w.addTensor("a", hal::DType::F32, {5, 3}, f32).ok());
  ASSERT_TRUE(w.addTensor("b.q4k", hal::DType::Q4_K, {256, 2}, std::vector<uint8_t>(q4k)).ok());
  ASSERT_TRUE(w.addTensor("c", hal::DType::F16, {6, 2, 2, 2}, f16).ok());
  ASSERT_TRUE(w.addTensor(std::string(64, 'n'), hal::DType::Q8_0, {32}, q8).ok());
  ASSERT_TRUE(w.addString("general.architecture", "llama").ok());
  EXPECT_EQ(w.tensorCount(), 4u);
  EXPECT_EQ(w.kvCount(), 1u);
  const std::vector<uint8_t> bytes = w.toBytes();
  auto f = parse(bytes);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(bytes.size() % 32, 0u);
  ASSERT_EQ(f->tensors().size(), 4u);
  EXPECT_EQ(f->tensors()[0].name, "a");
  EXPECT_EQ(f->tensors()[3].name, std::string(64, 'n'));
  const GgufTensor* a = f->tensor("a");
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->nDims, 2u);
  EXPECT_EQ(a->ne[0], 5u);
  EXPECT_EQ(a->ne[1], 3u);
  EXPECT_EQ(a->ne[2], 1u);
  EXPECT_EQ(a->nbytes, f32.size());
  EXPECT_EQ(std::memcmp(a->data, f32.data(), f32.size()), 0);
  const GgufTensor* b = f->tensor("b.q4k");
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(b->type, hal::DType::Q4_K);
  EXPECT_EQ(b->offset, 64u);  // 60 bytes of "a", padded to 32
  EXPECT_EQ(std::memcmp(b->data, q4k.data(), q4k.size()), 0);
  const GgufTensor* c = f->tensor("c");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->nDims, 4u);
  EXPECT_EQ(c->elements(), 48u);
  EXPECT_EQ(std::memcmp(c->data, f16.data(), f16.size()), 0);
  for (const GgufTensor& t : f->tensors()) EXPECT_EQ(t.offset % 32, 0u);
}

TEST(GgufWriter, Alignment) {
  for (uint32_t alignment : {1u, 64u, 4096u}) {
    GgufWriter w;
    ASSERT_TRUE(w.setAlignment(alignment).ok());
    ASSERT_TRUE(w.addU32("x", 1).ok());
    std::vector<uint8_t> d(4 * 3, 1);
    ASSERT_TRUE(w.addTensor("t0", hal::DType::F32, {3}, d).ok());
    ASSERT_TRUE(w.addTensor("t1", hal::DType::F32, {3}, d).ok());
    const std::vector<uint8_t> bytes = w.toBytes();
    auto f = parse(bytes);
    ASSERT_NE(f, nullptr) << alignment;
    EXPECT_EQ(f->alignment(), alignment);
    EXPECT_EQ(f->getUint("general.alignment"), alignment);
    EXPECT_EQ(f->keys().front(), "general.alignment");
    EXPECT_EQ(f->dataOffset() % alignment, 0u);
    EXPECT_EQ(f->tensor("t1")->offset, alignment == 1 ? 12u : alignment);
  }
  GgufWriter w;
  EXPECT_FALSE(w.setAlignment(0).ok());
  EXPECT_FALSE(w.setAlignment(48).ok());
  std::vector<uint8_t> d(4, 0);
  ASSERT_TRUE(w.addTensor("t", hal::DType::F32, {1}, d).ok());
  EXPECT_FALSE(w.setAlignment(64).ok());  // offsets already depend on it
  // Without setAlignment nothing is written and the default applies.
  const std::vector<uint8_t> bytes = w.toBytes();
  auto f = parse(bytes);
  ASSERT_NE(f, nullptr);
  EXPECT_FALSE(f->has("general.alignment"));
  EXPECT_EQ(f->alignment(), 32u);
}

TEST(GgufWriter, RefusesBadInput) {
  GgufWriter w;
  ASSERT_TRUE(w.addU32("k", 1).ok());
  Status dup = w.addString("k", "again");
  ASSERT_FALSE(dup.ok());
  EXPECT_NE(dup.error().message.find("duplicate GGUF key 'k'"), std::string::npos);
  EXPECT_FALSE(w.addU32("", 1).ok());
  EXPECT_FALSE(w.addU32(std::string(65536, 'k'), 1).ok());
  EXPECT_TRUE(w.addU32(std::string(65535, 'k'), 1).ok());
  Status align = w.addU32("general.alignment", 64);
  ASSERT_FALSE(align.ok());
  EXPECT_NE(align.error().message.find("setAlignment"), std::string::npos);
  std::vector<uint8_t> d(4 * 8, 0);
  ASSERT_TRUE(w.addTensor("t", hal::DType::F32, {8}, d).ok());
  EXPECT_FALSE(w.addTensor("t", hal::DType::F32, {8}, d).ok());                     // duplicate name
  EXPECT_FALSE(w.addTensor("", hal::DType::F32, {8}, d).ok());                      // empty name
  EXPECT_FALSE(w.addTensor(std::string(65, 'n'), hal::DType::F32, {8}, d).ok());    // name too long
  EXPECT_FALSE(w.addTensor("u", hal::DType::F32, {}, d).ok());                      // no dims
  EXPECT_FALSE(w.addTensor("u", hal::DType::F32, {8, 1, 1, 1, 1}, d).ok());         // 5 dims
  EXPECT_FALSE(w.addTensor("u", hal::DType::F32, {8, 0}, d).ok());                  // zero dim
  EXPECT_FALSE(w.addTensor("u", hal::DType::F32, {4}, d).ok());                     // byte count mismatch
  EXPECT_FALSE(w.addTensor("u", hal::DType::Q8_0, {8}, d).ok());                    // not a whole block
  EXPECT_FALSE(w.addTensor("u", static_cast<hal::DType>(99), {8}, d).ok());          // unknown type
  EXPECT_FALSE(w.addTensor("u", hal::DType::F32, {1ull << 40, 1ull << 40}, d).ok());  // overflow
  Status mismatch = w.addTensor("u", hal::DType::F32, {4}, d);
  EXPECT_NE(mismatch.error().message.find("32 data bytes, the shape needs 16"), std::string::npos)
      << mismatch.error().message;
  // Refused calls left nothing behind.
  EXPECT_EQ(w.tensorCount(), 1u);
  EXPECT_EQ(w.kvCount(), 2u);
  EXPECT_TRUE(w.addTensor("u", hal::DType::F32, {8}, d).ok());
  const std::vector<uint8_t> bytes = w.toBytes();
  EXPECT_NE(parse(bytes), nullptr);
}

TEST(GgufWriter, WriteReplacesAtomically) {
  TempDir dir;
  const std::string path = dir.file("model.gguf");
  writeBytes(path, std::vector<uint8_t>(10, 'x'));
  GgufWriter w = smallModelWriter();
  ASSERT_TRUE(w.write(path).ok());
  EXPECT_EQ(readBytes(path), w.toBytes());
  EXPECT_EQ(dirEntries(dir.path()), std::vector<std::string>{"model.gguf"});  // no temporary left
  EXPECT_EQ(std::filesystem::status(path).permissions() & std::filesystem::perms::all,
            std::filesystem::perms::owner_read | std::filesystem::perms::owner_write |
                std::filesystem::perms::group_read | std::filesystem::perms::others_read);
  // A relative path (no directory part) is written in the working directory.
  const std::string cwd = std::filesystem::current_path().string();
  std::filesystem::current_path(dir.path());
  Status rel = w.write("relative.gguf");
  std::filesystem::current_path(cwd);
  ASSERT_TRUE(rel.ok()) << rel.error().message;
  EXPECT_EQ(readBytes(dir.file("relative.gguf")), w.toBytes());
}

TEST(GgufWriter, WriteErrorsLeaveNothing) {
  GgufWriter w = smallModelWriter();
  TempDir dir;
  Status missing = w.write(dir.file("no-such-dir/model.gguf"));
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find("cannot create a temporary file in '" + dir.file("no-such-dir") + "'"),
            std::string::npos)
      << missing.error().message;
  EXPECT_NE(missing.error().message.find("No such file"), std::string::npos) << missing.error().message;
  // Even root cannot create files in /proc.
  Status proc = w.write("/proc/sotto-test.gguf");
  ASSERT_FALSE(proc.ok());
  EXPECT_NE(proc.error().message.find("/proc"), std::string::npos);
  // The target is a directory: the rename fails and the temporary goes.
  std::filesystem::create_directory(dir.file("model.gguf"));
  Status isDir = w.write(dir.file("model.gguf"));
  ASSERT_FALSE(isDir.ok());
  EXPECT_NE(isDir.error().message.find("cannot rename"), std::string::npos) << isDir.error().message;
  EXPECT_EQ(dirEntries(dir.path()), std::vector<std::string>{"model.gguf"});
  EXPECT_FALSE(w.write("").ok());
}

// A full disk, simulated with RLIMIT_FSIZE: the write fails with the OS reason, the old file stays as it was and
// no temporary is left.
TEST(GgufWriter, FullDisk) {
  TempDir dir;
  const std::string path = dir.file("model.gguf");
  const std::vector<uint8_t> old(100, 'o');
  writeBytes(path, old);
  GgufWriter w;
  std::vector<uint8_t> big(4 * 4096, 0x42);
  ASSERT_TRUE(w.addTensor("big", hal::DType::F32, {4096}, big).ok());
  rlimit saved{};
  ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &saved), 0);
  auto* previous = std::signal(SIGXFSZ, SIG_IGN);  // otherwise the kernel kills the process at the limit
  rlimit small = saved;
  small.rlim_cur = 1000;
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &small), 0);
  Status s = w.write(path);
  ::setrlimit(RLIMIT_FSIZE, &saved);
  std::signal(SIGXFSZ, previous);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, Errc::io);
  EXPECT_NE(s.error().message.find("cannot write " + path), std::string::npos) << s.error().message;
  EXPECT_NE(s.error().message.find(std::strerror(EFBIG)), std::string::npos) << s.error().message;
  EXPECT_EQ(readBytes(path), old);
  EXPECT_EQ(dirEntries(dir.path()), std::vector<std::string>{"model.gguf"});
}

}  // namespace
}  // namespace sotto::llm::test
