// SPDX-License-Identifier: MIT
// Brain: route execution of the answer stage — everything between a transcript (or typed text) and the answer
// stream: PII, intents and their handlers, the answer cache, the local model, the router and the anonymized cloud
// escalation under its supervisor (filler, hard timeout, fallbacks). Built from BrainOptions (app/ translates the
// config into them: app/common/answer_config.h).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/cloud/client.h"
#include "engine/pipeline/cancel_token.h"
#include "engine/router/decision.h"
#include "engine/router/route.h"
#include "engine/router/router.h"
#include "engine/router/router_metrics.h"
#include "sotto/hal/result.h"

namespace sotto::hal {
class ThreadPool;
}

namespace sotto::nlu {
class Understander;
}

namespace sotto::answer {

// Everything the Brain is built from. Paths and sizes come from the config (app/common/answer_config.h), with the
// command line's overrides (sotto ask) already applied.
struct BrainOptions {
  privacy::PrivacyMode privacy = privacy::PrivacyMode::private_;     // the mode at start
  // What "privacy online" (the intent) switches back to: the configured mode, or private when that is offline.
  privacy::PrivacyMode onlineMode = privacy::PrivacyMode::private_;
  router::ForcedRoute forced = router::ForcedRoute::automatic;
  std::string stateDir;       // timers, cache, keys, audit log, the router's cost caps (created when missing)
  std::string cataloguePath;  // intent catalogue; the personal-data and understanding models live beside it
  // Borrowed, may be null: the understander built from cataloguePath by someone else (the daemon's recognizer),
  // shared so the catalogue and its model are loaded once. Must outlive the Brain. Null: the Brain loads its own.
  const nlu::Understander* understander = nullptr;
  std::string modelPath;      // the local GGUF model; "" = none
  unsigned llmThreads = 1;    // the model's thread pool, the calling thread included
  std::vector<int> llmCpus;   // the pool's workers are pinned to these; empty = not pinned
  bool mlockModel = false;    // mlock the mapped weights (a failure is reported in warnings(), not fatal)
  // model.prefix-cache: the system prompt's KV restored from (and saved to) the state directory, and each request
  // keeping the KV of the prefix it shares with the previous one. false: every request's prompt is evaluated whole
  // (for comparisons; speculation then prepares nothing a request can use).
  bool prefixCache = true;
  unsigned contextTokens = 2048;
  unsigned maxAnswerTokens = 96;  // local model answers
  bool logDecisions = true;       // one info log line per routing decision (sotto ask shows it itself)
  // Requests are transcripts of speech (the daemon): a reading of no command below clarifyBelow is asked
  // again too (typed text is never misheard).
  bool spokenRequests = false;
  float clarifyBelow = 0.0f;       // asr.clarify-below; 0 = never ask again
  std::size_t maxAnswerChars = 0;  // tts.max-answer-chars: longer answers are cut and end honestly
  // "local-only" | "redact" | "allow" per personal-data type (privacy::PolicyTable::fromNames).
  std::array<std::string, 14> piiPolicy;
  // The answer cache (0 entries in both tiers: none).
  std::uint32_t cacheExactEntries = 0, cacheSemanticEntries = 0, cacheTtlTimeSensitiveS = 0, cacheTtlStaticS = 0;
  std::uint32_t cacheSemanticThresholdPct = 0, cacheWarmStartEntries = 0, cacheMaxAnswerBytes = 0;
  std::uint32_t auditMaxFileKib = 0, auditFiles = 0;
  std::uint32_t deviceIdRotationH = 24;
  cloud::ClientOptions cloud;  // cloud.endpoint empty: no escalation
  std::string cloudModel;
  // Thresholds, breaker, caps, latency priors and the supervisor's budgets; the Brain fills cloudConfigured,
  // logDecisions and capsFile.
  router::RouterOptions router;
};

// What one request did. `sent` holds exactly the bytes that left the device (the HTTP request body), if any.
struct AskResult {
  router::Route route = router::Route::cannotAnswer;
  router::Reason reason = router::Reason::noAnswerSource;
  bool escalated = false;
  std::optional<std::string> sent;
  std::string anonymized;  // the anonymized prompt sent to the cloud (empty when nothing left)
  std::string answer;      // the full answer exactly as said (placeholders restored, unsafe characters dropped)
  // False when the answer was cut short: the connection failed or the stream broke after part of it was said, the
  // whole answer passed latency.hard-timeout-ms, it passed a length bound (the request's max_tokens in bytes,
  // tts.max-answer-chars), or a barge-in stopped it. The part said stays and ends with an honest ending
  // ("... sorry, I lost the connection."); none after a barge-in.
  bool complete = true;
  bool filler = false;     // "Let me check that." was spoken while waiting
  bool fellBack = false;   // the first route failed and another answered
  // The request read as a state-changing command (timer, alarm, volume, privacy) understood with a confidence
  // below BrainOptions::clarifyBelow, or (spokenRequests) as no command that unsurely: nothing was executed and
  // kClarifyText was said; the speaker listens again.
  bool clarify = false;
};

// How a spoken request was heard, beyond its words (a typed one is heard as the defaults say).
struct HeardAs {
  // Its turn did not end in silence: it ran to speech.max-utterance or the audio ended. A state-changing command
  // heard so is asked again (intents::asksAgain).
  bool unfinishedTurn = false;
};

// What one speculation did (Brain::speculate).
struct SpeculationResult {
  bool intent = false;     // read as a catalogue command: its handler runs for the final only, unless it only answers
  // A catalogue question whose handler changes nothing ("what time is it"): the answer it gives now, for the TTS
  // thread to synthesize the first phrase of while the user may still be speaking; empty otherwise.
  std::string preview;
  bool prefilled = false;  // the local model's KV cache holds the partial's prompt (or what was done before a cancel)
  bool cancelled = false;  // superseded (a newer partial) or overtaken (the final) before it was done
  std::size_t promptTokens = 0;     // the partial's chat-templated prompt
  std::size_t keptTokens = 0;       // already in the KV cache (the system prompt, an earlier partial's prefix)
  std::size_t evaluatedTokens = 0;  // evaluated by this speculation
};

// How the local model's prompt of the last ask() was evaluated: its tokens, and how many of them were taken from
// the KV cache (the system prompt, a speculation on a partial, the previous turn) instead of evaluated.
// 0 tokens: the local model did not run.
struct PromptReuse {
  std::size_t promptTokens = 0;
  std::size_t reusedTokens = 0;
};

// The system prompt's KV in the state directory (llm::restoreOrBuildPrefix's file).
inline constexpr const char* kSystemPromptKvFile = "system-prompt.kv";

// What the speaker says instead of guessing (AskResult::clarify).
inline constexpr const char* kClarifyText = "Sorry, could you say that again?";

// Events of one request as they happen. The brain thread calls them; they must not call back into the Brain.
class AskSink {
 public:
  virtual void onDecision(const router::RouteDecision& decision, std::string_view logLine) {
    (void)decision;
    (void)logLine;
  }
  virtual void onFiller(std::string_view text) { (void)text; }
  virtual void onText(std::string_view piece) = 0;  // answer text, streamed (safe to speak and print)
  virtual void onWarning(std::string_view message) { (void)message; }

