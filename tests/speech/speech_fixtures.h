// SPDX-License-Identifier: MIT
// test_speech fixtures: speech generated at test time (flite TTS, sox), WAV reading, running `sotto listen`.
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "hal/audio/wav/wav_format.h"
#include "tests/app/child.h"

namespace sotto::test {

inline bool haveTool(const char* name) {
  const std::string cmd = std::string("command -v ") + name + " >/dev/null 2>&1";
  return std::system(cmd.c_str()) == 0;
}

// Skips the test (with the reason) unless flite and sox are installed (toolchain/install-deps.sh installs them).
#define SOTTO_REQUIRE_SPEECH_TOOLS()                                                                     \
  do {                                                                                                   \
    if (!::sotto::test::haveTool("flite") || !::sotto::test::haveTool("sox")) {                          \
      GTEST_SKIP() << "flite and sox are needed to generate speech (run toolchain/install-deps.sh)";     \
    }                                                                                                    \
  } while (0)

// A private directory for one test's generated audio, removed afterwards.
class TempDir {
 public:
  TempDir() {
    std::string tmpl = ::testing::TempDir() + "sotto-speech-XXXXXX";
    if (mkdtemp(tmpl.data()) != nullptr) path_ = tmpl;
  }
  ~TempDir() {
    if (path_.empty()) return;
    const int rc = std::system(("rm -rf '" + path_ + "'").c_str());
    (void)rc;  // a leftover temporary directory is not a test failure
  }
  std::string file(const std::string& name) const { return path_ + "/" + name; }
  bool ok() const { return !path_.empty(); }

 private:
  std::string path_;
};

inline bool run(const std::string& cmd) { return std::system((cmd + " >/dev/null 2>&1").c_str()) == 0; }

// TTS of `text` (flite's slt voice) as 16 kHz mono 16-bit WAV.
inline bool say(const std::string& text, const std::string& out) {
  const std::string raw = out + ".tts.wav";
  return run("flite -voice slt -t \"" + text + "\" -o '" + raw + "'") &&
         run("sox -R '" + raw + "' -r 16000 -c 1 -b 16 '" + out + "'");
}

// espeak-ng TTS of `text` in `voice` as 16 kHz mono 16-bit WAV.
inline bool sayEspeak(const std::string& voice, const std::string& text, const std::string& out) {
  const std::string raw = out + ".tts.wav";
  return run("espeak-ng -v " + voice + " -w '" + raw + "' \"" + text + "\"") &&
         run("sox -R '" + raw + "' -r 16000 -c 1 -b 16 '" + out + "'");
}

inline bool silence(double seconds, const std::string& out) {
  return run("sox -n -r 16000 -c 1 -b 16 '" + out + "' trim 0 " + std::to_string(seconds));
}

// Concatenates 16 kHz mono WAVs. -R everywhere here: sox dithers with a random seed otherwise, and a request near
// the recognizer's noise limit then flips between runs (ClosedLoop.InLightNoise failed once in CI that way).
inline bool concat(const std::vector<std::string>& parts, const std::string& out) {
  std::string cmd = "sox -R";
  for (const auto& p : parts) cmd += " '" + p + "'";
  return run(cmd + " '" + out + "'");
}

// Mixes white noise at `amplitude` (fraction of full scale) into `in`. Repeatable (-R seeds sox's generator): the
// same noise on every run and architecture.
inline bool addNoise(const std::string& in, double amplitude, const std::string& out) {
  return run("sox -R '" + in + "' -p synth whitenoise vol " + std::to_string(amplitude) + " | sox -R -m '" + in +
             "' - '" + out + "'");
}

// Mono samples of a 16-bit WAV (first channel); empty on error.
inline std::vector<int16_t> readMono(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  const std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto info = hal::wav::parseWav(bytes);
  if (!info.ok()) return {};
  std::vector<int16_t> s(info.value().frames());
  const uint8_t* p = bytes.data() + info.value().dataOffset;
  for (size_t i = 0; i < s.size(); ++i) {
    const size_t at = i * info.value().channels * 2;
    s[i] = static_cast<int16_t>(static_cast<uint16_t>(p[at] | (p[at + 1] << 8)));
  }
  return s;
}

// Ground truth from the clean signal: 10 ms frames louder than -40 dBFS are speech.
inline std::vector<bool> loudFrames(const std::vector<int16_t>& s) {
  std::vector<bool> out(s.size() / 160);
  for (size_t f = 0; f < out.size(); ++f) {
    double sum = 0;
    for (size_t i = 0; i < 160; ++i) sum += double(s[f * 160 + i]) * s[f * 160 + i];
    out[f] = 10 * std::log10(sum / 160 / (32768.0 * 32768.0) + 1e-12) > -40;
  }
  return out;
}

// Ms of audio at the end of the last loud frame.
inline uint64_t speechEndMs(const std::vector<int16_t>& s) {
  const auto loud = loudFrames(s);
  for (size_t f = loud.size(); f-- > 0;) {
    if (loud[f]) return (f + 1) * 10;
  }
  return 0;
}

struct ListenEvent {
  std::string event, text;
  int64_t tMs = -1, endpointDelayMs = -1;
  std::string endpointBy;  // finals: complete, silence, max-length or end-of-stream
};

inline int64_t jsonNumber(const std::string& line, const std::string& key) {
  const size_t at = line.find("\"" + key + "\":");
  if (at == std::string::npos) return -1;
  return std::strtoll(line.c_str() + at + key.size() + 3, nullptr, 10);
}

inline std::string jsonString(const std::string& line, const std::string& key) {
  const size_t at = line.find("\"" + key + "\":\"");
  if (at == std::string::npos) return {};
  const size_t start = at + key.size() + 4;
  return line.substr(start, line.find('"', start) - start);  // transcripts hold no quotes
}

// Runs `sotto listen --json --wav WAV [extra]` (through the emulator in cross builds); events in order. exitCode
// and the raw output are returned for diagnostics.
inline std::vector<ListenEvent> listen(const std::string& wav, std::string& output, int& exitCode,
                                       const std::vector<std::string>& extra = {}) {
  std::vector<std::string> args = {"listen", "--json", "--wav", wav, "--catalogue",
                                   std::string(SOTTO_SOURCE_DIR) + "/config/intents.xml"};
  args.insert(args.end(), extra.begin(), extra.end());
  exitCode = runCapture(SOTTO_CLI_PATH, args, output);
  std::vector<ListenEvent> events;
  size_t pos = 0;
  while (pos < output.size()) {
    const size_t nl = std::min(output.find('\n', pos), output.size());
    const std::string line = output.substr(pos, nl - pos);
    pos = nl + 1;
    if (line.rfind("{\"event\":", 0) != 0) continue;
    ListenEvent e;
    e.event = jsonString(line, "event");
    e.text = jsonString(line, "text");
    e.tMs = jsonNumber(line, "t_ms");
    e.endpointDelayMs = jsonNumber(line, "endpoint_delay_ms");
    e.endpointBy = jsonString(line, "endpoint_by");
    events.push_back(e);
  }
  return events;
}

inline bool hasWord(const std::string& text, const std::string& word) {
  return (" " + text + " ").find(" " + word + " ") != std::string::npos;
}

}  // namespace sotto::test
