#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# Generates engine/privacy/pii_bip39_data.cpp: the BIP-39 English word list, by which the personal-data classifier
# recognizes a wallet seed phrase (a run of twelve or more of these words).
#
# Input: english.txt from Debian's `python3-mnemonic` package (the reference implementation of BIP-39, by
# SatoshiLabs, MIT licence; 2048 words, sorted). The output is committed, so building never needs the package:
#
#   apt-get download python3-mnemonic && dpkg -x python3-mnemonic_*.deb x
#   WORDLIST=x/usr/lib/python3/dist-packages/mnemonic/wordlist/english.txt \
#     /usr/bin/python3 engine/privacy/gen_pii_bip39.py > engine/privacy/pii_bip39_data.cpp
import hashlib
import os
import sys

PATH = os.environ.get('WORDLIST', '/usr/lib/python3/dist-packages/mnemonic/wordlist/english.txt')
# SHA-256 of the standard list (BIP-39's own english.txt): a different file is not the list wallets use.
SHA256 = '2f5eed53a4727b4bf8880d8f3f199efc90e58503646d9ff8eff3a2ed3b24dbda'


def main():
    data = open(PATH, 'rb').read()
    if hashlib.sha256(data).hexdigest() != SHA256:
        sys.exit('%s is not the standard BIP-39 English list (SHA-256 differs)' % PATH)
    words = data.decode('ascii').split()
    if len(words) != 2048 or words != sorted(words):
        sys.exit('expected 2048 sorted words')
    out = sys.stdout
    out.write('// SPDX-License-Identifier: MIT\n')
    out.write('// The BIP-39 English word list (2048 words, sorted). Generated.\n//\n')
    out.write('// From english.txt of Debian\'s python3-mnemonic (SatoshiLabs, MIT licence; SHA-256 %s),\n' % SHA256)
    out.write('// by engine/privacy/gen_pii_bip39.py: do not edit.\n')
    out.write('#include "engine/privacy/pii_secrets.h"\n\n')
    out.write('namespace sotto::privacy::detail {\n\n')
    out.write('const std::string_view kBip39English[kBip39WordCount] = {\n')
    line = '   '
    for w in words:
        item = ' "%s",' % w
        if len(line) + len(item) > 116:
            out.write(line + '\n')
            line = '   '
        line += item
    out.write(line + '\n};\n\n}  // namespace sotto::privacy::detail\n')


if __name__ == '__main__':
    main()
