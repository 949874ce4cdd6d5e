#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Generates the wake word model's training set (flite, espeak-ng, sox) into a scratch directory: the phrase said by
# many voices at random rates and pitches, alone and inside sentences, with the time its last word ends; and
# non-wake speech (sentences of the licence texts every Debian system ships, everyday sentences from templates and
# words that sound like the phrase's). Nothing here comes from the benchmark set (gen_sets.py): its sentences are
# the dev data in ../shared/data and the pocketsphinx recordings, never used here, and the voice en-029 is held out
# of training entirely so the benchmark can report a voice the model never heard.
#
# Usage: gen_wake_train.py --out DIR [--phrase "hey computer"] [--positives N] [--neg-minutes M] [--seed S]
#                          [--flite-share F] [--mid-share F] [--shift-share F] [--licence-sentences N]
#                          [--confusable-repeats N] [--command-sentences N] [-j N]
# Writes DIR/train.tsv: path, kind (wake | other), phrase end in seconds (wake clips; 0 otherwise), voice.
import argparse
import array
import concurrent.futures
import os
import random
import re
import subprocess
import sys
import wave

RATE = 16000
FLITE = ["slt", "awb", "rms", "kal16", "kal"]
ESPEAK_BASE = ["en-us", "en-gb", "en-gb-scotland", "en-gb-x-rp", "en-gb-x-gbclan", "en-gb-x-gbcwmd", "en-us-nyc"]
ESPEAK_VARIANTS = ["", "+f1", "+f2", "+f3", "+f4", "+f5", "+m1", "+m2", "+m3", "+m4", "+m5", "+m6", "+m7",
                   "+klatt", "+klatt2", "+klatt3", "+croak", "+whisper"]
# Around the phrase: what people say before and after it (the benchmark's carriers are not among them).
HEADS = ["", "", "", "okay", "um", "well", "so", "alright", "excuse me", "and then", "please", "oh", "right",
         "wait", "yes", "you know"]
TAILS = ["", "", "", "play some music", "how are you", "turn off the lights", "call mom", "cancel that",
         "what's on my calendar", "good morning", "read the news", "how tall is a giraffe", "add milk to the list",
         "pause", "skip this song", "is it going to rain", "dim the lights", "tell me a joke", "next", "thanks",
         "how far is the moon", "remind me to stretch", "louder please", "lock the front door"]
# Hard negatives: the phrase's words apart, near rhymes and other greetings. Not homophones of the phrase ("hey
# come pewter", "they compute her"): a listener could not tell them apart either, and as negatives they taught the
# network to reject the phrase itself.
CONFUSABLES = ["hey", "computer", "my computer", "the computer", "a computer", "hey there", "hey you", "hey guys",
               "hey come here", "hey compete", "hey cucumber", "hey company", "okay computer", "hi computer",
               "hello computer", "hey competitor", "a computer crashed", "hey what's up", "pay the computer",
               "hey can you hear me", "hey mom", "computing power", "computer science", "hey look at this",
               "stay cool", "hey compadre", "my computer is slow", "the computer is on the desk", "hey wait up",
               "come here computer", "computer games", "hey honey", "hey buddy", "hey compost",
    "okay mute the speaker", "mute the speaker please", "hey mute that", "a cute computer", "hey cue the music",
    "hey pewter", "they commute by train", "hey, compare the prices", "hey, complete the list", "computed it",
    "hey can you play something", "okay so the computer", "so hey what's up", "hey, what time is it",
    "okay so hey there", "commuter train", "hey, come pick me up", "they computed the total", "hey, cool shirt"]
SUBJECTS = ["i", "we", "my sister", "the kids", "our neighbour", "the teacher", "my boss", "everyone", "he", "she",
            "the doctor", "my friend", "the dog", "they", "you"]
VERBS = ["want to", "need to", "forgot to", "will", "should", "could", "might", "have to", "like to", "tried to"]
ACTIONS = ["buy some bread", "fix the bike", "call the plumber", "walk the dog", "finish the report",
           "clean the kitchen", "visit grandma", "water the plants", "book a table", "watch the game",
           "learn the piano", "paint the fence", "go for a run", "bake a cake", "write a letter", "pick up the kids",
           "move the car", "check the mail", "plan the trip", "read that book", "open the window", "set the table"]
