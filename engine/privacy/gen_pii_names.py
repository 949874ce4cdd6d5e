#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# Generates engine/privacy/pii_names_data.cpp: given names and surnames of some sixty locales, for the rules and
# the model to know a private person's name that the hand-written lists (pii_lexicon_names.cpp) do not: "did
# marguerite fontaine call today" left the device whole. A name that is also an ordinary English word ("grace",
# "baker") or any word WordNet lists, names of places and famous people among them ("austin", "lincoln"), is left
# out: those stay with the hand-written lists and their rules for words that are also names.
#
# With them, the public figures WordNet names (lex::famous): the people a request names as public ones.
#
# Input: the npm registry's @faker-js/faker (MIT licence, "Copyright 2022-2025 Faker"), its locales' person
# definitions (first_name, last_name), read with the machine's Node.js; Debian's wordnet-base for the words to
# leave out. Names are folded to ASCII (accents dropped); those in other scripts are left out. The output is
# committed, so building never needs either:
#
#   cd /tmp && npm pack @faker-js/faker@10.6.0 && tar xzf faker-js-faker-10.6.0.tgz
#   /usr/bin/python3 engine/privacy/gen_pii_names.py /tmp/package > engine/privacy/pii_names_data.cpp
import json
import os
import re
import subprocess
import sys
import unicodedata

WN = os.environ.get('WORDNET', '/usr/share/wordnet')
# Locales whose names are not names (faker's joke locales).
SKIP_LOCALES = {'fakerEN_BORK', 'fakerEN_AU_ocker'}

DUMP = r'''
const pkg = process.argv[1];
const F = await import(pkg + '/dist/index.js');
const flat = (x) => !x ? [] : Array.isArray(x) ? x : Object.values(x).flat();
const out = {};
for (const k of Object.keys(F)) {
  if (!k.startsWith('faker') || k === 'faker' || !F[k] || !F[k].rawDefinitions) continue;
  const p = F[k].rawDefinitions.person;
  if (!p) continue;
  out[k] = { first: flat(p.first_name), last: flat(p.last_name) };
}
process.stdout.write(JSON.stringify(out));
'''


