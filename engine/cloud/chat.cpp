// SPDX-License-Identifier: MIT
// The chat-completions request body and the streamed answer decoder (see chat.h).
#include "engine/cloud/chat.h"

#include <cmath>
#include <cstdio>

#include "engine/cloud/json.h"

namespace sotto::cloud {

const char* cloudErrcName(CloudErrc e) {
  switch (e) {
    case CloudErrc::none: return "none";
    case CloudErrc::refused: return "refused";
    case CloudErrc::tls: return "tls";
    case CloudErrc::connect: return "connect";
    case CloudErrc::httpStatus: return "http-status";
    case CloudErrc::malformedStream: return "malformed-stream";
    case CloudErrc::invalidJson: return "invalid-json";
    case CloudErrc::lineTooLong: return "line-too-long";
    case CloudErrc::tooLarge: return "too-large";
    case CloudErrc::serverError: return "server-error";
    case CloudErrc::firstByteTimeout: return "first-byte-timeout";
    case CloudErrc::idleTimeout: return "idle-timeout";
    case CloudErrc::disconnected: return "disconnected";
    case CloudErrc::cancelled: return "cancelled";
    case CloudErrc::io: return "io";
  }
  return "?";
}

std::string buildChatRequestBody(const ChatRequest& request) {
  std::string b = "{\"model\":";
  json::appendString(b, request.model);
  b += ",\"messages\":[";
  for (size_t i = 0; i < request.messages.size(); ++i) {
    if (i != 0) b += ',';
    b += "{\"role\":";
    json::appendString(b, request.messages[i].role);
    b += ",\"content\":";
    json::appendString(b, request.messages[i].content);
    b += '}';
  }
  b += "],\"max_tokens\":" + std::to_string(request.maxTokens);
  if (request.temperature && std::isfinite(*request.temperature)) {
    char t[32];
    std::snprintf(t, sizeof t, "%.3g", static_cast<double>(*request.temperature));
    b += ",\"temperature\":";
    b += t;
  }
  if (!request.user.empty()) {
    b += ",\"user\":";
    json::appendString(b, request.user);
  }
  b += ",\"stream\":true}";
  return b;
}

ChatStreamDecoder::ChatStreamDecoder(DeltaSink& sink, const StreamLimits& limits)
    : sink_(sink), limits_(limits), sse_(limits.sse) {}

bool ChatStreamDecoder::fail(CloudErrc e, std::string message) {
  if (error_ == CloudErrc::none) {
    error_ = e;
    message_ = std::move(message);
  }
  return false;
}

bool ChatStreamDecoder::feed(std::string_view bytes) {
  if (done_ || error_ != CloudErrc::none) return false;
  const SseState s = sse_.feed(bytes, *this);
  if (s == SseState::lineTooLong)
    return fail(CloudErrc::lineTooLong,
                "event-stream line longer than " + std::to_string(limits_.sse.maxLineBytes) + " bytes");
  if (s == SseState::eventTooLarge)
    return fail(CloudErrc::tooLarge, "event larger than " + std::to_string(limits_.sse.maxEventBytes) + " bytes");
  return !done_ && error_ == CloudErrc::none;
}

void ChatStreamDecoder::finish() {
  if (done_ || error_ != CloudErrc::none) return;
  // Some servers close right after the chunk with finish_reason instead of sending [DONE]: the answer is whole.
  if (!finishReason_.empty() && !sse_.pending()) {
    done_ = true;
    return;
  }
  fail(CloudErrc::disconnected, deltas_ == 0 ? "the stream ended before any answer"
                                             : "the stream ended mid-answer after " + std::to_string(deltas_) +
                                                   " chunks");
}

namespace {

// The human-readable part of an OpenAI-style error value: {"message": ...} or a bare string.
std::string errorText(const json::Value& err) {
  if (err.isString()) return err.asString();
  if (const std::string* m = err.findString("message")) return *m;
  return "(no message)";
}

std::string clip(std::string_view s, size_t n = 200) {
  return s.size() <= n ? std::string(s) : std::string(s.substr(0, n)) + "...";
}

}  // namespace

bool ChatStreamDecoder::onEvent(std::string_view event, std::string_view data) {
  if (data == "[DONE]") {
    done_ = true;
    return false;
  }
  json::Limits jl;
  jl.maxInputBytes = limits_.sse.maxEventBytes;
  auto v = json::parse(data, jl);
  if (!v) return fail(CloudErrc::invalidJson, v.error().message);
  if (event == "error") return fail(CloudErrc::serverError, "server error event: " + clip(errorText(*v)));
  if (!v->isObject()) return fail(CloudErrc::malformedStream, "a chunk that is not a JSON object");
  if (const json::Value* err = v->find("error"); err != nullptr && !err->isNull())
    return fail(CloudErrc::serverError, "server error: " + clip(errorText(*err)));
  const json::Value* choices = v->find("choices");
  if (choices == nullptr) return fail(CloudErrc::malformedStream, "a chunk without \"choices\"");
  if (!choices->isArray()) return fail(CloudErrc::malformedStream, "\"choices\" is not an array");
  const json::Value* c0 = choices->at(0);
  if (c0 == nullptr) return true;  // e.g. a final usage chunk
  if (!c0->isObject()) return fail(CloudErrc::malformedStream, "a choice that is not an object");
  if (const std::string* fr = c0->findString("finish_reason")) finishReason_ = clip(*fr, 64);
  const json::Value* delta = c0->find("delta");
  if (delta == nullptr || delta->isNull()) return true;
  if (!delta->isObject()) return fail(CloudErrc::malformedStream, "\"delta\" is not an object");
  const json::Value* content = delta->find("content");
  if (content == nullptr || content->isNull()) return true;  // role-only or tool chunks
  if (!content->isString()) return fail(CloudErrc::malformedStream, "\"delta.content\" is not a string");
  const std::string& text = content->asString();
  if (answerBytes_ + text.size() > limits_.maxAnswerBytes) {
    // What fits is still the answer's (the caller ends it honestly); cut on a UTF-8 sequence boundary.
    size_t keep = limits_.maxAnswerBytes - answerBytes_;
    while (keep > 0 && (static_cast<unsigned char>(text[keep]) & 0xC0) == 0x80) --keep;
    if (keep > 0) {
      answerBytes_ += keep;
      ++deltas_;
      sink_.onDelta(std::string_view(text).substr(0, keep));
    }
    return fail(CloudErrc::tooLarge, "answer longer than " + std::to_string(limits_.maxAnswerBytes) + " bytes");
  }
  if (text.empty()) return true;  // e.g. the role chunk's ""
  answerBytes_ += text.size();
  ++deltas_;
  sink_.onDelta(text);
  return true;
}

}  // namespace sotto::cloud
