// SPDX-License-Identifier: MIT
// `sotto generate`: runs the local model on a prompt and streams the generated text to stdout.
#include <sys/resource.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "app/sotto/commands.h"
#include "engine/llm/chat_template.h"
#include "engine/llm/generator.h"
#include "engine/llm/model.h"
#include "engine/llm/prefix_store.h"
#include "engine/llm/tokenizer.h"

namespace sotto::cli {
namespace {

constexpr size_t kDefaultTokens = 64;
constexpr uint32_t kDefaultContext = 2048;

unsigned defaultThreads() { return std::clamp(std::thread::hardware_concurrency(), 1u, 4u); }

void generateUsage(FILE* out) {
  std::fprintf(out,
               "Usage: sotto generate -m FILE -p TEXT [OPTIONS]\n"
               "Generates a continuation of TEXT with a GGUF model (llama, qwen2) and prints only the generated\n"
               "text to stdout as it is produced. The prompt is tokenized with the model's BOS rule and special\n"
               "tokens parsed; no chat template unless --chat. Generation stops at the model's end-of-generation\n"
               "token or after N tokens.\n"
               "\n"
               "  -m, --model FILE       GGUF model\n"
               "  -p, --prompt TEXT      prompt (with --chat: the user's message)\n"
               "  -n, --n-predict N      tokens to generate at most (default %zu)\n"
               "  --temp T               sampling temperature; 0 = greedy (default 0.8)\n"
               "  --top-k K              keep the K most likely tokens; 0 = off (default 40)\n"
               "  --top-p P              nucleus sampling; 1 = off (default 0.95)\n"
               "  --min-p P              drop tokens below P x the top probability; 0 = off (default 0.05)\n"
               "  --repeat-penalty R     penalty on the last 64 tokens; 1 = off (default 1)\n"
               "  --seed S               sampling seed; the same seed gives the same text (default 0)\n"
               "  -t, --threads N        compute threads (default %u: the CPUs, at most 4)\n"
               "  -c, --ctx-size N       context positions; 0 = the model's (default %u, capped by the model)\n"
               "  --backend NAME         compute backend: cpu or cpu-ref (default cpu)\n"
               "  --chat                 wrap the prompt in the model's chat template as a user message\n"
               "  --system TEXT          with --chat: a system message before the user's (default: the template's)\n"
               "  --prefix-cache FILE    with --chat: keep the KV of the system turn in FILE; a later run with the\n"
               "                         same model, template, context and system text restores it instead of\n"
               "                         computing it (a stale or corrupt file is rebuilt)\n"
               "  --stats                print prompt/decode timing and the answer confidence to stderr\n"
               "\n"
               "Exit status: 0 done, 1 model or runtime error (one line on stderr), 2 usage error.\n",
               kDefaultTokens, defaultThreads(), kDefaultContext);
}

bool parseUint(const char* s, unsigned long long max, unsigned long long& out) {
  if (s == nullptr || *s == '\0' || *s == '-') return false;
  char* end = nullptr;
  errno = 0;
  const unsigned long long v = std::strtoull(s, &end, 10);
  if (errno != 0 || *end != '\0' || v > max) return false;
  out = v;
  return true;
}

bool parseFloat(const char* s, float& out) {
  if (s == nullptr || *s == '\0') return false;
  char* end = nullptr;
  errno = 0;
  const float v = std::strtof(s, &end);
  if (errno != 0 || *end != '\0' || !std::isfinite(v)) return false;
  out = v;
  return true;
}

// Writes each token's text as soon as it is final (complete UTF-8 only).
class StdoutSink final : public llm::GenerationSink {
 public:
  void onToken(const llm::GeneratedToken& t) override { write(t.text); }
  void onTextEnd(std::string_view text) override { write(text); }
  bool failed() const { return failed_; }

 private:
  void write(std::string_view text) {
    if (text.empty()) return;
    if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size() || std::fflush(stdout) != 0) failed_ = true;
  }
  bool failed_ = false;
};

int fail(const std::string& message) {
  std::fprintf(stderr, "sotto generate: %s\n", message.c_str());
  return 1;
}

}  // namespace

