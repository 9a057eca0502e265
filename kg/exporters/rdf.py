"""RDF export (Turtle, N-Triples, JSON-LD): deterministic IRIs, no blank nodes, sorted output.

Triples come from one generator (`iter_triples`); the writers sort and de-duplicate them and
serialise them as text themselves, so output is byte-stable (independent of PYTHONHASHSEED) and no
rdflib Graph is built: about 10 s and 0.6 GB for a million triples of Turtle.
`to_rdflib` loads the same triples into an rdflib Graph for in-process use.
Vocabulary: ontology/paperkg.ttl (`mlkg:` is fixed at DEFAULT_BASE_IRI + "vocab#", whatever the
instance base), provenance with NIF 2.0 spans and reified `rdf:Statement`s (CS-KG pattern).
"""
from __future__ import annotations

import hashlib
import json
import re
from functools import lru_cache
from itertools import groupby
from pathlib import Path
from typing import Iterable, Iterator, Union
from urllib.parse import quote

import networkx as nx
from rdflib import Graph, Literal, URIRef

from kg.graph import DEFAULT_BASE_IRI, Evidence, paper_node
from kg.registry import exporters



class Terms:
    """A namespace whose `.name` IRIs are built once (rdflib namespaces rebuild them on every access)."""

    def __init__(self, namespace: str) -> None:
        self._namespace = namespace

    def __str__(self) -> str:
        return self._namespace

    def __getattr__(self, name: str) -> URIRef:
        if name.startswith("_"):
            raise AttributeError(name)
        term = self.__dict__[name] = URIRef(self._namespace + name)
        return term


MLKG = Terms(DEFAULT_BASE_IRI + "vocab#")
SCHEMA = Terms("https://schema.org/")
NIF = Terms("http://persistence.uni-leipzig.org/nlp2rdf/ontologies/nif-core#")
ITSRDF = Terms("http://www.w3.org/2005/11/its/rdf#")
DCTERMS = Terms("http://purl.org/dc/terms/")
PROV = Terms("http://www.w3.org/ns/prov#")
RDF = Terms("http://www.w3.org/1999/02/22-rdf-syntax-ns#")
RDFS = Terms("http://www.w3.org/2000/01/rdf-schema#")
SKOS = Terms("http://www.w3.org/2004/02/skos/core#")
XSD = Terms("http://www.w3.org/2001/XMLSchema#")
PREFIXES = {"dcterms": str(DCTERMS), "itsrdf": str(ITSRDF), "mlkg": str(MLKG), "nif": str(NIF),
            "prov": str(PROV), "rdf": str(RDF), "rdfs": str(RDFS), "schema": str(SCHEMA),
            "skos": str(SKOS), "xsd": str(XSD)}
CLASSES = {"method": MLKG.Method, "model": MLKG.Model, "dataset": MLKG.Dataset,
           "task": MLKG.Task, "metric": MLKG.Metric}
ROLES = {"proposed": MLKG.proposes, "used": MLKG.uses}
RELATIONS = {"evaluated_on": MLKG.evaluatedOn, "applied_to": MLKG.appliedTo,
             "measured_by": MLKG.measuredBy, "based_on": MLKG.basedOn}

Term = Union[URIRef, Literal]
Triple = tuple[URIRef, URIRef, Term]
ESCAPES = {**{c: f"\\u{c:04X}" for c in [*range(0x20), 0x7F]},
           ord("\t"): "\\t", ord("\n"): "\\n", ord("\r"): "\\r", ord('"'): '\\"', ord("\\"): "\\\\"}
LOCAL_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*\Z")


