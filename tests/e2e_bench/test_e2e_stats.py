# SPDX-License-Identifier: MIT
# The latency harness's analysis (bench/e2e/e2e_stats.py) on hand-made inputs: nearest-rank percentiles, sottod's
# log lines (answer ids shifted by announcements and dropped transcripts), onsets and stops in the playback, the
# join of requests said with what was heard and played, the per-profile JSON object's shape; and
# `sotto-bench e2e --report DIR --json` on a hand-made work directory (the interface checks use). Run by ctest
# (E2eBench.Stats) as `python3 -m unittest`; no daemon, no speech synthesis: a second or two.
import array
import json
import os
import subprocess
import sys
import tempfile
import unittest
import wave

SRC = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(SRC, "bench", "e2e"))
import e2e_stats as st  # noqa: E402

TRIPLE = {"p50_ms", "p95_ms", "p99_ms"}


def dump_json(obj, path, **kw):
    with open(path, "w") as f:
        json.dump(obj, f, **kw)


class PercentileTest(unittest.TestCase):
    def test_nearest_rank(self):
        vals = list(range(100, 0, -1))  # 1..100, unsorted
        self.assertEqual(st.percentile(vals, 50), 50)
        self.assertEqual(st.percentile(vals, 95), 95)
        self.assertEqual(st.percentile(vals, 99), 99)
        self.assertEqual(st.percentile(vals, 100), 100)
        # Three values: the median is the middle one, p95 and p99 the largest (no interpolation).
        self.assertEqual(st.percentile([30, 10, 20], 50), 20)
        self.assertEqual(st.percentile([30, 10, 20], 95), 30)
        self.assertEqual(st.percentile([10, 20, 30, 40], 50), 20)
        self.assertEqual(st.percentile([7], 99), 7)
        # 20 values: p95 is the 19th, p99 the 20th.
        twenty = [float(i) for i in range(1, 21)]
        self.assertEqual(st.percentile(twenty, 95), 19.0)
        self.assertEqual(st.percentile(twenty, 99), 20.0)

    def test_missing_values(self):
        self.assertIsNone(st.percentile([], 50))
        self.assertIsNone(st.percentile([None, float("nan")], 50))
        self.assertEqual(st.percentile([None, 5, float("nan"), 3], 50), 3)
        with self.assertRaises(ValueError):
            st.percentile([1], 0)
        with self.assertRaises(ValueError):
            st.percentile([1], 101)

    def test_summary(self):
        s = st.summary([1.04, 2.0, 3.0])
        self.assertEqual(set(s), TRIPLE)
        self.assertEqual(s, {"p50_ms": 2.0, "p95_ms": 3.0, "p99_ms": 3.0})
        self.assertEqual(st.summary([12.345])["p50_ms"], 12.3)
        self.assertEqual(st.summary([]), {"p50_ms": None, "p95_ms": None, "p99_ms": None})

    def test_ratio(self):
        self.assertEqual(st.ratio(150, 300), 0.5)
        self.assertIsNone(st.ratio(None, 300))
        self.assertIsNone(st.ratio(1, 0))


