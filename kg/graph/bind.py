"""Definitions an abstract writes between two of its own mentions: `long form (X)` or `X (long form)`, where X is a
short name whose letters the long form's words spell in order (`dual-energy X-ray absorptiometry (DXA)`,
`CADE (Contrastive Adaptive Debias Ensemble)`). Such a pair is one concept in that paper whatever the acronym
detector found, so the short name and its long form are one node with one type (`resolve` reads these pairs as
the paper's own definitions, before any the detector found).

What counts as written so (`written`): a kind word may stand between the first form and the bracket (`sign
gradient method (signSGD)`, `Zorb Quux network (ZQN)`); a span that runs on over the closing bracket (`NLU)`) ends
at it; the bracketed short name need not be a mention there if the paper mentions it elsewhere (`(SOTOPO)`). A long
form the extractor cut short of words the short name spells (`stochastic gradient descent (signSGD)` in `sign
stochastic gradient descent (signSGD)`, `Residual Network (RevNet)` after `Reversible`) is first extended to them
(`completed`)."""
from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import replace
from typing import Iterable, Iterator

from kg.graph.evidence import HEADS, head_pattern
from kg.types import Mention

OPEN = re.compile(r"\s*[(\[]\s*")
CLOSE = re.compile(r"\s*[)\]]")
KIND = re.compile(r"\s+" + head_pattern(w for w in HEADS if w.islower()), re.I)  # `long form network (X)`
KIND_AT_END = re.compile(KIND.pattern + "$", re.I)
WORDS = re.compile(r"[\s\-\u2010-\u2015/]+")
SHORT = re.compile(r"[A-Za-z0-9][\w\-+.]*")  # one token (CADE, DXA, Mamba-2, GPT-4o)
CHUNK = re.compile(r"[A-Z\u0391-\u03a9][a-z]*|[a-z]+|\d+")  # RevNet: Rev, Net; signSGD: sign, S, G, D
STOPWORDS = frozenset("a an and by for from in of on the to via with".split())  # function words of long forms
WORD_BEFORE = re.compile(r"([^\W_][\w\-\u2010\u2011]*)\s+$")  # the word before a span, in the same clause


def spells(short: str, long: str) -> bool:
    """Whether the short name abbreviates the long form: one token with a capital, no longer than the long form's
    letters, its first letter the long form's, no more capitals than the long form has words plus one (a word in
    capitals counts its capitals: `Fast-Slow RNN (FS-RNN)`), its capitals found in order among the long form's
    letters, and each spaced word of the long form (one allowed apart in three or more) beginning with a letter the
    short name has; not a long form that has the short name as a word."""
    words = [w for w in WORDS.split(long.lower()) if w]
    if len(words) < 2 or not SHORT.fullmatch(short) or not any(c.isupper() for c in short):
        return False
    if short in WORDS.split(long):
        return False  # a long form with the short name as one of its words is a variant of it (CoVR-R of CoVR)
    letters = "".join(words)
    capitals = [c.lower() for c in short if c.isupper() or c.isdigit()]
    spelled = sum(max(1, sum(c.isupper() for c in w)) for w in WORDS.split(long) if w)  # RNN spells three capitals
    if short[0].lower() != letters[0] or len(short) >= len(letters) or len(capitals) > spelled + 1:
        return False  # SCSG is no `stochastic gradient`: more capitals than the long form has words (one spare)
    position = 0
    for capital in capitals:
        position = letters.find(capital, position)
        if position < 0:
            return False
        position += 1
    have = set(short.lower())
    spaced = long.lower().split()  # a hyphenated compound is one word here (dual-energy, X-ray)
    return sum(w[0] in have for w in spaced) >= len(spaced) - (len(spaced) > 2)  # `object recognition (Office)`: no


def begun(short: str, long: str) -> int:
    """How many of the long form's words begin with a piece of the short name, in order (`Rev` and `Net` begin
    `Reversible Residual Network` twice, `Residual Network` once): the most pieces that pair up with words. A plural
    acronym's `s` is no piece (`LIEAs`: L, I, E, A)."""
    singular = short[:-1] if len(short) > 2 and short.endswith("s") and short[-2].isupper() else short  # LIEAs
    pieces = [c.lower() for c in CHUNK.findall(singular)]
    words = [w for w in WORDS.split(long.lower()) if w]
    best = [0] * (len(words) + 1)
    for piece in pieces:
        row = best[:]
        for j, word in enumerate(words):
            row[j + 1] = max(row[j], best[j + 1], best[j] + word.startswith(piece))
        best = row
    return best[-1]


