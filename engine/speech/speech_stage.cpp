// SPDX-License-Identifier: MIT
// SpeechStage: the speech thread's loop, the recognizer's events (log, metrics, transcript mailbox) and barge-in.
#include "engine/speech/speech_stage.h"

#include "engine/privacy/log_mask.h"

#include <time.h>

#include <algorithm>
#include <cstring>

#include "sotto/hal/log.h"

namespace sotto::speech {
namespace {

constexpr size_t kChunkSamples = 1600;  // up to 100 ms per read: fewer wake-ups, same per-frame processing

void bump(std::atomic<uint64_t>& c) noexcept { c.store(c.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed); }

unsigned long long ull(uint64_t v) { return static_cast<unsigned long long>(v); }

}  // namespace

Result<std::unique_ptr<SpeechStage>> SpeechStage::create(InputMeter meter, std::unique_ptr<Listener> listener,
                                                         const AudioStage* audio, pipeline::CancelToken* cancel,
                                                         uint32_t rateHz, size_t transcriptSlots) {
  if (rateHz == 0) return makeError(Errc::invalid_argument, "speech stage: capture rate of 0 Hz");
  auto box = pipeline::SpscMailbox<TranscriptMessage>::create(transcriptSlots);
  if (!box) return std::move(box).error();
  std::unique_ptr<SpeechStage> s(new SpeechStage(std::move(meter)));
  s->listener_ = std::move(listener);
  s->audio_ = audio;
  s->cancel_ = cancel;
  s->rateHz_ = rateHz;
  s->chunk_.assign(kChunkSamples, 0);
  s->transcripts_ = std::move(box).value();
  s->metrics_ = std::make_unique<SpeechMetrics>();
  if (log::level() >= log::Level::debug) {
    auto pii = privacy::PiiClassifier::create();
    if (pii) s->pii_ = std::move(*pii);  // without it, debug lines say only how many bytes were heard
  }
  return s;
}

void SpeechStage::run(pipeline::SpscRing<int16_t>& ring, const std::atomic<bool>& stop,
                      pipeline::Heartbeat& heartbeat) noexcept {
  while (!stop.load(std::memory_order_acquire)) {
    pipeline::Message m;
    while (meter_.commands().tryReceive(m)) {
      if (m.type == static_cast<uint32_t>(AudioCommand::stall)) {
        while (!stop.load(std::memory_order_acquire)) {  // simulated hang: no beats until shutdown
          timespec ts{0, 10 * 1000000L};
          nanosleep(&ts, nullptr);
        }
      }
    }
    const size_t n = step(ring, 1);
    heartbeat.beat();  // waiting for the audio thread is bounded (a period): progress, not idleness
    if (n != 0) continue;
    if (audio_ == nullptr) {
      timespec ts{0, 2 * 1000000L};
      nanosleep(&ts, nullptr);
      continue;
    }
    // The audio thread notifies after each period it captured: sleep until then (a ticket taken before the last
    // look at the ring, so a period written in between is not missed).
    pipeline::Wakeup& wake = audio_->captureWakeup();
    const uint32_t ticket = wake.prepare();
    if (ring.size() != 0 || stop.load(std::memory_order_acquire) || meter_.commands().size() != 0) continue;
    if (flushed_) heartbeat.markIdle();  // the capture stream ended: nothing more will come, and that is no hang
    wake.wait(ticket);
  }
}

size_t SpeechStage::step(pipeline::SpscRing<int16_t>& ring, size_t maxChunks) noexcept {
  size_t total = 0;
  for (size_t n, chunks = 0; chunks < maxChunks && (n = ring.read(chunk_)) > 0; ++chunks) {
    meter_.process(chunk_.data(), n);
    if (listener_) {
      listener_->setDeviceSpeaking(audio_ != nullptr && audio_->playing());
      listener_->process(std::span<const int16_t>(chunk_.data(), n), *this);
    }
    total += n;
    samples_.store(samples_.load(std::memory_order_relaxed) + n, std::memory_order_relaxed);
    if (n < chunk_.size()) break;
  }
  serveListenAgain();
  if (total == 0 && !flushed_ && listener_ && audio_ != nullptr && audio_->counters().captureEnded &&
      ring.size() == 0) {
    // The finite capture stream (a wav file) ended: an utterance in progress ends with it.
    flushed_ = true;
    listener_->flush(*this);
    state_.store(static_cast<uint32_t>(SpeechState::spotting), std::memory_order_relaxed);
  }
  return total;
}

void SpeechStage::serveListenAgain() noexcept {
  if (!listener_) return;
  // A follow-up window nobody spoke in ended without a final: back to spotting.
  if (!listener_->recognizing() && state() == SpeechState::listening) {
    state_.store(static_cast<uint32_t>(SpeechState::spotting), std::memory_order_relaxed);
    withoutWake_ = false;
  }
  // Asking again replaces a follow-up: the question is the answer the user replies to.
  if (listenAgain_.exchange(false, std::memory_order_acq_rel)) {
    listenAgainPending_ = true;
    listenAgainHeardPlayback_ = false;
    listenAgainSinceMs_ = listener_->audioMs();
    pendingStartWithinMs_ = 0;
  }
  if (!listenAgainPending_) return;
  // "Sorry, could you say that again?" is on its way to the speaker: start once it has been said, so the question
  // itself is not taken for the answer; without playback (or when it never starts) after 3 s of audio.
  constexpr uint64_t kNoPlaybackMs = 3000;
  const bool playing = audio_ != nullptr && audio_->playing();
  listenAgainHeardPlayback_ = listenAgainHeardPlayback_ || playing;
  const bool said = listenAgainHeardPlayback_ && !playing;
  if (!said && listener_->audioMs() - listenAgainSinceMs_ < kNoPlaybackMs) return;
  listenAgainPending_ = false;
  if (listener_->listenNow(pendingStartWithinMs_)) {
    withoutWake_ = true;
    state_.store(static_cast<uint32_t>(SpeechState::listening), std::memory_order_relaxed);
    if (pendingStartWithinMs_ > 0) {
      bump(followUpWindows_);
      SOTTO_LOG_INFO("speech", "follow-up", "listening %u ms for a follow-up without the wake word at %llu ms of "
                     "audio", pendingStartWithinMs_, ull(listener_->audioMs()));
    } else {
      SOTTO_LOG_INFO("speech", "listen-again", "listening without the wake word at %llu ms of audio",
                     ull(listener_->audioMs()));
    }
  }
}

uint64_t SpeechStage::lagUs() const noexcept {
  if (audio_ == nullptr || !listener_) return 0;
  const uint64_t captured = audio_->counters().capturedFrames;
  const uint64_t recognized = listener_->frames() * Listener::kFrameSamples;
  return captured > recognized ? (captured - recognized) * 1000000ull / rateHz_ : 0;
}

void SpeechStage::onWake(uint64_t tMs) {
  bump(wakes_);
  withoutWake_ = false;
  lastWake_.store(tMs, std::memory_order_relaxed);
  state_.store(static_cast<uint32_t>(SpeechState::listening), std::memory_order_relaxed);
  const uint64_t lag = lagUs();
  metrics_->wakeLagUs.record(lag);
  // Barge-in: the user talks over the device. The token stops generation, the cloud stream and TTS; the audio
  // thread sees it within a period and drops what is queued for the speaker. The recognizer is already
  // listening for the request.
  const bool speaking = audio_ != nullptr && audio_->playing();
  if (speaking && cancel_ != nullptr) {
    cancel_->cancel();
    bump(bargeIns_);
    lastBargeIn_.store(tMs, std::memory_order_relaxed);
  }
  SOTTO_LOG_INFO("speech", speaking ? "barge-in" : "wake", "wake word at %llu ms of audio (%llu ms behind the "
                 "microphone)%s", ull(tMs), ull(lag / 1000), speaking ? ": playback stopped, answer cancelled" : "");
}

void SpeechStage::onStop(uint64_t tMs) {
  // The same cancellation as a barge-in, without listening for a request: "stop" was the whole request.
  const bool speaking = audio_ != nullptr && audio_->playing();
  if (!speaking || cancel_ == nullptr) return;
  cancel_->cancel();
  bump(stops_);
  lastStop_.store(tMs, std::memory_order_relaxed);
  SOTTO_LOG_INFO("speech", "stop", "\"stop\" at %llu ms of audio during playback: playback stopped, answer cancelled",
                 ull(tMs));
}

std::string SpeechStage::maskedText(std::string_view text) const {
  if (!pii_) return "[" + std::to_string(text.size()) + " bytes]";
  return privacy::maskedForLog(*pii_, text);
}

void SpeechStage::onPartial(std::string_view text, uint64_t tMs) {
  bump(partials_);
  const uint64_t lag = lagUs();
  metrics_->partialLagUs.record(lag);
  // What the user says stays out of the log unless debugging (privacy): at info only that something was heard.
  if (log::level() >= log::Level::debug) {
    const std::string shown = maskedText(text);
    SOTTO_LOG_DEBUG("speech", "partial", "partial at %llu ms of audio (%llu ms behind): \"%s\"", ull(tMs),
                    ull(lag / 1000), shown.c_str());
  } else {
    SOTTO_LOG_INFO("speech", "partial", "partial transcript at %llu ms of audio (%llu ms behind)", ull(tMs),
                   ull(lag / 1000));
  }
}

void SpeechStage::onStablePartial(std::string_view text, uint64_t tMs) { publishStablePartial(text, tMs); }

void SpeechStage::publishStablePartial(std::string_view text, uint64_t tMs) noexcept {
  if (speculationCancel_ == nullptr) return;
  TranscriptMessage msg;
  msg.sequence = sequence_ + 1;  // the final this partial leads to
  msg.tMs = tMs;
  size_t n = std::min(text.size(), TranscriptMessage::kTextSize - 1);
  if (n < text.size()) {
    const size_t space = text.rfind(' ', n);  // whole words only
    if (space != std::string_view::npos) n = space;
    msg.truncated = 1;
  }
  std::memcpy(msg.text, text.data(), n);
  msg.length = static_cast<uint16_t>(n);
  stable_.publish(msg);
  bump(stableCount_);
  // The published partial is visible before the cancel: a brain thread that reset the token after this cancel
  // sees it pending (AnswerStage pairs this barrier with one after its reset).
  speculationCancel_->order();
  speculationCancel_->cancel();  // a speculation on an older partial is superseded
  if (transcriptWake_ != nullptr) transcriptWake_->notify();
}

void SpeechStage::onFinal(const Transcript& t, uint64_t tMs, uint64_t endpointDelayMs) {
  bump(finals_);
  const bool whole = listener_ && listener_->lastEndpoint() == Endpointer::Reason::complete;
  if (whole) bump(wholeCommandEndpoints_);
  state_.store(static_cast<uint32_t>(SpeechState::spotting), std::memory_order_relaxed);
  const uint64_t lag = lagUs();
  metrics_->finalLagUs.record(lag);
  metrics_->endpointDelayUs.record(endpointDelayMs * 1000);

  TranscriptMessage msg;
  msg.sequence = ++sequence_;
  msg.tMs = tMs;
  msg.endpointDelayMs = static_cast<uint32_t>(std::min<uint64_t>(endpointDelayMs, UINT32_MAX));
  msg.words = static_cast<uint32_t>(t.words.size());
  float sum = 0;
  for (const auto& w : t.words) sum += w.confidence;
  msg.confidence = t.words.empty() ? 0.0f : sum / static_cast<float>(t.words.size());
  msg.fromGrammar = t.search == "grammar" ? 1 : 0;
  msg.withoutWake = withoutWake_ ? 1 : 0;
  const Endpointer::Reason by = listener_ ? listener_->lastEndpoint() : Endpointer::Reason::silence;
  msg.unfinishedTurn = by == Endpointer::Reason::complete || by == Endpointer::Reason::silence ? 0 : 1;
  if (withoutWake_) bump(withoutWakeFinals_);
  withoutWake_ = false;
  // The follow-up: once this request has been answered, listen for the next one without the wake word.
  if (followUpMs_ > 0 && !t.text.empty() && !listenAgainPending_) {
    listenAgainPending_ = true;
    listenAgainHeardPlayback_ = false;
    listenAgainSinceMs_ = tMs;
    pendingStartWithinMs_ = followUpMs_;
  }
  size_t n = t.text.size();
  if (n >= TranscriptMessage::kTextSize) {
    n = t.text.rfind(' ', TranscriptMessage::kTextSize - 1);  // whole words only
    if (n == std::string::npos) n = TranscriptMessage::kTextSize - 1;
    msg.truncated = 1;
  }
  std::memcpy(msg.text, t.text.data(), n);
  msg.length = static_cast<uint16_t>(n);
  const bool posted = transcripts_.post(msg);
  if (!posted) bump(dropped_);
  if (speculationCancel_ != nullptr) {
    speculationCancel_->order();  // the transcript first (see publishStablePartial)
    speculationCancel_->cancel();  // the final wins: stop preparing from a partial
  }
  if (posted && transcriptWake_ != nullptr) transcriptWake_->notify();

  const unsigned long long words = t.words.size();
  if (log::level() >= log::Level::debug) {
    const std::string shown = maskedText(t.text);
    SOTTO_LOG_DEBUG("speech", "final", "request %llu: final at %llu ms of audio, endpoint %llu ms after speech%s, %llu "
                    "words (%.*s search, confidence %.2f): \"%s\"", ull(msg.sequence), ull(tMs), ull(endpointDelayMs),
                    whole ? " (a whole command)" : "", words,
                    static_cast<int>(t.search.size()), t.search.data(), static_cast<double>(msg.confidence),
                    shown.c_str());
  } else {
    SOTTO_LOG_INFO("speech", "final", "request %llu: final transcript at %llu ms of audio, endpoint %llu ms after "
                   "speech%s, %llu words (%.*s search, confidence %.2f)", ull(msg.sequence), ull(tMs), ull(endpointDelayMs),
                   whole ? " (a whole command)" : "", words,
                   static_cast<int>(t.search.size()), t.search.data(), static_cast<double>(msg.confidence));
  }
  if (!posted) {
    SOTTO_LOG_WARN("speech", "transcript-dropped", "the brain's transcript mailbox is full: transcript %llu dropped",
                   ull(msg.sequence));
  }
}

SpeechCounters SpeechStage::counters() const noexcept {
  SpeechCounters c;
  c.samples = samples_.load(std::memory_order_relaxed);
  c.wakes = wakes_.load(std::memory_order_relaxed);
  c.partials = partials_.load(std::memory_order_relaxed);
  c.finals = finals_.load(std::memory_order_relaxed);
  c.bargeIns = bargeIns_.load(std::memory_order_relaxed);
  c.wholeCommandEndpoints = wholeCommandEndpoints_.load(std::memory_order_relaxed);
  c.followUpWindows = followUpWindows_.load(std::memory_order_relaxed);
  c.stops = stops_.load(std::memory_order_relaxed);
  c.lastStopMs = lastStop_.load(std::memory_order_relaxed);
  c.withoutWakeFinals = withoutWakeFinals_.load(std::memory_order_relaxed);
  c.transcriptsDropped = dropped_.load(std::memory_order_relaxed);
  c.stablePartials = stableCount_.load(std::memory_order_relaxed);
  c.lastWakeMs = lastWake_.load(std::memory_order_relaxed);
  c.lastBargeInMs = lastBargeIn_.load(std::memory_order_relaxed);
  c.recognizing = listener_ != nullptr;
  return c;
}

}  // namespace sotto::speech
