"""`kg bench`: the full build against a bare spaCy parse, cold/warm/incremental, 1 vs N jobs."""
from __future__ import annotations

import json
import math
import statistics
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Optional

import typer
from rich.console import Console
from rich.table import Table

from kg.cli.errors import EXIT_USAGE, fail
from kg.cli.help import EXTRACTORS_HELP
from kg.nlp import DEFAULT_MODEL

if TYPE_CHECKING:  # the heavy modules load when the command runs, not when `kg` starts
    from kg.quality.bench import Measurement
    from kg.run.build import BuildConfig

NEW_FRACTION = 0.01
out = Console(highlight=False)


def bench_command(
    corpus: Path = typer.Argument(..., metavar="CORPUS",
                                  help="Corpus file or directory to build (e.g. seeds/, or a JSONL of abstracts)."),
    synthetic: int = typer.Option(0, metavar="N", help="Bench N abstracts recombined from the corpus's sentences instead."),
    runs: int = typer.Option(1, min=1, metavar="N", help="Repetitions; figures are medians."),
    jobs: int = typer.Option(2, "--jobs", "-j", min=1, metavar="N", help="Also time a cold build with N processes."),
    model: str = typer.Option(DEFAULT_MODEL, metavar="NAME", help="spaCy pipeline package or path."),
    parse: bool = typer.Option(True, "--parse/--no-parse",
                               help="Time the bare parse (stock spaCy, and with paperkg's components)."),
    serial: bool = typer.Option(True, "--serial/--no-serial", help="Time the single-process builds."),
    incremental: bool = typer.Option(True, "--incremental/--no-incremental", help="Time warm and +1% builds."),
    dask: str = typer.Option("", metavar="N,...", help="Also time cold builds on a local Dask cluster of N workers each."),
    page: bool = typer.Option(True, "--page/--no-page",
                              help="Open the first cold build's HTML page in headless Chromium (when installed)."),
    json_path: Optional[Path] = typer.Option(None, "--json", metavar="FILE", help="Also write every measurement as JSON."),
    extractors: str = typer.Option("", "--extractors", metavar="NAME,...", help=EXTRACTORS_HELP),
) -> None:
    """Time the build stage by stage against a bare nlp.pipe of the same texts."""
    workers = dask_workers(dask)
    if not (parse or serial or incremental or jobs > 1 or workers):
        raise fail("nothing to measure: --no-parse, --no-serial and --no-incremental with --jobs 1 leave no "
                   "measurement (drop one of them, or set --jobs 2)", EXIT_USAGE)
    from kg.extractors import extract_spec
    from kg.quality.bench import as_dict

    spec = extract_spec(tuple(n.strip() for n in extractors.split(",") if n.strip()))
    with tempfile.TemporaryDirectory(prefix="kg-bench-") as tmp:
        work = Path(tmp)
        paths, extra = bench_inputs(corpus, synthetic, work)
        results: list[Measurement] = []
        for run in range(runs):
            out.print(f"run {run + 1}/{runs}", style="bold")
            for label, function, args in one_run(paths, extra, model, spec, jobs, work / f"run{run}",
                                                 parse, serial, incremental, workers, page):
                results.append(measure(label, function, args))
    report(results, jobs)
    if json_path:
        json_path.write_text(json.dumps([as_dict(m) for m in results], indent=1) + "\n", encoding="utf-8")


def dask_workers(text: str) -> list[int]:
    """The worker counts of `--dask 2,1` (a usage error unless positive integers)."""
    try:
        counts = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        counts = [0]
    if any(count < 1 for count in counts):
        raise fail(f"--dask takes worker counts such as 2,1 (got {text!r})", EXIT_USAGE)
    return counts


def bench_inputs(corpus: Path, synthetic: int, work: Path) -> tuple[list[Path], Path]:
    """The corpus (or a synthetic one) and a file of 1% new abstracts to add."""
    from kg.quality.bench import synthesize, write_jsonl
    from kg.io.readers import read_corpus

    papers = read_corpus([corpus]).papers
    paths = [corpus]
    if synthetic:
        paths = [write_jsonl(synthesize(papers, synthetic), work / f"synthetic-{synthetic}.jsonl")]
    count = synthetic or len(papers)
    new = synthesize(papers, max(1, math.ceil(count * NEW_FRACTION)), seed=7, prefix="new")
    return paths, write_jsonl(new, work / "new.jsonl")


