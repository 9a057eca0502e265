"""Names several papers coin, and generic kinds papers "propose".

- A name two or more papers each coin in their own words (`we propose TRACE`, `TRACE, a novel ...`, `termed
  TRACE`: `evidence.coined_here`) names two or more things: each coinage is its own concept (the earliest keeps the
  name's key, the others are `TRACE|<paper>`), and papers that only use the name are one more (`TRACE|`); unless more
  papers use the name than coin it (an established name some papers present as theirs). Names the gazetteer knows
  are one thing whoever claims them (their proposals are checked by `concepts.may_propose`).
- A name one paper coins and OTHER_KIND or more papers name as another type (`we propose DRIVE, a framework`; `Dice on
  DRIVE`, the data set) is two things: the users keep the name's key, the coinage is `DRIVE|<paper>`.
- A name CLAIMS or more papers propose without being split so is not credibly anyone's: only the papers whose
  own text coins it keep their proposal (a lower-case phrase MANY_CLAIMS or more papers propose: none, it is a kind).
- A lower-case phrase a paper proposes as `a (novel) X` or `our X`, and other papers name too, is a kind of thing
  the paper contributes one of, not its contribution: "we propose a novel generative model, FooGAN" proposes FooGAN and uses the kind,
  and "we propose a novel attention mechanism" credits no one with `attention mechanism`; `we propose glorp
  tuning` (the name itself, no article) still proposes it.
"""
from __future__ import annotations

import re
from collections import defaultdict

from kg.graph.evidence import coined_here
from kg.graph.knowledge import Knowledge
from kg.graph.concepts import concept_type, known_entry
from kg.graph.context import squashed
from kg.types import Mention

MANY_CLAIMS = 3  # coined by this many papers: three coinages are three things, however many papers use the name
OTHER_KIND = 2  # other papers that must agree on another type before a coinage parts from their name
CLAIMS = 2  # proposed by this many papers (one concept after the split): proposals need the paper's own coining words
MARK = "|"  # between a coined name's key and the coining paper's id, in a coinage's concept key (no key has one)
KIND_BEFORE = re.compile(r"\b(?:a|an|our)\s+(?:[\w-]+\s+){0,3}$", re.I)


def coiners(group: list[Mention], texts: dict[str, str]) -> list[str]:
    """The papers whose text coins the name (a proposed mention presented as the paper's own)."""
    return sorted({m.paper_id for m in group if m.role == "proposed" and m.paper_id in texts
                   and coined_here(texts[m.paper_id], m.start, m.end)})


def written_as_name(mention: Mention) -> bool:
    """A capital after the first letter or a digit (TRACE, GPT-4), or a capital opening a word inside a sentence."""
    name = mention.name or mention.text
    if any(c.isupper() or c.isdigit() for c in name[1:]):
        return True
    return name[:1].isupper() and mention.start != mention.sentence_start


def named(group: list[Mention]) -> bool:
    """Whether most of the concept's mentions are written as a name."""
    return 2 * sum(map(written_as_name, group)) > len(group)


