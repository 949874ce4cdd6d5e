// SPDX-License-Identifier: MIT
// The container of the trained understanding models' files: an 8-byte magic, a u32 format version, the model's
// own fields (little-endian integers and floats, length-prefixed strings, linear layers as their non-zero rows),
// and a BLAKE2b-256 of everything before it (libsodium), checked before a single field is read.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/nlu/linear.h"
#include "sotto/hal/result.h"

namespace sotto::nlu {

// A model is a few MiB; anything far larger is not one of ours.
inline constexpr std::size_t kMaxModelBytes = 64u << 20;

// Threads: a plain value, one thread at a time.
class ModelWriter {
 public:
  ModelWriter(const char (&magic)[9], std::uint32_t version);
  void u32(std::uint32_t v);
  void f32(float f);
  void str(std::string_view s);
  void layer(const LinearLayer& l);
  // The file's bytes, checksum appended.
  std::vector<std::uint8_t> seal();

 private:
  void bytes(const void* p, std::size_t n);
  std::vector<std::uint8_t> out_;
};

// Reads fields after open() verified the container. Every read returns false once anything was short or
// invalid. Threads: a plain value, one thread at a time.
class ModelReader {
 public:
  // Checks magic, version and checksum of bytes (borrowed: they must outlive the reader). Errors: corrupt (not
  // this kind of file, damaged, truncated; the message names `name`), unsupported (another format version).
  static Result<ModelReader> open(std::span<const std::uint8_t> bytes, const char (&magic)[9], std::uint32_t version,
                                  std::string_view name);
  // The same for a reader of several format versions, oldest..newest; version() says which the file has.
  static Result<ModelReader> open(std::span<const std::uint8_t> bytes, const char (&magic)[9], std::uint32_t oldest,
                                  std::uint32_t newest, std::string_view name);
  std::uint32_t version() const noexcept { return version_; }
  bool u32(std::uint32_t& v);
  bool f32(float& f);  // finite only
  bool str(std::string& s, std::size_t max);
  // A layer of exactly `classes` classes and at most 2^maxBits rows. Its dense weights (2^bits x classes bytes and
  // a scale per row) are allocated only while the file's weight budget holds them: all layers together at most
  // kWeightsPerFileByte times the file's size plus kWeightSlack. A trained model's dense tables are about as large
  // as its file (the file keeps only the rows in use); a crafted 1,192-byte file declaring 2^22-row layers made
  // sotto pii allocate 1.09 GB before its layers were found short.
  bool layer(LinearLayer& l, std::size_t classes, unsigned maxBits = 22);
  bool atEnd() const noexcept { return p_ == b_.size(); }
  // Why the last read failed, when it says more than "invalid" ("" otherwise).
  const std::string& problem() const noexcept { return problem_; }

  static constexpr std::uint64_t kWeightsPerFileByte = 16;
  static constexpr std::uint64_t kWeightSlack = std::uint64_t{4} << 20;

 private:
  explicit ModelReader(std::span<const std::uint8_t> body)
      : b_(body), weightBudget_(kWeightsPerFileByte * body.size() + kWeightSlack) {}
  bool fail() {
    failed_ = true;
    return false;
  }
  std::span<const std::uint8_t> b_;
  std::size_t p_ = 0;
  std::uint32_t version_ = 0;
  bool failed_ = false;
  std::uint64_t weightBudget_;  // bytes of dense weights the layers still to come may allocate
  std::string problem_;
};

// Reads a whole model file (at most kMaxModelBytes). Errors: not_found, io, corrupt (too large).
Result<std::vector<std::uint8_t>> readModelFile(const std::string& path);
// Writes to path.tmp, syncs, renames: a crash or a full disk never leaves half a model under path.
Status writeModelFile(const std::string& path, std::span<const std::uint8_t> bytes);

}  // namespace sotto::nlu
