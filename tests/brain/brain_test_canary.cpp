// SPDX-License-Identifier: MIT
// The privacy canary: utterances with planted personal data go through the whole brain in every privacy mode,
// escalating to the real loopback server (our own engine over the OpenAI protocol). Then the bytes the server
// received, the decrypted audit log, the decrypted answer cache and everything logged are searched: no raw value
// appears where the policy forbids it. Offline mode must not even create an internet socket.
#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>

#include "app/serve/server.h"
#include "engine/cache/sealed_file.h"
#include "engine/llm/generator.h"
#include "engine/llm/model.h"
#include "engine/llm/tokenizer.h"
#include "engine/privacy/audit.h"
#include "engine/privacy/pii.h"
#include "sotto/hal/keystore.h"
#include "tests/brain/brain_test_util.h"

// Every internet socket and connection attempt of this process (the test links with --wrap=socket,--wrap=connect).
namespace {
std::atomic<int> gInetSockets{0};
std::atomic<int> gInetConnects{0};
}  // namespace

extern "C" {
int __real_socket(int domain, int type, int protocol);
int __real_connect(int fd, const struct sockaddr* addr, socklen_t len);
int __wrap_socket(int domain, int type, int protocol) {
  if (domain == AF_INET || domain == AF_INET6) gInetSockets.fetch_add(1);
  return __real_socket(domain, type, protocol);
}
int __wrap_connect(int fd, const struct sockaddr* addr, socklen_t len) {
  if (addr != nullptr && (addr->sa_family == AF_INET || addr->sa_family == AF_INET6)) gInetConnects.fetch_add(1);
  return __real_connect(fd, addr, len);
}
}

