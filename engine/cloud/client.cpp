// SPDX-License-Identifier: MIT
// CloudClient on libcurl's multi interface (see client.h): the transfer is polled in short steps so timeouts and
// cancellation are ours, not curl's once-a-second progress callback.
#include "engine/cloud/client.h"

#include <arpa/inet.h>
#include <curl/curl.h>
#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <mutex>

#include "engine/cloud/json.h"

namespace sotto::cloud {
namespace {

using Clock = std::chrono::steady_clock;
constexpr int kPollStepMs = 20;
constexpr double kDoneGraceMs = 200.0;
constexpr size_t kMaxErrorBody = 4096;
constexpr size_t kMaxApiKeyBytes = 4096;

double msSince(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

bool globalInit() {
  static std::once_flag once;
  static bool ok = false;
  std::call_once(once, [] { ok = curl_global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK; });
  return ok;
}

bool readable(const std::string& path) {
  FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) return false;
  std::fclose(f);
  return true;
}

Result<std::string> readApiKey(const std::string& path) {
  FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) return makeError(Errc::not_found, "cloud API key file '" + path + "' cannot be opened");
  std::string key(kMaxApiKeyBytes + 1, '\0');
  const size_t n = std::fread(key.data(), 1, key.size(), f);
  std::fclose(f);
  if (n > kMaxApiKeyBytes) return makeError(Errc::invalid_argument, "cloud API key file '" + path + "' is too large");
  key.resize(n);
  while (!key.empty() && (key.back() == '\n' || key.back() == '\r' || key.back() == ' ' || key.back() == '\t'))
    key.pop_back();
  if (key.empty()) return makeError(Errc::invalid_argument, "cloud API key file '" + path + "' is empty");
  for (unsigned char c : key)
    if (c < 0x21 || c == 0x7F)  // would break (or inject into) the header
      return makeError(Errc::invalid_argument, "cloud API key file '" + path + "' holds more than one token");
  return key;
}

std::string lowerAscii(std::string s) {
  for (char& c : s)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return s;
}

CloudErrc classify(CURLcode rc) {
  switch (rc) {
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_RESOLVE_PROXY:
    case CURLE_COULDNT_CONNECT:
    case CURLE_OPERATION_TIMEDOUT:
      return CloudErrc::connect;
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_SSL_CACERT_BADFILE:
    case CURLE_SSL_CERTPROBLEM:
    case CURLE_SSL_CIPHER:
    case CURLE_SSL_ENGINE_NOTFOUND:
    case CURLE_SSL_ISSUER_ERROR:
    case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
    case CURLE_SSL_INVALIDCERTSTATUS:
    case CURLE_SSL_CRL_BADFILE:
    case CURLE_SSL_SHUTDOWN_FAILED:
      return CloudErrc::tls;
    case CURLE_RECV_ERROR:
    case CURLE_SEND_ERROR:
    case CURLE_PARTIAL_FILE:
    case CURLE_GOT_NOTHING:
    case CURLE_HTTP2:
    case CURLE_HTTP2_STREAM:
      return CloudErrc::disconnected;
    case CURLE_WEIRD_SERVER_REPLY:
    case CURLE_UNSUPPORTED_PROTOCOL:
    case CURLE_BAD_CONTENT_ENCODING:
      return CloudErrc::malformedStream;
    default:
      return CloudErrc::io;
  }
}

}  // namespace

bool isLoopbackHost(const std::string& hostIn) {
  std::string host = lowerAscii(hostIn);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  if (host == "localhost" || host == "localhost.") return true;
  in_addr a4{};
  if (inet_pton(AF_INET, host.c_str(), &a4) == 1) return (ntohl(a4.s_addr) >> 24) == 127;
  in6_addr a6{};
  if (inet_pton(AF_INET6, host.c_str(), &a6) == 1) {
    if (IN6_IS_ADDR_LOOPBACK(&a6)) return true;
    // ::ffff:127.x.y.z
    return IN6_IS_ADDR_V4MAPPED(&a6) && a6.s6_addr[12] == 127;
  }
  return false;
}

Error ChatOutcome::toError() const {
  Errc c = Errc::io;
  switch (error) {
    case CloudErrc::none: c = Errc::internal; break;
    case CloudErrc::refused: c = Errc::permission; break;
    case CloudErrc::tls: c = Errc::permission; break;
    case CloudErrc::malformedStream:
    case CloudErrc::invalidJson:
    case CloudErrc::lineTooLong:
    case CloudErrc::tooLarge:
    case CloudErrc::serverError: c = Errc::corrupt; break;
    case CloudErrc::cancelled: c = Errc::busy; break;
    default: c = Errc::io; break;
  }
  return makeError(c, std::string("cloud ") + cloudErrcName(error) + ": " + message);
}

