#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
#
# gen_train.py: synthetic TRAINING data for Sotto's trained language understanding
# (joint intent classifier + slot tagger, and the PII span tagger).
#
# Intent data is driven by the intent catalogue (config/intents.xml): every <phrase>
# grammar is expanded by random sampling and its slots filled by TYPE, so a new intent
# gets data with no code change; on top of that a much wider paraphrase grammar per
# known intent (below), fillers, disfluencies, self-corrections and ASR-like noise.
# PII data follows the labelling rules of shared/data/README.md (14 types).
#
# Usage: gen_train.py --out DIR [--seed N] [--intents N] [--pii N] [--catalogue PATH] [--asr-corpus FILE]
# (--asr-corpus: the recognizer's transcripts, default data/asr_pairs.tsv beside this file; see asr_corpus.py)
# Writes DIR/intents-train.jsonl and DIR/pii-train.jsonl (byte-reproducible per seed), and with the lexical
# resources DIR/none-calibration.jsonl (WordNet example sentences held out of training, for the threshold);
# runs a self-check (exit status 1 on any violation) and prints counts.

import argparse
import json
import math
import os
import random
import re
import sys
import time
import xml.etree.ElementTree as ET
import zlib

# ----------------------------------------------------------------------------------------
# numbers as words

ONES = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
        "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen",
        "seventeen", "eighteen", "nineteen"]
TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
ORD_ONES = ["zeroth", "first", "second", "third", "fourth", "fifth", "sixth", "seventh",
            "eighth", "ninth", "tenth", "eleventh", "twelfth", "thirteenth", "fourteenth",
            "fifteenth", "sixteenth", "seventeenth", "eighteenth", "nineteenth"]
ORD_TENS = {20: "twentieth", 30: "thirtieth"}
DIGIT_WORDS = {str(i): ONES[i] for i in range(10)}
WORD_DIGITS = {v: k for k, v in DIGIT_WORDS.items()}
WORD_DIGITS["oh"] = "0"


def nw(n, rng=None):
    """Integer 0..999999 as words (variants when rng is given)."""
    if n < 0:
        return "minus " + nw(-n, rng)
    if n < 20:
        return ONES[n]
    if n < 100:
        t, o = divmod(n, 10)
        return TENS[t] + ("" if o == 0 else " " + ONES[o])
    if n < 1000:
        h, r = divmod(n, 100)
        head = ("a hundred" if (h == 1 and rng and rng.random() < 0.3) else ONES[h] + " hundred")
        if r == 0:
            return head
        sep = " and " if (rng and rng.random() < 0.35) else " "
        return head + sep + nw(r, rng)
    if n < 1000000:
        th, r = divmod(n, 1000)
        head = ("a thousand" if (th == 1 and rng and rng.random() < 0.3) else nw(th, rng) + " thousand")
        if r == 0:
            return head
        sep = " and " if (r < 100 and rng and rng.random() < 0.5) else " "
        return head + sep + nw(r, rng)
    return " ".join(DIGIT_WORDS[c] for c in str(n))


def ordinal_words(n):
    if n < 20:
        return ORD_ONES[n]
    if n in ORD_TENS:
        return ORD_TENS[n]
    t, o = divmod(n, 10)
    return TENS[t] + " " + ORD_ONES[o]


def ordinal_suffix(n):
    if 10 <= n % 100 <= 20:
        return str(n) + "th"
    return str(n) + {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")


def year_words(y, rng):
    if 2000 <= y <= 2009:
        return rng.choice(["two thousand " + ONES[y - 2000] if y > 2000 else "two thousand",
                           "two thousand and " + ONES[y - 2000] if y > 2000 else "two thousand"])
    hi, lo = divmod(y, 100)
    if lo == 0:
        return nw(hi) + " hundred"
    if lo < 10:
        return nw(hi) + " oh " + ONES[lo]
    return nw(hi) + " " + nw(lo)


def digits_spoken(s, rng, oh=0.5, groups=True):
    """Speak a digit string digit by digit, with 'oh', 'double'/'triple'."""
    out = []
    i = 0
    while i < len(s):
        c = s[i]
        if not c.isdigit():
            i += 1
            continue
        run = 1
        while i + run < len(s) and s[i + run] == c and run < 3:
            run += 1
        w = "oh" if (c == "0" and rng.random() < oh) else DIGIT_WORDS[c]
        if groups and run == 3 and rng.random() < 0.4:
            out.append("triple " + w)
            i += 3
            continue
        if groups and run >= 2 and rng.random() < 0.4:
            out.append("double " + w)
            i += 2
            continue
        out.append(w)
        i += 1
    return " ".join(out)


def spoken_ip(ip, rng, oh, digit_share, point_share):
    """An IP address as said aloud: IPv6 groups letter by letter around "colon", IPv4 octets as digits or as a
    number, joined by "dot" (or "point" with point_share; 0 draws nothing)."""
    if ":" in ip:
        parts = []
        for grp in ip.split(":"):
            parts.append(" ".join(DIGIT_WORDS[c] if c.isdigit() else c for c in grp) if grp else "")
        s = " colon ".join(parts).replace("colon  colon", "double colon")
        return " ".join(s.split())
    octs = []
    for o in ip.split("."):
        octs.append(digits_spoken(o, rng, oh=oh, groups=False) if rng.random() < digit_share
                    else nw(int(o), rng if point_share else None))
    joiner = " point " if point_share and rng.random() < point_share else " dot "
    return joiner.join(octs)


def parse_spoken_digits(words):
    """Inverse of digits_spoken (plus single letters): returns the string or None."""
    out = []
    ws = words.split()
    i = 0
    while i < len(ws):
        w = ws[i]
        if w in ("double", "triple") and i + 1 < len(ws) and ws[i + 1] in WORD_DIGITS:
            out.append(WORD_DIGITS[ws[i + 1]] * (2 if w == "double" else 3))
            i += 2
            continue
        if w in WORD_DIGITS:
            out.append(WORD_DIGITS[w])
        elif len(w) == 1 and w.isalpha():
            out.append(w.upper())
        else:
            return None
        i += 1
    return "".join(out)


def fmt_num(v):
    """A number value for a slot: int when integral, else float rounded to 4 places."""
    if isinstance(v, float):
        if abs(v - round(v)) < 1e-9:
            return int(round(v))
        return round(v, 4)
    return v


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


def iban_ok(iban):
    s = iban.replace(" ", "").upper()
    if len(s) < 15 or not s[:2].isalpha() or not s[2:4].isdigit():
        return False
    r = s[4:] + s[:4]
    n = "".join(str(int(c, 36)) for c in r)
    return int(n) % 97 == 1


# ----------------------------------------------------------------------------------------
# phrase grammar: ( a | b ) alternatives, [ a | b ] optional, {slot}, {:type}

_TOK = re.compile(r"\(|\)|\[|\]|\||\{[^}]*\}|[^\s()\[\]|{}]+")


def parse_grammar(src):
    toks = _TOK.findall(src)
    pos = 0

    def seq(stop):
        nonlocal pos
        alts = [[]]
        while pos < len(toks):
            t = toks[pos]
            if t in stop:
                return alts
            pos += 1
            if t == "|":
                alts.append([])
            elif t == "(":
                inner = seq((")",))
                pos += 1
                alts[-1].append(("alt", inner, False))
            elif t == "[":
                inner = seq(("]",))
                pos += 1
                alts[-1].append(("alt", inner, True))
            elif t.startswith("{"):
                body = t[1:-1].strip()
                if body.startswith(":"):
                    alts[-1].append(("ph", body[1:]))
                else:
                    alts[-1].append(("slot", body))
            else:
                alts[-1].append(("w", t))
        return alts

    top = seq(())
    return ("alt", top, False)


def sample_grammar(node, rng, out, opt_p=0.5):
    kind = node[0]
    if kind == "w":
        out.append(node[1])
    elif kind in ("slot", "ph"):
        out.append(node)
    else:
        alts, optional = node[1], node[2]
        if optional and rng.random() < opt_p:
            return out
        for item in rng.choice(alts):
            sample_grammar(item, rng, out, opt_p)
    return out


def grammar_slots(node, acc=None):
    if acc is None:
        acc = set()
    if node[0] == "slot":
        acc.add(node[1])
    elif node[0] == "alt":
        for a in node[1]:
            for it in a:
                grammar_slots(it, acc)
    return acc


# ----------------------------------------------------------------------------------------
# catalogue

def load_catalogue(path):
    root = ET.parse(path).getroot()
    intents = {}
    order = []
    for el in root.findall("intent"):
        name = el.get("name")
        slots = {}
        for s in el.findall("slot"):
            slots[s.get("name")] = {"type": s.get("type"), "required": s.get("required") == "true",
                                    "source": s.get("source")}
        phrases = [" ".join((p.text or "").split()) for p in el.findall("phrase")]
        intents[name] = {"slots": slots, "phrases": [parse_grammar(p) for p in phrases if p]}
        order.append(name)
    lex = {}
    for el in root.findall("lexicon"):
        lex.setdefault(el.get("type"), []).extend(
            w.strip() for w in (el.text or "").split(",") if w.strip())
    return order, intents, lex


# ----------------------------------------------------------------------------------------
# lexicons (own)

TIMER_LABELS = """pasta eggs egg rice pizza laundry bread chicken oven cookies nap workout coffee
potatoes tea roast turkey cake brownies muffins steak salmon soup noodles oatmeal porridge
lasagna fries toast bagels beans lentils quinoa dumplings curry stew chili risotto popcorn
biscuits scones pie tart casserole ham broccoli carrots corn sausages burgers wings ribs
homework study reading meditation yoga plank stretching pushups run walk break lunch dinner
breakfast bath shower parking meter meeting call medicine pills dryer washer dishwasher
sourdough dough kettle espresso cocoa noodle pudding jelly fudge granola waffles pancakes
crepes tacos enchiladas falafel hummus kebab naan tortillas gnocchi ravioli couscous
practice piano guitar violin nap game tv screen laptop charging charger sprinkler plants
garden hair mask facemask teeth tooth bedtime storytime playtime recess timeout chores
vacuum ironing cleaning candle incense compost""".split()
TIMER_LABELS2 = """boiled eggs green tea hard boiled banana bread face mask hair dye dog walk
power nap chocolate cake apple pie fish sticks baked potatoes sweet potatoes rice cooker
slow cooker pressure cooker cold brew french press garlic bread mac cheese pot roast
pork chops chicken wings tea bags ice bath cool down warm up study break coffee break
lunch break screen time bath time nap time pizza rolls corn bread egg timer""".split("\n")
TIMER_LABELS2 = [" ".join(x.split()[i:i + 2]) for x in TIMER_LABELS2 for i in range(0, len(x.split()), 2)]

PLACES = """london paris new york berlin tokyo madrid rome sydney toronto chicago seattle
san francisco boston denver austin dallas houston phoenix miami atlanta portland detroit
nashville memphis orlando tampa cleveland pittsburgh baltimore philadelphia las vegas
los angeles san diego salt lake city minneapolis milwaukee kansas city st louis omaha
new orleans honolulu anchorage albuquerque tucson el paso sacramento san jose oakland
vancouver montreal calgary ottawa edmonton winnipeg quebec city halifax dublin cork belfast
edinburgh glasgow manchester liverpool leeds bristol cardiff birmingham oxford cambridge
brighton york aberdeen amsterdam rotterdam brussels antwerp lisbon porto barcelona seville
valencia bilbao milan naples florence venice turin zurich geneva vienna prague budapest
warsaw krakow copenhagen stockholm oslo helsinki reykjavik athens istanbul ankara cairo
nairobi lagos accra cape town johannesburg casablanca marrakesh tunis dubai abu dhabi doha
riyadh tel aviv mumbai delhi new delhi bangalore chennai kolkata hyderabad karachi lahore
dhaka kathmandu colombo bangkok hanoi ho chi minh city singapore kuala lumpur jakarta manila
seoul busan osaka kyoto beijing shanghai hong kong taipei melbourne brisbane perth adelaide
auckland wellington christchurch mexico city guadalajara havana bogota lima quito santiago
buenos aires montevideo sao paulo rio de janeiro caracas panama city san juan kingston
munich hamburg frankfurt cologne stuttgart lyon marseille nice bordeaux toulouse geneva
lucerne salzburg bruges ghent seville granada malaga palma tenerife split dubrovnik
bucharest sofia belgrade zagreb ljubljana tallinn riga vilnius kyiv lviv tbilisi yerevan
baku almaty tashkent ulaanbaatar boulder santa fe savannah charleston raleigh durham
richmond buffalo rochester albany hartford providence burlington portland maine boise
spokane reno fresno bakersfield eugene tulsa wichita des moines madison lincoln fargo
green bay ann arbor grand rapids cincinnati columbus indianapolis louisville lexington
knoxville birmingham alabama jackson little rock baton rouge shreveport san antonio""".split("\n")
PLACE_MULTI = {"new york", "san francisco", "las vegas", "los angeles", "san diego", "salt lake city",
               "kansas city", "st louis", "new orleans", "el paso", "san jose", "quebec city",
               "cape town", "abu dhabi", "tel aviv", "new delhi", "ho chi minh city", "kuala lumpur",
               "hong kong", "mexico city", "buenos aires", "sao paulo", "rio de janeiro",
               "panama city", "san juan", "santa fe", "green bay", "ann arbor", "grand rapids",
               "little rock", "baton rouge", "san antonio", "des moines", "birmingham alabama",
               "portland maine", "lake tahoe", "palm springs", "key west", "cape cod"}


def _split_places(lines):
    out = []
    for line in lines:
        ws = line.split()
        i = 0
        while i < len(ws):
            for n in (4, 3, 2):
                cand = " ".join(ws[i:i + n])
                if cand in PLACE_MULTI:
                    out.append(cand)
                    i += n
                    break
            else:
                out.append(ws[i])
                i += 1
    return sorted(set(out))


PLACES = _split_places(PLACES) + ["lake tahoe", "palm springs", "key west", "cape cod"]

DAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]

# unit code -> (spoken singular, spoken plural list, written forms); grouped by dimension
UNITS = {
    "length": {
        "km": (["kilometer", "kilometre"], ["kilometers", "kilometres", "k"], ["km", "kms", "kilometers", "kilometres"]),
        "mi": (["mile"], ["miles"], ["mi", "miles", "mile"]),
        "m": (["meter", "metre"], ["meters", "metres"], ["m", "meters", "metres"]),
        "ft": (["foot"], ["feet", "foot"], ["ft", "feet", "foot"]),
        "in": (["inch"], ["inches"], ["in", "inches", "inch"]),
        "cm": (["centimeter", "centimetre"], ["centimeters", "centimetres"], ["cm", "centimeters", "cms"]),
    },
    "mass": {
        "kg": (["kilogram", "kilo"], ["kilograms", "kilos", "kilogrammes"], ["kg", "kgs", "kilograms", "kilos"]),
        "lb": (["pound"], ["pounds"], ["lb", "lbs", "pounds"]),
        "g": (["gram", "gramme"], ["grams", "grammes"], ["g", "grams", "gr"]),
        "oz": (["ounce"], ["ounces"], ["oz", "ounces"]),
    },
    "volume": {
        "l": (["liter", "litre"], ["liters", "litres"], ["l", "L", "liters", "litres", "ltr"]),
        "ml": (["milliliter", "millilitre", "mil"], ["milliliters", "millilitres", "mils"], ["ml", "mL", "milliliters"]),
        "gal": (["gallon"], ["gallons"], ["gal", "gallons"]),
        "cup": (["cup"], ["cups"], ["cups", "cup"]),
        "tbsp": (["tablespoon"], ["tablespoons"], ["tbsp", "tablespoons", "tbs"]),
        "tsp": (["teaspoon"], ["teaspoons"], ["tsp", "teaspoons"]),
    },
    "temp": {
        "c": (["degree celsius", "celsius", "degree centigrade", "centigrade"],
              ["degrees celsius", "celsius", "degrees centigrade", "centigrade", "degrees c"],
              ["C", "degrees C", "celsius", "Celsius", "deg C"]),
        "f": (["degree fahrenheit", "fahrenheit"], ["degrees fahrenheit", "fahrenheit", "degrees f"],
              ["F", "degrees F", "fahrenheit", "Fahrenheit", "deg F"]),
    },
    "speed": {
        "mph": (["mile per hour", "mph"], ["miles per hour", "miles an hour", "m p h"], ["mph", "miles per hour", "MPH"]),
        "kmh": (["kilometer per hour"], ["kilometers per hour", "kilometres per hour", "kilometers an hour", "k p h", "k m h"],
                ["km/h", "kmh", "kph", "kilometers per hour"]),
    },
}
UNIT_DIM = {code: dim for dim, d in UNITS.items() for code in d}


# ----------------------------------------------------------------------------------------
# slot value generators: each returns (tokens, value); tokens are (word, in_span) pairs

def T(words, tagged=True):
    return [(w, tagged) for w in words.split()]


def gen_duration(rng, form):
    sp = form == "spoken"
    r = rng.random()
    if r < 0.45:
        unit = rng.choices(["second", "minute", "hour"], [0.2, 0.6, 0.2])[0]
        n = {"second": rng.choice([5, 10, 15, 20, 30, 40, 45, 50, 60, 90, 120, rng.randint(2, 99)]),
             "minute": rng.choice([1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 15, 20, 25, 30, 40, 45, 50, 90,
                                   rng.randint(2, 120)]),
             "hour": rng.choice([1, 2, 3, 4, 5, 6, 8, 10, 12, rng.randint(1, 24)])}[unit]
        secs = n * {"second": 1, "minute": 60, "hour": 3600}[unit]
        if sp:
            if n == 1:
                num = rng.choice(["a", "one"]) if unit != "hour" else rng.choice(["an", "one"])
            else:
                num = nw(n, rng)
            u = unit if n == 1 else unit + "s"
            if rng.random() < 0.08 and unit != "hour":
                u = {"second": "sec" if n == 1 else "secs", "minute": "min" if n == 1 else "mins"}[unit]
            return T(num + " " + u), secs
        abbrev = {"second": ["seconds", "secs", "sec", "s"], "minute": ["minutes", "mins", "min", "m"],
                  "hour": ["hours", "hrs", "hr", "h"]}[unit]
        u = rng.choice(abbrev) if rng.random() < 0.4 else (unit if n == 1 else unit + "s")
        if u in ("s", "m", "h") and rng.random() < 0.5:
            return T(str(n) + u), secs
        num = str(n) if rng.random() < 0.85 else nw(n)
        return T(num + " " + u), secs
    if r < 0.6:
        opts = [("half an hour", 1800), ("a half hour", 1800), ("an hour and a half", 5400),
                ("a minute and a half", 90), ("one and a half hours", 5400), ("a quarter of an hour", 900),
                ("quarter of an hour", 900), ("a quarter hour", 900), ("three quarters of an hour", 2700),
                ("one and a half minutes", 90), ("two and a half hours", 9000), ("a couple of minutes", 120),
                ("a couple minutes", 120), ("half a minute", 30), ("an hour and fifteen minutes", 4500),
                ("an hour and a quarter", 4500), ("an hour thirty", 5400), ("one hour thirty", 5400),
                ("a couple of hours", 7200), ("a couple hours", 7200), ("ninety seconds", 90),
                ("ninety minutes", 5400), ("a minute", 60), ("an hour", 3600), ("a half hour", 1800),
                ("two hours fifteen", 8100), ("twenty four hours", 86400), ("half a minute", 30),
                ("a couple of seconds", 2), ("thirty secs", 30), ("a quarter of a minute", 15)]
        n = rng.randint(2, 20)
        opts.append((nw(n) + " and a half minutes", n * 60 + 30))
        h = rng.randint(1, 5)
        opts.append((nw(h) + " and a half hours", h * 3600 + 1800))
        txt, secs = rng.choice(opts)
        if not sp and rng.random() < 0.5:
            written = {"one and a half hours": "1.5 hours", "two and a half hours": "2.5 hours",
                       "ninety seconds": "90 seconds", "ninety minutes": "90 mins", "an hour thirty": "1 hr 30",
                       "twenty four hours": "24 hours", "two hours fifteen": "2h 15m", "thirty secs": "30 secs",
                       "one and a half minutes": "1.5 minutes", "half an hour": "30 minutes",
                       "an hour and a half": "1.5 hrs", "a quarter of an hour": "15 min"}
            txt = written.get(txt, txt)
        return T(txt), secs
    if r < 0.85:
        a, b = rng.choice([("hour", "minute"), ("minute", "second")])
        x = rng.randint(1, 3) if a == "hour" else rng.randint(1, 20)
        y = rng.choice([5, 10, 15, 20, 30, 45, rng.randint(1, 59)])
        mult = {"hour": 3600, "minute": 60, "second": 1}
        secs = x * mult[a] + y * mult[b]
        if sp:
            xa = (rng.choice(["an", "one"]) if a == "hour" else rng.choice(["a", "one"])) if x == 1 else nw(x, rng)
            ua = a if x == 1 else a + "s"
            ub = b if y == 1 else b + "s"
            sep = rng.choice([" and ", " "])
            return T(xa + " " + ua + sep + nw(y, rng) + " " + ub), secs
        if rng.random() < 0.4:
            s1 = {"hour": "h", "minute": "m"}[a]
            s2 = {"minute": "m", "second": "s"}[b]
            if rng.random() < 0.5:
                return T("%d%s %d%s" % (x, s1, y, s2)), secs
            return T("%d%s%d%s" % (x, s1, y, s2)), secs
        ua = a if x == 1 else a + "s"
        ub = b if y == 1 else b + "s"
        return T("%d %s %s%d %s" % (x, ua, rng.choice(["and ", ""]), y, ub)), secs
    # decimals
    unit = rng.choice(["hour", "minute"])
    n = rng.choice([1, 2, 3]) if unit == "hour" else rng.choice([1, 2, 3, 5, 7, 10])
    frac = rng.choice([0.5, 0.25, 0.75]) if unit == "hour" else 0.5
    val = n + frac
    secs = int(round(val * (3600 if unit == "hour" else 60)))
    if sp:
        fw = {0.5: "five", 0.25: "two five", 0.75: "seven five"}[frac]
        return T(nw(n) + " point " + fw + " " + unit + "s"), secs
    return T(("%g" % val) + " " + rng.choice([unit + "s", {"hour": "hrs", "minute": "mins"}[unit]])), secs


def _ampm(rng, pm, sp):
    if sp:
        return rng.choice(["pm", "p m"] if pm else ["am", "a m"])
    return rng.choice(["pm", "PM", "p.m.", "pm"] if pm else ["am", "AM", "a.m.", "am"])


def gen_time(rng, form):
    sp = form == "spoken"
    r = rng.random()
    if r < 0.05:
        txt, v = rng.choice([("noon", "12:00"), ("midnight", "00:00"), ("twelve noon", "12:00"),
                             ("midday", "12:00"), ("twelve midnight", "00:00")])
        return T(txt), v
    h12 = rng.randint(1, 12)
    m = rng.choice([0, 0, 0, 15, 30, 45, 30, 10, 20, 40, 50, 5, rng.randint(0, 59)])
    pm = rng.random() < 0.5

    def h24(h, p):
        return (h % 12) + (12 if p else 0)

    def mm_words(mm):
        if mm == 0:
            return ""
        if mm < 10:
            return " " + rng.choice(["oh", "zero"] if rng.random() < 0.1 else ["oh"]) + " " + ONES[mm]
        return " " + nw(mm)
    if sp:
        if r < 0.40:   # seven thirty pm
            return T(nw(h12) + mm_words(m) + " " + _ampm(rng, pm, sp)), "%02d:%02d" % (h24(h12, pm), m)
        if r < 0.52:   # seven in the morning / evening / at night
            if pm:
                hh = rng.randint(1, 11)
                suf = "in the afternoon" if hh <= 5 else rng.choice(["in the evening", "at night", "tonight"]) \
                    if hh >= 8 else "in the evening"
            else:
                hh = rng.randint(1, 11)
                suf = "in the morning"
            oc = " o'clock" if (m == 0 and rng.random() < 0.4) else mm_words(m)
            return T(nw(hh) + oc + " " + suf), "%02d:%02d" % (h24(hh, pm), m)
        if r < 0.70:   # past / to
            hh = rng.randint(2, 11)
            kind = rng.choice(["half past", "quarter past", "quarter to", "ten past", "twenty to",
                               "five past", "ten to", "twenty past", "five to", "twenty five past"])
            mins = {"half past": 30, "quarter past": 15, "quarter to": -15, "ten past": 10,
                    "twenty to": -20, "five past": 5, "ten to": -10, "twenty past": 20, "five to": -5,
                    "twenty five past": 25}[kind]
            tail = ""
            p = False
            if rng.random() < 0.5:
                p = rng.random() < 0.5
                tail = " " + (_ampm(rng, p, sp) if rng.random() < 0.5 else
                              ("in the evening" if p else "in the morning"))
            base = h24(hh, p) * 60 + mins
            base %= 1440
            return T(kind + " " + nw(hh) + tail), "%02d:%02d" % divmod(base, 60)
        if r < 0.85:   # bare: seven / seven o'clock / six fifteen -> morning
            hh = rng.randint(1, 11)
            if m == 0:
                return T(nw(hh) + rng.choice([" o'clock", " o'clock", ""])), "%02d:00" % hh
            return T(nw(hh) + mm_words(m)), "%02d:%02d" % (hh, m)
        if rng.random() < 0.5:   # 24-hour, spoken: nineteen thirty, oh seven hundred (hours)
            hh = rng.randint(13, 23) if rng.random() < 0.6 else rng.randint(5, 11)
            head = nw(hh) if hh >= 10 else rng.choice(["oh ", "zero "]) + ONES[hh]
            if m == 0:
                return T(head + rng.choice([" hundred", " hundred hours", " hundred"])), "%02d:00" % hh
            return T(head + mm_words(m) + rng.choice(["", "", " hours"])), "%02d:%02d" % (hh, m)
        hh = rng.randint(1, 11)
        return T(nw(hh) + mm_words(m) + " " + _ampm(rng, pm, sp)), "%02d:%02d" % (h24(hh, pm), m)
    # written
    if r < 0.45:
        sep = rng.choice([" ", ""])
        if m == 0 and rng.random() < 0.5:
            return T("%d%s%s" % (h12, sep, _ampm(rng, pm, False))), "%02d:00" % h24(h12, pm)
        return T("%d:%02d%s%s" % (h12, m, sep, _ampm(rng, pm, False))), "%02d:%02d" % (h24(h12, pm), m)
    if r < 0.65:   # 24h clock
        hh = rng.randint(13, 23) if rng.random() < 0.7 else rng.randint(0, 11)
        fmt = "%02d:%02d" if (hh < 10 and rng.random() < 0.5) or hh >= 10 else "%d:%02d"
        if hh == 0:
            fmt = "%02d:%02d"
        return T(fmt % (hh, m)), "%02d:%02d" % (hh, m)
    if r < 0.75:
        hh = rng.randint(1, 11)
        return T("%d o'clock" % hh), "%02d:00" % hh
    if r < 0.85:
        hh = rng.randint(1, 11)
        p = rng.random() < 0.5
        return T("%d:%02d %s" % (hh, m, "in the evening" if p else "in the morning")), "%02d:%02d" % (hh + (12 if p else 0), m)
    return gen_time(rng, "spoken")


def gen_day(rng, form, forecast=False):
    r = rng.random()
    if forecast and r < 0.15:
        pre = rng.choice(["this ", "over the ", "for the ", "on the ", "the ", "", "this coming "])
        return T(pre, False) + T("weekend"), "weekend"
    if r < 0.35:
        return T("tomorrow"), "tomorrow"
    if r < 0.5:
        w = rng.choice(["today", "tonight", "today", "tonight"] + (["this afternoon", "this evening"] if forecast else []))
        if w.startswith("this "):
            return T("this", True) + T(w[5:]), "today"
        return T(w), "today"
    d = rng.choice(DAYS)
    pre = rng.choice(["on ", "", "this ", "next ", "on ", "", "coming "])
    return T(pre, False) + T(d), d


def gen_level(rng, form):
    if rng.random() < 0.08:
        w = rng.choice(["max", "maximum", "full", "the max", "ten"])
        if w == "the max":
            return T("the", False) + T("max"), 10
        return T(w), 10
    n = rng.randint(0, 10)
    if form == "spoken" or rng.random() < 0.25:
        return T(nw(n)), n
    if rng.random() < 0.1:
        return T("%d/10" % n), n
    return T(str(n)), n


def gen_number(rng, form, unit_dim=None):
    sp = form == "spoken"
    r = rng.random()
    if unit_dim == "temp":
        v = rng.choice([rng.randint(-40, 120), rng.randint(0, 40), 100, 0, 37, 350, 180, 200])
        if sp:
            return T(("minus " + nw(-v)) if v < 0 else nw(v, rng)), v
        return T(str(v)), v
    if r < 0.12:
        return T("a" if form == "spoken" or rng.random() < 0.5 else "one"), 1
    if r < 0.19:
        txt, v = rng.choice([("half a", 0.5), ("a half", 0.5), ("a quarter", 0.25), ("a couple of", 2),
                             ("a dozen", 12), ("one and a half", 1.5), ("two and a half", 2.5),
                             ("three quarters of a", 0.75), ("a hundred", 100), ("a thousand", 1000),
                             ("a couple", 2), ("half a dozen", 6)])
        return T(txt), fmt_num(v)
    if r < 0.3:
        i = rng.randint(0, 50)
        d = rng.choice([5, 25, 75, 2, 1, 4, 8, 3])
        v = float("%d.%s" % (i, str(d)))
        if sp:
            return T((nw(i) + " " if i or rng.random() < 0.5 else "") + "point " +
                     " ".join(DIGIT_WORDS[c] for c in str(d))), fmt_num(v)
        return T("%g" % v), fmt_num(v)
    v = rng.choice([rng.randint(1, 12), rng.randint(1, 100), rng.randint(1, 1000), rng.choice([5, 10, 50, 100, 500, 1000]),
                    rng.randint(1000, 50000)])
    if sp:
        return T(nw(v, rng)), v
    if v >= 1000 and rng.random() < 0.5:
        return T("{:,}".format(v)), v
    return T(str(v)), v


def gen_unit(rng, form, code, plural=True):
    spoken_sing, spoken_pl, written = UNITS[UNIT_DIM[code]][code]
    if form == "spoken" or rng.random() < 0.35:
        return T(rng.choice(spoken_pl if plural else spoken_sing)), code
    w = rng.choice(written)
    return T(w), code


def gen_label(rng, form, lex=()):
    r = rng.random()
    if r < 0.7:
        w = rng.choice(TIMER_LABELS)
    elif r < 0.9:
        w = rng.choice(TIMER_LABELS2)
    else:
        w = rng.choice(list(lex) or TIMER_LABELS)
    return T(w), w


def gen_place(rng, form, lex=()):
    w = pick(rng, PLACES, WN_CITIES, 0.2) if rng.random() < 0.92 or not lex else rng.choice(list(lex))
    if form == "written" and rng.random() < 0.7:
        return [(x.capitalize() if x not in ("de", "el") or i == 0 else x, True)
                for i, x in enumerate(w.split())], w
    return T(w), w


def _num_tok(rng, v, sp):
    if isinstance(v, float):
        s = "%g" % v
        if sp:
            i, d = s.split(".")
            return nw(int(i)) + " point " + " ".join(DIGIT_WORDS[c] for c in d)
        return s
    return nw(v, rng) if sp else str(v)


def gen_expression(rng, form):
    """Spoken/written arithmetic -> (tokens, canonical expression, result)."""
    sp = form == "spoken"
    r = rng.random()

    def num(lo=0, hi=100):
        if rng.random() < 0.08:
            return float("%d.%d" % (rng.randint(0, 20), rng.choice([5, 25, 2, 75])))
        return rng.choice([rng.randint(lo, hi), rng.randint(lo, 12), rng.randint(lo, 1000)])

    def c(v):
        return ("%g" % v) if isinstance(v, float) else str(v)
    if rng.random() < 0.2:   # verb and idiom forms: half of, double, add .. and .., subtract .. from ..
        kind = rng.choice(["half", "quarter", "double", "triple", "add", "sum", "subtract", "multiply",
                           "product", "divide", "square", "half", "add", "subtract", "multiply"])
        a, b = rng.randint(1, 100), rng.randint(1, 100)
        na, nb = _num_tok(rng, a, sp), _num_tok(rng, b, sp)
        if kind == "half":
            a = rng.choice([2 * rng.randint(1, 60), rng.randint(1, 200)])
            text, expr = rng.choice(["half of ", "half ", "one half of "]) + _num_tok(rng, a, sp), "%d / 2" % a
        elif kind == "quarter":
            a = rng.choice([4 * rng.randint(1, 50), rng.randint(1, 200)])
            text, expr = rng.choice(["a quarter of ", "quarter of ", "one quarter of "]) + _num_tok(rng, a, sp), "%d / 4" % a
        elif kind == "double":
            text, expr = rng.choice(["double ", "twice "]) + na, "2 * %d" % a
        elif kind == "triple":
            text, expr = "triple " + na, "3 * %d" % a
        elif kind == "add":
            text, expr = rng.choice(["add %s and %s", "add %s plus %s", "%s and %s added together",
                                     "%s add %s"]) % (na, nb), "%d + %d" % (a, b)
        elif kind == "sum":
            text, expr = "the sum of %s and %s" % (na, nb), "%d + %d" % (a, b)
        elif kind == "subtract":
            if rng.random() < 0.5:
                text, expr = rng.choice(["subtract %s from %s", "take %s away from %s", "take %s from %s"]) % (na, nb), \
                    "%d - %d" % (b, a)
            else:
                text, expr = rng.choice(["%s take %s", "%s subtract %s", "%s take away %s"]) % (nb, na), "%d - %d" % (b, a)
        elif kind == "multiply":
            a, b = rng.randint(2, 30), rng.randint(2, 30)
            na, nb = _num_tok(rng, a, sp), _num_tok(rng, b, sp)
            text, expr = rng.choice(["multiply %s by %s", "%s lots of %s", "%s multiplied with %s"]) % (na, nb), \
                "%d * %d" % (a, b)
        elif kind == "product":
            a, b = rng.randint(2, 30), rng.randint(2, 30)
            text, expr = "the product of %s and %s" % (_num_tok(rng, a, sp), _num_tok(rng, b, sp)), "%d * %d" % (a, b)
        elif kind == "divide":
            b = rng.randint(2, 12)
            a = b * rng.randint(1, 40) if rng.random() < 0.7 else rng.randint(1, 500)
            text, expr = rng.choice(["divide %s by %s", "%s shared between %s", "%s split %s ways"]) % \
                (_num_tok(rng, a, sp), _num_tok(rng, b, sp)), "%d / %d" % (a, b)
        else:
            text, expr = rng.choice(["the square of %s", "%s to the second power", "%s times itself"]) % na, "%d ^ 2" % a
        res = eval(expr.replace("^", "**"))
        return T(text), expr, fmt_num(float(res))
    if r < 0.6:
        op = rng.choice(["+", "-", "*", "/"])
        a, b = num(), num()
        if op == "/":
            if b == 0:
                b = rng.randint(1, 12)
            if rng.random() < 0.6 and isinstance(b, int) and isinstance(a, int):
                a = b * rng.randint(1, 50)
        words = {"+": ["plus", "plus", "added to"],
                 "-": ["minus", "minus", "take away", "less"],
                 "*": ["times", "times", "multiplied by"],
                 "/": ["divided by", "divided by", "over"]}[op]
        w = rng.choice(words)
        if not sp:
            w = rng.choice(words + {"+": ["+"], "-": ["-"], "*": ["*", "x"], "/": ["/"]}[op] * 3)
            if w == "added to":
                w = "plus"
            if w == "x" and rng.random() < 0.5:
                w = "times"
        expr = "%s %s %s" % (c(a), op, c(b))
        res = {"+": lambda: a + b, "-": lambda: a - b, "*": lambda: a * b, "/": lambda: a / b}[op]()
        if not sp and w in "+-*/" and rng.random() < 0.3:
            text = _num_tok(rng, a, sp) + w + _num_tok(rng, b, sp)
        else:
            text = _num_tok(rng, a, sp) + " " + w + " " + _num_tok(rng, b, sp)
        return T(text), expr, fmt_num(float(res))
    if r < 0.72:
        a, b, cc = rng.randint(1, 50), rng.randint(1, 50), rng.randint(1, 20)
        op1, op2 = rng.choice(["+", "-"]), rng.choice(["+", "-", "*"])
        wd = {"+": "plus", "-": "minus", "*": "times"}
        expr = "%d %s %d %s %d" % (a, op1, b, op2, cc)
        res = eval(expr)
        if sp:
            text = " ".join([nw(a), wd[op1], nw(b), wd[op2], nw(cc)])
        else:
            text = "%d %s %d %s %d" % (a, op1, b, op2, cc)
        return T(text), expr, fmt_num(float(res))
    if r < 0.82:
        p = rng.choice([5, 10, 12, 15, 18, 20, 25, 30, 40, 50, 75, rng.randint(1, 99)])
        x = rng.choice([rng.randint(1, 500), rng.randint(10, 2000), 80, 120, 60])
        expr = "%d / 100 * %d" % (p, x)
        if sp:
            text = nw(p) + " percent of " + nw(x, rng)
        else:
            text = rng.choice(["%d%% of %d", "%d percent of %d", "%d %% of %d"]) % (p, x)
        return T(text), expr, fmt_num(p / 100 * x)
    if r < 0.9:
        n = rng.choice([k * k for k in range(1, 31)] + [rng.randint(2, 500)])
        expr = "sqrt(%d)" % n
        if sp:
            return T(rng.choice(["", "the "]), False) + T("square root of " + nw(n, rng)), expr, fmt_num(math.sqrt(n))
        pre = rng.choice(["", "the "])
        return T(pre, False) + T(rng.choice(["square root of %d", "sqrt(%d)", "sqrt %d", "square root of %d"]) % n), \
            expr, fmt_num(math.sqrt(n))
    a = rng.randint(2, 20)
    kind = rng.choice(["squared", "cubed", "power"])
    b = {"squared": 2, "cubed": 3, "power": rng.randint(2, 10)}[kind]
    if kind == "power" and a > 9:
        b = rng.randint(2, 4)
    expr = "%d ^ %d" % (a, b)
    if sp:
        if kind == "power":
            text = nw(a) + rng.choice([" to the power of ", " to the power ", " raised to the power of ",
                                       " to the "]) + (nw(b) if rng.random() < 0.7 else ordinal_words(b))
            text = text.replace("to the " + ordinal_words(b), "to the " + ordinal_words(b)) \
                if "power" in text else nw(a) + " to the " + ordinal_words(b)
        else:
            text = nw(a) + " " + kind
    else:
        text = rng.choice(["%d^%d" % (a, b), "%d ^ %d" % (a, b), "%d to the power of %d" % (a, b)]) \
            if kind == "power" or rng.random() < 0.5 else "%d %s" % (a, kind)
    return T(text), expr, fmt_num(float(a ** b))


