// SPDX-License-Identifier: MIT
// `sotto serve`: the local model behind an OpenAI-compatible streaming endpoint on loopback, with fault injection.
#include <signal.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

#include <sodium.h>

#include "app/serve/server.h"
#include "app/sotto/commands.h"
#include "engine/cloud/client.h"
#include "engine/llm/generator.h"
#include "engine/llm/model.h"
#include "engine/llm/tokenizer.h"

namespace sotto::cli {
namespace {

void serveUsage(FILE* out) {
  std::fputs(
      "Usage: sotto serve -m FILE [OPTIONS]\n"
      "Serves the local model as an OpenAI-compatible chat-completions endpoint (POST /v1/chat/completions,\n"
      "streamed as server-sent events with \"stream\": true) until SIGINT or SIGTERM. Prints\n"
      "\"listening on http://ADDR:PORT\" on stdout once it accepts connections. Answers one request at a time;\n"
      "a connection must send its whole request within 5 s, and a slow one holds no other up.\n"
      "\n"
      "  -m, --model FILE       GGUF model\n"
      "  --port N               TCP port; 0 = any free port (default 8080)\n"
      "  --bind ADDR            numeric address to listen on (default 127.0.0.1)\n"
      "  --allow-remote         allow a non-loopback --bind (off: loopback only); needs --api-key-file\n"
      "  --api-key-file FILE    require \"Authorization: Bearer KEY\" on every request, KEY being the file's one\n"
      "                         token (at least 16 characters); wrong or missing: 401\n"
      "  --fault SPEC           misbehave for tests: delay:MS, error:CODE, garbage, disconnect:AFTER_N, stall,\n"
      "                         endless-line, trickle:MS, reset:AFTER_N, malformed:AFTER_N, flood:BYTES\n"
      "  --model-name NAME      the \"model\" field of the answers (default sotto-local)\n"
      "  --record FILE          append every request body received to FILE, one per line\n"
      "  -t, --threads N        compute threads (default: the CPUs, at most 4)\n"
      "  -c, --ctx-size N       context positions; 0 = the model's (default 2048, capped by the model)\n"
      "  --backend NAME         compute backend: cpu or cpu-ref (default cpu)\n"
      "\n"
      "Exit status: 0 stopped by a signal, 1 model or socket error, 2 usage error.\n",
      out);
}

constexpr size_t kMinApiKeyChars = 16;

// The one token of an API key file (trailing whitespace ignored).
bool readServerKey(const std::string& path, std::string& key, std::string& why) {
  FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) {
    why = "the API key file '" + path + "' cannot be opened: " + std::strerror(errno);
    return false;
  }
  key.assign(4097, '\0');
  const size_t n = std::fread(key.data(), 1, key.size(), f);
  std::fclose(f);
  key.resize(n);
  while (!key.empty() && (key.back() == '\n' || key.back() == '\r' || key.back() == ' ' || key.back() == '\t')) {
    key.pop_back();
  }
  bool oneToken = n <= 4096;
  for (unsigned char c : key) oneToken = oneToken && c > 0x20 && c != 0x7F;
  if (!oneToken || key.size() < kMinApiKeyChars) {
    why = "the API key file '" + path + "' must hold one token of at least " + std::to_string(kMinApiKeyChars) +
          " (at most 4096) printable characters";
    sodium_memzero(key.data(), key.size());
    return false;
  }
  return true;
}

bool parseUnsigned(const char* s, unsigned long max, unsigned long& out) {
  if (s == nullptr || *s == '\0' || *s == '-') return false;
  char* end = nullptr;
  errno = 0;
  const unsigned long v = std::strtoul(s, &end, 10);
  if (errno != 0 || *end != '\0' || v > max) return false;
  out = v;
  return true;
}

}  // namespace