namespace sotto::answer::test {
namespace {

// A planted value, how it may appear in text, and whether the default policy keeps it on the device.
struct Plant {
  const char* utterance;
  const char* value;  // the raw value that must never leave (as it appears in the utterance)
  bool localOnly;     // default policy: local-only (never sent, even anonymized, in private mode)
  const char* folded = nullptr;  // the value as the classifier reads it (ASCII digits, no format characters)
  // A redactable value that also reads as a local-only one: the model may suspect the local-only type, and private
  // mode then keeps the request on the device (fail closed) instead of sending it redacted. Either is right.
  bool mayStayLocal = false;
};

const Plant kPlants[] = {
    {"please text my sister at five five five oh one two three about dinner", "five five five oh one two three", false},
    {"write an email to jane dot doe at example dot com about the picnic", "jane dot doe at example dot com", false},
    {"remind me what my credit card number 4111 1111 1111 1111 is for", "4111 1111 1111 1111", true},
    {"my password is tangerine zebra forty two what should I change it to", "tangerine zebra forty two", true},
    // Unusual phrasings of every local-only type (issue 18): cues after the value, a medication no lexicon has,
    // an IBAN spelt out, a policy number leading the sentence. Found by the trained model or only suspected: in
    // private mode each keeps its request on the device.
    {"four seven seven two is the code for the side gate so what rhymes with gate", "four seven seven two", true},
    {"my dad started on vericiguat last week what should he eat with it", "vericiguat", true},
    {"one two three four five six seven eight nine that is my social can you explain what it is for",
     "one two three four five six seven eight nine", true},
    {"send the refund to g b eight two w e s t one two three four five six nine eight seven six five four three two "
     "and tell me when it arrives",
     "g b eight two w e s t one two three four five six nine eight seven six five four three two", true},
    {"p x four four nine one two seven is the policy that needs renewing so what does renewal usually cost",
     "p x four four nine one two seven", true},
};
// The first four: what the rules alone recognize, which every mode but offline escalates anonymized.
constexpr std::size_t kRuleRecognized = 4;

// Issue 19: every form that reached a logging loopback server in private mode before (look-alike digits and
// invisible characters, spelt-out values, secrets by shape, national ids, postcodes, a name beside a phone).
const Plant kIssue19Plants[] = {
    {"my ssn is \uFF11\uFF12\uFF13-\uFF14\uFF15-\uFF16\uFF17\uFF18\uFF19 what form do I need",
     "\uFF11\uFF12\uFF13-\uFF14\uFF15-\uFF16\uFF17\uFF18\uFF19", true, "123-45-6789"},
    {"my ssn is 123\u200B45\u200B6789 what form do I need", "123\u200B45\u200B6789", true, "123456789"},
    {"remind me what my card 4111\u00A01111\u00A01111\u00A01111 is for", "4111\u00A01111\u00A01111\u00A01111", true,
     "4111 1111 1111 1111"},
    {"my pin's 4412 what rhymes with door", "4412", true},
    {"code for the front door: 4 4 1 2 and what rhymes with door", "4 4 1 2", true},
    {"s s n one two three dash four five dash six seven eight nine which form is that for",
     "one two three dash four five dash six seven eight nine", true},
    {"my national insurance number is QQ 12 34 56 C which office handles it", "QQ 12 34 56 C", true},
    {"my medicare number is 2123 45670 1 what does it cover", "2123 45670 1", true},
    {"my driving licence number is MORGA753116SM9IJ how do I renew it", "MORGA753116SM9IJ", true},
    {"my employee id is E-48213 what is a payslip", "E-48213", true},
    {"my api key is sk-proj-4f9aK2LmQx7Zt1VbN8cR3eWy6HuJ0pDs why does it fail", "4f9aK2LmQx7Zt1VbN8cR3eWy6HuJ0pDs", true},
    {"legal winner thank year wave sausage worth useful legal winner thank yellow is that a good seed",
     "sausage worth useful", true},
    // Letters one by one are how an IBAN, a policy number or a password is spelt out too.
    {"write a poem for j o h n s m i t h", "j o h n s m i t h", false, nullptr, true},
    {"send the parcel to flat 4, 12 high street, london SW1A 1AA", "12 high street", false},
    {"how far is SW1A 1AA from the station", "SW1A 1AA", false},
    {"call me on \u0665\u0665\u0665 \u0661\u0662\u0663 \u0664\u0665\u0666\u0667 about dinner",
     "\u0665\u0665\u0665 \u0661\u0662\u0663 \u0664\u0665\u0666\u0667", false, "555 123 4567"},
    {"i met zanele yesterday, 555 123 4567 is her number", "zanele", false},
};

// Issue 36: what a hostile probe still sent in private mode, whole or in part: names in ordinary sentences, e-mail
// addresses typed to fool harvesters, coordinates, a name spelt in the NATO alphabet. Each leaves only as a
// placeholder (or stays on the device).
const Plant kIssue36Plants[] = {
    {"did marguerite fontaine call today", "fontaine", false},
    {"what is ingrid solberg's favourite colour", "solberg", false},
    {"is tomasz nowak coming to dinner", "nowak", false},
    {"write to jane(at)example(dot)com about the picnic", "jane(at)example(dot)com", false},
    {"forward it to john[at]example[dot]org please", "john[at]example[dot]org", false},
    {"send it to john [at] example [dot] org please", "john [at] example [dot] org", false},
    {"i am at 51.5007, -0.1246 where is the nearest cafe", "51.5007", false},
    {"my friend is called kilo alpha tango india what is a good gift", "kilo alpha tango india", false},
};

// Captures stderr (where the log goes without a journal) into a file for the duration.
class StderrCapture {
 public:
  explicit StderrCapture(const std::string& path) {
    std::fflush(stderr);
    saved_ = ::dup(2);
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    ::dup2(fd, 2);
    ::close(fd);
  }
  ~StderrCapture() {
    std::fflush(stderr);
    ::dup2(saved_, 2);
    ::close(saved_);
  }

 private:
  int saved_ = -1;
};

std::string readText(const std::string& path) {
  std::string s;
  if (std::FILE* f = std::fopen(path.c_str(), "rb")) {
    char buf[4096];
    for (size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0;) s.append(buf, n);
    std::fclose(f);
  }
  return s;
}

class Canary : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    auto model = llm::Model::load(storiesModel());
    ASSERT_TRUE(model.ok()) << model.error().message;
    model_ = std::move(*model).release();
    auto tok = llm::Tokenizer::fromGguf(model_->file());
    ASSERT_TRUE(tok.ok());
    tokenizer_ = std::move(*tok).release();
    llm::GeneratorOptions go;
    go.context.nCtx = 256;
    auto gen = llm::Generator::create(*model_, *tokenizer_, go);
    ASSERT_TRUE(gen.ok());
    generator_ = std::move(*gen).release();
    serve::ServerOptions so;
    so.maxTokensCap = 8;
    auto server = serve::LoopbackServer::start(*generator_, *model_, so);
    ASSERT_TRUE(server.ok()) << server.error().message;
    server_ = std::move(*server).release();
  }
  static void TearDownTestSuite() {
    delete server_;
    delete generator_;
    delete tokenizer_;
    delete model_;
  }

