"""Keys that name one concept although written apart: one paper's typo of a name others write (`stochastic gradient
decent`), and concepts that got one type and one label (a long form one paper bound to the acronym it defines)."""
from __future__ import annotations

import re
from collections import defaultdict
from typing import Callable, Iterable

from kg.graph.ids import slug
from kg.graph.variants import regroup
from kg.text.keys import acronym_key
from kg.types import Entity, Mention

WORDS = re.compile(r"[\s\-\u2010-\u2015]+")
TYPO_LENGTH = 5  # a letter wrong in a shorter word is too often another word (`mode`, `more`)
TYPO_PAPERS = 3  # the spelling a name's typo is measured against: written by this many papers, or known
TYPO_RATIO = 5  # ... and by this many times the papers writing the typo (at most TYPO_PAPERS of them)
TYPO_WORD_PAPERS = 5  # a wrong word several papers write: in names of at most this many papers (not `tracing`)
VERSIONED = re.compile(r"[A-Za-z]{3,}[ -]v?\d+(\.\d+)*[A-Za-z-]*")  # Sonnet 4.6, Opus 4.7; not v1.5 or B0


def typo_pairs(written: dict[str, list[tuple[str, str, str]]],
               known: dict[str, tuple[str, ...]]) -> Iterable[tuple[str, str]]:
    """Keys a few papers write (no proposal of it) as several words with one letter wrong, missing, extra or swapped
    inside one long word, not an acronym (`stochastic gradient decent`, `mutli-armed bandit`, `Aracade Learning
    Environment`), and the one key that a name of it differs from so, written by TYPO_PAPERS papers (TYPO_RATIO
    times the typo's when several papers repeat it) or `known` (key -> the gazetteer's forms of it); the wrong word
    is one paper's, or names with the right word are TYPO_RATIO times as many papers'. `written` gives each key's
    (paper, name, role) forms: its mentions and the long forms its papers define it by."""
    papers = {key: {p for p, _, _ in forms} for key, forms in written.items()}
    names = {key: sorted({n for _, n, _ in forms}) for key, forms in written.items()}
    word_papers: dict[str, set[str]] = defaultdict(set)
    for key, found in names.items():
        for word in {w for name in found for w in WORDS.split(name.lower())}:
            word_papers[word] |= papers[key]
    slots: dict[tuple[str, ...], set[tuple[str, str]]] = defaultdict(set)
    for key in sorted(written):
        for name in names[key] * (len(papers[key]) >= TYPO_PAPERS) + list(known.get(key, ())):
            lowered = WORDS.split(name.lower())
            for i, word in enumerate(lowered):
                if len(word) >= TYPO_LENGTH - 1 and word.isalpha():
                    slots[(*lowered[:i], "*", *lowered[i + 1:])].add((key, word))
    for key in sorted(written):
        if len(papers[key]) > TYPO_PAPERS or any(role == "proposed" for _, _, role in written[key]) or key in known:
            continue
        found = {right for name in names[key] if len(WORDS.split(name)) > 1  # a one-word name is coined as written
                 for right in typo_of(name, key, slots, word_papers)  # (`SIDER`, `CroCo`: no Spider, no COCO)
                 if right in known or len(papers[key]) == 1 or len(papers[right]) >= TYPO_RATIO * len(papers[key])}
        if len(found) == 1:
            yield key, found.pop()


def typo_of(name: str, key: str, slots: dict[tuple[str, ...], set[tuple[str, str]]],
            word_papers: dict[str, set[str]]) -> set[str]:
    """The keys a name of several words is a one-letter typo of (`typo_pairs`): its wrong word is one paper's, or a
    few papers' and rare beside the right one (TYPO_RATIO times as many papers write the right word in names)."""
    found = set()
    lowered = WORDS.split(name.lower())
    for i, (word, as_written) in enumerate(zip(lowered, WORDS.split(name))):
        if len(word) < TYPO_LENGTH - 1 or not word.isalpha() or any(c.isupper() for c in as_written[1:]):
            continue  # an acronym or a name with inner capitals is spelled on purpose
        wrong = len(word_papers[word])
        found |= {k for k, right in slots.get((*lowered[:i], "*", *lowered[i + 1:]), ()) if k != key
                  and one_typo(word, right) and (wrong <= 1 or wrong <= TYPO_WORD_PAPERS
                                                 and len(word_papers[right]) >= TYPO_RATIO * wrong)}
    return found


