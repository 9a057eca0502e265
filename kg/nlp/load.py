"""Load the spaCy pipeline: the one place a Language is built."""
from __future__ import annotations

import json
import logging
import os
from pathlib import Path

import spacy
from spacy.language import Language

from kg.errors import UserError
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
    problem = model_path_problem(model)
    if problem:
        raise UserError(problem)
    try:
        nlp = spacy.load(model, exclude=list(UNUSED_COMPONENTS))
    except Exception as error:  # noqa: BLE001  (a folder that is not a pipeline fails in many ways)
        if Path(model).exists():
            raise UserError(f"--model {model}: the spaCy pipeline does not load ({type(error).__name__}: "
                            f"{' '.join(str(error).split())[:200]})") from None
        if not isinstance(error, OSError):
            raise
        warning = (f"spaCy model {model!r} is not installed: running with a blank English pipeline "
                   "(no tagger or parser, so no noun-chunk or part-of-speech cues; expect lower recall)")
        return blank_pipeline(), warning
    if "parser" not in nlp.pipe_names and "senter" not in nlp.pipe_names:
        nlp.add_pipe("sentencizer")
    if fast:
        from kg.nlp.fast_components import speed_up

        speed_up(nlp)
    return nlp, None


def model_path_problem(model: str) -> str | None:
    """Why `model`, when it names a folder (or looks like a path), cannot be a spaCy pipeline; else None."""
    path = Path(model)
    if not path.exists():
        looks_like_path = os.sep in model or "/" in model or model.startswith(".")
        return f"--model {model}: no such folder" if looks_like_path else None
    if not path.is_dir():
        return f"--model {model}: a file, not a spaCy pipeline folder"
    missing = [name for name in ("config.cfg", "meta.json") if not (path / name).is_file()]
    if missing:
        return f"--model {model}: not a spaCy pipeline folder (no {' or '.join(missing)} in it)"
    try:
        meta = json.loads((path / "meta.json").read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        return f"--model {model}: its meta.json does not read as JSON ({error})"
    return None if isinstance(meta, dict) else f"--model {model}: its meta.json is not a JSON object"


def blank_pipeline() -> Language:
    """Tokenizer plus rule-based sentence splitting only."""
    nlp = spacy.blank("en")
    nlp.add_pipe("sentencizer")
    return nlp
