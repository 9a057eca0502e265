"""Benchmark measurements: a bare spaCy parse against the full build, each in a fresh process."""
from __future__ import annotations

import json
import logging
import random
import re
import resource
import tempfile
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field, replace
from multiprocessing import get_context
from pathlib import Path
from typing import Any, Callable

from kg.run.build import BuildConfig, BuildHooks, build
from kg.run.engines import ExtractSpec
from kg.run.outputs import choose_writers
from kg.io.readers import read_corpus
from kg.run.timing import stage
from kg.types import Paper

log = logging.getLogger(__name__)

SEED = 20261129
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z(])")
BENCH_FORMATS = ("ttl", "graphml", "html")


@dataclass
class Measurement:
    """One timed run in its own process: wall time, stages and peak memory."""

    label: str
    docs: int
    seconds: float
    stages: dict[str, float] = field(default_factory=dict)
    peak_rss_mb: float = 0.0  # this process (ru_maxrss)
    peak_children_mb: float = 0.0  # the largest worker process (ru_maxrss of children)
    peak_tree_mb: float = 0.0  # sampled sum of PSS over the process and its descendants (shared pages split)
    note: str = ""
    peak_each_mb: list[float] = field(default_factory=list)  # sampled peak RSS of each descendant (workers)
    outputs: dict[str, int] = field(default_factory=dict)  # bytes per output file
    page: dict[str, Any] = field(default_factory=dict)  # the HTML page in headless Chromium (kg.quality.page_bench)
    cpu_seconds: float = 0.0  # user + system CPU of the process and the workers it waited for: > seconds × jobs
    # means library thread pools ran besides the workers (oversubscription)

    @property
    def docs_per_second(self) -> float:
        return self.docs / self.seconds if self.seconds else 0.0


class TreeMemory:
    """Sample the memory of this process and its descendants in a thread.

    Summed as PSS (proportional set size: a page shared by k processes counts 1/k in each), so
    forked children sharing the parent's pages copy-on-write are not counted twice; RSS where
    the platform has no PSS.
    """

    def __init__(self, interval: float = 0.5) -> None:
        self.interval, self.peak, self._stop = interval, 0, threading.Event()
        self.each: dict[int, int] = {}  # peak RSS per descendant process id
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> "TreeMemory":
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        try:
            import psutil
        except ImportError:
            return
        me = psutil.Process()
        while not self._stop.wait(self.interval):
            total = 0
            for proc in [me, *me.children(recursive=True)]:
                try:
                    total += proportional(proc)
                    if proc.pid != me.pid:
                        self.each[proc.pid] = max(self.each.get(proc.pid, 0), proc.memory_info().rss)
                except psutil.Error:
                    pass
            self.peak = max(self.peak, total)


def proportional(proc: Any) -> int:
    """A psutil process's PSS in bytes, or its RSS when PSS is unavailable."""
    full = proc.memory_full_info()
    return getattr(full, "pss", None) or full.rss


