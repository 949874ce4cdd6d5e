// SPDX-License-Identifier: MIT
// LoopbackServer (see server.h): a minimal HTTP/1.1 server (one connection at a time, Connection: close,
// close-delimited bodies) that streams the local model's tokens as chat-completion chunks.
#include "app/serve/server.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>

#include <sodium.h>

#include "engine/cloud/client.h"  // isLoopbackHost: the client and the server agree on what loopback is
#include "engine/cloud/json.h"
#include "engine/llm/chat_template.h"

namespace sotto::serve {
namespace {

constexpr size_t kMaxHeaderBytes = 16u << 10;
constexpr size_t kMaxBodyBytes = 1u << 20;
constexpr int kReadTimeoutMs = 5000;  // one write of the answer may wait this long for the client
constexpr size_t kKeptBodies = 64;
constexpr size_t kEndlessLineCap = 64u << 20;  // even an endless line ends somewhere

bool parseU32(std::string_view s, uint32_t& out) {
  if (s.empty()) return false;
  const auto r = std::from_chars(s.data(), s.data() + s.size(), out);
  return r.ec == std::errc{} && r.ptr == s.data() + s.size();
}

std::string lower(std::string_view s) {
  std::string o(s);
  for (char& c : o)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return o;
}

const char* reasonPhrase(uint32_t code) {
  switch (code) {
    case 200: return "OK";
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
    case 408: return "Request Timeout";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 411: return "Length Required";
    case 413: return "Payload Too Large";
    case 429: return "Too Many Requests";
    case 500: return "Internal Server Error";
    case 503: return "Service Unavailable";
    default: return "Error";
  }
}

// A request as it arrived: the head (request line + headers), the body, the Authorization header's value.
struct Request {
  std::string head, body, authorization;
};

// Checks what a connection sent so far: 0 while more is needed, 1 when the head and the body given by
// Content-Length are complete (filled into `out`), or the HTTP status to answer with.
int checkRequest(const std::string& buf, Request& out) {
  const size_t headEnd = buf.find("\r\n\r\n");
  if (headEnd == std::string::npos) return buf.size() > kMaxHeaderBytes ? 413 : 0;
  if (headEnd > kMaxHeaderBytes) return 413;
  const std::string_view head(buf.data(), headEnd);
  size_t length = 0;
  bool haveLength = false;
  std::string authorization;
  for (size_t pos = head.find("\r\n"); pos != std::string_view::npos;) {
    const size_t next = head.find("\r\n", pos + 2);
    const std::string_view line = head.substr(pos + 2, next == std::string_view::npos ? std::string_view::npos
                                                                                      : next - pos - 2);
    pos = next;
    const size_t colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    const std::string name = lower(line.substr(0, colon));
    std::string_view value = line.substr(colon + 1);
    while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) value.remove_prefix(1);
    while (!value.empty() && (value.back() == ' ' || value.back() == '\t')) value.remove_suffix(1);
    if (name == "transfer-encoding") return 411;
    if (name == "authorization") authorization.assign(value);
    if (name == "content-length") {
      uint32_t v = 0;
      if (!parseU32(value, v)) return 400;
      length = v;
      haveLength = true;
    }
  }
  if (!haveLength && head.rfind("POST ", 0) == 0) return 411;
  if (length > kMaxBodyBytes) return 413;
  if (buf.size() - headEnd - 4 < length) return 0;
  out.head.assign(head);
  out.body = buf.substr(headEnd + 4, length);
  out.authorization = std::move(authorization);
  return 1;
}

// Constant-time check of "Bearer <key>": both sides hashed to one length first (BLAKE2b), so that neither the
// content nor the length of the expected key leaks through timing; compared with sodium_memcmp.
bool bearerMatches(std::string_view authorization, std::string_view key) {
  const std::string expected = "Bearer " + std::string(key);
  unsigned char a[crypto_generichash_BYTES], b[crypto_generichash_BYTES];
  crypto_generichash(a, sizeof a, reinterpret_cast<const unsigned char*>(authorization.data()), authorization.size(),
                     nullptr, 0);
  crypto_generichash(b, sizeof b, reinterpret_cast<const unsigned char*>(expected.data()), expected.size(), nullptr,
                     0);
  return sodium_memcmp(a, b, sizeof a) == 0;
}

}  // namespace

