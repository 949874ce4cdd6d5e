// SPDX-License-Identifier: MIT
// RequestSupervisor: the time-driven fallback state machine of one request (filler, hard timeout, local fallback).
#pragma once

#include <cstdint>

#include "engine/pipeline/cancel_token.h"
#include "engine/router/route.h"

namespace sotto::router {

class RouterMetrics;

inline constexpr const char* kFillerText = "Let me check that.";
inline constexpr const char* kCannotAnswerText = "Sorry, I can't answer that right now.";
// Nothing on the device can answer, and the request holds personal data the privacy policy keeps here: said so,
// instead of a generic apology (the request never leaves, whatever else is reachable).
inline constexpr const char* kPrivateCannotAnswerText =
    "That has private details I keep on this device, and I can't answer it here.";
// Honest endings of an answer cut short after part of it was spoken (the spoken part stays; one of these follows).
inline constexpr const char* kLostConnectionText = "... sorry, I lost the connection.";
inline constexpr const char* kOutOfTimeText = "... sorry, I ran out of time.";
inline constexpr const char* kTooLongText = "... that is as much as I can say.";

struct SupervisorOptions {
  Millis firstTokenBudget{700};  // latency.first-token-ms: no first token by then → speak the filler
  Millis hardTimeout{8000};      // latency.hard-timeout-ms: no first token by then → fall back
};

// What the caller must do after an event. Every call returns one; none = carry on.
enum class SupervisorAction : std::uint8_t {
  none,
  speakFiller,      // speak kFillerText now (at most once per request); keep the stream running
  fallbackLocal,    // cancel the current stream and answer with the local model; supervision continues on it
  sayCannotAnswer,  // cancel the current stream and speak kCannotAnswerText; the request is over
  endIncomplete,    // cancel the current stream; what was spoken stays and ends with an honest ending
                    // (kLostConnectionText after an error, kOutOfTimeText at the deadline); the request is over
  stop,             // the request's CancelToken fired (barge-in): stop everything, speak nothing
};
const char* supervisorActionName(SupervisorAction a) noexcept;

enum class SupervisorPhase : std::uint8_t {
  idle,       // no request
  waiting,    // waiting for the current attempt's first token
  streaming,  // first token arrived; the answer is being spoken
  done,       // the answer finished
  failed,     // told the user it cannot answer
  incomplete,  // the answer was cut short after part of it was spoken (error or deadline mid-stream)
  cancelled,  // barge-in
};
const char* supervisorPhaseName(SupervisorPhase p) noexcept;

// One request at a time, driven by explicit events (no threads, no clock of its own): start(), then onFirstToken /
// onError / onFinished as the answer stream reports, and onTick(now) whenever the caller wakes up (at the latest at
// nextDeadline()). Rules:
//  - No first token within firstTokenBudget of the attempt's start: speakFiller, once per request.
//  - No first token within hardTimeout of the attempt's start, or an error before the first token (also a stream
//    that finished without a token): fallbackLocal if a local model is available and the local model has not been
//    tried in this request (the fallback attempt gets its own hardTimeout), else sayCannotAnswer.
//  - Once streaming, part of the answer has been spoken and is not taken back: an error, or the attempt's
//    hardTimeout passing before the answer finished (the deadline covers the whole answer, not only its first
//    token), ends it with endIncomplete (counted as incomplete, and as a stream error or a hard timeout).
//  - The cancel token is checked on every call: when it fired, the first call returns stop and later calls none.
// Threads: one thread (the brain thread); no allocation, no blocking. Counts into metrics when given.
class RequestSupervisor {
 public:
  explicit RequestSupervisor(const SupervisorOptions& options, RouterMetrics* metrics = nullptr) noexcept;

  // route: the decided route (local or cloud usually; an intent or cache answer may be supervised the same way).
  // cancel may be null; it must outlive the request.
  void start(Route route, bool localAvailable, Millis now, const pipeline::CancelToken* cancel = nullptr) noexcept;
  SupervisorAction onFirstToken(Millis now) noexcept;
  SupervisorAction onError(Millis now) noexcept;
  SupervisorAction onFinished(Millis now) noexcept;
  SupervisorAction onTick(Millis now) noexcept;

  // The next time onTick has something to do (filler, or the attempt's hard timeout while waiting or streaming);
  // Millis::max() when nothing is pending.
  Millis nextDeadline() const noexcept;

  SupervisorPhase phase() const noexcept { return phase_; }
  Route currentRoute() const noexcept { return route_; }  // local after a local fallback
  bool fillerSpoken() const noexcept { return fillerSpoken_; }
  bool fellBack() const noexcept { return fellBack_; }
  // From the request's start to the first token of the attempt that answered; -1 ms before one arrived.
  Millis firstTokenLatency() const noexcept { return firstTokenLatency_; }

 private:
  bool checkCancel() noexcept;  // true when the request was (or just got) cancelled
  SupervisorAction fallBack(Millis now) noexcept;
  SupervisorAction endIncomplete() noexcept;

  SupervisorOptions options_;
  RouterMetrics* metrics_;
  const pipeline::CancelToken* cancel_ = nullptr;
  SupervisorPhase phase_ = SupervisorPhase::idle;
  Route route_ = Route::cannotAnswer;
  bool localAvailable_ = false;
  bool localTried_ = false;
  bool fillerSpoken_ = false;
  bool fellBack_ = false;
  Millis requestStart_{0};
  Millis attemptStart_{0};
  Millis firstTokenLatency_{-1};
};

}  // namespace sotto::router
