// SPDX-License-Identifier: MIT
// LogMel features, the wake model's network, file format and the streaming detector.
#include "engine/speech/wake_net.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <numbers>

#include "sotto/hal/atomic_file.h"

namespace sotto::speech {

// ---- LogMel ----

namespace {
float hzToMel(float hz) { return 2595.0f * std::log10(1.0f + hz / 700.0f); }
float melToHz(float mel) { return 700.0f * (std::pow(10.0f, mel / 2595.0f) - 1.0f); }
constexpr float kMelLowHz = 60.0f, kMelHighHz = 7600.0f, kRate = 16000.0f;
// log(energy + floor): digital silence stays finite; the floor is ~110 dB below a full-scale tone's bin.
constexpr float kLogFloor = 1e-6f;
}  // namespace

LogMel::LogMel()
    : hann_(kWindow), history_(kWindow, 0.0f), re_(kFft), im_(kFft), cos_(kFft / 2), sin_(kFft / 2),
      bitReverse_(kFft), melFirst_(kBands), melCount_(kBands), melOffset_(kBands) {
  for (size_t i = 0; i < kWindow; ++i) {
    hann_[i] = 0.5f - 0.5f * std::cos(2.0f * std::numbers::pi_v<float> * static_cast<float>(i) / kWindow);
  }
  for (size_t i = 0; i < kFft / 2; ++i) {
    const double a = -2.0 * std::numbers::pi * static_cast<double>(i) / kFft;
    cos_[i] = static_cast<float>(std::cos(a));
    sin_[i] = static_cast<float>(std::sin(a));
  }
  size_t bits = 0;
  while ((size_t{1} << bits) < kFft) ++bits;
  for (size_t i = 0; i < kFft; ++i) {
    size_t r = 0;
    for (size_t b = 0; b < bits; ++b) r |= ((i >> b) & 1) << (bits - 1 - b);
    bitReverse_[i] = static_cast<uint16_t>(r);
  }
  // Triangular filters on the power spectrum's bins 0..kFft/2, centres evenly spaced in mel.
  const float lo = hzToMel(kMelLowHz), hi = hzToMel(kMelHighHz);
  std::vector<float> edges(kBands + 2);
  for (size_t i = 0; i < edges.size(); ++i) {
    edges[i] = melToHz(lo + (hi - lo) * static_cast<float>(i) / static_cast<float>(kBands + 1)) * kFft / kRate;
  }
  for (size_t b = 0; b < kBands; ++b) {
    const float l = edges[b], c = edges[b + 1], r = edges[b + 2];
    const size_t first = static_cast<size_t>(std::ceil(l));
    const size_t last = std::min(static_cast<size_t>(std::floor(r)), kFft / 2);
    melFirst_[b] = static_cast<uint16_t>(first);
    melOffset_[b] = static_cast<uint32_t>(melWeight_.size());
    for (size_t k = first; k <= last; ++k) {
      const float f = static_cast<float>(k);
      melWeight_.push_back(f <= c ? (f - l) / std::max(c - l, 1e-6f) : (r - f) / std::max(r - c, 1e-6f));
    }
    melCount_[b] = static_cast<uint16_t>(last + 1 - first);
  }
}

float LogMel::silence() noexcept { return std::log(kLogFloor); }

void LogMel::reset() noexcept { std::fill(history_.begin(), history_.end(), 0.0f); }

void LogMel::fft() noexcept {
  for (size_t i = 0; i < kFft; ++i) {
    const size_t j = bitReverse_[i];
    if (j > i) {
      std::swap(re_[i], re_[j]);
      std::swap(im_[i], im_[j]);
    }
  }
  for (size_t len = 2; len <= kFft; len <<= 1) {
    const size_t half = len / 2, step = kFft / len;
    for (size_t s = 0; s < kFft; s += len) {
      for (size_t k = 0; k < half; ++k) {
        const float wr = cos_[k * step], wi = sin_[k * step];
        const size_t a = s + k, b = a + half;
        const float tr = re_[b] * wr - im_[b] * wi, ti = re_[b] * wi + im_[b] * wr;
        re_[b] = re_[a] - tr;
        im_[b] = im_[a] - ti;
        re_[a] += tr;
        im_[a] += ti;
      }
    }
  }
}

void LogMel::push(std::span<const int16_t> frame, float* out) noexcept {
  std::copy(history_.begin() + kFrame, history_.end(), history_.begin());
  float* fresh = history_.data() + (kWindow - kFrame);
  for (size_t i = 0; i < kFrame; ++i) fresh[i] = i < frame.size() ? static_cast<float>(frame[i]) / 32768.0f : 0.0f;
  for (size_t i = 0; i < kWindow; ++i) re_[i] = history_[i] * hann_[i];
  std::fill(re_.begin() + kWindow, re_.end(), 0.0f);
  std::fill(im_.begin(), im_.end(), 0.0f);
  fft();
  for (size_t k = 0; k <= kFft / 2; ++k) re_[k] = re_[k] * re_[k] + im_[k] * im_[k];
  for (size_t b = 0; b < kBands; ++b) {
    float e = 0;
    const float* w = melWeight_.data() + melOffset_[b];
    for (size_t k = 0; k < melCount_[b]; ++k) e += w[k] * re_[melFirst_[b] + k];
    out[b] = std::log(e + kLogFloor);
  }
}

// ---- WakeModel ----

namespace {
// Σ a·b in eight interleaved partial sums: a fixed order the compiler can vectorize (a single running sum cannot
// be reordered without -ffast-math, and ran the network at 0.4 GFLOP/s).
float dot(const float* a, const float* b, size_t n) noexcept {
  float acc[8] = {};
  size_t j = 0;
  for (; j + 8 <= n; j += 8) {
    for (size_t k = 0; k < 8; ++k) acc[k] += a[j + k] * b[j + k];
  }
  for (; j < n; ++j) acc[j & 7] += a[j] * b[j];
  return ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7]));
}
}  // namespace

