"""Score reported results against gold results (RESULTS.md): a predicted result matches a gold one of the same
paper with the same value and unit (one to one); per kind precision/recall (the kind must agree too), and among
the matched results how often subject, dataset, task, metric and kind are right."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

from kg.quality.evaluate import PRF, key

PROPOSED, BASELINE = "(proposed)", "(baseline)"
KINDS = ("score", "change")
FIELDS = ("kind", "subject", "dataset", "task", "metric")


@dataclass(frozen=True)
class Reported:
    """One result of one paper, predicted or gold. `subject`: the names of the entity (label, aliases, the
    paper's mention texts; gold: the gold entity's name and aliases), or (PROPOSED,) / (BASELINE,); `dataset`
    and `task` names likewise, () when there is none; `metric` the metric as worded."""

    paper_id: str
    kind: str
    value: str
    unit: str
    subject: tuple[str, ...] = ()
    dataset: tuple[str, ...] = ()
    task: tuple[str, ...] = ()
    metric: str = ""

    @property
    def match_key(self) -> tuple[str, str, str]:
        """What must agree for a match: paper, value as a number written, unit."""
        return self.paper_id, value_key(self.value), self.unit.strip().casefold()


def value_key(value: str) -> str:
    """A written value compared across gold and predictions ('+1.91' = '1.91', '1,000' = '1000', '−1' = '-1')."""
    return value.strip().lstrip("+").replace(",", "").replace("−", "-")


def same_names(predicted: tuple[str, ...], gold: tuple[str, ...]) -> bool:
    """Whether two name sets name the same thing (both empty: both 'none')."""
    if not predicted or not gold:
        return not predicted and not gold
    return bool({key(n) for n in predicted} & {key(n) for n in gold})


def same_metric(predicted: str, gold: str) -> bool:
    """Whether the metric as worded agrees: equal keys, or one contains the other ('top-1 accuracy'/'accuracy')."""
    p, g = key(predicted), key(gold)
    return bool(p and g) and (p == g or p in g or g in p)


@dataclass
class ResultScores:
    """Per kind and untyped P/R, and per field the matched results it is right for (counts)."""

    per_kind: dict[str, PRF]
    untyped: PRF
    right: dict[str, int] = field(default_factory=dict)
    matched: int = 0
    matched_kind: dict[str, dict[str, int]] = field(default_factory=dict)  # kind -> field -> right (kind matched)

    def accuracy(self, name: str) -> float:
        """How often a field is right among the matched results."""
        return self.right.get(name, 0) / self.matched if self.matched else 0.0

    def to_dict(self) -> dict:
        """A JSON-ready summary."""
        return {"untyped": self.untyped.to_dict(), "per_kind": {k: s.to_dict() for k, s in self.per_kind.items()},
                "matched": self.matched, "fields": {f: round(self.accuracy(f), 4) for f in FIELDS},
                "fields_per_kind": {k: {f: round(v / max(c.get("n", 0), 1), 4) for f, v in c.items() if f != "n"}
                                    | {"matched": c.get("n", 0)} for k, c in self.matched_kind.items()}}


def pairs(predicted: list[Reported], gold: list[Reported]) -> list[tuple[Reported, Reported]]:
    """One-to-one matches of predicted to gold results with the same key, in order (greedy: the kind first)."""
    free = list(range(len(gold)))
    found = []
    for p in predicted:
        options = [g for g in free if gold[g].match_key == p.match_key]
        options.sort(key=lambda g: gold[g].kind != p.kind)
        if options:
            free.remove(options[0])
            found.append((p, gold[options[0]]))
    return found


def field_right(p: Reported, g: Reported) -> dict[str, bool]:
    """Which fields of a matched result are right."""
    return {"kind": p.kind == g.kind, "subject": same_names(p.subject, g.subject),
            "dataset": same_names(p.dataset, g.dataset), "task": same_names(p.task, g.task),
            "metric": same_metric(p.metric, g.metric)}


def score_results(predicted: Iterable[Reported], gold: Iterable[Reported]) -> ResultScores:
    """The figures of predicted results against gold ones (papers without gold results count, predictions too)."""
    by_paper: dict[str, tuple[list[Reported], list[Reported]]] = {}
    for r in predicted:
        by_paper.setdefault(r.paper_id, ([], []))[0].append(r)
    for r in gold:
        by_paper.setdefault(r.paper_id, ([], []))[1].append(r)
    scores = ResultScores({k: PRF() for k in KINDS}, PRF(), {f: 0 for f in FIELDS}, 0,
                          {k: {"n": 0, **{f: 0 for f in FIELDS}} for k in KINDS})
    for paper in sorted(by_paper):
        preds, golds = by_paper[paper]
        matched = pairs(preds, golds)
        scores.untyped.add(PRF(len(matched), len(preds), len(golds)))
        for kind in KINDS:
            tp = sum(p.kind == g.kind == kind for p, g in matched)
            scores.per_kind[kind].add(PRF(tp, sum(p.kind == kind for p in preds), sum(g.kind == kind for g in golds)))
        for p, g in matched:
            right = field_right(p, g)
            scores.matched += 1
            for name, ok in right.items():
                scores.right[name] += ok
            if p.kind == g.kind:
                scores.matched_kind[g.kind]["n"] += 1
                for name, ok in right.items():
                    scores.matched_kind[g.kind][name] += ok
    return scores


def gold_reported(records: Iterable[dict], entities: dict[str, list[dict]]) -> list[Reported]:
    """Gold results as Reported, names widened to the gold entity's name and aliases (`entities` per paper)."""
    found = []
    for record in records:
        forms = {}
        for e in entities.get(str(record["id"]), ()):
            names = (e["name"], *e.get("aliases", ()))
            for n in names:
                forms.setdefault(key(n), names)
        for r in record.get("results", ()):
            def names_of(value: object) -> tuple[str, ...]:
                if not isinstance(value, str) or not value:
                    return ()
                return forms.get(key(value), (value,))
            found.append(Reported(str(record["id"]), str(r["kind"]), str(r["value"]), str(r.get("unit") or ""),
                                  names_of(r.get("subject")), names_of(r.get("dataset")), names_of(r.get("task")),
                                  str(r.get("metric") or "")))
    return found


