// SPDX-License-Identifier: MIT
// RIFF/WAVE header validation and writing for the wav audio backend, and the one safe reader of WAV files.
#include "wav_format.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "sotto/hal/atomic_file.h"

namespace sotto::hal::wav {
namespace {

uint16_t le16(const uint8_t* p) { return static_cast<uint16_t>(p[0] | (p[1] << 8)); }
uint32_t le32(const uint8_t* p) {
  return static_cast<uint32_t>(p[0]) | (static_cast<uint32_t>(p[1]) << 8) | (static_cast<uint32_t>(p[2]) << 16) |
         (static_cast<uint32_t>(p[3]) << 24);
}
void put16(uint8_t* p, uint16_t v) {
  p[0] = static_cast<uint8_t>(v);
  p[1] = static_cast<uint8_t>(v >> 8);
}
void put32(uint8_t* p, uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
}
Error corrupt(const std::string& what) { return makeError(Errc::corrupt, "not a valid WAV file: " + what); }

constexpr uint16_t kFormatPcm = 1;
constexpr uint16_t kFormatExtensible = 0xFFFE;

}  // namespace

Result<WavInfo> parseWav(std::span<const uint8_t> file) {
  if (file.size() < 12) return corrupt("shorter than a RIFF header (" + std::to_string(file.size()) + " bytes)");
  if (std::memcmp(file.data(), "RIFF", 4) != 0) return corrupt("no RIFF signature");
  if (std::memcmp(file.data() + 8, "WAVE", 4) != 0) return corrupt("RIFF form is not WAVE");
  const uint64_t riffEnd = 8ull + le32(file.data() + 4);
  if (riffEnd > file.size()) {
    return corrupt("RIFF chunk claims " + std::to_string(riffEnd) + " bytes, the file has " +
                   std::to_string(file.size()) + " (truncated?)");
  }
  if (riffEnd < 12) return corrupt("RIFF chunk size too small");

  WavInfo info;
  bool haveFmt = false, haveData = false;
  uint64_t pos = 12;
  while (pos < riffEnd && !haveData) {
    if (riffEnd - pos < 8) return corrupt("chunk header at byte " + std::to_string(pos) + " runs past the RIFF chunk");
    const uint8_t* h = file.data() + pos;
    const std::string id(reinterpret_cast<const char*>(h), 4);
    const uint64_t size = le32(h + 4);
    const uint64_t body = pos + 8;
    if (size > riffEnd - body) {
      return corrupt("chunk '" + id + "' at byte " + std::to_string(pos) + " claims " + std::to_string(size) +
                     " bytes, only " + std::to_string(riffEnd - body) + " remain");
    }
    const uint8_t* b = file.data() + body;
    if (id == "fmt ") {
      if (haveFmt) return corrupt("two fmt chunks");
      if (size < 16) return corrupt("fmt chunk of " + std::to_string(size) + " bytes (at least 16)");
      uint16_t tag = le16(b);
      info.channels = le16(b + 2);
      info.rateHz = le32(b + 4);
      const uint32_t byteRate = le32(b + 8);
      const uint16_t blockAlign = le16(b + 12);
      info.bitsPerSample = le16(b + 14);
      if (tag == kFormatExtensible) {
        if (size < 40) return corrupt("WAVE_FORMAT_EXTENSIBLE fmt chunk of " + std::to_string(size) + " bytes (40)");
        tag = le16(b + 24);  // the sub-format GUID starts with the format tag
      }
      if (tag != kFormatPcm) {
        return makeError(Errc::unsupported, "unsupported WAV format tag " + std::to_string(tag) +
                                                " (only integer PCM is read)");
      }
      if (info.channels < 1 || info.channels > 8) {
        return corrupt("fmt chunk says " + std::to_string(info.channels) + " channels (1 to 8)");
      }
      if (info.bitsPerSample != 16) {
        return makeError(Errc::unsupported, "unsupported WAV sample size: " + std::to_string(info.bitsPerSample) +
                                                " bits (only 16-bit PCM is read)");
      }
      if (info.rateHz < 1000 || info.rateHz > 384000) {
        return corrupt("fmt chunk says " + std::to_string(info.rateHz) + " Hz");
      }
      if (blockAlign != info.channels * 2u || byteRate != info.rateHz * static_cast<uint32_t>(blockAlign)) {
        return corrupt("fmt chunk's block align " + std::to_string(blockAlign) + " / byte rate " +
                       std::to_string(byteRate) + " disagree with its channels and rate");
      }
      haveFmt = true;
    } else if (id == "data") {
      if (!haveFmt) return corrupt("data chunk before the fmt chunk");
      const size_t frameBytes = info.channels * 2u;
      if (size % frameBytes != 0) {
        return corrupt("data chunk of " + std::to_string(size) + " bytes is not whole " +
                       std::to_string(frameBytes) + "-byte frames");
      }
      info.dataOffset = static_cast<size_t>(body);
      info.dataBytes = static_cast<size_t>(size);
      haveData = true;
    }
    pos = body + size + (size & 1);  // chunks are padded to even sizes
  }
  if (!haveFmt) return corrupt("no fmt chunk");
  if (!haveData) return corrupt("no data chunk");
  return info;
}

std::array<uint8_t, kWavHeaderBytes> makeWavHeader(uint32_t rateHz, uint16_t channels, uint32_t dataBytes) {
  std::array<uint8_t, kWavHeaderBytes> h{};
  const uint16_t blockAlign = static_cast<uint16_t>(channels * 2u);
  std::memcpy(h.data(), "RIFF", 4);
  put32(h.data() + 4, 36u + dataBytes);
  std::memcpy(h.data() + 8, "WAVEfmt ", 8);
  put32(h.data() + 16, 16);
  put16(h.data() + 20, kFormatPcm);
  put16(h.data() + 22, channels);
  put32(h.data() + 24, rateHz);
  put32(h.data() + 28, rateHz * blockAlign);
  put16(h.data() + 32, blockAlign);
  put16(h.data() + 34, 16);
  std::memcpy(h.data() + 36, "data", 4);
  put32(h.data() + 40, dataBytes);
  return h;
}

Result<std::vector<uint8_t>> readWavFile(const std::string& path) {
  uint64_t size = 0;
  auto opened = openRegularFile(path, kMaxWavFileBytes, &size);
  if (!opened) {
    Error e = std::move(opened).error();
    e.message = "wav file " + e.message;
    return e;
  }
  const int fd = *opened;
  std::vector<uint8_t> bytes(static_cast<size_t>(size));
  size_t got = 0;
  const auto readUpTo = [&](size_t until) -> Status {
    while (got < until) {
      const ssize_t n = ::read(fd, bytes.data() + got, until - got);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) return makeError(Errc::io, "wav file " + path + ": cannot read: " + std::strerror(errno));
      if (n == 0) break;  // shrank under us: validate what we have
      got += static_cast<size_t>(n);
    }
    return {};
  };
  Status st = readUpTo(std::min<size_t>(12, bytes.size()));
  if (st) {
    const char* bad = got < 12                                         ? "shorter than a RIFF header"
                      : std::memcmp(bytes.data(), "RIFF", 4) != 0      ? "no RIFF signature"
                      : std::memcmp(bytes.data() + 8, "WAVE", 4) != 0 ? "RIFF form is not WAVE"
                                                                        : nullptr;
    if (bad != nullptr) {
      st = makeError(Errc::corrupt, "wav file " + path + ": " + bad + " (not a WAV file; nothing more was read)");
    }
  }
  if (st) st = readUpTo(bytes.size());
  ::close(fd);
  if (!st) return st.error();
  bytes.resize(got);
  return bytes;
}

}  // namespace sotto::hal::wav