  // Runs every plant through a fresh brain in `mode`; returns what the checks search.
  struct Evidence {
    std::vector<std::string> serverBodies;  // new since the run started
    std::vector<std::string> audited;       // decrypted audit records' bytes
    std::string cachePlain;                 // decrypted answer cache
    std::string logs;                       // stderr + warnings + decision lines
    std::string answers;
    int inetSockets = 0, inetConnects = 0;
    size_t escalated = 0;
  };
  Evidence run(privacy::PrivacyMode mode) { return run(mode, kPlants); }
  template <std::size_t N>
  Evidence run(privacy::PrivacyMode mode, const Plant (&plants)[N], std::vector<bool>* escalatedEach = nullptr) {
    ScratchDir dir;
    Evidence ev;
    config::Config c = testConfig(dir.path());
    BrainOverrides o = testOverrides();
    o.privacy = mode;
    o.cloudUrl = "http://127.0.0.1:" + std::to_string(server_->port());
    o.forced = router::ForcedRoute::cloud;  // escalate whenever the mode and the policy allow it
    const size_t before = server_->receivedBodies().size();
    const int sockets0 = gInetSockets.load(), connects0 = gInetConnects.load();
    const std::string logPath = dir.path() + "/stderr.log";
    {
      StderrCapture capture(logPath);
      auto b = makeBrain(c, o);
      if (!b) return ev;
      for (const Plant& p : plants) {
        RecordingSink sink;
        const AskResult r = ask(*b, p.utterance, &sink);
        ev.escalated += r.escalated ? 1 : 0;
        if (escalatedEach != nullptr) escalatedEach->push_back(r.escalated);
        ev.answers += r.answer + "\n";
        for (const auto& l : sink.lines) ev.logs += l + "\n";
        for (const auto& w : sink.warnings) ev.logs += w + "\n";
        if (r.sent) {
          EXPECT_TRUE(r.escalated);
        }
      }
    }
    ev.inetSockets = gInetSockets.load() - sockets0;
    ev.inetConnects = gInetConnects.load() - connects0;
    ev.logs += readText(logPath);
    const auto bodies = server_->receivedBodies();
    ev.serverBodies.assign(bodies.begin() + static_cast<ptrdiff_t>(std::min(before, bodies.size())), bodies.end());
    hal::KeystoreSpec ks;
    ks.stateDir = dir.path();
    ks.createIfMissing = false;
    auto keystore = hal::KeystoreRegistry::instance().open(ks);
    EXPECT_TRUE(keystore.ok());
    if (!keystore.ok()) return ev;
    auto auditKey = (*keystore)->deriveKey(privacy::kAuditKeyPurpose);
    auto readout = privacy::readAuditLog(dir.path() + "/" + privacy::kAuditDirName, *auditKey);
    EXPECT_TRUE(readout.ok());
    if (readout.ok()) {
      EXPECT_EQ(readout->tampered, 0u);
      for (const auto& rec : readout->records) ev.audited.push_back(rec.sent);
    }
    auto cacheKey = (*keystore)->deriveKey("cache");
    if (auto plain = cache::readSealedFile(dir.path() + "/answers.cache", cacheKey->bytes())) {
      ev.cachePlain.assign(plain->begin(), plain->end());
    }
    return ev;
  }

  static void expectAbsent(const Evidence& ev, const Plant& p, const char* mode) {
    expectAbsent(ev, p.value, mode);
    if (p.folded != nullptr) expectAbsent(ev, p.folded, mode);
  }
  static void expectAbsent(const Evidence& ev, const std::string& value, const char* mode) {
    for (const auto& b : ev.serverBodies) EXPECT_EQ(b.find(value), std::string::npos) << mode << ": server got " << value;
    for (const auto& a : ev.audited) EXPECT_EQ(a.find(value), std::string::npos) << mode << ": audit has " << value;
    EXPECT_EQ(ev.cachePlain.find(value), std::string::npos) << mode << ": cache has " << value;
    EXPECT_EQ(ev.logs.find(value), std::string::npos) << mode << ": logs have " << value << "\n" << ev.logs;
  }

  static llm::Model* model_;
  static llm::Tokenizer* tokenizer_;
  static llm::Generator* generator_;
  static serve::LoopbackServer* server_;
};
llm::Model* Canary::model_ = nullptr;
llm::Tokenizer* Canary::tokenizer_ = nullptr;
llm::Generator* Canary::generator_ = nullptr;
serve::LoopbackServer* Canary::server_ = nullptr;

