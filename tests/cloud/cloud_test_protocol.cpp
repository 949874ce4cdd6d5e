// SPDX-License-Identifier: MIT
// The cloud wire format without a network: the JSON reader/writer, the SSE parser and the chat chunk decoder.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/cloud/chat.h"
#include "engine/cloud/json.h"
#include "engine/cloud/sse.h"

namespace sotto::cloud {
namespace {

TEST(Json, ParsesEveryKind) {
  auto v = json::parse(R"( {"a": [1, -2.5e1, true, false, null], "s": "x\"\\\/\n\u00e9\ud83d\ude00", "o": {}} )");
  ASSERT_TRUE(v) << v.error().message;
  const json::Value* a = v->find("a");
  ASSERT_NE(a, nullptr);
  ASSERT_EQ(a->items().size(), 5u);
  EXPECT_EQ(a->at(0)->asNumber(), 1.0);
  EXPECT_EQ(a->at(1)->asNumber(), -25.0);
  EXPECT_TRUE(a->at(2)->asBool());
  EXPECT_FALSE(a->at(3)->asBool());
  EXPECT_TRUE(a->at(4)->isNull());
  EXPECT_EQ(a->at(5), nullptr);
  ASSERT_NE(v->findString("s"), nullptr);
  EXPECT_EQ(*v->findString("s"), "x\"\\/\n\xC3\xA9\xF0\x9F\x98\x80");
  EXPECT_TRUE(v->find("o")->isObject());
  EXPECT_EQ(v->find("missing"), nullptr);
}

TEST(Json, RejectsMalformedWithOffset) {
  for (const char* bad : {"", "{", "[1,]", "{\"a\" 1}", "01", "1.", "-", "\"\x01\"", "\"abc", "tru", "{} x",
                          "\"\\q\"", "\"\\u12\"", "\"\xC3\"", "\"\xED\xA0\x80\"", "[1 2]", "{\"a\":1,}", "nan"}) {
    auto v = json::parse(bad);
    EXPECT_FALSE(v) << "accepted: " << bad;
    if (!v) {
      EXPECT_EQ(v.error().code, Errc::corrupt);
      EXPECT_NE(v.error().message.find("invalid JSON at byte"), std::string::npos) << v.error().message;
    }
  }
}

TEST(Json, BoundsDepthAndSize) {
  json::Limits l;
  l.maxDepth = 4;
  EXPECT_TRUE(json::parse("[[[[1]]]]", l));
  EXPECT_FALSE(json::parse("[[[[[1]]]]]", l));
  // Deep nesting far beyond the limit fails cleanly instead of exhausting the stack.
  EXPECT_FALSE(json::parse(std::string(100000, '['), {}));
  l.maxInputBytes = 8;
  EXPECT_FALSE(json::parse("[1,2,3,4,5]", l));
}

TEST(Json, WriterEscapesAndRoundTrips) {
  const std::string nasty = std::string("quote\" back\\ nl\n tab\t ctl\x01 del\x7F utf8 \xC3\xA9 bad \xFF end") + '\0';
  const std::string q = json::quote(nasty);
  EXPECT_EQ(q.find('\n'), std::string::npos);
  auto back = json::parse(q);
  ASSERT_TRUE(back) << back.error().message << " in " << q;
  // The invalid byte became U+FFFD; everything else survives.
  std::string want = nasty;
  want.replace(want.find('\xFF'), 1, "\xEF\xBF\xBD");
  EXPECT_EQ(back->asString(), want);
}

struct Events final : SseHandler {
  std::vector<std::pair<std::string, std::string>> got;
  size_t stopAfter = 1000;
  bool onEvent(std::string_view event, std::string_view data) override {
    got.emplace_back(event, data);
    return got.size() < stopAfter;
  }
};

TEST(Sse, LineEndingsCommentsMultiLineData) {
  const std::string stream =
      ": keep-alive comment\r\n"
      "data: one\r\n\r\n"
      "event: error\ndata:two\ndata:  three\n\n"
      "data\rdata: four\r\r"
      "id: 7\nretry: 100\nunknown: x\ndata: five\n\n"
      "data: unfinished";
  // Every split point gives the same events (a CRLF split across feeds included).
  for (size_t cut = 0; cut <= stream.size(); ++cut) {
    SseParser p;
    Events e;
    ASSERT_EQ(p.feed(std::string_view(stream).substr(0, cut), e), SseState::ok);
    ASSERT_EQ(p.feed(std::string_view(stream).substr(cut), e), SseState::ok);
    ASSERT_EQ(e.got.size(), 4u) << "cut " << cut;
    EXPECT_EQ(e.got[0], (std::pair<std::string, std::string>{"", "one"}));
    EXPECT_EQ(e.got[1], (std::pair<std::string, std::string>{"error", "two\n three"}));
    EXPECT_EQ(e.got[2], (std::pair<std::string, std::string>{"", "\nfour"}));
    EXPECT_EQ(e.got[3], (std::pair<std::string, std::string>{"", "five"}));
    EXPECT_TRUE(p.pending());
  }
}

TEST(Sse, BoundsLinesAndEvents) {
  SseLimits l;
  l.maxLineBytes = 16;
  l.maxEventBytes = 20;
  SseParser p(l);
  Events e;
  EXPECT_EQ(p.feed("data: 0123456789\n", e), SseState::ok);
  EXPECT_EQ(p.feed("data: 0123456789\n", e), SseState::eventTooLarge);
  EXPECT_EQ(p.feed("\n", e), SseState::eventTooLarge);  // sticky
  EXPECT_TRUE(e.got.empty());
  p.reset();
  // An endless line fails as soon as it passes the limit, however it is split.
  EXPECT_EQ(p.feed("data: 01234", e), SseState::ok);
  EXPECT_EQ(p.feed("56789abcdef", e), SseState::lineTooLong);
  p.reset();
  Events stop;
  stop.stopAfter = 1;
  EXPECT_EQ(p.feed("data: a\n\ndata: b\n\n", stop), SseState::stopped);
  EXPECT_EQ(stop.got.size(), 1u);
}

struct Text final : DeltaSink {
  std::string text;
  void onDelta(std::string_view t) override { text.append(t); }
};

std::string chunk(const std::string& content) {
  return "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":" + json::quote(content) +
         "},\"finish_reason\":null}]}\n\n";
}

TEST(ChatDecoder, StreamsDeltasUntilDone) {
  Text t;
  ChatStreamDecoder d(t);
  EXPECT_TRUE(d.feed("data: {\"choices\":[{\"delta\":{\"role\":\"assistant\"}}]}\n\n"));
  EXPECT_TRUE(d.feed(chunk("Hel")));
  EXPECT_EQ(t.text, "Hel");  // delivered as it arrives
  EXPECT_TRUE(d.feed(chunk("lo \xE2\x9C\x93")));
  EXPECT_TRUE(d.feed(": ping\n\ndata: {\"choices\":[{\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n"));
  EXPECT_TRUE(d.feed("data: {\"choices\":[],\"usage\":{\"total_tokens\":3}}\n\n"));
  EXPECT_FALSE(d.feed("data: [DONE]\n\ndata: ignored\n\n"));
  d.finish();
  EXPECT_TRUE(d.done());
  EXPECT_EQ(d.error(), CloudErrc::none);
  EXPECT_EQ(t.text, "Hello \xE2\x9C\x93");
  EXPECT_EQ(d.finishReason(), "stop");
  EXPECT_EQ(d.deltas(), 2u);
}

TEST(ChatDecoder, TypedErrors) {
  struct Case {
    std::string bytes;
    CloudErrc want;
  };
  const std::vector<Case> cases = {
      {"data: {not json\n\n", CloudErrc::invalidJson},
      {"data: [1,2]\n\n", CloudErrc::malformedStream},
      {"data: {\"object\":\"x\"}\n\n", CloudErrc::malformedStream},
      {"data: {\"choices\":{}}\n\n", CloudErrc::malformedStream},
      {"data: {\"choices\":[{\"delta\":{\"content\":5}}]}\n\n", CloudErrc::malformedStream},
      {"data: {\"error\":{\"message\":\"quota exceeded\"}}\n\n", CloudErrc::serverError},
      {"event: error\ndata: {\"message\":\"overloaded\"}\n\n", CloudErrc::serverError},
      {"data: " + std::string(70000, 'x'), CloudErrc::lineTooLong},
  };
  for (const Case& c : cases) {
    Text t;
    ChatStreamDecoder d(t);
    EXPECT_FALSE(d.feed(c.bytes)) << c.bytes.substr(0, 60);
    EXPECT_EQ(d.error(), c.want) << c.bytes.substr(0, 60) << ": " << d.message();
    EXPECT_FALSE(d.feed(chunk("more")));  // stays failed
    EXPECT_EQ(t.text, "");
  }
}

TEST(ChatDecoder, EndWithoutDoneIsADisconnect) {
  Text t;
  ChatStreamDecoder d(t);
  EXPECT_TRUE(d.feed(chunk("a") + chunk("b")));
  d.finish();
  EXPECT_EQ(d.error(), CloudErrc::disconnected);
  EXPECT_NE(d.message().find("2 chunks"), std::string::npos) << d.message();
  // A finish_reason followed by a clean close is a whole answer (servers that omit [DONE]).
  Text t2;
  ChatStreamDecoder d2(t2);
  d2.feed(chunk("a") + "data: {\"choices\":[{\"delta\":{},\"finish_reason\":\"length\"}]}\n\n");
  d2.finish();
  EXPECT_TRUE(d2.done());
  EXPECT_EQ(d2.error(), CloudErrc::none);
}

TEST(ChatDecoder, AnswerSizeIsBounded) {
  StreamLimits l;
  l.maxAnswerBytes = 10;
  Text t;
  ChatStreamDecoder d(t, l);
  EXPECT_TRUE(d.feed(chunk("0123456789")));
  EXPECT_FALSE(d.feed(chunk("x")));
  EXPECT_EQ(d.error(), CloudErrc::tooLarge);
}

TEST(ChatRequestBody, ExactBytes) {
  ChatRequest r;
  r.model = "m";
  r.messages = {{"system", "Be brief."}, {"user", "say \"hi\"\n"}};
  r.maxTokens = 32;
  EXPECT_EQ(buildChatRequestBody(r),
            "{\"model\":\"m\",\"messages\":[{\"role\":\"system\",\"content\":\"Be brief.\"},{\"role\":\"user\","
            "\"content\":\"say \\\"hi\\\"\\n\"}],\"max_tokens\":32,\"stream\":true}");
  r.temperature = 0.0f;
  const std::string b = buildChatRequestBody(r);
  EXPECT_NE(b.find(",\"temperature\":0,"), std::string::npos) << b;
  auto parsed = json::parse(b);
  ASSERT_TRUE(parsed);
  EXPECT_TRUE(parsed->find("stream")->asBool());
}

}  // namespace
}  // namespace sotto::cloud
