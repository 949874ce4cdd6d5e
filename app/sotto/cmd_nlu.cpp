// SPDX-License-Identifier: MIT
// `sotto nlu`: trains the understanding model for a catalogue from labelled lines, and describes a model file.
#include <sys/stat.h>

#include <cstdio>
#include <fstream>
#include <memory>
#include <string>

#include "app/sotto/commands.h"
#include "engine/intents/catalogue.h"
#include "engine/nlu/model.h"
#include "engine/nlu/trainer.h"
#include "engine/privacy/pii_model.h"

#ifndef SOTTO_INTENTS_SOURCE_CATALOGUE
#define SOTTO_INTENTS_SOURCE_CATALOGUE ""
#endif

namespace sotto::cli {
namespace {

void nluUsage(FILE* out) {
  std::fprintf(out,
               "Usage: sotto nlu train --data FILE.jsonl -o MODEL [--catalogue PATH] [--calibrate DEV.jsonl]\n"
               "                       [--epochs N] [--seed N] [--bits-intent N] [--bits-tag N] [--note TEXT]\n"
               "       sotto nlu train-pii --data FILE.jsonl -o MODEL [--calibrate DEV.jsonl] [--epochs N] [--seed N]\n"
               "                       [--bits N]\n"
               "       sotto nlu info MODEL\n"
               "train: the intent classifier and slot tagger for the catalogue (default: the installed one, else the\n"
               "       source tree's) from JSON lines {\"text\",\"intent\",\"slot_spans\":[{\"start\",\"end\",\"slot\"}]}\n"
               "       (bench/nlu/train.sh generates them and runs this); prints the held-out report and writes\n"
               "       MODEL atomically. Exit 1 on a malformed line (its number is printed) or a write failure.\n"
               "       --calibrate: the acceptance threshold from another author's labelled lines (the dev file):\n"
               "       the lowest at which the model alone gives at most 0.5 %% false intents on its none lines.\n"
               "train-pii: the personal-data tagger from lines in the data README's PII format; prints held-out\n"
               "       recall and precision per type at the suspect thresholds it chose (recall first) and writes\n"
               "       MODEL. --calibrate: each type's span threshold for the best F1 on another author's lines.\n"
               "info:  verifies MODEL's checksum and prints what it holds.\n");
}

bool exists(const std::string& path) {
  struct stat st{};
  return ::stat(path.c_str(), &st) == 0;
}

bool readUnsigned(const char* s, unsigned long& out) {
  char* end = nullptr;
  out = std::strtoul(s, &end, 10);
  return end != s && *end == '\0';
}

int train(int argc, char** argv) {
  std::string data, out, cataloguePath, calibration;
  nlu::TrainOptions opt;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    unsigned long v = 0;
    const bool more = i + 1 < argc;
    if (a == "--data" && more) {
      data = argv[++i];
    } else if (a == "-o" && more) {
      out = argv[++i];
    } else if ((a == "--catalogue" || a == "-c") && more) {
      cataloguePath = argv[++i];
    } else if (a == "--calibrate" && more) {
      calibration = argv[++i];
    } else if (a == "--note" && more) {
      opt.note = argv[++i];
    } else if (a == "--epochs" && more && readUnsigned(argv[i + 1], v) && v >= 1 && v <= 100) {
      opt.epochs = static_cast<int>(v);
      ++i;
    } else if (a == "--seed" && more && readUnsigned(argv[i + 1], v)) {
      opt.seed = static_cast<std::uint32_t>(v);
      ++i;
    } else if (a == "--bits-intent" && more && readUnsigned(argv[i + 1], v) && v >= 10 && v <= 20) {
      opt.intentBits = static_cast<unsigned>(v);
      ++i;
    } else if (a == "--bits-tag" && more && readUnsigned(argv[i + 1], v) && v >= 10 && v <= 20) {
      opt.tagBits = static_cast<unsigned>(v);
      ++i;
    } else {
      std::fprintf(stderr, "sotto nlu train: unexpected or invalid argument '%s' (see sotto nlu --help)\n", a.c_str());
      return 2;
    }
  }
  if (data.empty() || out.empty()) {
    std::fprintf(stderr, "sotto nlu train: needs --data FILE and -o MODEL\n");
    return 2;
  }
  if (cataloguePath.empty()) {
    cataloguePath = intents::kDefaultCataloguePath;
    if (!exists(cataloguePath) && *SOTTO_INTENTS_SOURCE_CATALOGUE) cataloguePath = SOTTO_INTENTS_SOURCE_CATALOGUE;
  }
  auto cat = intents::Catalogue::loadFile(cataloguePath);
  if (!cat) {
    std::fprintf(stderr, "sotto nlu train: %s\n", cat.error().message.c_str());
    return 1;
  }
  std::ifstream in(data);
  if (!in) {
    std::fprintf(stderr, "sotto nlu train: cannot open %s\n", data.c_str());
    return 1;
  }
  if (opt.note.empty()) opt.note = "trained on " + data + " for " + cataloguePath;
  nlu::TrainReport report;
  auto model = nlu::trainModel(*cat, in, opt, report);
  if (!model) {
    std::fprintf(stderr, "sotto nlu train: %s: %s\n", data.c_str(), model.error().message.c_str());
    return 1;
  }
  std::fputs(report.text().c_str(), stdout);
  if (!calibration.empty()) {
    std::ifstream cal(calibration);
    if (!cal) {
      std::fprintf(stderr, "sotto nlu train: cannot open %s\n", calibration.c_str());
      return 1;
    }
    nlu::CalibrationReport cr;
    if (auto c = nlu::calibrateThreshold(**model, *cat, cal, opt.maxFalseIntent, cr); !c) {
      std::fprintf(stderr, "sotto nlu train: %s: %s\n", calibration.c_str(), c.error().message.c_str());
      return 1;
    }
    std::fputs(cr.text().c_str(), stdout);
  }
  if (auto saved = (*model)->saveFile(out); !saved) {
    std::fprintf(stderr, "sotto nlu train: %s\n", saved.error().message.c_str());
    return 1;
  }
  std::printf("wrote %s (%zu bytes)\n", out.c_str(), (*model)->serialize().size());
  return std::fflush(stdout) == 0 ? 0 : 1;
}

int trainPii(int argc, char** argv) {
  std::string data, out, calibration;
  privacy::PiiTrainOptions opt;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    unsigned long v = 0;
    const bool more = i + 1 < argc;
    if (a == "--data" && more) {
      data = argv[++i];
    } else if (a == "-o" && more) {
      out = argv[++i];
    } else if (a == "--note" && more) {
      opt.note = argv[++i];
    } else if (a == "--epochs" && more && readUnsigned(argv[i + 1], v) && v >= 1 && v <= 100) {
      opt.epochs = static_cast<int>(v);
      ++i;
    } else if (a == "--seed" && more && readUnsigned(argv[i + 1], v)) {
      opt.seed = static_cast<std::uint32_t>(v);
      ++i;
    } else if (a == "--calibrate" && more) {
      calibration = argv[++i];
    } else if (a == "--bits" && more && readUnsigned(argv[i + 1], v) && v >= 10 && v <= 20) {
      opt.bits = static_cast<unsigned>(v);
      ++i;
    } else {
      std::fprintf(stderr, "sotto nlu train-pii: unexpected or invalid argument '%s' (see sotto nlu --help)\n",
                   a.c_str());
      return 2;
    }
  }
  if (data.empty() || out.empty()) {
    std::fprintf(stderr, "sotto nlu train-pii: needs --data FILE and -o MODEL\n");
    return 2;
  }
  std::ifstream in(data);
  if (!in) {
    std::fprintf(stderr, "sotto nlu train-pii: cannot open %s\n", data.c_str());
    return 1;
  }
  if (opt.note.empty()) opt.note = "trained on " + data;
  privacy::PiiTrainReport report;
  auto model = privacy::trainPiiModel(in, opt, report);
  if (!model) {
    std::fprintf(stderr, "sotto nlu train-pii: %s: %s\n", data.c_str(), model.error().message.c_str());
    return 1;
  }
  std::fputs(report.text().c_str(), stdout);
  if (!calibration.empty()) {
    std::ifstream cal(calibration);
    if (!cal) {
      std::fprintf(stderr, "sotto nlu train-pii: cannot open %s\n", calibration.c_str());
      return 1;
    }
    auto c = privacy::calibratePiiModel(**model, cal);
    if (!c) {
      std::fprintf(stderr, "sotto nlu train-pii: %s: %s\n", calibration.c_str(), c.error().message.c_str());
      return 1;
    }
    std::fputs(c->c_str(), stdout);
  }
  if (auto saved = (*model)->saveFile(out); !saved) {
    std::fprintf(stderr, "sotto nlu train-pii: %s\n", saved.error().message.c_str());
    return 1;
  }
  std::printf("wrote %s (%zu bytes)\n", out.c_str(), (*model)->serialize().size());
  return std::fflush(stdout) == 0 ? 0 : 1;
}