class Iris:
    """Mints the deterministic instance IRIs under one base."""

    def __init__(self, base: str | None) -> None:
        base = base or DEFAULT_BASE_IRI
        self.base = base if base.endswith(("/", "#")) else base + "/"

    def paper(self, paper_id: str) -> URIRef:
        """`<base>paper/<id>`."""
        return URIRef(f"{self.base}paper/{segment(paper_id)}")

    def entity(self, node: str, entity_type: str) -> URIRef:
        """`<base>entity/<type>/<slug>` where the node id is `<type>:<slug>`."""
        slug = node.split(":", 1)[1] if ":" in node else node
        return URIRef(f"{self.base}entity/{segment(entity_type)}/{segment(slug)}")

    def mention(self, paper_id: str, start: int, end: int) -> URIRef:
        """`<base>mention/<paper>/<start>-<end>`."""
        return URIRef(f"{self.base}mention/{segment(paper_id)}/{start}-{end}")

    def sentence(self, paper_id: str, start: int, end: int) -> URIRef:
        """`<base>paper/<id>/sent/<start>-<end>`."""
        return URIRef(f"{self.paper(paper_id)}/sent/{start}-{end}")

    def statement(self, triple: Triple) -> URIRef:
        """`<base>stmt/<sha1 of "s|p|o">`."""
        digest = hashlib.sha1("|".join(map(str, triple)).encode("utf-8")).hexdigest()
        return URIRef(f"{self.base}stmt/{digest}")


def segment(text: str) -> str:
    """Percent-escape everything but unreserved characters, so the text is one IRI segment."""
    return quote(text, safe="-._~")


@lru_cache(maxsize=65536)
def index(n: int) -> Literal:
    """A NIF offset: a code-point index as xsd:nonNegativeInteger."""
    return Literal(n, datatype=XSD.nonNegativeInteger)


def iter_triples(G: nx.DiGraph) -> Iterator[Triple]:
    """Every triple of the export, possibly repeated (writers de-duplicate)."""
    iris = Iris(G.graph.get("base_iri"))
    names = {node: iris.paper(data["paper_id"]) if data["kind"] == "paper" else iris.entity(node, data["type"])
             for node, data in G.nodes(data=True)}
    for node, data in G.nodes(data=True):
        yield from paper_triples(names[node], data) if data["kind"] == "paper" else entity_triples(names[node], node, data)
    for source, target, data in G.edges(data=True):
        if data["kind"] == "mention":
            yield from link_triples(iris, G, names[source], names[target], data)
        else:
            yield from relation_triples(iris, G, names[source], names[target], data)


def paper_triples(paper: URIRef, data: dict) -> Iterator[Triple]:
    """A paper's types, abstract, identifier, label and optional metadata."""
    yield from ((paper, RDF.type, MLKG.Paper), (paper, RDF.type, SCHEMA.ScholarlyArticle),
                (paper, DCTERMS.identifier, Literal(data["paper_id"])),
                (paper, DCTERMS.abstract, Literal(data["abstract"])), (paper, RDFS.label, Literal(data["label"])))
    if data.get("title"):
        yield paper, DCTERMS.title, Literal(data["title"])
    if data.get("year") is not None:
        yield paper, MLKG.year, Literal(int(data["year"]), datatype=XSD.integer)
    if data.get("venue"):
        yield paper, MLKG.venue, Literal(data["venue"])
    if str(data.get("url") or "").startswith(("http://", "https://")):
        yield paper, RDFS.seeAlso, URIRef(quote(data["url"], safe=":/?#[]@!$&'()*+,;=%-._~"))
    yield from ((paper, MLKG.authorName, Literal(name)) for name in data.get("authors") or ())
    yield from ((paper, MLKG.source, Literal(str(source))) for source in data.get("sources") or ())


def entity_triples(entity: URIRef, node: str, data: dict) -> Iterator[Triple]:
    """An entity's class (one of five), SKOS labels and counts."""
    yield from ((entity, RDF.type, CLASSES[data["type"]]), (entity, RDF.type, MLKG.Entity),
                (entity, RDF.type, SKOS.Concept), (entity, DCTERMS.identifier, Literal(node)),
                (entity, RDFS.label, Literal(data["label"])), (entity, SKOS.prefLabel, Literal(data["label"])),
                (entity, MLKG.paperCount, Literal(int(data.get("papers", 0)), datatype=XSD.integer)),
                (entity, MLKG.proposedByCount, Literal(int(data.get("proposed_by", 0)), datatype=XSD.integer)))
    if data["type"] == "dataset":
        yield entity, RDF.type, SCHEMA.Dataset
    yield from ((entity, SKOS.altLabel, Literal(a)) for a in data.get("aliases") or () if a != data["label"])


