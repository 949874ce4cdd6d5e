// SPDX-License-Identifier: MIT
// loadString: values reach the right Config members, defaults fill the gaps, line numbers, round trips, all-or-nothing.
#include <gtest/gtest.h>

#include "app/config/settings.h"
#include "app/config/value_codec.h"
#include "test_util.h"

namespace sotto::config {
namespace {

using test::formatted;
using test::sottoXml;

constexpr const char* kAllChanged = R"(<sotto version="1">
  <audio>
    <capture backend="alsa" device="hw:0,0" rate="48000" period-ms="20" periods="3"/>
    <playback backend="wav" device="/tmp/out.wav" rate="44100" period-ms="5" periods="8"/>
  </audio>
  <model path="/opt/m.gguf" threads="4" context="4096" mlock="true" prefix-cache="false"/>
  <speech high-pass-hz="250" noise-suppress-db="-12" agc="false" vad-start-percent="70" vad-continue-percent="40"
          vad-energy-gate-db="18" vad-background-gate-percent="35" vad-background-hold-ms="900" endpoint-silence-ms="500" semantic-endpoint="false" semantic-endpoint-questions="false" endpoint-complete-ms="150" follow-up-ms="4000"
          stop-phrase="halt" stop-threshold="-15" max-utterance-ms="8000"
          aec="false" aec-tail-ms="64" aec-delay-ms="20"/>
  <wake phrase="ok speaker" pronunciation="SPEAKER S P IY K ER" threshold="-25" phone-loop="-5" verify="true" verify-threshold="-70"
        model="/opt/ok-speaker.wake"/>
  <asr acoustic-model="/opt/am" dictionary="/opt/am.dict" language-model="" grammar="false" domain-lm=""
       rescore="false" domain-agreement="0.4" clarify-below="0.35" max-hmm-per-frame="2500" share-scores="false"/>
  <tts engine="espeak-ng" voice="en-us" rate="150" volume="80" espeak-data="/opt/espeak-ng-data"
       max-answer-chars="600" streaming="false" first-phrase-wait-ms="35"/>
  <threads audio-cpus="0" speech-cpus="1-2" llm-cpus="2,3" audio-priority="70" mlockall="false"/>
  <privacy mode="standard" device-id-rotation-h="12">
    <audit max-file-kib="64" files="3"/>
    <policy person="allow" phone="local-only" email="allow" address="local-only" credit-card="redact" iban="allow"
            ssn="redact" date-of-birth="local-only" age="allow" ip-address="local-only" account-number="redact"
            pin-or-password="allow" health="redact" location="local-only"/>
  </privacy>
  <cloud endpoint="https://api.example.com/v1" model="gpt-x" api-key-file="/var/lib/sotto/key"
         connect-timeout-ms="1000" first-byte-timeout-ms="3000" idle-timeout-ms="4000" ca-file="/etc/ca.pem"
         client-cert-file="/var/lib/sotto/dev.pem" client-key-file="/var/lib/sotto/dev.key"/>
  <cache exact-entries="0" semantic-entries="100" ttl-time-sensitive-s="30" ttl-static-s="86400"
         semantic-threshold-percent="85" warm-start-entries="64" max-answer-bytes="2048"/>
  <latency simple-ms="250" local-ms="700" first-token-ms="600" hard-timeout-ms="9000"/>
  <router intent-confidence-percent="55" local-confidence-percent="85" semantic-similarity-percent="92"
          cloud-max-per-hour="10" cloud-max-per-day="100" breaker-failures="4" breaker-failure-percent="40"
          breaker-window="20" breaker-backoff-ms="2000" breaker-max-backoff-ms="60000"/>
  <paths state-dir="/data/sotto" log-dir="/data/log" runtime-dir="/tmp/sotto"/>
  <log level="debug"/>
  <watchdog stall-ms="3000" status-interval-ms="500"/>
</sotto>
)";

TEST(Load, EveryValueReachesItsMember) {
  Config expected;  // spelled out member by member: the table's accessors must agree with this
  expected.capture = {"alsa", "hw:0,0", 48000, 20, 3};
  expected.playback = {"wav", "/tmp/out.wav", 44100, 5, 8};
  expected.modelPath = "/opt/m.gguf";
  expected.llmThreads = 4;
  expected.contextTokens = 4096;
  expected.modelMlock = true;
  expected.modelPrefixCache = false;
  expected.noiseSuppressDb = -12;
  expected.highPassHz = 250;
  expected.agc = false;
  expected.vadStartPercent = 70;
  expected.vadContinuePercent = 40;
  expected.vadEnergyGateDb = 18;
  expected.vadBackgroundGatePercent = 35;
  expected.vadBackgroundHoldMs = 900;
  expected.endpointSilenceMs = 500;
  expected.semanticEndpoint = false;
  expected.semanticEndpointQuestions = false;
  expected.endpointCompleteMs = 150;
  expected.followUpMs = 4000;
  expected.stopPhrase = "halt";
  expected.stopThresholdExponent = -15;
  expected.maxUtteranceMs = 8000;
  expected.aec = false;
  expected.aecTailMs = 64;
  expected.aecDelayMs = 20;
  expected.wakePhrase = "ok speaker";
  expected.wakePronunciation = "SPEAKER S P IY K ER";
  expected.wakeThresholdExponent = -25;
  expected.wakePhoneLoopExponent = -5;
  expected.wakeVerify = true;
  expected.wakeVerifyThreshold = -70;
  expected.wakeModel = "/opt/ok-speaker.wake";
  expected.asrAcousticModel = "/opt/am";
  expected.asrDictionary = "/opt/am.dict";
  expected.asrLanguageModel = "";
  expected.asrGrammar = false;
  expected.asrDomainLm = "";
  expected.asrRescore = false;
  expected.asrClarifyBelow = 0.35f;
  expected.asrDomainAgreement = 0.4f;
  expected.asrMaxHmmPerFrame = 2500;
  expected.asrShareScores = false;
  expected.ttsEngine = "espeak-ng";
  expected.ttsVoice = "en-us";
  expected.ttsRatePercent = 150;
  expected.ttsVolumePercent = 80;
  expected.ttsMaxAnswerChars = 600;
  expected.ttsStreaming = false;
  expected.ttsFirstPhraseWaitMs = 35;
  expected.ttsEspeakData = "/opt/espeak-ng-data";
  expected.audioCpus = {0};
  expected.speechCpus = {1, 2};
  expected.llmCpus = {2, 3};
  expected.audioPriority = 70;
  expected.mlockAll = false;
  expected.privacy = privacy::PrivacyMode::standard;
  expected.deviceIdRotationH = 12;
  expected.auditMaxFileKib = 64;
  expected.auditFiles = 3;
  expected.piiPolicy = {"allow",  "local-only", "allow", "local-only", "redact", "allow",  "redact",
                        "local-only", "allow", "local-only", "redact",  "allow",  "redact", "local-only"};
  expected.cloudEndpoint = "https://api.example.com/v1";
  expected.cloudModel = "gpt-x";
  expected.cloudApiKeyFile = "/var/lib/sotto/key";
  expected.cloudConnectTimeoutMs = 1000;
  expected.cloudFirstByteTimeoutMs = 3000;
  expected.cloudIdleTimeoutMs = 4000;
  expected.cloudCaFile = "/etc/ca.pem";
  expected.cloudClientCertFile = "/var/lib/sotto/dev.pem";
  expected.cloudClientKeyFile = "/var/lib/sotto/dev.key";
  expected.cacheExactEntries = 0;
  expected.cacheSemanticEntries = 100;
  expected.cacheTtlTimeSensitiveS = 30;
  expected.cacheTtlStaticS = 86400;
  expected.cacheSemanticThresholdPct = 85;
  expected.cacheWarmStartEntries = 64;
  expected.cacheMaxAnswerBytes = 2048;
  expected.budgetSimpleMs = 250;
  expected.budgetLocalMs = 700;
  expected.budgetFirstTokenMs = 600;
  expected.hardTimeoutMs = 9000;
  expected.routerIntentConfidencePercent = 55;
  expected.routerLocalConfidencePercent = 85;
  expected.routerSemanticSimilarityPercent = 92;
  expected.cloudMaxPerHour = 10;
  expected.cloudMaxPerDay = 100;
  expected.breakerFailures = 4;
  expected.breakerFailurePercent = 40;
  expected.breakerWindow = 20;
  expected.breakerBackoffMs = 2000;
  expected.breakerMaxBackoffMs = 60000;
  expected.stateDir = "/data/sotto";
  expected.logDir = "/data/log";
  expected.runtimeDir = "/tmp/sotto";
  expected.logLevel = "debug";
  expected.watchdogStallMs = 3000;
  expected.statusIntervalMs = 500;

  const LoadResult r = loadString(kAllChanged, "all.xml");
  ASSERT_TRUE(r.config) << ::testing::PrintToString(formatted(r));
  EXPECT_TRUE(r.problems.empty());
  EXPECT_EQ(*r.config, expected);
}

// A value for s that differs from its default and is valid on its own.
std::string otherValue(const Setting& s) {
  switch (s.type) {
    case ValueType::text: return "x";
    case ValueType::name: return "other";
    case ValueType::path: return "/other";
    case ValueType::url: return "https://example.com";
    case ValueType::boolean: return s.defaultText == "true" ? "false" : "true";
    case ValueType::unsignedInt:
    case ValueType::signedInt: return std::to_string(std::to_string(s.min) == s.defaultText ? s.min + 1 : s.min);
    case ValueType::fraction: return s.defaultText == "0.5" ? "0.25" : "0.5";
    case ValueType::choice: return std::string(s.choices[s.choices.front() == s.defaultText ? 1 : 0]);
    case ValueType::cpuList: return "1";
  }
  return {};
}

TEST(Load, EachSettingChangesOnlyItsOwnMember) {
  const Config base = defaults();
  for (const Setting& s : settings()) {
    Config changed = base;
    const std::string value = otherValue(s);
    ASSERT_EQ(detail::assign(s, value, changed), std::nullopt) << s.path;
    EXPECT_NE(changed, base) << s.path << " did not change the Config";
    EXPECT_EQ(detail::render(s, changed), value) << s.path;
    for (const Setting& other : settings()) {
      if (&other != &s) {
        EXPECT_EQ(detail::render(other, changed), detail::render(other, base))
            << s.path << " also changed " << other.path;
      }
    }
  }
}

TEST(Load, MissingSettingsTakeDefaults) {
  for (const char* xml : {"<sotto version=\"1\"/>", "<sotto version=\"1\"><audio><capture/></audio><model/></sotto>"}) {
    const LoadResult r = loadString(xml, "min.xml");
    ASSERT_TRUE(r.config) << ::testing::PrintToString(formatted(r));
    EXPECT_EQ(*r.config, defaults());
  }
  const LoadResult r = loadString(sottoXml(R"(<audio><capture rate="8000"/></audio>)"), "one.xml");
  ASSERT_TRUE(r.config);
  Config expected = defaults();
  expected.capture.rateHz = 8000;
  EXPECT_EQ(*r.config, expected);
}

TEST(Load, RoundTripsDefaults) {
  const LoadResult r = loadString(toXml(defaults()), "defaults.xml");
  ASSERT_TRUE(r.config) << ::testing::PrintToString(formatted(r));
  EXPECT_EQ(*r.config, defaults());
}

TEST(Load, RoundTripsEveryValueAndEscapes) {
  const LoadResult changed = loadString(kAllChanged, "all.xml");
  ASSERT_TRUE(changed.config);
  Config c = *changed.config;
  c.capture.device = "plug:'a&b' <\"x\"> caf\xC3\xA9";  // every character XML must escape, and UTF-8
  const std::string xml = toXml(c);
  const LoadResult r = loadString(xml, "roundtrip.xml");
  ASSERT_TRUE(r.config) << xml << ::testing::PrintToString(formatted(r));
  EXPECT_EQ(*r.config, c);
  EXPECT_EQ(toXml(*r.config), xml);
}

TEST(Load, ToXmlHasTheDocumentedShape) {
  const std::string xml = toXml(defaults());
  EXPECT_TRUE(
      xml.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<sotto version=\"1\">\n  <audio>\n"
                      "    <capture backend=\"null\" device=\"default\" rate=\"16000\" period-ms=\"10\" "
                      "periods=\"4\"/>\n"))
      << xml;
  EXPECT_TRUE(xml.ends_with("  <watchdog stall-ms=\"2000\" status-interval-ms=\"1000\"/>\n</sotto>\n")) << xml;
}

