// SPDX-License-Identifier: MIT
// CloudClient: streams a chat completion from an OpenAI-compatible server over HTTPS (libcurl + OpenSSL) with
// certificate verification, optional mTLS, an API key from a file, connect/first-byte/idle timeouts and
// barge-in cancellation; every failure comes back as a typed CloudErrc, never a crash.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "engine/cloud/chat.h"
#include "engine/pipeline/cancel_token.h"
#include "sotto/hal/result.h"

namespace sotto::cloud {

// The system's CA bundle (Debian's ca-certificates), used when no CA file is configured.
inline constexpr const char* kSystemCaBundle = "/etc/ssl/certs/ca-certificates.crt";

struct ClientOptions {
  // Base URL, e.g. "https://api.example.com" or "https://api.example.com/v1": the client POSTs to
  // {endpoint}/v1/chat/completions (just /chat/completions when the endpoint already ends in /v1).
  // http:// is accepted only for loopback hosts (127.0.0.0/8, ::1, localhost).
  std::string endpoint;
  std::string caFile;          // trust only these CAs (PEM); empty = kSystemCaBundle
  std::string clientCertFile;  // mTLS client certificate (PEM); with clientKeyFile, or empty
  std::string clientKeyFile;   // its private key (PEM)
  std::string apiKeyFile;      // file holding the API key, sent as "Authorization: Bearer"; empty = none
  uint32_t connectTimeoutMs = 2000;    // TCP + TLS handshake
  uint32_t firstByteTimeoutMs = 5000;  // request start to the first response byte
  uint32_t idleTimeoutMs = 5000;       // longest silence once the response has begun
  StreamLimits limits;
};

// How one request went. The audit log records `requestBody` when `requestSent`.
struct ChatOutcome {
  CloudErrc error = CloudErrc::none;
  std::string message;       // one line, for logs (never contains the API key)
  long httpStatus = 0;       // 0 when no response arrived
  std::string requestBody;   // exactly the bytes POSTed (or that would have been)
  bool requestSent = false;  // some of the body left the device
  std::string finishReason;  // "stop", "length", ... when the server sent one
  size_t deltas = 0;         // content chunks delivered to the sink
  size_t answerBytes = 0;
  size_t bytesReceived = 0;  // response body bytes
  double firstByteMs = -1.0, firstDeltaMs = -1.0, totalMs = 0.0;  // from the start of the request
  bool ok() const { return error == CloudErrc::none; }
  Error toError() const;  // as a sotto::Error (Errc by class: permission, io, corrupt, busy)
};

// Threading: create() on any thread; chat() blocks its caller until the answer completes, fails or is
// cancelled, one chat() at a time per client (it reuses one curl handle, hence kept-alive connections). `cancel` may be set from any thread: chat() notices within
// ~20 ms (it polls the transfer in 20 ms steps) and returns CloudErrc::cancelled.
class CloudClient {
 public:
  // Checks the options (URL, the loopback rule for http, CA/cert files readable, API key file) without any
  // network access. Errors: Errc::permission for http to a non-loopback host, Errc::invalid_argument for a bad
  // URL or option, Errc::io/not_found for unreadable files.
  static Result<std::unique_ptr<CloudClient>> create(const ClientOptions& options);
  ~CloudClient();
  CloudClient(const CloudClient&) = delete;
  CloudClient& operator=(const CloudClient&) = delete;

  ChatOutcome chat(const ChatRequest& request, DeltaSink& sink, const pipeline::CancelToken* cancel = nullptr);

  const std::string& url() const { return url_; }

 private:
  CloudClient();
  struct Transfer;
  struct Handles;  // curl's multi + easy handles, kept so connections and the parsed CA store are reused

  ClientOptions options_;
  std::string url_;
  std::string authHeader_;  // "Authorization: Bearer ..." or empty
  bool https_ = true;
  std::unique_ptr<Handles> handles_;
};

// True for hosts that never leave the machine: "localhost", 127.0.0.0/8, ::1 (with or without brackets).
bool isLoopbackHost(const std::string& host);

}  // namespace sotto::cloud
