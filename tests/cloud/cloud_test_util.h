// SPDX-License-Identifier: MIT
// Helpers of test_cloud: the stories260K model behind an in-process loopback server, a client, timing.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <string>

#include "app/serve/server.h"
#include "engine/cloud/client.h"
#include "engine/llm/generator.h"
#include "engine/llm/model.h"
#include "engine/llm/tokenizer.h"
#include "tests/app/child.h"

namespace sotto::cloud::test {

// The client's peer (app/serve), named as the tests always did.
using serve::kTrickleChunks;
using serve::LoopbackServer;
using serve::parseServerFault;
using serve::ServerFault;
using serve::ServerOptions;

inline std::string sharedPath(const std::string& relative) {
  return std::string(SOTTO_SOURCE_DIR) + "/../shared/" + relative;
}
inline const std::string kStories = sharedPath("models/stories260K-f32.gguf");
// `sotto generate -m stories260K -p "Once upon a time" -n 20 --temp 0` prints exactly this.
inline const std::string kStoryPrompt = "Once upon a time";
inline const std::string kStory20 = ", there was a little girl named Lily. She loved to play outsid";

// The model, loaded once for the whole executable.
struct Engine {
  std::unique_ptr<llm::Model> model;
  std::unique_ptr<llm::Tokenizer> tokenizer;
  std::unique_ptr<llm::Generator> generator;
  static Engine& get() {
    static Engine e = [] {
      Engine x;
      auto m = llm::Model::load(kStories);
      if (!m) return x;
      x.model = std::move(*m);
      auto t = llm::Tokenizer::fromGguf(x.model->file());
      if (!t) return x;
      x.tokenizer = std::move(*t);
      llm::GeneratorOptions go;
      go.context.threads = 1;
      go.context.nCtx = 256;
      auto g = llm::Generator::create(*x.model, *x.tokenizer, go);
      if (g) x.generator = std::move(*g);
      return x;
    }();
    return e;
  }
};

inline std::unique_ptr<LoopbackServer> startServer(ServerFault fault = {}) {
  Engine& e = Engine::get();
  if (!e.generator) return nullptr;
  ServerOptions so;
  so.fault = fault;
  auto s = LoopbackServer::start(*e.generator, *e.model, so);
  return s ? std::move(*s) : nullptr;
}

inline ClientOptions clientFor(uint16_t port) {
  ClientOptions o;
  o.endpoint = "http://127.0.0.1:" + std::to_string(port);
  const uint32_t slow = static_cast<uint32_t>(sotto::test::slowFactor());
  o.connectTimeoutMs = 1000 * slow;
  o.firstByteTimeoutMs = 3000 * slow;
  o.idleTimeoutMs = 3000 * slow;
  return o;
}

inline ChatRequest storyRequest(uint32_t maxTokens = 20) {
  ChatRequest r;
  r.model = "stories";
  r.messages = {{"user", kStoryPrompt}};
  r.maxTokens = maxTokens;
  r.temperature = 0.0f;
  return r;
}

struct Collect final : DeltaSink {
  std::string text;
  size_t calls = 0;
  void onDelta(std::string_view t) override {
    text.append(t);
    ++calls;
  }
};

inline double msSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace sotto::cloud::test
