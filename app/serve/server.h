// SPDX-License-Identifier: MIT
// LoopbackServer: serves the local model over the OpenAI-compatible chat-completions protocol (streamed server-sent
// events) on a loopback socket — the real peer the cloud client is tested against — with fault injection. It lives
// in app/ (sotto serve), not beside the client in engine/cloud, so that the cloud client does not need the model.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "engine/llm/generator.h"
#include "engine/llm/model.h"
#include "engine/pipeline/cancel_token.h"
#include "sotto/hal/result.h"

namespace sotto::serve {

// What the server does wrong on purpose, for tests of the client's failure handling.
struct ServerFault {
  enum class Kind : uint8_t {
    none,
    delay,        // wait `value` ms before the response's first byte
    error,        // answer with HTTP status `value` and an OpenAI-style error body
    garbage,      // a valid first chunk, then an event whose data is not JSON
    disconnect,   // close the connection after `value` content chunks, without [DONE]
    stall,        // send the headers and the role chunk, then nothing until the client leaves
    endlessLine,  // an event-stream line that never ends
    trickle,      // one "." content chunk every `value` ms, kTrickleChunks of them, then [DONE] (no model)
    reset,        // reset the connection (TCP RST) after `value` content chunks
    malformed,    // after `value` content chunks, a JSON chunk of the wrong shape ("choices" not an array)
    flood,        // `value` bytes of content ("word word ...", 4 KiB a chunk) as fast as the client reads, then
                  // [DONE] (no model)
  };
  Kind kind = Kind::none;
  uint32_t value = 0;
};

inline constexpr uint32_t kTrickleChunks = 60;

// "delay:MS", "error:CODE", "garbage", "disconnect:AFTER_N", "stall", "endless-line", "trickle:MS", "reset:AFTER_N",
// "malformed:AFTER_N", "flood:BYTES" (or "" for none).
Result<ServerFault> parseServerFault(std::string_view spec);

struct ServerOptions {
  std::string bind = "127.0.0.1";  // numeric address; a non-loopback one needs allowRemote and apiKey
  uint16_t port = 0;               // 0 = an ephemeral port (see LoopbackServer::port())
  bool allowRemote = false;
  // When set, every request must carry "Authorization: Bearer <apiKey>" (checked in constant time), else 401.
  std::string apiKey;
  uint32_t requestDeadlineMs = 5000;  // a connection's whole request (head and body) must arrive within this
  uint32_t maxPending = 8;            // connections still sending their request; a new one evicts the oldest
  ServerFault fault;
  std::string modelName = "sotto-local";  // the "model" field of the answers
  uint32_t maxTokensCap = 1024;           // a request's max_tokens is clamped to this
  std::string recordFile;                 // when set, every request body is appended to it (one per line)
  // When set, the streamed answer is this text instead of the model's, sent 3 bytes a chunk (so placeholders and
  // UTF-8 sequences arrive split); "{user}" in it stands for the last user message as received. Faults still apply
  // (delay, error, stall, reset and malformed count these chunks).
  std::string script;
};

// Threading: start() on the control thread spawns one server thread. It reads every connection's request without
// blocking, each under its own deadline (a slow or silent client holds nobody up), answers complete requests one
// at a time and alone drives `generator` (which must outlive the server and not be used elsewhere meanwhile).
// stop() (or the destructor) from the control thread: it cancels a running answer and joins within ~100 ms.
class LoopbackServer {
 public:
  static Result<std::unique_ptr<LoopbackServer>> start(llm::Generator& generator, const llm::Model& model,
                                                       const ServerOptions& options);
  ~LoopbackServer();
  LoopbackServer(const LoopbackServer&) = delete;
  LoopbackServer& operator=(const LoopbackServer&) = delete;

  uint16_t port() const { return port_; }
  void stop();
  size_t requests() const { return requests_.load(); }
  // The request bodies received so far (the last 64), exactly as they arrived. Any thread.
  std::vector<std::string> receivedBodies() const;

 private:
  LoopbackServer(llm::Generator& g, const llm::Model& m) : generator_(g), model_(m) {}
  void loop();
  void serve(int fd, const std::string& head, const std::string& body, const std::string& authorization,
             int status);
  class Connection;

  llm::Generator& generator_;
  const llm::Model& model_;
  ServerOptions options_;
  int listenFd_ = -1;
  int wakeFds_[2] = {-1, -1};  // stop() writes a byte: every wait in the server thread watches it
  uint16_t port_ = 0;
  std::thread thread_;
  pipeline::CancelToken stopping_;
  std::atomic<size_t> requests_{0};
  mutable std::mutex bodiesMutex_;
  std::vector<std::string> bodies_;
};

}  // namespace sotto::serve
