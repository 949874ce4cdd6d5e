#!/usr/bin/env python3
"""Build and validate the independent PII evaluation set "eval-b".

Standard library only, fixed seed.  Writes pii-eval-b.jsonl next to this
script.  Every line is built from a hand-written sentence (positive templates
with typed placeholders, or hand-written negatives).  Values are rendered
either as typed text ("written") or as an ASR-style transcript ("spoken"),
spans are located while the text is assembled, and every line is validated
before anything is written (offsets, order, overlap, word boundaries, spoken
alphabet, Luhn, IBAN mod-97, SSN plausibility, spoken digit round-trips).
"""
import json
import os
import random
import re
import sys
import unicodedata
from collections import Counter, defaultdict

SEED = 4117
HERE = os.path.dirname(os.path.abspath(__file__))
OUT_PATH = os.path.join(HERE, "pii-eval-b.jsonl")
N_TOTAL = 800
N_NEG = 280
N_POS = N_TOTAL - N_NEG
SPOKEN_SHARE = 0.65

rng = random.Random(SEED)

TYPES = ["PERSON", "PHONE", "EMAIL", "ADDRESS", "CREDIT_CARD", "IBAN", "SSN",
         "DATE_OF_BIRTH", "AGE", "IP_ADDRESS", "ACCOUNT_NUMBER",
         "PIN_OR_PASSWORD", "HEALTH", "LOCATION"]

# ---------------------------------------------------------------------------
# number words
# ---------------------------------------------------------------------------
ONES = ("zero one two three four five six seven eight nine ten eleven twelve "
        "thirteen fourteen fifteen sixteen seventeen eighteen nineteen").split()
TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()
ORD_SMALL = {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth",
             6: "sixth", 7: "seventh", 8: "eighth", 9: "ninth", 10: "tenth",
             11: "eleventh", 12: "twelfth", 13: "thirteenth",
             14: "fourteenth", 15: "fifteenth", 16: "sixteenth",
             17: "seventeenth", 18: "eighteenth", 19: "nineteenth",
             20: "twentieth", 30: "thirtieth"}
MONTHS = ["January", "February", "March", "April", "May", "June", "July",
          "August", "September", "October", "November", "December"]
MON3 = [m[:3] for m in MONTHS]


def n2w(n, and_=False):
    if n < 20:
        return ONES[n]
    if n < 100:
        t, o = divmod(n, 10)
        return TENS[t] + ("" if o == 0 else " " + ONES[o])
    if n < 1000:
        h, r = divmod(n, 100)
        s = ONES[h] + " hundred"
        if r:
            s += (" and " if and_ else " ") + n2w(r)
        return s
    th, r = divmod(n, 1000)
    s = n2w(th) + " thousand"
    if r:
        s += (" and " if (and_ and r < 100) else " ") + n2w(r, and_)
    return s


def ordinal_words(n):
    if n in ORD_SMALL:
        return ORD_SMALL[n]
    t, o = divmod(n, 10)
    return TENS[t] + " " + ORD_SMALL[o]


