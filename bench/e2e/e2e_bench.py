#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""sotto-bench e2e: the assistant's latency, end to end, through the real daemon.

Spoken requests are generated at run time (flite and espeak-ng voices, "hey computer. <request>", clean and mixed
with noise at 10 dB SNR by sox) and played in real time into sottod (wav capture), which answers them into a WAV
file (wav playback). Per request it measures, from the audio itself and sottod's log:
  end of speech -> first audio (rtt): the request's last spoken sample to the answer's first sound in the playback
  endpoint delay: end of speech -> the recognizer's endpoint
  ASR final lag: the endpoint -> the final transcript taken by the answer stage
  time to first token (ttft): transcript -> the answer's first text (a token of the model, an intent's reply)
  TTS first chunk: first text -> first audio written for the speaker
and per profile p50/p95/p99 of each, the route mix and the cache hit ratio.

Profiles (sotto-bench e2e --profile NAME, repeatable or comma-separated; default all):
  intents    catalogue commands (time, date, volume, units, arithmetic)
  cache      open questions asked again (the first asking fills the cache and is not counted)
  local      open questions answered by the local model (default: a synthetic SmolLM2-135M-shaped model with
             random weights, made at run time by ../shared/tools/mkgguf.py: a speed stand-in)
  cloud50    open questions escalated to a loopback OpenAI-compatible server (sotto serve) behind a proxy adding
  cloud150   50 or 150 ms of network round trip (half each way per chunk, plus one round trip to connect)
  barge-in   a wake word and a command said while a long answer plays: the command's latencies, and how long
             after the wake word the playback fell silent
  follow-up  a request without the wake word right after an answer (needs sottod's follow-up window: reported as
             not available while sottod has no such setting)
Comparisons (bench/e2e/comparisons.json, --compare NAME|all|none): each replays one profile once per variant of
sottod settings and prints the ratios; a variant whose setting sottod does not know is reported as not available.

