// SPDX-License-Identifier: MIT
// The Brain's insides, shared by its source files (brain.cpp: a request; brain_cloud.cpp: the cloud route and the
// fallbacks; brain_setup.cpp: create()). Private to engine/answer.
#pragma once

#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/answer/brain.h"
#include "engine/cache/answer_cache.h"
#include "engine/cache/generator_embedder.h"
#include "engine/cloud/answer_guard.h"
#include "engine/cloud/client.h"
#include "engine/intents/clock.h"
#include "engine/intents/handlers.h"
#include "engine/intents/matcher.h"
#include "engine/llm/chat_template.h"
#include "engine/llm/generator.h"
#include "engine/llm/model.h"
#include "engine/llm/tokenizer.h"
#include "engine/nlu/model.h"
#include "engine/nlu/understand.h"
#include "engine/privacy/anonymizer.h"
#include "engine/privacy/audit.h"
#include "engine/privacy/device_id.h"
#include "engine/privacy/pii.h"
#include "engine/privacy/policy.h"
#include "engine/pipeline/wakeup.h"
#include "engine/router/router.h"
#include "sotto/hal/keystore.h"
#include "sotto/hal/thread_pool.h"

namespace sotto::answer::detail {


inline router::Millis now() { return router::steadyNow(); }

// The local model with its tokenizer and chat template; absent when no model is configured or it failed to load.
struct LocalModel {
  std::unique_ptr<llm::Model> model;
  std::unique_ptr<llm::Tokenizer> tokenizer;
  std::optional<llm::ChatTemplate> chat;
  std::unique_ptr<llm::Generator> generator;
};

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
namespace sotto::answer {

struct Brain::Impl {
  BrainOptions options;
  std::vector<std::string> warnings;
  std::string deviceKeyProblem;  // see Brain::deviceKeyProblem()
  std::string semanticCacheReport;  // see Brain::semanticCacheReport()
  std::string modelLockProblem;     // see Brain::modelLockProblem()
  std::string systemPromptReport;   // see Brain::systemPromptReport()
  bool systemPromptRestored = false;
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
  // The model's one thread pool (both generators below borrow it); declared first so it outlives them.
  std::unique_ptr<hal::ThreadPool> llmPool;
  std::unique_ptr<llm::Generator> embedGenerator;  // the cache's own: embed() clobbers a generator's prefix
  std::unique_ptr<cache::GeneratorEmbedder> embedder;
  bool cacheDirty = false;
  std::unique_ptr<cloud::CloudClient> cloud;  // null: no endpoint, or it could not be set up
  std::string cloudHost;                      // for the audit log (never credentials)
  std::optional<privacy::PseudonymousId> deviceId;  // the rotating pseudonym the cloud sees
  std::optional<intents::Matcher> matcher;
  std::unique_ptr<nlu::NluModel> understandingModel;  // null: the catalogue's phrasings alone
  std::optional<nlu::Understander> understander;  // our own, when BrainOptions::understander is null
  const nlu::Understander* understanding = nullptr;  // the one in use (ours or the borrowed one); null: no intents
  std::unique_ptr<nlu::UnderstandWorkspace> understandSpace;
  intents::SystemClock clock;
  intents::SystemTimeZone zone;
  std::unique_ptr<intents::IntentHandlers> handlers;
  std::vector<std::string> startAnnouncements;  // from handlers->start(), said by the first dueAnnouncements()
  intents::DeviceStatus device;
  std::optional<detail::LocalModel> local;
  std::unique_ptr<router::Router> router;
  // The brain thread sleeps on it while a cloud answer streams: the cloud thread's deltas and end, the request's
  // cancel token and the supervisor's deadline wake it.
  pipeline::Wakeup cloudWake;

  Result<AskResult> ask(std::string_view text, AskSink& sink, const pipeline::CancelToken* cancel,
                        const HeardAs& heard);
  Result<SpeculationResult> speculate(std::string_view partial, const pipeline::CancelToken* cancel, bool prefill);
  PromptReuse lastPromptReuse;  // of the last ask(): its first generation with the local model
  // Generates up to `maxTokens` more tokens of the local answer into `c` (streaming when c.live is set).
  Result<llm::GenerationResult> generateLocal(std::string_view text, detail::TokenCollector& c, size_t maxTokens,
                                              const pipeline::CancelToken* cancel);
  std::string localPrompt(std::string_view text) const;
  void remember(std::string_view text, const AskResult& out, std::uint64_t slots, bool timeSensitive);
  // The cloud route: audit, send the anonymized prompt, stream and de-anonymize the answer under the supervisor
  // (filler, the whole answer's hard timeout). A failure before anything was said: the local model answers (or the
  // user is told plainly). A failure, the deadline or a length bound after part was said: that part stays and ends
  // with an honest ending (out.complete = false).
  Status askCloud(std::string_view text, const privacy::EscalationDecision& escalation,
                  const router::RouteDecision& d, detail::AnswerOut& sink, const pipeline::CancelToken* cancel, AskResult& out);
  // The local model's answer from the start (fallbacks).
  Status answerLocally(std::string_view text, detail::AnswerOut& sink, const pipeline::CancelToken* cancel, AskResult& out);
  void saveCache(AskSink& sink);
};

}  // namespace sotto::answer