def ord_suffix(n):
    if 10 <= n % 100 <= 20:
        return "th"
    return {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")


def pair_words(p, zero):
    a, b = p[0], p[1]
    if a == "0":
        if b == "0":
            return rng.choice(["double " + zero, zero + " " + zero])
        return zero + " " + ONES[int(b)]
    return n2w(int(p))


def say_digits(s, zero, doubles=False):
    out = []
    i = 0
    while i < len(s):
        d = s[i]
        run = 1
        while i + run < len(s) and s[i + run] == d:
            run += 1
        w = zero if d == "0" else ONES[int(d)]
        if doubles and run in (2, 3):
            out.append(("double " if run == 2 else "triple ") + w)
            i += run
            continue
        if doubles and run == 4:
            out.append("double " + w + " double " + w)
            i += run
            continue
        out.append(w)
        i += 1
    return " ".join(out)


def roundable(g):
    return len(g) == 4 and g[0] != "0" and (g[2:] == "00")


def say_group(g, zero, mode):
    if mode == "pairs" and len(g) % 2 == 0:
        return " ".join(pair_words(g[i:i + 2], zero) for i in range(0, len(g), 2))
    if mode == "round" and roundable(g):
        if g[1:] == "000":
            return ONES[int(g[0])] + " thousand"
        return n2w(int(g[:2])) + " hundred"
    if mode == "doubles":
        return say_digits(g, zero, True)
    return say_digits(g, zero, False)


def year_words(y):
    if y < 2000:
        hi, lo = divmod(y, 100)
        if lo == 0:
            return n2w(hi) + " hundred"
        if lo < 10:
            return n2w(hi) + " oh " + ONES[lo]
        return n2w(hi) + " " + n2w(lo)
    if y == 2000:
        return "two thousand"
    if y < 2010:
        return "two thousand " + rng.choice(["", "and "]) + ONES[y - 2000]
    return rng.choice(["twenty " + n2w(y - 2000), "two thousand " + n2w(y - 2000),
                       "two thousand and " + n2w(y - 2000)])


# spoken digit/letter parser used to round-trip check spoken numbers
P_ONES = {w: str(i) for i, w in enumerate(ONES[:10])}
P_ONES["oh"] = "0"
P_TEENS = {ONES[i]: str(i) for i in range(10, 20)}
P_TENS = {TENS[i]: i for i in range(2, 10)}


def parse_chars(s):
    toks = s.split()
    out = []
    i = 0
    while i < len(toks):
        t = toks[i]
        if t in ("double", "triple"):
            n = 2 if t == "double" else 3
            nxt = toks[i + 1]
            out.append((P_ONES[nxt] if nxt in P_ONES else nxt.upper()) * n)
            i += 2
            continue
        if t == "plus":
            out.append("+")
        elif t in P_ONES:
            out.append(P_ONES[t])
        elif t in P_TEENS:
            out.append(P_TEENS[t])
        elif t in P_TENS:
            if i + 1 < len(toks) and toks[i + 1] in P_ONES and toks[i + 1] not in ("zero", "oh"):
                out.append(str(P_TENS[t] * 10 + int(P_ONES[toks[i + 1]])))
                i += 2
                continue
            out.append(str(P_TENS[t] * 10))
        elif t == "hundred":
            out.append("00")
        elif t == "thousand":
            out.append("000")
        elif t == "dash":
            pass
        elif len(t) == 1 and t.isalpha():
            out.append(t.upper())
        else:
            raise ValueError("unparsable token %r in %r" % (t, s))
        i += 1
    return "".join(out)


def rand_digits(n):
    return "".join(str(rng.randint(0, 9)) for _ in range(n))


LETTERS = "ABCDEFGHJKLMNPRSTUVWXYZ"


def rand_letters(n):
    return "".join(rng.choice(LETTERS) for _ in range(n))


def pick_zero():
    return "oh" if rng.random() < 0.6 else "zero"


# ---------------------------------------------------------------------------
# text helpers
# ---------------------------------------------------------------------------
def fold(s):
    for a, b in (("ø", "o"), ("Ø", "O"), ("æ", "ae"), ("ß", "ss"), ("ł", "l"), ("Ł", "L")):
        s = s.replace(a, b)
    s = unicodedata.normalize("NFKD", s)
    return "".join(c for c in s if not unicodedata.combining(c))


def spoken_name(s):
    s = fold(s).lower().replace("-", " ").replace(".", " ")
    s = re.sub(r"[^a-z' ]", "", s)
    return re.sub(" +", " ", s).strip()


LIT_REPL = [("&", " and "), ("Dr. ", "doctor "), ("Mr. ", "mister "),
            ("Mrs. ", "missus "), ("St. ", "saint "), ("e-mail", "email"),
            ("%", " percent"), ("YMCA", "y m c a"), ("ESPN", "e s p n"),
            ("BBC", "b b c"), ("NHS", "n h s"), ("ATM", "a t m"),
            ("UV ", "u v "), ("DHCP", "d h c p"), (" PE ", " p e "),
            ("ID.", "i d."), ("ID ", "i d "), ("DNS", "d n s"),
            ("VPN", "v p n"), ("BTS", "b t s"), ("SSN", "s s n"),
            ("the US", "the u s"), ("the UK", "the u k")]


def speak_literal(s):
    for a, b in LIT_REPL:
        s = s.replace(a, b)
    s = fold(s).lower().replace("\u2019", "'")
    s = re.sub(r"[-/\u2013\u2014]", " ", s)
    s = re.sub(r"[^a-z' ]", " ", s)
    s = re.sub(r" {2,}", " ", s)
    return s


# ---------------------------------------------------------------------------
# PERSON
# ---------------------------------------------------------------------------
CULTURES = {
    "south_asian": dict(
        f=["Priya", "Ananya", "Deepa", "Kavya", "Meera", "Sunita", "Farah", "Nusrat", "Ishita", "Lakshmi", "Pooja"],
        m=["Arjun", "Rohan", "Vikram", "Sanjay", "Imran", "Rahul", "Aditya", "Karthik", "Anil", "Harpreet", "Zubair"],
        last=["Raman", "Mehta", "Iyer", "Desai", "Nair", "Reddy", "Siddiqui", "Chaudhry", "Banerjee", "Gill", "Patel", "Krishnan", "Bhattacharya"]),
    "east_asian": dict(
        f=["Mei", "Yuki", "Ji-woo", "Hana", "Linh", "Xiu", "Min-seo", "Aiko", "Wen", "Haruka"],
        m=["Wei", "Hiroshi", "Min-jun", "Kenji", "Thanh", "Jun", "Hao", "Takeshi", "Dong-hyun", "Bao"],
        last=["Zhang", "Chen", "Tanaka", "Nakamura", "Park", "Kim", "Nguyen", "Tran", "Wong", "Liu", "Sato", "Huang", "Choi"]),
    "african": dict(
        f=["Amara", "Abena", "Wanjiru", "Ngozi", "Fatou", "Thandiwe", "Chiamaka", "Nomvula", "Adaeze", "Esi"],
        m=["Chidi", "Kwame", "Tendai", "Thabo", "Oluwaseun", "Kofi", "Emeka", "Babajide", "Tunde", "Jabari"],
        last=["Okafor", "Nwosu", "Mensah", "Owusu", "Moyo", "Ndlovu", "Kamau", "Adeyemi", "Diallo", "Boateng", "Eze", "Otieno"]),
    "hispanic": dict(
        f=["Lucía", "Camila", "Guadalupe", "Ximena", "Valentina", "Marisol", "Itzel", "Paloma", "Rocío", "Beatriz"],
        m=["José", "Alejandro", "Mateo", "Javier", "Diego", "Joaquín", "Rafael", "Santiago", "Héctor", "Luis"],
        last=["Ramírez", "Fernández", "Gutiérrez", "Rojas", "Morales", "Herrera", "Castillo", "Vargas", "Navarro", "Delgado", "Ortega", "Salazar"]),
    "slavic": dict(
        f=["Katarzyna", "Oksana", "Agnieszka", "Yelena", "Milena", "Dasha", "Zofia", "Irina", "Anastasia", "Ludmila"],
        m=["Dmitri", "Pavel", "Milan", "Tomasz", "Andriy", "Bogdan", "Nikolai", "Jakub", "Sergei", "Vuk"],
        last=["Nowak", "Horvat", "Shevchenko", "Novák", "Bondarenko", "Marković", "Kovač", "Melnyk"],
        last_m=["Volkov", "Sokolov", "Wiśniewski", "Kowalski", "Zieliński"],
        last_f=["Volkova", "Sokolova", "Wiśniewska", "Kowalska", "Zielińska"]),
    "nordic": dict(
        f=["Sigrid", "Ingrid", "Astrid", "Freya", "Linnea", "Solveig", "Maja", "Elin", "Tuva", "Aino"],
        m=["Lars", "Søren", "Bjørn", "Magnus", "Henrik", "Anders", "Eero", "Jonas", "Leif", "Mikkel"],
        last=["Andersen", "Johansson", "Lindqvist", "Kristensen", "Halvorsen", "Eriksen", "Nilsson", "Virtanen", "Berg", "Dahl", "Solberg", "Lund"]),
    "arabic": dict(
        f=["Layla", "Noor", "Rania", "Yasmin", "Amira", "Huda", "Salma", "Mariam", "Leila", "Dalia"],
        m=["Omar", "Youssef", "Karim", "Khalid", "Hamza", "Tariq", "Bilal", "Samir", "Nabil", "Ziad"],
        last=["Haddad", "Al-Masri", "Benali", "Khalil", "Mansour", "Saleh", "Nasser", "Hamdan", "El-Amin", "Farouk", "Bakri"]),
    "irish": dict(
        f=["Siobhán", "Aoife", "Niamh", "Saoirse", "Caoimhe", "Orla", "Róisín", "Clodagh", "Gráinne", "Deirdre"],
        m=["Ciarán", "Declan", "Eoin", "Oisín", "Cathal", "Darragh", "Fionn", "Padraig", "Tadhg", "Ronan"],
        last=["O'Sullivan", "Murphy", "Byrne", "Kelly", "Fitzgerald", "Brennan", "McCarthy", "Doyle", "Gallagher", "Nolan", "Kavanagh", "Quinlan"]),
    "anglo": dict(
        f=["Rose", "Hope", "Grace", "Faith", "Dawn", "Penny", "Holly", "Ivy", "June", "April", "Joy", "Ruby", "Amber",
           "Heather", "Megan", "Chloe", "Bethany", "Imani", "Keisha", "Aaliyah", "Shanice", "Robin", "Sandy"],
        m=["Will", "Mark", "Bill", "Jack", "Frank", "Rich", "Chase", "Hunter", "Jay", "Gary", "Neil", "Dylan", "Trevor",
           "Owen", "Jamal", "DeShawn", "Malik", "Darnell", "Terrence", "Robin"],
        last=["Whitaker", "Dalton", "Barnes", "Ellison", "Porter", "Fletcher", "Walsh", "Thornton", "Hayes", "Pritchard",
              "Holloway", "Benson", "Caldwell", "Mercer", "Baker", "Hill", "Price", "Little", "Cook", "Brown", "Rice",
              "Young", "King", "Long", "Bishop", "Marsh", "Coleman", "Jenkins", "Robinson", "Washington"]),
}
CULT_KEYS = list(CULTURES)
CULT_W = [1.0 if k != "anglo" else 2.2 for k in CULT_KEYS]
WNAME_F = ["Rose", "Hope", "Grace", "Faith", "Dawn", "Penny", "Holly", "Ivy", "June", "April", "Joy", "Ruby",
           "Amber", "Daisy", "Summer", "Pearl", "Heather", "Patience", "May", "Robin", "Sandy", "Sky", "Sage"]
WNAME_M = ["Will", "Mark", "Bill", "Jack", "Frank", "Rich", "Chase", "Hunter", "Jay", "Rusty", "Sonny", "Guy",
           "Art", "Drew", "Wade", "Robin", "Sandy", "River"]
FAMOUS = {"Will Young", "Mark King", "Neil Young", "Rich Little", "Mark Price", "Dylan Baker", "Megan Young",
          "Jack Black", "Grace Kelly", "Chloe Price", "Will Smith", "Jack Long", "Frank Young", "Bill Bishop",
          "Gary Barnes", "Owen Hill", "Jay Price", "Mark Long", "Hana Kim", "Jun Kim", "Wei Zhang", "Mei Chen",
          "Luis Morales", "Diego Vargas", "Jamal Washington", "Malik Washington", "Gary Young", "Trevor Baker", "Will Hill", "Jack Brown", "Mark Brown", "Bill Young"}


def pick_culture():
    return rng.choices(CULT_KEYS, weights=CULT_W)[0]


def last_for(c, g):
    C = CULTURES[c]
    if g and ("last_" + g) in C and rng.random() < 0.55:
        return rng.choice(C["last_" + g])
    return rng.choice(C["last"])


def g_person(form, kind):
    while True:
        if kind in ("wname_f", "wname_m"):
            v = rng.choice(WNAME_F if kind == "wname_f" else WNAME_M)
        else:
            c = pick_culture()
            g = {"first_f": "f", "first_m": "m", "full_f": "f", "full_m": "m"}.get(kind, rng.choice("fm"))
            first = rng.choice(CULTURES[c][g])
            if kind.startswith("first"):
                v = first
            elif kind == "last":
                v = last_for(c, rng.choice("fm"))
            else:
                v = first + " " + last_for(c, g)
                if v in FAMOUS:
                    continue
        return spoken_name(v) if form == "spoken" else v


# ---------------------------------------------------------------------------
# PHONE
# ---------------------------------------------------------------------------
US_AREAS = ["415", "212", "312", "617", "713", "206", "404", "305", "503", "614", "919", "702", "480",
            "818", "973", "646", "512", "720", "615", "801", "248", "314", "412", "858"]


def us_exchange():
    if rng.random() < 0.2:
        return "555"
    while True:
        e = str(rng.randint(201, 989))
        if e[1:] != "11":
            return e


def special_line():
    r = rng.random()
    if r < 0.18:
        return "%d%d00" % (rng.randint(1, 9), rng.randint(0, 9))
    if r < 0.23:
        return "%d000" % rng.randint(1, 9)
    if r < 0.40:
        d = str(rng.randint(0, 9))
        return d * 2 + rand_digits(2)
    return rand_digits(4)


def phone_parts(kind):
    if kind == "us":
        return dict(cc="1", trunk="", groups=[rng.choice(US_AREAS), us_exchange(), special_line()])
    if kind == "us_local":
        return dict(cc=None, trunk="", groups=[us_exchange(), special_line()])
    if kind == "uk_mob":
        first = rng.choice(["7700", "7911", "7456", "7823", "7389", "7552"])
        tail = "900" + rand_digits(3) if first == "7700" else rand_digits(6)
        return dict(cc="44", trunk="0", groups=[first, tail])
    if kind == "uk_land":
        if rng.random() < 0.6:
            return dict(cc="44", trunk="0", groups=["20", rng.choice("378") + rand_digits(3), rand_digits(4)])
        return dict(cc="44", trunk="0", groups=[rng.choice(["161", "113", "117", "131", "141"]), rand_digits(3), rand_digits(4)])
    if kind == "ie":
        return dict(cc="353", trunk="0", groups=["8" + rng.choice("35679"), rand_digits(3), rand_digits(4)])
    if kind == "in":
        return dict(cc="91", trunk="0", groups=[rng.choice("6789") + rand_digits(4), rand_digits(5)])
    if kind == "de":
        return dict(cc="49", trunk="0", groups=[rng.choice(["30", "40", "89", "151", "160", "176"]), rand_digits(rng.choice([7, 8]))])
    if kind == "ng":
        return dict(cc="234", trunk="0", groups=[rng.choice(["803", "806", "813", "703", "905"]), rand_digits(3), rand_digits(4)])
    if kind == "au":
        return dict(cc="61", trunk="0", groups=["4" + rand_digits(2), rand_digits(3), rand_digits(3)])
    if kind == "fr":
        return dict(cc="33", trunk="0", groups=[rng.choice("67")] + [rand_digits(2) for _ in range(4)])
    if kind == "mx":
        return dict(cc="52", trunk="", groups=["55", rand_digits(4), rand_digits(4)])
    raise KeyError(kind)


def phone_written(p, kind):
    g = p["groups"]
    if kind == "us":
        a, e, l = g
        return rng.choice([f"({a}) {e}-{l}", f"{a}-{e}-{l}", f"{a}.{e}.{l}", f"{a} {e} {l}", f"+1 {a} {e} {l}",
                           f"+1 ({a}) {e}-{l}", f"1-{a}-{e}-{l}", f"{a}{e}{l}", f"{a}\u2013{e}\u2013{l}",
                           f"+1{a}{e}{l}", f"({a}) {e}-{l}", f"{a}-{e}-{l}", f"({a}){e}-{l}"])
    if kind == "us_local":
        return rng.choice([f"{g[0]}-{g[1]}", f"{g[0]}-{g[1]}", f"{g[0]} {g[1]}"])
    if rng.random() < 0.55:
        r = rng.random()
        if kind == "uk_mob" and r < 0.2:
            return f"+44 (0){g[0]} {g[1]}"
        if r < 0.8:
            return f"+{p['cc']} " + " ".join(g)
        return f"+{p['cc']}" + "".join(g)
    nat = [p["trunk"] + g[0]] + g[1:]
    r = rng.random()
    if r < 0.7:
        return " ".join(nat)
    if r < 0.85:
        return "".join(nat)
    return "-".join(nat)


def phone_spoken(p, kind):
    zero = "oh" if rng.random() < 0.75 else "zero"
    main = rng.choices(["digits", "doubles"], [6, 4])[0]
    words, expect = [], ""
    intl = (p["cc"] is not None) and ((kind not in ("us", "us_local") and rng.random() < 0.45) or
                                      (kind == "us" and rng.random() < 0.08))
    groups = list(p["groups"])
    if intl:
        words.append("plus " + say_digits(p["cc"], zero))
        expect = "+" + p["cc"]
    else:
        if p["trunk"]:
            groups[0] = p["trunk"] + groups[0]
        if kind == "us" and rng.random() < 0.1:
            words.append("one")
            expect = "1"
    plain_words = list(words)
    for i, grp in enumerate(groups):
        last = i == len(groups) - 1
        if last and len(grp) == 4:
            mode = rng.choices(["digits", main, "pairs", "round"], [3, 3, 2, 5 if roundable(grp) else 0])[0]
        elif kind == "fr" and len(grp) == 2 and rng.random() < 0.5:
            mode = "pairs"
        else:
            mode = main
        words.append(say_group(grp, zero, mode))
        plain_words.append(say_digits(grp, zero))
        expect += grp
    sp = " ".join(words)
    if parse_chars(sp) != expect:
        sp = " ".join(plain_words)
    assert parse_chars(sp) == expect, (sp, expect)
    return sp


def g_phone(form, kind=None):
    kind = kind or rng.choices(["us", "us_local", "uk_mob", "uk_land", "ie", "in", "de", "ng", "au", "fr", "mx"],
                               [44, 5, 13, 6, 6, 6, 4, 4, 4, 3, 3])[0]
    p = phone_parts(kind)
    return phone_written(p, kind) if form == "written" else phone_spoken(p, kind)


# ---------------------------------------------------------------------------
# EMAIL
# ---------------------------------------------------------------------------
EMAIL_DOMAINS = [("gmail.com", "gmail dot com")] * 6 + [
    ("yahoo.com", "yahoo dot com"), ("outlook.com", "outlook dot com"), ("outlook.com", "outlook dot com"),
    ("hotmail.co.uk", "hotmail dot co dot uk"), ("icloud.com", "icloud dot com"), ("icloud.com", "icloud dot com"),
    ("proton.me", "proton dot me"), ("aol.com", "a o l dot com"), ("live.ie", "live dot i e"),
    ("gmx.de", "g m x dot d e"), ("web.de", "web dot d e"), ("yahoo.co.jp", "yahoo dot co dot j p"),
    ("fastmail.com", "fastmail dot com"), ("brightwaterlogistics.com", "brightwater logistics dot com"),
    ("hollisgrant.co.uk", "hollis grant dot co dot uk"), ("kesslerdental.com", "kessler dental dot com"),
    ("northwind-analytics.io", "northwind dash analytics dot i o"), ("comcast.net", "comcast dot net"),
    ("btinternet.com", "b t internet dot com"), ("orange.fr", "orange dot f r"), ("libero.it", "libero dot i t"),
    ("rediffmail.com", "rediffmail dot com"), ("mail.ucd.ie", "mail dot u c d dot i e"),
    ("pembertonlaw.com", "pemberton law dot com")]
NICKS = {"sunnyside": "sunny side", "bookworm": "bookworm", "kitchenwitch": "kitchen witch",
         "thegardener": "the gardener", "trailrunner": "trail runner", "nightowl": "night owl",
         "coffeeaddict": "coffee addict", "bluesky": "blue sky", "jazzcat": "jazz cat", "pixelpanda": "pixel panda",
         "mountaingoat": "mountain goat", "lazybones": "lazy bones"}
SEP_SP = {".": "dot", "_": "underscore", "-": "dash", "+": "plus"}


def clean_tok(s):
    return re.sub(r"[^a-z]", "", fold(s).lower())


def num_tok(n):
    s = str(n)
    if len(s) == 4:
        return (s, year_words(n) if rng.random() < 0.7 else say_digits(s, "oh"))
    return (s, n2w(n) if (rng.random() < 0.6 or n < 10) else say_digits(s, "oh"))


CTX_PERSONS = []  # PERSON values already placed in the sentence being rendered


def email_parts():
    c = pick_culture()
    g = rng.choice("fm")
    f = clean_tok(rng.choice(CULTURES[c][g]))
    l = clean_tok(last_for(c, g))
    if CTX_PERSONS and rng.random() < 0.65:  # the address usually belongs to the person just named
        toks = [clean_tok(x) for x in re.split(r"[ ]+", CTX_PERSONS[-1]) if clean_tok(x)]
        if len(toks) >= 2:
            f, l = toks[0], toks[-1]
        elif toks and len(toks[0]) > 2:
            f = toks[0]
    num = rng.randint(1, 99) if rng.random() < 0.7 else rng.randint(1965, 2006)
    pat = rng.choices(range(11), [14, 7, 9, 6, 8, 5, 5, 4, 5, 4, 2])[0]
    if pat == 0:
        toks = [(f, f), ".", (l, l)]
    elif pat == 1:
        toks = [(f + l, f + " " + l)]
    elif pat == 2:
        toks = [(f[0] + l, f[0] + " " + l)]
    elif pat == 3:
        toks = [(f, f), "_", (l, l)]
    elif pat == 4:
        toks = [(f, f), num_tok(num)]
    elif pat == 5:
        toks = [(f, f), ".", (l, l), num_tok(num)]
    elif pat == 6:
        toks = [(l + f[0], l + " " + f[0])]
    elif pat == 7:
        toks = [(f, f), "-", (l, l)]
    elif pat == 8:
        nk = rng.choice(list(NICKS))
        toks = [(nk, NICKS[nk]), num_tok(num)]
    elif pat == 9:
        toks = [(f, f), ".", (l[0], l[0])]
    else:
        tag = rng.choice(["shopping", "school", "bills", "news"])
        toks = [(f, f), ".", (l, l), "+", (tag, tag)]
    w = "".join(t if isinstance(t, str) else t[0] for t in toks)
    s = " ".join(SEP_SP[t] if isinstance(t, str) else t[1] for t in toks)
    dom = rng.choice(EMAIL_DOMAINS)
    return w, s, dom


def g_email(form, obf=False):
    w, s, (dw, ds) = email_parts()
    if form == "spoken":
        return s + " at " + ds
    if not obf:
        return w + "@" + dw
    style = rng.randrange(4)
    if style == 0:
        return w + "(at)" + dw.replace(".", "(dot)")
    if style == 1:
        return w + " [at] " + dw.replace(".", " [dot] ")
    if style == 2:
        return w + " at " + dw.replace(".", " dot ")
    return w.replace(".", " dot ") + " AT " + dw.replace(".", " DOT ")


# ---------------------------------------------------------------------------
# ADDRESS
# ---------------------------------------------------------------------------
STREETS = [("Maple", "maple"), ("Willow Creek", "willow creek"), ("Oak Ridge", "oak ridge"), ("Elm", "elm"),
           ("Cedar", "cedar"), ("Pinecrest", "pinecrest"), ("Harbor View", "harbor view"), ("Magnolia", "magnolia"),
           ("Birchwood", "birchwood"), ("Lakeshore", "lakeshore"), ("Chestnut Hill", "chestnut hill"),
           ("Kensington", "kensington"), ("Prospect", "prospect"), ("Hawthorne", "hawthorne"),
           ("Meadowbrook", "meadowbrook"), ("Quail Run", "quail run"), ("Juniper", "juniper"),
           ("Sycamore", "sycamore"), ("Briarcliff", "briarcliff"), ("Old Mill", "old mill"),
           ("Stonegate", "stonegate"), ("Fairview", "fairview"), ("Cherry Blossom", "cherry blossom"),
           ("Bluebonnet", "bluebonnet"), ("Aspen Grove", "aspen grove"), ("Laurel", "laurel"),
           ("Foxglove", "foxglove"), ("West 14th", "west fourteenth"), ("East 3rd", "east third"),
           ("2nd", "second"), ("5th", "fifth"), ("North 22nd", "north twenty second"), ("Garfield", "garfield"),
           ("Alvarado", "alvarado"), ("Peachtree Hollow", "peachtree hollow")]
SUFFIXES = [("St", "Street"), ("St", "Street"), ("Ave", "Avenue"), ("Ave", "Avenue"), ("Dr", "Drive"),
            ("Rd", "Road"), ("Ln", "Lane"), ("Ct", "Court"), ("Blvd", "Boulevard"), ("Pl", "Place"),
            ("Way", "Way"), ("Ter", "Terrace"), ("Cir", "Circle")]
CITIES = [("Austin", "TX", "Texas", "787"), ("Portland", "OR", "Oregon", "972"), ("Columbus", "OH", "Ohio", "432"),
          ("Denver", "CO", "Colorado", "802"), ("Springfield", "IL", "Illinois", "627"),
          ("Raleigh", "NC", "North Carolina", "276"), ("Tucson", "AZ", "Arizona", "857"),
          ("Madison", "WI", "Wisconsin", "537"), ("Sacramento", "CA", "California", "958"),
          ("Albany", "NY", "New York", "122"), ("Brooklyn", "NY", "New York", "112"),
          ("Somerville", "MA", "Massachusetts", "021"), ("Evanston", "IL", "Illinois", "602"),
          ("Boise", "ID", "Idaho", "837"), ("Savannah", "GA", "Georgia", "314"), ("Ann Arbor", "MI", "Michigan", "481"),
          ("Plano", "TX", "Texas", "750"), ("Minneapolis", "MN", "Minnesota", "554"), ("Pittsburgh", "PA", "Pennsylvania", "152")]
UK_TOWNS = [("Leeds", "LS"), ("Manchester", "M"), ("Bristol", "BS"), ("Glasgow", "G"), ("Cardiff", "CF"),
            ("Nottingham", "NG"), ("Brighton", "BN"), ("Edinburgh", "EH"), ("Belfast", "BT"), ("Sheffield", "S")]
UK_STREETS = ["Kingsley Road", "Albion Street", "Beech Grove", "Station Road", "Victoria Crescent", "Mill Lane",
              "Church Close", "Orchard Gardens", "Granville Terrace", "Ashfield Avenue", "Ferncliffe Drive", "Holly Bank"]
IE_PLACES = [("Dún Laoghaire", "Dublin", "A96"), ("Rathmines", "Dublin", "D06"), ("Salthill", "Galway", "H91"),
             ("Douglas", "Cork", "T12"), ("Ennis", "Clare", "V95"), ("Drumcondra", "Dublin", "D09")]
IE_STREETS = ["Seaview Terrace", "Castle Park", "Main Street", "Church Road", "Glenview Drive", "Ashgrove Lawn"]
AU_PLACES = [("Bondi", "NSW", "new south wales", "2026"), ("Fitzroy", "VIC", "victoria", "3065"),
             ("Paddington", "QLD", "queensland", "4064"), ("Fremantle", "WA", "western australia", "6160")]
AU_STREETS = ["Bondi Road", "Brunswick Street", "Latrobe Terrace", "High Street", "Wattle Avenue"]


def house_number():
    r = rng.random()
    if r < 0.25:
        return rng.randint(2, 99)
    if r < 0.55:
        return rng.randint(100, 999)
    if r < 0.97:
        return rng.randint(1000, 9999)
    return rng.randint(10000, 24999)


def house_spoken(n):
    s = str(n)
    if n < 100:
        return n2w(n)
    if n < 1000:
        if rng.random() < 0.25:
            return n2w(n)
        if s[1:] == "00":
            return ONES[int(s[0])] + " hundred"
        if s[1] == "0":
            return ONES[int(s[0])] + " oh " + ONES[int(s[2])]
        return ONES[int(s[0])] + " " + n2w(int(s[1:]))
    if n < 10000:
        if rng.random() < 0.15:
            return say_digits(s, "oh")
        hi, lo = s[:2], s[2:]
        hw = n2w(int(hi))
        if lo == "00":
            return hw + " hundred"
        if lo[0] == "0":
            return hw + " oh " + ONES[int(lo[1])]
        return hw + " " + n2w(int(lo))
    return say_digits(s, "oh")


def unit_parts():
    r = rng.random()
    if r < 0.45:
        n, L = rng.randint(1, 30), rng.choice("ABCDEF")
        return (rng.choice(["Apt ", "Apt. ", "Apartment "]) + f"{n}{L}", f"apartment {n2w(n)} {L.lower()}")
    if r < 0.65:
        n = rng.randint(1, 40)
        return (f"Apt {n}", f"apartment {n2w(n)}")
    if r < 0.8:
        n = rng.randint(2, 24)
        return (f"Unit {n}", f"unit {n2w(n)}")
    if r < 0.9:
        n = rng.randint(101, 920)
        return (f"#{n}", f"number {house_spoken(n)}")
    n = rng.choice([100, 110, 200, 210, 300, 450])
    return (f"Suite {n}", f"suite {house_spoken(n)}")


def addr_us(form, short=False):
    n = house_number()
    st_w, st_s = rng.choice(STREETS)
    ab, full = rng.choice(SUFFIXES)
    has_unit = rng.random() < 0.3
    city = None if short else rng.choice(CITIES)
    u_w, u_s = unit_parts() if has_unit else (None, None)
    zipc = city[3] + rand_digits(2) if city else None
    if form == "spoken":
        parts = [house_spoken(n), st_s, full.lower()]
        if has_unit:
            parts.append(u_s)
        if city:
            parts.append(city[0].lower())
            r = rng.random()
            if r < 0.45:
                parts += [city[2].lower(), say_digits(zipc, pick_zero())]
            elif r < 0.75:
                parts.append(city[2].lower())
            elif r < 0.85:
                parts.append(say_digits(zipc, pick_zero()))
        return " ".join(parts)
    more = has_unit or city
    suf = rng.choice([ab, full, full] + ([ab + "."] if more else []))
    s = f"{n} {st_w} {suf}"
    if has_unit:
        s += rng.choice([", ", " "]) + u_w
    if city:
        r = rng.random()
        if r < 0.5:
            s += f", {city[0]}, {city[1]} {zipc}"
        elif r < 0.7:
            s += f", {city[0]} {city[1]} {zipc}"
        elif r < 0.85:
            s += f", {city[0]}"
        else:
            s += f", {city[0]}, {city[2]}"
    return s


def say_code(code, zero="oh"):
    """letters one by one, digit runs digit by digit"""
    return " ".join(t.lower() if t.isalpha() else say_digits(t, zero)
                    for t in re.findall(r"[A-Za-z]|\d", code))


def addr_uk(form):
    r = rng.random()
    if r < 0.6:
        town, area = rng.choice(UK_TOWNS)
        n = rng.randint(1, 180)
        street = rng.choice(UK_STREETS)
        flat = rng.randint(1, 9) if rng.random() < 0.3 else None
        dist = rng.randint(1, 20)
        inward = str(rng.randint(1, 9)) + "".join(rng.choice("ABDEFGHJLNPQRSTUWXYZ") for _ in range(2))
        pc = f"{area}{dist} {inward}"
        if form == "written":
            return (f"Flat {flat}, " if flat else "") + f"{n} {street}, {town} {pc}"
        pc_s = " ".join(area.lower()) + " " + n2w(dist) + " " + say_code(inward)
        return (f"flat {n2w(flat)} " if flat else "") + f"{n2w(n)} {street.lower()} {town.lower()} {pc_s}"
    if r < 0.85:
        place, county, key = rng.choice(IE_PLACES)
        n = rng.randint(1, 120)
        street = rng.choice(IE_STREETS)
        eir = key + " " + rng.choice("ACDEFHKNPRTVWXY") + str(rng.randint(1, 9)) + rng.choice("ACDEFHKNPRTVWXY") + str(rng.randint(0, 9))
        with_eir = rng.random() < 0.5
        if form == "written":
            return f"{n} {street}, {place}, Co. {county}" + (f" {eir}" if with_eir else "")
        return (f"{n2w(n)} {street.lower()} {spoken_name(place)} county {county.lower()}" +
                (" " + say_code(eir) if with_eir else ""))
    sub, stt, stt_full, pc = rng.choice(AU_PLACES)
    u, n = rng.randint(1, 30), rng.randint(2, 400)
    street = rng.choice(AU_STREETS)
    if form == "written":
        return f"{u}/{n} {street}, {sub} {stt} {pc}"
    return f"unit {n2w(u)} {house_spoken(n)} {street.lower()} {sub.lower()} {stt_full} {say_digits(pc, 'oh')}"


def g_addr(form, kind):
    if kind == "addr_uk":
        return addr_uk(form)
    if kind == "addr_s":
        if rng.random() < 0.12:
            n = rng.randint(1, 150)
            st = rng.choice(UK_STREETS)
            return f"{n} {st}" if form == "written" else f"{n2w(n)} {st.lower()}"
        return addr_us(form, short=True)
    return addr_us(form) if rng.random() < 0.85 else addr_uk(form)


# ---------------------------------------------------------------------------
# CREDIT_CARD / IBAN / SSN / ACCOUNT
# ---------------------------------------------------------------------------
def luhn_ok(d):
    total = 0
    for i, ch in enumerate(reversed(d)):
        x = int(ch)
        if i % 2 == 1:
            x *= 2
            if x > 9:
                x -= 9
        total += x
    return total % 10 == 0


def luhn_complete(prefix, length):
    body = prefix + rand_digits(length - len(prefix) - 1)
    for c in "0123456789":
        if luhn_ok(body + c):
            return body + c
    raise AssertionError


def g_card(form, brand=None):
    brand = brand or rng.choices(["visa", "mc", "amex", "disc"], [45, 30, 15, 10])[0]
    if brand == "visa":
        num = luhn_complete("4", 16)
    elif brand == "mc":
        num = luhn_complete(rng.choice(["51", "52", "53", "54", "55", "2221", "2367", "2720"]), 16)
    elif brand == "amex":
        num = luhn_complete(rng.choice(["34", "37"]), 15)
    else:
        num = luhn_complete("6011", 16)
    groups = [num[0:4], num[4:10], num[10:]] if len(num) == 15 else [num[i:i + 4] for i in range(0, 16, 4)]
    if form == "written":
        return rng.choice([" ", " ", " ", "-", ""]).join(groups)
    zero = rng.choice(["zero", "zero", "oh"])
    mode = rng.choices(["digits", "doubles", "pairs"], [6, 2, 2])[0]
    if mode == "pairs" and len(num) == 15:
        mode = "digits"
    sp = " ".join(say_group(g, zero, mode) for g in groups)
    if parse_chars(sp) != num:
        sp = " ".join(say_group(g, zero, "digits") for g in groups)
    assert parse_chars(sp) == num
    return sp


IBAN_LEN = {"GB": 22, "DE": 22, "FR": 27, "NL": 18, "ES": 24, "IE": 22, "IT": 27, "BE": 16, "PT": 25, "PL": 28}


def iban_make(cc, bban):
    rearr = bban + cc + "00"
    chk = 98 - int("".join(str(int(ch, 36)) for ch in rearr)) % 97
    return cc + "%02d" % chk + bban


def iban_valid(s):
    s = s.replace(" ", "").upper()
    if len(s) != IBAN_LEN.get(s[:2], -1):
        return False
    rearr = s[4:] + s[:4]
    return int("".join(str(int(c, 36)) for c in rearr)) % 97 == 1


def g_iban(form):
    cc = rng.choices(list(IBAN_LEN), [22, 16, 10, 10, 10, 12, 6, 5, 4, 5])[0]
    if cc == "GB":
        bban = rng.choice(["NWBK", "BARC", "LOYD", "HBUK", "MIDL"]) + rand_digits(14)
    elif cc == "IE":
        bban = rng.choice(["AIBK", "BOFI", "IPBS"]) + rand_digits(14)
    elif cc == "NL":
        bban = rng.choice(["ABNA", "RABO", "INGB", "TRIO", "KNAB"]) + rand_digits(10)
    elif cc == "IT":
        bban = rng.choice("ABCDEFGHJKLMNPRSTUVXZ") + rand_digits(22)
    else:
        bban = rand_digits(IBAN_LEN[cc] - 4)
    iban = iban_make(cc, bban)
    assert iban_valid(iban)
    groups = [iban[i:i + 4] for i in range(0, len(iban), 4)]
    if form == "written":
        return " ".join(groups) if rng.random() < 0.7 else iban
    zero = pick_zero()
    dbl = rng.random() < 0.3
    sp = " ".join(" ".join(t.lower() if t.isalpha() else say_digits(t, zero, dbl)
                           for t in re.findall(r"[A-Z]|\d+", g)) for g in groups)
    assert parse_chars(sp) == iban, (sp, iban)
    return sp


def g_ssn(form):
    while True:
        a = rng.randint(1, 899)
        if a != 666:
            break
    A, G, S = "%03d" % a, "%02d" % rng.randint(1, 99), "%04d" % rng.randint(1, 9999)
    if form == "written":
        return rng.choice([f"{A}-{G}-{S}"] * 4 + [f"{A} {G} {S}", A + G + S])
    zero = pick_zero()
    r = rng.random()
    if r < 0.6:
        sp = " ".join(say_digits(x, zero) for x in (A, G, S))
    elif r < 0.8:
        sp = " ".join(say_digits(x, zero, True) for x in (A, G, S))
    else:
        sp = say_digits(A, zero) + " " + pair_words(G, zero) + " " + say_group(S, zero, "pairs")
    if parse_chars(sp) != A + G + S:
        sp = " ".join(say_digits(x, zero) for x in (A, G, S))
    assert parse_chars(sp) == A + G + S
    return sp


def g_acct(form, kind):
    if kind == "acct":
        n = rand_digits(rng.choice([8, 8, 9, 10, 12]))
        w = rng.choice([n, n, " ".join(n[i:i + 4] for i in range(0, len(n), 4))])
    elif kind == "custno":
        w = rng.choice([f"{rand_letters(2)}-{rand_digits(7)}", f"{rand_letters(2)}{rand_digits(8)}",
                        f"{rand_digits(4)} {rand_digits(4)} {rand_digits(2)}", f"C{rand_digits(9)}"])
    elif kind == "policy":
        w = rng.choice([f"{rng.choice(['AUT', 'HOM', 'TRV', 'LFE', 'PX', 'QH'])}-{rand_digits(4)}-{rand_digits(4)}",
                        f"{rand_letters(1)} {rand_digits(3)} {rand_digits(3)} {rand_digits(3)}", f"POL{rand_digits(8)}",
                        f"{rand_letters(2)}{rand_digits(7)}"])
    else:  # member
        w = rng.choice([f"M{rand_digits(8)}", f"{rand_digits(4)} {rand_digits(4)} {rand_digits(4)}",
                        f"MBR-{rand_digits(3)}-{rand_digits(3)}-{rand_digits(2)}", f"{rand_letters(3)}{rand_digits(9)}"])
    if form == "written":
        return w
    zero = pick_zero()
    dbl = rng.random() < 0.35
    sp = " ".join(t.lower() if t.isalpha() else say_digits(t, zero, dbl) for t in re.findall(r"[A-Z]|\d+", w))
    assert parse_chars(sp) == re.sub(r"[^A-Z0-9]", "", w)
    return sp


# ---------------------------------------------------------------------------
# PIN / PASSWORD
# ---------------------------------------------------------------------------
PW_WORDS = ["bluebird", "marigold", "sunflower", "tangerine", "pineapple", "dolphin", "thunder", "lighthouse",
            "cinnamon", "blackberry", "snowflake", "velvet", "cactus", "meadow", "falcon", "nutmeg", "pumpkin",
            "waffle", "otter", "zeppelin", "biscuit", "nebula", "pistachio", "copper", "lantern", "teapot", "giraffe"]


def g_pin(form):
    n = rng.choice([4, 4, 4, 4, 4, 6, 5])
    p = rand_digits(n)
    if form == "written":
        return p
    zero = pick_zero()
    mode = rng.choices(["digits", "doubles", "pairs"], [6, 2, 3 if n % 2 == 0 else 0])[0]
    sp = say_group(p, zero, mode)
    if parse_chars(sp) != p:
        sp = say_digits(p, zero)
    return sp


def leet(w):
    return w.replace("o", "0").replace("e", "3").replace("a", "4", 1)


def g_pwd(form, wifi=False):
    w1, w2, w3 = rng.sample(PW_WORDS, 3)
    num = rng.randint(2, 99)
    if form == "written":
        r = rng.randrange(7 if wifi else 6)
        if r == 0:
            return w1.capitalize() + rng.choice("#!$&*") + rand_digits(4)
        if r == 1:
            return w1 + str(num) + "!"
        if r == 2:
            return leet(w1).capitalize() + rng.choice("&#") + str(rng.randint(1, 9))
        if r == 3:
            chars = "abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789"
            s = rng.choice("abcdefghkmnpqrstxyzKLMPQTVX") + "".join(rng.choice(chars + "!-_") for _ in range(9))
            return s + rng.choice(chars)
        if r == 4:
            return f"{w1}-{w2}-{w3}-{rng.randint(1, 9)}"
        if r == 5:
            return w1.capitalize() + w2.capitalize() + str(num)
        return f"{rand_letters(4).lower()}-{rand_digits(4)}-{rand_letters(4).lower()}"
    r = rng.randrange(5)
    if r == 0:
        return f"{w1} {say_digits(rand_digits(4), 'zero')}"
    if r == 1:
        return f"{w1} {w2} {n2w(num)}"
    if r == 2:
        return f"{w1} {w2} {w3}"
    if r == 3:
        return f"{w1} {n2w(num)} exclamation mark"
    return f"{w1} {year_words(rng.randint(1970, 2024))}"


# ---------------------------------------------------------------------------
# HEALTH / LOCATION / DATES / AGES / IPs
# ---------------------------------------------------------------------------
COND = ["type 2 diabetes", "asthma", "high blood pressure", "hypertension", "migraines", "celiac disease",
        "epilepsy", "ADHD", "depression", "anxiety", "atrial fibrillation", "sleep apnea", "Crohn's disease",
        "lupus", "multiple sclerosis", "rheumatoid arthritis", "gout", "long COVID", "kidney stones",
        "hypothyroidism", "endometriosis", "PTSD", "bipolar disorder", "glaucoma", "psoriasis", "shingles",
        "pneumonia", "breast cancer", "IBS", "fibromyalgia", "vertigo", "sciatica"]
COND_KID = ["asthma", "ADHD", "epilepsy", "type 1 diabetes", "celiac disease", "eczema", "tonsillitis",
            "chickenpox", "strep throat", "autism", "dyslexia", "hay fever"]
COND_OLD = ["dementia", "Alzheimer's", "Parkinson's", "COPD", "heart failure", "atrial fibrillation", "arthritis",
            "macular degeneration", "osteoporosis", "glaucoma", "type 2 diabetes", "emphysema"]
MEDS = ["metformin", "lisinopril", "atorvastatin", "levothyroxine", "insulin", "amoxicillin", "sertraline",
        "albuterol", "warfarin", "prednisone", "gabapentin", "omeprazole", "Adderall", "Eliquis", "methotrexate",
        "amlodipine", "donepezil", "Ozempic", "Lexapro", "Synthroid", "Humira", "montelukast", "propranolol",
        "citalopram", "Xarelto", "Ritalin"]
ALLERGY = ["peanut allergy", "shellfish allergy", "penicillin allergy", "latex allergy", "tree nut allergy",
           "bee sting allergy", "egg allergy", "sesame allergy"]
HEALTH_SPOKEN = {"type 2 diabetes": "type two diabetes", "type 1 diabetes": "type one diabetes",
                 "ADHD": "a d h d", "PTSD": "p t s d", "IBS": "i b s", "COPD": "c o p d"}
LOCS = {
    "school": ["Riverside Elementary", "Oakwood Primary School", "St. Brigid's Primary School", "Maple Grove Montessori",
               "Lincoln Park Middle School", "Little Acorns Daycare", "Hillcrest Academy", "Westfield Prep",
               "Greenwood Nursery", "Scoil Mhuire", "Al-Huda Academy", "Cedar Hills Elementary",
               "Northgate Junior School", "Sunnybrook Preschool", "Holy Cross Catholic School"],
    "hosp": ["Mercy General Hospital", "St. Luke's Medical Center", "Cedar Valley Hospital", "Royal Victoria Infirmary",
             "Northside Children's Hospital", "Beaumont Hospital", "Lakeview Dialysis Center",
             "Riverbend Physical Therapy", "Harborview Cancer Clinic", "St. James's Hospital", "Mount Carmel East",
             "Valley View Rehab Center"],
    "care": ["Sunrise Meadows Care Home", "Willowbrook Assisted Living", "Rosewood Manor", "Golden Oaks Nursing Home",
             "Maplewood Senior Living", "Heatherfield House", "St. Joseph's Residential Care", "Lakeside Lodge"],
    "gym": ["Iron Temple Gym", "Peak Performance Fitness", "Northside YMCA", "Blue Wave Swim Club",
            "Summit Climbing Gym", "Eastside Boxing Club", "Fernhill Tennis Club", "Riverside Leisure Centre"],
    "church": ["St. Anne's Church", "Grace Community Church", "Bethel Baptist Church", "Al-Noor Mosque",
               "Sri Ganesha Temple", "Temple Beth Shalom", "Holy Trinity Orthodox Church", "St. Columba's Parish",
               "Guru Nanak Gurdwara"],
    "work": ["Hollis & Grant Accounting", "Brightwater Logistics", "Kessler Dental Group", "Northwind Analytics",
             "Fairview Public Library", "Riverside Fire Station", "Pemberton Law", "Silverline Auto Repair",
             "Oak Street Bakery", "Meridian Credit Union", "Castlebar Veterinary Clinic", "Harlow Print Works"],
    "uni": ["University of Leeds", "Trinity College Dublin", "Ohio State", "Monash University", "Boston College",
            "University of Toronto", "Kyoto University", "Universidad de Salamanca"],
}


def g_health(form, kind):
    v = rng.choice({"cond": COND, "cond_kid": COND_KID, "cond_old": COND_OLD, "med": MEDS, "allergy": ALLERGY}[kind])
    if form == "spoken":
        return HEALTH_SPOKEN.get(v, fold(v).lower())
    return v


def g_loc(form, kind):
    v = rng.choice(LOCS[kind])
    if form == "spoken":
        return re.sub(" +", " ", speak_literal(v)).strip()
    return v


DAYS_IN = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]


