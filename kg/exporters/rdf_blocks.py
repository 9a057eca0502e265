"""The export's triples as subject blocks, generated one paper or entity at a time.

`iter_blocks` walks a `Resolution`'s tables (`kg.graph.tables`): each paper in input order (its own triples and its
links), then
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
from kg.graph.resolution import Resolution
from kg.graph.results import Result
from kg.graph.tables import Evidence, Tables
from kg.types import DEFAULT_BASE_IRI, Entity, Paper
from kg.text.iri import base_iri_problem, id_segment as segment, is_iri
from kg.text.markup import strip_markup

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
        self._papers: dict[str, Iri] = {}  # each IRI escaped once per export: a paper's or entity's is minted often
        self._entities: dict[tuple[str, str], Iri] = {}

    def paper(self, paper_id: str) -> Iri:
        """`<base>paper/<id>`."""
        iri = self._papers.get(paper_id)
        if iri is None:
            iri = self._papers[paper_id] = Iri(f"{self.base}paper/{segment(paper_id)}")
        return iri

    def entity(self, node: str, entity_type: str) -> Iri:
        """`<base>entity/<type>/<slug>` where the node id is `<type>:<slug>`."""
        iri = self._entities.get((node, entity_type))
        if iri is None:
            slug = node.split(":", 1)[1] if ":" in node else node
            iri = self._entities[node, entity_type] = Iri(f"{self.base}entity/{segment(entity_type)}/{segment(slug)}")
        return iri

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


def iter_blocks(resolution: Resolution) -> Iterator[tuple[Iri, Block]]:
    """Every subject block of the export: papers in input order, then entities by id; each subject once."""
    iris, tables = Iris(resolution.base_iri), resolution.tables
    cited = relation_sentences(tables)
    reported: dict[str, list] = {}
    for result in tables.results:
        reported.setdefault(result.paper_id, []).append(result)
    abstracts = {paper.id: paper.abstract for paper in resolution.papers}
    for paper in resolution.papers:
        yield from paper_scope(iris, tables, paper, abstracts, cited.pop(paper.id, {}), reported.get(paper.id, ()))
    for entity in tables.entities.values():
        yield from entity_scope(iris, tables, entity)
    orphans: dict[Iri, Block] = {}  # sentences of relations whose paper is not in the resolution
    for spans in cited.values():
        for evidence in spans.values():
            add_sentence(orphans, iris, abstracts, evidence)
    yield from sorted(orphans.items())


def relation_sentences(tables: Tables) -> Spans:
    """paper id -> (start, end) -> evidence of every sentence stating a relation (written with its paper)."""
    cited: Spans = {}
    for _, edges in sorted(tables.relations.items()):
        for edge in edges:
            for evidence in edge.relations.values():
                for item in evidence:
                    cited.setdefault(item.paper_id, {})[item.sentence_start, item.sentence_end] = item
    return cited


def paper_scope(iris: Iris, tables: Tables, paper: Paper, abstracts: dict[str, str], cited: dict,
                results: Sequence[Result] = ()) -> Iterator[tuple[Iri, Block]]:
    """A paper's block with its links, then its mentions, sentences, link statements and results by IRI."""
    subject = iris.paper(paper.id)
    block, scope = paper_block(subject, paper, tables.labels.get(paper.id, paper.title or "")), {}
    for link in tables.links.get(paper.id, ()):
        entity, predicate = iris.entity(link.entity, tables.entities[link.entity].type), ROLES[link.role]
        add(block, predicate, entity)
        add(block, mlkg.mentions, entity)
        statement, statement_data = statement_block(iris, subject, predicate, entity)
        statement_data[mlkg.mentionCount] = [len(link.evidence)]
        for evidence in link.evidence:
            mention = iris.mention(evidence.paper_id, evidence.start, evidence.end)
            add(statement_data, prov.wasDerivedFrom, mention)
            merge(scope, mention, mention_block(iris, mention, entity, evidence))
            if evidence.sentence_end > evidence.sentence_start:
                add_sentence(scope, iris, abstracts, evidence)
        scope[statement] = statement_data
    for evidence in cited.values():
        add_sentence(scope, iris, abstracts, evidence)
    for result in results:
        merge(scope, *result_scope(iris, tables, result))
        if result.sentence_end > result.sentence_start:
            add_sentence(scope, iris, abstracts, evidence_of_result(result))
    yield subject, block
    yield from sorted(scope.items())


