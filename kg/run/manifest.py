"""One build, one folder: the export files of a build replace the previous ones as a unit.

A build writes every file to a temporary file first (`kg.run.atomic`). Then `publish` records the
new set in `.kg-manifest.json` (file name -> SHA-256 of its new bytes), flushed to disk before any
rename, and renames the temporary files into place. A crash between those renames leaves a folder
whose manifest names bytes some files do not have yet, but whose temporary files do: `recover`
(the next build, `kg check`) renames them into place (rolls forward). A crash before the manifest
is written leaves the previous files and their manifest: the temporary files are just removed.
`mixed` says which files do not match the manifest. The manifest holds no time or process id, so
the same build gives the same manifest.
"""
from __future__ import annotations

import json
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from kg.run.atomic import TEMP_PREFIX, OutputLock, atomic_path, commit, fsync_path, remove_leftovers
from kg.durable import file_digest as digest

MANIFEST = ".kg-manifest.json"


def publish(folder: Path, temporary: dict[Path, Path]) -> None:
    """Make the temporary files (final path -> temporary path) the folder's files, as one build."""
    files = {final.name: digest(temp) for final, temp in sorted(temporary.items())}
    with atomic_path(folder / MANIFEST) as path:
        path.write_text(json.dumps({"files": files}, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    for final, temp in sorted(temporary.items()):
        commit(temp, final)
    fsync_path(folder, directory=True)


def read_manifest(folder: Path) -> dict[str, str] | None:
    """File name -> SHA-256 of the last build that reached its renames, or None (no or unreadable manifest)."""
    try:
        files = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))["files"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return files if isinstance(files, dict) and all(isinstance(v, str) for v in files.values()) else None


def recover(folder: Path) -> list[str]:
    """Finish an interrupted publish: rename each temporary file holding a manifest file's new bytes into place.

    Call with the folder's lock held. Returns the names completed.
    """
    files = read_manifest(folder) or {}
    completed = []
    for name, expected in sorted(files.items()):
        for temp in sorted(folder.glob(f"{TEMP_PREFIX}*-{name}")):
            if temp.is_file() and digest(temp) == expected:
                if not matches(folder / name, expected):
                    commit(temp, folder / name)
                    completed.append(name)
                break
    if completed:
        fsync_path(folder, directory=True)
    return completed


def matches(path: Path, expected: str) -> bool:
    """Whether the file exists and holds the bytes with this digest."""
    try:
        return digest(path) == expected
    except OSError:
        return False


def mixed(folder: Path) -> tuple[list[str], list[str]] | None:
    """(files whose bytes are not the last build's, export files the last build did not write); None without a manifest."""
    files = read_manifest(folder)
    if files is None:
        return None
    stale = [name for name, expected in sorted(files.items()) if not matches(folder / name, expected)]
    others = sorted(p.name for p in folder.glob("graph*.*") if p.is_file() and p.name not in files)
    return stale, others


@contextmanager
def output_folder(folder: Path) -> Iterator[Path]:
    """Create `folder` if needed and hold its lock; a crashed build's publish is completed, its leftovers removed.

    A folder this call created is removed again if the block fails and leaves it empty.
    """
    created = not folder.exists()
    folder.mkdir(parents=True, exist_ok=True)
    try:
        with OutputLock(folder):
            recover(folder)  # a build killed while publishing its files is completed first
            remove_leftovers(folder)
            yield folder
    except BaseException:
        if created:
            try:
                folder.rmdir()
            except OSError:
                pass
        raise
