"""The RDF export: parses everywhere, no blank nodes, exact abstracts, provenance, determinism."""
from __future__ import annotations

import hashlib
import re
import shutil
import subprocess
import sys
import tracemalloc
from dataclasses import replace
from itertools import groupby
from pathlib import Path

import networkx as nx
import pyoxigraph as ox
import pytest
import rdflib
from rdflib import BNode, Literal, URIRef
from rdflib.compare import isomorphic
from rdflib.namespace import DCTERMS, PROV, RDF, RDFS, SKOS

from kg.exporters.rdf import ITSRDF, MLKG, NIF, SCHEMA, Iris, to_rdflib, write_jsonld, write_ntriples, write_turtle
from kg.graph.resolution import Resolution, graph_of
from kg.registry import exporters, lookup
from kg.types import Entity, Link, Mention, MentionRelation, Paper, Relation, Source
from tests.support import BASE, SECOND, TRICKY, mention_in, under_hash_seeds
from tests.support import rdf_resolution as make_resolution

ROOT = Path(__file__).resolve().parents[1]
WRITERS = {"ttl": write_turtle, "nt": write_ntriples, "jsonld": write_jsonld}
RDFLIB_FORMATS = {"ttl": "turtle", "nt": "nt", "jsonld": "json-ld"}
OX_FORMATS = {"ttl": ox.RdfFormat.TURTLE, "nt": ox.RdfFormat.N_TRIPLES, "jsonld": ox.RdfFormat.JSON_LD}
XSD_STRING, XSD_INTEGER, XSD_NONNEG = (URIRef(f"http://www.w3.org/2001/XMLSchema#{t}")
                                      for t in ("string", "integer", "nonNegativeInteger"))
ENTITY_CLASSES = {MLKG.Method, MLKG.Model, MLKG.Dataset, MLKG.Task, MLKG.Metric}


@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> dict[str, Path]:
    """The invented resolution written in every format."""
    out = tmp_path_factory.mktemp("rdf")
    resolution = make_resolution()
    for suffix, write in WRITERS.items():
        write(resolution, out / f"graph.{suffix}")
    return {suffix: out / f"graph.{suffix}" for suffix in WRITERS}


def parse(path: Path) -> rdflib.Graph:
    """A written export parsed with rdflib."""
    return rdflib.Graph().parse(path, format=RDFLIB_FORMATS[path.suffix[1:]])


@pytest.mark.parametrize("suffix", WRITERS)
def test_rdflib_parses_the_same_triples_as_to_rdflib(exported, suffix: str) -> None:
    assert isomorphic(parse(exported[suffix]), to_rdflib(make_resolution()))


@pytest.mark.parametrize("suffix", WRITERS)
def test_pyoxigraph_parses_every_triple(exported, suffix: str) -> None:
    store = ox.Store()
    store.load(path=str(exported[suffix]), format=OX_FORMATS[suffix])
    assert len(store) == len(to_rdflib(make_resolution()))


@pytest.mark.parametrize("suffix, syntax", [("ttl", "turtle"), ("nt", "ntriples")])
def test_rapper_parses_every_triple(exported, suffix: str, syntax: str) -> None:
    if shutil.which("rapper") is None:
        pytest.skip("rapper (Debian raptor2-utils) is not installed")
    run = subprocess.run(["rapper", "-i", syntax, "-c", str(exported[suffix])], capture_output=True, text=True)
    assert run.returncode == 0 and "Error" not in run.stderr, run.stderr
    assert f"returned {len(to_rdflib(make_resolution()))} triples" in run.stderr


@pytest.mark.parametrize("suffix", WRITERS)
def test_no_blank_nodes(exported, suffix: str) -> None:
    assert not [t for t in parse(exported[suffix]) if any(isinstance(term, BNode) for term in t)]


