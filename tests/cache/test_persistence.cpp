// SPDX-License-Identifier: MIT
// Sealed persistence: round trip, warm start top-N, expiry on load, and corrupt / truncated / tampered /
// wrong-key / garbage files set aside without crashing; failed saves keep the previous file.
#include <gtest/gtest.h>
#include <sodium.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "engine/cache/sealed_file.h"
#include "tests/cache/cache_test_util.h"

namespace sotto::cache::test {
namespace {

std::vector<char> readAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void writeAll(const std::string& path, const std::vector<char>& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

bool exists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

class Persistence : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_FALSE(dir.path.empty());
    path = dir.path + "/answers.cache";
    options.exactEntries = 16;
    options.semanticEntries = 16;
  }
  std::unique_ptr<AnswerCache> fresh() { return makeCache(options, &emb, &clock); }
  std::unique_ptr<AnswerCache> filled() {
    auto c = fresh();
    EXPECT_EQ(c->insert("What is the capital of France?", "Paris.", AnswerClass::staticKnowledge),
              InsertOutcome::stored);
    EXPECT_EQ(c->insert("what is the weather", "Sunny.", AnswerClass::timeSensitive), InsertOutcome::stored);
    EXPECT_EQ(c->insert("how many legs does a spider have", "Eight.", AnswerClass::staticKnowledge),
              InsertOutcome::stored);
    return c;
  }
  // Loads into a fresh cache and expects the file to be set aside as corrupt.
  void expectDiscarded(const char* what) {
    auto c = fresh();
    auto r = c->load(path, key);
    ASSERT_TRUE(r.ok()) << what;
    EXPECT_TRUE(r->fileFound) << what;
    EXPECT_TRUE(r->discarded) << what;
    EXPECT_FALSE(r->reason.empty()) << what;
    EXPECT_EQ(r->setAsidePath, path + ".corrupt") << what;
    EXPECT_FALSE(exists(path)) << what;
    EXPECT_TRUE(exists(path + ".corrupt")) << what;
    EXPECT_EQ(c->exactSize(), 0u) << what;
    EXPECT_FALSE(c->lookup("what is the capital of france").hit()) << what;
    // The cache keeps working and can save a new file.
    EXPECT_EQ(c->insert("how are you", "Fine.", AnswerClass::staticKnowledge), InsertOutcome::stored);
    EXPECT_TRUE(c->save(path, key).ok()) << what;
  }

  TempDir dir;
  std::string path;
  FakeClock clock;
  BagEmbedder emb;
  CacheOptions options;
  std::array<std::uint8_t, 32> key = testKey(1);
};

TEST_F(Persistence, RoundTrip) {
  auto a = filled();
  EXPECT_TRUE(a->lookup("how many legs does a spider have").hit());
  ASSERT_TRUE(a->save(path, key).ok());
  struct stat st {};
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  EXPECT_FALSE(exists(path + ".tmp"));

  auto b = fresh();
  auto r = b->load(path, key);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->fileFound);
  EXPECT_FALSE(r->discarded);
  EXPECT_EQ(r->loadedExact, 3u);
  EXPECT_EQ(r->loadedSemantic, 3u);
  EXPECT_EQ(b->lookup("what's the capital of france").answer, "Paris.");
  EXPECT_EQ(b->lookup("what is the weather").answer, "Sunny.");
  EXPECT_EQ(b->lookup("how many legs does a spider have").answer, "Eight.");
  emb.blind = {"tell", "me"};
  EXPECT_EQ(b->lookup("tell me how many legs does a spider have").tier, Tier::semantic);
}

TEST_F(Persistence, PlaintextNeverOnDiskAndFreshNoncePerWrite) {
  auto a = filled();
  ASSERT_TRUE(a->save(path, key).ok());
  const auto first = readAll(path);
  const std::string bytes(first.begin(), first.end());
  EXPECT_EQ(bytes.find("Paris"), std::string::npos);
  EXPECT_EQ(bytes.find("spider"), std::string::npos);
  EXPECT_EQ(bytes.compare(0, 8, "SOTTOCCH"), 0);
  ASSERT_TRUE(a->save(path, key).ok());
  const auto second = readAll(path);
  ASSERT_EQ(first.size(), second.size());
  EXPECT_NE(std::vector<char>(first.begin() + 16, first.begin() + 40),
            std::vector<char>(second.begin() + 16, second.begin() + 40));  // nonces differ
}

