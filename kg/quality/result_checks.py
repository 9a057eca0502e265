"""`kg lint`'s check of reported results: values no measurement can take (an accuracy above 100%, a negative
error rate), read from the Turtle export beside the GraphML (the results' values and units live there)."""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from pathlib import Path

from kg.text.measures import impossible

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
    """Why a result's value is impossible, or None (kg.text.measures.impossible, the rule leaderboards follow)."""
    return impossible(reading.kind, reading.value, reading.unit, reading.metric)


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
