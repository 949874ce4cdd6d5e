#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# The latency harness's analysis (sotto-bench e2e): percentiles, sottod's log lines, the playback WAV's onsets and
# stops, the per-profile result objects (the --json shape) and the table. Standard library only; no daemon needed,
# so tests/e2e_bench/test_e2e_stats.py checks all of it on hand-made inputs.
import array
import math
import re
import sys
import wave

# Per-profile figures, in the order the table prints them: (JSON key, table label).
METRICS = [("rtt", "end of speech -> first audio"),
           ("endpoint_delay", "endpoint delay"),
           ("asr_final_lag", "ASR final lag"),
           ("ttft", "time to first token"),
           ("tts_first_chunk", "TTS first chunk"),
           ("barge_in_stop", "barge-in: wake word -> silence")]
PERCENTILES = (50, 95, 99)

# A 10 ms playback frame is sound when a sample in it reaches this (about -44 dBFS): the TTS's preroll and dither
# stay below it, the first syllable does not.
LOUD = 200
FRAME_MS = 10


def percentile(values, p):
    """Nearest-rank percentile (no interpolation: every figure is a latency that happened); None when empty."""
    vals = sorted(v for v in values if v is not None and not (isinstance(v, float) and math.isnan(v)))
    if not vals:
        return None
    if not 0 < p <= 100:
        raise ValueError("percentile %r outside (0, 100]" % p)
    rank = math.ceil(p / 100.0 * len(vals))
    return vals[min(len(vals), max(1, rank)) - 1]


def summary(values):
    """{"p50_ms", "p95_ms", "p99_ms"}: each a number rounded to 0.1 ms, or None without data."""
    out = {}
    for p in PERCENTILES:
        v = percentile(values, p)
        out["p%d_ms" % p] = None if v is None else round(float(v), 1)
    return out


def ratio(new, base):
    """new / base rounded to 3 places; None when either is missing or base is 0."""
    if new is None or base is None or base == 0:
        return None
    return round(float(new) / float(base), 3)


# --- sottod's log (log.level=debug: the final transcript's words are shown; info works too) -------------------------
# A turn that semantic endpointing ended says so after the delay: "endpoint 120 ms after speech (a whole command)".
# Since the request number is logged with the final and the first audio, records are joined by it; logs from before
# that are joined by order.
FINAL = re.compile(r'speech\[final\]: (?:request (\d+): )?final(?: transcript)? at (\d+) ms of audio, endpoint (\d+) ms after speech'
                   r'(?: \([^)]*\))?, (\d+) words \((\w+) search, confidence ([\d.]+)\)(?:: "(.*)")?\s*$')
WAKE = re.compile(r'speech\[(wake|barge-in)\]: wake word at (\d+) ms of audio')
ANSWERED = re.compile(r'answer\[answered\]: request (\d+): route=(\S+) reason=([^,]+), (\d+) bytes of answer, '
                      r'first text (-?[\d.]+) ms after the transcript(.*)$')
FAILED = re.compile(r'answer\[(?:failed|no-brain)\]: request (\d+)')
FIRST_AUDIO = re.compile(r'answer\[first-audio\]: answer (\d+)(?: \(request (\d+)\))?: first audio (\d+) ms after the endpoint \((\d+) ms '
                         r'after the end of speech\), ([\d.]+) ms after the transcript')
ANNOUNCE = re.compile(r'answer\[announcement\]: answer (\d+)')
DROPPED = re.compile(r'speech\[transcript-dropped\]:.* transcript (\d+) dropped')
SPOKEN = re.compile(r'tts\[spoken\]: answer (\d+): (\d+) phrases, ([\d.]+) s of audio')
CANCELLED = re.compile(r'tts\[cancelled\]: answer (\d+) stopped after ([\d.]+) s of audio')
STATUS = re.compile(r'daemon\[status\]: .*?; (\d+) frames, (\d+) dropped')
SPEECH_METRICS = re.compile(r'speech\[metrics\]: .*final lag p50 ([\d.]+) p95 ([\d.]+) ms')


