"""The HTML page's packed data: seven-bit text, deflated parts, columns back to the same records."""
from __future__ import annotations

import json
import random

import pytest

from kg.exporters.html import edge_records, node_records, page_meta, vis_options
from kg.exporters.html_map import build_map
from kg.exporters.html_pack import BLOCK, CHUNK, PACKED, from_text, inflate, pack, page_data, to_text, unpack
from kg.exporters.html import render_html
from kg.quality.browser import js, open_page, wait_for
from tests.consumers import browser  # noqa: F401  (a fixture)

HOSTILE = ("p7", "Evil </script> title", "We test <script>alert(1)</script> Snarknet\r\n on data\x00. Done.",
           [("Snarknet", "model", "proposed")])


@pytest.mark.parametrize("size", [0, 1, 6, 7, 8, 9, 100, 4099])
def test_seven_bit_text_round_trips_and_holds_nothing_the_html_parser_changes(size):
    data = random.Random(size).randbytes(size) + bytes([0, 13, 60, 0x80, 0xff])  # the escaped values too
    text = to_text(data)
    assert from_text(text, len(data)) == data
    assert len(text) == -(-8 * len(data) // 7)
    assert not {"<", "\r", "\x00"} & set(text) and all(ord(c) < 128 or c in "\u0100\u0101\u0102" for c in text)


def records(G):
    """The per-node and per-edge records, meta and options the page is made from."""
    index = {node: i for i, node in enumerate(G)}
    layout = build_map(G, 42)
    nodes = node_records(G, layout, index)
    return nodes, edge_records(G, index), page_meta(G, nodes, layout, "t", index), vis_options(G, 42)


def test_unpack_gives_back_every_record(make_graph):
    extra = [(f"q{i}", f"Title {i}" if i % 2 else None, f"We use the Quux corpus {i}.",
              [("Quux corpus", "dataset", "used")]) for i in range(CHUNK + 3)]  # more papers than one chunk
    nodes, edges, meta, options = records(make_graph([HOSTILE, *extra]))
    block, packed = pack(nodes, edges, meta, options)
    assert len(block["parts"]) == 1 + 2  # the core, then two chunks of abstracts
    back = unpack(json.loads(json.dumps(block)), packed)
    assert back["nodes"] == nodes and back["edges"] == edges
    assert back["meta"] == json.loads(json.dumps(meta)) and back["options"] == options
    assert any(n["title"] == "Evil </script> title" for n in back["nodes"])


def test_the_page_carries_the_block_and_packs_repeated_strings_once(make_graph):
    extra = [(f"q{i}", None, "We use the Quux corpus.", [("Quux corpus", "dataset", "used")]) for i in range(40)]
    G = make_graph(extra, **{f"q{i}": {"venue": "A very long venue name, shared"} for i in range(40)})
    html = render_html(G)
    assert page_data(html)["nodes"] == json.loads(json.dumps(records(G)[0]))
    block = json.loads(BLOCK.search(html).group(1))
    start, length, size = block["parts"][0]
    core = inflate(from_text(PACKED.search(html).group(1)[start:start + length], size))
    venue = "A very long venue name, shared"
    assert core["strings"].count(venue) == 1  # stored once, each paper names its index
    assert [v for v in core["nodes"]["venue"] if v is not None] == [core["strings"].index(venue)] * 40


def test_the_browser_unpacks_what_python_packed(browser, make_graph, tmp_path):
    G = make_graph([HOSTILE])
    path = tmp_path / "graph.html"
    path.write_text(render_html(G), encoding="utf-8")
    session, _ = open_page(browser, path)
    expected = page_data(path.read_text(encoding="utf-8"))
    shown = js(browser, session, "JSON.stringify(kgApp.nodes)")
    assert json.loads(shown) == [{k: v for k, v in n.items() if k != "segments"} for n in expected["nodes"]]
    papers = [i for i, n in enumerate(expected["nodes"]) if n["kind"] == "paper"]
    got = wait_for(browser, session, "Promise.all(%s.map(i => kgPack.segments(i)))" % json.dumps(papers))
    assert got == [expected["nodes"][i]["segments"] for i in papers]
