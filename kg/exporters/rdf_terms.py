"""Plain-string RDF terms and the text serialisers of one subject block (N-Triples, Turtle, JSON-LD).

A block is `(subject, {predicate: [object, ...]})`: the subject and predicates are `Iri`s, objects
are an `Iri`, a `str` (a plain literal, xsd:string) or an `int` (xsd:integer, also for NIF offsets: the
value a SPARQL store keeps, see the README); anything else is written as a literal of its `str` (or `int`).
Objects of one predicate are distinct and no list is empty. Working
with strings instead of rdflib terms keeps the writers fast and their memory one block deep.
"""
from __future__ import annotations

import json
import re

from rdflib import Literal, URIRef

from kg.graph.build import DEFAULT_BASE_IRI


class Iri(str):
    """An IRI (a plain-string subclass, so literals and IRIs can be told apart)."""

    __slots__ = ()


class Typed(str):
    """A literal of another datatype (xsd:decimal, xsd:boolean): the lexical form, with `datatype` its IRI."""

    datatype: str = ""

    @classmethod
    def of(cls, lexical: str, datatype: str) -> "Typed":
        """The literal `lexical`^^`datatype`."""
        term = cls(lexical)
        term.datatype = datatype
        return term

    def __eq__(self, other: object) -> bool:
        return str.__eq__(self, other) and getattr(other, "datatype", None) == self.datatype

    def __hash__(self) -> int:
        return hash((str(self), self.datatype))


Object = Iri | str | int | Typed
Block = dict[Iri, list[Object]]

PREFIXES = {"dcterms": "http://purl.org/dc/terms/", "itsrdf": "http://www.w3.org/2005/11/its/rdf#",
            "mlkg": DEFAULT_BASE_IRI + "vocab#",
            "nif": "http://persistence.uni-leipzig.org/nlp2rdf/ontologies/nif-core#",
            "prov": "http://www.w3.org/ns/prov#", "rdf": "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
            "rdfs": "http://www.w3.org/2000/01/rdf-schema#", "schema": "https://schema.org/",
            "skos": "http://www.w3.org/2004/02/skos/core#", "xsd": "http://www.w3.org/2001/XMLSchema#"}
SHORT: dict[str, str] = {}
"""`prefix:local` of every vocabulary term minted so far (a few dozen: compaction is one lookup)."""


class Vocabulary:
    """A prefixed namespace whose `.name` is an `Iri`, minted once and remembered in SHORT."""

    def __init__(self, prefix: str) -> None:
        self._prefix = prefix
        self._namespace = PREFIXES[prefix]

    def __getattr__(self, name: str) -> Iri:
        if name.startswith("_"):
            raise AttributeError(name)
        term = self.__dict__[name] = Iri(self._namespace + name)
        SHORT[term] = f"{self._prefix}:{name}"
        return term


V = {prefix: Vocabulary(prefix) for prefix in PREFIXES}
RDF_TYPE = V["rdf"].type
XSD_INTEGER = V["xsd"].integer
XSD_DECIMAL, XSD_BOOLEAN = V["xsd"].decimal, V["xsd"].boolean
ESCAPES = {**{c: f"\\u{c:04X}" for c in [*range(0x20), 0x7F]},
           ord("\t"): "\\t", ord("\n"): "\\n", ord("\r"): "\\r", ord('"'): '\\"', ord("\\"): "\\\\"}
NEEDS_ESCAPE = re.compile(r'[\x00-\x1f\x7f"\\]')


def quoted(text: str) -> str:
    """A string literal's quoted, escaped form (valid N-Triples and Turtle)."""
    return f'"{text.translate(ESCAPES)}"' if NEEDS_ESCAPE.search(text) else f'"{text}"'


def exact(term: object) -> Object:
    """An object of another type (a str or int subclass from a reader) as exactly one of the four kinds."""
    if isinstance(term, (Iri, Typed)):
        return Iri(str(term))
    if isinstance(term, int):
        return int(term)
    return str(term)


def nt_object(term: Object) -> str:
    """An object in N-Triples syntax."""
    kind = type(term)
    if kind is Iri:
        return f"<{term}>"
    if kind is str:
        return quoted(term)
    if kind is int:
        return f'"{term}"^^<{XSD_INTEGER}>'
    if kind is Typed:
        return f"{quoted(term)}^^<{term.datatype}>"
    return nt_object(exact(term))


def ntriples_block(subject: Iri, block: Block) -> str:
    """The block's N-Triples lines."""
    lines = []
    for predicate, objects in block.items():
        head = f"<{subject}> <{predicate}> "
        lines += [f"{head}{nt_object(o)} .\n" for o in objects]
    return "".join(lines)


def ttl_object(term: Object) -> str:
    """An object in Turtle: prefixed names for vocabulary, bare integers."""
    kind = type(term)
    if kind is Iri:
        return SHORT.get(term) or f"<{term}>"
    if kind is str:
        return quoted(term)
    if kind is int:
        return str(term)
    if kind is Typed:
        return f"{quoted(term)}^^{SHORT.get(Iri(term.datatype)) or f'<{term.datatype}>'}"
    return ttl_object(exact(term))


def turtle_header() -> str:
    """The @prefix lines."""
    return "".join(f"@prefix {prefix}: <{namespace}> .\n" for prefix, namespace in PREFIXES.items())


def turtle_block(subject: Iri, block: Block) -> str:
    """The block as one Turtle statement: `<s>\\n    p o, o ;\\n    p o .`."""
    parts = []
    for predicate, objects in block.items():
        name = "a" if predicate == RDF_TYPE else SHORT.get(predicate) or f"<{predicate}>"
        parts.append(f"\n    {name} {', '.join(map(ttl_object, objects))}")
    return f"\n<{subject}>{' ;'.join(parts)} .\n"


def jsonld_value(term: Object) -> dict | str:
    """A JSON-LD value object (plain strings stay strings: xsd:string, no language)."""
    kind = type(term)
    if kind is Iri:
        return {"@id": str(term)}
    if kind is str:
        return term
    if kind is int:
        return {"@value": str(term), "@type": XSD_INTEGER}
    if kind is Typed:
        return {"@value": str(term), "@type": term.datatype}
    return jsonld_value(exact(term))


def jsonld_node(subject: Iri, block: Block) -> str:
    """The block as one flattened JSON-LD node object on one line."""
    node: dict = {"@id": str(subject)}
    for predicate, objects in block.items():
        if predicate == RDF_TYPE:
            node["@type"] = [SHORT.get(o) or str(o) for o in objects]
        else:
            node[SHORT.get(predicate) or str(predicate)] = [jsonld_value(o) for o in objects]
    return json.dumps(node, ensure_ascii=False)


def jsonld_header() -> str:
    """The document up to the first node: an inline context (no remote context) and `@graph`."""
    return '{\n "@context": ' + json.dumps(PREFIXES) + ',\n "@graph": [\n'


def rdflib_object(term: Object) -> URIRef | Literal:
    """An object as an rdflib term."""
    kind = type(term)
    if kind is Iri:
        return URIRef(term)
    if kind is str:
        return Literal(term)
    if kind is int:
        return Literal(term, datatype=URIRef(XSD_INTEGER))
    if kind is Typed:
        return Literal(str(term), datatype=URIRef(term.datatype))
    return rdflib_object(exact(term))
