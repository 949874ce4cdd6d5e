#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# The recognizer corpus (bench/nlu/asr_corpus.py -> bench/nlu/data/asr_pairs.tsv) and its use by gen_train.py: the
# committed file's format, the slot-survival rule on hand-made transcripts (a value survives only where each of its
# words is heard as written, in order; a value heard as another is never guessed), and what each status teaches.
# Run: python3 -m unittest -v test_asr_corpus (from tests/nlu; standard library only).
import os
import re
import sys
import tempfile
import unittest
import xml.etree.ElementTree as ET

sys.dont_write_bytecode = True  # no __pycache__ left in the source tree
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "bench", "nlu"))
import asr_corpus  # noqa: E402
import gen_train  # noqa: E402

CORPUS = os.path.join(ROOT, "bench", "nlu", "data", "asr_pairs.tsv")
CATALOGUE = os.path.join(ROOT, "config", "intents.xml")
TIMER = "could you set a timer for ten minutes please"
TIMER_SPAN = [{"start": 26, "end": 37, "slot": "duration_seconds"}]


def catalogue_slots():
    return {e.get("name"): {s.get("name") for s in e.iter("slot")} for e in ET.parse(CATALOGUE).getroot().iter("intent")}


class CorpusFormat(unittest.TestCase):
    def test_committed_corpus_reads_and_is_consistent(self):
        rows = asr_corpus.read_corpus(CORPUS)
        self.assertGreaterEqual(len(rows), 100)
        slots_of = catalogue_slots()
        for n, r in enumerate(rows, 2):
            where = "%s:%d" % (CORPUS, n)
            self.assertTrue(r["voice"], where)
            self.assertTrue(r["intent"] == "none" or r["intent"] in slots_of, where)
            self.assertRegex(r["written"], r"^[a-z' ]+$", where)
            # the recognizer writes some dictionary words with a dot ("x."); gen_train.py leaves such lines out
            self.assertRegex(r["transcript"], r"^[a-z'. ]*$", where)
            # The status is the rule's, recomputed from what the row says was heard.
            if r["intent"] == "none":
                self.assertIn(r["status"], ("none", "no_final"), where)
                self.assertEqual(r["slots"], {}, where)
            if r["status"] == "no_final":
                self.assertEqual(r["transcript"], "", where)
                continue
            if r["status"] in ("kept", "partial", "salad"):
                self.assertEqual(r["lost"], [], where)
            if r["status"] in ("slot_lost", "slot_changed"):
                self.assertTrue(r["lost"], where)
            # Surviving values: their words stand in the transcript on word boundaries and occur in the written line.
            for sp in r["spans"]:
                self.assertIn(sp["slot"], slots_of.get(r["intent"], ()), where)
                self.assertIn(sp["slot"], r["slots"], where)
                text = r["transcript"][sp["start"]:sp["end"]]
                self.assertTrue(text and gen_train.on_boundary(r["transcript"], sp["start"], sp["end"]), where)
                self.assertIn(" %s " % text, " %s " % r["written"], where)
            for k in r["slots"]:
                self.assertNotIn(k, r["lost"], where)
            # The substitutions are the alignment's.
            self.assertEqual(["%s>%s" % s for s in r["subs"]], asr_corpus.substitutions(r["written"], r["transcript"]),
                             where)

    def test_round_trip_and_bad_lines(self):
        row = asr_corpus.to_row("slt/1", {"text": TIMER, "intent": "timer.set", "slots": {"duration_seconds": 600},
                                          "slot_spans": TIMER_SPAN}, "could you set a timer for ten minutes please",
                                {})
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "c.tsv")
            with open(p, "w") as f:
                f.write("\t".join(asr_corpus.COLUMNS) + "\n" + asr_corpus.format_row(row) + "\n")
            got = asr_corpus.read_corpus(p)[0]
            self.assertEqual(got["status"], "kept")
            self.assertEqual(got["slots"], {"duration_seconds": 600})
            self.assertEqual(got["spans"], [{"start": 26, "end": 37, "slot": "duration_seconds"}])
            for bad in (asr_corpus.format_row(row).replace("kept", "maybe"),
                        asr_corpus.format_row(row).rsplit("\t", 1)[0],
                        asr_corpus.format_row(row).replace('{"duration_seconds": 600}', "{nope")):
                with open(p, "w") as f:
                    f.write("\t".join(asr_corpus.COLUMNS) + "\n" + bad + "\n")
                with self.assertRaises(ValueError):
                    asr_corpus.read_corpus(p)
            with open(p, "w") as f:
                f.write("voice\tintent\n")
            with self.assertRaises(ValueError):
                asr_corpus.read_corpus(p)