@pytest.mark.parametrize("suffix", WRITERS)
@pytest.mark.parametrize("engine", ["rdflib", "oxigraph"])
def test_abstract_round_trips_exactly(exported, suffix: str, engine: str) -> None:
    query = "SELECT ?a WHERE { ?p <http://purl.org/dc/terms/identifier> \"p1\" ; <http://purl.org/dc/terms/abstract> ?a }"
    if engine == "rdflib":
        (value,) = [row[0] for row in parse(exported[suffix]).query(query)]
        assert value.datatype is None and value.language is None
        text = str(value)
    else:
        store = ox.Store()
        store.load(path=str(exported[suffix]), format=OX_FORMATS[suffix])
        (solution,) = list(store.query(query))
        assert solution["a"].datatype == ox.NamedNode(str(XSD_STRING)) and solution["a"].language is None
        text = solution["a"].value
    assert text == TRICKY


def test_golden_graph_by_meaning(tmp_path: Path) -> None:
    abstract = "We propose FooNet."
    mention = Mention("p1", 11, 17, "FooNet", "model", "proposed", 0, 18)
    resolution = Resolution((Paper("p1", abstract, title="T", year=2020),), (Entity("model:foonet", "model", "FooNet"),),
                            (Link("p1", "model:foonet", "proposed", (mention,)),))
    write_turtle(resolution, tmp_path / "g.ttl")
    paper, foo = URIRef(BASE + "paper/p1"), URIRef(BASE + "entity/model/foonet")
    m, sentence = URIRef(BASE + "mention/p1/11-17"), URIRef(BASE + "paper/p1/sent/0-18")
    stmt = URIRef(BASE + "stmt/" + hashlib.sha1(f"{paper}|{MLKG.proposes}|{foo}".encode()).hexdigest())
    nonneg = lambda n: Literal(n, datatype=XSD_INTEGER)  # noqa: E731 (offsets are xsd:integer, as stores keep them)
    expected = rdflib.Graph()
    for triple in [
        (paper, RDF.type, MLKG.Paper), (paper, RDF.type, SCHEMA.ScholarlyArticle),
        (paper, DCTERMS.identifier, Literal("p1")), (paper, DCTERMS.abstract, Literal(abstract)),
        (paper, DCTERMS.title, Literal("T")), (paper, RDFS.label, Literal("T")), (paper, MLKG.year, Literal(2020)),
        (paper, SKOS.hiddenLabel, Literal("t")), (foo, SKOS.hiddenLabel, Literal("foonet")),
        (paper, MLKG.proposes, foo), (paper, MLKG.mentions, foo),
        (foo, RDF.type, MLKG.Model), (foo, RDF.type, MLKG.Entity), (foo, RDF.type, SKOS.Concept),
        (foo, DCTERMS.identifier, Literal("model:foonet")), (foo, RDFS.label, Literal("FooNet")),
        (foo, SKOS.prefLabel, Literal("FooNet")), (foo, MLKG.paperCount, Literal(1)),
        (foo, MLKG.proposedByCount, Literal(1)),
        (m, RDF.type, MLKG.Mention), (m, RDF.type, NIF.Phrase), (m, NIF.beginIndex, nonneg(11)),
        (m, NIF.endIndex, nonneg(17)), (m, NIF.anchorOf, Literal("FooNet")), (m, NIF.referenceContext, paper),
        (m, NIF.sentence, sentence), (m, ITSRDF.taIdentRef, foo), (m, MLKG.denotes, foo),
        (sentence, RDF.type, NIF.Sentence), (sentence, NIF.beginIndex, nonneg(0)), (sentence, NIF.endIndex, nonneg(18)),
        (sentence, NIF.anchorOf, Literal(abstract)), (sentence, NIF.referenceContext, paper),
        (stmt, RDF.type, RDF.Statement), (stmt, RDF.type, PROV.Entity), (stmt, RDF.subject, paper),
        (stmt, RDF.predicate, MLKG.proposes), (stmt, RDF.object, foo), (stmt, PROV.wasDerivedFrom, m),
        (stmt, MLKG.mentionCount, Literal(1)),
    ]:
        expected.add(triple)
    assert isomorphic(parse(tmp_path / "g.ttl"), expected)


