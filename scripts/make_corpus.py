"""Write a large corpus for scale runs: real corpora replicated with varied ids and light text changes.

    python scripts/make_corpus.py 100000 --out big.jsonl CORPUS.jsonl [MORE.jsonl ...]

Record i is record i mod M of the inputs (their records in order, ids listed in a
`reserved-ids.txt` beside an input left out). The first copy is the record as it is; copy r > 0
gets the id `<id>~r<r>`, its abstract's sentences rotated by a seeded amount and one digit of
each of a few numbers changed, so its parse and extraction are new work, not a cache hit. The same
arguments write the same bytes, and N records are a prefix of N' > N records.
"""
from __future__ import annotations

import argparse
import json
import random
import re
from pathlib import Path
from typing import Iterator

SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z(])")
DIGIT = re.compile(r"\d")
SEED = 20261201


def reserved(path: Path) -> set[str]:
    """Ids listed in `reserved-ids.txt` beside a corpus file (none when there is no such file)."""
    listing = path.parent / "reserved-ids.txt"
    return set(listing.read_text(encoding="utf-8").split()) if listing.is_file() else set()


def records(paths: list[Path]) -> list[dict]:
    """Every JSONL record with an id and an abstract, reserved ids left out, in file order."""
    found = []
    for path in paths:
        skip = reserved(path)
        with path.open(encoding="utf-8") as handle:
            for number, line in enumerate(handle, 1):
                if not line.strip():
                    continue
                try:
                    record = json.loads(line)
                except json.JSONDecodeError as error:
                    raise SystemExit(f"{path}:{number}: not JSON ({error.msg})") from None
                if record.get("id") and record.get("abstract") and str(record["id"]) not in skip:
                    found.append(record)
    return found


def perturb(text: str, rng: random.Random) -> str:
    """The text with its sentences rotated and a few digits changed (its words and length kept)."""
    sentences = [s for s in SENTENCE_END.split(text.strip()) if s]
    turn = rng.randrange(len(sentences)) if len(sentences) > 1 else 0
    text = " ".join(sentences[turn:] + sentences[:turn])
    digits = [m.start() for m in DIGIT.finditer(text)]
    for position in rng.sample(digits, min(3, len(digits))):
        text = text[:position] + str(rng.randrange(10)) + text[position + 1:]
    return text


def generate(base: list[dict], count: int, seed: int = SEED) -> Iterator[dict]:
    """`count` records: copy 0 of every base record, then copy 1, and so on."""
    for index in range(count):
        record, copy = dict(base[index % len(base)]), index // len(base)
        if copy:
            rng = random.Random(f"{seed}:{record['id']}:{copy}")
            record["id"] = f"{record['id']}~r{copy}"
            record["abstract"] = perturb(record["abstract"], rng)
        yield record


def main() -> None:
    """Write the corpus, one JSON record per line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("count", type=int)
    parser.add_argument("inputs", nargs="+", type=Path, help="JSONL corpora")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--seed", type=int, default=SEED)
    args = parser.parse_args()
    base = records(args.inputs)
    if not base:
        raise SystemExit("no records with an id and an abstract in the inputs")
    with args.out.open("w", encoding="utf-8") as handle:
        for record in generate(base, args.count, args.seed):
            handle.write(json.dumps(record, ensure_ascii=False) + "\n")
    print(f"wrote {args.count} records ({len(base)} distinct) to {args.out}")


if __name__ == "__main__":
    main()
