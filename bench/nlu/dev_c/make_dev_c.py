#!/usr/bin/env python3
"""Build /tmp/dev-c/pii-dev-c.jsonl -- a hand-templated PII dev set for a
smart-speaker assistant.  Standard library only, fixed seed 9031.

Every line is assembled from a hand-written carrier sentence ("template") and
generated values; offsets are computed while assembling and every line is
validated before it is written.
"""
import json
import os
import random
import re
import sys
import unicodedata
from collections import Counter, defaultdict

SEED = 9031
rng = random.Random(SEED)
OUT_DIR = '/tmp/dev-c'
OUT = os.path.join(OUT_DIR, 'pii-dev-c.jsonl')
README = os.path.join(OUT_DIR, 'README.md')

N_LINES = 1000
N_POS_SPOKEN, N_POS_WRITTEN = 420, 230
N_NEG_SPOKEN, N_NEG_WRITTEN = 230, 120

# ---------------------------------------------------------------- numbers
ONES = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight',
        'nine', 'ten', 'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen',
        'sixteen', 'seventeen', 'eighteen', 'nineteen']
TENS_W = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy',
          'eighty', 'ninety']
DW = ONES[:10]
ORD = [None, 'first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh',
       'eighth', 'ninth', 'tenth', 'eleventh', 'twelfth', 'thirteenth',
       'fourteenth', 'fifteenth', 'sixteenth', 'seventeenth', 'eighteenth',
       'nineteenth', 'twentieth', 'twenty first', 'twenty second',
       'twenty third', 'twenty fourth', 'twenty fifth', 'twenty sixth',
       'twenty seventh', 'twenty eighth', 'twenty ninth', 'thirtieth',
       'thirty first']
MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July',
          'August', 'September', 'October', 'November', 'December']