LOG = [
    'info daemon[starting]: sottod starting',
    'info brain[ready]: answering requests',
    'info speech[wake]: wake word at 4000 ms of audio (0 ms behind the microphone)',
    # A turn semantic endpointing ended: the delay is followed by why.
    'debug speech[final]: final at 6000 ms of audio, endpoint 120 ms after speech (a whole command), 4 words '
    '(grammar search, confidence 1.00): "what time is it"',
    'info answer[answered]: request 1: route=intent reason=intent-confident, 23 bytes of answer, first text 0.6 ms '
    'after the transcript',
    'info answer[first-audio]: answer 1: first audio 120 ms after the endpoint (420 ms after the end of speech), '
    '40.6 ms after the transcript',
    'info tts[spoken]: answer 1: 1 phrases, 1.07 s of audio',
    # A timer's announcement takes answer id 2: request 2's audio is answer 3.
    'info answer[announcement]: answer 2: announcement (20 bytes)',
    'info tts[spoken]: answer 2: 1 phrases, 1.50 s of audio',
    # info level: no words; its answer's first audio comes before its answered line (the answer is still running).
    'info speech[final]: final transcript at 12000 ms of audio, endpoint 300 ms after speech, 6 words (lm search, '
    'confidence 0.83)',
    'info answer[first-audio]: answer 3: first audio 400 ms after the endpoint (700 ms after the end of speech), '
    '150.0 ms after the transcript',
    'info tts[cancelled]: answer 3 stopped after 2.10 s of audio',
    'info answer[answered]: request 2: route=local reason=local-best-effort, 54 bytes of answer, first text 100.0 '
    'ms after the transcript, cancelled',
    # Transcript 3 never reached the brain; transcript 4 is answer 4.
    'debug speech[final]: final at 20000 ms of audio, endpoint 300 ms after speech, 2 words (lm search, confidence '
    '0.50): "two words"',
    'warning speech[transcript-dropped]: the brain\'s transcript mailbox is full: transcript 3 dropped',
    'debug speech[final]: final at 26000 ms of audio, endpoint 300 ms after speech, 5 words (lm search, confidence '
    '0.90): "tell me about the moon"',
    'info answer[answered]: request 4: route=cache reason=cache-exact, 60 bytes of answer, first text 1.5 ms after '
    'the transcript',
    'info answer[first-audio]: answer 4: first audio 90 ms after the endpoint (390 ms after the end of speech), '
    '30.0 ms after the transcript',
    'info speech[metrics]: 4 wakes, 19 partials, 4 finals, 0 barge-ins, 0 transcripts dropped; partial lag p50 1.0 '
    'p95 2.0 ms; final lag p50 3.5 p95 9.0 ms; endpoint delay p50 300 p95 300 ms',
]


class ParseNumberedLogTest(unittest.TestCase):
    """Today's log names the request in the final and first-audio lines: records join by that number, whatever
    order the lines come in (an answer prepared from a partial is routed and spoken before its final is logged)."""

    def test_joined_by_request_number(self):
        lines = [
            'info router[decision]: route=intent reason=intent-confident',
            'info answer[answered]: request 2: route=intent reason=intent-confident, 19 bytes of answer, first text '
            '0.3 ms after the transcript',
            'info answer[first-audio]: answer 2 (request 2): first audio 30 ms after the endpoint (150 ms after the '
            'end of speech), 11.7 ms after the transcript',
            'debug speech[final]: request 2: final at 9000 ms of audio, endpoint 120 ms after speech (a whole '
            'command), 4 words (grammar search, confidence 1.00): "what time is it"',
            'debug speech[final]: request 1: final at 4000 ms of audio, endpoint 300 ms after speech, 5 words (lm '
            'search, confidence 0.50): "set a ten minute timer"',
            'debug speech[final]: request 1: final at 4100 ms of audio, endpoint 300 ms after speech, 5 words (lm '
            'search, confidence 0.50): "a duplicate"',
            'info answer[first-audio]: answer 1 (request 1): first audio 40 ms after the endpoint (340 ms after the '
            'end of speech), 14.3 ms after the transcript',
        ]
        log = st.parse_log(lines)
        f = {x["seq"]: x for x in log["finals"]}
        self.assertEqual(sorted(f), [1, 2])
        self.assertEqual((f[2]["transcript"], f[2]["route"], f[2]["after_speech_ms"]), ("what time is it", "intent", 150))
        self.assertEqual((f[1]["transcript"], f[1]["after_speech_ms"]), ("set a ten minute timer", 340))
        self.assertNotIn("route", f[1])
        self.assertTrue(any("second final for request 1" in n for n in log["notes"]))