Output: the table (or --json: one object per profile and configuration, one per line), an SVG latency CDF per
profile and a waterfall of one request's stages per profile (in the work directory, or --svg-dir).
Needs python3, sox, flite (espeak-ng for its voices), sottod and sotto beside sotto-bench, numpy for the model.
"""
import argparse
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(SRC, "bench", "speech"))
import e2e_plot  # noqa: E402
import e2e_stats as st  # noqa: E402

RATE = 16000
LEAD_S = 3.0       # silence before the first request: the brain loads its model meanwhile
WAKE_PAUSE_S = 0.4  # between the wake word and the request, as people say it
SNR_DB = 10

VOICES = {"slt": "flite:slt", "awb": "flite:awb", "rms": "flite:rms", "en-us": "espeak:en-us"}
QUICK_VOICES = ["slt", "awb"]
INTENTS = ["what time is it", "set the volume to five", "convert ten miles to kilometers",
           "what is twelve times seven", "what is the date today", "turn the volume up"]
QUESTIONS = ["tell me something about the moon", "what is the capital of france", "how do volcanoes form",
             "why is the sky blue", "who wrote hamlet", "explain how a rainbow forms", "what is the meaning of life",
             "tell me a story about a dragon"]
# Which sottod run answers a profile: "device" (no cloud), the loopback cloud behind a delay, or a run of its own
# (follow-up: its listening window would take the next wake word for a request).
SETUP = {"intents": "device", "cache": "device", "local": "device", "barge-in": "device",
         "follow-up": "follow-up",
         "cloud50": "cloud50", "cloud150": "cloud150"}
PROFILE_ORDER = ["intents", "cache", "local", "cloud50", "cloud150", "barge-in", "follow-up"]
# Settings of every run besides the files and devices; everything else is the configuration's. Answers keep their
# length (an answer cut at tts.max-answer-chars is never cached): a long one still playing when the next request
# comes is stopped by its wake word, after its generation finished, so the next request's figures are not
# affected.
BENCH_SETTINGS = ["threads.mlockall=false", "log.level=debug", "audio.playback.rate=16000"]

def dump_json(obj, path, **kw):
    with open(path, "w") as f:
        json.dump(obj, f, **kw)


def load_json(path):
    with open(path) as f:
        return json.load(f)


def read_text(path):
    with open(path, errors="replace") as f:
        return f.read()



def item(kind, voice, text, cond, gap, wake=True):
    return dict(kind=kind, voice=voice, text=text, condition=cond, gap_s=gap, wake=wake)


def profile_items(name, voices, quick):
    """The requests of a profile: (kind, voice, text, condition, seconds of silence after it). kind "measure" is
    counted, "setup" (a cache fill, an answer to interrupt) is said but not counted."""
    nv = len(voices)
    out = []
    if name == "intents":
        cmds = INTENTS[:3] if quick else INTENTS
        for i, text in enumerate(cmds):
            for k in range(1 if quick else 2):
                v = voices[(i + k) % nv]
                out.append(item("measure", v, text, "clean", 3.0))
                out.append(item("measure", v, text, "noisy", 3.0))
    elif name == "cache":
        for i, text in enumerate(QUESTIONS[:2] if quick else QUESTIONS[:3]):
            v = voices[i % nv]
            out.append(item("setup", v, text, "clean", 6.0))
            out.append(item("measure", v, text, "clean", 5.0))
            out.append(item("measure", v, text, "noisy", 5.0))
    elif name == "local":
        for i, text in enumerate(QUESTIONS[3:6] if quick else QUESTIONS[2:8]):
            out.append(item("measure", voices[i % nv], text, "clean" if i % 2 == 0 else "noisy", 6.0))
    elif name in ("cloud50", "cloud150"):
        qs = QUESTIONS[5:8] if quick else QUESTIONS[4:8]
        off = 0 if name == "cloud50" else 1
        for i, text in enumerate(qs):
            out.append(item("measure", voices[(i + off) % nv], text, "clean" if (i + off) % 2 == 0 else "noisy", 6.0))
    elif name == "barge-in":
        pairs = 2 if quick else 4
        for i in range(pairs):
            v = voices[i % nv]
            # The answer to interrupt: its first audio comes within a second or two, and it lasts a few seconds.
            # (In the condition of the barge-in: clean and noisy requests are replayed in runs of their own.)
            cond = "clean" if i % 2 == 0 else "noisy"
            out.append(item("setup", v, QUESTIONS[i % len(QUESTIONS)], cond, 2.5))
            out.append(item("barge-in", v, INTENTS[i % len(INTENTS)], cond, 3.0))
    elif name == "follow-up":
        for i in range(2 if quick else 4):
            v = voices[i % nv]
            out.append(item("setup", v, INTENTS[i % len(INTENTS)], "clean", 2.5))
            out.append(item("measure", v, INTENTS[(i + 4) % len(INTENTS)], "clean", 3.0, wake=False))
    else:
        raise KeyError(name)
    return out


# --- speech -------------------------------------------------------------------------------------------------------
class Speech:
    """TTS clips (cached per voice and text) and noise, 16 kHz mono, in work/tts."""

    def __init__(self, work, noise):
        import gen_sets  # bench/speech: tts, silence, noise mixing
        self.g = gen_sets
        self.dir = os.path.join(work, "tts")
        os.makedirs(self.dir, exist_ok=True)
        self.noise = noise
        self.ends = {}

    def clip(self, voice, text):
        name = re.sub(r"[^a-z0-9]+", "-", ("%s %s" % (voice, text)).lower()).strip("-")
        path = os.path.join(self.dir, name + ".wav")
        if not os.path.exists(path):
            self.g.tts(VOICES[voice], 0, text, path + ".tmp.wav")
            os.replace(path + ".tmp.wav", path)
        if path not in self.ends:
            s, _ = st.read_wav(path)
            self.ends[path] = (len(s) * 1000.0 / RATE, st.speech_end_ms(s, RATE))
        return path

    def silence(self, seconds):
        path = os.path.join(self.dir, "sil-%.3f.wav" % seconds)
        if not os.path.exists(path):
            self.g.silence(seconds, path)
        return path

    def build(self, items, out):
        """One capture WAV: a lead silence, then every request as a segment (wake word, pause, request, gap);
        a noisy request's whole segment (its gap too) carries the noise. Returns the requests with their audio
        times (ms): wake_start/wake_end, speech_end (the request's last spoken sample), window_end."""
        parts = [self.silence(LEAD_S)]
        t = LEAD_S * 1000.0
        planned = []
        seg_dir = os.path.join(os.path.dirname(out), "segments")
        os.makedirs(seg_dir, exist_ok=True)
        for i, it in enumerate(items):
            req = self.clip(it["voice"], it["text"])
            req_len, req_end = self.ends[req]
            seg = []
            r = dict(it, id=i + 1, wake_start_ms=t)
            if it["wake"]:
                wake = self.clip(it["voice"], "hey computer")
                wake_len, wake_end = self.ends[wake]
                seg += [wake, self.silence(WAKE_PAUSE_S)]
                r["wake_end_ms"] = t + wake_end
                off = wake_len + WAKE_PAUSE_S * 1000
            else:
                r["wake_end_ms"] = t
                off = 0.0
            seg += [req, self.silence(it["gap_s"])]
            r["speech_end_ms"] = t + off + req_end
            seg_len = off + req_len + it["gap_s"] * 1000
            path = os.path.join(seg_dir, "seg-%03d.wav" % (i + 1))
            self.g.concat(seg, path)
            if it["condition"] == "noisy":
                noisy = path[:-4] + "-noisy.wav"
                self.g.noisy(path, SNR_DB, self.noise, 1000 + i, None, noisy)
                path = noisy
            parts.append(path)
            t += seg_len
            r["window_end_ms"] = t
            planned.append(r)
        self.g.concat(parts, out)
        # sox's lengths are exact to the sample; the manifest's times come from the parts, checked here.
        total = self.g.duration(out) * 1000
        if abs(total - t) > 5:
            raise RuntimeError("%s: %.0f ms long, the parts add up to %.0f ms" % (out, total, t))
        return planned, total / 1000.0


# --- the loopback cloud and its network delay ------------------------------------------------------------------
class DelayProxy:
    """A TCP proxy on 127.0.0.1 that adds `rtt_ms` of round trip: every chunk waits rtt/2 in each direction, and a
    new connection's first bytes wait one more round trip (the TCP handshake the proxy answers at once)."""

    def __init__(self, upstream_port, rtt_ms):
        self.up = upstream_port
        self.half = rtt_ms / 2000.0
        self.connect = rtt_ms / 1000.0
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.port = self.sock.getsockname()[1]
        self.stopped = False
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while not self.stopped:
            try:
                c, _ = self.sock.accept()
            except OSError:
                return
            try:
                u = socket.create_connection(("127.0.0.1", self.up))
            except OSError:
                c.close()
                continue
            for s in (c, u):
                s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            first = [time.monotonic() + self.connect]
            threading.Thread(target=self._pump, args=(c, u, first), daemon=True).start()
            threading.Thread(target=self._pump, args=(u, c, None), daemon=True).start()

    def _pump(self, src, dst, first):
        # Chunks keep their order and each is delivered `half` after it arrived (never before the connect delay).
        import collections
        q = collections.deque()
        cv = threading.Condition()
        done = [False]

        def sender():
            while True:
                with cv:
                    while not q and not done[0]:
                        cv.wait()
                    if not q:
                        break
                    due, data = q.popleft()
                delay = due - time.monotonic()
                if delay > 0:
                    time.sleep(delay)
                try:
                    dst.sendall(data)
                except OSError:
                    break
            try:
                dst.shutdown(socket.SHUT_WR)
            except OSError:
                pass

        t = threading.Thread(target=sender, daemon=True)
        t.start()
        while True:
            try:
                data = src.recv(65536)
            except OSError:
                data = b""
            now = time.monotonic()
            with cv:
                if not data:
                    done[0] = True
                    cv.notify()
                    break
                due = now + self.half
                if first is not None:
                    due = max(due, first[0] + self.half)
                q.append((due, data))
                cv.notify()
        t.join()

    def close(self):
        self.stopped = True
        self.sock.close()


def priority(nice, rt):
    """A preexec_fn giving the child (and the threads it starts) a nice value, or SCHED_RR at priority rt > 0;
    None when neither is asked. Both need CAP_SYS_NICE; without it the child runs as it would have (the report
    shows what was asked). On a busy shared machine a normal-priority sottod's speech thread waits for the CPU and
    falls seconds behind the microphone; a device runs little else."""
    if not nice and not rt:
        return None

    def apply():
        try:
            if rt:
                os.sched_setscheduler(0, os.SCHED_RR, os.sched_param(rt))
            else:
                os.setpriority(os.PRIO_PROCESS, 0, nice)
        except OSError:
            pass
    return apply


def start_cloud(sotto, model, work, nice, rt):
    """sotto serve on the model (loopback, one thread); returns (process, port)."""
    out, err = os.path.join(work, "serve.out"), os.path.join(work, "serve.log")
    with open(out, "w") as o, open(err, "w") as e:
        p = subprocess.Popen([sotto, "serve", "-m", model, "--port", "0", "--bind", "127.0.0.1", "--model-name",
                              "loopback-cloud", "-t", "1"], stdout=o, stderr=e, preexec_fn=priority(nice, rt))
        CHILDREN.append(p)
    for _ in range(600):
        m = re.search(r"listening on http://127\.0\.0\.1:(\d+)", read_text(out))
        if m:
            return p, int(m.group(1))
        if p.poll() is not None:
            break
        time.sleep(0.1)
    p.kill()
    raise RuntimeError("sotto serve did not start (see %s)" % err)


# --- sottod ----------------------------------------------------------------------------------------------------
def probe(sottod, config, overrides):
    """None when sottod accepts these settings, else its reason (an unknown setting, a bad value)."""
    args = [sottod, "--config", config]
    for o in overrides:
        args += ["--set", o]
    # Invalid settings are refused before anything starts (exit 2); valid ones start a daemon on null audio,
    # stopped at once.
    with tempfile.TemporaryDirectory(prefix="sotto-e2e-probe-") as d:
        args += ["--set", "paths.state-dir=" + d, "--set", "paths.runtime-dir=" + d + "/rt", "--set",
                 "paths.log-dir=" + d + "/log", "--set", "threads.mlockall=false", "--set", "model.path=/nonexistent"]
        p = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            _, err = p.communicate(timeout=1.5)
        except subprocess.TimeoutExpired:
            p.terminate()
            p.communicate()
            return None
    if p.returncode == 2:
        lines = [l for l in err.decode(errors="replace").splitlines() if l.strip()]
        return "; ".join(lines[:-1] or lines) or "sottod refused the settings"
    return None


def run_daemon(a, bins, run_dir, state, mic_s, overrides, cloud_url, calibration):
    """sottod on run_dir/mic.wav (paced) answering into run_dir/answers.wav, until every request heard after the
    end of the input was answered aloud or stopped (at most 30 s more); then SIGTERM. Returns its exit status."""
    os.makedirs(state, exist_ok=True)
    if calibration and os.path.exists(calibration):
        shutil.copy(calibration, os.path.join(state, "semantic-calibration"))
    sets = ["paths.state-dir=" + state, "paths.runtime-dir=" + run_dir + "/rt", "paths.log-dir=" + run_dir + "/log",
            "audio.capture.backend=wav", "audio.capture.device=" + run_dir + "/mic.wav",
            "audio.playback.backend=wav", "audio.playback.device=" + run_dir + "/answers.wav",
            "model.path=" + (a.model or "/nonexistent/model.gguf")] + BENCH_SETTINGS
    if cloud_url:
        sets += ["cloud.endpoint=" + cloud_url, "cloud.model=loopback-cloud"]
    sets += a.set + overrides
    args = [bins["sottod"], "--config", a.config]
    for s in sets:
        args += ["--set", s]
    log_path = os.path.join(run_dir, "sottod.log")
    with open(log_path, "w") as log:
        t0 = time.monotonic()
        p = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=log, preexec_fn=priority(a.nice, a.rt))
        CHILDREN.append(p)
        # A starved speech thread may run a minute behind: wait for it up to the input's length again.
        end_at, deadline = t0 + mic_s + 1.0, t0 + mic_s + max(30.0, mic_s)
        last_size, quiet_since = -1, t0
        while p.poll() is None and time.monotonic() < deadline:
            time.sleep(0.5)
            if time.monotonic() < end_at:
                continue
            # A loaded machine's speech thread runs seconds behind the microphone: done when every wake word heard
            # has its final transcript, every transcript its answer said (or stopped), and the log has been quiet
            # for 2 s.
            text = read_text(log_path)
            heard = text.count("speech[final]")
            woke = len(re.findall(r"speech\[(?:wake|barge-in)\]", text))
            # Answered and begun to be spoken (the last answer need not be heard to its end).
            failed = len(re.findall(r"answer\[(?:failed|no-brain)\]", text))
            begun = set(re.findall(r"(?:answer\[first-audio\]: answer|tts\[(?:spoken|cancelled)\]: answer) (\d+)",
                                   text))
            said = min(text.count("answer[answered]") + failed, len(begun) + failed)
            size = sum(1 for line in text.splitlines() if "daemon[status]" not in line)  # STATUS comes every second
            if size != last_size:
                last_size, quiet_since = size, time.monotonic()
            if said >= heard and woke <= heard and time.monotonic() - quiet_since >= 2.0:
                break
        time.sleep(0.5)  # the last phrase's tail leaves the playback ring
        if p.poll() is not None:
            return p.returncode, "sottod stopped on its own (status %d) after %.0f s" % (p.returncode,
                                                                                       time.monotonic() - t0)
        rc = stop(p)
        return rc, None if rc == 0 else "sottod exited with status %d on SIGTERM" % rc