def nw(n):
    """Cardinal number in words (0..99999)."""
    if n < 20:
        return ONES[n]
    if n < 100:
        return TENS_W[n // 10] + ('' if n % 10 == 0 else ' ' + ONES[n % 10])
    if n < 1000:
        h, r = divmod(n, 100)
        s = ONES[h] + ' hundred'
        if r:
            s += rng.choice([' and ', ' ']) + nw(r)
        return s
    th, r = divmod(n, 1000)
    s = nw(th) + ' thousand'
    if r:
        s += (' and ' if r < 100 else ' ') + nw(r)
    return s


def speak_digits(s, double=True, oh=None):
    """Digit string -> words, with oh/zero and double/triple runs."""
    if oh is None:
        oh = rng.random() < 0.6
    out = []
    i = 0
    while i < len(s):
        c = s[i]
        j = i
        while j < len(s) and s[j] == c:
            j += 1
        run = j - i
        w = ('oh' if oh else 'zero') if c == '0' else DW[int(c)]
        if double and run == 3 and rng.random() < 0.5:
            out.append('triple ' + w)
            i = j
            continue
        if double and run >= 2 and rng.random() < 0.4:
            out.append('double ' + w)
            i += 2
            continue
        out.append(w)
        i += 1
    return ' '.join(out)


def pair_ok(p):
    """A two-digit chunk that can be read as a pair without ambiguity."""
    return p[0] != '0' and (p[1] != '0' or p == '10')


def speak_pair(p):
    if p[0] == '0':
        return ('oh ' if rng.random() < 0.8 else 'zero ') + DW[int(p[1])]
    return nw(int(p))


def speak_four(s):
    """Four digits read the way people read phone endings / PINs."""
    if s[2:] == '00' and s[0] != '0' and s[1] != '0':
        return nw(int(s[:2])) + ' hundred'
    if pair_ok(s[:2]) and (pair_ok(s[2:]) or s[2] == '0' and s[3] != '0'):
        return speak_pair(s[:2]) + ' ' + speak_pair(s[2:])
    return speak_digits(s)


def speak_year(y):
    if y < 2000:
        a, b = divmod(y, 100)
        return nw(a) + ' ' + (speak_pair(f'{b:02d}') if b else 'hundred')
    if y == 2000:
        return 'two thousand'
    if y < 2010:
        return rng.choice(['two thousand and ', 'two thousand ']) + ONES[y - 2000]
    return rng.choice(['twenty ', 'two thousand and ', 'two thousand ']) + nw(y - 2000)


def rdigits(n):
    return ''.join(str(rng.randint(0, 9)) for _ in range(n))


# ---------------------------------------------------------------- spoken parser (validation)
P_DIG = {'zero': '0', 'oh': '0', 'one': '1', 'two': '2', 'three': '3', 'four': '4',
         'five': '5', 'six': '6', 'seven': '7', 'eight': '8', 'nine': '9'}
P_TEEN = {w: str(i) for i, w in enumerate(ONES) if i >= 10}
P_TENS = {w: str(i) for i, w in enumerate(TENS_W) if w}
NATO_W = {'A': 'alpha', 'B': 'bravo', 'C': 'charlie', 'D': 'delta', 'E': 'echo',
          'F': 'foxtrot', 'G': 'golf', 'H': 'hotel', 'I': 'india', 'J': 'juliet',
          'K': 'kilo', 'L': 'lima', 'M': 'mike', 'N': 'november', 'O': 'oscar',
          'P': 'papa', 'Q': 'quebec', 'R': 'romeo', 'S': 'sierra', 'T': 'tango',
          'U': 'uniform', 'V': 'victor', 'W': 'whiskey', 'X': 'xray',
          'Y': 'yankee', 'Z': 'zulu'}
P_NATO = {v: k for k, v in NATO_W.items()}
P_NATO.update({'alfa': 'A', 'juliett': 'J', 'whisky': 'W'})


def parse_spoken(s):
    toks = s.split()
    out = ''
    i = 0
    while i < len(toks):
        t = toks[i]
        if t in ('double', 'triple') and i + 1 < len(toks) and toks[i + 1] in P_DIG:
            out += P_DIG[toks[i + 1]] * (2 if t == 'double' else 3)
            i += 2
            continue
        if t in P_DIG:
            out += P_DIG[t]
        elif t in P_TEEN:
            out += P_TEEN[t]
        elif t in P_TENS:
            if i + 1 < len(toks) and toks[i + 1] in P_DIG and toks[i + 1] not in ('zero', 'oh'):
                out += P_TENS[t] + P_DIG[toks[i + 1]]
                i += 1
            else:
                out += P_TENS[t] + '0'
        elif t == 'hundred':
            out += '00'
        elif t in P_NATO:
            out += P_NATO[t]
        elif len(t) == 1 and 'a' <= t <= 'z':
            out += t.upper()
        elif t in ('plus', 'dash', 'hyphen'):
            pass
        else:
            out += '?'
        i += 1
    return out


# ---------------------------------------------------------------- checks
def luhn_ok(num):
    s = 0
    for i, ch in enumerate(reversed(num)):
        d = int(ch)
        if i % 2 == 1:
            d *= 2
            if d > 9:
                d -= 9
        s += d
    return s % 10 == 0


def luhn_digit(payload):
    for c in '0123456789':
        if luhn_ok(payload + c):
            return c
    raise ValueError


def iban_num(s):
    return int(''.join(str(int(ch, 36)) for ch in s))


def iban_make(cc, bban):
    chk = 98 - iban_num(bban + cc + '00') % 97
    return f'{cc}{chk:02d}{bban}'


def iban_ok(iban):
    return iban_num(iban[4:] + iban[:4]) % 97 == 1


IBAN_LEN = {'GB': 22, 'DE': 22, 'FR': 27, 'NL': 18, 'ES': 24, 'IE': 22, 'IT': 27,
            'BE': 16, 'AT': 20}


def ssn_ok(d):
    if not re.fullmatch(r'\d{9}', d):
        return False
    a, g, s = d[:3], d[3:5], d[5:]
    return a not in ('000', '666') and a[0] != '9' and g != '00' and s != '0000'


# ---------------------------------------------------------------- text helpers
def to_spoken(s):
    s = s.replace('ø', 'o').replace('Ø', 'O').replace('ı', 'i')
    s = unicodedata.normalize('NFKD', s)
    s = ''.join(c for c in s if not unicodedata.combining(c))
    s = s.replace('&', ' and ').lower().replace('-', ' ').replace('/', ' ')
    s = re.sub(r"[^a-z' ]", '', s)
    return re.sub(r'\s+', ' ', s).strip()


def pick_pair(item, form):
    """item is 'Written' or ('Written', 'spoken')."""
    if isinstance(item, tuple):
        w, s = item
        return w if form == 'w' else (s if s else to_spoken(w))
    return item if form == 'w' else to_spoken(item)


# ---------------------------------------------------------------- names
FIRST = """priya arjun aisha rohan ananya vikram deepa sanjay kavya rahul meera imran
farhan lakshmi nikhil wei mei hiroshi yuki jun minji haruto kenji hana jia takeshi
linh bao thanh chidi amara kwame ngozi tunde folake sipho thandiwe kofi abena emeka
zainab oluwaseun adaeze tendai alejandro lucia mateo sofia diego valentina javier
carmen luis ximena guadalupe rafael paloma jose dmitri olga katarzyna piotr svetlana
nikola milena bogdan irina tomasz anastasia vesna bjorn astrid sigrid lars ingrid
freya mikkel saga eirik linnea omar fatima yusuf layla khalid mariam hamza noor
tariq salma siobhan niamh ciaran aoife padraig sinead oisin caoimhe declan roisin
amelie etienne camille luc margaux theo celine benoit giulia marco francesca
giovanni chiara luca alessandro beatrice emre elif mehmet zeynep burak ayse can
selin rose hope will mark grace jack bill faith summer dawn joy april june holly
ivy penny robin amber ruby sunny chase hunter sage sam joanna jo tom sarah mike
emily dave karen josh hannah ben lisa kevin megan chris nicole tyler brenda doug
gary linda maureen walter eleanor harold dorothy zoe""".split()
LAST = """patel raman sharma khan iyer chowdhury menon nguyen tanaka kim wang chen
park sato okafor mensah adeyemi nkosi mwangi diallo garcia hernandez rodriguez
morales silva kowalski petrov novak ivanova horvat lindqvist johansson haugen
nielsen haddad mansour farouk o'brien murphy mccarthy kelly byrne dubois lefevre
moreau rossi bianchi esposito romano yilmaz demir kaya smith johnson baker
thompson walker hughes foster bell stone young price fox king hill wood""".split()

FEMALE = set("""priya aisha ananya deepa kavya meera lakshmi mei yuki minji hana jia linh amara ngozi
folake thandiwe abena zainab adaeze lucia sofia valentina carmen ximena guadalupe paloma olga
katarzyna svetlana milena irina anastasia vesna astrid sigrid ingrid freya saga linnea fatima layla
mariam noor salma siobhan niamh aoife sinead caoimhe roisin amelie camille margaux celine giulia
francesca chiara beatrice elif zeynep ayse selin rose hope grace faith summer dawn joy april june
holly ivy penny amber ruby joanna jo sarah emily karen hannah lisa megan nicole brenda linda maureen
eleanor dorothy zoe""".split())
MALE = set("""arjun rohan vikram sanjay rahul imran farhan nikhil hiroshi haruto kenji takeshi chidi
kwame tunde sipho kofi emeka alejandro mateo diego javier luis rafael jose dmitri piotr nikola bogdan
tomasz bjorn lars mikkel eirik omar yusuf khalid hamza tariq ciaran padraig oisin declan etienne luc
theo benoit marco giovanni luca alessandro emre mehmet burak can will mark jack bill chase hunter tom
mike dave josh ben kevin tyler doug gary walter harold""".split())
assert FEMALE <= set(FIRST) and MALE <= set(FIRST) and not FEMALE & MALE
WNAME = {'bjorn': 'Bjørn', 'siobhan': 'Siobhán', 'sinead': 'Sinéad', 'padraig': 'Pádraig',
         'oisin': 'Oisín', 'roisin': 'Róisín', 'amelie': 'Amélie', 'etienne': 'Étienne',
         'celine': 'Céline', 'benoit': 'Benoît', 'ayse': 'Ayşe', 'zoe': 'Zoë',
         'jose': 'José', 'lucia': 'Lucía', 'minji': 'Min-ji', "o'brien": "O'Brien",
         'mccarthy': 'McCarthy', 'lefevre': 'Lefèvre', 'yilmaz': 'Yılmaz'}


def wname(key):
    return WNAME.get(key, key[0].upper() + key[1:])


# ---------------------------------------------------------------- value generators
# Each generator gets ctx and returns the surface string for ctx['form'].

def pick_name(pool, ctx):
    for _ in range(50):
        k = rng.choice(pool)
        if k not in ctx['used']:
            ctx['used'].add(k)
            return k
    return k


def person_surface(key, ctx):
    if ctx['form'] == 's':
        return key
    w = ' '.join(wname(p) for p in key.split(' '))
    if ctx['casual'] and rng.random() < 0.6:
        w = w.lower()
    return w


def g_first(ctx):
    f = pick_name(FIRST, ctx)
    ctx['persons'].append((f, None))
    ctx['last_person'] = f
    return person_surface(f, ctx)


def g_first_of(pool):
    pool = sorted(pool)

    def g(ctx, full=False):
        f = pick_name(pool, ctx)
        if full:
            l = pick_name(LAST, ctx)
            ctx['persons'].append((f, l))
            ctx['last_person'] = l
            return person_surface(f + ' ' + l, ctx)
        ctx['persons'].append((f, None))
        ctx['last_person'] = f
        return person_surface(f, ctx)
    return g


g_ff = g_first_of(FEMALE)
g_fm = g_first_of(MALE)


def g_last(ctx):
    l = pick_name(LAST, ctx)
    ctx['persons'].append((None, l))
    ctx['last_person'] = l
    return person_surface(l, ctx)


def g_full(ctx):
    f = pick_name(FIRST, ctx)
    l = pick_name(LAST, ctx)
    ctx['persons'].append((f, l))
    ctx['last_person'] = l
    return person_surface(f + ' ' + l, ctx)


def g_person(ctx):
    return g_full(ctx) if rng.random() < 0.3 else g_first(ctx)


def g_spell(ctx):
    key = (ctx['last_person'] or rng.choice(LAST)).replace("'", '')
    if ctx['form'] == 's':
        return ' '.join(key)
    return rng.choice(['-', ' ', '. ']).join(c.upper() for c in key).rstrip()


# ---- phone
def g_phone(ctx, kind=None):
    s = ctx['form'] == 's'
    if kind is None:
        kind = rng.choices(['us', 'uk_m', 'uk_l', 'ie', 'au', 'us7'], [38, 20, 8, 17, 13, 4])[0]
    if kind in ('us', 'us7'):
        a = str(rng.randint(2, 9)) + f'{rng.randint(0, 99):02d}'
        e = str(rng.randint(2, 9)) + f'{rng.randint(0, 99):02d}'
        l4 = rdigits(4)
        if rng.random() < 0.15:
            l4 = str(rng.randint(1, 9)) + str(rng.randint(1, 9)) + '00'
        if kind == 'us7':
            if s:
                return speak_digits(e) + ' ' + (speak_four(l4) if rng.random() < 0.5 else speak_digits(l4))
            return rng.choice([f'{e}-{l4}', f'{e} {l4}', f'{e}\u2013{l4}'])
        if s:
            last = speak_four(l4) if rng.random() < 0.35 else speak_digits(l4)
            pre = rng.choice(['', '', '', '', 'one ', 'plus one '])
            return pre + speak_digits(a) + ' ' + speak_digits(e) + ' ' + last
        return rng.choice([f'({a}) {e}-{l4}', f'{a}-{e}-{l4}', f'{a}.{e}.{l4}',
                           f'+1 {a} {e} {l4}', f'+1 ({a}) {e}-{l4}', f'{a} {e} {l4}',
                           f'{a}\u2013{e}\u2013{l4}', f'{a}{e}{l4}', f'+1\u00a0{a}\u00a0{e}\u00a0{l4}',
                           f'{a}\u2011{e}\u2011{l4}', f'1-{a}-{e}-{l4}', f'{a}\u2212{e}\u2212{l4}'])
    if kind == 'uk_m':
        d3, d6 = rdigits(3), rdigits(6)
        if s:
            if rng.random() < 0.3:
                return 'plus four four seven ' + speak_digits(d3) + ' ' + speak_digits(d6[:3]) + ' ' + speak_digits(d6[3:])
            return speak_digits('07' + d3) + ' ' + speak_digits(d6[:3]) + ' ' + speak_digits(d6[3:])
        return rng.choice([f'07{d3} {d6}', f'+44 7{d3} {d6}', f'+44 (0)7{d3} {d6}', f'07{d3}{d6}',
                           f'+447{d3}{d6}', f'07{d3}\u00a0{d6[:3]}\u00a0{d6[3:]}', f'+44\u00a07{d3}\u00a0{d6}'])
    if kind == 'uk_l':
        code, mid = rng.choice([('020', rng.choice(['7946', '8123', '3318', '7031'])),
                                ('0161', '496'), ('0113', '496'), ('0117', '496'), ('0131', '496')])
        end = rdigits(4 if code != '020' else 4)
        if s:
            return speak_digits(code) + ' ' + speak_digits(mid) + ' ' + speak_digits(end)
        if rng.random() < 0.3:
            return f'+44 {code[1:]} {mid} {end}'
        return f'{code} {mid} {end}'
    if kind == 'ie':
        p = '8' + rng.choice('35679')
        d7 = rdigits(7)
        if s:
            if rng.random() < 0.35:
                return 'plus three five three ' + speak_digits(p) + ' ' + speak_digits(d7[:3]) + ' ' + speak_digits(d7[3:])
            return speak_digits('0' + p) + ' ' + speak_digits(d7[:3]) + ' ' + speak_digits(d7[3:])
        return rng.choice([f'0{p} {d7[:3]} {d7[3:]}', f'+353 {p} {d7[:3]} {d7[3:]}', f'(0{p}) {d7[:3]}-{d7[3:]}',
                           f'+353 (0){p} {d7}', f'0{p}\u2011{d7[:3]}\u2011{d7[3:]}', f'+353{p}{d7}',
                           f'+353 {p} {d7[:3]} {d7[3:]}', f'+353\u00a0{p}\u00a0{d7}'])
    # au
    d8 = rdigits(8)
    if s:
        if rng.random() < 0.35:
            return 'plus six one four ' + speak_digits(d8[:2]) + ' ' + speak_digits(d8[2:5]) + ' ' + speak_digits(d8[5:])
        return speak_digits('04' + d8[:2]) + ' ' + speak_digits(d8[2:5]) + ' ' + speak_digits(d8[5:])
    return rng.choice([f'04{d8[:2]} {d8[2:5]} {d8[5:]}', f'+61 4{d8[:2]} {d8[2:5]} {d8[5:]}',
                       f'+61 4 {d8[:4]} {d8[4:]}', f'04{d8}', f'+61\u00a04{d8[:2]}\u00a0{d8[2:5]}\u00a0{d8[5:]}'])


def g_phone_intl(ctx, kind=None):
    for _ in range(60):
        v = g_phone(ctx, kind or rng.choice(['uk_m', 'ie', 'au']))
        if v.startswith('+') or v.startswith('plus'):
            return v
    return v


# ---- email
DOMAINS = ['gmail.com'] * 6 + ['yahoo.com', 'outlook.com', 'outlook.com', 'hotmail.com', 'icloud.com',
                              'hotmail.co.uk', 'proton.me', 'aol.com', 'live.ie', 'eircom.net',
                              'bigpond.com', 'yahoo.co.uk', 'btinternet.com', 'gmx.de', 'orange.fr',
                              'brightwave.io', 'hendersoncole.com', 'northfield.edu', 'kestrel-design.co',
                              'mail.com', 'yahoo.ca', 'web.de']
DOMSPK = {'gmx': 'g m x', 'aol': 'a o l', 'btinternet': 'b t internet', 'io': 'i o', 'ie': 'i e',
          'de': 'd e', 'fr': 'f r', 'uk': 'u k', 'edu': 'e d u', 'ca': 'c a',
          'hendersoncole': 'henderson cole', 'brightwave': 'brightwave', 'bigpond': 'big pond',
          'icloud': 'i cloud', 'kestrel-design': 'kestrel dash design'}
NICKS = ['sunnyday', 'bookworm', 'gardenlover', 'skater', 'bluejay', 'nightowl', 'coffeefan',
         'tigerlily', 'moonwalker', 'pixel', 'greenthumb', 'runner', 'dreamer', 'starfish',
         'lazycat', 'mumof', 'bakerboy', 'fishingfan']
NICK_SPK = {'sunnyday': 'sunny day', 'bookworm': 'book worm', 'gardenlover': 'garden lover',
            'bluejay': 'blue jay', 'nightowl': 'night owl', 'coffeefan': 'coffee fan',
            'tigerlily': 'tiger lily', 'moonwalker': 'moon walker', 'greenthumb': 'green thumb',
            'starfish': 'star fish', 'lazycat': 'lazy cat', 'mumof': 'mum of', 'bakerboy': 'baker boy',
            'fishingfan': 'fishing fan'}


def _num_piece():
    k = rng.random()
    if k < 0.45:
        return str(rng.randint(11, 99))
    if k < 0.65:
        return str(rng.randint(1960, 2012))
    if k < 0.8:
        return str(rng.randint(1, 9))
    return rng.choice(['123', '007', '01', '22', '99'])


def _speak_num_piece(n):
    if len(n) == 2 and pair_ok(n) and rng.random() < 0.7:
        return nw(int(n))
    if len(n) == 4 and rng.random() < 0.6:
        return speak_year(int(n))
    return speak_digits(n)


def g_email(ctx):
    s = ctx['form'] == 's'
    f = l = None
    if ctx['persons'] and rng.random() < 0.6:
        f, l = ctx['persons'][-1]
    f = (f or rng.choice(FIRST)).replace("'", '')
    l = (l or rng.choice(LAST)).replace("'", '')
    pat = rng.choice(['f.l', 'f.l', 'fl', 'f_l', 'il', 'f.l#', 'f#', 'l.f', 'nick#', 'f-l', 'i.l', 'fl#'])
    pieces = []  # (kind, written, spoken)

    def W(x, spk=None):
        pieces.append(('w', x, spk or x))

    def S(c):
        pieces.append(('s', c, {'.': 'dot', '_': 'underscore', '-': rng.choice(['dash', 'hyphen'])}[c]))

    def N():
        n = _num_piece()
        pieces.append(('n', n, _speak_num_piece(n)))

    if pat == 'f.l':
        W(f); S('.'); W(l)
    elif pat == 'fl':
        W(f + l, f + ' ' + l)
    elif pat == 'f_l':
        W(f); S('_'); W(l)
    elif pat == 'il':
        W(f[0] + l, f[0] + ' ' + l)
    elif pat == 'f.l#':
        W(f); S('.'); W(l); N()
    elif pat == 'f#':
        W(f); N()
    elif pat == 'l.f':
        W(l); S('.'); W(f)
    elif pat == 'nick#':
        nk = rng.choice(NICKS)
        W(nk, NICK_SPK.get(nk, nk)); N()
    elif pat == 'f-l':
        W(f); S('-'); W(l)
    elif pat == 'i.l':
        W(f[0], f[0]); S('.'); W(l)
    else:
        W(f + l, f + ' ' + l); N()
    dom = rng.choice(DOMAINS)
    if pat in ('f.l', 'il', 'i.l') and rng.random() < 0.3:
        dom = rng.choice(['hendersoncole.com', 'brightwave.io', 'northfield.edu', 'kestrel-design.co'])
    local_w = ''.join(p[1] for p in pieces)
    if s:
        mode = rng.choices(['plain', 'spell', 'nato'], [74, 16, 10])[0]
        out = []
        for k, w, sp in pieces:
            if k == 'w' and mode == 'spell':
                out.append(' '.join(w))
            elif k == 'w' and mode == 'nato' and len(w) <= 8:
                out.append(' '.join(NATO_W[c.upper()] for c in w))
            else:
                out.append(sp)
        dspk = ' dot '.join(DOMSPK.get(lab, lab.replace('-', ' dash ')) for lab in dom.split('.'))
        return ' '.join(out) + ' at ' + dspk
    style = rng.choices(['plain', 'paren', 'bracket', 'words', 'caps'], [52, 16, 14, 10, 8])[0]
    if style == 'paren':
        return local_w + '(at)' + dom.replace('.', '(dot)')
    if style == 'bracket':
        return local_w + ' [at] ' + dom.replace('.', ' [dot] ')
    if style == 'words':
        return local_w.replace('.', ' dot ') + ' at ' + dom.replace('.', ' dot ')
    if style == 'caps':
        return '.'.join(x[:1].upper() + x[1:] for x in local_w.split('.')) + '@' + dom
    return local_w + '@' + dom


# ---- address
US_STREETS = ['Maple', 'Oak', 'Elm', 'Cedar', 'Willow', 'Birch', 'Pine', 'Walnut', 'Chestnut',
              'Hickory', 'Sycamore', 'Jefferson', 'Franklin', 'Park', 'Lake', 'Hillcrest',
              'Sunset', 'Meadow', 'Ridge', 'Church', 'Mill', 'Spring', 'Highland', 'Orchard',
              'River', 'Magnolia', 'Dogwood', 'Aspen']
US_SUF = [('Street', 'St'), ('Avenue', 'Ave'), ('Road', 'Rd'), ('Lane', 'Ln'), ('Drive', 'Dr'),
          ('Court', 'Ct'), ('Boulevard', 'Blvd'), ('Way', 'Way'), ('Place', 'Pl')]
US_CITIES = [('Springfield', 'IL', 'illinois', '627'), ('Austin', 'TX', 'texas', '787'),
             ('Portland', 'OR', 'oregon', '972'), ('Columbus', 'OH', 'ohio', '432'),
             ('Tucson', 'AZ', 'arizona', '857'), ('Brooklyn', 'NY', 'new york', '112'),
             ('Sacramento', 'CA', 'california', '958'), ('Savannah', 'GA', 'georgia', '314'),
             ('Boulder', 'CO', 'colorado', '803'), ('Duluth', 'MN', 'minnesota', '558'),
             ('Madison', 'WI', 'wisconsin', '537'), ('Raleigh', 'NC', 'north carolina', '276')]
UK_STREETS = ['Elm Grove', 'Church Road', 'High Street', 'Station Road', 'Victoria Road',
              'Kings Avenue', 'Mill Lane', 'Park Crescent', 'Albert Terrace', 'Queens Drive',
              'Manor Close', 'Brook Street', 'Chapel Lane', 'Ash Grove', 'Cavendish Road',
              'Hawthorn Close', 'Beech Way', 'Orchard Mews']
UK_TOWNS = [('Leeds', 'LS', 1, 29), ('Bristol', 'BS', 1, 16), ('Manchester', 'M', 1, 40),
            ('Glasgow', 'G', 1, 78), ('Cardiff', 'CF', 3, 24), ('Brighton', 'BN', 1, 3),
            ('Norwich', 'NR', 1, 14), ('York', 'YO', 10, 32), ('Sheffield', 'S', 1, 36),
            ('Nottingham', 'NG', 1, 11)]
IE_STREETS = ['Seaview Terrace', 'Main Street', 'Church Road', 'Ashgrove Park', 'Castle Street',
              'Riverside Drive', 'Oakwood Avenue', 'Marine Parade', 'Fairview Lawn',
              'Cherry Orchard Close', 'Glenview Heights']
IE_TOWNS = [('Salthill', 'Galway', 'galway', 'H91'), ('Ballincollig', 'Co. Cork', 'county cork', 'P31'),
            ('Douglas', 'Cork', 'cork', 'T12'), ('Rathmines', 'Dublin 6', 'dublin six', 'D06'),
            ('Drumcondra', 'Dublin 9', 'dublin nine', 'D09'), ('Castletroy', 'Limerick', 'limerick', 'V94'),
            ('Tramore', 'Co. Waterford', 'county waterford', 'X91'), ('Ennis', 'Co. Clare', 'county clare', 'V95')]
AU_STREETS = ['Wattle Road', 'Banksia Street', 'Eucalyptus Drive', 'Gum Tree Lane', 'Beach Road',
              'Ocean Street', 'Acacia Avenue', 'Jacaranda Crescent', 'Bottlebrush Court']
AU_TOWNS = [('Brunswick', 'VIC', 'victoria', '3056'), ('Parramatta', 'NSW', 'new south wales', '2150'),
            ('Fremantle', 'WA', 'western australia', '6160'), ('Toowong', 'QLD', 'queensland', '4066'),
            ('Glenelg', 'SA', 'south australia', '5045'), ('Newtown', 'NSW', 'new south wales', '2042'),
            ('Sandy Bay', 'TAS', 'tasmania', '7005')]
CA_STREETS = ['King Street West', 'Maple Avenue', 'Spadina Avenue', 'Robie Street', 'Elgin Street',
              'Kensington Road', 'Cedar Crescent', 'Bloor Street East', 'Birchmount Road']
CA_TOWNS = [('Toronto', 'ON', 'ontario', 'M5H'), ('Halifax', 'NS', 'nova scotia', 'B3H'),
            ('Vancouver', 'BC', 'british columbia', 'V6K'), ('Calgary', 'AB', 'alberta', 'T2N'),
            ('Ottawa', 'ON', 'ontario', 'K1S'), ('Winnipeg', 'MB', 'manitoba', 'R3M')]
UK_IN = 'ABDEFGHJLNPQRSTUWXYZ'
EIR = 'ACDEFHKNPRTVWXY0123456789'
CA_L = 'ABCEGHJKLMNPRSTVWXYZ'


def speak_house(n):
    if n < 100:
        return nw(n)
    if n < 1000:
        r = n % 100
        if r and rng.random() < 0.6 and (pair_ok(f'{r:02d}') or r < 10):
            return DW[n // 100] + ' ' + speak_pair(f'{r:02d}')
        return nw(n)
    t = str(n)
    if t[2:] == '00':
        return nw(int(t[:2])) + ' hundred'
    return nw(int(t[:2])) + ' ' + (speak_pair(t[2:]) if t[2] == '0' else nw(int(t[2:])))


def spell_code(code):
    out = []
    for c in code:
        if c == ' ':
            continue
        out.append(DW[int(c)] if c.isdigit() else c.lower())
    return ' '.join(out)


def g_address(ctx, street_only=False):
    s = ctx['form'] == 's'
    c = rng.choices(['us', 'uk', 'ie', 'au', 'ca'], [40, 22, 15, 12, 11])[0]
    full = not street_only and rng.random() < 0.75
    if c == 'us':
        num = rng.choice([rng.randint(2, 99), rng.randint(100, 999), rng.randint(1000, 9999)])
        st = rng.choice(US_STREETS)
        suf_full, suf_abbr = rng.choice(US_SUF)
        unit = rng.choice([None, None, None, str(rng.randint(1, 30)) + rng.choice(['', 'A', 'B', 'C'])])
        city, stc, stn, zp = rng.choice(US_CITIES)
        zipc = zp + rdigits(2)
        if s:
            out = f'{speak_house(num)} {st.lower()} {suf_full.lower()}'
            if unit:
                out += ' ' + rng.choice(['apartment', 'apt', 'unit', 'suite']) + ' ' + (
                    nw(int(re.sub(r'\D', '', unit))) + ((' ' + unit[-1].lower()) if unit[-1].isalpha() else ''))
            if full:
                out += f' {city.lower()} {stn}' + (' ' + speak_digits(zipc) if rng.random() < 0.7 else '')
            return out
        out = f'{num} {st} {rng.choice([suf_full, suf_abbr, suf_abbr])}'
        if unit:
            out += rng.choice([f', Apt {unit}', f' #{unit}', f', Unit {unit}', f' Apt. {unit}'])
        if full:
            out += rng.choice([f', {city}, {stc} {zipc}', f', {city} {stc} {zipc}', f', {city}, {stc}'])
        return out.lower() if ctx['casual'] and rng.random() < 0.5 else out
    if c == 'uk':
        num = rng.randint(1, 180)
        st = rng.choice(UK_STREETS)
        flat = rng.randint(1, 12) if rng.random() < 0.25 else None
        town, area, lo, hi = rng.choice(UK_TOWNS)
        pc = f'{area}{rng.randint(lo, hi)} {rng.randint(1, 9)}{rng.choice(UK_IN)}{rng.choice(UK_IN)}'
        if s:
            out = (f'flat {nw(flat)} ' if flat else '') + f'{speak_house(num)} {st.lower()}'
            if full:
                out += f' {town.lower()}' + (' ' + spell_code(pc) if rng.random() < 0.75 else '')
            return out
        out = (f'Flat {flat}, ' if flat else '') + f'{num} {st}'
        if full:
            out += rng.choice([f', {town} {pc}', f', {town}, {pc}', f'\n{town} {pc}'.replace('\n', ', ')])
        return out.lower() if ctx['casual'] and rng.random() < 0.5 else out
    if c == 'ie':
        num = rng.randint(1, 120)
        st = rng.choice(IE_STREETS)
        area, county, cspk, key = rng.choice(IE_TOWNS)
        eir = key + ' ' + ''.join(rng.choice(EIR) for _ in range(4))
        if s:
            out = f'{speak_house(num)} {st.lower()}'
            if full:
                out += f' {area.lower()} {cspk}' + (' ' + spell_code(eir) if rng.random() < 0.5 else '')
            return out
        out = f'{num} {st}'
        if full:
            out += rng.choice([f', {area}, {county} {eir}', f', {area}, {county}', f', {area}, {county}, {eir}'])
        return out
    if c == 'au':
        num = rng.randint(1, 250)
        st = rng.choice(AU_STREETS)
        unit = rng.randint(1, 20) if rng.random() < 0.25 else None
        sub, stc, stn, pc = rng.choice(AU_TOWNS)
        if s:
            out = (f'unit {nw(unit)} ' if unit else '') + f'{speak_house(num)} {st.lower()}'
            if full:
                out += f' {sub.lower()} {stn} ' + speak_digits(pc)
            return out
        out = (f'{unit}/' if unit else '') + f'{num} {st}'
        if full:
            out += rng.choice([f', {sub} {stc} {pc}', f', {sub}, {stc} {pc}'])
        return out
    num = rng.randint(1, 400)
    st = rng.choice(CA_STREETS)
    city, pr, prn, fsa = rng.choice(CA_TOWNS)
    pc = f'{fsa} {rng.randint(0, 9)}{rng.choice(CA_L)}{rng.randint(0, 9)}'
    if s:
        out = f'{speak_house(num)} {st.lower()}'
        if full:
            out += f' {city.lower()} {prn}' + (' ' + spell_code(pc) if rng.random() < 0.7 else '')
        return out
    out = f'{num} {st}'
    if full:
        out += rng.choice([f', {city}, {pr} {pc}', f', {city} {pr} {pc}', f', {city}, {pr}\u00a0{pc}'])
    return out


# ---- credit card
def cc_digits():
    kind = rng.choices(['visa', 'mc', 'mc2', 'amex', 'disc'], [45, 25, 8, 14, 8])[0]
    if kind == 'visa':
        pre, n = '4', 16
    elif kind == 'mc':
        pre, n = str(rng.randint(51, 55)), 16
    elif kind == 'mc2':
        pre, n = str(rng.randint(2221, 2720)), 16
    elif kind == 'amex':
        pre, n = rng.choice(['34', '37']), 15
    else:
        pre, n = '6011', 16
    payload = pre + rdigits(n - 1 - len(pre))
    return payload + luhn_digit(payload)


def cc_groups(d):
    if len(d) == 15:
        return [d[:4], d[4:10], d[10:]]
    return [d[i:i + 4] for i in range(0, 16, 4)]


def g_card(ctx):
    d = cc_digits()
    g = cc_groups(d)
    if ctx['form'] == 's':
        parts = []
        for x in g:
            if len(x) == 4 and rng.random() < 0.2:
                parts.append(speak_four(x))
            else:
                parts.append(speak_digits(x))
        return ' '.join(parts)
    sep = rng.choices([' ', '-', '', '\u00a0', '\u2013'], [55, 18, 17, 6, 4])[0]
    return sep.join(g)


# ---- IBAN
def es_dc(bank, branch, acct):
    w = [1, 2, 4, 8, 5, 10, 9, 7, 3, 6]

    def d(s10):
        v = 11 - sum(int(c) * wi for c, wi in zip(s10, w)) % 11
        return 0 if v == 11 else (1 if v == 10 else v)
    return f"{d('00' + bank + branch)}{d(acct)}"


IT_ODD = [1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24, 23]


def it_cin(s22):
    tot = 0
    for i, ch in enumerate(s22):
        v = int(ch) if ch.isdigit() else ord(ch) - 65
        tot += IT_ODD[v] if i % 2 == 0 else v
    return chr(65 + tot % 26)


def iban_raw():
    cc = rng.choices(['GB', 'DE', 'FR', 'NL', 'ES', 'IE', 'IT', 'BE', 'AT'], [16, 16, 12, 12, 10, 14, 9, 7, 4])[0]
    if cc == 'GB':
        bban = rng.choice(['NWBK', 'BARC', 'LOYD', 'MIDL', 'HBUK', 'NAIA']) + rdigits(14)
    elif cc == 'DE':
        bban = rng.choice(['1', '2', '3', '5', '7']) + rdigits(17)
    elif cc == 'FR':
        bank, branch, acct = rdigits(5), rdigits(5), rdigits(11)
        key = 97 - ((89 * int(bank) + 15 * int(branch) + 3 * int(acct)) % 97)
        bban = bank + branch + acct + f'{key:02d}'
    elif cc == 'NL':
        bban = rng.choice(['ABNA', 'INGB', 'RABO', 'TRIO', 'SNSB', 'KNAB']) + rdigits(10)
    elif cc == 'ES':
        bank, branch, acct = rdigits(4), rdigits(4), rdigits(10)
        bban = bank + branch + es_dc(bank, branch, acct) + acct
    elif cc == 'IE':
        bban = rng.choice(['AIBK', 'BOFI', 'IPBS', 'ULSB']) + rdigits(14)
    elif cc == 'IT':
        rest = rdigits(5) + rdigits(5) + rdigits(12)
        bban = it_cin(rest) + rest
    elif cc == 'BE':
        first10 = rdigits(10)
        chk = int(first10) % 97 or 97
        bban = first10 + f'{chk:02d}'
    else:
        bban = rdigits(16)
    return iban_make(cc, bban)


def g_iban(ctx):
    ib = iban_raw()
    if ctx['form'] == 's':
        nato = rng.random() < 0.2

        def letter(c):
            return NATO_W[c] if nato else c.lower()
        out = [letter(ib[0]), letter(ib[1])]
        out.append(speak_pair(ib[2:4]) if pair_ok(ib[2:4]) and rng.random() < 0.5 else speak_digits(ib[2:4]))
        rest = ib[4:]
        for i in range(0, len(rest), 4):
            g = rest[i:i + 4]
            if g.isdigit():
                out.append(speak_four(g) if len(g) == 4 and rng.random() < 0.2 else speak_digits(g))
            else:
                out.append(' '.join(letter(c) if c.isalpha() else speak_digits(c) for c in g))
        return ' '.join(out)
    st = rng.choices(['grp', 'flat', 'nbsp'], [65, 28, 7])[0]
    if st == 'flat':
        return ib
    sep = ' ' if st == 'grp' else '\u00a0'
    return sep.join(ib[i:i + 4] for i in range(0, len(ib), 4))


# ---- SSN
def g_ssn(ctx):
    while True:
        a = rng.randint(1, 899)
        if a != 666:
            break
    a = f'{a:03d}'
    g = f'{rng.randint(1, 99):02d}'
    sr = f'{rng.randint(1, 9999):04d}'
    if ctx['form'] == 's':
        ga = speak_pair(g) if pair_ok(g) and rng.random() < 0.5 else speak_digits(g)
        sa = speak_four(sr) if rng.random() < 0.25 else speak_digits(sr)
        return f'{speak_digits(a)} {ga} {sa}'
    return rng.choices([f'{a}-{g}-{sr}', f'{a} {g} {sr}', f'{a}{g}{sr}', f'{a}\u2013{g}\u2013{sr}',
                        f'{a}.{g}.{sr}', f'{a}\u2212{g}\u2212{sr}'], [56, 15, 12, 8, 4, 5])[0]


# ---- date of birth
def mdays(y, m):
    if m == 2:
        return 29 if (y % 4 == 0 and (y % 100 != 0 or y % 400 == 0)) else 28
    return 30 if m in (4, 6, 9, 11) else 31


def suffix(d):
    if 10 <= d % 100 <= 20:
        return 'th'
    return {1: 'st', 2: 'nd', 3: 'rd'}.get(d % 10, 'th')


def g_dob(ctx, with_year=None):
    y = rng.randint(1938, 2004) if rng.random() < 0.8 else rng.randint(2005, 2021)
    m = rng.randint(1, 12)
    d = rng.randint(1, mdays(y, m))
    if with_year is None:
        with_year = rng.random() < 0.55
    mon = MONTHS[m - 1]
    if ctx['form'] == 's':
        ml = mon.lower()
        if with_year:
            sy = speak_year(y)
            return rng.choices([f'{ml} {ORD[d]} {sy}', f'{ORD[d]} of {ml} {sy}', f'{ml} {nw(d)} {sy}',
                                f'{ml} the {ORD[d]} {sy}',
                                f'{speak_pair(f"{m:02d}")} {speak_pair(f"{d:02d}")} {speak_pair(f"{y % 100:02d}")}'],
                               [40, 30, 12, 10, 8])[0]
        return rng.choice([f'{ml} {ORD[d]}', f'{ORD[d]} of {ml}', f'{ml} the {ORD[d]}', f'{ml} {nw(d)}'])
    if with_year:
        opts = [f'{m:02d}/{d:02d}/{y}', f'{d:02d}/{m:02d}/{y}', f'{d} {mon} {y}', f'{mon} {d}, {y}',
                f'{mon} {d}{suffix(d)}, {y}', f'{y}-{m:02d}-{d:02d}', f'{d:02d}.{m:02d}.{y}',
                f'{m}/{d}/{y % 100:02d}', f'{d}{suffix(d)} {mon} {y}', f'{d}{suffix(d)} of {mon} {y}',
                f'{mon[:3]} {d} {y}', f'{d:02d}-{m:02d}-{y}', f'{d}\u00a0{mon}\u00a0{y}', f'{d}-{mon[:3]}-{y}']
    else:
        opts = [f'{mon} {d}{suffix(d)}', f'{d} {mon}', f'{d}{suffix(d)} of {mon}', f'{mon} {d}',
                f'{d}{suffix(d)} {mon}', f'{mon[:3]} {d}']
    out = rng.choice(opts)
    return out.lower() if ctx['casual'] and rng.random() < 0.4 else out


# ---- age
def g_age(ctx, lo=18, hi=64):
    n = rng.randint(lo, hi)
    return nw(n) if ctx['form'] == 's' else str(n)


# ---- IP
def ip4():
    k = rng.random()
    if k < 0.5:
        return [192, 168, rng.choice([0, 1, 1, 1, 2, 4, 10, 50, 86, 100, 178]), rng.randint(2, 254)]
    if k < 0.72:
        return [10, rng.randint(0, 30), rng.randint(0, 255), rng.randint(2, 254)]
    if k < 0.86:
        return [172, rng.randint(16, 31), rng.randint(0, 255), rng.randint(2, 254)]
    return [rng.choice([81, 86, 92, 109, 151, 176, 203, 45, 62, 88, 37, 213]), rng.randint(1, 254),
            rng.randint(0, 255), rng.randint(1, 254)]


def speak_octet(n):
    if n < 100:
        return nw(n) if rng.random() < 0.8 else speak_digits(str(n))
    r = n % 100
    if rng.random() < 0.35 and pair_ok(f'{r:02d}'):
        return DW[n // 100] + ' ' + speak_pair(f'{r:02d}')
    return speak_digits(str(n), double=False)


def g_ip(ctx):
    o = ip4()
    if ctx['form'] == 's':
        return ' dot '.join(speak_octet(x) for x in o)
    return '.'.join(map(str, o))


def hex4():
    return format(rng.randint(1, 0xffff), 'x')


def g_ip6(ctx):
    if rng.random() < 0.55:
        groups = ['fe80', '', hex4(), hex4(), hex4(), hex4()]
    else:
        groups = ['2001', 'db8', hex4(), '', hex4(), hex4()]
    w = ':'.join(groups)
    if ctx['form'] == 's':
        out = []
        for gp in groups:
            out.append(' '.join(DW[int(c)] if c.isdigit() else c for c in gp) if gp else '')
        sp = ' colon '.join(out)
        return re.sub(r'\s+', ' ', sp.replace('colon  colon', 'double colon')).strip()
    return w


# ---- account numbers
def g_account(ctx, bank_only=False):
    kind = 'bank' if bank_only else rng.choice(['bank', 'cust', 'pol', 'mem', 'util', 'cust2', 'pol2', 'mem2'])
    if kind == 'bank':
        n = rng.choice([8, 8, 10, 12])
        chunks = [('D', rdigits(n))]
        if n > 8 and rng.random() < 0.4:
            d = chunks[0][1]
            chunks = [('D', d[:4]), ('D', d[4:8]), ('D', d[8:])]
    elif kind == 'cust':
        chunks = [('L', rng.choice(['CX', 'CN', 'AC', 'CU'])), ('D', rdigits(7))]
    elif kind == 'cust2':
        chunks = [('D', rdigits(3)), ('D', rdigits(3)), ('D', rdigits(3))]
    elif kind == 'pol':
        chunks = [('L', rng.choice(['POL', 'HX', 'PLY', 'MTR'])), ('D', rdigits(4)), ('D', rdigits(4))]
    elif kind == 'pol2':
        chunks = [('L', rng.choice(['A', 'K', 'H'])), ('D', rdigits(8))]
    elif kind == 'mem':
        chunks = [('L', 'M'), ('D', '00' + rdigits(5))]
    elif kind == 'mem2':
        chunks = [('D', rdigits(4)), ('D', rdigits(4)), ('D', rdigits(2))]
    else:
        chunks = [('D', rdigits(4)), ('D', rdigits(4)), ('D', rdigits(2))]
        chunks.insert(0, ('L', rng.choice(['EL', 'GS', 'WT'])))
    if ctx['form'] == 's':
        out = []
        for i, (k, v) in enumerate(chunks):
            if i and rng.random() < 0.12:
                out.append('dash')
            if k == 'L':
                out.append(' '.join(v.lower()))
            else:
                out.append(speak_four(v) if len(v) == 4 and rng.random() < 0.2 else speak_digits(v))
        return ' '.join(out)
    sep = rng.choice(['-', ' ', '', '-'])
    if all(k == 'D' for k, _ in chunks) and sep == '':
        sep = ' '
    return sep.join(v for _, v in chunks)


# ---- PINs and passwords
PW_WORDS = ['bluefish', 'sunflower', 'maple', 'tigerlily', 'rocket', 'pancake', 'starlight',
            'dragon', 'marmalade', 'penguin', 'thunder', 'copper', 'velvet', 'lemon', 'nebula',
            'cactus', 'harbor', 'falcon', 'biscuit', 'kiwi', 'mango', 'galaxy', 'otter', 'walrus']
PW_SPK = {'bluefish': 'blue fish', 'tigerlily': 'tiger lily', 'starlight': 'star light'}


def g_pin(ctx):
    n = rng.choices([4, 6, 5, 8], [70, 20, 6, 4])[0]
    d = rdigits(n)
    if ctx['form'] == 's':
        if n == 4 and rng.random() < 0.3:
            return speak_four(d)
        if n == 6 and rng.random() < 0.3:
            return ' '.join(speak_pair(d[i:i + 2]) if pair_ok(d[i:i + 2]) else speak_digits(d[i:i + 2])
                            for i in (0, 2, 4))
        return speak_digits(d)
    return d


def g_pw(ctx):
    w1, w2, w3 = rng.sample(PW_WORDS, 3)
    num = rng.choice([str(rng.randint(10, 99)), str(rng.randint(1980, 2024)), str(rng.randint(1, 9)), '123'])
    if ctx['form'] == 's':
        sn = _speak_num_piece(num)
        sp1 = PW_SPK.get(w1, w1) if rng.random() < 0.5 else w1
        pat = rng.choice(['wn', 'cap', 'three', 'sym', 'us', 'wn'])
        if pat == 'wn':
            return f'{sp1} {sn}'
        if pat == 'cap':
            return f'capital {w1[0]} {w1} {sn}'
        if pat == 'three':
            return f'{w1} {w2} {w3}'
        if pat == 'sym':
            sym = rng.choice(['exclamation mark', 'exclamation point', 'hashtag', 'at sign', 'dollar sign', 'star'])
            return f'{sp1} {sym} {sn}'
        return f'{w1} underscore {w2} {sn}'
    pat = rng.choice(['Wn', 'w!n', 'W_W_n', 'leet', 'rand', 'phrase', 'wn'])
    if pat == 'Wn':
        return w1.capitalize() + num
    if pat == 'w!n':
        return w1 + rng.choice('!#$@*') + num
    if pat == 'W_W_n':
        return w1.capitalize() + '_' + w2.capitalize() + '_' + num
    if pat == 'leet':
        t = w1.capitalize().replace('e', '3').replace('a', '4').replace('o', '0')
        return t + rng.choice('#!&') + num
    if pat == 'rand':
        al = 'abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789'
        r = rng.choice('abcdefghjkmnpqrstuvwxyz') + ''.join(rng.choice(al + '!#%') for _ in range(8)) + rng.choice('23456789')
        return r
    if pat == 'phrase':
        return f'{w1}-{w2}-{num}'
    return w1 + num


# ---- health
COND = [('asthma', None), ('type 2 diabetes', 'type two diabetes'), ('type 1 diabetes', 'type one diabetes'),
        ('high blood pressure', None), ('hypertension', None), ('migraines', None), ('epilepsy', None),
        ('ADHD', 'adhd'), ('depression', None), ('anxiety', None), ('COPD', 'copd'),
        ("Crohn's disease", None), ('coeliac disease', None), ('celiac disease', None),
        ('rheumatoid arthritis', None), ('arthritis', None), ('sleep apnea', None), ('dementia', None),
        ("Alzheimer's", None), ("Parkinson's", None), ('multiple sclerosis', None),
        ('long COVID', None), ('gout', None), ('kidney stones', None), ('psoriasis', None),
        ('eczema', None), ('hypothyroidism', None), ('atrial fibrillation', None),
        ('bipolar disorder', None), ('PTSD', 'ptsd'), ('IBS', 'i b s'), ('lupus', None), ('shingles', None),
        ('glaucoma', None), ('insomnia', None), ('endometriosis', None), ('osteoporosis', None),
        ('tinnitus', None), ('heart failure', None), ('chronic kidney disease', None), ('pneumonia', None),
        ('a herniated disc', None), ('fibromyalgia', None), ('sciatica', None)]
MEDS = ['metformin', 'lisinopril', 'insulin', 'Ventolin', 'albuterol', 'sertraline', 'levothyroxine',
        'atorvastatin', 'warfarin', 'amoxicillin', 'prednisone', 'Adderall', 'methotrexate', 'gabapentin',
        'omeprazole', 'Zoloft', 'Lexapro', 'donepezil', 'amlodipine', 'Ozempic', 'Eliquis', 'citalopram',
        'losartan', 'metoprolol', 'Ritalin', 'propranolol', 'tamoxifen', 'lithium', 'fluoxetine', 'Humira',
        'Symbicort', 'allopurinol', 'Keppra', 'Synthroid']


def g_cond(ctx):
    w = pick_pair(rng.choice(COND), ctx['form'])
    if ctx['form'] == 's' and w.startswith('a '):
        w = w[2:]
    if ctx['form'] == 'w' and w.startswith('a '):
        w = w[2:]
    return w


def g_med(ctx):
    return pick_pair(rng.choice(MEDS), ctx['form'])


# ---- named places tied to a person
SCHOOLS = ['Lincoln Elementary', 'Oakwood Primary School', "St Patrick's National School",
           'Riverside Middle School', 'Westfield Academy', 'Hillcrest High', 'Greenfield Montessori',
           'Maple Leaf Daycare', 'Little Acorns Nursery', 'Kingsbridge Secondary', 'Sacred Heart College',
           'Brookside Elementary', 'Scoil Bhríde', 'Jefferson Middle School', 'Saint Anne\'s Primary']
WORKS = ['Henderson & Cole', 'Brightwave Labs', 'Northside Depot', 'Kestrel Design', 'Harbourview Dental',
         'Alder Logistics', 'Pinecrest Insurance', 'Blue Lantern Café', 'Mackenzie Joinery',
         'Fenwick Accountants', 'Greenway Garden Centre', 'Okoro & Partners', 'Sundial Bakery']
HOSPS = ["St James's Hospital", 'Mercy General', 'Riverside Medical Centre', 'Elm Street Clinic',
         'the Royal Infirmary', 'Northgate Health Centre', 'Beaumont Hospital', 'Lakeview Physiotherapy',
         'Westbrook Dialysis Unit', "Eastfield Children's Hospital", 'Cedar Park Surgery',
         'St Vincent\'s Hospital']
CARES = ['Sunrise Meadows', 'Willowbrook Care Home', 'Maple Grove Nursing Home', 'Rosewood Lodge',
         'Heatherfield House', 'Oaklands Retirement Village', 'Cedar Ridge Assisted Living',
         'Ashford Court Care Home']
OTHERS = ["St Mary's Church", 'Grace Community Church', 'Al Noor Mosque', 'Sri Venkateswara Temple',
          'Iron Temple Gym', 'Riverside Swim Club', 'Eastside Boxing Club', 'Beth Shalom Synagogue',
          'Kingfisher Tennis Club', 'Harbor Rock Climbing Gym', 'Ballyfermot Community Centre',
          'Parkside Scout Hall', 'Holy Trinity Church', 'Westside CrossFit']


def place(lst):
    def g(ctx):
        p = rng.choice(lst)
        if ctx['form'] == 'w':
            return p.lower() if ctx['casual'] and rng.random() < 0.5 else p
        return to_spoken(p)
    return g


# ---------------------------------------------------------------- slot table
LAB = {
    'F': ('PERSON', g_first), 'L': ('PERSON', g_last), 'N': ('PERSON', g_full), 'P': ('PERSON', g_person),
    'SPELL': ('PERSON', g_spell),
    'FF': ('PERSON', g_ff), 'FM': ('PERSON', g_fm), 'NF': ('PERSON', lambda c: g_ff(c, True)),
    'NM': ('PERSON', lambda c: g_fm(c, True)), 'PH': ('PHONE', g_phone), 'PHI': ('PHONE', g_phone_intl),
    'PHIE': ('PHONE', lambda c: g_phone_intl(c, 'ie')), 'PHAU': ('PHONE', lambda c: g_phone_intl(c, 'au')),
    'PHUK': ('PHONE', lambda c: g_phone_intl(c, 'uk_m')), 'EM': ('EMAIL', g_email),
    'AD': ('ADDRESS', g_address), 'ADS': ('ADDRESS', lambda c: g_address(c, street_only=True)),
    'CC': ('CREDIT_CARD', g_card), 'IB': ('IBAN', g_iban), 'SSN': ('SSN', g_ssn),
    'DOB': ('DATE_OF_BIRTH', g_dob), 'DOBY': ('DATE_OF_BIRTH', lambda c: g_dob(c, True)),
    'DOBN': ('DATE_OF_BIRTH', lambda c: g_dob(c, False)),
    'AGE': ('AGE', g_age), 'KAGE': ('AGE', lambda c: g_age(c, 2, 17)), 'OAGE': ('AGE', lambda c: g_age(c, 66, 98)),
    'IP': ('IP_ADDRESS', g_ip), 'IP6': ('IP_ADDRESS', g_ip6),
    'ACC': ('ACCOUNT_NUMBER', g_account), 'BACC': ('ACCOUNT_NUMBER', lambda c: g_account(c, True)),
    'PIN': ('PIN_OR_PASSWORD', g_pin), 'PW': ('PIN_OR_PASSWORD', g_pw),
    'H': ('HEALTH', g_cond), 'MED': ('HEALTH', g_med),
    'SCH': ('LOCATION', place(SCHOOLS)), 'WORK': ('LOCATION', place(WORKS)),
    'HOSP': ('LOCATION', place([h for h in HOSPS if not h.startswith('the ')])),
    'CARE': ('LOCATION', place(CARES)), 'LOC': ('LOCATION', place(OTHERS)),
}

# ---------------------------------------------------------------- unlabelled slot material (negatives)
CELEBS = ['Taylor Swift', 'Adele', 'Beyoncé', 'Ed Sheeran', 'Drake', 'Abraham Lincoln', 'Barack Obama',
          'Albert Einstein', 'Serena Williams', 'Lionel Messi', 'Oprah Winfrey', 'Elon Musk',
          'William Shakespeare', 'Marie Curie', 'Nelson Mandela', 'Bad Bunny', 'Dolly Parton',
          'Frank Sinatra', 'Michael Jordan', 'LeBron James', 'Cristiano Ronaldo', 'Rihanna',
          'Billie Eilish', 'Morgan Freeman', 'Tom Hanks', 'Martin Luther King', 'Frida Kahlo',
          'Mahatma Gandhi', 'David Attenborough', 'Shah Rukh Khan', 'Agatha Christie', 'Mozart',
          'Beethoven', 'Will Smith', 'Grace Kelly', 'Jack Nicholson', 'Bill Gates', 'Dua Lipa',
          'Hozier', 'Sinéad O\'Connor', 'Kylian Mbappé', 'Naomi Osaka', 'BTS', 'Chimamanda Ngozi Adichie',
          'Bob Marley', 'Mark Twain', 'Robin Williams', 'Hope Solo', 'Harry Styles', 'Zendaya']
SINGERS = ['Taylor Swift', 'Adele', 'Beyoncé', 'Ed Sheeran', 'Drake', 'Bad Bunny', 'Dolly Parton',
           'Frank Sinatra', 'Rihanna', 'Billie Eilish', 'Dua Lipa', 'Hozier', "Sinéad O'Connor", 'BTS',
           'Bob Marley', 'Harry Styles', 'Burna Boy', 'Shakira', 'Celine Dion', 'Stevie Wonder',
           'Kendrick Lamar', 'Olivia Rodrigo', 'Garth Brooks', 'Faith Hill', 'Grace Jones', 'Rosalía',
           'Arijit Singh', 'Fela Kuti']
CITIES = ['Boston', 'Chicago', 'Dublin', 'Manchester', 'Sydney', 'Toronto', 'Lagos', 'Mumbai', 'Tokyo',
          'Berlin', 'Madrid', 'Cork', 'Melbourne', 'Nairobi', 'Lisbon', 'Seattle', 'Denver', 'Galway',
          'Edinburgh', 'Auckland', 'Phoenix', 'Leeds', 'Vancouver', 'Krakow', 'Istanbul', 'Seoul']
BIZ = ['Target', 'Costco', 'Tesco', 'Walmart', 'Starbucks', 'Aldi', 'Home Depot', 'the post office',
       'Boots', 'IKEA', "Trader Joe's", 'Lidl', 'Walgreens', "McDonald's", 'Dunnes Stores', 'Woolworths',
       'Best Buy', 'the DMV', 'Chase Bank', 'Wells Fargo']
LMS = ['the Eiffel Tower', 'the Grand Canyon', 'Big Ben', 'the Golden Gate Bridge', 'Niagara Falls',
       'the Cliffs of Moher', 'Uluru', 'the Space Needle', 'Stonehenge', 'Mount Rushmore', 'the CN Tower',
       'the Sydney Opera House', 'the Colosseum']
RELS = ['mom', 'mum', 'dad', 'my sister', 'my brother', 'grandma', 'grandpa', 'my wife', 'my husband',
        'my boss', 'my son', 'my daughter', 'nana', 'my aunt', 'my uncle', 'my cousin', 'the babysitter',
        'my landlord', 'my neighbour', 'my girlfriend', 'my boyfriend', 'my mother in law', 'granny']
TEAMS = ['the Lakers', 'Liverpool', 'the Yankees', 'Arsenal', 'the Packers', 'Man United', 'the Celtics',
         'Kerry', 'Leinster', 'the Warriors', 'Real Madrid', 'the Chiefs', 'the Maple Leafs', 'the Wallabies']
SONGS = [('Jenny 867-5309', 'jenny eight six seven five three oh nine'), ('867-5309', 'eight six seven five three oh nine'),
         ('99 Problems', 'ninety nine problems'), ("Summer of '69", 'summer of sixty nine'),
         ('1999 by Prince', 'nineteen ninety nine by prince'), ('22 by Taylor Swift', 'twenty two by taylor swift'),
         ('Amazing Grace', None), ('Hey Jude', None), ('Jolene', None), ('7 Rings', 'seven rings'),
         ('Mambo No. 5', 'mambo number five'), ('Take On Me', None), ('Dancing Queen', None),
         ('Beechwood 4-5789', 'beechwood four five seven eight nine'), ('Ode to Joy', None),
         ('Here Comes the Sun', None), ('Ruby Tuesday', None), ('Sweet Caroline', None),
         ('Mrs Robinson', 'mrs robinson'), ('Hit Me Baby One More Time', None), ('Zombie by the Cranberries', None),
         ('Waterloo', None), ('Hotline Bling', None), ('911 by Lady Gaga', 'nine one one by lady gaga'),
         ('19 by Adele', 'nineteen by adele'), ('4:44', 'four forty four'), ('Summertime Sadness', None)]
FLIGHTS = [('BA', 'b a', 'british airways'), ('UA', 'u a', 'united'), ('EI', 'e i', 'aer lingus'),
           ('QF', 'q f', 'qantas'), ('AA', 'a a', 'american'), ('DL', 'd l', 'delta'), ('FR', 'f r', 'ryanair'),
           ('LH', 'l h', 'lufthansa'), ('AC', 'a c', 'air canada'), ('EK', 'e k', 'emirates')]
MODELS = [('iPhone 15 Pro', 'iphone fifteen pro'), ('WH-1000XM5', 'w h one thousand x m five'),
          ('RTX 4090', 'r t x forty ninety'), ('Galaxy S24', 'galaxy s twenty four'),
          ('KDL-55W800C', 'k d l fifty five w eight hundred c'), ('Model 3', 'model three'), ('PS5', 'p s five'),
          ('Pixel 8a', 'pixel eight a'), ('Roomba j7', 'roomba j seven'), ('Dyson V15', 'dyson v fifteen'),
          ('Echo Dot 5th gen', 'echo dot fifth gen'), ('Series 9 watch', 'series nine watch'),
          ('ThinkPad X1 Carbon', 'thinkpad x one carbon'), ('Instant Pot Duo 7-in-1', 'instant pot duo seven in one'),
          ('Canon EOS R50', 'canon e o s r fifty'), ('Nintendo Switch OLED', 'nintendo switch o l e d')]
QTYS = [('350 grams of flour', 'three hundred and fifty grams of flour'), ('2 cups of sugar', 'two cups of sugar'),
        ('3/4 cup of milk', 'three quarters of a cup of milk'), ('a tablespoon of butter', None),
        ('200 ml of cream', 'two hundred mils of cream'), ('1.5 kg of chicken', 'one and a half kilos of chicken'),
        ('4 eggs', 'four eggs'), ('half a teaspoon of salt', None), ('500 g of pasta', 'five hundred grams of pasta'),
        ('2 sticks of butter', 'two sticks of butter'), ('8 oz of cheddar', 'eight ounces of cheddar')]
HISTY = [('1066', 'ten sixty six'), ('1776', 'seventeen seventy six'), ('1914', 'nineteen fourteen'),
         ('1969', 'nineteen sixty nine'), ('1989', 'nineteen eighty nine'), ('1916', 'nineteen sixteen'),
         ('1945', 'nineteen forty five'), ('1492', 'fourteen ninety two'), ('1066 AD', 'ten sixty six a d')]
HISTD = [('July 4, 1776', 'july fourth seventeen seventy six'),
         ('December 7, 1941', 'december seventh nineteen forty one'),
         ('9 November 1989', 'the ninth of november nineteen eighty nine'),
         ('June 6, 1944', 'june sixth nineteen forty four'), ('20 July 1969', 'july twentieth nineteen sixty nine'),
         ('14 July 1789', 'the fourteenth of july seventeen eighty nine'),
         ('April 15, 1912', 'april fifteenth nineteen twelve'), ('24 April 1916', 'april twenty fourth nineteen sixteen'),
         ('11/22/1963', 'november twenty second nineteen sixty three')]
FAMOUS = [('1600 Pennsylvania Avenue', 'sixteen hundred pennsylvania avenue'), ('10 Downing Street', 'ten downing street'),
          ('221B Baker Street', 'two twenty one b baker street'), ('350 Fifth Avenue', 'three fifty fifth avenue'),
          ('Buckingham Palace', None), ('4 Privet Drive', 'four privet drive'),
          ('742 Evergreen Terrace', 'seven four two evergreen terrace'), ('Abbey Road', None),
          ('Graceland', None), ('Áras an Uachtaráin', 'aras an uachtarain')]
PUBIPS = [('8.8.8.8', 'eight dot eight dot eight dot eight'), ('1.1.1.1', 'one dot one dot one dot one'),
          ('127.0.0.1', 'one two seven dot zero dot zero dot one'), ('9.9.9.9', 'nine dot nine dot nine dot nine'),
          ('8.8.4.4', 'eight dot eight dot four dot four'), ('0.0.0.0', 'zero dot zero dot zero dot zero'),
          ('255.255.255.0', 'two five five dot two five five dot two five five dot zero')]
PETS = ['dog', 'cat', 'parrot', 'hamster', 'tortoise', 'rabbit', 'goldfish', 'labrador', 'guinea pig']
OBJS = ['car', 'laptop', 'fridge', 'boiler', 'roof', 'washing machine', 'phone', 'tv', 'bike', 'piano',
        'sofa', 'dishwasher', 'mattress', 'van']
FOODS = ['rosemary', 'sage', 'basil', 'oat milk', 'bread', 'bananas', 'eggs', 'jack cheese', 'ruby grapefruit',
         'honey', 'dates', 'olives', 'chickpeas', 'paneer', 'kimchi', 'plantain', 'tortillas', 'rice']
WORDS = ['necessary', 'rhythm', 'mississippi', 'bureaucracy', 'onomatopoeia', 'definitely',
         'restaurant', 'conscientious', 'quinoa', 'worcestershire']
UTIL = ['water', 'phone', 'electric', 'gas', 'internet', 'council tax']


def nneg(lo, hi):
    def g(ctx):
        n = rng.randint(lo, hi)
        return nw(n) if ctx['form'] == 's' else str(n)
    return g


def listg(lst):
    def g(ctx):
        return pick_pair(rng.choice(lst), ctx['form'])
    return g


def g_time(ctx):
    h = rng.randint(1, 12)
    m = rng.choice([0, 0, 15, 30, 30, 45, 5, 10, 20, 40, 50])
    ap = rng.choice(['', '', 'am', 'pm'])
    if ctx['form'] == 's':
        apw = {'': '', 'am': ' a m', 'pm': ' p m'}[ap]
        if m == 0:
            return rng.choice([f"{nw(h)} o'clock", f'{nw(h)}{apw}' if apw else f"{nw(h)} o'clock"])
        if m == 30 and rng.random() < 0.4:
            return f'half past {nw(h)}'
        if m == 15 and rng.random() < 0.4:
            return f'quarter past {nw(h)}'
        return f'{nw(h)} {speak_pair(f"{m:02d}")}{apw}'
    if m == 0:
        return rng.choice([f'{h}{ap or "am"}', f'{h}:00{(" " + ap) if ap else ""}'])
    return f'{h}:{m:02d}' + ((' ' + ap) if ap else '')


def g_dur(ctx):
    k = rng.random()
    if k < 0.6:
        m = rng.randint(2, 95)
        return f'{nw(m)} minutes' if ctx['form'] == 's' else rng.choice([f'{m} minutes', f'{m} min', f'{m}m'])
    if k < 0.8:
        h = rng.randint(1, 3)
        m = rng.choice([10, 15, 20, 30, 45])
        if ctx['form'] == 's':
            return (('an hour' if h == 1 else nw(h) + ' hours') + f' and {nw(m)} minutes')
        return f'{h}h {m}m' if rng.random() < 0.5 else f'{h} hour{"s" if h > 1 else ""} {m} minutes'
    sec = rng.choice([30, 45, 90, 20])
    return f'{nw(sec)} seconds' if ctx['form'] == 's' else f'{sec} seconds'


def g_score(ctx):
    a, b = rng.randint(0, 6), rng.randint(0, 6)
    if rng.random() < 0.3:
        a, b = rng.randint(80, 130), rng.randint(80, 130)
    if ctx['form'] == 's':
        sa = nw(a)
        return rng.choice([f'{sa} {nw(b)}', f'{sa} to {nw(b)}']) if b else f'{sa} nil'
    return rng.choice([f'{a}-{b}', f'{a}\u2013{b}', f'{a} - {b}'])


def g_flight(ctx):
    code, letters, name = rng.choice(FLIGHTS)
    n = rng.randint(1, 2999)
    if ctx['form'] == 's':
        ns = nw(n) if n < 100 else (speak_digits(str(n)) if rng.random() < 0.5 else speak_house(n))
        return f'{rng.choice([letters, name])} {ns}'
    return rng.choice([f'{code}{n}', f'{code} {n}'])


def g_chan(ctx):
    n = rng.randint(2, 999)
    if ctx['form'] == 's':
        return nw(n) if n < 100 else speak_digits(str(n))
    return str(n)


def g_temp(ctx):
    n = rng.randint(16, 24) if rng.random() < 0.6 else rng.randint(62, 75)
    return f'{nw(n)} degrees' if ctx['form'] == 's' else rng.choice([f'{n} degrees', f'{n}°'])


NEG = {
    'celeb': listg(CELEBS), 'singer': listg(SINGERS), 'tod': nneg(1, 3), 'city': listg(CITIES), 'city2': listg(CITIES), 'biz': listg(BIZ),
    'lm': listg(LMS), 'rel': listg(RELS), 'team': listg(TEAMS), 'team2': listg(TEAMS), 'song': listg(SONGS),
    'model': listg(MODELS), 'model2': listg(MODELS), 'qty': listg(QTYS), 'hist': listg(HISTY),
    'histdate': listg(HISTD), 'famous': listg(FAMOUS), 'pubip': listg(PUBIPS), 'pet': listg(PETS),
    'obj': listg(OBJS), 'food': listg(FOODS), 'word': listg(WORDS), 'util': listg(UTIL),
    'cond': g_cond, 'med': g_med, 'n': nneg(2, 99), 'n2': nneg(2, 60), 'small': nneg(2, 16),
    'big': nneg(100, 400), 'trk': nneg(1, 18), 'time': g_time, 'dur': g_dur, 'score': g_score,
    'flight': g_flight, 'chan': g_chan, 'temp': g_temp, 'month': listg([m for m in MONTHS]),
}

# ================================================================ TEMPLATES
SPOKEN_POS = r"""
## phone-call
call {F} on {PH}
um can you call {PH}
dial {PH} please
hey add {NF} to my contacts her number is {PH}
save this number for {F} it's {PH}
okay so my new number is {PH}
{PH} that's my mum's mobile can you save it
could you ring {PH} for me dear
call {F} no wait call {F} on {PH}
who's {PH} they keep calling me
can you save {PH} as {F} from work
the babysitter's number is {PH} put it in my notes
i need to call {PH} back before five
remind me to call mister {L} at {PH} tomorrow morning
{F}'s number changed it's {PH} now
block {PH} they won't stop calling
if the school asks my cell is {PH}
send my location to {PH}
call {PH} on speaker
update {N}'s phone number to {PH}
tell {FF} to ring me on {PH} when she lands
send a text to {PH} saying running ten minutes late
my number is {PH} no sorry {PH}
uh the landlord said to call {PH} if the boiler breaks again
hello are you there could you please telephone my daughter {FF} her number is {PH} thank you
please you call to {F} number is {PH}
okay um so i need to save a number for {F} it's uh {PH} yeah that's it
add a second number for {FF} {PH} that's her work phone
what was the number {F} gave me oh right it's {PH}
it's {PH} if you need to reach me
put {PH} in as my emergency contact
my emergency contact is {N} on {PH}
call back {PH} the one that just rang
{PH} call it
the number for {F}'s mum is {PH} she's picking up the kids today
can you like save {PH} under {F} gym
## phone-intl
call {F} in ireland on {PHIE}
my brother's australian number is {PHAU}
## phone-dictate
text {F} saying hey it's me my new number is {PH}
message {F} my new work phone is {PH} save it
tell {NM} he can reach me on {PH} after six
send {F} a text saying call me back on {PH} not the old one
reply to {F} with my number {PH}
text {PH} the address is {ADS} see you at eight
## person
ring {N} please
call {F}'s mobile
video call {F}
text {F} and {F} that dinner's at seven
send a message to {F} saying i'm outside
remind me to ring {F} about the car insurance
tell {FF} i love her
send {F} a voice note saying happy anniversary
call my friend {N}
is {F} home yet
announce to {F} that dinner is ready
what's {N}'s phone number
where is {F} right now
share my eta with {F}
text {F} sorry i meant {F} that i'll be late
call {F} no i mean {F}
can you remind {F} to take the bins out
set up a meeting with {N} and {N} on thursday
did {F} reply to my message
read me the last message from {F}
call {L} from accounts
book a table for four under {L}
my name is {N}
i'm {F} by the way
this is {F} speaking can you add milk to the list
show me photos of {F} from last summer
add {F} to the group chat
when did i last talk to {F}
remind me that {F}'s coming over at six
um tell {F} like i'm gonna be late again
yo text {F} bro where are you
my last name is {L} {SPELL}
it's {F} spelled {SPELL}
the reservation is under {N} that's {SPELL}
my mother in law {FF} is staying with us this week
put {F}'s football match on the calendar for saturday
{F} and i are going to the cinema tonight add it to my calendar
call {FF} she's saved in my contacts under her surname {L}
play my playlist called {F}'s wedding songs
send doctor {L} a message saying i need to reschedule
tell mrs {L} next door that her parcel is here
who is {N} in my contacts
did {F} call while i was out
set a reminder to buy {F} a present
text {F} happy birthday with a cake emoji
ask {FF} whether she wants to carpool tomorrow
um can you call er what's his name {FM} from football
my son {FM} needs to be at practice at four
## email
send an email to {EM}
my email is {EM}
email {F} at {EM} about the rota
add {EM} to the dinner invite
forward this to {EM} please
share the shopping list with {EM}
um my email address is uh {EM}
it's {EM} all lowercase
change my email to {EM}
cc {EM} on that one
{EM} is {F}'s new email can you update it
send the photos to {F} at {EM}
my login is {EM}
invite {EM} to the family calendar
can you send the receipt to {EM}
reply to {EM} saying thanks i'll be there
send it to {EM} actually no {EM}
email my boss at {EM} that i'm sick today
the school wants me to email {EM} about the trip
write to {EM} saying the meeting moved to friday
did {EM} ever reply
okay the email is {EM} got it
my old email was {EM} but now it's {EM}
can you sign me up with {EM}
{F}'s work email is {EM}
um i need to send the forms to {EM} is that right
## address
navigate to {AD}
get me directions to {AD}
my address is {AD}
i live at {AD}
how long will it take to get to {AD}
send a cab to {AD}
order a large pepperoni to {AD}
{F} lives at {AD}
change my delivery address to {AD}
take me home to {AD}
the party's at {F}'s place {AD}
um it's {AD} the blue house on the corner
deliver it to {AD} and leave it at the back door
we just moved to {AD}
how far is {AD} from here
book an uber to {AD}
my mum's address is {AD}
remind me to send the card to {N} at {AD}
the new office is at {AD}
drive to {ADS} first and then to the shops
my grandson lives at {AD} can you send flowers there
is there traffic on the way to {AD}
{ADS} that's where i'm staying this week
pick me up from {ADS} in ten minutes
set home to {AD}
set my work address to {AD}
what's the quickest way to {ADS} avoiding the motorway
the grandkids are at {AD} this weekend
## card
my card number is {CC}
pay with card {CC}
add a new card {CC} expiry oh four twenty seven
the card number is {CC}
use {CC} for the groceries
um the visa is {CC}
{CC} that's the card to use
save {CC} as my default card
charge it to {CC} please
i want to report card {CC} as stolen
the long number on the front is {CC}
okay ready it's {CC}
put the tickets on {CC}
my husband's card is {CC} use that one
my debit card is {CC}
book it on my mastercard {CC}
## iban
send fifty euros to {IB}
my iban is {IB}
transfer the rent to {N} iban {IB}
the iban is {IB}
pay {F} back to {IB}
add a new payee {N} {IB}
set up a standing order to {IB}
{IB} that's the landlord's account
my salary goes into {IB}
iban please {IB}
send two hundred to {F} the iban is {IB}
it's {IB} can you read it back to me
the refund should go to {IB}
{F}'s iban is {IB}
## ssn
my social is {SSN}
my social security number is {SSN}
it's {SSN} that's my s s n
{F}'s social security number is {SSN}
for the form my social is {SSN}
uh social {SSN}
remember my son's social is {SSN}
fill in social security number {SSN}
{SSN} is my social please don't share it
the s s n on the tax form is {SSN}
my wife's social is {SSN} and mine is {SSN}
the letter from the irs has my social {SSN} on it
{N} s s n {SSN}
## dob
my birthday is {DOB}
i was born on {DOBY}
{F}'s birthday is {DOB}
remind me that {F}'s birthday is {DOB}
my date of birth is {DOBY}
date of birth {DOBY}
add {N}'s birthday {DOB} to the calendar
my daughter was born {DOBY}
{DOBN} is my birthday so don't book anything that day
grandma's birthday is {DOBN} remind me a week before
i think {F}'s birthday is {DOB} can you check
{FF} was born {DOBY} so she starts school next year
born {DOBY} in case they ask
the twins were born on {DOBY}
i'm a leo born {DOBN}
put my birthday in as {DOBY}
{N} date of birth {DOBY}
it was {DOBN} that's my birthday yeah
## age
i'm {AGE}
i am {AGE} years old
my son is {KAGE}
{F} is turning {KAGE} on saturday
my dad is {OAGE} and lives alone
{F} just turned {AGE}
i'm a {AGE} year old teacher looking for a new job
my grandmother is {OAGE} years old
{F}'s {KAGE} now can you believe it
i'm {AGE} how many calories should i eat a day
my kids are {KAGE} and {KAGE}
at {AGE} is it too late to learn the piano
he's {OAGE} so he needs a ground floor room
my mother is {OAGE} and has {H}
i turn {AGE} next week
we have a {KAGE} year old and a {KAGE} year old
i'm {AGE} and i'm training for my first marathon
my nan's {OAGE} and still drives
{F} will be {KAGE} in march
my son's {KAGE} how much should he weigh
## ip
my router is at {IP}
ping {IP}
the printer's ip is {IP}
set a static ip of {IP} for the tv
connect to {IP}
block {IP} on my network
the nas is on {IP}
my home server at {IP} is down again
add {IP} to the allow list
the camera at {IP} is offline
what device is {IP} on my wifi
my laptop's address is {IP6}
open the admin page at {IP}
forward port four four three to {IP}
is {IP} my xbox
restart the device at {IP}
## account
my account number is {ACC}
customer number {ACC}
my policy number is {ACC}
pay the gas bill account {ACC}
member number {ACC}
my library card number is {ACC}
transfer two hundred dollars to account {BACC}
{ACC} is my customer number
my membership number for the gym is {ACC}
the electric account is {ACC} in {N}'s name
check the balance on account {BACC}
my frequent flyer number is {ACC}
the insurance policy {ACC} renews next month
read back my customer number it's {ACC}
## secret
the gate code is {PIN}
{PIN} is the gate code
my pin is {PIN}
the wifi password is {PW}
the alarm code is {PIN}
garage code {PIN}
tell {F} the door code is {PIN}
change my password to {PW}
my password is {PW}
the lockbox code is {PIN} for the cleaner
remember the safe combination is {PIN}
text {F} saying the wifi is {PW}
my voicemail pin is {PIN}
the code is {PIN} no wait it's {PIN}
set the alarm code to {PIN}
my bank pin is {PIN} don't tell anyone
the wifi is {PW} all one word
password for the netflix is {PW}
the key safe is {PIN}
uh the padlock on the shed is {PIN}
send {F} the wifi password it's {PW}
## health
remind me to take my {MED} at eight
i have {H}
my son has {H}
{FF} has {H} so she can't do the hike
i was diagnosed with {H} last year
add {MED} to the pharmacy list
did i take my {MED} today
my doctor put me on {MED}
{F}'s {H} is getting worse
mum needs her {MED} refilled
i'm out of {MED}
log that i took my {MED} at noon
my husband has {H} and needs a low salt diet
i think my {H} is flaring up
set a reminder for {F}'s {MED} every morning
i need to pick up my {MED} from the pharmacy
how much {MED} did i take yesterday
my daughter was just diagnosed with {H}
dad's {H} means he can't climb stairs
{FF} takes {MED} for her {H}
## location
pick up {F} from {SCH} at three
i work at {WORK}
remind me to visit dad at {CARE} on sunday
{F} is at {HOSP}
navigate to {WORK}
{F} goes to {SCH}
my appointment at {HOSP} is at ten
drop {F} at {LOC}
i'm leaving {WORK} now
text {F} i'm at {LOC}
{F} is staying at {CARE} now
my son's at {SCH} until four thirty
how long to drive to {F}'s school {SCH}
i start my new job at {WORK} on monday
meet me outside {LOC} at six
{F} works at {HOSP} as a nurse
remind me i have physio at {HOSP} on thursday
we go to {LOC} on sundays
## multi
text {F} saying the door code is {PIN} and the wifi is {PW}
{N} born {DOBY} social {SSN}
my name is {N} and my date of birth is {DOBY}
call {F} at {PH} or email {EM}
send {F} my address {AD}
my name's {N} i'm {AGE} and i have {H}
patient {N} date of birth {DOBY} takes {MED}
the account is in the name of {N} number {BACC}
new contact {N} phone {PH} email {EM}
my name is {N} my card is {CC}
send {F} the gate code {PIN} and the address {AD}
i'm {N} born {DOBY} my policy number is {ACC}
my daughter {FF} is {KAGE} and goes to {SCH}
{FM} is {OAGE} and lives at {CARE} he has {H}
pay {N} fifty euros to {IB} for the concert tickets
remind me {F} starts {MED} on monday
## multi-secure
my account number is {BACC} and the pin is {PIN}
social {SSN} date of birth {DOBY}
card number {CC} billing address {AD}
my policy number is {ACC} and my date of birth is {DOBY}
the router's at {IP} and the admin password is {PW}
the camera at {IP} uses pin {PIN}
i'm {AGE} and i take {MED} for my {H}
pay with {CC} and send the receipt to {EM}
dad's at {CARE} and his room phone is {PH}
log into {IP} with the password {PW}
my ssn is {SSN} and my checking account is {BACC}
move five hundred from account {BACC} to {IB}
update my card to {CC} and my phone to {PH}
ship it to {AD} and charge {CC}
the iban is {IB} and put my customer number {ACC} as the reference
## card-more
i'd like to pay by card it's {CC}
the card is {CC} and the expiry is twelve twenty six
can you read back the card {CC}
okay card number um {CC} did you get that
my new visa is {CC} the old one expired
## card-extra
my amex is {CC}
take the payment from {CC}
{F} can use my card for the shopping it's {CC}
the number on my credit card is {CC} and it expires next may
## iban-more
send the deposit to {IB} today
wire it to {IB} please not the old account
the landlord's iban changed it's now {IB}
um is {IB} a valid iban
## ssn-more
the social on the application is {SSN}
my daughter's social security number is {SSN}
i need to give them my social it's {SSN}
okay so ssn {SSN}
## account-more
my gas account number is {ACC} can you pay it
the broadband account is {ACC}
what's the balance on {BACC}
my patient number at the clinic is {ACC}
the meter account number is {ACC}
## ip-more
the doorbell camera's ip is {IP}
set the dns on {IP} to automatic
reboot the access point at {IP}
my minecraft server is {IP}
## location-more
my wife works at {WORK}
i'm a patient at {HOSP}
grandad's at {CARE} now can you find their visiting hours
the kids go to {SCH} and the bus comes at eight
i volunteer at {LOC} on tuesdays
## iban-extra
the iban for the holiday house deposit is {IB}
pay the childminder {F} to {IB}
can you save {IB} as {F}'s account
i owe {F} thirty euros send it to {IB}
## ssn-extra
he needs my social for the lease it's {SSN}
my husband's ssn is {SSN} and his date of birth is {DOBY}
## ip-extra
what's using all the bandwidth on {IP}
the thermostat is on {IP} can you reconnect it
is something weird connecting from {IP} on my network
the smart plug in the hall is {IP}
## ssn-extra2
my social security is {SSN} and i was born {DOBY}
for the bank form it's {N} social security number {SSN}
um my social's {SSN} i think yeah
## multi-extra
{FF}'s number is {PH} and her email is {EM}
my name's {N} and i live at {AD}
{F} is {AGE} and works at {WORK}
remind {FM} his {MED} is in the cupboard and the alarm code is {PIN}
"""

WRITTEN_POS = r"""
## phone
Please save {N}'s number: {PH}
my number is {PH}
Call me on {PH} after 6pm.
New mobile for {F}: {PH}
Text {PH}: "running late, 10 mins"
Can you ring {PH} and put it on speaker?
{N} – {PH}
Whose number is {PH}?
Add {PH} to {F}'s contact card
update {F} mobile to {PH} pls
Emergency contact: {N}, {PH}
ok so {F}'s new number is {PH} (the old one is dead)
Missed call from {PH} — who is that?
My mobile: {PH}. Landline: {PH}.
Reach {F} on {PH} or at home.
Save "{F} plumber" as {PH}
call {F} {PH}
Hi, it's {F}. New number is {PH}, pls update
## phone-intl
My UK mobile is {PHUK}
Call {F} in Sydney on {PHAU}
Dad's Irish number: {PHIE} (WhatsApp only)
Save {N} – {PHI}
## person
Remind me to call {F} at 5
Set up a call with {N} and {N} for Thursday
Send {F} a thank-you note for the flowers
Who is {N}?
What did {FF} say in her last message?
Add {F} to the holiday group chat
Lunch with {N} on Friday at 1
remind {F} about the dentist tmrw
Ask {F}'s mum if {F} can stay over
The booking is under {L}.
Surname: {L} ({SPELL})
Dr {L} wants to see me again in 2 weeks
Cancel my 3pm with {N}
## email
Email {EM} the agenda for tomorrow.
Can you send the invoice to {EM}?
reach me at {EM} or {PH}
My email is {EM}
pls forward to {EM}
Add {EM} to the family calendar
{F}'s email: {EM}
Contact: {N}, {EM}, {PH}
Send the boarding passes to {EM} please.
my address for the newsletter is {EM}
Share the album with {F} ({EM})
Reply to {F} at {EM} and say yes to Saturday
Email is {EM} — not the gmail one
Invite {EM} and {EM} to the meeting at 3
Change my login to {EM}
send it to {EM}
## address
Ship to: {AD}
New address: {AD}
Deliver to {AD}, leave with neighbour if out
Directions to {AD}
I live at {AD}.
{N}, {AD}
Send the birthday card to {F} at {AD}
Home address is {AD} – can you update my profile?
how long to drive to {AD}
Taxi to {ADS} at 7:30 please
Our new place: {AD}
Book a cleaner for {ADS} on Friday
Return address: {AD}
{F} moved to {AD} last month
Parcel should go to {AD}, not the old flat
## card
Card: {CC}, exp 09/27
Please charge {CC}
card no {CC}
Use my Visa {CC} for this order
My card {CC} was declined, why?
Pay with {CC}.
Add card {CC} to my wallet
Freeze card {CC} immediately — I lost my purse
card number is {CC} exp 11/26 name on card {N}
Amex {CC}
## card-extra
CC# {CC}
Visa debit: {CC} exp 03/28
Use {CC} for the Netflix renewal
## iban
IBAN: {IB}
Transfer €250 to {N}, IBAN {IB}, reference "rent March"
send 40 quid to {FF}, her IBAN is {IB}
My IBAN is {IB}
Beneficiary: {N} / {IB}
Please refund to {IB}
Set up monthly €60 to {IB} for {F}'s music lessons
pay the builder, iban {IB}
## ssn
SSN {SSN}
My SSN is {SSN}, DOB {DOBY}.
social security no. {SSN}
Fill in the W-4 with SSN {SSN}
{F}'s SSN is {SSN}
ssn: {SSN} (please keep private)
Can you store my social, {SSN}, in a secure note?
## dob
DOB: {DOBY}
{F}'s birthday is {DOB} — remind me a week before.
I was born {DOBY}
date of birth {DOBY}
Add {N} (b. {DOBY}) to the family tree
Born on {DOBY}, if that matters.
My birthday's {DOBN}!
{N}, DOB {DOBY}, allergies none
remind me {F}'s bday is {DOBN}
Birthdays: {F} {DOBN}, {F} {DOBN}
my dob is {DOBY}
## age
I'm {AGE} and recently diagnosed with {H}.
{F} is {KAGE} — what's a good gift?
Age: {AGE}
my dad's {OAGE}, is it safe for him to fly?
I'm {AGE} years old, how much sleep do I need?
{F} turns {KAGE} on Sunday, plan a party
Nana is {OAGE} and lives alone, any tips for fall alarms?
i'm {AGE} f looking for running buddies lol
My twins are {KAGE}.
## ip
My router IP is {IP}
Set a port forward from 8080 to {IP}
printer is on {IP}, can't reach it
Why can't I ping {IP}?
Add {IP6} to the firewall allowlist
my NAS: {IP}
Home Assistant runs on {IP}:8123
The Pi's IPv6 is {IP6}
block {IP} on the router pls
## account
Account no. {ACC}
Policy number {ACC}
Customer ID: {ACC}
My membership number is {ACC}.
Pay £80 into account {BACC}
Quote ref {ACC} when you call
my acct # is {BACC}
Loyalty card: {ACC}
## secret
Wifi password: {PW}
Door code {PIN}
PIN {PIN}
The garage code is {PIN}, tell the plumber.
Change the wifi key to {PW}
my pw is {PW} dont forget it
Guest wifi: network "Home-5G", password {PW}
alarm: {PIN} then press OFF
Lockbox {PIN} – keys are inside
new password {PW}
## health
{F} takes {MED} twice a day
Remind me: {MED} at 8am and 8pm
I've got {H} — any tips for sleeping?
{N} has {H}
Refill my {MED} prescription
Log: took {MED} 20mg at 9:15
{F} was diagnosed with {H} in May
Mum's on {MED} now, can she have grapefruit?
remind me to take my {MED}
## location
Pick {F} up from {SCH} at 3:15
I work at {WORK}.
Mum is at {CARE}, room 12.
{F} starts at {SCH} in September
Appointment at {HOSP} on Tuesday 10am
Meet me at {LOC} after work
{F} is volunteering at {LOC} this weekend
Visiting hours at {CARE} for Dad?
## multi
{N}, {DOBY}, SSN {SSN}
Name: {N} | DOB: {DOBY} | Policy: {ACC}
Patient {N} ({AGE}) on {MED} for {H}
New contact — {N}, {PH}, {EM}
Text {F}: gate code is {PIN}, address {AD}
I'm {N}, {AGE}, and I work at {WORK}.
## multi-secure
Card {CC}, billing address {AD}
Acct {BACC} / PIN {PIN}
SSN {SSN}, acct {BACC}
Router {IP}, admin pw {PW}
IBAN {IB}, ref {ACC}
Policy {ACC}, DOB {DOBY}
Member {ACC} at {LOC}
{AGE} y/o, {H}, on {MED}
Full card number is {CC}, security code on the back
Pay {IB} from my account {BACC}
## written-misc
My account number is {ACC} – can you check the balance?
Wire to {IB} (not the old one!)
My daughter's SSN: {SSN}
camera @ {IP} keeps dropping
I work at {WORK}, my badge no. is {ACC}
## iban-extra
Can you check this IBAN is right: {IB}
rent goes to {IB} on the 1st
IBAN for {F}'s rent: {IB}
Save payee {N}, {IB}
## ssn-extra
Employee SSN: {SSN}
SSN for my son {FM}: {SSN}
## ip-extra
SSH into {IP} as admin
Kids' tablet = {IP}, block YouTube after 9pm
Plex server is at {IP}
Smart TV keeps grabbing {IP}, can I reserve it?
## ssn-extra2
Social: {SSN}. DOB: {DOBY}. Name: {N}.
my ssn is {SSN}
## multi-extra
{F} ({KAGE}) goes to {SCH}, no allergies, takes {MED}
Contact {N} at {EM} / {PH} about the flat at {ADS}
"""

SPOKEN_NEG = r"""
## neg-public-figure
who was {celeb}
play something by {singer}
how old is {celeb}
my favorite singer is {singer}
when is {celeb}'s birthday
is {celeb} married
what's {celeb}'s net worth
tell me a fun fact about {celeb}
play the latest {singer} album
how tall is {celeb}
where was {celeb} born
um who is {celeb} dating these days
is {celeb} still alive
put on {singer} radio
i'm going to see {singer} in concert next month
what movies has {celeb} been in
read me the news about {celeb}
## neg-relationship
call {rel}
text {rel} i'm on my way
call {rel} on speaker
send {rel} a message saying dinner's ready
tell {rel} i'll be home late
is {rel} home yet
remind me to call {rel} on sunday
video call {rel}
let {rel} know the kids are asleep
what time did {rel} call
buy a present for {rel} it's a big birthday next week
what should i get {rel} for christmas
## neg-health-general
what are the symptoms of {cond}
what is {med} used for
can you take {med} with alcohol
is {cond} contagious
how common is {cond}
what's the normal dose of {med} for adults
does {med} make you sleepy
how do you treat {cond}
what causes {cond}
is {cond} hereditary
what foods are good for {cond}
how long does the flu last
what's a normal resting heart rate
how many hours of sleep does a teenager need
## neg-place
what's the weather in {city} tomorrow
will it rain in {city} this weekend
how far is {lm} from here
how far is {city} from {city2}
what time does {biz} close
what's the phone number for {biz}
is {biz} open on sundays
directions to the nearest {biz}
what time is it in {city}
how tall is {lm}
who lives at {famous}
how many rooms are in {famous}
what's the area code for {city}
how many people live in {city}
find me a cheap hotel in {city}
## neg-numbers
set a timer for {dur}
set an alarm for {time}
wake me up at {time} tomorrow
what's {n} times {n2}
what's {n} plus {n2}
what's {n} divided by {n2}
what's the square root of {big}
is flight {flight} on time
what gate is flight {flight} leaving from
play track {trk}
skip to track {trk}
turn to channel {chan}
put on channel {chan}
play {song}
play {song} on the kitchen speaker
how much is the {model}
does the {model} come in blue
compare the {model} and the {model2}
convert {qty} to cups
the recipe says {qty} is that too much
what was the score in the {team} game
did {team} win last night
i think {team} won {score}
the final score was {score} right
what happened in {hist}
what happened on {histdate}
how many years ago was {hist}
count down from {small}
set the thermostat to {temp}
turn the volume up to {small}
remind me in {dur} to check the oven
how many minutes in {small} hours
what's {small} percent of {big}
## neg-object-age
my {obj} is {small} years old is it worth fixing
our {pet} is {small} how old is that in human years
the {pet} is {small} months old when does it need its shots
this house is over {big} years old
my {obj} is about {small} years old should i replace it
how long do {pet}s usually live
the {obj} is {small} years out of warranty
## neg-words
will it rain tomorrow
will it snow in {city} on friday
i hope it's sunny for the barbecue
mark this as done
mark all my emails as read
add {food} to the shopping list
how do i pay my {util} bill online
when is dawn tomorrow
what time is sunrise in {month}
play some summer hits
what's the difference between a robin and a sparrow
how do i grow ivy on a fence
is holly poisonous to dogs
when do roses bloom in {city}
how do you jack up a car safely
i hope so
i will thanks
what does sage taste like
is ruby red grapefruit good for you
what is amber made of
play {song} on repeat
what is a hunter's moon
how much is a penny worth
how do i split the bill
it's the first day of summer
will you turn the lights off at dawn
will the store be open on {month} first
can you mark the grocery list as shared
## neg-generic
what's my ip address
read my new emails
what's my account balance
reset my password
what's the wifi password
lock the front door
turn off the kitchen lights
what's on my calendar tomorrow
how do i change my pin
what's a good password manager
how old do you have to be to drive
is it safe to give a {tod} year old honey
what's the average age people retire
what is {pubip}
ping {pubip}
is {pubip} faster than my internet company's dns
how do i find my router's ip address
how do you spell {word}
spell {word}
what's the postcode for {famous}
add eggs milk and {food} to the list
how many teaspoons in {qty}
what's the population of {city}
what time is the {team} game on
"""

WRITTEN_NEG = r"""
## neg-public-figure
Who was {celeb}?
Play {singer}'s new album
How old is {celeb}?
{singer} tour dates 2025
Is {singer} on tour this year?
my favourite author is {celeb}
Quote from {celeb} about courage
## neg-relationship
text mom I'm on my way
Call Dad
Remind my sister about Sunday lunch
send my husband the shopping list
Message the babysitter: running 10 min late
What should I buy {rel} for a 60th birthday?
Call {rel}
## neg-health-general
What are the symptoms of {cond}?
Is {med} safe during pregnancy?
How long does {med} stay in your system?
Can {cond} be cured?
What's the recommended daily dose of vitamin D?
Side effects of {med}
Best exercises for people with {cond}?
## neg-place
Weather in {city} this weekend?
How far is {lm} from {city}?
What time does {biz} close today?
Who lives at {famous}?
Directions to {lm}
Is {biz} open on Easter Monday?
Phone number for {biz}
Flights from {city} to {city2} in March
Best pizza in {city}?
## neg-numbers
What's {n} × {n2}?
what is {small}% of {big}
Set a timer for {dur}.
Alarm {time} tomorrow
Is {flight} delayed?
Convert {qty} to cups
{team} vs {team2} last night — was it {score}?
Final score {score}, who scored?
How much is the {model}?
Is the {model} worth it?
Turn to channel {chan}
Play {song}
Track {trk} on repeat
What happened on {histdate}?
What happened in {hist}?
How many days until Christmas?
What is 3/4 cup in grams?
Is the {time} train running?
Wake me at {time}
Set thermostat to {temp}
## neg-object-age
My {obj} is {small} years old, is it worth fixing?
Our {pet} is {small} – how old is that in human years?
## neg-words
Will it rain tomorrow?
Mark this as done
I hope so!
will it be sunny in {city} on Saturday
Add {food} to the list
How do I pay my {util} bill?
When do roses bloom?
what time is dawn
Play summer chill playlist
Is ivy bad for brick walls?
## neg-generic
What is {pubip}?
Is {pubip} faster than my ISP's DNS?
What's {pubip} used for?
What's my IP address?
Reset my password
How do I change my PIN?
What's a strong password?
Lock the back door
What's the postcode for {famous}?
Spell {word}
How old do you have to be to rent a car?
Is it OK to give a {tod} year old ibuprofen?
"""


# ================================================================ build
def parse_pool(block, form, neg):
    out = []
    fam = 'misc'
    for line in block.strip('\n').split('\n'):
        line = line.strip()
        if not line:
            continue
        if line.startswith('## '):
            fam = line[3:].strip()
            continue
        names = re.findall(r'\{([A-Za-z0-9_]+)\}', line)
        for nm in names:
            if nm not in LAB and nm not in NEG:
                raise SystemExit(f'unknown slot {nm} in {line!r}')
            if neg and nm in LAB:
                raise SystemExit(f'labelled slot in negative template {line!r}')
        lit = re.sub(r'\{[A-Za-z0-9_]+\}', '', line)
        if form == 's' and not re.fullmatch(r"[a-z' ]*", lit):
            raise SystemExit(f'bad spoken template {line!r}')
        types = sorted({LAB[nm][0] for nm in names if nm in LAB})
        out.append({'tpl': line, 'fam': fam, 'form': form, 'types': types,
                    'has_slot': bool(names)})
    return out


SP_PREFIX = ['um ', 'okay ', 'hey ', 'uh ', 'so ', 'right ', 'please ', 'er ']
SP_SUFFIX = [' please', ' thanks', ' thank you', ' okay', ' cheers']


def render(t):
    tpl = t['tpl']
    form = t['form']
    if form == 's' and rng.random() < 0.12:
        if rng.random() < 0.5 and not tpl.split()[0] in ('um', 'okay', 'hey', 'uh', 'so', 'please', 'er', 'hello', 'yo'):
            tpl = rng.choice(SP_PREFIX) + tpl
        elif not tpl.endswith(('please', 'thanks', 'thank you', 'okay')):
            tpl = tpl + rng.choice(SP_SUFFIX)
    lit = re.sub(r'\{[A-Za-z0-9_]+\}', '', tpl)
    ctx = {'form': form, 'persons': [], 'last_person': None, 'used': set(),
           'casual': form == 'w' and not re.search(r'[A-Z]', lit)}
    text = ''
    spans = []
    for part in re.split(r'(\{[A-Za-z0-9_]+\})', tpl):
        m = re.fullmatch(r'\{([A-Za-z0-9_]+)\}', part)
        if m:
            nm = m.group(1)
            if nm in LAB:
                typ, fn = LAB[nm]
                val = fn(ctx)
                spans.append({'start': len(text), 'end': len(text) + len(val), 'type': typ, 'value': val})
                text += val
            else:
                text += NEG[nm](ctx)
        else:
            text += part
    if form == 's':
        text2 = re.sub(r' +', ' ', text)
        assert text2 == text, text
    return text, spans


def norm_code(value, form):
    if form == 's':
        return parse_spoken(value)
    return re.sub(r'[^0-9A-Za-z]', '', value).upper()


def validate(rec, seen):
    text, spans, form = rec['text'], rec['spans'], rec['form']
    errs = []
    if text in seen:
        errs.append('duplicate text')
    if text != text.strip() or not text:
        errs.append('leading/trailing space')
    if form == 'spoken' and not re.fullmatch(r"[a-z']+( [a-z']+)*", text):
        errs.append('spoken text not lowercase a-z/apostrophe/space')
    prev_end = -1
    for sp in spans:
        s, e = sp['start'], sp['end']
        if not (0 <= s < e <= len(text)):
            errs.append(f'bad offsets {sp}')
            continue
        if text[s:e] != sp['value']:
            errs.append(f'value mismatch {sp}')
        if s < prev_end:
            errs.append('overlap/unsorted')
        prev_end = e
        if s > 0 and text[s - 1].isalnum():
            errs.append(f'start not on word boundary {sp}')
        if e < len(text) and text[e].isalnum():
            errs.append(f'end not on word boundary {sp}')
        if sp['value'] != sp['value'].strip():
            errs.append(f'span has outer space {sp}')
        if sp['type'] == 'PERSON' and sp['value'].lower().endswith("'s"):
            errs.append('possessive inside PERSON')
        f = 's' if form == 'spoken' else 'w'
        if sp['type'] == 'CREDIT_CARD':
            d = norm_code(sp['value'], f)
            if not (d.isdigit() and len(d) in (15, 16) and luhn_ok(d)):
                errs.append(f'card fails Luhn {sp} -> {d}')
        elif sp['type'] == 'IBAN':
            d = norm_code(sp['value'], f)
            if not (d[:2] in IBAN_LEN and len(d) == IBAN_LEN[d[:2]] and iban_ok(d)):
                errs.append(f'IBAN fails mod-97 {sp} -> {d}')
        elif sp['type'] == 'SSN':
            d = norm_code(sp['value'], f)
            if not ssn_ok(d):
                errs.append(f'implausible SSN {sp} -> {d}')
        elif sp['type'] == 'PHONE':
            d = norm_code(sp['value'], f)
            if not (d.isdigit() and 7 <= len(d) <= 15):
                errs.append(f'phone digits {sp} -> {d}')
        elif sp['type'] == 'IP_ADDRESS' and f == 'w' and '.' in sp['value']:
            oct_ = sp['value'].split('.')
            if len(oct_) != 4 or not all(o.isdigit() and int(o) <= 255 for o in oct_):
                errs.append(f'bad IPv4 {sp}')
    return errs


def main():
    pools = {
        ('s', False): parse_pool(SPOKEN_POS, 's', False),
        ('w', False): parse_pool(WRITTEN_POS, 'w', False),
        ('s', True): parse_pool(SPOKEN_NEG, 's', True),
        ('w', True): parse_pool(WRITTEN_NEG, 'w', True),
    }
    quota = {('s', False): N_POS_SPOKEN, ('w', False): N_POS_WRITTEN,
             ('s', True): N_NEG_SPOKEN, ('w', True): N_NEG_WRITTEN}
    all_types = sorted({v[0] for v in LAB.values()})
    target = {t: 70 for t in all_types}
    target['PERSON'] = 250
    counts = Counter()
    seen = set()
    records = []
    uses = Counter()

    def emit(t):
        for _ in range(40):
            text, spans = render(t)
            if text not in seen:
                break
        else:
            return False
        rec = {'text': text, 'form': 'spoken' if t['form'] == 's' else 'written', 'spans': spans,
               'source': 'dev-c.' + t['fam'], '_tpl': t['tpl']}
        errs = validate(rec, seen)
        if errs:
            raise SystemExit(f'VALIDATION FAILED: {text!r}: {errs}')
        seen.add(text)
        records.append(rec)
        uses[(t['form'], t['tpl'])] += 1
        for sp in spans:
            counts[sp['type']] += 1
        return True

    def weight(t):
        u = uses[(t['form'], t['tpl'])]
        if not t['types']:
            return (1.0 if t['has_slot'] else 0.0) / (1 + u) ** 2
        defs = []
        for ty in t['types']:
            d = (target[ty] - counts[ty]) / target[ty]
            defs.append(max(0.02, d))
        w = sum(defs)
        if 'PERSON' in t['types'] and counts['PERSON'] >= target['PERSON']:
            w *= 0.2
        return w / (1 + u) ** 1.5

    # positives first (both forms interleaved), then negatives
    for key in [('s', False), ('w', False), ('s', True), ('w', True)]:
        pool = pools[key][:]
        rng.shuffle(pool)
        n = quota[key]
        made = 0
        # negatives: every carrier once first; positives: pure deficit-weighted choice
        for t in (pool if key[1] else []):
            if made >= n:
                break
            if emit(t):
                made += 1
        guard = 0
        while made < n:
            guard += 1
            if guard > 20000:
                raise SystemExit(f'could not fill {key}')
            ws = [weight(t) for t in pool]
            if sum(ws) <= 0:
                raise SystemExit(f'no usable templates for {key}')
            t = rng.choices(pool, ws)[0]
            if emit(t):
                made += 1

    # final checks
    assert len(records) == N_LINES, len(records)
    rng.shuffle(records)
    for ty in all_types:
        need = 240 if ty == 'PERSON' else 45
        if counts[ty] < need:
            print(counts); raise SystemExit(f'type {ty} only has {counts[ty]} spans (< {need})')
    os.makedirs(OUT_DIR, exist_ok=True)
    with open(OUT, 'w', encoding='utf-8') as fh:
        for i, rec in enumerate(records, 1):
            out = {'id': f'pii-dev-c-{i:05d}', 'text': rec['text'], 'form': rec['form'],
                   'spans': rec['spans'], 'source': rec['source']}
            fh.write(json.dumps(out, ensure_ascii=False) + '\n')

    # re-read and re-validate from disk
    seen2 = set()
    n_empty = n_spoken = 0
    with open(OUT, encoding='utf-8') as fh:
        lines = fh.read().split('\n')
    lines = [l for l in lines if l]
    assert len(lines) == N_LINES
    ids = set()
    for l in lines:
        rec = json.loads(l)
        assert set(rec) == {'id', 'text', 'form', 'spans', 'source'}
        assert rec['id'] not in ids
        ids.add(rec['id'])
        errs = validate(rec, seen2)
        if errs:
            raise SystemExit(f'RE-VALIDATION FAILED {rec["id"]}: {errs}')
        seen2.add(rec['text'])
        n_empty += not rec['spans']
        n_spoken += rec['form'] == 'spoken'
    shapes = {r['_tpl'] for r in records}
    n_tpl = sum(len(p) for p in pools.values())
    print(f'wrote {OUT}: {len(lines)} lines, validation passed')
    print(f'templates available: {n_tpl}, distinct sentence shapes used: {len(shapes)}')
    print(f'lines with no spans: {n_empty} ({n_empty / N_LINES:.1%})')
    print(f'spoken: {n_spoken} ({n_spoken / N_LINES:.1%}), written: {N_LINES - n_spoken}')
    print('span counts per type:')
    for ty in sorted(counts, key=lambda x: -counts[x]):
        print(f'  {ty:16s} {counts[ty]}')
    print(f'  {"TOTAL":16s} {sum(counts.values())}')
    return counts, n_empty, n_spoken, len(shapes)


if __name__ == '__main__':
    main()
