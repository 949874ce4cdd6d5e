// SPDX-License-Identifier: MIT
// Daemon configuration: the typed Config, loading and checking sotto.xml, overrides, and the settings reference.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/privacy/mode.h"

namespace sotto::config {

// Where the daemon reads its configuration unless --config names another file.
inline constexpr const char* kDefaultPath = "/etc/sotto/sotto.xml";
// Larger files are refused before parsing: a real config is a few KiB, so anything bigger is a mistake or an attack.
inline constexpr std::size_t kMaxFileBytes = 1024 * 1024;
// The only <sotto version="..."> this build reads.
inline constexpr int kSchemaVersion = 1;

struct AudioEndpoint {
  std::string backend, device;  // backend: a registered audio backend name (alsa, wav, null, ...)
  uint32_t rateHz = 0;
  uint32_t periodMs = 0;
  uint32_t periods = 0;
  bool operator==(const AudioEndpoint&) const = default;
};

// Every field is set by defaults() from the settings table (settings_table.cpp); a value-initialized Config is
// zeros and empty strings, not the defaults.
struct Config {
  AudioEndpoint capture, playback;
  std::string modelPath;
  uint32_t llmThreads = 0;
  uint32_t contextTokens = 0;
  bool modelMlock = false;
  bool modelPrefixCache = true;  // system prompt KV restored, prefixes shared between requests kept
  std::vector<int> audioCpus, speechCpus, llmCpus;  // ascending, no duplicates; empty = no pinning
  int audioPriority = 0;                            // SCHED_FIFO priority; 0 = normal scheduling
  bool mlockAll = false;
  privacy::PrivacyMode privacy = privacy::PrivacyMode::private_;
  std::string cloudEndpoint, cloudModel, cloudApiKeyFile;  // empty endpoint = no cloud
  uint32_t cloudConnectTimeoutMs = 0, cloudFirstByteTimeoutMs = 0;
  uint32_t cloudIdleTimeoutMs = 0;
  std::string cloudCaFile, cloudClientCertFile, cloudClientKeyFile;  // empty CA = system bundle; mTLS optional
  uint32_t cacheExactEntries = 0, cacheSemanticEntries = 0, cacheTtlTimeSensitiveS = 0, cacheTtlStaticS = 0;
  uint32_t cacheSemanticThresholdPct = 0, cacheWarmStartEntries = 0, cacheMaxAnswerBytes = 0;
  uint32_t budgetSimpleMs = 0, budgetLocalMs = 0, budgetFirstTokenMs = 0, hardTimeoutMs = 0;
  std::string stateDir, logDir, runtimeDir;
  std::string logLevel;  // validated name (error|warning|notice|info|debug); the daemon maps it to sotto::log::Level
  uint32_t watchdogStallMs = 0, statusIntervalMs = 0;
  // Speech frontend (speexdsp) and endpointing.
  int noiseSuppressDb = 0;  // negative: maximum attenuation of noise; 0 = no noise suppression
  bool agc = false;
  uint32_t vadStartPercent = 0, vadContinuePercent = 0, vadEnergyGateDb = 0, highPassHz = 0,
           vadBackgroundGatePercent = 0, vadBackgroundHoldMs = 0;
  uint32_t endpointSilenceMs = 0, maxUtteranceMs = 0;
  bool semanticEndpoint = false;     // a whole command ends its turn after endpointCompleteMs of silence
  bool semanticEndpointQuestions = true;  // ... and so does a whole question
  uint32_t endpointCompleteMs = 0;
  uint32_t followUpMs = 0;           // after an answer, listen this long without the wake word; 0 = off
  bool speculate = false;            // prepare the answer (local model prefill) from stable partials
  std::string stopPhrase;            // spotted during playback without the wake word; empty = off
  int stopThresholdExponent = 0;     // its keyphrase threshold 1e<exponent>
  bool aec = false;                       // acoustic echo cancellation on the audio thread
  uint32_t aecTailMs = 0, aecDelayMs = 0;
  // Wake word (pocketsphinx keyphrase spotting).
  std::string wakePhrase, wakePronunciation;  // pronunciation: "WORD PH PH ...; WORD PH ..." or empty
  int wakeThresholdExponent = 0;              // keyphrase threshold 1e<exponent>
  int wakePhoneLoopExponent = -1;             // phone-loop probability 1e<exponent> ("-kws_plp")
  bool wakeVerify = false;                    // second pass on keyphrase detections
  int wakeVerifyThreshold = 0;                // its least phrase-over-loop score per frame
  std::string wakeModel;                      // wake network file for wakePhrase; empty = keyphrase spotting
  // ASR (pocketsphinx): model files; command grammar from the intent catalogue; empty LM = commands only.
  std::string asrAcousticModel, asrDictionary, asrLanguageModel;
  bool asrGrammar = false;
  std::string asrDomainLm;       // domain trigram LM (sotto nlu lm) searched beside the others; empty = none
  bool asrRescore = false;       // winner by acoustic score + the understanding model's score
  float asrClarifyBelow = 0.0f;  // ask again when the understood intent's confidence is below this; 0 = never
  uint32_t asrMaxHmmPerFrame = 0;  // n-gram searches' HMMs per frame at most (pocketsphinx -maxhmmpf); 0 = its own
  bool asrShareScores = true;      // the searches score each frame's senones once between them
  float asrDomainAgreement = 0.0f;  // least share of the domain n-best (by acoustics) reading a command the same way
  // Router (engine/router): thresholds in percent, cloud cost caps, circuit breaker.
  uint32_t routerIntentConfidencePercent = 0, routerLocalConfidencePercent = 0, routerSemanticSimilarityPercent = 0;
  uint32_t cloudMaxPerHour = 0, cloudMaxPerDay = 0;  // 0 = no cloud request at all
  uint32_t breakerFailures = 0, breakerFailurePercent = 0, breakerWindow = 0;
  uint32_t breakerBackoffMs = 0, breakerMaxBackoffMs = 0;
  // Privacy: pseudonymous device id rotation, audit log size, what may leave per PII type.
  uint32_t deviceIdRotationH = 0;
  uint32_t auditMaxFileKib = 0, auditFiles = 0;  // one file's cap; current + rotated files
  // "local-only" | "redact" | "allow", indexed like sotto::privacy::PiiType (privacy::PolicyTable::fromNames).
  std::array<std::string, 14> piiPolicy;
  // Text to speech (engine/speech/tts.h): engine and voice by name, rate and volume in percent.
  std::string ttsEngine, ttsVoice, ttsEspeakData;
  uint32_t ttsRatePercent = 0, ttsVolumePercent = 0;
  uint32_t ttsMaxAnswerChars = 0;  // longest answer spoken, in code points (the brain cuts longer ones)
  bool ttsStreaming = true;        // speak phrases as their text completes; false: after the whole answer
  uint32_t ttsFirstPhraseWaitMs = 0;  // the first phrase is cut at its whole words after this wait; 0 = never
  bool operator==(const Config&) const = default;
};

// One problem found while loading. file is the name given for messages ("--set" for overrides); line is 1-based,
// 0 when the problem concerns the whole file; setting is the dotted path (audio.capture.rate), empty when the
// problem is not about one setting (unreadable file, malformed XML).
struct Problem {
  std::string file;
  int line = 0;
  std::string setting;
  std::string message;
  // The last entry of a long list stands for the problems not listed ("N more problems not shown"): N here.
  std::size_t notShown = 0;
  // "file:line: setting: message"; ":line" is left out when line is 0, "setting: " when setting is empty.
  std::string format() const;
  bool operator==(const Problem&) const = default;
};

// How many problems were found: those listed and those a long list left out (not problems.size()). Any thread.
std::size_t problemCount(const std::vector<Problem>& problems) noexcept;

// Either a complete, valid Config (problems empty) or every problem found (config empty): never half-applied.
struct LoadResult {
  std::optional<Config> config;
  std::vector<Problem> problems;
};

// The configuration with every setting at its documented default.
Config defaults();

// Reads and checks a file (regular, readable, at most kMaxFileBytes). Any thread; blocks on file I/O. Never throws
// (allocation failure aside).
LoadResult loadFile(const std::string& path);

// What a CLI command runs with: `path` when given, else kDefaultPath when that file exists (path is set to it),
// else the defaults (path stays empty). Any thread; blocks on file I/O.
LoadResult loadOrDefaults(std::string& path);

// Parses and checks XML text; nameForMessages becomes Problem::file. Missing settings take their defaults.
LoadResult loadString(std::string_view xml, const std::string& nameForMessages);

// Applies command-line overrides ("setting=value", e.g. "log.level=debug") on top of base, parsed and checked
// exactly like the file (including the cross-setting rules). Problems name the file "--set" and line 0.
// Setting one path twice is an error, as in the file.
LoadResult applyOverrides(const Config& base, std::span<const std::string> assignments);

// The settings reference (Markdown), generated from the settings table; committed as config/settings-reference.md.
std::string referenceMarkdown();

// Serializes every setting; loadString(toXml(c)) yields c again for any valid c.
std::string toXml(const Config& config);

}  // namespace sotto::config