Result<ServerFault> parseServerFault(std::string_view spec) {
  ServerFault f;
  const size_t colon = spec.find(':');
  const std::string_view name = spec.substr(0, colon);
  const std::string_view arg = colon == std::string_view::npos ? std::string_view{} : spec.substr(colon + 1);
  const bool hasArg = colon != std::string_view::npos;
  const auto bad = [&] {
    return makeError(Errc::invalid_argument, "bad fault '" + std::string(spec) +
                                                 "': expected delay:MS, error:CODE, garbage, disconnect:AFTER_N, "
                                                 "stall, endless-line, trickle:MS, reset:AFTER_N, "
                                                 "malformed:AFTER_N or flood:BYTES");
  };
  if (spec.empty() || spec == "none") return f;
  if (name == "delay" || name == "error" || name == "disconnect" || name == "trickle" || name == "reset" ||
      name == "malformed" || name == "flood") {
    if (!hasArg || !parseU32(arg, f.value)) return bad();
    f.kind = name == "delay"        ? ServerFault::Kind::delay
             : name == "error"      ? ServerFault::Kind::error
             : name == "disconnect" ? ServerFault::Kind::disconnect
             : name == "trickle"    ? ServerFault::Kind::trickle
             : name == "reset"      ? ServerFault::Kind::reset
             : name == "malformed"  ? ServerFault::Kind::malformed
                                    : ServerFault::Kind::flood;
    if (f.kind == ServerFault::Kind::error && (f.value < 400 || f.value > 599)) return bad();
    return f;
  }
  if (hasArg) return bad();
  if (name == "garbage") f.kind = ServerFault::Kind::garbage;
  else if (name == "stall") f.kind = ServerFault::Kind::stall;
  else if (name == "endless-line") f.kind = ServerFault::Kind::endlessLine;
  else return bad();
  return f;
}

