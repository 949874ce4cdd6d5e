// SPDX-License-Identifier: MIT
// The understanding model on the shipped catalogue, trained in the test on a few hundred generated lines whose
// phrasings the catalogue does not have.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <memory>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "engine/intents/catalogue.h"
#include "engine/intents/matcher.h"
#include "engine/nlu/model.h"
#include "engine/nlu/model_file.h"
#include "engine/nlu/trainer.h"
#include "engine/nlu/understand.h"
#include "tests/intents/match_text.h"
#include "tests/support/alloc_counter.h"

namespace si = sotto::intents;
namespace sn = sotto::nlu;

namespace {

std::string jsonLine(const std::string& text, const std::string& intent, const std::string& slot = {},
                     const std::string& value = {}) {
  std::string s = "{\"text\": \"" + text + "\", \"intent\": \"" + intent + "\", \"slot_spans\": [";
  if (!slot.empty()) {
    const size_t at = text.rfind(value);
    s += "{\"start\": " + std::to_string(at) + ", \"end\": " + std::to_string(at + value.size()) + ", \"slot\": \"" +
         slot + "\"}";
  }
  return s + "]}\n";
}

// Phrasings the catalogue does not cover, with openings and endings people add.
std::string trainingLines() {
  const std::vector<std::string> pre = {"", "hey ", "um "}, post = {"", " please", " thanks"};
  const std::vector<std::string> up = {"i can barely hear you", "crank it up a bit", "boost the sound",
                                       "pump up the music", "bump the sound up"};
  const std::vector<std::string> down = {"that is way too loud", "tone it down", "dial the sound back",
                                         "my ears hurt tone it down", "hush the music a little"};
  const std::vector<std::string> open = {"what is the tallest mountain", "tell me something funny",
                                         "how are volcanoes formed", "who painted the mona lisa",
                                         "give me a recipe for soup", "what do cats eat", "recommend a good book",
                                         "is coffee bad for you", "what makes the sound of thunder"};
  const std::vector<std::string> durations = {"five minutes", "ten seconds", "two hours", "twenty minutes",
                                              "ninety seconds", "three minutes", "an hour"};
  std::string out;
  for (const auto& p : pre) {
    for (const auto& q : post) {
      for (const auto& u : up) out += jsonLine(p + u + q, "volume.up");
      for (const auto& d : down) out += jsonLine(p + d + q, "volume.down");
      for (const auto& o : open) out += jsonLine(p + o + q, "none");
      for (const auto& d : durations) {
        out += jsonLine(p + "kick off a countdown of " + d + q, "timer.set", "duration_seconds", d);
        out += jsonLine(p + "start a countdown lasting " + d + q, "timer.set", "duration_seconds", d);
      }
    }
  }
  return out;
}

class NluTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    auto cat = si::Catalogue::loadFile(std::string(SOTTO_SOURCE_DIR) + "/config/intents.xml");
    ASSERT_TRUE(cat.ok()) << cat.error().message;
    matcher_ = new si::Matcher(std::move(*cat));
    std::istringstream in(trainingLines());
    sn::TrainOptions opt;
    opt.intentBits = 12;
    opt.tagBits = 13;
    opt.epochs = 12;
    opt.holdout = 0.1;
    opt.maxFalseIntent = 0.05;
    opt.note = "test";
    auto m = sn::trainModel(matcher_->catalogue(), in, opt, report_);
    ASSERT_TRUE(m.ok()) << m.error().message;
    model_ = m->release();
  }
  static void TearDownTestSuite() {
    delete model_;
    delete matcher_;
  }
  // "intent slot=value ... [source]".
  static std::string run(const sn::Understander& u, const std::string& text) {
    static sn::UnderstandWorkspace ws;
    si::IntentMatch m;
    u.understand(text, ws, m);
    return si::test::matchText(m) + " [" + std::string(m.source) + "]";
  }
  static si::Matcher* matcher_;
  static sn::NluModel* model_;
  static sn::TrainReport report_;
};
si::Matcher* NluTest::matcher_ = nullptr;
sn::NluModel* NluTest::model_ = nullptr;
sn::TrainReport NluTest::report_;

TEST_F(NluTest, TrainingReportsHeldOutFigures) {
  EXPECT_GT(report_.trained, 240u);
  EXPECT_GT(report_.heldOut, 10u);
  EXPECT_EQ(report_.spansUnaligned, 0u);
  EXPECT_GE(report_.intentAccuracy, 0.9) << report_.text();
  EXPECT_GE(report_.tagAccuracy, 0.9) << report_.text();
  EXPECT_NE(report_.text().find("volume.up"), std::string::npos);
}

