// SPDX-License-Identifier: MIT
// `sotto enroll`: the acoustic model adapted to one speaker from recordings of the enrollment prompts
// (engine/speech/enroll.h). Opt-in: the result is used only where asr.acoustic-model points to it.
#include <sys/stat.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "app/config/config.h"
#include "app/sotto/commands.h"
#include "engine/speech/enroll.h"
#include "hal/audio/wav/wav_format.h"

namespace sotto::cli {
namespace {

void enrollUsage(FILE* out) {
  std::fprintf(out,
               "Usage: sotto enroll --prompts [--prompts-file FILE]\n"
               "       sotto enroll --wav-dir DIR --out MODEL_DIR [--prompts-file FILE] [--config FILE] [--set S=V]...\n"
               "       sotto enroll --list FILE --out MODEL_DIR [--config FILE] [--set S=V]...\n"
               "Adapts the speech recognizer's acoustic model (asr.acoustic-model) to one speaker.\n"
               "\n"
               "  --prompts        print the enrollment prompts, numbered; read each aloud into DIR/NN.wav (01.wav, ...)\n"
               "  --wav-dir DIR    the recordings of the prompts: 16 kHz mono 16-bit WAV; missing ones are skipped\n"
               "  --list FILE      instead: lines 'WAV<TAB>words said' (dictionary words)\n"
               "  --out MODEL_DIR  where the adapted model is written (a previous one is kept as MODEL_DIR.previous)\n"
               "  --prompts-file F the prompts (default: enroll.txt beside the configuration, /etc/sotto/enroll.txt)\n"
               "  --tools DIR      sphinxtrain's programs (default /usr/lib/sphinxtrain)\n"
               "  --keep DIR       keep the features, statistics and logs in DIR\n"
               "Then use it: --set asr.acoustic-model=MODEL_DIR, or <asr acoustic-model=\"MODEL_DIR\"> in the config.\n"
               "At least 10 recordings; 40 (about 90 s of speech) is what the benchmark measured. Needs Debian's\n"
               "sphinxtrain, sphinxbase-utils and pocketsphinx packages.\n");
}

bool exists(const std::string& p) {
  struct stat st{};
  return ::stat(p.c_str(), &st) == 0;
}

std::string defaultPrompts(const std::string& configPath) {
  const auto slash = configPath.rfind('/');
  const std::string beside = (slash == std::string::npos ? std::string(".") : configPath.substr(0, slash)) + "/enroll.txt";
  if (exists(beside)) return beside;
#ifdef SOTTO_ENROLL_SOURCE_PROMPTS
  return SOTTO_ENROLL_SOURCE_PROMPTS;  // a developer build run from anywhere
#else
  return "/etc/sotto/enroll.txt";
#endif
}

bool readPrompts(const std::string& path, std::vector<std::string>& prompts) {
  std::ifstream f(path);
  if (!f) return false;
  for (std::string line; std::getline(f, line);) {
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    if (line.empty() || line[0] == '#') continue;
    prompts.push_back(line);
  }
  return true;
}

// 16 kHz mono 16-bit PCM, at least 0.3 s: what the features are computed from.
bool wavUsable(const std::string& path, std::string& why) {
  std::ifstream f(path, std::ios::binary);
  if (!f) {
    why = "cannot read it";
    return false;
  }
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  auto info = hal::wav::parseWav(bytes);
  if (!info.ok()) {
    why = info.error().message;
    return false;
  }
  if (info->rateHz != 16000 || info->channels != 1) {
    why = std::to_string(info->rateHz) + " Hz, " + std::to_string(info->channels) +
          " channel(s); 16000 Hz mono is needed (sox IN -r 16000 -c 1 -b 16 OUT.wav)";
    return false;
  }
  if (info->frames() < 4800) {
    why = "shorter than 0.3 s";
    return false;
  }
  return true;
}

}  // namespace

int cmdEnroll(int argc, char** argv) {
  std::string configPath, wavDir, listPath, outDir, promptsPath, tools, keep;
  std::vector<std::string> overrides;
  bool printPrompts = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const bool hasValue = i + 1 < argc;
    if (a == "--help" || a == "-h") {
      enrollUsage(stdout);
      return 0;
    } else if (a == "--prompts") {
      printPrompts = true;
    } else if (a == "--wav-dir" && hasValue) {
      wavDir = argv[++i];
    } else if (a == "--list" && hasValue) {
      listPath = argv[++i];
    } else if (a == "--out" && hasValue) {
      outDir = argv[++i];
    } else if (a == "--prompts-file" && hasValue) {
      promptsPath = argv[++i];
    } else if (a == "--tools" && hasValue) {
      tools = argv[++i];
    } else if (a == "--keep" && hasValue) {
      keep = argv[++i];
    } else if (a == "--config" && hasValue) {
      configPath = argv[++i];
    } else if (a == "--set" && hasValue) {
      overrides.emplace_back(argv[++i]);
    } else {
      std::fprintf(stderr, "sotto enroll: unexpected argument '%s' (see sotto enroll --help)\n", a.c_str());
      return 2;
    }
  }
  if (promptsPath.empty()) promptsPath = defaultPrompts(configPath.empty() ? config::kDefaultPath : configPath);
  std::vector<std::string> prompts;
  if (printPrompts || !wavDir.empty()) {
    if (!readPrompts(promptsPath, prompts) || prompts.empty()) {
      std::fprintf(stderr, "sotto enroll: no prompts in %s (--prompts-file FILE)\n", promptsPath.c_str());
      return 1;
    }
  }
  if (printPrompts) {
    for (size_t k = 0; k < prompts.size(); ++k) std::printf("%02zu\t%s\n", k + 1, prompts[k].c_str());
    return 0;
  }
  if ((wavDir.empty() == listPath.empty()) || outDir.empty()) {
    std::fprintf(stderr, "sotto enroll: give --wav-dir DIR or --list FILE, and --out MODEL_DIR (see --help)\n");
    return 2;
  }
  config::LoadResult loaded = config::loadOrDefaults(configPath);
  if (loaded.config && !overrides.empty()) loaded = config::applyOverrides(*loaded.config, overrides);
  if (!loaded.config) {
    for (const auto& p : loaded.problems) std::fprintf(stderr, "sotto enroll: %s\n", p.format().c_str());
    return 2;
  }
  const config::Config& c = *loaded.config;