def link_triples(iris: Iris, G: nx.DiGraph, paper: URIRef, entity: URIRef, data: dict) -> Iterator[Triple]:
    """paper proposes|uses entity, the materialised mentions, the statement and its mentions."""
    triple = (paper, ROLES[data["role"]], entity)
    statement = iris.statement(triple)
    yield from (triple, (paper, MLKG.mentions, entity))
    yield from statement_triples(statement, triple)
    yield statement, MLKG.mentionCount, Literal(len(data["evidence"]), datatype=XSD.integer)
    for evidence in data["evidence"]:
        mention = iris.mention(evidence.paper_id, evidence.start, evidence.end)
        yield statement, PROV.wasDerivedFrom, mention
        yield from mention_triples(iris, G, mention, entity, evidence)


def mention_triples(iris: Iris, G: nx.DiGraph, mention: URIRef, entity: URIRef, evidence: Evidence) -> Iterator[Triple]:
    """A NIF phrase: offsets into the abstract, its text, paper, sentence and entity."""
    yield from ((mention, RDF.type, MLKG.Mention), (mention, RDF.type, NIF.Phrase),
                (mention, NIF.beginIndex, index(evidence.start)), (mention, NIF.endIndex, index(evidence.end)),
                (mention, NIF.anchorOf, Literal(evidence.text)),
                (mention, NIF.referenceContext, iris.paper(evidence.paper_id)),
                (mention, ITSRDF.taIdentRef, entity), (mention, MLKG.denotes, entity))
    if evidence.sentence_end > evidence.sentence_start:
        sentence = iris.sentence(evidence.paper_id, evidence.sentence_start, evidence.sentence_end)
        yield mention, NIF.sentence, sentence
        yield from sentence_triples(iris, G, sentence, evidence)


def sentence_triples(iris: Iris, G: nx.DiGraph, sentence: URIRef, evidence: Evidence) -> Iterator[Triple]:
    """A NIF sentence of an abstract, with its text."""
    start, end = evidence.sentence_start, evidence.sentence_end
    paper = G.nodes.get(paper_node(evidence.paper_id), {})
    text = paper["abstract"][start:end] if "abstract" in paper else evidence.text
    yield from ((sentence, RDF.type, NIF.Sentence), (sentence, NIF.beginIndex, index(start)),
                (sentence, NIF.endIndex, index(end)), (sentence, NIF.anchorOf, Literal(text)),
                (sentence, NIF.referenceContext, iris.paper(evidence.paper_id)))


def relation_triples(iris: Iris, G: nx.DiGraph, source: URIRef, target: URIRef, data: dict) -> Iterator[Triple]:
    """One plain triple per relation type, with a statement derived from the stating sentences."""
    for name, evidence in data["relations"].items():
        triple = (source, RELATIONS[name], target)
        statement = iris.statement(triple)
        yield triple
        yield from statement_triples(statement, triple)
        papers = len({e.paper_id for e in evidence})
        yield statement, MLKG.support, Literal(papers, datatype=XSD.integer)
        for item in evidence:
            sentence = iris.sentence(item.paper_id, item.sentence_start, item.sentence_end)
            yield statement, PROV.wasDerivedFrom, sentence
            yield from sentence_triples(iris, G, sentence, item)


def statement_triples(statement: URIRef, triple: Triple) -> Iterator[Triple]:
    """The reification of `triple`."""
    yield from ((statement, RDF.type, RDF.Statement), (statement, RDF.type, PROV.Entity),
                (statement, RDF.subject, triple[0]), (statement, RDF.predicate, triple[1]),
                (statement, RDF.object, triple[2]))


def sorted_triples(G: nx.DiGraph) -> list[Triple]:
    """The distinct triples by subject, then rdf:type first, predicate and object."""
    rdf_type = str(RDF.type)
    return sorted(set(iter_triples(G)), key=lambda t: (str(t[0]), str(t[1]) != rdf_type, str(t[1]), nt_term(t[2])))