class SlotSurvival(unittest.TestCase):
    def status(self, heard, intent="timer.set"):
        return asr_corpus.classify(intent, TIMER, heard, TIMER_SPAN)

    def test_value_heard_as_written_survives_at_its_new_place(self):
        status, spans, lost = self.status("set a timer for ten minutes")
        self.assertEqual(status, "kept")
        self.assertEqual(lost, [])
        self.assertEqual(spans, [{"start": 16, "end": 27, "slot": "duration_seconds"}])
        self.assertEqual("set a timer for ten minutes"[16:27], "ten minutes")

    def test_value_heard_as_another_value_is_never_guessed(self):
        status, spans, lost = self.status("could you set a timer for nine minutes please")
        self.assertEqual((status, spans, lost), ("slot_changed", [], ["duration_seconds"]))

    def test_value_partly_heard_is_lost(self):
        self.assertEqual(self.status("could you set a timer for ten men it's please")[0], "slot_lost")
        # a word heard inside the value breaks it: its words are no longer adjacent
        self.assertEqual(self.status("could you set a timer for ten the minutes please")[0], "slot_lost")
        self.assertEqual(self.status("")[0], "no_final")

    def test_content_words_decide_between_kept_partial_and_salad(self):
        self.assertEqual(self.status("could you set the time for ten minutes please")[0], "kept")
        self.assertEqual(self.status("could you said a time or ten minutes please")[0], "salad")
        self.assertEqual(asr_corpus.classify("volume.up", "turn the volume up a bit", "turn the volume of it", [])[0],
                         "kept")
        self.assertEqual(asr_corpus.classify("volume.up", "turn the volume up a bit", "learn the volume of it", [])[0],
                         "partial")
        self.assertEqual(asr_corpus.classify("none", "who wrote hamlet", "who wrote hamlet", [])[0], "none")

    def test_result_slot_follows_its_source(self):
        spans = [{"start": 0, "end": 3, "slot": "expression"}]
        self.assertEqual(asr_corpus.surviving_slots({"expression": "2 + 2", "result": 4}, spans, {"result": "expression"}),
                         {"expression": "2 + 2", "result": 4})
        self.assertEqual(asr_corpus.surviving_slots({"expression": "2 + 2", "result": 4}, [], {"result": "expression"}),
                         {})


class TrainingUse(unittest.TestCase):
    def rows(self, intent, status, slots=None, spans=None):
        return [{"voice": "slt/1", "intent": intent, "status": status, "written": "x", "transcript": "set the time",
                 "slots": slots or {}, "spans": spans or [], "lost": [], "subs": []}]

    def labels(self, intent, status):
        intents = {k: None for k in catalogue_slots()}
        lines = gen_train.asr_corpus_lines(self.rows(intent, status), intents, CATALOGUE)
        self.assertEqual(len(lines) % gen_train.ASR_CORPUS_COPIES, 0)
        return sorted(l["intent"] for l in lines[:len(lines) // gen_train.ASR_CORPUS_COPIES])

    def test_each_status_teaches_what_it_should(self):
        self.assertEqual(self.labels("timer.set", "kept"), ["timer.set"])
        self.assertEqual(self.labels("timer.set", "partial"), ["none", "timer.set"])  # about one half: not acted on
        self.assertEqual(self.labels("timer.query", "partial"), ["timer.query"])
        self.assertEqual(self.labels("timer.set", "salad"), ["none"])
        self.assertEqual(self.labels("timer.set", "slot_lost"), ["none"])
        self.assertEqual(self.labels("weather.query", "slot_lost"), [])
        self.assertEqual(self.labels("timer.set", "slot_changed"), [])
        self.assertEqual(self.labels("none", "none"), ["none"])
        self.assertEqual(self.labels("timer.set", "no_final"), [])

    def test_surviving_slots_are_carried_and_none_lines_have_none(self):
        intents = {k: None for k in catalogue_slots()}
        rows = self.rows("volume.set", "partial", {"level": 5}, [{"start": 8, "end": 12, "slot": "level"}])
        lines = gen_train.asr_corpus_lines(rows, intents, CATALOGUE)
        by = {l["intent"]: l for l in lines}
        self.assertEqual(by["volume.set"]["slots"], {"level": 5})
        self.assertEqual(by["volume.set"]["slot_spans"], [{"start": 8, "end": 12, "slot": "level"}])
        self.assertEqual((by["none"]["slots"], by["none"]["slot_spans"]), ({}, []))

    def test_confusions_leave_values_and_garbled_lines_out(self):
        rows = [{"written": "set a timer for five minutes", "transcript": "set a time for nine minutes",
                 "subs": [("timer", "time"), ("five", "nine")]},
                {"written": "who wrote hamlet", "transcript": "go tell us", "subs": [("who", "go")]}]
        self.assertEqual(gen_train.asr_confusions(rows), {"timer": ["time"]})


if __name__ == "__main__":
    unittest.main()
