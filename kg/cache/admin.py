"""The per-paper extraction cache's layout on disk, and inspecting and pruning it (only its own files).

Kept free of spaCy so that `kg cache` starts fast; `kg.cache.entries` writes entries where `entry_path` says.
"""
from __future__ import annotations

import os
import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

SHARD = re.compile(r"[0-9a-f]{2}")
ENTRY = re.compile(r"([0-9a-f]{64})\.json")
TEMPORARY_PREFIX = ".tmp-"  # what PaperCache.store names a file before renaming it into place
SECONDS_PER_DAY = 86400.0


def entry_path(directory: Path, key: str) -> Path:
    """Where the entry with sha256 `key` lives: sharded by the key's first two hex digits."""
    return directory / key[:2] / f"{key}.json"


@dataclass(frozen=True)
class CacheFile:
    """One file the cache wrote: an entry, or a temporary file a write left behind."""

    path: Path
    size: int
    mtime: float
    temporary: bool


@dataclass(frozen=True)
class Tally:
    """How many files and how many bytes."""

    files: int = 0
    bytes: int = 0


def shard_dirs(directory: Path) -> list[Path]:
    """The shard directories (two lowercase hex digits, not links) under `directory`; none if missing."""
    try:
        with os.scandir(directory) as items:
            return sorted(Path(item.path) for item in items
                          if SHARD.fullmatch(item.name) and item.is_dir(follow_symlinks=False))
    except FileNotFoundError:
        return []


def is_cache_file(shard: Path, name: str) -> bool:
    """Whether `name` in `shard` is an entry of that shard or a stray temporary file."""
    entry = ENTRY.fullmatch(name)
    if entry:
        return entry.group(1)[:2] == shard.name
    return name.startswith(TEMPORARY_PREFIX)


def cache_files(directory: Path) -> Iterator[CacheFile]:
    """Every regular file the cache wrote under `directory`: `<2 hex>/<sha256>.json` and `.tmp-*`."""
    for shard in shard_dirs(directory):
        with os.scandir(shard) as items:
            for item in sorted(items, key=lambda entry: entry.name):
                if is_cache_file(shard, item.name) and item.is_file(follow_symlinks=False):
                    stat = item.stat(follow_symlinks=False)
                    yield CacheFile(Path(item.path), stat.st_size, stat.st_mtime,
                                    item.name.startswith(TEMPORARY_PREFIX))


def cache_info(directory: Path) -> Tally:
    """The number of entries under `directory` and their total size (temporary files aside)."""
    entries = [file for file in cache_files(directory) if not file.temporary]
    return Tally(len(entries), sum(file.size for file in entries))


def clear_cache(directory: Path, older_than_days: float | None = None, now: float | None = None) -> Tally:
    """Remove entries and temporary files (only those older than the given days), then empty shards."""
    cutoff = None
    if older_than_days is not None:
        cutoff = (time.time() if now is None else now) - older_than_days * SECONDS_PER_DAY
    removed = freed = 0
    for file in list(cache_files(directory)):
        if cutoff is not None and file.mtime >= cutoff:
            continue
        try:
            file.path.unlink()
        except FileNotFoundError:  # removed meanwhile, e.g. by another clear
            continue
        removed += 1
        freed += file.size
    for shard in shard_dirs(directory):
        try:
            shard.rmdir()  # fails, as wanted, unless the shard is empty
        except OSError:
            pass
    return Tally(removed, freed)


def human_size(size: int) -> str:
    """A byte count, with KiB, MiB or GiB alongside once it reaches 1 KiB."""
    value, unit = float(size), "bytes"
    for larger in ("KiB", "MiB", "GiB"):
        if value < 1024:
            break
        value, unit = value / 1024, larger
    return f"{size} bytes" if unit == "bytes" else f"{value:.1f} {unit} ({size} bytes)"
