// SPDX-License-Identifier: MIT
// The cloud is not trusted: the answer guard (control and format characters, split and malformed UTF-8, the length
// bound at a word), the max_tokens byte bound against a 50 MB stream, and a reset or a malformed chunk mid-stream
// ending as typed errors after the text that came before them.
#include "engine/cloud/answer_guard.h"
#include "tests/cloud/cloud_test_util.h"

namespace sotto::cloud::test {
namespace {

std::string guarded(const std::vector<std::string_view>& pieces, std::size_t maxChars = SIZE_MAX,
                    AnswerGuard* keep = nullptr) {
  AnswerGuard local(maxChars);
  AnswerGuard& g = keep != nullptr ? *keep : local;
  std::string out;
  for (std::string_view p : pieces) g.feed(p, out);
  g.finish();
  return out;
}

TEST(AnswerGuard, DropsControlAndFormatCharacters) {
  // ESC sequences, BEL, CR, DEL, C1 (U+0085, U+009B CSI), bidi overrides and isolates (U+202E, U+2066), zero-width
  // space and joiner (U+200B, U+200D), BOM, soft hyphen, a tag character (U+E0041), private use (U+E000).
  const std::string hostile = "a\x1b[2Jb\x07" "c\rd\x7f" "e\xc2\x85" "f\xc2\x9b" "g\xe2\x80\xae" "h\xe2\x81\xa6" "i"
                              "\xe2\x80\x8b" "j\xe2\x80\x8d" "k\xef\xbb\xbf" "l\xc2\xad" "m\xf3\xa0\x81\x81" "n"
                              "\xee\x80\x80" "o";
  EXPECT_EQ(guarded({hostile}), "a[2Jbcdefghijklmno");
  EXPECT_EQ(safeText(hostile), "a[2Jbcdefghijklmno");
  // Newline and tab stay, and so does ordinary text in any script.
  EXPECT_EQ(guarded({"line one\n\tline two: caf\xc3\xa9, \xe6\x97\xa5\xe6\x9c\xac, \xf0\x9f\x99\x82"}),
            "line one\n\tline two: caf\xc3\xa9, \xe6\x97\xa5\xe6\x9c\xac, \xf0\x9f\x99\x82");
}

TEST(AnswerGuard, JoinsSplitSequencesAndDropsMalformedOnes) {
  const std::string rlo = "x\xe2\x80\xaey";  // U+202E split anywhere is still dropped
  const std::string emoji = "x\xf0\x9f\x99\x82y";  // a 4-byte sequence split anywhere is kept whole
  for (std::size_t i = 0; i <= rlo.size(); ++i)
    EXPECT_EQ(guarded({std::string_view(rlo).substr(0, i), std::string_view(rlo).substr(i)}), "xy") << i;
  for (std::size_t i = 0; i <= emoji.size(); ++i)
    EXPECT_EQ(guarded({std::string_view(emoji).substr(0, i), std::string_view(emoji).substr(i)}), emoji) << i;
  // Overlong forms (an encoded ESC), surrogates, stray continuation bytes, bytes that never lead, a truncated end.
  AnswerGuard g;
  EXPECT_EQ(guarded({"a\xc0\x9b" "b\xed\xa0\x80" "c\x80" "d\xff" "e\xf0\x9f"}, SIZE_MAX, &g), "abcde");
  EXPECT_GE(g.dropped(), 5u);
}

TEST(AnswerGuard, CutsAtTheBoundOnAWord) {
  AnswerGuard g(12);
  std::string out;
  EXPECT_TRUE(g.feed("one two ", out));
  EXPECT_FALSE(g.feed("three four", out));  // "three" would end past 12 characters: not said at all
  EXPECT_EQ(out, "one two ");
  EXPECT_TRUE(g.cut());
  EXPECT_FALSE(g.feed("more", out));
  EXPECT_EQ(out, "one two ");
  EXPECT_EQ(guarded({"one two three four"}, 12), "one two");  // within one piece: back to its last space
  EXPECT_EQ(guarded({"one tw", "o three"}, 12), "one two");   // a word begun in the last piece ends here
  // Pieces of their own (the brain hands each piece a fresh buffer): the word that would pass is not begun.
  AnswerGuard fresh(12);
  std::string a, b;
  fresh.feed("one two ", a);
  fresh.feed("three", b);
  EXPECT_EQ(a + b, "one two ");
  // A piece without a space is cut at the bound itself (no earlier word to go back to in it).
  EXPECT_EQ(guarded({"abcdefghijklmnop"}, 5), "abcde");
  // Exactly at the bound is not a cut.
  AnswerGuard exact(3);
  std::string e;
  EXPECT_TRUE(exact.feed("abc", e));
  EXPECT_FALSE(exact.cut());
  // Characters, not bytes: three two-byte letters fit a bound of 3.
  EXPECT_EQ(guarded({"\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"}, 3), "\xc3\xa9\xc3\xa9\xc3\xa9");
}

ChatOutcome askFault(ServerFault fault, Collect& sink, uint32_t maxTokens = 20) {
  auto server = startServer(fault);
  EXPECT_NE(server, nullptr);
  if (!server) return {};
  auto client = CloudClient::create(clientFor(server->port()));
  EXPECT_TRUE(client);
  if (!client) return {};
  return (*client)->chat(storyRequest(maxTokens), sink);
}

// A 50 MB stream stops at the request's max_tokens in bytes, after delivering exactly that much, and the client
// stops reading soon after. Before: 1 MB of answer (the fixed limit), tens of MB read.
TEST(CloudUntrusted, FiftyMegabyteStreamStopsAtTheMaxTokensBound) {
  Collect sink;
  const ChatOutcome o = askFault({ServerFault::Kind::flood, 50u << 20}, sink, 64);
  EXPECT_EQ(o.error, CloudErrc::tooLarge) << o.message;
  EXPECT_EQ(o.answerBytes, maxAnswerBytesFor(64));
  EXPECT_EQ(sink.text.size(), maxAnswerBytesFor(64));
  EXPECT_EQ(sink.text.rfind("word word ", 0), 0u);
  EXPECT_LT(o.bytesReceived, size_t{1} << 20);
  std::printf("[ figure ] 50 MB stream, max_tokens 64: %zu bytes of answer, %zu bytes read\n", o.answerBytes,
              o.bytesReceived);
}

// A reset and a malformed chunk after some text are typed failures, with the text before them delivered.
TEST(CloudUntrusted, ResetAndMalformedChunkMidStream) {
  Collect reset;
  const ChatOutcome r = askFault({ServerFault::Kind::reset, 3}, reset);
  EXPECT_EQ(r.error, CloudErrc::disconnected) << r.message;
  EXPECT_EQ(r.deltas, 3u);
  EXPECT_EQ(kStory20.rfind(reset.text, 0), 0u) << reset.text;
  Collect bad;
  const ChatOutcome m = askFault({ServerFault::Kind::malformed, 2}, bad);
  EXPECT_EQ(m.error, CloudErrc::malformedStream) << m.message;
  EXPECT_EQ(m.deltas, 2u);
  EXPECT_FALSE(bad.text.empty());
}

TEST(CloudUntrusted, NewFaultSpecs) {
  EXPECT_EQ(parseServerFault("trickle:1000")->kind, ServerFault::Kind::trickle);
  EXPECT_EQ(parseServerFault("reset:3")->kind, ServerFault::Kind::reset);
  EXPECT_EQ(parseServerFault("malformed:0")->kind, ServerFault::Kind::malformed);
  EXPECT_EQ(parseServerFault("flood:52428800")->value, 52428800u);
  for (const char* bad : {"trickle", "reset:x", "flood:", "malformed"}) EXPECT_FALSE(parseServerFault(bad)) << bad;
}

}  // namespace
}  // namespace sotto::cloud::test
