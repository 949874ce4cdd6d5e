// SPDX-License-Identifier: MIT
// pruneGrammar() on hand-written JSGF, and the intent catalogue's grammar accepted by pocketsphinx's FSG search.
#include <gtest/gtest.h>
#include <pocketsphinx.h>
#include <sphinxbase/ckd_alloc.h>
#include <sphinxbase/fsg_model.h>
#include <sphinxbase/jsgf.h>

#include <algorithm>
#include <cctype>
#include <limits>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "engine/intents/catalogue.h"
#include "engine/speech/asr.h"
#include "engine/speech/jsgf.h"
#include "engine/speech/sphinx.h"
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

// The best weight of any path from start to final reading exactly `words` (null arcs read nothing), or INT64_MIN
// when none does: Viterbi over positions, nulls relaxed until nothing improves (their weights are <= 0).
int64_t bestWeight(const FsgGraph& g, const std::vector<int32_t>& words) {
  constexpr int64_t kNone = std::numeric_limits<int64_t>::min();
  std::vector<int64_t> at(static_cast<size_t>(g.states), kNone);
  at[static_cast<size_t>(g.start)] = 0;
  auto closeNulls = [&] {
    for (bool changed = true; changed;) {
      changed = false;
      for (const FsgArc& a : g.arcs) {
        if (a.word >= 0 || at[static_cast<size_t>(a.from)] == kNone) continue;
        const int64_t v = at[static_cast<size_t>(a.from)] + a.logp;
        if (v > at[static_cast<size_t>(a.to)]) at[static_cast<size_t>(a.to)] = v, changed = true;
      }
    }
  };
  closeNulls();
  for (int32_t w : words) {
    std::vector<int64_t> next(at.size(), kNone);
    for (const FsgArc& a : g.arcs) {
      if (a.word != w || at[static_cast<size_t>(a.from)] == kNone) continue;
      next[static_cast<size_t>(a.to)] = std::max(next[static_cast<size_t>(a.to)], at[static_cast<size_t>(a.from)] + a.logp);
    }
    at = std::move(next);
    closeNulls();
  }
  return at[static_cast<size_t>(g.final)];
}

// A random walk from start to final (nullopt-like empty + false when it dead-ends or runs long).
bool randomSentence(const FsgGraph& g, std::mt19937& rng, std::vector<int32_t>& words) {
  words.clear();
  int32_t s = g.start;
  for (int steps = 0; steps < 200; ++steps) {
    std::vector<const FsgArc*> out;
    for (const FsgArc& a : g.arcs) {
      if (a.from == s) out.push_back(&a);
    }
    if (s == g.final && (out.empty() || rng() % 4 == 0)) return true;
    if (out.empty()) return false;
    const FsgArc* a = out[rng() % out.size()];
    if (a->word >= 0) words.push_back(a->word);
    s = a->to;
  }
  return false;
}

TEST(ReduceFsg, MergesStatesWithTheSameFutureOrTheSamePast) {
  // (set | start) a timer: the two "a timer" tails are one.
  FsgGraph g{6, 0, 5, {{0, 1, 1, -5}, {0, 2, 2, -7}, {1, 3, 3, 0}, {2, 4, 3, 0}, {3, 5, 4, 0}, {4, 5, 4, 0}}};
  FsgGraph r = reduceFsg(g);
  EXPECT_EQ(r.states, 4);
  EXPECT_EQ(r.arcs.size(), 4u);
  for (const auto& words : std::vector<std::vector<int32_t>>{{1, 3, 4}, {2, 3, 4}, {1, 4}, {3, 4}}) {
    EXPECT_EQ(bestWeight(r, words), bestWeight(g, words));
  }
  EXPECT_EQ(bestWeight(r, {2, 3, 4}), -7);

  // A different weight on one tail keeps the tails apart.
  g.arcs[5].logp = -2;
  r = reduceFsg(g);
  EXPECT_EQ(r.states, 6);
  EXPECT_EQ(bestWeight(r, {2, 3, 4}), -9);

  // hey (one | two): reached the same way, the two middle states are one.
  const FsgGraph h{4, 0, 3, {{0, 1, 7, 0}, {0, 2, 7, 0}, {1, 3, 8, -1}, {2, 3, 9, -1}}};
  r = reduceFsg(h);
  EXPECT_EQ(r.states, 3);
  EXPECT_EQ(bestWeight(r, {7, 8}), -1);
  EXPECT_EQ(bestWeight(r, {7, 9}), -1);
  EXPECT_EQ(bestWeight(r, {7, 7}), std::numeric_limits<int64_t>::min());

  // The final state is never merged with a dead end, nor the start with another state.
  const FsgGraph d{4, 0, 2, {{0, 1, 1, 0}, {0, 2, 1, 0}, {2, 3, 2, 0}}};
  r = reduceFsg(d);
  EXPECT_EQ(bestWeight(r, {1}), 0);
  EXPECT_EQ(bestWeight(r, {1, 2}), std::numeric_limits<int64_t>::min());
}

