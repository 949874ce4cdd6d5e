#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Generates the speech benchmark sets at run time (flite, espeak-ng, sox) into a scratch directory: the wake word
# set (wake phrase alone and in sentences, non-wake speech, clean and noisy at 20/10/5 dB SNR) and the ASR set
# (commands and open questions after the wake phrase), with TSV manifests read by bench_speech.
#
# Usage: gen_sets.py --out DIR --phrase "hey computer" --data ../shared/data [--quick] [--neg-minutes M] [-j N]
# Python standard library only. Everything ends up 16 kHz mono S16 (sox). Deterministic (fixed seeds, sox -R).
import argparse
import array
import concurrent.futures
import json
import math
import os
import random
import subprocess
import sys
import wave

RATE = 16000

# Every flite voice Debian ships, and espeak-ng voices with variants (accent, gender, timbre).
FLITE_VOICES = ["slt", "kal", "awb", "rms", "kal16"]
ESPEAK_VOICES = ["en-us", "en-us+f2", "en-us+m3", "en-gb", "en-gb+f4", "en-gb-scotland+m7", "en-gb-x-rp+f3",
                 "en-029+m2"]
# Rate/pitch variants: flite (duration stretch, sox pitch shift in cents), espeak-ng (words per minute, pitch 0-99).
FLITE_VARIANTS = [(1.0, 0), (0.85, 150), (1.2, -150)]
ESPEAK_VARIANTS = [(175, 50), (150, 30), (210, 70)]
# The wake phrase inside sentences ({} = the phrase); the first entry is the phrase alone.
CARRIERS = ["{}", "{} what time is it", "{} set a timer for ten minutes", "okay so {} turn the volume up",
            "i was going to say {} stop", "{} what's the weather like tomorrow", "listen {}"]
CONDITIONS = [("clean", None), ("snr20", 20), ("snr10", 10), ("snr5", 5)]
NOISES = ["white", "pink", "brown", "babble"]


def run(cmd):
    if cmd[0] == "sox" and "-R" not in cmd:
        # Repeatable: sox dithers whenever it scales or mixes 16-bit audio, from a random seed unless -R.
        cmd = ["sox", "-R"] + cmd[1:]
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if r.returncode != 0:
        raise RuntimeError("%s failed: %s" % (" ".join(cmd), r.stderr.decode(errors="replace").strip()))


def tts(voice, variant, text, out):
    """Speaks `text` with `voice` ("flite:slt" or "espeak:en-us+f2") and variant index into a 16 kHz mono WAV."""
    engine, name = voice.split(":", 1)
    raw = out + ".raw.wav"
    effects = []
    if engine == "flite":
        stretch, cents = FLITE_VARIANTS[variant]
        run(["flite", "-voice", name, "--setf", "duration_stretch=%g" % stretch, "-t", text, "-o", raw])
        if cents:
            effects = ["pitch", str(cents)]
    else:
        wpm, pitch = ESPEAK_VARIANTS[variant]
        run(["espeak-ng", "-v", name, "-s", str(wpm), "-p", str(pitch), "-w", raw, text])
    run(["sox", raw, "-r", str(RATE), "-c", "1", "-b", "16", out] + effects)
    os.unlink(raw)


def silence(seconds, out):
    run(["sox", "-n", "-r", str(RATE), "-c", "1", "-b", "16", out, "trim", "0", "%.3f" % seconds])


def concat(parts, out):
    run(["sox"] + parts + [out])


def samples(path):
    with wave.open(path, "rb") as w:
        assert w.getframerate() == RATE and w.getnchannels() == 1 and w.getsampwidth() == 2, path
        a = array.array("h")
        a.frombytes(w.readframes(w.getnframes()))
        if sys.byteorder != "little":
            a.byteswap()
        return a


def active_rms(path):
    """RMS over the 10 ms frames above -50 dBFS: the speech level, not diluted by pauses (TTS pauses are silent)."""
    s = samples(path)
    total, n = 0.0, 0
    floor = (32768.0 * 10 ** (-50 / 20)) ** 2 * 160
    for f in range(0, len(s) - 159, 160):
        e = sum(x * x for x in s[f:f + 160])
        if e > floor:
            total += e
            n += 160
    return math.sqrt(total / n) if n else 0.0


