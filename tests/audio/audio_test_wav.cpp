// SPDX-License-Identifier: MIT
// The wav backend: sink→source round trip, paced vs fast timing, end of stream, and header validation.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "hal/audio/wav/wav_format.h"
#include "sotto/hal/audio.h"

using namespace sotto::hal;
using sotto::Errc;

namespace {

class TempDir {
 public:
  TempDir() {
    char tmpl[] = "/tmp/sotto-wav-XXXXXX";
    dir_ = mkdtemp(tmpl);
  }
  ~TempDir() {
    std::string cmd = "rm -rf '" + dir_ + "'";
    [[maybe_unused]] int rc = std::system(cmd.c_str());
  }
  std::string file(const std::string& name) const { return dir_ + "/" + name; }

 private:
  std::string dir_;
};

std::vector<uint8_t> readFile(const std::string& path) {
  std::vector<uint8_t> out;
  FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) return out;
  uint8_t buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) out.insert(out.end(), buf, buf + n);
  std::fclose(f);
  return out;
}

void writeFile(const std::string& path, const std::vector<uint8_t>& bytes) {
  FILE* f = std::fopen(path.c_str(), "wb");
  ASSERT_NE(f, nullptr);
  if (!bytes.empty()) std::fwrite(bytes.data(), 1, bytes.size(), f);
  std::fclose(f);
}

void put16(std::vector<uint8_t>& b, size_t at, uint16_t v) {
  b[at] = static_cast<uint8_t>(v);
  b[at + 1] = static_cast<uint8_t>(v >> 8);
}
void put32(std::vector<uint8_t>& b, size_t at, uint32_t v) {
  for (int i = 0; i < 4; ++i) b[at + i] = static_cast<uint8_t>(v >> (8 * i));
}

// A canonical file: 44-byte header + interleaved 16-bit samples.
std::vector<uint8_t> wavBytes(uint32_t rate, uint16_t channels, const std::vector<int16_t>& interleaved) {
  auto h = wav::makeWavHeader(rate, channels, static_cast<uint32_t>(interleaved.size() * 2));
  std::vector<uint8_t> b(h.begin(), h.end());
  for (int16_t s : interleaved) {
    b.push_back(static_cast<uint8_t>(static_cast<uint16_t>(s)));
    b.push_back(static_cast<uint8_t>(static_cast<uint16_t>(s) >> 8));
  }
  return b;
}

std::vector<int16_t> ramp(size_t n) {
  std::vector<int16_t> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<int16_t>((i * 331) % 65536 - 32768);
  return v;
}

AudioSpec wavSpec(const std::string& device, uint32_t rate = 16000) { return AudioSpec{"wav", device, rate, 10, 4}; }

// Every frame the source yields until end of stream.
std::vector<int16_t> drain(AudioSource& s, size_t maxReads = 100000) {
  std::vector<int16_t> all, buf(s.format().periodFrames);
  for (size_t i = 0; i < maxReads; ++i) {
    auto n = s.read(buf);
    EXPECT_TRUE(n.ok());
    if (!n.ok() || *n == 0) break;
    all.insert(all.end(), buf.begin(), buf.begin() + static_cast<std::ptrdiff_t>(*n));
  }
  return all;
}

Errc openError(const std::string& path, std::string* message = nullptr) {
  auto r = AudioRegistry::instance().openSource(wavSpec(path + "?fast"));
  if (r.ok()) {
    ADD_FAILURE() << path << " opened";
    return Errc::internal;
  }
  if (message) *message = r.error().message;
  EXPECT_NE(r.error().message.find(path), std::string::npos) << r.error().message;  // always names the file
  return r.error().code;
}

}  // namespace