Step = tuple  # (label, measurement function, its arguments): one measurement, run in its own process


def one_run(paths: list[Path], extra: Path, model: str, spec, jobs: int, work: Path, parse: bool, serial: bool,
            incremental: bool, workers: list[int] = (), page: bool = False) -> list[Step]:
    """One repetition's measurements, in order: bare parse, cold/warm/+1% builds with 1 process, a cold build with
    `jobs`, cold builds on Dask clusters of `workers`; the first cold build's page opened in Chromium if `page`."""
    from kg.quality.bench import BENCH_FORMATS, bare_parse, full_build
    from kg.run.build import BuildConfig

    def config(jobs: int, cache: Path, engine: str = "local") -> BuildConfig:
        return BuildConfig(spec, model=model, formats=BENCH_FORMATS, jobs=jobs, cache_dir=cache, engine=engine)

    steps: list[Step] = []
    if parse:
        steps += [("bare parse", bare_parse, (paths, model)),
                  ("parse, paperkg components", bare_parse, (paths, model, True))]
    cache = work / "cache-1"
    if serial:
        steps.append(("build cold, 1 job", full_build, ("build cold, 1 job", paths, config(1, cache), page, True)))
    if serial and incremental:
        steps += [("build warm", full_build, ("build warm", paths, config(1, cache), False, True)),
                  ("build +1% new", full_build, ("build +1% new", paths + [extra], config(1, cache), False, True))]
    if jobs > 1:
        label = f"build cold, {jobs} jobs"
        steps.append((label, full_build, (label, paths, config(jobs, work / f"cache-{jobs}"), page and not serial, True)))
    for count in workers:
        label = f"dask cold, {count} worker{'s' * (count > 1)}"
        steps.append((label, full_build, (label, paths, config(count, work / f"cache-dask-{count}", "dask"), False,
                                          True)))
    return steps


def measure(label: str, function, args: tuple) -> Measurement:
    """Run one measurement in a fresh process, saying on stdout when it starts and what it took when it ends (its
    stages too), so a long bench shows its progress as it goes."""
    import os
    import time

    from kg.quality.bench import in_fresh_process

    out.print(f"  {label}: started {time.strftime('%H:%M:%S')}, load {os.getloadavg()[0]:.2f}", markup=False)
    measurement = in_fresh_process(function, *args)
    stages = ", ".join(f"{name} {seconds:.1f}" for name, seconds in measurement.stages.items())
    out.print(f"  {label}: {measurement.seconds:.1f}s wall, {measurement.cpu_seconds:.1f}s CPU"
              + (f" ({stages})" if stages else ""), markup=False, soft_wrap=True)
    return measurement


def medians(results: list[Measurement]) -> dict[str, Measurement]:
    """Per label, a measurement of the median seconds, stages and memory over the runs."""
    from kg.quality.bench import Measurement

    by_label: dict[str, list[Measurement]] = {}
    for measurement in results:
        by_label.setdefault(measurement.label, []).append(measurement)
    merged = {}
    for label, group in by_label.items():
        stages = {name: statistics.median(m.stages.get(name, 0.0) for m in group) for name in group[0].stages}
        merged[label] = Measurement(
            label, group[0].docs, statistics.median(m.seconds for m in group), stages,
            statistics.median(m.peak_rss_mb for m in group), statistics.median(m.peak_children_mb for m in group),
            statistics.median(m.peak_tree_mb for m in group), group[-1].note, group[-1].peak_each_mb,
            group[-1].outputs, group[-1].page,  # the last run's processes, files and page
            cpu_seconds=statistics.median(m.cpu_seconds for m in group))
    return merged


