// SPDX-License-Identifier: MIT
// Routes without the cloud: intents answer without a model, the local model answers and its answer is cached (and
// survives a restart encrypted), prompts with personal data are never cached, a missing model degrades.
#include <filesystem>

#include "engine/intents/catalogue.h"
#include "engine/intents/matcher.h"
#include "engine/nlu/understand.h"
#include "tests/brain/brain_test_util.h"

namespace sotto::answer::test {
namespace {

TEST(BrainRoutes, IntentAnswersWithoutAnyModel) {
  ScratchDir dir;
  auto b = makeBrain(testConfig(dir.path()), testOverrides());
  ASSERT_TRUE(b);
  RecordingSink sink;
  const AskResult r = ask(*b, "set a timer for five minutes", &sink);
  EXPECT_EQ(r.route, router::Route::intent);
  EXPECT_EQ(r.answer, "Timer set for five minutes.");
  EXPECT_EQ(sink.text, r.answer);
  EXPECT_FALSE(r.escalated);
  EXPECT_FALSE(r.sent.has_value());
  ASSERT_EQ(sink.lines.size(), 1u);
  EXPECT_EQ(sink.lines[0].rfind("route=intent reason=", 0), 0u) << sink.lines[0];
  // The handler's state survives a new brain (a restart).
  auto again = makeBrain(testConfig(dir.path()), testOverrides());
  ASSERT_TRUE(again);
  const AskResult q = ask(*again, "how much time is left on my timer");
  EXPECT_EQ(q.route, router::Route::intent);
  EXPECT_NE(q.answer.find("left"), std::string::npos) << q.answer;
}

// Ask again instead of guessing: a state-changing command understood below asr.clarify-below is not executed; a
// query below it is still answered; with the setting at 0 the same command is executed.
TEST(BrainRoutes, LowConfidenceStateChangeAsksAgainAndChangesNothing) {
  ScratchDir dir;
  config::Config c = testConfig(dir.path());
  c.asrClarifyBelow = 0.95f;
  auto b = makeBrain(c, testOverrides());
  ASSERT_TRUE(b);
  // Recognized from flite kal "morning will you turn off the audio": the model reads volume.up at about 0.89.
  RecordingSink sink;
  const AskResult r = ask(*b, "hmm you up", &sink);
  EXPECT_TRUE(r.clarify);
  EXPECT_EQ(r.answer, kClarifyText);
  EXPECT_EQ(sink.text, kClarifyText);
  // "stop" changes what plays: recognized from flite kal16 "date check", "that target" reads stop at about 0.63.
  EXPECT_TRUE(ask(*b, "that target").clarify);
  EXPECT_FALSE(ask(*b, "stop").clarify);
  // Leaving private mode asks for 0.9 (the catalogue's clarify-below): recognized from espeak-ng en-gb (slow)
  // "cut the internet connection mate", "ah to to to connect you" reads privacy.online at about 0.83.
  c.asrClarifyBelow = 0.8f;
  auto at80 = makeBrain(c, testOverrides());
  ASSERT_TRUE(at80);
  EXPECT_TRUE(ask(*at80, "ah to to to connect you").clarify);
  EXPECT_FALSE(ask(*at80, "go back online").clarify);
  // A turn that did not end in silence (noise held the endpointer to the length limit): even a sure state change
  // is asked again; a query heard so is answered.
  HeardAs unfinished;
  unfinished.unfinishedTurn = true;
  EXPECT_TRUE(ask(*b, "stop", nullptr, unfinished).clarify);
  EXPECT_TRUE(ask(*b, "set a timer for five minutes", nullptr, unfinished).clarify);
  EXPECT_FALSE(ask(*b, "what time is it", nullptr, unfinished).clarify);
  // A confident command still runs, and a less confident query is answered.
  const AskResult t = ask(*b, "set a timer for five minutes");
  EXPECT_FALSE(t.clarify);
  EXPECT_EQ(t.answer, "Timer set for five minutes.");
  const AskResult q = ask(*b, "on the day please");
  EXPECT_FALSE(q.clarify);
  EXPECT_NE(q.answer, kClarifyText);
  // Off: the same low-confidence command is executed.
  c.asrClarifyBelow = 0.0f;
  auto off = makeBrain(c, testOverrides());
  ASSERT_TRUE(off);
  const AskResult o = ask(*off, "hmm you up");
  EXPECT_FALSE(o.clarify);
  EXPECT_EQ(o.route, router::Route::intent);
  EXPECT_NE(o.answer, kClarifyText);
}

// From speech (the daemon), an unsure reading of no command is asked again too; typed, it is answered.
TEST(BrainRoutes, UnsureReadingOfSpeechIsAskedAgain) {
  ScratchDir dir;
  config::Config c = testConfig(dir.path());
  c.asrClarifyBelow = 0.8f;
  BrainOverrides spoken = testOverrides();
  spoken.spokenRequests = true;
  auto b = makeBrain(c, spoken);
  ASSERT_TRUE(b);
  // Recognized from flite kal "ok is zero a number": the model reads no command, at about 0.34.
  EXPECT_TRUE(ask(*b, "okay and hombre").clarify);
  EXPECT_FALSE(ask(*b, "why is the sky blue").clarify);  // a plain question: sure it is no command
  auto typed = makeBrain(c, testOverrides());
  ASSERT_TRUE(typed);
  EXPECT_FALSE(ask(*typed, "okay and hombre").clarify);
}

// A forecast needs the cloud: with none configured the speaker says what it cannot do, not the generic sentence.
TEST(BrainRoutes, WeatherWithNowhereToAskSaysWhatItCannotDo) {
  ScratchDir dir;
  auto b = makeBrain(testConfig(dir.path()), testOverrides());
  ASSERT_TRUE(b);
  const AskResult r = ask(*b, "what's the weather tomorrow");
  EXPECT_EQ(r.route, router::Route::cannotAnswer);
  EXPECT_EQ(r.answer, "I can't check the weather right now.");
}

TEST(BrainRoutes, NothingToAnswerWithSaysSoPlainly) {
  ScratchDir dir;
  auto b = makeBrain(testConfig(dir.path()), testOverrides());
  ASSERT_TRUE(b);
  const AskResult r = ask(*b, "why is the sky blue");
  EXPECT_EQ(r.route, router::Route::cannotAnswer);
  EXPECT_EQ(r.answer, router::kCannotAnswerText);
}

TEST(BrainRoutes, LocalAnswerIsCachedEncryptedAndSurvivesARestart) {
  ScratchDir dir;
  BrainOverrides o = testOverrides();
  o.modelPath = storiesModel();
  std::string first;
  {
    auto b = makeBrain(testConfig(dir.path()), o);
    ASSERT_TRUE(b);
    for (const std::string& w : b->warnings()) ADD_FAILURE() << w;
    RecordingSink sink;
    const AskResult r = ask(*b, "The sun was hot", &sink);
    for (const std::string& w : sink.warnings) ADD_FAILURE() << w;
    EXPECT_EQ(r.route, router::Route::local);
    ASSERT_FALSE(r.answer.empty());
    first = r.answer;
    const AskResult again = ask(*b, "the sun was hot!");  // the exact tier normalizes case and punctuation
    EXPECT_EQ(again.route, router::Route::cache);
    EXPECT_EQ(again.answer, first);
  }
  const std::string cacheFile = dir.path() + "/answers.cache";
  ASSERT_TRUE(std::filesystem::exists(cacheFile));
  std::FILE* f = std::fopen(cacheFile.c_str(), "rb");
  ASSERT_NE(f, nullptr);
  std::string raw(4096, '\0');
  raw.resize(std::fread(raw.data(), 1, raw.size(), f));
  std::fclose(f);
  EXPECT_EQ(raw.find("sun was hot"), std::string::npos) << "the cache file must be encrypted";
  EXPECT_EQ(raw.find(first), std::string::npos);
  auto restarted = makeBrain(testConfig(dir.path()), o);
  ASSERT_TRUE(restarted);
  const AskResult r = ask(*restarted, "The sun was hot");
  EXPECT_EQ(r.route, router::Route::cache);
  EXPECT_EQ(r.answer, first);
}

// Issue 21: the semantic tier is calibrated on the local model's own embeddings at start-up. The story model
// does not recognise the built-in paraphrases above what its unrelated requests score: the tier is off, the brain
// says why (not as a load warning), and the exact tier still answers.
TEST(BrainRoutes, SemanticCacheIsCalibratedOnTheLocalModelAndSaysWhyItIsOff) {
  ScratchDir dir;
  BrainOverrides o = testOverrides();
  o.modelPath = storiesModel();
  auto b = makeBrain(testConfig(dir.path()), o);
  ASSERT_TRUE(b);
  for (const std::string& w : b->warnings()) ADD_FAILURE() << w;
  EXPECT_TRUE(b->semanticCacheOff());
  const std::string& report = b->semanticCacheReport();
  EXPECT_EQ(report.rfind("semantic cache off: ", 0), 0u) << report;
  EXPECT_NE(report.find("paraphrases"), std::string::npos) << report;
  EXPECT_NE(report.find("configured 0.900"), std::string::npos) << report;
  EXPECT_NE(report.find("; measured in"), std::string::npos) << report;
  const AskResult first = ask(*b, "The sun was hot");
  EXPECT_EQ(first.route, router::Route::local);
  EXPECT_EQ(ask(*b, "the sun was hot!").route, router::Route::cache);
  // A restart with the same model takes the decision from the state directory instead of embedding again.
  b.reset();
  auto again = makeBrain(testConfig(dir.path()), o);
  ASSERT_TRUE(again);
  EXPECT_TRUE(again->semanticCacheOff());
  EXPECT_NE(again->semanticCacheReport().find("remembered from the state directory"), std::string::npos)
      << again->semanticCacheReport();
  // Without a local model there is nothing to calibrate and nothing to report.
  auto plain = makeBrain(testConfig(dir.path() + "/plain"), testOverrides());
  ASSERT_TRUE(plain);
  EXPECT_FALSE(plain->semanticCacheOff());
  EXPECT_TRUE(plain->semanticCacheReport().empty());
}

TEST(BrainRoutes, PromptsWithPersonalDataAreNeverCached) {
  ScratchDir dir;
  BrainOverrides o = testOverrides();
  o.modelPath = storiesModel();
  auto b = makeBrain(testConfig(dir.path()), o);
  ASSERT_TRUE(b);
  const std::string prompt = "my card number is 4111 1111 1111 1111 and the sun was hot";
  EXPECT_EQ(ask(*b, prompt).route, router::Route::local);
  EXPECT_EQ(ask(*b, prompt).route, router::Route::local);  // not from the cache
}

TEST(BrainRoutes, BrokenModelDegradesToIntentsAndSaysWhy) {
  ScratchDir dir;
  const std::string bad = dir.path() + "/broken.gguf";
  std::FILE* f = std::fopen(bad.c_str(), "wb");
  ASSERT_NE(f, nullptr);
  std::fputs("GGUF but not really", f);
  std::fclose(f);
  BrainOverrides o = testOverrides();
  o.modelPath = bad;
  auto b = makeBrain(testConfig(dir.path()), o);
  ASSERT_TRUE(b);
  bool named = false;
  for (const std::string& w : b->warnings()) named = named || w.find("local model disabled") != std::string::npos;
  EXPECT_TRUE(named);
  EXPECT_EQ(ask(*b, "set a timer for two minutes").route, router::Route::intent);
  EXPECT_EQ(ask(*b, "why is the sky blue").route, router::Route::cannotAnswer);
}

TEST(BrainRoutes, MissingOrDamagedUnderstandingModelsDegradeToRulesAndSayWhy) {
  ScratchDir dir;
  // The catalogue alone in a directory of its own: no intents.nlu, no pii.nlu beside it.
  const std::string alone = dir.path() + "/intents.xml";
  std::filesystem::copy_file(sourcePath("config/intents.xml"), alone);
  BrainOverrides o = testOverrides();
  o.cataloguePath = alone;
  auto warned = [](const Brain& b, const char* what) {
    for (const std::string& w : b.warnings()) {
      if (w.find(what) != std::string::npos) return true;
    }
    return false;
  };
  {
    auto b = makeBrain(testConfig(dir.path()), o);
    ASSERT_TRUE(b);
    EXPECT_TRUE(warned(*b, "understanding model unavailable"));
    EXPECT_TRUE(warned(*b, "personal-data model unavailable"));
    EXPECT_EQ(ask(*b, "set a timer for two minutes").route, router::Route::intent);
  }
  // Damaged copies: one flipped byte each. The checksum names the damage; intents and privacy still work.
  for (const char* name : {"intents.nlu", "pii.nlu"}) {
    const std::string copy = dir.path() + "/" + name;
    std::filesystem::copy_file(sourcePath(std::string("config/") + name), copy);
    std::FILE* f = std::fopen(copy.c_str(), "r+b");
    ASSERT_NE(f, nullptr);
    std::fseek(f, 1000, SEEK_SET);
    const int c = std::fgetc(f);
    std::fseek(f, 1000, SEEK_SET);
    std::fputc(c ^ 0x40, f);
    std::fclose(f);
  }
  auto b = makeBrain(testConfig(dir.path()), o);
  ASSERT_TRUE(b);
  EXPECT_TRUE(warned(*b, "checksum mismatch"));
  EXPECT_EQ(ask(*b, "set a timer for two minutes").route, router::Route::intent);
}

}  // namespace
}  // namespace sotto::answer::test