def g_dob(form, kind):
    if kind == "dob_kid":
        y = rng.randint(2008, 2022)
    elif kind == "dob_old":
        y = rng.randint(1929, 1956)
    else:
        y = rng.randint(1952, 2004)
    m = rng.randint(1, 12)
    d = rng.randint(1, DAYS_IN[m - 1] if m != 2 else (29 if y % 4 == 0 else 28))
    M, suf = MONTHS[m - 1], ord_suffix(d)
    if kind == "dob_ny":
        if form == "written":
            r = rng.randrange(6)
            if r == 0:
                return f"{M} {d}"
            if r == 1:
                return f"{d}{suf} {M}"
            if r == 2:
                return f"{M} {d}{suf}"
            if r == 3:
                return ("the ", f"{d}{suf} of {M}")
            if r == 4:
                return f"{MON3[m - 1]} {d}"
            return f"{m}/{d}"
        r = rng.randrange(4)
        if r in (0, 1):
            return f"{M.lower()} {ordinal_words(d)}"
        if r == 2:
            return ("the ", f"{ordinal_words(d)} of {M.lower()}")
        return f"{M.lower()} {n2w(d)}"
    if form == "written":
        return rng.choice([f"{M} {d}, {y}", f"{d} {M} {y}", f"{m:02d}/{d:02d}/{y}", f"{d:02d}/{m:02d}/{y}",
                           f"{y}-{m:02d}-{d:02d}", f"{MON3[m - 1]} {d} {y}", f"{d}.{m}.{y}", f"{m}/{d}/{y % 100:02d}",
                           f"{M} {d}{suf} {y}", f"{M} {d}, {y}"])
    r = rng.randrange(6)
    if r in (0, 1):
        return f"{M.lower()} {ordinal_words(d)} {year_words(y)}"
    if r == 2:
        return f"{M.lower()} {n2w(d)} {year_words(y)}"
    if r in (3, 4):
        return ("the ", f"{ordinal_words(d)} of {M.lower()} {year_words(y)}")
    return f"{n2w(m)} {n2w(d)} {pair_words('%02d' % (y % 100), 'oh')}"


