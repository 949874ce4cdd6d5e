# SPDX-License-Identifier: MIT
# The speech-to-intent benchmark's scoring (bench/speech/intent_score.py) on hand-made results: word errors,
# the state-changing intents derived from the catalogue, what a clip's events execute, the wrong-action rule and the
# per-group aggregation; and intent_bench.py --report printing a hand-made result file. Run by ctest
# (SpeechBench.IntentScore) as `python3 -m unittest`.
import json
import os
import subprocess
import sys
import tempfile
import unittest

SRC = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(SRC, "bench", "speech"))
import intent_score as sc  # noqa: E402

CATALOGUE = os.path.join(SRC, "config", "intents.xml")


class WordErrorsTest(unittest.TestCase):
    def test_normalize(self):
        self.assertEqual(sc.normalize_words("What's the TIME, 'please'?"), ["what", "is", "the", "time", "please"])
        self.assertEqual(sc.normalize_words("don't stop"), ["do", "not", "stop"])
        self.assertEqual(sc.normalize_words(None), [])

    def test_counts(self):
        w = str.split
        self.assertEqual(sc.word_errors(w("a b c"), w("a b c")), (0, 0, 0, 3))
        self.assertEqual(sc.word_errors(w("a b c"), w("a x c")), (1, 0, 0, 3))
        self.assertEqual(sc.word_errors(w("a b c"), []), (0, 3, 0, 3))
        self.assertEqual(sc.word_errors([], w("a b")), (0, 0, 2, 0))
        self.assertEqual(sc.word_errors(w("a b c"), w("a b c d")), (0, 0, 1, 3))
        # Equal cost: two substitutions, not a deletion and an insertion pair each.
        self.assertEqual(sc.word_errors(w("a b"), w("c d")), (2, 0, 0, 2))
        # set a timer for ten minutes / set a timer four ten minutes: "for" -> "four" is one substitution.
        self.assertEqual(sc.word_errors(w("set a timer for ten minutes"), w("set timer four ten minutes please")),
                         (1, 1, 1, 6))


class StateChangingTest(unittest.TestCase):
    def test_from_catalogue(self):
        names = sc.catalogue_intents(CATALOGUE)
        changing = sc.catalogue_state_changing(CATALOGUE)
        for n in ["timer.set", "timer.cancel", "alarm.set", "alarm.cancel", "volume.up", "volume.down",
                  "volume.mute", "volume.set", "privacy.offline", "privacy.online", "stop"]:
            self.assertIn(n, names)
            self.assertIn(n, changing)
        for n in ["time.query", "date.query", "timer.query", "alarm.query", "weather.query", "repeat",
                  "math.compute", "convert.units"]:
            self.assertIn(n, names)
            self.assertNotIn(n, changing)

    def test_catalogue_attribute_overrides_the_name(self):
        with tempfile.NamedTemporaryFile("w", suffix=".xml", delete=False) as f:
            f.write('<catalogue version="1"><intent name="lights.query" changes-state="true"/>'
                    '<intent name="joke" changes-state="false"/><intent name="lights.on"/>'
                    '<intent name="weather.query"/></catalogue>')
        try:
            self.assertEqual(sc.catalogue_state_changing(f.name), {"lights.query", "lights.on"})
        finally:
            os.unlink(f.name)

    def test_new_intent_counts_as_changing(self):
        self.assertEqual(sc.state_changing(["lights.on", "lights.query", "none"]), {"lights.on"})


