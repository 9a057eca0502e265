"""The resolution errors a researcher spots first at the top of a graph, found in any build (issue 30's patterns):
case collisions (CLIP carrying the word `clips`, LoRA carrying LoRa), names several papers propose (several
coinages in one node), generic aliases of named datasets and metrics (MedQA carrying `medical question
answering`, mIoU carrying IoU, pass@1 carrying pass@k), split definitions (an abstract's `X (long form)` on two
nodes), debris labels (`% accuracy`), kinds several papers propose (`deep convolutional neural network`) and
variants left apart (`recurrent network` / `recurrent neural network`). Each finding is a line naming the entity id."""
from __future__ import annotations

import re
from collections import defaultdict
from typing import Collection, Iterable

import networkx as nx

from kg.graph.bind import KIND_AT_END, spells
from kg.graph.variants import SAME_ENDINGS
from kg.text.keys import acronym_key, match_key
from kg.graph.labels import debris_start
from kg.graph.knowledge import Knowledge
from kg.quality.trust import Node, known_of

COINAGES = 3  # proposed by this many papers: several things under one name, unless well known
KIND_PROPOSALS = 2  # a lower-case phrase this many papers propose is a kind, not a contribution
TASK_HEAD = re.compile(r"(?:ing|tion|sion|ment)$")  # answering, classification: the head of a task phrase
NET_NAME = re.compile(r"[A-Z][a-z]+Net")  # ResNet, DenseNet: `resnet` is how the name is typed, no English word
GENERAL = re.compile(r"(?<=[@-])[kn]$|(?<=@)[kn]\b")  # pass@k, top-k: the general form of pass@1, top-1


def plural_of(form: str, label: str) -> bool:
    """The label's own plural (CLIPs, LoRAs): not another name."""
    return form in (label + "s", label + "es")


def case_collisions(nodes: Iterable[Node], graph: nx.Graph | None = None, others: Collection[str] = ()) -> list[str]:
    """An all-capital or mixed-case short name with an alias that is an ordinary lower-case word of its letters
    (`clip`, `clips` under CLIP, `glove` under GloVe; not `resnet` under ResNet) or a differently cased form the
    gazetteer knows names something else (`others`: LoRa under LoRA), unless a paper linked to the entity defines
    that spelling as one of its names; another case alone is a spelling of the name (ReLu under ReLU)."""
    found = []
    for node, data in nodes:
        label = data["label"]
        if not label.isalpha() or len(label) > 6 or not any(c.isupper() for c in label[1:]):
            continue  # a short name of letters only (CLIP, LoRA, MATH); GPT-4o written gpt-4o is the same name
        for alias in data["aliases"]:
            bare = alias[:-1] if alias.endswith("s") and alias[:-1].lower() == label.lower() else alias
            if bare.lower() != label.lower() or plural_of(alias, label) or bare == label:
                continue
            word = bare == bare.lower() and re.search(r"[aeiouy]", bare) and not NET_NAME.fullmatch(label)
            other_case = bare in others and acronym_key(label) is not None  # LoRa/LoRA; not HotPotQA
            if other_case and graph is not None and defined_by_paper(graph, node, data, alias):
                continue
            if word or other_case:
                found.append(f"{node} ({label!r}): alias {alias!r} is another word or name")
                break
    return found


def defined_by_paper(graph: nx.Graph, node: str, data: dict, alias: str) -> bool:
    """Whether a paper linked to the entity writes `name (alias)` with the name one of the entity's own."""
    forms = {form: {node} for form in (data["label"], *data["aliases"]) if len(form) > 1 and form != alias}
    papers = graph.predecessors(node) if graph.is_directed() else ()
    for paper in papers:
        text = str(graph.nodes[paper].get("abstract") or "")
        for match in re.finditer(r"\(\s*" + re.escape(alias) + r"\s*\)", text):
            if written_before(text[:match.start()].rstrip(), forms):
                return True
    return False


def coinages(nodes: Iterable[Node], knowledge: Knowledge) -> list[str]:
    """Entities COINAGES or more papers propose that the gazetteer does not know: several coinages of a name."""
    return [f"{node} ({data['label']!r}): proposed by {data.get('proposed_by')} papers"
            for node, data in nodes if int(data.get("proposed_by") or 0) >= COINAGES and not known_of(data, knowledge)]


def generic_aliases(nodes: Iterable[Node]) -> list[str]:
    """A named dataset with a task phrase as alias (MedQA: `medical question answering`), a metric with its general
    form as alias (mIoU: IoU, pass@1: pass@k)."""
    found = []
    for node, data in nodes:
        label = data["label"]
        named = any(c.isupper() or c.isdigit() for c in label[1:])
        for alias in data["aliases"]:
            low = alias.lower()
            if data["type"] == "dataset" and named and alias == low and " " in alias and TASK_HEAD.search(low):
                reason = "a task phrase"
            elif data["type"] == "metric" and general_form(alias, label):
                reason = "its general form"
            else:
                continue
            found.append(f"{node} ({label!r}): alias {alias!r} is {reason}")
            break
    return found


