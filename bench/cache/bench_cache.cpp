// SPDX-License-Identifier: MIT
// Answer-cache bench: replays a deterministic query mix (Zipf-popular questions from the dev data, repeated as
// is, as surface variants, as paraphrases and as opposite questions) through several cache configurations and
// prints hit ratio per tier, wrong answers, guard blocks, evictions, expirations and lookup latency, with the
// exact-only cache as the baseline measured in the same run; each semantic configuration also runs without the
// content-word guard (the guards before issue 21), and the real model's embeddings also calibrated at create().
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "bench/common/sysinfo.h"
#include "engine/cache/answer_cache.h"
#include "engine/cache/generator_embedder.h"
#include "engine/llm/model.h"
#include "engine/llm/tokenizer.h"
#include "engine/pipeline/histogram.h"
#include "engine/privacy/pii.h"

using namespace sotto;
using namespace sotto::cache;

namespace {

// The value of "key": "..." in one JSON line (escapes \" \\ \/ \n \t; \uXXXX kept only for ASCII).
std::string jsonString(const std::string& line, const std::string& key) {
  const std::string k = "\"" + key + "\": \"";
  auto p = line.find(k);
  if (p == std::string::npos) return {};
  std::string out;
  for (p += k.size(); p < line.size() && line[p] != '"'; ++p) {
    if (line[p] != '\\' || p + 1 >= line.size()) {
      out += line[p];
      continue;
    }
    const char e = line[++p];
    if (e == 'n') out += ' ';
    else if (e == 't') out += ' ';
    else if (e == 'u' && p + 4 < line.size()) {
      const int v = std::stoi(line.substr(p + 1, 4), nullptr, 16);
      out += v < 128 ? static_cast<char>(v) : ' ';
      p += 4;
    } else out += e;
  }
  return out;
}

// A lexical embedder for comparison: signed hashing of words and word bigrams into 256 dimensions.
class LexicalEmbedder final : public Embedder {
 public:
  std::size_t dimension() const noexcept override { return 256; }
  Status embed(std::string_view text, std::span<float> out) override {
    std::fill(out.begin(), out.end(), 0.0f);
    std::string_view prev;
    std::size_t start = 0;
    while (start < text.size()) {
      std::size_t end = text.find(' ', start);
      if (end == std::string_view::npos) end = text.size();
      const std::string_view w = text.substr(start, end - start);
      start = end + 1;
      add(fnv1a64(w), out, 1.0f);
      if (!prev.empty()) add(fnv1a64(w, fnv1a64(prev)), out, 0.5f);
      prev = w;
    }
    return {};
  }