class ParseLogTest(unittest.TestCase):
    def test_lines(self):
        log = st.parse_log(LOG)
        f = {x["seq"]: x for x in log["finals"]}
        self.assertEqual(len(f), 4)
        self.assertEqual((f[1]["transcript"], f[1]["endpoint_ms"]), ("what time is it", 120))
        self.assertFalse(any("unparsed" in n for n in log["notes"]))
        # A final line of a format the harness does not know is said, not dropped in silence.
        odd = st.parse_log(['debug speech[final]: final at 6000 ms of audio, endpoint after a new reason'])
        self.assertEqual(odd["finals"], [])
        self.assertTrue(any("unparsed" in n for n in odd["notes"]))
        self.assertEqual((f[1]["route"], f[1]["answer_id"], f[1]["after_speech_ms"]), ("intent", 1, 420))
        self.assertEqual(f[1]["first_text_ms"], 0.6)
        self.assertIsNone(f[2]["transcript"])  # info level
        self.assertEqual((f[2]["route"], f[2]["answer_id"], f[2]["after_transcript_ms"]), ("local", 3, 150.0))
        self.assertEqual(f[2]["flags"], "cancelled")
        self.assertEqual(f[2]["cancelled_s"], 2.1)
        self.assertNotIn("answer_id", f[3])  # dropped: never answered
        self.assertEqual((f[4]["route"], f[4]["answer_id"], f[4]["after_endpoint_ms"]), ("cache", 4, 90))
        self.assertEqual(log["announcements"], 1)
        self.assertEqual(log["dropped"], 1)
        self.assertEqual([w["at_ms"] for w in log["wakes"]], [4000])
        self.assertLess(log["brain_ready_line"], log["first_final_line"])
        self.assertTrue(any("final lag p50 3.5" in n for n in log["notes"]))
        self.assertEqual(log["capture_dropped_frames"], 0)
        status = ('info daemon[status]: STATUS: listening on wav:/x/mic.wav 16000 Hz, level -17.9 dBFS; speaker '
                  'wav:/x/answers.wav 16000 Hz; privacy private; %d frames, %d dropped, 0 device errors; echo')
        log = st.parse_log([status % (224800, 0), status % (240800, 10912)])
        self.assertEqual(log["capture_dropped_frames"], 10912)
        self.assertTrue(any("dropped 10912 of 240800 frames" in n for n in log["notes"]))