def g_age(form, kind):
    n = {"age": rng.randint(19, 67), "age_kid": rng.randint(2, 16), "age_old": rng.randint(70, 97)}[kind]
    if form == "spoken":
        return n2w(n)
    return n2w(n).replace(" ", "-") if rng.random() < 0.12 else str(n)


def h4():
    return "%x" % rng.randint(1, 0xffff)


def g_ip(form, kind):
    if kind == "ip6" and form == "written":
        r = rng.randrange(3)
        if r == 0:
            return f"fe80::{h4()}:{h4()}:{h4()}:{h4()}"
        if r == 1:
            return f"2001:db8:{h4()}:{h4()}::{h4()}"
        return f"fd{rng.randint(16, 255):02x}:{h4()}:{h4()}:1::{h4()}"
    if kind == "ip_pub":
        r = rng.random()
        if r < 0.3:
            o = [203, 0, 113, rng.randint(2, 254)]
        elif r < 0.5:
            o = [198, 51, 100, rng.randint(2, 254)]
        else:
            o = [rng.choice([24, 45, 62, 73, 81, 86, 98, 109, 151, 176, 185, 212]), rng.randint(0, 255),
                 rng.randint(0, 255), rng.randint(1, 254)]
    else:
        r = rng.random()
        if r < 0.55:
            o = [192, 168, rng.choice([0, 1, 1, 1, 2, 4, 10, 50, 86, 100]), rng.randint(2, 254)]
        elif r < 0.85:
            o = [10, rng.choice([0, 0, 1, 10, 20]), rng.randint(0, 20), rng.randint(2, 254)]
        else:
            o = [172, rng.randint(16, 31), rng.randint(0, 30), rng.randint(2, 254)]
    if form == "written":
        return ".".join(map(str, o))
    zero = rng.choice(["zero", "zero", "oh"])
    three = rng.choices(["digits", "colloq", "natural"], [5, 3, 1])[0]
    short_nat = rng.random() < 0.7
    out = []
    for x in o:
        s = str(x)
        if len(s) == 3:
            if three == "digits":
                out.append(say_digits(s, zero))
            elif three == "natural":
                out.append(n2w(x))
            else:
                tail = s[1:]
                tw = "hundred" if tail == "00" else ((zero + " " + ONES[int(tail[1])]) if tail[0] == "0" else n2w(int(tail)))
                out.append(ONES[int(s[0])] + " " + tw)
        else:
            out.append(n2w(x) if (short_nat or x == 0) else say_digits(s, zero))
    return " dot ".join(out)


