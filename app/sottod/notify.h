// SPDX-License-Identifier: MIT
// systemd service notifications (READY, STATUS, WATCHDOG, STOPPING) over $NOTIFY_SOCKET via libsystemd.
#pragma once

#include <cstdint>
#include <string>

namespace sotto::app {

// Control thread only. Every call is a no-op without $NOTIFY_SOCKET (started by hand), except that
// ready()/status() are then mirrored to the log so a person sees the same information.
class Notifier {
 public:
  Notifier();
  bool underSystemd() const { return underSystemd_; }
  // Watchdog interval requested by systemd (WatchdogSec=) for this process, 0 when disabled.
  uint64_t watchdogUsec() const { return watchdogUsec_; }
  void ready(const std::string& status);
  void status(const std::string& status);
  void watchdog();
  void stopping(const std::string& status);

 private:
  bool underSystemd_ = false;
  uint64_t watchdogUsec_ = 0;
  std::string lastStatus_;
};

}  // namespace sotto::app
