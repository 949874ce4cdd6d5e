// SPDX-License-Identifier: MIT
// test_tts helpers: audio collectors for the TTS interfaces and simple signal measures.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <span>
#include <vector>

#include "engine/speech/tts.h"
#include "engine/speech/tts_stage.h"

namespace sotto::test {

// Collects everything an engine delivers; optionally cancels `token` while receiving chunk number `cancelAt`.
class Collector final : public speech::TtsAudioSink {
 public:
  bool onAudio(std::span<const int16_t> s) override {
    ++chunks;
    maxChunk = std::max(maxChunk, s.size());
    samples.insert(samples.end(), s.begin(), s.end());
    if (token != nullptr && chunks == cancelAt) token->cancel();
    return true;
  }
  std::vector<int16_t> samples;
  size_t chunks = 0, maxChunk = 0, cancelAt = 0;
  pipeline::CancelToken* token = nullptr;
};

// A PcmOutput at a fixed rate that keeps what it is given; cancels `token` during write number `cancelAt`.
class MemoryOutput final : public speech::PcmOutput {
 public:
  explicit MemoryOutput(uint32_t rate) : rate_(rate) {}
  bool write(std::span<const int16_t> f, const pipeline::CancelToken& cancel) override {
    if (cancel.cancelled()) return false;
    ++writes;
    samples.insert(samples.end(), f.begin(), f.end());
    if (onWrite) onWrite(writes);
    return true;
  }
  uint32_t rateHz() const override { return rate_; }
  std::vector<int16_t> samples;
  size_t writes = 0;
  std::function<void(size_t)> onWrite;

 private:
  uint32_t rate_;
};

inline double rmsDbfs(std::span<const int16_t> s) {
  if (s.empty()) return -200;
  double sum = 0;
  for (int16_t v : s) sum += double(v) * v;
  return 10 * std::log10(sum / s.size() / (32768.0 * 32768.0) + 1e-20);
}

inline int peak(std::span<const int16_t> s) {
  int p = 0;
  for (int16_t v : s) p = std::max(p, std::abs(int(v)));
  return p;
}

inline std::unique_ptr<speech::TtsEngine> flite(const std::string& voice, uint32_t rate = 100,
                                                uint32_t volume = 100) {
  speech::TtsOptions o;
  o.voice = voice;
  o.ratePercent = rate;
  o.volumePercent = volume;
  auto e = speech::createTts(o);
  EXPECT_TRUE(e.ok()) << (e.ok() ? "" : e.error().message);
  return e.ok() ? std::move(e).value() : nullptr;
}

}  // namespace sotto::test
