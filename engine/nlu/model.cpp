// SPDX-License-Identifier: MIT
// The .nlu model: file reading and writing with a checksum, and the two layers' inference.
#include "engine/nlu/model.h"

#include <sodium.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <limits>

namespace sotto::nlu {
namespace {

constexpr char kMagic[8] = {'S', 'O', 'T', 'T', 'O', 'N', 'L', 'U'};
constexpr std::size_t kSumBytes = crypto_generichash_BYTES;  // 32
constexpr unsigned kMaxBits = 22;
constexpr std::size_t kMaxNames = 60;  // intents or slots: the workspace's class capacity bounds both

class Writer {
 public:
  void bytes(const void* p, std::size_t n) {
    const auto* b = static_cast<const std::uint8_t*>(p);
    out_.insert(out_.end(), b, b + n);
  }
  void u32(std::uint32_t v) {
    std::uint8_t b[4] = {static_cast<std::uint8_t>(v), static_cast<std::uint8_t>(v >> 8),
                         static_cast<std::uint8_t>(v >> 16), static_cast<std::uint8_t>(v >> 24)};
    bytes(b, 4);
  }
  void f32(float f) {
    std::uint32_t v = 0;
    std::memcpy(&v, &f, 4);
    u32(v);
  }
  void str(std::string_view s) {
    u32(static_cast<std::uint32_t>(s.size()));
    bytes(s.data(), s.size());
  }
  std::vector<std::uint8_t>& out() { return out_; }

 private:
  std::vector<std::uint8_t> out_;
};

class Reader {
 public:
  explicit Reader(std::span<const std::uint8_t> b) : b_(b) {}
  bool u32(std::uint32_t& v) {
    if (b_.size() - p_ < 4) return fail();
    v = static_cast<std::uint32_t>(b_[p_]) | static_cast<std::uint32_t>(b_[p_ + 1]) << 8 |
        static_cast<std::uint32_t>(b_[p_ + 2]) << 16 | static_cast<std::uint32_t>(b_[p_ + 3]) << 24;
    p_ += 4;
    return true;
  }
  bool f32(float& f) {
    std::uint32_t v = 0;
    if (!u32(v)) return false;
    std::memcpy(&f, &v, 4);
    return std::isfinite(f) || fail();
  }
  bool str(std::string& s, std::size_t max) {
    std::uint32_t n = 0;
    if (!u32(n) || n > max || b_.size() - p_ < n) return fail();
    s.assign(reinterpret_cast<const char*>(b_.data() + p_), n);
    p_ += n;
    return true;
  }
  bool bytes(void* dst, std::size_t n) {
    if (b_.size() - p_ < n) return fail();
    std::memcpy(dst, b_.data() + p_, n);
    p_ += n;
    return true;
  }
  std::size_t left() const { return b_.size() - p_; }
  bool failed() const { return failed_; }

 private:
  bool fail() {
    failed_ = true;
    return false;
  }
  std::span<const std::uint8_t> b_;
  std::size_t p_ = 0;
  bool failed_ = false;
};

bool sodiumReady() {
  static const bool ok = sodium_init() >= 0;
  return ok;
}

void writeLayer(Writer& w, const LinearLayer& l, std::span<const float> bias, std::span<const float> scale,
                std::span<const std::int8_t> q) {
  w.u32(l.bits());
  w.u32(static_cast<std::uint32_t>(l.classes()));
  for (float b : bias) w.f32(b);
  std::uint32_t used = 0;
  for (float s : scale) used += s != 0.0f;
  w.u32(used);
  for (std::size_t r = 0; r < scale.size(); ++r) {
    if (scale[r] == 0.0f) continue;
    w.u32(static_cast<std::uint32_t>(r));
    w.f32(scale[r]);
    w.bytes(q.data() + r * l.classes(), l.classes());
  }
}

bool validName(std::string_view s) {
  if (s.empty() || s.size() > 64) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
  });
}

}  // namespace

LinearLayer::LinearLayer(unsigned bits, std::size_t classes)
    : bits_(bits), classes_(classes), bias_(classes, 0.0f), scale_(std::size_t{1} << bits, 0.0f),
      q_((std::size_t{1} << bits) * classes, 0) {}

void LinearLayer::scores(std::span<const Feature> features, float* out) const noexcept {
  for (std::size_t c = 0; c < classes_; ++c) out[c] = bias_[c];
  for (const Feature& f : features) {
    const float s = scale_[f.index];
    if (s == 0.0f) continue;
    const float k = s * f.value;
    const std::int8_t* row = q_.data() + static_cast<std::size_t>(f.index) * classes_;
    for (std::size_t c = 0; c < classes_; ++c) out[c] += k * static_cast<float>(row[c]);
  }
}