def general_form(alias: str, label: str) -> bool:
    """mIoU / IoU, mean average precision / average precision, pass@1 / pass@k."""
    a, b = alias.lower(), label.lower()
    if b in ("m" + a, "mean " + a) and a:
        return True
    return bool(GENERAL.search(a)) and re.sub(r"\d+$", "", b) == a[:-1] and b != a


def split_definitions(graph: nx.Graph, nodes: Iterable[Node]) -> list[str]:
    """Papers whose abstract writes `A (B)` or `A kind (B)` with B spelling A out (or A spelling B), A and B names of
    two different entities the paper links to and no entity carrying both: one definition on two nodes. A is the
    longest name of a linked entity the text before the bracket ends with (a whole word: `Adversary Robust A3C (AR-A3C)`
    is no A3C, `semi-supervised deep kernel learning (SSDKL)` no `supervised deep kernel learning`). One line per
    paper, naming the first such pair."""
    data_of = dict(nodes)
    found = []
    for paper, data in sorted(graph.nodes(data=True)):
        if data.get("kind") != "paper" or not graph.is_directed():
            continue
        text = str(data.get("abstract") or "")
        forms: dict[str, set[str]] = defaultdict(set)
        for entity in graph.successors(paper):
            for form in (data_of[entity]["label"], *data_of[entity]["aliases"]) if entity in data_of else ():
                if len(form) > 1:
                    forms[form].add(entity)
        for match in re.finditer(r"\(([^()]{2,80})\)", text):
            inner = match.group(1).strip()
            written = written_before(text[:match.start()].rstrip(), forms) if inner in forms else None
            if written and not forms[written] & forms[inner] and (spells(inner, written) or spells(written, inner)):
                found.append(f"{paper}: {min(forms[written])} ({written!r}) / {min(forms[inner])} ({inner!r})")
                break
    return found


def written_before(before: str, forms: dict[str, set[str]]) -> str | None:
    """The longest of the forms that `before` ends with as whole words, or ends with before a kind word."""
    ends = [before]
    if kind := KIND_AT_END.search(before):
        ends.append(before[:kind.start()])
    best, start = None, len(before) + 1
    for end in ends:
        for form in forms:
            at = len(end) - len(form)
            if not end.endswith(form) or at >= start:
                continue
            if at == 0 or not (end[at - 1].isalnum() or end[at - 1] in "-\u2010\u2011"):  # a whole word: not `semi-`X
                best, start = form, at
    return best


def proposed_kinds(nodes: Iterable[Node]) -> list[str]:
    """A lower-case phrase (no capital or digit) KIND_PROPOSALS or more papers propose and at least as many more only
    use: a kind the papers contribute instances of (`we propose a novel deep convolutional neural network`), not any
    one paper's contribution."""
    return [f"{node} ({data['label']!r}): a kind proposed by {data.get('proposed_by')} of {data.get('papers')} papers"
            for node, data in nodes if int(data.get("proposed_by") or 0) >= KIND_PROPOSALS
            and int(data.get("papers") or 0) >= 2 * int(data.get("proposed_by") or 0)
            and not any(c.isupper() or c.isdigit() for c in data["label"])]


def variants_apart(nodes: Iterable[Node], knowledge: Knowledge) -> list[str]:
    """Two entities of one type whose names differ only in an ending word that names one concept either way
    (`recurrent network` / `recurrent neural network`, `compression rate` / `compression ratio`, `F-measure` /
    `F-score`: `variants.SAME_ENDINGS`); not two gazetteer entries (Bayesian network, Bayesian neural network)."""
    nodes = list(nodes)
    label_key = {node: match_key(data["label"]) for node, data in nodes}
    owner: dict[tuple[str, str], str] = {}
    for node, data in nodes:
        for form in (data["label"], *data["aliases"]):
            owner.setdefault((data["type"], match_key(form)), node)
    found = []
    for node, data in nodes:
        key = label_key[node]
        for ending, other, _ in SAME_ENDINGS:
            twin = owner.get((data["type"], key[:-len(ending)] + other)) if key.endswith(ending) else None
            if twin and twin != node and not {key, label_key[twin]} <= set(knowledge.names):
                found.append(f"{node} ({data['label']!r}) / {twin}: one concept, another ending word")
                break
    return found


def debris_labels(nodes: Iterable[Node]) -> list[str]:
    """Labels that start with punctuation or a number fragment (`% accuracy`, `.5 dropout`)."""
    return [f"{node} ({data['label']!r}): starts with debris" for node, data in nodes
            if data["label"] and (debris_start(data["label"]) or not data["label"][0].isalnum()
                                  and data["label"][0] not in "(\"'")]


def in_top(top: dict[str, list[str]], lines: Iterable[str]) -> dict[str, int]:
    """How many of each type's top entities the lines name."""
    named = defaultdict(int)
    ids = {node for line in lines for node in re.findall(r"\b(?:method|model|dataset|task|metric):[^\s,()']+", line)}
    for entity_type, nodes in top.items():
        named[entity_type] = sum(node in ids for node in nodes)
    return dict(named)
