// SPDX-License-Identifier: MIT
// The trained models' file container: fields, layers, checksum, atomic writes.
#include "engine/nlu/model_file.h"

#include <sodium.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>

#include "sotto/hal/atomic_file.h"

namespace sotto::nlu {
namespace {

constexpr std::size_t kSumBytes = crypto_generichash_BYTES;  // 32

bool sodiumReady() {
  static const bool ok = sodium_init() >= 0;
  return ok;
}

}  // namespace

ModelWriter::ModelWriter(const char (&magic)[9], std::uint32_t version) {
  bytes(magic, 8);
  u32(version);
}

void ModelWriter::bytes(const void* p, std::size_t n) {
  const auto* b = static_cast<const std::uint8_t*>(p);
  out_.insert(out_.end(), b, b + n);
}

void ModelWriter::u32(std::uint32_t v) {
  const std::uint8_t b[4] = {static_cast<std::uint8_t>(v), static_cast<std::uint8_t>(v >> 8),
                             static_cast<std::uint8_t>(v >> 16), static_cast<std::uint8_t>(v >> 24)};
  bytes(b, 4);
}

void ModelWriter::f32(float f) {
  std::uint32_t v = 0;
  std::memcpy(&v, &f, 4);
  u32(v);
}

void ModelWriter::str(std::string_view s) {
  u32(static_cast<std::uint32_t>(s.size()));
  bytes(s.data(), s.size());
}

void ModelWriter::layer(const LinearLayer& l) {
  u32(l.bits());
  u32(static_cast<std::uint32_t>(l.classes()));
  for (float b : l.bias_) f32(b);
  std::uint32_t used = 0;
  for (float s : l.scale_) used += s != 0.0f;
  u32(used);
  for (std::size_t r = 0; r < l.scale_.size(); ++r) {
    if (l.scale_[r] == 0.0f) continue;
    u32(static_cast<std::uint32_t>(r));
    f32(l.scale_[r]);
    bytes(l.q_.data() + r * l.classes(), l.classes());
  }
}

std::vector<std::uint8_t> ModelWriter::seal() {
  std::uint8_t sum[kSumBytes];
  (void)sodiumReady();
  crypto_generichash(sum, sizeof sum, out_.data(), out_.size(), nullptr, 0);
  out_.insert(out_.end(), sum, sum + sizeof sum);
  return std::move(out_);
}

Result<ModelReader> ModelReader::open(std::span<const std::uint8_t> bytes, const char (&magic)[9],
                                      std::uint32_t version, std::string_view name) {
  return open(bytes, magic, version, version, name);
}

Result<ModelReader> ModelReader::open(std::span<const std::uint8_t> bytes, const char (&magic)[9],
                                      std::uint32_t oldest, std::uint32_t newest, std::string_view name) {
  const std::string where(name);
  if (bytes.size() < 8 + 4 + kSumBytes || std::memcmp(bytes.data(), magic, 8) != 0) {
    return makeError(Errc::corrupt, where + ": not a " + std::string(magic, 8) + " model file");
  }
  ModelReader r(bytes.first(bytes.size() - kSumBytes).subspan(8));
  std::uint32_t v = 0;
  r.u32(v);
  // The version first: a file of another format is not damaged, and says what to do.
  if (v < oldest || v > newest) {
    const std::string reads =
        oldest == newest ? std::to_string(newest) : std::to_string(oldest) + " to " + std::to_string(newest);
    return makeError(Errc::unsupported,
                     where + ": model format " + std::to_string(v) + ", this build reads " + reads + " (retrain it)");
  }
  r.version_ = v;
  std::uint8_t sum[kSumBytes];
  (void)sodiumReady();
  crypto_generichash(sum, sizeof sum, bytes.data(), bytes.size() - kSumBytes, nullptr, 0);
  if (sodium_memcmp(sum, bytes.data() + bytes.size() - kSumBytes, kSumBytes) != 0) {
    return makeError(Errc::corrupt, where + ": checksum mismatch (the file is damaged or truncated)");
  }
  return r;
}

bool ModelReader::u32(std::uint32_t& v) {
  if (b_.size() - p_ < 4) return fail();
  v = static_cast<std::uint32_t>(b_[p_]) | static_cast<std::uint32_t>(b_[p_ + 1]) << 8 |
      static_cast<std::uint32_t>(b_[p_ + 2]) << 16 | static_cast<std::uint32_t>(b_[p_ + 3]) << 24;
  p_ += 4;
  return true;
}

bool ModelReader::f32(float& f) {
  std::uint32_t v = 0;
  if (!u32(v)) return false;
  std::memcpy(&f, &v, 4);
  return std::isfinite(f) || fail();
}

bool ModelReader::str(std::string& s, std::size_t max) {
  std::uint32_t n = 0;
  if (!u32(n) || n > max || b_.size() - p_ < n) return fail();
  s.assign(reinterpret_cast<const char*>(b_.data() + p_), n);
  p_ += n;
  return true;
}

bool ModelReader::layer(LinearLayer& out, std::size_t classes, unsigned maxBits) {
  std::uint32_t bits = 0, cls = 0, used = 0;
  if (!u32(bits) || !u32(cls) || bits < 4 || bits > maxBits || cls != classes) return fail();
  // Every declared size is checked against what the file can hold before anything is allocated.
  const std::uint64_t weights = (std::uint64_t{1} << bits) * (classes + sizeof(float)) + classes * sizeof(float);
  if (weights > weightBudget_) {
    problem_ = "declares " + std::to_string(weights) + " bytes of weights, more than a file of " +
               std::to_string(b_.size()) + " bytes can hold";
    return fail();
  }
  weightBudget_ -= weights;
  if (b_.size() - p_ < classes * 4) return fail();  // the biases are there before the layer is made
  LinearLayer l(bits, classes);
  for (auto& b : l.bias_) {
    if (!f32(b)) return false;
  }
  if (!u32(used) || used > l.rows() || static_cast<std::uint64_t>(used) * (8 + classes) > b_.size() - p_) return fail();
  std::uint32_t last = 0;
  for (std::uint32_t i = 0; i < used; ++i) {
    std::uint32_t row = 0;
    float scale = 0.0f;
    if (!u32(row) || row >= l.rows() || (i > 0 && row <= last) || !f32(scale) || !(scale > 0.0f)) return fail();
    std::memcpy(l.q_.data() + static_cast<std::size_t>(row) * classes, b_.data() + p_, classes);
    p_ += classes;
    l.scale_[row] = scale;
    last = row;
  }
  out = std::move(l);
  return true;
}

Result<std::vector<std::uint8_t>> readModelFile(const std::string& path) {
  // A regular file only (a FIFO or a device is refused at once, never waited on or read without end).
  auto bytes = hal::readFile(path, kMaxModelBytes);
  if (!bytes) {
    Error e = std::move(bytes).error();
    e.message = (e.code == Errc::not_found ? "cannot open model " : "not a model file: ") + e.message;
    return e;
  }
  return bytes;
}

Status writeModelFile(const std::string& path, std::span<const std::uint8_t> bytes) {
  const std::string tmp = path + ".tmp";
  std::FILE* f = std::fopen(tmp.c_str(), "wb");
  if (f == nullptr) return makeError(Errc::io, "cannot write " + tmp + ": " + std::strerror(errno));
  const bool written = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
  const bool flushed = std::fflush(f) == 0 && fsync(fileno(f)) == 0;
  const bool closed = std::fclose(f) == 0;
  if (!written || !flushed || !closed) {
    std::remove(tmp.c_str());
    return makeError(Errc::io, "cannot write " + tmp + " (disk full?)");
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    return makeError(Errc::io, "cannot rename " + tmp + " to " + path + ": " + std::strerror(errno));
  }
  return {};
}

}  // namespace sotto::nlu