# ---------------------------------------------------------------------------
# placeholder registry
# ---------------------------------------------------------------------------
GEN = {}
for k in ("first", "first_f", "first_m", "last", "full", "full_f", "full_m", "wname_f", "wname_m"):
    GEN[k] = ("PERSON", (lambda kk: (lambda f: g_person(f, kk)))(k))
GEN["phone"] = ("PHONE", lambda f: g_phone(f))
GEN["email"] = ("EMAIL", lambda f: g_email(f))
GEN["email_obf"] = ("EMAIL", lambda f: g_email(f, obf=True))
for k in ("addr", "addr_s", "addr_uk"):
    GEN[k] = ("ADDRESS", (lambda kk: (lambda f: g_addr(f, kk)))(k))
GEN["card"] = ("CREDIT_CARD", lambda f: g_card(f))
GEN["card_visa"] = ("CREDIT_CARD", lambda f: g_card(f, "visa"))
GEN["card_mc"] = ("CREDIT_CARD", lambda f: g_card(f, "mc"))
GEN["card_amex"] = ("CREDIT_CARD", lambda f: g_card(f, "amex"))
GEN["iban"] = ("IBAN", g_iban)
GEN["ssn"] = ("SSN", g_ssn)
for k in ("dob", "dob_ny", "dob_kid", "dob_old"):
    GEN[k] = ("DATE_OF_BIRTH", (lambda kk: (lambda f: g_dob(f, kk)))(k))
for k in ("age", "age_kid", "age_old"):
    GEN[k] = ("AGE", (lambda kk: (lambda f: g_age(f, kk)))(k))
for k in ("ip", "ip_pub", "ip6"):
    GEN[k] = ("IP_ADDRESS", (lambda kk: (lambda f: g_ip(f, kk)))(k))
for k in ("acct", "custno", "policy", "member"):
    GEN[k] = ("ACCOUNT_NUMBER", (lambda kk: (lambda f: g_acct(f, kk)))(k))
GEN["pin"] = ("PIN_OR_PASSWORD", g_pin)
GEN["pwd"] = ("PIN_OR_PASSWORD", lambda f: g_pwd(f))
GEN["wifi"] = ("PIN_OR_PASSWORD", lambda f: g_pwd(f, wifi=True))
for k in ("cond", "cond_kid", "cond_old", "med", "allergy"):
    GEN[k] = ("HEALTH", (lambda kk: (lambda f: g_health(f, kk)))(k))
for k in LOCS:
    GEN[k] = ("LOCATION", (lambda kk: (lambda f: g_loc(f, kk)))(k))