CHILDREN = []  # sottod and sotto serve while they run: stopped however the harness ends


def stop(p):
    if p.poll() is None:
        p.send_signal(signal.SIGTERM)
        try:
            p.wait(timeout=20)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
    if p in CHILDREN:
        CHILDREN.remove(p)
    return p.returncode


def loadavg():
    try:
        return " ".join(read_text("/proc/loadavg").split()[:3])
    except OSError:
        return "?"


def cpu_model():
    try:
        for line in read_text("/proc/cpuinfo").splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown"


# --- analysis of a work directory (also --report) --------------------------------------------------------------
def analyse_run(run_dir):
    """A finished run's manifest, log and playback -> its measured requests."""
    man = load_json(os.path.join(run_dir, "manifest.json"))
    with open(os.path.join(run_dir, "sottod.log"), errors="replace") as f:
        log = st.parse_log(f.readlines())
    if man.get("failure") and not log["finals"]:
        return man, None  # sottod did not run (a refused setting, a crash at start): its profiles are unavailable
    peaks = None
    try:
        s, rate = st.read_wav(os.path.join(run_dir, "answers.wav"))
        peaks = st.frame_peaks(s, rate)
    except (OSError, ValueError, EOFError) as e:
        man.setdefault("notes", []).append("no playback file (%s): first audio from sottod's log" % e)
    recs = st.measure(man["requests"], log, peaks)
    if (log["brain_ready_line"] is None or
            (log["first_final_line"] is not None and log["brain_ready_line"] > log["first_final_line"])):
        man.setdefault("notes", []).append("the brain was not ready before the first request")
    man["notes"] = man.get("notes", []) + log["notes"]
    return man, recs


