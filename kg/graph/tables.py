"""What every writer reads of a resolution, derived once and sorted: entity counts, each paper's links with their
evidence, relation edges with the sentences stating them, title-less papers' labels, the results kept.

The networkx graph (`kg.graph.build`) and the RDF (`kg.exporters.rdf_blocks`) are both written from these tables,
so they agree by construction; the graph contract in `kg.graph.build` describes the same values.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Iterable, NamedTuple

from kg.graph.paper_labels import Named, paper_labels
from kg.graph.results import FIELD_TYPES, Result
from kg.types import Entity, Link, Mention, Paper, Relation


class Evidence(NamedTuple):
    """Where in an abstract a link or relation is stated."""

    paper_id: str
    start: int
    end: int
    text: str
    sentence_start: int
    sentence_end: int


class PaperLink(NamedTuple):
    """A paper's link to an entity: its role and its mentions' evidence (sorted by start)."""

    entity: str
    role: str
    evidence: tuple[Evidence, ...]


class RelationEdge(NamedTuple):
    """All relations stated from one entity to another: type -> sentences (sorted keys), the type stated in the most
    papers (ties by name) and the distinct papers stating any of them."""

    source: str
    target: str
    relations: dict[str, tuple[Evidence, ...]]
    relation: str
    papers: int


@dataclass(frozen=True)
class Tables:
    """Indexes of one resolution: entities by id with their paper and proposer counts, each paper's links (by entity
    id), relation edges by source (by target), every paper's label, and the results whose entities are kept."""

    entities: dict[str, Entity]
    papers: dict[str, int]
    proposed: dict[str, int]
    links: dict[str, tuple[PaperLink, ...]]
    relations: dict[str, tuple[RelationEdge, ...]]
    labels: dict[str, str]
    results: tuple[Result, ...]


def evidence_of(mention: Mention) -> Evidence:
    """The evidence record of a mention."""
    return Evidence(mention.paper_id, mention.start, mention.end, mention.text,
                    mention.sentence_start, mention.sentence_end)


def sentence_evidence(mention: Mention, abstracts: dict[str, str]) -> Evidence:
    """The sentence containing a mention, as evidence (the mention's own text when the abstract is not known)."""
    start, end = mention.sentence_start, mention.sentence_end
    text = abstracts[mention.paper_id][start:end] if mention.paper_id in abstracts else mention.text
    return Evidence(mention.paper_id, start, end, text, start, end)


def tables_of(papers: Iterable[Paper], entities: Iterable[Entity], links: Iterable[Link],
              relations: Iterable[Relation] = (), results: Iterable[Result] = ()) -> Tables:
    """The tables of a resolution's parts (papers in input order, everything else sorted)."""
    papers = tuple(papers)
    by_id = {entity.id: entity for entity in sorted(entities, key=lambda e: e.id)}
    links = sorted(links, key=lambda link: (link.paper_id, link.entity_id))
    counts = Counter(link.entity_id for link in links)
    proposed = Counter(link.entity_id for link in links if link.role == "proposed")
    by_paper: dict[str, list[PaperLink]] = {}
    for link in links:
        evidence = tuple(sorted(evidence_of(m) for m in link.mentions))
        by_paper.setdefault(link.paper_id, []).append(PaperLink(link.entity_id, link.role, evidence))
    edges = relation_edges(relations, {paper.id: paper.abstract for paper in papers})
    named = {pid: [named_link(link, by_id[link.entity], counts[link.entity]) for link in found if link.entity in by_id]
             for pid, found in by_paper.items()}
    return Tables(by_id, dict(counts), dict(proposed), {pid: tuple(found) for pid, found in by_paper.items()}, edges,
                  paper_labels(papers, named), kept_results(results, {p.id for p in papers}, by_id))


def named_link(link: PaperLink, entity: Entity, papers: int) -> Named:
    """What a paper's label reads of one of its links: the entity's label, type and papers, the role, and where the
    first mention and its sentence start."""
    first = link.evidence[0] if link.evidence else None
    return Named(entity.label, entity.type, papers, link.role, first.start if first else 1 << 30,
                 first.sentence_start if first else -1)


def relation_edges(relations: Iterable[Relation], abstracts: dict[str, str]) -> dict[str, tuple[RelationEdge, ...]]:
    """Relation edges by source entity, each source's by target; one edge per ordered pair of entities."""
    stated: dict[tuple[str, str], dict[str, tuple[Evidence, ...]]] = {}
    for relation in sorted(relations, key=lambda r: (r.source, r.target, r.relation)):
        evidence = tuple(sorted({sentence_evidence(m, abstracts) for r in relation.evidence for m in (r.source, r.target)}))
        stated.setdefault((relation.source, relation.target), {})[relation.relation] = evidence
    edges: dict[str, list[RelationEdge]] = {}
    for (source, target), found in stated.items():
        found = dict(sorted(found.items()))
        support = {name: len({e.paper_id for e in ev}) for name, ev in found.items()}
        papers = len({e.paper_id for ev in found.values() for e in ev})
        edges.setdefault(source, []).append(RelationEdge(source, target, found, max(sorted(support), key=support.get),
                                                         papers))
    return {source: tuple(found) for source, found in edges.items()}


def kept_results(results: Iterable[Result], papers: set[str], entities: dict[str, Entity]) -> tuple[Result, ...]:
    """The results of the papers, each entity field kept only when it is an entity of the field's types (resolution
    gives a concept one type: a mention read as a dataset may end as a task)."""
    def node(entity: str | None, field: str) -> str | None:
        return entity if entity in entities and entities[entity].type in FIELD_TYPES[field] else None

    return tuple(Result(**{**r.__dict__, **{f: node(getattr(r, f), f) for f in FIELD_TYPES}})
                 for r in results if r.paper_id in papers)