def split_coinages(groups: dict[str, list[Mention]], members: dict[str, list[str]], texts: dict[str, str],
                   knowledge: Knowledge, years: dict[str, int | None] | None = None,
                   ) -> tuple[dict[str, list[Mention]], dict[str, list[str]]]:
    """Groups with each of a name's several coinages apart: the earliest (by year, then paper id) keeps the name's
    key, and with it the id the name had before a second paper coined it; the others are `name|paper`, the papers
    that only use the name `name|`."""
    years = years or {}
    out: dict[str, list[Mention]] = {}
    keys: dict[str, list[str]] = {}
    for key, group in groups.items():
        coining = coiners(group, texts) if named(group) and not known_entry(members[key], knowledge) else []
        original = originals(coining, texts, years)  # a copy of a coining abstract is that coinage, not another
        papers = sorted(set(original.values()))
        users = len({m.paper_id for m in group}) - len(coining)
        if len(papers) == 1:
            mine, others = [m for m in group if m.paper_id in original], [m for m in group if m.paper_id not in original]
            if another_kind(mine, others):  # DRIVE the framework, DRIVE the data set
                out[key], keys[key] = others, members[key]
                out[f"{key}{MARK}{papers[0]}"], keys[f"{key}{MARK}{papers[0]}"] = mine, members[key]
                continue
        # more papers use a name than the two that coin it: an established name; three coinages are three things
        if len(papers) < 2 or users > len(papers) and len(papers) < MANY_CLAIMS:
            out[key], keys[key] = group, members[key]
            continue
        first = min(papers, key=lambda p: (years.get(p) or 0, p))
        by_paper: dict[str, list[Mention]] = defaultdict(list)
        for mention in group:
            by_paper[original.get(mention.paper_id, "")].append(mention)
        for paper, mentions in by_paper.items():
            split = key if paper == first else f"{key}{MARK}{paper}"
            out[split], keys[split] = mentions, members[key]
    return out, keys


def originals(papers: list[str], texts: dict[str, str], years: dict[str, int | None]) -> dict[str, str]:
    """Each paper -> the first paper (by year, then id) among `papers` with the same abstract (itself if none),
    compared as `Context.distinct` compares them: `squashed`, so spacing, case and punctuation aside."""
    first: dict[str, str] = {}
    for paper in sorted(papers, key=lambda p: (years.get(p) or 0, p)):
        first.setdefault(squashed(texts[paper]), paper)
    return {paper: first[squashed(texts[paper])] for paper in papers}


def another_kind(mine: list[Mention], others: list[Mention]) -> bool:
    """Whether OTHER_KIND or more other papers name the coining paper's name (`mine`: its mentions), and their
    mentions agree on a type that is not the coining paper's: the coinage shares its name with an established thing
    (a data set, not the framework)."""
    if len({m.paper_id for m in others}) < OTHER_KIND:
        return False
    theirs = concept_type(others)
    agreed = {m.paper_id for m in others if m.type == theirs}
    return len(agreed) >= OTHER_KIND and theirs != concept_type(mine)


def unnamed_kind(mention: Mention, text: str | None) -> bool:
    """A proposed mention that is a lower-case phrase after `a`, `an` or `our` and at most three more words (`we
    propose a novel generative model`): the paper's contribution is an instance of the kind, not the kind."""
    if text is None or written_as_name(mention):
        return False
    return bool(KIND_BEFORE.search(text[max(0, mention.start - 80):mention.start]))


def claims(groups: dict[str, list[Mention]]) -> dict[str, int]:
    """How many papers propose each concept, for the concepts CLAIMS or more papers propose."""
    counts = {key: len({m.paper_id for m in group if m.role == "proposed"}) for key, group in groups.items()}
    return {key: n for key, n in counts.items() if n >= CLAIMS}


def shared(groups: dict[str, list[Mention]]) -> set[str]:
    """Keys of the concepts two or more papers name (a phrase other papers write is a kind, not one paper's own)."""
    return {key for key, group in groups.items() if len({m.paper_id for m in group}) >= 2}


def credible(mentions: list[Mention], text: str | None, claimed: int, kind: bool = True) -> list[Mention]:
    """The proposed mentions of a concept in one paper that can stand: not an unnamed `a novel X` when other papers
    name X too (`kind`; a phrase only this paper writes is its own delimited contribution); for a concept `claimed`
    by CLAIMS or more papers, only a form the text coins (`evidence.coined_here`), and by MANY_CLAIMS or more only
    a name (a lower-case phrase that many papers propose is a kind)."""
    named_here = [m for m in mentions if not (kind and unnamed_kind(m, text))]
    if claimed < CLAIMS:
        return named_here
    return [m for m in named_here if text is not None and coined_here(text, m.start, m.end)
            and (claimed < MANY_CLAIMS or written_as_name(m))]