def results_of(work):
    """Every run of the work directory -> (per profile/config results in order, records by (config, profile),
    notes)."""
    runs = []
    for name in sorted(os.listdir(os.path.join(work, "runs"))):
        d = os.path.join(work, "runs", name)
        if os.path.exists(os.path.join(d, "manifest.json")):
            runs.append(analyse_run(d))
    runs.sort(key=lambda x: x[0].get("order", 0))
    by = {}
    notes = []
    for man, recs in runs:
        for n in man.get("notes", []):
            notes.append("%s: %s" % (man["name"], n))
        for r in recs or []:
            by.setdefault((man["config"], r["profile"]), []).append(r)
    return runs, by, notes


def assemble(work):
    """The result objects in print order: the default configuration's profiles, then each comparison's variants
    (with ratios to the first variant); unavailable profiles and variants carry their reason."""
    meta = load_json(os.path.join(work, "plan.json"))
    runs, by, notes = results_of(work)
    failed = {}
    for man, _ in runs:
        if man.get("failure"):
            failed[(man["config"], tuple(man["profiles"]))] = man["failure"]
    out = []
    for prof in meta["profiles"]:
        key = ("default", prof)
        if prof in meta.get("unavailable", {}):
            out.append(st.unavailable(prof, meta["unavailable"][prof], {"config": "default"}))
        elif key in by:
            out.append(st.profile_result(prof, by[key], {"config": "default"}))
        else:
            why = next((v for k, v in failed.items() if k[0] == "default" and prof in k[1]), "no run")
            out.append(st.unavailable(prof, why, {"config": "default"}))
    for cmp in meta.get("comparisons", []):
        base = None
        for vname, overrides in cmp["variants"]:
            label = "%s:%s" % (cmp["name"], vname)
            extra = {"config": label, "overrides": overrides}
            if cmp.get("reason"):
                out.append(st.unavailable(cmp["profile"], cmp["reason"], extra))
                continue
            recs = by.get((label, cmp["profile"]))
            if recs is None:
                out.append(st.unavailable(cmp["profile"], failed.get((label, (cmp["profile"],)), "no run"), extra))
                continue
            res = st.profile_result(cmp["profile"], recs, extra)
            if base is None:
                base = res
            else:
                res["ratio_to"] = base["config"]
                res["ratios"] = st.comparison_ratios(base, res)
            out.append(res)
    return meta, out, by, notes


