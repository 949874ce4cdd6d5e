// SPDX-License-Identifier: MIT
// Internal to engine/speech: the ASR's searches score each frame's senones once between them.
#pragma once

#include <cstdint>
#include <memory>
#include <span>

#include "sotto/hal/result.h"

struct ps_decoder_s;

namespace sotto::speech::detail {

// pocketsphinx runs one search per decoder, and each decoder evaluates the acoustic model's Gaussians for every
// frame on its own. With the grammar and general searches that is three full evaluations a frame (the general
// search scores each frame twice: once for its phone-loop lookahead, once five frames later for the search), the
// largest single cost of listening (25-28 % of the CPU after a wake, measured with perf).
//
// The en-us model is phonetically tied (PTM): each frame's cost is finding the top Gaussians of the 42 codebooks;
// a senone's score is then a few table look-ups on its codebook's top-N. A SenoneShare hooks the decoders' score
// function: the first decoder to reach a frame evaluates every codebook (its own active senones plus the
// context-independent ones, which cover all codebooks); every later request for that frame, from any decoder,
// scores only its own active senones from those codebooks, through the scorer's own past-frame path (pocketsphinx
// keeps the top-N of its last pl_window + 2 frames for the lookahead). The scores are those each decoder computed
// alone; only the per-frame normalization can differ, as before, by the best active senone.
//
// All decoders see the same audio, so their features agree frame by frame; a request whose features differ from
// the frame's first (or whose codebooks have left the history) evaluates the codebooks itself.
//
// pocketsphinx 5prealpha has no public hook for this: the decoder's acoustic model and its scorer are reached
// through the layout of its internal structures. share() checks that layout against what the public API returns
// for each decoder (configuration, log-math, front end, feature computation, the model's silence phone, the scorer's
// name) and refuses, leaving the decoders untouched, when anything disagrees.
class SenoneShare {
 public:
  // Control thread, before decoding. The decoders must have loaded the same PTM acoustic model and outlive the share
  // (destroy it first: it restores each decoder's own scorer). Null entries are skipped.
  static Result<std::unique_ptr<SenoneShare>> share(std::span<ps_decoder_s* const> decoders);
  ~SenoneShare();
  SenoneShare(const SenoneShare&) = delete;
  SenoneShare& operator=(const SenoneShare&) = delete;

  // The decoding thread, at each utterance start (frame numbers start again at 0).
  void reset() noexcept;

  // Frames whose codebooks were evaluated, and requests served from another evaluation (the decoding thread; for
  // tests and metrics).
  uint64_t evaluatedFrames() const noexcept { return evaluated_; }
  uint64_t sharedRequests() const noexcept { return shared_; }

  struct Hook;  // per decoder: its replacement score function table (senone_share.cpp)

 private:
  SenoneShare() = default;
  int eval(Hook& hook, int16_t* scores, uint8_t* active, int32_t nActive, float** feat, int32_t frame) noexcept;
  friend struct HookAccess;

  static constexpr int kRing = 16;  // frames remembered: more than any decoder's top-N history
  static constexpr int kMaxStreams = 8;
  int nSenones_ = 0, nCiSenones_ = 0, featDims_ = 0, streams_ = 0;
  int streamLen_[kMaxStreams] = {};
  std::unique_ptr<Hook[]> hooks_;
  int nHooks_ = 0;
  std::unique_ptr<float[]> feats_;      // kRing x featDims_: the features each remembered frame was evaluated on
  int32_t frameOf_[kRing];              // frame held by each slot, -1 none
  int ownerOf_[kRing];                  // hook whose scorer evaluated that frame's codebooks
  std::unique_ptr<uint8_t[]> flags_;    // nSenones_: senones of the request being widened
  std::unique_ptr<uint8_t[]> list_;     // the widened request's delta list (at most 2 x nSenones_ entries)
  uint64_t evaluated_ = 0, shared_ = 0;
};

}  // namespace sotto::speech::detail