class DecideTest(unittest.TestCase):
    def events(self, *objs):
        return [json.dumps(o) for o in objs]

    def test_slots(self):
        self.assertTrue(sc.slots_equal({"duration_seconds": 600}, {"duration_seconds": 600.0}))
        self.assertTrue(sc.slots_equal({"place": "New  York"}, {"place": "new york"}))
        self.assertFalse(sc.slots_equal({"level": 5}, {"level": 6}))
        self.assertFalse(sc.slots_equal({"time": "07:00"}, {"time": "07:00", "day": "monday"}))
        self.assertTrue(sc.slots_equal(None, {}))

    def test_listen_then_intent(self):
        l = sc.parse_listen(["sotto listen: warning: x"] + self.events(
            {"event": "wake", "t_ms": 2000}, {"event": "partial", "text": "set", "t_ms": 2300},
            {"event": "final", "text": "set a timer for ten minutes", "t_ms": 4100, "endpoint_delay_ms": 300}))
        self.assertTrue(l["woke"])
        self.assertEqual((l["final"], l["wake_ms"], l["final_ms"], l["clarify"], l["endpoint"]),
                         ("set a timer for ten minutes", 2000, 4100, False, True))
        flushed = sc.parse_listen(self.events({"event": "wake", "t_ms": 1000},
                                              {"event": "final", "text": "x", "t_ms": 5000, "endpoint_delay_ms": 0}))
        self.assertFalse(flushed["endpoint"])
        u = {"intent": "timer.set", "slots": {"duration_seconds": 600}}
        self.assertEqual(sc.decide(l, u), ("timer.set", {"duration_seconds": 600}, True))

    def test_final_intent_and_clarify(self):
        l = sc.parse_listen(self.events(
            {"event": "wake", "t_ms": 1000},
            {"event": "final", "text": "turn it up", "t_ms": 2000, "intent": "volume.up", "confidence": 0.4},
            {"event": "clarify", "t_ms": 2000}))
        # The final's own intent wins over the text's; a clarify event means it does not run.
        self.assertEqual(sc.decide(l, {"intent": "none", "slots": {}}), ("volume.up", {}, False))
        l2 = sc.parse_listen(self.events(
            {"event": "wake", "t_ms": 1000},
            {"event": "final", "text": "volume five", "t_ms": 2000, "intent": "volume.set", "confidence": 0.9}))
        self.assertEqual(sc.decide(l2, {"intent": "volume.set", "slots": {"level": 5}}),
                         ("volume.set", {"level": 5}, True))
        self.assertEqual(sc.decide(l2, {"intent": "none", "slots": {}}), ("volume.set", {}, True))

    def test_second_request_ignored_and_no_wake(self):
        l = sc.parse_listen(self.events(
            {"event": "wake", "t_ms": 1000}, {"event": "final", "text": "stop", "t_ms": 1500},
            {"event": "wake", "t_ms": 3000}, {"event": "clarify", "t_ms": 3500}))
        self.assertEqual((l["final"], l["clarify"]), ("stop", False))
        none = sc.parse_listen([])
        self.assertFalse(none["woke"])
        self.assertEqual(sc.decide(none, None), ("none", {}, False))


def rec(voice, condition, ref, ref_intent, ref_slots, hyp, hyp_intent, hyp_slots, executed=True, clarified=False,
        woke=True, cpu=None, audio=None, listen=None):
    return {"voice": voice, "condition": condition, "noise": "" if condition == "clean" else "babble",
            "ref_text": ref, "ref_intent": ref_intent, "ref_slots": ref_slots, "hyp_text": hyp,
            "hyp_intent": hyp_intent, "hyp_slots": hyp_slots, "executed": executed, "clarified": clarified,
            "woke": woke, "cpu_s": cpu, "audio_s": audio, "listen_s": listen, "id": "x", "source": "x"}


# Hand-made results: two voices, clean and 10 dB. Expected values worked out by hand in the comments.
CHANGING = sc.catalogue_state_changing(CATALOGUE)
RESULTS = [
    # a: right intent and slots, one substitution in 6 words ("four"): correct.
    rec("a", "clean", "set a timer for ten minutes", "timer.set", {"duration_seconds": 600},
        "set a timer four ten minutes", "timer.set", {"duration_seconds": 600}, cpu=1.0, audio=4.0, listen=2.0),
    # a: right intent, wrong slot value on a state-changing intent: a wrong action (1 sub of 3).
    rec("a", "clean", "volume to five", "volume.set", {"level": 5}, "volume to nine", "volume.set", {"level": 9},
        cpu=1.0, audio=4.0, listen=2.0),
    # a: an open question answered as a query: not correct, no wrong action (a query changes nothing); 0 errors.
    rec("a", "10 dB", "what time is it in tokyo", "none", {}, "what time is it in tokyo", "time.query", {},
        cpu=2.0, audio=4.0, listen=2.0),
    # a: the recognizer asked again on a state-changing request: not executed, not correct, not wrong.
    rec("a", "10 dB", "mute", "volume.mute", {}, "newt", "volume.mute", {}, executed=False, clarified=True),
    # b: no wake at all: all 3 words deleted, not correct.
    rec("b", "clean", "what's the date", "date.query", {}, None, "none", {}, executed=False, woke=False),
    # b: an open question heard as "stop": a wrong action; 1 sub + 1 del of 2 words ("tell joke" -> "stop").
    rec("b", "clean", "tell joke", "none", {}, "stop", "stop", {}),
    # b: an open question understood as none: correct.
    rec("b", "10 dB", "why is the sky blue", "none", {}, "why is the sky blue", "none", {}, executed=False),
    # b: cancel asked, set executed: a wrong action (1 del of 3).
    rec("b", "10 dB", "cancel the timer", "timer.cancel", {}, "cancel timer", "timer.set", {"duration_seconds": 60}),
]


