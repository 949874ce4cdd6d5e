#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# Generates engine/privacy/pii_unicode_data.cpp: the tables the personal-data classifier's text normalizer
# (pii_normalize.cpp) needs for NFKC, format-character removal, decimal-digit folding and space collapsing.
#
# Input: the Unicode Character Database from Debian's `unicode-data` package, as for engine/llm/unicode_data.cpp:
# UnicodeData.txt (decompositions, combining classes, general categories, decimal digit values), PropList.txt
# (White_Space), DerivedCoreProperties.txt (Default_Ignorable_Code_Point) and DerivedNormalizationProps.txt
# (Full_Composition_Exclusion). The output is committed, so building never needs the package; rerun this only to
# move to a newer Unicode version:
#
#   apt-get install unicode-data     (or: apt-get download unicode-data && dpkg -x unicode-data_*.deb x,
#                                     then UCD_DIR=x/usr/share/unicode)
#   /usr/bin/python3 engine/privacy/gen_pii_unicode.py > engine/privacy/pii_unicode_data.cpp
#
# The decomposition table holds each code point's full compatibility decomposition (NFKD of the one code point,
# recursion done here); the runtime reorders by combining class and composes with the pair table, which together
# is NFKC. Hangul syllables are algorithmic and not in the tables.
import os
import re
import sys

UCD = os.environ.get('UCD_DIR', '/usr/share/unicode')
MAX_CP = 0x110000
SBASE, SCOUNT = 0xAC00, 11172


def ranges_of(flag):
    """[(first, last)] runs where flag[cp] is true."""
    out = []
    start = None
    for cp in range(MAX_CP + 1):
        on = cp < MAX_CP and flag[cp]
        if on and start is None:
            start = cp
        elif not on and start is not None:
            out.append((start, cp - 1))
            start = None
    return out


def read_prop(path, prop):
    flag = bytearray(MAX_CP)
    with open(os.path.join(UCD, path), encoding='utf-8') as f:
        for line in f:
            line = line.split('#')[0].strip()
            if not line:
                continue
            rng, p = [s.strip() for s in line.split(';')[:2]]
            if p != prop:
                continue
            a, _, b = rng.partition('..')
            for c in range(int(a, 16), int(b or a, 16) + 1):
                flag[c] = 1
    return flag