TEST_F(Canary, OfflineOpensNoSocketAndSendsNothing) {
  const Evidence ev = run(privacy::PrivacyMode::offline);
  EXPECT_EQ(ev.inetSockets, 0);
  EXPECT_EQ(ev.inetConnects, 0);
  EXPECT_TRUE(ev.serverBodies.empty());
  EXPECT_TRUE(ev.audited.empty());
  EXPECT_EQ(ev.escalated, 0u);
  for (const Plant& p : kPlants) expectAbsent(ev, p, "offline");
}

TEST_F(Canary, PrivateSendsOnlyAnonymizedAndNeverLocalOnlyTypes) {
  const Evidence ev = run(privacy::PrivacyMode::private_);
  size_t redactable = 0;
  for (const Plant& p : kPlants) redactable += p.localOnly ? 0 : 1;
  EXPECT_EQ(ev.escalated, redactable);
  EXPECT_EQ(ev.serverBodies.size(), redactable);
  ASSERT_EQ(ev.audited.size(), redactable);
  // What the server received is exactly what the audit log holds, and it carries placeholders.
  EXPECT_EQ(ev.serverBodies, ev.audited);
  for (const auto& b : ev.serverBodies) EXPECT_NE(b.find("_1]"), std::string::npos) << b;
  for (const Plant& p : kPlants) expectAbsent(ev, p, "private");
  // The local-only utterances left no trace at all: not even their harmless words reached the server.
  for (const auto& b : ev.serverBodies) {
    for (const char* words : {"credit card", "password", "rhymes", "eat with it", "explain what it is for",
                              "when it arrives", "renewal"}) {
      EXPECT_EQ(b.find(words), std::string::npos) << words;
    }
  }
}

TEST_F(Canary, StandardEscalatesAnonymizedOrKeepsLocal) {
  const Evidence ev = run(privacy::PrivacyMode::standard);
  // A local-only value the model only suspects (no span to redact) stays local even here; the rest escalates.
  EXPECT_GE(ev.escalated, kRuleRecognized);
  EXPECT_LE(ev.escalated, std::size(kPlants));
  EXPECT_EQ(ev.serverBodies.size(), ev.escalated);
  EXPECT_EQ(ev.serverBodies, ev.audited);
  for (const Plant& p : kPlants) expectAbsent(ev, p, "standard");
}

TEST_F(Canary, Issue19FormsNeverLeaveInAnyMode) {
  std::vector<bool> each;
  const Evidence offline = run(privacy::PrivacyMode::offline, kIssue19Plants);
  EXPECT_EQ(offline.inetSockets, 0);
  EXPECT_TRUE(offline.serverBodies.empty());
  for (const Plant& p : kIssue19Plants) expectAbsent(offline, p, "offline");

  const Evidence priv = run(privacy::PrivacyMode::private_, kIssue19Plants, &each);
  ASSERT_EQ(each.size(), std::size(kIssue19Plants));
  for (std::size_t k = 0; k < each.size(); ++k) {
    // Local-only forms keep their request on the device; the others leave only with placeholders (so the test
    // also sees that they were sent at all).
    if (kIssue19Plants[k].mayStayLocal && !each[k]) continue;
    EXPECT_EQ(each[k], !kIssue19Plants[k].localOnly) << kIssue19Plants[k].utterance;
  }
  EXPECT_EQ(priv.serverBodies, priv.audited);
  for (const Plant& p : kIssue19Plants) expectAbsent(priv, p, "private");
  for (const auto& b : priv.serverBodies) {
    for (const char* words : {"form do I need", "what rhymes with door", "which office", "what does it cover",
                              "renew it", "payslip", "why does it fail", "good seed"}) {
      EXPECT_EQ(b.find(words), std::string::npos) << words;
    }
  }

  const Evidence standard = run(privacy::PrivacyMode::standard, kIssue19Plants);
  EXPECT_EQ(standard.serverBodies, standard.audited);
  EXPECT_GE(standard.escalated, 5u);  // at least the redactable ones went, anonymized
  for (const Plant& p : kIssue19Plants) expectAbsent(standard, p, "standard");
}

