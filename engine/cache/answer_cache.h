// SPDX-License-Identifier: MIT
// AnswerCache: the on-device answer cache, an exact tier (canonical prompt hash) and a guarded semantic tier
// (embedding cosine), TTL per answer class, bounded LRU in preallocated memory, PII refusal, encrypted persistence.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/cache/embedder.h"
#include "engine/cache/prompt_features.h"
#include "engine/cache/semantic_calibration.h"
#include "engine/privacy/pii.h"
#include "sotto/hal/result.h"

namespace sotto::intents {
struct IntentMatch;
}

namespace sotto::cache {

// How long an answer stays valid: time-sensitive answers (weather, news, scores) live ttlTimeSensitiveS
// (clamped to 30..300 s), static knowledge ttlStaticS.
enum class AnswerClass : std::uint8_t { timeSensitive = 0, staticKnowledge = 1 };
const char* answerClassName(AnswerClass c) noexcept;

enum class Tier : std::uint8_t { none, exact, semantic };
const char* tierName(Tier t) noexcept;

// Wall-clock milliseconds since the Unix epoch (wall clock, not monotonic: expiry times survive restarts in the
// cache file). Tests inject their own. Threads: any; must not block or allocate.
class Clock {
 public:
  virtual ~Clock() = default;
  virtual std::int64_t nowMs() const noexcept = 0;