  std::vector<speech::EnrollUtterance> utterances;
  size_t skipped = 0;
  auto add = [&](const std::string& wav, const std::string& words) {
    std::string why;
    if (!wavUsable(wav, why)) {
      std::fprintf(stderr, "sotto enroll: %s: %s\n", wav.c_str(), why.c_str());
      return false;
    }
    utterances.push_back({wav, words});
    return true;
  };
  if (!wavDir.empty()) {
    for (size_t k = 0; k < prompts.size(); ++k) {
      char name[32];
      std::snprintf(name, sizeof name, "/%02zu.wav", k + 1);
      const std::string wav = wavDir + name;
      if (!exists(wav)) {
        ++skipped;
        continue;
      }
      if (!add(wav, prompts[k])) return 1;
    }
  } else {
    std::ifstream f(listPath);
    if (!f) {
      std::fprintf(stderr, "sotto enroll: cannot read %s\n", listPath.c_str());
      return 1;
    }
    int n = 0;
    for (std::string line; std::getline(f, line);) {
      ++n;
      if (line.empty() || line[0] == '#') continue;
      const auto tab = line.find('\t');
      if (tab == std::string::npos) {
        std::fprintf(stderr, "sotto enroll: %s:%d: expected 'WAV<TAB>words'\n", listPath.c_str(), n);
        return 2;
      }
      if (!add(line.substr(0, tab), line.substr(tab + 1))) return 1;
    }
  }

  if (utterances.empty() && !wavDir.empty()) {
    std::fprintf(stderr, "sotto enroll: no recordings in %s: name them by prompt, 01.wav to %02zu.wav (--prompts)\n",
                 wavDir.c_str(), prompts.size());
    return 1;
  }
  speech::EnrollOptions opts;
  opts.baseModel = c.asrAcousticModel;
  opts.dictionary = c.asrDictionary;
  opts.outModel = outDir;
  opts.workDir = keep;
  if (!tools.empty()) opts.toolsDir = tools;
  auto r = speech::enrollSpeaker(utterances, opts);
  if (!r.ok()) {
    std::fprintf(stderr, "sotto %s\n", r.error().message.c_str());
    return 1;
  }
  std::printf("sotto enroll: %s written from %u of %u recordings (%zu prompts not recorded), %.1f s of speech, "
              "log-likelihood %.1f per frame before adaptation\n"
              "use it with --set asr.acoustic-model=%s\n",
              outDir.c_str(), r->aligned, r->utterances, skipped, static_cast<double>(r->frames) / 100.0,
              r->logLikelihoodPerFrame, outDir.c_str());
  return 0;
}

}  // namespace sotto::cli
