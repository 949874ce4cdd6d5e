# SPDX-License-Identifier: MIT
#
# lexres.py: word lists for the training generator from two well-kept Debian resources, so the models see far more
# words than a hand-written list holds:
#   - WordNet 3.0 (package wordnet-base, /usr/share/wordnet): hyponyms of a sense, e.g. every disease or medicine it
#     knows, the people and cities it names (public figures and public places: hard negatives), foods, animals;
#   - the CMU pronouncing dictionary that pocketsphinx ships (pocketsphinx-en-us): words said the same way, the
#     recogniser's likeliest substitutions.
# The training generator reads these, and engine/privacy/gen_pii_medical.py writes the product's WordNet medical
# table from them (committed: the product never reads WordNet). Output depends only on the files' contents,
# which Debian pins per release, so a seed still gives the same bytes.

import os
import re

WORDNET_DIR = os.environ.get("SOTTO_WORDNET_DIR", "/usr/share/wordnet")
CMUDICT = os.environ.get("SOTTO_CMUDICT", "/usr/share/pocketsphinx/model/en-us/cmudict-en-us.dict")


class Missing(RuntimeError):
    pass


class WordNet:
    """Just enough of WordNet's database format (wndb(5)): synsets, their words, hyponym pointers."""

    def __init__(self, root=WORDNET_DIR):
        self.root = root
        self._data = {}
        self._index = {}
        for pos, name in (("n", "noun"), ("v", "verb")):
            path = os.path.join(root, "data." + name)
            if not os.path.exists(path):
                raise Missing(f"{path} not found: install Debian's wordnet-base (apt-get install wordnet-base)")
            self._data[pos] = self._read_data(path)
            self._index[pos] = self._read_index(os.path.join(root, "index." + name))
        self._senses = {}
        for name in ("noun", "verb", "adj", "adv"):
            for lemma, offs in self._read_index(os.path.join(root, "index." + name)).items():
                self._senses[lemma] = self._senses.get(lemma, 0) + len(offs)

    @staticmethod
    def _read_data(path):
        synsets = {}
        with open(path, encoding="latin-1") as f:
            for line in f:
                if line.startswith("  "):
                    continue  # licence header
                fields = line.split(" | ")[0].split()
                off = fields[0]
                n_words = int(fields[3], 16)
                words = [fields[4 + 2 * i] for i in range(n_words)]
                i = 4 + 2 * n_words
                n_ptr = int(fields[i])
                ptrs = []
                for k in range(n_ptr):
                    sym, target, pos = fields[i + 1 + 4 * k: i + 4 + 4 * k]
                    ptrs.append((sym, target, pos))
                synsets[off] = (words, ptrs)
        return synsets

    @staticmethod
    def _read_index(path):
        index = {}
        with open(path, encoding="latin-1") as f:
            for line in f:
                if line.startswith("  "):
                    continue
                fields = line.split()
                n_senses = int(fields[2])
                index[fields[0]] = fields[-n_senses:]  # synset offsets, most frequent sense first
        return index

    def sense(self, lemma, pos, n):
        """Offset of a lemma's n-th sense (1-based, WordNet's order)."""
        return self._index[pos][lemma.replace(" ", "_")][n - 1]

    def examples(self):
        """The example sentences of every gloss (the quoted parts): ordinary English in which everyday words,
        command words among them, are used in statements, questions and descriptions."""
        out = []
        for name in ("noun", "verb", "adj", "adv"):
            with open(os.path.join(self.root, "data." + name), encoding="latin-1") as f:
                for line in f:
                    if not line.startswith("  ") and " | " in line:
                        out += re.findall(r'"([^"]+)"', line.split(" | ", 1)[1])
        return out

    def sense_count(self, lemma):
        """Senses of a lemma over every part of speech: 1 means the word has one meaning."""
        return self._senses.get(lemma.replace(" ", "_"), 0)

    def words(self, off, pos="n"):
        return self._data[pos][off][0]

    def hyponyms(self, off, pos="n", instances=False, classes=True, depth=99):
        """Every synset below `off` (transitively): class hyponyms (~) and/or instance hyponyms (~i)."""
        seen, out, frontier = {off}, [], [(off, 0)]
        while frontier:
            cur, d = frontier.pop()
            if d >= depth:
                continue
            for sym, target, tpos in self._data[pos][cur][1]:
                if tpos != pos or target in seen:
                    continue
                if sym == "~i" and instances:
                    seen.add(target)
                    out.append(target)
                    frontier.append((target, d + 1))
                elif sym == "~":
                    seen.add(target)
                    if classes:
                        out.append(target)
                    frontier.append((target, d + 1))
        return sorted(out)

    def lemmas(self, offs, pos="n", max_words=3, proper=None):
        """Spoken forms of the synsets' words: lower case, underscores as spaces, WordNet's "(a)" markers and
        anything with digits or odd characters left out. proper=True keeps only capitalised words (names),
        False only lower-case ones (common nouns), None both."""
        out = set()
        for off in offs:
            for w in self._data[pos][off][0]:
                w = re.sub(r"\(.*\)$", "", w)
                if proper is not None and (w[:1].isupper() != proper):
                    continue
                s = w.replace("_", " ").lower()
                if not re.fullmatch(r"[a-z][a-z' -]*[a-z]", s) or "--" in s:
                    continue
                if len(s.split()) > max_words:
                    continue
                out.add(s.replace("-", " "))
        return sorted(out)