def wordnet_words():
    """Every single-word lemma WordNet lists, in any case (people and places are capitalized there)."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import gen_pii_english
    return gen_pii_english.words(any_case=True)


def fold(name):
    s = unicodedata.normalize('NFKD', name)
    s = ''.join(c for c in s if not unicodedata.combining(c))
    s = s.replace('\u2019', "'").replace('ß', 'ss').replace('ø', 'o').replace('Ø', 'o').replace('ł', 'l')
    s = s.replace('Ł', 'l').replace('đ', 'd').replace('Đ', 'd').replace('æ', 'ae').replace('œ', 'oe')
    s = s.replace('ı', 'i').replace('ð', 'd').replace('þ', 'th')
    return s.lower()


# Words WordNet does not list that are no one's name in an English sentence: function words, fillers, surname
# particles, the parts of place names, and the cues of the recognizers.
NOT_NAMES = set("""
the that this these those then than them they their there here where what when which while who whom whose why how
and but nor yet for from with without within into onto upon about above below over under after before between
among per via its it's i'm you're we're he's she's isn't aren't wasn't weren't don't doesn't didn't won't can't
couldn't shouldn't wouldn't has have had was were are been being does did done doing shall should would could might
must may can will ours yours hers his him her she he we you your our my mine theirs itself myself yourself
erm uhm umm hmm huh yeah yep nope okay ok alright hey hiya hello bye thanks thank please sorry pardon gonna wanna
gotta lemme kinda sorta dunno ain't y'all
los las san santa sao del dela della delle dos das de la le les el al ul van von der den di da du des dei degli
ter ten zu zum zur bin ibn ben bint abu ap mac mc st ste saint ave avenue rue via calle piazza platz strasse
hong kong addis ababa rio janeiro aires buenos salvador angeles vegas york jersey orleans delhi mumbai tel aviv
iban swift bic sort pin puk otp cvv cvc csc imei vin nino tfn pps bsn nhs ssid wifi wpa psk mfa tan ppsn
ssn dob mph kph kmh gbp usd eur aud cad inr jpy cny chf sek nok dkk pln czk huf
miles grams meters metres litres liters pounds ounces inches feet yards
""".split())


def keep(w, english):
    # Letters only (a hyphenated or apostrophised name is two words or a contraction to the tokenizer), three to
    # twenty of them, and no word of the language.
    return re.fullmatch(r'[a-z]{3,20}', w) is not None and w not in english and w not in NOT_NAMES


def write_literal(out, head, words, sep, tail):
    """One C++ string literal of words joined by sep, wrapped at 118 columns, after head and before tail."""
    out.write(head)
    line = '    "'
    for k, w in enumerate(words):
        piece = w + (sep if sep == ' ' or k + 1 < len(words) else '')
        if len(line) + len(piece) + 2 > 118:
            out.write(line + '"\n')
            line = '    "'
        line += piece
    out.write(line + '"' + tail + '\n')


def write_parts(out, name, words, sep):
    """An array of literals of at most about 60,000 characters each, and its count (NAME and NAMEParts)."""
    parts, cur, size = [], [], 0
    for w in words:
        if size + len(w) + 1 > 60000:
            parts.append(cur)
            cur, size = [], 0
        cur.append(w)
        size += len(w) + 1
    parts.append(cur)
    out.write('const std::string_view %s[] = {\n' % name)
    for p in parts:
        write_literal(out, '', p, sep, ',')
    out.write('};\nconst std::size_t %sParts = %d;\n\n' % (name, len(parts)))


def main():
    if len(sys.argv) != 2:
        sys.exit('usage: gen_pii_names.py FAKER_PACKAGE_DIR > engine/privacy/pii_names_data.cpp')
    pkg = os.path.abspath(sys.argv[1])
    meta = json.load(open(os.path.join(pkg, 'package.json')))
    dump = subprocess.run(['node', '--input-type=module', '-e', DUMP, pkg], check=True, capture_output=True,
                          text=True).stdout
    locales = json.loads(dump)
    english = wordnet_words()
    if len(english) < 50000:
        sys.exit('%s: only %d words; is wordnet-base installed?' % (WN, len(english)))
    first, last, used = set(), set(), []
    for loc in sorted(locales):
        if loc in SKIP_LOCALES:
            continue
        n0 = len(first) + len(last)
        for raw in locales[loc]['first']:
            for part in re.split(r'[\s-]+', raw):
                w = fold(part)
                if keep(w, english):
                    first.add(w)
        for raw in locales[loc]['last']:
            for part in re.split(r'[\s-]+', raw):
                w = fold(part)
                if keep(w, english):
                    last.add(w)
        if len(first) + len(last) > n0:
            used.append(loc[len('faker'):].lower())
    last -= first  # one list per word: a given name is not looked up twice
    # Public figures WordNet names (its person instances of two or three words: "jack nicholson", "grace kelly"):
    # a name the rules and the model would otherwise take for a private person's, in "how old is jack nicholson".
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'bench', 'nlu'))
    import lexres
    wn = lexres.WordNet()
    people = wn.lemmas(wn.hyponyms(wn.sense('person', 'n', 1), instances=True, classes=False), proper=True)
    famous = sorted(p for p in people if 2 <= len(p.split()) <= 3 and re.fullmatch(r"[a-z' ]+", p) and ',' not in p)
    # Countries: no one's name where the model would take them for one ("do i need a visa for [peru]").
    countries = sorted(c for c in wn.lemmas(wn.hyponyms(wn.sense('country', 'n', 2), instances=True, classes=False),
                                            proper=True, max_words=3)
                       if re.fullmatch(r"[a-z' ]+", c))
    out = sys.stdout
    out.write('// SPDX-License-Identifier: MIT\n')
    out.write('// %d given names and %d surnames from @faker-js/faker %s (MIT licence, Copyright 2022-2025 Faker), '
              'locales\n' % (len(first), len(last), meta['version']))
    line = '// '
    for loc in used:
        if len(line) + len(loc) + 2 > 118:
            out.write(line.rstrip() + '\n')
            line = '// '
        line += loc + ' '
    out.write(line.rstrip() + '\n')
    out.write('// folded to ASCII, without any word WordNet lists. Generated by engine/privacy/gen_pii_names.py: do not '
              'edit.\n')
    out.write('#include "engine/privacy/pii_lexicon.h"\n\nnamespace sotto::privacy::detail {\n\n')
    write_parts(out, 'kLocaleFirstNames', sorted(first), ' ')
    write_parts(out, 'kLocaleSurnames', sorted(last), ' ')
    out.write('// %d public figures WordNet 3.0 names (Debian\'s wordnet-base, Princeton\'s licence), comma-separated, in\n'
              '// parts of at most about 60,000 characters (compilers need only accept string literals of 65,536).\n'
              % len(famous))
    write_parts(out, 'kWordNetFamousPeople', famous, ',')
    out.write('// %d countries WordNet 3.0 names, comma-separated: public places, never a private person (a listed name\n'
              '// among them, "jordan", stays a name).\n' % len(countries))
    write_literal(out, 'const std::string_view kWordNetCountries =\n', countries, ',', ';')
    out.write('}  // namespace sotto::privacy::detail\n')


if __name__ == '__main__':
    main()