size_t WakeModel::framesOut(size_t l) const noexcept {
  size_t t = windowFrames;
  for (size_t i = 0; i < l && i < layers.size(); ++i) {
    if (t < layers[i].kernel || layers[i].stride == 0) return 0;
    t = (t - layers[i].kernel) / layers[i].stride + 1;
  }
  return t;
}

size_t WakeModel::paramCount() const noexcept {
  size_t n = 0;
  for (const WakeLayer& l : layers) n += size_t{l.out} * l.kernel * l.in + l.out;
  return n + (layers.empty() ? 0 : layers.back().out) + 1;
}

size_t WakeModel::activationFloats() const noexcept {
  size_t n = 0;
  for (size_t l = 0; l < layers.size(); ++l) n += framesOut(l + 1) * layers[l].out;
  return n;
}

Status WakeModel::validate() const {
  const auto bad = [](const std::string& what) { return makeError(Errc::corrupt, "wake model: " + what); };
  if (phrase.empty() || phrase.size() > 64) return bad("phrase missing or longer than 64 bytes");
  if (windowFrames < 10 || windowFrames > kMaxWindowFrames) return bad("window length out of range");
  if (hopFrames == 0 || hopFrames > 10) return bad("hop out of range");
  if (!(threshold > 0.0f && threshold < 1.0f)) return bad("threshold not in (0, 1)");
  if (consecutive == 0 || consecutive > 20) return bad("consecutive runs out of range");
  if (endLagFrames > windowFrames) return bad("end lag longer than the window");
  if (layers.empty() || layers.size() > kMaxLayers) return bad("layer count out of range");
  uint32_t channels = LogMel::kBands;
  for (size_t l = 0; l < layers.size(); ++l) {
    const WakeLayer& w = layers[l];
    if (w.in != channels || w.out == 0 || w.out > kMaxChannels || w.kernel == 0 || w.kernel > 16 || w.stride == 0 ||
        w.stride > 4) {
      return bad("layer " + std::to_string(l) + " has an unusable shape");
    }
    channels = w.out;
  }
  if (framesOut(layers.size()) == 0) return bad("the layers need a longer window");
  if (mean.size() != LogMel::kBands || invStd.size() != LogMel::kBands) return bad("normalization size");
  if (params.size() != paramCount()) return bad("parameter count does not match the layers");
  const auto finite = [](const std::vector<float>& v) {
    return std::all_of(v.begin(), v.end(), [](float x) { return std::isfinite(x); });
  };
  if (!finite(params) || !finite(mean) || !finite(invStd)) return bad("non-finite values");
  return {};
}

