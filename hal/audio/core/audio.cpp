// SPDX-License-Identifier: MIT
// State checks shared by all audio backends, and the backend registry.
#include "sotto/hal/audio.h"

#include <algorithm>

namespace sotto::hal {

Status AudioSource::start() {
  if (running_) return {};
  Status s = doStart();
  if (s.ok()) running_ = true;
  return s;
}

Status AudioSource::stop() {
  if (!running_) return {};
  running_ = false;
  return doStop();
}

Result<size_t> AudioSource::read(std::span<int16_t> frames) {
  if (!running_) return makeError(Errc::busy, "audio source '" + name_ + "' is not started");
  if (frames.size() < format_.periodFrames) {
    return makeError(Errc::invalid_argument, "audio source '" + name_ + "': buffer smaller than one period");
  }
  return doRead(frames.first(format_.periodFrames));
}

Status AudioSink::start() {
  if (running_) return {};
  Status s = doStart();
  if (s.ok()) running_ = true;
  return s;
}

Status AudioSink::stop() {
  if (!running_) return {};
  running_ = false;
  return doStop();
}

Result<size_t> AudioSink::write(std::span<const int16_t> frames) {
  if (!running_) return makeError(Errc::busy, "audio sink '" + name_ + "' is not started");
  return doWrite(frames);
}

AudioRegistry& AudioRegistry::instance() {
  static AudioRegistry registry;  // function-local: safe during other translation units' static init
  return registry;
}

AudioRegistry::Entry* AudioRegistry::find(const std::string& name) {
  auto it = std::find_if(entries_.begin(), entries_.end(), [&](const Entry& e) { return e.name == name; });
  return it == entries_.end() ? nullptr : &*it;
}

const AudioRegistry::Entry* AudioRegistry::find(const std::string& name) const {
  return const_cast<AudioRegistry*>(this)->find(name);
}

bool AudioRegistry::addSource(const std::string& backend, SourceFactory factory) {
  Entry* e = find(backend);
  if (e == nullptr) {
    entries_.push_back(Entry{backend, nullptr, nullptr});
    e = &entries_.back();
  }
  if (e->source) return false;  // a second backend with the same name is a build mistake
  e->source = std::move(factory);
  return true;
}

bool AudioRegistry::addSink(const std::string& backend, SinkFactory factory) {
  Entry* e = find(backend);
  if (e == nullptr) {
    entries_.push_back(Entry{backend, nullptr, nullptr});
    e = &entries_.back();
  }
  if (e->sink) return false;
  e->sink = std::move(factory);
  return true;
}

std::vector<std::string> AudioRegistry::backends() const {
  std::vector<std::string> names;
  for (const Entry& e : entries_) names.push_back(e.name);
  return names;
}

namespace {
std::string known(const AudioRegistry& r) {
  std::string s;
  for (const auto& n : r.backends()) s += (s.empty() ? "" : ", ") + n;
  return s.empty() ? "none" : s;
}
Status checkSpec(const AudioSpec& spec) {
  if (spec.rateHz < 8000 || spec.rateHz > 192000) {
    return makeError(Errc::invalid_argument, "audio rate " + std::to_string(spec.rateHz) + " Hz is unusable");
  }
  if (spec.periodMs == 0 || periodFrames(spec.rateHz, spec.periodMs) == 0) {
    return makeError(Errc::invalid_argument, "audio period of " + std::to_string(spec.periodMs) + " ms is unusable");
  }
  return {};
}
}  // namespace

Result<std::unique_ptr<AudioSource>> AudioRegistry::openSource(const AudioSpec& spec) const {
  const Entry* e = find(spec.backend);
  if (e == nullptr || !e->source) {
    return makeError(Errc::not_found,
                     "no audio capture backend '" + spec.backend + "' (this build has: " + known(*this) + ")");
  }
  if (Status s = checkSpec(spec); !s) return std::move(s).error();
  return e->source(spec);
}

Result<std::unique_ptr<AudioSink>> AudioRegistry::openSink(const AudioSpec& spec) const {
  const Entry* e = find(spec.backend);
  if (e == nullptr || !e->sink) {
    return makeError(Errc::not_found,
                     "no audio playback backend '" + spec.backend + "' (this build has: " + known(*this) + ")");
  }
  if (Status s = checkSpec(spec); !s) return std::move(s).error();
  return e->sink(spec);
}

}  // namespace sotto::hal
