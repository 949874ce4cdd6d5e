// SPDX-License-Identifier: MIT
// n-best rescoring by the understanding model on hypotheses recorded from pocketsphinx (tests/speech/data): a
// hypothesis that reads as a confident command beats a slightly better acoustic one that reads as nothing, and
// when nothing reads as a command the acoustic (and open-vocabulary) winner stands.
#include <gtest/gtest.h>

#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "engine/intents/catalogue.h"
#include "engine/intents/matcher.h"
#include "engine/nlu/model.h"
#include "engine/nlu/understand.h"
#include "engine/speech/asr.h"
#include "tests/speech/speech_fixtures.h"

namespace {

using sotto::speech::Hypothesis;
using sotto::speech::Recognizer;

std::vector<Hypothesis> readNbest(const std::string& name) {
  std::vector<Hypothesis> out;
  std::ifstream in(std::string(SOTTO_SOURCE_DIR) + "/tests/speech/data/" + name);
  EXPECT_TRUE(in) << name;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const size_t a = line.find('\t'), b = line.find('\t', a + 1);
    Hypothesis h;
    const std::string search = line.substr(0, a);
    h.search = search == "grammar" ? Recognizer::kGrammar : search == "domain" ? Recognizer::kDomain : Recognizer::kLm;
    h.scorePerFrame = std::stod(line.substr(a + 1, b - a - 1));
    h.text = line.substr(b + 1);
    out.push_back(h);
  }
  return out;
}

// The catalogue's phrasings and the committed model, as the recognizer reads hypotheses (Recognizer::finish).
class Rescore : public ::testing::Test {
 protected:
  void SetUp() override {
    auto cat = sotto::intents::Catalogue::loadFile(std::string(SOTTO_SOURCE_DIR) + "/config/intents.xml");
    ASSERT_TRUE(cat.ok());
    matcher_ = std::make_unique<sotto::intents::Matcher>(std::move(cat).value());
    auto model = sotto::nlu::NluModel::loadFile(std::string(SOTTO_SOURCE_DIR) + "/config/intents.nlu");
    ASSERT_TRUE(model.ok());
    model_ = std::move(model).value();
    auto u = sotto::nlu::Understander::create(*matcher_, model_.get());
    ASSERT_TRUE(u.ok());
    understander_ = std::make_unique<sotto::nlu::Understander>(std::move(u).value());
    ws_ = std::make_unique<sotto::nlu::UnderstandWorkspace>();
  }
  void assess(std::vector<Hypothesis>& list) {
    for (Hypothesis& h : list) {
      sotto::nlu::Assessment a;
      understander_->assess(h.text, *ws_, a);
      h.intent = a.intent;
      h.confidence = a.confidence;
      h.understanding = sotto::speech::understandingTerm(a.intent, a.confidence, a.score);  // as Recognizer::finish
    }
  }
  int intent(const char* name) const { return matcher_->catalogue().intentIndex(name); }
  std::unique_ptr<sotto::intents::Matcher> matcher_;
  std::unique_ptr<sotto::nlu::NluModel> model_;
  std::unique_ptr<sotto::nlu::Understander> understander_;
  std::unique_ptr<sotto::nlu::UnderstandWorkspace> ws_;
};

TEST_F(Rescore, ConfidentCommandBeatsBetterAcousticsThatReadsAsNothing) {
  std::vector<Hypothesis> all = readNbest("nbest_go_offline.txt");
  ASSERT_EQ(all.size(), 8u);
  // The recorded list without the two exact "go offline" entries: the general LM's "go on flying" (best path, 0)
  // against the domain search's "go off line", 34.9 per frame worse.
  std::vector<Hypothesis> list;
  for (const Hypothesis& h : all) {
    if (h.text != "go offline") list.push_back(h);
  }
  assess(list);
  ASSERT_EQ(list[0].text, "go on flying");
  EXPECT_EQ(list[0].intent, -1);
  size_t pick = sotto::speech::rescoreHypotheses(list, sotto::speech::kUnderstandingWeight);
  ASSERT_LT(pick, list.size());
  EXPECT_EQ(list[pick].text, "go off line");
  EXPECT_EQ(list[pick].intent, intent("privacy.offline"));
  // Acoustics alone (weight 0) keep the best path: the rule above is what changed the winner.
  pick = sotto::speech::rescoreHypotheses(list, 0.0);
  EXPECT_EQ(list[pick].text, "go on flying");
  // The whole recording: the exact command wins.
  assess(all);
  pick = sotto::speech::rescoreHypotheses(all, sotto::speech::kUnderstandingWeight);
  EXPECT_EQ(all[pick].text, "go offline");
}

