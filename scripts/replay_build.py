"""Resolution, graph and exports of a large corpus without extracting it: N papers made of a corpus's papers
(copy k of a paper has the id `<id>~r<k>` and its text), each carrying its original's cached extraction.

    python scripts/replay_build.py CORPUS.jsonl --count 100000 --cache-dir DIR --extractors fast --out OUT

The cache must hold the corpus's extractions for that setup (a `kg build CORPUS --cache-dir DIR` made them).
Prints wall time, stages and sampled peak memory as JSON: what the build process of an N-paper build needs
after extraction (the part a cluster does not share), measured without hours of parsing.
"""
from __future__ import annotations

import argparse
import sys
import time
from dataclasses import fields, is_dataclass, replace
from pathlib import Path
from typing import Any

from kg.extractors import extract_spec
from kg.io.readers import read_corpus
from kg.quality.bench import Measurement, TreeMemory, cpu_now, fill_memory, print_figures
from kg.run.build import BuildConfig, open_cache
from kg.run.manifest import output_folder
from kg.run.outputs import choose_writers, write_exports
from kg.run.pipeline import assemble
from kg.run.timing import stage


def renamed(value: Any, paper_id: str) -> Any:
    """`value` (an extraction or a part of one) with every `paper_id` field set to `paper_id`."""
    if is_dataclass(value) and not isinstance(value, type):
        changes = {f.name: paper_id if f.name == "paper_id" else renamed(getattr(value, f.name), paper_id)
                   for f in fields(value) if f.init}
        return replace(value, **changes)
    if isinstance(value, tuple):
        return tuple(renamed(item, paper_id) for item in value)
    return value


def main() -> None:
    """Replay the cached extractions N times over, then resolve, build and export under the memory sampler."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("inputs", nargs="+", type=Path)
    parser.add_argument("--count", type=int, required=True)
    parser.add_argument("--cache-dir", type=Path, required=True)
    parser.add_argument("--extractors", default="")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--jobs", type=int, default=1, help="exporter processes, as kg build --jobs")
    parser.add_argument("--formats", default="ttl,graphml,html")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    spec = extract_spec(tuple(n.strip() for n in args.extractors.split(",") if n.strip()))
    config = BuildConfig(spec, cache_dir=args.cache_dir)
    base = read_corpus(args.inputs).papers
    cache = open_cache(config)
    cached = [(p, e) for p in base if (e := cache.load(p)) is not None]
    if not cached:
        raise SystemExit(f"error: none of the {len(base)} papers has a cache entry for this setup in {args.cache_dir} "
                         f"(build them first: kg build ... --cache-dir {args.cache_dir}, same --extractors and code)")
    if len(cached) < len(base):
        print(f"{len(base) - len(cached)} of {len(base)} papers have no cache entry; replaying the others",
              file=sys.stderr)
    stages: dict[str, float] = {}
    started, wall = cpu_now(), time.perf_counter()
    with TreeMemory(interval=1.0) as tree:
        with stage(stages, "replay"):
            papers, extractions = [], []
            for index in range(args.count):
                paper, extraction = cached[index % len(cached)]
                copy = index // len(cached)
                if copy:
                    new_id = f"{paper.id}~r{copy}"
                    paper, extraction = replace(paper, id=new_id), renamed(extraction, new_id)
                papers.append(paper)
                extractions.append(extraction)
        with stage(stages, "resolve+graph"):
            resolution, stats = assemble(papers, extractions, config.base_iri)
        del extractions
        with output_folder(args.out):
            outputs = write_exports(resolution, args.out, choose_writers(args.formats.split(","), ("full",)), stages,
                                    processes=args.jobs)
    measurement = fill_memory(Measurement(f"replay {args.count}", stats.papers, time.perf_counter() - wall, stages,
                                          note=f"{stats.papers + sum(stats.entities.values())} nodes, "
                                               f"{stats.links + stats.relations} edges",
                                          outputs={p.name: p.stat().st_size for p in outputs},
                                          cpu_seconds=cpu_now() - started), tree)
    print_figures(measurement, args.json)


if __name__ == "__main__":
    main()