TEST_F(Persistence, ExpiredEntriesDroppedOnLoad) {
  auto a = filled();
  ASSERT_TRUE(a->save(path, key).ok());
  clock.advanceSeconds(61);  // the weather answer is past its TTL
  auto b = fresh();
  auto r = b->load(path, key);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->loadedExact, 2u);
  EXPECT_EQ(r->droppedExpired, 2u);  // exact and semantic copies
  EXPECT_FALSE(b->lookup("what is the weather").hit());
  EXPECT_TRUE(b->lookup("what is the capital of france").hit());
}

TEST_F(Persistence, LoadNeverExtendsBeyondTheCurrentTtl) {
  auto a = filled();
  ASSERT_TRUE(a->save(path, key).ok());
  options.ttlStaticS = 100;  // shortened since the file was written
  auto b = fresh();
  ASSERT_TRUE(b->load(path, key).ok());
  EXPECT_TRUE(b->lookup("what is the capital of france").hit());
  clock.advanceSeconds(100);
  EXPECT_FALSE(b->lookup("what is the capital of france").hit());
}

TEST_F(Persistence, WarmStartKeepsTheMostHitEntries) {
  auto a = fresh();
  for (int i = 0; i < 10; ++i) {
    const std::string q = "fact number " + std::to_string(i);
    ASSERT_EQ(a->insert(q, "answer", AnswerClass::staticKnowledge), InsertOutcome::stored);
    for (int h = 0; h < i; ++h) ASSERT_TRUE(a->lookup(q).hit());  // fact i has i hits
  }
  ASSERT_TRUE(a->save(path, key).ok());
  options.warmStartEntries = 3;
  options.semanticEntries = 0;
  auto b = fresh();
  auto r = b->load(path, key);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->loadedExact, 3u);
  EXPECT_EQ(b->exactSize(), 3u);
  for (int i = 7; i < 10; ++i) EXPECT_TRUE(b->lookup("fact number " + std::to_string(i)).hit()) << i;
  for (int i = 0; i < 7; ++i) EXPECT_FALSE(b->lookup("fact number " + std::to_string(i)).hit()) << i;
  // The most-hit entry is the most recently used after loading: with capacity 3, filling two new entries
  // evicts facts 7 and 8 first, not 9.
  options.exactEntries = 3;
  auto c = fresh();
  ASSERT_TRUE(c->load(path, key).ok());
  ASSERT_EQ(c->insert("new one", "x", AnswerClass::staticKnowledge), InsertOutcome::stored);
  ASSERT_EQ(c->insert("new two", "x", AnswerClass::staticKnowledge), InsertOutcome::stored);
  EXPECT_TRUE(c->lookup("fact number 9").hit());
  EXPECT_FALSE(c->lookup("fact number 7").hit());
  EXPECT_FALSE(c->lookup("fact number 8").hit());
}

TEST_F(Persistence, MissingFileIsAnEmptyCache) {
  auto c = fresh();
  auto r = c->load(path, key);
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r->fileFound);
  EXPECT_FALSE(r->discarded);
}

TEST_F(Persistence, WrongKeyIsDiscarded) {
  ASSERT_TRUE(filled()->save(path, key).ok());
  key = testKey(2);
  expectDiscarded("wrong key");
}

TEST_F(Persistence, TamperedCiphertextIsDiscarded) {
  ASSERT_TRUE(filled()->save(path, key).ok());
  auto bytes = readAll(path);
  bytes[bytes.size() / 2] = static_cast<char>(bytes[bytes.size() / 2] ^ 0x01);
  writeAll(path, bytes);
  expectDiscarded("flipped bit");
}

TEST_F(Persistence, TamperedHeaderIsDiscarded) {
  ASSERT_TRUE(filled()->save(path, key).ok());
  auto bytes = readAll(path);
  bytes[12] = 1;  // reserved header bytes are authenticated too
  writeAll(path, bytes);
  expectDiscarded("header");
}

TEST_F(Persistence, TamperedNonceIsDiscarded) {
  ASSERT_TRUE(filled()->save(path, key).ok());
  auto bytes = readAll(path);
  bytes[20] = static_cast<char>(bytes[20] ^ 0x80);
  writeAll(path, bytes);
  expectDiscarded("nonce");
}