 protected:
  Clock() = default;
  Clock(const Clock&) = default;
  Clock& operator=(const Clock&) = default;
};

class SystemClock final : public Clock {
 public:
  std::int64_t nowMs() const noexcept override;  // CLOCK_REALTIME
};

struct CacheOptions {
  std::size_t exactEntries = 1024;       // cache.exact-entries; 0 disables the exact tier
  std::size_t semanticEntries = 512;     // cache.semantic-entries; 0 disables the semantic tier
  std::size_t embeddingDim = 0;          // 0 disables the semantic tier (no embedder)
  std::uint32_t ttlTimeSensitiveS = 60;  // cache.ttl-time-sensitive-s, clamped to [30, 300]
  std::uint32_t ttlStaticS = 604800;     // cache.ttl-static-s
  float semanticThreshold = 0.90f;       // cache.semantic-threshold-percent / 100
  std::size_t warmStartEntries = 256;    // cache.warm-start-entries: per tier, most-hit first; 0 = all that fit
  std::size_t maxAnswerBytes = 1024;     // cache.max-answer-bytes: longer answers are not cached
  std::size_t maxPromptBytes = 512;      // longer prompts are not cached
  bool semanticGuards = true;            // false only to measure what the guards prevent (bench baseline)
  bool contentGuard = true;              // false only to measure what the content-word guard prevents
  // Measure the embedder at create() (calibrateSemantic): the semantic threshold rises above what unrelated
  // requests score, or the semantic tier is off when the embedder cannot separate them. The daemon and `sotto ask`
  // turn it on for the local model's embeddings; tests with a purpose-built embedder leave it off.
  bool calibrateSemantic = false;
  // With calibrateSemantic: a calibration of the same model remembered from an earlier start
  // (parseCalibration), used instead of measuring again.
  std::optional<SemanticCalibration> knownCalibration;
};

// Counters as plain numbers (a consistent-enough copy of the live atomics).
struct CacheMetricsSnapshot {
  std::uint64_t lookups = 0;          // every lookup()
  std::uint64_t exactHits = 0;
  std::uint64_t semanticLookups = 0;  // lookups that reached the semantic tier (exact miss, embedding available)
  std::uint64_t semanticHits = 0;
  // Indexed by Guard: the best candidate above the threshold was refused by that guard.
  std::uint64_t guardBlocks[kGuardCount] = {};
  std::uint64_t inserts = 0;          // answers stored (either tier)
  std::uint64_t rejectedPii = 0;      // inserts refused because the prompt or answer holds PII
  std::uint64_t rejectedOther = 0;    // inserts refused: not cacheable, too long, disabled
  std::uint64_t evictionsExact = 0;
  std::uint64_t evictionsSemantic = 0;
  std::uint64_t expirations = 0;      // entries dropped because their TTL passed (lookup, load)
  std::uint64_t embedFailures = 0;
  double exactHitRatio() const noexcept { return lookups ? static_cast<double>(exactHits) / lookups : 0.0; }
  // Hits of the semantic tier over the lookups that reached it.
  double semanticHitRatio() const noexcept {
    return semanticLookups ? static_cast<double>(semanticHits) / semanticLookups : 0.0;
  }
  double overallHitRatio() const noexcept {
    return lookups ? static_cast<double>(exactHits + semanticHits) / lookups : 0.0;
  }
};

struct LookupResult {
  Tier tier = Tier::none;
  std::string_view answer;  // views the cache's memory: valid until the next call that changes the cache
  AnswerClass answerClass = AnswerClass::staticKnowledge;
  float similarity = 0.0f;  // best cosine in the semantic tier (1 for exact hits; 0 when not consulted)
  Guard blockedBy = Guard::none;  // why the best candidate above the threshold was refused (on a miss)
  bool hit() const noexcept { return tier != Tier::none; }
};

enum class InsertOutcome : std::uint8_t {
  stored,          // in the exact tier and, with an embedding, the semantic tier
  containsPii,     // the prompt or the answer holds PII (or could not be checked): never cached
  notCacheable,    // empty after normalization, prompt too long, or both tiers disabled
  answerTooLong,   // more than maxAnswerBytes (or empty)
};
const char* insertOutcomeName(InsertOutcome o) noexcept;

struct LoadReport {
  bool fileFound = false;
  bool discarded = false;       // the file was corrupt, truncated, tampered or under another key: set aside
  std::string setAsidePath;     // where it went ("" when it could not be renamed; then it was left in place)
  std::string reason;           // why it was discarded
  std::size_t loadedExact = 0, loadedSemantic = 0;
  std::size_t droppedExpired = 0;
  std::size_t droppedOther = 0;  // beyond warm-start top-N, capacity, embedding size change, PII recheck
};

// Threads: create(), save() and load() on the owning thread (they allocate and do file I/O); lookup() and insert()
// on the owning thread (the brain thread) — they never allocate, lock, log or do system calls, apart from the
// attached Embedder's own work. metrics() from any thread. The classifier, clock and embedder are borrowed and
// must outlive the cache.
class AnswerCache {
 public:
  // embedder may be null (then lookup/insert without an explicit embedding skip the semantic tier); when given,
  // options.embeddingDim is taken from it, and with options.calibrateSemantic the embedder is measured first
  // (calibration()). clock null = SystemClock. Reserves all memory now (about
  // (1.3 KiB + maxPromptBytes + maxAnswerBytes) per entry, plus 4 * embeddingDim per semantic entry). Errors:
  // invalid_argument for bad options or more than 256 MiB of reservations, internal when libsodium cannot start.
  static Result<std::unique_ptr<AnswerCache>> create(const CacheOptions& options,
                                                     const privacy::PiiClassifier& classifier,
                                                     Embedder* embedder = nullptr, const Clock* clock = nullptr);
  ~AnswerCache();
  AnswerCache(const AnswerCache&) = delete;
  AnswerCache& operator=(const AnswerCache&) = delete;

  // Looks prompt up: exact tier first, then (with the attached embedder) the semantic tier. slots: the intent
  // match's slot signature (slotSignature()), 0 when there is none.
  LookupResult lookup(std::string_view prompt, std::uint64_t slots = 0) noexcept;
  // The same with a caller-computed embedding of canonicalText(prompt) (size embeddingDim; empty = no semantic).
  LookupResult lookup(std::string_view prompt, std::span<const float> embedding, std::uint64_t slots) noexcept;

  // Stores an answer (replacing one for the same canonical prompt). Refuses PII in the prompt or the answer.
  // Call it only with answers that are fit to repeat (not with a failed or filler answer).
  InsertOutcome insert(std::string_view prompt, std::string_view answer, AnswerClass answerClass,
                       std::uint64_t slots = 0) noexcept;
  InsertOutcome insert(std::string_view prompt, std::string_view answer, AnswerClass answerClass,
                       std::span<const float> embedding, std::uint64_t slots) noexcept;

