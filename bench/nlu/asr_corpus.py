#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The recognizer's real mistakes as a small committed corpus (bench/nlu/data/asr_pairs.tsv) for gen_train.py.

Spoken-form request lines from the TRAINING generator (gen_train.py at its own seed, never gen_eval.py or
gen_valid.py), a stratified sample over every intent and open questions, each said once as "<wake phrase>. <line>"
by one of several flite and espeak-ng voices (round robin), and run through the real recognizer with the shipped
configuration (`sotto listen --wav FILE --json`, config/sotto.xml). The voices are picked apart from
bench/speech/intent_bench.py's: flite voices only at the rate/pitch variants it does not use, espeak-ng accents it
does not use. Each recognized transcript is aligned with the written line (Levenshtein, words) and written down with:
  voice  intent  status  written  transcript  slots  spans  lost  subs
  slots  JSON object: the written line's slot values whose words survive verbatim in the transcript (the value as
         the generator normalized it; a result slot only when its expression survives)
  spans  JSON list [{"start","end","slot"}]: where each surviving value's words stand in the transcript
  lost   comma-separated names of the slots whose words did not survive ("" when none)
  subs   the recognizer's word substitutions "written>heard" separated by spaces ("" when none)
status (the rule is slot_survival() and classify() below; gen_train.py decides what each status teaches):
  kept          every slot survived and at least half of the request's content words did
  partial       every slot survived, between a quarter and half of the content words did
  salad         every slot survived (or there were none) and under a quarter of the content words did
  slot_lost     a slot's words did not survive, and nothing that could be another value of it stands in its place
  slot_changed  a slot's words did not survive and a number, day or time word stands in its place: a transcript
                that may be another valid command ("five minutes" heard "nine minutes"): never guessed, never taught
  none          an open question (not a command), whatever was heard
  no_final      the wake phrase was not heard or no final transcript came
A slot value is never guessed: it survives only where the alignment matches each of its words in order.

Usage: bench/nlu/asr_corpus.py [-b BUILD_DIR] [-o FILE] [-j JOBS] [--lines N] [--seed N] [--keep DIR]
       bench/nlu/asr_corpus.py --summary FILE   (status counts per engine, the most frequent substitutions)
  defaults: build/host-release, bench/nlu/data/asr_pairs.tsv, 2 jobs, 120 lines, seed 9001.
  About 3.6 s of CPU per line (one `sotto listen` process each, 1.3 s of it start-up; the committed file: 7.2
  minutes of CPU for 120 lines), so about 4 minutes on 2 idle cores plus a minute for gen_train.py; it took 33
  minutes of wall time on 2 cores shared with other builds (load 12).
  Not run by train.sh or CI; train.sh reads the committed file. Deterministic for a given build and
  voices (fixed seed, sox -R); the recognizer's output is what it is on the build used.
