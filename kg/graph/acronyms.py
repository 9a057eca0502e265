"""Short forms: case-exact keys for acronyms, and which definitions may merge a short form with a long one.

Rules: a short form joins a long form only in a paper that defines it, or in other papers when the
corpus defines it one way (a dominant meaning; where one abstract alone gives it, only in papers whose own words
support it: `resolve.Resolver.lone_reading`); a short form defined differently stays its own node.
Acronym keys keep their case (SSL, mAP and MAP are three keys), so no merge happens by lower-casing.
"""
from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from typing import Callable, Iterable

from kg.graph.bind import STOPWORDS, WORDS, begun, without_kind
from kg.text.keys import acronym_key

DOMINANT = 0.75  # share of the defining papers that must agree before a short form is read the same elsewhere


def content_words(long: str) -> list[str]:
    """The long form's words (split at spaces, hyphens and slashes) without function words."""
    return [w for w in WORDS.split(long.lower()) if w and w not in STOPWORDS]


def plausible(short: str, long: str) -> bool:
    """Could `short` abbreviate `long`? Its capitals are not many more than the long form's words, and
    the words' initials (all but one) appear in order among the short form's letters."""
    words = content_words(long)
    letters = [c.lower() for c in short if c.isalnum()]
    capitals = sum(c.isupper() for c in short) or len(letters)
    if not words or not letters or letters[0] != words[0][0] or capitals > len(words) + 1:
        return False
    position, matched = 0, 0
    for word in words:
        found = word[0] in letters[position:] and letters.index(word[0], position)
        if found is not False:
            position, matched = found + 1, matched + 1
    return matched >= len(words) - (len(words) > 2)


def phrase_with_acronym(short: str) -> bool:
    """A short form of several words one of which is an acronym (`deep RNN`): not a coined name, a phrase whose
    acronym every paper reads its own way, so its definition in one paper does not bind its key elsewhere."""
    words = short.split()
    return len(words) > 1 and any(acronym_key(w) for w in words)


def same_meaning(a: str, b: str) -> bool:
    """Two expansions of one short form read alike: their words pair up sharing their first three letters,
    one word more allowed but not in front (convolution(al) neural net(work), area under the ROC (curve); a leading
    modifier narrows: video vision-language model is no vision-language model); not semi-/self-supervised learning."""
    short, long = sorted((content_words(a), content_words(b)), key=len)
    if len(long) - len(short) > 1:
        return False
    if len(long) > len(short):  # one word more, not a first one: area under (the) ROC (curve); not (video) VLM
        return any(all(map(same_word, short, long[:i] + long[i + 1:])) for i in range(1, len(long)))
    return all(map(same_word, short, long))


def same_word(x: str, y: str) -> bool:
    """Two words of expansions read alike: one begins the other (convolution/convolutional, net/network), or they
    share their first three letters and most of the rest (optimisation/optimization; not multimodal/multilingual)."""
    if x.startswith(y) or y.startswith(x):
        return True
    return x[:3] == y[:3] and SequenceMatcher(None, x, y).ratio() >= 0.8


@dataclass(frozen=True)
class Definitions:
    """What the corpus's `long form (SHORT)` definitions say, as keys."""

    local: dict[tuple[str, str], str]  # (paper, acronym key) -> long key, for that paper
    dominant: dict[str, str]  # acronym key -> the long key most defining papers agree on
    ambiguous: frozenset[str]  # acronym keys defined with different meanings
    same: tuple[tuple[str, str], ...]  # long keys that expand one acronym alike: one concept
    names: dict[str, str]  # long key -> key of a coined name it spells out (DenseNet, AutoML)
    spelled: dict[str, Counter]  # long key -> its written long forms, by defining papers
    coined: dict[tuple[str, str], str] = field(default_factory=dict)  # (paper, long key) -> the name it defines there
    agreeing: dict[str, tuple[str, ...]] = field(default_factory=dict)  # acronym key -> its `dominant` definers