  // Drops every entry (privacy: "forget"). Owning thread.
  void clear() noexcept;

  // Persistence: one file, XChaCha20-Poly1305 under key (32 bytes from the keystore), fresh random nonce per
  // save, written crash-safely (temp file, fsync, rename, fsync of the directory). save() errors (disk full,
  // permission) leave the previous file intact. load() sets a bad file aside (renamed to path + ".corrupt")
  // with a warning and returns ok with report.discarded; it errs only when the file cannot be read at all.
  // Expired entries are dropped; the warm-start top-N most-hit entries per tier are reloaded, the most-hit
  // becoming the most recently used.
  // Several processes may share the file: save() takes its lock (hal::FileLock), merges in the entries others
  // saved that this cache does not hold (while a tier has free places: never evicting its own; none after
  // clear()), then replaces the file. Errc of the lock when it could not be taken (the file is written anyway).
  // Owning thread; blocks on disk I/O and on the lock (another process's save).
  Status save(const std::string& path, std::span<const std::uint8_t, 32> key);
  Result<LoadReport> load(const std::string& path, std::span<const std::uint8_t, 32> key);

  CacheMetricsSnapshot metrics() const noexcept;
  std::size_t exactSize() const noexcept;
  std::size_t semanticSize() const noexcept;
  // The options in force: semanticThreshold is the calibrated one, semanticEntries 0 when calibration turned the
  // semantic tier off.
  const CacheOptions& options() const noexcept { return options_; }
  // What calibration measured and decided (ran false when it was not asked for or there is no semantic tier).
  const SemanticCalibration& calibration() const noexcept { return calibration_; }

  // The canonical text the cache keys and embeds (see analyzePrompt). Allocates; for tools and tests.
  static std::string canonicalText(std::string_view prompt);

  struct Store;  // internal (answer_cache_store.h): one tier's preallocated records
  struct Counters;

 private:
  AnswerCache(const CacheOptions& options, const privacy::PiiClassifier& classifier, Embedder* embedder,
              const Clock* clock, SemanticCalibration calibration);
  bool containsPii(std::string_view text) const noexcept;
  void mergeFile(const std::string& path, std::span<const std::uint8_t, 32> key);
  std::span<const float> embedQuery(std::string_view canonical) noexcept;
  bool lookupExact(std::int64_t now, LookupResult& res) noexcept;
  void lookupSemantic(std::span<const float> raw, std::uint64_t slots, std::int64_t now, LookupResult& res) noexcept;
  bool normalizeInto(std::span<const float> in, std::span<float> out) const noexcept;
  std::int64_t expiryFor(AnswerClass c, std::int64_t now) const noexcept;
  InsertOutcome insertAt(std::string_view prompt, std::string_view answer, AnswerClass answerClass,
                         std::span<const float> embedding, std::uint64_t slots, std::int64_t created,
                         std::int64_t expires, std::uint32_t hits, bool exactTier, bool semanticTier) noexcept;

  CacheOptions options_;
  SemanticCalibration calibration_;
  const privacy::PiiClassifier& classifier_;
  Embedder* embedder_;
  const Clock* clock_;
  SystemClock systemClock_;
  std::unique_ptr<Store> exact_;
  std::unique_ptr<Store> semantic_;
  std::unique_ptr<Counters> counters_;
  std::unique_ptr<PromptFeatures> query_;       // scratch for lookup/insert
  std::unique_ptr<privacy::SpanBuffer> piiScratch_;
  std::vector<float> queryEmbedding_;           // normalized query (embeddingDim)
  std::vector<float> rawEmbedding_;             // the embedder's output before normalizing
  bool clearedSinceSave_ = false;               // "forget": the next save replaces the file without merging
};

// A stable signature of an intent match's intent name and slot values, for the slot guard: 0 for "none" (or no
// intent), otherwise differs when the intent or any slot value differs. Any thread; no allocation.
std::uint64_t slotSignature(const intents::IntentMatch& match) noexcept;

}  // namespace sotto::cache