def paper_block(subject: Iri, paper: Paper, label: str) -> Block:
    """A paper's types, abstract, identifier, label and optional metadata."""
    block: Block = {rdf.type: [mlkg.Paper, schema.ScholarlyArticle], dcterms.identifier: [paper.id],
                    dcterms.abstract: [paper.abstract], rdfs.label: [label]}
    if paper.title:
        block[dcterms.title] = [paper.title]
    add_hidden_labels(block, [paper.id, label, paper.title or ""])
    if paper.year is not None:
        block[mlkg.year] = [int(paper.year)]
    if paper.venue:
        block[mlkg.venue] = [paper.venue]
    url = quote(str(paper.url or ""), safe=":/?#[]@!$&'()*+,;=%-._~")
    if url.startswith(("http://", "https://")) and is_iri(url):
        block[rdfs.seeAlso] = [Iri(url)]
    if paper.authors:
        block[mlkg.authorName] = list(dict.fromkeys(paper.authors))
    if paper.sources:
        block[mlkg.source] = list(dict.fromkeys(str(source) for source in paper.sources))
    return block


def entity_scope(iris: Iris, tables: Tables, entity: Entity) -> Iterator[tuple[Iri, Block]]:
    """An entity's block with its relations, then its relation statements by IRI."""
    subject = iris.entity(entity.id, entity.type)
    block, statements = entity_block(subject, entity, tables), {}
    for target in sorted(entity.broader):
        if target in tables.entities:
            add(block, skos.broader, iris.entity(target, tables.entities[target].type))
    for edge in tables.relations.get(entity.id, ()):
        for name, evidence in edge.relations.items():
            obj, predicate = iris.entity(edge.target, tables.entities[edge.target].type), RELATIONS[name]
            add(block, predicate, obj)
            statement, statement_data = statement_block(iris, subject, predicate, obj)
            statement_data[mlkg.support] = [len({item.paper_id for item in evidence})]
            for item in evidence:
                sentence = iris.sentence(item.paper_id, item.sentence_start, item.sentence_end)
                add(statement_data, prov.wasDerivedFrom, sentence)
            statements[statement] = statement_data
    yield subject, block
    yield from sorted(statements.items())


def entity_block(subject: Iri, entity: Entity, tables: Tables) -> Block:
    """An entity's class (one of five), SKOS labels and counts."""
    types = [CLASSES[entity.type], mlkg.Entity, skos.Concept] + ([schema.Dataset] if entity.type == "dataset" else [])
    block: Block = {rdf.type: types, dcterms.identifier: [entity.id], rdfs.label: [entity.label],
                    skos.prefLabel: [entity.label], mlkg.paperCount: [tables.papers.get(entity.id, 0)],
                    mlkg.proposedByCount: [tables.proposed.get(entity.id, 0)]}
    aliases = [a for a in dict.fromkeys(sorted(entity.aliases)) if a != entity.label]
    if aliases:
        block[skos.altLabel] = aliases
    add_hidden_labels(block, [entity.id, entity.label, *aliases])
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


def add_sentence(scope: dict[Iri, Block], iris: Iris, abstracts: dict[str, str], evidence: Evidence) -> None:
    """The evidence's sentence in `scope`, its block made once however many mentions and results it holds."""
    if iris.sentence(evidence.paper_id, evidence.sentence_start, evidence.sentence_end) not in scope:
        merge(scope, *sentence_block(iris, abstracts, evidence))


def sentence_block(iris: Iris, abstracts: dict[str, str], evidence: Evidence) -> tuple[Iri, Block]:
    """A NIF sentence of an abstract, with its text as written (nif:anchorOf) and, where that holds markup or
    broken white space, as read (mlkg:plainText)."""
    start, end = evidence.sentence_start, evidence.sentence_end
    text = abstracts[evidence.paper_id][start:end] if evidence.paper_id in abstracts else evidence.text
    block: Block = {rdf.type: [nif.Sentence], nif.beginIndex: [start], nif.endIndex: [end],
                    nif.anchorOf: [text], nif.referenceContext: [iris.paper(evidence.paper_id)]}
    plain = plain_text(text)
    if plain and plain != text:
        block[mlkg.plainText] = [plain]
    return iris.sentence(evidence.paper_id, start, end), block


def plain_text(written: str) -> str:
    """A sentence as a reader sees it: LaTeX/Markdown markup removed, white space collapsed (`$79.2\\%$` → `79.2%`)."""
    return " ".join(strip_markup(written).text.split())


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


def result_scope(iris: Iris, tables: Tables, result: Result) -> tuple[Iri, Block]:
    """A result's IRI and block (kg.exporters.rdf_results)."""
    from kg.exporters.rdf_results import result_block, result_iri

    return result_iri(iris.base, result), result_block(iris, tables, result)


def evidence_of_result(result: Result) -> Evidence:
    """The evidence record of a result's number (for its sentence's block)."""
    return Evidence(result.paper_id, result.start, result.end, result.text, result.sentence_start,
                    result.sentence_end)
