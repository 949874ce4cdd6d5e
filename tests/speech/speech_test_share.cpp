// SPDX-License-Identifier: MIT
// The searches share each frame's Gaussian evaluation (detail::SenoneShare): the same transcripts as each search
// scoring on its own, one evaluation per frame, utterance after utterance; and what cannot be shared is refused
// with the decoders left as they were.
#include <gtest/gtest.h>
#include <pocketsphinx.h>

#include <algorithm>
#include <memory>
#include <utility>
#include <string>
#include <vector>

#include "engine/intents/catalogue.h"
#include "engine/speech/asr.h"
#include "engine/speech/senone_share.h"
#include "engine/speech/sphinx.h"
#include "tests/speech/speech_fixtures.h"

namespace sotto::speech {
namespace {

const std::string kShareModel = "/usr/share/pocketsphinx/model/en-us/en-us";
const std::string kShareDict = "/usr/share/pocketsphinx/model/en-us/cmudict-en-us.dict";
const std::string kShareLm = "/usr/share/pocketsphinx/model/en-us/en-us.lm.bin";

std::unique_ptr<Recognizer> shippedSearches(bool share) {
  auto catalogue = intents::Catalogue::loadFile(std::string(SOTTO_SOURCE_DIR) + "/config/intents.xml");
  EXPECT_TRUE(catalogue.ok());
  if (!catalogue.ok()) return nullptr;
  AsrConfig c;
  c.acousticModel = kShareModel;
  c.dictionary = kShareDict;
  c.languageModel = kShareLm;
  c.grammar = catalogue.value().grammar();
  c.maxHmmPerFrame = 4000;
  c.shareScores = share;
  auto r = Recognizer::create(c);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
  return r.ok() ? std::move(r).value() : nullptr;
}

// One utterance through the recognizer in 10 ms chunks, as the listener hands them over.
Transcript decodeInChunks(Recognizer& r, const std::vector<int16_t>& s) {
  Transcript t;
  EXPECT_TRUE(r.begin().ok());
  for (size_t at = 0; at < s.size(); at += 160) r.process({s.data() + at, std::min<size_t>(160, s.size() - at)});
  EXPECT_TRUE(r.finish(t).ok());
  return t;
}

TEST(SenoneShare, SearchesEvaluateEachFrameOnceAndHearWhatTheyHeardAlone) {
  if (!test::haveTool("flite") || !test::haveTool("sox")) GTEST_SKIP() << "needs flite and sox";
  test::TempDir dir;
  const std::vector<std::string> lines = {"set a timer for ten minutes", "what is the capital of france",
                                          "turn the volume down a little"};
  std::vector<std::vector<int16_t>> clips;
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string wav = dir.file(std::to_string(i) + ".wav"), pad = dir.file("p.wav"),
                      padded = dir.file(std::to_string(i) + "p.wav");
    ASSERT_TRUE(test::say(lines[i], wav) && test::silence(0.3, pad) && test::concat({pad, wav, pad}, padded));
    clips.push_back(test::readMono(padded));
    ASSERT_FALSE(clips.back().empty());
  }
  auto alone = shippedSearches(false), shared = shippedSearches(true);
  ASSERT_TRUE(alone && shared);
  EXPECT_EQ(alone->senoneShare(), nullptr);
  ASSERT_NE(shared->senoneShare(), nullptr) << shared->degradedReason();
  EXPECT_TRUE(shared->degradedReason().empty()) << shared->degradedReason();
  uint64_t frames = 0;
  // Utterance after utterance: frame numbers start again at 0 and the share must not serve the last one's.
  for (size_t i = 0; i < clips.size(); ++i) {
    const Transcript a = decodeInChunks(*alone, clips[i]), b = decodeInChunks(*shared, clips[i]);
    EXPECT_EQ(b.text, a.text) << lines[i];
    EXPECT_EQ(b.search, a.search) << lines[i];
    EXPECT_FALSE(b.text.empty()) << lines[i];
    frames += b.frames;
  }
  const detail::SenoneShare& s = *shared->senoneShare();
  // One evaluation per frame (give or take the few frames the decoders count differently at an utterance's ends;
  // each search alone evaluates three per frame between them) ...
  EXPECT_GE(s.evaluatedFrames(), frames * 9 / 10);
  EXPECT_LE(s.evaluatedFrames(), frames * 11 / 10);
  // ... and at least two requests served from it: the general search asks twice a frame (its lookahead and its
  // search), the grammar once.
  EXPECT_GE(s.sharedRequests(), 2 * s.evaluatedFrames() * 9 / 10);
}

TEST(SenoneShare, RefusesWhatItCannotShareAndLeavesTheDecodersAlone) {
  auto a = detail::makeDecoder(kShareModel, kShareDict, {"-lm", kShareLm});
  auto b = detail::makeDecoder(kShareModel, kShareDict, {"-lm", kShareLm});
  auto halved = detail::makeDecoder(kShareModel, kShareDict, {"-lm", kShareLm, "-ds", "2"});
  ASSERT_TRUE(a.ok() && b.ok() && halved.ok());

  ps_decoder_s* one[] = {a.value().get(), nullptr};
  auto r = detail::SenoneShare::share(one);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("fewer than two"), std::string::npos) << r.error().message;

  ps_decoder_s* mixed[] = {a.value().get(), halved.value().get()};
  r = detail::SenoneShare::share(mixed);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, Errc::unsupported);
  EXPECT_NE(r.error().message.find("-ds"), std::string::npos) << r.error().message;

  // Shared, then released: each decoder scores on its own again and hears what a decoder never shared hears.
  ps_decoder_s* both[] = {a.value().get(), b.value().get()};
  r = detail::SenoneShare::share(both);
  ASSERT_TRUE(r.ok()) << r.error().message;
  r.value().reset();
  if (!test::haveTool("flite") || !test::haveTool("sox")) return;
  test::TempDir dir;
  ASSERT_TRUE(test::say("what is the weather like in paris tomorrow", dir.file("w.wav")));
  const std::vector<int16_t> s = test::readMono(dir.file("w.wav"));
  ASSERT_FALSE(s.empty());
  auto fresh = detail::makeDecoder(kShareModel, kShareDict, {"-lm", kShareLm});
  ASSERT_TRUE(fresh.ok());
  auto hear = [&s](ps_decoder_s* ps) {
    EXPECT_GE(ps_start_utt(ps), 0);
    EXPECT_GE(ps_process_raw(ps, s.data(), s.size(), FALSE, TRUE), 0);
    EXPECT_GE(ps_end_utt(ps), 0);
    int32 score = 0;
    const char* hyp = ps_get_hyp(ps, &score);
    return std::make_pair(std::string(hyp != nullptr ? hyp : ""), score);
  };
  const auto released = hear(a.value().get()), never = hear(fresh.value().get());
  EXPECT_FALSE(never.first.empty());
  EXPECT_EQ(released, never);
}

}  // namespace
}  // namespace sotto::speech
