// SPDX-License-Identifier: MIT
// Audit log: round trip, rotation under the cap and across the chain, the crash rule (torn record, lagging head),
// truncation at every byte, reordering, deletion, tampering, format-1 files, no plaintext on disk.
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include <gtest/gtest.h>
#include <sodium.h>

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

// Format 2's file header.
constexpr std::size_t kTestHeaderBytes = 104;

// A format-1 file (before the chain), built as that version wrote it: 32-byte header, records
// [u32 length][nonce][XChaCha20-Poly1305 of the record under the audit key], associated data = header | number |
// length.
std::string formatOneFile(const hal::SecretKey& key, const std::vector<AuditRecord>& records) {
  auto le = [](std::string& out, std::uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) out += static_cast<char>(v >> (8 * i));
  };
  std::string file = "SOTTOAUD";
  le(file, 1, 4);
  le(file, 0, 4);
  file += std::string(16, '\x42');
  std::uint64_t seq = 0;
  for (const AuditRecord& r : records) {
    std::string plain(1, '\x01');
    le(plain, static_cast<std::uint64_t>(r.timeMs), 8);
    for (const std::string* s : {&r.route, &r.reason, &r.host}) {
      le(plain, s->size(), 2);
      plain += *s;
    }
    le(plain, r.sent.size(), 4);
    plain += r.sent;
    const std::size_t len = plain.size() + crypto_aead_xchacha20poly1305_ietf_ABYTES;
    std::string ad = file.substr(0, 32);
    le(ad, seq++, 8);
    le(ad, len, 4);
    unsigned char nonce[crypto_aead_xchacha20poly1305_ietf_NPUBBYTES];
    randombytes_buf(nonce, sizeof nonce);
    std::string cipher(len, '\0');
    unsigned long long clen = 0;
    crypto_aead_xchacha20poly1305_ietf_encrypt(reinterpret_cast<unsigned char*>(cipher.data()), &clen,
                                               reinterpret_cast<const unsigned char*>(plain.data()), plain.size(),
                                               reinterpret_cast<const unsigned char*>(ad.data()), ad.size(), nullptr,
                                               nonce, key.bytes().data());
    le(file, len, 4);
    file.append(reinterpret_cast<const char*>(nonce), sizeof nonce);
    file += cipher;
  }
  return file;
}

class Audit : public ::testing::Test {
 protected:
  std::string dir() const { return tmp_.path() + "/audit"; }
  std::string current() const { return dir() + "/audit.log"; }
  std::string head() const { return dir() + "/" + kAuditHeadName; }
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
  ASSERT_EQ(::stat(head().c_str(), &st), 0);
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
  EXPECT_TRUE(r.notes.empty());
  EXPECT_EQ(r.tampered, 0u);
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
  for (const std::string& path : {current(), head()}) {
    const std::string raw = readRaw(path);
    EXPECT_EQ(raw.find("CANARY"), std::string::npos);
    EXPECT_EQ(raw.find("call me"), std::string::npos);
    EXPECT_EQ(raw.find("api.example.com"), std::string::npos);
    EXPECT_EQ(raw.find("cloud"), std::string::npos);
  }
  const AuditReadout wrong = read(keyOf(8));
  EXPECT_TRUE(wrong.records.empty());
  EXPECT_GE(wrong.tampered, 1u);
  ASSERT_FALSE(wrong.problems.empty());
  EXPECT_NE(wrong.problems[0].find("fails authentication"), std::string::npos) << wrong.problems[0];
}