def rms(path):
    s = samples(path)
    return math.sqrt(sum(x * x for x in s) / max(1, len(s)))


def duration(path):
    with wave.open(path, "rb") as w:
        return w.getnframes() / float(w.getframerate())


def noisy(clean, snr_db, kind, seed, babble_src, out):
    """Mixes noise of `kind` into `clean` so that active speech level / noise RMS = snr_db; both scaled by 0.5 so
    that 5 dB SNR does not clip. The achieved SNR is checked against the scaled noise file."""
    dur = duration(clean)
    noise = out + ".noise.wav"
    if kind == "babble":
        # Four talkers: the babble source (non-wake speech of other voices) from four offsets, mixed.
        total = duration(babble_src)
        parts = []
        for k in range(4):
            start = (seed * 7.919 + k * total / 4.0) % max(0.001, total - dur - 0.01)
            p = "%s.b%d.wav" % (out, k)
            run(["sox", babble_src, p, "trim", "%.3f" % start, "%.3f" % dur, "pad", "0", "%.3f" % dur, "trim", "0",
                 "%.3f" % dur])
            parts.append(p)
        run(["sox", "-m"] + parts + [noise])
        for p in parts:
            os.unlink(p)
    elif kind == "music":
        # A guitar-like chord progression (sox pluck synth, four chords of 0.6 s, looped); the seed chooses where
        # in the loop the clip starts.
        chords = [("C3", "E4", "G4", "C5"), ("A2", "E4", "A4", "C5"), ("F2", "C4", "F4", "A4"), ("G2", "D4", "G4", "B4")]
        parts = []
        for k, notes in enumerate(chords):
            p = "%s.m%d.wav" % (out, k)
            synth = []
            for note in notes:
                synth += ["pluck", note]
            run(["sox", "-R", "-n", "-r", str(RATE), "-c", "1", "-b", "16", p, "synth", "0.6"] + synth +
                ["delay", "0", "0.04", "0.08", "0.12", "remix", "-", "fade", "0", "0.6", "0.1", "norm", "-3"])
            parts.append(p)
        skip = (seed % 4) * 0.6 + (seed % 7) * 0.05
        loops = int((dur + skip) / 2.4) + 1
        run(["sox", "-R"] + parts + [noise, "repeat", str(loops), "trim", "%.3f" % skip, "%.3f" % dur])
        for p in parts:
            os.unlink(p)
    else:
        # sox -R: a repeatable generator; the seed only chooses how much to skip, so clips differ.
        skip = (seed % 97) * 0.01
        run(["sox", "-R", "-n", "-r", str(RATE), "-c", "1", "-b", "16", noise, "synth", "%.3f" % (dur + skip),
             kind + "noise", "trim", "%.3f" % skip, "vol", "0.3"])
    speech, nrms = active_rms(clean), rms(noise)
    if speech <= 0 or nrms <= 0:
        raise RuntimeError("cannot mix %s: silent speech or noise" % clean)
    gain = speech / (nrms * 10 ** (snr_db / 20.0))
    scaled = out + ".scaled.wav"
    run(["sox", "-v", "%.6f" % gain, noise, scaled])
    achieved = 20 * math.log10(speech / max(1e-9, rms(scaled)))
    if abs(achieved - snr_db) > 0.5:
        raise RuntimeError("%s: SNR %.2f dB instead of %d (noise clipped?)" % (out, achieved, snr_db))
    run(["sox", "-m", "-v", "0.5", clean, "-v", "0.5", scaled, out])
    os.unlink(noise)
    os.unlink(scaled)