Needs flite, espeak-ng, sox, python3, the lexical resources gen_train.py uses, and a built `sotto`.
"""
import argparse
import concurrent.futures
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.dirname(os.path.dirname(HERE))
DEFAULT_OUT = os.path.join(HERE, "data", "asr_pairs.tsv")
COLUMNS = ["voice", "intent", "status", "written", "transcript", "slots", "spans", "lost", "subs"]
STATUSES = ("kept", "partial", "salad", "slot_lost", "slot_changed", "none", "no_final")

# (gen_sets voice, gen_sets variant index). flite variants 1 = 0.85 stretch +150 cents, 2 = 1.2 stretch -150
# cents (intent_bench speaks flite at variant 0); espeak-ng variants 0 = 175 wpm, 1 = 150 wpm, 2 = 210 wpm with
# accents intent_bench does not use (it has en-us and en-gb).
VOICES = [("flite:slt", 1), ("flite:awb", 2), ("flite:rms", 1), ("flite:kal16", 2), ("flite:slt", 2),
          ("flite:awb", 1), ("espeak:en-us-nyc", 0), ("espeak:en-gb-x-rp+f3", 1), ("espeak:en-gb-scotland+m3", 0),
          ("espeak:en-029+f2", 1), ("espeak:en-us+m5", 2), ("espeak:en-gb-x-gbclan+f4", 0)]

# Words that carry little of a request's meaning: politeness, fillers, pronouns, articles, prepositions. What is
# left of a line ("set", "timer", "volume", "weather") is its content; slots are counted apart.
CLOSED = set("""a an the to for of in on at by with from up down off out over under it its i i'm i'd i'll me my you
you're your we our they them he she this that these those there here is are was were be been am do does did have
has had will would can could should may might must not no so but or and if then than too very please thanks thank
just um uh er erm hmm like okay ok well hey hi hiya oh now right alright maybe kindly mind want wanna gonna need
let let's know be some any again also yeah yes sure cheers mate go get got""".split())
# Words that could be another value of a number, time, day or duration slot.
VALUE_WORDS = set("""zero oh one two three four five six seven eight nine ten eleven twelve thirteen fourteen
fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred thousand
half quarter noon midnight am pm a.m. p.m. monday tuesday wednesday thursday friday saturday sunday today tomorrow
tonight second seconds minute minutes hour hours max maximum""".split())


def words(text):
    """Lower-case words as the recognizer writes them: [a-z'] runs."""
    return re.findall(r"[a-z']+", text.lower())


def align(ref, hyp):
    """Levenshtein alignment of two word lists: [(op, i, j)] with op in "=", "s" (ref[i] heard as hyp[j]),
    "d" (ref[i] lost), "i" (hyp[j] inserted); i or j is None where the op has no word on that side. Ties prefer
    a match, then a substitution, then a deletion (deterministic)."""
    n, m = len(ref), len(hyp)
    d = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n + 1):
        d[i][0] = i
    for j in range(m + 1):
        d[0][j] = j
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            d[i][j] = min(d[i - 1][j - 1] + (ref[i - 1] != hyp[j - 1]), d[i - 1][j] + 1, d[i][j - 1] + 1)
    ops = []
    i, j = n, m
    while i > 0 or j > 0:
        if i > 0 and j > 0 and d[i][j] == d[i - 1][j - 1] + (ref[i - 1] != hyp[j - 1]):
            ops.append(("=" if ref[i - 1] == hyp[j - 1] else "s", i - 1, j - 1))
            i, j = i - 1, j - 1
        elif i > 0 and d[i][j] == d[i - 1][j] + 1:
            ops.append(("d", i - 1, None))
            i -= 1
        else:
            ops.append(("i", None, j - 1))
            j -= 1
    ops.reverse()
    return ops


def word_offsets(text):
    """(start, end) character offsets of words(text) in text."""
    return [(m.start(), m.end()) for m in re.finditer(r"[a-z']+", text.lower())]


def slot_survival(written, transcript, slot_spans):
    """Which slot spans of the written line survive verbatim in the transcript.

    written: the generator's spoken-form text; slot_spans: its [{"start","end","slot"}] (character offsets).
    A span survives when every one of its words is aligned to an identical word of the transcript, in order and
    adjacent there (no word heard in between). Returns (survived, lost, changed): survived is a list of
    {"start","end","slot"} over the transcript; lost the names of the slots that did not survive; changed the
    subset of lost whose place in the transcript holds a heard word (not one of the span's own) that could be
    another value (VALUE_WORDS)."""
    ref, hyp = words(written), words(transcript)
    roff, hoff = word_offsets(written), word_offsets(transcript)
    ops = align(ref, hyp)
    to_hyp = {i: j for op, i, j in ops if op == "="}
    survived, lost, changed = [], [], []
    for sp in slot_spans:
        idx = [k for k, (s, e) in enumerate(roff) if s >= sp["start"] and e <= sp["end"]]
        js = [to_hyp.get(k) for k in idx]
        if idx and None not in js and all(js[k + 1] == js[k] + 1 for k in range(len(js) - 1)):
            survived.append({"start": hoff[js[0]][0], "end": hoff[js[-1]][1], "slot": sp["slot"]})
            continue
        lost.append(sp["slot"])
        # What the transcript holds where the span stood: words substituted for or inserted among its words.
        lo, hi = (min(idx), max(idx)) if idx else (-1, -1)
        heard, inside = [], False
        for op, i, j in ops:
            if i is not None:
                inside = lo <= i <= hi
            if inside and j is not None and op != "=":
                heard.append(hyp[j])
        if any(w in VALUE_WORDS for w in heard):
            changed.append(sp["slot"])
    return survived, lost, changed


