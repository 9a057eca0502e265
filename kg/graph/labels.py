"""Entity labels: repair a mention's surface form, reject debris, pick the canonical form.

A label is published (rdfs:label, GraphML, HTML), so it must read as a name: balanced brackets, no
markup or HTML-entity leftovers, no line-break hyphen ("im- age"), no list or sentence fragment.
`repair` fixes what can be fixed without guessing and returns None for the rest.
"""
from __future__ import annotations

import html
import re
import unicodedata
from collections import Counter, defaultdict
from functools import lru_cache

from kg.text.keys import match_key
from kg.graph.variants import KIND_SUFFIX, KINDS, PARTS, PROPER_KINDS
from kg.text.markup import normalise_whitespace

ACCENTS = {"'": "\u0301", '"': "\u0308", "`": "\u0300"}  # LaTeX \' \" \` left after markup stripping
ACCENT = re.compile(r"(?<=[A-Za-z])\\?(['\"`])\{?([aeiouyAEIOUYnNcC])\}?(?=[a-z]|\b)(?<!'s)")
SCRIPT = re.compile(r"(?<=[A-Za-z0-9])[_^]\{?([A-Za-z0-9α-ω]+|[∞*])\}?")  # F_1, l_{2}, R^3 -> F1, l2, R3
LINE_BREAK = re.compile(r"(?<=[A-Za-z])- (?=[A-Za-z])(?!(?:and|or|nor|to|as|vs|versus|via)\b)")
BROKEN_COMPOUND = re.compile(r"(?<=[A-Za-z])- (?=(?:and|or|to|of|in|on|the|by|for|vs)-[A-Za-z])")  # Divide- and-Conquer
EDGE_JUNK = " \t,;:.\"'`*-/{}\u201c\u201d\u2018\u2019\u00ab\u00bb"
DEBRIS = re.compile(r"[{}_\\$^;<>|=≤≥∈√∑~\"]|(?<![A-Z])&|&(?![A-Z])")
LIST_COMMA = re.compile(r",(?!\d)|(?<!\d),")  # a comma outside a number such as 1,000
PRONOUN = re.compile(r"\b(?:we|our|us|this paper|in this work)\b")
EVALUATIVE = re.compile(r"^(?:good|better|improved|novel(?![ -]view|[ -]class)|superior|excellent|remarkable|poor|"
                        r"competitive(?! programming| ratio| analysis)|promising|impressive|significant|strong|"
                        r"stronger|new|existing|proposed)\b", re.I)  # not the terms: novel view synthesis, novel class
# discovery, competitive programming / ratio / analysis
DANGLING = re.compile(r"\s(?:of|for|in|on|with|from|under|over|to|by|and|or|the|a|an|via|between|than)$", re.I)
CITATION = re.compile(r"^[A-Z][a-z]+(?:(?: and| &) [A-Z][a-z]+| et al\.?)? \(?(?:19|20)\d\d[a-z]?\)?$")  # McCallum 2016
BRACKETS = ("()", "[]", "{}")
WEB_ADDRESS = re.compile(r"\b(?:https?://|www\.)|\.(?:com|org|io)/", re.I)
LEADING_DEBRIS = re.compile(  # "% accuracy" of "95.1% accuracy", "+4.2% gains", "-shot": not where a name starts
    r"(?:[^\w(\[\s\u201c\u2018\"'][^\w(\[\u201c\u2018\"']*|\d+(?:[.,]\d+)*\s*(?:%|\u00d7|x\b)|\d+[.,]\d+(?=\s))\s*")


def debris_start(text: str) -> int:
    """How many leading characters of a span are not part of a name: punctuation, a percentage or multiplier
    (`95.1%`, `3x`), a decimal number; repeated (`+ 4.2% accuracy` -> `accuracy`)."""
    position = 0
    while match := LEADING_DEBRIS.match(text, position):
        if not match.group(0) or match.end() >= len(text):
            break
        position = match.end()
    return position


def unbalanced(label: str) -> bool:
    """True when some bracket pair does not open and close in order."""
    for opening, closing in BRACKETS:
        depth = 0
        for char in label:
            depth += (char == opening) - (char == closing)
            if depth < 0:
                return True
        if depth:
            return True
    return False


def label_problems(label: str) -> list[str]:
    """Why a label is not publishable (empty list: it is fine)."""
    found = []
    if unbalanced(label):
        found.append("unbalanced brackets")
    if DEBRIS.search(label) or re.search(r"&#?\w+;", label):
        found.append("markup debris")
    if re.search(r"[A-Za-z]- [A-Za-z]", label) and LINE_BREAK.search(label):
        found.append("line-break hyphen")
    if LIST_COMMA.search(label):
        found.append("list fragment")
    if PRONOUN.search(label) or EVALUATIVE.search(label) or DANGLING.search(label):
        found.append("sentence fragment")
    if CITATION.match(label):
        found.append("citation")
    if WEB_ADDRESS.search(label):
        found.append("web address")  # `https://github.com/...`: where the code is, not a name
    if label != label.strip(EDGE_JUNK) or not any(c.isalnum() for c in label) or debris_start(label):
        found.append("edge punctuation")
    return found


