// SPDX-License-Identifier: MIT
// RIFF/WAVE parsing (validated against the file's real size) and the canonical 44-byte PCM header.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "sotto/hal/result.h"

namespace sotto::hal::wav {

struct WavInfo {
  uint32_t rateHz = 0;
  uint16_t channels = 0;
  uint16_t bitsPerSample = 0;
  size_t dataOffset = 0;  // byte offset of the first sample in the file
  size_t dataBytes = 0;   // whole frames only
  size_t frames() const { return dataBytes / (static_cast<size_t>(channels) * bitsPerSample / 8); }
};

// Validates `file` (the whole file's bytes) as RIFF/WAVE with 16-bit integer PCM samples (format tag 1, or
// WAVE_FORMAT_EXTENSIBLE with the PCM sub-format), 1 to 8 channels, 1000 to 384000 Hz: every chunk lies inside
// the RIFF chunk and the RIFF chunk inside the file, "fmt " precedes "data", block align and byte rate agree with
// the format, and the data chunk holds whole frames. Anything else is Errc::corrupt (a broken file) or
// Errc::unsupported (a valid WAV we do not read: 8/24/32-bit, float, compressed), with a message saying what is
// wrong (the caller adds the path). Never reads outside `file`.
Result<WavInfo> parseWav(std::span<const uint8_t> file);

// The largest WAV file read whole: over two hours of 16 kHz stereo.
constexpr uint64_t kMaxWavFileBytes = (uint64_t{256} << 20) + 4096;

// Reads a WAV file whole, the one reader of the daemon's capture and the CLI: only a regular file of at most
// kMaxWavFileBytes (a directory, FIFO, device or /proc file is refused at once, without waiting or reading it), and
// its first 12 bytes are checked for "RIFF....WAVE" before the rest is read (a large file that is not a WAV is
// refused without being read). parseWav() validates the bytes. Errors name the path. Any non-real-time thread.
Result<std::vector<uint8_t>> readWavFile(const std::string& path);

constexpr size_t kWavHeaderBytes = 44;
// The canonical header of a 16-bit PCM file with `dataBytes` bytes of samples.
std::array<uint8_t, kWavHeaderBytes> makeWavHeader(uint32_t rateHz, uint16_t channels, uint32_t dataBytes);

}  // namespace sotto::hal::wav
