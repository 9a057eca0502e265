"""One measured `kg build`: wall and CPU time, stages, and sampled peak memory of the build process and of each
process under it (local or Dask workers), with the outputs and the extraction cache kept.

    python scripts/measure_build.py big.jsonl --out big-out/ --engine dask --jobs 2 --cache-dir big-cache/

Prints the figures (and writes them as JSON with --json FILE). What `kg bench --dask 2` measures, but into
folders that stay, so the outputs can be compared and the cache reused.
"""
from __future__ import annotations

import argparse
import time
from pathlib import Path

from kg.extractors import extract_spec
from kg.quality.bench import Measurement, TreeMemory, cpu_now, fill_memory, print_figures
from kg.run.build import BuildConfig, build


def main() -> None:
    """Build once under the memory sampler and print what it took."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("inputs", nargs="+", type=Path)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--engine", default="local")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--cache-dir", type=Path, default=None, help="default: no cache")
    parser.add_argument("--extractors", default="", help="as kg build --extractors (default: the default preset)")
    parser.add_argument("--formats", default="ttl,graphml,html")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    spec = extract_spec(tuple(n.strip() for n in args.extractors.split(",") if n.strip()))
    config = BuildConfig(spec, formats=tuple(args.formats.split(",")), jobs=args.jobs, engine=args.engine,
                         cache_dir=args.cache_dir, use_cache=args.cache_dir is not None)
    started, wall = cpu_now(), time.perf_counter()
    with TreeMemory(interval=1.0) as tree:
        report = build(args.inputs, config, args.out)
    measurement = fill_memory(Measurement(f"{args.engine} {args.jobs}", report.stats.papers,
                                          time.perf_counter() - wall, report.stages, note=report.cache or "",
                                          outputs={p.name: p.stat().st_size for p in report.outputs},
                                          cpu_seconds=cpu_now() - started), tree)
    print_figures(measurement, args.json)


if __name__ == "__main__":
    main()
