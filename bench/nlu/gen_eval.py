#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
#
# Independent held-out evaluation-set generator for Sotto's language understanding:
# intents + slots (deterministic matcher) and PII span detection (privacy classifier).
# Templates and lexicons here are written independently of the training/dev generators
# (different phrasings, names, streets, cities, conditions, public figures, timer names)
# and follow the labelling rules of shared/data/README.md.
#
# Usage:
#   bench/nlu/gen_eval.py --out DIR [--seed N] [--intents N] [--pii N]
# Writes DIR/intents-eval.jsonl and DIR/pii-eval.jsonl (byte-reproducible per seed),
# runs a self-check (offsets, values, Luhn, IBAN mod-97, slot types, intent names) and
# prints a summary. Exits non-zero on any violation.

import argparse
import collections
import json
import math
import os
import re
import random
import sys

# =====================================================================================
# Number rendering
# =====================================================================================

ONES = ("zero one two three four five six seven eight nine ten eleven twelve thirteen "
        "fourteen fifteen sixteen seventeen eighteen nineteen").split()
TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
ORDINALS = ("zeroth first second third fourth fifth sixth seventh eighth ninth tenth eleventh "
            "twelfth thirteenth fourteenth fifteenth sixteenth seventeenth eighteenth "
            "nineteenth twentieth").split()
DIGIT_WORD = {str(i): ONES[i] for i in range(10)}


