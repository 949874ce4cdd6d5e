// SPDX-License-Identifier: MIT
// `sotto nlu`: trains the understanding model for a catalogue from labelled lines, and describes a model file.
#include <sys/stat.h>

#include <cstdio>
#include <fstream>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "app/common/catalogue_path.h"
#include "app/sotto/commands.h"
#include "engine/intents/catalogue.h"
#include "engine/nlu/json_lines.h"
#include "engine/nlu/model.h"
#include "engine/nlu/trainer.h"
#include "engine/speech/lm_estimator.h"
#include "sotto/hal/atomic_file.h"
#include "engine/privacy/pii_model.h"

#ifndef SOTTO_INTENTS_SOURCE_CATALOGUE
#define SOTTO_INTENTS_SOURCE_CATALOGUE ""
#endif

namespace sotto::cli {
namespace {

void nluUsage(FILE* out) {
  std::fprintf(out,
               "Usage: sotto nlu train --data FILE.jsonl [--data FILE2.jsonl ...] -o MODEL [--catalogue PATH]\n"
               "                       [--calibrate DEV.jsonl]\n"
               "                       [--epochs N] [--seed N] [--bits-intent N] [--bits-tag N] [--note TEXT]\n"
               "       sotto nlu train-pii --data FILE.jsonl [--data ...] -o MODEL [--calibrate DEV.jsonl] [--epochs N]\n"
               "                       [--seed N] [--bits N]\n"
               "       sotto nlu lm --data FILE.jsonl [--data ...] -o MODEL.arpa [--dict DICTIONARY] [--with-none]\n"
               "                    [--min-count N]\n"
               "       sotto nlu info MODEL\n"
               "train: the intent classifier and slot tagger for the catalogue (default: the installed one, else the\n"
               "       source tree's) from JSON lines {\"text\",\"intent\",\"slot_spans\":[{\"start\",\"end\",\"slot\"}]}\n"
               "       (bench/nlu/train.sh generates them and runs this); prints the held-out report and writes\n"
               "       MODEL atomically. Exit 1 on a malformed line (its number is printed) or a write failure.\n"
               "       Several --data files (e.g. generated with different seeds) train one intent classifier each\n"
               "       (seed, seed+1, ...); the model averages them (at most 8) and keeps the first one's tagger.\n"
               "       train-pii takes several --data files the same way (one tagger each, averaged per word).\n"
               "       --calibrate: the acceptance threshold from another author's labelled lines (the dev file):\n"
               "       the lowest at which the model alone gives at most 0.5 %% false intents on its none lines.\n"
               "train-pii: the personal-data tagger from lines in the data README's PII format; prints held-out\n"
               "       recall and precision per type at the suspect thresholds it chose (recall first) and writes\n"
               "       MODEL. --calibrate: each type's span threshold for the best F1 on another author's lines.\n"
               "lm:    the recognizer's domain language model (a trigram, Witten-Bell, ARPA text) from the spoken lines\n"
               "       of intent training files: the commands, and with --with-none the open requests too. With\n"
               "       --dict, sentences with a word the pronunciation dictionary lacks are left out (counted).\n"
               "       --min-count N: bigrams and trigrams seen fewer than N times are left out (back-off renormalized).\n"
               "info:  verifies MODEL's checksum and prints what it holds.\n");
}

bool readUnsigned(const char* s, unsigned long& out) {
  char* end = nullptr;
  out = std::strtoul(s, &end, 10);
  return end != s && *end == '\0';
}

// The options of both trainers; each says which of the kind-specific ones it takes.
struct TrainArgs {
  std::vector<std::string> data;  // train: one ensemble member per file; train-pii: exactly one
  std::string out, calibration, note, catalogue;
  unsigned long epochs = 0, seed = 0, bitsIntent = 0, bitsTag = 0, bits = 0;
  bool seedSet = false;
};

// 0 when parsed, 2 (and a message) on a usage error.
int parseTrainArgs(int argc, char** argv, const char* cmd, bool pii, TrainArgs& t) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const bool more = i + 1 < argc;
    unsigned long v = 0;
    const bool number = more && readUnsigned(argv[i + 1], v);
    if (a == "--data" && more) {
      t.data.emplace_back(argv[++i]);
      continue;
    }
    std::string* text = a == "-o"                           ? &t.out
                        : a == "--calibrate"                ? &t.calibration
                        : a == "--note"                     ? &t.note
                        : (!pii && (a == "--catalogue" || a == "-c")) ? &t.catalogue
                                                            : nullptr;
    unsigned long* count = a == "--epochs" && v >= 1 && v <= 100                  ? &t.epochs
                           : a == "--seed"                                        ? &t.seed
                           : !pii && a == "--bits-intent" && v >= 10 && v <= 20 ? &t.bitsIntent
                           : !pii && a == "--bits-tag" && v >= 10 && v <= 20    ? &t.bitsTag
                           : pii && a == "--bits" && v >= 10 && v <= 20         ? &t.bits
                                                                                  : nullptr;
    if (text != nullptr && more) {
      *text = argv[++i];
    } else if (count != nullptr && number) {
      *count = v;
      t.seedSet |= a == "--seed";
      ++i;
    } else {
      std::fprintf(stderr, "sotto nlu %s: unexpected or invalid argument '%s' (see sotto nlu --help)\n", cmd, a.c_str());
      return 2;
    }
  }
  if (t.data.empty() || t.out.empty()) {
    std::fprintf(stderr, "sotto nlu %s: needs --data FILE and -o MODEL\n", cmd);
    return 2;
  }
  if (t.data.size() > (pii ? privacy::kMaxPiiEnsemble : nlu::kMaxEnsemble)) {
    std::fprintf(stderr, "sotto nlu %s: at most %zu --data files\n", cmd, pii ? privacy::kMaxPiiEnsemble : nlu::kMaxEnsemble);
    return 2;
  }
  return 0;
}

