// SPDX-License-Identifier: MIT
// The understanding model's trainer: labelled lines to normalized words and tags, AdaGrad on both layers, the
// threshold from held-out lines.
#include "engine/nlu/trainer.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <random>

#include "engine/cloud/json.h"
#include "engine/nlu/json_lines.h"
#include "engine/intents/normalize.h"

namespace sotto::nlu {
namespace {

struct Sparse {
  std::vector<Feature> f;
};

struct Line {
  std::vector<std::string> words;
  int intent = 0;          // model intent index
  std::vector<int> tags;   // per word; empty when a span could not be aligned
  bool heldOut = false;
};

// Byte offset of code point cp in s (UTF-8).
std::size_t byteOffset(std::string_view s, std::size_t cp) {
  std::size_t b = 0;
  for (std::size_t k = 0; k < cp && b < s.size(); ++k) {
    ++b;
    while (b < s.size() && (static_cast<unsigned char>(s[b]) & 0xC0) == 0x80) ++b;
  }
  return b;
}

std::vector<std::string> normalizedWords(std::string_view text, const intents::WordSet& vocabulary) {
  auto u = std::make_unique<intents::Utterance>();
  intents::normalizeUtterance(text, *u, &vocabulary);
  std::vector<std::string> out;
  for (std::size_t i = 0; i < u->count; ++i) out.emplace_back(u->tokens[i]);
  return out;
}

std::vector<std::string_view> views(const std::vector<std::string>& words) {
  return {words.begin(), words.end()};
}

int argmax(const std::vector<float>& p) {
  return static_cast<int>(std::max_element(p.begin(), p.end()) - p.begin());
}

std::vector<Feature> copyOf(const FeatureList& l) { return {l.view().begin(), l.view().end()}; }

}  // namespace

std::string TrainReport::text() const {
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "lines %zu (trained on %zu, held out %zu); slot spans not aligned: %zu\n"
                "held out: intent accuracy %.4f (argmax), %.4f at threshold %.3f; false intents on none %.4f; "
                "slot tags %.4f\n",
                lines, trained, heldOut, spansUnaligned, intentAccuracy, acceptedAccuracy, threshold,
                falseIntentRate, tagAccuracy);
  std::string s = buf;
  for (const auto& p : perIntent) s += "  " + p + "\n";
  return s;
}

