// SPDX-License-Identifier: MIT
// The sotto CLI's generate and tokenize subcommands, run as a child process (through qemu in cross builds).
#include "tests/llm_model/llm_model_util.h"

namespace sotto::llm::test {
namespace {

const std::string kStories = sharedPath("models/stories260K-f32.gguf");

TEST(CliGenerate, GreedyPrintsOnlyTheStory) {
  const Json& c = vectorModel("forward-stories260k.json", "stories260K-f32")["cases"][0];
  std::string out, err;
  const int rc = runBinary(SOTTO_CLI_PATH,
                           {"generate", "-m", kStories, "-p", "Once upon a time", "-n", "20", "--temp", "0", "-t", "1"},
                           out, err);
  ASSERT_EQ(rc, 0) << err;
  EXPECT_EQ(err, "");
  // The first 20 greedy tokens of the vector, detokenized without the prompt.
  const LoadedModel lm = loadModel(kStories);
  ASSERT_TRUE(lm.tokenizer);
  auto ids = idsOf(c["greedy"]["ids"]);
  ids.resize(20);
  const std::string want = lm.tokenizer->detokenize(ids, false, false);
  EXPECT_EQ(out, want);
  EXPECT_EQ(out, ", there was a little girl named Lily. She loved to play outsid");  // 20 tokens end mid-word
}

TEST(CliGenerate, SeededSamplingRepeats) {
  std::string a, b, err;
  const std::vector<std::string> args = {"generate", "-m", kStories, "-p", "Lily", "-n", "16", "--temp", "1",
                                         "--seed", "5", "-t", "1"};
  ASSERT_EQ(runBinary(SOTTO_CLI_PATH, args, a, err), 0) << err;
  ASSERT_EQ(runBinary(SOTTO_CLI_PATH, args, b, err), 0) << err;
  EXPECT_EQ(a, b);
  EXPECT_FALSE(a.empty());
}

TEST(CliGenerate, ErrorsAndUsage) {
  std::string out, err;
  EXPECT_EQ(runBinary(SOTTO_CLI_PATH, {"generate", "-m", "/nonexistent.gguf", "-p", "x"}, out, err), 1);
  EXPECT_EQ(out, "");
  EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
  EXPECT_NE(err.find("/nonexistent.gguf"), std::string::npos) << err;

  // Not a model: one clear line, status 1.
  const std::string notModel = sharedPath("models/README.md");
  EXPECT_EQ(runBinary(SOTTO_CLI_PATH, {"generate", "-m", notModel, "-p", "x"}, out, err), 1);
  EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;

  EXPECT_EQ(runBinary(SOTTO_CLI_PATH, {"generate", "-m", kStories}, out, err), 2);
  EXPECT_EQ(runBinary(SOTTO_CLI_PATH, {"generate", "-m", kStories, "-p", "x", "-n", "many"}, out, err), 2);
  EXPECT_EQ(runBinary(SOTTO_CLI_PATH, {"generate", "-m", kStories, "-p", "x", "--bogus"}, out, err), 2);
  EXPECT_EQ(runBinary(SOTTO_CLI_PATH, {"generate", "--help"}, out, err), 0);
  EXPECT_NE(out.find("--temp"), std::string::npos);
  EXPECT_NE(out.find("default 64"), std::string::npos);
}

TEST(CliTokenize, MatchesTheVectors) {
  const Json& vm = vectorModel("forward-stories260k.json", "stories260K-f32");
  for (const Json& c : vm["cases"].arr) {
    std::string out, err;
    ASSERT_EQ(runBinary(SOTTO_CLI_PATH, {"tokenize", "-m", kStories, c["prompt"].str}, out, err), 0) << err;
    std::string want;
    for (const TokenId id : idsOf(c["prompt_ids"])) want += (want.empty() ? "" : " ") + std::to_string(id);
    EXPECT_EQ(out, want + "\n") << c["prompt"].str;
  }
}

TEST(CliTokenize, SpecialTokensParsedUnlessNoSpecial) {
  std::string a, b, err;
  ASSERT_EQ(runBinary(SOTTO_CLI_PATH, {"tokenize", "-m", kStories, "Hello <s> world"}, a, err), 0) << err;
  ASSERT_EQ(runBinary(SOTTO_CLI_PATH, {"tokenize", "-m", kStories, "--no-special", "Hello <s> world"}, b, err), 0);
  const LoadedModel lm = loadModel(kStories);
  ASSERT_TRUE(lm.tokenizer);
  auto join = [](const std::vector<TokenId>& ids) {
    std::string s;
    for (const TokenId id : ids) s += (s.empty() ? "" : " ") + std::to_string(id);
    return s + "\n";
  };
  EXPECT_EQ(a, join(lm.tokenizer->tokenize("Hello <s> world", true, true)));
  EXPECT_EQ(b, join(lm.tokenizer->tokenize("Hello <s> world", true, false)));
  EXPECT_NE(a, b);
  EXPECT_NE(a.find(" 1 "), std::string::npos);  // <s> in the middle became BOS
  EXPECT_EQ(runBinary(SOTTO_CLI_PATH, {"tokenize", "-m", kStories}, a, err), 2);
}

// --prefix-cache: the second run restores the system turn's KV from the file and prints the same answer; a
// corrupted file is rebuilt with the reason on stderr.
TEST(CliGenerate, PrefixCacheRestoresTheSystemTurn) {
  TempDir dir;
  std::string why;
  const std::string model = makeSyntheticModel(
      dir, "tiny-llama", "q8_0", vectorModel("forward-synthetic.json", "tiny-llama-q8_0-seed1")["model"]["sha256"].str,
      &why);
  ASSERT_FALSE(model.empty()) << why;
  const std::string cache = dir.file("prefix.kv");
  const std::vector<std::string> args = {"generate", "-m", model, "--chat", "--system",
                                         "You are a kind speaker on a kitchen shelf. Answer briefly.", "-p",
                                         "what time is it", "-n", "8", "--temp", "0", "-t", "1", "--prefix-cache",
                                         cache, "--stats"};
  std::string first, second, third, err1, err2, err3;
  ASSERT_EQ(runBinary(SOTTO_CLI_PATH, args, first, err1), 0) << err1;
  EXPECT_NE(err1.find("computed"), std::string::npos) << err1;
  ASSERT_EQ(runBinary(SOTTO_CLI_PATH, args, second, err2), 0) << err2;
  EXPECT_NE(err2.find("prefix cache: 18 tokens restored"), std::string::npos) << err2;
  EXPECT_EQ(first, second);
  EXPECT_FALSE(first.empty());
  {
    std::FILE* f = std::fopen(cache.c_str(), "r+b");
    ASSERT_NE(f, nullptr);
    std::fseek(f, 200, SEEK_SET);
    std::fputc(0x55, f);
    std::fclose(f);
  }
  ASSERT_EQ(runBinary(SOTTO_CLI_PATH, args, third, err3), 0) << err3;
  EXPECT_NE(err3.find("checksum mismatch"), std::string::npos) << err3;
  EXPECT_EQ(third, first);
  // Without --chat the options make no sense.
  std::string out, err;
  EXPECT_EQ(runBinary(SOTTO_CLI_PATH, {"generate", "-m", model, "-p", "x", "--prefix-cache", cache}, out, err), 2);
}

// Resident memory stays within model file + KV cache + 32 MiB (the weights are mapped, not copied). Sanitizers
// and qemu add their own resident memory, so the bound only means something on a native, plain build.
TEST(CliGenerate, PeakResidentMemoryWithinBudget) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  GTEST_SKIP() << "sanitizer shadow memory is resident too";
#endif
  if (std::string(SOTTO_TEST_EMULATOR) != "") GTEST_SKIP() << "qemu's own memory counts in the child's RSS";
  TempDir dir;
  std::string why;
  const std::string model = makeSyntheticModel(
      dir, "tiny-llama", "f32", vectorModel("forward-synthetic.json", "tiny-llama-f32-seed1")["model"]["sha256"].str,
      &why);
  ASSERT_FALSE(model.empty()) << why;
  std::string out, err;
  ASSERT_EQ(runBinary(SOTTO_CLI_PATH, {"generate", "-m", model, "-p", "hello there", "-n", "32", "--temp", "0", "-t",
                                       "2", "-c", "2048", "--stats"},
                      out, err),
            0)
      << err;
  double peak = 0, file = 0, kv = 0, scratch = 0;
  const size_t at = err.find("memory: ");
  ASSERT_NE(at, std::string::npos) << err;
  ASSERT_EQ(std::sscanf(err.c_str() + at, "memory: peak RSS %lf MiB; model file %lf MiB, KV cache %lf MiB, scratch %lf MiB",
                        &peak, &file, &kv, &scratch),
            4)
      << err;
  EXPECT_GT(file, 10.0);
  EXPECT_GT(kv, 0.0);
  EXPECT_LE(peak, file + kv + 32.0) << err;
}

}  // namespace
}  // namespace sotto::llm::test