def join_accent(match: re.Match) -> str:
    """A LaTeX accent and its letter as one precomposed character."""
    return unicodedata.normalize("NFC", match.group(2) + ACCENTS[match.group(1)])


@lru_cache(maxsize=1 << 16)  # names repeat across papers
def repair(name: str) -> str | None:
    """The mention's name made publishable (entities unescaped, accents, sub/superscripts and
    line-break hyphens joined, `Divide- and-Conquer` too, edge punctuation trimmed), or None when it is debris."""
    text = html.unescape(html.unescape(name)).replace("\u00a0", " ")
    text = ACCENT.sub(join_accent, text)
    text = SCRIPT.sub(r"\1", text)
    text = LINE_BREAK.sub("", BROKEN_COMPOUND.sub("-", normalise_whitespace(text)))
    text = text[debris_start(text):].strip(EDGE_JUNK)
    if text.endswith(")") and text.count("(") < text.count(")"):
        text = text[:-1].rstrip(EDGE_JUNK)  # "X)" when the span began inside a parenthesis
    if not text or label_problems(text):
        return None
    return text


PREPOSITION = re.compile(r" (?:of|for|in|on|with|from|over|under|between|via|to|by) ")
SPELLED_ACRONYM = re.compile(r"[A-Z0-9][A-Z0-9&-]*[A-Z][A-Z0-9]*s?")  # CNN, GANs, BLEU: an acronym alone


def choose_label(forms: Counter, papers: Counter, proper: bool = False, known: str | None = None,
                 descriptive: bool = False) -> str:
    """The form most papers write: forms are pooled by `match_key` (case and plural variants), the
    pool most papers write wins (ties: the fuller), and within it the most written singular form
    (Cityscapes and FLOPs stay, having no singular). A name beats itself followed by its kind (`Atari` over
    `Atari games`, `ImageNet` over `ImageNet dataset`). An acronym alone gives way to the most written
    spelled-out form, since an acronym means different things in different fields. `proper` (dataset
    names): on ties the capitalised form, and no lower-casing of a sentence-initial capital. `descriptive` (a
    method, task or metric no paper proposes): the same words with fewer capitals, when a paper writes them so
    (`topological data analysis` over the `Topological Data Analysis` a definition writes). A concept the
    gazetteer knows (`known`) takes the gazetteer's name: the list's canonical spelling, chosen once for it."""
    if known:
        return known  # `machine unlearning` for the `unlearning` most write, `area under the ROC curve` for `AUC`
    pools: dict[str, list[str]] = defaultdict(list)
    for form in sorted(set(forms) | set(papers)):  # papers may name defined long forms never written here
        pools[match_key(form)].append(form)

    def pool_rank(key: str) -> tuple:  # on ties the fuller name, but not a name and its part word (`X module`)
        members = pools[key]
        part = all((m := KIND_SUFFIX.match(f)) and KINDS[m.group("kind").lower()] in PARTS for f in members)
        return sum(papers[f] for f in members), sum(forms[f] for f in members), not part, len(key.split()), len(key)

    def pick(keys: list[str]) -> str:
        members = pools[max(keys, key=pool_rank)]
        singular_forms = [f for f in members if not is_plural_of(f, members)] or members
        best = max(singular_forms, key=lambda f: (spelling_papers(f, members, papers), papers[f], forms[f],
                                                  f.islower() != proper))
        if len(MARKED.findall(best)) >= 2:  # `SHapley Additive exPlanations`: the letters of its acronym marked
            best = max((f for f in singular_forms if f.lower() == best.lower() and not MARKED.search(f)),
                       key=lambda f: (papers[f], forms[f], f), default=best)
        if descriptive and title_cased(best):  # the same words with fewer capitals, as running text writes them
            best = min((f for f in singular_forms if fewer_capitals(f, best)),
                       key=lambda f: (capitals(f), -papers[f], f), default=best)
        lowered = best[:1].lower() + best[1:]  # "Latent Dirichlet allocation" opening a sentence
        return lowered if lowered in members and 2 * papers[lowered] >= papers[best] and not proper else best

    best = pick(sorted(set(pools) - described(pools)) or sorted(pools))
    spelled = [k for k in sorted(pools) if any(re.search(r"[a-z][ -]+[A-Za-z]", f) for f in pools[k])]
    if SPELLED_ACRONYM.fullmatch(best) and spelled and not short_preferred(pools, best, spelled, papers):
        best = pick(spelled)
    return best


# A word whose capitals mark an acronym's letters (`SHapley`, `exPlanations`, `diffusioN`), not how the word is written.
MARKED = re.compile(r"(?<![\w-])(?:[A-Z]{2,}[a-z]{2,}|[a-z]+[A-Z][a-z]+|[a-z]{3,}[A-Z])(?![\w-])")


SHORT_SHARE = 3  # an acronym written alone by this many times the papers of its spelled-out form is the label


def short_preferred(pools: dict[str, list[str]], acronym: str, spelled: list[str], papers: Counter) -> bool:
    """Whether papers write the acronym alone (BERT, ViT) SHORT_SHARE times as often as every spelled-out form."""
    short = sum(papers[f] for f in pools[match_key(acronym)])
    return short >= SHORT_SHARE * sum(papers[f] for k in spelled for f in pools[k])


