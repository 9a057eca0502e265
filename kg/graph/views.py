"""Views of the knowledge graph: the full graph and its paper and entity projections.

- `full`: the graph as built (paper -> entity mentions plus entity -> entity relations).
- `papers`: undirected paper-paper graph; weight = number of shared entities, `shared` lists
  their labels joined with "; " (in entity order).
- `entities`: undirected entity co-occurrence graph; weight = number of papers naming both.
Node attributes are copied from the full graph; relation edges are not part of the projections.
"""
from __future__ import annotations

from itertools import combinations

import networkx as nx

from kg.graph.build import entities_of, papers_of

VIEWS: tuple[str, ...] = ("full", "papers", "entities")


def project(G: nx.DiGraph, view: str = "full") -> nx.Graph:
    """The graph seen through `view` (full|papers|entities); the input is never modified."""
    if view == "full":
        return G
    if view == "papers":
        return paper_projection(G)
    if view == "entities":
        return entity_projection(G)
    raise ValueError(f"unknown view {view!r} (choose from: {', '.join(VIEWS)})")


def mentioned(G: nx.DiGraph, paper: str) -> list[str]:
    """Entities a paper mentions, in graph order."""
    return [e for e, data in G.succ[paper].items() if data.get("kind") == "mention"]


def base_graph(G: nx.DiGraph, nodes: list[str], view: str) -> nx.Graph:
    """An undirected graph holding `nodes` with their attributes and the graph attributes."""
    H = nx.Graph(**G.graph)
    H.graph["view"] = view
    H.add_nodes_from((node, G.nodes[node]) for node in nodes)
    return H


def paper_projection(G: nx.DiGraph) -> nx.Graph:
    """Papers linked when they mention the same entities."""
    papers = papers_of(G)
    index = {paper: i for i, paper in enumerate(papers)}
    shared: dict[tuple[int, int], list[str]] = {}
    for entity in entities_of(G):
        citing = sorted(index[p] for p, data in G.pred[entity].items() if data.get("kind") == "mention")
        for pair in combinations(citing, 2):
            shared.setdefault(pair, []).append(entity)
    H = base_graph(G, papers, "papers")
    for (i, j) in sorted(shared):
        entities = shared[(i, j)]
        H.add_edge(papers[i], papers[j], kind="shared", weight=len(entities),
                   shared="; ".join(str(G.nodes[e].get("label", e)) for e in entities))
    return H


def entity_projection(G: nx.DiGraph) -> nx.Graph:
    """Entities linked when named by the same papers."""
    entities = entities_of(G)
    index = {entity: i for i, entity in enumerate(entities)}
    together: dict[tuple[int, int], int] = {}
    for paper in papers_of(G):
        named = sorted(index[e] for e in mentioned(G, paper))
        for pair in combinations(named, 2):
            together[pair] = together.get(pair, 0) + 1
    H = base_graph(G, entities, "entities")
    for (i, j) in sorted(together):
        H.add_edge(entities[i], entities[j], kind="cooccurrence", weight=together[(i, j)])
    return H