# ---------------------------------------------------------------------------
# positive templates: "<forms>|<sentence>"; b = spoken or written, s = spoken only, w = written only
# ---------------------------------------------------------------------------
POS = {}
POS["contacts"] = """
b|Call {full} on speaker.
b|Can you ring {first} for me?
b|Video call {first} and {first2}.
b|Save {phone} as {full}'s new number.
b|Add a new contact called {full}, mobile number {phone}.
b|What's {full}'s phone number?
b|Dial {phone} please.
b|My number is {phone} in case the pharmacy needs to call me back.
b|Update {first_f}'s cell to {phone}, she switched carriers.
b|Remind me to call {first} back on {phone} after lunch.
b|The plumber, {first_m}, said to ring him on {phone} if the leak starts again.
s|call uh {full} no wait i mean {first2}
b|Block {phone}, they keep calling about my car warranty.
b|Whose number is {phone}?
b|Text {phone} and say the side door's open, come on up.
b|Call Grandma {first_f}, her number is {phone}.
b|Forward my calls to {phone} until Monday.
b|Leave a message for Dr. {last}'s office, I need to move my appointment.
b|Call {first}'s mum, I think she's still at work.
b|Ring {wname_f} on her mobile.
b|Tell {wname_m} I'll be about twenty minutes late.
s|will {wname_m} be at the party tonight
b|Did {first} leave me a voicemail this morning?
b|Who called me last night? Was it {full}?
b|Make {full} one of my favorite contacts.
b|Hang up and call {last} instead.
s|okay so my wife {first_f} got a new phone her number is {phone} can you save that
s|call {phone} actually no just call {first}'s cell
w|new number for {first}: {phone}
w|{full} - mobile {phone}, home {phone2}
w|can u call {first} pls
b|Set up speed dial two for {first}.
s|i'm trying to reach {full_f} do you have a number for her
b|If {first_f} calls while I'm in the shower, tell her I'll ring back.
s|hey um can you get {first} on the phone
w|Call {full} on FaceTime
b|Is {phone} {first_f}'s work number or her home one?
s|what's the number for {full_m} the guy who fixed the boiler
"""
POS["messages"] = """
b|Text {first} that I'm running ten minutes late.
b|Send a message to {full}: the keys are under the mat.
b|Tell {first_f} happy birthday and that I'll see her Saturday.
b|Reply to {first} saying sounds good, see you at the match.
b|Read me the last message from {full}.
b|Send {first} and {first2} the photos from Sunday.
s|text {first_m} um tell him i left the charger in the car and uh yeah that's it
b|Ask {first_f} if she picked up the dry cleaning.
b|Let {first} know the dishwasher guy is coming between two and four.
w|msg {first}: running late, start without me
w|Send {first} a WhatsApp saying I've landed
b|Tell {wname_f} thanks for the flowers.
b|Remind {wname_m} to bring the extension cord.
b|{wname_f} is coming at six, remind me to defrost the chicken.
b|Tell {first} that the Adele tickets go on sale Friday.
b|Send {first} the link to that Taylor Swift video.
b|Did {first} reply about the babysitting?
s|send a voice note to {first} and {first2} saying we're outside
w|tell {wname_m} the car keys r on the hook
b|Send {last} a message saying the report is on his desk.
s|message {full} and ask if the quote for the roof is still good
b|Can you let {first} and {first2} know practice is cancelled?
b|Play Taylor Swift in {first}'s room.
b|Wake {first_f} up at seven with some Beyoncé.
s|play the harry potter audiobook for {first} in the kids room
b|{wname_m} said the Eiffel Tower was closed, can you check if that's true?
"""
POS["email"] = """
b|Send the receipt to {email}.
b|My email is {email}.
b|What's {full}'s email address? Is it {email}?
b|Add {email} to the family calendar invite.
b|Share the shopping list with {first} at {email}.
b|Email {full_f} at {email} and tell her the meeting moved to Thursday.
b|Change my login email to {email}, the old one got hacked.
b|Subscribe {email} to the school newsletter.
w|pls cc {email} on that
b|Forward this to {email} and {email2}.
b|My son's school email is {email}, set it as his backup address.
w|email for the invoice: {email_obf}
w|add this contact: {full} <{email}>
s|my email's {email} all lowercase
s|send it to {email} no capitals
b|Is {email} still {first}'s work address?
w|reply-to should be {email_obf}, not my personal one
s|uh the email is {email} i think yeah that's it
b|Send {first_f} the boarding passes, her email is {email}.
w|{first}'s new email \u2192 {email}
b|Unsubscribe {email} from all the marketing stuff.
"""
POS["address"] = """
b|Navigate to {addr}.
b|I live at {addr}.
b|Set my home address to {addr}.
b|Order a pizza to {addr_s}, the buzzer's broken so call {phone}.
b|How long to drive to {first}'s place? It's {addr}.
b|Ship it to my mom's house, {addr}.
b|My new address is {addr}, update it on my account.
b|Send a taxi to {addr_s} for {first}.
b|What's the traffic like between here and {addr_s}?
b|{full_f} lives at {addr}, add that to her contact card.
b|Deliver the flowers to {addr} with a note for {first}.
b|Remind me to drop the spare keys at {addr_s} tomorrow.
b|The party's at {first}'s house, {addr_s}.
b|Book a cab to {addr_uk}.
b|Change my billing address to {addr}.
s|so the address for the delivery is {addr} it's the house with the blue door
w|addr: {addr}
w|Pls send the package to {full}, {addr_uk}
b|We moved! The new place is {addr}.
b|Get directions to {addr_s} avoiding tolls.
b|My office is at {addr_s}, set that as work.
s|how far is {addr_s} from here i'm picking up {first}
w|ship to: {full}, {addr}
b|Is our new place at {addr_s} in the same school district?
"""
POS["payments"] = """
b|Pay with my card, {card}.
s|add a new card {card} expiry oh nine twenty seven
w|new card {card} exp 09/27
b|My Visa number is {card_visa}.
b|Save {card} as {first}'s card on the family account.
b|Charge it to {card}, the name on the card is {full}.
b|Did the payment on {card} go through?
b|Remove {card} from my wallet, I lost it yesterday.
b|Book the table under {last} and hold it with {card}.
s|the card number is {card} and the name on it is {full}
w|card: {card}
b|Use {first}'s card, {card}, for the groceries.
b|Is my Amex {card_amex} still active?
w|pay the deposit w/ {card_mc}
s|okay it's {card_visa} that's a visa
b|Put the school trip on card {card}, not the joint one.
w|Visa {card_visa}, name: {full}
b|Add {full}'s card, {card}, as a backup payment method.
"""
POS["iban"] = """
b|Send two hundred euros to {full}, IBAN {iban}.
b|My IBAN is {iban}.
b|Set up a monthly transfer to {iban} for the rent.
b|Add a payee: {full}, {iban}.
b|Is {iban} a valid IBAN?
b|Pay the landlord, {full}, to {iban}.
b|Remind me to give {first} my IBAN, it's {iban}.
b|The refund should go to {iban}, not my old account.
w|IBAN for {first}: {iban} (holiday kitty)
w|Send \u20ac150 to {iban}, ref {first} rent
s|okay the iban is {iban} did you get all that
b|My landlord {full} wants the rent sent to {iban} by Friday.
w|my iban: {iban} - bic to follow
b|Please transfer the deposit back to {iban}.
s|pay {first_f} back for the concert tickets her iban is {iban}
b|Can you check whether {iban} belongs to {full}?
w|Rent \u2192 {iban}, \u20ac850 monthly, starting the 1st
w|Can you save {full}'s IBAN: {iban}
b|Use {iban} for the gym direct debit, not the joint account.
"""
POS["accounts"] = """
b|My account number is {acct}.
b|Check the balance on account {acct}.
b|Transfer fifty dollars from savings to account {acct}.
b|Call the bank about account {acct}, there's a charge I don't recognize.
b|{full}'s account number is {acct}.
b|Pay the water bill, customer number {custno}.
b|The electric company says my customer number is {custno}.
b|My insurance policy number is {policy}.
b|My gym membership number is {member}.
b|{full}'s library card number is {member}.
b|Renew the car insurance, policy {policy}.
s|my member id is {member} and the group number's on the back of the card
w|acct # {acct}
w|policy no. {policy} \u2014 claim for the windscreen
b|I'm {full}, member number {member}, calling about my claim.
b|Log into the pharmacy app with customer number {custno}.
s|the account i want the money in is {acct}
b|Add {policy} as the policy number for {first}'s travel insurance.
w|frequent flyer / member no: {member}
b|Link savings account {acct} to the kids' allowance app.
"""
POS["ssn"] = """
b|My social is {ssn}.
b|What do I put for SSN? It's {ssn}.
b|Fill in the form with my social security number, {ssn}.
b|{first}'s social security number is {ssn}, save it in the secure note.
b|Is it safe to read my social, {ssn}, to the bank over the phone?
b|Put {ssn} in the tax folder for {full}.
b|To verify, my social is {ssn} and my date of birth is {dob}.
w|SSN {ssn}
w|ssn: {ssn}  dob: {dob}
b|For the tax return, my social is {ssn} and {first}'s is {ssn2}.
s|uh social security number {ssn}
b|My daughter's SSN is {ssn}, she needs it for her first job.
s|they want the last four but i'll just give you the whole thing {ssn}
w|{full} SSN {ssn}
w|Update my W-4, social security number {ssn}
s|the social for {first} is {ssn}
"""
POS["birthdays"] = """
b|My birthday is {dob}.
b|{first}'s birthday is {dob_ny}, remind me a week before.
b|Add {full}'s birthday to my calendar, {dob}.
b|I was born on {dob}.
b|When is {first}'s birthday? I think it's {dob_ny}.
b|My daughter {first_f} was born on {dob_kid}.
b|Set a yearly reminder on {dob_ny} for Dad's birthday.
b|For the booking, date of birth is {dob}.
b|Mum was born on {dob_old}, how old does that make her?
s|i was born {dob} so how many days old am i
w|DOB {dob}
w|dob: {dob} (for the passport renewal)
b|{wname_f}'s birthday is {dob_ny}, don't let me forget this year.
b|My twins were born on {dob_kid}, help me plan their party.
b|It's {first}'s birthday on {dob_ny}, order a cake.
b|What day of the week was I born? It was {dob}.
s|my son's birthday is {dob_ny} can you remind me to book the bouncy castle
w|Grandad's bday is {dob_ny}!!
b|{full} was born {dob}, add it to the family tree.
s|put {first}'s birthday in the calendar it's {dob_ny}
"""
POS["ages"] = """
b|I'm {age} and I want to start running, make me a plan.
b|My son is {age_kid}, what's a good bedtime for him?
b|{first} turns {age} on Saturday, order a cake.
b|I'm a {age} year old woman, how many calories should I eat a day?
b|Grandpa {first_m} is {age_old} and still drives to church.
b|We have two kids, {age_kid} and {age_kid2}.
b|I'm turning {age} next week and I feel ancient.
b|My mother is {age_old} and she has {cond_old}.
b|{first_m} is {age_kid}, is he tall enough for the big rollercoaster?
s|i'm {age} is that too old to learn piano
w|me {age}, wife {age2}, kids {age_kid} & {age_kid2} - find us a family ticket
b|My husband {first_m} is {age} and snores like a train.
b|{first} just turned {age_kid}, what board games are good for that age?
s|my grandson {first_m} he's {age_kid} what should i get him for christmas
b|My dad's {age_old} and keeps falling, what alarms can he wear?
w|{first} is {age_kid} \u2014 is that old enough for a phone?
s|how much should a {age_kid} year old sleep my daughter {first_f} is always up late
"""
POS["network"] = """
b|My router is at {ip}, how do I log into it?
b|Block {ip} on my network.
b|Set a static IP of {ip} for the living room TV.
b|Why can't I ping my printer at {ip}?
b|My server's public IP is {ip_pub}.
w|Forward port 8080 to {ip}
s|forward port eighty eighty to {ip}
b|The camera in the garage shows up as {ip}.
b|Add {ip} to the allow list on my home firewall.
w|my NAS is on {ip6}, can you check it's reachable
w|set DNS on {ip} to 1.1.1.1
s|the thermostat's ip is {ip} and it keeps dropping off the wifi
b|Is {ip} my Xbox or the smart plug?
b|My laptop keeps getting {ip}, is that clashing with {first}'s phone?
w|whitelist {ip_pub} for the home VPN
w|my ipv6 is {ip6}
s|what's on {ip} it's some device on my network i don't recognize
b|Reserve {ip} for {first}'s tablet in the router settings.
w|home assistant dashboard lives at http://{ip}:8123
b|The office VPN gives me {ip_pub} when I work from home.
b|The baby monitor is on {ip}, can you open its page?
w|my printer moved to {ip} after the router reset
"""
POS["secrets"] = """
b|The garage code is {pin}.
b|Remember my PIN is {pin}.
b|Our wifi password is {wifi}.
b|The guest wifi password is {wifi}, text it to {first}.
b|My password for the streaming account is {pwd}.
b|Set the alarm code to {pin}.
b|Tell the dog walker the door code is {pin}.
b|{first}, the lockbox code is {pin}.
b|Change my voicemail PIN to {pin}.
s|what was the um the wifi password again oh right it's {wifi} share that with {first}
s|tell {first} the code for the side gate is {pin} and to lock it after
w|note to self: garage {pin}, alarm {pin2}
w|wifi pw: {wifi}
w|pwd for the router admin page is {pwd}
b|Unlock the front door, the code is {pin}.
b|Disarm the alarm, code {pin}.
b|The safe combination is {pin}.
w|netflix login - {email} / {pwd}
s|the password for my email is {pwd}
b|If {first} asks, the shed padlock is {pin}.
w|new wifi: {wifi} (tell {first})
"""
POS["health"] = """
b|Remind me to take my {med} at eight.
b|I have {cond}, is it okay to drink coffee?
b|My husband {first_m} was just diagnosed with {cond}.
b|Order a refill of {med} for {first}.
b|{first}'s {cond} is flaring up again, cancel dinner tonight.
b|Log a note that my {cond} has been worse this week.
b|{first} has a {allergy}, make sure the babysitter knows.
b|My mother has {cond_old} and lives at {care}.
b|I've been on {med} since my {cond} diagnosis.
b|Did I take my {med} this morning?
b|Add to my notes: {first} started {med} today, watch for side effects.
s|remind {first_f} to take her {med} with breakfast
s|i think my {cond} is getting worse can you book me in with doctor {last}
w|{first} - {med} 20mg twice daily, started Mon
b|My son {first_m} has {cond_kid} so he can't do PE this week.
b|Remind me to pick up {first}'s {med} prescription.
b|Cancel my gym session, my {cond} is bad today.
b|Since my {cond} diagnosis I've been tired all the time, any tips?
b|{full} is on {med}, does that interact with grapefruit?
w|Dad's meds: {med}, {med2}, {med3}
s|my wife's on {med} for her {cond} should she avoid alcohol
b|Add my {allergy} to my medical ID.
w|reminder: {med} every 12 hrs for {first}
s|set a reminder for my {med} every morning at seven
b|{first_f} was just diagnosed with {cond}, what should we expect?
"""
POS["places"] = """
b|Pick up {first} from {school} at quarter past three.
b|I work at {work}, set that as my work location.
b|My dad is at {hosp}, can you find the visiting hours?
b|How long does it take to get to {first}'s school, {school}?
b|{first} goes to {school}, add their term dates to the calendar.
b|Remind me I've got physio at {hosp} on Tuesday.
b|My grandmother lives at {care}, what are the visiting hours?
b|I'll be at {gym} until six if anyone's looking for me.
b|We go to {church} on Sundays, wake me at eight.
b|{full} from {work} is coming over, tidy the living room.
b|My daughter's starting at {uni} in September.
b|Drop me at {work} and then take {first} to {school}.
s|what time does {first} finish at {school} on wednesdays
w|pickup: {first}, {school}, 3pm
b|My wife is a nurse at {hosp}, she's on nights this week.
b|{first_f} volunteers at {care} on Thursdays.
b|Text {first} that I'm stuck at {work} late again.
b|My son trains at {gym} three nights a week.
b|{first} is the organist at {church}.
s|navigate to {hosp} my dad's been admitted
b|I teach at {school}, so mute notifications during school hours.
w|{first}'s at {uni} now, remind me to send a care package
b|Mum moved into {care} last week, remind me to visit on Sunday.
b|Call {hosp} and ask about {full}'s discharge.
"""
POS["forms"] = """
b|New patient form: {full}, born {dob}, phone {phone}.
b|Send {full} at {email} my address, {addr}.
b|My emergency contact is my sister {first_f}, {phone}.
b|Add {full}, {email}, {phone} to my contacts.
b|My name is {full} and my date of birth is {dob}.
b|The account holder is {full}, account {acct}, PIN {pin}.
b|Booking for {first} and {first2}, both {age}.
b|My son {first_m} is {age_kid}, he has {cond_kid}, and he goes to {school}.
w|Name: {full} | DOB: {dob} | Phone: {phone}
w|{full}, {addr}, {phone}
s|hi this is {full} calling about my prescription my date of birth is {dob}
b|Register {first_f} for swim lessons, she's {age_kid} and goes to {school}.
b|Sign me up, I'm {full}, {age}, email {email}.
w|hi, it's {full} - my card {card} got declined, can you check?
b|Update {full}'s record: new address {addr}, new phone {phone}.
s|i need a cab from {addr_s} to {hosp} for my mum she's got {cond_old}
b|This is {first}, the wifi at my place is {wifi} if you need it.
w|For the nanny: {first} ({age_kid}) has a {allergy}, EpiPen is in the blue bag
s|my name is {full} my social is {ssn} and my account number is {acct}
w|{full} | {email} | member {member}
b|Hi, I'm {first}, I'm {age}, I work at {work} and I've got {cond}.
s|the guy from the bank {full_m} said to send it to {iban}
w|Card {card} / IBAN {iban} - which is better for the hotel deposit?
s|my card is {card} and if that doesn't work do a transfer to {iban}
b|Refund {full_f} to her card, {card}, or to {iban}, whichever is quicker.
s|for the background check it's {full} social {ssn} born {dob}
b|Pay {full}'s invoice with my card, {card}, and email the receipt to {email}.
w|IBAN {iban} (account holder {full}, customer ref {custno})
"""

