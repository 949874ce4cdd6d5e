#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Endpoint delay with and without semantic endpointing, on commands and open questions said by flite voices.

Lines from the independent evaluation generator (bench/nlu/gen_eval.py, the stratified sample intent_bench.py
draws: N per intent plus open questions), each said as "<wake phrase>. <line>" by each flite voice, one recording
per voice (1 s of silence, then every clip followed by 2 s of silence), through `sotto listen --json` once per
variant. The ground truth is the clip itself: its speech ends with its last 10 ms frame above -40 dBFS.

Per variant (the first is the baseline), over the utterances heard (woken, one final) by every variant, for all
commands, the "recognized" ones (the baseline's final reads as the intent said) and open questions:
  endpoint delay   the final's time minus the true end of speech (what the user waits for before anything can
                   happen), p50/p95/p99, commands and open questions apart; and the listener's own VAD-based
                   endpoint_delay_ms
  early            the share of finals a whole command ended (endpoint_by "complete")
  cut short        finals that came before the speaker had finished (final time < true end of speech), and finals
                   whose text differs from the baseline's (the same audio: a different text means different audio
                   was decoded, i.e. the turn ended elsewhere)
Usage: bench/speech/endpoint_bench.py [-b BUILD_DIR] [-w WORK_DIR] [-j JOBS] [--keep] [--verbose] [--json FILE]
                                     [--voices slt,kal,awb,rms] [--per-intent N] [--open N]
                                     [--variant NAME:"--set k=v ..."]...
  Default variants: fixed:"--set speech.semantic-endpoint=false" and semantic:"--set speech.semantic-endpoint=true".
  Default set: 2 lines per intent + 6 open questions x 4 flite voices (160 utterances, about 14 min of audio per
  variant; sotto listen decodes at roughly half real time on one core).
