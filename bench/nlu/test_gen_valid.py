#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Checks the validation-set generator (gen_valid.py): line format, span offsets and values, intent and slot names
# against config/intents.xml, slot value formats, arithmetic results, and byte-for-byte determinism per seed.
# Run: python3 bench/nlu/test_gen_valid.py   (standard library only; a few seconds)
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import unittest
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import gen_valid  # noqa: E402

PII_TYPES = {"PERSON", "PHONE", "EMAIL", "ADDRESS", "CREDIT_CARD", "IBAN", "SSN", "DATE_OF_BIRTH", "AGE",
             "IP_ADDRESS", "ACCOUNT_NUMBER", "PIN_OR_PASSWORD", "HEALTH", "LOCATION"}
UNIT_CODES = {"km", "mi", "m", "ft", "in", "cm", "kg", "lb", "g", "oz", "l", "ml", "gal", "cup", "tbsp", "tsp", "c",
              "f", "mph", "kmh"}
DAYS = {"today", "tomorrow", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"}


def catalogue():
    """intent name -> {slot name: type} from config/intents.xml."""
    root = ET.parse(os.path.join(ROOT, "config", "intents.xml")).getroot()
    return {i.get("name"): {s.get("name"): s.get("type") for s in i.findall("slot")} for i in root.findall("intent")}


def eval_expression(expr):
    """The canonical expression's value: numbers, + - * / ^ and sqrt(x) only."""
    assert re.fullmatch(r"[0-9. +\-*/^()sqrt]+", expr), expr
    return eval(expr.replace("^", "**").replace("sqrt", "math.sqrt"), {"math": math, "__builtins__": {}})


class GenValidTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.intents = gen_valid.gen_intents(1200, 18)
        cls.pii = gen_valid.gen_pii(1200, 18)
        cls.cat = catalogue()

    def test_pii_lines_follow_the_span_rules(self):
        for i, r in enumerate(self.pii):
            self.assertEqual(set(r), {"id", "text", "form", "spans", "source"})
            self.assertEqual(r["id"], "valid-pii-%05d" % (i + 1))
            self.assertIn(r["form"], ("spoken", "written"))
            self.assertTrue(r["source"].startswith("valid.pii."))
            text = r["text"]
            if r["form"] == "spoken":
                self.assertRegex(text, r"^[a-z' ]+$")
            self.assertEqual(text, text.strip())
            last = 0
            for sp in r["spans"]:
                self.assertEqual(set(sp), {"start", "end", "type", "value"})
                self.assertIn(sp["type"], PII_TYPES)
                self.assertEqual(text[sp["start"]:sp["end"]], sp["value"], text)
                self.assertGreaterEqual(sp["start"], last, text)  # sorted, non-overlapping
                self.assertTrue(sp["start"] == 0 or not text[sp["start"] - 1].isalnum(), text)
                self.assertTrue(sp["end"] == len(text) or not text[sp["end"]].isalnum(), text)
                last = sp["end"]
            if ".neg." in r["source"]:
                self.assertEqual(r["spans"], [], text)

    def test_pii_covers_every_type_with_about_a_third_negative(self):
        types = {sp["type"] for r in self.pii for sp in r["spans"]}
        self.assertEqual(types, PII_TYPES)
        neg = sum(1 for r in self.pii if not r["spans"]) / len(self.pii)
        self.assertTrue(0.3 <= neg <= 0.4, neg)
        spoken = sum(1 for r in self.pii if r["form"] == "spoken") / len(self.pii)
        self.assertTrue(0.6 <= spoken <= 0.8, spoken)

    def test_structural_values_are_valid(self):
        for r in self.pii:
            if r["form"] != "written":
                continue
            for sp in r["spans"]:
                if sp["type"] == "CREDIT_CARD":
                    self.assertTrue(gen_valid.luhn_ok(re.sub(r"\D", "", sp["value"])), sp)
                if sp["type"] == "IBAN":
                    self.assertTrue(gen_valid.iban_checksum_ok(sp["value"].replace(" ", "")), sp)

    def test_check_spans_rejects_broken_spans(self):
        good = [{"start": 3, "end": 7, "type": "PERSON", "value": "nina"}]
        gen_valid.check_spans("hi nina", good)
        for bad in ([{"start": 3, "end": 6, "type": "PERSON", "value": "nin"}],      # not on a word boundary
                    [{"start": 2, "end": 7, "type": "PERSON", "value": " nina"}],    # padded
                    [{"start": 3, "end": 7, "type": "PERSON", "value": "anna"}],     # value != text
                    good + [{"start": 5, "end": 7, "type": "AGE", "value": "na"}]):  # overlap
            with self.assertRaises(AssertionError):
                gen_valid.check_spans("hi nina", bad)

    def test_intent_lines_use_the_catalogue(self):
        seen = set()
        for i, r in enumerate(self.intents):
            self.assertEqual(set(r), {"id", "text", "form", "intent", "slots", "source", "asr_noise"})
            self.assertEqual(r["id"], "valid-intents-%05d" % (i + 1))
            self.assertTrue(r["source"].startswith("valid." + r["intent"] + "."), r)
            if r["form"] == "spoken":
                self.assertRegex(r["text"], r"^[a-z' ]+$")
            else:
                self.assertFalse(r["asr_noise"])
            seen.add(r["intent"])
            if r["intent"] == "none":
                self.assertEqual(r["slots"], {})
                continue
            self.assertIn(r["intent"], self.cat)
            declared = self.cat[r["intent"]]
            for name, value in r["slots"].items():
                self.assertIn(name, declared, r)
                kind = declared[name]
                if kind == "duration":
                    self.assertIsInstance(value, int)
                    self.assertGreater(value, 0)
                elif kind == "time":
                    self.assertRegex(value, r"^([01]\d|2[0-3]):[0-5]\d$")
                elif kind == "day":
                    self.assertIn(value, DAYS)
                elif kind == "forecast-day":
                    self.assertIn(value, DAYS | {"weekend"})
                elif kind == "level":
                    self.assertIn(value, range(11))
                elif kind == "unit":
                    self.assertIn(value, UNIT_CODES)
                elif kind in ("place", "label"):
                    self.assertRegex(value, r"^[a-z]+( [a-z]+){0,2}$")
                elif kind == "number":
                    self.assertIsInstance(value, (int, float))
            required = {"timer.set": {"duration_seconds"}, "alarm.set": {"time"}, "volume.set": {"level"},
                        "convert.units": {"value", "from", "to"}, "math.compute": {"expression", "result"}}
            self.assertTrue(required.get(r["intent"], set()) <= set(r["slots"]), r)
        self.assertEqual(seen, set(self.cat) | {"none"})

    def test_arithmetic_and_conversions_are_consistent(self):
        for r in self.intents:
            if r["intent"] == "math.compute":
                v = eval_expression(r["slots"]["expression"])
                want = round(v, 4)
                want = int(want) if want == int(want) else want
                self.assertEqual(r["slots"]["result"], want, r)
            if r["intent"] == "convert.units":
                dims = [d for d in gen_valid.DIMENSIONS if r["slots"]["from"] in d]
                self.assertIn(r["slots"]["to"], dims[0], r)
                self.assertNotEqual(r["slots"]["from"], r["slots"]["to"])

    def test_same_seed_same_bytes_other_seed_other_lines(self):
        script = os.path.join(HERE, "gen_valid.py")
        with tempfile.TemporaryDirectory() as d:
            outs = []
            for sub, seed in (("a", "5"), ("b", "5"), ("c", "6")):
                out = os.path.join(d, sub)
                subprocess.run([sys.executable, script, "--out", out, "--seed", seed, "--intents", "300",
                                "--pii", "300"], check=True, stdout=subprocess.DEVNULL)
                got = []
                for f in ("intents-valid.jsonl", "pii-valid.jsonl"):
                    with open(os.path.join(out, f), "rb") as fh:
                        got.append(fh.read())
                outs.append(got)
            self.assertEqual(outs[0], outs[1])
            self.assertNotEqual(outs[0][0], outs[2][0])
            self.assertNotEqual(outs[0][1], outs[2][1])
            self.assertEqual(len(outs[0][0].splitlines()), 300)
            self.assertEqual(len(outs[0][1].splitlines()), 300)
            for line in outs[0][0].splitlines() + outs[0][1].splitlines():
                json.loads(line)


if __name__ == "__main__":
    unittest.main()
