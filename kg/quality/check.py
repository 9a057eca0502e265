"""Validate an export directory as its consumers read it: SHACL for RDF, XSD and graph libraries
for GraphML, offline-ness (and optionally headless Chromium) for the HTML page."""
from __future__ import annotations

import re
import time
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path
from typing import Callable, Iterator

GRAPHML_NS = "{http://graphml.graphdrawing.org/xmlns}"
SH = "http://www.w3.org/ns/shacl#"
EXTERNAL = re.compile(r"""(?:src|href)\s*=\s*["']?\s*(?:https?:)?//[^"'\s>]*|<link\b[^>]*>"""
                      r"""|<script[^>]*\bsrc\s*=[^>]*>|@import[^;]*|<iframe\b[^>]*>""", re.I)


@dataclass(frozen=True)
class Check:
    """The outcome of one check of one file."""

    file: str
    name: str
    status: str  # "ok", "FAIL" or "skip"
    detail: str = ""
    seconds: float = 0.0

    def line(self) -> str:
        """One printable line: status, file, check, detail and time."""
        detail = f" ({self.detail})" if self.detail else ""
        return f"{self.status:<4} {self.file}: {self.name}{detail} [{self.seconds:.1f}s]"


class Skip(Exception):
    """A check that cannot run here (an optional tool is missing)."""


class Failed(Exception):
    """A check's verdict: the export fails it (the message says why)."""


def require(condition: object, message: str) -> None:
    """Fail the running check with `message` unless `condition` holds (works under `python -O`)."""
    if not condition:
        raise Failed(message)


def ontology_file(name: str) -> Path:
    """A file shipped in the `ontology` package."""
    return Path(str(files("kg.ontology").joinpath(name)))


def run(file: str, name: str, check: Callable[[], str | None]) -> Check:
    """Run one check: it returns a detail or raises (Failed/other = FAIL, Skip = skip)."""
    start = time.perf_counter()
    try:
        status, detail = "ok", check() or ""
    except Skip as reason:
        status, detail = "skip", str(reason)
    except Exception as error:  # any failure of a consumer is a finding, reported on one line
        status, detail = "FAIL", str(error) if isinstance(error, Failed) else f"{type(error).__name__}: {error}"
    return Check(file, name, status, " ".join(detail.split())[:500], time.perf_counter() - start)


def shacl_violations(data, shapes=None) -> tuple[bool, set[tuple[str, str]]]:
    """Conformance (warnings allowed) and the (constraint component, path) of each violation."""
    try:
        import pyshacl
    except ImportError:
        raise Skip("pyshacl is not installed: pip install 'paperkg[test]' or pip install pyshacl") from None
    import rdflib

    shapes = shapes if shapes is not None else rdflib.Graph().parse(ontology_file("shapes.ttl"))
    # advanced: the shapes use SPARQL targets for their whole-graph checks
    conforms, report, _ = pyshacl.validate(data, shacl_graph=shapes, allow_warnings=True, advanced=True)
    sh = rdflib.Namespace(SH)
    results = set()
    for result in report.subjects(rdflib.RDF.type, sh.ValidationResult):
        if report.value(result, sh.resultSeverity) == sh.Violation:
            path = report.value(result, sh.resultPath)
            if path is None and isinstance(report.value(result, sh.sourceShape), rdflib.URIRef):
                path = report.value(result, sh.sourceShape)  # a whole-graph check names its shape
            results.add((str(report.value(result, sh.sourceConstraintComponent)).split("#")[1],
                         str(path).rsplit("/", 1)[-1].split("#")[-1] if path else ""))
    return conforms, results


def check_ttl(path: Path, shacl: bool = True) -> Iterator[Check]:
    """Parse in pyoxigraph and rdflib, no blank nodes, SHACL against ontology/shapes.ttl."""
    import pyoxigraph as ox
    import rdflib

    graph = rdflib.Graph()
    yield run(path.name, "pyoxigraph parses",
              lambda: f"{sum(1 for _ in ox.parse(path=str(path), format=ox.RdfFormat.TURTLE))} triples")
    parsed = run(path.name, "rdflib parses", lambda: f"{len(graph.parse(path, format='turtle'))} triples")
    yield parsed
    if parsed.status != "ok":
        return
    yield run(path.name, "no blank nodes", lambda: no_blank_nodes(graph))
    if shacl:
        yield run(path.name, "SHACL ontology/shapes.ttl", lambda: conforms(graph))


def no_blank_nodes(graph) -> None:
    """Fail on the first triple with a blank node."""
    from rdflib import BNode

    blank = next((t for t in graph if any(isinstance(term, BNode) for term in t)), None)
    require(blank is None, f"blank node in {blank}")


def conforms(graph) -> str:
    """Fail with the violated constraints unless the graph conforms to the shapes."""
    ok, violations = shacl_violations(graph)
    require(ok and not violations, f"does not conform: {sorted(violations)[:5]}")
    return "conforms"


def xsd_errors(path: Path) -> list[str]:
    """Errors of the file against ontology/graphml.xsd (lxml, else xmllint)."""
    schema = ontology_file("graphml.xsd")
    try:
        from lxml import etree
    except ImportError:
        return xmllint_errors(path, schema)
    validator = etree.XMLSchema(etree.parse(str(schema)))
    if validator.validate(etree.parse(str(path), etree.XMLParser(huge_tree=True))):
        return []
    return [f"line {e.line}: {e.message}" for e in validator.error_log]


