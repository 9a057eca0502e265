"""Paper links and entity relations of resolved concepts: one link per paper and entity, proposed only where
the paper could have introduced the concept (`concepts.may_propose`); relations aggregated per entity pair."""
from __future__ import annotations

from collections import defaultdict
from typing import Callable, Iterable

from kg.graph.concepts import known_entry, may_propose
from kg.graph.knowledge import Knowledge
from kg.types import Link, Mention, MentionRelation, Paper, Relation


class Corpus:
    """The abstracts and years of the papers, by id (empty when resolution runs on mentions alone)."""

    def __init__(self, papers: Iterable[Paper]) -> None:
        papers = list(papers)
        self.texts = {p.id: p.abstract for p in papers}
        self.years = {p.id: p.year for p in papers}


ProposalCheck = Callable[[str, str, list[Mention]], bool]  # (group key, paper, its mentions) -> may it propose?


def proposal_check(groups: dict[str, list[Mention]], members: dict[str, list[str]], knowledge: Knowledge,
                   corpus: Corpus) -> ProposalCheck:
    """`concepts.may_propose` for a group's proposed mentions in one paper."""
    papers = {k: len({m.paper_id for m in g}) for k, g in groups.items()}

    def check(key: str, paper: str, mentions: list[Mention]) -> bool:
        known = known_entry(members[key], knowledge)
        return may_propose(mentions, corpus.texts.get(paper), corpus.years.get(paper), known is not None,
                           knowledge.years.get(known or ""), papers[key])
    return check


def link_papers(groups: dict[str, list[Mention]], entity_of: dict[str, str], original: dict[Mention, Mention],
                check: ProposalCheck = lambda key, paper, mentions: True) -> list[Link]:
    """One link per (paper, entity); proposed if any mention in that paper is proposed and `check` allows it."""
    grouped: dict[tuple[str, str], list[Mention]] = defaultdict(list)
    for key, group in groups.items():
        for mention in group:
            grouped[mention.paper_id, key].append(mention)
    links = []
    for (paper_id, key), group in sorted(grouped.items(), key=lambda item: (item[0][0], entity_of[item[0][1]])):
        proposed = [m for m in group if m.role == "proposed"]
        role = "proposed" if proposed and check(key, paper_id, proposed) else "used"
        links.append(Link(paper_id, entity_of[key], role, tuple(sorted(original[m] for m in group))))
    return links


def relate(relations: Iterable[MentionRelation], mention_entity: dict[Mention, str]) -> list[Relation]:
    """Entity-entity relations aggregated over the papers that state them."""
    grouped: dict[tuple[str, str, str], list[MentionRelation]] = defaultdict(list)
    for relation in relations:
        source, target = mention_entity.get(relation.source), mention_entity.get(relation.target)
        if source and target and source != target:
            grouped[source, relation.relation, target].append(relation)
    return [Relation(s, r, t, tuple(sorted(ev))) for (s, r, t), ev in sorted(grouped.items())]
