"""Build the in-memory networkx graph of a resolution's tables (`kg.graph.tables`), for the writers that need a graph.

Graph contract (GraphML, HTML, the layout and the views rely on it; a `nx.DiGraph`; RDF reads the same tables):

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

from typing import Iterable

import networkx as nx

from kg.graph.tables import Evidence, Tables, evidence_of, sentence_evidence, tables_of  # noqa: F401  (re-exported)
from kg.types import DEFAULT_BASE_IRI, Entity, Link, Paper, Relation  # noqa: F401  (DEFAULT_BASE_IRI: re-exported)


def paper_node(paper_id: str) -> str:
    """The node id of a paper."""
    return f"paper:{paper_id}"


def to_networkx(
    papers: Iterable[Paper],
    entities: Iterable[Entity],
    links: Iterable[Link],
    relations: Iterable[Relation] = (),
    base_iri: str = DEFAULT_BASE_IRI,
    papers_skipped: int = 0,
) -> nx.DiGraph:
    """Assemble the graph of a resolution's parts (`graph_from` of their tables)."""
    papers = tuple(papers)
    return graph_from(papers, tables_of(papers, entities, links, relations), base_iri, papers_skipped)


def graph_from(papers: Iterable[Paper], tables: Tables, base_iri: str = DEFAULT_BASE_IRI,
               papers_skipped: int = 0) -> nx.DiGraph:
    """The graph of the papers and their tables; nodes and edges are inserted in sorted order for stable output, the
    tables' results are `graph.graph["results"]`."""
    graph = nx.DiGraph(base_iri=base_iri, papers_skipped=papers_skipped)
    for paper in papers:
        graph.add_node(
            paper_node(paper.id), kind="paper", paper_id=paper.id, label=tables.labels.get(paper.id, paper.title or ""),
            abstract=paper.abstract, title=paper.title, year=paper.year, venue=paper.venue,
            url=paper.url, authors=paper.authors, sources=tuple(str(s) for s in paper.sources), papers=1,
        )
    for entity in tables.entities.values():
        graph.add_node(entity.id, kind="entity", type=entity.type, label=entity.label,
                       aliases=tuple(sorted(entity.aliases)), papers=tables.papers.get(entity.id, 0),
                       proposed_by=tables.proposed.get(entity.id, 0), broader=tuple(sorted(entity.broader)))
    for paper_id, links in sorted(tables.links.items()):
        for link in links:
            graph.add_edge(paper_node(paper_id), link.entity, kind="mention", role=link.role,
                           evidence=link.evidence, weight=max(len(link.evidence), 1))
    for source, edges in sorted(tables.relations.items()):
        for edge in edges:
            graph.add_edge(source, edge.target, kind="relation", relations=edge.relations, relation=edge.relation,
                           papers=edge.papers, weight=max(edge.papers, 1))
    graph.graph["results"] = tables.results
    return graph


def papers_of(graph: nx.DiGraph) -> list[str]:
    """Paper node ids in insertion order."""
    return [n for n, kind in graph.nodes(data="kind") if kind == "paper"]


def entities_of(graph: nx.DiGraph) -> list[str]:
    """Entity node ids in insertion order."""
    return [n for n, kind in graph.nodes(data="kind") if kind == "entity"]