def print_requests(by, out):
    """Every request of the default configuration: what was said and heard, its route and stage latencies."""
    print("\nrequests (ms from the end of speech; - = not measured):", file=out)
    print("  %-9s %-8s %-5s %-6s %-34s %-34s %-13s %6s %6s %6s %7s %6s" %
          ("profile", "kind", "voice", "noise", "said", "heard", "route", "rtt", "endpt", "asr", "ttft", "tts"),
          file=out)
    for (config, _), recs in by.items():
        if config != "default":
            continue
        for r in recs:
            print("  %-9s %-8s %-5s %-6s %-34.34s %-34.34s %-13s %6s %6s %6s %7s %6s" %
                  (r["profile"], r.get("kind", ""), r.get("voice", ""), r.get("condition", ""), r.get("text", ""),
                   (r.get("transcript") or "-") if r.get("heard") else "(not heard)", r.get("route") or "-",
                   st.fmt(r.get("rtt")), st.fmt(r.get("endpoint_delay")), st.fmt(r.get("asr_final_lag")),
                   st.fmt(r.get("ttft")), st.fmt(r.get("tts_first_chunk"))), file=out)


def report(work, as_json, svg_dir, out=sys.stdout, requests=False):
    meta, results, by, notes = assemble(work)
    if as_json:
        for r in results:
            print(json.dumps(r, sort_keys=False), file=out)
        draw(results, by, meta, svg_dir, sys.stderr)
        return results
    sched = ("SCHED_RR %d" % meta["rt"]) if meta.get("rt") else "nice %s" % meta.get("nice", 0)
    print("system: %s | %s CPUs | load average %s (start) %s (end) | sottod at %s | model %s" %
          (meta.get("cpu", "?"), meta.get("cpus", "?"), meta.get("load_start", "?"), meta.get("load_end", "?"),
           sched, meta.get("model_label", "?")), file=out)
    print("speech: voices %s, clean and pink noise at %d dB SNR (sox); played in real time into sottod (wav capture "
          "and playback); percentiles are nearest-rank over n requests with a measured round trip" %
          (", ".join(meta.get("voices", [])), SNR_DB), file=out)
    print("", file=out)
    st.table([r for r in results if r.get("config") == "default"], out)
    cmps = [r for r in results if r.get("config") != "default"]
    if cmps:
        print("\ncomparisons (each variant replays the profile; ratio = variant / first variant, < 1 is faster):",
              file=out)
        st.table(cmps, out)
        for r in cmps:
            if r.get("ratios"):
                rr = r["ratios"]
                print("  %s vs %s: rtt p50 x%s p95 x%s; endpoint delay p95 x%s; ttft p95 x%s; TTS first chunk p95 x%s"
                      % (r["config"], r["ratio_to"], rr.get("rtt_p50", "-"), rr.get("rtt_p95", "-"),
                         rr.get("endpoint_delay_p95", "-"), rr.get("ttft_p95", "-"),
                         rr.get("tts_first_chunk_p95", "-")), file=out)
    if requests:
        print_requests(by, out)
    for n in notes:
        print("note: " + n, file=out)
    draw(results, by, meta, svg_dir, out)
    return results