 private:
  static void add(std::uint64_t h, std::span<float> out, float weight) {
    out[h % out.size()] += ((h >> 40) & 1) ? weight : -weight;
  }
};

struct Request {
  std::string text;
  std::string answerId;  // the question this request asks; a hit must return the answer stored for it
  AnswerClass answerClass = AnswerClass::staticKnowledge;
  enum Kind { repeat, surface, paraphrase, opposite } kind = repeat;
};

const char* kindName(Request::Kind k) {
  switch (k) {
    case Request::repeat: return "repeat";
    case Request::surface: return "surface";
    case Request::paraphrase: return "paraphrase";
    case Request::opposite: return "opposite";
  }
  return "?";
}

std::vector<std::string> words(const std::string& s) {
  std::vector<std::string> w;
  std::size_t i = 0;
  while (i < s.size()) {
    auto j = s.find(' ', i);
    if (j == std::string::npos) j = s.size();
    if (j > i) w.push_back(s.substr(i, j - i));
    i = j + 1;
  }
  return w;
}

std::string join(const std::vector<std::string>& w) {
  std::string s;
  for (const auto& x : w) s += (s.empty() ? "" : " ") + x;
  return s;
}

// The opposite question: negated, another number, or another named thing. Empty when none applies.
std::string opposite(const std::string& canonical, std::mt19937& rng, const std::vector<std::string>& others) {
  auto w = words(canonical);
  if (w.empty()) return {};
  for (auto& x : w) {
    if (!x.empty() && x[0] >= '0' && x[0] <= '9' && x.find(':') == std::string::npos &&
        x.find('.') == std::string::npos) {
      x = std::to_string(std::stoll(x.substr(0, 12)) + 1);
      return join(w);
    }
  }
  static const char* aux[] = {"is", "are", "do", "does", "can", "should", "will", "was"};
  if (rng() % 2 == 0) {
    for (std::size_t i = 0; i < w.size(); ++i) {
      if (std::find(std::begin(aux), std::end(aux), w[i]) != std::end(aux)) {
        w.insert(w.begin() + static_cast<std::ptrdiff_t>(i) + 1, "not");
        return join(w);
      }
    }
  }
  // Swap the longest uncommon word for one from another question.
  std::size_t best = w.size();
  for (std::size_t i = 0; i < w.size(); ++i) {
    if (!isCommonWord(w[i]) && (best == w.size() || w[i].size() > w[best].size())) best = i;
  }
  if (best == w.size() || others.empty()) return {};
  const std::string& o = others[rng() % others.size()];
  if (o == w[best]) return {};
  w[best] = o;
  return join(w);
}

std::vector<Request> buildMix(const std::string& path, std::size_t count, std::size_t& baseCount) {
  std::ifstream in(path);
  std::vector<std::pair<std::string, AnswerClass>> base;
  std::map<std::string, bool> seen;
  std::vector<std::string> uncommon;
  for (std::string line; std::getline(in, line);) {
    const std::string intent = jsonString(line, "intent");
    if (intent != "none" && intent != "weather.query") continue;  // the rest is answered by intent handlers
    const std::string text = jsonString(line, "text");
    base.push_back({text, intent == "weather.query" ? AnswerClass::timeSensitive : AnswerClass::staticKnowledge});
    for (const auto& x : words(AnswerCache::canonicalText(text))) {
      if (!isCommonWord(x) && !(x[0] >= '0' && x[0] <= '9') && !seen[x]) {
        seen[x] = true;
        uncommon.push_back(x);
      }
    }
  }
  baseCount = base.size();
  std::mt19937 rng(20261121);
  std::shuffle(base.begin(), base.end(), rng);
  // Zipf(1.0) popularity over the shuffled questions: a few are asked often, most rarely.
  std::vector<double> cdf(base.size());
  double sum = 0;
  for (std::size_t i = 0; i < base.size(); ++i) cdf[i] = (sum += 1.0 / static_cast<double>(i + 1));
  std::uniform_real_distribution<double> u(0.0, sum);
  static const char* fillersBefore[] = {"um ", "okay ", "hey sotto, ", "so ", ""};
  static const char* fillersAfter[] = {" please", " thanks", "?", "!", ""};
  static const char* frames[] = {"tell me ", "do you know ", "i would like to know ", "quick question, ",
                                 "i was wondering "};
  std::vector<Request> mix;
  while (mix.size() < count) {
    const std::size_t i = static_cast<std::size_t>(std::lower_bound(cdf.begin(), cdf.end(), u(rng)) - cdf.begin());
    const auto& [text, cls] = base[std::min(i, base.size() - 1)];
    const std::string canon = AnswerCache::canonicalText(text);
    if (canon.empty()) continue;
    Request r;
    r.answerId = canon;
    r.answerClass = cls;
    const unsigned roll = rng() % 100;
    if (roll < 45) {
      r.kind = Request::repeat;
      r.text = text;
    } else if (roll < 65) {
      r.kind = Request::surface;
      std::string t = canon;
      if (rng() % 2) t[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(t[0])));
      r.text = std::string(fillersBefore[rng() % 5]) + t + fillersAfter[rng() % 5];
    } else if (roll < 90) {
      r.kind = Request::paraphrase;
      r.text = std::string(frames[rng() % 5]) + canon;
    } else {
      r.kind = Request::opposite;
      r.text = opposite(canon, rng, uncommon);
      if (r.text.empty()) continue;
      r.answerId = AnswerCache::canonicalText(r.text);  // may coincide with another dataset question: fine
    }
    mix.push_back(std::move(r));
  }
  return mix;
}

