// SPDX-License-Identifier: MIT
// The Brain's cloud route (audit, anonymized request, supervised stream, de-anonymized answer) and its fallbacks.
#include <algorithm>
#include <chrono>
#include <mutex>
#include <thread>

#include "engine/answer/brain_impl.h"

namespace sotto::answer {

using detail::AnswerOut;
using detail::now;
using detail::TokenCollector;

namespace {

// Tokens a cloud answer may have (the request's max_tokens; the client cuts at its byte equivalent).
constexpr std::uint32_t kCloudMaxTokens = 256;

// What the cloud is told about its role; no device identity, no user data beyond the anonymized question.
constexpr const char* kCloudSystemPrompt =
    "You are the voice of a smart speaker. Answer in one or two short sentences that read well aloud. Text in "
    "square brackets such as [PERSON_1] stands for private details: keep it exactly as written.";

// Deltas from the cloud thread to the brain thread, which sleeps on `wake` until a delta, the end of the stream,
// a cancel (the token wakes it too) or the supervisor's next deadline.
struct DeltaQueue final : cloud::DeltaSink {
  explicit DeltaQueue(pipeline::Wakeup& w) : wake(w) {}
  pipeline::Wakeup& wake;
  std::mutex m;
  std::string pending;
  bool any = false, done = false;
  void onDelta(std::string_view text) override {
    {
      std::lock_guard<std::mutex> lock(m);
      pending.append(text);
      any = true;
    }
    wake.notify();
  }
  void finish() {
    {
      std::lock_guard<std::mutex> lock(m);
      done = true;
    }
    wake.notify();
  }
};


// An answer the server ended before it was whole: its length limit ("length", also when the context ran out),
// a content filter, or an aborted request (vLLM). "stop" and a missing reason are a whole answer.
bool cutByServer(const std::string& finishReason) {
  return finishReason == "length" || finishReason == "content_filter" || finishReason == "abort";
}

}  // namespace

Status Brain::Impl::answerLocally(std::string_view text, AnswerOut& sink, const pipeline::CancelToken* cancel,
                                  AskResult& out) {
  if (!local) {
    out.route = router::Route::cannotAnswer;
    sink.onText(router::kCannotAnswerText);
    return {};
  }
  TokenCollector c;
  c.live = &sink;
  auto r = generateLocal(text, c, options.maxAnswerTokens, cancel);
  if (!r) return std::move(r).error();
  out.route = router::Route::local;
  return {};
}

Status Brain::Impl::askCloud(std::string_view text, const privacy::EscalationDecision& escalation,
                             const router::RouteDecision& d, AnswerOut& sink, const pipeline::CancelToken* cancel,
                             AskResult& out) {
  // The last gate before a byte leaves: whatever the router decided, nothing goes out that the privacy decision
  // did not clear (it once sent an empty user message for a request it had kept local).
  if (!escalation.mayEscalate || escalation.text.empty()) {
    sink.onWarning(std::string("not escalated: the privacy decision keeps this request on the device (") +
                   privacy::escalationReasonName(escalation.reason) + ")");
    router->onCloudAbandoned();
    if (!local) {
      out.route = router::Route::cannotAnswer;
      sink.onText(router::kPrivateCannotAnswerText);
      return {};
    }
    return answerLocally(text, sink, cancel, out);
  }
  cloud::ChatRequest req;
  req.model = options.cloudModel.empty() ? "default" : options.cloudModel;
  req.messages = {{"system", kCloudSystemPrompt}, {"user", escalation.text}};
  req.maxTokens = kCloudMaxTokens;  // the client also cuts the answer at its byte equivalent
  if (deviceId) req.user = deviceId->at(std::chrono::system_clock::now());
  const std::string body = cloud::buildChatRequestBody(req);
  // On record before it leaves: no audit entry, no request.
  privacy::AuditRecord rec;
  rec.route = "cloud";
  rec.reason = std::string(router::reasonName(d.reason)) + "; " + privacy::escalationReasonName(escalation.reason);
  rec.host = cloudHost;
  rec.sent = body;
  if (auto st = audit->append(rec); !st) {
    sink.onWarning("not escalated: the audit log cannot record it: " + st.error().message);
    router->onCloudAbandoned();
    out.fellBack = true;
    return answerLocally(text, sink, cancel, out);
  }

  // Local-only values are never said back, in any mode (standard mode sends them as placeholders).
  privacy::PiiTypeMask localOnly = 0;
  for (std::size_t t = 0; t < privacy::kPiiTypeCount; ++t) {
    const auto type = static_cast<privacy::PiiType>(t);
    if (policy.get(type) == privacy::PiiPolicy::localOnly) localOnly |= privacy::piiTypeBit(type);
  }

  DeltaQueue q(cloudWake);
  // A barge-in wakes the wait below at once (and stops waking it when this request is over).
  struct WakeOnCancel {
    const pipeline::CancelToken* token;
    pipeline::Wakeup* wake;
    ~WakeOnCancel() {
      if (token != nullptr) token->stopWaking(wake);
    }
  } wakeOnCancel{cancel != nullptr && cancel->wakeOnCancel(&cloudWake) ? cancel : nullptr, &cloudWake};
  pipeline::CancelToken stopCloud;  // the supervisor's deadline, a length bound or the user's barge-in
  cloud::ChatOutcome outcome;
  std::thread worker([&] {
    outcome = cloud->chat(req, q, &stopCloud);
    q.finish();
  });
  router::RequestSupervisor sup = router->makeSupervisor();
  sup.start(router::Route::cloud, local.has_value(), now(), cancel);
  privacy::Deanonymizer restore(anonymizer, escalation.text, localOnly);
  std::string piece, restored;
  bool spoke = false;    // part of the answer was said
  bool stopped = false;  // we ended the stream (deadline, bound, fallback, barge-in): what still comes is dropped
  router::SupervisorAction verdict = router::SupervisorAction::none;
  const char* ending = nullptr;  // the honest ending of an answer cut short
  const auto noteSpoken = [&] {
    if (spoke || sink.answer.empty()) return;
    spoke = true;
    (void)sup.onFirstToken(now());
    router->onCloudSuccess(now());
  };
  for (;;) {
    bool finished = false;
    {
      // The ticket comes before the looks: a delta, the end, a cancel or the deadline after them ends the wait.
      const std::uint32_t ticket = cloudWake.prepare();
      bool ready;
      {
        std::lock_guard<std::mutex> lock(q.m);
        ready = !q.pending.empty() || q.done;
      }
      const bool cancelSeen = cancel != nullptr && cancel->cancelled() && !stopped;
      if (!ready && !cancelSeen) {
        // Stopped: only waiting for the client to let go (it returns within its own cancel check).
        const auto deadline = stopped ? router::Millis::max() : sup.nextDeadline();
        if (deadline == router::Millis::max()) {
          cloudWake.wait(ticket);
        } else if (const auto left = deadline - now(); left.count() > 0) {
          cloudWake.wait(ticket, static_cast<std::int64_t>(left.count()) * 1'000'000);
        }
      }
      std::lock_guard<std::mutex> lock(q.m);
      piece.swap(q.pending);
      q.pending.clear();
      finished = q.done && q.pending.empty();
    }
    if (cancel != nullptr && cancel->cancelled()) {
      stopped = true;
      stopCloud.cancel();
    }
    if (!piece.empty() && !stopped) {
      restored.clear();
      restore.feed(piece, restored);
      sink.onText(restored);
      noteSpoken();
      if (sink.cut()) {  // tts.max-answer-chars: enough said
        stopped = true;
        ending = router::kTooLongText;
        stopCloud.cancel();
      }
    }
    piece.clear();
    if (finished) break;
    if (stopped) continue;  // only waiting for the client to let go (it polls its cancel token every 20 ms)
    const router::SupervisorAction a = sup.onTick(now());
    switch (a) {
      case router::SupervisorAction::speakFiller:
        out.filler = true;
        sink.onFiller(router::kFillerText);
        break;
      case router::SupervisorAction::fallbackLocal:
      case router::SupervisorAction::sayCannotAnswer:
      case router::SupervisorAction::endIncomplete:
        verdict = a;  // the hard timeout: before anything was said, or with the answer unfinished
        if (a == router::SupervisorAction::endIncomplete) ending = router::kOutOfTimeText;
        stopped = true;
        stopCloud.cancel();
        break;
      case router::SupervisorAction::stop:
        stopped = true;
        stopCloud.cancel();
        break;
      case router::SupervisorAction::none: break;
    }
  }
  worker.join();
  out.escalated = outcome.requestSent;
  if (outcome.requestSent) {
    out.sent = outcome.requestBody;
    out.anonymized = escalation.text;
    if (outcome.requestBody != body) sink.onWarning("the request sent differs from the one audited");
  }
  if (cancel != nullptr && cancel->cancelled()) {  // barge-in: say nothing more
    router->onCloudAbandoned();
    out.complete = false;
    return {};
  }
  const std::string hardMs = std::to_string(options.router.supervisor.hardTimeout.count());
  if (!stopped && outcome.ok()) {
    restored.clear();
    restore.finish(restored);
    sink.onText(restored);
    noteSpoken();
    if (sink.cut()) {
      ending = router::kTooLongText;
    } else {
      verdict = sup.onFinished(now());  // none, or a fallback when the stream held no answer at all
      if (verdict != router::SupervisorAction::none) {
        router->onCloudFailure(now());
        sink.onWarning("cloud: the answer was empty");
      } else if (cutByServer(outcome.finishReason)) {
        // The server stopped it (its token limit, a filter): what was said stays, ended honestly, reported as cut
        // and never cached, like a reset (it was once reported complete and cached for 7 days).
        ending = router::kTooLongText;
        sink.onWarning("cloud: the server cut the answer short (finish_reason \"" + outcome.finishReason + "\")");
      }
    }
  } else if (!stopped) {
    // The stream failed by itself: reset, malformed event, server error, timeout, the byte bound ...
    if (!spoke) router->onCloudFailure(now());
    sink.onWarning(std::string("cloud: ") + cloud::cloudErrcName(outcome.error) +
                   (outcome.message.empty() ? "" : ": " + outcome.message));
    verdict = sup.onError(now());
    if (verdict == router::SupervisorAction::endIncomplete) {
      ending = outcome.error == cloud::CloudErrc::tooLarge ? router::kTooLongText : router::kLostConnectionText;
    }
  } else if (verdict == router::SupervisorAction::fallbackLocal ||
             verdict == router::SupervisorAction::sayCannotAnswer) {
    router->onCloudFailure(now());
    sink.onWarning("cloud: no answer within latency.hard-timeout-ms (" + hardMs + " ms)");
  } else if (verdict == router::SupervisorAction::endIncomplete) {
    sink.onWarning("cloud: the answer did not finish within latency.hard-timeout-ms (" + hardMs + " ms)");
  } else if (ending == router::kTooLongText) {
    sink.onWarning("cloud: the answer passed tts.max-answer-chars (" + std::to_string(options.maxAnswerChars) +
                   "); cut");
  }
  if (ending != nullptr) {
    sink.endWith(ending);
    out.complete = false;
    return {};
  }
  if (verdict == router::SupervisorAction::fallbackLocal || verdict == router::SupervisorAction::sayCannotAnswer) {
    out.fellBack = true;
    if (verdict == router::SupervisorAction::sayCannotAnswer || !local) {
      out.route = router::Route::cannotAnswer;
      sink.onText(router::kCannotAnswerText);
      return {};
    }
    return answerLocally(text, sink, cancel, out);
  }
  return {};
}

}  // namespace sotto::answer