DESCRIPTIONS = frozenset(word for word, kind in KINDS.items()  # dataset, corpus, games, backbone, encoder ...
                         if kind == "data" or (kind == "model" and word in PROPER_KINDS))


TITLE_LINKING = frozenset("a an and as at by for from in of on or the to via with".split())


def capitals(form: str) -> int:
    """How many capital letters a form has."""
    return sum(c.isupper() for c in form)


def title_cased(form: str) -> bool:
    """Whether a name of several words capitalises each (`Topological Data Analysis`; not `quasi-Newton method`)."""
    words = [w for w in form.split() if w[:1].isalpha() and w.lower() not in TITLE_LINKING]
    return len(words) >= 2 and all(w[:1].isupper() for w in words)


def fewer_capitals(form: str, than: str) -> bool:
    """Whether `form` is `than` with some of its capitals written small (`Video moment retrieval`, `Video Moment
    Retrieval`), none added."""
    return form != than and form.lower() == than.lower() and all(b.isupper() or not a.isupper()
                                                                 for a, b in zip(form, than))


def described(pools: dict[str, list[str]]) -> set[str]:
    """Keys of the pools whose every form is a name followed by a data word or a proper-name model word
    (`Atari games`, `WSJ corpus`, `DINOv2 backbone`; not `Mallows model`, `AM score`, `English adaptation`)
    while the name alone is a pool of its own, written with a capital or digit in every form."""
    found = set()
    for key, members in pools.items():
        names = [m.group("name") for m in map(KIND_SUFFIX.match, members)
                 if m and m.group("kind").lower() in DESCRIPTIONS]
        bare = {match_key(n) for n in names}
        if len(names) == len(members) and key not in bare and all(
                b in pools and all(any(c.isupper() or c.isdigit() for c in f) for f in pools[b]) for b in bare):
            found.add(key)
    return found


def spelling_papers(form: str, members: list[str], papers: Counter) -> int:
    """Papers writing this spelling in any case, singular or plural: "neural network" counts "Neural
    Networks", so the spelling most papers use wins over a rarer one that splits fewer ways ("neural net")."""
    low = form.lower()
    return sum(papers[f] for f in members if f.lower() in (low, low + "s", low + "es"))


def is_plural_of(form: str, others: list[str]) -> bool:
    """True when the form ends in s and another form is the same without it (Processes/Process)."""
    if not form.endswith("s") or form[-2:-1].isupper() or PREPOSITION.search(form):
        return False  # FLOPs, GANs: an acronym's s stays; "method of multipliers": the head is not last
    stripped = {form[:-1], form[:-2] if form.endswith("es") else None}
    return any(o in stripped or o.lower() in {s.lower() for s in stripped if s}
                                      for o in others if o != form)


ADJECTIVE_END = re.compile(r"(?:ive|ous|able|ible|ful|less|ic|al)$")
NOUNS_LIKE_ADJECTIVES = frozenset(  # words ending like adjectives that are nouns, so may name something alone
    "objective alternative derivative representative initiative incentive directive narrative perspective detective "
    "executive native motive relative adjective collective explosive additive primitive imperative variable table "
    "observable heuristic metric logic topic arithmetic critic music rhetoric clinic epidemic mechanic graphic "
    "traffic mosaic panic magic public republic fabric tactic tonic retrieval rehearsal removal proposal interval "
    "signal trial tutorial journal manual potential rival survival arrival approval denial disposal reversal renewal "
    "referral withdrawal appraisal capital hospital animal crystal metal portal terminal goal deal principal "
    "individual material festival chemical mineral canal medal cardinal editorial original refusal surprisal".split())
STRONG_ADJECTIVE_END = re.compile(r"(?:ive|ous|able|ible|ful|less)$")  # even a capitalised word so ending


def lone_adjective(name: str) -> bool:
    """A single word (hyphens allowed) that reads as an adjective, not a name: lower case or capitalised pieces
    only, ending like an adjective (`autoregressive`, `Self-Adaptive`, `multimodal`) or a `no-` compound (`no-regret`);
    nouns that end so
    (`retrieval`, `heuristic`, `overrefusal`) are not, nor one capitalised word ending in -ic or -al (Amharic)."""
    pieces = re.split(r"[-\u2010\u2011]", name.strip())
    if " " in name.strip() or not all(p.isalpha() and (p.islower() or p[1:].islower()) for p in pieces):
        return False
    last = pieces[-1].lower()
    if len(pieces) == 2 and pieces[0] == "no" and name.islower():
        return True  # no-regret, no-reference: a property of something (no-regret dynamics), not a name (No-Hint)
    if len(last) <= 4 or last in NOUNS_LIKE_ADJECTIVES or any(
            last.endswith(noun) for noun in NOUNS_LIKE_ADJECTIVES if len(noun) >= 6):
        return False
    ending = ADJECTIVE_END if len(pieces) > 1 or name.islower() else STRONG_ADJECTIVE_END
    return bool(ending.search(last))
