"""Why a named query found nothing: a name parameter that matches no paper or entity, with the closest names.

A parameter is a name lookup when its `VALUES` block is marked `# case-insensitive` and its variable
is matched against `skos:hiddenLabel` (the lower-cased names the export keeps) in a property path. An IRI given
instead (`<...>`, `prefix:name`) must name a node of the graph.
"""
from __future__ import annotations

import difflib
import re
from typing import Callable, Mapping, Sequence

from kg.query.sparql import LOOKUP_MARK, PREFIXES, VALUES_BLOCK, Row, sparql_value

NAMES = """SELECT ?key ?label WHERE {{
  ?node a {kind} ; rdfs:label ?label .
  {{ ?node skos:hiddenLabel ?key }} UNION {{ ?node dcterms:identifier ?key }}
}}"""
NODE = "SELECT ?node WHERE {{ VALUES ?node {{ {iri} }} ?node a {kind} }}"
Run = Callable[[str], tuple[list[str], list[Row]]]


def lookup_params(text: str, params: Mapping[str, Sequence[str]]) -> list[str]:
    """The parameters in `params` that `text` uses as name lookups."""
    return [name for name in params
            if re.search(VALUES_BLOCK.format(name=re.escape(name)) + LOOKUP_MARK, text, flags=re.IGNORECASE)
            and re.search(rf"hiddenLabel[^\n]*\)\??\s+\?{re.escape(name)}\b", text)]


def unmatched(text: str, params: Mapping[str, Sequence[str]], run: Run) -> str | None:
    """`no entity named 'x'; did you mean X?` for the first lookup value that names nothing, else None."""
    for name in lookup_params(text, params):
        kind = "mlkg:Paper" if name == "paper" else "mlkg:Entity"
        names = {str(key): str(label) for key, label in run(NAMES.format(kind=kind))[1]}
        what = "paper" if name == "paper" else name
        for value in params[name]:
            if sparql_value(value, PREFIXES) == value:  # an IRI (<...> or prefix:name): is it one of the graph's?
                if not run(NODE.format(iri=value, kind=kind))[1]:
                    return (f"no {what} has the IRI {value}; give an IRI from the export, or its title, label or "
                            "identifier without angle brackets")
                continue
            key = " ".join(value.split()).lower()
            if key in names:
                continue
            close = difflib.get_close_matches(key, list(names), n=3, cutoff=0.75)
            labels = list(dict.fromkeys(c if name == "paper" else names[c] for c in close))
            hint = f"; did you mean {' or '.join(labels)}?" if labels else ""
            brackets = " (angle brackets are for IRIs: give the name without them)" if value.startswith("<") else ""
            return f"no {what} named {value!r}{hint}{brackets}"
    return None