def read_definitions(pairs: Iterable[tuple[str, str, str]], key: Callable[[str], str],
                     display: Callable[[str], str] = str, bound: Iterable[tuple[str, str, str]] = ()) -> Definitions:
    """Index plausible (paper, short, long) definitions, and `bound` ones (written between two mentions, checked
    already: `bind.spells`), which bind in their paper only (the detector's definition there, if any, wins unless the
    written long form is longer, ending with it, or more of its words begin with pieces of the acronym, `Real Time
    Recurrent Learning (RTRL)` detected as `Recurrent Learning algorithm`: the paper's own longer definition is what
    the acronym means there, as is the written one the detector read with the kind word after it, `variational
    autoencoder model (VAE)`; a written long form the detector's extends reads as the detector's). An acronym
    (`acronym_key`) is read as its long form; a longer coined name (DenseNet) stays the concept and its spelled-out
    form joins it, in the papers that define it so (elsewhere `medical question answering` is the task, not MedQA)."""
    local: dict[tuple[str, str], str] = {}
    votes: dict[str, Counter] = defaultdict(Counter)
    names: dict[str, Counter] = defaultdict(Counter)
    spelled: dict[str, Counter] = defaultdict(Counter)
    coined: dict[tuple[str, str], str] = {}
    detected: dict[tuple[str, str], str] = {}  # (paper, acronym key) -> the detector's long form as written
    voters: dict[str, list[tuple[str, str]]] = defaultdict(list)  # acronym key -> (paper, long key) per vote
    for paper, short, long in sorted(set(pairs)):
        short_key, long_key = key(short), key(long)
        if not short_key or not long_key or short_key == long_key or not plausible(short, long):
            continue
        if display(long):
            spelled[long_key][display(long)] += 1
        if not acronym_key(short):
            if phrase_with_acronym(short):
                continue  # `deep RNN (deep recursive neural network)`: other papers read its RNN their way
            names[long_key][short_key] += 1
            coined.setdefault((paper, long_key), short_key)
        elif (paper, short_key) not in local:
            local[paper, short_key] = long_key
            detected[paper, short_key] = long
            votes[short_key][long_key] += 1
            voters[short_key].append((paper, long_key))
    for paper, short, long in sorted(set(bound)):  # binding in their paper only: no votes elsewhere
        short_key, long_key = key(short), key(long)
        if not short_key or not long_key or short_key == long_key:
            continue
        defined = local.get((paper, short_key)) if acronym_key(short) else None
        found = detected.get((paper, short_key))
        longer = bool(defined) and (long_key.endswith(defined) or bool(found) and (
            begun(short, long) > begun(short, found) or key(without_kind(found)) == long_key))  # VAE: `... model`
        if acronym_key(short) and (defined is None or longer):
            local[paper, short_key] = long_key  # the paper's acronym means what it writes there
            if display(long):
                spelled[long_key][display(long)] += 1
        elif defined != long_key and not (defined is None and phrase_with_acronym(short)):
            coined.setdefault((paper, long_key), defined or short_key)  # the detector's long form, or a coined name
        # a written long form with leading words the detector's lacks (`Structural Support Vector Machine (SVM)`, the
        # detector's `support vector machine`; `Sparse Subspace Clustering (SSC)`, detected as `subspace clustering`)
        # is the acronym's meaning in that paper, a narrower concept
    dominant, ambiguous, same, agreeing = {}, set(), [], {}

    def written(long_key: str) -> str:  # a key has no spaces: compare the words papers write
        forms = spelled.get(long_key)
        return max(sorted(forms), key=forms.get) if forms else long_key

    for short_key, counts in votes.items():
        ranked = sorted(counts, key=lambda k: (-counts[k], k))
        best = ranked[0]
        alike = [k for k in ranked[1:] if same_meaning(written(best), written(k))]
        same.extend((best, k) for k in alike)
        if counts[best] + sum(counts[k] for k in alike) >= DOMINANT * sum(counts.values()):
            dominant[short_key] = best
            agreeing[short_key] = tuple(sorted(p for p, long_key in voters[short_key] if long_key in {best, *alike}))
        else:
            ambiguous.add(short_key)
    chosen = {long: max(sorted(c), key=lambda k: c[k]) for long, c in names.items()}
    return Definitions(local, dominant, frozenset(ambiguous), tuple(same), chosen, dict(spelled), coined, agreeing)
