// SPDX-License-Identifier: MIT
// TtsStage: phrases out of the chunker are synthesized, resampled and written out chunk by chunk.
#include "engine/speech/tts_stage.h"

#include <time.h>

#include <algorithm>

namespace sotto::speech {

RingOutput::RingOutput(pipeline::SpscRing<int16_t>& ring, uint32_t rateHz, uint32_t maxLeadMs,
                       pipeline::Wakeup* roomFreed)
    : ring_(ring),
      rateHz_(rateHz),
      maxLead_(std::min<size_t>(ring.capacity(), static_cast<size_t>(rateHz) * maxLeadMs / 1000)),
      roomFreed_(roomFreed) {}

bool RingOutput::write(std::span<const int16_t> frames, const pipeline::CancelToken& cancel) {
  while (!frames.empty()) {
    // The ticket comes before the checks: a pop or a cancel after them still ends the wait below.
    const uint32_t ticket = roomFreed_ != nullptr ? roomFreed_->prepare() : 0;
    if (cancel.cancelled()) return false;
    const size_t queued = ring_.size();
    const size_t room = queued >= maxLead_ ? 0 : maxLead_ - queued;
    if (room > 0) {
      const size_t n = ring_.write(frames.first(std::min(room, frames.size())));
      frames = frames.subspan(n);
      if (n > 0) continue;
    }
    if (roomFreed_ != nullptr) {
      roomFreed_->wait(ticket);
      continue;
    }
    timespec ts{0, 1000000L};  // no wake-up to sleep on: the speaker drains a period every few ms, poll gently
    nanosleep(&ts, nullptr);
  }
  return true;
}

Result<std::unique_ptr<TtsStage>> TtsStage::create(std::unique_ptr<TtsEngine> engine, PcmOutput& out,
                                                   const ChunkerConfig& chunker, int resampleQuality) {
  if (!engine) return makeError(Errc::invalid_argument, "tts stage: no engine");
  auto c = PhraseChunker::create(chunker);
  if (!c) return std::move(c).error();
  auto pc = PhraseChunker::create(chunker);
  if (!pc) return std::move(pc).error();
  auto r = Resampler::create(engine->rateHz(), out.rateHz(), resampleQuality);
  if (!r) return std::move(r).error();
  std::unique_ptr<TtsStage> s(new TtsStage());
  s->outBuf_.resize(std::max((*r)->maxOutput(TtsEngine::kMaxChunkFrames), (*r)->maxOutput((*r)->inputLatency())));
  s->engine_ = std::move(engine);
  s->chunker_ = std::move(c).value();
  s->prepareChunker_ = std::move(pc).value();
  s->resampler_ = std::move(r).value();
  s->out_ = &out;
  return s;
}

void TtsStage::begin(const pipeline::CancelToken& cancel) {
  cancel_ = &cancel;
  chunker_->reset();
  resampler_->reset();
  stats_ = {};
  heard_ = trimPrerollMs_ == 0;
  begin_ = std::chrono::steady_clock::now();
}

int64_t TtsStage::sinceBegin() const {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - begin_).count();
}

void TtsStage::stopForCancel() {
  stats_.cancelled = true;
  chunker_->reset();
  resampler_->reset();
}

bool TtsStage::onAudio(std::span<const int16_t> samples) {
  if (!heard_) {
    // About -50 dBFS: flite's and espeak-ng's leading pauses are digital silence or far below it.
    constexpr int kSilence = 100;
    const auto loud = std::find_if(samples.begin(), samples.end(), [](int16_t x) { return x > kSilence || x < -kSilence; });
    const size_t first = static_cast<size_t>(loud - samples.begin());
    if (first == samples.size()) {
      stats_.trimmedFrames += samples.size();
      return !cancel_->cancelled();
    }
    const size_t preroll = static_cast<size_t>(engine_->rateHz()) * trimPrerollMs_ / 1000;
    const size_t start = first > preroll ? first - preroll : 0;
    stats_.trimmedFrames += start;
    samples = samples.subspan(start);
    heard_ = true;
  }
  const size_t n = resampler_->process(samples, outBuf_);
  if (n == 0) return !cancel_->cancelled();
  if (!out_->write(std::span<const int16_t>(outBuf_.data(), n), *cancel_)) return false;
  if (stats_.firstAudioNs < 0) stats_.firstAudioNs = sinceBegin();
  stats_.framesOut += n;
  return true;
}

