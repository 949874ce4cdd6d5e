// SPDX-License-Identifier: MIT
// Linux implementation of the real-time thread helper (pthread naming, sched_setaffinity, SCHED_FIFO, mlockall).
#include "sotto/hal/rt.h"

#include <pthread.h>
#include <sched.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <future>

#include "sotto/hal/log.h"

namespace sotto::hal {
namespace {

std::atomic<bool> g_warnedNoRealtime{false};

}  // namespace

Result<ThreadOutcome> applyToCurrentThread(const ThreadOptions& options) {
  ThreadOutcome out;
  if (options.fifoPriority < 0 || options.fifoPriority > 99) {
    return makeError(Errc::invalid_argument, "thread '" + options.name + "': priority " +
                                                 std::to_string(options.fifoPriority) + " is outside 0..99");
  }
  if (!options.name.empty()) {
    std::string shortName = options.name.substr(0, 15);
    out.named = pthread_setname_np(pthread_self(), shortName.c_str()) == 0;
  }
  if (!options.cpus.empty()) {
    long ncpu = sysconf(_SC_NPROCESSORS_CONF);
    cpu_set_t set;
    CPU_ZERO(&set);
    for (int cpu : options.cpus) {
      if (cpu < 0 || cpu >= CPU_SETSIZE || (ncpu > 0 && cpu >= ncpu)) {
        return makeError(Errc::invalid_argument, "thread '" + options.name + "': CPU " + std::to_string(cpu) +
                                                     " does not exist (this machine has " + std::to_string(ncpu) + ")");
      }
      CPU_SET(cpu, &set);
    }
    if (sched_setaffinity(0, sizeof set, &set) == 0) {
      out.pinned = true;
    } else {
      out.note += std::string("affinity refused: ") + std::strerror(errno) + "; ";
    }
  }
  if (options.fifoPriority > 0) {
    sched_param param{};
    param.sched_priority = options.fifoPriority;
    int rc = pthread_setschedparam(pthread_self(), SCHED_FIFO, &param);
    if (rc == 0) {
      out.realtime = true;
    } else {
      out.note += std::string("SCHED_FIFO refused: ") + std::strerror(rc);
      // One warning per process: every stage would otherwise repeat the same advice.
      if (!g_warnedNoRealtime.exchange(true)) {
        SOTTO_LOG_WARN("rt", "no-realtime",
                       "real-time priority %d refused for thread '%s' (%s); running with normal scheduling. "
                       "Grant CAP_SYS_NICE or LimitRTPRIO (the systemd unit does) for stable latency",
                       options.fifoPriority, options.name.c_str(), std::strerror(rc));
      }
    }
  }
  return out;
}

RtThread& RtThread::operator=(RtThread&& other) noexcept {
  if (this != &other) {
    if (thread_.joinable()) thread_.join();
    thread_ = std::move(other.thread_);
    outcome_ = std::move(other.outcome_);
  }
  return *this;
}

RtThread::~RtThread() {
  if (thread_.joinable()) thread_.join();
}

void RtThread::join() {
  if (thread_.joinable()) thread_.join();
}

Result<RtThread> RtThread::start(const ThreadOptions& options, std::function<void()> body) {
  std::promise<Result<ThreadOutcome>> applied;
  auto appliedFuture = applied.get_future();
  RtThread t;
  // The thread owns the promise so nothing on this stack is touched after the handshake.
  t.thread_ = std::thread([applied = std::move(applied), options, body = std::move(body)]() mutable {
    auto outcome = applyToCurrentThread(options);
    bool ok = outcome.ok();
    applied.set_value(std::move(outcome));
    if (ok) body();
  });
  Result<ThreadOutcome> outcome = appliedFuture.get();
  if (!outcome.ok()) {
    t.thread_.join();
    return std::move(outcome).error();
  }
  t.outcome_ = outcome.value();
  return t;
}

Status lockAllMemory() {
  if (mlockall(MCL_CURRENT | MCL_FUTURE) != 0) {
    int e = errno;
    return makeError(e == EPERM || e == ENOMEM ? Errc::permission : Errc::io,
                     std::string("mlockall failed: ") + std::strerror(e) +
                         " (needs CAP_IPC_LOCK or a sufficient LimitMEMLOCK)");
  }
  return {};
}

Result<std::vector<int>> parseCpuList(const std::string& text) {
  std::vector<int> cpus;
  size_t pos = 0;
  auto bad = [&text](const std::string& why) {
    return makeError(Errc::invalid_argument, "CPU list '" + text + "': " + why);
  };
  while (pos < text.size()) {
    size_t end = text.find(',', pos);
    if (end == std::string::npos) end = text.size();
    std::string item = text.substr(pos, end - pos);
    if (item.empty()) return bad("empty item");
    size_t dash = item.find('-');
    auto num = [](const std::string& s, int& v) {
      if (s.empty() || s.size() > 4 || s.find_first_not_of("0123456789") != std::string::npos) return false;
      v = std::stoi(s);
      return true;
    };
    int a = 0, b = 0;
    if (dash == std::string::npos) {
      if (!num(item, a)) return bad("'" + item + "' is not a CPU number");
      b = a;
    } else if (!num(item.substr(0, dash), a) || !num(item.substr(dash + 1), b) || a > b) {
      return bad("'" + item + "' is not a range a-b with a <= b");
    }
    for (int c = a; c <= b; ++c) {
      for (int seen : cpus) {
        if (seen == c) return bad("CPU " + std::to_string(c) + " appears twice");
      }
      cpus.push_back(c);
    }
    pos = end + 1;
    if (end == text.size() - 1) return bad("trailing comma");
  }
  return cpus;
}

}  // namespace sotto::hal