TEST(Load, OneBadValueYieldsNoConfig) {
  // Everything else in the file is valid and differs from the defaults: none of it may be applied.
  std::string xml = kAllChanged;
  const std::string good = R"(rate="44100")";
  xml.replace(xml.find(good), good.size(), R"(rate="44100x")");
  const LoadResult r = loadString(xml, "half.xml");
  EXPECT_FALSE(r.config);
  EXPECT_EQ(formatted(r),
            std::vector<std::string>{"half.xml:4: audio.playback.rate: \"44100x\" is not an unsigned integer"});
}

TEST(Load, LineNumbersFollowAttributesAcrossLines) {
  const std::string xml =
      "<?xml version=\"1.0\"?>\r\n"
      "<!-- comment\r\n spanning lines -->\r\n"
      "<sotto version=\"1\">\r\n"
      "  <audio>\r\n"
      "    <capture\r\n"
      "      backend=\"alsa\"\r\n"
      "      rate=\"7\"\r\n"
      "      periods=\"1\"/>\r\n"
      "  </audio>\r\n"
      "</sotto>\r\n";
  const LoadResult r = loadString(xml, "lines.xml");
  EXPECT_EQ(formatted(r), (std::vector<std::string>{
                              "lines.xml:8: audio.capture.rate: 7 is out of range [8000, 48000] (Hz)",
                              "lines.xml:9: audio.capture.periods: 1 is out of range [2, 32] (periods)",
                          }));
}

