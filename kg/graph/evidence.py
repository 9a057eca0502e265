"""What the abstracts themselves say about a mention: the kind of thing they call it (`X, a benchmark for ...`,
`the X dataset`, `a model called X`) and whether they coin it (`we propose X`, `X, a novel ...`, `termed X`).

Read from the abstract around the mention's offsets, so it holds for any extractor's mentions; `cleaned`
repairs mentions with it (a span cut inside a hyphenated word is read as the whole word).
"""
from __future__ import annotations

import re
from dataclasses import replace
from typing import Iterable

from kg.graph.labels import debris_start, repair
from kg.text.markup import STYLE_COMMANDS
from kg.types import Mention

HEADS = {  # the kind word an abstract defines a name by -> the type (the gold guidelines' borderline rule)
    "benchmark": "dataset", "dataset": "dataset", "data set": "dataset", "corpus": "dataset", "corpora": "dataset",
    "suite": "dataset", "testbed": "dataset", "leaderboard": "dataset", "database": "dataset",
    "model": "model", "network": "model", "architecture": "model", "LLM": "model", "MLLM": "model", "VLM": "model",
    "checkpoint": "model", "backbone": "model",
    "method": "method", "algorithm": "method", "framework": "method", "approach": "method", "technique": "method",
    "strategy": "method", "pipeline": "method", "procedure": "method", "protocol": "method", "loss": "method",
    "metric": "metric", "measure": "metric", "score": "metric", "task": "task",
}
NAMING_HEADS = frozenset("benchmark dataset corpus suite testbed model network architecture backbone algorithm "
                         "method".split())  # a kind word written right after a name or right before it


def head_pattern(words) -> str:
    """A regex group `head` matching one of the kind words (plural too), not as the first part of a compound."""
    return (r"(?P<head>" + "|".join(sorted(map(re.escape, words), key=len, reverse=True))
            + r")(?:s|es)?\b(?![-\u2010\u2011])")


MODIFIER = r"(?:(?!(?:from|of|for|in|on|with|by|to|a|an|the|that|which|and|or)\s)[\w'-]+\s+)"  # not `learned from a`
AFTER = re.compile(r"\s*(?:\([^()]{0,60}\)\s*)?(?:[,:]\s*|\s+(?:is|are|was)\s+)(?:a|an|the)\s+" + MODIFIER + r"{0,5}?"
                   + head_pattern(HEADS), re.I)  # X, a large-scale benchmark ... / X is a framework ...; not X is a
# structure learned from a dataset
SUFFIX = re.compile(r"\s+" + head_pattern(NAMING_HEADS))  # the X dataset, the X model (not `an ArSL dataset`)
NAMED_BEFORE = re.compile(r"\b(?:the|on|using|with|from)\s+$", re.I)
BEFORE = re.compile(r"\b" + head_pattern(NAMING_HEADS) + r"\s+(?:(?:called|named|termed|dubbed|coined)\s+)?"
                    r"[\"'\u201c]?$", re.I)  # the benchmark X, a model called X
NAMED = re.compile(r"(?:\b(?:called|named|termed|dubbed|coined|namely)\s*[,:]?\s*[\"'\u201c]?"
                   r"|\bwe\s+(?:call|term|dub|name|coin)\s+(?:(?:it|this|them|these|(?:the|our|this)\s+[\w-]+)\s+)?"
                   r"(?:as\s+)?[\"'\u201c]?"  # which we call X, we term it X, we name our method X
                   r"|\b(?:a|an)\s+(?:novel|new)\s+(?:[\w-]+\s+){0,4}?[\w-]+\s*[,:]\s*)$", re.I)  # termed X
OBJECT = re.compile(r"(?:\bwe\s+(?:\w+\s+)?(?:propose|introduce|present|develop|design|release|build|construct|curate)s?"
                    r"\s+(?:(?:a|an|the)\s+)?(?:(?:novel|new|simple|first|unified|general)\s+)*"
                    r"|\bour\s+(?:(?:proposed|new|novel)\s+)?)$", re.I)  # we propose X, our X