 protected:
  AskSink() = default;
  AskSink(const AskSink&) = default;
  AskSink& operator=(const AskSink&) = default;
  ~AskSink() = default;
};

// The personal-data model beside a catalogue: /etc/sotto/intents.xml -> /etc/sotto/pii.nlu. Any thread.
std::string piiModelPathBeside(const std::string& cataloguePath);

// Threads: create() and ask() on the brain thread (ask blocks until the answer is complete or cancelled); cancel
// through the token from any thread. Parts that fail to load (model file, catalogue, cache file, key) are
// reported by warnings() and the brain answers with what is left (e.g. intents only).

class Brain {
 public:
  static Result<std::unique_ptr<Brain>> create(const BrainOptions& options);
  ~Brain();
  Brain(const Brain&) = delete;
  Brain& operator=(const Brain&) = delete;

  Result<AskResult> ask(std::string_view text, AskSink& sink, const pipeline::CancelToken* cancel = nullptr,
                        const HeardAs& heard = {});
  // Brain thread, between requests: speculative work on a partial transcript while the user may still be speaking
  // (speech.speculate). Reads it as ask() would. A catalogue question whose handler changes nothing is answered
  // into SpeculationResult::preview (what ask() would say now). Otherwise, unless it is a catalogue command or
  // another route is forced, and with `prefill`, it prefills the local model's KV cache with its prompt; ask() on
  // the final then keeps the longest prefix the two prompts share and evaluates from the first token that differs
  // (the rollback: Generator::generate). Nothing takes effect: no state-changing handler runs, nothing is cached,
  // sent, said or counted by the router. `cancel` (may be null) is checked every few tokens; what was evaluated
  // before it stays usable. Errors: the model failed (its cache is then empty, and ask() evaluates the whole
  // prompt).
  Result<SpeculationResult> speculate(std::string_view partial, const pipeline::CancelToken* cancel = nullptr,
                                      bool prefill = true);
  // Brain thread: the local model's prompt of the last ask() (see PromptReuse).
  PromptReuse lastPromptReuse() const;

