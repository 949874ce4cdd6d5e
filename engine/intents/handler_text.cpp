// SPDX-License-Identifier: MIT
// Slot access and word scanning for the intent handlers.
#include "engine/intents/handler_text.h"

#include <algorithm>

namespace sotto::intents::detail {

bool pluralOf(std::string_view a, std::string_view b) {
  auto plural = [](std::string_view s, std::string_view p) {
    return (p.size() == s.size() + 1 && p.back() == 's' && p.substr(0, s.size()) == s) ||
           (p.size() == s.size() + 2 && p.substr(s.size()) == "es" && p.substr(0, s.size()) == s);
  };
  return plural(a, b) || plural(b, a);
}

std::vector<std::string> lowerWords(std::string_view text) {
  std::vector<std::string> words;
  std::string cur;
  for (char c : text) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
      cur += c;
    } else if (c == '\'') {
      continue;  // "what's" -> "whats", as the normalizer drops apostrophes
    } else if (!cur.empty()) {
      words.push_back(std::move(cur));
      cur.clear();
    }
  }
  if (!cur.empty()) words.push_back(std::move(cur));
  return words;
}

bool containsPhrase(const std::vector<std::string>& words, std::string_view phrase) {
  const std::vector<std::string> p = lowerWords(phrase);
  if (p.empty() || p.size() > words.size()) return false;
  for (std::size_t i = 0; i + p.size() <= words.size(); ++i) {
    bool all = true;
    // Exact or singular/plural only: an edit distance here would read "timer" as a timer named "time".
    for (std::size_t k = 0; k < p.size() && all; ++k) all = words[i + k] == p[k] || pluralOf(words[i + k], p[k]);
    if (all) return true;
  }
  return false;
}

bool namesMatch(std::string_view a, std::string_view b) {
  if (a == b || pluralOf(a, b)) return true;
  if (a.size() < 4 || b.size() < 4) return false;
  // Levenshtein distance <= 1.
  if (a.size() > b.size()) std::swap(a, b);
  if (b.size() - a.size() > 1) return false;
  std::size_t i = 0;
  while (i < a.size() && a[i] == b[i]) ++i;
  if (a.size() == b.size()) return a.substr(i + 1) == b.substr(i + 1);
  return a.substr(i) == b.substr(i + 1);
}

std::optional<std::string> slotText(const IntentMatch& m, std::string_view name) {
  const FilledSlot* s = m.slot(name);
  if (s == nullptr) return std::nullopt;
  if (s->value.kind == SlotValue::Kind::text) return std::string(s->value.view());
  return std::nullopt;
}

std::optional<double> slotNumber(const IntentMatch& m, std::string_view name) {
  const FilledSlot* s = m.slot(name);
  if (s == nullptr || s->value.kind == SlotValue::Kind::text) return std::nullopt;
  return s->value.number;
}

}  // namespace sotto::intents::detail
