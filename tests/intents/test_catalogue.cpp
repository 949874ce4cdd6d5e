// SPDX-License-Identifier: MIT
// The intent catalogue: the shipped file loads, every problem is reported as file:line, and the JSGF export is
// well-formed (balanced groups, every referenced rule defined, one public rule).
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

#include "engine/intents/catalogue.h"

namespace si = sotto::intents;

namespace {

const std::string kShipped = std::string(SOTTO_SOURCE_DIR) + "/config/intents.xml";

std::string errorOf(const std::string& xml) {
  auto r = si::Catalogue::parse(xml, "t.xml");
  return r.ok() ? "ok" : r.error().message;
}

// A minimal valid catalogue around one intent body.
std::string wrap(const std::string& body) {
  return "<?xml version=\"1.0\"?>\n<catalogue version=\"1\">\n" + body + "\n</catalogue>\n";
}

}  // namespace

TEST(Catalogue, ShippedFileLoads) {
  auto cat = si::Catalogue::loadFile(kShipped);
  ASSERT_TRUE(cat.ok()) << cat.error().message;
  const char* expected[] = {"time.query",   "date.query",  "timer.query",  "timer.set",       "timer.cancel",
                            "alarm.set",    "volume.up",   "volume.down",  "volume.mute",     "volume.set",
                            "stop",         "repeat",      "privacy.offline", "privacy.online", "weather.query",
                            "convert.units", "math.compute", "alarm.cancel", "alarm.query"};
  EXPECT_EQ(cat->intents().size(), std::size(expected));
  for (const char* name : expected) EXPECT_GE(cat->intentIndex(name), 0) << name;
  EXPECT_GT(cat->patterns().size(), 100u);
  EXPECT_DOUBLE_EQ(cat->minConfidence(), 0.5);
}

// Whether a command changes the device decides whether an unsure reading of it is asked again: "stop" and every
// name without ".query" do unless the catalogue says otherwise; a query only reads.
TEST(Catalogue, ChangesStateFromAttributeOrName) {
  auto cat = si::Catalogue::loadFile(kShipped);
  ASSERT_TRUE(cat.ok()) << cat.error().message;
  auto changes = [&](const char* name) {
    return cat->intents()[static_cast<size_t>(cat->intentIndex(name))].changesState;
  };
  for (const char* name : {"stop", "timer.set", "timer.cancel", "alarm.cancel", "volume.mute", "privacy.online"}) {
    EXPECT_TRUE(changes(name)) << name;
  }
  for (const char* name : {"time.query", "weather.query", "repeat", "math.compute", "convert.units"}) {
    EXPECT_FALSE(changes(name)) << name;
  }
  auto parsed = si::Catalogue::parse(wrap("<intent name=\"lights.query\" changes-state=\"true\"><phrase>lights</phrase>"
                                          "</intent>\n<intent name=\"joke\" changes-state=\"false\"><phrase>joke"
                                          "</phrase></intent>\n<intent name=\"lights.on\"><phrase>light on</phrase>"
                                          "</intent>"),
                                     "t.xml");
  ASSERT_TRUE(parsed.ok()) << parsed.error().message;
  EXPECT_TRUE(parsed->intents()[0].changesState);
  EXPECT_FALSE(parsed->intents()[1].changesState);
  EXPECT_TRUE(parsed->intents()[2].changesState);
  EXPECT_EQ(errorOf(wrap("<intent name=\"a\" changes-state=\"maybe\"><phrase>a</phrase></intent>")),
            "t.xml:3: changes-state=\"maybe\" must be true or false");
}