# ---------------------------------------------------------------------------
# negatives (no spans)
# ---------------------------------------------------------------------------
NEG = {}
NEG["public-figures"] = """
b|Who was Abraham Lincoln?
b|Play songs by Taylor Swift.
b|My favorite singer is Adele.
b|How old is Dolly Parton?
b|When is Beyoncé's birthday?
b|Play the latest episode of the Joe Rogan podcast.
b|What movies has Denzel Washington been in?
b|Is Lionel Messi playing tonight?
b|Read me the news about Elon Musk.
b|How tall is Shaquille O'Neal?
b|Was Martin Luther King born in Atlanta?
b|Play something by Bad Bunny.
b|Tell me a fun fact about Marie Curie.
b|Who is the prime minister of Canada?
b|How many Grammys does Billie Eilish have?
b|Put on the new Kendrick Lamar album.
b|What's Serena Williams' net worth?
b|Play Ed Sheeran on the kitchen speaker.
b|Who won the match between Djokovic and Alcaraz?
b|What did Gandhi say about forgiveness?
b|Play Rumours by Fleetwood Mac.
b|Is Keanu Reeves in the new John Wick movie?
b|Tell me about Frida Kahlo's paintings.
b|Play the Harry Potter audiobook from where I left off.
b|Who plays Sherlock Holmes in the new series?
b|Play Despacito by Luis Fonsi.
b|Who painted the Mona Lisa?
b|Play some Frank Sinatra while I cook.
b|What was Shakespeare's first play?
b|How many wives did Henry the Eighth have?
b|Who is Oprah Winfrey married to?
b|Play Summer by Calvin Harris.
b|Play Faith by George Michael.
b|Is Rihanna releasing a new album?
b|What's Cristiano Ronaldo's shirt number?
b|Who directed Oppenheimer?
b|Read the Wikipedia page for Nelson Mandela.
w|Einstein was born on 14 March 1879, right?
w|was elvis born on january 8 1935
s|when was elvis presley born was it nineteen thirty five
b|How old was Mozart when he died?
b|Who's older, Paul McCartney or Ringo Starr?
b|Play Hello by Adele on repeat.
b|Play Jolene by Dolly Parton.
b|Who is the richest person in the world?
b|Read me a Peter Rabbit story for bedtime.
b|What's the name of Barack Obama's dog?
b|Does Gordon Ramsay have a restaurant in Las Vegas?
b|What position does LeBron James play?
b|Play the Hamilton soundtrack.
s|how old is mick jagger now
w|Taylor Swift birthday? Dec 13 1989?
b|What is Simone Biles famous for?
b|Did Shakira win the World Cup song thing?
"""
NEG["relations"] = """
b|Call Mom.
b|Text my sister that I'm running late.
b|Ring Dad on his mobile.
b|Remind my husband to put the bins out.
b|Video call Grandma.
b|Send my wife my location.
b|Tell my son dinner is ready.
b|Call my brother-in-law.
b|Message the babysitter that we'll be home by eleven.
b|Text my boss that I'm working from home today.
b|Call the kids down for dinner.
b|Is my daughter's school closed today because of the snow?
b|Remind me to pick up the kids from school.
b|Call my doctor's office.
b|Tell my roommate the rent is due tomorrow.
b|Announce to the whole house that dinner's ready.
b|Drop in on the nursery.
b|Call my mother-in-law back.
b|Send Grandpa the photos from the beach.
b|Ask my neighbor if she can feed the cat this weekend.
b|Remind my wife about the parents' evening.
b|Text the group chat that I'm on my way.
b|Ring my landlord.
b|Call the vet.
b|Tell the kids it's time to brush their teeth.
b|Leave a note for the cleaner to do the oven.
s|call my uncle on whatsapp
w|txt hubby to grab milk
"""
NEG["general-health"] = """
b|What are the symptoms of asthma?
b|What is metformin used for?
b|How long does the flu last?
b|Can you take ibuprofen with lisinopril?
b|What's the difference between type one and type two diabetes?
b|How do you know if you have sleep apnea?
b|Are migraines hereditary?
b|What foods are high in iron?
b|How many steps a day is healthy?
b|What does high blood pressure feel like?
b|What are the side effects of sertraline?
b|Is celiac disease genetic?
b|How contagious is shingles?
b|What's a normal resting heart rate?
b|How much vitamin D should an adult take?
b|What helps with a sore throat?
b|What's the difference between dementia and Alzheimer's?
b|How is ADHD diagnosed in adults?
b|What's the best way to lower cholesterol?
b|Is COPD the same as emphysema?
b|What causes gout?
b|Read me the NHS page on long COVID.
b|How do EpiPens work?
b|Do flu shots give you the flu?
b|What's a good stretch for lower back pain?
b|How much water should you drink a day?
b|Find a pharmacy that's open late.
b|What are the early signs of Parkinson's?
b|Is lupus an autoimmune disease?
w|max dose of paracetamol in 24h?
"""
NEG["generic-network"] = """
s|what is eight dot eight dot eight dot eight
s|what does one two seven dot zero dot zero dot one mean
s|is one dot one dot one dot one faster than google dns
w|What's the difference between 10.0.0.0/8 and 192.168.0.0/16?
b|Explain what an IP address is.
w|How many IPv4 addresses are there?
s|how many i p v four addresses are left
w|Is ::1 the same as 127.0.0.1?
w|Is 8.8.4.4 also Google DNS?
b|What's the default gateway on most home routers?
b|Why is my wifi so slow tonight?
b|Restart the router.
b|How do I find my IP address on a Mac?
w|what port does https use, 443?
b|What does DHCP stand for?
b|Should I use the two point four or the five gigahertz band?
w|What is 255.255.255.0 used for?
s|what's a subnet mask like two five five dot two five five dot two five five dot zero
"""
NEG["public-places"] = """
b|What's the weather in Boston?
b|How far is the Eiffel Tower from the Louvre?
b|What time does Target close?
b|Find a pharmacy near me.
b|Directions to the nearest gas station.
b|How long is the flight from Chicago to Dublin?
b|What's the population of Lagos?
b|Is Starbucks open on Christmas Day?
b|Book a table at Olive Garden for four.
s|weather for zip code nine oh two one oh
w|weather 90210
s|what's at sixteen hundred pennsylvania avenue
w|How far is 221B Baker Street from King's Cross?
b|How late is the Apple Store open tonight?
b|Tell me about the Mayo Clinic.
b|What's the best hospital in Houston for heart surgery?
b|Find me a church nearby with a Saturday evening service.
b|Is Harvard hard to get into?
b|What time does the library close today?
b|Is St. Mary's Hospital open on weekends?
b|Directions to the nearest urgent care.
b|What time does Chase bank close?
b|Is the Louvre open on Tuesdays?
b|How do I get to Central Park from Penn Station?
b|What's the tallest building in Dubai?
b|Find Thai restaurants near me.
b|Is there a Costco in Dublin?
b|How far is Cork from Galway?
b|What's the time in Tokyo?
b|What's the weather going to be like in Lisbon in June?
b|Will it be sunny in Brighton this weekend?
b|Where's the nearest post office?
b|How long does it take to walk across the Golden Gate Bridge?
b|What's the zip code for downtown Austin?
b|Is the Natural History Museum free?
b|How busy is Trader Joe's right now?
w|10 Downing Street - who lives there now?
s|what's the traffic like on i ninety five right now
b|Is the Kraków old town walkable?
b|What's the best time to visit Kyoto?
"""
NEG["numbers-times"] = """
s|what's four hundred twelve times thirty
s|what's fifteen percent of two thousand three hundred forty
s|convert seventy two fahrenheit to celsius
s|what's the square root of one forty four
w|what's 1234 x 5678
b|How many ounces are in a pound?
w|divide 8675309 by 3
b|Count to ten in Spanish.
b|Roll a twenty-sided die.
b|Pick a random number between one and a hundred.
s|what's two hundred fifty five in binary
w|What's 17% tip on $86.40?
w|Convert 1,250 USD to EUR
w|Convert 100 km to miles
w|What's 192 + 168?
w|What's 555 in Roman numerals?
s|what's nine hundred eleven divided by three
s|play track seven
s|turn to channel two oh four
s|what's the status of flight u a eight three seven
s|skip to track twelve
b|Put on ESPN Two.
w|Is BA 117 on time?
s|play jenny eight six seven five three oh nine
w|play 867-5309/Jenny by Tommy Tutone
s|play nine to five by dolly parton
s|play twenty five or six to four by chicago
s|play the song one eight hundred two seven three eight two five five by logic
w|Play "1-800-273-8255" by Logic
w|play 7 rings by ariana grande
s|play nineteen eighty four by van halen
w|Play 99 Problems by Jay-Z
b|Turn on BBC Radio Four.
s|tune to one oh one point one f m
s|play episode forty two of the podcast
s|go to chapter thirteen of the audiobook
s|when does the number twelve bus come
s|train times for the seven fifteen to london
w|When does the 73 bus come?
w|Is flight DL 1492 delayed?
s|set a timer for twenty five minutes
s|wake me up at six forty five
w|Set an alarm for 7:30 tomorrow
s|remind me on may ninth to renew the car tax
s|what happened on july fourth seventeen seventy six
b|When did the Berlin Wall fall?
b|How many days until Christmas?
s|what day of the week was december seventh nineteen forty one
s|add a dentist appointment on march third at two
w|Schedule the car service for 03/14/2025
s|how many days is two thousand hours
s|set a sleep timer for ninety minutes
s|snooze for nine minutes
s|remind me in forty five minutes to check the oven
b|What year did the Titanic sink?
b|How old is the universe?
w|Remind me at 5:45pm to leave for the 6:30 show
w|Set thermostat to 21\u00b0C
w|Add 2x oat milk and 500g of rice to the list
w|What happened in 1969?
w|Set a timer \u2013 12 mins
w|Schedule a call with the team on 04/05/2025 at 14:00
w|remind me to renew my passport before 2026
w|turn on do not disturb until 7am
w|Dim kitchen to 40%
w|Who won the 2018 World Cup?
w|Order 3 packs of AA batteries
w|Play BBC Radio 2
s|set the thermostat to sixty eight
s|turn the volume up to seven
s|dim the bedroom lights to thirty percent
s|how many calories are in two eggs
w|What's 15 x 24?
s|what's sixty five times twelve
w|is 2024 a leap year
s|how many seconds are in a day
w|Is 212 a Manhattan area code?
b|What's the area code for Seattle?
s|how many weeks until the twenty fifth of december
w|Set alarm 06:15 weekdays
s|what's double five plus triple seven
s|read me chapter four one two of the manual
w|How long is 10,000 steps in km?
s|set an alarm for five fifty five am
"""
NEG["age-and-dates"] = """
b|What's the legal drinking age in the US?
s|is twenty one the drinking age everywhere in america
b|At what age do babies start walking?
b|How old do you have to be to rent a car?
s|can a twelve year old have an instagram account
s|is sixty five still the retirement age in the uk
b|What age do you get a senior discount at the cinema?
s|our dog turned seven today
b|How old is the oldest tree in the world?
b|How many days until my birthday?
b|Add my birthday to the calendar.
b|What's the birthstone for people born in March?
b|When is Mother's Day this year?
b|Is ruby the birthstone for July?
b|What's a pearl anniversary?
s|the house is about forty years old is that old for a roof
b|What age can kids sit in the front seat?
w|how old do you need to be for a learner's permit? 15 or 16?
b|What do you call someone who is a hundred years old?
w|my cat is 14, is that old for a cat?
s|what star sign is someone born in late october
"""
NEG["no-values"] = """
b|How do I reset my wifi password?
b|What makes a strong password?
b|Change my voicemail PIN.
b|I forgot my Netflix password, what do I do?
b|Generate a random password for me.
b|Is it safe to save passwords in the browser?
b|What's the default PIN on a new SIM card?
w|how many combinations does a 4 digit PIN have?
b|How often should I change my passwords?
b|My PIN isn't working at the ATM, what should I do?
b|What's my account balance?
b|Where do I find my account number on a check?
b|How long is an IBAN in Germany?
b|What does IBAN stand for?
b|How many digits are in a credit card number?
b|What is a social security number used for?
b|How do I replace a lost social security card?
b|Is it safe to give my credit card number over the phone?
b|What's a routing number?
b|Where do I find my policy number?
b|What do the first three digits of a social security number mean?
b|How many digits does an Amex card have?
b|Pay the electricity bill.
b|Lock the front door.
b|Arm the alarm.
b|Open the garage.
b|How do I change the garage door code?
b|Freeze my debit card, I think I lost it.
b|How do I set up an email address?
b|Is Gmail down right now?
b|What's the support email for Netflix?
b|How do I block a number on my phone?
b|Who called me last?
b|Read my new messages.
b|Did I get any calls?
b|Add a new contact.
b|Delete the last voicemail.
b|What's my address?
b|Update my home address.
b|How do I find my router's IP address?
"""
NEG["word-names"] = """
b|I hope it doesn't rain tomorrow.
b|Will it snow this weekend?
w|Mark this email as read
b|Buy a dozen red roses.
b|Remind me to water the rose bush.
b|Add a holly and ivy wreath to the Christmas shopping list.
b|How do you grow sage indoors?
b|What does faith mean in Greek?
b|What does an amber weather warning mean?
b|What's the price of gold today?
b|Is the river level high today?
b|Remind the kids to say grace before dinner.
b|When is the hunter's moon this year?
b|How do I jack up a car to change a tire?
b|Mark all my reminders as done.
b|When does summer officially start?
b|How do I get rid of poison ivy in the garden?
b|Play Daisy Bell.
b|What's on Sky Sports tonight?
b|What do robins eat in winter?
b|How long is the River Shannon?
b|How many pennies are in a pound?
b|How many days until June?
b|Play Ode to Joy.
b|How much sage goes in stuffing?
b|How long do I cook a turkey?
b|Who is the King of Spain?
b|Turn the lights a little brighter.
b|Is it going to be sunny all week?
b|Set the living room lights to a warm amber.
b|Will you be quiet for a bit?
b|How do you make a daisy chain?
b|What's the weather like in April in Rome?
b|Is Black Friday a good time to buy a TV?
b|Is brown rice healthier than white rice?
b|Let's play a game of Go Fish.
b|How do I frank a letter?
b|Chase the delivery, it was supposed to arrive yesterday.
b|Can you add baby spinach to the shopping list?
b|What's a patience card game I can play alone?
b|Will the frost kill my dahlias?
b|I'd like to hear something with a bit of hope in it.
b|What's the dawn chorus?
b|Is it worth buying a penny stock?
"""
NEG["home"] = """
b|Turn off the living room lights.
b|Add milk, eggs and bread to the shopping list.
b|What's on my calendar tomorrow?
b|Play white noise.
b|What's the score of the game?
b|Order more paper towels.
b|What's the news today?
b|Tell me a joke.
b|Start the robot vacuum.
b|How do you say thank you in Japanese?
b|Set the kitchen lights to fifty percent.
b|Is it going to rain this afternoon?
b|Play my Discover Weekly playlist.
b|What's the recipe for banana bread?
b|What can you do?
b|Turn on the porch light at sunset.
b|Find my phone.
b|Is the dishwasher finished?
b|Add cat food to the Costco list.
b|What's the capital of Australia?
b|Spell necessary.
b|How many cups are in a quart?
b|Flip a coin.
b|What's the word of the day?
b|Read me my audiobook.
b|Cancel all my alarms.
b|Is the back door locked?
b|Turn the heating off when everyone leaves.
b|Play rain sounds in the nursery.
b|What's the difference between affect and effect?
b|Order a large pepperoni pizza.
b|Play something relaxing.
b|Show me the front door camera.
b|What's the UV index today?
b|Translate where is the bathroom into French.
b|Remind me to take the chicken out of the freezer.
b|What's the best way to get red wine out of a carpet?
s|alexa stop
s|alexa what time is it
s|hey google turn off the tv
s|ok google what's the weather tomorrow
s|hey siri set a timer
s|um what was i gonna say never mind
s|uh can you turn that down a bit
s|no not that one the other playlist
s|alexa play jazz in the kitchen
w|lights off pls
w|whats the weather tmrw
w|add bin bags to list
"""


