"""Which files a build writes and how: the chosen exporters, run in forked processes when they can."""
from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Callable, Iterator, Sequence

from kg.graph.resolution import Resolution, graph_of
from kg.run.atomic import discard, temporary_path
from kg.run.manifest import publish
from kg.run.forked import ForkedError, can_fork, run_forked
from kg.exporters.html_map import topic_communities
from kg.exporters.layout import node_metrics
from kg.registry import UnknownNameError, exporters, lookup
from kg.run.timing import stage, timed

OUTPUT_STEM = "graph"
# Above this many nodes exporters run one after another in the build process: forked exporters
# each end up copying the graph pages they read, which at this size costs more memory than time.
PARALLEL_EXPORT_NODES = 50_000


def choose_writers(formats: list[str], views: Sequence[str] = ("full",)) -> list[tuple[str, Callable]]:
    """The exporters named in `formats`, GraphML once per view; unknown names fail before any work."""
    import kg.exporters  # noqa: F401  (registers the built-in exporters)
    from kg.graph.views import VIEWS

    for view in views:
        if view not in VIEWS:
            raise UnknownNameError(f"unknown view {view!r} (choose from: {', '.join(VIEWS)})")
    if list(views) != ["full"] and "graphml" not in formats:
        raise UnknownNameError(f"--view {','.join(views)} applies to GraphML: add graphml to --format")
    writers: list[tuple[str, Callable]] = []
    for name in formats:
        write = lookup(exporters, name)
        if name != "graphml":
            writers.append((name, write))
            continue
        writers.extend((writer_name(name, view), write if view == "full" else partial(write, view=view))
                       for view in views)
    return writers


def writer_name(fmt: str, view: str = "full") -> str:
    """A writer's name: the format, or `format:view` for a projection."""
    return fmt if view == "full" else f"{fmt}:{view}"


def output_name(writer: str) -> str:
    """The file a writer makes: graph.<format>, or graph-<view>.<format> for `format:view`."""
    fmt, _, view = writer.partition(":")
    return f"{OUTPUT_STEM}-{view}.{fmt}" if view else f"{OUTPUT_STEM}.{fmt}"


def write_exports(resolution: Resolution, out_dir: Path, writers: list[tuple[str, Callable]],
                  stages: dict[str, float] | None = None, processes: int = 1) -> list[Path]:
    """Write `graph.<format>` of the resolution for each exporter, timing each into `stages`; forked in parallel if
    asked.

    Each exporter writes a temporary file in `out_dir`; only when all have succeeded are they
    published together (`kg.run.manifest`): a failure (full disk) or a crash before that leaves the
    previous files, a crash during it is completed by the next build or `kg check`.
    """
    out_dir.mkdir(parents=True, exist_ok=True)
    stages = {} if stages is None else stages
    paths = {name: out_dir / output_name(name) for name, _ in writers}
    temporary = {name: temporary_path(path) for name, path in paths.items()}
    name = ""
    try:
        for name in run_writers(resolution, writers, temporary, stages, processes):
            pass
    except ForkedError as error:
        discard(*temporary.values())
        name, cause = error.failures[0] if error.failures else ("", error)
        if not isinstance(cause, OSError):
            raise
        raise named_error(cause, paths.get(name, out_dir)) from None
    except OSError as error:
        discard(*temporary.values())
        raise named_error(error, paths.get(name, out_dir)) from None
    except BaseException:
        discard(*temporary.values())
        raise
    try:  # from here a crash is completed by the next build (kg.run.manifest.recover)
        publish(out_dir, {paths[name]: temporary[name] for name in paths})
    except OSError as error:
        raise named_error(error, out_dir) from None
    return list(paths.values())


def run_writers(resolution: Resolution, writers: list[tuple[str, Callable]], paths: dict[str, Path],
                stages: dict[str, float], processes: int) -> Iterator[str]:
    """Run each writer on its path (forked when several may run at once), yielding each name as it starts."""
    nodes = len(resolution.papers) + len(resolution.entities)
    if processes > 1 and len(writers) > 1 and can_fork() and nodes <= PARALLEL_EXPORT_NODES:
        writers = sorted(writers, key=lambda named: uses_layout(named[1]))  # stable: layout-free ones first
        resolution.tables  # noqa: B018  (derived before the fork: every writer reads them)
        warm_up = partial(timed, stages, "layout", partial(warm_layout, resolution))
        with stage(stages, "exports (parallel wall)"):
            seconds = run_forked({name: partial(write, resolution, paths[name]) for name, write in writers}, processes,
                                 warm_up if any(uses_layout(write) for _, write in writers) else None)
        stages.update((f"export {name}", value) for name, value in seconds.items())
        return
    for name, write in writers:
        yield name
        with stage(stages, f"export {name}"):
            write(resolution, paths[name])


def warm_layout(resolution: Resolution) -> None:
    """The graph, its topics and GraphML's metrics, computed before the layout writers fork (they share them)."""
    graph = graph_of(resolution)
    node_metrics(graph, community=topic_communities(graph).community)


def named_error(error: BaseException, path: Path) -> BaseException:
    """A file system error re-addressed to the output file it was writing (not its temporary file)."""
    if isinstance(error, OSError):
        return OSError(error.errno, f"{error.strerror or error} (previous outputs kept)", str(path))
    return error


def uses_layout(write: Callable) -> bool:
    """Whether an exporter reads kg.exporters.layout's positions and metrics (plug-ins are assumed to)."""
    return getattr(write, "uses_layout", True)
