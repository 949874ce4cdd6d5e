// SPDX-License-Identifier: MIT
// Value codecs (numbers, booleans, choices, names, paths, URLs, CPU lists) and the message helpers.
#include <gtest/gtest.h>

#include "app/config/settings.h"
#include "app/config/text_util.h"
#include "app/config/value_codec.h"

namespace sotto::config {
namespace {

// The message for text as the value of setting path, or "" when it is accepted.
std::string check(std::string_view path, std::string_view text) {
  const Setting* s = findSetting(path);
  if (s == nullptr) return "no such setting";
  Config config = defaults();
  const auto error = detail::assign(*s, text, config);
  return error ? *error : std::string();
}

TEST(Values, UnsignedAcceptsDigitsWithinRange) {
  EXPECT_EQ(check("audio.capture.rate", "8000"), "");
  EXPECT_EQ(check("audio.capture.rate", "48000"), "");
  EXPECT_EQ(check("audio.capture.rate", "016000"), "");  // leading zeros are still decimal
  Config c = defaults();
  ASSERT_FALSE(detail::assign(*findSetting("audio.capture.rate"), "22050", c));
  EXPECT_EQ(c.capture.rateHz, 22050u);
}

TEST(Values, UnsignedRejectsOutOfRangeWithRangeAndUnit) {
  EXPECT_EQ(check("audio.capture.rate", "99"), "99 is out of range [8000, 48000] (Hz)");
  EXPECT_EQ(check("audio.capture.rate", "48001"), "48001 is out of range [8000, 48000] (Hz)");
  EXPECT_EQ(check("audio.capture.rate", "99999999999999999999999"),
            "99999999999999999999999 is out of range [8000, 48000] (Hz)");
  EXPECT_EQ(check("cache.exact-entries", "65537"), "65537 is out of range [0, 65536] (entries)");
}

TEST(Values, UnsignedRejectsAnythingButDigits) {
  for (const char* bad : {"", "-1", "+5", " 16000", "16000 ", "16k", "0x3e80", "1e4", "16000.0"}) {
    EXPECT_EQ(check("audio.capture.rate", bad), detail::quote(bad) + " is not an unsigned integer") << bad;
  }
}

TEST(Values, SignedAcceptsMinusAndChecksRange) {
  EXPECT_EQ(check("threads.audio-priority", "0"), "");
  EXPECT_EQ(check("threads.audio-priority", "99"), "");
  EXPECT_EQ(check("threads.audio-priority", "-1"), "-1 is out of range [0, 99] (priority)");
  EXPECT_EQ(check("threads.audio-priority", "100"), "100 is out of range [0, 99] (priority)");
  EXPECT_EQ(check("threads.audio-priority", "-"), "\"-\" is not an integer");
  EXPECT_EQ(check("threads.audio-priority", "--1"), "\"--1\" is not an integer");
  EXPECT_EQ(check("threads.audio-priority", "-99999999999999999999"),
            "-99999999999999999999 is out of range [0, 99] (priority)");
}

TEST(Values, FractionTakesZeroToOneWithFourDecimals) {
  for (const char* good : {"0", "1", "0.5", ".5", "0.4500", "1.0", "0.0001"}) {
    EXPECT_EQ(check("asr.clarify-below", good), "") << good;
  }
  for (const char* bad : {"", ".", "-0.1", "+0.5", "0.5 ", "5e-1", "0.12345", "0,5", "1.0.0"}) {
    EXPECT_EQ(check("asr.clarify-below", bad),
              detail::quote(bad) + " is not a decimal number from 0 to 1 with at most 4 decimals")
        << bad;
  }
  EXPECT_EQ(check("asr.clarify-below", "1.01"), "1.01 is out of range [0, 1]");
  EXPECT_EQ(check("asr.clarify-below", "2"), "2 is out of range [0, 1]");
  Config c = defaults();
  const Setting& s = *findSetting("asr.clarify-below");
  ASSERT_FALSE(detail::assign(s, "0.35", c));
  EXPECT_FLOAT_EQ(c.asrClarifyBelow, 0.35f);
  EXPECT_EQ(detail::render(s, c), "0.35");  // written back as it was read
  ASSERT_FALSE(detail::assign(s, ".05", c));
  EXPECT_EQ(detail::render(s, c), "0.05");
  ASSERT_FALSE(detail::assign(s, "1.000", c));
  EXPECT_EQ(detail::render(s, c), "1");
}

TEST(Values, BooleanTakesTrueFalseOneZero) {
  for (const char* good : {"true", "false", "1", "0"}) EXPECT_EQ(check("model.mlock", good), "") << good;
  for (const char* bad : {"yes", "no", "TRUE", "on", "", " true"}) {
    EXPECT_EQ(check("model.mlock", bad), detail::quote(bad) + " is not a boolean (true, false, 1 or 0)") << bad;
  }
  Config c = defaults();
  ASSERT_FALSE(detail::assign(*findSetting("model.mlock"), "1", c));
  EXPECT_TRUE(c.modelMlock);
  ASSERT_FALSE(detail::assign(*findSetting("model.mlock"), "0", c));
  EXPECT_FALSE(c.modelMlock);
}

TEST(Values, ChoiceListsTheChoicesAndSuggests) {
  EXPECT_EQ(check("privacy.mode", "offline"), "");
  EXPECT_EQ(check("privacy.mode", "Offline"),
            "\"Offline\" is not one of offline, private, standard; did you mean \"offline\"?");
  EXPECT_EQ(check("privacy.mode", "public"), "\"public\" is not one of offline, private, standard");
  EXPECT_EQ(check("log.level", "warn"),
            "\"warn\" is not one of error, warning, notice, info, debug; did you mean \"warning\"?");
}

TEST(Values, ChoiceMapsToTheEnumInOrder) {
  Config c = defaults();
  const Setting& mode = *findSetting("privacy.mode");
  for (privacy::PrivacyMode m : {privacy::PrivacyMode::offline, privacy::PrivacyMode::private_, privacy::PrivacyMode::standard}) {
    ASSERT_FALSE(detail::assign(mode, privacy::privacyModeName(m), c));
    EXPECT_EQ(c.privacy, m);
    EXPECT_EQ(detail::render(mode, c), privacy::privacyModeName(m));
  }
}

TEST(Values, NameIsIdentifierLike) {
  for (const char* good : {"alsa", "wav", "null", "a", "usb-2_mic", "0dev", "abcdefghijklmnopqrstuvwxyz012345"}) {
    EXPECT_EQ(check("audio.capture.backend", good), "") << good;
  }
  for (const char* bad : {"", "ALSA", "-x", "_x", "a b", "a.b", "abcdefghijklmnopqrstuvwxyz0123456", "pulse/alsa"}) {
    EXPECT_EQ(
        check("audio.capture.backend", bad),
        detail::quote(bad) + " is not a valid name (1 to 32 of a-z, 0-9, '_' and '-', starting with a letter or digit)")
        << bad;
  }
}

TEST(Values, TextChecksEmptinessControlCharactersAndLength) {
  EXPECT_EQ(check("audio.capture.device", "hw:CARD=Mic,DEV=0"), "");
  EXPECT_EQ(check("audio.capture.device", "plug:'dmix' <&>"), "");
  EXPECT_EQ(check("audio.capture.device", ""), "must not be empty");
  EXPECT_EQ(check("audio.capture.device", "a\tb"), "\"a\\tb\" contains a control character");
  EXPECT_EQ(check("audio.capture.device", std::string(255, 'x')), "");
  EXPECT_EQ(check("audio.capture.device", std::string(256, 'x')),
            detail::quote(std::string(256, 'x')) + " is 256 bytes long; at most 255 are allowed");
  EXPECT_EQ(check("audio.capture.device", "caf\xC3\xA9"), "");
  EXPECT_EQ(check("audio.capture.device", "caf\xC3"), "\"caf\\xc3\" is not valid UTF-8");
  EXPECT_EQ(check("cloud.model", ""), "");  // may be empty
}

TEST(Values, PathMustBeAbsolute) {
  EXPECT_EQ(check("paths.state-dir", "/var/lib/sotto"), "");
  EXPECT_EQ(check("paths.state-dir", "var/lib/sotto"),
            "\"var/lib/sotto\" is not an absolute path (it must start with '/')");
  EXPECT_EQ(check("paths.state-dir", "./x"), "\"./x\" is not an absolute path (it must start with '/')");
  EXPECT_EQ(check("paths.state-dir", "~/x"), "\"~/x\" is not an absolute path (it must start with '/')");
  EXPECT_EQ(check("paths.state-dir", ""), "must not be empty");
  EXPECT_EQ(check("cloud.api-key-file", ""), "");  // may be empty
  EXPECT_EQ(check("cloud.api-key-file", "key"), "\"key\" is not an absolute path (it must start with '/')");
}

TEST(Values, UrlAcceptsHttpsAndLoopbackHttp) {
  for (const char* good :
       {"", "https://api.example.com", "https://api.example.com/v1", "https://api.example.com:8443/v1/",
        "https://[2001:db8::1]:443/v1", "http://localhost:8080/v1", "http://LocalHost/v1", "http://127.0.0.1:8080",
        "http://127.1.2.3/", "http://[::1]:8080/v1"}) {
    EXPECT_EQ(detail::checkUrl(good), std::nullopt) << good;
  }
}

TEST(Values, UrlRejectsNonLoopbackHttp) {
  const std::string tail =
      " uses http:// to a host that is not loopback; use https:// (http:// is allowed only for "
      "localhost, 127.0.0.0/8 and [::1])";
  for (const char* bad : {"http://example.com/v1", "http://10.0.0.1", "http://128.0.0.1", "http://127.0.0.1.evil.com",
                          "http://localhost.evil.com", "http://127.0.0.256", "http://[::2]", "http://1270.0.0.1"}) {
    EXPECT_EQ(detail::checkUrl(bad), detail::quote(bad) + tail) << bad;
  }
}

TEST(Values, UrlRejectsMalformed) {
  const auto invalid = [](const std::string& url, const std::string& why) {
    return detail::quote(url) + " is not a valid URL: " + why;
  };
  EXPECT_EQ(detail::checkUrl("ftp://x"),
            invalid("ftp://x", "it must start with https:// (or http:// for a loopback host)"));
  EXPECT_EQ(detail::checkUrl("HTTPS://x"),
            invalid("HTTPS://x", "it must start with https:// (or http:// for a loopback host)"));
  EXPECT_EQ(detail::checkUrl("api.example.com"),
            invalid("api.example.com", "it must start with https:// (or http:// for a loopback host)"));
  EXPECT_EQ(detail::checkUrl("https://"), invalid("https://", "no host"));
  EXPECT_EQ(detail::checkUrl("https:///v1"), invalid("https:///v1", "no host"));
  // The password never reaches the message (it would end up in the journal).
  EXPECT_EQ(detail::checkUrl("https://user:pw@api.example.com/v1"),
            invalid("https://...@api.example.com/v1", "credentials (user@host) are not allowed"));
  EXPECT_EQ(detail::checkUrl("http://user:pw@example.com a"),
            invalid("http://...@example.com a", "spaces, control and non-ASCII characters are not allowed"));
  EXPECT_EQ(detail::checkUrl("https://api.example.com/v1?a=b@c"), std::nullopt);  // '@' after the host is fine
  EXPECT_EQ(detail::checkUrl("https://a b"),
            invalid("https://a b", "spaces, control and non-ASCII characters are not allowed"));
  EXPECT_EQ(detail::checkUrl("https://x:0"), invalid("https://x:0", "the port must be 1..65535"));
  EXPECT_EQ(detail::checkUrl("https://x:65536"), invalid("https://x:65536", "the port must be 1..65535"));
  EXPECT_EQ(detail::checkUrl("https://x:"), invalid("https://x:", "empty port"));
  EXPECT_EQ(detail::checkUrl("https://x:8a"), invalid("https://x:8a", "the port must be 1..65535"));
  EXPECT_EQ(detail::checkUrl("https://[::1"), invalid("https://[::1", "unterminated IPv6 address"));
  EXPECT_EQ(detail::checkUrl("https://[zz]"), invalid("https://[zz]", "bad IPv6 address"));
  EXPECT_EQ(detail::checkUrl("https://[::1]x"),
            invalid("https://[::1]x", "unexpected characters after the IPv6 address"));
  EXPECT_EQ(detail::checkUrl("https://a[b"), invalid("https://a[b", "bad host name"));
}

TEST(Values, CpuListParsesNumbersAndRanges) {
  EXPECT_EQ(detail::parseCpuList("").cpus, std::vector<int>{});
  EXPECT_EQ(detail::parseCpuList("0").cpus, std::vector<int>{0});
  EXPECT_EQ(detail::parseCpuList("0,2-3").cpus, (std::vector<int>{0, 2, 3}));
  EXPECT_EQ(detail::parseCpuList("3,1").cpus, (std::vector<int>{1, 3}));  // kept ascending
  EXPECT_EQ(detail::parseCpuList("5-5").cpus, std::vector<int>{5});
  EXPECT_EQ(detail::parseCpuList("1023").cpus, std::vector<int>{1023});
  EXPECT_TRUE(detail::parseCpuList("0-1023").error.empty());
  EXPECT_EQ(detail::parseCpuList("0-1023").cpus.size(), 1024u);
}

TEST(Values, CpuListRejectsBadLists) {
  const auto error = [](std::string_view text) { return detail::parseCpuList(text).error; };
  EXPECT_EQ(error("3-2"), "\"3-2\" is not a valid CPU list: range 3-2 is reversed");
  EXPECT_EQ(error("1,1"), "\"1,1\" is not a valid CPU list: CPU 1 is listed twice");
  EXPECT_EQ(error("0-3,2"), "\"0-3,2\" is not a valid CPU list: CPU 2 is listed twice");
  EXPECT_EQ(error("1024"), "\"1024\" is not a valid CPU list: CPU 1024 is out of range [0, 1023]");
  EXPECT_EQ(error("0-99999999999"),
            "\"0-99999999999\" is not a valid CPU list: CPU 99999999999 is out of range [0, 1023]");
  EXPECT_EQ(error("0,"), "\"0,\" is not a valid CPU list: empty entry (write e.g. 0,2-3)");
  EXPECT_EQ(error(",0"), "\",0\" is not a valid CPU list: empty entry (write e.g. 0,2-3)");
  const std::string notEntry = " is not a CPU number or range (write e.g. 0,2-3, without spaces)";
  EXPECT_EQ(error("0, 1"), "\"0, 1\" is not a valid CPU list: \" 1\"" + notEntry);
  EXPECT_EQ(error("a"), "\"a\" is not a valid CPU list: \"a\"" + notEntry);
  EXPECT_EQ(error("1-"), "\"1-\" is not a valid CPU list: \"1-\"" + notEntry);
  EXPECT_EQ(error("-1"), "\"-1\" is not a valid CPU list: \"-1\"" + notEntry);
  EXPECT_EQ(error("1-2-3"), "\"1-2-3\" is not a valid CPU list: \"1-2-3\"" + notEntry);
  EXPECT_TRUE(detail::parseCpuList("3-2").cpus.empty());
}

TEST(Values, CpuListFormatsCompactly) {
  EXPECT_EQ(detail::formatCpuList({}), "");
  EXPECT_EQ(detail::formatCpuList({0}), "0");
  EXPECT_EQ(detail::formatCpuList({0, 2, 3}), "0,2-3");
  EXPECT_EQ(detail::formatCpuList({0, 1, 2, 4, 6, 7}), "0-2,4,6-7");
}

TEST(TextUtil, QuoteEscapesAndClips) {
  EXPECT_EQ(detail::quote("plain"), "\"plain\"");
  EXPECT_EQ(detail::quote("a\"b\\c"), "\"a\\\"b\\\\c\"");
  EXPECT_EQ(detail::quote(std::string_view("a\0b\x7f\n", 5)), "\"a\\x00b\\x7f\\n\"");
  EXPECT_EQ(detail::quote("\xC3\xA9\xFF"), "\"\xC3\xA9\\xff\"");
  EXPECT_EQ(detail::quote(std::string(100, 'x'), 4), "\"xxxx...\"");
}

TEST(TextUtil, Utf8Validation) {
  EXPECT_EQ(detail::firstInvalidUtf8("ascii"), std::nullopt);
  EXPECT_EQ(detail::firstInvalidUtf8("\xE2\x82\xAC \xF0\x9F\x94\x8A"), std::nullopt);  // euro sign, speaker emoji
  EXPECT_EQ(detail::firstInvalidUtf8("ab\x80"), 2u);                                   // lone continuation byte
  EXPECT_EQ(detail::firstInvalidUtf8("\xC0\xAF"), 0u);                                 // overlong '/'
  EXPECT_EQ(detail::firstInvalidUtf8("x\xED\xA0\x80"), 1u);                            // UTF-16 surrogate
  EXPECT_EQ(detail::firstInvalidUtf8("\xF4\x90\x80\x80"), 0u);                         // above U+10FFFF
  EXPECT_EQ(detail::firstInvalidUtf8("\xE2\x82"), 0u);                                 // truncated
}

TEST(TextUtil, EditDistanceAndSuggestions) {
  EXPECT_EQ(detail::editDistance("rate", "rate"), 0u);
  EXPECT_EQ(detail::editDistance("rat", "rate"), 1u);
  EXPECT_EQ(detail::editDistance("raet", "rate"), 1u);  // transposition counts once
  EXPECT_EQ(detail::editDistance("", "abc"), 3u);
  const std::vector<std::string_view> names{"backend", "device", "rate", "period-ms", "periods"};
  EXPECT_EQ(detail::closest("rat", names), "rate");
  EXPECT_EQ(detail::closest("perod-ms", names), "period-ms");
  EXPECT_EQ(detail::closest("periodms", names), "period-ms");
  EXPECT_EQ(detail::closest("backends", names), "backend");
  EXPECT_EQ(detail::closest("volume", names), std::nullopt);
  EXPECT_EQ(detail::closest("x", names), std::nullopt);
  EXPECT_EQ(detail::closest("back", names), "backend");     // abbreviation
  EXPECT_EQ(detail::closest("ra", names), std::nullopt);    // too short to be an abbreviation of rate
  EXPECT_EQ(detail::closest("rate", names), std::nullopt);  // exact names are not typos
}

TEST(TextUtil, LineAt) {
  EXPECT_EQ(detail::lineAt("a\nb\nc", 0), 1);
  EXPECT_EQ(detail::lineAt("a\nb\nc", 2), 2);
  EXPECT_EQ(detail::lineAt("a\nb\nc", 4), 3);
  EXPECT_EQ(detail::lineAt("a\n", 99), 2);
}

TEST(ProblemFormat, LeavesOutMissingParts) {
  EXPECT_EQ((Problem{"/etc/sotto/sotto.xml", 12, "audio.capture.rate", "99 is out of range"}).format(),
            "/etc/sotto/sotto.xml:12: audio.capture.rate: 99 is out of range");
  EXPECT_EQ((Problem{"f.xml", 3, "", "malformed XML"}).format(), "f.xml:3: malformed XML");
  EXPECT_EQ((Problem{"f.xml", 0, "", "the file is empty"}).format(), "f.xml: the file is empty");
  EXPECT_EQ((Problem{"--set", 0, "log.level", "bad"}).format(), "--set: log.level: bad");
}

}  // namespace
}  // namespace sotto::config