def content_survival(written, transcript, slot_spans):
    """Share of the written line's content words (not CLOSED, not inside a slot span) that the alignment keeps;
    a line without content words counts all its non-slot words, and a line of slot words alone counts 1."""
    ref, hyp = words(written), words(transcript)
    roff = word_offsets(written)
    in_slot = {k for k, (s, e) in enumerate(roff) for sp in slot_spans if s >= sp["start"] and e <= sp["end"]}
    kept = {i for op, i, j in align(ref, hyp) if op == "="}
    content = [k for k, w in enumerate(ref) if k not in in_slot and w not in CLOSED]
    if not content:
        content = [k for k in range(len(ref)) if k not in in_slot]
    if not content:
        return 1.0
    return sum(1 for k in content if k in kept) / len(content)


def substitutions(written, transcript):
    ref, hyp = words(written), words(transcript)
    return ["%s>%s" % (ref[i], hyp[j]) for op, i, j in align(ref, hyp) if op == "s"]


def classify(intent, written, transcript, slot_spans):
    """(status, survived spans, lost slot names) for one recognized line; see the module's docstring."""
    if transcript is None or not words(transcript):
        return "no_final", [], []
    survived, lost, changed = slot_survival(written, transcript, slot_spans)
    if intent == "none":
        return "none", [], []
    if changed:
        return "slot_changed", survived, lost
    if lost:
        return "slot_lost", survived, lost
    share = content_survival(written, transcript, slot_spans)
    if share >= 0.5:
        return "kept", survived, lost
    if share >= 0.25:
        return "partial", survived, lost
    return "salad", survived, lost


def surviving_slots(slots, survived, result_of):
    """The written line's slot values for the slots that survived; a result slot (math's answer) only when the
    slot it is computed from survived. result_of: {result slot: source slot}."""
    names = {sp["slot"] for sp in survived}
    out = {}
    for k, v in slots.items():
        if k in names or (k in result_of and result_of[k] in names):
            out[k] = v
    return out


def result_slots(catalogue):
    """{result slot: the slot it is computed from (its source attribute)} from the catalogue."""
    import xml.etree.ElementTree as ET
    return {s.get("name"): s.get("source") for s in ET.parse(catalogue).getroot().iter("slot")
            if s.get("type") == "result" and s.get("source")}


def to_row(voice, d, transcript, result_of):
    status, survived, lost = classify(d["intent"], d["text"], transcript, d.get("slot_spans", []))
    return {"voice": voice, "intent": d["intent"], "status": status, "written": d["text"],
            "transcript": transcript or "", "slots": surviving_slots(d.get("slots", {}), survived, result_of),
            "spans": survived, "lost": lost,
            "subs": substitutions(d["text"], transcript) if transcript else []}


def format_row(r):
    return "\t".join([r["voice"], r["intent"], r["status"], r["written"], r["transcript"],
                      json.dumps(r["slots"], sort_keys=True), json.dumps(r["spans"], sort_keys=True),
                      ",".join(r["lost"]), " ".join(r["subs"])])