# ----------------------------------------------------------------------------------------
# own paraphrase grammar, per intent (same syntax as the catalogue; contractions allowed)

OWN = {
    "time.query": [
        "what (time | hour) is it [now | right now | at the moment | currently | over here]",
        "what's the (time | current time | exact time) [now | right now | please]",
        "(tell | give | show) me the [current | exact] time [now | please | quickly]",
        "[do | would] you (know | happen to know) (what time it is | the time)",
        "(any idea | got any idea | have you got any idea | no idea) what time it is",
        "what time (is it | have we got | do we have) [now | right now]",
        "what o'clock is it",
        "time [check | please | now]",
        "(check | read out | say) the time",
        "i (need | want) to know the time",
        "i need the time",
        "(how late | how early) is it [now]",
        "is it (late | midnight) yet",
        "what's the time (now | right now | at the moment | over there | here)",
        "(have | got) you (got | have) the time",
        "(could | can) (i | we) (have | get) the time",
        "the time (please | now)",
        "how late is it getting",
        "what time we at",
        "whats the time",
        "time",
        "what is the time [please]",
        "clock check",
    ],
    "date.query": [
        "what's (the | today's) date [today]",
        "what (date | day) is it [today | now]",
        "(which | what) day (is it | is today) [today]",
        "what day of the (week | month) is it [today]",
        "(tell | give) me (the | today's) date",
        "[do | would] you (know | happen to know) (what day it is | the date | today's date | what today's date is)",
        "what's today",
        "(today's | the) date [please]",
        "what (is | 's) the date today",
        "is (it | today) (monday | tuesday | wednesday | thursday | friday | saturday | sunday) [today]",
        "what (month | year) is it",
        "what's the date (today | right now)",
        "(remind | tell) me what day it is",
        "i (lost | have lost) track of the (day | date)",
        "date (please | check)",
        "which date is today",
        "what's the day [today]",
    ],
    "timer.query": [
        "how (much time | long) is (left | remaining) [on (the | my | that) [{:label}] timer]",
        "how much time (have i got | do i have | is there) left [on (the | my) [{:label}] timer]",
        "how long (till | until | before) (the | my) [{:label}] timer (goes off | rings | is done | finishes | ends)",
        "how's (the | my) [{:label}] timer (doing | going | looking) [please]",
        "(is | are) (the | my) [{:label}] (timer | timers) (still running | running | going | done | finished | still on)",
        "is there a timer (running | going | set | on)",
        "are there any timers (running | set | going | on)",
        "do i have (a | any) (timer | timers) (running | set | going | on)",
        "what's left on (the | my) [{:label}] timer",
        "(check | check on) (the | my) [{:label}] (timer | timers)",
        "when (will | does | is) (the | my) [{:label}] timer (go off | ring | end | finish | be done | due)",
        "(how many | how much) (minutes | seconds | time) (are | is) (left | remaining) [on (the | my) [{:label}] timer]",
        "(timer | timers) (status | check | update)",
        "time (left | remaining) on (the | my) [{:label}] timer",
        "what's (the | my) [{:label}] timer (at | on | showing)",
        "where are we (with | on) (the | my) [{:label}] timer",
        "(status | update) (of | on) (the | my) [{:label}] timer",
        "how close is (the | my) [{:label}] timer",
        "how far along is (the | my) [{:label}] timer",
        "(is | are) (the | my) [{:label}] (nearly | almost) done",
        "what timers (do i have | have i got | are running | are set)",
    ],
    "timer.set": [
        "(set | start | create | make | put on | add | fire up | kick off | get) [a | me a | up a] [{name}] timer for {duration_seconds}",
        "(set | start | create | make | put on) [a | me a] timer for {duration_seconds} (for | called | named | labelled) [the | my] {name}",
        "(set | start | put on) [a | me a] {duration_seconds} [{name}] timer",
        "(set | start) [a | me a] timer (called | named | labelled) {name} for {duration_seconds}",
        "(set | start | run) [a | me a] (timer | countdown) (of | for) {duration_seconds}",
        "(time | count down | countdown) {duration_seconds} [for [the | my] {name}]",
        "(remind | tell | ping | alert | buzz) me in {duration_seconds}",
        "(let me know | give me a shout | shout) (in | after) {duration_seconds}",
        "{duration_seconds} (timer | countdown) [please]",
        "{duration_seconds} on the clock [for [the | my] {name}]",
        "[a] [{name}] timer (for | of) {duration_seconds}",
        "(i need | i want | i'd like | gimme | give me) a [{name}] timer for {duration_seconds}",
        "(i need | i want | i'd like) a {duration_seconds} [{name}] timer",
        "(i need | i want | i'd like) a timer (for | of) {duration_seconds} for [the | my] {name}",
        "(time | timing) (my | the) {name} for {duration_seconds}",
        "the {name} (needs | need | has to cook for | has to go for) {duration_seconds}",
        "(start | set) the clock for {duration_seconds}",
        "(can you | could you) time {duration_seconds}",
        "(set | put) [a] timer (on | at) {duration_seconds}",
        "(add | set) a timer {duration_seconds} (for | called) {name}",
        "{name} timer {duration_seconds}",
        "timer {duration_seconds}",
        "timer for {duration_seconds}",
        "(start | set) [a] {duration_seconds} countdown",
        "wake me (in | after) {duration_seconds}",
        "(give | set) me {duration_seconds} for [the | my] {name}",
        "(set | make) a {name} timer (for | of) {duration_seconds}",
    ],
    "timer.cancel": [
        "(cancel | stop | delete | remove | clear | end | kill | dismiss | turn off | switch off | reset | scrap | drop | ditch | abort | silence | shut off) [the | my | that] [{name}] timer",
        "(cancel | stop | delete | remove | clear | kill | turn off) (the | my) timer (for | called | named) [the | my] {name}",
        "(cancel | stop | delete | remove | clear | kill | turn off) [all] [the | my | of the | of my] timers",
        "(get rid of | forget | forget about | never mind) [the | my] [{name}] timer",
        "i (don't | do not | no longer) need (the | my | that) [{name}] timer [anymore | any more]",
        "(no more | no need for the) [{name}] timer",
        "the [{name}] timer (can go | is not needed | isn't needed) [anymore]",
        "(stop | cancel) the countdown",
        "(cancel | scrap) that timer",
        "timer (off | cancel | stop)",
        "(turn | switch | shut) (the | my) [{name}] timer off",
        "(please | just) (cancel | stop | kill) [the | my] [{name}] timer",
        "take (off | away) the [{name}] timer",
        "the {name} is done (cancel | stop | kill) the timer",
        "i'm done with the [{name}] timer",
    ],
    "alarm.set": [
        "(set | create | make | add | schedule | put in | set up) [an | a | my] alarm (for | at) {time} [{day}]",
        "(set | create | make | add | schedule) [an | a | my] alarm [for] {day} (at | for) {time}",
        "(set | create | make) [an | a | my] alarm {time} [{day}]",
        "[an] alarm (for | at) {time} [{day}] [please]",
        "[an] alarm [for] {day} (at | for) {time}",
        "wake me [up] (at | by | around | for) {time} [{day}]",
        "wake me [up] {day} (at | by) {time}",
        "(get | wake) me up [at | by] {time} [{day}]",
        "i (need | want | have) to (wake up | get up | be up | be awake | rise) (at | by) {time} [{day}]",
        "i (need | want | have) to (wake up | get up | be up) {day} (at | by) {time}",
        "i've got to (get up | be up) at {time} [{day}]",
        "(set | put) [an | the | my] alarm clock (for | to | at) {time} [{day}]",
        "(make sure | ensure) i'm up (at | by) {time} [{day}]",
        "(can you | please) wake me (at | around) {time} [{day}]",
        "alarm {time} [{day}]",
        "i (need | want) an alarm (for | at) {time} [{day}]",
        "(schedule | book) a wake up call (for | at) {time} [{day}]",
        "wake up call (at | for) {time} [{day}]",
        "(ring | buzz) me at {time} [{day}]",
        "set (an alarm | the alarm | my alarm) (for | at) {time} {day}",
        "{day} (wake me | get me up) at {time}",
    ],
    "alarm.cancel": [
        "(cancel | delete | remove | clear | disable | turn off | switch off | get rid of) [the | my] alarm [for | at] [{time}] [{day}]",
        "(cancel | delete | remove | turn off) [the | my] {time} alarm [{day}]",
        "(cancel | delete | remove | clear | turn off) (all | all of) [the | my] alarms",
        "(don't | do not | no need to) wake me [up] [at {time}] [{day}]",
        "i (don't | do not | no longer) need [the | my] alarm [anymore]",
        "(scrap | kill | drop) [the | my] alarm [for {time}]",
    ],
    "alarm.query": [
        "(what | which) alarms (do i have | are set | have i set | are on | have i got)",
        "(list | show | read | tell me) [all] [the | my] alarms",
        "(when | what time) is (my | the) [next] alarm [set for | going off]",
        "(do i have | have i set | is there | have i got) (an | any) (alarm | alarms) [set] [for tomorrow]",
        "(check | any) [my] alarms",
        "what (is | are) my (alarm | alarms) [set for]",
        "is my alarm (set | on)",
    ],
    "volume.up": [
        "(turn | crank | pump | bring | jack | ramp | kick | bump | boost) (it | the volume | the sound | the music | this | that | things) up [a bit | a little | some | a notch | a touch | a tad | a lot | more]",
        "(turn | crank | pump | bump | ramp | jack) up (the volume | the sound | the music | it | the tunes | the radio) [a bit | a little | some | a notch]",
        "(increase | raise | boost | up | amplify) the (volume | sound | level) [a bit | a little | a notch | a touch | please]",
        "volume (up | higher) [a bit | a little | a notch | please]",
        "[a bit | a little | a tad | much] louder [please | a bit | a little | still]",
        "(make | play | have) (it | this | that | the music | the sound | the song) louder",
        "(speak | talk | sing) (up | louder)",
        "i (can't | cannot | can not) hear (you | it | that | the music | anything | a thing)",
        "(more | up the | a bit more) volume",
        "(it's | it is | that's | this is | the music is | you're) too (quiet | soft | low)",
        "(it's | it is) (way | a bit | really) too quiet [in here]",
        "turn (it | this) up a notch",
        "can't hear (a thing | you | it)",
        "(louder | higher) volume",
        "i (need | want) (it | the music | the volume) louder",
        "(give it | give me) more volume",
        "(up | raise) (it | the volume) [a bit | a notch]",
        "(nudge | bump) the volume up",
        "(pump | crank) it",
        "[can you] (go | get) louder",
        "(more | much more) sound",
        "it's hard to hear (you | the music | it)",
        "you're (barely audible | too quiet | really quiet)",
        "(the volume | the music | it) (needs | could be) louder",
    ],
    "volume.down": [
        "(turn | bring | knock | tone | dial | take) (it | the volume | the sound | the music | this | that | things) down [a bit | a little | some | a notch | a touch | a tad]",
        "(turn | bring | knock | dial | tone) down (the volume | the sound | the music | it | the tunes | the radio) [a bit | a little | some | a notch]",
        "(decrease | lower | reduce | drop | cut | lessen) the (volume | sound | level) [a bit | a little | a notch | please]",
        "volume (down | lower) [a bit | a little | a notch | please]",
        "[a bit | a little | a tad | much] (quieter | softer | lower) [please | a bit | a little | still]",
        "(make | play | have) (it | this | that | the music | the sound) (quieter | softer | less loud)",
        "(it's | it is | that's | this is | the music is | you're) (too loud | way too loud | really loud | deafening | blaring)",
        "that's deafening",
        "(less | lower) (volume | sound) [please]",
        "not so loud [please]",
        "keep it down [a bit | a little]",
        "quiet down [a bit | a little]",
        "(quieter | softer) (please | now)",
        "(you're | it's) (hurting | killing) my ears",
        "(my | our) ears are (ringing | hurting)",
        "(the baby | everyone) is (sleeping | asleep) (turn it down | keep it down)",
        "(lower it | lower the volume | drop the volume | cut the volume) [a bit | a notch]",
        "i (need | want) (it | the music | the volume) quieter",
        "(tone | dial) it down",
        "not (that | this) loud",
        "(way | much) too loud",
        "(bring | take) the volume down a (notch | bit | touch)",
        "it's too noisy in here",
    ],
    "volume.mute": [
        "mute [it | yourself | the (sound | volume | speaker | audio | music | tv) | everything | please | now]",
        "(turn | switch | shut) (the sound | the volume | the audio | the speaker) off",
        "(turn | switch | shut) off the (sound | volume | audio | speaker)",
        "(sound | volume | audio) off",
        "silence [yourself | the speaker | the audio | the music]",
        "go (silent | mute | quiet)",
        "(put | set) (it | the speaker | yourself | the volume) on mute",
        "(kill | cut) the (sound | audio | volume)",
        "no (sound | audio) [please]",
        "mute (mode | on)",
        "(i don't | i do not) want (any | to hear any) sound",
        "mute the volume [please]",
        "(hit | press) mute",
        "(zero | no) volume",
        "volume (to | at) mute",
    ],
    "volume.set": [
        "(set | change | turn | put | bring | make | adjust | crank | drop) [the] (volume | sound | level) (to | at) [level | volume] {level}",
        "(set | change | put | adjust) [the] (volume | sound) [level] {level}",
        "(volume | sound) (to | at | on) [level] {level} [please]",
        "(volume | sound | level) {level}",
        "volume level (to | at | of) {level}",
        "(set | put | turn) it (to | at | on) [volume | level] {level}",
        "(turn | bring | crank | knock) (it | the volume | the sound) (up | down) to [volume | level] {level}",
        "(i want | i'd like | make) the volume (at | to be | on) {level}",
        "(can you | could you) (set | put) the volume (to | at) {level}",
        "(go | jump | switch) to volume {level}",
        "(put | set) [the] volume on {level}",
        "(set | change) [the] volume level to {level}",
        "volume {level} out of ten",
        "set volume {level}",
        "(make it | put it on | go) {level}",
    ],
    "stop": [
        "stop [it | that | this | now | playing | talking | everything | the music | right now | there | please]",
        "cancel [it | that | this]",
        "(never mind | nevermind | forget it | forget about it | forget that | skip it)",
        "(shut up | pipe down | shut it)",
        "(that's | that is | it's | it is) enough [already | now | thanks]",
        "enough [already | now | please]",
        "(be quiet | quiet [please | now])",
        "(halt | hold it | hold on stop | whoa stop)",
        "(quit | end | stop) [it | that | this] [now | already]",
        "(that will | that'll | that would | that'd) do [thanks]",
        "(stop | cease) (playing | talking | speaking | the music | the audio | that noise)",
        "(ok | okay | alright) stop",
        "(please | just) stop",
        "that's all",
        "(no more | no thanks) [please]",
        "(cut | knock) it out",
        "(stop stop | stop it stop it)",
        "you can stop [now]",
        "(i'm | we're) done [thanks]",
        "(don't | do not) (continue | go on | keep going)",
        "(end | stop) (the | this) (song | track | playback | audio)",
    ],
    "repeat": [
        "repeat [that | it | yourself | the answer | the last thing | what you said | please | again]",
        "(say | tell me) (that | it) again [please | slowly | slower]",
        "say again",
        "[sorry | excuse me] what did you (say | just say)",
        "what was that [again | you said]",
        "come again",
        "(pardon | sorry | excuse me) [me]",
        "i (didn't | did not | couldn't | could not) (hear | catch | get | understand) (that | you | it | what you said)",
        "[(say | repeat) (that | it)] one more time",
        "(repeat | say) the last (answer | thing | part | bit | sentence)",
        "again please",
        "(once more | one more time) [please]",
        "(what | huh) did you say",
        "(could | can) you (repeat | say) that [again]",
        "run that by me again",
        "(what | huh) was that",
        "(i missed | missed) (that | what you said)",
        "(go | run) (over | through) that again",
        "(play | read) that again",
        "(you | it) (lost | confused) me (say | repeat) (that | it) again",
    ],
    "privacy.offline": [
        "go offline [now | please]",
        "(stay | work | be | remain) offline",
        "(turn on | switch on | enable | activate | start | enter | use | engage) [the] (privacy | offline | private | incognito) mode",
        "(switch | go | change | flip) (to | into) (privacy | offline | private) mode",
        "(privacy | offline | private) mode [on | please]",
        "(disconnect | unplug | go) (from | off) the (internet | cloud | network | web)",
        "(stop | quit) (using | connecting to | talking to | sending stuff to) the (internet | cloud | network)",
        "(disable | turn off | switch off | cut | kill | block) (the internet | internet access | the cloud | cloud access | the network | network access | your connection)",
        "(don't | do not | never) (send | upload | share) anything to the (cloud | internet)",
        "(keep | stay) (everything | it | my data) (local | on the device | offline | private)",
        "stop (listening to | talking to) the cloud",
        "(cut | drop) the connection",
        "(go | stay) off the grid",
        "i want (privacy | to be private | you offline)",
        "(no | stop all) (internet | cloud) (please | from now on)",
        "(pull | cut) the plug on the internet",
        "keep (this | everything) between us",
    ],
    "privacy.online": [
        "go [back] online [now | please]",
        "(turn off | switch off | disable | deactivate | exit | leave | end | stop | quit) [the] (privacy | offline | private | incognito) mode",
        "(switch | go | change | flip) [back] (to | into) (online | normal | regular) mode",
        "(online mode | back online) [please]",
        "(privacy | offline | private) mode off",
        "(reconnect | connect | hook up) [back] to the (internet | cloud | network | web)",
        "(enable | turn on | switch on | restore | reenable | bring back) (the internet | internet access | the cloud | cloud access | the network | network access | your connection)",
        "(you can | start | go ahead and) (using | use) the (internet | cloud) again",
        "(get | come) back online",
        "(reconnect | connect) [please]",
        "(i'm | we're) done with (privacy | offline | private) mode",
        "(end | stop) being offline",
        "(back to | return to) (online | normal) mode",
        "(use | go back to using) the cloud again",
        "(be | get) online (again | now)",
    ],
    "weather.query": [
        "(what's | what is | how's | how is | what will be) the (weather | forecast | weather forecast | weather report | outlook) [going to be | gonna be] [like] [(in | for | over in | up in | down in) {place}] [{day}]",
        "(what's | how's) the (weather | forecast) [going to be | gonna be] [like] {day} (in | for) {place}",
        "what will the weather (be | do) [like] [in {place}] [{day}]",
        "(tell | give | show) me the (weather | forecast | weather forecast | weather report) [for | in] [{place}] [{day}]",
        "[the] (weather | forecast | weather forecast | weather report) [in | for] [{place}] [{day}] [please]",
        "(is it | is it going to | will it | is it gonna | does it look like it'll) (rain | raining | snow | snowing | hail | drizzle | pour | be (sunny | rainy | cold | hot | warm | windy | cloudy | nice | stormy | humid | foggy | freezing)) [in {place}] [{day}]",
        "(is it | will it) (rain | snow | be sunny | be cold | be hot) {day} in {place}",
        "(do | will | should) i (need | bring | take | wear) (an umbrella | a jacket | a coat | sunscreen | a raincoat | boots | a sweater | shorts) [in {place}] [{day}]",
        "how (hot | cold | warm | chilly) (is it | will it be | is it going to be | is it gonna be) [outside | out] [in {place}] [{day}]",
        "what's the (temperature | temp) [outside | going to be | gonna be] [in {place}] [{day}]",
        "(what's | how's) it (like | looking) outside [in {place}] [{day}]",
        "(check | get | look up | pull up) the (weather | forecast) [for | in] [{place}] [{day}]",
        "(any | is there) (rain | snow | sun | wind | storms) (expected | forecast | coming | on the way) [in {place}] [{day}]",
        "what's the weather doing [in {place}] [{day}]",
        "(weather | forecast) (check | update) [for {place}] [{day}]",
        "(will | is) it (be | going to be) a nice day [in {place}] [{day}]",
        "(what's | what is) the high [in {place}] [{day}]",
        "what should i wear [in {place}] {day}",
        "(is | will) the weather (be | going to be) (good | bad | nice) [in {place}] [{day}]",
        "how's the weather looking [in {place}] [{day}]",
        "(rain | snow) [forecast] [in {place}] {day}",
        "{place} weather [{day}]",
        "{day} weather [in {place}]",
        "weather {place}",
    ],
    "convert.units": [
        "convert {value} {from} (to | into | in) {to}",
        "(what's | what is | how much is | how much are) {value} {from} (in | to | into) {to}",
        "how many {to} (is | are | in | make | equal | make up | would be) {value} {from}",
        "how many {to} (are | is) there in {value} {from}",
        "{value} {from} (to | in | into | in terms of | converted to) {to}",
        "{value} {from} (is | are | equals | makes) how many {to}",
        "(change | turn | switch) {value} {from} (to | into) {to}",
        "(what | how much) (is | are | does) {value} {from} (come to | equal | make) in {to}",
        "(can you | could you | please) convert {value} {from} (to | into) {to}",
        "i (need | want) to (know | convert) {value} {from} (in | to | into) {to}",
        "(give | tell) me {value} {from} in {to}",
        "(express | show) {value} {from} in {to}",
        "if i have {value} {from} how many {to} is that",
        "{value} {from} (equals | is) what in {to}",
        "(conversion | convert) (of | for) {value} {from} (to | into) {to}",
    ],
    "math.compute": [
        "(what's | what is | how much is | calculate | compute | work out | what does | whats) {expression} [equal | make | come to | equals]",
        "{expression} (equals | is | makes) [what | how much]",
        "{expression}",
        "(what's | what is | how much is) the (result | answer | total | sum | product) of {expression}",
        "(solve | figure out | quick maths | quick math | tell me | do) {expression}",
        "(can you | could you) (calculate | work out | figure out | do) {expression} [for me]",
        "(help me | i need to) (calculate | figure out | work out) {expression}",
        "(hey | so) what's {expression}",
        "(how much | what) (is | are) {expression} [altogether | in total]",
        "calculate (this | the following) {expression}",
        "(give me | tell me) the answer to {expression}",
        "what do you get (for | from | if you do) {expression}",
        "{expression} (equals | is) (what | how much)",
    ],
}