@pytest.mark.parametrize("engine", ["oxigraph", "rdflib"])
def test_a_sentence_with_markup_is_also_given_as_read(tmp_path: Path, engine: str) -> None:
    from kg.query.sparql import resolve_query, run_query

    abstract = "We propose **FooNet**. It reaches $79.2\\%$ on\n  BarSet. Plain words only."
    foo, bar = (abstract.index(n) for n in ("FooNet", "BarSet"))
    mentions = [Mention("p1", foo, foo + 6, "FooNet", "model", "proposed", 0, 22),
                Mention("p1", bar, bar + 6, "BarSet", "dataset", "used", 23, abstract.index(" Plain")),
                Mention("p1", abstract.index("Plain"), abstract.index(" words"), "Plain", "method", "used",
                        abstract.index("Plain"), len(abstract))]
    entities = (Entity("model:foonet", "model", "FooNet"), Entity("dataset:barset", "dataset", "BarSet"),
                Entity("method:plain", "method", "Plain"))
    links = tuple(Link("p1", e.id, m.role, (m,)) for e, m in zip(entities, mentions))
    write_turtle(Resolution((Paper("p1", abstract, title="T"),), entities, links), tmp_path / "g.ttl")
    rdf = parse(tmp_path / "g.ttl")
    plain = {str(rdf.value(s, NIF.anchorOf)): str(o) for s, o in rdf.subject_objects(MLKG.plainText)}
    assert plain == {"We propose **FooNet**.": "We propose FooNet.",
                     "It reaches $79.2\\%$ on\n  BarSet.": "It reaches 79.2% on BarSet."}  # none for plain words
    rows = {name: run_query(tmp_path / "g.ttl", resolve_query("link-evidence"), engine,
                            {"paper": ["p1"], "entity": [name]})[1] for name in ("FooNet", "BarSet", "Plain")}
    assert [row[-1] for name in ("FooNet", "BarSet", "Plain") for row in rows[name]] == \
        ["We propose FooNet.", "It reaches 79.2% on BarSet.", "Plain words only."]


@pytest.mark.parametrize("suffix", WRITERS)
def test_two_writes_are_byte_identical(tmp_path: Path, suffix: str) -> None:
    WRITERS[suffix](make_resolution(), tmp_path / f"a.{suffix}")
    WRITERS[suffix](make_resolution(), tmp_path / f"b.{suffix}")
    assert (tmp_path / f"a.{suffix}").read_bytes() == (tmp_path / f"b.{suffix}").read_bytes()


@pytest.mark.slow
def test_output_does_not_depend_on_the_hash_seed(tmp_path: Path) -> None:
    script = ("import hashlib, sys, tempfile; from pathlib import Path\n"
              "from tests.support import rdf_resolution\nfrom kg.exporters.rdf import write_jsonld, write_ntriples, write_turtle\n"
              "for write in (write_turtle, write_ntriples, write_jsonld):\n"
              "    path = Path(sys.argv[1]) / f'{write.__name__}-{sys.argv[2]}'\n"
              "    write(rdf_resolution(), path); print(hashlib.sha256(path.read_bytes()).hexdigest())")
    runs = under_hash_seeds(script, str(tmp_path), "x")
    assert len(runs[0].split()) == len(WRITERS) and len(set(runs)) == 1


def node_iris(graph: nx.DiGraph) -> list[str]:
    """The IRI of every paper and entity node, in node order."""
    iris = Iris(graph.graph["base_iri"])
    return [iris.node(graph, node) for node in graph]


def test_ntriples_lines_are_unique_and_grouped_by_subject_in_node_order(exported) -> None:
    lines = exported["nt"].read_text(encoding="utf-8").splitlines()
    assert len(lines) == len(set(lines))
    subjects = [subject for subject, _ in groupby(line.split(" ", 1)[0][1:-1] for line in lines)]
    assert len(subjects) == len(set(subjects))
    graph = graph_of(make_resolution())
    assert [s for s in subjects if s in set(node_iris(graph))] == node_iris(graph)