class AggregateTest(unittest.TestCase):
    def setUp(self):
        self.recs = [sc.score_record(dict(r), CHANGING) for r in RESULTS]

    def test_records(self):
        self.assertEqual([r["correct"] for r in self.recs], [True, False, False, False, False, False, True, False])
        self.assertEqual([r["wrong_action"] for r in self.recs],
                         [False, True, False, False, False, True, False, True])
        self.assertEqual([(r["sub"], r["del"], r["ins"], r["ref_words"]) for r in self.recs],
                         [(1, 0, 0, 6), (1, 0, 0, 3), (0, 0, 0, 6), (1, 0, 0, 1), (0, 4, 0, 4), (1, 1, 0, 2),
                          (0, 0, 0, 5), (0, 1, 0, 3)])

    def test_per_voice(self):
        g = sc.aggregate(self.recs, lambda r: r["voice"])
        self.assertEqual(g["a"]["n"], 4)
        self.assertAlmostEqual(g["a"]["wer"], 3 / 16)
        self.assertAlmostEqual(g["a"]["accuracy"], 1 / 4)
        self.assertAlmostEqual(g["a"]["clarify_rate"], 1 / 4)
        self.assertEqual(g["a"]["wrong_action"], 1)
        self.assertAlmostEqual(g["b"]["wer"], 7 / 14)
        self.assertAlmostEqual(g["b"]["accuracy"], 1 / 4)
        self.assertAlmostEqual(g["b"]["wrong_action_rate"], 2 / 4)
        self.assertEqual(g["b"]["missed_wake"], 1)
        # CPU only where measured: voice a, 4 s over 12 s of audio and 6 s listening.
        self.assertAlmostEqual(g["a"]["cpu_per_audio_s"], 4 / 12)
        self.assertAlmostEqual(g["a"]["cpu_per_listen_s"], 4 / 6)
        self.assertIsNone(g["b"]["cpu_per_audio_s"])

    def test_per_condition_and_intent(self):
        g = sc.aggregate(self.recs, lambda r: r["condition"])
        self.assertAlmostEqual(g["clean"]["wrong_action_rate"], 2 / 4)
        self.assertAlmostEqual(g["10 dB"]["wrong_action_rate"], 1 / 4)
        self.assertAlmostEqual(g["clean"]["wer"], (1 + 1 + 4 + 2) / (6 + 3 + 4 + 2))
        c = sc.aggregate(self.recs, lambda r: r["ref_intent"])
        self.assertEqual(c["none"]["n"], 3)
        self.assertAlmostEqual(c["none"]["accuracy"], 1 / 3)
        self.assertEqual(c["none"]["wrong_action"], 1)
        skipped = sc.aggregate(self.recs, lambda r: None)
        self.assertEqual(skipped, {})

    def test_report_prints_wrong_actions(self):
        result = {"cpu": "test", "lines": 8, "voices": ["a", "b"], "state_changing": sorted(CHANGING),
                  "targets": {}, "text_accuracy": 1.0,
                  "variants": [{"name": "baseline", "options": ["--set", "asr.x=1"], "available": False,
                                "reason": "not available in this build"},
                               {"name": "new", "options": [], "available": True, "startup_cpu_s": 1.0,
                                "clips": 8, "wall_s": 1.0, "records": self.recs}]}
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
            json.dump(result, f)
        try:
            out = subprocess.run([sys.executable, os.path.join(SRC, "bench", "speech", "intent_bench.py"),
                                  "--report", f.name], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                 check=True).stdout.decode()
        finally:
            os.unlink(f.name)
        self.assertIn("WRONG ACTIONS: 3 of 8 clips (37.5%", out)
        self.assertIn("baseline: not available in this build", out)
        self.assertRegex(out, r"WRONG-ACTION rate, all +<= 0\.5% +not available +37\.5% MISSED")


if __name__ == "__main__":
    unittest.main()