// Opens `path` for a trainer; prints why not.
bool openInput(const char* cmd, const std::string& path, std::ifstream& in) {
  in.open(path);
  if (!in) std::fprintf(stderr, "sotto nlu %s: cannot open %s\n", cmd, path.c_str());
  return static_cast<bool>(in);
}

template <typename Model>
int writeModel(const char* cmd, const Model& model, const std::string& out) {
  if (auto saved = model.saveFile(out); !saved) {
    std::fprintf(stderr, "sotto nlu %s: %s\n", cmd, saved.error().message.c_str());
    return 1;
  }
  std::printf("wrote %s (%zu bytes)\n", out.c_str(), model.serialize().size());
  return std::fflush(stdout) == 0 ? 0 : 1;
}

// Trains one ensemble member per --data file, seeds seed, seed+1, ...: trainOne(in, seed, report) gives a member
// and its report text. Prints the reports; false (and why) on an unreadable file or a training error.
template <typename Model, typename TrainOne>
bool trainMembers(const char* cmd, const TrainArgs& t, std::uint32_t seed, TrainOne trainOne,
                  std::vector<std::unique_ptr<Model>>& members) {
  for (std::size_t k = 0; k < t.data.size(); ++k) {
    std::ifstream in;
    if (!openInput(cmd, t.data[k], in)) return false;
    const auto memberSeed = seed + static_cast<std::uint32_t>(k);
    std::string report;
    auto member = trainOne(in, memberSeed, report);
    if (!member) {
      std::fprintf(stderr, "sotto nlu %s: %s: %s\n", cmd, t.data[k].c_str(), member.error().message.c_str());
      return false;
    }
    if (t.data.size() > 1) {
      std::printf("member %zu of %zu: %s, seed %u\n", k + 1, t.data.size(), t.data[k].c_str(), memberSeed);
    }
    std::fputs(report.c_str(), stdout);
    members.push_back(std::move(*member));
  }
  return true;
}

std::string joined(const std::vector<std::string>& files) {
  std::string out;
  for (const auto& f : files) out += (out.empty() ? "" : ", ") + f;
  return out;
}

