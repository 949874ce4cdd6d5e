#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# A third, independent NLU data set: the VALIDATION split (issue 18).
#
# What it is: intent lines (every intent of config/intents.xml, plus "none") and personal-data lines (all 14 PII
# types, with about 35 % hard negatives) in the line formats of ../shared/data/README.md, ids "valid-...", "source"
# = the template family here ("valid.<intent>.<family>", "valid.pii.<family>").
#
# How it was written: from the data README's conventions, a look at a few dozen dev lines, config/intents.xml and
# engine/privacy/pii.h only. Its author did NOT read bench/nlu/gen_train.py, bench/nlu/gen_eval.py,
# bench/nlu/lexres.py, their output or any model's errors: templates, phrasings and word lists (names, streets,
# cities, providers, conditions, medications, places, public figures, timer names) are its own.
#
# How it is used: to diagnose errors while the training generator (gen_train.py) is broadened. Because it is
# looked at during development, results on it are NOT the reported evaluation; gen_eval.py's held-out set stays
# that, untouched.
#
# Usage: gen_valid.py --out DIR [--seed N] [--intents N] [--pii N]   (defaults: seed 18, 2000 + 2000 lines)
#   writes DIR/intents-valid.jsonl and DIR/pii-valid.jsonl. Python standard library only; the same seed gives the
#   same bytes. Every PII span is checked as it is written: value == text[start:end] (code point offsets, end
#   exclusive), sorted, non-overlapping, on word boundaries; spoken lines hold only [a-z' ].
#   Tests: python3 bench/nlu/test_gen_valid.py
#
# Choices the dev data does not show (a consumer may filter on "intent"/"source"):
#   - alarm.cancel and alarm.query are catalogue intents outside the dev/eval data; they get half an intent's share.
#   - volume.set "fifty percent" is level 5 (only multiples of ten are said); "max"/"full volume" is 10.
#   - PII: a title ("dr", "mrs", "uncle") is outside the PERSON span; an article before a condition ("a torn acl")
#     is outside the HEALTH span; an allergy names the drug ("allergic to {drug}": HEALTH = the drug);
#     UK National Insurance and Canadian SIN numbers are SSN, passport and driving licence numbers ACCOUNT_NUMBER
#     (engine/privacy/pii.h); well-known public addresses (ten downing street) and public figures carry no span.
import argparse
import json
import os
import random
import re
import sys

# ----------------------------------------------------------------------------------------------------------------
# Numbers said as words.
ONES = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
        "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"]
TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
ORDINALS = {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth", 6: "sixth", 7: "seventh", 8: "eighth",
            9: "ninth", 10: "tenth", 11: "eleventh", 12: "twelfth", 13: "thirteenth", 14: "fourteenth",
            15: "fifteenth", 16: "sixteenth", 17: "seventeenth", 18: "eighteenth", 19: "nineteenth",
            20: "twentieth", 30: "thirtieth"}
MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
          "november", "december"]
WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]