# Requests to a speaker without the phrase, opened the way people open them ("okay", "hey", "um"): the near misses
# of an always-listening detector are commands whose first words run together like the phrase's ("okay mute the
# ...", "hey, compute ..."), so these teach it that the rest of a command is not "computer".
OPENERS = ["", "", "okay", "ok so", "hey", "hey there", "alright", "um", "uh", "so", "please", "now", "and", "oh",
           "okay now", "hey can you", "could you", "can you", "would you", "then"]
COMMANDS = ["mute the speaker", "mute the tv", "unmute the radio", "mute it", "commute home", "compute the total",
            "compute the tip", "complete the order", "cue the next song", "queue up some jazz", "turn the music down",
            "turn up the heat", "turn on the fan", "switch off the lamp", "stop the timer", "pause the podcast",
            "resume playback", "play the news", "skip ahead", "go back", "repeat that", "set an alarm for seven",
            "set the volume to five", "cancel the reminder", "call my mother", "text my brother", "find my phone",
            "open the garage", "close the blinds", "start the vacuum", "what's the weather", "how much is a pound",
            "tell me the score", "add eggs to my list", "remind me at noon", "what's next on my calendar",
            "spell commuter", "who wrote hamlet", "convert ten miles to kilometres", "count to ten",
            "dim the kitchen lights", "lower the volume", "make it warmer", "play something calm", "be quiet",
            "keep it down", "compare the two", "computing the average", "commuting takes an hour", "come to dinner",
            "come pick it up", "come play with me", "cute puppy video", "mute that", "new tab", "book a taxi"]
# Timers are the commonest kitchen request, and "<food> timer" ends like the phrase. The foods are a fixed list of
# ours (the benchmark's utterances are never read here).
FOODS = ["pasta", "egg", "rice", "pizza", "cookie", "bread", "tea", "oven", "kitchen", "laundry", "potato", "fish",
         "turkey", "soup", "muffin", "popcorn", "noodle", "steak", "bacon", "pancake"]
TIMER_FORMS = ["how long is left on the {} timer", "how much time is left on the {} timer", "start a {} timer",
               "set the {} timer for ten minutes", "cancel the {} timer", "is the {} timer done", "pause the {} timer",
               "check the {} timer", "add a minute to the {} timer", "what's the {} timer at", "stop the {} timer",
               "the {} needs five more minutes"]
CLOSERS = ["", "", "", "thanks", "thank you", "please", "now", "for me", "right now", "again", "a bit", "okay"]
TIMES = ["today", "tomorrow", "tonight", "this weekend", "after lunch", "next week", "right now", "later", "soon",
         "in the morning", "before dinner", ""]


def run(cmd):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if r.returncode != 0:
        raise RuntimeError("%s failed: %s" % (" ".join(cmd), r.stderr.decode(errors="replace").strip()))


def random_voice(rnd, flite_share=0.3, shift_share=0.33):
    """(engine, voice, rate, pitch, cents): flite's duration stretch or espeak-ng's words per minute and pitch, and
    a sox pitch shift in cents for `shift_share` of the clips (0 otherwise)."""
    cents = rnd.uniform(-250, 250) if rnd.random() < shift_share else 0
    if rnd.random() < flite_share:
        return ("flite", rnd.choice(FLITE), rnd.uniform(0.75, 1.35), 0, cents)
    return ("espeak", rnd.choice(ESPEAK_BASE) + rnd.choice(ESPEAK_VARIANTS), rnd.randint(125, 235), rnd.randint(15, 85),
            cents)


def voice_name(v):
    return "%s:%s" % (v[0], v[1])


def tts(v, text, out):
    """16 kHz mono S16 WAV of `text` in voice v = (engine, name, rate, pitch, cents)."""
    engine, name, rate, pitch, cents = v
    raw = out + ".raw.wav"
    effects = ["pitch", "%d" % cents] if abs(cents) > 1 else []
    if engine == "flite":
        run(["flite", "-voice", name, "--setf", "duration_stretch=%.3f" % rate, "-t", text, "-o", raw])
    else:
        run(["espeak-ng", "-v", name, "-s", str(rate), "-p", str(pitch), "-w", raw, text])
    run(["sox", raw, "-r", str(RATE), "-c", "1", "-b", "16", out] + effects)
    os.unlink(raw)


