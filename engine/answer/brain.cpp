// SPDX-License-Identifier: MIT
// Brain: classify, match, look up, decide, then answer from the handler, the cache, the local model or the cloud.
#include <algorithm>
#include <chrono>

#include "engine/answer/brain_impl.h"
#include "engine/router/local_confidence.h"

namespace sotto::answer {

using detail::AnswerOut;
using detail::now;
using detail::TokenCollector;

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
  const bool first = c.ids.empty();
  // Without the prefix cache a request starts from an empty KV cache; continuing one answer still keeps its own.
  o.reusePrefix = options.prefixCache || !first;
  auto r = local->generator->generate(std::span<const llm::TokenId>(prompt), o, &c, cancel);
  if (r && first) lastPromptReuse = PromptReuse{r->promptTokens, r->reusedTokens};
  return r;
}

Result<SpeculationResult> Brain::Impl::speculate(std::string_view partial, const pipeline::CancelToken* cancel,
                                                 bool prefill) {
  SpeculationResult out;
  // A command is answered by its handler at the final (never from a partial: it may change state); the model's
  // KV is left as it is for the answer that may follow. A question that changes nothing is answered now, as ask()
  // would (no ask-again, the same device snapshot), so its first phrase can be synthesized during the pause.
  if (understanding != nullptr) {
    intents::IntentMatch match;
    understanding->understand(partial, *understandSpace, match);
    out.intent = match.intent >= 0;
    const auto& specs = understanding->matcher().catalogue().intents();
    const intents::IntentSpec* spec = out.intent ? &specs[static_cast<size_t>(match.intent)] : nullptr;
    const bool intentsMayAnswer =
        options.forced == router::ForcedRoute::automatic || options.forced == router::ForcedRoute::intent;
    if (spec != nullptr && !spec->changesState && handlers && intentsMayAnswer &&
        !intents::asksAgain(spec, match.confidence, options.clarifyBelow, options.spokenRequests, false)) {
      intents::HandlerOutcome handled = handlers->preview(match, partial, device);
      if (handled.status == intents::HandlerOutcome::Status::answered) out.preview = std::move(handled.speech);
    }
  }
  const bool modelMayAnswer = options.forced == router::ForcedRoute::automatic ||
                              options.forced == router::ForcedRoute::local;
  if (out.intent || !prefill || !local || !modelMayAnswer || partial.empty()) return out;
  // Exactly the tokens ask() will evaluate for this text (generateLocal), so a final equal to the partial reuses
  // all of them but the last, and one that differs keeps what precedes the first differing token.
  const std::vector<llm::TokenId> prompt = local->tokenizer->tokenize(localPrompt(partial), true, true);
  out.promptTokens = prompt.size();
  const std::span<const llm::TokenId> cached = local->generator->cachedTokens();
  while (out.keptTokens < std::min(cached.size(), prompt.size()) && cached[out.keptTokens] == prompt[out.keptTokens]) {
    ++out.keptTokens;
  }
  // In pieces, so a newer partial or the final stops it within one piece (the generator checks between batches
  // only, and a whole prompt is one batch); each piece keeps what the last one evaluated.
  constexpr std::size_t kPiece = 16;
  const std::span<const llm::TokenId> all(prompt);
  for (std::size_t end = out.keptTokens; end < prompt.size();) {
    end = std::min(prompt.size(), end + kPiece);
    auto done = local->generator->warmPrefix(all.first(end), cancel);
    if (!done) return std::move(done).error();
    if (!*done) {
      out.cancelled = true;
      break;
    }
  }
  const std::span<const llm::TokenId> now = local->generator->cachedTokens();
  out.prefilled = now.size() > out.keptTokens;
  out.evaluatedTokens = now.size() > out.keptTokens ? now.size() - out.keptTokens : 0;
  return out;
}

