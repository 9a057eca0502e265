"""The export's triples as subject blocks, generated one paper or entity at a time.

`iter_blocks` walks the graph in node order: each paper (its own triples and its links), then
its mentions, sentences and link statements sorted by IRI; each entity (with its relations),
then its relation statements sorted by IRI. Triples are de-duplicated within that scope only
(a sentence shared by several mentions of a paper; a mention shared by two links). Sentences
stating relations are written with their paper, from an index built first (one entry per
sentence stating a relation: the only state besides the current scope).
"""
from __future__ import annotations

import hashlib
from typing import Iterator, Sequence
from urllib.parse import quote

import networkx as nx

from kg.exporters.rdf_terms import V, Block, Iri
from kg.graph.build import DEFAULT_BASE_IRI, Evidence, paper_node
from kg.graph.results import Result, results_of
from kg.text.iri import base_iri_problem, id_segment as segment, is_iri

mlkg, schema, nif, itsrdf, dcterms, prov, rdf, rdfs, skos = (V[p] for p in (
    "mlkg", "schema", "nif", "itsrdf", "dcterms", "prov", "rdf", "rdfs", "skos"))
CLASSES = {"method": mlkg.Method, "model": mlkg.Model, "dataset": mlkg.Dataset, "task": mlkg.Task,
           "metric": mlkg.Metric}
ROLES = {"proposed": mlkg.proposes, "used": mlkg.uses}
RELATIONS = {"evaluated_on": mlkg.evaluatedOn, "applied_to": mlkg.appliedTo,
             "measured_by": mlkg.measuredBy, "based_on": mlkg.basedOn}
Spans = dict[str, dict[tuple[int, int], Evidence]]


class Iris:
    """Mints the deterministic instance IRIs under one base."""

    def __init__(self, base: str | None) -> None:
        base = base or DEFAULT_BASE_IRI
        problem = base_iri_problem(base)
        if problem:
            raise ValueError(f"base IRI {base!r} is not usable: {problem}")
        self.base = base if base.endswith(("/", "#")) else base + "/"

    def paper(self, paper_id: str) -> Iri:
        """`<base>paper/<id>`."""
        return Iri(f"{self.base}paper/{segment(paper_id)}")

    def entity(self, node: str, entity_type: str) -> Iri:
        """`<base>entity/<type>/<slug>` where the node id is `<type>:<slug>`."""
        slug = node.split(":", 1)[1] if ":" in node else node
        return Iri(f"{self.base}entity/{segment(entity_type)}/{segment(slug)}")

    def node(self, G: nx.DiGraph, node: str) -> Iri:
        """The IRI of a paper or entity node."""
        data = G.nodes[node]
        return self.paper(data["paper_id"]) if data["kind"] == "paper" else self.entity(node, data["type"])

    def mention(self, paper_id: str, start: int, end: int) -> Iri:
        """`<base>mention/<paper>/<start>-<end>`."""
        return Iri(f"{self.base}mention/{segment(paper_id)}/{start}-{end}")

    def sentence(self, paper_id: str, start: int, end: int) -> Iri:
        """`<base>paper/<id>/sent/<start>-<end>`."""
        return Iri(f"{self.paper(paper_id)}/sent/{start}-{end}")

    def statement(self, subject: str, predicate: str, obj: str) -> Iri:
        """`<base>stmt/<sha1 of "s|p|o">`."""
        return Iri(f"{self.base}stmt/{hashlib.sha1(f'{subject}|{predicate}|{obj}'.encode('utf-8')).hexdigest()}")


def iter_blocks(G: nx.DiGraph) -> Iterator[tuple[Iri, Block]]:
    """Every subject block of the export, in node order; each subject once (given the graph contract)."""
    iris = Iris(G.graph.get("base_iri"))
    cited = relation_sentences(G)
    reported: dict[str, list] = {}
    for result in results_of(G):
        reported.setdefault(result.paper_id, []).append(result)
    for node, data in G.nodes(data=True):
        if data["kind"] == "paper":
            yield from paper_scope(iris, G, node, data, cited.pop(data["paper_id"], {}),
                                   reported.get(data["paper_id"], ()))
        else:
            yield from entity_scope(iris, G, node, data)
    orphans: dict[Iri, Block] = {}  # sentences of relations whose paper is not in the graph
    for spans in cited.values():
        for evidence in spans.values():
            merge(orphans, *sentence_block(iris, G, evidence))
    yield from sorted(orphans.items())