def xmllint_errors(path: Path, schema: Path) -> list[str]:
    """Errors from Debian's xmllint (libxml2-utils), or Skip if neither it nor lxml is here."""
    import shutil
    import subprocess

    if not shutil.which("xmllint"):
        raise Skip("neither lxml nor xmllint is installed")
    done = subprocess.run(["xmllint", "--noout", "--huge", "--schema", str(schema), str(path)],
                          capture_output=True, text=True)
    return [] if done.returncode == 0 else [line for line in done.stderr.splitlines() if "error" in line]


def valid_xml(path: Path) -> str:
    """Fail with the first schema errors."""
    errors = xsd_errors(path)
    require(not errors, f"{len(errors)} errors: {'; '.join(errors[:3])}")
    return "valid against ontology/graphml.xsd"


def read_networkx(path: Path) -> str:
    """Read with networkx."""
    import networkx as nx

    graph = nx.read_graphml(path)
    return f"{graph.number_of_nodes()} nodes, {graph.number_of_edges()} edges"


def read_igraph(path: Path) -> str:
    """Read with python-igraph, if installed."""
    try:
        import igraph
    except ImportError:
        raise Skip("python-igraph is not installed") from None
    graph = igraph.Graph.Read_GraphML(str(path))
    return f"{graph.vcount()} vertices, {graph.ecount()} edges"


def duplicates(values: list) -> list:
    """Values that occur more than once, in order of first repeat."""
    seen: set = set()
    return [v for v in values if v in seen or seen.add(v)]


def unique_ids_and_names(path: Path) -> None:
    """Edge ids unique; attr.name unique within each key domain."""
    root = ET.parse(path).getroot()
    repeated = duplicates([edge.get("id") for edge in root.iter(f"{GRAPHML_NS}edge") if edge.get("id")])
    require(not repeated, f"duplicate edge ids: {repeated[:5]}")
    names = duplicates([(key.get("for"), key.get("attr.name")) for key in root.iter(f"{GRAPHML_NS}key")])
    require(not names, f"duplicate attr.name per domain: {names[:5]}")
    return None


def check_graphml(path: Path) -> Iterator[Check]:
    """XSD, networkx, igraph, unique edge ids and attribute names."""
    yield run(path.name, "XSD", lambda: valid_xml(path))
    yield run(path.name, "networkx reads", lambda: read_networkx(path))
    yield run(path.name, "igraph reads", lambda: read_igraph(path))
    yield run(path.name, "unique edge ids and attr.names", lambda: unique_ids_and_names(path))


def external_references(html: str) -> list[str]:
    """Anything outside comments that would make the page fetch from elsewhere."""
    return EXTERNAL.findall(re.sub(r"<!--.*?-->", "", html, flags=re.S))


def offline(path: Path) -> str:
    """Fail on external references."""
    found = external_references(path.read_text(encoding="utf-8"))
    require(not found, f"external references: {found[:3]}")
    return "no external src/href"


def check_html(path: Path, browser: bool = False) -> Iterator[Check]:
    """Offline page; with `browser`, drawn in headless Chromium with no console error or request."""
    yield run(path.name, "no external references", lambda: offline(path))
    if browser:
        yield run(path.name, "headless Chromium offline", lambda: in_chromium(path))


def in_chromium(path: Path) -> str:
    """Fail unless the page draws its canvas with no console error and no request."""
    from kg.quality.browser import find_chromium, load_and_watch

    binary = find_chromium()
    if not binary:
        raise Skip("chromium is not installed (apt-get install -y chromium)")
    pixels, found = load_and_watch(binary, path)
    require(pixels > 0, "the graph canvas stays blank")
    require(not found, f"{len(found)} problems: {'; '.join(found[:3])}")
    return f"canvas drawn ({pixels} pixels), no console error, no request"


def check_dir(folder: Path, browser: bool = False, shacl: bool = True) -> Iterator[Check]:
    """Every check of every export found in a folder; a folder with none of them fails."""
    from kg.run.outputs import output_name, writer_name
    from kg.graph.views import VIEWS

    graphml_files = [output_name(writer_name("graphml", view)) for view in VIEWS]
    checkers = {output_name("ttl"): lambda p: check_ttl(p, shacl), **dict.fromkeys(graphml_files, check_graphml),
                output_name("html"): lambda p: check_html(p, browser)}
    one_build = run(".kg-manifest.json", "one build", lambda: check_one_build(folder))  # completes a killed build
    found = [name for name in checkers if (folder / name).is_file()]
    if not found:
        yield Check(str(folder), "exports present", "FAIL", f"none of {', '.join(checkers)}")
    if found or one_build.status != "skip":
        yield one_build
    for name in found:
        yield from checkers[name](folder / name)


def check_one_build(folder: Path) -> str:
    """Complete a build that was killed while replacing its files, then fail if the files come from different builds."""
    from kg.run.atomic import OutputBusy, OutputLock, remove_leftovers
    from kg.run.manifest import mixed, recover

    completed: list[str] = []
    try:
        with OutputLock(folder):
            completed = recover(folder)
            remove_leftovers(folder)
    except OutputBusy as busy:
        raise Skip(str(busy)) from None
    except OSError:  # a read-only folder: check it as it is
        pass
    found = mixed(folder)
    if found is None:
        raise Skip("no .kg-manifest.json: written by builds of this version on")
    stale, others = found
    require(not stale, f"mixed folder: {', '.join(stale)} {'is' if len(stale) == 1 else 'are'} not what the last "
                       "build wrote (it was interrupted and its new files are gone); run the build again")
    notes = [f"completed the interrupted build: {', '.join(completed)} replaced"] if completed else []
    notes += [f"{', '.join(others)}: from an earlier build (the last one did not write {'it' if len(others) == 1 else 'them'})"] if others else []
    return "; ".join(notes)