def read_corpus(path):
    """The corpus as a list of dicts (columns as in the module's docstring; slots/spans parsed, lost and subs
    split). Raises ValueError naming the line on a malformed one."""
    rows = []
    with open(path, encoding="utf-8") as f:
        header = f.readline().rstrip("\n").split("\t")
        if header != COLUMNS:
            raise ValueError("%s: header %r, expected %r" % (path, header, COLUMNS))
        for n, line in enumerate(f, 2):
            if line.startswith("#") or not line.strip():
                continue
            cols = line.rstrip("\n").split("\t")
            if len(cols) != len(COLUMNS):
                raise ValueError("%s:%d: %d columns, expected %d" % (path, n, len(cols), len(COLUMNS)))
            r = dict(zip(COLUMNS, cols))
            if r["status"] not in STATUSES:
                raise ValueError("%s:%d: unknown status %r" % (path, n, r["status"]))
            try:
                r["slots"], r["spans"] = json.loads(r["slots"]), json.loads(r["spans"])
            except ValueError as e:
                raise ValueError("%s:%d: %s" % (path, n, e))
            r["lost"] = [x for x in r["lost"].split(",") if x]
            r["subs"] = [tuple(x.split(">", 1)) for x in r["subs"].split()]
            rows.append(r)
    return rows


