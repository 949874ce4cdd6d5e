// SPDX-License-Identifier: MIT
// Speech benchmark helpers: manifests, WAV input, configuration, clocks and the run header.
#include "app/common/listener_config.h"
#include "bench/speech/speech_bench.h"

#include <time.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <sstream>

#include "app/config/config.h"
#include "bench/common/sysinfo.h"
#include "engine/intents/catalogue.h"
#include "hal/audio/wav/wav_format.h"

#ifndef SOTTO_SOURCE_DIR
#define SOTTO_SOURCE_DIR "."
#endif

namespace sotto::bench {

Result<std::vector<Row>> readManifest(const std::string& path, size_t columns) {
  std::ifstream in(path);
  if (!in) return makeError(Errc::not_found, path + ": cannot open");
  std::vector<Row> rows;
  std::string line;
  size_t lineNo = 0;
  while (std::getline(in, line)) {
    ++lineNo;
    if (line.empty() || line[0] == '#') continue;
    Row row;
    std::stringstream ss(line);
    std::string cell;
    while (std::getline(ss, cell, '\t')) row.push_back(cell);
    if (row.size() != columns) {
      return makeError(Errc::corrupt, path + ":" + std::to_string(lineNo) + ": expected " + std::to_string(columns) +
                                          " tab-separated columns, found " + std::to_string(row.size()));
    }
    rows.push_back(std::move(row));
  }
  if (rows.empty()) return makeError(Errc::corrupt, path + ": no rows");
  return rows;
}

Result<std::vector<int16_t>> readWav16kMono(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return makeError(Errc::not_found, path + ": cannot open");
  const std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto info = hal::wav::parseWav(bytes);
  if (!info.ok()) return makeError(info.error().code, path + ": " + info.error().message);
  if (info->rateHz != 16000 || info->channels != 1) {
    return makeError(Errc::unsupported, path + ": need 16 kHz mono (gen_sets.py resamples with sox)");
  }
  std::vector<int16_t> s(info->frames());
  const uint8_t* p = bytes.data() + info->dataOffset;
  for (size_t i = 0; i < s.size(); ++i) {
    s[i] = static_cast<int16_t>(static_cast<uint16_t>(p[2 * i] | (p[2 * i + 1] << 8)));  // little-endian
  }
  return s;
}

bool SetupOptions::parse(int argc, char** argv, int& i) {
  const std::string a = argv[i];
  if (i + 1 >= argc) return false;
  if (a == "--config") {
    configPath = argv[++i];
  } else if (a == "--set") {
    overrides.emplace_back(argv[++i]);
  } else if (a == "--catalogue") {
    catalogue = argv[++i];
  } else {
    return false;
  }
  return true;
}

Result<Setup> makeSetup(const SetupOptions& options) {
  const std::string path =
      options.configPath.empty() ? std::string(SOTTO_SOURCE_DIR) + "/config/sotto.xml" : options.configPath;
  config::LoadResult loaded = config::loadFile(path);
  if (loaded.config && !options.overrides.empty()) loaded = config::applyOverrides(*loaded.config, options.overrides);
  if (!loaded.config) {
    std::string msg = "configuration rejected:";
    for (const auto& p : loaded.problems) msg += "\n  " + p.format();
    return makeError(Errc::invalid_argument, msg);
  }
  const config::Config& c = *loaded.config;
  // The mapping sottod and `sotto listen` use.
  Setup s;
  s.listener = app::listenerConfigFrom(c);
  speech::ListenerConfig& lc = s.listener;
  const std::string catalogue =
      options.catalogue.empty() ? std::string(SOTTO_SOURCE_DIR) + "/config/intents.xml" : options.catalogue;
  if (c.asrGrammar) {
    auto cat = intents::Catalogue::loadFile(catalogue);
    if (!cat.ok()) return makeError(cat.error().code, catalogue + ": " + cat.error().message);
    lc.asr.grammar = cat.value().grammar();
  }
  s.describe = "config " + path;
  for (const auto& o : options.overrides) s.describe += " --set " + o;
  s.describe += "; wake phrase \"" + c.wakePhrase + "\" " +
                (lc.wake.model.empty() ? "keyphrase threshold 1e" + std::to_string(c.wakeThresholdExponent)
                                       : "network " + lc.wake.model) +
                "; ASR: " + (c.asrGrammar ? "command grammar (" + catalogue + ")" : std::string("no grammar")) +
                (c.asrLanguageModel.empty() ? "" : " + LM " + c.asrLanguageModel) + "; endpoint " +
                std::to_string(c.endpointSilenceMs) + " ms";
  return s;
}

double threadCpuSeconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

double wallSeconds() {
  timespec t{};
  clock_gettime(CLOCK_MONOTONIC, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

std::string loadAverage() {
  std::ifstream in("/proc/loadavg");
  std::string a, b, c;
  if (!(in >> a >> b >> c)) return "unknown";
  return a + " " + b + " " + c;
}

void printSystemHeader(const char* what) {
  const auto info = collectSystemInfo();
  std::printf(
      "== %s ==\ncpu: %s (%u online, %u usable)\nkernel: %s\ncompiler: %s\nbuild: %s\nfeatures: %s\n"
      "load average (1/5/15 min) at start: %s  (a shared machine: wall-clock figures include waiting for a "
      "CPU; CPU-time figures do not)\n\n",
      what, info.cpuModel.c_str(), info.onlineCpus, info.usableCpus, info.kernel.c_str(), info.compiler.c_str(),
      info.buildType.c_str(), info.cpuFeatures.c_str(), loadAverage().c_str());
  std::fflush(stdout);
}

double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const double rank = std::ceil(p / 100.0 * static_cast<double>(v.size()));
  const size_t idx = rank < 1 ? 0 : std::min(v.size() - 1, static_cast<size_t>(rank) - 1);
  return v[idx];
}

}  // namespace sotto::bench
