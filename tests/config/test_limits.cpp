// SPDX-License-Identifier: MIT
// Hostile configs: an element with 100,000 attributes (tinyxml2 compares them pairwise: minutes) is refused at once
// with a clear problem; character references that name no XML character (&#0;, surrogates, beyond U+10FFFF) are
// refused instead of being cut or dropped by tinyxml2.
#include <gtest/gtest.h>

#include <chrono>

#include "app/config/config.h"
#include "tests/config/test_util.h"

namespace sotto::config {
namespace {

using test::formatted;
using test::sottoXml;

// Short distinct names: 100,000 of them stay under the 1 MiB file limit.
std::string limitsAttributes(int count, int distinct) {
  std::string out;
  for (int i = 0; i < count; ++i) {
    int n = i % distinct;
    std::string name;
    do {
      name.insert(name.begin(), "0123456789abcdefghijklmnopqrstuvwxyz"[n % 36]);
      n /= 36;
    } while (n > 0);
    out += " a" + name + "=\"\"";
  }
  return out;
}

double limitsSeconds(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

TEST(Limits, AHundredThousandAttributesAreRefusedAtOnce) {
  for (const int distinct : {100000, 99999}) {  // all different; one duplicate at the very end
    const std::string xml = sottoXml("<router" + limitsAttributes(100000, distinct) + "/>");
    ASSERT_LT(xml.size(), kMaxFileBytes);
    const auto t0 = std::chrono::steady_clock::now();
    const LoadResult r = loadString(xml, "wide.xml");
    const double s = limitsSeconds(t0);
    EXPECT_FALSE(r.config);
    EXPECT_EQ(formatted(r), std::vector<std::string>{"wide.xml:2: <router> has more than 64 attributes (no element "
                                                     "takes that many): the file is not read further"});
    EXPECT_LT(s, 5.0) << "before: minutes (quadratic)";
  }
}

TEST(Limits, AttributeCountAtTheLimitIsStillReadNormally) {
  // 64 unknown attributes: read, each named (the problems are capped at 100).
  const LoadResult at = loadString(sottoXml("<router" + limitsAttributes(64, 64) + "/>"), "at.xml");
  EXPECT_FALSE(at.config);
  ASSERT_FALSE(at.problems.empty());
  EXPECT_NE(at.problems[0].message.find("unknown attribute 'a0'"), std::string::npos) << at.problems[0].format();
  const LoadResult over = loadString(sottoXml("<router" + limitsAttributes(65, 65) + "/>"), "over.xml");
  ASSERT_EQ(over.problems.size(), 1u);
  EXPECT_NE(over.problems[0].message.find("more than 64 attributes"), std::string::npos);
  // Duplicates are still named, found without comparing every pair.
  const LoadResult dup = loadString(sottoXml(R"(<log level="info" level="debug"/>)"), "dup.xml");
  EXPECT_EQ(formatted(dup), std::vector<std::string>{"dup.xml:2: log.level: duplicate attribute 'level' in <log>"});
}

TEST(Limits, CharacterReferencesMustNameXmlCharacters) {
  // Before: &#0; cut the value ("/tmp/a", accepted) and &#99999999999; vanished ("/tmp/ab", accepted).
  for (const char* bad : {"&#0;", "&#x0;", "&#x00000;", "&#1;", "&#x1F;", "&#xD800;", "&#xDFFF;", "&#55296;",
                          "&#x110000;", "&#1114112;", "&#99999999999;", "&#xFFFFFFFFFFFF;", "&#xFFFE;", "&#12",
                          "&#x;", "&#;", "&#12a;"}) {
    const std::string xml = sottoXml(std::string("<paths\n state-dir=\"/tmp/a") + bad + "b\"/>");
    const LoadResult r = loadString(xml, "ref.xml");
    EXPECT_FALSE(r.config) << bad;
    ASSERT_EQ(r.problems.size(), 1u) << bad;
    EXPECT_EQ(r.problems[0].line, 3) << bad;
    EXPECT_NE(r.problems[0].message.find("names no XML character"), std::string::npos) << r.problems[0].format();
  }
  // In element text too (before the loader's own "text is not allowed" problem).
  const LoadResult text = loadString(sottoXml("<log>&#0;</log>"), "text.xml");
  ASSERT_EQ(text.problems.size(), 1u);
  EXPECT_EQ(text.problems[0].format(),
            "text.xml:2: character reference '&#0;' names no XML character (&#0;, other control characters, "
            "surrogates D800-DFFF and values beyond 10FFFF are not allowed; a reference ends with ';')");
  // Real characters stay fine, at both ends of the ranges.
  const LoadResult ok = loadString(
      sottoXml(R"(<audio><capture device="a&#x41;&#65;&#xE000;&#x1F600;&#x10FFFF;b"/></audio>)"), "ok.xml");
  ASSERT_TRUE(ok.config) << ::testing::PrintToString(formatted(ok));
  EXPECT_EQ(ok.config->capture.device, "aAA\xEE\x80\x80\xF0\x9F\x98\x80\xF4\x8F\xBF\xBF" "b");
  // A reference inside a comment or CDATA is not one.
  EXPECT_TRUE(loadString("<!-- &#0; -->\n" + sottoXml(""), "c.xml").config);
}

}  // namespace
}  // namespace sotto::config
