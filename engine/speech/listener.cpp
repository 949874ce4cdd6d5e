// SPDX-License-Identifier: MIT
// Listener: frames through the frontend, keyphrase spotting, then ASR from the phrase's end until the endpoint.
#include "engine/speech/listener.h"

#include <algorithm>

namespace sotto::speech {

Result<std::unique_ptr<Listener>> Listener::create(const ListenerConfig& config) {
  if (config.frontend.rateHz != 16000 || config.frontend.frameSamples != kFrameSamples) {
    return makeError(Errc::invalid_argument, "listener: the recognizer needs 16 kHz audio in 10 ms frames");
  }
  if (config.endpointSilenceMs == 0 || config.maxUtteranceMs < config.endpointSilenceMs ||
      config.historyMs < 100 || config.wakeRestartMs < 1000) {
    return makeError(Errc::invalid_argument, "listener: bad endpointing or history lengths");
  }
  std::unique_ptr<Listener> l(new Listener(config));
  // A complete command's silence of 0, or not shorter than the endpoint silence, would change nothing.
  if (config.semanticEndpoint && config.endpointCompleteMs > 0 && config.endpointCompleteMs < config.endpointSilenceMs) {
    if (config.turn != nullptr) {
      l->turn_ = config.turn;
    } else if (config.asr.understander != nullptr) {
      auto turn = UnderstandingTurnDetector::create(*config.asr.understander, config.completeMinConfidence,
                                                    config.semanticQuestions);
      if (!turn.ok()) return std::move(turn).error();
      l->ownTurn_ = std::move(turn).value();
      l->turn_ = l->ownTurn_.get();
    }
  }
  auto frontend = Frontend::create(config.frontend);
  if (!frontend.ok()) return std::move(frontend).error();
  l->frontend_ = std::move(frontend).value();
  auto wake = WakeSpotter::create(config.wake);
  if (!wake.ok()) return std::move(wake).error();
  l->wake_ = std::move(wake).value();
  if (!config.stopPhrase.empty()) {
    // Keyphrase spotting only (no network is trained for it); the wake word's models and custom words.
    WakeConfig sc;
    sc.acousticModel = config.wake.acousticModel;
    sc.dictionary = config.wake.dictionary;
    sc.pronunciation = config.wake.pronunciation;
    sc.phrase = config.stopPhrase;
    sc.thresholdExponent = config.stopThresholdExponent;
    sc.phoneLoopExponent = config.wake.phoneLoopExponent;
    // A phrase the dictionary lacks costs the stop feature, not recognition.
    auto stop = WakeSpotter::create(sc);
    if (stop.ok()) {
      l->stop_ = std::move(stop).value();
      l->stopAfterSamples_ = uint64_t{config.stopAfterSpeakingMs} * 16;
    } else {
      l->stopDegraded_ = "no \"" + config.stopPhrase + "\" during playback: " + stop.error().message;
    }
  }
  AsrConfig asr = config.asr;
  // Custom wake words may also be said after the wake word.
  if (!config.wake.pronunciation.empty()) asr.pronunciation += ";" + config.wake.pronunciation;
  auto recognizer = Recognizer::create(asr);
  if (!recognizer.ok()) return std::move(recognizer).error();
  l->asr_ = std::move(recognizer).value();
  const size_t historyFrames = config.historyMs / 10;
  l->history_.assign(historyFrames * kFrameSamples, 0);
  l->historyVoiced_.assign(historyFrames, 0);
  l->pending_.assign(kFrameSamples, 0);
  l->raw_.assign(kFrameSamples, 0);
  l->transcript_.text.reserve(1024);
  l->transcript_.words.reserve(128);
  l->wakeRestartSamples_ = uint64_t{config.wakeRestartMs} * 16;
  l->wake_->start(0);
  return l;
}

void Listener::process(std::span<const int16_t> samples, ListenerEvents& events) noexcept {
  while (!samples.empty()) {
    const size_t n = std::min(samples.size(), kFrameSamples - pendingCount_);
    std::copy_n(samples.begin(), n, pending_.begin() + static_cast<std::ptrdiff_t>(pendingCount_));
    pendingCount_ += n;
    samples = samples.subspan(n);
    if (pendingCount_ == kFrameSamples) {
      pendingCount_ = 0;
      frame(events);
    }
  }
}

void Listener::frame(ListenerEvents& events) noexcept {
  // The spotter hears the frame as captured (after echo cancellation, before noise suppression and AGC): the
  // suppressor's musical noise and the AGC's gain swings smear the phones the keyphrase search scores (measured:
  // bench_speech wake, FRR per condition with and without the frontend). The ASR keeps the frontend's output.
  std::copy(pending_.begin(), pending_.end(), raw_.begin());
  const bool voiced = frontend_->process(pending_);
  voicedFrames_ += voiced ? 1 : 0;
  const size_t historyFrames = historyVoiced_.size();
  const size_t slot = static_cast<size_t>(samples_ / kFrameSamples % historyFrames);
  std::copy(pending_.begin(), pending_.end(), history_.begin() + static_cast<std::ptrdiff_t>(slot * kFrameSamples));
  historyVoiced_[slot] = voiced ? 1 : 0;
  samples_ += kFrameSamples;
  const std::span<const int16_t> processed(history_.data() + slot * kFrameSamples, kFrameSamples);

  if (recognizing_ && withoutWake_ && wake_->process(raw_)) {
    // Asked again or in a follow-up window, the user said the wake word (again): what came before it is not the
    // request. Drop it and listen from the wake word's end, as after any wake.
    (void)asr_->finish(transcript_);
    endpointer_.reset();
    recognizing_ = withoutWake_ = false;
    wake(events);
    return;
  }
  if (recognizing_) {
    utteranceFrame(processed, voiced, audioMs(), events);
    return;
  }
  // "Stop" over the device's own speech: the echo canceller has taken the device's voice out of raw_ (once it has
  // heard enough of it to converge).
  if (stop_ && deviceSpeaking_) {
    speakingSamples_ += kFrameSamples;
    if (!stop_->active() && speakingSamples_ >= stopAfterSamples_) stop_->start(samples_);
  }
  if (stop_ && stop_->active() && stop_->process(raw_)) {
    events.onStop(audioMs());
    stop_->start(samples_);
  }
  if (wake_->process(raw_)) {
    wake(events);
    return;
  }
  // A long utterance of the keyphrase decoder only grows its lattice: restart it in a pause.
  if (!voiced && samples_ - wakeStart_ >= wakeRestartSamples_) {
    wakeStart_ = samples_;
    wake_->start(samples_);
  }
}

void Listener::wake(ListenerEvents& events) noexcept {
  events.onWake(audioMs());
  const uint64_t historySamples = history_.size();
  uint64_t from = wake_->phraseEndSample();
  from -= from % kFrameSamples;
  from = std::clamp(from, samples_ > historySamples ? samples_ - historySamples : 0, samples_);
  if (!asr_->begin().ok()) {  // the decoder failed: keep spotting
    wakeStart_ = samples_;
    wake_->start(samples_);
    return;
  }
  recognizing_ = true;
  const size_t frames = historyVoiced_.size();
  const bool voicedBefore = from >= kFrameSamples && historyVoiced_[(from / kFrameSamples + frames - 1) % frames] != 0;
  endpointer_.arm(from / 16, voicedBefore);
  // Replay what was heard since the phrase ended (the keyphrase search reports it a little late).
  for (uint64_t s = from; s < samples_; s += kFrameSamples) {
    const size_t slot = static_cast<size_t>(s / kFrameSamples % historyVoiced_.size());
    const std::span<const int16_t> f(history_.data() + slot * kFrameSamples, kFrameSamples);
    if (utteranceFrame(f, historyVoiced_[slot] != 0, (s + kFrameSamples) / 16, events)) return;
  }
}

bool Listener::utteranceFrame(std::span<const int16_t> f, bool voiced, uint64_t endMs,
                              ListenerEvents& events) noexcept {
  if (asr_->process(f)) events.onPartial(asr_->partial(), audioMs());
  if (endpointer_.frame(voiced, endMs)) {
    finishUtterance(audioMs(), events);
    return true;
  }
  if ((turn_ == nullptr && !stablePartials_) || !endpointer_.pauseToJudge()) return false;
  // A short pause: is what was said so far a whole command? The transcript over all audio up to now (the last
  // partial can be up to a partial interval old), read on this thread between two frames: no hand-over needed.
  if (asr_->refreshPartial()) events.onPartial(asr_->partial(), audioMs());
  if (turn_ != nullptr) {
    lastTurn_ = turn_->read(asr_->partial());
    if (lastTurn_.state == TurnState::complete && lastTurn_.mayGoOn) {
      endpointer_.endCompleteAt(oneWordCompleteMs_);
    } else if (lastTurn_.state == TurnState::complete) {
      endpointer_.endComplete();
      finishUtterance(audioMs(), events);
      return true;
    }
  }
  // The turn goes on for the long silence: what was said so far is stable enough to prepare the answer from.
  if (stablePartials_ && !asr_->partial().empty()) events.onStablePartial(asr_->partial(), audioMs());
  return false;
}

void Listener::finishUtterance(uint64_t tMs, ListenerEvents& events) noexcept {
  // After an utterance without the wake word the spotter goes on where it is: it reports a wake word a little after
  // the phrase, often after the short silence that ended this utterance.
  const bool spotterRunning = withoutWake_;
  recognizing_ = withoutWake_ = false;
  lastReason_ = endpointer_.reason();
  // A window in which nobody spoke (a follow-up window without the wake word, or one the audio's end cut off
  // before any speech): nothing was said, so nothing is reported (the brain would answer an empty request).
  const bool nobodySpoke = lastReason_ == Endpointer::Reason::noSpeech ||
                           (lastReason_ == Endpointer::Reason::none && !endpointer_.heardSpeech());
  if (asr_->finish(transcript_).ok() && !nobodySpoke) {
    const uint64_t delay = endpointer_.heardSpeech() && tMs > endpointer_.speechEndMs()
                               ? tMs - endpointer_.speechEndMs()
                               : 0;
    events.onFinal(transcript_, tMs, delay);
  }
  endpointer_.reset();
  if (!spotterRunning) {
    wakeStart_ = samples_;
    wake_->start(samples_);
  }
}

bool Listener::listenNow(uint32_t startWithinMs) noexcept {
  if (recognizing_ || !asr_->begin().ok()) return false;
  recognizing_ = withoutWake_ = true;
  endpointer_.arm(audioMs(), false, startWithinMs);
  return true;
}

void Listener::setDeviceSpeaking(bool speaking) noexcept {
  if (!stop_ || speaking == deviceSpeaking_) return;
  deviceSpeaking_ = speaking;
  if (speaking && speakingSamples_ >= stopAfterSamples_) {
    stop_->start(samples_);
  } else if (!speaking) {
    stop_->stop();
  }
}

void Listener::flush(ListenerEvents& events) noexcept {
  if (recognizing_) finishUtterance(audioMs(), events);
}

}  // namespace sotto::speech
