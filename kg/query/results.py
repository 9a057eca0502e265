"""A query's answer as bytes the client asked for (content negotiation), never more rows or bytes than allowed.

SELECT solutions are counted as they are read and written as SPARQL JSON here; other result
formats are that JSON re-serialised by pyoxigraph. CONSTRUCT/DESCRIBE triples are counted, then
serialised by pyoxigraph. A larger answer raises `TooLarge` before it is all in memory.
"""
from __future__ import annotations

import json
from itertools import islice
from typing import Any, Iterable

import pyoxigraph as ox

R, G = ox.QueryResultsFormat, ox.RdfFormat
RESULT_TYPES = {"application/sparql-results+json": R.JSON, "application/json": R.JSON,
                "application/sparql-results+xml": R.XML, "application/xml": R.XML, "text/xml": R.XML,
                "text/csv": R.CSV, "text/tab-separated-values": R.TSV}
GRAPH_TYPES = {"text/turtle": G.TURTLE, "application/n-triples": G.N_TRIPLES, "text/plain": G.N_TRIPLES,
               "application/rdf+xml": G.RDF_XML, "application/ld+json": G.JSON_LD}
XSD_STRING = "http://www.w3.org/2001/XMLSchema#string"
RDF_LANG_STRING = "http://www.w3.org/1999/02/22-rdf-syntax-ns#langString"


class TooLarge(Exception):
    """An answer over the row or byte cap."""


class NotAcceptable(Exception):
    """No offered media type matches the Accept header; the message lists the offers."""


def capped(items: Iterable[Any], max_rows: int, what: str) -> list[Any]:
    """The first rows of `items`, or TooLarge when there are more than `max_rows` (0: no cap)."""
    rows = list(islice(items, max_rows + 1)) if max_rows else list(items)
    if max_rows and len(rows) > max_rows:
        raise TooLarge(f"the answer has more than {max_rows:,} {what} (the limit); add LIMIT, narrow the query, "
                       "or raise --max-rows (0: no cap)")
    return rows


def check_bytes(payload: bytes, max_bytes: int) -> bytes:
    """`payload`, or TooLarge when it is over `max_bytes` (0: no cap)."""
    if max_bytes and len(payload) > max_bytes:
        raise TooLarge(f"the answer is larger than {max_bytes // 1_000_000:,} MB (the endpoint's cap, not an option); "
                       "add LIMIT or narrow the query, or run it with kg query, which has no size cap")
    return payload


def answer(result: Any, accept: str, max_rows: int = 0, max_bytes: int = 0) -> tuple[str, bytes]:
    """(media type, payload) of a pyoxigraph query result in the format `accept` prefers."""
    triples = isinstance(result, ox.QueryTriples)
    offers, default = (GRAPH_TYPES, "text/turtle") if triples else (RESULT_TYPES, "application/sparql-results+json")
    chosen = negotiate(accept, offers, default)
    if chosen is None:
        raise NotAcceptable(f"acceptable types: {', '.join(offers)}")
    fmt = offers[chosen]
    media = "text/plain; charset=utf-8" if chosen == "text/plain" else fmt.media_type
    if isinstance(result, ox.QueryBoolean):
        return media, result.serialize(format=fmt)
    if triples:
        return media, check_bytes(ox.serialize(capped(result, max_rows, "triples"), format=fmt), max_bytes)
    payload = solutions_json(result, max_rows, max_bytes)
    if fmt != R.JSON:
        payload = check_bytes(ox.parse_query_results(payload, format=R.JSON).serialize(format=fmt), max_bytes)
    return media, payload


def solutions_json(result: ox.QuerySolutions, max_rows: int, max_bytes: int) -> bytes:
    """SELECT solutions as SPARQL 1.1 JSON results, within the caps."""
    names = [variable.value for variable in result.variables]
    rows = capped(result, max_rows, "rows")
    bindings = [{name: term_json(solution[name]) for name in names if solution[name] is not None} for solution in rows]
    document = {"head": {"vars": names}, "results": {"bindings": bindings}}
    return check_bytes(json.dumps(document, ensure_ascii=False, separators=(",", ":")).encode("utf-8"), max_bytes)


def term_json(term: Any) -> dict:
    """One RDF term in SPARQL JSON."""
    if isinstance(term, ox.NamedNode):
        return {"type": "uri", "value": term.value}
    if isinstance(term, ox.BlankNode):
        return {"type": "bnode", "value": term.value}
    if isinstance(term, ox.Triple):
        return {"type": "triple", "value": {"subject": term_json(term.subject), "predicate": term_json(term.predicate),
                                            "object": term_json(term.object)}}
    found: dict[str, str] = {"type": "literal", "value": term.value}
    if term.language:
        found["xml:lang"] = term.language
    elif term.datatype.value not in (XSD_STRING, RDF_LANG_STRING):
        found["datatype"] = term.datatype.value
    return found


def negotiate(accept: str, offers: dict, default: str) -> str | None:
    """The offered media type the Accept header prefers (q-values, wildcards); `default` for none or */*."""
    best, best_q = None, 0.0
    for item in accept.split(","):
        media, *options = [part.strip().lower() for part in item.split(";")]
        q = next((float(o[2:]) for o in options if o.startswith("q=") and is_number(o[2:])), 1.0)
        if not media or q <= best_q:
            continue
        if media in ("*/*", "*") or (media.endswith("/*") and default.startswith(media[:-1])):
            match = default
        elif media.endswith("/*"):
            match = next((o for o in offers if o.startswith(media[:-1])), None)
        else:
            match = media if media in offers else None
        if match:
            best, best_q = match, q
    return best if accept.strip() else default


def is_number(text: str) -> bool:
    """Whether `text` parses as a float."""
    try:
        float(text)
    except ValueError:
        return False
    return True
