"""Entity ids (`<type>:<slug>`, the IRI's last two segments) that a concept keeps from one build to the next.

An id is a function of the concept alone, never of the other concepts' paper counts, so adding papers renames
no entity whose concept (its type, label and the key its label reads as) did not change:

- the slug is the label's, lower-cased, its letters kept in any script (accents dropped: Fréchet -> frechet;
  `Ω-Mixer` -> `ω-mixer`, percent-escaped in IRIs as `%CF%89-mixer`), `+` and `#` spelled out;
- the concept that *owns* its label keeps the bare slug: the label, read as the corpus reads it without a
  paper (its key, through the corpus's agreed acronym definition and the gazetteer), is one of the concept's
  member keys. Keys are partitioned among concepts, so at most one concept owns a given key; when different
  keys slug alike (`mIoU` and `MIoU`, `BERT` and `bert`), a key the gazetteer knows goes first, then one the label
  itself keys to (before a reading or a coined name's long form), then an all-capital acronym key, a plain key,
  any other, then by key, whatever the papers;
- any other concept (one that borrows its label: `DP` labelling a Dirichlet process that most papers' `DP` is
  not, or a second coinage of a name) gets `--` and six hex digits of its own concept key's SHA-1 after the
  slug (`model:bert--3f2a9c`); a slug never contains `--`, so no label can take such an id. Only when no owner
  has the slug does the first such concept (by the same key order) take it bare: a concept whose label's reading
  moved elsewhere as the corpus grew (an acronym the new papers define) keeps its id.
"""
from __future__ import annotations

import hashlib
import re
import unicodedata
from dataclasses import dataclass
from typing import Iterable

NOT_LETTER = re.compile(r"[\W_]+")
SUFFIX = "--"


def slug(text: str) -> str:
    """A lowercase slug of a label: letters and digits of any script kept (combining accents dropped), any other
    run one hyphen; + and # are spelled out (PointNet++ -> pointnet-plus-plus)."""
    text = text.replace("+", " plus ").replace("#", " sharp ")
    decomposed = unicodedata.normalize("NFKD", text)
    letters = "".join(c for c in decomposed if not unicodedata.combining(c))
    return NOT_LETTER.sub("-", unicodedata.normalize("NFC", letters).lower()).strip("-") or "x"


@dataclass(frozen=True)
class Concept:
    """What an id is derived from: the type, the label, the concept's key and whether the concept owns its label."""

    type: str
    label: str
    key: str
    owns_label: bool
    standing: int = 0  # among owners of one slug, lower first: a key the gazetteer knows, then the label's own key


def precedence(concept: Concept) -> tuple[int, int, str]:
    """Which of several concepts whose labels slug alike takes the bare slug (the module docstring's order)."""
    return (concept.standing, *key_rank(concept.key))


def key_rank(key: str) -> tuple[int, str]:
    """Which owning concept takes a slug that several keys give: an all-capital acronym key, a plain key, others."""
    if key.isupper():
        return 0, key
    return (1 if key == key.lower() else 2), key


def digest(key: str) -> str:
    """Six hex digits of a concept key's SHA-1 (UTF-8)."""
    return hashlib.sha1(key.encode("utf-8")).hexdigest()[:6]


def entity_ids(concepts: Iterable[Concept]) -> list[str]:
    """One unique id per concept, in order, each a function of that concept alone (see the module docstring)."""
    concepts = list(concepts)
    bases = [f"{c.type}:{slug(c.label)}" for c in concepts]
    owners: dict[str, list[int]] = {}
    for index, (concept, base) in enumerate(zip(concepts, bases)):
        if concept.owns_label:
            owners.setdefault(base, []).append(index)
    bare = {min(indexes, key=lambda i: precedence(concepts[i])) for indexes in owners.values()}
    others: dict[str, list[int]] = {}
    for index, base in enumerate(bases):
        if base not in owners:
            others.setdefault(base, []).append(index)
    bare |= {min(indexes, key=lambda i: precedence(concepts[i])) for indexes in others.values()}
    ids = [base if i in bare else f"{base}{SUFFIX}{digest(c.key)}" for i, (c, base) in enumerate(zip(concepts, bases))]
    if len(set(ids)) != len(ids):
        raise ValueError("two concepts share a key: ids would not be unique")
    return ids
