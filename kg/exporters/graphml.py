"""GraphML for Gephi (and networkx/igraph): one typed key per attribute, no nulls, stable bytes.

Missing values are *omitted* (no `<data>` element), never written as "" or a sentinel: Gephi
reads an empty value as null anyway, while a sentinel such as 0 or -1 would distort its
statistics, ranking and range filters; networkx and igraph read an absent value as missing.
A value is absent only when it does not apply to the node's kind (an entity has no year) or
is unknown (a paper without a venue). Lists are joined with "; ". Gephi's reserved names
(label, x, y, size, r, g, b, weight) carry only what Gephi uses them for.
"""
from __future__ import annotations

import math
import re
from typing import Any, Iterable, Iterator, Mapping

import networkx as nx

from kg.exporters.html_map import topic_communities
from kg.exporters.layout import hex_to_rgb, node_metrics, type_color
from kg.exporters.target import Target, text_output
from kg.registry import exporters
from kg.graph.resolution import Resolution, graph_of
from kg.graph.views import project
from kg.text.shorten import excerpt, shorten as shorten_text

NAMESPACE = "http://graphml.graphdrawing.org/xmlns"
SCHEMA = f"{NAMESPACE} {NAMESPACE}/1.0/graphml.xsd"
EVIDENCE_LENGTH = 200
RESULTS_SHOWN = 20  # results written out per node (`results` counts them all)
NODE_KEYS: tuple[tuple[str, str], ...] = (
    ("label", "string"), ("kind", "string"), ("type", "string"), ("papers", "int"),
    ("proposed_by", "int"), ("aliases", "string"), ("broader", "string"), ("results", "int"),
    ("results_reported", "string"), ("paper_id", "string"), ("title", "string"),
    ("year", "int"), ("venue", "string"), ("url", "string"), ("authors", "string"),
    ("sources", "string"), ("abstract", "string"), ("community", "int"), ("degree", "int"),
    ("pagerank", "double"), ("x", "float"), ("y", "float"), ("size", "float"),
    ("r", "int"), ("g", "int"), ("b", "int"),
)
EDGE_KEYS: tuple[tuple[str, str], ...] = (
    ("label", "string"), ("kind", "string"), ("role", "string"), ("relation", "string"),
    ("relations", "string"), ("papers", "int"), ("weight", "double"), ("shared", "string"),
    ("evidence", "string"), ("evidence_paper", "string"),
)
INVALID_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
ESCAPES = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "\r": "&#13;", "\n": "&#10;",
           "\t": "&#9;"}
TEXT_ESCAPES = re.compile('[&<>\r]')
ATTR_ESCAPES = re.compile('[&<>"\r\n\t]')
TEXT_AS_IS = re.compile("[\t\n\x20-\x25\x27-\x3b\x3d\x3f-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]*")  # valid, nothing to escape


def xml_text(value: str, attribute: bool = False) -> str:
    """`value` without XML-1.0-invalid characters, escaped for element text or an attribute."""
    if not attribute and TEXT_AS_IS.fullmatch(value):
        return value
    value = INVALID_XML.sub("", value)
    return (ATTR_ESCAPES if attribute else TEXT_ESCAPES).sub(lambda m: ESCAPES[m.group()], value)


def convert(value: Any, kind: str) -> str | None:
    """The GraphML text of a value of the declared type, or None when it is missing."""
    if value is None or isinstance(value, (dict, set, frozenset)):
        return None
    if isinstance(value, (tuple, list)):
        value = "; ".join(str(item) for item in value)
    if kind == "string":
        text = str(value).strip()
        return text or None
    if kind == "int":
        return str(int(value)) if isinstance(value, (int, float)) and math.isfinite(value) else None
    number = float(value) if isinstance(value, (int, float)) else math.nan
    return repr(number) if math.isfinite(number) else None


def shorten(text: str, limit: int = EVIDENCE_LENGTH) -> str:
    """Whitespace collapsed and cut to `limit` characters with an ellipsis."""
    text = " ".join(text.split())
    return shorten_text(text, limit)


def mention_excerpt(sentence: str, start: int, end: int, limit: int = EVIDENCE_LENGTH) -> str:
    """The sentence, whitespace collapsed, cut to `limit` characters where the mention at [start, end) stays in view
    (the sentence's head when it holds the mention, as `shorten` cuts it)."""
    head = " ".join(sentence[:start].split()) + (" " if sentence[:start][-1:].isspace() else "")
    mention = " ".join(sentence[start:end].split())
    tail = (" " if sentence[end:][:1].isspace() else "") + " ".join(sentence[end:].split())
    text = (head.lstrip() + mention + tail).strip()
    begin = len(head.lstrip())
    return excerpt(text, begin, begin + len(mention), limit)


def node_values(H: nx.Graph, seed: int, community: Mapping[Any, int]) -> Iterable[tuple[Any, dict[str, Any]]]:
    """Each node with the values of the declared node keys (`community`: the full graph's topics)."""
    metrics = node_metrics(H, seed, community)
    reported = results_by_node(H)
    for node, data in H.nodes(data=True):
        node_type = "paper" if data.get("kind") == "paper" else data.get("type")
        red, green, blue = hex_to_rgb(type_color(node_type))
        found = reported.get(node, [])
        values = dict(data, label=data.get("label") or str(node), type=node_type, **metrics[node],
                      results=len(found) or None, results_reported=tuple(found[:RESULTS_SHOWN]) or None)
        values.update(r=red, g=green, b=blue)
        yield node, values


