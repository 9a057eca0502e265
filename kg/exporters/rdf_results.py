"""The RDF of reported results: one `mlkg:Result` per number, `<base>result/<paper>/<start>-<end>`, written
with its paper (see ontology/paperkg.ttl and the README's RDF section)."""
from __future__ import annotations

from decimal import Decimal
from functools import lru_cache

from kg.exporters.rdf_terms import V, XSD_BOOLEAN, XSD_DECIMAL, Block, Iri, Typed
from kg.graph.results import Result, result_direction
from kg.graph.tables import Tables
from kg.text.iri import id_segment as segment

mlkg, nif, rdf = V["mlkg"], V["nif"], V["rdf"]
ENTITY_FIELDS = (("subject", mlkg.subject), ("metric", mlkg.metric), ("dataset", mlkg.dataset),
                 ("task", mlkg.task), ("against", mlkg.against))


def decimal_literal(value: Decimal) -> Typed:
    """An xsd:decimal in the canonical form stores keep (no exponent, no trailing zeros: '95.1', '1000', '0.85')."""
    text = format(value.normalize(), "f") if value else "0"
    return Typed.of(text, XSD_DECIMAL)


@lru_cache(maxsize=4096)
def metric_direction(names: tuple[str, ...]) -> str | None:
    """`result_direction` of a metric's names, worked out once per names (a pure function of them; results share
    metrics)."""
    return result_direction(*names)


def result_iri(base: str, result: Result) -> Iri:
    """`<base>result/<paper>/<start>-<end>` (the number's offsets in the abstract)."""
    return Iri(f"{base}result/{segment(result.paper_id)}/{result.start}-{result.end}")


def result_block(iris, tables: Tables, result: Result) -> Block:
    """One result's triples: paper, kind, value, unit, metric, subject, dataset, task, against, setting, offsets."""
    paper = iris.paper(result.paper_id)
    block: Block = {rdf.type: [mlkg.Result], mlkg.reportedIn: [paper], mlkg.resultKind: [result.kind],
                    mlkg.value: [decimal_literal(result.value)], mlkg.valueText: [result.text]}
    if result.unit:
        block[mlkg.unit] = [result.unit]
    if result.metric_name:
        block[mlkg.metricName] = [result.metric_name]
    entities = tables.entities
    metric = entities.get(result.metric) if result.metric else None
    better = metric_direction(((metric.label,) if metric else ()) + (result.metric_name, *(metric.aliases if metric else ())))
    if better:
        block[mlkg.metricDirection] = [better]
    for name, predicate in ENTITY_FIELDS:
        node = getattr(result, name)
        if node and node in entities:
            block[predicate] = [iris.entity(node, entities[node].type)]
    if result.proposal:
        block[mlkg.subjectIsProposal] = [Typed.of("true", XSD_BOOLEAN)]
    if result.dataset_name and mlkg.dataset not in block:
        block[mlkg.datasetName] = [result.dataset_name]
    if result.setting:
        block[mlkg.setting] = [result.setting]
    if result.bound:
        block[mlkg.bound] = [result.bound]
    block[nif.beginIndex], block[nif.endIndex] = [result.start], [result.end]
    block[nif.anchorOf], block[nif.referenceContext] = [result.text], [paper]
    if result.sentence_end > result.sentence_start:
        block[nif.sentence] = [iris.sentence(result.paper_id, result.sentence_start, result.sentence_end)]
    return block
