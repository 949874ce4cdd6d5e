// SPDX-License-Identifier: MIT
// AnswerCache persistence: entry (de)serialization into one sealed file, warm start with the most-hit entries.
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "engine/cache/answer_cache.h"
#include "engine/cache/answer_cache_store.h"
#include "engine/cache/sealed_file.h"
#include "sotto/hal/atomic_file.h"
#include "sotto/hal/log.h"

namespace sotto::cache {

namespace {

// Plaintext: u32 entry count, then per entry: u8 tier (1 exact, 2 semantic), u8 answer class, u16 reserved,
// u32 hits, i64 created ms, i64 expires ms, u64 slot signature, u32 prompt bytes, u32 answer bytes,
// u32 embedding floats, prompt, answer, embedding (f32 LE). All integers little-endian.
constexpr std::uint8_t kTierExact = 1, kTierSemantic = 2;

class Writer {
 public:
  void u8(std::uint8_t v) { out.push_back(v); }
  void u16(std::uint16_t v) { le(v, 2); }
  void u32(std::uint32_t v) { le(v, 4); }
  void u64(std::uint64_t v) { le(v, 8); }
  void bytes(const void* p, std::size_t n) {
    const auto* b = static_cast<const std::uint8_t*>(p);
    out.insert(out.end(), b, b + n);
  }
  std::vector<std::uint8_t> out;

 private:
  void le(std::uint64_t v, int n) {
    for (int i = 0; i < n; ++i) out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
  }
};

class Reader {
 public:
  explicit Reader(std::span<const std::uint8_t> in) : in_(in) {}
  bool u8(std::uint8_t& v) { return le(v, 1); }
  bool u16(std::uint16_t& v) { return le(v, 2); }
  bool u32(std::uint32_t& v) { return le(v, 4); }
  bool u64(std::uint64_t& v) { return le(v, 8); }
  bool bytes(std::span<const std::uint8_t>& v, std::size_t n) {
    if (in_.size() - pos_ < n) return false;
    v = in_.subspan(pos_, n);
    pos_ += n;
    return true;
  }
  bool atEnd() const { return pos_ == in_.size(); }

