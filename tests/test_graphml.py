"""GraphML export: well-formed, typed once, no nulls, Gephi-safe names, loads in networkx and igraph."""
from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Callable

import networkx as nx
import pytest

from kg.exporters.graphml import write_graphml
from kg.registry import exporters
from kg.graph.views import VIEWS

NS = "{http://graphml.graphdrawing.org/xmlns}"
ALLOWED_TYPES = {"boolean", "int", "long", "float", "double", "string"}
NUMERIC = {"int", "long", "float", "double"}
# Gephi consumes these names as visual properties; they may only carry what Gephi uses them for.
RESERVED = {"node": {"label", "x", "y", "size", "r", "g", "b"}, "edge": {"label", "weight"}}
NEVER = {"color", "z", "xpos", "ypos", "zpos", "nodelabel", "edgelabel", "Edge Weight"}
DIRTY = [("p9", "Noisy\x0btitle\x0c", "We test Wumpnet\x00 on page\x0cbreaks & <tags>.",
          [("Wumpnet", "model", "used")])]


@pytest.fixture
def write(tmp_path: Path, make_graph) -> Callable[..., Path]:
    """A writer of the test graph's views (with optional extra papers) returning the path."""
    def write_view(view: str = "full", extra=()) -> Path:
        path = tmp_path / f"{view}.graphml"
        write_graphml(make_graph(extra), path, view=view)
        return path
    return write_view


def keys_and_data(path: Path) -> tuple[dict[str, ET.Element], ET.Element]:
    """Key elements by id, and the graph element."""
    root = ET.parse(path).getroot()
    keys = {key.get("id"): key for key in root.iter(f"{NS}key")}
    return keys, root.find(f"{NS}graph")


@pytest.mark.parametrize("view", VIEWS)
def test_keys_are_declared_once_with_gephi_types(write, view):
    keys, _ = keys_and_data(write(view))
    names = {"node": [], "edge": []}
    for key in keys.values():
        assert key.get("for") in names, key.attrib
        assert key.get("attr.type") in ALLOWED_TYPES
        names[key.get("for")].append(key.get("attr.name"))
    for domain, found in names.items():
        assert len(found) == len(set(found)), f"duplicate {domain} attr.name"
        assert not set(found) & NEVER


@pytest.mark.parametrize("view", VIEWS)
def test_data_is_declared_typed_finite_and_never_empty(write, view):
    keys, graph = keys_and_data(write(view))
    for element in [*graph.iter(f"{NS}node"), *graph.iter(f"{NS}edge")]:
        seen = set()
        for data in element.iter(f"{NS}data"):
            key = keys[data.get("key")]  # KeyError = undeclared key, which Gephi drops
            assert key.get("for") == element.tag[len(NS):]
            assert data.get("key") not in seen
            seen.add(data.get("key"))
            text, kind = data.text or "", key.get("attr.type")
            assert text.strip(), f"empty value for {key.get('attr.name')}"
            assert text.lower() not in {"none", "nan", "inf", "-inf"}
            if kind in NUMERIC:
                assert math.isfinite(float(text))
            if kind in {"int", "long"} or key.get("attr.name") in {"r", "g", "b"}:
                assert str(int(text)) == text


@pytest.mark.parametrize("view", VIEWS)
def test_edge_ids_are_unique_and_endpoints_exist(write, view):
    _, graph = keys_and_data(write(view))
    nodes = [node.get("id") for node in graph.iter(f"{NS}node")]
    edges = list(graph.iter(f"{NS}edge"))
    assert len(nodes) == len(set(nodes))
    assert len(edges) == len({edge.get("id") for edge in edges}) and edges
    pairs = [(e.get("source"), e.get("target")) for e in edges]
    assert len(pairs) == len(set(pairs)) and set(sum(pairs, ())) <= set(nodes)
    assert graph.get("edgedefault") == ("directed" if view == "full" else "undirected")


def test_reserved_names_only_carry_visual_data(write):
    G = nx.read_graphml(write())
    for node, data in G.nodes(data=True):
        assert set(RESERVED["node"]) <= set(data)
        assert all(0 <= data[c] <= 255 and isinstance(data[c], int) for c in "rgb")
        assert isinstance(data["x"], float) and data["size"] > 0
    zorbnet = G.nodes["model:zorbnet"]
    assert zorbnet["label"] == "Zorbnet" and zorbnet["type"] == "model" and zorbnet["kind"] == "entity"
    assert zorbnet["papers"] == 2 and zorbnet["aliases"] == "ZORBNET"
    paper = G.nodes["paper:p1"]
    assert paper["type"] == "paper" and paper["year"] == 2024 and paper["sources"] == "p1.txt#1"
    assert "year" not in G.nodes["paper:p2"]  # unknown values are omitted, never "" or a sentinel
    assert isinstance(paper["pagerank"], float) and isinstance(paper["community"], int)
    mention = G.edges["paper:p1", "model:zorbnet"]
    assert mention["role"] == "proposed" and mention["label"] == "proposed" and mention["weight"] == 1.0
    assert "We propose Zorbnet" in mention["evidence"]
    relation = G.edges["model:zorbnet", "dataset:quux-corpus"]
    assert relation["relation"] == "evaluated_on" and relation["papers"] == 1
    assert relation["evidence_paper"] == "p1" and "Zorbnet" in relation["evidence"]


def test_paper_view_weights_and_shared_list(write):
    G = nx.read_graphml(write("papers"))
    edge = G.edges["paper:p1", "paper:p2"]
    assert edge["weight"] == 2.0 and edge["shared"] == "Quux corpus; Zorbnet"


@pytest.mark.parametrize("view", VIEWS)
def test_igraph_reads_every_view(write, view):
    igraph = pytest.importorskip("igraph")
    path = write(view)
    loaded = igraph.Graph.Read_GraphML(str(path))
    H = nx.read_graphml(path)
    assert loaded.vcount() == H.number_of_nodes() and loaded.ecount() == H.number_of_edges()
    assert "label" in loaded.vs.attributes() and "weight" in loaded.es.attributes()


def test_control_characters_are_stripped_and_markup_escaped(write):
    path = write(extra=DIRTY)
    raw = path.read_bytes()
    assert not any(byte in raw for byte in (b"\x00", b"\x0b", b"\x0c"))
    G = nx.read_graphml(path)
    assert G.nodes["paper:p9"]["title"] == "Noisytitle"
    assert G.nodes["paper:p9"]["abstract"] == "We test Wumpnet on pagebreaks & <tags>."


def test_structure_with_lxml(write):
    etree = pytest.importorskip("lxml.etree")
    root = etree.parse(str(write()), etree.XMLParser(huge_tree=True)).getroot()
    children = [etree.QName(child).localname for child in root]
    assert children == ["key"] * (len(children) - 1) + ["graph"]
    graph = root[-1]
    kinds = [etree.QName(child).localname for child in graph]
    assert kinds == sorted(kinds, key=lambda k: k != "node")  # nodes, then edges
    for child in graph:
        assert all(etree.QName(d).localname == "data" for d in child)


def test_output_is_byte_identical_across_runs_and_hash_seeds(stable_output):
    stable_output("kg.exporters.graphml.write_graphml", ".graphml")


def test_registered_as_graphml():
    assert exporters.get("graphml") is write_graphml
