"""Typing cues around a name: its own shape, the head noun after it, an apposition, the words before it."""
from __future__ import annotations

import re
from functools import lru_cache

from spacy.tokens import Doc, Span

from kg.extraction.doccache import attrs
from kg.extractors.rules.lexicon import HEAD_TYPES, MODEL_SIZE
from kg.text.keys import singular

# Heads that, right after a name, say what the name is ("Foo dataset", "Bar-7B model", "Baz loss").
KIND_HEADS = {word: kind for word, kind in HEAD_TYPES.items() if kind != "task"}  # the same type as HEAD_TYPES
SHAPES = (
    (re.compile(r"(?i)(?:bench|set|corpus|data|qa|world|eval|arena|gym)$|-LT$"), "dataset"),
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


@lru_cache(maxsize=1 << 16)
def singular_lower(lower: str) -> str:
    """`singular` of a lower-case word, cached."""
    return singular(lower)


def past_parenthesis(doc: Doc, end: int) -> int:
    """The token index after a parenthesis that opens at `end` (`Foo (F) dataset`), else `end`."""
    texts = attrs(doc).text
    if end < len(texts) and texts[end] == "(":
        close = next((i for i in range(end, min(end + 12, len(texts))) if texts[i] == ")"), None)
        return close + 1 if close is not None else end
    return end


def head_after(doc: Doc, end: int) -> str | None:
    """The kind named right after the span (past a parenthesis): `Foo dataset`, `Foo (F) model`."""
    a = attrs(doc)
    end = past_parenthesis(doc, end)
    for i in range(end, min(end + 2, len(a.text))):
        kind = KIND_HEADS.get(singular_lower(a.lower[i]))
        if kind and a.pos[i] in ("NOUN", "PROPN"):
            return kind
        if a.pos[i] not in ("ADJ", "NOUN", "PROPN") or a.punct[i]:
            return None
    return None


def apposition_type(doc: Doc, end: int) -> str | None:
    """`Foo, a benchmark for ...` / `Foo is a model` / `Foo (a dataset ...)`: the kind of the next noun phrase."""
    a = attrs(doc)
    end = past_parenthesis(doc, end)
    if end + 2 > len(a.text) or a.text[end] not in APPOSITION_OPENERS or a.lower[end + 1] not in DETERMINERS:
        return None
    last = None
    for i in range(end + 2, min(end + 12, len(a.text))):
        if a.pos[i] in ("NOUN", "PROPN"):
            last = i
        elif not (a.pos[i] in PHRASE_POS or a.text[i] == "-" or (a.text[i] == "," and last is None)):
            break
    return KIND_HEADS.get(singular_lower(a.lower[last])) if last is not None else None


def before_type(doc: Doc, start: int) -> str | None:
    """`a new benchmark, Foo` / `the dataset Foo` / `models such as Foo` / `evaluated on Foo`."""
    a = attrs(doc)
    words = list(range(max(0, start - 4), start))
    lowers = [a.lower[i] for i in words]
    if lowers[-2:] == ["such", "as"] or lowers[-1:] in (["including"], ["like"]):
        words = words[:-2] if lowers[-1] == "as" else words[:-1]
    for i in reversed(words[-3:]):
        kind = KIND_HEADS.get(singular_lower(a.lower[i]))
        if kind and a.pos[i] == "NOUN":
            return kind
        if a.punct[i] and a.text[i] != ",":
            break
    if start and a.lower[start - 1] in EVAL_WORDS and (a.sent_start[start - 1] or any(
            a.lemma[i] in EVAL_VERBS for i in range(max(0, start - 6), start))):
        return "dataset"
    return None


def context_type(doc: Doc, span: Span) -> str | None:
    """The first typing cue that fires for a name span."""
    return range_type(doc, span.start, span.end, span.text)


def range_type(doc: Doc, start: int, end: int, text: str) -> str | None:
    """`context_type` of the tokens start..end, whose text is `text`."""
    return shape_type(text) or head_after(doc, end) or apposition_type(doc, end) or before_type(doc, start)
