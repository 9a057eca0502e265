"""A paper's title naming its contribution: `SciFlow: Scientific Workflows from Abstracts` introduces SciFlow. In the
gold annotations the name before a title's colon, when the abstract names it, is the paper's proposal in 566 of 568
papers; the abstract may still say only `SciFlow is evaluated on ...`."""
from __future__ import annotations

import re
from dataclasses import replace
from typing import Iterable

from kg.text.keys import surface_key
from kg.types import Mention, Paper

TITLE_NAME = re.compile(r"\s*(?P<name>[^:]{2,40}?)\s*:\s+\S")  # the name before the colon, a few words at most
MAX_WORDS = 4  # `Learning to Play in a Day: ...` is a phrase, not a name


def title_name(title: str | None) -> str | None:
    """The name a title opens with before its colon (`SciFlow` of `SciFlow: ...`), None without one."""
    match = TITLE_NAME.match(title or "")
    if not match or len(match.group("name").split()) > MAX_WORDS:
        return None
    return match.group("name")


def title_keys(papers: Iterable[Paper]) -> dict[str, str]:
    """Paper id -> the key of the name its title opens with."""
    return {p.id: surface_key(name) for p in papers if (name := title_name(p.title))}


def promoted(mentions: list[Mention], maps: Iterable[dict[Mention, Mention]], titles: dict[str, str]) -> list[Mention]:
    """The mentions with those its paper's title names (same key) proposed; each map of mentions (evidence, as
    extracted) gets the promoted mention as a key beside the old."""
    maps = list(maps)
    found = []
    for mention in mentions:
        if mention.role != "proposed" and titles.get(mention.paper_id) == surface_key(mention.name or mention.text):
            new = replace(mention, role="proposed")
            for mapping in maps:
                mapping[new] = mapping[mention]
            mention = new
        found.append(mention)
    return found