# broader paraphrases per intent: idioms, slang, indirect statements, polite questions, one- and
# two-word commands. Meaning decides between near neighbours: sound off entirely (mute, silence,
# hush, shush, go quiet) is volume.mute; quieter/softer/too loud is volume.down; halting what is
# playing or being said (stop, cut it, knock it off, never mind, pause) is stop; present "can't hear"
# is volume.up, past "didn't catch that" is repeat.
OWN_MORE = {
    "time.query": [
        "(what's | what is) the time [then | again | mate | now]",
        "(got | have you got | you got) the time [on you]",
        "(do you | would you) have the time [please]",
        "(what | which) time (is it | it is) (now | right now | at the moment) [please]",
        "(any chance you could | could you | would you) (tell me | give me) the time",
        "do you know what (time it is | the time is) [right now]",
        "(can | could) you (check | look at) the (time | clock) for me",
        "how late is it",
        "is it (noon | lunchtime | bedtime | dinnertime) yet",
        "(i've | i have) lost track of (the | what) time [it is]",
        "(i | we) don't have a (watch | clock) what time is it",
        "what time do you make it",
        "what does the clock say",
        "(current | exact | local) time [please]",
        "time (now | check please | right now)",
        "what's the time (looking like | in here | at the moment)",
        "what's the time (sotto | please)",
        "(what | what's the) time is it now",
        "(tell | remind) me (what | the) time [it is]",
        "how late (is it now | has it got)",
        "the time",
        "(time | the time) (sotto | please | now)",
        "i'm (running late | in a rush) what's the time",
    ],
    "date.query": [
        "what (day | date) is it (today | again | right now)",
        "(what's | what is) (today's | the) date (again | please | then)",
        "(what | which) day of the week is it [today | again]",
        "is (it | today) the {:dom} [today]",
        "is today the {:dom} of {:month}",
        "is (it | today) (a weekday | the weekend | a saturday | a sunday | a monday | a friday) [today]",
        "(what | which) (month | year) are we in",
        "what's the date (please | again | sotto)",
        "(do you know | can you tell me | any idea) (what day it is | what the date is | what today is) [today]",
        "(i've | i have) lost track of (the days | what day it is | the date)",
        "(what | which) day are we on",
        "(what's | what is) (the date | the day) (today | right now)",
        "what day is it (sotto | please | today please)",
        "(tell | remind) me (the date | what day it is | today's date)",
        "(today's date | the date | what day) please",
        "date",
        "today's date",
        "what's today's date (again | please)",
        "(what | which) date (is it | are we on)",
    ],
    "timer.query": [
        "how long left [on (the | my | that) [{:label}] timer]",
        "how much (longer | more time | time) (is there | is left | do i have | have i got) [on (the | my) [{:label}] timer]",
        "how much time is on the {:label} timer",
        "how much time is (on | left on) (the | my) [{:label}] timer",
        "(how's | how is) (the | my) [{:label}] (timer | countdown) (coming along | doing | going)",
        "(is | are) the {:label} (done | ready | nearly ready) yet",
        "how long (until | till | before) the {:label} (is done | is ready | comes out)",
        "how long (until | till | before) (it | the timer) (goes off | beeps | rings)",
        "(what's | what is) the (countdown | timer) (at | on | saying)",
        "(any | how much) time left",
        "time left",
        "how long to go [on the timer]",
        "how (many | much) (minutes | seconds) (to go | left | remaining) [on (the | my) [{:label}] timer]",
        "(check | check on | look at) the [{:label}] timer [for me | please]",
        "(do i still have | have i still got) (a | the | my) [{:label}] timer (running | going | on)",
        "(remind | tell) me how long (is left | left) on (the | my) [{:label}] timer",
        "(what's | what is) the status of (the | my) [{:label}] timer",
        "(is | has) (the | my) [{:label}] timer (finished | gone off | done) yet",
        "how long have i got left [on (the | my) [{:label}] timer]",
        "how (are | is) my (timers | timer) (doing | looking)",
    ],
    "timer.set": [
        "give me {duration_seconds} [on the clock | please]",
        "give me {duration_seconds} (for | on) (the | my) {name}",
        "(set | start | put) [a | the] timer {duration_seconds} [please]",
        "(set | start | put on) a (timer | countdown) for {duration_seconds} [please | for me]",
        "(i'm | i am) (making | cooking | baking | boiling | doing) [the | some | my] {name} (set | start | put on) a timer for {duration_seconds}",
        "(can | could) you (set | start) (a | me a) timer for {duration_seconds} [please]",
        "(any chance you could | would it be possible to) (set | start) a timer for {duration_seconds}",
        "(let me know | tell me | remind me | give me a shout | ping me) when {duration_seconds} (is up | are up | have passed | has passed)",
        "(count | countdown | count down) (from | for) {duration_seconds}",
        "(set | start) a {name} (timer | countdown) [for] {duration_seconds}",
        "{name} (for | needs) {duration_seconds}",
        "{duration_seconds} (for | on) the {name}",
        "{duration_seconds} please",
        "timer {duration_seconds} (for | on) (the | my) {name}",
        "(start | set | begin | kick off) a {duration_seconds} (timer | countdown) (now | please) [for [the | my] {name}]",
        "stick a timer on for {duration_seconds} [for [the | my] {name}]",
        "(pop | whack | throw) (a | on a) timer (on | for) {duration_seconds}",
        "(the | my) {name} (will be | is) (done | ready) in {duration_seconds} (set a timer | time it)",
        "(time | clock) {duration_seconds} for (the | my) {name}",
        "(set | start) (me | us) a timer (of | for) {duration_seconds}",
        "(alert | buzz | beep | ping) me (in | after) {duration_seconds} [for [the | my] {name}]",
        "(set | start) a timer called {name} (for | of) {duration_seconds}",
        "{duration_seconds} {name} timer [please]",
        "(i need | i want) {duration_seconds} (on the timer | on the clock | for the {name})",
    ],
    "timer.cancel": [
        "scrap the [{name}] timer",
        "(ditch | bin | nix | axe | kill | stop) the [{name}] (timer | countdown) [please | now]",
        "(cancel | stop | kill | clear) the timer for (the | my) {name}",
        "(forget | never mind) the [{name}] timer",
        "(cancel | delete | kill | stop | clear) all [the | my | of my] timers",
        "(i | we) (won't | will not | don't) need (the | that) [{name}] timer [after all | anymore]",
        "(the | my) {name} (is done | is ready | came out early) [so] (cancel | stop | kill) (the | that) timer",
        "(turn | shut | switch) off (the | that | my) [{name}] timer",
        "(get rid of | lose | drop) the [{name}] timer",
        "(please | can you | could you) (cancel | stop | delete) (the | my) [{name}] timer",
        "no need for (a | the) [{name}] timer (anymore | any more | now)",
        "(stop | cancel | end) the [{name}] countdown",
        "timer (off | cancelled) [please]",
        "(cancel | kill | stop) timer",
        "cancel (my | the) {name} timer",
        "(call off | abort) the [{name}] timer",
    ],
    "alarm.set": [
        "get me up (at | by | for) {time} [{day}]",
        "(get | wake) me up {day} (at | by) {time}",
        "i need to be up (by | at) {time} [{day}]",
        "i (need | have | want) to (be up | be awake | get up | wake up) (by | at) {time} [{day}] (set an alarm | wake me)",
        "(i've got | i have) an early (start | flight | meeting) (wake me | get me up | set an alarm) (at | for) {time} [{day}]",
        "(could | can | would) you (wake me | get me up | set an alarm) (at | for) {time} [{day}] [please]",
        "(any chance you could | would it be possible to) (wake me | set an alarm) (at | for) {time} [{day}]",
        "(alarm | wake up | wake up call) (at | for) {time} [{day}] please",
        "(set | put) (an | my | the) alarm on for {time} [{day}]",
        "(set | make) (me | us) an alarm (for | at) {time} [{day}]",
        "(gimme | give me) an alarm (for | at) {time} [{day}]",
        "(i'd like | can i get | can i have) (an alarm | a wake up call) (at | for) {time} [{day}]",
        "(rouse | wake) me (at | around | about) {time} [{day}]",
        "(make sure | see that) i'm (awake | up) (by | at) {time} [{day}]",
        "{time} alarm [{day}] [please]",
        "(alarm | wake me) {day} {time}",
        "{day} at {time} (wake me | alarm | get me up)",
        "i (wanna | want to | gotta | need to) (get up | wake up) at {time} [{day}]",
        "alarm for {time} [{day}]",
        "(set | create) (an | a) alarm (for | at) {time} {day}",
        "(wake | get) me up at {time} (sharp | on the dot) [{day}]",
    ],
    "alarm.cancel": [
        "(cancel | scrap | kill | delete | drop | ditch) (the | my) [{time}] alarm [{day}] [please]",
        "(turn | switch | shut) off (the | my) [{time}] alarm [{day}]",
        "(i | we) (don't | do not) need (an | the | my) alarm [{day}] [anymore | after all]",
        "(no | don't set an) alarm [{day}] [please]",
        "(don't | do not) (wake me | get me up) [{day}] [at {time}]",
        "(cancel | delete | remove) (the | my) alarm (for | at) {time} [{day}]",
        "(cancel | delete | remove | clear | turn off) every alarm",
        "(i can | let me) sleep in [{day}] (cancel | turn off) (the | my) alarm",
        "(forget | never mind) (the | my) [{time}] alarm [{day}]",
        "(get rid of | take off) (the | my) [{day}] alarm",
        "alarm (off | cancel) [{day}]",
    ],
    "alarm.query": [
        "(when | what time) (will | does) (my | the) alarm go off [tomorrow]",
        "(what time | when) is my alarm set for [tomorrow]",
        "(did i | have i) set (an | my | the) alarm [for tomorrow]",
        "(is | are) (my | the) (alarm | alarms) (on | set | still on | still set) [for tomorrow]",
        "what (alarms | alarm) (have i got | do i have | is set | are on) [for tomorrow]",
        "(any | are there any) alarms (set | on) [for tomorrow]",
        "(remind | tell) me (when | what time) my alarm is",
        "(check | list | show) (my | the) alarms [please]",
        "(what | which) alarms are (set | on)",
        "my alarms",
        "alarm (status | check)",
        "(when | what time) am i (getting up | waking up) tomorrow",
    ],
    "volume.up": [
        "i can't hear (a thing | anything | you | it | the music | a word)",
        "(i | we) can (barely | hardly) hear (you | it | anything | the music | a thing)",
        "(louder | turn it up) (please | mate | sotto)",
        "(crank | pump | turn) it up",
        "louder",
        "volume up",
        "turn (the speaker | the music | the radio | the tunes | the song | the podcast) up [a bit | a notch]",
        "(make | get) (the music | the sound | the speaker | it) (louder | a bit louder | loud)",
        "(any chance you could | would it be possible to | could you | can you) (turn it up | turn the volume up | make it louder)",
        "(bring | push | pump) (up the | the) volume [a bit | a notch]",
        "(it's | it is) (way | far | really | much) too (quiet | soft) (in here | for me)",
        "(up | louder) a (bit | notch | touch | little) [please]",
        "(more | turn up the) (bass | noise | sound) [please]",
        "(a little | a bit | a lot) more volume [please]",
        "(let's | lets) (turn | crank) it up",
        "(i | we) (can't | cannot) hear (over | above) the (noise | dishwasher | kids | traffic)",
        "(up | raise) the volume (a bit | some | please)",
        "louder louder",
        "(make | can you make) it (louder | loud) (please | for me)",
        "(you're | you are) (too quiet | so quiet | really quiet | hard to hear)",
        "turn it (way | all the way) up",
    ],
    "volume.down": [
        "it's (way | far | much | a bit | a little | really) too loud (in here | for me)",
        "(turn | bring) (the speaker | the music | the radio | the tunes | the song | the podcast | you) down [a bit | a notch]",
        "(make | get) (the music | the sound | the speaker | it) (quieter | softer | a bit quieter)",
        "(any chance you could | would it be possible to | could you | can you) (turn it down | turn the volume down | make it quieter)",
        "(keep it | keep the noise | keep the music) down [a bit | please]",
        "quieter",
        "volume down",
        "(down | quieter | softer) a (bit | notch | touch | little) [please]",
        "(it's | that's) (a bit | too | way too) (loud | noisy | much)",
        "(it's | this is) blasting",
        "(you're | you are) (too loud | so loud | shouting | way too loud)",
        "(less | lower) (loud | volume | noise) [please]",
        "(bring | take) it down a (notch | bit | peg)",
        "(the neighbours | the neighbors | the kids | the baby) (will complain | are sleeping) (turn it down | keep it down)",
        "(lower | reduce | drop) (the music | the sound) [a bit | a notch]",
        "(turn | tone) it down [a bit | a notch | please]",
        "(softer | quieter) please",
        "quieter quieter",
        "not (so | as) loud (please | thanks)",
        "(ease | back) off the volume [a bit]",
    ],
    "volume.mute": [
        "mute",
        "(mute | silence) (it | yourself | the speaker | the sound | the music | the tv) [please | now]",
        "(kill | cut | lose) the (sound | audio | volume | noise)",
        "(shush | hush | shh) [now | please]",
        "go (quiet | silent | mute) [please | for a bit | for a minute]",
        "(turn | switch | shut) (the sound | the audio | the volume | everything) (off | right off)",
        "(turn | put) (it | the volume) (all the way | right) down to (nothing | zero | mute)",
        "(no sound | not a peep | no noise) [please]",
        "(put | stick) (yourself | it | the speaker) on (mute | silent)",
        "(i | we) (don't | do not) want to hear (anything | a sound | a thing) (for a bit | right now)",
        "(any chance you could | could you | can you | would you) (mute | silence) (yourself | the sound | it)",
        "(silent | mute) mode [please | on]",
        "(kill | cut) the (volume | sound) (completely | entirely)",
        "(zero | no) (sound | volume | audio) [please]",
        "hush (now | please | up)",
        "(mute | silence) the (audio | volume | speaker) (for now | for a bit)",
        "(just | please) (mute | go quiet)",
        "silence",
        "mute it",
    ],
    "volume.set": [
        "(set | put | turn) (the speaker | the music | it | the sound) to {level}",
        "volume (to | at) {level} (please | thanks)",
        "(can | could) you (set | put | turn) the volume (to | at | on) {level}",
        "(any chance you could | would it be possible to) (set | put) the volume (to | at) {level}",
        "(put | set | turn) it (on | to | at) {level} [please]",
        "(i'd like | i want) (the volume | it) (at | on | to be) {level}",
        "(make | set) the volume {level} [out of ten]",
        "(volume | sound | level) (should be | to) {level}",
        "(take | bring | turn) (the volume | it) (to | up to | down to) {level}",
        "{level} on the volume",
        "(crank | turn) it (all the way | right) up to {level}",
        "(change | switch) (the volume | it) to {level}",
        "(go | set it) to level {level}",
    ],
    "stop": [
        "cut it",
        "(knock | cut) it off",
        "(that's | that is) enough [now | thanks | already]",
        "(hold it | hold it right there | hold on stop | wait stop)",
        "pause [that | it | this | the music | playback | please]",
        "(never mind | nevermind) [then | sotto | thanks]",
        "cancel (that | it) [please]",
        "(stop | end | halt) (that | it | this) (please | now | right now)",
        "(ok | okay | alright) (that's enough | enough | stop it | cut it)",
        "(shut it | shut it off | turn it off)",
        "(kill | cut) (it | the music | the song | this song | that noise)",
        "(give it a rest | put a sock in it | can it)",
        "(stop | pause) (the song | the track | the podcast | the radio | the audio book | playing)",
        "(that's | that is) (it | all) (thanks | for now)",
        "(i've | i have) heard enough",
        "(please | just) (stop it | stop that | cut it out)",
        "(any chance you could | could you | can you) (stop | stop that | pause that)",
        "(stop | quiet) (stop | quiet)",
        "(forget | drop) it",
        "(no | nah) (stop | forget it | never mind)",
        "(enough | stop) (of that | with that)",
        "(halt | stop) playback",
    ],
    "repeat": [
        "come again",
        "pardon [me | sorry]",
        "(what was that | what did you say) (sorry | again | just now)",
        "say that one more time",
        "say (that | it) (one more time | again | once more) [please | slower | slowly]",
        "i missed (that | what you said | the last bit | the end | that last part)",
        "(i | we) (didn't | did not) (catch | hear | get) (that | the last bit | the end | what you said)",
        "(sorry | excuse me) (what | pardon) [was that]",
        "(huh | eh | what)",
        "(repeat | say) (that | it) (please | for me | slowly)",
        "(could | can | would) you (repeat | say) (that | it) (again | once more | one more time) [please]",
        "(any chance you could | would it be possible to) (repeat that | say that again)",
        "(one more time | once more | again) (please | sotto)",
        "(what | how) was that again",
        "(you | that) went too fast (say | repeat) (that | it) again",
        "(run | go) (that | it) by me again",
        "(sorry | oops) (i missed that | i didn't catch that)",
        "(read | play) (that | it | the answer) back [to me] [again]",
        "(repeat | say) the (answer | last thing | last part) again",
        "again",
        "repeat",
    ],
    "privacy.offline": [
        "stop listening [for (a bit | a while | now)]",
        "go private [please | now | for a bit]",
        "(turn | switch | shut) off (the | your) (mic | microphone | connection | internet)",
        "(turn | switch) (the | your) (mic | microphone | internet) off",
        "(disconnect | unplug) [yourself] [from the (internet | cloud | network)]",
        "(i | we) (want | need) some privacy",
        "(i | we) (don't | do not) want you listening [right now | for a bit]",
        "(any chance you could | could you | can you) (go offline | go private | stop listening)",
        "(privacy | incognito | private | offline) (please | mode please | mode now)",
        "(cut | kill) (your | the) (internet | connection | wifi) [please]",
        "(go | drop) off (line | the network | the internet)",
        "(no more | stop the | no) (cloud | internet) (stuff | access | please)",
        "(stay | keep) off the (internet | cloud | network) [for now | for a while]",
        "(enable | turn on | switch on) privacy [please]",
        "(stop | quit) (sending | uploading) (stuff | things | my data | anything) (to | up to) the (cloud | internet)",
        "(go dark | go incognito) [please | for a bit]",
        "offline",
        "(mic | microphone) off",
    ],
    "privacy.online": [
        "you can (listen | start listening | go online | use the internet | connect) again",
        "(start listening | come back online | go back online | reconnect) [again | now | please]",
        "(turn | switch) (the | your) (mic | microphone | internet | connection) (back on | on again | on)",
        "(turn | switch) on (the | your) (mic | microphone | internet | connection) [again]",
        "(privacy | incognito | private | offline) mode (off | over | done)",
        "(exit | leave | quit | end) (privacy | incognito | private) [mode]",
        "(any chance you could | could you | can you) (go back online | reconnect | start listening again)",
        "(i'm | we're) done with privacy",
        "(back online | online again | online mode) [please]",
        "(reconnect | connect) (to | back to) the (internet | cloud | wifi | network)",
        "(you're | you are) allowed (online | to listen) again",
        "(enable | turn on) (the | your) (cloud | internet | connection) again",
        "(ok | okay | alright) (go back online | you can listen again | reconnect)",
        "(disable | turn off | switch off) privacy [mode]",
        "(mic | microphone) (on | back on)",
        "online",
    ],
    "weather.query": [
        "do i need an umbrella [{day}] [in {place}]",
        "(will | should) i (need | take | bring) (an umbrella | a coat | a brolly | sunglasses | gloves) [{day}] [in {place}]",
        "(will | is) it (be | going to be | gonna be) (cold | hot | warm | wet | chilly | windy | sunny | nice) [in {place}] [{day}]",
        "how (hot | cold | warm) (will it get | is it going to get | is it gonna get) [in {place}] [{day}]",
        "is it (snowing | raining | pouring | windy | sunny | freezing | hot | cold) (in | over in | out in) {place} [{day}]",
        "is it (snowing | raining | pouring | freezing | cold) (out | outside) [{day}]",
        "(i'm | we're) (heading | going) (out | to {place}) (is it going to | will it | is it gonna) (rain | snow | be cold) [{day}]",
        "(i'm | we're) (heading out | going out | off out) (what's | how's) the weather (like | looking)",
        "(any chance you could | can you | could you) (tell me | check) the (weather | forecast) [for {place}] [{day}]",
        "do you know (what the weather's | what the weather is | if it's) (like | doing | going to rain) [in {place}] [{day}]",
        "(what's | what is) the (weather | forecast | temperature) (looking like | doing | like) (out there | outside) [{day}]",
        "(should | will) i (wear | need) (shorts | a jumper | a sweater | layers | a jacket) [{day}] [in {place}]",
        "(what's | what is) it like (in | over in) {place} [{day}]",
        "(is | will) it (nice | warm | cold | raining) in {place} [{day}]",
        "(what's | what is) the (high | low | top temperature | low temperature) [(for | in) {place}] [{day}]",
        "how (windy | wet | humid | sunny) (is it | will it be) [in {place}] [{day}]",
        "(any | what are the chances of) (rain | snow | sunshine | thunder | storms) [in {place}] [{day}]",
        "(forecast | weather) (for | in) {place} [{day}] (please | sotto)",
        "(forecast | weather | weather report) please",
        "(weather | forecast)",
        "{day} (forecast | weather) [please]",
        "how's {day} looking [weather wise]",
        "(will | is) it (clear up | brighten up | stay dry | stay sunny) [in {place}] [{day}]",
        "(what temperature | how many degrees) (is it | will it be) [in {place}] [{day}]",
        "(is it going to | will it) be (raining | snowing) when i (leave | get there) [{day}]",
    ],
    "convert.units": [
        "how many {to} in {value} {from}",
        "how many {to} (is | are) in {value} {from}",
        "{value} {from} in {to} [please]",
        "{value} {from} (is | are) how many {to} [roughly | exactly]",
        "(what's | what is | how much is) {value} {from} (in | as | converted to | converted into) {to}",
        "(roughly | approximately | about) how many {to} (is | are) {value} {from}",
        "(any chance you could | can you | could you | would you) (convert | turn | change) {value} {from} (into | to) {to}",
        "(how far | how long | how heavy | how hot | how much | how big) is {value} {from} in {to}",
        "(i've got | i have) {value} {from} (what's that | what is that | how much is that) in {to}",
        "(translate | switch) {value} {from} (to | into) {to}",
        "in {to} (what's | what is | how much is) {value} {from}",
        "{value} {from} (to | into) {to} (please | thanks)",
        "(what does | what do) {value} {from} (work out to | come out to | come to) in {to}",
        "(do you know | can you tell me) how many {to} (are in | is in | make) {value} {from}",
        "(what's | what is) the (equivalent | conversion) of {value} {from} in {to}",
        "if something is {value} {from} how many {to} is that",
        "(convert | change) {value} {from} [over] (to | into) {to} (for me | please)",
        "{value} {from} equals how many {to}",
    ],
    "math.compute": [
        "(what's | what is) {expression}",
        "(what's | what is | how much is) {expression} (again | then | please | exactly)",
        "(any chance you could | can you | could you | would you) (work out | calculate | do | figure out) {expression} [for me]",
        "(do you know | can you tell me) (what | how much) {expression} (is | comes to | makes)",
        "{expression} (please | thanks | sotto)",
        "(quick | a quick) (sum | maths question | math question) {expression}",
        "(i | we) need (to know | the answer to) {expression}",
        "(what's | what is) the answer (to | for) {expression}",
        "help me (with | work out) {expression}",
        "{expression} (is | makes | equals) (what | how much) (again | exactly)",
        "(work | figure) out {expression} (for me | please)",
        "(what | how much) (does | do) {expression} (make | come to | give you | equal)",
        "(hey | so | okay) {expression}",
        "(calculate | compute | evaluate) {expression} (please | now)",
    ],
}
for _k, _v in OWN_MORE.items():
    OWN[_k].extend(_v)

# a request frame may go before a phrase that starts with one of these verbs
IMPERATIVE = set("""set start create make put add cancel stop delete remove clear end kill dismiss turn
switch reset get wake schedule crank pump bring increase raise boost speak talk decrease lower reduce
mute silence go repeat say tell give convert calculate compute work solve figure check change adjust
disconnect disable enable reconnect connect restore keep time count remind list show read play
drop cut knock tone dial jump hit pull look express fire kick run""".split())
FRAMES = ["can you", "could you", "can you please", "could you please", "would you", "will you",
          "please", "i want you to", "i'd like you to", "i need you to", "would you please",
          "can u", "you can", "go ahead and", "just", "quickly", "i'd like to",
          "any chance you could", "would it be possible to", "is it possible to", "do you think you could",
          "i was hoping you could", "if you could", "could i get you to", "be a dear and", "can you just",
          "would you kindly", "hey can you", "can you go ahead and", "i'd love it if you could", "mind if i ask you to",
          "could you maybe", "you mind if i get you to", "could ya", "can ya", "pretty please", "kindly"]
# a question frame may go before a phrase that is itself a question
QFRAMES_INTENT = ["do you know", "can you tell me", "could you tell me", "any idea", "quick question",
                  "i was wondering", "hey quick one", "sorry to bother you but", "just wondering",
                  "mind telling me", "out of curiosity", "remind me"]
PREFIX = ["hey", "um", "uh", "so", "okay", "ok", "alright", "oh", "right", "yo", "hi", "erm",
          "hey there", "well", "uh hey", "okay so", "hmm", "listen", "excuse me", "sotto", "hey sotto",
          "hello", "so um", "yeah", "ah", "now", "and", "sorry", "right so", "hey buddy", "okay um",
          "oi", "hiya", "morning", "good morning", "evening", "quick one", "one sec", "so like", "yo sotto",
          "okay sotto", "alright then", "look", "ok so", "hey you", "uh sotto", "sotto please", "er", "hmm okay",
          "oh hey", "right then", "alright sotto", "hey hey"]
SUFFIX = ["please", "thanks", "thank you", "cheers", "if you don't mind", "for me", "mate", "now",
          "thanks a lot", "buddy", "pal", "ta", "would you", "will you", "please and thank you",
          "if you can", "right now", "quickly", "when you can", "if possible", "okay", "thx", "my friend",
          "love", "dude", "sir", "then", "real quick", "thank you very much", "cheers mate", "yeah",
          "if that's okay", "when you get a chance", "ta very much", "for me please", "no rush", "asap",
          "pronto", "thanks so much", "would ya", "please sotto", "sotto", "thanks sotto", "okay thanks",
          "if you would", "much appreciated", "bro", "yeah please", "now please", "please thanks", "cheers love",
          "thank you kindly", "if you get a sec", "right away", "ok"]
CONTRACT = {("what", "is"): "what's", ("it", "is"): "it's", ("that", "is"): "that's",
            ("do", "not"): "don't", ("can", "not"): "can't", ("did", "not"): "didn't",
            ("could", "not"): "couldn't", ("i", "am"): "i'm", ("how", "is"): "how's",
            ("where", "is"): "where's", ("is", "not"): "isn't", ("will", "not"): "won't",
            ("that", "will"): "that'll", ("that", "would"): "that'd", ("you", "are"): "you're",
            ("there", "is"): "there's", ("i", "would"): "i'd", ("when", "is"): "when's",
            ("who", "is"): "who's", ("are", "not"): "aren't", ("does", "not"): "doesn't"}
WORD_NATURAL = {"oclock": "o'clock", "todays": "today's", "nevermind": "never mind", "whats": "what's",
                "cannot": "can't", "im": "i'm", "dont": "don't"}
EXPAND = {v: k for k, v in CONTRACT.items()}
HOMOPHONES = {"for": ["four", "fore"], "to": ["two", "too"], "weather": ["whether"], "right": ["write", "rite"],
              "hour": ["our"], "there": ["their"], "know": ["no"], "one": ["won"], "too": ["to", "two"],
              "two": ["too", "to"], "four": ["for"], "our": ["hour"], "eight": ["ate"], "by": ["buy", "bye"],
              "see": ["sea"], "new": ["knew"], "week": ["weak"], "be": ["bee"], "hear": ["here"],
              "here": ["hear"], "wait": ["weight"], "mute": ["mewt"], "timer": ["time or", "tymer"],
              "alarm": ["a lot", "a larm"], "weekend": ["week end"], "louder": ["lauder"],
              "would": ["wood"], "through": ["threw"], "sun": ["son"], "whole": ["hole"], "cue": ["queue"],
              "rain": ["reign"], "minutes": ["minute's"], "set": ["said"], "volume": ["volume"],
              "it's": ["its"], "what's": ["what"], "i'm": ["am"]}
FUNCTION_WORDS = {"the", "a", "an", "to", "my", "is", "of", "for", "me", "at", "it", "on", "in", "be", "are"}


# ----------------------------------------------------------------------------------------
# "none": open requests for the language model, incl. hard negatives with command words

NONE_LEX = {
    "animal": "dog cat parrot hamster horse rabbit goldfish tortoise ferret puppy kitten cockatoo gecko pony".split(),
    "wild": "octopus whale elephant cheetah penguin owl shark bee ant dolphin giraffe platypus axolotl tardigrade".split(),
    "food": ["lasagna", "banana bread", "pad thai", "risotto", "sourdough", "pancakes", "guacamole", "chili",
             "paella", "ramen", "hummus", "apple crumble", "shepherd's pie", "curry", "tiramisu", "gumbo",
             "jollof rice", "pierogi", "bibimbap", "falafel", "focaccia", "brownies", "meatballs", "tacos"],
    "topic": ["black holes", "the roman empire", "photosynthesis", "the french revolution", "volcanoes",
              "quantum computing", "the silk road", "plate tectonics", "the moon landing", "climate change",
              "the printing press", "the pyramids", "dinosaurs", "the immune system", "jazz", "origami",
              "the stock market", "inflation", "bitcoin", "the olympics", "the vikings", "tides", "rainbows",
              "the northern lights", "gravity", "evolution", "the cold war", "the renaissance", "coral reefs"],
    "country": ["japan", "peru", "iceland", "kenya", "canada", "norway", "egypt", "brazil", "vietnam",
                "portugal", "mongolia", "chile", "new zealand", "morocco", "finland", "india"],
    "thing": ["a bicycle", "the internet", "a refrigerator", "glass", "paper", "chocolate", "coffee", "soap",
              "a microwave", "a rainbow", "thunder", "a compass", "wifi", "a vaccine", "cheese", "a battery"],
    "hobby": ["knitting", "running", "painting", "chess", "gardening", "guitar", "photography", "baking",
              "swimming", "coding", "meditation", "rock climbing", "bird watching", "pottery"],
    "feeling": ["stressed", "bored", "tired", "lonely", "anxious", "happy", "sad", "nervous", "overwhelmed"],
    "job": ["a nurse", "a pilot", "an astronaut", "a chef", "a lawyer", "a teacher", "a plumber", "an architect"],
    "famous": ["marie curie", "albert einstein", "frida kahlo", "nelson mandela", "leonardo da vinci",
               "cleopatra", "isaac newton", "ada lovelace", "mozart", "shakespeare", "napoleon", "gandhi"],
    "band": ["the beatles", "queen", "abba", "radiohead", "coldplay", "fleetwood mac", "nirvana", "the clash"],
    "planet": ["mars", "jupiter", "venus", "saturn", "neptune", "mercury", "the moon", "pluto", "uranus"],
}

NONE_GRAMMAR = {
    "knowledge": [
        "(what is | what's | what are) {:topic}",
        "(tell me about | explain | give me a summary of | teach me about) {:topic}",
        "who (invented | discovered | wrote | painted | built) {:thing}",
        "how (does | do) {:thing} work",
        "why is the sky blue",
        "why do {:wild} (sleep | sing | migrate | live so long)",
        "how (big | far | old | hot | heavy) is {:planet}",
        "what's the capital of {:country}",
        "how many people live in {:country}",
        "what language do they speak in {:country}",
        "who was {:famous}",
        "when did {:famous} (die | live | become famous)",
        "what (did | was) {:famous} (famous for | known for | invent)",
        "how long do {:wild} live",
        "what do {:wild} eat",
        "is a {:wild} a mammal",
        "how deep is the ocean",
        "what is the tallest mountain in the world",
        "how many bones are in the human body",
        "what's the biggest animal (ever | on earth | in the sea)",
        "(what | which) is the longest river in {:country}",
        "(when | where) (were | was) the first {:thing} made",
        "how is {:thing} made",
        "what is the speed of light",
        "how far away is the sun",
        "what (year | century) did {:topic} (start | end | happen)",
        "who (won | hosted) the (world cup | olympics | super bowl) in nineteen ninety",
        "what causes {:topic}",
        "what is the population of the (world | earth)",
        "who is the (fastest | tallest | oldest) person ever",
        "(define | what does) (serendipity | ubiquitous | ephemeral | schadenfreude | hygge) [mean]",
        "how do you spell (necessary | rhythm | onomatopoeia | mississippi)",
        "what's (a | the) synonym for (happy | big | fast | quiet)",
        "translate (good morning | thank you | where is the station) (into | to) (french | spanish | german | japanese)",
    ],
    "chitchat": [
        "(how are you | how's it going | how are you doing) [today]",
        "(are you | you're) (a robot | human | alive | smart | funny | real)",
        "(do you | can you) (dream | feel | love | sleep | eat | laugh)",
        "(what's | what is) your (favorite | favourite) (color | food | movie | song | animal)",
        "(i'm | i am | i feel) {:feeling}",
        "(tell me | know any) (a joke | something funny | a riddle | a fun fact)",
        "(good morning | good night | good evening) [sotto]",
        "(i love you | you're the best | you're awesome | you're useless)",
        "(what do you think | how do you feel) about {:topic}",
        "do you like {:band}",
        "who (made | built | created) you",
        "what can you do",
        "(let's | can we) (chat | talk | play a game)",
        "(sing | can you sing) (me a song | happy birthday)",
        "(i'm | i am) (bored | hungry | tired) what should i do",
        "(guess | wanna guess) what happened today",
        "(what's | what is) the meaning of life",
        "are you (listening | there | awake)",
        "my favorite (singer | band) is {:band}",
        "(thank you | thanks) for (your help | everything)",
    ],
    "advice": [
        "how (do | can | should) i (get better at | learn | start) {:hobby}",
        "any tips (for | on) {:hobby}",
        "how do i (stop | keep) my {:animal} from (barking | scratching | biting | chewing things)",
        "how do i stop my {:animal} (barking | scratching the sofa | biting)",
        "(what should i | should i) (do | wear | cook | read | watch) (tonight | this weekend)",
        "how can i (sleep better | be more productive | save money | stop procrastinating | focus)",
        "how do i (stop | quit) (snoring | smoking | biting my nails)",
        "(what's | what is) the best way to (clean | fix | store) {:thing}",
        "how do you (become | train to be) {:job}",
        "how do i (set up | reset) my (router | email | phone)",
        "how do i change the time on my (oven | microwave | car clock | watch)",
        "how do i turn up the volume on my (tv | laptop | phone | car stereo)",
        "how should i (deal with | handle) (a difficult coworker | stress | a breakup)",
        "what (gift | present) should i (get | buy) for my (mom | dad | sister | friend)",
        "how do you (make | keep) friends as an adult",
        "is it (safe | ok | okay) to leave (an oven timer on | the heating on overnight | a candle burning)",
        "how long should i (sleep | exercise | study) (a day | each night)",
        "how do i get my (kids | toddler) to (sleep | eat vegetables)",
    ],
    "recipe": [
        "how do i (make | cook | bake) {:food}",
        "(give me | find me | what's) a (recipe | good recipe) for {:food}",
        "how long (do | should) (i | you) (boil | bake | roast | cook) (an egg | a chicken | potatoes | rice | {:food})",
        "what can i (make | cook) with (chicken and rice | eggs and cheese | leftover pasta | lentils)",
        "what goes (well | good) with {:food}",
        "how many calories (are) in {:food}",
        "can i freeze {:food}",
        "what temperature should i bake {:food} at",
        "what's a good substitute for (eggs | butter | buttermilk | baking soda)",
        "(is | are) {:food} (healthy | vegan | gluten free)",
    ],
    "story": [
        "tell me a (story | bedtime story | scary story | funny story) [about (a dragon | a pirate | {:wild} | space)]",
        "(write | make up | compose) a (poem | song | limerick | haiku) about {:topic}",
        "(can you | could you) write a (story | poem) about (my {:animal} | the sea | autumn)",
        "(read | tell) me a (fairy tale | fable | short story)",
        "once upon a time there was a {:wild} what happens next",
    ],
    "opinion": [
        "(what's | what is) (better | the best) (cats or dogs | tea or coffee | summer or winter)",
        "(is | are) {:topic} (overrated | worth learning | interesting)",
        "which is (better | healthier) {:food} or {:food}",
        "(do you think | is it true that) (aliens exist | ghosts are real | robots will take over)",
        "what's the best (movie | book | album) of all time",
        "who's the best (football | basketball) player ever",
    ],
    "math_trivia": [
        "what is (a prime number | pi | an integer | infinity | a fraction | algebra | calculus)",
        "who invented (calculus | algebra | the number zero | logarithms)",
        "is zero (even | odd | a number)",
        "why can't you divide by zero",
        "what's the biggest (number | prime number) [ever]",
        "how many zeros (are in | does) a (million | billion | trillion) [have]",
        "what is the pythagorean theorem",
        "(explain | teach me) (long division | fractions | percentages | the quadratic formula)",
        "what's the formula for the area of a (circle | triangle)",
        "what is the volume of a (sphere | cone | cylinder | cube)",
        "why is pi irrational",
        "what comes after a (trillion | billion)",
    ],
    "command_words": [
        "what time does the (sun set | sun rise | store open | game start | parade start) [today | tonight]",
        "what time (is | does) (sunset | sunrise | the super bowl | the match) [start] [tomorrow]",
        "who wrote the song (alarm call | stop | the final countdown | time after time | turn it up)",
        "tell me about the weather on {:planet}",
        "what's the weather like on {:planet}",
        "why does the weather change so much",
        "how loud is a (rocket launch | jet engine | lion's roar | thunderclap)",
        "how do (alarm clocks | timers | volume knobs | thermometers) work",
        "what is the history of the (alarm clock | stopwatch | calendar | radio)",
        "who invented the (alarm clock | egg timer | clock | calendar | thermometer)",
        "how do you say (stop | volume | timer | alarm) in (french | german | spanish)",
        "what does mute mean",
        "why do we have time zones",
        "how long does it take to (boil an egg | cook rice | run a marathon | fly to {:country})",
        "how many (minutes | seconds | hours) (are in | in) a (year | century | lifetime)",
        "(is it | is it really) bad to hit snooze on (the | my) alarm",
        "what's the loudest (animal | sound | band) (ever | in the world)",
        "can (dogs | cats | babies) hear (high | low) (volume | pitches) sounds",
        "why do i always wake up before my alarm",
        "what happens if you stop (eating sugar | drinking coffee | sleeping)",
        "how do i stop (hiccups | a nosebleed | my dog barking)",
        "who (sang | wrote) (repeat after me | stop in the name of love | turn down for what)",
        "play (the song | something by) {:band}",
        "what's a good (name | song) for a (workout | dinner) playlist",
        "what's the difference between weather and climate",
        "why is time (relative | an illusion)",
        "how cold (was | is) it on {:planet}",
        "is it going to be hard to learn {:hobby}",
        "how many (units | miles) (in | to) (the moon | a marathon | a light year) roughly",
        "can you recommend a (good | quiet) (alarm clock | speaker | kitchen timer)",
        "(what | which) (weather | climate) is best for growing tomatoes",
        "what is the volume of the (earth | ocean | sun)",
        "how long is (a day | a year) on {:planet}",
        "what day (was | did) (the moon landing | the war end | {:famous} die)",
        "what's the date of (easter | thanksgiving | the next full moon) [this year]",
        "remind me why {:topic} matters",
        "(who | what) is the voice of (siri | the weather channel)",
        "how do i cancel my (gym membership | subscription | order)",
        "who is the (fastest | best) (timer | clock) maker",
    ],
}
# hard negatives that reuse each intent's vocabulary without being that command
NONE_LEX.update({
    "venue": ["the museum", "the library", "the bank", "the pharmacy", "the zoo", "the gym", "the post office",
              "the aquarium", "the dmv", "the farmers market", "the mall", "the pool", "the art gallery",
              "the science center", "the botanical garden", "the bakery", "the ice rink", "city hall"],
    "task": ["boil an egg", "bake bread", "learn spanish", "walk a mile", "charge an electric car", "read a novel",
             "run a marathon", "drive across the country", "grow tomatoes", "learn to swim", "paint a room",
             "dry a wet phone", "thaw a turkey", "hard boil an egg", "cook a turkey", "brew beer", "fly to the moon"],
    "holiday": ["christmas", "easter", "thanksgiving", "halloween", "mother's day", "father's day", "valentine's day",
                "new year's eve", "hanukkah", "diwali", "the fourth of july", "labor day", "chinese new year",
                "saint patrick's day", "passover", "memorial day", "ramadan", "groundhog day"],
    "skyevent": ["the next full moon", "the next solar eclipse", "the next lunar eclipse", "the summer solstice",
                 "the next meteor shower", "the spring equinox", "the next blood moon", "the next leap year"],
    "shape": ["a cube", "a sphere", "a cylinder", "a cone", "a pyramid", "a swimming pool", "a bathtub", "a prism",
              "a rectangular box", "the great lakes", "a hot air balloon", "an olympic pool"],
    "loudthing": ["thunder", "a jet engine", "a rock concert", "a whisper", "a vacuum cleaner", "a lawn mower",
                  "a blue whale", "a gunshot", "a howler monkey", "a stadium crowd", "a baby crying", "a volcano erupting"],
    "ailment": ["hiccups", "snoring", "a nosebleed", "sneezing", "overthinking", "procrastinating", "biting my nails",
                "grinding my teeth", "a runny nose", "my glasses fogging up", "my cat scratching", "motion sickness",
                "the dog barking at night", "a toddler tantrum", "mosquito bites itching", "my shoes squeaking"],
    "weatherthing": ["weather satellites", "weather balloons", "weather forecasts", "barometers", "weather radars",
                     "rain gauges", "weather vanes", "doppler radar", "weather stations", "anemometers"],
    "phenomenon": ["thunderstorms", "tornadoes", "hurricanes", "hail", "fog", "lightning", "snow", "rainbows",
                   "heat waves", "monsoons", "el nino", "frost", "sleet", "blizzards", "droughts", "dust storms"],
    "unitname": ["a light year", "a nautical mile", "a furlong", "a hectare", "a kelvin", "an acre", "a stone",
                 "a league", "a fathom", "a cubit", "a parsec", "a knot", "a calorie", "a joule", "a decibel"],
    "mathidea": ["the fibonacci sequence", "a logarithm", "a square root", "a percentage", "long division",
                 "a prime number", "an exponent", "a fraction", "the order of operations", "pi", "a decimal",
                 "an equation", "multiplication", "a negative number", "an algorithm", "a ratio", "an average"],
})

_QFRAMES = ["can you tell me", "do you know", "i was wondering", "quick question", "i'm curious", "tell me",
            "i've always wondered", "any idea", "random question", "hey so", "do you happen to know"]

