// SPDX-License-Identifier: MIT
// Prefix cache on disk: the KV of the system prompt (and tool/intent preamble) saved to the state directory and
// restored at start-up, checksummed and tied to the model's sha256, the chat template and the context settings.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "engine/llm/generator.h"
#include "engine/llm/gguf.h"
#include "sotto/hal/result.h"

namespace sotto::llm {

// What a saved prefix is only valid for: a file saved under another identity is stale and never trusted.
struct PrefixIdentity {
  std::array<uint8_t, 32> modelSha256{};  // of the whole GGUF file
  std::string templateName;               // chat template the prefix was rendered with ("" = none)
  std::string backend;                    // compute backend that produced the keys and values
  uint32_t contextTokens = 0;             // the context's capacity
};

// SHA-256 of the model file's bytes (libsodium). Control thread; reads the whole mapping (about 0.4 s for a
// 360M Q8_0 model on this machine class).
std::array<uint8_t, 32> modelSha256(const GgufFile& file);

// Saves the first `nTokens` cached tokens of `g` and their keys and values to `path`, atomically (temp file,
// fsync, rename). Errors: nTokens beyond the cached prefix, I/O (full disk, read-only state directory).
// The generation thread (it reads the KV cache), between requests.
Status savePrefix(const std::string& path, const PrefixIdentity& identity, Generator& g, size_t nTokens);

// Restores a saved prefix into `g` and returns its token count. Errors, after which `g` holds no cached prefix:
// Errc::not_found (no file), Errc::corrupt (bad magic, version, size, checksum, token ids), Errc::invalid_argument
// (stale: saved for another model, template, backend or context, or a KV layout this model does not have).
// The generation thread, between requests.
Result<size_t> loadPrefix(const std::string& path, const PrefixIdentity& identity, Generator& g);

struct PrefixOutcome {
  bool restored = false;  // true: from the file; false: computed (and saved unless saveError is set)
  size_t tokens = 0;
  double ms = 0.0;        // wall time of the restore or the computation (+ save)
  std::string why;        // when computed: why the file was not used (missing, stale, corrupt: the error)
  std::string saveError;  // when computed and the save failed: the error (the prefix is still in memory)
};

// Start-up path: restore `prefix` from `path` if the file holds exactly these tokens for this identity; otherwise
// compute it, save it, and report why. A corrupt or stale file is replaced, never trusted. Errors only when the
// prefix cannot be computed at all (e.g. longer than the context). The generation thread.
Result<PrefixOutcome> restoreOrBuildPrefix(const std::string& path, const PrefixIdentity& identity, Generator& g,
                                           std::span<const TokenId> prefix);

}  // namespace sotto::llm
