// SPDX-License-Identifier: MIT
// sotto ask: routes one request through the brain (PII, intents, cache, local model, cloud) and streams the answer.
#include <unistd.h>

#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <optional>
#include <cstdlib>
#include <string>

#include "app/common/answer_config.h"
#include "app/config/config.h"
#include "app/common/json_text.h"
#include "app/sotto/commands.h"
#include "engine/answer/answer_stage.h"
#include "engine/cloud/answer_guard.h"
#include "engine/intents/catalogue.h"
#include "sotto/hal/log.h"

namespace sotto::cli {
namespace {

void askUsage(FILE* out) {
  std::fputs(
      "Usage: sotto ask [OPTIONS] TEXT\n"
      "Routes one request as the speaker would (PII check, intents, answer cache, local model, anonymized\n"
      "cloud escalation where the privacy mode allows) and streams the answer. Prints the route, the reason, the\n"
      "anonymized request if anything left the device, and the answer.\n"
      "\n"
      "  --json               one JSON object per event; the last is {\"event\":\"done\",\"route\":...,\"reason\":...,\n"
      "                       \"escalated\":bool,\"sent\":\"exact request bytes\"|null,\"answer\":...,\n"
      "                       \"complete\":bool} (complete: false when the answer was cut short)\n"
      "  --privacy MODE       offline, private or standard (default: the config's privacy.mode)\n"
      "  --route ROUTE        auto (default), intent, cache, local or cloud: force a route (still subject to the\n"
      "                       privacy mode)\n"
      "  --cloud URL          an OpenAI-compatible server (http:// only for loopback); overrides cloud.endpoint\n"
      "  --model FILE         the local GGUF model; overrides model.path (\"\" = none)\n"
      "  --config FILE        configuration (default /etc/sotto/sotto.xml when it exists, else the defaults)\n"
      "  --state-dir DIR      timers, answer cache, device key, audit log (default: paths.state-dir)\n"
      "  --catalogue FILE     intent catalogue (default /etc/sotto/intents.xml)\n"
      "  -n N                 local answers: tokens at most (default 96)\n"
      "\n"
      "The answer is cut short, keeping what was said and ending it honestly (\"... sorry, I lost the\n"
      "connection.\"), when the cloud stream fails midway, when the whole answer passes latency.hard-timeout-ms,\n"
      "or at tts.max-answer-chars; control and format characters never reach the terminal.\n"
      "\n"
      "Exit status: 0 answered (or said plainly that it cannot), 1 runtime error or an answer cut short,\n"
      "2 usage or config error.\n",
      out);
}
// Prints what the answer stage's brain thread says for the typed request, and hands its result to the main thread.
class PrintSink final : public answer::TypedAnswerObserver {
 public:
  explicit PrintSink(bool asJson) : json_(asJson) {}
  void onBrainReady(const answer::Brain& b) override {
    for (const std::string& w : b.warnings()) std::fprintf(stderr, "sotto ask: warning: %s\n", cloud::safeText(w).c_str());
    if (b.semanticCacheOff())
      std::fprintf(stderr, "sotto ask: note: %s\n", cloud::safeText(b.semanticCacheReport()).c_str());
  }
  void onDone(const Result<answer::AskResult>& r) override {
    std::lock_guard lock(mutex_);
    result_ = r;
    done_.notify_all();
  }
  // Main thread: the result, once the brain thread has it.
  Result<answer::AskResult> wait() {
    std::unique_lock lock(mutex_);
    done_.wait(lock, [this] { return result_.has_value(); });
    return *result_;
  }
  void onDecision(const router::RouteDecision& d, std::string_view line) override {
    if (json_) {
      std::printf("{\"event\":\"decision\",\"route\":\"%s\",\"reason\":\"%s\",\"text\":%s,\"line\":%s}\n",
                  router::routeName(d.route), router::reasonName(d.reason), app::jsonString(d.text()).c_str(),
                  app::jsonString(line).c_str());
    } else {
      std::printf("route: %s (%s)\n", router::routeName(d.route), d.text());
    }
    std::fflush(stdout);
  }
  void onFiller(std::string_view text) override {
    if (json_) {
      std::printf("{\"event\":\"filler\",\"text\":%s}\n", app::jsonString(text).c_str());
    } else {
      std::printf("%.*s\n", static_cast<int>(text.size()), text.data());
    }
    std::fflush(stdout);
  }
  void onText(std::string_view piece) override {
    if (piece.empty()) return;
    if (json_) {
      std::printf("{\"event\":\"text\",\"text\":%s}\n", app::jsonString(piece).c_str());
    } else {
      if (!started_) std::fputs("answer: ", stdout);
      std::fwrite(piece.data(), 1, piece.size(), stdout);
    }
    started_ = true;
    std::fflush(stdout);
  }
  void onWarning(std::string_view message) override {
    const std::string safe = cloud::safeText(message);  // server error texts end up here: no escapes on the tty
    std::fprintf(stderr, "sotto ask: warning: %s\n", safe.c_str());
  }
  bool started() const { return started_; }