// An intent that is worse to mishear asks for more certainty than asr.clarify-below.
TEST(Catalogue, IntentClarifyBelow) {
  auto cat = si::Catalogue::loadFile(kShipped);
  ASSERT_TRUE(cat.ok()) << cat.error().message;
  EXPECT_DOUBLE_EQ(cat->intents()[static_cast<size_t>(cat->intentIndex("privacy.online"))].clarifyBelow, 0.9);
  EXPECT_DOUBLE_EQ(cat->intents()[static_cast<size_t>(cat->intentIndex("privacy.offline"))].clarifyBelow, 0.0);
  EXPECT_EQ(errorOf(wrap("<intent name=\"a\" clarify-below=\"1.5\"><phrase>a</phrase></intent>")),
            "t.xml:3: clarify-below \"1.5\" is not a number in [0, 1]");
  EXPECT_EQ(errorOf(wrap("<intent name=\"a\" clarify-below=\"high\"><phrase>a</phrase></intent>")),
            "t.xml:3: clarify-below \"high\" is not a number in [0, 1]");
}

// The one ask-again rule the brain and `sotto listen` share.
TEST(Catalogue, AsksAgain) {
  si::IntentSpec timer;
  timer.name = "timer.set";
  si::IntentSpec query;
  query.name = "time.query";
  query.changesState = false;
  si::IntentSpec online;
  online.name = "privacy.online";
  online.clarifyBelow = 0.9;
  EXPECT_TRUE(si::asksAgain(&timer, 0.7, 0.8, false, false));
  EXPECT_FALSE(si::asksAgain(&timer, 0.85, 0.8, false, false));
  EXPECT_TRUE(si::asksAgain(&online, 0.85, 0.8, false, false));  // its own threshold is higher
  EXPECT_FALSE(si::asksAgain(&online, 0.95, 0.8, false, false));
  EXPECT_FALSE(si::asksAgain(&query, 0.1, 0.8, true, false));     // a query is answered
  EXPECT_TRUE(si::asksAgain(nullptr, 0.5, 0.8, true, false));     // unsure of no command, from speech
  EXPECT_FALSE(si::asksAgain(nullptr, 0.5, 0.8, false, false));   // typed
  EXPECT_TRUE(si::asksAgain(&timer, 1.0, 0.8, false, true));      // the turn did not end in silence
  EXPECT_FALSE(si::asksAgain(&query, 1.0, 0.8, true, true));
  EXPECT_FALSE(si::asksAgain(&timer, 0.1, 0.0, true, true));      // asking again is off
}

TEST(Catalogue, MissingFile) {
  auto r = si::Catalogue::loadFile("/nonexistent/intents.xml");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, sotto::Errc::not_found);
  EXPECT_NE(r.error().message.find("/nonexistent/intents.xml"), std::string::npos);
}

TEST(Catalogue, MalformedXmlNamesTheLine) {
  const std::string e = errorOf("<?xml version=\"1.0\"?>\n<catalogue version=\"1\">\n<intent name=\"a\">\n</catalogue>\n");
  EXPECT_EQ(e.rfind("t.xml:", 0), 0u) << e;
  EXPECT_NE(e.find("malformed XML"), std::string::npos) << e;
}