def relation_sentences(G: nx.DiGraph) -> Spans:
    """paper id -> (start, end) -> evidence of every sentence stating a relation (written with its paper)."""
    cited: Spans = {}
    for _, _, data in G.edges(data=True):
        for evidence in data.get("relations", {}).values():
            for item in evidence:
                cited.setdefault(item.paper_id, {})[item.sentence_start, item.sentence_end] = item
    return cited


def paper_scope(iris: Iris, G: nx.DiGraph, node: str, data: dict, cited: dict,
                results: Sequence[Result] = ()) -> Iterator[tuple[Iri, Block]]:
    """A paper's block with its links, then its mentions, sentences, link statements and results by IRI."""
    paper = iris.paper(data["paper_id"])
    block, scope = paper_block(paper, data), {}
    for target, edge in G.succ[node].items():
        if edge["kind"] != "mention":
            continue
        entity, predicate = iris.node(G, target), ROLES[edge["role"]]
        add(block, predicate, entity)
        add(block, mlkg.mentions, entity)
        statement, statement_data = statement_block(iris, paper, predicate, entity)
        statement_data[mlkg.mentionCount] = [len(edge["evidence"])]
        for evidence in edge["evidence"]:
            mention = iris.mention(evidence.paper_id, evidence.start, evidence.end)
            add(statement_data, prov.wasDerivedFrom, mention)
            merge(scope, mention, mention_block(iris, mention, entity, evidence))
            if evidence.sentence_end > evidence.sentence_start:
                merge(scope, *sentence_block(iris, G, evidence))
        scope[statement] = statement_data
    for evidence in cited.values():
        merge(scope, *sentence_block(iris, G, evidence))
    for result in results:
        merge(scope, *result_scope(iris, G, result))
        if result.sentence_end > result.sentence_start:
            merge(scope, *sentence_block(iris, G, evidence_of_result(result)))
    yield paper, block
    yield from sorted(scope.items())


def paper_block(paper: Iri, data: dict) -> Block:
    """A paper's types, abstract, identifier, label and optional metadata."""
    block: Block = {rdf.type: [mlkg.Paper, schema.ScholarlyArticle], dcterms.identifier: [data["paper_id"]],
                    dcterms.abstract: [data["abstract"]], rdfs.label: [data["label"]]}
    if data.get("title"):
        block[dcterms.title] = [data["title"]]
    add_hidden_labels(block, [data["paper_id"], data["label"], data.get("title") or ""])
    if data.get("year") is not None:
        block[mlkg.year] = [int(data["year"])]
    if data.get("venue"):
        block[mlkg.venue] = [data["venue"]]
    url = quote(str(data.get("url") or ""), safe=":/?#[]@!$&'()*+,;=%-._~")
    if url.startswith(("http://", "https://")) and is_iri(url):
        block[rdfs.seeAlso] = [Iri(url)]
    if data.get("authors"):
        block[mlkg.authorName] = list(dict.fromkeys(data["authors"]))
    if data.get("sources"):
        block[mlkg.source] = list(dict.fromkeys(str(source) for source in data["sources"]))
    return block


def entity_scope(iris: Iris, G: nx.DiGraph, node: str, data: dict) -> Iterator[tuple[Iri, Block]]:
    """An entity's block with its relations, then its relation statements by IRI."""
    entity = iris.entity(node, data["type"])
    block, statements = entity_block(entity, node, data), {}
    for target in data.get("broader") or ():
        if target in G:  # a view may leave it out
            add(block, skos.broader, iris.node(G, target))
    for target, edge in G.succ[node].items():
        for name, evidence in edge.get("relations", {}).items():
            obj, predicate = iris.node(G, target), RELATIONS[name]
            add(block, predicate, obj)
            statement, statement_data = statement_block(iris, entity, predicate, obj)
            statement_data[mlkg.support] = [len({item.paper_id for item in evidence})]
            for item in evidence:
                sentence = iris.sentence(item.paper_id, item.sentence_start, item.sentence_end)
                add(statement_data, prov.wasDerivedFrom, sentence)
            statements[statement] = statement_data
    yield entity, block
    yield from sorted(statements.items())


