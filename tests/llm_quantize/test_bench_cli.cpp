// SPDX-License-Identifier: MIT
// sotto-bench llm, run briefly on tiny-llama as a child process: the JSON lines and the table have their shape.
#include "tests/llm_quantize/quantize_util.h"

namespace sotto::llm::test {
namespace {

class BenchCli : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why;
    model_ = makeSyntheticModel(dir_, "tiny-llama", "q8_0", kTinyQ8Sha, &why);
    ASSERT_FALSE(model_.empty()) << why;
  }
  TempDir dir_;
  std::string model_;
};

TEST_F(BenchCli, JsonHasOneObjectPerTest) {
  std::string out, err;
  ASSERT_EQ(runBinary(SOTTO_BENCH_PATH,
                      {"llm", "-m", model_, "-t", "1", "-p", "8,16", "-n", "4", "-r", "2", "--ttft", "24,4", "--json"},
                      out, err),
            0)
      << err;
  std::istringstream lines(out);
  std::vector<Json> objs;
  for (std::string line; std::getline(lines, line);) objs.push_back(sotto::test::JsonParser::parse(line));
  ASSERT_EQ(objs.size(), 4u) << out;
  const char* want[] = {"pp8", "pp16", "tg4", "ttft"};
  for (size_t i = 0; i < objs.size(); ++i) {
    const Json& o = objs[i];
    EXPECT_EQ(o["test"].str, want[i]);
    EXPECT_EQ(o["threads"].num, 1);
    EXPECT_GT(o["tokens_per_s"].num, 0.0) << want[i];
    EXPECT_GE(o["tokens_per_s_std"].num, 0.0);
    EXPECT_EQ(o["reps"].num, 2);
    EXPECT_EQ(o["model_type"].str, "Q8_0");
    EXPECT_EQ(o["model_bytes"].num, 5192608);
    EXPECT_EQ(o["params"].num, 3219776);  // 2 layers of tiny-llama plus the 49152 × 64 embedding
    EXPECT_EQ(o["arch"].str, "llama");
    EXPECT_GT(o["baseline_gbps"].num, 0.0);
    EXPECT_GT(o["peak_rss_bytes"].num, 5192608) << "the populated mapping alone is that big";
  }
  EXPECT_EQ(objs[0]["n_prompt"].num, 8);
  EXPECT_GT(objs[2]["bytes_per_token"].num, 3e6);  // every matrix, token_embd as the tied output
  EXPECT_GT(objs[2]["bandwidth_fraction"].num, 0.0);
  const Json& ttft = objs[3];
  EXPECT_EQ(ttft["reused_tokens"].num, 24);  // the cached system prompt
  EXPECT_GT(ttft["ttft_ms"].num, 0.0);
  EXPECT_GT(ttft["ttft_cold_ms"].num, 0.0);
}

TEST_F(BenchCli, TableAndErrors) {
  std::string out, err;
  ASSERT_EQ(runBinary(SOTTO_BENCH_PATH, {"llm", "-m", model_, "-t", "1", "-p", "8", "-n", "2", "-r", "1", "--no-ttft"},
                      out, err),
            0)
      << err;
  EXPECT_NE(out.find("| model "), std::string::npos) << out;
  EXPECT_NE(out.find("|    pp8 |"), std::string::npos) << out;
  EXPECT_NE(out.find("|    tg2 |"), std::string::npos) << out;
  EXPECT_NE(out.find("load average"), std::string::npos);
  EXPECT_NE(out.find("peak RSS"), std::string::npos);
  EXPECT_EQ(out.find("ttft"), std::string::npos);

  EXPECT_EQ(runBinary(SOTTO_BENCH_PATH, {"llm"}, out, err), 2);
  EXPECT_NE(err.find("-m FILE is required"), std::string::npos) << err;
  EXPECT_EQ(runBinary(SOTTO_BENCH_PATH, {"llm", "-m", model_, "-p", "8,x"}, out, err), 2);
  EXPECT_EQ(runBinary(SOTTO_BENCH_PATH, {"llm", "-m", model_, "-t", "0"}, out, err), 2);
  EXPECT_EQ(runBinary(SOTTO_BENCH_PATH, {"llm", "-m", "/nonexistent.gguf"}, out, err), 1);
  EXPECT_EQ(runBinary(SOTTO_BENCH_PATH, {"frobnicate"}, out, err), 2);
}

}  // namespace
}  // namespace sotto::llm::test