TEST(Catalogue, ProblemsCarryFileAndLine) {
  EXPECT_EQ(errorOf("<?xml version=\"1.0\"?>\n<intents/>\n"),
            "t.xml:2: the root element must be <catalogue version=\"1\">");
  EXPECT_EQ(errorOf("<catalogue version=\"2\"><intent name=\"x\"><phrase>x</phrase></intent></catalogue>"),
            "t.xml:1: unsupported version \"2\" (this build reads version 1)");
  EXPECT_EQ(errorOf(wrap("<intent name=\"a\">\n<phrase>go (left | right</phrase>\n</intent>")),
            "t.xml:4: phrase \"go (left | right\": missing ')'");
  EXPECT_EQ(errorOf(wrap("<intent name=\"a\">\n<phrase>what's up</phrase>\n</intent>")).rfind("t.xml:4: phrase", 0), 0u);
  EXPECT_EQ(errorOf(wrap("<intent name=\"a\">\n<phrase>set {x}</phrase>\n</intent>")),
            "t.xml:4: phrase uses {x}, which intent \"a\" does not declare");
  EXPECT_EQ(errorOf(wrap("<intent name=\"a\">\n<slot name=\"d\" type=\"duration\" required=\"true\"/>\n"
                         "<phrase>timer [for {d}]</phrase>\n</intent>")),
            "t.xml:5: phrase \"timer [for {d}]\" can match without required slot {d}");
  EXPECT_EQ(errorOf(wrap("<intent name=\"a\">\n<slot name=\"d\" type=\"colour\"/>\n<phrase>x</phrase>\n</intent>"))
                .rfind("t.xml:4: unknown slot type \"colour\"", 0),
            0u);
  EXPECT_EQ(errorOf(wrap("<intent name=\"none\">\n<phrase>x</phrase>\n</intent>")),
            "t.xml:3: intent name \"none\" is reserved (it means: no intent matched)");
  EXPECT_EQ(errorOf(wrap("<intent name=\"a\"><phrase>x</phrase></intent>\n<intent name=\"a\"><phrase>y</phrase></intent>")),
            "t.xml:4: intent \"a\" is declared twice");
  EXPECT_EQ(errorOf(wrap("<intent name=\"a\" colour=\"red\"><phrase>x</phrase></intent>")),
            "t.xml:3: unknown attribute 'colour' on <intent>");
  EXPECT_EQ(errorOf(wrap("<intent name=\"a\">\n<slot name=\"r\" type=\"result\"/>\n<phrase>x</phrase>\n</intent>")),
            "t.xml:3: slot \"r\" of type result needs source=\"<expression slot>\"");
  EXPECT_EQ(errorOf(wrap("<intent name=\"a\"></intent>")), "t.xml:3: intent \"a\" has no <phrase>");
  EXPECT_EQ(errorOf(wrap("<lexicon type=\"time\">x</lexicon><intent name=\"a\"><phrase>x</phrase></intent>")),
            "t.xml:3: <lexicon> needs type=\"label\" or type=\"place\"");
}

TEST(Catalogue, ExpansionLimit) {
  const std::string e = errorOf(
      wrap("<intent name=\"a\"><phrase>(a|b) (c|d) (e|f) (g|h) (i|j) (k|l) (m|n) (o|p) (q|r) (s|t)</phrase></intent>"));
  EXPECT_NE(e.find("t.xml:3:"), std::string::npos) << e;
  EXPECT_NE(e.find("expands to more than 512"), std::string::npos) << e;
}

// Issue 36: the phrase parser recursed once per bracket, and a phrase nested 50,000 deep crashed sotto intent. A
// clear error instead, naming the file and line; sixteen levels still parse.
TEST(Catalogue, DeepNestingIsAClearErrorNotACrash) {
  for (const char open : {'(', '['}) {
    const char close = open == '(' ? ')' : ']';
    const std::string deep = std::string(50000, open) + "x" + std::string(50000, close);
    const std::string e = errorOf(wrap("<intent name=\"a\"><phrase>" + deep + "</phrase></intent>"));
    EXPECT_NE(e.find("t.xml:3:"), std::string::npos) << e.substr(0, 200);
    EXPECT_NE(e.find("nested more than 16 deep"), std::string::npos) << e.substr(0, 200);
    const std::string sixteen = std::string(16, open) + "x" + std::string(16, close);
    EXPECT_EQ(errorOf(wrap("<intent name=\"a\"><phrase>" + sixteen + " y</phrase></intent>")), "ok");
  }
  // Unbalanced, deep: the same limit, no crash.
  EXPECT_NE(errorOf(wrap("<intent name=\"a\"><phrase>" + std::string(50000, '(') + "</phrase></intent>"))
                .find("nested more than"),
            std::string::npos);
}

TEST(Catalogue, EveryProblemIsReportedInLineOrder) {
  const std::string e = errorOf(wrap("<intent name=\"a\">\n<phrase>x {y}</phrase>\n</intent>\n<bogus/>\n"
                                     "<intent name=\"b\">\n<phrase>]</phrase>\n</intent>"));
  const size_t l4 = e.find("t.xml:4:"), l6 = e.find("t.xml:6:"), l8 = e.find("t.xml:8:");
  ASSERT_NE(l4, std::string::npos) << e;
  ASSERT_NE(l6, std::string::npos) << e;
  ASSERT_NE(l8, std::string::npos) << e;
  EXPECT_LT(l4, l6);
  EXPECT_LT(l6, l8);
}