def read_result_gold(path) -> list[dict]:
    """The records of a gold results file (JSONL: id, results [{kind, value, unit, ...}]); UserError names the
    file and line of anything malformed."""
    from kg.errors import UserError
    from kg.quality.gold import read_gold_lines

    records = []
    for number, record, dropped in read_gold_lines(path):
        problem = result_record_problem(record) or (f"{dropped} is nested too deeply" if dropped else None)
        if problem:
            raise UserError(f"{path}:{number}: {problem} (expected {{\"id\", \"results\": [{{\"kind\", \"value\", "
                            f"\"unit\", ...}}]}}, see RESULTS.md)")
        records.append(record)
    return records


def result_record_problem(record: object) -> str | None:
    """What is wrong with one gold results record, or None."""
    if not isinstance(record, dict) or not isinstance(record.get("id"), (str, int)) or isinstance(record.get("id"), bool):
        return "not an object with an 'id'"
    if not isinstance(record.get("results"), list):
        return "'results' is missing or not a list"
    for i, r in enumerate(record["results"], start=1):
        if not isinstance(r, dict) or r.get("kind") not in KINDS:
            return f"result {i}: 'kind' must be one of {', '.join(KINDS)}"
        if not isinstance(r.get("value"), str) or not r["value"].strip():
            return f"result {i}: 'value' must be the number as written (a string)"
        if not isinstance(r.get("unit", ""), str):
            return f"result {i}: 'unit' must be a string"
    return None


def graph_reported(graph) -> list[Reported]:
    """The graph's results as Reported: entity names are the node's label, aliases and the paper's mention texts."""
    from kg.graph.results import results_of

    def names(paper_id: str, node: str | None) -> tuple[str, ...]:
        if not node:
            return ()
        data = graph.nodes[node]
        edge = graph.get_edge_data(f"paper:{paper_id}", node) or {}
        return (data["label"], *data.get("aliases", ()), *(e.text for e in edge.get("evidence", ())))

    found = []
    for r in results_of(graph):
        subject = (PROPOSED,) if r.proposal else names(r.paper_id, r.subject) or (BASELINE,)
        dataset = names(r.paper_id, r.dataset) or ((r.dataset_name,) if r.dataset_name else ())
        found.append(Reported(r.paper_id, r.kind, r.text, r.unit, subject, dataset,
                              names(r.paper_id, r.task), r.metric_name))
    return found