def common_words(root=WORDNET_DIR):
    """Single lower-case words WordNet lists in any part of speech (names are capitalised there, so left out)."""
    out = set()
    for name in ("noun", "verb", "adj", "adv"):
        path = os.path.join(root, "index." + name)
        if not os.path.exists(path):
            raise Missing(f"{path} not found: install Debian's wordnet-base (apt-get install wordnet-base)")
        with open(path, encoding="latin-1") as f:
            for line in f:
                w = line.split(" ", 1)[0]
                if re.fullmatch(r"[a-z]+", w):
                    out.add(w)
    # the index holds every lemma in lower case; a word counts when some synset spells it in lower case too
    lower = set()
    for name in ("noun", "verb", "adj", "adv"):
        with open(os.path.join(root, "data." + name), encoding="latin-1") as f:
            for line in f:
                if line.startswith("  "):
                    continue
                fields = line.split()
                for i in range(int(fields[3], 16)):
                    w = re.sub(r"\(.*\)$", "", fields[4 + 2 * i])
                    if re.fullmatch(r"[a-z]+", w):
                        lower.add(w)
    return out & lower


def cmu_words(path=CMUDICT):
    """Every plain word the CMU dictionary spells."""
    if not os.path.exists(path):
        raise Missing(f"{path} not found: install Debian's pocketsphinx-en-us")
    with open(path, encoding="latin-1") as f:
        return {w for w in (re.sub(r"\(\d+\)$", "", line.split(" ", 1)[0]) for line in f)
                if re.fullmatch(r"[a-z][a-z']*", w)}


def homophones(vocabulary, path=CMUDICT):
    """For each word of `vocabulary`, the other words the CMU dictionary says the same way (stress ignored,
    alternate pronunciations included), restricted to plain words."""
    if not os.path.exists(path):
        raise Missing(f"{path} not found: install Debian's pocketsphinx-en-us")
    by_sound, sounds = {}, {}
    with open(path, encoding="latin-1") as f:
        for line in f:
            parts = line.split()
            if len(parts) < 2:
                continue
            word = re.sub(r"\(\d+\)$", "", parts[0])
            if not re.fullmatch(r"[a-z][a-z']*", word):
                continue
            key = " ".join(re.sub(r"\d", "", p) for p in parts[1:])
            by_sound.setdefault(key, set()).add(word)
            sounds.setdefault(word, set()).add(key)
    out = {}
    for w in sorted(vocabulary):
        alts = set()
        for key in sounds.get(w, ()):
            alts |= by_sound[key]
        alts.discard(w)
        if alts:
            out[w] = sorted(alts)
    return out