TEST(Load, CommentsDeclarationBomAndEntitiesAreFine) {
  const std::string xml =
      "\xEF\xBB\xBF<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- a -->\n"
      "<sotto version=\"1\"><!-- b --><audio><!-- c --><capture device=\"a&amp;b&#x41;&lt;\"/>"
      "</audio></sotto>\n<!-- d -->\n";
  const LoadResult r = loadString(xml, "bom.xml");
  ASSERT_TRUE(r.config) << ::testing::PrintToString(formatted(r));
  EXPECT_EQ(r.config->capture.device, "a&bA<");
}

TEST(Load, EntityCannotSmuggleControlCharacters) {
  const LoadResult r = loadString(sottoXml(R"(<audio><capture device="a&#x9;b"/></audio>)"), "ent.xml");
  EXPECT_EQ(formatted(r),
            std::vector<std::string>{"ent.xml:2: audio.capture.device: \"a\\tb\" contains a control character"});
}

TEST(Load, ProblemsAreCappedWithACount) {
  std::string body;
  for (int i = 0; i < 150; ++i) body += "<unknown" + std::to_string(i) + "/>\n";
  const LoadResult r = loadString(sottoXml(body), "many.xml");
  EXPECT_FALSE(r.config);
  ASSERT_EQ(r.problems.size(), 101u);
  EXPECT_EQ(r.problems[0].format(),
            "many.xml:2: unknown0: unknown element <unknown0> (<sotto> contains audio, model, speech, wake, asr, tts, "
            "threads, privacy, cloud, "
            "cache, latency, router, paths, log, watchdog)");
  EXPECT_EQ(r.problems[99].line, 101);
  EXPECT_EQ(r.problems[100].format(), "many.xml: 50 more problems not shown");
  // Issue 36: the count is of every problem found, not of the lines listed ("101 problems" after "50 more").
  EXPECT_EQ(problemCount(r.problems), 150u);
}

TEST(Load, LongNamesAndValuesAreClippedInMessages) {
  const std::string longName(5000, 'a');
  const LoadResult r = loadString(sottoXml("<" + longName + "/>"), "long.xml");
  ASSERT_EQ(r.problems.size(), 1u);
  EXPECT_LT(r.problems[0].format().size(), 400u);
  const LoadResult v = loadString(sottoXml("<log level=\"" + std::string(5000, 'v') + "\"/>"), "long.xml");
  ASSERT_EQ(v.problems.size(), 1u);
  EXPECT_LT(v.problems[0].format().size(), 400u);
}

TEST(Load, RuleBlamesTheSettingTheFileSet) {
  EXPECT_EQ(formatted(loadString(sottoXml(R"(<latency local-ms="200"/>)"), "r.xml")),
            (std::vector<std::string>{"r.xml:2: latency.local-ms: 200 ms is less than latency.simple-ms (300 ms): a "
                                      "simple answer cannot get more time than a model answer",
                                      "r.xml:2: latency.local-ms: 200 ms is less than latency.first-token-ms (700 ms): "
                                      "the first token comes before the first audio of a model answer"}));
  EXPECT_EQ(formatted(loadString(sottoXml(R"(<latency simple-ms="900" local-ms="850"/>)"), "r.xml")),
            std::vector<std::string>{"r.xml:2: latency.simple-ms: 900 ms exceeds latency.local-ms (850 ms): a simple "
                                     "answer cannot get more time than a model answer"});
  // A setting that failed on its own takes no part in the rules: its default (800) is not what the file meant,
  // so "900 exceeds latency.local-ms (800 ms)" would mislead.
  EXPECT_EQ(formatted(loadString(sottoXml(R"(<latency simple-ms="900" local-ms="x"/>)"), "r.xml")),
            std::vector<std::string>{"r.xml:2: latency.local-ms: \"x\" is not an unsigned integer"});
}

TEST(Load, CloudEndpointNeedsAModel) {
  EXPECT_EQ(formatted(loadString(sottoXml(R"(<cloud endpoint="https://api.example.com/v1"/>)"), "c.xml")),
            std::vector<std::string>{
                "c.xml:2: cloud.endpoint: is set, but cloud.model is empty: the cloud API needs a model name"});
  const LoadResult ok = loadString(sottoXml(R"(<cloud endpoint="http://127.0.0.1:8080/v1" model="m"/>)"), "c.xml");
  ASSERT_TRUE(ok.config) << ::testing::PrintToString(formatted(ok));
  EXPECT_EQ(ok.config->cloudEndpoint, "http://127.0.0.1:8080/v1");
}

}  // namespace
}  // namespace sotto::config
