"""Write the train/dev splits of public entity benchmarks as gold-form JSONL for `kg train --encoder --intermediate`.

usage: python scripts/benchmark_spans.py BENCHMARKS_DIR OUT_DIR

Reads only training and development splits (never a test split, never SciER, whose GPL-3.0 data is for testing
only) and writes one file per source into OUT_DIR, which should lie outside the project: the benchmarks are not
redistributed with paperkg. Each text's entity names are mapped to paperkg's types (SciERC/SciREX Material counts as
dataset; CS-NER research problem as task); a source's other labels are left out, and since each file trains its own
output head, a source that marks only some types teaches nothing about the others.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Iterator

SCIENCE = {"Task": "task", "Method": "method", "Metric": "metric", "Material": "dataset"}  # SciERC, SciREX
CS_NER = {"RESEARCH_PROBLEM": "task", "METHOD": "method"}  # Papers with Code and FTD parts of CS-NER
TDMSCI = {"TASK": "task", "DATASET": "dataset", "METRIC": "metric"}
ABSTRACT_WORDS = 350  # SciREX documents are full papers: the title and abstract, else the first sentences
Span = tuple[int, int, str]  # first and last word (inclusive), label


def record(rid: str, words: list[str], spans: list[Span], mapping: dict[str, str], year: int) -> dict:
    """One gold-form record: the words joined by spaces, the distinct mapped names as entities."""
    starts, position = [], 0
    for word in words:
        starts.append(position)
        position += len(word) + 1
    text = " ".join(words)
    seen, entities = set(), []
    for first, last, label in spans:
        kind = mapping.get(label)
        name = text[starts[first]:starts[last] + len(words[last])]
        if kind and len(name) > 1 and (kind, name.lower()) not in seen:
            seen.add((kind, name.lower()))
            entities.append({"type": kind, "name": name, "aliases": [], "role": "used"})
    return {"id": rid, "year": year, "title": "", "text": text, "entities": entities}


def tagged_blocks(path: Path) -> Iterator[list[tuple[str, str]]]:
    """(word, tag) lists of a token-per-line file, one per blank-line-separated block (cp1252 bytes replaced)."""
    block: list[tuple[str, str]] = []
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines() + [""]:
        parts = line.split()
        if parts:
            block.append((parts[0], parts[-1]))
        elif block:
            yield block
            block = []


def tag_spans(tags: list[str]) -> list[Span]:
    """The spans of BIO or BIOES tags."""
    spans, start, label = [], None, None
    for i, tag in enumerate(tags + ["O"]):
        prefix, _, kind = tag.partition("-")
        if start is not None and (tag == "O" or prefix in "BS" or kind != label):
            spans.append((start, i - 1, label))
            start = None
        if prefix in ("B", "S") or (prefix in ("I", "E") and start is None):
            start, label = i, kind
        if prefix in ("E", "S") and start is not None:
            spans.append((start, i, label))
            start = None
    return spans


def grouped(blocks: list[list[tuple[str, str]]], size: int, separator: list[str]) -> Iterator[tuple[list, list]]:
    """Blocks (titles, sentences) joined `size` at a time into one text's words and spans."""
    for i in range(0, len(blocks), size):
        words: list[str] = []
        spans: list[Span] = []
        for block in blocks[i:i + size]:
            offset = len(words)
            spans += [(s + offset, e + offset, label) for s, e, label in tag_spans([t for _, t in block])]
            words += [w for w, _ in block] + separator
        yield words, spans


def scierc(folder: Path) -> Iterator[dict]:
    """SciERC abstracts (train and dev splits)."""
    for split in ("train", "dev"):
        for line in (folder / "scierc/processed_json" / f"{split}.json").read_text(encoding="utf-8").splitlines():
            doc = json.loads(line)
            words = [w for sentence in doc["sentences"] for w in sentence]
            spans = [(s, e, label) for sentence in doc["ner"] for s, e, label in sentence]
            yield record(f"scierc-{doc['doc_key']}", words, spans, SCIENCE, 2015)


def scirex(folder: Path) -> Iterator[dict]:
    """SciREX papers' titles and abstracts (train and dev splits)."""
    for split in ("train", "dev"):
        for line in (folder / "scirex" / f"{split}.jsonl").read_text(encoding="utf-8").splitlines():
            doc = json.loads(line)
            end = doc["sections"][min(1, len(doc["sections"]) - 1)][1]
            if end > ABSTRACT_WORDS:
                end = max([e for _, e in doc["sentences"] if e <= ABSTRACT_WORDS] or [ABSTRACT_WORDS])
            spans = [(s, e - 1, label) for s, e, label in doc["ner"] if e <= end]
            yield record(f"scirex-{doc['doc_id']}", doc["words"][:end], spans, SCIENCE, 2018)


def pwc_abstracts(folder: Path) -> Iterator[dict]:
    """CS-NER's Papers with Code abstracts (dev split; silver research problems and methods)."""
    for i, block in enumerate(tagged_blocks(folder / "cs-ner/pwc/dev-abs.data")):
        yield record(f"pwc-abs-{i}", [w for w, _ in block], tag_spans([t for _, t in block]), CS_NER, 2019)


def pwc_titles(folder: Path) -> Iterator[dict]:
    """CS-NER's Papers with Code titles (train split), ten to a text."""
    titles = list(tagged_blocks(folder / "cs-ner/pwc/train.data"))
    for i, (words, spans) in enumerate(grouped(titles, 10, ["."])):
        yield record(f"pwc-titles-{i}", words, spans, CS_NER, 2019)


def ftd(folder: Path) -> Iterator[dict]:
    """CS-NER's FTD abstracts (Gupta and Manning's focus and technique, train split)."""
    for i, block in enumerate(tagged_blocks(folder / "cs-ner/ftd/train-abs.data")):
        yield record(f"ftd-abs-{i}", [w for w, _ in block], tag_spans([t for _, t in block]), CS_NER, 2008)


def tdmsci(folder: Path) -> Iterator[dict]:
    """TDMSci sentences (train split), eight to a text."""
    sentences = list(tagged_blocks(folder / "tdmsci/train_1500_v2.conll"))
    for i, (words, spans) in enumerate(grouped(sentences, 8, [])):
        yield record(f"tdmsci-{i}", words, spans, TDMSCI, 2020)


SOURCES = {"scierc": scierc, "scirex": scirex, "pwc-abstracts": pwc_abstracts, "pwc-titles": pwc_titles, "ftd": ftd,
           "tdmsci": tdmsci}


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    folder, out = Path(argv[0]), Path(argv[1])
    out.mkdir(parents=True, exist_ok=True)
    for name, read in SOURCES.items():
        try:
            records = list(read(folder))
        except OSError as error:
            print(f"error: {error.filename}: {error.strerror}", file=sys.stderr)
            return 1
        target = out / f"{name}.jsonl"
        target.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
        print(f"{target}: {len(records)} texts, {sum(len(r['entities']) for r in records):,} names", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