NONE_GRAMMAR.update({
    "hn_time": [
        "what time does {:venue} (open | close) [today | tomorrow | on sunday | on weekends]",
        "(when | what time) (does | do) {:venue} (open | close | shut) [on (saturdays | holidays)]",
        "how much time does it take to {:task}", "how (long | much time) (does | did) it take to {:task}",
        "how much time (should i spend | do people spend | do kids spend) (studying | on social media | exercising | reading) [each day | a week]",
        "what time zone is {:country} in", "(is | are) {:country} (ahead | behind) (of) us in time",
        "what time (did | does) the (titanic sink | tide come in | first train leave | sun set in the arctic)",
        "is (it | now) a good time to (buy a house | plant tomatoes | visit {:country} | learn {:hobby})",
        "what's the best time (of day | of year) to (visit {:country} | exercise | plant bulbs | drink coffee | see the northern lights)",
        "who invented (time zones | daylight saving time | the clock | the wristwatch | the sundial)",
        "why do we (change the clocks | have daylight saving time | have leap years | have sixty minutes in an hour)",
        "how do (clocks | sundials | atomic clocks | hourglasses | pendulum clocks) (work | keep time | tell time)",
        "what does (time flies | killing time | ahead of its time | time is money | high time) mean",
        "is time travel (possible | real) [in theory]", "what is time [really | made of]",
        "how long (did | does) it take to build (the pyramids | the great wall | rome | the eiffel tower)",
        "what time period did (dinosaurs | the vikings | knights | the romans) live in",
        "(who | which band) sang (time after time | time of your life | the time warp)",
        "(what's | what is) the (time signature | tempo) of (this song | a waltz)",
        "how did people tell the time before clocks", "what's the oldest clock in the world",
        "(is | was) {:famous} ahead of (his | her) time",
    ],
    "hn_date": [
        "what's the date of {:skyevent}", "(when | what date) is {:skyevent}", "what's the date of {:holiday} [this year | next year]",
        "what (day | date) is {:holiday} on [this year | next year]", "how many days (are left | left | are there) (until | till) {:holiday}",
        "who has a birthday today in history", "which famous people (were born | have birthdays) today",
        "what happened on this (date | day) in history", "(why | how) do (calendars | leap years | time zones) work",
        "why does (february have twenty eight days | a year have three hundred sixty five days)",
        "what's a good (date | first date | date night) idea", "where should we go on (a date | date night)",
        "how do i date (antique furniture | an old photo | a fossil | a coin)", "how do (scientists | archaeologists) date (fossils | rocks | bones)",
        "when is the best day to (fly | buy a car | go shopping | book flights)",
        "how long (is | are) (milk | eggs | yogurt) good after the (expiry | sell by) date",
        "why is {:holiday} (on a different date every year | a holiday)", "who decided the date of {:holiday}",
        "what's the origin of the (days of the week | names of the months | calendar)",
        "what day of the week was (the moon landing | the first christmas | {:famous} born)",
        "what are some good (date | anniversary) ideas", "what's the history of {:holiday}",
        "how do you write the date in (french | german | british english)", "what does (up to date | out of date | save the date) mean",
        "how do i say (what's the date | happy birthday) in (spanish | italian | japanese)",
        "what's the significance of (the ides of march | pi day | the fifth of november)",
    ],
    "hn_weather": [
        "why is the weather so (hot | cold | humid | rainy | windy | unpredictable) in (summer | winter | spring | the tropics | {:country} | britain)",
        "how do {:weatherthing} work", "how (do | can) (meteorologists | forecasters | computers) predict the weather",
        "what's the weather like on {:planet}", "(what | how) is the weather on {:planet}",
        "what causes {:phenomenon}", "why do we get {:phenomenon}", "how do {:phenomenon} form",
        "why does rain (smell | make me sleepy | smell so good)", "what's the (hottest | coldest | wettest | windiest) (place | city | country) (on earth | in the world)",
        "what was the weather like (during the ice age | when dinosaurs lived | in the middle ages)",
        "is the weather (channel | app | forecast) (reliable | accurate) [usually]", "why are weather forecasts (wrong so often | so hard)",
        "how do (animals | birds | cows | plants) (know | sense) when (it's going to rain | a storm is coming)",
        "(tell me | write) a (poem | song | story) about (rainy weather | the rain | a storm | snow | the weather)",
        "what should i (wear | pack) for (rainy | cold | hot | snowy) weather", "why do my (knees | joints) hurt when the weather changes",
        "what does (under the weather | a rainy day fund | weather the storm | fair weather friend) mean",
        "who was the first (weatherman | weather forecaster)", "what's the difference between weather and climate",
        "how does weather affect (mood | sleep | migraines | the stock market)", "what's the most extreme weather ever recorded",
        "what did people do before weather forecasts", "does weather on {:planet} have seasons",
        "why is (it | the weather) colder at the top of a mountain", "how do you become a (meteorologist | weather presenter)",
    ],
    "hn_volume": [
        "what's the volume of {:shape}", "how do you (calculate | find | measure) (volume | the volume of {:shape} | the volume of a liquid)",
        "what's the formula for the volume of {:shape}", "how loud is {:loudthing}", "how many decibels is {:loudthing}",
        "(can | does) loud music damage your (hearing | ears)", "why are (tv ads | commercials) louder than the show",
        "what is (a decibel | loudness | sound) [measured in]", "why (do | does) (my dog | babies | roosters) (bark | cry | crow) so loud",
        "what's the difference between (volume and mass | volume and capacity | volume and area)",
        "why is my neighbor's music so loud", "how do i (soundproof a room | make my voice louder | speak more quietly)",
        "(what is | what's) (a mute swan | a muted color | a mute button)", "what does (mute | muted | on mute) mean [exactly]", "are mute swans really mute",
        "what's the loudest (sound | animal | instrument) (ever recorded | in the world)",
        "how quiet is (a library | the quietest room in the world | space)", "why is space silent",
        "what's the (volume | capacity) of the (human stomach | lungs | earth's oceans)", "who invented the (volume knob | loudspeaker | microphone)",
        "how do noise cancelling headphones work", "at what volume (does | can) sound (hurt | damage hearing)",
        "what is the volume of (a gallon | a liter | a cubic meter) of water", "why do (some | old) people talk so loud",
    ],
    "hn_stop_repeat": [
        "how do i stop {:ailment}", "how (can i | do you) stop {:ailment}", "what's a good way to stop {:ailment}",
        "why do songs repeat the chorus", "why do (kids | toddlers | parrots) repeat (everything | words | what you say)",
        "how do (parrots | mockingbirds | mynah birds) learn to repeat words", "what does (repeat after me | stop and go | full stop | repeat offender) mean",
        "when did (the war | slavery | the plague | the gold rush) stop", "what is a (bus stop | full stop | stop sign | repeating decimal | stop motion film)",
        "why do i keep repeating (myself | the same mistakes)", "(who | which band) sang (don't stop believing | stop | say it again | repeat after me)",
        "how do you stop a (car | bike | train | ship) (quickly | safely)", "why does history repeat itself",
        "is it bad to (stop exercising | stop drinking coffee | repeat a grade)", "how many times do (songs | commercials) repeat",
        "what happens if you stop (eating sugar | using social media | sleeping)", "why can't i stop (yawning | thinking about food)",
        "who invented the (stop sign | traffic light | stopwatch)", "why is a stop sign red", "what's the history of stop motion animation",
        "what does it mean when a dream (repeats | keeps repeating)", "how do i stop (my phone | the dishwasher) from beeping",
    ],
    "hn_timer_alarm": [
        "how do (alarm clocks | kitchen timers | egg timers | smoke alarms | car alarms) work",
        "who invented the (timer | alarm clock | snooze button | stopwatch | egg timer | kitchen timer)",
        "what's the best alarm (sound | tone | clock) for (heavy sleepers | kids | teenagers)", "why is it called a snooze button",
        "how does a (fire | smoke | car | burglar | carbon monoxide) alarm work", "what should i do if the (smoke alarm | fire alarm | carbon monoxide alarm) keeps beeping",
        "is it (healthy | bad) to wake up to an alarm", "what is the pomodoro (technique | method | timer)",
        "why do (kitchen timers | egg timers | clocks) tick", "what does (false alarm | alarm bells ringing | raise the alarm | on a timer) mean",
        "(tell me | write) a (story | poem) about (an alarm clock | a ticking clock | a timer | a time bomb)",
        "how long should a (power nap | nap | study session) be", "why do i sleep through my alarm",
        "how many times do people hit snooze (on average | every morning)", "who sang (wake me up before you go go | alarm)",
        "what's the history of the (alarm clock | hourglass | kitchen timer)", "why do (bombs | clocks) in movies have timers",
        "how accurate (are | is) (kitchen timers | an hourglass | a stopwatch)", "do (birds | roosters) work like an alarm clock",
        "what did people use before alarm clocks", "what's a (knocker upper | town crier)",
    ],
    "hn_privacy": [
        "what is privacy law", "what (is | does) (gdpr | privacy mode | incognito mode | a vpn | encryption) (mean | do)",
        "how does (incognito mode | a vpn | end to end encryption | two factor authentication) work",
        "is (my phone | alexa | facebook | the internet | tiktok) (listening to me | private | safe)", "why is privacy important",
        "how can i (protect my privacy | stay safe | stay anonymous) online", "what does (offline | going offline | online | being online) mean",
        "is it safe to (shop | bank | date) online", "what's the difference between (online and offline learning | privacy and security)",
        "(what | who) (is | was) the first (website | online store | search engine)", "how many people are online right now",
        "what's the right to privacy", "who invented the (internet | world wide web | password)",
        "what is a privacy policy", "how do (companies | apps) use my data", "what happens to my data when i delete an app",
        "can you still (play music | tell the time | set timers) when the internet is down", "why do websites ask about cookies",
    ],
    "hn_math_units": [
        "who invented the (metric system | decimal system | calculator | abacus | slide rule | equals sign)",
        "why does (america | the us) (use | still use) (miles | fahrenheit | pounds | imperial units)",
        "how was the (meter | kilogram | second | mile | foot) (defined | invented | decided)",
        "when did (the uk | canada | australia) (switch | go) metric", "what is {:unitname}", "where does the word (mile | inch | pound) come from",
        "what is {:mathidea}", "how do you (calculate | work out) (a percentage | a square root | a tip | an average | compound interest)",
        "(explain | teach me) {:mathidea}", "why is (zero | one) not a prime number", "who (discovered | invented) (pi | negative numbers | multiplication | zero)",
        "is math (invented | discovered)", "what's the best way to learn (times tables | multiplication | fractions)",
        "why do (kids | people) hate (math | maths | algebra)", "what's the hardest math problem (ever | in the world)",
        "(what | which) (is | are) (the most common units | the units) (in science | for temperature | for distance)",
        "why are there (sixty seconds in a minute | three hundred sixty degrees in a circle | twelve inches in a foot)",
        "what's a (good | fun) math (game | puzzle | riddle)", "how do calculators (work | do math)", "who was the greatest mathematician",
        "what's the difference between (mass and weight | celsius and kelvin | speed and velocity)", "what is the (metric | imperial) system",
    ],
})
# hard negatives sharing the broadened command vocabulary (idioms, slang, one-word cues)
NONE_GRAMMAR["hn_idioms"] = [
    "what does it mean to (cut it close | cut it fine | knock it out of the park | hold your horses | call it a day)",
    "(why do people say | where does the saying) (knock on wood | break a leg | cut to the chase | hold your tongue | come again) [come from]",
    "is it rude to say (pardon | what | huh | shush | hush) [to someone]",
    "what causes thunder to be so loud",
    "what does (that's enough | never mind | knock it off | cut it out | give it a rest | pipe down | put a sock in it) mean",
    "(where | how) did the phrase (come again | say what | pardon my french | hush money | the silent treatment) (come from | start)",
    "what's the origin of (pardon my french | hush puppies | mum's the word | stop the press)",
    "who (sang | wrote) (hold it against me | pause | never mind | enough is enough | one more time | say it again | mute)",
    "(is | why is) (shush | hush | pardon | mute) (a real word | rude | considered polite)",
    "how do you (say | spell) (pardon | mute | umbrella | thermometer | fahrenheit) in (french | spanish | german | italian)",
    "why do (umbrellas | thermometers | microphones | speakers) (break | cost so much | work)",
    "who invented the (umbrella | microphone | loudspeaker | mute button | pause button | snooze button)",
    "how (loud | quiet) (is | can be) (a whisper | a library | a mouse | thunder | a rock concert)",
    "why does my (voice | music) sound (quieter | louder | different) on recordings",
    "how do i (turn the volume down | mute a call | pause a video | go offline) on my (phone | laptop | tv | tablet)",
    "how do i (mute | unmute) (someone | a group chat | a person) on (zoom | whatsapp | twitter | instagram)",
    "is it (safe | healthy) to (listen to music loud | sleep with earplugs | go offline for a week)",
    "what happens if you (stop listening to music | go offline for a month | never take a break)",
    "why (do | does) (i | my kids | my dog) (need | want) (quiet | silence) to (sleep | focus | study)",
    "what's the (quietest | loudest | coldest | hottest | rainiest | snowiest) (city | country | place | month) in {:country}",
    "why is it (so cold | so hot | snowing | raining) in {:country} (this time of year | in summer | in winter)",
    "do people in {:country} (need umbrellas | carry umbrellas | get snow) (often | a lot)",
    "(how many | what percent of) people (use | own | need) (an umbrella | a smart speaker | an alarm clock | a watch)",
    "(what's | what is) (a good | the best) (umbrella | raincoat | alarm clock | watch | timer app) to buy",
    "(why | how) do (we | people) (lose track of time | forget what day it is | sleep through alarms)",
    "what's (the point | the history) of (half past | quarter to | military time | the twenty four hour clock)",
    "how do you (read | tell) (military time | the twenty four hour clock | an analog clock)",
    "(what | how much) is half of (the world's population | the population of {:country} | a baker's dozen)",
    "how many (inches | centimeters | feet | miles) tall is (mount everest | the eiffel tower | a giraffe)",
    "how many (people | cups of coffee | eggs | steps) (are in | does it take | do you need) (a marathon | a cake | a day | a year)",
    "what's the (square | square root | half life) of (a number | uranium | carbon)",
    "why is (twelve | seven | thirteen | pi) (special | lucky | unlucky | a special number)",
    "(i | we) (missed | forgot) (the bus | my appointment | lunch) what should i do",
    "what do you say when (you mishear someone | someone sneezes | you bump into someone)",
    "(tell me | write) a (story | poem | joke) about (a noisy neighbour | a quiet mouse | a broken umbrella | a lazy alarm clock)",
    "why (can't | couldn't) i (hear | sleep | focus) (last night | at the concert | in class)",
    "my (neighbours | kids | dogs) are (so loud | too noisy) what can i do",
    "is it (bad | normal) that i (can't hear | hear ringing | talk loud) (in one ear | at night | all the time)",
    "how (private | safe | secure) (are | is) (smart speakers | voice assistants | my data | the cloud)",
    "(does | do) (smart speakers | you | voice assistants) (always listen | record everything | send data to the cloud)",
    "what (should | can) i do when i'm (offline | without internet | bored at home)",
    "(give me | what are some) (offline games | quiet activities | indoor activities) for (kids | a rainy day)",
]
NONE_WEIGHTS = {"knowledge": 0.15, "chitchat": 0.1, "advice": 0.11, "recipe": 0.08, "story": 0.04,
                "opinion": 0.04, "math_trivia": 0.06, "command_words": 0.14,
                "hn_time": 0.04, "hn_date": 0.04, "hn_weather": 0.045, "hn_volume": 0.035, "hn_stop_repeat": 0.035,
                "hn_timer_alarm": 0.035, "hn_privacy": 0.025, "hn_math_units": 0.03, "hn_idioms": 0.06}


# ----------------------------------------------------------------------------------------
# intent line realisation: tokens are [word, tag] with tag = slot name or None

CORRECTABLE = {"duration", "time", "level", "number", "day", "forecast-day", "place", "label"}
CORRECTIONS = ["uh no", "no", "i mean", "sorry", "no wait", "uh i mean", "actually", "no sorry",
               "make that", "or rather", "scratch that"]


class Bad(Exception):
    pass


def render_type(rng, typ, form, lex, ctx):
    if typ == "duration":
        return gen_duration(rng, form)
    if typ == "time":
        return gen_time(rng, form)
    if typ == "day":
        return gen_day(rng, form)
    if typ == "forecast-day":
        return gen_day(rng, form, forecast=True)
    if typ == "level":
        return gen_level(rng, form)
    if typ == "number":
        return gen_number(rng, form, ctx.get("dim"))
    if typ == "label":
        return gen_label(rng, form, lex.get("label", ()))
    if typ == "place":
        return gen_place(rng, form, lex.get("place", ()))
    if typ == "expression":
        toks, expr, res = gen_expression(rng, form)
        ctx["results"] = ctx.get("results", {})
        return toks, (expr, res)
    if typ == "unit":
        codes = ctx["units"]
        code = codes.pop(0) if codes else rng.choice(list(UNIT_DIM))
        return gen_unit(rng, form, code, plural=ctx.get("plural", True)), code
    if typ == "dom":
        d = rng.randint(1, 31)
        w = ordinal_words(d) if form == "spoken" or rng.random() < 0.3 else ordinal_suffix(d)
        return T(w), w
    if typ == "month":
        w = rng.choice(MONTHS)
        return T(w), w
    if typ in NONE_LEX:
        w = pick(rng, NONE_LEX[typ], WN_NONE_LEX.get(typ, ()), 0.3)
        return T(w), w
    # unknown type: a plausible word
    w = rng.choice(TIMER_LABELS)
    return T(w), w


def realize(rng, elements, slotdefs, form, lex):
    """Turn a sampled phrase into tagged tokens and a slot dict."""
    ctx = {}
    unit_slots = [s for s, d in slotdefs.items() if d["type"] == "unit"]
    if unit_slots:
        dim = rng.choice(list(UNITS))
        codes = rng.sample(list(UNITS[dim]), 2)
        ctx["dim"] = dim
        ctx["unit_codes"] = {}
        for s, c in zip(unit_slots, codes):
            ctx["unit_codes"][s] = c
    toks = []
    slots = {}
    seen = set()
    for el in elements:
        if isinstance(el, str):
            toks.append([el, None])
            continue
        kind, name = el
        if kind == "ph":
            ptoks, _ = render_type(rng, name, form, lex, ctx)
            toks.extend([w, None] for w, _t in ptoks)
            continue
        if name not in slotdefs or name in seen:
            raise Bad(name)
        seen.add(name)
        typ = slotdefs[name]["type"]
        if typ == "unit":
            code = ctx["unit_codes"][name]
            plural = not ((ctx.get("value") == 1 or ctx.get("sing")) and name == unit_slots[0] and ctx.get("value_seen"))
            if name != unit_slots[0]:
                plural = True
            stoks, val = gen_unit(rng, form, code, plural)
        else:
            stoks, val = render_type(rng, typ, form, lex, ctx)
            if typ == "number":
                ctx["value"] = val
                ctx["value_seen"] = True
                ctx["sing"] = " ".join(w for w, _t in stoks) in ("half a", "a half", "a quarter", "three quarters of a")
        if typ in CORRECTABLE and rng.random() < 0.05:
            wrong, _v = render_type(rng, typ, form, lex, dict(ctx))
            wrong = [t for t in wrong if t[1]] or wrong
            if rng.random() < 0.4 and len(wrong) > 1 and typ not in ("place", "label"):
                wrong = wrong[:1]
            toks.extend([w, None] for w, _t in wrong)
            toks.extend([w, None] for w in rng.choice(CORRECTIONS).split())
        for w, tagged in stoks:
            toks.append([w, name if tagged else None])
        if typ == "expression":
            slots[name] = val[0]
            ctx["expr_value"] = val[1]
        else:
            slots[name] = val
    for s, d in slotdefs.items():
        if d["type"] == "result" and d.get("source") in slots:
            slots[s] = ctx["expr_value"]
    for s, d in slotdefs.items():
        if d["required"] and s not in slots:
            raise Bad("required " + s)
    # the number before a unit: "a" needs a singular unit; fix plural agreement
    return toks, slots


def naturalize(rng, toks, p):
    out = []
    i = 0
    while i < len(toks):
        w, tag = toks[i]
        if tag is None and i + 1 < len(toks) and toks[i + 1][1] is None and \
                (w, toks[i + 1][0]) in CONTRACT and rng.random() < p and \
                not (i + 2 >= len(toks) and toks[i + 1][0] in ("is", "am", "are", "will", "would")) and \
                not (toks[i + 1][0] == "is" and i > 0 and out and out[-1][0] in ("time", "day", "date", "what", "which")):
            out.append([CONTRACT[(w, toks[i + 1][0])], None])
            i += 2
            continue
        if tag is None and w in WORD_NATURAL and rng.random() < 0.85:
            w = WORD_NATURAL[w]
            for part in w.split():
                out.append([part, None])
            i += 1
            continue
        if tag is None and w in EXPAND and rng.random() < 0.2:
            for part in EXPAND[w]:
                out.append([part, None])
            i += 1
            continue
        out.append([w, tag])
        i += 1
    return out


def add_frames(rng, toks, form):
    if toks and toks[0][1] is None and toks[0][0] in IMPERATIVE and rng.random() < 0.3:
        toks = [[w, None] for w in rng.choice(FRAMES).split()] + toks
    elif toks and toks[0][1] is None and toks[0][0] in QUESTION_START and rng.random() < 0.1:
        toks = [[w, None] for w in rng.choice(QFRAMES_INTENT).split()] + toks
    if rng.random() < 0.25:
        pre = rng.choice(PREFIX).split()
        if form == "written":
            pre[-1] += ","
        toks = [[w, None] for w in pre] + toks
    if rng.random() < 0.25:
        suf = rng.choice(SUFFIX).split()
        if form == "written" and rng.random() < 0.5:
            suf[0] = "," + suf[0]
        toks = toks + [[w, None] for w in suf]
    return toks


def disfluency(rng, toks):
    if len(toks) > 2 and rng.random() < 0.08:
        cands = [i for i in range(1, len(toks)) if not (toks[i - 1][1] and toks[i - 1][1] == toks[i][1])]
        if cands:
            i = rng.choice(cands)
            toks = toks[:i] + [[w, None] for w in rng.choice(["um", "uh", "er", "like", "uh um", "you know"]).split()] + toks[i:]
    if len(toks) > 1 and rng.random() < 0.04:
        i = rng.randrange(len(toks))
        if toks[i][1] is None:
            toks = toks[:i] + [[toks[i][0], None]] + toks[i:]
    return toks


def asr_noise(rng, toks):
    changed = False
    out = []
    for w, tag in toks:
        if tag is None:
            r = rng.random()
            if w in HOMOPHONES and r < 0.45:
                for part in rng.choice(HOMOPHONES[w]).split():
                    out.append([part, None])
                changed = changed or HOMOPHONES[w] != [w]
                continue
            if w in ASR_CONFUSIONS and r < 0.3:
                out.append([rng.choice(ASR_CONFUSIONS[w]), None])
                changed = True
                continue
            if w in CMU_HOMOPHONES and r < 0.2:
                out.append([rng.choice(CMU_HOMOPHONES[w]), None])
                changed = True
                continue
            if w == "a" and r < 0.5:
                out.append(["uh", None])
                changed = True
                continue
            if w in FUNCTION_WORDS and r < 0.2 and len(toks) > 3:
                changed = True
                continue
        out.append([w, tag])
    return out, changed


QUESTION_START = {"what", "what's", "how", "how's", "is", "are", "can", "could", "would", "will", "do",
                  "does", "when", "when's", "where", "which", "who", "why", "any", "have", "got", "did", "should"}


def assemble(toks, form, rng):
    """Join tokens, compute spans per slot; written casing/punctuation that keeps offsets."""
    words = [w for w, _ in toks]
    if form == "written":
        if rng.random() < 0.6 and words:
            words[0] = words[0][:1].upper() + words[0][1:]
        words = [("I" + w[1:] if (w == "i" or w.startswith("i'")) and rng.random() < 0.7 else w) for w in words]
    text = ""
    spans = []
    cur = None
    for (w, tag), ww in zip(toks, words):
        if ww.startswith(",") and text:
            text += ","
            ww = ww[1:]
            if not ww:
                continue
        if text:
            text += " "
        s = len(text)
        text += ww
        if tag:
            if cur and cur["slot"] == tag and cur["end"] == s - 1:
                cur["end"] = len(text)
            else:
                if any(sp["slot"] == tag for sp in spans):
                    raise Bad("split span " + tag)
                cur = {"start": s, "end": len(text), "slot": tag}
                spans.append(cur)
        else:
            cur = None
    if form == "written":
        r = rng.random()
        if any(t[0].lower().rstrip(",") in QUESTION_START for t in toks[:3]):
            text += "?" if r < 0.7 else ""
        else:
            text += "." if r < 0.35 else ("!" if r < 0.42 else "")
    spans.sort(key=lambda sp: sp["start"])
    return text, spans


def make_intent_line(rng, intent, info, lex, own):
    form = "spoken" if rng.random() < 0.7 else "written"
    for _attempt in range(50):
        use_own = own is not None and rng.random() < 0.72
        if use_own:
            gram = rng.choice(own)
            src = "train.own." + intent
        else:
            gram = rng.choice(info["phrases"])
            src = "train.cat." + intent
        try:
            elements = sample_grammar(gram, rng, [])
            toks, slots = realize(rng, elements, info["slots"], form, lex)
            toks = naturalize(rng, toks, 0.55 if form == "written" else 0.45)
            toks = add_frames(rng, toks, form)
            toks = disfluency(rng, toks)
            noisy = False
            if form == "spoken" and rng.random() < 0.15:
                toks, noisy = asr_noise(rng, toks)
            if not toks:
                continue
            text, spans = assemble(toks, form, rng)
        except Bad:
            continue
        return {"text": text, "intent": intent, "slots": slots, "slot_spans": spans, "form": form,
                "source": src, "asr_noise": noisy}
    raise RuntimeError("cannot realise " + intent)


_NONE_PARSED = {k: [parse_grammar(p) for p in v] for k, v in NONE_GRAMMAR.items()}


def make_none_line(rng):
    form = "spoken" if rng.random() < 0.7 else "written"
    fam = rng.choices(list(NONE_WEIGHTS), list(NONE_WEIGHTS.values()))[0]
    gram = rng.choice(_NONE_PARSED[fam])
    elements = sample_grammar(gram, rng, [])
    if WN_EXAMPLES and rng.random() < 0.12:
        fam, elements = "wordnet", rng.choice(WN_EXAMPLES).split()
    toks = []
    for el in elements:
        if isinstance(el, str):
            toks.append([el, None])
        else:
            toks.extend([w, None] for w in rng.choice(NONE_LEX.get(el[1], ["things"])).split())
    toks = naturalize(rng, toks, 0.5)
    if fam.startswith("hn_") and rng.random() < 0.2:
        toks = [[w, None] for w in rng.choice(_QFRAMES).split()] + toks
    if rng.random() < 0.3:
        toks = [[w, None] for w in rng.choice(PREFIX).split()] + toks
        if form == "written":
            toks[len(toks) and 0][0] = toks[0][0]
    if rng.random() < 0.15:
        toks = toks + [[w, None] for w in rng.choice(["please", "thanks", "thank you", "mate", "for me", "cheers"]).split()]
    toks = disfluency(rng, toks)
    noisy = False
    if form == "spoken" and rng.random() < 0.15:
        toks, noisy = asr_noise(rng, toks)
    text, spans = assemble(toks, form, rng)
    return {"text": text, "intent": "none", "slots": {}, "slot_spans": [], "form": form,
            "source": "train.none." + fam, "asr_noise": noisy}


def gen_intents(rng, n, order, intents, lex):
    own = {k: [parse_grammar(p) for p in v] for k, v in OWN.items()}
    out = []
    n_none = int(round(n * 0.35))
    plan = ["none"] * n_none + [order[i % len(order)] for i in range(n - n_none)]
    rng.shuffle(plan)
    for intent in plan:
        if intent == "none":
            out.append(make_none_line(rng))
        else:
            info = intents[intent]
            own_g = None
            if intent in own:
                # own phrases whose slots the catalogue declares
                own_g = [g for g in own[intent] if grammar_slots(g) <= set(info["slots"])] or None
            out.append(make_intent_line(rng, intent, info, lex, own_g))
    return out


# ----------------------------------------------------------------------------------------
# PII lexicons (own)

FIRST = """aaliyah abebe adaeze adrian agnieszka ahmed aiko akira alejandro alessia alexei amara amira
anaya anders andrea anjali annika antoine aroha arjun astrid aurelio ayesha babajide beatriz bilal
bjorn bongani camille carmen catalina chiara chidi chioma chloe connor dagny dalia daniela darius
deepika dmitri dolores eamon efua elif elena emeka emilia enzo esperanza esther fatima farid felipe
fernando finn fiona freya gabriel giulia gunnar habib hana hannah haruto hassan helga hiroshi ibrahim
ines ingrid isabela ivan jamal jasmine javier jelena jonas jorge juma kaito kalani kamala karim
katarina kavya keanu kemal kenji kiri kofi laila lars leilani lena leon liam ling lucia luis mahmoud
maja malik manon marco mariana mateo matteo mehmet mei mika milan minh mohammed nadia naledi nasser
niamh nikolai nina noor obinna olga oluwaseun omar oskar pablo paolo parisa pedro pierre priyanka
quentin rafael rahul rania rashid rhiannon rosa rohan ruth saanvi salma samir santiago saoirse
sebastian seo yeon shira sibusiso sofia soren sunita takumi tamar tariq teodora thabo tomasz tunde
ugo valentina vikram wanjiru wei xiomara yara yasmin yusuf zanele zara zeynep zoltan ethan olivia
noah emma mason ava lucas mia jacob harper logan evelyn jackson abigail aiden ella caleb grace
owen lily wyatt nora carter hazel dylan violet hunter aurora eli stella isaac penelope miles ruby
gareth morag callum isla rhys seren declan aoife tadhg siobhan""".split()
FIRST = sorted(set(FIRST) - {"seo", "yeon"}) + ["seo yeon"]
LAST = """abara adeyemi agarwal ahn alvarez andersen aoki arslan bakker banerjee barros bauer becker
benali bianchi blomqvist bondarenko brennan castillo chatterjee chen cho chowdhury costa dahl demir
diallo dimitrov dubois eriksson esposito fernandes fischer fitzgerald fonseca fujita gallagher garcia
gomes gonzalez gupta haddad hakimi hansen hartmann herrera hoang horvath huang ibrahim ivanova iyer
jankowski jensen jimenez kamau kapoor kaur kawasaki kelly khalil khan kim kowalski kozlov kumar
lindqvist lopez lund mahlangu malik martins mbeki mendoza moreau mukherjee murphy mwangi nakamura
nguyen novak nowak obi odhiambo okafor okonkwo oliveira olsen ortiz osei ozturk pappas park patel
pereira petrov pham popescu quispe rahman ramos reyes richter rossi sahin sandoval santos sato
schmidt sharma silva singh sokolov suzuki svensson takahashi tanaka tembo teixeira thapa torres
tran usman vargas varga vasquez volkov wagner walsh watanabe weber wojcik yamamoto yilmaz zhang
zimmerman zulu abernathy blackwood calloway donnelly ellsworth fairbanks granger holloway
kingsley lockhart mcallister northcott pemberton quinlan radcliffe sinclair thornton underwood
whitfield""".split()
STREETS = """maple oak cedar elm willow birch pine chestnut hawthorn juniper magnolia sycamore alder
aspen laurel hazel rowan poplar linden cypress orchard meadow river lake hill valley ridge
highland forest park garden church mill station market bridge harbor spring summer autumn
sunset sunrise lincoln jefferson madison franklin washington adams monroe jackson grant kingsley
victoria albert queen king prince duke regent carlton windsor belmont fairview greenwood
brookside lakeview hillcrest riverside woodland clearwater silver copper granite stone""".split()
ST_SUFFIX = ["street", "avenue", "road", "lane", "drive", "court", "place", "boulevard", "way",
             "terrace", "close", "crescent", "circle", "parkway", "trail", "row", "grove"]
ST_ABBR = {"street": "St", "avenue": "Ave", "road": "Rd", "lane": "Ln", "drive": "Dr", "court": "Ct",
           "place": "Pl", "boulevard": "Blvd", "way": "Way", "terrace": "Ter", "close": "Cl",
           "crescent": "Cres", "circle": "Cir", "parkway": "Pkwy", "trail": "Trl", "row": "Row", "grove": "Grv"}
TOWNS = [("springfield", "il", "IL"), ("madison", "wi", "WI"), ("fairfield", "ct", "CT"),
         ("greenville", "sc", "SC"), ("franklin", "tn", "TN"), ("bristol", "", ""), ("riverton", "wy", "WY"),
         ("ashford", "", ""), ("clinton", "ia", "IA"), ("salem", "or", "OR"), ("georgetown", "tx", "TX"),
         ("arlington", "va", "VA"), ("oakland", "ca", "CA"), ("burlington", "vt", "VT"), ("dover", "de", "DE"),
         ("hudson", "ny", "NY"), ("kendal", "", ""), ("harrogate", "", ""), ("marlow", "", ""),
         ("ithaca", "ny", "NY"), ("boise", "id", "ID"), ("durham", "nc", "NC"), ("eugene", "or", "OR"),
         ("lancaster", "pa", "PA"), ("plano", "tx", "TX"), ("tempe", "az", "AZ"), ("provo", "ut", "UT")]
STATE_SPOKEN = {"IL": "illinois", "WI": "wisconsin", "CT": "connecticut", "SC": "south carolina",
                "TN": "tennessee", "WY": "wyoming", "IA": "iowa", "OR": "oregon", "TX": "texas",
                "VA": "virginia", "CA": "california", "VT": "vermont", "DE": "delaware", "NY": "new york",
                "ID": "idaho", "NC": "north carolina", "PA": "pennsylvania", "AZ": "arizona", "UT": "utah"}
EMAIL_DOMAINS = ["gmail.com", "yahoo.com", "outlook.com", "hotmail.com", "icloud.com", "proton.me",
                 "aol.com", "fastmail.com", "gmx.de", "mail.com", "yandex.ru", "btinternet.com",
                 "zoho.com", "hey.com", "live.co.uk", "acme-corp.com", "brightwave.io", "northwind.org",
                 "uni-leipzig.de", "stanford.edu", "qmail.net", "example-school.org"]
CONDITIONS = [
    "asthma",
    "diabetes",
    "type two diabetes",
    "type one diabetes",
    "hypertension",
    "high blood pressure",
    "epilepsy",
    "migraines",
    "depression",
    "anxiety",
    "bipolar disorder",
    "schizophrenia",
    "adhd",
    "autism",
    "celiac disease",
    "crohn's disease",
    "ulcerative colitis",
    "lupus",
    "multiple sclerosis",
    "parkinson's",
    "alzheimer's",
    "dementia",
    "arthritis",
    "rheumatoid arthritis",
    "osteoporosis",
    "gout",
    "psoriasis",
    "eczema",
    "hepatitis c",
    "hiv",
    "cancer",
    "breast cancer",
    "prostate cancer",
    "leukemia",
    "lymphoma",
    "melanoma",
    "copd",
    "emphysema",
    "cystic fibrosis",
    "sickle cell anemia",
    "anemia",
    "hypothyroidism",
    "hyperthyroidism",
    "graves' disease",
    "hashimoto's",
    "fibromyalgia",
    "endometriosis",
    "pcos",
    "sleep apnea",
    "narcolepsy",
    "insomnia",
    "ptsd",
    "ocd",
    "anorexia",
    "bulimia",
    "kidney disease",
    "kidney stones",
    "heart disease",
    "atrial fibrillation",
    "angina",
    "heart failure",
    "a heart murmur",
    "tinnitus",
    "glaucoma",
    "macular degeneration",
    "cataracts",
    "shingles",
    "tuberculosis",
    "lyme disease",
    "long covid",
    "pneumonia",
    "bronchitis",
    "sarcoidosis",
    "myasthenia gravis",
    "huntington's disease",
    "als",
    "scleroderma",
    "sjogren's syndrome",
    "addison's disease",
    "cushing's syndrome",
    "marfan syndrome",
    "ehlers danlos syndrome",
    "hemophilia",
    "thalassemia",
    "gastroparesis",
    "interstitial cystitis",
    "trigeminal neuralgia",
    "meniere's disease",
    "raynaud's syndrome",
    "a peanut allergy",
    "a penicillin allergy",
    "gluten intolerance",
    "lactose intolerance",
    "diverticulitis",
    "pancreatitis",
    "a torn acl",
    "a herniated disc",
    "scoliosis",
    "vertigo",
    "postpartum depression",
    "gestational diabetes",
    "tourette syndrome",
    "dyslexia",
    "a stammer",
    "chronic fatigue syndrome",
    "pots",
    "moyamoya disease",
    "achalasia",
    "alopecia areata",
    "vitiligo",
    "polycythemia vera",
    "stage three kidney disease",
    "a concussion",
    "a broken wrist",
    "hearing loss",
    "macular edema",
    "bell's palsy",
    "sciatica",
    "plantar fasciitis",
    "irritable bowel syndrome",
    "ibs",
    "acid reflux",
    "a stomach ulcer",
    "chronic migraines",
    "seasonal affective disorder",
    "an eating disorder",
    "a thyroid condition",
]
MEDS = """metformin insulin lisinopril amlodipine atorvastatin simvastatin levothyroxine omeprazole
sertraline fluoxetine escitalopram citalopram bupropion venlafaxine lithium lamotrigine valproate
levetiracetam gabapentin pregabalin prednisone methotrexate hydroxychloroquine adalimumab warfarin
apixaban rivaroxaban clopidogrel aspirin ibuprofen naproxen tramadol oxycodone morphine albuterol
salbutamol fluticasone montelukast cetirizine loratadine epinephrine an epipen methylphenidate
adderall ritalin quetiapine aripiprazole risperidone olanzapine clozapine donepezil memantine
levodopa carbidopa sumatriptan propranolol metoprolol bisoprolol losartan valsartan furosemide
spironolactone hydrochlorothiazide tamsulosin finasteride allopurinol colchicine tacrolimus
azathioprine infliximab semaglutide ozempic liraglutide empagliflozin dapagliflozin sitagliptin
glipizide pioglitazone estradiol progesterone letrozole tamoxifen anastrozole imatinib
amoxicillin doxycycline azithromycin ciprofloxacin nitrofurantoin isoniazid acyclovir valacyclovir
tenofovir dolutegravir pyridostigmine riluzole baclofen tizanidine modafinil melatonin zolpidem
diazepam lorazepam clonazepam buspirone mirtazapine trazodone naltrexone buprenorphine methadone
dupilumab ustekinumab mesalamine budesonide pantoprazole ondansetron""".split()
PLACE_KINDS = [("hospital", ["general hospital", "memorial hospital", "children's hospital", "hospital", "medical center"]),
               ("school", ["elementary school", "middle school", "high school", "primary school", "academy",
                           "community college", "grammar school", "montessori school"]),
               ("care", ["care home", "nursing home", "retirement village", "assisted living"]),
               ("gym", ["fitness center", "gym", "climbing gym", "leisure centre", "boxing club", "yoga studio"]),
               ("church", ["baptist church", "community church", "mosque", "synagogue", "temple", "chapel"]),
               ("work", ["engineering", "logistics", "dental clinic", "consulting", "bakery", "law office",
                         "veterinary clinic", "pharmacy", "design studio", "software", "accounting"]),
               ("misc", ["library", "day care", "nursery", "golf club", "tennis club", "rec center"])]
PLACE_NAMES = """st mary's st anne's st luke's st joseph's mercy riverside lakeside oakwood brookfield
greenfield hillcrest maplewood pinecrest westbrook eastgate northfield southview ridgeway fairmont
kingsbridge ashcombe willowbrook harborview cedar grove elmhurst birchwood stonebridge foxhall
redwood silverlake meadowbrook copperfield highgate holloway briarwood lindenwood thornbury""".split("\n")
PLACE_NAMES = [w for line in PLACE_NAMES for w in re.findall(r"st \w+'s|cedar grove|\w+", line)]
CELEBS = ["taylor swift", "beyonce", "barack obama", "serena williams", "lionel messi", "oprah winfrey",
          "elon musk", "adele", "keanu reeves", "rihanna", "stephen king", "lady gaga", "tom hanks",
          "michelle obama", "david attenborough", "usain bolt", "billie eilish", "drake", "shakira",
          "bill gates", "dolly parton", "bruce springsteen", "meryl streep", "simone biles", "ed sheeran",
          "jane austen", "winston churchill", "martin luther king", "queen elizabeth", "pele"]
RELATIONS = ["mom", "dad", "my sister", "my brother", "grandma", "grandpa", "my wife", "my husband",
             "my son", "my daughter", "my aunt", "my uncle", "my boss", "my neighbor", "my cousin",
             "my partner", "the kids", "my mother in law", "my roommate", "my best friend"]
BUSINESSES = ["target", "walmart", "costco", "ikea", "starbucks", "the post office", "home depot",
              "tesco", "aldi", "the bank", "best buy", "mcdonald's", "the pharmacy", "trader joe's"]
LETTER_WORDS = {c: c for c in "abcdefghijklmnopqrstuvwxyz"}


# ----------------------------------------------------------------------------------------
# PII value generators: return list of (text, type_or_None) pieces; spoken = [a-z' ] only

def cap(s):
    return " ".join(w[:1].upper() + w[1:] for w in s.split())


