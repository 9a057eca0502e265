"""Helpers that test modules share (not a test module): invented graphs and the PYTHONHASHSEED harness."""
from __future__ import annotations

import os
import re
import subprocess
import sys
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Optional, Sequence

import networkx as nx

from kg.graph.build import to_networkx
from kg.graph.resolution import Resolution, graph_of
from kg.types import Entity, Link, Mention, MentionRelation, Paper, Relation, Source

ROOT = Path(__file__).resolve().parents[1]
HASH_SEEDS = ("0", "1", "4242")
BASE = "https://w3id.org/paperkg/"
# Gold annotations of invented abstracts (names no corpus has), for the training tests
INVENTED_GOLD = [
    ("We propose the Quuxformer model and test it on the Blip corpus.",
     [{"name": "Quuxformer", "type": "model", "role": "proposed"}, {"name": "Blip corpus", "type": "dataset"}]),
    ("We study glimmer parsing with the Zorb tagger on the Blip corpus.",
     [{"name": "glimmer parsing", "type": "task"}, {"name": "Zorb tagger", "type": "model"},
      {"name": "Blip corpus", "type": "dataset"}]),
    ("Glimmer parsing improves when we apply flux pruning to the Zorb tagger.",
     [{"name": "glimmer parsing", "type": "task"}, {"name": "flux pruning", "type": "method"},
      {"name": "Zorb tagger", "type": "model"}]),
]


def under_hash_seeds(code: str, *args: str, seeds: Sequence[str] = HASH_SEEDS) -> list[str]:
    """The stdout of `python -c code args` in a fresh interpreter per PYTHONHASHSEED (`tests.support` importable).

    Determinism tests print what they produced (or its digest) and compare the runs.
    """
    outputs = []
    for seed in seeds:
        env = {**os.environ, "PYTHONHASHSEED": seed,
               "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH", "")]))}
        done = subprocess.run([sys.executable, "-c", code, *args], check=True, env=env, cwd=ROOT,
                              capture_output=True, text=True)
        outputs.append(done.stdout)
    return outputs


# The small invented graph: (paper id, title, abstract, [(surface, type, role)]); not the seed abstracts.
PaperSpec = tuple[str, Optional[str], str, list[tuple[str, str, str]]]
PAPERS: list[PaperSpec] = [
    ("p1", "Zorbnet for glimmer parsing",
     "We propose Zorbnet, a parser. Zorbnet is evaluated on the Quux corpus with F-score.",
     [("Zorbnet", "model", "proposed"), ("Quux corpus", "dataset", "used"), ("F-score", "metric", "used")]),
    ("p2", None,
     "Glimmer parsing is hard. We fine-tune Zorbnet on the Quux corpus.",
     [("Glimmer parsing", "task", "used"), ("Zorbnet", "model", "used"), ("Quux corpus", "dataset", "used")]),
    ("p3", "A lone study", "We introduce the Blorp method for glimmer parsing.",
     [("Blorp method", "method", "proposed"), ("glimmer parsing", "task", "used")]),
]


def slug(text: str) -> str:
    """A lower-case id slug."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def mention(paper: str, abstract: str, surface: str, kind: str, role: str) -> Mention:
    """The first occurrence of `surface` in `abstract` as a mention spanning its sentence."""
    start = abstract.index(surface)
    sentence_start = abstract.rfind(". ", 0, start) + 2 if ". " in abstract[:start] else 0
    end_dot = abstract.find(".", start + len(surface))
    return Mention(paper, start, start + len(surface), surface, kind, role, sentence_start,
                   end_dot + 1 if end_dot >= 0 else len(abstract), "test", surface)


def build_graph(extra: Sequence[PaperSpec] = (), relations: bool = True, **paper_fields) -> nx.DiGraph:
    """The graph of `build_resolution`."""
    return graph_of(build_resolution(extra, relations, **paper_fields))


def build_resolution(extra: Sequence[PaperSpec] = (), relations: bool = True, **paper_fields) -> Resolution:
    """A resolution of PAPERS plus `extra` (with one stated relation)."""
    records, entities, links, by_entity = [], {}, [], {}
    for pid, title, abstract, spans in [*PAPERS, *extra]:
        records.append(Paper(pid, abstract, (Source(f"{pid}.txt", 1),), title=title,
                             year=2024 if title else None, **paper_fields.get(pid, {})))
        for surface, kind, role in spans:
            entity_id = f"{kind}:{slug(surface)}"
            entities.setdefault(entity_id, Entity(entity_id, kind, surface, (surface.upper(),)))
            found = mention(pid, abstract, surface, kind, role)
            links.append(Link(pid, entity_id, role, (found,)))
            by_entity.setdefault((pid, entity_id), found)
    stated = []
    if relations:
        source, target = by_entity[("p1", "model:zorbnet")], by_entity[("p1", "dataset:quux-corpus")]
        stated.append(Relation("model:zorbnet", "evaluated_on", "dataset:quux-corpus",
                               (MentionRelation("p1", "evaluated_on", source, target),)))
    return Resolution(tuple(records), tuple(entities.values()), tuple(links), tuple(stated))


# A hostile graph for the RDF writers: escapes, quotes, emoji, an id needing percent-escapes.
TRICKY = ('Émoji 😀 first: we propose "FooNet" for image classification.\n'
          'FooNet\\path reaches 90% accuracy on <script>ImageNet</script> with """triple""" quotes.\r\n'
          'Tabs\there, e\u0301 and a form\x0cfeed end with a quote"')
SECOND = "ImageNet is used again by an unnamed method; no title here."


def mention_in(paper: Paper, text: str, kind: str, role: str = "used", occurrence: int = 0) -> Mention:
    """The `occurrence`-th span of `text` in the paper's abstract, with its sentence bounds."""
    start = [m.start() for m in re.finditer(re.escape(text), paper.abstract)][occurrence]
    sentence = next(s for s in re.finditer(r"[^\s.][^\n.]*\.?", paper.abstract) if s.start() <= start < s.end())
    return Mention(paper.id, start, start + len(text), text, kind, role, sentence.start(), sentence.end(), "test", text)