TEST_F(Audit, RotationKeepsTheCapAndTheChain) {
  const std::uint64_t maxFile = 4096;
  const std::uint32_t files = 3;
  auto log = open(maxFile, files);
  ASSERT_TRUE(log);
  for (int i = 0; i < 90; ++i) ASSERT_TRUE(log->append(record(i)).ok()) << i;  // ~20 per file: 4+ rotations
  std::uint64_t total = 0;
  std::size_t count = 0;
  for (const auto& e : fs::directory_iterator(dir())) {
    if (e.path().filename() == kAuditHeadName || e.path().filename() == "audit.lock") continue;
    EXPECT_LE(e.file_size(), maxFile) << e.path();
    total += e.file_size();
    ++count;
  }
  EXPECT_EQ(count, files);
  EXPECT_LE(total, maxFile * files);
  const AuditReadout r = read();
  EXPECT_TRUE(r.problems.empty()) << r.problems.at(0);
  EXPECT_EQ(r.tampered, 0u);
  ASSERT_FALSE(r.records.empty());
  EXPECT_LT(r.records.size(), 90u);
  EXPECT_EQ(r.records.back(), record(89));  // the newest kept, in order, across the files
  for (std::size_t i = 1; i < r.records.size(); ++i) EXPECT_EQ(r.records[i].timeMs, r.records[i - 1].timeMs + 1);

  // A record that cannot fit a file is refused, nothing written.
  EXPECT_EQ(log->append(record(0, std::string(maxFile, 'x'))).error().code, Errc::invalid_argument);
  // Lowering the file count drops the excess files on the next open; the head moves on with them.
  log.reset();
  auto smaller = open(maxFile, 2);
  ASSERT_TRUE(smaller);
  EXPECT_TRUE(smaller->warnings().empty());
  EXPECT_FALSE(fs::exists(dir() + "/audit.log.2"));
  const AuditReadout after = read();
  EXPECT_EQ(after.tampered, 0u) << after.problems.at(0);
  EXPECT_EQ(after.records.back(), record(89));

  // The chain crosses files: the older file removed, or two files swapped, is reported.
  const std::string older = readRaw(dir() + "/audit.log.1");
  fs::remove(dir() + "/audit.log.1");
  AuditReadout gone = read();
  EXPECT_GT(gone.tampered, 0u);
  EXPECT_NE(gone.problems.at(0).find("deleted"), std::string::npos) << gone.problems.at(0);
  writeRaw(dir() + "/audit.log.1", readRaw(current()));
  writeRaw(current(), older);
  EXPECT_GT(read().tampered, 0u);
}

// A crash between appending a record and sealing the head: the head lags by that one record.
TEST_F(Audit, CrashRuleTheHeadMayLagByTheLastVerifiedRecord) {
  std::string headAfterTwo;
  {
    auto log = open();
    for (int i = 0; i < 2; ++i) ASSERT_TRUE(log->append(record(i)).ok());
    headAfterTwo = readRaw(head());
    ASSERT_TRUE(log->append(record(2)).ok());
  }
  const std::string full = readRaw(current());
  writeRaw(head(), headAfterTwo);
  AuditReadout r = read();
  EXPECT_EQ(r.tampered, 0u) << r.problems.at(0);
  ASSERT_EQ(r.records.size(), 3u);
  ASSERT_EQ(r.notes.size(), 1u);
  EXPECT_NE(r.notes[0].find("lags"), std::string::npos) << r.notes[0];

  // A crash inside the third record's write: the sealed two stay, the torn bytes are noted, nothing failed.
  const std::size_t recordBytes = (full.size() - kTestHeaderBytes) / 3;  // the three records have one size
  for (std::size_t cut = full.size() - recordBytes + 1; cut < full.size(); cut += 7) {
    writeRaw(current(), full.substr(0, cut));
    r = read();
    ASSERT_EQ(r.records.size(), 2u) << cut;
    EXPECT_EQ(r.torn, 1u);
    EXPECT_EQ(r.tampered, 0u) << cut << " " << r.problems.at(0);
    EXPECT_NE(r.notes.at(0).find("incomplete"), std::string::npos) << r.notes[0];
  }
  // The writer cuts the torn record off, appends after the good ones, and the log reads clean again.
  {
    auto log = open();
    ASSERT_TRUE(log);
    ASSERT_EQ(log->warnings().size(), 1u);
    ASSERT_TRUE(log->append(record(3)).ok());
  }
  r = read();
  EXPECT_TRUE(r.problems.empty() && r.notes.empty());
  ASSERT_EQ(r.records.size(), 3u);
  EXPECT_EQ(r.records[2], record(3));

  // The writer reseals a head that lags by one verified record.
  const std::string headNow = readRaw(head());
  {
    auto log = open();
    ASSERT_TRUE(log->append(record(4)).ok());
  }
  writeRaw(head(), headNow);
  {
    auto log = open();
    ASSERT_TRUE(log);
    ASSERT_EQ(log->warnings().size(), 1u);
    EXPECT_NE(log->warnings()[0].find("resealed"), std::string::npos);
  }
  r = read();
  EXPECT_TRUE(r.problems.empty() && r.notes.empty());
  EXPECT_EQ(r.records.size(), 4u);

  // A head two records behind is no crash: reported.
  {
    auto log = open();
    ASSERT_TRUE(log->append(record(5)).ok());
  }
  writeRaw(head(), headNow);
  r = read();
  EXPECT_GT(r.tampered, 0u);
  EXPECT_NE(r.problems.at(0).find("does not match the sealed head"), std::string::npos) << r.problems.at(0);
}