def test_turtle_has_one_statement_per_subject_in_the_ntriples_order(exported) -> None:
    turtle = re.findall(r"^<([^>]+)>$", exported["ttl"].read_text(encoding="utf-8"), re.MULTILINE)
    ntriples = [s for s, _ in groupby(line.split(" ", 1)[0][1:-1] for line in exported["nt"].read_text().splitlines())]
    assert turtle == ntriples


def test_sentences_stating_relations_are_written_once_with_their_paper_or_at_the_end(tmp_path: Path) -> None:
    abstract = "We propose FooNet. FooNet is evaluated on ImageNet."
    paper = Paper("p1", abstract)
    foo, imagenet = (mention_in(paper, name, kind, role, 1 if name == "FooNet" else 0)
                     for name, kind, role in (("FooNet", "model", "proposed"), ("ImageNet", "dataset", "used")))
    unsentenced = [replace(m, sentence_start=0, sentence_end=0) for m in (foo, imagenet)]
    entities = [Entity("model:foonet", "model", "FooNet"), Entity("dataset:imagenet", "dataset", "ImageNet")]
    links = [Link("p1", "model:foonet", "proposed", (unsentenced[0],)),
             Link("p1", "dataset:imagenet", "used", (unsentenced[1],))]
    relations = [Relation("model:foonet", "evaluated_on", "dataset:imagenet",
                          (MentionRelation("p1", "evaluated_on", foo, imagenet),))]
    sentence = f"{BASE}paper/p1/sent/{foo.sentence_start}-{foo.sentence_end}"
    for orphaned in (False, True):
        papers = (Paper("p2", "Other."),) if orphaned else (paper, Paper("p2", "Other."))  # orphaned: the relation's
        # evidence cites a paper the resolution does not hold
        write_ntriples(Resolution(papers, tuple(entities), tuple(links), tuple(relations)), tmp_path / "g.nt")
        lines = (tmp_path / "g.nt").read_text(encoding="utf-8").splitlines()
        subjects = [s for s, _ in groupby(line.split(" ", 1)[0][1:-1] for line in lines)]
        assert len(lines) == len(set(lines)) and subjects.count(sentence) == 1
        if orphaned:
            assert subjects.index(sentence) == len(subjects) - 1
        else:
            assert subjects.index(BASE + "paper/p1") < subjects.index(sentence) < subjects.index(BASE + "paper/p2")
        rdf = parse(tmp_path / "g.nt")
        anchor = str(rdf.value(URIRef(sentence), NIF.anchorOf))  # without its abstract only a mention's text is known
        assert anchor in ("FooNet", "ImageNet") if orphaned else anchor == "FooNet is evaluated on ImageNet."
        assert (None, PROV.wasDerivedFrom, URIRef(sentence)) in rdf


class Text(str):
    """A str subclass, as a reader might hand over (e.g. numpy.str_)."""


@pytest.mark.parametrize("suffix", WRITERS)
def test_str_subclasses_in_node_data_are_written_as_literals(tmp_path: Path, suffix: str) -> None:
    resolution = Resolution((Paper("p1", Text("An abstract."), title=Text("T")),), (), ())
    WRITERS[suffix](resolution, tmp_path / f"g.{suffix}")
    rdf, paper = parse(tmp_path / f"g.{suffix}"), URIRef(BASE + "paper/p1")
    assert rdf.value(paper, DCTERMS.abstract) == Literal("An abstract.") and rdf.value(paper, DCTERMS.title) == Literal("T")
    assert isomorphic(rdf, to_rdflib(resolution))


