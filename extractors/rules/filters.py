"""Words and spans that look like names but are not entities: citation keys, cross-references, modifiers."""
from __future__ import annotations

import re


BRACKETS = re.compile(r"\[([^\[\]]{2,120})\]")
CITATION_ITEM = re.compile(r"^(?:[A-Z][A-Za-z+]*\d{2}(?:\d{2})?[a-z]?|.*\bet al\b.*|.*\b(?:19|20)\d{2}[a-z]?)$")
# Capitalised words that, followed by a number, point into the paper (Theorem 2, Table 3), not to an entity.
REFERENCE_WORDS = frozenset(
    "Theorem Lemma Corollary Proposition Definition Section Sec Figure Fig Table Appendix Eq Equation "
    "Algorithm Assumption Remark Example Chapter Conjecture Claim Line".split()
)
# Last parts that make a hyphenated word an adjective (GAN-based, RL-only, AI-generated).
ADJECTIVE_SUFFIXES = frozenset(
    "based style like only generated driven aware free specific level wise agnostic guided centric oriented "
    "dependent independent invariant equivariant conditioned enhanced powered friendly compatible induced "
    "native ready scale sized shaped type related bound heavy intensive efficient".split()
)


def citation_ranges(text: str) -> list[tuple[int, int]]:
    """Character ranges of bracketed citation lists: `[AB99]`, `[Smith et al., 2020; Lee 2021]`."""
    ranges = []
    for match in BRACKETS.finditer(text):
        items = [i.strip() for i in re.split(r"[,;]", match.group(1)) if i.strip()]
        if items and all(CITATION_ITEM.match(i) for i in items):
            ranges.append(match.span())
    return ranges


def inside(start: int, end: int, ranges: list[tuple[int, int]]) -> bool:
    """Whether [start, end) lies within one of the ranges."""
    return any(a <= start and end <= b for a, b in ranges)


def is_modifier_compound(word: str) -> bool:
    """A hyphenated modifier, not a name: `GAN-based`, `RL-only`, `non-Gaussian`, `multi-GPU`, `text-to-SQL`."""
    parts = word.split("-")
    if len(parts) < 2 or not all(parts):
        return False
    if parts[-1].lower() in ADJECTIVE_SUFFIXES and parts[-1].islower():
        return True
    first_plain = parts[0].isalpha() and parts[0].islower() and len(parts[0]) >= 2
    return first_plain and (len(parts) == 2 or "to" in parts[1:-1]) and any(c.isupper() for c in word)


COMBINATION = re.compile(r"[A-Za-z0-9]\+[A-Za-z]")  # `BERT+CRF`, `GPT-4+RAG`; not `UNet++` or `C++`


def is_combination(word: str) -> bool:
    """Two names joined by `+`: a combination of known parts, not a name of its own."""
    return bool(COMBINATION.search(word))


def skipped_text(text: str, first: str, start_char: int, end_char: int, citations: list[tuple[int, int]]) -> bool:
    """Whether a shape-found span (its text, its first token's text, its character offsets) is a citation key,
    a cross-reference, a modifier compound or a combination."""
    return (inside(start_char, end_char, citations) or first in REFERENCE_WORDS
            or (len(text.split()) == 1 and (is_modifier_compound(text) or is_combination(text))))