TEST_F(Audit, TruncationAtEveryByteIsDetected) {
  {
    auto log = open(4096, 3);
    for (int i = 0; i < 3; ++i) ASSERT_TRUE(log->append(record(i)).ok());
  }
  const std::string full = readRaw(current());
  const std::size_t recordBytes = (full.size() - kTestHeaderBytes) / 3;
  for (std::size_t cut = 0; cut < full.size(); ++cut) {
    writeRaw(current(), full.substr(0, cut));
    const AuditReadout r = read();
    ASSERT_GT(r.tampered, 0u) << "a cut at byte " << cut << " went unnoticed";
    ASSERT_FALSE(r.firstBad.empty()) << cut;
    if (cut >= kTestHeaderBytes) {
      // The first record not wholly there is named.
      const std::size_t whole = (cut - kTestHeaderBytes) / recordBytes;
      EXPECT_EQ(r.firstBad.rfind("record " + std::to_string(whole + 1), 0), 0u) << cut << ": " << r.firstBad;
      EXPECT_EQ(r.records.size(), whole) << cut;
    }
  }
  // At a record boundary the message says what was cut.
  writeRaw(current(), full.substr(0, kTestHeaderBytes + 2 * recordBytes));
  AuditReadout r = read();
  EXPECT_NE(r.problems.at(0).find("record 3 cut off"), std::string::npos) << r.problems.at(0);
  EXPECT_EQ(r.firstBad, "record 3");
  writeRaw(current(), full);
  EXPECT_EQ(read().tampered, 0u);

  // The same for a rotated file: fill two files, then cut the older one anywhere.
  {
    auto log = open(4096, 3);
    for (int i = 3; i < 30; ++i) ASSERT_TRUE(log->append(record(i)).ok());
  }
  ASSERT_TRUE(fs::exists(dir() + "/audit.log.1"));
  const std::string rotated = readRaw(dir() + "/audit.log.1");
  EXPECT_EQ(read().tampered, 0u);
  // Every byte of the header and the first record, then every seventh (the file is 4 KiB; the filesystem is slow).
  for (std::size_t cut = 0; cut < rotated.size(); cut += cut < kTestHeaderBytes + recordBytes ? 1 : 7) {
    writeRaw(dir() + "/audit.log.1", rotated.substr(0, cut));
    ASSERT_GT(read().tampered, 0u) << "a cut at byte " << cut << " of audit.log.1 went unnoticed";
  }
  writeRaw(dir() + "/audit.log.1", rotated);
  EXPECT_EQ(read().tampered, 0u);
}

TEST_F(Audit, ReorderAndDeleteAreNamed) {
  {
    auto log = open();
    for (int i = 0; i < 4; ++i) ASSERT_TRUE(log->append(record(i)).ok());
  }
  const std::string full = readRaw(current());
  const std::size_t n = (full.size() - kTestHeaderBytes) / 4;
  auto rec = [&](int i) { return full.substr(kTestHeaderBytes + static_cast<std::size_t>(i) * n, n); };
  const std::string header = full.substr(0, kTestHeaderBytes);

  // Records 2 and 3 swapped: the content still decrypts, the order does not verify.
  writeRaw(current(), header + rec(0) + rec(2) + rec(1) + rec(3));
  AuditReadout r = read();
  EXPECT_GT(r.tampered, 0u);
  EXPECT_EQ(r.firstBad.rfind("record 2 (audit.log", 0), 0u) << r.firstBad;
  EXPECT_NE(r.problems.at(1).find("reordered"), std::string::npos) << r.problems.at(1);

  // Record 2 deleted from the middle.
  writeRaw(current(), header + rec(0) + rec(2) + rec(3));
  r = read();
  EXPECT_GT(r.tampered, 0u);
  EXPECT_EQ(r.firstBad.rfind("record 2 (audit.log", 0), 0u) << r.firstBad;
  EXPECT_NE(r.problems.at(0).find("record 2 deleted"), std::string::npos) << r.problems.at(0);
  EXPECT_EQ(r.records.size(), 3u);  // what is left is still shown

  // The first record deleted (the header says where the file starts).
  writeRaw(current(), header + rec(1) + rec(2) + rec(3));
  r = read();
  EXPECT_GT(r.tampered, 0u);
  EXPECT_EQ(r.firstBad.rfind("record 1 (audit.log", 0), 0u) << r.firstBad;

  // A record duplicated (replayed).
  writeRaw(current(), full + rec(3));
  EXPECT_GT(read().tampered, 0u);

  // The head deleted: the end cannot be checked, reported.
  writeRaw(current(), full);
  EXPECT_EQ(read().tampered, 0u);
  fs::remove(head());
  r = read();
  EXPECT_GT(r.tampered, 0u);
  EXPECT_NE(r.problems.at(0).find("audit.head is missing"), std::string::npos);
  // Every file deleted, the head kept.
  {
    auto log = open();  // a new chain (new head), the old file kept as evidence
    ASSERT_TRUE(log);
    EXPECT_FALSE(log->warnings().empty());
    ASSERT_TRUE(log->append(record(7)).ok());
  }
  r = read();
  EXPECT_GT(r.tampered, 0u);  // the evidence file belongs to another chain
  EXPECT_NE(r.problems.at(0).find("another chain"), std::string::npos) << r.problems.at(0);
  fs::remove(dir() + "/audit.log.1");
  EXPECT_EQ(read().tampered, 0u);
  fs::remove(current());
  r = read();
  EXPECT_GT(r.tampered, 0u);
  EXPECT_NE(r.problems.at(0).find("no file holds them"), std::string::npos) << r.problems.at(0);
}