TEST_F(NluTest, TheModelAnswersPhrasingsTheCatalogueLacks) {
  auto rules = sn::Understander::create(*matcher_, nullptr);
  auto both = sn::Understander::create(*matcher_, model_);
  ASSERT_TRUE(rules.ok() && both.ok());
  // The catalogue alone does not know these; the model generalizes to combinations it was not trained on.
  EXPECT_EQ(run(*rules, "boost the music please"), "none [rules]");
  EXPECT_EQ(run(*both, "boost the music please"), "volume.up [model]");
  EXPECT_EQ(run(*both, "um tone the sound down"), "volume.down [model]");
  // Slot values come from the catalogue's parsers: a duration the training never had.
  EXPECT_EQ(run(*both, "kick off a countdown of four minutes"), "timer.set duration_seconds=240 [model]");
  EXPECT_EQ(run(*both, "kick off a countdown of an hour and a half"), "timer.set duration_seconds=5400 [model]");
  EXPECT_EQ(run(*both, "what is the deepest lake"), "none [rules]");
}

TEST_F(NluTest, TurningAnotherDeviceUpOrDownIsNoVolumeCommand) {
  auto both = sn::Understander::create(*matcher_, model_);
  ASSERT_TRUE(both.ok());
  // The model reads "crank/pump ... up" as volume, whatever is cranked; the lights and the heating are not this
  // speaker, and an audio word keeps the command.
  EXPECT_EQ(run(*both, "crank the heating up a bit"), "none [rules]");
  EXPECT_EQ(run(*both, "pump up the lights please"), "none [rules]");
  EXPECT_EQ(run(*both, "boost the music a bit"), "volume.up [model]");
}

TEST_F(NluTest, RulesComeFirstAndGuardsHold) {
  auto both = sn::Understander::create(*matcher_, model_);
  ASSERT_TRUE(both.ok());
  // A catalogue phrasing stays with the rules.
  EXPECT_EQ(run(*both, "set a timer for five minutes"), "timer.set duration_seconds=300 [rules]");
  // An open-request opening is never a command, whatever the model thinks of the words after it.
  EXPECT_EQ(run(*both, "how do i boost the sound on my tv"), "none [rules]");
  // A required slot the tagger cannot fill: no command (the model alone must not set a timer of no length).
  EXPECT_EQ(run(*both, "kick off a countdown"), "none [rules]");
}

TEST_F(NluTest, AssessesPartialsForTurnTakingAndRescoring) {
  auto both = sn::Understander::create(*matcher_, model_);
  ASSERT_TRUE(both.ok());
  sn::UnderstandWorkspace ws;
  sn::Assessment a;
  // A command still being said: the model hears a countdown, its length has not come yet.
  both->assess("kick off a countdown of", ws, a);
  EXPECT_FALSE(a.complete);
  EXPECT_TRUE(a.expectsMore);
  EXPECT_EQ(a.intent, -1);
  // Complete, by the model and by the rules.
  both->assess("kick off a countdown of four minutes", ws, a);
  EXPECT_TRUE(a.complete);
  EXPECT_FALSE(a.expectsMore);
  EXPECT_EQ(a.intent, matcher_->catalogue().intentIndex("timer.set"));
  const float good = a.score;
  both->assess("set a timer for five minutes", ws, a);
  EXPECT_TRUE(a.complete);
  EXPECT_GT(a.confidence, 0.9f);
  // An open request is complete as a question, not as a command: nothing to wait for.
  both->assess("what do cats eat", ws, a);
  EXPECT_FALSE(a.complete);
  EXPECT_FALSE(a.expectsMore);
  // Rescoring: the reading with the value outscores the one whose number did not come through.
  both->assess("kick off a countdown of", ws, a);
  EXPECT_GT(good, a.score);
}

