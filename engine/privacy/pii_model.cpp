// SPDX-License-Identifier: MIT
// The personal-data model: its file, and its trainer (labelled lines to words, tags and the rules' candidates;
// AdaGrad; per-type thresholds from held-out words).
#include "engine/privacy/pii_model.h"

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <random>

#include "engine/cloud/json.h"
#include "engine/nlu/json_lines.h"
#include "engine/nlu/model_file.h"
#include "engine/privacy/pii.h"
#include "engine/privacy/pii_lexicon.h"
#include "engine/privacy/pii_recognizers.h"
#include "engine/privacy/pii_tagger.h"

namespace sotto::privacy {
namespace {

constexpr char kMagic[9] = "SOTTOPII";

bool localOnlyByDefault(PiiType t) {
  return t == PiiType::pinOrPassword || t == PiiType::health || t == PiiType::creditCard || t == PiiType::iban ||
         t == PiiType::ssn || t == PiiType::accountNumber;
}

}  // namespace

PiiModel::PiiModel(nlu::LinearLayer layer, Thresholds span, Thresholds suspect, std::string note)
    : span_(span), suspect_(suspect), note_(std::move(note)) {
  layers_.push_back(std::move(layer));
}

PiiModel::PiiModel(std::vector<nlu::LinearLayer> layers, Thresholds span, Thresholds suspect, std::string note)
    : layers_(std::move(layers)), span_(span), suspect_(suspect), note_(std::move(note)) {}

Result<std::unique_ptr<PiiModel>> PiiModel::ensemble(std::vector<std::unique_ptr<PiiModel>> members, std::string note) {
  std::vector<nlu::LinearLayer> layers;
  for (auto& m : members) {
    for (auto& l : m->layers_) layers.push_back(std::move(l));
  }
  if (layers.empty() || layers.size() > kMaxPiiEnsemble) {
    return makeError(Errc::invalid_argument, "an ensemble takes 1 to " + std::to_string(kMaxPiiEnsemble) + " layers");
  }
  return std::make_unique<PiiModel>(std::move(layers), members.front()->span_, members.front()->suspect_,
                                    std::move(note));
}

std::vector<std::uint8_t> PiiModel::serialize() const {
  nlu::ModelWriter w(kMagic, kPiiModelFormatVersion);
  w.str(note_);
  for (float t : span_) w.f32(t);
  for (float t : suspect_) w.f32(t);
  w.u32(static_cast<std::uint32_t>(layers_.size()));
  for (const auto& l : layers_) w.layer(l);
  return w.seal();
}

Status PiiModel::saveFile(const std::string& path) const { return nlu::writeModelFile(path, serialize()); }

Result<std::unique_ptr<PiiModel>> PiiModel::loadFile(const std::string& path) {
  auto bytes = nlu::readModelFile(path);
  if (!bytes) return std::move(bytes).error();
  return parse(*bytes, path);
}

Result<std::unique_ptr<PiiModel>> PiiModel::parse(std::span<const std::uint8_t> bytes, std::string_view name) {
  auto opened = nlu::ModelReader::open(bytes, kMagic, 1, kPiiModelFormatVersion, name);
  if (!opened) return std::move(opened).error();
  nlu::ModelReader& r = *opened;
  auto corrupt = [name](const std::string& what) { return makeError(Errc::corrupt, std::string(name) + ": " + what); };
  std::string note;
  if (!r.str(note, 4096)) return corrupt("truncated note");
  PiiModel::Thresholds span{}, suspect{};
  for (auto* set : {&span, &suspect}) {
    for (float& t : *set) {
      if (!r.f32(t) || !(t > 0.0f) || t > 1.0f) return corrupt("bad threshold");
    }
  }
  for (std::size_t t = 0; t < kPiiTypeCount; ++t) {
    if (suspect[t] > span[t]) return corrupt("a suspect threshold above its span threshold");
  }
  std::uint32_t members = 1;  // format 1: one layer, no count
  if (r.version() >= 2 && (!r.u32(members) || members < 1 || members > kMaxPiiEnsemble)) {
    return corrupt("bad ensemble size");
  }
  std::vector<nlu::LinearLayer> layers(members);
  for (auto& l : layers) {
    if (!r.layer(l, kPiiTagCount)) {
      return corrupt(r.problem().empty() ? std::string("bad tag layer") : "bad tag layer: " + r.problem());
    }
  }
  if (!r.atEnd()) return corrupt("trailing bytes");
  return std::make_unique<PiiModel>(std::move(layers), span, suspect, std::move(note));
}

std::string PiiTrainReport::text() const {
  char buf[256];
  std::snprintf(buf, sizeof buf, "lines %zu (trained on %zu, held out %zu); spans not on word boundaries: %zu\n"
                "held-out word tags %.4f; per type (held-out words):\n",
                lines, trained, heldOut, spansUnaligned, tagAccuracy);
  std::string s = buf;
  for (std::size_t t = 0; t < kPiiTypeCount; ++t) {
    std::snprintf(buf, sizeof buf, "  %-16s suspect at %.2f: recall %.4f precision %.4f; spans at %.2f%s\n",
                  piiTypeName(static_cast<PiiType>(t)), suspect[t], recall[t], precision[t], span[t],
                  localOnlyByDefault(static_cast<PiiType>(t)) ? "  (local-only by default)" : "");
    s += buf;
  }
  return s;
}

Result<std::unique_ptr<PiiModel>> trainPiiModel(std::istream& jsonl, const PiiTrainOptions& options,
                                                PiiTrainReport& report) {
  using namespace detail;
  report = PiiTrainReport{};
  const PiiLexicon lexicon;
  struct Word {
    std::vector<nlu::Feature> f;
    int tag = 0;
  };
  std::vector<std::vector<Word>> lines;
  std::vector<bool> heldOut;
  std::mt19937 split(options.seed ^ 0x51ed270bu);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const nlu::LinearLayer shape(options.bits, kPiiTagCount);
  auto u = std::make_unique<Utterance>();
  auto cands = std::make_unique<Candidates>();
  auto marks = std::make_unique<CandidateMarks>();
  auto fl = std::make_unique<nlu::FeatureList>();
  Status read = nlu::forEachJsonLine(jsonl, "line", [&](const json::Value& v, std::size_t lineNo) -> Status {
    auto where = [lineNo](const std::string& what) { return nlu::lineError("line", lineNo, what); };
    const std::string* t = v.findString("text");
    const json::Value* spans = v.find("spans");
    if (t == nullptr || spans == nullptr || !spans->isArray()) return where("needs \"text\" and \"spans\"");
    if (!tokenize(*t, lexicon, *u)) return {};  // longer than the classifier reads
    std::vector<int> tags(u->n, 0);
    for (const json::Value& s : spans->items()) {
      const json::Value* a = s.find("start");
      const json::Value* e = s.find("end");
      const std::string* type = s.findString("type");
      if (a == nullptr || e == nullptr || type == nullptr || !a->isNumber() || !e->isNumber()) {
        return where("a span needs \"start\", \"end\" and \"type\"");
      }
      int ti = -1;
      for (std::size_t k = 0; k < kPiiTypeCount; ++k) {
        if (*type == piiTypeName(static_cast<PiiType>(k))) ti = static_cast<int>(k);
      }
      if (ti < 0) return where("unknown type " + *type);
      const auto s0 = static_cast<std::uint32_t>(a->asNumber()), s1 = static_cast<std::uint32_t>(e->asNumber());
      bool first = true;
      for (std::size_t k = 0; k < u->n; ++k) {
        if (u->tok[k].c0 >= s0 && u->tok[k].c0 < s1) {
          tags[k] = first ? 1 + 2 * ti : 2 + 2 * ti;
          first = false;
        }
      }
      if (first) ++report.spansUnaligned;
    }
    cands->n = 0;
    findAll(*u, *cands);
    markCandidates(*cands, u->n, *marks);
    std::vector<Word> words(u->n);
    for (std::size_t k = 0; k < u->n; ++k) {
      fl->reset(shape.rowMask());
      piiWordFeatures(*u, *marks, k, *fl);
      words[k].f.assign(fl->view().begin(), fl->view().end());
      words[k].tag = tags[k];
    }
    lines.push_back(std::move(words));
    heldOut.push_back(unit(split) < options.holdout);
    return {};
  });
  if (!read) return std::move(read).error();
  report.lines = lines.size();
  for (bool h : heldOut) (h ? report.heldOut : report.trained)++;
  if (report.trained == 0 || report.heldOut == 0) {
    return makeError(Errc::invalid_argument, "too few lines to train and hold out (" + std::to_string(lines.size()) + ")");
  }
  nlu::SoftmaxTrainer trainer(shape.rows(), kPiiTagCount, options.rate);
  std::vector<std::size_t> order(lines.size());
  std::iota(order.begin(), order.end(), 0);
  std::mt19937 rng(options.seed);
  for (int epoch = 0; epoch < options.epochs; ++epoch) {
    std::shuffle(order.begin(), order.end(), rng);
    for (std::size_t i : order) {
      if (heldOut[i]) continue;
      for (const Word& w : lines[i]) trainer.step(w.f, w.tag);
    }
  }
  // Thresholds: per type, the highest of a ladder whose held-out word recall reaches the target.
  static constexpr float kLadder[] = {0.5f, 0.4f, 0.3f, 0.25f, 0.2f, 0.15f, 0.1f, 0.07f, 0.05f, 0.03f};
  constexpr std::size_t kSteps = sizeof kLadder / sizeof kLadder[0];
  std::array<std::array<std::size_t, kSteps>, kPiiTypeCount> hit{}, claimed{};
  std::array<std::size_t, kPiiTypeCount> gold{};
  std::size_t right = 0, all = 0;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (!heldOut[i]) continue;
    for (const Word& w : lines[i]) {
      trainer.forward(w.f);
      const auto& p = trainer.probabilities();
      right += static_cast<int>(std::max_element(p.begin(), p.end()) - p.begin()) == w.tag;
      ++all;
      const int goldType = w.tag == 0 ? -1 : (w.tag - 1) / 2;
      if (goldType >= 0) ++gold[static_cast<std::size_t>(goldType)];
      for (std::size_t t = 0; t < kPiiTypeCount; ++t) {
        const float q = p[1 + 2 * t] + p[2 + 2 * t];
        for (std::size_t s = 0; s < kSteps; ++s) {
          if (q < kLadder[s]) continue;
          ++claimed[t][s];
          hit[t][s] += goldType == static_cast<int>(t);
        }
      }
    }
  }
  report.tagAccuracy = all ? static_cast<double>(right) / static_cast<double>(all) : 0.0;
  PiiModel::Thresholds suspect{}, span{};
  for (std::size_t t = 0; t < kPiiTypeCount; ++t) {
    const double target = localOnlyByDefault(static_cast<PiiType>(t)) ? options.recallLocalOnly : options.recallOther;
    std::size_t s = 0;
    auto recallAt = [&](std::size_t k) { return gold[t] ? static_cast<double>(hit[t][k]) / static_cast<double>(gold[t]) : 1.0; };
    while (s + 1 < kSteps && recallAt(s) < target) ++s;
    suspect[t] = kLadder[s];
    span[t] = std::max(0.5f, kLadder[s]);  // until calibratePiiModel() chooses
    report.suspect[t] = suspect[t];
    report.span[t] = span[t];
    report.recall[t] = recallAt(s);
    report.precision[t] = claimed[t][s] ? static_cast<double>(hit[t][s]) / static_cast<double>(claimed[t][s]) : 1.0;
  }
  return std::make_unique<PiiModel>(trainer.layer(options.bits), span, suspect, options.note);
}

