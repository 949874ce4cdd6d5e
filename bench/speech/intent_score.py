# SPDX-License-Identifier: MIT
# Scoring for the speech-to-intent benchmark (intent_bench.py): word error rate, what was executed, the
# wrong-action rule and the per-group aggregation. Standard library only; tests/speech_bench/test_intent_score.py
# checks it on hand-made results.
import json
import re
import xml.etree.ElementTree as ET

# Contractions are expanded on both sides before the WER alignment: the recognizer's dictionary writes "what's"
# or "what is" as it heard them and the understanding normalizer expands them anyway, so neither spelling is an
# error. The reference keeps the eval generator's words otherwise.
CONTRACTIONS = {
    "what's": "what is", "it's": "it is", "that's": "that is", "there's": "there is", "where's": "where is",
    "how's": "how is", "who's": "who is", "let's": "let us", "i'm": "i am", "i'd": "i would", "i'll": "i will",
    "i've": "i have", "you're": "you are", "you've": "you have", "you'll": "you will", "we're": "we are",
    "they're": "they are", "don't": "do not", "doesn't": "does not", "didn't": "did not", "can't": "can not",
    "cannot": "can not", "won't": "will not", "isn't": "is not", "aren't": "are not", "wasn't": "was not",
    "shouldn't": "should not", "wouldn't": "would not", "couldn't": "could not", "haven't": "have not",
    "o'clock": "oclock",
}

# Whether an intent changes the device's state (timers, alarms, volume, mute, privacy mode, stopping what plays or
# rings) is the catalogue's word: <intent changes-state="true|false">, absent = false for a ".query" name and true
# for any other, the engine's rule (engine/intents/catalogue.h, changesStateByDefault). The device never executes
# an unsure reading of such an intent, and one executed that was not asked for is a wrong action.


def normalize_words(text):
    """Lowercase words: letters, digits and inner apostrophes (as bench/speech/wer.cpp), contractions expanded."""
    out = []
    for w in re.split(r"[^a-z0-9']+", (text or "").lower()):
        w = w.strip("'")
        if not w:
            continue
        out.extend(CONTRACTIONS.get(w, w).split())
    return out


def word_errors(ref, hyp):
    """(substitutions, deletions, insertions, reference words) of a minimum-edit alignment of word lists; among
    equal-cost alignments the one with the most substitutions (as wer.cpp)."""
    n, m = len(ref), len(hyp)
    # cell: (cost, -subs, subs, dels, ins): the tuple order makes min() prefer substitutions on ties.
    prev = [(j, 0, 0, 0, j) for j in range(m + 1)]
    for i in range(1, n + 1):
        cur = [(i, 0, 0, i, 0)]
        for j in range(1, m + 1):
            same = ref[i - 1] == hyp[j - 1]
            d = prev[j - 1]
            diag = (d[0] + (0 if same else 1), d[1] - (0 if same else 1), d[2] + (0 if same else 1), d[3], d[4])
            u = prev[j]
            dele = (u[0] + 1, u[1], u[2], u[3] + 1, u[4])
            left = cur[j - 1]
            ins = (left[0] + 1, left[1], left[2], left[3], left[4] + 1)
            best = diag
            if dele[0] < best[0]:
                best = dele
            if ins[0] < best[0]:
                best = ins
            cur.append(best)
        prev = cur
    c = prev[m]
    return c[2], c[3], c[4], n


def catalogue_intents(path):
    """Intent names of an intent catalogue (config/intents.xml), in order."""
    root = ET.parse(path).getroot()
    return [e.get("name") for e in root.iter("intent")]


def changes_state_by_default(name):
    return name != "none" and not name.endswith(".query")


def state_changing(names):
    """The subset of intent names that change the device's state when the catalogue does not say."""
    return {n for n in names if changes_state_by_default(n)}


def catalogue_state_changing(path):
    """The catalogue's intents that change the device's state (their changes-state attribute, or the default)."""
    out = set()
    for e in ET.parse(path).getroot().iter("intent"):
        name, attr = e.get("name"), e.get("changes-state")
        if (attr != "false") if attr is not None else changes_state_by_default(name):
            out.add(name)
    return out


def _slot_value(v):
    if isinstance(v, bool):
        return str(v).lower()
    if isinstance(v, (int, float)):
        return "%.10g" % v
    return " ".join(str(v).lower().split())


def slots_equal(ref, hyp):
    """Same slot names with the same values (numbers as %.10g, as bench_intents compares them)."""
    ref, hyp = ref or {}, hyp or {}
    if set(ref) != set(hyp):
        return False
    return all(_slot_value(ref[k]) == _slot_value(hyp[k]) for k in ref)


