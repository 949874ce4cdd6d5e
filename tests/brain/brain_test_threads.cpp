// SPDX-License-Identifier: MIT
// The local model's threads: one pool for every generator, pinned to threads.llm-cpus; model.mlock locks the
// mapped weights or says why not (and the model answers unlocked).
#include <dirent.h>
#include <linux/capability.h>
#include <sys/syscall.h>
#include <sched.h>
#include <sys/resource.h>
#include <unistd.h>

#include <fstream>
#include <string>
#include <vector>

#include "sotto/hal/thread_pool.h"
#include "tests/brain/brain_test_util.h"

namespace sotto::answer::test {
namespace {

struct ThreadInfo {
  pid_t tid;
  std::string name;
};

std::vector<ThreadInfo> threadsOfThisProcess() {
  std::vector<ThreadInfo> out;
  DIR* d = ::opendir("/proc/self/task");
  if (d == nullptr) return out;
  while (dirent* e = ::readdir(d)) {
    if (e->d_name[0] == '.') continue;
    std::ifstream comm(std::string("/proc/self/task/") + e->d_name + "/comm");
    std::string name;
    std::getline(comm, name);
    out.push_back({static_cast<pid_t>(std::stoi(e->d_name)), name});
  }
  ::closedir(d);
  return out;
}

long lockedKib() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("VmLck:", 0) == 0) return std::stol(line.substr(6));
  }
  return -1;
}

TEST(BrainThreads, OneModelPoolPinnedToTheLlmCpus) {
  ScratchDir dir;
  cpu_set_t allowed;
  ASSERT_EQ(::sched_getaffinity(0, sizeof allowed, &allowed), 0);
  int cpu = 0;
  while (cpu < CPU_SETSIZE && !CPU_ISSET(cpu, &allowed)) ++cpu;
  ASSERT_LT(cpu, CPU_SETSIZE);
  config::Config c = testConfig(dir.path());
  c.modelPath = storiesModel();
  c.llmThreads = 2;
  c.llmCpus = {cpu};
  ASSERT_GT(c.cacheSemanticEntries, 0u) << "the semantic cache's generator is the second user of the pool";
  auto b = makeBrain(c, testOverrides());
  ASSERT_NE(b, nullptr);
  ASSERT_NE(b->modelThreads(), nullptr) << (b->warnings().empty() ? "" : b->warnings()[0]);
  EXPECT_EQ(b->modelThreads()->threads(), 2u);
  // Two threads in all = the caller and one worker; a pool per generator would show two workers.
  std::vector<ThreadInfo> workers;
  for (const ThreadInfo& t : threadsOfThisProcess()) {
    if (t.name.rfind("sotto-llm", 0) == 0 || t.name.rfind("sotto-compute", 0) == 0) workers.push_back(t);
  }
  ASSERT_EQ(workers.size(), 1u);
  EXPECT_EQ(workers[0].name, "sotto-llm-1");
  cpu_set_t set;
  ASSERT_EQ(::sched_getaffinity(workers[0].tid, sizeof set, &set), 0);
  EXPECT_EQ(CPU_COUNT(&set), 1);
  EXPECT_TRUE(CPU_ISSET(cpu, &set));
  // And it answers on that pool.
  BrainOverrides o = testOverrides();
  o.forced = router::ForcedRoute::local;
  auto local = makeBrain(c, o);
  ASSERT_NE(local, nullptr);
  const AskResult r = ask(*local, "tell me a story about a dragon");
  EXPECT_EQ(r.route, router::Route::local);
  EXPECT_FALSE(r.answer.empty());
}

TEST(BrainThreads, MlockLocksTheWeightsOrSaysWhyAndAnswersUnlocked) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  // The sanitizers' runtimes replace mlock() with a no-op that reports success: nothing to observe in VmLck.
  GTEST_SKIP() << "mlock is a no-op under ASan/TSan";
#endif
  ScratchDir dir;
  config::Config c = testConfig(dir.path());
  c.modelPath = storiesModel();
  c.modelMlock = true;
  const long before = lockedKib();
  ASSERT_GE(before, 0);
  {
    auto b = makeBrain(c, testOverrides());
    ASSERT_NE(b, nullptr);
    ASSERT_NE(b->modelThreads(), nullptr);
    if (b->modelLockProblem().empty()) {
      // Locked: the whole mapping (1.1 MB) counts in VmLck.
      EXPECT_GE(lockedKib() - before, 1000) << "model.mlock=true but nothing was locked";
    } else {
      EXPECT_NE(b->modelLockProblem().find("model.mlock"), std::string::npos) << b->modelLockProblem();
    }
  }
  // Without the permission (a daemon whose RLIMIT_MEMLOCK is too small and without CAP_IPC_LOCK): reported, not
  // fatal. Brain::create maps the model on this thread, so dropping the capability from this thread's effective
  // set is enough (it stays permitted and is restored below).
  __user_cap_header_struct hdr{_LINUX_CAPABILITY_VERSION_3, 0};
  __user_cap_data_struct caps[2]{};
  ASSERT_EQ(::syscall(SYS_capget, &hdr, caps), 0);
  const __user_cap_data_struct saved[2] = {caps[0], caps[1]};
  caps[0].effective &= ~(1u << CAP_IPC_LOCK);
  ASSERT_EQ(::syscall(SYS_capset, &hdr, caps), 0);
  rlimit old{};
  ASSERT_EQ(::getrlimit(RLIMIT_MEMLOCK, &old), 0);
  rlimit none = old;
  none.rlim_cur = 0;
  ASSERT_EQ(::setrlimit(RLIMIT_MEMLOCK, &none), 0);
  BrainOverrides o = testOverrides();
  o.forced = router::ForcedRoute::local;
  auto b = makeBrain(c, o);
  ::setrlimit(RLIMIT_MEMLOCK, &old);
  __user_cap_data_struct restore[2] = {saved[0], saved[1]};
  ::syscall(SYS_capset, &hdr, restore);
  ASSERT_NE(b, nullptr);
  EXPECT_NE(b->modelLockProblem().find("model not locked in memory (model.mlock)"), std::string::npos)
      << b->modelLockProblem();
  bool warned = false;
  for (const std::string& w : b->warnings()) warned = warned || w == b->modelLockProblem();
  EXPECT_TRUE(warned);
  EXPECT_EQ(ask(*b, "tell me a story").route, router::Route::local);
}

}  // namespace
}  // namespace sotto::answer::test
