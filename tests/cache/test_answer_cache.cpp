// SPDX-License-Identifier: MIT
// The answer cache's tiers: exact hits, TTL per class, LRU eviction, guarded semantic hits, PII refusal, metrics,
// and zero allocations on lookup and insert.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "engine/intents/matcher.h"
#include "engine/privacy/pii_model.h"
#include "tests/cache/cache_test_util.h"
#include "tests/support/alloc_counter.h"

namespace sotto::cache::test {
namespace {

CacheOptions exactOnly(std::size_t entries = 8) {
  CacheOptions o;
  o.exactEntries = entries;
  o.semanticEntries = 0;
  return o;
}

TEST(ExactTier, HitsOnEquivalentPhrasings) {
  FakeClock clock;
  auto c = makeCache(exactOnly(), nullptr, &clock);
  ASSERT_TRUE(c);
  EXPECT_FALSE(c->lookup("What's on TV at five pm?").hit());
  ASSERT_EQ(c->insert("What's on TV at five pm?", "The news.", AnswerClass::staticKnowledge),
            InsertOutcome::stored);
  for (const char* q : {"what's on tv at 5 pm", "what is on tv at 17:00", "What is on TV at 5:00 p.m.",
                        "um what's on tv at five pm please"}) {
    const auto r = c->lookup(q);
    EXPECT_EQ(r.tier, Tier::exact) << q;
    EXPECT_EQ(r.answer, "The news.") << q;
  }
  EXPECT_FALSE(c->lookup("what is on tv at 6 pm").hit());
  const auto m = c->metrics();
  EXPECT_EQ(m.lookups, 6u);
  EXPECT_EQ(m.exactHits, 4u);
  EXPECT_NEAR(m.exactHitRatio(), 4.0 / 6.0, 1e-9);
}

TEST(ExactTier, ReplacesAnswerForSameKey) {
  FakeClock clock;
  auto c = makeCache(exactOnly(), nullptr, &clock);
  ASSERT_EQ(c->insert("how tall is a giraffe", "Tall.", AnswerClass::staticKnowledge), InsertOutcome::stored);
  ASSERT_EQ(c->insert("How tall is a giraffe?", "About 5 metres.", AnswerClass::staticKnowledge),
            InsertOutcome::stored);
  EXPECT_EQ(c->exactSize(), 1u);
  EXPECT_EQ(c->lookup("how tall is a giraffe").answer, "About 5 metres.");
}

TEST(ExactTier, TtlPerAnswerClass) {
  FakeClock clock;
  CacheOptions o = exactOnly();
  o.ttlTimeSensitiveS = 60;
  o.ttlStaticS = 3600;
  auto c = makeCache(o, nullptr, &clock);
  ASSERT_EQ(c->insert("what is the weather", "Sunny.", AnswerClass::timeSensitive), InsertOutcome::stored);
  ASSERT_EQ(c->insert("how many legs does a spider have", "Eight.", AnswerClass::staticKnowledge),
            InsertOutcome::stored);
  clock.advanceSeconds(59);
  EXPECT_TRUE(c->lookup("what is the weather").hit());
  clock.advanceSeconds(1);
  EXPECT_FALSE(c->lookup("what is the weather").hit());  // exactly at the TTL: expired
  EXPECT_EQ(c->metrics().expirations, 1u);
  EXPECT_EQ(c->exactSize(), 1u);
  clock.advanceSeconds(3600 - 60 - 1);
  EXPECT_TRUE(c->lookup("how many legs does a spider have").hit());
  clock.advanceSeconds(1);
  EXPECT_FALSE(c->lookup("how many legs does a spider have").hit());
  EXPECT_EQ(c->metrics().expirations, 2u);
}

TEST(ExactTier, TimeSensitiveTtlIsClampedTo30To300Seconds) {
  FakeClock clock;
  CacheOptions o = exactOnly();
  o.ttlTimeSensitiveS = 86400;
  auto c = makeCache(o, nullptr, &clock);
  EXPECT_EQ(c->options().ttlTimeSensitiveS, 300u);
  ASSERT_EQ(c->insert("what is the score", "2 to 1.", AnswerClass::timeSensitive), InsertOutcome::stored);
  clock.advanceSeconds(300);
  EXPECT_FALSE(c->lookup("what is the score").hit());
  o.ttlTimeSensitiveS = 1;
  auto c2 = makeCache(o, nullptr, &clock);
  EXPECT_EQ(c2->options().ttlTimeSensitiveS, 30u);
}

TEST(ExactTier, LeastRecentlyUsedIsEvicted) {
  FakeClock clock;
  auto c = makeCache(exactOnly(3), nullptr, &clock);
  ASSERT_EQ(c->insert("question apple", "A", AnswerClass::staticKnowledge), InsertOutcome::stored);
  ASSERT_EQ(c->insert("question banana", "B", AnswerClass::staticKnowledge), InsertOutcome::stored);
  ASSERT_EQ(c->insert("question cherry", "C", AnswerClass::staticKnowledge), InsertOutcome::stored);
  EXPECT_TRUE(c->lookup("question apple").hit());  // alpha becomes most recent; bravo is now the oldest
  ASSERT_EQ(c->insert("question grape", "D", AnswerClass::staticKnowledge), InsertOutcome::stored);
  EXPECT_EQ(c->exactSize(), 3u);
  EXPECT_EQ(c->metrics().evictionsExact, 1u);
  EXPECT_FALSE(c->lookup("question banana").hit());
  EXPECT_TRUE(c->lookup("question apple").hit());
  EXPECT_TRUE(c->lookup("question cherry").hit());
  EXPECT_TRUE(c->lookup("question grape").hit());
}

TEST(ExactTier, ChurnKeepsIndexConsistent) {
  // Many inserts through a small table exercise probe chains and backward-shift deletion.
  FakeClock clock;
  auto c = makeCache(exactOnly(16), nullptr, &clock);
  for (int i = 0; i < 400; ++i) {
    const std::string q = "fact number " + std::to_string(i);
    ASSERT_EQ(c->insert(q, "answer " + std::to_string(i), AnswerClass::staticKnowledge), InsertOutcome::stored);
    if (i % 3 == 0 && i >= 5) {
      const std::string older = "fact number " + std::to_string(i - 5);
      EXPECT_EQ(c->lookup(older).answer, "answer " + std::to_string(i - 5));
    }
  }
  EXPECT_EQ(c->exactSize(), 16u);
  int hits = 0;
  for (int i = 0; i < 400; ++i) hits += c->lookup("fact number " + std::to_string(i)).hit() ? 1 : 0;
  EXPECT_EQ(hits, 16);
}

TEST(Pii, NeverCached) {
  FakeClock clock;
  BagEmbedder emb;
  CacheOptions o;
  o.exactEntries = 8;
  o.semanticEntries = 8;
  auto c = makeCache(o, &emb, &clock);
  EXPECT_EQ(c->insert("call me at 555 010 1234", "OK.", AnswerClass::staticKnowledge), InsertOutcome::containsPii);
  EXPECT_EQ(c->insert("my email is john.smith@gmail.com, what is the weather", "Sunny.", AnswerClass::timeSensitive),
            InsertOutcome::containsPii);
  EXPECT_EQ(c->insert("what is my card number", "It is 4111 1111 1111 1111.", AnswerClass::staticKnowledge),
            InsertOutcome::containsPii);  // PII in the answer
  EXPECT_EQ(c->insert("what medication is good for my diabetes", "Ask your doctor.", AnswerClass::staticKnowledge),
            InsertOutcome::containsPii);
  EXPECT_EQ(c->exactSize(), 0u);
  EXPECT_EQ(c->semanticSize(), 0u);
  EXPECT_EQ(c->metrics().rejectedPii, 4u);
  EXPECT_FALSE(c->lookup("call me at 555 010 1234").hit());
  EXPECT_EQ(c->insert("what is the capital of france", "Paris.", AnswerClass::staticKnowledge),
            InsertOutcome::stored);
}

// Issue 36: a type the trained model only suspects (no span) keeps the prompt out of the cache too; a suspected SSN
// written with minus signs (U+2212) was cached and then answered for the same request typed with hyphens (the
// normalizer now reads those as hyphens: a VIN the model suspects of being a secret stands in for it here).
TEST(Pii, SuspectedTypesAreNeverCachedEither) {
  auto model = privacy::PiiModel::loadFile(std::string(SOTTO_SOURCE_DIR) + "/config/pii.nlu");
  ASSERT_TRUE(model.ok()) << model.error().message;
  auto withModel = privacy::PiiClassifier::create(std::move(*model));
  ASSERT_TRUE(withModel.ok());
  const std::string prompt = "my vin is 1HGCM82633A004352";
  privacy::SpanBuffer spans;
  ASSERT_TRUE((*withModel)->classify(prompt, spans).ok());
  ASSERT_TRUE(spans.empty()) << "precondition: no span, or Pii.NeverCached covers it";
  ASSERT_NE(spans.suspected(), 0u) << "precondition: the model suspects a type in it";
  FakeClock clock;
  CacheOptions o;
  o.exactEntries = 8;
  auto c = AnswerCache::create(o, **withModel, nullptr, &clock);
  ASSERT_TRUE(c.ok()) << c.error().message;
  EXPECT_EQ((*c)->insert(prompt, "It is for taxes.", AnswerClass::staticKnowledge), InsertOutcome::containsPii);
  EXPECT_FALSE((*c)->lookup(prompt).hit());
  EXPECT_EQ((*c)->exactSize(), 0u);
}

TEST(Create, RejectsBadOptions) {
  CacheOptions o;
  o.semanticThreshold = 0.0f;
  EXPECT_FALSE(AnswerCache::create(o, classifier()).ok());
  o = CacheOptions{};
  o.exactEntries = 65536;
  o.maxAnswerBytes = 65536;  // 4 GiB of answers
  const auto r = AnswerCache::create(o, classifier());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, Errc::invalid_argument);
  o = CacheOptions{};
  o.ttlStaticS = 0;
  EXPECT_FALSE(AnswerCache::create(o, classifier()).ok());
}

TEST(Insert, RefusesUncacheable) {
  FakeClock clock;
  CacheOptions o = exactOnly();
  o.maxAnswerBytes = 16;
  auto c = makeCache(o, nullptr, &clock);
  EXPECT_EQ(c->insert("...", "x", AnswerClass::staticKnowledge), InsertOutcome::notCacheable);
  EXPECT_EQ(c->insert("how are you", "", AnswerClass::staticKnowledge), InsertOutcome::answerTooLong);
  EXPECT_EQ(c->insert("how are you", std::string(17, 'a'), AnswerClass::staticKnowledge),
            InsertOutcome::answerTooLong);
  EXPECT_EQ(c->insert("how are you", std::string(16, 'a'), AnswerClass::staticKnowledge), InsertOutcome::stored);
  auto off = makeCache(exactOnly(0), nullptr, &clock);
  EXPECT_EQ(off->insert("how are you", "Fine.", AnswerClass::staticKnowledge), InsertOutcome::notCacheable);
  EXPECT_FALSE(off->lookup("how are you").hit());
}

class Semantic : public ::testing::Test {
 protected:
  void SetUp() override {
    CacheOptions o;
    o.exactEntries = 16;
    o.semanticEntries = 16;
    o.semanticThreshold = 0.9f;
    cache = makeCache(o, &emb, &clock);
    ASSERT_TRUE(cache);
  }
  FakeClock clock;
  BagEmbedder emb;
  std::unique_ptr<AnswerCache> cache;
};

TEST_F(Semantic, ParaphraseHits) {
  // "please" and "tell me" do not change the question: the embedder ignores them, the text differs.
  emb.blind = {"tell", "me", "please", "could", "you"};
  ASSERT_EQ(cache->insert("how many legs does a spider have", "Eight.", AnswerClass::staticKnowledge),
            InsertOutcome::stored);
  const auto r = cache->lookup("tell me how many legs does a spider have");
  EXPECT_EQ(r.tier, Tier::semantic);
  EXPECT_EQ(r.answer, "Eight.");
  EXPECT_GE(r.similarity, 0.9f);
  const auto far = cache->lookup("why is the sky blue");
  EXPECT_FALSE(far.hit());
  EXPECT_LT(far.similarity, 0.9f);
  const auto m = cache->metrics();
  EXPECT_EQ(m.semanticLookups, 2u);
  EXPECT_EQ(m.semanticHits, 1u);
  EXPECT_DOUBLE_EQ(m.semanticHitRatio(), 0.5);
}

TEST_F(Semantic, NegationGuard) {
  emb.blind = {"not"};  // the embedding cannot see the negation: cosine 1
  ASSERT_EQ(cache->insert("is it safe to swim in the lake", "Yes.", AnswerClass::staticKnowledge),
            InsertOutcome::stored);
  const auto r = cache->lookup("is it not safe to swim in the lake");
  EXPECT_FALSE(r.hit());
  EXPECT_NEAR(r.similarity, 1.0f, 1e-5);
  EXPECT_EQ(r.blockedBy, Guard::negation);
  EXPECT_EQ(cache->metrics().guardBlocks[static_cast<int>(Guard::negation)], 1u);
}

TEST_F(Semantic, NumberGuard) {
  ASSERT_EQ(cache->insert("what is 25 times 4", "100.", AnswerClass::staticKnowledge), InsertOutcome::stored);
  const auto r = cache->lookup("what is 25 times 5");
  EXPECT_FALSE(r.hit());
  EXPECT_EQ(r.blockedBy, Guard::numbers);
  EXPECT_EQ(cache->lookup("what is twenty five times four").tier, Tier::exact);
}

TEST_F(Semantic, EntityGuard) {
  emb.blind = {"france", "germany", "lisbon", "porto"};
  ASSERT_EQ(cache->insert("What is the capital of France?", "Paris.", AnswerClass::staticKnowledge),
            InsertOutcome::stored);
  auto r = cache->lookup("What is the capital of Germany?");
  EXPECT_FALSE(r.hit());
  EXPECT_EQ(r.blockedBy, Guard::entities);
  r = cache->lookup("what is the capital of germany");  // transcript form
  EXPECT_FALSE(r.hit());
  EXPECT_EQ(r.blockedBy, Guard::entities);
  ASSERT_EQ(cache->insert("weather in lisbon tomorrow", "Rain.", AnswerClass::timeSensitive), InsertOutcome::stored);
  r = cache->lookup("weather in porto tomorrow");
  EXPECT_FALSE(r.hit());
  EXPECT_EQ(r.blockedBy, Guard::entities);
}

TEST_F(Semantic, SlotGuard) {
  emb.blind = {"tell", "me"};
  ASSERT_EQ(cache->insert("how long is left on the kitchen timer", "Five minutes.", AnswerClass::timeSensitive,
                          /*slots=*/101),
            InsertOutcome::stored);
  // Same question apart from ignored words, but the intent matcher filled different slots.
  const auto r = cache->lookup("tell me how long is left on the kitchen timer", 202);
  EXPECT_FALSE(r.hit());
  EXPECT_EQ(r.blockedBy, Guard::slots);
  EXPECT_EQ(cache->lookup("tell me how long is left on the kitchen timer", 101).tier, Tier::semantic);
}

// Issue 21: a misheard "cancel the timer" was answered from the semantic cache with an unrelated earlier answer
// (similarity 0.96, every guard passed): near-identical embeddings must not be enough.
TEST(ContentGuard, MisheardRequestIsNotAnsweredFromAnUnrelatedCachedQuestion) {
  FakeClock clock;
  SameDirectionEmbedder emb;
  CacheOptions o;
  o.exactEntries = 16;
  o.semanticEntries = 16;
  o.semanticThreshold = 0.9f;  // no calibration here: the guards alone
  auto cache = makeCache(o, &emb, &clock);
  ASSERT_TRUE(cache);
  ASSERT_EQ(cache->insert("can i cancel the order", "Orders can be cancelled for 14 days.",
                          AnswerClass::staticKnowledge),
            InsertOutcome::stored);
  auto r = cache->lookup("cancel the timer");
  EXPECT_FALSE(r.hit()) << r.answer;
  EXPECT_GT(r.similarity, 0.99f);
  EXPECT_EQ(r.blockedBy, Guard::content);
  // Misheard into common words only (no entity, no number for the older guards to catch).
  cache->clear();
  ASSERT_EQ(cache->insert("what is the best time to sleep", "Before midnight.", AnswerClass::staticKnowledge),
            InsertOutcome::stored);
  r = cache->lookup("can sell the timer");
  EXPECT_FALSE(r.hit()) << r.answer;
  EXPECT_EQ(r.blockedBy, Guard::content);
  EXPECT_EQ(cache->metrics().guardBlocks[static_cast<int>(Guard::content)], 2u);
  // A paraphrase with the same content words (frame, plural, inflection) still hits the right entry.
  ASSERT_EQ(cache->insert("how many legs does a spider have", "Eight.", AnswerClass::staticKnowledge),
            InsertOutcome::stored);
  r = cache->lookup("tell me how many legs spiders have");
  EXPECT_EQ(r.tier, Tier::semantic);
  EXPECT_EQ(r.answer, "Eight.");
  r = cache->lookup("cancel my timers");  // shares "cancel", not the request
  EXPECT_FALSE(r.hit()) << r.answer;
  EXPECT_EQ(guardName(Guard::content), std::string("content"));
}

TEST_F(Semantic, SlotSignatureFromIntentMatch) {
  intents::IntentMatch a, b, none;
  a.intent = b.intent = 3;
  a.name = b.name = "timer.query";
  a.slotCount = b.slotCount = 1;
  a.slots[0].name = b.slots[0].name = "name";
  a.slots[0].value.kind = b.slots[0].value.kind = intents::SlotValue::Kind::text;
  std::memcpy(a.slots[0].value.text, "pasta", 5);
  a.slots[0].value.length = 5;
  std::memcpy(b.slots[0].value.text, "eggs", 4);
  b.slots[0].value.length = 4;
  EXPECT_EQ(slotSignature(none), 0u);
  EXPECT_NE(slotSignature(a), 0u);
  EXPECT_NE(slotSignature(a), slotSignature(b));
  EXPECT_EQ(slotSignature(a), slotSignature(a));
}

TEST_F(Semantic, ExpiredSemanticEntriesAreDropped) {
  emb.blind = {"tell", "me"};
  ASSERT_EQ(cache->insert("what is the weather like", "Sunny.", AnswerClass::timeSensitive), InsertOutcome::stored);
  EXPECT_EQ(cache->lookup("tell me what is the weather like").tier, Tier::semantic);
  clock.advanceSeconds(60);
  EXPECT_FALSE(cache->lookup("tell me what is the weather like").hit());
  EXPECT_EQ(cache->semanticSize(), 0u);
  EXPECT_GE(cache->metrics().expirations, 1u);
}

TEST_F(Semantic, LruEvictionInSemanticTier) {
  CacheOptions o;
  o.exactEntries = 2;
  o.semanticEntries = 2;
  auto c = makeCache(o, &emb, &clock);
  ASSERT_EQ(c->insert("why is the sky blue", "Scattering.", AnswerClass::staticKnowledge), InsertOutcome::stored);
  ASSERT_EQ(c->insert("how do bees make honey", "Nectar.", AnswerClass::staticKnowledge), InsertOutcome::stored);
  ASSERT_EQ(c->insert("what do cows eat", "Grass.", AnswerClass::staticKnowledge), InsertOutcome::stored);
  EXPECT_EQ(c->semanticSize(), 2u);
  EXPECT_EQ(c->metrics().evictionsSemantic, 1u);
  EXPECT_EQ(c->metrics().evictionsExact, 1u);
}

TEST_F(Semantic, EmbeddingOverloadAndBadEmbedding) {
  CacheOptions o;
  o.exactEntries = 4;
  o.semanticEntries = 4;
  o.embeddingDim = 4;
  auto c = makeCache(o, nullptr, &clock);
  const float e1[4] = {1, 0, 0, 0}, e2[4] = {0.95f, 0.1f, 0, 0}, zero[4] = {0, 0, 0, 0};
  ASSERT_EQ(c->insert("why is the sky blue", "Scattering.", AnswerClass::staticKnowledge, e1, 0),
            InsertOutcome::stored);
  EXPECT_EQ(c->lookup("why does the sky look blue", e2, 0).tier, Tier::semantic);
  EXPECT_FALSE(c->lookup("why does the sky look blue", zero, 0).hit());
  const float wrongSize[3] = {1, 0, 0};
  EXPECT_FALSE(c->lookup("why does the sky look blue", wrongSize, 0).hit());
}

TEST(ZeroAllocation, LookupAndInsert) {
  if (!sotto::test::AllocCounter::supported()) GTEST_SKIP() << "allocation counting unsupported in this build";
  FakeClock clock;
  BagEmbedder emb;  // allocation-free for words not in `blind`
  CacheOptions o;
  o.exactEntries = 32;
  o.semanticEntries = 32;
  auto c = makeCache(o, &emb, &clock);
  ASSERT_TRUE(c);
  // Warm up: first calls may touch lazily initialized statics in libraries.
  (void)c->insert("warm up the cache", "ok", AnswerClass::staticKnowledge);
  (void)c->lookup("warm up the cache");
  const char* prompts[] = {"what is the capital of France", "how many legs does a spider have",
                           "remind me at five pm", "is it safe to swim", "what is 25 times 4"};
  // Every candidate above the threshold: the guards (content words included) run on each lookup.
  SameDirectionEmbedder same;
  auto guarded = makeCache(o, &same, &clock);
  ASSERT_TRUE(guarded);
  for (const char* p : {"is it safe to swim", "what is the best time to sleep"})
    (void)guarded->insert(p, "An answer.", AnswerClass::staticKnowledge);
  (void)guarded->lookup("can sell the timer");
  sotto::test::NoAllocScope scope;
  EXPECT_EQ(guarded->lookup("can sell the timer").blockedBy, Guard::content);
  EXPECT_EQ(guarded->lookup("tell me the best times to sleep").tier, Tier::semantic);
  for (int round = 0; round < 20; ++round) {  // more inserts than capacity: eviction included
    for (const char* p : prompts) {
      char buf[96];
      std::snprintf(buf, sizeof buf, "%s number %d", p, round);
      (void)c->insert(buf, "An answer that is long enough to matter.", AnswerClass::staticKnowledge);
      (void)c->lookup(buf);
      (void)c->lookup("tell me something unrelated");
    }
  }
  (void)c->insert("call me at 555 010 1234", "no", AnswerClass::staticKnowledge);  // PII path
  clock.advanceSeconds(700000);
  (void)c->lookup("what is the capital of France number 19");  // expiry path
  EXPECT_EQ(scope.allocations(), 0u);
  EXPECT_GT(guarded->metrics().guardBlocks[static_cast<int>(Guard::content)], 0u);
  EXPECT_GT(c->metrics().evictionsExact, 0u);
  EXPECT_GT(c->metrics().expirations, 0u);
}

}  // namespace
}  // namespace sotto::cache::test