def words(n, rng=None):
    """0 <= n < 1e6 as words; with rng, sometimes British ("and") or "a hundred"."""
    if n < 0:
        return "minus " + words(-n, rng)
    if n < 20:
        return ONES[n]
    if n < 100:
        return TENS[n // 10] + ("" if n % 10 == 0 else " " + ONES[n % 10])
    if n < 1000:
        head = ONES[n // 100] + " hundred"
        if rng is not None and n // 100 == 1 and rng.random() < 0.2:
            head = "a hundred"
        if n % 100 == 0:
            return head
        sep = " and " if rng is not None and rng.random() < 0.25 else " "
        return head + sep + words(n % 100)
    head = words(n // 1000) + " thousand"
    if n % 1000 == 0:
        return head
    sep = " and " if rng is not None and n % 1000 < 100 and rng.random() < 0.4 else " "
    return head + sep + words(n % 1000, rng)


def ordinal(n):
    if n in ORDINALS:
        return ORDINALS[n]
    return TENS[n // 10] + " " + ORDINALS[n % 10]


def ordinal_written(n):
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return "%d%s" % (n, suffix)


def year_words(y):
    if 2000 <= y < 2010:
        return "two thousand" + ("" if y == 2000 else " " + ONES[y - 2000])
    hi, lo = divmod(y, 100)
    if lo == 0:
        return words(hi) + " hundred"
    return words(hi) + " " + ("oh " + ONES[lo] if lo < 10 else words(lo))


def digit_words(digits, rng, zero=None, doubles=0.0):
    """Digit string said digit by digit: "oh" or "zero", sometimes "double"/"triple" for runs."""
    zero = zero or rng.choice(["oh", "zero", "oh", "zero"])
    out = []
    i = 0
    while i < len(digits):
        d = digits[i]
        w = zero if d == "0" else ONES[int(d)]
        run = 1
        while i + run < len(digits) and digits[i + run] == d:
            run += 1
        if run >= 3 and rng.random() < doubles:
            out.append("triple " + w)
            i += 3
        elif run >= 2 and rng.random() < doubles:
            out.append("double " + w)
            i += 2
        else:
            out.append(w)
            i += 1
    return " ".join(out)


def pairs_words(digits, rng):
    """Digits said in pairs where that is natural ("forty one", "oh seven"), else one by one."""
    out = []
    for i in range(0, len(digits) - 1, 2):
        p = digits[i:i + 2]
        if p[0] == "0":
            out.append(("oh " if rng.random() < 0.7 else "zero ") + ONES[int(p[1])])
        else:
            out.append(words(int(p)))
    if len(digits) % 2:
        out.append(digit_words(digits[-1], rng))
    return " ".join(out)


def clean_num(v):
    """A number as the catalogue prints it: int when integral, else rounded to 4 places."""
    v = round(v, 4)
    return int(v) if v == int(v) else v


def fmt_num(v):
    return str(int(v)) if v == int(v) else repr(v)


# ----------------------------------------------------------------------------------------------------------------
# A tiny template language: (a|b) one of, [a|b] optional one of, {name} a value from a dict.
_PARSED = {}


def _parse(s, i, closer):
    alts = [[]]
    buf = ""
    while i < len(s):
        c = s[i]
        if c in "([":
            if buf:
                alts[-1].append(buf)
                buf = ""
            sub, i = _parse(s, i + 1, ")" if c == "(" else "]")
            alts[-1].append((sub, c == "["))
            continue
        if closer and c == "|":
            if buf:
                alts[-1].append(buf)
                buf = ""
            alts.append([])
            i += 1
            continue
        if closer and c == closer:
            if buf:
                alts[-1].append(buf)
            return alts, i + 1
        buf += c
        i += 1
    if closer:
        raise ValueError("unclosed %r in template %r" % (closer, s))
    if buf:
        alts[-1].append(buf)
    return alts, i


def _sample(alts, rng):
    seq = rng.choice(alts)
    out = []
    for item in seq:
        if isinstance(item, str):
            out.append(item)
        else:
            sub, optional = item
            if optional and rng.random() < 0.5:
                continue
            out.append(_sample(sub, rng))
    return "".join(out)


def expand(template, rng, values=None):
    if template not in _PARSED:
        _PARSED[template] = _parse(template, 0, None)[0]
    s = _sample(_PARSED[template], rng)
    if values:
        s = re.sub(r"\{(\w+)\}", lambda m: values[m.group(1)], s)
    return re.sub(r"\s+", " ", s).strip()


# Marked text: a span is \x01TYPE\x1fvalue\x02; for intents a protected slot rendering is \x01\x1fvalue\x02.
def mark(kind, value):
    return "\x01%s\x1f%s\x02" % (kind, value)


def unmark(s):
    """(plain text, [(start, end, type, value)]) from marked text."""
    text = []
    spans = []
    pos = 0
    i = 0
    while i < len(s):
        c = s[i]
        if c == "\x01":
            sep = s.index("\x1f", i)
            close = s.index("\x02", sep)
            kind = s[i + 1:sep]
            value = s[sep + 1:close]
            if kind:
                spans.append((pos, pos + len(value), kind, value))
            text.append(value)
            pos += len(value)
            i = close + 1
            continue
        text.append(c)
        pos += 1
        i += 1
    return "".join(text), spans


def outside_marks(s, fn):
    """Applies fn to the parts of marked text outside spans/slots."""
    parts = re.split(r"(\x01[^\x02]*\x02)", s)
    return "".join(p if p.startswith("\x01") else fn(p) for p in parts)


# ----------------------------------------------------------------------------------------------------------------
# Surface forms.
PREFIXES = ["um", "uh", "hey", "okay", "ok so", "hey sotto", "sotto", "so", "right", "excuse me", "sorry",
            "quick question", "hmm", "yo", "alright", "erm", "oh", "hi", "listen", "well"]
SUFFIXES = ["please", "thanks", "thank you", "if you could", "if you don't mind", "real quick", "mate", "buddy",
            "cheers", "pretty please", "thanks a lot", "when you get a chance", "ta", "please and thank you"]
NONE_SUFFIXES = ["please", "thanks", "thank you", "cheers"]
QUESTION_START = ("what", "how", "is", "can", "could", "would", "will", "do", "does", "when", "which", "are", "did",
                  "have", "any", "should", "where", "who", "why", "whats", "what's", "has", "was", "may", "got")
SPOKEN_OK = re.compile(r"^[a-z' ]+$")


def add_filler(core, rng, pre=0.3, post=0.3, suffixes=SUFFIXES):
    p = rng.choice(PREFIXES) if rng.random() < pre else ""
    s = rng.choice(suffixes) if rng.random() < post else ""
    plain = unmark(core)[0]
    if s and re.search(r"(please|thanks|thank you|cheers)$", plain):
        s = ""
    return p, core, s


def written_surface(prefix, core, suffix, rng):
    """Typed-input casing and punctuation, applied outside spans and slot values."""
    casual = rng.random() < 0.25
    s = core
    if prefix:
        s = prefix + ("," if not casual and rng.random() < 0.7 else "") + " " + s
    if suffix:
        s = s + ("," if not casual and rng.random() < 0.6 else "") + " " + suffix
    if not casual:
        s = outside_marks(s, lambda p: re.sub(r"\bi(?=$|[ ']|,)", "I", p))
        if s and s[0].isalpha():  # a line opening on a value keeps the value's own case
            s = s[0].upper() + s[1:]
        first = unmark(core)[0].split(" ")[0].lower().strip(",")
        r = rng.random()
        if first in QUESTION_START:
            s += "?" if r < 0.75 else ""
        else:
            s += "." if r < 0.55 else ("!" if r < 0.6 else "")
    return s


def spoken_surface(prefix, core, suffix):
    s = " ".join(x for x in (prefix, core, suffix) if x)

    def check(p):
        assert re.fullmatch(r"[a-z' ]*", p), "a spoken template holds more than words: %r" % p
        return p
    return outside_marks(s, check)


# ASR-like errors for spoken intent lines (never inside slot values): homophones and dropped small words.
HOMOPHONES = {"for": "four", "to": "too", "weather": "whether", "hear": "here", "right": "write", "know": "no",
              "set": "said", "mute": "moot", "would": "wood", "louder": "lauder", "there": "their",
              "whats": "watts", "what's": "watts", "our": "are", "be": "bee", "by": "buy",
              "hour": "our", "see": "sea", "way": "weigh", "week": "weak"}
DROPPABLE = {"the", "a", "an", "my", "is", "it", "of"}


def asr_noise(s, rng):
    """Noise outside slot values; the words right next to a value stay, so that "for seven" never reads
    "four seven" and a label stays recoverable from the text."""
    parts = re.split(r"(\x01[^\x02]*\x02)", s)
    out_parts = []
    for k, part in enumerate(parts):
        if part.startswith("\x01"):
            out_parts.append(part)
            continue
        toks = part.split(" ")
        keep_first = k > 0  # a value ends just before this part
        keep_last = k + 1 < len(parts)  # a value starts just after it
        out = []
        for j, t in enumerate(toks):
            guarded = (keep_first and j <= 1) or (keep_last and j >= len(toks) - 2)
            r = rng.random()
            if not guarded and t in DROPPABLE and r < 0.35:
                continue
            if not guarded and t in HOMOPHONES and r < 0.5:
                out.append(HOMOPHONES[t])
                continue
            out.append(t)
        out_parts.append(" ".join(out))
    return "".join(out_parts)


# ----------------------------------------------------------------------------------------------------------------
# Intent slot renderers: each returns (text as said or typed, value as the catalogue reports it).
def r_duration(rng, form, adj=False):
    """A duration. adj: before a noun ("a ten minute timer", "a 10-minute timer")."""
    sp = form == "spoken"
    k = rng.randrange(14)
    unit_s = {"second": 1, "minute": 60, "hour": 3600}
    if k <= 4:  # N units
        unit = rng.choice(["minute", "minute", "minute", "second", "hour"])
        n = {"minute": rng.randint(1, 90), "second": rng.choice([10, 15, 20, 30, 40, 45, 50, 75, 90, 100, 120]),
             "hour": rng.randint(1, 6)}[unit]
        secs = n * unit_s[unit]
        if adj:
            if sp:
                return "%s %s" % (words(n), unit), secs
            return "%d-%s" % (n, unit), secs
        if sp:
            return "%s %s%s" % ("an" if n == 1 and unit == "hour" and rng.random() < 0.5 else
                                ("a" if n == 1 and rng.random() < 0.5 else words(n, rng)),
                                unit, "" if n == 1 else "s"), secs
        short = {"second": ["sec", "secs", "s", "seconds"], "minute": ["min", "mins", "minutes", "m"],
                 "hour": ["hr", "hrs", "hours", "h"]}[unit]
        u = rng.choice(short)
        if n == 1 and u in ("seconds", "minutes", "hours"):
            u = u[:-1]
        return ("%d%s" if u in ("s", "m", "h") else "%d %s") % (n, u), secs
    if k == 5:
        return ("half an hour" if not adj else rng.choice(["half hour", "thirty minute"])), 1800
    if k == 6:
        if adj:
            return "quarter hour", 900
        return rng.choice(["a quarter of an hour", "quarter of an hour", "a quarter hour"]), 900
    if k == 7 and not adj:
        return "three quarters of an hour", 2700
    if k == 8 and not adj:
        return rng.choice(["an hour and a half", "one and a half hours", "an hour and thirty minutes",
                           "one hour thirty"]), 5400
    if k == 9 and not adj:
        return rng.choice(["a minute and a half", "one and a half minutes", "ninety seconds"]), 90
    if k == 10 and not adj:
        n = rng.randint(2, 9)
        if sp:
            return "%s and a half minutes" % words(n), n * 60 + 30
        return "%g minutes" % (n + 0.5), n * 60 + 30
    if k == 11 and not adj:
        m, s = rng.randint(1, 9), rng.choice([10, 15, 20, 30, 40, 45])
        if sp:
            return "%s minute%s %s%s seconds" % (words(m), "" if m == 1 else "s",
                                                 rng.choice(["", "and "]), words(s)), m * 60 + s
        return "%d min %d sec" % (m, s), m * 60 + s
    if k == 12 and not adj:
        h, m = rng.randint(1, 3), rng.choice([5, 10, 15, 20, 40, 45])
        if sp:
            hp = "an hour" if h == 1 else words(h) + " hours"
            return "%s and %s minutes" % (hp, words(m)), h * 3600 + m * 60
        return "%d hour%s %d minutes" % (h, "" if h == 1 else "s", m), h * 3600 + m * 60
    # fallback: short minute counts said the plain way
    n = rng.choice([2, 3, 4, 5, 6, 7, 8, 10, 12, 15, 20, 25, 30, 35, 40, 45])
    if adj:
        return ("%s minute" % words(n)) if sp else ("%d minute" % n), n * 60
    return ("%s minutes" % words(n)) if sp else ("%d minutes" % n), n * 60


def r_time(rng, form):
    """A clock time -> "HH:MM" (bare hour = morning; pm/evening/night = afternoon half)."""
    sp = form == "spoken"
    k = rng.randrange(11)
    h = rng.randint(1, 11)
    if k == 0:
        return rng.choice([("noon", "12:00"), ("midday", "12:00"), ("midnight", "00:00"),
                           ("twelve noon", "12:00")])
    if k in (1, 2):  # H am/pm
        pm = rng.random() < 0.5
        hh = h + 12 if pm else h
        if sp:
            return "%s %s" % (words(h), rng.choice(["p m", "pm"] if pm else ["a m", "am"])), "%02d:00" % hh
        half = rng.choice(["pm", "PM", "p.m."] if pm else ["am", "AM", "a.m."])
        return "%d%s%s" % (h, rng.choice(["", " "]), half), "%02d:00" % hh
    if k == 3:  # H o'clock, bare = morning, or with a part of the day
        part = rng.choice(["", "", "in the morning", "in the evening", "at night", "in the afternoon"])
        if part == "at night":
            h = rng.randint(8, 11)
        if part == "in the afternoon":
            h = rng.randint(1, 5)
        if part == "in the evening":
            h = rng.randint(5, 10)
        hh = h + 12 if part in ("in the evening", "at night", "in the afternoon") else h
        base = ("%s o'clock" % words(h)) if sp or rng.random() < 0.5 else ("%d o'clock" % h)
        return (base + (" " + part if part else "")), "%02d:00" % hh
    if k in (4, 5):  # H MM [am/pm]
        m = rng.choice([5, 10, 15, 20, 25, 30, 35, 40, 45, 50, 55, 7, 12, 48])
        pm = rng.random() < 0.4
        hh = h + 12 if pm else h
        if sp:
            mm = ("oh " + ONES[m]) if m < 10 else words(m)
            suf = (" " + rng.choice(["p m", "pm", "in the evening"])) if pm else rng.choice(["", " a m", " am",
                                                                                               " in the morning"])
            if pm and suf == " in the evening" and h < 5:
                suf = " p m"
            return "%s %s%s" % (words(h), mm, suf), "%02d:%02d" % (hh, m)
        sep = rng.choice([":", ":", "."])
        suf = rng.choice(["pm", " pm", " PM"]) if pm else rng.choice(["", "am", " am", " AM"])
        return "%d%s%02d%s" % (h, sep, m, suf), "%02d:%02d" % (hh, m)
    if k == 6:  # 24-hour written, or "seventeen thirty"
        hh = rng.randint(13, 22)
        m = rng.choice([0, 15, 30, 45, 10, 50])
        if sp:
            return "%s %s" % (words(hh), "hundred" if m == 0 else words(m)), "%02d:%02d" % (hh, m)
        return "%02d:%02d" % (hh, m), "%02d:%02d" % (hh, m)
    # half past / quarter past / quarter to / N past / N to
    rel = rng.choice(["half past", "quarter past", "quarter to", "twenty past", "ten to", "ten past",
                      "twenty to", "five past", "a quarter past", "a quarter to"])
    off = {"half past": 30, "quarter past": 15, "a quarter past": 15, "quarter to": -15, "a quarter to": -15,
           "twenty past": 20, "ten to": -10, "ten past": 10, "twenty to": -20, "five past": 5}[rel]
    part = rng.choice(["", "", "in the morning", "in the evening", "pm", "am"])
    if part == "in the evening":
        h = rng.randint(5, 10)
    hr = h if off > 0 else h - 1
    mins = off if off > 0 else 60 + off
    if hr == 0:  # "quarter to one" with a bare hour: 00:45 would need its own rule; keep it simple
        h, hr = 2, 1
    hh = hr + 12 if part in ("in the evening", "pm") else hr
    hs = words(h) if sp or rng.random() < 0.6 else str(h)
    if sp and part == "pm":
        part = "p m"
    if sp and part == "am":
        part = "a m"
    return "%s %s%s" % (rel, hs, (" " + part) if part else ""), "%02d:%02d" % (hh, mins)


def r_day(rng, form, weekend=False):
    k = rng.random()
    if k < 0.3:
        return "tomorrow", "tomorrow"
    if k < 0.45:
        return "today", "today"
    if weekend and k < 0.58:
        return rng.choice(["this weekend", "at the weekend", "on the weekend", "over the weekend"]), "weekend"
    d = rng.choice(WEEKDAYS)
    shown = d if form == "spoken" or rng.random() < 0.4 else d.capitalize()
    return rng.choice(["on ", "", "this "]) + shown, d


TIMER_NAMES = ["lasagna", "muffins", "brownies", "steak", "noodles", "oatmeal", "quinoa", "roast", "pie", "dough",
               "yoga", "homework", "meditation", "plank", "stretching", "parking meter", "dishwasher", "cake",
               "salmon", "soup", "popcorn", "banana bread", "tea bag", "face mask", "hair dye", "boiled eggs",
               "pork chops", "brisket", "sourdough", "nap", "break", "reading", "piano practice", "oven",
               "green beans", "cupcakes", "chili", "scones", "risotto", "porridge"]
CITIES = ["lisbon", "dublin", "nairobi", "oslo", "denver", "phoenix", "lagos", "manila", "hanoi", "cairo",
          "vancouver", "melbourne", "auckland", "mumbai", "buenos aires", "cape town", "rio de janeiro",
          "salt lake city", "las vegas", "new orleans", "hong kong", "kuala lumpur", "reykjavik", "helsinki",
          "glasgow", "edinburgh", "montreal", "houston", "nashville", "portland", "boise", "anchorage", "honolulu",
          "lima", "bogota", "santiago", "prague", "vienna", "krakow", "athens", "istanbul", "doha", "seoul",
          "osaka", "perth", "brisbane", "wellington", "calgary", "winnipeg", "austin", "tampa", "pittsburgh",
          "el paso", "san diego", "kansas city", "tel aviv", "addis ababa", "marrakesh", "st petersburg"]


def r_place(rng, form):
    c = rng.choice(CITIES)
    shown = c if form == "spoken" or rng.random() < 0.3 else " ".join(w.capitalize() for w in c.split())
    return shown, c


def r_level(rng, form):
    n = rng.randint(0, 10)
    if form == "spoken":
        return words(n), n
    return (str(n) if rng.random() < 0.8 else words(n)), n


# Units: code -> (spoken/written names). Pairs that convert: same dimension.
UNITS = {
    "km": ["kilometers", "kilometres", "km", "k"], "mi": ["miles", "mi"], "m": ["meters", "metres", "m"],
    "ft": ["feet", "foot", "ft"], "in": ["inches", "inch", "in"], "cm": ["centimeters", "centimetres", "cm"],
    "kg": ["kilograms", "kilos", "kg", "kilogrammes"], "lb": ["pounds", "lbs", "lb"], "g": ["grams", "g", "grammes"],
    "oz": ["ounces", "oz"], "l": ["liters", "litres", "l"], "ml": ["milliliters", "millilitres", "ml", "mls"],
    "gal": ["gallons", "gal"], "cup": ["cups"], "tbsp": ["tablespoons", "tbsp", "tablespoon"],
    "tsp": ["teaspoons", "tsp", "teaspoon"],
    "c": ["degrees celsius", "celsius", "centigrade", "degrees c", "C"],
    "f": ["degrees fahrenheit", "fahrenheit", "degrees f", "F"],
    "mph": ["miles per hour", "miles an hour", "mph"],
    "kmh": ["kilometers per hour", "km/h", "kph", "kilometres an hour"],
}
DIMENSIONS = [["km", "mi", "m", "ft", "in", "cm"], ["kg", "lb", "g", "oz"], ["l", "ml", "gal", "cup", "tbsp", "tsp"],
              ["c", "f"], ["mph", "kmh"]]
SPOKEN_ONLY_WORDS = re.compile(r"^[a-z ]+$")


def unit_name(code, rng, form, singular=False):
    names = UNITS[code]
    if form == "spoken":
        names = [n for n in names if SPOKEN_ONLY_WORDS.match(n) and n not in ("k", "m", "g", "l", "mi", "ft", "in",
                                                                             "cm", "kg", "lb", "oz", "ml", "gal")]
        names = [n for n in names if n not in ("lbs", "tbsp", "tsp", "mph", "kph", "mls")] or names
    n = rng.choice(names)
    if singular:
        n = {"kilometers": "kilometer", "kilometres": "kilometre", "miles": "mile", "meters": "meter",
             "metres": "metre", "feet": "foot", "inches": "inch", "centimeters": "centimeter",
             "centimetres": "centimetre", "kilograms": "kilogram", "kilos": "kilo", "pounds": "pound",
             "grams": "gram", "ounces": "ounce", "liters": "liter", "litres": "litre",
             "milliliters": "milliliter", "millilitres": "millilitre", "gallons": "gallon", "cups": "cup",
             "tablespoons": "tablespoon", "teaspoons": "teaspoon", "degrees celsius": "degree celsius",
             "degrees fahrenheit": "degree fahrenheit", "miles per hour": "mile per hour",
             "kilometers per hour": "kilometer per hour", "kilogrammes": "kilogramme", "grammes": "gramme",
             "degrees c": "degree c", "degrees f": "degree f", "miles an hour": "mile an hour",
             "kilometres an hour": "kilometre an hour"}.get(n, n)
    return n


def r_quantity(rng, form, temp=False):
    """(value text, value) for a conversion: integers, decimals, halves, negatives for temperatures."""
    sp = form == "spoken"
    k = rng.random()
    if temp:
        v = rng.choice([-40, -10, -5, 0, 4, 12, 18, 21, 25, 30, 37, 40, 50, 68, 72, 98, 100, 180, 200, 350, 425])
        return (words(v) if sp else str(v)), v
    if k < 0.5:
        v = rng.choice(list(range(2, 21)) + [25, 30, 40, 50, 60, 75, 100, 120, 150, 200, 250, 500, 750, 1000])
        return (words(v, rng) if sp else "{:,}".format(v) if v >= 1000 and rng.random() < 0.5 else str(v)), v
    if k < 0.75:
        whole, frac = rng.randint(0, 12), rng.choice([0.5, 0.25, 0.75, 0.2, 0.4, 0.6, 0.8, 0.1])
        v = round(whole + frac, 4)
        if sp:
            fr = {0.5: "five", 0.25: "two five", 0.75: "seven five", 0.2: "two", 0.4: "four", 0.6: "six",
                  0.8: "eight", 0.1: "one"}[frac]
            return "%s point %s" % (words(whole), fr), v
        return ("%g" % v) if whole or rng.random() < 0.5 else ("%g" % v)[1:], v
    if k < 0.88:
        whole = rng.randint(1, 9)
        return ("%s and a half" % words(whole)) if sp else "%d and a half" % whole, whole + 0.5
    return "one", 1


def r_expression(rng, form, imperative=False):
    """(text, canonical expression, result); imperative: "add 3 and 4", "divide 9 by 3" (no "what is" before)."""
    sp = form == "spoken"

    def n(lo, hi):
        v = rng.randint(lo, hi)
        return (words(v, rng) if sp else ("{:,}".format(v) if v >= 1000 and rng.random() < 0.4 else str(v))), v

    k = 0 if imperative else rng.randrange(12)
    if k <= 6:
        op = rng.choice(["+", "-", "*", "/"])
        a_t, a = n(2, 999)
        b_t, b = n(2, 99 if op in "*/" else 999)
        shapes = {
            "+": ["{a} plus {b}", "the sum of {a} and {b}", "{a} + {b}", "{a} and {b} added together"],
            "-": ["{a} minus {b}", "{a} take away {b}", "{a} - {b}", "{a} subtract {b}"],
            "*": ["{a} times {b}", "{a} multiplied by {b}", "{a} x {b}", "{a} * {b}", "the product of {a} and {b}"],
            "/": ["{a} divided by {b}", "{a} / {b}", "{a} over {b}", "{a} shared between {b}"],
        }[op]
        if imperative:
            shapes = {"+": ["add {a} and {b}", "add {a} to {b}"],
                      "-": ["subtract {b} from {a}", "take {b} away from {a}"],
                      "*": ["multiply {a} by {b}", "multiply {a} and {b}"], "/": ["divide {a} by {b}"]}[op]
        shape = rng.choice(shapes if not sp else [x for x in shapes if not re.search(r"[+\-*/]", x.replace("{", ""))
                                                    and " x " not in x])
        text = expand(shape, rng, {"a": a_t, "b": b_t})
        res = {"+": a + b, "-": a - b, "*": a * b, "/": a / b}[op]
        return text, "%d %s %d" % (a, op, b), clean_num(res)
    if k == 7:
        p = rng.choice([5, 10, 12, 15, 18, 20, 25, 30, 40, 50, 75])
        x_t, x = n(20, 900)
        pt = (words(p) + " percent") if sp else rng.choice(["%d%%" % p, "%d percent" % p])
        return "%s of %s" % (pt, x_t), "%d / 100 * %d" % (p, x), clean_num(p / 100 * x)
    if k == 8:
        x = rng.choice([4, 9, 16, 25, 36, 49, 64, 81, 100, 121, 144, 169, 196, 225, 2, 10, 50])
        xt = words(x) if sp else str(x)
        return rng.choice(["the square root of %s", "square root of %s", "root %s"]) % xt, \
            "sqrt(%d)" % x, clean_num(x ** 0.5)
    if k == 9:
        a, b = rng.randint(2, 12), rng.randint(2, 6)
        at, bt = (words(a), words(b)) if sp else (str(a), str(b))
        shape = rng.choice(["%s to the power of %s", "%s to the %s" if b > 3 else "%s to the power of %s"])
        if not sp and rng.random() < 0.3:
            shape = "%s^%s"
        if shape == "%s to the %s":
            bt = ordinal(b) if sp else ordinal_written(b)
        return shape % (at, bt), "%d ^ %d" % (a, b), clean_num(a ** b)
    if k == 10:
        a = rng.randint(2, 40)
        at = words(a) if sp else str(a)
        which = rng.choice(["squared", "cubed"])
        p = 2 if which == "squared" else 3
        return "%s %s" % (at, which), "%d ^ %d" % (a, p), a ** p
    a = round(rng.randint(1, 99) + rng.choice([0.5, 0.25, 0.2, 0.75]), 2)
    b = rng.randint(2, 12)
    at = ("%s point %s" % (words(int(a)), " ".join(ONES[int(d)] for d in ("%g" % a).split(".")[1]))) if sp else "%g" % a
    bt = words(b) if sp else str(b)
    return "%s times %s" % (at, bt), "%s * %d" % (fmt_num(a), b), clean_num(a * b)


# ----------------------------------------------------------------------------------------------------------------
# Intent families. A family: (intent, family name, weight, templates, slot renderers). Templates use the language
# above; <REQ> is a request frame, <SOFT> a softener. Slot renderers: placeholder -> fn(rng, form) returning
# (text, value) and the slot name the value goes to (None: said but not reported).
REQ = ("(can you|could you|would you|will you|can you please|could you please|please|i need you to|"
       "i want you to|i'd like you to|go ahead and|do me a favor and|would you kindly|just)")
SOFT = "[a bit|a little|a touch|a tad|a notch|some|slightly|a little bit]"
MACROS = {"<REQ>": REQ, "<SOFT>": SOFT, "<REQ?>": "[" + REQ[1:-1] + "]"}

S_DUR = {"dur": ("duration_seconds", r_duration)}
S_DURADJ = {"dura": ("duration_seconds", lambda rng, form: r_duration(rng, form, adj=True))}
S_NAME = {"name": ("name", lambda rng, form: (lambda n: (n, n))(rng.choice(TIMER_NAMES)))}
S_LBL = {"lbl": (None, lambda rng, form: (lambda n: (n, n))(rng.choice(TIMER_NAMES)))}
S_TIME = {"time": ("time", r_time)}
S_DAY = {"day": ("day", r_day)}
S_FDAY = {"fday": ("day", lambda rng, form: r_day(rng, form, weekend=True))}
S_PLACE = {"place": ("place", r_place)}
S_LEVEL = {"level": ("level", r_level)}


def _s(*dicts):
    out = {}
    for d in dicts:
        out.update(d)
    return out


INTENT_FAMILIES = [
    # --- time.query
    ("time.query", "direct", 3, [
        "what time is it [now|right now|at the moment]", "what's the time [now|right now]", "time [please|check]",
        "what's the current time", "the time please", "what is the time [now]", "current time",
        "what o'clock is it", "what hour is it"], {}),
    ("time.query", "question", 3, [
        "<REQ> tell me the time", "<REQ> tell me what time it is", "do you know what time it is",
        "do you have the time", "have you got the time", "any idea what time it is", "<REQ> check the time [for me]",
        "could i get the time", "would you mind telling me the time", "do you happen to know the time",
        "what time have we got", "can i have the time"], {}),
    ("time.query", "indirect", 2, [
        "i need to know the time", "i've lost track of time what time is it", "how late is it",
        "i wonder what time it is", "i have no idea what time it is", "what does the clock say",
        "what's the clock say", "i don't have my watch what time is it", "tell me the time real quick",
        "what time we got", "whats the time looking like"], {}),
    # --- date.query
    ("date.query", "direct", 3, [
        "what's the date [today]", "what's today's date", "what is today's date", "what day is it [today]",
        "today's date [please]", "which day of the week is it", "what's the day today",
        "what day of the week is it [today]", "the date please", "what's the date again", "date [please]"], {}),
    ("date.query", "question", 3, [
        "<REQ> tell me the date", "<REQ> tell me what day it is", "do you know what day it is [today]",
        "do you know today's date", "any idea what the date is", "would you mind telling me the date",
        "<REQ> remind me what day it is", "<REQ> give me today's date", "what day are we on",
        "could you tell me what the date is today"], {}),
    ("date.query", "indirect", 2, [
        "i've lost track of the days what day is it", "i can never remember the date what is it",
        "i need today's date for a form", "what's today",
        "what date is it", "what's the date today again", "which day is it"], {}),
    # --- timer.query
    ("timer.query", "direct", 3, [
        "how much time is left [on the timer|on my timer]", "how long is left on the [{lbl}] timer",
        "how much longer on the [{lbl}] timer", "time left on my [{lbl}] timer", "timer status",
        "how long till the [{lbl}] timer goes off", "how many minutes are left [on the timer]",
        "what's left on the [{lbl}] timer", "how much time is remaining on my [{lbl}] timer"], S_LBL),
    ("timer.query", "question", 3, [
        "<REQ> check the [{lbl}] timer", "<REQ> tell me how long is left on the [{lbl}] timer",
        "is the [{lbl}] timer done yet", "is my [{lbl}] timer still going", "when will the [{lbl}] timer go off",
        "when does my [{lbl}] timer end", "how's the [{lbl}] timer doing", "how's my [{lbl}] timer looking",
        "is the [{lbl}] timer still running", "<REQ> tell me how much time the [{lbl}] timer has left",
        "how long has the [{lbl}] timer got left", "how long until the timer rings"], S_LBL),
    ("timer.query", "indirect", 2, [
        "i wonder how long is left on the [{lbl}] timer", "where's the [{lbl}] timer at",
        "how are we doing on the [{lbl}] timer", "how much longer do i have on the timer",
        "remind me how long is left on the timer", "i need to know how much time is left on the timer",
        "how many seconds are left", "how close is the [{lbl}] timer to done"], S_LBL),
    # --- timer.set
    ("timer.set", "direct", 4, [
        "(set|start|make|create) [a|me a] timer for {dur}", "(set|start) a {dura} timer",
        "timer for {dur}", "{dura} timer", "(set|start) a timer {dur}", "countdown {dur}",
        "(set|start) a timer for {dur} for the {name}", "(set|start) a {name} timer for {dur}",
        "{name} timer {dur}", "(set|start) a {dura} timer for [the|my] {name}"], _s(S_DUR, S_DURADJ, S_NAME)),
    ("timer.set", "question", 3, [
        "<REQ> set a timer for {dur}", "<REQ> start a {dura} timer", "can i get a {dura} timer",
        "can i have a timer for {dur}", "could you time {dur} for me", "would you mind setting a timer for {dur}",
        "<REQ> put a timer on for {dur}", "<REQ> set the {name} timer for {dur}",
        "can you time the {name} for {dur}", "could you count down {dur}"], _s(S_DUR, S_DURADJ, S_NAME)),
    ("timer.set", "indirect", 3, [
        "remind me in {dur}", "let me know when {dur} (is up|have passed)", "ping me in {dur}",
        "i need a timer for {dur}", "i need a {dura} timer", "give me a shout in {dur}",
        "tell me when {dur} is up", "the {name} has to go for {dur} set a timer",
        "time my {name} for {dur}", "alert me in {dur}", "buzz me in {dur}", "wake me in {dur}"],
     _s(S_DUR, S_DURADJ, S_NAME)),
    ("timer.set", "slang", 1, [
        "chuck on a timer for {dur}", "whack a {dura} timer on", "stick a timer on for {dur}",
        "bang on a {dura} timer", "gimme a {dura} timer", "throw on a timer for {dur}",
        "pop a timer on for {dur} for the {name}", "yo {dura} timer"], _s(S_DUR, S_DURADJ, S_NAME)),
    # --- timer.cancel
    ("timer.cancel", "direct", 4, [
        "(cancel|stop|delete|kill|clear|end|remove|turn off|switch off|shut off) the timer",
        "(cancel|stop|delete|kill|clear|turn off) the {name} timer",
        "(cancel|stop|delete|clear) all [my|the] timers", "(cancel|stop|delete) the timer for the {name}",
        "(cancel|stop) my timer", "(cancel|abort|stop) the countdown"], S_NAME),
    ("timer.cancel", "question", 2, [
        "<REQ> cancel the timer", "<REQ> get rid of the {name} timer", "<REQ> turn the timer off",
        "<REQ> stop the {name} timer", "would you mind cancelling the timer",
        "could you switch the {name} timer off"], S_NAME),
    ("timer.cancel", "indirect", 2, [
        "i don't need the timer anymore", "i no longer need the {name} timer", "forget about the timer",
        "forget the {name} timer", "never mind the timer", "scrap the timer", "ditch the {name} timer",
        "we don't need that timer anymore",
        "nix the timer", "bin the {name} timer", "lose the timer"], S_NAME),
    # --- alarm.set
    ("alarm.set", "direct", 4, [
        "set an alarm for {time}", "set an alarm for {time} {day}", "alarm for {time} [{day}]",
        "wake me up at {time}", "wake me up {day} at {time}", "set my alarm for {time} [{day}]",
        "alarm at {time}", "wake me at {time} [{day}]", "set an alarm {day} at {time}",
        "(create|make|add|schedule) an alarm for {time}"], _s(S_TIME, S_DAY)),
    ("alarm.set", "question", 3, [
        "<REQ> wake me up at {time}", "<REQ> set an alarm for {time} [{day}]", "could you get me up at {time}",
        "would you mind waking me at {time}", "can you make sure i'm up at {time}",
        "<REQ> put an alarm on for {time}", "can i get an alarm for {time} [{day}]",
        "would you set an alarm for {day} at {time}"], _s(S_TIME, S_DAY)),
    ("alarm.set", "indirect", 3, [
        "i need to be up at {time}", "i have to get up at {time} [{day}]", "i need to wake up at {time} {day}",
        "i've got to be up by {time}", "i want to get up at {time}", "get me up at {time} [{day}]",
        "make sure i'm awake by {time}", "i need an alarm for {time}", "i have an early start {day} wake me at {time}",
        "i gotta be up at {time}"], _s(S_TIME, S_DAY)),
    # --- alarm.cancel (catalogue intent the handlers need; not in the dev data)
    ("alarm.cancel", "direct", 2, [
        "(cancel|delete|remove|turn off|switch off|disable) my alarm", "(cancel|delete|remove) the alarm for {time}",
        "(cancel|delete|turn off) my alarm for {day}", "(cancel|delete|remove|clear) all [my] alarms",
        "(cancel|delete) the {time} alarm"], _s(S_TIME, S_DAY)),
    ("alarm.cancel", "indirect", 1, [
        "i don't need an alarm {day}", "don't wake me up {day}", "no need to wake me {day}",
        "<REQ> get rid of my alarm", "i don't need the alarm anymore", "<REQ> switch off the alarm for {time}"],
     _s(S_TIME, S_DAY)),
    # --- alarm.query
    ("alarm.query", "direct", 2, [
        "what alarms do i have", "when is my next alarm", "what time is my alarm set for", "list my alarms",
        "show me my alarms", "which alarms are set", "when's my alarm"], {}),
    ("alarm.query", "question", 1, [
        "do i have any alarms set", "did i set an alarm", "is there an alarm set", "have i got any alarms",
        "<REQ> tell me what alarms i have", "<REQ> check my alarms", "when am i getting woken up",
        "what time are you waking me up"], {}),
    # --- volume.up
    ("volume.up", "direct", 3, [
        "turn it up <SOFT>", "volume up <SOFT>", "louder", "louder please", "<SOFT> louder",
        "turn the (volume|music|sound) up <SOFT>", "(raise|increase|boost) the volume <SOFT>", "turn up the music",
        "make it louder", "up the volume", "more volume"], {}),
    ("volume.up", "question", 3, [
        "<REQ> turn it up <SOFT>", "<REQ> make it louder", "<REQ> turn the volume up", "can you speak up",
        "could you talk a bit louder", "would you mind turning it up", "can you bump the volume up",
        "<REQ> raise the volume", "is there any way you can make it louder"], {}),
    ("volume.up", "indirect", 3, [
        "i can't hear (you|it|anything|the music)", "it's too quiet", "that's way too quiet",
        "i can barely hear (you|it|that)", "it's (hard|difficult) to hear", "this is too soft",
        "i can hardly hear the music", "the music is too quiet", "you're too quiet", "i can't hear a thing",
        "it's not loud enough", "you're really quiet"], {}),
    ("volume.up", "slang", 1, [
        "crank it up", "crank it", "pump it up", "bump it up <SOFT>", "turn that up", "crank up the tunes",
        "louder louder", "bump up the volume", "turn it right up"], {}),
    # --- volume.down
    ("volume.down", "direct", 3, [
        "turn it down <SOFT>", "volume down <SOFT>", "quieter", "softer [please]", "<SOFT> quieter",
        "turn the (volume|music|sound) down <SOFT>", "(lower|decrease|reduce) the volume <SOFT>",
        "turn down the music", "make it quieter", "lower volume", "less volume"], {}),
    ("volume.down", "question", 3, [
        "<REQ> turn it down <SOFT>", "<REQ> make it quieter", "<REQ> lower the volume",
        "would you mind turning it down", "could you bring the volume down <SOFT>", "can you be quieter",
        "could you talk more quietly", "<REQ> turn the music down"], {}),
    ("volume.down", "indirect", 3, [
        "it's too loud [in here]", "that's (way|far|much) too loud", "this is too loud", "you're too loud",
        "the music is too loud", "my ears are hurting", "that's deafening", "it's really loud",
        "the baby's asleep turn it down", "the neighbours will complain it's too loud", "not so loud",
        "it's a bit loud"], {}),
    ("volume.down", "slang", 1, [
        "tone it down", "dial it down <SOFT>", "keep it down", "bring it down a notch", "knock it down a bit",
        "turn that down", "take it down a notch", "easy on the volume"], {}),
    # --- volume.mute
    ("volume.mute", "direct", 3, [
        "mute", "mute [it|yourself|the speaker|the sound|the audio|the music]", "sound off", "volume off",
        "turn the sound off", "switch off the sound", "turn off the audio", "mute everything"], {}),
    ("volume.mute", "question", 2, [
        "<REQ> mute [yourself|the speaker|the sound]", "<REQ> turn the sound off", "could you go silent",
        "would you mind muting the sound", "can you kill the sound"], {}),
    ("volume.mute", "indirect", 2, [
        "i need some silence mute the sound", "no sound please", "cut the sound", "kill the audio",
        "go silent", "silence the speaker", "mute it i'm on a call", "i'm on the phone mute"], {}),
    # --- volume.set
    ("volume.set", "direct", 4, [
        "(set|change|put|turn) the volume to {level}", "volume (to|at) {level}", "volume {level}",
        "volume level {level}", "set volume {level}", "(set|put) it (to|at|on) {level}",
        "set the sound to {level}", "(bring|turn) the volume (down|up) to {level}", "level {level} volume"],
     S_LEVEL),
    ("volume.set", "question", 2, [
        "<REQ> set the volume to {level}", "<REQ> put the volume on {level}",
        "could you change the volume to level {level}", "can you make the volume {level}",
        "would you mind setting the volume to {level}"], S_LEVEL),
    ("volume.set", "other_numbers", 2, [
        "volume {level} out of ten", "set the volume to {level} out of ten", "put it on level {level}",
        "make the volume a {level}", "volume level {level} please"], S_LEVEL),
    ("volume.set", "max", 1, [
        "(max|maximum|full) volume", "volume to (max|maximum)", "set the volume to (maximum|max)",
        "turn the volume all the way up to ten", "max it out at ten"], {}),
    ("volume.set", "percent", 1, ["set the volume to {pct}", "volume {pct}", "put the volume at {pct}"], {}),
    # --- stop
    ("stop", "direct", 3, [
        "stop", "stop it", "stop that", "stop now", "stop playing", "stop talking", "stop the music",
        "halt", "cancel that", "end it", "quit it", "stop stop", "stop everything"], {}),
    ("stop", "question", 2, [
        "<REQ> stop", "<REQ> stop talking", "could you stop please", "would you stop", "can you be quiet",
        "will you stop that", "can you shut up"], {}),
    ("stop", "indirect", 2, [
        "that's enough", "enough", "enough already", "that'll do", "that will do thanks", "okay that's enough",
        "i've heard enough", "never mind", "forget it", "forget about it", "alright alright that's enough",
        "no no stop", "ok you can stop now", "i don't want to hear any more"], {}),
    ("stop", "slang", 1, [
        "shut up", "be quiet", "hush", "zip it", "knock it off", "cut it out", "quiet", "shh stop",
        "pack it in", "give it a rest"], {}),
    # --- repeat
    ("repeat", "direct", 3, [
        "repeat [that|it|yourself|the last part|what you said]", "say that again", "say it again", "again please",
        "one more time", "repeat the last thing", "say again"], {}),
    ("repeat", "question", 3, [
        "<REQ> repeat that", "<REQ> say that again", "what did you say", "what was that", "sorry what was that",
        "could you go over that again", "can you say it one more time", "would you mind repeating that",
        "what did you just say", "come again"], {}),
    ("repeat", "indirect", 2, [
        "i didn't catch that", "i didn't hear you", "i missed that", "i didn't get that", "sorry i missed that",
        "pardon", "pardon me", "sorry", "huh", "i couldn't hear what you said", "run that by me again",
        "i didn't quite catch what you said"], {}),
    # --- privacy.offline
    ("privacy.offline", "direct", 3, [
        "go offline", "(turn on|enable|activate|switch on) (privacy|private|offline) mode",
        "(privacy|private|offline) mode [on]", "switch to (private|privacy|offline) mode",
        "disconnect from the (internet|cloud)", "(disable|turn off|cut) the internet",
        "stay offline", "work offline"], {}),
    ("privacy.offline", "question", 2, [
        "<REQ> go offline", "<REQ> turn on privacy mode", "<REQ> stop using the cloud",
        "can you switch to offline mode", "could you disconnect from the internet for a while",
        "would you mind going offline"], {}),
    ("privacy.offline", "indirect", 2, [
        "keep everything local", "don't send anything to the cloud", "i don't want anything leaving this device",
        "keep it all on the device", "i want my data to stay here", "no cloud from now on",
        "stop talking to the internet", "i don't want you online right now", "keep this conversation offline",
        "nothing goes to the cloud okay"], {}),
    ("privacy.offline", "slang", 1, [
        "go dark", "unplug from the internet", "go off grid", "stay off the internet", "incognito mode on",
        "get off the internet"], {}),
    # --- privacy.online
    ("privacy.online", "direct", 3, [
        "go back online", "go online", "(turn off|disable|exit|leave|end) (privacy|private|offline) mode",
        "(privacy|private|offline) mode off", "reconnect to the (internet|cloud)", "back online",
        "switch back to normal mode", "(enable|restore) internet access", "online mode"], {}),
    ("privacy.online", "question", 2, [
        "<REQ> go back online", "<REQ> turn off privacy mode", "<REQ> reconnect to the internet",
        "can you come back online", "could you switch back to online mode"], {}),
    ("privacy.online", "indirect", 2, [
        "you can use the cloud again", "you can go online now", "it's okay to use the internet again",
        "i'm done with private mode", "you can connect to the internet again", "turn the internet back on",
        "privacy mode is no longer needed", "get back online"], {}),
    # --- weather.query
    ("weather.query", "direct", 4, [
        "what's the weather [like] [in {place}] [{fday}]", "weather [in|for] {place} [{fday}]",
        "weather {fday}", "what's the forecast [for {place}] [{fday}]", "forecast {fday} [in {place}]",
        "how's the weather (in|looking in) {place}", "what's the weather going to be like {fday}",
        "what's the temperature [outside] [in {place}]"], _s(S_PLACE, S_FDAY)),
    ("weather.query", "question", 4, [
        "is it going to rain [in {place}] [{fday}]", "will it (rain|snow|be sunny|be windy|be cold|be hot) {fday}",
        "is it (raining|snowing|sunny|cold|warm) in {place}", "do i need an umbrella [{fday}]",
        "do i need a (jacket|coat|sweater) [{fday}]", "how (cold|hot|warm) is it [outside] [in {place}]",
        "how (cold|hot) will it be {fday}", "<REQ> tell me the weather [in {place}] [{fday}]",
        "<REQ> check the forecast [for {place}] [{fday}]", "any rain (expected|forecast) {fday}",
        "is there (rain|snow) coming [{fday}]", "what's it like outside", "should i bring an umbrella [{fday}]"],
     _s(S_PLACE, S_FDAY)),
    ("weather.query", "indirect", 2, [
        "i'm heading to {place} {fday} what's the weather like there", "i wonder if it'll rain {fday}",
        "i need to know if it's going to rain [{fday}]", "is it shorts weather {fday}",
        "what should i expect weather wise {fday}", "what are the skies doing [in {place}]",
        "how's it looking outside", "what's the outlook for {place} {fday}"], _s(S_PLACE, S_FDAY)),
    # --- convert.units
    ("convert.units", "direct", 4, [
        "convert {q} {from} (to|into|in) {to}", "{q} {from} (to|in|into) {to}", "{q} {from} in {to} please",
        "what's {q} {from} in {to}", "what is {q} {from} in {to}", "how many {to} (is|are|in) {q} {from}",
        "how many {to} are there in {q} {from}", "{q} {from} (is|equals) how many {to}"], {}),
    ("convert.units", "question", 3, [
        "<REQ> convert {q} {from} to {to}", "<REQ> tell me how many {to} are in {q} {from}",
        "do you know how many {to} (is|are) {q} {from}", "how much is {q} {from} in {to}",
        "what would {q} {from} be in {to}", "what's {q} {from} converted to {to}",
        "how many {to} would {q} {from} be"], {}),
    ("convert.units", "indirect", 2, [
        "i need {q} {from} in {to}", "the recipe says {q} {from} how many {to} is that",
        "i have {q} {from} how many {to} is that", "change {q} {from} to {to}", "turn {q} {from} into {to}",
        "i want {q} {from} in {to}", "{q} {from} what's that in {to}"], {}),
    # --- math.compute
    ("math.compute", "direct", 4, [
        "what's {expr}", "what is {expr}", "{expr}", "calculate {expr}", "{expr} equals", "work out {expr}",
        "how much is {expr}", "compute {expr}"], {}),
    ("math.compute", "question", 3, [
        "<REQ> work out {expr}", "<REQ> calculate {expr}", "do you know what {expr} is",
        "what do you get (for|from) {expr}", "what does {expr} come to", "any idea what {expr} is",
        "what's the answer to {expr}"], {}),
    ("math.compute", "slang", 1, [
        "quick maths {expr}", "quick math {expr}", "{expr} go", "solve {expr}", "figure out {expr}",
        "{expr} what's that"], {}),
    ("math.compute", "imperative", 1, [
        "{expr}", "<REQ> {expr}", "{expr} for me", "quickly {expr}", "{expr} and tell me the answer"], {}),
]


def j_convert(rng, form):
    dim = rng.choice(DIMENSIONS + [DIMENSIONS[0], DIMENSIONS[1], DIMENSIONS[2]])
    a, b = rng.sample(dim, 2)
    qt, q = r_quantity(rng, form, temp=(a == "c"))
    if a in ("c", "f") and form != "spoken" and rng.random() < 0.3:
        # "30°C in F" typed compactly
        return {"q": qt, "from": "\u00b0" + a.upper(), "to": unit_name(b, rng, form)}, \
            {"value": q, "from": a, "to": b}
    singular = q == 1
    if q == 1 and rng.random() < 0.5 and a not in ("c", "f"):
        qt = "an" if unit_name(a, rng, "spoken", True)[0] in "aeiou" else "a"
    return {"q": qt, "from": unit_name(a, rng, form, singular), "to": unit_name(b, rng, form)}, \
        {"value": q, "from": a, "to": b}


def j_convert_fix(values):
    # "°C" glued to the number: "30°C"
    if values["from"].startswith("\u00b0"):
        values = dict(values)
        values["q"] = values["q"] + values["from"]
        values["from"] = ""
    return values


def j_math(rng, form, imperative=False):
    text, expr, res = r_expression(rng, form, imperative)
    return {"expr": text}, {"expression": expr, "result": res}


def j_pct(rng, form):
    pct = rng.choice([0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100])
    t = (words(pct) + " percent") if form == "spoken" else rng.choice(["%d%%" % pct, "%d percent" % pct])
    return {"pct": t}, {"level": pct // 10}


JOINT = {"convert.units": j_convert, "math.compute": j_math, ("volume.set", "percent"): j_pct,
         ("math.compute", "imperative"): lambda rng, form: j_math(rng, form, True)}
FIXED = {("volume.set", "max"): {"level": 10}}

# ----------------------------------------------------------------------------------------------------------------
# "none": open requests and statements, many with a command word that must not trigger a command.
NONE_FAMILIES = [
    ("knowledge", 4, [
        "what's the tallest mountain in africa", "how far away is the moon", "who wrote pride and prejudice",
        "what's the capital of australia", "how many bones are in the human body", "when did the berlin wall fall",
        "what's the speed of light", "how deep is the pacific ocean", "what language do they speak in brazil",
        "who painted the starry night", "how many moons does jupiter have", "what's the longest river in europe",
        "when was the printing press invented", "what's the population of canada", "how do bees make honey",
        "what is photosynthesis", "what does dna stand for", "which planet is the hottest",
        "who discovered penicillin", "what's the boiling point of water at altitude", "how old is the universe",
        "what's the biggest animal that ever lived", "who was the first woman in space",
        "what's the chemical symbol for gold", "how many players are on a rugby team",
        "what's the difference between a frog and a toad", "why is the sea salty", "where do penguins live",
        "how many time zones does russia have", "what year did the titanic sink",
        "what's the national animal of scotland", "how are rainbows formed"]),
    ("chitchat", 3, [
        "how are you today", "do you like music", "you're funny", "i'm bored", "good morning", "what's up",
        "are you a robot", "do you have feelings", "what's your favourite colour", "i love you",
        "you're the best", "tell me something interesting", "i had a rough day", "can we be friends",
        "do you dream", "what are you up to", "good night", "i'm so tired today", "that's hilarious",
        "you're not very smart are you", "guess what happened today", "do you ever sleep",
        "are you listening to me", "i just got a new puppy"]),
    ("advice", 3, [
        "how do i get red wine out of a carpet", "what should i get my dad for his birthday",
        "give me some tips for sleeping better", "how can i save money on groceries",
        "what's a good name for a goldfish", "how should i prepare for a job interview",
        "what's the best way to learn guitar", "how do i unclog a drain", "any ideas for a rainy day with kids",
        "what plants are safe for cats", "how often should i water a cactus", "is it bad to crack your knuckles",
        "what can i do about a squeaky door", "how do i write a cover letter", "suggest a weekend project",
        "how can i be more productive", "what's a good stretch for a sore back"]),
    ("creative", 2, [
        "tell me a joke", "write a poem about autumn leaves", "tell me a bedtime story about a brave otter",
        "make up a riddle", "tell me a fun fact", "sing me a song", "write a haiku about coffee",
        "tell me a story about a robot who learns to paint", "give me a tongue twister",
        "come up with a name for my band", "tell me a knock knock joke", "describe a sunset like a pirate"]),
    ("recipe", 2, [
        "what can i make with eggs and spinach", "how do i make pancakes", "give me a recipe for banana bread",
        "what goes well with salmon", "how long do i roast a chicken", "what's a quick vegetarian dinner",
        "how do you make a roux", "what spices go in a curry", "can i freeze cooked rice",
        "what's a substitute for buttermilk", "how long should i boil an egg for a runny yolk"]),
    ("command_word", 6, [
        # statements and questions that merely mention a command word
        "my timer at work is broken", "the weather was nice yesterday", "what is the volume of a sphere",
        "what time does the bakery open", "i set an alarm yesterday but it didn't go off",
        "how do i set an alarm on my phone", "who invented the alarm clock", "what's the time complexity of quicksort",
        "what time zone is chicago in", "convert my word document to pdf", "what's louder a lion or a jet engine",
        "is it rude to mute people on video calls", "my neighbours are too loud every night",
        "the volume knob on my amplifier is broken", "what are some good offline games for kids",
        "what does private browsing actually do", "what date is thanksgiving this year", "when is easter",
        "what's a good first date idea", "how long should i cook salmon", "how long does it take to boil an egg",
        "remind me to call the dentist", "remind me to buy milk when i'm at the shop", "turn up the heating",
        "turn the lights down", "turn off the bedroom lights", "i love rainy weather", "what causes thunderstorms",
        "how hot is the sun", "what's the weather like on mars", "where's the nearest bus stop",
        "i can't stop sneezing", "how do i stop my cat scratching the sofa", "is repeat a verb",
        "my kid keeps repeating everything i say", "is my data private", "my internet is slow today",
        "that cloud looks like a rabbit", "convert this recipe to vegan", "how many people live in tokyo",
        "how many legs does a spider have", "how many cups of coffee is too many",
        "what's the answer to life the universe and everything", "is maths hard", "what year did world war two end",
        "the timer on the oven is beeping for no reason", "my alarm clock is ten minutes fast",
        "what time did the game finish last night", "what's the best time to visit japan",
        "turn this song into a ringtone", "louder is not always better",
        "stop sign shapes are octagons right", "what's the loudest animal on earth",
        "who sang pump up the volume", "how many minutes of exercise should i do a day",
        "the temperature in the fridge seems off",
        "what do people mean by offline", "what was the date of the moon landing",
        "what time is sunset in winter", "i forgot to set my alarm and missed the bus",
        "is it safe to microwave plastic", "how quiet is a library supposed to be"]),
    ("smart_home", 2, [
        "turn on the kitchen lights", "lock the front door", "set the thermostat to twenty one degrees",
        "play some jazz", "play the next episode", "shuffle my workout playlist", "add eggs to my shopping list",
        "call mum", "send a message to the group chat", "open the garage", "start the robot vacuum",
        "read my new emails", "what's on my calendar tomorrow", "order more coffee pods", "find my phone",
        "dim the living room lights to half", "skip this song", "who's at the door", "start my morning routine",
        "book a table for two tonight"]),
]


def _macro(t):
    for k, v in MACROS.items():
        t = t.replace(k, v)
    return t


def intent_line(rng, intent, form):
    """(text, slots, family, noisy) for one intent ("none" included)."""
    if intent == "none":
        fams = NONE_FAMILIES
        fam = rng.choices(fams, weights=[f[1] for f in fams])[0]
        core = rng.choice(fam[2])
        family = "none." + fam[0]
        slots = {}
        pre, core, suf = add_filler(core, rng, 0.25, 0.15, NONE_SUFFIXES)
    else:
        fams = [f for f in INTENT_FAMILIES if f[0] == intent]
        fam = rng.choices(fams, weights=[f[2] for f in fams])[0]
        _, fname, _, templates, renderers = fam
        family = intent + "." + fname
        skeleton = expand(_macro(rng.choice(templates)), rng)
        present = re.findall(r"\{(\w+)\}", skeleton)
        values = {}
        slots = dict(FIXED.get((intent, fname), {}))
        joint = JOINT.get((intent, fname)) or JOINT.get(intent)
        if joint:
            jv, js = joint(rng, form)
            if intent == "convert.units":
                jv = j_convert_fix(jv)
            values.update(jv)
            slots.update(js)
        for ph in present:
            if ph in values:
                continue
            slot, fn = renderers[ph]
            text, value = fn(rng, form)
            values[ph] = text
            if slot:
                slots[slot] = value
        core = re.sub(r"\{(\w+)\}", lambda m: mark("", values[m.group(1)]) if values[m.group(1)] else "",
                      skeleton)
        core = re.sub(r" +", " ", core).strip()
        pre, core, suf = add_filler(core, rng, 0.3, 0.3)
    noisy = False
    if form == "spoken":
        s = spoken_surface(pre, core, suf)
        if rng.random() < 0.12:
            n = asr_noise(s, rng)
            noisy = unmark(n)[0] != unmark(s)[0]
            s = n
        text = re.sub(r" +", " ", unmark(s)[0]).strip()
        assert SPOKEN_OK.match(text), text
    else:
        text = unmark(written_surface(pre, core, suf, rng))[0]
    return text, slots, family, noisy


def intent_schedule(n, rng):
    intents = []
    for f in INTENT_FAMILIES:
        if f[0] not in intents:
            intents.append(f[0])
    n_none = round(n * 0.35)
    weights = {i: (0.5 if i in ("alarm.cancel", "alarm.query") else 1.0) for i in intents}
    total = sum(weights.values())
    plan = ["none"] * n_none
    rest = n - n_none
    counts = {i: int(rest * weights[i] / total) for i in intents}
    short = rest - sum(counts.values())
    for i in intents[:short]:
        counts[i] += 1
    for i in intents:
        plan += [i] * counts[i]
    rng.shuffle(plan)
    return plan


def gen_intents(n, seed):
    rng = random.Random("intents-%d" % seed)
    out = []
    seen = set()
    for k, intent in enumerate(intent_schedule(n, rng)):
        form = "spoken" if rng.random() < 0.7 else "written"
        for _ in range(6):  # prefer a line not yet written
            text, slots, family, noisy = intent_line(rng, intent, form)
            if text not in seen:
                break
        seen.add(text)
        out.append({"id": "valid-intents-%05d" % (k + 1), "text": text, "form": form, "intent": intent,
                    "slots": slots, "source": "valid." + family, "asr_noise": noisy})
    return out


# ----------------------------------------------------------------------------------------------------------------
# Personal data: lexicons (this generator's own).
FIRST = ["tobias", "ingeborg", "mariana", "kwame", "yusuf", "rosalind", "thandiwe", "aurelio", "beatriz", "cormac",
         "dagny", "eamon", "farida", "gideon", "halima", "isidore", "kalani", "lorcan", "marisol", "nnamdi",
         "oksana", "pradeep", "quentin", "rukhsana", "solveig", "tadeo", "ulrike", "vikram", "wilhelmina",
         "xiomara", "yevgenia", "zubair", "ottilie", "bartholomew", "chidinma", "desmond", "esperanza", "fintan",
         "gwendolyn", "hamza", "ines", "jorah", "keziah", "leopold", "mehmet", "niamh", "oriana", "perpetua",
         "radomir", "saoirse", "teodor", "uchenna", "valentina", "wendell", "yara", "zoltan", "agnieszka",
         "bongani", "cressida", "dario", "emre", "fenella", "gulnara", "hollis", "ivo", "jiho", "katarzyna",
         "linnea", "matteo", "noor", "osric", "paloma", "rafferty", "sigrid", "tamsin", "umar", "vesna", "wren"]
# First names that are also ordinary words or months: hard cases.
WORDLIKE_FIRST = ["rose", "will", "grace", "hope", "joy", "faith", "bill", "mark", "jack", "summer", "june",
                  "april", "dawn", "hunter", "sunny", "river", "sky", "frank", "penny", "autumn"]
LAST = ["okonkwo", "lindqvist", "vasquez", "hargreaves", "nakamura", "oyelaran", "petrakis", "achterberg",
        "delacroix", "mwangi", "szymanski", "fitzgerald", "castellanos", "brennan", "haddad", "quispe",
        "rasmussen", "thornton", "abernathy", "kowalczyk", "oduya", "bellweather", "van der berg", "o'sullivan",
        "ferreira", "gallagher", "hakimi", "ishikawa", "jankowski", "kaczmarek", "lombardi", "mbatha", "novak",
        "ortega", "pellegrini", "ramaswamy", "santangelo", "takahashi", "underwood", "villanueva", "whitlock",
        "yamamoto", "zielinski", "adeyemi", "bhattacharya", "caruso", "dimitrov", "eriksen", "forsythe",
        "gutierrez", "holloway", "iyer", "juarez", "kirkpatrick", "lachance", "moreno", "nwachukwu", "ashworth"]
TITLES = ["dr", "doctor", "mr", "mrs", "ms", "miss", "professor", "nurse", "aunt", "uncle", "auntie", "grandma",
          "coach", "pastor", "officer", "judge"]
PUBLIC = ["serena williams", "neil armstrong", "frida kahlo", "nelson mandela", "marie curie", "lionel messi",
          "dolly parton", "barack obama", "stephen hawking", "ed sheeran", "billie eilish", "david attenborough",
          "oprah winfrey", "bob marley", "ada lovelace", "leonardo da vinci", "william shakespeare", "jane austen",
          "albert einstein", "taylor swift", "usain bolt", "michelle obama", "freddie mercury", "greta thunberg",
          "malala yousafzai", "winston churchill", "cleopatra", "mozart", "elvis presley", "lady gaga",
          "keanu reeves", "simone biles", "charles darwin", "martin luther king", "agatha christie",
          "pablo picasso", "rihanna", "roger federer", "queen elizabeth", "king charles", "beyonce", "adele"]
STREETS = ["larkspur lane", "whitcombe road", "juniper court", "harbour view terrace", "quarry hill road",
           "millbrook avenue", "saint anselm street", "old mill lane", "cobblestone way", "birchwood drive",
           "kestrel close", "tanner's row", "orchard crescent", "foxglove gardens", "westgate boulevard",
           "heron place", "copper beech road", "alder grove", "sycamore street", "pennington parkway",
           "lighthouse road", "meadowsweet drive", "granary lane", "brewer street", "elmhurst place"]
US_CITIES = [("eugene", "oregon", "OR"), ("boise", "idaho", "ID"), ("madison", "wisconsin", "WI"),
             ("savannah", "georgia", "GA"), ("tucson", "arizona", "AZ"), ("albany", "new york", "NY"),
             ("burlington", "vermont", "VT"), ("dayton", "ohio", "OH"), ("fresno", "california", "CA"),
             ("lansing", "michigan", "MI"), ("el paso", "texas", "TX"), ("spokane", "washington", "WA")]
UK_CITIES = [("norwich", "NR"), ("exeter", "EX"), ("york", "YO"), ("cardiff", "CF"), ("aberdeen", "AB"),
             ("bath", "BA"), ("derby", "DE"), ("plymouth", "PL"), ("swansea", "SA"), ("lincoln", "LN")]
EMAIL_DOMAINS = ["fastmail.com", "proton.me", "icloud.com", "hotmail.co.uk", "gmx.de", "mailbox.org", "zoho.com",
                 "aol.com", "btinternet.com", "comcast.net", "larkspur-design.com", "riverbend.edu",
                 "northpeak.org", "me.com", "live.ca", "web.de"]
CONDITIONS = ["myasthenia gravis", "ehlers danlos syndrome", "sarcoidosis", "hashimoto's thyroiditis",
              "ulcerative colitis", "crohn's disease", "endometriosis", "fibromyalgia", "narcolepsy", "lupus",
              "gout", "sciatica", "tinnitus", "vertigo", "shingles", "psoriasis", "celiac disease", "long covid",
              "post traumatic stress disorder", "bipolar disorder", "adhd", "anorexia", "atrial fibrillation",
              "copd", "glaucoma", "macular degeneration", "multiple sclerosis", "parkinson's", "sickle cell anemia",
              "hemophilia", "cystic fibrosis", "pcos", "sleep apnea", "kidney stones", "a|torn acl",
              "interstitial cystitis", "trigeminal neuralgia", "graves disease", "addison's disease", "alopecia",
              "raynaud's", "tourette syndrome", "meniere's disease", "pernicious anemia", "lymphoma",
              "an|anxiety disorder", "ocd", "scoliosis", "diverticulitis", "chronic fatigue syndrome",
              "huntington's disease", "achalasia", "polymyalgia rheumatica", "a|heart murmur", "epilepsy",
              "postpartum depression", "a|peanut allergy", "early onset dementia", "hepatitis c", "hiv"]
MEDICATIONS = ["hydroxychloroquine", "methotrexate", "adalimumab", "humira", "lamotrigine", "sertraline",
               "escitalopram", "warfarin", "apixaban", "eliquis", "levothyroxine", "gabapentin", "pregabalin",
               "tamoxifen", "insulin glargine", "semaglutide", "ozempic", "buprenorphine", "naltrexone", "lithium",
               "clozapine", "mesalamine", "tacrolimus", "pyridostigmine", "modafinil", "spironolactone",
               "finasteride", "isotretinoin", "montelukast", "albuterol", "salbutamol", "prednisolone",
               "allopurinol", "colchicine", "dapagliflozin", "rivaroxaban", "valproate", "topiramate",
               "hydroxyurea", "riluzole", "quetiapine", "bupropion", "venlafaxine", "propranolol", "amlodipine",
               "methylphenidate", "lisdexamfetamine", "carbidopa levodopa", "donepezil", "truvada", "fluoxetine",
               "metoprolol", "an|epipen", "baclofen", "sumatriptan", "oxybutynin"]
PLACE_HEADS = ["brookhaven", "saint brigid's", "cedar ridge", "harbourside", "maple grove", "kingsway",
               "riverbend", "tallow lane", "willowbrook", "oakmere", "halloway", "little acorns", "greyfriars",
               "saint aidan's", "pinecrest", "larchmont", "silverleaf", "hawthorn hill", "ashbury", "bellhaven",
               "fernside", "lakeshore", "northfield", "redwood", "stonebridge", "thistledown"]
PLACE_TAILS = {"work": ["logistics", "distribution centre", "dental practice", "veterinary clinic", "primary school",
                        "high school", "public library", "business park", "credit union", "garden centre"],
               "school": ["elementary", "primary school", "middle school", "academy", "nursery", "high school",
                          "montessori", "college"],
               "care": ["care home", "hospice", "dialysis centre", "rehabilitation center", "medical practice",
                        "memorial hospital", "physiotherapy", "psychiatric unit", "fertility clinic",
                        "methadone clinic"],
               "leisure": ["gym", "fitness", "climbing centre", "bowling alley", "golf club", "leisure centre",
                           "boxing club", "yoga studio", "swim club", "community garden"],
               "faith": ["chapel", "baptist church", "mosque", "synagogue", "gurdwara", "parish church",
                         "kingdom hall", "temple"]}
PUBLIC_PLACES = ["the louvre", "the natural history museum", "heathrow", "central park", "the eiffel tower",
                 "costco", "ikea", "the british library", "yellowstone", "disneyland", "wembley stadium",
                 "the golden gate bridge", "times square", "the sydney opera house", "target", "home depot"]
PW_WORDS = ["sunflower", "marmalade", "tangerine", "hedgehog", "pinecone", "blizzard", "lantern", "velvet",
            "pistachio", "thunder", "meadow", "copper", "juniper", "walrus", "saffron", "zeppelin"]
BANKS = ["barclays", "chase", "wells fargo", "first federal", "westpac", "santander", "nationwide", "monzo",
         "td bank", "credit agricole", "ing", "the co op bank", "ally", "citizens bank", "rabobank", "lloyds"]


# ----------------------------------------------------------------------------------------------------------------
# Personal-data value renderers: fn(rng, form) -> marked text (the span, with any words around it left unmarked).
def _cap(w):
    return " ".join(x[:1].upper() + x[1:] if not x.startswith("o'") else "O'" + x[2:3].upper() + x[3:]
                    for x in w.split(" ")) if w not in ("van der berg",) else "van der Berg"


def _name_text(n, form):
    return n if form == "spoken" else _cap(n)


def v_person(rng, form, which=None):
    which = which or rng.choice(["full", "full", "first", "first", "last_titled", "wordlike"])
    if which == "full":
        n = rng.choice(FIRST) + " " + rng.choice(LAST)
    elif which == "first":
        n = rng.choice(FIRST)
    elif which == "wordlike":
        n = rng.choice(WORDLIKE_FIRST) + (" " + rng.choice(LAST) if rng.random() < 0.5 else "")
    else:
        # a title is outside the span: only the name is PERSON
        t = rng.choice(TITLES)
        tt = t if form == "spoken" else (t.capitalize() + ("." if t in ("dr", "mr", "mrs", "ms") and
                                                             rng.random() < 0.6 else ""))
        n = rng.choice(LAST) if rng.random() < 0.7 else rng.choice(FIRST) + " " + rng.choice(LAST)
        return tt + " " + mark("PERSON", _name_text(n, form))
    return mark("PERSON", _name_text(n, form))


def v_first(rng, form):
    return mark("PERSON", _name_text(rng.choice(FIRST), form))


def _digits(rng, n, first_nonzero=True):
    d = str(rng.randint(1, 9)) if first_nonzero else str(rng.randint(0, 9))
    return d + "".join(str(rng.randint(0, 9)) for _ in range(n - 1))


def _say_digits(digits, rng):
    return digit_words(digits, rng, doubles=0.3)


def v_phone(rng, form):
    k = rng.randrange(5)
    if k <= 1:  # North American
        area = str(rng.randint(2, 9)) + _digits(rng, 2, False)
        ex = str(rng.randint(2, 9)) + _digits(rng, 2, False)
        line = _digits(rng, 4, False)
        if form == "spoken":
            cc = "plus one " if rng.random() < 0.2 else ("one " if rng.random() < 0.1 else "")
            tail = pairs_words(line, rng) if rng.random() < 0.3 and line[0] != "0" and line[2] != "0" else \
                _say_digits(line, rng)
            return mark("PHONE", cc + _say_digits(area, rng) + " " + _say_digits(ex, rng) + " " + tail)
        fmt = rng.choice(["({a}) {e}-{l}", "{a}-{e}-{l}", "{a}.{e}.{l}", "+1 {a} {e} {l}", "{a}{e}{l}",
                          "+1-{a}-{e}-{l}", "{a} {e} {l}"])
        return mark("PHONE", fmt.format(a=area, e=ex, l=line))
    if k == 2:  # UK mobile
        rest = "7" + _digits(rng, 9, False)
        if form == "spoken":
            lead = rng.choice(["oh ", "zero ", "plus four four "])
            return mark("PHONE", lead + _say_digits(rest, rng))
        return mark("PHONE", rng.choice(["0{a} {b}", "+44 {a} {b}", "0{a}{b}", "+44 (0){a} {b}"]).format(
            a=rest[:4], b=rest[4:]))
    cc, groups = rng.choice([("49", (3, 8)), ("61", (3, 3, 3)), ("91", (5, 5)), ("33", (1, 2, 2, 2, 2)),
                             ("353", (2, 3, 4)), ("27", (2, 3, 4))])
    parts = [_digits(rng, g, i == 0) for i, g in enumerate(groups)]
    if form == "spoken":
        return mark("PHONE", "plus " + " ".join(ONES[int(c)] for c in cc) + " " +
                    " ".join(_say_digits(p, rng) for p in parts))
    return mark("PHONE", "+" + cc + " " + " ".join(parts))


def v_email(rng, form):
    f, l = rng.choice(FIRST), rng.choice(LAST).replace("'", "").replace(" ", "")
    k = rng.randrange(6)
    num = str(rng.randint(1, 99))
    user = [f + "." + l, f + l + num, f[0] + "_" + l, f + "-" + l[:3], l + "." + f[0] + num,
            rng.choice(PW_WORDS) + "_" + rng.choice(PW_WORDS) + num][k]
    dom = rng.choice(EMAIL_DOMAINS)
    if form != "spoken":
        return mark("EMAIL", user + "@" + dom)
    said = []
    for part in re.split(r"([._\-@]|\d+)", user + "@" + dom):
        if not part:
            continue
        if part.isdigit():
            said.append(words(int(part)) if part[0] != "0" and rng.random() < 0.6 else digit_words(part, rng))
        else:
            said.append({".": "dot", "_": "underscore", "-": rng.choice(["dash", "hyphen"]), "@": "at"}.get(
                part, part))
    # a one-letter part is said as the letter: "t underscore ..."
    return mark("EMAIL", " ".join(said))


def v_address(rng, form):
    sp = form == "spoken"
    street = rng.choice(STREETS)
    num = rng.choice([rng.randint(2, 99), rng.randint(100, 999), rng.randint(1000, 9999)])
    if sp:
        if num >= 1000 and rng.random() < 0.7:
            ns = pairs_words(str(num), rng)
        elif num >= 100 and rng.random() < 0.5:
            ns = digit_words(str(num), rng)
        else:
            ns = words(num, rng)
    else:
        ns = str(num)
    unit = ""
    if rng.random() < 0.3:
        u = rng.choice(["apartment", "apt", "unit", "flat", "suite"])
        un = rng.randint(1, 40)
        letter = rng.choice(["", "b", "c", "a"])
        if sp:
            u = {"apt": "apartment"}.get(u, u)
            unit = "%s %s%s" % (u, words(un), (" " + letter) if letter else "")
        else:
            unit = "%s %d%s" % ({"apt": "Apt"}.get(u, u.capitalize()), un, letter.upper())
    if rng.random() < 0.6:  # US
        city, state, abbr = rng.choice(US_CITIES)
        z = _digits(rng, 5)
        if sp:
            parts = [ns, street]
            if unit:
                parts.append(unit)
            parts.append(city)
            if rng.random() < 0.7:
                parts.append(state)
            if rng.random() < 0.5:
                parts.append(digit_words(z, rng))
            return mark("ADDRESS", " ".join(parts))
        s = ns + " " + _cap(street)
        if unit:
            s += rng.choice([", ", " "]) + unit
        s += ", " + _cap(city)
        if rng.random() < 0.8:
            s += ", " + abbr + (" " + z if rng.random() < 0.7 else "")
        return mark("ADDRESS", s)
    city, area = rng.choice(UK_CITIES)
    pc = "%s%d %d%s%s" % (area, rng.randint(1, 29), rng.randint(1, 9), rng.choice("ABDEFGHJLNPQRSTUWXYZ"),
                          rng.choice("ABDEFGHJLNPQRSTUWXYZ"))
    if sp:
        pcs = " ".join(ONES[int(c)] if c.isdigit() else c.lower() for c in pc.replace(" ", ""))
        parts = ([unit] if unit else []) + [ns, street, city] + ([pcs] if rng.random() < 0.6 else [])
        return mark("ADDRESS", " ".join(parts))
    s = (unit + ", " if unit else "") + ns + " " + _cap(street) + ", " + _cap(city) + (" " + pc if rng.random() < 0.7
                                                                                         else "")
    return mark("ADDRESS", s)


def _luhn_check_digit(partial):
    total = 0
    for i, c in enumerate(reversed(partial)):
        d = int(c)
        if i % 2 == 0:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return str((10 - total % 10) % 10)


def luhn_ok(num):
    total = 0
    for i, c in enumerate(reversed(num)):
        d = int(c)
        if i % 2 == 1:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return total % 10 == 0


def v_card(rng, form):
    kind = rng.choice(["visa", "visa", "mc", "amex", "discover"])
    prefix, length = {"visa": ("4", 16), "mc": (str(rng.randint(51, 55)), 16),
                      "amex": (rng.choice(["34", "37"]), 15), "discover": ("6011", 16)}[kind]
    body = prefix + _digits(rng, length - len(prefix) - 1, False)
    num = body + _luhn_check_digit(body)
    assert luhn_ok(num), num
    if form == "spoken":
        if rng.random() < 0.3 and kind != "amex":
            groups = [num[i:i + 4] for i in range(0, 16, 4)]
            return mark("CREDIT_CARD", " ".join(_say_digits(g, rng) for g in groups))
        return mark("CREDIT_CARD", _say_digits(num, rng))
    if kind == "amex":
        g = [num[:4], num[4:10], num[10:]]
    else:
        g = [num[i:i + 4] for i in range(0, 16, 4)]
    return mark("CREDIT_CARD", rng.choice([" ", "-", ""]).join(g))


IBAN_SHAPES = {"DE": "8n10n", "GB": "4a14n", "FR": "10n11c2n", "ES": "20n", "NL": "4a10n", "IT": "1a10n12c",
               "BE": "12n", "IE": "4a14n", "AT": "16n", "CH": "5n12c", "PL": "24n", "PT": "21n", "NO": "11n",
               "DK": "14n", "FI": "14n", "SE": "20n"}


def iban_checksum_ok(iban):
    r = iban[4:] + iban[:4]
    return int("".join(str(int(c, 36)) for c in r)) % 97 == 1


def v_iban(rng, form):
    cc = rng.choice(sorted(IBAN_SHAPES))
    bban = ""
    for n, t in re.findall(r"(\d+)([nac])", IBAN_SHAPES[cc]):
        for _ in range(int(n)):
            if t == "n":
                bban += str(rng.randint(0, 9))
            elif t == "a":
                bban += rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
            else:
                bban += rng.choice("0123456789ABCDEFGHJKLMNPRSTUVWXYZ")
    num = int("".join(str(int(c, 36)) for c in bban + cc + "00"))
    iban = cc + "%02d" % (98 - num % 97) + bban
    assert iban_checksum_ok(iban), iban
    if form == "spoken":
        out = []
        i = 0
        while i < len(iban):
            c = iban[i]
            if c.isdigit():
                j = i
                while j < len(iban) and iban[j].isdigit():
                    j += 1
                out.append(_say_digits(iban[i:j], rng))
                i = j
            else:
                out.append(c.lower())
                i += 1
        return mark("IBAN", " ".join(out))
    if rng.random() < 0.6:
        return mark("IBAN", " ".join(iban[i:i + 4] for i in range(0, len(iban), 4)))
    return mark("IBAN", iban)


def v_ssn(rng, form, kind="us"):
    if kind == "us":
        area = rng.choice([x for x in range(1, 900) if x != 666])
        grp, ser = rng.randint(1, 99), rng.randint(1, 9999)
        d = "%03d%02d%04d" % (area, grp, ser)
        if form == "spoken":
            z = rng.choice(["oh", "zero"])
            g = [digit_words(d[:3], rng, z), digit_words(d[3:5], rng, z), digit_words(d[5:], rng, z)]
            sep = rng.choice([" ", " ", " dash "])
            return mark("SSN", sep.join(g))
        return mark("SSN", rng.choice(["{}-{}-{}", "{} {} {}", "{}{}{}"]).format(d[:3], d[3:5], d[5:]))
    if kind == "nino":  # UK National Insurance number
        a = rng.choice("ABCEGHJKLMNOPRSTWXYZ") + rng.choice("ABCEGHJKLMNPRSTWXYZ")
        n = _digits(rng, 6, False)
        sfx = rng.choice("ABCD")
        if a in ("GB", "BG", "NK", "KN", "TN", "NT", "ZZ"):
            a = "JT"
        if form == "spoken":
            return mark("SSN", " ".join(c.lower() for c in a) + " " + digit_words(n, rng) + " " + sfx.lower())
        return mark("SSN", rng.choice(["%s %s %s %s %s", "%s%s%s%s%s"]) % (a, n[:2], n[2:4], n[4:], sfx))
    # Canadian SIN (Luhn)
    body = str(rng.choice([1, 2, 3, 4, 5, 6, 7, 9])) + _digits(rng, 7, False)
    sin = body + _luhn_check_digit(body)
    if form == "spoken":
        return mark("SSN", digit_words(sin, rng))
    return mark("SSN", rng.choice(["{} {} {}", "{}-{}-{}"]).format(sin[:3], sin[3:6], sin[6:]))


def v_dob(rng, form):
    y = rng.randint(1931, 2019)
    m = rng.randint(1, 12)
    d = rng.randint(1, 28)
    mon = MONTHS[m - 1]
    if form == "spoken":
        k = rng.randrange(6)
        if k == 0:
            return mark("DATE_OF_BIRTH", "%s %s %s" % (mon, ordinal(d), year_words(y)))
        if k == 1:
            return mark("DATE_OF_BIRTH", "the %s of %s %s" % (ordinal(d), mon, year_words(y)))
        if k == 2:
            return mark("DATE_OF_BIRTH", "%s %s" % (mon, rng.choice([ordinal(d), words(d)])))
        if k == 3:
            return mark("DATE_OF_BIRTH", "the %s of %s" % (ordinal(d), mon))
        if k == 4:
            return mark("DATE_OF_BIRTH", "%s %s %s" % (words(m), words(d), pairs_words("%02d" % (y % 100), rng)))
        return mark("DATE_OF_BIRTH", "%s %s %s" % (words(d), mon, year_words(y)))
    k = rng.randrange(7)
    M = mon.capitalize()
    return mark("DATE_OF_BIRTH", [
        "%s %s, %d" % (M, ordinal_written(d), y), "%d %s %d" % (d, M, y), "%02d/%02d/%d" % (m, d, y),
        "%d/%d/%02d" % (m, d, y % 100), "%d-%02d-%02d" % (y, m, d), "%s %d" % (M, d),
        "%d.%d.%d" % (d, m, y)][k])


def v_age(rng, form):
    a = rng.choice([rng.randint(2, 17), rng.randint(18, 64), rng.randint(65, 99)])
    return mark("AGE", words(a) if form == "spoken" else str(a))


def v_ip(rng, form):
    k = rng.random()
    if k < 0.45:
        o = [192, 168, rng.choice([0, 1, 1, 2, 10, 50, 86]), rng.randint(2, 254)]
    elif k < 0.7:
        o = [10, rng.randint(0, 40), rng.randint(0, 255), rng.randint(2, 254)]
    elif k < 0.8:
        o = [172, rng.randint(16, 31), rng.randint(0, 255), rng.randint(2, 254)]
    elif k < 0.92 or form == "spoken":
        o = [rng.choice([81, 86, 94, 109, 151, 176, 203, 212]), rng.randint(0, 255), rng.randint(0, 255),
             rng.randint(2, 254)]
    else:
        groups = ["fe80", "", "%x" % rng.randint(0x1000, 0xffff), "%x" % rng.randint(0x100, 0xffff),
                  "%x" % rng.randint(0x1000, 0xffff), "%x" % rng.randint(0x10, 0xffff)]
        return mark("IP_ADDRESS", ":".join(groups))
    if form != "spoken":
        return mark("IP_ADDRESS", ".".join(map(str, o)))
    dot = rng.choice(["dot", "dot", "point"])
    style = rng.random()
    said = []
    for x in o:
        if style < 0.4:
            said.append(digit_words(str(x), rng, "zero"))
        elif style < 0.7 or x < 100:
            said.append(words(x))
        else:
            said.append(ONES[x // 100] + " " + (words(x % 100) if x % 100 >= 10 else
                                                ("oh " + ONES[x % 100] if x % 100 else "hundred")))
    return mark("IP_ADDRESS", (" %s " % dot).join(said))


def v_account(rng, form):
    k = rng.random()
    if k < 0.7:
        d = _digits(rng, rng.choice([8, 9, 10, 11, 12]), False)
        if form == "spoken":
            return mark("ACCOUNT_NUMBER", _say_digits(d, rng))
        if rng.random() < 0.4:
            return mark("ACCOUNT_NUMBER", " ".join(d[i:i + 4] for i in range(0, len(d), 4)))
        return mark("ACCOUNT_NUMBER", d)
    letters = "".join(rng.choice("ABCDEFGHJKLMNPRSTUVWXYZ") for _ in range(rng.choice([1, 2, 3])))
    d = _digits(rng, rng.choice([6, 7, 8]), False)
    if form == "spoken":
        return mark("ACCOUNT_NUMBER", " ".join(c.lower() for c in letters) + " " + _say_digits(d, rng))
    return mark("ACCOUNT_NUMBER", letters + rng.choice(["-", "", " "]) + d)


def v_pin(rng, form):
    d = _digits(rng, rng.choice([4, 4, 4, 5, 6]), False)
    if form == "spoken":
        if len(d) == 4 and rng.random() < 0.3 and d[0] != "0" and d[2] != "0":
            return mark("PIN_OR_PASSWORD", pairs_words(d, rng))
        return mark("PIN_OR_PASSWORD", digit_words(d, rng, doubles=0.3))
    return mark("PIN_OR_PASSWORD", d)


def v_password(rng, form):
    a, b = rng.sample(PW_WORDS, 2)
    n = rng.randint(1, 999)
    if form == "spoken":
        k = rng.randrange(4)
        if k == 0:
            return mark("PIN_OR_PASSWORD", "%s %s %s" % (a, b, words(n)))
        if k == 1:
            return mark("PIN_OR_PASSWORD", "%s %s" % (a, digit_words(str(n), rng)))
        if k == 2:
            return mark("PIN_OR_PASSWORD", "capital %s %s %s" % (a[0], a[1:], words(n)))
        return mark("PIN_OR_PASSWORD", "%s underscore %s" % (a, b))
    k = rng.randrange(5)
    return mark("PIN_OR_PASSWORD", [
        a.capitalize() + b + str(n), a + "-" + b + "-" + str(n), a[:3].upper() + str(n) + "#" + b,
        "".join(c.upper() if rng.random() < 0.3 else c for c in a) + "$" + str(n) + "x",
        a.replace("e", "3").replace("a", "4").replace("o", "0") + str(n)][k])


def v_health(rng, form, which=None):
    which = which or rng.choice(["cond", "med"])
    term = rng.choice(CONDITIONS if which == "cond" else MEDICATIONS)
    art = ""
    if "|" in term:
        art, term = term.split("|")
        art += " "
    return art + mark("HEALTH", term)


def v_health_bare(rng, form, which):
    """A health term without an article, for carriers that supply their own."""
    return mark("HEALTH", rng.choice(CONDITIONS if which == "cond" else MEDICATIONS).split("|")[-1])


def v_location(rng, form, kind=None):
    kind = kind or rng.choice(sorted(PLACE_TAILS))
    name = rng.choice(PLACE_HEADS) + " " + rng.choice(PLACE_TAILS[kind])
    if form != "spoken":
        name = _cap(name)
        if name.startswith("Saint ") and rng.random() < 0.5:
            name = "St. " + name[6:]
    return mark("LOCATION", name)


PUBLIC_COND = [c.split("|")[-1] for c in CONDITIONS] + ["asthma", "diabetes", "migraines", "the flu", "measles"]
PUBLIC_MED = [m.split("|")[-1] for m in MEDICATIONS] + ["ibuprofen", "paracetamol", "aspirin"]


def _pub(lst):
    def render(rng, form):
        v = rng.choice(lst)
        if form == "spoken":
            return v
        return ("the " + _cap(v[4:])) if v.startswith("the ") else _cap(v)
    return render


def _num_neg(rng, form):
    n = rng.choice([rng.randint(2, 99), rng.randint(100, 999), rng.randint(1000, 9999)])
    return words(n, rng) if form == "spoken" else str(n)


def _price(rng, form):
    d, c = rng.randint(1, 499), rng.choice([0, 49, 95, 99, 50])
    if form == "spoken":
        return "%s dollars%s" % (words(d, rng), (" and %s cents" % words(c)) if c else "")
    return rng.choice(["$%d.%02d" % (d, c), "\u00a3%d.%02d" % (d, c), "%d.%02d euros" % (d, c)])


def _year(rng, form):
    y = rng.randint(1066, 2024)
    return year_words(y) if form == "spoken" else str(y)


def _flight(rng, form):
    code = rng.choice(["ba", "ua", "lh", "af", "dl", "ek", "qf", "kl"])
    n = rng.randint(10, 2999)
    if form == "spoken":
        return " ".join(code) + " " + (pairs_words(str(n), rng) if n >= 1000 else words(n))
    return code.upper() + rng.choice(["", " "]) + str(n)


def _room(rng, form):
    n = rng.choice([rng.randint(100, 499), rng.randint(1000, 1299)])
    if form == "spoken":
        return pairs_words(str(n), rng) if n >= 1000 or rng.random() < 0.5 else digit_words(str(n), rng)
    return str(n)


def _pub_ip(rng, form):
    ip = rng.choice(["8.8.8.8", "1.1.1.1", "127.0.0.1", "255.255.255.0", "8.8.4.4", "0.0.0.0", "9.9.9.9"])
    if form != "spoken":
        return ip
    return " dot ".join(words(int(x)) for x in ip.split("."))


def _city(rng, form):
    return r_place(rng, form)[0]


# placeholder -> renderer. Upper case: personal data (marked). Lower case: non-personal fillers (hard negatives).
PII_VALUES = {
    "PERSON": v_person, "FIRST": v_first, "TITLED": lambda r, f: v_person(r, f, "last_titled"),
    "FULL": lambda r, f: v_person(r, f, "full"), "WORDLIKE": lambda r, f: v_person(r, f, "wordlike"),
    "PHONE": v_phone, "EMAIL": v_email, "ADDRESS": v_address, "CARD": v_card, "IBAN": v_iban,
    "SSN": v_ssn, "NINO": lambda r, f: v_ssn(r, f, "nino"), "SIN": lambda r, f: v_ssn(r, f, "sin"),
    "DOB": v_dob, "AGE": v_age, "IP": v_ip, "ACCT": v_account, "PIN": v_pin, "PW": v_password,
    "COND": lambda r, f: v_health(r, f, "cond"), "MED": lambda r, f: v_health(r, f, "med"),
    "CONDX": lambda r, f: v_health_bare(r, f, "cond"),
    "LOC": v_location, "LOC_WORK": lambda r, f: v_location(r, f, "work"),
    "LOC_SCHOOL": lambda r, f: v_location(r, f, "school"), "LOC_CARE": lambda r, f: v_location(r, f, "care"),
    "LOC_FUN": lambda r, f: v_location(r, f, "leisure"), "LOC_FAITH": lambda r, f: v_location(r, f, "faith"),
    "bank": _pub(BANKS), "public": _pub(PUBLIC), "pubplace": _pub(PUBLIC_PLACES),
    "pubcond": lambda r, f: r.choice(PUBLIC_COND), "pubmed": lambda r, f: r.choice(PUBLIC_MED),
    "num": _num_neg, "price": _price, "year": _year, "flight": _flight,
    "room": _room, "pubip": _pub_ip, "city": _city,
    "port": lambda r, f: (lambda p: words(p) if f == "spoken" else str(p))(r.choice([22, 80, 443, 8080, 3389, 25565])),
}

# (family, weight, templates). Families under "neg." have no spans.
PII_FAMILIES = [
    ("intro", 5, [
        "this is {FULL}", "{FULL} here", "you can call me {FIRST}", "the name's {PERSON}", "hi i'm {FULL}",
        "{FULL} speaking", "my friends call me {FIRST}", "it's {FULL} calling about the flat",
        "hello my name is {WORDLIKE}", "i'm {FIRST} by the way", "{FIRST} is my name", "put it under {FULL}",
        "the reservation is under {TITLED}", "hi it's {FIRST} again"]),
    ("contacts", 7, [
        "did {PERSON} call", "is it {FIRST}'s birthday today", "what did {FULL} say in her last message",
        "{FIRST} and i are going hiking on saturday", "remind me that {PERSON} is coming over at six",
        "send the photos to {FULL}", "text {FIRST} that i'm running late", "add {FULL} to the family group",
        "who's picking up {FIRST} from practice", "ask {TITLED} if the results are in",
        "book an appointment with {TITLED}", "{TITLED} from accounts called", "tell {FIRST} and {FIRST} dinner's ready",
        "i owe {FIRST} twenty dollars", "call {FIRST} back", "video call {WORDLIKE}", "message {WORDLIKE} on whatsapp",
        "has {FULL} replied yet", "set up a meeting with {FIRST} and {TITLED} on friday",
        "what time is {FIRST}'s recital", "remind me to thank {TITLED} for the flowers", "ring {FULL}",
        "when did i last talk to {FIRST}", "play the voicemail from {FULL}", "{FIRST} just texted me"]),
    ("phone", 5, [
        "my number is {PHONE}", "call me on {PHONE}", "{PHONE} is my cell", "{PHONE} that's my work line",
        "you can reach {FIRST} at {PHONE}", "save {PHONE} as {FIRST}'s number", "the babysitter's number is {PHONE}",
        "text {PHONE} and say i'm on my way", "my landline changed to {PHONE}", "dial {PHONE}",
        "{FULL}'s mobile is {PHONE}", "if i don't answer try {PHONE}"]),
    ("email", 4, [
        "my email is {EMAIL}", "send it to {EMAIL}", "{EMAIL} is my work email", "forward the invoice to {EMAIL}",
        "cc {FIRST} at {EMAIL}", "my old address was {EMAIL} but now it's {EMAIL}",
        "the receipt should go to {EMAIL}", "email {FULL} at {EMAIL}", "you can write to me at {EMAIL}"]),
    ("address", 5, [
        "i live at {ADDRESS}", "ship it to {ADDRESS}", "my address is {ADDRESS}", "{ADDRESS} is where i live",
        "deliver to {ADDRESS}", "my mum lives at {ADDRESS}", "the party's at {ADDRESS}",
        "how long to drive to {ADDRESS}", "{FIRST} moved to {ADDRESS}", "send the spare key to {ADDRESS}",
        "home is {ADDRESS}", "we just moved into {ADDRESS}"]),
    ("card", 5, [
        "my card number is {CARD}", "use card {CARD}", "{CARD} is my visa", "charge it to {CARD}",
        "the card is {CARD}", "put it on {CARD}", "{CARD} that's the new card", "pay with {CARD}",
        "save {CARD} for next time"]),
    ("iban", 5, [
        "my iban is {IBAN}", "transfer five hundred euros to {IBAN}", "{IBAN} that's my iban",
        "send the deposit to {FULL} iban {IBAN}", "pay the invoice into {IBAN}", "the iban for rent is {IBAN}",
        "wire the money to {IBAN}"]),
    ("government_id", 5, [
        "my social is {SSN}", "my social security number is {SSN}", "{SSN} is my social", "{SSN} that's my ssn",
        "ssn {SSN}", "my ss number is {SSN}", "{FULL}'s social security number is {SSN}",
        "my national insurance number is {NINO}", "{NINO} is my n i number", "my sin is {SIN}",
        "my social insurance number is {SIN}", "the last form asked for my social and it's {SSN}"]),
    ("birth", 5, [
        "i was born on {DOB}", "my birthday is {DOB}", "{DOB} is my birthday", "date of birth {DOB}",
        "{FULL} was born on {DOB}", "my son's birthday is {DOB}", "{FIRST}'s birthday is {DOB} remind me",
        "born {DOB}", "{DOB} that's my date of birth", "i came into the world on {DOB}",
        "my dob is {DOB}"]),
    ("age", 5, [
        "i'm {AGE}", "i'm {AGE} years old", "{FIRST} is {AGE}", "my daughter just turned {AGE}",
        "{FULL} will be {AGE} next month", "my {AGE} year old son", "aged {AGE}", "{AGE} is how old i am",
        "i turn {AGE} on friday", "grandma's {AGE} this year", "i'm only {AGE} and my back hurts",
        "my dad is {AGE}"]),
    ("network", 4, [
        "my router is at {IP}", "the printer's ip is {IP}", "{IP} is my raspberry pi", "ssh into {IP}",
        "forward port {port} to {IP}", "my public ip is {IP}", "the camera on {IP} is offline",
        "block {IP} on my network", "the nas lives at {IP}", "my laptop's address is {IP}"]),
    ("account", 6, [
        "my account number at {bank} is {ACCT}", "{ACCT} is my {bank} account number",
        "pay the gas bill from account {ACCT}", "my customer number is {ACCT}", "policy number {ACCT}",
        "my membership number is {ACCT}", "frequent flyer number {ACCT}", "my {bank} savings account is {ACCT}",
        "my driving licence number is {ACCT}", "my passport number is {ACCT}", "the account with {bank} is {ACCT}",
        "{ACCT} is the account the salary goes into"]),
    ("secrets", 7, [
        "my pin is {PIN}", "{PIN} is my pin", "{PIN} that's the garage code", "the door code is {PIN}",
        "the alarm code's {PIN}", "the wifi password is {PW}", "my netflix password is {PW}",
        "the password for the router is {PW}", "my phone passcode is {PIN}", "the safe combination is {PIN}",
        "remember the gate code {PIN}", "the key for the wifi is {PW}", "my bike lock is {PIN}",
        "my voicemail pin is {PIN}", "{PW} is the password", "{PIN} opens the lockbox",
        "change my pin to {PIN}", "the code for the side gate is {PIN}", "log in with {PW}",
        "the guest wifi key is {PW}"]),
    ("health", 8, [
        "i take {MED} twice a day", "remind me to take my {MED} at nine", "my {MED} prescription ran out",
        "i was diagnosed with {COND} last year", "my daughter has {COND}", "{FIRST} has {COND}",
        "i've been off {MED} for a week", "i have {COND}", "{COND} is what i'm being treated for",
        "grandpa's {MED} needs refilling", "i'm on {MED} for my {CONDX}", "my doctor upped my {MED}",
        "{FULL} was just diagnosed with {COND}", "i think my {CONDX} is flaring up",
        "order more {MED} for mum", "does {MED} interact with my {MED}", "i missed a dose of {MED} this morning",
        "my {CONDX} is worse when it's cold", "living with {COND} is exhausting"]),
    ("location", 7, [
        "i work at {LOC_WORK}", "my son goes to {LOC_SCHOOL}", "pick me up from {LOC}", "my mum's at {LOC_CARE}",
        "i'm at {LOC_CARE} every tuesday", "we go to {LOC_FAITH}", "i live near {LOC}",
        "drop the kids at {LOC_SCHOOL}", "how long is my drive to {LOC_WORK}", "i'll be at {LOC_FUN} until six",
        "{FIRST} works at {LOC_WORK}", "my gym is {LOC_FUN}", "i'm staying at {LOC_CARE} after the operation",
        "my daughter teaches at {LOC_SCHOOL}", "my flat is right behind {LOC}", "{LOC_WORK} is where i work"]),
    ("forms", 5, [
        "name {FULL} phone {PHONE} email {EMAIL}", "this is {FULL} my number's {PHONE} and my email's {EMAIL}",
        "{FULL} born {DOB} takes {MED}", "patient {FULL} age {AGE} condition {CONDX}",
        "register {FULL} social {SSN} address {ADDRESS}", "{FULL} {AGE} lives at {ADDRESS}",
        "account holder {FULL} account {ACCT}", "new contact {FULL} {PHONE}",
        "{FIRST} {AGE} goes to {LOC_SCHOOL}"]),
    ("dictation", 4, [
        "text {FIRST} my new address is {ADDRESS}", "email {FULL} the wifi password is {PW}",
        "tell {FIRST} my pin is {PIN}", "message {FIRST} my number is {PHONE}",
        "remind me that {FIRST}'s locker code is {PIN}", "note that {FULL} is allergic to {MED}",
        "write down that {FIRST}'s iban is {IBAN}"]),
    # hard negatives
    ("neg.public", 6, [
        "who is {public}", "play the latest album by {public}", "how old is {public}", "when was {public} born",
        "what's {public}'s net worth", "is {public} still alive", "my favourite author is {public}",
        "i'm reading a biography of {public}", "how tall is {public}", "where did {public} grow up",
        "tell me a fact about {public}", "play something by {public}", "what is {public} best known for"]),
    ("neg.health_general", 5, [
        "what are the side effects of {pubmed}", "is {pubcond} contagious", "how is {pubcond} treated",
        "what's the usual dose of {pubmed} for adults", "can dogs get {pubcond}", "what causes {pubcond}",
        "is {pubcond} hereditary", "how common is {pubcond}", "can you drink alcohol on {pubmed}",
        "what is {pubmed} used for", "what are the early signs of {pubcond}", "is {pubmed} safe in pregnancy"]),
    ("neg.numbers", 7, [
        "the jacket costs {price}", "that's {price} for two", "is flight {flight} on time",
        "the meeting is in room {room}", "what happened in {year}", "what's {num} times {num}",
        "page {num} of the manual", "how far is it to {city}", "my train is the {room} from platform four",
        "the score was three two", "set the thermostat to sixty eight", "bake it at three fifty",
        "call nine one one", "the speed limit is thirty", "we need {num} chairs", "is {flight} delayed",
        "turn to channel {num}", "play track {num}", "kids under twelve go free",
        "my anniversary is in june", "the meeting is on the third of march", "the bus leaves at seven fifteen",
        "how old is the eiffel tower", "what's the age of the universe", "the population was {num} in {year}",
        "i walked {num} steps today"]),
    ("neg.relational", 4, [
        "call my dentist", "text my boss i'm late", "my grandmother's recipe for stew",
        "remind me to call the plumber", "ask my sister if she's coming", "what did my landlord say",
        "call mum", "tell dad i'm home", "message the babysitter", "my neighbour's dog keeps barking",
        "my son's teacher emailed", "book a haircut with my usual barber"]),
    ("neg.tech", 3, [
        "ping {pubip}", "what is {pubip}", "is {pubip} a good dns server", "what does {pubip} mean",
        "how many ip addresses are in a slash twenty four", "what's the default password for most routers",
        "how do i find my ip address", "what makes a strong password", "i forgot my password",
        "change my wifi password", "how do i reset my pin", "what's a routing number",
        "how many digits are in an iban", "how do credit card numbers work"]),
    ("neg.places", 4, [
        "what time does {pubplace} open", "how far is {pubplace}", "weather in {city}",
        "directions to the nearest pharmacy", "is {pubplace} open on mondays", "who lives at ten downing street",
        "what's at sixteen hundred pennsylvania avenue", "find a hospital near me", "best schools in {city}",
        "is there a gym nearby", "what's the biggest church in {city}", "how busy is {pubplace} on weekends"]),
]
FORMS_WRITTEN = [
    "Name: {FULL}, Phone: {PHONE}, Email: {EMAIL}", "Patient: {FULL} | DOB: {DOB} | Meds: {MED}",
    "Emergency contact: {FULL} ({PHONE})", "Account holder: {FULL}; Acct no. {ACCT}",
    "Ship to: {FULL}, {ADDRESS}", "Employee {FULL}, SSN {SSN}, start date 3/1", "Login: {EMAIL} / pw: {PW}",
    "Guest: {FULL}, age {AGE}, allergies: {MED}"]


def check_spans(text, spans):
    """The README's span rules; raises AssertionError on a broken line."""
    last = 0
    for sp in spans:
        s, e, v = sp["start"], sp["end"], sp["value"]
        assert 0 <= s < e <= len(text), (text, sp)
        assert text[s:e] == v, (text, sp)
        assert s >= last, ("overlap or unsorted", text, spans)
        assert v == v.strip() and v, (text, sp)
        assert s == 0 or not text[s - 1].isalnum(), ("start not on a word boundary", text, sp)
        assert e == len(text) or not text[e].isalnum(), ("end not on a word boundary", text, sp)
        last = e


def pii_line(rng, family, form):
    name, _, templates = family
    pool = FORMS_WRITTEN if name == "forms" and form == "written" and rng.random() < 0.6 else templates
    skeleton = expand(rng.choice(pool), rng)
    core = re.sub(r"\{(\w+)\}", lambda m: PII_VALUES[m.group(1)](rng, form), skeleton)
    if pool is FORMS_WRITTEN:  # a typed form: no spoken filler around it
        pre, suf = "", ""
    else:
        pre, core, suf = add_filler(core, rng, 0.2, 0.12, NONE_SUFFIXES)
    if form == "spoken":
        marked = spoken_surface(pre, core, suf)
    else:
        marked = written_surface(pre, core, suf, rng)
    marked = re.sub(r" +", " ", marked).strip()
    text, raw = unmark(marked)
    spans = [{"start": s, "end": e, "type": t, "value": v} for s, e, t, v in raw]
    check_spans(text, spans)
    if form == "spoken":
        assert SPOKEN_OK.match(text), text
    if name.startswith("neg."):
        assert not spans, text
    return text, spans


def gen_pii(n, seed):
    rng = random.Random("pii-%d" % seed)
    neg = [f for f in PII_FAMILIES if f[0].startswith("neg.")]
    pos = [f for f in PII_FAMILIES if not f[0].startswith("neg.")]
    n_neg = round(n * 0.35)
    plan = [rng.choices(neg, weights=[f[1] for f in neg])[0] for _ in range(n_neg)]
    plan += [rng.choices(pos, weights=[f[1] for f in pos])[0] for _ in range(n - n_neg)]
    rng.shuffle(plan)
    out = []
    seen = set()
    for k, fam in enumerate(plan):
        form = "spoken" if rng.random() < 0.7 else "written"
        for _ in range(6):
            text, spans = pii_line(rng, fam, form)
            if text not in seen:
                break
        seen.add(text)
        out.append({"id": "valid-pii-%05d" % (k + 1), "text": text, "form": form, "spans": spans,
                    "source": "valid.pii." + fam[0]})
    return out


def write_jsonl(path, rows):
    with open(path, "w", encoding="utf-8") as f:
        for r in rows:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")


def main(argv=None):
    ap = argparse.ArgumentParser(description="Independent NLU validation set (intents and personal data).")
    ap.add_argument("--out", required=True, help="directory for intents-valid.jsonl and pii-valid.jsonl")
    ap.add_argument("--seed", type=int, default=18)
    ap.add_argument("--intents", type=int, default=2000, help="intent lines")
    ap.add_argument("--pii", type=int, default=2000, help="personal-data lines")
    a = ap.parse_args(argv)
    os.makedirs(a.out, exist_ok=True)
    intents = gen_intents(a.intents, a.seed)
    pii = gen_pii(a.pii, a.seed)
    write_jsonl(os.path.join(a.out, "intents-valid.jsonl"), intents)
    write_jsonl(os.path.join(a.out, "pii-valid.jsonl"), pii)
    print("gen_valid: %d intent lines, %d personal-data lines -> %s" % (len(intents), len(pii), a.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