def p_person(rng, sp):
    f, l = rng.choice(FIRST), rng.choice(LAST)
    r = rng.random()
    name = f if r < 0.45 else (f + " " + l if r < 0.9 else l)
    if not sp and rng.random() < 0.8:
        name = cap(name)
    return [(name, "PERSON")]


def luhn_complete(prefix, length):
    body = prefix + "".join(str(random.randint(0, 9)) for _ in range(length - len(prefix) - 1))
    for d in "0123456789":
        if luhn_ok(body + d):
            return body + d


def _digits(rng, n):
    return "".join(str(rng.randint(0, 9)) for _ in range(n))


def p_phone(rng, sp):
    kind = rng.choice(["us", "us", "uk", "intl"])
    if kind == "us":
        a, b, c = str(rng.randint(201, 989)), str(rng.randint(200, 999)), _digits(rng, 4)
        if sp:
            last = digits_spoken(c, rng)
            if c[2:] == "00" and c[1] != "0" and rng.random() < 0.5:
                last = nw(int(c[:2])) + " hundred"
            pre = "one " if rng.random() < 0.15 else ""
            return [(pre + digits_spoken(a, rng) + " " + digits_spoken(b, rng) + " " + last, "PHONE")]
        fmt = rng.choice(["(%s) %s-%s", "%s-%s-%s", "%s.%s.%s", "%s %s %s", "+1 %s %s %s", "+1-%s-%s-%s", "%s%s%s"])
        return [(fmt % (a, b, c), "PHONE")]
    if kind == "uk":
        if rng.random() < 0.6:
            body = "7" + _digits(rng, 3) + " " + _digits(rng, 6)
        else:
            body = "20 " + _digits(rng, 4) + " " + _digits(rng, 4)
        intl = rng.random() < 0.4
        if sp:
            return [(("plus four four " if intl else "oh ") + " ".join(digits_spoken(g, rng, oh=0.8) for g in body.split()), "PHONE")]
        return [(("+44 " + body) if intl else ("0" + body), "PHONE")]
    cc = rng.choice(["49", "33", "91", "61", "81", "34", "39", "27", "234", "52", "55", "353"])
    groups = [_digits(rng, rng.randint(2, 4)) for _ in range(rng.randint(2, 4))]
    if sp:
        return [("plus " + digits_spoken(cc, rng, groups=False) + " " + " ".join(digits_spoken(g, rng) for g in groups), "PHONE")]
    return [("+" + cc + " " + " ".join(groups), "PHONE")]


def p_email(rng, sp):
    f, l = rng.choice(FIRST).replace(" ", ""), rng.choice(LAST)
    sep = rng.choice([".", "_", "", "-", "."])
    user = rng.choice([f + sep + l, f[0] + l, f + sep + l + str(rng.randint(1, 99)), f + str(rng.randint(70, 2005)), l + sep + f[0]])
    dom = rng.choice(EMAIL_DOMAINS)
    if not sp:
        return [(user + "@" + dom, "EMAIL")]
    out = []
    for part in re.findall(r"[a-z]+|\d+|[._\-@]", user + "@" + dom):
        if part.isdigit():
            out.append(digits_spoken(part, rng, groups=False) if rng.random() < 0.6 or len(part) > 2 else nw(int(part)))
        else:
            out.append({".": "dot", "_": "underscore", "-": "dash", "@": "at"}.get(part, part))
    return [(" ".join(out), "EMAIL")]


def p_address(rng, sp):
    num = rng.choice([rng.randint(1, 99), rng.randint(100, 999), rng.randint(1000, 9999)])
    street = rng.choice(STREETS)
    suf = rng.choice(ST_SUFFIX)
    town, st, ST = rng.choice(TOWNS)
    unit = rng.random() < 0.2
    tail = rng.random()
    zipc = _digits(rng, 5)
    if sp:
        if num >= 1000 and rng.random() < 0.6:
            ns = nw(num // 100) + " " + (nw(num % 100) if num % 100 >= 10 else ("oh " + ONES[num % 100] if num % 100 else "hundred"))
        else:
            ns = nw(num, rng)
        s = ns + " " + street + " " + suf
        if unit:
            s += " " + rng.choice(["apartment", "unit", "flat", "suite"]) + " " + nw(rng.randint(1, 40))
        if tail < 0.5:
            s += " " + town
            if ST and tail < 0.3:
                s += " " + STATE_SPOKEN[ST] + (" " + digits_spoken(zipc, rng, groups=False) if tail < 0.15 else "")
        return [(s, "ADDRESS")]
    sfx = ST_ABBR[suf] if rng.random() < 0.5 else cap(suf)
    s = "%d %s %s" % (num, cap(street), sfx)
    if unit:
        s += rng.choice([", Apt %d", " Apt %d", ", Unit %d", " #%d"]) % rng.randint(1, 40)
    if tail < 0.5:
        s += ", " + cap(town)
        if ST and tail < 0.3:
            s += ", " + ST + (" " + zipc if tail < 0.2 else "")
    return [(s, "ADDRESS")]


def p_card(rng, sp):
    pre, ln = rng.choice([("4", 16), ("51", 16), ("55", 16), ("2221", 16), ("37", 15), ("6011", 16)])
    body = pre + "".join(str(rng.randint(0, 9)) for _ in range(ln - len(pre) - 1))
    num = next(body + d for d in "0123456789" if luhn_ok(body + d))
    groups = [num[i:i + 4] for i in range(0, len(num), 4)] if ln == 16 else [num[:4], num[4:10], num[10:]]
    if sp:
        return [(" ".join(digits_spoken(g, rng, oh=0.3) for g in groups), "CREDIT_CARD")]
    return [(rng.choice([" ", "-", ""]).join(groups), "CREDIT_CARD")]


IBAN_SPECS = {"DE": "8n10n", "GB": "4a6n8n", "FR": "5n5n11n2n", "NL": "4a10n", "ES": "4n4n2n10n",
              "IT": "1a5n5n12n", "BE": "3n7n2n", "IE": "4a6n8n", "CH": "5n12n", "AT": "5n11n", "PL": "8n16n"}


def make_iban(rng):
    cc = rng.choice(list(IBAN_SPECS))
    bban = ""
    for n, t in re.findall(r"(\d+)([an])", IBAN_SPECS[cc]):
        for _ in range(int(n)):
            bban += rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ") if t == "a" else str(rng.randint(0, 9))
    num = int("".join(str(int(c, 36)) for c in bban + cc + "00"))
    return cc + "%02d" % (98 - num % 97) + bban


def p_iban(rng, sp):
    iban = make_iban(rng)
    if sp:
        return [(" ".join(c.lower() if c.isalpha() else DIGIT_WORDS[c] for c in iban), "IBAN")]
    if rng.random() < 0.6:
        return [(" ".join(iban[i:i + 4] for i in range(0, len(iban), 4)), "IBAN")]
    return [(iban, "IBAN")]


def p_ssn(rng, sp):
    a = rng.choice([x for x in range(1, 900) if x != 666])
    s = "%03d%02d%04d" % (a, rng.randint(1, 99), rng.randint(1, 9999))
    if sp:
        return [(digits_spoken(s[:3], rng) + " " + digits_spoken(s[3:5], rng) + " " + digits_spoken(s[5:], rng), "SSN")]
    return [(rng.choice(["%s-%s-%s", "%s %s %s", "%s%s%s"]) % (s[:3], s[3:5], s[5:]), "SSN")]


MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september",
          "october", "november", "december"]


def p_dob(rng, sp):
    y, m, d = rng.randint(1930, 2022), rng.randint(1, 12), rng.randint(1, 28)
    mon = MONTHS[m - 1]
    with_year = rng.random() < 0.65
    if sp:
        r = rng.random()
        if r < 0.4:
            s = mon + " " + (ordinal_words(d) if rng.random() < 0.7 else nw(d))
        elif r < 0.7:
            s = "the " + ordinal_words(d) + " of " + mon
        else:
            s = nw(m) + " " + nw(d)
            with_year = True
        if with_year:
            s += " " + (year_words(y, rng) if r >= 0.7 or rng.random() < 0.8 else nw(y % 100) if y % 100 >= 10 else year_words(y, rng))
        return [(s, "DATE_OF_BIRTH")]
    r = rng.random()
    if r < 0.3:
        return [(rng.choice(["%02d/%02d/%d", "%d/%d/%d"]) % (m, d, y), "DATE_OF_BIRTH")]
    if r < 0.45:
        return [("%d-%02d-%02d" % (y, m, d), "DATE_OF_BIRTH")]
    if r < 0.7:
        s = "%s %s" % (cap(mon) if rng.random() < 0.7 else mon[:3].capitalize(), rng.choice([str(d), ordinal_suffix(d)]))
        return [(s + (", %d" % y if with_year else ""), "DATE_OF_BIRTH")]
    s = "%d %s" % (d, cap(mon))
    return [(s + (" %d" % y if with_year else ""), "DATE_OF_BIRTH")]


def p_age(rng, sp):
    a = rng.choice([rng.randint(1, 99), rng.randint(18, 70), rng.randint(2, 17)])
    return [(nw(a) if sp else (str(a) if rng.random() < 0.85 else nw(a)), "AGE")]


def p_ip(rng, sp):
    r = rng.random()
    if r < 0.45:
        ip = "192.168.%d.%d" % (rng.choice([0, 1, 1, 2, 10, 50, 100]), rng.randint(2, 254))
    elif r < 0.65:
        ip = "10.%d.%d.%d" % (rng.randint(0, 255), rng.randint(0, 255), rng.randint(1, 254))
    elif r < 0.75:
        ip = "172.%d.%d.%d" % (rng.randint(16, 31), rng.randint(0, 255), rng.randint(1, 254))
    elif r < 0.9:
        ip = "%d.%d.%d.%d" % (rng.randint(23, 223), rng.randint(0, 255), rng.randint(0, 255), rng.randint(1, 254))
    else:
        ip = "fe80::%x:%x:%x" % (rng.randint(1, 65535), rng.randint(1, 65535), rng.randint(1, 65535)) \
            if rng.random() < 0.5 else "2001:db8:%x::%x" % (rng.randint(1, 65535), rng.randint(1, 65535))
    return [(ip if not sp else spoken_ip(ip, rng, oh=0.2, digit_share=0.6, point_share=0.0), "IP_ADDRESS")]


def p_account(rng, sp):
    r = rng.random()
    if r < 0.6:
        v = _digits(rng, rng.randint(6, 12))
        if sp:
            return [(digits_spoken(v, rng), "ACCOUNT_NUMBER")]
        return [(v, "ACCOUNT_NUMBER")]
    letters = "".join(rng.choice("ABCDEFGHJKLMNPRSTUVWXYZ") for _ in range(rng.randint(1, 3)))
    v = _digits(rng, rng.randint(5, 9))
    if sp:
        return [(" ".join(letters.lower()) + " " + digits_spoken(v, rng), "ACCOUNT_NUMBER")]
    return [(letters + rng.choice(["-", "", " "]) + v, "ACCOUNT_NUMBER")]


PW_WORDS = """sunflower dragon bluebird tiger monkey purple falcon ocean winter summer pancake river
shadow rocket cookie thunder maple violet copper jaguar penguin mango cobalt velvet banjo""".split()


def p_secret(rng, sp):
    r = rng.random()
    if r < 0.5:
        v = _digits(rng, rng.choice([4, 4, 4, 5, 6, 8]))
        return [(digits_spoken(v, rng, oh=0.3) if sp else v, "PIN_OR_PASSWORD")]
    w = rng.choice(PW_WORDS)
    w2 = rng.choice(PW_WORDS)
    n = str(rng.randint(1, 9999))
    if sp:
        s = rng.choice([w + " " + digits_spoken(n, rng, groups=False), w + " " + w2 + " " + nw(int(n) % 100),
                        w + " " + w2, w + " " + nw(int(n) % 100)])
        return [(s, "PIN_OR_PASSWORD")]
    s = rng.choice([w + n, w.capitalize() + n + rng.choice(["!", "#", "$", ""]), w + "_" + w2 + n[:2],
                    w.capitalize() + w2.capitalize() + n, "".join(rng.choice("abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789") for _ in range(rng.randint(8, 14)))])
    return [(s, "PIN_OR_PASSWORD")]


def p_health(rng, sp):
    v = pick(rng, CONDITIONS, WN_CONDITIONS, 0.3) if rng.random() < 0.6 else pick(rng, MEDS, WN_MEDS, 0.3)
    if v.startswith(("a ", "an ")):
        art, v = v.split(" ", 1)
        return [(art, None), (v, "HEALTH")]
    return [(v, "HEALTH")]


def p_location(rng, sp):
    kind, nouns = rng.choice(PLACE_KINDS)
    base = rng.choice(PLACE_NAMES) if rng.random() < 0.7 else rng.choice(LAST)
    name = base + " " + rng.choice(nouns)
    if sp:
        return [(name.replace("st ", "saint ", 1) if name.startswith("st ") and rng.random() < 0.5 else name, "LOCATION")]
    name = cap(name).replace("St ", "St. " if rng.random() < 0.5 else "St ", 1) if name.startswith("st ") else cap(name)
    return [(name, "LOCATION")]


PII_GEN = {"PERSON": p_person, "PHONE": p_phone, "EMAIL": p_email, "ADDRESS": p_address,
           "CREDIT_CARD": p_card, "IBAN": p_iban, "SSN": p_ssn, "DATE_OF_BIRTH": p_dob, "AGE": p_age,
           "IP_ADDRESS": p_ip, "ACCOUNT_NUMBER": p_account, "PIN_OR_PASSWORD": p_secret,
           "HEALTH": p_health, "LOCATION": p_location}
PII_TYPES = list(PII_GEN)


# Invented drug names built like real ones (a stem and a pharmacological suffix): people name medications no
# list holds, and the tagger must learn what a drug name looks like and where it sits, not a word list.
DRUG_ONSETS = ["ab", "al", "am", "ar", "bel", "bri", "cal", "cer", "dal", "dex", "el", "em", "fen", "ful", "gal",
               "ib", "in", "ka", "lan", "lev", "lor", "mar", "mir", "nal", "nev", "ol", "or", "pal", "per", "quin",
               "ral", "ri", "sel", "sor", "tal", "ter", "tri", "ul", "ver", "vo", "xan", "zan", "zol", "zu"]
DRUG_MIDDLES = ["", "a", "e", "i", "o", "u", "ac", "ar", "en", "ex", "il", "im", "or", "os", "ur", "ol", "an"]
DRUG_SUFFIXES = ["mab", "umab", "zumab", "tinib", "nib", "pril", "sartan", "olol", "statin", "azole", "cycline",
                 "vir", "gliflozin", "glutide", "gliptin", "parin", "xaban", "dipine", "prazole", "tidine",
                 "oxacin", "mycin", "cillin", "triptan", "setron", "lukast", "afil", "semide", "thiazide", "dronate",
                 "lamide", "zepam", "azepam", "oxetine", "traline", "apine", "idone", "pramine", "barbital", "caine",
                 "sone", "olone", "terol", "tropium", "fibrate", "gab", "racetam", "stigmine", "tide", "ase"]


def invented_drug(rng):
    return rng.choice(DRUG_ONSETS) + rng.choice(DRUG_MIDDLES) + rng.choice(DRUG_SUFFIXES)


def p_health_med(rng, sp):
    return [(invented_drug(rng) if rng.random() < 0.35 else pick(rng, MEDS, WN_MEDS, 0.3), "HEALTH")]


def p_health_cond(rng, sp):
    v = pick(rng, CONDITIONS, WN_CONDITIONS, 0.3)
    if v.startswith(("a ", "an ")):
        art, v = v.split(" ", 1)
        return [(art, None), (v, "HEALTH")]
    return [(v, "HEALTH")]


PII_GEN["HEALTH_MED"] = p_health_med
PII_GEN["HEALTH_COND"] = p_health_cond


# ----------------------------------------------------------------------------------------
# PII carrier templates: {TYPE} = labelled value, {:kind} = unlabelled filler; "'s" attaches

PII_TEMPLATES = {
    "PERSON": [
        "(call | ring | phone | text | message | email) {PERSON} [please | now | on speaker]",
        "my name is {PERSON}", "(i'm | i am | this is) {PERSON} [speaking | here]",
        "remind me to (call | pay | thank | visit) {PERSON} (tomorrow | later | tonight | on friday)",
        "{PERSON} 's birthday party is on (saturday | sunday)",
        "(send | share) (the photos | my location | the list) (to | with) {PERSON} and {PERSON}",
        "what's {PERSON} 's (number | address | email)",
        "(is | has) {PERSON} (home | back | called) yet",
        "my (coworker | neighbor | friend | landlord | son | daughter | wife | husband | boss) {PERSON} (is coming over | called | needs a ride)",
        "add {PERSON} to the (guest list | family group | contacts)",
        "(set up | schedule) a meeting with {PERSON} at (ten | noon | three)",
        "{PERSON} (said | wants | asked) (hi | to borrow the car | if we're free)",
        "tell {PERSON} (dinner is ready | i'm running late | to pick up milk)",
        "(who is | where is) {PERSON} (today | right now)",
    ],
    "PHONE": [
        "my (number | phone number | cell | mobile) is {PHONE}",
        "(call | dial | ring) {PHONE} [please | now]",
        "{PERSON} 's (number | phone | cell) is {PHONE}",
        "(you can | please) (reach | call) me (at | on) {PHONE}",
        "{PHONE} (is | that's) my (work | home | mobile) number",
        "save {PHONE} (as | under) {PERSON}",
        "the (plumber | babysitter | dentist) (said | gave me) {PHONE}",
        "text {PERSON} at {PHONE}",
    ],
    "EMAIL": [
        "my (email | email address | e mail) is {EMAIL}",
        "(send | forward) (it | the invoice | the tickets) to {EMAIL}",
        "{PERSON} 's email is {EMAIL}",
        "{EMAIL} (is | that's) my (work | personal | school) (email | address)",
        "(contact | write to) me at {EMAIL}",
        "update my login to {EMAIL}",
    ],
    "ADDRESS": [
        "(i live | we live | i'm staying) at {ADDRESS}",
        "my (address | home address | new address) is {ADDRESS}",
        "(ship | send | deliver) (it | the package | the order) to {ADDRESS}",
        "{PERSON} (lives | moved) (at | to) {ADDRESS}",
        "{ADDRESS} is (my | our | my mom's) (place | house | address)",
        "(directions | how far is it) (to | from here to) {ADDRESS}",
        "the party is at {PERSON} 's place {ADDRESS}",
    ],
    "CREDIT_CARD": [
        "my (card | credit card | visa | card number) is {CREDIT_CARD}",
        "(charge | bill | use) (it to | the card) {CREDIT_CARD}",
        "{CREDIT_CARD} (is | that's) my (card | debit card | credit card) (number)",
        "(pay | book it) with card {CREDIT_CARD} (expiring | expires) (next year | in june)",
        "{PERSON} 's card number is {CREDIT_CARD}",
    ],
    "IBAN": [
        "my (iban | i b a n | bank account iban) is {IBAN}",
        "(send | transfer | wire) (the money | the rent | fifty euros) to {IBAN}",
        "{PERSON} 's iban is {IBAN}",
        "{IBAN} (is | that's) (my | the landlord's) iban",
        "pay the invoice to iban {IBAN}",
    ],
    "SSN": [
        "my (social | social security number | ssn | social security) is {SSN}",
        "{SSN} (is | that's) my (social | ssn | social security number)",
        "{PERSON} 's (social | ssn) is {SSN}",
        "(enter | use | put in) (social | ssn) {SSN}",
        "for the (tax form | application) my social is {SSN}",
    ],
    "DATE_OF_BIRTH": [
        "(i was born on | i was born | my birthday is | my date of birth is | my dob is) {DATE_OF_BIRTH}",
        "{PERSON} was born on {DATE_OF_BIRTH}",
        "{PERSON} 's birthday is {DATE_OF_BIRTH}",
        "(my son | my daughter | my wife | my husband) was born (on) {DATE_OF_BIRTH}",
        "{DATE_OF_BIRTH} is my (birthday | date of birth)",
        "date of birth {DATE_OF_BIRTH}",
        "born {DATE_OF_BIRTH} (in | at) (the city hospital | home)",
    ],
    "AGE": [
        "(i'm | i am) {AGE} [years old | this year]",
        "{PERSON} is {AGE} [years old]",
        "(my son | my daughter | my mom | my dad | my grandma) (is | just turned | turns) {AGE} [next week | today]",
        "{PERSON} (just turned | turns | will be) {AGE} (on friday | this year | next month)",
        "(i'll be | i will be) {AGE} (in may | next year | on sunday)",
        "(age | aged) {AGE}",
        "(at | since) {AGE} i've (been running | lived here | had this job)",
    ],
    "IP_ADDRESS": [
        "my (router | printer | laptop | nas | server | camera | tv) is at {IP_ADDRESS}",
        "(ping | connect to | ssh into | open) {IP_ADDRESS}",
        "(the | my) (home server | raspberry pi | desktop | thermostat) ip is {IP_ADDRESS}",
        "{IP_ADDRESS} is my (printer | gaming pc | router | work laptop)",
        "set my (static ip | ip address) to {IP_ADDRESS}",
        "(block | allow) {IP_ADDRESS} on my (network | firewall)",
    ],
    "ACCOUNT_NUMBER": [
        "my (account number | customer number | member number | policy number | account) is {ACCOUNT_NUMBER}",
        "(policy | account | member | customer | membership) (number | id) {ACCOUNT_NUMBER}",
        "{ACCOUNT_NUMBER} (is | that's) my (account | policy | member | library card) number",
        "{PERSON} 's (account | policy) number is {ACCOUNT_NUMBER}",
        "(pay | check) (the | my) (electric | water | insurance) bill for account {ACCOUNT_NUMBER}",
    ],
    "PIN_OR_PASSWORD": [
        "my (pin | pin number | password | passcode) is {PIN_OR_PASSWORD}",
        "the (wifi | wi fi) (password | key) is {PIN_OR_PASSWORD}",
        "{PIN_OR_PASSWORD} is the (garage | door | alarm | gate | safe) code",
        "the (garage | door | alarm | gate | lockbox) code is {PIN_OR_PASSWORD}",
        "(remember | save) my (password | pin) {PIN_OR_PASSWORD}",
        "(unlock | disarm) (it | the alarm) with {PIN_OR_PASSWORD}",
        "{PERSON} 's (password | pin) is {PIN_OR_PASSWORD}",
        "(code | pin | password) {PIN_OR_PASSWORD}",
    ],
    "HEALTH": [
        "(i have | i've got | i was diagnosed with | i suffer from | i'm being treated for) {HEALTH_COND}",
        "(i take | i'm on | i need to take | remind me to take) [my] {HEALTH_MED} [every morning | at nine | twice a day]",
        "{PERSON} (has | was diagnosed with | is being treated for) {HEALTH_COND}",
        "{PERSON} (takes | is on | is allergic to) {HEALTH_MED}",
        "my (son | daughter | mom | dad | husband | wife) (has | was diagnosed with) {HEALTH_COND}",
        "my (son | daughter | mom | dad | husband | wife) (takes | is on | ran out of) {HEALTH_MED}",
        "(order | refill) my {HEALTH_MED} (prescription | refill)",
        "{HEALTH} (runs in my family | is why i'm tired | flared up again for me)",
        "{PERSON} 's {HEALTH} (is getting worse | is better | needs a checkup)",
    ],
    "LOCATION": [
        "(i work at | i'm a nurse at | i teach at | i volunteer at) {LOCATION}",
        "my (son | daughter | kids) (go to | goes to | attend) {LOCATION}",
        "{PERSON} (works at | is staying at | lives at | goes to) {LOCATION}",
        "(my mom | my grandpa | my dad) is (in | at) {LOCATION} (now | this week)",
        "pick me up from {LOCATION} at (five | six)",
        "i have a (shift | class | meeting | session) at {LOCATION} tomorrow",
        "{LOCATION} is where (i work | my wife works | i go every monday)",
    ],
    "FORM": [
        "(name | patient) {PERSON} (phone | number) {PHONE} (email | e mail) {EMAIL}",
        "my name is {PERSON} and my (number | phone) is {PHONE}",
        "{PERSON} (born | dob) {DATE_OF_BIRTH} (social | ssn) {SSN}",
        "i'm {PERSON} i live at {ADDRESS}",
        "{PERSON} age {AGE} has {HEALTH_COND}",
        "{PERSON} ({AGE}) (works at | goes to) {LOCATION}",
        "card {CREDIT_CARD} (billing address | address) {ADDRESS}",
        "account {ACCOUNT_NUMBER} pin {PIN_OR_PASSWORD}",
        "(wire | send) it to {PERSON} iban {IBAN}",
        "my server {IP_ADDRESS} password {PIN_OR_PASSWORD}",
        "{PERSON} at {EMAIL} or {PHONE}",
    ],
}
NEG_TEMPLATES = {
    "public_figure": ["who (is | was) {:celeb}", "play (songs | music | the new album) by {:celeb}",
                      "my favorite (singer | author | actor | athlete) is {:celeb}", "how old is {:celeb}",
                      "when was {:celeb} born", "(tell me about | what's the latest news on) {:celeb}",
                      "is {:celeb} (married | on tour | still alive)"],
    "relative": ["call {:rel}", "text {:rel} (that | i'm) (i'm | running) late", "remind me to phone {:rel} tonight",
                 "what should i get {:rel} for (christmas | their birthday)", "{:rel} is coming over (today | at six)"],
    "health_general": ["what are the symptoms of {:cond}", "what is {:med} used for", "is {:cond} contagious",
                       "how is {:cond} treated", "can you take {:med} with (food | alcohol | ibuprofen)",
                       "what are the side effects of {:med}", "how common is {:cond}"],
    "well_known_ip": ["what is {:wkip} used for", "is {:wkip} a good dns server", "why does {:wkip} mean localhost",
                      "what's the difference between {:wkip} and {:wkip}"],
    "city": ["what's the weather in {:city}", "how far is it to {:city}", "what time is it in {:city}",
             "(flights | trains) to {:city} (tomorrow | next week)", "what's the population of {:city}",
             "how far is the eiffel tower from {:city}"],
    "business": ["what time does {:biz} (close | open)", "is {:biz} open (today | on sunday)",
                 "find the nearest {:biz}", "directions to {:biz}"],
    "numbers": ["what is {:n} times {:n}", "play track {:n}", "switch to channel {:n}",
                "is flight (ba | ua | dl) {:n} on time", "set a timer for {:n} minutes",
                "wake me at {:n} thirty", "what happened in {:year}", "the war ended in {:year}",
                "add {:n} and {:n}", "skip to song number {:n}", "room {:n} is on the {:n} floor",
                "the score was {:n} to {:n}", "my flight leaves at gate {:n}"],
}


# positives in carriers close to the hard negatives above (same words, but the value is PII)
PII_TEMPLATES["PIN_OR_PASSWORD"] += [
    "my (bank | debit card | phone | voicemail | atm | card) pin is {PIN_OR_PASSWORD}",
    "the pin (for | on) (my card | the atm card | my phone | the sim) is {PIN_OR_PASSWORD}",
    "(the | my) (bike lock | locker | suitcase | safe) combination is {PIN_OR_PASSWORD}",
    "the (code | passcode) (to get in | for the building | for my phone | for the gate) is {PIN_OR_PASSWORD}",
    "(i | we) changed the (door | alarm | wifi) (code | password) to {PIN_OR_PASSWORD}",
    "(my | the) (new | old) pin (is | was) {PIN_OR_PASSWORD}", "(punch | type | key) in {PIN_OR_PASSWORD} (at | on) the (keypad | gate)",
    "{PERSON} 's (phone | laptop) (passcode | password) is {PIN_OR_PASSWORD}",
]
PII_TEMPLATES["DATE_OF_BIRTH"] += [
    "i was born on {DATE_OF_BIRTH} (in | at) (ohio | a small town | st luke's | home | the old hospital)",
    "(my | our) (son | daughter | mom | dad | grandma | baby) 's birthday is {DATE_OF_BIRTH}",
    "{PERSON} 's date of birth is {DATE_OF_BIRTH}", "(she | he) was born on {DATE_OF_BIRTH}",
    "put (my | his | her) birthday down as {DATE_OF_BIRTH}", "(remember | note) that my birthday is {DATE_OF_BIRTH}",
    "(the twins | our baby | my grandson | my granddaughter) (was | were) born on {DATE_OF_BIRTH}",
    "(i was | my husband was | my wife was) born {DATE_OF_BIRTH}", "my birthday (is on | falls on) {DATE_OF_BIRTH}",
    "(date of birth | dob | birth date | born) {DATE_OF_BIRTH} [please]", "i'm a (leo | virgo | taurus | gemini) born on {DATE_OF_BIRTH}",
]
PII_TEMPLATES["AGE"] += [
    "(my | our) (son | daughter | grandson | nephew | niece) is {AGE} and (loves | hates) (school | football | math)",
    "(i'm | i am) {AGE} and (i just retired | i started running | i live alone)",
    "{PERSON} was {AGE} when (she | he) (moved here | got married | started working)",
    "(my | our) (mom | dad | grandpa | grandma) (will be | turns) {AGE} (on friday | in june | next year)",
    "(i | we) have (a | two) (kids | kid) aged {AGE} and {AGE}",
]
PII_TEMPLATES["PERSON"] += [
    "where did my (friend | cousin | neighbor | coworker | roommate) {PERSON} grow up",
    "(my | our) (friend | neighbor | coworker | cousin) {PERSON} (loves | plays | listens to) (jazz | tennis | the piano | country music)",
    "{PERSON} from (work | school | church | the gym | next door) (called | texted | stopped by)",
    "(play | send) (the video | the song) {PERSON} (sent me | recommended | shared)",
    "how old is {PERSON} (now | again)", "when is {PERSON} 's birthday",
    "what did {PERSON} (say | want | send) (earlier | yesterday | this morning)",
    "(i | we) (had lunch | met up | went running) with {PERSON} (today | yesterday | on sunday)",
    "(my | the) (teacher | dentist | landlord | babysitter) {PERSON} (is sick | cancelled | moved)",
]
PII_TEMPLATES["HEALTH"] += [
    "my (mom | dad | wife | husband | son | grandma) takes {HEALTH_MED} (every day | for her heart | at night)",
    "(i've been | i have been) on {HEALTH_MED} (since march | for two years | since last year)",
    "can i (drink | have coffee | take ibuprofen) (with | on) my {HEALTH_MED}",
    "what (should | can) i eat now that i have {HEALTH_COND}", "since i have {HEALTH_COND} (should i | can i) (fly | exercise | drink)",
    "(my | our) doctor (put me on | prescribed me | switched me to) {HEALTH_MED}",
    "{PERSON} (found out | learned) (she | he) has {HEALTH_COND}", "(i | we) just found out my (son | daughter | mom) has {HEALTH_COND}",
    "(i | he | she) stopped taking {HEALTH_MED} (last week | yesterday)",
    "(i | my (mom | dad | son | daughter | wife | husband | grandpa)) (started on | switched to | came off | is weaning off | got put on | was prescribed) {HEALTH_MED} [last week | this month | yesterday] [and | so] [what should (i | he | she) (eat | avoid) | is that normal]",
    "(the | my) (pharmacy | chemist | doctor) (called about | has) my {HEALTH_MED} [refill | prescription] [is it ready]",
    "(is | could) (my | the) {HEALTH_MED} (be )?making me (dizzy | tired | sick)".replace("(be )?", "[be]"),
    "(what | how much) is (my | his | her) dose of {HEALTH_MED}",
    "{HEALTH_MED} (every morning | twice a day | with food) (for me | for (my | our) (dad | mom | son)) (please remind me | set a reminder)",
    "(i'm | i am | he's | she's) on a course of {HEALTH_MED}",
    "side effects of my {HEALTH_MED} (are | have been) (bad | getting worse)",
]
PII_TEMPLATES["ACCOUNT_NUMBER"] += [
    "my (bank | checking | savings | utility | gym) account number is {ACCOUNT_NUMBER}",
    "(use | bill | charge) (account | member number) {ACCOUNT_NUMBER}",
]
PII_TEMPLATES["LOCATION"] += [
    "(my | our) (son | daughter | kid) (plays | studies | is in the choir) at {LOCATION}",
    "{PERSON} (was born at | volunteers at | coaches at) {LOCATION}",
]
FIRST += ["william", "john", "paul", "george", "michael", "elizabeth", "mary", "james", "charles", "thomas",
          "robert", "david", "jennifer", "sarah", "peter", "anne", "margaret", "richard", "susan", "joseph"]
CONDITIONS += ["measles", "malaria", "chickenpox", "strep throat", "mono", "rosacea", "appendicitis", "gallstones",
               "hay fever", "tonsillitis", "sinusitis", "polio", "rabies", "dengue fever", "gerd", "rickets",
               "a hernia", "cholera", "gingivitis", "sepsis", "meningitis", "hypoglycemia", "neuropathy"]
MEDS += ["acetaminophen", "tylenol", "advil", "benadryl", "penicillin", "xanax", "prozac", "zoloft", "lipitor",
         "nexium", "claritin", "zyrtec", "paracetamol", "codeine", "digoxin", "statins", "wegovy", "humira",
         "cortisone", "vitamin d", "iron tablets", "antihistamines"]


# ----------------------------------------------------------------------------------------
# hard negatives for the PII tagger: maths, public numbers, historical/public dates, public
# figures, general health questions, spelled acronyms (all lines WITHOUT spans)

FAMOUS = {
    "hist": ["william shakespeare", "abraham lincoln", "george washington", "napoleon bonaparte",
             "julius caesar", "queen victoria", "henry the eighth", "joan of arc", "winston churchill",
             "charles darwin", "christopher columbus", "thomas jefferson", "benjamin franklin",
             "galileo galilei", "isaac newton", "marie curie", "albert einstein", "nikola tesla",
             "thomas edison", "florence nightingale", "harriet tubman", "rosa parks", "frederick douglass",
             "alexander the great", "genghis khan", "cleopatra", "charlemagne", "elizabeth the first",
             "catherine the great", "peter the great", "martin luther", "john f kennedy", "franklin roosevelt",
             "theodore roosevelt", "mahatma gandhi", "nelson mandela", "sigmund freud", "karl marx",
             "amelia earhart", "neil armstrong", "yuri gagarin", "charles dickens", "mark twain",
             "leo tolstoy", "ernest hemingway", "virginia woolf", "emily dickinson", "edgar allan poe",
             "vincent van gogh", "pablo picasso", "michelangelo", "claude monet", "rembrandt",
             "wolfgang amadeus mozart", "ludwig van beethoven", "johann sebastian bach", "frederic chopin",
             "alexander graham bell", "the wright brothers", "louis pasteur", "alan turing", "ada lovelace",
             "stephen hawking", "carl sagan", "jane goodall", "anne frank", "helen keller", "susan b anthony",
             "john adams", "ulysses s grant", "robert e lee", "king george the third", "william the conqueror",
             "richard the lionheart", "marco polo", "ferdinand magellan", "james cook", "sir isaac newton"],
    "music": ["elvis presley", "john lennon", "paul mccartney", "freddie mercury", "david bowie",
              "michael jackson", "prince", "madonna", "whitney houston", "aretha franklin", "bob dylan",
              "bob marley", "johnny cash", "frank sinatra", "elton john", "mick jagger", "jimi hendrix",
              "kurt cobain", "amy winehouse", "ariana grande", "justin bieber", "harry styles", "bruno mars",
              "kendrick lamar", "kanye west", "eminem", "dua lipa", "olivia rodrigo", "miley cyrus",
              "katy perry", "stevie wonder", "ray charles", "louis armstrong", "tina turner", "cher",
              "celine dion", "luciano pavarotti", "bad bunny", "the weeknd", "post malone", "sza",
              "lizzo", "george michael", "janis joplin", "ozzy osbourne", "willie nelson", "garth brooks",
              "luke combs", "morgan wallen", "kylie minogue", "robbie williams", "sam smith", "john legend"],
    "sport": ["michael jordan", "lebron james", "kobe bryant", "muhammad ali", "mike tyson", "tom brady",
              "babe ruth", "wayne gretzky", "roger federer", "rafael nadal", "novak djokovic", "tiger woods",
              "cristiano ronaldo", "diego maradona", "david beckham", "michael phelps", "jesse owens",
              "jackie robinson", "stephen curry", "shaquille o'neal", "venus williams", "lewis hamilton",
              "ayrton senna", "kylian mbappe", "patrick mahomes", "megan rapinoe", "nadia comaneci",
              "mia hamm", "derek jeter", "magic johnson", "larry bird", "naomi osaka", "andy murray"],
    "film": ["marilyn monroe", "charlie chaplin", "audrey hepburn", "humphrey bogart", "james dean",
             "tom cruise", "brad pitt", "leonardo dicaprio", "denzel washington", "morgan freeman",
             "will smith", "julia roberts", "scarlett johansson", "jennifer lawrence", "robert de niro",
             "al pacino", "steven spielberg", "alfred hitchcock", "quentin tarantino", "meryl streep",
             "harrison ford", "keanu reeves", "johnny depp", "angelina jolie", "emma watson",
             "daniel radcliffe", "zendaya", "timothee chalamet", "margot robbie", "ryan gosling",
             "walt disney", "jim carrey", "robin williams", "jackie chan", "bruce lee", "clint eastwood",
             "judi dench", "helen mirren", "idris elba", "dwayne johnson", "sandra bullock", "tom holland"],
    "write": ["jk rowling", "stephen king", "agatha christie", "george orwell", "jane austen",
              "charlotte bronte", "oscar wilde", "homer", "dante", "toni morrison", "maya angelou",
              "roald dahl", "dr seuss", "j r r tolkien", "c s lewis", "harper lee", "f scott fitzgerald",
              "john steinbeck", "william wordsworth", "robert frost", "walt whitman", "sylvia plath"],
}
FAMOUS_ALL = sorted(set(n for v in FAMOUS.values() for n in v) | set(CELEBS))

