// SPDX-License-Identifier: MIT
// The `alsa` audio backend: opens, configures and drives ALSA PCMs through libasound (see alsa_audio.h).
#include "alsa_audio.h"

#include <alsa/asoundlib.h>

#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <mutex>
#include <string>

namespace sotto::hal::alsa {
namespace {

// ALSA reports details ("Unknown PCM foo") through a global handler that prints to stderr by default. We keep the
// last message of the calling thread instead and put it into our own error, which names the device.
thread_local char tlsAlsaDetail[256];

__attribute__((format(printf, 5, 6))) void onAlsaError(const char* /*file*/, int /*line*/, const char* /*function*/,
                                                       int /*err*/, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(tlsAlsaDetail, sizeof tlsAlsaDetail, fmt, ap);
  va_end(ap);
}

void installErrorHandler() {
  static std::once_flag once;
  std::call_once(once, [] { snd_lib_error_set_handler(&onAlsaError); });
}

Errc errcFor(int err) {
  switch (-err) {
    case ENOENT:
    case ENODEV:
    case ENXIO:
      return Errc::not_found;
    case EBUSY:
    case EAGAIN:
      return Errc::busy;
    case EACCES:
    case EPERM:
      return Errc::permission;
    case EINVAL:
      return Errc::unsupported;
    default:
      return Errc::io;
  }
}

// "ALSA capture device 'hw:7,0': cannot open: No such file or directory (Unknown PCM hw:7,0)".
Error alsaError(const char* direction, const std::string& device, const char* what, int err) {
  std::string m = std::string("ALSA ") + direction + " device '" + device + "': " + what + ": " + snd_strerror(err);
  if (tlsAlsaDetail[0] != '\0') {
    m += std::string(" (") + tlsAlsaDetail + ")";
    tlsAlsaDetail[0] = '\0';
  }
  return makeError(errcFor(err), std::move(m));
}

struct Opened {
  PcmHandle pcm;
  AudioFormat format;
};

// Opens `spec.device` in blocking mode and sets S16_LE mono interleaved, the rate, period and buffer.
Result<Opened> openPcm(const AudioSpec& spec, snd_pcm_stream_t stream) {
  installErrorHandler();
  const bool capture = stream == SND_PCM_STREAM_CAPTURE;
  const char* dir = capture ? "capture" : "playback";
  const std::string& dev = spec.device;
  if (dev.empty()) return makeError(Errc::invalid_argument, std::string("ALSA ") + dir + " device name is empty");
  const uint32_t wantPeriod = periodFrames(spec.rateHz, spec.periodMs);
  if (wantPeriod == 0 || spec.periods < 2) {
    return makeError(Errc::invalid_argument, std::string("ALSA ") + dir + " device '" + dev +
                                                 "': unusable period (" + std::to_string(spec.periodMs) + " ms × " +
                                                 std::to_string(spec.periods) + " at " + std::to_string(spec.rateHz) +
                                                 " Hz)");
  }
  tlsAlsaDetail[0] = '\0';
  snd_pcm_t* raw = nullptr;
  if (int err = snd_pcm_open(&raw, dev.c_str(), stream, 0); err < 0) return alsaError(dir, dev, "cannot open", err);
  PcmHandle pcm(raw);

  snd_pcm_hw_params_t* hw = nullptr;
  snd_pcm_hw_params_alloca(&hw);
  if (int err = snd_pcm_hw_params_any(raw, hw); err < 0) return alsaError(dir, dev, "no configuration", err);
  if (int err = snd_pcm_hw_params_set_access(raw, hw, SND_PCM_ACCESS_RW_INTERLEAVED); err < 0) {
    return alsaError(dir, dev, "no interleaved read/write access", err);
  }
  if (int err = snd_pcm_hw_params_set_format(raw, hw, SND_PCM_FORMAT_S16_LE); err < 0) {
    return alsaError(dir, dev, "no S16_LE format (use a plug device to convert)", err);
  }
  if (int err = snd_pcm_hw_params_set_channels(raw, hw, 1); err < 0) {
    return alsaError(dir, dev, "no mono (use a plug device to convert)", err);
  }
  unsigned rate = spec.rateHz;
  if (capture) {
    if (int err = snd_pcm_hw_params_set_rate(raw, hw, rate, 0); err < 0) {
      return alsaError(dir, dev, ("cannot capture at " + std::to_string(rate) + " Hz (use a plug device)").c_str(),
                       err);
    }
  } else {
    int sub = 0;
    if (int err = snd_pcm_hw_params_set_rate_near(raw, hw, &rate, &sub); err < 0) {
      return alsaError(dir, dev, "no usable rate", err);
    }
  }
  // The period in frames at the rate the device really runs at.
  snd_pcm_uframes_t period = periodFrames(rate, spec.periodMs);
  if (period == 0) period = 1;
  int sub = 0;
  if (int err = snd_pcm_hw_params_set_period_size_near(raw, hw, &period, &sub); err < 0) {
    return alsaError(dir, dev, "no usable period size", err);
  }
  snd_pcm_uframes_t buffer = period * spec.periods;
  if (int err = snd_pcm_hw_params_set_buffer_size_near(raw, hw, &buffer); err < 0) {
    return alsaError(dir, dev, "no usable buffer size", err);
  }
  if (int err = snd_pcm_hw_params(raw, hw); err < 0) return alsaError(dir, dev, "cannot configure", err);
  if (int err = snd_pcm_hw_params_get_rate(hw, &rate, &sub); err < 0) return alsaError(dir, dev, "rate", err);
  if (int err = snd_pcm_hw_params_get_period_size(hw, &period, &sub); err < 0) {
    return alsaError(dir, dev, "period size", err);
  }
  if (int err = snd_pcm_hw_params_get_buffer_size(hw, &buffer); err < 0) {
    return alsaError(dir, dev, "buffer size", err);
  }
  if (period == 0 || buffer < period) {
    return makeError(Errc::unsupported, std::string("ALSA ") + dir + " device '" + dev + "': unusable period " +
                                            std::to_string(period) + " / buffer " + std::to_string(buffer));
  }

  // Software parameters: wake when a period is ready. Capture starts with the first read; playback once the
  // buffer is full, so the first write never underruns straight away.
  snd_pcm_sw_params_t* sw = nullptr;
  snd_pcm_sw_params_alloca(&sw);
  if (int err = snd_pcm_sw_params_current(raw, sw); err < 0) return alsaError(dir, dev, "software params", err);
  if (int err = snd_pcm_sw_params_set_avail_min(raw, sw, period); err < 0) {
    return alsaError(dir, dev, "avail_min", err);
  }
  if (int err = snd_pcm_sw_params_set_start_threshold(raw, sw, capture ? 1 : buffer); err < 0) {
    return alsaError(dir, dev, "start threshold", err);
  }
  if (int err = snd_pcm_sw_params(raw, sw); err < 0) return alsaError(dir, dev, "cannot set software params", err);

  AudioFormat format{rate, static_cast<uint32_t>(period), static_cast<uint32_t>(buffer / period)};
  return Opened{std::move(pcm), format};
}

Status prepare(snd_pcm_t* pcm, const char* dir, const std::string& name) {
  snd_pcm_state_t state = snd_pcm_state(pcm);
  if (state == SND_PCM_STATE_PREPARED) return {};
  if (int err = snd_pcm_prepare(pcm); err < 0) return alsaError(dir, name, "cannot prepare", err);
  return {};
}

// Recovers from an I/O error of `pcm`: true if the stream may carry on. Audio thread: snd_pcm_recover with
// silent=1 neither prints nor allocates.
bool recover(snd_pcm_t* pcm, int err, std::atomic<uint64_t>& xruns, std::atomic<uint64_t>& recoveries) noexcept {
  if (err == -EAGAIN || err == -EINTR) return true;  // nothing to recover: retry
  if (snd_pcm_recover(pcm, err, 1) < 0) return false;
  (err == -EPIPE ? xruns : recoveries).fetch_add(1, std::memory_order_relaxed);
  return true;
}

}  // namespace

void PcmCloser::operator()(snd_pcm_t* pcm) const noexcept {
  if (pcm != nullptr) snd_pcm_close(pcm);
}

// ---- capture ----

Result<std::unique_ptr<AlsaSource>> AlsaSource::create(const AudioSpec& spec) {
  auto opened = openPcm(spec, SND_PCM_STREAM_CAPTURE);
  if (!opened) return std::move(opened).error();
  return std::unique_ptr<AlsaSource>(
      new AlsaSource("alsa:" + spec.device, opened->format, std::move(opened->pcm)));
}

AudioCounters AlsaSource::counters() const {
  return AudioCounters{frames_.load(std::memory_order_relaxed), xruns_.load(std::memory_order_relaxed),
                       recoveries_.load(std::memory_order_relaxed)};
}

Status AlsaSource::doStart() {
  if (Status s = prepare(pcm_.get(), "capture", name()); !s) return s;
  if (int err = snd_pcm_start(pcm_.get()); err < 0) return alsaError("capture", name(), "cannot start", err);
  return {};
}

Status AlsaSource::doStop() {
  if (int err = snd_pcm_drop(pcm_.get()); err < 0) return alsaError("capture", name(), "cannot stop", err);
  return {};
}

Result<size_t> AlsaSource::doRead(std::span<int16_t> frames) {
  size_t done = 0;
  int failures = 0;
  while (done < frames.size()) {
    snd_pcm_sframes_t n;
    if (int fault = fault_.exchange(0, std::memory_order_acq_rel); fault != 0) {
      n = fault;
    } else {
      n = snd_pcm_readi(pcm_.get(), frames.data() + done, frames.size() - done);
    }
    if (n >= 0) {
      done += static_cast<size_t>(n);
      failures = 0;
      continue;
    }
    // Two failed recoveries in a row: the device is gone (unplugged) or wedged; the stage decides what next.
    if (!recover(pcm_.get(), static_cast<int>(n), xruns_, recoveries_) || ++failures > 2) {
      return alsaError("capture", name(), "read failed", static_cast<int>(n));
    }
  }
  frames_.fetch_add(done, std::memory_order_relaxed);
  return done;
}

// ---- playback ----

Result<std::unique_ptr<AlsaSink>> AlsaSink::create(const AudioSpec& spec) {
  auto opened = openPcm(spec, SND_PCM_STREAM_PLAYBACK);
  if (!opened) return std::move(opened).error();
  return std::unique_ptr<AlsaSink>(new AlsaSink("alsa:" + spec.device, opened->format, std::move(opened->pcm)));
}

AudioCounters AlsaSink::counters() const {
  return AudioCounters{frames_.load(std::memory_order_relaxed), xruns_.load(std::memory_order_relaxed),
                       recoveries_.load(std::memory_order_relaxed)};
}

Status AlsaSink::doStart() { return prepare(pcm_.get(), "playback", name()); }

Status AlsaSink::doStop() {
  // Play out what is queued (a running stream drains in at most one buffer), then stop.
  if (snd_pcm_state(pcm_.get()) == SND_PCM_STATE_RUNNING) (void)snd_pcm_drain(pcm_.get());
  if (int err = snd_pcm_drop(pcm_.get()); err < 0) return alsaError("playback", name(), "cannot stop", err);
  return {};
}

Result<size_t> AlsaSink::doWrite(std::span<const int16_t> frames) {
  size_t done = 0;
  int failures = 0;
  while (done < frames.size()) {
    snd_pcm_sframes_t n;
    if (int fault = fault_.exchange(0, std::memory_order_acq_rel); fault != 0) {
      n = fault;
    } else {
      n = snd_pcm_writei(pcm_.get(), frames.data() + done, frames.size() - done);
    }
    if (n >= 0) {
      done += static_cast<size_t>(n);
      failures = 0;
      continue;
    }
    if (!recover(pcm_.get(), static_cast<int>(n), xruns_, recoveries_) || ++failures > 2) {
      return alsaError("playback", name(), "write failed", static_cast<int>(n));
    }
  }
  frames_.fetch_add(done, std::memory_order_relaxed);
  return done;
}

namespace {
Result<std::unique_ptr<AudioSource>> createSource(const AudioSpec& spec) {
  auto s = AlsaSource::create(spec);
  if (!s) return std::move(s).error();
  return std::unique_ptr<AudioSource>(std::move(s).value());
}
Result<std::unique_ptr<AudioSink>> createSink(const AudioSpec& spec) {
  auto s = AlsaSink::create(spec);
  if (!s) return std::move(s).error();
  return std::unique_ptr<AudioSink>(std::move(s).value());
}
}  // namespace

SOTTO_AUDIO_BACKEND("alsa", &createSource, &createSink)

}  // namespace sotto::hal::alsa