# we introduce Contrastive Zorbing (CZ): the short form in brackets after a long form the paper coins
DEFINED_OBJECT = re.compile(OBJECT.pattern[:-1] + r"(?P<long>(?:[\w'-]+\s+){0,7}[\w'-]+)\s*\(\s*$", re.I)
LINKING_WORDS = frozenset("a an and for from in of on the to via with".split())  # lower-case inside a coined name
CLOSED = re.compile(r"\s*\)")
OBJECT_END = re.compile(r"\s*(?:[,.;:()\[]|$|(?:that|which|to|for|with|in|on|by|as|and|is|are|via|from)\b)")
PLURAL_ACRONYM = re.compile(r"[A-Z][A-Z0-9-]*[A-Z]s")  # BNNs, AEs, GANs
USED_BEFORE = re.compile(r"\b(?:using|use|uses|used|on|from|adopt|adopts|adopting|employ|employs|employing)"
                         r"\s+(?:(?:a|an|the)\s+)?(?:[\w-]+\s+){0,4}?[\w-]+\s*$", re.I)  # `using a ... dataset` called X
NOVEL_AFTER = re.compile(r"\s*(?:\([^()]{0,60}\)\s*)?[,:]\s*(?:a|an)\s+(?:novel|new)\b", re.I)  # X, a novel method
WINDOW = 160  # characters read before and after a mention
STYLE = "|".join(sorted(STYLE_COMMANDS, key=len, reverse=True))
OPENING_MARKUP = re.compile(r"(?:\$|\*\*?|__|`|\\(?:" + STYLE + r")\s*\{)+$")  # `$\mathtt{`, `**`, `\textbf{`
CLOSING_MARKUP = re.compile(r"(?:\}|\$|\*\*?|__|`)+")  # `}$`, `**`
# a name standing where a measure does: a number or a fall right after it (`ASR of 95%`, `cuts ASR from 38.3% to
# 15.0%`, `ASR (2.1%)`, `ASR reduction`; not a year), or a number or a comparison right before it (`95% ASR`, `30 FPS`,
# `near-zero ASR`, `reduces the ASR`)
MEASURED_AFTER = re.compile(r"(?:\s*(?:\(\s*|[:=]\s*|(?:of|to|from|by|at|below|under|above|over|drops?\s+to|falls?\s+to|"
                            r"reach(?:es|ing)?|(?:is|was|are|were)(?:\s+(?:only|just|about|around))?)\s+)[~<>≈]?\s*"
                            r"[-+−]?(?!(?:19|20)\d\d\b)\d|\s+(?:reductions?|drops?|decreases?)\b)")
MEASURED_BEFORE = re.compile(r"(?:(?<![\w.\-])(?!(?:19|20)\d\d\b)\d+(?:\.\d+)?\s*%?|\b(?:near-zero|zero|lower|higher|"
                             r"reduc(?:e|es|ed|ing)|cuts?|lower(?:s|ed|ing))(?:\s+(?:the|its|their|an?))?)\s+$", re.I)
MEASURE_ENDS = re.compile(r"\s*(?:[,.;:)\]]|$|(?:on|than|while|against|and|or|for|in|of|to|with|at|by|under|across|"
                          r"compared|when|from|over|relative|versus|vs|respectively)\b)", re.I)  # not `12 ASR systems`
NUMBER_FORMAT_BEFORE = re.compile(r"\b(?:low|lower|full|half|mixed|single|double|reduced|arbitrary|fixed|finite|limited|"
                                  r"numerical|numeric|machine|floating[- ]point|\d+[- ]?bits?|bit)[- ]+$", re.I)
NUMBER_FORMAT_AFTER = re.compile(r"\s+(?:of\s+(?:the\s+)?(?:[\w-]+\s+){0,3}?)?(?:weights?|activations?|gradients?|"
                                 r"parameters?|numerics|arithmetic|floating|bits?|training|inference)\b", re.I)
NUMBER_TOPIC = re.compile(r"quantiz|quantis|\b\d+-bits?\b|fixed-point|floating-point|bit-width|low-precision", re.I)
METRIC_TOPIC = re.compile(r"\brecall\b|\bF1\b|F-(?:score|measure)|precision\s*(?:@|at\b)|average precision", re.I)
# recall as a measure: beside another retrieval or classification measure anywhere in the abstract, or compared or
# quantified where it stands (`improvements in recall`, `at the same recall`, `comparable recalls`, `recall@10`)
RECALL_TOPIC = re.compile(r"\bprecisions?\b|\bF1\b|F[-_ ]?(?:score|measure|\$?_?\{?1)|\baccurac|\bAUC|\bmAP\b|"
                          r"\bhit(?:s| rate)\b|\bNDCG|\bMRR\b|\bROUGE", re.I)