HOLIDAYS = ["christmas", "christmas eve", "easter", "thanksgiving", "halloween", "valentine's day",
            "new year's day", "new year's eve", "independence day", "the fourth of july", "memorial day",
            "labor day", "hanukkah", "diwali", "ramadan", "eid", "mother's day", "father's day",
            "saint patrick's day", "boxing day", "groundhog day", "presidents day", "cinco de mayo",
            "chinese new year", "juneteenth", "veterans day", "bastille day", "earth day", "pi day",
            "passover", "good friday", "mardi gras", "columbus day", "remembrance day", "canada day",
            "australia day", "burns night", "bonfire night", "april fools day", "lunar new year",
            "yom kippur", "kwanzaa", "oktoberfest", "the summer solstice", "the winter solstice"]
EVENTS = ["the battle of hastings", "the moon landing", "the fall of the berlin wall", "d day",
          "the sinking of the titanic", "the attack on pearl harbor", "the storming of the bastille",
          "the great fire of london", "the boston tea party", "the battle of waterloo", "the first world war",
          "the second world war", "the gettysburg address", "the wright brothers' first flight",
          "the chernobyl disaster", "the stock market crash", "the signing of the magna carta",
          "the treaty of versailles", "the eruption of vesuvius", "woodstock", "the american revolution",
          "the battle of gettysburg", "the french revolution", "the spanish armada", "the gold rush",
          "the great depression", "the civil war", "the cuban missile crisis", "the apollo thirteen mission",
          "the first olympic games", "the partition of india", "the russian revolution", "the black death",
          "the battle of the somme", "the great chicago fire", "the san francisco earthquake",
          "the declaration of independence", "the louisiana purchase", "the hindenburg disaster",
          "the assassination of archduke franz ferdinand", "the coronation of queen elizabeth",
          "the first transatlantic flight", "the invention of the printing press", "the battle of britain"]
ACRONYMS = ["ssn", "pin", "dob", "iban", "ip", "atm", "nasa", "fbi", "cia", "usa", "dna", "rna", "bbc",
            "cnn", "espn", "nba", "nfl", "nhl", "mlb", "uk", "eu", "un", "who", "gps", "usb", "hdmi",
            "pdf", "html", "http", "dvd", "tv", "irs", "dmv", "ceo", "diy", "asap", "rsvp", "aka", "faq",
            "fyi", "lol", "omg", "vip", "gdp", "ufo", "ai", "vpn", "sim", "pc", "id", "ppe", "cpr",
            "er", "icu", "mri", "adhd", "ocd", "bmi", "hiv", "ptsd", "ibs", "copd", "gp", "nhs", "hr", "it",
            "pto", "eta", "mvp", "nato", "opec", "ssd", "ram", "cpu", "gpu", "wifi", "sms", "ups", "dhl"]
LETTER_BANDS = [("b t s", "BTS"), ("abba", "ABBA"), ("a c d c", "AC/DC"), ("r e m", "R.E.M."), ("t l c", "TLC"),
                ("n w a", "N.W.A"), ("u b forty", "UB40"), ("l m f a o", "LMFAO"), ("inxs", "INXS"), ("z z top", "ZZ Top"),
                ("a b c", "ABC"), ("m g m t", "MGMT"), ("e x o", "EXO"), ("n c t", "NCT"), ("x t c", "XTC"),
                ("o m d", "OMD"), ("b b king", "B.B. King"), ("jay z", "Jay-Z"), ("m f doom", "MF DOOM"),
                ("d j khaled", "DJ Khaled"), ("l l cool j", "LL Cool J"), ("t pain", "T-Pain"), ("a ha", "a-ha"),
                ("u two", "U2"), ("b fifty twos", "The B-52s"), ("t rex", "T. Rex"), ("e l o", "ELO"),
                ("s club seven", "S Club 7"), ("b b kings", "BB Kings"), ("j cole", "J. Cole"), ("a r rahman", "A. R. Rahman"),
                ("n sync", "NSYNC"), ("k d lang", "k.d. lang"), ("p j harvey", "PJ Harvey"), ("s z a", "SZA")]
CURRENCIES = ["dollars", "euros", "pounds", "yen", "pesos", "rupees", "swiss francs", "canadian dollars",
              "australian dollars", "yuan", "won", "krona", "bitcoin", "rand", "dirhams", "lira"]
UNIT_WORDS = ["miles", "kilometers", "pounds", "kilograms", "ounces", "grams", "cups", "liters", "gallons",
              "feet", "inches", "centimeters", "meters", "yards", "tablespoons", "teaspoons", "stone",
              "acres", "hectares", "degrees fahrenheit", "degrees celsius", "miles per hour", "pints", "quarts"]
AIRLINES = [("united", "UA"), ("delta", "DL"), ("american", "AA"), ("british airways", "BA"),
            ("lufthansa", "LH"), ("air france", "AF"), ("southwest", "WN"), ("ryanair", "FR"),
            ("easyjet", "U2"), ("emirates", "EK"), ("klm", "KL"), ("qantas", "QF"), ("jetblue", "B6")]
NEG_OBJECTS = ["apples", "eggs", "people", "tabs open", "unread emails", "steps", "pages", "cookies",
               "chairs", "students", "tickets", "boxes", "songs", "players", "photos", "plants", "books"]
RECIPE_QTY = ["cups of flour", "eggs", "tablespoons of sugar", "grams of butter", "teaspoons of salt",
              "cloves of garlic", "ounces of cheese", "milliliters of milk", "potatoes", "carrots",
              "cups of water", "slices of bread", "tablespoons of olive oil", "grams of pasta"]


def _nn(rng, sp, lo=1, hi=999, commas=True):
    n = rng.randint(lo, hi)
    if sp:
        return nw(n, rng)
    return "{:,}".format(n) if (commas and n >= 1000 and rng.random() < 0.6) else str(n)


def _num_mixed(rng, sp):
    r = rng.random()
    if r < 0.45:
        return _nn(rng, sp, 1, 20)
    if r < 0.75:
        return _nn(rng, sp, 10, 999)
    if r < 0.9:
        return _nn(rng, sp, 1000, 99999)
    a, b = rng.randint(0, 99), rng.randint(1, 99)
    if sp:
        return nw(a, rng) + " point " + " ".join(ONES[int(c)] for c in str(b))
    return "%d.%d" % (a, b)


def _dseq(rng, sp, lo=2, hi=4):
    s = str(rng.randint(1, 9)) + "".join(str(rng.randint(0, 9)) for _ in range(rng.randint(lo, hi) - 1))
    if sp:
        return digits_spoken(s, rng, oh=0.4) if rng.random() < 0.6 else nw(int(s), rng)
    return s


def _hist_year(rng):
    r = rng.random()
    if r < 0.55:
        return rng.randint(1066, 1929)
    if r < 0.9:
        return rng.randint(1930, 1999)
    return rng.randint(2000, 2023)


def _date(rng, sp, with_year=True, year=None, two_digit=False):
    y = year if year is not None else _hist_year(rng)
    m, d = rng.randint(1, 12), rng.randint(1, 28)
    mon = MONTHS[m - 1]
    if sp:
        r = rng.random()
        if r < 0.5:
            s = mon + " " + (ordinal_words(d) if rng.random() < 0.8 else nw(d))
        elif r < 0.85:
            s = "the " + ordinal_words(d) + " of " + mon
        else:
            s = ordinal_words(d) + " of " + mon
        if with_year:
            if two_digit and y % 100 >= 10:
                s += " " + nw(y % 100)
            else:
                s += " " + year_words(y, rng)
        return s
    r = rng.random()
    if with_year:
        if r < 0.35:
            return "%s %s, %d" % (cap(mon) if rng.random() < 0.7 else mon[:3].capitalize(), rng.choice([str(d), ordinal_suffix(d)]), y)
        if r < 0.6:
            return "%d %s %d" % (d, cap(mon), y)
        if r < 0.75:
            return "the %s of %s %d" % (ordinal_suffix(d), cap(mon), y)
        if r < 0.9:
            return "%d/%d/%d" % (m, d, y)
        return "%d-%02d-%02d" % (y, m, d)
    if r < 0.5:
        return "%s %s" % (cap(mon), rng.choice([str(d), ordinal_suffix(d)]))
    if r < 0.8:
        return "the %s of %s" % (ordinal_suffix(d), cap(mon))
    return "%d %s" % (d, cap(mon))


def _expr(rng, sp):
    a, b = rng.randint(1, 999) if rng.random() < 0.4 else rng.randint(1, 20), rng.randint(1, 99)
    if sp:
        A, B = nw(a, rng), nw(b, rng)
        return rng.choice([A + " plus " + B, A + " minus " + B, A + " times " + B, A + " divided by " + B,
                           A + " multiplied by " + B, A + " over " + B, A + " and " + B, "the square root of " + A,
                           A + " squared", A + " cubed", A + " to the power of " + nw(rng.randint(2, 5)),
                           B + " percent of " + A, A + " into " + B])
    return rng.choice(["%d + %d", "%d - %d", "%d * %d", "%d x %d", "%d / %d", "%d times %d", "%d plus %d",
                       "%d divided by %d", "%d minus %d", "%d^%d", "%d*%d", "%d/%d"]) % (a, b)


def _famous(rng, sp, group=None):
    v = rng.choice(FAMOUS[group]) if group else pick(rng, FAMOUS_ALL, WN_PEOPLE, 0.3)
    return v if sp else (cap(v) if rng.random() < 0.75 else v)


def _acro(rng, sp):
    a = rng.choice(ACRONYMS)
    if sp:
        return a if (a in ("nasa", "nato", "opec", "wifi", "ram", "pin", "sim", "faq", "asap", "ufo", "lol")
                     and rng.random() < 0.5) else " ".join(a)
    return a.upper() if rng.random() < 0.8 else a


def _band(rng, sp):
    spk, wr = rng.choice(LETTER_BANDS)
    return spk if sp else (wr if rng.random() < 0.8 else spk.replace(" ", "") if len(spk) <= 9 else spk)


def _money(rng, sp):
    n = rng.choice([rng.randint(1, 99), rng.randint(100, 5000)])
    c = rng.random() < 0.3
    if sp:
        s = nw(n, rng) + " " + rng.choice(["dollars", "bucks", "euros", "pounds"])
        if c:
            s += " " + nw(rng.randint(1, 99)) if rng.random() < 0.5 else " and " + nw(rng.randint(1, 99)) + " cents"
        return s
    return rng.choice(["$", "$", "EUR ", "GBP "]) + "{:,}".format(n) + (".%02d" % rng.randint(0, 99) if c else "")


def _temp(rng, sp):
    n = rng.randint(-20, 110)
    if sp:
        return nw(n) + " degrees" + rng.choice(["", "", " fahrenheit", " celsius"])
    return rng.choice(["%d degrees", "%dF", "%d C", "%d degrees F"]) % n


def _flight(rng, sp):
    name, code = rng.choice(AIRLINES)
    num = _dseq(rng, sp, 2, 4)
    if sp:
        return (name if (rng.random() < 0.6 or not code.isalpha()) else " ".join(code.lower())) + " " + num
    return code + rng.choice(["", " "]) + num


NEG_FILL = {
    "n": lambda rng, sp: _nn(rng, sp, 1, 20) if rng.random() < 0.5 else _nn(rng, sp, 1, 999),
    "num": _num_mixed,
    "small": lambda rng, sp: _nn(rng, sp, 1, 12),
    "big": lambda rng, sp: _nn(rng, sp, 100, 250000),
    "dseq": _dseq,
    "pct": lambda rng, sp: _nn(rng, sp, 1, 99),
    "expr": _expr,
    "money": _money,
    "temp": _temp,
    "flight": _flight,
    "cur": lambda rng, sp: rng.choice(CURRENCIES),
    "unitw": lambda rng, sp: rng.choice(UNIT_WORDS),
    "obj": lambda rng, sp: rng.choice(NEG_OBJECTS),
    "qty": lambda rng, sp: rng.choice(RECIPE_QTY),
    "hdate": lambda rng, sp: _date(rng, sp, True, two_digit=rng.random() < 0.15),
    "hdate2": lambda rng, sp: _date(rng, sp, True, year=rng.randint(1930, 1999), two_digit=rng.random() < 0.4),
    "pdate": lambda rng, sp: _date(rng, sp, False),
    "odate": lambda rng, sp: _date(rng, sp, rng.random() < 0.3, year=rng.randint(2024, 2027)),
    "holiday": lambda rng, sp: (lambda h: h if sp or rng.random() < 0.4 else cap(h))(rng.choice(HOLIDAYS)),
    "event": lambda rng, sp: rng.choice(EVENTS),
    "famous": _famous,
    "fhist": lambda rng, sp: _famous(rng, sp, "hist"),
    "fmusic": lambda rng, sp: _famous(rng, sp, "music"),
    "fsport": lambda rng, sp: _famous(rng, sp, "sport"),
    "ffilm": lambda rng, sp: _famous(rng, sp, "film"),
    "fwrite": lambda rng, sp: _famous(rng, sp, "write"),
    "acro": _acro,
    "band": _band,
    "dec": lambda rng, sp: _nn(rng, sp, 1, 9) if sp else str(rng.randint(1, 9)),
}

NEG_TEMPLATES.update({
    "math": [
        "divide {:num} by {:num}", "(what's | what is | whats) {:num} divided by {:num}",
        "(what's | what is | how much is | calculate | compute | work out) {:num} (plus | minus | times | multiplied by | over) {:num}",
        "{:num} times {:num}", "{:num} (plus | minus) {:num} [equals | is]",
        "(what's | what is | find) the square root of {:num}", "square root of {:num}",
        "(convert | change) {:num} {:cur} (to | into) {:cur}", "how much is {:money} in {:cur}",
        "(what's | what is) {:pct} percent of {:num}", "{:pct} percent of {:num}",
        "(what's | calculate) a {:pct} percent tip on {:money}", "split {:money} (between | among) {:small} people",
        "(what's | what is) {:num} (squared | cubed)", "{:num} to the power of {:small}",
        "(add | multiply) {:num} (and | by) {:num}", "subtract {:num} from {:num}",
        "(convert | change) {:num} {:unitw} (to | into) {:unitw}", "how many {:unitw} (in | are in) {:num} {:unitw}",
        "(is | isn't) {:num} a prime number", "is {:num} (even | odd | divisible by {:small})",
        "round {:num} to the nearest (ten | hundred | thousand | whole number)",
        "what's {:expr}", "{:expr}", "(calculate | compute | solve) {:expr} [for me | please]",
        "what (does | do) {:expr} (equal | make | come to)", "(quick | simple) math {:expr}",
        "what's the average of {:num} {:num} and {:num}", "(double | halve | triple) {:num}",
        "how many times does {:small} go into {:num}", "what's {:num} (minus | less) {:pct} percent",
        "(what is | what's) {:dec} over {:dec} as a (percent | decimal)", "count (to | down from) {:n}",
        "what's the tax on {:money}", "if i save {:money} a (week | month) how much is that in a year",
    ],
    "media_numbers": [
        "skip (ahead | forward | back | backwards) {:n} seconds", "(rewind | fast forward) {:n} (seconds | minutes)",
        "play (track | song | episode | chapter | part | level) {:n}", "(go | jump | skip) to (track | chapter | episode | page) {:n}",
        "(turn | switch | change | go) to channel {:dseq}", "put on channel {:n}",
        "what's on channel {:dseq} (tonight | right now)", "(is | was) flight {:flight} (delayed | on time | cancelled)",
        "(when | where) does flight {:flight} (land | arrive | board)", "track flight {:flight}",
        "when does the (number | route) {:dseq} bus (come | leave | get here)", "(is | are) the {:dseq} bus running late",
        "the {:dseq} (bus | train | tram) is (late | delayed) again", "take the {:n} bus to the (station | center)",
        "(my | our) favorite number is {:n}", "(my | his | her) (lucky | favorite) number is {:dseq}",
        "the (meeting | class | lecture) is in room {:dseq}", "(we're | we are) (staying | sleeping) in room {:dseq} at the hotel",
        "the score was {:n} to {:n}", "(the lakers | the yankees | arsenal | the patriots | the team) won {:n} to {:n}",
        "(it | that) (costs | cost | was) {:money}", "(the | this) (jacket | tv | ticket | pizza) (is | costs) {:money}",
        "it's {:temp} (outside | today | in here)", "(preheat | set) the oven to {:temp}", "the high (today | tomorrow) is {:temp}",
        "(add | mix in | you need) {:n} {:qty}", "the recipe (says | needs | calls for) {:n} {:qty}", "{:n} {:qty} and {:n} {:qty}",
        "i have {:n} {:obj}", "there (are | were) {:num} {:obj}", "(read | open) page {:n}", "chapter {:n} verse {:n}",
        "take exit {:n} (off | on) (the highway | route {:n})", "(i'm | we're) on highway {:n}",
        "(the | this) (building | bridge | castle | tree) is (about | over) {:n} years old",
        "(this | that) (wine | whiskey | cheese) is {:n} years old", "(that | the) song came out {:n} years ago",
        "(my | the) (car | laptop | fridge) is {:small} years old", "i walked {:big} steps today",
        "the population is (about | around) {:big}", "(the | this) movie (is | runs) {:num} minutes long",
        "(turn | set) the volume to {:small}", "set (the | a) timer for {:n} minutes",
        "it's {:small} (thirty | fifteen | forty five)", "wake me up at {:small} [am | pm]",
        "the (game | match | show) starts at {:small} [o'clock]", "(i | we) (scored | got) {:num} points",
        "the speed limit (here) is {:n}", "(episode | season) {:n} of (friends | the office | lost)",
        "(play | put on) the (top | best) {:n} (songs | hits)", "what (were | are) the top {:n} (songs | movies) (in | of) {:year}",
        "(i need | order | buy) {:n} (rolls of tape | boxes | bags of rice | packs of batteries)",
        "(the | my) (package | order) (weighs | is) {:n} (pounds | kilos | grams)", "(set | turn) the thermostat to {:temp}",
        "(my | the) (kids | class) (counted | can count) to {:big}", "the (lottery | winning) numbers were {:n} {:n} {:n} and {:n}",
        "the answer is {:num}", "(i | we) got {:n} out of {:n} on the (quiz | test)", "apollo {:n}", "(iphone | windows | version) {:n}",
        "(it | the stock) (went | is) (up | down) {:pct} percent", "(i'm | i am) {:n} (minutes | blocks) away",
        "(i | we) need {:n} (more | extra) (chairs | plates | tickets)", "call of duty {:n}",
    ],
    "history_dates": [
        "what happened on {:hdate}", "what (happened | took place) on {:pdate} [in history]",
        "what (happened | took place) on {:hdate2} in history", "(on | in) {:hdate} (the | a) (war | treaty | revolution | strike) (began | ended | was signed)",
        "why is {:hdate} (important | famous | remembered)", "(what | which) (battle | treaty | event) (was | happened) on {:hdate}",
        "when was {:event}", "when did {:event} (happen | start | end | take place)", "what year was {:event}",
        "{:event} (was | happened | took place) on {:hdate}", "{:event} (began | ended | started) (on | in) {:hdate}",
        "(tell me about | what caused | who won) {:event}", "how long did {:event} last",
        "what day is {:holiday} on [this year | next year]", "(when | what date) is {:holiday} [this year | next year]",
        "is {:holiday} on a (monday | tuesday | wednesday | thursday | friday | saturday | sunday) [this year]",
        "how many days (until | till | to) {:holiday}", "{:holiday} (is | falls) on {:pdate} [this year]",
        "why do we celebrate {:holiday} on {:pdate}", "(is | isn't) {:pdate} {:holiday}",
        "valentine's day is (on) {:pdate}", "christmas is on a (monday | friday | sunday | wednesday) this year",
        "(this day in history | on this day) {:pdate}", "what famous events happened in {:year}",
        "(the | a) (ship | plane | train) (sank | crashed | arrived) on {:hdate}",
        "what happened on {:hdate2} [in the news | in sports]", "(the | our) (concert | game | meeting | flight | trip) is on {:odate}",
        "(my | the) (dentist | doctor's | hair) appointment is on {:odate}", "the deadline is {:odate}",
        "remind me (on | about) {:odate}", "(book | reserve) a table for {:odate}", "the (party | wedding) is on {:odate}",
        "(school | term) starts on {:odate}", "(we | i) moved here on {:hdate2}", "the (store | restaurant) opened on {:hdate2}",
        "which famous people were born on {:pdate}", "who was born on {:pdate} in history", "{:famous} was born on {:hdate}",
        "{:famous} died on {:hdate}", "when (is | was) {:famous} 's birthday", "{:famous} 's birthday is {:pdate}",
        "(on | by) {:hdate} the (colony | city | country) had (grown | fallen | declared independence)",
        "the (first | last) (episode | book | album) came out on {:hdate2}", "the (treaty | law | act) was signed {:hdate}",
        "in {:year} (the | a) (war | plague | revolution | gold rush) (began | ended | broke out)",
    ],
    "famous_people": [
        "where did {:famous} grow up", "(who | what) was {:famous}", "when did {:fhist} (die | live | rule)",
        "(what | which) (songs | albums) did {:fmusic} (write | release | record)", "play (something | songs | the best songs) by {:fmusic}",
        "(how | where) did {:famous} die", "how tall (is | was) {:famous}", "is {:famous} still alive",
        "how many (goals | titles | championships | medals | rings) did {:fsport} (score | win)",
        "(what | which) movies (was | is) {:ffilm} in", "who played {:fhist} in the movie", "(play | put on) a {:ffilm} movie",
        "what was {:famous} 's first (album | movie | book | job)", "(read | tell) me a quote (from | by) {:famous}",
        "(tell me | give me) (some | three) facts about {:famous}", "(i'm | i am) reading a (biography | book) (of | about) {:famous}",
        "my (favorite | favourite) (singer | actor | painter | scientist | writer | athlete | poet) is {:famous}",
        "{:famous} (was | is) (born | raised) in (england | america | france | a small town)",
        "{:famous} was {:n} when (they | he | she) (died | became famous | wrote it)", "{:famous} died at (the age of | age) {:n}", "how old was {:famous} when (he | she | they) died",
        "did {:famous} (have kids | go to college | play an instrument | speak french)", "what instrument did {:fmusic} play",
        "(what | which) books did {:fwrite} write", "(read | play) (me) the audiobook by {:fwrite}",
        "(who | what) (inspired | influenced) {:famous}", "(was | is) {:famous} (married | rich | british | american)",
        "what did {:fhist} (invent | discover | write | say)", "is there a (movie | documentary) about {:famous}",
        "who (was | is) older {:famous} or {:famous}", "(what | which) team did {:fsport} play for",
        "(listen to | shuffle) {:fmusic}", "(i | we) saw {:fmusic} in concert", "what's {:famous} 's real name",
        "{:fhist} (wrote | built | painted | discovered | said) that", "how did {:fhist} become famous",
    ],
    "health_questions": [
        "what causes {:cond}", "is {:cond} (genetic | hereditary | contagious | curable | serious | common | dangerous)",
        "(what are the) (symptoms | signs | early signs | warning signs) of {:cond}", "how is {:cond} (treated | diagnosed | prevented)",
        "can {:cond} be (cured | prevented | reversed)", "what is {:med} (used for | prescribed for | made of)",
        "is {:med} safe (during pregnancy | for kids | to take daily | long term)", "how does {:med} work",
        "what's the difference between {:med} and {:med}", "can you drink alcohol (on | with) {:med}",
        "how many people (have | get) {:cond}", "what foods (help with | are good for | are bad for) {:cond}",
        "who discovered {:med}", "is there a (vaccine | cure | test) for {:cond}", "what (kind of | type of) doctor treats {:cond}",
        "(tell me about | explain) {:cond}", "can stress cause {:cond}", "does {:cond} go away (on its own)",
        "how long does {:cond} last", "what's the (normal | usual | maximum) dose of {:med}", "is {:med} a (steroid | painkiller | antibiotic)",
        "(how | when) was {:med} (invented | discovered | approved)", "what does {:med} do", "does {:med} (cause | help with) weight (gain | loss)",
        "{:cond} awareness (month | week) is in (may | november | october)", "what's the (life expectancy | survival rate) (for | with) {:cond}",
        "are (men | women | kids | older people) more likely to get {:cond}", "how do (doctors | you) test for {:cond}",
        "what are the side effects of {:med}", "is {:med} (over the counter | prescription only)",
        "what is the generic name for {:med}", "who (first described | discovered | named) {:cond}",
    ],
    "letters": [
        "what does {:acro} stand for", "what (is | does) {:acro} mean", "(what's | what is) (an | a) {:acro}",
        "(play | put on | shuffle) [some | the new album by | songs by] {:band}", "(i love | do you like) {:band}",
        "(who | how many people) (is | are) in {:band}", "when did {:band} (start | break up | release their first album)",
        "(sing | play) the (a b c | alphabet) song", "(watch | turn on) {:acro} (news | sports)",
        "how do i find my (i b a n | ip address | account number | s s n | social security number | routing number)",
        "how do i (reset | change) my (pin | password | wifi password | p i n)", "what makes a (good | strong) (password | pin)",
        "(i | we) forgot (my | the) (pin | password | wifi password) what do i do", "is it safe to (share | tell someone) my {:acro}",
        "(do i | does everyone) (need | have) (an | a) {:acro}", "how (long | many digits) (is | are) (a | an) (s s n | pin | i b a n | account number)",
        "where do i find the (pin | password) on my (router | card)", "what's the (format | length) of a (u k | german | french) (i b a n | postcode)",
        "spell {:acro}", "how do you spell (cat | dog | bts | pizza)", "(the | an) {:acro} (is | was) (down | offline | broken)",
        "is my (password | pin) (strong | secure) enough", "what (happens | should i do) if someone steals my (ssn | s s n | social security number | identity)",
    ],
})
NEG_WEIGHTS = {"public_figure": 5, "relative": 5, "health_general": 4, "well_known_ip": 4, "city": 5,
               "business": 4, "numbers": 5, "math": 12, "media_numbers": 14, "history_dates": 14,
               "famous_people": 12, "health_questions": 9, "letters": 7}


def neg_fill(rng, kind, sp):
    if kind in NEG_FILL:
        return NEG_FILL[kind](rng, sp)
    if kind == "celeb":
        v = rng.choice(CELEBS)
    elif kind == "rel":
        v = rng.choice(RELATIONS)
    elif kind == "cond":
        v = pick(rng, CONDITIONS, WN_CONDITIONS, 0.3)
    elif kind == "med":
        v = pick(rng, MEDS, WN_MEDS, 0.3)
    elif kind == "wkip":
        v = rng.choice(["8.8.8.8", "1.1.1.1", "127.0.0.1", "0.0.0.0", "255.255.255.255", "8.8.4.4"])
        if sp:
            v = " dot ".join(digits_spoken(o, rng, groups=False) if rng.random() < 0.5 else nw(int(o)) for o in v.split("."))
    elif kind == "city":
        v = pick(rng, PLACES, WN_CITIES, 0.3)
    elif kind == "biz":
        v = rng.choice(BUSINESSES)
    elif kind == "year":
        y = rng.randint(1066, 1999)
        v = year_words(y, rng) if sp else str(y)
    else:
        v = kind
    if not sp and kind in ("celeb", "city", "biz") and rng.random() < 0.6:
        v = cap(v)
    return v


# ----------------------------------------------------------------------------------------
# Broader positives (v2): how people actually hand over personal data. More account kinds and
# formats (letters+digits, dashes, spoken letter names and digit pairs), cues before and after the
# value, names in unusual positions and from many cultures (also names that are ordinary words),
# places tied to people in everyday carriers, health in appointment/pharmacy/school/work/diet/claim
# carriers, and run-on lines mixing two or three types. All new lexicons and carriers written here.

FIRST_V2 = """adwoa kwabena nkechi chukwuemeka ayodele folake themba lindiwe wairimu otieno abdi hodan selam
tesfaye aarav ishaan meera lakshmi harpreet gurpreet sanjay nandini farhan tahmina minji jisoo hiroko
ren haruka thanh linh duc yousef leila dariush shirin nour ziad hamza aylin emre burak aleksander
wojciech malgorzata ilse jorien sven annelie margit radek vesna dragan ioana mihai sorin eleni yannis
nikos guadalupe ximena rodrigo joaquin valeria camila thiago leticia tane moana mere wiremu ahanu kaya
bethany kieran tamsin bronwyn duncan hamish graham dorothy eileen harold walter imogen rupert fergus
oisin grainne magnus sigrid tove liesel anouk bram pieter kasia bogdan zofia anahit tigran nodira
rustam bakhyt aigerim temuulen odval sione losa malia kalolaine tevita arohanui precious blessing
chinedu ngozi tendai farai rudo kagiso lerato dumisani nomvula asha juma baraka neema zawadi""".split()
WORD_NAMES = """rose jordan paris hope grace june april autumn sky river dawn faith joy ivy daisy holly jade
amber crystal brooke chase carter tyler austin dallas sydney savannah georgia victoria chelsea florence
madison india will bill mark frank pat sue rich rob don guy earl destiny honor sunny summer winter
storm reed wren robin faye iris poppy hazel""".split()
LAST_V2 = """ogunleye nwosu asante boateng mensah achebe desta haile wanjiku kariuki bhattacharya reddy pillai
nair kobayashi matsumoto liu wu zhou xu lim tan ng le vu dang kaya celik aydin nasser farah mansour
saleh cohen levi friedman kowalczyk lewandowski horvat kovac petrovic jovanovic ionescu georgiou
papadopoulos lindgren virtanen korhonen o'connell macleod fraser cunningham baptiste guerrero medina
salazar aguilar delgado nunez tupou ngata whaanga begay yazzie stone brooks hill banks rivers king
young price fox wolf bird english french rice bell cook moss frost hale marsh summers winters
abdullahi okoye eze adebayo tshabalala ndlovu dlamini moyo chikwanha mutasa rasmussen jakobsen
gudmundsson halvorsen dvorak novotny szabo nagy toth kaczmarek zielinski""".split()
TITLES = ["mr", "mrs", "ms", "miss", "dr", "doctor", "professor", "coach", "auntie", "uncle", "nurse", "pastor"]
FIRST += FIRST_V2 + WORD_NAMES
LAST += LAST_V2

CONDITIONS_V2 = [
    "hidradenitis suppurativa", "eosinophilic esophagitis", "mast cell activation syndrome",
    "ankylosing spondylitis", "polymyalgia rheumatica", "idiopathic intracranial hypertension",
    "guillain barre syndrome", "charcot marie tooth disease", "fabry disease", "wilson's disease",
    "hereditary hemochromatosis", "factor five leiden", "von willebrand disease", "lichen sclerosus",
    "pernicious anemia", "chronic kidney disease", "congestive heart failure", "a pulmonary embolism",
    "deep vein thrombosis", "dvt", "supraventricular tachycardia", "long qt syndrome", "prediabetes",
    "fatty liver disease", "cirrhosis", "hepatitis b", "restless legs syndrome", "essential tremor",
    "dysautonomia", "lipedema", "keratoconus", "retinitis pigmentosa", "a detached retina", "otosclerosis",
    "tmj", "osteoarthritis", "spina bifida", "cerebral palsy", "down syndrome", "fragile x syndrome",
    "dyspraxia", "dyscalculia", "selective mutism", "borderline personality disorder",
    "generalized anxiety disorder", "panic disorder", "postnatal depression", "alcohol use disorder",
    "binge eating disorder", "whooping cough", "hand foot and mouth disease", "scarlet fever", "head lice",
    "pink eye", "an ear infection", "a urinary tract infection", "a uti", "the flu", "covid", "strep",
    "a sprained ankle", "a fractured hip", "a slipped disc", "tendonitis", "carpal tunnel syndrome",
    "frozen shoulder", "gallbladder disease", "a hiatal hernia", "barrett's esophagus", "sickle cell disease",
    "thyroid cancer", "ovarian cancer", "colon cancer", "stage two breast cancer", "non hodgkin lymphoma",
    "a brain tumor", "hydrocephalus", "sleep paralysis", "night terrors", "a shellfish allergy",
    "a bee sting allergy", "a latex allergy", "a nut allergy", "an egg allergy", "a sesame allergy",
    "severe asthma", "exercise induced asthma", "type two diabetes", "early onset alzheimer's",
    "mild cognitive impairment", "a heart arrhythmia", "high cholesterol", "low blood pressure",
    "an underactive thyroid", "an overactive bladder", "kidney failure", "a blood clot", "shingles",
    "juvenile arthritis", "hay fever", "chronic sinusitis", "a chest infection", "gastroenteritis",
    "norovirus", "hives", "psoriatic arthritis", "osteopenia", "myalgic encephalomyelitis",
    "functional neurological disorder", "complex regional pain syndrome", "trigeminal neuralgia",
    "a torn rotator cuff", "a stress fracture", "tennis elbow", "a rare form of epilepsy",
]
MEDS_V2 = """prednisolone hydrocortisone amitriptyline nortriptyline duloxetine paroxetine vortioxetine atomoxetine
guanfacine lisdexamfetamine vyvanse concerta topiramate zonisamide carbamazepine oxcarbazepine phenytoin
enoxaparin heparin dabigatran edoxaban ramipril enalapril candesartan irbesartan nifedipine diltiazem
verapamil atenolol carvedilol rosuvastatin ezetimibe metronidazole clarithromycin cephalexin trimethoprim
fluconazole terbinafine oseltamivir tamiflu lantus novorapid mounjaro tirzepatide jardiance januvia
eliquis xarelto synthroid eltroxin plaquenil stelara dupixent entyvio ocrevus copaxone tecfidera keppra
lamictal depakote seroquel abilify wellbutrin lexapro cymbalta effexor ventolin symbicort spiriva flovent
singulair flonase nasonex creon lactulose movicol senna loperamide imodium sucralfate famotidine gaviscon
benzonatate hydroxyzine promethazine meclizine betahistine propantheline oxybutynin mirabegron
alendronate denosumab teriparatide raloxifene spironolactone isotretinoin minocycline""".split()
MEDS_V2 += ["folic acid", "vitamin b twelve injections", "iron infusions", "insulin glargine", "an inhaler",
            "a steroid inhaler", "blood thinners", "sleeping pills", "antidepressants", "antibiotics",
            "hrt", "nicotine patches", "eye drops for glaucoma", "a nebulizer"]
CONDITIONS += [c for c in CONDITIONS_V2 if c not in CONDITIONS]
MEDS += [m for m in MEDS_V2 if m not in MEDS]

PLACE_STEMS_V2 = ["brightwater", "larkspur", "hollybrook", "kestrel", "ferncliff", "ashgrove", "bellhaven",
                  "oak hollow", "two rivers", "pinehurst", "saint agnes", "st bridget's", "saint columba's",
                  "holy trinity", "holy cross", "sacred heart", "our lady of lourdes", "bramblewood", "cloverfield",
                  "heron bay", "marigold", "juniper hill", "windmill lane", "quarry bank", "millbrook", "sunrise",
                  "little acorns", "tiny steps", "bluebell", "evergreen", "summit", "peak", "northside", "southside",
                  "eastside", "westside", "valley view", "meadowlark", "harbourside", "orchard park", "rosewood",
                  "tallow creek", "st wilfrid's", "kingfisher", "silver birch", "greenacres", "foxwood"]
