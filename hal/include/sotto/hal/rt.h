// SPDX-License-Identifier: MIT
// Real-time thread helper: name, CPU affinity, SCHED_FIFO when permitted (one warning and a fallback when not), mlockall.
#pragma once

#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "sotto/hal/result.h"

namespace sotto::hal {

struct ThreadOptions {
  std::string name;          // shown by ps/top; Linux keeps the first 15 bytes
  std::vector<int> cpus;     // affinity; empty = any CPU
  int fifoPriority = 0;      // 1..99 asks for SCHED_FIFO; 0 = normal scheduling
};

// What the kernel granted; a refused real-time priority is not an error (the speaker must keep working).
struct ThreadOutcome {
  bool named = false;
  bool pinned = false;
  bool realtime = false;
  std::string note;  // why something was not granted, empty when everything was
};

// Applies options to the calling thread. Control threads only (logs at most one warning per process
// for a refused real-time priority). Returns an error only for invalid options (e.g. a CPU that does not exist).
Result<ThreadOutcome> applyToCurrentThread(const ThreadOptions& options);

// A started thread with options applied before its body runs. Owner thread: start/join (blocking).
class RtThread {
 public:
  RtThread() = default;
  RtThread(RtThread&&) noexcept = default;
  RtThread& operator=(RtThread&&) noexcept;
  ~RtThread();  // joins if still joinable

  // Starts `body` on a new thread after applying `options`; waits until they are applied so the outcome is known.
  // Invalid options are an error and no thread is left running.
  static Result<RtThread> start(const ThreadOptions& options, std::function<void()> body);

  const ThreadOutcome& outcome() const { return outcome_; }
  bool joinable() const { return thread_.joinable(); }
  void join();

 private:
  std::thread thread_;
  ThreadOutcome outcome_;
};

// mlockall(MCL_CURRENT | MCL_FUTURE) so page faults never stall the real-time path.
// Start-up thread only. A refusal (no CAP_IPC_LOCK, low RLIMIT_MEMLOCK) is reported in the error; callers warn and go on.
Status lockAllMemory();

// Parses "0,2-3" into {0,2,3}; the config already validates, this is for CLI/tests.
Result<std::vector<int>> parseCpuList(const std::string& text);

}  // namespace sotto::hal