// A spoken command reads the same on the domain n-best's likely entries; the check leaves it alone. Noise made into
// words reads as a different command on each entry (a constructed list shaped like the ones noise gave).
TEST_F(Rescore, DomainAgreementSeparatesASpokenCommandFromNoise) {
  std::vector<Hypothesis> spoken = readNbest("nbest_go_offline.txt");
  assess(spoken);
  const double agreement = sotto::speech::domainAgreement(spoken, intent("privacy.offline"), 100);
  EXPECT_GE(agreement, 0.6) << "a clean command must pass asr.domain-agreement's default";
  std::vector<Hypothesis> noise;
  const char* texts[] = {"end that that ah", "and that that are", "mute that add ah", "and that at", "end at that up"};
  for (size_t k = 0; k < std::size(texts); ++k) {
    Hypothesis h;
    h.search = Recognizer::kDomain;
    h.scorePerFrame = -10.0 * static_cast<double>(k);  // equally likely entries, as noise gives
    h.text = texts[k];
    noise.push_back(h);
  }
  assess(noise);
  int commands = 0;
  for (const Hypothesis& h : noise) commands += h.intent >= 0 ? 1 : 0;
  ASSERT_GE(commands, 2) << "the model no longer reads these as commands: the list tests nothing";
  for (const Hypothesis& h : noise) {
    if (h.intent < 0) continue;
    EXPECT_LT(sotto::speech::domainAgreement(noise, h.intent, 100), 0.6) << h.text;
  }
  EXPECT_EQ(sotto::speech::domainAgreement(std::vector<Hypothesis>{}, 0, 100), 1.0) << "no domain search: no check";
}

TEST_F(Rescore, AcousticWinnerStandsWhenNothingReadsAsACommand) {
  std::vector<Hypothesis> list = readNbest("nbest_purple.txt");
  ASSERT_EQ(list.size(), 7u);
  assess(list);
  for (const Hypothesis& h : list) EXPECT_EQ(h.intent, -1) << h.text;
  const size_t pick = sotto::speech::rescoreHypotheses(list, sotto::speech::kUnderstandingWeight);
  ASSERT_LT(pick, list.size());
  EXPECT_EQ(list[pick].text, "purple on the dishwasher");
}

TEST_F(Rescore, IneligibleHypothesesNeverWin) {
  std::vector<Hypothesis> list = readNbest("nbest_go_offline.txt");
  assess(list);
  for (Hypothesis& h : list) h.eligible = h.search == Recognizer::kLm;
  const size_t pick = sotto::speech::rescoreHypotheses(list, sotto::speech::kUnderstandingWeight);
  EXPECT_EQ(list[pick].text, "go on flying");
  for (Hypothesis& h : list) h.eligible = false;
  EXPECT_EQ(sotto::speech::rescoreHypotheses(list, sotto::speech::kUnderstandingWeight), list.size());
}

// The whole chain on generated speech: the domain search with understanding hears "go offline" as the command
// (today's two searches heard "go on flying", read as nothing, and `sotto listen` then asks again); the final
// carries intent and confidence; a missing domain LM is reported and recognition goes on.
// flite saying "hey computer. <text>" with silence around it (sotto listen's endpointer needs the trailing pause):
// the padded WAV's path, empty when a tool failed.
std::string saidWithPauses(const sotto::test::TempDir& dir, const std::string& name, const std::string& text) {
  const std::string wav = dir.file(name);
  if (!sotto::test::say("hey computer. " + text, wav)) return {};
  if (!sotto::test::run("sox -R '" + wav + "' '" + wav + ".pad.wav' pad 0.3 0.6")) return {};
  return wav + ".pad.wav";
}

// The first final event's JSON line in sotto listen's output, or empty.
std::string finalLine(const std::string& out) {
  const size_t at = out.find("{\"event\":\"final\"");
  return at == std::string::npos ? std::string() : out.substr(at, out.find('\n', at) - at);
}

