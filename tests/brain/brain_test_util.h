// SPDX-License-Identifier: MIT
// Shared by the test_brain sources: a scratch state directory, the config they start from, a recording sink.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "app/common/answer_config.h"
#include "engine/answer/brain.h"
#include "app/config/config.h"
#include "engine/router/supervisor.h"

namespace sotto::answer::test {

using app::BrainOverrides;

inline std::string sourcePath(const std::string& rel) { return std::string(SOTTO_SOURCE_DIR) + "/" + rel; }
inline std::string storiesModel() { return sourcePath("../shared/models/stories260K-f32.gguf"); }

class ScratchDir {
 public:
  ScratchDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "sotto-brain-XXXXXX").string();
    if (::mkdtemp(pattern.data()) != nullptr) path_ = pattern;
  }
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// Defaults, a state directory of the test's own and the source tree's intent catalogue.
inline config::Config testConfig(const std::string& stateDir) {
  config::Config c = config::defaults();
  c.stateDir = stateDir;
  c.modelPath = "";
  c.llmThreads = 1;
  c.contextTokens = 256;
  return c;
}

inline BrainOverrides testOverrides() {
  BrainOverrides o;
  o.cataloguePath = sourcePath("config/intents.xml");
  o.maxAnswerTokens = 12;
  return o;
}

// A brain answering from the local model `model` only: no answer cache (every ask reaches the model), the route
// forced to local (localOverrides).
inline config::Config modelOnlyConfig(const std::string& stateDir, const std::string& model) {
  config::Config c = testConfig(stateDir);
  c.modelPath = model;
  c.cacheExactEntries = 0;
  c.cacheSemanticEntries = 0;
  return c;
}
inline BrainOverrides localOverrides() {
  BrainOverrides o = testOverrides();
  o.forced = router::ForcedRoute::local;
  return o;
}

struct RecordingSink final : AskSink {
  std::vector<router::RouteDecision> decisions;
  std::vector<std::string> lines, fillers, warnings;
  std::string text;
  void onDecision(const router::RouteDecision& d, std::string_view line) override {
    decisions.push_back(d);
    lines.emplace_back(line);
  }
  void onFiller(std::string_view t) override { fillers.emplace_back(t); }
  void onText(std::string_view piece) override { text.append(piece); }
  void onWarning(std::string_view m) override { warnings.emplace_back(m); }
};

inline std::unique_ptr<Brain> makeBrain(const config::Config& c, const BrainOverrides& o) {
  auto b = Brain::create(app::brainOptionsFrom(c, o));
  EXPECT_TRUE(b.ok()) << (b.ok() ? "" : b.error().message);
  return b.ok() ? std::move(*b) : nullptr;
}

inline AskResult ask(Brain& b, const std::string& text, RecordingSink* sink = nullptr, const HeardAs& heard = {}) {
  RecordingSink local;
  RecordingSink& s = sink != nullptr ? *sink : local;
  auto r = b.ask(text, s, nullptr, heard);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
  return r.ok() ? *r : AskResult{};
}

}  // namespace sotto::answer::test
