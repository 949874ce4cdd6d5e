// SPDX-License-Identifier: MIT
// Intent matching: per-pattern alignment by dynamic programming over (pattern element, token), cached slot
// parses, precision guards, and slot value extraction.
#include "engine/intents/matcher.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

#include "engine/intents/math_expression.h"
#include "engine/intents/slot_values.h"
#include "engine/intents/spoken_numbers.h"
#include "engine/intents/time_expressions.h"
#include "engine/intents/units.h"

namespace sotto::intents {
namespace {

using Tokens = std::span<const std::string_view>;

constexpr float kInf = std::numeric_limits<float>::infinity();
// Alignment costs. Function words are cheap to drop, insert or swap (recognizers lose exactly these); a content
// word the pattern does not have is expensive, because it usually means a different, open request ("what time
// does the SUN SET"). A near-miss spelling ("timber" for "timer") costs a little.
constexpr float kInsertSmall = 0.3f;
constexpr float kInsertContent = 2.0f;
constexpr float kDeleteSmall = 0.35f;
constexpr float kDeleteContent = 1.2f;
constexpr float kSwapSmall = 0.35f;
constexpr float kNearMiss = 0.6f;
// The cost a pattern may spend grows with the utterance: confidence = 1 - cost / (kBase + kPerToken * n).
constexpr float kBase = 1.0f;
constexpr float kPerToken = 0.25f;

size_t maxSpan(SlotType t) {
  switch (t) {
    case SlotType::duration: return 10;
    case SlotType::time: return 8;
    case SlotType::day:
    case SlotType::forecastDay: return 3;
    case SlotType::level: return 3;
    case SlotType::number: return 8;
    case SlotType::unit: return 4;
    case SlotType::label: return 2;
    case SlotType::place: return 3;
    case SlotType::expression: return 16;
    case SlotType::result: return 0;
  }
  return 0;
}

// Levenshtein distance of two short words, capped: true when at most 1.
bool withinOneEdit(std::string_view a, std::string_view b) {
  if (a.size() > b.size()) std::swap(a, b);
  if (b.size() - a.size() > 1) return false;
  size_t i = 0;
  while (i < a.size() && a[i] == b[i]) ++i;
  if (a.size() == b.size()) return a.substr(i + 1) == b.substr(i + 1);
  return a.substr(i) == b.substr(i + 1);
}

// Slot types whose spans could contain w: a superset, so the pattern prefilter never drops a real match.
std::uint16_t plausibleSlots(std::string_view w) {
  auto bit = [](SlotType t) { return static_cast<std::uint16_t>(1u << static_cast<unsigned>(t)); };
  const std::uint16_t numeric = bit(SlotType::number) | bit(SlotType::duration) | bit(SlotType::time) |
                                bit(SlotType::level) | bit(SlotType::expression);
  std::uint16_t m = 0;
  const std::string_view one[] = {w};
  NumberOptions loose;
  loose.articleIsOne = true;
  loose.sign = true;
  if (parseNumberPrefix(one, loose).tokens > 0 || digitWordValue(w) >= 0 || w == "won" || w == "to" ||
      w == "too" || w == "for" || w == "fore" || w == "ate" || w == "and" || w == "point" || w == "hundred" ||
      w == "thousand" || w == "million" || w == "billion" || w == "quarters" || w == "-") {
    m |= numeric;
  }
  if (!w.empty() && w[0] >= '0' && w[0] <= '9') m |= numeric;
  static constexpr std::string_view kDuration[] = {"second", "seconds", "sec", "secs", "s", "minute", "minutes",
                                                   "min", "mins", "m", "hour", "hours", "hr", "hrs", "h",
                                                   "half", "quarter", "of", "a", "an", "uh", "and", ","};
  static constexpr std::string_view kTime[] = {"am", "pm", "a.m.", "p.m.", "a", "p", "m", "oclock", "o", "clock",
                                               "noon", "midday", "midnight", "past", "after", "to", "till", "til",
                                               "before", "of", "quarter", "half", "minute", "minutes", "hundred",
                                               "in", "at", "the", "this", "morning", "afternoon", "evening",
                                               "night", "tonight"};
  static constexpr std::string_view kDay[] = {"today", "tonight", "tomorrow", "monday", "tuesday", "wednesday",
                                              "thursday", "friday", "saturday", "sunday", "mondays", "tuesdays",
                                              "wednesdays", "thursdays", "fridays", "saturdays", "sundays",
                                              "weekend", "on", "this", "next", "for", "coming", "the", "over",
                                              "later", "morning", "afternoon", "evening", "night"};
  static constexpr std::string_view kExpression[] = {
      "plus", "+",  "add",    "minus",  "-",      "less",  "take",    "away",  "times", "x",     "*",
      "multiply", "multiplied", "by", "/", "over", "divided", "divide", "^", "to",    "the",   "power",
      "of", "raised", "percent", "%", "square", "root", "sqrt", "squared", "cubed"};
  static constexpr std::string_view kLevel[] = {"max", "maximum", "full", "min", "minimum"};
  auto in = [w](auto& list) { return std::find(std::begin(list), std::end(list), w) != std::end(list); };
  if (in(kDuration)) m |= bit(SlotType::duration);
  if (in(kTime) || w.find(':') != std::string_view::npos) m |= bit(SlotType::time);
  if (in(kDay)) m |= bit(SlotType::day) | bit(SlotType::forecastDay);
  if (in(kExpression)) m |= bit(SlotType::expression);
  if (in(kLevel)) m |= bit(SlotType::level);
  for (std::string_view s : unitSpellings()) {
    // Any word of a unit spelling ("miles per hour"); "our" is read as "hour" inside one.
    size_t p = 0;
    while (p <= s.size()) {
      size_t e = s.find(' ', p);
      if (e == std::string_view::npos) e = s.size();
      const std::string_view part = s.substr(p, e - p);
      if (part == w || (w == "our" && part == "hour")) m |= bit(SlotType::unit);
      p = e + 1;
    }
  }
  if (alphabeticWord(w)) m |= bit(SlotType::label) | bit(SlotType::place);
  return m;
}

}  // namespace

bool completeSlots(const IntentSpec& spec, IntentMatch& out) noexcept {
  // Derived slots: the value of an expression, rounded as the output reports it.
  for (size_t s = 0; s < spec.slots.size(); ++s) {
    const SlotSpec& ss = spec.slots[s];
    if (ss.type != SlotType::result || ss.source < 0) continue;
    const FilledSlot* src = out.slot(spec.slots[static_cast<size_t>(ss.source)].name);
    if (src == nullptr || out.slotCount >= IntentMatch::kMaxSlots) continue;
    const auto r = evaluateExpression(src->value.view());
    if (!r.ok()) return false;
    FilledSlot& fs = out.slots[out.slotCount++];
    fs.name = ss.name;
    setSlotNumber(fs.value, roundResult(*r));
  }
  // Slots in declaration order, for stable output.
  std::sort(out.slots.begin(), out.slots.begin() + static_cast<std::ptrdiff_t>(out.slotCount),
            [&spec](const FilledSlot& a, const FilledSlot& b) {
              auto index = [&spec](std::string_view name) {
                for (size_t k = 0; k < spec.slots.size(); ++k) {
                  if (spec.slots[k].name == name) return k;
                }
                return spec.slots.size();
              };
              return index(a.name) < index(b.name);
            });
  return true;
}

const FilledSlot* IntentMatch::slot(std::string_view slotName) const noexcept {
  for (size_t i = 0; i < slotCount; ++i) {
    if (slots[i].name == slotName) return &slots[i];
  }
  return nullptr;
}

Matcher::Matcher(Catalogue catalogue) : catalogue_(std::move(catalogue)) {
  const auto& patterns = catalogue_.patterns();
  bitWords_ = (catalogue_.vocabulary().size() + 63) / 64;
  literalBits_.assign(patterns.size() * bitWords_, 0);
  info_.resize(patterns.size());
  for (size_t pi = 0; pi < patterns.size(); ++pi) {
    for (const auto& e : patterns[pi].elements) {
      if (e.isSlot) {
        info_[pi].slotRoom += maxSpan(e.type);
        info_[pi].slotTypes = static_cast<std::uint16_t>(info_[pi].slotTypes | (1u << static_cast<unsigned>(e.type)));
      } else if (e.word >= 0) {
        literalBits_[pi * bitWords_ + static_cast<size_t>(e.word) / 64] |= std::uint64_t{1} << (e.word % 64);
      }
    }
  }
  constexpr std::string_view kDeterminers[] = {"a", "the", "my", "this", "that", "your", "some", "its"};
  for (size_t k = 0; k < determiners_.size(); ++k) determiners_[k] = catalogue_.wordClass(kDeterminers[k]);
}

bool Matcher::isDeterminer(int cls) const noexcept {
  return cls >= 0 && std::find(determiners_.begin(), determiners_.end(), cls) != determiners_.end();
}

bool Matcher::slotParses(SlotType type, MatchWorkspace& ws, size_t start, size_t len) const noexcept {
  auto& cached = ws.slotCache_[static_cast<size_t>(type)][start][len - 1];
  if (cached != 0) return cached == 1;
  const bool ok = parseSlotValue(type, ws.utterance_.view().subspan(start, len), nullptr);
  cached = ok ? 1 : 2;
  return ok;
}

float Matcher::literalCost(const PatternElement& e, const MatchWorkspace& ws, size_t j) const noexcept {
  const int cls = ws.classes_[j];
  if (cls == e.word) return 0.0f;
  if (e.small && isDeterminer(e.word) && isDeterminer(cls)) return kSwapSmall;
  if (e.small) return kInf;
  const std::string_view lit = catalogue_.vocabulary().at(static_cast<size_t>(e.word));
  const std::string_view tok = ws.utterance_.tokens[j];
  if (lit.size() >= 4 && tok.size() >= 4 && cls < 0 && withinOneEdit(lit, tok)) return kNearMiss;
  return kInf;
}

float Matcher::align(const Pattern& p, MatchWorkspace& ws, size_t n, float bound) const noexcept {
  const size_t L = p.elements.size();
  for (size_t i = 0; i <= L; ++i) std::fill_n(ws.cost_[i].begin(), n + 1, kInf);
  ws.cost_[0][0] = 0.0f;
  ws.back_[0][0] = {};
  auto relax = [&](size_t i, size_t j, float c, size_t pi, size_t pj, std::uint8_t kind) {
    if (c < ws.cost_[i][j] && c <= bound) {
      ws.cost_[i][j] = c;
      ws.back_[i][j] = {static_cast<std::uint8_t>(pi), static_cast<std::uint8_t>(pj), kind};
    }
  };
  for (size_t i = 0; i <= L; ++i) {
    for (size_t j = 0; j <= n; ++j) {
      const float c = ws.cost_[i][j];
      if (c == kInf) continue;
      if (j < n) {
        const int cls = ws.classes_[j];
        relax(i, j + 1, c + (catalogue_.isSmallClass(cls) ? kInsertSmall : kInsertContent), i, j, 1);
      }
      if (i == L) continue;
      const PatternElement& e = p.elements[i];
      if (!e.isSlot) {
        relax(i + 1, j, c + (e.small ? kDeleteSmall : kDeleteContent), i, j, 2);
        if (j < n) {
          const float m = literalCost(e, ws, j);
          if (m != kInf) relax(i + 1, j + 1, c + m, i, j, 3);
        }
      } else {
        // An open slot (any words: a place, a timer name) must follow an exactly matched word of the pattern,
        // so "the weather like ON MARS" cannot pass "mars" off as a place by dropping "in".
        if ((e.type == SlotType::place || e.type == SlotType::label) && i > 0) {
          const auto& b = ws.back_[i][j];
          if (b.kind != 3) continue;
        }
        const size_t most = std::min(maxSpan(e.type), n - j);
        for (size_t len = 1; len <= most; ++len) {
          if (slotParses(e.type, ws, j, len)) relax(i + 1, j + len, c, i, j, 4);
        }
      }
    }
  }
  return ws.cost_[L][n];
}

bool Matcher::fill(const Pattern& p, MatchWorkspace& ws, size_t n, IntentMatch& out) const noexcept {
  const IntentSpec& spec = catalogue_.intents()[static_cast<size_t>(p.intent)];
  out.slotCount = 0;
  // Walk the back pointers from the end; slot spans come out in reverse order, which does not matter.
  size_t i = p.elements.size(), j = n;
  while (i > 0 || j > 0) {
    const auto step = ws.back_[i][j];
    if (step.kind == 4) {
      const PatternElement& e = p.elements[step.i];
      if (e.slot >= 0 && out.slotCount < IntentMatch::kMaxSlots) {
        const Tokens t = ws.utterance_.view().subspan(step.j, j - step.j);
        FilledSlot& fs = out.slots[out.slotCount++];
        fs.name = spec.slots[static_cast<size_t>(e.slot)].name;
        parseSlotValue(e.type, t, &fs.value);
      }
    }
    if (step.kind == 0) break;
    i = step.i;
    j = step.j;
  }
  return completeSlots(spec, out);
}

void Matcher::match(std::string_view text, MatchWorkspace& ws, IntentMatch& out) const noexcept {
  normalizeUtterance(text, ws.utterance_, &catalogue_.vocabulary());
  out.intent = -1;
  out.name = "none";
  out.slotCount = 0;
  out.pattern = -1;
  out.cost = 0.0;
  out.confidence = 1.0;
  out.source = "rules";
  out.openRequest = false;
  const size_t n = ws.utterance_.count;
  // Long or empty input is never a command.
  if (n == 0 || ws.utterance_.truncated || n > MatchWorkspace::kMaxTokens - 1) return;

  for (size_t j = 0; j < n; ++j) {
    ws.classes_[j] = catalogue_.wordClass(ws.utterance_.tokens[j]);
    ws.slotMask_[j] = plausibleSlots(ws.utterance_.tokens[j]);
  }
  // Open-request openings ("how do i ...", "why ...") are answered by the model, whatever words follow.
  for (const auto& prefix : catalogue_.rejectPrefixes()) {
    if (prefix.size() > n) continue;
    bool same = true;
    for (size_t k = 0; k < prefix.size() && same; ++k) {
      same = canonicalHomophone(ws.utterance_.tokens[k]) == canonicalHomophone(prefix[k]);
    }
    if (same) {
      out.openRequest = true;
      return;
    }
  }
  for (auto& perType : ws.slotCache_) {
    for (size_t j = 0; j < n; ++j) perType[j].fill(0);
  }

  const float budget = static_cast<float>((1.0 - catalogue_.minConfidence()) * (kBase + kPerToken * n));
  float best = kInf;
  int bestPattern = -1;
  const auto& patterns = catalogue_.patterns();
  for (size_t pi = 0; pi < patterns.size(); ++pi) {
    const Pattern& p = patterns[pi];
    if (p.elements.size() > MatchWorkspace::kMaxElements) continue;
    // Lower bound: each content word of the pattern missing from the utterance costs at least a near miss.
    float lower = 0.0f;
    for (int w : p.contentWords) {
      bool present = false;
      for (size_t j = 0; j < n && !present; ++j) present = ws.classes_[j] == w;
      if (!present) lower += kNearMiss;
    }
    // Tokens the pattern has no literal for must be inserted (a known word: kInsertContent; an unknown one
    // at least a near miss) unless a slot covers them, and the slots cover at most slotRoom tokens. Valid lower
    // bounds do not add up (a near miss is counted on both sides), so take the larger.
    const PatternInfo& info = info_[pi];
    const std::uint64_t* bits = &literalBits_[pi * bitWords_];
    float unabsorbable = 0.0f;
    size_t known = 0, unknown = 0;
    for (size_t j = 0; j < n; ++j) {
      const int cls = ws.classes_[j];
      if (cls >= 0 && (catalogue_.isSmallClass(cls) || (bits[cls >> 6] >> (cls & 63) & 1u))) continue;
      if (ws.slotMask_[j] & info.slotTypes) {
        ++(cls >= 0 ? known : unknown);
      } else {
        unabsorbable += cls >= 0 ? kInsertContent : kNearMiss;
      }
    }
    const size_t takeKnown = std::min(known, info.slotRoom);
    const size_t takeUnknown = std::min(unknown, info.slotRoom - takeKnown);
    const float tokenBound = unabsorbable + static_cast<float>(known - takeKnown) * kInsertContent +
                             static_cast<float>(unknown - takeUnknown) * kNearMiss;
    lower = std::max(lower, tokenBound);
    const float bound = std::min(best, budget);
    if (lower > bound) continue;
    const float c = align(p, ws, n, bound);
    if (c == kInf || c > bound) continue;
    // Ties go to the more specific pattern (more literal words), then catalogue order.
    if (c < best || (c == best && bestPattern >= 0 &&
                     p.contentWords.size() > patterns[static_cast<size_t>(bestPattern)].contentWords.size())) {
      best = c;
      bestPattern = static_cast<int>(pi);
    }
  }
  if (bestPattern < 0) return;
  const Pattern& p = patterns[static_cast<size_t>(bestPattern)];
  // Re-run the winner: the tables hold the last pattern aligned, not necessarily the best.
  align(p, ws, n, best);
  if (!fill(p, ws, n, out)) {
    out.slotCount = 0;
    return;
  }
  const double conf = std::clamp(1.0 - best / (kBase + kPerToken * static_cast<double>(n)), 0.0, 1.0);
  out.intent = p.intent;
  out.name = catalogue_.intents()[static_cast<size_t>(p.intent)].name;
  out.confidence = conf;
  out.pattern = bestPattern;
  out.cost = best;
}

namespace {

void appendJsonString(std::string& s, std::string_view v) {
  s += '"';
  for (char c : v) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      s += '\\';
      s += c;
    } else if (u < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", u);
      s += buf;
    } else {
      s += c;
    }
  }
  s += '"';
}

}  // namespace

std::string toJson(std::string_view text, const IntentMatch& m) {
  std::string s = "{\"text\":";
  appendJsonString(s, text);
  s += ",\"intent\":";
  appendJsonString(s, m.name);
  s += ",\"slots\":{";
  for (size_t i = 0; i < m.slotCount; ++i) {
    if (i > 0) s += ',';
    appendJsonString(s, m.slots[i].name);
    s += ':';
    const SlotValue& v = m.slots[i].value;
    char buf[40];
    switch (v.kind) {
      case SlotValue::Kind::integer: std::snprintf(buf, sizeof buf, "%.0f", v.number); s += buf; break;
      case SlotValue::Kind::number: formatNumber(v.number, buf, sizeof buf); s += buf; break;
      case SlotValue::Kind::text: appendJsonString(s, v.view()); break;
    }
  }
  char conf[16];
  std::snprintf(conf, sizeof conf, "%.3f", m.confidence);
  s += "},\"confidence\":";
  s += conf;
  s += ",\"source\":";
  appendJsonString(s, m.source);
  s += '}';
  return s;
}

}  // namespace sotto::intents
