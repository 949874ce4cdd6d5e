// SPDX-License-Identifier: MIT
// Speaker enrollment (engine/speech/enroll.h): the stock model's mixture weights decoded for sphinxtrain, the
// errors for what it cannot use, and a real adaptation from generated speech.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "engine/speech/enroll.h"
#include "tests/speech/speech_fixtures.h"

namespace sotto::speech {
namespace {

const std::string kEnrollModel = "/usr/share/pocketsphinx/model/en-us/en-us";
const std::string kEnrollDict = "/usr/share/pocketsphinx/model/en-us/cmudict-en-us.dict";
const std::string kEnrollTools = "/usr/lib/sphinxtrain";

bool enrollFileExists(const std::string& p) {
  struct stat st{};
  return ::stat(p.c_str(), &st) == 0;
}

std::string enrollSlurp(const std::string& p) {
  std::ifstream f(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

#define REQUIRE_SPHINXTRAIN()                                                                                \
  do {                                                                                                       \
    if (!enrollFileExists(kEnrollTools + "/bw") || !enrollFileExists(kEnrollModel + "/sendump") ||                                   \
        !::sotto::test::haveTool("pocketsphinx_mdef_convert") || !::sotto::test::haveTool("sphinx_fe")) {    \
      GTEST_SKIP() << "sphinxtrain, sphinxbase-utils and pocketsphinx are needed (toolchain/install-deps.sh)"; \
    }                                                                                                        \
  } while (0)

// The decoded weights, written back by sphinxtrain's own encoder, are the stock file byte for byte: bw adapts the
// model pocketsphinx actually runs.
TEST(Enroll, SendumpDecodesToWhatSphinxtrainEncodes) {
  REQUIRE_SPHINXTRAIN();
  test::TempDir dir;
  ASSERT_TRUE(dir.ok());
  const std::string mixw = dir.file("mixture_weights"), mdef = dir.file("mdef.txt"), back = dir.file("sendump");
  ASSERT_TRUE(sendumpToMixtureWeights(kEnrollModel + "/sendump", mixw).ok());
  ASSERT_TRUE(test::run("pocketsphinx_mdef_convert -text '" + kEnrollModel + "/mdef' '" + mdef + "'"));
  ASSERT_TRUE(test::run(kEnrollTools + "/mk_s2sendump -pocketsphinx yes -moddeffn '" + mdef + "' -mixwfn '" + mixw +
                        "' -mwfloor 1e-8 -sendumpfn '" + back + "'"));
  const std::string a = enrollSlurp(kEnrollModel + "/sendump"), b = enrollSlurp(back);
  ASSERT_EQ(a.size(), b.size());
  EXPECT_TRUE(a == b);
}

TEST(Enroll, BrokenSendumpIsAnError) {
  if (!enrollFileExists(kEnrollModel + "/sendump")) GTEST_SKIP() << "pocketsphinx-en-us is not installed";
  test::TempDir dir;
  ASSERT_TRUE(dir.ok());
  const std::string whole = enrollSlurp(kEnrollModel + "/sendump");
  {
    std::ofstream f(dir.file("short"), std::ios::binary);
    f.write(whole.data(), 2000);  // header and a few weights
  }
  {
    std::ofstream f(dir.file("noise"), std::ios::binary);
    for (int i = 0; i < 4096; ++i) f.put(static_cast<char>(i * 37 + 11));
  }
  auto s = sendumpToMixtureWeights(dir.file("short"), dir.file("out1"));
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, Errc::corrupt) << s.error().message;
  s = sendumpToMixtureWeights(dir.file("noise"), dir.file("out2"));
  ASSERT_FALSE(s.ok());
  s = sendumpToMixtureWeights(dir.file("absent"), dir.file("out3"));
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, Errc::not_found);
  EXPECT_FALSE(enrollFileExists(dir.file("out1")));
  EXPECT_FALSE(enrollFileExists(dir.file("out2")));
}

// Generated prompts: `n` lines spoken by flite `voice` into DIR/uNN.wav.
std::vector<EnrollUtterance> speakPrompts(const test::TempDir& dir, const std::vector<std::string>& lines, size_t n,
                                   const std::string& voice) {
  std::vector<EnrollUtterance> out;
  for (size_t k = 0; k < n && k < lines.size(); ++k) {
    const std::string wav = dir.file("u" + std::to_string(k) + ".wav"), raw = wav + ".raw.wav";
    if (!test::run("flite -voice " + voice + " -t \"" + lines[k] + "\" -o '" + raw + "'") ||
        !test::run("sox -R '" + raw + "' -r 16000 -c 1 -b 16 '" + wav + "'")) {
      return {};
    }
    out.push_back({wav, lines[k]});
  }
  return out;
}

const std::vector<std::string> kEnrollPrompts = {
    "stop timer", "how do i change the time on my microwave", "is my alarm set", "bring the volume up to five",
    "weather please", "scrap that timer", "what day of the week is it for me", "how long is a year on mercury",
    "would it be possible to put the volume to nine", "well what is one plus two again", "tomorrow forecast please",
    "start a timer called bath time for twelve minutes thirty seconds"};

EnrollOptions stockOptions(const std::string& out) {
  EnrollOptions o;
  o.baseModel = kEnrollModel;
  o.dictionary = kEnrollDict;
  o.outModel = out;
  return o;
}

TEST(Enroll, RefusesWhatItCannotUseAndWritesNothing) {
  SOTTO_REQUIRE_SPEECH_TOOLS();
  REQUIRE_SPHINXTRAIN();
  test::TempDir dir;
  ASSERT_TRUE(dir.ok());
  auto utts = speakPrompts(dir, kEnrollPrompts, 12, "slt");
  ASSERT_EQ(utts.size(), 12u);
  EnrollOptions o = stockOptions(dir.file("model"));

  auto few = std::vector<EnrollUtterance>(utts.begin(), utts.begin() + 5);
  auto r = enrollSpeaker(few, o);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, Errc::invalid_argument);
  EXPECT_NE(r.error().message.find("at least 10"), std::string::npos) << r.error().message;

