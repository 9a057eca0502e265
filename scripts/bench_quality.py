"""Score the extractors on public benchmarks at paper level (SciERC test, TDMSci test), next to a
train-split dictionary floor scored the same way.

    python scripts/bench_quality.py --benchmarks DIR [--extractors rules]   # DIR: the SciERC and TDMSci splits

SciERC: Task -> task, Method -> method (our model counts as method), Material -> dataset, Metric -> metric;
typed/untyped over task+method+dataset, metric apart. TDMSci: one sentence = one "paper"; TASK, DATASET,
METRIC; our method/model predictions are dropped (TDMSci does not annotate them).
"""
from __future__ import annotations

import argparse
import json
from collections import Counter, defaultdict
from pathlib import Path

from kg.extractors import DEFAULT_EXTRACTORS, extract_spec
from kg.quality.evaluate import Item, graph_items, score
from kg.io.corpus import Corpus
from kg.run.build import BuildConfig, build
from kg.io.readers import record_to_paper

PTB = {"-LRB-": "(", "-RRB-": ")", "-LSB-": "[", "-RSB-": "]", "-LCB-": "{", "-RCB-": "}", "``": '"', "''": '"'}
SCIERC_TYPES = {"Task": "task", "Method": "method", "Material": "dataset", "Metric": "metric"}
TDMSCI_TYPES = {"TASK": "task", "DATASET": "dataset", "METRIC": "metric"}


def load_scierc(path: Path) -> list[tuple[str, str, list[tuple[str, str]]]]:
    """(doc id, text, [(type, surface)]) per SciERC abstract."""
    docs = []
    for line in path.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        tokens = [PTB.get(t, t) for sentence in record["sentences"] for t in sentence]
        entities = [(SCIERC_TYPES[label], " ".join(tokens[s:e + 1])) for sentence in record["ner"]
                    for s, e, label in sentence if label in SCIERC_TYPES]
        docs.append((record["doc_key"], " ".join(tokens), entities))
    return docs


def load_tdmsci(path: Path) -> list[tuple[str, str, list[tuple[str, str]]]]:
    """(sentence id, text, [(type, surface)]) per TDMSci sentence (BIO tags)."""
    docs, tokens, tags = [], [], []
    for line in path.read_text(encoding="utf-8").splitlines() + [""]:
        if line.strip():
            parts = line.split("\t")
            tokens.append(parts[0])
            tags.append(parts[-1])
            continue
        if tokens:
            docs.append((f"s{len(docs)}", " ".join(tokens), bio_entities(tokens, tags)))
        tokens, tags = [], []
    return docs


def bio_entities(tokens: list[str], tags: list[str]) -> list[tuple[str, str]]:
    """Entities of one BIO-tagged sentence."""
    found, current = [], None
    for token, tag in zip(tokens, tags):
        if tag.startswith("B-") or (tag.startswith("I-") and current is None):
            current = [TDMSCI_TYPES[tag[2:]], [token]]
            found.append(current)
        elif tag.startswith("I-"):
            current[1].append(token)
        else:
            current = None
    return [(t, " ".join(words)) for t, words in found]


def gold_of(docs) -> list[Item]:
    """Distinct gold entities per document."""
    return [Item(doc_id, t, "used", (surface,)) for doc_id, _, entities in docs for t, surface in set(entities)]


def predict(docs, type_map: dict[str, str | None], names: tuple[str, ...] = DEFAULT_EXTRACTORS) -> list[Item]:
    """Our predictions per document, types mapped to the benchmark's (None drops the entity)."""
    papers = [record_to_paper({"id": doc_id, "abstract": text}, "bench", i) for i, (doc_id, text, _) in enumerate(docs)]
    spec = extract_spec(names)
    items = graph_items(build(Corpus(papers), BuildConfig(spec, use_cache=False)).graph)
    return [Item(i.paper_id, type_map.get(i.type, i.type), i.role, i.forms, i.node) for i in items
            if type_map.get(i.type, i.type)]


def dictionary(train, docs) -> list[Item]:
    """The floor: every train-split gold string (majority type) found in the text, longest match first."""
    votes: dict[str, Counter] = defaultdict(Counter)
    for _, _, entities in train:
        for entity_type, surface in entities:
            votes[surface][entity_type] += 1
    lexicon = sorted(votes, key=len, reverse=True)
    items = []
    for doc_id, text, _ in docs:
        padded, taken = f" {text} ", set()
        for surface in lexicon:
            at = padded.find(f" {surface} ")
            if at >= 0 and not taken & set(range(at, at + len(surface))):
                taken |= set(range(at, at + len(surface)))
                items.append(Item(doc_id, votes[surface].most_common(1)[0][0], "used", (surface,), surface))
    return items


def report(name: str, predicted: list[Item], gold: list[Item], types: tuple[str, ...]) -> None:
    """Typed/untyped F1 (over `types` except metric) and per type."""
    scores = score(predicted, gold)
    per_type = "  ".join(f"{t} {scores.per_type[t].f1:.3f}" for t in types)
    print(f"{name:<28} typed P {scores.typed.precision:.3f} R {scores.typed.recall:.3f} F1 {scores.typed.f1:.3f}"
          f" | untyped F1 {scores.untyped.f1:.3f} | {per_type}")


def main() -> None:
    """Run both benchmarks and print our scores next to the dictionary floor."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--benchmarks", type=Path, required=True, metavar="DIR",
                        help="folder holding scierc/processed_json/ and tdmsci/ (not part of the repository)")
    parser.add_argument("--extractors", default="fast", metavar="NAME,...",
                        help="extractors as for kg build --extractors (rules, fast, ...; default fast)")
    arguments = parser.parse_args()
    root, names = arguments.benchmarks, tuple(n.strip() for n in arguments.extractors.split(",") if n.strip())
    scierc_train = load_scierc(root / "scierc/processed_json/train.json")
    scierc_test = load_scierc(root / "scierc/processed_json/test.json")
    gold = gold_of(scierc_test)
    print("SciERC test (100 abstracts, paper level; typed/untyped over task+method+dataset)")
    report("  paperkg extractors", predict(scierc_test, {"model": "method"}, names), gold, ("task", "method", "dataset", "metric"))
    report("  train dictionary floor", dictionary(scierc_train, scierc_test), gold, ("task", "method", "dataset", "metric"))
    tdm_train = load_tdmsci(root / "tdmsci/train_1500_v2.conll")
    tdm_test = load_tdmsci(root / "tdmsci/test_500_v2.conll")
    gold = gold_of(tdm_test)
    print("TDMSci test (sentences as papers; typed/untyped over task+dataset, metric apart)")
    report("  paperkg extractors", predict(tdm_test, {"model": None, "method": None}, names), gold, ("task", "dataset", "metric"))
    report("  train dictionary floor", dictionary(tdm_train, tdm_test), gold, ("task", "dataset", "metric"))


if __name__ == "__main__":
    main()
