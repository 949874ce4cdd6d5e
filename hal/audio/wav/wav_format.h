// SPDX-License-Identifier: MIT
// RIFF/WAVE parsing (validated against the file's real size) and the canonical 44-byte PCM header.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

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

constexpr size_t kWavHeaderBytes = 44;
// The canonical header of a 16-bit PCM file with `dataBytes` bytes of samples.
std::array<uint8_t, kWavHeaderBytes> makeWavHeader(uint32_t rateHz, uint16_t channels, uint32_t dataBytes);

}  // namespace sotto::hal::wav