def extended(mention: Mention, short: str, text: str, floor: int = 0) -> Mention:
    """The long form with the words before it the short name also spells, when the mention missed them: each word
    added must begin with a piece of the short name no word of the mention began (`sign` of signSGD, `Reversible` of
    RevNet), and the whole must still spell the short name; a function word may stand between (`Reinforcement
    Learning from Human Feedback`), not begin it; none before `floor` (an opening bracket)."""
    best, start, name, count = mention, mention.start, mention.name, begun(short, mention.name)
    while match := WORD_BEFORE.search(text, max(floor, start - 60), start):
        start, name = match.start(), text[match.start():start] + name
        if match.group(1).lower() in STOPWORDS:
            continue
        if begun(short, name) <= count or not cased_alike(match.group(1), mention.name, text, start):
            break
        count += 1
        if spells(short, name):  # `Learning from Human Feedback` does not spell RLHF yet
            best = replace(mention, start=start, text=text[start:mention.end], name=name)
    return best


def cased_alike(word: str, name: str, text: str, start: int) -> bool:
    """Whether a word added before a name is written in its case (`Reversible` before `Residual Network`, `sign`
    before `stochastic gradient descent`; not `based on` before `Blackbox Matrix-Matrix multiplication`); a word
    opening a sentence, or starting with a digit, may be either."""
    if word[0].isdigit() or not name[:1].isalpha() or re.search(r"(?:^|[.!?:]\s+)$", text[:start]):
        return True
    return word[0].isupper() == name[0].isupper()


def without_kind(name: str) -> str:
    """The name without a kind word at its end (`variational autoencoder model`: `variational autoencoder`)."""
    return KIND_AT_END.sub("", name)


def written(group: list[Mention], text: str,
            within: bool = False) -> Iterator[tuple[Mention, str, Mention | None, int]]:
    """(first mention, bracketed name, its mention if one starts there, where the bracket opens) for each of a
    paper's mentions written `A (B)` or `A kind (B)`; a bracketed name that is no mention there counts when the
    paper mentions it elsewhere. `within`: also a bracketed mention after words of the bracket (`(Zippy Quux
    Network)` with `Quux Network` the mention), to extend it."""
    starts, names = defaultdict(list), {m.name for m in group}
    for mention in group:
        starts[mention.start].append(mention)
    for first in group:
        kind = KIND.match(text, first.end)
        gap = OPEN.match(text, kind.end() if kind else first.end)
        if not gap:
            continue
        words = re.match(r"(?:[^\W_][\w\-\u2010\u2011]*\s+){0,3}", text[gap.end():gap.end() + 60]) if within else None
        begins = {gap.end() + m.start() for m in re.finditer(r"(?<!\S)\S", words.group())} if words else set()
        inside = [m for at in sorted({gap.end(), *begins}) for m in starts.get(at, ()) if closed(m, text)]
        for second in inside:
            yield first, second.name, second, gap.start()
        bare = re.match(r"[^\s()\[\]]+(?=[)\]])", text[gap.end():gap.end() + 40])
        if not inside and bare and bare.group() in names and bare.group() != first.name:
            yield first, bare.group(), None, gap.start()


def closed(mention: Mention, text: str) -> bool:
    """Whether a bracketed mention ends at the closing bracket, or runs on over it (`NLU)`)."""
    return bool(CLOSE.match(text, mention.end)) or bool(re.search(r"[)\]]", text[mention.start:mention.end]))


def completed(mentions: Iterable[Mention], texts: dict[str, str]) -> dict[Mention, Mention]:
    """Long forms written `long (X)` or `X (long)` that the extractor cut short of words X spells, each mapped to
    the mention extended to them (`extended`)."""
    longer = {}
    for paper, group in by_paper(mentions, texts).items():
        text = texts[paper]
        for first, name, second, bracket in written(group, text, within=True):
            if second is not None and SHORT.fullmatch(first.name):
                if (found := extended(second, first.name, text, bracket + 1)) != second:
                    longer[second] = found
            elif (found := extended(with_kind(first, name, text), name, text)) != first:
                longer[first] = found
    return longer


def with_kind(mention: Mention, short: str, text: str) -> Mention:
    """The mention with the kind word written after it when the short name spells that word too (`Zippy Quux
    network (ZQN)`; not `sign gradient method (signSGD)`)."""
    kind = KIND.match(text, mention.end)
    name = mention.name + text[mention.end:kind.end()] if kind else ""
    if not kind or begun(short, name) <= begun(short, mention.name) or not spells(short, name):
        return mention
    return replace(mention, end=kind.end(), text=text[mention.start:kind.end()], name=name)


def by_paper(mentions: Iterable[Mention], texts: dict[str, str]) -> dict[str, list[Mention]]:
    """The mentions of each paper whose abstract is known."""
    grouped: dict[str, list[Mention]] = defaultdict(list)
    for mention in mentions:
        if mention.paper_id in texts:
            grouped[mention.paper_id].append(mention)
    return grouped


def bound_pairs(mentions: Iterable[Mention], texts: dict[str, str]) -> list[tuple[str, str, str]]:
    """(paper, short, long) for each pair of a paper's mentions written `A (B)` where one spells out the other."""
    found = []
    for paper, group in sorted(by_paper(mentions, texts).items()):
        for first, name, _, _ in written(group, texts[paper]):
            if spells(first.name, name):
                found.append((paper, first.name, name))
            elif spells(name, first.name):
                found.append((paper, name, first.name))
    return sorted(set(found))
