// SPDX-License-Identifier: MIT
// The personal-data model, trained in the test on generated lines: it finds what the rules miss (a medication no
// lexicon has, a secret cued only after it), keeps the rules' exact spans, and its file is checked like any model.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "engine/privacy/pii.h"
#include "engine/nlu/model_file.h"
#include "engine/privacy/pii_model.h"
#include "tests/support/alloc_counter.h"

namespace sp = sotto::privacy;

namespace {

std::string piiLine(const std::string& text, const std::string& value, const std::string& type) {
  std::string s = "{\"text\": \"" + text + "\", \"spans\": [";
  if (!value.empty()) {
    const size_t at = text.find(value);
    s += "{\"start\": " + std::to_string(at) + ", \"end\": " + std::to_string(at + value.size()) +
         ", \"type\": \"" + type + "\", \"value\": \"" + value + "\"}";
  }
  return s + "]}\n";
}

// Invented drug names (no lexicon has them) in carrier sentences about a person; secrets cued after the value.
std::string piiTraining() {
  const std::vector<std::string> drugs = {"zorvatide", "kelmaprin", "dravoxil", "pentrazine", "lurafen",
                                          "mexolbate", "trivanol", "quelsopam", "vostrafen", "ambrelix"};
  const std::vector<std::string> digits = {"four one seven two", "nine nine zero three", "two eight eight one",
                                           "six five four three", "one one two nine", "three zero zero seven"};
  const std::vector<std::string> open = {"what is the capital of peru", "play some jazz", "how tall is a giraffe",
                                         "what is the weather like", "tell me a fun fact", "who invented the radio"};
  std::string out;
  for (const auto& d : drugs) {
    out += piiLine("i take " + d + " every morning", d, "HEALTH");
    out += piiLine("remind me that my wife needs her " + d + " tonight", d, "HEALTH");
    out += piiLine("the doctor put me on " + d + " last week", d, "HEALTH");
    out += piiLine("i ran out of " + d, d, "HEALTH");
  }
  for (const auto& n : digits) {
    out += piiLine(n + " is the garage code", n, "PIN_OR_PASSWORD");
    out += piiLine("remember " + n + " that is my pin", n, "PIN_OR_PASSWORD");
    out += piiLine("note down " + n + " it opens the side gate", n, "PIN_OR_PASSWORD");
  }
  // Invented first names before surnames the lexicon has: the rules find the surname alone.
  const std::vector<std::string> firsts = {"quorvin", "zelbrin", "taviel", "morwenna", "ilsabet", "dravo"};
  const std::vector<std::string> lasts = {"rasmussen", "okafor", "lombardi"};
  for (const auto& f : firsts) {
    for (const auto& l : lasts) {
      out += piiLine(f + " " + l + "'s mobile is on the table", f + " " + l, "PERSON");
      out += piiLine(f + " " + l + "'s keys are in the car", f + " " + l, "PERSON");
    }
  }
  for (int rep = 0; rep < 4; ++rep) {
    for (const auto& o : open) out += piiLine(o, "", "");
  }
  return out;
}

class PiiModelTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    std::istringstream in(piiTraining());
    sp::PiiTrainOptions opt;
    opt.bits = 14;
    opt.epochs = 15;
    opt.holdout = 0.15;
    opt.note = "test";
    auto m = sp::trainPiiModel(in, opt, report_);
    ASSERT_TRUE(m.ok()) << m.error().message;
    bytes_ = (*m)->serialize();
    auto withModel = sp::PiiClassifier::create(std::move(*m));
    auto rulesOnly = sp::PiiClassifier::create();
    ASSERT_TRUE(withModel.ok() && rulesOnly.ok());
    model_ = withModel->release();
    rules_ = rulesOnly->release();
  }
  static void TearDownTestSuite() {
    delete model_;
    delete rules_;
  }
  // "TYPE:value ..." of what c finds in text.
  static std::string find(const sp::PiiClassifier& c, const std::string& text) {
    sp::SpanBuffer buf;
    EXPECT_TRUE(c.classify(text, buf).ok());
    std::string s;
    for (const auto& span : buf) {
      if (!s.empty()) s += ' ';
      s += std::string(sp::piiTypeName(span.type)) + ":" + text.substr(span.start, span.end - span.start);
    }
    return s;
  }
  static sp::PiiTrainReport report_;
  static std::vector<std::uint8_t> bytes_;
  static sp::PiiClassifier* model_;
  static sp::PiiClassifier* rules_;
};
sp::PiiTrainReport PiiModelTest::report_;
std::vector<std::uint8_t> PiiModelTest::bytes_;
sp::PiiClassifier* PiiModelTest::model_ = nullptr;
sp::PiiClassifier* PiiModelTest::rules_ = nullptr;