Result<std::unique_ptr<NluModel>> trainModel(const intents::Catalogue& catalogue, std::istream& jsonl,
                                             const TrainOptions& options, TrainReport& report) {
  report = TrainReport{};
  // Labels from the catalogue: none first, then its intents; every slot a phrase can fill, in first-seen order.
  std::vector<std::string> intentNames{"none"}, slotNames;
  for (const auto& spec : catalogue.intents()) {
    intentNames.push_back(spec.name);
    for (const auto& ss : spec.slots) {
      if (ss.type == intents::SlotType::result) continue;
      if (std::find(slotNames.begin(), slotNames.end(), ss.name) == slotNames.end()) slotNames.push_back(ss.name);
    }
  }
  if (intentNames.size() > NluWorkspace::kMaxClasses || 1 + 2 * slotNames.size() > NluWorkspace::kMaxClasses) {
    return makeError(Errc::invalid_argument, "the catalogue has more intents or slots than a model can hold");
  }
  std::vector<Line> lines;
  std::mt19937 split(options.seed ^ 0x9e3779b9u);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  Status read = forEachJsonLine(jsonl, "line", [&](const json::Value& v, std::size_t lineNo) -> Status {
    auto where = [lineNo](const std::string& what) { return lineError("line", lineNo, what); };
    const std::string* t = v.findString("text");
    const std::string* intent = v.findString("intent");
    if (t == nullptr || intent == nullptr) return where("needs \"text\" and \"intent\"");
    Line line;
    const auto it = std::find(intentNames.begin(), intentNames.end(), *intent);
    if (it == intentNames.end()) return where("intent " + *intent + " is not in the catalogue");
    line.intent = static_cast<int>(it - intentNames.begin());
    line.words = normalizedWords(*t, catalogue.vocabulary());
    if (line.words.empty() || line.words.size() > NluWorkspace::kMaxWords) return {};
    line.tags.assign(line.words.size(), 0);
    if (const json::Value* spans = v.find("slot_spans"); spans != nullptr && spans->isArray()) {
      for (const json::Value& s : spans->items()) {
        const json::Value* a = s.find("start");
        const json::Value* e = s.find("end");
        const std::string* slot = s.findString("slot");
        if (a == nullptr || e == nullptr || slot == nullptr || !a->isNumber() || !e->isNumber() ||
            a->asNumber() < 0 || e->asNumber() < a->asNumber()) {
          return where("a slot span needs \"start\" <= \"end\" and \"slot\"");
        }
        const auto si = std::find(slotNames.begin(), slotNames.end(), *slot);
        if (si == slotNames.end()) return where("slot " + *slot + " is not in the catalogue");
        const std::size_t b0 = byteOffset(*t, static_cast<std::size_t>(a->asNumber()));
        const std::size_t b1 = byteOffset(*t, static_cast<std::size_t>(e->asNumber()));
        const std::vector<std::string> span = normalizedWords(std::string_view(*t).substr(b0, b1 - b0),
                                                              catalogue.vocabulary());
        // The span's words among the sentence's, at the free occurrence nearest its place in the text.
        const double rel = t->empty() ? 0.0 : static_cast<double>(b0) / static_cast<double>(t->size());
        long best = -1;
        double bestDist = 1e9;
        for (std::size_t k = 0; !span.empty() && k + span.size() <= line.words.size(); ++k) {
          bool same = true;
          for (std::size_t m = 0; m < span.size() && same; ++m) {
            same = line.words[k + m] == span[m] && line.tags[k + m] == 0;
          }
          const double d = std::fabs(static_cast<double>(k) / static_cast<double>(line.words.size()) - rel);
          if (same && d < bestDist) {
            best = static_cast<long>(k);
            bestDist = d;
          }
        }
        if (best < 0) {
          ++report.spansUnaligned;
          line.tags.clear();
          break;
        }
        const int sIndex = static_cast<int>(si - slotNames.begin());
        for (std::size_t m = 0; m < span.size(); ++m) {
          line.tags[static_cast<std::size_t>(best) + m] = m == 0 ? 1 + 2 * sIndex : 2 + 2 * sIndex;
        }
      }
    }
    line.heldOut = unit(split) < options.holdout;
    lines.push_back(std::move(line));
    return {};
  });
  if (!read) return std::move(read).error();
  report.lines = lines.size();
  for (const Line& l : lines) (l.heldOut ? report.heldOut : report.trained)++;
  if (report.trained == 0 || report.heldOut == 0) {
    return makeError(Errc::invalid_argument, "too few lines to train and hold out (" + std::to_string(lines.size()) + ")");
  }

  // Features once; the epochs only reorder them.
  const LinearLayer shapeI(options.intentBits, intentNames.size());
  const LinearLayer shapeT(options.tagBits, 1 + 2 * slotNames.size());
  auto fl = std::make_unique<FeatureList>();
  std::vector<Sparse> sentence(lines.size());
  std::vector<std::vector<Sparse>> words(lines.size());
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const auto w = views(lines[i].words);
    fl->reset(shapeI.rowMask());
    sentenceFeatures(w, *fl);
    sentence[i].f = copyOf(*fl);
    if (lines[i].tags.empty()) continue;
    words[i].resize(w.size());
    for (std::size_t k = 0; k < w.size(); ++k) {
      fl->reset(shapeT.rowMask());
      tokenFeatures(w, k, intentNames[static_cast<std::size_t>(lines[i].intent)], *fl);
      words[i][k].f = copyOf(*fl);
    }
  }
  SoftmaxTrainer ti(shapeI.rows(), shapeI.classes(), options.rate);
  SoftmaxTrainer tt(shapeT.rows(), shapeT.classes(), options.rate);
  std::vector<std::size_t> order(lines.size());
  std::iota(order.begin(), order.end(), 0);
  std::mt19937 rng(options.seed);
  for (int epoch = 0; epoch < options.epochs; ++epoch) {
    std::shuffle(order.begin(), order.end(), rng);
    for (std::size_t i : order) {
      if (lines[i].heldOut) continue;
      ti.step(sentence[i].f, lines[i].intent);
      for (std::size_t k = 0; k < words[i].size(); ++k) tt.step(words[i][k].f, lines[i].tags[k]);
    }
  }

  // The threshold: the lowest that keeps held-out false intents under the bound (recall of commands first).
  std::vector<std::pair<float, int>> heldPred;  // (probability, predicted) per held-out line
  std::size_t right = 0, wordsRight = 0, wordsAll = 0;
  std::vector<std::size_t> perRight(intentNames.size(), 0), perAll(intentNames.size(), 0);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (!lines[i].heldOut) continue;
    ti.forward(sentence[i].f);
    const int best = argmax(ti.probabilities());
    heldPred.emplace_back(ti.probabilities()[static_cast<std::size_t>(best)], best);
    right += best == lines[i].intent;
    perAll[static_cast<std::size_t>(lines[i].intent)]++;
    perRight[static_cast<std::size_t>(lines[i].intent)] += best == lines[i].intent;
    for (std::size_t k = 0; k < words[i].size(); ++k) {
      tt.forward(words[i][k].f);
      wordsRight += argmax(tt.probabilities()) == lines[i].tags[k];
      ++wordsAll;
    }
  }
  report.intentAccuracy = static_cast<double>(right) / static_cast<double>(report.heldOut);
  report.tagAccuracy = wordsAll ? static_cast<double>(wordsRight) / static_cast<double>(wordsAll) : 0.0;
  float chosen = 0.99f;
  for (int step = 30; step <= 99; ++step) {
    const float th = static_cast<float>(step) / 100.0f;
    std::size_t none = 0, falseIntent = 0, accepted = 0, k = 0;
    for (std::size_t i = 0; i < lines.size(); ++i) {
      if (!lines[i].heldOut) continue;
      const auto [p, pred] = heldPred[k++];
      const int said = (pred != 0 && p >= th) ? pred : 0;
      if (lines[i].intent == 0) {
        ++none;
        falseIntent += said != 0;
      }
      accepted += said == lines[i].intent;
    }
    const double fir = none ? static_cast<double>(falseIntent) / static_cast<double>(none) : 0.0;
    if (fir <= options.maxFalseIntent) {
      chosen = th;
      report.falseIntentRate = fir;
      report.acceptedAccuracy = static_cast<double>(accepted) / static_cast<double>(report.heldOut);
      break;
    }
  }
  report.threshold = chosen;
  for (std::size_t c = 0; c < intentNames.size(); ++c) {
    char buf[128];
    std::snprintf(buf, sizeof buf, "%-16s %.4f (%zu)", intentNames[c].c_str(),
                  perAll[c] ? static_cast<double>(perRight[c]) / static_cast<double>(perAll[c]) : 0.0, perAll[c]);
    report.perIntent.emplace_back(buf);
  }
  return std::make_unique<NluModel>(std::move(intentNames), std::move(slotNames), ti.layer(options.intentBits),
                                    tt.layer(options.tagBits),
                                    chosen, options.note);
}