int cmdGenerate(int argc, char** argv) {
  std::string modelPath, prompt, backend = "cpu", system, prefixCache;
  bool havePrompt = false, chat = false, stats = false, haveSystem = false;
  llm::GenerateOptions gen;
  gen.maxTokens = kDefaultTokens;
  unsigned threads = defaultThreads();
  uint32_t nCtx = kDefaultContext;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const char* v = i + 1 < argc ? argv[i + 1] : nullptr;
    unsigned long long u = 0;
    bool ok = true;
    if (a == "-h" || a == "--help") {
      generateUsage(stdout);
      return 0;
    } else if (a == "--chat") {
      chat = true;
      continue;
    } else if (a == "--stats") {
      stats = true;
      continue;
    } else if (v == nullptr) {
      ok = false;
    } else if (a == "-m" || a == "--model") {
      modelPath = v;
    } else if (a == "-p" || a == "--prompt") {
      prompt = v;
      havePrompt = true;
    } else if (a == "-n" || a == "--n-predict") {
      ok = parseUint(v, 1u << 20, u);
      gen.maxTokens = static_cast<size_t>(u);
    } else if (a == "--temp") {
      ok = parseFloat(v, gen.sampling.temperature);
    } else if (a == "--top-k") {
      ok = parseUint(v, 1u << 24, u);
      gen.sampling.topK = static_cast<int32_t>(u);
    } else if (a == "--top-p") {
      ok = parseFloat(v, gen.sampling.topP);
    } else if (a == "--min-p") {
      ok = parseFloat(v, gen.sampling.minP);
    } else if (a == "--repeat-penalty") {
      ok = parseFloat(v, gen.sampling.repeatPenalty) && gen.sampling.repeatPenalty > 0.0f;
    } else if (a == "--seed") {
      ok = parseUint(v, ~0ull, u);
      gen.sampling.seed = u;
    } else if (a == "-t" || a == "--threads") {
      ok = parseUint(v, 256, u) && u > 0;
      threads = static_cast<unsigned>(u);
    } else if (a == "-c" || a == "--ctx-size") {
      ok = parseUint(v, 1u << 24, u);
      nCtx = static_cast<uint32_t>(u);
    } else if (a == "--backend") {
      backend = v;
    } else if (a == "--system") {
      system = v;
      haveSystem = true;
    } else if (a == "--prefix-cache") {
      prefixCache = v;
      ok = !prefixCache.empty();
    } else {
      std::fprintf(stderr, "sotto generate: unknown option '%s' (see sotto generate --help)\n", a.c_str());
      return 2;
    }
    if (!ok) {
      std::fprintf(stderr, "sotto generate: bad or missing value for %s (see sotto generate --help)\n", a.c_str());
      return 2;
    }
    ++i;
  }
  if (modelPath.empty() || !havePrompt) {
    std::fprintf(stderr, "sotto generate: need -m FILE and -p TEXT (see sotto generate --help)\n");
    return 2;
  }

  auto model = llm::Model::load(modelPath);
  if (!model) return fail(model.error().message);
  auto tokenizer = llm::Tokenizer::fromGguf((*model)->file());
  if (!tokenizer) return fail(tokenizer.error().message);

  std::string text = prompt;
  std::vector<llm::TokenId> prefix;  // the system turn's tokens, for --prefix-cache
  std::string templateName;
  if (chat) {
    const auto tmpl = (*model)->file().getString("tokenizer.chat_template");
    auto ct = llm::ChatTemplate::detect(tmpl ? *tmpl : std::string_view{});
    if (!ct) return fail(ct.error().message);
    templateName = std::string(ct->name());
    std::vector<llm::ChatMessage> messages;
    if (haveSystem) messages.push_back({"system", system});
    messages.push_back({"user", prompt});
    text = ct->apply(messages, true);
    if (!prefixCache.empty()) {
      const std::string sys = haveSystem ? system : ct->defaultSystemPrompt();
      if (sys.empty()) return fail("--prefix-cache needs a system turn: give --system TEXT");
      const llm::ChatMessage only[] = {{"system", sys}};
      prefix = (*tokenizer)->tokenize(ct->apply(only, false), true, true);
    }
  } else if (haveSystem || !prefixCache.empty()) {
    std::fprintf(stderr, "sotto generate: --system and --prefix-cache need --chat\n");
    return 2;
  }
  std::vector<llm::TokenId> ids = (*tokenizer)->tokenize(text, true, true);
  if (ids.empty()) return fail("the prompt has no tokens");
  // The cached part is what the system turn and the whole prompt share token for token (and never the whole
  // prompt: its last token is evaluated for fresh logits).
  size_t shared = 0;
  while (shared < prefix.size() && shared + 1 < ids.size() && prefix[shared] == ids[shared]) ++shared;
  prefix.resize(shared);

  llm::GeneratorOptions go;
  go.context.backend = backend;
  go.context.threads = threads;
  go.context.nCtx = nCtx;
  auto generator = llm::Generator::create(**model, **tokenizer, go);
  if (!generator) return fail(generator.error().message);

  if (!prefixCache.empty() && !prefix.empty()) {
    llm::PrefixIdentity identity;
    identity.modelSha256 = llm::modelSha256((*model)->file());
    identity.templateName = templateName;
    identity.backend = backend;
    identity.contextTokens = static_cast<uint32_t>((*generator)->context().capacity());
    auto out = llm::restoreOrBuildPrefix(prefixCache, identity, **generator, prefix);
    if (!out) return fail(out.error().message);
    // Not fatal: the answer is the same, only the next start is slower.
    if (!out->saveError.empty()) std::fprintf(stderr, "sotto generate: warning: %s\n", out->saveError.c_str());
    if (stats) {
      std::fprintf(stderr, "prefix cache: %zu tokens %s in %.1f ms%s%s\n", out->tokens,
                   out->restored ? "restored" : "computed", out->ms, out->restored ? "" : " (",
                   out->restored ? "" : (out->why + ")").c_str());
    }
  }

  StdoutSink sink;
  auto r = (*generator)->generate(std::span<const llm::TokenId>(ids), gen, &sink);
  if (!r) return fail(r.error().message);
  if (sink.failed()) return fail("cannot write to stdout");
  if (stats) {
    const double promptTps = r->prefillMs > 0 ? static_cast<double>(r->promptTokens) * 1000.0 / r->prefillMs : 0.0;
    std::fprintf(stderr,
                 "\nsotto generate: %s; backend %s, %u threads\n"
                 "prompt: %zu tokens (%zu reused) in %.1f ms (%.1f tokens/s); generated: %zu tokens in %.1f ms (%.1f tokens/s); "
                 "stop: %s\nconfidence: mean log-prob %.3f, mean top-1/top-2 margin %.3f over %zu tokens\n",
                 (*model)->describe().c_str(), backend.c_str(), threads, r->promptTokens, r->reusedTokens, r->prefillMs, promptTps,
                 r->generated, r->decodeMs, r->decodeTokensPerSecond(), llm::stopReasonName(r->stop),
                 static_cast<double>(r->confidence.meanLogProb), static_cast<double>(r->confidence.meanMargin),
                 r->confidence.tokens);
    // VmHWM: the resident high-water mark, mapped weight pages included (the memory budget is file + KV + 32 MiB).
    struct rusage ru {};
    const double peakMiB = ::getrusage(RUSAGE_SELF, &ru) == 0 ? static_cast<double>(ru.ru_maxrss) / 1024.0 : 0.0;
    const auto& ctx = (*generator)->context();
    std::fprintf(stderr, "memory: peak RSS %.1f MiB; model file %.1f MiB, KV cache %.1f MiB, scratch %.1f MiB\n",
                 peakMiB, static_cast<double>((*model)->file().fileSize()) / 1048576.0,
                 static_cast<double>(ctx.kv().bytes()) / 1048576.0,
                 static_cast<double>(ctx.reservedBytes() - ctx.kv().bytes()) / 1048576.0);
  }
  return 0;
}

}  // namespace sotto::cli
