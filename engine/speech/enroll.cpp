// SPDX-License-Identifier: MIT
#include "engine/speech/enroll.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unordered_set>

extern char** environ;

namespace sotto::speech {
namespace {

namespace fs = std::filesystem;

// pocketsphinx's sendump stores -log_1.0001(p) >> 10 in a byte (mk_s2sendump -pocketsphinx yes).
constexpr double kLogBase = 1.0001;
constexpr int kSenscrShift = 10;

bool readFile(const std::string& path, std::string& out) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return false;
  std::ostringstream s;
  s << f.rdbuf();
  out = s.str();
  return static_cast<bool>(f) || f.eof();
}

bool readInt32(const std::string& d, size_t& o, int32_t& v) {
  if (o + 4 > d.size()) return false;
  std::memcpy(&v, d.data() + o, 4);  // the files are little-endian, like every target we build
  o += 4;
  return true;
}

// Runs argv[0] (found in PATH unless it has a '/') with stdout and stderr to `log`; ok when it exits 0.
Status runTool(const std::vector<std::string>& args, const std::string& log, const char* step) {
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&fa, 1, 2);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  std::vector<char*> argv;
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int rc = posix_spawnp(&pid, argv[0], &fa, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) {
    return makeError(Errc::not_found, std::string(step) + ": cannot run " + args[0] + " (" + std::strerror(rc) +
                                          "; apt-get install sphinxtrain sphinxbase-utils pocketsphinx)");
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return makeError(Errc::io, std::string(step) + ": waitpid failed");
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return {};
  // The tool's own words: its last ERROR/FATAL line, else its last line.
  std::string text, last, lastError;
  readFile(log, text);
  std::istringstream lines(text);
  for (std::string l; std::getline(lines, l);) {
    if (l.empty()) continue;
    last = l;
    if (l.find("ERROR") != std::string::npos || l.find("FATAL") != std::string::npos) lastError = l;
  }
  const std::string why = !lastError.empty() ? lastError : last;
  if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
    return makeError(Errc::not_found, std::string(step) + ": " + args[0] + " is not installed");
  }
  return makeError(Errc::internal, std::string(step) + " failed (" + args[0] + ", log " + log + ")" +
                                       (why.empty() ? "" : ": " + why));
}

Status copyFile(const fs::path& from, const fs::path& to) {
  std::error_code ec;
  fs::copy_file(from, to, fs::copy_options::overwrite_existing, ec);
  if (ec) return makeError(Errc::io, "cannot copy " + from.string() + " to " + to.string() + ": " + ec.message());
  return {};
}

std::unordered_set<std::string> dictionaryWords(const std::string& path) {
  std::unordered_set<std::string> words;
  std::ifstream f(path);
  for (std::string line; std::getline(f, line);) {
    const auto end = line.find_first_of(" \t");
    if (end == std::string::npos || end == 0) continue;
    std::string w = line.substr(0, end);
    if (const auto alt = w.find('('); alt != std::string::npos) w.resize(alt);  // "word(2)": another pronunciation
    words.insert(w);
  }
  return words;
}

// bw's summary line: "overall> stats FRAMES (-0) LL_PER_FRAME TOTAL ...".
bool parseBwSummary(const std::string& log, uint64_t& frames, double& llPerFrame, uint32_t& aligned) {
  std::string text;
  if (!readFile(log, text)) return false;
  std::istringstream lines(text);
  bool found = false;
  aligned = 0;
  for (std::string l; std::getline(lines, l);) {
    if (l.rfind("utt>", 0) == 0) ++aligned;
    if (l.rfind("overall> stats", 0) != 0) continue;
    std::istringstream f(l.substr(14));
    std::string skip;
    unsigned long long n = 0;
    if (f >> n >> skip >> llPerFrame) {
      frames = n;
      found = true;
    }
  }
  return found;
}

}  // namespace

