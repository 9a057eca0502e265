"""The page's data, packed: columns, strings stored once, deflated, seven bits per character.

The page keeps one small JSON block (`meta`, vis `options`, where each part lies) and one text
block of packed parts: the `core` (every node and edge as columns) and the abstracts (the papers'
clean texts with their mentions, CHUNK papers per part). Each part is JSON deflated (raw, zlib at
a fixed level: the same bytes for the same data) and written seven bits per character: ASCII,
except the three values the HTML parser would change or read as markup (NUL, CR, `<`), written as
U+0100..U+0102, so the text needs no escaping and costs 8/7 of the bytes (base64: 4/3). The page
inflates parts with the browser's own `DecompressionStream("deflate-raw")` (`static/pack.js`): the
core on load, an abstract's chunk when its panel opens. `unpack` is the inverse, for tests and checks.
"""
from __future__ import annotations

import json
import re
import zlib
from typing import Any

import numpy as np

FORMAT = 1
CHUNK = 256  # papers per abstracts chunk: a panel inflates about 300 KB of text, a few ms
LEVEL = 6
PAPER_PREFIX = "paper:"
SAME = 0  # in the title column: the title is the label
PAPER_FIELDS = ("year", "url", "authors")  # stored as they are, one column each
ESCAPED = (0, 13, 60)  # NUL, CR, "<": written as chr(ESCAPE + k)
ESCAPE = 0x100
BLOCK = re.compile(r'<script type="application/json" id="kg-data">(.*?)</script>', re.S)
PACKED = re.compile(r'<script type="text/plain" id="kg-packed">(.*?)</script>', re.S)


def deflate(value: Any) -> bytes:
    """JSON (compact, UTF-8) compressed as raw deflate at a fixed level."""
    packer = zlib.compressobj(LEVEL, zlib.DEFLATED, -15)
    raw = json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return packer.compress(raw) + packer.flush()


def inflate(data: bytes) -> Any:
    """The value `deflate` packed."""
    return json.loads(zlib.decompress(data, -15).decode("utf-8"))


def to_text(data: bytes) -> str:
    """Bytes as text, seven bits per character (the last one padded with zero bits)."""
    bits = np.unpackbits(np.frombuffer(data, dtype=np.uint8))
    bits = np.concatenate([bits, np.zeros(-len(bits) % 7, dtype=np.uint8)]).reshape(-1, 7)
    points = np.packbits(np.pad(bits, ((0, 0), (1, 0))), axis=1)[:, 0].astype(np.uint32)
    for k, value in enumerate(ESCAPED):
        points[points == value] = ESCAPE + k
    return points.astype("<u4").tobytes().decode("utf-32-le")


def from_text(text: str, size: int) -> bytes:
    """The `size` bytes `to_text` wrote."""
    points = np.frombuffer(text.encode("utf-32-le"), dtype="<u4").copy()
    for k, value in enumerate(ESCAPED):
        points[points == ESCAPE + k] = value
    bits = np.unpackbits(points.astype(np.uint8)[:, None], axis=1)[:, 1:]
    return np.packbits(bits.reshape(-1))[:size].tobytes()


class Strings:
    """A table of strings stored once; each use is its index."""

    def __init__(self) -> None:
        self.index: dict[str, int] = {}

    def __call__(self, text: str | None) -> int | None:
        return None if text is None else self.index.setdefault(text, len(self.index))

    @property
    def table(self) -> list[str]:
        return list(self.index)


def node_columns(nodes: list[dict[str, Any]], types: list[str], strings: Strings) -> dict[str, list]:
    """Every node field as a column; positions in tenths; kinds, types and venues as indices."""
    paper = [n["kind"] == "paper" for n in nodes]
    pid = [n["pid"] if p and n["id"] != PAPER_PREFIX + n["pid"] else None for n, p in zip(nodes, paper)]
    title = [(SAME if n["title"] == n["label"] else n["title"]) if p else None for n, p in zip(nodes, paper)]
    columns: dict[str, list] = {
        "id": [n["id"][len(PAPER_PREFIX):] if p and pid[i] is None else n["id"] for i, (n, p) in
               enumerate(zip(nodes, paper))],
        "paper": [int(p) for p in paper], "label": [n["label"] for n in nodes],
        "type": [types.index(n["type"]) for n in nodes], "papers": [n["papers"] for n in nodes],
        "x": [round(n["x"] * 10) for n in nodes], "y": [round(n["y"] * 10) for n in nodes],
        "c": [n["c"] for n in nodes], "pid": pid, "title": title,
        "venue": [strings(n["venue"]) if p else None for n, p in zip(nodes, paper)],
        "sources": [[strings(s) for s in n["sources"]] if p else None for n, p in zip(nodes, paper)],
        "aliases": [None if p else n["aliases"] for n, p in zip(nodes, paper)],
        "proposed": [None if p else n["proposed"] for n, p in zip(nodes, paper)],
        "kindOf": [n.get("kindOf") for n in nodes],
    }
    columns.update({name: [n[name] if p else None for n, p in zip(nodes, paper)] for name in PAPER_FIELDS})
    return columns