PLACE_NOUNS_V2 = {
    "school": ["elementary", "primary", "middle school", "high", "preschool", "kindergarten", "day nursery",
               "daycare", "childcare center", "prep school", "sixth form college", "charter school", "junior school"],
    "health": ["medical center", "family practice", "health centre", "physiotherapy", "physio clinic", "dental",
               "orthodontics", "urgent care", "eye clinic", "surgery", "rehab center", "hospice", "memory care",
               "cancer center", "children's clinic", "medical group", "pediatrics"],
    "care": ["senior living", "care home", "nursing home", "residential home", "assisted living", "manor"],
    "gym": ["crossfit", "fitness", "pilates studio", "swim club", "athletic club", "martial arts academy",
            "dance academy", "boxing gym", "climbing wall", "leisure centre", "running club", "judo club"],
    "faith": ["community church", "fellowship", "parish", "gurdwara", "mosque", "baptist church",
              "methodist church", "synagogue", "kingdom hall", "chapel", "cathedral"],
    "club": ["country club", "rugby club", "cricket club", "golf club", "sailing club", "chess club",
             "social club", "bowls club", "youth club", "scout group"],
    "work": ["logistics", "hardware", "motors", "credit union", "accounting", "law group", "architects",
             "animal hospital", "bakery", "labs", "solutions", "manufacturing", "distribution center",
             "warehouse", "engineering", "dental lab", "print shop", "garden centre", "auto repair"],
}


def _written_name(rng, s):
    return cap(s) if rng.random() < 0.8 else s


def _spelt(word, rng, sp):
    # Letter by letter, as people spell a name for the recognizer: "j o h n", typed "J-O-H-N" or "j o h n".
    letters = [c for c in word if c.isalpha()]
    if sp:
        return " ".join(letters)
    return rng.choice(["-", " ", "."]).join(c.upper() if rng.random() < 0.5 else c for c in letters)


def p_person_v2(rng, sp):
    r = rng.random()
    if r < 0.25:
        return p_person(rng, sp)
    if r < 0.29:  # spelt letter by letter (issue 19: the rules recognize these as PERSON too)
        f = rng.choice(FIRST_V2 + FIRST)
        parts = [f] if rng.random() < 0.6 else [f, rng.choice(LAST_V2 + LAST)]
        return [(" ".join(_spelt(x, rng, sp) for x in parts), "PERSON")]
    pool_first = FIRST_V2 if rng.random() < 0.6 else (WORD_NAMES if rng.random() < 0.5 else FIRST)
    f = pick(rng, pool_first, CMU_NAMES, 0.12)
    l = pick(rng, LAST_V2 if rng.random() < 0.6 else LAST, CMU_NAMES, 0.3)
    r = rng.random()
    name = f if r < 0.5 else (f + " " + l if r < 0.9 else l)
    if not sp:
        name = _written_name(rng, name)
    return [(name, "PERSON")]


def p_pfirst(rng, sp):
    f = rng.choice(FIRST_V2 + WORD_NAMES + FIRST)
    return [(f if sp else _written_name(rng, f), "PERSON")]


def p_pword(rng, sp):
    f = rng.choice(WORD_NAMES)
    if rng.random() < 0.3:
        f += " " + rng.choice(LAST_V2 + LAST)
    return [(f if sp else _written_name(rng, f), "PERSON")]


def p_ptitle(rng, sp):
    t = rng.choice(TITLES)
    l = rng.choice(LAST_V2 + LAST)
    if rng.random() < 0.15:
        l = rng.choice(FIRST_V2 + FIRST) + " " + l
    if sp:
        return [(t, None), (l, "PERSON")]
    tw = {"mr": "Mr.", "mrs": "Mrs.", "ms": "Ms.", "dr": "Dr."}.get(t, t.capitalize()) if rng.random() < 0.6 else t.capitalize()
    return [(tw, None), (_written_name(rng, l), "PERSON")]


def _pairs_spoken(s, rng):
    """Digit string read in pairs/groups the way people read account numbers aloud."""
    out = []
    i = 0
    while i < len(s):
        if len(s) - i >= 2 and rng.random() < 0.6:
            g = s[i:i + 2]
            out.append(nw(int(g)) if g[0] != "0" else ("oh " if rng.random() < 0.7 else "zero ") + ONES[int(g[1])])
            i += 2
        else:
            out.append(digits_spoken(s[i], rng, oh=0.6))
            i += 1
    return " ".join(out)


def _spoken_digits_var(s, rng):
    r = rng.random()
    if r < 0.55:
        return digits_spoken(s, rng, oh=0.6)
    if r < 0.8:
        return _pairs_spoken(s, rng)
    return digits_spoken(s, rng, oh=0.6, groups=False)


ACCT_PREFIXES = ["MB", "AC", "PT", "LC", "CU", "ST", "EMP", "FF", "POL", "CL", "ORD", "UT", "GW", "EL", "WA",
                 "RX", "ID", "SAV", "CHK", "INS", "HC", "LIB", "RW", "NX", "K", "A", "B", "X", "Q", "Z"]


def p_account_v2(rng, sp):
    r = rng.random()
    if r < 0.2:
        return p_account(rng, sp)
    pieces = []
    if r < 0.45:      # digits in groups: 44-1029-77, 1812 2669 41
        sizes = rng.choice([[2, 4, 2], [4, 4, 2], [3, 3, 3], [4, 4], [3, 4], [2, 6], [4, 3, 3], [5, 5], [4, 4, 4], [2, 2, 4]])
        groups = [_digits(rng, n) for n in sizes]
        letters = ""
    elif r < 0.85:    # letters + digits: MB-1234567, AC 44-1029-77, PT00482913, RX7731902
        letters = rng.choice(ACCT_PREFIXES) if rng.random() < 0.7 else "".join(
            rng.choice("ABCDEFGHJKLMNPRSTUVWXYZ") for _ in range(rng.randint(1, 3)))
        if rng.random() < 0.35:
            groups = [_digits(rng, rng.choice([2, 3, 4])) for _ in range(rng.randint(2, 3))]
        else:
            groups = [_digits(rng, rng.randint(5, 10))]
    else:             # long plain digits, or mixed alphanumerics 4KX9-27731
        letters = ""
        if rng.random() < 0.5:
            groups = [_digits(rng, rng.randint(7, 14))]
        else:
            g = "".join(rng.choice("0123456789ABCDEFGHJKLMNPRTUVWXY") for _ in range(rng.randint(4, 6)))
            groups = [g, _digits(rng, rng.randint(3, 6))]
    if sp:
        words = []
        if letters:
            words.append(" ".join(letters.lower()))
            if rng.random() < 0.25:
                words.append("dash")
        gw = []
        for g in groups:
            if g.isdigit():
                gw.append(_spoken_digits_var(g, rng))
            else:
                gw.append(" ".join(c.lower() if c.isalpha() else DIGIT_WORDS[c] for c in g))
        joiner = " dash " if (len(gw) > 1 and rng.random() < 0.2) else " "
        words.append(joiner.join(gw))
        return [(" ".join(words), "ACCOUNT_NUMBER")]
    sep = rng.choice(["-", "-", " ", ""])
    body = sep.join(groups) if len(groups) > 1 else groups[0]
    if letters:
        body = letters + rng.choice(["-", "", " ", "-"]) + body
        if rng.random() < 0.15:
            body = body.lower()
    if rng.random() < 0.1:
        pieces.append(("#", None))
        pieces.append((body, "ACCOUNT_NUMBER", True))
        return pieces
    return [(body, "ACCOUNT_NUMBER")]


def p_ssn_v2(rng, sp):
    if rng.random() < 0.25:
        return p_ssn(rng, sp)
    a = rng.choice([x for x in range(1, 900) if x != 666])
    s = "%03d%02d%04d" % (a, rng.randint(1, 99), rng.randint(1, 9999))
    g = [s[:3], s[3:5], s[5:]]
    if sp:
        r = rng.random()
        if r < 0.5:
            return [(" ".join(digits_spoken(x, rng, oh=0.6) for x in g), "SSN")]
        if r < 0.75:
            return [(digits_spoken(g[0], rng, oh=0.6) + " " + _pairs_spoken(g[1], rng) + " " + _pairs_spoken(g[2], rng), "SSN")]
        if r < 0.85:
            return [(" dash ".join(digits_spoken(x, rng, oh=0.6) for x in g), "SSN")]
        return [(digits_spoken(s, rng, oh=0.6, groups=False), "SSN")]
    return [(rng.choice(["%s-%s-%s", "%s-%s-%s", "%s %s %s", "%s%s%s", "%s.%s.%s"]) % tuple(g), "SSN")]


def p_ssn4(rng, sp):
    v = _digits(rng, 4)
    return [(_spoken_digits_var(v, rng) if sp else v, "SSN")]


def p_dob_v2(rng, sp):
    if rng.random() < 0.3:
        return p_dob(rng, sp)
    y, m, d = rng.randint(1925, 2023), rng.randint(1, 12), rng.randint(1, 28 if rng.random() < 0.5 else 31)
    if m in (4, 6, 9, 11) and d == 31:
        d = 30
    if m == 2 and d > 28:
        d = 28
    mon = MONTHS[m - 1]
    r = rng.random()
    if sp:
        yw = year_words(y, rng) if rng.random() < 0.6 else (nw(y % 100) if y % 100 >= 10 else "oh " + ONES[y % 100])
        if r < 0.25:
            s = "the " + ordinal_words(d) + " of " + mon + (" " + yw if rng.random() < 0.7 else "")
        elif r < 0.45:
            s = mon + " " + ("the " if rng.random() < 0.3 else "") + ordinal_words(d) + (" " + yw if rng.random() < 0.6 else "")
        elif r < 0.6:
            s = ordinal_words(d) + " of " + mon + (" " + yw if rng.random() < 0.6 else "")
        elif r < 0.8:
            mm = nw(m) if rng.random() < 0.6 else ("oh " + ONES[m] if m < 10 else nw(m))
            s = mm + " " + nw(d) + " " + yw
        else:
            s = mon + " " + nw(d) + " " + yw
        return [(s, "DATE_OF_BIRTH")]
    yy = "%02d" % (y % 100)
    fmts = ["%d/%d/%s" % (m, d, yy), "%02d/%02d/%d" % (d, m, y), "%d.%d.%d" % (d, m, y), "%02d-%02d-%d" % (m, d, y),
            "%d/%02d/%02d" % (y, m, d), "%s %d %d" % (cap(mon)[:3], d, y), "%s %s, %d" % (cap(mon), ordinal_suffix(d), y),
            "%s %s" % (ordinal_suffix(d), cap(mon)), "%d %s %s" % (d, cap(mon)[:3], yy), "%s %d" % (mon, d),
            "%s of %s %d" % (ordinal_suffix(d), cap(mon), y)]
    return [(rng.choice(fmts), "DATE_OF_BIRTH")]


def p_age_kid(rng, sp):
    a = rng.randint(1, 17)
    return [(nw(a) if sp else (str(a) if rng.random() < 0.85 else nw(a)), "AGE")]


def p_age_v2(rng, sp):
    a = rng.choice([rng.randint(1, 17), rng.randint(18, 64), rng.randint(65, 104), rng.randint(1, 12)])
    return [(nw(a, rng) if sp else (str(a) if rng.random() < 0.9 else nw(a)), "AGE")]


PW_WORDS_V2 = """kettle marmalade lighthouse saffron tortoise hedgehog zeppelin walrus cactus pistachio
glacier harbor lantern meadow nutmeg origami quokka rhubarb starling tangerine umbrella willow""".split()
SYM_SPOKEN = {"!": "exclamation mark", "#": "hash", "$": "dollar sign", "@": "at sign", "&": "and sign",
              "*": "star", "_": "underscore", "-": "dash", ".": "dot", "?": "question mark"}


def p_secret_v2(rng, sp):
    r = rng.random()
    if r < 0.2:
        return p_secret(rng, sp)
    if r < 0.55:   # door / garage / alarm / phone unlock codes
        v = _digits(rng, rng.choice([4, 4, 5, 6, 6, 7, 8]))
        if sp:
            return [(_spoken_digits_var(v, rng) if rng.random() < 0.8 else nw(int(v[:2])) + " " + nw(int(v[2:4])) if len(v) == 4 and v[0] != "0" and v[2] != "0" else digits_spoken(v, rng), "PIN_OR_PASSWORD")]
        return [(v, "PIN_OR_PASSWORD")]
    w, w2 = rng.choice(PW_WORDS_V2 + PW_WORDS), rng.choice(PW_WORDS_V2 + PW_WORDS)
    n = str(rng.randint(0, 999))
    sym = rng.choice(list(SYM_SPOKEN))
    if sp:
        parts = []
        if rng.random() < 0.3:
            parts.append(rng.choice(["capital", "uppercase", "big"]) + " " + w)
        else:
            parts.append(w)
        if rng.random() < 0.5:
            parts.append(w2)
        parts.append(digits_spoken(n, rng, oh=0.3) if rng.random() < 0.6 else nw(int(n)))
        if rng.random() < 0.5:
            parts.append(SYM_SPOKEN[sym])
        return [(" ".join(parts), "PIN_OR_PASSWORD")]
    leet = w.replace("e", "3").replace("o", "0") if rng.random() < 0.3 else w
    forms = [leet.capitalize() + sym + n, w + sym + w2 + n, w.capitalize() + w2.capitalize() + sym + n,
             n + w + sym, w + "-" + w2 + "-" + rng.choice(PW_WORDS_V2), leet + n + sym + sym,
             "".join(rng.choice("abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789!#$%&*") for _ in range(rng.randint(8, 16))).strip("!#$%&*") or "Xk29fj7q"]
    s = rng.choice(forms)
    if not s[-1].isalnum() and rng.random() < 0.5:
        s = s.rstrip("!#$%&*?.-_@") or s
    return [(s, "PIN_OR_PASSWORD")]


def p_phone_v2(rng, sp):
    r = rng.random()
    if r < 0.25:
        return p_phone(rng, sp)
    if r < 0.5:    # UK mobile / landline
        if rng.random() < 0.6:
            g = ["7" + _digits(rng, 3), _digits(rng, 6)]
        else:
            g = rng.choice([["20", _digits(rng, 4), _digits(rng, 4)], ["161", _digits(rng, 3), _digits(rng, 4)],
                            ["1632", _digits(rng, 6)], ["113", _digits(rng, 3), _digits(rng, 4)]])
        intl = rng.random() < 0.4
        if sp:
            head = rng.choice(["plus four four", "double oh four four"]) if intl else rng.choice(["oh", "zero"])
            return [(head + " " + " ".join(_spoken_digits_var(x, rng) for x in g), "PHONE")]
        if intl:
            return [(rng.choice(["+44 ", "+44 (0)", "0044 "]) + " ".join(g), "PHONE")]
        if len(g) == 3 and rng.random() < 0.4:
            return [("(0%s) %s %s" % tuple(g), "PHONE")]
        return [("0" + " ".join(g) if rng.random() < 0.8 else "0" + "".join(g), "PHONE")]
    if r < 0.75:   # international
        cc, sizes = rng.choice([("49", [2, 8]), ("33", [1, 2, 2, 2, 2]), ("353", [2, 3, 4]), ("61", [1, 4, 4]),
                                ("91", [5, 5]), ("81", [2, 4, 4]), ("34", [3, 3, 3]), ("27", [2, 3, 4]),
                                ("234", [3, 3, 4]), ("64", [2, 3, 4]), ("65", [4, 4]), ("971", [2, 3, 4]),
                                ("48", [3, 3, 3]), ("46", [2, 3, 2, 2]), ("254", [3, 6]), ("63", [3, 3, 4])])
        g = [_digits(rng, n) for n in sizes]
        g[0] = str(rng.randint(1, 9)) + g[0][1:]
        if sp:
            head = "plus " if rng.random() < 0.8 else "double oh "
            return [(head + digits_spoken(cc, rng, groups=False) + " " + " ".join(_spoken_digits_var(x, rng) for x in g), "PHONE")]
        return [(rng.choice(["+", "+", "00"]) + cc + rng.choice([" ", "-"]) + rng.choice([" ", "-", ""]).join(g), "PHONE")]
    if r < 0.8:    # a local number without its area code ("five five five oh one two three", 555-0123)
        b, c = str(rng.randint(200, 999)), _digits(rng, 4)
        if sp:
            return [(_spoken_digits_var(b, rng) + " " + _spoken_digits_var(c, rng), "PHONE")]
        return [(b + rng.choice(["-", " ", ""]) + c, "PHONE")]
    # US with spoken variety / toll free / 555 style
    a = rng.choice([str(rng.randint(201, 989)), "800", "888", "877"])
    b, c = str(rng.randint(200, 999)), _digits(rng, 4)
    if sp:
        aw = ("eight hundred" if a == "800" and rng.random() < 0.5 else digits_spoken(a, rng))
        pre = "one " if (a in ("800", "888", "877") or rng.random() < 0.1) else ""
        lastw = _spoken_digits_var(c, rng) if not (c[2:] == "00" and c[1] != "0" and c[0] != "0") else nw(int(c[:2])) + " hundred"
        return [(pre + aw + " " + _spoken_digits_var(b, rng) + " " + lastw, "PHONE")]
    return [(rng.choice(["(%s) %s-%s", "%s-%s-%s", "%s.%s.%s", "1-%s-%s-%s", "+1 (%s) %s-%s", "%s %s %s"]) % (a, b, c), "PHONE")]


EMAIL_DOMAINS_V2 = ["riverbend.net", "kestrelmail.com", "lumen-labs.io", "web.de", "orange.fr", "libero.it",
                    "bigpond.com", "rediffmail.com", "shaw.ca", "comcast.net", "att.net", "sky.com", "xtra.co.nz",
                    "mail.northbay.org", "students.lakeshore.edu", "harbor-dental.com", "ox-and-finch.co.uk",
                    "pinemail.net", "tutanota.com", "seznam.cz", "wp.pl", "naver.com", "qq.com", "hotmail.co.uk",
                    "me.com", "posteo.de", "mail.ru", "kpn.nl", "telus.net", "verizon.net", "nhs.net",
                    "greenleaf-farms.org", "city-of-ashby.gov", "clinic7.health"]


def p_email_v2(rng, sp):
    if rng.random() < 0.25:
        return p_email(rng, sp)
    f = rng.choice(FIRST_V2 + WORD_NAMES + FIRST).replace(" ", "")
    l = rng.choice(LAST_V2 + LAST).replace("'", "")
    n = str(rng.choice([rng.randint(1, 99), rng.randint(1960, 2012), rng.randint(100, 999)]))
    user = rng.choice([f + "." + l, f + "-" + l, f + "_" + l + n, f[0] + "." + l, f + "." + l + "." + n,
                       l + n, f + n, f + "." + l[0], f[:3] + l[:4], "the." + l + "s", f + "and" + rng.choice(FIRST_V2),
                       rng.choice(PW_WORDS_V2) + "." + f, f + "." + l + "-" + rng.choice(["work", "home", "uk", "nyc"]),
                       "info." + l, l + "." + f + n])
    dom = rng.choice(EMAIL_DOMAINS_V2 + EMAIL_DOMAINS)
    if not sp:
        e = user + "@" + dom
        return [(e, "EMAIL")]
    out = []
    for part in re.findall(r"[a-z]+|\d+|[._\-@]", user + "@" + dom):
        if part.isdigit():
            out.append(digits_spoken(part, rng, groups=False) if rng.random() < 0.5 or len(part) > 2 else nw(int(part)))
        else:
            out.append({".": "dot", "_": "underscore", "-": rng.choice(["dash", "dash", "hyphen"]), "@": "at"}.get(part, part))
    return [(" ".join(out), "EMAIL")]


STREETS_V2 = """larkspur foxglove primrose bramble heather thistle kingfisher sparrow wren partridge heron
fenwick ashby holbrook marlowe tennyson wordsworth shelley byron kepler newton faraday darwin cartwright
wheelwright cooper tanner fletcher chandler mason weaver quarry tannery ferry wharf canal lock abbey
priory chapel vicarage rectory manor grange""".split()
ST_SUFFIX_V2 = ["close", "mews", "gardens", "walk", "rise", "hill", "green", "square", "loop", "run", "point", "heights"]
TOWNS_V2 = [("kendal", "LA9 4PT"), ("ashby", "LE65 1AB"), ("truro", "TR1 2HE"), ("hexham", "NE46 3LS"),
            ("ludlow", "SY8 1AZ"), ("whitby", "YO21 1DH"), ("penrith", "CA11 7YE"), ("bangor", "LL57 2DG")]
US_TOWNS_V2 = [("tacoma", "WA", "washington"), ("dayton", "OH", "ohio"), ("fresno", "CA", "california"),
               ("reno", "NV", "nevada"), ("duluth", "MN", "minnesota"), ("savannah", "GA", "georgia"),
               ("bozeman", "MT", "montana"), ("flagstaff", "AZ", "arizona"), ("macon", "GA", "georgia"),
               ("akron", "OH", "ohio"), ("missoula", "MT", "montana"), ("asheville", "NC", "north carolina")]


def _postcode_spoken(pc, rng):
    return " ".join(c.lower() if c.isalpha() else DIGIT_WORDS[c] for c in pc.replace(" ", ""))


def p_address_v2(rng, sp):
    if rng.random() < 0.25:
        return p_address(rng, sp)
    num = rng.choice([rng.randint(1, 60), rng.randint(100, 999), rng.randint(1000, 19999)])
    street = rng.choice(STREETS_V2 + STREETS)
    suf = rng.choice(ST_SUFFIX_V2 + ST_SUFFIX)
    uk = rng.random() < 0.4
    unit_kind = rng.choice(["apartment", "apt", "unit", "flat", "suite", "number"]) if rng.random() < 0.35 else None
    unit_n = rng.randint(1, 40)
    unit_l = rng.choice(["", "", "a", "b", "c"])
    unit_first = unit_kind in ("flat", "apartment") and rng.random() < 0.5
    tail = rng.random()
    if uk:
        town, pc = rng.choice(TOWNS_V2)
    else:
        town, st, stw = rng.choice(US_TOWNS_V2)
        zipc = _digits(rng, 5) + ("-" + _digits(rng, 4) if rng.random() < 0.2 else "")
    if sp:
        if num >= 1000 and rng.random() < 0.6:
            hi, lo = divmod(num, 100)
            ns = nw(hi) + " " + (nw(lo) if lo >= 10 else ("oh " + ONES[lo] if lo else "hundred"))
        else:
            ns = nw(num, rng) if rng.random() < 0.7 else digits_spoken(str(num), rng)
        uk_w = "apartment" if unit_kind == "apt" else unit_kind
        unit = (uk_w + " " + nw(unit_n) + (" " + unit_l if unit_l else "")) if unit_kind else ""
        s = ns + " " + street + " " + suf
        if unit:
            s = unit + " " + s if unit_first else s + " " + unit
        if tail < 0.7:
            s += " " + town
            if uk and tail < 0.45:
                s += " " + _postcode_spoken(pc, rng)
            elif not uk and tail < 0.45:
                s += " " + stw + (" " + digits_spoken(zipc[:5], rng, groups=False) if tail < 0.3 else "")
        return [(s, "ADDRESS")]
    sfx = ST_ABBR.get(suf, cap(suf)) if rng.random() < 0.4 else cap(suf)
    s = "%d %s %s" % (num, cap(street), sfx)
    if unit_kind:
        uw = {"apartment": "Apt", "apt": "Apt", "unit": "Unit", "flat": "Flat", "suite": "Suite", "number": "#"}[unit_kind]
        u = (uw + ("" if uw == "#" else " ") + str(unit_n) + unit_l.upper())
        s = (u + ", " + s) if unit_first else (s + rng.choice([", ", " "]) + u)
    if tail < 0.7:
        s += ", " + cap(town)
        if uk and tail < 0.5:
            s += rng.choice([" ", ", "]) + pc
        elif not uk and tail < 0.5:
            s += ", " + st + (" " + zipc if tail < 0.35 else "")
    return [(s, "ADDRESS")]


def p_ip_v2(rng, sp):
    r = rng.random()
    if r < 0.3:
        return p_ip(rng, sp)
    if r < 0.55:
        ip = "192.168.%d.%d" % (rng.choice([0, 1, 2, 3, 4, 8, 10, 20, 68, 86, 178, 254]), rng.randint(1, 254))
    elif r < 0.7:
        ip = "10.%d.%d.%d" % (rng.choice([0, 0, 1, 10, 20, 42, 100, 200]), rng.randint(0, 255), rng.randint(1, 254))
    elif r < 0.78:
        ip = "100.%d.%d.%d" % (rng.randint(64, 127), rng.randint(0, 255), rng.randint(1, 254))
    elif r < 0.88:
        ip = "%d.%d.%d.%d" % (rng.choice([31, 45, 62, 77, 81, 86, 94, 109, 141, 176, 185, 203, 212]), rng.randint(0, 255),
                              rng.randint(0, 255), rng.randint(1, 254))
    else:
        h = lambda: "%x" % rng.randint(1, 65535)
        ip = rng.choice(["2a02:%s:%s:%s::%x" % (h(), h(), h(), rng.randint(1, 255)), "fd%02x:%s:%s::%x" % (rng.randint(0, 255), h(), h(), rng.randint(1, 255)),
                         "fe80::%s:%s:%s:%s" % (h(), h(), h(), h()), "2600:%s:%s:%s:%s:%s:%s:%s" % (h(), h(), h(), h(), h(), h(), h())])
    return [(ip if not sp else spoken_ip(ip, rng, oh=0.3, digit_share=0.5, point_share=0.1), "IP_ADDRESS")]


def p_location_v2(rng, sp):
    if rng.random() < 0.2:
        return p_location(rng, sp)
    kind = rng.choice(list(PLACE_NOUNS_V2))
    noun = rng.choice(PLACE_NOUNS_V2[kind])
    r = rng.random()
    if r < 0.55:
        base = rng.choice(PLACE_STEMS_V2 + PLACE_NAMES)
    elif r < 0.8:
        base = rng.choice(LAST_V2 + LAST)
        if kind == "work" and rng.random() < 0.4:
            base += rng.choice([" and sons", " brothers", " and partners", " family"])
    else:
        base = rng.choice(STREETS_V2 + STREETS) + rng.choice([" road", " street", " park", ""])
    name = base + " " + noun
    if sp:
        name = name.replace("st ", "saint ", 1) if name.startswith("st ") else name
        return [(name, "LOCATION")]
    return [(cap(name).replace("St ", "St. ", 1) if rng.random() < 0.5 else cap(name), "LOCATION")]


def p_hcond_v2(rng, sp):
    v = rng.choice(CONDITIONS_V2) if rng.random() < 0.6 else pick(rng, CONDITIONS, WN_CONDITIONS, 0.4)
    if v.startswith(("a ", "an ", "the ")):
        art, v = v.split(" ", 1)
        return [(art, None), (v, "HEALTH")]
    return [(v, "HEALTH")]


def p_hmed_v2(rng, sp):
    r = rng.random()
    v = invented_drug(rng) if r < 0.25 else (rng.choice(MEDS_V2) if r < 0.7 else pick(rng, MEDS, WN_MEDS, 0.4))
    if v.startswith(("a ", "an ", "the ")):
        art, v = v.split(" ", 1)
        return [(art, None), (v, "HEALTH")]
    return [(v, "HEALTH")]


def p_health_any_v2(rng, sp):
    return p_hcond_v2(rng, sp) if rng.random() < 0.6 else p_hmed_v2(rng, sp)


PII_GEN.update({"PN": p_person_v2, "PF": p_pfirst, "PW": p_pword, "PT": p_ptitle, "ACCT": p_account_v2,
                "SSN2": p_ssn_v2, "SSN4": p_ssn4, "DOB2": p_dob_v2, "AGE2": p_age_v2, "AGEK": p_age_kid, "PIN2": p_secret_v2,
                "PHONE2": p_phone_v2, "EMAIL2": p_email_v2, "ADDR2": p_address_v2, "IP2": p_ip_v2,
                "LOC2": p_location_v2, "HC": p_hcond_v2, "HM": p_hmed_v2, "HX": p_health_any_v2})

ACCT_CUES = ["account number", "bank account number", "checking account number", "savings account number",
             "customer number", "customer id", "customer reference", "member number", "member id", "membership number",
             "membership id", "policy number", "insurance policy number", "insurance member id", "loyalty card number",
             "rewards number", "rewards card number", "library card number", "library card", "electric account number",
             "gas account number", "water account", "utility account number", "phone account number",
             "internet account number", "broadband account number", "patient id", "patient number", "nhs number",
             "student id", "student number", "employee number", "employee id", "staff number", "frequent flyer number",
             "claim number", "case number", "case reference", "order number", "subscriber id", "tenant reference",
             "pension number", "medicare number", "health plan id", "gym membership number", "club membership number",
             "account", "acct number", "reference number", "booking reference"]
ACCT_LABELS = [("Member ID:", "member id"), ("Acct:", "account"), ("Account no.", "account number"),
               ("Policy #", "policy number"), ("Customer ref:", "customer reference"), ("Patient ID:", "patient id"),
               ("Student ID", "student id"), ("Card no:", "card number"), ("Ref:", "reference"),
               ("Employee #", "employee number"), ("Claim no.", "claim number"), ("Membership:", "membership")]
NEG_FILL.update({
    ",": lambda rng, sp: "" if sp else ",",
    ":": lambda rng, sp: "" if sp else ":",
    "acctcue": lambda rng, sp: rng.choice(ACCT_CUES),
    "acctlab": lambda rng, sp: (lambda p: p[1] if sp else (p[0] if rng.random() < 0.6 else p[0].lower()))(rng.choice(ACCT_LABELS)),
    "uh": lambda rng, sp: rng.choice(["uh", "um", "erm", "uhh", "hmm", "like", "so", "let me see", "okay so", "right"]),
    "kin": lambda rng, sp: rng.choice(["wife", "husband", "partner", "son", "daughter", "mom", "dad", "mum", "grandma",
                                        "grandpa", "sister", "brother", "fiance", "girlfriend", "boyfriend", "nan"]),
    "kid": lambda rng, sp: rng.choice(["son", "daughter", "kid", "little one", "youngest", "eldest", "boy", "girl",
                                        "stepson", "stepdaughter", "grandson", "granddaughter"]),
    "day": lambda rng, sp: rng.choice(["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
                                        "tomorrow", "today", "next week"]),
    "thx": lambda rng, sp: rng.choice(["thanks", "thank you", "please", "cheers", "ta", "if you don't mind",
                                        "thanks so much", "appreciate it", "much appreciated"]),
})