def parse_listen(lines):
    """The first request of one clip from `sotto listen --json` lines: whether it woke, the first final after the
    wake (text, and intent/confidence/slots when the recognizer reports them) and whether it asked again (a clarify
    event before the next wake). Unparsable lines are ignored."""
    r = {"woke": False, "wake_ms": None, "final": None, "final_ms": None, "endpoint": None, "final_intent": None,
         "final_confidence": None, "final_slots": None, "clarify": False}
    for line in lines:
        line = line.strip()
        if not line.startswith("{"):
            continue
        try:
            e = json.loads(line)
        except ValueError:
            continue
        ev = e.get("event")
        if ev == "wake":
            if r["woke"] and (r["final"] is not None or r["clarify"]):
                break  # a second request in the clip: not part of this one
            if not r["woke"]:
                r["woke"], r["wake_ms"] = True, e.get("t_ms")
        elif ev == "final" and r["final"] is None:
            r["final"], r["final_ms"] = e.get("text", ""), e.get("t_ms")
            # An endpoint delay of 0: no endpoint was found, the final came when the audio ended (continuous noise).
            r["endpoint"] = e.get("endpoint_delay_ms", 0) > 0
            r["final_intent"] = e.get("intent")
            r["final_confidence"] = e.get("confidence")
            r["final_slots"] = e.get("slots")
        elif ev == "clarify":
            r["clarify"] = True
    return r


def decide(listen, understood):
    """What the device does with one clip: (intent, slots, executed). `listen` is parse_listen's result;
    `understood` is `sotto intent --json`'s object for the final text (or None). The final event's own intent wins
    when it has one; its slots then come from the event, else from `sotto intent` when both name the same intent.
    A clarify event means nothing is executed (the speaker asks again)."""
    if listen["final"] is None and listen["final_intent"] is None:
        return "none", {}, False
    u = understood or {}
    if listen["final_intent"] is not None:
        intent = listen["final_intent"]
        if listen["final_slots"] is not None:
            slots = listen["final_slots"]
        else:
            slots = u.get("slots", {}) if u.get("intent") == intent else {}
    else:
        intent, slots = u.get("intent", "none"), u.get("slots", {})
    executed = intent != "none" and not listen["clarify"]
    return intent, slots or {}, executed


def score_record(rec, changing):
    """Adds the derived fields to one result record (ref_text/ref_intent/ref_slots, hyp_text/hyp_intent/hyp_slots,
    executed, clarified): word errors of the command words, correct (right intent with all slots, executed, or
    "none" for an open question), wrong_action (a state-changing intent executed that was not asked for: another
    intent, or the right one with other slot values)."""
    s, d, i, n = word_errors(normalize_words(rec["ref_text"]), normalize_words(rec.get("hyp_text") or ""))
    rec["sub"], rec["del"], rec["ins"], rec["ref_words"] = s, d, i, n
    asked = rec["ref_intent"] == rec["hyp_intent"] and slots_equal(rec["ref_slots"], rec["hyp_slots"])
    if rec["ref_intent"] == "none":
        rec["correct"] = rec["hyp_intent"] == "none" and not rec["clarified"]
    else:
        rec["correct"] = asked and rec["executed"]
    rec["wrong_action"] = bool(rec["executed"] and rec["hyp_intent"] in changing and not asked)
    return rec


def aggregate(records, key):
    """Per value of key(record) (None = skipped): n, command WER, speech-to-intent accuracy, clarification rate,
    wrong-action count and rate, wake misses, and CPU seconds per second of audio (net of start-up) where present."""
    groups = {}
    for r in records:
        k = key(r)
        if k is None:
            continue
        g = groups.setdefault(k, {"n": 0, "errors": 0, "ref_words": 0, "correct": 0, "clarified": 0,
                                  "wrong_action": 0, "missed_wake": 0, "cpu_s": 0.0, "audio_s": 0.0,
                                  "listen_s": 0.0, "listen_cpu_s": 0.0})
        g["n"] += 1
        g["errors"] += r["sub"] + r["del"] + r["ins"]
        g["ref_words"] += r["ref_words"]
        g["correct"] += bool(r["correct"])
        g["clarified"] += bool(r["clarified"])
        g["wrong_action"] += bool(r["wrong_action"])
        g["missed_wake"] += not r.get("woke", True)
        if r.get("cpu_s") is not None and r.get("audio_s"):
            g["cpu_s"] += r["cpu_s"]
            g["audio_s"] += r["audio_s"]
        if r.get("cpu_s") is not None and r.get("listen_s"):
            g["listen_cpu_s"] += r["cpu_s"]
            g["listen_s"] += r["listen_s"]
    for g in groups.values():
        n = g["n"]
        g["wer"] = g["errors"] / g["ref_words"] if g["ref_words"] else 0.0
        g["accuracy"] = g["correct"] / n
        g["clarify_rate"] = g["clarified"] / n
        g["wrong_action_rate"] = g["wrong_action"] / n
        g["cpu_per_audio_s"] = g["cpu_s"] / g["audio_s"] if g["audio_s"] else None
        g["cpu_per_listen_s"] = g["listen_cpu_s"] / g["listen_s"] if g["listen_s"] else None
    return groups