 private:
  bool json_;
  bool started_ = false;
  std::mutex mutex_;
  std::condition_variable done_;
  std::optional<Result<answer::AskResult>> result_;  // guarded by mutex_
};

}  // namespace

int cmdAsk(int argc, char** argv) {
  app::BrainOverrides ov;
  ov.logDecisions = false;  // the decision is printed as an event instead
  std::string configPath, text;
  bool asJson = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const char* v = i + 1 < argc ? argv[i + 1] : nullptr;
    auto need = [&](const char* what) {
      if (v == nullptr) std::fprintf(stderr, "sotto ask: %s needs %s (see sotto ask --help)\n", a.c_str(), what);
      return v != nullptr;
    };
    if (a == "-h" || a == "--help") {
      askUsage(stdout);
      return 0;
    } else if (a == "--json") {
      asJson = true;
    } else if (a == "--privacy") {
      if (!need("a mode")) return 2;
      ov.privacy = privacy::parsePrivacyMode(v);
      if (!ov.privacy) {
        std::fprintf(stderr, "sotto ask: --privacy must be offline, private or standard\n");
        return 2;
      }
      ++i;
    } else if (a == "--route") {
      if (!need("a route")) return 2;
      if (!router::parseForcedRoute(v, ov.forced)) {
        std::fprintf(stderr, "sotto ask: --route must be auto, intent, cache, local or cloud\n");
        return 2;
      }
      ++i;
    } else if (a == "--cloud") {
      if (!need("a URL")) return 2;
      ov.cloudUrl = v;
      ++i;
    } else if (a == "--model") {
      if (!need("a file")) return 2;
      ov.modelPath = v;
      ++i;
    } else if (a == "--config") {
      if (!need("a file")) return 2;
      configPath = v;
      ++i;
    } else if (a == "--state-dir") {
      if (!need("a directory")) return 2;
      ov.stateDir = v;
      ++i;
    } else if (a == "--catalogue") {
      if (!need("a file")) return 2;
      ov.cataloguePath = v;
      ++i;
    } else if (a == "-n") {
      if (!need("a number")) return 2;
      char* end = nullptr;
      const unsigned long n = std::strtoul(v, &end, 10);
      if (*v == '\0' || *end != '\0' || n == 0 || n > 4096) {
        std::fprintf(stderr, "sotto ask: -n needs a number from 1 to 4096\n");
        return 2;
      }
      ov.maxAnswerTokens = static_cast<unsigned>(n);
      ++i;
    } else if (!a.empty() && a[0] == '-') {
      std::fprintf(stderr, "sotto ask: unknown option '%s' (see sotto ask --help)\n", a.c_str());
      return 2;
    } else {
      text += text.empty() ? a : " " + a;
    }
  }
  if (text.empty()) {
    std::fprintf(stderr, "sotto ask: no TEXT (see sotto ask --help)\n");
    return 2;
  }
  config::Config cfg = config::defaults();
  if (configPath.empty() && ::access("/etc/sotto/sotto.xml", R_OK) == 0) configPath = "/etc/sotto/sotto.xml";
  if (!configPath.empty()) {
    const config::LoadResult lr = config::loadFile(configPath);
    if (!lr.config) {
      for (const config::Problem& p : lr.problems) std::fprintf(stderr, "%s\n", p.format().c_str());
      return 2;
    }
    cfg = *lr.config;
  }
  if (text.size() > answer::AnswerStage::kMaxTypedBytes) {
    std::fprintf(stderr, "sotto ask: TEXT is %zu bytes; a request holds at most %zu\n", text.size(),
                 answer::AnswerStage::kMaxTypedBytes);
    return 2;
  }
  // The request goes through the answer stage as sottod's control socket sends one: the same brain thread, route
  // execution and fallbacks. Nothing is spoken (no speaker here) and the stage's log lines stay off: this command
  // prints what the brain says itself.
  PrintSink sink(asJson);
  answer::AnswerStageOptions options;
  options.brain = app::brainOptionsFrom(cfg, ov);
  options.typedObserver = &sink;
  pipeline::CancelToken cancel;
  auto stage = answer::AnswerStage::create(options, nullptr, nullptr, cancel, nullptr);
  if (!stage) {
    std::fprintf(stderr, "sotto ask: %s\n", stage.error().message.c_str());
    return 1;
  }
  const log::Level level = log::level();
  log::setLevel(log::Level::off);
  std::atomic<bool> stop{false};
  if (auto started = (*stage)->start(stop); !started) {
    log::setLevel(level);
    std::fprintf(stderr, "sotto ask: %s\n", started.error().message.c_str());
    return 1;
  }
  (*stage)->submit(text);  // the only request: the queue has room and the text fits (checked above)
  auto r = sink.wait();
  stop.store(true, std::memory_order_release);
  (*stage)->stop();
  log::setLevel(level);
  if (!r) {
    std::fprintf(stderr, "sotto ask: %s\n", r.error().message.c_str());
    return 1;
  }
  if (asJson) {
    std::printf("{\"event\":\"done\",\"route\":\"%s\",\"reason\":\"%s\",\"escalated\":%s,\"sent\":%s,\"answer\":%s,"
                "\"complete\":%s}\n",
                router::routeName(r->route), router::reasonName(r->reason), r->escalated ? "true" : "false",
                r->sent ? app::jsonString(*r->sent).c_str() : "null", app::jsonString(r->answer).c_str(),
                r->complete ? "true" : "false");
  } else {
    if (sink.started()) std::fputc('\n', stdout);
    if (r->escalated) std::printf("sent (anonymized): %s\n", cloud::safeText(r->anonymized).c_str());
  }
  const bool flushed = std::fflush(stdout) == 0;
  if (!r->complete) {
    std::fprintf(stderr, "sotto ask: the answer was cut short (see the warnings above)\n");
    return 1;
  }
  return flushed ? 0 : 1;
}

}  // namespace sotto::cli
