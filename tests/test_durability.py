"""Temp-then-rename writers make the bytes durable before the final name appears: cache entries (one syncfs per
batch), query stores and their digest memos; a power cut can lose a new file, never leave an empty one in place."""
from __future__ import annotations

import os
from pathlib import Path

from kg.cache import entries
from kg.cache.entries import PaperCache, setup_salt
from kg.extraction.interface import Extraction
from kg.query import store as store_module
from kg import durable
from kg.types import Paper


def watch(monkeypatch, module, renames: tuple[str, ...] = ("replace",)) -> list[tuple[str, str]]:
    """Record (event, path) for the module's syncs and for renames; a rename's source must have been synced
    after it was last written."""
    events: list[tuple[str, str]] = []
    synced: dict[str, float] = {}
    real_sync, real_fsync = durable.sync_filesystem, durable.fsync_path
    real_renames = {name: getattr(os, name) for name in renames}

    def sync(path: Path) -> None:  # everything written so far is durable: remember each file's mtime
        real_sync(path)
        for folder, _, names in os.walk(path):
            for name in names:
                synced[os.path.join(folder, name)] = os.stat(os.path.join(folder, name)).st_mtime_ns
        events.append(("sync", str(path)))

    def fsync(path: Path, directory: bool = False) -> None:
        real_fsync(path, directory)
        if not directory:
            synced[str(path)] = os.stat(path).st_mtime_ns
        events.append(("fsync", str(path)))

    def renamed(source, target, rename: str) -> None:
        files = [str(source)] if os.path.isfile(source) else [os.path.join(f, n) for f, _, ns in os.walk(source)
                                                             for n in ns]
        assert files and all(synced.get(f) == os.stat(f).st_mtime_ns for f in files), f"{source} not synced"
        events.append(("rename", str(target)))
        real_renames[rename](source, target)

    for owner in (module, durable):
        for name in ("sync_filesystem", "fsync_path"):
            if hasattr(owner, name):
                monkeypatch.setattr(owner, name, sync if name == "sync_filesystem" else fsync)
    for name in renames:
        monkeypatch.setattr(os, name, lambda source, target, name=name: renamed(source, target, name))
    return events


def test_cache_entries_are_on_disk_before_they_get_their_names(tmp_path: Path, monkeypatch) -> None:
    events = watch(monkeypatch, entries)
    cache = PaperCache(tmp_path / "cache", setup_salt(version="1"))
    papers = [Paper(f"p{n}", f"Abstract number {n}.") for n in range(entries.BATCH + 3)]
    for paper in papers:
        cache.store(paper, Extraction())
    cache.flush()
    assert [event for event, _ in events].count("rename") == len(papers)
    assert [event for event, _ in events].count("sync") == 2  # one per batch, not one per entry
    assert all(cache.load(paper) == Extraction() for paper in papers)


def test_a_query_store_and_its_memo_are_on_disk_before_they_get_their_names(tmp_path: Path, monkeypatch) -> None:
    export = tmp_path / "graph.nt"
    export.write_bytes(b"<https://x.org/a> <https://x.org/p> <https://x.org/o> .\n")
    old = os.stat(export).st_mtime - 60
    os.utime(export, (old, old))  # old enough for its digest to be remembered
    events = watch(monkeypatch, store_module, ("rename", "replace"))
    final = store_module.ensure_store(export, tmp_path / "stores")
    assert final.is_dir() and ("rename", str(final)) in events
    assert any(path.endswith(".json") for event, path in events if event == "rename")  # the memo, synced first
