// SPDX-License-Identifier: MIT
// Arena: the configure-time reservation and the bump allocation itself.
#include "engine/pipeline/arena.h"

#include <algorithm>
#include <cstring>

namespace sotto::pipeline {

namespace {
// The block starts on a cache line so arena data shared with another thread later does not straddle one.
constexpr std::size_t kBaseAlign = 64;
}  // namespace

void Arena::AlignedFree::operator()(std::byte* p) const noexcept {
  ::operator delete(p, std::align_val_t{kBaseAlign});
}

Result<Arena> Arena::create(std::size_t capacityBytes) {
  if (capacityBytes == 0) return makeError(Errc::invalid_argument, "Arena capacity must be > 0");
  void* raw = ::operator new(capacityBytes, std::align_val_t{kBaseAlign}, std::nothrow);
  if (raw == nullptr) {
    return makeError(Errc::busy, "Arena: out of memory for " + std::to_string(capacityBytes) + " bytes");
  }
  // Touch every page now: first-touch page faults on the real-time path cost tens of microseconds each.
  std::memset(raw, 0, capacityBytes);
  Arena arena;
  arena.base_.reset(static_cast<std::byte*>(raw));
  arena.capacity_ = capacityBytes;
  return arena;
}

Arena::Arena(Arena&& other) noexcept
    : base_(std::move(other.base_)),
      capacity_(std::exchange(other.capacity_, 0)),
      used_(std::exchange(other.used_, 0)),
      highWater_(std::exchange(other.highWater_, 0)),
      failures_(std::exchange(other.failures_, 0)) {}

Arena& Arena::operator=(Arena&& other) noexcept {
  if (this != &other) {
    base_ = std::move(other.base_);
    capacity_ = std::exchange(other.capacity_, 0);
    used_ = std::exchange(other.used_, 0);
    highWater_ = std::exchange(other.highWater_, 0);
    failures_ = std::exchange(other.failures_, 0);
  }
  return *this;
}

Arena::~Arena() = default;

void* Arena::allocate(std::size_t bytes, std::size_t alignment) noexcept {
  if (!base_ || alignment == 0 || (alignment & (alignment - 1)) != 0) {
    ++failures_;
    return nullptr;
  }
  // Align the address, not the offset, so alignments above kBaseAlign work too.
  const auto start = reinterpret_cast<std::uintptr_t>(base_.get());
  const std::uintptr_t cur = start + used_;
  const std::uintptr_t aligned = (cur + (alignment - 1)) & ~static_cast<std::uintptr_t>(alignment - 1);
  const std::size_t pad = aligned - cur;
  const std::size_t left = capacity_ - used_;
  // Two comparisons instead of pad + bytes > left: the sum could wrap for absurd sizes.
  if (pad > left || bytes > left - pad) {
    ++failures_;
    return nullptr;
  }
  used_ += pad + bytes;
  highWater_ = std::max(highWater_, used_);
  return base_.get() + (used_ - bytes);
}

void Arena::rewind(Marker m) noexcept {
  assert(m.offset <= used_ && "Arena::rewind past the current position");
  if (m.offset <= used_) used_ = m.offset;
}

}  // namespace sotto::pipeline
