"""`kg lint`'s check of reported results: values no measurement can take (an accuracy above 100%, a negative
error rate), read from the Turtle export beside the GraphML (the results' values and units live there)."""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from pathlib import Path

from kg.graph.results import PERCENT_BOUNDED, contains

# Measures that cannot be negative as scores (general knowledge); a change of them may be.
NON_NEGATIVE = PERCENT_BOUNDED + ("error", "fid", "perplexity", "latency", "runtime", "wer", "cer", "mse", "rmse",
                                  "mae", "psnr", "bleu", "rouge", "time", "memory", "cost")
# Words that make a measure a ratio to a reference (relative accuracy, normalised score): it may exceed 100%.
RELATIVE = ("relative", "normalized", "normalised", "ratio", "retention", "retained", "recovery", "recovered")
QUERY = """PREFIX mlkg: <https://w3id.org/paperkg/vocab#>
SELECT ?result ?kind ?value ?unit ?metric WHERE {
  ?result a mlkg:Result ; mlkg:resultKind ?kind ; mlkg:value ?value .
  OPTIONAL { ?result mlkg:unit ?unit } OPTIONAL { ?result mlkg:metricName ?metric }
}"""


@dataclass(frozen=True)
class Reading:
    """One result as the check reads it."""

    result: str
    kind: str
    value: Decimal
    unit: str
    metric: str


def problem(reading: Reading) -> str | None:
    """Why a result's value is impossible, or None."""
    metric = reading.metric.casefold()
    bounded = any(contains(metric, name) for name in PERCENT_BOUNDED) and not any(
        contains(metric, word) for word in RELATIVE)
    if reading.kind == "score" and bounded and reading.unit in ("%", "") and reading.value > 100:
        return f"{metric or 'a bounded measure'} of {reading.value}{reading.unit} is above 100%"
    if reading.kind == "score" and reading.value < 0 and any(contains(metric, n) for n in NON_NEGATIVE):
        return f"a negative {metric} ({reading.value}{reading.unit})"
    return None


def impossible_values(readings: list[Reading]) -> list[str]:
    """One line per impossible result: its IRI and why (in IRI order)."""
    return [f"{r.result}: {why}" for r in sorted(readings, key=lambda r: r.result) if (why := problem(r))]


def read_turtle(path: Path) -> list[Reading]:
    """The results of a Turtle export (pyoxigraph, in memory)."""
    import pyoxigraph as ox

    store = ox.Store()
    store.bulk_load(path=str(path), format=ox.RdfFormat.TURTLE)
    readings = []
    for row in store.query(QUERY):
        try:
            value = Decimal(row["value"].value)
        except InvalidOperation:
            continue
        readings.append(Reading(row["result"].value, row["kind"].value, value,
                                row["unit"].value if row["unit"] else "", row["metric"].value if row["metric"] else ""))
    return readings