int cmdServe(int argc, char** argv) {
  std::string modelPath, backend = "cpu";
  serve::ServerOptions so;
  so.port = 8080;
  std::string apiKeyFile;
  unsigned threads = std::clamp(std::thread::hardware_concurrency(), 1u, 4u);
  uint32_t nCtx = 2048;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const char* v = i + 1 < argc ? argv[i + 1] : nullptr;
    unsigned long u = 0;
    bool ok = true;
    if (a == "-h" || a == "--help") {
      serveUsage(stdout);
      return 0;
    } else if (a == "--allow-remote") {
      so.allowRemote = true;
      continue;
    } else if (v == nullptr) {
      ok = false;
    } else if (a == "-m" || a == "--model") {
      modelPath = v;
    } else if (a == "--port") {
      ok = parseUnsigned(v, 65535, u);
      so.port = static_cast<uint16_t>(u);
    } else if (a == "--bind") {
      so.bind = v;
    } else if (a == "--api-key-file") {
      apiKeyFile = v;
    } else if (a == "--fault") {
      auto f = serve::parseServerFault(v);
      if (!f) {
        std::fprintf(stderr, "sotto serve: %s\n", f.error().message.c_str());
        return 2;
      }
      so.fault = *f;
    } else if (a == "--model-name") {
      so.modelName = v;
    } else if (a == "--record") {
      so.recordFile = v;
    } else if (a == "-t" || a == "--threads") {
      ok = parseUnsigned(v, 256, u) && u > 0;
      threads = static_cast<unsigned>(u);
    } else if (a == "-c" || a == "--ctx-size") {
      ok = parseUnsigned(v, 1u << 24, u);
      nCtx = static_cast<uint32_t>(u);
    } else if (a == "--backend") {
      backend = v;
    } else {
      std::fprintf(stderr, "sotto serve: unknown option '%s' (see sotto serve --help)\n", a.c_str());
      return 2;
    }
    if (!ok) {
      std::fprintf(stderr, "sotto serve: bad or missing value for %s (see sotto serve --help)\n", a.c_str());
      return 2;
    }
    ++i;
  }
  if (modelPath.empty()) {
    std::fprintf(stderr, "sotto serve: need -m FILE (see sotto serve --help)\n");
    return 2;
  }
  // Anyone who can reach a non-loopback address could use the model: never without a key.
  if (so.allowRemote && apiKeyFile.empty()) {
    std::fprintf(stderr, "sotto serve: --allow-remote needs --api-key-file FILE (clients send the key as a bearer "
                         "token)\n");
    return 2;
  }
  const auto fail = [](const std::string& m) {
    std::fprintf(stderr, "sotto serve: %s\n", m.c_str());
    return 1;
  };
  if (!apiKeyFile.empty()) {
    std::string why;
    if (sodium_init() < 0) return fail("libsodium failed to initialize");
    if (!readServerKey(apiKeyFile, so.apiKey, why)) return fail(why);
  }
  auto model = llm::Model::load(modelPath);
  if (!model) return fail(model.error().message);
  auto tokenizer = llm::Tokenizer::fromGguf((*model)->file());
  if (!tokenizer) return fail(tokenizer.error().message);
  llm::GeneratorOptions go;
  go.context.backend = backend;
  go.context.threads = threads;
  go.context.nCtx = nCtx;
  auto generator = llm::Generator::create(**model, **tokenizer, go);
  if (!generator) return fail(generator.error().message);

  // The server thread inherits the blocked signals; this thread waits for them.
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  auto server = serve::LoopbackServer::start(**generator, **model, so);
  if (!server) return fail(server.error().message);
  if (so.allowRemote && !cloud::isLoopbackHost(so.bind)) {
    std::fprintf(stderr,
                 "sotto serve: warning: listening on %s, reachable from other hosts: every request needs the API key, "
                 "and requests and answers travel unencrypted (plain HTTP)\n",
                 so.bind.c_str());
  }
  const bool v6 = so.bind.find(':') != std::string::npos;
  std::printf("sotto serve: listening on http://%s%s%s:%u (%s)\n", v6 ? "[" : "", so.bind.c_str(), v6 ? "]" : "",
              static_cast<unsigned>((*server)->port()), (*model)->describe().c_str());
  std::fflush(stdout);
  int sig = 0;
  sigwait(&set, &sig);
  (*server)->stop();
  std::fprintf(stderr, "sotto serve: stopped after %zu requests\n", (*server)->requests());
  return 0;
}

}  // namespace sotto::cli
