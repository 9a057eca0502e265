"""Print the top-N entities per type of a build (GraphML or Turtle) for before/after comparison.

    python scripts/top_entities.py exports/graph.graphml [-n 50] [--aliases]
"""
from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path

import networkx as nx

TYPES = ("method", "model", "dataset", "task", "metric")


def load(path: Path) -> nx.Graph:
    """The graph of a GraphML export, or of a Turtle export via kg.query's loader."""
    if path.is_dir():
        path = path / "graph.graphml"
    if path.suffix == ".graphml":
        return nx.read_graphml(path)
    sys.exit(f"error: {path}: expected a .graphml file or an export folder")


def top(graph: nx.Graph, n: int) -> dict[str, list[tuple[str, dict]]]:
    """The n entities with most papers per type (ties by label)."""
    by_type: dict[str, list[tuple[str, dict]]] = defaultdict(list)
    for node, data in graph.nodes(data=True):
        if data.get("kind") == "entity":
            by_type[data.get("type", "")].append((node, data))
    return {t: sorted(by_type[t], key=lambda x: (-int(x[1].get("papers", 0)), x[1].get("label", "")))[:n]
            for t in TYPES}


def main(argv: list[str] | None = None) -> None:
    """Command line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("graph", type=Path, help="graph.graphml or an export folder")
    parser.add_argument("-n", type=int, default=50, help="entities per type (default 50)")
    parser.add_argument("--aliases", action="store_true", help="also print each entity's aliases and id")
    parser.add_argument("--compact", action="store_true", help="one comma-separated line per type")
    args = parser.parse_args(argv)
    graph = load(args.graph)
    for entity_type, rows in top(graph, args.n).items():
        if args.compact:
            print(f"{entity_type}: " + ", ".join(f"{d['label']} ({d.get('papers', 0)})" for _, d in rows))
            continue
        print(f"== {entity_type} ==")
        for rank, (node, data) in enumerate(rows, 1):
            extra = f"  {node}  [{data.get('aliases', '')}]" if args.aliases else ""
            print(f"{rank:3d} {int(data.get('papers', 0)):5d}  {data['label']}{extra}")


if __name__ == "__main__":
    main()