NUMBER_NEAR = re.compile(r"[^.;,]{0,15}?\d")  # `recall at most 14%`
RECALL_COMPARED = re.compile(r"(?:\b(?:high|higher|highest|low|lower|better|same|comparable|similar|improv\w*"
                             r"|gains?|increas\w*|rais\w*|drops?|loss|boost\w*|terms|high-|low-)\s+(?:in\s+|of\s+)?)$", re.I)


def defined_type(text: str, start: int, end: int) -> str | None:
    """The type the abstract gives the name at [start, end), from a kind word defining it, else None."""
    before, after = text[max(0, start - WINDOW):start], text[end:end + WINDOW]
    match = AFTER.match(after) or (SUFFIX.match(after) if NAMED_BEFORE.search(before) else None)
    if match:
        return head_type(match.group("head"))
    match = BEFORE.search(before)
    return head_type(match.group("head")) if match else None


def head_type(head: str) -> str | None:
    """The type of a kind word, matching acronyms by case (LLM) and other words in any case."""
    return HEADS.get(head) or HEADS.get(head.lower())


def coined_here(text: str, start: int, end: int) -> bool:
    """Whether the abstract presents the name at [start, end) as its own: `termed X`, `a new method, X`,
    `X, a novel ...`, or `we propose X` / `our X` when X is the whole object (not `we propose a KV cache policy`),
    or the short form in brackets after such a long form in title case (`we introduce Contrastive Zorbing (CZ),
    a ...`; not `we propose a human-large language model (LLM) collaborative framework`, nor `we propose a
    multi-agent system (MAS)`, a kind).
    An acronym in the plural names instances of a kind (`our BNNs`, `our AEs`), and a name `called` after a word of
    use names an existing thing (`using a challenging dataset called CLEVR`): neither is coined."""
    before, after = unwrapped(text, start, end)
    if PLURAL_ACRONYM.fullmatch(text[start:end]):
        return False
    if (named := NAMED.search(before)) and not USED_BEFORE.search(before[:named.start()]):
        return True
    if NOVEL_AFTER.match(after):
        return True
    if (defined := DEFINED_OBJECT.search(before)) and (closed := CLOSED.match(after)):  # the long form ends the object
        return title_case(defined.group("long")) and bool(OBJECT_END.match(after, closed.end()))
    return bool(OBJECT.search(before) and OBJECT_END.match(after))


def unwrapped(text: str, start: int, end: int) -> tuple[str, str]:
    """The WINDOW characters before and after a mention without the style markup around it (`we propose
    $\\mathtt{DICE}$, a ...` reads as `we propose DICE, a ...`)."""
    before, after = text[max(0, start - WINDOW):start], text[end:end + WINDOW]
    opening, closing = OPENING_MARKUP.search(before), CLOSING_MARKUP.match(after)
    return before[:opening.start()] if opening else before, after[closing.end():] if closing else after


def title_case(words: str) -> bool:
    """Whether every word but linking words starts with a capital or a digit (`Contrastive Zorbing`, `Zorb-Aware
    Routing for Graphs`): a coined long form, not a kind (`a multi-agent system (MAS)`)."""
    return all(w[:1].isupper() or w[:1].isdigit() for w in re.split(r"[\s-]+", words) if w and w not in LINKING_WORDS)


def other_sense(text: str, start: int, end: int) -> bool:
    """Whether the precision or recall at [start, end) is not the metric: a number format (`number_format`) or
    remembering (`memory_recall`)."""
    return number_format(text, start, end) or memory_recall(text, start, end)


def memory_recall(text: str, start: int, end: int) -> bool:
    """Whether the recall at [start, end) is remembering (`learning and recall of patterns`, `a player with imperfect
    recall`): an abstract that names no other retrieval or classification measure and writes no number or
    comparison beside it (`improvements in recall`, `at the same recall`, `a recall of 0.9`)."""
    if text[start:end].lower().rstrip("s") != "recall" or RECALL_TOPIC.search(text):
        return False
    if text[end:end + 1] == "@" or measured_here(text, start, end) or NUMBER_NEAR.match(text, end):
        return False
    return not RECALL_COMPARED.search(text[max(0, start - 30):start])