def one_typo(wrong: str, right: str) -> bool:
    """One letter wrong, missing, extra or two swapped inside a word of TYPO_LENGTH letters or more (its first and
    last letters right)."""
    if wrong == right or max(len(wrong), len(right)) < TYPO_LENGTH or abs(len(wrong) - len(right)) > 1 \
            or wrong[0] != right[0] or wrong[-1] != right[-1]:
        return False
    i = next((i for i, (a, b) in enumerate(zip(wrong, right)) if a != b), min(len(wrong), len(right)))
    if len(wrong) == len(right):
        swapped = wrong[i:i + 2] == right[i:i + 2][::-1] and wrong[i + 2:] == right[i + 2:]
        return wrong[i + 1:] == right[i + 1:] or swapped
    short, long = sorted((wrong, right), key=len)
    return short[i:] == long[i + 1:]


def label_pairs(labelled: dict[str, tuple[str, str]], coinage: Callable[[str], bool]) -> Iterable[tuple[str, str]]:
    """Keys whose concepts got one type and one label, a phrase or a name (not an acronym, which different papers
    read their own ways, nor a coinage; a phrase in any case, with hyphens or spaces): one concept that papers write
    alike, apart only because a paper bound its long form to the acronym it defines (`Truncated backpropagation
    through time (TBPTT)`, `Sentinel-2 (S2)`). `labelled` maps each key to its concept's (type, label)."""
    first: dict[tuple[str, str], str] = {}
    for key in sorted(labelled):
        kind, label = labelled[key]
        if coinage(key) or acronym_key(label) or (len(label) < 5 and " " not in label):
            continue
        name = slug(label) if " " in label or "-" in label else label  # a phrase in any case, hyphens or spaces
        if first.setdefault((kind, name), key) != key:
            yield first[(kind, name)], key


Groups = dict[str, list[Mention]]


def same_labels(groups: Groups, members: dict[str, list[str]], entities: list[Entity], entity_of: dict[str, str],
                coinage: Callable[[str], bool]) -> tuple[Groups, dict[str, list[str]], bool]:
    """The groups joined whose entities have one type and one label (`label_pairs`), and whether any were."""
    by_id = {e.id: e for e in entities}
    pairs = list(label_pairs({k: (by_id[i].type, by_id[i].label) for k, i in entity_of.items()}, coinage))
    if not pairs:
        return groups, members, False
    joined, joined_members = regroup(groups, pairs, members.__getitem__)
    return dict(joined), dict(joined_members), True


def family_pairs(names: dict[str, tuple[str, int]], families: Iterable[str],
                 key_of: Callable[[str], str]) -> Iterable[tuple[str, str]]:
    """A model's versioned name written without its family (`Sonnet 4.6`: a word of three letters or more, then a
    version) and the key of the family's name before it (`Claude Sonnet 4.6`), written by as many papers or more;
    `names` maps model keys to their most written name and their papers, `families` are the gazetteer's one-word
    model names. Not a family's own model written with a tool's name before it (`Codex GPT-5.5` is no GPT-5.5)."""
    families = sorted(families)
    for key in sorted(names):
        name, papers = names[key]
        if not VERSIONED.fullmatch(name) or name.split()[0] in families:
            continue
        found = {full for family in families
                 if (full := key_of(f"{family} {name}")) in names and full != key and names[full][1] >= papers}
        if len(found) == 1:
            yield key, found.pop()


YEAR = re.compile(r"(?P<name>.*[A-Za-z])[\s-]?20(?P<year>\d\d)")  # AIME 2025, AIME-2025, AIME2025
POSSESSIVE = re.compile(r"(?<=[A-Za-z])['\u2019]s\b")  # Cohen's kappa


def written_pairs(forms: Iterable[tuple[str, str, str]], keys: set[str], type_of: Callable[[str], str],
                  resolve_form: Callable[[str, str], str]) -> Iterable[tuple[str, str]]:
    """(key, paper, written form) written another way that is a key of its type too: a benchmark's year in four digits
    or two (`AIME 2025` = `AIME25`), a name's possessive or not (`Cohen's kappa` = `Cohen kappa`)."""
    for key, paper, form in forms:
        others = []
        if (year := YEAR.fullmatch(form)) and type_of(key) == "dataset":
            others = [f"{year.group('name')}{sep}{year.group('year')}" for sep in ("", "-", " ")]
        if POSSESSIVE.search(form):
            others.append(POSSESSIVE.sub("", form))
        for other in others:
            target = resolve_form(paper, other)
            if target in keys and target != key and type_of(target) == type_of(key):
                yield key, target
                break