  // Run-time privacy switch (the "privacy offline/online" intents and the control API use it).
  void setPrivacyMode(privacy::PrivacyMode mode);
  privacy::PrivacyMode privacyMode() const;
  // The router's counters (route mix, fillers, fallbacks, hard timeouts, answers cut short ...). Any thread.
  router::RouterCounts routerCounts() const;
  // What could not be loaded at create(), one line each.
  const std::vector<std::string>& warnings() const;
  // Empty, or why the device key could not be used (cloud escalation and the answer cache are then off until a
  // person fixes it) and how to fix it: for the daemon's STATUS line.
  const std::string& deviceKeyProblem() const;
  // Empty when the semantic cache tier was not calibrated (no local model or no semantic entries); otherwise one
  // line: the local model's similarity of the built-in unrelated and paraphrased requests and the threshold in
  // force, or, with semanticCacheOff(), why the tier is off ("semantic cache off: ..."; the exact tier still
  // answers). Not a warning(): nothing failed to load.
  const std::string& semanticCacheReport() const;
  bool semanticCacheOff() const;
  // Empty, or why model.mlock did not take effect (RLIMIT_MEMLOCK, no CAP_IPC_LOCK) and how to fix it: the model
  // answers unlocked. For the daemon's STATUS line (also one of warnings()).
  const std::string& modelLockProblem() const;
  // Empty without a local model whose chat template has a system turn; otherwise one line: the system prompt's
  // tokens and whether their KV was restored from the state directory (kSystemPromptKvFile) or computed (and
  // saved) at create(), and how long that took. A rejected file is also one of warnings().
  const std::string& systemPromptReport() const;
  bool systemPromptRestored() const;
  // The model's thread pool (null without a local model): one for every generator, pinned per BrainOptions.
  const hal::ThreadPool* modelThreads() const;
  // Brain thread; does not block beyond the timer state file's fsync. What to say without a request: timers and
  // alarms that went off (the handlers' fireDue) and, on the first call, what happened while the device was off.
  // Empty when nothing is due (cheap: one clock read).
  std::vector<std::string> dueAnnouncements();
  // Brain thread. Milliseconds until dueAnnouncements() has something to say (0 or less: now), for the brain
  // thread's wait; nullopt: no timer or alarm is set. Cheap: one clock read.
  std::optional<std::int64_t> msUntilDue() const;

  struct Impl;

 private:
  explicit Brain(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace sotto::answer