Status sendumpToMixtureWeights(const std::string& sendumpPath, const std::string& outPath) {
  std::string d;
  if (!readFile(sendumpPath, d)) return makeError(Errc::not_found, "cannot read " + sendumpPath);
  size_t o = 0;
  int32_t nFeat = 0, clusters = -1;
  for (;;) {  // length-prefixed header strings, ended by a zero length
    int32_t n = 0;
    if (!readInt32(d, o, n) || n < 0 || o + static_cast<size_t>(n) > d.size()) {
      return makeError(Errc::corrupt, sendumpPath + ": truncated header");
    }
    if (n == 0) break;
    const std::string s(d.data() + o, strnlen(d.data() + o, static_cast<size_t>(n)));
    o += static_cast<size_t>(n);
    if (s.rfind("feature_count ", 0) == 0) nFeat = std::atoi(s.c_str() + 14);
    if (s.rfind("cluster_count ", 0) == 0) clusters = std::atoi(s.c_str() + 14);
  }
  int32_t nCw = 0, nSen = 0;
  if (!readInt32(d, o, nCw) || !readInt32(d, o, nSen)) return makeError(Errc::corrupt, sendumpPath + ": truncated");
  if (clusters != 0 || nFeat <= 0 || nFeat > 4 || nCw <= 0 || nCw > 256 || nSen <= 0 || nSen > 1000000) {
    return makeError(Errc::unsupported, sendumpPath + ": not an uncompressed pocketsphinx sendump (features " +
                                            std::to_string(nFeat) + ", clusters " + std::to_string(clusters) + ")");
  }
  const size_t n = static_cast<size_t>(nFeat) * nCw * nSen;
  if (d.size() - o != n) {
    return makeError(Errc::corrupt, sendumpPath + ": " + std::to_string(d.size() - o) + " bytes of weights, expected " +
                                        std::to_string(n));
  }
  const auto* w = reinterpret_cast<const uint8_t*>(d.data() + o);  // [feat][codeword][senone]
  // Dequantized to the middle of each byte's range, then renormalized per senone and feature as bw expects.
  float lut[256];
  for (int v = 0; v < 256; ++v) lut[v] = static_cast<float>(std::pow(kLogBase, -static_cast<double>(v << kSenscrShift)));
  std::vector<float> out(n);  // [senone][feat][codeword]
  for (int32_t s = 0; s < nSen; ++s) {
    for (int32_t f = 0; f < nFeat; ++f) {
      float* row = &out[(static_cast<size_t>(s) * nFeat + f) * nCw];
      double sum = 0;
      for (int32_t c = 0; c < nCw; ++c) {
        row[c] = lut[w[(static_cast<size_t>(f) * nCw + c) * nSen + s]];
        sum += row[c];
      }
      for (int32_t c = 0; c < nCw; ++c) row[c] = static_cast<float>(row[c] / sum);
    }
  }
  const std::string tmp = outPath + ".tmp";
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    // sphinxtrain's s3 header without a checksum, the byte-order magic, then dimensions and data.
    f << "s3\nversion 1.0\nendhdr\n";
    const uint32_t magic = 0x11223344;
    const int32_t dims[4] = {nSen, nFeat, nCw, static_cast<int32_t>(n)};
    f.write(reinterpret_cast<const char*>(&magic), 4);
    f.write(reinterpret_cast<const char*>(dims), sizeof dims);
    f.write(reinterpret_cast<const char*>(out.data()), static_cast<std::streamsize>(n * sizeof(float)));
    if (!f) return makeError(Errc::io, "cannot write " + tmp);
  }
  if (std::rename(tmp.c_str(), outPath.c_str()) != 0) {
    return makeError(Errc::io, "cannot rename " + tmp + ": " + std::strerror(errno));
  }
  return {};
}