TEST(Catalogue, HomophonesShareAClass) {
  auto cat = si::Catalogue::loadFile(kShipped);
  ASSERT_TRUE(cat.ok());
  EXPECT_EQ(cat->wordClass("two"), cat->wordClass("to"));
  EXPECT_EQ(cat->wordClass("four"), cat->wordClass("for"));
  EXPECT_EQ(cat->wordClass("whether"), cat->wordClass("weather"));
  EXPECT_EQ(cat->wordClass("uh"), cat->wordClass("a"));
  EXPECT_NE(cat->wordClass("weather"), -1);
  EXPECT_EQ(cat->wordClass("xylophone"), -1);
}

// A small JSGF checker: header, rule definitions "<name> = body ;", balanced ( ) [ ], tokens that are words or
// rule references, every reference defined (or a JSGF special rule), exactly one public rule.
TEST(Grammar, ExportIsWellFormedJsgf) {
  auto cat = si::Catalogue::loadFile(kShipped);
  ASSERT_TRUE(cat.ok());
  const std::string g = cat->grammar();
  ASSERT_EQ(g.rfind("#JSGF V1.0;\n", 0), 0u);
  ASSERT_NE(g.find("\ngrammar sotto.intents;\n"), std::string::npos);
  const size_t bodyStart = g.find("grammar sotto.intents;") + 22;
  std::map<std::string, std::string> rules;
  int publicRules = 0;
  size_t pos = bodyStart;
  for (;;) {
    const size_t semi = g.find(';', pos);
    if (semi == std::string::npos) break;
    std::string def = g.substr(pos, semi - pos);
    pos = semi + 1;
    const size_t first = def.find_first_not_of(" \n");
    if (first == std::string::npos) continue;
    def = def.substr(first);
    if (def.rfind("public ", 0) == 0) {
      ++publicRules;
      def = def.substr(7);
    }
    const size_t eq = def.find(" = ");
    ASSERT_NE(eq, std::string::npos) << def;
    const std::string name = def.substr(0, eq);
    ASSERT_TRUE(name.size() > 2 && name.front() == '<' && name.back() == '>') << name;
    EXPECT_EQ(rules.count(name), 0u) << "rule defined twice: " << name;
    rules[name] = def.substr(eq + 3);
  }
  EXPECT_EQ(publicRules, 1);
  ASSERT_TRUE(rules.count("<command>"));
  EXPECT_TRUE(rules.count("<timer_set>"));
  EXPECT_TRUE(rules.count("<duration>"));
  const std::set<std::string> special = {"<NULL>", "<VOID>"};
  for (const auto& [name, body] : rules) {
    int paren = 0, bracket = 0;
    size_t i = 0;
    while (i < body.size()) {
      const char c = body[i];
      if (c == '(') ++paren;
      if (c == ')') --paren;
      if (c == '[') ++bracket;
      if (c == ']') --bracket;
      ASSERT_GE(paren, 0) << name;
      ASSERT_GE(bracket, 0) << name;
      if (c == '<') {
        const size_t end = body.find('>', i);
        ASSERT_NE(end, std::string::npos) << name;
        const std::string ref = body.substr(i, end - i + 1);
        EXPECT_TRUE(rules.count(ref) || special.count(ref)) << name << " references undefined " << ref;
        i = end + 1;
        continue;
      }
      const bool ok = (c >= 'a' && c <= 'z') || c == ' ' || c == '\n' || c == '(' || c == ')' || c == '[' ||
                      c == ']' || c == '|' || c == '+' || c == '*';
      EXPECT_TRUE(ok) << name << ": unexpected '" << c << "' in " << body;
      ++i;
    }
    EXPECT_EQ(paren, 0) << name;
    EXPECT_EQ(bracket, 0) << name;
  }
  // Every intent appears in the public rule.
  for (const auto& intent : cat->intents()) {
    std::string rule = "<" + intent.name + ">";
    for (char& c : rule) c = c == '.' ? '_' : c;
    EXPECT_NE(rules["<command>"].find(rule), std::string::npos) << rule;
  }
}
