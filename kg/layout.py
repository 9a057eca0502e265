"""Deterministic positions, communities, degree, PageRank and per-type colours for exporters.

Everything here is a pure function of the graph and a seed, computed on the undirected view,
and rounded so that exports are byte-stable. Graphs of up to `SPRING_LIMIT` nodes get a
Fruchterman-Reingold layout; larger ones place each Louvain community on a Vogel spiral
(largest at the centre) and lay out each community on its own, which stays fast at ~15k nodes.
"""
from __future__ import annotations

import math
import weakref
from typing import Callable, Hashable, Mapping, TypeVar

import networkx as nx
import numpy as np

Node = Hashable
T = TypeVar("T")
_MEMO: "weakref.WeakKeyDictionary[nx.Graph, dict]" = weakref.WeakKeyDictionary()
SPRING_LIMIT = 400
SPACING = 40.0  # layout units (≈ pixels in the HTML view) per node, as sqrt of area
GOLDEN_ANGLE = math.pi * (3.0 - math.sqrt(5.0))
TYPE_COLORS: dict[str, str] = {
    "paper": "#8c8c8c", "method": "#1f77b4", "model": "#ff7f0e",
    "dataset": "#2ca02c", "task": "#d62728", "metric": "#9467bd",
}
OTHER_COLOR = "#17becf"


def memo(G: nx.Graph, key: tuple, compute: Callable[[], T]) -> T:
    """`compute()` once per graph object, size and key (exporters of one run share the work)."""
    cache = _MEMO.setdefault(G, {})
    full_key = (*key, G.number_of_nodes(), G.number_of_edges())
    if full_key not in cache:
        cache[full_key] = compute()
    return cache[full_key]


def undirected(G: nx.Graph) -> nx.Graph:
    """An undirected copy of a graph (the graph itself when already undirected).

    Not `to_undirected(as_view=True)`: that view iterates neighbours as a set union, in an order
    that changes between runs with the string hash seed.
    """
    return memo(G, ("undirected",), G.to_undirected) if G.is_directed() else G


def degrees(G: nx.Graph) -> dict[Node, int]:
    """Number of distinct neighbours of each node, ignoring edge direction."""
    U = undirected(G)
    return {node: len(U[node]) for node in U}


def pagerank(G: nx.Graph, alpha: float = 0.85, tol: float = 1e-10, max_iter: int = 200,
             digits: int = 6) -> dict[Node, float]:
    """PageRank on the undirected, unweighted view (numpy power iteration, no scipy)."""
    U = undirected(G)
    nodes = list(U)
    n = len(nodes)
    if n == 0:
        return {}
    index = {node: i for i, node in enumerate(nodes)}
    pairs = [(index[u], index[v]) for u, v in U.edges() if u != v]
    src = np.array([p[0] for p in pairs] + [p[1] for p in pairs], dtype=np.int64)
    dst = np.array([p[1] for p in pairs] + [p[0] for p in pairs], dtype=np.int64)
    out = np.bincount(src, minlength=n).astype(float)
    rank = np.full(n, 1.0 / n)
    for _ in range(max_iter):
        share = np.divide(rank, out, out=np.zeros(n), where=out > 0)
        dangling = rank[out == 0].sum()
        new = (1 - alpha) / n + alpha * (np.bincount(dst, weights=share[src], minlength=n) + dangling / n)
        done = np.abs(new - rank).sum() < n * tol
        rank = new
        if done:
            break
    return {node: round(float(rank[i]), digits) for i, node in enumerate(nodes)}


def communities(G: nx.Graph, seed: int = 42) -> dict[Node, int]:
    """Louvain community of each node, numbered 0.. by size (largest first) then smallest node."""
    return dict(memo(G, ("communities", seed), lambda: _louvain(G, seed)))


def _louvain(G: nx.Graph, seed: int) -> dict[Node, int]:
    """Louvain on the undirected view, numbered as `communities` says."""
    U = undirected(G)
    if U.number_of_nodes() == 0:
        return {}
    # Louvain iterates sets of nodes; string hashes differ between runs, integer hashes do not.
    labels = list(U)
    numbered = nx.convert_node_labels_to_integers(U, ordering="default")
    groups = [{labels[i] for i in group}
              for group in nx.community.louvain_communities(numbered, weight="weight", seed=seed)]
    ordered = sorted(groups, key=lambda group: (-len(group), min(str(n) for n in group)))
    return {node: number for number, group in enumerate(ordered) for node in group}