TEST_F(Audit, TamperedRecordsAreDetected) {
  {
    auto log = open();
    for (int i = 0; i < 3; ++i) ASSERT_TRUE(log->append(record(i)).ok());
  }
  const std::string full = readRaw(current());
  const std::size_t recordBytes = (full.size() - kTestHeaderBytes) / 3;
  // A flipped bit in the second record's ciphertext: it alone is reported; the others still read.
  std::string flipped = full;
  flipped[kTestHeaderBytes + recordBytes + 60] ^= 0x01;
  writeRaw(current(), flipped);
  AuditReadout r = read();
  ASSERT_EQ(r.records.size(), 2u);
  EXPECT_EQ(r.records[0], record(0));
  EXPECT_EQ(r.records[1], record(2));
  EXPECT_EQ(r.tampered, 1u);
  EXPECT_NE(r.problems.at(0).find("record 2"), std::string::npos) << r.problems.at(0);
  EXPECT_NE(r.problems.at(0).find("fails authentication"), std::string::npos) << r.problems.at(0);

  // A flipped bit in a chain MAC: the record reads, the chain does not.
  std::string macFlipped = full;
  macFlipped[kTestHeaderBytes + 2 * recordBytes - 1] ^= 0x01;  // record 2's MAC
  writeRaw(current(), macFlipped);
  r = read();
  EXPECT_GT(r.tampered, 0u);
  EXPECT_EQ(r.firstBad.rfind("record 2", 0), 0u) << r.firstBad;
  EXPECT_NE(r.problems.at(0).find("does not chain"), std::string::npos) << r.problems.at(0);

  // A corrupt length: the rest of the file is skipped, no crash.
  std::string badLength = full;
  badLength[kTestHeaderBytes + recordBytes + 3] = static_cast<char>(0x7F);
  writeRaw(current(), badLength);
  r = read();
  EXPECT_EQ(r.records.size(), 1u);
  EXPECT_GT(r.tampered, 0u);
  EXPECT_NE(r.problems.at(0).find("impossible length"), std::string::npos);

  // A changed header (log id, first number, reserved bytes) fails; a foreign file is reported, not parsed.
  for (std::size_t at : {std::size_t{12}, std::size_t{20}, std::size_t{33}, std::size_t{50}}) {
    std::string header = full;
    header[at] ^= 0x01;
    writeRaw(current(), header);
    r = read();
    EXPECT_GT(r.tampered, 0u) << at;
    EXPECT_TRUE(r.records.empty()) << at;
  }
  writeRaw(current(), "hello, this is not an audit log at all, it is just text");
  r = read();
  EXPECT_TRUE(r.records.empty());
  EXPECT_NE(r.problems.at(0).find("corrupt header"), std::string::npos);

  // The writer keeps a tampered file as evidence (audit.log.1) and continues the chain in a new one; the damage
  // stays reported after the restart.
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

  // So does a cut at a record boundary: a restart does not launder it.
  fs::remove(dir() + "/audit.log.1");
  fs::remove(current());
  fs::remove(head());
  {
    auto log = open();
    for (int i = 0; i < 3; ++i) ASSERT_TRUE(log->append(record(i)).ok());
  }
  const std::string again = readRaw(current());
  writeRaw(current(), again.substr(0, again.size() - recordBytes));
  {
    auto log = open();
    ASSERT_TRUE(log);
    EXPECT_FALSE(log->warnings().empty());
    ASSERT_TRUE(log->append(record(9)).ok());
  }
  r = read();
  EXPECT_GT(r.tampered, 0u);
  EXPECT_EQ(r.firstBad.rfind("record 3", 0), 0u) << r.firstBad;
  EXPECT_EQ(r.records.size(), 3u);
}