TEST(ReduceFsg, RandomGrammarsKeepEverySentencesBestWeight) {
  std::mt19937 rng(7);
  int merged = 0;
  for (int round = 0; round < 200; ++round) {
    FsgGraph g;
    g.states = 3 + static_cast<int32_t>(rng() % 8);
    g.start = 0;
    g.final = g.states - 1;
    const int arcs = 2 + static_cast<int>(rng() % 20);
    for (int i = 0; i < arcs; ++i) {
      FsgArc a;
      a.from = static_cast<int32_t>(rng() % static_cast<uint32_t>(g.states));
      a.to = static_cast<int32_t>(rng() % static_cast<uint32_t>(g.states));
      a.word = rng() % 4 == 0 ? -1 : static_cast<int32_t>(rng() % 3);
      a.logp = -static_cast<int32_t>(rng() % 3);
      if (a.word < 0 && a.from == a.to) continue;
      g.arcs.push_back(a);
    }
    const FsgGraph r = reduceFsg(g);
    EXPECT_LE(r.states, g.states);
    merged += r.states < g.states;
    // Every word string up to four words over the alphabet {0, 1, 2}.
    std::vector<int32_t> words;
    for (int len = 0; len <= 4; ++len) {
      int total = 1;
      for (int k = 0; k < len; ++k) total *= 3;
      for (int code = 0; code < total; ++code) {
        words.clear();
        for (int k = 0, c = code; k < len; ++k, c /= 3) words.push_back(c % 3);
        ASSERT_EQ(bestWeight(r, words), bestWeight(g, words)) << "round " << round << ", " << len << " words";
      }
    }
  }
  EXPECT_GT(merged, 40) << "the random grammars must give the reduction something to merge";
}

TEST(ReduceFsg, TheCatalogueGrammarShrinksAndReadsTheSame) {
  auto catalogue = intents::Catalogue::loadFile(std::string(SOTTO_SOURCE_DIR) + "/config/intents.xml");
  ASSERT_TRUE(catalogue.ok());
  auto dec = detail::makeDecoder("/usr/share/pocketsphinx/model/en-us/en-us",
                                 "/usr/share/pocketsphinx/model/en-us/cmudict-en-us.dict", {});
  ASSERT_TRUE(dec.ok());
  auto jsgfText = pruneGrammar(catalogue.value().grammar(), [&](std::string_view w) {
    std::string lower(w);
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    char* phones = ps_lookup_word(dec.value().get(), lower.c_str());
    ckd_free(phones);
    return phones != nullptr;
  });
  ASSERT_TRUE(jsgfText.ok());
  std::unique_ptr<jsgf_t, void (*)(jsgf_t*)> jsgf(jsgf_parse_string(jsgfText.value().c_str(), nullptr),
                                                   [](jsgf_t* j) { jsgf_grammar_free(j); });
  ASSERT_NE(jsgf, nullptr);
  std::unique_ptr<fsg_model_t, void (*)(fsg_model_t*)> fsg(
      jsgf_build_fsg(jsgf.get(), jsgf_get_public_rule(jsgf.get()), ps_get_logmath(dec.value().get()), 6.5f),
      [](fsg_model_t* f) { fsg_model_free(f); });
  ASSERT_NE(fsg, nullptr);
  const FsgGraph g = detail::readFsg(fsg.get());
  EXPECT_EQ(g.states, fsg_model_n_state(fsg.get()));
  const FsgGraph r = reduceFsg(g);
  EXPECT_LT(r.states * 2, g.states) << g.states << " -> " << r.states;
  EXPECT_LT(r.arcs.size() * 2, g.arcs.size());
  // Sentences the catalogue can say, drawn at random, read with the same best weight; a shuffled one reads as
  // nothing in either.
  std::mt19937 rng(11);
  std::vector<int32_t> words;
  int checked = 0;
  for (int i = 0; i < 200 && checked < 60; ++i) {
    if (!randomSentence(g, rng, words)) continue;
    ++checked;
    const int64_t want = bestWeight(g, words);
    ASSERT_NE(want, std::numeric_limits<int64_t>::min());
    EXPECT_EQ(bestWeight(r, words), want);
    if (words.size() > 2) {
      std::reverse(words.begin(), words.end());
      EXPECT_EQ(bestWeight(r, words), bestWeight(g, words));
    }
  }
  EXPECT_GE(checked, 40);
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