PII_TEMPLATES["ACCOUNT_NUMBER"] += [
    "my {:acctcue} is {ACCT}", "my {:acctcue} is [uh | um] {ACCT} [{:thx}]",
    "{ACCT} (that's | is | that is) my {:acctcue}", "{ACCT} [yeah | okay | right] (that's | that is) (my | our | the) {:acctcue}",
    "{ACCT} (that's | is) the {:acctcue} (for | on) (my | our) (account | policy | card | bill | claim)",
    "(here's | here is | okay here's) my {:acctcue} {ACCT}", "(it's | the number's | the number is) {ACCT} (for | on) my (electric | gas | water | internet | phone | insurance) (account | bill)",
    "(the | my) {:acctcue} (on the card | on the letter | on my card) (is | says | reads) {ACCT}",
    "(can you | could you | please) (save | remember | note | store | write down) my {:acctcue} [it's] {ACCT}",
    "{:acctlab} {ACCT}", "{:acctlab} {ACCT} {:,} name {PN}", "name {PN} {:,} {:acctlab} {ACCT}",
    "(i'm | i am) calling about (my | our) (bill | claim | order | account | prescription) [the] {:acctcue} (is | being) {ACCT}",
    "{PN} 's {:acctcue} is {ACCT}", "my {:kin} 's {:acctcue} is {ACCT}",
    "(log | sign) me in with {:acctcue} {ACCT}", "(what's | check) the balance (on | for) account {ACCT}",
    "(use | try) {ACCT} (as | it's) my (membership | loyalty | rewards | library card) number",
    "(transfer | move) (fifty dollars | the money | two hundred pounds | the rent) from (checking | savings | account) {ACCT} to (savings | checking | account) {ACCT}",
    "(renew | check) my library books (with | using) card number {ACCT}",
    "the (airline | gym | library | pharmacy | insurance company | bank | school) (asked for | needs) my {:acctcue} (it's | which is) {ACCT}",
    "(hi | hello) (it's | this is) {PN} (and )?my {:acctcue} is {ACCT}".replace("(and )?", "[and]"),
    "(add | put) {ACCT} (as | for) my (frequent flyer | loyalty | rewards | member) number (on | to) the booking",
    "(quote | use) (reference | case number | claim number) {ACCT} (when you call | in the email)",
    "{ACCT} is (the | my) (patient | student | employee | member) (id | number) for {PN}",
    "(my | the) (kid's | son's | daughter's) student id (is | it's) {ACCT}",
    "(does | did) (my | the) (claim | order | case) {ACCT} (go through | ship | get approved) [yet]",
    "(i | we) (pay | paid) the (water | electric | gas | council tax | internet) bill (for | on) account {ACCT} [{:day}]",
    "[uh] {ACCT} (is | that's) (my | the) (number | id) (they gave me | on my card | on the letter)",
    "(for | on) (my | the) (policy | account | membership) {ACCT} (can you | please) (check | update) the (address | details)",
]
PII_TEMPLATES["SSN"] += [
    "{SSN2} (is | that's | that is) my (social | social security number | ssn | s s n | social security)",
    "(my | the) (social | social security | s s n | ssn) [number] (is | it's) {SSN2}",
    "(here's | here is | okay) my social {SSN2} [{:thx}]",
    "(put | write | enter | fill in) {SSN2} (as | for) my (social | ssn | social security number) [on the form]",
    "{PN} 's social security number is {SSN2}", "my {:kin} 's (social | ssn | social security) is {SSN2}",
    "(it's | the number is) {SSN2} (on | for) my social [security card]",
    "(the bank | the irs | the clinic | my accountant | the landlord) (asked for | needs) my (social | ssn | s s n) (it's | which is) {SSN2}",
    "(the | my) last four (of my social | of my ssn | of my social security number) (are | is) {SSN4}",
    "(my social | my ssn) ends (in | with) {SSN4}",
    "(ssn | social | s s n) [is] {SSN2} [{:thx}]", "(social security | soc sec) (no | number) {SSN2}",
    "[uh | um] {SSN2} (for | that's for) (the | my) (social | ssn) [line]",
]
PII_TEMPLATES["DATE_OF_BIRTH"] += [
    "my birthday's {DOB2}", "(born | i was born) {DOB2}", "(i was | he was | she was) born (on )?{DOB2} [so | and] (i'm | he's | she's) a (capricorn | libra | scorpio | pisces)".replace("(on )?", "[on]"),
    "{DOB2} (is | that's) (my | his | her | the baby's) (birthday | date of birth | birth date)",
    "{PF} 's birthday is {DOB2} (so | and) remind me a week before", "(remind me | don't let me forget) {PN} 's birthday (it's | is) {DOB2}",
    "put {DOB2} as (my | the baby's | my son's | my daughter's) date of birth",
    "(my | his | her) (d o b | dob | date of birth) (is | it's) {DOB2}",
    "(the baby | our daughter | our son | my grandson | my granddaughter | my niece) (arrived | was born) on {DOB2}",
    "(i | we) celebrate {PF} 's birthday on {DOB2}", "my (mum | mom | dad | gran) was born {DOB2}",
    "(birthday | b day) {DOB2} [{:thx}]", "{PN} {:,} (born | date of birth | dob) {DOB2}",
]
PII_TEMPLATES["AGE"] += [
    "{PF} turns {AGEK} on {:day}", "{PN} (turns | is turning | will be) {AGE2} (on her birthday | on his birthday | this {:day} | in a few weeks)",
    "(he's | she's) {AGE2} (now | next month | already)", "(i'm | i am) (only | just) {AGE2} (and | but) (i | my doctor) (worry | worries) about my knees",
    "my {AGE2} year old (son | daughter | niece | nephew | grandson) (loves | wants | needs) (dinosaurs | a new bike | braces)",
    "(plan a party | find a present | pick a cake) for my (son | daughter) (who's | who is) turning {AGE2}",
    "(my | our) (mom | dad | nan | grandpa) is {AGE2} and (still drives | lives alone | just had surgery)",
    "{PF} is {AGEK} (months | weeks | years) old", "(age | aged) {AGE2} {:,} (male | female)", "(my | our) (twins | boys | girls) are {AGEK}", "{PF} and {PF} are {AGEK} and {AGEK}",
    "(i | my wife | my husband) (just )?turned {AGE2} (yesterday | last week | on {:day})".replace("(just )?", "[just]"),
    "(i'm | i am) {AGE2} (is that | am i) too old to (start running | learn piano | go back to school)",
]
PII_TEMPLATES["PIN_OR_PASSWORD"] += [
    "the (code | passcode) for the (front door | garage | side gate | alarm | shed | lockbox | keypad | storage unit) is {PIN2}",
    "{PIN2} (is | that's) the (garage | alarm | wifi | door | gate | lockbox) (code | password)",
    "(my | the) (phone | ipad | tablet | laptop) (unlock code | passcode | password) is {PIN2}",
    "(the | our) wifi password (is | it's) {PIN2} (for the guests | if anyone asks | all one word)",
    "(tell | text) {PN} the (door | gate | garage) code (it's | is) {PIN2}",
    "(set | change) the (alarm | door | garage) code to {PIN2} [{:thx}]",
    "(my | the) (voicemail | bank | card | atm) pin (is | it's) {PIN2}",
    "(enter | type | punch in) {PIN2} (to unlock | to disarm it | at the gate | on the keypad)",
    "my password (for | on) (netflix | the bank | my email | the school portal | the router) is {PIN2}",
    "(new | the new) (wifi | guest wifi) (key | password) {PIN2}", "(password | passcode | pin) (is | it's) [uh] {PIN2} [{:thx}]",
]
PII_TEMPLATES["PHONE"] += [
    "{PHONE2} (that's | is) my (cell | mobile | work line | landline | new number)",
    "(you can | they can) (get | reach) (me | him | her) (on | at) {PHONE2}", "(save | add) {PN} (as | with the number) {PHONE2}",
    "(call | ring) me back on {PHONE2} (after six | anytime | tomorrow)", "(my | her | his) (mobile | cell) (is | it's) {PHONE2} (if you need it | just in case)",
    "{PN} (can be reached | is) on {PHONE2}", "(update | change) my (number | contact number) to {PHONE2}",
    "(dial | call) {PHONE2} [and ask for {PF}]", "(the | our) (vet | doctor's office | school office | nanny) number is {PHONE2}",
    "{PHONE2} (that's | is) {PN} 's (number | cell | mobile)", "(mobile | tel | phone) {::} {PHONE2}",
]
PII_TEMPLATES["EMAIL"] += [
    "{EMAIL2} (is | that's) my (email | work email | school email | personal email)", "(cc | copy) {EMAIL2} on (that | the invoice | the email)",
    "(send | email) (the photos | my boarding pass | the receipt | the report) to {EMAIL2} [{:thx}]",
    "(my | her | his) (email | e mail | address) (is | it's) {EMAIL2} (all lowercase | no spaces | all one word)",
    "(share | invite) {EMAIL2} to the (calendar | album | doc | spreadsheet)", "{PN} (at | email) {EMAIL2}",
    "(reply | respond) to {PN} at {EMAIL2}", "(change | update) my (login | recovery email) to {EMAIL2}",
]
PII_TEMPLATES["ADDRESS"] += [
    "(send | post | mail) (the | my) (package | parcel | card | letter) to {ADDR2}", "{ADDR2} (that's | is) (my | our | her | his) (address | home | new place)",
    "(i | we) (just )?moved to {ADDR2}".replace("(just )?", "[just]"), "(my | our) (billing | shipping | delivery) address is {ADDR2}",
    "(get me | give me) directions (home )?to {ADDR2}".replace("(home )?", "[home]"), "(order | book) a (taxi | cab | ride) to {ADDR2}",
    "(pick me up | come get me) (at | from) {ADDR2}", "{PN} (lives at | is staying at | moved to) {ADDR2}",
    "(the | our) (party | barbecue | meeting | sleepover) is at {ADDR2} (at seven | on {:day})", "address {::} {ADDR2}",
]
PII_TEMPLATES["IP_ADDRESS"] += [
    "(my | the) (nas | printer | camera | doorbell | plex server | home assistant | pi hole) (is on | lives at | has the address) {IP2}",
    "{IP2} (is | that's) (my | the) (router | nas | printer | laptop | media server) [ip]",
    "(forward | open) port (eighty | four four three | twenty two | eight zero eight zero) (to | on) {IP2}",
    "(my | our) (public | external | home) ip (is | it's) {IP2}", "(i | we) can't (reach | ping) my (server | printer | camera) at {IP2}",
    "(add | whitelist | block) {IP2} (on | in) (my | the) (router | firewall)", "(my laptop | my phone | the tv | the xbox) (got | has) {IP2} (from the router | from dhcp)",
    "(reserve | assign) {IP2} (for | to) (my | the kids') (tablet | laptop | console)",
]
PII_TEMPLATES["HEALTH"] += [
    "(book | schedule | move) (my | {PN} 's) (appointment | follow up | checkup) (for | about) (my | her | his) {HC}",
    "remind me about my (cardiologist | neurologist | rheumatologist | specialist | dermatologist) appointment for my {HC} on {:day}",
    "(is | has) my {HM} (prescription | refill) (ready | been sent) [at the pharmacy]",
    "(tell | ask) the pharmacy (i need | to refill) my {HM}", "pick up {PN} 's {HM} from the (pharmacy | chemist)",
    "(we're | i'm) (almost | nearly) out of (my | his | her) {HM}",
    "my {HC} is (acting up | flaring up | bad) today (so | can you) (cancel | move) my (meeting | run | class)",
    "(i | {PN}) (can't | couldn't) (sleep | come in | make it) because of (my | her | his) {HC}",
    "(tell the school nurse | let the school nurse know) [that] {PN} (has | takes | needs) {HX}", "note for the school nurse {PF} (has | carries | needs) {HX}",
    "{PF} needs (her | his) {HM} at lunch [at school]",
    "(email | tell | text) my (boss | manager | team) [that] i'm out (today | this week) (with | because of) {HC}",
    "i need a (sick note | doctor's note) for my {HC}", "call in sick for me i've got {HC}",
    "(find | suggest) (recipes | dinner ideas | snacks) (for | safe for) (my | {PN} 's) {HC}",
    "(i | we) can't (eat | have) (gluten | dairy | sugar | nuts) because (i have | {PN} has | my {:kid} has) {HC}",
    "(file | submit) a claim for (my | {PN} 's) {HM} (prescription | refills)", "does my insurance cover (my | her | his) {HX}",
    "remind (me | {PN}) to (take | pick up | order) (my | her | his) {HM} (at eight | after dinner | every twelve hours)",
    "set a (daily | nightly | weekly) reminder for my {HM}", "add {HM} to (my | dad's | mum's) (medication | pill) (list | schedule)",
    "{PN} was [just] diagnosed with {HC} (last week | yesterday | this spring)",
    "(i'm | i've been) (living with | dealing with | managing) {HC} (for years | since i was a kid | since college)",
    "(log | record) that i took my {HM} (this morning | at noon | with breakfast)",
    "{HM} (makes | is making) me (drowsy | nauseous | jittery) (should i | can i) (take it at night | stop it)",
    "{HM} is what i'm (taking | on) for my {HC}", "{HC} (is | was) what (the doctor | my gp | the specialist) (said i have | diagnosed me with)",
    "{PN} (has | is recovering from | is off school with) {HC} (so | and) (she | he) (won't | can't) (come | make it)",
    "(my | our) {:kid} (has | got) {HC} (again | this week) (cancel | move) (the playdate | swimming | practice)",
    "(the | my) (dentist | physio | surgeon | gp) (needs to know | asked) (that )?i (take | am on) {HM}".replace("(that )?", "[that]"),
    "(i am | my {:kin} is) allergic to {HM}", "i (have | suffer from | was born with) {HC} [and] (i | so i) (need | want) (a quieter room | extra time | a ground floor room)",
]
PII_TEMPLATES["PERSON"] += [
    "the (package | flowers | card | voicemail | invitation) (is | are) from {PN}", "(i'm | i was) (having dinner | going out | meeting up | working late) with {PN}",
    "(save | buy | get) (a seat | a present | some cake | a ticket) for {PN}", "this (message | gift | note | reminder) is for {PN}",
    "(remind me | i need) to (write back | reply | say thank you | send a card) to {PN}",
    "(invite | add | text) {PN} {:,} {PN} and {PN} [to the group]", "(dinner | lunch) with {PF} and {PF} (on | this) {:day}",
    "(send | text) (a message | this) to {PF} saying (hi | hey) {PF} (i'm | we're) (running late | outside | on the way)",
    "{PF} (your | the) (dinner | ride | bus | taxi) is (ready | here) (announce that | tell everyone)",
    "(what time is | when's) {PN} 's (recital | game | flight | appointment | interview)",
    "(email | call | message) {PT} about (the homework | the rent | the fence | the invoice)", "{PT} (next door | from the office | at school) (wants | said | asked) (to talk | we should call)",
    "(call | text) {PW} and tell (her | him) (i'm | we're) (on my way | almost there | running late)",
    "my (daughter | friend | coworker | niece | granddaughter | neighbour) {PW} (is | was) (visiting | coming over | sick) {:day}",
    "{PW} 's (birthday | party | recital | graduation) is (on {:day} | next week | tonight)",
    "{PN} (that's | is) my (neighbor | coworker | landlord | physio | tutor) [can you save the number]",
    "(ask | tell) {PT} (if | that) (the kids | we) can (come | stay) (over | late)",
    "(put | add) {PN} (down )?as my emergency contact".replace("(down )?", "[down]"), "(who | what) did {PN} (send | say) [earlier]",
    "(i | we) got a (letter | text | call) from {PT}", "(can you | please) (remind | tell) {PF} [that] (practice | the dentist | school) is (at four | tomorrow | cancelled)",
    "reply to {PF} (thanks | thank you) {PF} (see you soon | that was lovely)", "(reply | text back) (ok | okay | alright) {PF} (i'll | we'll) (see you | call you) (later | tomorrow)",
]
PII_TEMPLATES["LOCATION"] += [
    "my {:kin} works at {LOC2} [now | these days]", "pick the kids up from {LOC2} at (three | half three | three thirty | four)",
    "(drop | take) {PN} (off )?at {LOC2} (at eight | before work | {:day})".replace("(off )?", "[off]"),
    "my (physio | dentist | therapist | doctor | trainer) at {LOC2} (said | told me) (to rest | to stretch | to come back {:day})",
    "(i | we) (go to | attend | belong to) {LOC2} (every sunday | on fridays | twice a week)",
    "(my | our) (grandma | grandpa | nan | dad | mum) (lives in | moved into | is staying at | is at) {LOC2}",
    "visiting hours for (my mom | grandpa | {PN}) at {LOC2}", "{PN} (started | starts) at {LOC2} (in september | next week | on monday)",
    "(i'm | i am) (a member at | a member of | training at) {LOC2}", "(remind me about | don't let me forget) (my | the) (appointment | class | shift) at {LOC2} [{:day}]",
    "{LOC2} (called | emailed) about (my son | my daughter | {PN})", "(i | we) got married at {LOC2}",
    "(my | our) {:kid} (got into | is starting at | is in year two at) {LOC2}", "(text | tell) {PN} i'm (still )?at {LOC2}".replace("(still )?", "[still]"),
    "directions to (my | our) (kid's school | gym | office | mum's care home) {LOC2}",
    "{LOC2} (is | that's) where (my son goes | i work | my dad lives | we go to church | i do pilates)",
    "(i had | my {:kin} had | my {:kin} has) (surgery | a scan | physio | a checkup) at {LOC2} {:day}",
    "(sign | enroll) {PF} up for (swimming | after school club | summer camp) at {LOC2}",
    "(i | we) (teach | coach | volunteer | clean) at {LOC2} (on weekends | on tuesdays | part time)",
]
PII_TEMPLATES["MULTI"] = [
    "(hi | hey) (it's | this is) {PN} (calling about | about) my (account | policy | claim) {ACCT}",
    "(hi | hey) (it's | this is) {PN} my (callback | call back) number is {PHONE2}",
    "my name's {PN} (and )?i'm {AGE2} (and )?i have {HC}".replace("(and )?", "[and]"),
    "{PN} is {AGEK} (and | she | he) (goes to | is at) {LOC2}",
    "(my | our) {:kid} {PF} (has | was diagnosed with) {HC} (and | she | he) (goes to | is at) {LOC2}",
    "(send it to | email) {EMAIL2} or (call | text) {PHONE2} [and ask for {PF}]",
    "(i live at | my address is) {ADDR2} (and )?the (gate | door | buzzer) code is {PIN2}".replace("(and )?", "[and]"),
    "(my | the) (wifi | router) (is at | ip is) {IP2} (and )?the password is {PIN2}".replace("(and )?", "[and]"),
    "(i was born | born) {DOB2} (and )?my social is {SSN2}".replace("(and )?", "[and]"),
    "{PN} (date of birth | born | dob) {DOB2} (member | policy | patient) (number | id) {ACCT}",
    "(this is | it's) {PN} my birthday is {DOB2}", "(tell | text) {PN} [that] my new (number | mobile) is {PHONE2}",
    "{PT} (at | from) {LOC2} (called | emailed) about my {HC}", "patient {PN} (dob | date of birth) {DOB2} (takes | on) {HM}",
    "{PN} {:,} {AGE2} {:,} (allergic to | on) {HM}", "(i'm | this is) {PN} i work at {LOC2} [and] my (email | work email) is {EMAIL2}",
    "(send | ship) it to {PN} at {ADDR2}", "{PF} 's (number | mobile) is {PHONE2} and (her | his) email is {EMAIL2}",
    "(my | our) {:kid} {PF} is {AGEK} and (takes | is on) {HM}", "(my | the) {:acctcue} is {ACCT} and (my | the) pin is {PIN2}",
    "{PN} {:,} {ADDR2} {:,} {PHONE2}", "(my | her) (social | ssn) is {SSN2} and (my | her) (date of birth | birthday) is {DOB2}",
    "(um | so) my (mom | mum | dad) {PN} is at {LOC2} (with | for) (her | his) {HC}",
]
PII_TYPES_V2_FAMILIES = ["MULTI"]


_PII_PARSED = {k: [parse_grammar(p) for p in v] for k, v in PII_TEMPLATES.items()}
_NEG_PARSED = {k: [parse_grammar(p) for p in v] for k, v in NEG_TEMPLATES.items()}


def build_pii_line(rng, elements, sp):
    pieces = []   # (text, type or None, attach)
    for el in elements:
        if isinstance(el, str):
            pieces.append((el, None, el.startswith("'")))
        elif el[0] == "slot":
            for pc in PII_GEN[el[1]](rng, sp):
                pieces.append((pc[0], pc[1], pc[2] if len(pc) > 2 else False))
        else:
            v = neg_fill(rng, el[1], sp)
            if v:
                pieces.append((v, None, v in (",", ":", ";")))
    text = ""
    spans = []
    for i, (txt, typ, attach) in enumerate(pieces):
        if text and not attach:
            text += " "
        s = len(text)
        text += txt
        if typ:
            spans.append({"start": s, "end": len(text), "type": typ, "value": txt})
    return text, spans


def make_pii_line(rng, primary):
    sp = rng.random() < 0.7
    form = "spoken" if sp else "written"
    if primary is None and WN_PII_NEG and rng.random() < WN_PII_NEG_SHARE:
        text = rng.choice(WN_PII_NEG)
        if rng.random() < 0.3:
            # Stories, poems and facts about things: a speaker's everyday open requests ("a story about a dragon").
            kind = rng.choice(["animal", "wild", "food", "topic"])
            noun = rng.choice(WN_NONE_LEX[kind])
            text = rng.choice(CREATIVE).format(("an " if noun[0] in "aeiou" else "a ") + noun)
        if not sp:
            text = text[:1].upper() + text[1:] + rng.choice([".", ".", ""])
        return {"text": text, "form": form, "spans": [], "source": "train.neg.wordnet_example"}
    if primary is None:
        fam = rng.choices(list(NEG_WEIGHTS), list(NEG_WEIGHTS.values()))[0]
        gram = rng.choice(_NEG_PARSED[fam])
        src = "train.neg." + fam
    else:
        r = rng.random()
        fam = "FORM" if r < 0.08 else ("MULTI" if r < 0.2 else primary)
        gram = rng.choice(_PII_PARSED[fam])
        src = "train.pii." + fam.lower()
    elements = sample_grammar(gram, rng, [])
    text, spans = build_pii_line(rng, elements, sp)
    if len(spans) > 3:
        return None
    if primary is not None and rng.random() < 0.1:
        suf = rng.choice(["please", "thanks", "thank you", "cheers", "if you could", "for me", "okay", "right",
                          "got that", "did you get that", "yeah", "again", "just so you know", "when you get a chance"])
        text += ("" if sp else rng.choice([" ", ", "])) + (" " if sp else "") + suf
    if rng.random() < 0.2:
        pre = rng.choice(["um", "okay", "so", "hey", "please note", "for the record", "uh", "alright", "erm",
                          "right so", "oh and", "quick one", "hi", "hello", "excuse me", "listen", "okay so um",
                          "just so you know", "can you note", "yeah so", "hmm", "sorry"])
        if not sp:
            pre += ","
        shift = len(pre) + 1
        text = pre + " " + text
        for s in spans:
            s["start"] += shift
            s["end"] += shift
    if not sp:
        first = [sp for sp in spans if sp["start"] == 0]
        if rng.random() < 0.6 and (not first or first[0]["type"] in ("PERSON", "LOCATION", "HEALTH")):
            text = text[:1].upper() + text[1:]
            for sp in first:
                sp["value"] = text[sp["start"]:sp["end"]]
        r = rng.random()
        text += "." if r < 0.4 else ("?" if r < 0.45 else "")
    return {"text": text, "form": form, "spans": spans, "source": src}


def gen_pii(rng, n):
    n_neg = int(round(n * 0.4))
    plan = [None] * n_neg + [PII_TYPES[i % len(PII_TYPES)] for i in range(n - n_neg)]
    rng.shuffle(plan)
    out = []
    for p in plan:
        line = None
        while line is None:
            line = make_pii_line(rng, p)
        out.append(line)
    return out


# ----------------------------------------------------------------------------------------
# self-check

SPOKEN_OK = re.compile(r"^[a-z' ]+$")


def on_boundary(text, s, e):
    return (s == 0 or not text[s - 1].isalnum()) and (e == len(text) or not text[e].isalnum()) \
        and text[s:e] == text[s:e].strip() and e > s


def check_pii_value(sp):
    t, v = sp["type"], sp["value"]
    if t == "CREDIT_CARD":
        digits = parse_spoken_digits(v) if v[0].isalpha() else re.sub(r"[ -]", "", v)
        return digits is not None and digits.isdigit() and luhn_ok(digits)
    if t == "IBAN":
        raw = parse_spoken_digits(v) if v[0].islower() else v.replace(" ", "")
        return raw is not None and iban_ok(raw)
    return True


def self_check(intent_lines, pii_lines, intents):
    errors = []
    for i, d in enumerate(intent_lines):
        tag = "intents line %d" % (i + 1)
        it = d["intent"]
        if it != "none" and it not in intents:
            errors.append("%s: unknown intent %s" % (tag, it))
            continue
        decl = intents[it]["slots"] if it != "none" else {}
        for k in d["slots"]:
            if k not in decl:
                errors.append("%s: slot %s not declared for %s" % (tag, k, it))
        for k, sd in decl.items():
            if sd["required"] and k not in d["slots"]:
                errors.append("%s: missing required %s" % (tag, k))
        if d["form"] == "spoken" and not SPOKEN_OK.match(d["text"]):
            errors.append("%s: spoken text has bad chars: %r" % (tag, d["text"]))
        prev = -1
        for sp in d["slot_spans"]:
            if sp["slot"] not in d["slots"]:
                errors.append("%s: span for absent slot %s" % (tag, sp["slot"]))
            if sp["start"] < prev or not on_boundary(d["text"], sp["start"], sp["end"]):
                errors.append("%s: bad span %r in %r" % (tag, sp, d["text"]))
            prev = sp["end"]
        spanned = {sp["slot"] for sp in d["slot_spans"]}
        for k in d["slots"]:
            if decl.get(k, {}).get("type") != "result" and k not in spanned:
                errors.append("%s: slot %s has no span" % (tag, k))
        if it == "math.compute":
            expr = d["slots"]["expression"]
            pyexpr = expr.replace("^", "**").replace("sqrt", "math.sqrt")
            if fmt_num(float(eval(pyexpr, {"math": math}))) != d["slots"]["result"]:
                errors.append("%s: result mismatch" % tag)
        t = d["slots"].get("time")
        if t is not None and not re.match(r"^([01]\d|2[0-3]):[0-5]\d$", t):
            errors.append("%s: bad time %s" % (tag, t))
        lv = d["slots"].get("level")
        if lv is not None and not (isinstance(lv, int) and 0 <= lv <= 10):
            errors.append("%s: bad level" % tag)
    for i, d in enumerate(pii_lines):
        tag = "pii line %d" % (i + 1)
        if d["form"] == "spoken" and not SPOKEN_OK.match(d["text"]):
            errors.append("%s: spoken text has bad chars: %r" % (tag, d["text"]))
        prev = -1
        for sp in d["spans"]:
            if d["text"][sp["start"]:sp["end"]] != sp["value"]:
                errors.append("%s: value mismatch %r" % (tag, sp))
            if sp["start"] < prev or not on_boundary(d["text"], sp["start"], sp["end"]):
                errors.append("%s: bad span %r in %r" % (tag, sp, d["text"]))
            if sp["type"] not in PII_TYPES:
                errors.append("%s: bad type" % tag)
            if not check_pii_value(sp):
                errors.append("%s: checksum failed %r" % (tag, sp))
            prev = sp["end"]
        if len(d["spans"]) > 3:
            errors.append("%s: too many spans" % tag)
    return errors


# ----------------------------------------------------------------------------------------

# ----------------------------------------------------------------------------------------
# breadth from Debian's lexical resources (lexres.py): WordNet's diseases, medicines, people, cities, animals,
# dishes and fields, and the CMU dictionary's homophones. Each generator mixes them in beside its own list at a
# fixed share, so the hand-written lists keep their weight and the models meet words no list of ours holds.

WN_CONDITIONS, WN_MEDS, WN_PEOPLE, WN_CITIES, WN_NONE_LEX, CMU_HOMOPHONES = [], [], [], [], {}, {}
WN_EXAMPLES = []  # WordNet's example sentences that are not requests: hard negatives for "none"
# A fifth of them (by a hash of the text, so the same for every seed) never reaches training: "none" lines of
# another kind than the generator's, on which train.sh calibrates the intent threshold beside the dev file.
WN_EXAMPLES_HELD = []
# The same sentences as personal-data hard negatives: ordinary words in every position ("my grandmother's recipe
# for stew", "the judge upped the fine"), where a tagger that learned "a word after a relation is a name" is wrong.
# Those with a name, a medical term or an age/birth/contact cue are left out (they might hold a value).
WN_PII_NEG = []
# Names no list of ours holds: words the CMU dictionary can pronounce that are not English words (WordNet) nor
# inflections of one, mostly surnames ("kistner", "rasmusson", "savard"). Drawn for a share of the names, so a
# name is recognized by where it stands and how it looks, not by being on a list.
CMU_NAMES = []
WN_PII_NEG_SHARE = 0.15
CREATIVE = ["tell me a story about {}", "write a poem about {}", "tell me a fun fact about {}",
            "make up a song about {}", "tell me a joke about {}", "can you tell me a bedtime story about {}",
            "what sound does {} make", "draw me {}", "describe {} for me", "tell my kids a story about {}"]


def pick(rng, own, extra, share):
    return rng.choice(extra) if extra and rng.random() < share else rng.choice(own)


def load_lexical_resources():
    import lexres
    wn = lexres.WordNet()
    common = lexres.common_words()

    def below(lemma, n, instances=False, classes=True, proper=False, max_words=3, exclude=()):
        offs = set(wn.hyponyms(wn.sense(lemma, "n", n), instances=instances, classes=classes))
        for ex_lemma, ex_n in exclude:
            ex = wn.sense(ex_lemma, "n", ex_n)
            offs -= set(wn.hyponyms(ex)) | {ex}
        return wn.lemmas(sorted(offs), proper=proper, max_words=max_words)

    def specific(words, max_senses=1):
        # A term with one meaning ("pertussis") is safe to label; "hit" or "draft" under medicine is not.
        return [w for w in words if wn.sense_count(w) <= max_senses]

    WN_CONDITIONS[:] = specific(below("disease", 1, exclude=[("plant_disease", 1), ("animal_disease", 1)])
                                + below("disorder", 1) + below("illness", 1), 2)
    WN_MEDS[:] = specific(below("medicine", 2) + below("drug", 1, exclude=[("drug_of_abuse", 1), ("alcohol", 1)]), 1)
    WN_PEOPLE[:] = [p for p in below("person", 1, instances=True, classes=False, proper=True)
                    if len(p.split()) >= 2]
    WN_CITIES[:] = [c for c in below("city", 1, instances=True, classes=False, proper=True, max_words=2)
                    if " capital" not in c]
    WN_NONE_LEX.update({
        "animal": specific(below("domestic_animal", 1, max_words=2), 2),
        "wild": specific(below("mammal", 1, max_words=2) + below("bird", 1, max_words=2), 1),
        "food": specific(below("dish", 2, max_words=3), 2),
        "topic": specific(below("discipline", 1, max_words=3), 2),
        "country": below("country", 2, instances=True, classes=False, proper=True, max_words=2),
        "famous": WN_PEOPLE,
    })
    for e in wn.examples():
        if re.search(r"[0-9]", e):
            continue  # digits would need the spoken-number rewriting; plenty of examples have none
        words = re.sub(r"[^a-z' ]", " ", e.lower().replace("`", "'")).split()
        words = [w.strip("'") for w in words if w.strip("'")]
        # Requests are left out: a gloss example can be an order ("stop the car") that a user might say.
        if 2 <= len(words) <= 20 and words[0] not in IMPERATIVE and words[0] not in (
                "please", "let's", "let", "don't", "do", "hey", "stop", "quiet", "silence"):
            text = " ".join(words)
            (WN_EXAMPLES_HELD if zlib.crc32(text.encode()) % 5 == 0 else WN_EXAMPLES).append(text)
    risky_common = set(MEDS) | {w for c in CONDITIONS for w in c.split()}
    risky = set(FIRST) | set(LAST) | {w for c in CONDITIONS + WN_CONDITIONS + MEDS + WN_MEDS for w in c.split()}
    risky |= {w for p in WN_PEOPLE + CELEBS for w in p.lower().split()}
    risky |= set("""born birth birthday age aged old years year months address live lives living phone number
        call email password pin code account card social security diagnosed pregnant allergic""".split())
    CMU_NAMES[:] = sorted(w for w in lexres.cmu_words() if w.isalpha() and 4 <= len(w) <= 10 and w not in common
                          and w not in risky_common and not any(w.endswith(x) and w[:-len(x)] in common
                                                                for x in ("s", "es", "ed", "d", "ing", "er", "ers", "ly", "y")))
    WN_PII_NEG[:] = [e for e in WN_EXAMPLES if not any(w.rstrip("'s") in risky or w in risky for w in e.split())]
    closed = set("""a an the to for of in on at by with from up down off out over under it its i me my you your
        we our they their he him his she her this that these those there here is are was were be been am do does
        did have has had will would can could should may might must not no so but or and if then than too very
        what which who whom whose when where why how all any some each every both few more most other""".split())
    vocab = common | closed
    # WordNet lists base forms; the recogniser also confuses "paws" and "pause"
    vocab |= {w for w in lexres.cmu_words() for suf in ("s", "es", "ed", "d", "ing", "'s")
              if w.endswith(suf) and w[:-len(suf)] in common}
    for w, alts in lexres.homophones(vocab).items():
        alts = [a for a in alts if a in vocab]
        if alts and w not in HOMOPHONES:
            CMU_HOMOPHONES[w] = alts
    return {"examples": len(WN_EXAMPLES), "pii negatives": len(WN_PII_NEG), "cmu names": len(CMU_NAMES), "conditions": len(WN_CONDITIONS), "medicines": len(WN_MEDS), "people": len(WN_PEOPLE),
            "cities": len(WN_CITIES), "homophones": len(CMU_HOMOPHONES),
            **{"none." + k: len(v) for k, v in WN_NONE_LEX.items()}}


# ----------------------------------------------------------------------------------------
# The recognizer's real mistakes: bench/nlu/asr_corpus.py spoke lines of this generator (another seed) with flite
# and espeak-ng voices through `sotto listen` and wrote what was heard to data/asr_pairs.tsv (committed; its
# docstring defines each status). Two uses, kept apart from the generator above:
#  - its word substitutions ("timer>time", "alarm>along") join the simulated ASR noise (asr_noise), so the noise
#    the models train on is the one this recognizer makes, not only dictionary homophones;
#  - its transcripts become training lines, labelled by what survived of the request (asr_corpus_lines).

ASR_CORPUS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "asr_pairs.tsv")
ASR_CONFUSIONS = {}  # written word -> the words the recognizer heard for it, in the corpus's order
# Copies of each corpus line per training set: a few hundred transcripts among 40,000 generated lines weigh like
# one phrasing family with them.
ASR_CORPUS_COPIES = 3


def load_asr_corpus(path):
    """The corpus's rows (asr_corpus.read_corpus), or [] when the file is absent."""
    if not path or not os.path.exists(path):
        return []
    import asr_corpus
    return asr_corpus.read_corpus(path)


def asr_confusions(rows):
    """{written word: [heard words]} from the substitutions of the transcripts the alignment can be trusted on (at
    least half the written words heard as written). Number, time and day words on either side are left out: a
    number swapped into a carrier phrase would read as a slot value, and slot words are never rewritten."""
    import asr_corpus
    out = {}
    for r in rows:
        ref, hyp = asr_corpus.words(r["written"]), asr_corpus.words(r["transcript"])
        if not ref or sum(op == "=" for op, _, _ in asr_corpus.align(ref, hyp)) * 2 < len(ref):
            continue
        for w, h in r["subs"]:
            if w in asr_corpus.VALUE_WORDS or h in asr_corpus.VALUE_WORDS or not SPOKEN_OK.match(h):
                continue
            alts = out.setdefault(w, [])
            if h not in alts:
                alts.append(h)
    return out


def asr_corpus_lines(rows, intents, catalogue):
    """Training lines from the corpus's transcripts, labelled so that a garbled transcript never teaches a
    confident state-changing intent while a recognizable one still teaches its intent:
      kept          the true intent, with the surviving slots at their place in the transcript;
      partial       a query (nothing changes if it is wrong; the answer says what it assumed): the true intent;
                    a state-changing intent: the transcript twice, once with its intent and once as "none", so the
                    model learns a probability near one half for such readings, under its acceptance threshold
                    (calibrated, 0.6 today): it asks again or lets the language model answer instead of acting;
      salad         "none": under a quarter of what was asked was heard; the words left are not the request;
      slot_lost     a state-changing intent: "none" (without its value the command cannot be carried out as
                    asked, and nothing in the transcript stands in for it); a query: left out (never guessed);
      slot_changed  left out: the transcript may be another valid command ("nine minutes" for "five");
      none          "none" (open questions stay open questions however they were heard);
      no_final      left out.
    Whether an intent changes state is the catalogue's changes-state (bench/speech/intent_score.py reads it for
    the speech benchmark's wrong actions)."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "speech"))
    import intent_score
    changing = intent_score.catalogue_state_changing(catalogue)
    out = []
    for r in rows:
        text, intent, status = r["transcript"], r["intent"], r["status"]
        if not SPOKEN_OK.match(text) or (intent != "none" and intent not in intents):
            continue
        line = {"text": text, "intent": intent, "slots": r["slots"], "slot_spans": r["spans"], "form": "spoken",
                "source": "train.asr." + status, "asr_noise": True}
        none = {"text": text, "intent": "none", "slots": {}, "slot_spans": [], "form": "spoken",
                "source": "train.asr." + status, "asr_noise": True}
        if status == "kept" or (status == "partial" and intent not in changing):
            got = [line]
        elif status == "partial":
            got = [line, none]
        elif status in ("salad", "none") or (status == "slot_lost" and intent in changing):
            got = [none]
        else:
            got = []
        out.extend(got * ASR_CORPUS_COPIES)
    return out


def main(argv=None):
    here = os.path.dirname(os.path.abspath(__file__))
    repo = os.path.dirname(os.path.dirname(here))
    ap = argparse.ArgumentParser(description="Generate Sotto NLU training data.")
    ap.add_argument("--out", required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--intents", type=int, default=40000)
    ap.add_argument("--pii", type=int, default=40000)
    ap.add_argument("--catalogue", default=os.path.join(repo, "config", "intents.xml"))
    ap.add_argument("--asr-corpus", default=ASR_CORPUS,
                    help="the recognizer's transcripts (asr_corpus.py's TSV); \"\" leaves them out")
    ap.add_argument("--no-lexres", action="store_true",
                    help="leave WordNet and the CMU dictionary out (the generator's own lists only)")
    args = ap.parse_args(argv)
    t0 = time.time()
    sys.path.insert(0, here)
    try:
        counts = {} if args.no_lexres else load_lexical_resources()
    except Exception as e:  # lexres.Missing names the Debian package
        print(f"gen_train.py: {e}", file=sys.stderr)
        return 1
    print("lexical resources: " + ", ".join(f"{k} {v}" for k, v in counts.items()))
    order, intents, lex = load_catalogue(args.catalogue)
    try:
        asr_rows = load_asr_corpus(args.asr_corpus)
    except ValueError as e:
        print(f"gen_train.py: {e}", file=sys.stderr)
        return 1
    ASR_CONFUSIONS.update(asr_confusions(asr_rows))
    print("recognizer corpus: %d transcripts, %d confused words" % (len(asr_rows), len(ASR_CONFUSIONS)))
    rng = random.Random(args.seed)
    random.seed(args.seed)
    intent_lines = gen_intents(random.Random(rng.random()), args.intents, order, intents, lex)
    intent_lines += asr_corpus_lines(asr_rows, intents, args.catalogue)
    pii_lines = gen_pii(random.Random(rng.random()), args.pii)
    errors = self_check(intent_lines, pii_lines, intents)
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "intents-train.jsonl"), "w", encoding="ascii", newline="\n") as f:
        for i, d in enumerate(intent_lines):
            rec = {"id": "intents-train-%05d" % (i + 1)}
            rec.update(d)
            f.write(json.dumps(rec) + "\n")
    if WN_EXAMPLES_HELD:
        held = sorted(set(WN_EXAMPLES_HELD), key=lambda t: (zlib.crc32(t.encode()), t))[:2000]
        with open(os.path.join(args.out, "none-calibration.jsonl"), "w", encoding="ascii", newline="\n") as f:
            for i, t in enumerate(held):
                f.write(json.dumps({"id": "none-calibration-%05d" % (i + 1), "text": t, "intent": "none",
                                    "slots": {}, "form": "spoken", "source": "calibration.wordnet"}) + "\n")
    with open(os.path.join(args.out, "pii-train.jsonl"), "w", encoding="ascii", newline="\n") as f:
        for i, d in enumerate(pii_lines):
            rec = {"id": "pii-train-%05d" % (i + 1)}
            rec.update(d)
            f.write(json.dumps(rec) + "\n")
    counts = {}
    for d in intent_lines:
        counts[d["intent"]] = counts.get(d["intent"], 0) + 1
    print("intents: %d lines" % len(intent_lines))
    for k in sorted(counts):
        print("  %-18s %6d" % (k, counts[k]))
    tc = {t: 0 for t in PII_TYPES}
    empty = 0
    for d in pii_lines:
        empty += not d["spans"]
        for sp in d["spans"]:
            tc[sp["type"]] += 1
    print("pii: %d lines, %d without spans" % (len(pii_lines), empty))
    for k in PII_TYPES:
        print("  %-16s %6d" % (k, tc[k]))
    print("time: %.1f s" % (time.time() - t0))
    if errors:
        for e in errors[:30]:
            print("SELF-CHECK:", e, file=sys.stderr)
        print("self-check FAILED: %d violations" % len(errors), file=sys.stderr)
        return 1
    print("self-check ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