TEST_F(PiiModelTest, ReportsThresholdsChosenForRecall) {
  EXPECT_GT(report_.trained, 60u);
  EXPECT_EQ(report_.spansUnaligned, 0u);
  const auto health = static_cast<std::size_t>(sp::PiiType::health);
  EXPECT_GT(report_.suspect[health], 0.0f);
  EXPECT_LE(report_.suspect[health], report_.span[health]);
  EXPECT_NE(report_.text().find("HEALTH"), std::string::npos);
}

TEST_F(PiiModelTest, AnEnsembleAveragesItsTaggersAndFormatOneStillLoads) {
  auto load = [] {
    auto m = sp::PiiModel::parse(bytes_, "pii.nlu");
    EXPECT_TRUE(m.ok());
    return std::move(*m);
  };
  const std::string line = "the doctor put me on brivoxate yesterday";
  auto classifierOf = [](std::unique_ptr<sp::PiiModel> m) {
    auto c = sp::PiiClassifier::create(std::move(m));
    EXPECT_TRUE(c.ok());
    return std::move(*c);
  };
  // Twins answer as one.
  {
    std::vector<std::unique_ptr<sp::PiiModel>> twins;
    twins.push_back(load());
    twins.push_back(load());
    auto e = sp::PiiModel::ensemble(std::move(twins), "twins");
    ASSERT_TRUE(e.ok()) << e.error().message;
    EXPECT_EQ((*e)->layers().size(), 2u);
    const auto bytes = (*e)->serialize();
    auto again = sp::PiiModel::parse(bytes, "twins.nlu");
    ASSERT_TRUE(again.ok()) << again.error().message;
    EXPECT_EQ((*again)->serialize(), bytes);
    auto c = classifierOf(std::move(*again));
    for (const char* t : {"the doctor put me on brivoxate yesterday", "five two two six is the garage code",
                          "what is the capital of chile"}) {
      EXPECT_EQ(find(*c, t), find(*model_, t)) << t;
    }
  }
  // A member that knows nothing (uniform over the 29 tags) halves the first one's confidence: at a span threshold
  // of 0.6 the single model still tags the medication, the pair no longer does.
  {
    auto single = load();
    auto thresholds = single->spanThresholds();
    thresholds[static_cast<size_t>(sp::PiiType::health)] = 0.6f;
    single->setSpanThresholds(thresholds);
    auto suspect = single->suspectThresholds();
    for (float& t : suspect) t = std::min(t, 0.6f);
    // Suspicion at the span threshold too: a suspected word no dictionary has is reported as health.
    suspect[static_cast<size_t>(sp::PiiType::health)] = 0.6f;
    single->setSuspectThresholds(suspect);
    auto blank = std::make_unique<sp::PiiModel>(sotto::nlu::LinearLayer(10, sp::kPiiTagCount), thresholds, suspect, "blank");
    std::vector<std::unique_ptr<sp::PiiModel>> pair;
    pair.push_back(load());
    pair.back()->setSpanThresholds(thresholds);
    pair.back()->setSuspectThresholds(suspect);
    pair.push_back(std::move(blank));
    auto e = sp::PiiModel::ensemble(std::move(pair), "pair");
    ASSERT_TRUE(e.ok()) << e.error().message;
    EXPECT_EQ(find(*classifierOf(std::move(single)), line), "HEALTH:brivoxate");
    EXPECT_EQ(find(*classifierOf(std::move(*e)), line), "");
  }
  EXPECT_FALSE(sp::PiiModel::ensemble({}, "none").ok());
  // Format 1: one layer and no count.
  auto m = load();
  sotto::nlu::ModelWriter w("SOTTOPII", 1);
  w.str(m->note());
  for (float t : m->spanThresholds()) w.f32(t);
  for (float t : m->suspectThresholds()) w.f32(t);
  w.layer(m->layer());
  auto v1 = sp::PiiModel::parse(w.seal(), "v1.nlu");
  ASSERT_TRUE(v1.ok()) << v1.error().message;
  EXPECT_EQ((*v1)->serialize(), bytes_);
  EXPECT_EQ(find(*classifierOf(std::move(*v1)), line), find(*model_, line));
}