def results_by_node(H: nx.Graph) -> dict[Any, list[str]]:
    """Per paper and entity node, its results written out ('95.12 % accuracy · FooNet · on CIFAR-10 · p1')."""
    from kg.graph.results import results_of

    found: dict[Any, list[str]] = {}
    for r in results_of(H):
        line = result_line(H, r)
        for node in dict.fromkeys((f"paper:{r.paper_id}", *r.entity_ids())):
            if node in H:
                found.setdefault(node, []).append(line)
    return found


def result_line(H: nx.Graph, r) -> str:
    """One result as a line of text."""
    def label(node: str | None) -> str | None:
        return H.nodes[node].get("label") if node and node in H else None

    subject = label(r.subject) or ("the paper's proposal" if r.proposal else "a baseline")
    parts = [" ".join(p for p in (r.written, r.metric_name) if p), f"{r.kind} of {subject}"]
    if label(r.dataset) or r.dataset_name:
        parts.append(f"on {label(r.dataset) or r.dataset_name}")
    if label(r.against):
        parts.append(f"against {label(r.against)}")
    return shorten(" · ".join(parts + [r.paper_id]), 160).replace(";", ",")


def edge_evidence(H: nx.Graph, source: Any, data: dict) -> tuple[str | None, str | None]:
    """A short evidence sentence for an edge and the paper it comes from."""
    if data.get("kind") == "mention" and data.get("evidence"):
        first = data["evidence"][0]
        abstract = H.nodes[source].get("abstract") or ""
        sentence = abstract[first.sentence_start:first.sentence_end]
        if not sentence:
            return shorten(first.text), None
        return mention_excerpt(sentence, first.start - first.sentence_start, first.end - first.sentence_start), None
    if data.get("kind") == "relation" and data.get("relations"):
        found = data["relations"].get(data.get("relation")) or next(iter(data["relations"].values()))
        return (shorten(found[0].text), found[0].paper_id) if found else (None, None)
    return None, None


def edge_values(H: nx.Graph) -> Iterable[tuple[Any, Any, dict[str, Any]]]:
    """Each edge with the values of the declared edge keys."""
    for source, target, data in H.edges(data=True):
        evidence, paper = edge_evidence(H, source, data)
        relations = data.get("relations")
        yield source, target, dict(
            data, label=data.get("role") or data.get("relation"), evidence=evidence,
            evidence_paper=paper, relations=tuple(relations) if isinstance(relations, dict) else None)


def data_lines(values: dict[str, Any], keys: dict[str, tuple[str, str]], indent: str) -> list[str]:
    """The `<data>` elements of one node or edge, in key order, skipping missing values."""
    lines = []
    for name, (key_id, kind) in keys.items():
        value = values.get(name)
        text = None if value is None else convert(value, kind)
        if text is not None:  # a number's text needs no escaping
            lines.append(f'{indent}<data key="{key_id}">{xml_text(text) if kind == "string" else text}</data>')
    return lines


def graphml_lines(H: nx.Graph, seed: int, community: Mapping[Any, int]) -> Iterator[str]:
    """The GraphML document for a graph, line by line (two passes: keys in use, then the data)."""
    node_keys = used_keys(NODE_KEYS, (values for _, values in node_values(H, seed, community)), 0)
    edge_keys = used_keys(EDGE_KEYS, (values for _, _, values in edge_values(H)), len(node_keys))
    yield "<?xml version='1.0' encoding='utf-8'?>"
    yield (f'<graphml xmlns="{NAMESPACE}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"'
           f' xsi:schemaLocation="{SCHEMA}">')
    for domain, keys in (("node", node_keys), ("edge", edge_keys)):
        for name, (key_id, kind) in keys.items():
            yield f'  <key id="{key_id}" for="{domain}" attr.name="{name}" attr.type="{kind}"/>'
    yield f'  <graph id="G" edgedefault="{"directed" if H.is_directed() else "undirected"}">'
    for node, values in node_values(H, seed, community):
        yield f'    <node id="{xml_text(str(node), True)}">'
        yield from data_lines(values, node_keys, "      ")
        yield "    </node>"
    for number, (source, target, values) in enumerate(edge_values(H)):
        yield (f'    <edge id="e{number}" source="{xml_text(str(source), True)}"'
               f' target="{xml_text(str(target), True)}">')
        yield from data_lines(values, edge_keys, "      ")
        yield "    </edge>"
    yield "  </graph>"
    yield "</graphml>"


def used_keys(declared: tuple[tuple[str, str], ...], records: Iterable[dict[str, Any]],
              first_id: int) -> dict[str, tuple[str, str]]:
    """The declared keys that at least one record has a value for, with ids `d<n>`."""
    missing, present = list(declared), set()
    for record in records:
        present.update(name for name, kind in missing if convert(record.get(name), kind) is not None)
        missing = [(name, kind) for name, kind in missing if name not in present]
        if not missing:
            break
    kept = [(name, kind) for name, kind in declared if name in present]
    return {name: (f"d{first_id + i}", kind) for i, (name, kind) in enumerate(kept)}


def write_graphml(source: Resolution | nx.DiGraph, path: Target, view: str = "full", seed: int = 42) -> None:
    """Write `view` (full|papers|entities) of a resolution's graph (or of a graph) as Gephi-ready GraphML, UTF-8,
    streamed (a path or an open file)."""
    G = graph_of(source)
    with text_output(path) as handle:
        for line in graphml_lines(project(G, view), seed, topic_communities(G, seed).community):
            handle.write(line + "\n")


exporters.register("graphml", func=write_graphml)