// One accepted connection: stop-aware reads and writes.
class LoopbackServer::Connection {
 public:
  Connection(int fd, int wakeFd) : fd_(fd), wakeFd_(wakeFd) {}
  ~Connection() { ::close(fd_); }
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  // Waits for `events` on the socket; false on stop, timeout, error or hang-up.
  bool wait(short events, int timeoutMs) {
    pollfd p[2] = {{fd_, events, 0}, {wakeFd_, POLLIN, 0}};
    const int n = ::poll(p, 2, timeoutMs);
    if (n <= 0 || (p[1].revents & POLLIN) != 0) return false;
    return (p[0].revents & events) != 0;
  }
  // Writes everything (false when the client left or the server stops).
  bool send(std::string_view data) {
    while (!data.empty()) {
      if (!wait(POLLOUT, kReadTimeoutMs)) return false;
      const ssize_t n = ::send(fd_, data.data(), data.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
      if (n < 0 && (errno == EAGAIN || errno == EINTR)) continue;
      if (n <= 0) return false;
      data.remove_prefix(static_cast<size_t>(n));
    }
    return true;
  }
  // Ends the connection with a TCP reset instead of an orderly close (the destructor closes it).
  void resetOnClose() {
    const linger l{1, 0};
    ::setsockopt(fd_, SOL_SOCKET, SO_LINGER, &l, sizeof l);
  }
  // True when the client closed its side (or the server stops) within `ms`.
  bool clientGoneWithin(int ms) {
    pollfd p[2] = {{fd_, POLLIN, 0}, {wakeFd_, POLLIN, 0}};
    if (::poll(p, 2, ms) <= 0) return false;
    if ((p[1].revents & POLLIN) != 0) return true;
    char c;
    return ::recv(fd_, &c, 1, MSG_PEEK | MSG_DONTWAIT) <= 0;
  }

 private:
  int fd_;
  int wakeFd_;
};

Result<std::unique_ptr<LoopbackServer>> LoopbackServer::start(llm::Generator& generator, const llm::Model& model,
                                                              const ServerOptions& options) {
  if (!options.allowRemote && !cloud::isLoopbackHost(options.bind))
    return makeError(Errc::permission, "serve: '" + options.bind +
                                           "' is not a loopback address (the server is loopback-only by default)");
  if (!cloud::isLoopbackHost(options.bind) && options.apiKey.empty())
    return makeError(Errc::permission, "serve: a non-loopback address (" + options.bind +
                                           ") needs an API key: clients must send it as a bearer token");
  if (options.requestDeadlineMs == 0 || options.maxPending == 0)
    return makeError(Errc::invalid_argument, "serve: the request deadline and the pending connections must be > 0");
  if (sodium_init() < 0) return makeError(Errc::internal, "serve: libsodium failed to initialize");
  addrinfo hints{};
  hints.ai_flags = AI_NUMERICHOST | AI_PASSIVE;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* ai = nullptr;
  const std::string port = std::to_string(options.port);
  if (::getaddrinfo(options.bind.c_str(), port.c_str(), &hints, &ai) != 0 || ai == nullptr)
    return makeError(Errc::invalid_argument, "serve: '" + options.bind + "' is not a numeric IP address");
  std::unique_ptr<LoopbackServer> s(new LoopbackServer(generator, model));
  s->options_ = options;
  s->listenFd_ = ::socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  int one = 1;
  const bool ok = s->listenFd_ >= 0 && ::setsockopt(s->listenFd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) == 0 &&
                  ::bind(s->listenFd_, ai->ai_addr, ai->ai_addrlen) == 0 && ::listen(s->listenFd_, 8) == 0;
  ::freeaddrinfo(ai);
  if (!ok)
    return makeError(Errc::io, "serve: cannot listen on " + options.bind + ":" + port + ": " + std::strerror(errno));
  sockaddr_storage bound{};
  socklen_t len = sizeof bound;
  ::getsockname(s->listenFd_, reinterpret_cast<sockaddr*>(&bound), &len);
  s->port_ = ntohs(bound.ss_family == AF_INET6 ? reinterpret_cast<sockaddr_in6*>(&bound)->sin6_port
                                               : reinterpret_cast<sockaddr_in*>(&bound)->sin_port);
  if (::pipe2(s->wakeFds_, O_CLOEXEC | O_NONBLOCK) != 0) return makeError(Errc::io, "serve: pipe failed");
  s->thread_ = std::thread([p = s.get()] { p->loop(); });
  return s;
}

LoopbackServer::~LoopbackServer() {
  stop();
  if (listenFd_ >= 0) ::close(listenFd_);
  for (int fd : wakeFds_)
    if (fd >= 0) ::close(fd);
}

void LoopbackServer::stop() {
  if (!thread_.joinable()) return;
  stopping_.cancel();
  const char b = 1;
  [[maybe_unused]] const ssize_t n = ::write(wakeFds_[1], &b, 1);
  thread_.join();
}

std::vector<std::string> LoopbackServer::receivedBodies() const {
  std::lock_guard<std::mutex> lock(bodiesMutex_);
  return bodies_;
}

namespace {
std::string errorJson(std::string_view message, std::string_view type, uint32_t code);
std::string response(uint32_t code, std::string_view contentType, std::string_view body);
}  // namespace

// Connections that have not sent their whole request yet wait in `pending`, read without blocking, each under its
// own deadline: one that trickles (slow loris) or says nothing holds nobody up and is dropped at its deadline. A
// complete request is served at once (the generator serves one at a time); meanwhile new connections wait in the
// kernel's small accept queue (backlog 8), and on return the pending ones are read before any deadline is applied.
void LoopbackServer::loop() {
  using Clock = std::chrono::steady_clock;
  struct Pending {
    int fd;
    std::string buf;
    Clock::time_point deadline;
  };
  std::vector<Pending> pending;
  std::vector<pollfd> polls;
  const auto drop = [&](size_t i, int status) {
    if (status > 0) {  // best effort, never waits
      const std::string r = response(static_cast<uint32_t>(status), "application/json",
                                     errorJson(status == 408 ? "the request did not arrive in time"
                                                             : "malformed or unsupported request",
                                               "invalid_request_error", static_cast<uint32_t>(status)));
      [[maybe_unused]] const ssize_t n = ::send(pending[i].fd, r.data(), r.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
    }
    ::close(pending[i].fd);
    pending.erase(pending.begin() + static_cast<ptrdiff_t>(i));
  };
  while (!stopping_.cancelled()) {
    polls.assign({{listenFd_, POLLIN, 0}, {wakeFds_[0], POLLIN, 0}});
    int timeoutMs = -1;
    const Clock::time_point now = Clock::now();
    for (const Pending& p : pending) {
      polls.push_back({p.fd, POLLIN, 0});
      const auto left = std::chrono::ceil<std::chrono::milliseconds>(p.deadline - now).count();
      const int ms = static_cast<int>(std::clamp<long long>(left, 0, 60000));
      timeoutMs = timeoutMs < 0 ? ms : std::min(timeoutMs, ms);
    }
    if (::poll(polls.data(), polls.size(), timeoutMs) < 0 && errno != EINTR) break;
    if ((polls[1].revents & POLLIN) != 0) break;
    // Read what arrived; a complete request is served now (generation blocks this thread, by design).
    for (size_t k = polls.size(); k-- > 2;) {
      if (polls[k].revents == 0) continue;
      const size_t i = k - 2;
      char chunk[4096];
      const ssize_t n = ::recv(pending[i].fd, chunk, sizeof chunk, MSG_DONTWAIT);
      if (n < 0 && (errno == EAGAIN || errno == EINTR)) continue;
      if (n <= 0) {
        drop(i, 0);
        continue;
      }
      pending[i].buf.append(chunk, static_cast<size_t>(n));
      Request req;
      const int state = checkRequest(pending[i].buf, req);
      if (state == 0) continue;
      const int fd = pending[i].fd;
      pending.erase(pending.begin() + static_cast<ptrdiff_t>(i));
      serve(fd, req.head, req.body, req.authorization, state == 1 ? 0 : state);
      if (stopping_.cancelled()) break;
    }
    if (stopping_.cancelled()) break;
    const Clock::time_point after = Clock::now();
    for (size_t i = pending.size(); i-- > 0;) {
      if (pending[i].deadline <= after) drop(i, 408);
    }
    // Take every queued connection (the listening socket does not block), so that the kernel's queue stays short.
    for (int taken = 0; (polls[0].revents & POLLIN) != 0 && taken < 64; ++taken) {
      const int fd = ::accept4(listenFd_, nullptr, nullptr, SOCK_CLOEXEC);
      if (fd < 0) break;
      // Full: the oldest waiting connection makes room (a flood of idle connections evicts itself).
      if (pending.size() >= options_.maxPending) drop(0, 408);
      pending.push_back({fd, {}, after + std::chrono::milliseconds(options_.requestDeadlineMs)});
    }
  }
  for (size_t i = pending.size(); i-- > 0;) drop(i, 0);
}

namespace {

std::string errorJson(std::string_view message, std::string_view type, uint32_t code) {
  std::string j = "{\"error\":{\"message\":";
  json::appendString(j, message);
  j += ",\"type\":";
  json::appendString(j, type);
  j += ",\"code\":" + std::to_string(code) + "}}";
  return j;
}

std::string response(uint32_t code, std::string_view contentType, std::string_view body) {
  std::string r = "HTTP/1.1 " + std::to_string(code) + " " + reasonPhrase(code) + "\r\nContent-Type: ";
  r.append(contentType);
  r += "\r\nContent-Length: " + std::to_string(body.size()) + "\r\nConnection: close\r\n\r\n";
  r.append(body);
  return r;
}

// Builds chat.completion.chunk events.
struct ChunkWriter {
  std::string id, model;
  long long created = 0;
  std::string event(std::string_view deltaJson, std::string_view finishReason) const {
    std::string e = "data: {\"id\":\"" + id + "\",\"object\":\"chat.completion.chunk\",\"created\":" +
                    std::to_string(created) + ",\"model\":";
    json::appendString(e, model);
    e += ",\"choices\":[{\"index\":0,\"delta\":";
    e.append(deltaJson);
    e += ",\"finish_reason\":";
    if (finishReason.empty()) e += "null";
    else json::appendString(e, finishReason);
    e += "}]}\n\n";
    return e;
  }
  std::string content(std::string_view text) const {
    std::string d = "{\"content\":";
    json::appendString(d, text);
    d += '}';
    return event(d, {});
  }
};

}  // namespace

void LoopbackServer::serve(int fd, const std::string& head, const std::string& body,
                           const std::string& authorization, int status) {
  Connection c(fd, wakeFds_[0]);
  requests_.fetch_add(1);
  if (status > 0) {
    c.send(response(static_cast<uint32_t>(status), "application/json",
                    errorJson("malformed or unsupported request", "invalid_request_error", static_cast<uint32_t>(status))));
    return;
  }
  if (!options_.apiKey.empty() && !bearerMatches(authorization, options_.apiKey)) {
    // Nothing of an unauthenticated request is kept or recorded.
    std::string r = response(401, "application/json",
                             errorJson("missing or wrong API key (Authorization: Bearer KEY)", "authentication_error",
                                       401));
    r.insert(r.find("\r\n") + 2, "WWW-Authenticate: Bearer\r\n");
    c.send(r);
    return;
  }
  {
    std::lock_guard<std::mutex> lock(bodiesMutex_);
    if (bodies_.size() == kKeptBodies) bodies_.erase(bodies_.begin());
    bodies_.push_back(body);
  }
  if (!options_.recordFile.empty()) {
    if (FILE* f = std::fopen(options_.recordFile.c_str(), "ab")) {
      std::fwrite(body.data(), 1, body.size(), f);
      std::fputc('\n', f);
      std::fclose(f);
    }
  }
  const size_t sp1 = head.find(' '), sp2 = head.find(' ', sp1 + 1);
  const std::string method = head.substr(0, sp1);
  const std::string target = sp1 == std::string::npos ? "" : head.substr(sp1 + 1, sp2 - sp1 - 1);
  if (target != "/v1/chat/completions" && target != "/chat/completions") {
    c.send(response(404, "application/json", errorJson("unknown path " + target, "invalid_request_error", 404)));
    return;
  }
  if (method != "POST") {
    c.send(response(405, "application/json", errorJson("use POST", "invalid_request_error", 405)));
    return;
  }
  const ServerFault& fault = options_.fault;
  if (fault.kind == ServerFault::Kind::error) {
    c.send(response(fault.value, "application/json", errorJson("injected fault", "server_error", fault.value)));
    return;
  }

  // The request: messages (role, content), max_tokens, temperature, seed, stream.
  auto req = json::parse(body);
  const json::Value* messages = req ? req->find("messages") : nullptr;
  const auto badRequest = [&](const std::string& why) {
    c.send(response(400, "application/json", errorJson(why, "invalid_request_error", 400)));
  };
  if (!req) return badRequest(req.error().message);
  if (messages == nullptr || !messages->isArray() || messages->items().empty())
    return badRequest("\"messages\" must be a non-empty array");
  std::vector<llm::ChatMessage> chat;
  for (const json::Value& m : messages->items()) {
    const std::string* role = m.findString("role");
    const std::string* content = m.findString("content");
    if (role == nullptr || content == nullptr) return badRequest("each message needs string \"role\" and \"content\"");
    chat.push_back({*role, *content});
  }
  llm::GenerateOptions gen;
  gen.maxTokens = 256;
  gen.sampling.temperature = 1.0f;  // the API's default
  const auto number = [&](std::string_view key) -> const json::Value* {
    const json::Value* v = req->find(key);
    return v != nullptr && v->isNumber() ? v : nullptr;
  };
  if (const json::Value* v = number("max_tokens")) gen.maxTokens = static_cast<size_t>(std::max(1.0, v->asNumber()));
  if (const json::Value* v = number("max_completion_tokens")) gen.maxTokens = static_cast<size_t>(std::max(1.0, v->asNumber()));
  gen.maxTokens = std::min<size_t>(gen.maxTokens, options_.maxTokensCap);
  if (const json::Value* v = number("temperature")) gen.sampling.temperature = static_cast<float>(v->asNumber());
  if (const json::Value* v = number("seed")) gen.sampling.seed = static_cast<uint64_t>(std::max(0.0, v->asNumber()));
  const json::Value* streamFlag = req->find("stream");
  const bool stream = streamFlag != nullptr && streamFlag->isBool() && streamFlag->asBool();

  // The prompt: the model's chat template when it has one, else the message contents (so a single user message
  // is exactly the prompt `sotto generate -p` would use).
  std::string prompt;
  const auto tmpl = model_.file().getString("tokenizer.chat_template");
  if (tmpl && !tmpl->empty()) {
    auto ct = llm::ChatTemplate::detect(*tmpl);
    if (!ct) return badRequest(ct.error().message);
    prompt = ct->apply(chat, true);
  } else {
    for (size_t i = 0; i < chat.size(); ++i) {
      if (i != 0) prompt += '\n';
      prompt.append(chat[i].content);
    }
  }

  if (fault.kind == ServerFault::Kind::delay) {
    if (c.clientGoneWithin(static_cast<int>(fault.value))) return;
  }
  ChunkWriter w;
  w.id = "chatcmpl-sotto-" + std::to_string(requests_.load());
  w.model = options_.modelName;
  w.created = static_cast<long long>(std::time(nullptr));

  if (stream) {
    if (!c.send("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\n"
                "Connection: close\r\n\r\n") ||
        !c.send(w.event("{\"role\":\"assistant\",\"content\":\"\"}", {})))
      return;
    switch (fault.kind) {
      case ServerFault::Kind::garbage:
        c.send(w.content("Once") + "data: {\"choices\":[{\"delta\":{\"content\":@@ garbage ###\n\n");
        return;
      case ServerFault::Kind::stall:
        while (!stopping_.cancelled() && !c.clientGoneWithin(100)) {
        }
        return;
      case ServerFault::Kind::endlessLine: {
        const std::string piece(4096, 'x');
        if (!c.send("data: ")) return;
        for (size_t sent = 0; sent < kEndlessLineCap && c.send(piece); sent += piece.size()) {
        }
        return;
      }
      case ServerFault::Kind::trickle:  // never finishes in any reasonable time, never stalls long enough to idle
        for (uint32_t i = 0; i < kTrickleChunks; ++i) {
          if (c.clientGoneWithin(static_cast<int>(fault.value)) || !c.send(w.content("."))) return;
        }
        c.send(w.event("{}", "stop") + "data: [DONE]\n\n");
        return;
      case ServerFault::Kind::flood: {
        std::string words;
        while (words.size() + 5 <= 4096) words += "word ";
        const std::string event = w.content(words);
        for (size_t sent = 0; sent < fault.value; sent += words.size()) {
          if (stopping_.cancelled() || !c.send(event)) return;
        }
        c.send(w.event("{}", "length") + "data: [DONE]\n\n");
        return;
      }
      default: break;
    }
  }

  // Tokens go out as they are sampled; a failed write (the client left) cancels the generation.
  struct Sink final : llm::GenerationSink {
    Connection& conn;
    const ChunkWriter& writer;
    const ServerFault& fault;
    pipeline::CancelToken& cancel;
    const pipeline::CancelToken& stopping;
    bool stream;
    std::string text;
    size_t chunks = 0;
    bool dropped = false;
    Sink(Connection& cn, const ChunkWriter& wr, const ServerFault& f, pipeline::CancelToken& ct,
         const pipeline::CancelToken& st, bool s)
        : conn(cn), writer(wr), fault(f), cancel(ct), stopping(st), stream(s) {}
    void emit(std::string_view t) {
      if (t.empty() || dropped) return;
      if (!stream) {
        text.append(t);
        return;
      }
      const bool faultNow = chunks >= fault.value;
      if (fault.kind == ServerFault::Kind::disconnect && faultNow) {
        dropped = true;  // the injected mid-stream disconnect
        cancel.cancel();
        return;
      }
      if (fault.kind == ServerFault::Kind::reset && faultNow) {
        conn.resetOnClose();  // the injected reset: RST instead of FIN when the connection closes
        dropped = true;
        cancel.cancel();
        return;
      }
      if (fault.kind == ServerFault::Kind::malformed && faultNow) {
        conn.send("data: {\"id\":\"x\",\"choices\":\"not an array\"}\n\n");
        dropped = true;
        cancel.cancel();
        return;
      }
      if (!conn.send(writer.content(t))) {
        dropped = true;
        cancel.cancel();
        return;
      }
      ++chunks;
    }
    void onToken(const llm::GeneratedToken& t) override {
      if (stopping.cancelled()) cancel.cancel();  // the server stops: end the generation within a token
      emit(t.text);
    }
    void onTextEnd(std::string_view t) override { emit(t); }
  };
  pipeline::CancelToken cancel;
  Sink sink(c, w, fault, cancel, stopping_, stream);
  if (!options_.script.empty() && stream) {
    // The scripted answer, a few bytes a chunk (whole UTF-8 sequences: JSON strings hold code points).
    std::string lastUser;
    for (const llm::ChatMessage& m : chat)
      if (m.role == "user") lastUser = m.content;
    std::string text;
    for (size_t at = 0; at < options_.script.size();) {
      const size_t next = options_.script.find("{user}", at);
      text.append(options_.script, at, next == std::string::npos ? std::string::npos : next - at);
      if (next == std::string::npos) break;
      text += lastUser;
      at = next + 6;
    }
    for (size_t at = 0; at < text.size() && !sink.dropped && !stopping_.cancelled();) {
      size_t end = std::min(text.size(), at + 3);
      while (end < text.size() && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) ++end;
      sink.emit(std::string_view(text).substr(at, end - at));
      at = end;
    }
    if (!sink.dropped && !stopping_.cancelled()) c.send(w.event("{}", "stop") + "data: [DONE]\n\n");
    return;
  }
  auto r = generator_.generate(std::string_view(prompt), gen, &sink, &cancel);
  if (sink.dropped || stopping_.cancelled()) return;
  if (!r) {
    if (stream) c.send("data: " + errorJson(r.error().message, "server_error", 500) + "\n\n");
    else c.send(response(500, "application/json", errorJson(r.error().message, "server_error", 500)));
    return;
  }
  const char* finish = r->stop == llm::StopReason::maxTokens || r->stop == llm::StopReason::contextFull ? "length" : "stop";
  if (stream) {
    c.send(w.event("{}", finish) + "data: [DONE]\n\n");
    return;
  }
  std::string out = "{\"id\":\"" + w.id + "\",\"object\":\"chat.completion\",\"created\":" + std::to_string(w.created) +
                    ",\"model\":";
  json::appendString(out, w.model);
  out += ",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":";
  json::appendString(out, sink.text);
  out += "},\"finish_reason\":\"";
  out += finish;
  out += "\"}],\"usage\":{\"prompt_tokens\":" + std::to_string(r->promptTokens) +
         ",\"completion_tokens\":" + std::to_string(r->generated) +
         ",\"total_tokens\":" + std::to_string(r->promptTokens + r->generated) + "}}";
  c.send(response(200, "application/json", out));
}

}  // namespace sotto::serve