Result<AskResult> Brain::Impl::ask(std::string_view text, AskSink& outer, const pipeline::CancelToken* cancel,
                                   const HeardAs& heard) {
  AnswerOut sink(outer, options.maxAnswerChars);
  const router::Millis tStart = now();
  lastPromptReuse = PromptReuse{};
  AskResult out;
  router::RouteInputs in;
  in.mode = mode.load();
  in.forced = options.forced;

  // 1. Personal data: the per-type policy decides whether anything may leave the device, and as what.
  privacy::SpanBuffer spans;
  const bool classified = pii->classify(text, spans).ok();
  const privacy::EscalationDecision escalation =
      privacy::decideEscalation(in.mode, text, classified, spans, policy, anonymizer);
  // The verdict follows the escalation decision, spans or not: a local-only type the model only suspects (no
  // span) keeps the request on the device exactly like a found one (it once went to the cloud as an empty message).
  const bool keptLocal = !classified || spans.overflowed() ||
                         escalation.reason == privacy::EscalationReason::localOnlyPii ||
                         escalation.reason == privacy::EscalationReason::anonymizerFull ||
                         escalation.reason == privacy::EscalationReason::unclassified;
  if (keptLocal) {
    in.pii = router::PiiVerdict::localOnly;
  } else if (!spans.empty() || spans.suspected() != 0) {
    in.pii = router::PiiVerdict::redactable;
  }

  // 2. Intents: a confident match with a handler that answers.
  intents::IntentMatch match;
  std::optional<intents::HandlerOutcome> handled;
  if (understanding != nullptr) {
    understanding->understand(text, *understandSpace, match);
    in.intent.matched = match.intent >= 0;
    in.intent.confidence = static_cast<float>(match.confidence);
    // Ask again instead of guessing (issue 20): intents::asksAgain. Nothing is executed.
    const auto& specs = understanding->matcher().catalogue().intents();
    const intents::IntentSpec* spec = in.intent.matched ? &specs[static_cast<size_t>(match.intent)] : nullptr;
    if (intents::asksAgain(spec, match.confidence, options.clarifyBelow, options.spokenRequests,
                           heard.unfinishedTurn)) {
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
        mode = options.onlineMode;
      }
      break;
    }
    case router::Route::local: {
      sink.onText(collected.text);
      collected.live = &sink;
      const size_t have = collected.ids.size();
      if (have < options.maxAnswerTokens) {
        auto r = generateLocal(text, collected, options.maxAnswerTokens - have, cancel);
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
      // A command whose handler needed another source (a forecast with no cloud) says what it cannot do.
      const bool own = handled && handled->status == intents::HandlerOutcome::Status::escalate &&
                       !handled->fallback.empty();
      const bool keptPrivate = d.cloudBlock == router::CloudBlock::piiLocalOnly;
      sink.onText(own           ? std::string_view(handled->fallback)
                  : keptPrivate ? std::string_view(router::kPrivateCannotAnswerText)
                                : std::string_view(router::kCannotAnswerText));
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
  // Personal data, found or only suspected, is never kept in the cache (the cache checks again on its own).
  if (in.pii == router::PiiVerdict::none) remember(text, out, slots, looksTimeSensitive(text) || match.name == "weather");
  saveCache(sink);
  return out;
}

Brain::Brain(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Brain::~Brain() = default;

Result<AskResult> Brain::ask(std::string_view text, AskSink& sink, const pipeline::CancelToken* cancel,
                             const HeardAs& heard) {
  return impl_->ask(text, sink, cancel, heard);
}

Result<SpeculationResult> Brain::speculate(std::string_view partial, const pipeline::CancelToken* cancel,
                                           bool prefill) {
  return impl_->speculate(partial, cancel, prefill);
}

PromptReuse Brain::lastPromptReuse() const { return impl_->lastPromptReuse; }

void Brain::setPrivacyMode(privacy::PrivacyMode mode) { impl_->mode = mode; }
privacy::PrivacyMode Brain::privacyMode() const { return impl_->mode.load(); }
const std::vector<std::string>& Brain::warnings() const { return impl_->warnings; }
router::RouterCounts Brain::routerCounts() const { return impl_->router->metrics().snapshot(); }
const std::string& Brain::deviceKeyProblem() const { return impl_->deviceKeyProblem; }
const std::string& Brain::semanticCacheReport() const { return impl_->semanticCacheReport; }
bool Brain::semanticCacheOff() const { return impl_->semanticCacheOff; }
const std::string& Brain::modelLockProblem() const { return impl_->modelLockProblem; }
const std::string& Brain::systemPromptReport() const { return impl_->systemPromptReport; }
bool Brain::systemPromptRestored() const { return impl_->systemPromptRestored; }
const hal::ThreadPool* Brain::modelThreads() const { return impl_->local ? impl_->llmPool.get() : nullptr; }

std::optional<std::int64_t> Brain::msUntilDue() const {
  if (!impl_->startAnnouncements.empty()) return 0;
  if (!impl_->handlers) return std::nullopt;
  const std::optional<std::int64_t> next = impl_->handlers->nextDeadlineMs();
  if (!next) return std::nullopt;
  return *next - impl_->clock.nowMs();
}

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

}  // namespace sotto::answer