"""Build the in-memory networkx graph from papers, entities, links and relations.

Graph contract (every exporter relies on it; a `nx.DiGraph`):

Graph attributes: `base_iri` (str), `papers_skipped` (int).

Paper node, id `paper:<paper id>`:
    kind="paper", paper_id, label (the title, else a short label: see kg.graph.paper_labels),
    abstract (exactly as read, markup kept), title (str|None), year (int|None), venue, url,
    authors (tuple[str]), sources (tuple[str] like "000_x.txt#3"), papers=1.
Entity node, id `<type>:<slug>` (e.g. `dataset:imagenet`; a function of the concept alone, see kg.graph.ids):
    kind="entity", type (method|model|dataset|task|metric), label (canonical name),
    aliases (tuple[str], sorted), papers (int: number of papers linking to it),
    proposed_by (int: number of papers proposing it), broader (tuple[str]: ids of the
    entities it is a kind of, see kg.graph.broader; usually empty).
Paper -> entity edge:
    kind="mention", role ("proposed"|"used"), evidence: tuple[Evidence] sorted by start,
    weight (int: number of mentions).
Entity -> entity edge (one per ordered pair, even when several relation types hold):
    kind="relation", relations: dict[relation type -> tuple[Evidence]] (sorted keys),
    relation (the type stated in the most papers; ties by name), papers (int: distinct
    papers stating any of them), weight (int = papers).
    Relation types: evaluated_on | applied_to | measured_by | based_on.
Evidence: (paper_id, start, end, text, sentence_start, sentence_end), offsets into the
original abstract, end exclusive; `abstract[start:end] == text`. For a mention, the span is
the mention; for a relation, the span is a whole sentence stating it (the sentences of both
mentions when the abstract states it across two).
"""
from __future__ import annotations

from typing import Iterable, NamedTuple

import networkx as nx

from kg.graph.paper_labels import label_papers
from kg.types import DEFAULT_BASE_IRI, Entity, Link, Mention, Paper, Relation  # noqa: F401  (DEFAULT_BASE_IRI: re-exported)



class Evidence(NamedTuple):
    """Where in an abstract a link or relation is stated."""

    paper_id: str
    start: int
    end: int
    text: str
    sentence_start: int
    sentence_end: int


def paper_node(paper_id: str) -> str:
    """The node id of a paper."""
    return f"paper:{paper_id}"


def evidence_of(mention: Mention) -> Evidence:
    """The evidence record of a mention."""
    return Evidence(mention.paper_id, mention.start, mention.end, mention.text,
                    mention.sentence_start, mention.sentence_end)


def to_networkx(
    papers: Iterable[Paper],
    entities: Iterable[Entity],
    links: Iterable[Link],
    relations: Iterable[Relation] = (),
    base_iri: str = DEFAULT_BASE_IRI,
    papers_skipped: int = 0,
) -> nx.DiGraph:
    """Assemble the graph; nodes and edges are inserted in sorted order for stable output."""
    graph = nx.DiGraph(base_iri=base_iri, papers_skipped=papers_skipped)
    abstracts: dict[str, str] = {}
    for paper in papers:
        abstracts[paper.id] = paper.abstract
        graph.add_node(
            paper_node(paper.id), kind="paper", paper_id=paper.id, label=paper.title or "",  # title-less papers: label_papers below
            abstract=paper.abstract, title=paper.title, year=paper.year, venue=paper.venue,
            url=paper.url, authors=paper.authors, sources=tuple(str(s) for s in paper.sources), papers=1,
        )
    links = sorted(links, key=lambda link: (link.paper_id, link.entity_id))
    counts: dict[str, int] = {}
    proposed: dict[str, int] = {}
    for link in links:
        counts[link.entity_id] = counts.get(link.entity_id, 0) + 1
        proposed[link.entity_id] = proposed.get(link.entity_id, 0) + (link.role == "proposed")
    for entity in sorted(entities, key=lambda e: e.id):
        graph.add_node(entity.id, kind="entity", type=entity.type, label=entity.label,
                       aliases=tuple(sorted(entity.aliases)), papers=counts.get(entity.id, 0),
                       proposed_by=proposed.get(entity.id, 0), broader=tuple(sorted(entity.broader)))
    for link in links:
        evidence = tuple(sorted(evidence_of(m) for m in link.mentions))
        graph.add_edge(paper_node(link.paper_id), link.entity_id, kind="mention", role=link.role,
                       evidence=evidence, weight=max(len(evidence), 1))
    for relation in sorted(relations, key=lambda r: (r.source, r.target, r.relation)):
        evidence = tuple(sorted({sentence_evidence(m, abstracts) for r in relation.evidence
                                 for m in (r.source, r.target)}))
        if graph.has_edge(relation.source, relation.target):
            graph.edges[relation.source, relation.target]["relations"][relation.relation] = evidence
        else:
            graph.add_edge(relation.source, relation.target, kind="relation",
                           relations={relation.relation: evidence})
    for _, _, data in graph.edges(data=True):
        if data["kind"] == "relation":
            summarise_relation(data)
    label_papers(graph)
    return graph


def sentence_evidence(mention: Mention, abstracts: dict[str, str]) -> Evidence:
    """The sentence containing a mention, as evidence."""
    start, end = mention.sentence_start, mention.sentence_end
    return Evidence(mention.paper_id, start, end, abstracts[mention.paper_id][start:end], start, end)


def summarise_relation(data: dict) -> None:
    """Set relation, papers and weight on a relation edge from its `relations` dict."""
    relations = dict(sorted(data["relations"].items()))
    support = {name: len({e.paper_id for e in ev}) for name, ev in relations.items()}
    papers = len({e.paper_id for ev in relations.values() for e in ev})
    data.update(relations=relations, relation=max(sorted(support), key=lambda n: support[n]),
                papers=papers, weight=max(papers, 1))


def papers_of(graph: nx.DiGraph) -> list[str]:
    """Paper node ids in insertion order."""
    return [n for n, kind in graph.nodes(data="kind") if kind == "paper"]


def entities_of(graph: nx.DiGraph) -> list[str]:
    """Entity node ids in insertion order."""
    return [n for n, kind in graph.nodes(data="kind") if kind == "entity"]
