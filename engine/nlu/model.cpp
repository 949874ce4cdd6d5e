// SPDX-License-Identifier: MIT
// The intent and slot model: its file fields and its inference.
#include "engine/nlu/model.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "engine/nlu/model_file.h"

namespace sotto::nlu {
namespace {

std::string withProblem(const ModelReader& r) { return r.problem().empty() ? std::string() : ": " + r.problem(); }

constexpr char kMagic[9] = "SOTTONLU";
constexpr std::size_t kMaxNames = 60;  // intents or slots: the workspace's class capacity bounds both

bool validName(std::string_view s) {
  if (s.empty() || s.size() > 64) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
  });
}

}  // namespace

std::string modelPathFor(const std::string& cataloguePath) {
  const std::size_t slash = cataloguePath.rfind('/');
  const std::size_t dot = cataloguePath.rfind('.');
  const bool hasExt = dot != std::string::npos && (slash == std::string::npos || dot > slash);
  return (hasExt ? cataloguePath.substr(0, dot) : cataloguePath) + ".nlu";
}

NluModel::NluModel(std::vector<std::string> intents, std::vector<std::string> slots, LinearLayer intentLayer,
                   LinearLayer tagLayer, float threshold, std::string note)
    : intents_(std::move(intents)), slots_(std::move(slots)), tagLayer_(std::move(tagLayer)), threshold_(threshold),
      note_(std::move(note)) {
  intentLayers_.push_back(std::move(intentLayer));
}

NluModel::NluModel(std::vector<std::string> intents, std::vector<std::string> slots,
                   std::vector<LinearLayer> intentLayers, LinearLayer tagLayer, float threshold, std::string note)
    : intents_(std::move(intents)), slots_(std::move(slots)), intentLayers_(std::move(intentLayers)),
      tagLayer_(std::move(tagLayer)), threshold_(threshold), note_(std::move(note)) {}

Result<std::unique_ptr<NluModel>> NluModel::ensemble(std::vector<std::unique_ptr<NluModel>> members,
                                                     std::string note) {
  if (members.empty() || members.size() > kMaxEnsemble) {
    return makeError(Errc::invalid_argument, "an ensemble takes 1 to " + std::to_string(kMaxEnsemble) + " models");
  }
  std::vector<LinearLayer> layers;
  for (auto& m : members) {
    if (m->intents_ != members.front()->intents_ || m->slots_ != members.front()->slots_) {
      return makeError(Errc::invalid_argument, "ensemble members differ in their intents or slots");
    }
    if (layers.size() + m->intentLayers_.size() > kMaxEnsemble) {
      return makeError(Errc::invalid_argument, "an ensemble takes at most " + std::to_string(kMaxEnsemble) + " layers");
    }
    for (auto& l : m->intentLayers_) layers.push_back(std::move(l));
  }
  NluModel& first = *members.front();
  return std::make_unique<NluModel>(std::move(first.intents_), std::move(first.slots_), std::move(layers),
                                    std::move(first.tagLayer_), first.threshold_, std::move(note));
}

std::vector<std::uint8_t> NluModel::serialize() const {
  ModelWriter w(kMagic, kModelFormatVersion);
  w.str(note_);
  w.u32(static_cast<std::uint32_t>(intents_.size()));
  for (const auto& s : intents_) w.str(s);
  w.u32(static_cast<std::uint32_t>(slots_.size()));
  for (const auto& s : slots_) w.str(s);
  w.f32(threshold_);
  w.u32(static_cast<std::uint32_t>(intentLayers_.size()));
  for (const auto& l : intentLayers_) w.layer(l);
  w.layer(tagLayer_);
  return w.seal();
}

Status NluModel::saveFile(const std::string& path) const { return writeModelFile(path, serialize()); }

Result<std::unique_ptr<NluModel>> NluModel::loadFile(const std::string& path,
                                                    std::span<const std::string> catalogueIntents) {
  auto bytes = readModelFile(path);
  if (!bytes) return std::move(bytes).error();
  return parse(*bytes, path, catalogueIntents);
}