int train(int argc, char** argv) {
  constexpr const char* kCmd = "train";
  TrainArgs t;
  if (int rc = parseTrainArgs(argc, argv, kCmd, false, t); rc != 0) return rc;
  nlu::TrainOptions opt;
  if (t.epochs != 0) opt.epochs = static_cast<int>(t.epochs);
  if (t.seedSet) opt.seed = static_cast<std::uint32_t>(t.seed);
  if (t.bitsIntent != 0) opt.intentBits = static_cast<unsigned>(t.bitsIntent);
  if (t.bitsTag != 0) opt.tagBits = static_cast<unsigned>(t.bitsTag);
  std::string cataloguePath = t.catalogue;
  if (cataloguePath.empty()) {
    cataloguePath = app::defaultCataloguePath();
  }
  auto cat = intents::Catalogue::loadFile(cataloguePath);
  if (!cat) {
    std::fprintf(stderr, "sotto nlu train: %s\n", cat.error().message.c_str());
    return 1;
  }
  std::vector<std::unique_ptr<nlu::NluModel>> members;
  const bool trained = trainMembers(kCmd, t, opt.seed, [&](std::istream& in, std::uint32_t seed, std::string& text) {
    nlu::TrainOptions memberOpt = opt;
    memberOpt.seed = seed;
    nlu::TrainReport report;
    auto m = nlu::trainModel(*cat, in, memberOpt, report);
    text = report.text();
    return m;
  }, members);
  if (!trained) return 1;
  auto model = nlu::NluModel::ensemble(std::move(members),
                                       t.note.empty() ? "trained on " + joined(t.data) + " for " + cataloguePath : t.note);
  if (!model) {
    std::fprintf(stderr, "sotto nlu train: %s\n", model.error().message.c_str());
    return 1;
  }
  if (!t.calibration.empty()) {
    std::ifstream cal;
    if (!openInput(kCmd, t.calibration, cal)) return 1;
    nlu::CalibrationReport cr;
    if (auto c = nlu::calibrateThreshold(**model, *cat, cal, opt.maxFalseIntent, cr); !c) {
      std::fprintf(stderr, "sotto nlu train: %s: %s\n", t.calibration.c_str(), c.error().message.c_str());
      return 1;
    }
    std::fputs(cr.text().c_str(), stdout);
  }
  return writeModel(kCmd, **model, t.out);
}

int trainPii(int argc, char** argv) {
  constexpr const char* kCmd = "train-pii";
  TrainArgs t;
  if (int rc = parseTrainArgs(argc, argv, kCmd, true, t); rc != 0) return rc;
  privacy::PiiTrainOptions opt;
  if (t.epochs != 0) opt.epochs = static_cast<int>(t.epochs);
  if (t.seedSet) opt.seed = static_cast<std::uint32_t>(t.seed);
  if (t.bits != 0) opt.bits = static_cast<unsigned>(t.bits);
  std::vector<std::unique_ptr<privacy::PiiModel>> members;
  const bool trained = trainMembers(kCmd, t, opt.seed, [&](std::istream& in, std::uint32_t seed, std::string& text) {
    privacy::PiiTrainOptions memberOpt = opt;
    memberOpt.seed = seed;
    privacy::PiiTrainReport report;
    auto m = privacy::trainPiiModel(in, memberOpt, report);
    text = report.text();
    return m;
  }, members);
  if (!trained) return 1;
  auto model = privacy::PiiModel::ensemble(std::move(members), t.note.empty() ? "trained on " + joined(t.data) : t.note);
  if (!model) {
    std::fprintf(stderr, "sotto nlu train-pii: %s\n", model.error().message.c_str());
    return 1;
  }
  if (!t.calibration.empty()) {
    std::ifstream cal;
    if (!openInput(kCmd, t.calibration, cal)) return 1;
    auto c = privacy::calibratePiiModel(**model, cal);
    if (!c) {
      std::fprintf(stderr, "sotto nlu train-pii: %s: %s\n", t.calibration.c_str(), c.error().message.c_str());
      return 1;
    }
    std::fputs(c->c_str(), stdout);
  }
  return writeModel(kCmd, **model, t.out);
}

// Words of a pocketsphinx dictionary ("word PH PH ...", alternates "word(2) ..."), or an error naming the file.
Result<std::set<std::string>> dictionaryWords(const std::string& path) {
  std::ifstream in(path);
  if (!in) return makeError(Errc::not_found, "cannot open dictionary " + path);
  std::set<std::string> words;
  for (std::string line; std::getline(in, line);) {
    const std::size_t end = line.find_first_of(" \t(");
    if (end != 0 && !line.empty()) words.insert(line.substr(0, end));
  }
  if (words.empty()) return makeError(Errc::corrupt, "dictionary " + path + " holds no words");
  return words;
}

