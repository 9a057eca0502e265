"""Exact, faster stand-ins for spaCy's attribute ruler and rule lemmatizer.

Both stock components loop over tokens in Python; the attribute ruler also runs a Matcher
over ~180 patterns. Their results are local: a token's attributes depend only on the
pattern-relevant features of the tokens within a pattern's length of it, and a lemma only
on (orth, pos, morph). So each stand-in computes those keys for a whole batch with numpy,
looks them up, and writes the results with `Doc.from_array`. The result for a key never seen
before comes from the stock component itself, run on a copy of just that token's window,
and is remembered. Output is identical to the stock components' (checked in tests and on
the 4,820-abstract corpus); a pipeline whose patterns use anything beyond equality, IN,
NOT_IN and REGEX on token attributes keeps its stock components.
"""
from __future__ import annotations

import logging
import re
from typing import Any, Callable, Iterable, Iterator

import numpy as np
from spacy.attrs import DEP, IDS, LEMMA, MORPH, NORM, ORTH, POS, TAG
from spacy.language import Language
from spacy.tokens import Doc
from spacy.util import minibatch

log = logging.getLogger(__name__)

OUTSIDE = np.uint64(2**64 - 1)  # a feature of a position before the start or after the end
OTHER = np.uint64(2**64 - 2)  # a string no pattern can tell apart from any other such string
STRING_FEATURES = frozenset({"ORTH", "TEXT", "LOWER", "NORM", "LEMMA", "TAG", "DEP"})  # values are string hashes
CATEGORY_FEATURES = frozenset({"POS", "IS_SPACE", "IS_PUNCT", "IS_ALPHA", "IS_DIGIT", "IS_TITLE", "IS_LOWER",
                               "IS_UPPER"})  # few values: kept as they are
SETTABLE = frozenset({POS, TAG, MORPH, LEMMA, DEP})
VALUE_OPERATORS = frozenset({"IN", "NOT_IN", "REGEX"})
COPIED = [TAG, POS, MORPH, LEMMA, DEP, NORM]  # token (not lexeme) attributes a window copy keeps


class FeatureSpace:
    """The token features some patterns test, with strings no pattern tells apart folded into OTHER."""

    def __init__(self, patterns: list[list[dict[str, Any]]], strings: Any) -> None:
        self.names: list[str] = []
        self.mentioned: dict[str, set[int]] = {}
        self.regexes: dict[str, list[re.Pattern]] = {}
        for pattern in patterns:
            for token in pattern:
                for name, value in token.items():
                    self._add(name.upper(), value, strings)
        self.names.sort()
        self.ids = [IDS["ORTH" if name == "TEXT" else name] for name in self.names]
        self.strings, self._kept = strings, {name: {} for name in self.names if name in STRING_FEATURES}

    def _add(self, name: str, value: Any, strings: Any) -> None:
        """Record that patterns test feature `name` against `value`."""
        if name not in STRING_FEATURES | CATEGORY_FEATURES:
            raise ValueError(f"unsupported pattern key {name}")
        if name not in self.names:
            self.names.append(name)
        options = value if isinstance(value, dict) else {"IN": [value]}
        if set(options) - VALUE_OPERATORS:
            raise ValueError(f"unsupported pattern operator in {value!r}")
        if name in STRING_FEATURES:
            for listed in (*options.get("IN", ()), *options.get("NOT_IN", ())):
                self.mentioned.setdefault(name, set()).add(strings.add(str(listed)))
            if "REGEX" in options:
                self.regexes.setdefault(name, []).append(re.compile(options["REGEX"]))

    def features(self, doc: Doc) -> np.ndarray:
        """(tokens, features) with unmentioned strings replaced by OTHER."""
        values = token_array(doc, self.ids)
        for column, name in enumerate(self.names):
            if name in STRING_FEATURES and len(doc):
                unique, inverse = np.unique(values[:, column], return_inverse=True)
                keep = np.array([self._keeps(name, int(v)) for v in unique.tolist()])
                values[:, column] = np.where(keep[inverse], values[:, column], OTHER)
        return values

    def _keeps(self, name: str, value: int) -> bool:
        """Whether some pattern can tell string `value` of feature `name` apart (memoised)."""
        keep = self._kept[name]
        if value not in keep:
            text = self.strings[value] if value in self.strings else ""
            keep[value] = value in self.mentioned.get(name, ()) or any(
                rx.search(text) for rx in self.regexes.get(name, ()))
        return keep[value]