Result<std::unique_ptr<NluModel>> NluModel::parse(std::span<const std::uint8_t> bytes, std::string_view name,
                                                  std::span<const std::string> catalogueIntents) {
  auto opened = ModelReader::open(bytes, kMagic, 1, kModelFormatVersion, name);
  if (!opened) return std::move(opened).error();
  ModelReader& r = *opened;
  const std::string where(name);
  auto corrupt = [&where](const std::string& what) { return makeError(Errc::corrupt, where + ": " + what); };
  std::string note;
  std::vector<std::string> intents, slots;
  std::uint32_t n = 0;
  if (!r.str(note, 4096)) return corrupt("truncated note");
  if (!r.u32(n) || n < 2 || n > kMaxNames) return corrupt("bad intent count");
  intents.resize(n);
  for (auto& s : intents) {
    if (!r.str(s, 64) || !validName(s)) return corrupt("bad intent name");
  }
  if (intents[0] != "none") return corrupt("the first intent must be none");
  // The catalogue match before anything large is allocated: a model for another catalogue is refused here.
  for (std::size_t k = 1; k < intents.size() && !catalogueIntents.empty(); ++k) {
    if (std::find(catalogueIntents.begin(), catalogueIntents.end(), intents[k]) == catalogueIntents.end()) {
      return makeError(Errc::corrupt, where + ": the understanding model knows intent " + intents[k] +
                                          ", which the catalogue does not: retrain it (sotto nlu train)");
    }
  }
  if (!r.u32(n) || n > (kMaxNames - 1) / 2) return corrupt("bad slot count");
  slots.resize(n);
  for (auto& s : slots) {
    if (!r.str(s, 64) || !validName(s)) return corrupt("bad slot name");
  }
  float threshold = 0.0f;
  if (!r.f32(threshold) || threshold < 0.0f || threshold > 1.0f) return corrupt("bad threshold");
  std::uint32_t members = 1;  // format 1: one intent layer, no count
  if (r.version() >= 2 && (!r.u32(members) || members < 1 || members > kMaxEnsemble)) {
    return corrupt("bad ensemble size");
  }
  std::vector<LinearLayer> intentLayers(members);
  for (auto& l : intentLayers) {
    if (!r.layer(l, intents.size())) return corrupt("bad intent layer" + withProblem(r));
  }
  LinearLayer tagLayer;
  if (!r.layer(tagLayer, 1 + 2 * slots.size())) return corrupt("bad tagger layer" + withProblem(r));
  if (!r.atEnd()) return corrupt("trailing bytes");
  return std::make_unique<NluModel>(std::move(intents), std::move(slots), std::move(intentLayers),
                                    std::move(tagLayer), threshold, std::move(note));
}

void NluModel::classify(std::span<const std::string_view> words, NluWorkspace& ws) const noexcept {
  const std::size_t n = intents_.size();
  words = words.first(std::min(words.size(), NluWorkspace::kMaxWords));
  std::fill(ws.intentProb, ws.intentProb + n, 0.0f);
  for (const LinearLayer& layer : intentLayers_) {
    // Members may hash into tables of different sizes: features per member (a few microseconds each).
    ws.features.reset(layer.rowMask());
    sentenceFeatures(words, ws.features);
    layer.scores(ws.features.view(), ws.memberProb);
    softmax(ws.memberProb, n);
    for (std::size_t k = 0; k < n; ++k) ws.intentProb[k] += ws.memberProb[k];
  }
  const float share = 1.0f / static_cast<float>(intentLayers_.size());
  for (std::size_t k = 0; k < n; ++k) ws.intentProb[k] *= share;
}

void NluModel::tag(std::span<const std::string_view> words, std::size_t intent, std::uint64_t allowedSlots,
                   NluWorkspace& ws) const noexcept {
  const std::size_t n = std::min(words.size(), NluWorkspace::kMaxWords);
  words = words.first(n);
  const std::size_t tags = tagCount();
  const std::string_view intentTag = intents_[intent];
  auto allowed = [allowedSlots](std::size_t t) { return t == 0 || (allowedSlots >> ((t - 1) / 2) & 1u) != 0; };
  for (std::size_t i = 0; i < n; ++i) {
    ws.features.reset(tagLayer_.rowMask());
    tokenFeatures(words, i, intentTag, ws.features);
    tagLayer_.scores(ws.features.view(), ws.tagProb[i]);
    softmax(ws.tagProb[i], tags);
  }
  // Viterbi over log probabilities: an inside tag only after its own begin or inside tag; slots the intent
  // does not have are impossible.
  constexpr float kNo = -std::numeric_limits<float>::infinity();
  auto logp = [&](std::size_t i, std::size_t t) {
    return allowed(t) ? std::log(std::max(ws.tagProb[i][t], 1e-12f)) : kNo;
  };
  auto inside = [](std::size_t t) { return t > 0 && t % 2 == 0; };
  for (std::size_t t = 0; t < tags; ++t) {
    ws.score[0][t] = inside(t) ? kNo : logp(0, t);
    ws.back[0][t] = -1;
  }
  for (std::size_t i = 1; i < n; ++i) {
    for (std::size_t t = 0; t < tags; ++t) {
      const float lp = logp(i, t);
      float best = kNo;
      int from = 0;
      for (std::size_t p = 0; p < tags; ++p) {
        if (inside(t) && p != t && p != t - 1) continue;
        if (ws.score[i - 1][p] > best) {
          best = ws.score[i - 1][p];
          from = static_cast<int>(p);
        }
      }
      ws.score[i][t] = best + lp;
      ws.back[i][t] = from;
    }
  }
  if (n == 0) return;
  std::size_t t = 0;
  for (std::size_t k = 1; k < tags; ++k) {
    if (ws.score[n - 1][k] > ws.score[n - 1][t]) t = k;
  }
  for (std::size_t i = n; i-- > 0;) {
    ws.tags[i] = static_cast<int>(t);
    if (i > 0) t = static_cast<std::size_t>(ws.back[i][t]);
  }
}

}  // namespace sotto::nlu