def peaks_with(sound_ms, total_ms):
    """Frame peaks (10 ms frames) silent except for the [start, end) ms spans in sound_ms."""
    p = [0] * (total_ms // st.FRAME_MS)
    for a, b in sound_ms:
        for f in range(a // st.FRAME_MS, b // st.FRAME_MS):
            p[f] = 5000
    return p


class AudioTest(unittest.TestCase):
    def test_speech_end(self):
        s = array.array("h", [0] * 1600 + [8000, -8000] * 800 + [100] * 800 + [0] * 1600)  # speech 100-200 ms
        self.assertAlmostEqual(st.speech_end_ms(s, 16000), 200.0)
        self.assertEqual(st.speech_end_ms(array.array("h", [0] * 100), 16000), 0.0)

    def test_frame_peaks(self):
        s = array.array("h", [0] * 160 + [-300] + [0] * 159 + [5] * 160)
        self.assertEqual(st.frame_peaks(s, 16000), [0, 300, 5])

    def test_onset_needs_silence_before(self):
        p = peaks_with([(1000, 1500), (1700, 2500)], 3000)
        self.assertEqual(st.onset_ms(p, 1200, 3000), 1700)  # inside a sound: the next one after a pause
        self.assertEqual(st.onset_ms(p, 900, 3000), 1000)
        self.assertIsNone(st.onset_ms(p, 2600, 3000))
        self.assertEqual(st.onset_ms(p, 0, 3000), 1000)

    def test_stop(self):
        p = peaks_with([(1000, 1500), (1600, 2200)], 3000)  # a pause between phrases is not the end
        self.assertEqual(st.silent_from_ms(p, 1000, 3000), 2200)
        self.assertEqual(st.silent_from_ms(p, 1000, 1550), 1500)
        self.assertTrue(st.sounding(p, 1300))
        self.assertFalse(st.sounding(p, 2900))


def planned(i, profile, kind, wake_start, speech_end, window_end, wake_end=None):
    return dict(id=i, profile=profile, kind=kind, voice="slt", text="t%d" % i, condition="clean",
                wake_start_ms=wake_start, wake_end_ms=wake_end or wake_start + 800, speech_end_ms=speech_end,
                window_end_ms=window_end)


class MeasureTest(unittest.TestCase):
    def test_join(self):
        log = st.parse_log(LOG)
        reqs = [planned(1, "intents", "measure", 3500, 5600, 9000),
                planned(2, "local", "measure", 9000, 11700, 16000),
                planned(3, "intents", "measure", 16000, 17000, 19000),  # not heard
                planned(4, "cache", "measure", 24000, 25650, 30000)]
        # Answer 1 sounds from 6130 ms (sottod wrote its first sample at 6000 + 120); answer 4 from 26100; answer
        # 3's playback was cut (no onset near 12400): its figure comes from the log.
        peaks = peaks_with([(6130, 7200), (26100, 27000)], 31000)
        recs = {r["id"]: r for r in st.measure(reqs, log, peaks)}
        r = recs[1]
        self.assertEqual((r["rtt"], r["rtt_source"]), (6130 - 5600, "wav"))
        self.assertEqual(r["endpoint_delay"], 400)
        self.assertAlmostEqual(r["asr_final_lag"], 120 - 40.6)
        self.assertEqual(r["ttft"], 0.6)
        self.assertAlmostEqual(r["tts_first_chunk"], 40.0)
        self.assertEqual(r["rtt_daemon"], 420)
        r = recs[2]
        self.assertEqual((r["rtt"], r["rtt_source"]), (12000 + 400 - 11700, "log"))
        self.assertEqual((r["ttft"], r["tts_first_chunk"]), (100.0, 50.0))
        self.assertFalse(recs[3]["heard"])
        self.assertNotIn("rtt", recs[3])
        self.assertEqual(recs[4]["rtt"], 26100 - 25650)
        self.assertEqual(recs[4]["route"], "cache")

    def test_cut_short(self):
        self.assertTrue(st.cut_short("set a timer for twenty minutes", "set a timer for twenty"))
        self.assertFalse(st.cut_short("set a timer for twenty minutes", "set a timer for twenty minutes"))
        self.assertFalse(st.cut_short("what time is it", "what time is this"))  # misheard, not cut
        self.assertFalse(st.cut_short("what time is it", None))
        req = planned(1, "intents", "measure", 3500, 5600, 9000)
        req["text"] = "what time is it"
        # A turn ended at 5000 ms, before the speech did (5600): cut short; the latencies are the next final's.
        log = st.parse_log([LOG[3].replace("6000 ms", "5000 ms"), LOG[3]])
        rec = st.measure([req], log, None)[0]
        self.assertEqual((rec["extra_finals"], rec["cut_short"], rec["endpoint_delay"]), (1, True, 400))
        # Only the early turn: heard, cut short, no latencies.
        rec = st.measure([req], st.parse_log([LOG[3].replace("6000 ms", "5000 ms")]), None)[0]
        self.assertEqual((rec["heard"], rec["cut_short"]), (True, True))
        self.assertNotIn("endpoint_delay", rec)
        # Two finals after the speech (something else heard later): not cut short; the first one counts.
        rec = st.measure([req], st.parse_log([LOG[3], LOG[3].replace("6000 ms", "6900 ms")]), None)[0]
        self.assertEqual((rec["extra_finals"], rec["cut_short"], rec["endpoint_delay"]), (1, False, 400))

    def test_barge_in(self):
        log = st.parse_log([
            'info speech[barge-in]: wake word at 4300 ms of audio (0 ms behind the microphone): playback stopped, '
            'answer cancelled',
            'debug speech[final]: final at 6000 ms of audio, endpoint 300 ms after speech, 4 words (grammar search, '
            'confidence 1.00): "what time is it"',
            'info answer[first-audio]: answer 1: first audio 100 ms after the endpoint (400 ms after the end of '
            'speech), 30.0 ms after the transcript',
            'info answer[answered]: request 1: route=intent reason=intent-confident, 23 bytes of answer, first text '
            '0.5 ms after the transcript'])
        # The previous answer plays until 4350 ms (a pause between its phrases at 3500); the wake word ends at 4200.
        r = planned(1, "barge-in", "barge-in", 3400, 5700, 9000, wake_end=4200)
        peaks = peaks_with([(2000, 3450), (3600, 4350), (6100, 7000)], 9000)
        rec = st.measure([r], log, peaks)[0]
        self.assertTrue(rec["was_playing"])
        self.assertEqual(rec["barge_in_stop"], 150)
        self.assertEqual(rec["rtt"], 400)
        # Nothing playing during the wake word: not a barge-in.
        quiet = st.measure([r], log, peaks_with([(6100, 7000)], 9000))[0]
        self.assertFalse(quiet["was_playing"])
        self.assertNotIn("barge_in_stop", quiet)
        # The wake word was not heard (no barge-in event): the answer played on; no stop latency.
        missed = st.measure([r], st.parse_log([]), peaks)[0]
        self.assertTrue(missed["was_playing"])
        self.assertFalse(missed["barge_in_heard"])
        self.assertNotIn("barge_in_stop", missed)
        res = st.profile_result("barge-in", [rec, missed])
        self.assertEqual((res["barge_ins_during_playback"], res["barge_ins_heard"]), (2, 1))
        self.assertEqual(res["barge_in_stop"]["p95_ms"], 150)


class ProfileResultTest(unittest.TestCase):
    def records(self):
        return [dict(kind="measure", rtt=300.0, ttft=1.0, tts_first_chunk=40.0, endpoint_delay=350.0,
                     asr_final_lag=20.0, route="intent", heard=True),
                dict(kind="measure", rtt=500.0, ttft=2.0, tts_first_chunk=50.0, endpoint_delay=360.0,
                     asr_final_lag=30.0, route="cache", heard=True),
                dict(kind="measure", heard=False),
                dict(kind="measure", rtt=700.0, ttft=80.0, tts_first_chunk=60.0, route="local", heard=True),
                dict(kind="setup", rtt=9999.0, ttft=9999.0, route="local", heard=True)]  # not counted

    def test_shape(self):
        res = st.profile_result("cache", self.records())
        for key in ("profile", "n", "rtt", "ttft", "tts_first_chunk", "cache_hit_ratio", "route_mix"):
            self.assertIn(key, res)
        self.assertEqual(res["profile"], "cache")
        self.assertEqual(res["n"], 3)
        for key in ("rtt", "ttft", "tts_first_chunk", "endpoint_delay", "asr_final_lag"):
            self.assertEqual(set(res[key]), TRIPLE, key)
        self.assertEqual(res["rtt"], {"p50_ms": 500.0, "p95_ms": 700.0, "p99_ms": 700.0})
        self.assertEqual(res["ttft"]["p50_ms"], 2.0)
        self.assertAlmostEqual(res["cache_hit_ratio"], 1 / 3, places=3)
        self.assertEqual(set(res["route_mix"]), {"intent", "cache", "local"})
        self.assertAlmostEqual(sum(res["route_mix"].values()), 1.0, places=3)
        self.assertEqual((res["said"], res["heard"], res["answered"]), (4, 3, 3))
        self.assertEqual(res["cut_short"], 0)
        self.assertEqual(res["by_condition"], {"?": {"n": 3, "said": 4, "rtt": res["rtt"]}})
        json.dumps(res)  # serializable as is

    def test_unavailable_has_the_same_keys(self):
        u = st.unavailable("follow-up", "no follow-up window")
        res = st.profile_result("x", self.records())
        self.assertEqual(set(u) - {"reason"}, set(res))
        self.assertFalse(u["available"])
        self.assertEqual(u["rtt"], {"p50_ms": None, "p95_ms": None, "p99_ms": None})
        self.assertEqual(u["n"], 0)

    def test_comparison_ratios(self):
        base = st.profile_result("intents", self.records())
        faster = [dict(r, rtt=r["rtt"] / 2) if "rtt" in r else r for r in self.records()]
        r = st.comparison_ratios(base, st.profile_result("intents", faster))
        self.assertEqual(r["rtt_p50"], 0.5)
        self.assertEqual(r["rtt_p95"], 0.5)
        self.assertEqual(r["ttft_p95"], 1.0)


class DelayProxyTest(unittest.TestCase):
    """The loopback cloud's network delay: bytes arrive intact and in order, never sooner than the added round
    trip allows (lower bounds only: a loaded machine may be slower, never faster)."""

    def test_round_trip(self):
        import socket
        import threading
        import time
        import e2e_bench as eb
        srv = socket.socket()
        srv.bind(("127.0.0.1", 0))
        srv.listen(1)

        def echo():
            c, _ = srv.accept()
            with c:
                while True:
                    data = c.recv(4096)
                    if not data:
                        break
                    c.sendall(data.upper())

        threading.Thread(target=echo, daemon=True).start()
        proxy = eb.DelayProxy(srv.getsockname()[1], 100)
        try:
            with socket.create_connection(("127.0.0.1", proxy.port)) as c:
                t0 = time.monotonic()
                c.sendall(b"first")
                got = b""
                while len(got) < 5:
                    got += c.recv(4096)
                first = time.monotonic() - t0
                self.assertEqual(got, b"FIRST")
                # The first exchange pays the connection's round trip too: 100 + 50 + 50 ms.
                self.assertGreaterEqual(first, 0.195)
                t0 = time.monotonic()
                c.sendall(b"abc")
                c.sendall(b"def")
                got = b""
                while len(got) < 6:
                    got += c.recv(4096)
                self.assertEqual(got, b"ABCDEF")
                self.assertGreaterEqual(time.monotonic() - t0, 0.095)
        finally:
            proxy.close()
            srv.close()


def write_wav(path, sound_ms, total_ms, rate=16000):
    s = array.array("h", [0] * (total_ms * rate // 1000))
    for a, b in sound_ms:
        for i in range(a * rate // 1000, b * rate // 1000):
            s[i] = 6000 if i % 2 else -6000
    with wave.open(path, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(s.tobytes())


class ReportTest(unittest.TestCase):
    """`sotto-bench e2e --report DIR --json` (the built sotto-bench when ctest passes it, else the script) on a
    work directory made here: one run of two profiles, one profile not available, one comparison not available."""

    def test_report(self):
        with tempfile.TemporaryDirectory() as work:
            run = os.path.join(work, "runs", "00-device")
            os.makedirs(run)
            plan = {"cpu": "test CPU", "cpus": 2, "load_start": "0.00 0.00 0.00", "load_end": "0.00 0.00 0.00",
                    "profiles": ["intents", "cache", "follow-up"], "voices": ["slt"], "model_label": "none",
                    "unavailable": {"follow-up": "sottod does not know speech.follow-up-ms"},
                    "comparisons": [{"name": "prefix-cache", "profile": "local",
                                     "variants": [["off", ["model.prefix-cache=false"]],
                                                  ["on", ["model.prefix-cache=true"]]],
                                     "reason": "unknown setting model.prefix-cache"}]}
            dump_json(plan, os.path.join(work, "plan.json"))
            reqs = [planned(1, "intents", "measure", 3500, 5600, 9000),
                    planned(2, "cache", "setup", 9000, 11700, 16000),
                    planned(3, "cache", "measure", 24000, 25650, 30000)]
            dump_json({"name": "device", "order": 0, "config": "default", "overrides": [],
                       "profiles": ["intents", "cache"], "requests": reqs}, os.path.join(run, "manifest.json"))
            with open(os.path.join(run, "sottod.log"), "w") as f:
                f.write("\n".join(LOG) + "\n")
            write_wav(os.path.join(run, "answers.wav"), [(6130, 7200), (26100, 27000)], 31000)
            bench = os.environ.get("SOTTO_BENCH")
            cmd = ([bench, "e2e"] if bench else [sys.executable, os.path.join(SRC, "bench", "e2e", "e2e_bench.py")])
            p = subprocess.run(cmd + ["--report", work, "--json", "--svg-dir", work], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, timeout=60)
            self.assertEqual(p.returncode, 0, p.stderr.decode())
            lines = [json.loads(l) for l in p.stdout.decode().splitlines()]
            self.assertEqual([(o["profile"], o["config"]) for o in lines],
                             [("intents", "default"), ("cache", "default"), ("follow-up", "default"),
                              ("local", "prefix-cache:off"), ("local", "prefix-cache:on")])
            for o in lines:
                for key in ("rtt", "ttft", "tts_first_chunk"):
                    self.assertEqual(set(o[key]), TRIPLE)
                self.assertIn("cache_hit_ratio", o)
                self.assertIn("route_mix", o)
                self.assertIsInstance(o["n"], int)
            intents, cache, follow = lines[0], lines[1], lines[2]
            self.assertEqual(intents["n"], 1)
            self.assertEqual(intents["rtt"]["p50_ms"], 530.0)
            self.assertEqual(intents["route_mix"], {"intent": 1.0})
            self.assertEqual(intents["cache_hit_ratio"], 0.0)
            self.assertEqual(cache["n"], 1)  # the setup request (the cache fill) is not counted
            self.assertEqual(cache["cache_hit_ratio"], 1.0)
            self.assertEqual(cache["rtt"]["p99_ms"], 450.0)
            self.assertFalse(follow["available"])
            self.assertIn("follow-up-ms", follow["reason"])
            self.assertIn("prefix-cache", lines[3]["reason"])
            self.assertTrue(os.path.exists(os.path.join(work, "e2e-cdf.svg")))
            self.assertTrue(os.path.exists(os.path.join(work, "e2e-waterfall.svg")))
            # The table names every profile and says why one is missing.
            p = subprocess.run(cmd + ["--report", work], stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
            self.assertEqual(p.returncode, 0, p.stderr.decode())
            text = p.stdout.decode()
            self.assertIn("end of speech -> first audio", text)
            self.assertIn("not available: sottod does not know speech.follow-up-ms", text)
            self.assertIn("routes: intent 1; cache hit ratio 0.00; said 1, heard 1 (0 word for word, 0 cut short)",
                          text)


if __name__ == "__main__":
    unittest.main()