def number_format(text: str, start: int, end: int) -> bool:
    """Whether the precision at [start, end) is a number format's (`low precision numerics`, `full-precision weights`,
    `the precision of DNN weights`, `8-bit precision`, any precision of an abstract about quantized numbers that
    names no retrieval measure), not the metric."""
    if text[start:end].lower().rstrip("s") != "precision":
        return False
    if NUMBER_TOPIC.search(text) and not METRIC_TOPIC.search(text):
        return True  # an abstract about quantized numbers and no retrieval measure: `optimal precision per layer`
    return bool(NUMBER_FORMAT_BEFORE.search(text[max(0, start - 40):start]) or NUMBER_FORMAT_AFTER.match(text, end))


def hyphen_prefix(text: str, start: int) -> int:
    """Where the hyphenated word a mention starts inside begins (`multi-` of `multi-modal LLM`), else `start`."""
    begin = start
    while begin >= 2 and text[begin - 1] in "-\u2010\u2011" and text[begin - 2].isalnum():
        begin -= 1
        while begin > 0 and text[begin - 1].isalnum():
            begin -= 1
    return begin


def cleaned(mentions: Iterable[Mention],
            texts: dict[str, str]) -> tuple[list[Mention], dict[Mention, Mention], dict[Mention, Mention]]:
    """Each usable mention with its name repaired, and maps of it to the mention as evidence (a span that starts inside a
    hyphenated word is extended to the word: `modal LLM` in `multi-modal LLM`, one that starts with punctuation or a
    number fragment starts after it: `accuracy` of `95.1% accuracy`) and to the mention as extracted
    (what relations refer to). A number format's precision (`low precision numerics`) and remembering's recall are no
    mentions of the metric (`other_sense`)."""
    found, evidence, raw = [], {}, {}
    for extracted in mentions:
        mention, name = extracted, extracted.name or extracted.text
        text = texts.get(mention.paper_id)
        if text and other_sense(text, mention.start, mention.end):
            continue
        begin = hyphen_prefix(text, mention.start) if text else mention.start
        if begin < mention.start and re.fullmatch(r"[\w\-\u2010\u2011]+", text[begin:mention.start]):
            name = text[begin:mention.start] + name
            mention = replace(mention, start=begin, text=text[begin:mention.end])
        if skip := debris_start(mention.text):  # "% accuracy" of "95.1% accuracy": the span starts at the name
            mention = replace(mention, start=mention.start + skip, text=mention.text[skip:])
        name = repair(name)
        for clean in version_parts(mention, name) if name else ():
            found.append(clean)
            evidence[clean], raw[clean] = replace(clean, name=mention.name), extracted
    return found, evidence, raw


VERSION_PAIR = re.compile(r"(?P<prefix>[^/]*?[A-Za-z][^/]*?)(?<![\d.])(?P<first>\d[\w.]*)(?P<rest>(?:/\d[\w.]*)+)")


def version_parts(mention: Mention, name: str) -> list[Mention]:
    """A name written as versions of one name joined by slashes (`CIFAR-10/100`, `ResNet-18/34/50`, `GPT-4/4o`) is a
    mention of each version, evidence on the part of the span that writes it; any other name is itself (`ViT-B/16`,
    `CNN/DailyMail`, `L1/L2` keep their slash)."""
    match = VERSION_PAIR.fullmatch(name)
    if not match:
        return [replace(mention, name=name)]
    prefix, versions = match.group("prefix"), [match.group("first"), *match.group("rest")[1:].split("/")]
    parts, offset = [], len(prefix)
    for version in versions:
        start, end = (mention.start + offset, mention.start + offset + len(version)) if mention.text == name else (
            mention.start, mention.end)
        if not parts and mention.text == name:
            start = mention.start  # the first version's evidence is its whole name
        parts.append(replace(mention, start=start, end=end, text=mention.text[start - mention.start:end - mention.start],
                             name=prefix + version))
        offset += len(version) + 1
    return parts


def measured_here(text: str, start: int, end: int) -> bool:
    """Whether the abstract writes the name where a measure stands: a number right after it, or a number or a
    comparison right before it and no noun after it (`THRD reduces ASR to 0.2%`, `95% ASR on`: the attack success
    rate; not `12 ASR systems`)."""
    return bool(MEASURED_AFTER.match(text, end, min(len(text), end + 40))
                or MEASURED_BEFORE.search(text, max(0, start - 30), start) and MEASURE_ENDS.match(text, end))