def draw(results, by, meta, svg_dir, out):
    """The latency CDF per profile and the waterfall of each profile's median request, as SVG files."""
    if svg_dir:
        os.makedirs(svg_dir, exist_ok=True)
        cdf = os.path.join(svg_dir, "e2e-cdf.svg")
        wf = os.path.join(svg_dir, "e2e-waterfall.svg")
        series = [(r["profile"], [x["rtt"] for x in by.get(("default", r["profile"]), [])
                                  if x.get("rtt") is not None and x.get("kind") in ("measure", "barge-in")])
                  for r in results if r.get("config") == "default" and r.get("available")]
        drawn = []
        if e2e_plot.cdf_svg(series, cdf, "end of speech -> first audio, per profile (sottod, %s)" %
                            meta.get("cpu", "?")):
            drawn.append(cdf)
        picks = []
        for prof, _ in series:
            rec = e2e_plot.median_request([x for x in by.get(("default", prof), [])
                                           if x.get("kind") in ("measure", "barge-in")])
            if rec:
                picks.append((prof, rec))
        if e2e_plot.waterfall_svg(picks, wf):
            drawn.append(wf)
        if drawn:
            print("plots: %s" % ", ".join(drawn), file=out)


# --- the run ---------------------------------------------------------------------------------------------------
def make_model(a, work):
    if a.model:
        return a.model, "%s (--model)" % a.model
    cache = os.path.abspath(a.model_dir or os.path.join(work, "models"))
    os.makedirs(cache, exist_ok=True)
    path = os.path.join(cache, "smollm2-135m-q8_0.synthetic.gguf")
    if not os.path.exists(path):
        tool = os.path.join(os.path.dirname(SRC), "shared", "tools", "mkgguf.py")
        if not os.path.exists(tool):
            raise RuntimeError("no model: --model FILE, or ../shared/tools/mkgguf.py beside the source tree")
        py = "/usr/bin/python3" if os.access("/usr/bin/python3", os.X_OK) else sys.executable
        print("making the local model: SmolLM2-135M's shape, q8_0, random weights (mkgguf.py, about a minute)",
              file=sys.stderr)
        subprocess.run([py, tool, "--shape", "smollm2-135m", "--type", "q8_0", "--seed", "1", "-q", "-o",
                        path + ".tmp"], check=True, stdout=subprocess.DEVNULL)
        os.replace(path + ".tmp", path)
    return path, "synthetic SmolLM2-135M shape, q8_0, random weights (a speed stand-in)"