Result<std::string> calibratePiiModel(PiiModel& model, std::istream& jsonl, double maxFalseKeep) {
  struct Gold {
    std::string text;
    std::vector<PiiSpan> spans;
  };
  std::vector<Gold> lines;
  Status read = nlu::forEachJsonLine(jsonl, "calibration line", [&](const json::Value& v, std::size_t lineNo) -> Status {
    const std::string* t = v.findString("text");
    const json::Value* spans = t != nullptr ? v.find("spans") : nullptr;
    if (spans == nullptr || !spans->isArray()) {
      return nlu::lineError("calibration line", lineNo, "needs \"text\" and \"spans\"");
    }
    Gold g{*t, {}};
    for (const json::Value& s : spans->items()) {
      const json::Value* a = s.find("start");
      const json::Value* e = s.find("end");
      const std::string* type = s.findString("type");
      if (a == nullptr || e == nullptr || type == nullptr) continue;
      for (std::size_t k = 0; k < kPiiTypeCount; ++k) {
        if (*type == piiTypeName(static_cast<PiiType>(k))) {
          g.spans.push_back(PiiSpan{static_cast<std::uint32_t>(a->asNumber()), static_cast<std::uint32_t>(e->asNumber()),
                                    static_cast<PiiType>(k)});
        }
      }
    }
    lines.push_back(std::move(g));
    return {};
  });
  if (!read) return std::move(read).error();
  if (lines.empty()) return makeError(Errc::invalid_argument, "no calibration lines");
  // Every type at one ladder value at a time (types hardly interact), rules first as in classify().
  static constexpr float kSpanLadder[] = {0.3f, 0.4f, 0.5f, 0.6f, 0.7f, 0.8f, 0.9f, 0.95f, 0.98f};
  std::array<double, kPiiTypeCount> bestF1{};
  PiiModel::Thresholds best = model.spanThresholds();
  bestF1.fill(-1.0);
  for (float th : kSpanLadder) {
    auto copy = PiiModel::parse(model.serialize(), "calibration");
    if (!copy) return std::move(copy).error();
    PiiModel::Thresholds t{};
    for (std::size_t k = 0; k < kPiiTypeCount; ++k) t[k] = std::max(th, model.suspectThreshold(static_cast<PiiType>(k)));
    (*copy)->setSpanThresholds(t);
    auto c = PiiClassifier::create(std::move(*copy));
    if (!c) return std::move(c).error();
    std::array<std::size_t, kPiiTypeCount> tp{}, fp{}, fn{};
    SpanBuffer buf;
    for (const Gold& g : lines) {
      if (!(*c)->classify(g.text, buf).ok()) continue;
      for (const PiiSpan& s : buf) {
        const bool hit = std::any_of(g.spans.begin(), g.spans.end(), [&s](const PiiSpan& x) {
          return x.start == s.start && x.end == s.end && x.type == s.type;
        });
        (hit ? tp : fp)[static_cast<std::size_t>(s.type)]++;
      }
      for (const PiiSpan& x : g.spans) {
        const bool hit = std::any_of(buf.begin(), buf.end(), [&x](const PiiSpan& s) {
          return x.start == s.start && x.end == s.end && x.type == s.type;
        });
        if (!hit) fn[static_cast<std::size_t>(x.type)]++;
      }
    }
    for (std::size_t k = 0; k < kPiiTypeCount; ++k) {
      const double f1 = tp[k] == 0 ? 0.0 : 2.0 * tp[k] / (2.0 * tp[k] + fp[k] + fn[k]);
      // Ties go to the lower threshold: recall first.
      if (f1 > bestF1[k] + 1e-9) {
        bestF1[k] = f1;
        best[k] = t[k];
      }
    }
  }
  model.setSpanThresholds(best);
  std::string out = "calibration: " + std::to_string(lines.size()) + " lines; span thresholds (F1 there):";
  for (std::size_t k = 0; k < kPiiTypeCount; ++k) {
    char buf[64];
    std::snprintf(buf, sizeof buf, " %s %.2f (%.3f)", piiTypeName(static_cast<PiiType>(k)), best[k], bestF1[k]);
    out += buf;
  }
  // Suspicion, local-only types only (the others never keep a request local): the lowest rung of the ladder
  // within the false-keep budget on lines that hold no local-only value.
  std::uint32_t localMask = 0;
  for (std::size_t k = 0; k < kPiiTypeCount; ++k) {
    if (localOnlyByDefault(static_cast<PiiType>(k))) localMask |= 1u << k;
  }
  static constexpr float kSuspectLadder[] = {0.03f, 0.05f, 0.07f, 0.1f, 0.15f, 0.2f, 0.3f, 0.4f, 0.5f};
  PiiModel::Thresholds suspect = best;
  double keptShare = 0.0, caughtShare = 0.0;
  for (float th : kSuspectLadder) {
    PiiModel::Thresholds t = best;
    for (std::size_t k = 0; k < kPiiTypeCount; ++k) {
      if (localMask >> k & 1u) t[k] = std::min(th, best[k]);
    }
    auto copy = PiiModel::parse(model.serialize(), "calibration");
    if (!copy) return std::move(copy).error();
    (*copy)->setSuspectThresholds(t);
    auto c = PiiClassifier::create(std::move(*copy));
    if (!c) return std::move(c).error();
    std::size_t clean = 0, kept = 0, local = 0, caught = 0;
    SpanBuffer buf;
    for (const Gold& g : lines) {
      if (!(*c)->classify(g.text, buf).ok()) continue;
      bool keptLocal = (buf.suspected() & localMask) != 0;
      for (const PiiSpan& x : buf) keptLocal |= (localMask >> static_cast<unsigned>(x.type) & 1u) != 0;
      const bool hasLocal = std::any_of(g.spans.begin(), g.spans.end(), [localMask](const PiiSpan& x) {
        return (localMask >> static_cast<unsigned>(x.type) & 1u) != 0;
      });
      (hasLocal ? local : clean)++;
      (hasLocal ? caught : kept) += keptLocal;
    }
    const double share = clean ? static_cast<double>(kept) / static_cast<double>(clean) : 0.0;
    {
      char rung[128];
      std::snprintf(rung, sizeof rung, "\n  suspect at %.2f: %.4f of lines without a local-only value kept local, "
                                       "%.4f of lines with one", th, share,
                    local ? static_cast<double>(caught) / static_cast<double>(local) : 1.0);
      out += rung;
    }
    if (share <= maxFalseKeep || th == kSuspectLadder[std::size(kSuspectLadder) - 1]) {
      suspect = t;
      keptShare = share;
      caughtShare = local ? static_cast<double>(caught) / static_cast<double>(local) : 1.0;
      break;
    }
  }
  // Names and named places may leave only as placeholders: words the model suspects of them where no span lies
  // are replaced too (decideEscalation). Their suspect threshold: the lowest rung at which at most 5 % of the lines
  // would have a suspected run of the type where the labels have no value at all (a word redacted for nothing: a
  // placeholder too many in a cloud request costs little, a name sent costs the promise).
  static constexpr float kRedactLadder[] = {0.1f, 0.15f, 0.2f, 0.25f, 0.3f, 0.4f};
  for (const PiiType type : {PiiType::person, PiiType::location}) {
    const std::size_t t = static_cast<std::size_t>(type);
    for (float th : kRedactLadder) {
      if (th >= suspect[t]) break;
      PiiModel::Thresholds trial = suspect;
      trial[t] = th;
      auto copy = PiiModel::parse(model.serialize(), "calibration");
      if (!copy) return std::move(copy).error();
      (*copy)->setSuspectThresholds(trial);
      auto c = PiiClassifier::create(std::move(*copy));
      if (!c) return std::move(c).error();
      std::size_t falseLines = 0, covered = 0, values = 0;
      SpanBuffer buf;
      for (const Gold& g : lines) {
        if (!(*c)->classify(g.text, buf).ok()) continue;
        bool falseRun = false;
        for (std::size_t i = 0; i < buf.suspectCount(); ++i) {
          const PiiSpan& x = buf.suspect(i);
          if (x.type != type) continue;
          falseRun |= std::none_of(g.spans.begin(), g.spans.end(),
                                   [&x](const PiiSpan& v) { return x.start < v.end && v.start < x.end; });
        }
        falseLines += falseRun ? 1 : 0;
        for (const PiiSpan& v : g.spans) {
          if (v.type != type) continue;
          ++values;
          bool hit = false;
          for (const PiiSpan& s : buf) hit |= v.start < s.end && s.start < v.end;
          for (std::size_t i = 0; i < buf.suspectCount(); ++i) {
            hit |= v.start < buf.suspect(i).end && buf.suspect(i).start < v.end;
          }
          covered += hit ? 1 : 0;
        }
      }
      const double share = static_cast<double>(falseLines) / static_cast<double>(lines.size());
      char rung[160];
      std::snprintf(rung, sizeof rung, "\n  %s suspected at %.2f: %.4f of lines with a run redacted for nothing, "
                                       "%.4f of its values covered", piiTypeName(type), th, share,
                    values ? static_cast<double>(covered) / static_cast<double>(values) : 1.0);
      out += rung;
      if (share <= 0.05) {
        suspect[t] = th;
        break;
      }
    }
  }
  model.setSuspectThresholds(suspect);
  char buf[160];
  std::snprintf(buf, sizeof buf,
                "\nsuspect threshold for local-only types: %.2f (there: %.4f of lines without a local-only value kept "
                "local, %.4f of lines with one)",
                suspect[static_cast<std::size_t>(PiiType::health)], keptShare, caughtShare);
  out += buf;
  return out + "\n";
}

}  // namespace sotto::privacy