Needs flite, sox, python3 and a built `sotto` (cmake --build BUILD_DIR --target sotto).
"""
import argparse
import concurrent.futures
import json
import math
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import gen_sets  # noqa: E402
from intent_bench import select_lines, cpu_model, SEED  # noqa: E402

DEFAULT_VARIANTS = [("fixed", "--set speech.semantic-endpoint=false"),
                    ("semantic", "--set speech.semantic-endpoint=true")]
GAP_S = 2.0


def speech_end_ms(path):
    """Ms at the end of the last 10 ms frame louder than -40 dBFS (the tests' ground truth, speech_fixtures.h)."""
    s = gen_sets.samples(path)
    floor = (32768.0 ** 2) * 160 * 10 ** (-40 / 10)
    last = 0
    for f in range(0, len(s) // 160):
        e = sum(x * x for x in s[f * 160:(f + 1) * 160])
        if e > floor:
            last = f + 1
    return last * 10


def percentile(xs, p):
    if not xs:
        return None
    xs = sorted(xs)
    k = (len(xs) - 1) * p / 100.0
    lo, hi = math.floor(k), math.ceil(k)
    return xs[lo] + (xs[hi] - xs[lo]) * (k - lo)


def listen(sotto, wav, config, opts):
    p = subprocess.run([sotto, "listen", "--json", "--wav", wav] + config + opts, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
    if p.returncode != 0:
        raise RuntimeError("sotto listen failed: " + p.stderr.decode(errors="replace"))
    return [json.loads(l) for l in p.stdout.decode().splitlines() if l.startswith("{\"event\"")]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter,
                                 usage=argparse.SUPPRESS)
    ap.add_argument("-b", dest="build", default=os.path.join(SRC, "build/host-release"))
    ap.add_argument("-w", dest="work", default=None)
    ap.add_argument("-j", dest="jobs", type=int, default=2)
    ap.add_argument("--keep", action="store_true")
    ap.add_argument("--verbose", action="store_true", help="list the recognized commands that did not end early")
    ap.add_argument("--json", dest="json_out", default=None)
    ap.add_argument("--voices", default="slt,kal,awb,rms")
    ap.add_argument("--per-intent", type=int, default=2)
    ap.add_argument("--open", type=int, default=6)
    ap.add_argument("--variant", action="append", default=[])
    ap.add_argument("--config", default=os.path.join(SRC, "config/sotto.xml"))
    ap.add_argument("--catalogue", default=os.path.join(SRC, "config/intents.xml"))
    a = ap.parse_args()
    sotto = os.path.join(a.build, "sotto")
    if not os.access(sotto, os.X_OK):
        sys.exit("endpoint_bench: %s not built" % sotto)
    for tool in ("flite", "sox"):
        if not shutil.which(tool):
            sys.exit("endpoint_bench: %s is missing (apt-get install flite sox)" % tool)
    variants = []
    for v in a.variant or ["%s:%s" % x for x in DEFAULT_VARIANTS]:
        name, _, opts = v.partition(":")
        variants.append((name, shlex.split(opts)))
    voices = a.voices.split(",")
    unknown = set(voices) - set(gen_sets.FLITE_VOICES)
    if unknown:
        sys.exit("endpoint_bench: unknown flite voice(s) %s" % " ".join(sorted(unknown)))

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

    work = os.path.abspath(a.work) if a.work else tempfile.mkdtemp(prefix="sotto-endpoint-bench-")
    os.makedirs(work, exist_ok=True)
    t0 = time.time()
    try:
        result = bench(a, sotto, config, variants, voices, phrase, work)
    finally:
        if not a.keep:
            shutil.rmtree(work, ignore_errors=True)
    result["wall_s"] = time.time() - t0
    if a.json_out:
        with open(a.json_out, "w") as f:
            json.dump(result, f, indent=1, sort_keys=True)
    print("\nendpoint_bench: done in %.0f s (wall); load average now %s" %
          (result["wall_s"], " ".join(open("/proc/loadavg").read().split()[:3])))
    return 0


def bench(a, sotto, config, variants, voices, phrase, work):
    subprocess.run([sys.executable, os.path.join(SRC, "bench/nlu/gen_eval.py"), "--out", work + "/eval"],
                   check=True, stdout=subprocess.DEVNULL)
    lines = [json.loads(l) for l in open(work + "/eval/intents-eval.jsonl") if l.strip()]
    sample = select_lines(lines, a.per_intent, a.open, SEED, {"sotto"} | set(phrase.split()))
    print("== endpoint benchmark: %d lines (%d commands, %d open questions) x %d flite voices (%s); work %s ==" %
          (len(sample), sum(d["intent"] != "none" for d in sample), sum(d["intent"] == "none" for d in sample),
           len(voices), ",".join(voices), work))
    print("cpu: %s (%d online); sotto %s" % (cpu_model(), os.cpu_count(), sotto))
    print("variants: %s" % "; ".join("%s: %s" % (n, " ".join(o)) for n, o in variants))
    sys.stdout.flush()
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs))
    gen_sets.silence(1.0, work + "/sil1.wav")
    gen_sets.silence(GAP_S, work + "/gap.wav")

    def clip(vi, li):
        p = "%s/c-%s-%03d.wav" % (work, voices[vi], li)
        gen_sets.tts("flite:" + voices[vi], 0, "%s. %s" % (phrase, sample[li]["text"]), p)
        return p

    jobs = [(vi, li) for vi in range(len(voices)) for li in range(len(sample))]
    paths = dict(zip(jobs, pool.map(lambda x: clip(*x), jobs)))
    # One recording per voice; each utterance's window [start, next start) and true end of speech.
    recordings, utts = [], []
    for vi, voice in enumerate(voices):
        parts, t = [work + "/sil1.wav"], 1000
        for li in range(len(sample)):
            p = paths[(vi, li)]
            dur = int(round(gen_sets.duration(p) * 1000))
            utts.append({"voice": voice, "li": li, "text": sample[li]["text"], "intent": sample[li]["intent"],
                         "start_ms": t, "speech_end_ms": t + speech_end_ms(p), "end_ms": t + dur + int(GAP_S * 1000)})
            parts += [p, work + "/gap.wav"]
            t += dur + int(GAP_S * 1000)
        rec = "%s/rec-%s.wav" % (work, voice)
        gen_sets.concat(parts, rec)
        recordings.append((voice, rec))
    print("generated %d utterances (%.1f min of audio)" % (len(utts), sum(u["end_ms"] - u["start_ms"]
                                                                          for u in utts) / 60000.0))
    sys.stdout.flush()

    runs = [(vn, opts, voice, rec) for vn, opts in variants for voice, rec in recordings]
    t_run = time.time()
    outs = list(pool.map(lambda r: listen(sotto, r[3], config, r[1]), runs))
    print("decoded %d recordings in %.0f s (wall, %d jobs)" % (len(runs), time.time() - t_run, a.jobs))
    # Finals per (variant, utterance): the finals inside the utterance's window.
    finals = {}
    for (vn, _, voice, _), events in zip(runs, outs):
        for e in events:
            if e["event"] != "final":
                continue
            for k, u in enumerate(utts):
                if u["voice"] == voice and u["start_ms"] <= e["t_ms"] < u["end_ms"]:
                    finals.setdefault((vn, k), []).append(e)
    names = [vn for vn, _ in variants]
    heard = [k for k in range(len(utts)) if all(len(finals.get((vn, k), [])) == 1 for vn in names)]
    print("heard by every variant (woken, one final): %d of %d utterances" % (len(heard), len(utts)))
    result = {"cpu": cpu_model(), "voices": voices, "lines": len(sample), "utterances": len(utts),
              "heard": len(heard), "variants": []}
    base = names[0]
    print("\n%-9s %-9s %4s  %-22s %-22s %-14s %7s %9s %9s" %
          ("variant", "requests", "n", "delay p50/p95/p99 ms", "vad delay p50/p95 ms", "ended early", "cut",
           "text diff", ""))
    for vn in names:
        v = {"name": vn}
        # "recognized": commands whose baseline final the recognizer's understanding read as the intent said (a
        # misheard command is no command to end early; the e2e harness's intent profile is of these).
        kinds = (("commands", lambda k: utts[k]["intent"] != "none"),
                 ("recognized", lambda k: utts[k]["intent"] != "none" and
                  finals[(base, k)][0].get("intent") == utts[k]["intent"]),
                 ("open", lambda k: utts[k]["intent"] == "none"))
        for kind, pick in kinds:
            ks = [k for k in heard if pick(k)]
            fs = [finals[(vn, k)][0] for k in ks]
            delay = [f["t_ms"] - utts[k]["speech_end_ms"] for f, k in zip(fs, ks)]
            vad = [f["endpoint_delay_ms"] for f in fs]
            early = sum(f.get("endpoint_by") == "complete" for f in fs)
            cut = [utts[k]["voice"] + ": " + utts[k]["text"] + " -> " + f["text"]
                   for f, k in zip(fs, ks) if f["t_ms"] < utts[k]["speech_end_ms"]]
            diff = [utts[k]["voice"] + ": " + finals[(base, k)][0]["text"] + " -> " + f["text"]
                    for f, k in zip(fs, ks) if f["text"] != finals[(base, k)][0]["text"]]
            late = ["%s: %s -> %s (%s %.2f)" % (utts[k]["voice"], utts[k]["text"], f["text"], f.get("intent", "?"),
                                                 f.get("confidence", 0)) for f, k in zip(fs, ks)
                    if f.get("endpoint_by") != "complete"]
            s = {"n": len(ks), "not_early_examples": late, "delay_p50_ms": percentile(delay, 50), "delay_p95_ms": percentile(delay, 95),
                 "delay_p99_ms": percentile(delay, 99), "vad_delay_p50_ms": percentile(vad, 50),
                 "vad_delay_p95_ms": percentile(vad, 95), "ended_early": early, "cut_short": len(cut),
                 "cut_short_examples": cut[:10], "text_differs": len(diff), "text_differs_examples": diff[:10]}
            v[kind] = s
            fmt = lambda x: "-" if x is None else "%.0f" % x  # noqa: E731
            print("%-9s %-9s %4d  %-22s %-22s %-14s %7s %9d" %
                  (vn, kind, s["n"], "/".join(fmt(s[k]) for k in ("delay_p50_ms", "delay_p95_ms", "delay_p99_ms")),
                   "/".join(fmt(s[k]) for k in ("vad_delay_p50_ms", "vad_delay_p95_ms")),
                   "%d (%.1f %%)" % (early, 100.0 * early / max(1, s["n"])),
                   "%d" % len(cut), len(diff)))
        result["variants"].append(v)
    for v in result["variants"]:
        for kind in ("commands", "recognized", "open"):
            whats = ["cut_short_examples", "text_differs_examples"]
            if kind == "recognized" and a.verbose:
                whats.append("not_early_examples")
            for what in whats:
                for ex in v[kind][what]:
                    print("  %s %s %s: %s" % (v["name"], kind, what.replace("_examples", "").replace("_", " "), ex))
    for kind in ("commands", "recognized"):
        if len(result["variants"]) < 2:
            break
        b, n = result["variants"][0][kind], result["variants"][-1][kind]
        if b["delay_p95_ms"] is not None and n["delay_p95_ms"] is not None:
            print("%s%s: p95 endpoint delay %s %.0f ms -> %s %.0f ms (%+.0f ms); cut short %d of %d (%.1f %%)" %
                  ("\n" if kind == "commands" else "", kind, result["variants"][0]["name"], b["delay_p95_ms"],
                   result["variants"][-1]["name"], n["delay_p95_ms"], n["delay_p95_ms"] - b["delay_p95_ms"],
                   n["cut_short"], n["n"], 100.0 * n["cut_short"] / max(1, n["n"])))
    return result


if __name__ == "__main__":
    sys.exit(main())
