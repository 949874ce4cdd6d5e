// SPDX-License-Identifier: MIT
// Notifier: thin, checked wrapper over sd_notify.
#include "app/sottod/notify.h"

#include <unistd.h>

#include <cstdlib>

#include <systemd/sd-daemon.h>

#include "sotto/hal/log.h"

namespace sotto::app {

Notifier::Notifier() {
  const char* sock = std::getenv("NOTIFY_SOCKET");
  underSystemd_ = sock != nullptr && sock[0] != '\0';
  uint64_t usec = 0;
  // Returns > 0 only if WATCHDOG_USEC is set and WATCHDOG_PID (if set) is us.
  if (sd_watchdog_enabled(0, &usec) > 0) watchdogUsec_ = usec;
}

void Notifier::ready(const std::string& status) {
  lastStatus_ = status;
  if (underSystemd_) {
    sd_notifyf(0, "READY=1\nSTATUS=%s\nMAINPID=%d", status.c_str(), static_cast<int>(getpid()));
  }
  SOTTO_LOG_NOTICE("daemon", "ready", "READY: %s", status.c_str());
}

void Notifier::status(const std::string& status) {
  if (status == lastStatus_) return;
  lastStatus_ = status;
  if (underSystemd_) {
    sd_notifyf(0, "STATUS=%s", status.c_str());
  } else {
    SOTTO_LOG_INFO("daemon", "status", "STATUS: %s", status.c_str());
  }
}

void Notifier::watchdog() {
  if (underSystemd_) sd_notify(0, "WATCHDOG=1");
}

void Notifier::stopping(const std::string& status) {
  if (underSystemd_) sd_notifyf(0, "STOPPING=1\nSTATUS=%s", status.c_str());
  SOTTO_LOG_NOTICE("daemon", "stopping", "STOPPING: %s", status.c_str());
}

}  // namespace sotto::app