def calibrate(bins, a, model, work):
    """The semantic cache's check of the model, once per model file (sottod would spend seconds on it at start)."""
    cal = model + ".semantic-calibration"
    if os.path.exists(cal):
        return cal
    d = os.path.join(work, "calibrate")
    subprocess.run([bins["sotto"], "ask", "--config", a.config, "--state-dir", d, "--model", model, "--privacy",
                    "offline", "what time is it"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    src = os.path.join(d, "semantic-calibration")
    if os.path.exists(src):
        try:
            shutil.copy(src, cal)
            return cal
        except OSError:
            return src
    return None


def run_all(a, bins, work, profiles, comparisons, requires):
    meta = {"cpu": cpu_model(), "cpus": len(os.sched_getaffinity(0)), "load_start": loadavg(), "profiles": profiles,
            "nice": a.nice, "rt": a.rt,
            "unavailable": {}, "comparisons": []}
    os.makedirs(os.path.join(work, "runs"), exist_ok=True)
    voices = QUICK_VOICES if a.quick else list(VOICES)
    if a.voices:
        voices = a.voices.split(",")
        bad = [v for v in voices if v not in VOICES]
        if bad:
            raise SystemExit("sotto-bench e2e: unknown voice(s) %s (known: %s)" % (" ".join(bad), " ".join(VOICES)))
    if not shutil.which("espeak-ng"):
        voices = [v for v in voices if not VOICES[v].startswith("espeak:")] or ["slt"]
    meta["voices"] = voices
    need_model = any(p in profiles for p in ("cache", "local", "cloud50", "cloud150", "barge-in"))
    model, label = (None, "none")
    if need_model:
        model, label = make_model(a, work)
    a.model = model
    meta["model_label"] = label
    cal = calibrate(bins, a, model, work) if model else None
    sp = Speech(work, a.noise)

    # Profiles that need settings sottod may not have yet.
    for prof in profiles:
        req = requires.get(prof)
        if req:
            why = probe(bins["sottod"], a.config, req["requires"])
            if why:
                meta["unavailable"][prof] = "%s: %s" % (req.get("why", "needs " + " ".join(req["requires"])), why)

    plan = []  # (run name, config label, overrides, profiles, setup)
    setups = {}
    for prof in profiles:
        if prof in meta["unavailable"]:
            continue
        setups.setdefault(SETUP[prof], []).append(prof)
    for setup, profs in setups.items():
        extra = []
        for p in profs:
            extra += (requires.get(p) or {}).get("requires", [])
        plan.append(("%s" % setup, "default", extra, profs, setup))
    for cmp in comparisons:
        c = dict(cmp)
        if c["profile"] not in SETUP:
            c["reason"] = "unknown profile %s" % c["profile"]
        else:
            for vname, overrides in c["variants"]:
                why = probe(bins["sottod"], a.config, overrides)
                if why:
                    c["reason"] = "variant %s (%s): %s" % (vname, " ".join(overrides), why)
                    break
        if not c.get("reason"):
            for vname, overrides in c["variants"]:
                plan.append(("cmp-%s-%s" % (c["name"], vname), "%s:%s" % (c["name"], vname), overrides,
                             [c["profile"]], SETUP[c["profile"]]))
        meta["comparisons"].append(c)
    dump_json(meta, os.path.join(work, "plan.json"), indent=1)

    cloud = None
    try:
        # Clean and noisy requests are replayed in runs of their own (clean first), sharing the state directory
        # (the noisy run's cache repeats find what the clean run cached): a recognizer that falls behind the
        # microphone in noise does not delay the clean requests after it.
        runs = []
        for name, config, overrides, profs, setup in plan:
            for cond in ("clean", "noisy"):
                items = [it for p in profs for it in (dict(x, profile=p) for x in profile_items(p, voices, a.quick))
                         if it["condition"] == cond]
                if items:
                    runs.append(("%s-%s" % (name, cond), config, overrides, profs, setup, items, name))
        for order, (name, config, overrides, profs, setup, items, state_name) in enumerate(runs):
            run_dir = os.path.join(work, "runs", "%02d-%s" % (order, name))
            os.makedirs(run_dir, exist_ok=True)
            # Warm up, then measure: the first request of a run (models paged in, the brain loaded) is not counted.
            items = [dict(item("setup", voices[0], INTENTS[0], "clean", 3.0), profile="warm-up")] + items
            planned, mic_s = sp.build(items, os.path.join(run_dir, "mic.wav"))
            man = {"name": name, "order": order, "config": config, "overrides": overrides, "profiles": profs,
                   "setup": setup, "requests": planned, "mic_s": mic_s, "load_start": loadavg()}
            url = None
            proxy = None
            if setup.startswith("cloud"):
                if cloud is None:
                    cloud = start_cloud(bins["sotto"], model, work, a.nice, a.rt)
                proxy = DelayProxy(cloud[1], int(setup[5:]))
                url = "http://127.0.0.1:%d/v1" % proxy.port
                man["cloud"] = "sotto serve (loopback) behind a proxy adding %s ms of round trip" % setup[5:]
            print("[%s] %s: %d requests, %.0f s of audio in real time (%s)" %
                  (name, ", ".join(profs), len(planned), mic_s, config), file=sys.stderr)
            rc, failure = run_daemon(a, bins, run_dir, os.path.join(work, "state", state_name), mic_s, overrides,
                                     url, cal)
            if proxy:
                proxy.close()
            man["load_end"] = loadavg()
            if failure:
                tail = read_text(os.path.join(run_dir, "sottod.log")).strip().splitlines()[-3:]
                man["failure"] = failure + (": " + " | ".join(tail) if tail else "")
                man["notes"] = [man["failure"]]
            dump_json(man, os.path.join(run_dir, "manifest.json"), indent=1)
    finally:
        for p in list(CHILDREN):
            stop(p)
    meta["load_end"] = loadavg()
    dump_json(meta, os.path.join(work, "plan.json"), indent=1)


def main(argv=None):
    ap = argparse.ArgumentParser(prog="sotto-bench e2e", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--json", action="store_true", help="one JSON object per profile (and compared variant)")
    ap.add_argument("--profile", action="append", default=[], help="profile(s) to run (default: all)")
    ap.add_argument("--quick", action="store_true", help="fewer requests and two voices")
    ap.add_argument("--compare", default="all", help="comparisons to run: all, none, or names (comma-separated)")
    ap.add_argument("--comparisons", default=os.path.join(HERE, "comparisons.json"), help="comparisons file")
    ap.add_argument("--voices", default=None, help="comma-separated: %s" % ", ".join(VOICES))
    ap.add_argument("--noise", default="pink", choices=["pink", "white", "brown", "music"],
                    help="noise mixed at 10 dB SNR into the noisy requests (default pink)")
    ap.add_argument("--model", default=None, help="GGUF model (default: the synthetic 135M shape, made here)")
    ap.add_argument("--model-dir", default=None, help="where the synthetic model is kept between runs")
    ap.add_argument("--config", default=None, help="sottod configuration (default: config/sotto.xml)")
    ap.add_argument("--set", action="append", default=[], help="sottod setting for every run, KEY=VALUE")
    ap.add_argument("--nice", type=int, default=0,
                    help="nice value of sottod and the loopback cloud (negative: ahead of other work on a shared "
                         "machine; needs privilege)")
    ap.add_argument("--rt", type=int, default=0, metavar="PRIO",
                    help="run sottod and the loopback cloud under SCHED_RR at this priority (1-99; needs privilege): "
                         "a device's view on a machine busy with other work")
    ap.add_argument("--bin", default=None, help="directory of sottod and sotto (default: sotto-bench's)")
    ap.add_argument("--work", default=None, help="work directory (default: a temporary one)")
    ap.add_argument("--keep", action="store_true", help="keep the work directory (WAVs, logs, manifests)")
    ap.add_argument("--svg-dir", default=None, help="where the plots go (default: the work directory; "
                                                    "with a temporary one, the current directory)")
    ap.add_argument("--requests", action="store_true", help="also list every request (said, heard, route, ms)")
    ap.add_argument("--report", default=None, help="print the results of a kept work directory again (no run)")
    a = ap.parse_args(argv)
    if not 0 <= a.rt <= 99:
        print("sotto-bench e2e: --rt takes 1 to 99 (0: off)", file=sys.stderr)
        return 2

    if a.report:
        if not os.path.exists(os.path.join(a.report, "plan.json")):
            print("sotto-bench e2e: %s is not a work directory of sotto-bench e2e (no plan.json)" % a.report,
                  file=sys.stderr)
            return 2
        report(a.report, a.json, a.svg_dir or a.report, requests=a.requests)
        return 0
    profiles = []
    for p in a.profile:
        profiles += [x for x in p.split(",") if x]
    profiles = profiles or list(PROFILE_ORDER)
    bad = [p for p in profiles if p not in SETUP]
    if bad:
        print("sotto-bench e2e: unknown profile(s) %s (known: %s)" % (" ".join(bad), " ".join(PROFILE_ORDER)),
              file=sys.stderr)
        return 2
    profiles = [p for p in PROFILE_ORDER if p in profiles]
    try:
        spec = load_json(a.comparisons)
    except (OSError, ValueError) as e:
        print("sotto-bench e2e: cannot read %s: %s" % (a.comparisons, e), file=sys.stderr)
        return 2
    comparisons = spec.get("comparisons", [])
    if a.compare == "none":
        comparisons = []
    elif a.compare != "all":
        names = a.compare.split(",")
        unknown = set(names) - {c["name"] for c in comparisons}
        if unknown:
            print("sotto-bench e2e: unknown comparison(s) %s" % " ".join(sorted(unknown)), file=sys.stderr)
            return 2
        comparisons = [c for c in comparisons if c["name"] in names]
    if a.profile:
        # A chosen profile: only the comparisons of the chosen profiles.
        comparisons = [c for c in comparisons if c["profile"] in profiles]
    a.config = os.path.abspath(a.config or os.path.join(SRC, "config", "sotto.xml"))
    bindir = a.bin or os.path.join(SRC, "build", "host-release")
    bins = {n: os.path.join(bindir, n) for n in ("sottod", "sotto")}
    for n, path in bins.items():
        if not os.access(path, os.X_OK):
            print("sotto-bench e2e: %s not found (build it: cmake --build build/host-release --target sottod sotto)"
                  % path, file=sys.stderr)
            return 1
    missing = [t for t in ("sox", "flite") if not shutil.which(t)]
    if missing:
        print("sotto-bench e2e: %s missing (apt-get install sox flite espeak-ng)" % " ".join(missing), file=sys.stderr)
        return 1
    if a.model:
        a.model = os.path.abspath(a.model)
    work = os.path.abspath(a.work) if a.work else tempfile.mkdtemp(prefix="sotto-e2e-")
    os.makedirs(work, exist_ok=True)
    if a.work and os.path.exists(os.path.join(work, "runs")):
        shutil.rmtree(os.path.join(work, "runs"))
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    t0 = time.time()
    try:
        run_all(a, bins, work, profiles, comparisons, spec.get("profiles", {}))
        svg_dir = a.svg_dir or (work if (a.work or a.keep) else os.getcwd())
        report(work, a.json, svg_dir, requests=a.requests)
        if not a.json:
            print("sotto-bench e2e: done in %.0f s; work directory %s%s" %
                  (time.time() - t0, work, "" if (a.keep or a.work) else " (removed)"))
    finally:
        if not (a.keep or a.work):
            shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
