// SPDX-License-Identifier: MIT
// wake_train: trains the wake word network (engine/speech/wake_net.h) on the set gen_wake_train.py generates and
// writes the model file the daemon loads (wake.model). Every epoch mixes fresh noise (white, pink, brown, babble)
// at random SNR and level into every clip, then takes windows: the phrase ended 30-400 ms before the window's end
// (wake), the phrase not finished or scrolled out, and anywhere in the non-wake speech (not wake). A tenth of the
// clips is held out; at the end the streaming detector runs on them and the threshold is chosen there.
//
// Usage: wake_train --set DIR/train.tsv --out MODEL [--epochs N] [--threads N] [--seed S]
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "engine/speech/wake_net.h"

namespace sotto::bench {
namespace {

using speech::LogMel;
using speech::WakeLayer;
using speech::WakeModel;

constexpr size_t kBands = LogMel::kBands;
constexpr size_t kPadFrames = 150;  // silence before every clip: windows may start before the clip does

struct Clip {
  std::string path, voice;
  bool wake = false;
  double endS = 0;
  std::vector<int16_t> audio;
  std::vector<float> feats;  // this epoch's features, frames × kBands (raw log-mel)
  size_t frames() const { return feats.size() / kBands; }
};

bool readWav(const std::string& path, std::vector<int16_t>& out) {
  std::ifstream f(path, std::ios::binary);
  std::vector<char> b((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  if (b.size() < 44 || std::memcmp(b.data(), "RIFF", 4) != 0 || std::memcmp(b.data() + 8, "WAVE", 4) != 0) return false;
  size_t at = 12;
  while (at + 8 <= b.size()) {
    uint32_t n;
    std::memcpy(&n, b.data() + at + 4, 4);
    if (std::memcmp(b.data() + at, "data", 4) == 0) {
      const size_t bytes = std::min<size_t>(n, b.size() - at - 8);
      out.resize(bytes / 2);
      std::memcpy(out.data(), b.data() + at + 8, out.size() * 2);
      return true;
    }
    at += 8 + n + (n & 1);
  }
  return false;
}

double activeRms(const std::vector<int16_t>& a) {
  // RMS over the 10 ms frames above -50 dBFS, as gen_sets.py measures speech for its SNRs.
  const double floor = std::pow(32768.0 * std::pow(10.0, -50.0 / 20.0), 2) * 160;
  double total = 0;
  size_t n = 0;
  for (size_t f = 0; f + 160 <= a.size(); f += 160) {
    double e = 0;
    for (size_t i = f; i < f + 160; ++i) e += double(a[i]) * a[i];
    if (e > floor) {
      total += e;
      n += 160;
    }
  }
  return n ? std::sqrt(total / double(n)) : 0;
}

// Noise of one kind, unit RMS.
std::vector<float> noise(int kind, size_t n, std::mt19937& rng, const std::vector<Clip>& others) {
  std::vector<float> v(n);
  std::normal_distribution<float> g(0, 1);
  if (kind == 3 && !others.empty()) {  // babble: three talkers from the non-wake speech
    std::uniform_int_distribution<size_t> pick(0, others.size() - 1);
    for (int k = 0; k < 3; ++k) {
      const std::vector<int16_t>& s = others[pick(rng)].audio;
      if (s.size() <= n) continue;
      const size_t off = std::uniform_int_distribution<size_t>(0, s.size() - n - 1)(rng);
      for (size_t i = 0; i < n; ++i) v[i] += s[off + i];
    }
  } else {
    float b0 = 0, b1 = 0, b2 = 0, brown = 0;
    for (size_t i = 0; i < n; ++i) {
      const float w = g(rng);
      if (kind == 0) {
        v[i] = w;
      } else if (kind == 1) {  // pink: three leaky integrators (Paul Kellet's economy filter)
        b0 = 0.99765f * b0 + w * 0.0990460f;
        b1 = 0.96300f * b1 + w * 0.2965164f;
        b2 = 0.57000f * b2 + w * 1.0526913f;
        v[i] = b0 + b1 + b2 + w * 0.1848f;
      } else {  // brown: leaky integral of white
        brown = 0.995f * brown + w * 0.1f;
        v[i] = brown;
      }
    }
  }
  double e = 0;
  for (float x : v) e += double(x) * x;
  const float s = e > 0 ? float(1.0 / std::sqrt(e / double(n))) : 0.0f;
  for (float& x : v) x *= s;
  return v;
}

// This epoch's version of a clip: level, optional noise at an SNR against its active speech, log-mel features.
void augment(Clip& c, std::mt19937& rng, const std::vector<Clip>& others, bool noisy) {
  const size_t pad = kPadFrames * 160;
  const size_t n = c.audio.size() + pad;
  std::vector<float> x(n, 0.0f);
  const double speech = activeRms(c.audio);
  std::uniform_real_distribution<double> u(0, 1);
  const double level = std::pow(10.0, (-38.0 + 26.0 * u(rng)) / 20.0) * 32768.0;  // -38..-12 dBFS active RMS
  const double gain = speech > 0 ? level / speech : 1.0;
  for (size_t i = 0; i < c.audio.size(); ++i) x[pad + i] = float(c.audio[i] * gain);
  if (noisy && u(rng) < 0.7) {
    const int kind = std::uniform_int_distribution<int>(0, 3)(rng);
    const double snr = -2.0 + 32.0 * u(rng);
    const std::vector<float> nz = noise(kind, n, rng, others);
    const float s = float(level / std::pow(10.0, snr / 20.0));
    for (size_t i = 0; i < n; ++i) x[i] += nz[i] * s;
  } else if (u(rng) < 0.5) {  // a faint floor now and then (digital silence is rare in a room)
    const std::vector<float> nz = noise(0, n, rng, others);
    const float s = float(level * std::pow(10.0, -(45.0 + 20.0 * u(rng)) / 20.0));
    for (size_t i = 0; i < n; ++i) x[i] += nz[i] * s;
  }
  std::vector<int16_t> pcm(n);
  for (size_t i = 0; i < n; ++i) pcm[i] = int16_t(std::clamp(std::lround(x[i]), -32768L, 32767L));
  LogMel mel;
  const size_t frames = n / 160;
  c.feats.resize(frames * kBands);
  for (size_t f = 0; f < frames; ++f) mel.push(std::span<const int16_t>(pcm.data() + f * 160, 160), &c.feats[f * kBands]);
}

struct Example {
  const Clip* clip;
  size_t end;  // frame index one past the window's last frame
  float label;
};

// Gradient of the loss for one example, added into grad; returns the example's loss.
struct Net {
  const WakeModel& m;
  std::vector<float> x, acts, dacts, din;
  explicit Net(const WakeModel& model)
      : m(model), x(size_t{model.windowFrames} * kBands), acts(model.activationFloats()), dacts(acts.size()),
        din(x.size()) {}

  float step(const Example& e, std::vector<float>& grad) {
    const size_t T = m.windowFrames;
    const float* f = e.clip->feats.data() + (e.end - T) * kBands;
    for (size_t t = 0; t < T; ++t) {
      for (size_t b = 0; b < kBands; ++b) x[t * kBands + b] = (f[t * kBands + b] - m.mean[b]) * m.invStd[b];
    }
    const float logit = m.forward(x.data(), acts.data());
    const float p = 1.0f / (1.0f + std::exp(-logit));
    const float loss = -(e.label * std::log(std::max(p, 1e-7f)) + (1 - e.label) * std::log(std::max(1 - p, 1e-7f)));
    const float dlogit = p - e.label;
    // Offsets of each layer's parameters and activations.
    const size_t L = m.layers.size();
    std::vector<size_t> pOff(L + 1), aOff(L + 1), tOut(L + 1);
    tOut[0] = T;
    for (size_t l = 0; l < L; ++l) {
      const WakeLayer& w = m.layers[l];
      pOff[l + 1] = pOff[l] + size_t{w.out} * w.kernel * w.in + w.out;
      tOut[l + 1] = (tOut[l] - w.kernel) / w.stride + 1;
      aOff[l + 1] = aOff[l] + tOut[l + 1] * w.out;
    }
    const size_t c = m.layers.back().out, tl = tOut[L];
    const float* top = acts.data() + aOff[L - 1];
    const float* wd = m.params.data() + pOff[L];
    std::fill(dacts.begin(), dacts.end(), 0.0f);
    float* dtop = dacts.data() + aOff[L - 1];
    for (size_t o = 0; o < c; ++o) {
      size_t arg = 0;
      for (size_t t = 1; t < tl; ++t) arg = top[t * c + o] > top[arg * c + o] ? t : arg;
      grad[pOff[L] + o] += dlogit * top[arg * c + o];
      dtop[arg * c + o] += dlogit * wd[o];
    }
    grad[pOff[L] + c] += dlogit;
    for (size_t l = L; l-- > 0;) {
      const WakeLayer& w = m.layers[l];
      const size_t span = size_t{w.kernel} * w.in;
      const float* in = l == 0 ? x.data() : acts.data() + aOff[l - 1];
      float* dIn = l == 0 ? nullptr : dacts.data() + aOff[l - 1];
      const float* out = acts.data() + aOff[l];
      const float* dOut = dacts.data() + aOff[l];
      const float* W = m.params.data() + pOff[l];
      float* gW = grad.data() + pOff[l];
      float* gB = gW + w.out * span;
      for (size_t t = 0; t < tOut[l + 1]; ++t) {
        const float* src = in + t * w.stride * w.in;
        float* dsrc = dIn != nullptr ? dIn + t * w.stride * w.in : nullptr;
        for (size_t o = 0; o < w.out; ++o) {
          const float g = out[t * w.out + o] > 0 ? dOut[t * w.out + o] : 0.0f;
          if (g == 0.0f) continue;
          float* gw = gW + o * span;
          const float* wo = W + o * span;
          for (size_t j = 0; j < span; ++j) gw[j] += g * src[j];
          gB[o] += g;
          if (dsrc != nullptr) {
            for (size_t j = 0; j < span; ++j) dsrc[j] += g * wo[j];
          }
        }
      }
    }
    return loss;
  }
};

void initParams(WakeModel& m, std::mt19937& rng) {
  m.params.assign(m.paramCount(), 0.0f);
  size_t at = 0;
  for (const WakeLayer& l : m.layers) {
    const size_t fanIn = size_t{l.kernel} * l.in;
    std::normal_distribution<float> g(0.0f, std::sqrt(2.0f / float(fanIn)));
    for (size_t i = 0; i < l.out * fanIn; ++i) m.params[at++] = g(rng);
    for (size_t i = 0; i < l.out; ++i) m.params[at++] = 0.01f;
  }
  std::normal_distribution<float> g(0.0f, std::sqrt(1.0f / float(m.layers.back().out)));
  for (size_t i = 0; i < m.layers.back().out; ++i) m.params[at++] = g(rng);
  m.params[at++] = -2.0f;
}

// Runs the streaming detector over a clip (features of this epoch's audio are not used: the detector computes its
// own from PCM) and returns the highest probability seen and the frame of the first run at or above `threshold`
// for `consecutive` runs (or SIZE_MAX).
struct Scan {
  std::vector<float> probs;  // every run's probability
};

Scan scan(const WakeModel& m, const std::vector<int16_t>& pcm) {
  Scan s;
  auto det = speech::WakeDetector::create(m);
  if (!det.ok()) return s;
  for (size_t f = 0; f + 160 <= pcm.size(); f += 160) {
    det->process(std::span<const int16_t>(pcm.data() + f, 160));
    if ((f / 160 + 1) % m.hopFrames == 0) s.probs.push_back(det->lastProbability());
  }
  return s;
}

std::vector<int16_t> mixForEval(const Clip& c, double snrDb, std::mt19937& rng, const std::vector<Clip>& others) {
  std::vector<int16_t> out(c.audio.size() + 16000, 0);
  const double speech = activeRms(c.audio), level = std::pow(10.0, -25.0 / 20.0) * 32768.0;
  const double gain = speech > 0 ? level / speech : 1.0;
  std::vector<float> nz;
  if (snrDb < 100) nz = noise(int(rng() % 4), out.size(), rng, others);
  for (size_t i = 0; i < out.size(); ++i) {
    double v = i >= 16000 ? c.audio[i - 16000] * gain : 0;
    if (!nz.empty()) v += nz[i] * level / std::pow(10.0, snrDb / 20.0);
    out[i] = int16_t(std::clamp<long>(std::lround(v), -32768, 32767));
  }
  return out;
}

int run(int argc, char** argv) {
  std::string set, outPath, phrase = "hey computer", calibrate, init, heldOutOther;
  bool mine = false;
  float lr0 = 2e-3f;
  uint32_t hop = 0;  // 0: the model's own (new models: 2)
  float fixedThreshold = 0;  // --operating-point: chosen elsewhere (e.g. a benchmark's tune split), not by the rule
  uint32_t fixedRuns = 0;
  int epochs = 30;
  unsigned threads = 2, seed = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() { return i + 1 < argc ? std::string(argv[++i]) : std::string(); };
    if (a == "--set") set = next();
    else if (a == "--out") outPath = next();
    else if (a == "--epochs") epochs = std::stoi(next());
    else if (a == "--threads") threads = unsigned(std::stoul(next()));
    else if (a == "--seed") seed = unsigned(std::stoul(next()));
    else if (a == "--phrase") phrase = next();
    else if (a == "--calibrate") calibrate = next();
    else if (a == "--init") init = next();
    else if (a == "--held-out-other") heldOutOther = next();
    else if (a == "--mine") mine = true;
    else if (a == "--lr") lr0 = std::stof(next());
    else if (a == "--hop") hop = uint32_t(std::stoul(next()));
    else if (a == "--operating-point") {
      const std::string v = next();
      const size_t comma = v.find(',');
      fixedThreshold = std::stof(v.substr(0, comma));
      fixedRuns = comma == std::string::npos ? 0 : uint32_t(std::stoul(v.substr(comma + 1)));
      if (!(fixedThreshold > 0.5f && fixedThreshold < 1.0f) || fixedRuns < 1 || fixedRuns > 50) {
        std::fprintf(stderr, "wake_train: --operating-point takes THRESHOLD,RUNS (0.5 < THRESHOLD < 1, 1..50 runs)\n");
        return 2;
      }
    }
    else {
      std::fprintf(stderr, "usage: wake_train --set DIR/train.tsv --out MODEL [--epochs N] [--threads N] [--seed S]\n"
                           "                  [--calibrate TRAINED]  (only choose the threshold and lag of a model)\n"
                           "                  [--init TRAINED] [--lr L]  (go on training a model: its normalization kept)\n"
                           "                  [--held-out-other SET.tsv]  (the non-wake speech the threshold is chosen on)\n"
                           "                  [--mine]  (hard negatives: the non-wake windows the network scores highest)\n"
                           "                  [--hop N]  (run the network every N frames; the operating point is chosen for it)\n"
                           "                  [--operating-point T,K]  (threshold T over K consecutive runs, instead of the\n"
                           "                   held-out rule; the held-out table is still printed)\n");
      return 2;
    }
  }
  if (set.empty() || outPath.empty()) {
    std::fprintf(stderr, "wake_train: --set and --out are required\n");
    return 2;
  }
  std::ifstream man(set);
  if (!man) {
    std::fprintf(stderr, "wake_train: cannot read %s\n", set.c_str());
    return 1;
  }
  std::vector<Clip> wake, other, wakeVal, otherVal;
  std::string line;
  size_t nWake = 0, nOther = 0;
  while (std::getline(man, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream ls(line);
    Clip c;
    std::string kind, end;
    std::getline(ls, c.path, '\t');
    std::getline(ls, kind, '\t');
    std::getline(ls, end, '\t');
    std::getline(ls, c.voice, '\t');
    c.wake = kind == "wake";
    c.endS = std::atof(end.c_str());
    if (!readWav(c.path, c.audio)) {
      std::fprintf(stderr, "wake_train: cannot read %s\n", c.path.c_str());
      return 1;
    }
    // Every tenth clip of each kind is held out for choosing the threshold.
    if (c.wake) (nWake++ % 10 == 9 ? wakeVal : wake).push_back(std::move(c));
    else (nOther++ % 10 == 9 ? otherVal : other).push_back(std::move(c));
  }
  // Ordinary speech of a separate set for the threshold: the training set's non-wake chunks mix in near phrases
  // ("okay computer", "hi computer") on purpose, and the false accepts a threshold bounds are those of everyday
  // speech; how often near phrases wake it is measured apart (bench_speech wake on a set of them).
  if (!heldOutOther.empty()) {
    std::ifstream h(heldOutOther);
    otherVal.clear();
    for (std::string l; std::getline(h, l);) {
      if (l.empty() || l[0] == '#') continue;
      std::istringstream ls(l);
      Clip c;
      std::string kind;
      std::getline(ls, c.path, '\t');
      std::getline(ls, kind, '\t');
      if (kind != "other") continue;
      if (!readWav(c.path, c.audio)) {
        std::fprintf(stderr, "wake_train: cannot read %s\n", c.path.c_str());
        return 1;
      }
      otherVal.push_back(std::move(c));
    }
  }
  if (wake.empty() || other.empty() || otherVal.empty()) {
    std::fprintf(stderr, "wake_train: the set needs wake clips and at least 10 non-wake chunks\n");
    return 1;
  }
  std::printf("wake_train: %zu wake clips (+%zu held out), %zu non-wake chunks (+%zu held out)\n", wake.size(),
              wakeVal.size(), other.size(), otherVal.size());

  WakeModel m;
  const std::string from = !calibrate.empty() ? calibrate : init;
  if (!from.empty()) {
    auto loaded = WakeModel::load(from);
    if (!loaded.ok()) {
      std::fprintf(stderr, "wake_train: %s\n", loaded.error().message.c_str());
      return 1;
    }
    m = std::move(loaded).value();
    if (!calibrate.empty()) epochs = 0;
  }
  m.phrase = phrase;
  std::mt19937 rng(seed);
  if (from.empty()) {
    // 1.5 s of 10 ms frames; five convolutions of 5 frames every 2 leave one time step that sees all of it.
    m.windowFrames = 150;
    m.hopFrames = 2;
    m.layers = {{40, 32, 5, 2}, {32, 48, 5, 2}, {48, 48, 5, 2}, {48, 64, 5, 2}, {64, 64, 5, 2}};
    initParams(m, rng);
  }
  if (hop != 0) {
    if (hop > 4) {
      std::fprintf(stderr, "wake_train: --hop takes 1 to 4 frames\n");
      return 2;
    }
    m.hopFrames = hop;
  }
  std::printf("wake_train: %zu parameters, %zu time steps after the last layer\n", m.params.size(),
              m.framesOut(m.layers.size()));

  // Normalization from one clean pass over everything.
  if (from.empty()) {
    std::vector<double> s(kBands, 0), s2(kBands, 0);
    double n = 0;
    for (auto* v : {&wake, &other}) {
      for (Clip& c : *v) {
        augment(c, rng, other, false);
        for (size_t f = kPadFrames; f < c.frames(); ++f) {
          for (size_t b = 0; b < kBands; ++b) {
            s[b] += c.feats[f * kBands + b];
            s2[b] += double(c.feats[f * kBands + b]) * c.feats[f * kBands + b];
          }
          n += 1;
        }
      }
    }
    m.mean.resize(kBands);
    m.invStd.resize(kBands);
    for (size_t b = 0; b < kBands; ++b) {
      const double mu = s[b] / n, var = std::max(1e-6, s2[b] / n - mu * mu);
      m.mean[b] = float(mu);
      m.invStd[b] = float(1.0 / std::sqrt(var));
    }
  }

  std::vector<float> adamM(m.params.size(), 0), adamV(m.params.size(), 0);
  size_t stepCount = 0;
  const size_t batch = 64;
  std::vector<Example> hard;
  for (int epoch = 0; epoch < epochs; ++epoch) {
    // Fresh augmentation, then this epoch's windows.
    std::vector<Example> ex;
    for (Clip& c : wake) {
      augment(c, rng, other, true);
      const long endF = long(kPadFrames) + std::lround(c.endS * 100.0);
      const long T = long(m.windowFrames), frames = long(c.frames());
      auto add = [&](long lo, long hi, float label, int count) {
        lo = std::max(lo, T);
        hi = std::min(hi, frames);
        if (lo > hi) return;
        for (int k = 0; k < count; ++k) {
          ex.push_back({&c, size_t(std::uniform_int_distribution<long>(lo, hi)(rng)), label});
        }
      };
      add(endF + 3, endF + 40, 1.0f, 3);     // said and just ended
      add(endF - 80, endF - 18, 0.0f, 1);    // not finished yet
      add(endF + 110, endF + 200, 0.0f, 1);  // its start has scrolled out
    }
    // Hard negatives: every few epochs the current network runs over the non-wake speech, and the windows it
    // scores highest (local peaks of at least 0.3) join every epoch's windows, twice.
    if (mine && epoch % 4 == 0) {
      hard.clear();
      for (Clip& c : other) {
        const Scan sc = scan(m, c.audio);
        for (size_t i = 0; i < sc.probs.size(); ++i) {
          const float p = sc.probs[i];
          const bool peak = (i == 0 || sc.probs[i - 1] <= p) && (i + 1 == sc.probs.size() || sc.probs[i + 1] < p);
          if (p >= 0.3f && peak) hard.push_back({&c, kPadFrames + (i + 1) * m.hopFrames, 0.0f});
        }
      }
      std::printf("  %zu hard negative windows\n", hard.size());
    }
    for (Clip& c : other) {
      augment(c, rng, other, true);
      const size_t frames = c.frames();
      for (size_t k = 0; k < frames / 40; ++k) {
        ex.push_back({&c, std::uniform_int_distribution<size_t>(m.windowFrames, frames)(rng), 0.0f});
      }
    }
    for (const Example& h : hard) {
      if (h.end <= h.clip->frames() && h.end >= m.windowFrames) {
        ex.push_back(h);
        ex.push_back(h);
      }
    }
    std::shuffle(ex.begin(), ex.end(), rng);
    double lossSum = 0;
    const float lr = lr0 * float(0.5 * (1 + std::cos(3.14159265 * epoch / epochs))) + 5e-5f;
    std::vector<std::vector<float>> grads(threads, std::vector<float>(m.params.size()));
    std::vector<double> losses(threads);
    std::vector<Net> nets;
    for (unsigned t = 0; t < threads; ++t) nets.emplace_back(m);
    for (size_t b0 = 0; b0 + batch <= ex.size(); b0 += batch) {
      std::vector<std::thread> pool;
      for (unsigned t = 0; t < threads; ++t) {
        pool.emplace_back([&, t]() {
          std::fill(grads[t].begin(), grads[t].end(), 0.0f);
          losses[t] = 0;
          for (size_t i = b0 + t; i < b0 + batch; i += threads) losses[t] += nets[t].step(ex[i], grads[t]);
        });
      }
      for (auto& th : pool) th.join();
      ++stepCount;
      const float b1 = 0.9f, b2 = 0.999f;
      const float c1 = 1 - std::pow(b1, float(stepCount)), c2 = 1 - std::pow(b2, float(stepCount));
      for (size_t i = 0; i < m.params.size(); ++i) {
        float g = 0;
        for (unsigned t = 0; t < threads; ++t) g += grads[t][i];
        g /= float(batch);
        adamM[i] = b1 * adamM[i] + (1 - b1) * g;
        adamV[i] = b2 * adamV[i] + (1 - b2) * g * g;
        m.params[i] -= lr * (adamM[i] / c1) / (std::sqrt(adamV[i] / c2) + 1e-8f) + lr * 1e-4f * m.params[i];
      }
      for (unsigned t = 0; t < threads; ++t) lossSum += losses[t];
    }
    std::printf("epoch %2d: %zu windows, loss %.4f, lr %.5f\n", epoch + 1, ex.size(), lossSum / double(ex.size()), lr);
    std::fflush(stdout);
  }

  // Operating point from streaming runs on the held-out clips, clean and at 10 dB: for k = 2..10/hop consecutive
  // runs (up to 100 ms above the threshold),
  // the threshold halfway between the highest k-run minimum any held-out non-wake chunk reached and 1 (so held-out
  // non-wake speech never wakes it), then the k whose threshold hears most held-out wake clips (ties: the smaller
  // k, the faster detection).
  std::mt19937 erng(seed + 7);
  m.consecutive = 2;
  m.threshold = 0.5f;
  const uint32_t kMaxRuns = std::max<uint32_t>(2, 10 / m.hopFrames);
  // lowest[k]: the least probability of k consecutive runs, maximized over the clip's runs.
  const auto bestRun = [](const std::vector<float>& p, uint32_t k) {
    float best = 0;
    for (size_t i = k - 1; i < p.size(); ++i) {
      float low = p[i];
      for (uint32_t j = 1; j < k; ++j) low = std::min(low, p[i - j]);
      best = std::max(best, low);
    }
    return best;
  };
  double otherSeconds = 0;
  std::vector<float> worst(kMaxRuns + 1, 0.0f);
  for (const Clip& c : otherVal) {
    for (double snr : {1000.0, 10.0}) {
      const Scan s = scan(m, mixForEval(c, snr, erng, other));
      for (uint32_t k = 2; k <= kMaxRuns; ++k) worst[k] = std::max(worst[k], bestRun(s.probs, k));
      otherSeconds += double(c.audio.size()) / 16000.0;
    }
  }
  std::vector<std::vector<float>> wakeBest(kMaxRuns + 1);
  for (const Clip& c : wakeVal) {
    for (double snr : {1000.0, 10.0}) {
      const Scan s = scan(m, mixForEval(c, snr, erng, other));
      for (uint32_t k = 2; k <= kMaxRuns; ++k) wakeBest[k].push_back(bestRun(s.probs, k));
    }
  }
  std::printf("held out: %.1f min of non-wake speech, %zu wake runs\n", otherSeconds / 60, wakeBest[2].size());
  double bestRecall = -1;
  for (uint32_t k = 2; k <= kMaxRuns; ++k) {
    const float th = std::clamp(worst[k] + 0.5f * (1 - worst[k]), 0.5f, 0.9995f);
    const size_t hit = size_t(std::count_if(wakeBest[k].begin(), wakeBest[k].end(), [&](float p) { return p >= th; }));
    const double recall = double(hit) / double(wakeBest[k].size());
    std::printf("  %u runs: non-wake speech reached %.5f, threshold %.5f hears %5.1f%% of the held-out wake clips\n",
                k, worst[k], th, 100 * recall);
    if (recall > bestRecall) {
      bestRecall = recall;
      m.consecutive = k;
      m.threshold = th;
    }
  }
  if (fixedRuns != 0) {
    m.consecutive = fixedRuns;
    m.threshold = fixedThreshold;
    std::printf("operating point given: threshold %.4f, %u consecutive runs\n", m.threshold, m.consecutive);
  }
  // The lag from the phrase's end to the detection, on the clean held-out clips: its median is what the ASR
  // hand-off subtracts (the clips are padded by 1 s; the runs are every hopFrames frames).
  std::vector<long> lags;
  for (const Clip& c : wakeVal) {
    const Scan s = scan(m, mixForEval(c, 1000.0, erng, other));
    uint32_t above = 0;
    for (size_t i = 0; i < s.probs.size(); ++i) {
      above = s.probs[i] >= m.threshold ? above + 1 : 0;
      if (above >= m.consecutive) {
        lags.push_back(long((i + 1) * m.hopFrames) - 100 - std::lround(c.endS * 100.0));
        break;
      }
    }
  }
  if (!lags.empty()) {
    std::sort(lags.begin(), lags.end());
    m.endLagFrames = uint32_t(std::clamp<long>(lags[lags.size() / 2], 0, m.windowFrames));
    std::printf("detection lag after the phrase's end (clean held-out, frames): min %ld, median %ld, max %ld\n",
                lags.front(), lags[lags.size() / 2], lags.back());
  }
  std::printf("threshold %.4f, %u consecutive runs, end lag %u frames\n", m.threshold, m.consecutive, m.endLagFrames);
  if (auto s = m.validate(); !s.ok()) {
    std::fprintf(stderr, "wake_train: %s\n", s.error().message.c_str());
    return 1;
  }
  const std::vector<std::byte> bytes = m.serialize();
  std::ofstream o(outPath, std::ios::binary);
  o.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
  if (!o) {
    std::fprintf(stderr, "wake_train: cannot write %s\n", outPath.c_str());
    return 1;
  }
  std::printf("wrote %s (%zu bytes)\n", outPath.c_str(), bytes.size());
  return 0;
}

}  // namespace
}  // namespace sotto::bench

int main(int argc, char** argv) { return sotto::bench::run(argc, argv); }
