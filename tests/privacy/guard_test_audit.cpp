// SPDX-License-Identifier: MIT
// Audit log: round trip, rotation under the cap, torn and tampered records, no plaintext on disk.
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include <gtest/gtest.h>

#include "engine/privacy/audit.h"
#include "tests/keystore/temp_dir.h"
#include "tests/privacy/guard_test_key.h"

namespace sotto::privacy {
namespace {

namespace fs = std::filesystem;

using sotto::test::keyOf;

AuditRecord record(int i, std::string sent = "") {
  if (sent.empty()) {
    sent = R"({"model":"m","stream":true,"messages":[{"role":"user","content":"secret question )" +
           std::to_string(i) + R"( about [PERSON_1]"}]})";
  }
  return AuditRecord{1700000000000 + i, "cloud", "local-low-confidence/anonymized", "api.example.com:443",
                     std::move(sent)};
}

std::string readRaw(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void writeRaw(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

class Audit : public ::testing::Test {
 protected:
  std::string dir() const { return tmp_.path() + "/audit"; }
  std::string current() const { return dir() + "/audit.log"; }
  std::unique_ptr<AuditLog> open(std::uint64_t maxFileBytes = 64 * 1024, std::uint32_t files = 3) {
    auto log = AuditLog::open(AuditOptions{dir(), maxFileBytes, files}, key_);
    EXPECT_TRUE(log.ok()) << (log.ok() ? "" : log.error().message);
    return log.ok() ? std::move(log).value() : nullptr;
  }
  AuditReadout read(const hal::SecretKey& key) const {
    auto r = readAuditLog(dir(), key);
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
    return r.ok() ? std::move(r).value() : AuditReadout{};
  }
  AuditReadout read() const { return read(key_); }

  test::TempDir tmp_;
  hal::SecretKey key_ = keyOf(9);
};

TEST_F(Audit, RoundTripAcrossReopen) {
  {
    auto log = open();
    ASSERT_TRUE(log);
    for (int i = 0; i < 5; ++i) ASSERT_TRUE(log->append(record(i)).ok());
  }
  struct stat st {};
  ASSERT_EQ(::stat(dir().c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0700u);
  ASSERT_EQ(::stat(current().c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  {
    auto log = open();
    ASSERT_TRUE(log);
    EXPECT_TRUE(log->warnings().empty());
    ASSERT_TRUE(log->append(record(5)).ok());
    AuditRecord stamped = record(6);
    stamped.timeMs = 0;  // append stamps the current time
    ASSERT_TRUE(log->append(stamped).ok());
  }
  const AuditReadout r = read();
  EXPECT_TRUE(r.problems.empty());
  ASSERT_EQ(r.records.size(), 7u);
  for (int i = 0; i < 6; ++i) EXPECT_EQ(r.records[static_cast<std::size_t>(i)], record(i));
  EXPECT_GT(r.records[6].timeMs, 1700000000000 + 1000000);
  EXPECT_EQ(r.records[6].sent, record(6).sent);
  // Binary bytes survive exactly.
  {
    auto log = open();
    std::string binary;
    for (int b = 0; b < 256; ++b) binary += static_cast<char>(b);
    ASSERT_TRUE(log->append(record(7, binary)).ok());
  }
  EXPECT_EQ(read().records.back().sent.size(), 256u);
}

TEST_F(Audit, NoPlaintextOnDiskAndTheKeyMatters) {
  {
    auto log = open();
    ASSERT_TRUE(log);
    ASSERT_TRUE(log->append(record(0, "CANARY-4111-1111-1111-1111 call me please")).ok());
  }
  const std::string raw = readRaw(current());
  EXPECT_EQ(raw.find("CANARY"), std::string::npos);
  EXPECT_EQ(raw.find("call me"), std::string::npos);
  EXPECT_EQ(raw.find("api.example.com"), std::string::npos);
  EXPECT_EQ(raw.find("cloud"), std::string::npos);
  const AuditReadout wrong = read(keyOf(8));
  EXPECT_TRUE(wrong.records.empty());
  EXPECT_EQ(wrong.tampered, 1u);
  ASSERT_EQ(wrong.problems.size(), 1u);
  EXPECT_NE(wrong.problems[0].find("fails authentication"), std::string::npos);
}

TEST_F(Audit, RotationKeepsTheCap) {
  const std::uint64_t maxFile = 4096;
  const std::uint32_t files = 3;
  auto log = open(maxFile, files);
  ASSERT_TRUE(log);
  for (int i = 0; i < 90; ++i) ASSERT_TRUE(log->append(record(i)).ok()) << i;  // ~20 per file: 4+ rotations
  std::uint64_t total = 0;
  std::size_t count = 0;
  for (const auto& e : fs::directory_iterator(dir())) {
    EXPECT_LE(e.file_size(), maxFile) << e.path();
    total += e.file_size();
    ++count;
  }
  EXPECT_EQ(count, files);
  EXPECT_LE(total, maxFile * files);
  const AuditReadout r = read();
  EXPECT_TRUE(r.problems.empty());
  ASSERT_FALSE(r.records.empty());
  EXPECT_LT(r.records.size(), 90u);
  EXPECT_EQ(r.records.back(), record(89));  // the newest kept, in order
  for (std::size_t i = 1; i < r.records.size(); ++i) EXPECT_EQ(r.records[i].timeMs, r.records[i - 1].timeMs + 1);

  // A record that cannot fit a file is refused, nothing written.
  EXPECT_EQ(log->append(record(0, std::string(maxFile, 'x'))).error().code, Errc::invalid_argument);
  // Lowering the file count drops the excess files on the next open.
  log.reset();
  auto smaller = open(maxFile, 2);
  ASSERT_TRUE(smaller);
  EXPECT_FALSE(fs::exists(dir() + "/audit.log.2"));
}

TEST_F(Audit, TornFinalRecordIsSkippedAndCutOff) {
  {
    auto log = open();
    for (int i = 0; i < 3; ++i) ASSERT_TRUE(log->append(record(i)).ok());
  }
  const std::string full = readRaw(current());
  // Every truncation point inside the last record: the first two always survive, with one warning.
  const std::size_t lastStart = 32 + 2 * ((full.size() - 32) / 3);  // the three records have one size
  for (std::size_t cut = lastStart + 1; cut < full.size(); cut += 7) {
    writeRaw(current(), full.substr(0, cut));
    const AuditReadout r = read();
    ASSERT_EQ(r.records.size(), 2u) << cut;
    EXPECT_EQ(r.torn, 1u);
    EXPECT_EQ(r.tampered, 0u);
    ASSERT_EQ(r.problems.size(), 1u);
    EXPECT_NE(r.problems[0].find("incomplete"), std::string::npos) << r.problems[0];
  }
  // The writer cuts the torn record off and appends after the good ones.
  writeRaw(current(), full.substr(0, full.size() - 5));
  {
    auto log = open();
    ASSERT_TRUE(log);
    ASSERT_EQ(log->warnings().size(), 1u);
    ASSERT_TRUE(log->append(record(3)).ok());
  }
  const AuditReadout r = read();
  EXPECT_TRUE(r.problems.empty());
  ASSERT_EQ(r.records.size(), 3u);
  EXPECT_EQ(r.records[2], record(3));
  // A torn header (crash while creating the file) is skipped too.
  writeRaw(current(), "SOTTOA");
  EXPECT_EQ(read().torn, 1u);
}

TEST_F(Audit, TamperedRecordsAreDetected) {
  {
    auto log = open();
    for (int i = 0; i < 3; ++i) ASSERT_TRUE(log->append(record(i)).ok());
  }
  const std::string full = readRaw(current());
  const std::size_t recordBytes = (full.size() - 32) / 3;
  // A flipped bit in the second record's ciphertext: it alone is reported; the others still read.
  std::string flipped = full;
  flipped[32 + recordBytes + 60] ^= 0x01;
  writeRaw(current(), flipped);
  AuditReadout r = read();
  ASSERT_EQ(r.records.size(), 2u);
  EXPECT_EQ(r.records[0], record(0));
  EXPECT_EQ(r.records[1], record(2));
  EXPECT_EQ(r.tampered, 1u);
  EXPECT_NE(r.problems.at(0).find("record 2"), std::string::npos) << r.problems.at(0);

  // Records swapped: both fail (the record number is authenticated).
  std::string swapped = full.substr(0, 32) + full.substr(32 + recordBytes, recordBytes) +
                        full.substr(32, recordBytes) + full.substr(32 + 2 * recordBytes);
  writeRaw(current(), swapped);
  r = read();
  EXPECT_EQ(r.tampered, 2u);
  ASSERT_EQ(r.records.size(), 1u);
  EXPECT_EQ(r.records[0], record(2));

  // A record deleted from the middle: the following ones no longer authenticate.
  writeRaw(current(), full.substr(0, 32 + recordBytes) + full.substr(32 + 2 * recordBytes));
  r = read();
  EXPECT_EQ(r.records.size(), 1u);
  EXPECT_EQ(r.tampered, 1u);

  // A corrupt length: the rest of the file is skipped, no crash.
  std::string badLength = full;
  badLength[32 + recordBytes + 3] = static_cast<char>(0x7F);
  writeRaw(current(), badLength);
  r = read();
  EXPECT_EQ(r.records.size(), 1u);
  EXPECT_EQ(r.tampered, 1u);
  EXPECT_NE(r.problems.at(0).find("impossible length"), std::string::npos);

  // A changed header (file id) fails every record; a foreign file is reported, not parsed.
  std::string header = full;
  header[20] ^= 0x01;
  writeRaw(current(), header);
  EXPECT_EQ(read().tampered, 3u);
  header = full;
  header[12] ^= 0x01;  // even the reserved bytes are authenticated
  writeRaw(current(), header);
  EXPECT_EQ(read().tampered, 3u);
  writeRaw(current(), "hello, this is not an audit log at all, it is just text");
  r = read();
  EXPECT_TRUE(r.records.empty());
  EXPECT_NE(r.problems.at(0).find("corrupt header"), std::string::npos);

  // The writer keeps a tampered file as evidence (audit.log.1) and starts a new one.
  writeRaw(current(), flipped);
  {
    auto log = open();
    ASSERT_TRUE(log);
    EXPECT_FALSE(log->warnings().empty());
    ASSERT_TRUE(log->append(record(9)).ok());
  }
  EXPECT_EQ(readRaw(dir() + "/audit.log.1"), flipped);
  r = read();
  ASSERT_EQ(r.records.size(), 3u);
  EXPECT_EQ(r.records.back(), record(9));
  EXPECT_EQ(r.tampered, 1u);
}

TEST_F(Audit, RandomCorruptionNeverCrashesNorInventsRecords) {
  {
    auto log = open();
    for (int i = 0; i < 3; ++i) ASSERT_TRUE(log->append(record(i)).ok());
  }
  const std::string full = readRaw(current());
  std::mt19937 rng(99);
  for (int round = 0; round < 150; ++round) {
    std::string bytes = full;
    const int edits = 1 + static_cast<int>(rng() % 4);
    for (int e = 0; e < edits && !bytes.empty(); ++e) {
      const std::size_t at = rng() % bytes.size();
      switch (rng() % 4) {
        case 0: bytes[at] = static_cast<char>(rng()); break;
        case 1: bytes.resize(at); break;
        case 2: bytes.insert(at, 1 + rng() % 40, static_cast<char>(rng())); break;
        default: bytes.erase(at, 1 + rng() % 40); break;
      }
    }
    writeRaw(current(), bytes);
    const AuditReadout r = read();
    for (const AuditRecord& got : r.records) {
      EXPECT_TRUE(got == record(0) || got == record(1) || got == record(2)) << round;
    }
    if (bytes != full) {
      EXPECT_FALSE(r.problems.empty() && r.records.size() == 3) << round;
    }
  }
}

TEST_F(Audit, MissingDirectoryIsAnEmptyLogAndBadOptionsAreRefused) {
  const AuditReadout r = read();
  EXPECT_TRUE(r.records.empty());
  EXPECT_TRUE(r.problems.empty());
  EXPECT_FALSE(AuditLog::open(AuditOptions{dir(), 100, 3}, key_).ok());
  EXPECT_FALSE(AuditLog::open(AuditOptions{dir(), 64 * 1024, 0}, key_).ok());
  auto bad = AuditLog::open(AuditOptions{"/proc/self/audit", 64 * 1024, 3}, key_);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("/proc/self/audit"), std::string::npos);
}

}  // namespace
}  // namespace sotto::privacy