def words(n):
    """Cardinal number in words (no 'and'), supports negatives and up to 999999."""
    if n < 0:
        return "minus " + words(-n)
    if n < 20:
        return ONES[n]
    if n < 100:
        return TENS[n // 10] + ("" if n % 10 == 0 else " " + ONES[n % 10])
    if n < 1000:
        rest = n % 100
        return ONES[n // 100] + " hundred" + ("" if rest == 0 else " " + words(rest))
    rest = n % 1000
    return words(n // 1000) + " thousand" + ("" if rest == 0 else " " + words(rest))


def ordinal_words(n):
    if n <= 20:
        return ORDINALS[n]
    if n % 10 == 0:
        return TENS[n // 10][:-1] + "ieth"
    return TENS[n // 10] + " " + ORDINALS[n % 10]


def ordinal_suffix(n):
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    return f"{n}" + {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")


def fmt_num(x):
    """Canonical written number: ints without decimals, floats trimmed."""
    if isinstance(x, int):
        return str(x)
    s = f"{x:.4f}".rstrip("0").rstrip(".")
    return s


def num_words(x):
    """Words for an int or a float with a short decimal part."""
    if isinstance(x, int):
        return words(x)
    s = fmt_num(x)
    neg = s.startswith("-")
    s = s.lstrip("-")
    ip, fp = s.split(".")
    out = words(int(ip)) + " point " + " ".join(DIGIT_WORD[d] for d in fp)
    return ("minus " if neg else "") + out


def year_words(y, r):
    if 2000 <= y <= 2009:
        return "two thousand" + ("" if y == 2000 else " " + ONES[y - 2000])
    if y >= 2010 and r.random() < 0.4:
        return "two thousand " + words(y - 2000)
    hi, lo = divmod(y, 100)
    if lo == 0:
        return words(hi) + " hundred"
    if lo < 10:
        return words(hi) + " oh " + ONES[lo]
    return words(hi) + " " + words(lo)


def house_number_words(n, r):
    if n < 100:
        return words(n)
    if n < 1000:
        hi, lo = divmod(n, 100)
        if lo == 0:
            return words(n)
        if lo < 10:
            return ONES[hi] + " oh " + ONES[lo]
        return ONES[hi] + " " + words(lo) if r.random() < 0.7 else words(n)
    hi, lo = divmod(n, 100)
    if lo == 0:
        return words(hi) + " hundred"
    if lo < 10:
        return words(hi) + " oh " + ONES[lo]
    return words(hi) + " " + words(lo)


def digits_spoken(ds, r, zero=None, groups=True, repeat=True):
    """Digit string -> spoken digit words with optional 'oh', 'double', 'triple'."""
    zero = zero or ("oh" if r.random() < 0.5 else "zero")
    out, i = [], 0
    while i < len(ds):
        d = ds[i]
        run = 1
        while i + run < len(ds) and ds[i + run] == d and run < 3:
            run += 1
        w = zero if d == "0" else DIGIT_WORD[d]
        if repeat and run == 3 and r.random() < 0.5:
            out.append("triple " + w)
            i += 3
            continue
        if repeat and run >= 2 and r.random() < 0.5:
            out.append("double " + w)
            i += 2
            continue
        out.append(w)
        i += 1
    return " ".join(out)


# Parser used by the self-check to turn spoken digit sequences back into digits.
_WORD_DIGIT = {w: str(i) for i, w in enumerate(ONES[:10])}
_WORD_DIGIT["oh"] = "0"
_TEENS = {w: str(i) for i, w in enumerate(ONES) if i >= 10}
_TENS_W = {w: i for i, w in enumerate(TENS) if w}


def parse_spoken_digits(text):
    toks = text.replace(",", " ").split()
    out, i, mult = [], 0, 1
    while i < len(toks):
        t = toks[i]
        if t in ("double", "triple"):
            mult = 2 if t == "double" else 3
            i += 1
            continue
        if t in _WORD_DIGIT:
            out.append(_WORD_DIGIT[t] * mult)
        elif t in _TEENS:
            out.append(_TEENS[t] * 1 if mult == 1 else _TEENS[t] * mult)
        elif t in _TENS_W:
            if i + 1 < len(toks) and toks[i + 1] in _WORD_DIGIT and toks[i + 1] not in ("zero", "oh"):
                out.append(str(_TENS_W[t]) + _WORD_DIGIT[toks[i + 1]])
                i += 1
            else:
                out.append(str(_TENS_W[t]) + "0")
        elif t == "hundred":
            out.append("00")
        elif t in ("plus", "dash", "and"):
            pass
        elif len(t) == 1 and t.isalpha():
            out.append(t.upper())
        else:
            return None
        mult = 1
        i += 1
    return "".join(out)


def luhn_ok(ds):
    total = 0
    for i, ch in enumerate(reversed(ds)):
        d = int(ch)
        if i % 2 == 1:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return total % 10 == 0


def luhn_complete(partial):
    for c in "0123456789":
        if luhn_ok(partial + c):
            return partial + c
    raise AssertionError("unreachable")


IBAN_SPECS = {  # country: (total length, bban pattern; a = letter, n = digit)
    "DE": (22, "n" * 18), "GB": (22, "aaaa" + "n" * 14), "NL": (18, "aaaa" + "n" * 10),
    "FR": (27, "n" * 23), "ES": (24, "n" * 20), "IT": (27, "a" + "n" * 22),
    "BE": (16, "n" * 12), "AT": (20, "n" * 16), "IE": (22, "aaaa" + "n" * 14),
    "PL": (28, "n" * 24), "FI": (18, "n" * 14), "NO": (15, "n" * 11),
    "CH": (21, "n" * 17), "PT": (25, "n" * 21), "DK": (18, "n" * 14),
}
IBAN_LETTERS = "ABCDEFGHJKLMNPRSTUVWXYZ"  # no I/O (ambiguous when spoken)


def iban_numeric(s):
    return "".join(str(int(ch, 36)) for ch in s)


def iban_valid(iban):
    iban = iban.replace(" ", "").upper()
    cc = iban[:2]
    if cc not in IBAN_SPECS or len(iban) != IBAN_SPECS[cc][0]:
        return False
    return int(iban_numeric(iban[4:] + iban[:4])) % 97 == 1


def make_iban(r):
    cc = r.choice(sorted(IBAN_SPECS))
    _, pat = IBAN_SPECS[cc]
    bban = "".join(r.choice(IBAN_LETTERS) if p == "a" else r.choice("0123456789") for p in pat)
    check = 98 - int(iban_numeric(bban + cc + "00")) % 97
    return f"{cc}{check:02d}{bban}"


# =====================================================================================
# Intent lexicons
# =====================================================================================

INTENTS = ["time.query", "date.query", "timer.set", "timer.cancel", "timer.query",
           "alarm.set", "volume.up", "volume.down", "volume.set", "volume.mute", "stop",
           "repeat", "privacy.offline", "privacy.online", "weather.query", "convert.units",
           "math.compute"]
ALL_INTENTS = INTENTS + ["none"]
WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
UNIT_CODES = {"km", "mi", "m", "ft", "in", "cm", "kg", "lb", "g", "oz", "l", "ml", "gal",
              "cup", "tbsp", "tsp", "c", "f", "mph", "kmh"}

TIMER_NAMES = ["focaccia", "dumplings", "porridge", "brisket", "kombucha", "meringue",
               "laundry", "homework", "nap", "tea", "quinoa", "flatbread", "face mask",
               "plank", "piano practice", "gnocchi", "sourdough", "risotto", "chai",
               "shortbread", "sweet potatoes", "dryer", "meditation", "stretching"]

WEATHER_CITIES = ["tulsa", "spokane", "duluth", "tacoma", "boise", "reno", "albuquerque",
                  "savannah", "halifax", "winnipeg", "lyon", "porto", "krakow", "gdansk",
                  "osaka", "leeds", "cork", "bergen", "hobart", "wellington", "nairobi",
                  "accra", "quito", "el paso", "baton rouge", "salt lake city", "cape town",
                  "kuala lumpur", "saint paul", "tallinn", "valencia", "marrakesh"]

# spoken imperative/filler wrappers: (spoken, written, imperative-only)
PREFIXES = [("hey ", "Hey, ", False), ("um ", "Um, ", False), ("okay so ", "Ok so ", False),
            ("hey sotto ", "Hey Sotto, ", False), ("sotto ", "Sotto, ", False),
            ("excuse me ", "Excuse me, ", False), ("so uh ", "So uh, ", False),
            ("right ", "Right, ", False), ("yo ", "Yo ", False),
            ("hey um could you please ", "Hey, could you please ", True),
            ("could you ", "Could you ", True), ("can you ", "Can you ", True),
            ("please ", "Please ", True), ("i need you to ", "I need you to ", True),
            ("would you please ", "Would you please ", True)]
SUFFIXES = [(" please", " please", False), (" thanks", ", thanks", False),
            (" thanks so much", ", thanks so much", False), (" cheers", ", cheers", False),
            (" thank you", ", thank you", False), (" mate", " mate", False),
            (" would you", ", would you", True), (" for me", " for me", True),
            (" if you don't mind", " if you don't mind", True), (" ta", ", ta", False)]

# -- time / date ----------------------------------------------------------------------
TIME_Q = {
    "direct": ["what time is it", "what's the time", "time please", "current time",
               "tell me the time", "give me the time", "time check", "what time is it now",
               "what's the time right now", "say the time"],
    "question": ["could you tell me what time it is", "do you know what time it is",
                 "have you got the time", "any idea what time it is", "what time do you have",
                 "can you check the time", "how late is it", "is it late yet what time is it"],
    "slang": ["what's the time mate", "got the time", "what o'clock is it",
              "whats the time then", "how late is it getting"],
}
DATE_Q = {
    "direct": ["what's the date", "what's today's date", "today's date", "tell me the date",
               "what day is it", "what day of the week is it", "date please",
               "give me today's date"],
    "question": ["could you tell me what the date is", "do you know what day it is today",
                 "what's the date today", "which day is it today", "what's the date again",
                 "what day of the month is it", "is it the weekend yet what day is it",
                 "what date is it"],
    "slang": ["what's the date mate", "what day we on", "remind me what day it is",
              "date check", "lost track of the days what day is it"],
}

# -- timers ---------------------------------------------------------------------------
TIMER_SET = {
    "direct": ["set a timer for {d}", "start a timer for {d}", "timer for {d}", "timer {d}",
               "put a timer on for {d}", "set a {da} timer", "start a {da} countdown",
               "start a countdown for {d}", "countdown {d}", "count down {d}",
               "time {d} for me"],
    "named": ["set a {n} timer for {d}", "set a timer for {d} for the {n}",
              "start a timer called {n} for {d}", "set a {da} {n} timer",
              "timer named {n} {d}", "{d} on the {n} timer", "start the {n} timer for {d}",
              "set a timer for the {n} {d}"],
    "question": ["can you set a timer for {d}", "could you time {d} for me",
                 "would you start a {da} timer", "can i get a timer for {d}",
                 "can you count down {d}"],
    "correction": ["set a timer for {d0} no {d}", "set a timer for {d0} i mean {d}",
                   "timer for {d0} uh actually make that {d}", "countdown {d0} sorry {d}",
                   "start a timer for {d0} wait no {d}"],
    "slang": ["chuck a {da} timer on", "bung a timer on for {d}", "stick a timer on for {d}",
              "gimme a {da} timer", "whack on a timer for {d}"],
}
TIMER_CANCEL = {
    "direct": ["cancel the timer", "cancel my timer", "kill the timer", "scrap the timer",
               "delete the timer", "turn off the timer", "remove the timer",
               "cancel all my timers", "clear the timer", "call off the countdown",
               "stop the countdown"],
    "named": ["cancel the {n} timer", "get rid of the {n} timer", "kill the {n} timer",
              "delete the timer for the {n}", "call off the {n} timer",
              "i don't need the {n} timer anymore", "turn off the {n} timer"],
    "indirect": ["never mind the timer", "forget the timer", "i don't need the timer anymore",
                 "you can ditch the timer", "no more timer thanks"],
}
TIMER_QUERY = {
    "direct": ["how much time is left on the timer", "how long left on the timer",
               "time remaining on my timer", "what's the timer at", "check the timer",
               "how many minutes are left on the timer", "timer status",
               "how long is left on the countdown"],
    "named": ["how much longer on the {n} timer", "how's the {n} timer doing",
              "how long until the {n} timer goes off", "what's left on the {n} timer"],
    "question": ["is the timer almost done", "when will the timer go off",
                 "how long until my timer rings", "has the timer got long left",
                 "how much longer do i have on the timer"],
}

# -- alarm ----------------------------------------------------------------------------
ALARM_SET = {
    "direct": ["set an alarm for {t}", "alarm for {t}", "set my alarm to {t}",
               "put an alarm on for {t}", "alarm at {t}", "new alarm {t}",
               "create an alarm for {t}"],
    "wake": ["wake me up at {t}", "wake me at {t}", "get me up at {t}", "buzz me awake at {t}",
             "i need to get up at {t}", "i have to be up by {t}", "rouse me at {t}"],
    "question": ["can you set an alarm for {t}", "could you wake me up at {t}",
                 "will you get me up at {t}", "can i have an alarm at {t}"],
    "correction": ["set an alarm for {t0} no wait {t}", "wake me at {t0} actually {t}",
                   "alarm for {t0} i mean {t}"],
}

# -- volume ---------------------------------------------------------------------------
VOLUME_UP = {
    "direct": ["turn it up", "volume up", "louder", "turn the volume up", "raise the volume",
               "increase the volume", "make it louder", "turn up the sound", "a bit louder",
               "up the volume"],
    "slang": ["crank it up", "bump the volume", "pump it up", "turn it way up",
              "bump it up a notch", "whack the volume up", "louder mate", "give it some welly"],
    "indirect": ["i can't hear it", "i can barely hear you", "it's too quiet",
                 "i can't hear a thing", "speak up", "that's way too soft",
                 "it's hard to hear from the kitchen", "i can hardly hear the music"],
}
VOLUME_DOWN = {
    "direct": ["turn it down", "volume down", "quieter", "lower the volume",
               "decrease the volume", "turn the volume down", "make it quieter",
               "reduce the volume", "a little quieter", "down the volume"],
    "slang": ["dial it back", "tone it down", "knock it down a notch", "bring it down a bit",
              "turn it way down", "ease off the volume"],
    "indirect": ["it's way too loud", "that's deafening", "too loud", "my ears are ringing",
                 "it's a bit loud", "the baby's sleeping turn it down",
                 "way too loud in here", "that's loud"],
}
VOLUME_MUTE = {
    "direct": ["mute", "mute yourself", "mute the sound", "turn the sound off", "sound off",
               "mute the speaker", "kill the sound", "mute audio"],
    "slang": ["shh", "shush", "hush", "quiet", "be quiet", "quiet please", "silence",
              "zip it", "hush now"],
}
VOLUME_SET = {
    "direct": ["set the volume to {l}", "volume {l}", "volume to {l}", "turn the volume to {l}",
               "change the volume to {l}", "make the volume {l}", "put the volume on {l}",
               "volume level {l}", "set volume at level {l}", "volume at {l}"],
    "question": ["can you set the volume to {l}", "could you put the volume at {l}",
                 "can you set volume to {l} out of ten", "could you make it volume {l}"],
    "correction": ["volume to {l0} no {l}", "set the volume to {l0} actually {l}",
                   "volume {l0} i mean {l}"],
}

# -- stop / repeat / privacy ------------------------------------------------------------
STOP = {
    "direct": ["stop", "stop it", "stop playing", "stop talking", "halt", "end it",
               "that's enough", "enough", "okay stop", "please stop", "stop that"],
    "slang": ["cut it out", "knock it off", "give it a rest", "pack it in", "enough already",
              "okay okay stop"],
}
REPEAT = {
    "direct": ["repeat that", "say that again", "repeat", "say it again", "repeat please",
               "one more time", "repeat the last thing"],
    "question": ["could you repeat that", "what did you say", "can you say that again",
                 "sorry what was that", "pardon", "what was that", "come again",
                 "sorry i missed that can you repeat it"],
    "slang": ["run that by me again", "say what", "huh say that again", "you what",
              "once more"],
}
PRIVACY_OFFLINE = {
    "direct": ["go offline", "turn on privacy mode", "enable privacy mode",
               "switch to offline mode", "privacy mode on", "disconnect from the internet",
               "go into offline mode", "activate privacy mode"],
    "indirect": ["go dark", "stop sending anything to the cloud", "cut the internet connection",
                 "i want total privacy now", "stay off the internet for a while",
                 "stop talking to the cloud"],
}
PRIVACY_ONLINE = {
    "direct": ["go back online", "turn off privacy mode", "disable privacy mode",
               "privacy mode off", "exit offline mode", "reconnect to the internet",
               "switch privacy mode off", "go online"],
    "indirect": ["you can go online again", "come back online", "end privacy mode",
                 "leave offline mode", "okay you can use the internet again",
                 "reconnect to the cloud"],
}

# -- weather --------------------------------------------------------------------------
WEATHER = {
    "direct": ["what's the weather {D} {P}", "weather {D} {P}", "forecast {D} {P}",
               "what's the forecast {D} {P}", "{P2} weather {D}", "give me the weather {D} {P}",
               "what's the temperature {D} {P}"],
    "question": ["is it going to rain {D} {P}", "will it snow {D} {P}",
                 "how hot is it going to be {D} {P}", "how cold will it be {D} {P}",
                 "is it gonna be sunny {D} {P}", "will it be windy {D} {P}",
                 "what's the weather going to be like {D} {P}", "could you tell me the weather {D} {P}"],
    "indirect": ["do i need an umbrella {D}", "should i bring a jacket {D}",
                 "is it shorts weather {D}", "do i need a coat {D}", "what's it doing outside",
                 "is it cold out", "how warm is it out there"],
}
WEATHER_DAYS = [("today", "today"), ("tonight", "today"), ("this evening", "today"),
                ("tomorrow", "tomorrow"), ("this weekend", "weekend"),
                ("over the weekend", "weekend"), ("on the weekend", "weekend")] + \
               [("on " + d, d) for d in WEEKDAYS] + [(d, d) for d in WEEKDAYS]

# -- convert units --------------------------------------------------------------------
# code: (spoken singular, spoken plural, written forms)
UNITS = {
    "km": ("kilometer", "kilometers", ["km", "kilometers", "kilometres"]),
    "mi": ("mile", "miles", ["miles", "mi"]),
    "m": ("meter", "meters", ["m", "meters", "metres"]),
    "ft": ("foot", "feet", ["ft", "feet"]),
    "in": ("inch", "inches", ["inches"]),
    "cm": ("centimeter", "centimeters", ["cm", "centimetres"]),
    "kg": ("kilogram", "kilograms", ["kg", "kilos", "kilograms"]),
    "lb": ("pound", "pounds", ["lbs", "lb", "pounds"]),
    "g": ("gram", "grams", ["g", "grams"]),
    "oz": ("ounce", "ounces", ["oz", "ounces"]),
    "l": ("liter", "liters", ["liters", "litres", "L"]),
    "ml": ("milliliter", "milliliters", ["ml", "millilitres"]),
    "gal": ("gallon", "gallons", ["gallons", "gal"]),
    "cup": ("cup", "cups", ["cups"]),
    "tbsp": ("tablespoon", "tablespoons", ["tbsp", "tablespoons"]),
    "tsp": ("teaspoon", "teaspoons", ["tsp", "teaspoons"]),
    "c": ("degree celsius", "degrees celsius", ["C", "degrees Celsius", "celsius"]),
    "f": ("degree fahrenheit", "degrees fahrenheit", ["F", "degrees Fahrenheit", "fahrenheit"]),
    "mph": ("mile per hour", "miles per hour", ["mph"]),
    "kmh": ("kilometer per hour", "kilometers per hour", ["km/h", "kph"]),
}
UNIT_TARGET = {  # how the target unit is named (spoken, written)
    "c": (["celsius", "centigrade"], ["Celsius", "C"]),
    "f": (["fahrenheit"], ["Fahrenheit", "F"]),
}
UNIT_GROUPS = [["km", "mi", "m", "ft", "in", "cm"], ["kg", "lb", "g", "oz"],
               ["l", "ml", "gal", "cup", "tbsp", "tsp"], ["c", "f"], ["mph", "kmh"]]
CONVERT = {
    "direct": ["convert {v} {u1} to {u2}", "{v} {u1} in {u2}", "{v} {u1} to {u2}",
               "change {v} {u1} into {u2}", "convert {v} {u1} into {u2}"],
    "question": ["how many {u2} in {v} {u1}", "how many {u2} is {v} {u1}",
                 "what's {v} {u1} in {u2}", "how much is {v} {u1} in {u2}",
                 "what is {v} {u1} in {u2}", "could you convert {v} {u1} to {u2}",
                 "do you know how many {u2} are in {v} {u1}"],
}

# -- maths ----------------------------------------------------------------------------
MATH = {
    "direct": ["{e}", "calculate {e}", "compute {e}", "work out {e}", "solve {e}"],
    "question": ["what's {e}", "what is {e}", "how much is {e}", "can you work out {e}",
                 "do you know what {e} is", "what do you get for {e}", "what does {e} come to"],
    "slang": ["quick maths {e}", "oi what's {e}", "{e} go", "help me out what's {e}"],
}

# -- none (open requests, many with command-like words) ---------------------------------
NONE_TRAPS = [
    "what time does the farmers market open", "how loud is a jet engine",
    "who sang stop in the name of love", "convert my garage into an office ideas",
    "what's the weather like on mars", "set the table for dinner tips",
    "can you repeat history lessons", "how do i stop my cat scratching the sofa",
    "what is the volume of a sphere", "why is my neighbour's dog so loud",
    "how long does it take to boil an egg", "what time zone is new zealand in",
    "how do i set up a fish tank", "who invented the alarm clock",
    "what's the best way to wake up early", "why do i always turn the heating up at night",
    "how do i mute someone on a group chat", "what does offline mean in gaming",
    "how do you say stop in japanese", "explain how weather balloons work",
    "what is the time complexity of quicksort", "how many minutes are in a day",
    "how do i convert a pdf into a word document", "what's the date of the next solar eclipse",
    "what temperature should a fridge be", "how do i turn down a job offer politely",
    "why does music sound louder at night", "is it rude to repeat a joke",
    "how do i raise my credit score", "what happened on this day in history",
    "what's a good name for a timer app", "why do clocks go forward in spring",
    "what's the loudest animal on earth", "how do i lower my blood pressure naturally",
    "should i go offline for a week", "what's the point of daylight saving time",
    "how much volume does a basketball have", "who wrote the song the sound of silence",
    "how do i stop procrastinating", "how many days until christmas is that a lot",
    "what makes thunder so loud", "how do you calculate compound interest",
    "what's privacy mode in a browser", "why is the sky blue",
    "how do i quiet my mind before bed", "how hot is the sun",
    "when was the first weather forecast", "can you play the piano",
    "what's a good alarm clock for heavy sleepers", "how far away is the moon",
]
NONE_TEMPLATES = {
    "knowledge": ["who was the first person to {k}", "why do {animal} {verb}",
                  "what's the capital of {country}", "how many people live in {country}",
                  "what's the difference between {a} and {b}", "who wrote {book}",
                  "how does {thing} work", "what language do they speak in {country}",
                  "when did {event} happen", "what is {thing} made of"],
    "chitchat": ["how are you today", "what's your favourite colour", "do you ever get bored",
                 "tell me something interesting", "are you a robot", "what do you dream about",
                 "i had a really long day", "do you like {food}", "i'm bored",
                 "what's your name", "good morning", "you're pretty clever aren't you",
                 "what should we talk about", "i just got back from {country}"],
    "advice": ["how do i {task}", "any tips for {task2}", "what should i get my mum for her birthday",
               "how can i sleep better", "should i learn {skill} or {skill2}",
               "what's a good way to {task}", "how do i get better at {skill}",
               "what should i wear to a wedding"],
    "recipe": ["how do i make {food}", "give me a recipe for {food}", "what goes well with {food}",
               "what can i cook with {ing} and {ing2}", "how long do i roast {ing} for",
               "what's a good vegetarian version of {food}", "how do you make {food} from scratch"],
    "story": ["tell me a story about {animal}", "tell me a bedtime story",
              "make up a poem about {thing}", "tell me a joke about {animal}",
              "write a short story about a lost {thing}", "tell me a riddle"],
    "opinion": ["what do you think about {thing}", "is {food} better than {food2}",
                "what's the best {skill} movie", "do you think {animal} are smart",
                "which is better {a} or {b}", "what's your opinion on pineapple on pizza"],
}
NONE_LEX = {
    "k": ["climb everest", "fly across the atlantic", "reach the south pole", "walk on the moon",
          "split the atom", "sail around the world"],
    "animal": ["cats", "octopuses", "crows", "otters", "flamingos", "hedgehogs", "penguins", "goats"],
    "verb": ["purr", "change colour", "stand on one leg", "sleep so much", "hum", "migrate"],
    "country": ["mongolia", "peru", "iceland", "vietnam", "ghana", "portugal", "bhutan", "chile"],
    "a": ["a crocodile", "baking soda", "a virus", "weather", "a lake", "empathy", "jam"],
    "b": ["an alligator", "baking powder", "bacteria", "climate", "a pond", "sympathy", "marmalade"],
    "book": ["frankenstein", "the hobbit", "things fall apart", "one hundred years of solitude",
             "the little prince", "beloved"],
    "thing": ["a rainbow", "a microwave", "the internet", "a submarine", "glass", "a volcano",
              "a compass", "a lighthouse", "wifi", "the tides"],
    "event": ["the fall of the berlin wall", "the first moon landing", "the great fire of london",
              "the gold rush", "the printing press"],
    "food": ["shakshuka", "banana bread", "pho", "ratatouille", "pad thai", "tiramisu",
             "jollof rice", "pierogi", "chilli", "lemon drizzle cake"],
    "food2": ["lasagne", "sushi", "tacos", "curry", "pancakes", "dim sum"],
    "ing": ["chickpeas", "leftover rice", "spinach", "a chicken", "cauliflower", "lentils"],
    "ing2": ["eggs", "feta", "tinned tomatoes", "coconut milk", "mushrooms", "potatoes"],
    "task": ["unclog a drain", "fold a fitted sheet", "start running", "save money on groceries",
             "write a cover letter", "get rid of fruit flies", "fix a squeaky door"],
    "task2": ["a first date", "moving house", "a long flight", "public speaking", "a job interview"],
    "skill": ["guitar", "spanish", "chess", "drawing", "coding", "knitting", "horror"],
    "skill2": ["piano", "french", "poker", "painting", "baking", "crochet"],
}


# =====================================================================================
# Intent slot-value phrase builders (each returns the value and the phrase for a form)
# =====================================================================================

def duration(r, form):
    """(seconds, phrase, adjectival phrase or None)."""
    sp = form == "spoken"
    k = r.random()
    if k < 0.40:
        n = r.choice([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 15, 18, 20, 25, 30, 35, 40, 45, 50, 75, 90])
        unit = "minute" if n == 1 else "minutes"
        if sp:
            num = ("a" if r.random() < 0.5 else "one") if n == 1 else words(n)
            return n * 60, f"{num} {unit}", f"{words(n)} minute"
        w = r.choice(["minutes", "minutes", "min", "mins"]) if n > 1 else "minute"
        return n * 60, f"{n} {w}", f"{n}-minute" if r.random() < 0.5 else f"{n} minute"
    if k < 0.55:
        n = r.choice([10, 15, 20, 30, 40, 45, 50, 90, 100, 120])
        if sp:
            return n, f"{words(n)} seconds", f"{words(n)} second"
        return n, f"{n} {r.choice(['seconds', 'secs', 'sec'])}", f"{n}-second"
    if k < 0.65:
        n = r.choice([1, 2, 3])
        if sp:
            num = ("an" if r.random() < 0.5 else "one") if n == 1 else words(n)
            return n * 3600, f"{num} {'hour' if n == 1 else 'hours'}", f"{words(n)} hour"
        return n * 3600, f"{n} {'hour' if n == 1 else r.choice(['hours', 'hrs'])}", f"{n}-hour"
    if k < 0.73:
        opts = [(5400, "an hour and a half", "1.5 hours"), (1800, "half an hour", "half an hour"),
                (900, "a quarter of an hour", "a quarter of an hour"),
                (2700, "three quarters of an hour", "45 minutes"),
                (9000, "two and a half hours", "2.5 hours"), (30, "half a minute", "30 s")]
        sec, s_ph, w_ph = r.choice(opts)
        return sec, (s_ph if sp else w_ph), None
    if k < 0.85:
        m, s = r.choice([1, 2, 3, 4, 5, 10]), r.choice([10, 15, 20, 30, 40, 45])
        if sp:
            return m * 60 + s, f"{words(m)} {'minute' if m == 1 else 'minutes'} and {words(s)} seconds", None
        return m * 60 + s, r.choice([f"{m} min {s} sec", f"{m} minutes {s} seconds", f"{m}m{s}s"]), None
    if k < 0.93:
        m = r.choice([1, 2, 3, 4, 5, 7, 10])
        if sp:
            return m * 60 + 30, f"{words(m)} and a half minutes", None
        return m * 60 + 30, f"{m}.5 minutes", None
    h, m = r.choice([1, 2]), r.choice([10, 15, 20, 30, 40, 45])
    if sp:
        return h * 3600 + m * 60, f"{'an' if h == 1 else words(h)} {'hour' if h == 1 else 'hours'} and {words(m)} minutes", None
    return h * 3600 + m * 60, f"{h}h {m}m" if r.random() < 0.5 else f"{h} hr {m} min", None


def clock_time(r, form):
    """(HH:MM, phrase) following the README time rules."""
    sp = form == "spoken"
    k = r.random()

    def mins_sp(m):
        return "" if m == 0 else (" oh " + ONES[m] if m < 10 else " " + words(m))
    minute_pool = [0, 0, 0, 5, 10, 15, 20, 25, 30, 30, 40, 45, 50, 55, 7, 12, 35]
    if k < 0.30:  # am / pm
        h, m = r.randint(1, 11), r.choice(minute_pool)
        pm = r.random() < 0.5
        hh = h + 12 if pm else h
        if sp:
            return f"{hh:02d}:{m:02d}", f"{words(h)}{mins_sp(m)} {'pm' if pm else 'am'}"
        suf = r.choice(["pm", "PM", " pm", " p.m."] if pm else ["am", "AM", " am", " a.m."])
        body = f"{h}" if m == 0 and r.random() < 0.5 else f"{h}:{m:02d}"
        return f"{hh:02d}:{m:02d}", body + suf
    if k < 0.50:  # in the morning / in the evening / at night
        part = r.choice(["in the morning", "in the evening", "at night"])
        h = {"in the morning": r.randint(1, 11), "in the evening": r.randint(5, 11),
             "at night": r.randint(8, 11)}[part]
        m = r.choice(minute_pool)
        hh = h if part == "in the morning" else h + 12
        if sp:
            hp = f"{words(h)} o'clock" if m == 0 and r.random() < 0.5 else f"{words(h)}{mins_sp(m)}"
            return f"{hh:02d}:{m:02d}", f"{hp} {part}"
        return f"{hh:02d}:{m:02d}", (f"{h}" if m == 0 else f"{h}:{m:02d}") + " " + part
    if k < 0.70:  # half past / quarter past / quarter to / ten to, optional half of day
        rel = r.choice(["half past", "quarter past", "quarter to", "ten past", "twenty to",
                        "ten to", "twenty past", "five past"])
        h = r.randint(1, 11)
        off = {"half past": 30, "quarter past": 15, "quarter to": -15, "ten past": 10,
               "twenty to": -20, "ten to": -10, "twenty past": 20, "five past": 5}[rel]
        part = r.choice(["", "", "am", "pm", "in the morning", "in the evening"])
        if part == "in the evening" and h < 6:
            part = "pm"
        base = h + 12 if part in ("pm", "in the evening") else h
        total = base * 60 + off
        hh, m = divmod(total, 60)
        hw = words(h) if sp else (words(h) if r.random() < 0.6 else str(h))
        ph = f"{rel} {hw}" + (" " + part if part else "")
        return f"{hh:02d}:{m:02d}", ph
    if k < 0.78:  # noon / midnight
        opt = r.choice([("12:00", "noon"), ("12:00", "twelve noon"), ("00:00", "midnight"),
                        ("12:00", "midday")])
        return opt[0], opt[1]
    if k < 0.92:  # bare hour (read as morning)
        h, m = r.randint(1, 11), r.choice(minute_pool)
        if sp:
            ph = f"{words(h)} o'clock" if m == 0 else f"{words(h)}{mins_sp(m)}"
            return f"{h:02d}:{m:02d}", ph
        ph = f"{h} o'clock" if m == 0 and r.random() < 0.5 else f"{h}:{m:02d}"
        return f"{h:02d}:{m:02d}", ph
    # 24h clock
    hh, m = r.randint(13, 23), r.choice(minute_pool)
    if sp:
        return f"{hh:02d}:{m:02d}", f"{words(hh)} {'hundred' if m == 0 else (('oh ' + ONES[m]) if m < 10 else words(m))}"
    return f"{hh:02d}:{m:02d}", f"{hh}:{m:02d}"


def math_expr(r, form):
    """(expression, result, phrase)."""
    sp = form == "spoken"
    k = r.random()
    N = (lambda x: num_words(x)) if sp else (lambda x: fmt_num(x))
    if k < 0.60:
        op = r.choice(["+", "-", "*", "/"])
        if op == "/":
            b = r.choice([2, 3, 4, 5, 6, 7, 8, 9, 12, 16, 25])
            a = r.choice([b * r.randint(2, 30), r.randint(10, 400)])
        elif op == "*":
            a, b = r.randint(2, 99), r.randint(2, 30)
        else:
            a, b = r.randint(1, 999), r.randint(1, 999)
        if r.random() < 0.12 and op in "+-*":
            a = r.randint(1, 40) + r.choice([0.5, 0.25, 0.1, 0.75])
        sp_ops = {"+": ["plus", "add"], "-": ["minus", "take away", "subtract"],
                  "*": ["times", "multiplied by", "multiply"], "/": ["divided by", "over", "divide"]}
        w_ops = {"+": ["+", "plus"], "-": ["-", "minus"], "*": ["*", "x", "times"],
                 "/": ["/", "divided by"]}
        word = r.choice(sp_ops[op]) if sp else r.choice(w_ops[op])
        if word == "add":
            ph = f"{N(a)} and {N(b)} added together" if r.random() < 0.4 else f"the sum of {N(a)} and {N(b)}"
        elif word == "subtract":
            ph = f"{N(b)} subtracted from {N(a)}"
        elif word == "multiply":
            ph = f"{N(a)} multiplied by {N(b)}"
        elif word == "divide":
            ph = f"{N(a)} divided by {N(b)}"
        else:
            ph = f"{N(a)} {word} {N(b)}"
        expr = f"{fmt_num(a)} {op} {fmt_num(b)}"
        res = {"+": a + b, "-": a - b, "*": a * b, "/": a / b}[op]
    elif k < 0.72:
        p = r.choice([5, 10, 12, 15, 18, 20, 25, 30, 40, 75])
        x = r.choice([40, 60, 80, 120, 250, 64, 90, 35, 1200, 48])
        ph = f"{N(p)} percent of {N(x)}" if sp else r.choice([f"{p}% of {x}", f"{p} percent of {x}"])
        expr, res = f"{p} / 100 * {x}", p / 100 * x
    elif k < 0.84:
        x = r.choice([4, 9, 16, 25, 49, 81, 144, 169, 225, 2, 3, 10, 50, 400])
        ph = f"the square root of {N(x)}" if r.random() < 0.7 else f"root {N(x)}"
        if not sp and r.random() < 0.3:
            ph = f"sqrt({x})"
        expr, res = f"sqrt({x})", math.sqrt(x)
    else:
        a = r.randint(2, 12)
        b = r.choice([2, 2, 3, 3, 4, 5, 10])
        if b == 2 and r.random() < 0.5:
            ph = f"{N(a)} squared"
        elif b == 3 and r.random() < 0.5:
            ph = f"{N(a)} cubed"
        else:
            ph = f"{N(a)} to the power of {N(b)}" if sp or r.random() < 0.5 else f"{a}^{b}"
        expr, res = f"{a} ^ {b}", a ** b
    if abs(res - round(res)) < 1e-9:
        res = int(round(res))
    else:
        res = round(res, 4)
    return expr, res, ph


def convert_value(r):
    k = r.random()
    if k < 0.7:
        return r.choice([1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 25, 30, 40, 50, 60, 75, 100, 180, 250, 500])
    return r.choice([1.5, 2.5, 0.5, 3.2, 7.5, 12.5, 0.25, 1.75])


# =====================================================================================
# Intent line builders: each returns (core text, slots, family, imperative?)
# =====================================================================================

def _pick(r, table):
    fam = r.choice(sorted(table))
    return fam, r.choice(table[fam])


def _static(intent, table, imp_fams=("direct",)):
    def build(r, form):
        fam, t = _pick(r, table)
        return t, {}, f"{intent}.{fam}", fam in imp_fams
    return build


def b_timer_set(r, form):
    fam, t = _pick(r, TIMER_SET)
    secs, ph, adj = duration(r, form)
    while "{da}" in t and adj is None:
        secs, ph, adj = duration(r, form)
    slots = {"duration_seconds": secs}
    d0 = ph
    if "{d0}" in t:
        while True:
            s0, d0, _ = duration(r, form)
            if s0 != secs:
                break
    if "{n}" in t:
        slots["name"] = r.choice(TIMER_NAMES)
    text = t.format(d=ph, da=adj or "", d0=d0, n=slots.get("name", ""))
    return text, slots, f"timer.set.{fam}", fam in ("direct", "named", "slang")


def b_timer_cancel(r, form):
    fam, t = _pick(r, TIMER_CANCEL)
    slots = {}
    if "{n}" in t:
        slots["name"] = r.choice(TIMER_NAMES)
    return t.format(n=slots.get("name", "")), slots, f"timer.cancel.{fam}", fam != "indirect"


def b_timer_query(r, form):
    fam, t = _pick(r, TIMER_QUERY)
    return t.format(n=r.choice(TIMER_NAMES)), {}, f"timer.query.{fam}", False


def b_alarm_set(r, form):
    fam, t = _pick(r, ALARM_SET)
    hhmm, ph = clock_time(r, form)
    slots = {"time": hhmm}
    t0 = ph
    if "{t0}" in t:
        while True:
            h0, t0 = clock_time(r, form)
            if h0 != hhmm:
                break
    text = t.format(t=ph, t0=t0)
    if r.random() < 0.45:
        day_ph, day = r.choice([("tomorrow", "tomorrow"), ("today", "today"),
                                ("tomorrow morning", "tomorrow")] +
                               [(r.choice(["on ", "for ", "this ", ""]) + d, d) for d in WEEKDAYS])
        if day_ph == "tomorrow morning" and not (hhmm < "12:00"):
            day_ph = "tomorrow"
        slots["day"] = day
        if r.random() < 0.6 or fam == "correction":
            text = f"{text} {day_ph}"
        else:
            text = f"{day_ph} {text}"
    return text, slots, f"alarm.set.{fam}", fam in ("direct", "wake")


def b_volume_set(r, form):
    fam, t = _pick(r, VOLUME_SET)
    lv = r.randint(0, 10) if r.random() < 0.15 else r.randint(1, 9)
    l0 = lv
    while l0 == lv:
        l0 = r.randint(1, 10)
    N = words if form == "spoken" else str
    return t.format(l=N(lv), l0=N(l0)), {"level": lv}, f"volume.set.{fam}", fam == "direct"


def b_weather(r, form):
    fam, t = _pick(r, WEATHER)
    slots = {}
    D = P = P2 = ""
    if "{D}" in t and r.random() < 0.7:
        D, slots["day"] = r.choice(WEATHER_DAYS)
    if "{P}" in t and r.random() < 0.6 or "{P2}" in t:
        city = r.choice(WEATHER_CITIES)
        slots["place"] = city
        cw = city if form == "spoken" or r.random() < 0.2 else city.title()
        P = r.choice(["in ", "in ", "for ", "over in "]) + cw
        P2 = cw
        if "{D}" in t and "{P}" in t and D and r.random() < 0.3:  # place before day
            t = t.replace("{D} {P}", "{P} {D}")
    text = t.format(D=D, P=P, P2=P2)
    text = " ".join(text.split())
    slots = {k: slots[k] for k in ("day", "place") if k in slots}
    return text, slots, f"weather.query.{fam}", fam == "direct"


def unit_name(code, r, form, plural, target=False):
    if target and code in UNIT_TARGET:
        return r.choice(UNIT_TARGET[code][0 if form == "spoken" else 1])
    sg, pl, wr = UNITS[code]
    if form == "spoken":
        return pl if plural else sg
    if plural or r.random() < 0.5:
        return r.choice(wr)
    return sg


def b_convert(r, form):
    fam, t = _pick(r, CONVERT)
    group = r.choice(UNIT_GROUPS)
    u1, u2 = r.sample(group, 2)
    v = convert_value(r)
    if u1 in ("c", "f"):
        v = r.choice([-10, 0, 20, 25, 37, 72, 100, 180, 350, 451, 15.5])
    one = v == 1 and u1 not in ("c", "f")
    if form == "spoken":
        vp = r.choice(["a", "one"]) if one else num_words(v)
        if v == 1 and u1 in ("c", "f"):
            vp = "one"
    else:
        vp = fmt_num(v)
    n1 = unit_name(u1, r, form, plural=not one)
    n2 = unit_name(u2, r, form, plural=True, target=True)
    if form == "spoken" and u1 in ("c", "f") and r.random() < 0.5:
        n1 = "degrees " + ("celsius" if u1 == "c" else "fahrenheit")
    if t.startswith("how many") and u2 in ("c", "f"):
        t = "what's {v} {u1} in {u2}"
    text = t.format(v=vp, u1=n1, u2=n2)
    return text, {"value": v, "from": u1, "to": u2}, f"convert.units.{fam}", fam == "direct"


def b_math(r, form):
    fam, t = _pick(r, MATH)
    expr, res, ph = math_expr(r, form)
    return t.format(e=ph), {"expression": expr, "result": res}, f"math.compute.{fam}", fam == "direct"


def b_none(r, form):
    k = r.random()
    if k < 0.40:
        return r.choice(NONE_TRAPS), {}, "none.trap", False
    fam = r.choice(sorted(NONE_TEMPLATES))
    t = r.choice(NONE_TEMPLATES[fam])

    def sub(m):
        return r.choice(NONE_LEX[m.group(1)])
    text = re.sub(r"\{(\w+)\}", sub, t)
    return text, {}, f"none.{fam}", False


BUILDERS = {
    "time.query": _static("time.query", TIME_Q, ()),
    "date.query": _static("date.query", DATE_Q, ()),
    "timer.set": b_timer_set, "timer.cancel": b_timer_cancel, "timer.query": b_timer_query,
    "alarm.set": b_alarm_set,
    "volume.up": _static("volume.up", VOLUME_UP, ("direct", "slang")),
    "volume.down": _static("volume.down", VOLUME_DOWN, ("direct", "slang")),
    "volume.mute": _static("volume.mute", VOLUME_MUTE, ("direct",)),
    "volume.set": b_volume_set,
    "stop": _static("stop", STOP, ()),
    "repeat": _static("repeat", REPEAT, ()),
    "privacy.offline": _static("privacy.offline", PRIVACY_OFFLINE, ("direct",)),
    "privacy.online": _static("privacy.online", PRIVACY_ONLINE, ("direct",)),
    "weather.query": b_weather, "convert.units": b_convert, "math.compute": b_math,
    "none": b_none,
}

# ASR noise -----------------------------------------------------------------------------
HOMOPHONES = {"for": ["four"], "to": ["two", "too"], "weather": ["whether"], "two": ["to"],
              "right": ["write"], "hour": ["our"], "eight": ["ate"], "there": ["their"],
              "know": ["no"], "hear": ["here"], "by": ["buy"], "new": ["knew"],
              "four": ["for"], "one": ["won"], "mute": ["moot"], "minutes": ["minute"], "too": ["to"],
              "louder": ["lauder"]}
DROPPABLE = {"the", "a", "to", "please", "my", "is", "of", "me", "it", "an", "for", "up"}


def asr_noise(text, r):
    toks = text.split()
    for _ in range(2):
        ops = []
        for i, w in enumerate(toks):
            if w in HOMOPHONES:
                ops.append(("h", i))
            if w == "a":
                ops.append(("uh", i))
            if w in DROPPABLE and len(toks) > 3:
                ops.append(("drop", i))
        if not ops:
            break
        kind, i = r.choice(ops)
        if kind == "h":
            toks[i] = r.choice(HOMOPHONES[toks[i]])
        elif kind == "uh":
            toks[i] = "uh"
        else:
            del toks[i]
        if r.random() < 0.6:
            break
    out = " ".join(" ".join(toks).split())
    return out if out != text else None


def finalize_spoken(text):
    t = text.lower().replace("-", " ").replace("/", " ")
    t = re.sub(r"[^a-z' ]", "", t)
    return " ".join(t.split())


def finalize_written(text, r, question):
    text = " ".join(text.split())
    if r.random() < 0.25:  # casual: lowercase, no final punctuation
        return text[0].lower() + text[1:] if text[:1].isupper() and not text.startswith(("Sotto", "Hey Sotto")) else text
    text = text[0].upper() + text[1:]
    if text[-1] not in ".?!":
        text += "?" if question else r.choice([".", "", "!", "."])
    return text


IMP_VERBS = set("""set start put count time cancel kill scrap delete turn remove clear call get
wake buzz create raise increase make up crank bump pump whack give lower decrease reduce down
dial tone knock bring ease mute repeat say run go enable switch disconnect activate stop disable
exit reconnect convert change calculate compute work solve tell chuck bung stick rouse end come
leave cut stay check""".split())

QUESTION_START = ("what", "how", "is ", "will", "could", "can", "do ", "does", "who", "when",
                  "why", "which", "should", "would", "any", "has", "are", "have", "got")


def make_intent_line(r, intent, form):
    text, slots, fam, imp = BUILDERS[intent](r, form)
    sp = form == "spoken"
    q = text.lower().startswith(QUESTION_START)
    imp = imp and text.split()[0] in IMP_VERBS
    if r.random() < 0.35:
        cands = [p for p in PREFIXES if imp or not p[2]]
        p = r.choice(cands)
        pre = p[0] if sp else p[1]
        if p[2] and text.startswith(("can you", "could you", "would you", "will you", "can i")):
            pre = "um " if sp else "Um, "
        text = pre + text
    if r.random() < 0.25:
        cands = [s for s in SUFFIXES if imp or not s[2]]
        s = r.choice(cands)
        text = text + (s[0] if sp else s[1])
    noisy = False
    if sp:
        text = finalize_spoken(text)
        if r.random() < 0.15:
            n = asr_noise(text, r)
            if n:
                text, noisy = n, True
    else:
        q = q or text.lower().startswith(("could", "can", "would", "hey, could"))
        text = finalize_written(text, r, q)
    return {"text": text, "form": form, "intent": intent, "slots": slots,
            "source": "eval." + fam, "asr_noise": noisy}


def gen_intents(n, seed):
    r = random.Random(seed * 7 + 1)
    n_none = round(n * 0.40)
    rest = n - n_none
    plan = ["none"] * n_none
    for i, it in enumerate(INTENTS):
        plan += [it] * (rest // len(INTENTS) + (1 if i < rest % len(INTENTS) else 0))
    r.shuffle(plan)
    seen = set()
    out = []
    for intent in plan:
        form = "spoken" if r.random() < 0.70 else "written"
        for attempt in range(30):
            line = make_intent_line(r, intent, form)
            if line["text"].lower() not in seen:
                break
        seen.add(line["text"].lower())
        out.append(line)
    for i, line in enumerate(out, 1):
        line_id = f"intents-eval-{i:05d}"
        out[i - 1] = {"id": line_id, **line}
    return out


# =====================================================================================
# PII lexicons
# =====================================================================================

PII_TYPES = ["PERSON", "PHONE", "EMAIL", "ADDRESS", "CREDIT_CARD", "IBAN", "SSN",
             "DATE_OF_BIRTH", "AGE", "IP_ADDRESS", "ACCOUNT_NUMBER", "PIN_OR_PASSWORD",
             "HEALTH", "LOCATION"]

FIRST_NAMES = ["thandiwe", "oskar", "marisol", "eamon", "ingrid", "tobias", "leilani",
               "bartholomew", "henrike", "anouk", "cormac", "zainab", "ptolemy", "wren",
               "ignatius", "solveig", "kofi", "mireille", "yusuf", "beatrix", "lachlan",
               "esperanza", "dov", "ottoline", "fintan", "nkechi", "rosalind", "teodor",
               "imogen", "caspian", "ximena", "hollis", "agnieszka", "ravindra", "delphine",
               "emeka", "saoirse", "jasper", "ivy", "rowan", "hope", "june", "florian",
               "tamsin", "quentin", "noor", "philippa", "linus", "marguerite", "gideon"]
LAST_NAMES = ["okonkwo", "quintero", "lindqvist", "abernathy", "kowalczyk", "delacroix",
              "mbatha", "haugen", "szabo", "achterberg", "fairweather", "thistlewood",
              "oyelaran", "castellanos", "brannigan", "nyberg", "wojcik", "o'malley",
              "nakashima", "pemberton", "villanueva", "drummond", "ferreira", "halloran",
              "petrakis", "mwangi", "de souza", "van der berg", "ashworth", "kaminski",
              "rasmussen", "ostrowski", "beauchamp", "tran", "gallagher", "novak",
              "featherstone", "ekwueme", "sorensen", "mccallister"]

STREETS = ["larkspur", "tamarack", "bellwether", "quarry hill", "juniper ridge", "cobblestone",
           "harrow", "wexford", "sandpiper", "old orchard", "kestrel", "thornbury", "amberwood",
           "fenwick", "galloway", "pinecroft", "marigold", "halcyon", "whistler", "corrigan",
           "foxglove", "saltmarsh", "birchfield", "lantern hill"]
STREET_SUFFIX = [("lane", "Ln"), ("road", "Rd"), ("court", "Ct"), ("avenue", "Ave"),
                 ("drive", "Dr"), ("way", "Way"), ("terrace", "Terrace"), ("boulevard", "Blvd"),
                 ("place", "Pl"), ("crescent", "Crescent"), ("street", "St")]
US_CITIES = [("bozeman", "MT", "montana"), ("ithaca", "NY", "new york"),
             ("asheville", "NC", "north carolina"), ("flagstaff", "AZ", "arizona"),
             ("burlington", "VT", "vermont"), ("eugene", "OR", "oregon"),
             ("lawrence", "KS", "kansas"), ("ames", "IA", "iowa"), ("durango", "CO", "colorado"),
             ("bangor", "ME", "maine"), ("laramie", "WY", "wyoming"),
             ("traverse city", "MI", "michigan"), ("chattanooga", "TN", "tennessee"),
             ("fargo", "ND", "north dakota"), ("mobile", "AL", "alabama")]
UK_CITIES = [("dundee", "DD"), ("norwich", "NR"), ("swansea", "SA"), ("carlisle", "CA"),
             ("exeter", "EX"), ("inverness", "IV")]

EMAIL_DOMAINS = ["fastmail.net", "posteo.de", "zoho.com", "tutanota.com", "mailbox.org",
                 "gmx.de", "icloud.com", "brightwater.co.uk", "kestrel-logistics.com",
                 "uni-bremen.de", "hey.com", "pm.me", "outlook.fr"]

LOC_PLACES = {  # named places that get tied to a person
    "school": ["bramblewood elementary", "harrowgate academy", "riverbend montessori",
               "saint ignatius high school", "copper creek middle school",
               "little acorns nursery", "tiny sprouts daycare", "westbrook community college",
               "fernhill primary school"],
    "work": ["kestrel logistics", "northpine dental", "blue heron bakery",
             "halvorsen engineering", "copperline credit union", "marrow and vine bistro",
             "quillfeather publishing", "stonebridge veterinary clinic"],
    "health": ["mercy ridge hospital", "saint brigid's hospital", "lakeview medical center",
               "holloway memorial", "willow grove care home", "sunnybrook manor",
               "elmhurst retirement village", "cedar hollow hospice"],
    "leisure": ["ironhaven fitness", "summit boulder gym", "tidewater aquatic center",
                "saint columba's church", "grace fellowship chapel", "beth shalom synagogue",
                "al noor mosque", "riverside rowing club"],
}

CONDITIONS = ["sarcoidosis", "ehlers danlos syndrome", "myasthenia gravis",
              "hashimoto's thyroiditis", "addison's disease", "narcolepsy",
              "trigeminal neuralgia", "meniere's disease", "gout", "shingles", "lupus",
              "endometriosis", "interstitial cystitis", "raynaud's", "tinnitus",
              "sickle cell anemia", "ulcerative colitis", "fibromyalgia", "sjogren's syndrome",
              "polycythemia vera", "achalasia", "atrial fibrillation", "ankylosing spondylitis",
              "cystic fibrosis", "bipolar disorder", "type one diabetes", "long covid",
              "vestibular migraine", "plantar fasciitis", "hemochromatosis", "psoriatic arthritis",
              "postpartum depression", "dyspraxia", "kidney stones", "a torn acl", "pneumonia"]
MEDICATIONS = ["levetiracetam", "hydroxychloroquine", "methotrexate", "lamotrigine",
               "spironolactone", "pyridostigmine", "fludrocortisone", "tamsulosin", "apixaban",
               "sertraline", "modafinil", "colchicine", "allopurinol", "propranolol",
               "gabapentin", "warfarin", "levothyroxine", "prednisolone", "adalimumab",
               "mesalamine", "betahistine", "insulin glargine", "lithium", "clozapine",
               "bupropion", "montelukast", "dapagliflozin", "nitrofurantoin", "baclofen",
               "buprenorphine"]

PUBLIC_FIGURES = ["ada lovelace", "nina simone", "octavia butler", "fela kuti", "hedy lamarr",
                  "ruth bader ginsburg", "frida kahlo", "miles davis", "marie curie",
                  "nikola tesla", "wangari maathai", "akira kurosawa", "dolly parton",
                  "bob marley", "jane goodall", "neil armstrong", "billie eilish", "bad bunny",
                  "kendrick lamar", "lionel messi", "simone biles", "greta gerwig",
                  "keanu reeves", "yo yo ma", "toni morrison", "carl sagan", "chinua achebe",
                  "rosalind franklin"]
BUSINESSES = ["ikea", "costco", "home depot", "trader joe's", "walgreens", "the post office",
              "aldi", "best buy", "the dmv", "starbucks", "b and q", "marks and spencer"]
QUESTION_CITIES = ["reykjavik", "lisbon", "jakarta", "montevideo", "tbilisi", "oaxaca",
                   "edinburgh", "anchorage", "kyoto", "zanzibar"]
RELATIVES = ["my sister", "mom", "dad", "grandma", "my brother", "my husband", "my wife",
             "my son", "my daughter", "my uncle", "my aunt", "my cousin", "my neighbour",
             "my boss", "grandpa", "my partner", "my stepdad"]
PW_WORDS = ["tangerine", "otter", "velvet", "quasar", "gumdrop", "pelican", "nebula",
            "cactus", "marmalade", "thunder", "biscuit", "glacier", "walrus", "saffron"]

# -- PII templates: {X} placeholders; upper-case keys in SPAN_KEYS become labelled spans --
# Family name -> list of templates. Positive families are grouped by their primary type.
PII_POS = {
    "PERSON": {
        "person.contact": ["call {P}", "text {PF} that i'm running ten minutes late",
                           "remind me to email {PL} tomorrow", "what's {P}'s phone number",
                           "play the voicemail from {P}", "send the photos from the hike to {PF}",
                           "tell {PF} i said thanks for dinner", "i still owe {PL} twenty dollars"],
        "person.position": ["the babysitter tonight is {PF}", "the parcel was signed for by {PL}",
                            "book a table for four under {PL}", "the last person to borrow the drill was {PF}",
                            "who's picking up the kids today me or {PF}", "add dentist appointment with dr {PN}",
                            "we're having lunch with {PF} and {PF}", "invite {PF}, {PF} and {PF} to the barbecue",
                            "put {PF}'s and {PF}'s names on the rota", "is it {PF}'s turn to take the bins out"],
        "person.self": ["my name is {PL}", "this is {PL} speaking", "you can call me {PF}",
                        "it's {PF} again", "hi i'm {PL} and i just moved in"],
    },
    "PHONE": {
        "phone.contact": ["my number is {PHONE}", "call {PHONE}", "you can reach me on {PHONE}",
                          "save {PHONE} as {PL}", "{PF}'s new mobile is {PHONE}",
                          "text {PHONE} that the door is open", "the plumber's number is {PHONE}",
                          "if i don't answer try {PHONE}"],
    },
    "EMAIL": {
        "email.contact": ["my email is {EMAIL}", "send the invoice to {EMAIL}",
                          "{PF}'s email address is {EMAIL}", "forward the tickets to {EMAIL}",
                          "update my login to {EMAIL}", "cc {EMAIL} on that message",
                          "email {EMAIL} the photos from saturday"],
    },
    "ADDRESS": {
        "address.home": ["i live at {ADDR}", "ship it to {ADDR}", "{PF} moved to {ADDR}",
                         "my new address is {ADDR}", "order a taxi to {ADDR}",
                         "the party's at {ADDR}", "send the spare key to {PL} at {ADDR}",
                         "my mailing address is {ADDR}"],
    },
    "CREDIT_CARD": {
        "card.payment": ["my card number is {CC}", "pay with {CC}", "charge it to {CC}",
                         "{CC} is my mastercard", "book the flights on {CC}",
                         "the company card is {CC}", "put the deposit on {CC}"],
    },
    "IBAN": {
        "iban.bank": ["my iban is {IBAN}", "send the rent to {IBAN}",
                      "transfer two hundred euros to {PF}'s account {IBAN}",
                      "the landlord's iban is {IBAN}", "pay it into {IBAN}",
                      "refund me to {IBAN}"],
    },
    "SSN": {
        "ssn.cue_after": ["{SSN} that's my social", "{SSN} is my social security number",
                          "it's {SSN}, my ssn", "{SSN} that's {PF}'s social"],
        "ssn.cue_before": ["my social is {SSN}", "ssn {SSN}", "{PL}'s social security number is {SSN}",
                           "put my social security number in as {SSN}"],
    },
    "DATE_OF_BIRTH": {
        "dob.statement": ["i was born on {DOB}", "my birthday is {DOB}", "{PF}'s birthday is {DOB}",
                          "{PL} was born on {DOB}", "date of birth {DOB}",
                          "remind me that {PF}'s birthday is on {DOB}", "my son was born {DOB}",
                          "my date of birth is {DOB}"],
    },
    "AGE": {
        "age.statement": ["i'm {AGE} years old", "i am {AGE}", "{PF} just turned {AGE}",
                          "my son is {KIDAGE}", "{PF} is {KIDAGE} and loves dinosaurs",
                          "my grandmother is {AGE} and still drives", "{PL} turns {AGE} on sunday",
                          "our daughter {PF} is {KIDAGE} years old", "i'll be {AGE} next month"],
    },
    "IP_ADDRESS": {
        "ip.device": ["my router's ip is {IP}", "ssh into my server at {IP}", "the nas is on {IP}",
                      "block {IP} on my network", "my public ip is {IP}", "set the printer to {IP}",
                      "the camera in the garage is at {IP}", "my laptop keeps getting {IP}"],
    },
    "ACCOUNT_NUMBER": {
        "account.number": ["my account number is {ACCT}", "policy number {ACCT}",
                           "my member id is {ACCT}", "customer number {ACCT}",
                           "{PF}'s library card number is {ACCT}", "pay the gas bill for account {ACCT}",
                           "the insurance policy is {ACCT}", "my frequent flyer number is {ACCT}"],
    },
    "PIN_OR_PASSWORD": {
        "secret.code": ["the door code is {PIN}", "my pin is {PIN}", "the garage code is {PIN}",
                        "alarm code's {PIN}", "the lockbox combination is {PIN}",
                        "{PF}'s phone passcode is {PIN}"],
        "secret.password": ["the wifi password is {PW}", "the guest wifi key is {PW}",
                            "my bank password is {PW}", "change my email password to {PW}",
                            "the netflix login is {EMAIL} password {PW}"],
    },
    "HEALTH": {
        "health.condition": ["i have {COND}", "my husband was diagnosed with {COND}",
                             "{PF} has {COND}", "{PL} is recovering from {COND}",
                             "i was just told i have {COND}", "my daughter's {COND} is flaring up again"],
        "health.medication": ["remind me to take my {MED} at eight", "{PF} needs her {MED} refilled",
                              "i'm on {MED}", "my doctor put me on {MED} for my {COND}",
                              "did {PF} take his {MED} this morning", "i ran out of {MED}"],
    },
    "LOCATION": {
        "location.tied": ["my daughter goes to {SCHOOL}", "i work at {WORK}",
                          "pick {PF} up from {SCHOOL} at three", "{PF} is staying at {HPLACE}",
                          "i'm at {LEISURE} if anyone needs me", "{PL} teaches at {SCHOOL}",
                          "my dad is in {HPLACE}", "we go to {LEISURE} every sunday",
                          "{PF} starts a new job at {WORK} on monday", "my mum lives in {HPLACE} now"],
    },
}
PII_FORMS = ["name {PL}, dob {DOB}, ssn {SSN}", "patient {PL} age {AGE} diagnosis {COND}",
             "new contact {PL} phone {PHONE} email {EMAIL}", "ship to {PL} at {ADDR}",
             "card {CC} billing address {ADDR}", "member {ACCT} {PL} born {DOB}"]

PII_NEG = {
    "neg.public_figure": ["who was {PUB}", "play something by {PUB}", "how old is {PUB}",
                          "when was {PUB} born", "i'm a huge fan of {PUB}",
                          "tell me a fun fact about {PUB}", "is {PUB} still alive",
                          "what is {PUB} famous for"],
    "neg.health_general": ["what are the symptoms of {GCOND}", "what is {GMED} used for",
                           "is {GCOND} hereditary", "what are the side effects of {GMED}",
                           "how is {GCOND} treated", "can you drink alcohol on {GMED}",
                           "how common is {GCOND}", "can kids get {GCOND}",
                           "what's the usual dose of {GMED} for adults"],
    "neg.relative": ["call {REL}", "text {REL} that i'm on my way", "remind {REL} to buy milk",
                     "what should i get {REL} for christmas", "{REL} wants to know when dinner is",
                     "send {REL} a photo of the cake"],
    "neg.known_ip": ["what is {KIP} used for", "is {KIP} a good dns server", "ping {KIP}",
                     "why does everyone use {KIP}", "what does {KIP} mean"],
    "neg.city_question": ["what's the weather in {QC}", "how far is {QC} from here",
                          "what time is it in {QC}", "best things to do in {QC}",
                          "how do you pronounce {QC}"],
    "neg.business": ["what time does {BIZ} close", "is {BIZ} open on sunday",
                     "directions to the nearest {BIZ}", "does {BIZ} sell printer ink"],
    "neg.numbers": ["what's {N4} times {N2}", "play track {N2}", "is flight {FLIGHT} on time",
                    "turn to channel {N3}", "play {SONGNUM}", "set a timer for {N2} minutes",
                    "what's the square root of {N4}", "wake me up at {TIME}",
                    "how many calories are in {N3} grams of rice", "my flight is {FLIGHT}"],
    "neg.history": ["what happened on {HDATE}", "why is {HDATE} important",
                    "who was president on {HDATE}"],
    "neg.password_talk": ["how do i make a strong password", "what's a good length for a pin",
                          "how do i reset the wifi password on my router",
                          "should i use a password manager", "how often should i change my passwords"],
    "neg.age_general": ["how old do you have to be to vote", "how old is the eiffel tower",
                        "what age do babies start walking", "what is the average age of a first time buyer",
                        "how long do tortoises live"],
}
KNOWN_IPS = [("8.8.8.8", "eight dot eight dot eight dot eight"),
             ("1.1.1.1", "one dot one dot one dot one"),
             ("127.0.0.1", "one two seven dot zero dot zero dot one"),
             ("9.9.9.9", "nine dot nine dot nine dot nine"),
             ("255.255.255.0", "two five five dot two five five dot two five five dot zero")]
SONGS = [("867-5309", "eight six seven five three oh nine"), ("99 Luftballons", "ninety nine luftballons"),
         ("1999 by Prince", "nineteen ninety nine by prince"), ("22 by Taylor Swift", "twenty two by taylor swift")]
HDATES = [("July 20, 1969", "july twentieth nineteen sixty nine"),
          ("November 9, 1989", "november ninth nineteen eighty nine"),
          ("June 18, 1815", "june eighteenth eighteen fifteen"),
          ("April 12, 1961", "april twelfth nineteen sixty one"),
          ("December 17, 1903", "december seventeenth nineteen oh three")]
MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august",
          "september", "october", "november", "december"]


# =====================================================================================
# PII value renderers: each returns the surface text for the given form
# =====================================================================================

SMALL_WORDS = {"and", "of", "the"}


def title(s):
    out = []
    for w in s.split(" "):
        if w in SMALL_WORDS and out:
            out.append(w)
        elif w.startswith("o'") and len(w) > 2:
            out.append("O'" + w[2:].capitalize())
        elif w.startswith("mc") and len(w) > 3:
            out.append("Mc" + w[2:].capitalize())
        elif w in ("de", "van", "der"):
            out.append(w)
        else:
            out.append(w.capitalize())
    return " ".join(out)


def v_person(r, form, style):
    first, last = r.choice(FIRST_NAMES), r.choice(LAST_NAMES)
    s = {"first": first, "last": last, "full": f"{first} {last}"}[style]
    return s if form == "spoken" else title(s)


def v_phone(r, form):
    k = r.random()
    if k < 0.5:  # US
        area = f"{r.randint(2, 9)}{r.randint(0, 9)}{r.randint(0, 9)}"
        if r.random() < 0.25:
            ex, last = f"{r.randint(2, 9)}{r.randint(10, 99)}", f"{r.randint(10, 99)}00"
        else:
            ex, last = "555", f"01{r.randint(0, 99):02d}"
        if form == "written":
            return r.choice([f"({area}) {ex}-{last}", f"{area}-{ex}-{last}", f"{area}.{ex}.{last}",
                             f"+1 {area} {ex} {last}", f"{area}{ex}{last}"])
        pre = "one " if r.random() < 0.15 else ""
        tail = (words(int(last[:2])) + " hundred") if last.endswith("00") and r.random() < 0.7 \
            else digits_spoken(last, r)
        return pre + digits_spoken(area, r) + " " + digits_spoken(ex, r) + " " + tail
    if k < 0.75:  # UK
        if r.random() < 0.5:
            body = f"7700 900{r.randint(0, 999):03d}"
        else:
            body = f"20 7946 0{r.randint(0, 999):03d}"
        if form == "written":
            return r.choice([f"+44 {body}", f"0{body}"])
        ds = body.replace(" ", "")
        if r.random() < 0.5:
            return "plus four four " + digits_spoken(ds, r)
        return digits_spoken("0" + ds[:4], r) + " " + digits_spoken(ds[4:], r)
    cc = r.choice(["49", "33", "61", "353", "46", "27"])
    rest = "".join(r.choice("0123456789") for _ in range(9))
    rest = str(r.randint(1, 9)) + rest
    if form == "written":
        return r.choice([f"+{cc}{rest}", f"+{cc} {rest[:3]} {rest[3:6]} {rest[6:]}"])
    return "plus " + digits_spoken(cc, r, repeat=False) + " " + digits_spoken(rest, r)


def v_email(r, form):
    first, last = r.choice(FIRST_NAMES), r.choice(LAST_NAMES).replace("'", "").replace(" ", "")
    n = r.randint(1, 99)
    local = r.choice([f"{first}.{last}", f"{first}{last[0]}", f"{first}_{last}{n}",
                      f"{first[0]}{last}", f"{first}-{last}", f"{last}.{first[0]}{n}"])
    addr = f"{local}@{r.choice(EMAIL_DOMAINS)}"
    if form == "written":
        return addr
    out = []
    for tok in re.split(r"([.@_\-]|\d+)", addr):
        if not tok:
            continue
        if tok == ".":
            out.append("dot")
        elif tok == "@":
            out.append("at")
        elif tok == "_":
            out.append("underscore")
        elif tok == "-":
            out.append("dash")
        elif tok.isdigit():
            out.append(digits_spoken(tok, r, repeat=False) if r.random() < 0.5 else words(int(tok)))
        else:
            out.append(tok)
    return " ".join(out)


def v_address(r, form):
    num = r.choice([r.randint(2, 99), r.randint(100, 999), r.randint(1000, 9899)])
    street = r.choice(STREETS)
    suf = r.choice(STREET_SUFFIX)
    unit = r.choice([None, None, None, f"{r.randint(1, 40)}{r.choice(['', 'b', 'c'])}"])
    uk = r.random() < 0.25
    if uk:
        city, pc_area = r.choice(UK_CITIES)
        pc = f"{pc_area}{r.randint(1, 9)} {r.randint(1, 9)}{r.choice('ABDEFGHJLNPQRSTUWXYZ')}{r.choice('ABDEFGHJLNPQRSTUWXYZ')}"
        num = r.randint(2, 180)
    else:
        city, st, state = r.choice(US_CITIES)
        zipc = f"{r.randint(10000, 99899):05d}"
    tail = r.choice(["none", "city", "full", "full"])
    if form == "written":
        s = f"{num} {title(street)} {suf[1] if r.random() < 0.5 else title(suf[0])}"
        if unit:
            s += f", {r.choice(['Apt', 'Unit', '#'])} {unit.upper()}".replace("# ", "#")
        if tail == "city":
            s += f", {title(city)}"
        elif tail == "full":
            s += f", {title(city)} {pc}" if uk else f", {title(city)}, {st} {zipc}"
        return s
    s = f"{house_number_words(num, r)} {street} {suf[0]}"
    if unit:
        d = re.match(r"\d+", unit).group(0)
        s += f" {r.choice(['apartment', 'unit', 'flat'])} {words(int(d))}" + (" " + unit[len(d):] if unit[len(d):] else "")
    if tail == "city":
        s += f" {city}"
    elif tail == "full":
        if uk:
            a, b = pc.lower().split()
            s += f" {city} " + " ".join(DIGIT_WORD.get(c, c) for c in a + b)
        else:
            s += f" {city} {state} " + digits_spoken(zipc, r, repeat=False)
    return s


def card_number(r):
    kind = r.choice(["visa", "visa", "mc", "amex", "disc"])
    if kind == "visa":
        p, n = "4", 16
    elif kind == "mc":
        p, n = str(r.randint(51, 55)), 16
    elif kind == "amex":
        p, n = r.choice(["34", "37"]), 15
    else:
        p, n = "6011", 16
    body = p + "".join(r.choice("0123456789") for _ in range(n - len(p) - 1))
    return luhn_complete(body)


def v_card(r, form):
    ds = card_number(r)
    groups = [ds[0:4], ds[4:10], ds[10:]] if len(ds) == 15 else [ds[i:i + 4] for i in range(0, 16, 4)]
    if form == "written":
        return r.choice([" ".join(groups), "-".join(groups), ds])
    return " ".join(digits_spoken(g, r) for g in groups)


def v_iban(r, form):
    ib = make_iban(r)
    grouped = " ".join(ib[i:i + 4] for i in range(0, len(ib), 4))
    if form == "written":
        return grouped if r.random() < 0.6 else ib
    return " ".join(ch.lower() if ch.isalpha() else ONES[int(ch)] for ch in ib)


def v_ssn(r, form):
    while True:
        a = r.randint(1, 899)
        if a != 666:
            break
    g, s = r.randint(1, 99), r.randint(1, 9999)
    ssn = f"{a:03d}{g:02d}{s:04d}"
    if form == "written":
        return r.choice([f"{ssn[:3]}-{ssn[3:5]}-{ssn[5:]}", f"{ssn[:3]} {ssn[3:5]} {ssn[5:]}", ssn])
    return " ".join(digits_spoken(x, r) for x in (ssn[:3], ssn[3:5], ssn[5:]))


def v_dob(r, form):
    y, m, d = r.randint(1931, 2021), r.randint(1, 12), r.randint(1, 28)
    mon = MONTHS[m - 1]
    with_year = r.random() < 0.65
    if form == "spoken":
        k = r.random()
        if k < 0.15 and y % 100 >= 10:
            return f"{words(m)} {words(d)} {words(y % 100)}"
        s = f"{mon} {ordinal_words(d)}" if k < 0.8 else f"{ordinal_words(d)} of {mon}"
        return s + (f" {year_words(y, r)}" if with_year else "")
    if not with_year:
        return r.choice([f"{title(mon)} {ordinal_suffix(d)}", f"{d} {title(mon)}", f"{title(mon)} {d}"])
    return r.choice([f"{title(mon)} {d}, {y}", f"{d} {title(mon)} {y}", f"{m:02d}/{d:02d}/{y}",
                     f"{y}-{m:02d}-{d:02d}", f"{m}/{d}/{y % 100:02d}", f"{title(mon)[:3]} {d} {y}",
                     f"{title(mon)} {ordinal_suffix(d)} {y}"])


def v_age(r, form, kid=False):
    n = r.randint(2, 16) if kid else r.randint(19, 97)
    return words(n) if form == "spoken" else str(n)


def v_ip(r, form):
    k = r.random()
    if form == "written" and k < 0.12:
        return r.choice([f"fd{r.randint(16, 255):02x}:{r.randint(0, 65535):x}:{r.randint(0, 65535):x}::{r.randint(1, 255):x}",
                         f"fe80::{r.randint(0, 65535):x}:{r.randint(0, 255):x}ff:fe{r.randint(0, 255):02x}:{r.randint(0, 65535):x}"])
    if k < 0.45:
        octs = [192, 168, r.choice([0, 1, 2, 10, 50, 86]), r.randint(2, 254)]
    elif k < 0.7:
        octs = [10, r.randint(0, 255), r.randint(0, 255), r.randint(2, 254)]
    elif k < 0.8:
        octs = [172, r.randint(16, 31), r.randint(0, 255), r.randint(2, 254)]
    else:
        octs = [r.choice([31, 46, 84, 95, 109, 185, 203]), r.randint(0, 255), r.randint(0, 255), r.randint(2, 254)]
    if form == "written":
        return ".".join(map(str, octs))
    style = r.random()
    parts = []
    for o in octs:
        if style < 0.5:
            parts.append(" ".join(ONES[int(c)] for c in str(o)))
        elif style < 0.8 or o < 100:
            parts.append(words(o))
        else:
            parts.append(ONES[o // 100] + " " + (words(o % 100) if o % 100 >= 10 else "oh " + ONES[o % 100]))
    return " dot ".join(parts)


def v_account(r, form):
    pre = r.choice(["", "", "", "HX", "MB", "PL", "ACC", "K"])
    n = r.randint(7, 12)
    ds = str(r.randint(1, 9)) + "".join(r.choice("0123456789") for _ in range(n - 1))
    if form == "written":
        body = r.choice([ds, " ".join(ds[i:i + 4] for i in range(0, len(ds), 4))])
        return f"{pre}-{body}" if pre and r.random() < 0.5 else pre + body
    letters = " ".join(pre.lower())
    return (letters + " " if pre else "") + digits_spoken(ds, r)


def v_pin(r, form):
    ds = "".join(r.choice("0123456789") for _ in range(r.choice([4, 4, 4, 5, 6])))
    if form == "written":
        return ds if r.random() < 0.85 else " ".join(ds)
    return digits_spoken(ds, r)


def v_password(r, form):
    a, b = r.sample(PW_WORDS, 2)
    n = r.randint(2, 99)
    if form == "written":
        return r.choice([f"{title(a)}-{title(b)}-{n}", f"{a}!{title(b)}{n}", f"{a}{b}{n}",
                         f"{a[0].upper()}{a[1:].replace('a', '@')}{n}#", f"{title(a)}_{b}_{n}"])
    return f"{a} {b} {words(n)}"


def v_place(r, form, group):
    s = r.choice(LOC_PLACES[group])
    return s if form == "spoken" else title(s)


SPAN_GEN = {  # placeholder -> (type, renderer)
    "P": ("PERSON", lambda r, f: v_person(r, f, r.choice(["first", "full", "full"]))),
    "PF": ("PERSON", lambda r, f: v_person(r, f, "first")),
    "PL": ("PERSON", lambda r, f: v_person(r, f, "full")),
    "PN": ("PERSON", lambda r, f: v_person(r, f, "last")),
    "PHONE": ("PHONE", v_phone), "EMAIL": ("EMAIL", v_email), "ADDR": ("ADDRESS", v_address),
    "CC": ("CREDIT_CARD", v_card), "IBAN": ("IBAN", v_iban), "SSN": ("SSN", v_ssn),
    "DOB": ("DATE_OF_BIRTH", v_dob), "AGE": ("AGE", v_age),
    "KIDAGE": ("AGE", lambda r, f: v_age(r, f, kid=True)), "IP": ("IP_ADDRESS", v_ip),
    "ACCT": ("ACCOUNT_NUMBER", v_account), "PIN": ("PIN_OR_PASSWORD", v_pin),
    "PW": ("PIN_OR_PASSWORD", v_password),
    "COND": ("HEALTH", lambda r, f: r.choice(CONDITIONS)),
    "MED": ("HEALTH", lambda r, f: r.choice(MEDICATIONS) if f == "spoken" or r.random() < 0.7
            else r.choice(MEDICATIONS).capitalize()),
    "SCHOOL": ("LOCATION", lambda r, f: v_place(r, f, "school")),
    "WORK": ("LOCATION", lambda r, f: v_place(r, f, "work")),
    "HPLACE": ("LOCATION", lambda r, f: v_place(r, f, "health")),
    "LEISURE": ("LOCATION", lambda r, f: v_place(r, f, "leisure")),
}


def _plain(r, form, key):
    """Non-PII fillers used in templates (public figures, relatives, numbers...)."""
    sp = form == "spoken"
    if key == "PUB":
        p = r.choice(PUBLIC_FIGURES)
        return p if sp else title(p)
    if key == "GCOND":
        return r.choice(CONDITIONS).replace("a torn acl", "a torn acl")
    if key == "GMED":
        return r.choice(MEDICATIONS)
    if key == "REL":
        return r.choice(RELATIVES)
    if key == "QC":
        c = r.choice(QUESTION_CITIES)
        return c if sp else title(c)
    if key == "BIZ":
        b = r.choice(BUSINESSES)
        return b if sp else title(b)
    if key == "KIP":
        ip = r.choice(KNOWN_IPS)
        return ip[1] if sp else ip[0]
    if key in ("N2", "N3", "N4"):
        n = r.randint(2, 99) if key == "N2" else r.randint(100, 999) if key == "N3" else r.randint(1000, 9999)
        return words(n) if sp else str(n)
    if key == "FLIGHT":
        al, n = r.choice(["UA", "BA", "LH", "QF", "KL", "EI"]), r.randint(100, 2999)
        return " ".join(al.lower()) + " " + digits_spoken(str(n), r, repeat=False) if sp else f"{al} {n}"
    if key == "SONGNUM":
        s = r.choice(SONGS)
        return s[1] if sp else s[0]
    if key == "TIME":
        return clock_time(r, form)[1]
    if key == "HDATE":
        h = r.choice(HDATES)
        return h[1] if sp else h[0]
    raise KeyError(key)


def render_template(r, form, template):
    """-> list of pieces: str (literal) or (TYPE, text) spans."""
    pieces = []
    for lit, key in re.findall(r"([^{]*)(?:\{(\w+)\})?", template):
        if lit:
            pieces.append(lit)
        if key:
            if key in SPAN_GEN:
                typ, fn = SPAN_GEN[key]
                pieces.append((typ, fn(r, form)))
            else:
                pieces.append(_plain(r, form, key))
    return pieces


def assemble(pieces, form):
    """Join pieces into text + spans, cleaning literals for the spoken form."""
    text, spans = "", []
    for p in pieces:
        if isinstance(p, tuple):
            typ, val = p
            if form == "spoken":
                assert re.fullmatch(r"[a-z' ]+", val), val
            spans.append([len(text), len(text) + len(val), typ])
            text += val
        else:
            s = p
            if form == "spoken":
                s = re.sub(r"[^a-z' ]", " ", s.lower())
            else:
                s = re.sub(r"\bi\b", "I", s)
            s = re.sub(r" +", " ", s)
            if text.endswith(" ") and s.startswith(" "):
                s = s[1:]
            if not text:
                s = s.lstrip()
            text += s
    if text.endswith(" "):
        text = text.rstrip()
    return text, spans


# =====================================================================================
# PII line builders
# =====================================================================================

JOINERS = {"spoken": [" and ", " and also ", " oh and ", " also ", " plus "],
           "written": [", and ", "; ", ". Also, ", " and ", " - also "]}


def pii_finalize_written(text, spans, r):
    starts_with_span = spans and spans[0][0] == 0 and spans[0][2] not in ("PERSON", "LOCATION", "HEALTH")
    if r.random() < 0.25:
        return text.lower()
    if not starts_with_span:
        text = text[0].upper() + text[1:]
    if text[-1].isalnum():
        q = text.lower().startswith(("what", "how", "who", "when", "why", "is ", "does", "can", "should", "did"))
        text += "?" if q else r.choice([".", ".", "", "!"])
    return text


def make_pii_line(r, form, kind, arg):
    """kind: 'pos' (arg = primary type), 'form', 'neg'."""
    if kind == "neg":
        fam = arg
        pieces = render_template(r, form, r.choice(PII_NEG[fam]))
        source = fam
    elif kind == "form":
        pieces = render_template(r, form, r.choice(PII_FORMS))
        source = "pii.forms"
    else:
        fam = r.choice(sorted(PII_POS[arg]))
        pieces = render_template(r, form, r.choice(PII_POS[arg][fam]))
        source = "pii." + fam
        n_sp = sum(isinstance(p, tuple) for p in pieces)
        if n_sp < 3 and r.random() < 0.35:
            for _ in range(10):
                other = r.choice([t for t in PII_TYPES if t not in (arg, "PERSON")])
                ofam = r.choice(sorted(PII_POS[other]))
                extra = render_template(r, form, r.choice(PII_POS[other][ofam]))
                if n_sp + sum(isinstance(p, tuple) for p in extra) <= 3:
                    pieces = pieces + [r.choice(JOINERS[form])] + extra
                    source = "pii.combo"
                    break
    text, spans = assemble(pieces, form)
    if form == "written":
        text = pii_finalize_written(text, spans, r)
    out_spans = [{"start": s, "end": e, "type": t, "value": text[s:e]} for s, e, t in spans]
    return {"text": text, "form": form, "spans": out_spans, "source": "eval." + source}


def gen_pii(n, seed):
    r = random.Random(seed * 13 + 5)
    n_neg = round(n * 0.35)
    n_pos = n - n_neg
    n_forms = round(n_pos * 0.06)
    neg_fams = sorted(PII_NEG)
    plan = [("neg", neg_fams[i % len(neg_fams)]) for i in range(n_neg)]
    plan += [("form", None)] * n_forms
    plan += [("pos", PII_TYPES[i % len(PII_TYPES)]) for i in range(n_pos - n_forms)]
    r.shuffle(plan)
    seen, out = set(), []
    for kind, arg in plan:
        form = "spoken" if r.random() < 0.70 else "written"
        for _ in range(30):
            line = make_pii_line(r, form, kind, arg)
            if line["text"].lower() not in seen:
                break
        seen.add(line["text"].lower())
        out.append(line)
    return [{"id": f"pii-eval-{i:05d}", **line} for i, line in enumerate(out, 1)]


# =====================================================================================
# Self-check
# =====================================================================================

class Checker:
    def __init__(self):
        self.errors = []

    def fail(self, where, msg):
        self.errors.append(f"{where}: {msg}")

    def text_form(self, where, text, form):
        if form not in ("spoken", "written"):
            self.fail(where, f"bad form {form}")
        if form == "spoken" and not re.fullmatch(r"[a-z' ]+", text):
            self.fail(where, f"spoken text has bad chars: {text!r}")
        if text != text.strip() or "  " in text or not text:
            self.fail(where, f"bad whitespace: {text!r}")

    def intent_line(self, line):
        w = line["id"]
        self.text_form(w, line["text"], line["form"])
        it, sl = line["intent"], line["slots"]
        if it not in ALL_INTENTS:
            self.fail(w, f"unknown intent {it}")
        if not isinstance(line["asr_noise"], bool) or (line["asr_noise"] and line["form"] != "spoken"):
            self.fail(w, "bad asr_noise")
        allowed = {"timer.set": {"duration_seconds", "name"}, "timer.cancel": {"name"},
                   "alarm.set": {"time", "day"}, "volume.set": {"level"},
                   "weather.query": {"day", "place"}, "convert.units": {"value", "from", "to"},
                   "math.compute": {"expression", "result"}}.get(it, set())
        if not set(sl) <= allowed:
            self.fail(w, f"unexpected slots {sl}")
        if it == "timer.set":
            d = sl.get("duration_seconds")
            if type(d) is not int or d <= 0:
                self.fail(w, "duration_seconds must be positive int")
        if "name" in sl and (not isinstance(sl["name"], str) or (not line["asr_noise"] and sl["name"] not in line["text"].lower())):
            self.fail(w, "bad timer name")
        if it == "alarm.set":
            t = sl.get("time", "")
            if not re.fullmatch(r"([01]\d|2[0-3]):[0-5]\d", t):
                self.fail(w, f"bad time {t}")
            if "day" in sl and sl["day"] not in ["today", "tomorrow"] + WEEKDAYS:
                self.fail(w, "bad alarm day")
        if it == "volume.set" and (type(sl.get("level")) is not int or not 0 <= sl["level"] <= 10):
            self.fail(w, "bad level")
        if it == "weather.query":
            if "day" in sl and sl["day"] not in ["today", "tomorrow", "weekend"] + WEEKDAYS:
                self.fail(w, "bad weather day")
            if "place" in sl and not re.fullmatch(r"[a-z][a-z ]*[a-z]", sl["place"]):
                self.fail(w, "bad place")
        if it == "convert.units":
            if type(sl.get("value")) not in (int, float) or sl.get("from") not in UNIT_CODES \
                    or sl.get("to") not in UNIT_CODES or sl["from"] == sl["to"]:
                self.fail(w, f"bad convert slots {sl}")
        if it == "math.compute":
            e, res = sl.get("expression", ""), sl.get("result")
            if not re.fullmatch(r"(sqrt\(\d+(\.\d+)?\)|-?\d+(\.\d+)?( [-+*/^] -?\d+(\.\d+)?)+)", e):
                self.fail(w, f"bad expression {e!r}")
            else:
                val = eval(e.replace("^", "**").replace("sqrt", "math.sqrt"), {"math": math})
                if abs(val - round(val)) < 1e-9:
                    ok = type(res) is int and res == round(val)
                else:
                    ok = type(res) is float and res == round(val, 4)
                if not ok:
                    self.fail(w, f"result {res!r} != {val!r}")
        if it not in ("timer.set", "alarm.set", "volume.set", "convert.units", "math.compute") \
                and it not in ("timer.cancel", "weather.query") and sl:
            self.fail(w, "slots must be empty")

    def pii_line(self, line):
        w, text = line["id"], line["text"]
        self.text_form(w, text, line["form"])
        prev_end = -1
        for sp in line["spans"]:
            s, e, t, v = sp["start"], sp["end"], sp["type"], sp["value"]
            if t not in PII_TYPES:
                self.fail(w, f"bad type {t}")
            if not (0 <= s < e <= len(text)) or text[s:e] != v:
                self.fail(w, f"offset/value mismatch {sp}")
                continue
            if s < prev_end:
                self.fail(w, "spans overlap or unsorted")
            prev_end = e
            if (s > 0 and text[s - 1].isalnum()) or (e < len(text) and text[e].isalnum()):
                self.fail(w, f"span not on word boundary {sp}")
            if v != v.strip() or (t == "PERSON" and v.lower().endswith("'s")):
                self.fail(w, f"span edge {sp}")
            spoken = line["form"] == "spoken"
            if t == "CREDIT_CARD":
                ds = parse_spoken_digits(v) if spoken else re.sub(r"\D", "", v)
                if not ds or not ds.isdigit() or len(ds) not in (15, 16) or not luhn_ok(ds):
                    self.fail(w, f"card not Luhn-valid {v!r} -> {ds}")
            if t == "IBAN":
                ib = parse_spoken_digits(v) if spoken else v.replace(" ", "")
                if not ib or not iban_valid(ib):
                    self.fail(w, f"IBAN invalid {v!r}")
            if t in ("PHONE", "SSN"):
                ds = parse_spoken_digits(v) if spoken else re.sub(r"\D", "", v)
                ok = ds and ds.isdigit() and (len(ds) == 9 if t == "SSN" else 10 <= len(ds) <= 15)
                if not ok:
                    self.fail(w, f"{t} digits wrong {v!r} -> {ds}")
            if t == "EMAIL" and not (re.fullmatch(r"[^@\s]+@[^@\s]+\.[a-z]+", v.lower()) if not spoken
                                     else (" at " in v and " dot " in v)):
                self.fail(w, f"bad email {v!r}")
            if t == "AGE" and not (v.isdigit() or all(x in ONES or x in TENS for x in v.split())):
                self.fail(w, f"bad age {v!r}")
            if t == "IP_ADDRESS" and not spoken and not (re.fullmatch(r"(\d{1,3}\.){3}\d{1,3}", v) or ":" in v):
                self.fail(w, f"bad ip {v!r}")


# =====================================================================================
# Main
# =====================================================================================

def write_jsonl(path, lines):
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        for line in lines:
            f.write(json.dumps(line, ensure_ascii=True) + "\n")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", required=True)
    ap.add_argument("--seed", type=int, default=20261126)
    ap.add_argument("--intents", type=int, default=2000)
    ap.add_argument("--pii", type=int, default=2000)
    a = ap.parse_args(argv)
    os.makedirs(a.out, exist_ok=True)
    intents = gen_intents(a.intents, a.seed)
    pii = gen_pii(a.pii, a.seed)
    write_jsonl(os.path.join(a.out, "intents-eval.jsonl"), intents)
    write_jsonl(os.path.join(a.out, "pii-eval.jsonl"), pii)

    ck = Checker()
    for line in intents:
        ck.intent_line(line)
    for line in pii:
        ck.pii_line(line)
    ic = collections.Counter(l["intent"] for l in intents)
    if intents:
        for it in INTENTS:
            if ic[it] == 0:
                ck.fail("intents", f"no lines for {it}")
    tc = collections.Counter(s["type"] for l in pii for s in l["spans"])
    if a.pii >= 2000:
        for t in PII_TYPES:
            if tc[t] < 110:
                ck.fail("pii", f"only {tc[t]} spans of {t}")

    sp = sum(l["form"] == "spoken" for l in intents)
    print(f"intents-eval.jsonl: {len(intents)} lines (spoken {sp}, written {len(intents) - sp}, "
          f"asr_noise {sum(l['asr_noise'] for l in intents)})")
    print("  per intent: " + ", ".join(f"{k} {ic[k]}" for k in ALL_INTENTS))
    fams = collections.Counter(l["source"] for l in intents)
    print("  per source family: " + ", ".join(f"{k} {v}" for k, v in sorted(fams.items())))
    empty = sum(not l["spans"] for l in pii)
    sp = sum(l["form"] == "spoken" for l in pii)
    print(f"pii-eval.jsonl: {len(pii)} lines (spoken {sp}, written {len(pii) - sp}, without spans {empty})")
    print("  per type: " + ", ".join(f"{t} {tc[t]}" for t in PII_TYPES))
    pf = collections.Counter(l["source"] for l in pii)
    print("  per source family: " + ", ".join(f"{k} {v}" for k, v in sorted(pf.items())))
    if ck.errors:
        for e in ck.errors[:50]:
            print("SELF-CHECK FAIL", e, file=sys.stderr)
        print(f"self-check: {len(ck.errors)} violation(s)", file=sys.stderr)
        return 1
    print("self-check: OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
