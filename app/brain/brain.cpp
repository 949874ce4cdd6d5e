// SPDX-License-Identifier: MIT
// Brain: classify, match, look up, decide, then answer from the handler, the cache, the local model or the cloud.
#include "app/brain/brain.h"

#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <mutex>
#include <thread>
#include <vector>

#include "engine/cache/answer_cache.h"
#include "engine/cache/generator_embedder.h"
#include "engine/cloud/answer_guard.h"
#include "engine/cloud/client.h"
#include "engine/intents/catalogue.h"
#include "engine/intents/clock.h"
#include "engine/intents/handlers.h"
#include "engine/intents/matcher.h"
#include "engine/nlu/model.h"
#include "engine/nlu/understand.h"
#include "engine/llm/chat_template.h"
#include "engine/llm/generator.h"
#include "engine/llm/model.h"
#include "engine/llm/tokenizer.h"
#include "engine/privacy/anonymizer.h"
#include "engine/privacy/audit.h"
#include "engine/privacy/device_id.h"
#include "engine/privacy/pii.h"
#include "engine/privacy/pii_model.h"
#include "engine/privacy/policy.h"
#include "engine/router/cost_caps_file.h"
#include "engine/router/local_confidence.h"
#include "engine/router/router.h"
#include "sotto/hal/atomic_file.h"
#include "sotto/hal/keystore.h"

#ifndef SOTTO_INTENTS_SOURCE_CATALOGUE
#define SOTTO_INTENTS_SOURCE_CATALOGUE ""
#endif

namespace sotto::brain {
namespace {

router::Millis now() { return router::steadyNow(); }

// The local model with its tokenizer and chat template; absent when no model is configured or it failed to load.
struct LocalModel {
  std::unique_ptr<llm::Model> model;
  std::unique_ptr<llm::Tokenizer> tokenizer;
  std::optional<llm::ChatTemplate> chat;
  std::unique_ptr<llm::Generator> generator;
};

Result<LocalModel> loadLocal(const std::string& path, const config::Config& c) {
  LocalModel m;
  auto model = llm::Model::load(path);
  if (!model) return std::move(model).error();
  m.model = std::move(*model);
  auto tok = llm::Tokenizer::fromGguf(m.model->file());
  if (!tok) return std::move(tok).error();
  m.tokenizer = std::move(*tok);
  const auto tmpl = m.model->file().getString("tokenizer.chat_template");
  auto chat = llm::ChatTemplate::detect(tmpl ? *tmpl : std::string_view{});
  if (chat) m.chat = std::move(*chat);  // without a template the prompt is the plain text (base models)
  llm::GeneratorOptions go;
  go.context.threads = c.llmThreads;
  go.context.nCtx = c.contextTokens;  // capped by the model's training context
  auto gen = llm::Generator::create(*m.model, *m.tokenizer, go);
  if (!gen) return std::move(gen).error();
  m.generator = std::move(*gen);
  return m;
}

// Collects the model's first tokens (for its confidence) and, once the route is known, streams the rest.
struct TokenCollector final : llm::GenerationSink {
  std::vector<llm::TokenId> ids;
  std::string text;
  AskSink* live = nullptr;  // null while deciding: text is held back until the route is local
  std::optional<router::Millis> firstToken;
  void onToken(const llm::GeneratedToken& t) override {
    if (!firstToken) firstToken = now();
    ids.push_back(t.id);
    text.append(t.text);
    if (live != nullptr && !t.text.empty()) live->onText(t.text);
  }
  void onTextEnd(std::string_view tail) override {
    text.append(tail);
    if (live != nullptr && !tail.empty()) live->onText(tail);
  }
};

// Everything the brain says passes here: made safe for the speaker and the terminal (no control or format
// characters, whatever the route), bounded at tts.max-answer-chars, recorded as the answer (so AskResult::answer is
// exactly what was said), and timed (the first piece feeds the router's latency model).
struct AnswerOut final : AskSink {
  AnswerOut(AskSink& inner, std::size_t maxChars) : guard_(maxChars), inner_(inner) {}
  void onDecision(const router::RouteDecision& d, std::string_view line) override { inner_.onDecision(d, line); }
  void onFiller(std::string_view t) override { inner_.onFiller(t); }
  void onText(std::string_view piece) override {
    safe_.clear();
    guard_.feed(piece, safe_);
    if (safe_.empty()) return;
    if (!first) first = now();
    answer.append(safe_);
    inner_.onText(safe_);
  }
  void onWarning(std::string_view m) override { inner_.onWarning(cloud::safeText(m)); }
  // Ends an answer cut short: the honest ending after what was said (ours and short: past the length bound).
  void endWith(std::string_view ending) {
    guard_.finish();
    std::string e = answer.empty() || answer.back() == ' ' ? std::string(ending) : " " + std::string(ending);
    if (!first) first = now();
    answer += e;
    inner_.onText(e);
    ended_ = true;
  }
  bool cut() const { return guard_.cut(); }
  bool ended() const { return ended_; }
  std::string answer;
  std::optional<router::Millis> first;

