// SPDX-License-Identifier: MIT
// Real-time thread helper: naming, affinity, SCHED_FIFO fallback, CPU list parsing, mlockall reporting.
#include <gtest/gtest.h>
#include <pthread.h>
#include <sched.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cstring>

#include "sotto/hal/rt.h"

using sotto::hal::RtThread;
using sotto::hal::ThreadOptions;

TEST(RtThread, NamesThreadAndRunsBody) {
  std::atomic<bool> ran{false};
  char name[32] = {};
  auto t = RtThread::start(ThreadOptions{"sotto-test-name-that-is-long", {}, 0}, [&] {
    pthread_getname_np(pthread_self(), name, sizeof name);
    ran = true;
  });
  ASSERT_TRUE(t.ok()) << t.error().message;
  t->join();
  EXPECT_TRUE(ran.load());
  EXPECT_TRUE(t->outcome().named);
  EXPECT_STREQ(name, "sotto-test-name");  // the kernel keeps 15 bytes
}

TEST(RtThread, PinsToRequestedCpu) {
  int cpuSeen = -1;
  cpu_set_t set;
  auto t = RtThread::start(ThreadOptions{"pin", {0}, 0}, [&] {
    CPU_ZERO(&set);
    sched_getaffinity(0, sizeof set, &set);
    cpuSeen = CPU_COUNT(&set) == 1 && CPU_ISSET(0, &set) ? 0 : -1;
  });
  ASSERT_TRUE(t.ok()) << t.error().message;
  t->join();
  ASSERT_TRUE(t->outcome().pinned) << t->outcome().note;
  EXPECT_EQ(cpuSeen, 0);
}

TEST(RtThread, RefusesCpuThatDoesNotExist) {
  bool ran = false;
  auto t = RtThread::start(ThreadOptions{"bad", {4095}, 0}, [&] { ran = true; });
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.error().message.find("CPU 4095 does not exist"), std::string::npos) << t.error().message;
  EXPECT_FALSE(ran);
}

TEST(RtThread, RefusesPriorityOutOfRange) {
  auto t = RtThread::start(ThreadOptions{"bad", {}, 100}, [] {});
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error().code, sotto::Errc::invalid_argument);
}

TEST(RtThread, RealtimeGrantedOrFallsBackWithNote) {
  int policy = -1;
  auto t = RtThread::start(ThreadOptions{"fifo", {}, 10}, [&] {
    sched_param p{};
    pthread_getschedparam(pthread_self(), &policy, &p);
  });
  ASSERT_TRUE(t.ok()) << t.error().message;
  t->join();
  if (t->outcome().realtime) {
    EXPECT_EQ(policy, SCHED_FIFO);
    EXPECT_TRUE(t->outcome().note.empty());
  } else {
    // Not permitted here: the thread still ran, with normal scheduling, and says why.
    EXPECT_EQ(policy, SCHED_OTHER);
    EXPECT_NE(t->outcome().note.find("SCHED_FIFO refused"), std::string::npos);
  }
}

TEST(RtThread, MoveAssignJoinsPrevious) {
  std::atomic<int> count{0};
  auto a = RtThread::start(ThreadOptions{"a", {}, 0}, [&] { count++; });
  ASSERT_TRUE(a.ok());
  RtThread t = std::move(a).value();
  auto b = RtThread::start(ThreadOptions{"b", {}, 0}, [&] { count++; });
  ASSERT_TRUE(b.ok());
  t = std::move(b).value();
  t.join();
  EXPECT_EQ(count.load(), 2);
}

TEST(LockMemory, SucceedsOrExplains) {
  sotto::Status s = sotto::hal::lockAllMemory();
  if (!s) {
    EXPECT_NE(s.error().message.find("mlockall failed"), std::string::npos);
  } else {
    munlockall();
  }
}

TEST(CpuList, Parses) {
  auto r = sotto::hal::parseCpuList("0,2-4,7");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r, (std::vector<int>{0, 2, 3, 4, 7}));
  EXPECT_TRUE(sotto::hal::parseCpuList("")->empty());
}

TEST(CpuList, RejectsMalformed) {
  for (const char* bad : {"a", "1,", ",1", "3-1", "1,1", "1-2,2", "-1", "1--2", "99999"}) {
    auto r = sotto::hal::parseCpuList(bad);
    EXPECT_FALSE(r.ok()) << bad;
  }
}