def load_lines(path):
    with open(path) as f:
        return [json.loads(l) for l in f if l.strip()]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--phrase", required=True)
    ap.add_argument("--data", required=True, help="directory holding intents-dev.jsonl and pii-dev.jsonl")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--neg-minutes", type=float, default=None, help="minutes of non-wake speech (default 31, quick 2)")
    ap.add_argument("-j", type=int, default=2)
    a = ap.parse_args()
    rnd = random.Random(20261121)
    out = os.path.abspath(a.out)
    os.makedirs(out + "/tmp", exist_ok=True)
    phrase = a.phrase.lower().strip()

    if a.quick:
        voices = ["flite:slt", "flite:kal16", "flite:awb", "espeak:en-us", "espeak:en-gb+f4"]
        variants, carriers, neg_minutes = [0, 1], CARRIERS[:3], 2.0
        n_cmd, n_q, asr_voices = 12, 12, ["flite:slt", "espeak:en-us"]
    else:
        voices = ["flite:" + v for v in FLITE_VOICES] + ["espeak:" + v for v in ESPEAK_VOICES]
        variants, carriers, neg_minutes = [0, 1, 2], CARRIERS[:4], 31.0
        n_cmd, n_q, asr_voices = 40, 40, ["flite:slt", "flite:rms", "flite:awb", "espeak:en-us", "espeak:en-gb+m3"]
    if a.neg_minutes is not None:
        neg_minutes = a.neg_minutes
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.j))

    def parallel(fn, items):
        return list(pool.map(lambda x: fn(*x), items))

    silence(0.5, out + "/tmp/sil05.wav")
    silence(1.0, out + "/tmp/sil10.wav")
    silence(1.5, out + "/tmp/sil15.wav")
    silence(0.3, out + "/tmp/sil03.wav")

    # Non-wake speech: every dev utterance of both data sets (never the phrase), shuffled, voices and variants
    # rotating, cut into ~60 s chunks with pauses; the chunks alternate between the tune and the test split.
    intents = load_lines(a.data + "/intents-dev.jsonl")
    pii = load_lines(a.data + "/pii-dev.jsonl")
    texts = [d["text"] for d in intents + pii if phrase not in d["text"].lower()]
    rnd.shuffle(texts)
    neg_items, est = [], 0.0
    for i, t in enumerate(texts):
        if est >= neg_minutes * 60 * 1.1:
            break
        neg_items.append((i, voices[i % len(voices)], variants[(i // len(voices)) % len(variants)], t))
        est += 0.075 * len(t) + 0.5  # rough seconds, refined below from the real files

    def neg_tts(i, voice, variant, text):
        p = "%s/tmp/neg%05d.wav" % (out, i)
        tts(voice, variant, text, p)
        return p

    neg_files = parallel(neg_tts, neg_items)
    chunks, cur, cur_dur, total = [], [], 0.0, 0.0
    for p in neg_files:
        if total >= neg_minutes * 60:
            break
        d = duration(p) + 0.5
        cur.append(p)
        cur_dur += d
        total += d
        if cur_dur >= 60:
            chunks.append(cur)
            cur, cur_dur = [], 0.0
    if cur:
        chunks.append(cur)
    # Real recordings: the pocketsphinx test data (librivox, cards, goforward ...), when Debian's
    # pocketsphinx-testdata is installed; raw files there are 16 kHz S16 mono.
    real = []
    td = "/usr/share/pocketsphinx/test/data"
    if os.path.isdir(td):
        for sub in ["librivox", "cards"]:
            d = os.path.join(td, sub)
            if os.path.isdir(d):
                real += [os.path.join(d, f) for f in sorted(os.listdir(d)) if f.endswith(".wav")]
        real += [os.path.join(td, f) for f in ["goforward.raw", "numbers.raw", "something.raw"]
                 if os.path.exists(os.path.join(td, f))]
    real_parts = []
    for k, f in enumerate(real):
        q = "%s/tmp/real%02d.wav" % (out, k)
        src = ["-t", "raw", "-r", "16000", "-e", "signed", "-b", "16", "-c", "1", f] if f.endswith(".raw") else [f]
        run(["sox"] + src + ["-r", str(RATE), "-c", "1", "-b", "16", q])
        real_parts.append(q)
    if real_parts:
        chunks.append(real_parts)
    clean_chunks = []
    for c, parts in enumerate(chunks):
        p = "%s/neg-clean-%03d.wav" % (out, c)
        seq = [out + "/tmp/sil05.wav"]
        for q in parts:
            seq += [q, out + "/tmp/sil05.wav"]
        concat(seq, p)
        clean_chunks.append(p)
    # Babble source: all the non-wake speech in one file.
    babble = out + "/tmp/babble.wav"
    concat(clean_chunks, babble)

    rows = []  # path condition kind split voice text
    jobs = []
    for c, p in enumerate(clean_chunks):
        split = "tune" if c % 2 == 0 else "test"
        src = "recorded" if real_parts and c == len(clean_chunks) - 1 else "tts"
        for cond, snr in CONDITIONS:
            if snr is None:
                rows.append((p, cond, "other", split, src, "non-wake speech chunk %d" % c))
            else:
                q = "%s/neg-%s-%03d.wav" % (out, cond, c)
                jobs.append((p, snr, NOISES[c % len(NOISES)], c, babble, q))
                rows.append((q, cond, "other", split, src, "non-wake speech chunk %d, %s noise" %
                             (c, NOISES[c % len(NOISES)])))

    # Wake phrase clips: 0.5 s silence, the sentence, 1 s silence; split by carrier-and-voice parity.
    pos = []
    for vi, voice in enumerate(voices):
        for var in variants:
            for ci, carrier in enumerate(carriers):
                pos.append((len(pos), vi, voice, var, ci, carrier.format(phrase)))

    def pos_tts(n, vi, voice, var, ci, text):
        sp = "%s/tmp/pos%04d.wav" % (out, n)
        tts(voice, var, text, sp)
        p = "%s/pos-clean-%04d.wav" % (out, n)
        concat([out + "/tmp/sil05.wav", sp, out + "/tmp/sil10.wav"], p)
        return p

    pos_files = parallel(pos_tts, pos)
    for (n, vi, voice, var, ci, text), p in zip(pos, pos_files):
        split = "tune" if (vi + ci + var) % 2 == 0 else "test"
        v = "%s/%d" % (voice, var)
        for cond, snr in CONDITIONS:
            if snr is None:
                rows.append((p, cond, "wake", split, v, text))
            else:
                q = "%s/pos-%s-%04d.wav" % (out, cond, n)
                jobs.append((p, snr, NOISES[n % len(NOISES)], n + 1000, babble, q))
                rows.append((q, cond, "wake", split, v, text))
    parallel(noisy, jobs)
    with open(out + "/wake.tsv", "w") as f:
        f.write("# path\tcondition\tkind\tsplit\tvoice\ttext\n")
        for r in rows:
            f.write("\t".join(r) + "\n")

    # ASR set: spoken-form dev lines (words only, no simulated recognition noise): commands (an intent) and open
    # general-knowledge questions. Each clip: 1 s silence, the wake phrase, 0.5 s, the request, 1.5 s silence.
    spoken = [d for d in intents if d["form"] == "spoken" and not d["asr_noise"]]
    cmds = [d["text"] for d in spoken if d["intent"] != "none"]
    qs = [d["text"] for d in spoken if d["source"] == "dev.none.knowledge"]
    rnd.shuffle(cmds)
    rnd.shuffle(qs)
    asr_items = [("command", t) for t in cmds[:n_cmd]] + [("question", t) for t in qs[:n_q]]

    def asr_clip(n, category, text):
        voice = asr_voices[n % len(asr_voices)]
        w, r = "%s/tmp/asrw%04d.wav" % (out, n), "%s/tmp/asrr%04d.wav" % (out, n)
        tts(voice, 0, phrase, w)
        tts(voice, 0, text, r)
        p = "%s/asr-%04d.wav" % (out, n)
        concat([out + "/tmp/sil10.wav", w, out + "/tmp/sil05.wav", r, out + "/tmp/sil15.wav"], p)
        return (p, category, voice, text)

    asr_rows = parallel(asr_clip, [(n, c, t) for n, (c, t) in enumerate(asr_items)])
    with open(out + "/asr.tsv", "w") as f:
        f.write("# path\tcategory\tvoice\treference\n")
        for r in asr_rows:
            f.write("\t".join(r) + "\n")
    pool.shutdown()
    subprocess.run(["rm", "-rf", out + "/tmp"])
    npos = sum(1 for r in rows if r[2] == "wake" and r[1] == "clean")
    print("gen_sets: %d wake clips per condition, %.1f min of non-wake speech per condition (%d chunks), "
          "%d ASR clips (%d commands, %d questions), voices: %s" %
          (npos, total / 60, len(clean_chunks), len(asr_rows), min(n_cmd, len(cmds)), min(n_q, len(qs)),
           " ".join(voices)))


if __name__ == "__main__":
    main()
