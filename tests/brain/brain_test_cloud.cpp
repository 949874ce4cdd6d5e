// SPDX-License-Identifier: MIT
// The cloud route against the real loopback server with faults: a failing server falls back to the local model,
// a slow one gets the filler first, the request carries only the rotating pseudonym, and the "privacy mode"
// intent switches escalation off for the next request. The cloud is not trusted: a trickling server is cut at the
// hard timeout, a failure mid-stream ends the answer honestly, answers are bounded and cleaned, and no secret is
// read back.
#include <condition_variable>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>
#include <cstdio>
#include <fstream>

#include "app/serve/server.h"
#include "engine/cloud/chat.h"
#include "engine/llm/generator.h"
#include "engine/llm/model.h"
#include "engine/llm/tokenizer.h"
#include "tests/app/child.h"
#include "engine/answer/answer_stage.h"
#include "tests/brain/brain_test_peer.h"
#include "tests/brain/brain_test_util.h"

namespace sotto::answer::test {
namespace {

TEST(BrainCloud, FailingServerFallsBackToTheLocalModel) {
  Peer peer("error:500");
  ASSERT_TRUE(peer.server);
  ScratchDir dir;
  BrainOverrides o = testOverrides();
  o.cloudUrl = peer.url();
  o.modelPath = storiesModel();
  o.forced = router::ForcedRoute::cloud;
  auto b = makeBrain(testConfig(dir.path()), o);
  ASSERT_TRUE(b);
  RecordingSink sink;
  const AskResult r = ask(*b, "why is the sky blue", &sink);
  EXPECT_TRUE(r.fellBack);
  EXPECT_EQ(r.route, router::Route::local);
  EXPECT_FALSE(r.answer.empty());
  EXPECT_TRUE(r.escalated);  // the request did leave (and is in the audit log)
  bool named = false;
  for (const auto& w : sink.warnings) named = named || w.find("http-status") != std::string::npos;
  EXPECT_TRUE(named) << "the failure is reported";
}

TEST(BrainCloud, SlowServerGetsTheFillerThenTheAnswer) {
  Peer peer("delay:600");
  ASSERT_TRUE(peer.server);
  ScratchDir dir;
  config::Config c = testConfig(dir.path());
  c.budgetFirstTokenMs = 150;
  c.hardTimeoutMs = 5000;
  c.cloudFirstByteTimeoutMs = 5000;
  BrainOverrides o = testOverrides();
  o.cloudUrl = peer.url();
  auto b = makeBrain(c, o);
  ASSERT_TRUE(b);
  RecordingSink sink;
  const AskResult r = ask(*b, "why is the sky blue", &sink);
  EXPECT_EQ(r.route, router::Route::cloud);
  EXPECT_TRUE(r.filler);
  ASSERT_EQ(sink.fillers.size(), 1u);
  EXPECT_EQ(sink.fillers[0], router::kFillerText);
  EXPECT_FALSE(r.answer.empty());
  EXPECT_FALSE(r.fellBack);
}

TEST(BrainCloud, RequestCarriesOnlyTheRotatingPseudonym) {
  Peer peer("");
  ASSERT_TRUE(peer.server);
  ScratchDir a, b;
  BrainOverrides o = testOverrides();
  o.cloudUrl = peer.url();
  std::vector<std::string> users;
  const char* questions[] = {"why is the sky blue", "how far away is the moon", "why is the sea salty"};
  int n = 0;
  for (const ScratchDir* d : {&a, &a, &b}) {  // the same device twice, then another device
    auto brain = makeBrain(testConfig(d->path()), o);
    ASSERT_TRUE(brain);
    const AskResult r = ask(*brain, questions[n++]);  // a new question each time: no answer from the cache
    ASSERT_TRUE(r.sent.has_value());
    // The id: 32 lowercase hex digits in "user" (no std::regex: GCC 12 warns falsely inside it at -O2).
    const std::string key = "\"user\":\"";
    const size_t at = r.sent->find(key);
    ASSERT_NE(at, std::string::npos) << *r.sent;
    const std::string id = r.sent->substr(at + key.size(), 32);
    ASSERT_EQ(id.size(), 32u);
    EXPECT_EQ(id.find_first_not_of("0123456789abcdef"), std::string::npos) << id;
    EXPECT_EQ(r.sent->at(at + key.size() + 32), '"') << *r.sent;
    users.push_back(id);
  }
  EXPECT_EQ(users[0], users[1]);
  EXPECT_NE(users[0], users[2]);
}

TEST(BrainCloud, PrivacyModeIntentStopsEscalationAtOnce) {
  Peer peer("");
  ASSERT_TRUE(peer.server);
  ScratchDir dir;
  BrainOverrides o = testOverrides();
  o.cloudUrl = peer.url();
  auto b = makeBrain(testConfig(dir.path()), o);
  ASSERT_TRUE(b);
  EXPECT_TRUE(ask(*b, "why is the sky blue").escalated);  // (each question new: none answered from the cache)
  const size_t before = peer.server->requests();
  const AskResult sw = ask(*b, "turn on privacy mode");
  EXPECT_EQ(sw.route, router::Route::intent);
  EXPECT_EQ(b->privacyMode(), privacy::PrivacyMode::offline);
  const AskResult r = ask(*b, "how far away is the moon");
  EXPECT_FALSE(r.escalated);
  EXPECT_EQ(peer.server->requests(), before);
  ask(*b, "turn off privacy mode");
  EXPECT_EQ(b->privacyMode(), privacy::PrivacyMode::private_);
  EXPECT_TRUE(ask(*b, "why is the sea salty").escalated);
}

// --- The cloud is not trusted (issue 19) ---

double msSinceCloud(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

bool endsWith(const std::string& s, std::string_view tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

std::unique_ptr<Brain> cloudBrain(const Peer& peer, const ScratchDir& dir, bool withLocal,
                                  void (*tweak)(config::Config&) = nullptr) {
  config::Config c = testConfig(dir.path());
  if (tweak != nullptr) tweak(c);
  BrainOverrides o = testOverrides();
  o.cloudUrl = peer.url();
  o.forced = router::ForcedRoute::cloud;
  if (withLocal) o.modelPath = storiesModel();
  return makeBrain(c, o);
}

// latency.hard-timeout-ms is a deadline for the whole answer: a server trickling a "." every 250 ms (60 of them)
// no longer holds the request for 15 s; what was said stays and ends with "ran out of time". Before: 15 s, 60 dots.
TEST(BrainCloudUntrusted, TricklingServerIsCutAtTheHardTimeout) {
  Peer peer("trickle:250");
  ASSERT_TRUE(peer.server);
  ScratchDir dir;
  auto b = cloudBrain(peer, dir, true, [](config::Config& c) {
    c.hardTimeoutMs = 1000;
    c.budgetFirstTokenMs = 700;
  });
  ASSERT_TRUE(b);
  RecordingSink sink;
  const auto t0 = std::chrono::steady_clock::now();
  const AskResult r = ask(*b, "why is the sky blue", &sink);
  const double took = msSinceCloud(t0);
  std::printf("[ figure ] trickling server: ask took %.0f ms against a hard timeout of 1000 ms\n", took);
  EXPECT_LT(took, 1000.0 + 1000.0) << "the deadline covers the whole answer";
  EXPECT_EQ(r.route, router::Route::cloud);
  EXPECT_FALSE(r.fellBack) << "part of the answer was said: no second answer";
  EXPECT_FALSE(r.complete);
  EXPECT_EQ(r.answer.rfind(".", 0), 0u) << r.answer;
  EXPECT_TRUE(endsWith(r.answer, router::kOutOfTimeText)) << r.answer;
  EXPECT_EQ(sink.text, r.answer);
  EXPECT_LT(std::count(r.answer.begin(), r.answer.end(), '.'), 12) << r.answer;
  const router::RouterCounts c = b->routerCounts();
  EXPECT_EQ(c.hardTimeouts, 1u);
  EXPECT_EQ(c.incomplete, 1u);
  EXPECT_EQ(c.fallbacksLocal, 0u);
}

// A reset or a malformed event after some text is a failure, not a normal answer: the text said stays, the answer
// ends "... sorry, I lost the connection." and the metrics count it. Before: the partial text as a whole answer.
TEST(BrainCloudUntrusted, FailureMidStreamEndsHonestly) {
  for (const char* fault : {"reset:3", "malformed:3", "garbage", "disconnect:2"}) {
    SCOPED_TRACE(fault);
    Peer peer(fault);
    ASSERT_TRUE(peer.server);
    ScratchDir dir;
    auto b = cloudBrain(peer, dir, true);
    ASSERT_TRUE(b);
    RecordingSink sink;
    const AskResult r = ask(*b, "why is the sky blue", &sink);
    EXPECT_EQ(r.route, router::Route::cloud);
    EXPECT_FALSE(r.complete);
    EXPECT_FALSE(r.fellBack);
    EXPECT_TRUE(endsWith(r.answer, router::kLostConnectionText)) << r.answer;
    EXPECT_GT(r.answer.size(), std::string(router::kLostConnectionText).size() + 1) << "what was said stays";
    EXPECT_EQ(sink.text, r.answer);
    const router::RouterCounts c = b->routerCounts();
    EXPECT_EQ(c.streamErrors, 1u);
    EXPECT_EQ(c.incomplete, 1u);
    EXPECT_EQ(c.fallbacksLocal + c.fallbacksCannotAnswer, 0u);
  }
}

// Issue 36: a server that stops an answer at its token limit says so (finish_reason "length"). That answer is cut,
// like a reset: reported incomplete, ended honestly, and never cached (it was cached for 7 days as complete). A
// whole answer (finish_reason "stop") from the same kind of server is cached, so the check can fail.
TEST(BrainCloudUntrusted, AnswerTheServerCutAtItsLengthIsReportedCutAndNeverCached) {
  for (const bool whole : {false, true}) {
    SCOPED_TRACE(whole ? "finish_reason stop" : "finish_reason length");
    // stories260K never ends within the server's 8-token cap; the script ends with "stop".
    Peer peer("", whole ? "The sky is blue because air scatters blue light." : "");
    ASSERT_TRUE(peer.server);
    ScratchDir dir;
    config::Config c = testConfig(dir.path());
    BrainOverrides o = testOverrides();
    o.cloudUrl = peer.url();
    auto b = makeBrain(c, o);  // no local model: the router escalates on its own
    ASSERT_TRUE(b);
    RecordingSink sink;
    const AskResult r = ask(*b, "why is the sky blue", &sink);
    ASSERT_EQ(r.route, router::Route::cloud);
    EXPECT_EQ(r.complete, whole);
    EXPECT_EQ(endsWith(r.answer, router::kTooLongText), !whole) << r.answer;
    const bool warned = std::any_of(sink.warnings.begin(), sink.warnings.end(), [](const std::string& w) {
      return w.find("finish_reason \"length\"") != std::string::npos;
    });
    EXPECT_EQ(warned, !whole);
    const AskResult again = ask(*b, "why is the sky blue");
    EXPECT_EQ(again.route, whole ? router::Route::cache : router::Route::cloud);
  }
}

// Nothing said yet: the local model answers, as the supervisor says, and the metrics count the fallback (before,
// the brain fell back on its own and the counters never saw it). Without a local model: said plainly.
TEST(BrainCloudUntrusted, FailureBeforeAnyTextFallsBackAndIsCounted) {
  {
    Peer peer("reset:0");
    ASSERT_TRUE(peer.server);
    ScratchDir dir;
    auto b = cloudBrain(peer, dir, true);
    ASSERT_TRUE(b);
    const AskResult r = ask(*b, "why is the sky blue");
    EXPECT_EQ(r.route, router::Route::local);
    EXPECT_TRUE(r.fellBack);
    EXPECT_TRUE(r.complete);
    EXPECT_FALSE(r.answer.empty());
    const router::RouterCounts c = b->routerCounts();
    EXPECT_EQ(c.streamErrors, 1u);
    EXPECT_EQ(c.fallbacksLocal, 1u);
    EXPECT_EQ(c.incomplete, 0u);
  }
  {
    Peer peer("stall");
    ASSERT_TRUE(peer.server);
    ScratchDir dir;
    auto b = cloudBrain(peer, dir, false, [](config::Config& c) { c.hardTimeoutMs = 1000; });
    ASSERT_TRUE(b);
    const auto t0 = std::chrono::steady_clock::now();
    const AskResult r = ask(*b, "why is the sky blue");
    EXPECT_LT(msSinceCloud(t0), 2000.0);
    EXPECT_EQ(r.route, router::Route::cannotAnswer);
    EXPECT_EQ(r.answer, router::kCannotAnswerText);
    EXPECT_EQ(b->routerCounts().fallbacksCannotAnswer, 1u);
    EXPECT_EQ(b->routerCounts().hardTimeouts, 1u);
  }
}

// The answer stage cancels by answer id: the id of the answer in progress stops it at once (the brain, waiting on a
// stalled cloud with no time bound of its own for 20 s, is woken by the cancel), a stale or unknown id stops
// nothing, and an earlier id never cancels a later answer.
TEST(AnswerStageCancel, ByIdStopsThatAnswerOnly) {
  Peer peer("stall");
  ASSERT_TRUE(peer.server);
  ScratchDir dir;
  config::Config c = testConfig(dir.path());
  c.hardTimeoutMs = 20000;
  c.cloudFirstByteTimeoutMs = 30000;
  BrainOverrides o = testOverrides();
  o.cloudUrl = peer.url();
  o.forced = router::ForcedRoute::cloud;
  AnswerStageOptions so;
  so.brain = app::brainOptionsFrom(c, o);
  pipeline::CancelToken token;
  auto stage = AnswerStage::create(so, nullptr, nullptr, token, nullptr);
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
  EXPECT_EQ(s.currentAnswer(), 0u);
  EXPECT_FALSE(s.cancelAnswer(1)) << "nothing is in progress";

  ASSERT_TRUE(s.submit("why is the sky blue"));
  ASSERT_TRUE(waitFor([&] { return s.currentAnswer() != 0; }));
  const uint64_t first = s.currentAnswer();
  EXPECT_FALSE(s.cancelAnswer(first + 1)) << "an id not started yet";
  std::this_thread::sleep_for(std::chrono::milliseconds(100));  // into the cloud wait
  EXPECT_FALSE(token.cancelled());
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_TRUE(s.cancelAnswer(first));
  ASSERT_TRUE(waitFor([&] { return s.counters().answered == 1; }));
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(5)) << "the cancel did not wake the brain";
  EXPECT_EQ(s.currentAnswer(), 0u);
  EXPECT_FALSE(s.cancelAnswer(first)) << "that answer is over";

  ASSERT_TRUE(s.submit("why is the grass green"));
  ASSERT_TRUE(waitFor([&] { return s.currentAnswer() != 0; }));
  const uint64_t second = s.currentAnswer();
  EXPECT_GT(second, first);
  EXPECT_FALSE(s.cancelAnswer(first)) << "an earlier id cancelled a later answer";
  EXPECT_FALSE(token.cancelled());
  EXPECT_TRUE(s.cancelAnswer(second));
  ASSERT_TRUE(waitFor([&] { return s.counters().answered == 2; }));
  EXPECT_EQ(s.counters().cancelledById, 2u);
  stop = true;
  s.stop();
}

// `sotto ask`'s path: a typed request's caller sees the brain once it is built, then the request's decision, its
// text and its result, all from the stage's brain thread; a typed request longer than a transcript holds is taken.
TEST(AnswerStageTyped, TheCallerSeesTheDecisionTextAndResult) {
  struct Seen final : TypedAnswerObserver {
    void onBrainReady(const Brain&) override { ready.fetch_add(1); }
    void onDecision(const router::RouteDecision& d, std::string_view) override {
      std::lock_guard lock(m);
      routes.push_back(d.route);
    }
    void onText(std::string_view piece) override {
      std::lock_guard lock(m);
      text += piece;
    }
    void onDone(const Result<AskResult>& r) override {
      std::lock_guard lock(m);
      results.push_back(r.ok() ? r->answer : "error: " + r.error().message);
      cv.notify_all();
    }
    std::atomic<int> ready{0};
    std::mutex m;
    std::condition_variable cv;
    std::vector<router::Route> routes;
    std::string text;
    std::vector<std::string> results;
  } seen;
  ScratchDir dir;
  AnswerStageOptions so;
  // Offline: the long request's answer is the plain "can't answer" whatever the personal-data model suspects in
  // its repeated words (a suspected local-only type would say why it stays on the device instead).
  BrainOverrides offline = testOverrides();
  offline.privacy = privacy::PrivacyMode::offline;
  so.brain = app::brainOptionsFrom(testConfig(dir.path()), offline);
  so.typedObserver = &seen;
  pipeline::CancelToken token;
  auto stage = AnswerStage::create(so, nullptr, nullptr, token, nullptr);
  ASSERT_TRUE(stage.ok()) << stage.error().message;
  std::atomic<bool> stop{false};
  ASSERT_TRUE((*stage)->start(stop).ok());
  AnswerStage& s = **stage;
  ASSERT_TRUE(s.submit("set a timer for five minutes"));
  std::string longer = "tell me a long story about";  // no command: nothing but the brain can answer it (no model)
  while (longer.size() < 2 * speech::TranscriptMessage::kTextSize) longer += " a lighthouse keeper and";
  longer += " her cat";
  ASSERT_TRUE(s.submit(longer));
  EXPECT_FALSE(s.submit(""));
  EXPECT_FALSE(s.submit(std::string(AnswerStage::kMaxTypedBytes + 1, 'a')));
  {
    std::unique_lock lock(seen.m);
    ASSERT_TRUE(seen.cv.wait_for(lock, std::chrono::seconds(30), [&] { return seen.results.size() == 2; }));
    EXPECT_EQ(seen.results[0], "Timer set for five minutes.");
    EXPECT_EQ(seen.results[1], router::kCannotAnswerText);
    EXPECT_EQ(seen.text, std::string("Timer set for five minutes.") + router::kCannotAnswerText);
    ASSERT_EQ(seen.routes.size(), 2u);
    EXPECT_EQ(seen.routes[0], router::Route::intent);
    EXPECT_EQ(seen.routes[1], router::Route::cannotAnswer);
  }
  EXPECT_EQ(seen.ready.load(), 1);
  EXPECT_EQ(s.counters().requests, 2u);
  stop = true;
  s.stop();
}

// A 50 MB stream: the answer stops at tts.max-answer-chars (at a word) or at the request's max_tokens in bytes,
// whichever comes first, and says so. Before: a 1 MB answer.
TEST(BrainCloudUntrusted, HugeStreamIsBounded) {
  Peer peer("flood:52428800");
  ASSERT_TRUE(peer.server);
  {
    ScratchDir dir;
    auto b = cloudBrain(peer, dir, false, [](config::Config& c) { c.ttsMaxAnswerChars = 300; });
    ASSERT_TRUE(b);
    const auto t0 = std::chrono::steady_clock::now();
    const AskResult r = ask(*b, "why is the sky blue");
    std::printf("[ figure ] 50 MB stream, 300 characters at most: %zu bytes said in %.0f ms\n", r.answer.size(),
                msSinceCloud(t0));
    EXPECT_FALSE(r.complete);
    EXPECT_TRUE(endsWith(r.answer, router::kTooLongText)) << r.answer.substr(0, 400);
    const std::string said = r.answer.substr(0, r.answer.size() - std::string(router::kTooLongText).size());
    EXPECT_LE(said.size(), 301u);
    EXPECT_TRUE(endsWith(said, "word ")) << "cut at a word: " << said;
  }
  {
    ScratchDir dir;
    auto b = cloudBrain(peer, dir, false, [](config::Config& c) { c.ttsMaxAnswerChars = 20000; });
    ASSERT_TRUE(b);
    const AskResult r = ask(*b, "why is the sky blue");
    EXPECT_FALSE(r.complete);
    EXPECT_TRUE(endsWith(r.answer, router::kTooLongText)) << r.answer.substr(0, 400);
    EXPECT_LE(r.answer.size(), cloud::maxAnswerBytesFor(256) + 64) << "the max_tokens byte bound";
    EXPECT_GE(r.answer.size(), cloud::maxAnswerBytesFor(256) / 2);
  }
}

// Control characters, bidi overrides and other format characters never reach the speaker or the terminal.
TEST(BrainCloudUntrusted, ControlAndFormatCharactersAreStripped) {
  Peer peer("", "Hi\x1b]0;owned\x07 the \xe2\x80\xae" "evil\xe2\x80\xac sky\xe2\x80\x8b is\r blue\xef\xbb\xbf.\tOK\n");
  ASSERT_TRUE(peer.server);
  ScratchDir dir;
  auto b = cloudBrain(peer, dir, false);
  ASSERT_TRUE(b);
  RecordingSink sink;
  const AskResult r = ask(*b, "why is the sky blue", &sink);
  EXPECT_TRUE(r.complete);
  EXPECT_EQ(r.answer, "Hi]0;owned the evil sky is blue.\tOK\n");
  EXPECT_EQ(sink.text, r.answer);
}

// No secrets read aloud: standard mode sends a PIN as a placeholder; the answer that echoes it says "your PIN"
// (before: the digits), and a placeholder nobody sent is "someone", never brackets and never a value from the conversation.
TEST(BrainCloudUntrusted, NoSecretIsReadBack) {
  Peer peer("", "You said: {user} Ask [PERSON_9].");
  ASSERT_TRUE(peer.server);
  ScratchDir dir;
  BrainOverrides o = testOverrides();
  o.cloudUrl = peer.url();
  o.forced = router::ForcedRoute::cloud;
  o.privacy = privacy::PrivacyMode::standard;
  auto b = makeBrain(testConfig(dir.path()), o);
  ASSERT_TRUE(b);
  const AskResult r = ask(*b, "my pin is 4412 what should I change it to");
  ASSERT_TRUE(r.escalated);
  ASSERT_NE(r.anonymized.find("[PIN_OR_PASSWORD_1]"), std::string::npos) << r.anonymized;
  EXPECT_EQ(r.answer.find("4412"), std::string::npos) << r.answer;
  EXPECT_NE(r.answer.find("your PIN"), std::string::npos) << r.answer;
  EXPECT_NE(r.answer.find("Ask someone."), std::string::npos) << r.answer;
  EXPECT_EQ(r.answer.find('['), std::string::npos) << r.answer;
}

// `sotto ask` as a user runs it against a trickling and a resetting server: it ends by the deadline, the done
// event says "complete":false, and the exit status is not 0. Before: 15 s, 60 dots, exit 0.
std::string doneLine(const std::string& out) {
  const size_t at = out.find("{\"event\":\"done\"");
  if (at == std::string::npos) return {};
  const size_t nl = out.find('\n', at);
  return out.substr(at, nl == std::string::npos ? std::string::npos : nl - at);
}

TEST(BrainCloudUntrusted, AskCommandEndsByTheDeadlineAndSaysSo) {
  ScratchDir dir;
  const std::string cfg = dir.path() + "/sotto.xml";
  std::ofstream(cfg) << "<sotto version=\"1\"><latency hard-timeout-ms=\"1000\"/></sotto>\n";
  const auto askCli = [&](const Peer& peer, std::string& out) {
    return sotto::test::runCapture(SOTTO_CLI_PATH, {"ask", "--json", "--config", cfg, "--cloud", peer.url(), "--route",
                                                    "cloud", "--state-dir", dir.path(), "--catalogue",
                                                    sourcePath("config/intents.xml"), "--model", "",
                                                    "why is the sky blue"},
                                   out);
  };
  {
    Peer peer("trickle:250");
    ASSERT_TRUE(peer.server);
    std::string out;
    const auto t0 = std::chrono::steady_clock::now();
    const int rc = askCli(peer, out);
    const double took = msSinceCloud(t0);
    std::printf("[ figure ] sotto ask against a trickling server: %.0f ms in all (hard timeout 1000 ms)\n", took);
    EXPECT_EQ(rc, 1) << out;
    EXPECT_LT(took, (1000.0 + 3000.0) * sotto::test::slowFactor()) << "start-up plus the deadline, not 15 s";
    const std::string done = doneLine(out);
    EXPECT_NE(done.find("{\"event\":\"done\",\"route\":\"cloud\""), std::string::npos) << out;
    EXPECT_TRUE(endsWith(done, std::string("ran out of time.\",\"complete\":false}"))) << done;
  }
  {
    Peer peer("reset:2");
    ASSERT_TRUE(peer.server);
    std::string out;
    EXPECT_EQ(askCli(peer, out), 1) << out;
    const std::string done = doneLine(out);
    EXPECT_TRUE(endsWith(done, std::string("I lost the connection.\",\"complete\":false}"))) << done;
    EXPECT_NE(out.find("sotto ask: warning: cloud: disconnected"), std::string::npos) << out;
  }
}

// Cost caps survive restarts: the count is in the state directory, so a new brain (a restarted daemon, another
// `sotto ask`) still sees the hour's requests. Before: every start began at zero.
TEST(BrainCloudUntrusted, CostCapsSurviveARestart) {
  Peer peer("");
  ASSERT_TRUE(peer.server);
  ScratchDir dir;
  config::Config c = testConfig(dir.path());
  c.cloudMaxPerHour = 1;
  c.cloudMaxPerDay = 1;
  BrainOverrides o = testOverrides();
  o.cloudUrl = peer.url();
  {
    auto b = makeBrain(c, o);
    ASSERT_TRUE(b);
    EXPECT_TRUE(ask(*b, "why is the sky blue").escalated);
  }
  auto restarted = makeBrain(c, o);
  ASSERT_TRUE(restarted);
  RecordingSink sink;
  const AskResult r = ask(*restarted, "how far away is the moon", &sink);
  EXPECT_FALSE(r.escalated);
  ASSERT_EQ(sink.decisions.size(), 1u);
  EXPECT_EQ(sink.decisions[0].cloudBlock, router::CloudBlock::costCap) << sink.lines[0];
  EXPECT_EQ(peer.server->requests(), 1u);
}

}  // namespace
}  // namespace sotto::answer::test