TEST(WavAudio, RoundTripSinkToSource) {
  TempDir t;
  const std::string path = t.file("rt.wav");
  const auto want = ramp(160 * 25 + 37);  // not a whole number of periods
  {
    auto sink = AudioRegistry::instance().openSink(wavSpec(path + "?fast"));
    ASSERT_TRUE(sink.ok()) << sink.error().message;
    ASSERT_TRUE((*sink)->start().ok());
    for (size_t off = 0; off < want.size(); off += 160) {
      size_t n = std::min<size_t>(160, want.size() - off);
      auto w = (*sink)->write(std::span<const int16_t>(want.data() + off, n));
      ASSERT_TRUE(w.ok()) << w.error().message;
    }
    EXPECT_EQ(access(path.c_str(), F_OK), -1) << "the final name appears only when the file is complete";
    ASSERT_TRUE((*sink)->stop().ok());
  }
  EXPECT_EQ(access((path + ".part").c_str(), F_OK), -1);
  auto bytes = readFile(path);
  auto info = wav::parseWav(bytes);
  ASSERT_TRUE(info.ok()) << info.error().message;
  EXPECT_EQ(info->rateHz, 16000u);
  EXPECT_EQ(info->channels, 1u);
  EXPECT_EQ(info->frames(), want.size());

  auto src = AudioRegistry::instance().openSource(wavSpec(path + "?fast"));
  ASSERT_TRUE(src.ok()) << src.error().message;
  EXPECT_EQ((*src)->name(), "wav:" + path + "?fast");
  EXPECT_EQ((*src)->format().periodFrames, 160u);
  ASSERT_TRUE((*src)->start().ok());
  EXPECT_EQ(drain(**src), want);  // the last period is short, then 0 frames: end of stream
  std::vector<int16_t> buf(160);
  auto again = (*src)->read(buf);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(*again, 0u);  // stays at end
  ASSERT_TRUE((*src)->stop().ok());
  ASSERT_TRUE((*src)->start().ok());  // start rewinds
  EXPECT_EQ(drain(**src), want);
}

TEST(WavAudio, SinkWithoutStopLeavesNoFile) {
  TempDir t;
  const std::string path = t.file("abandoned.wav");
  {
    auto sink = AudioRegistry::instance().openSink(wavSpec(path + "?fast"));
    ASSERT_TRUE(sink.ok());
    ASSERT_TRUE((*sink)->start().ok());
    std::vector<int16_t> buf(160, 5);
    ASSERT_TRUE((*sink)->write(buf).ok());
  }
  EXPECT_EQ(access(path.c_str(), F_OK), -1);
  EXPECT_EQ(access((path + ".part").c_str(), F_OK), -1);
}

TEST(WavAudio, SinkIntoAMissingDirectoryIsAClearError) {
  auto sink = AudioRegistry::instance().openSink(wavSpec("/nonexistent-sotto-dir/out.wav"));
  ASSERT_FALSE(sink.ok());
  EXPECT_NE(sink.error().message.find("/nonexistent-sotto-dir/out.wav"), std::string::npos) << sink.error().message;
}

TEST(WavAudio, PacedSourceRunsInRealTimeFastDoesNot) {
  TempDir t;
  const std::string path = t.file("pace.wav");
  writeFile(path, wavBytes(16000, 1, ramp(160 * 30)));  // 300 ms
  for (const char* suffix : {"", "?paced", "?fast"}) {
    auto src = AudioRegistry::instance().openSource(wavSpec(path + suffix));
    ASSERT_TRUE(src.ok()) << src.error().message;
    ASSERT_TRUE((*src)->start().ok());
    auto t0 = std::chrono::steady_clock::now();
    EXPECT_EQ(drain(**src).size(), 160u * 30);
    auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count();
    if (std::string(suffix) == "?fast") {
      EXPECT_LT(ms, 100) << suffix;
    } else {
      EXPECT_GE(ms, 290) << suffix;  // 30 periods of 10 ms (plus the end-of-stream read)
    }
  }
}

TEST(WavAudio, PacedSinkAcceptsItsBufferThenPaces) {
  TempDir t;
  auto sink = AudioRegistry::instance().openSink(wavSpec(t.file("paced.wav")));
  ASSERT_TRUE(sink.ok()) << sink.error().message;
  ASSERT_TRUE((*sink)->start().ok());
  std::vector<int16_t> buf(160, 1);
  auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < 4; ++i) ASSERT_TRUE((*sink)->write(buf).ok());
  auto fillMs = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count();
  for (int i = 0; i < 10; ++i) ASSERT_TRUE((*sink)->write(buf).ok());
  auto totalMs = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_LT(fillMs, 30);
  EXPECT_GE(totalMs, 95);
  ASSERT_TRUE((*sink)->stop().ok());
}

