// SPDX-License-Identifier: MIT
// Speaker enrollment: the pocketsphinx acoustic model adapted (MAP) to one person's voice from a minute or two of
// read prompts. The stock en-us model hears some voices far worse than others; adapted to its speaker it hears
// that speaker's commands about twice as often (bench/speech/intent_bench.py --enroll). It is opt-in: a model
// adapted to one voice hears other voices no better, and the stock model stays the default.
//
// The statistics and the adaptation are sphinxtrain's (Debian's sphinxtrain and sphinxbase-utils: sphinx_fe, bw,
// map_adapt, mk_s2sendump; pocketsphinx_mdef_convert), run as processes. We only convert the stock model's
// compressed mixture weights (sendump) back to the float file bw needs, and assemble the adapted model directory.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sotto/hal/result.h"

namespace sotto::speech {

struct EnrollUtterance {
  std::string wav;         // 16 kHz mono 16-bit PCM (the caller validates the format)
  std::string transcript;  // the words read, dictionary words only (lower case, spaces)
};

struct EnrollOptions {
  std::string baseModel;   // the acoustic model directory to adapt (asr.acoustic-model)
  std::string dictionary;  // its pronunciation dictionary (asr.dictionary)
  // Written as a whole model directory (mdef, feat.params, means, variances, sendump, ...), then renamed into
  // place; an existing one is kept as OUT.previous. Nothing is written there when enrollment fails.
  std::string outModel;
  std::string toolsDir = "/usr/lib/sphinxtrain";  // bw, map_adapt, mk_s2sendump
  std::string workDir;     // scratch (features, statistics, logs); empty = a fresh directory removed at the end
  uint32_t minUtterances = 10;
};

struct EnrollReport {
  uint32_t utterances = 0;   // given
  uint32_t aligned = 0;      // that Baum-Welch could align with their transcripts (the rest are skipped)
  uint64_t frames = 0;       // 10 ms frames of speech used
  double logLikelihoodPerFrame = 0;  // bw's average before adaptation
};

// Any non-real-time thread: runs the tools one after another and blocks for seconds (about 10 s for 40 prompts
// on one core). Errors say which step failed and why: a missing tool (install sphinxtrain), a transcript word
// missing from the dictionary, too few utterances, or too few of them aligned.
Result<EnrollReport> enrollSpeaker(const std::vector<EnrollUtterance>& utterances, const EnrollOptions& options);

// The stock model's sendump (8-bit negated log weights) as sphinxtrain's float mixture_weights file, for bw. For
// tests and enrollSpeaker: re-encoded by mk_s2sendump it gives the same bytes.
Status sendumpToMixtureWeights(const std::string& sendumpPath, const std::string& outPath);

}  // namespace sotto::speech
