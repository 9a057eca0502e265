"""The reading of a bare acronym an abstract uses without defining it, from what the abstract says around it.

An acronym the corpus defines in several ways (DP: Dirichlet process, differential privacy, dynamic programming)
takes, in a paper that does not define it, the reading the paper's own words support:
1. the reading whose long form the abstract writes (`Dirichlet process` somewhere in the text), if only one is
   (a long form written only inside another's, `machine translation` in `neural machine translation`, is not);
2. else the reading whose defining abstracts share the most (rare) words with this one (`mixture`, `prior`,
   `nonparametric` for the Dirichlet process), when it scores at least CLEAR times the next reading and each reading
   compared has two or more defining abstracts (an abstract the corpus holds twice, or copies of it, counts once);
3. else no opinion: the caller keeps its default (the corpus's agreed reading, the gazetteer's, or by type).
"""
from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from functools import cached_property
from typing import Mapping

CLEAR = 1.5  # the best reading's context score over the next one's before the context decides
PRIOR = 4  # pseudo-papers with the corpus's word shares added to each reading's defining papers
WORD = re.compile(r"[a-z][a-z0-9]+")


def squashed(text: str) -> str:
    """The text lower-cased without anything but letters and digits (keys are written so: `dirichletprocess`)."""
    return re.sub(r"[^0-9a-z]+", "", text.lower())


SENTENCE = re.compile(r"(?<=[.!?;])\s+")


def sentence_words(sentence: str) -> tuple[str, frozenset[int], frozenset[int]]:
    """A lower-cased sentence squashed like a key, with the offsets where its words start and end there."""
    words = re.findall(r"[0-9a-z]+", sentence)
    starts, ends, at = set(), set(), 0
    for word in words:
        starts.add(at)
        at += len(word)
        ends.add(at)
    return "".join(words), frozenset(starts), frozenset(ends)


class Context:
    """The abstracts' words, to read acronyms by."""

    def __init__(self, texts: Mapping[str, str]) -> None:
        self.texts = texts
        self._words: dict[str, frozenset[str]] = {}
        self._squashed: dict[str, str] = {}
        self._shares: dict[tuple[str, ...], Counter] = {}  # defining papers -> how many of them have each word
        self._distinct: dict[tuple[str, ...], list[str]] = {}  # defining papers -> one per distinct abstract
        self._sentences: dict[str, list[tuple[str, frozenset[int], frozenset[int]]]] = {}  # see `writes`

    def words(self, paper: str) -> frozenset[str]:
        """The distinct words of a paper's abstract."""
        if paper not in self._words:
            self._words[paper] = frozenset(WORD.findall(self.texts.get(paper, "").lower()))
        return self._words[paper]

    def flat(self, paper: str) -> str:
        """A paper's abstract squashed like a key."""
        if paper not in self._squashed:
            self._squashed[paper] = squashed(self.texts.get(paper, ""))
        return self._squashed[paper]

    def writes(self, paper: str, key: str) -> bool:
        """Whether a sentence of the paper writes the key's words whole (`binary neural networks` for
        `binaryneuralnetwork`; not `zorb. Attention` for `zorbattention`, nor `subinary neural` for it)."""
        if paper not in self._sentences:
            self._sentences[paper] = [sentence_words(s) for s in SENTENCE.split(self.texts.get(paper, "").lower())]
        for flat, starts, ends in self._sentences[paper]:
            at = flat.find(key)
            while at >= 0:
                end = at + len(key)
                if at in starts and (end in ends or end + 1 in ends and flat[end] == "s"):
                    return True
                at = flat.find(key, at + 1)
        return False

    @cached_property
    def frequency(self) -> Counter:
        """How many abstracts have each word."""
        return Counter(w for paper in self.texts for w in self.words(paper))

    def idf(self, word: str) -> float:
        """The word's inverse document frequency (rare words weigh more)."""
        return math.log((1 + len(self.texts)) / (1 + self.frequency[word]))

    def reading(self, paper: str, readings: Mapping[str, list[str]], long_keys: Mapping[str, set[str]],
                default: str) -> str | None:
        """The reading the paper's words support among `readings` (concept key -> its defining papers; `long_keys`:
        concept key -> the keys of its long forms), or None when they support none clearly."""
        if paper not in self.texts or len(readings) < 2:
            return None
        flat = self.flat(paper)
        found = {k: {long for long in {*long_keys.get(k, ()), k} if long in flat} for k in sorted(readings)}
        written = [k for k, longs in found.items() if longs and not any(  # `machine translation` inside `neural ...`
            o != k and any(long != other and long in other for long in longs for other in found[o]) for o in found)]
        if len(written) == 1:
            return written[0]
        readings = {k: self.distinct(papers) for k, papers in readings.items()}
        if any(len(papers) < 2 for papers in readings.values()):
            return None  # a reading without two defining abstracts has no context to compare
        mine = self.words(paper)
        scores = {k: self.score(mine, papers) for k, papers in readings.items()}
        ranked = sorted(scores, key=lambda k: (-scores[k], k))
        best, second = scores[ranked[0]], scores[ranked[1]]
        return ranked[0] if best > 0 and best >= CLEAR * second else None

    def distinct(self, papers: list[str]) -> list[str]:
        """The papers, one per distinct abstract (a corpus that holds an abstract twice, or copies of it, has one
        defining abstract there, not two that share every word)."""
        key = tuple(papers)
        if key not in self._distinct:
            seen: set[str] = set()
            self._distinct[key] = [p for p in papers if not (self.flat(p) in seen or seen.add(self.flat(p)))]
        return self._distinct[key]

    def share(self, papers: list[str]) -> Counter:
        """How many of the papers' abstracts have each word (computed once per list of papers)."""
        key = tuple(papers)
        if key not in self._shares:
            self._shares[key] = Counter(w for p in papers for w in self.words(p))
        return self._shares[key]

    def score(self, mine: frozenset[str], papers: list[str]) -> float:
        """How much a paper's words share with the abstracts of a reading's defining papers (word weight: how much more
        of those abstracts have it than of all abstracts, times its rarity; a reading few papers define weighs less:
        two abstracts share many words by chance)."""
        share = self.share(papers)
        total = len(self.texts)

        def lift(word: str) -> float:  # the reading's share, shrunk towards all abstracts' by PRIOR pseudo-papers
            base = self.frequency[word] / total
            return (share[word] + PRIOR * base) / (len(papers) + PRIOR) - base
        return sum(max(0.0, lift(w)) * self.idf(w) for w in mine if w in share)


def definers(local: Mapping[tuple[str, str], str], read) -> tuple[dict, dict]:
    """acronym key -> concept key -> its defining papers, and concept key -> its long keys, from the papers' own
    definitions (`read(short, long, paper)` is the concept a definition names)."""
    papers: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    longs: dict[str, set[str]] = defaultdict(set)
    for (paper, short), long in sorted(local.items()):
        concept = read(short, long, paper)
        papers[short][concept].append(paper)
        longs[concept].add(long)
    return papers, longs