TEST_F(NluTest, FileRoundTripGivesTheSameAnswers) {
  const std::vector<std::uint8_t> bytes = model_->serialize();
  auto again = sn::NluModel::parse(bytes, "memory");
  ASSERT_TRUE(again.ok()) << again.error().message;
  EXPECT_EQ((*again)->serialize(), bytes);
  EXPECT_EQ((*again)->intents(), model_->intents());
  EXPECT_EQ((*again)->slots(), model_->slots());
  EXPECT_FLOAT_EQ((*again)->threshold(), model_->threshold());
  auto a = sn::Understander::create(*matcher_, model_);
  auto b = sn::Understander::create(*matcher_, again->get());
  ASSERT_TRUE(a.ok() && b.ok());
  for (const char* t : {"boost the music please", "kick off a countdown of four minutes", "what do dogs eat"}) {
    EXPECT_EQ(run(*a, t), run(*b, t)) << t;
  }
  const std::string path = ::testing::TempDir() + "/test_" + std::to_string(::getpid()) + ".nlu";
  ASSERT_TRUE(model_->saveFile(path).ok());
  auto loaded = sn::NluModel::loadFile(path);
  ASSERT_TRUE(loaded.ok()) << loaded.error().message;
  EXPECT_EQ((*loaded)->serialize(), bytes);
  std::remove(path.c_str());
}

TEST_F(NluTest, DamagedFilesAreRefusedWithTheReason) {
  const std::vector<std::uint8_t> good = model_->serialize();
  // One flipped bit anywhere: the checksum catches it.
  for (size_t at : {size_t{12}, good.size() / 2, good.size() - 1}) {
    auto bad = good;
    bad[at] ^= 0x10;
    auto r = sn::NluModel::parse(bad, "bad.nlu");
    ASSERT_FALSE(r.ok()) << at;
    EXPECT_EQ(r.error().code, sotto::Errc::corrupt);
    EXPECT_NE(r.error().message.find("bad.nlu"), std::string::npos) << r.error().message;
  }
  // Truncated, empty, another file type.
  auto cut = sn::NluModel::parse(std::span(good).first(good.size() - 40), "cut.nlu");
  ASSERT_FALSE(cut.ok());
  EXPECT_EQ(cut.error().code, sotto::Errc::corrupt);
  EXPECT_FALSE(sn::NluModel::parse({}, "empty.nlu").ok());
  const std::string text = "<catalogue version=\"1\"/> and more text to pass the size check";
  EXPECT_FALSE(sn::NluModel::parse(std::span(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()), "x").ok());
  // Another format version is named as such, not as damage.
  auto v3 = good;
  v3[8] = 3;
  auto r = sn::NluModel::parse(v3, "v3.nlu");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, sotto::Errc::unsupported);
  auto missing = sn::NluModel::loadFile(::testing::TempDir() + "/no-such.nlu");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().code, sotto::Errc::not_found);
}

// Issue 36: a crafted intents.nlu of a few kilobytes declared layers of 2^22 rows (2.36 GB allocated before it was
// refused). Each declared size is checked against the file first; a model for another catalogue is refused as
// soon as its names are read, before any layer.
std::vector<std::uint8_t> craftedIntents(const std::vector<std::string>& intents, std::uint32_t bits) {
  sn::ModelWriter w("SOTTONLU", 2);
  w.str("crafted");
  w.u32(static_cast<std::uint32_t>(intents.size()));
  for (const auto& n : intents) w.str(n);
  w.u32(1);  // one slot
  w.str("value");
  w.f32(0.5f);
  w.u32(3);  // members
  for (int m = 0; m < 4; ++m) {  // three intent layers, the tagger
    const std::uint32_t classes = m < 3 ? static_cast<std::uint32_t>(intents.size()) : 3;
    w.u32(bits);
    w.u32(classes);
    for (std::uint32_t c = 0; c < classes; ++c) w.f32(0.0f);
    w.u32(0);
  }
  return w.seal();
}

TEST_F(NluTest, HostileFilesAreRefusedBeforeTheyAllocate) {
  const std::vector<std::string> names = {"none", "time.query", "timer.set"};
  const auto crafted = craftedIntents(names, 22);
  EXPECT_LT(crafted.size(), 3000u);
  auto big = sn::NluModel::parse(crafted, "crafted.nlu");
  ASSERT_FALSE(big.ok());
  EXPECT_NE(big.error().message.find("bytes of weights, more than a file of"), std::string::npos)
      << big.error().message;
  EXPECT_TRUE(sn::NluModel::parse(craftedIntents(names, 12), "small.nlu").ok());
  // Another catalogue's model: refused by name, before its (here oversized) layers are even looked at.
  const std::vector<std::string> catalogue = {"none", "time.query"};
  auto other = sn::NluModel::parse(crafted, "crafted.nlu", catalogue);
  ASSERT_FALSE(other.ok());
  EXPECT_NE(other.error().message.find("knows intent timer.set, which the catalogue does not"), std::string::npos)
      << other.error().message;
}