def entity_block(entity: Iri, node: str, data: dict) -> Block:
    """An entity's class (one of five), SKOS labels and counts."""
    types = [CLASSES[data["type"]], mlkg.Entity, skos.Concept] + ([schema.Dataset] if data["type"] == "dataset" else [])
    block: Block = {rdf.type: types, dcterms.identifier: [node], rdfs.label: [data["label"]],
                    skos.prefLabel: [data["label"]], mlkg.paperCount: [int(data.get("papers", 0))],
                    mlkg.proposedByCount: [int(data.get("proposed_by", 0))]}
    aliases = [a for a in dict.fromkeys(data.get("aliases") or ()) if a != data["label"]]
    if aliases:
        block[skos.altLabel] = aliases
    add_hidden_labels(block, [node, data["label"], *aliases])
    return block


def lookup_key(name: str) -> str:
    """A name lower-cased with its whitespace runs made single spaces (what `kg query` does to a lookup value)."""
    return " ".join(name.split()).lower()


def add_hidden_labels(block: Block, names: list[str]) -> None:
    """skos:hiddenLabel: each name's `lookup_key`, unless the node already shows that form (SKOS keeps them disjoint).

    A query then finds a node by the key of any of its names among its labels, hidden labels and
    identifier with one index lookup, where a case-insensitive FILTER would scan every label.
    """
    shown = {name for predicate in (dcterms.identifier, rdfs.label, skos.prefLabel, skos.altLabel)
             for name in block.get(predicate, ())}
    hidden = [key for key in dict.fromkeys(lookup_key(name) for name in names if name.strip()) if key not in shown]
    if hidden:
        block[skos.hiddenLabel] = hidden


def mention_block(iris: Iris, mention: Iri, entity: Iri, evidence: Evidence) -> Block:
    """A NIF phrase: offsets into the abstract, its text, paper, sentence and entity."""
    block: Block = {rdf.type: [mlkg.Mention, nif.Phrase], nif.beginIndex: [evidence.start],
                    nif.endIndex: [evidence.end], nif.anchorOf: [evidence.text],
                    nif.referenceContext: [iris.paper(evidence.paper_id)], itsrdf.taIdentRef: [entity],
                    mlkg.denotes: [entity]}
    if evidence.sentence_end > evidence.sentence_start:
        block[nif.sentence] = [iris.sentence(evidence.paper_id, evidence.sentence_start, evidence.sentence_end)]
    return block


def sentence_block(iris: Iris, G: nx.DiGraph, evidence: Evidence) -> tuple[Iri, Block]:
    """A NIF sentence of an abstract, with its text."""
    start, end = evidence.sentence_start, evidence.sentence_end
    paper = G.nodes.get(paper_node(evidence.paper_id), {})
    text = paper["abstract"][start:end] if "abstract" in paper else evidence.text
    return iris.sentence(evidence.paper_id, start, end), {
        rdf.type: [nif.Sentence], nif.beginIndex: [start], nif.endIndex: [end],
        nif.anchorOf: [text], nif.referenceContext: [iris.paper(evidence.paper_id)]}


def statement_block(iris: Iris, subject: Iri, predicate: Iri, obj: Iri) -> tuple[Iri, Block]:
    """The reification of `subject predicate obj` (its IRI and block)."""
    return iris.statement(subject, predicate, obj), {
        rdf.type: [rdf.Statement, prov.Entity], rdf.subject: [subject], rdf.predicate: [predicate], rdf.object: [obj]}


def add(block: Block, predicate: Iri, obj: object) -> None:
    """Add one object unless the block already has it (same value and kind)."""
    objects = block.setdefault(predicate, [])
    if obj not in objects or not any(o == obj and type(o) is type(obj) for o in objects):
        objects.append(obj)


def merge(blocks: dict[Iri, Block], subject: Iri, block: Block) -> None:
    """Add a block to a scope, merging it into the subject's block if there is one."""
    if subject not in blocks:
        blocks[subject] = block
        return
    for predicate, objects in block.items():
        for obj in objects:
            add(blocks[subject], predicate, obj)


def result_scope(iris: Iris, G: nx.DiGraph, result: Result) -> tuple[Iri, Block]:
    """A result's IRI and block (kg.exporters.rdf_results)."""
    from kg.exporters.rdf_results import result_block, result_iri

    return result_iri(iris.base, result), result_block(iris, G, result)


def evidence_of_result(result: Result) -> Evidence:
    """The evidence record of a result's number (for its sentence's block)."""
    return Evidence(result.paper_id, result.start, result.end, result.text, result.sentence_start,
                    result.sentence_end)