TEST_F(PiiModelTest, FindsWhatTheRulesMiss) {
  // A medication in none of the lexicons, in a carrier the training had with other names.
  EXPECT_EQ(find(*rules_, "the doctor put me on brivoxate yesterday"), "");
  EXPECT_EQ(find(*model_, "the doctor put me on brivoxate yesterday"), "HEALTH:brivoxate");
  EXPECT_EQ(find(*model_, "i take brivoxate every evening"), "HEALTH:brivoxate");
  // A secret whose cue comes after it.
  EXPECT_EQ(find(*model_, "five two two six is the garage code"), "PIN_OR_PASSWORD:five two two six");
  // Open questions stay clean.
  EXPECT_EQ(find(*model_, "what is the capital of chile"), "");
}

TEST_F(PiiModelTest, OneNameIsOneSpanWhereModelAndRulesEachFoundPart) {
  // The rules know the surname only; the model's span for the unknown first name joins the rules' span instead of
  // standing beside it as a second person.
  EXPECT_EQ(find(*rules_, "velmorin rasmussen's mobile is on the table"), "PERSON:rasmussen");
  EXPECT_EQ(find(*model_, "velmorin rasmussen's mobile is on the table"), "PERSON:velmorin rasmussen");
}

TEST_F(PiiModelTest, RulesKeepTheirExactSpans) {
  const std::string card = "charge it to 4111 1111 1111 1111 please";
  EXPECT_EQ(find(*model_, card), find(*rules_, card));
  EXPECT_EQ(find(*model_, card), "CREDIT_CARD:4111 1111 1111 1111");
}

TEST_F(PiiModelTest, ModelFileRoundTripAndDamage) {
  auto again = sp::PiiModel::parse(bytes_, "pii.nlu");
  ASSERT_TRUE(again.ok()) << again.error().message;
  EXPECT_EQ((*again)->serialize(), bytes_);
  auto bad = bytes_;
  bad[bad.size() / 2] ^= 1;
  auto r = sp::PiiModel::parse(bad, "pii.nlu");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, sotto::Errc::corrupt);
  EXPECT_NE(r.error().message.find("checksum"), std::string::npos) << r.error().message;
  // An intent model is not a personal-data model.
  auto wrong = bytes_;
  wrong[5] = 'N';
  EXPECT_FALSE(sp::PiiModel::parse(wrong, "intents.nlu").ok());
}

TEST_F(PiiModelTest, TrainingErrorsNameTheLine) {
  sp::PiiTrainReport r;
  std::istringstream bad(piiLine("i take zorvatide", "zorvatide", "HEALTH") + piiLine("x y", "x", "MOOD"));
  auto m = sp::trainPiiModel(bad, {}, r);
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.error().message.find("line 2"), std::string::npos) << m.error().message;
  EXPECT_NE(m.error().message.find("MOOD"), std::string::npos) << m.error().message;
}

TEST_F(PiiModelTest, NoAllocationPerUtterance) {
  if (!sotto::test::AllocCounter::supported()) GTEST_SKIP() << "allocation counting unsupported in this build";
  sp::SpanBuffer buf;
  const char* lines[] = {"i take brivoxate every evening", "five two two six is the garage code",
                         "charge it to 4111 1111 1111 1111 please", "what is the capital of chile"};
  (void)model_->classify(lines[0], buf);
  const sotto::test::NoAllocScope scope;
  for (int rep = 0; rep < 3; ++rep) {
    for (const char* l : lines) (void)model_->classify(l, buf);
  }
  EXPECT_EQ(scope.allocations(), 0u);
}

// Where the model's suspicions lie: each run of suspected words outside the reported spans comes back as a span of
// its type, split around a span the rules report. A model that knows nothing (uniform over the 29 tags: about 0.07
// per type) with every span threshold at 1 and one suspect threshold under that suspects every uncovered word.
// "TYPE:the words;" for one span of text.
std::string spanText(const std::string& text, const sp::PiiSpan& r) {
  return std::string(sp::piiTypeName(r.type)) + ":" + text.substr(r.start, r.end - r.start) + ";";
}

