"""Merge keys that name one concept (keys already ignore spacing): case variants of one acronym, and a name
followed by its kind ("BLEU score", "MNIST dataset", "EM algorithm") when the bare name is also a key."""
from __future__ import annotations

import re
from collections import defaultdict
from typing import Callable, Collection, Iterable

from kg.text.keys import acronym_key

KINDS = {  # a name followed by the kind of thing it is; words of one class are synonyms here
    "score": "metric", "scores": "metric", "metric": "metric", "metrics": "metric", "measure": "metric",
    "measures": "metric", "dataset": "data", "datasets": "data", "data set": "data", "data sets": "data",
    "benchmark": "data", "benchmarks": "data", "corpus": "data", "corpora": "data", "database": "data",
    "databases": "data", "environment": "data", "environments": "data", "game": "data", "games": "data",
    "suite": "data", "algorithm": "method", "algorithms": "method", "method": "method", "methods": "method",
    "model": "model", "models": "model", "architecture": "model", "architectures": "model",
    "backbone": "model", "backbones": "model", "encoder": "model", "encoders": "model",
    "adaptation": "adaptation", "fine-tuning": "tuning", "finetuning": "tuning",  # not one another: domain adaptation
    "framework": "framework", "frameworks": "framework",
    "divergence": "distance", "divergences": "distance", "distance": "distance", "distances": "distance",
    "mechanism": "mechanism", "mechanisms": "mechanism", "module": "module", "modules": "module",  # each its own
    "strategy": "strategy", "strategies": "strategy", "pipeline": "pipeline", "pipelines": "pipeline",  # class:
    "technique": "technique", "techniques": "technique", "accuracy": "accuracy", "rate": "rate", "rates": "rate",
}  # `fusion module` is no `fusion strategy`, `detection rate` no `detection accuracy`
PARTS = frozenset("mechanism module strategy pipeline technique".split())  # join a phrase naming a method or model
MEASURES = frozenset("accuracy rate".split())  # join a metric only
PROPER_KINDS = frozenset("environment environments game games suite backbone backbones encoder encoders adaptation "
                         "fine-tuning finetuning".split())  # after a proper name only: Atari games, not mean field games
QUANTITY = re.compile(r"\bgradients?$", re.I)  # `X gradient algorithm` is X gradient descent where papers write that
# (`stochastic gradient`, the estimate, stays apart); elsewhere X gradient is the method (conditional gradient)
KIND_SUFFIX = re.compile(r"^(?P<name>.+?)\s+(?P<kind>" + "|".join(sorted(KINDS, key=len, reverse=True)) + r")$", re.I)


VOWEL = re.compile(r"[aeiouy]")


class Union:
    """Union-find over keys; each set is named by its largest member (most mentions, then sorted)."""

    def __init__(self, sizes: dict[str, int]) -> None:
        self.parent = {k: k for k in sizes}
        self.sizes = sizes

    def find(self, key: str) -> str:
        while self.parent[key] != key:
            self.parent[key] = self.parent[self.parent[key]]
            key = self.parent[key]
        return key

    def join(self, a: str, b: str) -> None:
        a, b = self.find(a), self.find(b)
        if a != b:
            keep, gone = sorted((a, b), key=lambda k: (-self.sizes[k], k))
            self.parent[gone] = keep
            self.sizes[keep] += self.sizes[gone]


def regroup(groups: dict[str, list], pairs: Iterable[tuple[str, str]],
            members: Callable[[str], list[str]] = lambda key: [key]) -> tuple[dict[str, list], dict[str, list[str]]]:
    """The groups joined along `pairs` (each set named as `Union` names it), and the member keys of each (`members`:
    a group's own member keys)."""
    union = Union({k: len(g) for k, g in groups.items()})
    for a, b in pairs:
        union.join(a, b)
    joined: dict[str, list] = defaultdict(list)
    joined_members: dict[str, list[str]] = defaultdict(list)
    for key in sorted(groups):
        joined[union.find(key)].extend(groups[key])
        joined_members[union.find(key)].extend(members(key))
    return joined, joined_members


