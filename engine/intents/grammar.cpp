// SPDX-License-Identifier: MIT
// Catalogue::grammar(): the phrasings as a JSGF V1.0 grammar for the recognizer's command mode.
#include <string>

#include "engine/intents/catalogue.h"
#include "engine/intents/units.h"

namespace sotto::intents {
namespace {

std::string ruleName(std::string_view s) {
  std::string r;
  for (char c : s) r += (c == '.' || c == '-') ? '_' : c;
  return r;
}

// The phrase in JSGF: the pattern syntax is JSGF's ( | ) [ ] already; {slot} becomes a rule reference.
// Tokens are separated by single spaces (the catalogue validated the syntax).
std::string phraseToJsgf(const IntentSpec& intent, std::string_view phrase) {
  std::string out;
  auto emit = [&out](std::string_view t) {
    if (!out.empty()) out += ' ';
    out += t;
  };
  size_t i = 0;
  while (i < phrase.size()) {
    const char c = phrase[i];
    if (c == '{') {
      const size_t end = phrase.find('}', i);
      const std::string_view name = phrase.substr(i + 1, end - i - 1);
      std::string type;
      if (!name.empty() && name[0] == ':') {
        type = std::string(name.substr(1));
      } else {
        for (const auto& s : intent.slots) {
          if (s.name == name) type = std::string(slotTypeName(s.type));
        }
      }
      emit("<" + ruleName(type) + ">");
      i = end + 1;
    } else if (c == '(' || c == ')' || c == '[' || c == ']' || c == '|') {
      emit(std::string_view(&phrase[i], 1));
      ++i;
    } else if (c >= 'a' && c <= 'z') {
      const size_t start = i;
      while (i < phrase.size() && phrase[i] >= 'a' && phrase[i] <= 'z') ++i;
      emit(phrase.substr(start, i - start));
    } else {
      ++i;
    }
  }
  return out;
}

void alternatives(std::string& g, std::string_view rule, const std::vector<std::string>& words) {
  g += "<" + std::string(rule) + "> = ";
  if (words.empty()) {
    g += "<VOID>;\n";  // an open slot without a lexicon: the grammar cannot say it
    return;
  }
  g += "(";
  for (size_t i = 0; i < words.size(); ++i) g += (i ? " | " : "") + words[i];
  g += ");\n";
}

}  // namespace

std::string Catalogue::grammar() const {
  std::string g = "#JSGF V1.0;\n\ngrammar sotto.intents;\n\n";
  g += "public <command> = ";
  for (size_t i = 0; i < intents_.size(); ++i) g += (i ? " | " : "") + ("<" + ruleName(intents_[i].name) + ">");
  g += ";\n\n";
  for (const auto& intent : intents_) {
    g += "<" + ruleName(intent.name) + "> = ";
    for (size_t p = 0; p < intent.phrases.size(); ++p) {
      g += (p ? "\n    | " : "") + ("(" + phraseToJsgf(intent, intent.phrases[p]) + ")");
    }
    g += ";\n";
  }
  g += "\n";
  g += "<digit> = (zero | oh | one | two | three | four | five | six | seven | eight | nine);\n";
  g += "<teen> = (ten | eleven | twelve | thirteen | fourteen | fifteen | sixteen | seventeen | eighteen | "
       "nineteen);\n";
  g += "<tens> = (twenty | thirty | forty | fifty | sixty | seventy | eighty | ninety);\n";
  g += "<number> = [minus] (<digit> | <teen> | <tens> | hundred | thousand | million | and | a | point | half | "
       "quarter | quarters)+;\n";
  g += "<duration_unit> = (second | seconds | sec | secs | minute | minutes | min | mins | hour | hours | hr | "
       "hrs);\n";
  g += "<duration> = (<number> <duration_unit> [and a half])+ | half (an | a) (hour | minute) | a (half | quarter) "
       "hour;\n";
  g += "<day_half> = (am | pm | in the morning | in the afternoon | in the evening | at night);\n";
  g += "<time> = ((<number> [oclock]) | ((quarter | half | <number> [minutes]) (past | to) <number>)) [<day_half>] "
       "| [twelve] (noon | midnight);\n";
  g += "<weekday> = (monday | tuesday | wednesday | thursday | friday | saturday | sunday);\n";
  g += "<day> = [on | this | next] (today | tonight | tomorrow | <weekday>);\n";
  g += "<forecast_day> = [on | this | next | over the] (today | tonight | tomorrow | <weekday> | weekend);\n";
  g += "<level> = (<digit> | ten | max | maximum);\n";
  g += "<expression> = [the square root of] <number> [squared | cubed] ((plus | minus | times | x | multiplied by "
       "| divided by | over | to the power of | percent of) [the square root of] <number> [squared | cubed])*;\n";
  std::vector<std::string> units;
  for (std::string_view u : unitSpellings()) units.emplace_back(u);
  alternatives(g, "unit", units);
  alternatives(g, "label", lexicons_[static_cast<size_t>(SlotType::label)]);
  alternatives(g, "place", lexicons_[static_cast<size_t>(SlotType::place)]);
  return g;
}

}  // namespace sotto::intents