namespace {
// Collects what the engine synthesizes (prepare()).
class Collect final : public TtsAudioSink {
 public:
  explicit Collect(std::vector<int16_t>& to) : to_(to) {}
  bool onAudio(std::span<const int16_t> samples) override {
    to_.insert(to_.end(), samples.begin(), samples.end());
    return true;
  }

 private:
  std::vector<int16_t>& to_;
};
}  // namespace

bool TtsStage::prepare(std::string_view text) {
  preparedPhrase_.clear();
  prepared_.clear();
  prepareChunker_->reset();
  std::string_view phrase;
  bool have = false;
  while (!have && !text.empty()) {
    const size_t taken = prepareChunker_->push(text);
    text.remove_prefix(taken);
    have = prepareChunker_->next(phrase);
    if (taken == 0 && !have) break;  // cannot happen: a full buffer holds a phrase
  }
  if (!have) {
    prepareChunker_->finish();
    have = prepareChunker_->next(phrase);
  }
  if (!have) return false;
  preparedPhrase_.assign(phrase);
  Collect sink(prepared_);
  if (!engine_->synthesize(preparedPhrase_, sink, neverCancelled_) || prepared_.empty()) {
    preparedPhrase_.clear();
    prepared_.clear();
    return false;
  }
  return true;
}

Status TtsStage::speakReady() {
  std::string_view phrase;
  while (chunker_->next(phrase)) {
    ++stats_.phrases;
    if (stats_.phrases == 1 && !prepared_.empty() && phrase == preparedPhrase_) {
      // The same text synthesized by the same engine: its audio, through the same trimming and resampling.
      stats_.firstPhrasePrepared = true;
      const std::span<const int16_t> audio(prepared_);
      for (size_t at = 0; at < audio.size(); at += TtsEngine::kMaxChunkFrames) {
        if (!onAudio(audio.subspan(at, std::min(TtsEngine::kMaxChunkFrames, audio.size() - at)))) break;
      }
    } else if (Status st = engine_->synthesize(phrase, *this, *cancel_); !st) {
      return st;
    }
    if (stats_.phrases == 1) {  // one answer's use, or none: the next answer must not hear a stale phrase
      preparedPhrase_.clear();
      prepared_.clear();
    }
    if (cancel_->cancelled()) {
      stopForCancel();
      return {};
    }
  }
  return {};
}

Status TtsStage::feed(std::string_view text) {
  if (cancel_ == nullptr) return makeError(Errc::internal, "tts stage: feed() before begin()");
  if (cancel_->cancelled()) {
    if (!stats_.cancelled) stopForCancel();
    return {};
  }
  if (stats_.firstTextNs < 0 && !text.empty()) stats_.firstTextNs = sinceBegin();
  while (!text.empty()) {
    text.remove_prefix(chunker_->push(text));
    if (Status st = speakReady(); !st) return st;
    if (stats_.cancelled) return {};
  }
  // Two words at least: a lone word spoken on its own sounds like a stammer.
  constexpr uint32_t kMinFirstWords = 2;
  if (firstPhraseWaitNs_ > 0 && stats_.phrases == 0 && stats_.firstTextNs >= 0 &&
      sinceBegin() - stats_.firstTextNs >= firstPhraseWaitNs_ && chunker_->cutWholeWords(kMinFirstWords)) {
    stats_.firstPhraseCutEarly = true;
    return speakReady();
  }
  return {};
}

Status TtsStage::finish() {
  if (cancel_ == nullptr) return makeError(Errc::internal, "tts stage: finish() before begin()");
  if (stats_.cancelled || cancel_->cancelled()) {
    if (!stats_.cancelled) stopForCancel();
    return {};
  }
  chunker_->finish();
  if (Status st = speakReady(); !st) return st;
  if (stats_.cancelled) return {};
  const size_t n = resampler_->flush(outBuf_);
  if (n > 0 && out_->write(std::span<const int16_t>(outBuf_.data(), n), *cancel_)) stats_.framesOut += n;
  chunker_->reset();
  return {};
}

Status TtsStage::speak(std::string_view text, const pipeline::CancelToken& cancel) {
  begin(cancel);
  if (Status st = feed(text); !st) return st;
  return finish();
}

}  // namespace sotto::speech