TEST(PiiSuspects, RunsOfSuspectedWordsAroundReportedSpans) {
  sp::PiiModel::Thresholds span{}, suspect{};
  span.fill(1.0f);
  suspect.fill(1.0f);
  suspect[static_cast<size_t>(sp::PiiType::pinOrPassword)] = 0.05f;
  auto c = sp::PiiClassifier::create(
      std::make_unique<sp::PiiModel>(sotto::nlu::LinearLayer(10, sp::kPiiTagCount), span, suspect, "blank"));
  ASSERT_TRUE(c.ok()) << c.error().message;
  const auto suspects = [&](const std::string& text) {
    sp::SpanBuffer buf;
    EXPECT_TRUE((*c)->classify(text, buf).ok());
    std::string s;
    for (const auto& r : buf) s += spanText(text, r);
    s += "|";
    for (std::size_t i = 0; i < buf.suspectCount(); ++i) s += spanText(text, buf.suspect(i));
    const std::uint32_t pin = 1u << static_cast<unsigned>(sp::PiiType::pinOrPassword);
    EXPECT_EQ(buf.suspected(), buf.suspectCount() > 0 ? pin : 0u) << text;
    return s;
  };
  EXPECT_EQ(suspects("what a lovely morning"), "|PIN_OR_PASSWORD:what a lovely morning;");
  EXPECT_EQ(suspects("write to ann@example.org today please"),
            "EMAIL:ann@example.org;|PIN_OR_PASSWORD:write to;PIN_OR_PASSWORD:today please;");
  sp::SpanBuffer buf;
  ASSERT_TRUE((*c)->classify("one two three four five six seven eight nine ten eleven twelve", buf).ok());
  buf.clear();
  EXPECT_EQ(buf.suspectCount(), 0u);
}

// The committed model: a word no dictionary has that the model only suspects of being health is reported as
// health where health may be said (recall first); apps, banks and shows it suspects are not.
TEST(PiiCommittedModel, SuspectedUnknownHealthWordsAreReportedWhereHealthMayBeSaid) {
  auto model = sp::PiiModel::loadFile(std::string(SOTTO_SOURCE_DIR) + "/config/pii.nlu");
  ASSERT_TRUE(model.ok()) << model.error().message;
  auto c = sp::PiiClassifier::create(std::move(*model));
  ASSERT_TRUE(c.ok());
  const auto types = [&](const std::string& text) {
    sp::SpanBuffer buf;
    EXPECT_TRUE((*c)->classify(text, buf).ok());
    std::string s;
    for (const auto& span : buf) s += spanText(text, span);
    return s;
  };
  EXPECT_EQ(types("i've had zembrosis for years"), "HEALTH:zembrosis;");
  EXPECT_EQ(types("message summer on whatsapp"), "PERSON:summer;");
  EXPECT_EQ(types("play episode fifty one of bluey"), "");
  EXPECT_EQ(types("my lloyds savings account is four eight four zero"), "ACCOUNT_NUMBER:four eight four zero;");
}

}  // namespace

namespace {

// Issue 36: the checksum is unkeyed, so it proves nothing against a writer. A crafted file of about a kilobyte
// declaring 2^22-row layers made `sotto pii` allocate 1.09 GB (and `sotto intent` 2.36 GB) before it was refused:
// every declared size is now checked against the file's size before anything is allocated.
std::vector<std::uint8_t> craftedPii(std::uint32_t bits) {
  sotto::nlu::ModelWriter w("SOTTOPII", sp::kPiiModelFormatVersion);
  w.str("crafted");
  for (int set = 0; set < 2; ++set) {
    for (std::size_t t = 0; t < sp::kPiiTypeCount; ++t) w.f32(0.5f);
  }
  w.u32(3);  // members
  for (int m = 0; m < 3; ++m) {
    w.u32(bits);
    w.u32(static_cast<std::uint32_t>(1 + 2 * sp::kPiiTypeCount));
    for (std::size_t c = 0; c < 1 + 2 * sp::kPiiTypeCount; ++c) w.f32(0.0f);
    w.u32(0);  // no rows in use
  }
  return w.seal();
}

TEST(ModelFileHostile, DeclaredLayersLargerThanTheFileCanHoldAreRefusedBeforeAllocating) {
  const std::vector<std::uint8_t> crafted = craftedPii(22);
  EXPECT_LT(crafted.size(), 1500u);
  auto m = sp::PiiModel::parse(crafted, "crafted-pii.nlu");
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.error().code, sotto::Errc::corrupt);
  EXPECT_NE(m.error().message.find("bytes of weights, more than a file of"), std::string::npos) << m.error().message;
  // The same shape at a size the budget allows still parses: the limit is on size, not on the format.
  EXPECT_TRUE(sp::PiiModel::parse(craftedPii(12), "small.nlu").ok());
}

}  // namespace