 private:
  cloud::AnswerGuard guard_;
  AskSink& inner_;
  std::string safe_;
  bool ended_ = false;
};

}  // namespace

struct Brain::Impl {
  config::Config config;
  BrainOverrides overrides;
  std::vector<std::string> warnings;
  std::string deviceKeyProblem;  // see Brain::deviceKeyProblem()
  std::string semanticCacheReport;  // see Brain::semanticCacheReport()
  bool semanticCacheOff = false;
  std::atomic<privacy::PrivacyMode> mode{privacy::PrivacyMode::private_};

  std::unique_ptr<privacy::PiiClassifier> pii;
  privacy::PolicyTable policy = privacy::PolicyTable::defaults();
  privacy::Anonymizer anonymizer;  // one conversation: the same value keeps its placeholder across turns
  std::unique_ptr<hal::Keystore> keystore;
  std::unique_ptr<privacy::AuditLog> audit;  // no audit log, no escalation: what leaves must be on record
  std::unique_ptr<cache::AnswerCache> cache;
  std::optional<hal::SecretKey> cacheKey;
  std::string cachePath;
  std::unique_ptr<llm::Generator> embedGenerator;  // the cache's own: embed() clobbers a generator's prefix
  std::unique_ptr<cache::GeneratorEmbedder> embedder;
  bool cacheDirty = false;
  std::unique_ptr<cloud::CloudClient> cloud;  // null: no endpoint, or it could not be set up
  std::string cloudHost;                      // for the audit log (never credentials)
  std::optional<privacy::PseudonymousId> deviceId;  // the rotating pseudonym the cloud sees
  std::optional<intents::Matcher> matcher;
  std::unique_ptr<nlu::NluModel> understandingModel;  // null: the catalogue's phrasings alone
  std::optional<nlu::Understander> understander;
  std::unique_ptr<nlu::UnderstandWorkspace> understandSpace;
  intents::SystemClock clock;
  intents::SystemTimeZone zone;
  std::unique_ptr<intents::IntentHandlers> handlers;
  std::vector<std::string> startAnnouncements;  // from handlers->start(), said by the first dueAnnouncements()
  intents::DeviceStatus device;
  std::optional<LocalModel> local;
  std::unique_ptr<router::Router> router;