def cpu_now() -> float:
    """CPU seconds (user + system) used so far by this process and its children that have ended."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def fill_memory(measurement: Measurement, tree: TreeMemory) -> Measurement:
    """Record ru_maxrss of this process and its children (Linux reports KiB) and the tree peak."""
    measurement.peak_rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    measurement.peak_children_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    measurement.peak_tree_mb = tree.peak / 2**20
    measurement.peak_each_mb = sorted((rss / 2**20 for rss in tree.each.values()), reverse=True)
    return measurement


def bare_parse(paths: list[Path], model: str, fast: bool = False) -> Measurement:
    """Load the model and nlp.pipe the markup-stripped abstracts (NER excluded), one process.

    `fast=False` is stock spaCy, the baseline; `fast=True` is the parse the build runs (the
    attribute ruler and lemmatizer replaced by their exact cached stand-ins).
    """
    from kg.nlp.load import load_nlp
    from kg.text.markup import strip_markup

    texts = [strip_markup(p.abstract).text for p in read_corpus(paths).papers]
    stages: dict[str, float] = {}
    started = cpu_now()
    with TreeMemory() as tree:
        with stage(stages, "load model"):
            nlp, _ = load_nlp(model, fast=fast)
        with stage(stages, "parse"):
            for _ in nlp.pipe(texts, batch_size=64):
                pass
    label = "parse, paperkg components" if fast else "bare parse"
    return fill_memory(Measurement(label, len(texts), sum(stages.values()), stages,
                                   cpu_seconds=cpu_now() - started), tree)


class Ticker:
    """Build hooks that print the extraction's progress (papers done, every tenth of the corpus) as it goes."""

    def __init__(self, label: str) -> None:
        self.label, self.total, self.done, self.shown, self.started = label, 0, 0, 0, time.perf_counter()

    def read(self, total: int) -> None:
        self.total = total

    def advance(self, count: int) -> None:
        self.done += count
        if self.total and (self.done * 10 // self.total > self.shown or self.done == self.total):
            self.shown = self.done * 10 // self.total
            print(f"    {self.label}: {self.done:,}/{self.total:,} papers extracted or reused after "
                  f"{time.perf_counter() - self.started:.0f} s", flush=True)

    def hooks(self) -> BuildHooks:
        return BuildHooks(on_read=self.read, progress=self.advance)


def full_build(label: str, paths: list[Path], config: BuildConfig, page: bool = False,
               progress: bool = False) -> Measurement:
    """The whole build (read, extract, resolve, exports) into a temporary directory; with `page`,
    its HTML page is then opened in headless Chromium (when installed); with `progress`, the
    extraction's progress is printed as it goes."""
    formats, missing = available_formats(config.formats)
    hooks = Ticker(label).hooks() if progress else BuildHooks()
    with tempfile.TemporaryDirectory(prefix="kg-bench-") as out:
        started = cpu_now()
        with TreeMemory() as tree:
            report = build(paths, replace(config, formats=formats), Path(out), hooks)
        cpu = cpu_now() - started
        note = f"exporters missing: {', '.join(missing)}" if missing else ""
        if report.cache:
            note = "; ".join(filter(None, [note, "cache " + report.cache.split(" in ")[0]]))
        measurement = fill_memory(Measurement(label, report.stats.papers, report.seconds, report.stages, note=note,
                                              outputs={p.name: p.stat().st_size for p in report.outputs},
                                              cpu_seconds=cpu), tree)
        html = Path(out) / "graph.html"
        if page and html.is_file():
            measurement.page = page_figures(html)
    return measurement


def page_figures(html: Path) -> dict[str, Any]:
    """The page in headless Chromium (kg.quality.page_bench), or why not."""
    from kg.quality.browser import find_chromium
    from kg.quality.page_bench import measure_page

    binary = find_chromium()
    return measure_page(binary, html) if binary else {"problems": ["chromium is not installed"]}


def available_formats(formats: tuple[str, ...]) -> tuple[tuple[str, ...], list[str]]:
    """The formats whose exporters exist now, and the names of those that do not (yet)."""
    kept, missing = [], []
    for name in formats:
        try:
            choose_writers([name])
            kept.append(name)
        except Exception as error:  # noqa: BLE001  (exporters may be under construction)
            log.warning("exporter %s unavailable: %s", name, error)
            missing.append(name)
    return tuple(kept), missing


def in_fresh_process(function: Callable[..., Measurement], *args: Any) -> Measurement:
    """Run a measurement in a new spawned process, so peak memory is its own."""
    with ProcessPoolExecutor(max_workers=1, mp_context=get_context("spawn")) as pool:
        return pool.submit(function, *args).result()


def synthesize(papers: list[Paper], count: int, seed: int = SEED, prefix: str = "synthetic") -> list[dict]:
    """`count` abstracts made of sentences of real ones, recombined with a fixed seed."""
    rng = random.Random(seed)
    split = [SENTENCE_END.split(p.abstract.strip()) for p in papers]
    pool = [s for sentences in split for s in sentences if s]
    lengths = [len(sentences) for sentences in split if sentences]
    records = []
    for index in range(count):
        sentences = [rng.choice(pool) for _ in range(rng.choice(lengths))]
        records.append({"id": f"{prefix}-{seed}-{index:07d}", "abstract": " ".join(sentences)})
    return records


def write_jsonl(records: list[dict], path: Path) -> Path:
    """Write records one JSON object per line."""
    with path.open("w", encoding="utf-8") as handle:
        for record in records:
            handle.write(json.dumps(record, ensure_ascii=False) + "\n")
    return path


def as_dict(measurement: Measurement) -> dict[str, Any]:
    """A JSON-ready form with docs/s."""
    return {**asdict(measurement), "docs_per_second": round(measurement.docs_per_second, 2)}



def print_figures(measurement: Measurement, json_path: Path | None = None) -> None:
    """Print a measurement and the load average at its end as JSON (the scale scripts), and write it to `json_path`."""
    import os

    text = json.dumps({**as_dict(measurement), "load_at_end": os.getloadavg()}, indent=1)
    print(text)
    if json_path:
        json_path.write_text(text + "\n", encoding="utf-8")