// The probabilities of the intents for a line.
std::vector<float> intentProbabilities(const sn::NluModel& m, const std::string& line) {
  std::vector<std::string> owned;
  std::istringstream in(line);
  for (std::string w; in >> w;) owned.push_back(w);
  std::vector<std::string_view> words(owned.begin(), owned.end());
  static sn::NluWorkspace ws;
  m.classify(words, ws);
  return std::vector<float>(ws.intentProb, ws.intentProb + m.intents().size());
}

TEST_F(NluTest, AnEnsembleAveragesItsMembersAndSurvivesTheFile) {
  // A second member: other seed, fewer epochs, so that its probabilities differ from the first's.
  std::istringstream in(trainingLines());
  sn::TrainOptions opt;
  opt.intentBits = 11;  // members may hash into tables of different sizes
  opt.tagBits = 12;
  opt.epochs = 2;
  opt.seed = 7;
  sn::TrainReport r;
  auto second = sn::trainModel(matcher_->catalogue(), in, opt, r);
  ASSERT_TRUE(second.ok()) << second.error().message;
  const sn::NluModel& b = **second;
  const std::vector<const char*> lines = {"boost the music please", "what do dogs eat", "kick off a countdown"};
  std::vector<std::vector<float>> pa, pb;
  for (const char* l : lines) {
    pa.push_back(intentProbabilities(*model_, l));
    pb.push_back(intentProbabilities(b, l));
  }
  bool differ = false;
  for (size_t i = 0; i < lines.size(); ++i) differ |= std::abs(pa[i][0] - pb[i][0]) > 1e-3f;
  ASSERT_TRUE(differ) << "the members should disagree somewhere for the test to mean anything";

  std::vector<std::unique_ptr<sn::NluModel>> members;
  auto firstCopy = sn::NluModel::parse(model_->serialize(), "first");
  ASSERT_TRUE(firstCopy.ok());
  members.push_back(std::move(*firstCopy));
  members.push_back(std::move(*second));
  auto ens = sn::NluModel::ensemble(std::move(members), "two members");
  ASSERT_TRUE(ens.ok()) << ens.error().message;
  EXPECT_EQ((*ens)->intentLayers().size(), 2u);
  EXPECT_EQ((*ens)->intents(), model_->intents());
  EXPECT_FLOAT_EQ((*ens)->threshold(), model_->threshold());
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::vector<float> pe = intentProbabilities(**ens, lines[i]);
    float sum = 0.0f;
    for (size_t k = 0; k < pe.size(); ++k) {
      EXPECT_NEAR(pe[k], 0.5f * (pa[i][k] + pb[i][k]), 1e-5f) << lines[i] << " intent " << k;
      sum += pe[k];
    }
    EXPECT_NEAR(sum, 1.0f, 1e-4f);
  }
  // Through the file: same bytes, same answers, and the tagger is the first member's.
  const auto bytes = (*ens)->serialize();
  auto again = sn::NluModel::parse(bytes, "ensemble.nlu");
  ASSERT_TRUE(again.ok()) << again.error().message;
  EXPECT_EQ((*again)->serialize(), bytes);
  EXPECT_EQ((*again)->intentLayers().size(), 2u);
  EXPECT_EQ((*again)->tagLayer().bits(), model_->tagLayer().bits());
  EXPECT_EQ(intentProbabilities(**again, lines[0]), intentProbabilities(**ens, lines[0]));
  EXPECT_EQ((*again)->note(), "two members");
}

TEST_F(NluTest, EnsembleMembersMustAgreeOnTheCatalogue) {
  auto a = sn::NluModel::parse(model_->serialize(), "a");
  ASSERT_TRUE(a.ok());
  std::vector<std::string> fewer = model_->intents();
  fewer.pop_back();
  // A layer of the right width for the smaller list, so only the names differ.
  auto b = std::make_unique<sn::NluModel>(fewer, model_->slots(), sn::LinearLayer(10, fewer.size()),
                                          model_->tagLayer(), 0.5f, "other");
  std::vector<std::unique_ptr<sn::NluModel>> members;
  members.push_back(std::move(*a));
  members.push_back(std::move(b));
  auto e = sn::NluModel::ensemble(std::move(members), "x");
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.error().code, sotto::Errc::invalid_argument);
  EXPECT_FALSE(sn::NluModel::ensemble({}, "none").ok());
  // More members than a file may hold.
  std::vector<std::unique_ptr<sn::NluModel>> many;
  for (size_t i = 0; i <= sn::kMaxEnsemble; ++i) {
    auto m = sn::NluModel::parse(model_->serialize(), "m");
    ASSERT_TRUE(m.ok());
    many.push_back(std::move(*m));
  }
  EXPECT_FALSE(sn::NluModel::ensemble(std::move(many), "too many").ok());
}

