// SPDX-License-Identifier: MIT
// pruneGrammar() on hand-written JSGF, and the intent catalogue's grammar accepted by pocketsphinx's FSG search.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "engine/intents/catalogue.h"
#include "engine/speech/asr.h"
#include "engine/speech/jsgf.h"
#include "engine/speech/wake.h"

namespace sotto::speech {
namespace {

const std::string kHeader = "#JSGF V1.0;\n\ngrammar t.g;\n";

std::string prune(const std::string& rules, const std::set<std::string>& unknown) {
  auto r = pruneGrammar(kHeader + rules, [&](std::string_view w) { return !unknown.count(std::string(w)); });
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
  if (!r.ok()) return {};
  const std::string out = r.value();
  EXPECT_EQ(out.rfind(kHeader, 0), 0u) << "the header is kept";
  return out.substr(kHeader.size());
}

TEST(PruneGrammar, KeepsAGrammarWithoutUnknownWords) {
  EXPECT_EQ(prune("public <a> = ( set | start ) [ a ] timer <b>+;\n<b> = five {5} | /2/ ten;", {}),
            "public <a> = ( set | start ) [ a ] timer <b>+;\n<b> = five {5} | /2/ ten;\n");
}

TEST(PruneGrammar, DropsTheAlternativesHoldingAnUnknownWord) {
  EXPECT_EQ(prune("public <a> = ( solve | quick maths | quick math ) it;", {"maths"}),
            "public <a> = ( solve | quick math ) it;\n");
  EXPECT_EQ(prune("public <u> = kg | kilogram | kgs;", {"kg", "kgs"}), "public <u> = kilogram;\n");
}

TEST(PruneGrammar, OptionalsAndStarsAroundNothingSayableVanish) {
  EXPECT_EQ(prune("public <t> = <n> [ oclock ] now ( oclock )* ;\n<n> = one;", {"oclock"}),
            "public <t> = <n> now;\n<n> = one;\n");
  EXPECT_EQ(prune("public <t> = ( [ oclock ] | go );", {"oclock"}), "public <t> = ( <NULL> | go );\n");
}

TEST(PruneGrammar, ARuleWithNothingSayableTakesItsReferencesWithIt) {
  EXPECT_EQ(prune("public <c> = <math> | time please;\n<math> = maths <x>;\n<x> = one;", {"maths"}),
            "public <c> = time please;\n<x> = one;\n");
  EXPECT_EQ(prune("public <c> = <VOID> | go;", {}), "public <c> = go;\n");
}

TEST(PruneGrammar, RejectsMalformedGrammarsAndAllUnsayable) {
  auto known = [](std::string_view w) { return w != "x"; };
  EXPECT_FALSE(pruneGrammar("public <a> = b;", known).ok()) << "no grammar declaration";
  EXPECT_FALSE(pruneGrammar(kHeader + "public <a> = ( b ;", known).ok());
  EXPECT_FALSE(pruneGrammar(kHeader + "public <a> = b", known).ok());
  EXPECT_FALSE(pruneGrammar(kHeader + "<a> b;", known).ok());
  EXPECT_FALSE(pruneGrammar(kHeader + "public <a> = x;", known).ok()) << "nothing sayable";
}

TEST(CatalogueGrammar, LoadsIntoPocketsphinxsFsgSearch) {
  auto catalogue = intents::Catalogue::loadFile(std::string(SOTTO_SOURCE_DIR) + "/config/intents.xml");
  ASSERT_TRUE(catalogue.ok()) << catalogue.error().message;
  AsrConfig c;
  c.acousticModel = "/usr/share/pocketsphinx/model/en-us/en-us";
  c.dictionary = "/usr/share/pocketsphinx/model/en-us/cmudict-en-us.dict";
  c.grammar = catalogue.value().grammar();
  auto r = Recognizer::create(c);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_TRUE(r.value()->hasGrammar());
  EXPECT_FALSE(r.value()->hasLanguageModel());

  // A decoder is needed to know which words are missing; the raw catalogue grammar is refused.
  c.grammar = "#JSGF V1.0;\ngrammar g;\npublic <a> = <b>;\n<b> = zzzqx;";
  auto bad = Recognizer::create(c);
  EXPECT_FALSE(bad.ok());
}

TEST(WakeSpotter, CustomWordsNeedAValidPronunciation) {
  WakeConfig c;
  c.acousticModel = "/usr/share/pocketsphinx/model/en-us/en-us";
  c.dictionary = "/usr/share/pocketsphinx/model/en-us/cmudict-en-us.dict";
  c.phrase = "hey sottovoce";
  auto missing = WakeSpotter::create(c);
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find("sottovoce"), std::string::npos) << missing.error().message;
  c.pronunciation = "SOTTOVOCE S AA T OW V OW CH EY";
  auto ok = WakeSpotter::create(c);
  EXPECT_TRUE(ok.ok()) << (ok.ok() ? "" : ok.error().message);
  c.pronunciation = "SOTTOVOCE S QQ T OW";  // QQ is no phone of the model
  EXPECT_FALSE(WakeSpotter::create(c).ok());
  c.pronunciation = "SOTTOVOCE";  // no phones at all
  EXPECT_FALSE(WakeSpotter::create(c).ok());
  c = {};
  c.acousticModel = "/nonexistent/model";
  c.dictionary = "/usr/share/pocketsphinx/model/en-us/cmudict-en-us.dict";
  auto noModel = WakeSpotter::create(c);
  ASSERT_FALSE(noModel.ok());
  EXPECT_EQ(noModel.error().code, Errc::not_found);
}

}  // namespace
}  // namespace sotto::speech
