// SPDX-License-Identifier: MIT
// libFuzzer target: arbitrary bytes as a chat-completions event stream, fed to sotto::cloud::ChatStreamDecoder in
// pieces whose sizes the input chooses, and each event's data through sotto::json::parse; aborts when memory or
// state invariants break (answer beyond its limit, a failed decoder that accepts more, a JSON round trip that
// changes a string).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "engine/cloud/chat.h"
#include "engine/cloud/json.h"

namespace {

[[noreturn]] void fail(const char* what) {
  std::fprintf(stderr, "cloud_fuzz: invariant broken: %s\n", what);
  std::abort();
}

struct Text final : sotto::cloud::DeltaSink {
  std::string text;
  void onDelta(std::string_view t) override {
    if (t.empty()) fail("an empty delta was delivered");
    text.append(t);
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  // Small limits so the fuzzer reaches them.
  sotto::cloud::StreamLimits limits;
  limits.sse.maxLineBytes = 512;
  limits.sse.maxEventBytes = 1024;
  limits.maxAnswerBytes = 256;
  const size_t step = 1 + data[0] % 17;  // piece size: CRLF and UTF-8 split across feeds
  const std::string_view in(reinterpret_cast<const char*>(data + 1), size - 1);

  Text sink;
  sotto::cloud::ChatStreamDecoder d(sink, limits);
  bool open = true;
  for (size_t i = 0; i < in.size(); i += step) {
    const bool more = d.feed(in.substr(i, step));
    if (!open && more) fail("the decoder accepted bytes after it ended");
    open = open && more;
  }
  d.finish();
  if (d.error() == sotto::cloud::CloudErrc::none && !d.done()) fail("finished without an outcome");
  if (d.error() != sotto::cloud::CloudErrc::none && d.message().empty()) fail("an error without a message");
  if (sink.text.size() != d.answerBytes() || sink.text.size() > limits.maxAnswerBytes) fail("answer size");

  // The same bytes as one JSON text: a string value survives a write/read round trip unchanged.
  auto v = sotto::json::parse(in);
  if (v && v->isString()) {
    auto back = sotto::json::parse(sotto::json::quote(v->asString()));
    if (!back || back->asString() != v->asString()) fail("JSON string round trip");
  }
  // Any bytes quoted are valid JSON.
  if (!sotto::json::parse(sotto::json::quote(in))) fail("quote() wrote invalid JSON");
  return 0;
}
