// SPDX-License-Identifier: MIT
// The daemon's control thread: signals through signalfd, health-gated watchdog pings, live STATUS, and the control
// socket's commands.
#include "app/sottod/daemon.h"

#include <poll.h>
#include <signal.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <span>
#include <cerrno>
#include <cstring>
#include <functional>
#include <optional>

#include "app/sottod/control.h"
#include "app/sottod/notify.h"
#include "app/sottod/pipeline.h"
#include "sotto/hal/atomic_file.h"
#include "sotto/hal/log.h"
#include "sotto/hal/rt.h"

namespace sotto::app {
namespace {

// mkdir -p with a final mode; an existing directory must be writable by us.
Status ensureDirectory(const std::string& path, mode_t mode) {
  std::string partial;
  for (size_t i = 1; i <= path.size(); ++i) {
    if (i == path.size() || path[i] == '/') {
      partial = path.substr(0, i);
      if (mkdir(partial.c_str(), i == path.size() ? mode : 0755) != 0 && errno != EEXIST) {
        return makeError(Errc::io, "cannot create " + partial + ": " + std::strerror(errno));
      }
    }
  }
  struct stat st {};
  if (stat(path.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    return makeError(Errc::io, path + " is not a directory");
  }
  if (access(path.c_str(), W_OK | X_OK) != 0) {
    return makeError(Errc::permission, path + " is not writable: " + std::strerror(errno));
  }
  return {};
}

// The control socket's commands on the running pipeline.
class PipelineControl final : public ControlTarget {
 public:
  PipelineControl(Pipeline& pipe, std::function<std::string(std::string)> decorate)
      : pipe_(pipe), decorate_(std::move(decorate)) {}
  std::string status() override { return decorate_(pipe_.statusLine()); }
  uint64_t currentAnswer() override { return pipe_.answers() != nullptr ? pipe_.answers()->currentAnswer() : 0; }
  bool cancelAnswer(uint64_t id) override {
    answer::AnswerStage* a = pipe_.answers();
    if (a == nullptr || !a->cancelAnswer(id)) return false;
    SOTTO_LOG_INFO("daemon", "control-cancel", "answer %llu cancelled through the control socket",
                   static_cast<unsigned long long>(id));
    return true;
  }

 private:
  Pipeline& pipe_;
  std::function<std::string(std::string)> decorate_;
};

}  // namespace

Result<Fault> parseFault(const std::string& text) {
  // stall:STAGE:MS, or enospc:MS (every persistent-state write fails with ENOSPC from then on)
  auto bad = [&text] {
    return makeError(Errc::invalid_argument, "--fault '" + text + "': expected stall:STAGE:MS or enospc:MS");
  };
  if (text.rfind("enospc:", 0) == 0) {
    const std::string ms = text.substr(7);
    if (ms.empty() || ms.size() > 9 || ms.find_first_not_of("0123456789") != std::string::npos) return bad();
    return Fault{kDiskFullFault, static_cast<uint32_t>(std::stoul(ms))};
  }
  if (text.rfind("stall:", 0) != 0) return bad();
  auto colon = text.find(':', 6);
  if (colon == std::string::npos || colon == 6) return bad();
  std::string ms = text.substr(colon + 1);
  if (ms.empty() || ms.size() > 9 || ms.find_first_not_of("0123456789") != std::string::npos) return bad();
  return Fault{text.substr(6, colon - 6), static_cast<uint32_t>(std::stoul(ms))};
}

int runDaemon(const config::Config& cfg, const std::string& configPath, const std::vector<std::string>& faultSpecs) {
  log::Level level = log::Level::info;
  log::parseLevel(cfg.logLevel, level);  // validated by the config table
  log::init(level);

  std::vector<Fault> faults;
  for (const auto& f : faultSpecs) {
    auto parsed = parseFault(f);
    if (!parsed) {
      SOTTO_LOG_ERROR("daemon", "bad-fault", "%s", parsed.error().message.c_str());
      return 2;
    }
    faults.push_back(*parsed);
    if (parsed->stage == kDiskFullFault && parsed->afterMs == 0) hal::injectWriteFailure(ENOSPC);
  }

  // Signals are taken synchronously on this thread; block them before any other thread exists so they inherit it.
  sigset_t sigs;
  sigemptyset(&sigs);
  sigaddset(&sigs, SIGTERM);
  sigaddset(&sigs, SIGINT);
  sigaddset(&sigs, SIGHUP);
  pthread_sigmask(SIG_BLOCK, &sigs, nullptr);
  int sfd = signalfd(-1, &sigs, SFD_CLOEXEC | SFD_NONBLOCK);
  if (sfd < 0) {
    SOTTO_LOG_ERROR("daemon", "signalfd", "signalfd failed: %s", std::strerror(errno));
    return 1;
  }

  SOTTO_LOG_INFO("daemon", "starting", "sottod starting with %s (privacy %s, log level %s)", configPath.c_str(),
                 privacy::privacyModeName(cfg.privacy), cfg.logLevel.c_str());
  Notifier notifier;

  std::vector<std::string> degraded;
  for (const auto& [path, mode, what] : {std::tuple{cfg.stateDir, 0700, "state"},
                                        std::tuple{cfg.runtimeDir, 0750, "runtime"},
                                        std::tuple{cfg.logDir, 0750, "log"}}) {
    if (Status s = ensureDirectory(path, static_cast<mode_t>(mode)); !s) {
      degraded.push_back(std::string(what) + " directory unavailable");
      SOTTO_LOG_WARN("daemon", "directory", "%s directory unavailable, continuing without it: %s", what,
                     s.error().message.c_str());
    }
  }
  if (cfg.mlockAll) {
    if (Status s = hal::lockAllMemory(); !s) {
      SOTTO_LOG_WARN("daemon", "mlock", "%s; memory may be paged out under pressure", s.error().message.c_str());
    }
  }

  auto created = Pipeline::create(cfg);
  if (!created) {
    SOTTO_LOG_ERROR("daemon", "pipeline", "cannot build the pipeline: %s", created.error().message.c_str());
    close(sfd);
    return 1;
  }
  std::unique_ptr<Pipeline> pipe = std::move(created).value();
  if (Status s = pipe->start(); !s) {
    SOTTO_LOG_ERROR("daemon", "pipeline", "cannot start the pipeline: %s", s.error().message.c_str());
    close(sfd);
    return 1;
  }
  for (const auto& d : pipe->degradations()) degraded.push_back(d);
  for (const auto& f : faults) {
    if (f.stage == kDiskFullFault) continue;
    auto names = pipe->stageNames();
    if (std::find(names.begin(), names.end(), f.stage) == names.end()) {
      SOTTO_LOG_ERROR("daemon", "bad-fault", "--fault: no running stage '%s'", f.stage.c_str());
      pipe->stop();
      close(sfd);
      return 2;
    }
  }

  auto withDegradations = [&degraded](std::string s) {
    for (const auto& d : degraded) s += " [" + d + "]";
    return s;
  };
  // The control socket; without it (no runtime directory, a path in the way) the daemon answers as before and
  // says so on every STATUS.
  std::optional<ControlSocket> control;
  if (auto made = ControlSocket::create(cfg.runtimeDir + "/control")) {
    control.emplace(std::move(made).value());
    SOTTO_LOG_INFO("daemon", "control", "control socket %s", control->path().c_str());
  } else {
    degraded.push_back("control socket unavailable");
    SOTTO_LOG_WARN("daemon", "control", "no control socket: %s", made.error().message.c_str());
  }
  PipelineControl controlTarget(*pipe, withDegradations);
  notifier.ready(withDegradations(pipe->statusLine()));

  const uint64_t stallNs = static_cast<uint64_t>(cfg.watchdogStallMs) * 1000000u;
  const uint64_t wdUsec = notifier.watchdogUsec();
  uint64_t tickMs = std::min<uint64_t>(cfg.statusIntervalMs, cfg.watchdogStallMs / 4);
  if (wdUsec > 0) tickMs = std::min<uint64_t>(tickMs, wdUsec / 1000 / 4);
  tickMs = std::max<uint64_t>(tickMs, 10);
  const uint64_t startNs = pipeline::monotonicNowNs();
  uint64_t lastStatusNs = startNs;
  uint64_t lastPingNs = 0;
  bool stalledReported = false;
  std::vector<bool> faultFired(faults.size(), false);
  int exitCode = 0;

  for (;;) {
    // The signals, the control socket and every control connection waiting for its line, side by side.
    pollfd pfd[1 + ControlSocket::kMaxPollFds] = {{sfd, POLLIN, 0}};
    const size_t nfds = 1 + (control ? control->pollFds(std::span(pfd).subspan(1)) : 0);
    int timeoutMs = static_cast<int>(tickMs);
    if (control) {
      const int next = control->msUntilNextDeadline();
      if (next >= 0) timeoutMs = std::min(timeoutMs, next);
    }
    int pr = poll(pfd, nfds, timeoutMs);
    if (pr < 0 && errno != EINTR) {
      SOTTO_LOG_ERROR("daemon", "poll", "poll failed: %s", std::strerror(errno));
      exitCode = 1;
      break;
    }
    bool quit = false;
    signalfd_siginfo si{};
    while (read(sfd, &si, sizeof si) == static_cast<ssize_t>(sizeof si)) {
      if (si.ssi_signo == SIGHUP) {
        SOTTO_LOG_NOTICE("daemon", "sighup", "configuration reload is not supported: restart sottod to apply changes");
      } else {
        SOTTO_LOG_INFO("daemon", "signal", "received %s, stopping", strsignal(static_cast<int>(si.ssi_signo)));
        quit = true;
      }
    }
    if (quit) break;
    if (control) control->serve(controlTarget);  // never blocks: reads what arrived, answers what is complete

    uint64_t now = pipeline::monotonicNowNs();
    for (size_t i = 0; i < faults.size(); ++i) {
      if (!faultFired[i] && now - startNs >= static_cast<uint64_t>(faults[i].afterMs) * 1000000u) {
        faultFired[i] = true;
        if (faults[i].stage == kDiskFullFault) {
          SOTTO_LOG_WARN("daemon", "fault", "fault injection: every state write fails with ENOSPC");
          hal::injectWriteFailure(ENOSPC);
          continue;
        }
        SOTTO_LOG_WARN("daemon", "fault", "fault injection: stage '%s' made to stall", faults[i].stage.c_str());
        pipe->injectStall(faults[i].stage);
      }
    }

    pipeline::HealthStatus health = pipe->checkHealth(now, stallNs);
    if (health.healthy) {
      if (stalledReported) {
        SOTTO_LOG_NOTICE("daemon", "recovered", "all stages responsive again");
        stalledReported = false;
      }
      // Ping at twice the rate systemd requires; never when a stage is stalled, so systemd restarts us.
      if (wdUsec > 0 && (now - lastPingNs) / 1000 >= wdUsec / 2) {
        notifier.watchdog();
        lastPingNs = now;
      }
    } else if (!stalledReported) {
      stalledReported = true;
      std::string stage(health.stalledStage);
      SOTTO_LOG_ERROR("watchdog", "stage-stalled", "stage '%s' made no progress for %llu ms: withholding watchdog pings",
                      stage.c_str(), static_cast<unsigned long long>(health.stalledForNs / 1000000u));
      notifier.status("STALLED: stage " + stage + " not responding");
      lastStatusNs = now;
    }
    if (!stalledReported && (now - lastStatusNs) / 1000000u >= cfg.statusIntervalMs) {
      notifier.status(withDegradations(pipe->statusLine()));
      lastStatusNs = now;
    }
  }

  notifier.stopping("stopping");
  pipe->stop();
  pipe->logSpeechMetrics();
  pipe->logAnswerMetrics();
  close(sfd);
  SOTTO_LOG_NOTICE("daemon", "stopped", "sottod stopped cleanly");
  return exitCode;
}

}  // namespace sotto::app
