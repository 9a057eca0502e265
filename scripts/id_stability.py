"""Compare the entity ids of two builds: of the entities of A whose type, label and aliases B has unchanged,
how many B names by another id.

    python scripts/id_stability.py A/graph.graphml B/graph.graphml [--show 20]

Build B from A's abstracts plus more (e.g. the first 2,000 and the first 6,000 lines of a JSONL corpus).
"""
from __future__ import annotations

import argparse
from pathlib import Path

import networkx as nx


def entities(path: Path) -> dict[str, tuple[str, str, str]]:
    """Entity id -> (type, label, aliases) of a GraphML export (a folder or the file)."""
    graph = nx.read_graphml(path / "graph.graphml" if path.is_dir() else path)
    return {n: (d.get("type", ""), d.get("label", ""), d.get("aliases", "")) for n, d in graph.nodes(data=True)
            if d.get("kind") == "entity"}


def main(argv: list[str] | None = None) -> None:
    """Command line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a", type=Path)
    parser.add_argument("b", type=Path)
    parser.add_argument("--show", type=int, default=20, help="renamed entities to list")
    args = parser.parse_args(argv)
    old, new = entities(args.a), entities(args.b)
    ids_of: dict[tuple[str, str, str], list[str]] = {}
    for node, data in new.items():
        ids_of.setdefault(data, []).append(node)
    unchanged = {node: data for node, data in old.items() if data in ids_of}
    renamed = sorted(node for node, data in unchanged.items() if node not in ids_of[data])
    print(f"A: {len(old)} entities, B: {len(new)}; unchanged in B (type, label, aliases): {len(unchanged)}; "
          f"of those with another id in B: {len(renamed)}")
    for node in renamed[:args.show]:
        print(f"  {node} -> {', '.join(ids_of[unchanged[node]])}")


if __name__ == "__main__":
    main()
