// SPDX-License-Identifier: MIT
// AnswerCache: exact and semantic lookup, guarded hits, TTL expiry, PII refusal and the metrics counters.
#include "engine/cache/answer_cache.h"

#include <sodium.h>
#include <time.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <utility>

#include "engine/cache/answer_cache_store.h"

namespace sotto::cache {

namespace {
constexpr std::uint32_t kMinTimeSensitiveS = 30;
constexpr std::uint32_t kMaxTimeSensitiveS = 300;
constexpr std::size_t kMaxReservedBytes = std::size_t{256} << 20;
}  // namespace

const char* answerClassName(AnswerClass c) noexcept {
  return c == AnswerClass::timeSensitive ? "time-sensitive" : "static";
}

const char* tierName(Tier t) noexcept {
  switch (t) {
    case Tier::none: return "none";
    case Tier::exact: return "exact";
    case Tier::semantic: return "semantic";
  }
  return "?";
}

const char* insertOutcomeName(InsertOutcome o) noexcept {
  switch (o) {
    case InsertOutcome::stored: return "stored";
    case InsertOutcome::containsPii: return "contains-pii";
    case InsertOutcome::notCacheable: return "not-cacheable";
    case InsertOutcome::answerTooLong: return "answer-too-long";
  }
  return "?";
}

std::int64_t SystemClock::nowMs() const noexcept {
  timespec ts{};
  clock_gettime(CLOCK_REALTIME, &ts);
  return static_cast<std::int64_t>(ts.tv_sec) * 1000 + ts.tv_nsec / 1000000;
}

Result<std::unique_ptr<AnswerCache>> AnswerCache::create(const CacheOptions& options,
                                                         const privacy::PiiClassifier& classifier,
                                                         Embedder* embedder, const Clock* clock) {
  CacheOptions o = options;
  if (embedder) o.embeddingDim = embedder->dimension();
  if (o.exactEntries > 65536 || o.semanticEntries > 65536)
    return makeError(Errc::invalid_argument, "cache: at most 65536 entries per tier");
  if (o.maxAnswerBytes == 0 || o.maxAnswerBytes > 65536 || o.maxPromptBytes == 0 || o.maxPromptBytes > 4096)
    return makeError(Errc::invalid_argument, "cache: answer size must be 1..65536 and prompt size 1..4096 bytes");
  if (o.embeddingDim > 8192) return makeError(Errc::invalid_argument, "cache: embedding size above 8192");
  if (!(o.semanticThreshold > 0.0f && o.semanticThreshold <= 1.0f))
    return makeError(Errc::invalid_argument, "cache: semantic threshold must be in (0, 1]");
  if (o.ttlStaticS == 0) return makeError(Errc::invalid_argument, "cache: static TTL must be positive");
  // Everything is reserved up front: refuse settings that would reserve an unreasonable amount of memory.
  const std::size_t perEntry = sizeof(PromptFeatures) + 64 + o.maxAnswerBytes + o.maxPromptBytes;
  const std::size_t total = o.exactEntries * perEntry + o.semanticEntries * (perEntry + o.embeddingDim * 4);
  if (total > kMaxReservedBytes)
    return makeError(Errc::invalid_argument, "cache: the configured entries would reserve " +
                                                 std::to_string(total >> 20) + " MiB (at most " +
                                                 std::to_string(kMaxReservedBytes >> 20) + " MiB)");
  o.ttlTimeSensitiveS = std::clamp(o.ttlTimeSensitiveS, kMinTimeSensitiveS, kMaxTimeSensitiveS);
  if (sodium_init() < 0) return makeError(Errc::internal, "cache: libsodium failed to initialize");
  // Calibration before anything is reserved: a semantic tier the embedder cannot serve is never allocated.
  SemanticCalibration calibration;
  if (o.calibrateSemantic && embedder && o.semanticEntries > 0 && o.embeddingDim > 0) {
    const bool known = o.knownCalibration && o.knownCalibration->configuredThreshold == o.semanticThreshold;
    calibration = known ? *o.knownCalibration : calibrateSemantic(*embedder, o.semanticThreshold);
    if (calibration.usable) {
      o.semanticThreshold = calibration.threshold;
    } else {
      o.semanticEntries = 0;
    }
  }
  o.knownCalibration.reset();  // applied (or stale): calibration() reports it
  return std::unique_ptr<AnswerCache>(new AnswerCache(o, classifier, embedder, clock, std::move(calibration)));
}

AnswerCache::AnswerCache(const CacheOptions& options, const privacy::PiiClassifier& classifier, Embedder* embedder,
                         const Clock* clock, SemanticCalibration calibration)
    : options_(options),
      calibration_(std::move(calibration)),
      classifier_(classifier),
      embedder_(embedder),
      clock_(clock ? clock : &systemClock_),
      exact_(std::make_unique<Store>(options.exactEntries, 0, options.maxPromptBytes, options.maxAnswerBytes, true)),
      semantic_(std::make_unique<Store>(options.embeddingDim ? options.semanticEntries : 0, options.embeddingDim,
                                        options.maxPromptBytes, options.maxAnswerBytes, false)),
      counters_(std::make_unique<Counters>()),
      query_(std::make_unique<PromptFeatures>()),
      piiScratch_(std::make_unique<privacy::SpanBuffer>()),
      queryEmbedding_(options.embeddingDim),
      rawEmbedding_(options.embeddingDim) {}

AnswerCache::~AnswerCache() = default;

std::string AnswerCache::canonicalText(std::string_view prompt) {
  auto f = std::make_unique<PromptFeatures>();
  analyzePrompt(prompt, *f);
  return f->cacheable ? std::string(f->text()) : std::string();
}

bool AnswerCache::containsPii(std::string_view text) const noexcept {
  // Text the classifier refuses (too long) is treated as sensitive: it is never cached.
  if (!classifier_.classify(text, *piiScratch_).ok()) return true;
  // A type the model only suspects (no span) counts too: the router keeps such a request on the device, and its
  // raw text must not wait in the cache either (a suspected SSN was once cached and answered by exact lookup).
  return !piiScratch_->empty() || piiScratch_->overflowed() || piiScratch_->suspected() != 0;
}

bool AnswerCache::normalizeInto(std::span<const float> in, std::span<float> out) const noexcept {
  if (in.size() != options_.embeddingDim || out.size() != in.size() || in.empty()) return false;
  double n = 0.0;
  for (const float v : in) n += static_cast<double>(v) * v;
  if (!(n > 0.0) || !std::isfinite(n)) return false;
  const float inv = static_cast<float>(1.0 / std::sqrt(n));
  for (std::size_t i = 0; i < in.size(); ++i) out[i] = in[i] * inv;
  return true;
}

std::span<const float> AnswerCache::embedQuery(std::string_view canonical) noexcept {
  if (!embedder_ || semantic_->capacity == 0) return {};
  if (!embedder_->embed(canonical, rawEmbedding_).ok()) {
    bump(counters_->embedFailures);
    return {};
  }
  return rawEmbedding_;
}

std::int64_t AnswerCache::expiryFor(AnswerClass c, std::int64_t now) const noexcept {
  const std::int64_t ttl = c == AnswerClass::timeSensitive ? options_.ttlTimeSensitiveS : options_.ttlStaticS;
  return now + ttl * 1000;
}

bool AnswerCache::lookupExact(std::int64_t now, LookupResult& res) noexcept {
  const std::uint32_t i = exact_->find(*query_);
  if (i == kNone) return false;
  Record& r = exact_->records[i];
  if (r.expiresMs <= now) {
    exact_->release(i);
    bump(counters_->expirations);
    return false;
  }
  exact_->touch(i);
  ++r.hits;
  bump(counters_->exactHits);
  res.tier = Tier::exact;
  res.answer = exact_->answer(i);
  res.answerClass = r.answerClass;
  res.similarity = 1.0f;
  return true;
}

void AnswerCache::lookupSemantic(std::span<const float> raw, std::uint64_t slots, std::int64_t now,
                                 LookupResult& res) noexcept {
  Store& s = *semantic_;
  if (!normalizeInto(raw, queryEmbedding_)) return;
  std::uint32_t best = kNone, bestBlocked = kNone;
  float bestSim = -2.0f, bestBlockedSim = -2.0f;
  Guard blockedBy = Guard::none;
  float top = 0.0f;
  const float* q = queryEmbedding_.data();
  const std::size_t dim = s.dim;
  for (std::uint32_t i = 0; i < s.capacity; ++i) {
    const std::int64_t until = s.liveUntil[i];
    if (until == 0) continue;
    if (until <= now) {
      s.release(i);
      bump(counters_->expirations);
      continue;
    }
    // Four partial sums: independent chains the compiler can pipeline (no -ffast-math reassociation needed).
    const float* e = s.embeddings.data() + static_cast<std::size_t>(i) * dim;
    float d0 = 0.0f, d1 = 0.0f, d2 = 0.0f, d3 = 0.0f;
    std::size_t k = 0;
    for (; k + 4 <= dim; k += 4) {
      d0 += e[k] * q[k];
      d1 += e[k + 1] * q[k + 1];
      d2 += e[k + 2] * q[k + 2];
      d3 += e[k + 3] * q[k + 3];
    }
    for (; k < dim; ++k) d0 += e[k] * q[k];
    const float dot = (d0 + d1) + (d2 + d3);
    top = std::max(top, dot);
    if (dot >= options_.semanticThreshold) {
      const Record& r = s.records[i];
      const Guard g = options_.semanticGuards
                          ? checkGuards(*query_, slots, r.features, r.slots, options_.contentGuard)
                          : Guard::none;
      if (g == Guard::none) {
        if (dot > bestSim) {
          bestSim = dot;
          best = i;
        }
      } else if (dot > bestBlockedSim) {
        bestBlockedSim = dot;
        bestBlocked = i;
        blockedBy = g;
      }
    }
  }
  res.similarity = top;
  if (best == kNone) {
    if (bestBlocked != kNone) {
      res.blockedBy = blockedBy;
      bump(counters_->guardBlocks[static_cast<std::size_t>(blockedBy)]);
    }
    return;
  }
  Record& r = s.records[best];
  s.touch(best);
  ++r.hits;
  bump(counters_->semanticHits);
  res.tier = Tier::semantic;
  res.answer = s.answer(best);
  res.answerClass = r.answerClass;
  res.similarity = bestSim;
}

LookupResult AnswerCache::lookup(std::string_view prompt, std::uint64_t slots) noexcept {
  bump(counters_->lookups);
  analyzePrompt(prompt, *query_);
  LookupResult res;
  if (!query_->cacheable) return res;
  const std::int64_t now = clock_->nowMs();
  if (lookupExact(now, res) || semantic_->capacity == 0) return res;
  bump(counters_->semanticLookups);
  if (semantic_->size == 0) return res;  // nothing to compare with: spare the embedding
  lookupSemantic(embedQuery(query_->text()), slots, now, res);
  return res;
}

LookupResult AnswerCache::lookup(std::string_view prompt, std::span<const float> embedding,
                                 std::uint64_t slots) noexcept {
  bump(counters_->lookups);
  analyzePrompt(prompt, *query_);
  LookupResult res;
  if (!query_->cacheable) return res;
  const std::int64_t now = clock_->nowMs();
  if (lookupExact(now, res) || semantic_->capacity == 0) return res;
  bump(counters_->semanticLookups);
  lookupSemantic(embedding, slots, now, res);
  return res;
}

InsertOutcome AnswerCache::insert(std::string_view prompt, std::string_view answer, AnswerClass answerClass,
                                  std::uint64_t slots) noexcept {
  analyzePrompt(prompt, *query_);
  std::span<const float> raw;
  if (query_->cacheable && semantic_->capacity > 0) raw = embedQuery(query_->text());
  const std::int64_t now = clock_->nowMs();
  return insertAt(prompt, answer, answerClass, raw, slots, now, expiryFor(answerClass, now), 0, true, true);
}

InsertOutcome AnswerCache::insert(std::string_view prompt, std::string_view answer, AnswerClass answerClass,
                                  std::span<const float> embedding, std::uint64_t slots) noexcept {
  analyzePrompt(prompt, *query_);
  const std::int64_t now = clock_->nowMs();
  return insertAt(prompt, answer, answerClass, embedding, slots, now, expiryFor(answerClass, now), 0, true, true);
}

// query_ holds analyzePrompt(prompt). Stores into the exact tier and, given a usable embedding, the semantic tier.
InsertOutcome AnswerCache::insertAt(std::string_view prompt, std::string_view answer, AnswerClass answerClass,
                                    std::span<const float> embedding, std::uint64_t slots, std::int64_t created,
                                    std::int64_t expires, std::uint32_t hits, bool exactTier,
                                    bool semanticTier) noexcept {
  if (!query_->cacheable || prompt.size() > options_.maxPromptBytes ||
      (exact_->capacity == 0 && semantic_->capacity == 0)) {
    bump(counters_->rejectedOther);
    return InsertOutcome::notCacheable;
  }
  if (answer.empty() || answer.size() > options_.maxAnswerBytes) {
    bump(counters_->rejectedOther);
    return InsertOutcome::answerTooLong;
  }
  if (containsPii(prompt) || containsPii(answer)) {
    bump(counters_->rejectedPii);
    return InsertOutcome::containsPii;
  }
  bool stored = false;
  auto put = [&](Store& s, std::atomic<std::uint64_t>& evictions, std::span<const float> emb) {
    std::uint32_t i = s.index.empty() ? s.findLinear(*query_) : s.find(*query_);
    if (i != kNone) {
      s.release(i);  // replaced below: same key, new answer
    }
    bool evicted = false;
    i = s.acquire(evicted);
    if (i == kNone) return;
    if (evicted) bump(evictions);
    Record& r = s.records[i];
    std::memcpy(&r.features, query_.get(), sizeof(PromptFeatures));
    r.slots = slots;
    r.createdMs = created;
    r.expiresMs = expires;
    r.hits = hits;
    r.answerClass = answerClass;
    r.promptLength = static_cast<std::uint32_t>(prompt.size());
    r.answerLength = static_cast<std::uint32_t>(answer.size());
    std::memcpy(s.prompts.data() + i * s.maxPrompt, prompt.data(), prompt.size());
    std::memcpy(s.answers.data() + i * s.maxAnswer, answer.data(), answer.size());
    if (s.dim) std::copy(emb.begin(), emb.end(), s.embedding(i).begin());
    r.used = true;
    s.liveUntil[i] = std::max<std::int64_t>(expires, 1);  // 0 marks a free record
    ++s.size;
    s.pushFront(i);
    if (!s.index.empty()) s.indexInsert(i);
    stored = true;
  };
  if (exactTier && exact_->capacity > 0) put(*exact_, counters_->evictionsExact, {});
  if (semanticTier && semantic_->capacity > 0 && normalizeInto(embedding, queryEmbedding_))
    put(*semantic_, counters_->evictionsSemantic, queryEmbedding_);
  if (!stored) {
    bump(counters_->rejectedOther);
    return InsertOutcome::notCacheable;
  }
  bump(counters_->inserts);
  return InsertOutcome::stored;
}

void AnswerCache::clear() noexcept {
  exact_->clear();
  semantic_->clear();
  clearedSinceSave_ = true;
}

std::size_t AnswerCache::exactSize() const noexcept { return exact_->size; }
std::size_t AnswerCache::semanticSize() const noexcept { return semantic_->size; }

CacheMetricsSnapshot AnswerCache::metrics() const noexcept {
  const auto get = [](const std::atomic<std::uint64_t>& a) { return a.load(std::memory_order_relaxed); };
  CacheMetricsSnapshot m;
  m.lookups = get(counters_->lookups);
  m.exactHits = get(counters_->exactHits);
  m.semanticLookups = get(counters_->semanticLookups);
  m.semanticHits = get(counters_->semanticHits);
  for (std::size_t i = 0; i < kGuardCount; ++i) m.guardBlocks[i] = get(counters_->guardBlocks[i]);
  m.inserts = get(counters_->inserts);
  m.rejectedPii = get(counters_->rejectedPii);
  m.rejectedOther = get(counters_->rejectedOther);
  m.evictionsExact = get(counters_->evictionsExact);
  m.evictionsSemantic = get(counters_->evictionsSemantic);
  m.expirations = get(counters_->expirations);
  m.embedFailures = get(counters_->embedFailures);
  return m;
}

}  // namespace sotto::cache