def parse_log(lines):
    """sottod's log lines -> {"finals": [...], "wakes": [...], "brain_ready_line", "first_final_line", "notes"}.
    Each final is a dict with seq (the transcript's sequence number: finals are numbered in order), at_ms (audio
    time of the endpoint), endpoint_ms (the daemon's silence after its end of speech), transcript, and, once
    answered: route, reason, first_text_ms, flags, answer_id, after_endpoint_ms, after_speech_ms,
    after_transcript_ms, spoken_s / cancelled_s."""
    finals, wakes, notes = [], [], []
    answered, audio, announced, dropped, failed = {}, {}, set(), set(), set()
    requested = {}  # answer id -> request number, where the first-audio line names it
    ready_line = first_final_line = None
    captured = dropped_frames = 0
    for n, line in enumerate(lines):
        line = line.rstrip("\n")
        if m := FINAL.search(line):
            if first_final_line is None:
                first_final_line = n
            seq = int(m[1]) if m[1] else len(finals) + 1
            if any(f["seq"] == seq for f in finals):
                notes.append("a second final for request %d (ignored): %s" % (seq, line.strip()[:160]))
                continue
            finals.append(dict(seq=seq, at_ms=int(m[2]), endpoint_ms=int(m[3]), words=int(m[4]),
                               search=m[5], confidence=float(m[6]), transcript=m[7]))
        elif "speech[final]:" in line:
            # A final this parser cannot read would shift every later final's pairing with its answer.
            notes.append("unparsed final line (its request is counted as not heard): " + line.strip()[:160])
        elif m := WAKE.search(line):
            wakes.append(dict(kind=m[1], at_ms=int(m[2])))
        elif m := ANSWERED.search(line):
            answered[int(m[1])] = dict(route=m[2], reason=m[3].strip(), bytes=int(m[4]), first_text_ms=float(m[5]),
                                       flags=m[6].strip(", "))
        elif m := FAILED.search(line):
            failed.add(int(m[1]))
        elif m := FIRST_AUDIO.search(line):
            audio.setdefault(int(m[1]), {}).update(after_endpoint_ms=int(m[3]), after_speech_ms=int(m[4]),
                                                   after_transcript_ms=float(m[5]))
            if m[2]:
                requested[int(m[1])] = int(m[2])
        elif m := SPOKEN.search(line):
            audio.setdefault(int(m[1]), {}).update(spoken_s=float(m[3]))
        elif m := CANCELLED.search(line):
            audio.setdefault(int(m[1]), {}).update(cancelled_s=float(m[2]))
        elif m := ANNOUNCE.search(line):
            announced.add(int(m[1]))
        elif m := DROPPED.search(line):
            dropped.add(int(m[1]))
        elif m := STATUS.search(line):
            captured, dropped_frames = int(m[1]), int(m[2])
        elif "brain[ready]" in line and ready_line is None:
            ready_line = n
        elif m := SPEECH_METRICS.search(line):
            notes.append("sottod's own final lag p50 %s p95 %s ms" % (m[1], m[2]))
        elif line.startswith(("error ", "critical ")):
            notes.append(line)
    if dropped_frames:
        # The speech thread fell so far behind that the capture ring overflowed: what it heard has holes, and its
        # audio times run behind the microphone's by the frames lost, so requests after the first loss may be
        # matched to the wrong window.
        notes.append("the capture dropped %d of %d frames (%.1f s): the speech thread fell behind the microphone; "
                     "figures after the first loss are unreliable"
                     % (dropped_frames, captured, dropped_frames / 16000.0))
    # Answer ids number every answer the brain posted to the TTS thread: requests in transcript order (dropped
    # transcripts never reach it) and announcements (logged with their id) in between.
    taken = [f["seq"] for f in finals if f["seq"] not in dropped]
    by_seq = {f["seq"]: f for f in finals}
    for aid, facts in audio.items():
        if aid in announced:
            continue
        if aid in requested:
            if requested[aid] in by_seq:
                by_seq[requested[aid]].update(facts, answer_id=aid)
            continue
        k = aid - 1 - sum(1 for a in announced if a < aid)
        if 0 <= k < len(taken):
            by_seq[taken[k]].update(facts, answer_id=aid)
    for seq, facts in answered.items():
        if seq in by_seq:
            by_seq[seq].update(facts)
    for seq in failed:
        if seq in by_seq:
            by_seq[seq]["failed"] = True
    return dict(finals=finals, wakes=wakes, notes=notes, brain_ready_line=ready_line,
                first_final_line=first_final_line, announcements=len(announced), dropped=len(dropped),
                capture_dropped_frames=dropped_frames)


