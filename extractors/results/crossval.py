"""`kg train --results` and `kg eval --results --cv`: parse the gold abstracts once, extract their mentions with
the build's default step, then train the results model (or one per fold, scoring each paper with the model that
did not see it)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

from spacy.tokens import Doc

from kg.extraction.interface import Candidate, CandidateRelation, ExtractFn
from kg.extractors.results.component import read_results
from kg.extractors.results.model import ResultsModel
from kg.extractors.results.training import Example, example_of, folds_of, train
from kg.quality.result_scores import BASELINE, PROPOSED, Reported
from kg.types import Paper

Say = Callable[[str], None]


@dataclass(frozen=True)
class Parsed:
    """A gold abstract parsed and extracted once: its Doc, entity mentions, gold results, gold entities and the
    relations the build's relators found between the mentions."""

    paper: Paper
    doc: Doc
    mentions: tuple[Candidate, ...]
    results: tuple[dict, ...]
    entities: tuple[dict, ...]
    relations: tuple[CandidateRelation, ...] = ()


def parse_gold(papers: Sequence[Paper], results: dict[str, list[dict]], entities: dict[str, list[dict]],
               model: str, say: Say, extract: ExtractFn) -> list[Parsed]:
    """The papers with gold results, parsed and extracted with `extract` (the build's step without the results
    step: `kg.extractors.build_extract(results=False)`, given by the command, so this package never imports its
    parent)."""
    from kg.nlp.load import load_nlp
    from kg.run.worker import parse_papers

    nlp, warning = load_nlp(model)
    if warning:
        say(f"warning: {warning}")
    chosen = [p for p in papers if p.id in results]
    say(f"extracting the mentions of {len(chosen)} abstracts with gold results")
    parsed = []
    for paper, doc, context in parse_papers(chosen, nlp):
        found = extract(doc, context)
        mentions = [m for m in found[0] if m.kind == "entity"]
        parsed.append(Parsed(paper, doc, tuple(mentions), tuple(results[paper.id]), tuple(entities.get(paper.id, ())),
                             tuple(found[1])))
    return parsed


def examples_of(parsed: Sequence[Parsed]) -> list[Example]:
    """The training examples of parsed gold abstracts."""
    return [example_of(p.paper.id, p.doc, p.mentions, p.results, p.entities, p.relations) for p in parsed]


def train_results(parsed: Sequence[Parsed]) -> ResultsModel:
    """The results model trained on every parsed gold abstract."""
    return train(examples_of(parsed))


def predicted(model: ResultsModel, p: Parsed) -> list[Reported]:
    """One paper's results under `model`, as Reported (names: the mention texts)."""
    text = p.doc.text

    def names(m: Candidate | None) -> tuple[str, ...]:
        return (text[m.start:m.end],) if m is not None else ()

    found = []
    for r in read_results(model, p.doc, p.mentions, p.relations):
        subject = (PROPOSED,) if r.proposal else names(r.subject) or (BASELINE,)
        dataset = names(r.dataset) or ((r.dataset_name,) if r.dataset_name else ())
        found.append(Reported(p.paper.id, r.kind, text[r.start:r.end], r.unit, subject, dataset,
                              names(r.task), r.metric_name))
    return found


def cross_validate_results(parsed: Sequence[Parsed], folds: int) -> list[Reported]:
    """Every paper's results predicted by the model trained on the other folds (folds by paper id)."""
    by_id = {p.paper.id: p for p in parsed}
    found: list[Reported] = []
    for model, held in folds_of(examples_of(parsed), folds):
        for example in held:
            found += predicted(model, by_id[example.paper_id])
    return sorted(found, key=lambda r: r.paper_id)