def case_pairs(keys: Iterable[str], raw_acronyms: Iterable[str], resolve_bare: Callable[[str], str],
               written: Callable[[str], Iterable[str]] = lambda key: ()) -> Iterable[tuple[str, str]]:
    """A lowercase key (`adam`, `r cnn`) and the one acronym spelled like it without spaces (`ADAM`,
    `RCNN`); none when several acronyms are (MAP, mAP), nor when some paper writes the key as an ordinary
    lower-case word, one with a vowel (`clip`, `clips`, `math`: the word, not CLIP or MATH; `lstm` joins LSTM);
    `written` gives a key's forms."""
    spellings: dict[str, set[str]] = {}
    for acronym in raw_acronyms:
        spellings.setdefault(acronym.lower(), set()).add(acronym)
    keys = set(keys)
    for key in sorted(keys):
        found = spellings.get(key.replace(" ", ""), set()) if key == key.lower() else set()
        if found and any(form == form.lower() and VOWEL.search(form) for form in written(key)):
            continue  # `clips`, `math`: a lower-case form that reads as a word; `qrt`, `lstm` do not
        if len(found) == 1:
            target = resolve_bare(next(iter(found)))
            if target in keys and target != key:
                yield key, target


NAMED_TYPES = frozenset({"model", "dataset"})  # types whose entities are names, never ordinary words


def word_twins(forms: dict[str, Iterable[str]], raw_acronyms: Iterable[str]) -> set[str]:
    """Keys every written form of which is one ordinary word in lower case (a vowel: `clip`, `clips`, `math`; the
    caller lowers a capital that only opens a sentence) spelled like an acronym the corpus writes (CLIP, MATH).
    `case_pairs` keeps them apart from the acronym; as a model or a dataset they are no name at all (video clips,
    math problems)."""
    spelled = {acronym.lower() for acronym in raw_acronyms}

    def twin(word: str) -> bool:
        return word.isalpha() and word.islower() and bool(VOWEL.search(word)) and (
            word in spelled or word.endswith("s") and word[:-1] in spelled)  # `clips`

    return {key for key, written in forms.items() if written and all(twin(form) for form in written)}


# Inception score is no Inception; an algorithm no task; `X games`/`X benchmark` join only a dataset X (Atari games;
# not Cross-Entropy Games); `X mechanism`/`X module` a method or model (self-attention); `X accuracy`/`X rate` only a
# metric (not ImageNet, nor an ASR task)
BLOCKED = {"metric": {"model", "dataset"}, "distance": {"model", "dataset"}, "method": {"task"}, "model": {"task"},
           "framework": {"task"}, "adaptation": {"task"}, "tuning": {"task"},
           "data": {"method", "model", "metric", "task"},
           **{part: {"task", "dataset", "metric"} for part in PARTS},
           **{measure: {"method", "model", "dataset", "task"} for measure in MEASURES}}
PHRASE_BLOCKED = {"metric": {"method", "task"}, "distance": {"method", "task"}, "method": {"metric", "dataset"},
                  "model": {"metric", "dataset"}}  # after a lower-case phrase, too: `mutual information method` is no
# mutual information, `total variation distance` no total variation (a regulariser), `attention score` no attention;
# a name's own type is too noisy to block it (KL, typed method by some papers, and KL divergence)


def kind_pairs(forms: Iterable[tuple[str, str, str]], keys: set[str], resolve_form: Callable[[str, str], str],
               type_of: Callable[[str], str] = lambda key: "",
               initial: Collection[tuple[str, str, str]] = ()) -> Iterable[tuple[str, str]]:
    """(key, paper, written form) whose form is `X score`/`X dataset`/`X algorithm`... joins X when X is
    a key and looks like a name (a capital, digit, space or hyphen: `language model` does not join
    `language`), and joins `X method` when both are forms (`greedy algorithm`, `greedy method`). The
    PROPER_KINDS need a capital or digit before them (`Atari games`, `DINOv2 backbone`, `LoRA adaptation`;
    not `mean field games`, `probabilistic encoder`). A capital that only opens a sentence (`initial` forms:
    `Vision encoder`) is no sign of a name."""
    bases: dict[tuple[str, str], str] = {}
    for key, paper, form in forms:
        match = KIND_SUFFIX.match(form)
        if not match:
            continue
        name, word = match.group("name").strip(), match.group("kind").lower()
        written = name[:1].lower() + name[1:] if (key, paper, form) in initial else name
        proper = any(c.isupper() or c.isdigit() for c in written) or acronym_key(name)
        if word in PROPER_KINDS and not proper:
            continue  # `probabilistic encoder` is no `probabilistic model`
        kind = KINDS[word]
        target = resolve_form(paper, name)
        phrase = any(c in " -" for c in name)
        named = phrase if kind in PARTS else proper or phrase  # `Gaussian mechanism` is no `Gaussian`
        blocked = BLOCKED[kind] | (set() if proper else PHRASE_BLOCKED.get(kind, set()))
        descent = kind == "method" and QUANTITY.search(name) and resolve_form(paper, f"{name} descent") in keys
        if named and target in keys and target != key and type_of(target) not in blocked and not descent:
            yield key, target  # not Inception (a model) and Inception score (a metric)
        base = (kind, target)
        if bases.setdefault(base, key) != key:
            yield bases[base], key