def read(path):
    with wave.open(path, "rb") as w:
        a = array.array("h")
        a.frombytes(w.readframes(w.getnframes()))
    if sys.byteorder != "little":
        a.byteswap()
    return a


def write(path, a):
    if sys.byteorder != "little":
        a = array.array("h", a)
        a.byteswap()
    with wave.open(path, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(a.tobytes())


def trimmed(a):
    """The samples between the first and last 10 ms frame whose peak is above 2 % of the clip's peak."""
    peak = max((abs(x) for x in a), default=0)
    if peak == 0:
        return array.array("h")
    floor = peak * 0.02
    frames = [max(abs(x) for x in a[i:i + 160]) > floor for i in range(0, len(a), 160)]
    first = frames.index(True)
    last = len(frames) - 1 - frames[::-1].index(True)
    return a[first * 160:(last + 1) * 160]


def silence(seconds):
    return array.array("h", [0] * int(seconds * RATE))


def licence_sentences():
    out = []
    d = "/usr/share/common-licenses"
    if not os.path.isdir(d):
        return out
    for f in sorted(os.listdir(d)):
        p = os.path.join(d, f)
        if os.path.islink(p) or not os.path.isfile(p):
            continue
        text = open(p, errors="replace").read()
        for s in re.split(r"[.;:!?]\s+", re.sub(r"\s+", " ", text)):
            s = re.sub(r"[^A-Za-z' ,-]", " ", s).strip().lower()
            s = re.sub(r"\s+", " ", s).strip(" ,-")  # a leading "-" would be an option to espeak-ng
            n = len(s.split())
            if 4 <= n <= 22 and "computer" not in s:
                out.append(s)
    return sorted(set(out))


def template_sentences(rnd, n):
    out = []
    for _ in range(n):
        s = "%s %s %s %s" % (rnd.choice(SUBJECTS), rnd.choice(VERBS), rnd.choice(ACTIONS), rnd.choice(TIMES))
        if rnd.random() < 0.2:
            s = rnd.choice(["hey", "oh", "well", "so", "okay"]) + " " + s
        out.append(s.strip())
    return out


def command_sentences(rnd, n):
    out = []
    for _ in range(n):
        what = rnd.choice(COMMANDS) if rnd.random() < 0.7 else rnd.choice(TIMER_FORMS).format(rnd.choice(FOODS))
        out.append(re.sub(r"\s+", " ", "%s %s %s" % (rnd.choice(OPENERS), what, rnd.choice(CLOSERS))).strip())
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--phrase", default="hey computer")
    ap.add_argument("--positives", type=int, default=1800)
    ap.add_argument("--neg-minutes", type=float, default=60.0)
    ap.add_argument("--seed", type=int, default=20261126)
    ap.add_argument("--flite-share", type=float, default=0.3, help="share of flite voices (the rest espeak-ng)")
    ap.add_argument("--mid-share", type=float, default=0.25, help="share of wake clips said inside a sentence")
    ap.add_argument("--shift-share", type=float, default=0.33, help="share of clips pitch-shifted by sox (±250 cents)")
    ap.add_argument("--licence-sentences", type=int, default=900)
    ap.add_argument("--confusable-repeats", type=int, default=6)
    ap.add_argument("--command-sentences", type=int, default=0, help="requests without the phrase (OPENERS ...)")
    ap.add_argument("-j", type=int, default=2)
    a = ap.parse_args()
    rnd = random.Random(a.seed)
    out = os.path.abspath(a.out)
    os.makedirs(out + "/tmp", exist_ok=True)
    phrase = a.phrase.lower().strip()
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.j))

    # Wake clips, said three ways: in pieces (head, phrase, tail trimmed and joined with short gaps: the phrase's
    # end is exact); in one breath as "phrase, tail" (its end estimated from the phrase said alone by the same
    # voice); and in one breath inside a sentence, "head phrase, tail" (its end estimated from "head phrase" said by
    # the same voice: the last word said last runs a little longer, so the estimate errs late, after the end).
    pos_jobs = []
    for n in range(a.positives):
        v = random_voice(rnd, a.flite_share, a.shift_share)
        mode = rnd.choices(["pieces", "start", "middle"], weights=[1.0 - a.mid_share - 0.25, 0.25, a.mid_share])[0]
        head = rnd.choice([h for h in HEADS if h]) if mode == "middle" else (
            rnd.choice(HEADS) if mode == "pieces" and rnd.random() < 0.5 else "")
        tail = rnd.choice(TAILS)
        pos_jobs.append((n, v, head, tail, mode, rnd.uniform(0.02, 0.2), rnd.uniform(0.05, 0.4)))

    def make_pos(n, v, head, tail, mode, gap1, gap2):
        base = "%s/tmp/p%05d" % (out, n)
        tts(v, phrase, base + "-w.wav")
        wake = trimmed(read(base + "-w.wav"))
        audio = silence(0.5)
        if mode == "middle":
            tts(v, head + " " + phrase, base + "-hp.wav")
            upto = trimmed(read(base + "-hp.wav"))
            tts(v, head + " " + phrase + (", " + tail if tail else ""), base + "-j.wav")
            said = trimmed(read(base + "-j.wav"))
            audio += said
            end = 0.5 + min(len(upto), len(said)) / RATE
        elif mode == "start" and tail:
            tts(v, phrase + ", " + tail, base + "-j.wav")
            said = trimmed(read(base + "-j.wav"))
            audio += said
            end = 0.5 + min(len(wake), len(said)) / RATE
        else:
            if head:
                tts(v, head, base + "-h.wav")
                audio += trimmed(read(base + "-h.wav")) + silence(gap1)
            audio += wake
            end = len(audio) / RATE
            if tail:
                tts(v, tail, base + "-t.wav")
                audio += silence(gap2) + trimmed(read(base + "-t.wav"))
        audio += silence(0.8)
        p = "%s/wake-%05d.wav" % (out, n)
        write(p, audio)
        for f in os.listdir(out + "/tmp"):
            if f.startswith("p%05d-" % n):
                os.unlink(os.path.join(out, "tmp", f))
        return (p, "wake", "%.3f" % end, voice_name(v))

    rows = list(pool.map(lambda j: make_pos(*j), pos_jobs))

    # Non-wake speech: licence sentences, everyday sentences and the confusables (each several times), shuffled,
    # in ~60 s chunks with pauses of 0.2-1.2 s.
    texts = licence_sentences()
    rnd.shuffle(texts)
    texts = texts[:a.licence_sentences] + template_sentences(rnd, 500) + CONFUSABLES * a.confusable_repeats
    texts += command_sentences(rnd, a.command_sentences)
    rnd.shuffle(texts)
    neg_jobs, est = [], 0.0
    for i, t in enumerate(texts):
        if est >= a.neg_minutes * 60 * 1.15:
            break
        neg_jobs.append((i, random_voice(rnd, a.flite_share, a.shift_share), t))
        est += 0.07 * len(t) + 0.7

    def make_neg(i, v, text):
        p = "%s/tmp/n%05d.wav" % (out, i)
        tts(v, text, p)
        s = trimmed(read(p))
        os.unlink(p)
        return s

    pieces = list(pool.map(lambda j: make_neg(*j), neg_jobs))
    chunk, total, c = array.array("h"), 0.0, 0
    for s in pieces:
        chunk += s + silence(rnd.uniform(0.2, 1.2))
        if len(chunk) >= 60 * RATE or s is pieces[-1]:
            p = "%s/other-%03d.wav" % (out, c)
            write(p, chunk)
            rows.append((p, "other", "0", "mixed"))
            total += len(chunk) / RATE
            chunk, c = array.array("h"), c + 1
            if total >= a.neg_minutes * 60:
                break
    with open(out + "/train.tsv", "w") as f:
        f.write("# path\tkind\tphrase_end_s\tvoice\n")
        for r in rows:
            f.write("\t".join(r) + "\n")
    pool.shutdown()
    subprocess.run(["rm", "-rf", out + "/tmp"])
    print("gen_wake_train: %d wake clips, %.1f min of non-wake speech in %d chunks" % (a.positives, total / 60, c))


if __name__ == "__main__":
    main()