TEST(WavAudio, StereoIsDownmixedToMono) {
  TempDir t;
  const std::string path = t.file("stereo.wav");
  writeFile(path, wavBytes(16000, 2, {1000, 3000, -32768, -32768, 32767, 32767, 100, -101}));
  auto src = AudioRegistry::instance().openSource(wavSpec(path + "?fast"));
  ASSERT_TRUE(src.ok()) << src.error().message;
  ASSERT_TRUE((*src)->start().ok());
  EXPECT_EQ(drain(**src), (std::vector<int16_t>{2000, -32768, 32767, 0}));
}

TEST(WavAudio, OtherRateIsRefusedNamingBothRates) {
  TempDir t;
  const std::string path = t.file("44k.wav");
  writeFile(path, wavBytes(44100, 1, ramp(441)));
  std::string m;
  EXPECT_EQ(openError(path, &m), Errc::unsupported);
  EXPECT_NE(m.find("44100 Hz"), std::string::npos) << m;
  EXPECT_NE(m.find("16000 Hz"), std::string::npos) << m;
  // The same file at its own rate is fine.
  EXPECT_TRUE(AudioRegistry::instance().openSource(wavSpec(path, 44100)).ok());
}

TEST(WavAudio, DeviceStringErrors) {
  std::string m;
  EXPECT_EQ(openError("/tmp/sotto-definitely-missing.wav", &m), Errc::not_found);
  auto bad = AudioRegistry::instance().openSource(wavSpec("x.wav?loud"));
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("'?loud'"), std::string::npos) << bad.error().message;
  EXPECT_FALSE(AudioRegistry::instance().openSource(wavSpec("?fast")).ok());
}

TEST(WavAudio, ExtraChunksAndExtensibleFormatAreRead) {
  TempDir t;
  const auto samples = ramp(320);
  // LIST chunk (odd size: padded) before fmt, WAVE_FORMAT_EXTENSIBLE fmt, fact chunk before data.
  std::vector<uint8_t> b = {'R', 'I', 'F', 'F', 0, 0, 0, 0, 'W', 'A', 'V', 'E'};
  auto chunk = [&](const char* id, const std::vector<uint8_t>& body) {
    b.insert(b.end(), id, id + 4);
    size_t at = b.size();
    b.resize(b.size() + 4);
    put32(b, at, static_cast<uint32_t>(body.size()));
    b.insert(b.end(), body.begin(), body.end());
    if (body.size() & 1) b.push_back(0);
  };
  chunk("LIST", {'I', 'N', 'F', 'O', 'x'});
  std::vector<uint8_t> fmt(40, 0);
  put16(fmt, 0, 0xFFFE);
  put16(fmt, 2, 1);
  put32(fmt, 4, 16000);
  put32(fmt, 8, 32000);
  put16(fmt, 12, 2);
  put16(fmt, 14, 16);
  put16(fmt, 16, 22);
  put16(fmt, 18, 16);
  put16(fmt, 24, 1);  // KSDATAFORMAT_SUBTYPE_PCM
  chunk("fmt ", fmt);
  chunk("fact", {0, 0, 0, 0});
  std::vector<uint8_t> data;
  for (int16_t s : samples) {
    data.push_back(static_cast<uint8_t>(static_cast<uint16_t>(s)));
    data.push_back(static_cast<uint8_t>(static_cast<uint16_t>(s) >> 8));
  }
  chunk("data", data);
  put32(b, 4, static_cast<uint32_t>(b.size() - 8));
  const std::string path = t.file("ext.wav");
  writeFile(path, b);
  auto src = AudioRegistry::instance().openSource(wavSpec(path + "?fast"));
  ASSERT_TRUE(src.ok()) << src.error().message;
  ASSERT_TRUE((*src)->start().ok());
  EXPECT_EQ(drain(**src), samples);
}

