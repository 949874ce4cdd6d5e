// SPDX-License-Identifier: MIT
// The ASR's searches share each frame's senone scores (see senone_share.h).
#include "engine/speech/senone_share.h"

#include <pocketsphinx.h>
#include <sphinxbase/feat.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <new>
#include <string>
#include <type_traits>

namespace sotto::speech::detail {
namespace {

// Leading members of pocketsphinx 5prealpha's internal structures, as declared in its sources
// (pocketsphinx_internal.h, acmod.h, bin_mdef.h): only what is read or replaced here. share() verifies them.
struct PsMgau;
struct PsMgauFuncs {
  const char* name;
  int (*frameEval)(PsMgau* mgau, int16_t* senscr, uint8_t* senoneActive, int32_t nSenoneActive, mfcc_t** feat,
                   int32_t frame, int32_t compallsen);
  int (*transform)(PsMgau* mgau, void* mllr);
  void (*free)(PsMgau* mgau);
};
struct PsMgau {
  PsMgauFuncs* vt;
  int frameIdx;
};
struct BinMdefHead {
  int refcnt;
  int32_t nCiphone, nPhone, nEmitState, nCiSen, nSen, nTmat, nSseq, nCtx, nCdTree;
  int16_t sil;
};
struct AcmodHead {
  cmd_ln_t* config;
  logmath_t* lmath;
  void* strings;
  fe_t* fe;
  feat_t* fcb;
  BinMdefHead* mdef;
  void* tmat;
  PsMgau* mgau;
};
struct DecoderHead {
  cmd_ln_t* config;
  int refcount;
  AcmodHead* acmod;
};

// bin_mdef_ciphone_id is exported by the library but declared only in its internal header.
extern "C" int bin_mdef_ciphone_id(BinMdefHead* m, const char* ciphone);

// The layout checks: every pointer the public API can return must sit where the mirror says.
const char* checkLayout(ps_decoder_t* ps) {
  auto* d = reinterpret_cast<DecoderHead*>(ps);
  if (d->config != ps_get_config(ps)) return "the decoder's configuration";
  AcmodHead* a = d->acmod;
  if (a == nullptr) return "the decoder's acoustic model";
  if (a->config != ps_get_config(ps) || a->lmath != ps_get_logmath(ps) || a->fe != ps_get_fe(ps) ||
      a->fcb != ps_get_feat(ps)) {
    return "the acoustic model's front end";
  }
  if (a->mdef == nullptr || a->mdef->nSen <= 0 || a->mdef->nSen > (1 << 20) || a->mdef->nCiSen > a->mdef->nSen ||
      bin_mdef_ciphone_id(a->mdef, "SIL") != a->mdef->sil) {
    return "the model definition";
  }
  if (a->mgau == nullptr || a->mgau->vt == nullptr || a->mgau->vt->frameEval == nullptr ||
      a->mgau->vt->name == nullptr) {
    return "the Gaussian scorer";
  }
  return nullptr;
}


}  // namespace

// One decoder's replacement score table. `funcs` comes first: the hooked function finds its Hook from the
// scorer's table pointer.
struct SenoneShare::Hook {
  PsMgauFuncs funcs;
  const PsMgauFuncs* original;
  PsMgau* mgau;
  SenoneShare* share;
  int history;          // frames of top-N this scorer keeps (-pl_window + 2)
  int32_t latest;       // last frame this scorer evaluated the codebooks of, -1 none
};
static_assert(std::is_standard_layout_v<SenoneShare::Hook>);

struct HookAccess {
  static int frameEval(PsMgau* mgau, int16_t* senscr, uint8_t* active, int32_t nActive, mfcc_t** feat, int32_t frame,
                       int32_t /*compallsen*/) {
    auto* hook = reinterpret_cast<SenoneShare::Hook*>(mgau->vt);
    return hook->share->eval(*hook, senscr, active, nActive, feat, frame);
  }
};

Result<std::unique_ptr<SenoneShare>> SenoneShare::share(std::span<ps_decoder_s* const> decoders) {
  std::unique_ptr<SenoneShare> s(new SenoneShare());
  const char* prefix = "searches score separately: ";
  int n = 0;
  for (ps_decoder_s* ps : decoders) {
    if (ps == nullptr) continue;
    if (const char* bad = checkLayout(ps)) {
      return makeError(Errc::unsupported,
                       std::string(prefix) + "pocketsphinx's internal layout differs from 5prealpha's at " + bad);
    }
    AcmodHead* a = reinterpret_cast<DecoderHead*>(ps)->acmod;
    if (std::strcmp(a->mgau->vt->name, "ptm") != 0) {
      return makeError(Errc::unsupported, std::string(prefix) + "the acoustic model is not phonetically tied (" +
                                              a->mgau->vt->name + ")");
    }
    if (cmd_ln_int32_r(ps_get_config(ps), "-ds") != 1) {
      return makeError(Errc::unsupported, std::string(prefix) + "frame downsampling (-ds) is on");
    }
    feat_t* fcb = a->fcb;
    const int streams = static_cast<int>(feat_dimension1(fcb));
    if (streams < 1 || streams > kMaxStreams) {
      return makeError(Errc::unsupported, std::string(prefix) + std::to_string(streams) + " feature streams");
    }
    if (n == 0) {
      s->nSenones_ = a->mdef->nSen;
      s->nCiSenones_ = a->mdef->nCiSen;
      s->streams_ = streams;
      for (int i = 0; i < streams; ++i) s->featDims_ += (s->streamLen_[i] = static_cast<int>(feat_dimension2(fcb, i)));
    }
    bool same = a->mdef->nSen == s->nSenones_ && a->mdef->nCiSen == s->nCiSenones_ && streams == s->streams_;
    for (int i = 0; same && i < streams; ++i) same = static_cast<int>(feat_dimension2(fcb, i)) == s->streamLen_[i];
    if (!same) return makeError(Errc::invalid_argument, std::string(prefix) + "their acoustic models differ");
    ++n;
  }
  if (n < 2) return makeError(Errc::invalid_argument, std::string(prefix) + "fewer than two decoders");
  s->feats_.reset(new (std::nothrow) float[static_cast<size_t>(kRing) * s->featDims_]);
  s->flags_.reset(new (std::nothrow) uint8_t[static_cast<size_t>(s->nSenones_)]);
  s->list_.reset(new (std::nothrow) uint8_t[2 * static_cast<size_t>(s->nSenones_)]);
  s->hooks_.reset(new (std::nothrow) Hook[static_cast<size_t>(n)]);
  if (!s->feats_ || !s->flags_ || !s->list_ || !s->hooks_) {
    return makeError(Errc::busy, std::string(prefix) + "no memory for the shared frames");
  }
  for (ps_decoder_s* ps : decoders) {
    if (ps == nullptr) continue;
    PsMgau* mgau = reinterpret_cast<DecoderHead*>(ps)->acmod->mgau;
    Hook& h = s->hooks_[static_cast<size_t>(s->nHooks_++)];
    h.original = mgau->vt;
    h.funcs = *mgau->vt;
    h.funcs.frameEval = &HookAccess::frameEval;
    h.mgau = mgau;
    h.share = s.get();
    h.history = std::max(1, static_cast<int>(cmd_ln_int32_r(ps_get_config(ps), "-pl_window")) + 2);
    mgau->vt = &h.funcs;
  }
  s->reset();
  return s;
}

SenoneShare::~SenoneShare() {
  for (int i = 0; i < nHooks_; ++i) hooks_[i].mgau->vt = const_cast<PsMgauFuncs*>(hooks_[i].original);
}

void SenoneShare::reset() noexcept {
  for (int i = 0; i < kRing; ++i) frameOf_[i] = ownerOf_[i] = -1;
  for (int i = 0; i < nHooks_; ++i) hooks_[i].latest = -1;
}

int SenoneShare::eval(Hook& hook, int16_t* scores, uint8_t* active, int32_t nActive, float** feat,
                      int32_t frame) noexcept {
  static_assert(std::is_same_v<mfcc_t, float>);
  const int slot = static_cast<int>(static_cast<uint32_t>(frame) % kRing);
  float* held = feats_.get() + static_cast<size_t>(slot) * featDims_;
  bool same = frame >= 0 && frameOf_[slot] == frame;
  for (int i = 0, at = 0; same && i < streams_; at += streamLen_[i++]) {
    same = std::memcmp(held + at, feat[i], sizeof(float) * static_cast<size_t>(streamLen_[i])) == 0;
  }
  if (same) {
    Hook& owner = hooks_[ownerOf_[slot]];
    if (owner.latest >= frame && owner.latest - frame < owner.history) {
      // The owner's top-N for this frame are still in its history: its scorer's past-frame path scores this
      // request's senones from them without evaluating a Gaussian. That path is taken for frames below frameIdx.
      const int keep = owner.mgau->frameIdx;
      owner.mgau->frameIdx = std::numeric_limits<int>::max();
      const int rc = owner.original->frameEval(owner.mgau, scores, active, nActive, feat, frame, 0);
      owner.mgau->frameIdx = keep;
      ++shared_;
      return rc;
    }
  }
  // Evaluate the frame: this request's senones plus the context-independent ones, so that every codebook is
  // evaluated and any later request can be scored from them. The widened list keeps pocketsphinx's encoding
  // (deltas; a gap over 255 is bridged by extra senones, as acmod_flags2list does).
  std::memset(flags_.get(), 0, static_cast<size_t>(nSenones_));
  for (int i = 0; i < nCiSenones_; ++i) flags_[static_cast<size_t>(i)] = 1;
  for (int32_t i = 0, sen = 0; i < nActive; ++i) {
    sen += active[i];
    if (sen < nSenones_) flags_[static_cast<size_t>(sen)] = 1;
  }
  int32_t n = 0;
  for (int sen = 0, last = 0; sen < nSenones_; ++sen) {
    if (flags_[static_cast<size_t>(sen)] == 0) continue;
    int delta = sen - last;
    for (; delta > 255; delta -= 255) list_[static_cast<size_t>(n++)] = 255;
    list_[static_cast<size_t>(n++)] = static_cast<uint8_t>(delta);
    last = sen;
  }
  const int rc = hook.original->frameEval(hook.mgau, scores, list_.get(), n, feat, frame, 0);
  if (rc < 0 || frame < 0) {
    frameOf_[slot] = -1;
    return rc;
  }
  for (int i = 0, at = 0; i < streams_; at += streamLen_[i++]) {
    std::memcpy(held + at, feat[i], sizeof(float) * static_cast<size_t>(streamLen_[i]));
  }
  frameOf_[slot] = frame;
  ownerOf_[slot] = static_cast<int>(&hook - hooks_.get());
  hook.latest = frame;
  ++evaluated_;
  return rc;
}

}  // namespace sotto::speech::detail
