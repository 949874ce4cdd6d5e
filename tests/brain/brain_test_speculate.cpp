// SPDX-License-Identifier: MIT
// Speculative work on stable partials (speech.speculate): the local model's KV prefilled from a partial is rolled
// back to the prefix the final shares with it (the answer is the cold one's), nothing a partial says takes effect
// before the turn ends, and a speculation superseded or cancelled leaves the brain answering as before.
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <thread>

#include "app/serve/server.h"
#include "engine/answer/answer_stage.h"
#include "engine/speech/speech_stage.h"
#include "engine/llm/chat_template.h"
#include "engine/llm/model.h"
#include "engine/llm/tokenizer.h"
#include "tests/brain/brain_test_util.h"

namespace sotto::answer::test {
namespace {

// mkgguf.py's tiny-llama (SmolLM2's vocabulary and chat template with its system turn), as brain_test_prefix.
std::string speculationModel(const std::string& dir) {
  const std::string path = dir + "/tiny-llama-spec.gguf";
  const std::string cmd = "/usr/bin/python3 " + sourcePath("../shared/tools/mkgguf.py") +
                          " --shape tiny-llama --type q8_0 --seed 3 -q -o " + path + " > /dev/null 2>&1";
  return std::system(cmd.c_str()) == 0 ? path : std::string();
}

// The prompt tokens ask() evaluates for `text` (the chat template's user turn and generation prompt), computed
// here on their own from the model file, to check the brain's reuse count against.
std::vector<llm::TokenId> promptTokens(const std::string& model, const std::string& text) {
  auto m = llm::Model::load(model);
  EXPECT_TRUE(m.ok());
  if (!m) return {};
  auto t = llm::Tokenizer::fromGguf((*m)->file());
  EXPECT_TRUE(t.ok());
  if (!t) return {};
  auto tmpl = (*m)->file().getString("tokenizer.chat_template");
  auto chat = llm::ChatTemplate::detect(tmpl ? *tmpl : std::string_view{});
  EXPECT_TRUE(chat.ok());
  if (!chat) return {};
  const llm::ChatMessage messages[] = {{"user", text}};
  return (*t)->tokenize(chat->apply(messages, true), true, true);
}

size_t sharedPrefix(const std::vector<llm::TokenId>& a, const std::vector<llm::TokenId>& b) {
  size_t n = 0;
  while (n < a.size() && n < b.size() && a[n] == b[n]) ++n;
  return n;
}

class BrainSpeculation : public ::testing::Test {
 protected:
  void SetUp() override {
    model_ = speculationModel(models_.path());
    if (model_.empty()) GTEST_SKIP() << "mkgguf.py needs /usr/bin/python3 with numpy";
  }
  // A brain answering from the local model only (no cache: every ask reaches the model), greedy.
  std::unique_ptr<Brain> localBrain(const std::string& stateDir) const {
    return makeBrain(modelOnlyConfig(stateDir, model_), localOverrides());
  }
  ScratchDir models_;
  std::string model_;
};

// The rollback: the KV prefilled for partial A is kept up to the first token where final B's prompt differs, B is
// evaluated from there, and B's answer is exactly the answer of a brain that never saw A.
TEST_F(BrainSpeculation, FinalReusesThePrefixSharedWithThePartialAndAnswersAsCold) {
  const std::string partial = "what is the tallest mountain in";
  const std::string final = "what is the tallest mountain in europe";
  const std::vector<llm::TokenId> a = promptTokens(model_, partial), b = promptTokens(model_, final);
  ASSERT_FALSE(a.empty());
  ASSERT_FALSE(b.empty());
  const size_t common = sharedPrefix(a, b);
  ASSERT_LT(common, a.size()) << "the partial's prompt must differ from the final's (its end of turn)";
  ASSERT_LT(common + 1, b.size());

  ScratchDir coldDir, warmDir;
  auto cold = localBrain(coldDir.path());
  auto warm = localBrain(warmDir.path());
  ASSERT_TRUE(cold && warm);
  const AskResult coldAnswer = ask(*cold, final);
  ASSERT_FALSE(coldAnswer.answer.empty());
  const PromptReuse coldReuse = cold->lastPromptReuse();
  EXPECT_EQ(coldReuse.promptTokens, b.size());
  EXPECT_LT(coldReuse.reusedTokens, common) << "only the system prompt was cached";

  auto s = warm->speculate(partial);
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_FALSE(s->intent);
  EXPECT_TRUE(s->prefilled);
  EXPECT_FALSE(s->cancelled);
  EXPECT_EQ(s->promptTokens, a.size());
  EXPECT_EQ(s->keptTokens, coldReuse.reusedTokens) << "the system prompt's KV is kept";
  EXPECT_EQ(s->keptTokens + s->evaluatedTokens, a.size());

  const AskResult warmAnswer = ask(*warm, final);
  const PromptReuse reuse = warm->lastPromptReuse();
  EXPECT_EQ(reuse.promptTokens, b.size());
  EXPECT_EQ(reuse.reusedTokens, common) << "rolled back to the common prefix, the rest evaluated";
  EXPECT_EQ(warmAnswer.answer, coldAnswer.answer);
  EXPECT_EQ(warmAnswer.route, router::Route::local);

  // A final equal to the partial reuses its whole prompt but the last token (evaluated again for its logits).
  ASSERT_TRUE(warm->speculate(final).ok());
  EXPECT_EQ(ask(*warm, final).answer, coldAnswer.answer);
  EXPECT_EQ(warm->lastPromptReuse().reusedTokens, b.size() - 1);
}

// Nothing a partial says takes effect before the turn ends: a command prepares nothing (no timer is set, no
// handler runs), and an open question with the cloud reachable and forced sends nothing; the final then does what
// it says, once.
TEST_F(BrainSpeculation, NothingTakesEffectBeforeTheTurnEnds) {
  Peer peer("none");  // brain_test_cloud.cpp's loopback server (this suite is one translation unit)
  ASSERT_TRUE(peer.server);
  ScratchDir dir;
  config::Config c = testConfig(dir.path());
  c.modelPath = model_;
  BrainOverrides o = testOverrides();
  o.cloudUrl = peer.url();
  o.privacy = privacy::PrivacyMode::standard;
  auto b = makeBrain(c, o);
  ASSERT_TRUE(b);
  const size_t before = peer.server->requests();

  auto timer = b->speculate("set a timer for ten minutes");
  ASSERT_TRUE(timer.ok()) << timer.error().message;
  EXPECT_TRUE(timer->intent);
  EXPECT_FALSE(timer->prefilled) << "a command prepares no model answer";
  EXPECT_FALSE(b->msUntilDue().has_value()) << "a partial set a timer";
  EXPECT_TRUE(b->dueAnnouncements().empty());

  o.forced = router::ForcedRoute::cloud;
  auto cloudBrain = makeBrain(c, o);
  ASSERT_TRUE(cloudBrain);
  auto q = cloudBrain->speculate("tell me about the history of rome");
  ASSERT_TRUE(q.ok()) << q.error().message;
  EXPECT_FALSE(q->intent);
  EXPECT_FALSE(q->prefilled) << "the cloud is forced: the local model would not answer";
  EXPECT_EQ(peer.server->requests(), before) << "a partial sent a request";
  const PromptReuse none = b->lastPromptReuse();
  EXPECT_EQ(none.promptTokens, 0u) << "a speculation is not an ask";

  // The final: the timer is set now, and only now.
  const AskResult r = ask(*b, "set a timer for ten minutes");
  EXPECT_EQ(r.route, router::Route::intent);
  EXPECT_EQ(r.answer, "Timer set for ten minutes.");
  ASSERT_TRUE(b->msUntilDue().has_value());
  EXPECT_GT(*b->msUntilDue(), 9 * 60 * 1000);
  EXPECT_EQ(peer.server->requests(), before);
}

// A speculation cancelled before it starts evaluates nothing; one superseded by a changed partial keeps what the
// two share; one cancelled from another thread while it runs (the final came) stops at a piece boundary with a
// prefix of its prompt in the cache. After each, the final is answered exactly as a cold brain answers it.
TEST_F(BrainSpeculation, SupersededOrCancelledSpeculationEndsCleanly) {
  const std::string final = "tell me a story about a dragon who lives under a bridge near the sea";
  ScratchDir coldDir, dir;
  auto cold = localBrain(coldDir.path());
  auto b = localBrain(dir.path());
  ASSERT_TRUE(cold && b);
  const std::string expected = ask(*cold, final).answer;
  ASSERT_FALSE(expected.empty());

  pipeline::CancelToken token;
  token.cancel();
  auto early = b->speculate("tell me a story", &token);
  ASSERT_TRUE(early.ok());
  EXPECT_TRUE(early->cancelled);
  EXPECT_EQ(early->evaluatedTokens, 0u);
  EXPECT_EQ(ask(*b, final).answer, expected);

  // Superseded: each newer partial keeps the prefix it shares with the one before (one word changed here).
  token.reset();
  auto first = b->speculate("tell me a story about a dragon who lives under a brick", &token);
  auto second = b->speculate("tell me a story about a dragon who lives under a bridge", &token);
  ASSERT_TRUE(first.ok() && second.ok());
  EXPECT_FALSE(second->cancelled);
  const size_t firstShared = sharedPrefix(promptTokens(model_, "tell me a story about a dragon who lives under a brick"),
                                          promptTokens(model_, "tell me a story about a dragon who lives under a bridge"));
  EXPECT_EQ(second->keptTokens, firstShared);
  EXPECT_EQ(second->evaluatedTokens, second->promptTokens - firstShared) << "evaluated from the first difference";
  EXPECT_EQ(ask(*b, final).answer, expected);

  // Cancelled while it runs: a long partial, cancelled from another thread as the final would be. Whether the
  // cancel lands before, during or after the work, the speculation ends and the final's answer is unchanged.
  std::string longPartial;
  for (int i = 0; i < 12; ++i) longPartial += "and then the dragon flew over the hills and the rivers ";
  token.reset();
  std::atomic<bool> started{false};
  std::thread canceller([&] {
    while (!started.load()) std::this_thread::yield();
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    token.cancel();
  });
  started.store(true);
  auto mid = b->speculate(longPartial, &token);
  canceller.join();
  ASSERT_TRUE(mid.ok()) << mid.error().message;
  EXPECT_LE(mid->keptTokens + mid->evaluatedTokens, mid->promptTokens);
  if (!mid->cancelled) {
    EXPECT_EQ(mid->keptTokens + mid->evaluatedTokens, mid->promptTokens);
  }
  EXPECT_EQ(ask(*b, final).answer, expected);
}

// The stage as sottod runs it: the speech stage publishes a stable partial, the brain thread (idle) speculates on
// it, and the request that follows reuses its prompt up to the first differing token; with speculate off the same
// partial is not worked on.
TEST_F(BrainSpeculation, TheAnswerStageSpeculatesOnTheSpeechStagesPartials) {
  const std::string partial = "what is the tallest mountain in";
  const std::string final = "what is the tallest mountain in europe";
  const size_t common = sharedPrefix(promptTokens(model_, partial), promptTokens(model_, final));
  for (const bool speculate : {true, false}) {
    SCOPED_TRACE(speculate ? "speculate on" : "speculate off");
    ScratchDir dir;
    config::Config c = modelOnlyConfig(dir.path(), model_);
    BrainOverrides o = localOverrides();
    AnswerStageOptions so;
    so.brain = app::brainOptionsFrom(c, o);
    so.speculate = speculate;
    auto meter = speech::InputMeter::create(1600, 160);
    ASSERT_TRUE(meter.ok());
    auto speech = speech::SpeechStage::create(std::move(meter).value(), nullptr, nullptr, nullptr, 16000);
    ASSERT_TRUE(speech.ok()) << speech.error().message;
    pipeline::CancelToken token;
    auto stage = AnswerStage::create(so, speech->get(), nullptr, token, nullptr);
    ASSERT_TRUE(stage.ok()) << stage.error().message;
    std::atomic<bool> stop{false};
    ASSERT_TRUE((*stage)->start(stop).ok());
    auto waitFor = [](auto pred) {
      const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(30);
      while (!pred() && std::chrono::steady_clock::now() < end) std::this_thread::sleep_for(std::chrono::milliseconds(5));
      return pred();
    };
    AnswerStage& s = **stage;
    ASSERT_TRUE(waitFor([&] { return s.counters().brainReady; }));
    (*speech)->publishStablePartial(partial, 1000);  // the test is the speech thread
    if (speculate) {
      ASSERT_TRUE(waitFor([&] { return s.counters().speculations == 1; }));
      EXPECT_GT(s.counters().speculatedTokens, 0u);
      EXPECT_EQ((*speech)->counters().stablePartials, 1u);
    }
    ASSERT_TRUE(s.submit(final));
    ASSERT_TRUE(waitFor([&] { return s.counters().answered == 1; }));
    const AnswerCounters n = s.counters();
    EXPECT_EQ(n.promptTokens, promptTokens(model_, final).size());
    if (speculate) {
      EXPECT_EQ(n.promptReused, common);
    } else {
      EXPECT_EQ(n.speculations, 0u);
      EXPECT_EQ((*speech)->counters().stablePartials, 0u);
      EXPECT_LT(n.promptReused, common) << "only the system prompt was cached";
    }
    stop = true;
    s.stop();
  }
}

// A question whose handler changes nothing is answered from the partial (the TTS thread synthesizes its first
// phrase during the pause) as ask() answers the same final; the preview is not remembered as said, and a command
// that changes state is neither previewed nor run.
TEST(BrainSpeculationPreview, AQuestionIsAnsweredAsItsFinalWouldBe) {
  ScratchDir dir;
  auto b = makeBrain(testConfig(dir.path()), testOverrides());
  ASSERT_TRUE(b);
  auto math = b->speculate("what is twelve times seven", nullptr, false);
  ASSERT_TRUE(math.ok()) << math.error().message;
  EXPECT_TRUE(math->intent);
  EXPECT_FALSE(math->preview.empty());
  EXPECT_FALSE(math->prefilled);
  EXPECT_EQ(ask(*b, "repeat").answer, "I haven't said anything yet.") << "a preview was remembered as said";
  const AskResult r = ask(*b, "what is twelve times seven");
  EXPECT_EQ(r.route, router::Route::intent);
  EXPECT_EQ(r.answer, math->preview);
  auto timer = b->speculate("set a timer for ten minutes", nullptr, false);
  ASSERT_TRUE(timer.ok());
  EXPECT_TRUE(timer->intent);
  EXPECT_TRUE(timer->preview.empty()) << "a command that changes state is not previewed";
  EXPECT_FALSE(b->msUntilDue().has_value()) << "a partial set a timer";
  auto open = b->speculate("tell me about the history of rome", nullptr, false);
  ASSERT_TRUE(open.ok());
  EXPECT_TRUE(open->preview.empty());
}

}  // namespace
}  // namespace sotto::answer::test