struct Outcome {
  CacheMetricsSnapshot metrics;
  std::size_t wrong = 0;          // an opposite question answered with the original's answer
  std::size_t crossQuestion = 0;  // another dataset question's answer (often the same question worded apart)
  std::map<std::string, std::pair<std::size_t, std::size_t>> hitsByKind;  // kind -> (hits, requests)
  pipeline::HistogramSummary latency{};
  std::vector<std::string> wrongExamples, crossExamples;
};

Outcome replay(const std::string& label, const std::vector<Request>& mix, const CacheOptions& options,
               const privacy::PiiClassifier& pii, Embedder* embedder) {
  struct StepClock final : Clock {
    std::int64_t nowMs() const noexcept override { return now; }
    std::int64_t now = 1'800'000'000'000;
  } clock;
  auto created = AnswerCache::create(options, pii, embedder, &clock);
  if (!created) {
    std::fprintf(stderr, "bench_cache: %s\n", created.error().message.c_str());
    std::exit(1);
  }
  auto& cache = **created;
  std::printf("\n== %s\n", label.c_str());
  if (cache.calibration().ran) std::printf("  calibration: %s\n", cache.calibration().summary().c_str());
  static pipeline::Histogram hist;
  hist.reset();
  Outcome o;
  std::map<std::string, std::string> answerOf;  // stored answers are "A:" + answerId
  for (const Request& r : mix) {
    clock.now += 1500;  // one request every 1.5 s: time-sensitive answers expire during the replay
    const auto t0 = std::chrono::steady_clock::now();
    const LookupResult res = cache.lookup(r.text);
    const auto t1 = std::chrono::steady_clock::now();
    hist.record(static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(t1 - t0).count()));
    auto& k = o.hitsByKind[kindName(r.kind)];
    ++k.second;
    if (res.hit()) {
      ++k.first;
      if (res.answer != "A:" + r.answerId) {
        const bool opp = r.kind == Request::opposite;
        ++(opp ? o.wrong : o.crossQuestion);
        auto& ex = opp ? o.wrongExamples : o.crossExamples;
        if (ex.size() < 3) ex.push_back("\"" + r.text + "\" got " + std::string(res.answer.substr(0, 60)));
      }
      continue;
    }
    (void)cache.insert(r.text, "A:" + r.answerId, r.answerClass);  // the answer some other route produced
  }
  o.metrics = cache.metrics();
  o.latency = hist.snapshot().summary();
  const auto& m = o.metrics;
  std::printf("  hit ratio: overall %.3f | exact %.3f of lookups | semantic %.3f of the %llu lookups reaching it\n",
              m.overallHitRatio(), m.exactHitRatio(), m.semanticHitRatio(),
              static_cast<unsigned long long>(m.semanticLookups));
  std::printf("  hits by request kind:");
  for (const auto& [kind, v] : o.hitsByKind)
    std::printf(" %s %.3f (%zu/%zu)", kind.c_str(), v.second ? static_cast<double>(v.first) / v.second : 0.0,
                v.first, v.second);
  std::printf("\n  opposite questions answered wrongly: %zu; answers of another dataset question: %zu\n",
              o.wrong, o.crossQuestion);
  for (const auto& e : o.wrongExamples) std::printf("    wrong: %s\n", e.c_str());
  for (const auto& e : o.crossExamples) std::printf("    other question: %s\n", e.c_str());
  std::printf("  guard blocks:");
  for (std::size_t g = 1; g < kGuardCount; ++g)
    std::printf("%s %s %llu", g == 1 ? "" : ",", guardName(static_cast<Guard>(g)),
                static_cast<unsigned long long>(m.guardBlocks[g]));
  std::printf("\n");
  std::printf("  inserts %llu, refused for PII %llu, evictions exact %llu / semantic %llu, expirations %llu\n",
              static_cast<unsigned long long>(m.inserts), static_cast<unsigned long long>(m.rejectedPii),
              static_cast<unsigned long long>(m.evictionsExact), static_cast<unsigned long long>(m.evictionsSemantic),
              static_cast<unsigned long long>(m.expirations));
  std::printf("  lookup latency (incl. embedding) over %llu: p50 %.1f us, p95 %.1f us, p99 %.1f us, max %.1f us\n",
              static_cast<unsigned long long>(o.latency.count), o.latency.p50 / 1e3, o.latency.p95 / 1e3,
              o.latency.p99 / 1e3, o.latency.max / 1e3);
  return o;
}