def synthetic_resolution(papers: int, links: int = 6) -> Resolution:
    """`papers` invented papers, each linked to `links` of 50 entities, with one relation per paper."""
    kinds = ["method", "model", "dataset", "task", "metric"]
    entities = [Entity(f"{kinds[i % 5]}:e{i}", kinds[i % 5], f"E{i}") for i in range(50)]
    all_papers, all_links, relations = [], [], {}
    for n in range(papers):
        chosen = [(n * 7 + k * 11) % 50 for k in range(links)]
        sentences = [f"We use E{e} here." for e in chosen]
        paper = Paper(f"p{n}", " ".join(sentences), title=f"Paper {n}", year=2000 + n % 20)
        starts = [sum(len(s) + 1 for s in sentences[:k]) for k in range(links)]
        mentions = [Mention(paper.id, start + 7, start + 8 + len(str(e)), f"E{e}", kinds[e % 5], "used", start,
                            start + len(sentence)) for e, start, sentence in zip(chosen, starts, sentences)]
        all_papers.append(paper)
        all_links += [Link(paper.id, entities[e].id, "used", (m,)) for e, m in zip(chosen, mentions)]
        relation = MentionRelation(paper.id, "evaluated_on", mentions[0], mentions[1])
        relations.setdefault((entities[chosen[0]].id, entities[chosen[1]].id), []).append(relation)
    return Resolution(tuple(all_papers), tuple(entities), tuple(all_links),
                      tuple(Relation(s, "evaluated_on", t, tuple(ev)) for (s, t), ev in relations.items()))


def peak_bytes(write, resolution: Resolution, path: Path) -> int:
    """Peak Python allocation (tracemalloc) while `write` writes `resolution` to `path` (its tables derived first)."""
    resolution.tables  # noqa: B018  (derived once per build, before the writers run)
    tracemalloc.start()
    try:
        write(resolution, path)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.fixture(scope="module")
def small_and_large() -> tuple[Resolution, Resolution]:
    """Synthetic resolutions of 50 and 1,000 papers."""
    return synthetic_resolution(50), synthetic_resolution(1000)


@pytest.mark.slow
@pytest.mark.parametrize("suffix", WRITERS)
def test_writers_stream_without_a_global_triple_set(small_and_large, tmp_path: Path, suffix: str) -> None:
    """20 times the papers: the writer's peak allocation grows by less than 100 papers' worth of output."""
    small, large = small_and_large
    small_peak = peak_bytes(WRITERS[suffix], small, tmp_path / f"small.{suffix}")
    large_peak = peak_bytes(WRITERS[suffix], large, tmp_path / f"large.{suffix}")
    per_paper = (tmp_path / f"large.{suffix}").stat().st_size / 1000
    assert large_peak < small_peak + 100 * per_paper, (small_peak, large_peak, per_paper)


def test_links_are_asserted_with_role_and_materialised_mentions() -> None:
    rdf, graph = to_rdflib(make_resolution()), graph_of(make_resolution())
    links = {(s, o) for s, o, kind in graph.edges(data="kind") if kind == "mention"}
    roles = set(rdf.subject_objects(MLKG.proposes)) | set(rdf.subject_objects(MLKG.uses))
    assert set(rdf.subject_objects(MLKG.mentions)) == roles
    assert len(roles) == len(links) == 5
    assert (URIRef(BASE + "paper/p1"), URIRef(BASE + "entity/model/foonet")) in set(rdf.subject_objects(MLKG.proposes))


def test_every_link_and_relation_has_a_statement_with_evidence() -> None:
    rdf = to_rdflib(make_resolution())
    asserted = [(s, p, o) for p in (MLKG.proposes, MLKG.uses, MLKG.evaluatedOn, MLKG.appliedTo)
                for s, o in rdf.subject_objects(p)]
    for s, p, o in asserted:
        (stmt,) = set(rdf.subjects(RDF.subject, s)) & set(rdf.subjects(RDF.predicate, p)) & set(rdf.subjects(RDF.object, o))
        expected_kind = NIF.Sentence if p in (MLKG.evaluatedOn, MLKG.appliedTo) else MLKG.Mention
        sources = list(rdf.objects(stmt, PROV.wasDerivedFrom))
        assert sources and all((src, RDF.type, expected_kind) in rdf for src in sources)
    assert len(asserted) == 7


def test_each_entity_has_one_class_one_preflabel_and_its_aliases() -> None:
    rdf, graph = to_rdflib(make_resolution()), graph_of(make_resolution())
    entities = set(rdf.subjects(RDF.type, MLKG.Entity))
    assert len(entities) == 4
    for entity in entities:
        assert len(set(rdf.objects(entity, RDF.type)) & ENTITY_CLASSES) == 1
        assert len(list(rdf.objects(entity, SKOS.prefLabel))) == 1
        assert rdf.value(entity, SKOS.prefLabel) == rdf.value(entity, RDFS.label)
        node = graph.nodes[str(rdf.value(entity, DCTERMS.identifier))]
        assert rdf.value(entity, MLKG.paperCount) == Literal(node["papers"])
    foo = URIRef(BASE + "entity/model/foonet")
    assert set(rdf.objects(foo, SKOS.altLabel)) == {Literal("Foo-Net")}