void LinearLayer::setWeights(std::span<const float> weights, std::span<const float> bias) {
  std::copy(bias.begin(), bias.end(), bias_.begin());
  for (std::size_t r = 0; r < rows(); ++r) {
    const float* row = weights.data() + r * classes_;
    float m = 0.0f;
    for (std::size_t c = 0; c < classes_; ++c) m = std::max(m, std::fabs(row[c]));
    // Rows whose weights all round to nothing are dropped from the file.
    if (m < 1e-6f) {
      scale_[r] = 0.0f;
      std::fill_n(q_.data() + r * classes_, classes_, std::int8_t{0});
      continue;
    }
    scale_[r] = m / 127.0f;
    for (std::size_t c = 0; c < classes_; ++c) {
      q_[r * classes_ + c] = static_cast<std::int8_t>(std::lround(row[c] / scale_[r]));
    }
  }
}

void softmax(float* v, std::size_t n) noexcept {
  if (n == 0) return;
  const float m = *std::max_element(v, v + n);
  float sum = 0.0f;
  for (std::size_t i = 0; i < n; ++i) sum += (v[i] = std::exp(v[i] - m));
  for (std::size_t i = 0; i < n; ++i) v[i] /= sum;
}

NluModel::NluModel(std::vector<std::string> intents, std::vector<std::string> slots, LinearLayer intentLayer,
                   LinearLayer tagLayer, float threshold, std::string note)
    : intents_(std::move(intents)), slots_(std::move(slots)), intentLayer_(std::move(intentLayer)),
      tagLayer_(std::move(tagLayer)), threshold_(threshold), note_(std::move(note)) {}

std::vector<std::uint8_t> NluModel::serialize() const {
  Writer w;
  w.bytes(kMagic, sizeof kMagic);
  w.u32(kModelFormatVersion);
  w.str(note_);
  w.u32(static_cast<std::uint32_t>(intents_.size()));
  for (const auto& s : intents_) w.str(s);
  w.u32(static_cast<std::uint32_t>(slots_.size()));
  for (const auto& s : slots_) w.str(s);
  w.f32(threshold_);
  writeLayer(w, intentLayer_, intentLayer_.bias_, intentLayer_.scale_, intentLayer_.q_);
  writeLayer(w, tagLayer_, tagLayer_.bias_, tagLayer_.scale_, tagLayer_.q_);
  auto& out = w.out();
  std::uint8_t sum[kSumBytes];
  (void)sodiumReady();
  crypto_generichash(sum, sizeof sum, out.data(), out.size(), nullptr, 0);
  out.insert(out.end(), sum, sum + sizeof sum);
  return std::move(out);
}

Status NluModel::saveFile(const std::string& path) const {
  const std::vector<std::uint8_t> bytes = serialize();
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

Result<std::unique_ptr<NluModel>> NluModel::loadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return makeError(errno == ENOENT ? Errc::not_found : Errc::io, "cannot open understanding model " + path);
  in.seekg(0, std::ios::end);
  const auto size = static_cast<std::streamoff>(in.tellg());
  if (size < 0 || static_cast<std::uint64_t>(size) > kMaxModelBytes) {
    return makeError(Errc::corrupt, path + ": not an understanding model (size " + std::to_string(size) + ")");
  }
  in.seekg(0);
  std::vector<std::uint8_t> bytes(static_cast<std::size_t>(size));
  if (!in.read(reinterpret_cast<char*>(bytes.data()), size)) return makeError(Errc::io, "cannot read " + path);
  return parse(bytes, path);
}