// Latency of the cache alone (no embedder): exact hits, and semantic-tier scans of a full tier with a
// precomputed query embedding, after a warm-up. Returns p50 of the exact hits (the baseline) in ns.
void tierLatency(const std::vector<Request>& mix, const privacy::PiiClassifier& pii) {
  LexicalEmbedder lexical;
  CacheOptions o;  // defaults: 1024 exact, 512 semantic entries
  o.embeddingDim = lexical.dimension();
  auto created = AnswerCache::create(o, pii);
  if (!created) return;
  auto& cache = **created;
  std::vector<std::string> stored;
  std::vector<float> e(o.embeddingDim);
  for (const Request& r : mix) {
    if (stored.size() == o.semanticEntries) break;
    (void)lexical.embed(AnswerCache::canonicalText(r.text), e);
    if (cache.insert(r.text, "answer", AnswerClass::staticKnowledge, e, 0) == InsertOutcome::stored &&
        cache.semanticSize() > stored.size())
      stored.push_back(r.text);
  }
  const std::vector<float> query(o.embeddingDim, 0.0625f);  // similar to nothing stored: a full scan, no hit
  static pipeline::Histogram exactHist, scanHist;
  exactHist.reset();
  scanHist.reset();
  for (int pass = 0; pass < 6; ++pass) {
    for (const auto& text : stored) {
      auto t0 = std::chrono::steady_clock::now();
      const auto hit = cache.lookup(text, std::span<const float>(), 0);
      auto t1 = std::chrono::steady_clock::now();
      const auto miss = cache.lookup("zz unrelated probe question", query, 0);
      auto t2 = std::chrono::steady_clock::now();
      if (pass == 0 || !hit.hit() || miss.hit()) continue;  // pass 0 warms up
      exactHist.record(static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(t1 - t0).count()));
      scanHist.record(static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(t2 - t1).count()));
    }
  }
  const auto a = exactHist.snapshot().summary(), b = scanHist.snapshot().summary();
  std::printf("\n== cache latency without embedding (%zu semantic entries x %zu-d, %zu exact)\n", cache.semanticSize(),
              o.embeddingDim, cache.exactSize());
  std::printf("  exact hit (baseline):        p50 %.2f us, p95 %.2f us, p99 %.2f us over %llu\n", a.p50 / 1e3,
              a.p95 / 1e3, a.p99 / 1e3, static_cast<unsigned long long>(a.count));
  std::printf("  exact miss + semantic scan:  p50 %.2f us, p95 %.2f us, p99 %.2f us over %llu (x%.1f the baseline)\n",
              b.p50 / 1e3, b.p95 / 1e3, b.p99 / 1e3, static_cast<unsigned long long>(b.count),
              a.p50 ? static_cast<double>(b.p50) / static_cast<double>(a.p50) : 0.0);
}