def token_array(doc: Doc, attrs: list[int]) -> np.ndarray:
    """`doc.to_array(attrs)` as a (tokens, attributes) uint64 array, also for one attribute or token."""
    return doc.to_array(attrs).reshape(len(doc), len(attrs)).astype(np.uint64)


def batch_keys(rows: list[np.ndarray]) -> tuple[np.ndarray, list[np.ndarray], list[tuple[int, int]]]:
    """The distinct rows of a batch of (tokens, width) arrays; per array, each row's index into
    them; per distinct row, the (array, row) where it first occurs."""
    stacked = np.vstack(rows) if rows else np.zeros((0, 0), dtype=np.uint64)
    if not len(stacked):
        return stacked, [np.zeros(0, dtype=np.int64) for _ in rows], []
    unique, first, inverse = np.unique(stacked, axis=0, return_index=True, return_inverse=True)
    bounds = np.cumsum([0] + [len(r) for r in rows])
    inverse = inverse.reshape(-1)
    owner = np.searchsorted(bounds, first, side="right") - 1
    where = [(int(a), int(f - bounds[a])) for a, f in zip(owner.tolist(), first.tolist())]
    return unique, [inverse[a:b] for a, b in zip(bounds[:-1], bounds[1:])], where


class BatchComponent:
    """A pipeline component that annotates a whole batch of documents at once, remembering the
    result of every distinct key it has seen (`known`)."""

    known: dict[bytes, Any]

    def __call__(self, doc: Doc) -> Doc:
        """Annotate one document."""
        return self._batch([doc])[0]

    def pipe(self, docs: Iterable[Doc], batch_size: int = 128) -> Iterator[Doc]:
        """Annotate documents batch by batch."""
        for batch in minibatch(docs, size=batch_size):
            yield from self._batch(list(batch))

    def _batch(self, docs: list[Doc]) -> list[Doc]:
        raise NotImplementedError

    def results(self, unique: np.ndarray, where: list[tuple[int, int]], docs: list[Doc],
                compute: Callable[[Doc, int], Any]) -> list[Any]:
        """The result for each distinct key row, computed from its first token when never seen."""
        found = []
        for row, (doc, token) in zip(unique, where):
            key = row.tobytes()
            if key not in self.known:
                self.known[key] = compute(docs[doc], token)
            found.append(self.known[key])
        return found


class CachedAttributeRuler(BatchComponent):
    """The attribute ruler's result per token window, looked up instead of matched."""

    def __init__(self, ruler: Any) -> None:
        self.ruler = ruler
        patterns = [pattern for entry in ruler.patterns for pattern in entry["patterns"]]
        self.reach = max((len(pattern) for pattern in patterns), default=1) - 1
        self.own = FeatureSpace(patterns, ruler.vocab.strings)  # what any pattern tests on the token
        self.near = FeatureSpace([p for p in patterns if len(p) > 1], ruler.vocab.strings)  # on neighbours
        self.columns = sorted({attr for attrs in ruler.attrs for attr in attrs})
        if set(self.columns) - SETTABLE:
            raise ValueError(f"unsupported attributes set by the ruler: {self.columns}")
        self.known: dict[bytes, tuple[np.ndarray, np.ndarray]] = {}
        self.computed = 0  # windows the stock ruler has annotated

    def _batch(self, docs: list[Doc]) -> list[Doc]:
        """Look up the result of every window of the batch, computing those never seen."""
        windows = [self.windows(doc) for doc in docs]
        unique, inverses, where = batch_keys(windows)
        results = self.results(unique, where, docs, self._compute)
        masks = np.array([mask for mask, _ in results], dtype=bool).reshape(len(results), len(self.columns))
        values = np.array([value for _, value in results], dtype=np.uint64).reshape(masks.shape)
        for doc, inverse in zip(docs, inverses):
            if len(doc):
                current = token_array(doc, self.columns)
                doc.from_array(self.columns, np.where(masks[inverse], values[inverse], current))
        return docs

    def windows(self, doc: Doc) -> np.ndarray:
        """Per token, its own features and those of the neighbours a pattern covering it can see."""
        own = self.own.features(doc)
        if not self.reach:
            return own
        near = self.near.features(doc)
        padded = np.full((len(doc) + 2 * self.reach, near.shape[1]), OUTSIDE, dtype=np.uint64)
        padded[self.reach:self.reach + len(doc)] = near
        shifted = [padded[k:k + len(doc)] for k in range(2 * self.reach + 1) if k != self.reach]
        return np.hstack([own, *shifted])

    def _compute(self, doc: Doc, token: int) -> tuple[np.ndarray, np.ndarray]:
        """Run the stock ruler on a copy of the token's window; (which attributes it set, their values)."""
        self.computed += 1
        start, end = max(0, token - self.reach), min(len(doc), token + self.reach + 1)
        words = doc[start:end]
        window = Doc(doc.vocab, words=[t.text for t in words], spaces=[bool(t.whitespace_) for t in words])
        window.from_array(COPIED, token_array(doc, COPIED)[start:end])
        matches = self.ruler.match(window)
        self.ruler.set_annotations(window, matches)
        assigned: set[int] = set()
        for attr_id, _, first, last in matches:
            index = self.ruler.indices[attr_id]
            if (first + index if index >= 0 else last + index) == token - start:
                assigned.update(self.ruler.attrs[attr_id])
        mask = np.array([column in assigned for column in self.columns], dtype=bool)
        final = token_array(window, self.columns)[token - start]
        return mask, np.where(mask, final, np.uint64(0))


