"""Matching keys and display forms of surface forms: plurals, case, dashes, spelling variants."""
from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from kg.text.markup import normalise_whitespace

DASHES = re.compile(r"[\u2010-\u2015\u2212_/-]+")
NON_WORD = re.compile(r"[^\w\s+#.@]+")
VERSION_ZERO = re.compile(r"(?<=\d)\.0+$")  # `Terminal-Bench 2.0` is version 2
ACRONYM = re.compile(r"(?=(?:[a-z]*[A-Z]){2})[A-Za-z]{2,4}")  # SSL, mAP, ReLU, ADAM: case is meaningful
KEEP_S = frozenset(
    "analysis basis bias class gas lens loss mass news series species status process physics dynamics "
    "economics robotics linguistics mathematics graphics analytics genomics semantics kinetics mechanics "
    "optics ethics logistics diagnostics statistics less focus consensus corpus radius virus bus "
    "calculus stimulus apparatus nexus chaos ethos pathos cos axis thesis synthesis hypothesis "
    "diagnosis emphasis paralysis this its is was has does yes plus minus previous various numerous "
    "gaussian ms ss means".split()  # means: k-means, c-means are names, not plurals of "mean"
)
SPELLING = (  # British -> American spellings, applied to keys only (both sides alike)
    (re.compile(r"(?<=\w\w(?:al|ar|im|er|or|ri|ti|og|gn|en|on|ys))is(ation|ations|e|ed|es|ing|er|ers)\b"), r"iz\1"),
    (re.compile(r"(?<=\w{3}[^aeiou])our(?=hood|s?\b|ed\b|ing\b)"), "or"),  # neighbour, behaviour, colour
    (re.compile(r"(?<=\w{3}e)ll(?=ing\b|ed\b)"), "l"),  # modelling, labelled
    (re.compile(r"\bsquared\b"), "square"),  # mean squared error / mean square error
    (re.compile(r"\b(neural|adversarial|deep|convolutional|recurrent|residual|policy|value|belief) net\b"),
     r"\1 network"),  # neural net(s) / neural network(s)
)
S_NOUNS = frozenset("alias atlas canvas census campus bonus apparatus syllabus".split())
IE_NOUNS = tuple("movies cookies zombies rookies selfies calories genies prairies pixies lingeries".split())
E_CHES = re.compile(r"(?:(?<![eo])aches|niches|psyches|cliches|quiches)$")  # cache(s), headache(s); not reach(es)
PREPOSITIONS = frozenset("of for in on with from over under between via to by".split())


def singular(word: str) -> str:
    """The singular of an English noun (a light rule set, acronym-aware: LLMs -> LLM, USPS stays)."""
    lower = word.lower()
    if len(word) > 2 and word[-1] == "s" and word[:-1].isupper():
        return word[:-1]
    if len(lower) <= 3 or lower in KEEP_S or word[-1] != "s" or lower.endswith(("ss", "us", "is")):
        return word
    if any(c.isdigit() for c in word):  # a name with digits: 20News, not the plural of 20New
        return word
    if lower.endswith(("yses", "theses", "gnoses")):
        return word[:-2] + "is"
    if lower.endswith("ses") and (lower[:-2] in KEEP_S or lower[:-2] in S_NOUNS):
        return word[:-2]  # biases, lenses, aliases: the singular ends in -s
    if lower.endswith(IE_NOUNS):
        return word[:-1]  # movies, cookies: the singular ends in -ie
    if lower.endswith("ies") and len(lower) > 4:
        return word[:-3] + ("Y" if word[-1].isupper() else "y")
    if E_CHES.search(lower):
        return word[:-1]  # caches, niches, headaches: the singular ends in -che
    if lower.endswith(("sses", "shes", "ches", "xes", "zzes")):
        return word[:-2]
    return word[:-1]


@lru_cache(maxsize=1 << 16)  # names repeat across papers; 50k papers call this ~400k times
def normal_form(name: str) -> str:
    """The words of a surface form, normalised: case, dashes, markup, spelling and plural folded."""
    text = unicodedata.normalize("NFKD", name)
    text = "".join(c for c in text if not unicodedata.combining(c))  # Fréchet = Frechet
    text = NON_WORD.sub(" ", DASHES.sub(" ", text))
    words = normalise_whitespace(text).split()
    if not words:
        return ""
    words[-1] = singular(words[-1])
    cut = next((i for i, w in enumerate(words) if w in PREPOSITIONS and i > 0), 0)
    if cut:  # "mixtures of experts": the head noun precedes the preposition
        words[cut - 1] = singular(words[cut - 1])
    text = " ".join(words).lower()
    for pattern, replacement in SPELLING:
        text = pattern.sub(replacement, text)
    return VERSION_ZERO.sub("", text)


@lru_cache(maxsize=1 << 16)
def match_key(name: str) -> str:
    """`normal_form` without spaces: spacing and hyphenation do not tell names apart (CIFAR10, CIFAR-10)."""
    return normal_form(name).replace(" ", "")


@lru_cache(maxsize=1 << 16)
def acronym_key(form: str) -> str | None:
    """The key of a short acronym, else None: plural folded (CNNs -> CNN) and letters after the first
    upper-cased (IMDb, IMDB -> IMDB; ReLu, ReLU -> RELU), so only the first letter's case tells
    acronyms apart (mAP is not MAP)."""
    word = form.strip()
    if len(word) > 2 and word.endswith("s") and word[-2].isupper():
        word = word[:-1]
    return word[0] + word[1:].upper() if ACRONYM.fullmatch(word) else None


def surface_key(name: str) -> str:
    """The key of one written form: a short acronym keeps its case (SSL, mAP), anything else `match_key`."""
    return acronym_key(name) or match_key(name)


@lru_cache(maxsize=1 << 16)
def display_form(name: str) -> str:
    """A written form for display: whitespace normalised, a lowercase last word in the singular
    (`neural networks` -> `neural network`); capitalised words, acronyms and names stay as written."""
    text = normalise_whitespace(name)
    words = text.split(" ")
    cut = next((i for i, w in enumerate(words) if w in PREPOSITIONS and i > 0), len(words))
    if cut < len(words):  # "mixture of experts": the head is before the preposition
        return " ".join([display_form(" ".join(words[:cut])), *words[cut:]])
    head, sep, last = text.rpartition(" ")
    stem, dash, piece = last.rpartition("-")
    if any(part in PREPOSITIONS for part in stem.split("-")[1:]):
        return text  # "mixture-of-experts", "state-of-the-art": the last piece is not the head
    if piece.isalpha() and piece.islower():
        piece = singular(piece)
    return f"{head}{sep}{stem}{dash}{piece}"