# --- audio -----------------------------------------------------------------------------------------------------
def read_wav(path):
    """16-bit mono WAV -> (samples array('h'), rate)."""
    with wave.open(path, "rb") as w:
        if w.getsampwidth() != 2 or w.getnchannels() != 1:
            raise ValueError("%s: need 16-bit mono" % path)
        a = array.array("h")
        a.frombytes(w.readframes(w.getnframes()))
        if sys.byteorder != "little":
            a.byteswap()
        return a, w.getframerate()


def frame_peaks(samples, rate):
    """Largest |sample| of every 10 ms frame."""
    n = rate * FRAME_MS // 1000
    return [max(max(samples[i:i + n]), -min(samples[i:i + n])) for i in range(0, len(samples) - n + 1, n)]


def speech_end_ms(samples, rate, rel=0.02, floor=300):
    """Where speech ends in a clean TTS clip: after the last sample above 2 % of the clip's peak (and above
    `floor`), in ms from the clip's start; 0 for a silent clip."""
    peak = max((abs(s) for s in samples), default=0)
    th = max(floor, peak * rel)
    for i in range(len(samples) - 1, -1, -1):
        if abs(samples[i]) > th:
            return (i + 1) * 1000.0 / rate
    return 0.0


def onset_ms(peaks, from_ms, to_ms, quiet_frames=2):
    """The first sound in the playback that follows at least `quiet_frames` silent frames, in [from_ms, to_ms):
    the start of an answer (a cancelled answer's tail before it is not one). None when there is none."""
    start = max(0, int(from_ms // FRAME_MS))
    end = min(len(peaks), int(math.ceil(to_ms / FRAME_MS)))
    quiet = quiet_frames if start == 0 else sum(1 for p in peaks[max(0, start - quiet_frames):start] if p < LOUD)
    for f in range(start, end):
        if peaks[f] >= LOUD:
            if quiet >= quiet_frames:
                return f * FRAME_MS
            quiet = 0
        else:
            quiet += 1
    return None


def sounding(peaks, at_ms, span_ms=100):
    """Whether the playback makes sound somewhere in the span_ms before at_ms (an answer is being spoken)."""
    a, b = max(0, int((at_ms - span_ms) // FRAME_MS)), min(len(peaks), int(at_ms // FRAME_MS) + 1)
    return any(p >= LOUD for p in peaks[a:b])


def silent_from_ms(peaks, from_ms, to_ms):
    """Where the playback falls silent for good before to_ms: the end of its last sound in [from_ms, to_ms) (an
    answer stopped by a barge-in; pauses between its phrases are not its end), or from_ms when it is silent
    throughout."""
    a = max(0, int(from_ms // FRAME_MS))
    for f in range(min(len(peaks), int(math.ceil(to_ms / FRAME_MS))) - 1, a - 1, -1):
        if peaks[f] >= LOUD:
            return (f + 1) * FRAME_MS
    return a * FRAME_MS


# --- one run: requests said (the manifest) x what sottod logged and played -------------------------------------
def measure(planned, log, peaks):
    """Joins the manifest's requests with the log's finals (by audio time: a final belongs to the request whose
    window, from its wake word to the next request, holds its endpoint) and the playback's onsets. Returns one
    record per planned request with the stage latencies (ms) that could be measured."""
    out = []
    finals = sorted(log["finals"], key=lambda f: f["at_ms"])
    for p in planned:
        r = dict(p)
        mine = [f for f in finals if p["wake_start_ms"] <= f["at_ms"] < p["window_end_ms"]]
        # A turn that ended before the request did is cut short; the request's latencies are those of the first
        # final after its end of speech (there is none when the rest of it was never heard as a turn).
        early = [f for f in mine if f["at_ms"] < p["speech_end_ms"]]
        late = [f for f in mine if f["at_ms"] >= p["speech_end_ms"]]
        r["heard"] = bool(mine)
        r["extra_finals"] = max(0, len(mine) - 1)
        if p.get("kind") == "barge-in":
            r["barge_in_heard"] = any(w["kind"] == "barge-in" and p["wake_start_ms"] <= w["at_ms"] < p["window_end_ms"]
                                      for w in log["wakes"])
        if not late:
            r["cut_short"] = bool(early)
            barge_in(r, peaks, None)
            out.append(r)
            continue
        f = late[0]
        r["cut_short"] = bool(early) or cut_short(p.get("text", ""), f.get("transcript"))
        r.update(transcript=f.get("transcript"), route=f.get("route"), reason=f.get("reason"),
                 flags=f.get("flags", ""), answer_id=f.get("answer_id"), confidence=f.get("confidence"))
        t0 = p["speech_end_ms"]
        r["endpoint_at_ms"] = f["at_ms"]
        r["endpoint_delay"] = f["at_ms"] - t0
        r["daemon_endpoint_ms"] = f["endpoint_ms"]
        if f.get("first_text_ms", -1) >= 0:
            r["ttft"] = f["first_text_ms"]
        if "after_endpoint_ms" in f:
            a, tx = f["after_endpoint_ms"], f["after_transcript_ms"]
            r["asr_final_lag"] = max(0.0, a - tx)  # endpoint (audio time) -> transcript taken by the answer stage
            r["rtt_daemon"] = f["after_speech_ms"]
            if "ttft" in r:
                r["tts_first_chunk"] = max(0.0, tx - r["ttft"])
            hint = f["at_ms"] + a  # where sottod put its first sample in the playback
            r["rtt"] = None
            if peaks is not None:
                on = onset_ms(peaks, max(f["at_ms"], hint - 100), min(p["window_end_ms"], hint + 400))
                if on is not None:
                    r["first_audio_at_ms"] = on
                    r["rtt"] = on - t0
                    r["rtt_source"] = "wav"
            if r["rtt"] is None:
                # No onset found in the playback: sottod's own figure, shifted from its end of speech to the real one.
                r["rtt"] = hint - t0
                r["first_audio_at_ms"] = hint
                r["rtt_source"] = "log"
        barge_in(r, peaks, r.get("first_audio_at_ms") if r.get("rtt_source") == "wav" else None)
        out.append(r)
    return out


def words(text):
    return re.findall(r"[a-z0-9']+", (text or "").lower())


def cut_short(said, heard):
    """Whether what was heard is the start of what was said and not all of it (a turn ended too soon; a transcript
    not logged, at info level, counts as not cut). measure() also counts a turn that ended before the speech."""
    s, h = words(said), words(heard)
    return bool(h) and len(h) < len(s) and s[:len(h)] == h


def barge_in(r, peaks, next_onset_ms):
    """A barge-in request's wake word was said while the previous answer played: how long after the wake word
    the playback fell silent (before this request's own answer began)."""
    if r.get("kind") != "barge-in" or peaks is None:
        return
    r["was_playing"] = sounding(peaks, r["wake_end_ms"], r["wake_end_ms"] - r["wake_start_ms"])
    # Only a wake word sottod heard as a barge-in stops the answer; a missed one lets it play on (counted apart).
    if r["was_playing"] and r.get("barge_in_heard"):
        until = next_onset_ms if next_onset_ms is not None else r["window_end_ms"]
        r["barge_in_stop"] = max(0.0, silent_from_ms(peaks, r["wake_start_ms"], until) - r["wake_end_ms"])


def profile_result(name, records, extra=None):
    """The --json object of one profile: profile, n (requests with a measured round trip), rtt / ttft /
    tts_first_chunk / endpoint_delay / asr_final_lag / barge_in_stop ({p50_ms, p95_ms, p99_ms}), cache_hit_ratio
    and route_mix (share of each route among the answered requests), plus counts."""
    rs = [r for r in records if r.get("kind", "measure") in ("measure", "barge-in")]
    answered = [r for r in rs if r.get("route")]
    routes = {}
    for r in answered:
        routes[r["route"]] = routes.get(r["route"], 0) + 1
    res = {"profile": name, "n": sum(1 for r in rs if r.get("rtt") is not None)}
    for key, _ in METRICS:
        res[key] = summary([r.get(key) for r in rs])
    res["cache_hit_ratio"] = round(routes.get("cache", 0) / len(answered), 4) if answered else None
    res["route_mix"] = {k: round(v / len(answered), 4) for k, v in sorted(routes.items())}
    res["routes"] = dict(sorted(routes.items()))
    res["said"] = len(rs)
    res["heard"] = sum(1 for r in rs if r.get("heard"))
    res["answered"] = len(answered)
    res["cut_short"] = sum(1 for r in rs if r.get("cut_short"))
    res["transcripts_exact"] = sum(1 for r in rs
                                   if r.get("heard") and words(r.get("transcript")) == words(r.get("text")))
    res["rtt_daemon"] = summary([r.get("rtt_daemon") for r in rs])
    conds = {}
    for r in rs:
        conds.setdefault(r.get("condition", "?"), []).append(r)
    res["by_condition"] = {c: {"n": sum(1 for r in v if r.get("rtt") is not None), "said": len(v),
                               "rtt": summary([r.get("rtt") for r in v])} for c, v in sorted(conds.items())}
    bi = [r for r in rs if r.get("kind") == "barge-in"]
    if bi:
        res["barge_ins_during_playback"] = sum(1 for r in bi if r.get("was_playing"))
        res["barge_ins_heard"] = sum(1 for r in bi if r.get("was_playing") and r.get("barge_in_heard"))
    res["available"] = True
    if extra:
        res.update(extra)
    return res


def unavailable(name, reason, extra=None):
    """The --json object of a profile that could not run: the same keys, no figures, and why."""
    res = {"profile": name, "n": 0}
    for key, _ in METRICS:
        res[key] = summary([])
    res.update(cache_hit_ratio=None, route_mix={}, routes={}, said=0, heard=0, answered=0, cut_short=0,
               transcripts_exact=0,
               rtt_daemon=summary([]), by_condition={}, available=False, reason=reason)
    if extra:
        res.update(extra)
    return res


def comparison_ratios(base, new):
    """p50/p95 of every metric, new over base (< 1: the variant is faster)."""
    out = {}
    for key, _ in METRICS:
        for p in ("p50_ms", "p95_ms"):
            r = ratio(new[key][p], base[key][p])
            if r is not None:
                out["%s_%s" % (key, p[:-3])] = r
    return out


def fmt(v):
    return "-" if v is None else ("%.0f" % v if v >= 10 else "%.1f" % v)


def table(results, out):
    """The human table: per profile, one row per metric with p50/p95/p99, then the route mix and cache hits."""
    w = 32
    print("%-22s %4s  %-*s %7s %7s %7s" % ("profile", "n", w, "metric (ms)", "p50", "p95", "p99"), file=out)
    shown = set()
    for res in results:
        label = res["profile"] + (" [%s]" % res["config"] if res.get("config", "default") != "default" else "")
        if not res.get("available", True):
            # A comparison that cannot run says so once, not once per variant.
            key = (res.get("config", "").split(":")[0], res.get("reason"))
            if key[0] != "default" and key in shown:
                continue
            shown.add(key)
            if key[0] not in ("default", ""):
                label = "%s [%s]" % (res["profile"], key[0])
            print("%-22s %4s  not available: %s" % (label, "-", res.get("reason", "?")), file=out)
            continue
        if len(label) > 22:
            print(label, file=out)
            label = ""
        first = True
        for key, name in METRICS:
            s = res[key]
            if key == "barge_in_stop" and s["p50_ms"] is None:
                continue
            print("%-22s %4s  %-*s %7s %7s %7s" % (label if first else "", res["n"] if first else "", w, name,
                                                   fmt(s["p50_ms"]), fmt(s["p95_ms"]), fmt(s["p99_ms"])), file=out)
            first = False
            if key == "rtt":
                for c, v in res.get("by_condition", {}).items():
                    print("%-22s %4s  %-*s %7s %7s %7s" % ("", "", w, "  %s (n=%d of %d)" % (c, v["n"], v["said"]),
                                                           fmt(v["rtt"]["p50_ms"]), fmt(v["rtt"]["p95_ms"]),
                                                           fmt(v["rtt"]["p99_ms"])), file=out)
        mix = ", ".join("%s %d" % (k, v) for k, v in res["routes"].items()) or "none"
        hit = "-" if res["cache_hit_ratio"] is None else "%.2f" % res["cache_hit_ratio"]
        extra = ""
        if "barge_ins_during_playback" in res:
            extra = "; wake words said during an answer %d, heard as barge-ins %d" % (
                res["barge_ins_during_playback"], res["barge_ins_heard"])
        print("%-22s %4s  routes: %s; cache hit ratio %s; said %d, heard %d (%d word for word, %d cut short), "
              "answered %d%s" % ("", "", mix, hit, res["said"], res["heard"], res["transcripts_exact"],
                                 res["cut_short"], res["answered"], extra), file=out)