def select(lines, n, seed):
    """A deterministic stratified sample: spoken-form lines without simulated noise, about 80 % commands spread
    evenly over the intents and 20 % open questions."""
    rnd = random.Random(seed)
    usable = [d for d in lines if d["form"] == "spoken" and not d.get("asr_noise")
              and not ({"sotto", "hey", "computer"} & set(d["text"].split())) and len(d["text"].split()) <= 16]
    by = {}
    for d in usable:
        by.setdefault(d["intent"], []).append(d)
    intents = sorted(k for k in by if k != "none")
    want = {k: (n - n // 5) // len(intents) for k in intents}
    want["none"] = n - sum(want.values())
    out = []
    for k in sorted(by):
        pool = by[k][:]
        rnd.shuffle(pool)
        out.extend(pool[:want.get(k, 0)])
    rnd.shuffle(out)
    return out


def summary(rows):
    """Status counts per voice engine, the share of command words heard as written, and the substitutions seen
    most often (the recognizer's confusion pairs), as printable lines."""
    out = []
    for eng in ("flite", "espeak", "all"):
        rs = [r for r in rows if eng == "all" or ("/" in r["voice"] and
                                                  (r["voice"].split("/")[0] in FLITE_NAMES) == (eng == "flite"))]
        if not rs:
            continue
        counts = {}
        for r in rs:
            counts[r["status"]] = counts.get(r["status"], 0) + 1
        ref = hit = 0
        for r in rs:
            if r["intent"] != "none":
                a, b = words(r["written"]), words(r["transcript"])
                ref += len(a)
                hit += sum(op == "=" for op, _, _ in align(a, b))
        out.append("  %-6s %3d lines: %s; command words heard as written %s" % (
            eng, len(rs), ", ".join("%s %d" % (k, counts[k]) for k in STATUSES if k in counts),
            "%.1f %%" % (100.0 * hit / ref) if ref else "-"))
    pairs = {}
    for r in rows:
        for w, h in r["subs"]:
            pairs[(w, h)] = pairs.get((w, h), 0) + 1
    top = sorted(pairs.items(), key=lambda x: (-x[1], x[0]))[:20]
    out.append("  most frequent substitutions (written>heard x count): " +
               " ".join("%s>%s x%d" % (w, h, n) for (w, h), n in top))
    return out


FLITE_NAMES = {"slt", "awb", "rms", "kal", "kal16", "awb_time"}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-b", dest="build", default=os.path.join(SRC, "build/host-release"))
    ap.add_argument("-o", dest="out", default=DEFAULT_OUT)
    ap.add_argument("-j", dest="jobs", type=int, default=2)
    ap.add_argument("--lines", type=int, default=120)
    ap.add_argument("--seed", type=int, default=9001, help="gen_train.py's seed (train.sh uses 1..8)")
    ap.add_argument("--keep", default=None, help="keep the audio and work files in this directory")
    ap.add_argument("--summary", default=None, help="print the summary of an existing corpus FILE (nothing is run)")
    a = ap.parse_args()
    if a.summary:
        print("\n".join(summary(read_corpus(a.summary))))
        return 0
    sotto = os.path.join(a.build, "sotto")
    if not os.access(sotto, os.X_OK):
        sys.exit("asr_corpus: %s not built (cmake --build %s --target sotto)" % (sotto, a.build))
    for tool in ("flite", "espeak-ng", "sox"):
        if not shutil.which(tool):
            sys.exit("asr_corpus: %s is missing (apt-get install flite espeak-ng sox)" % tool)
    sys.path.insert(0, os.path.join(SRC, "bench", "speech"))
    import gen_sets  # noqa: E402  (tts, silence, concatenation; deterministic)

    config_path = os.path.join(SRC, "config", "sotto.xml")
    catalogue = os.path.join(SRC, "config", "intents.xml")
    config = ["--config", config_path, "--catalogue", catalogue]
    text = open(config_path).read()
    phrase = (re.search(r'<wake[^>]*phrase="([^"]*)"', text) or [None, "hey computer"])[1].strip().lower()
    m = re.search(r'<wake[^>]*model="([^"]*)"', text)
    if m and m.group(1) and not os.path.exists(m.group(1)):
        config += ["--set", "wake.model=" + os.path.join(SRC, "config", os.path.basename(m.group(1)))]
    work = os.path.abspath(a.keep) if a.keep else tempfile.mkdtemp(prefix="sotto-asr-corpus-")
    os.makedirs(work, exist_ok=True)
    try:
        subprocess.run([sys.executable, os.path.join(HERE, "gen_train.py"), "--out", work + "/gen", "--seed",
                        str(a.seed), "--intents", "8000", "--pii", "10", "--asr-corpus", ""], check=True, stdout=subprocess.DEVNULL)
        lines = [json.loads(l) for l in open(work + "/gen/intents-train.jsonl")]
        sample = select(lines, a.lines, a.seed)
        gen_sets.silence(1.0, work + "/sil10.wav")
        gen_sets.silence(1.5, work + "/sil15.wav")

        def one(k):
            d = sample[k]
            voice, var = VOICES[k % len(VOICES)]
            s = "%s/s%04d.wav" % (work, k)
            p = "%s/c%04d.wav" % (work, k)
            gen_sets.tts(voice, var, "%s. %s" % (phrase, d["text"]), s)
            gen_sets.concat([work + "/sil10.wav", s, work + "/sil15.wav"], p)
            r = subprocess.run([sotto, "listen", "--wav", p, "--json"] + config, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
            final, woke = None, False
            for l in r.stdout.decode(errors="replace").splitlines():
                try:
                    e = json.loads(l)
                except ValueError:
                    continue
                if e.get("event") == "wake":
                    woke = True
                elif e.get("event") == "final" and woke and final is None:
                    final = e.get("text", "")
            if not a.keep:
                os.unlink(s)
                os.unlink(p)
            return "%s/%d" % (voice.split(":", 1)[1], var), final

        result_of = result_slots(catalogue)
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as pool:
            heard = list(pool.map(one, range(len(sample))))
        rows = [to_row(v, d, t, result_of) for d, (v, t) in zip(sample, heard)]
        os.makedirs(os.path.dirname(os.path.abspath(a.out)), exist_ok=True)
        with open(a.out, "w", encoding="utf-8", newline="\n") as f:
            f.write("\t".join(COLUMNS) + "\n")
            for r in rows:
                f.write(format_row(r) + "\n")
    finally:
        if not a.keep:
            shutil.rmtree(work, ignore_errors=True)
    print("asr_corpus: %d lines -> %s" % (len(rows), a.out))
    print("\n".join(summary(read_corpus(a.out))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
