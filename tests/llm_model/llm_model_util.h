// SPDX-License-Identifier: MIT
// Helpers shared by the test_llm_model sources: shared paths, vectors, synthetic models, comparisons, child runs.
#pragma once

#include <gtest/gtest.h>
#include <sodium.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "engine/llm/forward.h"
#include "engine/llm/generator.h"
#include "engine/llm/model.h"
#include "engine/llm/tokenizer.h"
#include "tests/compute/json_lite.h"

namespace sotto::llm::test {

using sotto::test::Json;

// ../shared beside the checkout holds the models, the vectors and mkgguf.py.
inline std::string sharedPath(const std::string& relative) {
  return std::string(SOTTO_SOURCE_DIR) + "/../shared/" + relative;
}

inline std::string readText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// Parsed once per process: the synthetic file is 8 MB.
inline const Json& vectors(const std::string& name) {
  static std::map<std::string, std::unique_ptr<Json>> cache;
  auto& slot = cache[name];
  if (!slot) slot = std::make_unique<Json>(sotto::test::JsonParser::parse(readText(sharedPath("vectors/" + name))));
  return *slot;
}

inline const Json& vectorModel(const std::string& file, const std::string& name) {
  for (const Json& m : vectors(file)["models"].arr) {
    if (m["name"].str == name) return m;
  }
  throw std::runtime_error("no model " + name + " in " + file);
}

inline std::vector<TokenId> idsOf(const Json& arr) {
  std::vector<TokenId> ids;
  for (const Json& v : arr.arr) ids.push_back(static_cast<TokenId>(v.num));
  return ids;
}

inline std::string sha256File(const std::string& path) {
  const std::string bytes = readText(path);
  EXPECT_GE(sodium_init(), 0);
  unsigned char digest[crypto_hash_sha256_BYTES];
  crypto_hash_sha256(digest, reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size());
  char hex[2 * crypto_hash_sha256_BYTES + 1];
  sodium_bin2hex(hex, sizeof hex, digest, sizeof digest);
  return hex;
}

// A fresh directory under TMPDIR, removed with everything in it when the object goes.
class TempDir {
 public:
  TempDir() {
    const char* base = std::getenv("TMPDIR");
    std::string pattern = std::string(base != nullptr && *base != '\0' ? base : "/tmp") + "/sotto-model-XXXXXX";
    if (::mkdtemp(pattern.data()) != nullptr) path_ = pattern;
  }
  ~TempDir() {
    std::error_code ec;
    if (!path_.empty()) std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  std::string file(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

// Runs mkgguf.py (seed 1) and checks the file against the sha256 the vectors were made from; "" on failure
// (with the reason in *why).
inline std::string makeSyntheticModel(const TempDir& dir, const std::string& shape, const std::string& type,
                                      const std::string& sha256, std::string* why) {
  const std::string out = dir.file(shape + "-" + type + ".gguf");
  const std::string cmd = "/usr/bin/python3 " + sharedPath("tools/mkgguf.py") + " --shape " + shape + " --type " +
                          type + " --seed 1 -q -o " + out + " > /dev/null";
  if (std::system(cmd.c_str()) != 0) {
    *why = "mkgguf.py failed: " + cmd;
    return "";
  }
  const std::string got = sha256File(out);
  if (got != sha256) {
    *why = "generated " + shape + " " + type + " has sha256 " + got + ", the vectors expect " + sha256 +
           " (mkgguf.py changed: the vectors are stale)";
    return "";
  }
  return out;
}

// The model with its tokenizer, loaded once.
struct LoadedModel {
  std::unique_ptr<Model> model;
  std::unique_ptr<Tokenizer> tokenizer;
};

inline LoadedModel loadModel(const std::string& path) {
  LoadedModel m;
  auto model = Model::load(path);
  EXPECT_TRUE(model.ok()) << (model.ok() ? "" : model.error().message);
  if (!model) return m;
  m.model = std::move(*model);
  auto tok = Tokenizer::fromGguf(m.model->file());
  EXPECT_TRUE(tok.ok()) << (tok.ok() ? "" : tok.error().message);
  if (tok) m.tokenizer = std::move(*tok);
  return m;
}

inline std::unique_ptr<InferenceContext> makeContext(const Model& model, const std::string& backend = "cpu",
                                                     unsigned threads = 1, uint32_t nCtx = 512,
                                                     uint32_t maxBatch = 512) {
  ContextOptions o;
  o.backend = backend;
  o.threads = threads;
  o.nCtx = nCtx;
  o.maxBatch = maxBatch;
  auto c = InferenceContext::create(model, o);
  EXPECT_TRUE(c.ok()) << (c.ok() ? "" : c.error().message);
  return c.ok() ? std::move(*c) : nullptr;
}

// Logits of every prompt position in one batch.
inline std::vector<float> allLogits(InferenceContext& ctx, const std::vector<TokenId>& ids) {
  const size_t V = ctx.model().params().nVocab;
  std::vector<float> out(ids.size() * V);
  ctx.reset();
  EvalOutputs eo;
  eo.allLogits = out;
  const Status st = ctx.eval(ids, eo);
  EXPECT_TRUE(st.ok()) << (st.ok() ? "" : st.error().message);
  return out;
}

inline size_t argmax(std::span<const float> v) {
  return static_cast<size_t>(std::max_element(v.begin(), v.end()) - v.begin());
}

inline double cosine(std::span<const float> a, std::span<const float> b) {
  double ab = 0, aa = 0, bb = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    ab += static_cast<double>(a[i]) * b[i];
    aa += static_cast<double>(a[i]) * a[i];
    bb += static_cast<double>(b[i]) * b[i];
  }
  return ab / std::sqrt(aa * bb);
}

// Greedy ids from the generator (token by token after the prompt), never stopping at EOG, as the vectors.
inline std::vector<TokenId> greedyIds(Generator& g, const std::vector<TokenId>& prompt, size_t n) {
  struct Collect final : GenerationSink {
    std::vector<TokenId> ids;
    void onToken(const GeneratedToken& t) override { ids.push_back(t.id); }
  } sink;
  GenerateOptions o;
  o.maxTokens = n;
  o.sampling.temperature = 0.0f;
  o.stopAtEog = false;
  o.reusePrefix = false;
  auto r = g.generate(std::span<const TokenId>(prompt), o, &sink);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
  return sink.ids;
}

// How many leading greedy ids agree, and up to where a comparison is meaningful (first margin below tol).
struct GreedyMatch {
  size_t matched = 0;
  size_t comparable = 0;
};
inline GreedyMatch compareGreedy(const Json& greedy, const std::vector<TokenId>& ours, float marginTol) {
  const auto want = idsOf(greedy["ids"]);
  GreedyMatch g;
  const auto& margins = greedy["margin_to_second"].arr;
  while (g.comparable < want.size() && margins[g.comparable].num >= marginTol) ++g.comparable;
  if (g.comparable < want.size()) ++g.comparable;  // the low-margin step itself may still agree; not required
  while (g.matched < std::min(want.size(), ours.size()) && want[g.matched] == ours[g.matched]) ++g.matched;
  return g;
}

// Runs one of our binaries (through the emulator in cross builds), capturing stdout and stderr separately.
inline int runBinary(const std::string& binary, const std::vector<std::string>& args, std::string& out,
                     std::string& err) {
  std::vector<std::string> argv;
  std::istringstream emu(SOTTO_TEST_EMULATOR);
  for (std::string w; emu >> w;) argv.push_back(w);
  argv.push_back(binary);
  argv.insert(argv.end(), args.begin(), args.end());
  int o[2], e[2];
  if (pipe(o) != 0 || pipe(e) != 0) return -1;
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(o[1], 1);
    dup2(e[1], 2);
    close(o[0]);
    close(e[0]);
    std::vector<char*> cargv;
    for (auto& a : argv) cargv.push_back(a.data());
    cargv.push_back(nullptr);
    execv(cargv[0], cargv.data());
    _exit(127);
  }
  close(o[1]);
  close(e[1]);
  out.clear();
  err.clear();
  // Small outputs: drain stdout then stderr (stderr holds at most a few lines, far below the pipe buffer).
  char buf[4096];
  ssize_t n;
  while ((n = read(o[0], buf, sizeof buf)) > 0) out.append(buf, static_cast<size_t>(n));
  while ((n = read(e[0], buf, sizeof buf)) > 0) err.append(buf, static_cast<size_t>(n));
  close(o[0]);
  close(e[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

}  // namespace sotto::llm::test
