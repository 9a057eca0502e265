"""Typing cues around a name: its own shape, the head noun after it, an apposition, the words before it."""
from __future__ import annotations

import re

from spacy.tokens import Doc, Span

from extractors.lexicon import DATASET_HEADS, HEAD_TYPES, METHOD_HEADS, METRIC_HEADS, MODEL_HEADS, MODEL_SIZE
from kg.resolve import singular

# Heads that, right after a name, say what the name is ("Foo dataset", "Bar-7B model", "Baz loss").
KIND_HEADS = {**{w: "method" for w in METHOD_HEADS}, **{w: "model" for w in MODEL_HEADS},
              **{w: "dataset" for w in DATASET_HEADS}, **{w: "metric" for w in METRIC_HEADS}}
SHAPES = (
    (re.compile(r"(?i)(?:bench|set|corpus|data|qa|world|worlds|eval|arena|gym)$|-LT$"), "dataset"),
    (re.compile(r"@|^(?:mAP|BLEU|ROUGE\S*|F1|AUC\S*)$"), "metric"),
    (re.compile(r"(?:Net|GPT|BERT|LM|Former|former|GAN|VAE|ViT|LLaMA|Llama|Qwen|Gemma|Mistral|Phi|Claude|"
                r"Gemini|DeepSeek|Olmo|OLMo|T5)(?:\b|\d|-|$)|\d+(?:\.\d+)?[BM]\b"), "model"),
)
APPOSITION_OPENERS = frozenset(", ( : — – is are was".split())
DETERMINERS = frozenset("a an the our this".split())
PHRASE_POS = frozenset("ADJ ADV NUM VERB".split())
EVAL_WORDS = frozenset("on across".split())
EVAL_VERBS = frozenset("evaluate evaluated test tested benchmark benchmarked experiment experiments".split())


def shape_type(name: str) -> str | None:
    """A type read from the name itself (Foo-Bench: dataset, Bar-7B: model, pass@k: metric)."""
    last = singular(name.split()[-1]).lower() if name.split() else ""
    if last in HEAD_TYPES and len(name.split()) > 1:
        return HEAD_TYPES[last]
    for pattern, entity_type in SHAPES:
        if pattern.search(name):
            return entity_type
    return "model" if any(MODEL_SIZE.match(w) for w in name.split()) else None


def past_parenthesis(doc: Doc, end: int) -> int:
    """The token index after a parenthesis that opens at `end` (`Foo (F) dataset`), else `end`."""
    if end < len(doc) and doc[end].text == "(":
        close = next((t.i for t in doc[end:end + 12] if t.text == ")"), None)
        return close + 1 if close is not None else end
    return end


def head_after(doc: Doc, end: int) -> str | None:
    """The kind named right after the span (past a parenthesis): `Foo dataset`, `Foo (F) model`."""
    end = past_parenthesis(doc, end)
    for token in doc[end:end + 2]:
        kind = KIND_HEADS.get(singular(token.lower_))
        if kind and token.pos_ in ("NOUN", "PROPN"):
            return kind
        if token.pos_ not in ("ADJ", "NOUN", "PROPN") or token.is_punct:
            return None
    return None


def apposition_type(doc: Doc, end: int) -> str | None:
    """`Foo, a benchmark for ...` / `Foo is a model` / `Foo (a dataset ...)`: the kind of the next noun phrase."""
    end = past_parenthesis(doc, end)
    window = doc[end:end + 2]
    if len(window) < 2 or window[0].text not in APPOSITION_OPENERS or window[1].lower_ not in DETERMINERS:
        return None
    last = None
    for token in doc[end + 2:end + 12]:
        if token.pos_ in ("NOUN", "PROPN"):
            last = token
        elif not (token.pos_ in PHRASE_POS or token.text == "-" or (token.text == "," and last is None)):
            break
    return KIND_HEADS.get(singular(last.lower_)) if last is not None else None


def before_type(doc: Doc, start: int) -> str | None:
    """`a new benchmark, Foo` / `the dataset Foo` / `models such as Foo` / `evaluated on Foo`."""
    words = [t for t in doc[max(0, start - 4):start]]
    lowers = [t.lower_ for t in words]
    if lowers[-2:] == ["such", "as"] or lowers[-1:] in (["including"], ["like"]):
        words = words[:-2] if lowers[-1] == "as" else words[:-1]
    for token in reversed(words[-3:]):
        kind = KIND_HEADS.get(singular(token.lower_))
        if kind and token.pos_ == "NOUN":
            return kind
        if token.is_punct and token.text != ",":
            break
    if start and doc[start - 1].lower_ in EVAL_WORDS and (doc[start - 1].is_sent_start or any(
            t.lemma_.lower() in EVAL_VERBS for t in doc[max(0, start - 6):start])):
        return "dataset"
    return None


def context_type(doc: Doc, span: Span) -> str | None:
    """The first typing cue that fires for a name span."""
    return (shape_type(span.text) or head_after(doc, span.end) or apposition_type(doc, span.end)
            or before_type(doc, span.start))