def main():
    version = '?'
    with open(os.path.join(UCD, 'ReadMe.txt'), encoding='utf-8') as f:
        for line in f:
            m = re.search(r'Version (\d+\.\d+\.\d+)', line)
            if m:
                version = m.group(1)
                break
    gc = {}
    ccc = {}
    decomp = {}   # cp -> (compat?, [cps])
    digit = {}
    first = None
    with open(os.path.join(UCD, 'UnicodeData.txt'), encoding='utf-8') as f:
        for line in f:
            fields = line.rstrip('\n').split(';')
            cp = int(fields[0], 16)
            name = fields[1]
            if name.endswith(', First>'):
                first = cp
                continue
            cps = range(first, cp + 1) if name.endswith(', Last>') else [cp]
            first = None
            for c in cps:
                gc[c] = fields[2]
            if int(fields[3]):
                ccc[cp] = int(fields[3])
            if fields[5]:
                parts = fields[5].split()
                compat = parts[0].startswith('<')
                if compat:
                    parts = parts[1:]
                decomp[cp] = (compat, [int(p, 16) for p in parts])
            if fields[2] == 'Nd':
                digit[cp] = int(fields[6])

    def full(cp):
        if cp not in decomp:
            return [cp]
        out = []
        for c in decomp[cp][1]:
            out.extend(full(c))
        return out

    exclusion = read_prop('DerivedNormalizationProps.txt', 'Full_Composition_Exclusion')
    white = read_prop('PropList.txt', 'White_Space')
    ignorable = read_prop('DerivedCoreProperties.txt', 'Default_Ignorable_Code_Point')
    for c, g in gc.items():
        if g == 'Cf':
            ignorable[c] = 1
    for c in range(MAX_CP):
        if white[c]:
            ignorable[c] = 0  # a space separates words: it is collapsed, never removed

    # Decimal digits come in runs of ten, zero first: the runtime folds cp to '0' + (cp - zero).
    zeros = sorted(c for c, v in digit.items() if v == 0)
    for c, v in digit.items():
        if digit.get(c - v) != 0 or c - v not in zeros:
            sys.exit('U+%04X: decimal digit %d is not in a run of ten starting at zero' % (c, v))

    pairs = []
    for cp, (compat, parts) in decomp.items():
        if compat or len(parts) != 2 or exclusion[cp]:
            continue
        pairs.append((parts[0], parts[1], cp))
    pairs.sort()

    dec = sorted((cp, full(cp)) for cp in decomp)
    pool = []
    index = []
    for cp, seq in dec:
        if len(seq) > 255:
            sys.exit('U+%04X: decomposition too long' % cp)
        index.append((cp, len(pool), len(seq)))
        pool.extend(seq)
    if len(pool) >= 1 << 16:
        sys.exit('decomposition pool over 65535 code points')
    max_len = max(n for _, _, n in index)

    out = sys.stdout

    def emit(name, ctype, items, fmt):
        out.write('const %s %s[] = {\n' % (ctype, name))
        line = '   '
        for it in items:
            s = ' ' + fmt(it) + ','
            if len(line) + len(s) > 116:
                out.write(line + '\n')
                line = '   '
            line += s
        out.write(line + '\n};\n')
        out.write('const std::size_t %sCount = sizeof(%s) / sizeof(%s[0]);\n\n' % (name, name, name))

    out.write('// SPDX-License-Identifier: MIT\n')
    out.write('// NFKC, format-character, decimal-digit and space tables for the personal-data text normalizer. Generated.\n')
    out.write('//\n// Unicode %s UCD from Debian\'s unicode-data package, by engine/privacy/gen_pii_unicode.py: do not edit.\n'
              % version)
    out.write('#include "engine/privacy/pii_unicode_data.h"\n\n')
    out.write('namespace sotto::privacy::detail {\n\n')
    out.write('const char* const kPiiUnicodeVersion = "%s";\n' % version)
    out.write('const std::size_t kMaxDecompositionLength = %d;\n\n' % max_len)
    out.write('// Full compatibility decompositions: {code point, first index in kDecompPool, length}, sorted.\n')
    emit('kDecompIndex', 'DecompEntry', index, lambda e: '{0x%X, %d, %d}' % e)
    emit('kDecompPool', 'std::uint32_t', pool, lambda c: '0x%X' % c)
    out.write('// Canonical combining class runs: (first code point << 8) | class, until the next entry.\n')
    runs = []
    for cp in range(MAX_CP):
        v = ccc.get(cp, 0)
        if not runs or runs[-1][1] != v:
            runs.append((cp, v))
    emit('kCccRuns', 'std::uint32_t', runs, lambda r: '0x%08X' % ((r[0] << 8) | r[1]))
    out.write('// Canonical composition pairs (primary composites): {first, second, composite}, sorted.\n')
    emit('kComposePairs', 'ComposePair', pairs, lambda p: '{0x%X, 0x%X, 0x%X}' % p)
    out.write('// Removed before classifying: format characters (Cf) and default-ignorable code points (not spaces).\n')
    emit('kIgnorableRanges', 'CpRange', ranges_of(ignorable), lambda r: '{0x%X, 0x%X}' % r)
    out.write('// White_Space: collapsed to one ASCII space.\n')
    emit('kSpaceRanges', 'CpRange', ranges_of(white), lambda r: '{0x%X, 0x%X}' % r)
    out.write('// Decimal digits (Nd): the zero of each run of ten.\n')
    emit('kDigitZeros', 'std::uint32_t', zeros, lambda c: '0x%X' % c)
    out.write('}  // namespace sotto::privacy::detail\n')


if __name__ == '__main__':
    main()
