// SPDX-License-Identifier: MIT
// Resampler (rates, lengths, frequency kept) and TtsStage: streaming start, resampled output, cancellation.
#include <gtest/gtest.h>

#include <future>

#include <chrono>
#include <cmath>
#include <thread>

#include "engine/pipeline/health.h"
#include "engine/speech/audio_stage.h"
#include "engine/speech/resampler.h"
#include "sotto/hal/audio.h"
#include "tests/support/alloc_counter.h"
#include "tests/tts/tts_fixtures.h"

namespace sotto::test {
namespace {

std::vector<int16_t> sine(double hz, uint32_t rate, size_t frames) {
  std::vector<int16_t> s(frames);
  for (size_t i = 0; i < frames; ++i) s[i] = int16_t(10000 * std::sin(2 * M_PI * hz * double(i) / rate));
  return s;
}

size_t zeroCrossings(std::span<const int16_t> s) {
  size_t n = 0;
  for (size_t i = 1; i < s.size(); ++i) n += (s[i - 1] < 0) != (s[i] < 0);
  return n;
}

// 1 s of 440 Hz through the resampler in TTS-sized chunks.
std::vector<int16_t> resample(uint32_t in, uint32_t out, size_t chunk) {
  auto r = speech::Resampler::create(in, out);
  EXPECT_TRUE(r.ok());
  const auto src = sine(440, in, in);
  std::vector<int16_t> dst, buf((*r)->maxOutput(chunk));
  for (size_t at = 0; at < src.size(); at += chunk) {
    const size_t n = std::min(chunk, src.size() - at);
    const size_t got = (*r)->process(std::span<const int16_t>(src.data() + at, n), buf);
    EXPECT_LE(got, (*r)->maxOutput(n));
    dst.insert(dst.end(), buf.begin(), buf.begin() + static_cast<std::ptrdiff_t>(got));
  }
  buf.resize((*r)->maxOutput((*r)->inputLatency()));
  const size_t tail = (*r)->flush(buf);
  dst.insert(dst.end(), buf.begin(), buf.begin() + static_cast<std::ptrdiff_t>(tail));
  return dst;
}

TEST(Resampler, LengthAndFrequencyAcrossRates) {
  for (auto [in, out] : {std::pair{16000u, 48000u}, std::pair{8000u, 48000u}, std::pair{16000u, 44100u},
                         std::pair{22050u, 16000u}}) {
    const auto dst = resample(in, out, 320);
    // One second in, one second out (the flush returns the filter's delay line).
    EXPECT_NEAR(double(dst.size()), double(out), out * 0.005) << in << " -> " << out;
    // 440 Hz: 880 zero crossings per second whatever the rate.
    EXPECT_NEAR(double(zeroCrossings(dst)), 880.0, 6.0) << in << " -> " << out;
  }
}

TEST(Resampler, EqualRatesPassThroughAndBadRatesFail) {
  auto r = speech::Resampler::create(16000, 16000);
  ASSERT_TRUE(r.ok());
  const auto src = sine(300, 16000, 500);
  std::vector<int16_t> out(600);
  EXPECT_EQ((*r)->process(src, out), 500u);
  EXPECT_TRUE(std::equal(src.begin(), src.end(), out.begin()));
  EXPECT_FALSE(speech::Resampler::create(0, 16000).ok());
  EXPECT_FALSE(speech::Resampler::create(16000, 48000, 11).ok());
}

TEST(Resampler, NoAllocationWhileProcessing) {
  if (!AllocCounter::supported()) GTEST_SKIP() << "allocation counting unsupported in this build";
  auto r = speech::Resampler::create(16000, 48000);
  ASSERT_TRUE(r.ok());
  const auto src = sine(440, 16000, 320);
  std::vector<int16_t> out((*r)->maxOutput(320));
  NoAllocScope scope;
  for (int i = 0; i < 100; ++i) (*r)->process(src, out);
  (*r)->flush(out);
  EXPECT_EQ(scope.allocations(), 0u);
}

constexpr const char* kAnswer =
    "Sure. Your timer is set for five minutes, and I will tell you when it rings. Anything else?";

// Splits like a model's tokens: short pieces, cut mid-word.
std::vector<std::string> tokens(const std::string& text) {
  std::vector<std::string> t;
  for (size_t at = 0; at < text.size(); at += 3) t.push_back(text.substr(at, 3));
  return t;
}

TEST(TtsStage, StartsSpeakingAtTheFirstClauseAndResamples) {
  MemoryOutput out(48000);
  size_t tokensFedAtFirstAudio = 0, fed = 0;
  out.onWrite = [&](size_t writes) {
    if (writes == 1) tokensFedAtFirstAudio = fed;
  };
  auto engine = flite("slt");
  ASSERT_NE(engine, nullptr);
  auto stage = speech::TtsStage::create(std::move(engine), out);
  ASSERT_TRUE(stage.ok()) << stage.error().message;
  pipeline::CancelToken cancel;
  (*stage)->begin(cancel);
  const auto toks = tokens(kAnswer);
  for (const auto& t : toks) {
    ++fed;
    ASSERT_TRUE((*stage)->feed(t).ok());
  }
  ASSERT_TRUE((*stage)->finish().ok());
  // "Sure." is complete once the space after it arrives, in the second token ("e. "): speech starts there.
  EXPECT_EQ(tokensFedAtFirstAudio, 2u);
  const auto& st = (*stage)->stats();
  EXPECT_EQ(st.phrases, 4u);  // Sure. | Your timer is set for five minutes, | and I ... rings. | Anything else?
  EXPECT_FALSE(st.cancelled);
  EXPECT_GE(st.firstAudioNs, st.firstTextNs);
  EXPECT_EQ(st.framesOut, out.samples.size());
  // The same text spoken whole, at the voice's rate: the stage's output is that, three times as many samples.
  size_t nativeFrames = 0;
  for (const char* phrase : {"Sure.", "Your timer is set for five minutes,", "and I will tell you when it rings.",
                             "Anything else?"}) {
    Collector c;
    ASSERT_TRUE(flite("slt")->synthesize(phrase, c, cancel).ok());
    nativeFrames += c.samples.size();
  }
  EXPECT_NEAR(double(out.samples.size()), nativeFrames * 3.0, 48.0);
  EXPECT_GT(rmsDbfs(out.samples), -35.0);
}

// Samples before the first one above the silence level (-50 dBFS).
size_t leadingSilence(std::span<const int16_t> s) {
  size_t i = 0;
  while (i < s.size() && s[i] <= 100 && s[i] >= -100) ++i;
  return i;
}

TEST(TtsStage, TrimsTheVoicesOpeningPauseButNotThePausesInside) {
  pipeline::CancelToken cancel;
  MemoryOutput plain(48000), trimmed(48000);
  auto a = speech::TtsStage::create(flite("slt"), plain);
  auto b = speech::TtsStage::create(flite("slt"), trimmed);
  ASSERT_TRUE(a.ok() && b.ok());
  (*b)->trimLeadingSilence(20);
  ASSERT_TRUE((*a)->speak(kAnswer, cancel).ok());
  ASSERT_TRUE((*b)->speak(kAnswer, cancel).ok());
  // flite opens with a pause long enough to matter for the first-audio target.
  const size_t before = leadingSilence(plain.samples);
  EXPECT_GT(before, 48000u * 80 / 1000);
  EXPECT_EQ((*a)->stats().trimmedFrames, 0u);
  // Trimmed: sound within the 20 ms preroll (plus the resampler's filter delay), and nothing else removed.
  EXPECT_LE(leadingSilence(trimmed.samples), 48000u * 25 / 1000);
  const uint64_t cut = (*b)->stats().trimmedFrames * 3;  // slt speaks at 16 kHz, the output is 48 kHz
  EXPECT_GT(cut, 0u);
  EXPECT_NEAR(double(trimmed.samples.size() + cut), double(plain.samples.size()), 48.0);
  // The next answer is trimmed again.
  const size_t first = trimmed.samples.size();
  ASSERT_TRUE((*b)->speak("Okay.", cancel).ok());
  EXPECT_LE(leadingSilence(std::span<const int16_t>(trimmed.samples).subspan(first)), 48000u * 25 / 1000);
}

TEST(TtsStage, ASlowFirstPhraseIsSpokenFromItsWholeWords) {
  pipeline::CancelToken cancel;
  MemoryOutput waiting(48000), limited(48000);
  auto a = speech::TtsStage::create(flite("slt"), waiting);
  auto b = speech::TtsStage::create(flite("slt"), limited);
  ASSERT_TRUE(a.ok() && b.ok());
  (*b)->limitFirstPhraseWait(1);
  // A model slower than the wait: the third token comes after it has run out (sleeping only guarantees that).
  for (auto& stage : {a.value().get(), b.value().get()}) {
    stage->begin(cancel);
    ASSERT_TRUE(stage->feed("The capital").ok());
    ASSERT_TRUE(stage->feed(" of").ok());
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(3));
  for (auto& stage : {a.value().get(), b.value().get()}) ASSERT_TRUE(stage->feed(" France").ok());
  EXPECT_EQ((*a)->stats().phrases, 0u) << "without the limit, the first phrase waits for four words";
  EXPECT_TRUE(waiting.samples.empty());
  EXPECT_EQ((*b)->stats().phrases, 1u) << "the whole words are spoken; \"France\" may still grow";
  EXPECT_TRUE((*b)->stats().firstPhraseCutEarly);
  EXPECT_FALSE(limited.samples.empty());
  for (auto& stage : {a.value().get(), b.value().get()}) {
    ASSERT_TRUE(stage->feed(" is Paris.").ok());
    ASSERT_TRUE(stage->finish().ok());
  }
  EXPECT_EQ((*a)->stats().phrases, 2u);  // The capital of France | is Paris.
  EXPECT_EQ((*b)->stats().phrases, 2u);  // The capital of | France is Paris.
  EXPECT_FALSE((*a)->stats().firstPhraseCutEarly);
  EXPECT_NEAR(double(limited.samples.size()), double(waiting.samples.size()), 48000 * 0.5);
}

// An answer prepared from a partial: its first phrase is spoken from the audio prepare() made (what synthesis
// gives), by the next answer only, and only when its first phrase is the same text.
TEST(TtsStage, APreparedFirstPhraseIsSpokenFromItsAudioOnce) {
  pipeline::CancelToken cancel;
  const std::string answer = "Twelve times seven is eighty-four. That is all.";
  MemoryOutput plain(48000), fromPrepared(48000), again(48000), other(48000);
  auto a = speech::TtsStage::create(flite("slt"), plain);
  ASSERT_TRUE(a.ok());
  (*a)->trimLeadingSilence(20);
  ASSERT_TRUE((*a)->speak(answer, cancel).ok());
  EXPECT_FALSE((*a)->stats().firstPhrasePrepared);

  auto b = speech::TtsStage::create(flite("slt"), fromPrepared);
  ASSERT_TRUE(b.ok());
  (*b)->trimLeadingSilence(20);
  ASSERT_TRUE((*b)->prepare(answer));
  ASSERT_TRUE((*b)->speak(answer, cancel).ok());
  EXPECT_TRUE((*b)->stats().firstPhrasePrepared);
  EXPECT_EQ((*b)->stats().phrases, (*a)->stats().phrases);
  // flite's unvoiced excitation is random noise: two syntheses of one text agree to a correlation of about 0.993
  // (measured), not sample for sample.
  ASSERT_EQ(fromPrepared.samples.size(), plain.samples.size()) << "the prepared audio is what synthesis gives";
  double xy = 0, xx = 0, yy = 0;
  for (size_t i = 0; i < plain.samples.size(); ++i) {
    xy += double(plain.samples[i]) * fromPrepared.samples[i];
    xx += double(plain.samples[i]) * plain.samples[i];
    yy += double(fromPrepared.samples[i]) * fromPrepared.samples[i];
  }
  EXPECT_GT(xy / std::sqrt(xx * yy), 0.98) << "the prepared audio is what synthesis gives";

  // Used once: the next answer synthesizes again.
  auto c = speech::TtsStage::create(flite("slt"), again);
  ASSERT_TRUE(c.ok());
  ASSERT_TRUE((*c)->prepare(answer));
  ASSERT_TRUE((*c)->speak(answer, cancel).ok());
  EXPECT_TRUE((*c)->stats().firstPhrasePrepared);
  ASSERT_TRUE((*c)->speak(answer, cancel).ok());
  EXPECT_FALSE((*c)->stats().firstPhrasePrepared) << "a prepared phrase serves one answer";

  // Another first phrase: synthesized, and the prepared audio is dropped with that answer.
  auto d = speech::TtsStage::create(flite("slt"), other);
  ASSERT_TRUE(d.ok());
  ASSERT_TRUE((*d)->prepare("It's three o'clock."));
  ASSERT_TRUE((*d)->speak(answer, cancel).ok());
  EXPECT_FALSE((*d)->stats().firstPhrasePrepared);
  ASSERT_TRUE((*d)->speak("It's three o'clock.", cancel).ok());
  EXPECT_FALSE((*d)->stats().firstPhrasePrepared) << "the prepared phrase was stale after the answer before";
  EXPECT_FALSE((*d)->prepare("")) << "nothing to prepare";
}

TEST(TtsStage, CancelStopsOutputWithinOneChunk) {
  MemoryOutput out(48000);
  pipeline::CancelToken cancel;
  out.onWrite = [&](size_t writes) {
    if (writes == 5) cancel.cancel();
  };
  auto stage = speech::TtsStage::create(flite("slt"), out);
  ASSERT_TRUE(stage.ok());
  (*stage)->begin(cancel);
  for (const auto& t : tokens(kAnswer)) ASSERT_TRUE((*stage)->feed(t).ok());
  ASSERT_TRUE((*stage)->finish().ok());
  EXPECT_EQ(out.writes, 5u);  // not one chunk more, not even the resampler's tail
  EXPECT_TRUE((*stage)->stats().cancelled);
  EXPECT_LE(out.samples.size(), 5 * (speech::TtsEngine::kMaxChunkFrames * 3 + 1));
  // The next answer speaks normally.
  cancel.reset();
  out.writes = 0;
  out.onWrite = nullptr;
  ASSERT_TRUE((*stage)->speak("Next answer.", cancel).ok());
  EXPECT_GT(out.writes, 5u);
  EXPECT_FALSE((*stage)->stats().cancelled);
}

TEST(RingOutput, KeepsOnlyTheLeadQueuedAndReturnsOnCancel) {
  auto ring = pipeline::SpscRing<int16_t>::create(8192);
  ASSERT_TRUE(ring.ok());
  speech::RingOutput out(*ring, 16000, 100);  // 1600 frames of lead
  EXPECT_EQ(out.maxLeadFrames(), 1600u);
  pipeline::CancelToken cancel;
  std::vector<int16_t> chunk(1000, 7);
  ASSERT_TRUE(out.write(chunk, cancel));
  EXPECT_EQ(ring->size(), 1000u);
  // A consumer that never reads (a stalled speaker): the next write waits; a cancel from another thread ends it.
  std::thread canceller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    cancel.cancel();
  });
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_FALSE(out.write(chunk, cancel));
  const auto waited = std::chrono::steady_clock::now() - t0;
  canceller.join();
  EXPECT_GE(waited, std::chrono::milliseconds(25));
  EXPECT_LT(waited, std::chrono::milliseconds(1000));
  EXPECT_EQ(ring->size(), 1600u);  // filled up to the lead, never beyond
  // A consumer draining it: everything arrives, in order.
  cancel.reset();
  std::vector<int16_t> got;
  std::atomic<bool> done{false};
  std::thread consumer([&] {
    int16_t buf[160];
    while (!done || ring->size() > 0) {
      const size_t n = ring->read(buf);
      got.insert(got.end(), buf, buf + n);
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  });
  std::vector<int16_t> seq(5000);
  for (size_t i = 0; i < seq.size(); ++i) seq[i] = int16_t(i);
  EXPECT_TRUE(out.write(seq, cancel));
  done = true;
  consumer.join();
  ASSERT_EQ(got.size(), 1600u + 5000u);
  EXPECT_TRUE(std::equal(seq.begin(), seq.end(), got.begin() + 1600));
}

// With a wake-up (the daemon's arrangement) the writer sleeps until the consumer pops or a cancel comes: both are
// hand-offs that must wake it, since nothing polls. A lost one leaves the writer blocked (failed after 5 s).
TEST(RingOutput, SleepsUntilAPopOrACancelWakesIt) {
  auto ring = pipeline::SpscRing<int16_t>::create(4096);
  ASSERT_TRUE(ring.ok());
  pipeline::Wakeup popped;
  pipeline::CancelToken cancel;
  ASSERT_TRUE(cancel.wakeOnCancel(&popped));
  speech::RingOutput out(*ring, 16000, 100, &popped);  // 1600 frames of lead
  std::vector<int16_t> chunk(1600, 7);
  ASSERT_TRUE(out.write(chunk, cancel));
  // Full to the lead: the next write sleeps until the consumer below pops (and notifies) once.
  auto writer = std::async(std::launch::async, [&] { return out.write(std::vector<int16_t>(800, 9), cancel); });
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  int16_t buf[800];
  ASSERT_EQ(ring->read(buf), 800u);
  popped.notify();
  if (writer.wait_for(std::chrono::seconds(5)) != std::future_status::ready) {
    ADD_FAILURE() << "the pop did not wake the writer";
    cancel.cancel();
  }
  EXPECT_TRUE(writer.get());
  // Full again and nobody pops: only the cancel can end the wait.
  auto blocked = std::async(std::launch::async, [&] { return out.write(std::vector<int16_t>(800, 5), cancel); });
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  cancel.cancel();
  if (blocked.wait_for(std::chrono::seconds(5)) != std::future_status::ready) {
    ADD_FAILURE() << "the cancel did not wake the writer";
    ring->read(buf);
    popped.notify();
  }
  EXPECT_FALSE(blocked.get());
  cancel.stopWaking(&popped);
}

}  // namespace
}  // namespace sotto::test