def parse_block(block):
    out = []
    for line in block.strip().splitlines():
        line = line.strip()
        if not line:
            continue
        forms, text = line.split("|", 1)
        assert forms in ("b", "s", "w"), line
        out.append((forms, text))
    return out


PH = re.compile(r"\{([a-z_]+\d?)\}")

# ---------------------------------------------------------------------------
# rendering
# ---------------------------------------------------------------------------
CASE_KEEP = {"PIN_OR_PASSWORD", "IBAN", "ACCOUNT_NUMBER", "CREDIT_CARD", "PHONE", "SSN", "IP_ADDRESS"}


def render(template, form):
    segs = []
    cache = {}
    used = []
    pos = 0
    CTX_PERSONS.clear()
    for m in PH.finditer(template):
        lit = template[pos:m.start()]
        if lit:
            segs.append([lit, None])
        key = m.group(1)
        kind = key if key in GEN else key.rstrip("0123456789")
        typ, fn = GEN[kind]
        if key not in cache:
            for _ in range(100):
                r = fn(form)
                pre, val = r if isinstance(r, tuple) else ("", r)
                low = val.lower()
                clash = any(low == u or (typ == "PERSON" and (re.search(r"\b%s\b" % re.escape(low), u) or
                                                              re.search(r"\b%s\b" % re.escape(u), low)))
                            for u in used)
                if not clash:
                    break
            cache[key] = (pre, val)
            used.append(val.lower())
            if typ == "PERSON":
                CTX_PERSONS.append(val)
        pre, val = cache[key]
        if pre:
            segs.append([pre, None])
        segs.append([val, typ])
        pos = m.end()
    if template[pos:]:
        segs.append([template[pos:], None])
    return segs


def decorate(segs, form):
    """spoken: convert literals; written: optional casual typing."""
    if form == "spoken":
        for s in segs:
            if s[1] is None:
                s[0] = speak_literal(s[0])
        r = rng.random()
        if r < 0.04:
            segs.insert(0, [rng.choice(["alexa ", "hey google ", "okay google ", "hey siri "]), None])
        elif r < 0.09:
            segs.insert(0, [rng.choice(["um ", "uh ", "so ", "okay ", "hey "]), None])
        return segs
    if rng.random() < 0.25:  # casual: all lowercase, no final punctuation
        for s in segs:
            if s[1] is None or s[1] not in CASE_KEEP:
                s[0] = s[0].lower()
        if segs[-1][1] is None:
            segs[-1][0] = segs[-1][0].rstrip(".?!")
            if not segs[-1][0]:
                segs.pop()
    if rng.random() < 0.15:  # phone keyboards: curly apostrophes
        for s in segs:
            if s[1] is None:
                s[0] = s[0].replace("'", "\u2019")
    return segs


def assemble(segs):
    text = ""
    spans = []
    for t, typ in segs:
        if typ is None:
            if not text or text.endswith(" "):
                t = t.lstrip(" ")
            text += t
        else:
            start = len(text)
            text += t
            spans.append({"start": start, "end": len(text), "type": typ, "value": t})
    text = text.rstrip(" ")
    # locate every value again in the final text, searching forward from the previous span
    cursor = 0
    for sp in spans:
        idx = text.find(sp["value"], cursor)
        while idx != -1 and idx != sp["start"]:
            idx = text.find(sp["value"], idx + 1)
        assert idx == sp["start"], (text, sp)
        cursor = sp["end"]
    return text, spans


# ---------------------------------------------------------------------------
# validation
# ---------------------------------------------------------------------------
SPOKEN_RE = re.compile(r"^[a-z']+(?: [a-z']+)*$")


def ssn_ok(d):
    return (len(d) == 9 and d[:3] not in ("000", "666") and not d.startswith("9")
            and d[3:5] != "00" and d[5:] != "0000")


def digits_of(value, form):
    if form == "spoken":
        return parse_chars(value)
    return re.sub(r"[^0-9A-Za-z+]", "", value).upper()


def validate(rec):
    errs = []
    text, form, spans = rec["text"], rec["form"], rec["spans"]
    if form not in ("spoken", "written"):
        errs.append("bad form")
    if not text or text != text.strip():
        errs.append("empty text or outer whitespace")
    if form == "spoken":
        if not SPOKEN_RE.match(text):
            errs.append("spoken text outside [a-z' ]")
        if re.search(r"(^| )'", text):
            errs.append("token starts with apostrophe")
    prev_end = -1
    for sp in spans:
        s, e, v, t = sp["start"], sp["end"], sp["value"], sp["type"]
        if t not in TYPES:
            errs.append("unknown type " + t)
        if not (0 <= s < e <= len(text)) or text[s:e] != v:
            errs.append("offset/value mismatch %r" % v)
            continue
        if s < prev_end:
            errs.append("overlap or unsorted")
        prev_end = e
        if v != v.strip():
            errs.append("value has outer whitespace")
        if s > 0 and (text[s - 1].isalnum() or text[s - 1] == "_"):
            errs.append("left boundary %r" % v)
        if e < len(text) and (text[e].isalnum() or text[e] == "_"):
            errs.append("right boundary %r" % v)
        if not (v[0].isalnum() or v[0] in "+(#") or not v[-1].isalnum() and t != "PIN_OR_PASSWORD":
            errs.append("value edge %r" % v)
        try:
            if t == "CREDIT_CARD":
                d = digits_of(v, form)
                if not (d.isdigit() and 13 <= len(d) <= 19 and luhn_ok(d)):
                    errs.append("luhn " + v)
            elif t == "IBAN":
                if not iban_valid(digits_of(v, form)):
                    errs.append("iban " + v)
            elif t == "SSN":
                if not ssn_ok(digits_of(v, form)):
                    errs.append("ssn " + v)
            elif t == "PHONE":
                d = digits_of(v, form).lstrip("+")
                if not (d.isdigit() and 7 <= len(d) <= 15):
                    errs.append("phone " + v)
            elif t == "ACCOUNT_NUMBER" and form == "spoken":
                digits_of(v, form)
            elif t == "IP_ADDRESS":
                if form == "written":
                    if ":" not in v:
                        octs = v.split(".")
                        if len(octs) != 4 or not all(o.isdigit() and int(o) <= 255 for o in octs):
                            errs.append("ipv4 " + v)
                elif v.count(" dot ") != 3:
                    errs.append("spoken ip " + v)
            elif t == "EMAIL":
                low = v.lower()
                if form == "written" and not ("@" in v or "at" in low):
                    errs.append("email " + v)
                if form == "spoken" and not (" at " in v and " dot " in v):
                    errs.append("spoken email " + v)
            elif t == "AGE" and form == "written" and v.isdigit() and not (1 <= int(v) <= 110):
                errs.append("age " + v)
        except (ValueError, KeyError, IndexError) as exc:
            errs.append("parse %s: %s" % (v, exc))
    if form == "written" and re.search(r"[{}]", text):
        errs.append("unfilled placeholder")
    return errs


# ---------------------------------------------------------------------------
# build
# ---------------------------------------------------------------------------
def build():
    templates = []
    for fam, block in POS.items():
        for forms, t in parse_block(block):
            templates.append((fam, forms, t))
    negs = []
    for fam, block in NEG.items():
        for forms, t in parse_block(block):
            negs.append((fam, forms, t))

    seen = set()
    # candidate pool: several renderings per template
    pool = []
    for ti, (fam, forms, t) in enumerate(templates):
        flist = {"b": ["spoken", "spoken", "spoken", "written", "written"], "s": ["spoken"] * 4,
                 "w": ["written"] * 4}[forms]
        for form in flist:
            for _ in range(20):
                segs = decorate(render(t, form), form)
                text, spans = assemble(segs)
                if text not in seen:
                    break
            else:
                continue
            seen.add(text)
            pool.append(dict(ti=ti, fam=fam, form=form, text=text, spans=spans))

    target = {t: 62 for t in TYPES}
    target["PERSON"] = 215
    tcount, ucount = Counter(), Counter()
    chosen, chosen_ids = [], set()
    spoken_target = round(N_POS * SPOKEN_SHARE)
    n_spoken = 0

    def take(c):
        nonlocal n_spoken
        chosen.append(c)
        chosen_ids.add(id(c))
        ucount[c["ti"]] += 1
        n_spoken += c["form"] == "spoken"
        for sp in c["spans"]:
            tcount[sp["type"]] += 1

    # phase 1: every template once, choosing the form that keeps the split on target
    by_t = defaultdict(list)
    for c in pool:
        by_t[c["ti"]].append(c)
    order = list(by_t)
    rng.shuffle(order)
    for ti in order:
        cands = by_t[ti]
        want = "spoken" if n_spoken < SPOKEN_SHARE * (len(chosen) + 1) else "written"
        pref = [c for c in cands if c["form"] == want] or cands
        take(rng.choice(pref))

    # phase 2: greedy fill towards per-type targets
    def score(c):
        s = 0.0
        for sp in c["spans"]:
            t = sp["type"]
            gap = target[t] - tcount[t]
            s += 2.0 * gap / target[t] if gap > 0 else -0.35
        s -= 0.3 * ucount[c["ti"]]
        remaining = N_POS - len(chosen)
        need_sp = (spoken_target - n_spoken) / max(remaining, 1)
        s += 0.6 * (need_sp - 0.5) * (1 if c["form"] == "spoken" else -1)
        return s + rng.random() * 0.25

    while len(chosen) < N_POS:
        rest = [c for c in pool if id(c) not in chosen_ids]
        take(max(rest, key=score))

    # negatives
    rng.shuffle(negs)
    neg_sp_target = round(N_NEG * SPOKEN_SHARE)
    neg_lines, nsp, nwr = [], 0, 0
    for fam, forms, t in negs:
        if len(neg_lines) >= N_NEG:
            break
        room_sp, room_wr = nsp < neg_sp_target, nwr < N_NEG - neg_sp_target
        if forms == "s":
            if not room_sp:
                continue
            form = "spoken"
        elif forms == "w":
            if not room_wr:
                continue
            form = "written"
        else:
            if room_sp and room_wr:
                form = "spoken" if rng.random() < 0.6 else "written"
            else:
                form = "spoken" if room_sp else "written"
        segs = decorate([[t, None]], form) if not (form == "spoken" and re.match(r"(alexa|hey|ok|okay|um|uh) ", t)) \
            else [[t, None]]
        text, spans = assemble(segs)
        if text in seen:
            continue
        seen.add(text)
        neg_lines.append(dict(fam=fam, form=form, text=text, spans=[]))
        nsp += form == "spoken"
        nwr += form == "written"
    if len(neg_lines) < N_NEG:
        sys.exit("not enough negatives: %d" % len(neg_lines))

    lines = [dict(fam="neg-" + c["fam"] if not c["fam"].startswith("neg") else c["fam"], **{k: c[k] for k in ("form", "text", "spans")})
             for c in neg_lines] + [dict(fam=c["fam"], form=c["form"], text=c["text"], spans=c["spans"]) for c in chosen]
    rng.shuffle(lines)
    recs = []
    for i, c in enumerate(lines, 1):
        recs.append({"id": "pii-eval-b-%05d" % i, "text": c["text"], "form": c["form"],
                     "spans": c["spans"], "source": "eval-b." + c["fam"]})
    return recs, templates, negs


def main():
    recs, templates, negs = build()
    bad = 0
    for r in recs:
        errs = validate(r)
        if errs:
            bad += 1
            print("INVALID", r["id"], errs, r["text"], file=sys.stderr)
    texts = [r["text"] for r in recs]
    if len(set(texts)) != len(texts):
        print("INVALID duplicate texts", file=sys.stderr)
        bad += 1
    if len(recs) != N_TOTAL:
        print("INVALID line count", len(recs), file=sys.stderr)
        bad += 1
    counts = Counter(sp["type"] for r in recs for sp in r["spans"])
    for t in TYPES:
        if counts[t] < 35:
            print("INVALID too few spans for", t, counts[t], file=sys.stderr)
            bad += 1
    if bad:
        sys.exit("validation failed (%d problems)" % bad)
    with open(OUT_PATH, "w", encoding="utf-8") as fh:
        for r in recs:
            fh.write(json.dumps(r, ensure_ascii=False) + "\n")
    n_neg = sum(1 for r in recs if not r["spans"])
    n_sp = sum(1 for r in recs if r["form"] == "spoken")
    print("wrote %s: %d lines (%d positive templates, %d negative sentences available)"
          % (OUT_PATH, len(recs), len(templates), len(negs)))
    print("validation passed")
    print("per-type span counts:")
    for t in TYPES:
        sp = sum(1 for r in recs for s in r["spans"] if s["type"] == t and r["form"] == "spoken")
        print("  %-16s %4d  (spoken %d, written %d)" % (t, counts[t], sp, counts[t] - sp))
    print("  %-16s %4d" % ("TOTAL", sum(counts.values())))
    print("no-span lines: %d (%.1f%%)" % (n_neg, 100.0 * n_neg / len(recs)))
    print("spoken: %d (%.1f%%)  written: %d (%.1f%%)" % (n_sp, 100.0 * n_sp / len(recs), len(recs) - n_sp,
                                                        100.0 * (len(recs) - n_sp) / len(recs)))
    fams = Counter(r["source"] for r in recs)
    print("sources:", ", ".join("%s=%d" % kv for kv in sorted(fams.items())))


if __name__ == "__main__":
    main()
