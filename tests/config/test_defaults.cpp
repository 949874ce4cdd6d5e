// SPDX-License-Identifier: MIT
// The settings table, defaults(), the default file config/sotto.xml and the committed settings reference.
#include <algorithm>

#include <gtest/gtest.h>
#include <tinyxml2.h>

#include "app/config/settings.h"
#include "app/config/value_codec.h"
#include "sotto/hal/log.h"
#include "test_util.h"

namespace sotto::config {
namespace {

using test::formatted;

TEST(Table, EveryDefaultParsesAndIsCanonical) {
  const Config d = defaults();
  for (const Setting& s : settings()) {
    Config c = defaults();
    EXPECT_EQ(detail::assign(s, s.defaultText, c), std::nullopt) << s.path;
    EXPECT_EQ(detail::render(s, d), s.defaultText) << s.path;  // the reference shows what toXml writes
  }
}

TEST(Table, DefaultsPassTheRules) {
  const LoadResult r = loadString("<sotto version=\"1\"/>", "empty-root.xml");
  ASSERT_TRUE(r.config) << ::testing::PrintToString(formatted(r));
  EXPECT_EQ(*r.config, defaults());
}

TEST(Table, EntriesAreDocumented) {
  for (const Setting& s : settings()) {
    const bool lowercasePath = std::all_of(s.path.begin(), s.path.end(), [](char c) {
      return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '-';
    });
    EXPECT_TRUE(lowercasePath) << s.path;
    EXPECT_FALSE(s.description.empty()) << s.path;
    EXPECT_EQ(s.description.find('\n'), std::string_view::npos) << s.path;
    EXPECT_TRUE(s.description.ends_with('.')) << s.path;
    if (s.type == ValueType::unsignedInt || s.type == ValueType::signedInt) {
      EXPECT_FALSE(s.unit.empty()) << s.path << ": numbers say what they count";
      EXPECT_LT(s.min, s.max) << s.path;
    }
    if (s.type == ValueType::text || s.type == ValueType::path || s.type == ValueType::url) {
      EXPECT_GT(s.maxLength, 0u) << s.path;
    }
  }
  EXPECT_EQ(findSetting("audio.capture.rate"), &settings()[2]);
  EXPECT_EQ(findSetting("audio.capture"), nullptr);
  EXPECT_EQ(findSetting(""), nullptr);
}

TEST(Table, LogLevelsAreTheLoggersNames) {
  // The daemon hands log.level to sotto::log::parseLevel: the two lists must not drift apart.
  const Setting& level = *findSetting("log.level");
  for (std::string_view name : level.choices) {
    log::Level parsed{};
    EXPECT_TRUE(log::parseLevel(name, parsed)) << name;
    EXPECT_EQ(log::levelName(parsed), name);
  }
  for (log::Level l :
       {log::Level::error, log::Level::warning, log::Level::notice, log::Level::info, log::Level::debug}) {
    EXPECT_NE(std::find(level.choices.begin(), level.choices.end(), log::levelName(l)), level.choices.end())
        << log::levelName(l);
  }
}

TEST(Table, PrivacyModeNames) {
  EXPECT_STREQ(privacy::privacyModeName(privacy::PrivacyMode::offline), "offline");
  EXPECT_STREQ(privacy::privacyModeName(privacy::PrivacyMode::private_), "private");
  EXPECT_STREQ(privacy::privacyModeName(privacy::PrivacyMode::standard), "standard");
  EXPECT_EQ(defaults().privacy, privacy::PrivacyMode::private_);
}

TEST(DefaultFile, ValidatesToTheDefaults) {
  const LoadResult r = loadFile(test::sourcePath("config/sotto.xml"));
  ASSERT_TRUE(r.config) << ::testing::PrintToString(formatted(r));
  EXPECT_EQ(*r.config, defaults());
  // Until the product chooses its devices the image must start without audio hardware.
  EXPECT_EQ(r.config->capture.backend, "null");
  EXPECT_EQ(r.config->playback.backend, "null");
}

TEST(DefaultFile, SpellsOutEverySetting) {
  // Integrators edit this file: a setting missing from it is a setting they will not find.
  tinyxml2::XMLDocument doc;
  ASSERT_EQ(doc.LoadFile(test::sourcePath("config/sotto.xml").c_str()), tinyxml2::XML_SUCCESS);
  for (const Setting& s : settings()) {
    const tinyxml2::XMLElement* e = doc.FirstChildElement("sotto");
    std::string_view rest = s.path;
    for (std::size_t dot = rest.find('.'); e != nullptr && dot != std::string_view::npos; dot = rest.find('.')) {
      e = e->FirstChildElement(std::string(rest.substr(0, dot)).c_str());
      rest.remove_prefix(dot + 1);
    }
    EXPECT_TRUE(e != nullptr && e->FindAttribute(std::string(rest).c_str()) != nullptr)
        << s.path << " is missing from config/sotto.xml";
  }
}

TEST(Reference, CommittedFileIsUpToDate) {
  const std::string committed = test::readFile(test::sourcePath("config/settings-reference.md"));
  const std::string generated = referenceMarkdown();
  if (committed == generated) return;
  // Name the first line that differs rather than print both documents.
  std::size_t line = 1, i = 0;
  while (i < committed.size() && i < generated.size() && committed[i] == generated[i]) {
    if (committed[i] == '\n') ++line;
    ++i;
  }
  const auto lineAt = [](const std::string& text, std::size_t at) {
    const std::size_t start = text.rfind('\n', at == 0 ? 0 : at - 1);
    const std::size_t begin = start == std::string::npos || at == 0 ? 0 : start + 1;
    return text.substr(begin, text.find('\n', begin) - begin);
  };
  ADD_FAILURE() << "config/settings-reference.md is stale (first difference on line " << line
                << "): run `cmake --build <build dir> --target config-reference` and commit the result\n"
                << "  committed: " << lineAt(committed, i) << "\n  generated: " << lineAt(generated, i);
}

TEST(Reference, MentionsEverySettingAndRule) {
  const std::string reference = referenceMarkdown();
  for (const Setting& s : settings()) {
    EXPECT_NE(reference.find("| `" + std::string(s.path) + "` |"), std::string::npos) << s.path;
  }
  for (const Rule& r : rules()) EXPECT_NE(reference.find(std::string(r.why)), std::string::npos) << r.why;
  EXPECT_NE(reference.find("| `audio.capture.rate` | unsigned | `16000` | 8000 to 48000 | Hz | "), std::string::npos);
}

}  // namespace
}  // namespace sotto::config