 private:
  template <typename T>
  bool le(T& v, int n) {
    if (in_.size() - pos_ < static_cast<std::size_t>(n)) return false;
    std::uint64_t x = 0;
    for (int i = 0; i < n; ++i) x |= static_cast<std::uint64_t>(in_[pos_ + i]) << (8 * i);
    pos_ += static_cast<std::size_t>(n);
    v = static_cast<T>(x);
    return true;
  }
  std::span<const std::uint8_t> in_;
  std::size_t pos_ = 0;
};

struct Loaded {
  std::uint8_t tier = 0;
  AnswerClass answerClass = AnswerClass::staticKnowledge;
  std::uint32_t hits = 0;
  std::int64_t created = 0, expires = 0;
  std::uint64_t slots = 0;
  std::string_view prompt, answer;
  std::vector<float> embedding;
};

void writeStore(Writer& w, const AnswerCache::Store& s, std::uint8_t tier) {
  // Least recently used first, so that equal hit counts reload in their old order.
  for (std::uint32_t i = s.tail; i != kNone; i = s.records[i].prev) {
    const Record& r = s.records[i];
    w.u8(tier);
    w.u8(static_cast<std::uint8_t>(r.answerClass));
    w.u16(0);
    w.u32(r.hits);
    w.u64(static_cast<std::uint64_t>(r.createdMs));
    w.u64(static_cast<std::uint64_t>(r.expiresMs));
    w.u64(r.slots);
    w.u32(r.promptLength);
    w.u32(r.answerLength);
    w.u32(static_cast<std::uint32_t>(s.dim));
    const auto p = s.prompt(i);
    const auto a = s.answer(i);
    w.bytes(p.data(), p.size());
    w.bytes(a.data(), a.size());
    for (const float f : s.embedding(i)) {
      std::uint32_t bits;
      std::memcpy(&bits, &f, 4);
      w.u32(bits);
    }
  }
}

bool parse(std::span<const std::uint8_t> plain, std::vector<Loaded>& out, std::string& why) {
  Reader r(plain);
  std::uint32_t count = 0;
  if (!r.u32(count)) return why = "no entry count", false;
  if (count > 2 * 65536) return why = "implausible entry count", false;
  out.reserve(count);
  for (std::uint32_t n = 0; n < count; ++n) {
    Loaded e;
    std::uint8_t cls = 0;
    std::uint16_t reserved = 0;
    std::uint64_t created = 0, expires = 0;
    std::uint32_t promptLen = 0, answerLen = 0, dim = 0;
    if (!r.u8(e.tier) || !r.u8(cls) || !r.u16(reserved) || !r.u32(e.hits) || !r.u64(created) || !r.u64(expires) ||
        !r.u64(e.slots) || !r.u32(promptLen) || !r.u32(answerLen) || !r.u32(dim))
      return why = "entry " + std::to_string(n) + " is cut short", false;
    if ((e.tier != kTierExact && e.tier != kTierSemantic) || cls > 1 || reserved != 0 || promptLen > 4096 ||
        answerLen > 65536 || dim > 8192 || (e.tier == kTierExact && dim != 0))
      return why = "entry " + std::to_string(n) + " has invalid fields", false;
    e.answerClass = static_cast<AnswerClass>(cls);
    e.created = static_cast<std::int64_t>(created);
    e.expires = static_cast<std::int64_t>(expires);
    std::span<const std::uint8_t> p, a;
    if (!r.bytes(p, promptLen) || !r.bytes(a, answerLen))
      return why = "entry " + std::to_string(n) + " is cut short", false;
    e.prompt = {reinterpret_cast<const char*>(p.data()), p.size()};
    e.answer = {reinterpret_cast<const char*>(a.data()), a.size()};
    e.embedding.resize(dim);
    for (auto& f : e.embedding) {
      std::uint32_t bits = 0;
      if (!r.u32(bits)) return why = "entry " + std::to_string(n) + " is cut short", false;
      std::memcpy(&f, &bits, 4);
    }
    out.push_back(std::move(e));
  }
  if (!r.atEnd()) return why = "trailing bytes after the last entry", false;
  return true;
}

}  // namespace

void AnswerCache::mergeFile(const std::string& path, std::span<const std::uint8_t, 32> key) {
  auto plain = readSealedFile(path, key);
  if (!plain) return;  // missing, or damaged: this process's entries replace it
  std::vector<Loaded> entries;
  std::string why;
  if (!parse(*plain, entries, why)) {
    std::fill(plain->begin(), plain->end(), std::uint8_t{0});
    return;
  }
  const std::int64_t now = clock_->nowMs();
  for (const Loaded& e : entries) {
    Store& s = e.tier == kTierExact ? *exact_ : *semantic_;
    if (e.expires <= now || s.size >= s.capacity) continue;  // never evict this process's own for another's
    if (e.tier == kTierSemantic && e.embedding.size() != s.dim) continue;
    analyzePrompt(e.prompt, *query_);
    if (!query_->cacheable) continue;
    const std::uint32_t have = s.index.empty() ? s.findLinear(*query_) : s.find(*query_);
    if (have != kNone) continue;  // this process's answer for the prompt is the newer one
    const std::int64_t expires = std::min(e.expires, expiryFor(e.answerClass, now));
    (void)insertAt(e.prompt, e.answer, e.answerClass, e.embedding, e.slots, e.created, expires, e.hits,
                   e.tier == kTierExact, e.tier == kTierSemantic);
  }
  std::fill(plain->begin(), plain->end(), std::uint8_t{0});
}

Status AnswerCache::save(const std::string& path, std::span<const std::uint8_t, 32> key) {
  // Several processes share one cache file (sottod, `sotto ask`): under the file's lock, what others saved since
  // is merged in (while there is room) before this process's entries replace the file, so no one's answers are
  // lost to a concurrent writer (10 of 60 survived 20-way runs before). After a "forget" (clear()) the file is
  // replaced as is.
  auto lock = hal::FileLock::exclusive(path);
  if (lock && !clearedSinceSave_) mergeFile(path, key);
  Writer w;
  w.u32(static_cast<std::uint32_t>(exact_->size + semantic_->size));
  writeStore(w, *exact_, kTierExact);
  writeStore(w, *semantic_, kTierSemantic);
  Status st = writeSealedFile(path, key, w.out);
  std::fill(w.out.begin(), w.out.end(), std::uint8_t{0});
  if (st) clearedSinceSave_ = false;
  if (st && !lock) {
    return makeError(lock.error().code, "answer cache saved without its lock (another process's entries may be "
                                        "lost): " + lock.error().message);
  }
  return st;
}

Result<LoadReport> AnswerCache::load(const std::string& path, std::span<const std::uint8_t, 32> key) {
  LoadReport report;
  auto lock = hal::FileLock::exclusive(path);  // a concurrent save's rename is whole either way; the set-aside is not
  auto plain = readSealedFile(path, key);
  std::vector<Loaded> entries;
  std::string why;
  if (!plain) {
    if (plain.error().code == Errc::not_found) return report;
    if (plain.error().code != Errc::corrupt) return plain.error();
    report.fileFound = true;
    why = plain.error().message;
  } else {
    report.fileFound = true;
    if (!parse(*plain, entries, why)) {
      why = path + ": " + why;
      entries.clear();
    }
  }
  if (!why.empty()) {
    // Set the bad file aside (kept for inspection, replaced by the next bad one) and start empty.
    report.discarded = true;
    report.reason = why;
    const std::string aside = path + ".corrupt";
    if (std::rename(path.c_str(), aside.c_str()) == 0) {
      report.setAsidePath = aside;
      SOTTO_LOG_WARN("cache", "corrupt-file", "discarded the answer cache: %s; set aside as %s", why.c_str(),
                     aside.c_str());
    } else {
      SOTTO_LOG_WARN("cache", "corrupt-file", "discarded the answer cache: %s; could not set it aside: %s",
                     why.c_str(), std::strerror(errno));
    }
    return report;
  }

  const std::int64_t now = clock_->nowMs();
  for (const std::uint8_t tier : {kTierExact, kTierSemantic}) {
    Store& s = tier == kTierExact ? *exact_ : *semantic_;
    std::vector<const Loaded*> take;
    for (const Loaded& e : entries) {
      if (e.tier != tier) continue;
      if (e.expires <= now) {
        ++report.droppedExpired;
        bump(counters_->expirations);
        continue;
      }
      if (tier == kTierSemantic && e.embedding.size() != s.dim) {
        ++report.droppedOther;  // another model's embeddings
        continue;
      }
      take.push_back(&e);
    }
    // Most-hit first; a stable sort keeps the file's (least recently used first) order among equals.
    std::stable_sort(take.begin(), take.end(), [](const Loaded* a, const Loaded* b) { return a->hits > b->hits; });
    std::size_t limit = std::min(s.capacity, options_.warmStartEntries ? options_.warmStartEntries : s.capacity);
    if (take.size() > limit) {
      report.droppedOther += take.size() - limit;
      take.resize(limit);
    }
    // Insert the least-hit first so the most-hit ends up most recently used.
    for (auto it = take.rbegin(); it != take.rend(); ++it) {
      const Loaded& e = **it;
      analyzePrompt(e.prompt, *query_);
      // Never beyond today's TTL for its class (settings may have shrunk, or the wall clock stepped back).
      const std::int64_t expires = std::min(e.expires, expiryFor(e.answerClass, now));
      const InsertOutcome o = insertAt(e.prompt, e.answer, e.answerClass, e.embedding, e.slots, e.created,
                                       expires, e.hits, tier == kTierExact, tier == kTierSemantic);
      if (o != InsertOutcome::stored) {
        ++report.droppedOther;
        continue;
      }
      if (tier == kTierExact) ++report.loadedExact; else ++report.loadedSemantic;
    }
  }
  std::fill(plain->begin(), plain->end(), std::uint8_t{0});
  return report;
}

}  // namespace sotto::cache
