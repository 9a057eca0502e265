"""Relation examples from gold abstracts: each abstract parsed and encoded once, its concept pairs built from the
mentions the extractor predicts and, separately, from the gold entities found in the text, labelled by the gold
relations (pure apart from `encode_gold`, which runs the parse and the encoder)."""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator

import numpy as np

from kg.extractors.encoder.pairs import Concept, Pair, Span, concepts_of, pair_features, pairs_of
from kg.extractors.encoder.pieces import Pieces
from kg.quality.evaluate import key
from kg.quality.relation_scores import same_triple

Say = Callable[[str], None]


@dataclass(frozen=True)
class EncodedGold:
    """One gold abstract as the relation head sees it: text, sentences, states, predicted and gold spans."""

    paper_id: str
    text: str
    sentences: tuple[tuple[int, int], ...]
    abbreviations: tuple[tuple[str, str], ...]
    pieces: Pieces
    states: np.ndarray
    predicted: tuple[Span, ...]
    gold: tuple[Span, ...]


@dataclass(frozen=True)
class Examples:
    """Pair features, labels (1: the gold states the pair's relation) and what each row is."""

    x: np.ndarray
    y: np.ndarray
    paper: tuple[str, ...]
    relation: tuple[str, ...]
    head: tuple[frozenset[str], ...]  # matching keys of the head concept's mentions
    tail: tuple[frozenset[str], ...]
    source: tuple[str, ...]  # "predicted" or "gold": the spans the row's pair was built from


def form_pattern(form: str) -> str:
    """A regular expression for a gold form as a whole word, also in the plural (`LLMs`, `trajectories`), which
    has the same matching key."""
    if form[-1:].lower() == "y":
        return r"(?<!\w)" + re.escape(form[:-1]) + r"(?:y|ys|ies|Y|YS|IES)(?!\w)"
    return r"(?<!\w)" + re.escape(form) + (r"(?:s|es|S|ES)?" if form[-1:].isalpha() else "") + r"(?!\w)"


def locate_gold(text: str, record: dict) -> list[Span]:
    """The gold entities' names and aliases found in the text (whole words, singular or plural; longest first,
    no overlaps)."""
    forms = [(form, e) for e in record.get("entities", ()) for form in (e["name"], *e.get("aliases", ())) if form]
    taken = np.zeros(len(text) + 1, dtype=bool)
    spans = []
    for form, entity in sorted(forms, key=lambda fe: (-len(fe[0]), fe[0])):
        pattern = form_pattern(form)
        hits = list(re.finditer(pattern, text)) or list(re.finditer(pattern, text, re.I))
        for hit in hits:
            if not taken[hit.start():hit.end()].any():
                taken[hit.start():hit.end()] = True
                spans.append(Span(hit.start(), hit.end(), entity["type"], entity.get("role", "used"), form))
    return sorted(spans, key=lambda s: (s.start, s.end))


def concept_keys(spans: list[Span], concept: Concept) -> frozenset[str]:
    """The matching keys of a concept's mentions."""
    return frozenset(k for k in (key(spans[i].name) for i in concept.members) if k) | {concept.key}


def examples_of(item: EncodedGold, spans: list[Span]) -> tuple[np.ndarray, list[Pair], list[Concept]]:
    """Features, pairs and concepts of one abstract's spans (the caller labels them)."""
    concepts = concepts_of(spans, item.abbreviations)
    pairs = pairs_of(spans, concepts, list(item.sentences))
    x = pair_features(item.text, spans, concepts, pairs, list(item.sentences), item.pieces, item.states)
    return x, pairs, concepts


def label(head: frozenset[str], relation: str, tail: frozenset[str], triples: set) -> bool:
    """Whether a gold triple has this relation between a head and a tail sharing keys with the pair's."""
    return any(same_triple((head, relation, tail), triple) for triple in triples)


def build_examples(items: list[EncodedGold], triples_of: dict[str, set], use: str = "both") -> Examples:
    """Examples of every abstract's pairs: from predicted spans, gold spans or both (`use`)."""
    xs, ys, paper, relation, heads, tails, sources = [], [], [], [], [], [], []
    for item in items:
        triples = triples_of.get(item.paper_id, set())
        for source in (("predicted", "gold") if use == "both" else (use,)):
            spans = list(getattr(item, source))
            x, pairs, concepts = examples_of(item, spans)
            for row, pair in zip(x, pairs):
                h, t = concept_keys(spans, concepts[pair.head]), concept_keys(spans, concepts[pair.tail])
                xs.append(row)
                ys.append(label(h, pair.relation, t, triples))
                paper.append(item.paper_id)
                relation.append(pair.relation)
                heads.append(h)
                tails.append(t)
                sources.append(source)
    x = np.stack(xs) if xs else np.zeros((0, 0), dtype=np.float32)
    return Examples(x, np.array(ys, dtype=np.float32), tuple(paper), tuple(relation), tuple(heads), tuple(tails),
                    tuple(sources))


def encode_gold(items: list[tuple[dict, object]], model: str, say: Say, weights: Path | None = None) -> Iterator[EncodedGold]:
    """Parse each gold abstract once, extract its mentions with the default extractors (the encoder in `weights`,
    default the shipped one) and keep its states."""
    from kg.extraction.doccache import clear, text as doc_text
    from kg.extraction.interface import sentence_bounds
    from kg.extractors.encoder.component import encoded, make_encoder_combiner
    from kg.extractors.rules import RULES
    from kg.extractors.encoder.model import load_encoder
    from kg.nlp.load import load_nlp
    from kg.registry import extractors, lookup
    from kg.run.worker import parse_papers

    nlp, warning = load_nlp(model)
    if warning:
        say(f"warning: {warning}")
    chosen = [lookup(extractors, name)() for name in RULES]  # the default preset: the rules, then the encoder
    combine = make_encoder_combiner(weights)
    encoder = load_encoder(weights)
    records = {p.id: r for r, p in items}
    for paper, doc, context in parse_papers([p for _, p in items], nlp):
        text = doc_text(doc)
        mentions = combine(doc, context, [c for e in chosen for c in e(doc, context)])
        state = encoded(encoder, doc)
        predicted = tuple(Span(m.start, m.end, m.type, m.role, text[m.start:m.end]) for m in mentions)
        yield EncodedGold(paper.id, text, tuple(sentence_bounds(doc)),
                      tuple((a.short, a.long) for a in context.abbreviations), state.pieces,
                      state.states.astype(np.float16), predicted, tuple(locate_gold(text, records[paper.id])))
        clear(doc)