Result<std::unique_ptr<NluModel>> NluModel::parse(std::span<const std::uint8_t> bytes, std::string_view name) {
  const std::string where(name);
  auto corrupt = [&where](const std::string& what) { return makeError(Errc::corrupt, where + ": " + what); };
  if (bytes.size() < sizeof kMagic + 4 + kSumBytes || std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0) {
    return corrupt("not an understanding model (no SOTTONLU header)");
  }
  const std::span<const std::uint8_t> body = bytes.first(bytes.size() - kSumBytes);
  std::uint8_t sum[kSumBytes];
  (void)sodiumReady();
  crypto_generichash(sum, sizeof sum, body.data(), body.size(), nullptr, 0);
  Reader r(body.subspan(sizeof kMagic));
  std::uint32_t version = 0;
  r.u32(version);
  if (version != kModelFormatVersion) {
    return makeError(Errc::unsupported, where + ": model format " + std::to_string(version) + ", this build reads " +
                                            std::to_string(kModelFormatVersion) + " (retrain: sotto nlu train)");
  }
  if (sodium_memcmp(sum, bytes.data() + body.size(), kSumBytes) != 0) {
    return corrupt("checksum mismatch (the file is damaged or truncated)");
  }
  std::string note;
  std::vector<std::string> intents, slots;
  std::uint32_t n = 0;
  if (!r.str(note, 4096)) return corrupt("truncated note");
  if (!r.u32(n) || n < 2 || n > kMaxNames) return corrupt("bad intent count");
  intents.resize(n);
  for (auto& s : intents) {
    if (!r.str(s, 64) || !validName(s)) return corrupt("bad intent name");
  }
  if (intents[0] != "none") return corrupt("the first intent must be none");
  if (!r.u32(n) || n > (kMaxNames - 1) / 2) return corrupt("bad slot count");
  slots.resize(n);
  for (auto& s : slots) {
    if (!r.str(s, 64) || !validName(s)) return corrupt("bad slot name");
  }
  float threshold = 0.0f;
  if (!r.f32(threshold) || threshold < 0.0f || threshold > 1.0f) return corrupt("bad threshold");
  LinearLayer layers[2];
  const std::size_t expected[2] = {intents.size(), 1 + 2 * slots.size()};
  for (int k = 0; k < 2; ++k) {
    std::uint32_t bits = 0, classes = 0, used = 0;
    if (!r.u32(bits) || !r.u32(classes) || bits < 4 || bits > kMaxBits || classes != expected[k]) {
      return corrupt(k == 0 ? "bad intent layer shape" : "bad tagger layer shape");
    }
    LinearLayer l(bits, classes);
    for (auto& b : l.bias_) {
      if (!r.f32(b)) return corrupt("truncated biases");
    }
    if (!r.u32(used) || used > l.rows() || static_cast<std::uint64_t>(used) * (8 + classes) > r.left()) {
      return corrupt("bad row count");
    }
    std::uint32_t last = 0;
    for (std::uint32_t i = 0; i < used; ++i) {
      std::uint32_t row = 0;
      float scale = 0.0f;
      if (!r.u32(row) || row >= l.rows() || (i > 0 && row <= last) || !r.f32(scale) || !(scale > 0.0f) ||
          !r.bytes(l.q_.data() + static_cast<std::size_t>(row) * classes, classes)) {
        return corrupt("bad weight row");
      }
      l.scale_[row] = scale;
      last = row;
    }
    layers[k] = std::move(l);
  }
  if (r.left() != 0) return corrupt("trailing bytes");
  return std::make_unique<NluModel>(std::move(intents), std::move(slots), std::move(layers[0]), std::move(layers[1]),
                                    threshold, std::move(note));
}

void NluModel::classify(std::span<const std::string_view> words, NluWorkspace& ws) const noexcept {
  ws.features.reset(intentLayer_.rowMask());
  sentenceFeatures(words.first(std::min(words.size(), NluWorkspace::kMaxWords)), ws.features);
  intentLayer_.scores(ws.features.view(), ws.intentProb);
  softmax(ws.intentProb, intents_.size());
}

void NluModel::tag(std::span<const std::string_view> words, std::size_t intent, std::uint64_t allowedSlots,
                   NluWorkspace& ws) const noexcept {
  const std::size_t n = std::min(words.size(), NluWorkspace::kMaxWords);
  words = words.first(n);
  const std::size_t tags = tagCount();
  const std::string_view intentTag = intents_[intent];
  auto allowed = [allowedSlots](std::size_t t) { return t == 0 || (allowedSlots >> ((t - 1) / 2) & 1u) != 0; };
  for (std::size_t i = 0; i < n; ++i) {
    ws.features.reset(tagLayer_.rowMask());
    tokenFeatures(words, i, intentTag, ws.features);
    tagLayer_.scores(ws.features.view(), ws.tagProb[i]);
    softmax(ws.tagProb[i], tags);
  }
  // Viterbi over log probabilities: an inside tag only after its own begin or inside tag; slots the intent
  // does not have are impossible.
  constexpr float kNo = -std::numeric_limits<float>::infinity();
  auto logp = [&](std::size_t i, std::size_t t) {
    return allowed(t) ? std::log(std::max(ws.tagProb[i][t], 1e-12f)) : kNo;
  };
  auto inside = [](std::size_t t) { return t > 0 && t % 2 == 0; };
  for (std::size_t t = 0; t < tags; ++t) {
    ws.score[0][t] = inside(t) ? kNo : logp(0, t);
    ws.back[0][t] = -1;
  }
  for (std::size_t i = 1; i < n; ++i) {
    for (std::size_t t = 0; t < tags; ++t) {
      const float lp = logp(i, t);
      float best = kNo;
      int from = 0;
      for (std::size_t p = 0; p < tags; ++p) {
        if (inside(t) && p != t && p != t - 1) continue;
        if (ws.score[i - 1][p] > best) {
          best = ws.score[i - 1][p];
          from = static_cast<int>(p);
        }
      }
      ws.score[i][t] = best + lp;
      ws.back[i][t] = from;
    }
  }
  if (n == 0) return;
  std::size_t t = 0;
  for (std::size_t k = 1; k < tags; ++k) {
    if (ws.score[n - 1][k] > ws.score[n - 1][t]) t = k;
  }
  for (std::size_t i = n; i-- > 0;) {
    ws.tags[i] = static_cast<int>(t);
    if (i > 0) t = static_cast<std::size_t>(ws.back[i][t]);
  }
}

}  // namespace sotto::nlu
