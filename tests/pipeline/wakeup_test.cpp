// SPDX-License-Identifier: MIT
// Wakeup: a consumer blocked with no time bound is woken by every hand-off; a stale ticket never sleeps.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <thread>

#include "engine/pipeline/wakeup.h"

namespace sotto::pipeline {
namespace {

// Ping-pong with no timeouts: each side blocks until the other hands over. One lost wake-up leaves both blocked
// forever; the watchdog then fails the test (and ends the process, since the threads cannot be joined).
TEST(Wakeup, PingPongWithoutTimeoutsNeverLosesAHandOff) {
  constexpr int kRounds = 20000;
  Wakeup toB, toA;
  std::atomic<int> ball{0};  // even: A's turn, odd: B's
  std::atomic<bool> done{false};
  auto player = [&](Wakeup& mine, Wakeup& theirs, int parity) {
    for (;;) {
      int v;
      for (;;) {
        const std::uint32_t ticket = mine.prepare();
        v = ball.load(std::memory_order_acquire);
        if (v >= 2 * kRounds || v % 2 == parity) break;
        mine.wait(ticket);  // no time bound
      }
      if (v >= 2 * kRounds) return;
      ball.store(v + 1, std::memory_order_release);
      theirs.notify();
    }
  };
  std::thread watchdog([&] {
    const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    int last = -1;
    auto lastChange = std::chrono::steady_clock::now();
    while (!done.load()) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      const int now = ball.load();
      if (now != last) {
        last = now;
        lastChange = std::chrono::steady_clock::now();
      } else if (std::chrono::steady_clock::now() - lastChange > std::chrono::seconds(10) ||
                 std::chrono::steady_clock::now() > end) {
        ADD_FAILURE() << "a hand-off was lost: both threads blocked at ball " << now;
        std::_Exit(1);
      }
    }
  });
  std::thread a([&] { player(toA, toB, 0); });
  std::thread b([&] { player(toB, toA, 1); });
  a.join();
  b.join();
  done = true;
  watchdog.join();
  EXPECT_EQ(ball.load(), 2 * kRounds);
}

TEST(Wakeup, ANotifyAfterTheTicketMakesWaitReturnAtOnce) {
  Wakeup w;
  const std::uint32_t ticket = w.prepare();
  w.notify();
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_TRUE(w.wait(ticket));  // no time bound: it would block forever if the notify were lost
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(1));
}

TEST(Wakeup, BlockedConsumerIsWokenByAnotherThread) {
  Wakeup w;
  std::atomic<bool> ready{false}, woke{false};
  std::thread consumer([&] {
    for (;;) {
      const std::uint32_t ticket = w.prepare();
      if (ready.load(std::memory_order_acquire)) break;
      w.wait(ticket);
    }
    woke = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(20));  // most likely asleep in the futex by now
  ready.store(true, std::memory_order_release);
  w.notify();
  consumer.join();
  EXPECT_TRUE(woke.load());
}

TEST(Wakeup, WaitWithATimeBoundReturnsFalseWhenNothingCame) {
  Wakeup w;
  const std::uint32_t ticket = w.prepare();
  EXPECT_FALSE(w.wait(ticket, 5'000'000));
  EXPECT_EQ(w.notifications(), 0u);
}

}  // namespace
}  // namespace sotto::pipeline
