"""Extraction, registered by name: rule extractors (kg.extractors.rules), combiners (the rules' own, and the
trained span model of kg.extractors.model) and relators; `extract_spec` wires the chosen ones for every command.

Every combiner factory has one signature, `factory(weights: Path | None) -> CombineFn` (a combiner without
weights ignores the argument); a new one registers with `@kg.registry.combiners.register(name)` in a module
imported here (or through the `paperkg_combiners` entry point) and may add a preset to PRESETS."""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from spacy.tokens import Doc

from kg.extractors import encoder, model  # noqa: F401  (register the encoder and the span model)
from kg.extraction.doccache import clear
from kg.extractors.model.weights import digest
from kg.extractors.rules import RULES
from kg.extraction.interface import Candidate, CandidateRelation, DocContext, ExtractFn
from kg.registry import UnknownNameError, combiners, extractors, lookup, relators

if TYPE_CHECKING:
    from kg.run.engines import ExtractSpec

# Names that stand for several: `default` (the rules propose, the fine-tuned encoder decides), `fast` (the rules
# propose, the linear span model decides: no transformer), `rules` (the rules alone).
PRESETS = {"default": RULES + ("encoder",), "fast": RULES + ("span_model",), "rules": RULES}
DEFAULT_EXTRACTORS = PRESETS["default"]
DEFAULT_COMBINER = "rules"  # when no combiner is named (`--extractors rules`, or a list of extractors)
DEFAULT_RELATORS = ("sentence_cues",)  # the cue-word relator, for combiners without a trained relation head
RELATORS = {"encoder": ("encoder_relations",)}  # a combiner's own relators: the relation head over its states
VERSION = "0.9.2"  # bump when extraction output changes (part of cache keys)
Folds = tuple[tuple[str, tuple[str, ...]], ...]  # (weights file, ids of the papers it scores) per fold


def choices() -> str:
    """The valid names for `--extractors`, for error messages and help."""
    return (f"extractors: {', '.join(sorted(extractors.get_all()))}; combiners: "
            f"{', '.join(sorted(combiners.get_all()))}; presets: {', '.join(sorted(PRESETS))}")


def expand(names: tuple[str, ...]) -> tuple[tuple[str, ...], str]:
    """(extractor names, combiner name) for a list of extractor, preset and at most one combiner name."""
    flat = [n for name in names for n in PRESETS.get(name, (name,))]
    combiner = [n for n in flat if n in combiners and n not in extractors and n not in PRESETS]
    unknown = [n for n in flat if n not in extractors and n not in combiner]
    chosen = tuple(dict.fromkeys(n for n in flat if n in extractors))
    if unknown or not chosen or len(set(combiner)) > 1:
        what = (f"unknown extractor {unknown[0]!r}" if unknown else "no extractor chosen" if not chosen
                else f"more than one combiner ({', '.join(dict.fromkeys(combiner))})")
        raise UnknownNameError(f"{what} (choose from {choices()})")
    return chosen, combiner[0] if combiner else DEFAULT_COMBINER


def build_extract(names: tuple[str, ...] = DEFAULT_EXTRACTORS, relator_names: tuple[str, ...] | None = None,
                  weights: str | None = None, results: bool = True) -> ExtractFn:
    """The per-paper extraction step: the named extractors, one combiner over all their candidates (`rules`
    unless one is named; it gets the weights file, None for its default), then the relators over the mentions
    (default: the combiner's own, RELATORS, else DEFAULT_RELATORS; each gets the same weights) and
    (`results`) the results step (kg.extractors.results: the numbers reported as results)."""
    from kg.extractors.results.component import make_results_step

    extractor_names, combiner_name = expand(names)
    chosen = [lookup(extractors, name)() for name in extractor_names]
    path = Path(weights) if weights else None
    combiner = lookup(combiners, combiner_name)(path)
    relating = make_relators(relator_names, combiner_name, path)
    reading = make_results_step() if results else None

    def extract(doc: Doc, context: DocContext) -> tuple:
        try:
            candidates = [c for extractor in chosen for c in extractor(doc, context)]
            mentions = combiner(doc, context, candidates)
            relations = sorted({r for relate in relating for r in relate(doc, context, mentions)})
            return mentions, relations, (reading(doc, context, mentions, relations) if reading else [])
        finally:
            clear(doc)

    return extract


def make_relators(names: tuple[str, ...] | None, combiner_name: str, weights: Path | None) -> list:
    """The named relators, else the combiner's own (RELATORS) or, when its weights have no relation head (an encoder
    folder `kg train --encoder` wrote, before `kg train --relations`), the cue-word relator."""
    from kg.extractors.encoder.relations import NoRelationHead

    if names:
        return [lookup(relators, name)(weights) for name in names]
    try:
        return [lookup(relators, name)(weights) for name in RELATORS.get(combiner_name, DEFAULT_RELATORS)]
    except NoRelationHead:
        return [lookup(relators, name)(weights) for name in DEFAULT_RELATORS]


def fold_extract(names: tuple[str, ...], folds: Folds) -> ExtractFn:
    """The extract step of cross-validation: each paper goes through the weights of the fold that held it out."""
    steps = [build_extract(names, weights=weights) for weights, _ in folds]
    step_of = {paper_id: steps[fold] for fold, (_, ids) in enumerate(folds) for paper_id in ids}

    def extract(doc: Doc, context: DocContext) -> tuple[list[Candidate], list[CandidateRelation]]:
        return step_of[context.paper_id](doc, context)

    return extract


def extract_spec(names: tuple[str, ...] = (), weights: Path | None = None, folds: Folds | None = None) -> ExtractSpec:
    """The extraction setup of a command (`names`: extractors, presets and a combiner; none: the default;
    `folds`: cross-validation's weights per paper instead of one `weights` file). The combiner is made once
    here, so an unknown name or a bad weights file fails before any work; the combiner's `fingerprint` (its
    weights' digest and the libraries that run them; else a weights file's digest) joins the version, so the cache
    tells weights apart and a combiner without weights (`rules`) does not depend on any; so does the digest of the
    results step's weights, so retrained results weights are never read from entries of the old ones."""
    from kg.extractors.results.model import default_path as results_weights
    from kg.run.engines import ExtractSpec

    names = names or DEFAULT_EXTRACTORS
    combiner_name = expand(names)[1]
    combiner = lookup(combiners, combiner_name)(weights)
    make_relators(None, combiner_name, weights)
    results = f"+results-{digest(results_weights())}"  # the results step's shipped weights (not part of the code)
    if folds is not None:
        return ExtractSpec(fold_extract, args=(names,), kwargs=(("folds", folds),),
                           version=f"{VERSION}+cv{len(folds)}{results}")
    kwargs = (("weights", str(weights)),) if weights is not None else ()
    keyed = getattr(combiner, "fingerprint", None) or (digest(weights) if weights is not None and weights.exists()
                                                        else None)
    version = (f"{VERSION}+{keyed}" if keyed else VERSION) + results
    return ExtractSpec(build_extract, args=(names,), kwargs=kwargs, version=version)
