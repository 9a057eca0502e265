"""Load the spaCy pipeline: the one place a Language is built."""
from __future__ import annotations

import logging

import spacy
from spacy.language import Language

from kg.nlp import BLANK, DEFAULT_MODEL  # noqa: F401  (re-exported)

log = logging.getLogger(__name__)

UNUSED_COMPONENTS = ("ner",)  # extractors need tags, lemmas and the parse, not spaCy's NER


def load_nlp(model: str = DEFAULT_MODEL, fast: bool = True) -> tuple[Language, str | None]:
    """The pipeline for `model` (a package name or path), or a blank English one with a warning.

    With `fast`, the attribute ruler and lemmatizer are swapped for exact cached stand-ins
    (`kg.nlp.fast_components`): same annotations, about a quarter less parse time.
    """
    if model == BLANK:
        return blank_pipeline(), None
    try:
        nlp = spacy.load(model, exclude=list(UNUSED_COMPONENTS))
    except OSError:
        warning = (f"spaCy model {model!r} is not installed: running with a blank English pipeline "
                   "(no tagger or parser, so no noun-chunk or part-of-speech cues; expect lower recall)")
        return blank_pipeline(), warning
    if "parser" not in nlp.pipe_names and "senter" not in nlp.pipe_names:
        nlp.add_pipe("sentencizer")
    if fast:
        from kg.nlp.fast_components import speed_up

        speed_up(nlp)
    return nlp, None


def blank_pipeline() -> Language:
    """Tokenizer plus rule-based sentence splitting only."""
    nlp = spacy.blank("en")
    nlp.add_pipe("sentencizer")
    return nlp


def model_name(nlp: Language) -> str:
    """A short `name-version` label of the pipeline, for summaries and cache keys."""
    meta = nlp.meta
    return f"{meta.get('lang', 'xx')}_{meta.get('name', 'pipeline')}-{meta.get('version', '0')}"