OF_PHRASE = re.compile(r"^(?P<head>[A-Za-z][\w-]*) of (?P<tail>[A-Za-z][\w-]*(?: [A-Za-z][\w-]*)?)$")
NOT_INVERTIBLE = frozenset("a an the some all any each set number class family".split())


def inverted_pairs(forms: Iterable[tuple[str, str, str]], keys: set[str],
                   resolve_form: Callable[[str, str], str]) -> Iterable[tuple[str, str]]:
    """(key, paper, written form) `rate of convergence` joins `convergence rate` when both are keys."""
    for key, paper, form in forms:
        match = OF_PHRASE.match(form)
        if not match or {w.lower() for w in form.split()} & NOT_INVERTIBLE:
            continue
        target = resolve_form(paper, f"{match.group('tail')} {match.group('head')}")
        if target in keys and target != key:
            yield key, target


SAME_ENDINGS = (  # (ending, ending, the types both keys must have): one concept written with either word
    ("network", "neuralnetwork", {"model", "method"}),  # recurrent network, recurrent neural network
    ("rate", "ratio", {"metric"}),  # compression rate, compression ratio
    ("measure", "score", {"metric"}),  # F-measure, F-score
    ("gradientmethod", "gradientdescent", {"method"}),  # natural gradient method, natural gradient descent
    ("gradientalgorithm", "gradientdescent", {"method"}),  # gradient algorithm (no stem needed), gradient descent
)


def ending_pairs(keys: Collection[str], known: Callable[[str], str], type_of: Callable[[str], str],
                 gazetteer: Collection[str] = (), generic: Collection[str] = ()) -> Iterable[tuple[str, str]]:
    """Keys that differ only in a SAME_ENDINGS ending (`known` reads the other spelling through the gazetteer: F-score
    is its F1 score), when both concepts have one of its types; never two gazetteer entries (a Bayesian network
    is no Bayesian neural network), nor a generic name (`deep network` is no concept, `deep neural network` one).
    Stochastic gradients (the estimate) are no ending variant of stochastic gradient descent."""
    keys = set(keys)
    for key in sorted(keys):
        for ending, other, types in SAME_ENDINGS:
            stem = key[:-len(ending)]
            # `gradient method` needs no stem to be gradient descent; `network` alone names no concept
            bare = not stem and not ending.endswith(("method", "algorithm"))
            if not key.endswith(ending) or bare or stem.endswith("neural") or key in generic:
                continue
            target = known(stem + other)
            if target in keys and target != key and target not in generic and {type_of(key), type_of(target)} <= types \
                    and not {key, target} <= set(gazetteer):
                yield key, target


EMPTY_MODIFIERS = (  # (modifier, ending, types): a word before a name that adds nothing to the concept it names
    ("artificial", "neuralnetwork", {"model", "method"}),  # artificial neural network, neural network
    ("shannon", "entropy", {"metric", "method"}),  # Shannon entropy, entropy
)


def modifier_pairs(keys: Collection[str], type_of: Callable[[str], str],
                   generic: Collection[str] = ()) -> Iterable[tuple[str, str]]:
    """Keys that are another key with an EMPTY_MODIFIERS word before it (`artificial recurrent neural network` is
    `recurrent neural network`) when both concepts have one of its types; never a generic name."""
    keys = set(keys)
    for key in sorted(keys):
        for modifier, ending, types in EMPTY_MODIFIERS:
            target = key[len(modifier):]
            if key.startswith(modifier) and key.endswith(ending) and target in keys and target not in generic \
                    and {type_of(key), type_of(target)} <= types:
                yield key, target
