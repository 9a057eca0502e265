"""The ontology's data files, read once per process: the gazetteer (`gazetteer/*.jsonl`) and the generic-term
policy (`generic-terms.jsonl`). The extractors' gazetteer and the graph's resolution both read them here."""
from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources

PACKAGE = "kg.ontology"
GENERIC_FILE = "generic-terms.jsonl"
CATEGORIES = ("field", "complexity class", "hyperparameter", "generic object", "organisation", "adjective",
              "software", "bare measure", "statistic", "unit")


def read_jsonl(folder, name: str) -> list[dict]:
    """The objects of one JSONL resource, with a one-line error naming the file and line."""
    rows = []
    for number, line in enumerate(folder.joinpath(name).read_text(encoding="utf-8").splitlines(), 1):
        if line.strip():
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError as error:
                raise ValueError(f"{name}:{number}: not JSON ({error.msg})") from None
    return rows


@lru_cache(maxsize=4)
def gazetteer_entries(package: str = PACKAGE) -> tuple[dict, ...]:
    """Every gazetteer entry: {"name", "type", "aliases"} and optionally "same" (aliases that are the concept itself
    although they extend its name: ImageNet-1K; other extending aliases are variants, ResNet-50), "other" (forms
    written like the name, another case, that name something else: LoRa, the radio protocol, for LoRA), "year"
    (when it was introduced) and "sense" ({"written": forms, "beside": names}: the forms, written alike another
    entry's, name this entry in an abstract that also names one of `beside`: Pubmed beside Cora), file by
    file in name order (do not modify them); a year that is not an integer from 1900 to 2100 is an error."""
    folder = resources.files(package).joinpath("gazetteer")
    names = sorted(item.name for item in folder.iterdir() if item.name.endswith(".jsonl"))
    rows = []
    for name in names:
        for number, row in enumerate(read_jsonl(folder, name), 1):
            sense = row.get("sense")
            if sense is not None and not (isinstance(sense, dict) and sense.get("written") and sense.get("beside")):
                raise ValueError(f"gazetteer/{name}:{number}: sense must be {{\"written\": [...], \"beside\": [...]}}")
            year = row.get("year")
            if year is not None and not (isinstance(year, int) and 1900 <= year <= 2100):
                raise ValueError(f"gazetteer/{name}:{number}: year must be an integer from 1900 to 2100 (got {year!r})")
            rows.append(row)
    return tuple(rows)


@lru_cache(maxsize=4)
def generic_entries(package: str = PACKAGE) -> tuple[dict, ...]:
    """The generic-term policy: {"name", "aliases", "category", "reason"} per line."""
    rows = read_jsonl(resources.files(package), GENERIC_FILE)
    for number, row in enumerate(rows, 1):
        if row.get("category") not in CATEGORIES or not row.get("reason") or not row.get("name"):
            raise ValueError(f"{GENERIC_FILE}:{number}: needs name, reason and a category in {', '.join(CATEGORIES)}")
    return tuple(rows)
