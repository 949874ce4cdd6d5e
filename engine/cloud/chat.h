// SPDX-License-Identifier: MIT
// The OpenAI-compatible chat-completions wire format: the request body we send and the decoder of the streamed
// answer (server-sent events carrying JSON chunks). No network here: the client and the fuzzer share it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/cloud/sse.h"

namespace sotto::cloud {

struct ChatMessage {
  std::string role;  // "system", "user" or "assistant"
  std::string content;
};

struct ChatRequest {
  std::string model;
  std::vector<ChatMessage> messages;
  uint32_t maxTokens = 256;
  std::optional<float> temperature;  // absent = the server's default
  std::string user;  // OpenAI's end-user id: the device's rotating pseudonym, never a real identity ("" = none)
};

// Exactly the bytes POSTed to /v1/chat/completions (always "stream": true). Any thread.
std::string buildChatRequestBody(const ChatRequest& request);

// Why a cloud answer ended badly; `none` = it completed.
enum class CloudErrc : uint8_t {
  none,
  refused,           // the request may not be made (plain http to a non-loopback host, bad URL, bad settings)
  tls,               // TLS handshake or certificate verification failed
  connect,           // no connection (refused, unreachable, name unknown, connect timeout)
  httpStatus,        // the server answered with a non-2xx status
  malformedStream,   // not an event stream of chat chunks (wrong content type, chunk of the wrong shape)
  invalidJson,       // an event's data is not JSON
  lineTooLong,       // an event-stream line beyond the limit (endless line)
  tooLarge,          // an event or the whole answer beyond its limit
  serverError,       // the stream carried an error object
  firstByteTimeout,  // no response byte within the first-byte timeout
  idleTimeout,       // the stream stalled longer than the idle timeout
  disconnected,      // the connection ended before the answer was complete
  cancelled,         // the caller's cancel token fired (barge-in)
  io,                // local failure (API key file, out of memory, curl internals)
};
const char* cloudErrcName(CloudErrc e);

// Receives the answer's text as it streams. Called on the thread that runs the request; keep it short.
class DeltaSink {
 public:
  virtual void onDelta(std::string_view text) = 0;

 protected:
  DeltaSink() = default;
  DeltaSink(const DeltaSink&) = default;
  DeltaSink& operator=(const DeltaSink&) = default;
  ~DeltaSink() = default;
};

struct StreamLimits {
  SseLimits sse;
  size_t maxAnswerBytes = 1u << 20;  // text of all deltas together
};

// The byte bound equivalent to a request's max_tokens: a server that sends more than it was asked for is cut
// there (CloudErrc::tooLarge after the text up to the bound). Generous for real tokenizers (English averages about
// 4 bytes a token; long tokens of spaces or CJK about 12). Any thread.
inline constexpr size_t kMaxAnswerBytesPerToken = 16;
constexpr size_t maxAnswerBytesFor(uint32_t maxTokens) {
  return static_cast<size_t>(maxTokens == 0 ? 1 : maxTokens) * kMaxAnswerBytesPerToken;
}

// Decodes a chat-completions event stream fed in arbitrary pieces: each chunk's choices[0].delta.content goes to
// the sink; "data: [DONE]" completes it; an "error" object (in a chunk or an "error" event) ends it as
// serverError. One stream per decoder, one thread. Memory stays within `limits`; the delta that would pass
// maxAnswerBytes is delivered up to the bound (whole UTF-8 sequences) and the stream then fails as tooLarge.
class ChatStreamDecoder final : private SseHandler {
 public:
  ChatStreamDecoder(DeltaSink& sink, const StreamLimits& limits = {});

  // Returns false once the stream failed or completed (further bytes are ignored).
  bool feed(std::string_view bytes);
  // The connection ended: a stream without [DONE] and without a finish_reason is `disconnected`.
  void finish();

  bool done() const { return done_; }
  CloudErrc error() const { return error_; }
  const std::string& message() const { return message_; }
  const std::string& finishReason() const { return finishReason_; }
  size_t deltas() const { return deltas_; }  // non-empty content chunks delivered
  size_t answerBytes() const { return answerBytes_; }

 private:
  bool onEvent(std::string_view event, std::string_view data) override;
  bool fail(CloudErrc e, std::string message);

  DeltaSink& sink_;
  StreamLimits limits_;
  SseParser sse_;
  CloudErrc error_ = CloudErrc::none;
  std::string message_;
  std::string finishReason_;
  bool done_ = false;
  size_t deltas_ = 0, answerBytes_ = 0;
};

}  // namespace sotto::cloud
