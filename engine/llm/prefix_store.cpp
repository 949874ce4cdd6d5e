// SPDX-License-Identifier: MIT
// Prefix cache file: header, identity, token ids, keys and values of positions 0..n-1, BLAKE2b-256 checksum.
#include "engine/llm/prefix_store.h"

#include <sodium.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstring>
#include <vector>

#include "engine/llm/kv_cache.h"
#include "sotto/hal/atomic_file.h"

namespace sotto::llm {
namespace {

static_assert(std::endian::native == std::endian::little, "prefix files store host integers");

// Layout (little-endian): magic "SOTTOPFX", u32 version, u8[32] model sha256, u32 context, u32 layers,
// u32 kvHeads, u32 headDim, u32 kvElementBytes, u8[32] template name, u8[32] backend name, u32 nTokens,
// i32[nTokens] ids, then per layer, K then V, per KV head: nTokens × headDim F16 values; u8[32] checksum over
// everything before it.
constexpr char kMagic[8] = {'S', 'O', 'T', 'T', 'O', 'P', 'F', 'X'};
constexpr uint32_t kVersion = 1;
constexpr size_t kNameBytes = 32;
constexpr size_t kHeaderBytes = 8 + 4 + 32 + 4 * 5 + kNameBytes * 2 + 4;
constexpr size_t kSumBytes = crypto_generichash_BYTES;  // 32

struct Layout {
  uint32_t layers = 0, kvHeads = 0, headDim = 0;
};

Layout layoutOf(Generator& g) {
  const auto& p = g.context().model().params();
  return Layout{p.nLayer, p.nHeadKv, p.headDim};
}

// resize + memcpy rather than vector::insert of raw ranges: GCC 12 at -O2 with sanitizers reports a false
// -Wstringop-overflow inside insert(), which -Werror turns into a build failure.
void appendBytes(std::vector<uint8_t>& out, const void* p, size_t n) {
  const size_t at = out.size();
  out.resize(at + n);
  std::memcpy(out.data() + at, p, n);
}

template <typename T>
void put(std::vector<uint8_t>& out, T v) {
  appendBytes(out, &v, sizeof v);
}

void putName(std::vector<uint8_t>& out, const std::string& s) {
  uint8_t b[kNameBytes] = {};
  std::memcpy(b, s.data(), std::min(s.size(), kNameBytes));
  appendBytes(out, b, kNameBytes);
}

template <typename T>
T get(const uint8_t*& p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  p += sizeof v;
  return v;
}

std::string getName(const uint8_t*& p) {
  const char* s = reinterpret_cast<const char*>(p);
  p += kNameBytes;
  return std::string(s, strnlen(s, kNameBytes));
}

bool sodiumReady() {
  static const bool ok = sodium_init() >= 0;
  return ok;
}

}  // namespace

std::array<uint8_t, 32> modelSha256(const GgufFile& file) {
  std::array<uint8_t, 32> out{};
  (void)sodiumReady();
  crypto_hash_sha256_state st;
  crypto_hash_sha256_init(&st);
  const auto bytes = file.bytes();
  // In 16 MiB steps so a huge mapping is hashed without one enormous call (and pages stream through).
  constexpr size_t kStep = size_t{16} << 20;
  for (size_t off = 0; off < bytes.size(); off += kStep) {
    crypto_hash_sha256_update(&st, bytes.data() + off, std::min(kStep, bytes.size() - off));
  }
  crypto_hash_sha256_final(&st, out.data());
  return out;
}

Status savePrefix(const std::string& path, const PrefixIdentity& identity, Generator& g, size_t nTokens) {
  if (!sodiumReady()) return makeError(Errc::internal, "prefix: libsodium failed to initialize");
  const auto cached = g.cachedTokens();
  if (nTokens == 0 || nTokens > cached.size()) {
    return makeError(Errc::invalid_argument, "prefix: cannot save " + std::to_string(nTokens) + " tokens, " +
                                                 std::to_string(cached.size()) + " are cached");
  }
  const Layout L = layoutOf(g);
  KvCache& kv = g.context().kv();
  const size_t headValues = nTokens * L.headDim;
  std::vector<uint8_t> out;
  out.reserve(kHeaderBytes + nTokens * 4 + size_t{L.layers} * 2 * L.kvHeads * headValues * 2 + kSumBytes);
  appendBytes(out, kMagic, sizeof kMagic);
  put<uint32_t>(out, kVersion);
  appendBytes(out, identity.modelSha256.data(), identity.modelSha256.size());
  put<uint32_t>(out, identity.contextTokens);
  put<uint32_t>(out, L.layers);
  put<uint32_t>(out, L.kvHeads);
  put<uint32_t>(out, L.headDim);
  put<uint32_t>(out, 2);  // F16 keys and values
  putName(out, identity.templateName);
  putName(out, identity.backend);
  put<uint32_t>(out, static_cast<uint32_t>(nTokens));
  for (size_t i = 0; i < nTokens; ++i) put<int32_t>(out, cached[i]);
  for (uint32_t l = 0; l < L.layers; ++l) {
    const hal::KvCacheView v = kv.view(l);
    for (const uint16_t* base : {v.k, v.v}) {
      for (uint32_t h = 0; h < L.kvHeads; ++h) {
        appendBytes(out, base + size_t{h} * v.capacity * L.headDim, headValues * 2);
      }
    }
  }
  uint8_t sum[kSumBytes];
  crypto_generichash(sum, sizeof sum, out.data(), out.size(), nullptr, 0);
  appendBytes(out, sum, sizeof sum);
  return hal::writeFileAtomic(path, out, 0600);
}

Result<size_t> loadPrefix(const std::string& path, const PrefixIdentity& identity, Generator& g) {
  if (!sodiumReady()) return makeError(Errc::internal, "prefix: libsodium failed to initialize");
  const Layout L = layoutOf(g);
  const size_t capacity = g.context().capacity();
  const size_t maxBytes = kHeaderBytes + capacity * 4 + size_t{L.layers} * 2 * L.kvHeads * capacity * L.headDim * 2 +
                          kSumBytes;
  auto file = hal::readFile(path, maxBytes);
  if (!file) return std::move(file).error();
  const std::vector<uint8_t>& b = *file;
  auto corrupt = [&](const std::string& what) { return makeError(Errc::corrupt, "prefix cache " + path + ": " + what); };
  if (b.size() < kHeaderBytes + kSumBytes) return corrupt("truncated (" + std::to_string(b.size()) + " bytes)");
  if (std::memcmp(b.data(), kMagic, sizeof kMagic) != 0) return corrupt("not a prefix cache file");
  uint8_t sum[kSumBytes];
  crypto_generichash(sum, sizeof sum, b.data(), b.size() - kSumBytes, nullptr, 0);
  if (sodium_memcmp(sum, b.data() + b.size() - kSumBytes, kSumBytes) != 0) return corrupt("checksum mismatch");

  const uint8_t* p = b.data() + sizeof kMagic;
  const auto version = get<uint32_t>(p);
  if (version != kVersion) return corrupt("version " + std::to_string(version) + ", expected " + std::to_string(kVersion));
  std::array<uint8_t, 32> sha{};
  std::memcpy(sha.data(), p, sha.size());
  p += sha.size();
  const auto ctx = get<uint32_t>(p);
  const auto layers = get<uint32_t>(p);
  const auto kvHeads = get<uint32_t>(p);
  const auto headDim = get<uint32_t>(p);
  const auto elemBytes = get<uint32_t>(p);
  const std::string tmpl = getName(p);
  const std::string backend = getName(p);
  const auto nTokens = get<uint32_t>(p);

  auto stale = [&](const std::string& what) {
    return makeError(Errc::invalid_argument, "prefix cache " + path + " is stale: " + what);
  };
  if (sha != identity.modelSha256) return stale("saved for another model file (sha256 differs)");
  if (tmpl != identity.templateName) return stale("saved for chat template '" + tmpl + "'");
  if (backend != identity.backend) return stale("saved by backend '" + backend + "'");
  if (ctx != identity.contextTokens) return stale("saved for a context of " + std::to_string(ctx) + " tokens");
  if (layers != L.layers || kvHeads != L.kvHeads || headDim != L.headDim || elemBytes != 2) {
    return stale("its KV layout does not match the model");
  }
  if (nTokens == 0 || nTokens >= capacity) return corrupt("token count " + std::to_string(nTokens) + " out of range");
  const size_t headValues = size_t{nTokens} * L.headDim;
  const size_t expect = kHeaderBytes + size_t{nTokens} * 4 + size_t{L.layers} * 2 * L.kvHeads * headValues * 2 + kSumBytes;
  if (b.size() != expect) {
    return corrupt(std::to_string(b.size()) + " bytes, expected " + std::to_string(expect) + " for " +
                   std::to_string(nTokens) + " tokens");
  }
  std::vector<TokenId> ids(nTokens);
  std::memcpy(ids.data(), p, ids.size() * 4);
  p += ids.size() * 4;
  KvCache& kv = g.context().kv();
  for (uint32_t l = 0; l < L.layers; ++l) {
    const hal::KvCacheView v = kv.view(l);
    for (uint16_t* base : {v.k, v.v}) {
      for (uint32_t h = 0; h < L.kvHeads; ++h) {
        std::memcpy(base + size_t{h} * v.capacity * L.headDim, p, headValues * 2);
        p += headValues * 2;
      }
    }
  }
  if (auto st = g.adoptRestoredPrefix(ids); !st) return std::move(st).error();
  return static_cast<size_t>(nTokens);
}

Result<PrefixOutcome> restoreOrBuildPrefix(const std::string& path, const PrefixIdentity& identity, Generator& g,
                                           std::span<const TokenId> prefix) {
  using Clock = std::chrono::steady_clock;
  const auto t0 = Clock::now();
  auto ms = [&] { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); };
  PrefixOutcome out;
  auto loaded = loadPrefix(path, identity, g);
  if (loaded) {
    const auto cached = g.cachedTokens();
    if (std::equal(cached.begin(), cached.end(), prefix.begin(), prefix.end())) {
      out.restored = true;
      out.tokens = *loaded;
      out.ms = ms();
      return out;
    }
    out.why = "prefix cache " + path + " holds another prompt";
  } else {
    out.why = loaded.error().message;
  }
  auto warm = g.warmPrefix(prefix);
  if (!warm) return std::move(warm).error();
  out.tokens = prefix.size();
  if (auto st = savePrefix(path, identity, g, prefix.size()); !st) out.saveError = st.error().message;
  out.ms = ms();
  return out;
}

}  // namespace sotto::llm