TEST(ListenUnderstanding, DomainSearchHearsTheCommandAndLowConfidenceAsksAgain) {
  SOTTO_REQUIRE_SPEECH_TOOLS();
  sotto::test::TempDir dir;
  ASSERT_TRUE(dir.ok());
  const std::string padded = saidWithPauses(dir, "offline.wav", "go offline");
  ASSERT_FALSE(padded.empty());
  std::string out;
  int rc = -1;
  // The domain search and rescoring are off by default (they also make commands out of noise): switched on here.
  const std::string domainLm = std::string(SOTTO_SOURCE_DIR) + "/config/intents.lm";
  auto events = sotto::test::listen(padded, out, rc,
                                    {"--set", "asr.domain-lm=" + domainLm, "--set", "asr.rescore=true", "--set",
                                     "asr.clarify-below=0.8"});
  ASSERT_EQ(rc, 0) << out;
  std::string line = finalLine(out);
  EXPECT_EQ(sotto::test::jsonString(line, "text"), "go offline") << out;
  EXPECT_EQ(sotto::test::jsonString(line, "intent"), "privacy.offline") << out;
  EXPECT_NE(line.find("\"confidence\":"), std::string::npos) << line;
  EXPECT_EQ(out.find("\"clarify\""), std::string::npos) << out;
  // The recognizer before the domain search (acoustics alone), on the capture as it was before the frontend's
  // high-pass (which made the grammar search hear this clip right): another transcript, read as nothing: ask again.
  events = sotto::test::listen(padded, out, rc,
                               {"--set", "asr.domain-lm=", "--set", "asr.rescore=false", "--set",
                                "asr.clarify-below=0.8", "--set", "speech.high-pass-hz=0"});
  ASSERT_EQ(rc, 0) << out;
  line = finalLine(out);
  EXPECT_NE(sotto::test::jsonString(line, "text"), "go offline") << out;
  EXPECT_NE(out.find("{\"event\":\"clarify\""), std::string::npos) << out;
  // 0 never asks.
  events = sotto::test::listen(padded, out, rc,
                               {"--set", "asr.domain-lm=", "--set", "asr.rescore=false", "--set",
                                "asr.clarify-below=0", "--set", "speech.high-pass-hz=0"});
  EXPECT_EQ(out.find("\"clarify\""), std::string::npos) << out;
  // A missing domain LM: said, and the other searches still give a final.
  events = sotto::test::listen(padded, out, rc,
                               {"--set", "asr.domain-lm=/nonexistent/intents.lm", "--set", "asr.rescore=true"});
  ASSERT_EQ(rc, 0) << out;
  EXPECT_NE(out.find("no domain language model search: cannot read /nonexistent/intents.lm"), std::string::npos)
      << out;
  EXPECT_FALSE(finalLine(out).empty()) << out;
  // A corrupt one: the same.
  const std::string bad = dir.file("bad.lm");
  { std::ofstream(bad) << "not a language model\n"; }
  events = sotto::test::listen(padded, out, rc, {"--set", "asr.domain-lm=" + bad, "--set", "asr.rescore=true"});
  ASSERT_EQ(rc, 0) << out;
  EXPECT_NE(out.find("is not a language model pocketsphinx reads"), std::string::npos) << out;
  EXPECT_FALSE(finalLine(out).empty()) << out;
}

// asr.max-hmm-per-frame reaches the language-model search: no cap and the default 4000 hear a clean question the
// same; a starved search (10 HMMs a frame) hears something else. (What the cap saves in noise is measured by
// bench/speech/intent_bench.py, not here: unit tests never time.)
TEST(ListenSearchCap, TheLanguageModelSearchsCapReachesPocketsphinx) {
  SOTTO_REQUIRE_SPEECH_TOOLS();
  sotto::test::TempDir dir;
  ASSERT_TRUE(dir.ok());
  const std::string padded = saidWithPauses(dir, "question.wav", "what is the capital of france");
  ASSERT_FALSE(padded.empty());
  auto finalText = [&](const std::string& cap) {
    std::string out;
    int rc = -1;
    sotto::test::listen(padded, out, rc, {"--set", "asr.max-hmm-per-frame=" + cap});
    EXPECT_EQ(rc, 0) << out;
    return sotto::test::jsonString(finalLine(out), "text");
  };
  const std::string uncapped = finalText("0");
  EXPECT_EQ(uncapped, "what is the capital of france");
  EXPECT_EQ(finalText("4000"), uncapped);
  EXPECT_NE(finalText("10"), uncapped);
}

}  // namespace