float WakeModel::forward(const float* x, float* acts) const noexcept {
  const float* in = x;
  size_t tIn = windowFrames;
  const float* p = params.data();
  float* out = acts;
  for (const WakeLayer& l : layers) {
    const size_t tOut = (tIn - l.kernel) / l.stride + 1, span = size_t{l.kernel} * l.in;
    const float* w = p;
    const float* b = p + l.out * span;
    for (size_t t = 0; t < tOut; ++t) {
      const float* src = in + t * l.stride * l.in;  // kernel consecutive frames: one contiguous span
      float* dst = out + t * l.out;
      for (size_t o = 0; o < l.out; ++o) {
        const float s = dot(w + o * span, src, span) + b[o];
        dst[o] = s > 0 ? s : 0;
      }
    }
    p = b + l.out;
    in = out;
    out += tOut * l.out;
    tIn = tOut;
  }
  // Max over the remaining time steps, then the logistic unit.
  const size_t c = layers.back().out;
  float logit = p[c];
  for (size_t o = 0; o < c; ++o) {
    float m = in[o];
    for (size_t t = 1; t < tIn; ++t) m = std::max(m, in[t * c + o]);
    logit += p[o] * m;
  }
  return logit;
}

namespace {

constexpr char kMagic[8] = {'S', 'O', 'T', 'T', 'O', 'W', 'K', '1'};

uint32_t crc32(const std::byte* p, size_t n) {
  uint32_t c = 0xFFFFFFFFu;
  for (size_t i = 0; i < n; ++i) {
    c ^= static_cast<uint8_t>(p[i]);
    for (int k = 0; k < 8; ++k) c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
  }
  return ~c;
}

class Writer {
 public:
  void bytes(const void* p, size_t n) {
    const auto* b = static_cast<const std::byte*>(p);
    out.insert(out.end(), b, b + n);
  }
  void u32(uint32_t v) {
    uint8_t b[4] = {static_cast<uint8_t>(v), static_cast<uint8_t>(v >> 8), static_cast<uint8_t>(v >> 16),
                    static_cast<uint8_t>(v >> 24)};
    bytes(b, 4);
  }
  void f32(float v) {
    uint32_t u;
    std::memcpy(&u, &v, 4);
    u32(u);
  }
  void floats(const std::vector<float>& v) {
    for (float x : v) f32(x);
  }
  std::vector<std::byte> out;
};

class Reader {
 public:
  explicit Reader(std::span<const std::byte> b) : b_(b) {}
  bool u32(uint32_t& v) {
    if (b_.size() - at_ < 4) return false;
    v = 0;
    for (int i = 3; i >= 0; --i) v = (v << 8) | static_cast<uint8_t>(b_[at_ + static_cast<size_t>(i)]);
    at_ += 4;
    return true;
  }
  bool f32(float& v) {
    uint32_t u;
    if (!u32(u)) return false;
    std::memcpy(&v, &u, 4);
    return true;
  }
  bool floats(std::vector<float>& v, size_t n) {
    if ((b_.size() - at_) / 4 < n) return false;
    v.resize(n);
    for (float& x : v) f32(x);
    return true;
  }
  bool text(std::string& s, size_t n) {
    if (b_.size() - at_ < n) return false;
    s.assign(reinterpret_cast<const char*>(b_.data() + at_), n);
    at_ += n;
    return true;
  }
  size_t at() const { return at_; }

 private:
  std::span<const std::byte> b_;
  size_t at_ = 0;
};

}  // namespace

std::vector<std::byte> WakeModel::serialize() const {
  Writer w;
  w.bytes(kMagic, sizeof kMagic);
  w.u32(static_cast<uint32_t>(phrase.size()));
  w.bytes(phrase.data(), phrase.size());
  w.u32(windowFrames);
  w.u32(hopFrames);
  w.f32(threshold);
  w.u32(consecutive);
  w.u32(endLagFrames);
  w.u32(static_cast<uint32_t>(layers.size()));
  for (const WakeLayer& l : layers) {
    w.u32(l.in);
    w.u32(l.out);
    w.u32(l.kernel);
    w.u32(l.stride);
  }
  w.floats(mean);
  w.floats(invStd);
  w.u32(static_cast<uint32_t>(params.size()));
  w.floats(params);
  w.u32(crc32(w.out.data(), w.out.size()));
  return std::move(w.out);
}