def test_hidden_labels_are_the_lookup_keys_no_shown_label_has() -> None:
    rdf = to_rdflib(make_resolution())
    hidden = lambda node: {str(o) for o in rdf.objects(URIRef(BASE + node), SKOS.hiddenLabel)}  # noqa: E731
    assert hidden("entity/model/foonet") == {"foonet", "foo-net"}
    assert hidden("paper/p1") == {'foo: a "title"'} and hidden("entity/dataset/imagenet") == {"imagenet"}
    assert hidden("entity/metric/top-1%20accuracy%2F%25") == set()  # label, alias and identifier already lower case


def test_every_anchor_is_the_abstract_between_its_offsets() -> None:
    rdf = to_rdflib(make_resolution())
    spans = list(rdf.subjects(NIF.anchorOf, None))
    assert len(spans) == 6 + 3  # six mentions, three distinct sentences
    for span in spans:
        abstract = str(rdf.value(rdf.value(span, NIF.referenceContext), DCTERMS.abstract))
        begin, end = rdf.value(span, NIF.beginIndex).toPython(), rdf.value(span, NIF.endIndex).toPython()
        assert abstract[begin:end] == str(rdf.value(span, NIF.anchorOf))


def test_paper_metadata_and_every_source() -> None:
    rdf = to_rdflib(make_resolution())
    paper = URIRef(BASE + "paper/p1")
    assert rdf.value(paper, MLKG.year) == Literal(2024, datatype=XSD_INTEGER)
    assert rdf.value(paper, DCTERMS.title) == Literal('Foo: a "title"') == rdf.value(paper, RDFS.label)
    assert set(rdf.objects(paper, MLKG.source)) == {Literal("000_a.txt#3"), Literal("001_b.txt#7")}
    assert rdf.value(paper, RDFS.seeAlso) == URIRef("https://example.org/abs/1%202")
    untitled = URIRef(BASE + "paper/cs%2F99%20x%23%C3%BC")
    assert rdf.value(untitled, DCTERMS.identifier) == Literal("cs/99 x#ü")
    assert (untitled, DCTERMS.title, None) not in rdf and (untitled, MLKG.year, None) not in rdf


@pytest.mark.parametrize("base, prefix", [("https://example.org/kg", "https://example.org/kg/"),
                                          ("https://example.org/kg#", "https://example.org/kg#")])
def test_instances_follow_the_base_iri_and_the_vocabulary_does_not(base: str, prefix: str) -> None:
    rdf = to_rdflib(make_resolution(base))
    assert (URIRef(prefix + "entity/metric/top-1%20accuracy%2F%25"), RDF.type, MLKG.Metric) in rdf
    assert all(str(s).startswith(prefix) for s in rdf.subjects())
    assert str(MLKG) == BASE + "vocab#"


@pytest.mark.parametrize("name, writer", [("ttl", write_turtle), ("nt", write_ntriples), ("jsonld", write_jsonld)])
def test_writers_are_registered(name: str, writer) -> None:
    assert lookup(exporters, name) is writer


def test_the_ontology_parses_and_documents_every_term_the_export_uses(exported) -> None:
    ontology = rdflib.Graph().parse(ROOT / "ontology" / "paperkg.ttl")
    used = {term for triple in parse(exported["ttl"]) for term in triple if str(term).startswith(str(MLKG))}
    assert used and all((t, RDFS.label, None) in ontology and (t, RDFS.comment, None) in ontology for t in used)
    store = ox.Store()
    store.load(path=str(ROOT / "ontology" / "paperkg.ttl"), format=ox.RdfFormat.TURTLE)
    assert len(store) == len(ontology)
