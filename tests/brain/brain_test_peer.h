// SPDX-License-Identifier: MIT
// A loopback cloud of a test's own (the real OpenAI-compatible server over stories260K), with a fault or a scripted
// answer: shared by the test_brain sources.
#pragma once

#include <memory>
#include <string>

#include "app/serve/server.h"
#include "engine/llm/generator.h"
#include "engine/llm/model.h"
#include "engine/llm/tokenizer.h"
#include "tests/brain/brain_test_util.h"

namespace sotto::answer::test {

struct Peer {
  std::unique_ptr<llm::Model> model;
  std::unique_ptr<llm::Tokenizer> tokenizer;
  std::unique_ptr<llm::Generator> generator;
  std::unique_ptr<serve::LoopbackServer> server;

  // fault: sotto serve --fault's syntax ("" for none); script: a fixed answer ({user} is the request), streamed a
  // few bytes a chunk and ended with finish_reason "stop".
  explicit Peer(const std::string& fault, const std::string& script = "") {
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
    serve::ServerOptions so;
    so.maxTokensCap = 8;
    auto f = serve::parseServerFault(fault);
    EXPECT_TRUE(f.ok());
    so.fault = *f;
    so.script = script;
    auto s = serve::LoopbackServer::start(*generator, *model, so);
    EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error().message);
    if (s) server = std::move(*s);
  }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(server->port()); }
};

}  // namespace sotto::answer::test