struct CloudClient::Handles {
  CURLM* multi = nullptr;
  CURL* easy = nullptr;
  ~Handles() {
    if (easy != nullptr) curl_easy_cleanup(easy);
    if (multi != nullptr) curl_multi_cleanup(multi);
  }
};

CloudClient::CloudClient() : handles_(std::make_unique<Handles>()) {}
CloudClient::~CloudClient() = default;

Result<std::unique_ptr<CloudClient>> CloudClient::create(const ClientOptions& options) {
  if (!globalInit()) return makeError(Errc::internal, "libcurl could not be initialized");
  if (options.endpoint.empty()) return makeError(Errc::invalid_argument, "cloud endpoint is empty");
  std::unique_ptr<CloudClient> c(new CloudClient());
  c->options_ = options;

  CURLU* u = curl_url();
  if (u == nullptr) return makeError(Errc::internal, "out of memory");
  std::string scheme, host;
  const CURLUcode uc = curl_url_set(u, CURLUPART_URL, options.endpoint.c_str(), 0);
  if (uc == CURLUE_OK) {
    char* part = nullptr;
    if (curl_url_get(u, CURLUPART_SCHEME, &part, 0) == CURLUE_OK) scheme = lowerAscii(part);
    curl_free(part);
    part = nullptr;
    if (curl_url_get(u, CURLUPART_HOST, &part, 0) == CURLUE_OK) host = part;
    curl_free(part);
  }
  curl_url_cleanup(u);
  if (uc != CURLUE_OK || host.empty())
    return makeError(Errc::invalid_argument, "cloud endpoint '" + options.endpoint + "' is not a valid URL");
  if (scheme == "http") {
    if (!isLoopbackHost(host))
      return makeError(Errc::permission, "cloud endpoint '" + options.endpoint +
                                             "': plain http:// is allowed only to a loopback host; use https://");
    c->https_ = false;
  } else if (scheme != "https") {
    return makeError(Errc::invalid_argument, "cloud endpoint '" + options.endpoint + "' must be https:// (or http:// to loopback)");
  }
  if (options.endpoint.find_first_of("?#") != std::string::npos)
    return makeError(Errc::invalid_argument, "cloud endpoint '" + options.endpoint + "' must not have a query");

  std::string base = options.endpoint;
  while (!base.empty() && base.back() == '/') base.pop_back();
  const bool hasV1 = base.size() >= 3 && base.compare(base.size() - 3, 3, "/v1") == 0;
  c->url_ = base + (hasV1 ? "/chat/completions" : "/v1/chat/completions");

  const std::string ca = options.caFile.empty() ? kSystemCaBundle : options.caFile;
  if (c->https_ && !readable(ca)) return makeError(Errc::not_found, "cloud CA file '" + ca + "' cannot be read");
  if (options.clientCertFile.empty() != options.clientKeyFile.empty())
    return makeError(Errc::invalid_argument, "cloud client certificate and key must be set together");
  for (const std::string* f : {&options.clientCertFile, &options.clientKeyFile})
    if (!f->empty() && !readable(*f)) return makeError(Errc::not_found, "cloud TLS file '" + *f + "' cannot be read");
  if (!options.apiKeyFile.empty()) {
    auto key = readApiKey(options.apiKeyFile);
    if (!key) return std::move(key).error();
    c->authHeader_ = "Authorization: Bearer " + *key;
  }
  if (options.connectTimeoutMs == 0 || options.firstByteTimeoutMs == 0 || options.idleTimeoutMs == 0)
    return makeError(Errc::invalid_argument, "cloud timeouts must be positive");
  c->handles_->multi = curl_multi_init();
  c->handles_->easy = curl_easy_init();
  if (c->handles_->multi == nullptr || c->handles_->easy == nullptr)
    return makeError(Errc::internal, "libcurl handles could not be created");
  return c;
}

// Per-request state the curl callbacks see.
struct CloudClient::Transfer {
  Transfer(DeltaSink& sink, const StreamLimits& limits) : decoder(sink, limits) {}
  CURL* easy = nullptr;
  ChatOutcome* out = nullptr;
  ChatStreamDecoder decoder;
  Clock::time_point start, lastByte;
  bool gotByte = false;
  bool checkedHead = false;
  bool eventStream = false;
  std::string errorBody;  // body of a non-2xx or non-event-stream answer (bounded)
  CloudErrc abortWith = CloudErrc::none;
  std::string abortMessage;

  void touch() {
    const auto now = Clock::now();
    if (!gotByte) {
      gotByte = true;
      out->firstByteMs = std::chrono::duration<double, std::milli>(now - start).count();
    }
    lastByte = now;
  }

  static size_t onHeader(char* p, size_t size, size_t n, void* ud) {
    static_cast<Transfer*>(ud)->touch();
    (void)p;
    return size * n;
  }

