// SPDX-License-Identifier: MIT
// The cloud route against the real loopback server with faults: a failing server falls back to the local model,
// a slow one gets the filler first, the request carries only the rotating pseudonym, and the "privacy mode"
// intent switches escalation off for the next request.
#include "engine/cloud/server.h"
#include "engine/llm/generator.h"
#include "engine/llm/model.h"
#include "engine/llm/tokenizer.h"
#include "tests/brain/brain_test_util.h"

namespace sotto::brain::test {
namespace {

// A loopback server of its own per test (each with its fault) over stories260K.
struct Peer {
  std::unique_ptr<llm::Model> model;
  std::unique_ptr<llm::Tokenizer> tokenizer;
  std::unique_ptr<llm::Generator> generator;
  std::unique_ptr<cloud::LoopbackServer> server;

  explicit Peer(const std::string& fault) {
    auto m = llm::Model::load(storiesModel());
    EXPECT_TRUE(m.ok());
    if (!m) return;
    model = std::move(*m);
    auto t = llm::Tokenizer::fromGguf(model->file());
    EXPECT_TRUE(t.ok());
    if (!t) return;
    tokenizer = std::move(*t);
    llm::GeneratorOptions go;
    go.context.nCtx = 256;
    auto g = llm::Generator::create(*model, *tokenizer, go);
    EXPECT_TRUE(g.ok());
    if (!g) return;
    generator = std::move(*g);
    cloud::ServerOptions so;
    so.maxTokensCap = 8;
    auto f = cloud::parseServerFault(fault);
    EXPECT_TRUE(f.ok());
    so.fault = *f;
    auto s = cloud::LoopbackServer::start(*generator, *model, so);
    EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error().message);
    if (s) server = std::move(*s);
  }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(server->port()); }
};

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
  EXPECT_EQ(b->privacyMode(), router::PrivacyMode::offline);
  const AskResult r = ask(*b, "how far away is the moon");
  EXPECT_FALSE(r.escalated);
  EXPECT_EQ(peer.server->requests(), before);
  ask(*b, "turn off privacy mode");
  EXPECT_EQ(b->privacyMode(), router::PrivacyMode::private_);
  EXPECT_TRUE(ask(*b, "why is the sea salty").escalated);
}

}  // namespace
}  // namespace sotto::brain::test
