#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Speech-to-intent benchmark per voice: what the device does with a spoken command, end to end.

Commands from the independent evaluation generator (bench/nlu/gen_eval.py, another author's phrasings, never the
training grammar): a fixed stratified sample of its spoken-form lines (every intent, plus open questions), each
said as "<wake phrase>. <command>" by every flite voice Debian ships and four espeak-ng voices (en-us and en-gb, two
rates each), clean and mixed with babble (four other TTS talkers) or music (sox pluck chords) at 10 and 5 dB SNR.
Every clip goes through `sotto listen --wav FILE --json` and its final transcript through `sotto intent --json`
(the final event's own "intent" is used when the recognizer reports one; a "clarify" event means nothing runs).

Reported per variant (baseline first), per voice, per condition and per intent: command WER, speech-to-intent
accuracy (right intent and all slots, executed; an open question must reach no intent), clarification rate,
WRONG-ACTION rate (a state-changing intent executed that was not asked for: intent_score.py derives the list from
the catalogue), wake misses, and CPU seconds of `sotto listen` per second of audio (rusage, net of the process's
start-up, measured on silence). pocketsphinx-testdata's recordings (librivox, cards), when installed, are scored
separately for WER. Nothing generated is kept unless --keep. Deterministic (fixed seeds, sox -R).

Usage: bench/speech/intent_bench.py [--quick] [-b BUILD_DIR] [-w WORK_DIR] [-j JOBS] [--keep] [--json FILE]
                                   [--config FILE] [--catalogue FILE] [--variant NAME:"--set k=v ..."]...
                                   [--voices a,b] [--per-intent N] [--open N] [--no-real] [--report FILE]
  (full)     17 commands (one per intent) + 3 open questions x 9 voices, each clean and once in noise (10 or 5 dB,
             babble or music, alternating over lines and voices): 360 clips, about 25 min of CPU per variant (each
             clip is one `sotto listen` process of ~4 s CPU, 1 s of it start-up); 75 min for the three default variants
  --quick    the same lines x 2 voices (flite slt, espeak-ng en-us): 80 clips, about 5 min of CPU per variant
  --per-intent N, --open N   more lines: N per intent (spread over its phrasing families), N open questions;
             CPU grows in proportion (--per-intent 3 --open 9: 1080 clips, 75 min per variant)
  --enroll   add the variant enrolled:"--set asr.acoustic-model={enrolled}": each speaker first reads the
             enrollment prompts (config/enroll.txt) and `sotto enroll` adapts the model to it; {enrolled} in any
             --variant's options is that voice's adapted model (needs sphinxtrain, sphinxbase-utils, pocketsphinx)
  --report FILE  print the tables again from a --json FILE of an earlier run (nothing is run)
  --variant  a recognizer configuration as `sotto listen` options (repeatable; the first is the baseline). Default:
             baseline:"--set asr.domain-lm= --set asr.rescore=false --set asr.clarify-below=0", shipped:"" (the
             build's defaults) and domain:"--set asr.domain-lm=config/intents.lm --set asr.rescore=true". A variant
             whose settings this build does not know is reported as not available.
Needs flite, espeak-ng, sox, python3 and a built `sotto` (cmake --build BUILD_DIR --target sotto).
"""
import argparse
import concurrent.futures
import json
import os
import random
import re
import shlex
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import gen_sets  # noqa: E402  (tts, silence, noise mixing)
import intent_score as sc  # noqa: E402

# The recognizer before issue 20, the shipped defaults (its clarify gate on), and the domain search with
# understanding rescoring (off by default: README, "After the wake word").
DEFAULT_VARIANTS = [("baseline", "--set asr.domain-lm= --set asr.rescore=false --set asr.clarify-below=0"),
                    ("shipped", ""),
                    ("domain", "--set asr.domain-lm=%s --set asr.rescore=true" % os.path.join(SRC, "config/intents.lm"))]
# (name, gen_sets voice, gen_sets variant index): flite variant 0 = natural speed; espeak-ng variants
# 0 = 175 wpm, 1 = 150 wpm (slow), 2 = 210 wpm (fast).
VOICES = [("slt", "flite:slt", 0), ("kal", "flite:kal", 0), ("awb", "flite:awb", 0), ("rms", "flite:rms", 0),
          ("kal16", "flite:kal16", 0), ("en-us", "espeak:en-us", 0), ("en-us-fast", "espeak:en-us", 2),
          ("en-gb", "espeak:en-gb", 0), ("en-gb-slow", "espeak:en-gb", 1)]
QUICK_VOICES = ["slt", "en-us"]
TARGETS = {"accuracy_clean": 0.95, "wrong_action": 0.005, "wer_clean": 0.05}
SEED = 20261127


def select_lines(lines, per_intent, n_none, seed, skip_words):
    """A deterministic stratified sample of spoken-form lines without simulated recognition noise: per_intent per
    intent (spread over its phrasing families) and n_none open questions (spread over the none families)."""
    rnd = random.Random(seed)
    usable = [d for d in lines if d.get("form") == "spoken" and not d.get("asr_noise")
              and not (set(d["text"].split()) & skip_words)]
    by_intent = {}
    for d in usable:
        by_intent.setdefault(d["intent"], []).append(d)
    out = []
    for intent in sorted(by_intent):
        want = n_none if intent == "none" else per_intent
        fams = {}
        for d in by_intent[intent]:
            fams.setdefault(d["source"], []).append(d)
        for f in fams.values():
            rnd.shuffle(f)
        order = sorted(fams)
        rnd.shuffle(order)
        k = 0
        while want > 0 and any(fams[f] for f in order):
            f = order[k % len(order)]
            if fams[f]:
                out.append(fams[f].pop())
                want -= 1
            k += 1
    return out


def listen_cpu(sotto, wav, config, extra):
    cmd = [sotto, "listen", "--wav", wav, "--json"] + config + extra
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        p = subprocess.Popen(cmd, stdout=out, stderr=err)
        _, status, ru = os.wait4(p.pid, 0)
        p.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return (out.read().decode(errors="replace").splitlines(), err.read().decode(errors="replace"),
                p.returncode, ru.ru_utime + ru.ru_stime)


def understand(sotto, texts, catalogue):
    """`sotto intent --json` on each text (one process): a list of its JSON objects, in order."""
    if not texts:
        return []
    p = subprocess.run([sotto, "intent", "--json", "--catalogue", catalogue],
                       input="".join(t.replace("\n", " ") + "\n" for t in texts).encode(),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode != 0:
        raise RuntimeError("sotto intent failed: " + p.stderr.decode(errors="replace"))
    got = [json.loads(l) for l in p.stdout.decode().splitlines() if l.startswith("{\"text\"")]
    if len(got) != len(texts):
        raise RuntimeError("sotto intent answered %d lines for %d" % (len(got), len(texts)))
    return got


def pct(x):
    return "   -  " if x is None else "%5.1f%%" % (100.0 * x)


def ratio(new, base):
    if new is None or base is None:
        return "-"
    if base == 0:
        return "=" if new == 0 else "inf"
    return "%.2fx" % (new / base)


def cpu_model():
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter,
                                 usage=argparse.SUPPRESS)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("-b", dest="build", default=os.path.join(SRC, "build/host-release"))
    ap.add_argument("-w", dest="work", default=None)
    ap.add_argument("-j", dest="jobs", type=int, default=2)
    ap.add_argument("--keep", action="store_true")
    ap.add_argument("--json", dest="json_out", default=None)
    ap.add_argument("--config", default=os.path.join(SRC, "config/sotto.xml"))
    ap.add_argument("--catalogue", default=os.path.join(SRC, "config/intents.xml"))
    ap.add_argument("--variant", action="append", default=[])
    ap.add_argument("--enroll", action="store_true", help="add the enrolled variant (each speaker's adapted model)")
    ap.add_argument("--no-real", action="store_true", help="skip pocketsphinx-testdata's recordings")
    ap.add_argument("--report", default=None)
    ap.add_argument("--voices", default=None, help="comma-separated voice names (default: all, or --quick's)")
    ap.add_argument("--per-intent", type=int, default=None, help="lines per intent (default 3, quick 1)")
    ap.add_argument("--open", type=int, default=None, help="open questions (default 9, quick 3)")
    a = ap.parse_args()

    if a.report:
        result = json.load(open(a.report))
        for v in result["variants"]:
            if v["available"]:
                report_variant(v, result["voices"], set(result["state_changing"]), result.get("text_right"))
        print("\nThe same %d lines as text (sotto intent, no speech): %.1f %% right (the ceiling for speech)" %
              (result["lines"], 100.0 * result["text_accuracy"]))
        report_comparison(result)
        return 0
    sotto = os.path.join(a.build, "sotto")
    if not os.access(sotto, os.X_OK):
        sys.exit("intent_bench: %s not built (cmake --build %s --target sotto)" % (sotto, a.build))
    for tool in ("flite", "espeak-ng", "sox"):
        if not shutil.which(tool):
            sys.exit("intent_bench: %s is missing (apt-get install flite espeak-ng sox)" % tool)
    variants = []
    for v in a.variant or ["%s:%s" % x for x in DEFAULT_VARIANTS]:
        name, _, opts = v.partition(":")
        if not name:
            sys.exit("intent_bench: --variant NAME:\"OPTIONS\"")
        variants.append((name, shlex.split(opts)))
    if a.enroll:
        variants.append(("enrolled", ["--set", "asr.acoustic-model={enrolled}"]))

    # The configuration under test; the wake network of the source tree when the installed one is absent (a
    # developer machine), as the device ships it.
    config = ["--config", a.config, "--catalogue", a.catalogue]
    conf_text = open(a.config).read()
    phrase = "hey computer"
    m = re.search(r'<wake[^>]*phrase="([^"]*)"', conf_text)
    if m and m.group(1).strip():
        phrase = m.group(1).strip().lower()
    m = re.search(r'<wake[^>]*model="([^"]*)"', conf_text)
    if m and m.group(1) and not os.path.exists(m.group(1)):
        local = os.path.join(SRC, "config", os.path.basename(m.group(1)))
        if os.path.exists(local):
            config += ["--set", "wake.model=" + local]
    changing = sc.catalogue_state_changing(a.catalogue)

    # A kill ends through the finally below, so the scratch directory goes too.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    work = os.path.abspath(a.work) if a.work else tempfile.mkdtemp(prefix="sotto-intent-bench-")
    os.makedirs(work, exist_ok=True)
    t0 = time.time()
    try:
        result = bench(a, sotto, config, variants, phrase, changing, work)
    finally:
        if not a.keep:
            shutil.rmtree(work, ignore_errors=True)
    result["wall_s"] = time.time() - t0
    if a.json_out:
        with open(a.json_out, "w") as f:
            json.dump(result, f, indent=1, sort_keys=True)
    print("\nintent_bench: done in %.0f s (wall); load average now %s" %
          (result["wall_s"], " ".join(open("/proc/loadavg").read().split()[:3])))
    return 0


def bench(a, sotto, config, variants, phrase, changing, work):
    rate = gen_sets.RATE
    t_gen = time.time()
    # 1. The command set: the independent evaluation generator at its default seed.
    subprocess.run([sys.executable, os.path.join(SRC, "bench/nlu/gen_eval.py"), "--out", work + "/eval"],
                   check=True, stdout=subprocess.DEVNULL)
    lines = [json.loads(l) for l in open(work + "/eval/intents-eval.jsonl") if l.strip()]
    # Words the recognizer's dictionary cannot have (the assistant's product name) and the wake phrase itself.
    skip = {"sotto"} | set(phrase.split())
    per_intent = a.per_intent if a.per_intent is not None else 1
    n_open = a.open if a.open is not None else 3
    sample = select_lines(lines, per_intent, n_open, SEED, skip)
    wanted = a.voices.split(",") if a.voices else (QUICK_VOICES if a.quick else [v[0] for v in VOICES])
    unknown = set(wanted) - {v[0] for v in VOICES}
    if unknown:
        sys.exit("intent_bench: unknown voice(s) %s (known: %s)" % (" ".join(sorted(unknown)),
                                                                    " ".join(v[0] for v in VOICES)))
    voices = [v for v in VOICES if v[0] in wanted]
    ids = {d["id"] for d in sample}
    print("== speech-to-intent benchmark: %d lines (%d commands, %d open questions) x %d voices; work %s ==" %
          (len(sample), sum(d["intent"] != "none" for d in sample), sum(d["intent"] == "none" for d in sample),
           len(voices), work))
    print("cpu: %s (%d online); sotto %s; config %s" % (cpu_model(), os.cpu_count(), sotto, " ".join(config)))
    print("state-changing intents (a wrong one executed is a wrong action): %s" % " ".join(sorted(changing)))
    sys.stdout.flush()

    pool = concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs))
    tmp = work + "/tmp"
    os.makedirs(tmp, exist_ok=True)
    gen_sets.silence(1.0, tmp + "/sil10.wav")
    gen_sets.silence(1.5, tmp + "/sil15.wav")
    gen_sets.silence(0.5, tmp + "/sil05.wav")

    # 2. Babble: other TTS talkers saying open questions that are not in the sample.
    others = [d for d in lines if d["intent"] == "none" and d["form"] == "spoken" and d["id"] not in ids][:16]

    def babble_part(k, d):
        _, voice, var = VOICES[k % len(VOICES)]
        p = "%s/babble%02d.wav" % (tmp, k)
        gen_sets.tts(voice, var, d["text"], p)
        return p

    parts = list(pool.map(lambda x: babble_part(*x), enumerate(others)))
    babble = tmp + "/babble.wav"
    gen_sets.concat(parts, babble)

    # 3. Clips: 1 s silence, "<phrase>. <command>" in one breath, 1.5 s silence; then the noisy copies.
    clips = []
    # vi: the voice's place in VOICES, not in the selection, so that a run on fewer voices mixes the same noise into
    # each of its clips as the full run (its clips are a subset).
    for vname, voice, var in voices:
        vi = [v[0] for v in VOICES].index(vname)
        for li, d in enumerate(sample):
            clips.append({"voice": vname, "tts": voice, "var": var, "line": d, "li": li, "vi": vi})

    def make_clean(c):
        s = "%s/s-%s-%03d.wav" % (tmp, c["voice"], c["li"])
        gen_sets.tts(c["tts"], c["var"], "%s. %s" % (phrase, c["line"]["text"]), s)
        p = "%s/clean-%s-%03d.wav" % (work, c["voice"], c["li"])
        gen_sets.concat([tmp + "/sil10.wav", s, tmp + "/sil15.wav"], p)
        os.unlink(s)
        return p

    clean = list(pool.map(make_clean, clips))
    items = []
    mix = []
    for c, p in zip(clips, clean):
        items.append(dict(c, path=p, condition="clean", noise=""))
        k = c["li"] + c["vi"]
        kind = "babble" if (k // 2) % 2 == 0 else "music"
        snrs = [10 if k % 2 == 0 else 5]
        for snr in snrs:
            q = "%s/snr%d-%s-%03d.wav" % (work, snr, c["voice"], c["li"])
            mix.append((p, snr, kind, c["li"] * 31 + c["vi"] * 7 + snr, babble, q))
            items.append(dict(c, path=q, condition="%d dB" % snr, noise=kind))
    list(pool.map(lambda x: gen_sets.noisy(*x), mix))
    for it in items:
        it["audio_s"] = gen_sets.duration(it["path"])
    print("generated %d clips (%.1f min of audio) in %.0f s" %
          (len(items), sum(i["audio_s"] for i in items) / 60, time.time() - t_gen))
    sys.stdout.flush()

    # 4. Real recordings: pocketsphinx-testdata (read speech with transcripts), after the wake phrase of the first
    # flite voice; scored for WER only (they are not commands). 1 s endpoint: read sentences pause between clauses.
    real = []
    td = "/usr/share/pocketsphinx/test/data"
    if not a.no_real and os.path.isdir(td):
        refs = {}
        for sub, f in (("librivox", "transcription"), ("cards", "cards.transcription")):
            t = os.path.join(td, sub, f)
            if not os.path.exists(t):
                continue
            for l in open(t):
                m = l.strip()
                if m.endswith(")") and "(" in m:
                    text, fid = m[:-1].rsplit("(", 1)
                    text = text.replace("<s>", "").replace("</s>", "").strip()
                    wav = os.path.join(td, sub, fid.strip() + ".wav")
                    if os.path.exists(wav):
                        refs[wav] = (sub, text)
        w = tmp + "/wake-real.wav"
        gen_sets.tts("flite:slt", 0, phrase, w)
        for k, (wav, (sub, text)) in enumerate(sorted(refs.items())):
            conv = "%s/real%02d-src.wav" % (tmp, k)
            gen_sets.run(["sox", wav, "-r", str(rate), "-c", "1", "-b", "16", conv])
            p = "%s/real%02d.wav" % (work, k)
            gen_sets.concat([tmp + "/sil10.wav", w, tmp + "/sil05.wav", conv, tmp + "/sil15.wav"], p)
            real.append({"path": p, "set": sub, "ref": text, "audio_s": gen_sets.duration(p)})

    # 4b. Speaker enrollment, for variants whose options name {enrolled}: each speaker reads config/enroll.txt (the
    # training generator's prompts, never the eval lines) at its natural rate, and `sotto enroll` adapts the model
    # to that speaker. A voice's clips then use its own speaker's model (en-us-fast and en-gb-slow use the en-us and
    # en-gb enrollments: a person enrolls once and speaks at many rates). The real recordings are other people: they
    # use the first voice's model, which shows what an enrollment does to a voice it was not made for.
    enrolled = {}
    if any("{enrolled}" in o for _, opts in variants for o in opts):
        prompts = [l.strip() for l in open(os.path.join(SRC, "config", "enroll.txt"))
                   if l.strip() and not l.startswith("#")]
        for spk in sorted({v[1] for v in voices}):
            d = "%s/enroll-%s" % (work, spk.replace(":", "-"))
            os.makedirs(d, exist_ok=True)
            list(pool.map(lambda k: gen_sets.tts(spk, 0, prompts[k], "%s/%02d.wav" % (d, k + 1)), range(len(prompts))))
            no_catalogue = [x for k, x in enumerate(config) if "--catalogue" not in config[max(0, k - 1):k + 1]]
            r = subprocess.run([sotto, "enroll", "--wav-dir", d, "--out", d + ".model"] + no_catalogue,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
            if r.returncode != 0:
                sys.exit("intent_bench: sotto enroll failed for %s: %s" % (spk, r.stdout.decode(errors="replace")))
            enrolled[spk] = d + ".model"
            print("enrolled %s: %s" % (spk, r.stdout.decode(errors="replace").splitlines()[0]))
        sys.stdout.flush()
    speaker_of = {v[0]: v[1] for v in voices}

    def with_model(opts, speaker):
        return [o.replace("{enrolled}", enrolled.get(speaker, "")) for o in opts]

    # 5. Each variant, baseline first: start-up cost on silence (3 runs, median), then every clip.
    result = {"cpu": cpu_model(), "lines": len(sample), "voices": [v[0] for v in voices],
              "state_changing": sorted(changing), "targets": TARGETS, "variants": []}
    # The reference texts themselves through the understanding (no speech): the ceiling speech can reach.
    ref_und = understand(sotto, [d["text"] for d in sample], a.catalogue)
    ceiling = sum(1 for d, u in zip(sample, ref_und)
                  if u["intent"] == d["intent"] and (d["intent"] == "none" or sc.slots_equal(d["slots"], u["slots"])))
    result["text_accuracy"] = ceiling / len(sample)
    # Per intent, for the report's "as text" column.
    result["text_right"] = {d["id"]: u["intent"] == d["intent"] and (d["intent"] == "none" or
                                                                   sc.slots_equal(d["slots"], u["slots"]))
                            for d, u in zip(sample, ref_und)}
    print("The same %d lines as text (sotto intent, no speech): %.1f %% right (the ceiling for speech)" %
          (len(sample), 100.0 * ceiling / len(sample)))
    for vname, opts in variants:
        outs = []
        for _ in range(3):
            out, err, rc, cpu = listen_cpu(sotto, tmp + "/sil10.wav", config, with_model(opts, voices[0][1]))
            outs.append((rc, err, cpu))
        if any(rc != 0 for rc, _, _ in outs):
            err = outs[0][1].strip()
            reason = ("not available in this build (%s)" % err.splitlines()[-1] if "unknown setting" in err
                      else "failed: %s" % (err.splitlines()[-1] if err else "exit %d" % outs[0][0]))
            print("\n[%s] %s: %s" % (vname, " ".join(opts) or "(defaults)", reason))
            result["variants"].append({"name": vname, "options": opts, "available": False, "reason": reason})
            continue
        startup = statistics.median(c for _, _, c in outs)
        for w in outs[0][1].strip().splitlines()[:3]:
            print("  [%s] sotto listen says: %s" % (vname, w))
        print("\n[%s] %s: start-up %.2f s CPU; running %d clips ..." %
              (vname, " ".join(opts) or "(build defaults)", startup, len(items)))
        sys.stdout.flush()
        tv = time.time()
        done = [0]

        def one(it):
            r = listen_cpu(sotto, it["path"], config, with_model(opts, speaker_of[it["voice"]]))
            done[0] += 1  # the GIL makes this increment safe enough for a progress line
            if done[0] % 50 == 0:
                print("  %d of %d clips, %.0f s" % (done[0], len(items), time.time() - tv))
                sys.stdout.flush()
            return r

        ran = list(pool.map(one, items))
        failed = [(it["path"], r[1]) for it, r in zip(items, ran) if r[2] != 0]
        if failed:
            print("  %d clips failed, e.g. %s: %s" % (len(failed), failed[0][0], failed[0][1].strip()[-300:]))
        listens = [sc.parse_listen(r[0]) for r in ran]
        und = understand(sotto, [l["final"] or "" for l in listens], a.catalogue)
        records = []
        for it, r, l, u in zip(items, ran, listens, und):
            intent, slots, executed = sc.decide(l, u if l["final"] is not None else None)
            listen_ms = None
            if l["woke"]:
                listen_ms = (l["final_ms"] if l["final_ms"] is not None else it["audio_s"] * 1000) - l["wake_ms"]
            rec = {"voice": it["voice"], "condition": it["condition"], "noise": it["noise"],
                   "id": it["line"]["id"], "source": it["line"]["source"],
                   "ref_text": it["line"]["text"], "ref_intent": it["line"]["intent"],
                   "ref_slots": it["line"]["slots"], "hyp_text": l["final"], "hyp_intent": intent,
                   "hyp_slots": slots, "executed": executed, "clarified": l["clarify"], "woke": l["woke"],
                   "endpoint": l["endpoint"],
                   "confidence": l["final_confidence"] if l["final_intent"] is not None else (u or {}).get("confidence"),
                   "cpu_s": max(0.0, r[3] - startup), "audio_s": it["audio_s"],
                   "listen_s": listen_ms / 1000.0 if listen_ms and listen_ms > 0 else None, "exit": r[2]}
            records.append(sc.score_record(rec, changing))
        vres = {"name": vname, "options": opts, "available": True, "startup_cpu_s": startup,
                "clips": len(items), "wall_s": time.time() - tv, "records": records}
        # Real recordings.
        if real:
            rr = list(pool.map(lambda it: listen_cpu(sotto, it["path"], config,
                                                     with_model(opts, voices[0][1]) +
                                                     ["--set", "speech.endpoint-silence-ms=1000"]), real))
            rrec = []
            for it, r in zip(real, rr):
                l = sc.parse_listen(r[0])
                rec = {"set": it["set"], "ref_text": it["ref"], "hyp_text": l["final"] or "", "woke": l["woke"]}
                s, d, i, n = sc.word_errors(sc.normalize_words(it["ref"]), sc.normalize_words(rec["hyp_text"]))
                rec.update({"sub": s, "del": d, "ins": i, "ref_words": n})
                rrec.append(rec)
            vres["real"] = rrec
        result["variants"].append(vres)
        report_variant(vres, [v_[0] for v_ in voices], changing, result["text_right"])

    report_comparison(result)
    pool.shutdown()
    return result


def report_variant(v, voices, changing, text_right=None):
    recs = v["records"]
    print("\n[%s] %d clips in %.0f s wall; CPU net of %.2f s start-up per process; * = changes state" %
          (v["name"], len(recs), v["wall_s"], v["startup_cpu_s"]))
    wa = [r for r in recs if r["wrong_action"]]
    tot = sc.aggregate(recs, lambda r: "all")["all"]
    print("  WRONG ACTIONS: %d of %d clips (%s; target <= %.1f %%)" %
          (len(wa), len(recs), pct(tot["wrong_action_rate"]).strip(), 100 * TARGETS["wrong_action"]))
    for r in wa[:12]:
        print("    %-10s %-6s asked %-15s %-28s got %s %s from \"%s\"" %
              (r["voice"], r["condition"], r["ref_intent"], json.dumps(r["ref_slots"])[:28], r["hyp_intent"],
               json.dumps(r["hyp_slots"]), r["hyp_text"]))
    if len(wa) > 12:
        print("    ... %d more in --json" % (len(wa) - 12))
    conds = ["clean", "10 dB", "5 dB"]
    by = {c: sc.aggregate([r for r in recs if r["condition"] == c], lambda r: r["voice"]) for c in conds}
    allv = {c: sc.aggregate([r for r in recs if r["condition"] == c], lambda r: "all").get("all") for c in conds}
    print("\n  per voice    | speech-to-intent     | command WER          | clarify | wrong action         "
          "| wake missed | CPU per s of audio")
    print("  voice        |  clean  10 dB   5 dB |  clean  10 dB   5 dB |  all    |  clean  10 dB   5 dB "
          "|  all        | (listening)")
    rows = list(voices) + ["ALL"]
    for name in rows:
        g = {c: (allv[c] if name == "ALL" else by[c].get(name)) for c in conds}
        allr = [r for r in recs if name == "ALL" or r["voice"] == name]
        ag = sc.aggregate(allr, lambda r: "x").get("x")
        if ag is None:
            continue
        print("  %-12s | %s %s %s | %s %s %s | %s  | %s %s %s | %3d of %-4d | %s (%s)" % (
            name, *(pct(g[c]["accuracy"] if g[c] else None) for c in conds),
            *(pct(g[c]["wer"] if g[c] else None) for c in conds), pct(ag["clarify_rate"]),
            *(pct(g[c]["wrong_action_rate"] if g[c] else None) for c in conds),
            ag["missed_wake"], ag["n"], pct(ag["cpu_per_audio_s"]), pct(ag["cpu_per_listen_s"]).strip()))
    for c in conds:
        fin = [r for r in recs if r["condition"] == c and r.get("endpoint") is not None]
        if fin:
            print("  %-6s: %d of %d finals came without an endpoint (at the end of the clip)" %
                  (c, sum(not r["endpoint"] for r in fin), len(fin)))
    # Per noise kind.
    kinds = sc.aggregate([r for r in recs if r["noise"]], lambda r: "%s %s" % (r["noise"], r["condition"]))
    if kinds:
        print("\n  per noise     " + "  ".join("%s: %s right, WER %s" % (k, pct(g["accuracy"]).strip(),
                                                                        pct(g["wer"]).strip())
                                              for k, g in sorted(kinds.items())))
    # Per intent (category), all conditions and clean only.
    cat = sc.aggregate(recs, lambda r: r["ref_intent"])
    catc = sc.aggregate([r for r in recs if r["condition"] == "clean"], lambda r: r["ref_intent"])
    print("\n  per intent       |  n   | right   (clean)  | WER     (clean)  | clarify | wrong action | as text")
    for name in sorted(cat):
        g, gc = cat[name], catc.get(name)
        ids = {r["id"] for r in recs if r["ref_intent"] == name}
        text = (sum(bool(text_right.get(i)) for i in ids) / len(ids)) if text_right and ids else None
        print("  %-16s | %4d | %s (%s) | %s (%s) | %s  | %3d %s  | %s" % (
            name + ("*" if name in changing else ""), g["n"], pct(g["accuracy"]),
            pct(gc["accuracy"] if gc else None), pct(g["wer"]), pct(gc["wer"] if gc else None),
            pct(g["clarify_rate"]), g["wrong_action"], pct(g["wrong_action_rate"]), pct(text)))
    if v.get("real"):
        print("\n  real recordings (pocketsphinx-testdata, read speech after a flite wake phrase; WER only):")
        for s in sorted({r["set"] for r in v["real"]}):
            rs = [r for r in v["real"] if r["set"] == s]
            e = sum(r["sub"] + r["del"] + r["ins"] for r in rs)
            n = sum(r["ref_words"] for r in rs)
            print("    %-9s %d recordings, %d words: WER %s, %d not woken" %
                  (s, len(rs), n, pct(e / n if n else None), sum(not r["woke"] for r in rs)))
    sys.stdout.flush()


def summary(v):
    recs = v["records"]
    clean = [r for r in recs if r["condition"] == "clean"]
    s = {"accuracy_clean": sc.aggregate(clean, lambda r: 0)[0]["accuracy"],
         "wer_clean": sc.aggregate(clean, lambda r: 0)[0]["wer"],
         "wrong_action": sc.aggregate(recs, lambda r: 0)[0]["wrong_action_rate"],
         "wrong_action_n": sc.aggregate(recs, lambda r: 0)[0]["wrong_action"],
         "clarify": sc.aggregate(recs, lambda r: 0)[0]["clarify_rate"],
         "cpu_per_audio_s": sc.aggregate(recs, lambda r: 0)[0]["cpu_per_audio_s"],
         "cpu_per_listen_s": sc.aggregate(recs, lambda r: 0)[0]["cpu_per_listen_s"]}
    for c in ("10 dB", "5 dB"):
        g = sc.aggregate([r for r in recs if r["condition"] == c], lambda r: 0).get(0)
        s["accuracy_" + c.replace(" ", "")] = g["accuracy"] if g else None
        s["wer_" + c.replace(" ", "")] = g["wer"] if g else None
    if v.get("real"):
        e = sum(r["sub"] + r["del"] + r["ins"] for r in v["real"])
        n = sum(r["ref_words"] for r in v["real"])
        s["wer_real"] = e / n if n else None
    return s


def report_comparison(result):
    avail = [v for v in result["variants"] if v["available"]]
    for v in avail:
        v["summary"] = summary(v)
    print("\n== targets (issue 20), every variant; ratios against the first available variant ==")
    keys = [("speech-to-intent, clean", "accuracy_clean", ">=", TARGETS["accuracy_clean"]),
            ("speech-to-intent, 10 dB", "accuracy_10dB", None, None),
            ("speech-to-intent, 5 dB", "accuracy_5dB", None, None),
            ("WRONG-ACTION rate, all", "wrong_action", "<=", TARGETS["wrong_action"]),
            ("command WER, clean", "wer_clean", "<=", TARGETS["wer_clean"]),
            ("command WER, 10 dB", "wer_10dB", None, None),
            ("command WER, 5 dB", "wer_5dB", None, None),
            ("clarification rate", "clarify", None, None),
            ("CPU per s of audio", "cpu_per_audio_s", None, None),
            ("CPU per s listening", "cpu_per_listen_s", "<=", 0.25),
            ("WER, real recordings", "wer_real", None, None)]
    names = [v["name"] for v in result["variants"]]
    print("  %-24s %-9s " % ("", "target") + "".join("%-26s" % n for n in names))
    base = avail[0]["summary"] if avail else None
    for label, k, op, t in keys:
        row = "  %-24s %-9s " % (label, ("%s %s" % (op, pct(t).strip())) if op else "")
        for v in result["variants"]:
            if not v["available"]:
                row += "%-26s" % "not available"
                continue
            x = v["summary"].get(k)
            cell = pct(x).strip()
            if op and x is not None:
                cell += " ok" if (x >= t if op == ">=" else x <= t) else " MISSED"
            if v is not avail[0]:
                cell += " (%s)" % ratio(x, base.get(k))
            row += "%-26s" % cell
        print(row)
    for v in result["variants"]:
        if not v["available"]:
            print("  %s: %s" % (v["name"], v["reason"]))
    print("  CPU: rusage of each `sotto listen` less its start-up on silence; \"listening\" divides by the time "
          "from the wake to the final (an upper bound: wake spotting before it is included)")


if __name__ == "__main__":
    sys.exit(main())