  static size_t onBody(char* p, size_t size, size_t n, void* ud) {
    auto* t = static_cast<Transfer*>(ud);
    const size_t len = size * n;
    t->touch();
    t->out->bytesReceived += len;
    if (!t->checkedHead) {
      t->checkedHead = true;
      curl_easy_getinfo(t->easy, CURLINFO_RESPONSE_CODE, &t->out->httpStatus);
      char* ct = nullptr;
      curl_easy_getinfo(t->easy, CURLINFO_CONTENT_TYPE, &ct);
      const std::string type = ct != nullptr ? lowerAscii(ct) : std::string();
      t->eventStream = type.rfind("text/event-stream", 0) == 0;
    }
    const bool success = t->out->httpStatus >= 200 && t->out->httpStatus < 300;
    if (!success || !t->eventStream) {
      const size_t room = kMaxErrorBody - t->errorBody.size();
      t->errorBody.append(p, std::min(room, len));
      return len <= room ? len : 0;  // enough to explain it; stop reading the rest
    }
    if (!t->decoder.feed(std::string_view(p, len))) {
      if (t->decoder.error() != CloudErrc::none) return 0;  // abort the transfer
    }
    if (t->out->firstDeltaMs < 0 && t->decoder.deltas() > 0) t->out->firstDeltaMs = msSince(t->start);
    return len;
  }
};

namespace {

// The message of an OpenAI-style error body ({"error":{"message":...}}), else the start of the body, on one line.
std::string describeErrorBody(const std::string& body) {
  std::string text = body.substr(0, 200);
  if (auto v = json::parse(body); v && v->isObject()) {
    if (const json::Value* e = v->find("error")) {
      if (e->isString()) text = e->asString().substr(0, 200);
      else if (const std::string* m = e->findString("message")) text = m->substr(0, 200);
    }
  }
  for (char& c : text)
    if (static_cast<unsigned char>(c) < 0x20) c = ' ';
  return text;
}

}  // namespace