namespace sotto::answer::test {
namespace {

// The daemon's recognizer has built the understander from the catalogue already: the brain borrows it instead of
// loading the catalogue and its model a second time (here the brain's own catalogue path does not even exist).
TEST(BrainUnderstanding, ABorrowedUnderstanderIsUsedAndNothingIsLoadedAgain) {
  ScratchDir dir;
  auto cat = intents::Catalogue::loadFile(sourcePath("config/intents.xml"));
  ASSERT_TRUE(cat.ok()) << cat.error().message;
  intents::Matcher matcher(std::move(*cat));
  auto understander = nlu::Understander::create(matcher, nullptr);
  ASSERT_TRUE(understander.ok()) << understander.error().message;
  BrainOverrides o = testOverrides();
  o.cataloguePath = dir.path() + "/no-such-catalogue.xml";
  BrainOptions opts = app::brainOptionsFrom(testConfig(dir.path()), o);
  opts.understander = &*understander;
  auto b = Brain::create(opts);
  ASSERT_TRUE(b.ok()) << b.error().message;
  for (const std::string& w : (*b)->warnings()) EXPECT_EQ(w.find("intents disabled"), std::string::npos) << w;
  RecordingSink sink;
  auto r = (*b)->ask("what is two plus two", sink);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->route, router::Route::intent) << sink.text;
  EXPECT_NE(r->answer.find("four"), std::string::npos) << r->answer;
}

}  // namespace
}  // namespace sotto::answer::test