namespace sotto::test {
namespace {

// The daemon's arrangement: the TTS (this thread) fills the playback ring, the audio thread pops it into a paced
// sink. The audio thread must not allocate while speech flows.
TEST(TtsStage, FeedsTheAudioThreadWhichNeverAllocates) {
  auto sink = hal::AudioRegistry::instance().openSink(hal::AudioSpec{"null", "default", 48000, 10, 4});
  ASSERT_TRUE(sink.ok()) << sink.error().message;
  auto audio = speech::AudioStage::create(nullptr, std::move(sink).value(), 1, 32768);
  ASSERT_TRUE(audio.ok());
  speech::AudioStage& a = **audio;
  ASSERT_TRUE(a.start().ok());
  std::atomic<bool> stop{false};
  std::atomic<uint64_t> allocations{0};
  pipeline::Heartbeat beat;
  std::thread audioThread([&] {
    NoAllocScope scope;  // this thread only
    a.run(stop, beat);
    allocations = scope.allocations();
  });
  speech::RingOutput out(a.playbackRing(), 48000);
  auto stage = speech::TtsStage::create(flite("kal"), out);
  ASSERT_TRUE(stage.ok());
  pipeline::CancelToken cancel;
  ASSERT_TRUE((*stage)->speak("Hello. Five minutes.", cancel).ok());
  while (a.playbackRing().size() > 0) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  stop = true;
  audioThread.join();
  a.stopDevices();
  const auto c = a.counters();
  EXPECT_GE(c.playedFrames, (*stage)->stats().framesOut);
  EXPECT_EQ(a.playbackRing().dropped(), 0u);
  if (AllocCounter::supported()) {
    EXPECT_EQ(allocations.load(), 0u);
  }
}

}  // namespace
}  // namespace sotto::test