ChatOutcome CloudClient::chat(const ChatRequest& request, DeltaSink& sink, const pipeline::CancelToken* cancel) {
  ChatOutcome out;
  out.requestBody = buildChatRequestBody(request);
  StreamLimits limits = options_.limits;
  limits.maxAnswerBytes = std::min(limits.maxAnswerBytes, maxAnswerBytesFor(request.maxTokens));
  Transfer t(sink, limits);
  t.out = &out;
  t.start = Clock::now();
  const auto fail = [&](CloudErrc e, std::string m) {
    out.error = e;
    out.message = std::move(m);
    out.totalMs = msSince(t.start);
    return out;
  };
  if (cancel != nullptr && cancel->cancelled()) return fail(CloudErrc::cancelled, "cancelled before the request");

  CURL* easy = handles_->easy;
  CURLM* multi = handles_->multi;
  curl_easy_reset(easy);  // options from the last request go; its connection stays in the multi's cache
  curl_slist* headers = nullptr;
  for (const char* h : {"Content-Type: application/json", "Accept: text/event-stream", "Expect:"})
    headers = curl_slist_append(headers, h);
  if (!authHeader_.empty()) headers = curl_slist_append(headers, authHeader_.c_str());
  if (headers == nullptr) return fail(CloudErrc::io, "out of memory setting up the request");
  t.easy = easy;
  char errbuf[CURL_ERROR_SIZE] = {0};
  curl_easy_setopt(easy, CURLOPT_URL, url_.c_str());
  curl_easy_setopt(easy, CURLOPT_PROTOCOLS_STR, https_ ? "https" : "http");
  curl_easy_setopt(easy, CURLOPT_FOLLOWLOCATION, 0L);
  curl_easy_setopt(easy, CURLOPT_PROXY, "");  // never through a proxy from the environment
  curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(easy, CURLOPT_HTTP_VERSION, CURL_HTTP_VERSION_1_1);
  curl_easy_setopt(easy, CURLOPT_USERAGENT, "sotto");
  curl_easy_setopt(easy, CURLOPT_HTTPHEADER, headers);
  curl_easy_setopt(easy, CURLOPT_POST, 1L);
  curl_easy_setopt(easy, CURLOPT_POSTFIELDS, out.requestBody.data());
  curl_easy_setopt(easy, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(out.requestBody.size()));
  curl_easy_setopt(easy, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(options_.connectTimeoutMs));
  curl_easy_setopt(easy, CURLOPT_ERRORBUFFER, errbuf);
  curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, &Transfer::onBody);
  curl_easy_setopt(easy, CURLOPT_WRITEDATA, &t);
  curl_easy_setopt(easy, CURLOPT_HEADERFUNCTION, &Transfer::onHeader);
  curl_easy_setopt(easy, CURLOPT_HEADERDATA, &t);
  if (https_) {
    curl_easy_setopt(easy, CURLOPT_SSL_VERIFYPEER, 1L);
    curl_easy_setopt(easy, CURLOPT_SSL_VERIFYHOST, 2L);
    curl_easy_setopt(easy, CURLOPT_CAINFO, options_.caFile.empty() ? kSystemCaBundle : options_.caFile.c_str());
    if (!options_.caFile.empty()) curl_easy_setopt(easy, CURLOPT_CAPATH, nullptr);  // only the configured CAs
    if (!options_.clientCertFile.empty()) {
      curl_easy_setopt(easy, CURLOPT_SSLCERT, options_.clientCertFile.c_str());
      curl_easy_setopt(easy, CURLOPT_SSLKEY, options_.clientKeyFile.c_str());
    }
  }
  curl_multi_add_handle(multi, easy);

  CURLcode rc = CURLE_OK;
  bool finished = false;
  Clock::time_point doneAt{};
  for (;;) {
    int running = 0;
    if (curl_multi_perform(multi, &running) != CURLM_OK) {
      t.abortWith = CloudErrc::io;
      t.abortMessage = "curl multi interface failed";
      break;
    }
    int left = 0;
    while (CURLMsg* m = curl_multi_info_read(multi, &left)) {
      if (m->msg == CURLMSG_DONE) {
        rc = m->data.result;
        finished = true;
      }
    }
    if (finished || running == 0) break;
    // [DONE] arrived: the answer is whole. A server that then neither ends the response nor closes gets a short
    // grace, not the idle timeout.
    if (t.decoder.done()) {
      if (doneAt == Clock::time_point{}) doneAt = Clock::now();
      if (msSince(doneAt) > kDoneGraceMs) break;
    }
    if (cancel != nullptr && cancel->cancelled()) {
      t.abortWith = CloudErrc::cancelled;
      t.abortMessage = "cancelled (barge-in) after " + std::to_string(out.deltas) + " chunks";
      break;
    }
    if (!t.gotByte && msSince(t.start) > options_.firstByteTimeoutMs) {
      t.abortWith = CloudErrc::firstByteTimeout;
      t.abortMessage = "no response within " + std::to_string(options_.firstByteTimeoutMs) + " ms";
      break;
    }
    if (t.gotByte && msSince(t.lastByte) > options_.idleTimeoutMs) {
      t.abortWith = CloudErrc::idleTimeout;
      t.abortMessage = "the stream stalled for " + std::to_string(options_.idleTimeoutMs) + " ms";
      break;
    }
    curl_multi_poll(multi, nullptr, 0, kPollStepMs, nullptr);
  }
  curl_off_t uploaded = 0;
  curl_easy_getinfo(easy, CURLINFO_SIZE_UPLOAD_T, &uploaded);
  out.requestSent = uploaded > 0;
  if (out.httpStatus == 0) curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &out.httpStatus);
  curl_multi_remove_handle(multi, easy);
  curl_easy_setopt(easy, CURLOPT_ERRORBUFFER, nullptr);  // errbuf and the callbacks' state end here
  curl_slist_free_all(headers);

  out.deltas = t.decoder.deltas();
  out.answerBytes = t.decoder.answerBytes();
  out.finishReason = t.decoder.finishReason();
  if (t.abortWith != CloudErrc::none) return fail(t.abortWith, t.abortMessage);
  if (out.httpStatus != 0 && (out.httpStatus < 200 || out.httpStatus >= 300))
    return fail(CloudErrc::httpStatus, "HTTP " + std::to_string(out.httpStatus) +
                                           (t.errorBody.empty() ? "" : ": " + describeErrorBody(t.errorBody)));
  if (t.decoder.error() != CloudErrc::none) return fail(t.decoder.error(), t.decoder.message());
  if (t.checkedHead && !t.eventStream)
    return fail(CloudErrc::malformedStream, "the answer is not an event stream: " + describeErrorBody(t.errorBody));
  if (rc != CURLE_OK && !t.decoder.done()) {
    CloudErrc e = classify(rc);
    // A TLS alert after the handshake (TLS 1.3 reports a refused client certificate that way) is still TLS.
    if (e == CloudErrc::disconnected && std::string_view(errbuf).find("SSL routines") != std::string_view::npos)
      e = CloudErrc::tls;
    return fail(e, std::string(curl_easy_strerror(rc)) + (errbuf[0] != '\0' ? std::string(": ") + errbuf : ""));
  }
  t.decoder.finish();
  if (t.decoder.error() != CloudErrc::none) return fail(t.decoder.error(), t.decoder.message());
  out.totalMs = msSince(t.start);
  return out;
}

}  // namespace sotto::cloud
