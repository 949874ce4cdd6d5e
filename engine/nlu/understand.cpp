// SPDX-License-Identifier: MIT
// Rules first, then the trained model: intent, tagged slot spans read by the catalogue's slot parsers.
#include "engine/nlu/understand.h"

#include <algorithm>

#include "engine/intents/slot_values.h"

namespace sotto::nlu {
namespace {

// Things in a home that are turned up and down but are not this speaker: "turn up the heating", "turn the lights
// down". The model learned "turn up / down" as volume; said of one of these (and of no audio word) it is a command
// for another device, and changing the volume would be an action nobody asked for.
constexpr std::string_view kOtherDevices[] = {
    "light",  "lights",   "lamp",       "lamps",   "heating",  "heater",  "heat",   "thermostat", "temperature",
    "ac",     "aircon",   "fan",        "fans",    "oven",     "stove",   "blinds", "curtains",   "tv",
    "telly",  "television", "brightness", "dimmer", "radiator", "boiler", "air",    "hob",        "kettle"};
constexpr std::string_view kAudioWords[] = {"volume", "sound", "music", "audio", "speaker", "voice", "song",
                                            "songs",  "radio", "podcast", "it", "yourself", "you", "sotto"};

bool aboutAnotherDevice(std::span<const std::string_view> words) noexcept {
  bool device = false;
  for (const std::string_view w : words) {
    if (std::find(std::begin(kAudioWords), std::end(kAudioWords), w) != std::end(kAudioWords)) return false;
    device |= std::find(std::begin(kOtherDevices), std::end(kOtherDevices), w) != std::end(kOtherDevices);
  }
  return device;
}

}  // namespace

Result<Understander> Understander::create(const intents::Matcher& matcher, const NluModel* model) {
  Understander u;
  u.matcher_ = &matcher;
  u.model_ = model;
  if (model == nullptr) return u;
  const intents::Catalogue& cat = matcher.catalogue();
  const auto& names = model->intents();
  const auto& slots = model->slots();
  u.catalogueIntent_.assign(names.size(), -1);
  u.slotOfIntent_.assign(names.size(), std::vector<int>(slots.size(), -1));
  u.allowedSlots_.assign(names.size(), 0);
  for (std::size_t k = 1; k < names.size(); ++k) {
    const int ci = cat.intentIndex(names[k]);
    if (ci < 0) {
      return makeError(Errc::corrupt, "the understanding model knows intent " + names[k] +
                                          ", which the catalogue does not: retrain it (sotto nlu train)");
    }
    u.catalogueIntent_[k] = ci;
    const auto& spec = cat.intents()[static_cast<std::size_t>(ci)];
    for (std::size_t s = 0; s < slots.size(); ++s) {
      for (std::size_t j = 0; j < spec.slots.size(); ++j) {
        if (spec.slots[j].name == slots[s] && spec.slots[j].type != intents::SlotType::result) {
          u.slotOfIntent_[k][s] = static_cast<int>(j);
          u.allowedSlots_[k] |= std::uint64_t{1} << s;
        }
      }
    }
    // A required slot the model cannot tag would make every answer of that intent fail.
    for (const auto& ss : spec.slots) {
      if (!ss.required || ss.type == intents::SlotType::result) continue;
      if (std::find(slots.begin(), slots.end(), ss.name) == slots.end()) {
        return makeError(Errc::corrupt, "the understanding model cannot tag slot " + ss.name + " of " + names[k] +
                                            ": retrain it (sotto nlu train)");
      }
    }
  }
  return u;
}

void Understander::understand(std::string_view text, UnderstandWorkspace& ws, intents::IntentMatch& out) const noexcept {
  Reading r;
  read(text, ws, out, r);
}

void Understander::assess(std::string_view text, UnderstandWorkspace& ws, Assessment& a) const noexcept {
  Reading r;
  read(text, ws, ws.scratchMatch, r);
  const intents::IntentMatch& m = ws.scratchMatch;
  a = Assessment{};
  a.intent = m.intent;
  a.complete = m.intent >= 0;
  a.expectsMore = r.missingSlot;
  // The confidence of what was understood; for none, how sure the reading is that no command was said.
  a.confidence = static_cast<float>(m.confidence);
  // Plausibility for n-best rescoring: a reading the rules or the model are sure of scores high; a command whose
  // slots do not read (a misheard number) scores half; text the model cannot place scores its best guess.
  if (m.intent >= 0) {
    a.score = a.confidence;
  } else if (r.missingSlot) {
    a.score = 0.5f * r.probability;
  } else {
    a.score = r.probability > 0.0f ? r.probability : a.confidence;
  }
}

void Understander::read(std::string_view text, UnderstandWorkspace& ws, intents::IntentMatch& out,
                        Reading& r) const noexcept {
  r = Reading{};
  matcher_->match(text, ws.match, out);
  if (out.intent >= 0 || out.openRequest || model_ == nullptr) return;
  const intents::Utterance& u = intents::Matcher::lastUtterance(ws.match);
  if (u.count == 0 || u.truncated || u.count > NluWorkspace::kMaxWords) return;
  const auto words = u.view();
  model_->classify(words, ws.nlu);
  const std::size_t classes = model_->intents().size();
  std::size_t best = 0;
  for (std::size_t k = 1; k < classes; ++k) {
    if (ws.nlu.intentProb[k] > ws.nlu.intentProb[best]) best = k;
  }
  const float p = ws.nlu.intentProb[best];
  r.probability = p;
  // The rules' none stands unless the model is sure: a false command is worse than a question for the LLM.
  out.confidence = ws.nlu.intentProb[0];
  if (best == 0 || p < model_->threshold()) return;
  const int ci = catalogueIntent_[best];
  const auto& spec = matcher_->catalogue().intents()[static_cast<std::size_t>(ci)];
  if (spec.name.starts_with("volume.") && aboutAnotherDevice(words)) return;
  model_->tag(words, best, allowedSlots_[best], ws.nlu);
  out.slotCount = 0;
  const std::size_t n = words.size();
  for (std::size_t i = 0; i < n;) {
    const int t = ws.nlu.tags[i];
    if (t == 0 || t % 2 == 0) {
      ++i;
      continue;
    }
    const std::size_t s = static_cast<std::size_t>(t - 1) / 2;
    std::size_t j = i + 1;
    while (j < n && ws.nlu.tags[j] == t + 1) ++j;
    const int slot = slotOfIntent_[best][s];
    // Two spans of one slot: the later one is the value meant ("five no ten minutes").
    if (slot >= 0) {
      const auto& ss = spec.slots[static_cast<std::size_t>(slot)];
      std::size_t at = out.slotCount;
      for (std::size_t k = 0; k < out.slotCount; ++k) {
        if (out.slots[k].name == ss.name) at = k;
      }
      // A quantity the tagger cut short ("an hour" of "an hour and a half") reads on while the parser accepts
      // the longer span: the parser knows how numbers continue better than a tagger trained on fewer of them.
      if (ss.type == intents::SlotType::duration || ss.type == intents::SlotType::time ||
          ss.type == intents::SlotType::expression) {
        for (std::size_t e = j + 1; e <= n && ws.nlu.tags[e - 1] == 0 && e - i <= 16; ++e) {
          if (intents::parseSlotValue(ss.type, words.subspan(i, e - i), nullptr)) j = e;
        }
      }
      intents::SlotValue v;
      if (at < intents::IntentMatch::kMaxSlots && intents::parseSlotValue(ss.type, words.subspan(i, j - i), &v)) {
        out.slots[at].name = ss.name;
        out.slots[at].value = v;
        if (at == out.slotCount) ++out.slotCount;
      }
    }
    i = j;
  }
  for (const auto& ss : spec.slots) {
    if (!ss.required || ss.type == intents::SlotType::result) continue;
    if (out.slot(ss.name) == nullptr) {
      out.slotCount = 0;
      r.missingSlot = true;  // "set a timer for": a command still being said
      return;
    }
  }
  if (!intents::completeSlots(spec, out)) {
    out.slotCount = 0;
    return;
  }
  out.intent = ci;
  out.name = spec.name;
  out.confidence = p;
  out.source = "model";
  out.pattern = -1;
}

}  // namespace sotto::nlu