def report(results: list[Measurement], jobs: int) -> None:
    """Print medians per measurement, per stage, and the ratios against the targets."""
    merged = medians(results)
    runs = max(len([m for m in results if m.label == label]) for label in merged)
    table = Table("measurement", "docs", "seconds", "CPU s", "docs/s", "RSS MB", "worker MB", "tree PSS MB",
                  title=f"median of {runs} run(s); CPU = user + system time of the process and its workers (more "
                        "than seconds × processes: library threads ran besides them); RSS = peak of the build "
                        "process, worker = largest child, "
                        "tree PSS = sampled peak of the summed proportional set size of all processes "
                        "(shared pages counted once)")
    for m in merged.values():
        table.add_row(m.label, str(m.docs), f"{m.seconds:.2f}", f"{m.cpu_seconds:.2f}", f"{m.docs_per_second:.1f}",
                      f"{m.peak_rss_mb:.0f}",
                      f"{m.peak_children_mb:.0f}", f"{m.peak_tree_mb:.0f}")
    out.print(table)
    for m in merged.values():
        if m.note:
            out.print(f"{m.label}: {m.note}", markup=False, soft_wrap=True)
    stages = Table("stage", *merged, title="seconds per stage (median)")
    names = list(dict.fromkeys(name for m in merged.values() for name in m.stages))
    for name in names:
        stages.add_row(name, *(f"{m.stages[name]:.2f}" if name in m.stages else "" for m in merged.values()))
    out.print(stages)
    for line in ratios(merged, jobs) + scale_lines(merged):
        out.print(line, markup=False)


def ratios(merged: dict[str, Measurement], jobs: int) -> list[str]:
    """The target ratios that the measurements allow."""
    def seconds(label: str) -> float | None:
        return merged[label].seconds if label in merged else None

    parse, cold, warm = seconds("bare parse"), seconds("build cold, 1 job"), seconds("build warm")
    own_parse = seconds("parse, paperkg components")
    more, parallel = seconds("build +1% new"), seconds(f"build cold, {jobs} jobs")
    lines = []
    if parse and cold:
        lines.append(f"full build / bare parse: {cold / parse:.2f}x (target <= 2.5x)")
    if own_parse and cold:
        lines.append(f"  full build / the same parse with paperkg's components: {cold / own_parse:.2f}x")
    if cold and parallel:
        lines.append(f"speed-up 1 -> {jobs} jobs: {cold / parallel:.2f}x (target >= 1.8x on 2 cores)")
        serial, fanned = merged["build cold, 1 job"].stages, merged[f"build cold, {jobs} jobs"].stages
        if serial.get("extract") and fanned.get("extract"):
            lines.append(f"  extract stage alone: {serial['extract'] / fanned['extract']:.2f}x")
    if cold and warm:
        lines.append(f"warm / cold: {warm / cold:.1%}")
    if cold and more:
        lines.append(f"+1% new / cold: {more / cold:.1%} (target <= 5%)")
    return lines


def scale_lines(merged: dict[str, Measurement]) -> list[str]:
    """The HTML page in Chromium, the output sizes, and each Dask run's driver and worker memory."""
    from kg.quality.page_bench import TIMED

    lines = []
    for m in merged.values():
        if m.page:
            timed = ", ".join(f"{key[:-3].replace('_', ' ')} {m.page[key]:,} ms" for key in TIMED if key in m.page)
            size = m.outputs.get("graph.html", 0) / 1e6
            lines.append(f"HTML page ({m.label}): {size:.2f} MB; {timed or 'not opened'} (target: interactive <= 3 s)"
                         + (f"; problems: {'; '.join(m.page['problems'][:3])}" if m.page.get("problems") else ""))
        if m.label.startswith("dask"):
            workers = ", ".join(f"{mb:.0f}" for mb in m.peak_each_mb[:8]) or "none seen"
            lines.append(f"{m.label}: {m.seconds:.1f} s; driver peak RSS {m.peak_rss_mb:.0f} MB, "
                         f"largest processes under it (workers; forked exporters with 2+ jobs) {workers} MB")
    cold = next((m for m in merged.values() if m.outputs), None)
    if cold:
        lines.append(f"outputs ({cold.label}): " + ", ".join(f"{name} {size / 1e6:.1f} MB"
                                                         for name, size in sorted(cold.outputs.items())))
    return lines