def nt_term(term: Term) -> str:
    """A term in N-Triples syntax (also valid Turtle)."""
    if isinstance(term, URIRef):
        return f"<{term}>"
    text = f'"{str(term).translate(ESCAPES)}"'
    return text + (f"^^<{term.datatype}>" if term.datatype else f"@{term.language}" if term.language else "")


def ttl_term(term: Term, predicate: bool = False) -> str:
    """A term in Turtle: `a`, prefixed names for vocabulary, bare integers."""
    if predicate and term == RDF.type:
        return "a"
    if isinstance(term, Literal) and term.datatype in (XSD.integer, XSD.nonNegativeInteger):
        return str(term) if term.datatype == XSD.integer else f'"{term}"^^xsd:nonNegativeInteger'
    short = compact(term) if isinstance(term, URIRef) else None
    return short if short and short != str(term) else nt_term(term)


@lru_cache(maxsize=4096)
def compact(iri: str) -> str:
    """`prefix:local` for a vocabulary IRI with a simple local name, else the IRI itself."""
    iri = str(iri)
    for prefix, namespace in PREFIXES.items():
        if iri.startswith(namespace) and LOCAL_NAME.match(iri, len(namespace)):
            return f"{prefix}:{iri[len(namespace):]}"
    return iri


def write_ntriples(G: nx.DiGraph, path: str | Path) -> None:
    """Write sorted, de-duplicated N-Triples (UTF-8)."""
    lines = sorted({f"{nt_term(s)} {nt_term(p)} {nt_term(o)} .\n" for s, p, o in iter_triples(G)})
    with open(path, "w", encoding="utf-8", newline="\n") as out:
        out.writelines(lines)


def write_turtle(G: nx.DiGraph, path: str | Path) -> None:
    """Write Turtle, one block per subject in sorted order."""
    with open(path, "w", encoding="utf-8", newline="\n") as out:
        out.writelines(f"@prefix {p}: <{ns}> .\n" for p, ns in PREFIXES.items())
        for subject, block in groupby(sorted_triples(G), key=lambda t: t[0]):
            out.write(f"\n{nt_term(subject)}")
            for n, (predicate, group) in enumerate(groupby(block, key=lambda t: t[1])):
                objects = ", ".join(ttl_term(o) for _, _, o in group)
                out.write(f"{' ;' if n else ''}\n    {ttl_term(predicate, True)} {objects}")
            out.write(" .\n")


def jsonld_value(term: Term) -> dict | str:
    """A JSON-LD value object (plain strings stay strings: xsd:string, no language)."""
    if isinstance(term, URIRef):
        return {"@id": str(term)}
    if term.datatype:
        return {"@value": str(term), "@type": str(term.datatype)}
    return {"@value": str(term), "@language": term.language} if term.language else str(term)


def jsonld_nodes(triples: Iterable[Triple]) -> Iterator[dict]:
    """One flattened JSON-LD node object per subject."""
    for subject, block in groupby(triples, key=lambda t: t[0]):
        node: dict = {"@id": str(subject)}
        for predicate, group in groupby(block, key=lambda t: t[1]):
            objects = [o for _, _, o in group]
            if predicate == RDF.type:
                node["@type"] = [compact(o) for o in objects]
            else:
                node[compact(predicate)] = [jsonld_value(o) for o in objects]
        yield node


def write_jsonld(G: nx.DiGraph, path: str | Path) -> None:
    """Write flattened JSON-LD with an inline context (no remote context, no blank nodes)."""
    document = {"@context": dict(PREFIXES), "@graph": list(jsonld_nodes(sorted_triples(G)))}
    with open(path, "w", encoding="utf-8", newline="\n") as out:
        json.dump(document, out, ensure_ascii=False, indent=1)
        out.write("\n")


def to_rdflib(G: nx.DiGraph) -> Graph:
    """The export as an rdflib Graph with the prefixes bound."""
    graph = Graph(bind_namespaces="none")
    for prefix, namespace in PREFIXES.items():
        graph.bind(prefix, namespace)
    for triple in iter_triples(G):
        graph.add(triple)
    return graph


exporters.register("ttl", func=write_turtle)
exporters.register("nt", func=write_ntriples)
exporters.register("jsonld", func=write_jsonld)
