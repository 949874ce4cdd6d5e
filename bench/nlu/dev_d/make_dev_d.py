#!/usr/bin/env python3
"""make_dev_d.py - builds /tmp/dev-d/pii-dev-d.jsonl (1200 labelled assistant utterances for PII detection).

Written from the type definitions only. Standard library only, fixed seed 5147, deterministic.
Every line is validated: offsets == values, sorted/non-overlapping spans, word boundaries,
spoken charset, Luhn for cards, mod-97 + country length for IBANs, SSN plausibility, no duplicate texts.
"""
import json
import os
import random
import re
from collections import Counter


R = random.Random(5147)


def pick(lst):
    return R.choice(lst)


def chance(p):
    return R.random() < p


ONES = ("zero one two three four five six seven eight nine ten eleven twelve thirteen "
        "fourteen fifteen sixteen seventeen eighteen nineteen").split()
TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()
ORD1 = ["", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth",
        "tenth", "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth",
        "seventeenth", "eighteenth", "nineteenth", "twentieth"]
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December"]
MON3 = [m[:3] for m in MONTHS]


def nw(n, and_=True):
    """number to words"""
    if n < 20:
        return ONES[n]
    if n < 100:
        return TENS[n // 10] + ("" if n % 10 == 0 else " " + ONES[n % 10])
    if n < 1000:
        r = n % 100
        s = ONES[n // 100] + " hundred"
        if r:
            s += (" and " if and_ else " ") + nw(r)
        return s
    th, r = divmod(n, 1000)
    s = nw(th, and_) + " thousand"
    if r:
        s += (" and " if (r < 100 and and_) else " ") + nw(r, and_)
    return s


def ordw(n):
    if n <= 20:
        return ORD1[n]
    if n < 30:
        return "twenty " + ORD1[n - 20]
    if n == 30:
        return "thirtieth"
    return "thirty first"


def ordsuf(n):
    if 11 <= n % 100 <= 13:
        return "th"
    return {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")


def year_words(y):
    r = y % 100
    if 1900 <= y <= 1999:
        return "nineteen " + ("hundred" if r == 0 else ("oh " + ONES[r] if r < 10 else nw(r)))
    if 2000 <= y <= 2009:
        return "two thousand" + ("" if r == 0 else pick([" and ", " "]) + ONES[r])
    return pick(["twenty " + nw(r), "two thousand and " + nw(r), "two thousand " + nw(r)])


def yy_words(y):
    r = y % 100
    return ("oh " + ONES[r]) if r < 10 else nw(r)


def speak_digits(s, zero=None, dbl=None):
    if zero is None:
        zero = pick(["oh", "oh", "zero"])
    if dbl is None:
        dbl = chance(0.35)
    out = []
    i = 0
    while i < len(s):
        c = s[i]
        w = zero if c == "0" else ONES[int(c)]
        if dbl:
            j = i
            while j < len(s) and s[j] == c:
                j += 1
            run = j - i
            if run >= 3:
                out.append("triple " + w)
                i += 3
                continue
            if run == 2:
                out.append("double " + w)
                i += 2
                continue
        out.append(w)
        i += 1
    return " ".join(out)


def speak_pairs4(l):
    """'5500' -> fifty five hundred, '4821' -> forty eight twenty one"""
    if l[0] == "0":
        return speak_digits(l)
    if l[1:] == "000":
        return nw(int(l))
    a, b = l[:2], l[2:]
    if a[0] == "0":
        return speak_digits(l)
    if b == "00":
        return nw(int(a)) + " hundred"
    return nw(int(a)) + " " + (("oh " + ONES[int(b[1])]) if b[0] == "0" else nw(int(b)))


def speak_alnum(s, zero=None, dbl=None, dash=False):
    if zero is None:
        zero = pick(["oh", "zero"])
    if dbl is None:
        dbl = chance(0.3)
    toks = []
    buf = ""
    for ch in s:
        if ch.isdigit():
            buf += ch
            continue
        if buf:
            toks.append(speak_digits(buf, zero, dbl))
            buf = ""
        if ch.isalpha():
            toks.append(ch.lower())
        elif ch == "-" and dash:
            toks.append("dash")
        elif ch == "/" and dash:
            toks.append("slash")
    if buf:
        toks.append(speak_digits(buf, zero, dbl))
    return " ".join(toks)


WORD2D = {w: str(i) for i, w in enumerate(ONES[:10])}
WORD2D["oh"] = "0"


def parse_spoken(v):
    toks = v.split()
    out = ""
    i = 0
    while i < len(toks):
        t = toks[i]
        if t in ("double", "triple"):
            n = 2 if t == "double" else 3
            out += WORD2D[toks[i + 1]] * n
            i += 2
            continue
        if t in WORD2D:
            out += WORD2D[t]
        elif len(t) == 1 and t.isalpha():
            out += t.upper()
        else:
            raise ValueError("bad spoken token %r in %r" % (t, v))
        i += 1
    return out


def to_spoken(s):
    assert not re.search(r"\d", s), s
    s = re.sub(r"\bSt\b\.?", "Saint", s)
    s = s.replace("&", " and ").replace("-", " ").replace("/", " ")
    s = s.lower()
    s = re.sub(r"[^a-z' ]", "", s)
    return re.sub(r" +", " ", s).strip()


def digs(n):
    return "".join(str(R.randrange(10)) for _ in range(n))


def nzdigs(n):
    return str(R.randint(1, 9)) + digs(n - 1)


def cap(s):
    return s[:1].upper() + s[1:]


# ---------------------------------------------------------------- PERSON
MALE = """James Liam Noah Oliver Ethan Lucas Mateo Diego Carlos Luis Jose Ahmed Omar Yusuf Hassan Tariq
Arjun Rohan Vikram Rahul Sanjay Aarav Wei Jun Hiroshi Kenji Minjun Jiho Tuan Minh Kwame Kofi Chinedu
Emeka Tunde Sipho Mateus Ivan Dmitri Piotr Tomasz Lars Sven Niall Ciaran Seamus Declan Rhys Dylan
Callum Angus Hamish Tane Wiremu Jamal Darnell DeShawn Malik Andre Marcus Theo Felix Hugo Elijah Samuel
Daniel David Isaac Ari Moshe Rafael Giovanni Luca Marco Pierre Bilal Farhan Imran Ravi Dev Nikhil
Kaito Haruto Bao Santiago Alejandro Reuben Kieran Owen Gareth Dominic Ibrahim Musa Obinna Thabo
Grzegorz Arash Reza Kourosh Ezra Nathaniel Terrence Cedric Gus Stanley Walter Harold Clive""".split()
FEMALE = """Emma Olivia Ava Sophia Isabella Mia Charlotte Amelia Harper Priya Ananya Deepa Kavya Meera
Aisha Fatima Zainab Layla Noor Mariam Mei Ling Yuki Sakura Hana Jiwoo Seoyeon Linh Thao Ngozi Amara
Chiamaka Adaeze Thandiwe Zanele Lucia Sofia Valentina Camila Ximena Gabriela Ana Maria Olga Anya
Katarzyna Ingrid Astrid Siobhan Aoife Niamh Saoirse Roisin Bronwyn Kiri Aroha Keisha Tamika Imani
Shanice Chloe Poppy Freya Isla Maeve Leah Rachel Miriam Esther Giulia Francesca Margaret Dorothy
Edith Beryl Pam Deborah Nadia Yasmin Sana Hira Divya Lakshmi Shreya Tanvi Nkechi Abena Efua Paola
Renata Agnieszka Magda Elif Zeynep Leilani Malia Talia Shira Bernadette Maureen Gwen Nora""".split()
WORD_M = "Will Mark Jack Bill Chase Glen Dale Hunter Frank Reed Wade Rich Gene Pat Sunny".split()
WORD_F = ("Rose Hope Grace Dawn Summer Brooke Kerry Victoria April June Faith Joy Amber Holly Ivy "
          "Skye Carol Sandy Ruby May Autumn Destiny Iris Dove").split()
LAST = """Smith Johnson Williams Garcia Rodriguez Martinez Hernandez Lopez Nguyen Tran Le Pham Kim Lee
Choi Chen Wang Li Zhang Liu Huang Patel Shah Sharma Gupta Iyer Reddy Nair Raman Krishnan Khan Hussain
Ahmed Malik Siddiqui Okafor Adeyemi Mensah Owusu Nkosi Dlamini Kowalski Nowak Petrov Murphy O'Brien
O'Sullivan Kelly Byrne MacDonald Campbell Fraser Jones Evans Davies Hughes Thompson Walker Robinson
Clarke Brown Taylor Wilson Anderson Jackson Washington Freeman Cohen Levi Goldberg Rossi Bianchi
Ferrari Dubois Moreau Schmidt Fischer Becker Jensen Hansen Larsen Tanaka Suzuki Sato Yamamoto
Nakamura Ngata Horomona Singh Kaur Gill Dhillon Bose Chatterjee Banerjee Mukherjee Das Fernandes
D'Souza Silva Santos Oliveira Pereira Costa Haddad Mansour Nasser Farah Abdi Warsame Yilmaz Demir
Papadopoulos Novak Horvat Achterberg Okonkwo Babatunde Mwangi Otieno Kamau Rahman Chowdhury Begum
Ashworth Pennington Whitfield Gallagher Doherty Quinn Flanagan Maguire Tiwari Menon Pillai Joshi""".split()
WORD_LAST = "Park Brooks Wood Hill Rice Bell Fox Stone Rivers Church Baker Mason Young Little Marsh".split()
BLOCK = {"will smith", "jack johnson", "grace kelly", "grace jones", "james taylor", "james brown",
         "bill evans", "samuel jackson", "glen campbell", "emma thompson", "frank williams",
         "chloe kelly", "summer walker", "kerry washington", "victoria wood", "gene kelly",
         "carol king", "olivia wilson", "mark williams", "daniel craig", "pat smith", "dale wilson",
         "ruby rose", "holly hunter", "noah lee", "gene wilson"}


def _first(g=None, wordp=0.2):
    if g is None:
        g = pick("mf")
    if chance(wordp):
        return pick(WORD_M if g == "m" else WORD_F)
    return pick(MALE if g == "m" else FEMALE)


def _last():
    return pick(WORD_LAST) if chance(0.12) else pick(LAST)


CTX = {}


def gen_person(var):
    g = None
    if var in ("mfirst", "mfull", "mword"):
        g = "m"
    elif var in ("ffirst", "ffull", "fword"):
        g = "f"
    while True:
        if var in ("first", "mfirst", "ffirst", None, ""):
            v = _first(g, 0.2 if var in ("first", None, "") else 0.15)
        elif var == "last":
            v = _last()
        elif var in ("full", "mfull", "ffull"):
            v = _first(g, 0.12) + " " + _last()
        elif var in ("wordname", "mword", "fword"):
            v = pick(WORD_M if (g or pick("mf")) == "m" else WORD_F)
        else:
            raise KeyError(var)
        if v.lower() not in BLOCK:
            break
    CTX["person"] = v
    return {"w": v if not chance(0.1) else v.lower(), "s": v.lower()}


# ---------------------------------------------------------------- PHONE
def _pg(groups, zero, dbl):
    return " ".join(speak_digits(g, zero, dbl) for g in groups)


def gen_phone(var=None):
    kind = var or pick(["us", "us", "us", "ca", "ukm", "ukm", "ukl", "ie", "au", "au", "nz", "in", "in", "eu"])
    zero = pick(["oh", "oh", "zero"])
    dbl = chance(0.4)
    if kind in ("us", "ca"):
        a = pick(["415", "312", "617", "503", "512", "206", "404", "720", "919", "646", "213", "702", "843"]
                 if kind == "us" else ["416", "604", "902", "403", "613", "514", "780", "204"])
        e = str(R.randint(2, 9)) + digs(2)
        l = pick([digs(4), digs(2) + "00", nzdigs(2) + digs(2)])
        w = pick([f"({a}) {e}-{l}", f"{a}-{e}-{l}", f"{a}.{e}.{l}", f"{a} {e} {l}", f"+1 {a} {e} {l}",
                  f"+1-{a}-{e}-{l}", f"{a}{e}{l}", f"1-{a}-{e}-{l}", f"+1 ({a}) {e}-{l}"])
        last = speak_pairs4(l) if chance(0.35) else speak_digits(l, zero, dbl)
        s = _pg([a, e], zero, dbl) + " " + last
        r = R.random()
        if r < 0.15:
            s = "one " + s
        elif r < 0.3:
            s = "plus one " + s
    elif kind == "ukm":
        m = "7" + pick(["700", "712", "723", "734", "745", "756", "767", "788", "799", "400", "501", "958"])
        rest = digs(6)
        w = pick([f"0{m} {rest}", f"0{m} {rest[:3]} {rest[3:]}", f"+44 {m} {rest}", f"+44{m}{rest}",
                  f"0{m}{rest}", f"+44 (0){m} {rest}", f"0{m}-{rest}"])
        if chance(0.3):
            s = "plus four four " + _pg([m, rest[:3], rest[3:]], zero, dbl)
        else:
            s = _pg(["0" + m, rest], zero, dbl)
    elif kind == "ukl":
        code, num = pick([("20", "7" + digs(3) + " " + digs(4)), ("113", "496 " + digs(4)),
                          ("161", digs(3) + " " + digs(4)), ("131", digs(3) + " " + digs(4)),
                          ("117", digs(3) + " " + digs(4)), ("1632", digs(6))])
        w = pick([f"0{code} {num}", f"+44 {code} {num}", f"+44 (0){code} {num}", f"(0{code}) {num}"])
        ng = num.split()
        s = ("plus four four " + _pg([code] + ng, zero, dbl)) if chance(0.25) else _pg(["0" + code] + ng, zero, dbl)
    elif kind == "ie":
        if chance(0.7):
            p = pick(["83", "85", "86", "87", "89"])
            a, b = digs(3), digs(4)
            w = pick([f"0{p} {a} {b}", f"0{p}-{a}-{b}", f"+353 {p} {a} {b}", f"0{p}{a}{b}", f"+353{p}{a}{b}"])
            s = ("plus three five three " + _pg([p, a, b], zero, dbl)) if chance(0.3) else _pg(["0" + p, a, b], zero, dbl)
        else:
            a, b = digs(3), digs(4)
            w = pick([f"(01) {a} {b}", f"01 {a} {b}", f"+353 1 {a} {b}"])
            s = _pg(["01", a, b], zero, dbl)
    elif kind == "au":
        if chance(0.65):
            p = "4" + digs(2)
            a, b = digs(3), digs(3)
            w = pick([f"0{p} {a} {b}", f"+61 {p} {a} {b}", f"0{p}{a}{b}", f"+61{p}{a}{b}"])
            s = ("plus six one " + _pg([p, a, b], zero, dbl)) if chance(0.3) else _pg(["0" + p, a, b], zero, dbl)
        else:
            p = pick(["2", "3", "7", "8"])
            a, b = nzdigs(4), digs(4)
            w = pick([f"(0{p}) {a} {b}", f"0{p} {a} {b}", f"+61 {p} {a} {b}"])
            s = _pg(["0" + p, a, b], zero, dbl)
    elif kind == "nz":
        p = pick(["21", "22", "27", "9", "4"])
        a, b = digs(3), digs(4)
        w = pick([f"0{p} {a} {b}", f"+64 {p} {a} {b}", f"0{p}-{a}-{b}", f"(0{p}) {a} {b}"])
        s = ("plus six four " + _pg([p, a, b], zero, dbl)) if chance(0.3) else _pg(["0" + p, a, b], zero, dbl)
    elif kind == "in":
        m = pick(["9", "8", "7", "6"]) + digs(4)
        rest = digs(5)
        w = pick([f"+91 {m} {rest}", f"{m} {rest}", f"0{m} {rest}", f"+91-{m}-{rest}", f"+91{m}{rest}", f"{m}{rest}"])
        s = ("plus nine one " + _pg([m, rest], zero, dbl)) if chance(0.4) else _pg([m, rest], zero, dbl)
    else:  # eu
        c = pick(["de", "fr", "es", "nl"])
        if c == "de":
            a, b = pick(["30", "89", "40", "151", "176"]), nzdigs(7)
            w = pick([f"+49 {a} {b}", f"+49{a}{b}", f"0{a} {b}"])
            s = "plus four nine " + _pg([a, b], zero, dbl)
        elif c == "fr":
            p = [pick(["6", "7", "1"]), digs(2), digs(2), digs(2), digs(2)]
            w = pick(["+33 " + " ".join(p), "0" + " ".join(p), "0" + ".".join(p)])
            s = "plus three three " + _pg(p, zero, dbl)
        elif c == "es":
            p = [pick(["6", "7"]) + digs(2), digs(3), digs(3)]
            w = pick(["+34 " + " ".join(p), " ".join(p)])
            s = "plus three four " + _pg(p, zero, dbl)
        else:
            p = ["6", digs(4), digs(4)]
            w = pick(["+31 " + " ".join(p), "06-" + p[1] + p[2], "06 " + p[1] + " " + p[2]])
            s = "plus three one " + _pg(p, zero, dbl)
    return {"w": w, "s": s}


# ---------------------------------------------------------------- EMAIL
DOMAINS = [("gmail.com", "gmail dot com"), ("gmail.com", "g mail dot com"), ("yahoo.com", "yahoo dot com"),
           ("outlook.com", "outlook dot com"), ("hotmail.co.uk", "hotmail dot co dot uk"),
           ("icloud.com", "icloud dot com"), ("proton.me", "proton dot me"), ("btinternet.com", "btinternet dot com"),
           ("live.ie", "live dot i e"), ("bigpond.com", "bigpond dot com"), ("xtra.co.nz", "xtra dot co dot n z"),
           ("yahoo.co.in", "yahoo dot co dot in"), ("rediffmail.com", "rediffmail dot com"),
           ("brightwaterlogistics.com", "brightwater logistics dot com"), ("redwood-soft.io", "redwood dash soft dot i o"),
           ("hey.com", "hey dot com"), ("aol.com", "a o l dot com"), ("mail.ca", "mail dot c a"),
           ("optusnet.com.au", "optusnet dot com dot au"), ("eircom.net", "eircom dot net"), ("comcast.net", "comcast dot net"),
           ("pembertonaccountants.co.uk", "pemberton accountants dot co dot uk")]
NICKS = [("sunnygardener", "sunny gardener"), ("bookworm", "bookworm"), ("thebakerfamily", "the baker family"),
         ("guitarguy", "guitar guy"), ("mumof3", None), ("runner", "runner"), ("nanna.jo", None), ("kiwi", "kiwi"),
         ("cricketfan", "cricket fan"), ("purplefox", "purple fox")]


def _sp_local_piece(p, spell):
    if spell and p.isalpha() and len(p) <= 6:
        return " ".join(p)
    return p


def gen_email(var=None):
    f = pick(MALE + FEMALE + WORD_M + WORD_F).lower().replace("'", "")
    l = pick(LAST + WORD_LAST).lower().replace("'", "").replace(" ", "")
    if CTX.get("person") and chance(0.7):
        parts = CTX["person"].lower().replace("'", "").split(" ", 1)
        f = parts[0]
        if len(parts) > 1:
            l = parts[1].replace(" ", "")
    dw, ds = pick(DOMAINS)
    n = pick([str(R.randint(1, 99)), str(R.randint(1950, 2012)), str(R.randint(1, 9)) * 2])
    pat = pick(["f.l", "fl", "f_l", "fi.l", "fn", "fln", "f-l", "nick", "f.l.n", "lf"])
    spell = chance(0.25)
    zero = pick(["oh", "zero"])

    def sn(num):
        if chance(0.5) or len(num) != 2 or num[0] == "0":
            return speak_digits(num, zero, False)
        return nw(int(num))

    if pat == "f.l":
        lw, ls = f"{f}.{l}", f"{_sp_local_piece(f, spell)} dot {l}"
    elif pat == "fl":
        lw, ls = f"{f}{l}", f"{f}{l}" if not spell else " ".join(f + l)
    elif pat == "f_l":
        lw, ls = f"{f}_{l}", f"{f} underscore {l}"
    elif pat == "fi.l":
        lw, ls = f"{f[0]}.{l}", f"{f[0]} dot {l}"
    elif pat == "fn":
        lw, ls = f"{f}{n}", f"{_sp_local_piece(f, spell)} {sn(n)}"
    elif pat == "fln":
        lw, ls = f"{f[0]}{l}{n}", f"{f[0]} {l} {sn(n)}"
    elif pat == "f-l":
        lw, ls = f"{f}-{l}", f"{f} dash {l}"
    elif pat == "lf":
        lw, ls = f"{l}.{f[0]}", f"{l} dot {f[0]}"
    elif pat == "f.l.n":
        lw, ls = f"{f}.{l}{n}", f"{f} dot {l} {sn(n)}"
    else:
        nk, nks = pick(NICKS)
        if nks is None:
            nk, nks = "runner", "runner"
        lw, ls = f"{nk}{n}", f"{nks} {sn(n)}"
    w = f"{lw}@{dw}"
    r = R.random()
    if r < 0.08:
        w = f"{lw} at {dw.replace('.', ' dot ')}"
    elif r < 0.14:
        w = f"{lw}[at]{dw.replace('.', '[dot]')}"
    elif r < 0.18:
        w = f"{lw} (at) {dw}"
    elif r < 0.25:
        w = w.capitalize() if chance(0.5) else w
    s = f"{ls} at {ds}"
    return {"w": w, "s": s}


# ---------------------------------------------------------------- ADDRESS
US_CITIES = [("Springfield", "IL", "Illinois", "627"), ("Austin", "TX", "Texas", "787"), ("Columbus", "OH", "Ohio", "432"),
             ("Portland", "OR", "Oregon", "972"), ("Tucson", "AZ", "Arizona", "857"), ("Raleigh", "NC", "North Carolina", "276"),
             ("Madison", "WI", "Wisconsin", "537"), ("Albany", "NY", "New York", "122"), ("Sacramento", "CA", "California", "958"),
             ("Denver", "CO", "Colorado", "802"), ("Savannah", "GA", "Georgia", "314"), ("Boise", "ID", "Idaho", "837"),
             ("Lexington", "KY", "Kentucky", "405"), ("Omaha", "NE", "Nebraska", "681"), ("Tacoma", "WA", "Washington", "984")]
US_STREETS = ("Elm Maple Oak Cedar Pine Lincoln Jefferson Lake Hillcrest Willow Magnolia Chestnut Walnut Birchwood "
              "Ridgeview Meadowbrook Cherry Juniper Highland River Forest Spring Sycamore Dogwood Prospect Franklin").split()
US_SUF = [("Street", "St"), ("Avenue", "Ave"), ("Drive", "Dr"), ("Road", "Rd"), ("Lane", "Ln"), ("Boulevard", "Blvd"),
          ("Court", "Ct"), ("Way", "Way"), ("Place", "Pl"), ("Circle", "Cir"), ("Terrace", "Ter")]
UK_CITIES = [("Leeds", "LS6"), ("Bristol", "BS1"), ("Manchester", "M14"), ("Cardiff", "CF10"), ("Glasgow", "G12"),
             ("Norwich", "NR2"), ("York", "YO10"), ("Brighton", "BN1"), ("Belfast", "BT7"), ("Edinburgh", "EH8"),
             ("Sheffield", "S11"), ("Nottingham", "NG7"), ("Reading", "RG1"), ("Swansea", "SA2")]
UK_STREETS = ["Church Road", "Station Road", "High Street", "Victoria Road", "Acacia Avenue", "Mill Lane", "Kings Road",
              "Albert Street", "Park View", "Manor Way", "Orchard Close", "Beech Grove", "Queens Drive",
              "Windsor Gardens", "Chapel Street", "Springfield Road", "Hawthorn Crescent", "St John's Terrace", "Blenheim Walk"]
IE_TOWNS = [("Ennis", "Co. Clare", "county clare", "V95"), ("Galway", "", "", "H91"), ("Cork", "", "", "T12"),
            ("Dublin 8", "", "", "D08"), ("Limerick", "", "", "V94"), ("Sligo", "", "", "F91"),
            ("Naas", "Co. Kildare", "county kildare", "W91"), ("Tralee", "Co. Kerry", "county kerry", "V92")]
IE_STREETS = ["Main Street", "Thomas Street", "Abbey Street", "O'Connell Street", "Castle Road", "Mary Street", "Bridge Street", "Shop Street"]
CA_CITIES = [("Toronto", "ON", "Ontario", "M5V"), ("Vancouver", "BC", "British Columbia", "V6K"), ("Halifax", "NS", "Nova Scotia", "B3H"),
             ("Calgary", "AB", "Alberta", "T2N"), ("Ottawa", "ON", "Ontario", "K1S"), ("Winnipeg", "MB", "Manitoba", "R3M"),
             ("Montreal", "QC", "Quebec", "H2T")]
CA_STREETS = [("Queen Street West", "Queen St W"), ("Dundas Street", "Dundas St"), ("Kitsilano Avenue", "Kitsilano Ave"),
              ("Spring Garden Road", "Spring Garden Rd"), ("Bank Street", "Bank St"), ("Corydon Avenue", "Corydon Ave"),
              ("Kensington Road", "Kensington Rd"), ("Rue Saint Denis", "Rue Saint Denis")]
AU_SUBS = [("Fitzroy", "VIC", "victoria", "3065"), ("Newtown", "NSW", "new south wales", "2042"), ("Paddington", "QLD", "queensland", "4064"),
           ("Fremantle", "WA", "western australia", "6160"), ("Glenelg", "SA", "south australia", "5045"), ("Sandy Bay", "TAS", "tasmania", "7005"),
           ("Brunswick", "VIC", "victoria", "3056"), ("Manly", "NSW", "new south wales", "2095")]
AU_STREETS = [("Smith Street", "Smith St"), ("Brunswick Street", "Brunswick St"), ("King Street", "King St"), ("Given Terrace", "Given Tce"),
              ("High Street", "High St"), ("Jetty Road", "Jetty Rd"), ("Sydney Road", "Sydney Rd"), ("Pittwater Road", "Pittwater Rd")]
NZ_CITIES = [("Ponsonby", "Auckland", "1011"), ("Te Aro", "Wellington", "6011"), ("Riccarton", "Christchurch", "8011"),
             ("Hamilton East", "Hamilton", "3216"), ("Roslyn", "Dunedin", "9010"), ("Mount Eden", "Auckland", "1024")]
NZ_STREETS = ["Ponsonby Road", "Cuba Street", "Riccarton Road", "Kauri Place", "Highgate", "Dominion Road", "Rata Street", "Tui Crescent"]
IN_PLACES = [("Indiranagar", "Bengaluru", "5600", "38"), ("Bandra West", "Mumbai", "4000", "50"), ("Adyar", "Chennai", "6000", "20"),
             ("Banjara Hills", "Hyderabad", "5000", "34"), ("Lajpat Nagar", "New Delhi", "1100", "24"), ("Ballygunge", "Kolkata", "7000", "19"),
             ("Koregaon Park", "Pune", "4110", "01"), ("Sector 15", "Gurugram", "1220", "01")]
IN_BLDG = ["Sai Residency", "Green Park Apartments", "Lotus Towers", "Shanti Niwas", "Prestige Lakeview", "Gulmohar Enclave", "Sunrise Heights"]
IN_ROADS = [("14th Main Road", "fourteenth main road"), ("Linking Road", "linking road"), ("MG Road", "m g road"),
            ("2nd Cross Street", "second cross street"), ("Ring Road", "ring road"), ("100 Feet Road", "hundred feet road"),
            ("Lake Road", "lake road")]


def speak_house(n):
    s = str(n)
    if len(s) == 4 and chance(0.8):
        return speak_pairs4(s)
    if len(s) == 3 and chance(0.6) and s[1:] != "00":
        return ONES[int(s[0])] + " " + (("oh " + ONES[int(s[2])]) if s[1] == "0" else nw(int(s[1:])))
    if len(s) >= 3 and chance(0.5):
        return speak_digits(s, "oh", False)
    return nw(n, and_=chance(0.5))


def uk_postcode(outward):
    return outward + " " + str(R.randint(1, 9)) + "".join(R.choice("ABDEFGHJLNPQRSTUWXYZ") for _ in range(2))


def speak_postcode(pc):
    out = []
    for part in pc.split():
        m = re.match(r"([A-Z]+)(\d+)([A-Z]*)$", part)
        if m and len(m.group(2)) == 2 and chance(0.5):
            out.append(" ".join(m.group(1).lower()) + " " + nw(int(m.group(2))) + ((" " + " ".join(m.group(3).lower())) if m.group(3) else ""))
        else:
            out.append(speak_alnum(part, "oh", False))
    return " ".join(out)


def gen_address(var=None):
    kind = var or pick(["us", "us", "us", "uk", "uk", "uk", "ie", "ca", "au", "au", "nz", "in", "in"])
    mode = pick(["full", "full", "full", "street", "nopost"])
    if kind == "us":
        n = pick([R.randint(1, 99), R.randint(100, 999), R.randint(1000, 9999), R.randint(10000, 24999)])
        st = pick(US_STREETS)
        suf, ab = pick(US_SUF)
        city, stab, stfull, zp = pick(US_CITIES)
        z = zp + digs(2)
        unit_w = unit_s = ""
        if chance(0.25):
            u = pick([("Apt " + str(R.randint(1, 20)) + pick("ABCD"), None), ("Unit " + str(R.randint(1, 40)), None), ("#" + str(R.randint(101, 512)), None)])[0]
            unit_w = " " + u
            m = re.match(r"(Apt|Unit|#)\s?(\d+)([A-D]?)", u)
            word = {"Apt": pick(["apartment", "apt"]), "Unit": "unit", "#": "number"}[m.group(1)]
            unit_s = " " + word + " " + (nw(int(m.group(2))) if chance(0.6) else speak_digits(m.group(2), "oh", False)) + (" " + m.group(3).lower() if m.group(3) else "")
        sfx = pick([suf, ab, ab + "."]) if mode != "full" else pick([suf, ab])
        if mode == "street":
            w = f"{n} {st} {suf if chance(0.5) else ab}{unit_w}"
            s = f"{speak_house(n)} {st.lower()} {suf.lower()}{unit_s}"
        elif mode == "nopost":
            w = f"{n} {st} {suf}{unit_w}, {city}"
            s = f"{speak_house(n)} {st.lower()} {suf.lower()}{unit_s} {city.lower()}"
        else:
            z2 = z + ("-" + digs(4) if chance(0.15) else "")
            w = pick([f"{n} {st} {sfx}{unit_w}, {city}, {stab} {z2}", f"{n} {st} {sfx}{unit_w}, {city} {stab} {z2}",
                      f"{n} {st} {sfx}{unit_w} {city} {stab} {z2}"])
            s = f"{speak_house(n)} {st.lower()} {suf.lower()}{unit_s} {city.lower()} {stfull.lower()} {speak_digits(z, 'oh', chance(0.3))}"
    elif kind == "uk":
        n = R.randint(1, 180)
        st = pick(UK_STREETS)
        city, out = pick(UK_CITIES)
        pc = uk_postcode(out)
        flat = R.randint(1, 12) if chance(0.25) else None
        fw = f"Flat {flat}, " if flat else ""
        fs = f"flat {nw(flat)} " if flat else ""
        stw = st if chance(0.7) else st.replace("Road", "Rd").replace("Street", "St").replace("Avenue", "Ave")
        sts = to_spoken(st)
        if mode == "street":
            w, s = f"{fw}{n} {stw}", f"{fs}{nw(n)} {sts}"
        elif mode == "nopost":
            w, s = f"{fw}{n} {stw}, {city}", f"{fs}{nw(n)} {sts} {city.lower()}"
        else:
            w = pick([f"{fw}{n} {stw}, {city} {pc}", f"{fw}{n} {stw}, {city}, {pc}", f"{fw}{n} {stw} {city} {pc}"])
            s = f"{fs}{nw(n)} {sts} {city.lower()} {speak_postcode(pc)}"
    elif kind == "ie":
        n = R.randint(1, 120)
        st = pick(IE_STREETS)
        town, county, cs, rk = pick(IE_TOWNS)
        ec = rk + " " + R.choice("ACDEFHKNPRTVWXY") + "".join(R.choice("ACDEFHKNPRTVWXY0123456789") for _ in range(3))
        apt = R.randint(1, 30) if chance(0.2) else None
        aw = f"Apartment {apt}, " if apt else ""
        as_ = f"apartment {nw(apt)} " if apt else ""
        cw = f", {county}" if county else ""
        town_s = town.lower().replace("8", "eight")
        cs2 = (" " + cs) if cs else ""
        if mode == "street":
            w, s = f"{aw}{n} {st}", f"{as_}{nw(n)} {to_spoken(st)}"
        elif mode == "nopost":
            w, s = f"{aw}{n} {st}, {town}{cw}", f"{as_}{nw(n)} {to_spoken(st)} {town_s}{cs2}"
        else:
            w = f"{aw}{n} {st}, {town}{cw}, {ec}"
            s = f"{as_}{nw(n)} {to_spoken(st)} {town_s}{cs2} {speak_alnum(ec, pick(['oh', 'zero']), False)}"
    elif kind == "ca":
        n = pick([R.randint(1, 99), R.randint(100, 999), R.randint(1000, 3999)])
        stw_full, stw_ab = pick(CA_STREETS)
        city, pab, pfull, fsa = pick(CA_CITIES)
        pc = fsa + " " + str(R.randint(0, 9)) + R.choice("ABCEGHJKLMNPRSTVWXYZ") + str(R.randint(0, 9))
        unit = R.randint(101, 2405) if chance(0.25) else None
        uw = f"{unit}-" if unit else ""
        us = f"unit {speak_house(unit)} " if unit else ""
        stw = pick([stw_full, stw_ab])
        if mode == "street":
            w, s = f"{uw}{n} {stw}", f"{us}{speak_house(n)} {stw_full.lower()}"
        elif mode == "nopost":
            w, s = f"{uw}{n} {stw}, {city}", f"{us}{speak_house(n)} {stw_full.lower()} {city.lower()}"
        else:
            w = pick([f"{uw}{n} {stw}, {city}, {pab} {pc}", f"{uw}{n} {stw}, {city} {pab}  {pc}".replace("  ", " ")])
            s = f"{us}{speak_house(n)} {stw_full.lower()} {city.lower()} {pfull.lower()} {speak_alnum(pc, 'zero', False)}"
    elif kind == "au":
        n = R.randint(1, 250)
        stf, sta = pick(AU_STREETS)
        sub, stt, stt_s, pc = pick(AU_SUBS)
        unit = R.randint(1, 24) if chance(0.3) else None
        uw = f"{unit}/" if unit else ""
        us = f"unit {nw(unit)} " if unit else ""
        stw = pick([stf, sta])
        st_sp = pick([stt_s, " ".join(stt.lower()) if len(stt) <= 3 and stt != "VIC" else stt.lower()])
        if mode == "street":
            w, s = f"{uw}{n} {stw}", f"{us}{nw(n)} {stf.lower()}"
        elif mode == "nopost":
            w, s = f"{uw}{n} {stw}, {sub}", f"{us}{nw(n)} {stf.lower()} {sub.lower()}"
        else:
            w = pick([f"{uw}{n} {stw}, {sub} {stt} {pc}", f"{uw}{n} {stw}, {sub}, {stt} {pc}"])
            s = f"{us}{nw(n)} {stf.lower()} {sub.lower()} {st_sp} {speak_digits(pc, 'oh', chance(0.4))}"
    elif kind == "nz":
        n = R.randint(1, 300)
        st = pick(NZ_STREETS)
        sub, city, pc = pick(NZ_CITIES)
        if mode == "street":
            w, s = f"{n} {st}", f"{speak_house(n)} {st.lower()}"
        elif mode == "nopost":
            w, s = f"{n} {st}, {sub}, {city}", f"{speak_house(n)} {st.lower()} {sub.lower()} {city.lower()}"
        else:
            w = f"{n} {st}, {sub}, {city} {pc}"
            s = f"{speak_house(n)} {st.lower()} {sub.lower()} {city.lower()} {speak_digits(pc, 'oh', chance(0.4))}"
    else:  # india
        loc, city, pin4, pin2 = pick(IN_PLACES)
        pin = pin4 + pin2
        bld = pick(IN_BLDG)
        rd_w, rd_s = pick(IN_ROADS)
        flat = pick([str(R.randint(1, 9)) + "0" + str(R.randint(1, 8)), str(R.randint(11, 14)) + "0" + str(R.randint(1, 6))])
        if chance(0.5):
            hw = f"Flat {flat}, {bld}"
            hs = f"flat {speak_digits(flat, 'oh', False) if chance(0.5) else speak_house(int(flat))} {to_spoken(bld)}"
        else:
            blk = pick("ABCD")
            num = R.randint(2, 48)
            hw = f"{blk}-{num}, {bld}"
            hs = f"{blk.lower()} {nw(num)} {to_spoken(bld)}"
        if mode == "street":
            w, s = f"{hw}, {rd_w}, {loc}", f"{hs} {rd_s} {to_spoken(loc) if 'Sector' not in loc else 'sector fifteen'}"
        else:
            w = f"{hw}, {rd_w}, {loc}, {city} {pin}" if chance(0.6) else f"{hw}, {rd_w}, {loc}, {city} - {pin}"
            locs = to_spoken(loc) if "Sector" not in loc else "sector fifteen"
            s = f"{hs} {rd_s} {locs} {city.lower()} {speak_digits(pin, pick(['oh', 'zero']), chance(0.5))}"
    return {"w": w, "s": s}


# ---------------------------------------------------------------- CREDIT_CARD
def luhn_complete(body):
    total = 0
    for i, ch in enumerate(reversed(body)):
        d = int(ch)
        if i % 2 == 0:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return body + str((10 - total % 10) % 10)


def luhn_ok(num):
    total = 0
    for i, ch in enumerate(reversed(num)):
        d = int(ch)
        if i % 2 == 1:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return total % 10 == 0


def gen_card(var=None):
    brand = var or pick(["visa", "visa", "visa", "mc", "mc", "mc2", "amex", "amex", "disc", "jcb", "diners", "up"])
    pre, ln = {"visa": ("4", 16), "mc": (str(R.randint(51, 55)), 16), "mc2": (str(R.randint(2221, 2720)), 16),
               "amex": (pick(["34", "37"]), 15), "disc": (pick(["6011", "65"]), 16), "jcb": (str(R.randint(3528, 3589)), 16),
               "diners": ("36", 14), "up": ("62", pick([16, 16, 19]))}[brand]
    num = luhn_complete(pre + digs(ln - len(pre) - 1))
    groups = {16: [4, 4, 4, 4], 15: [4, 6, 5], 14: [4, 6, 4], 19: [4, 4, 4, 4, 3]}[ln]
    parts = []
    i = 0
    for g in groups:
        parts.append(num[i:i + g])
        i += g
    w = pick([" ", " ", " ", "-", ""]).join(parts)
    zero = pick(["oh", "zero", "zero"])
    dbl = chance(0.35)
    s = " ".join(speak_digits(p, zero, dbl) for p in parts)
    return {"w": w, "s": s}


# ---------------------------------------------------------------- IBAN
IBAN_LEN = {"GB": 22, "DE": 22, "FR": 27, "ES": 24, "IT": 27, "NL": 18, "IE": 22, "BE": 16, "CH": 21, "AT": 20,
            "PL": 28, "PT": 25}


def _bban(cc):
    if cc == "GB":
        return pick(["NWBK", "BARC", "LOYD", "HBUK", "MIDL", "NAIA", "SRLG"]) + digs(14)
    if cc == "IE":
        return pick(["AIBK", "BOFI", "IPBS", "ULSB"]) + digs(14)
    if cc == "NL":
        return pick(["ABNA", "INGB", "RABO", "TRIO", "SNSB", "KNAB"]) + digs(10)
    if cc == "IT":
        return R.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ") + digs(22)
    if cc == "FR":
        return digs(10) + digs(9) + pick(["", ""]) + R.choice("0123456789ABCDEFGHJK") + digs(1) + digs(2)
    n = {"DE": 18, "ES": 20, "BE": 12, "CH": 17, "AT": 16, "PL": 24, "PT": 21}[cc]
    return digs(n)


def iban_num(s):
    return int("".join(str(int(c, 36)) for c in s))


def iban_ok(ib):
    if len(ib) != IBAN_LEN.get(ib[:2], -1):
        return False
    return iban_num(ib[4:] + ib[:4]) % 97 == 1


def gen_iban(var=None):
    cc = pick(["GB", "GB", "DE", "DE", "FR", "ES", "IT", "NL", "IE", "IE", "BE", "CH", "AT", "PL", "PT"])
    bban = _bban(cc)
    chk = 98 - iban_num(bban + cc + "00") % 97
    ib = f"{cc}{chk:02d}{bban}"
    assert iban_ok(ib)
    groups = [ib[i:i + 4] for i in range(0, len(ib), 4)]
    w = " ".join(groups) if chance(0.62) else (ib if chance(0.85) else ib.lower())
    zero = pick(["zero", "oh"])
    dbl = chance(0.25)
    s = " ".join(speak_alnum(g, zero, dbl) for g in groups)
    return {"w": w, "s": s}


# ---------------------------------------------------------------- SSN
def gen_ssn(var=None):
    while True:
        a = R.randint(1, 899)
        if a != 666:
            break
    g = R.randint(1, 99)
    se = R.randint(1, 9999)
    A, G, S = f"{a:03d}", f"{g:02d}", f"{se:04d}"
    w = pick([f"{A}-{G}-{S}"] * 5 + [f"{A} {G} {S}", f"{A}{G}{S}"])
    zero = pick(["zero", "oh"])
    dbl = chance(0.3)
    s = " ".join(speak_digits(x, zero, dbl) for x in (A, G, S))
    return {"w": w, "s": s}


def ssn_ok(d):
    if len(d) != 9 or not d.isdigit():
        return False
    a, g, s = d[:3], d[3:5], d[5:]
    return a != "000" and a != "666" and a[0] != "9" and g != "00" and s != "0000"


# ---------------------------------------------------------------- DATE_OF_BIRTH
MDAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]


def gen_dob(var=None):
    var = var or "full"
    if var == "kid":
        y = R.randint(2011, 2024)
    elif var == "adult":
        y = R.randint(1942, 2004)
    else:
        y = R.randint(1938, 2021)
    m = R.randint(1, 12)
    d = R.randint(1, MDAYS[m - 1])
    M, Mo, ms = MONTHS[m - 1], MON3[m - 1], MONTHS[m - 1].lower()
    sfx = ordsuf(d)
    if var == "day":
        return {"w": f"the {d}{sfx}", "s": f"the {ordw(d)}"}
    if var == "md":
        w = pick([f"{M} {d}", f"{M} {d}{sfx}", f"{d}{sfx} {M}", f"the {d}{sfx} of {M}", f"{Mo} {d}", f"{d} {Mo}",
                  f"{d} {M}", f"{ms} {d}"])
        s = pick([f"{ms} {ordw(d)}", f"the {ordw(d)} of {ms}", f"{ms} the {ordw(d)}", f"{ordw(d)} of {ms}", f"{ms} {nw(d)}"])
        return {"w": w, "s": s}
    yy = f"{y % 100:02d}"
    w = pick([f"{m}/{d}/{yy}", f"{m:02d}/{d:02d}/{y}", f"{d:02d}/{m:02d}/{y}", f"{y}-{m:02d}-{d:02d}", f"{d:02d}.{m:02d}.{y}",
              f"{d} {Mo} {yy}", f"{M} {d}{sfx} {y}", f"{M} {d}, {y}", f"{d}{sfx} {M} {y}", f"{d} {M} {y}", f"{Mo} {d} {y}",
              f"{d}-{Mo}-{y}", f"{d}/{m}/{y}"])
    yw = year_words(y)
    s = pick([f"{ms} {ordw(d)} {yw}", f"the {ordw(d)} of {ms} {yw}", f"{ordw(d)} of {ms} {yw}", f"{ms} the {ordw(d)} {yw}",
              f"{ms} {nw(d)} {yw}", f"{nw(m)} {nw(d)} {yy_words(y)}", f"{ordw(d)} {ms} {yw}"])
    return {"w": w, "s": s}


# ---------------------------------------------------------------- AGE
def gen_age(var=None):
    lo, hi = {"child": (1, 12), "school": (5, 12), "teen": (13, 19), "adult": (19, 64), "elder": (65, 99), None: (1, 90)}[var or None]
    n = R.randint(lo, hi)
    words = nw(n)
    w = str(n) if chance(0.75) else words.replace(" ", "-")
    return {"w": w, "s": words}


# ---------------------------------------------------------------- IP_ADDRESS
def speak_octet(o, style):
    s = str(o)
    if style == "digits" or len(s) == 1:
        return speak_digits(s, "zero" if style == "digits" and chance(0.3) else "oh", False)
    if len(s) == 2:
        return nw(o)
    if s[1:] == "00":
        return ONES[int(s[0])] + " hundred"
    return ONES[int(s[0])] + " " + (("oh " + ONES[int(s[2])]) if s[1] == "0" else nw(int(s[1:])))


HEXW = {"a": "a", "b": "b", "c": "c", "d": "d", "e": "e", "f": "f"}


def gen_ip(var=None):
    kind = pick(["p192", "p192", "p192", "p10", "p10", "p172", "pub", "pub", "v6", "v6"])
    if kind == "v6":
        pre = pick(["2001:db8", "fe80:", "2a02:c7f", "2600:1700", "2406:3400", "fd12:3456"])
        tail = ":".join(format(R.randint(0, 0xffff), "x") for _ in range(pick([2, 3, 4])))
        if pre.endswith(":"):
            ip = pre + ":" + tail
        else:
            ip = pre + (":" + format(R.randint(1, 0xffff), "x") if chance(0.5) else "") + "::" + tail
        out = []
        for grp in re.split(r"(::|:)", ip):
            if grp == "::":
                out.append(pick(["colon colon", "double colon"]))
            elif grp == ":":
                out.append("colon")
            elif grp:
                out.append(" ".join(HEXW.get(c) or ONES[int(c)] if not c.isdigit() or c != "0" else "zero" for c in grp))
        return {"w": ip, "s": " ".join(out)}
    if kind == "p192":
        octs = [192, 168, pick([0, 1, 1, 1, 2, 10, 50, 86, 100]), R.randint(2, 254)]
    elif kind == "p10":
        octs = [10, pick([0, 0, 1, 10, 20, 42]), R.randint(0, 30), R.randint(2, 254)]
    elif kind == "p172":
        octs = [172, R.randint(16, 31), R.randint(0, 20), R.randint(2, 254)]
    else:
        octs = [pick([81, 86, 92, 109, 151, 203, 198, 73, 24, 67, 101, 49]), R.randint(0, 255), R.randint(0, 255), R.randint(1, 254)]
    w = ".".join(map(str, octs))
    style = pick(["digits", "num", "num"])
    s = " dot ".join(speak_octet(o, style) for o in octs)
    return {"w": w, "s": s}


# ---------------------------------------------------------------- ACCOUNT_NUMBER
def L(n):
    return "".join(R.choice("ABCDEFGHJKLMNPRSTUVWXYZ") for _ in range(n))


def gen_account(var=None):
    var = var or pick(["bank", "customer", "policy", "member"])
    if var == "bank":
        w = pick([nzdigs(8), digs(2) + nzdigs(8), nzdigs(12), "00" + digs(10), digs(4) + " " + digs(4), nzdigs(9),
                  digs(4) + " " + digs(4) + " " + digs(4)])
    elif var == "customer":
        w = pick(["CUST-" + nzdigs(6), "CN" + digs(8), nzdigs(10), "ELEC-" + digs(2) + "-" + nzdigs(5), L(2) + nzdigs(7),
                  "AC-" + digs(4) + "-" + digs(4), nzdigs(3) + " " + digs(3) + " " + digs(4), "C" + nzdigs(8)])
    elif var == "policy":
        w = pick(["POL-" + nzdigs(4) + "-" + digs(4), L(2) + " " + nzdigs(4) + " " + digs(4), L(3) + digs(8),
                  "MTR-" + nzdigs(7), "P" + nzdigs(9), L(2) + "/" + nzdigs(6) + "/" + digs(2), nzdigs(3) + "-" + digs(6) + "-" + L(1)])
    else:
        w = pick(["MBR" + digs(8), L(1) + nzdigs(7), "FF " + nzdigs(4) + " " + digs(4), "LIB" + nzdigs(10), L(3) + "-" + nzdigs(5),
                  nzdigs(12), nzdigs(4) + " " + digs(4) + " " + digs(4), "M-" + nzdigs(6)])
    s = speak_alnum(w, pick(["oh", "zero"]), chance(0.3), dash=chance(0.3))
    if chance(0.12):
        w = w.lower()
    return {"w": w, "s": s}


# ---------------------------------------------------------------- PIN_OR_PASSWORD
PW_WORDS = ("sunflower bluebird mango tiger pancake river falcon marble winter coconut rocket velvet "
            "harbour biscuit cactus dragon emerald lemon meadow panther pepper willow thunder maple "
            "kangaroo penguin saturn zebra pixel copper").split()


def _pin_sp(p):
    if len(p) == 4 and chance(0.3) and p[0] != "0":
        return speak_pairs4(p)
    return speak_digits(p, pick(["oh", "zero"]), chance(0.35))


def gen_pin(var=None):
    var = var or pick(["pin", "code", "pw", "wifi"])
    if var == "pin":
        p = pick([digs(4), digs(4), digs(4), digs(6), str(R.randint(1950, 2015))])
        return {"w": p, "s": _pin_sp(p)}
    if var == "code":
        p = pick([digs(4), digs(4), digs(5), digs(6), str(R.randint(1960, 2020)), nzdigs(2) + digs(2)])
        w = p + ("#" if chance(0.1) else "")
        s = _pin_sp(p)
        if len(p) > 4 and chance(0.2):
            s = speak_digits(p, "zero", False)
        return {"w": w, "s": s}
    a, b = pick(PW_WORDS), pick(PW_WORDS)
    n = pick([str(R.randint(1, 99)), str(R.randint(1970, 2024)), digs(3)])
    if var == "pw":
        form = pick(["Aw!n", "awn", "Aw#Bwn", "a-b-c", "Aw_n", "leet", "AwBw", "spell"])
    else:
        form = pick(["AwBwn", "aw_bwn", "rand", "rand", "awbw", "Aw-n", "spell"])
    if form == "Aw!n":
        w, s = f"{cap(a)}!{n}", f"capital {a[0]} {a[1:] if False else a} exclamation mark {speak_digits(n, 'zero', False)}"
        s = f"{a} exclamation mark {speak_digits(n, 'zero', False)}" if chance(0.5) else f"capital {a} exclamation {nw(int(n)) if len(n) <= 2 else speak_digits(n, 'zero', False)}"
    elif form == "awn":
        w, s = f"{a}{n}", f"{a} {nw(int(n)) if len(n) <= 2 else year_words(int(n)) if len(n) == 4 and n[0] in '12' and 1970 <= int(n) <= 2024 else speak_digits(n, 'zero', False)}"
    elif form == "Aw#Bwn":
        w, s = f"{cap(a)}#{cap(b)}{n[-1]}", f"{a} hash {b} {ONES[int(n[-1])]}"
    elif form == "a-b-c":
        c = pick(PW_WORDS)
        w, s = f"{a}-{b}-{c}", f"{a} dash {b} dash {c}"
    elif form == "Aw_n":
        w, s = f"{cap(a)}_{n}", f"{a} underscore {speak_digits(n, 'zero', False)}"
    elif form == "leet":
        t = a.replace("o", "0").replace("e", "3").replace("a", "@")
        w = cap(t) + n[-2:]
        return {"w": w, "s": f"{a} {speak_digits(n[-2:], 'zero', False)}"}
    elif form in ("AwBw", "awbw"):
        w = (cap(a) + cap(b)) if form == "AwBw" else a + b
        s = f"{a} {b}"
    elif form == "AwBwn":
        w, s = f"{cap(a)}{cap(b)}{n}", f"{a} {b} {speak_digits(n, 'zero', chance(0.4))}"
    elif form == "aw_bwn":
        w, s = f"{a}_{b}{n}", f"{a} underscore {b} {speak_digits(n, 'zero', False)}"
    elif form == "Aw-n":
        w, s = f"{cap(a)}-{n}", f"{a} dash {speak_digits(n, 'zero', False)}"
    elif form == "rand":
        chars = "abcdefghjkmnpqrstuvwxyzABCDEFGHJKMNPQRSTUVWXYZ23456789"
        w = R.choice("abcdefghkmnpqrstuvwxyz") + "".join(R.choice(chars) for _ in range(R.randint(7, 11)))
        s = speak_alnum(w.lower(), "zero", False)
    else:  # spell
        core = a[:4] + str(R.randint(10, 99))
        w = core
        s = speak_alnum(core, "zero", False)
    return {"w": w, "s": s}


# ---------------------------------------------------------------- HEALTH
COND = [("asthma", None), ("type 2 diabetes", "type two diabetes"), ("Type 2 diabetes", "type two diabetes"),
        ("type 1 diabetes", "type one diabetes"), ("high blood pressure", None), ("migraines", None), ("epilepsy", None),
        ("ADHD", "a d h d"), ("coeliac disease", None), ("celiac disease", None), ("depression", None), ("anxiety", None),
        ("COPD", "c o p d"), ("Crohn's disease", None), ("rheumatoid arthritis", None), ("osteoarthritis", None),
        ("multiple sclerosis", None), ("hypothyroidism", None), ("eczema", None), ("dementia", None), ("Alzheimer's", None),
        ("long covid", None), ("gout", None), ("sleep apnea", None), ("psoriasis", None), ("IBS", "i b s"), ("autism", None),
        ("dyslexia", None), ("atrial fibrillation", None), ("heart failure", None), ("chronic kidney disease", None),
        ("lupus", None), ("endometriosis", None), ("PCOS", "p c o s"), ("bipolar disorder", None), ("PTSD", "p t s d"),
        ("glaucoma", None), ("tinnitus", None), ("shingles", None), ("chickenpox", None), ("tonsillitis", None),
        ("bronchitis", None), ("pneumonia", None), ("Parkinson's", None), ("fibromyalgia", None), ("sickle cell disease", None),
        ("hay fever", None), ("postnatal depression", None), ("gestational diabetes", None), ("cataracts", None),
        ("scoliosis", None), ("angina", None), ("hep C", "hep c"), ("HIV", "h i v"), ("an underactive thyroid", None)]
COND = [c for c in COND if not c[0].startswith("an ")]
ALLERGY = ["peanut allergy", "nut allergy", "penicillin allergy", "shellfish allergy", "latex allergy", "egg allergy",
           "bee sting allergy", "sesame allergy", "dairy allergy", "severe peanut allergy"]
MEDS = {"metformin": ([500, 850, 1000], "mg"), "lisinopril": ([5, 10, 20], "mg"), "amlodipine": ([5, 10], "mg"),
        "atorvastatin": ([10, 20, 40, 80], "mg"), "simvastatin": ([20, 40], "mg"), "levothyroxine": ([25, 50, 75, 100], "mcg"),
        "sertraline": ([50, 100, 150], "mg"), "fluoxetine": ([20, 40], "mg"), "citalopram": ([10, 20], "mg"),
        "omeprazole": ([20, 40], "mg"), "lansoprazole": ([15, 30], "mg"), "salbutamol": (None, None), "Ventolin": (None, None),
        "insulin": ([8, 10, 12, 20], "units"), "warfarin": ([1, 3, 5], "mg"), "apixaban": ([2.5, 5], "mg"),
        "methotrexate": ([10, 15], "mg"), "prednisolone": ([5, 20, 40], "mg"), "gabapentin": ([300, 600], "mg"),
        "amoxicillin": ([250, 500], "mg"), "methylphenidate": ([10, 18, 36], "mg"), "Ritalin": ([10, 20], "mg"),
        "melatonin": ([2, 3, 5], "mg"), "propranolol": ([10, 40, 80], "mg"), "ramipril": ([2.5, 5, 10], "mg"),
        "losartan": ([25, 50, 100], "mg"), "allopurinol": ([100, 300], "mg"), "Eliquis": ([5], "mg"),
        "Ozempic": ([0.5, 1], "mg"), "montelukast": ([10], "mg"), "cetirizine": ([10], "mg"), "lithium": ([400], "mg"),
        "donepezil": ([5, 10], "mg"), "bisoprolol": ([2.5, 5], "mg"), "furosemide": ([20, 40], "mg"), "tramadol": ([50], "mg"),
        "Humira": (None, None), "naproxen": ([250, 500], "mg"), "clopidogrel": ([75], "mg"), "quetiapine": ([25, 50], "mg")}


def _dose_sp(x):
    if x == 2.5:
        return "two point five"
    if x == 0.5:
        return pick(["point five", "nought point five", "zero point five"])
    return nw(int(x), and_=chance(0.5))


def gen_health(var=None):
    var = var or pick(["cond", "cond", "med", "meddose"])
    if var == "cond":
        w, s = pick(COND)
        return {"w": w, "s": s or to_spoken(w)}
    if var == "allergy":
        a = pick(ALLERGY)
        return {"w": a, "s": a}
    if var == "med":
        m = pick(list(MEDS))
        return {"w": m if chance(0.6) else cap(m), "s": m.lower()}
    m = pick([k for k, v in MEDS.items() if v[0]])
    doses, unit = MEDS[m]
    x = pick(doses)
    xs = str(x).rstrip("0").rstrip(".") if isinstance(x, float) else str(x)
    uw = {"mg": pick(["mg", "mg", " mg", " milligrams"]), "mcg": pick(["mcg", " mcg", " micrograms"]), "units": " units"}[unit]
    us = {"mg": "milligrams", "mcg": "micrograms", "units": "units"}[unit]
    w = f"{m if chance(0.6) else cap(m)} {xs}{uw}"
    s = f"{m.lower()} {_dose_sp(x)} {us}"
    return {"w": w, "s": s}


# ---------------------------------------------------------------- LOCATION
LOC = {
    "work": ["Brightwater Logistics", "Hartley & Sons Solicitors", "Northgate Pharmacy", "Kingsbridge Veterinary Clinic",
             "Crestview Dental", "Redwood Software", "Marlowe Engineering", "Hillside Garden Centre", "Copperleaf Cafe",
             "Lakeshore Credit Union", "Summit Physiotherapy", "Blue Heron Books", "Ashford Borough Council", "Greenway Motors",
             "Pemberton Accountants", "Sterling Print Works", "Oak Tree Bakery", "Riverside Vets", "Kestrel Insurance",
             "Meadowbank Library", "Harbourside Hotel", "Fernhill Distribution Centre"],
    "school": ["Oakwood Primary", "Greenfield Elementary", "Lincoln High School", "St Brigid's National School", "Westbrook Academy",
               "Maple Leaf Public School", "Riverside Middle School", "Little Acorns Nursery", "Sunshine Daycare", "Kendrick Primary",
               "Holy Cross College", "Hawthorn Secondary College", "Kowhai Intermediate", "Northview High", "Pinewood Montessori",
               "St Anne's Catholic Primary", "Jefferson Elementary", "Ridgeway Grammar School", "Green Valley Public School",
               "Bright Horizons Preschool"],
    "hosp": ["St Luke's Hospital", "Mercy General", "St Vincent's Hospital", "Riverside General Hospital",
             "Northfield Community Hospital", "Queen Mary's Hospital", "Lakeview Medical Center", "Cedar Grove Clinic",
             "Westmead Children's Hospital", "Royal County Infirmary", "Valley View Hospice", "St Joseph's Medical Centre",
             "Kingsway Health Centre", "Fairview Dialysis Unit"],
    "care": ["Riverside Care Home", "Maple Grove Retirement Home", "Sunnybank Nursing Home", "Willow Lodge", "Rosewood Assisted Living",
             "Heatherfield House", "Oak Lodge Care Home", "Brookside Manor", "Evergreen Senior Living", "St Catherine's Nursing Home"],
    "gym": ["Ironworks Gym", "Peak Performance Fitness", "Eastside CrossFit", "Harbour Leisure Centre", "Northside YMCA",
            "Valley Climbing Wall", "Riverbend Aquatic Centre", "Fit Factory", "Lotus Yoga Studio", "Cornerstone Boxing Gym",
            "Greenhill Leisure Centre"],
    "worship": ["St Mary's Church", "Grace Baptist Church", "Al-Noor Mosque", "Masjid Al-Rahma", "Sri Murugan Temple",
                "Guru Nanak Gurdwara", "Beth Shalom Synagogue", "Holy Trinity Church", "Shree Swaminarayan Temple",
                "St Patrick's Parish", "Bethel Pentecostal Church", "Wat Buddharam", "Our Lady of Lourdes Church",
                "Central Islamic Centre", "St George's Greek Orthodox Church"],
    "club": ["Westfield Rugby Club", "Oakridge Tennis Club", "Marlow Rowing Club", "Kingsway Chess Club", "Bayside Sailing Club",
             "Hillcrest Bowls Club", "Riverside Junior Football Club", "Eastbrook Cricket Club", "Northside Netball Club",
             "Greenhill Golf Club", "Harbour City Swim Club"],
}


def gen_location(var=None):
    var = var or pick(list(LOC))
    v = pick(LOC[var])
    s = to_spoken(v).replace("ymca", "y m c a")
    w = v
    if chance(0.12):
        w = v.lower()
    elif chance(0.1) and v.startswith("St "):
        w = "St. " + v[3:]
    return {"w": w, "s": s}


GEN = {"PERSON": gen_person, "PHONE": gen_phone, "EMAIL": gen_email, "ADDRESS": gen_address, "CREDIT_CARD": gen_card,
       "IBAN": gen_iban, "SSN": gen_ssn, "DATE_OF_BIRTH": gen_dob, "AGE": gen_age, "IP_ADDRESS": gen_ip,
       "ACCOUNT_NUMBER": gen_account, "PIN_OR_PASSWORD": gen_pin, "HEALTH": gen_health, "LOCATION": gen_location}


# ================================================================ TEMPLATES
# One template per line. {TYPE:variant} = labelled slot, {_name} = unlabelled filler.
# SP = spoken positive, SN = spoken negative, WP = written positive, WN = written negative.

SP = {
"contacts": """
call {PERSON:full}
call {PERSON:ffirst} on her mobile
add {PERSON:ffull} to my contacts her number is {PHONE}
add a new contact called {PERSON:mfull} his number is {PHONE}
save this number for {PERSON:first} {PHONE}
new contact {PERSON:full} mobile {PHONE}
what's {PERSON:full}'s phone number
update {PERSON:first}'s number to {PHONE}
my number is {PHONE}
my phone number's {PHONE}
you can reach me on {PHONE}
dial {PHONE}
ring {PHONE} please
call {PHONE} on speaker
my work number is {PHONE} and my personal one is {PHONE}
the plumber's called {PERSON:mfull} and his number is {PHONE}
if anything happens call my neighbour {PERSON:first} on {PHONE}
set {PERSON:full} as my emergency contact
my emergency contact is my husband {PERSON:mfirst} on {PHONE}
block {PHONE}
who called me from {PHONE}
the number for the babysitter {PERSON:ffirst} is {PHONE}
call {PERSON:first} on speaker
call {PERSON:last} at home
phone {PERSON:wordname}
call {PERSON:wordname}'s mobile
what's the number for {PERSON:first} at work
is {PHONE} in my contacts
add {PHONE} to {PERSON:full}'s contact
yeah it's {PHONE} got that
uh my cell is {PHONE}
the best number to get me on is {PHONE} after five
hey google call {PERSON:first}
alexa ring {PERSON:full}
i need to call my landlord {PERSON:mfull} can you get his number
""",
"messaging": """
text {PERSON:ffirst} and tell her i'm running ten minutes late
send a message to {PERSON:first} saying dinner's at seven
tell {PERSON:mword} i'll pick him up after practice
send a whatsapp to {PERSON:full} saying happy anniversary
read my messages from {PERSON:full}
what did {PERSON:ffirst} say in her last message
reply to {PERSON:first} okay see you there
message {PERSON:wordname} happy birthday from all of us
let {PERSON:wordname} know the car is ready
tell {PERSON:wordname} to come downstairs
ask {PERSON:ffirst} if she wants the blue one or the red one
text my son {PERSON:mfirst} dinner in ten minutes
send {PERSON:first} a voice note
announce dinner's ready in {PERSON:first}'s room
send a text to {PERSON:fword} i'm outside
[2] text {PERSON:first} the wifi password is {PIN:wifi}
[2] tell {PERSON:first} the door code is {PIN:code}
message {PERSON:full} my new number is {PHONE}
text {PERSON:first} and {PERSON:first} the match is cancelled
send {PERSON:mfirst} a message saying don't forget your inhaler
""",
"email": """
my email is {EMAIL}
my email address is {EMAIL}
send the photos to {EMAIL}
it's {EMAIL} all lower case
add {EMAIL} to {PERSON:first}'s contact card
forward that receipt to {EMAIL}
email {PERSON:full} at {EMAIL} and say the meeting's moved to monday
my work email is {EMAIL} not the gmail one
change my login email to {EMAIL}
send an invite to {EMAIL} for saturday
reply to {PERSON:first} and cc {EMAIL}
her email is {EMAIL}
his email's {EMAIL} i think
share the shopping list with {EMAIL}
the school said to email {EMAIL} about the trip
you can send the quote to me at {EMAIL}
{PERSON:first}'s email is {EMAIL}
sign me up with {EMAIL}
the confirmation went to {EMAIL} but i can't find it
""",
"address": """
i live at {ADDRESS}
my address is {ADDRESS}
navigate to {PERSON:first}'s house it's {ADDRESS}
deliver it to {ADDRESS}
ship the order to {ADDRESS} please
set my home address to {ADDRESS}
we've moved our new address is {ADDRESS}
the party's at {ADDRESS}
how long will it take to get to {ADDRESS}
directions to {ADDRESS}
my mum lives at {ADDRESS}
send the birthday card to {PERSON:full} at {ADDRESS}
pick me up from {ADDRESS}
book a taxi to {ADDRESS} for eight tomorrow morning
change the delivery address to {ADDRESS}
i'm staying with {PERSON:first} at {ADDRESS} this week
set my work address to {ADDRESS}
the parcel should go to {ADDRESS} not the old place
{PERSON:first} lives at {ADDRESS}
get me an uber to {ADDRESS}
my grandparents are at {ADDRESS}
my office is at {ADDRESS}
add {ADDRESS} as a saved place
""",
"payment": """
[3] my card number is {CARD}
[2] pay with card number {CARD}
[2] the long number on the card is {CARD} expiry oh nine twenty seven
[2] add a new card {CARD}
[2] put it on my card it's {CARD}
[2] card number {CARD} name on the card {PERSON:full}
[2] save {CARD} as my default card
[2] i lost my card the number was {CARD} can you freeze it
[2] okay the number is {CARD}
[2] use my other card {CARD}
[2] the card's {CARD} and it expires next march
[2] my visa is {CARD:visa}
[3] charge it to {CARD}
[2] the card number's {CARD} and the name is {PERSON:full}
[2] renew my subscription with {CARD}
[3] the new card is {CARD} please update it
""",
"banking": """
[4] my iban is {IBAN}
[4] send the money to {IBAN}
[3] transfer two hundred euros to {PERSON:full} iban {IBAN}
[3] the iban for the landlord is {IBAN}
[3] add a payee {PERSON:full} with iban {IBAN}
[3] pay my rent into {IBAN}
[3] the iban is {IBAN} under the name {PERSON:full}
[3] set up a standing order to {IBAN} every month
[3] i b a n {IBAN}
[4] refund it to my iban {IBAN}
[3] my german account's iban is {IBAN}
[4] can you check if {IBAN} is a valid iban
[3] {PERSON:first}'s iban is {IBAN}
[4] the iban on the invoice says {IBAN}
my account number is {ACCOUNT:bank}
transfer fifty pounds from savings to account {ACCOUNT:bank}
i'm calling about account {ACCOUNT:bank}
what's the balance on account {ACCOUNT:bank}
pay {PERSON:full} account number {ACCOUNT:bank}
""",
"identity": """
[4] my social security number is {SSN}
[3] social is {SSN}
[3] my social's {SSN}
[3] my s s n is {SSN}
[3] {PERSON:first}'s social security number is {SSN}
[3] put {SSN} in the social security box
[3] for the tax return my husband's social is {SSN}
[3] the last name is {PERSON:last} and the social is {SSN}
[3] my son's social security number is {SSN}
[4] verify my identity my social is {SSN}
[3] the employer needs my social security number it's {SSN}
[4] my wife's social is {SSN}
[2] social security {SSN} and date of birth {DOB:adult}
my name is {PERSON:full}
my name's {PERSON:first}
call me {PERSON:first}
my surname is {PERSON:last}
it's {PERSON:full} here
this is {PERSON:first} speaking
""",
"birthday": """
my birthday is {DOB:md}
my birthday's {DOB:md}
i was born on {DOB:full}
i was born {DOB:adult}
date of birth {DOB:full}
{PERSON:first}'s birthday is {DOB:md}
remind me that {PERSON:full}'s birthday is {DOB:md}
my son {PERSON:mfirst} was born on {DOB:kid}
her birthday's on {DOB:day}
my date of birth is {DOB:adult}
add {PERSON:first}'s birthday {DOB:md} to the calendar
i was born {DOB:full} so how many days old am i
my husband's birthday is {DOB:md} set a reminder a week before
the baby was born on {DOB:kid}
when's {PERSON:first}'s birthday
his birthday is on {DOB:day} so book the restaurant
my mum was born on {DOB:adult}
the twins were born on {DOB:kid}
remember {PERSON:wordname}'s birthday {DOB:md}
d o b {DOB:full}
my daughter's birthday is {DOB:md} and she wants a unicorn cake
""",
"age": """
my son is {AGE:child}
she turned {AGE:adult} last week
i'm {AGE:adult}
i am {AGE:adult} years old
my {AGE:child} year old won't go to sleep
my {AGE:child} year old daughter has a fever
he's {AGE:child} and he still won't eat vegetables
granny {PERSON:ffirst} will be {AGE:elder} in may
our twins are {AGE:child}
{PERSON:first} is {AGE:child} now can you believe it
what's a good present for {PERSON:ffirst} she's turning {AGE:child}
my dad is {AGE:elder} and lives on his own
i'm a {AGE:adult} year old woman and i want to start lifting
{PERSON:mfirst}'s {AGE:teen} now and wants a phone
my daughter's turning {AGE:child} on saturday
i'll be {AGE:adult} next month
my grandson {PERSON:mfirst} just turned {AGE:child}
my husband is {AGE:adult} and snores like a train
we've got a {AGE:child} year old and a {AGE:child} year old
how much calpol can i give my {AGE:child} year old
i'm {AGE:adult} is it too late to learn piano
my mother in law is {AGE:elder} and still drives
my nephew {PERSON:mfirst} is {AGE:teen}
nana's going to be {AGE:elder} next week
i'm {AGE:teen} can i open a bank account
i'm aged {AGE:adult} and i want a life insurance quote
my grandad's {AGE:elder} and he needs a hearing test
book a table for six it's {PERSON:ffirst}'s birthday she'll be {AGE:adult}
""",
"network": """
[2] my router's ip is {IP}
[2] ping {IP}
[2] the printer is on {IP}
[2] block {IP} on the router
[2] my server's address is {IP}
[2] set the static ip to {IP}
[2] the camera's at {IP} can you add it
[2] my public ip is {IP} right
[2] connect to the nas on {IP}
[2] why can't my laptop reach {IP}
[2] the smart plug in the lounge is {IP}
[2] forward port eighty to {IP}
[2] my ip address is {IP}
[2] add the doorbell at {IP} to my devices
[2] the thermostat's ip is {IP}
[2] open the admin page at {IP}
[3] my raspberry pi is on {IP}
""",
"account": """
customer number {ACCOUNT:customer}
my policy number is {ACCOUNT:policy}
membership number {ACCOUNT:member}
pay the gas bill account {ACCOUNT:customer}
my library card number is {ACCOUNT:member}
the account number for the electric is {ACCOUNT:customer}
{PERSON:first}'s insurance policy number is {ACCOUNT:policy}
my frequent flyer number is {ACCOUNT:member}
my customer reference is {ACCOUNT:customer}
the policy number on the car insurance is {ACCOUNT:policy}
my loyalty card number is {ACCOUNT:member}
renew membership number {ACCOUNT:member}
the home insurance policy is {ACCOUNT:policy}
""",
"secrets": """
[2] my pin is {PIN:pin}
[2] the door code is {PIN:code}
[2] the wifi password is {PIN:wifi}
[2] garage code {PIN:code}
[2] remember my locker combination is {PIN:pin}
[2] the alarm code for mum's house is {PIN:code}
[2] my password is {PIN:pw}
[2] change the guest wifi password to {PIN:wifi}
[2] the key safe code for {PERSON:first}'s flat is {PIN:code}
[2] set my voice pin to {PIN:pin}
[2] the gate code is {PIN:code}
[2] tell the dog walker the lockbox code is {PIN:code}
[2] the password for the streaming account is {PIN:pw}
[2] my bank pin is {PIN:pin} don't let me forget
[2] set the purchase code to {PIN:pin}
[2] the wifi's {PIN:wifi}
""",
"health": """
i have {HEALTH:cond}
my son has {HEALTH:cond}
remind me to take my {HEALTH:med} at eight
remind me to take {HEALTH:meddose} every morning
{PERSON:first} was diagnosed with {HEALTH:cond} last year
i'm on {HEALTH:meddose}
my wife's got {HEALTH:cond}
add {HEALTH:med} to my medication list
i have a {HEALTH:allergy}
dad's {HEALTH:cond} is getting worse
tell the doctor i've been taking {HEALTH:meddose} since march
order a refill of my {HEALTH:med}
my daughter's {HEALTH:cond} has flared up again
i've got {HEALTH:cond} what should i avoid eating
has mum taken her {HEALTH:med} today
log that i took {HEALTH:meddose} at nine
my husband has {HEALTH:cond} and {HEALTH:cond}
{PERSON:mfirst} has a {HEALTH:allergy} please tell the caterers
my doctor put me on {HEALTH:med}
i was diagnosed with {HEALTH:cond} in june
grandad takes {HEALTH:meddose} at night
""",
"places": """
my wife works at {LOCATION:work}
pick up {PERSON:first} from {LOCATION:school}
my mum's at {LOCATION:care} now
i'm at {LOCATION:hosp} with {PERSON:first}
{PERSON:first} goes to {LOCATION:school}
i teach at {LOCATION:school}
dad's been moved to {LOCATION:hosp}
we go to {LOCATION:worship} every sunday
remind me i've got spin class at {LOCATION:gym} at six
{PERSON:mfirst} plays for {LOCATION:club}
text {PERSON:first} i'm leaving {LOCATION:work} now
my grandmother's in {LOCATION:care} room fourteen
drop {PERSON:first} at {LOCATION:school} at eight fifteen
i volunteer at {LOCATION:worship} on saturdays
my physio appointment is at {LOCATION:hosp} on tuesday
i just started a new job at {LOCATION:work}
the kids have swimming at {LOCATION:gym}
she's a nurse at {LOCATION:hosp}
we're members of {LOCATION:club}
friday prayers at {LOCATION:worship} with {PERSON:mfirst}
how long's my commute to {LOCATION:work}
my brother's a caretaker at {LOCATION:school}
""",
"forms": """
name {PERSON:full} date of birth {DOB:adult} phone {PHONE}
hi this is {PERSON:full} my account number is {ACCOUNT:bank} and my date of birth is {DOB:adult}
my name's {PERSON:full} i'm {AGE:adult} and i live at {ADDRESS}
my father {PERSON:mfull} is {AGE:elder} and he takes {HEALTH:meddose}
[2] contact {PERSON:first} at {EMAIL} or {PHONE}
my name is {PERSON:full} and my email is {EMAIL}
this is {PERSON:first} from {LOCATION:work} calling back on {PHONE}
my son {PERSON:mfirst} is {AGE:child} and has {HEALTH:cond}
policy holder {PERSON:full} policy number {ACCOUNT:policy}
[2] login is {EMAIL} and the password is {PIN:pw}
[2] the nas is on {IP} and the admin password is {PIN:pw}
my daughter {PERSON:ffirst} is {AGE:school} and goes to {LOCATION:school}
[2] billing address {ADDRESS} card number {CARD}
first name {PERSON:first} last name {PERSON:last} date of birth {DOB:full}
""",
"mixed": """
[2] my name is {PERSON:full} and i was born on {DOB:adult}
[2] my neighbour {PERSON:first} at {ADDRESS} has our spare key
[2] the patient is {PERSON:ffull} date of birth {DOB:full} she has {HEALTH:cond}
send {PERSON:full} at {ADDRESS} a get well card
[2] my mum {PERSON:ffirst} is {AGE:elder} and has {HEALTH:cond}
[2] my account number is {ACCOUNT:bank} and my phone is {PHONE}
[2] my membership number is {ACCOUNT:member} and my date of birth is {DOB:adult}
[2] {PERSON:ffirst} works at {LOCATION:work} and her number is {PHONE}
[2] i'm {AGE:adult} i've got {HEALTH:cond} and i'm on {HEALTH:meddose}
our address is {ADDRESS} and the gate code is {PIN:code}
[2] the camera at {IP} is {PERSON:first}'s
[2] my son {PERSON:mfirst} is at {LOCATION:hosp} with {HEALTH:cond}
[2] customer number {ACCOUNT:customer} the address on the account is {ADDRESS}
[2] {PERSON:full} born {DOB:full} lives at {ADDRESS}
[2] my grandmother {PERSON:ffull} is at {LOCATION:care} and she's {AGE:elder}
[2] i'm calling about policy {ACCOUNT:policy} for the house at {ADDRESS}
call {PERSON:first} at {LOCATION:work} on {PHONE}
[2] my daughter {PERSON:ffirst} was born on {DOB:kid} at {LOCATION:hosp}
{PERSON:first} from {LOCATION:club} called from {PHONE}
[2] dad's on {HEALTH:meddose} and his date of birth is {DOB:adult}
[2] {LOCATION:school} has my number as {PHONE}
[3] my laptop's ip is {IP} and my phone's is {IP}
[2] add {PERSON:full} birthday {DOB:md} phone {PHONE}
[2] the router is at {IP} and the account number with the provider is {ACCOUNT:customer}
""",
"people": """remind me to buy flowers for {PERSON:first}
set a reminder to call {PERSON:last} about the invoice
add {PERSON:first} to the carpool group
did {PERSON:wordname} message me
play the playlist {PERSON:first} made for me
schedule a meeting with {PERSON:full} and {PERSON:full} for tuesday at ten
{PERSON:first} and {PERSON:first} are coming for dinner on sunday
is mrs {PERSON:last} coming to the meeting
book an appointment with doctor {PERSON:last}
remind {PERSON:first} to feed the cat
how far away is {PERSON:first}
where is {PERSON:first}'s phone
send {PERSON:first} twenty pounds for the pizza
venmo {PERSON:full} fifteen dollars for lunch
mr {PERSON:last} from next door said the bins go out tonight
i'm {PERSON:first}'s mum
my manager {PERSON:full} wants the report by friday
put {PERSON:wordname}'s football match in the calendar for saturday
who's picking up {PERSON:first} today
add {PERSON:full} to the guest list
cancel my lunch with {PERSON:first}
did {PERSON:first} pay me back
{PERSON:wordname} and {PERSON:wordname} are sleeping over tonight
remind me {PERSON:last}'s retirement do is on friday
ask {PERSON:mword} if he wants to come fishing
find photos of {PERSON:first} from last christmas
show me the pictures {PERSON:fword} sent yesterday
""",
}

SN = {
"neg-public": """
who was {_hist}
how old is {_celeb}
how tall is {_celeb}
when is {_celeb}'s birthday
what year was {_celeb} born
play songs by {_musician}
play the new album by {_musician}
my favourite singer is {_musician}
i love {_musician}'s new song
is {_musician} touring this year
put on some {_musician}
my favourite actor is {_actor}
what films has {_actor} been in
who is {_actor} married to
is {_actor} still alive
who is the president of {_country}
tell me a fun fact about {_hist}
when was {_hist} born
how old was {_hist} when they died
what's {_musician}'s most popular song
""",
"neg-relations": """
call {_rel}
text {_rel} that i'm on my way
remind me to ring {_rel} tonight
tell {_rel} dinner's ready
ask {_rel} if they want pizza
what did {_rel} say
video call {_rel}
send {_rel} a photo of the kids
is {_rel} home yet
remind me it's {_rel}'s birthday next week
announce that dinner is ready
drop in on the kitchen
""",
"neg-health": """
what are the symptoms of {_cond}
is {_cond} contagious
how is {_cond} treated
what is {_med} used for
can you take {_med} on an empty stomach
what are the side effects of {_med}
can you drink alcohol with {_med}
what's a normal blood pressure for a {_genage} year old
how long does flu last
what's the difference between type one and type two diabetes
is it safe for a {_genage} year old to take ibuprofen
how much water should a {_genage} year old drink a day
how do you know if you have {_cond}
can dogs get {_cond}
what's the recommended dose of paracetamol for adults
what causes {_cond}
find a pharmacy open now
what's good for a sore throat
""",
"neg-numbers": """
set a timer for {_dur}
what's {_n} times {_n}
what's {_n} plus {_n}
wake me up at {_time}
set an alarm for {_time}
play track {_track}
turn to channel {_n}
is flight {_flight} on time
what time does flight {_flight} land
how much is {_product}
what's the price of {_product}
convert {_n} miles to kilometres
add {_small} eggs to the shopping list
what happened in {_year}
what's the score in the {_team} game
remind me in {_dur} to take the bread out
set the thermostat to {_temp} degrees
what's {_n} percent of {_n}
when's the next number {_n} bus
what platform does the {_time} to {_city} leave from
what's the square root of {_n}
how many days until christmas
how much is {_price} in euros
can i get the number {_small} meal with a large drink
how many episodes are in season {_small}
play {_song}
play {_song} on repeat
the final score was {_score}
volume {_small}
""",
"neg-objects": """
my dog is {_petage} is that old for a labrador
our cat is turning {_petage} next week
how old is the eiffel tower
the house was built in {_year} is it listed
my car is {_petage} years old should i replace it
this laptop is {_petage} years old is it worth upgrading
how old do you have to be to vote
at what age can a child sit in the front seat
what age do babies start walking
is it safe for a {_genage} year old to {_activity}
can a {_genage} year old {_activity}
what's a good bedtime for a {_genage} year old
how many hours of sleep does a {_genage} year old need
our boiler is {_petage} years old
""",
"neg-words": """
will it rain tomorrow
will it snow this weekend
mark this as read
mark all emails as read
is amber a gemstone
i hope it's sunny tomorrow
is it going to be a hot summer
what time is dawn tomorrow
what's the dawn chorus
can you chase up my parcel
split the bill {_small} ways
find parking near the station
what's a grace period on a credit card
how do i jack up a car
how do i prune a rose bush
is ivy bad for brick walls
play some summer hits
what's the difference between a brook and a stream
what time does the park close
is holly poisonous to dogs
what's the victoria line like this morning
what should i plant in april
what's the weather like in the dales this weekend
chase bank opening hours
""",
"neg-places": """
weather in {_city}
what's the weather in {_city} this weekend
how far is {_landmark}
how far is it from {_city} to {_city}
what time does {_biz} close
what time does {_biz} open on sundays
what's the phone number for {_biz}
is {_biz} open today
who lives at ten downing street
what's the address of the white house
how do i get to {_landmark}
what's the population of {_city}
what's the capital of {_country}
find a church near me
what time is friday prayer at the nearest mosque
what's the best gym near here
is the library open on sundays
directions to the nearest petrol station
how long does it take to drive to {_city}
""",
"neg-network": """
what is eight dot eight dot eight dot eight
is one dot one dot one dot one faster than google dns
what does one two seven dot zero dot zero dot one mean
how do i find my ip address
how do i reset my wifi password
what's a good password manager
how do i change my pin
my password isn't working
how do i make a strong password
what does i p stand for
restart the router
""",
"neg-misc": """
tell me a joke
read me the news
how long to boil an egg
turn off the lights in the kitchen
what's on the telly tonight
play some relaxing music
who wrote pride and prejudice
what's the speed of light
sing happy birthday
how do you spell necessary
what's the news in {_city}
how do i say thank you in {_language}
translate good morning into {_language}
start a {_dur} meditation
""",
}

WP = {
"forms": """
Name: {PERSON:full} | DOB: {DOB:full} | Phone: {PHONE}
Full name: {PERSON:full}; Email: {EMAIL}
First name: {PERSON:first}, Last name: {PERSON:last}, Age: {AGE:adult}
Address: {ADDRESS}
Billing address - {ADDRESS}
[2] Card no. {CARD}
[2] Card number: {CARD} exp 08/27
[4] IBAN: {IBAN}
[3] Beneficiary: {PERSON:full}, IBAN {IBAN}
[4] SSN: {SSN}
[3] Social Security #: {SSN}
DOB {DOB:full}
Date of birth: {DOB:full}
age: {AGE:adult}
Policy No: {ACCOUNT:policy}
Member ID {ACCOUNT:member}
Acct #{ACCOUNT:bank}
Customer ref: {ACCOUNT:customer}
Emergency contact: {PERSON:full} ({PHONE})
Medications: {HEALTH:meddose}, {HEALTH:meddose}
Conditions: {HEALTH:cond}
School: {LOCATION:school} | Child: {PERSON:first} ({AGE:school})
Employer: {LOCATION:work}
[2] Router IP: {IP}
[2] WiFi network: HomeNet_5G, password: {PIN:wifi}
Patient: {PERSON:full}, {AGE:elder}, {HEALTH:cond}
Contact: {PERSON:full} <{EMAIL}>
[2] {PERSON:full} | {EMAIL} | {PHONE}
Claim for {PERSON:full}, policy {ACCOUNT:policy}, DOB {DOB:adult}
New patient form - {PERSON:full}, born {DOB:full}, meds: {HEALTH:meddose}
Payee: {PERSON:full} / Acc: {ACCOUNT:bank}
Next of kin: {PERSON:full}, tel {PHONE}
[2] Guardian: {PERSON:ffull} | Mobile: {PHONE} | Email: {EMAIL}
""",
"chat": """
hey can u text me at {PHONE}
My number's {PHONE} if you need anything
Call {PERSON:first} on {PHONE}
Add {PERSON:full} to contacts, mobile {PHONE}
Save {PHONE} as {PERSON:first} work
what's {PERSON:full}'s number again?
Text {PERSON:wordname}: running late, be there by 6
new number, it's {PHONE} - save it!
Send the invoice to {EMAIL} please
my email is {EMAIL}
Email {PERSON:first} at {EMAIL} re: Saturday
[2] reach me at {EMAIL} or {PHONE}
update my email to {EMAIL}
pls send the tickets to {EMAIL}
Reset link should go to {EMAIL}
cc {EMAIL} on that
Hi, I'm {PERSON:full}, {AGE:adult}, from Leeds
[2] {PERSON:first} - the key safe code is {PIN:code}
[2] Send {PERSON:first} the wifi: {PIN:wifi}
[2] My card {CREDIT_CARD} was declined??
is {PHONE} your new number {PERSON:wordname}?
""",
"address": """
Ship to: {PERSON:full}, {ADDRESS}
[2] I live at {ADDRESS}.
new address is {ADDRESS} from the 1st
Directions to {ADDRESS}
Party at {PERSON:first}'s - {ADDRESS}, bring snacks
Deliver to {ADDRESS}, leave with {PERSON:first} next door
Change my home address to {ADDRESS}
Send the parcel to {ADDRESS}, not the old address
my mum's place is {ADDRESS}
taxi to {ADDRESS} at 7pm
We've moved! New address: {ADDRESS}
Return address: {ADDRESS}
Office: {ADDRESS}
""",
"payment": """
[2] pay with {CARD}
[2] Use card {CARD} for the renewal
[2] Save card {CARD}, name {PERSON:full}
[3] Transfer 250 EUR to {IBAN} (ref: rent March)
[4] Landlord IBAN is {IBAN}
[3] please pay into {IBAN} by Friday
My account no is {ACCOUNT:bank}
[2] sorry wrong card, the right one is {CARD}
[3] IBAN for {PERSON:full}: {IBAN}
[3] set up monthly transfer to {IBAN}
[2] Visa {CARD:visa}
[2] amex: {CARD:amex}
[2] Card on file: {CARD}
[3] Refund to card {CARD} pls
[4] Can you check this IBAN? {IBAN}
[3] Bank details: {PERSON:full}, {IBAN}
""",
"identity": """
[4] my ssn is {SSN}
[3] {PERSON:first}'s SSN: {SSN}
[3] SSN for tax form - {SSN}
[3] social security number {SSN}
[3] put my social ({SSN}) on the application
My name is {PERSON:full}
I'm {PERSON:first}, nice to meet you
Signed, {PERSON:full}
[3] SSN {SSN}, DOB {DOB:adult}
[3] Employee {PERSON:full} - SSN {SSN}
""",
"birthday": """
Born {DOB:full}
my birthday is {DOB:md}!
{PERSON:first}'s bday is {DOB:md}
Add {PERSON:full} birthday {DOB:md} to calendar, repeat yearly
I was born on {DOB:adult}
Remind me: {PERSON:first}'s birthday {DOB:md}
her birthday's {DOB:md}, need to order a cake
DOB: {DOB:kid} (my son {PERSON:mfirst})
{PERSON:full}, DOB {DOB:full}
b'day {DOB:md}
my dad's birthday is on {DOB:day}
""",
"age": """
{PERSON:first}, {AGE:child}, has had a cough since Tuesday
my {AGE:child}-year-old won't stop coughing at night
I'm {AGE:adult}, is that too old to start running?
My son is {AGE:child} and needs new shoes
Looking for a gift for my brother, he's turning {AGE:adult}
Grandpa {PERSON:mfirst} turns {AGE:elder} on Sunday
our twins are {AGE:child} now
I am {AGE:adult} years old
my daughter ({AGE:teen}) wants a part-time job
a {AGE:adult}-year-old like me shouldn't be this tired
Gift ideas for {PERSON:ffirst}? She's {AGE:child}
I'm a {AGE:adult} y/o male, 6ft
{PERSON:first} ({AGE:child}) and {PERSON:first} ({AGE:child}) - swimming lessons Sat
Mum is {AGE:elder} and lives alone
{PERSON:full}, aged {AGE:adult}, joins the team on Monday
Travellers: {PERSON:full} (aged {AGE:adult}) and {PERSON:full} (aged {AGE:child})
my little brother is {AGE:teen} lol
""",
"network": """
[3] router is on {IP}
[2] can't ssh into {IP}, connection refused
[2] Add printer at {IP}
[2] my home server {IP} keeps dropping
[2] Block {IP} on the firewall
[2] point DNS at the pi-hole on {IP}
[2] camera IP: {IP}
[2] NAS at {IP}, admin pw {PIN:pw}
[2] my IP is {IP}
[2] why is {IP} showing as offline
[2] set static IP {IP} for the TV
[2] Pinging {IP}... request timed out
[2] static lease {IP} for {PERSON:first}'s laptop
""",
"account": """
Account number {ACCOUNT:bank}
My policy number is {ACCOUNT:policy}
Gym membership no. {ACCOUNT:member}
pay water bill, acct {ACCOUNT:customer}
Customer number: {ACCOUNT:customer}
library card {ACCOUNT:member}
car insurance policy {ACCOUNT:policy} renews in May
frequent flyer # {ACCOUNT:member}
Electric account {ACCOUNT:customer} - direct debit
""",
"secrets": """
[2] PIN is {PIN:pin}
[2] door code {PIN:code}
[2] wifi pw: {PIN:wifi}
[2] Password: {PIN:pw}
[2] the garage code is {PIN:code}, don't share it
[2] Remember: alarm code {PIN:code}
[2] Guest wifi password is {PIN:wifi}
[2] login {EMAIL} / pw {PIN:pw}
[2] new pin {PIN:pin}
[2] gate code for Nan's: {PIN:code}
""",
"health": """
I have {HEALTH:cond}
Started {HEALTH:meddose} today
Remind me to take {HEALTH:meddose} at 8am
{PERSON:first} has {HEALTH:cond}, please let the school know
mum's on {HEALTH:med} now
diagnosed with {HEALTH:cond} in 2019
pick up {PERSON:first}'s {HEALTH:med} prescription
my husband has {HEALTH:cond}
Kid has a {HEALTH:allergy} - no exceptions
took {HEALTH:meddose} at 10pm
{PERSON:mfirst} was diagnosed with {HEALTH:cond} yesterday
""",
"places": """
My husband works at {LOCATION:work}
Pick up {PERSON:first} from {LOCATION:school} at 3:15
Visit Nan at {LOCATION:care} Sat 2pm
{PERSON:first} is in {LOCATION:hosp}, ward 7
Choir practice at {LOCATION:worship} - Thurs 7:30
{PERSON:mfirst}'s training at {LOCATION:club} moved to Wednesday
I work at {LOCATION:work} as a receptionist
Class at {LOCATION:gym} 6am tomorrow
calendar: {PERSON:first} parents evening @ {LOCATION:school} 6pm
Mum ({PERSON:ffirst}) is at {LOCATION:care}, room 12, phone {PHONE}
my daughter {PERSON:ffirst} ({AGE:school}) goes to {LOCATION:school}
my wife is a doctor at {LOCATION:hosp}
Eid prayers at {LOCATION:worship} with {PERSON:mfirst} and the kids
""",
"mixed": """
[2] {PERSON:full}, {AGE:adult}, {ADDRESS}
[2] Patient: {PERSON:full} | DOB {DOB:full} | Dx: {HEALTH:cond} | Rx: {HEALTH:meddose}
[2] Acct {ACCOUNT:customer} - {PERSON:full}, {ADDRESS}
{PERSON:first} @ {LOCATION:work}, {PHONE}
[2] Visiting {PERSON:first} at {LOCATION:hosp} 2-4pm, ward phone {PHONE}
[2] Resident: {PERSON:ffull} ({AGE:elder}), {LOCATION:care}, meds: {HEALTH:med}
[3] Devices: laptop {IP}, printer {IP}
[2] Policy {ACCOUNT:policy} | Insured: {PERSON:full} | DOB {DOB:adult}
Member {ACCOUNT:member}, {PERSON:full}, {PHONE}
[2] Student: {PERSON:full}, DOB {DOB:kid}, School: {LOCATION:school}
[2] Delivery for {PERSON:full}, {ADDRESS}, tel {PHONE}
Hi {PERSON:first}, it's {PERSON:first} from {LOCATION:club} - call me on {PHONE}
{PERSON:first} ({AGE:child}) - {HEALTH:allergy}, inhaler in bag
[2] My address is {ADDRESS} and my DOB is {DOB:adult}
[2] ISP account {ACCOUNT:customer}, static IP {IP}
""",
"notes": """Meeting w/ {PERSON:full} @ 10
lunch with {PERSON:first} tmrw
Call Mrs {PERSON:last} re: the fence
Dr {PERSON:last} appointment Tue 9:40
Ask {PERSON:wordname} about the tickets
{PERSON:first} and {PERSON:first} arriving Friday
Happy birthday {PERSON:wordname}!
Remind me: {PERSON:first}'s recital Thursday
Note: {PERSON:full} owes me $40
{PERSON:first} picking kids up today
thank {PERSON:last} for the flowers
book table for 4 under {PERSON:last}
carpool: {PERSON:first}, {PERSON:first}, {PERSON:first}
{PERSON:fword} said she can't make it Saturday
""",
}

WN = {
"neg-written": """
Who was {_hist}?
play {_musician}
{_musician} tour dates 2025
What are the side effects of {_med}?
symptoms of {_cond} in adults
weather {_city} tomorrow
What time does {_biz} close today?
timer {_dur}
what's {_n} x {_n}
alarm {_time}
Is {_flight} delayed?
iPhone 15 Pro vs Pixel 8 - which has better battery?
Is it OK for a {_genage} year old to have caffeine?
final score {_score}
How old is the Colosseum?
my cat is {_petage}, is that old?
Will it rain on Saturday?
mark all as read
Is amber a gemstone or a resin?
who lives at 10 Downing Street
is 8.8.8.8 faster than 1.1.1.1?
what's 127.0.0.1
Add {_small} eggs and 2L milk to list
The Battle of Hastings was in 1066 right?
convert {_n} km to miles
how many calories in 100g rice
Play {_song}
call mom
text my sister I'm here
What is metformin used for?
how far is the Eiffel Tower from the Louvre
price of {_product} in the UK
{_price} x 3 = ?
set thermostat to {_temp} degrees
what year did {_hist} die
How do I reset my router password?
Room 204, checkout 11am
Is a {_petage}-year-old house worth renovating?
Can you explain what an IBAN is?
What's the format of a UK postcode?
how to find my IP address on Windows
Is 192.168.1.1 the default for most routers?
grace period for council tax?
Chase bank opening hours
summer holidays start when?
Victoria station to Gatwick - fastest train?
Dawn dish soap vs Fairy?
rose bush pruning tips
ivy on the fence, how to remove it?
Track {_track} on the album
channel {_n} schedule tonight
My grandma's birthday is soon, gift ideas?
What age do babies start walking?
Is 37.8 a fever?
What's the dosage of paracetamol for adults?
bus {_n} times
How tall is {_celeb}?
When was {_celeb} born?
{_team} vs {_team} score
{_n} x {_n} + {_n}
Can you summarize chapter {_small}?
Do I need a visa for {_country}?
how long is the flight to {_city}
Delivery window 2-4pm
Quote: {_small} x 2.4m fence panels
Samsung QE55Q80C reviews
Dyson V15 vs V12
Is a 1998 Honda Civic reliable?
Apollo 11 landing date
Remind me to call the dentist
Ask dad about the tickets
meeting with the landlord at 3
does the pharmacy have Ventolin in stock?
which is better for migraines, ibuprofen or paracetamol?
what's {_celeb}'s net worth
Best {_musician} songs of all time
is {_cond} hereditary?
can {_med} cause weight gain?
Order {_small} boxes of printer paper
directions to {_landmark}
what's the postcode for Buckingham Palace
Flight {_flight} gate change?
Train {_time} to {_city} - platform?
how old is {_celeb} now
{_actor} new movie release date
hey mum, running late, home by {_time}
""",
"neg-written2": """
Is a {_genage} year old allowed on the roller coaster?
Babysitting rates for a {_genage} year old?
what's a healthy weight for a {_genage} year old boy
Mark as done
Will and testament template UK
Park & Ride times
June bank holiday date?
faith schools near me
Joy-Con drift fix
Brooke Bond tea price
glen coe walking routes
how to pronounce Dale in Yorkshire Dales
Kerry Gold butter vs Lurpak
Is pi exactly 22/7?
2+2
lol ok see you at 8
password must be 8+ characters?
How do I change my Netflix PIN?
default gateway 192.168.0.1 not loading
what is ::1 in IPv6?
What does SSN stand for?
How long is a credit card number?
is my data safe with you?
Show me {_city} restaurants open now
Top 10 {_musician} albums
order status?
""",
}

# ------------------------------------------------------------------ fillers
HIST = ["Abraham Lincoln", "Marie Curie", "Queen Victoria", "Napoleon", "Cleopatra", "Julius Caesar", "Mahatma Gandhi",
        "Nelson Mandela", "Winston Churchill", "Albert Einstein", "Frida Kahlo", "Elvis Presley", "Princess Diana",
        "Martin Luther King", "Isaac Newton", "Florence Nightingale", "Mozart", "Harriet Tubman", "Ada Lovelace",
        "Genghis Khan", "Amelia Earhart"]
CELEB = ["Taylor Swift", "Adele", "Beyonce", "Serena Williams", "Lionel Messi", "Barack Obama", "King Charles",
         "Dolly Parton", "Ed Sheeran", "Shah Rukh Khan", "Harry Styles", "Oprah Winfrey", "David Attenborough",
         "Cristiano Ronaldo", "Lewis Hamilton", "Billie Eilish", "Keanu Reeves", "Tom Hanks", "Priyanka Chopra",
         "Jacinda Ardern", "Usain Bolt", "Simone Biles", "Rihanna", "Zendaya", "Virat Kohli", "Michelle Obama"]
MUSICIAN = ["Taylor Swift", "Adele", "Beyonce", "Ed Sheeran", "Dolly Parton", "Elvis Presley", "Harry Styles",
            "Billie Eilish", "Bad Bunny", "Elton John", "Stevie Wonder", "Kylie Minogue", "Rihanna", "Drake",
            "Ariana Grande", "Fleetwood Mac", "the Beatles", "Arijit Singh", "Burna Boy", "Olivia Rodrigo",
            "Coldplay", "Bruno Mars", "Shakira", "Lorde", "the Cranberries", "Kendrick Lamar"]
ACTOR = ["Tom Hanks", "Meryl Streep", "Keanu Reeves", "Priyanka Chopra", "Denzel Washington", "Judi Dench",
         "Shah Rukh Khan", "Zendaya", "Idris Elba", "Cate Blanchett", "Cillian Murphy", "Viola Davis"]
CITIES = ["Boston", "Chicago", "Leeds", "Manchester", "Dublin", "Cork", "Toronto", "Vancouver", "Sydney", "Melbourne",
          "Auckland", "Wellington", "Mumbai", "Bengaluru", "London", "Glasgow", "Phoenix", "Seattle", "Denver", "Paris",
          "Lagos", "Nairobi", "Tokyo", "Seoul", "Lisbon", "Galway", "Perth", "Christchurch", "Delhi", "Calgary"]
LANDMARKS = ["the Eiffel Tower", "the Grand Canyon", "Big Ben", "the Taj Mahal", "Niagara Falls", "Uluru",
             "the Golden Gate Bridge", "Stonehenge", "the Statue of Liberty", "Machu Picchu", "the Cliffs of Moher",
             "the Sydney Opera House"]
BIZ = ["Target", "Walmart", "Tesco", "Costco", "Boots", "Home Depot", "Sainsbury's", "Woolworths", "Aldi", "Lidl",
       "IKEA", "Starbucks", "the post office", "the DMV", "Walgreens", "Currys", "Argos", "Dunnes Stores",
       "Countdown", "Big W", "Trader Joe's", "Marks and Spencer"]
RELS = ["mom", "mum", "dad", "grandma", "my sister", "my brother", "my wife", "my husband", "my son", "my daughter",
        "auntie", "my boss", "the neighbours", "nana", "grandpa", "my mother in law", "my cousin", "uncle"]
TEAMS = ["Lakers", "Yankees", "Arsenal", "Liverpool", "Man United", "All Blacks", "Wallabies", "Leafs", "Celtics",
         "Chelsea", "Mumbai Indians", "Kerry"]
COUNTRIES = ["France", "Japan", "Brazil", "Canada", "Kenya", "India", "Portugal", "Vietnam", "Mexico", "Egypt",
             "Norway", "New Zealand", "Thailand", "Peru"]
LANGS = ["spanish", "french", "hindi", "mandarin", "japanese", "arabic", "german", "portuguese", "swahili", "irish",
         "maori", "korean", "tagalog", "polish"]
ACTIVITIES = ["use a booster seat", "stay home alone", "have a phone", "drink coffee", "ride a bike on the road",
              "watch a scary film", "go on a trampoline", "have a sleepover", "swim without armbands",
              "walk to school alone"]
GEN_COND = [c for c in COND if c[0] not in ("Type 2 diabetes", "an underactive thyroid")]
PRODUCTS = [("an iPhone 15", "an iphone fifteen"), ("a Galaxy S24", "a galaxy s twenty four"), ("a PS5", "a p s five"),
            ("a Roomba j7", "a roomba j seven"), ("a Dyson V15", "a dyson v fifteen"), ("a Kindle Paperwhite", "a kindle paperwhite"),
            ("an Xbox Series X", "an xbox series x"), ("a Pixel 8", "a pixel eight"), ("AirPods Pro", "airpods pro"),
            ("a Nintendo Switch", "a nintendo switch"), ("a 55 inch TV", "a fifty five inch tv")]
SONGS = [("867-5309/Jenny by Tommy Tutone", "eight six seven five three oh nine by tommy tutone"),
         ("634-5789 by Wilson Pickett", "six three four five seven eight nine by wilson pickett"),
         ("Call Me Maybe", "call me maybe"), ("Hotline Bling", "hotline bling"), ("Telephone by Lady Gaga", "telephone by lady gaga"),
         ("22 by Taylor Swift", "twenty two by taylor swift"), ("99 Luftballons", "ninety nine luftballons"),
         ("1999 by Prince", "nineteen ninety nine by prince"), ("7 Rings", "seven rings"), ("Summer of 69", "summer of sixty nine"),
         ("Jolene", "jolene"), ("Mambo No. 5", "mambo number five")]
FLIGHTS = [("BA 283", "b a two eight three"), ("UA902", "united nine oh two"), ("EI 105", "aer lingus one oh five"),
           ("QF1", "qantas one"), ("AI 131", "air india one three one"), ("NZ8", "air new zealand eight"),
           ("DL 44", "delta forty four"), ("FR 1902", "ryanair nineteen oh two"), ("AC 855", "air canada eight five five"),
           ("EK 7", "emirates seven")]


def _num_filler(lo, hi):
    def f(form):
        n = R.randint(lo, hi)
        return nw(n) if form == "s" else str(n)
    return f


def _time(form):
    h = R.randint(1, 12)
    m = pick([0, 15, 30, 45, 5, 20, 40])
    if form == "w":
        return pick([f"{h}:{m:02d}", f"{h}:{m:02d}pm", f"{h}am", f"{h}:{m:02d} am"]) if m else pick([f"{h}am", f"{h}pm", f"{h}:00"])
    if m == 0:
        return pick([f"{nw(h)} o'clock", f"{nw(h)} a m", f"{nw(h)} p m", f"{nw(h)} in the morning"])
    if m == 30 and chance(0.5):
        return f"half past {nw(h)}"
    if m == 15 and chance(0.5):
        return f"quarter past {nw(h)}"
    return f"{nw(h)} {('oh ' + nw(m)) if m < 10 else nw(m)}"


def _dur(form):
    a = pick([(5, "minute"), (10, "minute"), (25, "minute"), (90, "second"), (1, "hour"), (2, "hour"), (45, "minute"), (3, "minute"), (20, "minute")])
    n, u = a
    if form == "w":
        return pick([f"{n} {u}{'s' if n > 1 else ''}", f"{n} {u[:3]}"])
    return f"{'an' if (n == 1 and u == 'hour') else nw(n)} {u}{'s' if n > 1 else ''}"


def _year(form):
    y = pick([1066, 1776, 1815, 1914, 1929, 1945, 1963, 1969, 1989, 1990, 2001, 1912, 1888, 1956])
    if form == "w":
        return str(y)
    if y < 1900:
        return nw(y // 100) + " " + nw(y % 100)
    return year_words(y) if y >= 2000 else "nineteen " + nw(y % 100)


def _score(form):
    a, b = R.randint(0, 5), R.randint(0, 4)
    if form == "w":
        return f"{a}-{b}"
    return f"{nw(a)} {pick(['nil', 'nothing']) if b == 0 else nw(b)}"


def _price(form):
    n = R.randint(3, 250)
    if form == "w":
        return pick([f"${n}", f"\u00a3{n}", f"${n}.99", f"\u00a3{n}.50"])
    return pick([f"{nw(n)} dollars", f"{nw(n)} pounds", f"{nw(n)} quid"])


def _lst(lst):
    def f(form):
        v = pick(lst)
        return v if form == "w" else to_spoken(v)
    return f


def _pair(lst):
    def f(form):
        v = pick(lst)
        return v[0] if form == "w" else v[1]
    return f


def _cond(form):
    w, s = pick(GEN_COND)
    return w if form == "w" else (s or to_spoken(w))


FILL = {"_hist": _lst(HIST), "_celeb": _lst(CELEB), "_musician": _lst(MUSICIAN), "_actor": _lst(ACTOR),
        "_city": _lst(CITIES), "_landmark": _lst(LANDMARKS), "_biz": _lst(BIZ), "_rel": _lst(RELS),
        "_team": _lst(TEAMS), "_country": _lst(COUNTRIES), "_language": _lst(LANGS), "_activity": _lst(ACTIVITIES),
        "_cond": _cond, "_med": _lst([m for m in MEDS]), "_product": _pair(PRODUCTS), "_song": _pair(SONGS),
        "_flight": _pair(FLIGHTS), "_n": _num_filler(2, 99), "_small": _num_filler(2, 9), "_genage": _num_filler(2, 16),
        "_petage": _num_filler(2, 17), "_temp": _num_filler(16, 24), "_track": _num_filler(1, 14), "_time": _time, "_dur": _dur, "_year": _year, "_score": _score, "_price": _price}


# ================================================================ BUILD + VALIDATE
ALIAS = {"CARD": "CREDIT_CARD", "DOB": "DATE_OF_BIRTH", "IP": "IP_ADDRESS", "ACCOUNT": "ACCOUNT_NUMBER",
         "PIN": "PIN_OR_PASSWORD"}
TYPES = ["PERSON", "PHONE", "EMAIL", "ADDRESS", "CREDIT_CARD", "IBAN", "SSN", "DATE_OF_BIRTH", "AGE", "IP_ADDRESS",
         "ACCOUNT_NUMBER", "PIN_OR_PASSWORD", "HEALTH", "LOCATION"]
SLOT = re.compile(r"\{([A-Z_]+|_[a-z0-9]+)(?::([a-z0-9]+))?\}")
OUT_DIR = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(OUT_DIR, "pii-dev-d.jsonl")


def starts_vowel_sound(v):
    v = v.lower()
    if v[:1].isdigit():
        return v.startswith("8") or v in ("11", "18") or re.match(r"^(11|18)\d\d\d$", v) is not None
    return v[:1] in "aeio" or v.startswith("hour")


def render(tpl, form):
    CTX.clear()
    text = ""
    spans = []
    idx = 0
    for m in SLOT.finditer(tpl):
        lit = tpl[idx:m.start()]
        name, var = m.group(1), m.group(2)
        if name.startswith("_"):
            val = FILL[name](form)
            typ = None
        else:
            typ = ALIAS.get(name, name)
            val = GEN[typ](var)[form]
        if re.search(r"(^|\s)[aA] $", text + lit) and starts_vowel_sound(val):
            lit = lit[:-1] + "n "
            if lit == "n ":  # the 'a' sat in the previous chunk
                raise RuntimeError("article split across slots: " + tpl)
        text += lit
        if typ:
            spans.append({"start": len(text), "end": len(text) + len(val), "type": typ, "value": val})
        text += val
        idx = m.end()
    text += tpl[idx:]
    return text, spans


def is_spoken_ok(t):
    return re.fullmatch(r"[a-z']+( [a-z']+)*", t) is not None


def validate(rec, seen):
    t = rec["text"]
    errs = []
    if rec["form"] not in ("spoken", "written"):
        errs.append("form")
    if rec["form"] == "spoken" and not is_spoken_ok(t):
        errs.append("spoken charset/spacing: %r" % t)
    if t != t.strip() or "  " in t:
        errs.append("whitespace")
    if t in seen:
        errs.append("duplicate text")
    prev_end = -1
    for s in rec["spans"]:
        a, b, v = s["start"], s["end"], s["value"]
        if s["type"] not in TYPES:
            errs.append("type " + s["type"])
        if not (0 <= a < b <= len(t)) or t[a:b] != v:
            errs.append("offset mismatch %r" % v)
            continue
        if a < prev_end:
            errs.append("overlap/unsorted")
        prev_end = b
        if v != v.strip():
            errs.append("span whitespace %r" % v)
        if a > 0 and (t[a - 1].isalnum() or t[a - 1] == "_"):
            errs.append("left boundary %r in %r" % (v, t))
        if b < len(t) and (t[b].isalnum() or t[b] == "_"):
            errs.append("right boundary %r in %r" % (v, t))
        typ = s["type"]
        spoken = rec["form"] == "spoken"
        if typ == "CREDIT_CARD":
            d = parse_spoken(v) if spoken else re.sub(r"[ -]", "", v)
            if not (d.isdigit() and 13 <= len(d) <= 19 and luhn_ok(d)):
                errs.append("luhn %r" % v)
        elif typ == "IBAN":
            d = parse_spoken(v) if spoken else v.replace(" ", "").upper()
            if not iban_ok(d):
                errs.append("iban %r" % v)
        elif typ == "SSN":
            d = parse_spoken(v) if spoken else re.sub(r"[ -]", "", v)
            if not ssn_ok(d):
                errs.append("ssn %r" % v)
        elif typ == "AGE":
            if re.search(r"year|old", v):
                errs.append("age has unit")
        elif typ == "DATE_OF_BIRTH":
            if re.match(r"(born|on)\b", v):
                errs.append("dob prefix")
        elif typ == "PERSON":
            if v.endswith("'s"):
                errs.append("possessive inside person")
    return errs


def parse_block(block):
    return [ln.strip() for ln in block.strip().split("\n") if ln.strip()]


GOALS = {t: 70 for t in TYPES}
GOALS["PERSON"] = 300


def load_bucket(fams):
    tpls = []
    for fam, block in fams.items():
        for tpl in parse_block(block):
            w = 1
            mm = re.match(r"\[(\d)\] ", tpl)
            if mm:
                w, tpl = int(mm.group(1)), tpl[mm.end():]
            tpls.append((fam, tpl, w))
    return tpls


def make_rec(fam, tpl, form, seen):
    f = "s" if form == "spoken" else "w"
    for _ in range(6):
        text, spans = render(tpl, f)
        if text not in seen:
            rec = {"text": text, "form": form, "spans": spans, "source": "dev-d." + fam, "_tpl": tpl}
            errs = validate(rec, seen)
            if errs:
                raise SystemExit("VALIDATION FAILED (%s): %s" % (tpl, errs))
            return rec
    return None


def build_negatives(fams, form, target, seen):
    tpls = load_bucket(fams)
    if len(tpls) > target:
        raise SystemExit("more negative templates (%d) than target %d" % (len(tpls), target))
    recs, exhausted = [], set()
    order = list(range(len(tpls)))
    while len(recs) < target:
        R.shuffle(order)
        progress = False
        for i in order:
            if len(recs) >= target:
                break
            if i in exhausted:
                continue
            fam, tpl, _w = tpls[i]
            rec = make_rec(fam, tpl, form, seen)
            if rec is None:
                exhausted.add(i)
                continue
            seen.add(rec["text"])
            recs.append(rec)
            progress = True
        if not progress:
            raise SystemExit("negative bucket exhausted at %d/%d" % (len(recs), target))
    return recs


def build_positives(buckets, seen):
    """buckets: list of (fams, form, target). Every template is used at least once; the rest of each
    bucket is filled greedily from a candidate pool toward the per-type span goals."""
    counts = Counter()
    chosen = {}
    pools = {}
    uses = Counter()
    for fams, form, target in buckets:
        tpls = load_bucket(fams)
        if len(tpls) > target:
            raise SystemExit("more %s templates (%d) than target %d" % (form, len(tpls), target))
        chosen[form] = []
        pools[form] = []
        for fam, tpl, w in tpls:
            first = make_rec(fam, tpl, form, seen)
            seen.add(first["text"])
            chosen[form].append(first)
            uses[tpl] += 1
            for sp in first["spans"]:
                counts[sp["type"]] += 1
            for _ in range(8 + 2 * w):
                rec = make_rec(fam, tpl, form, seen | {first["text"]})
                if rec is not None:
                    pools[form].append(rec)
    targets = {form: target for _f, form, target in buckets}

    def score(rec):
        sc = 0.0
        for sp in rec["spans"]:
            g = GOALS[sp["type"]]
            sc += (g - counts[sp["type"]]) / g
        return sc - 0.06 * uses[rec["_tpl"]] + R.random() * 0.05

    while any(len(chosen[f]) < targets[f] for f in targets):
        form = max(targets, key=lambda f: (targets[f] - len(chosen[f])) / targets[f])
        cands = [r for r in pools[form] if r["text"] not in seen]
        if not cands:
            raise SystemExit("positive pool exhausted for " + form)
        best = max(cands, key=score)
        seen.add(best["text"])
        chosen[form].append(best)
        uses[best["_tpl"]] += 1
        for sp in best["spans"]:
            counts[sp["type"]] += 1
    out = []
    for f in targets:
        out.extend(chosen[f])
    return out


def build():
    seen = set()
    recs = build_positives([(SP, "spoken", 468), (WP, "written", 312)], seen)
    recs += build_negatives(SN, "spoken", 252, seen)
    recs += build_negatives(WN, "written", 168, seen)
    shapes = {r["_tpl"] for r in recs}
    R.shuffle(recs)
    return recs, shapes


def main():
    recs, shapes = build()
    lines = []
    seen = set()
    counts = Counter()
    for i, r in enumerate(recs, 1):
        errs = validate(r, seen)
        if errs:
            raise SystemExit("VALIDATION FAILED: %s" % errs)
        seen.add(r["text"])
        out = {"id": "pii-dev-d-%05d" % i, "text": r["text"], "form": r["form"], "spans": r["spans"], "source": r["source"]}
        for s in r["spans"]:
            counts[s["type"]] += 1
        lines.append(json.dumps(out, ensure_ascii=False))
    with open(OUT, "w", encoding="utf-8") as fh:
        fh.write("\n".join(lines) + "\n")
    # re-read and re-validate from disk
    seen = set()
    n = 0
    for ln in open(OUT, encoding="utf-8"):
        r = json.loads(ln)
        errs = validate(r, seen)
        if errs:
            raise SystemExit("VALIDATION FAILED on reread: %s" % errs)
        seen.add(r["text"])
        n += 1
    neg = sum(1 for r in recs if not r["spans"])
    spoken = sum(1 for r in recs if r["form"] == "spoken")
    print("wrote %s: %d lines, all validated" % (OUT, n))
    print("distinct sentence shapes (templates used): %d" % len(shapes))
    print("no-span lines: %d (%.1f%%)" % (neg, 100.0 * neg / n))
    print("spoken: %d (%.1f%%)  written: %d (%.1f%%)" % (spoken, 100.0 * spoken / n, n - spoken, 100.0 * (n - spoken) / n))
    print("total spans: %d" % sum(counts.values()))
    for t in TYPES:
        print("  %-16s %d" % (t, counts[t]))
    low = [t for t in TYPES if counts[t] < 55]
    if low:
        raise SystemExit("types under 55 spans: %s" % low)


if __name__ == "__main__":
    main()