class CachedLemmatizer(BatchComponent):
    """The lemmatizer's result per (orth, pos, morph), looked up instead of recomputed."""

    KEY = [ORTH, POS, MORPH, LEMMA]

    def __init__(self, lemmatizer: Any) -> None:
        if getattr(lemmatizer, "mode", None) not in ("rule", "lookup"):
            raise ValueError(f"unsupported lemmatizer mode {getattr(lemmatizer, 'mode', None)!r}")
        self.lemmatizer = lemmatizer
        self.known: dict[bytes, int] = {}

    def _batch(self, docs: list[Doc]) -> list[Doc]:
        """Set the lemma of every token that has none (or of all, if the lemmatizer overwrites)."""
        arrays = [token_array(doc, self.KEY) for doc in docs]
        unique, inverses, where = batch_keys([a[:, :3] for a in arrays])
        lemmas = np.array(self.results(unique, where, docs, self._lemma), dtype=np.uint64)
        for doc, array, inverse in zip(docs, arrays, inverses):
            if len(doc):
                keep = array[:, 3] != 0 if not self.lemmatizer.overwrite else np.zeros(len(doc), dtype=bool)
                doc.from_array([LEMMA], np.where(keep, array[:, 3], lemmas[inverse]).reshape(-1, 1))
        return docs

    def _lemma(self, doc: Doc, token: int) -> int:
        """The stock lemmatizer's lemma of one token, as a string hash."""
        return self.lemmatizer.vocab.strings.add(self.lemmatizer.lemmatize(doc[token])[0])


@Language.factory("paperkg_stand_in")
def make_stand_in_slot(nlp: Language, name: str) -> "Placeholder":
    """A slot that `speed_up` fills with the stand-in wrapping the stock component `name`."""
    return Placeholder(name)


class Placeholder:
    """A pipeline slot that delegates to the stand-in `speed_up` puts in it."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.inner: Any = None

    def __call__(self, doc: Doc) -> Doc:
        return self.inner(doc)

    def pipe(self, docs: Iterable[Doc], batch_size: int = 128) -> Iterator[Doc]:
        return self.inner.pipe(docs, batch_size=batch_size)


def speed_up(nlp: Language) -> list[str]:
    """Swap the stock attribute ruler and lemmatizer for their exact stand-ins; the names swapped."""
    swapped = []
    for name, wrapper in (("attribute_ruler", CachedAttributeRuler), ("lemmatizer", CachedLemmatizer)):
        if name not in nlp.pipe_names:
            continue
        stock = nlp.get_pipe(name)
        if isinstance(stock, Placeholder):  # already swapped
            continue
        try:
            inner = wrapper(stock)
        except ValueError as error:
            log.info("keeping the stock %s: %s", name, error)
            continue
        slot = nlp.replace_pipe(name, "paperkg_stand_in")
        slot.inner = inner
        swapped.append(name)
    return swapped