// Corrupt or unsupported headers: each one a clear error naming the file and the problem, never a crash.
TEST(WavAudio, CorruptAndUnsupportedHeaders) {
  TempDir t;
  const auto good = wavBytes(16000, 1, ramp(160));
  struct Case {
    const char* name;
    std::vector<uint8_t> bytes;
    Errc code;
    const char* says;
  };
  auto edit = [&](auto f) {
    auto b = good;
    f(b);
    return b;
  };
  std::vector<Case> cases = {
      {"empty", {}, Errc::corrupt, "shorter than a RIFF header"},
      {"truncated-header", std::vector<uint8_t>(good.begin(), good.begin() + 30), Errc::corrupt, "RIFF chunk claims"},
      {"truncated-data", std::vector<uint8_t>(good.begin(), good.end() - 10), Errc::corrupt, "RIFF chunk claims"},
      {"not-riff", edit([](auto& b) { b[0] = 'X'; }), Errc::corrupt, "no RIFF signature"},
      {"not-wave", edit([](auto& b) { b[8] = 'A'; }), Errc::corrupt, "not WAVE"},
      {"data-size-past-end", edit([](auto& b) { put32(b, 40, 100000); }), Errc::corrupt, "chunk 'data'"},
      {"data-size-streaming", edit([](auto& b) { put32(b, 40, 0xFFFFFFFF); }), Errc::corrupt, "chunk 'data'"},
      {"fmt-size-past-end", edit([](auto& b) { put32(b, 16, 0x7FFFFFF0); }), Errc::corrupt, "chunk 'fmt '"},
      {"fmt-too-small", edit([](auto& b) { put32(b, 16, 8); }), Errc::corrupt, "fmt chunk of 8 bytes"},
      {"riff-size-tiny", edit([](auto& b) { put32(b, 4, 2); }), Errc::corrupt, "RIFF chunk size too small"},
      {"no-data", edit([](auto& b) { std::memcpy(b.data() + 36, "junk", 4); }), Errc::corrupt, "no data chunk"},
      {"no-fmt", edit([](auto& b) { std::memcpy(b.data() + 12, "junk", 4); }), Errc::corrupt,
       "data chunk before the fmt chunk"},
      {"non-pcm-float", edit([](auto& b) { put16(b, 20, 3); }), Errc::unsupported, "format tag 3"},
      {"8-bit", edit([](auto& b) {
         put16(b, 34, 8);
         put16(b, 32, 1);
         put32(b, 28, 16000);
       }),
       Errc::unsupported, "8 bits"},
      {"zero-channels", edit([](auto& b) { put16(b, 22, 0); }), Errc::corrupt, "0 channels"},
      {"bad-block-align", edit([](auto& b) { put16(b, 32, 4); }), Errc::corrupt, "block align"},
      {"bad-byte-rate", edit([](auto& b) { put32(b, 28, 1234); }), Errc::corrupt, "byte rate"},
      {"zero-rate", edit([](auto& b) { put32(b, 24, 0); }), Errc::corrupt, "0 Hz"},
      {"odd-data", edit([](auto& b) {
         put32(b, 40, 319);
         put32(b, 4, 36 + 319);
         b.pop_back();
       }),
       Errc::corrupt, "not whole"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    const std::string path = t.file(std::string(c.name) + ".wav");
    writeFile(path, c.bytes);
    std::string m;
    EXPECT_EQ(openError(path, &m), c.code) << m;
    EXPECT_NE(m.find(c.says), std::string::npos) << m;
  }
}

// Every truncation of a valid file, and every single-byte corruption of its header, is either read or refused:
// never a crash or an out-of-bounds read (the ASan build checks the latter).
TEST(WavAudio, EveryTruncationAndHeaderByteFlipIsHandled) {
  const auto good = wavBytes(16000, 2, ramp(64));
  for (size_t len = 0; len < good.size(); ++len) {
    auto r = wav::parseWav(std::span<const uint8_t>(good.data(), len));
    EXPECT_FALSE(r.ok()) << len;
  }
  for (size_t i = 0; i < wav::kWavHeaderBytes; ++i) {
    for (uint8_t v : {uint8_t{0x00}, uint8_t{0xFF}, uint8_t{0x80}}) {
      auto b = good;
      b[i] = v;
      auto r = wav::parseWav(b);
      if (r.ok()) {
        EXPECT_LE(r->dataOffset + r->dataBytes, b.size());
      }
    }
  }
  EXPECT_TRUE(wav::parseWav(good).ok());
}