std::string CalibrationReport::text() const {
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "calibration: %zu lines (%zu none): threshold %.2f; the model alone: false intents on none %.4f, "
                "commands recognized %.4f\n",
                lines, none, threshold, falseIntentRate, recall);
  return buf;
}

Status calibrateThreshold(NluModel& model, const intents::Catalogue& catalogue, std::istream& jsonl,
                          double maxFalseIntent, CalibrationReport& report) {
  report = CalibrationReport{};
  const auto& names = model.intents();
  std::vector<std::pair<float, int>> pred;  // (probability, predicted) per line
  std::vector<int> gold;
  auto ws = std::make_unique<NluWorkspace>();
  Status read = forEachJsonLine(jsonl, "calibration line", [&](const json::Value& v, std::size_t lineNo) -> Status {
    const std::string* t = v.findString("text");
    const std::string* intent = v.findString("intent");
    if (t == nullptr || intent == nullptr) return lineError("calibration line", lineNo, "needs \"text\" and \"intent\"");
    const auto it = std::find(names.begin(), names.end(), *intent);
    if (it == names.end()) return {};  // an intent this catalogue does not have
    const std::vector<std::string> words = normalizedWords(*t, catalogue.vocabulary());
    if (words.empty() || words.size() > NluWorkspace::kMaxWords) return {};
    const auto w = views(words);
    model.classify(w, *ws);
    std::size_t best = 0;
    for (std::size_t k = 1; k < names.size(); ++k) {
      if (ws->intentProb[k] > ws->intentProb[best]) best = k;
    }
    pred.emplace_back(ws->intentProb[best], static_cast<int>(best));
    gold.push_back(static_cast<int>(it - names.begin()));
    return {};
  });
  if (!read) return read;
  report.lines = gold.size();
  report.none = static_cast<std::size_t>(std::count(gold.begin(), gold.end(), 0));
  if (report.none == 0) return makeError(Errc::invalid_argument, "calibration needs lines labelled none");
  for (int step = 30; step <= 99; ++step) {
    const float th = static_cast<float>(step) / 100.0f;
    std::size_t falseIntent = 0, found = 0;
    for (std::size_t i = 0; i < gold.size(); ++i) {
      const int said = (pred[i].second != 0 && pred[i].first >= th) ? pred[i].second : 0;
      if (gold[i] == 0) falseIntent += said != 0;
      if (gold[i] != 0) found += said == gold[i];
    }
    const double fir = static_cast<double>(falseIntent) / static_cast<double>(report.none);
    if (fir <= maxFalseIntent || step == 99) {
      report.threshold = th;
      report.falseIntentRate = fir;
      const std::size_t commands = gold.size() - report.none;
      report.recall = commands ? static_cast<double>(found) / static_cast<double>(commands) : 0.0;
      break;
    }
  }
  model.setThreshold(report.threshold);
  return {};
}

}  // namespace sotto::nlu