int lm(int argc, char** argv) {
  std::vector<std::string> data;
  std::string out, dict;
  bool withNone = false;
  unsigned minCount = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const bool more = i + 1 < argc;
    if (a == "--min-count" && more) {
      const std::string v = argv[++i];
      if (v.empty() || v.size() > 3 || v.find_first_not_of("0123456789") != std::string::npos || std::stoi(v) < 1) {
        std::fprintf(stderr, "sotto nlu lm: --min-count takes a number from 1 to 999\n");
        return 2;
      }
      minCount = static_cast<unsigned>(std::stoi(v));
    } else if (a == "--data" && more) {
      data.emplace_back(argv[++i]);
    } else if (a == "-o" && more) {
      out = argv[++i];
    } else if (a == "--dict" && more) {
      dict = argv[++i];
    } else if (a == "--with-none") {
      withNone = true;
    } else {
      std::fprintf(stderr, "sotto nlu lm: unexpected or invalid argument '%s' (see sotto nlu --help)\n", a.c_str());
      return 2;
    }
  }
  if (data.empty() || out.empty()) {
    std::fprintf(stderr, "sotto nlu lm: needs --data FILE and -o MODEL.arpa\n");
    return 2;
  }
  std::set<std::string> known;
  if (!dict.empty()) {
    auto words = dictionaryWords(dict);
    if (!words) {
      std::fprintf(stderr, "sotto nlu lm: %s\n", words.error().message.c_str());
      return 1;
    }
    known = std::move(*words);
  }
  speech::TrigramEstimator lmEstimator;
  std::size_t used = 0, written = 0, unknown = 0, other = 0;
  for (const auto& path : data) {
    std::ifstream in;
    if (!openInput("lm", path, in)) return 1;
    Status read = nlu::forEachJsonLine(in, "line", [&](const json::Value& v, std::size_t lineNo) -> Status {
      const std::string* text = v.findString("text");
      const std::string* intent = v.findString("intent");
      if (text == nullptr || intent == nullptr) return nlu::lineError("line", lineNo, "needs \"text\" and \"intent\"");
      const std::string* form = v.findString("form");
      // Written lines hold digits and punctuation the recognizer never outputs; the spoken form of the same
      // request is in the file too.
      if ((form != nullptr && *form != "spoken") || (*intent == "none" && !withNone)) {
        ++other;
        return {};
      }
      std::vector<std::string> words;
      std::string w;
      for (char c : *text + " ") {
        if (c == ' ') {
          if (!w.empty()) words.push_back(std::move(w));
          w.clear();
        } else if ((c >= 'a' && c <= 'z') || c == '\'') {
          w += c;
        } else {
          ++written;  // a written line without a "form": not the recognizer's alphabet
          return {};
        }
      }
      for (const auto& word : words) {
        if (!known.empty() && known.count(word) == 0) {
          ++unknown;
          return {};
        }
      }
      if (words.empty()) return {};
      if (auto added = lmEstimator.addSentence(words); !added) return nlu::lineError("line", lineNo, added.error().message);
      ++used;
      return {};
    });
    if (!read) {
      std::fprintf(stderr, "sotto nlu lm: %s: %s\n", path.c_str(), read.error().message.c_str());
      return 1;
    }
  }
  auto arpa = lmEstimator.arpa(minCount);
  if (!arpa) {
    std::fprintf(stderr, "sotto nlu lm: %s (no usable spoken lines)\n", arpa.error().message.c_str());
    return 1;
  }
  const std::vector<std::uint8_t> bytes(arpa->begin(), arpa->end());
  if (auto saved = hal::writeFileAtomic(out, bytes, 0644); !saved) {
    std::fprintf(stderr, "sotto nlu lm: %s\n", saved.error().message.c_str());
    return 1;
  }
  std::printf("sentences %zu (left out: %zu with a word the dictionary lacks, %zu not spoken commands, %zu not in "
              "the recognizer's alphabet); vocabulary %zu\nwrote %s (%zu bytes)\n",
              used, unknown, other, written, lmEstimator.vocabularySize(), out.c_str(), bytes.size());
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
      std::printf("personal-data model, format %u; taggers %zu of 2^%u rows\nnote: %s\nthresholds (span/suspect):",
                  privacy::kPiiModelFormatVersion, (*pii)->layers().size(), (*pii)->layer().bits(),
                  (*pii)->note().c_str());
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
  std::printf("format %u; threshold %.3f; intent classifiers %zu of 2^%u rows; tag rows 2^%u\nnote: %s\nintents:",
              nlu::kModelFormatVersion, m.threshold(), m.intentLayers().size(), m.intentLayer().bits(),
              m.tagLayer().bits(), m.note().c_str());
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
  if (sub == "lm") return lm(argc - 1, argv + 1);
  std::fprintf(stderr, "sotto nlu: unknown subcommand '%s' (see sotto nlu --help)\n", sub.c_str());
  return 2;
}

}  // namespace sotto::cli