def positions(G: nx.Graph, seed: int = 42, community: Mapping[Node, int] | None = None,
              digits: int = 1) -> dict[Node, tuple[float, float]]:
    """Deterministic (x, y) for every node, rounded to `digits` decimals."""
    if community is None and G.number_of_nodes() > SPRING_LIMIT:
        return dict(memo(G, ("positions", seed, digits), lambda: positions(G, seed, communities(G, seed), digits)))
    U = undirected(G)
    if U.number_of_nodes() <= SPRING_LIMIT:
        raw = spring(U, seed)
    else:
        raw = clustered(U, seed, community)
    return {node: (round(float(x), digits) + 0.0, round(float(y), digits) + 0.0)
            for node, (x, y) in ((node, raw[node]) for node in G)}


def spring(U: nx.Graph, seed: int, iterations: int = 50) -> dict[Node, tuple[float, float]]:
    """Fruchterman-Reingold positions centred on 0, spread by the number of nodes."""
    n = U.number_of_nodes()
    if n == 0:
        return {}
    if n == 1:
        return {next(iter(U)): (0.0, 0.0)}
    radius = SPACING * math.sqrt(n) / 2
    pos = nx.spring_layout(U, seed=seed, method="force", weight=None, scale=radius, iterations=iterations)
    return {node: (float(x), float(y)) for node, (x, y) in pos.items()}


def spiral(count: int, start: int = 0) -> np.ndarray:
    """Points `start`..`start+count-1` of a unit-density Vogel spiral, as a (count, 2) array."""
    k = np.arange(start, start + count, dtype=float)
    radius = np.sqrt(k + 0.5) / math.sqrt(math.pi)
    return np.column_stack((radius * np.cos(k * GOLDEN_ANGLE), radius * np.sin(k * GOLDEN_ANGLE)))


def clustered(U: nx.Graph, seed: int, community: Mapping[Node, int]) -> dict[Node, tuple[float, float]]:
    """Communities packed on a spiral, each laid out alone (spring if small, else a spiral)."""
    members: dict[int, list[Node]] = {}
    for node in U:
        members.setdefault(community[node], []).append(node)
    pos: dict[Node, tuple[float, float]] = {}
    filled = 0.0  # area used so far, in units of SPACING²
    for number in sorted(members):
        nodes = members[number]
        size = len(nodes)
        radius = math.sqrt(filled + size / 2) / math.sqrt(math.pi) * SPACING * 1.15
        angle = number * GOLDEN_ANGLE
        centre = (radius * math.cos(angle), radius * math.sin(angle)) if filled else (0.0, 0.0)
        filled += size * 1.3
        for node, (x, y) in local_layout(U, nodes, seed).items():
            pos[node] = (centre[0] + x, centre[1] + y)
    return pos


def local_layout(U: nx.Graph, nodes: list[Node], seed: int) -> dict[Node, tuple[float, float]]:
    """Positions of one community around (0, 0): spring when small, hubs-first spiral when large."""
    if len(nodes) <= SPRING_LIMIT:
        return spring(ordered_subgraph(U, nodes), seed, iterations=35)
    order = sorted(nodes, key=lambda node: (-len(U[node]), str(node)))
    points = spiral(len(order)) * SPACING
    return {node: (float(x), float(y)) for node, (x, y) in zip(order, points)}


def ordered_subgraph(U: nx.Graph, nodes: list[Node]) -> nx.Graph:
    """The subgraph on `nodes`, iterating in their given order (a networkx subgraph view may
    iterate its node set in hash order, which differs between runs)."""
    keep = set(nodes)
    sub = nx.Graph()
    sub.add_nodes_from(nodes)
    sub.add_edges_from((u, v) for u in nodes for v in U[u] if v in keep)
    return sub


def node_metrics(G: nx.Graph, seed: int = 42) -> dict[Node, dict[str, float | int]]:
    """Per node: community, degree, pagerank, x, y and display size, all deterministic."""
    community = communities(G, seed)
    degree = degrees(G)
    rank = pagerank(G)
    pos = positions(G, seed, community)
    return {node: {"community": community[node], "degree": degree[node], "pagerank": rank[node],
                   "x": pos[node][0], "y": pos[node][1], "size": node_size(degree[node])}
            for node in G}


def node_size(degree: int) -> float:
    """A display size growing with the square root of the degree."""
    return round(6.0 + 3.0 * math.sqrt(degree), 2)


def type_color(node_type: str | None) -> str:
    """The hex colour of a node type ("paper" or an entity type)."""
    return TYPE_COLORS.get(node_type or "", OTHER_COLOR)


def hex_to_rgb(color: str) -> tuple[int, int, int]:
    """Integer red, green and blue of a `#rrggbb` colour."""
    value = color.lstrip("#")
    return int(value[0:2], 16), int(value[2:4], 16), int(value[4:6], 16)