Result<WakeModel> WakeModel::parse(std::span<const std::byte> bytes, const std::string& what) {
  const auto bad = [&](const std::string& why) { return makeError(Errc::corrupt, what + ": " + why); };
  if (bytes.size() < sizeof kMagic + 8 || std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0) {
    return bad("not a wake model (magic SOTTOWK1 missing)");
  }
  Reader crcAt(bytes.subspan(bytes.size() - 4));
  uint32_t stored = 0;
  (void)crcAt.u32(stored);
  if (crc32(bytes.data(), bytes.size() - 4) != stored) return bad("checksum mismatch (truncated or corrupt file)");
  Reader r(bytes.subspan(sizeof kMagic, bytes.size() - 4 - sizeof kMagic));
  WakeModel m;
  uint32_t n = 0, layers = 0, count = 0;
  if (!r.u32(n) || n > 64 || !r.text(m.phrase, n)) return bad("bad phrase");
  if (!r.u32(m.windowFrames) || !r.u32(m.hopFrames) || !r.f32(m.threshold) || !r.u32(m.consecutive) ||
      !r.u32(m.endLagFrames) || !r.u32(layers) || layers > kMaxLayers) {
    return bad("bad header");
  }
  m.layers.resize(layers);
  for (WakeLayer& l : m.layers) {
    if (!r.u32(l.in) || !r.u32(l.out) || !r.u32(l.kernel) || !r.u32(l.stride)) return bad("bad layer table");
  }
  if (!r.floats(m.mean, LogMel::kBands) || !r.floats(m.invStd, LogMel::kBands)) return bad("bad normalization");
  if (!r.u32(count) || count != m.paramCount() || !r.floats(m.params, count)) return bad("bad parameter block");
  if (r.at() != bytes.size() - 4 - sizeof kMagic) return bad("trailing bytes");
  if (auto s = m.validate(); !s.ok()) return bad(s.error().message);
  return m;
}

Result<WakeModel> WakeModel::load(const std::string& path) {
  // A regular file of at most 16 MiB only (a FIFO or a device is refused at once).
  auto raw = hal::readFile(path, std::uint64_t{16} << 20);
  if (!raw) {
    Error e = std::move(raw).error();
    e.message = "wake model " + (e.code == Errc::not_found ? path + ": cannot open" : e.message);
    return e;
  }
  std::vector<std::byte> bytes(raw->size());
  if (!raw->empty()) std::memcpy(bytes.data(), raw->data(), raw->size());
  return parse(bytes, "wake model " + path);
}

// ---- WakeDetector ----

Result<WakeDetector> WakeDetector::create(WakeModel model) {
  if (auto s = model.validate(); !s.ok()) return std::move(s).error();
  WakeDetector d;
  d.ring_.assign(size_t{model.windowFrames} * LogMel::kBands, 0.0f);
  d.window_.assign(d.ring_.size(), 0.0f);
  d.acts_.assign(model.activationFloats(), 0.0f);
  d.frame_.assign(LogMel::kBands, 0.0f);
  d.model_ = std::move(model);
  d.reset();
  return d;
}

// The window restarts as digital silence (what the training clips are padded with), so the network runs from the
// next frame on and a phrase heard before the reset cannot be detected again.
void WakeDetector::reset() noexcept {
  mel_.reset();
  const size_t bands = LogMel::kBands;
  for (size_t i = 0; i < ring_.size(); ++i) {
    const size_t b = i % bands;
    ring_[i] = (LogMel::silence() - model_.mean[b]) * model_.invStd[b];
  }
  frames_ = 0;
  above_ = 0;
  lastP_ = maxP_ = 0;
}

bool WakeDetector::process(std::span<const int16_t> frame) noexcept {
  const size_t bands = LogMel::kBands, window = model_.windowFrames;
  mel_.push(frame, frame_.data());
  float* slot = ring_.data() + (frames_ % window) * bands;
  for (size_t b = 0; b < bands; ++b) slot[b] = (frame_[b] - model_.mean[b]) * model_.invStd[b];
  ++frames_;
  if (frames_ % model_.hopFrames != 0) return false;
  // Unroll the ring, oldest frame first.
  const size_t oldest = static_cast<size_t>(frames_ % window);
  std::copy(ring_.begin() + static_cast<std::ptrdiff_t>(oldest * bands), ring_.end(), window_.begin());
  std::copy(ring_.begin(), ring_.begin() + static_cast<std::ptrdiff_t>(oldest * bands),
            window_.begin() + static_cast<std::ptrdiff_t>((window - oldest) * bands));
  const float logit = model_.forward(window_.data(), acts_.data());
  lastP_ = 1.0f / (1.0f + std::exp(-logit));
  maxP_ = std::max(maxP_, lastP_);
  ++runs_;
  above_ = lastP_ >= model_.threshold ? above_ + 1 : 0;
  return above_ >= model_.consecutive;
}

}  // namespace sotto::speech
