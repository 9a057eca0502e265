"""Reported results on the graph: each extracted result with its mentions read as the resolved entities.

Graph contract: `graph.graph["results"]` is a tuple of `Result` sorted by (paper, start, end): the results
`kg.graph.tables` keeps (an entity field whose entity has another type is None); entity fields hold entity node ids
(`method:foo`) or None, offsets index the original abstract (end exclusive)."""
from __future__ import annotations

from bisect import bisect_right
from collections import defaultdict
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Iterable

import networkx as nx

from kg.graph.labels import debris_start
from kg.text.directions import HIGHER, LOWER, contains, direction, result_direction  # noqa: F401 (re-exported)
from kg.text.measures import impossible
from kg.types import Link, Mention, ResultMention

@dataclass(frozen=True)
class Result:
    """A result of one paper (see kg.types.ResultMention), entities as node ids."""

    paper_id: str
    start: int
    end: int
    text: str
    kind: str
    unit: str
    sentence_start: int
    sentence_end: int
    metric_name: str = ""
    bound: str | None = None
    setting: str | None = None
    proposal: bool = False
    subject: str | None = None
    metric: str | None = None
    dataset: str | None = None
    task: str | None = None
    against: str | None = None
    score: float = 1.0
    dataset_name: str | None = None  # the words naming the data when no dataset entity does

    @property
    def value(self) -> Decimal:
        """The value as a decimal (thousands separators dropped, the minus sign read)."""
        try:
            return Decimal(self.text.replace(",", "").replace("−", "-").lstrip("+±"))
        except InvalidOperation:
            return Decimal(0)

    @property
    def impossible(self) -> str | None:
        """Why its value is impossible (kg lint flags it, leaderboards leave it out), or None."""
        return impossible(self.kind, self.value, self.unit, self.metric_name)

    @property
    def written(self) -> str:
        """The value with its unit, as one would write it ('95.12%', '2.3x', '1.2 dB', '3.2 points')."""
        return self.text + (self.unit if self.unit in ("%", "x") else f" {self.unit}" if self.unit else "")

    def entity_ids(self) -> tuple[str, ...]:
        """Every entity this result names."""
        return tuple(e for e in (self.subject, self.metric, self.dataset, self.task, self.against) if e)


class MentionIndex:
    """The resolved entity of an extracted mention: the link mention of the same paper it overlaps most."""

    def __init__(self, links: Iterable[Link]):
        spans: dict[str, list[tuple[int, int, str]]] = defaultdict(list)
        for link in links:
            for m in link.mentions:
                spans[link.paper_id].append((m.start, m.end, link.entity_id))
        self.spans = {p: sorted(s) for p, s in spans.items()}

    def entity(self, mention: Mention | None) -> str | None:
        """The entity id of a mention, or None when resolution dropped it."""
        if mention is None:
            return None
        spans = self.spans.get(mention.paper_id, [])
        i = bisect_right(spans, (mention.end, mention.end, ""))
        best = max(((min(e, mention.end) - max(s, mention.start), -s, entity) for s, e, entity in spans[max(0, i - 8):i]
                    if min(e, mention.end) > max(s, mention.start)), default=None)
        return best[2] if best else None


def resolve_results(results: Iterable[ResultMention], links: Iterable[Link]) -> tuple[Result, ...]:
    """The results with their mentions read as entity ids (sorted by paper and offsets), metric names starting at the
    name (`selection accuracy` of `95% selection accuracy`)."""
    index = MentionIndex(links)
    found = []
    for r in results:
        subject = index.entity(r.subject)
        found.append(Result(r.paper_id, r.start, r.end, r.text, r.kind, r.unit, r.sentence_start, r.sentence_end,
                            r.metric_name[debris_start(r.metric_name):], r.bound, r.setting, r.proposal and subject is None, subject,
                            index.entity(r.metric), index.entity(r.dataset), index.entity(r.task),
                            index.entity(r.against), r.score, r.dataset_name))
    return tuple(sorted(found, key=lambda r: (r.paper_id, r.start, r.end)))


FIELD_TYPES = {"subject": ("method", "model"), "against": ("method", "model"), "metric": ("metric",),
               "dataset": ("dataset",), "task": ("task",)}


def results_of(graph: nx.DiGraph) -> tuple[Result, ...]:
    """The graph's results (none for a graph built without them)."""
    return graph.graph.get("results", ())