TEST_F(Canary, Issue36FormsLeaveOnlyAsPlaceholders) {
  std::vector<bool> each;
  const Evidence priv = run(privacy::PrivacyMode::private_, kIssue36Plants, &each);
  EXPECT_EQ(priv.serverBodies, priv.audited);
  for (const Plant& p : kIssue36Plants) expectAbsent(priv, p, "private");
  // They were sent (anonymized), so the check above looked at real requests.
  std::size_t sent = 0;
  for (const bool e : each) sent += e ? 1 : 0;
  EXPECT_GE(sent, std::size(kIssue36Plants) - 1);
  for (const auto& b : priv.serverBodies) EXPECT_NE(b.find("_1]"), std::string::npos) << b;
}

// Issue 36: a local-only type the model only suspects (no span to redact) routes exactly like a found one, on the
// router's own choice too (not only a forced cloud route): with no local model the request is answered "I can't
// do that on the device", never sent as an empty message, never counted against the caps, never cached. (The
// minus-sign SSN of the report is now found as an SSN by the normalizer; the VIN stays a suspicion, the long
// question unclassified.)
TEST_F(Canary, SuspectedLocalOnlyTypesRouteLikeFoundOnesAndAreNeverCached) {
  static const std::string longQuestion = [] {
    std::string s = "what is ";
    while (s.size() <= privacy::PiiClassifier::kMaxTextBytes) s += "very ";
    return s + "big";
  }();
  struct Case {
    privacy::PrivacyMode mode;
    std::string text;
  };
  const Case cases[] = {
      {privacy::PrivacyMode::private_, "my ssn is 123\u221245\u22126789"},
      {privacy::PrivacyMode::standard, "my vin is 1HGCM82633A004352"},
      {privacy::PrivacyMode::standard, longQuestion},
  };
  for (const Case& k : cases) {
    SCOPED_TRACE(k.text.substr(0, 60));
    ScratchDir dir;
    config::Config c = testConfig(dir.path());
    BrainOverrides o = testOverrides();
    o.privacy = k.mode;
    o.cloudUrl = "http://127.0.0.1:" + std::to_string(server_->port());
    const size_t before = server_->receivedBodies().size();
    auto b = makeBrain(c, o);
    ASSERT_NE(b, nullptr);
    RecordingSink sink;
    const AskResult r = ask(*b, k.text, &sink);
    EXPECT_FALSE(r.escalated);
    EXPECT_EQ(r.route, router::Route::cannotAnswer);
    EXPECT_EQ(r.answer, router::kPrivateCannotAnswerText);
    ASSERT_EQ(sink.decisions.size(), 1u);
    EXPECT_EQ(sink.decisions[0].cloudBlock, router::CloudBlock::piiLocalOnly);
    EXPECT_EQ(server_->receivedBodies().size(), before) << "sent: " << server_->receivedBodies().back();
    EXPECT_EQ(b->routerCounts().routes[static_cast<size_t>(router::Route::cloud)], 0u);
    // The same request typed with ASCII hyphens is not answered from a cache that kept the first one.
    if (k.text.find("\u2212") != std::string::npos) {
      const AskResult again = ask(*b, "my ssn is 123-45-6789");
      EXPECT_NE(again.route, router::Route::cache);
      EXPECT_FALSE(again.escalated);
    }
  }
}

// Fail closed: a line the classifier refuses (over its 4 KiB limit, not valid UTF-8) never leaves, in any mode,
// even though its personal data sits where a shorter or clean line would have been anonymized.
TEST_F(Canary, LinesTheClassifierRefusesStayOnTheDevice) {
  static std::string longLine = [] {
    std::string s = "please text my sister at five five five oh one two three ";
    while (s.size() <= privacy::PiiClassifier::kMaxTextBytes) s += "and tell her about the long dinner plans ";
    return s;
  }();
  // The JSON encoder would send the stray byte as U+FFFD: the digits after it are what must not appear.
  static const Plant kRefused[] = {{longLine.c_str(), "five five five oh one two three", false},
                                   {"text my sister at 555 01\xFF""23 about dinner", "555 01", false, "23 about"}};
  for (auto mode : {privacy::PrivacyMode::private_, privacy::PrivacyMode::standard}) {
    std::vector<bool> each;
    const Evidence ev = run(mode, kRefused, &each);
    ASSERT_EQ(each.size(), std::size(kRefused));
    for (bool escalated : each) EXPECT_FALSE(escalated);
    EXPECT_TRUE(ev.serverBodies.empty());
    EXPECT_TRUE(ev.audited.empty());
    for (const Plant& p : kRefused) expectAbsent(ev, p, mode == privacy::PrivacyMode::private_ ? "private" : "standard");
  }
}

}  // namespace
}  // namespace sotto::answer::test