// Two writers on one log (the daemon and `sotto ask`): each append continues from what the other sealed, so the
// chain stays whole; before the lock, both wrote the same record number at the same offset.
TEST_F(Audit, TwoWritersKeepOneChain) {
  auto a = open(4096, 3);
  auto b = open(4096, 3);
  ASSERT_TRUE(a && b);
  for (int i = 0; i < 40; ++i) ASSERT_TRUE((i % 3 == 0 ? b : a)->append(record(i)).ok()) << i;  // rotates too
  const AuditReadout r = read();
  EXPECT_EQ(r.tampered, 0u) << r.problems.at(0);
  ASSERT_FALSE(r.records.empty());
  EXPECT_EQ(r.records.back(), record(39));
  for (std::size_t i = 1; i < r.records.size(); ++i) EXPECT_EQ(r.records[i].timeMs, r.records[i - 1].timeMs + 1);
}

TEST_F(Audit, AHeadThatCannotBeSealedTakesTheRecordBack) {
  auto log = open();
  ASSERT_TRUE(log);
  for (int i = 0; i < 2; ++i) ASSERT_TRUE(log->append(record(i)).ok());
  const std::string sealed = readRaw(head());
  const std::string file = readRaw(current());
  // The head cannot be replaced (a directory in its place: works as root too).
  fs::remove(head());
  fs::create_directory(head());
  auto failed = log->append(record(2));
  ASSERT_FALSE(failed.ok());
  EXPECT_NE(failed.error().message.find("head"), std::string::npos) << failed.error().message;
  EXPECT_EQ(readRaw(current()), file);  // the unsealed record was taken back
  fs::remove(head());
  writeRaw(head(), sealed);
  ASSERT_TRUE(log->append(record(3)).ok());
  const AuditReadout r = read();
  EXPECT_EQ(r.tampered, 0u) << r.problems.at(0);
  ASSERT_EQ(r.records.size(), 3u);
  EXPECT_EQ(r.records[2], record(3));
}

// A log written before the chain existed (format 1) is read and said to be unchained; the writer moves it aside
// and starts the chain.
TEST_F(Audit, FormatOneFilesAreReadAndReportedAsUnchained) {
  fs::create_directories(dir());
  writeRaw(current(), formatOneFile(key_, {record(0), record(1)}));
  AuditReadout r = read();
  EXPECT_EQ(r.tampered, 0u) << r.problems.at(0);
  EXPECT_EQ(r.legacy, 1u);
  ASSERT_EQ(r.records.size(), 2u);
  EXPECT_EQ(r.records[1], record(1));
  ASSERT_EQ(r.notes.size(), 1u);
  EXPECT_NE(r.notes[0].find("format 1"), std::string::npos) << r.notes[0];
  EXPECT_NE(r.notes[0].find("cannot be detected"), std::string::npos) << r.notes[0];
  {
    auto log = open();
    ASSERT_TRUE(log);
    ASSERT_EQ(log->warnings().size(), 1u);
    EXPECT_NE(log->warnings()[0].find("format 1"), std::string::npos) << log->warnings()[0];
    ASSERT_TRUE(log->append(record(2)).ok());
  }
  r = read();
  EXPECT_EQ(r.tampered, 0u) << r.problems.at(0);
  EXPECT_EQ(r.legacy, 1u);
  ASSERT_EQ(r.records.size(), 3u);
  EXPECT_EQ(r.records[2], record(2));
  // A format-1 file put after the chained ones is out of place.
  writeRaw(dir() + "/audit.log.1", readRaw(current()));
  writeRaw(current(), formatOneFile(key_, {record(5)}));
  EXPECT_GT(read().tampered, 0u);
  // A tampered format-1 record still fails.
  std::string bad = formatOneFile(key_, {record(0)});
  bad[50] ^= 0x01;
  writeRaw(current(), bad);
  fs::remove(dir() + "/audit.log.1");
  fs::remove(head());
  EXPECT_EQ(read().tampered, 1u);
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
      // Only bytes appended after the sealed end pass as a crash's torn record; all else fails the check.
      EXPECT_TRUE(r.tampered > 0 || (r.torn == 1 && bytes.size() > full.size() &&
                                     bytes.compare(0, full.size(), full) == 0))
          << round;
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