void embedLatency(Embedder& embedder, const std::vector<Request>& mix, const char* name) {
  static pipeline::Histogram hist;
  hist.reset();
  std::vector<float> e(embedder.dimension());
  for (std::size_t i = 0; i < mix.size() && i < 400; ++i) {
    const std::string canon = AnswerCache::canonicalText(mix[i].text);
    const auto t0 = std::chrono::steady_clock::now();
    (void)embedder.embed(canon, e);
    const auto t1 = std::chrono::steady_clock::now();
    if (i >= 50) hist.record(static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(t1 - t0).count()));
  }
  const auto s = hist.snapshot().summary();
  std::printf("  %s embedding: p50 %.1f us, p95 %.1f us, p99 %.1f us over %llu prompts\n", name, s.p50 / 1e3,
              s.p95 / 1e3, s.p99 / 1e3, static_cast<unsigned long long>(s.count));
}

}  // namespace

int main(int argc, char** argv) {
  const std::string data = argc > 1 ? argv[1] : std::string(SOTTO_SOURCE_DIR) + "/../shared/data/intents-dev.jsonl";
  const std::string modelPath =
      argc > 2 ? argv[2] : std::string(SOTTO_SOURCE_DIR) + "/../shared/models/stories260K-f32.gguf";
  const std::size_t requests = argc > 3 ? std::stoul(argv[3]) : 6000;
  const auto info = bench::collectSystemInfo();
  std::printf("cpu: %s (%u online, %u usable)\nkernel: %s\ncompiler: %s\nbuild: %s\nfeatures: %s\n",
              info.cpuModel.c_str(), info.onlineCpus, info.usableCpus, info.kernel.c_str(), info.compiler.c_str(),
              info.buildType.c_str(), info.cpuFeatures.c_str());
  std::size_t baseCount = 0;
  const auto mix = buildMix(data, requests, baseCount);
  if (mix.empty()) {
    std::fprintf(stderr, "bench_cache: no questions in %s\n", data.c_str());
    return 1;
  }
  std::map<std::string, std::size_t> kinds;
  for (const auto& r : mix) ++kinds[kindName(r.kind)];
  std::printf("\nquery mix: %zu requests over %zu distinct questions (intent none + weather from %s), Zipf(1.0);",
              mix.size(), baseCount, data.c_str());
  for (const auto& [k, n] : kinds) std::printf(" %s %zu", k.c_str(), n);
  std::printf("\n");

  auto pii = privacy::PiiClassifier::create();
  if (!pii) {
    std::fprintf(stderr, "bench_cache: %s\n", pii.error().message.c_str());
    return 1;
  }
  CacheOptions base;  // the settings' defaults
  CacheOptions exactOnly = base;
  exactOnly.semanticEntries = 0;
  const Outcome b = replay("baseline: exact tier only", mix, exactOnly, **pii, nullptr);

  CacheOptions noContent = base;  // the guards before issue 21
  noContent.contentGuard = false;
  LexicalEmbedder lexical;
  const Outcome lex = replay("exact + semantic (lexical hashing embedder, 256-d), guards on", mix, base, **pii,
                             &lexical);
  const Outcome lexNoContent = replay("exact + semantic (lexical embedder), guards on but the content guard OFF",
                                      mix, noContent, **pii, &lexical);
  CacheOptions calibrated = base;
  calibrated.calibrateSemantic = true;
  const Outcome lexCalibrated =
      replay("exact + semantic (lexical embedder), guards on, calibrated", mix, calibrated, **pii, &lexical);
  CacheOptions unguarded = base;
  unguarded.semanticGuards = false;
  const Outcome lexNoGuards =
      replay("exact + semantic (lexical embedder), guards OFF (what the guards prevent)", mix, unguarded, **pii,
             &lexical);

  Outcome stories, storiesNoContent, storiesCalibrated;
  bool haveStories = false;
  auto model = llm::Model::load(modelPath);
  if (model) {
    auto tok = llm::Tokenizer::fromGguf((*model)->file());
    auto gen = tok ? llm::Generator::create(**model, **tok) : Result<std::unique_ptr<llm::Generator>>(tok.error());
    if (gen) {
      GeneratorEmbedder real(**gen);
      embedLatency(real, mix, "stories260K");
      stories = replay("exact + semantic (stories260K pooled hidden states, 64-d), guards on", mix, base, **pii,
                       &real);
      storiesNoContent = replay("exact + semantic (stories260K), guards on but the content guard OFF", mix,
                                noContent, **pii, &real);
      storiesCalibrated =
          replay("exact + semantic (stories260K), guards on, calibrated (as sottod)", mix, calibrated, **pii, &real);
      haveStories = true;
      // A tiny story model embeds every question alike: show how far the threshold must rise for it.
      for (const float threshold : {0.97f, 0.99f}) {
        CacheOptions strict = base;
        strict.semanticThreshold = threshold;
        char label[96];
        std::snprintf(label, sizeof label, "exact + semantic (stories260K), guards on, threshold %.2f", threshold);
        (void)replay(label, mix, strict, **pii, &real);
      }
    } else {
      std::printf("\n(stories260K embedder unavailable: %s)\n", gen.error().message.c_str());
    }
  } else {
    std::printf("\n(stories260K embedder unavailable: %s)\n", model.error().message.c_str());
  }

  embedLatency(lexical, mix, "lexical");
  tierLatency(mix, **pii);

  auto ratio = [](double a, double bb) { return bb > 0 ? a / bb : 0.0; };
  std::printf("\n== against the baseline (exact only, same run)\n");
  std::printf("  lexical semantic: hit ratio %.3f vs %.3f (x%.2f), p50 latency x%.2f, opposite answered %zu vs %zu\n",
              lex.metrics.overallHitRatio(), b.metrics.overallHitRatio(),
              ratio(lex.metrics.overallHitRatio(), b.metrics.overallHitRatio()), ratio(lex.latency.p50, b.latency.p50),
              lex.wrong, b.wrong);
  std::printf("  guards: opposite questions answered %zu with guards vs %zu without; other-question answers %zu vs "
              "%zu; hit ratio %.3f vs %.3f\n",
              lex.wrong, lexNoGuards.wrong, lex.crossQuestion, lexNoGuards.crossQuestion,
              lex.metrics.overallHitRatio(), lexNoGuards.metrics.overallHitRatio());
  if (haveStories)
    std::printf("  stories260K semantic: hit ratio %.3f vs %.3f (x%.2f), p50 latency x%.2f, opposite answered %zu, other-question %zu\n",
                stories.metrics.overallHitRatio(), b.metrics.overallHitRatio(),
                ratio(stories.metrics.overallHitRatio(), b.metrics.overallHitRatio()),
                ratio(stories.latency.p50, b.latency.p50), stories.wrong, stories.crossQuestion);
  // Issue 21: what the content guard and calibration change. Wrong answers are opposite questions answered; an
  // answer stored for another dataset question is often the same question worded apart, so it is counted apart.
  auto line = [](const char* name, const Outcome& before, const Outcome& after) {
    std::printf("  %s: wrong answers %zu -> %zu, answers of another dataset question %zu -> %zu, hit ratio %.3f -> "
                "%.3f, semantic hits %llu -> %llu, paraphrase hits %zu -> %zu\n",
                name, before.wrong, after.wrong, before.crossQuestion, after.crossQuestion,
                before.metrics.overallHitRatio(), after.metrics.overallHitRatio(),
                static_cast<unsigned long long>(before.metrics.semanticHits),
                static_cast<unsigned long long>(after.metrics.semanticHits),
                before.hitsByKind.count("paraphrase") ? before.hitsByKind.at("paraphrase").first : 0,
                after.hitsByKind.count("paraphrase") ? after.hitsByKind.at("paraphrase").first : 0);
  };
  std::printf("\n== content guard and calibration (issue 21), same run\n");
  line("lexical, content guard off -> on", lexNoContent, lex);
  line("lexical, content guard on -> calibrated", lex, lexCalibrated);
  if (haveStories) {
    line("stories260K, content guard off -> on", storiesNoContent, stories);
    line("stories260K, content guard on -> calibrated", stories, storiesCalibrated);
    line("stories260K, before issue 21 -> as sottod now", storiesNoContent, storiesCalibrated);
  }
  return 0;
}
