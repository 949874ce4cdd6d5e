// SPDX-License-Identifier: MIT
// The understanding CLI as a process: `sotto intent --json` says which layer answered and degrades to the rules
// on a damaged model; `sotto nlu train` names a malformed line; `sotto nlu info` refuses a damaged file.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "engine/privacy/pii_model.h"
#include "tests/app/child.h"

namespace {

// Per process: ctest runs the tests of this file in parallel processes, which must not share their files.
std::string tempPath(const std::string& name) {
  return ::testing::TempDir() + "/nlu_cli_" + std::to_string(::getpid()) + "_" + name;
}

void writeFile(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

// Runs `sotto ARGS < input` (through the emulator in cross builds).
int sotto(const std::string& args, const std::string& input, std::string& out) {
  const std::string in = tempPath("stdin.txt");
  writeFile(in, input);
  std::string cmd;
  for (const auto& w : sotto::test::commandFor(SOTTO_CLI_PATH, {})) cmd += "'" + w + "' ";
  const int rc = sotto::test::runCapture("/bin/sh", {"-c", cmd + args + " < '" + in + "'"}, out, false);
  std::remove(in.c_str());
  return rc;
}

TEST(NluCli, IntentSaysWhichLayerAnsweredAndFallsBackToTheRules) {
  const std::string catalogue = std::string(SOTTO_SOURCE_DIR) + "/config/intents.xml";
  std::string out;
  // A phrasing the catalogue does not have: the shipped model answers it; with --rules-only nothing does.
  const std::string line = "the music is way too quiet\n";
  ASSERT_EQ(sotto("intent --json --catalogue '" + catalogue + "'", line, out), 0) << out;
  EXPECT_NE(out.find("\"intent\":\"volume.up\""), std::string::npos) << out;
  EXPECT_NE(out.find("\"source\":\"model\""), std::string::npos) << out;
  ASSERT_EQ(sotto("intent --json --rules-only --catalogue '" + catalogue + "'", line, out), 0) << out;
  EXPECT_NE(out.find("\"intent\":\"none\""), std::string::npos) << out;
  // A damaged model: reported, and the phrasings alone answer.
  const std::string bad = tempPath("bad.nlu");
  writeFile(bad, "SOTTONLU and then nothing that adds up to a model");
  ASSERT_EQ(sotto("intent --json --model '" + bad + "' --catalogue '" + catalogue + "'",
                  "set a timer for five minutes\n", out),
            0)
      << out;
  EXPECT_NE(out.find("answering with the catalogue's phrasings alone"), std::string::npos) << out;
  EXPECT_NE(out.find("\"intent\":\"timer.set\""), std::string::npos) << out;
  std::remove(bad.c_str());
}

TEST(NluCli, TrainNamesAMalformedLineAndInfoRefusesDamage) {
  const std::string data = tempPath("train.jsonl");
  writeFile(data, "{\"text\": \"turn it up\", \"intent\": \"volume.up\"}\n{\"text\": \"oops\"\n");
  std::string out;
  EXPECT_EQ(sotto("nlu train --data '" + data + "' -o '" + tempPath("m.nlu") + "'", "", out), 1) << out;
  EXPECT_NE(out.find("line 2"), std::string::npos) << out;
  EXPECT_EQ(sotto("nlu train", "", out), 2) << out;
  const std::string bad = tempPath("info.nlu");
  writeFile(bad, std::string(100, 'x'));
  EXPECT_EQ(sotto("nlu info '" + bad + "'", "", out), 1) << out;
  EXPECT_EQ(sotto("nlu info '" + std::string(SOTTO_SOURCE_DIR) + "/config/pii.nlu'", "", out), 0) << out;
  EXPECT_NE(out.find("personal-data model"), std::string::npos) << out;
  std::remove(data.c_str());
  std::remove(bad.c_str());
}

TEST(NluCli, SeveralDataFilesTrainAnEnsemble) {
  std::string lines;
  for (const char* t : {"turn it up", "crank it up a bit", "make it louder"}) {
    lines += std::string("{\"text\": \"") + t + "\", \"intent\": \"volume.up\"}\n";
  }
  for (const char* t : {"turn it down", "make it quieter", "lower it a bit"}) {
    lines += std::string("{\"text\": \"") + t + "\", \"intent\": \"volume.down\"}\n";
  }
  for (const char* t : {"what do cats eat", "tell me a story", "who painted this", "why is the sky blue"}) {
    lines += std::string("{\"text\": \"") + t + "\", \"intent\": \"none\"}\n";
  }
  std::string all;
  for (int i = 0; i < 20; ++i) all += lines;
  const std::string a = tempPath("ens-a.jsonl"), b = tempPath("ens-b.jsonl"), model = tempPath("ens.nlu");
  writeFile(a, all);
  writeFile(b, all);
  std::string out;
  ASSERT_EQ(sotto("nlu train --data '" + a + "' --data '" + b + "' --bits-intent 10 --bits-tag 10 -o '" + model + "'", "",
                  out), 0) << out;
  EXPECT_NE(out.find("member 2 of 2"), std::string::npos) << out;
  ASSERT_EQ(sotto("nlu info '" + model + "'", "", out), 0) << out;
  EXPECT_NE(out.find("intent classifiers 2"), std::string::npos) << out;
  // Nine files are more than a model holds.
  std::string nine;
  for (int i = 0; i < 9; ++i) nine += " --data '" + a + "'";
  EXPECT_EQ(sotto("nlu train" + nine + " -o '" + model + "'", "", out), 2) << out;
  EXPECT_NE(out.find("at most 8"), std::string::npos) << out;
  for (const auto& p : {a, b, model}) std::remove(p.c_str());
}

TEST(NluCli, LmWritesTheSpokenCommandsAsArpa) {
  const std::string data = tempPath("lm.jsonl"), dict = tempPath("lm.dict"), out = tempPath("lm.arpa");
  writeFile(data,
            "{\"text\": \"turn it up\", \"intent\": \"volume.up\", \"form\": \"spoken\"}\n"
            "{\"text\": \"turn it down\", \"intent\": \"volume.down\", \"form\": \"spoken\"}\n"
            "{\"text\": \"Set a timer for 5 minutes.\", \"intent\": \"timer.set\", \"form\": \"written\"}\n"
            "{\"text\": \"what do cats eat\", \"intent\": \"none\", \"form\": \"spoken\"}\n"
            "{\"text\": \"turn it upp\", \"intent\": \"volume.up\", \"form\": \"spoken\"}\n");
  writeFile(dict, "turn T ER N\nit IH T\nup AH P\ndown D AW N\nup(2) AH P\n");
  std::string o;
  ASSERT_EQ(sotto("nlu lm --data '" + data + "' --dict '" + dict + "' -o '" + out + "'", "", o), 0) << o;
  EXPECT_NE(o.find("sentences 2 (left out: 1 with a word the dictionary lacks, 2 not spoken commands"), std::string::npos) << o;
  std::ifstream f(out);
  std::stringstream arpa;
  arpa << f.rdbuf();
  EXPECT_EQ(arpa.str().rfind("\\data\\\nngram 1=6\n", 0), 0u) << arpa.str();  // <s> turn it up down </s>
  // Open requests on request; a malformed line is named; nothing usable is an error.
  ASSERT_EQ(sotto("nlu lm --data '" + data + "' --with-none -o '" + out + "'", "", o), 0) << o;
  EXPECT_NE(o.find("sentences 4 "), std::string::npos) << o;
  // --min-count 2: "<s> turn" and "turn it" (seen twice) are the bigrams left, "<s> turn it" the trigram; a bad
  // count is refused.
  ASSERT_EQ(sotto("nlu lm --data '" + data + "' --dict '" + dict + "' --min-count 2 -o '" + out + "'", "", o), 0)
      << o;
  {
    std::ifstream pruned(out);
    std::stringstream text;
    text << pruned.rdbuf();
    EXPECT_EQ(text.str().rfind("\\data\\\nngram 1=6\nngram 2=2\nngram 3=1\n", 0), 0u) << text.str();
  }
  for (const char* bad : {"0", "x", "1000", ""}) {
    EXPECT_EQ(sotto("nlu lm --data '" + data + "' --min-count '" + std::string(bad) + "' -o '" + out + "'", "", o), 2)
        << bad << ": " << o;
  }
  writeFile(data, "{\"text\": \"turn it up\"}\n");
  EXPECT_EQ(sotto("nlu lm --data '" + data + "' -o '" + out + "'", "", o), 1) << o;
  EXPECT_NE(o.find("line 1"), std::string::npos) << o;
  writeFile(data, "{\"text\": \"Hello.\", \"intent\": \"none\", \"form\": \"written\"}\n");
  EXPECT_EQ(sotto("nlu lm --data '" + data + "' -o '" + out + "'", "", o), 1) << o;
  EXPECT_EQ(sotto("nlu lm -o '" + out + "'", "", o), 2) << o;
  for (const auto& p : {data, dict, out}) std::remove(p.c_str());
}

// A model that suspects HEALTH in every word but never reports it as a span: the line says so.
TEST(NluCli, PiiSaysWhichTypesTheModelSuspects) {
  namespace sp = sotto::privacy;
  sotto::nlu::LinearLayer layer(10, sp::kPiiTagCount);
  std::vector<float> weights(layer.rows() * layer.classes(), 0.0f), bias(layer.classes(), 0.0f);
  bias[1 + 2 * static_cast<std::size_t>(sp::PiiType::health)] = 8.0f;  // "begins HEALTH" almost surely
  layer.setWeights(weights, bias);
  sp::PiiModel::Thresholds span{}, suspect{};
  span.fill(1.0f);
  suspect.fill(1.0f);
  suspect[static_cast<std::size_t>(sp::PiiType::health)] = 0.5f;
  const sp::PiiModel model(std::move(layer), span, suspect, "suspects health");
  const std::string path = tempPath("suspect.nlu");
  ASSERT_TRUE(model.saveFile(path).ok());
  std::string out;
  ASSERT_EQ(sotto("pii --json --model '" + path + "'", "what is the capital of chile\n", out), 0) << out;
  EXPECT_NE(out.find("\"spans\":[],\"suspected\":[\"HEALTH\"]}"), std::string::npos) << out;
  ASSERT_EQ(sotto("pii --json --rules-only", "what is the capital of chile\n", out), 0) << out;
  EXPECT_EQ(out.find("suspected"), std::string::npos) << out;
  std::remove(path.c_str());
}

}  // namespace
