// SPDX-License-Identifier: MIT
// Accuracy regression: the whole dev file (intent accuracy >= 0.95, false intents on "none" <= 2 %, slot
// accuracy reported) and the committed held-out-style set (different phrasings, names, cities).
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "engine/intents/catalogue.h"
#include "engine/intents/matcher.h"

namespace si = sotto::intents;

namespace {

// The fields of one JSONL line this test needs: text, intent and the flat slots object, with slot values
// kept as their JSON text (numbers re-printed canonically so 16 and 16.0 compare equal).
struct Example {
  std::string text, intent;
  std::map<std::string, std::string> slots;
};

class Reader {
 public:
  explicit Reader(const std::string& s) : s_(s) {}
  bool object(Example& ex) {
    if (!eat('{')) return false;
    while (!eat('}')) {
      std::string key;
      if (!str(key) || !eat(':')) return false;
      if (key == "slots") {
        if (!eat('{')) return false;
        while (!eat('}')) {
          std::string k, v;
          if (!str(k) || !eat(':') || !value(v)) return false;
          ex.slots[k] = v;
          eat(',');
        }
      } else {
        std::string v;
        if (!value(v)) return false;
        // Strings come back quoted (slot values compare with their type); top-level fields do not need it.
        if (v.size() >= 2 && v.front() == '"') v = v.substr(1, v.size() - 2);
        if (key == "text") ex.text = v;
        if (key == "intent") ex.intent = v;
      }
      eat(',');
    }
    return true;
  }

 private:
  void ws() {
    while (p_ < s_.size() && (s_[p_] == ' ' || s_[p_] == '\t')) ++p_;
  }
  bool eat(char c) {
    ws();
    if (p_ < s_.size() && s_[p_] == c) return ++p_, true;
    return false;
  }
  bool str(std::string& out) {
    if (!eat('"')) return false;
    while (p_ < s_.size() && s_[p_] != '"') {
      char c = s_[p_++];
      if (c == '\\' && p_ < s_.size()) {
        c = s_[p_++];
        if (c == 'u' && p_ + 4 <= s_.size()) {
          const unsigned cp = static_cast<unsigned>(std::stoul(s_.substr(p_, 4), nullptr, 16));
          p_ += 4;
          if (cp < 0x80) {
            out += static_cast<char>(cp);
          } else if (cp < 0x800) {
            out += static_cast<char>(0xC0 | (cp >> 6));
            out += static_cast<char>(0x80 | (cp & 0x3F));
          } else {
            out += static_cast<char>(0xE0 | (cp >> 12));
            out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (cp & 0x3F));
          }
          continue;
        }
        if (c == 'n') c = '\n';
      }
      out += c;
    }
    return eat('"');
  }
  bool value(std::string& out) {
    ws();
    if (p_ < s_.size() && s_[p_] == '"') {
      std::string v;
      if (!str(v)) return false;
      out = "\"" + v + "\"";
      return true;
    }
    const size_t start = p_;
    while (p_ < s_.size() && s_[p_] != ',' && s_[p_] != '}') ++p_;
    std::string raw = s_.substr(start, p_ - start);
    while (!raw.empty() && raw.back() == ' ') raw.pop_back();
    if (raw == "true" || raw == "false" || raw == "null") {
      out = raw;
      return true;
    }
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.10g", std::stod(raw));
    out = buf;
    return true;
  }
  const std::string& s_;
  size_t p_ = 0;
};

std::vector<Example> load(const std::string& path) {
  std::vector<Example> out;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    Example ex;
    if (Reader(line).object(ex)) out.push_back(std::move(ex));
    else ADD_FAILURE() << "unreadable line in " << path << ": " << line;
  }
  return out;
}

std::map<std::string, std::string> slotsOf(const si::IntentMatch& m) {
  std::map<std::string, std::string> out;
  for (size_t i = 0; i < m.slotCount; ++i) {
    const auto& v = m.slots[i].value;
    if (v.kind == si::SlotValue::Kind::text) {
      out[std::string(m.slots[i].name)] = "\"" + std::string(v.view()) + "\"";
    } else {
      char buf[40];
      std::snprintf(buf, sizeof buf, "%.10g", v.number);
      out[std::string(m.slots[i].name)] = buf;
    }
  }
  return out;
}

struct Scores {
  size_t n = 0, intentOk = 0, slotOk = 0, none = 0, noneFalse = 0, intents = 0, missed = 0;
  double intentAccuracy() const { return n ? double(intentOk) / n : 0; }
  double slotAccuracy() const { return n ? double(slotOk) / n : 0; }
  double noneFalseRate() const { return none ? double(noneFalse) / none : 0; }
};

Scores evaluate(const std::vector<Example>& data, const std::string& label) {
  auto cat = si::Catalogue::loadFile(std::string(SOTTO_SOURCE_DIR) + "/config/intents.xml");
  EXPECT_TRUE(cat.ok());
  Scores s;
  if (!cat.ok()) return s;
  const si::Matcher matcher(std::move(*cat));
  si::MatchWorkspace ws;
  si::IntentMatch m;
  int shown = 0;
  for (const auto& ex : data) {
    matcher.match(ex.text, ws, m);
    ++s.n;
    const bool intentOk = ex.intent == m.name;
    s.intentOk += intentOk;
    const bool slotsOk = intentOk && slotsOf(m) == ex.slots;
    s.slotOk += slotsOk;
    if (ex.intent == "none") {
      ++s.none;
      s.noneFalse += m.name != "none";
    }
    if (!slotsOk && shown++ < 15) {
      std::printf("  [%s] miss: \"%s\" expected %s, got %s\n", label.c_str(), ex.text.c_str(), ex.intent.c_str(),
                  std::string(m.name).c_str());
    }
  }
  std::printf("[%s] %zu lines: intent accuracy %.4f, slot accuracy %.4f, none false-intent rate %.4f (%zu/%zu)\n",
              label.c_str(), s.n, s.intentAccuracy(), s.slotAccuracy(), s.noneFalseRate(), s.noneFalse, s.none);
  return s;
}

}  // namespace

TEST(Regression, DevSet) {
  const auto data = load(std::string(SOTTO_SOURCE_DIR) + "/../shared/data/intents-dev.jsonl");
  ASSERT_EQ(data.size(), 1500u);
  const Scores s = evaluate(data, "dev");
  EXPECT_GE(s.intentAccuracy(), 0.95);
  EXPECT_LE(s.noneFalseRate(), 0.02);
  EXPECT_GE(s.slotAccuracy(), 0.95);
}

TEST(Regression, HeldOutStyleSet) {
  const auto data = load(std::string(SOTTO_SOURCE_DIR) + "/tests/intents/data/intents-heldout.jsonl");
  ASSERT_GE(data.size(), 150u);
  const Scores s = evaluate(data, "held-out");
  EXPECT_GE(s.intentAccuracy(), 0.95);
  EXPECT_LE(s.noneFalseRate(), 0.02);
  EXPECT_GE(s.slotAccuracy(), 0.95);
}
