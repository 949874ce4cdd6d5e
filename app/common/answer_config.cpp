// SPDX-License-Identifier: MIT
// brainOptionsFrom / answerStageOptionsFrom (see answer_config.h).
#include "app/common/answer_config.h"

#include "app/common/catalogue_path.h"
#include "app/common/tts_config.h"

namespace sotto::app {

answer::BrainOptions brainOptionsFrom(const config::Config& c, const BrainOverrides& o) {
  answer::BrainOptions b;
  const auto configured = c.privacy;
  b.privacy = o.privacy ? *o.privacy : configured;
  b.onlineMode = c.privacy == privacy::PrivacyMode::offline ? privacy::PrivacyMode::private_ : configured;
  b.forced = o.forced;
  b.stateDir = o.stateDir ? *o.stateDir : c.stateDir;
  b.cataloguePath = o.cataloguePath.empty() ? defaultCataloguePath() : o.cataloguePath;
  b.modelPath = o.modelPath ? *o.modelPath : c.modelPath;
  b.llmThreads = c.llmThreads;
  b.llmCpus = c.llmCpus;
  b.mlockModel = c.modelMlock;
  b.prefixCache = c.modelPrefixCache;
  b.contextTokens = c.contextTokens;
  b.maxAnswerTokens = o.maxAnswerTokens;
  b.logDecisions = o.logDecisions;
  b.spokenRequests = o.spokenRequests;
  b.clarifyBelow = c.asrClarifyBelow;
  b.maxAnswerChars = c.ttsMaxAnswerChars;
  b.piiPolicy = c.piiPolicy;
  b.cacheExactEntries = c.cacheExactEntries;
  b.cacheSemanticEntries = c.cacheSemanticEntries;
  b.cacheTtlTimeSensitiveS = c.cacheTtlTimeSensitiveS;
  b.cacheTtlStaticS = c.cacheTtlStaticS;
  b.cacheSemanticThresholdPct = c.cacheSemanticThresholdPct;
  b.cacheWarmStartEntries = c.cacheWarmStartEntries;
  b.cacheMaxAnswerBytes = c.cacheMaxAnswerBytes;
  b.auditMaxFileKib = c.auditMaxFileKib;
  b.auditFiles = c.auditFiles;
  b.deviceIdRotationH = c.deviceIdRotationH;

  b.cloud.endpoint = o.cloudUrl ? *o.cloudUrl : c.cloudEndpoint;
  b.cloud.caFile = c.cloudCaFile;
  b.cloud.clientCertFile = c.cloudClientCertFile;
  b.cloud.clientKeyFile = c.cloudClientKeyFile;
  b.cloud.apiKeyFile = c.cloudApiKeyFile;
  b.cloud.connectTimeoutMs = c.cloudConnectTimeoutMs;
  b.cloud.firstByteTimeoutMs = c.cloudFirstByteTimeoutMs;
  b.cloud.idleTimeoutMs = c.cloudIdleTimeoutMs;
  b.cloudModel = c.cloudModel;

  router::RouterOptions& ro = b.router;
  ro.thresholds.intentConfidence = static_cast<float>(c.routerIntentConfidencePercent) / 100.0f;
  ro.thresholds.localConfidence = static_cast<float>(c.routerLocalConfidencePercent) / 100.0f;
  ro.thresholds.semanticSimilarity = static_cast<float>(c.routerSemanticSimilarityPercent) / 100.0f;
  ro.thresholds.cloudBudgetMs = c.hardTimeoutMs;
  ro.breaker = {c.breakerFailures, c.breakerFailurePercent, c.breakerWindow, router::Millis{c.breakerBackoffMs},
                router::Millis{c.breakerMaxBackoffMs}};
  ro.caps = {c.cloudMaxPerHour, c.cloudMaxPerDay};
  ro.latency.priorMs = {c.budgetSimpleMs, c.budgetSimpleMs, c.budgetLocalMs, 0, 0};
  ro.supervisor = {router::Millis{c.budgetFirstTokenMs}, router::Millis{c.hardTimeoutMs}};
  return b;
}

answer::AnswerStageOptions answerStageOptionsFrom(const config::Config& c, const std::string& cataloguePath,
                                                  const nlu::Understander* understander) {
  answer::AnswerStageOptions a;
  BrainOverrides o;
  o.cataloguePath = cataloguePath;
  o.logDecisions = true;    // the router's decision line (route=..., reason=...) for every request
  o.spokenRequests = true;  // every request is a transcript
  a.brain = brainOptionsFrom(c, o);
  a.brain.understander = understander;
  a.tts = ttsOptionsFrom(c);
  a.streamingTts = c.ttsStreaming;
  a.firstPhraseWaitMs = c.ttsFirstPhraseWaitMs;
  a.speculate = c.speculate;  // the listener reports stable partials with the same setting (listenerConfigFrom)
  return a;
}

}  // namespace sotto::app