TEST_F(Persistence, TruncatedFilesAreDiscarded) {
  ASSERT_TRUE(filled()->save(path, key).ok());
  const auto whole = readAll(path);
  for (std::size_t keep : {std::size_t{0}, std::size_t{7}, std::size_t{16}, std::size_t{40}, std::size_t{55},
                           whole.size() / 2, whole.size() - 1}) {
    writeAll(path, std::vector<char>(whole.begin(), whole.begin() + static_cast<std::ptrdiff_t>(keep)));
    expectDiscarded(("truncated to " + std::to_string(keep)).c_str());
  }
}

TEST_F(Persistence, GarbageAndWrongVersionAreDiscarded) {
  writeAll(path, std::vector<char>(4096, 'x'));
  expectDiscarded("garbage");
  ASSERT_TRUE(filled()->save(path, key).ok());
  auto bytes = readAll(path);
  bytes[8] = 2;  // version 2
  writeAll(path, bytes);
  expectDiscarded("version");
}

TEST_F(Persistence, AuthenticatedButMalformedContentIsDiscarded) {
  // Well-sealed under the right key but not a cache payload (a bug or another writer): still no crash.
  ASSERT_GE(sodium_init(), 0);
  const std::uint8_t junk[] = {5, 0, 0, 0, 9, 9, 9};
  ASSERT_TRUE(writeSealedFile(path, key, junk).ok());
  expectDiscarded("malformed payload");
  const std::uint8_t huge[] = {0xff, 0xff, 0xff, 0x7f};
  ASSERT_TRUE(writeSealedFile(path, key, huge).ok());
  expectDiscarded("huge count");
}

TEST_F(Persistence, MutatedAuthenticPayloadsNeverCrash) {
  // Sealed under the right key, so decryption succeeds and the entry parser sees every mutation (ASan watches).
  ASSERT_TRUE(filled()->save(path, key).ok());
  auto plain = readSealedFile(path, key);
  ASSERT_TRUE(plain.ok());
  const std::vector<std::uint8_t> valid = *plain;
  std::uint32_t seed = 12345;
  auto next = [&seed] { return seed = seed * 1664525u + 1013904223u; };
  int discarded = 0, loaded = 0;
  for (int round = 0; round < 90; ++round) {
    std::vector<std::uint8_t> m = valid;
    if (round % 3 == 0) {
      m.resize(next() % m.size());
    } else {
      for (int flips = 1 + static_cast<int>(next() % 4); flips > 0; --flips)
        m[next() % m.size()] = static_cast<std::uint8_t>(next());
    }
    ASSERT_TRUE(writeSealedFile(path, key, m).ok());
    auto c = fresh();
    auto r = c->load(path, key);
    ASSERT_TRUE(r.ok()) << round;
    if (r->discarded) {
      ++discarded;
      EXPECT_EQ(c->exactSize() + c->semanticSize(), 0u);
    } else {
      ++loaded;
    }
  }
  EXPECT_GT(discarded, 0);
  EXPECT_GT(loaded, 0);  // flips inside prompt or answer text still parse: they load as other entries
}

TEST_F(Persistence, FailedSaveKeepsThePreviousFile) {
  ASSERT_TRUE(filled()->save(path, key).ok());
  const auto before = readAll(path);
  auto c = filled();  // a new save of it would be different bytes (fresh nonce), and bigger than the limit below
  const std::string missingDir = dir.path + "/no/such/dir/answers.cache";
  EXPECT_FALSE(c->save(missingDir, key).ok());
  // A full disk (a file-size limit: EFBIG, as ENOSPC would) makes the write fail; the old file must survive and
  // no temporary file may be left behind.
  struct rlimit old {};
  ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &old), 0);
  const auto oldHandler = std::signal(SIGXFSZ, SIG_IGN);
  struct rlimit tiny = old;
  tiny.rlim_cur = 64;
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &tiny), 0);
  auto st = c->save(path, key);
  ::setrlimit(RLIMIT_FSIZE, &old);
  std::signal(SIGXFSZ, oldHandler);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().code, Errc::io);
  EXPECT_EQ(readAll(path), before);
  size_t files = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir.path)) {
    files += e.path().filename().string() == "answers.cache.lock" ? 0 : 1;  // the lock file stays, by design
  }
  EXPECT_EQ(files, 1u) << "a temporary file was left behind";
}

}  // namespace
}  // namespace sotto::cache::test