def rdf_graph(base_iri: str = BASE) -> nx.DiGraph:
    """The graph of `rdf_resolution`."""
    return graph_of(rdf_resolution(base_iri))


def rdf_resolution(base_iri: str = BASE) -> Resolution:
    """Two invented papers (one with a hostile abstract and an id needing escapes), four entities."""
    p1 = Paper("p1", TRICKY, (Source("000_a.txt", 3), Source("001_b.txt", 7)), "Foo: a \"title\"", 2024,
               "Invented Conf", ("Ann A", "Bob B"), "https://example.org/abs/1 2")
    p2 = Paper("cs/99 x#ü", SECOND, (Source("000_a.txt", 5),))
    foo = [mention_in(p1, "FooNet", "model", "proposed", i) for i in (0, 1)]
    imagenet = [mention_in(p1, "ImageNet", "dataset"), mention_in(p2, "ImageNet", "dataset")]
    entities = [Entity("model:foonet", "model", "FooNet", ("Foo-Net", "FooNet")),
                Entity("dataset:imagenet", "dataset", "ImageNet"),
                Entity("task:image_classification", "task", "image classification"),
                Entity("metric:top-1 accuracy/%", "metric", "accuracy", ("acc.",))]
    links = [Link("p1", "model:foonet", "proposed", tuple(foo)),
             Link("p1", "dataset:imagenet", "used", (imagenet[0],)),
             Link("p1", "task:image_classification", "used", (mention_in(p1, "image classification", "task"),)),
             Link("p1", "metric:top-1 accuracy/%", "used", (mention_in(p1, "accuracy", "metric"),)),
             Link(p2.id, "dataset:imagenet", "used", (imagenet[1],))]
    relations = [Relation("model:foonet", "evaluated_on", "dataset:imagenet",
                          (MentionRelation("p1", "evaluated_on", foo[1], imagenet[0]),)),
                 Relation("model:foonet", "applied_to", "task:image_classification",
                          (MentionRelation("p1", "applied_to", foo[0], links[2].mentions[0]),))]
    return Resolution((p1, p2), tuple(entities), tuple(links), tuple(relations), base_iri=base_iri)


def build_large_graph(papers: int = 160) -> nx.DiGraph:
    """A graph beyond the spring-layout limit: each invented paper names four of 300 entities."""
    records, entities, links = [], {}, []
    for p in range(papers):
        pid = f"paper{p:03d}"
        records.append(Paper(pid, f"Text {p}."))
        for k in range(4):
            number = (p * 7 + k * 13) % 300
            entity_id = f"{'method model dataset task'.split()[k]}:thing-{number}"
            entities.setdefault(entity_id, Entity(entity_id, entity_id.split(":")[0], f"thing {number}"))
            links.append(Link(pid, entity_id, "used"))
    return to_networkx(records, entities.values(), links)


def fetch(url: str, query: str | None = None, accept: str = "", data: bytes | None = None,
          content_type: str = "", method: str = "GET") -> tuple[int, str, bytes]:
    """One HTTP request: status, content type and body (errors included)."""
    if query is not None:
        url += "?" + urllib.parse.urlencode({"query": query})
    request = urllib.request.Request(url, data=data, method=method,
                                     headers={k: v for k, v in (("Accept", accept), ("Content-Type", content_type)) if v})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.headers["Content-Type"], response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers["Content-Type"], error.read()


def command_paths(group=None, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """Every command and subcommand of the app, as argument tuples."""
    import typer.main

    from kg.cli.main import app

    group = group or typer.main.get_command(app)
    paths = []
    for name, command in sorted(group.commands.items()):
        paths.append((*prefix, name))
        if hasattr(command, "commands"):
            paths.extend(command_paths(command, (*prefix, name)))
    return paths