  auto oov = utts;
  oov[3].transcript = "bring the volume up to zzyzxq";
  r = enrollSpeaker(oov, o);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("'zzyzxq'"), std::string::npos) << r.error().message;

  EnrollOptions noModel = o;
  noModel.baseModel = dir.file("empty");
  ASSERT_EQ(::mkdir(noModel.baseModel.c_str(), 0755), 0);
  r = enrollSpeaker(utts, noModel);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, Errc::not_found);

  EnrollOptions noTools = o;
  noTools.toolsDir = dir.file("no-sphinxtrain");
  r = enrollSpeaker(utts, noTools);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("sphinxtrain"), std::string::npos) << r.error().message;

  EXPECT_FALSE(enrollFileExists(o.outModel));
  EXPECT_FALSE(enrollFileExists(o.outModel + ".partial"));
}

// A real adaptation: the adapted model explains its speaker's prompts better than the stock one did (bw's average
// log-likelihood per frame, measured before each adaptation), pocketsphinx loads it, and a second enrollment keeps
// the first as MODEL.previous.
TEST(Enroll, AdaptsToItsSpeaker) {
  SOTTO_REQUIRE_SPEECH_TOOLS();
  REQUIRE_SPHINXTRAIN();
  test::TempDir dir;
  ASSERT_TRUE(dir.ok());
  auto utts = speakPrompts(dir, kEnrollPrompts, 12, "kal");
  ASSERT_EQ(utts.size(), 12u);
  EnrollOptions o = stockOptions(dir.file("model"));
  auto first = enrollSpeaker(utts, o);
  ASSERT_TRUE(first.ok()) << first.error().message;
  EXPECT_EQ(first->utterances, 12u);
  EXPECT_GE(first->aligned, 10u);
  EXPECT_GT(first->frames, 1000u);
  for (const char* f : {"mdef", "feat.params", "means", "variances", "sendump", "transition_matrices", "noisedict"}) {
    EXPECT_TRUE(enrollFileExists(o.outModel + "/" + f)) << f;
  }

  EnrollOptions again = o;
  again.baseModel = o.outModel;
  again.outModel = dir.file("model2");
  auto second = enrollSpeaker(utts, again);
  ASSERT_TRUE(second.ok()) << second.error().message;
  EXPECT_GT(second->logLikelihoodPerFrame, first->logLikelihoodPerFrame + 1.0)
      << "stock " << first->logLikelihoodPerFrame << ", adapted " << second->logLikelihoodPerFrame;

  auto third = enrollSpeaker(utts, o);  // over the first: kept aside
  ASSERT_TRUE(third.ok()) << third.error().message;
  EXPECT_TRUE(enrollFileExists(o.outModel + ".previous/means"));

  // The recognizer runs on it: the wake phrase and a held-out command said by the same voice.
  const std::string clip = dir.file("clip.wav"), raw = clip + ".raw.wav";
  ASSERT_TRUE(test::run("flite -voice kal -t \"hey computer. set a timer for ten minutes\" -o '" + raw + "'"));
  ASSERT_TRUE(test::run("sox -R '" + raw + "' -r 16000 -c 1 -b 16 '" + dir.file("c.wav") + "'"));
  ASSERT_TRUE(test::silence(1.0, dir.file("s1.wav")));
  ASSERT_TRUE(test::silence(1.5, dir.file("s2.wav")));
  ASSERT_TRUE(test::concat({dir.file("s1.wav"), dir.file("c.wav"), dir.file("s2.wav")}, clip));
  std::string output;
  int exitCode = -1;
  const auto events = test::listen(clip, output, exitCode, {"--set", "asr.acoustic-model=" + o.outModel});
  EXPECT_EQ(exitCode, 0) << output;
  bool final = false;
  for (const auto& e : events) final = final || (e.event == "final" && !e.text.empty());
  EXPECT_TRUE(final) << output;
}

}  // namespace
}  // namespace sotto::speech