Result<EnrollReport> enrollSpeaker(const std::vector<EnrollUtterance>& utterances, const EnrollOptions& o) {
  const fs::path base(o.baseModel);
  for (const char* f : {"mdef", "means", "variances", "sendump", "transition_matrices", "feat.params"}) {
    if (!fs::exists(base / f)) {
      return makeError(Errc::not_found, "enroll: the acoustic model " + o.baseModel + " has no " + f +
                                            " (a pocketsphinx PTM model such as Debian's en-us is needed)");
    }
  }
  if (utterances.size() < o.minUtterances) {
    return makeError(Errc::invalid_argument, "enroll: " + std::to_string(utterances.size()) +
                                                 " utterances; at least " + std::to_string(o.minUtterances) +
                                                 " are needed to adapt the model");
  }
  const auto words = dictionaryWords(o.dictionary);
  if (words.empty()) return makeError(Errc::not_found, "enroll: cannot read the dictionary " + o.dictionary);
  for (size_t i = 0; i < utterances.size(); ++i) {
    std::istringstream ws(utterances[i].transcript);
    size_t count = 0;
    for (std::string w; ws >> w; ++count) {
      if (!words.count(w)) {
        return makeError(Errc::invalid_argument, "enroll: '" + w + "' (in " + utterances[i].wav +
                                                     ") is not in the dictionary " + o.dictionary);
      }
    }
    if (count == 0) return makeError(Errc::invalid_argument, "enroll: " + utterances[i].wav + " has no transcript");
    if (!fs::exists(utterances[i].wav)) return makeError(Errc::not_found, "enroll: no file " + utterances[i].wav);
  }

  // Scratch: features, statistics, logs.
  fs::path work;
  bool removeWork = false;
  if (o.workDir.empty()) {
    std::string tmpl = (fs::temp_directory_path() / "sotto-enroll-XXXXXX").string();
    if (mkdtemp(tmpl.data()) == nullptr) return makeError(Errc::io, "enroll: cannot create a scratch directory");
    work = tmpl;
    removeWork = true;
  } else {
    work = o.workDir;
    std::error_code ec;
    fs::create_directories(work, ec);
    if (ec) return makeError(Errc::io, "enroll: cannot create " + work.string() + ": " + ec.message());
  }
  struct Cleanup {
    fs::path dir;
    bool on;
    ~Cleanup() {
      std::error_code ec;
      if (on) fs::remove_all(dir, ec);
    }
  } cleanup{work, removeWork};

  const fs::path hmm = work / "base", mfc = work / "mfc", acc = work / "acc";
  const fs::path tmpOut = o.outModel + ".partial";
  std::error_code ec;
  fs::remove_all(tmpOut, ec);
  for (const auto& dir : {hmm, mfc, acc, tmpOut}) {
    fs::create_directories(dir, ec);
    if (ec) return makeError(Errc::io, "enroll: cannot create " + dir.string() + ": " + ec.message());
  }
  struct DropPartial {
    fs::path dir;
    bool keep = false;
    ~DropPartial() {
      std::error_code e;
      if (!keep) fs::remove_all(dir, e);
    }
  } dropPartial{tmpOut};

  {  // ctl (utterance ids, their WAVs linked into one folder) and transcripts, as sphinxtrain reads them
    std::ofstream ctl(work / "ctl"), trans(work / "trans");
    for (size_t i = 0; i < utterances.size(); ++i) {
      char id[32];
      std::snprintf(id, sizeof id, "u%04zu", i);
      fs::path wav = mfc / (std::string(id) + ".wav");
      fs::remove(wav, ec);
      fs::create_symlink(fs::absolute(utterances[i].wav), wav, ec);
      if (ec) return makeError(Errc::io, "enroll: cannot link " + utterances[i].wav + ": " + ec.message());
      ctl << id << "\n";
      trans << "<s> " << utterances[i].transcript << " </s> (" << id << ")\n";
    }
    if (!ctl || !trans) return makeError(Errc::io, "enroll: cannot write in " + work.string());
  }
  for (const char* f : {"means", "variances", "transition_matrices", "feat.params", "mdef", "noisedict"}) {
    if (fs::exists(base / f)) {
      if (auto s = copyFile(base / f, hmm / f); !s) return s.error();
    }
  }
  if (auto s = sendumpToMixtureWeights((base / "sendump").string(), (hmm / "mixture_weights").string()); !s) {
    return makeError(s.error().code, "enroll: " + s.error().message);
  }
  const std::string tools = o.toolsDir + "/";
  if (auto s = runTool({"pocketsphinx_mdef_convert", "-text", (base / "mdef").string(), (hmm / "mdef.txt").string()},
                       work / "mdef.log", "enroll: reading the model definition");
      !s) {
    return s.error();
  }
  if (auto s = runTool({"sphinx_fe", "-argfile", (base / "feat.params").string(), "-samprate", "16000", "-c",
                        (work / "ctl").string(), "-di", mfc.string(), "-do", mfc.string(), "-ei", "wav", "-eo",
                        "mfc", "-mswav", "yes"},
                       (work / "fe.log").string(), "enroll: computing features");
      !s) {
    return s.error();
  }
  // The feature settings bw needs are the model's own (feat.params): PTM en-us uses these.
  std::string params;
  readFile((base / "feat.params").string(), params);
  auto param = [&](const char* name, const char* fallback) {
    std::istringstream p(params);
    for (std::string k, v; p >> k >> v;) {
      if (k == name) return v;
    }
    return std::string(fallback);
  };
  const std::string bwLog = (work / "bw.log").string();
  if (auto s = runTool({tools + "bw", "-hmmdir", hmm.string(), "-moddeffn", (hmm / "mdef.txt").string(), "-ts2cbfn",
                        ".ptm.", "-feat", param("-feat", "1s_c_d_dd"), "-svspec", param("-svspec", "0-12/13-25/26-38"),
                        "-cmn", "current", "-agc", "none", "-dictfn", o.dictionary, "-ctlfn", (work / "ctl").string(),
                        "-lsnfn", (work / "trans").string(), "-cepdir", mfc.string(), "-accumdir", acc.string()},
                       bwLog, "enroll: Baum-Welch statistics");
      !s) {
    return s.error();
  }
  EnrollReport report;
  report.utterances = static_cast<uint32_t>(utterances.size());
  if (!parseBwSummary(bwLog, report.frames, report.logLikelihoodPerFrame, report.aligned)) {
    return makeError(Errc::internal, "enroll: Baum-Welch printed no summary (log " + bwLog + ")");
  }
  if (report.aligned < o.minUtterances) {
    return makeError(Errc::invalid_argument,
                     "enroll: only " + std::to_string(report.aligned) + " of " + std::to_string(report.utterances) +
                         " recordings matched their prompts; check that each WAV says its prompt");
  }
  if (auto s = runTool({tools + "map_adapt", "-moddeffn", (hmm / "mdef.txt").string(), "-ts2cbfn", ".ptm.", "-meanfn",
                        (hmm / "means").string(), "-varfn", (hmm / "variances").string(), "-mixwfn",
                        (hmm / "mixture_weights").string(), "-tmatfn", (hmm / "transition_matrices").string(),
                        "-accumdir", acc.string(), "-mapmeanfn", (tmpOut / "means").string(), "-mapvarfn",
                        (tmpOut / "variances").string(), "-mapmixwfn", (work / "mixture_weights").string(),
                        "-maptmatfn", (tmpOut / "transition_matrices").string()},
                       (work / "map.log").string(), "enroll: MAP adaptation");
      !s) {
    return s.error();
  }
  // A low floor keeps the stock model's smallest weights as they were (the default 1e-5 would clip them).
  if (auto s = runTool({tools + "mk_s2sendump", "-pocketsphinx", "yes", "-moddeffn", (hmm / "mdef.txt").string(),
                        "-mixwfn", (work / "mixture_weights").string(), "-mwfloor", "1e-8", "-sendumpfn",
                        (tmpOut / "sendump").string()},
                       (work / "sendump.log").string(), "enroll: writing the mixture weights");
      !s) {
    return s.error();
  }
  for (const char* f : {"mdef", "feat.params", "noisedict"}) {
    if (fs::exists(base / f)) {
      if (auto s = copyFile(base / f, tmpOut / f); !s) return s.error();
    }
  }
  {
    std::ofstream readme(tmpOut / "README");
    readme << "Adapted by `sotto enroll` (MAP, sphinxtrain) from " << o.baseModel << " with " << report.aligned
           << " utterances, " << report.frames << " frames.\n";
  }
  // Into place: the previous enrollment is kept beside it.
  const fs::path out(o.outModel), previous(o.outModel + ".previous");
  if (fs::exists(out)) {
    fs::remove_all(previous, ec);
    fs::rename(out, previous, ec);
    if (ec) return makeError(Errc::io, "enroll: cannot move the previous " + out.string() + " aside: " + ec.message());
  }
  fs::rename(tmpOut, out, ec);
  if (ec) return makeError(Errc::io, "enroll: cannot write " + out.string() + ": " + ec.message());
  dropPartial.keep = true;
  return report;
}

}  // namespace sotto::speech
