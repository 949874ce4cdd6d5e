#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# Generates engine/llm/unicode_data.cpp: the code point class table the BPE pre-tokenizers need.
#
# Input: the Unicode Character Database from Debian's `unicode-data` package (UnicodeData.txt for the
# general category, PropList.txt for White_Space). The output is committed, so building never needs the
# package; rerun this only to move to a newer Unicode version:
#
#   apt-get install unicode-data
#   /usr/bin/python3 engine/llm/gen_unicode_data.py > engine/llm/unicode_data.cpp
#
# The classes mirror llama.cpp's code point flags (one general-category group per code point plus the
# White_Space property), because the pre-tokenizer regexes (\p{L}, \p{N}, \s ...) are evaluated over them.
import os
import re
import sys

UCD = os.environ.get('UCD_DIR', '/usr/share/unicode')
MAX_CP = 0x110000

# Class ids: must match enum class CpCategory in unicode.h.
CAT = {'undefined': 0, 'number': 1, 'letter': 2, 'separator': 3, 'mark': 4, 'punctuation': 5,
       'symbol': 6, 'control': 7}
WHITESPACE_BIT = 0x8
GROUP = {
    'Cn': 'undefined',
    'Cc': 'control', 'Cf': 'control', 'Co': 'control', 'Cs': 'control',
    'Ll': 'letter', 'Lm': 'letter', 'Lo': 'letter', 'Lt': 'letter', 'Lu': 'letter',
    'Mc': 'mark', 'Me': 'mark', 'Mn': 'mark',
    'Nd': 'number', 'Nl': 'number', 'No': 'number',
    'Pc': 'punctuation', 'Pd': 'punctuation', 'Pe': 'punctuation', 'Pf': 'punctuation',
    'Pi': 'punctuation', 'Po': 'punctuation', 'Ps': 'punctuation',
    'Sc': 'symbol', 'Sk': 'symbol', 'Sm': 'symbol', 'So': 'symbol',
    'Zl': 'separator', 'Zp': 'separator', 'Zs': 'separator',
}


def main():
    cls = bytearray([CAT['undefined']]) * MAX_CP
    lower = {}
    version = '?'
    with open(os.path.join(UCD, 'ReadMe.txt'), encoding='utf-8') as f:
        for line in f:
            m = re.search(r'Version (\d+\.\d+\.\d+)', line)
            if m:
                version = m.group(1)
                break
    first = None
    with open(os.path.join(UCD, 'UnicodeData.txt'), encoding='utf-8') as f:
        for line in f:
            fields = line.rstrip('\n').split(';')
            cp = int(fields[0], 16)
            name, gc = fields[1], fields[2]
            if fields[13]:
                lower[cp] = int(fields[13], 16)
            if name.endswith(', First>'):
                first = cp
                continue
            if name.endswith(', Last>'):
                for c in range(first, cp + 1):
                    cls[c] = CAT[GROUP[gc]]
                first = None
                continue
            cls[cp] = CAT[GROUP[gc]]
    with open(os.path.join(UCD, 'PropList.txt'), encoding='utf-8') as f:
        for line in f:
            line = line.split('#')[0].strip()
            if not line:
                continue
            rng, prop = [s.strip() for s in line.split(';')]
            if prop != 'White_Space':
                continue
            a, _, b = rng.partition('..')
            for c in range(int(a, 16), int(b or a, 16) + 1):
                cls[c] |= WHITESPACE_BIT

    # The case-insensitive contraction rules ('s 't 're 've 'm 'll 'd) compare lowercase forms against these
    # ASCII letters; unicode.cpp lowercases ASCII only, which is exact while no other code point lowercases to
    # one of them (U+0130 -> 'i' and U+212A -> 'k' exist, but those letters are not used).
    for cp, lc in lower.items():
        if cp >= 0x80 and chr(lc) in 'stremvld':
            sys.exit('U+%04X lowercases to ASCII %r: the ASCII-only case folding in unicode.cpp is no longer exact'
                     % (cp, chr(lc)))

    ranges = []
    for cp in range(MAX_CP):
        if not ranges or ranges[-1][1] != cls[cp]:
            ranges.append((cp, cls[cp]))

    out = sys.stdout
    out.write('// SPDX-License-Identifier: MIT\n')
    out.write('// Code point classes (general-category group + White_Space) for the pre-tokenizers. Generated.\n')
    out.write('//\n// Unicode %s UCD from Debian\'s unicode-data package, by engine/llm/gen_unicode_data.py: do not edit.\n'
              % version)
    out.write('#include "engine/llm/unicode_data.h"\n\n')
    out.write('namespace sotto::llm::unicode_detail {\n\n')
    out.write('// Unicode version of the table (for messages and tests).\n')
    out.write('const char* const kUnicodeVersion = "%s";\n\n' % version)
    out.write('// (first code point << 8) | class byte; a range runs until the next entry\'s first code point.\n')
    out.write('const uint32_t kCpRanges[] = {\n')
    line = '   '
    for cp, c in ranges:
        item = ' 0x%08X,' % ((cp << 8) | c)
        if len(line) + len(item) > 116:
            out.write(line + '\n')
            line = '   '
        line += item
    out.write(line + '\n};\n\n')
    out.write('const size_t kCpRangeCount = sizeof(kCpRanges) / sizeof(kCpRanges[0]);\n\n')
    out.write('}  // namespace sotto::llm::unicode_detail\n')


if __name__ == '__main__':
    main()