int info(int argc, char** argv) {
  if (argc != 2) {
    nluUsage(stderr);
    return 2;
  }
  auto model = nlu::NluModel::loadFile(argv[1]);
  if (!model) {
    // Not an intent model: perhaps the personal-data one.
    if (auto pii = privacy::PiiModel::loadFile(argv[1])) {
      std::printf("personal-data model, format %u; tag rows 2^%u\nnote: %s\nthresholds (span/suspect):",
                  privacy::kPiiModelFormatVersion, (*pii)->layer().bits(), (*pii)->note().c_str());
      for (std::size_t t = 0; t < privacy::kPiiTypeCount; ++t) {
        std::printf(" %s=%.2f/%.2f", privacy::piiTypeName(static_cast<privacy::PiiType>(t)),
                    (*pii)->spanThresholds()[t], (*pii)->suspectThresholds()[t]);
      }
      std::printf("\n");
      return std::fflush(stdout) == 0 ? 0 : 1;
    }
    std::fprintf(stderr, "sotto nlu info: %s\n", model.error().message.c_str());
    return 1;
  }
  const nlu::NluModel& m = **model;
  std::printf("format %u; threshold %.3f; intent rows 2^%u; tag rows 2^%u\nnote: %s\nintents:", nlu::kModelFormatVersion,
              m.threshold(), m.intentLayer().bits(), m.tagLayer().bits(), m.note().c_str());
  for (const auto& s : m.intents()) std::printf(" %s", s.c_str());
  std::printf("\nslots:");
  for (const auto& s : m.slots()) std::printf(" %s", s.c_str());
  std::printf("\n");
  return std::fflush(stdout) == 0 ? 0 : 1;
}

}  // namespace

int cmdNlu(int argc, char** argv) {
  if (argc < 2 || std::string(argv[1]) == "-h" || std::string(argv[1]) == "--help") {
    nluUsage(argc < 2 ? stderr : stdout);
    return argc < 2 ? 2 : 0;
  }
  const std::string sub = argv[1];
  if (sub == "train") return train(argc - 1, argv + 1);
  if (sub == "train-pii") return trainPii(argc - 1, argv + 1);
  if (sub == "info") return info(argc - 1, argv + 1);
  std::fprintf(stderr, "sotto nlu: unknown subcommand '%s' (see sotto nlu --help)\n", sub.c_str());
  return 2;
}

}  // namespace sotto::cli