  Result<AskResult> ask(std::string_view text, AskSink& sink, const pipeline::CancelToken* cancel);
  // Generates up to `maxTokens` more tokens of the local answer into `c` (streaming when c.live is set).
  Result<llm::GenerationResult> generateLocal(std::string_view text, TokenCollector& c, size_t maxTokens,
                                              const pipeline::CancelToken* cancel);
  std::string localPrompt(std::string_view text) const;
  void remember(std::string_view text, const AskResult& out, std::uint64_t slots, bool timeSensitive);
  // The cloud route: audit, send the anonymized prompt, stream and de-anonymize the answer under the supervisor
  // (filler, the whole answer's hard timeout). A failure before anything was said: the local model answers (or the
  // user is told plainly). A failure, the deadline or a length bound after part was said: that part stays and ends
  // with an honest ending (out.complete = false).
  Status askCloud(std::string_view text, const privacy::EscalationDecision& escalation,
                  const router::RouteDecision& d, AnswerOut& sink, const pipeline::CancelToken* cancel, AskResult& out);
  // The local model's answer from the start (fallbacks).
  Status answerLocally(std::string_view text, AnswerOut& sink, const pipeline::CancelToken* cancel, AskResult& out);
  void saveCache(AskSink& sink);
};

// Answers worth keeping: not the handlers' (they are computed fresh), not "cannot answer"; time-sensitive ones
// (weather, news, "today") expire within minutes.
void Brain::Impl::remember(std::string_view text, const AskResult& out, std::uint64_t slots, bool timeSensitive) {
  if (!cache || out.answer.empty() || !out.complete) return;  // never keep an answer cut short
  if (out.route != router::Route::local && out.route != router::Route::cloud) return;
  const auto cls = timeSensitive ? cache::AnswerClass::timeSensitive : cache::AnswerClass::staticKnowledge;
  if (cache->insert(text, out.answer, cls, slots) == cache::InsertOutcome::stored) cacheDirty = true;
}

void Brain::Impl::saveCache(AskSink& sink) {
  if (!cache || !cacheKey || !cacheDirty) return;
  if (auto st = cache->save(cachePath, cacheKey->bytes()); !st) {
    sink.onWarning("answer cache not saved: " + st.error().message);
  }
  cacheDirty = false;
}

namespace {

// Tokens a cloud answer may have (the request's max_tokens; the client cuts at its byte equivalent).
constexpr std::uint32_t kCloudMaxTokens = 256;

// What the cloud is told about its role; no device identity, no user data beyond the anonymized question.
constexpr const char* kCloudSystemPrompt =
    "You are the voice of a smart speaker. Answer in one or two short sentences that read well aloud. Text in "
    "square brackets such as [PERSON_1] stands for private details: keep it exactly as written.";

// Deltas from the cloud thread to the brain thread.
struct DeltaQueue final : cloud::DeltaSink {
  std::mutex m;
  std::condition_variable cv;
  std::string pending;
  bool any = false, done = false;
  void onDelta(std::string_view text) override {
    {
      std::lock_guard<std::mutex> lock(m);
      pending.append(text);
      any = true;
    }
    cv.notify_one();
  }
  void finish() {
    {
      std::lock_guard<std::mutex> lock(m);
      done = true;
    }
    cv.notify_one();
  }
};

std::string hostOf(const std::string& url) {
  const size_t scheme = url.find("://");
  const size_t start = scheme == std::string::npos ? 0 : scheme + 3;
  const size_t end = url.find('/', start);
  std::string host = url.substr(start, end == std::string::npos ? std::string::npos : end - start);
  const size_t at = host.rfind('@');  // never record credentials in the URL
  return at == std::string::npos ? host : host.substr(at + 1);
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
  auto r = generateLocal(text, c, overrides.maxAnswerTokens, cancel);
  if (!r) return std::move(r).error();
  out.route = router::Route::local;
  return {};
}

Status Brain::Impl::askCloud(std::string_view text, const privacy::EscalationDecision& escalation,
                             const router::RouteDecision& d, AnswerOut& sink, const pipeline::CancelToken* cancel,
                             AskResult& out) {
  cloud::ChatRequest req;
  req.model = config.cloudModel.empty() ? "default" : config.cloudModel;
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

  DeltaQueue q;
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
      std::unique_lock<std::mutex> lock(q.m);
      const auto deadline = sup.nextDeadline();
      auto ready = [&] { return !q.pending.empty() || q.done; };
      if (deadline == router::Millis::max()) {
        q.cv.wait_for(lock, std::chrono::milliseconds(20), ready);
      } else {
        const auto wait = std::max<router::Millis>(router::Millis{1}, deadline - now());
        q.cv.wait_for(lock, std::min<router::Millis>(wait, router::Millis{20}), ready);
      }
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
  const std::string hardMs = std::to_string(config.hardTimeoutMs);
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
    sink.onWarning("cloud: the answer passed tts.max-answer-chars (" + std::to_string(config.ttsMaxAnswerChars) +
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

namespace {

// Crude but conservative: answers to these change within the day.
bool looksTimeSensitive(std::string_view text) {
  static constexpr std::string_view kWords[] = {"weather", "today", "tonight", "tomorrow", "now", "news",
                                                "score", "forecast", "traffic", "latest", "current"};
  for (std::string_view w : kWords) {
    if (text.find(w) != std::string_view::npos) return true;
  }
  return false;
}

}  // namespace

std::string Brain::Impl::localPrompt(std::string_view text) const {
  if (!local->chat) return std::string(text);
  const llm::ChatMessage messages[] = {{"user", text}};
  return local->chat->apply(messages, true);
}

Result<llm::GenerationResult> Brain::Impl::generateLocal(std::string_view text, TokenCollector& c, size_t maxTokens,
                                                         const pipeline::CancelToken* cancel) {
  // Continuing: the prompt is the previous prompt plus what was generated; the prefix cache makes it free.
  std::vector<llm::TokenId> prompt = local->tokenizer->tokenize(localPrompt(text), true, true);
  prompt.insert(prompt.end(), c.ids.begin(), c.ids.end());
  llm::GenerateOptions o;
  o.maxTokens = maxTokens;
  o.sampling.temperature = 0.0f;  // a speaker's answer should not change from one ask to the next
  return local->generator->generate(std::span<const llm::TokenId>(prompt), o, &c, cancel);
}

Result<AskResult> Brain::Impl::ask(std::string_view text, AskSink& outer, const pipeline::CancelToken* cancel) {
  AnswerOut sink(outer, config.ttsMaxAnswerChars);
  const router::Millis tStart = now();
  AskResult out;
  router::RouteInputs in;
  in.mode = mode.load();
  in.forced = overrides.forced;

  // 1. Personal data: the per-type policy decides whether anything may leave the device, and as what.
  privacy::SpanBuffer spans;
  const bool classified = pii->classify(text, spans).ok();
  const privacy::EscalationDecision escalation =
      privacy::decideEscalation(in.mode, text, classified, spans, policy, anonymizer);
  if (!classified || spans.overflowed()) {
    in.pii = router::PiiVerdict::localOnly;  // not wholly checked: treat it as wholly sensitive
  } else if (!spans.empty()) {
    const bool localOnly = escalation.reason == privacy::EscalationReason::localOnlyPii ||
                           escalation.reason == privacy::EscalationReason::anonymizerFull;
    in.pii = localOnly ? router::PiiVerdict::localOnly : router::PiiVerdict::redactable;
  }

  // 2. Intents: a confident match with a handler that answers.
  intents::IntentMatch match;
  std::optional<intents::HandlerOutcome> handled;
  if (understander) {
    understander->understand(text, *understandSpace, match);
    in.intent.matched = match.intent >= 0;
    in.intent.confidence = static_cast<float>(match.confidence);
    // Ask again instead of guessing (issue 20): a command that would change state, understood with less than
    // asr.clarify-below, is never executed; from speech, an unsure reading of no command is asked again too.
    // Queries go on: their answer speaks what was assumed ("The time is ...").
    const bool unsure = config.asrClarifyBelow > 0.0f && match.confidence < config.asrClarifyBelow;
    if (unsure && (in.intent.matched ? intents::changesState(match.name) : overrides.spokenRequests)) {
      sink.onText(kClarifyText);
      out.route = router::Route::intent;
      out.reason = router::Reason::noAnswerSource;
      out.clarify = true;
      out.answer = sink.answer;
      return out;
    }
    if (in.intent.matched && handlers) {
      handled = handlers->handle(match, text, device);
      if (handled->status != intents::HandlerOutcome::Status::answered) in.intent.matched = false;
      if (!handled->warning.empty()) sink.onWarning(handled->warning);
    }
  }

  // 3. The answer cache (never holds answers to prompts with personal data).
  const std::uint64_t slots = match.intent >= 0 ? cache::slotSignature(match) : 0;
  std::string cached;
  if (cache) {
    const cache::LookupResult hit = cache->lookup(text, slots);
    in.cache.similarity = hit.similarity;
    in.cache.guardsPassed = hit.blockedBy == cache::Guard::none;
    if (hit.tier == cache::Tier::exact) in.cache.outcome = router::CacheOutcome::exact;
    if (hit.tier == cache::Tier::semantic) in.cache.outcome = router::CacheOutcome::semantic;
    if (hit.hit()) cached.assign(hit.answer);  // the view dies with the next cache change
  }

  // 4. Local model confidence, when the decision depends on it.
  TokenCollector collected;
  in.local.available = local.has_value();
  const auto tDecide = now();
  if (local && router->needsLocalConfidence(in, tDecide)) {
    auto r = generateLocal(text, collected, 8, cancel);
    if (!r) {
      sink.onWarning("local model: " + r.error().message);
      in.local = router::LocalInput{};
    } else {
      in.local = router::localInputFrom(r->confidence);
    }
  }

  // 5. Decide.
  const router::RouteDecision d = router->route(in, now());
  char line[router::kDecisionLineMax];
  const size_t len = router::formatDecision(d, router->complete(in, now()), line);
  sink.onDecision(d, std::string_view(line, len));
  out.route = d.route;
  out.reason = d.reason;

  // 6. Answer.
  switch (d.route) {
    case router::Route::intent: {
      if (handled && !handled->speech.empty()) sink.onText(handled->speech);
      // "go offline" / "privacy online": the switch takes effect for the very next request.
      if (handled && handled->effect.kind == intents::EffectKind::privacyOffline) {
        mode = privacy::PrivacyMode::offline;
      } else if (handled && handled->effect.kind == intents::EffectKind::privacyOnline) {
        mode = config.privacy == privacy::PrivacyMode::offline ? privacy::PrivacyMode::private_ : config.privacy;
      }
      break;
    }
    case router::Route::local: {
      sink.onText(collected.text);
      collected.live = &sink;
      const size_t have = collected.ids.size();
      if (have < overrides.maxAnswerTokens) {
        auto r = generateLocal(text, collected, overrides.maxAnswerTokens - have, cancel);
        if (!r) return std::move(r).error();
      }
      break;
    }
    case router::Route::cache: {
      sink.onText(cached);
      break;
    }
    case router::Route::cloud: {
      if (auto st = askCloud(text, escalation, d, sink, cancel, out); !st) return std::move(st).error();
      break;
    }
    case router::Route::cannotAnswer: {
      out.route = router::Route::cannotAnswer;
      sink.onText(router::kCannotAnswerText);
      break;
    }
  }
  // A local or cached answer past tts.max-answer-chars was cut by the guard: say so, like a cloud one.
  if (sink.cut() && !sink.ended()) {
    sink.endWith(router::kTooLongText);
    out.complete = false;
  }
  out.answer = sink.answer;
  // The latency the router predicts routes with: from the request to the answer's first piece (TTS adds its own).
  if (sink.first) {
    const auto took = std::chrono::duration_cast<std::chrono::milliseconds>(*sink.first - tStart).count();
    router->recordFirstAudio(out.route, static_cast<uint32_t>(std::max<long long>(0, took)));
  }
  if (handlers && d.route != router::Route::intent) handlers->noteSpoken(out.answer);
  remember(text, out, slots, looksTimeSensitive(text) || match.name == "weather");
  saveCache(sink);
  return out;
}

Brain::Brain(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Brain::~Brain() = default;

Result<std::unique_ptr<Brain>> Brain::create(const config::Config& config, const BrainOverrides& overrides) {
  auto impl = std::make_unique<Impl>();
  impl->config = config;
  impl->overrides = overrides;
  impl->mode = overrides.privacy ? *overrides.privacy : config.privacy;
  const std::string stateDir = overrides.stateDir ? *overrides.stateDir : config.stateDir;

  const std::string catalogue =
      overrides.cataloguePath.empty() ? std::string(intents::kDefaultCataloguePath) : overrides.cataloguePath;
  // The personal-data model lives beside the catalogue (/etc/sotto/pii.nlu); without it the rules alone decide.
  std::unique_ptr<privacy::PiiModel> piiModel;
  const std::string piiPath = piiModelPathBeside(catalogue);
  if (auto m = privacy::PiiModel::loadFile(piiPath)) {
    piiModel = std::move(*m);
  } else {
    impl->warnings.push_back("personal-data model unavailable (the rules alone decide what is private): " +
                             m.error().message);
  }
  auto pii = privacy::PiiClassifier::create(std::move(piiModel));
  if (!pii) return std::move(pii).error();  // no way to tell what may leave: refuse to start
  impl->pii = std::move(*pii);

  if (auto table = privacy::PolicyTable::fromNames(config.piiPolicy)) {
    impl->policy = *table;
  } else {
    return std::move(table).error();  // a config that says what may leave must be honoured exactly
  }

  // The daemon's state directory comes from systemd (StateDirectory=); the CLI may name a new one.
  std::error_code ec;
  if (!std::filesystem::exists(stateDir, ec) && std::filesystem::create_directories(stateDir, ec)) {
    std::filesystem::permissions(stateDir, std::filesystem::perms::owner_all, ec);
  }

  // The device key: encryption at rest (cache, audit log). Without it nothing is persisted and nothing escalates.
  hal::KeystoreSpec ks;
  ks.stateDir = stateDir;
  if (auto k = hal::KeystoreRegistry::instance().open(ks)) {
    impl->keystore = std::move(*k);
    privacy::AuditOptions ao;
    ao.dir = stateDir + "/" + privacy::kAuditDirName;
    ao.maxFileBytes = static_cast<uint64_t>(config.auditMaxFileKib) * 1024u;
    ao.maxFiles = config.auditFiles;
    auto auditKey = impl->keystore->deriveKey(privacy::kAuditKeyPurpose);
    if (!auditKey) {
      impl->warnings.push_back("cloud escalation disabled: no audit key: " + auditKey.error().message);
    } else if (auto log = privacy::AuditLog::open(ao, *auditKey)) {
      impl->audit = std::move(*log);
      for (const std::string& w : impl->audit->warnings()) impl->warnings.push_back("audit log: " + w);
    } else {
      impl->warnings.push_back("cloud escalation disabled: audit log: " + log.error().message);
    }
    if (auto ck = impl->keystore->deriveKey("cache")) impl->cacheKey = std::move(*ck);
    if (auto id = privacy::PseudonymousId::create(*impl->keystore, std::chrono::hours(config.deviceIdRotationH))) {
      impl->deviceId = std::move(*id);
    } else {
      impl->warnings.push_back("no pseudonymous device id: " + id.error().message);
    }
  } else {
    impl->warnings.push_back("no device key (answer cache not persisted, cloud escalation disabled): " +
                             k.error().message);
    // A key that exists but is unusable (truncated, wrong mode) is never replaced automatically: that would make
    // the audit log and the cache unreadable. A person decides; say how.
    impl->deviceKeyProblem =
        "device key unusable (" + k.error().message + "): cloud and answer cache are off until it is fixed: " +
        (k.error().code == Errc::not_found
             ? std::string("check that the state directory exists and is writable")
             : "restore " + stateDir + "/device.key from a backup, or delete it to make a new key at the next start "
                                       "(the audit log and cache written under the old key become unreadable)");
  }

  if (auto cat = intents::Catalogue::loadFile(catalogue)) {
    impl->matcher.emplace(std::move(*cat));
    // The trained model answers what the phrasings do not cover; without it intents still work, narrower.
    const std::string nluPath = nlu::modelPathFor(catalogue);
    if (auto m = nlu::NluModel::loadFile(nluPath)) {
      impl->understandingModel = std::move(*m);
    } else {
      impl->warnings.push_back("understanding model unavailable (intents from the catalogue's phrasings only): " +
                               m.error().message);
    }
    auto u = nlu::Understander::create(*impl->matcher, impl->understandingModel.get());
    if (!u) {
      impl->warnings.push_back("understanding model not used (intents from the catalogue's phrasings only): " +
                               u.error().message);
      impl->understandingModel.reset();
      u = nlu::Understander::create(*impl->matcher, nullptr);
    }
    impl->understander.emplace(std::move(*u));
    impl->understandSpace = std::make_unique<nlu::UnderstandWorkspace>();
    impl->handlers = std::make_unique<intents::IntentHandlers>(intents::IntentHandlers::Options{stateDir},
                                                               impl->clock, impl->zone);
    const intents::StartReport report = impl->handlers->start();
    for (const std::string& w : report.warnings) impl->warnings.push_back("intents: " + w);
    for (const intents::Announcement& a : report.announcements) impl->startAnnouncements.push_back(a.speech);
  } else {
    impl->warnings.push_back("intents disabled: " + cat.error().message);
  }

  const std::string modelPath = overrides.modelPath ? *overrides.modelPath : config.modelPath;
  if (!modelPath.empty()) {
    if (auto m = loadLocal(modelPath, config)) {
      impl->local = std::move(*m);
    } else {
      impl->warnings.push_back("local model disabled: " + m.error().message);
    }
  }

  if (config.cacheExactEntries > 0 || config.cacheSemanticEntries > 0) {
    cache::CacheOptions co;
    co.exactEntries = config.cacheExactEntries;
    co.ttlTimeSensitiveS = config.cacheTtlTimeSensitiveS;
    co.ttlStaticS = config.cacheTtlStaticS;
    co.semanticThreshold = static_cast<float>(config.cacheSemanticThresholdPct) / 100.0f;
    co.warmStartEntries = config.cacheWarmStartEntries;
    co.maxAnswerBytes = config.cacheMaxAnswerBytes;
    co.semanticEntries = 0;
    const std::string calibrationPath = stateDir + "/semantic-calibration";
    std::string calibrationKey;
    if (impl->local && config.cacheSemanticEntries > 0) {
      // Embeddings from the local model, on a generator of its own with a short context.
      llm::GeneratorOptions go;
      go.context.threads = config.llmThreads;
      go.context.nCtx = 256;
      if (auto g = llm::Generator::create(*impl->local->model, *impl->local->tokenizer, go)) {
        impl->embedGenerator = std::move(*g);
        impl->embedder = std::make_unique<cache::GeneratorEmbedder>(*impl->embedGenerator);
        co.semanticEntries = config.cacheSemanticEntries;
        co.calibrateSemantic = true;  // the model's own similarity of unrelated requests sets the threshold
        // Remembered per model file (path, size, modification time, embedding size): a restart does not embed the
        // calibration prompts again.
        if (struct stat st {}; ::stat(modelPath.c_str(), &st) == 0) {
          calibrationKey = modelPath + " " + std::to_string(st.st_size) + " " + std::to_string(st.st_mtim.tv_sec) +
                           "." + std::to_string(st.st_mtim.tv_nsec) + " " +
                           std::to_string(impl->embedder->dimension());
          if (auto saved = hal::readFile(calibrationPath, 4096)) {
            const std::string text(saved->begin(), saved->end());
            co.knownCalibration = cache::parseCalibration(text, calibrationKey, co.semanticThreshold);
          }
        }
      } else {
        impl->warnings.push_back("semantic cache disabled: " + g.error().message);
      }
    }
    if (auto c = cache::AnswerCache::create(co, *impl->pii, impl->embedder.get())) {
      impl->cache = std::move(*c);
      if (const cache::SemanticCalibration& cal = impl->cache->calibration(); cal.ran) {
        if (!cal.remembered && !calibrationKey.empty()) {
          const std::string text = cache::serializeCalibration(cal, calibrationKey);
          // Not saved (disk full, read-only state): measured again at the next start, nothing else lost.
          if (!text.empty())
            (void)hal::writeFileAtomic(calibrationPath,
                                       std::span(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()),
                                       0600);
        }
        impl->semanticCacheOff = !cal.usable;
        impl->semanticCacheReport =
            (cal.usable ? "semantic cache calibrated on the local model: " : "semantic cache off: ") + cal.summary();
      }
      impl->cachePath = stateDir + "/answers.cache";
      if (impl->cacheKey) {
        if (auto rep = impl->cache->load(impl->cachePath, impl->cacheKey->bytes())) {
          if (rep->discarded) impl->warnings.push_back("answer cache discarded: " + rep->reason);
        } else {
          impl->warnings.push_back("answer cache not loaded: " + rep.error().message);
        }
      }
    } else {
      impl->warnings.push_back("answer cache disabled: " + c.error().message);
    }
  }

  const std::string endpoint = overrides.cloudUrl ? *overrides.cloudUrl : config.cloudEndpoint;
  if (!endpoint.empty()) {
    cloud::ClientOptions co;
    co.endpoint = endpoint;
    co.caFile = config.cloudCaFile;
    co.clientCertFile = config.cloudClientCertFile;
    co.clientKeyFile = config.cloudClientKeyFile;
    co.apiKeyFile = config.cloudApiKeyFile;
    co.connectTimeoutMs = config.cloudConnectTimeoutMs;
    co.firstByteTimeoutMs = config.cloudFirstByteTimeoutMs;
    co.idleTimeoutMs = config.cloudIdleTimeoutMs;
    // Creating the client opens nothing: no socket exists until a request is routed to the cloud.
    if (auto c = cloud::CloudClient::create(co)) {
      impl->cloud = std::move(*c);
      impl->cloudHost = hostOf(endpoint);
    } else {
      impl->warnings.push_back("cloud escalation disabled: " + c.error().message);
    }
  }

  router::RouterOptions ro;
  ro.thresholds.intentConfidence = static_cast<float>(config.routerIntentConfidencePercent) / 100.0f;
  ro.thresholds.localConfidence = static_cast<float>(config.routerLocalConfidencePercent) / 100.0f;
  ro.thresholds.semanticSimilarity = static_cast<float>(config.routerSemanticSimilarityPercent) / 100.0f;
  ro.thresholds.cloudBudgetMs = config.hardTimeoutMs;
  ro.breaker = {config.breakerFailures, config.breakerFailurePercent, config.breakerWindow,
                router::Millis{config.breakerBackoffMs}, router::Millis{config.breakerMaxBackoffMs}};
  ro.caps = {config.cloudMaxPerHour, config.cloudMaxPerDay};
  ro.latency.priorMs = {config.budgetSimpleMs, config.budgetSimpleMs, config.budgetLocalMs, 0, 0};
  ro.supervisor = {router::Millis{config.budgetFirstTokenMs}, router::Millis{config.hardTimeoutMs}};
  ro.cloudConfigured = impl->cloud != nullptr && impl->audit != nullptr;
  ro.logDecisions = overrides.logDecisions;
  ro.capsFile = stateDir + "/" + router::kCostCapsFileName;  // a restart must not reset the cost caps
  auto router = router::Router::create(ro);
  if (!router) return std::move(router).error();
  impl->router = std::move(*router);
  if (std::string w = impl->router->restoreCaps(now()); !w.empty()) impl->warnings.push_back(w);
  return std::unique_ptr<Brain>(new Brain(std::move(impl)));
}

Result<AskResult> Brain::ask(std::string_view text, AskSink& sink, const pipeline::CancelToken* cancel) {
  return impl_->ask(text, sink, cancel);
}

void Brain::setPrivacyMode(privacy::PrivacyMode mode) { impl_->mode = mode; }
privacy::PrivacyMode Brain::privacyMode() const { return impl_->mode.load(); }
const std::vector<std::string>& Brain::warnings() const { return impl_->warnings; }
router::RouterCounts Brain::routerCounts() const { return impl_->router->metrics().snapshot(); }
const std::string& Brain::deviceKeyProblem() const { return impl_->deviceKeyProblem; }
const std::string& Brain::semanticCacheReport() const { return impl_->semanticCacheReport; }
bool Brain::semanticCacheOff() const { return impl_->semanticCacheOff; }

std::vector<std::string> Brain::dueAnnouncements() {
  std::vector<std::string> out = std::move(impl_->startAnnouncements);
  impl_->startAnnouncements.clear();
  if (!impl_->handlers) return out;
  const std::optional<std::int64_t> next = impl_->handlers->nextDeadlineMs();
  if (!next || *next > impl_->clock.nowMs()) return out;
  for (intents::Announcement& a : impl_->handlers->fireDue()) out.push_back(std::move(a.speech));
  return out;
}

std::string piiModelPathBeside(const std::string& cataloguePath) {
  const std::size_t slash = cataloguePath.rfind('/');
  return (slash == std::string::npos ? std::string(".") : cataloguePath.substr(0, slash)) + "/pii.nlu";
}

std::string defaultCataloguePath() {
  if (::access(intents::kDefaultCataloguePath, R_OK) == 0) return intents::kDefaultCataloguePath;
  return SOTTO_INTENTS_SOURCE_CATALOGUE;
}

}  // namespace sotto::brain