def edge_columns(edges: list[list[Any]]) -> dict[str, list]:
    """Edges as columns: sources as differences (graph order groups them), (kind, role) as codes."""
    codes: dict[tuple[str, str], int] = {}
    previous, steps = 0, []
    for edge in edges:
        steps.append(edge[0] - previous)
        previous = edge[0]
    return {"from": steps, "to": [e[1] for e in edges],
            "code": [codes.setdefault((e[2], e[3]), len(codes)) for e in edges],
            "weight": [e[4] for e in edges], "codes": [list(c) for c in codes],
            "evidence": [[i, *e[5:]] for i, e in enumerate(edges) if len(e) > 5]}


def pack(nodes: list[dict[str, Any]], edges: list[list[Any]], meta: dict[str, Any],
         options: dict[str, Any], results: list[list[Any]] | None = None) -> tuple[dict[str, Any], str]:
    """The page's JSON block (meta and options as they are, where each part lies) and packed text; `results`:
    `[paper index, line, [entity indices]]` per reported result (in the core)."""
    strings = Strings()
    core = {"nodes": node_columns(nodes, meta["types"], strings), "edges": edge_columns(edges),
            "links": [value for link in meta["links"] for value in link], "results": results or []}
    core["strings"] = strings.table
    segments = [n["segments"] for n in nodes if n["kind"] == "paper"]
    parts = [deflate(core), *(deflate(segments[k:k + CHUNK]) for k in range(0, len(segments), CHUNK))]
    texts = [to_text(part) for part in parts]
    starts = np.cumsum([0, *map(len, texts)]).tolist()
    shown = {key: value for key, value in meta.items() if key != "links"}
    block = {"format": FORMAT, "meta": shown, "options": options, "chunk": CHUNK,
             "parts": [[start, len(text), len(part)] for start, text, part in zip(starts, texts, parts)]}
    return block, "".join(texts)


def unpack(block: dict[str, Any], packed: str) -> dict[str, Any]:
    """The page data as records again: {meta, nodes, edges, options} (the inverse of `pack`)."""
    core, *chunks = [inflate(from_text(packed[start:start + length], size)) for start, length, size in block["parts"]]
    meta = dict(block["meta"], links=[core["links"][k:k + 3] for k in range(0, len(core["links"]), 3)])
    segments = [s for chunk in chunks for s in chunk]
    nodes = node_records(core["nodes"], meta["types"], core["strings"], iter(segments))
    return {"meta": meta, "nodes": nodes, "edges": edge_records(core["edges"]), "options": block["options"],
            "results": core.get("results", [])}


def node_records(columns: dict[str, list], types: list[str], strings: list[str], segments) -> list[dict]:
    """Per-node dicts from the columns (the records the page had before packing)."""
    records = []
    for i, label in enumerate(columns["label"]):
        paper = bool(columns["paper"][i])
        node = {"id": columns["id"][i], "label": label, "kind": "paper" if paper else "entity",
                "type": types[columns["type"][i]], "papers": columns["papers"][i],
                "x": columns["x"][i] / 10, "y": columns["y"][i] / 10, "c": columns["c"][i]}
        if paper:
            pid = columns["pid"][i]
            node["id"], node["pid"] = (node["id"], pid) if pid is not None else (PAPER_PREFIX + node["id"], node["id"])
            title = columns["title"][i]
            node.update({name: columns[name][i] for name in PAPER_FIELDS}, title=label if title == SAME else title,
                        venue=None if columns["venue"][i] is None else strings[columns["venue"][i]],
                        sources=[strings[s] for s in columns["sources"][i]], segments=next(segments))
        else:
            node.update(aliases=columns["aliases"][i], proposed=columns["proposed"][i])
            if columns["kindOf"][i] is not None:
                node["kindOf"] = columns["kindOf"][i]
        records.append(node)
    return records


def edge_records(columns: dict[str, list]) -> list[list[Any]]:
    """`[from, to, kind, role, weight(, sentence, paper)]` per edge."""
    edges, source = [], 0
    for step, target, code, weight in zip(columns["from"], columns["to"], columns["code"], columns["weight"]):
        source += step
        edges.append([source, target, *columns["codes"][code], weight])
    for index, *evidence in columns["evidence"]:
        edges[index].extend(evidence)
    return edges


def page_data(html: str) -> dict[str, Any]:
    """The unpacked data of a page's `kg-data` and `kg-packed` blocks (ValueError when it has none)."""
    block, packed = BLOCK.search(html), PACKED.search(html)
    if not block or not packed:
        raise ValueError("no kg-data or kg-packed block in the page")
    return unpack(json.loads(block.group(1)), packed.group(1))