TEST_F(NluTest, FormatOneFilesStillLoad) {
  // Format 1 (before ensembles): the same fields with one intent layer and no member count.
  sn::ModelWriter w("SOTTONLU", 1);
  w.str(model_->note());
  w.u32(static_cast<std::uint32_t>(model_->intents().size()));
  for (const auto& s : model_->intents()) w.str(s);
  w.u32(static_cast<std::uint32_t>(model_->slots().size()));
  for (const auto& s : model_->slots()) w.str(s);
  w.f32(model_->threshold());
  w.layer(model_->intentLayer());
  w.layer(model_->tagLayer());
  const auto v1 = w.seal();
  auto m = sn::NluModel::parse(v1, "v1.nlu");
  ASSERT_TRUE(m.ok()) << m.error().message;
  EXPECT_EQ((*m)->intentLayers().size(), 1u);
  EXPECT_EQ((*m)->serialize(), model_->serialize());  // written back as format 2, field for field the same
  EXPECT_EQ(intentProbabilities(**m, "boost the music please"), intentProbabilities(*model_, "boost the music please"));
}

TEST_F(NluTest, AModelForAnotherCatalogueIsRefused) {
  // The same catalogue without volume.up: the model's intent is unknown there.
  std::ifstream in(std::string(SOTTO_SOURCE_DIR) + "/config/intents.xml");
  std::stringstream ss;
  ss << in.rdbuf();
  std::string xml = ss.str();
  const size_t a = xml.find("<intent name=\"volume.up\">");
  const size_t b = xml.find("</intent>", a);
  ASSERT_NE(a, std::string::npos);
  xml.erase(a, b + 9 - a);
  auto cat = si::Catalogue::parse(xml, "smaller.xml");
  ASSERT_TRUE(cat.ok()) << cat.error().message;
  const si::Matcher smaller(std::move(*cat));
  auto u = sn::Understander::create(smaller, model_);
  ASSERT_FALSE(u.ok());
  EXPECT_NE(u.error().message.find("volume.up"), std::string::npos) << u.error().message;
}

TEST_F(NluTest, TrainingErrorsNameTheLine) {
  sn::TrainReport r;
  std::istringstream bad(jsonLine("turn it up", "volume.up") + "{\"text\": \"x\"\n");
  auto m = sn::trainModel(matcher_->catalogue(), bad, {}, r);
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.error().message.find("line 2"), std::string::npos) << m.error().message;
  std::istringstream unknown(jsonLine("order a pizza", "food.order"));
  m = sn::trainModel(matcher_->catalogue(), unknown, {}, r);
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.error().message.find("food.order"), std::string::npos) << m.error().message;
  std::istringstream empty("");
  m = sn::trainModel(matcher_->catalogue(), empty, {}, r);
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.error().code, sotto::Errc::invalid_argument);
}

TEST_F(NluTest, NoAllocationPerUtterance) {
  if (!sotto::test::AllocCounter::supported()) GTEST_SKIP() << "allocation counting unsupported in this build";
  auto both = sn::Understander::create(*matcher_, model_);
  ASSERT_TRUE(both.ok());
  auto ws = std::make_unique<sn::UnderstandWorkspace>();
  si::IntentMatch m;
  const char* lines[] = {"boost the music please", "kick off a countdown of four minutes", "what do dogs eat",
                         "set a timer for five minutes", "how do i boost the sound"};
  both->understand(lines[0], *ws, m);
  sn::Assessment a;
  const sotto::test::NoAllocScope scope;
  for (int rep = 0; rep < 3; ++rep) {
    for (const char* l : lines) {
      both->understand(l, *ws, m);
      both->assess(l, *ws, a);
    }
  }
  EXPECT_EQ(scope.allocations(), 0u);
}

}  // namespace
